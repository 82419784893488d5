"""A club night's standing on a 390 px phone in every language, and a name without a space
(40 letters) on the phone and on the 1920×1080 big screen (issue 20): nothing wider than
the screen, the big screen's standing and the round's tables side by side without one
running under the other. Screenshots: screenshots/night-look-*.png.

Measured as a player sees it: the document's width against the 390 px the phone has (not
only against the layout viewport, which a phone's browser widens to fit a wide page), and
each table's edges inside the screen.
"""

from __future__ import annotations

import pytest

from scorekeeper import night_actions
from scorekeeper.db import connect
from tests.browser_support import BOX, PHONE_LOCALES, new_page, serve, shot

pytestmark = pytest.mark.browser

LONG = "Maximilianalexanderhohenzollernschwanstein"[:40]
SEVEN = ["Aino", "Bruno", "Carla", "Dmitri", "Eeva", "Farid", "Greta"]
LOCALES = PHONE_LOCALES

#: the page's width, and the furthest any table (the standing, each table card) reaches;
#: with it the page's language, and the box of the standing's last column head (None
#: where there is none, as Playwright's bounding_box gives it)
MEASURE = """() => {
  const edges = [...document.querySelectorAll("table")].map(t => t.getBoundingClientRect());
  const heads = document.querySelectorAll("table.standing thead th"), last = heads[heads.length - 1];
  return {width: document.documentElement.scrollWidth,
          right: Math.max(0, ...edges.map(r => r.right)), left: Math.min(390, ...edges.map(r => r.left)),
          lang: document.documentElement.getAttribute("lang"),
          header: (BOX)(last)};
}""".replace("BOX", BOX)
#: the big screen: the boxes of its standing, of the round's tables and of each of the
#: standing's column heads (None for what shows nowhere), and the page's width
SCREEN = """() => {
  const box = BOX;
  return {standing: box(document.querySelector(".screen-standing table.standing")),
          tables: box(document.querySelector(".screen-tables")),
          headers: Array.from(document.querySelectorAll(".screen-standing thead th"), box),
          width: document.documentElement.scrollWidth};
}""".replace("BOX", BOX)


def night_of(tmp_path, names: list[str]):
    """A served Trigami night of ``names`` (two tables, one sits out), three rounds."""
    database = tmp_path / "night.sqlite3"
    served = serve(database)
    url = served.__enter__()
    db = connect(str(database))
    try:
        from scorekeeper import groups

        started = night_actions.start_night(db, groups.only_group(db).id, kind="trigami", options={"target": 500},
                                            players=names, rounds=3, ranking="placings", seating="random",
                                            name="Friday club", seed=7)
        assert isinstance(started, night_actions.NightStarted)
    finally:
        db.conn.close()
    return served, url, started.night_id


@pytest.fixture
def seven(tmp_path):
    served, url, night_id = night_of(tmp_path, SEVEN)
    yield url, night_id
    served.__exit__(None, None, None)


@pytest.fixture
def long_named(tmp_path):
    served, url, night_id = night_of(tmp_path, [LONG, *SEVEN[1:]])
    yield url, night_id
    served.__exit__(None, None, None)


def assert_fits(page, what: str) -> dict:
    """The page fits the phone (:data:`MEASURE`); what was measured."""
    seen = page.evaluate(MEASURE)
    assert seen["width"] <= 390, f"{what}: the page is {seen['width']} px wide"
    assert seen["right"] <= 390 + 0.5 and seen["left"] >= -0.5, f"{what}: a table reaches {seen}"
    return seen


@pytest.fixture
def ten(tmp_path):
    """A night of ten (three tables, one sits out each round), two names of two words."""
    served, url, night_id = night_of(tmp_path, ["Aino Mäkelä", "Friedrich Hohenzollern", *SEVEN[1:], "Jürgen"])
    yield url, night_id
    served.__exit__(None, None, None)


@pytest.mark.parametrize("language", ["en", "de", "fi", "ar"])
def test_the_standing_fits_a_320_px_phone_with_a_player_sitting_out(browser, ten, language):
    """Tester 65: at 320 px the standing and its printed sheet were 336 px wide in English
    and 360 in German ("Runden" and "(1 ausgesetzt)" cut off at the edge), the big screen
    340 in German. Every column, the last header whole, within the phone."""
    url, night_id = ten
    phone = new_page(browser, 320, 640, locale=LOCALES[language])
    try:
        for path, name in ((f"/nights/{night_id}/standing", "standing"), (f"/nights/{night_id}/print", "print"),
                           (f"/nights/{night_id}/screen", "screen")):
            assert phone.goto(url + path).status == 200
            shot(phone, f"night-look-{name}-320-{language}")
            seen = phone.evaluate(MEASURE)
            assert seen["width"] <= 320, f"{name} in {language}: the page is {seen['width']} px wide"
            assert seen["right"] <= 320.5 and seen["left"] >= -0.5, f"{name} in {language}: a table reaches {seen}"
            header = seen["header"]
            assert header is not None and header["x"] >= 0 and header["x"] + header["width"] <= 320.5
    finally:
        phone.context.close()


@pytest.mark.parametrize("language", ["en", "de", "fi", "ar"])
def test_the_standing_fits_a_phone_in_every_language(browser, seven, language):
    url, night_id = seven
    phone = new_page(browser, locale=LOCALES[language])
    try:
        for path, name in ((f"/nights/{night_id}", "page"), (f"/nights/{night_id}/standing", "standing"),
                           (f"/nights/{night_id}/print", "print")):
            assert phone.goto(url + path).status == 200
            shot(phone, f"night-look-{name}-390-{language}")
            seen = assert_fits(phone, f"{name} in {language}")
            assert seen["lang"] == language
            if name != "page":  # every column of the standing in sight, its last header whole
                header = seen["header"]
                assert header is not None and header["x"] >= 0 and header["x"] + header["width"] <= 390.5
    finally:
        phone.context.close()


def test_a_long_name_breaks_on_the_phone_and_the_big_screen(browser, long_named):
    url, night_id = long_named
    phone = new_page(browser)
    screen = new_page(browser, width=1920, height=1080)
    try:
        for path, name in ((f"/nights/{night_id}", "page"), (f"/nights/{night_id}/standing", "standing"),
                           (f"/nights/{night_id}/print", "print")):
            phone.goto(url + path)
            shot(phone, f"night-look-long-name-{name}-390")
            assert_fits(phone, name)
            if name == "standing":  # a short name stays whole: "Bruno" is not broken into two lines
                bruno = phone.locator("table.standing tbody th", has_text="Bruno").first
                assert bruno.evaluate("e => e.getClientRects().length === 1 && e.offsetHeight < 2.2 * parseFloat(getComputedStyle(e).lineHeight || 20)")
        screen.goto(f"{url}/nights/{night_id}/screen")
        seen = screen.evaluate(SCREEN)
        standing, tables = seen["standing"], seen["tables"]
        assert standing is not None and tables is not None
        assert standing["x"] + standing["width"] <= tables["x"] + 0.5, "the standing runs under the round's tables"
        # Score and Rounds in sight, beside the names
        for box in seen["headers"]:
            assert box is not None and box["x"] + box["width"] <= tables["x"] + 0.5
        assert seen["width"] <= 1920
        shot(screen, "night-look-long-name-big-screen-1920")
    finally:
        phone.context.close()
        screen.context.close()
