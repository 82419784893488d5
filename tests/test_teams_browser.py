"""A partners' Trix game on a phone (390×844), in English and Arabic: the Teams row marks
the team that won by the game's own partnership rule, the explanations say why, and a
doubled card's mark stays after the card in a right-to-left page.

Screenshots go to screenshots/ (ignored by git): open them and look.
Numbers worked by hand from SCORING.md §2.5 in tests/test_explain_teams.py: Pia 200,
Quin 260, Rae −220, Sol −240; Sol's −240 is the worst, so under "worst loses" Quin & Sol
lose and Pia & Rae win, although their team total (−20) is the lower.
"""

from __future__ import annotations

import pytest

from tests.browser_support import new_page, serve, shot, store_game, sync_api
from tests.conftest import game_file
from tests.test_explain import KINGDOM

pytestmark = pytest.mark.browser

expect = sync_api.expect
NAMES = ["Pia", "Quin", "Rae", "Sol"]

# the background of each team cell, and of a winner's name above it
BACKGROUNDS = """() => ({
  teams: Array.from(document.querySelectorAll("thead .team-row .team-cell"), c => getComputedStyle(c).backgroundColor),
  winner: getComputedStyle(document.querySelector("thead th.winner")).backgroundColor,
})"""

# for each doubled card's mark: whether the ² is drawn to the right of the card's letter
MARK_AFTER = """() => Array.from(document.querySelectorAll(".doubled-mark bdi"), mark => {
  const walker = document.createTreeWalker(mark, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode);
  const first = texts.find(t => /[A-Za-z\\u0600-\\u06FF]/.test(t.data));
  const last = texts[texts.length - 1];
  const letter = document.createRange();
  const at = first.data.search(/[A-Za-z\\u0600-\\u06FF]/);
  letter.setStart(first, at); letter.setEnd(first, at + 1);
  const two = document.createRange();
  two.setStart(last, last.data.length - 1); two.setEnd(last, last.data.length);
  return two.getBoundingClientRect().left >= letter.getBoundingClientRect().right - 0.5;
})"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    database = tmp_path_factory.mktemp("teams") / "teams.sqlite3"
    with serve(database) as base:
        yield {"base": base, "database": database}


@pytest.mark.parametrize("code", ["en", "ar"])
def test_worst_loses_sheet_and_explanations_on_a_phone(site, browser, code):
    game_id = store_game(site["database"], game_file("trix", players=NAMES, first_dealer=1, deals=KINGDOM * 4,
                                                     options={"partnership": "worst-loses"}))
    page = new_page(browser, 390, 844, locale="ar-EG" if code == "ar" else None)
    try:
        page.goto(f"{site['base']}/language/{code}?next=/games/{game_id}")  # the sheet, in that language
        expect(page).to_have_url(f"{site['base']}/games/{game_id}")
        expect(page.locator("html")).to_have_attribute("lang", code)
        shot(page, f"teams-worst-sheet-{code}", full_page=False)
        shot(page, f"teams-worst-sheet-{code}-full")
        colours, marks = page.evaluate(f"[({BACKGROUNDS})(), ({MARK_AFTER})()]")  # in one call
        # Pia & Rae (seats 0 and 2) in the winners' gold, Quin & Sol not
        assert [c == colours["winner"] for c in colours["teams"]] == [True, False, True, False], colours
        assert all(marks), "a doubled card's ² stands before the card"

        page.goto(f"{site['base']}/games/{game_id}/explain/total?seat=0")
        expect(page.locator(".steps li").last).to_contain_text("Sol")
        shot(page, f"teams-worst-explain-total-{code}")
        page.locator(".steps").evaluate("el => el.scrollIntoView()")
        shot(page, f"teams-worst-explain-total-{code}-steps", full_page=False)
        page.goto(f"{site['base']}/games/{game_id}/explain/teams")
        expect(page.locator(".steps li").last).to_contain_text("Sol")
        shot(page, f"teams-worst-explain-teams-{code}", full_page=False)
    finally:
        page.context.close()
