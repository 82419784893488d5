"""What an organiser does with a club night (issue 20): start it and seat round 1, seat
the next round, close a round (early: unfinished games count as they stand), reopen a
round closed by mistake, add a late arrival (a leaver back), mark a leaver and take them
back, import a night file. Plain functions taking the database and
plain values, returning a result (never words or pages: the views choose those), as
actions.py does for a game. The rules they follow: docs/club-nights.md; the seating is
club.seat_round's, the standing night_records'.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlite_utils

from . import club, night_store, ratings, store
from .actions import SAME_START
from .inputs import name_key
from .night_records import TABLE_SIZE, StoredNight, StoredTable, night_file, seatings
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
    """``name`` joins from round ``from_round``; ``again``: was on the night already;
    ``back``: a leaver of the night, back from that round."""

    name: str
    from_round: int
    again: bool = False
    back: bool = False


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
    """Nothing stored: the group has this night already (``night_id``). ``differs``:
    the file is not the night as stored (a copy written later, or earlier); ``more``:
    how many deals more the file's tables hold than the stored night's (a later copy:
    the one here is older; 0 or less when not)."""

    night_id: int
    differs: bool = False
    more: int = 0


@dataclass(frozen=True)
class NightProblems:
    """The night file refused whole, nothing stored: every problem found, each naming
    where it is (``field``: "rounds[1].tables[0].game.players")."""

    problems: tuple[RuleError, ...]


@dataclass(frozen=True)
class MovedOn:
    """Nothing changed: the page showed round ``shown``, but the night's last round
    seated is ``current`` now (a page left open while another phone moved the night on;
    docs/club-nights.md, "Pages left open")."""

    shown: int
    current: int


@dataclass(frozen=True)
class NightStartedAlready:
    """Nothing stored: the same night (game, settings, players) was started at
    ``created_at`` (UTC, ISO 8601) as night ``night_id``, within :data:`SAME_START`, and
    nobody has dealt at it yet: the phone is asked first (Back, then Start again)."""

    night_id: int
    created_at: str


StartResult = NightStarted | NightRefused | NightStartedAlready
SeatResult = Seated | NotOver | NoMoreRounds | TooFew | MovedOn
ArriveResult = Arrived | NightRefused
LeaveResult = Leaving | NightRefused | MovedOn
NightImportResult = NightImported | NightAlreadyStored | NightProblems


def start_night(db: sqlite_utils.Database, group_id: int, *, kind: str, options: Mapping[str, Any],
                players: Sequence[str], rounds: int, ranking: str, seating: str, name: str | None = None,
                nonce: str | None = None, seed: int | None = None, ask_first: bool = False) -> StartResult:
    """Start a night of ``kind`` (``options``: the game file's options dict, checked by
    the caller) with ``players`` present and seat round 1 (club.seat_round: at random, or
    with ``seating`` "ranking" in the order of the group's rating ranking over all its
    games, :func:`ratings.ranking_order`: best first, the unrated last), every table an
    ordinary game of the group. ``seed``: the night's draw (None: a new random one).
    Refused (:class:`NightRefused`, field "players") with fewer players than one table
    or a name twice. The same form token ``nonce`` again: the night it started. The same
    night started within :data:`SAME_START` and not played yet (night_store.just_started)
    is :class:`NightStartedAlready` when ``ask_first`` (the start form, until the phone
    chose "Start another night": views/nights.py)."""
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
    since = (datetime.now(UTC) - SAME_START).isoformat(timespec="seconds") if ask_first else None
    try:
        return NightStarted(night_store.create_night(db, group_id, settings, players, first, nonce=nonce,
                                                     started_since=since))
    except night_store.NightStartedAlreadyError as twin:
        return NightStartedAlready(twin.night_id, twin.created_at)


class _Refused(Exception):
    """A seating refused inside the write: ``result`` says why."""

    def __init__(self, result: NotOver | NoMoreRounds | TooFew) -> None:
        super().__init__(result)
        self.result = result


def _seating(night: StoredNight, number: int, planned: tuple[tuple[str, ...], club.Seating] | None = None
             ) -> club.Seating:
    """Round ``number`` of ``night`` (as it is inside the write) as club.seat_round seats
    it; raises _Refused while the round before is not over, after the planned rounds, or
    with fewer players present than a table. ``planned``: (the players present, their
    seating) worked out before the write, used again when the same players are present
    (the draw and the earlier rounds are the same: the seating would be too), so the
    write lock is not held while it is worked out again."""
    current = night.current
    if current is not None and not current.over:
        raise _Refused(NotOver(current.number, current.unfinished))
    if number > night.rounds_planned:
        raise _Refused(NoMoreRounds(night.rounds_planned))
    present = night.present(number)
    if len(present) < night.size:
        raise _Refused(TooFew(number, len(present), night.size))
    if planned is not None and planned[0] == present:
        return planned[1]
    return club.seat_round(list(present), night.size, seed=night.seed + number, earlier=seatings(night.rounds),
                           partners=night.partners)


def seat_next_round(db: sqlite_utils.Database, night: StoredNight, number: int | None = None) -> SeatResult:
    """Seat round ``number``, the one the page offered (None: the next of ``night`` as
    read). Already seated, inside the write (an old page, a double tap, two organisers):
    :class:`Seated` ``again``, nothing stored, never the round after it; a number beyond
    the next round: :class:`MovedOn`. Refused while the current round is
    not over (:class:`NotOver`: close it first), after the planned rounds
    (:class:`NoMoreRounds`), or with fewer players present than a table
    (:class:`TooFew`); each checked again on the night as it is inside the write, so a
    round reopened or a leaver taken back at the same instant is seen whole or waits. The
    seating: club.seat_round with the night's draw (its seed plus the round's number, so
    two taps at once seat the same way; the second finds it seated: ``again``), the
    earlier rounds' meetings, the present players (late arrivals from their round,
    leavers no longer). The current round is closed (not early)."""
    number = night.next_number if number is None else number
    if number < night.next_number:
        return Seated(number, again=True)
    if number > night.next_number:
        return MovedOn(number, len(night.rounds))
    try:
        planned = (night.present(number), _seating(night, number))  # refused as read: nothing to write
        night_store.seat_round(db, night.id, number, lambda inside: _seating(inside, number, planned))
    except _Refused as refused:
        return refused.result
    except night_store.RoundSeatedError:
        return Seated(number, again=True)
    except night_store.NightMovedOnError as moved:
        return MovedOn(moved.shown, moved.current)
    return Seated(number)


def close_round(db: sqlite_utils.Database, night: StoredNight, number: int | None = None) -> RoundClosed | None:
    """Close round ``number`` of ``night``, the round the page named (None: the current
    round as read; None returned: no such round). Its tables whose game is not over (read
    inside the write) count as they stand (``early``): their deals now are those the
    night counts, and deals added later change nothing (docs/club-nights.md, "A round
    closed early"). Closed already, inside the write (an old page, two phones at once):
    ``again``, nothing changed, and never the round after it ("Pages left open")."""
    current = night.current
    if current is None:
        return None
    number = current.number if number is None else number
    if not 1 <= number <= len(night.rounds):
        return None
    round_ = night.rounds[number - 1]
    try:
        unfinished = night_store.close_round(db, night.id, number)
    except night_store.RoundClosedError:
        return RoundClosed(number, round_.closed_early, round_.unfinished, again=True)
    return RoundClosed(number, bool(unfinished), unfinished)


@dataclass(frozen=True)
class Reopened:
    """Round ``number`` reopened: its tables are played on; ``added`` the tables whose
    deals entered since the close now count too (table number, deals counted before,
    deals now)."""

    number: int
    added: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True)
class ReopenRefused:
    """Round ``number`` not reopened, nothing changed: ``reason`` as
    night_records.StoredNight.reopen_refusal ("next_seated", "open", "over",
    "not_seated")."""

    number: int
    reason: str


def reopen_round(db: sqlite_utils.Database, night: StoredNight, number: int) -> Reopened | ReopenRefused:
    """Reopen ``night``'s closed round ``number``, closed by mistake (docs/club-nights.md,
    "Reopening a round"): only the last round seated, only while the next is not seated,
    and only while some table's game is not over; checked inside the write
    (night_store.reopen_round), so reopening at the instant the next round is seated is
    refused or seats nothing until the round is over again."""
    try:
        before = night_store.reopen_round(db, night.id, number)
    except night_store.ReopenRefusedError as refused:
        return ReopenRefused(number, refused.reason)
    added = tuple((t.number, t.deals, len(t.game.deals)) for t in before.tables
                  if t.counted is not None and t.deals < len(t.game.deals))
    return Reopened(number, added)


@dataclass(frozen=True)
class Staying:
    """``name`` no longer leaves: seated again from round ``from_round``."""

    name: str
    from_round: int


@dataclass(frozen=True)
class StayRefused:
    """Nothing changed: ``reason`` as night_records.StoredNight.stay_refusal ("gone":
    the round after their last, ``until_round``, is seated; "staying"; "unknown");
    ``seated``: how many rounds are seated now (the latest: the one seated since)."""

    name: str
    reason: str
    until_round: int | None = None
    seated: int = 0


def stay(db: sqlite_utils.Database, night: StoredNight, name: str, shown_round: int | None = None
         ) -> Staying | StayRefused | MovedOn:
    """Take back a leaver: ``name`` stays and is seated again from the next round, as
    long as it is not seated yet (checked inside the write); after that they come back
    as a late arrival (docs/club-nights.md, "Late arrivals and leavers"). A page that
    showed round ``shown_round`` while another is the last seated now: :class:`MovedOn`,
    nothing changed."""
    try:
        shown, next_round = night_store.set_staying(db, night.id, name, shown_round)
    except night_store.StayRefusedError as refused:
        found = night.player(name)
        return StayRefused(found.name if found else name, refused.reason, refused.until_round, refused.seated)
    except night_store.NightMovedOnError as moved:
        return MovedOn(moved.shown, moved.current)
    return Staying(shown, next_round)


def arrive(db: sqlite_utils.Database, night: StoredNight, name: str) -> ArriveResult:
    """A late arrival: ``name`` (checked by the caller) joins from the next round
    (docs/club-nights.md, "Late arrivals and leavers"). A player of the night already
    (the same name twice, five taps at once: checked inside the write) is
    :class:`Arrived` ``again``, unchanged; a leaver of the night is ``back``, away for
    the rounds seated since they left. Refused (:class:`NightRefused` "no_next_round",
    field "name") when every planned round is seated: there is no round to join."""
    try:
        added = night_store.add_player(db, night.id, name)
    except night_store.NoNextRoundError:
        return NightRefused("no_next_round", "name")
    return Arrived(added.name, added.from_round, again=added.again, back=added.back)


def leave(db: sqlite_utils.Database, night: StoredNight, name: str, shown_round: int | None = None
          ) -> LeaveResult:
    """A leaver: ``name`` plays out the current round (the last seated, read inside the
    write) and is not seated after it (docs/club-nights.md, "Late arrivals and
    leavers"); a late arrival not yet seated is taken off the night. Refused (field
    "player") for a name not of the night; :class:`MovedOn`, nothing changed, when the
    page showed round ``shown_round`` and another is the last seated now (the organiser
    chooses again: "Pages left open")."""
    try:
        done = night_store.set_leaving(db, night.id, name, shown_round)
    except night_store.NightMovedOnError as moved:
        return MovedOn(moved.shown, moved.current)
    if done is None:
        return NightRefused("unknown", "player")
    return Leaving(done.name, done.until_round, removed=done.removed)


def import_night(db: sqlite_utils.Database, raw: str | bytes, group_id: int, *, nonce: str | None = None,
                 max_deals: int | None = None) -> NightImportResult:
    """Store night file ``raw`` (docs/night-file.md) in group ``group_id``: checked whole
    first (nightfile.read_night: each table's game as its own game file, at most
    ``max_deals`` deals; the seating around them), then stored in one transaction
    (night_store.import_night). Any problem: :class:`NightProblems`, nothing stored; the
    night in the group already (the same game, draw and players): :class:`NightAlreadyStored`,
    nothing stored, so its games never count twice, saying whether the file is another
    copy of it (a later one: more deals)."""
    read = read_night(raw, max_deals=max_deals)
    if isinstance(read, list):
        return NightProblems(tuple(read))
    try:
        return NightImported(night_store.import_night(db, read, group_id, nonce=nonce))
    except night_store.NightStoredError as twin:
        theirs = read.to_dict()
        try:
            mine = night_file(night_store.get_night(db, twin.night_id)).to_dict()
        except RuleError:  # a table's stored deal no longer fits the rules: not the file, surely
            return NightAlreadyStored(twin.night_id, differs=True)
        if mine == theirs:
            return NightAlreadyStored(twin.night_id)
        return NightAlreadyStored(twin.night_id, differs=True, more=_deals_in(theirs) - _deals_in(mine))


def _deals_in(night: Mapping[str, Any]) -> int:
    """How many deals the tables of night file dict ``night`` hold, all rounds."""
    return sum(len(table["game"]["deals"]) for round_ in night["rounds"] for table in round_["tables"])


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


# ------------------------------------------------------------------------- deleting a night


@dataclass(frozen=True)
class NightDeleted:
    """The night was deleted with its tables' games (``again``: deleted already, by a double
    tap or another phone: nothing more written)."""

    night: StoredNight
    again: bool = False


@dataclass(frozen=True)
class NightRestored:
    """The night is back with its tables' games (``again``: back already)."""

    night: StoredNight
    again: bool = False


@dataclass(frozen=True)
class NightTwinInPlay:
    """Nothing restored: a table's game with deals is in play twice by now (``game_id``,
    imported again since the night was deleted); back, it would count twice."""

    game_id: str


@dataclass(frozen=True)
class SameNightInPlay:
    """Nothing restored: the same night (its draw, game and players) is in play by now
    as ``night_id`` (its file imported again since this one was deleted); back, every
    table of it would count twice."""

    night_id: int


@dataclass(frozen=True)
class NightPlayedMeanwhile:
    """Nothing deleted: deals were entered (or deleted) at the night's tables since the
    question was shown; ``deals`` in play now."""

    night: StoredNight
    deals: int


def delete_night(db: sqlite_utils.Database, night_id: int, group_id: int, expected_deals: int | None = None
                 ) -> NightDeleted | NightPlayedMeanwhile:
    """Delete a night started by mistake, with its tables' games, in one transaction
    (night_store.delete_night): :class:`NightDeleted`; :class:`NightPlayedMeanwhile` when
    its tables no longer hold ``expected_deals`` deals (what the question showed), checked
    inside the write. Raises night_store.NightNotFoundError for no such night in the group."""
    try:
        return NightDeleted(night_store.delete_night(db, night_id, group_id, expected_deals))
    except night_store.NightDeletedError:
        return NightDeleted(night_store.get_night(db, night_id, group_id), again=True)
    except night_store.NightChangedError as changed:
        return NightPlayedMeanwhile(night_store.get_night(db, night_id, group_id), changed.deals)


def restore_night(db: sqlite_utils.Database, night_id: int, group_id: int) -> NightRestored | NightTwinInPlay | SameNightInPlay:
    """Put a deleted night back with its tables' games, in one transaction
    (night_store.restore_night). Raises night_store.NightNotFoundError for no such night
    in the group."""
    try:
        return NightRestored(night_store.restore_night(db, night_id, group_id))
    except night_store.NightNotDeletedError:
        return NightRestored(night_store.get_night(db, night_id, group_id), again=True)
    except night_store.NightStoredError as twin:
        return SameNightInPlay(twin.night_id)
    except store.DuplicateGameError as twin:
        return NightTwinInPlay(twin.game_id)
