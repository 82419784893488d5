"""The language switch in headless Chromium at 390×844: a phone switches from the score
sheet, the sheet comes back in that language, and the choice stays on the next page and
the next visit; the switch clears the sheet's fixed bar and is big enough to tap.
Screenshots: screenshots/language-*.png — open them and look.
"""

from __future__ import annotations

import pytest

from tests.browser_support import BOX, FITS_WIDTH, new_page, serve, shot, store_game, sync_api
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_gamefile import TRIX_KINGDOM

pytestmark = pytest.mark.browser

expect = sync_api.expect


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    path = tmp_path_factory.mktemp("languages-browser") / "languages.sqlite3"
    with serve(path) as url:
        trigami = store_game(path, game_file(deals=[WORKED_TRIGAMI_DEAL] * 2))
        trix = store_game(path, game_file("trix", deals=TRIX_KINGDOM[:3]))
        yield {"url": url, "trigami": trigami, "trix": trix, "database": path}


def switch(page, name: str) -> None:
    """Tap the language called ``name`` (in its own language) at the foot of the page."""
    link = page.get_by_role("navigation", name=page.locator("nav.languages").get_attribute("aria-label")) \
        .get_by_role("link", name=name, exact=True)
    link.scroll_into_view_if_needed()
    # the link's box (BOX) and what a finger at its middle touches, in one call
    box, touched = link.evaluate(f"""(link) => {{
        const box = ({BOX})(link);
        return [box, box && document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)
                                     .closest('nav.languages a')?.textContent];
    }}""")
    assert box["height"] >= 24 and box["width"] >= 24  # WCAG 2.5.8
    # not under the sheet's fixed bar: the link itself is what a finger at its middle touches
    assert touched == name
    with page.expect_navigation():
        link.tap()


def test_switching_language_from_the_sheet_brings_it_back_in_that_language_and_keeps_it(site, browser):
    page = new_page(browser)
    try:
        sheet = f"{site['url']}/games/{site['trix']}"
        page.goto(sheet)
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("nav.languages a[aria-current]")).to_have_text("English")

        switch(page, "Deutsch")
        assert page.url == sheet  # the same page, now in German
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.get_by_role("link", name="Spieler", exact=True)).to_be_visible()
        expect(page.locator("nav.languages a[aria-current]")).to_have_text("Deutsch")
        shot(page, "language-sheet-de")

        page.get_by_role("link", name="Spieler", exact=True).click()  # the next page: German still
        page.wait_for_url(f"{site['url']}/players")
        expect(page.locator("html")).to_have_attribute("lang", "de")

        switch(page, "العربية")
        assert page.url == f"{site['url']}/players"
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        page.goto(f"{site['url']}/games/{site['trigami']}")  # another visit: kept on this phone
        expect(page.locator("html")).to_have_attribute("lang", "ar")
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(page, "language-sheet-ar")

        switch(page, "Suomi")
        expect(page.locator("html")).to_have_attribute("lang", "fi")
        expect(page.locator("html")).to_have_attribute("dir", "ltr")
        cookie = next(c for c in page.context.cookies() if c["name"] == "lang")
        assert cookie["value"] == "fi" and cookie["sameSite"] == "Lax" and cookie["httpOnly"]
    finally:
        page.context.close()


def test_the_switch_works_without_javascript_and_without_a_group(site, browser):
    page = new_page(browser, javascript=False, join=False)
    try:
        page.goto(f"{site['url']}/welcome")
        switch(page, "Suomi")
        assert page.url == f"{site['url']}/welcome"
        expect(page.locator("html")).to_have_attribute("lang", "fi")
        shot(page, "language-welcome-fi")
    finally:
        page.context.close()


# Each filter select's chosen choice: its text's width (a canvas measures it in the
# select's font) against the room the select gives it (its width less its padding and
# the arrow's 24 px); each game card's date: how many lines it takes
FILTERS_AND_DATES = """() => {
  const pen = document.createElement("canvas").getContext("2d");
  const selects = Array.from(document.querySelectorAll(".filter-form select"), (s) => {
    const style = getComputedStyle(s);
    pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = s.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd) - 24;
    return [s.name, s.options[s.selectedIndex].text, pen.measureText(s.options[s.selectedIndex].text).width <= room];
  });
  const dates = Array.from(document.querySelectorAll(".game-card-when time"), (t) => {
    const range = document.createRange();
    range.selectNodeContents(t);
    return [t.textContent.trim(), new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size];
  });
  const days = document.querySelector(".filter-form .date-range + .hint");
  return {selects, dates, days: days && days.textContent.trim()};
}"""


#: "Days are counted in your time zone." in Finnish
DAYS_LOCAL_FI = "Päivät lasketaan aikavyöhykkeesi mukaan."


def test_the_finnish_games_list_shows_each_filter_choice_and_date_whole(browser, site):
    """Tester 39 at 390 px in Finnish: the "Näytä" filter's default, "Kesken olevat ja
    päättyneet" (unfinished and finished), showed cut to "Kesken olevat", which reads as
    another choice; and a plain Bugami game's date broke as "6.12.202 / 6" beside its long
    name, "Tavallinen Bugami kolmelle"."""
    store_game(site["database"], game_file("bugami3"))
    page = new_page(browser)
    try:
        page.context.add_cookies([{"name": "lang", "value": "fi", "url": site["url"]}])
        page.goto(f"{site['url']}/")
        page.get_by_text("Etsi aiempia pelejä").click()
        seen = page.evaluate(FILTERS_AND_DATES)
        shot(page, "language-fi-games-list")
        assert seen["dates"] and all(lines == 1 for _, lines in seen["dates"]), seen["dates"]
        assert [whole for _, _, whole in seen["selects"]] == [True] * 3, seen["selects"]
        assert ["status", "Kesken olevat ja päättyneet", True] in seen["selects"]
        # the next search counts the phone's days (its time zone sent with it), said at once,
        # not "in UTC" until a first search (tester 39, on a phone in Helsinki)
        assert seen["days"] == DAYS_LOCAL_FI
    finally:
        page.context.close()


def test_the_finnish_deals_next_stands_whole_on_a_small_phone(browser, site):
    """Tester 51 at 320 px in Finnish: over the third player's column the badge "jakaa
    seuraavaksi" (deals next) showed "seuraavaks", its last letter cut off at the page's
    edge. A word of it wider than the column is made smaller until it fits, whole inside
    the badge and the page."""
    page = new_page(browser, 320, 640)
    try:
        page.context.add_cookies([{"name": "lang", "value": "fi", "url": site["url"]}])
        page.goto(f"{site['url']}/games/{site['trigami']}")  # two deals: the third seat deals next
        badge = page.locator("thead .dealer-badge:not(.badge-space)")
        expect(badge).to_have_text("jakaa seuraavaksi")
        seen = badge.evaluate("""(badge) => ({whole: badge.scrollWidth <= badge.clientWidth,
            inside: badge.getBoundingClientRect().right <= document.documentElement.clientWidth,
            column: badge.closest("th").cellIndex})""")
        assert seen == {"whole": True, "inside": True, "column": 3}
    finally:
        page.context.close()
