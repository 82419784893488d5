"""A SQLite file beside the database that every worker process of one server shares
(limit_storage.py: the limits' counts; shared_pages.py: the sheets drawn), opened the one
way both need: made on first use (mode 600, whichever process comes first), in WAL mode,
autocommit (each caller begins its own transactions)."""

from __future__ import annotations

import os
import sqlite3
import time
from contextlib import suppress


def open_side_file(path: str, *, timeout: float, synchronous: str) -> sqlite3.Connection:
    """A connection to ``path`` (made if missing), in WAL mode with ``synchronous``
    ("normal" or "off"), waiting up to ``timeout`` seconds for a lock; usable from any
    thread (each caller keeps one a thread and a process). Raises sqlite3.Error when the
    file cannot be opened or switched to WAL."""
    if not os.path.exists(path):
        with suppress(FileExistsError):  # made by another process meanwhile
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    for attempt in range(200):  # switching to WAL needs the file alone for a moment
        try:
            conn.execute("pragma journal_mode = wal")
            break
        except sqlite3.OperationalError:
            if attempt == 199:
                raise
            time.sleep(0.01)
    conn.execute(f"pragma synchronous = {'off' if synchronous == 'off' else 'normal'}")
    return conn
