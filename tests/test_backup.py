"""Backups that are whole or absent, restores that check first (scorekeeper/backups.py,
docs/deploying.md "Backups").

The killed backups are real: ``scorekeeper backup`` runs as its own process on a database
of a few thousand games and gets SIGKILL at several points of its work (its progress
lines on standard error tell where it is). "Scores the same" compares every game's
players, deal entries and totals as the score sheet works them out.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from scorekeeper import create_app, groups, sheet, store
from scorekeeper.cli import main
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.database_support import close_kept_connections
from tests.run_support import made_once, run_folder
from tests.test_gamefile import TRIX_KINGDOM, plain_deal

SCOREKEEPER = str(Path(sys.executable).parent / "scorekeeper")
#: Games stored through the store, then copied by SQL to make a database of a few thousand
STORED, COPIES = 150, 8
#: Bound on any wait for a process (not a timing assertion)
TIMEOUT = 60
#: The tests that run `scorekeeper` as a process of its own on a big database and kill it
#: part-way, or a server beside it (make test-fast leaves them out; make test runs them)
SLOW = pytest.mark.slow


#: Games of several kinds and lengths (keyword arguments of conftest.game_file)
GAMES: list[dict[str, Any]] = [
    {"deals": [WORKED_TRIGAMI_DEAL] * 3},
    {"deals": [plain_deal([4, 5, 4], [1, 0, 3])] * 4},
    {"deals": [plain_deal([5, 4, 4], [0, 2, 2]), WORKED_TRIGAMI_DEAL]},
    {"deals": []},
    {"kind": "trix", "deals": TRIX_KINGDOM},
]


def _games() -> list[dict[str, Any]]:
    return [game_file(**kwargs) for kwargs in GAMES]


def scores(database: Path) -> dict[str, tuple[Any, ...]]:
    """Every game of the database: id → (kind, players, deal entries, totals, problem)."""
    db = connect(str(database))
    try:
        out = {}
        for game in store.list_games(db):
            scored = sheet.build(game)
            out[game.id] = (game.kind, game.players, [d.entry for d in game.deals],
                            scored.score.totals if scored.score else None, scored.problem)
        return out
    finally:
        db.conn.close()


def _build_big(folder: Path) -> None:
    """Store STORED × COPIES games (about 3 MB: a few dozen steps of the backup) into
    ``folder``/big.sqlite3, their summaries made, as one file with no -wal beside it."""
    path = folder / "big.sqlite3"
    create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(path)})
    db = connect(str(path))
    try:
        group = groups.only_group(db) or groups.create(db, "Tuesday table")
        files = _games()
        for i in range(STORED):
            store.create_game(db, from_dict(files[i % len(files)]), group_id=group.id)
        with store.writing(db):
            for k in range(1, COPIES):
                db.execute("insert into games (id, kind, first_dealer, options, created_at, updated_at, group_id) "
                           "select id || ?, kind, first_dealer, options, created_at, updated_at, group_id "
                           "from games where instr(id, '~') = 0", [f"~{k}"])
                db.execute("insert into game_players select game_id || ?, seat, player_id from game_players "
                           "where instr(game_id, '~') = 0", [f"~{k}"])
                db.execute("insert into deals (game_id, position, entry, created_at, updated_at) "
                           "select game_id || ?, position, entry, created_at, updated_at from deals "
                           "where instr(game_id, '~') = 0", [f"~{k}"])
    finally:
        db.conn.close()
    create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(path)})  # the copies' summaries
    sqlite3.connect(path).execute("VACUUM").connection.close()  # one file, no -wal


# Made once for the whole run (tests/run_support.py) and read by each worker whose tests
# need it: a module-scoped fixture was made again each time a worker came back to this
# module's tests (about 8 s each time, several times a run)
@pytest.fixture(scope="session")
def big(tmp_path_factory, worker_id) -> tuple[Path, dict[str, tuple[Any, ...]]]:
    """A database of STORED × COPIES games (:func:`_build_big`), all of which score, and
    its games' scores; tests copy it (:func:`database`), never change it."""
    made = made_once(run_folder(tmp_path_factory, worker_id), "backup-big", _build_big) / "big.sqlite3"
    path = tmp_path_factory.mktemp("big") / "big.sqlite3"  # this worker's own: reading it may write (-wal)
    shutil.copyfile(made, path)
    scored = scores(path)
    assert len(scored) == STORED * COPIES
    assert not any(s[4] for s in scored.values()), "every game of the test database scores"
    return path, scored


@pytest.fixture
def database(tmp_path, big) -> Path:
    """A copy of the big database, for one test."""
    path = tmp_path / "scores.sqlite3"
    shutil.copyfile(big[0], path)
    path.chmod(0o600)
    return path


def env(database: Path, tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "SCOREKEEPER_DATABASE": str(database), "SCOREKEEPER_SECRET_KEY": "test",
            "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance"), "SCOREKEEPER_RATELIMIT_ENABLED": "false"}


def run(database: Path, *args: str) -> Result:
    """``scorekeeper ARGS`` in-process on ``database``."""
    return CliRunner(env={"SCOREKEEPER_DATABASE": str(database), "SCOREKEEPER_SECRET_KEY": "test",
                          "SCOREKEEPER_INSTANCE_PATH": str(database.parent / "instance")}).invoke(main, list(args))


def others_can_read(folder: Path) -> list[str]:
    """Files in ``folder`` that anyone but their owner may read or write."""
    return [f"{p.name} {stat.filemode(p.stat().st_mode)}" for p in folder.iterdir()
            if p.is_file() and p.stat().st_mode & 0o077]


# --------------------------------------------------------------------------- backup


def _wait_for(proc: subprocess.Popen, ready) -> list[str]:
    """Read the process's standard error, line by line, until ``ready(line)``; returns the
    lines read. Fails if the process ends first."""
    lines: list[str] = []
    for line in proc.stderr:
        lines.append(line.rstrip("\n"))
        if ready(lines[-1]):
            return lines
    raise AssertionError(f"the backup ended before the point to kill it: {lines}")

def _kill_part_way(proc: Any, folder: Path, appears: str | None, line: Any) -> None:
    """SIGKILL ``proc`` as soon as a file matching ``appears`` is in ``folder`` (when
    given), else once it prints a line that ``line`` matches; its pipes closed, and
    killed whatever happened."""
    try:
        if appears is not None:
            deadline = time.monotonic() + TIMEOUT
            while not list(folder.glob(appears)):
                assert proc.poll() is None and time.monotonic() < deadline, f"no {appears} file appeared"
                time.sleep(0.001)
        else:
            _wait_for(proc, line)
        proc.kill()
        proc.wait(TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(TIMEOUT)
        proc.stdout.close()
        proc.stderr.close()



def _copied(line: str) -> int:
    """The percentage a "Copying: 40 %" line tells; -1 for another line."""
    return int(line.split()[1]) if line.startswith("Copying: ") else -1


#: Where to kill the backup: its file made; after the first step of the copy; half-way
#: through the copy; while it checks the copy
KILL_POINTS = {
    "started": None,
    "first step": lambda line: _copied(line) >= 0,
    "half-way": lambda line: _copied(line) >= 50,
    "checking": lambda line: line.startswith("Checking"),
}


@SLOW
@pytest.mark.parametrize("point", list(KILL_POINTS))
def test_a_killed_backup_leaves_no_file_nothing_others_can_read_and_the_next_backup_works(
        big, database, tmp_path, point):
    folder = tmp_path / "backups"
    folder.mkdir()
    os.chmod(folder, 0o755)
    target = folder / "scores-monday.sqlite3"
    old_umask = os.umask(0o022)  # as an organiser's shell: new files readable by all unless chosen
    try:
        proc = subprocess.Popen([SCOREKEEPER, "backup", str(target)], env=env(database, tmp_path),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    finally:
        os.umask(old_umask)
    # its file made, before or as the copy begins
    _kill_part_way(proc, folder, "*.incomplete-*" if point == "started" else None, KILL_POINTS.get(point))
    assert proc.returncode == -signal.SIGKILL, "killed part-way, not finished"
    assert not target.exists(), "a killed backup left a file under the backup's name"
    left = sorted(p.name for p in folder.iterdir())
    assert left and all(name.startswith("scores-monday.sqlite3.incomplete-") for name in left), left
    assert not others_can_read(folder)
    # nor is it taken by a restore: never checked whole (tester 47: one killed while
    # checking was restored)
    refused = run(database, "restore", str(folder / left[0]))
    assert refused.exit_code == 1 and "is left from a backup that was cut short" in refused.stderr
    assert scores(database) == big[1]

    # the next night's backup, to its own dated name (docs/deploying.md): the leftover of
    # Monday's is named all the same (tester 40: only a backup to the same name said so)
    tuesday = folder / "scores-tuesday.sqlite3"
    again = subprocess.run([SCOREKEEPER, "backup", str(tuesday)], env=env(database, tmp_path),
                           capture_output=True, text=True, timeout=TIMEOUT * 2)
    assert again.returncode == 0, again.stderr
    assert f"Backed up {STORED * COPIES} games" in again.stdout
    for name in left:  # each leftover named
        assert f"{folder / name} is left from a backup that was cut short" in again.stderr
    assert not others_can_read(folder)
    assert stat.S_IMODE(tuesday.stat().st_mode) == 0o600
    assert scores(tuesday) == big[1]


def test_backup_writes_a_whole_checked_copy_and_never_overwrites(tmp_path, app, make_game):
    database = Path(app.config["DATABASE"])
    make_game(deals=[WORKED_TRIGAMI_DEAL])
    target = tmp_path / "copy.sqlite3"
    done = run(database, "backup", str(target))
    assert done.exit_code == 0, done.output
    assert "Backed up 1 game, 1 deal to" in done.stdout
    # a copy of one step says it is whole, not only "Copying: 60 %" (tester 15)
    assert [line for line in done.stderr.splitlines() if line.startswith("Copying: ")][-1:] == ["Copying: 100 %"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("copy")) == ["copy.sqlite3"]
    with open(target, "rb") as f:
        assert f.read(20)[18:20] == b"\x01\x01"  # a rollback-journal file: whole without a -wal beside it
    assert scores(target) == scores(database)
    before = target.read_bytes()
    again = run(database, "backup", str(target))
    assert again.exit_code == 1 and "exists already" in again.stderr
    assert target.read_bytes() == before
    itself = run(database, "backup", str(database))
    assert itself.exit_code == 1 and "exists already" in itself.stderr
    nowhere = run(database, "backup", str(tmp_path / "no such folder" / "copy.sqlite3"))
    assert nowhere.exit_code == 1 and "no folder" in nowhere.stderr and "Traceback" not in nowhere.output
    unnamed = run(database, "backup", "")  # not the current folder, "." ("exists already")
    assert unnamed.exit_code == 1 and "name the new file to copy the database to" in unnamed.stderr
    unnamed = run(database, "restore", "")
    assert unnamed.exit_code == 1 and "name the backup file to restore; nothing was replaced" in unnamed.stderr
    assert scores(target) == scores(database)


# --------------------------------------------------------------------------- restore


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(database: Path, tmp_path: Path) -> tuple[subprocess.Popen, str]:
    """``scorekeeper serve`` on a free port of 127.0.0.1, answering; (process, base URL)."""
    import urllib.request

    port = _free_port()
    proc = subprocess.Popen([SCOREKEEPER, "serve", "--port", str(port)], env=env(database, tmp_path),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            urllib.request.urlopen(url + "/manifest.webmanifest", timeout=5).close()
            return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError("scorekeeper serve did not start") from None
            time.sleep(0.05)


@pytest.fixture
def killed_later() -> Iterator[list[subprocess.Popen]]:
    """Processes a test starts, killed at its end if still running."""
    procs: list[subprocess.Popen] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(TIMEOUT)


def _add_games(database: Path, files: list[dict[str, Any]]) -> None:
    db = connect(str(database))
    try:
        group = groups.only_group(db) or groups.all_groups(db)[0]
        for file in files:
            store.create_game(db, from_dict(file), group_id=group.id)
    finally:
        db.conn.close()


def _leave_a_wal(database: Path, files: list[dict[str, Any]]) -> None:
    """Store games from a process that is then killed, as a server's would be: what it
    saved is in the database's -wal only."""
    code = ("import sys, json, os, signal\n"
            "from scorekeeper import groups, store\n"
            "from scorekeeper.db import connect\n"
            "from scorekeeper.gamefile import from_dict\n"
            "db = connect(sys.argv[1])\n"
            "group = groups.all_groups(db)[0]\n"
            "for f in json.loads(sys.argv[2]): store.create_game(db, from_dict(f), group_id=group.id)\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n")
    import json

    done = subprocess.run([sys.executable, "-c", code, str(database), json.dumps(files)], timeout=TIMEOUT)
    assert done.returncode == -signal.SIGKILL
    assert Path(f"{database}-wal").stat().st_size > 0


def test_a_database_with_a_deleted_game_is_backed_up_with_it_restorable_from_the_copy(tmp_path, app, make_game):
    """Tester 19 (HIGH): once any game had been deleted (restorable, never purged), every
    backup failed: "the copy holds 0 games instead of 1". The copy is checked against the
    games in play, and keeps the deleted one, which can be restored from it."""
    database = Path(app.config["DATABASE"])
    kept = make_game(deals=[WORKED_TRIGAMI_DEAL])
    gone = make_game(players=["Dora", "Eli", "Finn"], deals=[WORKED_TRIGAMI_DEAL] * 2)
    db = connect(str(database))
    try:
        store.delete_game(db, gone)
    finally:
        db.conn.close()
    backup = tmp_path / "monday.sqlite3"
    done = run(database, "backup", str(backup))
    assert done.exit_code == 0, done.output
    assert "1 game" in done.output and backup.is_file()
    assert list(scores(backup)) == [kept]
    copy = connect(str(backup))
    try:
        store.restore_game(copy, gone)
        assert [d.entry for d in store.get_game(copy, gone).deals] == [WORKED_TRIGAMI_DEAL] * 2
    finally:
        copy.conn.close()


def test_restore_puts_back_every_game_scoring_the_same_and_keeps_the_replaced_database(tmp_path, app, make_game):
    database = Path(app.config["DATABASE"])
    for kwargs in GAMES:
        make_game(**kwargs)
    backup = tmp_path / "monday.sqlite3"
    assert run(database, "backup", str(backup)).exit_code == 0
    at_backup = scores(database)
    _add_games(database, [game_file(deals=[WORKED_TRIGAMI_DEAL])])
    _leave_a_wal(database, [game_file(players=["Dora", "Emil", "Fay"], deals=[WORKED_TRIGAMI_DEAL] * 2)])
    before_restore = scores(database)
    assert len(before_restore) == len(at_backup) + 2

    done = run(database, "restore", str(backup))
    assert done.exit_code == 0, done.output
    assert f"Restored {len(at_backup)} games" in done.stdout
    assert scores(database) == at_backup
    (kept,) = [p for p in tmp_path.glob("test.sqlite3.replaced-*") if not p.name.endswith(("-wal", "-shm"))]
    assert f"kept as {kept}" in done.stdout
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert scores(kept) == before_restore  # with what was only in the -wal
    assert not Path(f"{kept}-wal").exists() or Path(f"{kept}-wal").stat().st_size == 0
    assert not list(tmp_path.glob("*.restoring-*"))
    assert backup.exists() and scores(backup) == at_backup  # the backup is only read
    # the next start migrates and serves it
    restarted = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(database)})
    assert "Anna" in restarted.test_client().get("/").get_data(as_text=True)
    assert scores(database) == at_backup


def test_a_restore_onto_a_disk_without_room_says_so_in_one_line_and_replaces_nothing(tmp_path, app, make_game):
    """Tester 66: ``scorekeeper restore`` onto a disk without room for the copy it makes
    beside the database ended in a traceback (shutil.copyfileobj: "No space left on
    device"). It says so in one line; the database is the one it was, nothing is left
    beside it, and the same restore works once there is room."""
    from tests.disk_support import small_disk

    source = Path(app.config["DATABASE"])
    for kwargs in GAMES * 6:
        make_game(**kwargs)
    backup = tmp_path / "saturday.sqlite3"
    assert run(source, "backup", str(backup)).exit_code == 0
    with small_disk(tmp_path / "small") as disk:
        database = tmp_path / "small" / "scores.sqlite3"
        (tmp_path / "small" / "instance").mkdir()
        shutil.copyfile(backup, database)
        db = connect(str(database))
        try:
            store.delete_game(db, store.list_games(db)[0].id)  # the database differs from the backup
        finally:
            db.conn.close()
        before = scores(database)
        disk.fill(database)
        try:
            done = run(database, "restore", str(backup))
        finally:
            disk.free()
        assert done.exit_code == 1, done.output
        assert done.stderr.startswith("scorekeeper: the restored copy could not be written beside the database in ")
        assert done.stderr.rstrip().endswith("; nothing was replaced") and done.stderr.count("\n") == 1
        assert isinstance(done.exception, SystemExit)  # said and ended, not raised
        assert scores(database) == before
        assert not list((tmp_path / "small").glob("*.restoring-*"))
        again = run(database, "restore", str(backup))  # room again: it works
        assert again.exit_code == 0, again.output
        assert scores(database) == scores(backup)


@SLOW
def test_restore_is_refused_while_the_server_runs_and_works_after_it_was_killed(tmp_path, killed_later):
    database = tmp_path / "scores.sqlite3"
    create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(database)})
    db = connect(str(database))
    groups.create(db, "Tuesday table")
    db.conn.close()
    _add_games(database, [game_file(deals=[WORKED_TRIGAMI_DEAL])])
    backup = tmp_path / "monday.sqlite3"
    assert run(database, "backup", str(backup)).exit_code == 0
    _add_games(database, [game_file(deals=[WORKED_TRIGAMI_DEAL] * 2)])
    server, _url = serve(database, tmp_path)
    killed_later.append(server)
    before = scores(database)

    refused = subprocess.run([SCOREKEEPER, "restore", str(backup)], env=env(database, tmp_path),
                             capture_output=True, text=True, timeout=TIMEOUT)
    assert refused.returncode == 1
    assert "the server (or scorekeeper replicate) is using" in refused.stderr and "stop it" in refused.stderr
    assert "nothing was replaced" in refused.stderr and "Traceback" not in refused.stderr
    assert scores(database) == before
    assert not list(tmp_path.glob("*.replaced-*")) and not list(tmp_path.glob("*.restoring-*"))

    server.kill()  # its lock file stays: a killed server must not block the restore
    server.wait(TIMEOUT)
    assert Path(f"{database}.lock").exists()
    done = subprocess.run([SCOREKEEPER, "restore", str(backup)], env=env(database, tmp_path),
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert scores(database) == scores(backup)
    (kept,) = [p for p in tmp_path.glob("scores.sqlite3.replaced-*") if not p.name.endswith(("-wal", "-shm"))]
    assert scores(kept) == before

    again, _url = serve(database, tmp_path)  # and the server starts on the restored database
    killed_later.append(again)


def _truncated(backup: Path) -> bytes:
    return backup.read_bytes()[: backup.stat().st_size // 2]


def _page_damaged(backup: Path) -> bytes:
    data = bytearray(backup.read_bytes())
    page = 4096
    for at in range(3 * page, len(data), 5 * page):  # garbage in the middle of pages
        data[at + 100: at + 400] = os.urandom(300)
    return bytes(data)


def _other_program(tmp_path: Path) -> bytes:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as other:
        other.execute("create table recipes (name text)")
    other.close()
    return path.read_bytes()


def _newer(backup: Path, tmp_path: Path) -> bytes:
    path = tmp_path / "newer.sqlite3"
    shutil.copyfile(backup, path)
    with sqlite3.connect(path) as newer:
        newer.execute("insert into _sqlite_migrations (migration_set, name, applied_at) "
                      "values ('scorekeeper', 'm999_from_the_future', '2030-01-01')")
    newer.close()
    return path.read_bytes()


def _schema_broken(backup: Path, tmp_path: Path) -> bytes:
    """The backup with an index's entry in its schema damaged so that SQLite's refusal
    quotes it across lines (as a damaged page once did in CI: "malformed database schema
    (…\n   "name" TEXT,) …")."""
    path = tmp_path / "schema.sqlite3"
    shutil.copyfile(backup, path)
    with sqlite3.connect(path) as edited:
        edited.execute("PRAGMA writable_schema = ON")
        edited.execute("update sqlite_master set name = name || char(10) || '   \"name\" TEXT,', "
                       "sql = 'CREATE INDEX broken ON' where name = (select min(name) from sqlite_master "
                       "where type = 'index' and sql is not null)")
    edited.close()
    return path.read_bytes()


def _unreadable_game(backup: Path, tmp_path: Path) -> bytes:
    path = tmp_path / "unreadable.sqlite3"
    shutil.copyfile(backup, path)
    with sqlite3.connect(path) as edited:  # a deal's entry no longer JSON (a hand edit gone wrong)
        edited.execute("update deals set entry = '{\"bids\": [' where id = (select max(id) from deals)")
    edited.close()
    return path.read_bytes()


def _edited(backup: Path, tmp_path: Path, *statements: str) -> bytes:
    """The backup after a hand edit (``statements`` run on a copy)."""
    path = tmp_path / "edited.sqlite3"
    shutil.copyfile(backup, path)
    with sqlite3.connect(path) as edited:
        for statement in statements:
            edited.execute(statement)
    edited.close()
    return path.read_bytes()


@pytest.mark.parametrize("kind, says", [
    # in words, not Python's (tester 15, LOW: "JSONDecodeError: Expecting value")
    ("unreadable game", "holds a game that cannot be read: something stored in it is not valid JSON (Expecting value at"),
    # tester 70: restored, then its sheet, the games list and `export` answered 500 or wrote
    # a file the import refuses
    ("unknown kind", "holds a game of a kind this Scorekeeper does not know ('poker')"),
    ("table missing", "lacks part of a Scorekeeper database (the table night_tables)"),
    ("column missing", "lacks part of a Scorekeeper database (the column games.updated_at)"),
    # tester 72: a traceback (its last migration's record deleted: run again, it met its own work)
    ("migration record gone", "cannot be brought up to this version of Scorekeeper"),
    # tester 72: restored, then the sheet answered 500; and "a deal that no longer fits"
    ("settings no object", "holds a game that cannot be read"),
    ("first dealer no seat", "holds a game that cannot be read"),
    ("text", "not a Scorekeeper backup (not an SQLite database)"),
    ("empty", "not a Scorekeeper backup"),
    ("truncated", "monday-bad.sqlite3 is"),
    ("damaged", "monday-bad.sqlite3 is"),
    ("schema quoted across lines", "monday-bad.sqlite3 is not a whole SQLite database (malformed database schema"),
    ("other program", "is not a Scorekeeper database"),
    ("newer", "comes from a newer Scorekeeper"),
])
def test_restore_refuses_a_file_that_is_not_a_whole_backup_and_replaces_nothing(tmp_path, app, make_game, kind, says):
    database = Path(app.config["DATABASE"])
    for _ in range(40):  # pages enough to damage some in the middle
        make_game(deals=[WORKED_TRIGAMI_DEAL] * 3)
    backup = tmp_path / "monday.sqlite3"
    assert run(database, "backup", str(backup)).exit_code == 0
    bad = tmp_path / "monday-bad.sqlite3"
    bad.write_bytes({"text": lambda: b"Anna,Ben,Carla\n80,200,13\n", "empty": lambda: b"",
                     "truncated": lambda: _truncated(backup), "damaged": lambda: _page_damaged(backup),
                     "other program": lambda: _other_program(tmp_path),
                     "newer": lambda: _newer(backup, tmp_path),
                     "schema quoted across lines": lambda: _schema_broken(backup, tmp_path),
                     "unreadable game": lambda: _unreadable_game(backup, tmp_path),
                     "unknown kind": lambda: _edited(backup, tmp_path,
                                                     "update games set kind = 'poker' where rowid = 1"),
                     "table missing": lambda: _edited(backup, tmp_path, "drop table night_tables"),
                     "column missing": lambda: _edited(backup, tmp_path, "alter table games drop column updated_at"),
                     "migration record gone": lambda: _edited(
                         backup, tmp_path, "delete from _sqlite_migrations where id = (select max(id) from _sqlite_migrations)"),
                     "settings no object": lambda: _edited(backup, tmp_path, "update games set options = '[1, 2]' where rowid = 1"),
                     "first dealer no seat": lambda: _edited(backup, tmp_path, "update games set first_dealer = 7 where rowid = 1"),
                     }[kind]())
    _leave_a_wal(database, [game_file(deals=[WORKED_TRIGAMI_DEAL])])
    before = scores(database)
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("test.sqlite3")}

    refused = run(database, "restore", str(bad))
    assert refused.exit_code == 1
    assert isinstance(refused.exception, SystemExit)
    assert "Traceback" not in refused.output
    (line,) = [x for x in refused.stderr.splitlines() if x.startswith("scorekeeper:")]
    assert says in line and line.endswith("nothing was replaced"), line
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("test.sqlite3")
            and not p.name.endswith(".lock")} == {k: v for k, v in files.items() if not k.endswith(".lock")}
    assert not list(tmp_path.glob("*.replaced-*")) and not list(tmp_path.glob("*.restoring-*"))
    assert scores(database) == before


@pytest.mark.parametrize("edit, says", [
    ("update games set created_at = 'garbage' where rowid = 1", "holds a game that cannot be read (game "),
    ("update games set group_id = 99 where rowid = 1", "holds a game of no group (game "),
    ("update nights set ranking = 'bogus'", "holds a club night that cannot be read (night 1: "),
    ("update nights set kind = 'trix'", "holds a club night that cannot be read (night 1: "),
    ("update night_tables set game_id = 'nonexist' where number = 1", "holds a club night that cannot be read"),
    ("update night_players set away = 'garbage' where position = 0", "holds a"),
    ("update nights set created_at = 'garbage'", "holds a club night that cannot be read (night 1: 'garbage' is no time)"),
], ids=["game's time", "game of no group", "night's ranking", "night's kind", "night's table",
        "night player's rounds away", "night's time"])
def test_restore_refuses_a_hand_edited_night_or_time_its_pages_could_not_show(tmp_path, app, db, edit, says):
    """Tester 74: each of these hand edits of a backup was restored, and then the games
    list (the whole group), a night's page or the season answered 500. A Trigami night of
    nine, its first table having dealt, and a game of the group's own."""
    from scorekeeper import night_actions
    from tests.test_nights import NINE

    database = Path(app.config["DATABASE"])
    store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    started = night_actions.start_night(db, groups.only_group(db).id, kind="trigami", options={"target": 500},
                                        players=NINE, rounds=2, ranking="placings", seating="random", seed=7)
    store.add_deal(db, _first_table(db, started.night_id), WORKED_TRIGAMI_DEAL)
    backup = tmp_path / "night.sqlite3"
    assert run(database, "backup", str(backup)).exit_code == 0
    bad = tmp_path / "night-bad.sqlite3"
    bad.write_bytes(_edited(backup, tmp_path, edit))
    before = scores(database)
    refused = run(database, "restore", str(bad))
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    (line,) = [x for x in refused.stderr.splitlines() if x.startswith("scorekeeper:")]
    assert says in line and line.endswith("nothing was replaced"), line
    assert scores(database) == before
    assert run(database, "restore", str(backup)).exit_code == 0  # the backup as made is put back


def _first_table(db, night_id: int) -> str:
    from scorekeeper import night_store

    return night_store.get_night(db, night_id).current.tables[0].game.id


@pytest.mark.parametrize("name, says", [
    ("/dev/null", "/dev/null is not a Scorekeeper backup (not a file)"),  # tester 44: "there is no file"
    ("monday.sqlite3", "there is no file"),
])
def test_restore_says_which_way_a_name_is_no_backup_and_replaces_nothing(tmp_path, app, make_game, name, says):
    database = Path(app.config["DATABASE"])
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    refused = run(database, "restore", name if name.startswith("/") else str(tmp_path / name))
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    (line,) = [x for x in refused.stderr.splitlines() if x.startswith("scorekeeper:")]
    assert says in line and line.endswith("nothing was replaced"), line
    assert [game.id for game in store.list_games(connect(str(database)))] == [game_id]


def test_a_backup_from_before_groups_is_restored_migrated_and_its_groups_link_told(tmp_path):
    """The restore migrates the copy as the server's start would (so that its change ids
    can be set past the replaced database's: m022), and says the link of the group made
    for its games, as that start said it."""
    old = Path(__file__).parent / "data" / "before-groups.sqlite3"
    database = tmp_path / "scores.sqlite3"
    create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(database)})
    done = run(database, "restore", str(old))
    assert done.exit_code == 0, done.output
    with sqlite3.connect(database) as restored:
        games = restored.execute("select count(*) from games").fetchone()[0]
        token = restored.execute("select token from links").fetchone()[0]
    restored.close()
    assert f"Restored {games} games" in done.stdout
    assert f"Your games are now in a private group. Open it on each phone at: /g/{token}" in done.output
    create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(database)})  # migrates
    assert len(scores(database)) == games


@SLOW
def test_a_backup_taken_while_games_are_saved_is_one_moment_of_the_database(database, tmp_path):
    """Games saved (by another connection, as the server's) during every step of the copy:
    the backup holds the database as it was at one moment, whole, with no game half
    there, and every game in it scores as in the database."""
    import threading

    with sqlite3.connect(database) as counting:
        before = counting.execute("select count(*) from games").fetchone()[0]
    counting.close()
    stop = threading.Event()
    saved: list[str] = []

    def keep_saving() -> None:
        db = connect(str(database))
        try:
            group = groups.all_groups(db)[0]
            while not stop.is_set():
                saved.append(store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL] * 2)),
                                               group_id=group.id))
        finally:
            db.conn.close()

    saver = threading.Thread(target=keep_saving, daemon=True)
    saver.start()
    try:
        while not saved:  # the saving has begun
            time.sleep(0.01)
        target = tmp_path / "during.sqlite3"
        done = subprocess.run([SCOREKEEPER, "backup", str(target)], env=env(database, tmp_path),
                              capture_output=True, text=True, timeout=TIMEOUT * 2)
    finally:
        stop.set()
        saver.join(TIMEOUT)
    assert done.returncode == 0, done.stderr
    copied, now = scores(target), scores(database)
    assert before < len(copied) <= len(now)
    assert all(now[game_id] == game for game_id, game in copied.items())
    newer = [g for g in saved if g in copied]
    assert saved[: len(newer)] == newer  # the games saved first, none skipped


def test_a_copy_that_fails_its_check_is_not_named_and_not_left_behind(tmp_path, app, make_game):
    database = Path(app.config["DATABASE"])
    make_game(deals=[WORKED_TRIGAMI_DEAL])
    with sqlite3.connect(database) as edited:  # a hand edit gone wrong in the database itself
        edited.execute("update deals set entry = 'not json'")
    edited.close()
    folder = tmp_path / "backups"
    folder.mkdir()
    failed = run(database, "backup", str(folder / "copy.sqlite3"))
    assert failed.exit_code == 1 and "holds a game that cannot be read" in failed.stderr
    assert "Traceback" not in failed.output
    assert list(folder.iterdir()) == []


# --------------------------------------------------------------------------- a killed restore


def _small_database(tmp_path: Path) -> Path:
    """A database of one group and one game, as the one a restore replaces."""
    database = tmp_path / "live" / "scores.sqlite3"
    database.parent.mkdir()
    create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(database)})
    db = connect(str(database))
    groups.create(db, "Tuesday table")
    db.conn.close()
    _add_games(database, [game_file(deals=[WORKED_TRIGAMI_DEAL])])
    return database


@SLOW
@pytest.mark.parametrize("point", ["started", "checking"])
def test_a_killed_restore_leaves_the_database_as_it_was_and_its_leftover_is_named(
        big, database, tmp_path, point):
    live = _small_database(tmp_path)
    before = scores(live)
    proc = subprocess.Popen([SCOREKEEPER, "restore", str(database)], env=env(live, tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # its copy begun
    _kill_part_way(proc, live.parent, "*.restoring-*" if point == "started" else None,
                   lambda line: line.startswith("Checking"))
    assert proc.returncode == -signal.SIGKILL, "killed part-way, not finished"
    assert scores(live) == before
    left = [p for p in live.parent.glob("scores.sqlite3.restoring-*") if not p.name.endswith(("-wal", "-shm"))]
    assert len(left) == 1, sorted(p.name for p in live.parent.iterdir())
    assert not others_can_read(live.parent)

    # the next backup and the next restore name it, and say it may go
    says = f"({left[0]} is left from a restore that was cut short: you may delete it)"
    saved = subprocess.run([SCOREKEEPER, "backup", str(tmp_path / "tuesday.sqlite3")], env=env(live, tmp_path),
                           capture_output=True, text=True, timeout=TIMEOUT * 2)
    assert saved.returncode == 0 and says in saved.stderr, saved.stderr
    again = subprocess.run([SCOREKEEPER, "restore", str(database)], env=env(live, tmp_path),
                           capture_output=True, text=True, timeout=TIMEOUT * 2)
    assert again.returncode == 0 and says in again.stderr, again.stderr
    assert scores(live) == big[1]
    (kept,) = [p for p in live.parent.glob("scores.sqlite3.replaced-*") if not p.name.endswith(("-wal", "-shm"))]
    assert scores(kept) == before


@SLOW
def test_a_restore_killed_after_keeping_the_database_leaves_one_kept_copy_after_the_next(tmp_path, app, make_game):
    """Killed between giving the database its kept name and moving the backup into place
    (a moment no output marks, so the state it leaves is made here: the kept name is a
    second name of the database itself), the database is still the old one: backup names
    that name, and the next restore keeps the database under it, not under a second."""
    database = Path(app.config["DATABASE"])
    make_game()
    backup = tmp_path / "monday.sqlite3"
    assert run(database, "backup", str(backup)).exit_code == 0
    at_backup = scores(database)
    make_game(players=["Dora", "Emil", "Fay"])
    before = scores(database)
    earlier = tmp_path / "test.sqlite3.replaced-20261201T210000Z"
    sqlite3.connect(database).execute("PRAGMA wal_checkpoint(TRUNCATE)").connection.close()
    os.link(database, earlier)

    saved = run(database, "backup", str(tmp_path / "tuesday.sqlite3"))
    assert saved.exit_code == 0
    assert f"({earlier} is left from a restore that was cut short: you may delete it)" in saved.stderr

    done = run(database, "restore", str(backup))
    assert done.exit_code == 0, done.output
    assert scores(database) == at_backup
    kept = [p for p in tmp_path.glob("test.sqlite3.replaced-*") if not p.name.endswith(("-wal", "-shm"))]
    assert kept == [earlier], kept
    assert f"kept as {earlier}" in done.stdout
    assert scores(earlier) == before
    assert stat.S_IMODE(earlier.stat().st_mode) == 0o600


def test_after_a_restore_no_version_a_phone_saw_is_handed_out_again(tmp_path, app, client, make_game, db):
    """Tester 44 (HIGH): a game's version is the id of its latest change, and a restored
    backup gave the next changes the ids of changes it no longer had. A phone whose sheet
    showed deal 2 (version v) took another phone's different deal 2, saved after the
    restore at that same version v, for the one it had, and its form kept from before the
    restore saved with no word. After a restore, every new change comes after every id
    handed out before; a phone that saw a version the restored game no longer has is told
    the game was set back, and its form saves nothing until it has looked."""
    from tests.test_web import WORKED_FORM

    database = Path(app.config["DATABASE"])
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    backup = tmp_path / "monday.sqlite3"
    assert run(database, "backup", str(backup)).exit_code == 0
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)  # deal 2: Anna +80, Ben +200, Carla +13
    seen = client.get(f"/games/{game_id}/live").get_json()["version"]
    form = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert f'name="seen" type="hidden" value="{seen}"' in form  # deal 3's form, kept on the phone
    assert run(database, "restore", str(backup)).exit_code == 0

    close_kept_connections()  # the server stopped for the restore: its connections with it
    restarted = create_app({**app.config, "DATABASE": str(database)})
    phone = restarted.test_client()
    other = connect(str(database))
    try:
        store.add_deal(other, game_id, {**WORKED_TRIGAMI_DEAL, "tricks": [4, 4, 5]})  # another deal 2
        after = store.get_game(other, game_id).version
    finally:
        other.conn.close()
    assert after > seen  # never a version handed out before the restore
    told = phone.get(f"/games/{game_id}/live?since={seen}").get_json()
    assert told["version"] == after and told["stops"] is True
    saved = phone.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "seen": str(seen), "nonce": "kept"})
    assert saved.status_code == 409
    page = " ".join(re.sub(r"<[^>]+>", " ", saved.get_data(as_text=True)).split())
    assert "The game was set back on the server to an earlier copy (a backup was put back), so some of what " \
        "this phone showed may be gone." in page
    assert "Nothing was saved." in page and "another phone was quicker" not in page  # no phone set it back
    assert "Deal 2 was added on another phone" in page  # and what came after: theirs beside mine
    check = connect(str(database))
    try:
        assert [d.entry["tricks"] for d in store.get_game(check, game_id).deals] == [[4, 5, 4], [4, 4, 5]]
    finally:
        check.conn.close()
    assert told["news"].startswith("The game was set back on the server to an earlier copy")


def test_a_restore_reads_the_ids_handed_out_whatever_the_databases_folder_is_called(tmp_path):
    """The replaced database's highest change id, read before the restore sets the next
    ids past it, from a folder whose name would break an SQLite URI ("#", "?")."""
    from scorekeeper.backups import _changes_handed_out

    folder = tmp_path / "club #1?"
    folder.mkdir()
    database = folder / "scores.sqlite3"
    create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(database)})
    db = connect(str(database))
    try:
        group = groups.create(db, "Tuesday table")
        game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])), group_id=group.id)
        store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
        version = store.game_version(db, game_id)
    finally:
        db.conn.close()
    assert version > 0 and _changes_handed_out(database) == version
