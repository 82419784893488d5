"""Settling a dispute on a phone: tap a number on the sheet and see how it came about;
the calculator and what-if at phone size.  Headless Chromium through Playwright, as in
tests/test_browser.py (the system's Chromium, never a downloaded one).

Screenshots go to screenshots/explain-*.png — open them and look.
"""

from __future__ import annotations

import pytest

from tests import browser_support
from tests.browser_support import (
    FITS_WIDTH,
    fill_worked_example,
    new_page,
    no_sideways_scroll,
    serve,
    store_game,
    sync_api,
)
from tests.conftest import WORKED_TRIGAMI_DEAL as WORKED
from tests.test_explain import CLEAN, KINGDOM  # worked by hand there

expect = sync_api.expect

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app's URL, and a function that stores a game (a game file dict's keys) and
    returns its sheet's URL."""
    path = tmp_path_factory.mktemp("browser-explain") / "explain.sqlite3"
    with serve(path) as base:

        def make(kind, players, deals, options=None, first_dealer=0):
            game_id = store_game(path, {"format": 1, "game": kind, "players": players,
                                        "first_dealer": first_dealer, "options": options or {},
                                        "deals": deals})
            return f"{base}/games/{game_id}"

        yield base, make


_page = new_page


def shot(page, name: str, full_page: bool = True) -> None:
    browser_support.shot(page, f"explain-{name}", full_page=full_page)


def cell(page, deal: int, seat: int):
    """The points cell of ``deal`` (1-based) for ``seat`` on the score sheet."""
    return page.locator(f"#deal-{deal} td").nth(seat)


# ------------------------------------------------------------------------- the sheet


def test_tap_a_points_cell_and_see_how_it_came_about(page, served):
    """The worked example (SCORING.md §1.2): Carla's 13 opens in place with the counts,
    the steps and the rule stated; Close and the phone's back button return to the sheet."""
    _base, make = served
    url = make("trigami", ["Anna", "Ben", "Carla"], [WORKED, CLEAN])
    page.goto(url)
    carla = cell(page, 1, 2)
    link = carla.locator("a.cell-link")
    # the cell still looks like a number on a score sheet: no underline, not link-blue,
    # and the whole cell is a big tap target
    style = link.evaluate("a => [getComputedStyle(a).textDecorationLine, getComputedStyle(a).color,"
                          " getComputedStyle(a.closest('td')).color, a.getBoundingClientRect().height]")
    assert style[0] == "none" and style[1] == style[2] and style[3] >= 44
    shot(page, "1-sheet")

    carla.tap()
    dialog = page.locator("dialog[data-explain-dialog]")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("4 tricks × 10 = 40, ÷ 3 bugs = 13 (fraction dropped)")
    expect(dialog).to_contain_text("If one player wins every trick")
    expect(dialog).to_contain_text("divided by the bugs, the fraction dropped")
    expect(dialog.locator(".entered-table .this-seat")).to_contain_text("Carla")
    assert no_sideways_scroll(page)
    shot(page, "2-cell-dialog", full_page=False)
    dialog.evaluate("d => d.scrollTo(0, d.scrollHeight)")
    shot(page, "3-cell-dialog-rules", full_page=False)

    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    assert page.url == url  # still the sheet

    page.locator("thead .player-col").nth(1).locator("a").tap()  # Ben's total
    expect(dialog).to_contain_text("Ben's total: 280")
    expect(dialog).to_contain_text("200 + 80 = 280")
    shot(page, "4-total-dialog", full_page=False)
    # a link inside the explanation opens in the same place
    dialog.get_by_role("link", name="Deal 2", exact=True).click()
    expect(dialog).to_contain_text("Ben in deal 2:")
    page.go_back()  # the phone's back button closes the explanation, the sheet stays
    expect(dialog).to_be_hidden()
    assert page.url == url


def test_without_javascript_a_cell_is_a_link_to_its_explanation_page(browser, served):
    _base, make = served
    url = make("trigami", ["Ida", "Jon", "Kai"], [WORKED])
    page = _page(browser, javascript=False)
    page.goto(url)
    cell(page, 1, 2).tap()
    expect(page).to_have_url(f"{url}/explain/1?seat=2")
    expect(page.locator("h1")).to_contain_text("Kai in deal 1: +13")
    expect(page.locator(".steps")).to_contain_text("4 tricks × 10 = 40, ÷ 3 bugs = 13 (fraction dropped)")
    assert no_sideways_scroll(page)
    shot(page, "5-cell-page-no-js")
    page.context.close()


def test_trix_kingdom_check_and_a_doubled_king_at_360_px(browser, served):
    """SCORING.md §2.1/§2.2: Carla's −150 for the doubled K♥ states the doubling rule; the kingdom check
    says why the four totals add up to 0."""
    _base, make = served
    names = ["Anna-Maria Katariina", "Bartholomew", "Christophoros", "Dorothea Wilhelmina"]
    url = make("trix", names, KINGDOM, first_dealer=1)
    page = _page(browser, width=360, height=740)
    page.goto(url)
    assert no_sideways_scroll(page)
    shot(page, "6-trix-sheet-360")
    cell(page, 1, 2).tap()
    dialog = page.locator("dialog[data-explain-dialog]")
    expect(dialog).to_contain_text("took the K♥, doubled by \u2068Bartholomew\u2069: −150")
    expect(dialog).to_contain_text("Doubling")
    expect(dialog).to_contain_text("Another player takes the doubled K♥: the taker −150, the doubler +75.")
    # the German original is there, closed: one tap opens it
    original = dialog.locator("details.quote-original")
    expect(original.locator("summary")).to_have_text("The original rule, in German: Herz-König und Damen verdoppeln")
    expect(original.locator("blockquote")).to_be_hidden()
    assert no_sideways_scroll(page)
    shot(page, "7-trix-king-dialog-360", full_page=False)
    dialog.get_by_role("button", name="Close").click()

    page.locator(".check-row a").tap()
    expect(dialog).to_contain_text("Kingdom 1 (Bartholomew): Σ = 0")
    expect(dialog).to_contain_text("The check holds")
    expect(dialog).to_contain_text("so after every kingdom the four totals add up to 0")
    shot(page, "8-kingdom-dialog-360", full_page=False)
    page.context.close()


# ------------------------------------------------------------------------- calculator, what-if


def test_calculator_scores_a_trix_queens_deal_on_a_phone(page, served):
    """SCORING.md §2.2 worked example: Ben doubles his Q♠ and Dan takes it: Dan −75, Ben +25."""
    base, _make = served
    page.goto(f"{base}/calculator?kind=trix&player=Anna&player=Ben&player=Carla&player=Dan")
    page.locator(".contract-choice label", has_text="Queens").click()
    queens = page.locator(".block-queens .queen")
    for index, taker in enumerate(["Dan", "Anna", "Carla", "Dan"]):
        queens.nth(index).locator("fieldset").first.get_by_text(taker, exact=True).click()
    spade = queens.nth(0)
    spade.locator("fieldset", has_text="Who doubled").get_by_text("Ben", exact=True).click()
    expect(page.locator("[data-preview-line]")).to_contain_text("\u2068Ben\u2069 +25")
    expect(page.locator("[data-preview-line]")).to_contain_text("\u2068Dan\u2069 −75")
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="Work it out").click()
    result = page.locator("#result")
    expect(result).to_contain_text("doubled the Q♠ and \u2068Dan\u2069 took it: +25")
    expect(result.locator(".calc-points")).to_contain_text("Dan −75")
    assert no_sideways_scroll(page)
    shot(page, "9-calculator-trix", full_page=False)


def test_what_if_no_doubling_at_360_px(browser, served):
    _base, make = served
    url = make("trix", ["Anna", "Ben", "Carla", "Dan"], KINGDOM, first_dealer=1)
    page = _page(browser, width=360, height=740)
    page.goto(url)
    page.get_by_role("link", name="What if…").click()
    page.get_by_text("As if nobody had doubled").click()
    page.get_by_role("button", name="Show what would have happened").click()
    # Deal 1 undoubled: Carla −75 (not −150), Ben 0 (not +75); deal 2: Dan −50 (not −75), Ben 0 (not +25)
    totals = page.locator(".other-totals .total")
    expect(totals).to_have_text(["50", "−35", "20", "−35"])
    expect(page.locator(".real-totals .total")).to_have_text(["50", "65", "−55", "−60"])
    assert no_sideways_scroll(page)
    shot(page, "10-what-if-360")
    page.context.close()


def test_calculator_works_without_javascript(browser, served):
    """The worked example (SCORING.md §1.2) in the calculator: "Work it out" is a plain
    form submission that comes back with 80, 200, 13."""
    base, _make = served
    page = _page(browser, javascript=False)
    page.goto(f"{base}/calculator")
    page.get_by_text("Names (optional)").click()
    for seat, name in enumerate(["Anna", "Ben", "Carla"]):
        page.fill(f"#player-{seat}", name)
    fill_worked_example(page)
    page.get_by_role("button", name="Work it out").click()
    result = page.locator("#result")
    expect(result.locator(".calc-points")).to_have_text("Anna +80 Ben +200 Carla +13", use_inner_text=True)
    expect(result).to_contain_text("4 tricks × 10 = 40, ÷ 3 bugs = 13 (fraction dropped)")
    filled, fits = page.evaluate(f"[document.querySelector('#tricks_2').value, {FITS_WIDTH}]")
    assert filled == "4"  # the server filled in the last count
    assert fits  # no sideways scroll
    shot(page, "11-calculator-no-js", full_page=False)
    page.context.close()


def test_a_name_of_forty_letters_without_a_space_leaves_its_points_on_the_calculators_page(page, served):
    """Tester 55: a name of forty Arabic letters (the most a name may have) in the
    calculator's names pushed its points past the right edge of the phone: the name
    breaks inside instead, and its +13 stands on the page (SCORING.md §1.2's worked deal)."""
    base, _make = served
    page.goto(f"{base}/calculator")
    page.get_by_text("Names (optional)").click()
    page.fill("#player-2", "ع" * 40)
    fill_worked_example(page)
    page.get_by_role("button", name="Work it out").click()
    points = page.locator("#result .calc-points b")
    expect(points).to_have_text(["+80", "+200", "+13"])
    seen = points.evaluate_all(f"""(all) => [all.map((b) => b.getBoundingClientRect().right),
        document.querySelector("#result").getBoundingClientRect().right, {FITS_WIDTH}]""")
    rights, result_right, fits = seen
    assert fits and all(right <= result_right + 1 for right in rights), seen


def test_what_if_lower_target_on_a_phone(page, served):
    _base, make = served
    url = make("trigami", ["Anna", "Ben", "Carla"], [WORKED, CLEAN, CLEAN])
    page.goto(url)
    page.get_by_role("link", name="What if…").click()
    page.fill("#target", "250")
    page.get_by_role("button", name="Show what would have happened").click()
    expect(page.locator(".what-if-outcome")).to_contain_text("Ben would have won, after deal 2.")
    expect(page.locator(".what-if-outcome")).to_contain_text("Deal 3 would not have been played.")
    expect(page.locator(".not-played-row")).to_be_visible()
    assert no_sideways_scroll(page)
    page.locator("#result").scroll_into_view_if_needed()
    shot(page, "12-what-if-target")


#: Every word of the elements a selector finds drawn on more than one line: broken inside it
BROKEN_WORDS = """(selector) => Array.from(document.querySelectorAll(selector))
  .flatMap(function (th) {
    const broken = [];
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        if (new Set(Array.from(range.getClientRects(), (box) => Math.round(box.top))).size > 1) broken.push(word[0]);
      }
    }
    return broken;
  })"""


@pytest.mark.parametrize("locale", ["fi-FI", "de-DE", "en-GB"])
def test_the_headings_of_an_explanations_tables_break_no_word_on_a_small_phone(browser, served, locale):
    """Tester 20 (LOW): in Finnish at 360 px the headings of "What was entered" broke
    inside words ("Pelaaj|a", "Tiki|t", "Kiusakort|it"): the worked example (SCORING.md
    §1.2: Anna's Turnip, Ben's Doublets, the longest bids) read in every language."""
    _base, make = served
    sheet = make("trigami", ["Anna", "Ben", "Carla"], [WORKED])
    page = _page(browser, 360, 740, locale=locale)
    try:
        page.goto(f"{sheet}/explain/1?seat=0")
        expect(page.locator(".entered-table")).to_be_visible()
        headings, broken, width = page.evaluate(f"""() => [
            document.querySelectorAll(".entered-table thead th").length,
            ({BROKEN_WORDS})(".entered-table thead th, .explain-table thead th"),
            document.documentElement.scrollWidth]""")
        assert headings >= 4
        assert broken == []
        assert width <= 360  # and nothing runs off the side
        shot(page, f"entered-360-{locale}")
    finally:
        page.context.close()



@pytest.mark.parametrize(("locale", "width"), [("fi-FI", 320), ("de-DE", 320), ("en-GB", 320), ("de-DE", 390)])
def test_what_if_numbers_and_badges_stay_whole_on_a_small_phone(browser, served, locale, width):
    """Tester 67: at 320 px the boxed what-if numbers broke inside themselves ("+15" over
    "0", read as 15), "−220" ran into "−240" in the totals' row, and the badges broke
    inside words ("voitta/isi", "gewonn/en"). A whole Trix game (tests/test_explain.py's
    kingdom four times) under reversed scoring, every number and word whole and in its
    own column."""
    _base, make = served
    # tester 68: long names, at 390 px in German too ("gewonn/en")
    names = ["Emma", "Karim", "Aino", "Dieter"] if width == 320 else ["Anneliese-Marie", "Bartholomäus", "Carla", "Dan"]
    sheet = make("trix", names, KINGDOM * 4, first_dealer=1)
    page = _page(browser, width, 640, locale=locale)
    try:
        page.goto(f"{sheet}/what-if?scoring=reversed&doubling=none")
        expect(page.locator(".what-if-sheet")).to_be_visible()
        broken, spilled, page_width = page.evaluate(f"""() => [
            ({BROKEN_WORDS})(".what-if-sheet .other-points, .what-if-totals .badge, .what-if-totals .total"),
            Array.from(document.querySelectorAll(".what-if-totals td"))
              .filter((td) => Array.from(td.children).some((e) => e.scrollWidth > td.clientWidth + 1))
              .map((td) => td.textContent.trim()),
            document.documentElement.scrollWidth]""")
        assert broken == []
        assert spilled == []  # nothing wider than its column
        assert page_width <= width
        shot(page, f"what-if-{width}-{locale}")
    finally:
        page.context.close()


def test_a_folded_originals_title_breaks_no_word_on_an_arabic_phone(browser, served):
    """Tester 35 (LOW): on an Arabic page at 360 px the English original's title broke as
    "Scorin / g" (the title and the section wrapped as two flex items); it wraps between
    words, the section's heading named once."""
    _base, make = served
    sheet = make("trigami", ["Anna", "Ben", "Carla"], [WORKED])
    page = _page(browser, 360, 740, locale="ar")
    try:
        page.goto(f"{sheet}/explain/1?seat=0")
        summary = page.locator(".quote-original summary").first
        expect(summary).to_contain_text("Scoring")
        assert page.evaluate(f"({BROKEN_WORDS})('.quote-original summary')") == []
        assert no_sideways_scroll(page)
    finally:
        page.context.close()
