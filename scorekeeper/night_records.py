"""A club night as stored (issue 20): its players, rounds and tables, each table an
ordinary game of the group (records.StoredGame). Plain frozen dataclasses, no database
(night_store.py reads and writes them): the standing is worked out here on read from each
table's game, scored by its rules and ranked by club.standing, as every score is computed
on read. The rules in words: docs/club-nights.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from . import club
from .gamefile import GameFile
from .inputs import name_key
from .nightfile import NightFile, NightPlayer, NightRound, NightTable
from .records import StoredGame
from .rules import GameScore, RuleError, get_rules

#: Players at a table of each kind of game (four to a Trix table, three to a Trigami or
#: plain Bugami table: docs/club-nights.md)
TABLE_SIZE = {"trigami": 3, "bugami3": 3, "trix": 4}


@dataclass(frozen=True)
class StoredTable:
    """One table of a round: ``round`` and ``number`` 1-based; ``game`` its game as
    stored (deleted or not: ``deleted``); ``counted`` the deals the night counts when the
    round was closed early (None: all of them)."""

    round: int
    number: int
    game: StoredGame
    counted: int | None = None
    deleted: bool = False

    @cached_property
    def scored(self) -> tuple[GameFile | None, GameScore | None]:
        """The game as the night counts it (its first ``counted`` deals, or all), parsed
        and scored; (None, None) when its deals no longer fit the rules, or (the file,
        None) when scoring them fails: such a table counts as if it had not dealt."""
        entries = None if self.counted is None else [d.entry for d in self.game.deals[:self.counted]]
        try:
            file = self.game.game_file(entries)
        except RuleError:
            return None, None
        try:
            return file, file.score()
        except RuleError:
            return file, None

    @property
    def deals(self) -> int:
        """How many of its deals count for the night."""
        return len(self.game.deals) if self.counted is None else min(self.counted, len(self.game.deals))

    @property
    def finished(self) -> bool:
        """Whether the game, as the night counts it, is over."""
        score = self.scored[1]
        return bool(score is not None and score.finished)

    @property
    def players(self) -> tuple[str, ...]:
        """Who sat at each seat at the end of what counts (seat order)."""
        return self.game.players_at(self.deals + 1)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total as the night counts it (all 0 before a deal)."""
        score = self.scored[1]
        return score.totals if score is not None else (0,) * len(self.game.players)

    def result(self) -> club.TableResult:
        """The table as club.standing reads it: the game's places (the rules' own: the
        highest total first, the lowest under reversed Trix; partners' sides) at its end,
        or as it stands (docs/club-nights.md, "A round closed early")."""
        rules = get_rules(self.game.kind)
        file, score = self.scored
        options = rules.parse_options(self.game.options) if file is None else file.options
        places = rules.places(score, options) if score is not None else (1,) * len(self.game.players)
        return club.TableResult(round=self.round, table=self.number, players=self.players, totals=self.totals,
                                places=places, sides=rules.sides(options), finished=self.finished)


@dataclass(frozen=True)
class StoredRound:
    """A round: ``number`` 1-based; ``tables`` in table order; ``sitting_out`` the names
    who sit it out; ``closed`` whether the organiser closed it, or it was closed when the
    next round was seated; ``closed_early`` closed before every table's game was over."""

    number: int
    tables: tuple[StoredTable, ...]
    sitting_out: tuple[str, ...] = ()
    closed: bool = False
    closed_early: bool = False

    @property
    def over(self) -> bool:
        """Whether the round has ended: closed, or every table's game is over (a round
        closes by itself then: docs/club-nights.md, "A round closed early")."""
        return self.closed or all(table.finished for table in self.tables)

    @property
    def begun(self) -> bool:
        """Whether the round counts in the standing: closed, or a deal entered at one of
        its tables (docs/club-nights.md, "The standing")."""
        return self.closed or any(table.deals for table in self.tables)

    @property
    def unfinished(self) -> tuple[StoredTable, ...]:
        """Its tables whose game is not over."""
        return tuple(table for table in self.tables if not table.finished)

    @property
    def playable(self) -> tuple[StoredTable, ...]:
        """Its tables whose game, with every deal entered (not only those a round closed
        early counts), is not over: what a reopened round would play on."""
        return tuple(table for table in self.tables if not replace(table, counted=None).finished)

    def seating(self) -> club.Seating:
        """The round as club.seat_round seats it (for the next rounds' meetings)."""
        return club.Seating(tables=tuple(tuple(table.game.players) for table in self.tables),
                            sitting_out=self.sitting_out)


@dataclass(frozen=True)
class StoredNight:
    """A club night: ``kind`` and ``options`` (the game file's options dict) of every
    table; ``rounds_planned``; ``ranking`` "placings" or "score"; ``seating`` how round 1
    was seated, "random" or "ranking"; ``seed`` the night's draw; ``players`` everyone of
    the night in the order they were added (nightfile.NightPlayer: the rounds they are
    there for); ``rounds`` seated so far, in order. Times UTC ISO 8601."""

    id: int
    group_id: int
    name: str | None
    kind: str
    options: dict[str, Any]
    rounds_planned: int
    ranking: str
    seating: str
    seed: int
    created_at: str
    players: tuple[NightPlayer, ...]
    rounds: tuple[StoredRound, ...]
    imported: bool = False
    #: When the night was deleted (with its tables' games), None while it counts
    deleted_at: str | None = None

    @property
    def size(self) -> int:
        """Players at each table."""
        return TABLE_SIZE[self.kind]

    @property
    def partners(self) -> bool:
        """Whether the tables play in partnerships (Trix with partners opposite)."""
        return self.kind == "trix" and self.options.get("partnership") is not None

    @property
    def current(self) -> StoredRound | None:
        """The last round seated, or None before any."""
        return self.rounds[-1] if self.rounds else None

    @property
    def next_number(self) -> int:
        """The number the next round seated will have."""
        return len(self.rounds) + 1

    @property
    def finished(self) -> bool:
        """Whether every planned round has been played and the last is over."""
        current = self.current
        return current is not None and current.number >= self.rounds_planned and current.over

    def reopen_refusal(self, number: int) -> str | None:
        """Why round ``number`` cannot be reopened, or None when it can
        (docs/club-nights.md, "Reopening a round"): "not_seated" no such round;
        "next_seated" a later round is seated (its players sit at its tables);
        "over" every table's game is over with every deal entered, so there is nothing
        left to play on (closed or over by itself); "open" the round is not closed."""
        if not 1 <= number <= len(self.rounds):
            return "not_seated"
        if number < len(self.rounds):
            return "next_seated"
        round_ = self.rounds[number - 1]
        if not round_.playable:
            return "over"
        if not round_.closed:
            return "open"
        return None

    def stay_refusal(self, name: str) -> str | None:
        """Why ``name``, marked as leaving, cannot be taken back, or None when they can
        (docs/club-nights.md, "Late arrivals and leavers"): "unknown" not of the night;
        "staying" not marked as leaving; "gone" the round after their last is seated
        (they come back as a late arrival)."""
        player = self.player(name)
        if player is None:
            return "unknown"
        if player.until_round is None:
            return "staying"
        if player.until_round < len(self.rounds):
            return "gone"
        return None

    def present(self, number: int) -> tuple[str, ...]:
        """The names there for round ``number`` (seated or sitting out), in the order
        they were added."""
        return tuple(p.name for p in self.players if p.present(number))

    def player(self, name: str) -> NightPlayer | None:
        """The night's player called ``name`` (any case), or None."""
        key = name_key(name)
        return next((p for p in self.players if name_key(p.name) == key), None)

    @property
    def low_wins(self) -> bool:
        """Whether the lowest total is best (reversed Trix)."""
        rules = get_rules(self.kind)
        return rules.low_wins(rules.parse_options(self.options))

    def standing(self) -> tuple[club.StandingRow, ...]:
        """The night's standing as it stands (club.standing; docs/club-nights.md, "The
        standing"): every table of every round as the night counts it, the rounds sat
        out; a player of the night yet to play a round is not in it. A later round still
        open with no deal at any table counts nothing yet (only closing it counts its
        tables level); round 1 counts from the start, everyone level, so that the
        standing lists the night's players before its first deal."""
        rounds = [round_ for round_ in self.rounds if round_.begun or round_.number == 1]
        results = [table.result() for round_ in rounds for table in round_.tables]
        sat_out = {round_.number: round_.sitting_out for round_ in rounds if round_.sitting_out}
        return club.standing(results, sat_out, ranking=self.ranking, low_wins=self.low_wins,
                             players=[p.name for p in self.players])


def night_file(night: StoredNight) -> NightFile:
    """The night as its file holds it (docs/night-file.md): each table's whole game file
    (players in seat order), ``counted`` for a round closed early, a round over by itself
    written as closed. Raises RuleError when a table's stored deals no longer fit the
    rules (its game file cannot be written either)."""
    rules = get_rules(night.kind)
    rounds = tuple(NightRound(
        number=round_.number,
        tables=tuple(NightTable(table.number, table.game.game_file(), table.counted if round_.closed_early else None)
                     for table in round_.tables),
        sitting_out=round_.sitting_out, closed=round_.over, closed_early=round_.closed_early)
        for round_ in night.rounds)
    return NightFile(kind=night.kind, options=rules.parse_options(night.options),
                     rounds_planned=night.rounds_planned, ranking=night.ranking, seating=night.seating,
                     seed=night.seed, players=night.players, rounds=rounds, name=night.name)


def seatings(rounds: Sequence[StoredRound]) -> list[club.Seating]:
    """The seatings of ``rounds``, for club.seat_round's ``earlier``."""
    return [round_.seating() for round_ in rounds]
