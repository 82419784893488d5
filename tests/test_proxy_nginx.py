"""Behind a reverse proxy, as docs/deploying.md documents it (issue 16, part 1): a real
nginx, configured with its own ``location`` block, in front of a real ``scorekeeper
serve`` started with its own command line (tests/proxy_support.py).

What a group on the internet relies on: over HTTPS the session cookie (the group's key)
is Secure and browsers are told to keep to HTTPS; the links and QR codes that invite the
others show the public https:// address; every limit counts each real client, not the
proxy. And what nobody may do: claim HTTPS, an address or a host with X-Forwarded-*
headers, through nginx's plain-HTTP side or straight to an app that trusts no proxy.

nginx listens over real HTTPS (a certificate from a throw-away CA, trustme): its
``X-Forwarded-Proto $scheme`` replaces whatever a client sends, so only a real HTTPS
connection can make the app see https. Each client has its own loopback source address
(127.0.0.x). Skipped only where nginx is missing outside CI (proxy_support.nginx_binary).
"""

from __future__ import annotations

import itertools
import re
from xml.etree import ElementTree

import pytest

from tests.proxy_support import (
    PUBLIC_HOST,
    Client,
    cookie_flags,
    nginx,
    nginx_binary,
    readme_nginx_location,
    readme_serve_command,
    scorekeeper_serve,
    set_cookie,
)
from tests.race_support import Reply, form_fields
from tests.test_join import decode_modules, join_svg, modules

#: Few enough saves that a test reaches the limit in a few requests, per hour so that a
#: slow machine cannot see a window end between them
WRITE_LIMIT = "3 per hour"

#: What a client may send to claim HTTPS, another host, port or path
FORGED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example", "X-Forwarded-Port": "8443",
          "X-Forwarded-Prefix": "/elsewhere"}


class Site:
    """The app served as docs/deploying.md says, with nginx in front; ``token`` is the group's
    play link, ``game_id`` a game of it."""

    def __init__(self, served, proxy) -> None:
        self.served, self.proxy = served, proxy
        self.token, self.game_id = served.group.token, served.group.game_id

    def https(self, source: str) -> Client:
        """A browser at ``source`` opening https://scores.example.org through nginx."""
        return Client(self.proxy.https_port, source, ca=self.proxy.ca)

    def http(self, source: str) -> Client:
        """A browser at ``source`` opening http://scores.example.org through nginx."""
        return Client(self.proxy.http_port, source)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    nginx_binary()  # skip (or, in CI, fail) before starting anything
    folder = tmp_path_factory.mktemp("proxy")
    env, args = readme_serve_command()
    assert env == {"SCOREKEEPER_TRUSTED_PROXIES": "1"} and args[:2] == ["--host", "127.0.0.1"], (env, args)
    with (scorekeeper_serve(folder / "instance", args, {**env, "SCOREKEEPER_WRITE_LIMIT": WRITE_LIMIT}) as served,
          nginx(folder / "nginx", readme_nginx_location(served.port), served.group.token) as proxy):
        yield Site(served, proxy)


@pytest.fixture(scope="module")
def direct(tmp_path_factory):
    """The app reached with nothing in front, trusting no proxy (the default)."""
    folder = tmp_path_factory.mktemp("direct")
    with scorekeeper_serve(folder, ["--host", "127.0.0.1", "--port", "5000"],
                           {"SCOREKEEPER_TRUSTED_PROXIES": "0", "SCOREKEEPER_WRITE_LIMIT": WRITE_LIMIT}) as served:
        yield served


def join(client: Client, token: str, **kwargs) -> Reply:
    """Open the group's play link, as a phone does; returns the reply (a redirect)."""
    reply = client.get(f"/g/{token}", **kwargs)
    assert reply.status == 302, f"opening the group's link: {reply!r}\n{reply.body[:2000]}"
    return reply


def play_link(page: str) -> tuple[str, str]:
    """(the group page's link to share as text, what its QR code reads as)."""
    text = re.search(r'id="play-link" type="url" value="([^"]+)"', page)
    svg = re.search(r'<svg class="join-qr".*?</svg>', page, re.S)
    assert text and svg, "the group page shows no link to share"
    return text.group(1), decode_modules(modules(ElementTree.fromstring(svg.group(0))))[0]


def sheet_link(page: str) -> tuple[str, str]:
    """(the score sheet's "Join from another phone" address as text, its QR code's)."""
    shown = re.search(r'<p class="join-address">(.*?)</p>', page, re.S)
    assert shown, "the sheet shows no address to join"
    return re.sub(r"<[^>]+>", "", shown.group(1)).strip(), decode_modules(modules(join_svg(page)))[0]


_games_started = itertools.count(1)


def new_game(client: Client, **kwargs) -> Reply:
    """Start a game from the new-game form as a phone fills it in (a real save); each a
    game of its own (a third player of its own: the same game started again within the
    hour is asked about first, not started)."""
    page = client.get("/games/new?kind=trigami")
    assert page.status == 200, page
    fields = form_fields(page.body)
    assert "player_0" in fields, "the first form of the page is not the new game's"
    fields.update(player_0="Anna", player_1="Ben", player_2=f"Carla {next(_games_started)}", first_dealer="0")
    return client.post("/games/new?kind=trigami", fields, **kwargs)


# ------------------------------------------------------------------------------ behind nginx


def test_behind_nginx_over_https_the_session_cookie_is_secure_and_https_is_kept(site):
    reply = join(site.https("127.0.0.2"), site.token)
    assert {"secure", "httponly"} <= cookie_flags(set_cookie(reply))
    assert reply.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_behind_nginx_a_client_cannot_claim_https_or_a_host_over_plain_http(site):
    """nginx's X-Forwarded-Proto $scheme and X-Forwarded-Host $http_host replace what the
    client sent, and the headers nginx does not set (-Port, -Prefix) are never read: a
    page opened over plain http stays plain, on the host it asked for."""
    phone = site.http("127.0.0.3")
    reply = join(phone, site.token, headers=FORGED)
    assert "secure" not in cookie_flags(set_cookie(reply))
    assert "Strict-Transport-Security" not in reply.headers
    link, qr = play_link(phone.get("/group", headers=FORGED).body)
    assert link == qr == f"http://{PUBLIC_HOST}/g/{site.token}"


def test_behind_nginx_the_group_page_invites_with_the_public_https_address(site):
    phone = site.https("127.0.0.4")
    join(phone, site.token)
    page = phone.get("/group")
    assert page.status == 200, page
    link, qr = play_link(page.body)
    assert link == qr == f"https://{PUBLIC_HOST}/g/{site.token}"


def test_behind_nginx_on_another_port_than_443_the_invitation_keeps_the_port(site):
    # a club's server on https://scores.example.org:8443: nginx's $http_host passes the
    # port on (its $host would drop it, and every link and QR code would miss the server)
    phone = Client(site.proxy.https_port, "127.0.0.9", host=f"{PUBLIC_HOST}:8443", ca=site.proxy.ca)
    join(phone, site.token)
    page = phone.get("/group")
    assert page.status == 200, page
    link, qr = play_link(page.body)
    assert link == qr == f"https://{PUBLIC_HOST}:8443/g/{site.token}"


def test_behind_nginx_the_sheets_qr_code_gives_the_public_https_address(site):
    phone = site.https("127.0.0.5")
    join(phone, site.token)
    page = phone.get(f"/games/{site.game_id}")
    assert page.status == 200, page
    shown, qr = sheet_link(page.body)
    assert qr.startswith(f"https://{PUBLIC_HOST}/") and site.game_id in qr, qr
    assert shown == qr


def test_behind_nginx_one_client_over_the_write_limit_does_not_block_another(site):
    eager, other = site.https("127.0.0.6"), site.https("127.0.0.7")
    join(eager, site.token)
    join(other, site.token)
    saves = [new_game(eager).status for _ in range(3)]
    assert saves == [302, 302, 302]
    assert new_game(eager).status == 429
    # a forged X-Forwarded-For gets no new budget: nginx adds the real address last
    assert new_game(eager, headers={"X-Forwarded-For": "198.51.100.7"}).status == 429
    assert new_game(other).status == 302  # another client at the same table is not refused


def test_behind_nginx_serve_says_phones_open_the_proxys_address(site):
    out = site.served.output()
    assert "Behind 1 reverse proxy (TRUSTED_PROXIES)" in out
    assert "Phones cannot reach" not in out  # no advice to serve on the Wi-Fi instead


# ------------------------------------------------------------------------ nothing in front


@pytest.fixture(scope="module")
def untrusted(tmp_path_factory):
    """docs/deploying.md's nginx in front of an app left at TRUSTED_PROXIES=0."""
    nginx_binary()
    folder = tmp_path_factory.mktemp("untrusted")
    with (scorekeeper_serve(folder / "instance", ["--host", "127.0.0.1", "--port", "5000"],
                            {"SCOREKEEPER_TRUSTED_PROXIES": "0"}) as served,
          nginx(folder / "nginx", readme_nginx_location(served.port), served.group.token) as proxy):
        yield Site(served, proxy)


def test_behind_nginx_left_untrusted_the_log_says_once_what_to_set(untrusted):
    """Tester 44: nginx in front and TRUSTED_PROXIES left at 0 gave the inner address in
    links, cookies not Secure and one limit for every phone, and nothing said why. The
    forwarded headers are still ignored (nothing a client claims is believed); the log
    says once what to set."""
    phone = untrusted.https("127.0.0.21")
    replies = [join(phone, untrusted.served.group.token) for _ in range(3)]
    assert "secure" not in cookie_flags(set_cookie(replies[0]))
    log = untrusted.served.output()
    workers = re.search(r"\((\d+) worker processes", log)
    assert 1 <= log.count("TRUSTED_PROXIES is 0") <= (int(workers.group(1)) if workers else 1), log
    assert "X-Forwarded-For" in log and "set SCOREKEEPER_TRUSTED_PROXIES=1 (docs/deploying.md)" in log
    assert "Traceback" not in log


def test_without_trusted_proxies_a_client_cannot_claim_https_or_a_host(direct):
    phone = Client(direct.port, "127.0.0.8", host=f"127.0.0.1:{direct.port}")
    reply = join(phone, direct.group.token, headers={**FORGED, "X-Forwarded-For": "198.51.100.8"})
    assert "secure" not in cookie_flags(set_cookie(reply))
    assert "Strict-Transport-Security" not in reply.headers
    link, qr = play_link(phone.get("/group", headers=FORGED).body)
    assert link == qr == f"http://127.0.0.1:{direct.port}/g/{direct.group.token}"


def test_without_trusted_proxies_a_forged_address_gets_no_new_write_budget(direct):
    phone = Client(direct.port, "127.0.0.9", host=f"127.0.0.1:{direct.port}")
    join(phone, direct.group.token)
    statuses = [new_game(phone, headers={"X-Forwarded-For": f"198.51.100.{n}"}).status for n in range(4)]
    assert statuses == [302, 302, 302, 429]
    neighbour = Client(direct.port, "127.0.0.10", host=f"127.0.0.1:{direct.port}")
    join(neighbour, direct.group.token)
    assert new_game(neighbour).status == 302


def test_behind_nginx_a_host_no_address_can_be_made_of_answers_the_apps_400(site):
    """nginx passes a name part over 63 characters on as X-Forwarded-Host (ProxyFix then
    makes it the server's name too); the app refuses it with its own page, on every
    route (tests/test_unusable_host.py). An empty name part nginx refuses itself."""
    phone = site.https("127.0.0.11")
    host = "a" * 64 + ".example.org"
    for path in ("/", f"/g/{site.token}", "/group", f"/games/{site.game_id}", "/static/app.js"):
        reply = phone.get(path, host=host)
        assert reply.status == 400, (path, reply)
        assert "That request could not be read. Nothing was changed" in reply.text, (path, reply.body[:500])


def test_behind_nginx_a_file_over_the_apps_limit_is_refused_by_the_app_in_its_words(site):
    """Tester 40: a 1.38 MB group file got nginx's bare "413 Request Entity Too Large" (its
    default limit, 1 MB, below the request with the file); the documented lines let the
    app answer it: its import form again, saying so beside the file in the phone's
    language."""
    phone = site.https("127.0.0.12")
    join(phone, site.token)
    reply = phone.post("/games/import", {"file": "x" * (1400 * 1024)}, headers={"Accept-Language": "de"})
    assert reply.status == 413, reply
    assert "nginx" not in reply.text
    assert "Diese Datei ist zu groß: Eine Partiedatei hat höchstens" in reply.text, reply.text[:600]


# ------------------------------------------------------------------- what serve hands waitress


@pytest.fixture
def serve_command(tmp_path, monkeypatch):
    """``scorekeeper serve`` with waitress' serve replaced: (settings) → (what it printed,
    the keyword arguments waitress was given); nothing listens."""
    import waitress
    from click.testing import CliRunner

    from scorekeeper import cli
    from scorekeeper.cli import main

    def run(**settings: str):
        served: dict = {}
        monkeypatch.setattr(waitress, "serve", lambda app, **kwargs: served.update(kwargs, app=app))
        monkeypatch.setattr(cli, "_cannot_listen", lambda host, port: None)  # nothing tries the port either
        env = {"SCOREKEEPER_DATABASE": str(tmp_path / "s.sqlite3"), "SCOREKEEPER_SECRET_KEY": "test",
               "SCOREKEEPER_PUBLIC_URL": None, "SCOREKEEPER_TRUSTED_PROXIES": None,
               "SCOREKEEPER_WORKERS": "1",  # one process: waitress (several: tests/test_workers.py)
               **{f"SCOREKEEPER_{k}": v for k, v in settings.items()}}
        result = CliRunner(env=env).invoke(main, ["serve", "--host", "127.0.0.1"])
        return result, served

    return run


def test_serve_behind_a_proxy_prints_the_public_url_and_passes_the_forwarded_headers(serve_command):
    result, served = serve_command(TRUSTED_PROXIES="1", PUBLIC_URL=f"https://{PUBLIC_HOST}/")
    assert result.exit_code == 0, result.output
    assert f"Phones open https://{PUBLIC_HOST}/ (through the reverse proxy)" in result.stdout
    assert served["clear_untrusted_proxy_headers"] is False
    assert served["app"].config["PUBLIC_URL"] == f"https://{PUBLIC_HOST}"


def test_serve_with_no_proxy_drops_the_forwarded_headers_before_the_app(serve_command):
    from flask import request, request_started
    from werkzeug.test import EnvironBuilder

    result, served = serve_command()
    assert result.exit_code == 0, result.output
    seen: list[dict[str, str]] = []

    def record(sender, **extra):
        seen.append(dict(request.headers))

    forged = {"X-Forwarded-For": "198.51.100.1", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example",
              "Forwarded": "for=198.51.100.1"}
    environ = EnvironBuilder("/health", headers=forged).get_environ()
    with request_started.connected_to(record):
        b"".join(served["app"](environ, lambda *args: None))
    assert seen and not set(forged) & set(seen[0])


def test_serve_refuses_a_number_of_proxies_that_is_not_a_whole_number(serve_command):
    result, served = serve_command(TRUSTED_PROXIES="one")
    assert result.exit_code == 1 and not served
    # one line, no traceback (tester 15: the traceback came before the one useful line)
    assert result.stderr == ("scorekeeper: a setting cannot be read: TRUSTED_PROXIES must be a whole number of "
                             "proxies (0, 1, 2 …), not 'one'\n")
