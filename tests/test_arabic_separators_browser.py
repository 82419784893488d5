"""Issue 18, part 11, in headless Chromium at 390×844 and 360×740: on every Arabic page of
a game of each kind no "·" stands beside an Arabic-Indic digit (an Arabic zero "٠" beside
"·" reads as one more dot: «سارة ٠ · محمد ٠»), and "what was entered" lists with the
Arabic comma "،", never a Latin one. Screenshots: screenshots/arabic-*.png.
"""

from __future__ import annotations

import re

import pytest

from tests.browser_support import SCREENSHOTS, new_page, serve, shot, store_game, sync_api
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_gamefile import BUGAMI3_DEALS, TRIX_KINGDOM

pytestmark = pytest.mark.browser

expect = sync_api.expect
PHONES = [(390, 844), (360, 740)]
#: A "·" beside an Arabic-Indic digit, with at most spaces and direction marks between
#: (ALM, LRM, RLM, the isolates: invisible, so the eye sees them side by side)
DOT_BY_DIGIT = re.compile("[\u0660-\u0669][\\s\u061c\u200e\u200f\u2066-\u2069]*·|·[\\s\u061c\u200e\u200f\u2066-\u2069]*[\u0660-\u0669]")
ARABIC_NAMES = ["سارة", "محمد", "Anna", "Ben"]
# Kingdom 1 of tests/test_gamefile.py, the King doubled by محمد and taken back by him
# after Anna led to that trick: "what was entered" then lists three things about one card
KING_TAKEN_BACK = {"contracts": ["king"], "king": {"taker": 1, "doubled_by": 1, "leader": 2}}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    database = tmp_path_factory.mktemp("arabic") / "arabic.sqlite3"
    with serve(database) as base:
        games = {
            "trigami": store_game(database, game_file(players=ARABIC_NAMES[:3], deals=[WORKED_TRIGAMI_DEAL] * 2)),
            "bugami3": store_game(database, game_file("bugami3", players=ARABIC_NAMES[:3], deals=BUGAMI3_DEALS)),
            "trix": store_game(database, game_file("trix", players=ARABIC_NAMES, options={"partnership": "sum"},
                                                   deals=[KING_TAKEN_BACK, *TRIX_KINGDOM[1:]])),
        }
        yield {"base": base, "database": database, "games": games}


def _arabic_phone(browser, site, width: int, height: int):
    page = new_page(browser, width, height)
    page.context.add_cookies([{"name": "lang", "value": "ar", "url": site["base"]}])
    return page


def _no_dot_by_a_digit(page, where: str) -> None:
    """Neither the page's text nor its title has a "·" beside an Arabic-Indic digit, and
    the page is in Arabic-Indic digits at all (else the check would prove nothing)."""
    text, title = page.evaluate("[document.body.innerText, document.title]")
    assert re.search("[\u0660-\u0669]", text), where
    assert not DOT_BY_DIGIT.findall(text), (where, [text[max(0, m.start() - 20):m.end() + 20]
                                                    for m in DOT_BY_DIGIT.finditer(text)])
    assert not DOT_BY_DIGIT.search(title), (where, title)


@pytest.mark.parametrize("width,height", PHONES, ids=["390", "360"])
def test_no_dot_beside_an_arabic_digit_and_lists_with_the_arabic_comma_on_any_arabic_page(site, browser, width, height):
    """Issue 18, part 11: "in the preview bar the separator '·' beside an Arabic zero '٠'
    reads as a row of dots («سارة ٠ · محمد ٠»), also in the printable sheet's header."
    Every page of a game of each kind, as an Arabic phone shows it: the home page, the
    players, the sheet, the deal form with its preview bar, the printable sheet, the
    history, the players and settings, each explanation, a player's page, the calculator.

    And ""what was entered" mixes a Latin comma into Arabic." The King doubled by محمد and
    taken back by him after Anna led to that trick: its line under "what was entered"
    joins the three with "،"; so do a Trigami deal's and the history's."""
    page = _arabic_phone(browser, site, width, height)
    base = site["base"]
    trix = site["games"]["trix"]
    try:
        pages = ["/", "/players", "/calculator?kind=trix"]
        entered = []  # the explanations whose "what was entered" is read for its commas
        for kind, game_id in site["games"].items():
            game = f"/games/{game_id}"
            pages += [game, f"{game}/print", f"{game}/history", f"{game}/edit", f"{game}/explain/1?seat=0",
                      f"{game}/explain/total?seat=1", f"{game}/explain/dealer", f"{game}/what-if?deal=1"]
            if kind == "trix":
                pages += [f"{game}/explain/kingdom/1", f"{game}/explain/teams"]
            else:
                entered.append(f"{game}/explain/1?seat=0")
        for address in pages:
            response = page.goto(base + address)
            assert response is not None and response.status == 200, address
            _no_dot_by_a_digit(page, address)
            if address == f"/games/{trix}":  # the address of its deal 1's delete page
                delete = page.locator("#deal-1 th a").get_attribute("href").replace("/edit", "/delete")
            if address == "/players":  # the address of each player's page
                players = page.evaluate("() => Array.from(document.querySelectorAll(\"main a[href^='/players/']\"),"
                                        " (a) => a.getAttribute('href'))")
            if address in entered:
                assert "," not in page.locator("section.entered").inner_text()
            if address.endswith("/history"):
                history = page.locator("main").inner_text()
                assert "," not in history, history
        # a deal's delete page, and each player's page
        page.goto(base + delete)
        _no_dot_by_a_digit(page, "delete")
        assert players
        for address in players:
            page.goto(base + address)
            _no_dot_by_a_digit(page, address)

        # the deal form's preview bar: the King of Hearts taken by Ben (−75), three zeros
        page.goto(f"{base}/games/{trix}/deals/new?contract=king")
        page.locator(".block-king fieldset").first.get_by_text("Ben", exact=True).click()
        line = page.locator("[data-preview-line]")
        expect(line).to_contain_text("٧٥")
        shot(page, f"arabic-preview-bar-{width}", full_page=False)
        assert line.inner_text().count("،") == 3, line.inner_text()  # four players, the Arabic comma between
        _no_dot_by_a_digit(page, "the deal form's preview")

        # what was entered for the King taken back: taker، doubled by، who led
        page.goto(f"{base}/games/{trix}/explain/1?seat=1")
        entered_king = page.locator("section.entered")
        expect(entered_king).to_contain_text("محمد")
        said = entered_king.inner_text()
        assert "," not in said, said
        assert said.count("،") >= 2, said  # taker، doubled by، who led
        shot(page, f"arabic-entered-{width}", full_page=False)

        if SCREENSHOTS:  # a page to look at, nothing asserted (make screenshots)
            page.goto(f"{base}/games/{trix}/print")
            shot(page, f"arabic-print-{width}", full_page=False)
    finally:
        page.context.close()
