"""Every POST over the size limit answers 413 (issue 16, part 6): on every POST route of
``app.url_map`` (a route added later is tried too), sent form-encoded and as
multipart/form-data, the answer is the app's 413 page (the upload's own form for a game
file), and nothing is written. "Start a game" sent without a kind once answered 400: its
view answered before reading the body."""

from __future__ import annotations

import http.client
import urllib.parse

import pytest
from flask import url_for

from scorekeeper import create_app

from .conftest import WORKED_TRIGAMI_DEAL
from .race_support import multipart
from .test_gamefile import TRIX_KINGDOM
from .test_no_input_breaks_it import _snapshot
from .test_web import text

#: Over the default MAX_CONTENT_LENGTH (1 MB)
OVERSIZE = 2 * 1024 * 1024


@pytest.fixture
def production(tmp_path):
    """The app as served (CSRF on, limits off so every route is reached), a joined phone,
    a game of each kind with deals, and one URL per POST route."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "big.sqlite3"),
                      "RATELIMIT_ENABLED": False})
    client = app.test_client()
    from scorekeeper import store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict

    from .conftest import game_file

    db = connect(app.config["DATABASE"])
    try:
        trigami = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
        store.create_game(db, from_dict(game_file(kind="trix", deals=TRIX_KINGDOM[:1])))
        deal = db.execute("select id from deals order by id").fetchone()[0]
        player = db.execute("select id from players order by id").fetchone()[0]
    finally:
        db.conn.close()
    values = {"game_id": trigami, "deal_id": deal, "player_id": player, "number": 1, "token": "x", "change_id": 1,
              "night_id": 1}
    urls = []
    for rule in app.url_map.iter_rules():
        if "POST" in (rule.methods or ()):
            with app.test_request_context():
                urls.append(url_for(rule.endpoint, **{name: values.get(name, "x") for name in rule.arguments}))
    return app, client, sorted(set(urls))


def test_the_routes_tried_are_every_post_route(production):
    _app, _client, urls = production
    assert len(urls) >= 12  # deals, games, imports, groups, passcode…
    assert "/games/new" in urls and "/groups/new" in urls and "/games/import" in urls


@pytest.mark.parametrize("how", ["urlencoded", "multipart", "a file"])
def test_every_post_over_the_size_limit_answers_413_and_writes_nothing(production, how):
    app, client, urls = production
    before = _snapshot(app.config["DATABASE"])
    for url in urls:
        big = "y" * OVERSIZE
        if how == "urlencoded":
            response = client.post(url, data={"player_0": "Anna", "x": big})
        else:  # encoded here: the test client's own encoder leaves a temporary file open
            fields = {"player_0": "Anna", "x": big} if how == "multipart" else {"player_0": "Anna"}
            body, kind = multipart(fields, "file", "g.json", b"{}" if how == "multipart" else big.encode(),
                                   "application/json")
            response = client.post(url, data=body, content_type=kind)
        page = text(response)
        response.close()
        assert response.status_code == 413, f"POST {url} ({how}): {response.status_code} {page[:300]}"
        if url.startswith("/games/import"):  # its own form, saying how large a game file may be
            assert "That file is too large: a game file is at most 512 KB" in page
        else:
            assert "That is more than this server takes in one request. Nothing was changed." in page
        assert _snapshot(app.config["DATABASE"]) == before, f"POST {url} ({how}) wrote"


def test_a_new_game_sent_without_a_kind_and_over_the_limit_is_413_not_400(production):
    _app, client, _urls = production
    response = client.post("/games/new", data={"x": "y" * (10 * 1024 * 1024)})
    assert response.status_code == 413


def test_a_body_sent_in_chunks_over_the_limit_answers_413_from_the_real_server(race_server):
    """Without a Content-Length (chunked), as read: through waitress, as served."""
    phone = race_server.phone()
    cookie = "; ".join(f"{c.name}={c.value}" for c in phone.cookies)
    host, port = urllib.parse.urlsplit(race_server.url).netloc.split(":")
    body = urllib.parse.urlencode({"x": "y" * OVERSIZE}).encode()
    for path in ("/games/new", "/games/new?kind=trigami", "/groups/new"):
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        try:
            connection.putrequest("POST", path)
            connection.putheader("Content-Type", "application/x-www-form-urlencoded")
            connection.putheader("Cookie", cookie)
            connection.putheader("Transfer-Encoding", "chunked")
            connection.endheaders()
            for start in range(0, len(body), 65536):
                chunk = body[start:start + 65536]
                connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            connection.send(b"0\r\n\r\n")
            response = connection.getresponse()
            page = response.read().decode()
        finally:
            connection.close()
        assert response.status == 413, f"POST {path}: {response.status}"
        assert "more than this server takes in one request" in page
    with race_server.db() as db:
        assert db["games"].count == 0
