"""The deal forms at the table: a Trigami or plain Bugami for three deal, a Trix deal.

Deal forms map to the game file's deal entries and back (``to_entry`` / ``fill``); the
rules then check the entry (gamefile → rules), and a RuleError is attached to the field it
names (:func:`attach_error`). Forms are built per game, since the choices are the players.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask_babel import pgettext
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, SelectMultipleField
from wtforms.widgets import CheckboxInput, ListWidget

from ..i18n import gettext as _
from ..i18n import lazy_gettext as _l
from ..inputs import whole_number_below
from ..names import CONTRACT_NAMES, CONTRACTS, PLACES
from ..rules.common import SUIT_SYMBOLS, SUITS, GameOverError, RuleError
from ..rules.trix import card_label
from ..text import isolate
from .fields import TickField, choices, count_field, seat_choices, sentence


class DealForm(FlaskForm):
    """What every deal form has: a one-time token so a double tap saves one deal, and
    errors that concern a group of fields ("tricks add up to 12") rather than one."""

    nonce = HiddenField()
    version = HiddenField()  # editing: the fingerprint of the deal as the form was opened
    seen = HiddenField()  # adding: the game's version (store.game_version) as the form was opened

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group_errors: dict[str, list[str]] = {}
        self.questions: list[str] = []  # the messages that only ask for what is not entered yet
        # what the page says of itself, nothing for the player to put right ("Deal 2 was
        # changed on another phone …"): above the summary, not counted among its problems
        self.notices: list[str] = []
        if not self.nonce.data:
            self.nonce.data = secrets.token_urlsafe(16)

    def add_group_error(self, group: str, message: str) -> None:
        self.group_errors.setdefault(group, []).append(message)

    def ask(self, name: str, message: str) -> None:
        """Put ``message`` (a question: "Who took the K♥?") beside field ``name``, or above
        group ``name``, unless that field has a problem already; it marks something not
        entered yet rather than a mistake (:meth:`first_problem`)."""
        if name in self:
            if self[name].errors:
                return
            self[name].errors = [message]
        else:
            self.add_group_error(name, message)
        self.questions.append(message)

    def first_problem(self) -> tuple[str, bool] | None:
        """The one line a preview shows when it cannot work the points out: the first
        message the Save would show, a mistake before a question; with whether it is a
        question (something not entered yet). None when there is no message."""
        messages = [message for _field, message in self.all_errors()]
        mistakes = [m for m in messages if m not in self.questions]
        if mistakes:
            return mistakes[0], False
        return (messages[0], True) if messages else None

    def seat(self, name: str) -> int | None:
        """The seat tapped in radio field ``name`` (None if none); a value that is no seat
        (a tampered form) puts an error beside the field and gives None."""
        field = self[name]
        value = field.data
        if value in (None, "", "None"):
            return None
        seat = whole_number_below(value, len(self.names))
        if seat is not None:
            return seat
        field.errors = [*field.errors, _("Tap one of the players.")]
        return None

    def all_errors(self) -> list[tuple[str | None, str]]:
        """Every message on the form as (the id it links to, or None; message), top to
        bottom, for the summary above the form: a field's id, or a group's list of
        errors ("<group>-errors", _macros.html group_errors)."""
        out: list[tuple[str | None, str]] = [(None, m) for m in self.form_errors]
        out += [(f"{group}-errors", m) for group, messages in self.group_errors.items() for m in messages]
        out += [(field.id, _whose(field, m)) for field in self if field.type != "CSRFTokenField" for m in field.errors]
        return out

    @property
    def has_errors(self) -> bool:
        return bool(self.errors or self.group_errors or self.form_errors or self.notices)


def _whose(field: Any, message: str) -> str:
    """``message`` of a count ``field`` as the summary and the preview say it, away from
    the field: a count's own message (not a number, negative, out of range) with whose
    count it is ("Anna's tricks: Enter a whole number, like 3."); a rule's message names
    its player already ("Anna has 1 bug but won no tricks"), and a question asks by name.
    Beside the field every message stays as it is."""
    who = getattr(field, "who", None)
    if who is None or message not in getattr(field, "own_errors", ()) or str(message).startswith(str(who)):
        return message
    return _("%(who)s: %(problem)s", who=who, problem=message)



def attach_error(form: DealForm, error: RuleError, deal_number: int | None = None) -> None:
    """Put a rules error beside the field it names ("bugs" of seat 1 → ``bugs_1``,
    "queens.S.leader" → ``queens_S_leader``), else above the group it concerns, else at the
    top of the form. An error about another deal (an edit that breaks a later one) goes at
    the top, with its deal number; when the edit ends the game before that later deal (its
    GameOverError), with the way to keep the edit: the deals after the end deleted first."""
    if error.deal is not None and deal_number is not None and error.deal != deal_number:
        if isinstance(error, GameOverError):
            form.form_errors.append(_(
                "With this change the game is over after deal %(end)s, so deal %(n)s would come after its end. "
                "To keep this change, delete deal %(n)s first (and any deal after it, the last one first), "
                "then change this deal again.", end=error.deal - 1, n=error.deal))
            return
        said = sentence(_("Deal %(n)s would no longer fit: %(problem)s", n=error.deal, problem=error.message))
        if error.field == "contracts" and "contracts" in form:
            # this deal's contract is the later deal's (a page drawn before it was entered,
            # a crafted form): said beside the contract, with what to do (tester 71)
            advice = _("Choose another contract for this deal.")
            form.contracts.errors = [*form.contracts.errors, f"{said} {advice}"]
            return
        form.form_errors.append(said)
        return
    if error.field:
        base = error.field.replace(".", "_")
        names = ([f"{base}_{error.seat}"] if error.seat is not None else []) + [base]
        for name in names:
            if name in form:
                form[name].errors = [*form[name].errors, sentence(error.message)]
                return
        form.add_group_error(base.split("_")[0], sentence(error.message))
        return
    form.form_errors.append(sentence(error.message))


def _fill_last(values: list[int | None], total: int) -> list[int | None]:
    """If exactly one count is blank and the others leave a non-negative rest of
    ``total``, fill it in: the table knows the last player's count is the rest."""
    blanks = [i for i, v in enumerate(values) if v is None]
    if len(blanks) == 1:
        rest = total - sum(v for v in values if v is not None)
        if rest >= 0:
            values[blanks[0]] = rest
    return values


# --------------------------------------------------------------------------- Trigami


class TrigamiDealForm(DealForm):
    """A Trigami or plain Bugami for three deal; :func:`trigami_form` makes the form of a
    game (its players' fields and its settings)."""

    seats: int
    names: tuple[str, ...]
    has_turnip: bool  # Trigami: the turnip, doublets, and the Turnip bid
    total_tricks: int  # the tricks of a deal, all players together
    bid_values: tuple[str, ...]  # the bids a player may tap

    def to_entry(self) -> dict[str, Any] | None:
        """The deal entry, or None after adding errors to the fields."""
        ok = True
        bids: list[dict[str, Any] | None] = []
        for seat, name in enumerate(self.names):
            bid = self[f"bids_{seat}"].data
            doublets = self.has_turnip and self[f"doublets_{seat}"].data
            if bid in (None, "", "None"):
                self.ask(f"bids_{seat}", _("Choose %(name)s's bid.", name=isolate(name)))
                ok = False
                bids.append(None)
            elif bid not in self.bid_values:
                self[f"bids_{seat}"].errors = [_("Choose %(name)s's bid.", name=isolate(name))]
                ok = False
                bids.append(None)
            elif bid == "turnip":
                if doublets:
                    self[f"doublets_{seat}"].errors = [
                        _("%(name)s: Doublets needs a suit, Turnip takes the turnip's suit; "
                          "choose one of the two.", name=isolate(name))]
                    ok = False
                bids.append({"kind": "turnip"})
            else:
                bids.append({"kind": "doublets" if doublets else "plain", "suit": bid})
        tricks = self.total_tricks
        counts = _fill_last([self[f"tricks_{s}"].data for s in range(self.seats)], tricks)
        typed = sum(v for v in counts if v is not None)
        # a count refused beside its field (negative, too big) is not added up wrongly here
        wrong = any(self[f"tricks_{s}"].errors for s in range(self.seats))
        if None in counts and typed > tricks and not wrong:
            self.add_group_error("tricks", _("The tricks typed already add up to %(sum)s, more than %(total)s.",
                                             sum=typed, total=tricks))
            return None
        for seat, value in enumerate(counts):
            if value is None:
                self.ask(f"tricks_{seat}", _("How many tricks did %(name)s win?", name=isolate(self.names[seat])))
                ok = False
        if not ok or self.errors:
            return None
        entry: dict[str, Any] = {
            "bids": bids,
            "tricks": counts,
            "bugs": [self[f"bugs_{s}"].data or 0 for s in range(self.seats)],
        }
        if self.has_turnip and self.turnip.data in SUITS:
            entry = {"turnip": self.turnip.data, **entry}
        elif self.has_turnip and self.turnip.data not in ("", None):
            self.turnip.errors = [_("Tap the turnip card's suit.")]
            return None
        last = self.seat("last_trick")
        if self.last_trick.errors:
            return None
        if last is not None:
            entry["last_trick"] = last
        return entry

    def fill(self, entry: Mapping[str, Any]) -> None:
        """Fill the fields from a stored deal entry (for editing). An entry that no longer
        fits the rules (a database restored from elsewhere, its deal misshapen: tester 52)
        fills what it can; the rest stays blank for the player to enter."""
        entry = entry if isinstance(entry, Mapping) else {}
        bids, tricks, bugs = (_seats_of(entry.get(key), self.seats) for key in ("bids", "tricks", "bugs"))
        for seat in range(self.seats):
            bid = bids[seat] if isinstance(bids[seat], Mapping) else {}
            self[f"bids_{seat}"].data = "turnip" if bid.get("kind") == "turnip" else bid.get("suit")
            if self.has_turnip:
                self[f"doublets_{seat}"].data = bid.get("kind") == "doublets"
            self[f"tricks_{seat}"].data = _whole_or_none(tricks[seat])
            self[f"bugs_{seat}"].data = _whole_or_none(bugs[seat])
        if self.has_turnip:
            self.turnip.data = entry.get("turnip") if isinstance(entry.get("turnip"), str) else ""
        last = entry.get("last_trick")
        self.last_trick.data = str(last) if _whole_or_none(last) is not None else ""


def _seats_of(value: Any, seats: int) -> list[Any]:
    """A stored entry's list (one item a seat), as many items as ``seats``: None where
    the list is short or is no list at all (a misshapen deal, filled in as far as it goes)."""
    items = list(value) if isinstance(value, list) else []
    return (items + [None] * seats)[:seats]


def _whole_or_none(value: Any) -> int | None:
    """A stored count or seat when it is a whole number (not true, not 4.0), else None."""
    return value if type(value) is int else None


def per_seat(players: Sequence[str], make: Callable[[int, str], dict[str, Any]]) -> dict[str, Any]:
    """The per-seat fields of a form: ``make(seat, name)`` gives each seat's fields by
    name ("tricks"), kept as ``tricks_0``, ``tricks_1`` … (made seat by seat, in the order
    the page shows them)."""
    return {f"{key}_{seat}": field for seat, name in enumerate(players) for key, field in make(seat, name).items()}


def trigami_form(players: Sequence[str], *, turnip: bool, tricks: int, suit_size: int) -> type[DealForm]:
    """A Trigami (``turnip=True``) or plain Bugami for three deal form for these players.

    Per seat i: ``bids_i`` (S/H/D/C, or "turnip"), ``doublets_i`` (Trigami), ``tricks_i``,
    ``bugs_i``; per deal: ``turnip`` (its suit) and ``last_trick`` (a seat), both optional.
    Source: SCORING.md §1.1.
    """
    bid_pairs = [(s, SUIT_SYMBOLS[s]) for s in SUITS] + ([("turnip", _l("Turnip"))] if turnip else [])

    def seat_fields(seat: int, name: str) -> dict[str, Any]:
        fields: dict[str, Any] = {"bids": RadioField(_l("Bid"), choices=choices(bid_pairs), validate_choice=False)}
        if turnip:
            fields["doublets"] = TickField(_l("Doublets"))
        fields["tricks"] = count_field(_l("Tricks"), tricks, who=_l("%(name)s's tricks", name=isolate(name)))
        fields["bugs"] = count_field(_l("Bugs"), suit_size, blank=0,  # blank means none
                                     who=_l("%(name)s's bugs", name=isolate(name)))
        return fields

    fields = per_seat(players, seat_fields)
    if turnip:
        fields["turnip"] = RadioField(
            _l("Turnip card"), choices=choices([(s, SUIT_SYMBOLS[s]) for s in SUITS] + [("", _l("not noted"))]),
            default="", validate_choice=False)
    fields["last_trick"] = RadioField(
        _l("Last trick won by"), choices=seat_choices(players, _l("not noted")), default="",
        validate_choice=False)
    return type("TrigamiDealForm", (TrigamiDealForm,), {
        "seats": len(players), "names": tuple(players), "has_turnip": turnip, "total_tricks": tricks,
        "bid_values": tuple(value for value, _label in bid_pairs), **fields})


# --------------------------------------------------------------------------- Trix


class TrixDealForm(DealForm):
    """A Trix deal; :func:`trix_form` makes the form of a game (its players' fields and
    its settings)."""

    seats: int
    names: tuple[str, ...]
    is_complex: bool  # Trix Complex: several contracts in one deal (checkboxes)
    has_doubling: bool  # the K♥ and queens may be doubled
    offered_contracts: tuple[str, ...]  # the contracts the form offers (offer() narrows them)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_submitted() and len(self.offered_contracts) == 1 and not self.is_complex:
            self.contracts.data = self.offered_contracts[0]  # a fixed order leaves one choice

    def offer(self, contracts: Sequence[str]) -> None:
        """Offer only ``contracts`` from now on (choices and blocks shown): the
        owner's unplayed ones, known once the game is scored. A form sent back is read
        without them (the rules check the contract against the kingdom), so a view
        narrows it only when it shows it. A fixed order's one choice is ticked on a
        form not yet filled in."""
        self.offered_contracts = tuple(contracts)
        self.contracts.choices = choices([(c, CONTRACT_NAMES[c]) for c in contracts])
        if not self.is_submitted() and len(contracts) == 1 and not self.is_complex and not self.contracts.data:
            self.contracts.data = contracts[0]

    def chosen(self) -> list[str]:
        if self.is_complex:
            return [c for c in CONTRACTS if c in (self.contracts.data or [])]
        return [self.contracts.data] if self.contracts.data in CONTRACT_NAMES else []

    def _card(self, prefix: str, label: str) -> dict[str, Any] | None:
        taker = self.seat(f"{prefix}_taker")
        if taker is None:
            self.ask(f"{prefix}_taker", _("Who took %(card)s?", card=label))
            return None
        block: dict[str, Any] = {"taker": taker}
        if self.has_doubling:
            block["doubled_by"] = self.seat(f"{prefix}_doubled_by")
            block["leader"] = self.seat(f"{prefix}_leader")
            if self[f"{prefix}_doubled_by"].errors or self[f"{prefix}_leader"].errors:
                return None
            doubler = block["doubled_by"]
            if doubler is not None and doubler == taker and block["leader"] is None:
                # asked beside the cards still without a taker, not on a second Save
                # (tester 50); the rules ask the same (rules/trix.py, validate)
                card = card_label("K", "H") if prefix == "king" else card_label("Q", prefix.rsplit("_", 1)[1])
                self.ask(f"{prefix}_leader", _("{doubler} doubled the {card} and took it back: who led to that "
                                               "trick?").format(doubler=isolate(self.names[doubler]), card=card))
                return None
        return block

    def _counts(self, name: str, what: Any) -> list[int] | None:
        counts = _fill_last([self[f"{name}_{s}"].data for s in range(self.seats)], 13)
        missing = [s for s, v in enumerate(counts) if v is None]
        typed = sum(v for v in counts if v is not None)
        wrong = any(self[f"{name}_{s}"].errors for s in range(self.seats))
        if missing and typed > 13 and not wrong:
            self.add_group_error(name, _("The %(what)s typed already add up to %(sum)s, more than %(total)s.",
                                         what=what, sum=typed, total=13))
            return None
        for seat in missing:
            self.ask(f"{name}_{seat}", _("How many %(what)s did %(name)s take?", what=what, name=isolate(self.names[seat])))
        return None if missing else counts  # type: ignore[return-value]

    def to_entry(self) -> dict[str, Any] | None:
        """The deal entry, or None after adding errors to the fields."""
        chosen = self.chosen()
        if not self.is_complex and len(set(self.contracts.raw_data or ())) > 1:
            # radio buttons send one: two are a crafted form, refused, not cut to the first
            self.contracts.errors = [_("Choose one contract: without Trix Complex each deal plays one.")]
            return None
        if not chosen:
            self.ask("contracts", _("Choose the contract."))
            return None
        entry: dict[str, Any] = {"contracts": chosen}
        ok = True
        for contract in chosen:
            block: Any
            if contract == "king":
                block = self._card("king", _("the %(king)s", king=card_label("K", "H")))
            elif contract == "queens":
                cards = {s: self._card(f"queens_{s}", _("the %(queen)s", queen=card_label("Q", s))) for s in SUITS}
                block = None if None in cards.values() else cards
            elif contract == "diamonds":
                block = self._counts("diamonds", pgettext("counted", "diamonds"))
            elif contract == "tricks":
                block = self._counts("tricks", pgettext("counted", "tricks"))
            else:
                block = self._finishing_order()
            if block is None:
                ok = False
            entry[contract] = block
        return entry if ok and not self.errors else None

    def _finishing_order(self) -> list[int] | None:
        order = [self.seat(f"trix_place_{place}") for place in range(1, self.seats + 1)]
        if any(self[f"trix_place_{place}"].errors for place in range(1, self.seats + 1)):
            return None
        for seat in range(self.seats):
            places = [PLACES[i] for i, s in enumerate(order) if s == seat]
            if len(places) > 1:  # the rules would only say "names a player twice": say whom, and where
                self.add_group_error("trix", _("%(name)s is tapped as both %(place)s and %(other)s: each player "
                                               "goes out once.", name=isolate(self.names[seat]), place=places[0],
                                               other=places[1]))
                return None
        blanks = [i for i, s in enumerate(order) if s is None]
        unused = [s for s in range(self.seats) if s not in order]
        if len(blanks) == 1 and len(unused) == 1:
            order[blanks[0]] = unused[0]  # the last one out is whoever is left
        if None in order:
            # what is still to tap: the whole order, or the first place left (tester 31:
            # "first, second and third" stood there with two players tapped)
            asked = (_("Tap who went out first."), _("Tap who went out second."), _("Tap who went out third."))
            first = order.index(None)
            self.ask("trix", _("Tap who went out first, second and third.") if all(s is None for s in order)
                     else asked[first] if first < len(asked) else asked[-1])
            return None
        return order  # type: ignore[return-value]

    def fill(self, entry: Mapping[str, Any]) -> None:
        """Fill the fields from a stored deal entry (for editing). An entry that no longer
        fits the rules (a database restored from elsewhere, its deal misshapen: tester 52)
        fills what it can; the rest stays blank for the player to enter."""
        entry = entry if isinstance(entry, Mapping) else {}
        contracts = [c for c in _seats_of(entry.get("contracts"), len(CONTRACTS)) if c in CONTRACTS]
        self.contracts.data = contracts if self.is_complex else (contracts[0] if contracts else None)
        queens = entry.get("queens")
        queens = queens if isinstance(queens, Mapping) else {}
        cards = [("king", entry.get("king"))] + [(f"queens_{s}", queens.get(s)) for s in SUITS]
        for prefix, card in cards:
            if isinstance(card, Mapping):
                for key in ("taker", "doubled_by", "leader") if self.has_doubling else ("taker",):
                    value = _whole_or_none(card.get(key))
                    self[f"{prefix}_{key}"].data = "" if value is None else str(value)
        for name in ("diamonds", "tricks"):
            for seat, value in enumerate(_seats_of(entry.get(name), self.seats)):
                self[f"{name}_{seat}"].data = _whole_or_none(value)
        for place, seat in enumerate(_seats_of(entry.get("trix"), self.seats), 1):
            self[f"trix_place_{place}"].data = "" if _whole_or_none(seat) is None else str(seat)


def trix_form(players: Sequence[str], *, offered: Sequence[str], complex_: bool, doubling: bool) -> type[DealForm]:
    """A Trix deal form: the contract(s) (only those ``offered``: the owner's unplayed
    ones; ``offer()`` narrows a form made with more), then a block per contract. Fields: ``contracts`` (radio buttons, or checkboxes
    in Trix Complex); ``king_taker``/``king_doubled_by``/``king_leader``; the same per queen
    (``queens_S_taker`` …); ``diamonds_i``, ``tricks_i``; ``trix_place_1`` … ``trix_place_4``
    (the seat finishing 1st … 4th). Source: SCORING.md §2.1–2.3.
    """
    contract_choices = choices([(c, CONTRACT_NAMES[c]) for c in offered])
    fields: dict[str, Any] = {}
    if complex_:
        fields["contracts"] = SelectMultipleField(
            _l("Contracts"), choices=contract_choices, validate_choice=False,
            widget=ListWidget(prefix_label=False), option_widget=CheckboxInput())
    else:
        fields["contracts"] = RadioField(_l("Contract"), choices=contract_choices, validate_choice=False)
    takers = seat_choices(players)
    for prefix in ["king"] + [f"queens_{s}" for s in SUITS]:
        fields[f"{prefix}_taker"] = RadioField(_l("Taken by"), choices=takers, validate_choice=False)
        if doubling:
            fields[f"{prefix}_doubled_by"] = RadioField(
                _l("Doubled by"), choices=seat_choices(players, _l("nobody")), default="", validate_choice=False)
            fields[f"{prefix}_leader"] = RadioField(
                _l("Led to that trick (only if the doubler took it back)"),
                choices=seat_choices(players, _l("—")), default="", validate_choice=False)
    fields |= per_seat(players, lambda seat, name: {
        "diamonds": count_field(_l("Diamonds"), 13, who=_l("%(name)s's diamonds", name=isolate(name))),
        "tricks": count_field(_l("Tricks"), 13, who=_l("%(name)s's tricks", name=isolate(name)))})
    for place in range(1, len(players) + 1):
        fields[f"trix_place_{place}"] = RadioField(str(place), choices=takers, validate_choice=False)
    return type("TrixDealForm", (TrixDealForm,), {
        "seats": len(players), "names": tuple(players), "is_complex": complex_, "has_doubling": doubling,
        "offered_contracts": tuple(offered), **fields})
