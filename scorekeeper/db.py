"""One SQLite connection per request (sqlite-utils), created and migrated on start-up."""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from pathlib import Path

import click
import sqlite_utils
from flask import Flask, current_app, g

from .migrations import migrations


def connect(path: str) -> sqlite_utils.Database:
    """Open the SQLite file at ``path`` (its folder is created) with foreign keys on and
    a busy timeout, so two phones saving at once wait, not fail. (Write-ahead logging is
    a setting of the file, made once by :func:`migrate`.)"""
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    return db


def migrate(db: sqlite_utils.Database) -> None:
    """Apply every pending migration (migrations.py), then work out the lists' summaries
    that are missing or stale (summaries.refresh_stale); a no-op on an up-to-date
    database."""
    from .summaries import refresh_stale

    if db.execute("PRAGMA database_list").fetchone()[2]:  # a file, not :memory:
        db.execute("PRAGMA journal_mode = WAL")  # readers never wait for a writer
    migrations.apply(db)
    refresh_stale(db)
    from .migrations import NOTICES

    while NOTICES:  # a group made for the games already stored: say how to reach it
        click.echo(f"Your games are now in a private group. Open it on each phone at: /g/{NOTICES.pop()}\n"
                   f"(with this computer's address in front; `scorekeeper groups` lists it)", err=True)


_local = threading.local()
#: Database files a server thread keeps a connection to (tests make many apps)
_KEPT = 4


def get_db() -> sqlite_utils.Database:
    """The request's database: the connection this server thread keeps open for the
    app's file (opening one costs more than most requests' queries), opened on first use.
    Outside a transaction each statement reads the latest committed state."""
    db = g.get("db")
    if db is None:
        path = current_app.config["DATABASE"]
        kept: OrderedDict[str, sqlite_utils.Database] = _local.__dict__.setdefault("kept", OrderedDict())
        if path == ":memory:":  # a new database each time: nothing to keep
            g.db = connect(path)
            return g.db
        db = kept.pop(path, None) or connect(path)
        kept[path] = db
        while len(kept) > _KEPT:
            kept.popitem(last=False)[1].conn.close()
        g.db = db
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


def init_app(app: Flask) -> None:
    """Migrate the database now, close connections after each request, add init-db."""
    db = connect(app.config["DATABASE"])
    try:
        migrate(db)
    finally:
        db.conn.close()
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
