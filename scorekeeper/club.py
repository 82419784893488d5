"""The rules of a club night (issue 20): who sits where each round, who sits a round out,
and the night's standing. Pure: no Flask, no database; the night's pages and the store
call it with names and results. The rules in words, for organisers and players:
docs/club-nights.md.

A night is several tables playing the same game (four to a Trix table, three to a Trigami
or plain Bugami table) over several rounds. Each table's game is an ordinary game; this
module only seats the tables and ranks the players from the tables' finishing places.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations

from .rules.common import _, _n

#: Placing points for each side (a player alone, or a pair of partners) that finished
#: behind yours at your table, and for each other side level with yours: the match
#: points of duplicate bridge. At a table of N sides they add up to N·(N−1), whatever the
#: ties, and a side level with every other gets N−1: the table's average.
POINTS_BEHIND = 2
POINTS_LEVEL = 1

#: How long after its round was seated a table card lets a phone enter deals, at most: a
#: night that nobody closes still ends for its cards (docs/club-nights.md, "Table cards")
TABLE_CARD_OPEN = timedelta(hours=12)


class SeatingError(ValueError):
    """Players who cannot be seated: fewer than one table, or a name twice. The message
    is translated (rules.common's translator) and names what is wrong."""


@dataclass(frozen=True)
class Seating:
    """One round's seating. ``tables``: each a tuple of names in seat order (seat 0 deals
    first; for partners, seats 0+2 and 1+3 play together); ``sitting_out``: the names
    that sit the round out, in the order they were chosen."""

    tables: tuple[tuple[str, ...], ...]
    sitting_out: tuple[str, ...] = ()

    @property
    def seated(self) -> tuple[str, ...]:
        """Every name at a table, table by table."""
        return tuple(name for table in self.tables for name in table)


def sitting_out_count(present: int, size: int) -> int:
    """How many of ``present`` players sit a round out at tables of ``size``: the ones
    left over when the tables are full (13 at Trix: 1; 11 at Trigami: 2). Raises
    SeatingError when there are fewer players than one table needs."""
    if present < size:
        raise SeatingError(_n(present, "A table needs {size} players; only {n} is here.",
                              "A table needs {size} players; only {n} are here.", size=size))
    return present % size


def meetings(rounds: Iterable[Seating]) -> Counter[frozenset[str]]:
    """How often each pair of players has shared a table in ``rounds``."""
    met: Counter[frozenset[str]] = Counter()
    for seating in rounds:
        for table in seating.tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


def partnerships(rounds: Iterable[Seating]) -> Counter[frozenset[str]]:
    """How often each pair has played as partners (seats 0+2 and 1+3 of a table of four)."""
    together: Counter[frozenset[str]] = Counter()
    for seating in rounds:
        for table in seating.tables:
            if len(table) == 4:
                together.update((frozenset((table[0], table[2])), frozenset((table[1], table[3]))))
    return together


def seat_round(players: Sequence[str], size: int, *, seed: int, earlier: Sequence[Seating] = (),
               order: Sequence[str] | None = None, partners: bool = False) -> Seating:
    """Seat ``players`` (everyone present for this round) at tables of ``size``.

    Who sits out (when the players don't fill the tables): those who have sat out
    fewest times in ``earlier`` rounds; among them, the seeded draw decides. Round 1 (no
    ``earlier``): at random by the draw, or, given ``order`` (the group's ranking, best
    first; names not in it after, in the draw's order), the best-ranked at table 1, the
    next at table 2, and so on. Later rounds: the seating with the fewest repeated
    meetings, counting each pair who already shared a table as often as they did (a
    local search from the draw, swapping players between tables while that lowers the
    count). With ``partners``, each table of four is then split so the fewest pairs play
    together again. Seats within a table follow the draw.

    ``seed`` (an int: the night's seed plus the round number) makes the draw repeatable:
    the same night seats the same way. Raises SeatingError for a name given twice or
    fewer players than one table. Rules in words: docs/club-nights.md, "Seating".
    """
    names = list(players)
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise SeatingError(_("{name} is listed twice.").format(name=twice[0]))
    out = sitting_out_count(len(names), size)
    draw = random.Random(seed)
    drawn = names[:]
    draw.shuffle(drawn)
    sat_out = Counter(name for seating in earlier for name in seating.sitting_out)
    # stable: among those who sat out equally often, the draw's order decides
    sitting_out = tuple(sorted(drawn, key=lambda name: sat_out[name])[:out])
    playing = [name for name in drawn if name not in sitting_out]
    if order is not None and not earlier:
        rank = {name: index for index, name in enumerate(order)}
        playing.sort(key=lambda name: rank.get(name, len(rank)))
    tables = [playing[start:start + size] for start in range(0, len(playing), size)]
    if earlier:
        _fewest_repeats(tables, meetings(earlier))
    if partners and size == 4:
        together = partnerships(earlier)
        tables = [_split_partners(table, together) for table in tables]
    seated: list[tuple[str, ...]] = []
    for table in tables:
        if not (partners and size == 4):
            draw.shuffle(table)
        seated.append(tuple(table))
    return Seating(tables=tuple(seated), sitting_out=sitting_out)


def _cost(table: Sequence[str], met: Mapping[frozenset[str], int]) -> int:
    """Repeated meetings at one table: each pair counted as often as it met before."""
    return sum(met.get(frozenset(pair), 0) for pair in combinations(table, 2))


def _fewest_repeats(tables: list[list[str]], met: Mapping[frozenset[str], int]) -> None:
    """Swap players between ``tables`` (in place) while a swap lowers the repeated
    meetings; each pass takes the best swap of a player who has a repeat at their table.
    Ends when no swap helps (a local minimum: often none repeat at all)."""
    costs = [_cost(table, met) for table in tables]
    while True:
        best: tuple[int, int, int, int, int] | None = None  # (gain, table a, seat a, table b, seat b)
        for a, table in enumerate(tables):
            if not costs[a]:
                continue
            for i, name in enumerate(table):
                if not any(met.get(frozenset((name, other)), 0) for other in table if other != name):
                    continue
                for b, other_table in enumerate(tables):
                    if b == a:
                        continue
                    for j, other in enumerate(other_table):
                        moved_a = [*table[:i], other, *table[i + 1:]]
                        moved_b = [*other_table[:j], name, *other_table[j + 1:]]
                        gain = costs[a] + costs[b] - _cost(moved_a, met) - _cost(moved_b, met)
                        if gain > 0 and (best is None or gain > best[0]):
                            best = (gain, a, i, b, j)
        if best is None:
            return
        _, a, i, b, j = best
        tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
        costs[a], costs[b] = _cost(tables[a], met), _cost(tables[b], met)


def _split_partners(table: Sequence[str], together: Mapping[frozenset[str], int]) -> list[str]:
    """The four of ``table`` in seat order (0+2, 1+3 partners) choosing, of the three ways
    to pair them, the one whose pairs have played together least (the first on a tie)."""
    first, *rest = table

    def repeats(partner: str) -> int:
        others = [name for name in rest if name != partner]
        return together.get(frozenset((first, partner)), 0) + together.get(frozenset(others), 0)

    partner = min(rest, key=repeats)
    others = [name for name in rest if name != partner]
    return [first, others[0], partner, others[1]]


@dataclass(frozen=True)
class TableResult:
    """One table's game of a round, as it ended or stood when the round was closed.

    ``round`` and ``table`` are 1-based; ``players`` the names in seat order (who sat at
    each seat at the end); ``totals`` the game's totals, one per seat; ``places`` each
    seat's finishing place (the rules' ``places``: 1 first, level seats share the better
    place); ``sides`` the seats that play together (((0,), (1,), (2,)) alone; ((0, 2),
    (1, 3)) partners); ``finished`` whether the game was over.
    """

    round: int
    table: int
    players: tuple[str, ...]
    totals: tuple[int, ...]
    places: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    finished: bool = True


@dataclass(frozen=True)
class RoundLine:
    """One player's round, for the explanation of a standing's figure.

    ``table`` and ``place`` are None for a round sat out. ``behind`` and ``level``: the
    sides that finished behind the player's side, and the other sides level with it (a
    sit-out: level with every other side of a table). ``points``: placing points,
    POINTS_BEHIND × behind + POINTS_LEVEL × level. ``score``: the round's score, the
    total of the player's side in the game (a player alone: their own total; partners:
    the sum of both partners' totals, each partner gets it whole, as a pair in duplicate
    bridge); a sit-out: the round's average, see :func:`standing`. ``side_totals``: the
    totals of the side's seats that add up to ``score``, the player's own first, when the
    side is more than one seat (partners), else empty. ``finished``: whether the table's
    game was over (False: it counted as it stood).
    """

    round: int
    table: int | None
    place: int | None
    behind: int
    level: int
    points: int
    score: int
    finished: bool = True
    side_totals: tuple[int, ...] = ()

    @property
    def sat_out(self) -> bool:
        """Whether the player sat this round out."""
        return self.table is None


@dataclass(frozen=True)
class StandingRow:
    """A player's line in the night's standing. ``rank`` is 1-based and shared by rows
    equal in what ranks them (``shared``); ``points`` and ``score`` add up ``rounds``;
    ``played`` counts rounds at a table, ``sat_out`` rounds sat out."""

    rank: int
    shared: bool
    player: str
    points: int
    score: int
    played: int
    sat_out: int
    rounds: tuple[RoundLine, ...]


def _truncated_mean(total: int, count: int) -> int:
    """``total / count`` cut toward zero, as the rules cut a division (−7/2 → −3)."""
    whole = abs(total) // count
    return whole if total >= 0 else -whole


def round_lines(result: TableResult) -> tuple[RoundLine, ...]:
    """Each seat's :class:`RoundLine` for one table: placing points from the sides'
    places (the best place among a side's seats is the side's), and as the round's score
    the side's total, the sum of its seats' totals (docs/club-nights.md, "The standing")."""
    side_place = [min(result.places[seat] for seat in side) for side in result.sides]
    lines = []
    for seat in range(len(result.players)):
        mine = next(index for index, side in enumerate(result.sides) if seat in side)
        behind = sum(1 for place in side_place if place > side_place[mine])
        level = sum(1 for index, place in enumerate(side_place)
                    if index != mine and place == side_place[mine])
        side = result.sides[mine]
        parts = (result.totals[seat], *(result.totals[other] for other in side if other != seat))
        lines.append(RoundLine(round=result.round, table=result.table, place=side_place[mine],
                               behind=behind, level=level,
                               points=POINTS_BEHIND * behind + POINTS_LEVEL * level,
                               score=sum(parts), finished=result.finished,
                               side_totals=parts if len(side) > 1 else ()))
    return tuple(lines)


def standing(results: Sequence[TableResult], sat_out: Mapping[int, Sequence[str]] | None = None,
             *, ranking: str = "placings", low_wins: bool = False,
             players: Sequence[str] = ()) -> tuple[StandingRow, ...]:
    """The night's standing from its tables' ``results`` and the rounds sat out
    (``sat_out``: round → names).

    Placing points: POINTS_BEHIND for every side behind yours at your table and
    POINTS_LEVEL for every other side level with it. A player who sits a round out is
    counted level with every other side of a table (N sides: N − 1 points, a table's
    average). A player's round score is their side's total (:func:`round_lines`: their
    own total alone, both partners' totals added with partners); a sit-out scores the
    average of the round scores of everyone who played that round at a table, each as
    they get it (with partners each side's total counts once for each partner, so this
    is the average of the round's side totals), cut toward zero. ``ranking`` "placings": most placing points first, then the better total score
    (higher; lower when ``low_wins``: Trix's reversed scoring); "score": the better total
    score alone. Rows equal in what ranks them share a rank (1, 1, 3), listed by name.
    ``players``: everyone of the night; one who has not played a round yet (at a table or
    sitting out: a late arrival, a leaver before round 1) is left out of the standing, not
    ranked above those who played (docs/club-nights.md, "The standing"). Raises ValueError for another ``ranking``. Rules in words:
    docs/club-nights.md, "The standing".
    """
    if ranking not in ("placings", "score"):
        raise ValueError(f"unknown ranking {ranking!r}")
    lines: dict[str, list[RoundLine]] = {name: [] for name in players}
    by_round: dict[int, list[TableResult]] = {}
    played: dict[int, list[int]] = {}  # round → the round scores of everyone at a table
    for result in results:
        by_round.setdefault(result.round, []).append(result)
        for name, line in zip(result.players, round_lines(result), strict=True):
            lines.setdefault(name, []).append(line)
            played.setdefault(result.round, []).append(line.score)
    any_sides = len(results[0].sides) if results else 0
    for number, names in (sat_out or {}).items():
        tables = by_round.get(number, [])
        sides = len(tables[0].sides) if tables else any_sides
        scores = played.get(number, [])
        score = _truncated_mean(sum(scores), len(scores)) if scores else 0
        for name in names:
            lines.setdefault(name, []).append(RoundLine(
                round=number, table=None, place=None, behind=0, level=max(sides - 1, 0),
                points=POINTS_LEVEL * max(sides - 1, 0), score=score))
    rows = []
    for name, mine in lines.items():
        if not mine:
            continue  # no round yet: not in the standing
        mine.sort(key=lambda line: line.round)
        rows.append((name, sum(line.points for line in mine), sum(line.score for line in mine),
                     tuple(mine)))

    def key(row: tuple[str, int, int, tuple[RoundLine, ...]]) -> tuple[int, ...]:
        score = row[2] if low_wins else -row[2]
        return (score,) if ranking == "score" else (-row[1], score)

    rows.sort(key=lambda row: (key(row), row[0].casefold(), row[0]))
    keys = [key(row) for row in rows]
    counted = Counter(keys)
    out = []
    rank = 0
    for index, row in enumerate(rows):
        if index == 0 or keys[index] != keys[index - 1]:
            rank = index + 1
        shared = counted[keys[index]] > 1
        out.append(StandingRow(rank=rank, shared=shared, player=row[0], points=row[1], score=row[2],
                               played=sum(1 for line in row[3] if not line.sat_out),
                               sat_out=sum(1 for line in row[3] if line.sat_out), rounds=row[3]))
    return tuple(out)


@dataclass(frozen=True)
class SeasonRow:
    """A player's line in the season table: ``rank`` 1-based, ``shared`` with another
    row; ``nights`` the nights played (a round at a table or sat out); ``rounds`` the
    rounds played at a table; ``points`` placing points over the nights; ``wins`` the
    nights finished first (a shared first counts); ``score`` total score."""

    rank: int
    shared: bool
    player: str
    nights: int
    rounds: int
    points: int
    wins: int
    score: int

    @property
    def per_round(self) -> float:
        """Placing points per round played at a table (0 with none), for display."""
        return self.points / self.rounds if self.rounds else 0.0


def season_table(nights: Sequence[Sequence[StandingRow]]) -> tuple[SeasonRow, ...]:
    """The season table from the standings of the period's nights (each as
    :func:`standing` gives it). Ranked by placing points over all nights (coming to more
    nights earns more, as in a club's ladder); equal points by more nights won, then by
    fewer rounds needed for them (more points a round). Rows equal in all three share
    the rank, listed by name. Total score is shown but ranks nothing: nights of reversed
    and standard Trix, or of different targets, cannot be added fairly.
    Rules in words: docs/club-nights.md, "The season"."""
    rows: dict[str, list[int]] = {}  # player → [nights, rounds, points, wins, score]
    for night in nights:
        for row in night:
            if not row.rounds:
                continue  # on the night's list, but never seated nor sat out
            mine = rows.setdefault(row.player, [0, 0, 0, 0, 0])
            mine[0] += 1
            mine[1] += row.played
            mine[2] += row.points
            mine[3] += row.rank == 1
            mine[4] += row.score

    def key(item: tuple[str, list[int]]) -> tuple[int, int, int]:
        # among equal points, fewer rounds is more points a round
        _, (_nights, rounds, points, wins, _score) = item
        return (-points, -wins, rounds)

    ordered = sorted(rows.items(), key=lambda item: (key(item), item[0].casefold(), item[0]))
    keys = [key(item) for item in ordered]
    counted = Counter(keys)
    out = []
    rank = 0
    for index, (name, (nights_played, rounds, points, wins, score)) in enumerate(ordered):
        if index == 0 or keys[index] != keys[index - 1]:
            rank = index + 1
        out.append(SeasonRow(rank=rank, shared=counted[keys[index]] > 1, player=name,
                             nights=nights_played, rounds=rounds, points=points, wins=wins, score=score))
    return tuple(out)


def table_card_open(*, round_closed: bool, night_over: bool, seated_at: datetime, at: datetime) -> bool:
    """Whether a table card (docs/club-nights.md, "Table cards") lets a phone enter deals
    in its table's game at ``at``: while its round is open (not closed by the organiser,
    the next round not seated: ``round_closed`` False), the night is not over (its last
    planned round over: ``night_over`` False), and less than :data:`TABLE_CARD_OPEN`
    after its round was seated (``seated_at``). Otherwise the card shows the game and
    changes nothing. ``seated_at`` and ``at``: aware datetimes."""
    return not round_closed and not night_over and timedelta(0) <= at - seated_at < TABLE_CARD_OPEN
