"""What an organiser does with a club night (issue 20): start it and seat round 1, seat
the next round, close a round (early: unfinished games count as they stand), add a late
arrival, mark a leaver, import a night file. Plain functions taking the database and
plain values, returning a result (never words or pages: the views choose those), as
actions.py does for a game. The rules they follow: docs/club-nights.md; the seating is
club.seat_round's, the standing night_records'.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from . import club, night_store, ratings
from .inputs import name_key
from .night_records import TABLE_SIZE, StoredNight, StoredTable, seatings
from .nightfile import read_night
from .rules import RuleError


@dataclass(frozen=True)
class NightStarted:
    """The night stored, round 1 seated: ``night_id``."""

    night_id: int


@dataclass(frozen=True)
class NightRefused:
    """Nothing stored: ``reason`` a translated message; ``field`` the form field it
    belongs beside ("players", "rounds", or None)."""

    reason: str
    field: str | None = None


@dataclass(frozen=True)
class Seated:
    """Round ``number`` seated (``again``: it was seated already, by this tap's twin)."""

    number: int
    again: bool = False


@dataclass(frozen=True)
class NotOver:
    """The current round ``number`` is not over: its ``unfinished`` tables."""

    number: int
    unfinished: tuple[StoredTable, ...]


@dataclass(frozen=True)
class NoMoreRounds:
    """Every planned round has been seated."""

    planned: int


@dataclass(frozen=True)
class TooFew:
    """Fewer players present for round ``number`` than one table needs."""

    number: int
    present: int
    size: int


@dataclass(frozen=True)
class RoundClosed:
    """Round ``number`` closed; ``early`` with ``unfinished`` tables counted as they
    stand; ``again``: it was closed already."""

    number: int
    early: bool
    unfinished: tuple[StoredTable, ...] = ()
    again: bool = False


@dataclass(frozen=True)
class Arrived:
    """``name`` joins from round ``from_round``; ``again``: was on the night already."""

    name: str
    from_round: int
    again: bool = False


@dataclass(frozen=True)
class Leaving:
    """``name`` plays until round ``until_round`` (its end) and is not seated after;
    ``removed``: a late arrival not yet seated, taken off the night."""

    name: str
    until_round: int
    removed: bool = False


@dataclass(frozen=True)
class NightImported:
    """The night file stored whole: ``night_id``."""

    night_id: int


@dataclass(frozen=True)
class NightAlreadyStored:
    """Nothing stored: the group has this night already (``night_id``)."""

    night_id: int


@dataclass(frozen=True)
class NightProblems:
    """The night file refused whole, nothing stored: every problem found, each naming
    where it is (``field``: "rounds[1].tables[0].game.players")."""

    problems: tuple[RuleError, ...]


StartResult = NightStarted | NightRefused
SeatResult = Seated | NotOver | NoMoreRounds | TooFew
ArriveResult = Arrived | NightRefused
LeaveResult = Leaving | NightRefused
NightImportResult = NightImported | NightAlreadyStored | NightProblems


def start_night(db: sqlite_utils.Database, group_id: int, *, kind: str, options: Mapping[str, Any],
                players: Sequence[str], rounds: int, ranking: str, seating: str, name: str | None = None,
                nonce: str | None = None, seed: int | None = None) -> StartResult:
    """Start a night of ``kind`` (``options``: the game file's options dict, checked by
    the caller) with ``players`` present and seat round 1 (club.seat_round: at random, or
    with ``seating`` "ranking" in the order of the group's rating ranking over all its
    games, :func:`ratings.ranking_order`: best first, the unrated last), every table an
    ordinary game of the group. ``seed``: the night's draw (None: a new random one).
    Refused (:class:`NightRefused`, field "players") with fewer players than one table
    or a name twice. The same form token ``nonce`` again: the night it started."""
    size = TABLE_SIZE[kind]
    seed = secrets.randbelow(2 ** 31) if seed is None else seed
    order = ratings.ranking_order(db, group_id, list(players)) if seating == "ranking" else None
    try:
        first = club.seat_round(list(players), size, seed=seed + 1, order=order,
                                partners=kind == "trix" and options.get("partnership") is not None)
    except club.SeatingError as error:
        return NightRefused(str(error), "players")
    settings = night_store.NightSettings(kind=kind, options=options, rounds_planned=rounds, ranking=ranking,
                                         seating=seating, seed=seed, name=name)
    return NightStarted(night_store.create_night(db, group_id, settings, players, first, nonce=nonce))


def seat_next_round(db: sqlite_utils.Database, night: StoredNight) -> SeatResult:
    """Seat the next round of ``night`` (as read): refused while the current round is
    not over (:class:`NotOver`: close it first), after the planned rounds
    (:class:`NoMoreRounds`), or with fewer players present than a table
    (:class:`TooFew`). The seating: club.seat_round with the night's draw (its seed plus
    the round's number, so two taps at once seat the same way; the second finds it
    seated: ``again``), the earlier rounds' meetings, the present players (late arrivals
    from their round, leavers no longer). The current round is closed (not early)."""
    current = night.current
    if current is not None and not current.over:
        return NotOver(current.number, current.unfinished)
    number = night.next_number
    if number > night.rounds_planned:
        return NoMoreRounds(night.rounds_planned)
    present = night.present(number)
    if len(present) < night.size:
        return TooFew(number, len(present), night.size)
    seating = club.seat_round(list(present), night.size, seed=night.seed + number, earlier=seatings(night.rounds),
                              partners=night.partners)
    try:
        night_store.seat_round(db, night.id, number, seating)
    except night_store.RoundSeatedError:
        return Seated(number, again=True)
    return Seated(number)


def close_round(db: sqlite_utils.Database, night: StoredNight) -> RoundClosed | None:
    """Close ``night``'s current round (None: no round yet). Its tables whose game is not
    over count as they stand (``early``): their deals now are those the night counts, and
    deals added later change nothing (docs/club-nights.md, "A round closed early")."""
    current = night.current
    if current is None:
        return None
    unfinished = current.unfinished
    try:
        night_store.close_round(db, night.id, current.number, early=bool(unfinished))
    except night_store.RoundClosedError:
        return RoundClosed(current.number, current.closed_early, current.unfinished, again=True)
    return RoundClosed(current.number, bool(unfinished), unfinished)


def arrive(db: sqlite_utils.Database, night: StoredNight, name: str) -> ArriveResult:
    """A late arrival: ``name`` (checked by the caller) joins from the next round
    (docs/club-nights.md, "Late arrivals and leavers"). A player of the night already
    (the same name twice, five taps at once: checked inside the write) is
    :class:`Arrived` ``again``, unchanged. Refused (:class:`NightRefused` "no_next_round",
    field "name") when every planned round is seated: there is no round to join."""
    try:
        added = night_store.add_player(db, night.id, name)
    except night_store.NoNextRoundError:
        return NightRefused("no_next_round", "name")
    return Arrived(added.name, added.from_round, again=added.again)


def leave(db: sqlite_utils.Database, night: StoredNight, name: str) -> LeaveResult:
    """A leaver: ``name`` plays out the current round and is not seated after it
    (docs/club-nights.md, "Late arrivals and leavers"); a late arrival not yet seated is
    taken off the night. Refused (field "player") for a name not of the night."""
    found = night.player(name)
    if found is None:
        return NightRefused("unknown", "player")
    until = night.next_number - 1
    if until < found.from_round:  # a late arrival who leaves before playing: never of the night
        night_store.set_leaving(db, night.id, found.name, None)
        return Leaving(found.name, until, removed=True)
    night_store.set_leaving(db, night.id, found.name, until)
    return Leaving(found.name, until)


def import_night(db: sqlite_utils.Database, raw: str | bytes, group_id: int, *, nonce: str | None = None,
                 max_deals: int | None = None) -> NightImportResult:
    """Store night file ``raw`` (docs/night-file.md) in group ``group_id``: checked whole
    first (nightfile.read_night: each table's game as its own game file, at most
    ``max_deals`` deals; the seating around them), then stored in one transaction
    (night_store.import_night). Any problem: :class:`NightProblems`, nothing stored; the
    night in the group already (the same game, draw and players): :class:`NightAlreadyStored`,
    nothing stored, so its games never count twice."""
    read = read_night(raw, max_deals=max_deals)
    if isinstance(read, list):
        return NightProblems(tuple(read))
    try:
        return NightImported(night_store.import_night(db, read, group_id, nonce=nonce))
    except night_store.NightStoredError as twin:
        return NightAlreadyStored(twin.night_id)


@dataclass(frozen=True)
class SeasonNight:
    """A night of the season: ``night`` as read, ``standing`` as it stands
    (night_records.StoredNight.standing)."""

    night: StoredNight
    standing: tuple[club.StandingRow, ...]

    @property
    def winners(self) -> tuple[str, ...]:
        """Who finished first in the night's standing (more than one: a shared first)."""
        return tuple(row.player for row in self.standing if row.rank == 1 and row.rounds)

    @property
    def rounds(self) -> int:
        """The rounds seated."""
        return len(self.night.rounds)


@dataclass(frozen=True)
class Season:
    """The season of a chosen period: its ``nights`` (the latest first) and the season
    ``table`` across them (club.season_table), best first."""

    nights: tuple[SeasonNight, ...]
    table: tuple[club.SeasonRow, ...]

    def of(self, name: str) -> list[tuple[SeasonNight, club.StandingRow]]:
        """The nights ``name`` played in (at a table or sitting out), oldest first, each
        with their row of its standing: what their season line adds up. The name is
        matched as players' names are (inputs.name_key)."""
        out = []
        key = name_key(name)
        for season_night in reversed(self.nights):
            row = next((row for row in season_night.standing if name_key(row.player) == key and row.rounds), None)
            if row is not None:
                out.append((season_night, row))
        return out


def season(db: sqlite_utils.Database, group_id: int, *, since: str | None = None, before: str | None = None,
           kind: str | None = None) -> Season:
    """The group's season: its nights started at or after ``since`` and before ``before``
    (UTC ISO 8601; None: no bound) and of ``kind`` when given, each with its standing as
    it stands, and the season table across them (docs/club-nights.md, "The season").
    A night with no deal at any table yet counts nothing (its players would all be level
    first) and is left out of both."""
    nights = []
    for listed in night_store.list_nights(db, group_id, since=since, before=before, kind=kind):
        night = night_store.get_night(db, listed.id, group_id)
        if any(table.deals for round_ in night.rounds for table in round_.tables):
            nights.append(SeasonNight(night, night.standing()))
    return Season(tuple(nights), club.season_table([n.standing for n in nights]))
