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

from tests.browser_support import new_page, no_sideways_scroll, serve, shot, store_game
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
        assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "25.5px"  # 17/16 of 24
        totals = page.evaluate(TOTALS)
        assert [t["text"] for t in totals] == ["320", "400", "320"]
        assert not any(t["cut"] for t in totals), totals
        assert all(left["right"] <= right["left"] for left, right in itertools.pairwise(totals)), totals
        assert no_sideways_scroll(page)
        shot(page, "large-text-trigami-360", full_page=False)
        page.goto(f"{url}/games/{trix}")
        assert page.evaluate(BUTTONS_CUT) == []
        labels = page.locator(".contract-buttons .primary")
        assert labels.count() == 5  # every contract offered, none pushed off the phone
        for n in range(5):
            box = labels.nth(n).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        assert no_sideways_scroll(page)
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
            assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "17px"
            tops = {round(page.locator(".contract-buttons .primary").nth(n).bounding_box()["y"])
                    for n in range(page.locator(".contract-buttons .primary").count())}
            assert len(tops) == 1
        finally:
            page.context.close()
