"""Headless Chromium at phone size: the paper sheet check, importing a file, the printable
sheet (on screen, as printed, and as a PDF on A4).

Uses the system's Chromium (never a downloaded browser): CHROMIUM or /usr/bin/chromium.
Screenshots go to screenshots/ (ignored by git) — open them and look.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.browser_support import FITS_WIDTH, SCREENSHOTS, SHOTS, serve, shot, sync_api
from tests.conftest import game_file
from tests.test_gamefile import TRIX_KINGDOM

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("transfer-browser") / "browser.sqlite3") as url:
        yield url


def import_game(page, server, data) -> str:
    """Import a game file through the upload page; returns the game's address."""
    page.goto(f"{server}/games/new")
    page.get_by_role("link", name="Import a game file").click()
    page.set_input_files("input[type=file]", files=[{
        "name": "game.json", "mimeType": "application/json",
        "buffer": json.dumps(data, ensure_ascii=False).encode()}])
    page.get_by_role("button", name="Import").click()
    sync_api.expect(page.locator(".flash")).to_contain_text("Imported")
    return page.url


def test_paper_check_marks_rows_on_a_phone(page, server):
    page.goto(f"{server}/check?kind=trix")
    for seat, name in enumerate(["Anna", "Ben", "Carla", "Dan"]):
        page.fill(f"#n{seat}", name)
    rows = [("King of Hearts", ["0", "75", "-150", ""]),       # right: Ben doubled, Carla took it
            ("Queens", ["-25", "-25", "-25", ""]),            # −75: a queen is missing
            ("Diamonds", ["-30", "-40", "-25", "-35"]),       # −130, but −25 and −35
            ("Tricks", ["-45", "-45", "-60", "-45"]),
            ("Trix", ["150", "50", "200", "100"])]
    for number, (contract, points) in enumerate(rows, 1):
        card = page.locator(f"#row-{number}")
        card.locator(".paper-contracts label", has_text=re.compile(contract)).first.click()
        for seat, value in enumerate(points):
            if value:
                card.locator("input.count-input").nth(seat).fill(value)
    assert page.evaluate(FITS_WIDTH)  # no sideways scroll
    page.get_by_role("button", name="Check").click()

    sync_api.expect(page.locator("#summary")).to_contain_text("cannot be right")
    sync_api.expect(page.locator("#row-1")).to_have_class(re.compile(r"\bok\b"))
    sync_api.expect(page.locator("#row-2")).to_contain_text("Queens: −100 in all, but this row adds up to −75")
    sync_api.expect(page.locator("#row-3")).to_contain_text("\u2068Carla\u2069: −25 is not a whole number of diamonds")
    sync_api.expect(page.locator("#row-5")).to_contain_text("Kingdom 1: its deals add up to +25, not 0")
    kept, fits = page.evaluate(f"[document.querySelectorAll('#row-2 input.count-input')[0].value, {FITS_WIDTH}]")
    assert kept == "-25"  # kept
    assert fits  # no sideways scroll
    shot(page, "transfer-1-paper-check")
    page.locator("#row-2").scroll_into_view_if_needed()
    shot(page, "transfer-2-paper-check-row", full_page=False)


def test_paper_check_trigami_with_totals(page, server):
    page.goto(f"{server}/check?kind=trigami")
    page.locator("label", has_text="I also wrote the running totals").click()
    sync_api.expect(page.locator("#row-1 .paper-totals")).to_be_visible()
    values = [("80", "200", "13"), ("1", "50", "100")]
    totals = [("80", "200", "13"), ("81", "250", "103")]
    for number, (points, written) in enumerate(zip(values, totals, strict=True), 1):
        inputs = page.locator(f"#row-{number} input.count-input")
        for seat in range(3):
            inputs.nth(seat).fill(points[seat])
            inputs.nth(3 + seat).fill(written[seat])
    page.get_by_role("button", name="Check").click()
    sync_api.expect(page.locator("#row-2")).to_contain_text("no counts give 1")
    # Carla: 13 written after deal 1, +100 → 113, but 103 was written
    sync_api.expect(page.locator("#row-2")).to_contain_text("the total should be 13 + 100 = 113, not 103")
    assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
    shot(page, "transfer-3-paper-check-trigami")


def test_printable_sheet_on_screen_in_print_and_on_a4(page, server, tmp_path):
    players = ["Anna-Maria Katariina", "Bartholomew", "Ελένη", "李娜"]
    import_game(page, server, game_file("trix", players=players, deals=TRIX_KINGDOM * 4))
    page.get_by_role("link", name="Printable sheet").click()
    sync_api.expect(page.locator(".paper-check.ok")).to_have_count(4)
    sync_api.expect(page.get_by_role("button", name="Print")).to_be_visible()  # with JavaScript
    assert page.evaluate(FITS_WIDTH)  # no sideways scroll
    shot(page, "transfer-4-print-screen")

    page.emulate_media(media="print")
    sync_api.expect(page.locator(".topbar")).to_be_hidden()
    sync_api.expect(page.locator(".print-tools")).to_be_hidden()
    page.set_viewport_size({"width": 703, "height": 1033})  # A4 less 12 mm margins, at 96 dpi
    shot(page, "transfer-5-print-media")

    pdf = page.pdf(path=str(SHOTS / "transfer-6-print.pdf") if SCREENSHOTS else None, prefer_css_page_size=True,
                   print_background=False)
    # one A4 page: 20 deals, 4 kingdom headings and checks, totals and the winner
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
    mediabox = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)", pdf)
    assert mediabox and round(float(mediabox.group(1))) == 595 and round(float(mediabox.group(2))) == 842


def test_printable_sheet_with_forty_letter_names_stays_on_the_page(page, server):
    """Names of 40 letters with no space (the longest a name may be), one of them taking
    over a seat: the kingdoms' and the seat change's lines wrap, a name breaking inside
    itself, so the sheet keeps the phone's width and, printed, A4's (tester 12, MEDIUM: a
    line 864 px wide on a 718 px page would lose the name of the player who left)."""
    players = ["محمد" * 10, "فاطمة" * 8, "C" * 40, "D" * 40]
    data = {**game_file("trix", players=players, deals=TRIX_KINGDOM * 2),
            "seat_changes": [{"from_deal": 2, "seat": 1, "player": "Z" * 40}]}
    import_game(page, server, data)
    page.get_by_role("link", name="Printable sheet").click()
    sync_api.expect(page.locator(".paper-kingdom")).to_have_count(3)  # two kingdoms, one seat change
    assert page.evaluate(FITS_WIDTH)  # no sideways scroll
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 703, "height": 1033})  # A4 less 12 mm margins, at 96 dpi
    # the page's width and each line's cell (its text, whether it holds it) in one call
    width, cells = page.evaluate("""[document.documentElement.scrollWidth,
        Array.from(document.querySelectorAll(".paper-kingdom td"), (cell) => [cell.scrollWidth <= cell.clientWidth,
                                                                           cell.innerText])]""")
    assert width <= 703
    assert cells  # the kingdoms' and the seat change's lines
    for whole, text in cells:
        assert whole, text
    shot(page, "transfer-8-print-long-names")


def test_bad_upload_lists_every_problem_on_a_phone(page, server):
    deals = [dict(TRIX_KINGDOM[0]), dict(TRIX_KINGDOM[0]), {"contracts": ["diamonds"], "diamonds": [3, 4, 2, 3]}]
    page.goto(f"{server}/games/import")
    page.set_input_files("input[type=file]", files=[{
        "name": "evening.json", "mimeType": "application/json",
        "buffer": json.dumps(game_file("trix", deals=deals)).encode()}])
    page.get_by_role("button", name="Import").click()
    problems = page.locator(".upload-problems")
    sync_api.expect(problems).to_contain_text("evening.json has these problems")
    sync_api.expect(problems).to_contain_text("Deal 2")
    sync_api.expect(problems).to_contain_text("Deal 3")
    assert page.evaluate(FITS_WIDTH)  # no sideways scroll
    shot(page, "transfer-7-upload-problems")
