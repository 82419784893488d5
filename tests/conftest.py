"""Fixtures: an app on a temporary database, its test client and CLI runner, factories."""

from __future__ import annotations

import functools
import inspect
import os
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import settings
from jinja2 import BytecodeCache
from werkzeug.routing import Rule
from werkzeug.security import generate_password_hash

from scorekeeper import create_app, groups, store
from scorekeeper.app import _Scorekeeper
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.database_support import close_lock_files, new_database

# No per-example deadline (CI machines are slower and busier than ours); in CI the examples
# are derandomized, so a submission's result does not depend on luck.
settings.register_profile("scorekeeper", deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("scorekeeper")


class JoiningClient(FlaskClient):
    """A test client that has opened the group's link, like a phone at the table: the only
    group (made on a database without one), or the first. ``join=False``: a phone with
    no link at all; ``join=TOKEN``: one that opened that link."""

    def __init__(self, *args: Any, join: bool | str = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if join is True:
            database = connect(self.application.config["DATABASE"])
            try:
                group = groups.only_group(database) or groups.all_groups(database)[0]
            finally:
                database.conn.close()
            join = group.token or ""
        self.group_token = join or None
        self._joined: set[str] = set()
        if join:
            answer = self.get(f"/g/{join}")
            assert answer.status_code == 302, f"joining the group: {answer.status_code}"

    def open(self, *args: Any, **kwargs: Any) -> Any:
        # The cookie belongs to the address the link was opened on: a request on another
        # address (base_url=…) opens the link there first, as a phone would
        base_url = kwargs.get("base_url")
        if self.group_token and base_url and base_url not in self._joined:
            self._joined.add(base_url)
            super().open(f"/g/{self.group_token}", base_url=base_url)
        return super().open(*args, **kwargs)


# Every app made in the tests hands out clients that have joined its group
_Scorekeeper.test_client_class = JoiningClient


class SessionTemplates(BytecodeCache):
    """The templates compiled once for the whole test session (in each xdist worker),
    not once for each of the thousands of apps the tests make. Jinja keys each template's
    code by its name and a checksum of its source, so a template edited between two
    sessions is compiled anew."""

    def __init__(self) -> None:
        self._compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Any) -> None:
        code = self._compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Any) -> None:
        self._compiled[bucket.key] = bucket.bytecode_to_string()


_Scorekeeper.jinja_options = {**_Scorekeeper.jinja_options, "bytecode_cache": SessionTemplates()}


def _builders_made_once() -> None:
    """Each URL rule's builder made once for the test session (in each xdist worker), not
    once for each of the thousand apps the tests make: Werkzeug writes every rule's
    builder as Python source and compiles it whenever an app is made, a seventh of the
    quick suite's time (measured with cProfile). The builder is a plain function of the
    rule (its parts, its defaults, its name) that takes the rule itself as an argument,
    so one made for an equal rule of another app is the same function. Left as it is if
    Werkzeug's (private) method is not the one this knows."""
    made: dict[Any, Any] = {}
    making = getattr(Rule, "_compile_builder", None)
    if making is None or list(inspect.signature(making).parameters) != ["self", "append_unknown"]:
        return

    def compile_builder(self: Rule, append_unknown: bool = True) -> Any:
        key = (self.rule, tuple(self._trace), tuple(sorted((self.defaults or {}).items(), key=repr)),
               tuple((name, type(c)) for name, c in self._converters.items()),
               append_unknown)
        if key not in made:
            made[key] = making(self, append_unknown)
        return made[key]

    Rule._compile_builder = compile_builder  # type: ignore[method-assign]


_builders_made_once()


def _rules_parsed_once() -> None:
    """Each URL rule's text parsed once for the test session (in each xdist worker), not
    once for each app the tests make: an app was made in 7.7 ms of CPU, now in 5.7 (about
    2,000 apps a run: some 4 s of CPU over the suite). The parse
    yields the rule's parts and, along the way, notes on the rule its trace, arguments
    and converters; a rule of another app with the same text and the same converters
    gets the same parts and the same notes (its converters made anew for its own map).
    Left as it is if Werkzeug's (private) method is not the one this knows."""
    parsing = getattr(Rule, "_parse_rule", None)
    if parsing is None or list(inspect.signature(parsing).parameters) != ["self", "rule"]:
        return
    parsed: dict[Any, Any] = {}

    def parse_rule(self: Rule, rule: str) -> Any:
        assert self.map is not None
        key = (rule, tuple((name, converter) for name, converter in self.map.converters.items()))
        if key not in parsed:
            made: list[tuple[str, str, tuple[Any, ...], dict[str, Any]]] = []
            getting = self.get_converter

            def get_converter(variable: str, name: str, args: tuple[Any, ...], kwargs: Any) -> Any:
                made.append((variable, name, args, dict(kwargs)))
                return getting(variable, name, args, kwargs)

            traced = len(self._trace)
            self.get_converter = get_converter  # type: ignore[method-assign,assignment]
            try:
                parts = list(parsing(self, rule))
            finally:
                del self.get_converter
            parsed[key] = (parts, self._trace[traced:], made)
            return parts
        parts, trace, made = parsed[key]
        self._trace.extend(trace)
        for variable, name, args, kwargs in made:
            self._converters[variable] = self.get_converter(variable, name, args, kwargs)
            self.arguments.add(variable)
        return list(parts)

    Rule._parse_rule = parse_rule  # type: ignore[method-assign]


_rules_parsed_once()

# Passcodes hashed as the app does (Werkzeug's scrypt, checked by check_password_hash from
# the parameters the hash carries) at 1/32 of its work: the tests count wrong guesses and
# judge bursts of them, and each guess checks a hash (0.2 s of CPU at the full work, a
# fifteenth of the quick suite's time); tests/test_groups.py checks the app's own hash
groups.generate_password_hash = functools.partial(generate_password_hash, method="scrypt:1024:8:1")


@pytest.fixture
def app(tmp_path):
    return create_app({
        "TESTING": True,
        "SECRET_KEY": "test",
        "DATABASE": new_database(tmp_path / "test.sqlite3"),
        "WTF_CSRF_ENABLED": False,
    })


@pytest.fixture
def csrf_app(tmp_path):
    """An app with CSRF protection on, as in production."""
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": new_database(tmp_path / "csrf.sqlite3")})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def db(app):
    database = connect(app.config["DATABASE"])
    yield database
    database.conn.close()


@pytest.fixture(scope="session")
def browser():
    """The system's Chromium, one for the session (in each xdist worker): every test opens
    its own context in it (tests/browser_support.py; skips without Chromium, except in
    CI)."""
    from tests.browser_support import launch

    with launch() as chromium:
        yield chromium


@pytest.fixture
def race_server(tmp_path):
    """The real server (waitress, CSRF on) on a temporary database, for the race tests
    (tests/race_support.py); ``race_server.url`` is its base URL."""
    from tests.race_support import serve

    with serve(tmp_path / "race.sqlite3") as server:
        yield server


@pytest.fixture
def page(browser):
    """A 390×844 phone page in a fresh browser context."""
    from tests.browser_support import new_page

    page = new_page(browser)
    yield page
    page.context.close()


def game_file(kind: str = "trigami", players: list[str] | None = None, first_dealer: int = 0,
              options: dict[str, Any] | None = None, deals: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A game file dict (GAME-FILE.md) with sensible defaults."""
    if players is None:
        players = ["Anna", "Ben", "Carla", "Dan"] if kind == "trix" else ["Anna", "Ben", "Carla"]
    return {"format": 1, "game": kind, "players": players, "first_dealer": first_dealer,
            "options": options or {}, "deals": deals or []}


@pytest.fixture
def make_game(db) -> Callable[..., str]:
    """Store a game (keyword arguments as for game_file) and return its id."""

    def make(**kwargs: Any) -> str:
        return store.create_game(db, from_dict(game_file(**kwargs)))

    return make


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html) or re.search(
        r'value="([^"]+)"[^>]*name="csrf_token"', html)
    assert match, "no CSRF token in the page"
    return match.group(1)


# The worked example of SCORING.md §1.2 / rules/trigami.en.txt, Scoring
WORKED_TRIGAMI_DEAL = {
    "turnip": "D",
    "bids": [{"kind": "turnip"}, {"kind": "doublets", "suit": "S"}, {"kind": "plain", "suit": "H"}],
    "tricks": [4, 5, 4],
    "bugs": [1, 0, 3],
}


@pytest.fixture(autouse=True)
def _lock_files_closed(request):
    """After a test with a folder of its own, the write lock files the store opened for
    the databases in it are closed. The store keeps a database's lock file open for the
    process's life (one database a server); a process running the whole suite
    (``make test JOBS=0``) made one a test and ran out of the descriptors waitress can
    watch (``select()`` takes none above 1024): "filedescriptor out of range"."""
    folder = request.getfixturevalue("tmp_path") if "tmp_path" in request.fixturenames else None
    yield
    if folder is not None:
        close_lock_files(folder)


@pytest.fixture(autouse=True)
def _phone_handed_back(request):
    """After a browser test, a kept phone it left open (a page closed instead of its
    context) is closed, so no test's phone depends on which tests ran before it in its
    xdist worker (CI's run, stop 32: tests/test_phones_browser.py got a new phone)."""
    yield
    if request.node.get_closest_marker("browser"):
        from tests.browser_support import hand_back_left_phone

        hand_back_left_phone()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser test modules spread evenly over the first nine tenths of the run,
    between the other tests, each module's tests together and in their order; the last
    tenth tests without a browser only. ``make test`` hands its workers the tests in this
    order: a browser test waits on its pages' timers and round trips, and the quick tests
    fill the cores meanwhile (with the browser tests all first, the cores stood idle a
    tenth of their time); the run ends on short tests, so the workers end together (in
    alphabetical order, the long browser tests of the end of the alphabet kept one or two
    workers busy while the cores idled, the last 10 to 20 s). A module's tests stay
    together so that its module-scoped fixtures (an app served with its games) are made
    once a worker, not again after every test of another module."""
    browser = [item for item in items if item.get_closest_marker("browser")]
    others = [item for item in items if not item.get_closest_marker("browser")]
    module_at: dict[str, int] = {}
    for n, item in enumerate(browser):
        module_at.setdefault(item.nodeid.partition("::")[0], n)
    place = {id(item): 0.9 * module_at[item.nodeid.partition("::")[0]] / len(browser) for item in browser}
    place.update({id(item): n / len(others) for n, item in enumerate(others)})
    items.sort(key=lambda item: place[id(item)])  # stable: a module's tests keep their order
