"""WTForms classes for the phone: new game, a Trigami deal, a Trix deal.

Deal forms map to the game file's deal entries and back (``to_entry`` / ``fill``); the
rules then check the entry (gamefile → rules), and a RuleError is attached to the field it
names (:func:`attach_error`). Forms are built per game, since the choices are the players.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import lazy_pgettext as _lp
from flask_babel import pgettext
from flask_babel.speaklater import LazyString
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.utils import unset_value
from wtforms.validators import NumberRange, Optional
from wtforms.widgets import TextInput

from .gamefile import check_player_names
from .i18n import gettext as _
from .i18n import lazy_gettext as _l
from .inputs import whole_number, whole_number_below
from .rules.common import SUIT_SYMBOLS, SUITS, RuleError
from .rules.trix import card_label
from .text import isolate

# A suit by name (what a screen reader says for its symbol), apart from the same words
# counted ("How many diamonds …?": pgettext "counted")
SUIT_NAMES = {"S": _lp("suit", "spades"), "H": _lp("suit", "hearts"), "D": _lp("suit", "diamonds"),
              "C": _lp("suit", "clubs")}
# The contracts by name, apart from the game "Trix" (KIND_NAMES) and the counts "Diamonds",
# "Tricks" (count fields): Arabic names the contract التركس, the game تركس
CONTRACT_NAMES = {
    "king": _lp("contract", "King of Hearts"),
    "queens": _lp("contract", "Queens"),
    "diamonds": _lp("contract", "Diamonds"),
    "tricks": _lp("contract", "Tricks"),
    "trix": _lp("contract", "Trix"),
}
CONTRACTS = tuple(CONTRACT_NAMES)
# The K♥ as the reader's players write it, for labels made before any request
KING_LABEL = LazyString(card_label, "K", "H")
# The Trix finishing order's places, as a sentence names them ("Anna is tapped as both out first and second")
PLACES = (_l("out first"), _l("second"), _l("third"), _l("last"))
KIND_NAMES = {"trigami": _l("Trigami"), "bugami3": _l("Plain Bugami for three"), "trix": _l("Trix")}
MAX_COUNT_INPUT = 99  # bigger numbers are typing slips: say so beside the field

#: What a target must be (Trigami and plain Bugami), in the page's digits
TARGET_RANGE = _l("Enter a target from %(low)s to %(high)s.", low=50, high=100000)


class DigitsInput(TextInput):
    """A whole number typed on the phone's numeric keypad: a text field with
    ``inputmode="numeric"``, not ``type="number"``, which drops the digits of an Arabic
    keypad (٣) and of other scripts; the server reads any decimal digits
    (inputs.whole_number), and static/app.js too (issue 10)."""

    def __call__(self, field: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("inputmode", "numeric")
        kwargs.setdefault("size", 6)
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

    ``negative`` replaces the message for a number typed with a minus sign."""

    def __init__(self, *args: Any, negative: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.negative = negative

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist or not str(valuelist[0]).strip():
            self.data = None
            return
        text = str(valuelist[0]).strip()
        if not text.isdecimal():  # Unicode digits (e.g. Arabic-Indic) are whole numbers too
            self.data = None
            if text.startswith(("-", "−")):
                raise ValueError(str(self.negative) if self.negative else _("A count cannot be negative."))
            raise ValueError(_("Enter a whole number, like %(example)s.", example=3))
        self.data = whole_number(text)  # a number too long to be a count is TOO_LARGE: out of range

    def validate(self, form: Any, extra_validators: Any = ()) -> bool:
        # A count that is not a number says so once, not also "must be from 0 to 13"
        if self.process_errors:
            self.errors = [self.process_errors[0]]
            return False
        return super().validate(form, extra_validators)


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
        self.data = chip  # tapped with the field left blank, or tapped anew beside a number left as it was
        self.raw_data = [tapped]


def choices(pairs: Sequence[tuple[str, Any]]) -> list[SelectChoice]:
    """(value, label) pairs as WTForms' SelectChoice objects."""
    return [SelectChoice(value, label) for value, label in pairs]


def _seat_choices(players: Sequence[str], none: Any = None) -> list[SelectChoice]:
    pairs = [(str(seat), name) for seat, name in enumerate(players)]
    return choices(([("", none)] if none is not None else []) + pairs)


def capitalized(message: str) -> str:
    """A rules message as a sentence beside a field: "tricks add up…" → "Tricks add up…"."""
    return message[:1].upper() + message[1:]


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
        out += [(field.id, m) for field in self if field.type != "CSRFTokenField" for m in field.errors]
        return out

    @property
    def has_errors(self) -> bool:
        return bool(self.errors or self.group_errors or self.form_errors)


def csrf_failed(form: FlaskForm) -> bool:
    """Whether a submitted form was refused for its CSRF token (expired or forged)."""
    return form.is_submitted() and "csrf_token" in form and bool(form.csrf_token.errors)


def attach_error(form: DealForm, error: RuleError, deal_number: int | None = None) -> None:
    """Put a rules error beside the field it names ("bugs" of seat 1 → ``bugs_1``,
    "queens.S.leader" → ``queens_S_leader``), else above the group it concerns, else at the
    top of the form. An error about another deal (an edit that breaks a later one) goes at
    the top, with its deal number."""
    if error.deal is not None and deal_number is not None and error.deal != deal_number:
        form.form_errors.append(_("Deal %(n)s would no longer fit: %(problem)s", n=error.deal,
                                  problem=error.message))
        return
    if error.field:
        base = error.field.replace(".", "_")
        names = ([f"{base}_{error.seat}"] if error.seat is not None else []) + [base]
        for name in names:
            if name in form:
                form[name].errors = [*form[name].errors, capitalized(error.message)]
                return
        form.add_group_error(base.split("_")[0], capitalized(error.message))
        return
    form.form_errors.append(capitalized(error.message))


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


def trigami_form(players: Sequence[str], *, turnip: bool, tricks: int, suit_size: int) -> type[DealForm]:
    """A Trigami (``turnip=True``) or plain Bugami for three deal form for these players.

    Per seat i: ``bids_i`` (S/H/D/C, or "turnip"), ``doublets_i`` (Trigami), ``tricks_i``,
    ``bugs_i``; per deal: ``turnip`` (its suit) and ``last_trick`` (a seat), both optional.
    Source: SCORING.md §1.1.
    """
    bid_pairs = [(s, SUIT_SYMBOLS[s]) for s in SUITS] + ([("turnip", _l("Turnip"))] if turnip else [])

    class TrigamiDealForm(DealForm):
        seats = len(players)
        names = tuple(players)
        has_turnip = turnip
        total_tricks = tricks

        def to_entry(self) -> dict[str, Any] | None:
            """The deal entry, or None after adding errors to the fields."""
            ok = True
            bids = []
            for seat, name in enumerate(self.names):
                bid = self[f"bids_{seat}"].data
                doublets = turnip and self[f"doublets_{seat}"].data
                if bid in (None, "", "None"):
                    self.ask(f"bids_{seat}", _("Choose %(name)s's bid.", name=isolate(name)))
                    ok = False
                    bids.append(None)
                elif bid not in dict(bid_pairs):
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
            if turnip and self.turnip.data in SUITS:
                entry = {"turnip": self.turnip.data, **entry}
            elif turnip and self.turnip.data not in ("", None):
                self.turnip.errors = [_("Tap the turnip card's suit.")]
                return None
            last = self.seat("last_trick")
            if self.last_trick.errors:
                return None
            if last is not None:
                entry["last_trick"] = last
            return entry

        def fill(self, entry: Mapping[str, Any]) -> None:
            """Fill the fields from a stored deal entry (for editing)."""
            for seat, bid in enumerate(entry["bids"]):
                self[f"bids_{seat}"].data = "turnip" if bid["kind"] == "turnip" else bid.get("suit")
                if turnip:
                    self[f"doublets_{seat}"].data = bid["kind"] == "doublets"
                self[f"tricks_{seat}"].data = entry["tricks"][seat]
                self[f"bugs_{seat}"].data = entry["bugs"][seat]
            if turnip:
                self.turnip.data = entry.get("turnip") or ""
            last = entry.get("last_trick")
            self.last_trick.data = "" if last is None else str(last)

    for seat, name in enumerate(players):
        setattr(TrigamiDealForm, f"bids_{seat}", RadioField(
            _l("Bid"), choices=choices(bid_pairs), validate_choice=False))
        if turnip:
            setattr(TrigamiDealForm, f"doublets_{seat}", BooleanField(_l("Doublets")))
        setattr(TrigamiDealForm, f"tricks_{seat}", count_field(_l("Tricks"), tricks,
                                                               who=_l("%(name)s's tricks", name=isolate(name))))
        setattr(TrigamiDealForm, f"bugs_{seat}", count_field(_l("Bugs"), suit_size, blank=0,  # blank means none
                                                             who=_l("%(name)s's bugs", name=isolate(name))))
    if turnip:
        TrigamiDealForm.turnip = RadioField(
            _l("Turnip card"), choices=choices([(s, SUIT_SYMBOLS[s]) for s in SUITS] + [("", _l("not noted"))]),
            default="", validate_choice=False)
    TrigamiDealForm.last_trick = RadioField(
        _l("Last trick won by"), choices=_seat_choices(players, _l("not noted")), default="",
        validate_choice=False)
    return TrigamiDealForm


# --------------------------------------------------------------------------- Trix


def trix_form(players: Sequence[str], *, offered: Sequence[str], complex_: bool, doubling: bool) -> type[DealForm]:
    """A Trix deal form: the contract(s) (only those ``offered``: the owner's unplayed
    ones; ``offer()`` narrows a form made with more), then a block per contract. Fields: ``contracts`` (radio buttons, or checkboxes
    in Trix Complex); ``king_taker``/``king_doubled_by``/``king_leader``; the same per queen
    (``queens_S_taker`` …); ``diamonds_i``, ``tricks_i``; ``trix_place_1`` … ``trix_place_4``
    (the seat finishing 1st … 4th). Source: SCORING.md §2.1–2.3.
    """
    contract_choices = choices([(c, CONTRACT_NAMES[c]) for c in offered])

    class TrixDealForm(DealForm):
        seats = len(players)
        names = tuple(players)
        is_complex = complex_
        has_doubling = doubling
        offered_contracts = tuple(offered)

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if not self.is_submitted() and len(offered) == 1 and not complex_:
                self.contracts.data = offered[0]  # a fixed order leaves one choice

        def offer(self, contracts: Sequence[str]) -> None:
            """Offer only ``contracts`` from now on (choices and blocks shown): the
            owner's unplayed ones, known once the game is scored. A form sent back is read
            without them (the rules check the contract against the kingdom), so a view
            narrows it only when it shows it. A fixed order's one choice is ticked on a
            form not yet filled in."""
            self.offered_contracts = tuple(contracts)
            self.contracts.choices = choices([(c, CONTRACT_NAMES[c]) for c in contracts])
            if not self.is_submitted() and len(contracts) == 1 and not complex_ and not self.contracts.data:
                self.contracts.data = contracts[0]

        def chosen(self) -> list[str]:
            if complex_:
                return [c for c in CONTRACTS if c in (self.contracts.data or [])]
            return [self.contracts.data] if self.contracts.data in CONTRACT_NAMES else []

        def _card(self, prefix: str, label: str) -> dict[str, Any] | None:
            taker = self.seat(f"{prefix}_taker")
            if taker is None:
                self.ask(f"{prefix}_taker", _("Who took %(card)s?", card=label))
                return None
            block: dict[str, Any] = {"taker": taker}
            if doubling:
                block["doubled_by"] = self.seat(f"{prefix}_doubled_by")
                block["leader"] = self.seat(f"{prefix}_leader")
                if self[f"{prefix}_doubled_by"].errors or self[f"{prefix}_leader"].errors:
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
            if not chosen:
                self.ask("contracts", _("Choose the contract."))
                return None
            entry: dict[str, Any] = {"contracts": chosen}
            ok = True
            for contract in chosen:
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
                self.ask("trix", _("Tap who went out first, second and third."))
                return None
            return order  # type: ignore[return-value]

        def fill(self, entry: Mapping[str, Any]) -> None:
            """Fill the fields from a stored deal entry (for editing)."""
            self.contracts.data = list(entry["contracts"]) if complex_ else entry["contracts"][0]
            cards = [("king", entry.get("king"))] + [
                (f"queens_{s}", (entry.get("queens") or {}).get(s)) for s in SUITS]
            for prefix, card in cards:
                if card:
                    self[f"{prefix}_taker"].data = str(card["taker"])
                    if doubling:
                        for key in ("doubled_by", "leader"):
                            value = card.get(key)
                            self[f"{prefix}_{key}"].data = "" if value is None else str(value)
            for name in ("diamonds", "tricks"):
                for seat, value in enumerate(entry.get(name) or []):
                    self[f"{name}_{seat}"].data = value
            for place, seat in enumerate(entry.get("trix") or [], 1):
                self[f"trix_place_{place}"].data = str(seat)

    if complex_:
        from wtforms import SelectMultipleField
        from wtforms.widgets import CheckboxInput, ListWidget

        TrixDealForm.contracts = SelectMultipleField(
            _l("Contracts"), choices=contract_choices, validate_choice=False,
            widget=ListWidget(prefix_label=False), option_widget=CheckboxInput())
    else:
        TrixDealForm.contracts = RadioField(_l("Contract"), choices=contract_choices, validate_choice=False)
    seat_choices = _seat_choices(players)
    for prefix in ["king"] + [f"queens_{s}" for s in SUITS]:
        setattr(TrixDealForm, f"{prefix}_taker", RadioField(_l("Taken by"), choices=seat_choices, validate_choice=False))
        if doubling:
            setattr(TrixDealForm, f"{prefix}_doubled_by", RadioField(
                _l("Doubled by"), choices=_seat_choices(players, _l("nobody")), default="", validate_choice=False))
            setattr(TrixDealForm, f"{prefix}_leader", RadioField(
                _l("Led to that trick (only if the doubler took it back)"),
                choices=_seat_choices(players, _l("—")), default="", validate_choice=False))
    for seat, name in enumerate(players):
        setattr(TrixDealForm, f"diamonds_{seat}", count_field(_l("Diamonds"), 13,
                                                              who=_l("%(name)s's diamonds", name=isolate(name))))
        setattr(TrixDealForm, f"tricks_{seat}", count_field(_l("Tricks"), 13, who=_l("%(name)s's tricks", name=isolate(name))))
    for place in range(1, len(players) + 1):
        setattr(TrixDealForm, f"trix_place_{place}", RadioField(
            str(place), choices=seat_choices, validate_choice=False))
    return TrixDealForm


# --------------------------------------------------------------------------- New game


class EmptyForm(FlaskForm):
    """Only the CSRF token: guards delete and undo buttons."""


class GameSetupForm(FlaskForm):
    """What the new-game and the players-and-settings forms share: the players' names
    (``player_0`` …) and the settings, read into the game file's shapes with every problem
    put beside its field."""

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
        """The names, checked (gamefile.check_player_names), or None after errors."""
        names = self.names()
        for seat, name in enumerate(names):
            if not name:
                self[f"player_{seat}"].errors = [_("Enter a name for player %(n)s.", n=seat + 1)]
        if not all(names):
            return None
        try:
            return check_player_names(names, self.seat_count)
        except RuleError as error:
            field = self[f"player_{error.seat or 0}"]
            field.errors = [*field.errors, capitalized(error.message) + "."]
            return None

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
        }

    def parsed_options(self, rules: Any) -> Any:
        """The settings parsed by the game's rules, or None after an error beside the
        setting concerned (the fixed order's beside its first place)."""
        try:
            return rules.parse_options(self.options())
        except RuleError as error:
            self.setting_error((error.field or "").removeprefix("options."), capitalized(error.message))
            return None

    def setting_error(self, key: str, message: str) -> None:
        """Put ``message`` beside setting ``key``, else at the top of the form."""
        if key == "order":
            self.order_1.errors = [*self.order_1.errors, _("Choose each contract once for the fixed order.")]
        elif key in self:
            self[key].errors = [*self[key].errors, message]
        else:
            self.form_errors.append(message)


def new_game_form(kind: str, seats: int) -> type[FlaskForm]:
    """The new-game form for ``kind`` with ``seats`` player fields (``player_0`` …),
    the first dealer (Trigami: also "random"; Trix: who holds the 7♥) and the settings."""

    class NewGameForm(GameSetupForm):
        game_kind = kind
        seat_count = seats
        nonce = HiddenField()

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if not self.nonce.data:
                self.nonce.data = secrets.token_urlsafe(16)  # a double tap on Start makes one game

    for seat in range(seats):
        setattr(NewGameForm, f"player_{seat}", StringField(
            _l("Player %(n)s", n=seat + 1),
            render_kw={"autocomplete": "off", "list": "known-players", "maxlength": 40,
                       "autocapitalize": "words", "enterkeyhint": "next"}))
    dealer_pairs = [(str(s), _l("Player %(n)s", n=s + 1)) for s in range(seats)]
    if kind == "trix":
        NewGameForm.first_dealer = RadioField(_l("Who holds the 7♥? (owns the first kingdom)"),
                                              choices=choices(dealer_pairs), validate_choice=False)
        NewGameForm.doubling = BooleanField(_l("Doubling the %(king)s and queens", king=KING_LABEL), default=True)
        NewGameForm.values = RadioField(_l("Values"), default="standard", validate_choice=False, choices=choices([
            ("standard", _l("Diamonds %(diamonds)s, Tricks %(tricks)s", diamonds=-10, tricks=-15)),
            ("swapped", _l("Swapped: Diamonds %(diamonds)s, Tricks %(tricks)s", diamonds=-15, tricks=-10))]))
        NewGameForm.scoring = RadioField(_l("Scoring"), default="standard", validate_choice=False, choices=choices([
            ("standard", _l("Highest total wins")), ("reversed", _l("Reversed: signs flipped, lowest wins"))]))
        NewGameForm.partnership = RadioField(_l("Partners"), default="", validate_choice=False, choices=choices([
            ("", _l("Everyone for themselves")), ("sum", _l("Partners opposite, team totals added")),
            ("worst-loses", _l("Partners opposite, the team with the worst total loses"))]))
        NewGameForm.complex = BooleanField(_l("Trix Complex: several penalty contracts in one deal"))
        NewGameForm.fixed_order = BooleanField(_l("Contracts in a fixed order"))
        order_choices = choices([(c, CONTRACT_NAMES[c]) for c in CONTRACTS])
        for place, default in enumerate(("trix", "queens", "king", "diamonds", "tricks"), 1):
            setattr(NewGameForm, f"order_{place}", SelectField(
                str(place), choices=order_choices, default=default, validate_choice=False))
    else:
        NewGameForm.first_dealer = RadioField(_l("Who deals first?"), default="random", validate_choice=False,
                                              choices=choices(dealer_pairs + [("random", _l("Pick at random"))]))
        NewGameForm.target = CountField(
            _l("Play to"), default=500, negative=TARGET_RANGE,
            validators=[NumberRange(50, 100000, message=TARGET_RANGE)],
            widget=DigitsInput())
    return NewGameForm


def past_games_form(players: Mapping[int, str]) -> type[FlaskForm]:
    """The home page's filters, read from the query string (a plain GET form, no CSRF):
    ``kind``, ``player`` (a players-table id; ``players`` is {id: name}), ``status``
    ("", "unfinished", "finished"), ``start`` and ``end`` (days, inclusive), ``tz`` (the
    viewer's IANA time zone, filled in by static/app.js) and ``figure`` (a player page
    figure's key, see stats.Figure). Build it with ``formdata=request.args``."""
    from wtforms import DateField  # only this form takes dates
    from wtforms.validators import ValidationError

    class PastGamesForm(FlaskForm):
        class Meta:
            csrf = False

        kind = SelectField(_l("Game"), default="", choices=choices(
            [("", _l("Any game"))] + list(KIND_NAMES.items())))
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


def edit_game_form(kind: str, seats: int) -> type[FlaskForm]:
    """The players-and-settings form of a stored game: ``player_0`` … (new names; seats
    stay where they are) and the new-game form's settings: ``target`` (Trigami, plain
    Bugami), or Trix's ``doubling``, ``values``, ``scoring``, ``partnership``, ``complex``,
    ``fixed_order`` and ``order_1`` … ``order_5``. ``fill(players, options)`` fills it from
    the stored game (options as the game file writes them)."""
    new = new_game_form(kind, seats)
    settings = ("target",) if kind != "trix" else (
        "doubling", "values", "scoring", "partnership", "complex", "fixed_order",
        *(f"order_{place}" for place in range(1, 6)))

    class EditGameForm(GameSetupForm):
        game_kind = kind
        seat_count = seats
        setting_names = settings

        def fill(self, players: Sequence[str], options: Mapping[str, Any]) -> None:
            for seat, name in enumerate(players):
                self[f"player_{seat}"].data = name
            if kind != "trix":
                self.target.data = options.get("target")
                return
            for key in ("doubling", "complex"):
                self[key].data = bool(options.get(key))
            self["values"].data = options.get("values") or "standard"
            self.scoring.data = options.get("scoring") or "standard"
            self.partnership.data = options.get("partnership") or ""
            order = options.get("order")
            self.fixed_order.data = order is not None
            for place, contract in enumerate(order or (), 1):
                self[f"order_{place}"].data = contract

    for seat in range(seats):
        setattr(EditGameForm, f"player_{seat}", getattr(new, f"player_{seat}"))
    for name in settings:
        setattr(EditGameForm, name, getattr(new, name))
    return EditGameForm


# --------------------------------------------------------------------------- Explain: what-if, calculator


def what_if_form(kind: str, doubling: bool) -> type[FlaskForm]:
    """The what-if choices, read from the query string (a GET form, no CSRF: it changes
    nothing). Trix: ``doubling`` ("kept" or "none"; only when the game has doubling),
    ``values`` ("standard", "swapped"), ``scoring`` ("standard", "reversed"). Trigami and
    plain Bugami: ``target``. A blank or unknown value keeps the game's own setting (the
    view says so). Build it with ``formdata=request.args``. Source: SCORING.md §1.4, §2.5.
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
    else:
        WhatIfForm.target = CountField(
            _l("Play to"), negative=TARGET_RANGE,
            validators=[Optional(), NumberRange(50, 100000, message=TARGET_RANGE)],
            widget=DigitsInput())
    return WhatIfForm


def calculator_settings_form(kind: str) -> type[FlaskForm]:
    """The calculator's Trix settings that change points (SCORING.md §2.2, §2.5), read from
    the query string with the deal's fields (no CSRF: nothing is saved): ``doubling``,
    ``complex`` (checkboxes), ``values``, ``scoring``. Trigami has none. Build it with
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
    return CalculatorSettings
