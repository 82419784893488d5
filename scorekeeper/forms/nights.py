"""The forms of a club night (issue 20): start a night (the game's settings as a new
game's form has them, who is present, newcomers, rounds, ranking, round 1's seating), a
late arrival, a leaver. Each problem goes beside its field; what was typed is kept.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, SelectMultipleField, StringField, TextAreaField
from wtforms.validators import NumberRange
from wtforms.widgets import CheckboxInput, ListWidget

from ..gamefile import MAX_NAME_LENGTH, name_fault
from ..i18n import gettext as _
from ..i18n import lazy_gettext as _l
from ..i18n import ngettext
from ..inputs import clean_name, name_key
from ..nightfile import MAX_ROUNDS, check_night_name
from ..rules import RuleError
from ..text import isolate
from .fields import CountField, DigitsInput, check_names, choices, sentence
from .games import GameSetupForm, settings_fields

#: The fields of a night's form that are not the game's settings
NIGHT_FIELDS = frozenset({"name", "present", "newcomers", "rounds", "ranking", "seating", "nonce", "seating_many",
                          "again", "csrf_token"})
#: More tables than this in round 1 and the organiser is asked first: a list pasted twice,
#: or a whole address book, would otherwise seat a night nobody meant (and make its games)
MANY_TABLES = 20
ROUNDS_RANGE = _l("Enter a number of rounds from %(least)s to %(most)s.", least=1, most=MAX_ROUNDS)


class NightForm(GameSetupForm):
    """A new night's form; :func:`night_form` makes the form of a kind of game with the
    group's players to tick. A one-time token (``nonce``) makes a double tap on Start
    one night."""

    game_kind: str
    seat_count = 0
    nonce = HiddenField()
    #: How many players the organiser was asked about and kept (MANY_TABLES): a night
    #: that size starts on the next tap of Start; a list changed since is asked again
    seating_many = HiddenField()
    #: "1": the organiser chose "Start another night" when asked about the same night started a
    #: moment ago (nights/started.html)
    again = HiddenField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.nonce.data:
            self.nonce.data = secrets.token_urlsafe(16)

    def night_name(self) -> tuple[bool, str | None]:
        """(checked, the night's name or None for none): the name checked as a player's
        is (nightfile.check_night_name); a refused one is said beside its field
        (checked False)."""
        try:
            return True, check_night_name(self["name"].data or "")
        except RuleError as error:
            self["name"].errors = [*self["name"].errors, sentence(error.message)]
            return False, None

    def settings_read(self) -> bool:
        """Whether the game's settings (every field but the night's own and the tokens)
        were read without an error beside them, so that the rules can parse them
        (GameSetupForm.parsed_options) without saying a problem twice."""
        return not any(field.errors for field in self if field.name not in NIGHT_FIELDS)

    def night_players(self) -> list[str] | None:
        """Everyone ticked, then the newcomers typed (one a line), each name checked as a
        game's (fields.check_names: no two the same player); None after errors beside
        the newcomers' field."""
        ticked = list(self.present.data or [])
        lines = [(number, line) for number, line in enumerate((self.newcomers.data or "").splitlines(), 1)
                 if line.strip()]
        names, problems = check_names([*ticked, *(line for _number, line in lines)])
        if not any(problems):
            return names
        # each problem by the line of the field it is on (check_names would say "player N",
        # counting the ticked and not the blank lines)
        first: dict[str, int] = {}  # each name's first seat: a later one is named twice
        for seat, name in enumerate(names):
            if name:
                first.setdefault(name_key(name), seat)
        found = [message for seat_problems in problems[:len(ticked)] for message in seat_problems]  # a forged tick
        found += [_line_problem(number, line, names[seat] if names[seat] and first[name_key(names[seat])] < seat else None)
                  for seat, (number, line) in enumerate(lines, len(ticked)) if problems[seat]]
        if len(found) > MOST_LINE_PROBLEMS:  # a pasted list gone wrong: the first few, then how many more
            rest = len(found) - MOST_LINE_PROBLEMS + 1
            found = [*found[:MOST_LINE_PROBLEMS - 1],
                     ngettext("One more line has a problem.", "%(num)s more lines have problems.", rest)]
        self.newcomers.errors = [*self.newcomers.errors, *found]
        return None


#: The most problems said under the newcomers' field: past it, the last says how many more
MOST_LINE_PROBLEMS = 8


def _line_problem(number: int, line: str, twice: str | None) -> str:
    """Why the newcomers' line ``number`` (1-based, blank lines counted), ``line`` as
    typed, was refused: ``twice``, the name as kept when the same player was ticked or
    typed before it, else what keeps it from being a name (gamefile.name_fault)."""
    if twice is not None:
        return _("Line %(n)s: %(name)s is named twice.", n=number, name=isolate(twice))
    fault = name_fault(line)
    if fault == "blank":
        return _("Line %(n)s has no name in it, only invisible characters: type the name again.", n=number)
    if fault == "long":
        return _("Line %(n)s: the name is longer than %(max)s characters.", n=number, max=MAX_NAME_LENGTH)
    return _("Line %(n)s: the name has invisible control characters: type it again.", n=number)


def night_form(kind: str, known: Sequence[str]) -> type[NightForm]:
    """The form to start a night of ``kind``: its name, who is present (``known``: the
    group's players, as checkboxes), newcomers, the rounds, the ranking, round 1's
    seating, and the settings a new game of ``kind`` has (forms/games.py)."""
    fields: dict[str, Any] = {
        # no maxlength: a browser would cut a longer name short without a word; the
        # server refuses it beside the field (night_name)
        "name": StringField(_l("The night's name (optional)"), render_kw={"autocomplete": "off"}),
        "present": SelectMultipleField(_l("Who is here?"), choices=choices([(name, name) for name in known]),
                                       validate_choice=False, widget=ListWidget(prefix_label=False),
                                       option_widget=CheckboxInput()),
        "newcomers": TextAreaField(_l("Newcomers, one name a line"),
                                   render_kw={"rows": 3, "autocapitalize": "words", "autocomplete": "off"}),
        "rounds": CountField(_l("Rounds"), default=3, out_of_range=ROUNDS_RANGE,
                             validators=[NumberRange(1, MAX_ROUNDS, message=ROUNDS_RANGE)],
                             widget=DigitsInput()),
        "ranking": RadioField(_l("The night is ranked by"), default="placings", validate_choice=False,
                              choices=choices([
                                  ("placings", _l("Placings at the tables, then total score")),
                                  ("score", _l("Total score alone"))])),
        "seating": RadioField(_l("Round %(n)s is seated", n=1), default="random", validate_choice=False,
                              choices=choices([
                                  ("random", _l("At random")),
                                  ("ranking", _l("By the group's ranking (ratings, all time)"))])),
        **settings_fields(kind),
    }
    return type("NightForm", (NightForm,), {"game_kind": kind, **fields})


class ArrivalForm(FlaskForm):
    """A late arrival's name (joins from the next round). No ``maxlength``: a browser
    would cut a longer name short without a word; :meth:`checked_name` refuses it."""

    name = StringField(_l("Late arrival"), render_kw={"autocomplete": "off", "autocapitalize": "words",
                                                      "list": "known-players"})

    def checked_name(self) -> str | None:
        """The name cleaned, when it is one as a game's are (gamefile.name_fault:
        something visible, at most gamefile.MAX_NAME_LENGTH characters, no control
        characters); None after its problem beside it, said of the late arrival."""
        typed = self.name.data or ""
        fault = name_fault(typed)
        if fault is None:
            return clean_name(typed)
        self.name.errors = [
            _("Enter the late arrival's name.") if fault == "blank" else
            _("The late arrival's name is longer than %(max)s characters.", max=MAX_NAME_LENGTH) if fault == "long" else
            _("The late arrival's name has invisible control characters: type it again.")]
        return None


def round_number(text: str) -> int:
    """A round's number as a page or a link names it: its digits (at most 3: a night has
    at most MAX_ROUNDS), or 0 for anything else, which names no round."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 4 else 0


def shown_round(field: HiddenField) -> int | None:
    """The round number a page carried in ``field`` (docs/club-nights.md, "Pages left
    open"): None when the form carried none (a page from before forms carried it: the
    round as read then), 0 for anything else than digits (no round: refused)."""
    value = (field.data or "").strip()
    if not value:
        return None
    return round_number(value)


class RoundForm(FlaskForm):
    """A button that changes the night's rounds (close the round, seat the next):
    ``round``, the round the page named, so an old page acts on that round or on none
    (checked inside the write)."""

    round = HiddenField()

    def shown_round(self) -> int | None:
        """The round the page named (:func:`shown_round`)."""
        return shown_round(self.round)


def leaver_form(players: Sequence[str]) -> type[FlaskForm]:
    """Who leaves after the current round: one of ``players`` (still there), and
    ``round``, the current round the page showed (:func:`shown_round`)."""
    return type("LeaverForm", (FlaskForm,), {
        "player": RadioField(_l("Who leaves after this round?"), choices=choices([(n, n) for n in players]),
                             validate_choice=False),
        "round": HiddenField()})


class StayForm(FlaskForm):
    """A leaver taken back: ``player``, one of the night's leavers (checked by the action
    inside the write), and ``round``, the current round the page showed."""

    player = HiddenField()
    round = HiddenField()
