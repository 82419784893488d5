"""A 40-character name of one word ("Y" × 40, the longest a player's name may be:
gamefile.MAX_NAME_LENGTH) on a phone (390 × 844), in English and Arabic (and German and Finnish, whose headers are longest): the season
table, that player's season page and the players' ranking fit the phone's width, their
number columns in view; the night's forms refuse a name too long beside its field, as a
phone shows it. Screenshots into screenshots/long-name-*.png (look at them)."""

from __future__ import annotations

import pytest

from tests.browser_support import BOX, FITS_WIDTH, new_page, served_to_play, shot, sync_api
from tests.browser_support import PHONE_LOCALES as LOCALES

pytestmark = pytest.mark.browser

LONG = "Y" * 40
PLAYERS = [LONG, "Aino", "Bruno", "Carla", "Dmitri", "Eeva"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A Trigami night of two tables, each played to its end through the pages:
    (the app's URL, the night's id)."""
    from scorekeeper import night_store, store
    from scorekeeper.gamefile import from_dict
    from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
    from tests.test_nights import play_trigami, start

    with served_to_play(tmp_path_factory.mktemp("long") / "long.sqlite3") as (url, client, db):
        night_id = start(client, "trigami", PLAYERS, 2)
        for table in night_store.get_night(db, night_id).current.tables:
            seats = table.game.players
            play_trigami(client, table.game.id, seats, sorted(seats), f"t{table.number}")
        # and a game of Aino's with a name of two Arabic words, for her head to head (tester 38)
        store.create_game(db, from_dict(game_file(players=["Aino", "محمد عبد الرحمن", "ليلى"],
                                                  deals=[WORKED_TRIGAMI_DEAL] * 3)))
        yield url, night_id


#: A page's fit at once: whether it fits its width (:data:`FITS_WIDTH`), its width, the box
#: of each table's last cell of a row (:data:`BOX`), and the text of the element the
#: selector given finds (null when none is asked)
FIT_SEEN = f"""(selector) => ({{fits: {FITS_WIDTH}, width: document.documentElement.scrollWidth,
  boxes: Array.from(document.querySelectorAll("table tbody tr td:last-child"), {BOX}),
  text: selector && document.querySelector(selector).innerText}})"""


def fits(page, name: str, holding: str | None = None) -> str | None:
    """The page fits 390 px: nothing scrolls sideways, the phone's browser did not widen
    the page, and each table's last column (a number) is in view; read in one call with
    the text of what ``holding`` finds, which is returned."""
    page.wait_for_load_state()  # a page a click has just opened, as no_sideways_scroll waits
    seen = page.evaluate(FIT_SEEN, holding)
    assert seen["fits"], f"{name}: {seen['width']} px wide"
    assert seen["width"] <= 390
    for box in seen["boxes"]:
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (name, box)
    shot(page, name)
    return seen["text"]


@pytest.mark.parametrize("language", ["en", "ar", "de", "fi"])
def test_a_forty_character_name_fits_the_season_and_ranking_on_a_phone(browser, server, language):
    url, night_id = server
    page = new_page(browser, locale=LOCALES[language])
    try:
        page.goto(f"{url}/season")
        sync_api.expect(page.locator("table.season-table")).to_be_visible()
        assert LONG in fits(page, f"long-name-season-{language}", "table.season-table")
        page.locator("table.season-table").get_by_role("link", name=LONG).click()
        sync_api.expect(page.locator(".season-line")).to_be_visible()
        fits(page, f"long-name-season-player-{language}")
        page.goto(f"{url}/players")
        assert LONG in fits(page, f"long-name-players-{language}", "main")
        page.goto(f"{url}/nights/{night_id}/standing")
        fits(page, f"long-name-standing-{language}")
        # a 320 px phone: the season's seven columns were 325 px wide (tester 73, Arabic and
        # German): the score goes under the name, and every other column stays in view
        page.set_viewport_size({"width": 320, "height": 640})
        page.goto(f"{url}/season")
        seen = page.evaluate(FIT_SEEN, "table.season-table tbody tr .score-under")
        assert seen["fits"] and seen["width"] <= 320, f"{seen['width']} px wide at 320"
        # every cell drawn (the score's own column is not, at this width) is on the phone
        edges = page.evaluate("""() => [...document.querySelectorAll(".season-table td")]
            .filter((cell) => cell.getClientRects().length)
            .map((cell) => [cell.getBoundingClientRect().left, cell.getBoundingClientRect().right])""")
        assert edges and all(left >= 0 and right <= 320 for left, right in edges), edges
        # the leader's total, 7 clean tricks × 20 (tests/test_nights.py, play_trigami)
        assert seen["text"].endswith(("140", "١٤٠")), seen["text"]
        shot(page, f"long-name-season-320-{language}")
    finally:
        page.context.close()


@pytest.mark.parametrize("width", [360, 320])
def test_a_players_head_to_head_fits_a_small_phone(browser, server, width):
    """Tester 19 (LOW): a player's head to head, four columns of numbers under headers of
    one word each, was 7 px wider than a 360 px phone in German ("Gleichauf"): the page
    scrolled sideways and the last column stood past the panel. In each language; at
    320 px too (tester 55: 290 px in a panel of 262, in German)."""
    url, _night_id = server
    page = new_page(browser, width, 740)
    try:
        page.goto(f"{url}/players")
        page.locator("main").get_by_role("link", name="Aino").first.click()
        player = page.url.removeprefix(url)
        for language in ("de", "fi", "en", "ar"):
            page.goto(f"{url}/language/{language}?next={player}")
            table = page.locator("table.h2h-table")
            sync_api.expect(table).to_be_visible()
            # the page's width, the panel's box (the table's section) and each row's last cell's, in one call
            # and the room between two headers' words (their text's boxes, in the page's direction)
            width, panel, boxes, gaps = table.evaluate(f"""(table) => {{
                const words = Array.from(table.querySelectorAll("thead th"), (th) => {{
                  const range = document.createRange(); range.selectNodeContents(th);
                  return range.getBoundingClientRect(); }});
                const gaps = words.slice(1).map((w, i) => Math.max(w.left - words[i].right, words[i].left - w.right));
                return [document.documentElement.scrollWidth, ({BOX})(table.closest("section")),
                        Array.from(table.querySelectorAll("tr > :last-child"), {BOX}), gaps]; }}""")
            assert width <= page.viewport_size["width"], language
            # tester 38: Arabic "متأخّر متعادل" ran into one word
            assert min(gaps) >= 4, (language, gaps)  # more than a space between words (about 3 px)
            for box in boxes:
                assert panel is not None and box is not None, language
                assert box["x"] + box["width"] <= panel["x"] + panel["width"] + 1, (language, box, panel)
            shot(page, f"head-to-head-{page.viewport_size['width']}-{language}")
    finally:
        page.context.close()


def test_a_name_too_long_is_refused_beside_its_field_on_a_phone(browser, server):
    """200 characters pasted: nothing cuts them short, the server refuses them beside the
    field and keeps them; nothing is saved."""
    url, night_id = server
    page = new_page(browser)
    try:
        page.goto(f"{url}/nights/{night_id}")
        field = page.get_by_role("combobox", name="Late arrival")
        field.fill("Z" * 200)
        assert field.input_value() == "Z" * 200
        page.get_by_role("button", name="Add").click()
        sync_api.expect(page.get_by_text("The late arrival's name is longer than 40 characters.").first).to_be_visible()
        # the refused page shown (above): the field's value, the page's words and its fit in one call
        kept, words, fit = page.get_by_role("combobox", name="Late arrival").evaluate(
            f"(field) => [field.value, document.querySelector('main').innerText, {FITS_WIDTH}]")
        assert kept == "Z" * 200
        assert "joins from round" not in words
        assert fit  # no sideways scroll
        shot(page, "long-name-arrival-refused")
        page.goto(f"{url}/nights/new?kind=trigami")
        page.get_by_label("The night's name (optional)").fill("N" * 200)
        page.get_by_label("Newcomers, one name a line").fill("Aino\nBruno\nCarla")
        page.get_by_role("button", name="Start").first.click()
        sync_api.expect(page.get_by_text("The night's name is longer than 60 characters.").first).to_be_visible()
        kept, fit = page.get_by_label("The night's name (optional)").evaluate(f"(field) => [field.value, {FITS_WIDTH}]")
        assert kept == "N" * 200
        assert fit  # no sideways scroll
        shot(page, "long-name-night-refused")
    finally:
        page.context.close()


def test_a_long_arabic_name_cut_short_on_an_english_deal_form_keeps_its_beginning(browser, tmp_path):
    """A Trix deal form on an English page, a long Arabic name over a count of
    diamonds: cut short to fit, it loses its end (on its left), never its beginning."""
    from tests.browser_support import serve, store_game
    from tests.conftest import game_file

    long_arabic = "عبد الرحمن بن عبد العزيز آل الشيخ"
    database = tmp_path / "rtl.sqlite3"
    with serve(database) as url:
        game_id = store_game(database, game_file("trix", players=[long_arabic, "Ben", "Carla", "Dan"]))
        page = new_page(browser, width=360, height=740)
        try:
            page.goto(f"{url}/games/{game_id}/deals/new")
            page.locator("label[for=contracts-2]").click()  # Diamonds
            label = page.locator("label[for=diamonds_0]")
            sync_api.expect(label).to_be_visible()
            seen = label.evaluate("""(label) => {
              const name = label.querySelector('bdi') || label;  // the name's text, however it is wrapped
              const text = name.firstChild;
              const first = document.createRange();
              first.setStart(text, 0); first.setEnd(text, 1);
              const box = label.getBoundingClientRect(), glyph = first.getBoundingClientRect();
              return {cut: label.scrollWidth > label.clientWidth,
                      inside: glyph.left >= box.left - 1 && glyph.right <= box.right + 1};
            }""")
            assert seen["cut"], "the name fits whole: nothing to test at this width"
            assert seen["inside"], "the name's first letter is cut off"
            shot(page, "long-arabic-name-on-english-form")
        finally:
            page.context.close()
