"""Several worker processes serve one database (issue 20, part 6): ``scorekeeper serve
--workers 2`` on a real port, and what the workers share is seen by each.

Which worker answers a connection is read from the operating system, not guessed: the
server's side of each keep-alive connection is a socket that exactly one worker process
holds (Linux: /proc/net/tcp gives the socket's inode, /proc/PID/fd who holds it). So a
test can save a deal on a connection one worker holds and poll on one the other holds,
and fire a burst of writes at both workers at the same instant (a barrier), then count.
Invariants only: nothing here measures time.
"""

from __future__ import annotations

import http.client
import os
import queue
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import WORKED_TRIGAMI_DEAL
from tests.proxy_support import Served, scorekeeper_serve
from tests.race_support import TIMEOUT, form_fields, with_deal

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux) and "
                                 "needs gunicorn (not on Windows)")]


def workers_of(master: int) -> set[int]:
    """The worker processes of the server whose main process is ``master``."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == master:
                found.add(int(entry))
    return found


def _socket_inode(server_port: int, client_port: int) -> str | None:
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], fields[9]
            if int(local.rsplit(":", 1)[1], 16) == server_port and int(remote.rsplit(":", 1)[1], 16) == client_port:
                return inode
    return None


def holder(connection: http.client.HTTPConnection, server_port: int, workers: set[int]) -> int | None:
    """The worker holding the server's side of ``connection`` (open, answered once)."""
    assert connection.sock is not None
    inode = _socket_inode(server_port, connection.sock.getsockname()[1])
    if inode is None:
        return None
    for pid in workers:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
            except OSError:
                continue
    return None


class Phone:
    """One phone with its cookies, sending over whichever kept-alive connection it is given."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def send(self, connection: http.client.HTTPConnection, method: str, path: str,
             fields: dict | None = None, headers: dict | None = None) -> tuple[int, dict[str, str], str]:
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields, doseq=True).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        before = connection.sock.getsockname() if connection.sock else None
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        assert before is None or connection.sock is None or connection.sock.getsockname() == before, \
            "the connection was opened again: another worker may hold it"
        for line in response.headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(line)
            self.cookies.update({name: morsel.coded_value for name, morsel in jar.items()})
        return response.status, {k.lower(): v for k, v in response.headers.items()}, text


@contextmanager
def two_workers(tmp_path: Path, settings: dict[str, str] | None = None) -> Iterator[tuple[Served, set[int]]]:
    with scorekeeper_serve(tmp_path / "instance", ["--host", "127.0.0.1", "--port", "0", "--workers", "2"],
                           settings or {}) as served:
        deadline = time.monotonic() + TIMEOUT  # the second worker may still be starting (a bound)
        while len(workers := workers_of(served.process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) == 2, served.output()
        yield served, workers


def connections_to(served: Served, workers: set[int], each: int) -> dict[int, list[http.client.HTTPConnection]]:
    """``each`` kept-alive connections held by each worker (more are opened, and the
    extra ones closed, until every worker holds that many; bounded)."""
    held: dict[int, list[http.client.HTTPConnection]] = {pid: [] for pid in workers}
    for _ in range(400):
        if all(len(found) >= each for found in held.values()):
            return held
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=TIMEOUT)
        connection.request("GET", "/welcome")
        connection.getresponse().read()
        pid = holder(connection, served.port, workers)
        if pid is not None and len(held[pid]) < each:
            held[pid].append(connection)
        else:
            connection.close()
    pytest.fail(f"400 connections did not reach every worker {each} times: {[len(v) for v in held.values()]}")


def test_two_workers_serve_and_a_deal_saved_on_one_is_polled_on_the_other(tmp_path):
    with two_workers(tmp_path) as (served, workers):
        game = served.group.game_id
        pinned = connections_to(served, workers, 1)
        one, other = (pinned[pid][0] for pid in sorted(workers))
        phone = Phone()
        assert phone.send(one, "GET", f"/g/{served.group.token}")[0] == 302
        # the other worker polls the game: nothing yet; asked again, 304
        status, headers, body = phone.send(other, "GET", f"/games/{game}/live?since=0")
        assert status == 200 and '"deals":0' in body.replace(" ", "")
        etag = headers["etag"]
        assert phone.send(other, "GET", f"/games/{game}/live?since=0", headers={"If-None-Match": etag})[0] == 304
        # the first worker saves deal 1 (the form as it came, tapped in)
        form = form_fields(phone.send(one, "GET", f"/games/{game}/deals/new")[2])
        saved = phone.send(one, "POST", f"/games/{game}/deals/new", fields=with_deal(form, "trigami",
                                                                                   WORKED_TRIGAMI_DEAL))
        assert saved[0] == 302, saved[2][:500]
        # the other worker's poll sees it at once, and its sheet shows it
        status, headers, body = phone.send(other, "GET", f"/games/{game}/live?since=0",
                                           headers={"If-None-Match": etag})
        assert status == 200 and '"deals":1' in body.replace(" ", ""), body
        sheet = phone.send(other, "GET", f"/games/{game}")
        assert sheet[0] == 200 and 'id="deal-1"' in sheet[2]
        for connection in (one, other):
            connection.close()


def test_the_write_limit_holds_across_workers_for_a_burst_at_one_instant(tmp_path):
    """WRITE_LIMIT 7 a minute for one client: 20 POSTs from it, 10 to each worker, sent
    together: exactly 7 get through (every other one 429), whichever worker each hit."""
    with two_workers(tmp_path, {"SCOREKEEPER_WRITE_LIMIT": "7 per minute"}) as (served, workers):
        pinned = connections_to(served, workers, 10)
        connections = [c for pid in sorted(workers) for c in pinned[pid]]
        barrier = threading.Barrier(len(connections), timeout=TIMEOUT)
        statuses: list[int] = [0] * len(connections)

        def post(i: int) -> None:
            barrier.wait()
            # a phone with no group's link starting a game: refused (403) if let through,
            # so nothing is written either way; the limit counts it first
            statuses[i] = Phone().send(connections[i], "POST", "/games/new", fields={"kind": "trix"})[0]

        threads = [threading.Thread(target=post, args=(i,)) for i in range(len(connections))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(TIMEOUT)
        assert not any(thread.is_alive() for thread in threads)
        assert sorted(statuses).count(429) == 13, statuses
        assert all(status in (403, 429) for status in statuses), statuses
        # and the limit still holds afterwards, on either worker
        assert Phone().send(connections[0], "POST", "/games/new", fields={"kind": "trix"})[0] == 429
        assert Phone().send(connections[-1], "POST", "/games/new", fields={"kind": "trix"})[0] == 429
        for connection in connections:
            connection.close()


def test_with_no_proxy_in_front_no_client_can_claim_an_address_under_several_workers():
    """What waitress does for one worker (clear_untrusted_proxy_headers), done for
    gunicorn's: every X-Forwarded-* header removed before the app sees it."""
    from scorekeeper.cli import _without_forwarded

    seen: dict = {}

    def app(environ, start_response):
        seen.update(environ)
        return []

    _without_forwarded(app)({"HTTP_X_FORWARDED_FOR": "10.0.0.1", "HTTP_X_FORWARDED_PROTO": "https",
                             "HTTP_X_FORWARDED_HOST": "evil.example", "HTTP_HOST": "club"}, None)
    assert seen == {"HTTP_HOST": "club"}


def _save_a_deal_from_another_process(path: str, game_id: str, answer: Any) -> None:
    """In a process of its own, as a second worker would: save SCORING.md §1.2's worked
    deal with a busy timeout of 50 ms; put "ready" into ``answer`` just before, then
    "saved" or the error."""
    from scorekeeper import store
    from scorekeeper.db import connect

    db = connect(path)
    db.execute("PRAGMA busy_timeout = 50")
    answer.put("ready")
    try:
        store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
        answer.put("saved")
    except Exception as error:  # what a phone would have been answered
        answer.put(f"{type(error).__name__}: {error}")
    finally:
        db.conn.close()


def test_a_worker_waits_its_turn_to_write_however_long_another_worker_writes(tmp_path):
    """Two workers saving at once: the second waits for the first's write to end and then
    saves, even past SQLite's busy timeout (which once answered a club night's saves
    "database is locked" when one worker's threads kept the write lock among themselves:
    bench/club.py at 200 tables)."""
    import multiprocessing

    from scorekeeper import store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.database_support import new_database

    path = str(new_database(tmp_path / "club.sqlite3"))
    db = connect(path)
    game_id = store.create_game(db, from_dict({"format": 1, "game": "trigami", "players": ["Anna", "Ben", "Carla"],
                                               "first_dealer": 0, "options": {}, "deals": []}))
    spawn = multiprocessing.get_context("spawn")
    answer = spawn.Queue()
    with store.writing(db):  # the first worker's save, long
        other = spawn.Process(target=_save_a_deal_from_another_process, args=(path, game_id, answer))
        other.start()
        assert answer.get(timeout=TIMEOUT) == "ready"
        with pytest.raises(queue.Empty):
            answer.get(timeout=1.0)  # still waiting, 20 times its busy timeout, not refused
    assert answer.get(timeout=TIMEOUT) == "saved"
    other.join(TIMEOUT)
    assert [deal.entry for deal in store.get_game(db, game_id).deals] == [WORKED_TRIGAMI_DEAL]
    db.conn.close()


def test_a_long_mistyped_address_is_answered_by_the_app_in_its_words_under_several_workers(tmp_path):
    # a link of 5,000 characters (pasted twice, or cut from a chat): the app's own "not
    # found" page, as one process serves it, not the server's bare "URI Too Long"
    with two_workers(tmp_path) as (served, _workers):
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=TIMEOUT)
        try:
            phone = Phone()
            assert phone.send(connection, "GET", f"/g/{served.group.token}")[0] == 302  # the group's link
            status, _headers, text = phone.send(connection, "GET", "/games/" + "a" * 5000)
        finally:
            connection.close()
    assert status == 404
    assert "There is no such game, deal or player here." in text
