"""Joining a game from another phone: the score sheet's QR code of the game's address
(templates/games/_join.html, scorekeeper/qr.py), the address rule (scorekeeper/network.py)
and the address ``scorekeeper serve`` prints (cli.py).

Every QR code is read back with zxing-cpp, a decoder that shares no code with segno, which
draws it: from the SVG path the page embeds, and in the browser from a screenshot of what
Chromium drew. No test sends anything over the network: waitress' serve and ifaddr's
adapters are stand-ins, and the browser talks to 127.0.0.1 only.
"""

from __future__ import annotations

import html
import re
from xml.etree import ElementTree

import ifaddr
import pytest
import waitress
import zxingcpp
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import cli, network
from scorekeeper.cli import main
from scorekeeper.qr import QUIET_ZONE, qr_code
from tests.test_web import text

WIFI = "http://192.168.1.20:5000"  # the serving computer on the table's Wi-Fi


# --- reading the QR code back --------------------------------------------------------------

def join_block(page: str) -> str:
    """The sheet's "Join from another phone" <details>, as HTML."""
    match = re.search(r'<details class="join panel">.*?</details>', page, re.S)
    assert match, "no Join from another phone on the page"
    return match.group(0)


def join_svg(page: str) -> ElementTree.Element:
    return ElementTree.fromstring(re.search(r"<svg\b.*?</svg>", join_block(page), re.S).group(0))


def modules(svg: ElementTree.Element) -> list[list[bool]]:
    """The QR code's modules, dark = True, quiet zone included, read off the SVG's path:
    one "M x y h w v1 h-w z" rectangle per run of dark modules (qr.qr_code)."""
    size = int(svg.get("viewBox").split()[2])
    path = svg.find("path").get("d")
    runs = re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", path)
    assert "".join(f"M{x} {y}h{w}v1h-{w}z" for x, y, w in runs) == path  # nothing else drawn
    grid = [[False] * size for _ in range(size)]
    for x, y, w in runs:
        for dx in range(int(w)):
            grid[int(y)][int(x) + dx] = True
    return grid


def decode_grey(grey: bytes, width: int, height: int) -> list[str]:
    """The texts of the QR codes zxing-cpp finds in a grey image, one byte a pixel."""
    image = memoryview(grey).cast("B", (height, width))
    return [code.text for code in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]


def decode_modules(grid: list[list[bool]], scale: int = 4) -> list[str]:
    """Draw the modules black on white, ``scale`` pixels each, and read them with zxing-cpp."""
    size = len(grid) * scale
    pixels = bytearray(b"\xff" * size * size)
    for y, row in enumerate(grid):
        for x, dark in enumerate(row):
            if dark:
                for dy in range(scale):
                    start = (y * scale + dy) * size + x * scale
                    pixels[start:start + scale] = b"\x00" * scale
    return decode_grey(bytes(pixels), size, size)


def sheet_qr(client, game_id: str, base_url: str) -> tuple[str, str]:
    """(what the sheet's QR code reads as, the address shown below it) for the sheet opened
    on ``base_url``."""
    page = client.get(f"/games/{game_id}", base_url=base_url).get_data(as_text=True)
    read = decode_modules(modules(join_svg(page)))
    assert len(read) == 1
    shown = re.search(r'<p class="join-address">(.*?)</p>', join_block(page), re.S).group(1)
    return read[0], html.unescape(re.sub(r"<wbr>", "", shown)).strip()  # <wbr>: a break, no character


def link(client, base_url: str, game_id: str) -> str:
    """The address the sheet's QR code holds: the group's link on ``base_url``, landing on
    the game (a phone that scans it joins the group and opens the sheet)."""
    return f"{base_url}/g/{client.group_token}?game={game_id}"


# --- the score sheet --------------------------------------------------------------------------

def test_the_sheets_qr_code_reads_as_the_address_the_phone_opened(client, make_game):
    game_id = make_game()
    assert sheet_qr(client, game_id, WIFI) == (link(client, WIFI, game_id),) * 2


def test_the_qr_code_is_the_one_segno_makes_for_the_game_address(client, make_game):
    """Module for module what segno draws for the address (error correction M, regular QR),
    inside a quiet zone of 4 white modules."""
    import segno

    game_id = make_game()
    page = client.get(f"/games/{game_id}", base_url=WIFI).get_data(as_text=True)
    grid = modules(join_svg(page))
    expected = segno.make(link(client, WIFI, game_id), error="m", micro=False)
    inner = [row[QUIET_ZONE:-QUIET_ZONE] for row in grid[QUIET_ZONE:-QUIET_ZONE]]
    assert inner == [[bool(m) for m in row] for row in expected.matrix]
    border = grid[:QUIET_ZONE] + grid[-QUIET_ZONE:] + [row[:QUIET_ZONE] + row[-QUIET_ZONE:] for row in grid]
    assert not any(any(row) for row in border)


@pytest.mark.parametrize("loopback", ["http://127.0.0.1:5000", "http://localhost:5000", "http://[::1]:5000"])
def test_on_the_serving_computer_the_qr_code_gives_the_wifi_address(app, client, make_game, loopback):
    """Opened on the computer that serves (a loopback address no phone can use), the sheet
    shows PUBLIC_URL, the address ``scorekeeper serve`` found for the phones."""
    app.config["PUBLIC_URL"] = WIFI
    game_id = make_game()
    assert sheet_qr(client, game_id, loopback) == (link(client, WIFI, game_id),) * 2


def test_a_phone_on_the_network_passes_on_its_own_address_not_public_url(app, client, make_game):
    """The phone reached the server at 10.0.0.7:8000: the phone beside it can too, whatever
    PUBLIC_URL says."""
    app.config["PUBLIC_URL"] = WIFI
    game_id = make_game()
    assert sheet_qr(client, game_id, "http://10.0.0.7:8000") == (link(client, "http://10.0.0.7:8000", game_id),) * 2


def test_without_public_url_the_sheet_shows_the_address_it_was_opened_on(client, make_game):
    game_id = make_game()
    assert sheet_qr(client, game_id, "http://127.0.0.1:5000")[0] == link(client, "http://127.0.0.1:5000", game_id)


def test_join_is_a_closed_details_with_a_named_qr_code_dark_on_white(client, make_game):
    """Folded away until tapped; the picture named for screen readers; black on a white
    ground drawn inside the SVG, so the dark theme cannot invert it; the help in words."""
    game_id = make_game(kind="trix")
    page = client.get(f"/games/{game_id}", base_url=WIFI).get_data(as_text=True)
    block = join_block(page)
    assert "<details" in block and " open" not in block.split(">")[0]
    assert re.search(r"<summary>\s*Join from another phone\s*</summary>", block)
    svg = join_svg(page)
    assert svg.get("role") == "img" and svg.get("aria-label") == "QR code of this game's address"
    size = svg.get("viewBox").split()
    assert size[:2] == ["0", "0"] and size[2] == size[3]
    ground, code = svg.find("rect"), svg.find("path")
    assert (ground.get("fill"), ground.get("width"), ground.get("height")) == ("#fff", size[2], size[3])
    assert code.get("fill") == "#000"
    assert "Scan with the phone's camera; phones must be on the same Wi-Fi." in text_of(block)
    assert "<script" not in block


def text_of(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def test_a_finished_game_can_still_be_joined(client, make_game):
    """Someone arriving late wants to see who won."""
    game_id = make_game(options={"target": 100}, deals=[
        {"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [0, 13, 0], "bugs": [0, 10, 0]}])
    page = client.get(f"/games/{game_id}", base_url=WIFI)
    assert "Game over" in text(page)
    assert decode_modules(modules(join_svg(page.get_data(as_text=True)))) == [link(client, WIFI, game_id)]


@settings(max_examples=30)
@given(st.from_regex(r"https?://[a-z0-9.-]{1,30}(:[0-9]{2,5})?/g/[A-Za-z0-9_-]{32}[?]game=[A-Za-z0-9_-]{12}", fullmatch=True))
def test_any_game_address_reads_back_unchanged(address):
    code = qr_code(address)
    assert code.text == address
    assert decode_modules(modules(ElementTree.fromstring(
        f'<svg viewBox="0 0 {code.size} {code.size}"><path d="{code.path}"/></svg>'))) == [address]


# --- the address rule (scorekeeper/network.py) ----------------------------------------------

@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.0.0.1:5000", True), ("127.8.9.10", True), ("localhost", True),
    ("LocalHost:8000", True), ("::1", True), ("[::1]:5000", True),
    ("192.168.1.20:5000", False), ("10.0.0.7", False), ("0.0.0.0", False), ("::", False), ("", False),
    ("[fd00::5]:5000", False), ("scores.example", False), ("localhost.example", False),
])
def test_loopback_hosts_are_this_computer_only(host, loopback):
    assert network.is_loopback(host) is loopback


@pytest.mark.parametrize(("host_url", "public_url", "expected"), [
    ("http://127.0.0.1:5000/", WIFI, f"{WIFI}/games/Xy3"),
    ("http://localhost:5000/", WIFI + "/", f"{WIFI}/games/Xy3"),
    ("http://[::1]:5000/", WIFI, f"{WIFI}/games/Xy3"),
    ("http://192.168.1.33:5000/", WIFI, "http://192.168.1.33:5000/games/Xy3"),
    ("https://scores.example/", WIFI, "https://scores.example/games/Xy3"),
    ("http://127.0.0.1:5000/", None, "http://127.0.0.1:5000/games/Xy3"),
    ("http://127.0.0.1:5000/", "", "http://127.0.0.1:5000/games/Xy3"),
])
def test_game_address_uses_public_url_only_for_loopback_requests(host_url, public_url, expected):
    assert network.game_address("/games/Xy3", host_url, public_url) == expected


def test_server_url_puts_an_ipv6_address_in_brackets():
    assert network.server_url("192.168.1.20", 5000) == WIFI
    assert network.server_url("fd00::5", 8000) == "http://[fd00::5]:8000"


def adapter(name: str, *ips: str | tuple, nice_name: str | None = None) -> ifaddr.Adapter:
    """An ifaddr adapter: IPv4 addresses as str, IPv6 as (address, flowinfo, scope_id)."""
    return ifaddr.Adapter(name, nice_name or name, [ifaddr.IP(ip, 24 if isinstance(ip, str) else 64, name) for ip in ips])


# A laptop at the table: loopback, Docker, a VPN, a cable without DHCP, and the Wi-Fi
LAPTOP = [
    adapter("lo", "127.0.0.1", ("::1", 0, 0)),
    adapter("docker0", "172.17.0.1"),
    adapter("br-5f2e9a", "172.18.0.1"),
    adapter("tailscale0", "100.101.102.103"),
    adapter("eth0", "169.254.12.7"),
    adapter("wlan0", "192.168.1.20", ("fe80::1c2d:3e4f:5a6b:7c8d", 0, 3)),
]


def test_lan_addresses_put_the_wifi_first_and_leave_out_what_no_phone_reaches():
    assert network.lan_addresses(LAPTOP) == ["192.168.1.20", "100.101.102.103"]


def test_lan_addresses_prefer_192_168_then_10_then_172_16():
    adapters = [adapter("en1", "172.20.0.5"), adapter("en2", "10.1.2.3"), adapter("en0", "192.168.0.9"),
                adapter("en3", "192.168.0.9")]
    assert network.lan_addresses(adapters) == ["192.168.0.9", "10.1.2.3", "172.20.0.5"]


def test_lan_addresses_skip_windows_virtual_switches_by_their_nice_name():
    adapters = [adapter("{6F1A…}", "172.25.160.1", nice_name="vEthernet (WSL)"),
                adapter("{0B3C…}", "192.168.178.40", nice_name="Wi-Fi")]
    assert network.lan_addresses(adapters) == ["192.168.178.40"]


# --- scorekeeper serve ---------------------------------------------------------------------

@pytest.fixture
def serve(app, monkeypatch):
    """Run ``scorekeeper serve ARGS`` with waitress' serve and ifaddr's adapters replaced:
    serve(*args, adapters=LAPTOP) → (what it printed, what waitress was handed: {"app",
    "host", "port", …}); nothing listens and nothing is sent."""
    monkeypatch.delenv("SCOREKEEPER_PUBLIC_URL", raising=False)

    def run(*args: str, adapters: list[ifaddr.Adapter] | None = LAPTOP) -> tuple[str, dict]:
        served: dict = {}
        monkeypatch.setattr(waitress, "serve", lambda wsgi_app, **kwargs: served.update(app=wsgi_app, **kwargs))
        monkeypatch.setattr(cli, "_cannot_listen", lambda host, port: None)  # nothing tries the port either

        def get_adapters(include_unconfigured: bool = False) -> list[ifaddr.Adapter]:
            if adapters is None:
                raise AssertionError("no need to look at the network adapters")
            return adapters

        monkeypatch.setattr(ifaddr, "get_adapters", get_adapters)
        env = {"SCOREKEEPER_DATABASE": app.config["DATABASE"], "SCOREKEEPER_SECRET_KEY": "test",
               "SCOREKEEPER_WORKERS": "1"}  # one process: waitress (several: tests/test_workers.py)
        result = CliRunner(env=env).invoke(main, ["serve", *args])
        assert result.exit_code == 0, result.output
        served["stderr"] = result.stderr
        return result.stdout, served

    return run


def test_serve_on_every_interface_prints_the_wifi_address_for_the_phones(serve, make_game):
    out, served = serve("--host", "0.0.0.0", "--port", "5000")
    assert "Phones on the same Wi-Fi: open http://192.168.1.20:5000/" in out.splitlines()
    assert "100.101.102.103" in out  # another network of this computer, said after it
    assert "172.17.0.1" not in out and "169.254" not in out and "127.0.0.1" not in out.split("\n", 1)[1]
    assert (served["host"], served["port"]) == ("0.0.0.0", 5000)
    # the sheet opened on this computer shows the phones' address
    flask_app = served["app"]
    assert flask_app.config["PUBLIC_URL"] == WIFI
    game_id = make_game()
    phone = flask_app.test_client()
    assert sheet_qr(phone, game_id, "http://127.0.0.1:5000")[0] == link(phone, WIFI, game_id)


@pytest.mark.parametrize("host", ["::", ""])
def test_serve_on_every_ipv6_interface_lists_the_wifi_address_too(serve, host):
    out, served = serve("--host", host, "--port", "8000")
    assert "Phones on the same Wi-Fi: open http://192.168.1.20:8000/" in out
    assert served["app"].config["PUBLIC_URL"] == "http://192.168.1.20:8000"


def test_serve_on_one_address_gives_that_address(serve):
    out, served = serve("--host", "192.168.1.20", "--port", "8000", adapters=None)
    assert "Phones on the same Wi-Fi: open http://192.168.1.20:8000/" in out
    assert served["app"].config["PUBLIC_URL"] == "http://192.168.1.20:8000"


def test_serve_on_loopback_says_phones_cannot_reach_it(serve):
    out, served = serve(adapters=None)  # the default host, 127.0.0.1
    assert "Phones cannot reach 127.0.0.1" in out
    assert "make run HOST=0.0.0.0" in out
    assert "PUBLIC_URL" not in served["app"].config
    assert served["host"] == "127.0.0.1"


def test_serve_without_a_network_says_so(serve):
    out, served = serve("--host", "0.0.0.0", adapters=[LAPTOP[0], LAPTOP[1]])
    assert "No network address found for phones" in out
    assert "PUBLIC_URL" not in served["app"].config


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::"])
def test_serve_behind_a_proxy_on_an_address_others_reach_warns_that_limits_can_be_dodged(serve, monkeypatch, host):
    """Tester 40: with TRUSTED_PROXIES=1 and the app on 0.0.0.0, 25 wrong passcodes from
    one address, each with another X-Forwarded-For sent straight to the app's port, were
    all judged (the limit is 15 an address), and serve said nothing of it."""
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_PROXIES", "1")
    _, served = serve("--host", host, adapters=None)
    assert "Careful: TRUSTED_PROXIES is 1, but the app listens on" in served["stderr"]
    assert "Serve on 127.0.0.1 behind the proxy" in served["stderr"]


def test_serve_behind_a_proxy_on_loopback_gives_no_warning(serve, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_PROXIES", "1")
    _, served = serve("--host", "127.0.0.1", adapters=None)
    assert "Careful" not in served["stderr"]


def test_serve_keeps_a_configured_public_url(serve, monkeypatch):
    """Behind a reverse proxy the configured address is the one phones open."""
    monkeypatch.setenv("SCOREKEEPER_PUBLIC_URL", "https://scores.example/")
    out, served = serve("--host", "0.0.0.0")
    assert "Phones on the same Wi-Fi: open https://scores.example/" in out
    assert served["app"].config["PUBLIC_URL"] == "https://scores.example"
