"""The same deal from two phones is one deal (issue 18, part 8), in Chromium at 390×844 and
360×740: two browser contexts are two phones at the table, each with its own cookies.

- Both tap in the same deal and save at the same instant: one deal is stored, one phone
  hears "Deal 1 saved", the other "Already saved, once — the other phone had entered this very
  deal", and neither sees a conflict page.
- They tap in different deals: the second sees the other phone's deal beside its own,
  where they differ, and "Discard mine" as large as "Add mine as deal 2" and first.
- A deal waiting in the outbox (entered without connection) that another phone entered
  meanwhile is marked sent with those words when the connection is back.

Points (SCORING.md §1.2): PLAIN, plain bids ♠ ♥ ♣ with tricks 5 4 4 and bugs 0 2 4, gives
Anna 20 × 5 clean tricks = 100, Ben ⌊40 / 2⌋ = 20, Carla ⌊40 / 4⌋ = 10; with Carla's bugs 2,
Carla ⌊40 / 2⌋ = 20. Screenshots: screenshots/same-deal-*.png, in English, German, Finnish
and Arabic.
"""

from __future__ import annotations

import pytest

from scorekeeper import store
from scorekeeper.db import connect
from tests.browser_support import (
    BOX,
    go_offline,
    new_page,
    no_sideways_scroll,
    serve,
    store_game,
    sync_api,
    words_cut,
)
from tests.browser_support import shot as full_shot
from tests.conftest import game_file
from tests.test_live_browser import under_service_worker

pytestmark = pytest.mark.browser

expect = sync_api.expect
SIZES = [(390, 844), (360, 740)]
SAID = "Already saved, once — the other phone had entered this very deal"
PLAIN = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
         "tricks": [5, 4, 4], "bugs": [0, 2, 4]}
PLAYERS = {"en": ["Anna", "Ben", "Carla"], "de": ["Jörg", "Anke", "Lutz"], "fi": ["Aino", "Eero", "Sanna"],
           "ar": ["سارة", "محمد", "ليلى"]}
LOCALES = {"en": "en-US", "de": "de-DE", "fi": "fi-FI", "ar": "ar-EG"}


@pytest.fixture
def served(tmp_path):
    database = tmp_path / "same.sqlite3"
    with serve(database) as url:
        yield url, database


def shot(page, name: str) -> None:
    """The whole page (screenshots/NAME.png) and what the phone shows at once, its bar
    at the bottom included (screenshots/NAME-screen.png), to look at."""
    full_shot(page, name)
    full_shot(page, f"{name}-screen", full_page=False)


def deals(database, game_id: str) -> list[dict]:
    db = connect(str(database))
    try:
        return [d.entry for d in store.get_game(db, game_id).deals]
    finally:
        db.conn.close()


def tap_plain(page, bugs: tuple[int, int, int] = (0, 2, 4)) -> None:
    """Plain bids ♠ ♥ ♣, tricks 5 4 4, ``bugs``: tapped on the chips and typed, in any
    language (the chips are found by their values, not their words)."""
    for seat, suit in enumerate("SHC"):
        page.locator(f'input[name="bids_{seat}"][value="{suit}"] + label').click()
    for seat, (tricks, bug) in enumerate(zip((5, 4, 4), bugs, strict=True)):
        page.fill(f"#tricks_{seat}", str(tricks))
        page.fill(f"#bugs_{seat}", str(bug))


def save_both(one, two) -> None:
    """Both phones tap Save at the same instant (neither waits for its answer first)."""
    for phone in (one, two):
        phone.evaluate("document.querySelector('form.deal-form').requestSubmit()")
    for phone in (one, two):  # each at the sheet (a busy machine may take a while)
        expect(phone.locator("table.sheet")).to_be_visible(timeout=20_000)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_two_phones_saving_the_same_deal_at_once_store_one_and_hear_it(browser, served, width, height):
    url, database = served
    game_id = store_game(database, game_file())
    one, two = new_page(browser, width, height), new_page(browser, width, height)
    try:
        for phone in (one, two):  # both open "Add deal 1" before either saves
            phone.goto(f"{url}/games/{game_id}/deals/new")
            tap_plain(phone)
        save_both(one, two)
        said = []
        for phone in (one, two):
            bar = phone.locator(".flashes")
            expect(bar).to_be_visible()
            said.append(bar.inner_text())
            expect(phone.locator("[data-conflict]")).to_have_count(0)
            expect(phone.locator("thead .total")).to_have_text(["100", "20", "10"])
        assert sum("Deal 1 saved" in s for s in said) == 1, said
        assert sum(SAID in s for s in said) == 1, said
        assert deals(database, game_id) == [PLAIN]
        told = one if SAID in said[0] else two
        shot(told, f"same-deal-saved-{width}")
    finally:
        one.context.close()
        two.context.close()


def conflict(browser, url: str, game_id: str, width: int, height: int, locale: str | None = None):
    """Phone one saves PLAIN; phone two, whose form was open already, saves PLAIN with
    Carla's bugs 2: phone two's page (the 409), and phone one to close."""
    one = new_page(browser, width, height, locale=locale)
    two = new_page(browser, width, height, locale=locale)
    for phone in (one, two):
        phone.goto(f"{url}/games/{game_id}/deals/new")
    tap_plain(one)
    tap_plain(two, bugs=(0, 2, 2))
    one.locator(".action-bar button[type=submit]").click()
    expect(one.locator("#deal-1")).to_be_visible()  # saved: the sheet at its row
    two.locator(".action-bar button[type=submit]").click()
    expect(two.locator("[data-compare]")).to_be_visible()
    return one, two


# The two buttons of the conflict page's bar ("Discard mine", "Add mine as deal 2"): their
# boxes, type and colour, and whether the page reads from the right
BAR_BUTTONS = """() => {
  const look = (e) => {
    const style = getComputedStyle(e);
    return {...(BOX)(e), type: style.fontWeight + " " + style.fontSize, background: style.backgroundColor};
  };
  return {discard: look(document.querySelector(".action-bar [data-discard-draft]")),
          add: look(document.querySelector(".action-bar button[type=submit]")),
          rtl: document.documentElement.dir === "rtl"};
}""".replace("BOX", BOX)


def assert_discard_as_prominent(page) -> None:
    """ "Discard mine" comes first in reading order and its box is at least as large as
    "Add mine as deal 2"'s, in the same weight of type."""
    bar = page.evaluate(BAR_BUTTONS)
    d, a = bar["discard"], bar["add"]
    assert d["width"] >= a["width"] - 0.5 and d["height"] >= a["height"] - 0.5, (d, a)
    assert d["type"] == a["type"]
    assert d["background"] == a["background"]
    assert (d["x"] > a["x"]) if bar["rtl"] else (d["x"] < a["x"]), "Discard mine comes first"
    viewport = page.viewport_size
    assert max(d["y"], a["y"]) + max(d["height"], a["height"]) <= viewport["height"]  # both in reach


# Theirs and mine in the row where they differ: the two cells' boxes
DIFFERS = f"""() => Array.from(document.querySelectorAll("[data-compare] tr.differs td"), {BOX})"""


def assert_set_beside_theirs(page) -> None:
    """In English: the conflict page of :func:`conflict` names what differs (Carla's bugs)
    and sets theirs beside mine, the Mine column to the reading side of Theirs."""
    box = page.locator("[data-conflict]")
    expect(box).to_contain_text("Deal 1 from the other phone and yours are not the same: they differ in "
                                "\u2068Carla\u2069's bugs.")
    table = page.locator("[data-compare]")
    expect(table.locator("thead th")).to_have_text(["Theirs: deal 1", "Mine"])
    differs = table.locator("tr.differs")
    expect(differs).to_have_count(1)
    expect(differs.locator("td")).to_have_text(["4", "2"])
    carla = table.locator(".compare-points tr").filter(has_text="Carla")
    expect(carla.locator("td")).to_have_text(["+10", "+20"])
    # theirs and mine side by side: the Mine column to the reading side of Theirs
    theirs, mine = page.evaluate(DIFFERS)
    assert abs(theirs["y"] - mine["y"]) < 1 and mine["x"] > theirs["x"]


@pytest.mark.parametrize("language", ["en", "de", "fi", "ar"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_different_deal_is_set_beside_theirs_with_discard_as_prominent_as_add(browser, served, language, width, height):
    """Both pages in each language: phone two's deal set beside the other phone's (in
    English: what differs, theirs and mine side by side), with "Discard mine" as
    prominent as "Add mine as deal 2"; a third phone saving the same deal is told so; in
    English, "Discard mine" then leads to the sheet with theirs alone."""
    url, database = served
    game_id = store_game(database, game_file(players=PLAYERS[language]))
    one, two = conflict(browser, url, game_id, width, height, locale=LOCALES[language])
    try:
        if language == "en":
            assert_set_beside_theirs(two)
        assert two.evaluate("document.documentElement.lang") == language
        assert two.locator("[data-compare] tbody tr").count() >= 11  # 3 × (bid, tricks, bugs), the rest
        assert no_sideways_scroll(two)
        assert_discard_as_prominent(two)
        if language == "en":
            shot(two, f"same-deal-differs-{width}")
        shot(two, f"same-deal-differs-{language}-{width}")
        assert deals(database, game_id) == [PLAIN]
        # the same deal from a third phone whose form was open as long: one deal, told so
        three = new_page(browser, width, height, locale=LOCALES[language])
        try:
            three.goto(f"{url}/games/{game_id}/deals/new")
            tap_plain(three)
            db = connect(str(database))
            try:  # the form above was opened before deal 1: its version is the one before
                seen = store.changes(db, game_id)[-1].id
            finally:
                db.conn.close()
            three.evaluate("v => document.querySelector('input[name=seen]').value = v", str(seen))
            three.locator(".action-bar button[type=submit]").click()
            expect(three.locator("table.sheet")).to_be_visible()
            expect(three.locator(".flashes")).to_be_visible()
            expect(three.locator("[data-conflict]")).to_have_count(0)
            assert deals(database, game_id) == [PLAIN]
            if language == "en":
                expect(three.locator(".flashes")).to_contain_text(SAID)
            shot(three, f"same-deal-saved-{language}-{width}")
        finally:
            three.context.close()
        if language == "en":  # "Discard mine": the sheet, with theirs alone
            two.locator(".action-bar [data-discard-draft]").click()
            expect(two.locator("thead .total")).to_have_text(["100", "20", "10"])
            assert deals(database, game_id) == [PLAIN]
    finally:
        one.context.close()
        two.context.close()


def test_a_waiting_deal_another_phone_entered_meanwhile_is_marked_sent_with_those_words(browser, served):
    url, database = served
    game_id = store_game(database, game_file())
    page = new_page(browser, service_workers="allow")
    context = page.context
    try:
        under_service_worker(page, f"{url}/games/{game_id}")  # keeps the add-deal form for deal 1
        go_offline(context, f"{url}/games/{game_id}/live")
        page.get_by_role("link", name="Add deal 1").click()
        tap_plain(page)
        page.get_by_role("button", name="Save deal 1").click()
        outbox = page.locator("[data-outbox]")
        expect(outbox).to_contain_text("1 deal waiting to be sent")
        # and the next deal, with Carla's bugs 2, waits after it
        page.get_by_role("link", name="Add deal 2").click()
        expect(page.get_by_role("heading", name="Deal 2")).to_be_visible()
        tap_plain(page, bugs=(0, 2, 2))
        page.get_by_role("button", name="Save deal 2").click()
        expect(outbox).to_contain_text("2 deals waiting to be sent")
        db = connect(str(database))
        try:
            store.add_deal(db, game_id, PLAIN, nonce="phone B")  # the other phone enters the very same deal 1
        finally:
            db.conn.close()
        context.set_offline(False)
        same = page.locator(".outbox-item.same")
        expect(same).to_contain_text(f"{SAID} (deal 1: \u2068Anna\u2069 +100", timeout=15_000)
        expect(outbox).not_to_contain_text("waiting to be sent", timeout=15_000)
        # deal 2 went after it, as deal 2, without asking: 100 + 100, 20 + 20, 10 + 20
        expect(page.locator(".outbox-item.refused")).to_have_count(0)
        expect(page.locator("thead .total")).to_have_text(["200", "40", "30"], timeout=15_000)
        shot(page, "same-deal-outbox")
        page.wait_for_timeout(6_000)  # later rounds of the outbox send nothing more
        assert deals(database, game_id) == [PLAIN, {**PLAIN, "bugs": [0, 2, 2]}]
        assert "on another phone" not in page.locator("main").inner_text()
        page.get_by_role("button", name="OK").click()
        expect(outbox).to_be_hidden()
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "fi"])
def test_a_trix_deal_set_beside_theirs_breaks_no_word_of_its_row_heads(browser, served, language):
    """Tester 9 (LOW): on a Trix deal's conflict page at 390 px, the comparison's row head
    "Finishing order" was broken inside its first word ("Finishin" / "g order"): every
    text of a panel may break anywhere, and the table gave that column less than a word.
    The heads break between words only; the other phone's finishing order and this one's
    stand beside them."""
    from tests.test_gamefile import TRIX_KINGDOM

    url, database = served
    game_id = store_game(database, game_file("trix", deals=TRIX_KINGDOM[:4]))  # deal 5: the Trix
    page = new_page(browser, locale=LOCALES[language])
    try:
        page.goto(f"{url}/games/{game_id}/deals/new")
        for seat in (3, 0, 2, 1):
            page.locator(f'.finish-taps button[data-seat="{seat}"]').click()
        db = connect(str(database))
        try:  # another phone's Trix, in another order
            store.add_deal(db, game_id, {"contracts": ["trix"], "trix": [2, 0, 3, 1]})
        finally:
            db.conn.close()
        page.locator(".action-bar button[type=submit]").click()
        expect(page.locator("[data-compare] tr.differs")).to_have_count(1)
        assert words_cut(page, "[data-compare] tbody th") == []
        assert no_sideways_scroll(page)
        shot(page, f"same-deal-trix-differs-{language}")
    finally:
        page.context.close()


@pytest.mark.parametrize("language", ["en", "fi"])
def test_a_trix_contract_set_beside_another_breaks_no_word_of_its_cells(browser, served, language):
    """Tester 10 (LOW): this phone's Tricks beside the other phone's Diamonds, both as
    deal 3, at 390 px: the comparison gave this phone's column less than a word, and
    "Tricks" was broken ("Trick" / "s"). A cell's words stay whole; only a name may break
    inside itself (one of 40 letters would not fit otherwise)."""
    from tests.test_gamefile import TRIX_KINGDOM

    url, database = served
    game_id = store_game(database, game_file("trix", deals=TRIX_KINGDOM[:2]))  # the King, the Queens
    page = new_page(browser, locale=LOCALES[language])
    try:
        page.goto(f"{url}/games/{game_id}/deals/new?contract=tricks")
        for seat, count in enumerate((3, 3, 4, 3)):
            page.locator(f'label[for="tricks_{seat}_chip-{count}"]').click()
        db = connect(str(database))
        try:  # another phone's Diamonds as deal 3
            store.add_deal(db, game_id, TRIX_KINGDOM[2])
        finally:
            db.conn.close()
        page.locator(".action-bar button[type=submit]").click()
        expect(page.locator("[data-compare] tr.differs").first).to_be_visible()
        assert words_cut(page, "[data-compare] tbody td") == []
        assert words_cut(page, "[data-compare] tbody th") == []
        assert words_cut(page, "[data-compare] thead th") == []  # "Minun", not "Minu / n" (tester 46)
        assert no_sideways_scroll(page)
        shot(page, f"same-deal-trix-contracts-differ-{language}")
    finally:
        page.context.close()


def test_forty_letter_names_set_beside_each_other_keep_the_comparison_the_phones_width(browser, served):
    """Names of 40 letters without a space (the longest a name may be) in the comparison's
    cells (who took the K♥) and its row heads (each one's points), at 360 px: each name
    breaks inside itself and the table stays the phone's width, with nothing to scroll
    sideways; the words around the names stay whole (found beside tester 10's "Trick / s":
    the row heads, kept whole, had made the table 505 px wide in its 320)."""
    url, database = served
    names = ["Maximiliankarlfriedrichwilhelmvonhohenzo", "B" * 40, "Carla", "Dan"]
    game_id = store_game(database, game_file("trix", players=names))
    page = new_page(browser, 360, 740)
    try:
        page.goto(f"{url}/games/{game_id}/deals/new?contract=king")
        page.locator("fieldset", has=page.locator("legend", has_text="Who took the K♥?")).locator("label").nth(0).click()
        db = connect(str(database))
        try:  # another phone's King, taken by the second seat
            store.add_deal(db, game_id, {"contracts": ["king"], "king": {"taker": 1}})
        finally:
            db.conn.close()
        page.locator(".action-bar button[type=submit]").click()
        expect(page.locator("[data-compare] tr.differs")).to_have_count(1)
        wrap = page.locator(".compare-wrap")
        assert wrap.evaluate("(w) => w.scrollWidth <= w.clientWidth"), wrap.evaluate("(w) => [w.scrollWidth, w.clientWidth]")
        assert words_cut(page, "[data-compare] tbody td") == [] and words_cut(page, "[data-compare] tbody th") == []
        assert words_cut(page, "[data-compare] thead th") == []
        expect(page.locator("[data-compare] tr.differs td bdi")).to_have_text([names[1], names[0]])
        assert no_sideways_scroll(page)
        shot(page, "same-deal-long-names-360")
    finally:
        page.context.close()


def test_a_deal_sent_as_the_other_phones_is_said_above_what_was_not_saved(browser, served):
    """Tester 50 (LOW): a phone back online had its deal 8 found stored once (the other
    phone had entered this very deal) and its deal 9 refused: the "stored once" card sat
    under the head "1 deal not saved", as if it were that deal. News of a deal sent comes
    above the head, which counts only what was not saved."""
    url, database = served
    game_id = store_game(database, game_file(deals=[PLAIN]))
    page = new_page(browser)
    try:
        page.goto(f"{url}/games/{game_id}")
        item = {"game": game_id, "players": ["Anna", "Ben", "Carla"], "url": f"{url}/games/{game_id}/deals/new",
                "sheet": f"/games/{game_id}", "data": [], "entries": ["Anna: ♠, Tricks 5"], "at": 0}
        page.evaluate("""(items) => localStorage.setItem("scorekeeper-outbox", JSON.stringify(items))""", [
            {**item, "nonce": "refused-2", "number": 2, "state": "refused", "reason": "Deal 2 was added on another phone"},
            {**item, "nonce": "same-1", "number": 1, "state": "same", "reason": SAID}])
        page.reload()
        expect(page.locator(".outbox-head")).to_have_text("1 deal not saved")
        order = page.eval_on_selector_all("[data-outbox] > *", "(all) => all.map((e) => e.className)")
        assert order.index("outbox-item same") < order.index("outbox-head") < order.index("outbox-item refused"), order
    finally:
        page.context.close()
