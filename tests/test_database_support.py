"""The tests' own databases (tests/database_support.py): a process that runs the whole
suite (``make test JOBS=0``, for a debugger) makes over a thousand of them, and must not
keep a descriptor for each."""

from __future__ import annotations

import os

from scorekeeper import store
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.conftest import game_file
from tests.database_support import close_lock_files, new_database


def _lock_descriptors(database: str) -> int:
    """How many of this process's descriptors are ``database``'s write lock file."""
    target = os.path.realpath(f"{database}-lock")
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.path.realpath(os.readlink(f"/proc/self/fd/{fd}")) == target
        except OSError:
            continue
    return count


def test_a_tests_lock_file_is_closed_and_a_later_write_opens_it_again(tmp_path):
    database = new_database(tmp_path / "kept.sqlite3")
    db = connect(database)
    try:
        store.create_game(db, from_dict(game_file()))
        assert _lock_descriptors(database) == 1  # the store keeps it open after the write
        assert close_lock_files(tmp_path) == 1
        assert _lock_descriptors(database) == 0
        store.create_game(db, from_dict(game_file()))  # written again: opened again
        assert _lock_descriptors(database) == 1
        assert len(store.list_games(db)) == 2
    finally:
        db.conn.close()
        close_lock_files(tmp_path)


def test_only_the_lock_files_inside_the_folder_are_closed(tmp_path):
    mine, other = new_database(tmp_path / "a" / "mine.sqlite3"), new_database(tmp_path / "b" / "other.sqlite3")
    connections = [connect(mine), connect(other)]
    try:
        for db in connections:
            store.create_game(db, from_dict(game_file()))
        assert close_lock_files(tmp_path / "a") == 1
        assert (_lock_descriptors(mine), _lock_descriptors(other)) == (0, 1)
    finally:
        for db in connections:
            db.conn.close()
        close_lock_files(tmp_path)
