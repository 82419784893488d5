"""A club night's load on one server (issue 20, part 6): `make bench CLUB=1`.

    .venv/bin/python bench/club.py                       # 50, 100, 150, 200 tables, 60 s each
    .venv/bin/python bench/club.py --tables 50,200 --seconds 60

For each number of tables: a fresh database of that many Trix games (a group, each game
one kingdom in), a real ``scorekeeper serve`` on 127.0.0.1 (its default workers, or
``--workers``), and the phones of a club night, as static/app.js behaves:

- every table has 4 phones, each on the game's score sheet: it polls
  ``/games/<id>/live?since=V`` every 2 s with If-None-Match, and when the version
  changed loads the sheet again (the page's live swap), taking the sheet's version;
- one phone of each table saves a deal every ``--deal-every`` seconds (default 15, twelve
  times a real table's pace): it opens the add-deal form, posts the deal (the form's own
  tokens), and follows the redirect to the sheet;
- a big screen polls the group's ``/live`` every 2 s and loads the home page when it
  changed.

Every phone has joined and opened its sheet before the measured run begins (not
measured: a night's phones are on their sheets; 800 opening theirs at one instant would
measure that instant). Each phone has its own loopback address (127.1.x.y), as phones on a Wi-Fi have, so the
per-client write limit counts each phone. The same phones are then run against a bare
Flask app answering the same URLs the same way (a poll 304 while unchanged, a small page,
a form, a redirect after a post) on the same server settings (bench/club.py --hello), and
each figure is given with its ratio to the bare app's. Reported: p50 and p99 of a poll
(unchanged or not), a sheet, a save (the post), the form, the big screen; requests per
second; errors (5xx, a connection refused or cut, no answer in 30 s, a save not
acknowledged with 302). Written to bench/club-results.md; never asserted (not part of
`make test`).

The load generator runs on the same machine and takes its own share of the cores (one
asyncio process; its CPU time is reported); every server started is stopped on the way
out. Standard library only, besides the app itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
RESULTS = HERE / "club-results.md"
TIMEOUT = 30.0
POLL_S = 2.0  # static/app.js POLL_MS

#: One kingdom of Trix, valid from any deal of a game that has played whole kingdoms
#: (tests/test_gamefile.py's TRIX_KINGDOM): a game starts with one, the bench saves more
KINGDOM: list[dict[str, Any]] = [
    {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1, "leader": None}},
    {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1}, "H": {"taker": 0},
                                         "D": {"taker": 2}, "C": {"taker": 3}}},
    {"contracts": ["diamonds"], "diamonds": [3, 4, 2, 4]},
    {"contracts": ["tricks"], "tricks": [3, 3, 4, 3]},
    {"contracts": ["trix"], "trix": [2, 0, 3, 1]},
]


def log(message: str) -> None:
    print(f"[club {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- the bare app


def hello_app() -> Any:
    """A bare Flask app answering the club's URLs as the app does, with nothing behind:
    a poll's JSON with an ETag (304 while the phone has it), a small sheet and form page
    carrying the same data attributes and hidden fields, a post answered 302."""
    import itertools

    from flask import Flask, Response, redirect, request

    app = Flask("hello")
    versions: defaultdict[str, int] = defaultdict(int)
    counter = itertools.count()

    def poll(version: int) -> Any:
        etag = f"v{version}"
        if request.if_none_match.contains_weak(etag):
            response = Response(status=304)
        else:
            response = app.json.response(version=version, deals=version, finished=False, news="", stored=[])
        response.set_etag(etag, weak=True)
        response.cache_control.no_cache = True
        return response

    @app.get("/g/<token>")
    def join(token: str) -> Any:
        response = redirect("/")
        response.set_cookie("session", token)
        return response

    @app.get("/live")
    def group_poll() -> Any:
        return poll(sum(versions.values()))

    @app.get("/")
    def home() -> str:
        return "<html><body><h1>Games</h1></body></html>"

    @app.get("/games/<game_id>/live")
    def game_poll(game_id: str) -> Any:
        return poll(versions[game_id])

    @app.get("/games/<game_id>")
    def sheet(game_id: str) -> str:
        return f'<html><body><div data-live="swap" data-live-version="{versions[game_id]}"></div></body></html>'

    @app.get("/games/<game_id>/deals/new")
    def form(game_id: str) -> str:
        return ('<html><body><form method="post"><input type="hidden" name="csrf_token" value="t">'
                f'<input type="hidden" name="nonce" value="{next(counter)}"></form></body></html>')

    @app.post("/games/<game_id>/deals/new")
    def save(game_id: str) -> Any:
        versions[game_id] += 1
        return redirect(f"/games/{game_id}#deal-{versions[game_id]}")

    return app


def serve_hello(port: int, workers: int) -> None:
    """The bare app on 127.0.0.1:``port`` as ``scorekeeper serve`` serves the app."""
    from scorekeeper.cli import THREADS, serve_workers

    app = hello_app()
    if workers > 1:
        serve_workers(app, "127.0.0.1", port, workers)
    else:
        import waitress

        waitress.serve(app, host="127.0.0.1", port=port, threads=THREADS)


# --------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)

    def cpu_seconds(self) -> float:
        """CPU time of the server's processes (its workers included) so far."""
        total = 0.0
        tick = os.sysconf("SC_CLK_TCK")
        for pid in [self.process.pid, *_children(self.process.pid)]:
            try:
                parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(parts[11]) + int(parts[12])) / tick
            except (OSError, IndexError):
                pass
        return total


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
            except (OSError, IndexError):
                pass
    return found


def start(command: list[str], env: dict[str, str], port: int, folder: Path, name: str) -> Server:
    out = folder / f"{name}.log"
    process = subprocess.Popen(command, env=env, stdout=out.open("wb"), stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, cwd=folder)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{name} did not start:\n{out.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            time.sleep(1)  # the other workers
            return Server(process, port, out)
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"{name} did not listen within 120 s")


def make_database(folder: Path, tables: int) -> tuple[str, str, list[str]]:
    """A database of ``tables`` Trix games of one group, one kingdom played in each:
    (its path, the group's link token, the games' ids)."""
    from scorekeeper import groups, store
    from scorekeeper.db import connect, migrate
    from scorekeeper.gamefile import from_dict

    path = str(folder / "club.sqlite3")
    db = connect(path)
    migrate(db)
    group = groups.only_group(db) or groups.create(db, "Club night")
    games = []
    for table in range(tables):
        players = [f"P{table * 4 + seat}" for seat in range(4)]
        games.append(store.create_game(db, from_dict({"format": 1, "game": "trix", "players": players,
                                                      "first_dealer": 0, "options": {}, "deals": KINGDOM}),
                                       group_id=group.id))
    db.conn.close()
    assert group.token
    return path, group.token, games


# --------------------------------------------------------------------------- phones


class Closed(Exception):
    pass


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


class Connection:
    """One phone's keep-alive HTTP/1.1 connection from its own loopback address."""

    def __init__(self, port: int, source: str) -> None:
        self.port, self.source = port, source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> Answer:
        for attempt in (0, 1):
            fresh = self.writer is None
            if fresh:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port,
                                                                         local_addr=(self.source, 0))
            assert self.reader is not None and self.writer is not None
            lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Accept-Encoding: gzip"]
            lines += [f"{k}: {v}" for k, v in headers.items()]
            if body:
                lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
            self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
            try:
                return await self._answer(method)
            except (Closed, ConnectionResetError, BrokenPipeError, asyncio.IncompleteReadError):
                await self.close()
                if fresh or attempt:  # a kept connection closed by the server: once again, afresh
                    raise
        raise AssertionError("unreachable")

    async def _answer(self, method: str) -> Answer:
        assert self.reader is not None
        head = await self.reader.readuntil(b"\r\n\r\n")
        if not head:
            raise Closed
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name:
                key = name.strip().lower()
                headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()
        body = b""
        if status in (204, 304) or method == "HEAD":
            pass
        elif "chunked" in headers.get("transfer-encoding", ""):
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    await self.reader.readuntil(b"\r\n")
                    break
                parts.append(await self.reader.readexactly(size))
                await self.reader.readexactly(2)
            body = b"".join(parts)
        elif "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        else:
            body = await self.reader.read()
            await self.close()
        if headers.get("connection", "").lower() == "close":
            await self.close()
        if headers.get("content-encoding") == "gzip":
            import gzip

            body = gzip.decompress(body)
        return Answer(status, headers, body)


@dataclass
class Tally:
    times: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    errors: Counter[str] = field(default_factory=Counter)
    saved: int = 0

    def add(self, kind: str, seconds: float, status: int | str) -> None:
        self.times[kind].append(seconds)
        self.statuses[kind][str(status)] += 1
        if not isinstance(status, int) or status >= 500:
            self.errors[f"{kind} {status}"] += 1


class Phone:
    def __init__(self, port: int, source: str, tally: Tally, until: float) -> None:
        self.connection = Connection(port, source)
        self.tally, self.until = tally, until
        self.cookies: dict[str, str] = {}

    async def ask(self, kind: str, method: str, path: str, headers: dict[str, str] | None = None,
                  fields: dict[str, Any] | None = None) -> Answer | None:
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = urllib.parse.urlencode(fields, doseq=True).encode() if fields is not None else b""
        began = time.perf_counter()
        try:
            answer = await asyncio.wait_for(self.connection.request(method, path, sent, body), TIMEOUT)
        except (TimeoutError, OSError, Closed, asyncio.IncompleteReadError, ValueError) as error:
            await self.connection.close()
            if kind:
                self.tally.add(kind, time.perf_counter() - began, type(error).__name__)
            return None
        if kind:
            self.tally.add(kind, time.perf_counter() - began, answer.status)
        for name, value in _cookies(answer.headers):
            self.cookies[name] = value
        return answer


def _cookies(headers: dict[str, str]) -> list[tuple[str, str]]:
    raw = headers.get("set-cookie")
    if not raw:
        return []
    found = []
    for part in re.split(r",\s*(?=[A-Za-z0-9_]+=)", raw):
        name, _, rest = part.partition("=")
        found.append((name.strip(), rest.split(";", 1)[0]))
    return found


_VERSION = re.compile(rb'data-live-version="(\d+)"')


async def open_sheet(phone: Phone, game: str) -> str:
    """The phone opens its game's sheet (not measured); returns the sheet's version."""
    sheet = await phone.ask("", "GET", f"/games/{game}")
    found = _VERSION.search(sheet.body) if sheet else None
    return found.group(1).decode() if found else "0"


async def sheet_phone(phone: Phone, game: str, version: str, deal_every: float | None, hello: bool,
                      start_deals: int) -> None:
    """One phone on a game's sheet (static/app.js's live swap), which it has open at
    ``version``; ``deal_every``: this phone also saves a deal that often."""
    from tests.race_support import form_fields, with_deal  # how a browser sends a form

    etag: str | None = None
    loop = asyncio.get_running_loop()
    next_poll = loop.time() + random.uniform(0, POLL_S)
    next_deal = loop.time() + random.uniform(0, deal_every) if deal_every else float("inf")
    deals = start_deals
    while loop.time() < phone.until:
        await asyncio.sleep(max(0.0, min(next_poll, next_deal) - loop.time()))
        if loop.time() >= phone.until:
            break
        if loop.time() >= next_deal:
            next_deal += deal_every or 0
            form = await phone.ask("form", "GET", f"/games/{game}/deals/new")
            if form is None or form.status != 200:
                continue
            fields = form_fields(form.body.decode("utf-8", "replace"))
            if not hello:
                fields = with_deal(fields, "trix", KINGDOM[deals % len(KINGDOM)])
            saved = await phone.ask("save", "POST", f"/games/{game}/deals/new", fields=fields)
            if saved is None or saved.status != 302:
                phone.tally.errors[f"save not acknowledged ({saved.status if saved else 'no answer'})"] += 1
                continue
            phone.tally.saved += 1
            deals += 1
            page = await phone.ask("sheet", "GET", saved.headers.get("location", f"/games/{game}").split("#")[0]
                                   .replace(f"http://127.0.0.1:{phone.connection.port}", ""))
            found = _VERSION.search(page.body) if page else None
            if found:
                version = found.group(1).decode()
            continue
        next_poll += POLL_S
        headers = {"If-None-Match": etag} if etag else {}
        answer = await phone.ask("poll", "GET", f"/games/{game}/live?since={version}", headers)
        if answer is None or answer.status not in (200, 304):
            continue
        etag = answer.headers.get("etag", etag)
        if answer.status == 200 and str(json.loads(answer.body).get("version")) != version:
            page = await phone.ask("sheet", "GET", f"/games/{game}")
            found = _VERSION.search(page.body) if page else None
            if found:
                version = found.group(1).decode()
                etag = None  # the next poll asks with the new since: a new ETag


async def big_screen(phone: Phone) -> None:
    loop = asyncio.get_running_loop()
    etag = None
    while loop.time() < phone.until:
        await asyncio.sleep(POLL_S)
        answer = await phone.ask("screen poll", "GET", "/live", {"If-None-Match": etag} if etag else {})
        if answer is not None and answer.status == 200:
            etag = answer.headers.get("etag")
            await phone.ask("screen", "GET", "/")


async def club_night(port: int, token: str, games: list[str], seconds: float, deal_every: float,
                     hello: bool) -> Tally:
    tally = Tally()
    loop = asyncio.get_running_loop()
    phones: list[tuple[Phone, str, float | None]] = []
    until = loop.time() + 10_000
    for table, game in enumerate(games):
        for seat in range(4):
            n = table * 4 + seat
            phones.append((Phone(port, f"127.1.{n // 250}.{n % 250 + 1}", tally, until), game,
                           deal_every if seat == 0 else None))
    screen = Phone(port, "127.2.0.1", tally, until)
    # every phone opens the group's link first (not measured), a few at a time
    semaphore = asyncio.Semaphore(32)

    async def join(phone: Phone) -> None:
        async with semaphore:
            answer = await phone.ask("", "GET", f"/g/{token}")
            if answer is None or answer.status != 302:
                raise SystemExit(f"joining the group: {answer.status if answer else 'no answer'}")

    await asyncio.gather(*(join(phone) for phone, _, _ in phones), join(screen))

    # then every phone opens its sheet (not measured, a few at a time): the run measures a
    # night whose phones are all on their sheets, not 800 phones opening them at one instant
    async def opened(phone: Phone, game: str) -> str:
        async with semaphore:
            return await open_sheet(phone, game)

    versions = await asyncio.gather(*(opened(phone, game) for phone, game, _ in phones))
    until = loop.time() + seconds
    for phone, _, _ in phones:
        phone.until = until
    screen.until = until
    await asyncio.gather(*(sheet_phone(phone, game, version, every, hello, len(KINGDOM))
                           for (phone, game, every), version in zip(phones, versions, strict=True)),
                         big_screen(screen))
    for phone, _, _ in phones:
        await phone.connection.close()
    return tally


# --------------------------------------------------------------------------- one request's cost


def _timed(found: dict[str, list[float]], key: str, ask: Any, n: int) -> None:
    times = []
    for i in range(n):
        began = time.perf_counter()
        ask(i)
        times.append(time.perf_counter() - began)
    found[key] = times


def _costs_of(quick: bool, folder: str, repeats: int, found: dict[str, list[float]]) -> None:
    from scorekeeper import create_app, groups, store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.race_support import form_fields, with_deal

    app = create_app({"SECRET_KEY": "costs", "DATABASE": f"{folder}/{quick}.sqlite3",
                      "RATELIMIT_ENABLED": False, "QUICK_POLLS": quick})
    db = connect(app.config["DATABASE"])
    group = groups.only_group(db) or groups.create(db, "Club night")
    few = max(repeats // 10, 5)
    games = [store.create_game(db, from_dict({"format": 1, "game": "trix", "players": list("ABCD"),
                                              "first_dealer": 0, "options": {}, "deals": KINGDOM}),
                               group_id=group.id) for _ in range(few + 1)]
    phone = app.test_client()
    phone.get(f"/g/{group.token}")
    game = games[-1]
    version = store.game_version(db, game)
    live = f"/games/{game}/live?since={version}"
    etag = phone.get(live).headers["ETag"]
    _timed(found, f"an unchanged poll (304)|{quick}", lambda _i: phone.get(live, headers={"If-None-Match": etag}),
           repeats)
    _timed(found, f"a poll with no news (200)|{quick}", lambda _i: phone.get(live), repeats)
    _timed(found, f"a poll with news (200, once kept)|{quick}", lambda _i: phone.get(f"/games/{game}/live?since=1"),
           repeats)
    phone.get(f"/games/{game}")
    _timed(found, f"a sheet, kept|{quick}", lambda _i: phone.get(f"/games/{game}"), repeats)
    _timed(found, f"a sheet, drawn|{quick}", lambda i: phone.get(f"/games/{games[i]}"), few)
    _timed(found, f"the add-deal form (Trix)|{quick}", lambda i: phone.get(f"/games/{games[i]}/deals/new"), few)
    forms = [form_fields(phone.get(f"/games/{g}/deals/new").get_data(as_text=True)) for g in games[:few]]
    _timed(found, f"a save (Trix deal)|{quick}", lambda i: phone.post(
        f"/games/{games[i]}/deals/new", data=with_deal(forms[i], "trix", KINGDOM[0])), few)
    db.conn.close()


def costs(repeats: int = 200) -> list[tuple[str, float, float]]:
    """What each kind of request costs the app alone, one at a time (Flask's test client,
    no server, no other load): (what, ms with quick polls, ms without them), the median of
    ``repeats`` (sheets drawn, forms and saves: a tenth as many, each on a fresh game)."""
    from flask import Flask

    found: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="scorekeeper-costs-") as folder:
        for quick in (True, False):
            _costs_of(quick, folder, repeats, found)
    hello = Flask("hello")
    hello.get("/")(lambda: "Hello, World!")
    bare = hello.test_client()
    bare.get("/")
    _timed(found, "a bare Flask hello world|True", lambda _i: bare.get("/"), repeats)
    rows = []
    for key in dict.fromkeys(k.split("|")[0] for k in found):
        rows.append((key, statistics.median(found[f"{key}|True"]) * 1000,
                     statistics.median(found.get(f"{key}|False", found[f"{key}|True"])) * 1000))
    return rows


# --------------------------------------------------------------------------- a run


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def run(tables: int, seconds: float, deal_every: float, workers: int | None, hello: bool, folder: Path) -> dict:
    random.seed(tables)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    work = folder / f"{'hello' if hello else 'app'}-{tables}"
    work.mkdir()
    if hello:
        command = [sys.executable, str(Path(__file__).resolve()), "--hello", str(port),
                   "--workers", str(workers or _default_workers())]
        games, token = [f"g{n}" for n in range(tables)], "hello"
    else:
        database, token, games = make_database(work, tables)
        env.update({"SCOREKEEPER_DATABASE": database, "SCOREKEEPER_INSTANCE_PATH": str(work),
                    "SCOREKEEPER_SECRET_KEY": "bench-" + "k" * 32})
        if workers:
            env["SCOREKEEPER_WORKERS"] = str(workers)
        scorekeeper = Path(sys.executable).with_name("scorekeeper")
        command = [str(scorekeeper), "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = start(command, env, port, work, "server")
    try:
        cpu_before, own_before, wall = server.cpu_seconds(), time.process_time(), time.monotonic()
        tally = asyncio.run(club_night(port, token, games, seconds, deal_every, hello))
        wall = time.monotonic() - wall
        cpu = server.cpu_seconds() - cpu_before
        own = time.process_time() - own_before
    finally:
        server.stop()
    stored = None
    if not hello:  # every acknowledged deal is in the database, once
        import sqlite3

        with sqlite3.connect(database) as check:
            stored = check.execute("select count(*) from deals where deleted_at is null").fetchone()[0] \
                - tables * len(KINGDOM)
        check.close()
        if stored != tally.saved:
            tally.errors[f"deals stored {stored}, acknowledged {tally.saved}"] += 1
    if tally.errors:  # the server's own account of them, kept past the temporary folder
        kept = HERE / ".cache" / f"club-{'hello' if hello else 'app'}-{tables}-server.log"
        kept.parent.mkdir(exist_ok=True)
        kept.write_bytes(server.log.read_bytes())
        log(f"errors: {dict(tally.errors)}; the server's log: {kept}")
    figures = {kind: {"n": len(times), "p50": percentile(times, 50) * 1000, "p99": percentile(times, 99) * 1000}
               for kind, times in tally.times.items()}
    requests = sum(len(t) for t in tally.times.values())
    return {"tables": tables, "figures": figures, "statuses": {k: dict(v) for k, v in tally.statuses.items()},
            "errors": dict(tally.errors), "saved": tally.saved, "stored": stored, "rps": requests / wall,
            "server_cores": cpu / wall, "bench_cores": own / wall, "seconds": wall,
            "cpu_ms": cpu * 1000 / requests if requests else float("nan")}


def _default_workers() -> int:
    from scorekeeper.cli import default_workers

    return default_workers()


def cpu_busy() -> tuple[float, float]:
    with open("/proc/stat") as stat:
        parts = [float(x) for x in stat.readline().split()[1:]]
    return sum(parts), parts[3] + parts[4]


def report(results: list[tuple[dict, dict]], args: argparse.Namespace, machine_busy: float,
           cost_rows: list[tuple[str, float, float]]) -> str:
    targets = {"poll": 300, "sheet": 500, "save": 1000}
    out = [
        "# A club night on one server (bench/club.py)",
        "",
        f"Run {datetime.now(UTC).strftime('%Y-%m-%d %H:%M')} UTC, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, `scorekeeper serve` with {args.workers or _default_workers()} worker "
        f"process(es); {args.seconds:.0f} s per run, a deal every {args.deal_every:.0f} s a table, 4 phones a "
        "table polling every 2 s, one big screen. Times in ms; × = the app's figure ÷ the bare Flask app's "
        "under the same load, same server settings.",
        "",
        f"The whole machine was {machine_busy:.0%} busy during the runs (the load generator and the server "
        "included)." + (f" {args.note}" if args.note else ""),
        "",
        "| tables (phones) | poll p50 | poll p99 | sheet p50 | sheet p99 | save p50 | save p99 | form p99 "
        "| big screen p99 | requests/s | deals saved (stored) | errors | server cores | server CPU ms a request "
        "| load generator cores |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    def cell(app: dict, hello: dict, kind: str, p: str) -> str:
        mine = app["figures"].get(kind, {}).get(p)
        bare = hello["figures"].get(kind, {}).get(p)
        if mine is None:
            return "–"
        mark = ""
        if p == "p99" and kind in targets:
            mark = " ✓" if mine <= targets[kind] else " ✗"
        ratio = f" ({mine / bare:.1f}×)" if bare else ""
        return f"{mine:.0f}{ratio}{mark}"

    for app, hello in results:
        errors = sum(app["errors"].values())
        out.append(
            f"| {app['tables']} ({app['tables'] * 4}) | {cell(app, hello, 'poll', 'p50')} | "
            f"{cell(app, hello, 'poll', 'p99')} | {cell(app, hello, 'sheet', 'p50')} | "
            f"{cell(app, hello, 'sheet', 'p99')} | {cell(app, hello, 'save', 'p50')} | "
            f"{cell(app, hello, 'save', 'p99')} | {cell(app, hello, 'form', 'p99')} | "
            f"{cell(app, hello, 'screen', 'p99')} | {app['rps']:.0f} | {app['saved']} ({app['stored']}) | "
            f"{errors}{' ' + str(app['errors']) if errors else ''} | {app['server_cores']:.2f} | "
            f"{app['cpu_ms']:.1f} ({app['cpu_ms'] / hello['cpu_ms']:.1f}×) | {app['bench_cores']:.2f} |")
    out += ["", "Targets (issue 20): p99 ≤ 300 ms for a poll, ≤ 500 ms for a sheet, ≤ 1 s for a save, "
            "no error (✓ met, ✗ not).", "",
            "What one request costs the app alone (Flask's test client, one at a time, median ms; a Trix "
            "game one kingdom in):", "",
            "| request | ms | without quick polls |", "|---|---|---|"]
    out += [f"| {what} | {quick:.2f} | {slow:.2f} |" for what, quick, slow in cost_rows]
    out += ["", "Answers by kind:", ""]
    for app, _hello in results:
        out.append(f"- {app['tables']} tables: " + "; ".join(
            f"{kind} {dict(sorted(statuses.items()))}" for kind, statuses in sorted(app["statuses"].items())))
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50,100,150,200", help="numbers of tables, comma-separated")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--deal-every", type=float, default=15)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--note", default="", help="a sentence added to the report (e.g. a shared machine)")
    parser.add_argument("--out", default=str(RESULTS))
    parser.add_argument("--hello", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hello is not None:
        serve_hello(args.hello, args.workers or 1)
        return 0
    log("one request's cost")
    cost_rows = costs()
    results = []
    busy_start = cpu_busy()
    with tempfile.TemporaryDirectory(prefix="scorekeeper-club-") as folder:
        for tables in [int(t) for t in args.tables.split(",")]:
            log(f"{tables} tables: the app")
            app = run(tables, args.seconds, args.deal_every, args.workers, False, Path(folder))
            log(f"{tables} tables: the bare Flask app")
            hello = run(tables, args.seconds, args.deal_every, args.workers, True, Path(folder))
            log(f"{tables} tables: {app['figures']} errors {app['errors']}")
            results.append((app, hello))
    busy_end = cpu_busy()
    total, idle = busy_end[0] - busy_start[0], busy_end[1] - busy_start[1]
    text = report(results, args, 1 - idle / total if total else 0, cost_rows)
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
