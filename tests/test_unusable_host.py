"""A Host header no address can be made of answers 400 with the app's error page, on
every route (issue 16, part 6): a name part (label) over 63 characters, an empty one, a
broken ``xn--`` label, a bracket left open. It used to be a bare server error everywhere
(Flask had no URL adapter, so even the error page failed). Tried in the Flask test client
and against the real server: waitress on a free port, and the real ``scorekeeper serve``
behind a real nginx (tests/proxy_support.py), where the host is nginx's X-Forwarded-Host.
"""

from __future__ import annotations

import re
import socket

import pytest

from scorekeeper import create_app, network
from tests.proxy_support import Client
from tests.test_web import text

UNUSABLE = ["a" * 64 + ".example.org", "a" * 64, "scores..example.org", ".example.org", "[::1",
            # a port that is no port, and a list: the Group page's link came out as
            # "http:/g/<token>" (issue 16's tester)
            "127.0.0.1:-1", "localhost:abc", "127.0.0.1:99999999999999999999", "127.0.0.1:0",
            "127.0.0.1:5791, evil", "127.0.0.1:", "scores example.org",
            "bücher.example"]  # a browser sends it as IDNA: xn--bcher-kva.example
#: A Host header sent but empty: as unusable, yet Werkzeug's test client fills one in
EMPTY = ""
# Werkzeug's own test client cannot even send this one (it decodes the host for its
# cookies); only a real server receives it
UNUSABLE_ON_THE_WIRE = [*UNUSABLE, EMPTY, "xn--zz.example.org", "a" * 64 + ".example.org:5000"]
USABLE = ["a" * 63 + ".example.org", "scores.example.org", "scores.example.org.", "127.0.0.1:5000",
          "[::1]:5000", "xn--bcher-kva.example", "localhost", "localhost:65535", "[::1]",
          "Scores.Example.org:443"]

#: What a player reads on the error page of a 400 (views.init_app's http_error)
REFUSED = "That request could not be read. Nothing was changed"


@pytest.mark.parametrize("host", UNUSABLE_ON_THE_WIRE)
def test_an_unusable_host_is_told_apart(host):
    assert not network.usable_host(host)


@pytest.mark.parametrize("host", USABLE)
def test_a_usable_host_is_kept(host):
    assert network.usable_host(host)


def routes(game_id: str) -> list[tuple[str, str]]:
    """(method, path) of pages of every kind: the start, a group's link, forms, a game,
    a static file, the service worker, a page that does not exist, a save."""
    return [("GET", "/"), ("GET", "/welcome"), ("GET", "/g/no-such-link"), ("GET", "/games/new?kind=trigami"),
            ("GET", "/group"), ("GET", f"/games/{game_id}"), ("GET", f"/games/{game_id}/deals/new"),
            ("GET", "/static/app.js"), ("GET", "/sw.js"), ("GET", "/no/such/page"),
            ("POST", "/games/new?kind=trigami"), ("POST", f"/games/{game_id}/deals/new")]


NEW_GAME = {"player_0": "Anna", "player_1": "Ben", "player_2": "Carla", "first_dealer": "0", "target": "300"}


@pytest.mark.parametrize("host", UNUSABLE)
def test_an_unusable_host_answers_400_with_the_error_page_on_every_route(client, db, make_game, host):
    game_id = make_game()
    for method, path in routes(game_id):
        with client.open(path, method=method, headers={"Host": host},
                         data=NEW_GAME if method == "POST" else None) as response:
            assert response.status_code == 400, (method, path, response.status_code)
            assert REFUSED in text(response), (method, path)
    assert db["games"].count == 1  # the new game's form saved nothing


def test_a_host_header_sent_empty_answers_400_with_the_error_page(client, db, make_game):
    game_id = make_game()
    for method, path in routes(game_id):
        with client.open(path, method=method, environ_overrides={"HTTP_HOST": EMPTY},
                         data=NEW_GAME if method == "POST" else None) as response:
            assert response.status_code == 400, (method, path, response.status_code)
            assert REFUSED in text(response), (method, path)
    assert db["games"].count == 1


def test_the_group_page_link_is_whole_for_every_host_it_answers(client, make_game):
    """The Group page writes the group's link with the request's host: for every Host it
    answers 200, the link is a whole address ("http://HOST/g/<token>")."""
    make_game()  # a group, and this phone in it
    for host in [*UNUSABLE, EMPTY, *USABLE]:
        with client.get("/group", environ_overrides={"HTTP_HOST": host}) as response:
            page = response.get_data(as_text=True)
        if response.status_code == 200:
            assert "http:/g/" not in page and "http://:" not in page, host
            assert re.search(r"https?://[^/\s\"<]+/g/[A-Za-z0-9_-]+", page), host
        else:
            assert response.status_code in (302, 400), (host, response.status_code)


def test_a_usable_host_still_opens_the_pages(client, make_game):
    game_id = make_game()
    for host in USABLE:
        for method, path in routes(game_id):
            if method == "GET":
                # a page of the group redirects to its link here (the cookie is another
                # host's), a missing one is 404: none is refused for its host
                with client.get(path, headers={"Host": host}) as response:
                    assert response.status_code in (200, 302, 404), (host, path, response.status_code)


def test_on_the_real_server_an_unusable_host_answers_400_with_the_error_page(race_server):
    game_id = race_server.store_game()
    port = int(race_server.url.rsplit(":", 1)[1])
    for host in UNUSABLE_ON_THE_WIRE:
        browser = Client(port, "127.0.0.1", host=host)
        for method, path in routes(game_id):
            reply = browser.post(path, NEW_GAME) if method == "POST" else browser.get(path)
            assert reply.status == 400, (host, method, path, reply)
            assert reply.headers["Content-Type"].startswith("text/html"), (host, path)
            assert REFUSED in reply.text, (host, method, path, reply.text[:300])
    with race_server.db() as db:
        assert db["games"].count == 1
    assert Client(port, "127.0.0.1", host=race_server.url.split("//")[1]).get("/welcome").status == 200


def test_on_the_real_server_a_request_with_no_host_header_is_served_by_its_own_name(race_server):
    """HTTP/1.0 needs no Host header: such a request is not refused."""
    port = int(race_server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(b"GET /welcome HTTP/1.0\r\n\r\n")
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
    assert reply.startswith((b"HTTP/1.0 200", b"HTTP/1.1 200")), reply[:200]


def test_behind_a_trusted_proxy_an_unusable_forwarded_host_answers_400(tmp_path):
    """ProxyFix makes X-Forwarded-Host the request's host and the server's name: neither
    can stand in for drawing the error page (tests/test_proxy_nginx.py tries it with nginx)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "p.sqlite3"),
                      "TRUSTED_PROXIES": 1})
    client = app.test_client()
    # "a, b" is a list of hosts forwarded one after another: ProxyFix takes the last, the
    # one the trusted proxy set ("b"), as it should
    for host in [h for h in UNUSABLE if "," not in h]:
        forwarded = {"X-Forwarded-Host": host, "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
        for path in ("/", "/welcome", "/group", "/static/app.js", "/no/such/page"):
            with client.get(path, headers=forwarded) as response:
                assert response.status_code == 400, (host, path, response.status_code)
                assert REFUSED in text(response), (host, path)
