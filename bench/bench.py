"""How fast Scorekeeper's pages are, against a bare Flask hello world (`make bench`).

    make bench            # full: 10, 100, 1,000 and 5,000 games, 3 s a page (< 10 min, 2 cores)
    make bench QUICK=1    # quick: 10 and 1,000 games, 1 s a page (< 3 min): while working

Starts the app and a bare Flask "Hello, World!" as two server processes on the same
waitress settings as `scorekeeper serve` (127.0.0.1, 8 threads), builds databases of
finished games through the app's own import path (bench/dataset.py, cached in
bench/.cache/), drives every page with a bounded load generator on 127.0.0.1 only
(bench/load.py: 10 keep-alive clients for a fixed time, with a request cap) and prints:

- each page's requests per second ÷ the hello world's (measured at the start and at the
  end of the same run, the mean used), which cancels out how fast the machine is;
- the growth of each list page's time per request from 10 to 5,000 games;
- bytes per page, raw and as sent to a browser that accepts gzip and Brotli;
- the app server's memory (VmRSS), and the targets beside the figures.

The tables go to standard output and to bench/results.md; progress goes to standard
error. Targets are reported, never asserted: timings do not belong in `make test`.
Every server started is stopped on the way out (errors and Ctrl-C included), and each one
also ends by itself if this script dies (bench/serve.py).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gzip
import hashlib
import html
import os
import platform
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import dataset  # noqa: E402
import load  # noqa: E402

RESULTS = HERE / "results.md"
ROOT = HERE.parent
ACCEPT = {"Accept-Encoding": "gzip, br"}  # what a phone's browser accepts (and deflate, zstd)


@dataclass(frozen=True)
class Settings:
    name: str
    sizes: tuple[int, ...]
    seconds: float  # of load per page
    hello_seconds: float
    clients: int
    cap: int  # requests per page at most
    budget: float  # seconds: past this, pages get one timed request instead of a load run
    long_repeats: int  # timed requests of the 2,000-deal pages


FULL = Settings("full", (10, 100, 1000, 5000), seconds=3.0, hello_seconds=3.0, clients=10,
                cap=50_000, budget=8 * 60, long_repeats=3)
QUICK = Settings("quick", (10, 1000), seconds=1.0, hello_seconds=1.5, clients=10,
                 cap=20_000, budget=2.25 * 60, long_repeats=1)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def code_fingerprint() -> str:
    """A short hash of the app's code (scorekeeper/, templates/, static/, pyproject.toml):
    each server records the one it started with, so a run whose code changed midway (the
    figures of two versions side by side) says so."""
    digest = hashlib.sha256()
    files = [ROOT / "pyproject.toml"]
    for folder in ("scorekeeper", "templates", "static"):
        files += sorted(path for path in (ROOT / folder).rglob("*")
                        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc")
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def git_version() -> str:
    """The checkout's commit, and whether the working tree differs from it."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "scorekeeper", "templates", "static",
                                "pyproject.toml"], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{commit or 'unknown'}{' + uncommitted changes' if dirty else ''}"


# --------------------------------------------------------------------------- servers

_running: list[Server] = []


class Server:
    """A server process (bench/serve.py) on 127.0.0.1 and a free port."""

    def __init__(self, kind: str, folder: Path, database: str | None = None) -> None:
        self.kind, self.folder, self.database = kind, folder, database
        self.process: subprocess.Popen[str] | None = None
        self.port = 0
        self.stderr_path = folder / f"{kind}.stderr.log"
        self.code = ""  # code_fingerprint() when it started

    def start(self, timeout: float = 60) -> Server:
        self.folder.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
        env["SCOREKEEPER_INSTANCE_PATH"] = str(self.folder / "instance")
        env["PYTHONUNBUFFERED"] = "1"
        args = [sys.executable, str(HERE / "serve.py"), self.kind, str(os.getpid())]
        if self.database:
            args.append(self.database)
        self.code = code_fingerprint()
        with open(self.stderr_path, "w") as stderr:
            self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=stderr, text=True,
                                            env=env, cwd=self.folder)
        _running.append(self)
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if ready else ""
        if not line.strip().isdigit():
            self.stop()
            raise RuntimeError(f"the {self.kind} server did not start:\n{self.log_tail()}")
        self.port = int(line)
        until = time.monotonic() + timeout
        while True:  # answered means up: any status will do
            try:
                load.fetch(self.port, "/__bench_ping__", timeout=10)
                return self
            except OSError:
                if time.monotonic() > until or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"the {self.kind} server does not answer:\n{self.log_tail()}") from None
                time.sleep(0.1)

    def memory(self) -> dict[str, float]:
        """VmRSS and VmHWM (peak) in MiB, from /proc (Linux)."""
        out: dict[str, float] = {}
        try:
            with open(f"/proc/{self.process.pid}/status") as status:  # type: ignore[union-attr]
                for line in status:
                    key, _, value = line.partition(":")
                    if key in ("VmRSS", "VmHWM"):
                        out[key] = int(value.split()[0]) / 1024
        except OSError:
            pass
        return out

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        if process.stdout:
            process.stdout.close()
        if self in _running:
            _running.remove(self)

    def log_tail(self, lines: int = 25) -> str:
        """The end of the server's standard error, without waitress's queue warnings."""
        try:
            text = self.stderr_path.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join([line for line in text if "Task queue depth" not in line][-lines:])

    def log_summary(self) -> dict[str, Any]:
        """Waitress's queue warnings (requests waiting for one of the 8 threads) and the
        exceptions the app logged."""
        try:
            text = self.stderr_path.read_text(errors="replace")
        except OSError:
            return {}
        depths = [int(m) for m in re.findall(r"Task queue depth is (\d+)", text)]
        errors = [line for line in text.splitlines() if re.match(r"\w*(Error|Exception)\b|\w+Error: ", line)]
        return {"max_queue": max(depths, default=0), "errors": len(re.findall(r"^Traceback", text, re.M)),
                "last_error": errors[-1] if errors else ""}


def stop_all() -> None:
    for server in list(_running):
        server.stop()


def _terminate(signum: int, _frame: Any) -> None:
    raise SystemExit(128 + signum)


def cpu_seconds() -> tuple[float, float]:
    """(CPU seconds used by the whole machine, by this process and its waited-for
    children) so far; the difference over a run is what other processes used."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return float("nan"), 0.0
    busy = sum(fields[:3]) + sum(fields[5:8])  # user nice system, irq softirq steal
    own = os.times()
    return busy / tick, own.user + own.system + own.children_user + own.children_system


def remove_stale_folders() -> None:
    """Temporary folders of earlier runs that were killed outright (SIGKILL leaves no
    chance to clean up): each holds its run's process id, gone now."""
    import shutil

    for folder in Path(tempfile.gettempdir()).glob("scorekeeper-bench-*"):
        try:
            pid = int((folder / "pid").read_text())
            os.kill(pid, 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except (OSError, ValueError):
            continue


# --------------------------------------------------------------------------- measuring


@dataclass
class Page:
    """One page's figures on one database."""

    key: str
    label: str
    path: str
    expect: int = 200
    status: str = ""  # "" when every answer was as expected, else what came
    note: str = ""
    raw_bytes: int | None = None
    sent_bytes: int | None = None
    encoding: str = ""  # Content-Encoding with Accept-Encoding: gzip, br ("" = not compressed)
    gzip_bytes: int | None = None  # what gzip -6 would make of an uncompressed page
    first_s: float | None = None  # the page's first request since the server started (cold)
    single_s: float | None = None  # one request on its own, right after (warm)
    rps: float | None = None
    median_ms: float | None = None
    p90_ms: float | None = None
    clients: int = 0
    requests: int = 0
    times_s: list[float] = field(default_factory=list)  # timed single requests (long games)
    body: bytes = field(default=b"", repr=False)
    etag: str | None = None

    @property
    def ok(self) -> bool:
        return not self.status and self.rps is not None


def statuses_text(counts: Counter[Any]) -> str:
    return ", ".join(f"{status}×{n}" for status, n in counts.most_common())


class Bench:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.started = time.monotonic()

    def over_budget(self) -> bool:
        return time.monotonic() - self.started > self.settings.budget

    def probe(self, port: int, page: Page, headers: dict[str, str] | None = None) -> float | None:
        """Two single requests: without Accept-Encoding (raw bytes, the body) and with it
        (bytes sent, encoding, the time of one request); that time in seconds (also
        ``page.single_s``), or None when the page failed."""
        extra = headers or {}
        try:
            plain, page.first_s = load.fetch(port, page.path, extra)
            sent, seconds = load.fetch(port, page.path, {**ACCEPT, **extra})
        except (OSError, load.ConnectionClosed, ValueError) as error:
            page.status = f"no answer ({type(error).__name__})"
            return None
        page.body, page.raw_bytes = plain.body, len(plain.body)
        page.sent_bytes, page.encoding = len(sent.body), sent.headers.get("content-encoding", "")
        page.etag = sent.headers.get("etag")
        if not page.encoding and plain.body:
            page.gzip_bytes = len(gzip.compress(plain.body, 6))
        page.single_s = seconds
        if plain.status != page.expect or sent.status != page.expect:
            page.status = statuses_text(Counter([plain.status, sent.status]))
            return None
        return seconds

    def measure(self, port: int, page: Page, headers: dict[str, str] | None = None) -> Page:
        """The page under load: ``clients`` keep-alive clients for the run's seconds. A
        page slower than that gets fewer clients (as many as fit in the time, at least
        two), so that a slow page cannot hold the run up for long; with the server busy
        either way, its requests per second hardly change with that. Past the run's time
        budget, the probe's single request stands in for the load."""
        single = self.probe(port, page, headers)
        if single is None:
            log(f"    {page.label}: {page.status}")
            return page
        s = self.settings
        if self.over_budget():
            page.rps, page.clients, page.requests = 1 / single, 1, 1
            page.median_ms = page.p90_ms = single * 1000
            page.note = "one request only (time budget spent)"
        else:
            # at least 2: the server may use both cores (SQLite and compression let go of
            # the GIL), whatever the page's speed
            clients = max(2, min(s.clients, int(s.seconds / max(single, 1e-6))))
            result = load.run(port, page.path, clients=clients, seconds=s.seconds, cap=s.cap,
                              headers={**ACCEPT, **(headers or {})}, min_requests=clients)
            page.rps, page.median_ms, page.p90_ms = result.rps, result.median_ms, result.p90_ms
            page.clients, page.requests = clients, result.requests
            if set(result.statuses) != {page.expect}:
                page.status = statuses_text(result.statuses)
        log(f"    {page.label}: {page.rps:,.1f} req/s, median {page.median_ms:,.1f} ms"
            f" ({page.clients} clients, {page.requests} requests){'  ' + page.status if page.status else ''}")
        return page

    def timed(self, port: int, page: Page, repeats: int) -> Page:
        """A few single requests, one after another (the 2,000-deal pages)."""
        single = self.probe(port, page)
        if single is None:
            log(f"    {page.label}: {page.status}")
            return page
        page.times_s = [single]
        for _ in range(repeats - 1):
            if single > 5 or self.over_budget():
                break
            response, seconds = load.fetch(port, page.path, ACCEPT)
            if response.status != page.expect:
                page.status = str(response.status)
                break
            page.times_s.append(seconds)
        page.median_ms = statistics.median(page.times_s) * 1000
        page.rps = 1 / statistics.median(page.times_s)
        page.requests = len(page.times_s)
        log(f"    {page.label}: {page.median_ms:,.0f} ms (median of {page.requests})")
        return page

    def hello(self, server: Server) -> float:
        load.fetch(server.port, "/")  # warm
        result = load.run(server.port, "/", clients=self.settings.clients, seconds=self.settings.hello_seconds,
                          cap=10**6, headers=ACCEPT, min_requests=self.settings.clients)
        if set(result.statuses) != {200}:
            raise RuntimeError(f"the hello world answered {statuses_text(result.statuses)}")
        log(f"  hello world: {result.rps:,.0f} req/s, median {result.median_ms:.2f} ms")
        return result.rps


def stylesheet_path(home: bytes) -> str:
    """The stylesheet URL exactly as the home page links it (query string included)."""
    text = home.decode("utf-8", "replace")
    for tag in re.findall(r"<link\b[^>]*>", text):
        if re.search(r'rel="?stylesheet', tag):
            href = re.search(r'href="([^"]+)"', tag)
            if href:
                return html.unescape(href.group(1))
    return "/static/app.css"


def measure_database(bench: Bench, games: int, work: Path) -> dict[str, Any]:
    """Every page on a database of ``games`` finished games (and its 200-deal game)."""
    built = dataset.build(games, log=log).copy_to(work)
    server = Server("app", work / f"app-{games}", built.path).start()
    try:
        idle = server.memory()
        pages: dict[str, Page] = {}

        def page(key: str, label: str, path: str, headers: dict[str, str] | None = None,
                 expect: int = 200) -> Page:
            pages[key] = bench.measure(server.port, Page(key, label, path, expect), headers)
            return pages[key]

        log(f"  {games:,} games (app on port {server.port}):")
        home = page("home", "Home", "/")
        page("kind", "Past games: Trix", "/?kind=trix")
        page("player_filter", "Past games: one player", f"/?player={built.player_id}")
        page("players", "Players", "/players")
        page("player", "Player statistics", f"/players/{built.player_id}")
        sheet = page("sheet", "Score sheet, Trix, 20 deals", f"/games/{built.trix20}")
        if sheet.etag:
            page("sheet304", "Same sheet again, If-None-Match", f"/games/{built.trix20}",
                 {"If-None-Match": sheet.etag}, expect=304)
        else:
            pages["sheet304"] = Page("sheet304", "Same sheet again, If-None-Match", f"/games/{built.trix20}",
                                     status="no ETag" if not sheet.status else "sheet failed")
        page("sheet200", "Score sheet, Trigami, 200 deals", f"/games/{built.long_game}")
        page("form200", "Add-deal form, 200-deal game", f"/games/{built.long_game}/deals/new")
        page("gamefile", "Game file (JSON)", f"/games/{built.trix20}/game.json")
        page("css", "Stylesheet", stylesheet_path(home.body) if home.body else "/static/app.css")
        return {"games": games, "pages": pages, "memory_idle": idle, "memory": server.memory(),
                "log": server.log_summary(), "code": server.code}
    finally:
        server.stop()


def measure_long(bench: Bench, work: Path, deals: int = 2000) -> dict[str, Any]:
    built = dataset.build(10, long_deals=deals, log=log).copy_to(work)
    server = Server("app", work / "app-long", built.path).start()
    try:
        log(f"  a {deals:,}-deal game (app on port {server.port}):")
        pages = {
            "sheet2000": bench.timed(server.port, Page("sheet2000", f"Score sheet, {deals:,} deals",
                                                       f"/games/{built.long_game}"), bench.settings.long_repeats),
            "form2000": bench.timed(server.port, Page("form2000", f"Add-deal form, {deals:,}-deal game",
                                                      f"/games/{built.long_game}/deals/new"),
                                    bench.settings.long_repeats),
        }
        return {"pages": pages, "memory": server.memory(), "log": server.log_summary(), "code": server.code}
    finally:
        server.stop()


# --------------------------------------------------------------------------- report

LIST_PAGES = ("home", "kind", "player_filter", "players", "player")
ROWS = (*LIST_PAGES, "sheet", "sheet304", "sheet200", "form200", "gamefile", "css")
RATIO_TARGETS = {"sheet": 0.2, "sheet304": 0.5, **dict.fromkeys(LIST_PAGES, 0.1)}
GROWTH_TARGET = 1.5
LONG_RATIO_TARGET = 3.0
LONG_SECONDS_TARGET = 1.0
MEMORY_TARGET_MIB = 120


def n(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def ratio_text(value: float) -> str:
    """Two decimals, or two significant digits below 0.1 (0.0031, not 0.000)."""
    if value >= 0.1 or value <= 0:
        return f"{value:.2f}"
    digits = 2
    while value < 10 ** -(digits - 1) and digits < 8:
        digits += 1
    return f"{value:.{digits}f}"


def size_label(games: int) -> str:
    return f"{games:,}"


def mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def report(settings: Settings, hello: tuple[float, float], runs: list[dict[str, Any]],
           long: dict[str, Any] | None, elapsed: float, stopped: str = "",
           code: tuple[str, str] = ("", ""), version: str = "", cpu_others: float | None = None) -> str:
    hello_mean = (hello[0] + hello[1]) / 2 if hello[1] else hello[0]
    sizes = [run["games"] for run in runs]
    first, last = (runs[0], runs[-1]) if runs else ({}, {})
    largest = size_label(last["games"]) if runs else "–"
    out: list[str] = []
    add = out.append
    add("# Scorekeeper benchmark\n")
    command = {"full": "make bench", "quick": "make bench QUICK=1"}.get(settings.name, "bench/bench.py --sizes/--seconds")
    add(f"{settings.name.capitalize()} run (`{command}`), "
        f"{datetime.now().strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}; took **{elapsed / 60:.1f} min** ({elapsed:.0f} s).")
    add(f"Each server: its own process, waitress on 127.0.0.1 with 8 threads (as `scorekeeper serve`). "
        f"Load: {settings.clients} keep-alive clients for {settings.seconds:g} s a page "
        f"(fewer on a page slower than that, as many as fit in the time but at least 2: column \"clients\"), "
        f"`Accept-Encoding: gzip, br` on every request. ")
    drift = (hello[1] - hello[0]) / hello[0] * 100 if hello[1] else 0.0
    add(f"Hello world (bare Flask, same settings): {hello[0]:,.0f} req/s at the start, "
        f"{n(hello[1]) if hello[1] else '–'} at the end: mean **{hello_mean:,.0f} req/s** (drift {drift:+.0f} %); "
        f"ratio = page req/s ÷ that mean.\n")
    servers = [(f"{run['games']:,} games", run.get("code", "")) for run in runs]
    if long:
        servers.append(("the 2,000-deal game", long.get("code", "")))
    served = {c for _, c in servers if c}
    add(f"App code: {version or 'unknown'}, fingerprint `{code[0]}`.")
    if len(served) > 1:
        add(f"**The app's code changed during the run** (servers: "
            f"{', '.join(f'{name} `{c}`' for name, c in servers)}): figures of different versions stand "
            f"side by side, and the growth compares them. Run it again on code that holds still.")
    elif code[1] and code[1] not in served | {code[0]}:
        add(f"(The code changed after the last server had started: every figure is of `{code[0]}`; "
            f"the working tree is now `{code[1]}`.)")
    if cpu_others is not None:
        add(f"Other processes used {cpu_others:.2f} of the {os.cpu_count()} cores on average during the run"
            f"{' — **the figures are noisy: run it again on a quiet machine**' if cpu_others > 0.25 else ''}.")
    add("")
    if stopped:
        add(f"**Stopped early: {stopped}** — the tables hold what was measured.\n")

    if runs:
        add("## Requests per second, page ÷ hello world\n")
        add("| page | " + " | ".join(f"{size_label(s)} games" for s in sizes) + " | target |")
        add("|---|" + "---:|" * len(sizes) + "---|")
        for key in ROWS:
            cells = []
            for run in runs:
                page = run["pages"].get(key)
                if page is None:
                    cells.append("–")
                elif page.status:
                    cells.append(f"**{page.status}**")
                elif page.rps is None:
                    cells.append("–")
                else:
                    ratio = page.rps / hello_mean
                    target = RATIO_TARGETS.get(key)
                    cells.append(ratio_text(ratio) + (f" {mark(ratio >= target)}" if target else ""))
            target = RATIO_TARGETS.get(key)
            target_text = (f"≥ {target}× at {largest}" if key in LIST_PAGES else f"≥ {target}×") if target else ""
            if key == "sheet200":
                target_text = f"time ≤ {LONG_RATIO_TARGET:g}× the 20-deal sheet's"
            label = runs[-1]["pages"][key].label if key in runs[-1]["pages"] else key
            add(f"| {label} | " + " | ".join(cells) + f" | {target_text} |")
        add("")

        add("## Under load: requests per second, median and 90th percentile time\n")
        add("\"first request\": the page's first request since its server started, alone (cold caches).\n")
        add("| page | games | path | req/s | median ms | p90 ms | clients | requests | answers | first request ms |")
        add("|---|---:|---|---:|---:|---:|---:|---:|---|---:|")
        for key in ROWS:
            for run in runs:
                page = run["pages"].get(key)
                if page is None:
                    continue
                path = page.path if len(page.path) <= 48 else page.path[:45] + "…"
                answers = page.status or (f"all {page.expect}" if page.rps is not None else "–")
                if page.note:
                    answers += f" ({page.note})"
                add(f"| {page.label} | {run['games']:,} | `{path}` | {n(page.rps, 1)} | {n(page.median_ms, 1)} | "
                    f"{n(page.p90_ms, 1)} | {page.clients or '–'} | {page.requests or '–'} | {answers} | "
                    f"{n(page.first_s * 1000 if page.first_s is not None else None, 1)} |")
        add("")

        if len(runs) > 1:
            add(f"## Growth from {size_label(first['games'])} to {largest} games "
                f"(time per request = 1 ÷ req/s)\n")
            add(f"| page | req/s at {size_label(first['games'])} | req/s at {largest} | growth | target | "
                f"raw bytes at {size_label(first['games'])} | raw bytes at {largest} |")
            add("|---|---:|---:|---:|---|---:|---:|")
            for key in LIST_PAGES:
                a, b = first["pages"].get(key), last["pages"].get(key)
                if a is None or b is None:
                    continue
                growth = a.rps / b.rps if a.ok and b.ok else None
                cell = f"{growth:,.1f}× {mark(growth <= GROWTH_TARGET)}" if growth else "**failed**"
                add(f"| {b.label} | {n(a.rps, 1)} | {n(b.rps, 1)} | {cell} | ≤ {GROWTH_TARGET}× | "
                    f"{n(a.raw_bytes)} | {n(b.raw_bytes)} |")
            add("")

        add(f"## Bytes per page ({largest} games)\n")
        add("| page | raw bytes | sent with gzip, br accepted | Content-Encoding | gzip -6 would send |")
        add("|---|---:|---:|---|---:|")
        for key in ROWS:
            page = last["pages"].get(key)
            if page is None or page.raw_bytes is None:
                continue
            add(f"| {page.label} | {n(page.raw_bytes)} | {n(page.sent_bytes)} | "
                f"{page.encoding or ('not compressed' if page.raw_bytes else '(empty body)')} | "
                f"{n(page.gzip_bytes) if page.gzip_bytes is not None else ''} |")
        add("")

    if long:
        add("## Long games\n")
        add("| page | time (median) | single requests | raw bytes | sent | Content-Encoding | target |")
        add("|---|---:|---:|---:|---:|---|---|")
        for page in long["pages"].values():
            if page.status:
                add(f"| {page.label} | **{page.status}** | | | | | < {LONG_SECONDS_TARGET:g} s |")
                continue
            seconds = page.median_ms / 1000
            add(f"| {page.label} | {page.median_ms:,.0f} ms {mark(seconds < LONG_SECONDS_TARGET)} | "
                f"{', '.join(f'{t * 1000:,.0f}' for t in page.times_s)} ms | {n(page.raw_bytes)} | "
                f"{n(page.sent_bytes)} | {page.encoding or 'not compressed'} | < {LONG_SECONDS_TARGET:g} s |")
        add("")

    if runs:
        add("## Memory of the app server\n")
        add("| games | VmRSS after start | VmRSS after the load run | peak (VmHWM) | target |")
        add("|---:|---:|---:|---:|---|")
        for run in runs:
            rss = run["memory"].get("VmRSS")
            memory_target = f"≤ {MEMORY_TARGET_MIB} MiB" if run is last else ""
            add(f"| {run['games']:,} | {n(run['memory_idle'].get('VmRSS'), 1)} MiB | {n(rss, 1)} MiB"
                f"{(' ' + mark(rss <= MEMORY_TARGET_MIB)) if run is last and rss else ''} | "
                f"{n(run['memory'].get('VmHWM'), 1)} MiB | {memory_target} |")
        if long:
            add(f"| 10 + a 2,000-deal game | | {n(long['memory'].get('VmRSS'), 1)} MiB | "
                f"{n(long['memory'].get('VmHWM'), 1)} MiB | |")
        if "hello_memory" in last:
            add(f"\nHello world server: {n(last['hello_memory'].get('VmRSS'), 1)} MiB VmRSS.")
        add("")

        add("## Targets\n")
        add("| target | measured | met |")
        add("|---|---|:---:|")
        for line in targets(runs, long, hello_mean):
            add(line)
        add("")

        notes = []
        for run in [*runs, *([{"games": "2,000-deal", **long}] if long else [])]:
            summary = run.get("log") or {}
            if summary.get("errors"):
                notes.append(f"- App server ({run['games']} games) logged {summary['errors']} exception(s); "
                             f"the last: `{summary['last_error']}`")
        queues = [f"{run['games']:,}: {run['log'].get('max_queue', 0)}" for run in runs if run.get("log")]
        notes.append(f"- Deepest waitress task queue (requests waiting for one of the 8 threads), by games: "
                     f"{', '.join(queues)}.")
        add("## Notes\n")
        add("\n".join(notes))
        add("")
    return "\n".join(out)


def targets(runs: list[dict[str, Any]], long: dict[str, Any] | None, hello: float) -> list[str]:
    lines = []
    last = runs[-1]
    largest = size_label(last["games"])

    def worst(key: str) -> tuple[float | None, str]:
        found = [(run["pages"][key].rps / hello, run["games"]) for run in runs
                 if key in run["pages"] and run["pages"][key].ok]
        failed = [run["games"] for run in runs if key in run["pages"] and not run["pages"][key].ok]
        if failed:
            return None, f"failed at {', '.join(size_label(g) for g in failed)} games ({runs[0]['pages'][key].status or last['pages'][key].status})"
        value, games = min(found)
        return value, f"{ratio_text(value)}× (lowest, at {size_label(games)} games)"

    for key, text in (("sheet", "Score sheet (20 deals) ≥ 0.2× hello world"),
                      ("sheet304", "Repeat sheet, 304 ≥ 0.5× hello world")):
        value, measured = worst(key)
        lines.append(f"| {text} | {measured} | {mark(value is not None and value >= RATIO_TARGETS[key])} |")
    for key in LIST_PAGES:
        page = last["pages"].get(key)
        if page is None:
            continue
        if page.ok:
            value = page.rps / hello
            lines.append(f"| {page.label} ≥ 0.1× at {largest} games | {ratio_text(value)}× | {mark(value >= 0.1)} |")
        else:
            lines.append(f"| {page.label} ≥ 0.1× at {largest} games | {page.status} | ✗ |")
    if len(runs) > 1:
        for key in LIST_PAGES:
            a, b = runs[0]["pages"].get(key), last["pages"].get(key)
            if a is None or b is None:
                continue
            if a.ok and b.ok:
                growth = a.rps / b.rps
                lines.append(f"| {b.label}: growth {size_label(runs[0]['games'])} → {largest} ≤ 1.5× | "
                             f"{growth:,.1f}× | {mark(growth <= GROWTH_TARGET)} |")
            else:
                lines.append(f"| {b.label}: growth ≤ 1.5× | failed | ✗ |")
    slow = []
    for run in runs:
        a, b = run["pages"].get("sheet"), run["pages"].get("sheet200")
        if a and b and a.ok and b.ok:
            slow.append((a.rps / b.rps, run["games"]))
    if slow:
        value, games = max(slow)
        lines.append(f"| 200-deal sheet ≤ 3× the 20-deal sheet's time | {value:,.1f}× (highest, at "
                     f"{size_label(games)} games) | {mark(value <= LONG_RATIO_TARGET)} |")
    if long:
        for page in long["pages"].values():
            if page.status:
                lines.append(f"| {page.label} < 1 s | {page.status} | ✗ |")
            else:
                lines.append(f"| {page.label} < 1 s | {page.median_ms / 1000:,.2f} s | "
                             f"{mark(page.median_ms / 1000 < LONG_SECONDS_TARGET)} |")
    rss = last["memory"].get("VmRSS")
    if rss:
        lines.append(f"| App server memory ≤ {MEMORY_TARGET_MIB} MiB after the load run at {largest} games | "
                     f"{rss:,.0f} MiB | {mark(rss <= MEMORY_TARGET_MIB)} |")
    return lines


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="10 and 1,000 games, 1 s a page (< 3 min)")
    parser.add_argument("--sizes", type=lambda text: tuple(int(x) for x in text.split(",")),
                        help="numbers of games, e.g. 10,1000 (default: 10,100,1000,5000; quick: 10,1000)")
    parser.add_argument("--seconds", type=float, help="load per page (default 3; quick 1)")
    parser.add_argument("--no-write", action="store_true", help="do not write bench/results.md")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL
    if args.sizes:
        settings = Settings(**{**settings.__dict__, "sizes": args.sizes, "name": "custom"})
    if args.seconds:
        settings = Settings(**{**settings.__dict__, "seconds": args.seconds, "hello_seconds": args.seconds})

    atexit.register(stop_all)
    signal.signal(signal.SIGTERM, _terminate)
    bench = Bench(settings)
    code_start, version = code_fingerprint(), git_version()
    cpu_start = cpu_seconds()
    runs: list[dict[str, Any]] = []
    long = None
    hello = (0.0, 0.0)
    stopped = ""
    log(f"Scorekeeper benchmark ({settings.name}): {', '.join(f'{s:,}' for s in settings.sizes)} games")
    remove_stale_folders()
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
        work = Path(folder)
        (work / "pid").write_text(str(os.getpid()))
        hello_server = Server("hello", work / "hello").start()
        try:
            start_rps = bench.hello(hello_server)
            hello = (start_rps, 0.0)
            try:
                for games in settings.sizes:
                    runs.append(measure_database(bench, games, work))
                long = measure_long(bench, work)
            except KeyboardInterrupt:
                stopped = "interrupted (Ctrl-C)"
                log("interrupted: stopping the servers and reporting what was measured")
            if not stopped:
                hello = (start_rps, bench.hello(hello_server))
                if runs:
                    runs[-1]["hello_memory"] = hello_server.memory()
        finally:
            hello_server.stop()
            stop_all()
    elapsed = time.monotonic() - bench.started
    cpu_end = cpu_seconds()
    others = ((cpu_end[0] - cpu_start[0]) - (cpu_end[1] - cpu_start[1])) / elapsed
    text = report(settings, hello, runs, long, elapsed, stopped, (code_start, code_fingerprint()), version,
                  max(others, 0.0) if others == others else None)
    print(text)
    if not args.no_write and not stopped and settings.name != "custom":
        RESULTS.write_text(text)
        log(f"written to {RESULTS.relative_to(HERE.parent)}; took {elapsed:.0f} s")
    else:
        log(f"took {elapsed:.0f} s")
    return 130 if stopped else 0


if __name__ == "__main__":
    sys.exit(main())
