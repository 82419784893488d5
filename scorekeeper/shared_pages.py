"""Drawn pages shared between the worker processes of one server (issue 20, part 6): a
score sheet drawn by one worker is read by the others instead of drawn again.

After a deal is saved, the four phones at the table ask for the new sheet within a poll's
two seconds, over connections that different workers hold; each worker keeps its pages
in its own memory (views/kept.py), so without this each worker would draw the sheet,
the most costly page there is (its chart above all), once. Here the first worker to draw
a version keeps it also in a SQLite file beside the database (``<database>-pages``), and
a worker that has not got it looks there first. A page's key holds everything it shows
(views/games._page_key: the game's version among it), so a kept page is never out of
date; pages older than :data:`KEPT_SECONDS` are removed as new ones come. The file is a
cache: losing it loses nothing (``synchronous = OFF``), and it is not backed up.

Each start of a server keeps its pages apart from the last one's (a random ``run``, made
before the workers are forked, in every key): a database restored between two starts may
bring back a game's version number with other deals behind it, and a page of the last
run must never be taken for it.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import sqlite3
import threading
import time
from contextlib import suppress

from .side_files import open_side_file

#: How long a page stays in the file: a table polls every two seconds
KEPT_SECONDS = 600


class SharedPages:
    """Pages by key (a string: :func:`key_of`), as (meta, page): ``meta`` a short text
    (the page's own facts, JSON), ``page`` its bytes; in the SQLite file at ``path``,
    shared by every process and thread that opens it (each thread of each process its own
    connection)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.run = secrets.token_hex(8)  # this start of the server's (see the module's docstring)
        self._local = threading.local()

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None or getattr(self._local, "pid", None) != os.getpid():
            conn = open_side_file(self.path, timeout=5, synchronous="off")
            conn.execute("create table if not exists pages (key text primary key, meta text not null, "
                         "page blob not null, at real not null)")
            conn.execute("create index if not exists pages_at on pages (at)")
            self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    def get(self, key: str) -> tuple[str, bytes] | None:
        """(meta, page) kept under ``key``, or None; a file that cannot be read is None too
        (the page is drawn instead)."""
        try:
            row = self._connection().execute("select meta, page from pages where key = ?",
                                             [f"{self.run}:{key}"]).fetchone()
        except sqlite3.Error:
            return None
        return None if row is None else (str(row[0]), bytes(row[1]))

    def set(self, key: str, meta: str, page: bytes) -> None:
        """Keep ``page`` under ``key``, removing pages older than :data:`KEPT_SECONDS`; a
        file that cannot be written (busy, full) keeps nothing."""
        now = time.time()
        with suppress(sqlite3.Error):
            conn = self._connection()
            conn.execute("begin immediate")
            try:
                conn.execute("delete from pages where at < ?", [now - KEPT_SECONDS])
                conn.execute("insert or replace into pages (key, meta, page, at) values (?, ?, ?, ?)",
                             [f"{self.run}:{key}", meta, page, now])
            except BaseException:
                conn.execute("rollback")
                raise
            conn.execute("commit")


def key_of(key: object) -> str:
    """A page's key (any value whose ``repr`` says everything it shows) as the file keeps it."""
    return hashlib.sha256(repr(key).encode()).hexdigest()
