"""New test databases without migrating each one: the migrations run once per test process
(each xdist worker) into a template file, and every new database is a copy of it.

Every migration runs on every new database: that is the template's own making (and
tests/test_store.py runs them on a new file and on a real old database). What a copy
saves is doing it again for each of the thousand apps the tests make: about 40 % of
making an app. The template holds no group: the first phone or command makes it, as on a
new install, so two test databases never share a link.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from scorekeeper import store
from scorekeeper.db import connect, migrate

_template: Path | None = None


def _migrated_template() -> Path:
    global _template
    if _template is None:
        folder = Path(tempfile.mkdtemp(prefix="scorekeeper-template-"))
        atexit.register(shutil.rmtree, folder, True)
        path = folder / "migrated.sqlite3"
        db = connect(str(path))
        try:
            migrate(db)
        finally:
            db.conn.close()  # the last connection: its write-ahead log is folded in
        _template = path
    return _template


def new_database(path: Path | str) -> str:
    """``path`` made a migrated, empty database (no game, no group) readable by its owner
    alone, as ``scorekeeper`` makes one; returns ``path`` as a string. A file already
    there is left as it is (a test that built its database first)."""
    path = str(path)
    if not os.path.exists(path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_migrated_template(), path)
        os.chmod(path, 0o600)
    return path


def close_lock_files(folder: Path | str) -> int:
    """Close the write lock files (``<database>-lock``) this process's store holds open
    for databases inside ``folder``; returns how many. The store opens one a database on
    its first write and keeps it (:func:`scorekeeper.store._lock_file`): right for a
    server of one database, a descriptor a test for a process that runs the whole suite.
    The store opens it again should a database there be written once more."""
    inside = os.path.join(os.path.realpath(folder), "")
    closed = 0
    for key, fd in list(store._lock_files.items()):
        pid, path = key
        if pid == os.getpid() and os.path.realpath(path).startswith(inside):
            del store._lock_files[key]
            os.close(fd)
            closed += 1
    return closed


def close_kept_connections() -> int:
    """Close the connections this thread keeps open to database files
    (:func:`scorekeeper.db.kept_connection`), as in a server process that has not opened
    its database yet; returns how many. The next request opens its own again."""
    from scorekeeper import db as databases

    kept = databases._local.__dict__.get("kept", {})
    closed = len(kept)
    while kept:
        kept.popitem()[1].conn.close()
    return closed
