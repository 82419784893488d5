"""Checking a score sheet kept on paper: which rows and totals cannot be right.

Someone kept score with a pencil; now the table argues.  They type in each deal's points as
written (Trix: with the contract(s) of each deal), and optionally the running totals they
wrote.  This module says which rows, cells and totals cannot be right under the rules, and
why.  It knows only points, never the cards: a row that passes could still be wrong (the
K♥ written against the wrong player), but a row that is marked cannot be right.

"Cannot be right" means: no deal that the app itself would accept (the checks of SCORING.md
§1.3 and §2.3) gives those points.  So the two always agree: any row the app can score
passes here.

Pure: standard library only, like the rest of rules/.  Points are ints in the sign the
sheet writes them (reversed Trix scoring: penalties are plus points).

Shapes:

- :class:`PaperOptions` — the game and the settings that change what is possible;
- :class:`PaperRow` — one deal as written: ``points`` one ``int | None`` per seat (None is
  a blank cell, read as 0 when the row has any number), ``contracts`` (Trix), ``totals``
  the running totals written under it (``int | None`` per seat, or empty);
- :func:`check_sheet` → :class:`PaperCheck`: one :class:`RowCheck` per row, each with its
  :class:`Mark` s (what is wrong, for which seat and field, and the rule's section).

Source: ../shared/SCORING.md §1.2–1.5 (Trigami, plain Bugami), §2.1–2.5 (Trix).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import gcd

from .common import _, _p, listed, shown_names, signed, together
from .common import number as in_digits  # (check_sheet counts its rows in ``number``)
from .trigami import BUGAMI3, TRIGAMI, TrigamiRules
from .trix import (
    CONTRACTS,
    DIAMONDS,
    KING,
    KING_PENALTY,
    KINGDOMS,
    PARTNERSHIPS,
    QUEEN_PENALTY,
    QUEENS,
    TRICKS,
    TRICKS_PER_DEAL,
    TRIX_CONTRACT,
    TRIX_POINTS,
    VALUES,
    TrixOptions,
    card_label,
    contract_name,
    contract_total,
    winners_of,
)

#: Where each kind of mark comes from.
SOURCE_TRIGAMI = "SCORING.md §1.2, §1.3"
SOURCE_GAME_END = "SCORING.md §1.4"
SOURCE_TRIX_POINTS = "SCORING.md §2.1"
SOURCE_DOUBLING = "SCORING.md §2.1, §2.2"
SOURCE_TRIX_CHECKS = "SCORING.md §2.1, §2.2, §2.3"
SOURCE_KINGDOM = "SCORING.md §2, §2.3"
SOURCE_VARIANTS = "SCORING.md §2.5"
SOURCE_TOTALS_TRIGAMI = "SCORING.md §1.4"  # "scores add up deal by deal"
SOURCE_TOTALS_TRIX = "SCORING.md §2.1"

KINDS: tuple[str, ...] = ("trigami", "bugami3", "trix")

# Marks' fields: which part of a row is wrong.
POINTS = "points"
TOTALS = "totals"
CONTRACTS_FIELD = "contracts"
ROW = "row"
KINGDOM = "kingdom"


# --------------------------------------------------------------------------- shapes


@dataclass(frozen=True)
class PaperOptions:
    """What a paper sheet was kept for.

    ``kind``: "trigami", "bugami3" or "trix".  Trigami and plain Bugami: ``target``, the
    total that wins (SCORING.md §1.4).  Trix (§2.2, §2.5): ``doubling`` (the K♥ and queens
    may be doubled), ``values`` ("standard", or "swapped": diamonds −15, tricks −10),
    ``reversed`` (every sign flipped, lowest total wins), ``complex`` (Trix Complex: several
    penalty contracts in one deal), ``partnership`` (None, or partners opposite, seats 0+2
    against 1+3: "sum", the higher team total wins, or "worst-loses"; who won only).
    Raises ValueError on an unknown kind, values or partnership.
    """

    kind: str = "trigami"
    target: int = 500
    doubling: bool = True
    values: str = "standard"
    reversed: bool = False
    complex: bool = False
    partnership: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown game {self.kind!r}")
        if self.values not in VALUES:
            raise ValueError(f"unknown values {self.values!r}")
        if self.partnership not in (None, *PARTNERSHIPS):
            raise ValueError(f"unknown partnership {self.partnership!r}")

    @property
    def seats(self) -> int:
        return 4 if self.kind == "trix" else 3


@dataclass(frozen=True)
class PaperRow:
    """One deal as written on paper.

    ``points``: one int or None (a blank cell) per seat, in playing order.  ``contracts``:
    Trix only, the contract keys of the deal ("king", "queens", "diamonds", "tricks",
    "trix"; several in Trix Complex).  ``totals``: the running totals written after this
    deal, one int or None (not written) per seat; empty when none were written.
    """

    points: tuple[int | None, ...]
    contracts: tuple[str, ...] = ()
    totals: tuple[int | None, ...] = ()

    @property
    def filled(self) -> bool:
        """Whether any points were written (a row of blank points is not a deal)."""
        return any(p is not None for p in self.points)

    @property
    def empty(self) -> bool:
        """Nothing at all in the row: no points, no contract, no total."""
        return not self.filled and not self.contracts and not any(t is not None for t in self.totals)


@dataclass(frozen=True)
class Mark:
    """Something on the sheet that cannot be right.

    ``message``: the card player's sentence, naming the player concerned; ``seat``: the
    player's cell (None for the whole row); ``field``: "points", "totals", "contracts",
    "row" (the deal as a whole) or "kingdom" (a kingdom's Σ = 0 check); ``source``: the
    rule's section, e.g. "SCORING.md §2.1".
    """

    message: str
    seat: int | None = None
    field: str = POINTS
    source: str = ""


@dataclass(frozen=True)
class KingdomSum:
    """A Trix kingdom closed on the sheet: the paper players' check (SCORING.md §2.1).

    ``number`` is 1-based; ``rows`` the 1-based row numbers in it; ``total`` the sum of all
    points written in its deals (0 when all is well); ``written`` the sum of the four
    running totals written after its last deal (None unless all four were written).
    """

    number: int
    rows: tuple[int, ...]
    total: int
    written: int | None

    @property
    def ok(self) -> bool:
        return self.total == 0 and self.written in (None, 0)


@dataclass(frozen=True)
class RowCheck:
    """One row of the sheet, checked.

    ``number``: 1-based row number (the deal's number when every row above is filled);
    ``filled``: whether it holds a deal (rows of blank points are skipped); ``points``:
    the points as read (blanks as 0), one int per seat; ``running``: the running totals
    from the points as written, one int per seat; ``marks``: what cannot be right;
    Trix: ``kingdom`` (1-based, None past the fourth) and ``kingdom_sum`` on the row that
    closes a kingdom.
    """

    number: int
    filled: bool
    points: tuple[int, ...]
    running: tuple[int, ...]
    marks: tuple[Mark, ...] = ()
    kingdom: int | None = None
    kingdom_sum: KingdomSum | None = None

    @property
    def ok(self) -> bool:
        return not self.marks

    def marks_for(self, field: str, seat: int | None = None) -> tuple[Mark, ...]:
        """The marks on one cell (``field`` and ``seat``) or, with seat None, on the row."""
        return tuple(m for m in self.marks if m.field == field and m.seat == seat)


@dataclass(frozen=True)
class PaperCheck:
    """A whole paper sheet, checked.

    ``rows``: one :class:`RowCheck` per row given; ``totals``: the final totals from the
    points as written; ``finished``: whether the sheet reaches the game's end (Trigami: a
    player alone on top at or over the target; Trix: four kingdoms); ``winners``: the
    winning seats then (every tied seat on a shared Trix win).
    """

    rows: tuple[RowCheck, ...]
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]

    @property
    def marks(self) -> tuple[Mark, ...]:
        return tuple(m for row in self.rows for m in row.marks)

    @property
    def deals(self) -> int:
        """How many rows hold a deal."""
        return sum(1 for row in self.rows if row.filled)


# --------------------------------------------------------------------------- Trigami


def _trigami_rules(kind: str) -> TrigamiRules:
    return BUGAMI3 if kind == "bugami3" else TRIGAMI


def _normal(tricks: int, bugs: int) -> int:
    """A plain bid's points (SCORING.md §1.2, 3.): no tricks 50; clean tricks 20 each;
    otherwise 10 per trick divided by the bugs, the fraction dropped."""
    if tricks == 0:
        return 50
    if bugs == 0:
        return 20 * tricks
    return 10 * tricks // bugs


def _bid_points(kind: str, tricks: int, bugs: int) -> int:
    """Points of one bid, short of every trick (SCORING.md §1.2, 2.–4.)."""
    if kind == "doublets":
        if bugs:
            return 0
        return 100 if tricks == 0 else 40 * tricks
    points = _normal(tricks, bugs)
    return 2 * points if kind == "turnip" else points


@lru_cache(maxsize=4)
def _trigami_counts(kind: str) -> dict[int, tuple[tuple[str, int, int], ...]]:
    """Every (bid kind, tricks, bugs) one player can have, short of winning every trick,
    grouped by the points it scores.

    A player's counts must fit SCORING.md §1.3 on their own: no tricks → no bugs; bugs ≤
    the suit's cards and ≤ 3 per trick + the turnip (leftover card); bugs ≥ the cards in
    3 per trick beyond those outside their bug suit (30 in Trigami, 39 in plain Bugami).
    """
    rules = _trigami_rules(kind)
    kinds = ("plain", "turnip", "doublets") if rules.special_bids else ("plain",)
    out: dict[int, list[tuple[str, int, int]]] = {}
    for tricks in range(rules.tricks):  # all the tricks is "every trick", below
        for bugs in range(rules.suit_size + 1):
            if tricks == 0 and bugs:
                continue
            if bugs > 3 * tricks + 1 or bugs < 3 * tricks - rules.outside:
                continue
            for bid in kinds:
                out.setdefault(_bid_points(bid, tricks, bugs), []).append((bid, tricks, bugs))
    return {points: tuple(ways) for points, ways in out.items()}


@lru_cache(maxsize=4)
def trigami_values(kind: str = "trigami") -> frozenset[int]:
    """Every score one player can get in one deal: the set of SCORING.md §1.2 values.

    ``kind``: "trigami" (13 tricks, suits of 10, Turnip and Doublets bids) or "bugami3"
    (17 tricks, suits of 13, plain bids only, §1.5).  Plain bids give 50 for no tricks,
    20 a clean trick, else ⌊10·tricks ÷ bugs⌋; Turnip doubles that; Doublets 40 a clean
    trick, 100 with none, 0 with bugs; every trick 100 (200 after Turnip or Doublets) and
    0 for the others.  E.g. 13 (4 tricks, 3 bugs) and 32 (Turnip, 5 tricks, 3 bugs) are in
    it; 1 is not (⌊10·t ÷ b⌋ < 2 needs b > 5t, but b ≤ 3t + 1).
    """
    rules = _trigami_rules(kind)
    values = set(_trigami_counts(kind))
    values.update({0, 100})
    if rules.special_bids:
        values.add(200)
    return frozenset(values)


def _nearest(value: int, values: frozenset[int]) -> tuple[int | None, int | None]:
    below = max((v for v in values if v < value), default=None)
    above = min((v for v in values if v > value), default=None)
    return below, above


def _trigami_together(points: Sequence[int], kind: str) -> bool:
    """Whether one deal gives these three scores together (SCORING.md §1.2, §1.3).

    Either one player won every trick (100, or 200 after Turnip or Doublets; the others 0),
    or some counts per player score these points with the tricks adding up to 13 (17),
    at most one player holding more bugs than 3 per trick (the turnip or leftover card is
    theirs), and players who share the turnip's suit as bug suit (every Turnip bidder, and
    whoever holds the turnip as a bug) holding at most the suit's cards between them — all
    of them when only they won tricks.  Other bids' suits are free, so they need not share.
    """
    rules = _trigami_rules(kind)
    special = (100, 200) if rules.special_bids else (100,)
    for seat, value in enumerate(points):
        if value in special and all(p == 0 for s, p in enumerate(points) if s != seat):
            return True
    counts = _trigami_counts(kind)
    ways = [counts.get(p, ()) for p in points]
    if not all(ways):
        return False
    last_by_tricks: dict[int, list[tuple[str, int, int]]] = {}
    for way in ways[2]:
        last_by_tricks.setdefault(way[1], []).append(way)
    for first in ways[0]:
        for second in ways[1]:
            rest = rules.tricks - first[1] - second[1]
            for third in last_by_tricks.get(rest, ()):
                if _counts_fit((first, second, third), rules):
                    return True
    return False


def _counts_fit(ways: Sequence[tuple[str, int, int]], rules: TrigamiRules) -> bool:
    """The cross-player checks of SCORING.md §1.3 for one choice of counts."""
    over = [seat for seat, (_bid, tricks, bugs) in enumerate(ways) if bugs > 3 * tricks]
    if len(over) > 1:
        return False  # one turnip (leftover card)
    group = {seat for seat, (bid, _t, _b) in enumerate(ways) if bid == "turnip"}
    if over and group:
        group.add(over[0])  # holding the turnip as a bug: their bug suit is the turnip's
    if len(group) >= 2:
        bugs = sum(ways[seat][2] for seat in group)
        if bugs > rules.suit_size:
            return False
        winners = {seat for seat, (_bid, tricks, _b) in enumerate(ways) if tricks}
        if winners <= group and bugs != rules.suit_size:
            return False
    return True


def check_trigami_row(points: Sequence[int], kind: str = "trigami",
                      names: Sequence[str] | None = None) -> tuple[Mark, ...]:
    """What cannot be right in one Trigami (or plain Bugami) row of three scores.

    ``points``: one int per seat.  First each score on its own (never negative; one of
    :func:`trigami_values`, else the nearest possible ones are named); when each is
    possible, whether one deal gives all three together.  Returns marks with seat and
    field "points", or one with field "row".  Source: SCORING.md §1.2, §1.3 (§1.5).
    """
    names = _names(names, len(points))
    values = trigami_values(kind)
    marks = []
    for seat, value in enumerate(points):
        if value < 0:
            marks.append(Mark(_("{name}: {value}: a Trigami score is never below {zero}").format(
                name=names[seat], value=signed(value), zero=0), seat, POINTS, SOURCE_TRIGAMI))
        elif value not in values:
            below, above = _nearest(value, values)
            if above is None:
                message = _("{name}: {value} is more than one deal can score (at most {most})")
                marks.append(Mark(message.format(name=names[seat], value=value, most=below),
                                  seat, POINTS, SOURCE_TRIGAMI))
            else:
                message = _("{name}: no counts give {value}; the nearest possible scores are "
                            "{below} and {above}")
                marks.append(Mark(message.format(name=names[seat], value=value, below=below,
                                                 above=above), seat, POINTS, SOURCE_TRIGAMI))
    if marks:
        return tuple(marks)
    if not _trigami_together(points, kind):
        tricks = _trigami_rules(kind).tricks
        return (Mark(_("Each score is possible, but not all three in one deal: no counts "
                       "that give them have tricks adding up to {tricks} and bugs that fit "
                       "the cards").format(tricks=tricks), None, ROW, SOURCE_TRIGAMI),)
    return ()


# --------------------------------------------------------------------------- Trix


def _names(names: Sequence[str] | None, seats: int) -> list[str]:
    if names and len(names) == seats:
        return list(shown_names(names))
    return [_("Player {n}").format(n=seat + 1) for seat in range(seats)]


def _contracts_label(contracts: Sequence[str]) -> str:
    return " + ".join(contract_name(c) for c in contracts)


def contracts_total(contracts: Sequence[str], options: PaperOptions) -> int:
    """What the contracts of one deal hand out in all, in the sheet's sign: −75, −100,
    −130, −195, +500 each (diamonds and tricks swap with swapped values; every sign flips
    under reversed scoring).  Source: SCORING.md §2.1, §2.5."""
    total = sum(contract_total(c, options.values) for c in contracts)
    return -total if options.reversed else total


def _trix_player_marks(value: int, contract: str, options: PaperOptions,
                       name: str) -> str | None:
    """Why one player's points cannot come from one contract, or None.  ``value`` is in
    standard sign; the message shows the sheet's sign."""
    sign = -1 if options.reversed else 1
    shown = signed(sign * value)
    if contract == TRIX_CONTRACT:
        if value not in TRIX_POINTS:
            return _("{name}: {value}: the Trix places score {places}").format(
                name=name, value=shown, places=listed(signed(sign * p) for p in TRIX_POINTS))
        return None
    if contract == KING:
        allowed = (0, -KING_PENALTY) + ((-2 * KING_PENALTY, KING_PENALTY) if options.doubling else ())
        if value in allowed:
            return None
        if options.doubling:
            return _("{name}: {value}: in King of Hearts a player scores {zero} or {one}; when the "
                     "{king} is doubled, {two} for taking it or {half} for the doubler (or the "
                     "trick's leader)").format(
                name=name, value=shown, zero=signed(0), king=card_label("K", "H"), one=signed(sign * -KING_PENALTY),
                two=signed(sign * -2 * KING_PENALTY), half=signed(sign * KING_PENALTY))
        return _("{name}: {value}: without doubling, King of Hearts scores {zero} or {one}").format(
            name=name, value=shown, zero=signed(0), one=signed(sign * -KING_PENALTY))
    if contract == QUEENS:
        low = -2 * QUEEN_PENALTY * 4 if options.doubling else -QUEEN_PENALTY * 4
        high = QUEEN_PENALTY * 4 if options.doubling else 0
        if value % QUEEN_PENALTY:
            return _("{name}: {value} is not a multiple of {queen} (each queen {each})").format(
                name=name, value=shown, queen=QUEEN_PENALTY, each=signed(sign * -QUEEN_PENALTY))
        if not low <= value <= high:
            return _("{name}: {value}: the four queens give one player between {low} and "
                     "{high}").format(name=name, value=shown,
                                      low=signed(min(sign * low, sign * high)),
                                      high=signed(max(sign * low, sign * high)))
        return None
    each = VALUES[options.values][contract]
    what = _p("counted", "diamonds") if contract == DIAMONDS else _p("counted", "tricks")
    if value > 0:
        return (_("{name}: {value}: in {contract} nobody scores minus points (reversed "
                  "scoring)") if options.reversed else
                _("{name}: {value}: in {contract} nobody scores plus points")).format(
            name=name, value=shown, contract=contract_name(contract))
    if value % each:
        return _("{name}: {value} is not a whole number of {what} at {each} each").format(
            name=name, value=shown, what=what, each=signed(sign * -each))
    if -value // each > TRICKS_PER_DEAL:
        return _("{name}: {value} would be more than {n} {what}").format(
            name=name, value=shown, n=TRICKS_PER_DEAL, what=what)
    return None


def check_trix_row(points: Sequence[int], contracts: Sequence[str], options: PaperOptions,
                   names: Sequence[str] | None = None) -> tuple[Mark, ...]:
    """What cannot be right in one Trix row: four points (sheet's sign) for ``contracts``.

    In order: the contracts themselves (one a deal unless Trix Complex, Trix never
    combined, §2.5); the row's sum (each contract hands out a fixed total, §2.1); each
    player's points on their own (multiples of the contract's unit, within its range);
    then whether some deal gives all four together — cards taken once each, doubling as
    §2.2 allows (a doubled card −2× to its taker and +1× to the doubler or the trick's
    leader, or −1× alone when the doubler led it and took it back), and in Trix Complex
    the checks of §2.3 (a card's taker won a trick, the Q♦ is a diamond, at most 4 penalty
    cards a trick).  Returns marks with field "contracts", "row" or "points" (with seat).
    """
    names = _names(names, len(points))
    contracts = tuple(c for c in CONTRACTS if c in contracts)  # the rules' order
    if not contracts:
        return (Mark(_("Which contract was this deal?"), None, CONTRACTS_FIELD, SOURCE_TRIX_POINTS),)
    if len(contracts) > 1:
        if TRIX_CONTRACT in contracts:
            return (Mark(_("{contracts}: Trix is never combined with another contract").format(
                contracts=_contracts_label(contracts)), None, CONTRACTS_FIELD, SOURCE_VARIANTS),)
        if not options.complex:
            return (Mark(_("{contracts} in one deal: only Trix Complex plays several contracts "
                           "at once").format(contracts=_contracts_label(contracts)),
                         None, CONTRACTS_FIELD, SOURCE_VARIANTS),)
    sign = -1 if options.reversed else 1
    standard = [sign * p for p in points]
    marks: list[Mark] = []
    expected = contracts_total(contracts, options)
    total = sum(points)
    if total != expected:
        marks.append(Mark(_("{contracts}: {expected} in all, but this row adds up to "
                            "{total}").format(contracts=_contracts_label(contracts),
                                              expected=signed(expected), total=signed(total)),
                          None, ROW, SOURCE_TRIX_POINTS))
    if len(contracts) == 1:
        for seat, value in enumerate(standard):
            why = _trix_player_marks(value, contracts[0], options, names[seat])
            if why:
                source = SOURCE_DOUBLING if contracts[0] in (KING, QUEENS) else SOURCE_TRIX_POINTS
                marks.append(Mark(why, seat, POINTS, source))
    else:
        unit = _unit(contracts, options)
        for seat, value in enumerate(standard):
            if value % unit:
                marks.append(Mark(_("{name}: {value} is not a multiple of {unit}, so it cannot "
                                    "come from {contracts}").format(
                    name=names[seat], value=signed(points[seat]), unit=unit,
                    contracts=_contracts_label(contracts)), seat, POINTS, SOURCE_TRIX_CHECKS))
            elif not any(True for _way in _player_takings(value, contracts, options.doubling,
                                                          options.values)):
                marks.append(Mark(_("{name}: no cards of {contracts} give one player "
                                    "{value}").format(
                    name=names[seat], value=signed(points[seat]),
                    contracts=_contracts_label(contracts)), seat, POINTS, SOURCE_TRIX_CHECKS))
    if marks:
        return tuple(marks)
    if contracts == (TRIX_CONTRACT,):
        if sorted(standard) != sorted(TRIX_POINTS):
            return (Mark(_("Each Trix place scores once: {places}").format(
                places=listed(signed(sign * p) for p in TRIX_POINTS)), None, ROW,
                SOURCE_TRIX_POINTS),)
        return ()
    if not _penalties_possible(tuple(standard), contracts, options.doubling, options.values):
        if contracts == (KING,):
            message = _("These points do not fit the {king}: one player scores {one}; if it was "
                        "doubled, one player {two} and another {half} (the doubler, or the "
                        "trick's leader when the doubler took it back)").format(
                king=card_label("K", "H"), one=signed(sign * -KING_PENALTY), two=signed(sign * -2 * KING_PENALTY),
                half=signed(sign * KING_PENALTY))
            source = SOURCE_DOUBLING
        elif contracts == (QUEENS,):
            message = (_("These points cannot come from the four queens: each is {one} to "
                         "whoever takes it; a doubled queen {two} to its taker and {half} to "
                         "the doubler (or to the trick's leader when the doubler took it back)")
                       if options.doubling else
                       _("These points cannot come from the four queens: each is {one} to "
                         "whoever takes it")).format(
                one=signed(sign * -QUEEN_PENALTY), two=signed(sign * -2 * QUEEN_PENALTY),
                half=signed(sign * QUEEN_PENALTY))
            source = SOURCE_DOUBLING
        else:
            message = _("No way of taking the cards of {contracts} gives these points together "
                        "(each card is taken once; whoever takes the {king} or a queen wins a "
                        "trick; the {queen} is also a diamond; a trick holds at most {most} penalty "
                        "cards)").format(contracts=_contracts_label(contracts), most=4,
                                         king=card_label("K", "H"), queen=card_label("Q", "D"))
            source = SOURCE_TRIX_CHECKS
        return (Mark(message, None, ROW, source),)
    return ()


def _unit(contracts: Sequence[str], options: PaperOptions) -> int:
    """The greatest common divisor of what the contracts' cards are worth (e.g. 5 for
    Diamonds + Tricks): every player's points in the deal are a multiple of it."""
    units = []
    for contract in contracts:
        if contract == KING:
            units.append(KING_PENALTY)
        elif contract == QUEENS:
            units.append(QUEEN_PENALTY)
        else:
            units.append(VALUES[options.values][contract])
    result = 0
    for unit in units:
        result = gcd(result, unit)
    return result


# What one player took in a deal of penalty contracts (standard sign):
# (took the K♥ for −75, took it doubled for −150, got +75 for it, queens taken plainly or
#  by a doubler who led them (−25 each), doubled queens taken (−50 each), +25 shares,
#  diamonds, tricks, took the Q♦)
_Taken = tuple[int, int, int, int, int, int, int, int, int]


def _player_takings(points: int, contracts: tuple[str, ...], doubling: bool,
                    values: str) -> Iterator[_Taken]:
    """Every way one player can score ``points`` (standard sign) in a deal of these
    penalty contracts, checked on its own against SCORING.md §2.2, §2.3."""
    has_king, has_queens = KING in contracts, QUEENS in contracts
    has_diamonds, has_tricks = DIAMONDS in contracts, TRICKS in contracts
    combined = len(contracts) > 1
    diamond, trick = VALUES[values][DIAMONDS], VALUES[values][TRICKS]
    roles = [(0, 0, 0, 0)]
    if has_king:
        roles.append((1, 0, 0, -KING_PENALTY))
        if doubling:
            roles += [(0, 1, 0, -2 * KING_PENALTY), (0, 0, 1, KING_PENALTY)]
    queens = [(0, 0, 0)]
    if has_queens:
        most = 4 if doubling else 0
        queens = [(plain, doubled, share)
                  for plain in range(5) for doubled in range(min(most, 4 - plain) + 1)
                  for share in range(most + 1)]
    tricks_range = range(TRICKS_PER_DEAL + 1) if has_tricks else range(1)
    for took, took_doubled, king_share, king_points in roles:
        for plain, doubled, share in queens:
            queen_points = -QUEEN_PENALTY * plain - 2 * QUEEN_PENALTY * doubled + QUEEN_PENALTY * share
            for tricks in tricks_range:
                rest = points - king_points - queen_points + trick * tricks
                if has_diamonds:
                    if rest > 0 or rest % diamond or -rest // diamond > TRICKS_PER_DEAL:
                        continue
                    diamonds = -rest // diamond
                elif rest:
                    continue
                else:
                    diamonds = 0
                cards = took + took_doubled + plain + doubled  # K♥ and queens taken
                for queen_of_diamonds in ((0, 1) if has_queens and has_diamonds and plain + doubled else (0,)):
                    if queen_of_diamonds and not diamonds:
                        continue  # the Q♦ is a diamond
                    if has_tricks and cards and not tricks:
                        continue  # a card taken is in a trick won
                    if combined and has_tricks and cards + diamonds - queen_of_diamonds > 4 * tricks:
                        continue  # 4 cards a trick
                    yield (took, took_doubled, king_share, plain, doubled, share, diamonds,
                           tricks, queen_of_diamonds)


# What some players took together: (K♥ −75, K♥ −150, K♥ +75, queens taken, doubled queens
# taken, +25 shares, most of one player's doubled-queen sides, diamonds, tricks, Q♦ taken)
_Together = tuple[int, int, int, int, int, int, int, int, int, int]


def _together(points: Sequence[int], contracts: tuple[str, ...], doubling: bool,
              values: str) -> set[_Together]:
    """Every running count some players can reach together, player by player, keeping
    only counts that stay within the deal (the K♥ once, 4 queens, 13 diamonds, 13 tricks,
    the Q♦ once)."""
    states: set[_Together] = {(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)}
    for value in points:
        ways = set(_player_takings(value, contracts, doubling, values))
        following: set[_Together] = set()
        for state in states:
            for way in ways:
                took = state[0] + way[0]
                took_doubled = state[1] + way[1]
                king_share = state[2] + way[2]
                queens = state[3] + way[3] + way[4]
                shares = state[5] + way[5]
                diamonds = state[7] + way[6]
                tricks = state[8] + way[7]
                queen_of_diamonds = state[9] + way[8]
                if (took + took_doubled > 1 or king_share > 1 or queens > 4 or shares > 4
                        or diamonds > TRICKS_PER_DEAL or tricks > TRICKS_PER_DEAL
                        or queen_of_diamonds > 1):
                    continue
                following.add((took, took_doubled, king_share, queens, state[4] + way[4], shares,
                               max(state[6], way[4] + way[5]), diamonds, tricks,
                               queen_of_diamonds))
        states = following
    return states


@lru_cache(maxsize=1024)
def _penalties_possible(points: tuple[int, ...], contracts: tuple[str, ...], doubling: bool,
                        values: str) -> bool:
    """Whether some deal of these penalty contracts gives exactly ``points`` (standard
    sign, one int per seat).

    Every way each player could have scored their points (:func:`_player_takings`),
    combined: the K♥ taken once (−75), or doubled (−150, and +75 to another player); the
    four queens each taken once, as many +25 shares as doubled queens, and — since a share
    never goes to the doubled queen's own taker — no player holding more of the doubled
    queens' two sides than there are doubled queens; 13 diamonds; 13 tricks; the Q♦ taken
    once when Queens and Diamonds are played together.  The first half of the players and
    the second are combined separately, then matched.  Source: SCORING.md §2.1–2.3.
    """
    has_king, has_queens = KING in contracts, QUEENS in contracts
    has_diamonds, has_tricks = DIAMONDS in contracts, TRICKS in contracts
    half = len(points) // 2
    first = _together(points[:half], contracts, doubling, values)
    second: dict[tuple[int, ...], list[tuple[int, int, int]]] = {}
    for state in _together(points[half:], contracts, doubling, values):
        key = (state[0], state[1], state[2], state[3], state[7], state[8], state[9])
        second.setdefault(key, []).append((state[4], state[5], state[6]))
    kings = ((1, 0, 0), (0, 1, 1)) if has_king else ((0, 0, 0),)
    for state in first:
        for king in kings:
            key = (king[0] - state[0], king[1] - state[1], king[2] - state[2],
                   4 - state[3] if has_queens else 0,
                   TRICKS_PER_DEAL - state[7] if has_diamonds else 0,
                   TRICKS_PER_DEAL - state[8] if has_tricks else 0,
                   1 - state[9] if has_queens and has_diamonds else 0)
            for doubled, shares, sides in second.get(key, ()):
                doubled_all = state[4] + doubled
                if state[5] + shares == doubled_all and max(state[6], sides) <= doubled_all:
                    return True
    return False


# --------------------------------------------------------------------------- the sheet


def check_sheet(rows: Sequence[PaperRow], options: PaperOptions,
                names: Sequence[str] | None = None) -> PaperCheck:
    """Check a whole paper sheet, row by row.

    ``rows``: :class:`PaperRow` s in the order played; rows without points are skipped (not
    deals), but marked if they carry a contract or totals.  Blank cells in a row with
    points are 0.  ``names``: the players by seat, for messages (else "Player 1" …).

    Each row's points are checked (:func:`check_trigami_row`, :func:`check_trix_row`);
    Trix rows are grouped in kingdoms — a contract once per kingdom, four kingdoms — and
    each kingdom's points must sum to 0, as must the written totals after it (§2.1; their
    Σ is told only when off by more than the points' slips so far, each marked where it
    was made, not at every kingdom after it).  A
    Trigami deal after a player has won is marked (§1.4).  Each written running total must
    be the true total (the points so far), or the total written above it (or computed, where
    none was written) plus the row's points: a slip is marked once, where it was made, and
    a total below it either carries it down or is right again. Any other is marked with
    the true total, as the sheet's sums show it, unless the point beside it is marked
    (the slip is there).

    Returns a :class:`PaperCheck`.  Source: SCORING.md §1.2–1.5, §2.1–2.5.
    """
    seats = options.seats
    names = _names(names, seats)
    trix = options.kind == "trix"
    totals_source = SOURCE_TOTALS_TRIX if trix else SOURCE_TOTALS_TRIGAMI
    running = [0] * seats
    basis: list[int] = [0] * seats  # what the next written total builds on
    checked: list[RowCheck] = []
    finished_after: int | None = None
    winners: tuple[int, ...] = ()
    kingdom, kingdom_points = 1, 0
    played: list[str] = []
    kingdom_rows: list[int] = []

    for number, row in enumerate(rows, 1):
        if not row.filled:
            unfilled = () if row.empty else (Mark(
                _("Deal {n} has no points: write each player's points (blank is {zero})").format(n=number, zero=0),
                None, ROW, totals_source),)
            checked.append(RowCheck(number, False, (0,) * seats, tuple(running), unfilled))
            continue
        points = tuple(p or 0 for p in row.points[:seats]) + (0,) * (seats - len(row.points))
        marks: list[Mark] = []
        row_kingdom: int | None = None
        closing: KingdomSum | None = None

        if finished_after is not None:
            message = (_("The game was over after deal {n}: four kingdoms had been played")
                       if trix else
                       _("The game was over after deal {n}: {name} had reached {target}")).format(
                n=finished_after, name=together(names[s] for s in winners), target=options.target)
            marks.append(Mark(message, None, ROW, SOURCE_KINGDOM if trix else SOURCE_GAME_END))
        if trix:
            marks.extend(check_trix_row(points, row.contracts, options, names))
            if finished_after is None:
                row_kingdom = kingdom
                again = [c for c in row.contracts if c in played]
                if again:
                    marks.append(Mark(_("{contracts} was already played in kingdom {k}").format(
                        contracts=_contracts_label(again), k=kingdom), None, CONTRACTS_FIELD,
                        SOURCE_KINGDOM))
                played.extend(c for c in row.contracts if c in CONTRACTS and c not in played)
                kingdom_rows.append(number)
                kingdom_points += sum(points)
        else:
            marks.extend(check_trigami_row(points, options.kind, names))

        before = running
        running = [t + p for t, p in zip(running, points, strict=True)]
        carried = [b + p for b, p in zip(basis, points, strict=True)]
        written = tuple(row.totals[:seats]) + (None,) * (seats - len(row.totals[:seats]))
        for seat in range(seats):
            value = written[seat]
            # a point marked as impossible already holds the slip: the total written beside
            # it is not blamed too (tester 35: 99 marked, then "200 + 99 = 299, not 280")
            point_marked = any(m.seat == seat and m.field == POINTS for m in marks)
            if value is not None and value not in (running[seat], carried[seat]) and not point_marked:
                marks.append(Mark(_("{name}: the total should be {before} {sign} {points} = "
                                    "{expected}, not {value}").format(
                    name=names[seat], before=in_digits(before[seat]),
                    sign="−" if points[seat] < 0 else "+", points=in_digits(abs(points[seat])),
                    expected=in_digits(running[seat]), value=in_digits(value)),
                    seat, TOTALS, totals_source))
            basis[seat] = carried[seat] if value is None else value

        if trix and finished_after is None and len(played) == len(CONTRACTS):
            written_sum = (sum(v for v in written if v is not None)
                           if all(v is not None for v in written) else None)
            closing = KingdomSum(kingdom, tuple(kingdom_rows), kingdom_points, written_sum)
            if closing.total:
                marks.append(Mark(_("Kingdom {k}: its deals add up to {total}, not {zero}").format(
                    k=kingdom, total=signed(closing.total), zero=0), None, KINGDOM, SOURCE_TRIX_POINTS))
            # The written totals' Σ is off by every slip in the points so far (marked where
            # each was made: its row, its kingdom) and by the totals' own: only theirs is
            # said here, not an earlier kingdom's slip again at every kingdom after it
            # (tester 35: one Queens row marked at deals 2, 5, 10 and 20)
            if closing.written is not None and closing.written != sum(running):
                marks.append(Mark(_("Kingdom {k}: the written totals add up to {total}, not "
                                    "{zero}").format(k=kingdom, total=signed(closing.written), zero=0),
                                  None, KINGDOM, SOURCE_TRIX_POINTS))
            kingdom, played, kingdom_rows, kingdom_points = kingdom + 1, [], [], 0
            if kingdom > KINGDOMS:
                finished_after = number
                # alone: the best total; partners: their team (tester 35: a partners' sheet
                # named Dan alone where the game of it had Ben and Dan win)
                winners = winners_of(running, TrixOptions(scoring="reversed" if options.reversed else "standard",
                                                          partnership=options.partnership))
        elif not trix and finished_after is None:
            top = max(running)
            leaders = tuple(s for s in range(seats) if running[s] == top)
            if top >= options.target and len(leaders) == 1:
                finished_after, winners = number, leaders

        checked.append(RowCheck(number, True, points, tuple(running), tuple(marks),
                                row_kingdom, closing))

    return PaperCheck(tuple(checked), tuple(running), finished_after is not None, winners)


__all__ = [
    "KINDS", "KingdomSum", "Mark", "PaperCheck", "PaperOptions", "PaperRow", "RowCheck",
    "check_sheet", "check_trigami_row", "check_trix_row", "contracts_total", "trigami_values",
]
