"""A full disk said plainly (issue 16, part 7). With the database on a small disk
(tests/disk_support.py: a real tmpfs as root, else a file size limit), filled up:

- every kind of write (a deal added, changed, deleted; a new game; a game's players and
  settings; the group's name; an import; a new group) answers 507 with "The server's disk
  is full: nothing was saved, your entries are kept" in the phone's language, the deal
  form with its entries as typed, and writes nothing, not half of anything;
- the log has one line saying the disk is full and which file, no traceback;
- pages still open (reads need no room);
- once there is room again, the same write is saved, without a restart;
- the same through a real ``scorekeeper serve`` (its own process and log).
"""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import create_app, store
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.database_support import close_kept_connections
from tests.disk_support import SmallDisk, small_disk
from tests.race_support import TIMEOUT, RaceServer, form_fields, with_deal
from tests.test_no_input_breaks_it import _snapshot
from tests.test_web import text

#: What the phone reads, by what the disk did (SmallDisk.reason)
TOLD = {
    "full": "The server's disk is full: nothing was saved, your entries are kept.",
    "i/o": "The server cannot write to its disk: nothing was saved, your entries are kept.",
}
#: What a phone reads of a page that could not be opened, by the same
OPENED = {
    "full": "The server's disk is full, so this page cannot be opened now. Nothing is lost: try again once there "
            "is room.",
    "i/o": "The server cannot use its disk, so this page cannot be opened now. Nothing is lost: try again in a "
           "moment.",
}
#: What the log says, by the same
LOGGED = {"full": "the disk is full", "i/o": "the disk failed a write"}

#: A second deal: Anna ♠ 5 clean tricks, Ben ♥ 4, Carla ♦ 4
SECOND_DEAL = {"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [5, 4, 4], "bugs": [0, 0, 0]}


@pytest.fixture
def disk(tmp_path) -> Iterator[SmallDisk]:
    with small_disk(tmp_path / "instance") as small:
        yield small


@pytest.fixture
def table(disk):
    """The app with its instance folder and database on the small disk, a phone in its
    group, and a Trigami game with one deal."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
                      "DATABASE": str(disk.folder / "scorekeeper.sqlite3")}, instance_path=str(disk.folder))
    db = connect(app.config["DATABASE"])
    try:
        game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
        deal_id = db.execute("select id from deals").fetchone()[0]
    finally:
        db.conn.close()
    return app, app.test_client(), game_id, deal_id


def _form(client: Any, url: str) -> dict[str, Any]:
    page = client.get(url)
    assert page.status_code == 200, url
    return form_fields(page.get_data(as_text=True))


# Each kind of write: made ready (its form read) before the disk is full; a call of the
# result sends it. What the game or group looks like after it is saved: ``saved``.
def _deal_add(client: Any, game: str, _deal: int) -> Callable[[], Any]:
    fields = with_deal(_form(client, f"/games/{game}/deals/new"), "trigami", SECOND_DEAL)
    return lambda: client.post(f"/games/{game}/deals/new", data=fields)


def _deal_edit(client: Any, game: str, deal: int) -> Callable[[], Any]:
    fields = with_deal(_form(client, f"/games/{game}/deals/{deal}/edit"), "trigami", SECOND_DEAL)
    return lambda: client.post(f"/games/{game}/deals/{deal}/edit", data=fields)


def _deal_delete(client: Any, game: str, deal: int) -> Callable[[], Any]:
    fields = _form(client, f"/games/{game}/deals/{deal}/delete")
    return lambda: client.post(f"/games/{game}/deals/{deal}/delete", data=fields)


def _new_game(client: Any, _game: str, _deal: int) -> Callable[[], Any]:
    fields = {**_form(client, "/games/new?kind=trigami"), "player_0": "Dora", "player_1": "Emil",
              "player_2": "Fay", "first_dealer": "0", "target": "500"}
    return lambda: client.post("/games/new?kind=trigami", data=fields)


def _settings(client: Any, game: str, _deal: int) -> Callable[[], Any]:
    fields = {**_form(client, f"/games/{game}/edit"), "player_0": "Annika"}
    return lambda: client.post(f"/games/{game}/edit", data=fields)


def _group_name(client: Any, _game: str, _deal: int) -> Callable[[], Any]:
    return lambda: client.post("/group", data={"action": "rename", "rename-name": "Bridge club"})


def _import(client: Any, _game: str, _deal: int) -> Callable[[], Any]:
    fields = _form(client, "/games/import")
    content = json.dumps(game_file(players=["Gus", "Hana", "Ivo"], deals=[SECOND_DEAL])).encode()
    return lambda: client.post("/games/import", content_type="multipart/form-data",
                               data={**fields, "file": (io.BytesIO(content), "game.json")})


def _group_start(client: Any, _game: str, _deal: int) -> Callable[[], Any]:
    return lambda: client.post("/groups/new", data={"name": "Second table"})


WRITES = {"deal added": _deal_add, "deal changed": _deal_edit, "deal deleted": _deal_delete,
          "new game": _new_game, "players and settings": _settings, "group name": _group_name,
          "import": _import, "group started": _group_start}


def _disk_lines(caplog: Any, database: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if database in r.getMessage() and r.levelno >= logging.ERROR]


@pytest.mark.parametrize("write", list(WRITES))
def test_a_write_on_a_full_disk_answers_507_saves_nothing_and_succeeds_once_there_is_room(
        table, disk, caplog, write):
    app, client, game_id, deal_id = table
    database = app.config["DATABASE"]
    send = WRITES[write](client, game_id, deal_id)
    before = _snapshot(database)
    disk.fill(Path(database))
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        refused = send()
    page = text(refused)
    assert refused.status_code == 507, f"{write}: {refused.status_code} {page[:400]}"
    assert TOLD[disk.reason] in page
    assert _snapshot(database) == before, f"{write}: something was written on a full disk"
    # one line in the log: what, where; no traceback
    lines = _disk_lines(caplog, database)
    assert len(lines) == 1, [r.getMessage() for r in caplog.records]
    assert LOGGED[disk.reason] in lines[0].getMessage() and lines[0].exc_info is None
    assert "Traceback" not in caplog.text
    if write in ("deal added", "deal changed"):  # the form again, the entries as typed
        kept = form_fields(refused.get_data(as_text=True))
        assert [kept[f"tricks_{s}"] for s in range(3)] == ["5", "4", "4"]
        assert [kept[f"bids_{s}"] for s in range(3)] == ["S", "H", "D"]
        assert "data-disk-full" in refused.get_data(as_text=True)
    else:  # the error page, with Back to the form (shown by static/app.js)
        assert "data-history-back" in refused.get_data(as_text=True)

    disk.free()  # room again: the same write is saved, no restart
    saved = send()
    assert saved.status_code == 302, f"{write} after freeing: {saved.status_code} {text(saved)[:400]}"
    assert _snapshot(database) != before


def test_pages_still_open_while_the_disk_is_full(table, disk):
    app, client, game_id, deal_id = table
    disk.fill(Path(app.config["DATABASE"]))
    for url in ("/", f"/games/{game_id}", f"/games/{game_id}/sheet.csv", f"/games/{game_id}/deals/new",
                f"/games/{game_id}/deals/{deal_id}/edit", f"/games/{game_id}/history", "/games/new?kind=trix"):
        response = client.get(url)
        assert response.status_code == 200, url
    assert "Anna" in text(client.get(f"/games/{game_id}"))


def test_a_table_card_scanned_on_a_full_disk_opens_its_table(disk):
    """Tester 66: a club night's table card (``/t/<token>``) scanned while the disk was
    full answered 507 "This page cannot be opened now": the scan counts a try before it
    looks the token up, and the count could not be written. It opens the table, as any
    page opens on a full disk; a card that does not work is still refused, uncounted."""
    from scorekeeper import groups, night_actions

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "DATABASE": str(disk.folder / "scorekeeper.sqlite3")}, instance_path=str(disk.folder))
    db = connect(app.config["DATABASE"])
    try:
        group = groups.only_group(db)
        started = night_actions.start_night(db, group.id, kind="trigami", options={"target": 500},
                                            players=["Aino", "Bruno", "Carla"], rounds=1, ranking="placings",
                                            seating="random", name="Friday", seed=7)
        assert isinstance(started, night_actions.NightStarted)
        ((game_id, token),) = groups.table_cards(db, started.night_id).items()
    finally:
        db.conn.close()
    phone, stranger = app.test_client(join=False), app.test_client(join=False)  # phones with no link
    assert stranger.get("/t/no-such-card").status_code == 404  # the server running before the disk filled
    disk.fill(Path(app.config["DATABASE"]))
    opened = phone.get(f"/t/{token}")
    assert opened.status_code in (302, 303), (opened.status_code, text(opened)[:300])
    assert opened.location.endswith(f"/games/{game_id}")
    sheet = phone.get(f"/games/{game_id}")
    assert sheet.status_code == 200 and "Aino" in text(sheet)
    wrong = stranger.get(f"/t/{token[:-2]}xx")
    assert wrong.status_code == 404 and "This table card does not work" in text(wrong)


def test_the_full_disk_page_is_in_the_phones_language(table, disk):
    app, client, game_id, _deal = table
    client.set_cookie("lang", "de")
    send = _new_game(client, game_id, 0)
    disk.fill(Path(app.config["DATABASE"]))
    page = send()
    assert page.status_code == 507
    assert 'lang="de"' in page.get_data(as_text=True)


# ------------------------------------------------------------------- a real server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def _real_server(instance: Path) -> Iterator[tuple[RaceServer, subprocess.Popen[str]]]:
    """``scorekeeper serve`` in its own process on a free port, its instance folder (and
    database) in ``instance``; its log (stderr) read once it has stopped."""
    command = shutil.which("scorekeeper", path=str(Path(sys.executable).parent)) or "scorekeeper"
    port = _free_port()
    env = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": str(instance)}
    env.pop("SCOREKEEPER_DATABASE", None)
    server = subprocess.Popen([command, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                urllib.request.urlopen(url + "/welcome", timeout=5).close()
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, "the server stopped"
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        yield RaceServer(url, instance / "scorekeeper.sqlite3"), server
    finally:
        if server.poll() is None:
            server.terminate()
        try:
            server.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_a_real_server_on_a_full_disk_says_so_logs_one_line_and_saves_again_once_there_is_room(disk):
    with _real_server(disk.folder) as (server, process):
        game_id = server.store_game(deals=[WORKED_TRIGAMI_DEAL])
        phone = server.phone()
        fields = with_deal(phone.form(f"/games/{game_id}/deals/new"), "trigami", SECOND_DEAL)
        before = _snapshot(str(server.database))
        disk.fill(server.database, pid=process.pid)
        refused = phone.post(f"/games/{game_id}/deals/new", fields)
        assert refused.status == 507, refused
        assert TOLD[disk.reason] in refused.text
        assert _snapshot(str(server.database)) == before
        assert phone.get(f"/games/{game_id}").status == 200  # reading still works
        disk.free()
        saved = phone.post(f"/games/{game_id}/deals/new", fields)
        assert saved.redirects_to(f"/games/{game_id}"), saved
        assert len(server.game(game_id).deals) == 2
        process.terminate()
        log = process.communicate(timeout=TIMEOUT)[1]
    lines = [line for line in log.splitlines() if str(server.database) in line and "Nothing saved" in line]
    assert len(lines) == 1, log
    assert LOGGED[disk.reason] in lines[0]
    assert "Traceback" not in log


# ------------------------------------------------------------------- a read-only database


def test_a_read_only_database_is_refused_whole_and_named(tmp_path):
    """SQLite's "attempt to write a readonly database" (SQLITE_READONLY: a read-only file
    system or file) is the same trouble: nothing written, store.DiskFullError naming the
    file."""
    import sqlite3

    import sqlite_utils

    from scorekeeper.db import migrate

    path = tmp_path / "scores.sqlite3"
    db = connect(str(path))
    migrate(db)
    game_id = store.create_game(db, from_dict(game_file()))
    db.conn.close()
    read_only = sqlite_utils.Database(sqlite3.connect(f"file:{path}?mode=ro", uri=True))
    try:
        with pytest.raises(store.DiskFullError) as refused:
            store.add_deal(read_only, game_id, WORKED_TRIGAMI_DEAL)
        assert refused.value.reason == "read-only" and refused.value.path == str(path)
        assert not read_only.conn.in_transaction
        assert read_only.execute("select count(*) from deals").fetchone()[0] == 0
    finally:
        read_only.conn.close()


def test_a_phone_saving_to_a_read_only_database_is_told_the_server_cannot_write(table, caplog):
    """The app's own connection made read-only (PRAGMA query_only: what SQLite says of a
    read-only file): 507, in words for that, one line in the log; writable again, saved."""
    from scorekeeper.db import get_db

    app, client, game_id, _deal = table
    send = _new_game(client, game_id, 0)
    with app.app_context():  # the connection this thread's requests use (db.get_db keeps it)
        get_db().execute("PRAGMA query_only = ON")
    before = _snapshot(app.config["DATABASE"])
    with caplog.at_level(logging.ERROR):
        refused = send()
    assert refused.status_code == 507
    assert "The server cannot write to its disk: nothing was saved, your entries are kept." in text(refused)
    assert _snapshot(app.config["DATABASE"]) == before
    lines = _disk_lines(caplog, app.config["DATABASE"])
    assert len(lines) == 1 and "read-only" in lines[0].getMessage()
    with app.app_context():
        get_db().execute("PRAGMA query_only = OFF")
    assert send().status_code == 302


# ------------------------------------------------------------------- the command line


def test_scorekeeper_import_on_a_full_disk_says_so_in_one_line_and_works_once_there_is_room(disk, tmp_path):
    """``scorekeeper import`` on a full disk: one line on stderr naming the trouble and the
    database, exit status 1, no traceback, nothing stored; the same command stores the
    game once the room is back."""
    from click.testing import CliRunner

    from scorekeeper.cli import main

    database = disk.folder / "scorekeeper.sqlite3"
    env = {"SCOREKEEPER_DATABASE": str(database), "SCOREKEEPER_SECRET_KEY": "test",
           "SCOREKEEPER_INSTANCE_PATH": str(disk.folder)}
    runner = CliRunner(env=env)
    assert runner.invoke(main, ["init-db"]).exit_code == 0
    file = tmp_path / "game.json"
    file.write_text(json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL])), encoding="utf-8")
    before = _snapshot(str(database))
    disk.fill(database)
    try:
        refused = runner.invoke(main, ["import", str(file)])
    finally:
        disk.free()
    assert refused.exit_code == 1, refused.output
    said = refused.stderr.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("scorekeeper: nothing was saved: "), refused.stderr
    assert str(database) in said[0]
    assert {"full": "the disk is full", "i/o": "the disk failed a write"}[disk.reason] in said[0]
    assert "Traceback" not in refused.output
    assert _snapshot(str(database)) == before
    stored = runner.invoke(main, ["import", str(file)])
    assert stored.exit_code == 0, stored.output
    assert stored.stdout.strip().splitlines()[-1].startswith("/games/")


def test_a_server_that_opens_its_database_on_a_full_disk_shows_its_own_page_not_a_bare_error(table, disk):
    """Tester 15 (HIGH): a server process whose first look at the database came after
    the disk filled (a worker started before, its first visitor after) answered every
    page with the web server's bare "Internal Server Error": SQLite cannot make the room
    it reads through (the -shm file), and the app's own full-disk page then failed the
    same way looking up the phone's group for its top bar. The phone is told the disk is
    full, in the app's page; once there is room, the pages open again, no restart."""
    app, client, game_id, _deal = table
    close_kept_connections()  # as in a process that has not opened the database yet
    disk.fill(Path(app.config["DATABASE"]))
    assert not Path(app.config["DATABASE"] + "-shm").exists()
    for url in ("/", f"/games/{game_id}", f"/games/{game_id}/deals/new"):
        answer = client.get(url)
        assert answer.status_code == 507, (url, answer.status_code, text(answer)[:300])
        assert OPENED[disk.reason] in text(answer) and "Scorekeeper" in text(answer)
    disk.free()
    assert client.get(f"/games/{game_id}").status_code == 200
    assert "Anna" in text(client.get(f"/games/{game_id}"))


def test_with_the_workers_counting_limits_beside_the_database_a_deal_is_still_kept_for_later(disk, caplog):
    """Tester 15 (MEDIUM): with several workers (`scorekeeper serve`'s default on 2
    cores) the write limit's counts live in ``<database>-limits`` beside the database. On
    a full disk that file refused the count first, and the phone got the error page
    instead of its form marked "not saved" (507, data-disk-full), which keeps the deal in
    the outbox to send once there is room. The request now goes on uncounted (one line in
    the log naming the file), to the write that fails and says so; with room, it is saved."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False, "LIMITS_SHARED": True,
                      "DATABASE": str(disk.folder / "scorekeeper.sqlite3")}, instance_path=str(disk.folder))
    assert app.config["RATELIMIT_STORAGE_URI"].endswith("scorekeeper.sqlite3-limits")
    db = connect(app.config["DATABASE"])
    try:
        game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    finally:
        db.conn.close()
    client = app.test_client()
    send = _deal_add(client, game_id, 0)
    assert client.post("/games/new?kind=trigami", data={}).status_code == 400  # a write counted: the file is made
    _checkpoint_limits(Path(app.config["DATABASE"] + "-limits"))
    disk.fill(Path(app.config["DATABASE"]))
    with caplog.at_level(logging.ERROR):
        refused = send()
    assert refused.status_code == 507, text(refused)[:300]
    # the form, the entries as typed, marked "not saved": static/app.js keeps the deal in the outbox
    assert 'class="deal-form' in refused.get_data(as_text=True) and "data-disk-full" in refused.get_data(as_text=True)
    kept = form_fields(refused.get_data(as_text=True))
    assert [kept[f"tricks_{s}"] for s in range(3)] == ["5", "4", "4"]
    assert any("-limits" in r.getMessage() and "Not counted for the write limits" in r.getMessage()
               for r in caplog.records)
    disk.free()
    assert send().status_code == 302
    assert len(store.get_game(connect(app.config["DATABASE"]), game_id).deals) == 2


def _checkpoint_limits(path: Path) -> None:
    """The limits file's write-ahead log emptied, so that its next count needs room."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
