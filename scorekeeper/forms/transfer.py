"""Forms for moving games in and out: the game-file upload and the paper sheet check.

They only map input: the upload hands the file's bytes to gamefile.find_problems; the paper
check turns the typed cells into rules.paper's PaperRow and PaperOptions. (Kept apart from
forms/deals.py, whose forms are the deal forms at the table.)
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from flask_babel import lazy_pgettext as _lp
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from werkzeug.datastructures import FileStorage
from wtforms import (
    BooleanField,
    Form,
    HiddenField,
    IntegerField,
    RadioField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import NumberRange, Optional, StopValidation
from wtforms.widgets import CheckboxInput, ListWidget, NumberInput, TextInput

from ..i18n import gettext as _
from ..i18n import lazy_gettext as _l
from ..i18n import right_to_left
from ..inputs import whole_number
from ..names import CONTRACT_NAMES, CONTRACTS, KING_LABEL
from ..rules.paper import PaperOptions, PaperRow
from ..rules.trix import PARTNERSHIPS
from .fields import TARGET_RANGE, CountField, DigitsInput, check_names, choices

#: Rows a paper sheet may have: a Trix game is at most 20 deals; Trigami games run longer.
MAX_ROWS = {"trigami": 80, "bugami3": 80, "trix": 20}
DEFAULT_ROWS = 5
#: Biggest number a cell takes: anything larger is a typing slip.
MAX_CELL = 100_000

#: Short chip labels for the contracts on a paper row (the full name is read out too).
CONTRACT_CHIPS = {"king": KING_LABEL, "queens": _lp("contract", "Queens"), "diamonds": "♦",
                  "tricks": _lp("contract", "Tricks"), "trix": _lp("contract", "Trix")}


class UploadForm(FlaskForm):
    """A game file to import (GAME-FILE.md); CSRF-protected like every POST.

    ``nonce``: a one-time token, so the same upload sent twice stores one game.
    ``content``: the text of a file already uploaded once, sent back with ``copy`` = "1"
    when the player asks to import a copy of a game that is stored already.
    """

    file = FileField(_l("File (.json)"), render_kw={"accept": ".json,application/json,text/plain"})
    nonce = HiddenField()
    content = HiddenField()
    copy = HiddenField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.nonce.data:
            self.nonce.data = secrets.token_urlsafe(16)

    def validate_file(self, field: FileField) -> None:
        if not self.content.data and not isinstance(field.data, FileStorage):
            raise StopValidation(_("Choose a game file first."))

    def raw(self, most: int = -1) -> bytes:
        """The game file's bytes (at most ``most`` of them; -1: all): the chosen file, else
        the text sent back for a copy."""
        if isinstance(self.file.data, FileStorage) and self.file.data.filename:
            return bytes(self.file.data.read(most))
        return (self.content.data or "").encode()


# --------------------------------------------------------------------------- paper check

_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\u2014": "-", "\ufe63": "-",
                        "\uff0d": "-", "\uff0b": "+"})


class PointsField(IntegerField):
    """One cell of the paper sheet: a whole number with its sign as written (−25, +75, 25);
    blank is None. A typographic minus (−, –) counts as a minus sign."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).translate(_MINUS).replace(" ", "") if valuelist else ""
        if not text:
            self.data = None
            return
        magnitude = whole_number(text[1:] if text[:1] in "+-" else text)
        if magnitude is None:
            self.data = None
            raise ValueError(_("Enter a whole number, like %(negative)s or %(positive)s.", negative=-25, positive=80))
        value = -magnitude if text.startswith("-") else magnitude
        if abs(value) > MAX_CELL:
            self.data = None
            raise ValueError(_("That number is too large for one deal."))
        self.data = value


class TargetField(CountField):
    """The paper sheet's target: whatever is not a whole number from 50 to 100000 (text,
    a minus sign, a huge number) gets that one message, beside the field."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(str(TARGET_RANGE)) from None


def _points_field(label: Any, *, signed: bool) -> PointsField:
    """A cell. Trix points are mostly negative: ``type=number`` brings up a keyboard with
    digits and a minus sign on phones (inputmode=numeric would hide the minus on iPhones);
    Trigami scores are never negative, so they get the plain digit keypad. No ``pattern``:
    the server reads any script's digits (inputs.whole_number), which "[0-9]*" would refuse
    before sending. On a page in Arabic a Trix cell is a text field: ``type=number`` drops
    the Arabic-Indic digits an Arabic keypad types (٧٥), and the full keyboard has the
    minus sign."""
    if signed:
        if right_to_left():
            return PointsField(label, widget=TextInput(), render_kw={
                "autocomplete": "off", "enterkeyhint": "next", "spellcheck": "false", "dir": "ltr"})
        return PointsField(label, widget=NumberInput(step=1),
                           render_kw={"autocomplete": "off", "enterkeyhint": "next"})
    return PointsField(label, widget=TextInput(),
                       render_kw={"inputmode": "numeric", "autocomplete": "off", "enterkeyhint": "next"})


class PaperForm(Form):
    """A paper sheet to check; :func:`paper_form` makes the form of a kind of game and a
    number of rows (its players', settings' and cells' fields)."""

    game_kind: str
    seat_count: int
    row_count: int
    is_trix: bool

    def _checked_names(self) -> tuple[list[str], list[list[str]]]:
        """The names and each one's problems (fields.check_names: as a game's names)."""
        return check_names([self[f"n{s}"].data for s in range(self.seat_count)],
                           [_("Player %(n)s", n=s + 1) for s in range(self.seat_count)])

    def names(self) -> list[str]:
        """The players' names as typed (cleaned), or "Player 1" … where left blank or
        refused (a name no game takes: longer than 40 characters, invisible control
        characters; :meth:`validate` says why beside the field)."""
        return self._checked_names()[0]

    def validate(self, extra_validators: Any = None) -> bool:
        """The cells and settings (wtforms), and the names checked as a game's are (each
        problem beside its name's field)."""
        valid = super().validate(extra_validators)
        for seat, found in enumerate(self._checked_names()[1]):
            if found:
                field = self[f"n{seat}"]
                field.errors = [*field.errors, *found]
                valid = False
        return valid

    def name_fields_wrong(self) -> list[Any]:
        """The name fields with a problem beside them (after :meth:`validate`)."""
        return [self[f"n{s}"] for s in range(self.seat_count) if self[f"n{s}"].errors]

    def options(self) -> PaperOptions:
        if not self.is_trix:
            return PaperOptions(kind=self.game_kind, target=self.target.data or 500)
        return PaperOptions(kind=self.game_kind, doubling=bool(self.doubling.data),
                            values="swapped" if self.swapped.data else "standard",
                            reversed=bool(self.reversed.data), complex=bool(self.complex.data),
                            # a value the buttons never send is no partnership (GET: nothing stored)
                            partnership=self.partnership.data if self.partnership.data in PARTNERSHIPS else None)

    def contracts_of(self, row: int) -> tuple[str, ...]:
        if not self.is_trix:
            return ()
        data = self[f"c{row}"].data
        chosen = data if isinstance(data, list) else [data]  # checkboxes or radio
        return tuple(c for c in CONTRACTS if c in chosen)

    def paper_rows(self) -> list[PaperRow]:
        """One PaperRow per row; written totals only when ``totals`` is ticked."""
        out = []
        for row in range(1, self.row_count + 1):
            points = tuple(self[f"p{row}_{s}"].data for s in range(self.seat_count))
            totals = (tuple(self[f"t{row}_{s}"].data for s in range(self.seat_count))
                      if self.totals.data else ())
            out.append(PaperRow(points=points, contracts=self.contracts_of(row), totals=totals))
        return out

    def unread_rows(self) -> list[int]:
        """The rows (1-based) with a cell that is not a number a deal can have."""
        return [row for row in range(1, self.row_count + 1)
                if any(cell.errors for cell in (*self.cells(row), *self.total_cells(row)))]

    def settings_errors(self) -> list[str]:
        """What is wrong with the settings (Trigami: the target), in words."""
        return [] if self.is_trix else list(self.target.errors)

    def cells(self, row: int) -> Sequence[Any]:
        return [self[f"p{row}_{s}"] for s in range(self.seat_count)]

    def total_cells(self, row: int) -> Sequence[Any]:
        return [self[f"t{row}_{s}"] for s in range(self.seat_count)]


def paper_form(kind: str, rows: int, complex_: bool = False) -> type[PaperForm]:
    """The paper sheet form for ``kind`` ("trigami", "bugami3", "trix") with ``rows`` rows;
    ``complex_`` (Trix Complex ticked) makes each row's contract chips checkboxes.

    Read from the query string (GET: nothing is stored, and the address of a checked
    sheet can be shared). Fields: ``n0`` … player names (optional); Trigami ``target``;
    Trix ``doubling``, ``swapped``, ``reversed``, ``complex``, ``partnership`` ("", "sum",
    "worst-loses": who won); ``totals`` (running totals
    were written too); per row r (1-based): ``c{r}`` the contract(s) (Trix), ``p{r}_{seat}``
    the points and ``t{r}_{seat}`` the written running total.
    """
    trix = kind == "trix"
    seats = 4 if trix else 3
    fields: dict[str, Any] = {}
    for seat in range(seats):
        fields[f"n{seat}"] = StringField(
            _l("Player %(n)s", n=seat + 1),
            # no maxlength: a browser would cut a longer name short without a word;
            # validate refuses it beside the field
            render_kw={"autocomplete": "off",
                       "autocapitalize": "words", "placeholder": _l("Player %(n)s", n=seat + 1)})
    fields["totals"] = BooleanField(_l("I also wrote the running totals"))
    if trix:
        fields["doubling"] = BooleanField(_l("Doubling the %(king)s and queens", king=KING_LABEL), default=True)
        fields["swapped"] = BooleanField(_l("Swapped values: Diamonds %(diamonds)s, Tricks %(tricks)s", diamonds=-15, tricks=-10))
        fields["reversed"] = BooleanField(_l("Reversed scoring: signs flipped"))
        fields["complex"] = BooleanField(_l("Trix Complex: several contracts in one deal"))
        # who won, when partners play (the new game's words: forms/games.py)
        fields["partnership"] = RadioField(_l("Partners"), default="", validate_choice=False, choices=choices([
            ("", _l("Everyone for themselves")), ("sum", _l("Partners opposite, team totals added")),
            ("worst-loses", _l("Partners opposite, the team with the worst total loses"))]))
    else:
        fields["target"] = TargetField(
            _l("Play to"), default=500,
            validators=[Optional(), NumberRange(50, 100000, message=TARGET_RANGE)],
            # as the new-game form's: any whole number 50 to 100000 (a browser's number field
            # with step 50 refused a game's 520 in its own words: tester 39) in any script's
            # digits (type=number drops an Arabic keypad's)
            widget=DigitsInput())
    for row in range(1, rows + 1):
        if trix:
            contract_choices = choices([(c, CONTRACT_NAMES[c]) for c in CONTRACTS])
            if complex_:  # several contracts may be ticked in one deal
                fields[f"c{row}"] = SelectMultipleField(
                    _l("Contracts"), choices=contract_choices, validate_choice=False,
                    widget=ListWidget(prefix_label=False), option_widget=CheckboxInput())
            else:  # one tap chooses, another tap changes it
                fields[f"c{row}"] = RadioField(_l("Contract"), choices=contract_choices, validate_choice=False)
        for seat in range(seats):
            fields[f"p{row}_{seat}"] = _points_field(_l("Points"), signed=trix)
            fields[f"t{row}_{seat}"] = _points_field(_l("Total"), signed=trix)
    return type("PaperForm", (PaperForm,), {
        "game_kind": kind, "seat_count": seats, "row_count": rows, "is_trix": trix, **fields})


__all__ = ["CONTRACT_CHIPS", "DEFAULT_ROWS", "MAX_ROWS", "PaperForm", "PointsField", "TargetField", "UploadForm",
           "paper_form"]
