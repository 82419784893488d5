"""The score sheet on a phone after a Save, and the Trix sheet read from across the table
(issue 8), in headless Chromium at 390×844 and 360×740.

Screenshots go to screenshots/ (ignored by git): open them and look.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser_support import new_page, serve, shot, store_game, sync_api
from tests.conftest import game_file
from tests.test_gamefile import TRIX_KINGDOM

pytestmark = pytest.mark.browser

expect = sync_api.expect
PHONES = [(390, 844), (360, 740)]
LONG_NAMES = ["Alexandra", "Maximilian", "Konstantinos", "Bartholomew"]

# A Trigami deal that scores little (SCORING.md §1.2: every player bids spades; 4 tricks
# with 3 bugs → floor(40 / 3) = 13, 4/3 → 13, 5/4 → floor(50 / 4) = 12): 19 of them leave
# the game far from 500, so a 20th can be added.
LOW = {"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [4, 4, 5], "bugs": [3, 3, 4]}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    database = tmp_path_factory.mktemp("sheet") / "sheet.sqlite3"
    with serve(database) as base:
        yield {"base": base, "database": database}


# What a player sees after a Save: for each thing, whether it lies wholly in the window,
# clear of the sticky names and totals above and the fixed bar below, and whether a tap
# at its middle reaches it (nothing drawn over it)
IN_SIGHT = """() => {
  const bar = document.querySelector(".action-bar");
  const barTop = bar ? bar.getBoundingClientRect().top : innerHeight;
  const headBottom = document.querySelector("table.sheet thead").getBoundingClientRect().bottom;
  function reached(el) {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  }
  function inWindow(el) {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight && box.height > 0;
  }
  const row = document.querySelector("tr.deal-row.latest");
  const rowBox = row.getBoundingClientRect();
  const above = row.previousElementSibling;
  const heading = above && above.matches(".kingdom-row") ? above.getBoundingClientRect() : null;
  const flash = document.querySelector(".action-bar .flash");
  const undo = document.querySelector(".action-bar .undo button");
  return {
    row: row.id,
    rowClear: rowBox.top >= headBottom - 2 && rowBox.bottom <= barTop,
    rowCells: Array.from(row.cells, reached),
    headingClear: heading === null || heading.top >= headBottom - 2,
    headingTop: heading && heading.top, headBottom: headBottom,
    totals: Array.from(document.querySelectorAll("thead .total"), (t) => inWindow(t) && reached(t)),
    flash: flash ? flash.textContent.trim() : null,
    flashSeen: !!flash && inWindow(flash) && reached(flash),
    undo: undo ? undo.textContent.trim() : null,
    undoSeen: !!undo && inWindow(undo) && reached(undo),
  };
}"""


def _enter_trigami(page, javascript: bool) -> None:
    """Plain bids ♠ ♥ ♣, tricks 5, 4 (and 4), no bugs: 100, 80, 80 (SCORING.md §1.2)."""
    for seat, suit in enumerate(["spades", "hearts", "clubs"]):
        page.locator(".seat-card").nth(seat).get_by_role("img", name=suit).click()
    page.fill("#tricks_0", "5")
    page.fill("#tricks_1", "4")
    if not javascript:
        page.fill("#tricks_2", "4")


def _enter_trix_finishing_order(page, javascript: bool) -> None:
    """The Trix contract, out in seat order: 200, 150, 100, 50 (SCORING.md §2.1)."""
    if javascript:
        for seat in range(3):
            page.locator(".finish-tap").nth(seat).click()
    else:
        for place in range(1, 5):
            page.locator(".block-trix fieldset").nth(place - 1).get_by_text(LONG_NAMES[place - 1], exact=True).click()


def _enter_diamonds(page, javascript: bool) -> None:
    for seat, count in enumerate(["3", "4", "2", "4"][: 4 if not javascript else 3]):
        page.fill(f"#diamonds_{seat}", count)


# (what, game file, address of the form, how the deal is entered, the deal's number)
CASES: list[tuple[str, dict[str, Any], str, Any, int]] = [
    ("trigami", game_file(deals=[LOW] * 19), "/deals/new", _enter_trigami, 20),
    # the last deal of a Trix game between partners: no more Add buttons, the team row in the head
    ("trix-teams-last", game_file("trix", players=LONG_NAMES, options={"partnership": "sum"},
                                  deals=TRIX_KINGDOM * 3 + TRIX_KINGDOM[:4]),
     "/deals/new", _enter_trix_finishing_order, 20),
    # a deal in the last kingdom: the bar holds the message, Undo and the contracts left
    ("trix-contracts-left", game_file("trix", players=LONG_NAMES, deals=TRIX_KINGDOM * 3 + TRIX_KINGDOM[:2]),
     "/deals/new?contract=diamonds", _enter_diamonds, 18),
    # the first deal of a kingdom: its heading ("Kingdom 2 — … chooses and deals") above
    # the row in sight too (tester 37: under the sticky head)
    ("trix-kingdom-begins", game_file("trix", players=LONG_NAMES, deals=TRIX_KINGDOM),
     "/deals/new?contract=diamonds", _enter_diamonds, 6),
]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("width,height", PHONES, ids=["390", "360"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_after_a_save_the_new_row_the_totals_and_undo_are_in_sight(site, browser, case, width, height, javascript):
    """Issue 8: "After saving, the sheet opens at the top; from about deal 8 the newest row
    is below the fold or behind the sticky button." A Save leads to the sheet at the new
    deal's row (#deal-N, also without JavaScript): the row lies below the sticky names
    and totals and above the bar, and the bar at the bottom holds "Deal N saved: …" and
    its Undo, all in the window with nothing over them; so is a kingdom's heading above
    its first deal."""
    what, data, form, enter, number = case
    game_id = store_game(site["database"], data)
    page = new_page(browser, width, height, javascript=javascript)
    try:
        page.goto(f"{site['base']}/games/{game_id}{form}")
        enter(page, javascript)
        page.locator(".action-bar button.primary").click()
        expect(page.locator(".action-bar .flash")).to_contain_text(f"Deal {number} saved")
        assert page.url.endswith(f"/games/{game_id}#deal-{number}")
        page.wait_for_load_state("load")
        seen = page.evaluate(IN_SIGHT)
        shot(page, f"sheet-after-save-{what}-{width}-{'js' if javascript else 'no-js'}", full_page=False)
        assert seen["row"] == f"deal-{number}", seen
        assert seen["rowClear"] and all(seen["rowCells"]), seen
        assert seen["headingClear"], str(seen)
        assert seen["totals"] == [True] * len(data["players"]), seen
        assert seen["flashSeen"] and seen["undo"] == f"↶ Undo deal {number}" and seen["undoSeen"], seen
    finally:
        page.context.close()


# Two kingdoms of partners with four long names. Kingdom 1 (Alexandra's) is
# tests/test_gamefile.py's TRIX_KINGDOM: Maximilian doubles the K♥ and Bartholomew takes
# it; Maximilian doubles the Q♠. In kingdom 2 (Maximilian's) Alexandra also doubles the
# Q♥, which Konstantinos takes. SCORING.md §2.1–2.2: a queen −25, doubled −50 to its taker
# and +25 to the doubler; so kingdom 2's Queens give +25, +25, −75, −75 and the kingdoms
# (TRIX_KINGDOM_POINTS added up) 50, 65, −55, −60 and 100, 65, −105, −60.
QUEENS_TWO_DOUBLED = {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1},
                                                          "H": {"taker": 2, "doubled_by": 0},
                                                          "D": {"taker": 2}, "C": {"taker": 3}}}
TWO_KINGDOMS = [*TRIX_KINGDOM, TRIX_KINGDOM[0], QUEENS_TWO_DOUBLED, *TRIX_KINGDOM[2:]]
TOTALS = ["150", "130", "−160", "−120"]
TEAMS = [("Alexandra & Konstantinos", "−10"), ("Maximilian & Bartholomew", "10")]

SIZES = """() => {
  const size = (el) => parseFloat(getComputedStyle(el).fontSize);
  return {totals: Array.from(document.querySelectorAll("thead .total"), size),
          points: Array.from(document.querySelectorAll("tbody .points"), size)};
}"""

# Each name as shown: its text, whether it overflows its box or ends in "…", and whether
# its box stays inside its cell
NAMES = """() => Array.from(document.querySelectorAll("thead .player-name, thead .team-names"), (el) => {
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  const cell = el.closest("th, a").getBoundingClientRect();
  return {text: el.textContent.trim(), cut: el.scrollWidth > el.clientWidth || style.textOverflow === "ellipsis"
          || style.webkitLineClamp !== "none", inside: box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5};
})"""

# The lines "deals next" takes: one rectangle per line of its text
BADGE_LINES = """() => {
  const badge = document.querySelector("thead .dealer-badge");
  const range = document.createRange();
  range.selectNodeContents(badge);
  return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
}"""


#: The Trix sheet at once: the sizes (:data:`SIZES`), the names (:data:`NAMES`), each team
#: row cell's totals, the lines "deals next" takes (:data:`BADGE_LINES`), the badge under
#: the third header cell, and for deals 1, 2, 3 and 7 how many dealer and doubled marks the
#: row has and each cell's marks (their texts as shown to the eye)
TRIX_SHEET_SEEN = f"""() => ({{
  sizes: ({SIZES})(), names: ({NAMES})(), badgeLines: ({BADGE_LINES})(),
  teams: Array.from(document.querySelectorAll("thead .team-row .team"),
                    (team) => Array.from(team.querySelectorAll(".team-total"), (t) => t.textContent)),
  badge: Array.from(document.querySelectorAll("thead th")[3].querySelectorAll(".dealer-badge"), (b) => b.textContent),
  rows: Object.fromEntries([1, 2, 3, 7].map((deal) => {{
    const row = document.querySelector(`#deal-${{deal}}`);
    return [deal, {{dealerMarks: row.querySelectorAll(".dealer-mark").length,
                    doubledMarks: row.querySelectorAll(".doubled-mark").length,
                    cells: Array.from(row.querySelectorAll("td"), (td) => ({{
                      dealer: Array.from(td.querySelectorAll(".dealer-mark"), (m) => m.textContent),
                      doubled: Array.from(td.querySelectorAll(".doubled-mark [aria-hidden]"), (m) => m.textContent)}}))}}];
  }})),
}})"""


def shown(text: str) -> str:
    """``text`` with its white space as expect's to_have_text weighs it (runs of it one
    space, none at the ends)."""
    return " ".join(text.split())


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_trix_sheet_reads_from_across_the_table(site, browser, scheme):
    """Issue 8: "The Trix sheet's totals are smaller than a deal's points at 360 px; long
    names are cut to "Alexand…" in the header and team rows; the "deals next" badge wraps;
    team totals repeat in all four columns. Trix rows do not show which cards were doubled."
    At 360×740 with four long names: the totals are the largest numbers, every name is
    whole, each team's total stands under both partners' columns beside the partner's
    name (issue 18, part 10), a doubled card is marked on its doubler's cell (K♥², Q♠²,
    named for screen readers) and so is the dealer."""
    game_id = store_game(site["database"], game_file("trix", players=LONG_NAMES, options={"partnership": "sum"},
                                                     deals=TWO_KINGDOMS))
    page = new_page(browser, 360, 740, color_scheme=scheme)
    try:
        page.goto(f"{site['base']}/games/{game_id}")
        expect(page.locator("thead .total")).to_have_text(TOTALS)
        shot(page, f"sheet-trix-long-names-360-{scheme}")
        shot(page, f"sheet-trix-long-names-360-{scheme}-top", full_page=False)

        # the sheet shown (its totals above): its sizes, names, team row, badge and marks read
        # in one call
        seen = page.evaluate(TRIX_SHEET_SEEN)
        sizes = seen["sizes"]
        assert min(sizes["totals"]) > max(sizes["points"]), sizes

        names = seen["names"]
        assert [n["text"] for n in names] == LONG_NAMES + [f"with {LONG_NAMES[(s + 2) % 4]}" for s in range(4)]
        assert not [n for n in names if n["cut"] or not n["inside"]], names

        # under each player, the team's total and the partner (issue 18, part 10)
        assert [[shown(total) for total in team] for team in seen["teams"]] == [[TEAMS[seat % 2][1]] for seat in range(4)]

        # "deals" on one line, under Konstantinos, who owns kingdom 3 (each next owner sits to the right)
        assert seen["badgeLines"] == 1
        assert [shown(badge) for badge in seen["badge"]] == ["deals"]

        def marks(deal: int, seat: int, mark: str) -> list[str]:
            """The texts of the marks (dealer, doubled) in ``deal``'s cell of ``seat``."""
            return [shown(text) for text in seen["rows"][str(deal)]["cells"][seat][mark]]

        def cell(deal: int, seat: int):
            return page.locator(f"#deal-{deal} td").nth(seat)

        rows = seen["rows"]
        # deal 1: anyone deals; Maximilian doubled the K♥
        assert rows["1"]["dealerMarks"] == 0
        assert marks(1, 1, "doubled") == ["K♥²"]
        expect(cell(1, 1).get_by_role("link")).to_have_accessible_name(re.compile(r"doubled the king of hearts"))
        assert rows["1"]["doubledMarks"] == 1
        # deal 2: Alexandra, the owner, deals; Maximilian doubled the Q♠
        assert marks(2, 0, "dealer") == ["D"]
        assert marks(2, 1, "doubled") == ["Q♠²"]
        expect(cell(2, 1).get_by_role("link")).to_have_accessible_name(re.compile(r"doubled the queen of spades"))
        # deal 7 (kingdom 2, Maximilian's): he deals and doubled the Q♠, Alexandra the Q♥
        assert marks(7, 1, "dealer") == ["D"]
        assert marks(7, 1, "doubled") == ["Q♠²"]
        assert marks(7, 0, "doubled") == ["Q♥²"]
        expect(cell(7, 0).get_by_role("link")).to_have_accessible_name(re.compile(r"doubled the queen of hearts"))
        assert rows["7"]["doubledMarks"] == 2
        assert rows["3"]["doubledMarks"] == 0  # Diamonds: nothing to double
    finally:
        page.context.close()


# Each head name as shown: its font size (px), the page's root size (px), and for each of
# its words the lines it takes (a word broken inside takes two or more)
NAME_WORDS = """() => Array.from(document.querySelectorAll("thead .player-name"), (name) => {
  const node = document.createTreeWalker(name, NodeFilter.SHOW_TEXT).nextNode();
  const words = [];
  for (const match of node.data.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(node, match.index);
    range.setEnd(node, match.index + match[0].length);
    words.push([match[0], new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size]);
  }
  return {size: parseFloat(getComputedStyle(name).fontSize),
          root: parseFloat(getComputedStyle(document.documentElement).fontSize), words};
})"""


NINE_TO_TEN = ["Alexandra", "Maximilian", "Katharina", "Sebastian"]


def test_long_names_stand_whole_in_a_four_seat_head(site, browser):
    """Testers 43, 46 and 49: with four seats on a 390 px phone the head read "Alexandr / a",
    "Maximilia / n". Now the head's names are made smaller together, never below three
    quarters of their size, so that a name of up to ten letters stands whole (a longer
    word may still break); four short names keep their size (0.8 of the page's text with
    four seats)."""
    long_game = store_game(site["database"], game_file("trix", players=NINE_TO_TEN, deals=TRIX_KINGDOM))
    short_game = store_game(site["database"], game_file("trix", players=["Anna", "Ben", "Carla", "Dora"],
                                                        deals=TRIX_KINGDOM))
    page = new_page(browser, 390, 844)
    try:
        page.goto(f"{site['base']}/games/{long_game}")
        expect(page.locator("thead .player-name")).to_have_text(NINE_TO_TEN)
        long_names = page.evaluate(NAME_WORDS)
        page.goto(f"{site['base']}/games/{short_game}")
        expect(page.locator("thead .player-name")).to_have_text(["Anna", "Ben", "Carla", "Dora"])
        short_names = page.evaluate(NAME_WORDS)
    finally:
        page.context.close()
    broken = [word for name in long_names for word, lines in name["words"] if lines != 1]
    assert broken == [], long_names
    assert len({name["size"] for name in long_names}) == 1, long_names  # one size for the whole head
    full = short_names[0]["root"] * 0.8
    assert [name["size"] for name in short_names] == pytest.approx([full] * 4, abs=0.05)
    assert 0.75 * full - 0.05 <= long_names[0]["size"] < full


def test_names_of_different_lengths_leave_the_totals_on_one_line(site, browser):
    """A short name beside long ones that wrap over several lines: the totals still stand
    side by side, so the eye reads them across the table as one row."""
    game_id = store_game(site["database"], game_file("trix", players=["Al", "Maximiliana Wolfeschlegelstein",
                                                                      "Bo", "Konstantinos Alexandropoulos"],
                                                     deals=TWO_KINGDOMS[:2]))
    page = new_page(browser, 360, 740)
    try:
        page.goto(f"{site['base']}/games/{game_id}")
        # the loaded sheet's totals' tops, its badges and the room kept for them, in one call
        tops, badges, spaces, looks = page.evaluate("""[
            Array.from(document.querySelectorAll("thead .total"), (t) => Math.round(t.getBoundingClientRect().top)),
            document.querySelectorAll("thead .dealer-badge:not(.badge-space)").length,
            document.querySelectorAll('thead .badge-space[aria-hidden="true"]').length,
            Array.from(document.querySelectorAll("thead .badge-space"), (b) => getComputedStyle(b).visibility)]""")
        assert len(tops) == 4 and max(tops) - min(tops) <= 1, tops
        assert badges == 1
        assert spaces == 3  # room kept, not read out
        assert looks == ["hidden"] * 3
    finally:
        page.context.close()


def test_with_large_text_on_a_small_phone_no_running_total_is_cut(site, browser):
    """Tester 49 (MEDIUM): a phone set to large text (150 %) at 320 px showed Trix running
    totals of three digits as "Σ−…": the number a player checks was cut away. It now goes
    under its Σ when the column is too narrow for both, whole either way."""
    game_id = store_game(site["database"], game_file("trix", players=LONG_NAMES, deals=TRIX_KINGDOM * 2))
    page = new_page(browser, 320, 568)
    try:
        page.goto(f"{site['base']}/games/{game_id}")
        cut = page.evaluate("""() => {
          document.documentElement.style.fontSize = "150%";
          return Array.from(document.querySelectorAll(".sheet tbody .running bdi"), (number) => {
            const cell = number.closest("td").getBoundingClientRect();
            const box = number.getBoundingClientRect();
            return box.left >= cell.left - 1 && box.right <= cell.right + 1 ? null : number.textContent;
          }).filter((text) => text !== null);
        }""")
        assert cut == []
        assert page.locator(".sheet tbody .running").count() == 4 * 10
    finally:
        page.context.close()
