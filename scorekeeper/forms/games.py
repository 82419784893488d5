"""The forms of a game as a whole: a new game, its players and settings, the home page's
filters, the what-if choices and the calculator's settings; and the form of a plain button
(its CSRF token only). Each is built for its kind of game and number of seats.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, HiddenField, RadioField, SelectField, StringField
from wtforms.validators import NumberRange, Optional, ValidationError

from ..gamefile import MAX_NAME_LENGTH, name_fault
from ..i18n import gettext as _
from ..i18n import lazy_gettext as _l
from ..inputs import clean_name
from ..names import CONTRACT_NAMES, CONTRACTS, KIND_NAMES, KING_LABEL
from ..rules.common import RuleError
from ..text import isolate
from .fields import TARGET_RANGE, CountField, DigitsInput, check_names, choices, sentence


class EmptyForm(FlaskForm):
    """Only the CSRF token: guards delete and undo buttons."""


class GameSetupForm(FlaskForm):
    """What the new-game and the players-and-settings forms share: the players' names
    (``player_0`` …) and the settings, read into the game file's shapes with every problem
    put beside its field. ``notices``: what the page says of itself, nothing to put right
    (another phone's change put into the form), above the summary and not counted in it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.notices: list[str] = []

    def all_errors(self) -> list[tuple[str | None, str]]:
        """Every message on the form as (the id of its field, or None; message), top to
        bottom, for the summary above the form (_macros.html form_errors), which a refused
        Start or Save puts the focus on."""
        out: list[tuple[str | None, str]] = [(None, m) for m in self.form_errors]
        out += [(field.id, m) for field in self if field.type not in ("CSRFTokenField", "HiddenField")
                for m in field.errors]
        return out

    def names(self) -> list[str]:
        return [" ".join((self[f"player_{s}"].data or "").split()) for s in range(self.seat_count)]

    def players(self) -> tuple[str, ...] | None:
        """The names, checked (fields.check_names, as gamefile.check_player_names), or
        None after errors, each beside its field."""
        names, problems = check_names(self.names())
        for seat, found in enumerate(problems):
            if found:
                field = self[f"player_{seat}"]
                field.errors = [*field.errors, *found]
        return None if any(problems) else tuple(names)

    def options(self) -> dict[str, Any]:
        """The settings as the game file's ``options`` (unchecked)."""
        if self.game_kind != "trix":
            return {"target": self.target.data}
        order = [self[f"order_{place}"].data for place in range(1, 6)] if self.fixed_order.data else None
        return {
            "doubling": bool(self.doubling.data),
            "values": self["values"].data,
            "scoring": self.scoring.data,
            "order": order,
            "partnership": self.partnership.data or None,
            "complex": bool(self.complex.data),
            "taken_back": self.taken_back.data,
        }

    def parsed_options(self, rules: Any) -> Any:
        """The settings parsed by the game's rules, or None after an error beside the
        setting concerned (the fixed order's beside its first place)."""
        try:
            return rules.parse_options(self.options())
        except RuleError as error:
            self.setting_error((error.field or "").removeprefix("options."), sentence(error.message))
            return None

    def setting_error(self, key: str, message: str) -> None:
        """Put ``message`` beside setting ``key``, else at the top of the form."""
        if key == "order":
            self.order_1.errors = [*self.order_1.errors, _("Choose each contract once for the fixed order.")]
        elif key in self and isinstance(self[key], RadioField):
            # the buttons send only what they show: another value is a crafted form, told in
            # the page's words, not the game file's ("Options.scoring must be one of …")
            self[key].errors = [*self[key].errors, _("Tap one of the choices shown.")]
        elif key in self:
            self[key].errors = [*self[key].errors, message]
        else:
            self.form_errors.append(message)


class NewGameForm(GameSetupForm):
    """A new game's form; :func:`new_game_form` makes the form of a kind of game and a
    number of seats. A one-time token (``nonce``) makes a double tap on Start one game."""

    game_kind: str
    seat_count: int
    nonce = HiddenField()
    #: "1" once the phone was told that this very game was started in the last hour and
    #: chose to start another (views/games.py: new)
    again = HiddenField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.nonce.data:
            self.nonce.data = secrets.token_urlsafe(16)  # a double tap on Start makes one game


def taken_back_field(default: str | None) -> RadioField:
    """The Trix setting ``taken_back``: how a doubled card won back by its own doubler
    scores, "leader" or "plain" (SCORING.md §2.2, "House reading of a card taken back");
    ``default`` None leaves it blank (what-if: the game's own)."""
    return RadioField(_l("A doubled card taken back by its doubler"), default=default, validate_choice=False,
                      choices=choices([
                          ("leader", _l("The doubler pays double, whoever led to that trick gains half")),
                          ("plain", _l("The doubler pays the plain penalty, nobody gains"))]))


def new_game_form(kind: str, seats: int) -> type[NewGameForm]:
    """The new-game form for ``kind`` with ``seats`` player fields (``player_0`` …),
    the first dealer (Trigami: also "random"; Trix: who holds the 7♥) and the settings."""
    fields: dict[str, Any] = {}
    for seat in range(seats):
        fields[f"player_{seat}"] = StringField(
            _l("Player %(n)s", n=seat + 1),
            # no maxlength: a browser would cut a longer name short without a word;
            # NewGameForm.players refuses it beside the field
            render_kw={"autocomplete": "off", "list": "known-players",
                       "autocapitalize": "words", "enterkeyhint": "next"})
    dealer_pairs = [(str(s), _l("Player %(n)s", n=s + 1)) for s in range(seats)]
    if kind == "trix":
        fields["first_dealer"] = RadioField(_l("Who holds the 7♥? (owns the first kingdom)"),
                                            choices=choices(dealer_pairs), validate_choice=False)
    else:
        fields["first_dealer"] = RadioField(_l("Who deals first?"), default="random", validate_choice=False,
                                            choices=choices([*dealer_pairs, ("random", _l("Pick at random"))]))
    fields.update(settings_fields(kind))
    return type("NewGameForm", (NewGameForm,), {"game_kind": kind, "seat_count": seats, **fields})


def settings_fields(kind: str) -> dict[str, Any]:
    """A new game's settings fields for ``kind`` (Trix: doubling, values, scoring,
    partners, Complex, a card taken back, the fixed order; Trigami and Bugami: the
    target), by name: the new-game form's and a club night's (forms/nights.py)."""
    fields: dict[str, Any] = {}
    if kind == "trix":
        fields["doubling"] = BooleanField(_l("Doubling the %(king)s and queens", king=KING_LABEL), default=True)
        fields["values"] = RadioField(_l("Values"), default="standard", validate_choice=False, choices=choices([
            ("standard", _l("Diamonds %(diamonds)s, Tricks %(tricks)s", diamonds=-10, tricks=-15)),
            ("swapped", _l("Swapped: Diamonds %(diamonds)s, Tricks %(tricks)s", diamonds=-15, tricks=-10))]))
        fields["scoring"] = RadioField(_l("Scoring"), default="standard", validate_choice=False, choices=choices([
            ("standard", _l("Highest total wins")), ("reversed", _l("Reversed: signs flipped, lowest wins"))]))
        fields["partnership"] = RadioField(_l("Partners"), default="", validate_choice=False, choices=choices([
            ("", _l("Everyone for themselves")), ("sum", _l("Partners opposite, team totals added")),
            ("worst-loses", _l("Partners opposite, the team with the worst total loses"))]))
        fields["complex"] = BooleanField(_l("Trix Complex: several penalty contracts in one deal"))
        fields["taken_back"] = taken_back_field(default="leader")
        fields["fixed_order"] = BooleanField(_l("Contracts in a fixed order"))
        order_choices = choices([(c, CONTRACT_NAMES[c]) for c in CONTRACTS])
        for place, default in enumerate(("trix", "queens", "king", "diamonds", "tricks"), 1):
            fields[f"order_{place}"] = SelectField(
                str(place), choices=order_choices, default=default, validate_choice=False)
    else:
        fields["target"] = CountField(
            _l("Play to"), default=500, out_of_range=TARGET_RANGE,
            validators=[NumberRange(50, 100000, message=TARGET_RANGE)],
            widget=DigitsInput())
    return fields


def past_games_form(players: Mapping[int, str]) -> type[FlaskForm]:
    """The home page's filters, read from the query string (a plain GET form, no CSRF):
    ``kind``, ``player`` (a players-table id; ``players`` is {id: name}), ``status``
    ("", "unfinished", "finished"), ``start`` and ``end`` (days, inclusive), ``tz`` (the
    viewer's IANA time zone, filled in by static/app.js) and ``figure`` (a player page
    figure's key, see stats.Figure). Build it with ``formdata=request.args``."""
    class PastGamesForm(FlaskForm):
        class Meta:
            csrf = False

        kind = SelectField(_l("Game"), default="", choices=choices(
            [("", _l("Any game")), *list(KIND_NAMES.items())]))
        player = SelectField(_l("Player"), default="", choices=choices(
            [("", _l("Anyone"))] + [(str(pid), isolate(name)) for pid, name in players.items()]))
        status = SelectField(_l("Show"), default="", choices=choices([
            ("", _l("Unfinished and finished")), ("unfinished", _l("Unfinished only")),
            ("finished", _l("Finished only"))]))
        start = DateField(_l("From"), validators=[Optional()],
                          render_kw={"autocomplete": "off"})
        end = DateField(_l("To"), validators=[Optional()], render_kw={"autocomplete": "off"})
        tz = HiddenField(render_kw={"data-time-zone": ""})
        figure = HiddenField()

        def validate_end(self, field: Any) -> None:
            if field.data and self.start.data and field.data < self.start.data:
                raise ValidationError(_("The last day comes before the first."))

    return PastGamesForm


class EditGameForm(GameSetupForm):
    """A stored game's players-and-settings form; :func:`edit_game_form` makes the form
    of a kind of game and a number of seats."""

    game_kind: str
    seat_count: int
    setting_names: tuple[str, ...]  # the settings the form shows, in order

    def fill(self, players: Sequence[str], options: Mapping[str, Any]) -> None:
        """Fill the fields from the stored game (``options`` as the game file writes them),
        in place of what was sent (a count shows what was typed before its data)."""
        for field in self:
            if field.name not in ("csrf_token", "nonce", "seen"):
                field.raw_data = None
        for seat, name in enumerate(players):
            self[f"player_{seat}"].data = name
        if self.game_kind != "trix":
            self.target.data = options.get("target")
            return
        for key in ("doubling", "complex"):
            self[key].data = bool(options.get(key))
        self["values"].data = options.get("values") or "standard"
        self.scoring.data = options.get("scoring") or "standard"
        self.partnership.data = options.get("partnership") or ""
        self.taken_back.data = options.get("taken_back") or "leader"
        order = options.get("order")
        self.fixed_order.data = order is not None
        for place, contract in enumerate(order or (), 1):
            self[f"order_{place}"].data = contract


def edit_game_form(kind: str, seats: int, target: Any = None) -> type[EditGameForm]:
    """The players-and-settings form of a stored game: ``player_0`` … (new names; seats
    stay where they are) and the new-game form's settings: ``target`` (Trigami, plain
    Bugami), or Trix's ``doubling``, ``values``, ``scoring``, ``partnership``, ``complex``,
    ``taken_back``, ``fixed_order`` and ``order_1`` … ``order_5``. ``fill(players, options)`` fills it from
    the stored game (options as the game file writes them).

    ``target``: the game's own target (its options' "target"). A game file may hold any
    target from 1 (GAME-FILE.md), the new-game form only 50 to 100000: the game's own
    target is taken as it is, so a rename is not refused for it, the lower bound being
    the smaller of 50 and the game's target; a new value is checked against that."""
    new = new_game_form(kind, seats)
    settings = ("target",) if kind != "trix" else (
        "doubling", "values", "scoring", "partnership", "complex", "taken_back", "fixed_order",
        *(f"order_{place}" for place in range(1, 6)))
    fields = {name: getattr(new, name) for name in (*(f"player_{seat}" for seat in range(seats)), *settings)}
    if kind != "trix" and isinstance(target, int) and not isinstance(target, bool) and 1 <= target < 50:
        low = _l("Enter a target from %(low)s to %(high)s.", low=target, high=100000)
        fields["target"] = CountField(_l("Play to"), default=500, out_of_range=low,
                                      validators=[NumberRange(target, 100000, message=low)], widget=DigitsInput())
    return type("EditGameForm", (EditGameForm,), {
        "game_kind": kind, "seat_count": seats, "setting_names": settings, **fields})


# --------------------------------------------------------------------------- someone takes over a seat


#: A seat number the game does not have (a crafted or broken form), said beside the seats
NO_SUCH_SEAT = _l("This game has no such seat: tap whose seat is taken over.")


class SeatChangeForm(FlaskForm):
    """Someone takes over a seat from the next deal on (issue 18, part 3), on the
    players-and-settings page: ``seat`` (whose seat: chips of who sits now), ``player``
    (the new player's name: new, or a known player of the group), ``from_deal`` (the
    deal number the page said, checked again by the write), ``seen`` (the game's version
    the page was drawn at: a deal added or removed since is told from a wrong deal
    number) and a one-time ``nonce`` (a double tap makes one change).
    :func:`seat_change_form` makes it for a game."""

    nonce = HiddenField()
    from_deal = HiddenField()
    seen = HiddenField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.nonce.data:
            self.nonce.data = secrets.token_urlsafe(16)

    def all_errors(self) -> list[tuple[str | None, str]]:
        """Every message on the form as (the id of its field, or None; message)."""
        out: list[tuple[str | None, str]] = [(None, m) for m in self.form_errors]
        out += [(field.id, m) for field in self if field.type not in ("CSRFTokenField", "HiddenField")
                for m in field.errors]
        return out

    def chosen(self) -> tuple[int, str] | None:
        """(seat, the new player's name cleaned), or None after putting every problem
        beside its own field at once: no seat tapped (or one the game does not have), and
        a name that cannot be a player's, checked as every game's names are
        (gamefile.name_fault: something visible, at most gamefile.MAX_NAME_LENGTH
        characters, no control characters), said of who takes the seat rather than of
        "player 1". Whether the name sits at a seat already is the caller's (it needs
        the seat)."""
        seat = self.seat.data
        if not seat:
            self.seat.errors = [_("Tap whose seat is taken over.")]
        elif seat not in [str(s) for s in range(len(self.seat.choices))]:
            self.seat.errors = [NO_SUCH_SEAT]
        name = self.checked_name()
        if self.seat.errors or name is None:
            return None
        return int(seat), name

    def checked_name(self) -> str | None:
        """The new player's name cleaned, or None after its problem beside it."""
        typed = self.player.data or ""
        fault = name_fault(typed)
        if fault is None:
            return clean_name(typed)
        self.player.errors = [
            _("Enter the name of who takes the seat.") if fault == "blank" else
            _("The name of who takes the seat is longer than %(max)s characters.", max=MAX_NAME_LENGTH)
            if fault == "long" else
            _("The name of who takes the seat has invisible control characters: type it again.")]
        return None


def seat_change_form(players_now: Sequence[str]) -> type[SeatChangeForm]:
    """The seat-change form of a game whose seats are played by ``players_now`` (names by
    seat, who sits now)."""
    fields = {
        "seat": RadioField(_l("Whose seat?"), validate_choice=False,
                           choices=choices([(str(s), name) for s, name in enumerate(players_now)])),
        # no maxlength (a browser would cut a longer name short without a word): the
        # game's own check refuses it beside the field (actions.take_seat)
        "player": StringField(_l("Who takes it?"), render_kw={
            "autocomplete": "off", "list": "known-players", "autocapitalize": "words"}),
    }
    return type("SeatChangeForm", (SeatChangeForm,), fields)


class FirstDealerForm(FlaskForm):
    """Who deals first (Trix: who holds the 7♥ and owns the first kingdom) while no deal
    is in play: ``seat`` (chips of the players, the game's first dealer ticked) and a
    one-time ``nonce`` (a double tap changes it once). :func:`first_dealer_form` makes it
    for a game."""

    nonce = HiddenField()
    trix = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.nonce.data:
            self.nonce.data = secrets.token_urlsafe(16)

    def chosen(self) -> int | None:
        """The seat tapped, or None with the problem beside the chips (none tapped, or one
        the game does not have: a crafted form)."""
        seat = self.seat.data or ""
        if seat in [str(s) for s in range(len(self.seat.choices))]:
            return int(seat)
        self.seat.errors = [_("Tap who holds the 7♥.") if self.trix else _("Tap who deals first.")]
        return None


def first_dealer_form(kind: str, players: Sequence[str]) -> type[FirstDealerForm]:
    """The who-deals-first form of a game of ``kind`` whose seats are ``players``."""
    label = _l("Who holds the 7♥? (owns the first kingdom)") if kind == "trix" else _l("Who deals first?")
    seat = RadioField(label, validate_choice=False, choices=choices([(str(s), n) for s, n in enumerate(players)]))
    return type("FirstDealerForm", (FirstDealerForm,), {"seat": seat, "trix": kind == "trix"})


# --------------------------------------------------------------------------- Explain: what-if, calculator


def what_if_form(kind: str, doubling: bool) -> type[FlaskForm]:
    """The what-if choices, read from the query string (a GET form, no CSRF: it changes
    nothing). Trix: ``doubling`` ("kept" or "none"; only when the game has doubling),
    ``values`` ("standard", "swapped"), ``scoring`` ("standard", "reversed"),
    ``taken_back`` ("leader", "plain"; only when the game has doubling). Trigami and
    plain Bugami: ``target``. A blank or unknown value keeps the game's own setting (the
    view says so). Build it with ``formdata=request.args``. Source: SCORING.md §1.4, §2.2, §2.5.
    """

    class WhatIfForm(FlaskForm):
        class Meta:
            csrf = False

    if kind == "trix":
        if doubling:
            WhatIfForm.doubling = RadioField(_l("Doubling"), default="kept", validate_choice=False, choices=choices([
                ("kept", _l("As played")), ("none", _l("As if nobody had doubled"))]))
        WhatIfForm.values = RadioField(_l("Values"), validate_choice=False, choices=choices([
            ("standard", _l("Diamonds %(diamonds)s, Tricks %(tricks)s", diamonds=-10, tricks=-15)),
            ("swapped", _l("Swapped: Diamonds %(diamonds)s, Tricks %(tricks)s", diamonds=-15, tricks=-10))]))
        WhatIfForm.scoring = RadioField(_l("Scoring"), validate_choice=False, choices=choices([
            ("standard", _l("Highest total wins")), ("reversed", _l("Reversed: signs flipped, lowest wins"))]))
        if doubling:
            WhatIfForm.taken_back = taken_back_field(default=None)
        # who wins, alone or as partners (tester 71: a dispute the page could not settle)
        WhatIfForm.partnership = RadioField(_l("Partners"), validate_choice=False, choices=choices([
            ("alone", _l("Everyone for themselves")), ("sum", _l("Partners opposite, team totals added")),
            ("worst-loses", _l("Partners opposite, the team with the worst total loses"))]))
    else:
        WhatIfForm.target = CountField(
            _l("Play to"), out_of_range=TARGET_RANGE,
            validators=[Optional(), NumberRange(50, 100000, message=TARGET_RANGE)],
            widget=DigitsInput())
    return WhatIfForm


def calculator_settings_form(kind: str) -> type[FlaskForm]:
    """The calculator's Trix settings that change points (SCORING.md §2.2, §2.5), read from
    the query string with the deal's fields (no CSRF: nothing is saved): ``doubling``,
    ``complex`` (checkboxes), ``values``, ``scoring``, ``taken_back``. Trigami has none. Build it with
    ``formdata=request.args`` once the form was sent (the hidden ``settings`` field says
    so; before that, pass ``formdata=None`` so the defaults apply)."""

    class CalculatorSettings(FlaskForm):
        class Meta:
            csrf = False

        settings = HiddenField(default="1")

    if kind == "trix":
        CalculatorSettings.doubling = BooleanField(_l("Doubling the %(king)s and queens", king=KING_LABEL), default=True)
        CalculatorSettings.complex = BooleanField(_l("Trix Complex: several penalty contracts in one deal"))
        CalculatorSettings.values = RadioField(_l("Values"), default="standard", validate_choice=False, choices=choices([
            ("standard", _l("Diamonds %(diamonds)s, Tricks %(tricks)s", diamonds=-10, tricks=-15)),
            ("swapped", _l("Swapped: Diamonds %(diamonds)s, Tricks %(tricks)s", diamonds=-15, tricks=-10))]))
        CalculatorSettings.scoring = RadioField(_l("Scoring"), default="standard", validate_choice=False, choices=choices([
            ("standard", _l("Highest total wins")), ("reversed", _l("Reversed: signs flipped, lowest wins"))]))
        CalculatorSettings.taken_back = taken_back_field(default="leader")
    return CalculatorSettings
