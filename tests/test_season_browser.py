"""The season page (issue 20, part 4) in headless Chromium on a phone (390 × 844), in
English and Arabic (and German and Finnish, whose headers are longest): the three nights of tests/test_season.py played through the pages,
then the season table, a player's nights and the past nights; screenshots into
screenshots/season-*.png (look at them), nothing scrolls sideways, the shared rank
shows.
"""

from __future__ import annotations

import pytest

from tests.a11y_support import Audit, audited_page
from tests.browser_support import PHONE_LOCALES as LOCALES
from tests.browser_support import new_page, no_sideways_scroll, served_to_play, shot, sync_api
from tests.test_season import ALL_TIME, B, E, play_season

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app with the three nights played (through the pages of a test client on the
    same database): (its URL, its database file)."""
    path = tmp_path_factory.mktemp("season") / "season.sqlite3"
    with served_to_play(path) as (url, client, db):
        play_season(client, db)
        yield url, str(path)


def texts(page, selector: str) -> list[str]:
    """The text of each element ``selector`` finds, as read."""
    return [text.strip() for text in page.evaluate("(s) => Array.from(document.querySelectorAll(s), (e) => e.innerText)",
                                                   selector)]


def names(page) -> list[str]:
    return texts(page, "table.season-table tbody th")


#: The season page at once: the names of its table, how many nights it lists, the way
#: the page reads, its width and the phone's (the root's clientWidth: the window grows with
#: a page wider than the phone, tests/browser_support.py FITS_WIDTH)
SEASON_SEEN = """() => ({names: Array.from(document.querySelectorAll("table.season-table tbody th"), (e) => e.innerText),
  nights: document.querySelectorAll(".season-nights li").length, dir: document.documentElement.getAttribute("dir"),
  width: document.documentElement.scrollWidth, room: document.documentElement.clientWidth})"""


@pytest.mark.parametrize("language", ["en", "ar", "de", "fi"])
def test_the_season_on_a_phone(browser, server, language):
    server, _database = server
    page = new_page(browser, locale=LOCALES[language])
    try:
        page.goto(f"{server}/season")
        sync_api.expect(page.locator("table.season-table")).to_be_visible()
        seen = page.evaluate(SEASON_SEEN)
        assert [name.strip() for name in seen["names"]] == ALL_TIME
        assert seen["nights"] == 3
        if language == "ar":
            assert seen["dir"] == "rtl"
        assert seen["width"] <= seen["room"] + 1  # no sideways scroll
        # a phone's browser widens its page to fit what overflows: nothing may
        assert seen["width"] <= 390
        shot(page, f"season-{language}")
        # the last 12 months: Bruno and Eeva share the second rank
        page.goto(f"{server}/season?period=months")
        ranks = texts(page, "table.season-table td.rank")
        shared = {name for name, rank in zip(names(page), ranks, strict=True) if rank.endswith("=")}
        assert shared == {B, E}
        assert no_sideways_scroll(page)
        shot(page, f"season-months-{language}")
        # a name opens the nights that make up that player's line
        page.get_by_role("link", name=B, exact=False).first.click()
        sync_api.expect(page.locator(".season-line")).to_be_visible()
        assert len(page.locator("table.season-table tbody tr").all()) == 2
        assert no_sideways_scroll(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, f"season-player-{language}")
    finally:
        page.context.close()


def test_the_season_table_fits_a_360_px_phone_in_every_language(browser, server):
    # seven columns on the narrowest common phone (a fresh tester found the score cut off
    # and the page sliding sideways in English, German and Arabic): every column in sight
    server, _database = server
    for language in ("en", "de", "fi", "ar"):
        page = new_page(browser, 360, 740, locale=LOCALES[language])
        try:
            for address in ("/season", "/season?period=months"):
                page.goto(f"{server}{address}")
                sync_api.expect(page.locator("table.season-table")).to_be_visible()
                width, edges = page.evaluate("[document.documentElement.scrollWidth, "
                                             "Array.from(document.querySelectorAll('table.season-table th, "
                                             "table.season-table td'), (c) => { const b = c.getBoundingClientRect(); "
                                             "return [b.left, b.right]; })]")
                assert width <= 360, (language, address)
                assert edges and all(left >= 0 and right <= 360 for left, right in edges), (language, address)
            shot(page, f"season-360-{language}")
        finally:
            page.context.close()


def test_the_season_pages_meet_wcag_22_aa(browser, server):
    """axe and the measured contrasts (tests/test_a11y_browser.py's audit) on the season,
    a player's season, and the season with a day it cannot read."""
    from scorekeeper import groups, store
    from scorekeeper.db import connect

    server, path = server
    page = audited_page(browser)
    audit = Audit(page)
    try:
        database = connect(path)
        try:
            bruno = next(pid for pid, name in store.player_names(database, groups.only_group(database).id).items()
                         if name == B)
        finally:
            database.conn.close()
        for address in ("/season", "/season?period=months", f"/season/players/{bruno}?period=months",
                        "/season?period=days&start=2026-02-30&kind=trigami"):
            audit.visit(server, address)
        assert not audit.problems, audit.report()
    finally:
        page.context.close()


#: Where each minus sign of an element's text is drawn beside its number's digits:
#: "right" of all of them, "left" of all, or "between"
MINUS_SIDE = """(el) => {
  const out = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const t = node.textContent;
    const box = (k) => { const r = document.createRange(); r.setStart(node, k); r.setEnd(node, k + 1);
                         return r.getBoundingClientRect(); };
    for (let i = 0; i < t.length; i++) {
      if (t[i] !== "\\u2212") continue;
      const minus = box(i), digits = [];
      for (let j = i + 1; j < t.length && /[0-9\\u0660-\\u0669]/.test(t[j]); j++) digits.push(box(j));
      out.push(digits.every(d => minus.left >= d.right - 0.5) ? "right"
               : digits.every(d => minus.right <= d.left + 0.5) ? "left" : "between");
    }
  }
  return out;
}"""


@pytest.mark.parametrize("digits", ["arab", "latn"])
def test_a_negative_score_shows_its_minus_alike_in_the_table_and_the_sentence(browser, tmp_path, digits):
    """Arabic, Arabic-Indic digits or Western ones chosen: Aino's −75 in her season's
    table and in the sentence adding up her total (−75 + 0 = −75) has its minus on the
    same side of its digits: before the number as the line is read (right of the digits
    in right-to-left Arabic-Indic; left of Western digits, which read left to right)."""
    from tests.test_season import negative_season

    with served_to_play(tmp_path / "negative.sqlite3") as (url, client, db):
        aino = negative_season(client, db)
        page = new_page(browser, locale="ar-EG")
        try:
            if digits == "latn":
                page.context.add_cookies([{"name": "digits", "value": "latn", "url": url}])
            page.goto(f"{url}/season/players/{aino}")
            table = page.locator("table.season-table td.score").first.evaluate(MINUS_SIDE)
            total = page.locator(".season-line li").filter(has_text="=").last.evaluate(MINUS_SIDE)
            side = "right" if digits == "arab" else "left"
            assert table == [side]
            assert total == [side, side]  # "−75 + 0 = −75": both minus signs as the table's
            page.goto(f"{url}/season")
            row = page.locator("table.season-table tbody tr").filter(has_text="Aino")
            assert row.locator("td.score").evaluate(MINUS_SIDE) == [side]
            shot(page, f"season-negative-ar-{digits}")
        finally:
            page.context.close()
