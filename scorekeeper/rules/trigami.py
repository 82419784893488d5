"""Trigami (David Parlett) and plain Bugami for three: deals in, explained points out.

One class, :class:`TrigamiRules`, parametrised by the few numbers that differ between the
two games (tricks, cards a suit, whether Turnip and Doublets may be bid, whether the odd
card is a turnip whose suit is recorded).  The module offers the two instances the app
knows: :data:`TRIGAMI` and :data:`BUGAMI3`.

Source: ../shared/SCORING.md §1 (normative); rules/trigami.en.txt (.de, .fi).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .common import (
    SUIT_SYMBOLS,
    SUITS,
    DealError,
    DealScore,
    FormatError,
    GameOverError,
    GameScore,
    RuleError,
    ScoreLine,
    _,
    _n,
    _np,
    and_listed,
    check_count,
    places_by_totals,
    shown_names,
)

PLAIN = "plain"
TURNIP = "turnip"
DOUBLETS = "doublets"
BID_KINDS: tuple[str, ...] = (PLAIN, TURNIP, DOUBLETS)

DEFAULT_TARGET = 500
MAX_TARGET = 100_000  # a game to more would take a thousand deals: a typing slip


@dataclass(frozen=True)
class Options:
    """A Trigami game's settings: ``target`` is the total that wins (SCORING.md §1.4)."""

    target: int = DEFAULT_TARGET


@dataclass(frozen=True)
class Bid:
    """One player's bid: ``kind`` is "plain", "turnip" or "doublets"; ``suit`` one of
    "S", "H", "D", "C" — the bug suit of a plain or Doublets bid.  A Turnip bid has no
    suit of its own (None); its bug suit is the turnip's (SCORING.md §1.1)."""

    kind: str
    suit: str | None = None

    def bug_suit(self, turnip: str | None) -> str | None:
        """The bid's bug suit, given the turnip's suit (None while it is not known)."""
        return turnip if self.kind == TURNIP else self.suit


@dataclass(frozen=True)
class TrigamiDeal:
    """One deal as entered at the table (GAME-FILE.md, "Trigami and plain Bugami").

    ``bids``, ``tricks`` and ``bugs`` hold one entry per seat, in playing order: a
    :class:`Bid`, the tricks won and the bugs taken (cards of the bug suit in those
    tricks, the turnip included).  ``turnip`` is the turnip card's suit (None if not
    recorded; always None in plain Bugami), ``last_trick`` the seat that won the last
    trick (None if not recorded).
    """

    bids: tuple[Bid, ...]
    tricks: tuple[int, ...]
    bugs: tuple[int, ...]
    turnip: str | None = None
    last_trick: int | None = None


def _tricks(count: int) -> str:
    return _n(count, "{n} trick", "{n} tricks")


def _bugs(count: int) -> str:
    return _n(count, "{n} bug", "{n} bugs")


def _tricks_summed(count: int) -> str:
    """A count of tricks in a sum ("5 tricks × 20 = 100"): its digit kept in every
    language."""
    return _np("in a sum", "{n} trick", "{n} tricks", count)


def _bugs_summed(count: int) -> str:
    """A count of bugs in a sum ("50, ÷ 2 bugs = 25"): its digit kept in every language."""
    return _np("in a sum", "{n} bug", "{n} bugs", count)



def _who(names: Sequence[str] | None, seat: int) -> str:
    """The player at ``seat`` for a message: their name, or "player 2" when parse_deal
    has no names to go by."""
    if names is not None:
        return names[seat]
    return _("player {number}").format(number=seat + 1)


@dataclass(frozen=True)
class TrigamiRules:
    """The rules of Trigami or of plain Bugami for three (follows common.GameRules).

    ``tricks`` per deal; ``suit_size`` cards of each suit (four suits, so the deck has
    ``cards`` = 4 × suit_size = 3 × tricks + 1: every card ends in somebody's tricks, the
    odd one joining the last trick); ``special_bids`` whether Turnip and Doublets may be
    bid; ``has_turnip`` whether the odd card is a turnip whose suit a deal may record
    (plain Bugami: a leftover card whose suit is never recorded).
    Source: SCORING.md §1, §1.5.
    """

    kind: str
    title: str
    tricks: int
    suit_size: int
    special_bids: bool
    has_turnip: bool
    source: str
    seats: int = 3

    def __post_init__(self) -> None:
        if 4 * self.suit_size != self.seats * self.tricks + 1:
            raise ValueError("every card but one must be dealt into the tricks")

    @property
    def shown_title(self) -> str:
        """The game's name in the reader's words ("Tavallinen Bugami kolmelle"), translated now."""
        return _("Trigami") if self.kind == "trigami" else _("Plain Bugami for three")

    @property
    def cards(self) -> int:
        """Cards in play: 40 in Trigami, 52 in plain Bugami."""
        return 4 * self.suit_size

    @property
    def outside(self) -> int:
        """Cards outside any one bug suit: 30 in Trigami, 39 in plain Bugami."""
        return self.cards - self.suit_size

    # --- options -------------------------------------------------------------------

    def parse_options(self, raw: Mapping[str, Any]) -> Options:
        """``{"target": 500}`` → :class:`Options`; a missing key takes its default.

        Raises FormatError (field "options" or "options.<key>") on anything but a dict,
        an unknown key, or a target that is not a whole number above 0.
        """
        if not isinstance(raw, Mapping):
            raise FormatError(_("options must be an object, not {value!r}").format(value=raw),
                              field="options")
        for key in raw:
            if key != "target":
                raise FormatError(_("unknown option {key!r} for {game}").format(
                    key=key, game=self.title), field=f"options.{key}")
        target = raw.get("target", DEFAULT_TARGET)
        if isinstance(target, bool) or not isinstance(target, int) or not 0 < target <= MAX_TARGET:
            raise FormatError(_("target must be a whole number from 1 to {most}, not {value!r}").format(
                most=str(MAX_TARGET), value=target), field="options.target")  # the file's own numbers: 0–9
        return Options(target=target)

    def dump_options(self, options: Options) -> dict[str, Any]:
        """:class:`Options` → ``{"target": N}``."""
        return {"target": options.target}

    # --- deals ---------------------------------------------------------------------

    def parse_deal(self, raw: Any, number: int, players: Sequence[str] | None = None) -> TrigamiDeal:
        """One deal entry (GAME-FILE.md) → :class:`TrigamiDeal`; ``number`` is 1-based.

        Checks the shape and single values only (a list of 3 bids; counts are JSON
        integers, tricks 0..13 (17), bugs 0..10 (13); suits; the last trick's seat) and
        what the game allows (plain Bugami: plain bids, no ``turnip`` key).  Keys the
        format does not define are ignored.  Raises DealError with ``deal=number``, the
        field and, where one player's entry is wrong, the seat.  How the counts fit
        together is checked by :meth:`score`. ``players`` (names in seat order), when
        given, name the player in a message instead of "player 2".
        """
        return self._parse(raw, number, players)

    def dump_deal(self, deal: TrigamiDeal) -> dict[str, Any]:
        """:class:`TrigamiDeal` → its game-file dict; ``turnip``, ``last_trick`` and a
        Turnip bid's suit are left out when None (parse_deal(dump_deal(d)) == d)."""
        out: dict[str, Any] = {}
        if deal.turnip is not None:
            out["turnip"] = deal.turnip
        out["bids"] = [
            {"kind": bid.kind} if bid.suit is None else {"kind": bid.kind, "suit": bid.suit}
            for bid in deal.bids
        ]
        out["tricks"] = list(deal.tricks)
        out["bugs"] = list(deal.bugs)
        if deal.last_trick is not None:
            out["last_trick"] = deal.last_trick
        return out

    def _parse(self, raw: Any, number: int, names: Sequence[str] | None) -> TrigamiDeal:
        """parse_deal, naming players by ``names`` when given (score re-checks deals that
        were built directly, e.g. by a form, and then knows the names)."""
        names = None if names is None else shown_names(names)
        if not isinstance(raw, Mapping):
            raise DealError(_("a deal must be an object, not {value!r}").format(value=raw),
                            deal=number)
        for key in ("bids", "tricks", "bugs"):
            if key not in raw:
                raise DealError(_("{field} is missing").format(field=key), deal=number, field=key)

        bids = self._per_seat(raw["bids"], number, "bids")
        parsed_bids = tuple(self._parse_bid(bid, number, seat, names)
                            for seat, bid in enumerate(bids))
        tricks = tuple(
            check_count(value, deal=number, field="tricks", seat=seat,
                        name=_who(names, seat), high=self.tricks)
            for seat, value in enumerate(self._per_seat(raw["tricks"], number, "tricks")))
        bugs = tuple(
            check_count(value, deal=number, field="bugs", seat=seat,
                        name=_who(names, seat), high=self.suit_size)
            for seat, value in enumerate(self._per_seat(raw["bugs"], number, "bugs")))

        turnip = None
        if not self.has_turnip:
            if "turnip" in raw:
                raise DealError(_("{game} has no turnip").format(game=self.title),
                                deal=number, field="turnip")
        elif raw.get("turnip") is not None:
            turnip = raw["turnip"]
            if turnip not in SUITS:
                raise DealError(_("the turnip's suit must be one of {suits}, not {value!r}").format(
                    suits=", ".join(SUITS), value=turnip), deal=number, field="turnip")

        last_trick = raw.get("last_trick")
        if last_trick is not None:
            last_trick = check_count(last_trick, deal=number, field="last_trick",
                                     high=self.seats - 1)
        return TrigamiDeal(bids=parsed_bids, tricks=tricks, bugs=bugs,
                           turnip=turnip, last_trick=last_trick)

    def _per_seat(self, value: Any, number: int, field: str) -> list[Any]:
        if not isinstance(value, list) or len(value) != self.seats:
            raise DealError(_("{field} must be a list of {seats} entries, one per player").format(
                field=field, seats=self.seats), deal=number, field=field)
        return value

    def _parse_bid(self, raw: Any, number: int, seat: int,
                   names: Sequence[str] | None) -> Bid:
        """One bid object → :class:`Bid` (SCORING.md §1.1, §1.5)."""
        who = _who(names, seat)

        def error(message: str) -> DealError:
            return DealError(message, deal=number, seat=seat, field="bids")

        if not isinstance(raw, Mapping):
            raise error(_('{who}: a bid must be an object like {{"kind": "plain", "suit": "H"}}, '
                          "not {value!r}").format(who=who, value=raw))
        kind = raw.get("kind")
        if kind not in BID_KINDS:
            raise error(_("{who}: the bid must be plain, turnip or doublets, not {value!r}").format(
                who=who, value=kind))
        if kind != PLAIN and not self.special_bids:
            # the bid and the game named in the reader's words (tester 39: "pelissä Plain Bugami
            # for three … ei tarjousta turnip")
            raise error((_("{who}: {game} has only plain bids, no Turnip") if kind == TURNIP else
                         _("{who}: {game} has only plain bids, no Doublets")).format(who=who, game=self.shown_title))
        suit = raw.get("suit")
        if suit is None:
            if kind != TURNIP:
                raise error((_("{who}: a plain bid needs a suit") if kind == PLAIN else
                             _("{who}: a Doublets bid needs a suit")).format(who=who))
        elif suit not in SUITS:
            raise error(_("{who}: the bid's suit must be one of {suits}, not {value!r}").format(
                who=who, suits=", ".join(SUITS), value=suit))
        return Bid(kind=kind, suit=suit)

    # --- consistency ---------------------------------------------------------------

    def deal_problems(self, raw: Any, number: int, players: Sequence[str]) -> list[RuleError]:
        """Every problem of deal entry ``raw`` (deal ``number``, 1-based) that a player can
        put right at once, each beside its field: a malformed entry's one problem; else
        each of the first checks of SCORING.md §1.3 that fails on its own (a Turnip bid
        without the turnip's suit, the tricks' sum, bugs without tricks, the last trick
        without tricks), all of them; else the first of the checks that build on those,
        if any. [] for a deal that fits. What :meth:`check_deal` raises first is always
        first here (so `scorekeeper score` says the same)."""
        names = shown_names(players)
        try:
            deal = self._parse(raw, number, names)
        except RuleError as error:
            return [error]
        found = self._first_problems(deal, number, names)
        if found:
            return list(found)
        try:
            self.check_deal(deal, number, names)
        except RuleError as error:
            return [error]
        return []

    def _first_problems(self, deal: TrigamiDeal, number: int, names: Sequence[str]) -> list[DealError]:
        """The checks of SCORING.md §1.3 that stand alone, every one that fails, in
        :meth:`check_deal`'s order (its first problems)."""
        symbol = SUIT_SYMBOLS.get
        found: list[DealError] = []

        def error(message: str, field: str | None, seat: int | None = None) -> None:
            found.append(DealError(message, deal=number, seat=seat, field=field))

        # A Turnip bid's bug suit is the turnip's: it must be known, and a suit given
        # with the bid must agree (§1.3).
        for seat, bid in enumerate(deal.bids):
            if bid.kind != TURNIP:
                continue
            if deal.turnip is None:
                error(_("{name} bid Turnip, so the turnip's suit is needed").format(name=names[seat]), "turnip", seat)
            elif bid.suit is not None and bid.suit != deal.turnip:
                error(_("{name} bid Turnip, so their bug suit is the turnip's {turnip}, "
                        "not {suit}").format(name=names[seat], turnip=symbol(deal.turnip),
                                             suit=symbol(bid.suit)), "bids", seat)

        total = sum(deal.tricks)
        if total != self.tricks:
            error(_("tricks add up to {total}, expected {expected}").format(
                total=total, expected=self.tricks), "tricks")

        for seat in range(self.seats):
            if deal.tricks[seat] == 0 and deal.bugs[seat] > 0:
                bugs = deal.bugs[seat]
                error((_("{name} has 1 bug but won no tricks") if bugs == 1 else
                       _("{name} has {bugs} bugs but won no tricks")).format(
                    name=names[seat], bugs=bugs), "bugs", seat)

        last = deal.last_trick
        if last is not None and deal.tricks[last] == 0:
            error(_("{name} won the last trick but no tricks").format(name=names[last]), "last_trick", last)
        return found

    def check_deal(self, deal: TrigamiDeal, number: int, names: Sequence[str]) -> None:
        """Raise DealError on the first check of SCORING.md §1.3 that ``deal`` fails.

        ``names`` are the players by seat; every message names the player concerned.
        The field is "bids", "turnip", "tricks", "bugs" or "last_trick"; the seat is None
        where the problem concerns several players.
        """
        names = shown_names(names)
        # A deal built directly (not by parse_deal) gets the same shape checks, which
        # include bugs ≤ 10 (13) and tricks ≤ 13 (17), now with the players' names.
        deal = self._parse(self.dump_deal(deal), number, names)
        seats = range(self.seats)
        size = self.suit_size
        symbol = SUIT_SYMBOLS.get

        def error(message: str, field: str | None, seat: int | None = None) -> DealError:
            return DealError(message, deal=number, seat=seat, field=field)

        first = self._first_problems(deal, number, names)
        if first:
            raise first[0]
        last = deal.last_trick

        bug_suits = [bid.bug_suit(deal.turnip) for bid in deal.bids]
        for seat in seats:
            tricks, bugs = deal.tricks[seat], deal.bugs[seat]
            # The turnip (leftover card) can be among their bugs only if they may have won
            # the last trick and it may be of their bug suit; the leftover card's suit is
            # never recorded, so deal.turnip is None in plain Bugami.
            may_have_turnip = ((last is None or last == seat)
                               and (deal.turnip is None or deal.turnip == bug_suits[seat]))
            most = 3 * tricks + (1 if may_have_turnip else 0)
            if bugs > most:
                if may_have_turnip:
                    message = (_("{name} has {bugs}, but {tricks} and the turnip can hold only "
                                 "{cards} cards") if self.has_turnip else
                               _("{name} has {bugs}, but {tricks} and the leftover card can hold "
                                 "only {cards} cards"))
                else:
                    message = (_("{name} has {bugs}, but {tricks} can hold only {cards} cards "
                                 "and the turnip cannot be one of their bugs")
                               if self.has_turnip else
                               _("{name} has {bugs}, but {tricks} can hold only {cards} cards "
                                 "and the leftover card went to another player"))
                raise error(message.format(name=names[seat], bugs=_bugs(bugs),
                                           tricks=_tricks(tricks), cards=most), "bugs", seat)
            taken = 3 * tricks + (1 if last == seat else 0)
            least = taken - self.outside
            if bugs < least and tricks == self.tricks:
                # not only "at least 9": every trick holds every bug (tester 27: typed 9,
                # the next Save said all 10)
                raise self._all_tricks_error(deal, number, names, seat)
            if bugs < least:
                # (not "at least {least} are bugs": "at least 1 are bugs", tester 56)
                raise error(_("{name} has {bugs}, but took {taken} cards and only {outside} "
                              "are not of their bug suit: their bugs number at least {least}").format(
                    name=names[seat], bugs=_bugs(bugs), taken=taken, outside=self.outside,
                    least=least), "bugs", seat)

        # "So at most one player can exceed 3 bugs per trick" (§1.3): there is one turnip,
        # even when neither its suit nor the last trick's winner is recorded.
        over = [seat for seat in seats if deal.bugs[seat] > 3 * deal.tricks[seat]]
        if len(over) > 1:
            raise error((_("{names} each have more bugs than their tricks hold cards, but "
                           "only one player can take the turnip") if self.has_turnip else
                         _("{names} each have more bugs than their tricks hold cards, but "
                           "only one player can take the leftover card")).format(
                names=and_listed([names[seat] for seat in over])), "bugs")

        for seat in seats:
            if deal.tricks[seat] == self.tricks and deal.bugs[seat] != size:
                raise self._all_tricks_error(deal, number, names, seat)

        winners_of_tricks = {bug_suits[seat] for seat in seats if deal.tricks[seat] > 0}
        for suit in SUITS:
            sharing = [seat for seat in seats if bug_suits[seat] == suit]
            if len(sharing) < 2:
                continue  # one player alone: the checks above
            who = and_listed([names[seat] for seat in sharing])
            bugs = sum(deal.bugs[seat] for seat in sharing)
            if bugs > size:
                raise error(_("{names} share {suit} as bug suit, and their bugs add up to "
                              "{bugs}, but there are only {size}").format(
                    names=who, suit=symbol(suit), bugs=bugs, size=size), "bugs")
            # Every card is in somebody's tricks: if only players with this bug suit won
            # tricks, all of its cards are among their bugs.
            if winners_of_tricks == {suit} and bugs != size:
                raise error(_("{names} share {suit} as bug suit and won every trick between "
                              "them, so their bugs add up to {size}, not {bugs}").format(
                    names=who, suit=symbol(suit), bugs=bugs, size=size), "bugs")

    def _all_tricks_error(self, deal: TrigamiDeal, number: int, names: Sequence[str], seat: int) -> DealError:
        """SCORING.md §1.3: "a player who won all 13 tricks took all 10 of their bug suit"."""
        return DealError(_("{name} won all {tricks} tricks, so took all {size} of their bug suit, "
                           "not {bugs}").format(name=names[seat], tricks=self.tricks, size=self.suit_size,
                                                bugs=deal.bugs[seat]), deal=number, seat=seat, field="bugs")

    # --- points --------------------------------------------------------------------

    def score_deal(self, deal: TrigamiDeal, number: int,
                   names: Sequence[str]) -> tuple[ScoreLine, ...]:
        """Check ``deal`` (:meth:`check_deal`) and score it: one :class:`ScoreLine` per
        seat, its steps told only when read (:class:`TrigamiWhy`).  Source: SCORING.md
        §1.2, in its order of precedence."""
        self.check_deal(deal, number, names)
        every_trick = next((seat for seat in range(self.seats)
                            if deal.tricks[seat] == self.tricks), None)
        why = TrigamiWhy(self, deal, tuple(names), every_trick)
        return tuple(ScoreLine(seat=seat, points=self._points(deal, seat, every_trick), why=why)
                     for seat in range(self.seats))

    @staticmethod
    def _points(deal: TrigamiDeal, seat: int, every_trick: int | None) -> int:
        """``seat``'s points in a checked ``deal``; ``every_trick`` is the seat that won
        every trick (None if nobody did).  Source: SCORING.md §1.2, in its order of
        precedence: 1. every trick 100 (200 after Turnip or Doublets), the others 0;
        2. Doublets 40 a trick (100 with no tricks) without bugs, 0 with any; 3. normal:
        no tricks 50, clean tricks 20 each, else 10 a trick ÷ bugs, the fraction dropped;
        4. Turnip doubles the normal score, after truncating.  :meth:`_tell` works out
        the same in words, only when someone reads them."""
        kind = deal.bids[seat].kind
        if every_trick is not None:
            return 0 if every_trick != seat else 100 if kind == PLAIN else 200
        tricks, bugs = deal.tricks[seat], deal.bugs[seat]
        if kind == DOUBLETS:
            return 0 if bugs else 100 if tricks == 0 else 40 * tricks
        points = 50 if tricks == 0 else 20 * tricks if bugs == 0 else 10 * tricks // bugs
        return 2 * points if kind == TURNIP else points

    def _tell(self, deal: TrigamiDeal, seat: int, names: Sequence[str],
              every_trick: int | None) -> tuple[tuple[str, ...], str, int]:
        """``seat``'s steps in a checked ``deal`` (translated now), their source and the
        points they arrive at (those of :meth:`_points`; a test holds the two together)."""
        bid = deal.bids[seat]
        tricks, bugs = deal.tricks[seat], deal.bugs[seat]
        bug_suit = SUIT_SYMBOLS[str(bid.bug_suit(deal.turnip))]  # known once checked
        steps = [{PLAIN: _("plain bid (bug suit {suit})"),
                  TURNIP: _("bid Turnip (bug suit {suit})"),
                  DOUBLETS: _("bid Doublets (bug suit {suit})")}[bid.kind].format(suit=bug_suit),
                 _("{tricks}, {bugs}").format(tricks=_tricks(tricks), bugs=_bugs(bugs))]

        # 1. Every trick: 100 (200 after Turnip or Doublets), no division; others 0.
        if every_trick == seat:
            if bid.kind == PLAIN:
                points = 100
                steps.append(_("all {tricks} tricks: {points}, no division").format(tricks=self.tricks, points=points))
            else:
                points = 200
                steps.append((_("all {tricks} tricks after a Turnip bid: {points}")
                              if bid.kind == TURNIP else
                              _("all {tricks} tricks after a Doublets bid: {points}")).format(
                    tricks=self.tricks, points=points))
        elif every_trick is not None:
            points = 0
            steps.append(_("{name} won all {tricks} tricks: {points}, whatever the bid").format(
                name=names[every_trick], tricks=self.tricks, points=points))
        # 2. Doublets: 40 a trick (100 with no tricks) without bugs; 0 with any.
        elif bid.kind == DOUBLETS:
            if bugs:
                points = 0
                steps.append(_("Doublets lost with {bugs}: {points}").format(bugs=_bugs(bugs), points=points))
            elif tricks == 0:
                points = 100
                steps.append(_("Doublets kept, no tricks: {points}").format(points=points))
            else:
                points = 40 * tricks
                steps.append(_("Doublets kept, no bugs: {tricks} × {each} = {points}").format(
                    tricks=_tricks_summed(tricks), each=40, points=points))
        # 3. Normal; 4. Turnip doubles the normal score, after truncating.
        else:
            if tricks == 0:
                points = 50
                steps.append(_("no tricks: {points}").format(points=points))
            elif bugs == 0:
                points = 20 * tricks
                steps.append(_("clean tricks, no bugs: {tricks} × {each} = {points}").format(
                    tricks=_tricks_summed(tricks), each=20, points=points))
            else:
                base = 10 * tricks
                points = base // bugs
                steps.append((_("{tricks} × {each} = {base}, ÷ {bugs} = {points}") if base % bugs == 0
                              else _("{tricks} × {each} = {base}, ÷ {bugs} = {points} "
                                     "(fraction dropped)")).format(
                    tricks=_tricks_summed(tricks), each=10, base=base, bugs=_bugs_summed(bugs), points=points))
            if bid.kind == TURNIP:
                points *= 2
                steps.append(_("Turnip doubles: {points}").format(points=points))
        return tuple(steps), self.source, points

    # --- the game ------------------------------------------------------------------

    def score(self, players: Sequence[str], first_dealer: int, options: Options,
              deals: Sequence[TrigamiDeal],
              names_at: Callable[[int], Sequence[str]] | None = None) -> GameScore:
        """Score the deals in order (SCORING.md §1.2–1.4).

        ``players``: 3 names in playing order; ``first_dealer``: the seat dealing deal 1
        (deal i, 0-based, is dealt by (first_dealer + i) % 3: the deal passes to the
        left); ``options``: :class:`Options`.  After each deal, a total at or over the
        target that is the highest and held by one player alone wins; on a tie at the top
        the game goes on.  Raises DealError (deal number, seat, field, the player's name
        in the message) on the first deal that breaks a rule, including any deal after
        the game is over; FormatError on a wrong number of players or dealer seat.
        ``names_at(number)``: who sat at each seat in deal ``number`` when someone took
        over a seat (issue 18, part 3), for the messages and steps of that deal; the
        points stay with the seat.
        """
        names = shown_names(players)
        if len(names) != self.seats:
            raise FormatError(_("{game} needs {seats} players, not {count}").format(
                game=self.title, seats=self.seats, count=len(names)), field="players")
        if (isinstance(first_dealer, bool) or not isinstance(first_dealer, int)
                or not 0 <= first_dealer < self.seats):
            raise FormatError(_("first_dealer must be a seat from 0 to {last}, not {value!r}")
                              .format(last=str(self.seats - 1), value=first_dealer),  # the file's seat numbers: 0–9
                              field="first_dealer")
        totals = [0] * self.seats
        scored: list[DealScore] = []
        winners: tuple[int, ...] = ()
        for index, deal in enumerate(deals):
            number = index + 1
            if winners:
                raise GameOverError(_("the game is already over"), deal=number)
            lines = self.score_deal(deal, number, shown_names(names_at(number)) if names_at else names)
            points = tuple(line.points for line in lines)
            totals = [total + p for total, p in zip(totals, points, strict=True)]
            scored.append(DealScore(number=number, dealer=(first_dealer + index) % self.seats,
                                    points=points, totals=tuple(totals), lines=lines))
            winners = self._winners(totals, options.target)
        finished = bool(winners)
        return GameScore(
            deals=tuple(scored),
            totals=tuple(totals),
            finished=finished,
            winners=winners,
            next_dealer=None if finished else (first_dealer + len(scored)) % self.seats,
            extra={"target": options.target},
        )

    def places(self, score: GameScore, options: Options) -> tuple[int, ...]:
        """Finishing places by totals, highest first; level players share the better
        place (the winner, once there is one, holds the only highest total: SCORING.md
        §1.4)."""
        return places_by_totals(score.totals)

    def sides(self, options: Options) -> tuple[tuple[int, ...], ...]:
        """Every player plays for themselves."""
        return tuple((seat,) for seat in range(self.seats))

    def low_wins(self, options: Options) -> bool:
        """The highest total is best (SCORING.md §1.4)."""
        return False

    @staticmethod
    def _winners(totals: Sequence[int], target: int) -> tuple[int, ...]:
        """The winning seat, if the highest total reaches ``target`` and is held by one
        player alone; () otherwise (SCORING.md §1.4)."""
        top = max(totals)
        leaders = tuple(seat for seat, total in enumerate(totals) if total == top)
        return leaders if top >= target and len(leaders) == 1 else ()


@dataclass(frozen=True)
class TrigamiWhy:
    """What the lines of a scored Trigami (plain Bugami) deal are told from, when they
    are read (a common.Explainer): the ``rules``, the checked ``deal``, the players'
    ``names`` by seat and the seat that won ``every_trick`` (None if nobody did)."""

    rules: TrigamiRules
    deal: TrigamiDeal
    names: tuple[str, ...]
    every_trick: int | None

    def steps(self, seat: int) -> tuple[str, ...]:
        """``seat``'s steps, e.g. ("bid Turnip (bug suit ♦)", "5 tricks, 3 bugs",
        "5 tricks × 10 = 50, ÷ 3 bugs = 16 (fraction dropped)", "Turnip doubles: 32"),
        translated now."""
        return self.tell(seat)[0]

    def source(self, seat: int) -> str:
        """The rule every line of the game follows, e.g. "SCORING.md §1.2;
        rules/trigami.en.txt, Scoring"."""
        return self.rules.source

    def notes(self, seat: int) -> tuple[str, ...]:
        """None: Trigami's readings concern a whole deal or game, not one seat's line
        (explanations.py says them)."""
        return ()

    def tell(self, seat: int) -> tuple[tuple[str, ...], str, int]:
        """``seat``'s steps (translated now), their source and the points they arrive at
        (the line's)."""
        return self.rules._tell(self.deal, seat, self.names, self.every_trick)


TRIGAMI = TrigamiRules(
    kind="trigami",
    title="Trigami",
    tricks=13,
    suit_size=10,
    special_bids=True,
    has_turnip=True,
    source="SCORING.md §1.2; rules/trigami.en.txt, Scoring",
)

BUGAMI3 = TrigamiRules(
    kind="bugami3",
    title="Plain Bugami for three",
    tricks=17,
    suit_size=13,
    special_bids=False,
    has_turnip=False,
    source="SCORING.md §1.2, §1.5; rules/trigami.en.txt, Scoring, Variants: Plain Bugami for three",
)

__all__ = [
    "BID_KINDS", "BUGAMI3", "DEFAULT_TARGET", "DOUBLETS", "PLAIN", "TRIGAMI", "TURNIP",
    "Bid", "Options", "TrigamiDeal", "TrigamiRules", "TrigamiWhy",
]
