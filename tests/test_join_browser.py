"""Joining from another phone in headless Chromium at 390×844 (and 360 wide), light and
dark: the score sheet's QR code as Chromium draws it is read back with zxing-cpp from a
screenshot. Screenshots: screenshots/join*.png — open them and look.

The app runs on 127.0.0.1 with PUBLIC_URL set, as after ``scorekeeper serve --host 0.0.0.0``
on a laptop whose Wi-Fi address is 192.168.1.20: the sheet opened on the laptop itself
shows the address the phones open. Nothing is sent anywhere but 127.0.0.1.
"""

from __future__ import annotations

import pytest

from tests.browser_support import BOX, FITS_WIDTH, new_page, shot, sync_api
from tests.png_support import read_png
from tests.test_join import WIFI, decode_grey

pytestmark = pytest.mark.browser

DEAL = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
        "tricks": [5, 4, 4], "bugs": [0, 2, 4]}


@pytest.fixture(scope="module")
def sheet(tmp_path_factory):
    """(the sheet's address on 127.0.0.1, the address its QR code must give): a Trigami game
    of three deals, served from a thread with PUBLIC_URL set."""
    from tests.browser_support import group_token, serve, store_game
    from tests.conftest import game_file

    path = tmp_path_factory.mktemp("join-browser") / "join.sqlite3"
    with serve(path, PUBLIC_URL=WIFI) as url:
        game_id = store_game(path, game_file(players=["Anna", "Ben", "Carla"], deals=[DEAL] * 3))
        # the QR code is the group's link, landing on the game
        yield f"{url}/games/{game_id}", f"{WIFI}/g/{group_token(path)}?game={game_id}"


def open_join(page, url: str):
    """Open the sheet and tap "Join from another phone"; returns the QR code's locator."""
    page.goto(url)
    qr = page.get_by_role("img", name="QR code of this game's address")
    assert not qr.is_visible()  # folded away until asked for
    page.get_by_text("Join from another phone").click()
    # to the end of the page, where the code clears the fixed "Add deal" bar
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert qr.is_visible()
    return qr


def read_qr(qr) -> list[str]:
    """What a camera reads: the QR code's screenshot, decoded by zxing-cpp."""
    png = read_png(qr.screenshot())
    return decode_grey(png.grey(), png.width, png.height)


#: The QR code shown and what is around it, at once: its box (:data:`BOX`) and viewBox, the
#: address under it (its text, whether it can be selected, whether it fits its line), the
#: fold's summary and whether the page fits its width (:data:`FITS_WIDTH`)
SHOWN = f"""(qr) => {{
  const address = document.querySelector(".join-address");
  return {{box: ({BOX})(qr), viewBox: qr.getAttribute("viewBox"), address: address.innerText,
          select: getComputedStyle(address).userSelect, addressFits: address.scrollWidth <= address.clientWidth,
          summary: document.querySelector("details.join summary").textContent.trim(), fits: {FITS_WIDTH}}};
}}"""


def assert_scannable(page, qr, expected: str) -> dict:
    """The QR code is camera-sized, reads ``expected``, and the address under it says it
    and can be copied, the page fitting its width; returns what was read (:data:`SHOWN`)."""
    seen = qr.evaluate(SHOWN)
    box = seen["box"]
    assert box["width"] >= 200 and abs(box["width"] - box["height"]) < 1  # square, camera-sized
    assert read_qr(qr) == [expected]
    assert seen["address"] == expected
    assert seen["select"] != "none"
    assert seen["fits"]  # no sideways scroll
    return seen


def test_join_from_another_phone_on_the_sheet(page, sheet):
    url, expected = sheet
    qr = open_join(page, url)
    assert assert_scannable(page, qr, expected)["summary"] == "Join from another phone"
    shot(page, "join")


def test_join_in_the_dark_stays_dark_on_white(browser, sheet):
    url, expected = sheet
    page = new_page(browser, color_scheme="dark")
    context = page.context
    try:
        qr = open_join(page, url)
        seen = assert_scannable(page, qr, expected)
        png = read_png(qr.screenshot())
        # the quiet zone is white and the finder pattern's corner black, as in daylight
        module = png.width / int(seen["viewBox"].split()[2])
        quiet, corner = int(module * 2), int(module * 4.5)  # middle of the quiet zone, first module
        assert min(png.pixel(quiet, quiet)[:3]) > 240
        assert max(png.pixel(corner, corner)[:3]) < 40
        shot(page, "join-dark")
    finally:
        context.close()


def test_join_on_a_narrow_phone_without_javascript(browser, sheet):
    """360 px wide, JavaScript off: <details> opens by itself and the address wraps."""
    url, expected = sheet
    page = new_page(browser, width=360, height=740, javascript=False)
    try:
        qr = open_join(page, url)
        assert assert_scannable(page, qr, expected)["addressFits"]
        shot(page, "join-360")
    finally:
        page.context.close()


_ = sync_api  # the import skips this module without Chromium (tests/browser_support.py)
