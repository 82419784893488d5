"""The ranking on /players and a player's rating (issue 20, part 4) in headless Chromium
on a phone (390 × 844), in English and Arabic: screenshots into screenshots/ (look at
them), nothing scrolls sideways, ranks are shared, a bad day is explained beside its
field.

The games (SCORING.md §1.2, §1.4; the worked deal, target 150: seat 1 first, seat 0
second, seat 2 third) — Sami wins twice, Ben once and is second once:

    Anna-Maria Katariina · Ben · Sami       Ben first
    Ben · Sami · Anna-Maria Katariina       Sami first
    Dorothea · Sami · Ben                   Sami first
    Trix, partners (sum), the kingdom of tests/test_gamefile.py four times: Anna-Maria
    Katariina + Sami −20, Ben + Dorothea +20: Ben and Dorothea's side first.
    Trigami to 100, one plain deal: Anna-Maria Katariina and Dorothea level second at 20,
    Sami first with 100.
"""

from __future__ import annotations

import re

import pytest

from tests.browser_support import (
    BOX,
    FITS_WIDTH,
    PHONE_LOCALES,
    new_page,
    shot,
    sync_api,
    words_cut,
)
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_gamefile import TRIX_KINGDOM
from tests.test_ratings import TIE_DEAL

pytestmark = pytest.mark.browser

ANNA, BEN, SAMI, DORA = "Anna-Maria Katariina", "Ben", "سامي", "Dorothea"
LOCALES = {"en": "en-GB", "ar": "ar-EG"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app with the games above: (base URL, {name: player id})."""
    from scorekeeper import groups, store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.browser_support import serve

    path = tmp_path_factory.mktemp("ratings") / "ratings.sqlite3"
    with serve(path) as url:
        db = connect(str(path))
        try:
            for players in ([ANNA, BEN, SAMI], [BEN, SAMI, ANNA], [DORA, SAMI, BEN]):
                store.create_game(db, from_dict(game_file(players=players, options={"target": 150},
                                                          deals=[WORKED_TRIGAMI_DEAL])))
            store.create_game(db, from_dict(game_file("trix", players=[ANNA, BEN, SAMI, DORA],
                                                      options={"partnership": "sum"}, deals=TRIX_KINGDOM * 4)))
            store.create_game(db, from_dict(game_file(players=[ANNA, DORA, SAMI], options={"target": 100},
                                                      deals=[TIE_DEAL])))
            ids = {name: pid for pid, name in store.player_names(db, groups.only_group(db).id).items()}
        finally:
            db.conn.close()
        yield url, ids


#: JavaScript: the ranking table's [rank, name] pairs as shown (their text, untrimmed)
ROWS = """Array.from(document.querySelectorAll("table.ranking-table tbody tr"),
  (row) => [row.querySelector("td.rank").innerText, row.querySelector("th").innerText])"""


def rows(page, seen: list[list[str]] | None = None) -> list[tuple[str, str]]:
    """The ranking table's (rank, name) pairs as shown: read from the page, or from
    ``seen`` (:data:`ROWS` as read with other things in one call)."""
    return [(rank.strip(), name.strip()) for rank, name in (page.evaluate(ROWS) if seen is None else seen)]


#: JavaScript: how many lines an element's text takes on the screen
LINES_OF = ("(el) => { const r = document.createRange(); r.selectNodeContents(el);"
            " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }")

#: The ranking page at once: its rows (:data:`ROWS`), the ranking's and the A–Z list's
#: boxes (:data:`BOX`), the first rating's text, lines and box, what it is ranked by and its
#: box, the page's direction and fit (:data:`FITS_WIDTH`)
RANKING_SEEN = f"""() => {{
  const cell = document.querySelector("td.rating .rating-shown"), under = document.querySelector("td.rating .ranked-by");
  return {{rows: {ROWS}, table: ({BOX})(document.querySelector("table.ranking-table")),
          aToZ: ({BOX})(document.querySelector("table.players-table")),
          cell: cell.innerText, cellLines: ({LINES_OF})(cell), cellBox: ({BOX})(cell),
          under: under.innerText, underBox: ({BOX})(under),
          dir: document.documentElement.getAttribute("dir"), fits: {FITS_WIDTH},
          // each A–Z "won" cell: whether its "of N" sits beside its number, not under it
          wonBeside: Array.from(document.querySelectorAll("table.players-table .figure-of.inline"), (of) => {{
            const figure = of.parentElement.querySelector(".figure-link").getBoundingClientRect();
            return of.getBoundingClientRect().top < figure.bottom;
          }})}};
}}"""


@pytest.mark.parametrize("width", [390, 320])
@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_ranking_on_a_phone(browser, server, language, width):
    """At 320 px too (tester 55: the ranking was 337 px wide, "Finished" cut at the edge,
    and a won game's "of 2" wrapped under its number)."""
    url, _ids = server
    page = new_page(browser, width=width, locale=LOCALES[language])
    try:
        page.goto(f"{url}/players")
        table = page.locator("table.ranking-table")
        sync_api.expect(table).to_be_visible()
        seen = page.evaluate(RANKING_SEEN)  # the page shown: everything below read in one call
        shown = rows(page, seen["rows"])
        assert len(shown) == 4 and shown[0][1] == SAMI  # three games won of five
        # the ranking comes first, the A–Z list below it
        assert seen["table"]["y"] < seen["aToZ"]["y"]
        # a rating fits its cell on one line: "27.4 ± 4.1"; under it what the order goes
        # by, the rating less three times its ± (tester 8: a higher rating ranked lower)
        assert re.fullmatch(r"[\d٠-٩.,٫]+\s±\s[\d٠-٩.,٫]+", seen["cell"].strip())
        assert seen["cellLines"] == 1
        assert re.fullmatch(r"(ranked by|يُرتَّب حسب) \u2212?[\d٠-٩.,٫]+", seen["under"].strip())
        assert seen["underBox"]["y"] >= seen["cellBox"]["y"] + seen["cellBox"]["height"] - 1
        if language == "ar":
            assert seen["dir"] == "rtl"
            assert re.search("[٠-٩]", seen["cell"])  # the page's digits
        assert seen["fits"]  # no sideways scroll
        assert seen["wonBeside"] and all(seen["wonBeside"])  # "1 of 2" on one line, as "0 of 2"
        shot(page, f"ratings-players-{language}-{width}")
    finally:
        page.context.close()


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_bad_day_is_explained_beside_its_field(browser, server, language):
    url, _ids = server
    page = new_page(browser, locale=LOCALES[language])
    try:
        page.goto(f"{url}/players?period=days&start=2026-02-30&kind=trix")
        start = page.locator(".date-field.has-error")
        sync_api.expect(start).to_be_visible()  # the filters open by themselves
        seen = start.evaluate(f"""(start) => ({{value: start.querySelector("input").getAttribute("value"),
            errors: start.querySelector(".errors").innerText, rows: {ROWS}, fits: {FITS_WIDTH}}})""")
        assert seen["value"] == "2026-02-30"  # what was sent stays
        assert seen["errors"].strip()
        # the game filter still applies: the partners' Trix game, both sides of two
        assert [rank for rank, _name in rows(page, seen["rows"])] in (["1", "1", "3", "3"], ["١", "١", "٣", "٣"])
        assert seen["fits"]  # no sideways scroll
        shot(page, f"ratings-bad-day-{language}")
    finally:
        page.context.close()


def test_choosing_a_game_and_a_period_on_the_page(browser, server):
    url, _ids = server
    page = new_page(browser, locale="en-GB")
    try:
        page.goto(f"{url}/players")
        page.locator("details.filters summary").click()
        page.select_option("select[name=kind]", "trix")
        page.select_option("select[name=period]", "year")
        page.get_by_role("button", name="Show ranking").click()
        sync_api.expect(page.locator("details.filters summary")).to_contain_text("This year")
        # partners: both of a side share the rank
        shown = rows(page)
        assert [rank for rank, _name in shown] == ["1", "1", "3", "3"]
        assert {name for rank, name in shown if rank == "1"} == {BEN, DORA}
    finally:
        page.context.close()


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_players_rating_on_a_phone(browser, server, language):
    url, ids = server
    page = new_page(browser, locale=LOCALES[language])
    try:
        page.goto(f"{url}/players/{ids[SAMI]}")
        value = page.locator(".rating-value")
        sync_api.expect(value).to_be_visible()
        rating, explained, fits = value.evaluate(
            f"(value) => [value.innerText, document.querySelector('.rating-panel p').innerText, {FITS_WIDTH}]")
        assert "±" in rating
        assert ("5" if language == "en" else "٥") in explained  # from five finished games
        if language == "en":
            assert "finishing places" in explained and "shrinks" in explained
        assert fits  # no sideways scroll
        shot(page, f"ratings-player-{language}")
    finally:
        page.context.close()


#: JavaScript: each table of the page that stands out of its panel, with both boxes
TABLES_OUT = f"""() => Array.from(document.querySelectorAll("main .panel table"), (table) => {{
  const box = ({BOX})(table), panel = ({BOX})(table.closest(".panel"));
  return box.x < panel.x - 1 || box.x + box.width > panel.x + panel.width + 1 ? [table.className, box, panel] : null;
}}).filter(Boolean)"""


@pytest.mark.parametrize("language", ["de", "fi"])
def test_a_players_page_keeps_to_a_320_pixel_phone(browser, server, language):
    """Tester 55 (German, 320 px): Ben's contract-by-contract table ran past its panel
    ("Bekommen pro Spiel"), the tiles three to a row broke "Gewonne/n", a figure's label
    "Schlechteste/s Spiel"; the head to head stood out of its panel too. Every table
    stays in its panel, the page in the phone, and no figure's label breaks inside a word."""
    url, ids = server
    page = new_page(browser, width=320, height=740, locale=PHONE_LOCALES[language])
    try:
        page.goto(f"{url}/players/{ids[BEN]}")
        sync_api.expect(page.locator("table.contracts-table")).to_be_visible()
        out, fits = page.evaluate(f"() => [({TABLES_OUT})(), {FITS_WIDTH}]")
        assert fits and out == [], out
        # (a tile's long compound, "kiusakortteja", is the phone's to hyphenate: app.css)
        assert words_cut(page, ".figure-label") == []
        shot(page, f"ratings-player-320-{language}")
    finally:
        page.context.close()


def test_the_ranking_on_a_big_screen(browser, server):
    url, _ids = server
    page = new_page(browser, width=1920, height=1080, locale="en-GB")
    try:
        page.goto(f"{url}/players?kind=trigami")
        sync_api.expect(page.locator("table.ranking-table")).to_be_visible()
        shown, fits = page.evaluate(f"[{ROWS}, {FITS_WIDTH}]")
        assert rows(page, shown)[0][1] == SAMI
        assert fits  # no sideways scroll
        shot(page, "ratings-players-big")
    finally:
        page.context.close()
