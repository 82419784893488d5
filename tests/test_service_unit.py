"""docs/deploying.md's systemd unit and crontab line, run as systemd and cron would run them.

There is no systemd here: the unit's ``ExecStart`` is started with its ``Environment``
lines, its ``WorkingDirectory`` and its ``UMask``, and stopped with SIGTERM, which is what
``systemctl stop`` sends. The nightly backup line is run by ``sh`` with cron's reading of
``\\%`` (a plain ``%``). The unit's paths (/srv/scorekeeper …) are put in a temporary
folder, its program is this checkout's.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorekeeper.cli import main
from tests.proxy_support import DEPLOYING, TIMEOUT, _wait_listening, free_port
from tests.race_support import Phone

pytestmark = pytest.mark.slow

CHECKOUT = "/srv/scorekeeper"


def _section() -> str:
    text = DEPLOYING.read_text(encoding="utf-8")
    start = text.index("### As a service that starts with the computer (systemd)")
    return text[start:text.index("\n## ", start)]


def _unit() -> dict[str, list[str]]:
    """The unit's [Service] settings, {key: [values in order]}."""
    block = re.search(r"```ini\n(.*?)```", _section(), re.S)
    assert block, "docs/deploying.md shows no unit"
    settings: dict[str, list[str]] = {}
    part = None
    for line in block.group(1).splitlines():
        if line.startswith("["):
            part = line
        elif "=" in line and part == "[Service]":
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def _here(text: str, folder: Path) -> str:
    """``text`` with the unit's checkout in ``folder`` and its program this checkout's."""
    program = Path(sys.executable).with_name("scorekeeper")
    return text.replace(f"{CHECKOUT}/.venv/bin/scorekeeper", str(program)).replace(CHECKOUT, str(folder))


def _environment(settings: dict[str, list[str]], folder: Path, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    for line in settings["Environment"]:
        key, _, value = _here(line, folder).partition("=")
        env[key] = value
    return env


def test_the_documented_unit_serves_leaves_nothing_readable_to_others_and_stops_as_systemctl_stop_does(tmp_path):
    settings = _unit()
    assert settings["User"] == ["scorekeeper"] and settings["Restart"] == ["on-failure"]
    port = free_port()
    argv = shlex.split(_here(settings["ExecStart"][0], tmp_path))
    assert argv[1:3] == ["serve", "--host"] and argv[argv.index("--port") + 1] == "5000"
    argv[argv.index("--port") + 1] = str(port)
    env = _environment(settings, tmp_path, port)
    umask = int(settings["UMask"][0], 8)
    log = tmp_path / "journal.log"
    with log.open("w") as out:
        server = subprocess.Popen(argv, env=env, cwd=_here(settings["WorkingDirectory"][0], tmp_path),
                                  stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  preexec_fn=lambda: os.umask(umask))
    try:
        assert _wait_listening(port, server), log.read_text()
        assert Phone(f"http://127.0.0.1:{port}").get("/welcome").status == 200
        # the journal says where phones come in (behind the proxy the unit is written for)
        assert "Behind 1 reverse proxy (TRUSTED_PROXIES)" in log.read_text()
        instance = Path(env["SCOREKEEPER_INSTANCE_PATH"])
        for made in ("scorekeeper.sqlite3", "secret_key"):
            assert (instance / made).stat().st_mode & 0o077 == 0, made
        server.send_signal(signal.SIGTERM)  # systemctl stop
        server.wait(timeout=TIMEOUT)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert "Traceback" not in log.read_text()
    # stopped, the database is free for a restore (as the section says to do)
    backup = tmp_path / "before.sqlite3"
    run = [argv[0]]
    assert subprocess.run([*run, "backup", str(backup)], env=env, capture_output=True).returncode == 0
    restored = subprocess.run([*run, "restore", str(backup)], env=env, capture_output=True, text=True)
    assert restored.returncode == 0, restored.stderr


def test_the_documented_nightly_backup_line_makes_the_days_backup(tmp_path):
    line = re.search(r"```\n(15 4 \* \* \* .*?)\n```", _section(), re.S)
    assert line, "docs/deploying.md shows no crontab line"
    command = _here(line.group(1).split(" ", 5)[5], tmp_path).replace("\\%", "%")  # cron's reading
    instance = tmp_path / "instance"
    made_db = CliRunner(env={"SCOREKEEPER_INSTANCE_PATH": str(instance), "SCOREKEEPER_DATABASE": None}).invoke(
        main, ["init-db"])  # a database to back up
    assert made_db.exit_code == 0, made_db.output
    (tmp_path / "backups").mkdir()  # as the Backups section says: a folder made first
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    done = subprocess.run(["sh", "-c", command], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    made = tmp_path / "backups" / f"scores-{date.today():%Y-%m-%d}.sqlite3"
    with sqlite3.connect(f"file:{made}?mode=ro", uri=True) as db:
        assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'games'").fetchone() == (1,)
    db.close()


def test_the_second_unit_runs_a_command_the_app_has():
    replicate = re.search(r"ExecStart=(\S+) (\w+)`", _section())
    assert replicate and replicate.group(1) == f"{CHECKOUT}/.venv/bin/scorekeeper"
    assert CliRunner().invoke(main, [replicate.group(2), "--help"]).exit_code == 0
