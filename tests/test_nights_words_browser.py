"""Words never break inside on a club night's pages (issue 20): on the 1920×1080 big
screen with eleven narrow table cards and the phone (390 × 844), with 40-letter names of
one word at most tables. A name may wrap (and a one-word name of 40 letters must break
to fit); "ahead", "first", a table's total, "Table 10" and every other word stay whole.
Screenshots: screenshots/night-words-*.png (look at them).
"""

from __future__ import annotations

import pytest

from scorekeeper import night_actions, night_store
from tests.browser_support import BOX, FITS_WIDTH, new_page, served_to_play, shot

pytestmark = pytest.mark.browser

#: eleven one-word names of 40 letters (a name's most: gamefile.MAX_NAME_LENGTH)
LONG = [letter * 40 for letter in "QRSTUVWXYZK"]
SHORT = ["Aino", "Bruno", "Carla", "Dmitri", "Eeva", "Farid", "Greta", "Hamid", "Ilse", "Jonas", "Karim",
         "Lotta", "Mona", "Nils", "Olga", "Pekka", "Raisa", "Sami", "Tiina", "Ulla", "Vilho", "Wilma"]

#: each word (a run of non-spaces) of the page's text outside a name (bdi) and the table
#: cards' addresses, whose pieces sit on more than one line: a word broken inside
BROKEN_WORDS = """(scope) => {
  const broken = [];
  const root = document.querySelector(scope);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    if (node.parentElement.closest("bdi, script, style, svg, .join-address")) continue;
    for (const word of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
      if (lines.size > 1) broken.push(word[0]);
    }
  }
  return broken;
}"""


#: The big screen at once: how many "ahead" marks it shows, each table card's box with the
#: boxes of its "ahead" and total (:data:`BOX`), the words broken in its main part
#: (:data:`BROKEN_WORDS`) and its width
SCREEN_SEEN = f"""() => ({{leads: document.querySelectorAll(".lead-mark").length,
  cards: Array.from(document.querySelectorAll(".night-table"), (card) => ({{box: ({BOX})(card),
    marks: Array.from(card.querySelectorAll(".lead-mark, .table-total"), {BOX})}})),
  broken: ({BROKEN_WORDS})("main"), width: document.documentElement.scrollWidth}})"""

#: A phone's page at once: how many "ahead" marks it shows, the words broken in its main
#: part (:data:`BROKEN_WORDS`), whether it fits its width (:data:`FITS_WIDTH`) and its width
PHONE_SEEN = f"""() => ({{leads: document.querySelectorAll(".lead-mark").length, broken: ({BROKEN_WORDS})("main"),
  fits: {FITS_WIDTH}, width: document.documentElement.scrollWidth}})"""


@pytest.fixture(scope="module")
def eleven_tables(tmp_path_factory):
    """A Trigami night of 33 (eleven tables, a 40-letter name at most of them), to 1000,
    one deal played at each table through the deal form: every table has a leader
    "ahead". (The app's URL, the night's id.)"""
    from scorekeeper import groups
    from tests.test_nights import play_trigami

    with served_to_play(tmp_path_factory.mktemp("words") / "words.sqlite3") as (url, client, db):
        started = night_actions.start_night(db, groups.only_group(db).id, kind="trigami",
                                            options={"target": 1000}, players=[*LONG, *SHORT], rounds=2,
                                            ranking="placings", seating="random", name="Friday club", seed=7)
        assert isinstance(started, night_actions.NightStarted)
        tables = night_store.get_night(db, started.night_id).current.tables
        assert len(tables) == 11
        for table in tables:
            seats = table.game.players
            play_trigami(client, table.game.id, seats, sorted(seats), f"t{table.number}")
        yield url, started.night_id


def test_no_word_breaks_inside_on_the_big_screen(browser, eleven_tables):
    url, night_id = eleven_tables
    screen = new_page(browser, width=1920, height=1080)
    try:
        screen.goto(f"{url}/nights/{night_id}/screen")
        screen.wait_for_timeout(300)  # the screen's own fitting (static/app.js) settles
        shot(screen, "night-words-big-screen-1920")
        seen = screen.evaluate(SCREEN_SEEN)
        assert seen["leads"] == 11
        assert len(seen["cards"]) == 11
        assert seen["broken"] == []
        assert seen["width"] <= 1920
        # each table's total and "ahead" on one line, inside its card
        for card in seen["cards"]:
            edge = card["box"]
            for box in card["marks"]:
                assert box is not None and edge is not None
                assert edge["x"] <= box["x"] and box["x"] + box["width"] <= edge["x"] + edge["width"] + 0.5
    finally:
        screen.context.close()


@pytest.mark.parametrize("language", ["en", "ar"])
def test_no_word_breaks_inside_on_a_phone(browser, eleven_tables, language):
    url, night_id = eleven_tables
    phone = new_page(browser, locale={"en": "en-GB", "ar": "ar-EG"}[language])
    try:
        for path, name in ((f"/nights/{night_id}", "page"), (f"/nights/{night_id}/standing", "standing"),
                           (f"/nights/{night_id}/screen", "screen")):
            phone.goto(url + path)
            seen = phone.evaluate(PHONE_SEEN)
            assert seen["leads"] == (0 if name == "standing" else 11)
            shot(phone, f"night-words-{name}-390-{language}")
            if name != "standing":  # the page is long: a table card of a 40-letter name, close up
                card = phone.locator(".night-table", has=phone.locator(".leader bdi", has_text="Q" * 40))
                shot(card, f"night-words-{name}-390-{language}-card")
            assert seen["broken"] == [], name
            assert seen["fits"]  # no sideways scroll
            assert seen["width"] <= 390, name
    finally:
        phone.context.close()
