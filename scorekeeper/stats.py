"""Past games and each player's statistics across games, computed from the deal entries.

No Flask and no database here: the functions take :class:`~scorekeeper.records.StoredGame`
objects (read through store's functions, which decide what counts as a stored deal) and
each game's player ids by seat (``store.player_seats``), score every game through its game
file with :func:`scorekeeper.sheet.build`, and count. Points are never stored, so a rules
fix corrects the statistics too. A game whose stored deals no longer fit the rules counts
up to the deal before the problem, as its score sheet shows it.

Every figure carries the ids of the games it comes from (:class:`Figure`), so a page can
link each number to those games (the games list's ``?player=…&figure=…`` filter).

Reversed Trix scoring (SCORING.md §2.5) makes every deal the exact negation of standard
scoring and the lowest total win. Figures that add or compare points (points per deal,
best and worst deal, contract averages) count such a game's points with the sign turned
back, so that higher is better everywhere and the games compare like with like; totals in
head-to-head records are compared the game's own way round.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .records import StoredGame
from .rules import KINDS
from .rules import trix as trix_rules
from .rules.common import SUIT_SYMBOLS, DealScore, _
from .rules.trigami import DOUBLETS, PLAIN, TURNIP
from .sheet import Sheet, build
from .text import isolate

# --------------------------------------------------------------------------- games


@dataclass(frozen=True)
class SeatedGame:
    """A stored game, scored, with who sat where.

    ``player_ids``: one players-table id per seat, in playing order (``store.player_seats``);
    ``sheet``: the game scored as its score sheet shows it (``sheet.build``).
    """

    game: StoredGame
    player_ids: tuple[int, ...]
    sheet: Sheet

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def kind(self) -> str:
        return self.game.kind

    @property
    def finished(self) -> bool:
        return self.sheet.finished

    @property
    def reversed(self) -> bool:
        """Whether the lowest total wins (Trix, reversed scoring: SCORING.md §2.5)."""
        return self.sheet.reversed

    @property
    def scored(self) -> tuple[tuple[DealScore, Any], ...]:
        """Each scored deal with its parsed deal (TrigamiDeal or TrixDeal), in order;
        only the deals before a problem when a stored deal breaks a rule."""
        score, file = self.sheet.score, self.sheet.file
        if score is None or file is None:
            return ()
        return tuple(zip(score.deals, file.deals, strict=False))

    @property
    def totals(self) -> tuple[int, ...]:
        """The totals after the last scored deal (zeros before the first)."""
        if self.sheet.score is None:
            return (0,) * len(self.game.players)
        return self.sheet.score.totals

    def seat_of(self, player_id: int) -> int | None:
        """The seat player ``player_id`` sat at last (at the end, or when they left), or
        None if they did not sit in the game."""
        for ids in (self.ids_at(n) for n in range(self.last_number, 0, -1)):
            if player_id in ids:
                return ids.index(player_id)
        return None

    @property
    def last_number(self) -> int:
        """The number of the game's last deal (1 before any): who sat then sat at the end."""
        return max(1, len(self.game.deals))

    def ids_at(self, number: int) -> tuple[int | None, ...]:
        """The player ids by seat in deal ``number`` (1-based): who sat at the start, with
        every seat change from that deal or before (issue 18, part 3)."""
        ids: list[int | None] = list(self.player_ids)
        for change in self.game.seat_changes:
            if change.seat < len(ids) and self.game.from_deal(change) <= number:
                ids[change.seat] = change.player_id
        return tuple(ids)

    @property
    def everyone(self) -> tuple[int, ...]:
        """Every player who sat in the game (at its start or by taking over a seat), in
        the order they sat down."""
        ids = [*self.player_ids, *(c.player_id for c in self.game.seat_changes)]
        return tuple(dict.fromkeys(pid for pid in ids if pid is not None))

    @property
    def at_end(self) -> tuple[int | None, ...]:
        """The player ids by seat in the last deal: whose the seats' results are (the win
        goes with the seat to whoever sat there at the end)."""
        return self.ids_at(self.last_number)

    def played_by(self, player_id: int) -> tuple[tuple[DealScore, Any, int], ...]:
        """The scored deals player ``player_id`` played, each with its parsed deal and
        their seat in it: only the deals they sat in (issue 18, part 3)."""
        out = []
        for deal_score, deal in self.scored:
            ids = self.ids_at(deal_score.number)
            if player_id in ids:
                out.append((deal_score, deal, ids.index(player_id)))
        return tuple(out)

    def won_by(self, seat: int) -> bool:
        """Whether ``seat`` won (alone, shared or with a partner) a finished game."""
        return self.finished and self.sheet.score is not None and seat in self.sheet.score.winners


def seat_games(games: Iterable[StoredGame], seats: Mapping[str, Sequence[int]]) -> list[SeatedGame]:
    """Score each game (``sheet.build``) and attach its player ids.

    ``games``: as ``store.list_games`` returns them (newest first; the order is kept);
    ``seats``: ``store.player_seats``, {game id: player ids by seat}.
    """
    return [SeatedGame(game, tuple(seats.get(game.id, ())), build(game)) for game in games]


# --------------------------------------------------------------------------- figures


@dataclass(frozen=True)
class Figure:
    """One number on a player's page, and the games it comes from.

    ``key``: a stable name, used in links (``?figure=<key>``), e.g. "won",
    "trigami.doublets.made", "trix.king.caught", "vs.7.ahead". ``label``: what it counts
    (translated). ``value``: a count (int) or an average (float; None when there is
    nothing to average). ``of``: for a count, how many chances there were ("2 of 5
    deals"); for an average, how many things it is taken over; None when it says nothing.
    ``average``: whether ``value`` is an average. ``games``: how many games it comes
    from; ``game_ids``: their ids, newest first, when counted from the games themselves
    (:func:`player_stats`), None when read from the totals kept on write (the games list
    finds them by ``key``: summaries.find). ``per``: what ``of`` counts: "deals",
    "finished" (finished games), "doublets" (Doublets bids) or "turnips" (Turnip bids).
    ``detail``: a count worth showing only when it is not 0 (K♥ doubled and caught,
    every trick taken, …).
    """

    key: str
    label: str
    value: int | float | None
    games: int
    of: int | None = None
    average: bool = False
    per: str = "deals"
    detail: bool = False
    game_ids: tuple[str, ...] | None = None


@dataclass
class _Tally:
    """A figure while it is being counted: ``count`` things (or ``total`` of values to
    average) over ``of`` chances, from ``games`` (ids, oldest first) or, when only the
    number is known, ``game_count`` games."""

    key: str
    label: str
    average: bool = False
    with_of: bool = False
    per: str = "deals"
    detail: bool = False
    count: int = 0
    total: int = 0
    of: int = 0
    games: dict[str, None] = field(default_factory=dict)
    game_count: int | None = None

    def add(self, game_id: str, value: int = 1) -> None:
        """One more thing (or one more value to average), from game ``game_id``."""
        self.count += 1
        self.total += value
        self.games[game_id] = None

    def chance(self) -> None:
        """One more chance for an "x of n" figure (the thing may or may not happen)."""
        self.of += 1

    def figure(self) -> Figure:
        known = self.game_count is None
        count = len(self.games) if known else self.game_count or 0
        ids = tuple(reversed(self.games)) if known else None  # counted oldest first, listed newest first
        if self.average:
            value: int | float | None = self.total / self.count if self.count else None
            return Figure(self.key, self.label, value, count, self.count, True, self.per, game_ids=ids)
        return Figure(self.key, self.label, self.count, count, self.of if self.with_of else None,
                      per=self.per, detail=self.detail, game_ids=ids)


class _Tallies:
    """Tallies by key; the first call with a key sets its label and kind."""

    def __init__(self) -> None:
        self._all: dict[str, _Tally] = {}

    def __call__(self, key: str, label: str = "", *, average: bool = False,
                 with_of: bool = False, per: str = "deals", detail: bool = False) -> _Tally:
        if key not in self._all:
            self._all[key] = _Tally(key, label, average=average, with_of=with_of, per=per,
                                    detail=detail)
        return self._all[key]

    def __iter__(self) -> Iterator[_Tally]:
        return iter(self._all.values())

    def get(self, key: str) -> _Tally | None:
        return self._all.get(key)

    def figures(self, *keys: str) -> tuple[Figure, ...]:
        """The figures called ``keys`` that were counted, in that order."""
        return tuple(self._all[key].figure() for key in keys if key in self._all)


@dataclass(frozen=True)
class DealRef:
    """One deal of one game, for "best deal" and "worst deal": ``game_id``, ``number``
    (1-based, as on the score sheet), the player's ``points`` in it (as scored), the game's
    ``created_at`` (UTC ISO 8601), a ``label`` saying what was played ("Turnip ♦",
    "Queens") and ``better``: the points the way round where higher is better (under
    reversed scoring, SCORING.md §2.5, the sign turned back), by which best and worst
    were chosen."""

    game_id: str
    number: int
    points: int
    created_at: str
    label: str
    better: int | None = None

    @property
    def turned(self) -> bool:
        """Whether the game scored reversed: the points the page compares (``better``)
        are the sheet's with the sign turned back."""
        return self.better is not None and self.better != self.points


@dataclass(frozen=True)
class Section:
    """A heading and its figures, e.g. "King of Hearts" and what happened to the K♥;
    ``title`` may be "" (the figures go on under the previous heading); ``tiles``: a few
    figures side by side (the bids) rather than one a line."""

    title: str
    figures: tuple[Figure, ...]
    tiles: bool = False


@dataclass(frozen=True)
class KindStats:
    """One kind of game as one player played it: ``figures`` (games, wins, deals, points
    per deal), ``best`` and ``worst`` deal (by points, turned back under reversed scoring;
    on a tie the first time it happened), and ``sections`` (Trigami bids; Trix contract
    by contract)."""

    kind: str
    figures: tuple[Figure, ...]
    best: DealRef | None
    worst: DealRef | None
    sections: tuple[Section, ...]


@dataclass(frozen=True)
class HeadToHead:
    """A player's record against one other player, over the finished games both played:
    ``games``, and in how many of them the player finished ``ahead`` of, ``behind`` or
    ``level`` with the opponent (higher total; lower under reversed scoring)."""

    opponent: int
    name: str
    games: Figure
    ahead: Figure
    behind: Figure
    level: Figure


@dataclass(frozen=True)
class Result:
    """One finished game of a player, for the results chart: ``total`` the player's final
    total, ``best_other`` the best final total of the others (highest; lowest under
    reversed scoring), ``won`` whether the player won."""

    game_id: str
    kind: str
    created_at: str
    total: int
    best_other: int
    won: bool
    reversed: bool


@dataclass(frozen=True)
class PlayerStats:
    """Everything the player page shows for one player (players-table id ``player_id``).

    ``played``: every game they sat in; ``finished`` and ``won`` (shared wins and partners'
    wins included); ``kinds``: one :class:`KindStats` per kind played, in the app's order;
    ``head_to_head``: one record per other player met in a finished game, by name;
    ``results``: their finished games, oldest first, the latest
    :data:`RESULTS_KEPT` of each kind (the charts draw no more; the count of all is the
    kind's "won" figure's ``of``); ``reversed_games``: whether any Trix
    game with reversed scoring was counted (its points turned back, see the module).
    """

    player_id: int
    name: str
    played: Figure
    finished: Figure
    won: Figure
    kinds: tuple[KindStats, ...]
    head_to_head: tuple[HeadToHead, ...]
    results: tuple[Result, ...]
    reversed_games: bool = False

    def all_figures(self) -> Iterable[Figure]:
        """Every figure on the page, in the page's order."""
        yield from (self.played, self.finished, self.won)
        for kind in self.kinds:
            yield from kind.figures
            for section in kind.sections:
                yield from section.figures
        for record in self.head_to_head:
            yield from (record.games, record.ahead, record.behind, record.level)

    def figure(self, key: str) -> Figure | None:
        """The figure called ``key`` (see :class:`Figure`), or None."""
        return next((f for f in self.all_figures() if f.key == key), None)


# --------------------------------------------------------------------------- counting


def _better(points: int, game: SeatedGame) -> int:
    """Points the way round where higher is better (turned back under reversed scoring)."""
    return -points if game.reversed else points


def _deal_what(kind: str, deal: Any, seat: int) -> tuple[str, ...]:
    """What was played in a deal, untranslated (see :func:`deal_label`): a Trigami seat's
    bid and its suit (the turnip for a Turnip bid), or a Trix deal's contracts."""
    if kind == "trix":
        return tuple(deal.contracts)
    bid = deal.bids[seat]
    return (bid.kind, (deal.turnip or "") if bid.kind == TURNIP else bid.suit)


def deal_label(kind: str, what: Sequence[str]) -> str:
    """What was played, as a best or worst deal says it: "Turnip ♦", "Doublets ♠",
    "plain ♥"; "Queens", "King of Hearts + Diamonds" (Trix Complex). ``what``: as kept
    for the deal (a Trigami bid's kind and suit, or the Trix contracts)."""
    if kind == "trix":
        return " + ".join(trix_rules.contract_name(c) for c in what)
    bid, suit = what
    if bid == TURNIP:
        return _("Turnip {suit}").format(suit=SUIT_SYMBOLS.get(suit, "")).strip()
    if bid == DOUBLETS:
        return _("Doublets {suit}").format(suit=SUIT_SYMBOLS[suit])
    return _("plain {suit}").format(suit=SUIT_SYMBOLS[suit])


def _contract_points(game: SeatedGame, deal_score: DealScore, deal: Any, contract: str,
                     seat: int) -> int:
    """A seat's points from one contract of a deal (as scored; a Trix Complex deal is
    scored once more with that contract alone, by the rules)."""
    if len(deal.contracts) == 1:
        return deal_score.points[seat]
    alone = trix_rules.TrixDeal(contracts=(contract,), **{contract: deal.block(contract)})
    file = game.sheet.file
    assert file is not None
    lines = trix_rules.TRIX.score_deal(alone, file.players, file.options)
    return lines[seat].points


def _declare_overall(tally: _Tallies) -> None:
    tally("played", _("Games"))
    tally("finished", _("Finished"))
    tally("won", _("Won"), with_of=True, per="finished")


def _declare_kind(tally: _Tallies, kind: str) -> None:
    """A kind's games, wins, deals and points per deal, and its own figures."""
    tally(f"{kind}.games", _("Games"))
    tally(f"{kind}.won", _("Won"), with_of=True, per="finished")
    tally(f"{kind}.deals", _("Deals played"))
    tally(f"{kind}.points", _("Points per deal"), average=True)
    if kind == "trix":
        _declare_trix(tally)
    else:
        _declare_trigami(tally, kind)


def _declare_versus(tally: _Tallies, opponent: int, name: str) -> None:
    tally(f"vs.{opponent}", _("Finished games against {name}").format(name=isolate(name)))
    tally(f"vs.{opponent}.ahead", _("Ahead of {name}").format(name=isolate(name)))
    tally(f"vs.{opponent}.behind", _("Behind {name}").format(name=isolate(name)))
    tally(f"vs.{opponent}.level", _("Level with {name}").format(name=isolate(name)))


_TRIGAMI_KEYS = ("bids.plain", "bids.turnip", "bids.doublets", "doublets.made", "doublets.failed",
                 "doublets.swept", "turnip.points", "bugs", "tricks", "every_trick")


def _declare_trigami(tally: _Tallies, k: str) -> None:
    """Plain Bugami for three has plain bids only, so it counts no bids."""
    if k == "trigami":
        tally(f"{k}.bids.plain", _("Plain bids"), with_of=True)
        tally(f"{k}.bids.turnip", _("Turnip bids"), with_of=True)
        tally(f"{k}.bids.doublets", _("Doublets bids"), with_of=True)
        tally(f"{k}.doublets.made", _("Doublets made (points scored)"), with_of=True, per="doublets")
        tally(f"{k}.doublets.failed", _("Doublets failed (a bug: 0 points)"), with_of=True, per="doublets")
        # the third way a Doublets bid ends, so that the three add up to the bids (tester 69)
        tally(f"{k}.doublets.swept", _("Doublets lost to another player's every trick (0 points)"),
              with_of=True, per="doublets", detail=True)
        tally(f"{k}.turnip.points", _("Points per Turnip bid"), average=True, per="turnips")
    tally(f"{k}.bugs", _("Bugs per deal"), average=True)
    tally(f"{k}.tricks", _("Tricks per deal"), average=True)
    tally(f"{k}.every_trick", _("Every trick taken"), detail=True)


def _count_trigami(tally: _Tallies, game: SeatedGame, played: Sequence[tuple[DealScore, Any, int]]) -> None:
    """Bids, Doublets made and failed, Turnip results, bugs and tricks (SCORING.md §1.2),
    over the ``played`` deals (deal score, deal, the player's seat)."""
    k = game.kind
    special = k == "trigami"
    for deal_score, deal, seat in played:
        points = deal_score.points[seat]
        bid = deal.bids[seat].kind
        if special:
            for kind in (PLAIN, TURNIP, DOUBLETS):
                tally(f"{k}.bids.{kind}").chance()
            tally(f"{k}.bids.{bid}").add(game.id)
        if bid == DOUBLETS:
            # Made: points scored (no bugs: 40 a trick, 100 without tricks; or every trick,
            # 200 with all ten bugs, the rule that comes first, §1.2 1.); failed: a bug, 0.
            # Another player taking every trick leaves it 0 with no bug: neither, but lost to
            # that every trick, counted apart (tester 69: made and failed "0 of 1"; tester 35:
            # "made (no bugs) 0 of 1, failed 1" beside a deal without a bug; tester 55: every
            # trick, +200, counted as failed for its ten bugs).
            tally(f"{k}.doublets.made").chance()
            tally(f"{k}.doublets.failed").chance()
            tally(f"{k}.doublets.swept").chance()
            if points > 0:
                tally(f"{k}.doublets.made").add(game.id)
            elif deal.bugs[seat] > 0:
                tally(f"{k}.doublets.failed").add(game.id)
            else:
                tally(f"{k}.doublets.swept").add(game.id)
        elif bid == TURNIP:
            tally(f"{k}.turnip.points").add(game.id, points)
        tally(f"{k}.bugs").add(game.id, deal.bugs[seat])
        tally(f"{k}.tricks").add(game.id, deal.tricks[seat])
        if deal.tricks[seat] == sum(deal.tricks):
            tally(f"{k}.every_trick").add(game.id)


_CARD_KEYS = ("taken", "taken_doubled", "doubled", "caught", "back", "led")


def _card_tallies(tally: _Tallies, contract: str) -> None:
    """The K♥'s or the queens' figures, labelled (SCORING.md §2.2)."""
    p = f"trix.{contract}"
    if contract == trix_rules.KING:
        king = trix_rules.card_label("K", "H")
        tally(f"{p}.taken", _("{card} taken").format(card=king), with_of=True)
        tally(f"{p}.taken_doubled", _("{card} taken after another player doubled it").format(card=king),
              detail=True)
        tally(f"{p}.doubled", _("{card} doubled").format(card=king), detail=True)
        tally(f"{p}.caught", _("Doubled {card} caught: another player took it").format(card=king),
              detail=True)
        tally(f"{p}.back", _("Doubled {card} taken back").format(card=king), detail=True)
        tally(f"{p}.led", _("Led to the trick in which the doubler took back the {card}").format(
            card=king), detail=True)
    else:
        tally(f"{p}.taken", _("Queens taken per deal"), average=True)
        tally(f"{p}.taken_doubled", _("Queens taken after another player doubled them"), detail=True)
        tally(f"{p}.doubled", _("Queens doubled"), detail=True)
        tally(f"{p}.caught", _("Doubled queens caught: another player took them"), detail=True)
        tally(f"{p}.back", _("Doubled queens taken back"), detail=True)
        tally(f"{p}.led", _("Led to a trick in which the doubler took back a queen"), detail=True)


def _count_card(tally: _Tallies, contract: str, game: SeatedGame, seat: int, card: Any) -> None:
    """One K♥ or queen: taken, doubled and caught, taken back, led to (SCORING.md §2.2)."""
    p = f"trix.{contract}"
    if card.taker == seat and card.doubled_by is not None and card.doubled_by != seat:
        tally(f"{p}.taken_doubled").add(game.id)
    if card.doubled_by == seat:
        tally(f"{p}.doubled").add(game.id)
        tally(f"{p}.back" if card.taker == seat else f"{p}.caught").add(game.id)
    elif card.doubled_by is not None and card.taker == card.doubled_by and card.leader == seat:
        tally(f"{p}.led").add(game.id)


_TRIX_KEYS: Mapping[str, tuple[str, ...]] = {
    trix_rules.KING: ("deals", "points", *_CARD_KEYS),
    trix_rules.QUEENS: ("deals", "points", *_CARD_KEYS),
    trix_rules.DIAMONDS: ("deals", "points", "taken"),
    trix_rules.TRICKS: ("deals", "points", "taken"),
    trix_rules.TRIX_CONTRACT: ("deals", "points", "place", "first"),
}


def _declare_trix(tally: _Tallies) -> None:
    for contract in trix_rules.CONTRACTS:
        p = f"trix.{contract}"
        tally(f"{p}.deals", _("Deals"))
        tally(f"{p}.points", _("Points per deal"), average=True)
        if contract in (trix_rules.KING, trix_rules.QUEENS):
            _card_tallies(tally, contract)
        elif contract == trix_rules.DIAMONDS:
            tally(f"{p}.taken", _("Diamonds taken per deal"), average=True)
        elif contract == trix_rules.TRICKS:
            tally(f"{p}.taken", _("Tricks taken per deal"), average=True)
        else:
            tally(f"{p}.place", _("Finishing place (1st to 4th) on average"), average=True)
            tally(f"{p}.first", _("Out first"), with_of=True)


def _count_trix(tally: _Tallies, game: SeatedGame, played: Sequence[tuple[DealScore, Any, int]]) -> None:
    """Contract by contract (SCORING.md §2.1, §2.2): deals, points per deal and what the
    player took; a Trix Complex deal counts once for each of its contracts. Over the
    ``played`` deals (deal score, deal, the player's seat)."""
    for deal_score, deal, seat in played:
        for contract in deal.contracts:
            p = f"trix.{contract}"
            tally(f"{p}.deals").add(game.id)
            tally(f"{p}.points").add(
                game.id, _better(_contract_points(game, deal_score, deal, contract, seat), game))
            if contract == trix_rules.KING:
                tally(f"{p}.taken").chance()
                if deal.king.taker == seat:
                    tally(f"{p}.taken").add(game.id)
                _count_card(tally, contract, game, seat, deal.king)
            elif contract == trix_rules.QUEENS:
                tally(f"{p}.taken").add(game.id, sum(1 for card in deal.queens if card.taker == seat))
                for card in deal.queens:
                    _count_card(tally, contract, game, seat, card)
            elif contract in (trix_rules.DIAMONDS, trix_rules.TRICKS):
                tally(f"{p}.taken").add(game.id, getattr(deal, contract)[seat])
            else:
                place = deal.trix.index(seat) + 1
                tally(f"{p}.place").add(game.id, place)
                tally(f"{p}.first").chance()
                if place == 1:
                    tally(f"{p}.first").add(game.id)


def _sections(kind: str, tally: _Tallies) -> tuple[Section, ...]:
    if kind == "trix":
        out = []
        for contract, keys in _TRIX_KEYS.items():
            figures = tally.figures(*(f"trix.{contract}.{key}" for key in keys))
            if figures and figures[0].value:  # its deals: some were played
                out.append(Section(trix_rules.contract_name(contract), figures))
        return tuple(out)
    bids = tally.figures(*(f"{kind}.{key}" for key in _TRIGAMI_KEYS if key.startswith("bids.")))
    rest = tally.figures(*(f"{kind}.{key}" for key in _TRIGAMI_KEYS if not key.startswith("bids.")))
    return tuple(section for section in (Section(_("Bids, tricks and bugs"), bids, tiles=True),
                                         Section("", rest)) if section.figures)


# --------------------------------------------------------------------------- one seat of one game


@dataclass(frozen=True)
class DealMark:
    """A seat's best or worst deal in one game: ``better`` its points the way round where
    higher is better, ``number`` (1-based), ``points`` as scored, ``what`` was played
    (untranslated: :func:`deal_label`). On a tie, the first such deal of the game."""

    better: int
    number: int
    points: int
    what: tuple[str, ...]


@dataclass(frozen=True)
class SeatPart:
    """What one game adds to one of its players' statistics: worked out once when the
    game changes (summaries.py keeps it, and adds it to the player's totals), so that a
    player page never scores the player's games. ``seat``: where the player sat at the
    end (or last, when they left: issue 18, part 3).

    ``counts``: {figure key: (count, total, of)} for every figure the game counts for
    the player, zeros included (a key listed is a figure the page shows); see
    :class:`_Tally` for the three numbers. A figure comes from the game when its count
    is above 0. ``best``/``worst``: the seat's best and worst deal (None without deals);
    ``result``: the game's end for the seat (finished games only). ``reversed``: the
    lowest total wins (SCORING.md §2.5).
    """

    game_id: str
    kind: str
    created_at: str
    seat: int
    player_id: int
    counts: Mapping[str, tuple[int, int, int]]
    best: DealMark | None
    worst: DealMark | None
    result: Result | None
    reversed: bool


def seat_parts(game: SeatedGame) -> list[SeatPart]:
    """What ``game`` adds to each of its players' statistics (:class:`SeatPart`): one
    part for every player who sat in it, at its start or by taking over a seat."""
    return [_seat_part(game, pid) for pid in game.everyone]


def _seat_part(game: SeatedGame, player_id: int) -> SeatPart:
    """Player ``player_id``'s part of ``game``. The game counts as a game played for
    everyone who sat in it; the deals, points, bids, contracts, best and worst deal
    count only the deals they played (issue 18, part 3: someone who took over a seat
    does not get the leaver's deals). The result — finished, won, the results chart,
    head-to-head — belongs to whoever sat at the seat at the end (points and winners stay
    with the seat, GAME-FILE.md); a player who left before the end has played the game
    but not finished it."""
    tally = _Tallies()
    gid, kind = game.id, game.kind
    _declare_overall(tally)
    _declare_kind(tally, kind)
    tally("played").add(gid)
    tally(f"{kind}.games").add(gid)
    end = game.at_end
    seat = end.index(player_id) if player_id in end else None
    if game.finished and seat is not None:
        tally("finished").add(gid)
        tally("won").chance()
        tally(f"{kind}.won").chance()
        if game.won_by(seat):
            tally("won").add(gid)
            tally(f"{kind}.won").add(gid)
    played = game.played_by(player_id)
    best: DealMark | None = None
    worst: DealMark | None = None
    for deal_score, deal, at in played:
        points = deal_score.points[at]
        better = _better(points, game)
        tally(f"{kind}.deals").add(gid)
        tally(f"{kind}.points").add(gid, better)
        if best is None or better > best.better:
            best = DealMark(better, deal_score.number, points, _deal_what(kind, deal, at))
        if worst is None or better < worst.better:
            worst = DealMark(better, deal_score.number, points, _deal_what(kind, deal, at))
    if kind == "trix":
        _count_trix(tally, game, played)
    else:
        _count_trigami(tally, game, played)
    result = None
    if game.finished and seat is not None:
        totals = game.totals
        mine = _better(totals[seat], game)
        others = [_better(t, game) for s, t in enumerate(totals) if s != seat]
        result = Result(gid, kind, game.game.created_at, totals[seat], _better(max(others), game),
                        game.won_by(seat), game.reversed)
        for other, pid in enumerate(end):
            if other == seat or pid is None:
                continue
            _declare_versus(tally, pid, "")
            tally(f"vs.{pid}").add(gid)
            theirs = _better(totals[other], game)
            side = "ahead" if mine > theirs else "behind" if mine < theirs else "level"
            tally(f"vs.{pid}.{side}").add(gid)
    last_seat = seat if seat is not None else (played[-1][2] if played else game.seat_of(player_id) or 0)
    return SeatPart(gid, kind, game.game.created_at, last_seat, player_id,
                    {t.key: (t.count, t.total, t.of) for t in tally}, best, worst, result, game.reversed)


# --------------------------------------------------------------------------- a player's page


@dataclass(frozen=True)
class Totals:
    """A player's figures summed over their games, as :func:`assemble` takes them:
    {key: (count, total, of, games)} with ``games`` how many games the figure comes from
    (or their ids, oldest first, when known); ``best``/``worst``: {kind: DealRef};
    ``results``: their latest finished games of each kind, oldest first (at most
    :data:`RESULTS_KEPT` a kind); ``reversed_games``: whether any counted game had
    reversed scoring."""

    counts: Mapping[str, tuple[int, int, int, int | Sequence[str]]]
    best: Mapping[str, DealRef]
    worst: Mapping[str, DealRef]
    results: Sequence[Result]
    reversed_games: bool


#: The most finished games of each kind a player page keeps for its results chart (the latest)
RESULTS_KEPT = 100


def assemble(player_id: int, totals: Totals, names: Mapping[int, str]) -> PlayerStats:
    """The player page of ``player_id`` from their :class:`Totals`; ``names``:
    ``store.player_names`` (for the name and the head-to-head records). Labels are
    translated here, in the language of the page."""

    def fill(tally: _Tallies) -> _Tallies:
        for t in tally:
            if t.key in totals.counts:
                t.count, t.total, t.of, games = totals.counts[t.key]
                if isinstance(games, int):
                    t.game_count = games
                else:
                    t.games = dict.fromkeys(games)
        return tally

    overall = _Tallies()
    _declare_overall(overall)
    fill(overall)
    kind_stats = []
    for kind in KINDS:
        if f"{kind}.games" not in totals.counts:
            continue
        kt = _Tallies()
        _declare_kind(kt, kind)
        fill(kt)
        kind_stats.append(KindStats(
            kind=kind,
            figures=kt.figures(*(f"{kind}.{key}" for key in ("games", "won", "deals", "points"))),
            best=totals.best.get(kind),
            worst=totals.worst.get(kind),
            sections=_sections(kind, kt),
        ))
    records = []
    opponents = {int(key.split(".")[1]) for key in totals.counts if key.startswith("vs.")}
    for pid in opponents:
        vt = _Tallies()
        name = names.get(pid, "?")
        _declare_versus(vt, pid, name)
        fill(vt)
        games_f, ahead_f, behind_f, level_f = vt.figures(
            f"vs.{pid}", f"vs.{pid}.ahead", f"vs.{pid}.behind", f"vs.{pid}.level")
        records.append(HeadToHead(pid, name, games_f, ahead_f, behind_f, level_f))
    records.sort(key=lambda r: (r.name.casefold(), r.opponent))
    played, finished, won = overall.figures("played", "finished", "won")
    return PlayerStats(
        player_id=player_id,
        name=names.get(player_id, "?"),
        played=played,
        finished=finished,
        won=won,
        kinds=tuple(kind_stats),
        head_to_head=tuple(records),
        results=tuple(totals.results),
        reversed_games=totals.reversed_games,
    )


def add_up(parts: Iterable[SeatPart]) -> Totals:
    """The :class:`Totals` of one player's seat parts, given oldest game first (a tie for
    the best deal goes to the first time it happened); figures keep their games' ids."""
    counts: dict[str, list[Any]] = {}
    best: dict[str, tuple[int, DealRef]] = {}
    worst: dict[str, tuple[int, DealRef]] = {}
    results: list[Result] = []
    reversed_games = False
    for part in parts:
        reversed_games |= part.reversed
        for key, (count, total, of) in part.counts.items():
            line = counts.setdefault(key, [0, 0, 0, []])
            line[0] += count
            line[1] += total
            line[2] += of
            if count:
                line[3].append(part.game_id)
        for kept, mark, higher in ((best, part.best, True), (worst, part.worst, False)):
            if mark is None:
                continue
            if part.kind not in kept or (mark.better > kept[part.kind][0] if higher
                                         else mark.better < kept[part.kind][0]):
                kept[part.kind] = (mark.better, DealRef(part.game_id, mark.number, mark.points,
                                                        part.created_at, deal_label(part.kind, mark.what),
                                                        mark.better))
        if part.result is not None:
            results.append(part.result)
    kept_of = {kind: sum(r.kind == kind for r in results) - RESULTS_KEPT for kind in KINDS}
    latest = []
    for result in results:  # each kind's latest RESULTS_KEPT, in the order played
        kept_of[result.kind] -= 1
        if kept_of[result.kind] < 0:
            latest.append(result)
    return Totals({key: (c, t, o, tuple(g)) for key, (c, t, o, g) in counts.items()},
                  {k: ref for k, (_v, ref) in best.items()}, {k: ref for k, (_v, ref) in worst.items()},
                  latest, reversed_games)


def player_stats(games: Iterable[SeatedGame], player_id: int, names: Mapping[int, str]) -> PlayerStats:
    """The statistics of player ``player_id`` over ``games`` (as :func:`seat_games` returns
    them, newest first; games they did not play in are ignored), counted from the games
    themselves, so every figure knows its games' ids. The app's pages read the same
    figures from the totals kept on write (summaries.player_stats), which give the same
    page. ``names``: ``store.player_names``. Figures are described in :class:`Figure`;
    points are as scored from the deal entries (SCORING.md §1.2, §2.1–2.2), reversed
    Trix scoring turned back (see the module)."""
    mine = [game for game in games if player_id in game.everyone][::-1]  # oldest first
    parts = [_seat_part(game, player_id) for game in mine]
    return assemble(player_id, add_up(parts), names)


__all__ = [
    "RESULTS_KEPT", "DealMark", "DealRef", "Figure", "HeadToHead", "KindStats", "PlayerStats", "Result",
    "SeatPart", "SeatedGame", "Section", "Totals", "add_up", "assemble", "deal_label", "player_stats",
    "seat_games", "seat_parts",
]
