"""One SQLite connection per request (sqlite-utils), created and migrated on start-up."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click
import sqlite_utils
from flask import Flask, current_app, g

from .migrations import migrations


def connect(path: str) -> sqlite_utils.Database:
    """Open the SQLite file at ``path`` (its folder is created) with foreign keys on,
    write-ahead logging and a busy timeout, so two phones saving at once wait, not fail."""
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    if path != ":memory:":
        db.execute("PRAGMA journal_mode = WAL")
    return db


def migrate(db: sqlite_utils.Database) -> None:
    """Apply every pending migration (migrations.py), then work out the lists' summaries
    that are missing or stale (summaries.refresh_stale); a no-op on an up-to-date
    database."""
    from .summaries import refresh_stale

    migrations.apply(db)
    refresh_stale(db)


def get_db() -> sqlite_utils.Database:
    """The request's database, opened on first use and closed at teardown."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
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
