"""Every read and write of players, games and deals (SQLite through sqlite-utils).

No Flask here: each function takes the ``sqlite_utils.Database``. What is stored is what
the table saw — deal entries exactly as the game file has them — never points; callers
score on read (gamefile.GameFile.score), so a rules fix corrects old games too.

The stored game's types (StoredGame, StoredDeal, Change) are records.py's: plain data, no
database. Every write records what it changed in ``changes`` (:class:`Change`) in the same
transaction, so a game's history is complete and is replayed, never stored as points.
What the layers above keep from the games (the lists' summaries) they keep through
:func:`after_write`, called inside each write's transaction: the store imports none of them.
Deals are deleted softly (``deleted_at``): every read here skips deleted deals, and
:func:`restore_deal` puts one back in its place. Games too (issue 18, part 1): every list
here skips a deleted game, :func:`get_game` raises :class:`GameDeletedError` for one, and
:func:`restore_game` puts it back whole.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import sqlite_utils

from . import inputs
from .gamefile import MAX_DEALS, GameFile, continues, kin_key, same_game_key
from .records import Change, SeatTaken, StoredDeal, StoredGame, fingerprint, with_deal_back
from .records import (
    NotFoundError as NotFoundError,  # what the store raises, too (store.NotFoundError)
)
from .rules import DealError, GameScore, RuleError, get_rules
from .rules.common import _

try:
    import fcntl
except ImportError:  # Windows: writers wait in SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]


class NotDeletedError(LookupError):
    """The deal to restore is in play already (restored meanwhile, or a double tap)."""


class AlreadyDeletedError(NotFoundError):
    """The deal to delete is deleted already (a double tap, or another phone was quicker);
    ``number`` is the 1-based number it had in play."""

    def __init__(self, number: int) -> None:
        super().__init__(f"deal {number} is deleted already")
        self.number = number


class GameDeletedError(NotFoundError):
    """The game was deleted (softly: :func:`restore_game` puts it back): ``game`` is the
    game as it was when deleted (its ``deleted_at`` set). Raised by :func:`get_game`, so
    every read and write of one game refuses a deleted one; a subclass of NotFoundError,
    so what does not care why a game is gone treats it as gone."""

    def __init__(self, game: StoredGame) -> None:
        super().__init__(f"game {game.id} was deleted at {game.deleted_at}")
        self.game = game


class GameNotDeletedError(LookupError):
    """The game to restore is in play already (restored meanwhile on another phone, or a
    double tap): nothing was written."""


class StaleError(Exception):
    """The game changed after the phone read it (at version ``seen``): nothing was written.

    ``game``: the game as it is now (its ``version`` is what the phone sees next);
    ``since``: the changes made meanwhile, oldest first (:class:`Change`); ``set_back``:
    the version the phone read is one the game no longer has (:func:`set_back`).
    """

    def __init__(self, game: StoredGame, since: list[Change], set_back: bool = False) -> None:
        super().__init__(f"game {game.id} changed since the phone read it")
        self.game = game
        self.since = since
        self.set_back = set_back


class DealChangedError(Exception):
    """The deal was changed meanwhile on another phone (its fingerprint is no longer the
    one the form was opened with): nothing was written. ``deal`` is the deal as it is now."""

    def __init__(self, deal: StoredDeal) -> None:
        super().__init__(f"deal {deal.id} changed meanwhile")
        self.deal = deal


class StartedAlreadyError(Exception):
    """The same game (kind, players, settings) was started in the group a moment ago and
    has no deal yet: it is ``game``; nothing was written (:func:`create_game`'s
    ``started_since``)."""

    def __init__(self, game: StoredGame) -> None:
        super().__init__(f"the same game was started as {game.id}")
        self.game = game


class DuplicateGameError(Exception):
    """An identical game (same kind, players, first dealer, settings and deals) is stored
    already as ``game_id``, or (``continued``) the same game played on since: nothing was
    written."""

    def __init__(self, game_id: str, continued: bool = False) -> None:
        super().__init__(f"the same game is stored as {game_id}")
        self.game_id, self.continued = game_id, continued


class NightTableError(Exception):
    """The game is table ``table`` of round ``round`` of club night ``night_id``: its
    players and settings are the night's, and it is removed with its night or not at all
    (docs/club-nights.md, "A table's game"). Nothing was written."""

    def __init__(self, night_id: int, round_: int, table: int) -> None:
        super().__init__(f"table {table} of round {round_} of night {night_id}")
        self.night_id = night_id
        self.round = round_
        self.table = table


def _refuse_night_table(db: sqlite_utils.Database, game_id: str) -> None:
    """Raise NightTableError when game ``game_id`` is a table of a club night (read
    inside the caller's write transaction)."""
    row = db.execute("select night_id, round, number from night_tables where game_id = ?", [game_id]).fetchone()
    if row is not None:
        raise NightTableError(int(row[0]), int(row[1]), int(row[2]))


class DiskFullError(Exception):
    """The database could not be written, so nothing was (the transaction was rolled
    back): its disk is full (SQLite's SQLITE_FULL), it is read-only (SQLITE_READONLY: a
    read-only file system, or a file the server may not write), or the disk failed the
    write (SQLITE_IOERR). Reads still work; a write succeeds again by itself once there is
    space (no restart).

    ``reason``: "full", "read-only" or "i/o"; ``path``: the database file ("" when
    unknown); ``detail``: SQLite's own words ("database or disk is full")."""

    def __init__(self, reason: str, path: str, detail: str) -> None:
        super().__init__(f"{path or 'the database'} could not be written: {detail}")
        self.reason = reason
        self.path = path
        self.detail = detail


#: SQLite's primary result codes of a write the disk refused (sqlite.org/rescode.html)
_DISK_REFUSALS = {13: "full", 8: "read-only", 10: "i/o"}  # SQLITE_FULL, _READONLY, _IOERR


def disk_full_error(db: sqlite_utils.Database | None, error: BaseException,
                    path: str | None = None) -> DiskFullError | None:
    """``error`` as a :class:`DiskFullError` when it is SQLite refusing a write for want
    of disk (full, read-only, I/O error), naming ``db``'s file (or ``path``, without a
    connection); None for any other error."""
    code = getattr(error, "sqlite_errorcode", None)
    if not isinstance(error, sqlite3.DatabaseError) or code is None or code & 0xFF not in _DISK_REFUSALS:
        return None
    path = "" if path is None or path == ":memory:" else path
    if db is not None:
        with suppress(sqlite3.Error):  # a read: works on a full disk
            path = db.execute("PRAGMA database_list").fetchone()[2] or ""
    reason = _DISK_REFUSALS[code & 0xFF]
    if reason == "i/o" and path and _no_room(path):
        reason = "full"  # SQLite says "disk I/O error" when it cannot make its -wal/-shm room
    return DiskFullError(reason, path, str(error))


def _no_room(path: str) -> bool:
    """Whether the file system of ``path`` has (next to) no room left for a write."""
    try:
        disk = os.statvfs(os.path.dirname(path) or ".")
    except (OSError, AttributeError):  # no statvfs on Windows
        return False
    return disk.f_bavail * disk.f_frsize < 64 * 1024


#: One writer at a time per database file in this process (see :func:`writing`)
_writers: defaultdict[str, threading.RLock] = defaultdict(threading.RLock)
_writers_lock = threading.Lock()
#: (process id, database path) → the open lock file of that database in this process
_lock_files: dict[tuple[int, str], int] = {}
_held = threading.local()  # path → how deep this thread is in _writer (an RLock re-entered)


def _lock_file(path: str) -> int | None:
    """This process's descriptor of ``<database>-lock`` (made on first use, readable by
    its owner only), or None where there is none to have: a database in memory, no
    ``fcntl`` (Windows), or a folder that refuses the file (the busy timeout then waits
    alone, as before). A process forked from another opens its own: a lock taken through
    an inherited descriptor would be shared with the parent, not held against it."""
    if fcntl is None or path.startswith(":memory:"):
        return None
    key = (os.getpid(), path)
    fd = _lock_files.get(key)
    if fd is None:
        try:
            fd = os.open(f"{path}-lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError:
            return None
        _lock_files[key] = fd
    return fd


@contextmanager
def _writer(db: sqlite_utils.Database) -> Iterator[None]:
    """Hold this database's write turn: first among this process's threads (a lock of
    its own), then among processes (``flock`` on ``<database>-lock``, which blocks in the
    kernel and wakes the next writer the moment the last one is done)."""
    path = db.conn.execute("PRAGMA database_list").fetchone()[2] or f":memory:{id(db.conn)}"
    with _writers_lock:
        turn = _writers[path]
    with turn:
        depth = getattr(_held, "depths", {})
        _held.depths = depth
        fd = _lock_file(path) if not depth.get(path) else None
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        depth[path] = depth.get(path, 0) + 1
        try:
            yield
        finally:
            depth[path] -= 1
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)


@contextmanager
def writing(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """A write transaction that takes the write lock at once (BEGIN IMMEDIATE), so two
    phones saving at the same moment wait for each other (busy timeout) instead of one
    failing with "database is locked" when its read turns into a write. A write the disk
    refuses (full, read-only) is rolled back whole and raised as :class:`DiskFullError`.

    Writers take their turn before SQLite is asked (:func:`_writer`): the threads of one
    process on a lock of their own, the processes of ``scorekeeper serve --workers N`` on
    a file lock beside the database. SQLite's own busy handler sleeps between tries,
    longer and longer (up to 100 ms a try): the writers of a busy server waiting there
    left the lock unused between tries, and one worker's threads, handing it on among
    themselves, kept another worker's writer out until its busy timeout ("database is
    locked", measured with bench/club.py at 200 tables). A writer's turn now comes the
    moment the last one is done; the busy timeout still covers other programs (a backup,
    the command line of an older version)."""
    outer = not db.conn.in_transaction
    if outer:
        with _writer(db), _transaction(db, outer) as written:
            yield written
        return
    with _transaction(db, outer) as written:
        yield written


@contextmanager
def _transaction(db: sqlite_utils.Database, outer: bool) -> Iterator[sqlite_utils.Database]:
    try:
        if not outer:
            with db.atomic():
                yield db
            return
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            if db.conn.in_transaction:  # SQLite may have rolled back a full disk's write itself
                db.conn.rollback()
            raise
        db.conn.commit()
    except sqlite3.DatabaseError as error:
        refused = disk_full_error(db, error)
        if refused is None:
            raise
        if outer and db.conn.in_transaction:
            db.conn.rollback()  # a COMMIT the disk refused may leave the transaction open
        raise refused from error


def now() -> str:
    """The time now, UTC, ISO 8601 to the second (what every stored time looks like)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


_now = now


def name_key(name: str) -> str:
    """The key under which a player's name is unique: invisible characters dropped,
    compatibility forms (full-width letters) folded, casefolded, spaces made one
    (inputs.name_key; migration m007_name_keys recomputes stored keys)."""
    return inputs.name_key(name)


# --- what the layers above keep up to date (wired by db.connect) ------------------------


@dataclass(frozen=True)
class Written:
    """One write of a game, as :func:`after_write`'s listeners get it, inside the write's
    transaction. ``game``, ``file`` and ``score``: the game as just written, parsed and
    scored by the write's own check (rules.GameScore), so a listener need not score it
    again; None when the write did not score the game it wrote (a listener reads and
    scores it then). ``left``: ids of players who may have just left the game (a renamed
    seat's old player)."""

    game_id: str
    game: StoredGame | None = None
    file: GameFile | None = None
    score: GameScore | None = None
    left: tuple[int, ...] = ()


#: A listener of :func:`after_write`: called with the database and the write
WriteListener = Callable[[sqlite_utils.Database, Written], None]

_listeners: list[WriteListener] = []
_default_group: Callable[[sqlite_utils.Database], int | None] | None = None


def after_write(listener: WriteListener) -> None:
    """Call ``listener(db, written)`` (:class:`Written`) after every write of a game,
    inside the write's transaction: what it writes is committed, or rolled back, with the
    write, and an error it raises undoes the write. Given again, it is still called once.
    This is how the lists' summaries are kept on every write without the store knowing
    them (db.connect registers summaries.refresh_written)."""
    if listener not in _listeners:
        _listeners.append(listener)


def default_group(finder: Callable[[sqlite_utils.Database], int | None]) -> None:
    """Let ``finder(db)`` say which group a game stored without one named goes into
    (:func:`create_game`'s ``group_id=None``): the only group's id (made if there is
    none), or None when there are several. db.connect sets groups.only_group_id; without
    a finder such a game is refused with NoGroupError."""
    global _default_group
    _default_group = finder


def _written(db: sqlite_utils.Database, game_id: str, game: StoredGame | None = None,
             file: GameFile | None = None, score: GameScore | None = None,
             left: Iterable[int] = ()) -> None:
    """Tell :func:`after_write`'s listeners of a write, inside its transaction: ``game``
    as just written with its ``file`` and ``score`` when the write scored it already.
    ``left``: players who may have left the game."""
    written = Written(game_id, game, file, score, tuple(left))
    for listener in _listeners:
        listener(db, written)


def _record(db: sqlite_utils.Database, game_id: str, now: str, action: str, *,
            deal_id: int | None = None, position: int | None = None,
            before: Any = None, after: Any = None, nonce: str | None = None) -> None:
    """Write one change (``nonce``: the form token that made it, kept for a settings
    change), and make it the game's group's version (groups.version); called inside the
    write's own transaction."""
    row = {
        "game_id": game_id, "at": now, "action": action, "deal_id": deal_id, "position": position,
        "before": None if before is None else json.dumps(before),
        "after": None if after is None else json.dumps(after),
    }
    if nonce:  # (a column since m009: a test's database migrated part-way has none)
        row["nonce"] = nonce
    change_id = db.table("changes").insert(row).last_pk
    db.execute("update groups set version = ? where id = (select group_id from games where id = ?)",
               [change_id, game_id])


def _player_id(db: sqlite_utils.Database, name: str, now: str, group_id: int) -> int:
    """The id of the group's player called ``name`` (any case), created if new."""
    name = " ".join(name.split())
    key = name_key(name)
    rows = list(db.table("players").rows_where("group_id = ? and name_key = ?", [group_id, key], limit=1))
    if rows:
        return int(rows[0]["id"])
    return cast(int, db.table("players").insert({"name": name, "name_key": key, "created_at": now,
                                                  "group_id": group_id}).last_pk)


class NoGroupError(LookupError):
    """There are several groups, and none was named for the game."""


def _group_id(db: sqlite_utils.Database, group_id: int | None) -> int:
    """``group_id``, or the only group (made if there is none: :func:`default_group`'s
    finder says which); raises NoGroupError when there are several."""
    if group_id is not None:
        return group_id
    if _default_group is None:
        raise NoGroupError("no group named, and no finder of the only one (default_group)")
    only = _default_group(db)
    if only is None:
        raise NoGroupError("there are several groups: say which")
    return only


def create_game(db: sqlite_utils.Database, game: GameFile, nonce: str | None = None,
                group_id: int | None = None, started_since: str | None = None,
                imported: bool = False) -> str:
    """Store a whole game (players, settings, deals) in one transaction; returns its
    random id. The caller has checked ``game`` (gamefile.from_dict and score): a game's
    own deals are all it is checked against, so no other phone's write can break it.

    ``nonce`` is the form's one-time token: if a game of the same group was already made
    with it (a double tap on Start, an upload sent twice), nothing is added and that game's
    id is returned. A token is looked up in its group only: another group's token is no
    answer here (a game is made, keeping it).

    ``group_id``: the group it belongs to, with its players (names are looked up in that
    group only); None: the only group (see :func:`_group_id`; raises NoGroupError).
    ``started_since``: refuse a game the group started at or after this time (ISO, as
    :func:`now` gives) with the same kind, players and settings and no deal yet
    (:func:`just_started`) with StartedAlreadyError, checked inside the transaction so two
    phones starting one game at the same instant store one.
    ``imported``: the game comes from a game file (an import), not a Start: its start
    time is then the import's (a game file holds no date), and the lists say so.
    """
    now = _now()
    game_id = new_game_id()
    data = game.to_dict()
    with writing(db):
        group_id = _group_id(db, group_id)
        if nonce:
            rows = list(db.table("games").rows_where("group_id = ? and nonce = ?", [group_id, nonce], limit=1))
            if rows:
                return str(rows[0]["id"])
        if started_since is not None:
            started = just_started(db, game, group_id, since=started_since)
            if started is not None:
                raise StartedAlreadyError(started)
        player_ids = [_player_id(db, name, now, group_id) for name in game.players]
        db.table("games").insert({
            "id": game_id, "kind": game.kind, "first_dealer": game.first_dealer,
            "options": json.dumps(data["options"]), "created_at": now, "updated_at": now,
            "nonce": nonce or None, "group_id": group_id, **({"imported": 1} if imported else {}),
        })
        db.table("game_players").insert_all(
            {"game_id": game_id, "seat": seat, "player_id": pid} for seat, pid in enumerate(player_ids)
        )
        db.table("deals").insert_all(
            {"game_id": game_id, "position": pos, "entry": json.dumps(entry),
             "nonce": None, "created_at": now, "updated_at": now}
            for pos, entry in enumerate(data["deals"])
        )
        for change in game.seat_changes:  # the deal placed at from_deal - 1 is its first
            db.table("seat_changes").insert({
                "game_id": game_id, "seat": change.seat, "position": change.from_deal - 1,
                "player_id": _player_id(db, change.player, now, group_id), "created_at": now})
        _record(db, game_id, now, "game_created", after=data)
        _written(db, game_id)
    return game_id


@dataclass(frozen=True)
class ImportedGame:
    """One game of a file as :func:`import_games` or :func:`import_game` left it:
    ``number`` its 1-based position in the file; ``game_id`` the game stored for it, or
    (``already``) the game of the group it is already; ``continued``: that game has more
    deals than the file's (played on since the file was written); ``added``: the file's
    game is that game played on elsewhere, and its later deals (this many) were added
    to it, with ``seats`` seat changes (a player who took over a seat after the group's
    last deal: then ``added`` may be 0)."""

    number: int
    game_id: str
    already: bool = False
    continued: bool = False
    added: int = 0
    #: seat changes the file's game had after the group's last deal, added with ``added``
    seats: int = 0
    #: the group's game is a club night's table with fewer deals than the file's: its
    #: later deals come with the night's file, never added to a table alone (its deals
    #: are the night's), nor stored beside it
    table: bool = False
    #: a game of the group like the file's (the same players, many of the same deals:
    #: _began_alike) but not it (its id): the file's game is stored beside it (both
    #: count), and the answer names it
    alike: str | None = None
    #: the file lists this game again: it is the file's game number ``again`` (the same
    #: deals, listed before it; or, ``earlier``, that game's first deals: a copy written
    #: before more were played), stored once (``already`` is then True too)
    again: int = 0
    earlier: bool = False
    #: stored beside the file's game number ``alike_in_file``, which is like it (the same
    #: players, many of the same deals: put right on one side?): both count, and the
    #: answer says so, as for a game here (``alike``)
    alike_in_file: int = 0


def import_game(db: sqlite_utils.Database, game: GameFile, *, group_id: int | None = None,
                nonce: str | None = None, copy: bool = False) -> ImportedGame:
    """Store a game file's game (an import) in group ``group_id`` (None: the only group),
    unless the group holds it already, all in one transaction, so two imports of one file
    at the same instant store it once. "Already", as for a group file
    (:func:`import_games`): an identical game; the same game played on since
    (``continued``); or, the file being newer, the group's game with at least one deal
    whose deals are the file's first deals (gamefile.continues): the file's later deals
    and seat changes are added to it (``added``), not stored as a second game. A club
    night's table is never added to (its deals are the night's). A game that only began
    like the file's (:func:`_began_alike`: a deal put right or a setting changed on one
    side) does not stop it: it is stored, and named (``alike``), so the reader can delete
    the one not wanted. ``copy``: store it even so. ``nonce``: the
    upload's one-time token: the same upload sent again finds what it did and does
    nothing more. Returns an :class:`ImportedGame` (``number`` 1)."""
    data = game.to_dict()
    with writing(db):
        group_id = _group_id(db, group_id)
        if nonce:
            done = _imported_with(db, group_id, nonce, 1)  # (a game file's upload: its own token)
            if done is not None:
                return done
        if not copy:
            twin = identical_game(db, data, group_id)
            if twin is not None:
                return ImportedGame(1, twin, already=True)
            twin = identical_game(db, data, group_id, played_on=True)
            if twin is not None:
                return ImportedGame(1, twin, already=True, continued=True)
            stored = [(g.id, g.exported()) for g in reversed(list_games(db, group_id))]
            tables = _night_table_ids(db)
            table = _continued_here(data, _by_kin([g for g in stored if g[0] in tables]), set(), empty_too=True)
            if table is not None:  # a club night's table here, played on: its deals are the night's
                return ImportedGame(1, table, already=True, table=True)
            earlier = _continued_here(data, _by_kin(stored), tables)
            if earlier is not None:
                return _add_later_deals(db, 1, earlier, dict(stored)[earlier], data, nonce)
            alike = _began_alike(data, stored)
            return ImportedGame(1, create_game(db, game, nonce=nonce, group_id=group_id, imported=True), alike=alike)
        return ImportedGame(1, create_game(db, game, nonce=nonce, group_id=group_id, imported=True))


def _began_alike(data: Mapping[str, Any], stored: Sequence[tuple[str, Mapping[str, Any]]],
                 skip: Set[str] = frozenset()) -> str | None:
    """The first game of ``stored`` ((id, game as exported); ids in ``skip`` left out)
    that game file dict ``data`` is not, nor continues or is continued by, but that is
    like it: the same kind, players and first dealer, and at least half of the deals
    both have (by number), one at least, the same. So a deal put right on one server and
    not the other (the first deal too), or a setting changed, or deals added on both
    sides after the same start; or None. An import says so, rather than store a second
    game beside it silently."""
    deals = data.get("deals") or ()
    if not deals:
        return None
    keys = [name_key(str(name)) for name in data["players"]]
    for game_id, other in stored:
        theirs = other.get("deals") or ()
        if (game_id in skip or not theirs or other["game"] != data["game"]
                or other["first_dealer"] != data["first_dealer"]
                or [name_key(str(name)) for name in other["players"]] != keys):
            continue
        same = sum(1 for mine, its in zip(deals, theirs, strict=False) if mine == its)
        if same and 2 * same >= min(len(deals), len(theirs)):
            return game_id
    return None


def _imported_with(db: sqlite_utils.Database, group_id: int, token: str, number: int) -> ImportedGame | None:
    """What game ``number`` of an upload did before in group ``group_id`` (the same
    upload sent again; ``token``: the upload's one-time token, ``{token}#{number}`` for
    a game of a group file): the game it stored (with that token), the game it added
    deals to (their tokens ``{token}+{deal}``), or None."""
    row = db.execute("select id from games where group_id = ? and nonce = ?", [group_id, token]).fetchone()
    if row is not None:
        return ImportedGame(number, str(row[0]))
    prefix = f"{token}+"
    row = db.execute(
        "select d.game_id, count(*) from deals d join games g on g.id = d.game_id "
        "where g.group_id = ? and substr(d.nonce, 1, ?) = ? group by d.game_id",
        [group_id, len(prefix), prefix]).fetchone()
    if row is not None:
        return ImportedGame(number, str(row[0]), already=True, added=int(row[1]))
    return None


def _continued_here(data: Mapping[str, Any], index: Mapping[str, list[tuple[str, Mapping[str, Any]]]],
                    skip: set[str], empty_too: bool = False) -> str | None:
    """The first game of ``index`` (a group's games by kin, :func:`_by_kin`; ids in
    ``skip`` left out: a club night's tables among them), with at least one deal (or
    ``empty_too``: a club night's table, whose players the night seated, not yet
    played), that game file dict ``data`` continues (gamefile.continues: the file is
    newer); or None."""
    for game_id, earlier in index.get(kin_key(data), ()):
        if game_id not in skip and (earlier["deals"] or empty_too) and continues(data, earlier):
            return game_id
    return None


def _add_later_deals(db: sqlite_utils.Database, number: int, game_id: str, earlier: Mapping[str, Any],
                     data: Mapping[str, Any], nonce: str | None) -> ImportedGame:
    """Add to stored game ``game_id`` (``earlier``: as exported) the deals and seat
    changes of game file dict ``data`` (which continues it: gamefile.continues) that
    it lacks, as if entered at the table: each in the game's history ("deal_added",
    "seat_taken"). Called inside the import's write. ``nonce``: the upload's token (each
    deal's is ``{nonce}+{deal}``; for game ``number`` > 1 of a group file the caller
    passes ``{nonce}#{number}``)."""
    now = _now()
    game = get_game(db, game_id)
    group_id = db.execute("select group_id from games where id = ?", [game_id]).fetchone()[0]
    played = len(earlier["deals"])
    first = db.execute("select coalesce(max(position) + 1, 0) from deals where game_id = ?",
                       [game_id]).fetchone()[0]  # deleted deals keep their places
    later = data["deals"][played:]
    for offset, entry in enumerate(later):
        deal_id = cast(int, db.table("deals").insert({
            "game_id": game_id, "position": first + offset, "entry": json.dumps(entry),
            "nonce": f"{nonce}+{played + offset + 1}" if nonce else None,
            "created_at": now, "updated_at": now}).last_pk)
        _record(db, game_id, now, "deal_added", deal_id=deal_id, position=first + offset, after=dict(entry))
    had = [(c["from_deal"], c["seat"], name_key(c["player"])) for c in earlier.get("seat_changes") or ()]
    sitting = list(game.players_now)
    seats = 0
    for change in data.get("seat_changes") or ():
        key = (change["from_deal"], change["seat"], name_key(change["player"]))
        if key in had:
            had.remove(key)
            continue
        made = _insert_seat_change(db, game_id, change["seat"], first + change["from_deal"] - played - 1,
                                   change["player"], group_id, now, replaces=sitting[change["seat"]],
                                   from_deal=change["from_deal"])
        sitting[change["seat"]] = made.player
        seats += 1
    _touch(db, game_id, now)
    _written(db, game_id)
    return ImportedGame(number, game_id, already=True, added=len(later), seats=seats)


#: How long a group file's import report is kept (its page: the import's answer)
IMPORT_REPORT_DAYS = 30


def keep_import_report(db: sqlite_utils.Database, group_id: int, report: str, at: str | None = None) -> str:
    """Keep ``report`` (what a group file's import did, as JSON) for group ``group_id``;
    returns its id, a random token for its page's address. Reports older than
    :data:`IMPORT_REPORT_DAYS` are dropped in the same write. ``at``: the time now (UTC,
    ISO 8601; tests). Raises DiskFullError when the disk refuses it."""
    made = at or _now()
    oldest = (datetime.fromisoformat(made) - timedelta(days=IMPORT_REPORT_DAYS)).isoformat(timespec="seconds")
    report_id = secrets.token_urlsafe(16)
    with writing(db):
        db.execute("delete from import_reports where made_at < ?", [oldest])
        db.execute("insert into import_reports (id, group_id, made_at, report) values (?, ?, ?, ?)",
                   [report_id, group_id, made, report])
    return report_id


def import_report(db: sqlite_utils.Database, group_id: int, report_id: str) -> str | None:
    """The report (JSON) kept as ``report_id`` for group ``group_id``; None when there is
    none (another group's, dropped after :data:`IMPORT_REPORT_DAYS`, or never made)."""
    row = db.execute("select report from import_reports where id = ? and group_id = ?",
                     [report_id, group_id]).fetchone()
    return None if row is None else str(row[0])


def import_games(db: sqlite_utils.Database, games: Sequence[GameFile], group_id: int,
                 nonce: str | None = None, copy: bool = False) -> list[ImportedGame]:
    """Store every game of a group file (``games``, oldest first, each checked by the
    caller: gamefile.read_group) in group ``group_id`` that the group does not hold
    already, all in one transaction: every game, or (an error raised: a full disk) none.

    "Already" (issue 18, part 4): a game of the group, not deleted (:func:`list_games`),
    with the same kind, players (any case), first dealer, options, deals and seat changes
    (gamefile.same_game_key of the game as exported); or, failing that, one whose first
    deals are the file's game's deals (gamefile.continues): the game continued since the
    file was written (``continued``), which the file's older copy would count twice; or,
    failing that, the file being newer, one with at least one deal, not a club night's
    table, whose deals are the file's game's first deals: the file's later deals and
    seat changes are added to it (``added``: an older group file imported before, and
    played on where it came from), not stored as a second game. Counted as a
    multiset, each game of the group standing for one game of the file at most, the
    identical ones matched first and the file's longer games before its shorter ones: a
    file holding two equal games with no deal yet (two starts of one game, which a group
    can hold: "Start another") stores both into a group that has neither, one into a
    group that has one, and a second import of the same file stores nothing. A game with
    deals that the file holds again (the same deals: one game listed twice) is stored
    once: the later copy is already there as the game its first copy stands for.
    ``copy``: store every game, even those already there. ``nonce``: the
    upload's one-time token: the same upload sent again finds the games it stored (as
    stored, not as already there) and the deals it added, and stores nothing more. Returns one
    :class:`ImportedGame` per game, in file order."""
    files = {number: game.to_dict() for number, game in enumerate(games, 1)}
    # what the file says of itself needs no database: worked out before the write lock
    in_file = {} if copy else _played_on_in_file(files)
    with writing(db):
        found: dict[int, ImportedGame] = {}
        if nonce:
            for number in range(1, len(games) + 1):
                done = _imported_with(db, group_id, f"{nonce}#{number}", number)
                if done is not None:
                    found[number] = done
        mine = {game.game_id for game in found.values()}
        stored = [(game.id, game.exported()) for game in reversed(list_games(db, group_id))  # oldest first
                  if game.id not in mine]
        later: dict[int, int] = {}
        if not copy:
            index, exported = _by_kin(stored), dict(stored)
            here = _already_here(files, index, skip=set(found))
            found.update(here)
            later = in_file
            # the file newer: a game of the group played on elsewhere since gets its later deals
            # (one already matched as the same as a shorter game of the file may be so too)
            blocked = mine | {game.game_id for game in here.values() if game.continued}
            tables = _night_table_ids(db)
            for number, data in sorted(files.items(), key=lambda item: -len(item[1]["deals"])):
                if number in found or number in later or not data["deals"]:
                    continue
                table = _continued_here(data, {kin_key(data): [g for g in index[kin_key(data)] if g[0] in tables]},
                                        blocked, empty_too=True)
                if table is not None:  # a club night's table here, played on: its deals are the night's
                    found[number] = ImportedGame(number, table, already=True, table=True)
                    blocked.add(table)
                    continue
                earlier = _continued_here(data, index, blocked | tables)
                if earlier is not None:
                    blocked.add(earlier)
                    extended = _add_later_deals(db, number, earlier, exported[earlier], data,
                                                f"{nonce}#{number}" if nonce else None)
                    for other, match in list(found.items()):  # its shorter copy in the file: played on
                        if match.game_id == earlier and other != number:
                            found[other] = replace(match, continued=True)
                    found[number] = extended
        played: dict[str, ImportedGame] = {}  # a game with deals: its first copy, by its key
        # games that can have begun alike (_began_alike), by their kind, players and first
        # dealer: each game is compared with those alone (tester 19: a file of thousands of
        # games compared each with all before it held the write lock for a minute)
        stored_alike: dict[tuple[Any, ...], list[int]] = defaultdict(list)  # → places in stored
        file_alike: dict[tuple[Any, ...], list[int]] = defaultdict(list)  # → numbers in the file
        for place, (_game_id, data) in enumerate(stored):
            for near in _alike_keys(data):
                stored_alike[near].append(place)
        for number in sorted(files):
            for near in _alike_keys(files[number]):
                file_alike[near].append(number)
        taken = _taken_ids(found)
        for number, game in enumerate(games, 1):
            key = same_game_key(files[number]) if game.deals else None
            if number not in found and number not in later:
                if key in played and not copy:
                    first = played[key]
                    found[number] = ImportedGame(number, first.game_id, already=True, continued=first.continued,
                                                 again=first.number)
                    taken.add(first.game_id)
                else:
                    alike = kin = None
                    if not copy and game.deals:
                        nears = _alike_keys(files[number])
                        places = sorted({place for near in nears for place in stored_alike[near]})
                        alike = _began_alike(files[number], [stored[place] for place in places], skip=taken)
                        # … or beside a game before it in the file (stored now, or here already)
                        numbers = sorted({n for near in nears for n in file_alike[near] if n < number})
                        before_it = [(str(n), files[n]) for n in numbers if n in found and not found[n].again]
                        kin = None if alike else _began_alike(files[number], before_it)
                    found[number] = ImportedGame(number, create_game(
                        db, game, nonce=f"{nonce}#{number}" if nonce else None, group_id=group_id,
                        imported=True), alike=alike, alike_in_file=int(kin) if kin else 0)
            if key is not None and number in found:
                played.setdefault(key, found[number])
        for number, longest in later.items():  # an earlier copy of a game the file holds played on
            while longest in later:  # (that one a copy too: the same deals, a seat change less)
                longest = later[longest]
            if number not in found:
                found[number] = ImportedGame(number, found[longest].game_id, already=True, continued=True,
                                             again=longest, earlier=True)
    return [found[number] for number in range(1, len(games) + 1)]


def _alike_keys(data: Mapping[str, Any]) -> set[tuple[Any, ...]]:
    """What a game that began alike with game file dict ``data`` (:func:`_began_alike`)
    shares with it, one key a deal: the kind, the first dealer, the players' name keys,
    and a deal at its number. Only games sharing one of these can have begun alike, so
    each game is compared with those alone, not with every game of its players."""
    kin = (data.get("game"), data.get("first_dealer"), tuple(name_key(str(n)) for n in data.get("players") or ()))
    return {(*kin, number, json.dumps(deal, sort_keys=True, ensure_ascii=False))
            for number, deal in enumerate(data.get("deals") or ())}


def _taken_ids(found: Mapping[int, ImportedGame]) -> set[str]:
    """The group's games that games of the file are already (matched, continued, added
    to): none of them is "another game that began alike"."""
    return {imported.game_id for imported in found.values() if imported.already}


def _by_kin(stored: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, list[tuple[str, Mapping[str, Any]]]]:
    """Games ((id, game as exported), in order) by gamefile.kin_key: only games of one
    key can be one game, continued (gamefile.continues), so each is compared with those
    alone, not with every game of the group."""
    index: dict[str, list[tuple[str, Mapping[str, Any]]]] = defaultdict(list)
    for game_id, data in stored:
        index[kin_key(data)].append((game_id, data))
    return index


def _night_table_ids(db: sqlite_utils.Database) -> set[str]:
    """The ids of the games that are a club night's tables (never added to by an import:
    their deals are the night's)."""
    return {str(row[0]) for row in db.execute("select game_id from night_tables")}


def _played_on_in_file(files: Mapping[int, Mapping[str, Any]]) -> dict[int, int]:
    """The games of a file (``files``: {number: game file dict}) that another game of the
    same file continues (gamefile.continues: an earlier copy of it, written before more
    deals were played), each with the number of the longest such game: {number: number}.
    Such a copy is that game, not another one beside it."""
    # Linear in the file's deals, not quadratic in its games (a file of thousands of games
    # of the same players held the write lock for a minute: tester 19): games the same in
    # every way (gamefile.same_game_key) never continue each other, so each is looked at
    # once, as its first copy; and a game continues only games whose deals are one of its
    # own runs of first deals, found by that run.
    found: dict[int, int] = {}
    for kin in _by_kin([(str(number), data) for number, data in files.items()]).values():
        copies: dict[str, list[int]] = defaultdict(list)  # same_game_key → numbers, first first
        for name, data in kin:
            copies[same_game_key(data)].append(int(name))
        texts = {numbers[0]: _deal_texts(files[numbers[0]]) for numbers in copies.values()}
        by_deals: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for first, deals in texts.items():
            if deals:  # a game without deals is nobody's earlier copy
                by_deals[deals].append(first)
        longest: dict[int, int] = {}
        for first, deals in texts.items():
            for played in range(1, len(deals) + 1):
                for shorter in by_deals.get(deals[:played], ()):
                    if shorter != first and continues(files[first], files[shorter], same_kin=True):
                        best = longest.get(shorter)
                        if best is None or (len(deals), -first) > (len(texts[best]), -best):
                            longest[shorter] = first
        for numbers in copies.values():
            if numbers[0] in longest:
                for copy_number in numbers:
                    found[copy_number] = longest[numbers[0]]
    return found


def _deal_texts(data: Mapping[str, Any]) -> tuple[str, ...]:
    """Game file dict ``data``'s deals, each as JSON text with sorted keys (equal for equal
    deals, whatever their keys' order, as :func:`gamefile.continues` compares them)."""
    return tuple(json.dumps(deal, sort_keys=True, ensure_ascii=False) for deal in data.get("deals") or ())


def _already_here(files: Mapping[int, Mapping[str, Any]], index: Mapping[str, list[tuple[str, Mapping[str, Any]]]],
                  skip: set[int]) -> dict[int, ImportedGame]:
    """Which games of a group file (``files``: {number: game file dict}; numbers in
    ``skip`` left out) the group holds already (``index``: its games by kin,
    :func:`_by_kin`), as :func:`import_games` says: {number: ImportedGame (already)}."""
    here: dict[str, list[str]] = defaultdict(list)
    for kin in index.values():
        for game_id, data in kin:
            here[same_game_key(data)].append(game_id)
    found: dict[int, ImportedGame] = {}
    taken: set[str] = set()
    wanted = {number: data for number, data in files.items() if number not in skip}
    for number, data in wanted.items():  # the same game: same deals
        twins = here[same_game_key(data)]
        if twins:
            found[number] = ImportedGame(number, twins.pop(0), already=True)
            taken.add(found[number].game_id)
    # the same game played on since: the file's longer games first, so that each finds its own
    for number, data in sorted(wanted.items(), key=lambda item: -len(item[1]["deals"])):
        if number in found:
            continue
        for game_id, later in index.get(kin_key(data), ()):
            if game_id not in taken and continues(later, data):
                found[number] = ImportedGame(number, game_id, already=True, continued=True)
                taken.add(game_id)
                break
    return found


def identical_game(db: sqlite_utils.Database, data: Mapping[str, Any], group_id: int,
                   played_on: bool = False, free: bool = False) -> str | None:
    """The id of a game of group ``group_id`` in play identical to game file dict ``data``
    as exported (records.StoredGame.exported; gamefile.same_game_key: kind, players in any
    case, first dealer, settings, every deal entry and seat change), newest first; or
    None. With ``played_on``, failing an identical game, one that is the same game
    continued since (gamefile.continues: the file's deals its first deals). ``free``:
    only a game that is no club night's table."""
    keys = [name_key(name) for name in data["players"]]
    ids = []
    for key in keys:
        rows = list(db.table("players").rows_where("group_id = ? and name_key = ?", [group_id, key], limit=1))
        if not rows:
            return None
        ids.append(rows[0]["id"])
    candidates = [row["game_id"] for row in db.query(
        "select gp.game_id from game_players gp join games g on g.id = gp.game_id "
        "where gp.seat = 0 and gp.player_id = ? and g.kind = ? and g.first_dealer = ? and g.deleted_at is null"
        + (" and not exists (select 1 from night_tables t where t.game_id = g.id)" if free else ""),
        [ids[0], data["game"], data["first_dealer"]])]
    if not candidates:
        return None
    marks = ",".join("?" * len(candidates))
    wanted = same_game_key(data)
    continued = None
    for stored in _games(db, f"where id in ({marks})", candidates):
        exported = stored.exported()
        if same_game_key(exported) == wanted:
            return stored.id
        if played_on and continued is None and continues(exported, data):
            continued = stored.id
    return continued


def just_started(db: sqlite_utils.Database, game: GameFile, group_id: int, since: str) -> StoredGame | None:
    """The newest game of group ``group_id`` started at or after ``since`` (an ISO time
    as :func:`now` gives) with ``game``'s kind, players (in any case, seat by seat) and
    settings, and no deal yet; or None. Who deals first is not compared: a Start again
    with "random" draws another. A club night's table is never one: the night started
    it, not this group's new-game form (whose players it may have filled in). What the
    new-game form asks about before a second Start of one game (issue 18: Back, then
    Start again, made two games no one could tell apart); :func:`create_game` asks it
    inside its transaction."""
    keys = [name_key(name) for name in game.players]
    options = game.to_dict()["options"]
    rows = db.query(
        "select id from games g where group_id = ? and kind = ? and created_at >= ? and deleted_at is null "
        "and not exists (select 1 from deals d where d.game_id = g.id) "
        "and not exists (select 1 from night_tables t where t.game_id = g.id)",
        [group_id, game.kind, since])
    ids = [row["id"] for row in rows]
    if not ids:
        return None
    marks = ",".join("?" * len(ids))
    for stored in _games(db, f"where id in ({marks})", ids):  # newest first
        if [name_key(n) for n in stored.players] == keys and stored.options == options:
            return stored
    return None


def _games(db: sqlite_utils.Database, where: str = "", params: list[Any] | None = None, *,
           deleted: bool | None = False) -> list[StoredGame]:
    """The games ``where`` says (an SQL where clause, or "": every game), newest first:
    those in play (``deleted`` False), only deleted ones (True) or both (None). (Told
    apart here, not in the SQL: a test's database migrated part-way has no deleted_at.)"""
    games = [g for g in db.query(f"select * from games {where} order by created_at desc, rowid desc", params or [])
             if deleted is None or (g.get("deleted_at") is not None) == deleted]
    if not games:
        return []
    ids = [g["id"] for g in games]
    marks = ",".join("?" * len(ids))
    names: dict[str, list[str]] = defaultdict(list)
    for row in db.query(
        f"select gp.game_id, p.name from game_players gp join players p on p.id = gp.player_id "
        f"where gp.game_id in ({marks}) order by gp.game_id, gp.seat", ids
    ):
        names[row["game_id"]].append(row["name"])
    deals: dict[str, list[StoredDeal]] = defaultdict(list)
    for row in db.query(
        f"select id, game_id, position, entry from deals where game_id in ({marks}) "
        f"and deleted_at is null order by game_id, position", ids
    ):
        deals[row["game_id"]].append(StoredDeal(row["id"], row["position"], json.loads(row["entry"])))
    seat_changes: dict[str, list[SeatTaken]] = defaultdict(list)
    for row in _seat_change_rows(db, marks, ids):
        seat_changes[row["game_id"]].append(SeatTaken(row["id"], row["position"], row["seat"], row["name"],
                                                      row["player_id"], row["created_at"]))
    return [
        StoredGame(
            id=g["id"], kind=g["kind"], players=tuple(names[g["id"]]), first_dealer=g["first_dealer"],
            options=json.loads(g["options"]), deals=tuple(deals[g["id"]]),
            created_at=g["created_at"], updated_at=g["updated_at"], deleted_at=g.get("deleted_at"),
            seat_changes=tuple(seat_changes[g["id"]]), imported=bool(g.get("imported")),
        )
        for g in games
    ]


def _seat_change_rows(db: sqlite_utils.Database, marks: str, ids: list[str]) -> list[dict[str, Any]]:
    """The seat changes of games ``ids`` with their players' names, in order of play;
    none in a database migrated only part-way, before m012_seat_changes (the migrations'
    own tests write games there)."""
    try:
        return list(db.query(
            f"select sc.id, sc.game_id, sc.seat, sc.position, sc.player_id, sc.created_at, p.name "
            f"from seat_changes sc join players p on p.id = sc.player_id where sc.game_id in ({marks}) "
            f"order by sc.game_id, sc.position, sc.id", ids))
    except sqlite3.OperationalError as error:
        if "no such table" not in str(error):
            raise
        return []


def get_game(db: sqlite_utils.Database, game_id: str) -> StoredGame:
    """The game with id ``game_id``, with its :attr:`StoredGame.version`; raises
    NotFoundError, or GameDeletedError (a NotFoundError) for a deleted game, with the
    game as it was."""
    found = _games(db, "where id = ?", [game_id], deleted=None)
    if not found:
        raise NotFoundError(f"no game {game_id!r}")
    game = replace(found[0], version=game_version(db, game_id))
    if game.deleted_at is not None:
        raise GameDeletedError(game)
    return game


def games_in_play(db: sqlite_utils.Database) -> int:
    """How many games are in play, in every group: the deleted ones (restorable, issue 18)
    left out, as every list leaves them out (:func:`list_games`); a database from before
    games could be deleted (no games.deleted_at) counts all of them."""
    where = " where deleted_at is null" if "deleted_at" in db["games"].columns_dict else ""
    return int(db.execute(f"select count(*) from games{where}").fetchone()[0])


def is_deleted(db: sqlite_utils.Database, game_id: str) -> bool:
    """Whether game ``game_id`` exists and is deleted (one indexed look-up; False on a
    test's database migrated part-way, which has no deleted_at)."""
    rows = list(db.query("select * from games where id = ?", [game_id]))
    return bool(rows) and rows[0].get("deleted_at") is not None


def delete_game(db: sqlite_utils.Database, game_id: str, *, with_night: bool = False) -> StoredGame:
    """Delete a game softly (issue 18, part 1): it leaves every list, statistic and group
    file (every read here skips it, and the summaries forget it: :func:`after_write`), but
    keeps its players, settings, deals and history, so :func:`restore_game` puts it back
    whole. Records "game_deleted". Returns the game as it was deleted.

    Checked inside the write transaction, so two phones deleting at once delete it once:
    raises GameDeletedError (deleted already: its ``game`` says when), NotFoundError (no
    such game), NightTableError (a table of a club night: it goes with its night, whose
    delete passes ``with_night``). Nothing is written when it raises."""
    now = _now()
    with writing(db):
        game = get_game(db, game_id)  # raises GameDeletedError, NotFoundError
        if not with_night:
            _refuse_night_table(db, game_id)
        db.table("games").update(game_id, {"deleted_at": now})
        _record(db, game_id, now, "game_deleted", after={"deleted_at": now})
        _written(db, game_id)
    return replace(game, deleted_at=now)


@dataclass(frozen=True)
class RestoredGame:
    """A game :func:`restore_game` put back: ``game`` as it is now; ``twin`` the id of an
    identical game in play beside it (both with no deal yet: two starts of one game), or
    None."""

    game: StoredGame
    twin: str | None = None


def restore_game(db: sqlite_utils.Database, game_id: str, *, with_night: bool = False) -> RestoredGame:
    """Put a deleted game back whole (issue 18, part 1): its deals, history and links work
    again, and it counts in every list and statistic at once. Records "game_restored".
    Returns the game as it is back, with the identical empty game in play beside it, if
    any (:class:`RestoredGame`).

    Checked inside the write transaction: raises GameNotDeletedError (in play already: a
    double tap, or another phone was quicker), NotFoundError (no such game),
    DuplicateGameError (an identical game with at least one deal is in play: the group
    file imported again, or the game imported, after it was deleted; back, it would count
    twice in every statistic; ``continued``: the same game played on since on one side,
    gamefile.continues). A game with no deal yet is restored even beside an
    identical one: two empty games are two starts (the second one "Start another"), not
    one game counted twice (its ``twin`` names the other). A table of a club night comes
    back with its night alone, whose restore passes ``with_night`` (else NightTableError).
    Nothing is written when it raises."""
    now = _now()
    with writing(db):
        row = db.execute("select deleted_at, group_id from games where id = ?", [game_id]).fetchone()
        if row is None:
            raise NotFoundError(f"no game {game_id!r}")
        if row[0] is None:
            raise GameNotDeletedError(f"game {game_id} is in play")
        if not with_night:
            _refuse_night_table(db, game_id)
        deleted = _games(db, "where id = ?", [game_id], deleted=None)[0]
        in_play = _in_play_already(db, deleted, row[1])
        if in_play is not None:
            raise DuplicateGameError(in_play[0], continued=in_play[1])
        # a twin with no deal either: two starts of one game, restored beside it
        twin = None if deleted.deals else identical_game(db, deleted.exported(), row[1])
        db.table("games").update(game_id, {"deleted_at": None})
        _record(db, game_id, now, "game_restored", before={"deleted_at": row[0]})
        _written(db, game_id)
        return RestoredGame(get_game(db, game_id), twin)


def _in_play_already(db: sqlite_utils.Database, deleted: StoredGame, group_id: int,
                     games: Sequence[StoredGame] | None = None,
                     index: Mapping[str, list[tuple[str, Mapping[str, Any]]]] | None = None) -> tuple[str, bool] | None:
    """The game of group ``group_id`` in play that deleted game ``deleted`` (with at least
    one deal) already is, restored, it would be counted twice: (its id, False) for the
    identical game, (its id, True) for the same game played on since (imported again,
    then played), or the other way round; None when there is none, or ``deleted`` has
    no deal (two starts of one game are two games the group wanted).

    Only a game that came into play once ``deleted`` was deleted (created then or later:
    its file imported again) is that game: one in play beside it before the delete was
    a game of its own the group played, if its deals began alike (tester 33, HIGH: a new
    Trix game's first deal as last week's, deleted, could not be restored, even by the
    Undo right after the delete). A shorter one, whose deals are the deleted game's first
    deals, only if imported (an older file of it). ``games`` (the group's games in play, newest first:
    :func:`list_games`) and ``index`` (them by kin: :func:`_by_kin`), when read already."""
    if not deleted.deals:
        return None
    if games is None:
        games = list_games(db, group_id)
    later = _created_after_delete(db, deleted, games)
    exported = deleted.exported()
    twin = identical_game(db, exported, group_id)
    if twin is not None and twin in later:
        return twin, False
    if index is None:
        index = _by_kin([(g.id, g.exported()) for g in reversed(games) if g.id in later])
    # the game in play its shorter copy: an older file of it imported, never a game started
    # by hand since, whose first deals may well be alike (tester 36, HIGH: a new Trix game
    # whose deal 1 was the deleted game's kept it deleted)
    imported = {game.id for game in games if game.imported}
    played_on = next((game for game, other in index.get(kin_key(exported), ()) if game in later
                      and (continues(other, exported)
                           or (other["deals"] and game in imported and continues(exported, other)))), None)
    return (played_on, True) if played_on is not None else None


def _created_after_delete(db: sqlite_utils.Database, deleted: StoredGame, games: Sequence[StoredGame]) -> set[str]:
    """The ids of ``games`` stored after deleted game ``deleted`` was last deleted, read
    in the change log's order (exact, where times are to the second: a game stored in
    the second of the delete, before or after it); a delete from before the log, by the
    times."""
    since = db.execute("select max(id) from changes where game_id = ? and action = 'game_deleted'",
                       [deleted.id]).fetchone()[0]
    if since is None:
        return {game.id for game in games if game.created_at >= (deleted.deleted_at or "")}
    created = {row[0] for row in db.execute(
        "select game_id from changes where action = 'game_created' and id > ?", [since])}
    return {game.id for game in games if game.id in created}


def in_play_already(db: sqlite_utils.Database, games: Sequence[StoredGame], group_id: int) -> dict[str, str]:
    """For each deleted game of ``games`` (group ``group_id``'s) that a game in play already
    is (:func:`_in_play_already`: :func:`restore_game` would refuse it), that game's id:
    {deleted game's id: id of the one in play}. What "Deleted games" offers instead of
    Restore."""
    found: dict[str, str] = {}
    if not any(game.deals for game in games):
        return found
    playing = list_games(db, group_id)  # read once for all
    index = _by_kin([(g.id, g.exported()) for g in reversed(playing)])
    for game in games:
        in_play = _in_play_already(db, game, group_id, playing, index)
        if in_play is not None:
            found[game.id] = in_play[0]
    return found


def deleted_games(db: sqlite_utils.Database, group_id: int) -> list[StoredGame]:
    """The deleted games of group ``group_id`` (each with its ``deleted_at`` and
    ``version``), the latest deleted first: what "Deleted games" offers to restore (not
    the tables of a deleted club night: they come back with their night)."""
    found = _games(db, "where group_id = ? and id not in (select game_id from night_tables)", [group_id],
                   deleted=True)
    return sorted((replace(g, version=game_version(db, g.id)) for g in found),
                  key=lambda g: g.deleted_at or "", reverse=True)


def game_version(db: sqlite_utils.Database, game_id: str) -> int:
    """The game's version: the id of its latest recorded change, 0 before any (one
    indexed look-up, no scoring: what the live sheet polls)."""
    return int(db.execute("select coalesce(max(id), 0) from changes where game_id = ?", [game_id]).fetchone()[0])


def games_by_group(db: sqlite_utils.Database) -> dict[int, int]:
    """How many games each group has, deleted ones left out: {group id: count} (a group
    with none is absent)."""
    return dict(db.execute("select group_id, count(*) from games where deleted_at is null "
                           "group by group_id").fetchall())


def changes_since(db: sqlite_utils.Database, game_id: str, version: int) -> list[Change]:
    """The game's changes after ``version`` (see :func:`game_version`), oldest first."""
    return [_change(row) for row in db.query(
        "select * from changes where game_id = ? and id > ? order by id", [game_id, version])]


def deals_by_nonce(db: sqlite_utils.Database, game_id: str, nonces: Iterable[str]) -> dict[str, int]:
    """Of the form tokens ``nonces``, those a deal of the game in play was saved with:
    {nonce: deal id}."""
    wanted = sorted({n for n in nonces if n})
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    return {row[0]: row[1] for row in db.execute(
        f"select nonce, id from deals where game_id = ? and deleted_at is null and nonce in ({marks})",
        [game_id, *wanted])}


def own_changes(db: sqlite_utils.Database, since: Iterable[Change], nonces: Iterable[str]) -> bool:
    """Whether a new deal may follow every change in ``since`` without the phone seeing
    them first: each is a deal added with one of ``nonces`` (the form tokens of deals
    this phone sent from its outbox: a phone's own earlier deals are no conflict for its
    next one), or an earlier deal put right on another phone (``deal_changed``): a
    correction of deal 3 says nothing about the deal being entered now, which the rules
    check against the game as it is (a contract played twice in a kingdom, a game over
    since: refused as ever). Any other change (a deal added or deleted elsewhere, a seat
    taken, the settings) is one the phone must see first; so is a game set back past the
    version the phone saw (:func:`set_back`), which its callers ask first. Players renamed
    are no such change when no name moved to another seat (:func:`_renamed_in_place`: a
    spelling put right; the deal's entries are by seat, its points saved under the names
    as they are)."""
    own = {n for n in nonces if n}
    for change in since:
        if change.action == "deal_changed" or _renamed_in_place(change):
            continue
        if change.action != "deal_added" or not own:
            return False
        row = db.execute("select nonce from deals where id = ?", [change.deal_id]).fetchone()
        if row is None or row[0] not in own:
            return False
    return True


def _renamed_in_place(change: Change) -> bool:
    """Whether ``change`` renamed players without any seat taking a name another seat had
    ("Ben" → "Benedikt"; not Anna and Ben swapped, which says the entries typed under
    those names may be under the wrong seats)."""
    if change.action != "players_renamed" or not isinstance(change.before, Mapping) \
            or not isinstance(change.after, Mapping):
        return False
    before, after = change.before.get("players"), change.after.get("players")
    if not isinstance(before, list) or not isinstance(after, list) or len(before) != len(after):
        return False
    old = [name_key(str(n)) for n in before]
    return not any(name_key(str(n)) in old[:seat] + old[seat + 1:] for seat, n in enumerate(after))


def same_entry(kind: str, one: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """Whether two deal entries (the game file's dicts) of a game of ``kind`` say the
    same deal: equal once each is normalised as the rules write it (parsed and dumped
    again: defaults filled in, keys in order), else equal as JSON whatever the order of
    their keys (an entry the rules no longer read). Issue 18, part 8."""
    rules = get_rules(kind)

    def normal(entry: Mapping[str, Any]) -> str:
        with suppress(RuleError):
            entry = rules.dump_deal(rules.parse_deal(dict(entry), 1))
        return json.dumps(entry, sort_keys=True)

    return normal(one) == normal(other)


def same_deal_added(db: sqlite_utils.Database, game: StoredGame, since: Iterable[Change],
                    entry: Mapping[str, Any], mine: Iterable[str] = ()) -> int | None:
    """Of the deals added in ``since`` (changes after the version a phone read) and still
    in play in ``game``, the id of the first with exactly ``entry`` that was not added
    with one of this phone's form tokens ``mine``; None when there is none. Read inside
    the write's transaction by :func:`add_deal_scored`."""
    own = {n for n in mine if n}
    in_play = {d.id: d for d in game.deals}
    for change in since:
        if change.action != "deal_added" or change.deal_id not in in_play:
            continue
        if not same_entry(game.kind, in_play[change.deal_id].entry, entry):
            continue
        if nonce_of_deal(db, change.deal_id) in own:
            continue
        return change.deal_id
    return None


def _fresh(db: sqlite_utils.Database, game_id: str, seen: int | None) -> StoredGame:
    """The game as it is now, inside a write; raises NotFoundError, or StaleError when
    ``seen`` (the version the phone read; None: not checked) is not the current one."""
    game = get_game(db, game_id)
    if seen is not None and game.version != seen:
        raise StaleError(game, changes_since(db, game_id, seen), set_back(db, game_id, seen))
    return game


def set_back(db: sqlite_utils.Database, game_id: str, seen: int) -> bool:
    """Whether version ``seen`` of the game (the id of its latest change then, as a phone
    read it) is one the game no longer has: the change log is never cut, so the database
    was put back from a backup taken before it (backups.restore). Version 0, a game read
    before any change, never is."""
    return seen > 0 and db.execute("select 1 from changes where id = ? and game_id = ?",
                                   [seen, game_id]).fetchone() is None


def list_games(db: sqlite_utils.Database, group_id: int | None = None) -> list[StoredGame]:
    """Every game of group ``group_id`` (None: of every group), newest first; deleted
    games left out (issue 18, part 1: a group's file and every list skip them)."""
    return _games(db) if group_id is None else _games(db, "where group_id = ?", [group_id])


def known_players(db: sqlite_utils.Database, group_id: int) -> list[str]:
    """Every name of group ``group_id``'s players, most recently seated first."""
    return [row["name"] for row in db.query(
        "select p.name, max(g.created_at) as last from players p "
        "left join game_players gp on gp.player_id = p.id "
        "left join games g on g.id = gp.game_id and g.deleted_at is null "
        "where p.group_id = ? group by p.id order by last desc, p.name_key", [group_id]
    )]


def last_players(db: sqlite_utils.Database, kind: str, group_id: int) -> list[str]:
    """The players of the group's newest game of ``kind``, in playing order (the same
    people usually sit down again); empty if there is none."""
    return [row["name"] for row in db.query(
        "select p.name from game_players gp join players p on p.id = gp.player_id "
        "where gp.game_id = (select id from games where kind = ? and group_id = ? and deleted_at is null "
        "order by created_at desc, rowid desc limit 1) "
        "order by gp.seat", [kind, group_id])]


def new_game_id() -> str:
    """A new game's id: 12 URL-safe characters, 72 random bits, never starting with "-"
    (a command line would take it for an option: ``scorekeeper export -abc…``)."""
    while (game_id := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return game_id


def _touch(db: sqlite_utils.Database, game_id: str, now: str) -> None:
    db.table("games").update(game_id, {"updated_at": now})


@dataclass(frozen=True)
class SavedDeal:
    """What a deal's save did (:func:`add_deal_scored`, :func:`update_deal_scored`).

    ``deal_id``: the deal's id; ``number``: its 1-based number among the deals in play;
    ``score``: the whole game scored with it, inside the write transaction (the check
    that let it in; rules.GameScore). ``number`` and ``score`` are None when nothing was
    written: the deal was saved already with that form token, or already read so.
    """

    deal_id: int
    number: int | None = None
    score: GameScore | None = None
    #: True when nothing was written because another phone's deal, added since the
    #: phone read the game, has exactly these entries (``deal_id`` and ``number``: that
    #: deal's; issue 18, part 8)
    same: bool = False


def add_deal(db: sqlite_utils.Database, game_id: str, entry: Mapping[str, Any],
             nonce: str | None = None, seen: int | None = None) -> int:
    """Append a deal entry to the game; returns the deal's id.

    Everything is checked inside the write transaction, so whatever order two phones'
    saves arrive in, every stored game scores:

    - ``nonce`` is the form's one-time token: if a deal was already saved with it (a
      double tap, a resent form), nothing is added and that deal's id is returned;
    - ``seen`` is the game's version as the phone read it: if the game changed since
      (another phone added, changed, deleted or restored a deal, or ended the game),
      raises StaleError and adds nothing;
    - the game is scored with the deal appended: raises rules.RuleError (its ``deal`` is
      1-based) and adds nothing.
    Raises NotFoundError for an unknown game. :func:`add_deal_scored` also hands back
    that score.
    """
    return add_deal_scored(db, game_id, entry, nonce, seen).deal_id


def add_deal_scored(db: sqlite_utils.Database, game_id: str, entry: Mapping[str, Any],
                    nonce: str | None = None, seen: int | None = None, *,
                    mine: Iterable[str] = ()) -> SavedDeal:
    """:func:`add_deal`, handing back the game as its check inside the write scored it
    (:class:`SavedDeal`), so the caller need not score it again; the same checks and
    errors, and two more inside the write when the game changed since ``seen``:

    - changes that are all this phone's own deals (added with the form tokens ``mine``,
      sent from its outbox just before) or corrections of earlier deals on another phone
      are no conflict (:func:`own_changes`): the deal is added after them;
    - a deal added since on another phone (not with a token of ``mine``), still in play,
      with exactly this entry (:func:`same_entry`) is this very deal, entered on two
      phones (issue 18, part 8): nothing is added, and the answer names that deal
      (``SavedDeal.same``), however the two saves interleave.
    """
    now = _now()
    try:
        return _insert_deal(db, game_id, entry, nonce, seen, now, mine)
    except sqlite3.IntegrityError:  # the same form saved at the same moment by a second tap
        saved = deal_for_nonce(db, game_id, nonce)
        if saved is not None:
            return SavedDeal(saved)
        raise


def _insert_deal(db: sqlite_utils.Database, game_id: str, entry: Mapping[str, Any],
                 nonce: str | None, seen: int | None, now: str, mine: Iterable[str] = ()) -> SavedDeal:
    with writing(db):
        saved = deal_for_nonce(db, game_id, nonce)
        if saved is not None:
            return SavedDeal(saved)
        try:
            game = _fresh(db, game_id, seen)
        except StaleError as stale:
            game = stale.game
            twin = same_deal_added(db, game, stale.since, entry, mine)
            if twin is not None:  # this very deal, entered on another phone: saved once
                return SavedDeal(twin, game.deal_index(twin) + 1, same=True)
            if stale.set_back or not own_changes(db, stale.since, mine):
                raise
        _room_for(len(game.deals) + 1)
        file = game.game_file([*(d.entry for d in game.deals), dict(entry)])
        score = file.score()  # raises RuleError
        # deleted deals keep their place key, so one restored goes back where it was
        position = db.execute(
            "select coalesce(max(position) + 1, 0) from deals where game_id = ?", [game_id]
        ).fetchone()[0]
        deal_id = cast(int, db.table("deals").insert({
            "game_id": game_id, "position": position, "entry": json.dumps(dict(entry)),
            "nonce": nonce, "created_at": now, "updated_at": now,
        }).last_pk)
        _record(db, game_id, now, "deal_added", deal_id=deal_id, position=position, after=dict(entry))
        _touch(db, game_id, now)
        added = replace(game, deals=(*game.deals, StoredDeal(deal_id, position, json.loads(json.dumps(dict(entry))))))
        _written(db, game_id, added, file, score)  # scored once for the save, not again
    return SavedDeal(deal_id, len(added.deals), score)


def _room_for(deals: int) -> None:
    """Refuse a game of more than gamefile.MAX_DEALS deals in play (rules.DealError, deal
    ``deals``): every game the app holds must fit in a game file an import takes, so
    that its group can always be moved whole (a group file with one game over the limit
    is refused whole)."""
    if deals > MAX_DEALS:
        raise DealError(_("A game holds at most {most} deals, so that its file can always be imported again: "
                          "start a new game to play on.").format(most=MAX_DEALS), deal=deals)


def nonce_of_deal(db: sqlite_utils.Database, deal_id: int) -> str | None:
    """The form token deal ``deal_id`` was saved with (None: none, or no such deal)."""
    row = db.execute("select nonce from deals where id = ?", [deal_id]).fetchone()
    return row[0] if row is not None else None


def deal_for_nonce(db: sqlite_utils.Database, game_id: str, nonce: str | None) -> int | None:
    """The id of the deal of game ``game_id`` already saved with this form token, or None.
    A token only ever resolves in its own game (so in its own group): the same token sent
    to another game is a new deal there."""
    if not nonce:
        return None
    rows = list(db.table("deals").rows_where("game_id = ? and nonce = ?", [game_id, nonce], limit=1))
    return rows[0]["id"] if rows else None


def update_deal(db: sqlite_utils.Database, game_id: str, deal_id: int, entry: Mapping[str, Any],
                expected: str | None = None) -> bool:
    """Replace a deal's entry, keeping its place, and record the change; returns whether
    anything changed (False when the deal already reads ``entry``: the same edit sent
    twice is saved once, and the second answer is the same as the first).

    ``expected`` is the deal's fingerprint (:attr:`StoredDeal.version`) as the form was
    opened: if the deal reads otherwise now, raises DealChangedError. The game is scored
    with the new entry inside the write transaction: raises rules.RuleError (``deal``
    1-based). Raises NotFoundError (no such deal in play: also one deleted meanwhile).
    Nothing is written when it raises. :func:`update_deal_scored` also hands back that
    score.
    """
    return update_deal_scored(db, game_id, deal_id, entry, expected).score is not None


def update_deal_scored(db: sqlite_utils.Database, game_id: str, deal_id: int, entry: Mapping[str, Any],
                       expected: str | None = None) -> SavedDeal:
    """:func:`update_deal`, handing back the deal's number and the game as its check
    inside the write scored it (:class:`SavedDeal`; both None when the deal already
    read ``entry`` and nothing was written); the same checks and errors."""
    now = _now()
    with writing(db):
        game = get_game(db, game_id)
        index = game.deal_index(deal_id)  # raises NotFoundError, also for a deleted deal
        current = game.deals[index]
        after = dict(entry)
        if current.entry == after:
            return SavedDeal(deal_id)
        if expected is not None and current.version != expected:
            raise DealChangedError(current)
        entries = [d.entry for d in game.deals]
        entries[index] = after
        file = game.game_file(entries)
        score = file.score()  # raises RuleError
        db.table("deals").update(deal_id, {"entry": json.dumps(after), "updated_at": now})
        _record(db, game_id, now, "deal_changed", deal_id=deal_id, position=current.position,
                before=current.entry, after=after)
        _touch(db, game_id, now)
        changed = replace(current, entry=json.loads(json.dumps(after)))
        _written(db, game_id, replace(game, deals=(*game.deals[:index], changed, *game.deals[index + 1:])),
                   file, score)  # scored once for the save, not again
    return SavedDeal(deal_id, index + 1, score)


def delete_deal(db: sqlite_utils.Database, game_id: str, deal_id: int, expected: str | None = None) -> int:
    """Delete a deal softly: it leaves play (every read skips it) but keeps its entry and
    place, so :func:`restore_deal` can put it back; later deals keep their order. Its form
    token is let go, so the same form sent again after an undo saves it anew, as it did
    before deletes were soft. Returns the deal's 1-based number.

    Checked inside the write transaction: the game must still score without it (raises
    rules.RuleError, ``deal`` 1-based as counted without it); ``expected``, the deal's
    fingerprint as the phone saw it, must still be its entry (raises DealChangedError).
    Raises AlreadyDeletedError for a deal deleted already (the same delete sent twice),
    NotFoundError for no such deal. Nothing is written when it raises.
    """
    now = _now()
    with writing(db):
        game = get_game(db, game_id)
        try:
            index = game.deal_index(deal_id)
        except NotFoundError:
            gone = [d for d in deleted_deals(db, game_id) if d.id == deal_id]
            if gone:
                raise AlreadyDeletedError(game.number_at(gone[0].position)) from None
            raise
        current = game.deals[index]
        if expected is not None and current.version != expected:
            raise DealChangedError(current)
        left = replace(game, deals=tuple(d for d in game.deals if d.id != deal_id))
        file = left.game_file()
        score = file.score()  # raises RuleError
        db.table("deals").update(deal_id, {"deleted_at": now, "updated_at": now, "nonce": None})
        # a club night's table closed early counts its first deals: one of them deleted, one
        # fewer (not the first deal added after the close in its place), remembered for a restore
        db.execute("update night_tables set counted = counted - 1, counted_deleted = json_insert("
                   "coalesce(counted_deleted, '[]'), '$[#]', ?) where game_id = ? and counted >= ?",
                   [deal_id, game_id, index + 1])
        _record(db, game_id, now, "deal_deleted", deal_id=deal_id, position=current.position,
                before=current.entry)
        _touch(db, game_id, now)
        _written(db, game_id, left, file, score)  # scored once: the check's score
    return index + 1


def deal_tokens(db: sqlite_utils.Database, game_id: str, limit: int = 20) -> list[str]:
    """The form tokens (nonces) of game ``game_id``'s last ``limit`` deals in play, the
    latest first; deals stored without one (imported, made by a command) are left out.
    A page of the game carries them (next_deal.state) so that a phone counts none of its
    own deals twice: a Save whose answer was cut by a reload waits in its outbox although
    the server stored it (tester 61)."""
    return [row[0] for row in db.execute(
        "select nonce from deals where game_id = ? and deleted_at is null and nonce is not null "
        "order by position desc limit ?", [game_id, limit])]


def deleted_deals(db: sqlite_utils.Database, game_id: str) -> list[StoredDeal]:
    """The game's deleted deals (restorable), in their places' order; ``position`` is the
    place key they return to."""
    return [StoredDeal(row["id"], row["position"], json.loads(row["entry"])) for row in db.query(
        "select id, position, entry from deals where game_id = ? and deleted_at is not null "
        "order by position", [game_id])]


def added_after_delete(db: sqlite_utils.Database, game_id: str, deal_id: int) -> list[int]:
    """The ids of the deals in play that were added after deleted deal ``deal_id`` was
    last deleted and stand after its place, in order of play: its restore moves each of
    them down one place, and their dealers with them. Empty for a deal in play or unknown.
    Read it inside the restore's write transaction (store.writing) to judge that write."""
    return [row["id"] for row in db.query(
        "select d.id from deals d where d.game_id = ? and d.deleted_at is null "
        "and d.position > (select position from deals where id = ? and game_id = ? and deleted_at is not null) "
        "and exists (select 1 from changes c where c.game_id = d.game_id and c.deal_id = d.id "
        "and c.action = 'deal_added' and c.id > (select max(id) from changes where game_id = ? "
        "and deal_id = ? and action = 'deal_deleted')) order by d.position",
        [game_id, deal_id, game_id, game_id, deal_id])]


def restore_deal(db: sqlite_utils.Database, game_id: str, deal_id: int) -> int:
    """Put a deleted deal back in its old place and record it; returns its 1-based number.

    Only if the game still fits the rules with it there: the whole game is scored inside
    the write transaction, so a deal saved meanwhile on another phone counts. Raises
    NotFoundError (no such deal in the game), NotDeletedError (it is in play: a double
    tap), or rules.RuleError (the deal back in place breaks a rule; its ``deal`` is
    1-based, counted with the deal back) — and then changes nothing.
    """
    now = _now()
    with writing(db):
        rows = list(db.table("deals").rows_where("id = ? and game_id = ?", [deal_id, game_id]))
        if not rows:
            raise NotFoundError(f"no deal {deal_id} in game {game_id}")
        row = rows[0]
        if row["deleted_at"] is None:
            raise NotDeletedError(f"deal {deal_id} is in play")
        deal = StoredDeal(row["id"], row["position"], json.loads(row["entry"]))
        restored = with_deal_back(get_game(db, game_id), deal)
        _room_for(len(restored.deals))
        file = restored.game_file()
        score = file.score()  # raises RuleError: the rollback leaves all as it was
        db.table("deals").update(deal_id, {"deleted_at": None, "updated_at": now})
        # back at a club night's table closed early: counted again if it was counted when deleted
        db.execute("update night_tables set counted = counted + 1, counted_deleted = (select json_group_array("
                   "value) from json_each(counted_deleted) where value != ?) where game_id = ? and counted is not "
                   "null and exists (select 1 from json_each(counted_deleted) where value = ?)",
                   [deal_id, game_id, deal_id])
        _record(db, game_id, now, "deal_restored", deal_id=deal_id, position=deal.position, after=deal.entry)
        _touch(db, game_id, now)
        _written(db, game_id, restored, file, score)  # scored once: the check's score
    return restored.deal_index(deal_id) + 1


def update_game(db: sqlite_utils.Database, game_id: str, *, players: Iterable[str] | None = None,
                options: Mapping[str, Any] | None = None, seen: int | None = None,
                nonce: str | None = None) -> tuple[str, ...]:
    """Rename players and/or change settings, recording each ("players_renamed",
    "settings_changed"); returns the actions recorded (none when nothing changed).

    ``players``: every seat's name in playing order (seats and the kind of game never
    change). A renamed seat links to the players row of its new name (any case), created
    if new, so statistics follow people, and shows that player's spelling; a change of
    spelling only (the same name regardless of case and spacing) corrects that person's
    name everywhere; a player left in no game is dropped.
    ``options``: every option, as the game file writes them.

    ``seen``: the game's version as the form was opened; if the players or settings were
    changed since (on another phone), raises StaleError. Changes to deals meanwhile are
    no conflict: the game as changed is scored inside the write transaction with every
    deal as it is now; raises NotFoundError, or rules.RuleError (a name or setting breaks
    the file's rules, or a deal no longer fits: its ``deal`` is 1-based), NightTableError
    (a table of a club night: its players and settings are the night's; checked inside
    the write). Nothing is written when it raises.

    ``nonce``: the form's one-time token, kept with the changes it makes. The changes made
    with it are this form's own, no conflict for it; and the same form sent again once
    the game reads as it asks (a double tap, a resend: names compared by
    :func:`name_key`) writes nothing and returns (): the changes made with it
    (:func:`form_changes`) are its answer.
    """
    now = _now()
    actions: list[str] = []
    with writing(db):
        game = get_game(db, game_id)
        if seen is not None:
            since = changes_since(db, game_id, seen)
            if seen != game.version and set_back(db, game_id, seen):
                raise StaleError(game, since, set_back=True)
            if any(c.action in ("players_renamed", "settings_changed") and not (nonce and c.nonce == nonce)
                   for c in since):
                raise StaleError(game, since)
        changed = replace(game, players=game.players if players is None else tuple(players),
                          options=game.options if options is None else dict(options))
        file = changed.game_file()  # raises RuleError before anything is written
        file.score()
        new_players, new_options = file.players, file.rules.dump_options(file.options)
        if nonce and new_options == game.options and [name_key(n) for n in new_players] == \
                [name_key(n) for n in game.players] and form_changes(db, game_id, nonce):
            return ()  # sent again: saved by its first send (a spelling is not changed back)
        if new_players != game.players or new_options != game.options:
            _refuse_night_table(db, game_id)
        seated = [row[0] for row in db.execute("select player_id from game_players where game_id = ?", [game_id])]
        if new_players != game.players:
            _rename(db, game, new_players, now)
            shown = get_game(db, game_id).players  # a known player keeps their spelling
            if shown != game.players:
                _record(db, game_id, now, "players_renamed", before={"players": list(game.players)},
                        after={"players": list(shown)}, nonce=nonce)
                actions.append("players_renamed")
        if new_options != game.options:
            db.table("games").update(game_id, {"options": json.dumps(new_options)})
            _record(db, game_id, now, "settings_changed", before={"options": game.options},
                    after={"options": new_options}, nonce=nonce)
            actions.append("settings_changed")
        if actions:
            _touch(db, game_id, now)
            _written(db, game_id, left=seated)  # a renamed seat's old player loses this game
    return tuple(actions)


class SeatChangeRefusedError(Exception):
    """A seat change (or its take-back) that cannot be made; nothing was written.
    ``reason``: "no_deal" (no deal played yet: the name is changed instead), "finished"
    (the game is over: there is no next deal), "no_seat" (the game has no such seat),
    "moved" (a deal was added or removed since the form showed deal ``number``: the
    change would now start elsewhere), "not_next" (the form named another deal than the
    next one, ``number``, though no deal was added or removed since it was shown: a seat
    is taken from the next deal only), "taken_meanwhile" (another phone gave the seat to
    someone from deal ``number`` since the form was drawn),
    "deal_after" (take back: deal ``number`` was played after it already), "gone" (take
    back: it is taken back already, or was never made). ``number``: the deal concerned."""

    def __init__(self, reason: str, number: int | None = None) -> None:
        super().__init__(f"seat change refused: {reason}")
        self.reason = reason
        self.number = number


@dataclass(frozen=True)
class SeatChanged:
    """What :func:`take_seat` did: ``change`` (records.SeatTaken) as stored, from deal
    ``from_deal``, replacing ``replaces`` (who sat there); ``again``: this form token had
    made it already (a double tap), nothing was written."""

    change: SeatTaken
    from_deal: int
    replaces: str
    again: bool = False
    #: the change named the seat's player before a change still to play (a typo put
    #: right by typing that player again): ``change`` was taken back, nothing added
    taken_back: bool = False


#: The changes that move the next deal's number (what makes a form's deal number "moved")
_DEAL_MOVES = ("deal_added", "deal_deleted", "deal_restored")


def _insert_seat_change(db: sqlite_utils.Database, game_id: str, seat: int, position: int, name: str,
                        group_id: int, now: str, *, replaces: str, from_deal: int,
                        nonce: str | None = None) -> SeatTaken:
    """Write one seat change (``name`` takes ``seat`` from the deal at ``position``) and
    its "seat_taken" change (``replaces``: who sat there; ``from_deal``: that deal's
    number), inside the caller's write: a seat taken at the table (:func:`take_seat`)
    or brought by a newer game file (:func:`_add_later_deals`). The player is the
    group's (any case: they keep their spelling)."""
    player_id = _player_id(db, name, now, group_id)
    shown = db.execute("select name from players where id = ?", [player_id]).fetchone()[0]
    change_id = cast(int, db.table("seat_changes").insert({
        "game_id": game_id, "seat": seat, "position": position, "player_id": player_id,
        "created_at": now, "nonce": nonce or None}).last_pk)
    _record(db, game_id, now, "seat_taken", after={
        "id": change_id, "seat": seat, "position": position, "player": shown, "player_id": player_id,
        "replaces": replaces, "from_deal": from_deal}, nonce=nonce)
    return SeatTaken(change_id, position, seat, shown, player_id, now)


def take_seat(db: sqlite_utils.Database, game_id: str, seat: int, name: str, *,
              from_deal: int | None = None, nonce: str | None = None, seen: int | None = None) -> SeatChanged:
    """Someone takes over ``seat`` (0-based) from the next deal on (issue 18, part 3):
    ``name`` is a new player of the game's group, or a known one (any case: they keep
    their spelling), who must not sit at another seat then. Recorded as "seat_taken".

    Checked inside the write transaction: the game has seat ``seat`` (else
    SeatChangeRefusedError "no_seat"), a deal already ("no_deal": rename the seat
    instead) and is not over ("finished"); ``from_deal``, the deal the form said (None:
    not checked), is still the next one: "moved" when a deal was added, deleted or
    restored since the game's version ``seen`` (the form's; None: unknown, taken as
    moved), else "not_next" (the form named another deal: a seat is taken from the next
    deal only); the game file with the change fits GAME-FILE.md (raises rules.RuleError:
    a bad name, the player sits at another seat, or already at this one). A change of
    this seat from that same deal already (no deal played since: a wrong name) is taken
    back in the same write and this one made instead, both in the history, unless it was
    made after the game's version ``seen`` (another phone's: "taken_meanwhile"); when ``name``
    is the player who sat there before it, that change is only taken back
    (``taken_back``). ``nonce``: the form's one-time token; sent again, what it did is
    the answer.
    Raises NotFoundError for no such game, NightTableError for a table of a club night
    (its players are the night's). Nothing is written when it raises.
    """
    now = _now()
    with writing(db):
        game = get_game(db, game_id)
        if nonce:
            row = db.execute("select id from seat_changes where game_id = ? and nonce = ?",
                             [game_id, nonce]).fetchone()
            made = [c for c in game.seat_changes if row is not None and c.id == row[0]]
            done = form_changes(db, game_id, nonce)
            if made:
                replaced = [ch for ch in done if ch.action == "seat_taken"]
                return SeatChanged(made[0], game.from_deal(made[0]),
                                   replaced[0].after.get("replaces", "") if replaced else "", again=True)
            if done and done[-1].action == "seat_taken_back":  # it only took a change back
                was = done[-1].before
                return SeatChanged(SeatTaken(was["id"], was["position"], was["seat"], was["player"],
                                             was.get("player_id")), was["from_deal"], was["replaces"],
                                   again=True, taken_back=True)
        number = len(game.deals) + 1
        _refuse_night_table(db, game_id)
        if not 0 <= seat < len(game.players):
            raise SeatChangeRefusedError("no_seat", number)
        if not game.deals:
            raise SeatChangeRefusedError("no_deal", number)
        if from_deal is not None and from_deal != number:
            moved = seen is None or any(c.action in _DEAL_MOVES for c in changes_since(db, game_id, seen))
            raise SeatChangeRefusedError("moved" if moved else "not_next", number)
        position = db.execute("select coalesce(max(position) + 1, 0) from deals where game_id = ?",
                              [game_id]).fetchone()[0]
        pending = next((c for c in game.seat_changes if c.seat == seat and c.position == position), None)
        if pending is not None and seen is not None and any(
                c.action == "seat_taken" and isinstance(c.after, Mapping) and c.after.get("id") == pending.id
                for c in changes_since(db, game_id, seen)):
            # made on another phone since this form was drawn: not replaced unseen
            raise SeatChangeRefusedError("taken_meanwhile", number)
        left: list[int] = []
        if pending is not None:  # a wrong name, put right: that change goes, this one comes
            game = replace(game, seat_changes=tuple(c for c in game.seat_changes if c.id != pending.id))
            before = game.players_now[seat]
            if name_key(name) == name_key(before):  # the one who sat there plays on
                game.game_file()  # raises RuleError (as take_seat_back)
                _take_back(db, game_id, pending, number, before, now, nonce)
                return SeatChanged(pending, number, before, taken_back=True)
            _take_back(db, game_id, pending, number, before, now, nonce, written=False)
            left = [pending.player_id] if pending.player_id is not None else []
        trial = replace(game, seat_changes=(*game.seat_changes, SeatTaken(0, position, seat, name)))
        file = trial.game_file()  # raises RuleError: checks the name and who sits where
        if file.score().finished:
            raise SeatChangeRefusedError("finished", number)
        group_id = db.execute("select group_id from games where id = ?", [game_id]).fetchone()[0]
        replaces = game.players_now[seat]
        change = _insert_seat_change(db, game_id, seat, position, file.seat_changes[-1].player, group_id, now,
                                     replaces=replaces, from_deal=number, nonce=nonce)
        _touch(db, game_id, now)
        _written(db, game_id, left=left)
        _drop_unseated(db, left)
    return SeatChanged(change, number, replaces)


def take_seat_back(db: sqlite_utils.Database, game_id: str, change_id: int) -> SeatChanged:
    """Take back seat change ``change_id`` (entered by mistake; issue 18, part 3): the
    seat's previous player sits there again. Only while no deal in play was added after
    it, checked inside the write transaction (SeatChangeRefusedError "deal_after", with
    the number of the first deal its player played); "gone" when it is not there (taken
    back already: a double tap). The game without it must still fit GAME-FILE.md (raises
    rules.RuleError: e.g. the previous player sits at another seat by then). Recorded as
    "seat_taken_back"; a player left in no game is dropped. Nothing is written when it
    raises."""
    now = _now()
    with writing(db):
        game = get_game(db, game_id)
        found = [c for c in game.seat_changes if c.id == change_id]
        if not found:
            raise SeatChangeRefusedError("gone")
        change = found[0]
        if any(d.position >= change.position for d in game.deals):
            raise SeatChangeRefusedError("deal_after", game.from_deal(change))
        back = replace(game, seat_changes=tuple(c for c in game.seat_changes if c.id != change_id))
        back.game_file()  # raises RuleError
        number = game.from_deal(change)
        replaces = back.players_at(number)[change.seat]
        _take_back(db, game_id, change, number, replaces, now)
    return SeatChanged(change, number, replaces)


def _take_back(db: sqlite_utils.Database, game_id: str, change: SeatTaken, number: int, replaces: str, now: str,
               nonce: str | None = None, written: bool = True) -> None:
    """Inside a write: delete seat change ``change`` (from deal ``number``; ``replaces``
    plays the seat again) and record "seat_taken_back" (with form token ``nonce``). With
    ``written``, the write ends here: the game touched, the listeners told, and its player
    dropped if left in no game; without, the caller's write goes on and does that."""
    db.table("seat_changes").delete(change.id)
    _record(db, game_id, now, "seat_taken_back", before={
        "id": change.id, "seat": change.seat, "position": change.position, "player": change.player,
        "player_id": change.player_id, "replaces": replaces, "from_deal": number}, nonce=nonce)
    if written:
        left = [change.player_id] if change.player_id is not None else []
        _touch(db, game_id, now)
        _written(db, game_id, left=left)
        _drop_unseated(db, left)


class FirstDealPlayedError(Exception):
    """Who deals first (Trix: who holds the 7♥) can no longer change: ``deals`` deals are
    in play already, each dealt as the first dealer said. Nothing was written."""

    def __init__(self, deals: int) -> None:
        super().__init__(f"{deals} deals in play")
        self.deals = deals


def set_first_dealer(db: sqlite_utils.Database, game_id: str, seat: int, *, nonce: str | None = None) -> bool:
    """Make ``seat`` (0-based) the game's first dealer, its file's ``first_dealer``
    (GAME-FILE.md; Trix: the first kingdom's owner, whoever is dealt the 7♥ in the first
    deal, SCORING.md §2), while no deal is in play: a table of a club night is seated
    with seat 0 first (docs/club-nights.md) before anyone has seen the cards, and a
    new-game form's tap may have been the wrong one. Recorded as "first_dealer_changed"
    ({"first_dealer": seat} before and after). Returns whether anything was written
    (False: ``seat`` deals first already, or the form with one-time token ``nonce``
    changed this game already: a double tap).

    Checked inside the write transaction: raises ValueError (the game has no such seat),
    FirstDealPlayedError (a deal is in play: saved on another phone meanwhile),
    NotFoundError (GameDeletedError for a deleted game). Nothing is written when it
    raises."""
    now = _now()
    with writing(db):
        game = get_game(db, game_id)
        if nonce and form_changes(db, game_id, nonce):
            return False
        if isinstance(seat, bool) or not 0 <= seat < len(game.players):
            raise ValueError(f"no seat {seat!r} in a game of {len(game.players)}")
        if game.deals:
            raise FirstDealPlayedError(len(game.deals))
        if seat == game.first_dealer:
            return False
        db.table("games").update(game_id, {"first_dealer": seat})
        _record(db, game_id, now, "first_dealer_changed", before={"first_dealer": game.first_dealer},
                after={"first_dealer": seat}, nonce=nonce)
        _touch(db, game_id, now)
        _written(db, game_id)
    return True


def added_at(db: sqlite_utils.Database, game_id: str, deal_id: int) -> int | None:
    """The game's version its deal ``deal_id`` was added at (the id of its "deal_added"
    change: a phone's state of that version or later counts it), or None."""
    return added_versions(db, game_id, [deal_id]).get(deal_id)


def added_versions(db: sqlite_utils.Database, game_id: str, deal_ids: Iterable[int]) -> dict[int, int]:
    """:func:`added_at` of each of ``deal_ids`` in one query: {deal id: version}, a deal
    with no "deal_added" change left out."""
    wanted = sorted(set(deal_ids))
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    return {row[0]: row[1] for row in db.execute(
        f"select deal_id, min(id) from changes where game_id = ? and action = 'deal_added' "
        f"and deal_id in ({marks}) group by deal_id", [game_id, *wanted])}


def form_changes(db: sqlite_utils.Database, game_id: str, nonce: str | None) -> list[Change]:
    """The changes of game ``game_id`` made with the players-and-settings form token
    ``nonce``, oldest first (none without a token); a token resolves in its own game only."""
    if not nonce:
        return []
    return [_change(row) for row in db.query(
        "select * from changes where game_id = ? and nonce = ? order by id", [game_id, nonce])]


def _rename(db: sqlite_utils.Database, game: StoredGame, names: tuple[str, ...], now: str) -> None:
    seats = {row["seat"]: row["player_id"] for row in db.table("game_players").rows_where("game_id = ?", [game.id])}
    group_id = db.execute("select group_id from games where id = ?", [game.id]).fetchone()[0]
    left: set[int] = set()
    for seat, (old, new) in enumerate(zip(game.players, names, strict=True)):
        if old == new:
            continue
        # The same person, spelt better: the new name has the seat's player's stored key
        # (not merely the old name's key: m007_name_keys kept look-alikes apart under a
        # key of their own, and renaming one to the other's name makes them one player)
        stored_key = db.execute("select name_key from players where id = ?", [seats[seat]]).fetchone()[0]
        if stored_key == name_key(new):
            db.table("players").update(seats[seat], {"name": new})
            continue
        player_id = _player_id(db, new, now, group_id)
        db.execute("update game_players set player_id = ? where game_id = ? and seat = ?",
                   [player_id, game.id, seat])
        left.add(seats[seat])
    _drop_unseated(db, left)


def _drop_unseated(db: sqlite_utils.Database, player_ids: Iterable[int]) -> None:
    """Drop the players of ``player_ids`` who sit in no game (at its start or by a seat
    change) any more, with their record."""
    for player_id in player_ids:
        if not db.table("game_players").count_where("player_id = ?", [player_id]) and not (
                db.table("seat_changes").exists() and db.table("seat_changes").count_where(
                    "player_id = ?", [player_id])):
            db.execute("delete from player_records where player_id = ?", [player_id])
            with suppress(sqlite3.IntegrityError):  # still named elsewhere (a table of the future): keep them
                db.table("players").delete(player_id)


def entry_as_read(db: sqlite_utils.Database, game_id: str, deal_id: int, version: str) -> dict[str, Any] | None:
    """The entry deal ``deal_id`` had when its fingerprint (records.fingerprint) was
    ``version``, as a phone read it: found in the change log (what each change of the
    deal made it, and what it was before), newest first; None when no entry there has it."""
    for row in db.query("select before, after from changes where game_id = ? and deal_id = ? order by id desc",
                        [game_id, deal_id]):
        for kept in (row["after"], row["before"]):
            entry = None if kept is None else json.loads(kept)
            if isinstance(entry, dict) and fingerprint(entry) == version:
                return entry
    return None


def changes(db: sqlite_utils.Database, game_id: str) -> list[Change]:
    """Every recorded change to the game, newest first (:class:`Change`)."""
    return [_change(row) for row in db.query("select * from changes where game_id = ? order by id desc", [game_id])]


def _change(row: Mapping[str, Any]) -> Change:
    return Change(row["id"], row["game_id"], row["at"], row["action"], row["deal_id"], row["position"],
                  None if row["before"] is None else json.loads(row["before"]),
                  None if row["after"] is None else json.loads(row["after"]), row.get("nonce"))


# --- who sat where (statistics and the past-games filters) ---------------------------


def player_names(db: sqlite_utils.Database, group_id: int | None = None) -> dict[int, str]:
    """Every name of group ``group_id``'s players (None: every group's) by id (the
    players table's id), in name order."""
    where, params = ("where group_id = ?", [group_id]) if group_id is not None else ("", [])
    return {row["id"]: row["name"] for row in db.query(f"select id, name from players {where} order by name_key",
                                                       params)}


class PlayerRenameRefused(Exception):
    """A player's new name that cannot be given (:func:`rename_player`); nothing was
    written. ``reason``: "gone" (no such player in the group), "changed" (the player was
    renamed meanwhile, on another phone, from the name the form showed: ``other`` is the
    name now), "together" (the name is ``other``'s, another player who played in
    ``games`` (ids, deleted ones among them) or club nights ``nights`` (ids) with this
    one: two people, never one), "confirm" (the name is ``other``'s, and making the two
    one player was not confirmed: ``games`` are this player's games, which would become
    ``other``'s)."""

    def __init__(self, reason: str, *, other: str = "", games: tuple[str, ...] = (),
                 nights: tuple[int, ...] = ()) -> None:
        super().__init__(f"player rename refused: {reason}")
        self.reason = reason
        self.other = other
        self.games = games
        self.nights = nights


@dataclass(frozen=True)
class PlayerRenamed:
    """What :func:`rename_player` did: the player is now ``player_id``, called ``name``
    (the other player's id and spelling when the two were made one: ``merged``), in
    ``games`` games (deleted ones among them)."""

    player_id: int
    name: str
    merged: bool
    games: int


def _seat_names(db: sqlite_utils.Database, game_id: str) -> list[str]:
    """A game's players at its start, by seat, as stored now (deleted games too)."""
    return [row[0] for row in db.execute(
        "select p.name from game_players gp join players p on p.id = gp.player_id "
        "where gp.game_id = ? order by gp.seat", [game_id])]


def _taker_names(db: sqlite_utils.Database, game_id: str) -> dict[str, str]:
    """Who took over a seat in a game, as stored now: {the seat change's id (as text, a
    JSON key): the name}, in the order the changes apply."""
    if not db.table("seat_changes").exists():
        return {}
    return {str(row[0]): row[1] for row in db.execute(
        "select sc.id, p.name from seat_changes sc join players p on p.id = sc.player_id "
        "where sc.game_id = ? order by sc.position, sc.id", [game_id])}


def _names_record(players: list[str], takers: dict[str, str]) -> dict[str, Any]:
    """What "players_renamed" records of a game's names: {"players": the starting names},
    with {"took_over": {seat change id: name}} when someone took over a seat."""
    return {"players": players, **({"took_over": takers} if takers else {})}


def _games_of(db: sqlite_utils.Database, player_id: int) -> list[str]:
    """The games player ``player_id`` sat in, at the start or by a seat change (deleted
    games too), oldest first."""
    return [row[0] for row in db.execute(
        "select g.id from games g where g.id in (select game_id from game_players where player_id = ?) "
        "or g.id in (select game_id from seat_changes where player_id = ?) order by g.created_at, g.rowid",
        [player_id, player_id])]


def rename_player(db: sqlite_utils.Database, group_id: int, player_id: int, name: str, *,
                  confirmed: str | None = None, was: str | None = None) -> PlayerRenamed:
    """Give group ``group_id``'s player ``player_id`` the name ``name`` (checked by the
    caller as every name is: forms.fields.check_names) in every game of the group, the
    deleted ones too, and every club night (tester 51: a typo in ten games took ten
    changes, one game at a time).

    A name of no other player of the group (or this one's own, spelt anew) renames the
    player. Another player's name (any case: :func:`name_key`) makes the two one player,
    that one (their spelling kept), this one's games, seat changes and club nights theirs,
    once ``confirmed`` is that name's key; before, raises PlayerRenameRefused "confirm"
    (asked first). Two players who sat in one game or one club night are two people:
    PlayerRenameRefused "together", whatever is confirmed. No such player: "gone". ``was``:
    the name the form showed; renamed since (another phone, at the same moment): "changed".

    Each game whose names change, at the start or of someone who took over a seat
    (tester 53), records "players_renamed" (its history says so; the phones showing it
    see the new names), and the summaries and figures of both
    players are worked out again (:func:`after_write`), all in one write; every check is
    made inside it, and nothing is written when it raises."""
    now = _now()
    cleaned = " ".join(name.split())
    key = name_key(cleaned)
    with writing(db):
        row = db.execute("select name from players where id = ? and group_id = ?", [player_id, group_id]).fetchone()
        if row is None:
            raise PlayerRenameRefused("gone")
        if was is not None and was != row[0]:
            raise PlayerRenameRefused("changed", other=row[0])
        other = db.execute("select id, name from players where group_id = ? and name_key = ? and id != ?",
                           [group_id, key, player_id]).fetchone()
        games = _games_of(db, player_id)
        if other is None and cleaned == row[0]:
            return PlayerRenamed(player_id, cleaned, False, len(games))  # nothing to change
        before = {game_id: _names_record(_seat_names(db, game_id), _taker_names(db, game_id)) for game_id in games}
        left: list[int] = []
        if other is None:
            db.table("players").update(player_id, {"name": cleaned, "name_key": key})
            kept_id, kept_name = player_id, cleaned
        else:
            kept_id, kept_name = int(other[0]), str(other[1])
            theirs = set(_games_of(db, kept_id))
            together = tuple(game_id for game_id in games if game_id in theirs)
            nights = tuple(row[0] for row in db.execute(
                "select a.night_id from night_players a join night_players b on a.night_id = b.night_id "
                "where a.player_id = ? and b.player_id = ? order by a.night_id", [player_id, kept_id])) \
                if db.table("night_players").exists() else ()
            if together or nights:
                raise PlayerRenameRefused("together", other=kept_name, games=together, nights=nights)
            if confirmed != key:
                raise PlayerRenameRefused("confirm", other=kept_name, games=tuple(games))
            for table in ("game_players", "seat_changes", "night_players", "night_sitting_out"):
                if db.table(table).exists():
                    db.execute(f"update {table} set player_id = ? where player_id = ?", [kept_id, player_id])
            left.append(player_id)
        for game_id in games:
            after = _names_record(_seat_names(db, game_id), _taker_names(db, game_id))
            if after != before[game_id]:
                _record(db, game_id, now, "players_renamed", before=before[game_id], after=after)
            _touch(db, game_id, now)
            _written(db, game_id, left=left)
        _drop_unseated(db, left)
    return PlayerRenamed(kept_id, kept_name, other is not None, len(games))


def player_group(db: sqlite_utils.Database, player_id: int) -> int | None:
    """The group player ``player_id`` belongs to, or None for no such player."""
    row = db.execute("select group_id from players where id = ?", [player_id]).fetchone()
    return row[0] if row else None


def player_seats(db: sqlite_utils.Database, group_id: int | None = None) -> dict[str, tuple[int, ...]]:
    """Each game's player ids by seat (in playing order): {game id: (player id, …)}, of
    group ``group_id``'s games (None: every group's), deleted games left out.

    Pairs with :func:`list_games`, whose ``players`` are the same seats' names."""
    seats: dict[str, list[int]] = defaultdict(list)
    where, params = ("join games g on g.id = gp.game_id where g.deleted_at is null and g.group_id = ?",
                     [group_id]) if group_id is not None else \
        ("join games g on g.id = gp.game_id where g.deleted_at is null", [])
    for row in db.query(f"select gp.game_id, gp.player_id from game_players gp {where} "
                        f"order by gp.game_id, gp.seat", params):
        seats[row["game_id"]].append(row["player_id"])
    return {game_id: tuple(ids) for game_id, ids in seats.items()}


def sheet_version(db: sqlite_utils.Database, game_id: str) -> tuple[int, str] | None:
    """The game's version (:func:`game_version`) and its players' names as spelt now, a
    JSON array in playing order (a correction of a name's spelling in another game
    changes them here too); None when there is no such game, or it is deleted. One
    look-up, no scoring: what tells whether a kept score sheet page is still the game's."""
    row = db.execute(
        "select (select 1 from games where id = ? and deleted_at is null), "
        "(select coalesce(max(id), 0) from changes where game_id = ?), "
        "(select json_group_array(name) from (select p.name from game_players gp join players p "
        "on p.id = gp.player_id where gp.game_id = ? order by gp.seat)), "
        "(select json_group_array(name) from (select p.name from seat_changes sc join players p "
        "on p.id = sc.player_id where sc.game_id = ? order by sc.position, sc.id))",
        [game_id, game_id, game_id, game_id]).fetchone()
    if not row[0]:
        return None
    return int(row[1]), str(row[2]) if row[3] == "[]" else f"{row[2]} {row[3]}"


def live_state(db: sqlite_utils.Database, game_id: str) -> tuple[int, int, bool] | None:
    """The game's version (:func:`game_version`), its number of deals in play and whether
    it is over, from its summary (summaries.py: nothing scored); None when there is no
    such game, or it is deleted (a deleted game has no summary). What a phone polls to notice another phone's change."""
    row = db.execute("select (select coalesce(max(id), 0) from changes where game_id = ?), deals, finished "
                     "from game_summaries where game_id = ?", [game_id, game_id]).fetchone()
    return None if row is None else (int(row[0]), int(row[1]), bool(row[2]))
