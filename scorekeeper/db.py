"""One SQLite connection per request (sqlite-utils), created and migrated on start-up."""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections import OrderedDict
from contextlib import suppress
from pathlib import Path

import click
import sqlite_utils
from flask import Flask, current_app, g

from . import groups, store, summaries
from .migrations import NOTICES, migrations
from .store import disk_full_error

#: Seconds a start-up waits for another process's migrations (a first start after an
#: upgrade may work out every game's summaries again: about a minute for 5,000 games)
START_UP_TIMEOUT = 600

_log = logging.getLogger(__name__)


def owner_only(path: str | Path) -> None:
    """Make the file at ``path`` readable and writable by its owner only (0600), if it
    exists and is ours: the database holds every game, the secret key signs sessions.
    SQLite gives the -wal and -shm files the database file's permissions."""
    try:
        if (os.stat(path).st_mode & 0o777) != 0o600:
            os.chmod(path, 0o600)
    except FileNotFoundError:
        pass
    except PermissionError:
        _log.warning("Could not make %s readable by its owner only", path)


def wire_store() -> None:
    """Hand the store what it leaves to the modules above it: every write of a game
    refreshes the lists' summaries inside its transaction (summaries.refresh_written), and
    a game stored without a group named goes into the only one (groups.only_group_id).
    Done by :func:`connect`, so every database opened here keeps its summaries; doing it
    again changes nothing."""
    store.after_write(summaries.refresh_written)
    store.default_group(groups.only_group_id)


def on_disk(path: str) -> bool:
    """Whether the database ``path`` names is a file on disk: not SQLite's ":memory:" nor
    a "file:" URI."""
    return path != ":memory:" and not path.startswith("file:")


def connect(path: str) -> sqlite_utils.Database:
    """Open the SQLite file at ``path`` (its folder is created; a new file is made
    readable by its owner only) with foreign keys on and a busy timeout, so two phones
    saving at once wait, not fail; the store's writes keep the summaries
    (:func:`wire_store`). (Write-ahead logging is a setting of the file, made once by
    :func:`migrate`.)"""
    wire_store()
    if on_disk(path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        if not os.path.exists(path):
            # created empty, 0600, before SQLite opens it (SQLite would make it 0644); a
            # FileExistsError: another process made it meanwhile
            with suppress(FileExistsError):
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    return db


def migrate(db: sqlite_utils.Database) -> None:
    """Apply every pending migration (migrations.py), then work out the lists' summaries
    that are missing or stale (summaries.refresh_stale); a no-op on an up-to-date
    database.

    Safe when two servers, or a server and a ``scorekeeper`` command, start at once on
    one file: the migrations run in one ``BEGIN IMMEDIATE`` transaction, so one process
    migrates while the other waits (up to :data:`START_UP_TIMEOUT`) and then finds
    nothing pending; without it both would read "nothing here yet" and the second to write
    would fail with "database is locked" or "table already exists"."""
    path = db.execute("PRAGMA database_list").fetchone()[2]
    timeout = db.execute("PRAGMA busy_timeout").fetchone()[0]
    db.execute(f"PRAGMA busy_timeout = {START_UP_TIMEOUT * 1000}")
    try:
        if path:  # a file, not :memory:
            for suffix in ("", "-wal", "-shm"):
                owner_only(path + suffix)
            _write_ahead_logging(db)  # readers never wait for a writer
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            migrations.apply(db)  # each migration a savepoint inside this transaction
        except BaseException:
            if db.conn.in_transaction:
                db.conn.rollback()
            raise
        db.conn.commit()
        summaries.refresh_stale(db)  # in batches of its own transactions: a second process only repeats some
    except sqlite3.DatabaseError as error:
        # a start on a full disk (no room for the write-ahead log): said as such, by name
        refused = disk_full_error(db, error)
        if refused is None:
            raise
        raise refused from error
    finally:
        db.execute(f"PRAGMA busy_timeout = {timeout}")
    while NOTICES:  # a group made for the games already stored: say how to reach it
        click.echo(f"Your games are now in a private group. Open it on each phone at: /g/{NOTICES.pop()}\n"
                   f"(with this computer's address in front; `scorekeeper groups` lists it)", err=True)


def _write_ahead_logging(db: sqlite_utils.Database) -> None:
    """Make the file write-ahead logged. Switching needs the file to itself, and SQLite
    answers "database is locked" at once, without its busy timeout, while another
    connection starting at the same moment holds it; so this tries again, for up to
    :data:`START_UP_TIMEOUT` seconds."""
    deadline = time.monotonic() + START_UP_TIMEOUT
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


_local = threading.local()
#: Database files a server thread keeps a connection to (tests make many apps)
_KEPT = 4


def get_db() -> sqlite_utils.Database:
    """The request's database: the connection this server thread keeps open for the
    app's file (opening one costs more than most requests' queries), opened on first use.
    Outside a transaction each statement reads the latest committed state."""
    db: sqlite_utils.Database | None = g.get("db")
    if db is None:
        path = current_app.config["DATABASE"]
        if path == ":memory:":  # a new database each time: nothing to keep
            db = g.db = connect(path)
            return db
        db = g.db = kept_connection(path)
    return db


def kept_connection(path: str) -> sqlite_utils.Database:
    """The connection this thread keeps open to the database file at ``path`` (opened on
    first use; the last few files' kept). Without Flask: the quick answers to polls
    (views/live.py) read through it before any request context exists. A caller that
    wrote must commit or roll back before it returns."""
    kept: OrderedDict[str, sqlite_utils.Database] = _local.__dict__.setdefault("kept", OrderedDict())
    db = kept.pop(path, None) or connect(path)
    kept[path] = db
    while len(kept) > _KEPT:
        kept.popitem(last=False)[1].conn.close()
    return db


def close_db(_exc: BaseException | None = None) -> None:
    """End of a request: its connection stays open for the thread's next request, with
    anything a failed write left half done rolled back."""
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()
    if db is not None and current_app.config["DATABASE"] == ":memory:":
        db.conn.close()


@click.command("init-db")
def init_db_command() -> None:
    """Create the database or bring it up to date (also done on every start)."""
    db = connect(current_app.config["DATABASE"])
    migrate(db)
    db.conn.close()
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


class DatabaseUnusable(Exception):
    """The database file cannot be opened at all (``path``; ``reason`` in words): it is a
    folder, or on a disk this process may not write (SQLite writes its write-ahead log and
    index beside it even to read), or no database (a file of another kind, a damaged one:
    tester 21), or SQLite could not open it for another reason. The
    commands say it in one line (cli.py), not with SQLite's traceback (tester 19)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"the database {path} cannot be opened: {reason}")
        self.path, self.reason = path, reason


def _unusable(path: str, error: Exception) -> DatabaseUnusable:
    where = Path(path)
    if where.is_dir():
        reason = "it is a folder; name a file (SCOREKEEPER_DATABASE) in it instead"
    elif type(error) is sqlite3.DatabaseError:  # "file is not a database", "disk image is malformed"
        reason = ("it is no database (a file of another kind, or a damaged one: SQLite says "
                  f"\"{error}\"); name the database file (SCOREKEEPER_DATABASE), or put it back "
                  "from a backup (scorekeeper restore)")
    elif not os.access(where.parent, os.W_OK) or (where.exists() and not os.access(where, os.W_OK)):
        reason = ("this user may not write there (a read-only disk?); SQLite writes beside the "
                  "database even to read it: copy it to a disk that can be written")
    else:
        reason = str(error)
    return DatabaseUnusable(path, reason)


def init_app(app: Flask) -> None:
    """Migrate the database now, close connections after each request, add init-db.
    Raises :class:`DatabaseUnusable` for a database that cannot be opened at all. Whether
    the file was made just now (no database was there) is kept in
    ``app.extensions["scorekeeper.new_database"]``: the commands say so, as a mistyped
    SCOREKEEPER_DATABASE makes a new, empty database where the group's games are not."""
    path = str(app.config["DATABASE"])
    app.extensions["scorekeeper.new_database"] = on_disk(path) and not os.path.exists(path)
    try:
        db = connect(path)
    except (sqlite3.OperationalError, IsADirectoryError, PermissionError) as error:
        raise _unusable(path, error) from None
    try:
        migrate(db)
    except sqlite3.DatabaseError as error:
        if type(error) not in (sqlite3.OperationalError, sqlite3.DatabaseError):
            raise  # (a constraint a migration broke is a bug to see whole, not a file to name)
        raise _unusable(path, error) from None
    finally:
        db.conn.close()
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
