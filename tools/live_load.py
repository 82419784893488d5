"""How 20 phones watching games live weigh on the server (not part of `make test`).

Starts the app on waitress (8 threads, as `scorekeeper serve`) on 127.0.0.1 with a
temporary database of a few games, then for SECONDS seconds: WATCHERS phones each ask
their game's /live every 2 s with If-None-Match (as static/app.js does), two phones add
deals, and one phone loads a score sheet over and over. Prints the sheet's median time
with and without the watchers, and the watchers' answers (304 / 200 / errors).

    .venv/bin/python tools/live_load.py [SECONDS] [WATCHERS]

Bounded: every request has a timeout, every loop stops after SECONDS; only 127.0.0.1.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from waitress import create_server

from scorekeeper import create_app, store
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict

DEAL = {"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [5, 4, 4], "bugs": [0, 0, 0]}


def get(url: str, etag: str | None = None) -> tuple[int, str | None]:
    request = urllib.request.Request(url, headers={"If-None-Match": etag} if etag else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()
            return response.status, response.headers.get("ETag")
    except urllib.error.HTTPError as error:
        return error.code, etag


def sheet_times(url: str, until: float) -> list[float]:
    times = []
    while time.monotonic() < until:
        start = time.perf_counter()
        get(url)
        times.append(time.perf_counter() - start)
    return times


def main(seconds: float = 20, watchers: int = 20) -> None:
    folder = Path(tempfile.mkdtemp())
    app = create_app({"SECRET_KEY": "load", "DATABASE": str(folder / "load.sqlite3"), "WTF_CSRF_ENABLED": False})
    db = connect(app.config["DATABASE"])
    games = [store.create_game(db, from_dict({"format": 1, "game": "trigami", "players": ["A", "B", f"C{n}"],
                                              "first_dealer": 0, "options": {"target": 100000},
                                              "deals": [DEAL] * 10})) for n in range(5)]
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    base = f"http://127.0.0.1:{server.effective_port}"
    threading.Thread(target=server.run, daemon=True).start()
    sheet = f"{base}/games/{games[0]}"
    try:
        quiet = statistics.median(sheet_times(sheet, time.monotonic() + seconds / 4))
        answers: Counter[int] = Counter()
        until = time.monotonic() + seconds

        def watch(n: int) -> None:
            url, etag = f"{base}/games/{games[n % len(games)]}/live", None
            while time.monotonic() < until:
                status, etag = get(url, etag)
                answers[status] += 1
                time.sleep(2)

        def add(n: int) -> None:
            while time.monotonic() < until:
                store.add_deal(connect(app.config["DATABASE"]), games[n], DEAL)
                time.sleep(1)

        threads = [threading.Thread(target=watch, args=(n,)) for n in range(watchers)]
        threads += [threading.Thread(target=add, args=(n,)) for n in (1, 2)]
        for thread in threads:
            thread.start()
        busy = statistics.median(sheet_times(sheet, until))
        for thread in threads:
            thread.join()
        print(json.dumps({"watchers": watchers, "seconds": seconds,
                          "sheet_median_ms_alone": round(quiet * 1000, 1),
                          "sheet_median_ms_with_watchers": round(busy * 1000, 1),
                          "watcher_answers": dict(answers)}, indent=2))
    finally:
        server.close()


if __name__ == "__main__":
    given: dict[str, Any] = {}  # [seconds [watchers]]; main's defaults for the rest
    if len(sys.argv) > 1:
        given["seconds"] = float(sys.argv[1])
    if len(sys.argv) > 2:
        given["watchers"] = int(sys.argv[2])
    main(**given)
