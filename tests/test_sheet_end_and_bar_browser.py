"""Issue 18, parts 9 and 10, in headless Chromium at 390×844 and 360×740: after the
winning deal the result (who won, the totals) is in sight together with the new row; in
Trix the bar at the bottom (the saved line, Undo, the contracts left) takes at most about
a sixth of the screen, and each partner's column shows its team's total right under it.

Screenshots go to screenshots/ (ignored by git): open them and look.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser_support import (
    FITS_WIDTH,
    fill_worked_example,
    new_page,
    serve,
    shot,
    store_game,
    sync_api,
)
from tests.conftest import game_file
from tests.test_gamefile import TRIX_KINGDOM

pytestmark = pytest.mark.browser

expect = sync_api.expect
PHONES = [(390, 844), (360, 740)]
NAMES = ["Alexandra", "Maximilian", "Konstantinos", "Bartholomew"]

# A Trigami deal that scores little (SCORING.md §1.2: every player bids spades; 4 tricks
# with 3 bugs → floor(40 / 3) = 13, 4/3 → 13, 5/4 → floor(50 / 4) = 12): after 19 of them
# Anna 247, Ben 247, Carla 228, short of a target of 300.
LOW = {"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [4, 4, 5], "bugs": [3, 3, 4]}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    database = tmp_path_factory.mktemp("end-and-bar") / "sheet.sqlite3"
    with serve(database) as base:
        yield {"base": base, "database": database}


def _shot(page, name: str) -> None:
    """The window as the player sees it, into screenshots/NAME.png."""
    shot(page, name, full_page=False)


def _phone(browser, site, width: int, height: int, lang: str = "en"):
    page = new_page(browser, width, height)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": site["base"]}])
    return page


# Each thing's box, and the band of the window between the sticky names and totals at the
# top and the fixed bar at the bottom, where a row is seen whole
BOXES = """(selectors) => {
  const box = (el) => { if (!el) return null; const b = el.getBoundingClientRect();
                        return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, height: b.height}; };
  const bar = document.querySelector(".action-bar");
  const out = {window: innerHeight, headBottom: document.querySelector("table.sheet thead").getBoundingClientRect().bottom,
               barTop: bar ? bar.getBoundingClientRect().top : innerHeight, bar: box(bar),
               // the bar's background as drawn: a colour with an alpha lets the page show through
               barBackground: bar ? [getComputedStyle(bar).backgroundColor, getComputedStyle(bar).backdropFilter] : null};
  for (const [name, selector] of Object.entries(selectors)) out[name] = box(document.querySelector(selector));
  return out;
}"""


#: After the last deal, at once: the boxes (:data:`BOXES`), whether each total lies whole in
#: the window, and how many players' columns are marked as the winners'
END_IN_SIGHT = f"""(selectors) => ({{...({BOXES})(selectors),
  totals: Array.from(document.querySelectorAll("thead .total"), (t) => {{
    const b = t.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight && b.height > 0; }}),
  winners: document.querySelectorAll("thead .player-col.winner").length}})"""


def _clear(seen: dict[str, Any], name: str, below_head: bool = True) -> bool:
    """Whether ``name``'s box lies wholly in the window, under the sticky head (when
    ``below_head``) and above the fixed bar."""
    b = seen[name]
    return (b is not None and b["height"] > 0 and b["top"] >= (seen["headBottom"] - 2 if below_head else 0)
            and b["bottom"] <= seen["barTop"] + 1)


def _enter_trigami_win(page) -> None:
    """Plain bids ♠ ♥ ♣, tricks 5, 4 (and 4), no bugs: 100, 80, 80 (SCORING.md §1.2)."""
    for seat, suit in enumerate(["spades", "hearts", "clubs"]):
        page.locator(".seat-card").nth(seat).get_by_role("img", name=suit).click()
    page.fill("#tricks_0", "5")
    page.fill("#tricks_1", "4")


def _enter_trix_finishing_order(page) -> None:
    """The Trix contract, out in seat order: 200, 150, 100, 50 (SCORING.md §2.1)."""
    for seat in range(3):
        page.locator(".finish-tap").nth(seat).click()


END_CASES = [
    # 247 + 100 = 347 against 327 and 308, all past 300: Anna alone on top wins (SCORING.md §1.4)
    ("trigami", game_file(options={"target": 300}, deals=[LOW] * 19), _enter_trigami_win, 20, "Game over — Anna won!"),
    # the fourth kingdom's Trix: four kingdoms of TRIX_KINGDOM, each team 50 − 55 = −5 and
    # 65 − 60 = 5 a kingdom → Maximilian & Bartholomew win 20 to −20
    ("trix-teams", game_file("trix", players=NAMES, options={"partnership": "sum"},
                             deals=TRIX_KINGDOM * 3 + TRIX_KINGDOM[:4]),
     _enter_trix_finishing_order, 20, "Game over — Maximilian & Bartholomew won!"),
]


@pytest.mark.parametrize("width,height", PHONES, ids=["390", "360"])
@pytest.mark.parametrize("case", END_CASES, ids=[c[0] for c in END_CASES])
def test_after_the_winning_deal_the_result_and_the_new_row_are_in_sight(site, browser, case, width, height):
    """Issue 18, part 9: "After the winning deal the sheet opens at that deal's row and the
    'Game over — Jörg won' banner is scrolled out of view." After the last deal's Save the
    new row, who won and every total are on the screen at once, none of them under the
    sticky head or the bar with "Deal N saved" and its Undo."""
    what, data, enter, number, result = case
    game_id = store_game(site["database"], data)
    page = _phone(browser, site, width, height)
    try:
        page.goto(f"{site['base']}/games/{game_id}/deals/new")
        enter(page)
        page.locator(".action-bar button.primary").click()
        expect(page.locator(".action-bar .flash")).to_contain_text(f"Deal {number} saved")
        page.wait_for_load_state("load")
        expect(page.locator(".game-over")).to_have_text(f"🏆 {result}")
        seen = page.evaluate(END_IN_SIGHT, {"row": f"#deal-{number}", "result": ".game-over"})
        _shot(page, f"end-of-game-{what}-{width}")
        assert _clear(seen, "row"), seen
        assert _clear(seen, "result"), seen
        assert seen["totals"] == [True] * len(data["players"])
        # the bar is opaque: no row of the sheet shows through it as a ghost (tester 55)
        colour, blur = seen["barBackground"]
        assert re.fullmatch(r"rgb\(\d+, \d+, \d+\)", colour) and blur == "none", seen["barBackground"]
        # the winners' columns stand out beside their totals
        assert seen["winners"] == (2 if what == "trix-teams" else 1)
    finally:
        page.context.close()


# What a Trix sheet shows between its head and its bar: the band's rows seen whole, the
# bar's height, each team cell's box beside its player's column, the bar's buttons (their
# size, whether each lies in the window and shows its words whole), and the team totals'
# and partners' names as shown
SHEET_IN_SIGHT = """() => {
  const bar = document.querySelector(".action-bar").getBoundingClientRect();
  const head = document.querySelector("table.sheet thead").getBoundingClientRect();
  const rows = Array.from(document.querySelectorAll("table.sheet tbody tr"), (r) => r.getBoundingClientRect())
    .filter((b) => b.top >= head.bottom - 1 && b.bottom <= bar.top + 1).length;
  const box = (el) => { const b = el.getBoundingClientRect(); return {left: b.left, right: b.right}; };
  return {bar: bar.height, window: innerHeight, rows,
          columns: Array.from(document.querySelectorAll("thead tr:first-child .player-col"), box),
          teams: Array.from(document.querySelectorAll("thead .team-row .team-cell"), box),
          buttons: Array.from(document.querySelectorAll(".action-bar a.button, .action-bar button"), (b) => {
            const box = b.getBoundingClientRect();
            return {width: box.width, height: box.height, inWindow: box.left >= 0 && box.right <= document.documentElement.clientWidth,
                    whole: b.scrollWidth <= b.clientWidth + 1 && b.scrollHeight <= b.clientHeight + 1}; }),
          teamTotals: Array.from(document.querySelectorAll("thead .team-row .team-total"), (t) => t.innerText),
          partners: Array.from(document.querySelectorAll("thead .team-row .team-names bdi"), (b) => b.innerText)};
}"""


def _enter_king_taken_by_bartholomew(page) -> None:
    page.locator(".block-king fieldset").first.get_by_text("Bartholomew", exact=True).click()


#: (what, the deals stored, where the next deal is entered, how, the contracts left after
#: it, each column's team total after it, as SCORING.md §2.1 gives them).
#: - Kingdom 2's first deal: TRIX_KINGDOM, then Maximilian chooses the King of Hearts and
#:   Bartholomew takes it (−75): Alexandra & Konstantinos 50 − 55 = −5, Maximilian &
#:   Bartholomew 65 − 60 − 75 = −70; four contracts left.
#: - Kingdom 1's last deal: its first four deals (Alexandra −100, Maximilian 15,
#:   Konstantinos −255, Bartholomew −160), then the Trix contract out in seat order (+200,
#:   +150, +100, +50): −100 + 200 − 255 + 100 = −55 and 15 + 150 − 160 + 50 = 55; the next
#:   kingdom's five contracts in the bar.
BAR_CASES = [
    ("first-deal", TRIX_KINGDOM, "?contract=king", _enter_king_taken_by_bartholomew, 6, 4, ["−5", "−70", "−5", "−70"]),
    ("new-kingdom", TRIX_KINGDOM[:4], "", _enter_trix_finishing_order, 5, 5, ["−55", "55", "−55", "55"]),
]
LANGUAGES = ["en", "de", "fi", "ar"]
WESTERN = str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789", "\u061c")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("width,height", PHONES, ids=["390", "360"])
@pytest.mark.parametrize("case", BAR_CASES, ids=[c[0] for c in BAR_CASES])
def test_the_trix_bar_leaves_the_sheet_in_sight_and_team_totals_stand_over_the_partners(site, browser, case, width,
                                                                                         height, lang):
    """Issue 18, part 10: "after a kingdom's first deal the bottom bar (saved line, Undo,
    five contract buttons) covers about a quarter of the screen and only three rows of the
    sheet show; partners' team totals do not stand over their partners' columns." After a
    Save, the bar (the saved line, its Undo and every contract left, each a button large
    enough to tap) takes at most a sixth of the window; at least six rows of the sheet
    show whole between the head and the bar; and under each player's column stands the
    team's total (partners sit opposite: Alexandra & Konstantinos, Maximilian &
    Bartholomew), in every language, right to left in Arabic."""
    what, deals, query, enter, number, left, team_totals = case
    game_id = store_game(site["database"], game_file("trix", players=NAMES, options={"partnership": "sum"},
                                                     deals=deals))
    page = _phone(browser, site, width, height, lang)
    try:
        page.goto(f"{site['base']}/games/{game_id}/deals/new{query}")
        enter(page)
        page.locator(".action-bar button.primary").click()
        expect(page.locator(".action-bar .undo button")).to_be_visible()
        expect(page.locator(".add-contracts a.button")).to_have_count(left)
        page.wait_for_load_state("load")
        # the newest row just above the bar, as the eye goes from the bar up the sheet
        page.evaluate("""(n) => { const row = document.querySelector("#deal-" + n);
            const bar = document.querySelector(".action-bar").getBoundingClientRect();
            scrollBy(0, row.getBoundingClientRect().bottom - bar.top); }""", number)
        seen = page.evaluate(SHEET_IN_SIGHT)
        _shot(page, f"trix-bar-{what}-{lang}-{width}")
        assert seen["bar"] <= seen["window"] / 6 + 1, seen
        assert seen["rows"] >= 6, seen
        # every tap target in the bar at least 44 px wide and 40 px high (UX.md: chips
        # ≥ 44 px; the sheet's small buttons 40 px), and every word of it inside its button
        buttons = seen["buttons"]
        assert len(buttons) == left + 1, buttons
        assert all(b["width"] >= 44 and b["height"] >= 40 and b["whole"] and b["inWindow"] for b in buttons), buttons
        # each column's team total stands under that player's name and total
        assert len(seen["teams"]) == 4, seen
        for column, team in zip(seen["columns"], seen["teams"], strict=True):
            assert team["left"] >= column["left"] - 1 and team["right"] <= column["right"] + 1, seen
        shown = seen["teamTotals"]
        assert [t.translate(WESTERN) for t in shown] == team_totals
        if lang == "ar":
            assert all("٠" <= c <= "٩" for t in shown for c in t if c.isdigit()), shown
        # each names the partner: the player two seats on
        partners = seen["partners"]
        assert partners == [NAMES[(seat + 2) % 4] for seat in range(4)]
        if lang == "en":  # Undo: the offer to restore the deal stands whole in the bar
            page.locator(".action-bar .undo button").click()
            restore = page.locator(".action-bar .flash-restore button")
            expect(restore).to_have_text(f"↶ Restore deal {number}")
            expect(restore).to_be_in_viewport(ratio=1)
            _shot(page, f"trix-bar-{what}-undone-{width}")
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "width"), [("de", 390), ("fi", 320)])
def test_without_connection_the_undo_says_why_within_the_phone(browser, site, lang, width):
    """Tester 65: a deal just saved, then the connection lost: the greyed Undo's "Needs a
    connection" ran off the screen ("Braucht eine Verbindun…" at 390 px in German,
    "Tarvitsee yhteyden" clipped at 320 in Finnish). It wraps under the Undo, whole."""
    game_id = store_game(site["database"], game_file(players=["Anna", "Ben", "Carla"]))
    page = _phone(browser, site, width, 700)  # English while the example is tapped in
    try:
        page.goto(f"{site['base']}/games/{game_id}/deals/new")
        fill_worked_example(page)
        page.get_by_role("button", name="Save deal 1").click()
        expect(page.locator(".own-news .undo")).to_be_visible()
        page.context.add_cookies([{"name": "lang", "value": lang, "url": site["base"]}])
        page.goto(f"{site['base']}/games/{game_id}")  # the Undo still offered, in the phone's language
        expect(page.locator(".own-news .undo")).to_be_visible()
        page.context.set_offline(True)
        why = page.locator(".own-news .undo .offline-why")
        expect(why).to_be_visible()
        box, fits = page.evaluate(f"""() => [document.querySelector(".own-news .undo .offline-why").getBoundingClientRect().toJSON(),
                                              {FITS_WIDTH}]""")
        assert box["left"] >= 0 and box["right"] <= width + 0.5, box
        assert fits
        _shot(page, f"bar-undo-offline-{lang}-{width}")
    finally:
        page.context.set_offline(False)
        page.context.close()
