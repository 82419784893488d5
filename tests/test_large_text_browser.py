"""A phone whose text is set larger (tester 16, MEDIUM): the browser's own default text
size, 1.5 times the usual (Chromium's font size setting, as a phone's larger text sets it),
on a 360 px phone. The app's text follows it (static/app.css: the root size is a share of
the browser's, not 17 px whatever the phone says), and the score sheets still read: each
total apart from its neighbours (they ran together as "320400320"), no sideways
scrolling, and every contract button's words whole, in a second row where one row has
no room (they ran out of their buttons)."""

from __future__ import annotations

import itertools

import pytest

from tests.browser_support import BOX, FITS_WIDTH, new_page, serve, shot, store_game
from tests.conftest import game_file
from tests.test_gamefile import TRIX_KINGDOM, plain_deal

pytestmark = pytest.mark.browser

#: Totals as wide as three columns' can be: 320, 400, 320 after four deals
TRIGAMI = game_file(deals=[plain_deal([4, 5, 4], [0, 0, 0])] * 4)
TRIX = game_file("trix", players=["Alexandra", "Maximilian", "Christopher", "Bartholomew"])

#: Each total's box, and whether its digits run out of it
TOTALS = """[...document.querySelectorAll('thead .total')].map((t) => {
  const box = t.getBoundingClientRect();
  return {left: box.left, right: box.right, cut: t.scrollWidth > t.clientWidth + 1, text: t.textContent.trim()};
})"""
#: The contract buttons whose words run out of them
BUTTONS_CUT = """[...document.querySelectorAll('.contract-buttons .primary')]
  .filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent.trim())"""


#: The contract buttons' boxes (:data:`BOX`)
BUTTON_BOXES = f"Array.from(document.querySelectorAll('.contract-buttons .primary'), {BOX})"
#: The page's text size, as its root's computed style gives it
TEXT_SIZE = "getComputedStyle(document.documentElement).fontSize"


@pytest.fixture
def larger_text(browser):
    """A 360 px phone whose browser text size is 24 px, 1.5 times the usual 16."""
    page = new_page(browser, 360, 740)
    session = page.context.new_cdp_session(page)
    session.send("Page.setFontSizes", {"fontSizes": {"standard": 24, "fixed": 20}})
    yield page
    page.context.close()


def test_the_score_sheets_read_with_the_phones_text_set_larger(larger_text, tmp_path):
    page = larger_text
    database = tmp_path / "large.sqlite3"
    with serve(database) as url:
        trigami, trix = store_game(database, TRIGAMI), store_game(database, TRIX)
        page.goto(f"{url}/games/{trigami}")
        # the loaded sheet's text size, totals and fit in one call
        size, totals, fits = page.evaluate(f"[{TEXT_SIZE}, {TOTALS}, {FITS_WIDTH}]")
        assert size == "25.5px"  # 17/16 of 24
        assert [t["text"] for t in totals] == ["320", "400", "320"]
        assert not any(t["cut"] for t in totals), totals
        assert all(left["right"] <= right["left"] for left, right in itertools.pairwise(totals)), totals
        assert fits  # no sideways scroll
        shot(page, "large-text-trigami-360", full_page=False)
        page.goto(f"{url}/games/{trix}")
        # the contract buttons' words cut, their boxes, and the page's fit in one call
        cut, boxes, fits = page.evaluate(f"[{BUTTONS_CUT}, {BUTTON_BOXES}, {FITS_WIDTH}]")
        assert cut == []
        assert len(boxes) == 5  # every contract offered, none pushed off the phone
        for box in boxes:
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        assert fits  # no sideways scroll
        shot(page, "large-text-trix-360", full_page=False)


def test_the_usual_text_size_is_the_same_as_before(browser, tmp_path):
    """At the browser's usual 16 px the app's text is 17 px, as it always was, and a
    Trix sheet's five contract buttons share one row."""
    database = tmp_path / "usual.sqlite3"
    with serve(database) as url:
        trix = store_game(database, {**TRIX, "deals": TRIX_KINGDOM[:1]})
        page = new_page(browser, 360, 740)
        try:
            page.goto(f"{url}/games/{trix}")
            size, boxes = page.evaluate(f"[{TEXT_SIZE}, {BUTTON_BOXES}]")
            assert size == "17px"
            tops = {round(box["y"]) for box in boxes}
            assert len(tops) == 1
        finally:
            page.context.close()


#: A kingdom in which Alexandra takes every card that costs (the King doubled, the four
#: Queens doubled, 13 diamonds, 13 tricks) and comes last in Trix: four such kingdoms leave
#: her at −2,500 (SCORING.md §2: −150, −200, −130, −195, +50 a kingdom), a total of five
#: characters in each of four columns
COSTLY_KINGDOM = [
    {"contracts": ["king"], "king": {"taker": 0, "doubled_by": 1, "leader": None}},
    {"contracts": ["queens"], "queens": {suit: {"taker": 0, "doubled_by": 2} for suit in "SHDC"}},
    {"contracts": ["diamonds"], "diamonds": [13, 0, 0, 0]},
    {"contracts": ["tricks"], "tricks": [13, 0, 0, 0]},
    {"contracts": ["trix"], "trix": [3, 2, 1, 0]},
]
#: The printable sheet's cells whose text runs out of them (past their box, into the next);
#: what only a screen reader reads (visually-hidden) is left aside
PAPER_CUT = """[...document.querySelectorAll('.paper-table th, .paper-table td')].filter((cell) => {
  const box = cell.getBoundingClientRect();
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || node.parentElement.closest(".visually-hidden")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const text = range.getBoundingClientRect();
    if (text.left < box.left - 1 || text.right > box.right + 1) return true;
  }
  return cell.scrollWidth > cell.clientWidth + 1;
}).map((cell) => cell.textContent.replace(/\\s+/g, " ").trim())"""


@pytest.mark.parametrize("text_size", [16, 24], ids=["usual text", "text 1.5 times"])
def test_a_long_trix_games_printable_sheet_fits_a_360_pixel_phone(browser, tmp_path, text_size):
    """The printable sheet (tester 17, MEDIUM): four columns of totals down to −2,500 on a
    360 px phone ran into each other ("−1250350") at the usual text size already, and at
    1.5 times the page scrolled sideways. Every number stays in its own cell, in English
    and in Arabic (its digits and marks), with the teams' row of a partnership game."""
    database = tmp_path / "paper.sqlite3"
    page = new_page(browser, 360, 740)
    try:
        page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": text_size, "fixed": 13}})
        with serve(database) as url:
            game = store_game(database, game_file("trix", players=TRIX["players"], options={"partnership": "sum"},
                                                  deals=COSTLY_KINGDOM * 4))
            for language in ("en", "ar"):
                page.goto(f"{url}/language/{language}?next=/games/{game}/print")
                # the loaded sheet's first total, its teams' cells, the cells cut and its fit in one call
                first, teams, cut, fits = page.evaluate(f"""[document.querySelector(".paper-total td").innerText,
                    document.querySelectorAll(".paper-teams td").length, {PAPER_CUT}, {FITS_WIDTH}]""")
                assert first == ("−2500" if language == "en" else "\u061c−٢٥٠٠")
                assert teams == 4
                assert cut == []
                assert fits  # no sideways scroll
                shot(page, f"paper-trix-360-{language}-{text_size}px")
    finally:
        page.context.close()
