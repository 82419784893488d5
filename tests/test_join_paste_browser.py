"""Joining from the installed app on a phone (issue 18, part 5), headless Chromium at
390×844 and 360×740: the welcome page with the group's link pasted joins the group;
something else pasted is refused beside the field, kept; the Scan button shows only where
the browser can read a QR code with the camera (BarcodeDetector with qr_code, stubbed
here: headless Chromium has none) and, scanning the group's QR code, joins as the pasted
link does. Screenshots in English, German, Finnish and Arabic:
screenshots/join-paste-*.png — open them and look.
"""

from __future__ import annotations

import pytest

from tests.browser_support import BOX, FITS_WIDTH, group_token, new_page, serve, shot, sync_api

pytestmark = pytest.mark.browser
expect = sync_api.expect

SIZES = [(390, 844), (360, 740)]
LOCALES = {"en": "en-US", "de": "de-DE", "fi": "fi-FI", "ar": "ar-EG"}

#: A browser without a QR reader (as most desktop browsers, and Chromium headless)
NO_READER = "delete window.BarcodeDetector;"

#: A browser that reads QR codes with the camera: BarcodeDetector and a camera stubbed (a
#: canvas's stream stands for the camera); ``detect`` finds window.__qr once set (never
#: when it is null), and getUserMedia's constraints are kept in window.__camera
READER = """
(() => {
  window.__qr = null;
  class BarcodeDetector {
    constructor(options) { this.formats = (options || {}).formats; }
    static async getSupportedFormats() { return window.__formats || ["qr_code", "ean_13"]; }
    async detect(source) { return window.__qr ? [{ rawValue: window.__qr, format: "qr_code" }] : []; }
  }
  window.BarcodeDetector = BarcodeDetector;
  if (!navigator.mediaDevices) return;
  navigator.mediaDevices.getUserMedia = async function (constraints) {
    window.__camera = constraints;
    const canvas = document.createElement("canvas");
    canvas.width = 320; canvas.height = 320;
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#445"; ctx.fillRect(0, 0, 320, 320);
    ctx.fillStyle = "#fff"; ctx.fillRect(90, 90, 140, 140);
    return canvas.captureStream(5);
  };
})();
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(the app's address, its group's play link token)."""
    path = tmp_path_factory.mktemp("join-paste") / "join.sqlite3"
    with serve(path) as base:
        yield base, group_token(path)


def newcomer(browser, size, locale="en", script=NO_READER):
    width, height = size
    page = new_page(browser, width=width, height=height, join=False, locale=LOCALES[locale])
    page.context.add_init_script(script)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def field(page):
    return page.locator(".paste-link input[name=link]")


def in_the_group(page, base: str) -> None:
    """The phone is in the group: its games page, with the group's name in the top bar,
    and it stays so (the welcome page no longer shows)."""
    expect(page.locator(".topbar-group")).to_be_visible()
    page.goto(base + "/welcome")
    assert page.url == base + "/"
    expect(page.locator(".topbar-group")).to_be_visible()


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_the_welcome_page_with_a_pasted_link_joins_the_group(browser, served, size):
    base, token = served
    page = newcomer(browser, size)
    try:
        page.goto(base + "/")
        expect(page.get_by_role("heading", name="Join your group")).to_be_visible()
        # no QR reader here: no Scan button, but how to join instead
        assert not page.get_by_role("button", name="Scan its QR code").is_visible()
        expect(page.get_by_text("In the app on the home screen: copy the group's link")).to_be_visible()
        # copied from a message, with another address of the server and a line break after it
        page.get_by_label("The group's link or code").fill(f"https://192.168.1.20:8000/g/{token}\n")
        page.get_by_role("button", name="Open the link").click()
        in_the_group(page, base)
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
@pytest.mark.parametrize("language", list(LOCALES))
def test_something_else_pasted_is_refused_beside_the_field_and_kept(browser, served, size, language):
    base, _ = served
    page = newcomer(browser, size, language)
    try:
        page.goto(base + "/")
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll
        shot(page, f"join-paste-welcome-{language}-{size[0]}")
        typed = "Anna, Ben und Carla"
        field(page).fill(typed)
        page.locator(".paste-link button[type=submit]").click()
        error = page.locator("#link-errors")
        expect(error).to_be_visible()
        # the refusal shown: the field's value, its aria-invalid, its box and the error's,
        # and the page's fit, in one call
        seen = field(page).evaluate(f"""(input) => ({{value: input.value, invalid: input.getAttribute("aria-invalid"),
            box: ({BOX})(input), under: ({BOX})(document.querySelector("#link-errors")), fits: {FITS_WIDTH}}})""")
        assert seen["value"] == typed
        assert seen["invalid"] == "true"
        # beside the field: right under it, inside the join panel
        box, under = seen["box"], seen["under"]
        assert 0 <= under["y"] - (box["y"] + box["height"]) < 40
        assert page.url == base + "/welcome"
        assert seen["fits"]  # no sideways scroll
        shot(page, f"join-paste-error-{language}-{size[0]}")
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_the_scan_button_shows_only_where_the_browser_reads_qr_codes(browser, served, size):
    base, _ = served
    for script, shown in ((NO_READER, False), (READER, True),
                          ("window.__formats = ['ean_13'];" + READER, False)):  # a reader, but not of QR codes
        page = newcomer(browser, size, script=script)
        try:
            page.goto(base + "/")
            scan = page.get_by_role("button", name="Scan its QR code")
            how = page.get_by_text("In the app on the home screen: copy the group's link")
            if shown:
                expect(scan).to_be_visible()
                expect(how).to_be_hidden()
            else:
                page.wait_for_load_state("load")
                expect(how).to_be_visible()
                assert scan.count() == 0 and page.locator("button[data-scan]").is_hidden()
            assert page.errors == []  # type: ignore[attr-defined]
        finally:
            page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_scanning_the_groups_qr_code_joins_the_group(browser, served, size):
    base, token = served
    page = newcomer(browser, size, script=READER)
    try:
        page.goto(base + "/")
        expect(page.get_by_role("button", name="Scan its QR code")).to_be_visible()
        shot(page, f"join-paste-scan-button-{size[0]}")
        page.get_by_role("button", name="Scan its QR code").click()
        expect(page.locator("[data-scanner] video")).to_be_visible()
        expect(page.get_by_text("Point the camera at the QR code")).to_be_visible()
        facing, fits = page.evaluate(f"[window.__camera.video.facingMode.ideal, {FITS_WIDTH}]")
        assert facing == "environment"  # the rear camera
        assert fits  # no sideways scroll
        shot(page, f"join-paste-scanning-{size[0]}")
        page.evaluate(f"window.__qr = {f'http://192.168.1.20:8000/g/{token}'!r}")  # the code comes into view
        in_the_group(page, base)
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_a_camera_that_does_not_open_says_what_to_do(browser, served):
    base, _ = served
    refused = READER + "navigator.mediaDevices.getUserMedia = async () => { throw new DOMException('no', 'NotAllowedError'); };"
    page = newcomer(browser, (360, 740), script=refused)
    try:
        page.goto(base + "/")
        page.get_by_role("button", name="Scan its QR code").click()
        expect(page.get_by_text("The camera did not open. Allow the camera for this page, or paste the link.")).to_be_visible()
        expect(page.locator("[data-scanner] video")).to_be_hidden()
        expect(page.get_by_role("button", name="Scan its QR code")).to_be_visible()  # to try again
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()
