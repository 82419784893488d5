"""What every form of the package is built from: fields for counts typed on the phone
(a tap on a chip, or the numeric keypad), choices, and the messages put beside fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, SelectChoice
from wtforms.utils import unset_value
from wtforms.validators import NumberRange, Optional
from wtforms.widgets import TextInput

from ..gamefile import check_player_name, named_twice
from ..i18n import gettext as _
from ..i18n import lazy_gettext as _l
from ..inputs import name_key, whole_number, whole_number_below
from ..locale_numbers import in_digits
from ..rules import RuleError

MAX_COUNT_INPUT = 99  # bigger numbers are typing slips: say so beside the field

#: What a target must be (Trigami and plain Bugami), in the page's digits
TARGET_RANGE = _l("Enter a target from %(low)s to %(high)s.", low=50, high=100000)


class DigitsInput(TextInput):
    """A whole number typed on the phone's numeric keypad: a text field with
    ``inputmode="numeric"``, not ``type="number"``, which drops the digits of an Arabic
    keypad (٣) and of other scripts; the server reads any decimal digits
    (inputs.whole_number), and static/app.js too (issue 10). A number the form starts
    from (a deal being changed, a game's target) is written in the page's digits, as the
    chips beside it and the keypad are (tester 14: "4" beside the chip "٤"); what a player
    typed comes back as typed; a count tapped on a chip in the page's digits, as the chip
    shows it (tester 45: "3" beside the chip "٣" on a form sent back)."""

    def __call__(self, field: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("inputmode", "numeric")
        kwargs.setdefault("size", 6)
        if "value" not in kwargs and (not field.raw_data or getattr(field, "tapped", False)) \
                and type(field.data) is int and field.data >= 0:
            kwargs["value"] = in_digits(str(field.data))  # a chip's count too: its value is "3", the page's "٣"
        return super().__call__(field, **kwargs)


def count_field(label: Any, high: int, blank: int | None = None, who: Any = None) -> IntegerField:
    """A count of a deal: a tap on one of the chips 0 … ``high``, or typed on the numeric
    keypad (:class:`ChipCountField`); blank allowed (filled in later, or ``blank``).
    ``who``: whose count it is, for a message ("Anna's tricks")."""
    return ChipCountField(
        label,
        high=high,
        blank=blank,
        who=who,
        validators=[Optional(), NumberRange(0, high, message=_l("Enter a number from %(low)s to %(high)s.", low=0, high=high))],
        widget=DigitsInput(),
        render_kw={"autocomplete": "off", **({"placeholder": str(blank)} if blank is not None else {})},
    )


class CountField(IntegerField):
    """An IntegerField that says plainly what a card player typed wrong.

    ``out_of_range``: the field's range in a sentence ("Enter a target from 50 to
    100000."), said instead of the count's own messages for a number typed with a minus
    sign and for anything that is not a whole number (abc, 1e3, 280.0)."""

    raw_data: list[Any]  # what was sent, as WTForms keeps it
    own_errors: tuple[str, ...] = ()  # its own messages after validate(), not a rule's

    def __init__(self, *args: Any, out_of_range: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.out_of_range = out_of_range

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist or not str(valuelist[0]).strip():
            self.data = None
            return
        text = str(valuelist[0]).strip()
        if not text.isdecimal():  # Unicode digits (e.g. Arabic-Indic) are whole numbers too
            self.data = None
            if self.out_of_range:
                raise ValueError(str(self.out_of_range))
            if text.startswith(("-", "−")) and whole_number(text[1:]) not in (None, 0):  # ("-0": no number below 0)
                raise ValueError(_("A count cannot be negative."))
            raise ValueError(_("Enter a whole number, like %(example)s.", example=3))
        self.data = whole_number(text)  # a number too long to be a count is TOO_LARGE: out of range

    def validate(self, form: Any, extra_validators: Any = ()) -> bool:
        # A count that is not a number says so once, not also "must be from 0 to 13"
        if self.process_errors:
            self.errors = [self.process_errors[0]]
            valid = False
        else:
            valid = bool(super().validate(form, extra_validators))
        # the count's own messages, told from a rule's put beside it later (forms.deals)
        self.own_errors = tuple(self.errors)
        return valid


class ChipCountField(CountField):
    """A count entered with one tap on a chip — a radio button named ``<name>_chip`` for
    each number 0 … ``high`` (UX.md: tap, don't type) — or typed into the number field
    ``<name>``, which stays for keyboards and screen readers that prefer it.

    static/app.js keeps the two equal. Without it, the chip counts when the field is left
    blank; when both are given and differ, the one the player changed wins: the form
    sends back, as ``<name>_was``, the count the page showed (:attr:`shown`), so a chip
    tapped on a deal being changed beats the number still in its field, and a number
    typed beats the chip ticked as the default (``blank``, the count a blank field means:
    bugs' 0). Both changed, to different numbers: nothing is read, and the field says so
    (:attr:`conflict`), keeping what was typed and no chip ticked. A form sent without
    ``<name>_was`` (a page from before it) lets a typed number win. The field then shows
    the count it was read as, and its chip is ticked (``chip_value``)."""

    def __init__(self, *args: Any, high: int, blank: int | None = None, who: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.high = high
        self.blank = blank
        self.who = who
        self.conflict = False
        self.tapped = False

    @property
    def chip_name(self) -> str:
        return f"{self.name}_chip"

    @property
    def was_name(self) -> str:
        return f"{self.name}_was"

    @property
    def chip_value(self) -> int | None:
        """The chip to tick: the count read, else what a blank field means."""
        return self.blank if self.data is None and not self.process_errors else self.data

    @property
    def shown(self) -> str:
        """The count as the page shows it, in the field and on the ticked chip ("" for
        none); after a :attr:`conflict`, the number typed, which the field keeps."""
        if self.conflict:
            return str(self.raw_data[0]).strip()
        value = self.chip_value
        return "" if value is None else str(value)

    def process(self, formdata: Any, data: Any = unset_value, extra_filters: Any = None) -> None:
        super().process(formdata, data, extra_filters)
        self.conflict = False
        self.tapped = False  # the count read is the chip's (DigitsInput writes it in the page's digits)
        tapped = str(formdata.get(self.chip_name) or "") if formdata is not None else ""
        if not tapped or self.process_errors:
            return
        typed = any(str(v).strip() for v in self.raw_data)
        chip = whole_number_below(tapped, self.high + 1)
        if chip is None:  # no chip sends that: a tampered form
            if not typed:
                self.process_errors.append(_("Tap one of the numbers."))
            return
        if typed and self.data != chip:
            was = formdata.get(self.was_name)
            if was is None or str(was) == tapped:  # the chip is as the page showed it: the number typed is new
                return
            if str(was) != str(self.data):  # both changed, to different numbers: ask
                self.conflict = True
                self.data = None
                self.process_errors.append(_(
                    "%(who)s: you tapped %(tapped)s but typed %(typed)s. Tap the right number, or type it again.",
                    who=self.who or self.label.text, tapped=chip, typed=str(self.raw_data[0]).strip()))
                return
        if typed and self.data == chip:
            return  # the number typed and its own chip: it comes back as typed ("٤", tester 50)
        self.data = chip  # tapped with the field left blank, or tapped anew beside a number left as it was
        self.raw_data = [tapped]
        self.tapped = True  # the chip's count, written in the page's digits as the chip shows it


class TickField(BooleanField):
    """A tick box that is ticked only by what a tick box sends ("y", as drawn; "on",
    "true", "1", "yes"), unticked when absent or "false"/"": anything else (a crafted
    form's "maybe") is refused beside it, not read as ticked (tester 31)."""

    TICKED = ("y", "on", "true", "1", "yes")

    def process_formdata(self, valuelist: list[Any]) -> None:
        super().process_formdata(valuelist)
        if valuelist and valuelist[0] not in self.false_values and str(valuelist[0]).lower() not in self.TICKED:
            self.data = False
            raise ValueError(_("Tick it or leave it unticked."))


def choices(pairs: Sequence[tuple[str, Any]]) -> list[SelectChoice]:
    """(value, label) pairs as WTForms' SelectChoice objects."""
    return [SelectChoice(value, label) for value, label in pairs]



def seat_choices(players: Sequence[str], none: Any = None) -> list[SelectChoice]:
    pairs = [(str(seat), name) for seat, name in enumerate(players)]
    return choices(([("", none)] if none is not None else []) + pairs)


def capitalized(message: str) -> str:
    """A rules message begun as a sentence: "tricks add up…" → "Tricks add up…"."""
    return message[:1].upper() + message[1:]


def clause(message: str) -> str:
    """A rules message set inside a sentence of its own ("…: %(problem)s."), without the
    full stop some messages end with ("… in Anna's kingdom." → "… in Anna's kingdom"),
    so that the sentence has one (tester 62: "kingdom.)." and "kingdom..")."""
    said = message.rstrip()
    return said[:-1] if said.endswith(".") and not said.endswith("..") else said


def sentence(message: str) -> str:
    """A rules message as a sentence of its own beside a field, with its full stop:
    "tricks add up to 14, expected 13" → "Tricks add up to 14, expected 13." (tester 60:
    the form's rule messages had none, every other message on it has). A message ending
    in a stop, a question or exclamation mark, or an ellipsis keeps its own."""
    said = capitalized(message.rstrip())
    return said if said.endswith((".", "!", "?", "\u061f", "\u2026")) else said + "."


def check_names(typed: Sequence[str | None], defaults: Sequence[str] | None = None
                ) -> tuple[list[str], list[list[str]]]:
    """The players' names as typed into a form (one per seat), checked as every game's
    are (gamefile.check_player_name: something visible, at most 40 characters, no
    invisible control characters), and no two the same player (inputs.name_key).
    ``defaults``: what a blank field stands for ("Player 1" …: names optional); without
    them a blank field is refused.

    Returns (the names cleaned, a blank field's default and a refused name's in its
    place (else ""); each seat's problems, as sentences for beside its field). A name
    that is another's player already is refused beside the later one typed.
    """
    names: list[str] = []
    problems: list[list[str]] = [[] for _seat in typed]
    owners: dict[str, int] = {}  # name key → the seat it was first seen at
    for seat, raw in enumerate(typed):
        text = " ".join((raw or "").split())
        default = defaults[seat] if defaults is not None else ""
        if not text:
            if defaults is None:
                problems[seat].append(_("Enter a name for player %(n)s.", n=seat + 1))
            names.append(default)
        else:
            try:
                names.append(check_player_name(raw, seat))
            except RuleError as error:
                problems[seat].append(sentence(error.message))
                names.append(default)
                continue
        if not names[seat]:
            continue
        key = name_key(names[seat])
        first = owners.setdefault(key, seat)
        if first != seat:
            # beside the later one typed: this one, unless it was left blank
            at = seat if text else first
            problems[at].append(sentence(named_twice(names[at], at).message))
    return names, problems



def csrf_failed(form: FlaskForm) -> bool:
    """Whether a submitted form was refused for its CSRF token (expired or forged)."""
    return form.is_submitted() and "csrf_token" in form and bool(form.csrf_token.errors)


