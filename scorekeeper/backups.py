"""Backups that are whole or absent, and restores that check before they replace anything.

No Flask here (the ``scorekeeper backup``, ``restore`` and ``replicate`` commands call
it). The database is one SQLite file in write-ahead-log mode (db.migrate), with its
``-wal`` and ``-shm`` beside it while it is in use.

- :func:`backup` copies the database with SQLite's online backup API, a step of
  :data:`STEP_PAGES` pages at a time inside one read transaction (a consistent snapshot
  while phones keep saving), into ``FILE.incomplete-XXXXXXXX`` in FILE's folder: created
  empty, readable by its owner only, before SQLite writes a byte, and written with no
  journal beside it. It checks the copy (:func:`check`), syncs it to disk and only then
  links it to FILE, which it never overwrites. A backup killed part-way (Ctrl-C, a
  reboot, a cron timeout) leaves at most an ``.incomplete-`` file, mode 0600, that no
  later backup trips over (each takes a new name).
- :func:`restore` checks a backup the same way, on a copy of its own beside the
  database, before it touches the database; refuses while a server or ``scorekeeper
  replicate`` uses the database (:func:`in_use`, an flock on ``DATABASE.lock``: the
  kernel lets go of it when the process ends, however it ends, so a server that was
  killed never blocks a restore); keeps the database it replaces as
  ``DATABASE.replaced-YYYYMMDDTHHMMSSZ`` (0600) beside it; migrates the checked copy as
  a start would and sets its change ids past every id the replaced database handed out
  (a change's id is its game's version, which phones hold: migrations.m022); then moves
  the copy into place. A restore killed part-way leaves the
  database as it was (for a damaged one whose log SQLite cannot write in: that log is
  then with the kept copy), or restored (the move is one rename), and at most a
  ``DATABASE.restoring-XXXXXXXX`` file (0600) to delete, and a ``DATABASE.replaced-``
  name of the database itself that the next restore takes as its kept copy
  (:func:`restore_leftovers` lists both; ``scorekeeper backup`` and ``restore`` name them).

Continuous backup is Litestream's (``scorekeeper replicate``, instance/litestream.example.yml).
The app leaves SQLite's write-ahead log as SQLite sets it: automatic checkpoints are
PASSIVE (at 1,000 pages) and the app runs none of its own, so none can go past what
Litestream has copied (it holds a read transaction for that); its busy timeout (10 s,
db.connect) covers Litestream's short write locks (Litestream's tips: 5 s). Only
:func:`restore`, holding the database alone, checkpoints (TRUNCATE) the database it
replaces.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

try:
    import fcntl
except ImportError:  # Windows: no flock; a restore cannot tell that a server runs there
    fcntl = None  # type: ignore[assignment]

from . import night_store, sheet, store
from .db import migrate
from .migrations import NOTICES, migrations
from .rules import KINDS, get_rules

#: Pages copied per step of the online backup (4 KB each: 256 KB a step)
STEP_PAGES = 64
#: What an unfinished backup's file is called after FILE's name (FILE.incomplete-1a2b3c4d)
INCOMPLETE = ".incomplete-"
#: What a restore calls the database it replaced (DATABASE.replaced-20261201T213000Z)
REPLACED = ".replaced-"
#: What a restore calls its checked copy of the backup before it is moved into place
RESTORING = ".restoring-"
#: The lock file beside the database (DATABASE.lock) held by whatever uses it
LOCK = ".lock"

_SQLITE_HEADER = b"SQLite format 3\x00"

#: progress(phase, done, total): phase "copying" (pages) or "checking" (games)
Progress = Callable[[str, int, int], None]


class BackupError(Exception):
    """A backup or restore that did not happen, with the reason in words an organiser
    understands (str(error)); nothing was replaced or left under the final name."""


class InUseError(BackupError):
    """The database is in use by a server or ``scorekeeper replicate`` (or a restore is
    under way)."""


@dataclass(frozen=True)
class Contents:
    """What a checked database holds: ``games`` and ``deals`` (in play) in all its
    groups, and ``unfit``: games with a stored deal that no longer fits the rules (their
    sheet shows the deals before it, as the app does)."""

    games: int
    deals: int
    unfit: int = 0


@dataclass(frozen=True)
class Restored:
    """A restore done: what the restored database holds, and where the database it
    replaced is kept (None when there was none)."""

    contents: Contents
    kept: Path | None


def _quiet(_phase: str, _done: int, _total: int) -> None:
    pass


# --------------------------------------------------------------------------- in use


def _lock_path(database: str | Path) -> Path:
    return Path(f"{database}{LOCK}")


def _open_lock(database: str | Path) -> int:
    fd = os.open(_lock_path(database), os.O_RDWR | os.O_CREAT, 0o600)
    with suppress(PermissionError):  # someone else's lock file: the lock still works
        os.fchmod(fd, 0o600)
    return fd


def _lock(database: str | Path, how: int, busy: str) -> int:
    """An flock of kind ``how`` on DATABASE.lock, held while the returned file descriptor
    stays open; InUseError(``busy``) when another process holds one that excludes it."""
    fd = _open_lock(database)
    if fcntl is None:
        return fd
    try:
        fcntl.flock(fd, how | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise InUseError(busy) from None
    return fd


def in_use(database: str | Path) -> int:
    """Mark ``database`` as in use for as long as the returned file descriptor stays
    open (a shared flock on ``DATABASE.lock``: several servers may share a database);
    a server holds it for its lifetime, so a restore waits for it to stop. Raises
    InUseError while a restore holds the database."""
    return _lock(database, fcntl.LOCK_SH if fcntl else 0,
                 f"a restore is under way on {database}: start again when it is done")


def _take_whole(database: str | Path) -> int:
    """The database to this process alone (an exclusive flock on DATABASE.lock), or
    InUseError while anything holds :func:`in_use`."""
    return _lock(database, fcntl.LOCK_EX if fcntl else 0,
                 f"the server (or scorekeeper replicate) is using {database}: stop it, restore, then start it again")


# --------------------------------------------------------------------------- checks


def _connect(path: str | Path) -> sqlite_utils.Database:
    return sqlite_utils.Database(sqlite3.connect(path, timeout=30, isolation_level=None))


def _is_sqlite(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER


def check(db: sqlite_utils.Database, name: str) -> Contents:
    """Check a copy of a Scorekeeper database: SQLite finds no damage (``PRAGMA
    integrity_check``), its schema is one this version can open (only migrations it
    knows were applied: a backup of a newer version is refused), and every game loads
    and is scored as its sheet would be. A copy made before the latest migrations is
    checked as it will be after them (migrated in memory; the file is not changed).
    ``name`` names the file in messages. Raises BackupError."""
    try:
        problems = [row[0] for row in db.execute("PRAGMA integrity_check(3)").fetchall()]
        if problems != ["ok"]:
            said = [line.strip() for p in problems for line in p.splitlines()
                    if line.strip() and not line.startswith("***")]
            raise BackupError(f"{name} is damaged ({'; '.join(said[:2]) or 'SQLite says so'})")
        applied = {m.name for m in migrations.applied(db)}
        if not applied or not db["games"].exists():
            raise BackupError(f"{name} is not a Scorekeeper database")
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{name} is not a whole SQLite database ({error})") from None
    newer = applied - {m.name for m in migrations._migrations}
    if newer:
        raise BackupError(f"{name} comes from a newer Scorekeeper (it has {sorted(newer)[-1]}): "
                          "update this one first")
    try:
        pending = migrations.pending(db)
    except ValueError as error:  # its record of migrations does not match its tables (a hand edit)
        raise BackupError(f"{name} cannot be brought up to this version of Scorekeeper ({error})") from None
    if pending:
        memory = _connect(":memory:")
        try:
            db.conn.backup(memory.conn)
            try:
                _migrate_quietly(memory)
            except (ValueError, sqlite3.DatabaseError) as error:  # tester 72: a traceback
                raise BackupError(f"{name} cannot be brought up to this version of Scorekeeper "
                                  f"({' '.join(str(error).split())[:200]})") from None
            _whole_schema(memory, name)
            return _games(memory, name)
        finally:
            memory.conn.close()
    _whole_schema(db, name)
    return _games(db, name)


def _migrate_quietly(db: sqlite_utils.Database) -> None:
    """Apply every pending migration to the in-memory ``db`` in one transaction, keeping
    none of the notices they leave (a restored file's are told when it is migrated on
    start, not by its check). Raises what a migration raises."""
    notices = len(NOTICES)
    db.conn.execute("BEGIN")
    migrations.apply(db)
    db.conn.commit()
    del NOTICES[notices:]


def _columns(db: sqlite_utils.Database) -> dict[str, set[str]]:
    """Every table of ``db`` with its columns' names."""
    return {table.name: set(table.columns_dict) for table in db.tables}


def _whole_schema(db: sqlite_utils.Database, name: str) -> None:
    """Raise BackupError when ``db`` (migrated as this version migrates it) lacks a table
    or a column that a database this version makes has (tester 70: a backup with a table
    dropped by hand was restored, and every page then answered 500)."""
    fresh = _connect(":memory:")
    try:
        _migrate_quietly(fresh)
        wanted = _columns(fresh)
    finally:
        fresh.conn.close()
    found = _columns(db)
    for table, columns in sorted(wanted.items()):
        if table not in found:
            raise BackupError(f"{name} lacks part of a Scorekeeper database (the table {table})")
        for column in sorted(columns - found[table]):
            raise BackupError(f"{name} lacks part of a Scorekeeper database (the column {table}.{column})")


def _games(db: sqlite_utils.Database, name: str) -> Contents:
    try:
        kinds = [row[0] for row in db.execute("select distinct kind from games")]
        unknown = sorted({str(kind) for kind in kinds} - set(KINDS))
        if unknown:  # the sheet, the lists and `export` cannot serve it (tester 70: 500)
            raise BackupError(f"{name} holds a game of a kind this Scorekeeper does not know ({unknown[0]!r})")
        games = store.list_games(db)
        unfit = 0
        for game in games:
            problem = sheet.build(game).problem
            if problem is not None and problem.deal is None:
                # the game itself, not a deal: its settings, players or first dealer are none
                # the rules take (tester 72: restored, then its sheet answered 500)
                raise BackupError(f"{name} holds a game that cannot be read (game {game.id}: {problem.message})")
            unfit += problem is not None
        _times_and_groups(db, name)
        _nights(db, name)
    except json.JSONDecodeError as error:  # a hand edit gone wrong: said in words, not Python's
        raise BackupError(f"{name} holds a game that cannot be read: something stored in it is not valid "
                          f"JSON ({error.msg} at character {error.pos})") from None
    except (ValueError, KeyError, TypeError, IndexError, sqlite3.DatabaseError) as error:
        raise BackupError(f"{name} holds a game that cannot be read ({type(error).__name__}: {error})") from None
    return Contents(games=len(games), deals=sum(len(g.deals) for g in games), unfit=unfit)


def _times_and_groups(db: sqlite_utils.Database, name: str) -> None:
    """Raise BackupError for a game whose times are no times, or that is in no group: the
    lists, the printable sheet and the downloads read them (tester 74: a hand-edited
    ``created_at`` restored, then the games list answered 500 for the whole group)."""
    for game_id, *times in db.execute("select id, created_at, updated_at, deleted_at from games"):
        for value in times:
            if value is not None and not _a_time(value):
                raise BackupError(f"{name} holds a game that cannot be read (game {game_id}: {value!r} is no time)")
    lost = db.execute("select id from games where group_id is null or group_id not in (select id from groups) "
                      "limit 1").fetchone()
    if lost is not None:
        raise BackupError(f"{name} holds a game of no group (game {lost[0]}): no page would show it")


def _a_time(value: object) -> bool:
    """Whether ``value`` is an ISO 8601 time as the store writes them."""
    try:
        datetime.fromisoformat(str(value))
    except ValueError:
        return False
    return True


def _nights(db: sqlite_utils.Database, name: str) -> None:
    """Raise BackupError for a club night its pages could not show: read and ranked as its
    page and the season read it (tester 74: a night's ranking, kind, table or times edited
    by hand, restored, then its pages answered 500)."""
    if not db["nights"].exists():
        return
    for night_id, created_at in db.execute("select id, created_at from nights").fetchall():
        try:
            night = night_store.get_night(db, night_id)
            rules = get_rules(night.kind)
            rules.parse_options(night.options)
            night.standing()
            if not _a_time(created_at):
                raise ValueError(f"{created_at!r} is no time")
        except Exception as error:  # whatever a page would have met, said in one line
            said = " ".join(str(error).split())[:200]
            raise BackupError(f"{name} holds a club night that cannot be read (night {night_id}: {said})") from None


# --------------------------------------------------------------------------- files


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _new_owner_only(path: Path) -> None:
    """Create ``path`` empty, mode 0600, failing if it exists (FileExistsError)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(fd, 0o600)  # whatever the umask
    finally:
        os.close(fd)


def _remove(*paths: Path) -> None:
    for path in paths:
        with suppress(FileNotFoundError):
            os.unlink(path)


def _siblings(path: Path) -> tuple[Path, ...]:
    """The file and what SQLite may keep beside it."""
    return (path, *(Path(f"{path}{suffix}") for suffix in ("-journal", "-wal", "-shm")))


def _link_new(source: Path, target: Path) -> None:
    """Give ``source`` the name ``target`` as well, never replacing a file already there
    (FileExistsError). A hard link does it atomically; where the file system has none,
    a rename after a look (a backup started at the same moment could slip in between)."""
    try:
        os.link(source, target)
    except FileExistsError:
        raise
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
            raise
        if target.exists():
            raise FileExistsError(errno.EEXIST, "File exists", str(target)) from None
        os.rename(source, target)
        return
    os.unlink(source)


def leftovers(target: str | Path) -> list[Path]:
    """Files left in ``target``'s folder by backups that were cut short
    (``ANY-FILE.incomplete-1a2b3c4d``): to ``target`` or to any other name, as a nightly
    backup to a dated name leaves them under yesterday's (tester 40: never named, they
    piled up, each the size of the database)."""
    target = Path(target)
    return sorted(p for p in target.parent.glob(f"*{INCOMPLETE}*") if _LEFTOVER.fullmatch(p.name))


#: A backup's unfinished file: FILE.incomplete- and 8 hexadecimal digits (:func:`backup`)
_LEFTOVER = re.compile(r".+" + re.escape(INCOMPLETE) + r"[0-9a-f]{8}")


def restore_leftovers(database: str | Path) -> list[Path]:
    """Files left beside ``database`` by restores that were killed part-way, each safe to
    delete: a ``DATABASE.restoring-*`` copy (and its ``-wal``), and a
    ``DATABASE.replaced-*`` that is only a second name of the database itself (the restore
    was killed between keeping the old database and putting the backup in its place: the
    database is still the old one). The next restore takes such a second name as its kept
    copy (:func:`_keep`), so it lists only the ``.restoring-`` files as its own."""
    database = Path(database)
    found = list(database.parent.glob(f"{database.name}{RESTORING}*"))
    found += [p for p in _replaced(database) if _same_file(p, database)]
    return sorted(found)


def _replaced(database: Path) -> list[Path]:
    """The ``DATABASE.replaced-*`` files beside ``database`` (without their ``-wal``)."""
    return [p for p in database.parent.glob(f"{database.name}{REPLACED}*")
            if not p.name.endswith(("-journal", "-wal", "-shm"))]


def _same_file(path: Path, other: Path) -> bool:
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


# --------------------------------------------------------------------------- backup


def backup(database: str | Path, target: str | Path, progress: Progress = _quiet,
           step_pages: int = STEP_PAGES) -> Contents:
    """Copy ``database`` to the new file ``target`` whole or not at all, readable by its
    owner only, while phones may go on saving; returns what the copy holds.

    ``progress("copying", pages copied, pages)`` is called after each step and
    ``progress("checking", 0, games)`` before the copy is checked. Raises BackupError
    (``target`` is empty or exists, is the database, its folder is missing, the
    database is missing or the copy fails its check) and leaves no file behind then."""
    if not str(target).strip():  # Path("") is the current folder
        raise BackupError("name the new file to copy the database to")
    database, target = Path(database), Path(target)
    if not database.is_file():
        raise BackupError(f"there is no database at {database}")
    if target.exists() or target.is_symlink():
        raise BackupError(f"{target} exists already: choose a new name")
    if not target.parent.is_dir():
        raise BackupError(f"there is no folder {target.parent}")
    if target.resolve() == database.resolve():
        raise BackupError("that is the database itself")
    temp = target.with_name(f"{target.name}{INCOMPLETE}{secrets.token_hex(4)}")
    try:
        _new_owner_only(temp)
    except OSError as error:
        raise BackupError(f"cannot write in {target.parent}: {error.strerror or error}") from None
    try:
        source = _connect(database)
        try:
            copy = _connect(temp)
            try:
                source.execute("BEGIN")  # one snapshot for every step
                # the games in play, as the copy's check counts them (a deleted game is
                # copied too, to be restored later, and counted by neither: tester 19)
                games = store.games_in_play(source)
                # No journal beside the copy: until it is whole it is nobody's database
                copy.execute("PRAGMA journal_mode = OFF")
                source.conn.backup(copy.conn, pages=step_pages,
                                   progress=lambda _status, left, total: progress("copying", total - left, total))
                source.execute("ROLLBACK")
                copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
                progress("checking", 0, games)
                contents = check(copy, str(target))
            finally:
                copy.conn.close()
        finally:
            source.conn.close()
        if contents.games != games:
            raise BackupError(f"the copy holds {contents.games} games instead of {games}")
        _fsync(temp)
        try:
            _link_new(temp, target)
        except FileExistsError:
            raise BackupError(f"{target} exists already: choose a new name") from None
        _fsync(target.parent)
    except sqlite3.Error as error:
        _remove(*_siblings(temp))
        raise BackupError(f"the backup failed: {error}") from None
    except BaseException:
        _remove(*_siblings(temp))
        raise
    return contents


# --------------------------------------------------------------------------- restore


def _fold_in_wal(path: Path) -> None:
    """Make the database at ``path`` one whole file (its log written into it and the
    ``-wal``/``-shm`` gone), when SQLite can."""
    if not Path(f"{path}-wal").exists():
        return
    try:
        db = sqlite3.connect(path, timeout=30)
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()  # the last connection: SQLite removes the -wal and -shm
    except sqlite3.Error:
        pass  # a damaged database: its -wal moves along with it below


def restore(backup_file: str | Path, database: str | Path, progress: Progress = _quiet) -> Restored:
    """Put the backup ``backup_file`` in place of ``database`` after checking it (as
    :func:`check`), keeping the database it replaces beside it as
    ``DATABASE.replaced-<UTC time>`` (0600, with its log folded in). The copy put in
    place is migrated (db.migrate, which says a new group's link as a start does) and
    hands out change ids only after every one the replaced database handed out, so no
    version a phone saw comes back for another state. ``backup_file`` is only read.
    Refuses (InUseError) while a server uses the database; raises BackupError
    for a file that is not a whole Scorekeeper database or is a cut-short backup's
    ``FILE.incomplete-…`` (never checked whole), and replaces nothing then."""
    if not str(backup_file).strip():  # Path("") is the current folder
        raise BackupError("name the backup file to restore")
    backup_file, database = Path(backup_file), Path(database)
    if not backup_file.exists():
        raise BackupError(f"there is no file {backup_file}")
    if not backup_file.is_file():  # a device (/dev/null), a pipe: no backup (tester 44)
        raise BackupError(f"{backup_file} is not a Scorekeeper backup (not a file)")
    if _LEFTOVER.fullmatch(backup_file.name):  # tester 47: one killed while checking was taken
        raise BackupError(f"{backup_file} is left from a backup that was cut short: its copy was never "
                          "finished and checked. Restore a backup that finished (its name has no "
                          f"{INCOMPLETE}…)")
    if database.exists() and backup_file.resolve() == database.resolve():
        raise BackupError("that is the database itself")
    try:
        if not _is_sqlite(backup_file):
            raise BackupError(f"{backup_file} is not a Scorekeeper backup (not an SQLite database)")
    except OSError as error:
        raise BackupError(f"cannot read {backup_file}: {error.strerror or error}") from None
    database.parent.mkdir(parents=True, exist_ok=True)
    lock = _take_whole(database)
    temp = database.with_name(f"{database.name}{RESTORING}{secrets.token_hex(4)}")
    replaced = False
    try:
        _new_owner_only(temp)
        try:
            with open(temp, "wb") as out, open(backup_file, "rb") as src:
                shutil.copyfileobj(src, out)
            if Path(f"{backup_file}-wal").is_file():  # a copy of a database in use, with its log
                _new_owner_only(Path(f"{temp}-wal"))
                shutil.copyfile(f"{backup_file}-wal", f"{temp}-wal")
            handed_out = _changes_handed_out(database)
            copy = _connect(temp)
            try:
                progress("checking", 0, 0)
                contents = check(copy, str(backup_file))
                migrate(copy)  # as the server would on start (m022 among them), before the next step
                _hand_out_after(copy, handed_out)
                copy.execute("PRAGMA journal_mode = DELETE")  # its log written in: one file
            except sqlite3.DatabaseError as error:
                refused = store.disk_full_error(None, error, str(temp))
                if refused is not None:  # the copy's own writes, not the backup, failed
                    raise BackupError(_no_room_for(temp, refused.detail)) from None
                raise BackupError(f"{backup_file} is not a whole SQLite database ({error})") from None
            finally:
                copy.conn.close()
            _fsync(temp)
            kept = _keep(database)
            os.replace(temp, database)
            replaced = True
            _fsync(database.parent)
        except OSError as error:  # the copy could not be written: a full disk (tester 66: a traceback)
            _remove(*_siblings(temp))
            if replaced:
                raise
            raise BackupError(_no_room_for(temp, error.strerror or str(error))) from None
        except BaseException:
            _remove(*_siblings(temp))
            raise
        # Litestream's record of the replaced database (see its docs: "Deleting SQLite
        # databases"); a running replicate was refused above
        shutil.rmtree(database.with_name(f".{database.name}-litestream"), ignore_errors=True)
    finally:
        os.close(lock)
    return Restored(contents, kept)


def _no_room_for(temp: Path, detail: str) -> str:
    """What :func:`restore` says when the copy it makes beside the database (``temp``)
    could not be written: ``detail``, the system's or SQLite's words."""
    return f"the restored copy could not be written beside the database in {temp.parent} ({detail})"


def _changes_handed_out(database: Path) -> int:
    """The highest change id ``database`` handed out (0: none, no such file, or one
    SQLite cannot read): a change's id is its game's version, which phones hold."""
    if not database.exists():
        return 0
    try:
        # the module's own connection (the restore holds the database whole), not a
        # read-only URI, which a path holding "?" or "#" would break
        old = _connect(database)
        try:
            highest = old.execute("select coalesce(max(id), 0) from changes").fetchone()[0]
            with suppress(sqlite3.OperationalError):  # no sqlite_sequence before m022
                highest = max(highest, old.execute(
                    "select coalesce(max(seq), 0) from sqlite_sequence where name = 'changes'").fetchone()[0])
            return int(highest)
        finally:
            old.conn.close()
    except sqlite3.DatabaseError:
        return 0


def _hand_out_after(db: sqlite_utils.Database, handed_out: int) -> None:
    """Make the restored database's next change id come after ``handed_out``: a phone
    that saw a version of the database it replaces never takes a later change for it
    (migrations.m022_change_ids_never_again; tester 44)."""
    db.execute("insert into sqlite_sequence (name, seq) select 'changes', 0 "
               "where not exists (select 1 from sqlite_sequence where name = 'changes')")
    db.execute("update sqlite_sequence set seq = max(seq, ?) where name = 'changes'", [handed_out])


def _keep(database: Path) -> Path | None:
    """Give the database about to be replaced a second name beside it,
    ``DATABASE.replaced-<UTC time>`` (0600), whole: its ``-wal`` written into it first,
    or, where SQLite cannot (a damaged database), moved along as the kept name's."""
    if not database.exists():
        _remove(Path(f"{database}-wal"), Path(f"{database}-shm"))
        return None
    _fold_in_wal(database)
    # A restore killed after keeping this database but before replacing it left a kept
    # name that is a second name of this very file: keep it under that name, not a second
    kept = next((p for p in _replaced(database)
                 if _same_file(p, database) and not Path(f"{p}-wal").exists()), None)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    if kept is None:
        kept = database.with_name(f"{database.name}{REPLACED}{stamp}")
    while not _same_file(kept, database):
        try:
            os.link(database, kept)
        except FileExistsError:  # two restores within a second
            kept = database.with_name(f"{database.name}{REPLACED}{stamp}-{secrets.token_hex(2)}")
    os.chmod(kept, 0o600)
    wal = Path(f"{database}-wal")
    if wal.exists() and wal.stat().st_size > 0:  # not written in: it belongs to the kept file
        os.rename(wal, f"{kept}-wal")
    _remove(wal, Path(f"{database}-shm"))
    return kept
