"""The race tests' harness: the real server, phones, requests released together, invariants.

- :func:`serve` (the ``race_server`` fixture of conftest): the app (CSRF on, as in production) served
  by waitress with 8 threads on a free port of 127.0.0.1, on a temporary database.
- :class:`Phone`: one phone at the table, with its own cookies (its own session and CSRF
  token); redirects are not followed, so a test sees the 302 that acknowledges a save.
  :meth:`Phone.form` reads a page's ``<form method="post">`` the way a browser would send it
  (hidden inputs, filled-in fields, checked buttons), so no test hard-codes a token.
- :func:`at_once`: callables run in threads released together by a ``threading.Barrier``.
- Invariants every race must leave (TESTING.md, "Races"): no 5xx, every stored game scores,
  nothing stored twice, everything acknowledged present.

Standard library only (urllib, html.parser): no test extra needed. Every request and every
wait is bounded; nothing asserts timings.
"""

from __future__ import annotations

import html
import http.cookiejar
import json
import re
import secrets
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from email.message import Message
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import sqlite_utils

from scorekeeper import groups, records, store
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from scorekeeper.rules import RuleError, get_rules
from tests.conftest import game_file

#: Seconds any one request, barrier or thread may take before the test fails (not a timing
#: assertion: only a bound, so a hung server fails the test instead of hanging it).
TIMEOUT = 30

#: Form fields as a browser sends them: a name repeated (checkboxes) has a list of values.
Fields = dict[str, str | list[str]]


# --------------------------------------------------------------------------- responses


@dataclass(frozen=True)
class Reply:
    """One HTTP response: ``status``, ``headers`` and the body as text."""

    status: int
    headers: Message
    body: str

    @property
    def location(self) -> str | None:
        """The path a redirect leads to (``/games/abc``), or None."""
        target = self.headers.get("Location")
        return urllib.parse.urlsplit(target).path if target else None

    @property
    def text(self) -> str:
        """The page as a player reads it: tags dropped, entities decoded, spaces folded."""
        body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", self.body, flags=re.S)
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())

    def redirects_to(self, path: str) -> bool:
        """Whether this is a 302/303 redirect to ``path``: a save acknowledged."""
        return self.status in (302, 303) and self.location == path

    def __repr__(self) -> str:
        where = f" → {self.location}" if self.location else ""
        return f"<{self.status}{where}>"


def statuses(replies: Sequence[Reply]) -> list[str]:
    """The replies in a failure message: ``['302 → /games/x', '409']``."""
    return [repr(r).strip("<>") for r in replies]


# --------------------------------------------------------------------------- forms


class _FormReader(HTMLParser):
    """The successful controls of the first ``<form method="post">`` (whose ``action``
    ends with ``action``, when given), as a browser would submit them: inputs (hidden,
    text, number, …) with their value, radio buttons and checkboxes only when checked, a
    select's selected option, a textarea's text. File inputs, buttons and disabled
    controls are left out."""

    def __init__(self, action: str | None = None) -> None:
        super().__init__(convert_charrefs=True)
        self._action = action
        self.pairs: list[tuple[str, str]] = []
        self.state = "before"  # before → inside → done
        self._select: tuple[str, list[str], list[str]] | None = None  # name, selected, all
        self._option: str | None = None
        self._textarea: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if self.state == "before":
            if tag == "form" and a.get("method", "get").lower() == "post" \
                    and (self._action is None or a.get("action", "").endswith(self._action)):
                self.state = "inside"
            return
        if self.state != "inside":
            return
        name = a.get("name")
        if tag == "input" and name and "disabled" not in a:
            kind = a.get("type", "text").lower()
            if kind in ("radio", "checkbox"):
                if "checked" in a:
                    self.pairs.append((name, a.get("value", "on")))
            elif kind not in ("file", "submit", "button", "reset", "image"):
                self.pairs.append((name, a.get("value", "")))
        elif tag == "select" and name and "disabled" not in a:
            self._select = (name, [], [])
        elif tag == "option" and self._select is not None:
            self._option = a.get("value")
            if self._option is not None:
                self._select[2].append(self._option)
                if "selected" in a:
                    self._select[1].append(self._option)
        elif tag == "textarea" and name and "disabled" not in a:
            self._textarea = (name, [])

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self.state != "inside":
            return
        if tag == "form":
            self.state = "done"
        elif tag == "select" and self._select is not None:
            name, selected, every = self._select
            for value in selected or every[:1]:
                self.pairs.append((name, value))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.pairs.append((self._textarea[0], "".join(self._textarea[1]).removeprefix("\n")))
            self._textarea = None


def form_fields(page: str, action: str | None = None) -> Fields:
    """What the first ``<form method="post">`` of ``page`` (with an ``action`` ending with
    ``action``, when given) sends as it stands: every hidden input (``csrf_token``,
    ``nonce``, ``seen``, ``version`` …), filled-in field and checked button, name → value
    (a list where a name repeats). Fails when there is no such form."""
    reader = _FormReader(action)
    reader.feed(page)
    reader.close()
    assert reader.state != "before", "the page has no <form method=\"post\">"
    fields: Fields = {}
    for name, value in reader.pairs:
        if name in fields:
            old = fields[name]
            fields[name] = [*old, value] if isinstance(old, list) else [old, value]
        else:
            fields[name] = value
    return fields


# --------------------------------------------------------------------------- phones


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Hand the redirect itself back: the 302 is the acknowledgement under test."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Phone:
    """One phone at the table: its own cookie jar (its own session and CSRF token), every
    request bounded by :data:`TIMEOUT`, redirects not followed. Safe to use from several
    threads at once (a double tap): the cookie jar locks itself."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.cookies = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirects())

    def request(self, method: str, path: str, body: bytes | None = None,
                content_type: str | None = None) -> Reply:
        request = urllib.request.Request(self.base_url + path, data=body, method=method)
        if content_type:
            request.add_header("Content-Type", content_type)
        try:
            response = self._opener.open(request, timeout=TIMEOUT)
        except urllib.error.HTTPError as error:  # every status but 2xx, redirects included
            response = error
        try:
            return Reply(response.status, response.headers, response.read().decode("utf-8", "replace"))
        finally:
            response.close()

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post(self, path: str, fields: Mapping[str, Any]) -> Reply:
        """POST ``fields`` form-encoded (a list value sends the name once per item)."""
        body = urllib.parse.urlencode(_strings(fields), doseq=True).encode()
        return self.request("POST", path, body, "application/x-www-form-urlencoded")

    def post_file(self, path: str, fields: Mapping[str, Any], name: str, filename: str,
                  content: bytes, content_type: str = "application/json") -> Reply:
        """POST ``fields`` and one file (input ``name``) as multipart/form-data."""
        body, kind = multipart(fields, name, filename, content, content_type)
        return self.request("POST", path, body, kind)

    def form(self, path: str, action: str | None = None) -> Fields:
        """GET ``path`` (expecting 200) and read its first POST form, or its first posting
        to ``action`` (:func:`form_fields`)."""
        page = self.get(path)
        assert page.status == 200, f"GET {path}: {page!r}\n{page.body[:2000]}"
        return form_fields(page.body, action)


def _strings(fields: Mapping[str, Any]) -> dict[str, str | list[str]]:
    return {k: [str(x) for x in v] if isinstance(v, list | tuple) else str(v)
            for k, v in fields.items() if v is not None}


def multipart(fields: Mapping[str, Any], name: str, filename: str, content: bytes,
              content_type: str) -> tuple[bytes, str]:
    """A multipart/form-data body with ``fields`` and one file; returns (body, Content-Type)."""
    boundary = "race" + secrets.token_hex(12)
    parts: list[bytes] = []
    for key, value in _strings(fields).items():
        for item in value if isinstance(value, list) else [value]:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n'
                         f"{item}\r\n".encode())
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                 f"Content-Type: {content_type}\r\n\r\n".encode() + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


# --------------------------------------------------------------------------- the server


@dataclass(frozen=True)
class RaceServer:
    """The app being raced: ``url`` (``http://127.0.0.1:PORT``) and its ``database``."""

    url: str
    database: Path

    def phone(self, join: bool = True) -> Phone:
        """A new phone that has opened the group's link (the only group; ``join=False``:
        no link, no cookies)."""
        phone = Phone(self.url)
        if join:
            with self.db() as db:
                token = groups.only_group(db).token
            assert phone.get(f"/g/{token}").status == 302
        return phone

    @contextmanager
    def db(self) -> Iterator[sqlite_utils.Database]:
        """A connection of the test's own (not the server's), closed afterwards."""
        database = connect(str(self.database))
        try:
            yield database
        finally:
            database.conn.close()

    def store_game(self, **kwargs: Any) -> str:
        """Store a game (keyword arguments as for conftest.game_file); returns its id."""
        with self.db() as db:
            return store.create_game(db, from_dict(game_file(**kwargs)))

    def game(self, game_id: str) -> records.StoredGame:
        with self.db() as db:
            return store.get_game(db, game_id)


@contextmanager
def serve(database: Path, config: Mapping[str, Any] | None = None) -> Iterator[RaceServer]:
    """The app with CSRF on, served by waitress (8 threads) on a free port of 127.0.0.1
    from a daemon thread; closed afterwards. ``config``: more of the app's settings."""
    import waitress
    from waitress import wasyncore

    from scorekeeper import create_app

    app = create_app({"SECRET_KEY": "race-tests-" + "k" * 32, "DATABASE": str(database), **(config or {})})
    # The loop's select() waits up to a second (waitress's default asyncore_loop_timeout, a
    # whole number of seconds: 0.05 was read as 0, and the loop spun a core for the life of
    # every race server, 33 s of CPU in one burst test); the loop is woken to close below
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=8)
    closing = threading.Event()

    def run() -> None:
        try:
            server.run()
        except (OSError, ValueError):
            # close() from the test's thread pulls the sockets from under the loop's
            # select(): expected then, a real failure any other time
            if not closing.is_set():
                raise

    thread = threading.Thread(target=run, name="waitress", daemon=True)
    thread.start()
    try:
        yield RaceServer(f"http://127.0.0.1:{server.effective_port}", database)
    finally:
        closing.set()
        # Let the worker threads finish what they are sending first: a task still running
        # after close() writes to the closed trigger (EBADF in waitress's log).
        server.task_dispatcher.shutdown(timeout=5)
        # Every socket in the server's map, not the listening one alone (server.close()):
        # a connection a client left open would otherwise keep the loop polling past the
        # join and be left to the garbage collector, whose ResourceWarning fails whichever
        # test runs then (filterwarnings = error). Closed by the loop's own thread, woken
        # by its trigger, so that the loop ends at once instead of at its select()'s second
        # (EBADF: the loop had ended and closed its trigger, nothing to wake; its sockets are
        # closed from here below. Seen once in a full run, at a race test's teardown)
        with suppress(OSError):
            server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        thread.join(timeout=5)
        if server._map:  # the loop had ended on an error: closed from here
            wasyncore.close_all(server._map)


# --------------------------------------------------------------------------- at once


def at_once(*callables: Callable[[], Any]) -> list[Any]:
    """Run the callables in threads released together by a barrier; returns their results
    in order. An exception in a thread is raised here; a thread still running after
    :data:`TIMEOUT` seconds fails the test."""
    barrier = threading.Barrier(len(callables), timeout=TIMEOUT)
    results: list[Any] = [None] * len(callables)
    errors: list[BaseException | None] = [None] * len(callables)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except BaseException as error:  # handed to the test's thread below
            errors[i] = error

    threads = [threading.Thread(target=run, args=(i, c), name=f"phone-{i}", daemon=True)
               for i, c in enumerate(callables)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT * 2)
    stuck = [t.name for t in threads if t.is_alive()]
    if stuck:
        raise AssertionError(f"still waiting for {stuck} after {TIMEOUT * 2} s")
    for error in errors:
        if error is not None:
            raise error
    return results


# --------------------------------------------------------------------------- deals as forms


def canonical(kind: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    """A deal entry as the game file writes it (defaults filled, keys in order), so an
    entry written by hand compares equal to the one the server stored."""
    rules = get_rules(kind)
    return rules.dump_deal(rules.parse_deal(dict(entry), 1, tuple(game_file(kind)["players"])))


_DEAL_FIELDS = {
    "trigami": ("bids_", "doublets_", "tricks_", "bugs_", "turnip", "last_trick"),
    "trix": ("contracts", "king_", "queens_", "diamonds_", "tricks_", "trix_place_"),
}
_DEAL_FIELDS["bugami3"] = _DEAL_FIELDS["trigami"]


def deal_fields(kind: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The deal form's fields (scorekeeper/forms/deals.py) for a game-file deal ``entry``, as a
    player taps them in: Trigami ``bids_i`` / ``doublets_i`` / ``tricks_i`` / ``bugs_i`` /
    ``turnip`` / ``last_trick``; Trix ``contracts`` and its blocks (``king_taker``,
    ``queens_S_doubled_by``, ``diamonds_i``, ``trix_place_1`` …)."""
    out: dict[str, Any] = {}
    if kind in ("trigami", "bugami3"):
        for seat, bid in enumerate(entry["bids"]):
            out[f"bids_{seat}"] = "turnip" if bid["kind"] == "turnip" else bid["suit"]
            if bid["kind"] == "doublets":
                out[f"doublets_{seat}"] = "y"
            out[f"tricks_{seat}"] = entry["tricks"][seat]
            out[f"bugs_{seat}"] = entry["bugs"][seat]
        if entry.get("turnip"):
            out["turnip"] = entry["turnip"]
        if entry.get("last_trick") is not None:
            out["last_trick"] = entry["last_trick"]
        return out
    contracts = list(entry["contracts"])
    out["contracts"] = contracts if len(contracts) > 1 else contracts[0]
    cards = [("king", entry.get("king"))] + [(f"queens_{s}", c) for s, c in (entry.get("queens") or {}).items()]
    for prefix, card in cards:
        if card:
            for key in ("taker", "doubled_by", "leader"):
                if card.get(key) is not None:
                    out[f"{prefix}_{key}"] = card[key]
    for name in ("diamonds", "tricks"):
        for seat, count in enumerate(entry.get(name) or []):
            out[f"{name}_{seat}"] = count
    for place, seat in enumerate(entry.get("trix") or [], 1):
        out[f"trix_place_{place}"] = seat
    return out


def with_deal(form: Mapping[str, Any], kind: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The form as a page gave it (tokens: ``csrf_token``, ``nonce``, ``seen``, ``version``
    …) with its deal fields replaced by ``entry``'s: what a phone sends after tapping it in."""
    kept = {k: v for k, v in form.items() if not k.startswith(_DEAL_FIELDS[kind])}
    return {**kept, **deal_fields(kind, entry)}


# --------------------------------------------------------------------------- invariants


def assert_no_server_error(replies: Sequence[Reply], what: str = "") -> None:
    """No response is a 5xx."""
    broken = [r for r in replies if r.status >= 500]
    assert not broken, f"{what}server error: {statuses(replies)}\n{broken[0].body[:3000]}"


def assert_every_game_scores(db: sqlite_utils.Database) -> None:
    """Every stored game scores by the rules (no RuleError): no race left a game the rules
    refuse, such as a contract twice in a kingdom or a deal after the end."""
    for game in store.list_games(db):
        try:
            game.game_file().score()
        except RuleError as error:
            raise AssertionError(f"game {game.id} no longer scores: {error}\n"
                                 f"deals: {json.dumps([d.entry for d in game.deals])}") from None


def in_play(db: sqlite_utils.Database, game_id: str) -> list[dict[str, Any]]:
    """The game's deal entries in play, in order."""
    return [d.entry for d in store.get_game(db, game_id).deals]


def assert_nothing_stored_twice(db: sqlite_utils.Database) -> None:
    """No two in-play deals of a game came from the same submission (form token), and no
    two games from the same new-game or import form."""
    for table in ("deals", "games"):
        columns = db[table].columns_dict
        if "nonce" not in columns:
            continue
        in_play_only = "and deleted_at is null" if "deleted_at" in columns else ""
        group = "game_id, nonce" if table == "deals" else "nonce"
        twice = list(db.query(f"select {group}, count(*) as n from {table} where nonce is not null "
                              f"{in_play_only} group by {group} having n > 1"))
        assert not twice, f"stored twice from one submission ({table}): {twice}"


def assert_acknowledged_present(db: sqlite_utils.Database, game_id: str, kind: str,
                                sent: Sequence[tuple[Reply, Mapping[str, Any]]]) -> None:
    """Every deal whose save was acknowledged (a redirect to the game's sheet) is in play."""
    stored = [canonical(kind, e) for e in in_play(db, game_id)]
    for reply, entry in sent:
        if reply.redirects_to(f"/games/{game_id}"):
            assert canonical(kind, entry) in stored, (
                f"a save answered {reply!r} is missing: {json.dumps(entry)}\nstored: {json.dumps(stored)}")


def changes(db: sqlite_utils.Database, game_id: str, action: str,
            deal_id: int | None = None) -> list[records.Change]:
    """The game's recorded changes of one action (of one deal if given), oldest first."""
    return [c for c in reversed(store.changes(db, game_id))
            if c.action == action and (deal_id is None or c.deal_id == deal_id)]


def assert_race_invariants(server: RaceServer, replies: Sequence[Reply], what: str = "") -> None:
    """What every race must leave: no 5xx, every game scores, nothing stored twice."""
    assert_no_server_error(replies, what)
    with server.db() as db:
        assert_every_game_scores(db)
        assert_nothing_stored_twice(db)

