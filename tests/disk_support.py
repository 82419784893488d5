"""A small disk for the full-disk tests (issue 16, part 7): a folder whose file system can
be filled up and freed again while the app's database lives in it.

- As root (CI, and these machines): a real tmpfs of a few MB mounted on the folder
  (``mount -t tmpfs -o size=…``), filled with a file until the kernel answers "No space
  left on device", freed by deleting that file; unmounted afterwards, always.
- Where mounting is not permitted: the file size limit of the processes that write there
  (RLIMIT_FSIZE, set with ``prlimit``: the test's own process for the Flask test client,
  the server's for a real server), lowered to nothing so the kernel refuses every write
  that would make a file longer (EFBIG: SQLite says "disk I/O error"), raised again to
  free it. Not skipped: the same tests run, and assert what SQLite then reports.

  (SQLite's ``PRAGMA max_page_count`` was the first idea for this fallback: it is a
  setting of one connection, not of the file, and it only refuses a write that needs a
  new page, so a deal that fits in a page's free room would still be saved.)

Before filling, the database's write-ahead log is emptied (``wal_checkpoint(TRUNCATE)``),
so every write has to make a file longer: without that, SQLite reuses the log's old room
and a small write may still succeed on a full disk.
"""

from __future__ import annotations

import errno
import os
import resource
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from scorekeeper.db import connect, migrate

#: Size of the tmpfs: room for the database, its log, and a few games
SIZE = "4m"


def _checkpoint(database: Path) -> None:
    """Empty the database's write-ahead log into the file (retrying while a reader
    holds it back: the server's idle connections hold nothing for long)."""
    deadline = time.monotonic() + 30
    conn = sqlite3.connect(database, timeout=10)
    try:
        while True:
            busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy:
                return
            assert time.monotonic() < deadline, "the write-ahead log could not be emptied"
            time.sleep(0.05)
    finally:
        conn.close()


class SmallDisk:
    """The folder ``folder`` on a small disk. ``fill(database)`` leaves no room (and
    empties the database's log first), ``free()`` gives the room back. ``reason`` is what
    the app then reports (store.DiskFullError.reason): "full" on a tmpfs, "i/o" under a
    file size limit; ``how`` says which one this is."""

    def __init__(self, folder: Path, how: str) -> None:
        self.folder = folder
        self.how = how
        self.reason = "full" if how == "tmpfs" else "i/o"
        self._filler = folder / "filler"
        self._limited: list[int] = []

    def fill(self, database: Path, pid: int = 0) -> None:
        """No more room for ``database`` (written by process ``pid``; 0: this one)."""
        _checkpoint(database)
        if self.how == "tmpfs":
            fd = os.open(self._filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                while True:
                    os.write(fd, b"\0" * 65536)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
            try:  # what a block left, byte by byte
                while True:
                    os.write(fd, b"\0")
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
            finally:
                os.close(fd)
        else:
            hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)[1]
            resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, hard))
            self._limited.append(pid)

    def free(self) -> None:
        """The room back: the filler deleted, or the file size limit lifted."""
        if self.how == "tmpfs":
            self._filler.unlink(missing_ok=True)
        while self._limited:
            pid = self._limited.pop()
            try:
                hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)[1]
                resource.prlimit(pid, resource.RLIMIT_FSIZE, (hard, hard))
            except ProcessLookupError:
                pass


def _can_mount() -> bool:
    return (os.environ.get("SCOREKEEPER_TEST_SMALL_DISK") != "limit" and hasattr(os, "geteuid")
            and os.geteuid() == 0 and shutil.which("mount") is not None)


@contextmanager
def small_disk(folder: Path) -> Iterator[SmallDisk]:
    """A :class:`SmallDisk` on ``folder`` (made if missing): a tmpfs where mounting
    works, else a file size limit (module docstring). Unmounted, and every limit lifted,
    afterwards, whatever happened."""
    folder.mkdir(parents=True, exist_ok=True)
    mounted = False
    if _can_mount():
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE},mode=0700", "tmpfs", str(folder)],
                              capture_output=True, text=True)
        mounted = done.returncode == 0
    disk = SmallDisk(folder, "tmpfs" if mounted else "limit")
    try:
        yield disk
    finally:
        disk.free()
        # lazily if a connection of the app is still open in this process (the test
        # client's thread keeps one): the file system goes when it is closed
        if mounted and subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], check=True)


@contextmanager
def read_only_disk(folder: Path) -> Iterator[Path]:
    """``folder`` (made if missing) as a disk mounted read-only (a tmpfs, remounted
    ``ro``) holding a migrated database, ``scores.sqlite3``; unmounted afterwards. Skips
    the test where mounting is not permitted (not root): no file permission stands for a
    read-only disk to root."""
    if not _can_mount():
        pytest.skip("mounting a read-only disk needs root")
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE},mode=0700", "tmpfs", str(folder)], check=True)
    try:
        db = connect(str(folder / "scores.sqlite3"))
        try:
            migrate(db)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.conn.close()
        for leftover in ("scores.sqlite3-wal", "scores.sqlite3-shm"):
            (folder / leftover).unlink(missing_ok=True)
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        yield folder
    finally:
        if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], check=True)
