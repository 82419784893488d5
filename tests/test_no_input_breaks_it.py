"""No input breaks it (issue 9, part 3): arbitrary text in every form field and query
parameter of every route, in path segments, headers and uploaded game files, never gives a
server error, and a refused request writes nothing.

The routes come from ``app.url_map`` and the field names from the pages themselves (every
``<form>`` and every link's query on the pages of a game of each kind) and from the
package's own ``request.args.get("…")`` / ``request.form.get("…")``, so a route or a field
added later is fed too, without changing this test.
"""

from __future__ import annotations

import json
import re
import sqlite3
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote_from_bytes, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scorekeeper

from .conftest import WORKED_TRIGAMI_DEAL
from .test_gamefile import TRIX_KINGDOM

# ------------------------------------------------------------------------------- nasty text

#: Text that has broken pages before, or could: numbers longer than Python converts (4,300
#: digits) or than SQLite stores, digits of other scripts, lone surrogates, invisible,
#: combining, control and bidi characters, full-width letters, nothing at all, the first
#: and last days of the calendar, time zones.
NASTY = [
    "", " ", "0", "-1", "1.5", "1e9", "0x1f", "NaN", "inf", "٣", "𝟙", "¹", "Ⅻ", "+7",
    "9" * 19, "9" * 40, "9" * 4301, "9" * 20_000, "-" + "9" * 5000, "0" * 5000 + "1",
    "\u200b", "Ann\u200b", "\ufeff", "\u00ad", "\u2060", "Ａｎｎ", "A\u0301", "\u0301",
    "\udcff", "Ann\udcff", "\ud800", "\x00", "\x1b[31m", "\r\n", "\u202e", "\u2066",
    "Ann", "ANN", "trigami", "trix", "random", "on", "y", "1", "2", "3", "4", "13", "S", "H",
    "<script>alert(1)</script>", "' or 1=1 --", "../../etc/passwd", "%00", "a" * 10_000,
    # the calendar's ends, and time zones far east and west and not zones at all
    "9999-12-31", "0001-01-01", "Pacific/Kiritimati", "Etc/GMT+12", "America",
]

_CHARS = st.characters(categories=["Cs", "Cf", "Cc", "Mn", "Me", "Zs", "Zl", "Nd", "No", "Lu", "Ll", "So", "Co"])

text_values = st.one_of(
    st.sampled_from(NASTY),
    st.text(_CHARS, max_size=12),
    st.text(max_size=12),
    st.integers().map(str),
    st.integers(min_value=2**63 - 2, max_value=2**200).map(str),
    st.integers(min_value=4000, max_value=9000).map(lambda n: "7" * n),
    st.tuples(st.sampled_from(["Ann", "Ben", "1"]), st.text(_CHARS, max_size=3)).map("".join),
)


def to_bytes(text: str) -> bytes:
    """What a misbehaving client may send: UTF-8, lone surrogates as the bytes that encode
    them (invalid UTF-8)."""
    return text.encode("utf-8", "surrogatepass")


def urlencoded(pairs: list[tuple[str, str]]) -> str:
    return "&".join(f"{quote_from_bytes(to_bytes(k))}={quote_from_bytes(to_bytes(v))}" for k, v in pairs)


# ------------------------------------------------------------------------------- the pages


class _Forms(HTMLParser):
    """Every form of a page (method, action, field name → the values it offers) and the
    query of every link."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"method": (a.get("method") or "get").upper(), "action": a.get("action") or "",
                               "fields": {}, "defaults": []})
        elif tag in ("input", "select", "textarea", "button") and a.get("name") and self.forms:
            form = self.forms[-1]
            name, value = a["name"], a.get("value") or ""
            form["fields"].setdefault(name, set()).add(value)
            kind = (a.get("type") or "").lower()
            if tag == "input" and (kind not in ("radio", "checkbox", "submit", "file") or "checked" in a):
                form["defaults"].append((name, value))
        elif tag == "option" and self.forms and self.forms[-1]["fields"]:
            last = list(self.forms[-1]["fields"])[-1]
            self.forms[-1]["fields"][last].add(a.get("value") or "")
        elif tag == "a" and a.get("href") and "?" in (a.get("href") or ""):
            self.links.append(a["href"])


def _read(html: str) -> _Forms:
    reader = _Forms()
    reader.feed(html)
    return reader


def _names_in_code() -> set[str]:
    """Query and form names the package reads itself (``request.args.get("seat")``…)."""
    names: set[str] = set()
    for path in Path(scorekeeper.__file__).parent.rglob("*.py"):
        source = path.read_text()
        names.update(re.findall(r"""(?:args|form|formdata)\.get(?:list)?\(\s*["'](\w+)["']""", source))
        names.update(re.findall(r"""_(?:seat|deal)_arg\(\s*["'](\w+)["']""", source))
    return names


def _snapshot(path: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table: a refused request must leave them all as they were. All
    but the wrong tries counted (passcode_attempts): a wrong table card's address is
    refused and counted on purpose (docs/club-nights.md, "Table cards"), as a wrong
    passcode is."""
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute(
            "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' "
            "and name != 'passcode_attempts'")]
        return {t: sorted(conn.execute(f'select * from "{t}"').fetchall(), key=repr) for t in tables}
    finally:
        conn.close()


@pytest.fixture
def site(app, client, make_game, db):
    """A game of each kind with a few deals, and what the test feeds: for each route and
    method, the URL(s) to request and the field names (with the values the pages offer)."""
    app.config["RATELIMIT_ENABLED"] = False  # every example reaches its view (limits: test_safe_by_default)
    trigami = make_game(deals=[WORKED_TRIGAMI_DEAL, WORKED_TRIGAMI_DEAL])
    trix = make_game(kind="trix", deals=TRIX_KINGDOM[:2])
    from scorekeeper import groups, night_actions

    night = night_actions.start_night(db, (groups.only_group(db) or groups.all_groups(db)[0]).id, kind="trigami",
                                      options={"target": 500}, players=["Nina", "Omar", "Pia"], rounds=2,
                                      ranking="placings", seating="random", seed=1)
    deal_ids = [r[0] for r in db.execute("select id from deals order by id")]
    player_ids = [r[0] for r in db.execute("select id from players order by id")]
    values = {"game_id": [trigami, trix], "deal_id": deal_ids, "number": [1, 2],
              "player_id": player_ids, "filename": ["app.css", "app.js"], "change_id": [1],
              "night_id": [getattr(night, "night_id", 1)]}

    routes: list[tuple[str, str, list[str]]] = []  # (method, rule, urls)
    for rule in app.url_map.iter_rules():
        urls = []
        for game_id in values["game_id"]:
            args = {name: values.get(name, ["x"])[0] for name in rule.arguments}
            if "game_id" in rule.arguments:
                args["game_id"] = game_id
            with app.test_request_context():
                from flask import url_for

                urls.append(url_for(rule.endpoint, **args))
        for method in sorted((rule.methods or set()) & {"GET", "POST"}):
            routes.append((method, rule.rule, sorted(set(urls))))

    # What the pages offer: their forms (fields and the values they offer; a form's own
    # address may carry a query, like /games/new?kind=trix) and their links' queries;
    # pages reached by those links are read too, one step deep.
    fields: dict[tuple[str, str], dict[str, set[str]]] = {}  # (method, address) → name → values
    defaults: dict[tuple[str, str], list[tuple[str, str]]] = {}
    query_names = _names_in_code()
    seen: set[str] = set()

    def read(url: str, follow: bool) -> None:
        if url in seen or len(seen) > 150:
            return
        seen.add(url)
        page = client.get(url)
        html = page.get_data(as_text=True) if page.content_type.startswith("text/html") else ""
        page.close()
        reader = _read(html)
        for form in reader.forms:
            action = form["action"] or url
            target = (form["method"], action if form["method"] == "POST" else urlsplit(action).path)
            for name, offered in form["fields"].items():
                fields.setdefault(target, {}).setdefault(name, set()).update(offered)
            defaults.setdefault(target, form["defaults"])
        for link in reader.links:
            parts = urlsplit(link)
            if parts.netloc or not parts.path.startswith("/"):
                continue
            for name, value in parse_qsl(parts.query, keep_blank_values=True):
                query_names.add(name)
                fields.setdefault(("GET", parts.path), {}).setdefault(name, set()).add(value)
            if follow:
                read(link, False)

    for method, _rule, urls in routes:
        if method == "GET":
            for url in urls:
                read(url, True)
    targets = sorted({(method, url) for method, _rule, urls in routes for url in urls} | set(fields))
    return {"targets": targets, "fields": fields, "defaults": defaults, "query_names": sorted(query_names)}


@pytest.mark.slow  # a thousand or hundreds of generated inputs (make test-fast leaves it out)
@settings(max_examples=1000, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_value_in_any_field_or_query_breaks_a_page_or_writes(app, client, site, data):
    method, url = data.draw(st.sampled_from(site["targets"]), label="target")
    parts = urlsplit(url)
    path = parts.path
    if data.draw(st.booleans(), label="fuzz a path segment"):
        segments = path.split("/")
        at = data.draw(st.integers(1, len(segments) - 1))
        segments[at] = quote_from_bytes(to_bytes(data.draw(text_values)), safe="")
        path = "/".join(segments)
    known = site["fields"].get((method, url), {})
    names = sorted(set(known) | set(site["query_names"]))
    # Start from what the page itself would send, then put nasty text in some fields
    pairs = list(site["defaults"].get((method, url), [])) if data.draw(st.booleans()) else []
    for name in data.draw(st.lists(st.sampled_from(names), max_size=6), label="fields"):
        offered = sorted(known.get(name, set()))
        value = data.draw(st.one_of(text_values, st.sampled_from(offered)) if offered else text_values)
        pairs = [p for p in pairs if p[0] != name or data.draw(st.booleans())] + [(name, value)]
    headers = {}
    if data.draw(st.booleans(), label="fuzz headers"):
        header_text = st.text(st.characters(max_codepoint=255, exclude_characters="\r\n"), max_size=40)
        headers = data.draw(st.dictionaries(
            st.sampled_from(["Accept-Language", "Accept-Encoding", "If-None-Match", "Cookie", "Referer",
                             "X-Forwarded-For", "X-Forwarded-Proto", "Range", "Content-Type"]),
            st.one_of(header_text, st.sampled_from(["9" * 5000, "*;q=" + "9" * 5000, "x-" + "9" * 40]))))

    before = _snapshot(app.config["DATABASE"])
    query = urlencoded(pairs)
    if method == "GET":
        base = parse_qsl(parts.query, keep_blank_values=True)
        response = client.get(f"{path}?{urlencoded(base + pairs)}", headers=headers)
    else:
        response = client.post(f"{path}?{parts.query}", data=query.encode(), headers={
            "Content-Type": "application/x-www-form-urlencoded", **headers})
    response.close()
    assert response.status_code < 500, f"{method} {path} {pairs!r:.500}"
    if response.status_code >= 400:
        assert _snapshot(app.config["DATABASE"]) == before, f"{method} {path} {pairs!r:.500} wrote"


# ------------------------------------------------------------------------------- game files

names = st.one_of(st.sampled_from(NASTY), st.sampled_from(["\udcff", "Ann\udcff", "\u200b", "Ａｎｎ", "Ann"]),
                  st.text(_CHARS, max_size=8), st.text(max_size=8))
numbers = st.one_of(st.integers(), st.sampled_from([10**400, -(10**30), 2**63, 1.5, float("inf"), True, None, "3"]))


@st.composite
def game_files(draw: Any) -> bytes:
    """A game file that is right but for one or two nasty names, numbers or shapes, written
    as JSON (a lone surrogate as its \\u escape, as a file can carry it), or plain bytes."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=64))
    kind = draw(st.sampled_from(["trigami", "bugami3", "trix"]))
    data: dict[str, Any] = {
        "format": 1, "game": kind,
        "players": ["Anna", "Ben", "Carla", "Dan"] if kind == "trix" else ["Anna", "Ben", "Carla"],
        "first_dealer": 0, "options": {},
        "deals": [dict(d) for d in TRIX_KINGDOM[:2]] if kind == "trix" else
                 [dict(WORKED_TRIGAMI_DEAL)] if kind == "trigami" else [],
    }
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        where = draw(st.sampled_from(["player", "player", "players", "first_dealer", "format", "game",
                                      "target", "deal", "deals", "many deals"]))
        if where == "player" and data["players"]:
            data["players"][draw(st.integers(0, len(data["players"]) - 1))] = draw(names)
        elif where == "players":
            data["players"] = draw(st.lists(names, max_size=5))
        elif where == "first_dealer":
            data["first_dealer"] = draw(numbers)
        elif where == "format":
            data["format"] = draw(numbers)
        elif where == "game":
            data["game"] = draw(st.one_of(names, numbers))
        elif where == "target":
            data["options"] = {"target": draw(st.one_of(numbers, names))}
        elif where == "deal" and isinstance(data["deals"], list) and data["deals"] \
                and isinstance(data["deals"][0], dict):
            deal = data["deals"][0]
            key = draw(st.sampled_from([*sorted(deal), "last_trick", "turnip"]))
            deal[key] = draw(st.one_of(numbers, names, st.lists(numbers, max_size=4)))
        elif where == "deals":
            data["deals"] = draw(st.one_of(numbers, names, st.lists(numbers, max_size=3)))
        elif where == "many deals" and isinstance(data["deals"], list) and len(data["deals"]) < 10:
            data["deals"] = data["deals"] * draw(st.sampled_from([200, 600]))
    try:
        text = json.dumps(data, ensure_ascii=draw(st.sampled_from([True, True, False])))
    except ValueError:  # inf and nan: JSON has no such numbers, so write them as Python would
        text = json.dumps(data, allow_nan=True)
    if draw(st.integers(0, 9)) == 0:
        text = text.replace('"format": 1,', '"format": 1' + "0" * draw(st.sampled_from([1, 5000])) + ",")
    return text.encode("utf-8", "surrogatepass")


@pytest.mark.slow  # a thousand or hundreds of generated inputs (make test-fast leaves it out)
@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(content=game_files(), filename=st.one_of(st.sampled_from(["game.json", "", "x" * 300]),
                                               st.text(_CHARS, max_size=8).map(lambda t: to_bytes(t).decode("utf-8", "replace"))))
def test_no_uploaded_game_file_breaks_the_import(app, client, content, filename):
    import io

    before = _snapshot(app.config["DATABASE"])
    response = client.post("/games/import", data={"file": (io.BytesIO(content), filename)},
                           content_type="multipart/form-data")
    response.close()
    # the test client spools a body over 500 KB into a temporary file it never closes: a
    # ResourceWarning (an error here) whenever the garbage collector finds it, in any test
    response.request.environ["wsgi.input"].close()
    assert response.status_code < 500, content[:300]
    if response.status_code >= 400:
        assert _snapshot(app.config["DATABASE"]) == before
