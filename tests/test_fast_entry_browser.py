"""Entering a deal as fast as writing it on paper (issue 8): each kind of deal entered by
taps alone in headless Chromium, at 390×844 and 360×740 (four long names there), tapped in
the light theme on the one and the dark on the other, and the form as filled in looked
over in both themes at both sizes; the taps counted against UX.md's budget and the deal saved checked against
SCORING.md's worked examples (the sheet's totals, worked by hand) and the game file's
shape (the stored entry).

How taps are counted: every tap on the page from the opened form to Save, Save included
— a page script counts each trusted ``pointerdown`` (tests tap with Playwright's
``tap()``, a touch; nothing is typed). Opening the form from the score sheet is not
counted: for Trix that tap is the sheet's button of the contract ("+ Add deal 1: King of
Hearts"), so the form opens with the contract chosen. Bugs start at 0 and the last
player's tricks, diamonds or Trix place fill themselves in.

Screenshots of each filled-in form land in screenshots/entry-<deal>-<size>-<theme>.png
(``make screenshots``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from scorekeeper import store
from scorekeeper.db import connect
from tests.browser_support import (
    ARGS,
    CHROMIUM,
    FITS_WIDTH,
    new_page,
    no_sideways_scroll,
    serve,
    shot,
    store_game,
    sync_api,
)
from tests.conftest import game_file

pytestmark = pytest.mark.browser
expect = sync_api.expect

#: JavaScript: the player chips on show whose name has a word wider than the chip (measured
#: with a canvas in the chip's font, as PLACES_WHOLE): each would break inside that word
NAMES_WHOLE = """() => [...document.querySelectorAll(".block .seat-chips .chip label")].filter((c) => c.offsetWidth)
  .flatMap((chip) => {
    const style = getComputedStyle(chip);
    const room = chip.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
    const ruler = document.createElement("canvas").getContext("2d");
    ruler.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    return chip.textContent.trim().split(/\\s+/).filter((w) => ruler.measureText(w).width > room + 0.5)
      .map((w) => `${w} (${ruler.measureText(w).width.toFixed(1)} px in ${room.toFixed(1)})`);
  })"""


@pytest.mark.parametrize("width", [390, 360])
@pytest.mark.parametrize("names", [["Frank", "Hassan", "Eva", "Anna"], ["Anna", "Ben", "Eva", "Dan"]],
                         ids=["Hassan", "short"])
def test_the_trix_player_chips_break_no_name_inside_a_word(browser, served, width, names):
    """Tester 34: four player chips a row left each about 75 px at 390 px, and "Hassan"
    broke as "Hassa / n" under "Who took the K♥?" (names of over 8 letters alone went two
    a row). A name that would break inside a word puts its card's chips two a row; four
    short names stay four a row."""
    url, database = served
    game_id = store_game(database, game_file("trix", players=names, deals=[]))
    page = new_page(browser, width, 844)
    try:
        page.goto(f"{url}/games/{game_id}/deals/new?contract=king")
        expect(page.locator(".block-king")).to_be_visible()
        assert page.evaluate(NAMES_WHOLE) == []
        takers = page.evaluate("""() => Array.from(document.querySelector('.block-king fieldset.seat-chips')
            .querySelectorAll('.chip label'), (chip) => Math.round(chip.getBoundingClientRect().y))""")
        assert len(set(takers)) == (1 if names[1] == "Ben" else 2), takers  # four a row, else two
        assert no_sideways_scroll(page)
    finally:
        page.context.close()


SHORT3, SHORT4 = ["Anna", "Ben", "Carla"], ["Anna", "Ben", "Carla", "Dan"]
LONG3 = ["Anna-Maria Katariina", "Bartholomew", "Dorothea Wilhelmina"]
LONG4 = ["Anna-Maria Katariina", "Bartholomew", "Christophoros", "Dorothea Wilhelmina"]
SIZES = {  # (width, height, long names, the theme the deal is tapped in)
    "390": (390, 844, False, "light"), "360": (360, 740, True, "dark"),
}
#: The themes: each changes only colours (static/app.css), so a form filled in is looked
#: over in both without tapping it in again
THEMES = ("light", "dark")

# Counts every tap on the page; kept in sessionStorage, so Save's tap is still there on
# the sheet it leads to.
#: The taps on the deal form from now on, counted in the tab's sessionStorage (read on the
#: sheet Save leads to: Save's own tap is the form's). Added to the form shown, not as an
#: init script for every page: a phone given one is not handed on to the next test
#: (tests/browser_support.py), and the taps counted are all on this one form
COUNT_TAPS = """() => {
  sessionStorage.setItem("taps", "0");
  addEventListener("pointerdown", (event) => {
    if (event.isTrusted) sessionStorage.setItem("taps", String(Number(sessionStorage.getItem("taps") || 0) + 1));
  }, true);
}"""


# Session-scoped (one per xdist worker), not module-scoped: the 47 entries then spread
# over the workers (make test) instead of all waiting in one; each test stores its own game
@pytest.fixture(scope="session")
def served(tmp_path_factory):
    database = tmp_path_factory.mktemp("entry") / "entry.sqlite3"
    with serve(database) as url:
        yield url, database


@dataclass(frozen=True)
class Deal:
    """A deal to enter: ``enter(form)`` taps it in; ``taps`` the taps it takes (Save
    included) and ``budget`` UX.md's / issue 8's; ``totals`` the sheet's totals after
    it (SCORING.md, worked by hand, by seat) and ``entry`` the deal as the game file
    stores it."""

    kind: str
    contract: str | None
    enter: Any
    taps: int
    budget: int
    totals: list[str]
    entry: dict[str, Any]


class Form:
    """The deal form as a player's thumb sees it: every method is one tap."""

    def __init__(self, page):
        self.page = page

    def tap(self, locator):
        locator.tap()

    def bid(self, seat, suit):  # "spades" … or "Turnip"
        card = self.page.locator(".seat-card").nth(seat)
        self.tap(card.get_by_text("Turnip", exact=True) if suit == "Turnip" else card.get_by_role("img", name=suit))

    def doublets(self, seat):
        self.tap(self.page.locator(".seat-card").nth(seat).get_by_text("Doublets"))

    def turnip(self, suit):
        self.tap(self.page.locator(".suit-chips").get_by_role("img", name=suit))

    def count(self, field, number):  # tricks_0, bugs_2, diamonds_1 …
        self.tap(self.page.locator(f'label[for="{field}_chip-{number}"]'))

    def player(self, question, seat):
        """A player chip in the group whose legend says ``question`` ("Who took the K♥?")."""
        group = self.page.locator("fieldset", has=self.page.locator("legend", has_text=question))
        self.tap(group.locator("label").nth(seat + (1 if "doubled" in question or "led" in question else 0)))

    def finisher(self, seat):
        self.tap(self.page.locator(".finish-taps button").nth(seat))


def plain_two_bug_counts(f):
    # Anna ♠ 5 tricks 3 bugs: floor(50 / 3) = 16; Ben ♥ 4 clean: 80; Carla ♦ 4 (filled in), 2 bugs: 20
    f.bid(0, "spades"), f.bid(1, "hearts"), f.bid(2, "diamonds")
    f.count("tricks_0", 5), f.count("tricks_1", 4)
    expect(f.page.locator("#tricks_2")).to_have_value("4")
    f.count("bugs_0", 3), f.count("bugs_2", 2)


def turnip_and_doublets(f):
    # SCORING.md §1.2's worked example: turnip ♦; Anna Turnip, 4 tricks, 1 diamond: 80;
    # Ben Doublets ♠, 5 tricks, no spade: 200; Carla ♥, 4 tricks, 3 hearts: 13
    f.bid(0, "Turnip"), f.bid(1, "spades"), f.doublets(1), f.bid(2, "hearts"), f.turnip("diamonds")
    f.count("tricks_0", 4), f.count("tricks_1", 5)
    f.count("bugs_0", 1), f.count("bugs_2", 3)


def sweep(f):
    # every trick to Carla (plain ♦): 100, both others 0 (§1.2 rule 1); she took all 10 diamonds
    f.bid(0, "spades"), f.bid(1, "hearts"), f.bid(2, "diamonds")
    f.count("tricks_0", 0), f.count("tricks_1", 0)
    expect(f.page.locator("#tricks_2")).to_have_value("13")
    expect(f.page.locator("#bugs_2")).to_have_value("10")


def king_doubled(f):
    # §2.2: Ben doubles the K♥, Carla takes it: Carla −150, Ben +75
    f.player("Who took the K♥?", 2), f.player("Who doubled the K♥?", 1)


def king_taken_back(f):
    # §2.2: Ben doubles the K♥ and wins it back, Dan led to that trick: Ben −150, Dan +75
    f.player("Who took the K♥?", 1), f.player("Who doubled the K♥?", 1)
    f.player("who led to that trick?", 3)


def queens_two_doubled(f):
    # §2.2: Ben doubled the Q♠, Dan took it: Dan −50, Ben +25; Carla doubled the Q♥, Anna
    # took it: Anna −50, Carla +25; Carla the Q♦ −25, Dan the Q♣ −25.
    for symbol, taker in zip("♠♥♦♣", (3, 0, 2, 3), strict=True):
        f.player(f"Who took the Q{symbol}?", taker)
    f.player("Who doubled the Q♠?", 1), f.player("Who doubled the Q♥?", 2)


def diamonds(f):
    # §2.1: −10 a diamond; Anna 3, Ben 4, Carla 2, Dan the other 4
    f.count("diamonds_0", 3), f.count("diamonds_1", 4), f.count("diamonds_2", 2)
    expect(f.page.locator("#diamonds_3")).to_have_value("4")


def tricks(f):
    # §2.1: −15 a trick
    f.count("tricks_0", 3), f.count("tricks_1", 4), f.count("tricks_2", 2)


def trix(f):
    # §2.1: +200, +150, +100, +50 in finishing order: Carla, Anna, Dan, and Ben last
    f.finisher(2), f.finisher(0), f.finisher(3)


DEALS = {
    "trigami-plain": Deal("trigami", None, plain_two_bug_counts, 8, 10, ["16", "80", "20"], {
        "bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [5, 4, 4], "bugs": [3, 0, 2]}),
    "trigami-turnip-doublets": Deal("trigami", None, turnip_and_doublets, 10, 10, ["80", "200", "13"], {
        "turnip": "D", "bids": [{"kind": "turnip"}, {"kind": "doublets", "suit": "S"}, {"kind": "plain", "suit": "H"}],
        "tricks": [4, 5, 4], "bugs": [1, 0, 3]}),
    "trigami-sweep": Deal("trigami", None, sweep, 6, 8, ["0", "0", "100"], {
        "bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [0, 0, 13], "bugs": [0, 0, 10]}),
    "trix-king-doubled": Deal("trix", "King of Hearts", king_doubled, 3, 3, ["0", "75", "−150", "0"], {
        "contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}}),
    "trix-king-taken-back": Deal("trix", "King of Hearts", king_taken_back, 4, 4, ["0", "−150", "0", "75"], {
        "contracts": ["king"], "king": {"taker": 1, "doubled_by": 1, "leader": 3}}),
    "trix-queens-two-doubled": Deal("trix", "Queens", queens_two_doubled, 7, 8, ["−50", "25", "0", "−75"], {
        "contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1}, "H": {"taker": 0, "doubled_by": 2},
                                            "D": {"taker": 2}, "C": {"taker": 3}}}),
    "trix-diamonds": Deal("trix", "Diamonds", diamonds, 4, 4, ["−30", "−40", "−20", "−40"], {
        "contracts": ["diamonds"], "diamonds": [3, 4, 2, 4]}),
    "trix-tricks": Deal("trix", "Tricks", tricks, 4, 4, ["−45", "−60", "−30", "−60"], {
        "contracts": ["tricks"], "tricks": [3, 4, 2, 4]}),
    "trix-trix": Deal("trix", "Trix", trix, 4, 4, ["150", "50", "200", "100"], {
        "contracts": ["trix"], "trix": [2, 0, 3, 1]}),
}


def open_form(browser, served, deal: Deal, size: str):
    """A new game of ``deal``'s kind, its sheet opened in a phone of ``size`` (SIZES), and
    the deal form opened from it (Trix: by the button of the deal's contract)."""
    url, database = served
    width, height, long, scheme = SIZES[size]
    players = (LONG4 if long else SHORT4) if deal.kind == "trix" else (LONG3 if long else SHORT3)
    game_id = store_game(database, game_file(deal.kind, players=players))
    page = new_page(browser, width, height, color_scheme=scheme)
    page.goto(f"{url}/games/{game_id}")
    if deal.contract:
        page.locator(".add-contracts").get_by_role("link", name=deal.contract, exact=True).tap()
        expect(page.get_by_role("radio", name=deal.contract, exact=True)).to_be_checked()
    else:
        page.get_by_role("link", name="Add deal 1").tap()
    expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()
    page.evaluate(COUNT_TAPS)
    return page, game_id


#: Visible chips and tap buttons less than 44 × 44 CSS px
TOO_SMALL = """Array.from(document.querySelectorAll('.chip label, .finish-tap, .action-bar .button'))
        .filter((e) => e.checkVisibility())
        .map((e) => [e.textContent.trim(), e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44)
        .map(([t, r]) => t + ' ' + Math.round(r.width) + '×' + Math.round(r.height))"""
#: The page as a theme draws it, at once: its background colour, whether it fits its
#: width (:func:`no_sideways_scroll`), and its chips too small (:data:`TOO_SMALL`)
IN_A_THEME = ("() => ({ground: getComputedStyle(document.body).backgroundColor,"
              " fits: " + FITS_WIDTH + ", small: " + TOO_SMALL + "})")


def chips_too_small(page) -> list[str]:
    """Visible chips and tap buttons less than 44 × 44 CSS px."""
    return page.evaluate(TOO_SMALL)


CLEARS_THE_BAR = """() => {
  // scrolled to the end, the page's last panel shows above the fixed bar at the bottom
  window.scrollTo(0, document.documentElement.scrollHeight);
  const bar = document.querySelector("main .action-bar").getBoundingClientRect();
  const panels = Array.from(document.querySelectorAll("main .panel")).filter((p) => p.checkVisibility());
  return panels[panels.length - 1].getBoundingClientRect().bottom <= bar.top + 1;
}"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", list(DEALS))
def test_a_deal_is_entered_by_taps_within_its_budget(browser, served, name, size):
    from scorekeeper import store
    from scorekeeper.db import connect

    deal = DEALS[name]
    page, game_id = open_form(browser, served, deal, size)
    deal.enter(Form(page))
    points = [p if p.startswith(("−", "0")) else "+" + p for p in deal.totals]
    for p in points:  # the points show before saving
        expect(page.locator("[data-preview-line]")).to_contain_text(f"{p}")
    if deal.kind != "trix":  # each seat's own, in seat order
        expect(page.locator("[data-seat-preview]")).to_have_text(points)
    tapped_in = SIZES[size][3]
    grounds = set()
    for theme in sorted(THEMES, key=lambda t: t != tapped_in):  # the theme it was tapped in, then the other
        if theme != tapped_in:  # the phone shows the one it was tapped in already
            page.emulate_media(color_scheme=theme)
        drawn = page.evaluate(IN_A_THEME)
        grounds.add(drawn["ground"])
        assert drawn["fits"], theme  # no sideways scroll
        assert drawn["small"] == [], theme
        page.wait_for_function(CLEARS_THE_BAR)
        shot(page, f"entry-{name}-{size}-{theme}")
    assert len(grounds) == len(THEMES)  # each theme drew the page in its own colours
    page.emulate_media(color_scheme=tapped_in)
    page.get_by_role("button", name="Save deal 1").tap()

    expect(page.locator("thead .total")).to_have_text(deal.totals)
    taps = int(page.evaluate("sessionStorage.getItem('taps')"))
    assert taps == deal.taps <= deal.budget
    database = connect(str(served[1]))
    try:
        assert store.get_game(database, game_id).deals[0].entry == deal.entry
    finally:
        database.conn.close()
    page.context.close()


def test_the_trix_sheet_shows_the_contract_buttons_on_a_small_phone(browser, served):
    deal = DEALS["trix-trix"]
    url, database = served
    game_id = store_game(database, game_file("trix", players=LONG4))
    page = new_page(browser, 360, 740, color_scheme="light")
    page.goto(f"{url}/games/{game_id}")
    for scheme in ("light", "dark"):  # the dark theme on the same page: it changes only colours
        if scheme == "dark":
            page.emulate_media(color_scheme=scheme)
        bar = page.locator(".add-contracts")
        expect(bar.get_by_role("link")).to_have_text(["King of Hearts", "Queens", "Diamonds", "Tricks", "Trix"])
        assert no_sideways_scroll(page) and chips_too_small(page) == []
        page.wait_for_function(CLEARS_THE_BAR)  # the sheet's last panel can be tapped
        shot(page, f"entry-trix-sheet-360-{scheme}")
    page.context.close()
    assert deal.contract == "Trix"


# ----------------------------------------------------------------- what the taps do


def test_the_finishing_order_is_tapped_in_order_and_a_second_tap_takes_a_player_back(page, served):
    url, database = served
    game_id = store_game(database, game_file("trix"))
    page.goto(f"{url}/games/{game_id}/deals/new?contract=trix")
    f = Form(page)
    buttons = page.locator(".finish-taps button")
    f.finisher(2), f.finisher(0), f.finisher(3)
    expect(buttons).to_have_text(["Anna Second", "Ben Last", "Carla Out first", "Dan Third"])
    f.finisher(0)  # Anna taken back: Dan moves up, and nobody is last yet
    expect(buttons).to_have_text(["Anna", "Ben", "Carla Out first", "Dan Second"])
    # what is still to tap, not the whole order again (tester 31)
    expect(page.locator("[data-preview-line]")).to_contain_text("Tap who went out third.")
    f.finisher(1)  # Ben third, so Anna is last
    expect(buttons).to_have_text(["Anna Last", "Ben Third", "Carla Out first", "Dan Second"])
    f.finisher(2)  # Carla taken back: Dan and Ben move up, Anna is no longer last
    expect(buttons).to_have_text(["Anna", "Ben Second", "Carla", "Dan Out first"])
    f.finisher(2)
    expect(buttons).to_have_text(["Anna Last", "Ben Second", "Carla Third", "Dan Out first"])
    f.finisher(0)  # Anna tapped as fourth: the same as filled in
    page.get_by_role("button", name="Save deal 1").tap()
    # Dan +200, Ben +150, Carla +100, Anna +50
    expect(page.locator("thead .total")).to_have_text(["50", "150", "100", "200"])


def test_chips_the_other_counts_rule_out_are_disabled(page, served):
    url, database = served
    game_id = store_game(database, game_file("trigami"))
    page.goto(f"{url}/games/{game_id}/deals/new")
    f = Form(page)

    def disabled(field):
        return page.evaluate(f"""Array.from(document.querySelectorAll('input[name="{field}_chip"]'))
            .filter((c) => c.disabled).map((c) => Number(c.value))""")

    f.count("tricks_0", 9)
    assert disabled("tricks_1") == [5, 6, 7, 8, 9, 10, 11, 12, 13]  # 13 − 9 left
    f.count("tricks_1", 4)
    expect(page.locator("#tricks_2")).to_have_value("0")  # filled in: it limits nobody
    assert disabled("tricks_1") == [5, 6, 7, 8, 9, 10, 11, 12, 13]
    assert disabled("tricks_0") == [10, 11, 12, 13]
    assert disabled("bugs_2") == list(range(1, 11))  # no trick, no bug (SCORING.md §1.3)
    assert disabled("bugs_1") == []  # 4 tricks: 12 cards and the turnip, all 10 possible
    f.count("tricks_1", 1)
    expect(page.locator("#tricks_2")).to_have_value("3")
    assert disabled("bugs_1") == [5, 6, 7, 8, 9, 10]  # 1 trick: 3 cards and the turnip
    f.bid(0, "spades"), f.bid(1, "spades")
    assert disabled("bugs_1") == [5, 6, 7, 8, 9, 10]  # the turnip's suit not given: it may be a spade
    # the turnip a heart: it cannot be among Ben's spades, so 3 a trick is his most
    # (tester 33: the 4 stayed open, and Save then refused it)
    f.turnip("hearts")
    assert disabled("bugs_1") == [4, 5, 6, 7, 8, 9, 10]
    f.turnip("spades")
    assert disabled("bugs_1") == [5, 6, 7, 8, 9, 10]
    # Anna won the last trick, so the turnip is hers, not Ben's
    page.get_by_text("Who won the last trick? (optional)").tap()
    f.tap(page.locator("#last_trick").get_by_text("Anna", exact=True))
    assert disabled("bugs_1") == [4, 5, 6, 7, 8, 9, 10]
    f.count("bugs_0", 8)
    assert disabled("bugs_1") == [3, 4, 5, 6, 7, 8, 9, 10]  # the other 2 spades at most
    # the number field stays for the keyboard, and ticks the chip of what is typed
    page.fill("#bugs_0", "7")
    expect(page.locator("#bugs_0_chip-7")).to_be_checked()
    assert page.locator("#bugs_0_chip-7").get_attribute("disabled") is None  # disabled, not hidden: the row stays
    assert page.locator('input[name="tricks_0_chip"]').count() == 14


def test_a_mistake_shows_in_the_preview_in_saves_words(page, served):
    url, database = served
    game_id = store_game(database, game_file("trigami"))
    page.goto(f"{url}/games/{game_id}/deals/new")
    f = Form(page)
    expect(page.locator(".suit-chips")).to_be_visible()  # the turnip's suit, before anyone bids Turnip
    f.bid(0, "Turnip"), f.doublets(0)
    line = page.locator("[data-preview-line] .bad")
    expect(line).to_have_text("\u2068Anna\u2069: Doublets needs a suit, Turnip takes the turnip's suit; choose one of the two.")
    f.doublets(0)  # Doublets off again: what is still to enter, top to bottom, not in red
    expect(page.locator("[data-preview-line] .todo")).to_have_text("How many tricks did \u2068Anna\u2069 win?")


def test_a_deal_is_entered_by_chips_without_javascript(browser, served):
    """The chips are radio buttons: a Trigami deal and a Trix deal tapped in without
    JavaScript (the server fills in the last count)."""
    url, database = served
    page = new_page(browser, javascript=False)
    game_id = store_game(database, game_file("trigami"))
    page.goto(f"{url}/games/{game_id}/deals/new")
    f = Form(page)
    plain = DEALS["trigami-plain"]
    f.bid(0, "spades"), f.bid(1, "hearts"), f.bid(2, "diamonds")
    f.count("tricks_0", 5), f.count("tricks_1", 4), f.count("bugs_0", 3), f.count("bugs_2", 2)
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("thead .total")).to_have_text(plain.totals)
    game_id = store_game(database, game_file("trix"))
    page.goto(f"{url}/games/{game_id}")
    page.locator(".add-contracts").get_by_role("link", name="Queens").tap()
    queens_two_doubled(f)
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("thead .total")).to_have_text(DEALS["trix-queens-two-doubled"].totals)
    page.context.close()


# ----------------------------------------------------------------- Back after saving


@pytest.fixture(params=["reloaded", "back-forward cache"])
def phone(request, browser):
    """A phone page whose Back either loads the form again (the browser then put back
    what was ticked: the bug) or, as phones' browsers mostly do, shows the page it kept."""
    if request.param == "reloaded":
        page = new_page(browser)
        yield page
        page.context.close()
        return
    # the same system Chromium, without Playwright's switch that turns the cache off
    keeping = browser.browser_type.launch(executable_path=CHROMIUM, args=ARGS,
                                          ignore_default_args=["--disable-back-forward-cache"])
    try:
        page = new_page(keeping)
        yield page
        page.context.close()
    finally:
        keeping.close()


def test_back_after_saving_never_shows_the_saved_deal_in_a_new_form(phone, served):
    """Issue 8: Back after Save showed the next deal's form with the last deal's bids
    still ticked; retyping only the counts then saved stale bids."""
    page = phone
    url, database = served
    game_id = store_game(database, game_file("trigami"))
    page.goto(f"{url}/games/{game_id}")
    page.get_by_role("link", name="Add deal 1").tap()
    plain_two_bug_counts(Form(page))
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("thead .total")).to_have_text(["16", "80", "20"])

    page.go_back()
    expect(page.get_by_role("heading", name="Deal 2")).to_be_visible()
    expect(page.locator('input[name^="bids_"]:checked, input[name^="tricks_"]:checked')).to_have_count(0)
    for seat in range(3):
        expect(page.locator(f"#bugs_{seat}_chip-0")).to_be_checked()
        expect(page.locator(f"#tricks_{seat}")).to_have_value("")
        expect(page.locator(f"#bugs_{seat}")).to_have_value("")
    # only the counts tapped again: nothing old is saved with them
    Form(page).count("tricks_0", 5)
    page.get_by_role("button", name="Save deal 2").tap()
    expect(page.locator("#problems")).to_contain_text("Choose \u2068Anna\u2069's bid.")
    expect(page.locator("thead .total")).to_have_count(0)

    page.goto(f"{url}/games/{game_id}")
    expect(page.locator("thead .total")).to_have_text(["16", "80", "20"])  # still one deal


def test_counts_and_the_finishing_order_work_from_the_keyboard(page, served):
    """The chips are radio buttons (one stop for Tab, arrows move) and buttons; the
    number field is there for typing."""
    url, database = served
    game_id = store_game(database, game_file("trix"))
    page.goto(f"{url}/games/{game_id}/deals/new?contract=tricks")
    page.focus("#tricks_0_chip-0")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#tricks_0_chip-3")).to_be_checked()
    expect(page.locator("#tricks_0")).to_have_value("3")
    page.focus("#tricks_1")
    page.keyboard.type("4")
    expect(page.locator("#tricks_1_chip-4")).to_be_checked()
    page.focus("#tricks_2_chip-0")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tricks_3")).to_have_value("4")  # the rest: 13 − 3 − 4 − 2
    expect(page.locator("[data-preview-line]")).to_contain_text("\u2068Anna\u2069 −45 · \u2068Ben\u2069 −60 · \u2068Carla\u2069 −30 · \u2068Dan\u2069 −60")
    # a name and its points never parted by a line's end (tester 38): a no-break space
    assert "\u2068Anna\u2069\u00a0−45" in page.locator("[data-preview-line]").text_content()

    page.goto(f"{url}/games/{game_id}/deals/new?contract=trix")
    buttons = page.locator(".finish-taps button")
    for seat in (2, 0, 3):
        buttons.nth(seat).focus()
        page.keyboard.press("Space")
    expect(buttons).to_have_text(["Anna Second", "Ben Last", "Carla Out first", "Dan Third"])
    expect(buttons.nth(0)).to_have_attribute("aria-pressed", "true")


def test_a_doubler_tapped_again_is_taken_back(page, served):
    """§2.1, §2.2: Carla takes the K♥: −75; had Ben doubled it: Carla −150, Ben +75."""
    url, database = served
    game_id = store_game(database, game_file("trix"))
    page.goto(f"{url}/games/{game_id}/deals/new?contract=king")
    f = Form(page)
    doubler = page.locator("fieldset", has=page.locator("legend", has_text="Who doubled the K♥?"))
    expect(doubler.locator(".chip:visible")).to_have_count(4)  # the players only: lined up with the takers
    f.player("Who took the K♥?", 2), f.player("Who doubled the K♥?", 1)
    expect(page.locator("[data-preview-line]")).to_contain_text("\u2068Ben\u2069 +75 · \u2068Carla\u2069 −150")
    f.player("Who doubled the K♥?", 1)
    expect(page.locator("[data-preview-line]")).to_contain_text("\u2068Anna\u2069 0 · \u2068Ben\u2069 0 · \u2068Carla\u2069 −75 · \u2068Dan\u2069 0")
    expect(doubler.locator("input:checked")).to_have_value("")  # "nobody" is what is sent
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("thead .total")).to_have_text(["0", "0", "−75", "0"])


def test_a_question_a_save_asked_loses_its_red_once_answered(page, served):
    """A King of Hearts saved before anyone is tapped as its taker is refused with the
    question "Who took the K♥?" in red beside the takers (tester 24); once tapped (Carla:
    −75, §2.1), the red and the question go before the next Save, as the preview finds
    nothing wrong there; the summary of that Save stays above."""
    url, database = served
    game_id = store_game(database, game_file("trix"))
    page.goto(f"{url}/games/{game_id}/deals/new?contract=king")
    f = Form(page)
    page.get_by_role("button", name="Save deal 1").tap()
    taker = page.locator("fieldset", has=page.locator("legend", has_text="Who took the K♥?"))
    expect(taker).to_have_class(re.compile(r"\bhas-error\b"))
    question = taker.locator("ul.errors")
    expect(question).to_have_text("Who took the K♥?")
    expect(taker.locator('input[aria-invalid="true"]')).to_have_count(4)  # each player's chip: someone takes the K♥
    f.player("Who took the K♥?", 2)
    expect(page.locator("[data-preview-line]")).to_contain_text("\u2068Carla\u2069 −75")
    expect(question).to_be_hidden()
    expect(taker).not_to_have_class(re.compile(r"\bhas-error\b"))
    expect(taker.locator("[aria-invalid]")).to_have_count(0)
    assert taker.get_attribute("aria-describedby") in (None, "") or "-errors" not in taker.get_attribute("aria-describedby")
    expect(page.locator("#problems")).to_be_visible()  # what the Save found, still said at the top
    shot(page, "king-question-answered-390")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("thead .total")).to_have_text(["0", "0", "−75", "0"])


def test_a_deal_being_changed_lets_any_count_be_corrected_first(page, served):
    """All three counts in and adding up (a saved deal opened to change it): raising one
    player's tricks is not blocked by the others; the sum says what is left to put right,
    and then only the chips that make it add up again are offered."""
    url, database = served
    deal = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
            "tricks": [4, 5, 4], "bugs": [0, 2, 4]}
    game_id = store_game(database, game_file("trigami", deals=[deal]))
    page.goto(f"{url}/games/{game_id}")
    page.get_by_role("link", name="Deal 1: change or delete").click()
    f = Form(page)
    assert page.locator("#tricks_0_chip-6").get_attribute("disabled") is None
    f.count("tricks_0", 6)
    expect(page.locator("[data-sum-line]")).to_have_text("15 of 13")
    assert page.locator("#tricks_1_chip-4").get_attribute("disabled") is not None  # 13 − 6 − 4 = 3 at most
    # … but the chip of the count each player has stays as it was, not greyed as if the
    # row were locked (tester 50: every chip of a row looked disabled after "14 of 13")
    assert [page.locator(f"#tricks_{seat}_chip-{n}").get_attribute("disabled") for seat, n in ((1, 5), (2, 4))] \
        == [None, None]
    f.count("tricks_1", 3)
    expect(page.locator("[data-sum-line]")).to_have_text("13 of 13")


def test_a_deal_being_changed_takes_the_bugs_its_new_tricks_leave(page, served):
    """Changing a deal's tricks to none or all (SCORING.md §1.3: no trick, no bug; every
    trick takes all 10 cards of the suit) moves its bugs there, over the old count, as a
    new deal's form does: no chip stays chosen that the cards rule out, and Save takes it
    with no count corrected by hand."""
    url, database = served
    deal = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
            "tricks": [5, 4, 4], "bugs": [0, 1, 4]}
    game_id = store_game(database, game_file("trigami", players=["Anna", "Bernd", "Chris"], deals=[deal] * 3))
    page.goto(f"{url}/games/{game_id}")
    page.get_by_role("link", name="Deal 3: change or delete").click()
    f = Form(page)
    f.count("tricks_0", 0)
    f.count("tricks_1", 0)
    expect(page.locator("#bugs_1")).to_have_value("0")  # was 1
    expect(page.locator("#bugs_1_chip-0")).to_be_checked()
    f.count("tricks_2", 13)
    expect(page.locator("#bugs_2")).to_have_value("10")  # was 4
    expect(page.locator("#bugs_2_chip-10")).to_be_checked()
    assert page.locator("[data-count] input[type=radio]:checked:disabled").count() == 0
    shot(page, "entry-change-to-a-sweep")
    page.get_by_role("button", name="Save").last.tap()
    expect(page.locator(".flashes")).to_contain_text("Deal 3")
    db = connect(str(database))
    try:
        stored = store.get_game(db, game_id).deals[2].entry
    finally:
        db.conn.close()
    assert (stored["tricks"], stored["bugs"]) == ([0, 0, 13], [0, 0, 10])


def test_a_bug_count_the_new_tricks_rule_out_is_not_left_chosen(page, served):
    """A player's bug count that fewer tricks no longer allow (1 trick: its 3 cards and the
    turnip, 4 bugs at most, SCORING.md §1.3): its greyed-out chip is not left chosen, and
    the field is marked off (the bar at the bottom says why)."""
    url, database = served
    deal = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
            "tricks": [5, 4, 4], "bugs": [0, 1, 6]}
    game_id = store_game(database, game_file("trigami", players=["Anna", "Bernd", "Chris"], deals=[deal]))
    page.goto(f"{url}/games/{game_id}")
    page.get_by_role("link", name="Deal 1: change or delete").click()
    f = Form(page)
    f.count("tricks_0", 8)
    f.count("tricks_2", 1)
    expect(page.locator("#bugs_2_chip-6")).to_be_disabled()
    expect(page.locator("#bugs_2_chip-6")).not_to_be_checked()
    expect(page.locator("#bugs_2")).to_have_attribute("aria-invalid", "true")
    assert page.locator("[data-count] input[type=radio]:checked:disabled").count() == 0
    f.count("bugs_2", 3)
    expect(page.locator("#bugs_2")).not_to_have_attribute("aria-invalid", "true")


def test_the_bugs_every_trick_forced_go_when_the_tricks_are_put_right(page, served):
    """Every trick takes every card of the bug suit (SCORING.md §1.3): 13 tricks fill in 10
    bugs. Put right to 12, the tricks no longer decide the bugs (6 to 10 possible): the 10
    the form took goes, to be counted, instead of staying as if entered (tester 32: saved
    as 12 tricks with 10 bugs, +12, unasked). A count the player gave stays."""
    url, database = served
    game_id = store_game(database, game_file("trigami"))
    page.goto(f"{url}/games/{game_id}/deals/new")
    f = Form(page)
    f.count("tricks_0", 13)
    expect(page.locator("#bugs_0")).to_have_value("10")
    f.count("tricks_0", 12)
    expect(page.locator("#bugs_0")).to_have_value("")
    expect(page.locator("#bugs_0_chip-10")).not_to_be_checked()
    f.count("bugs_0", 9)  # the player's own count
    f.count("tricks_0", 11)
    expect(page.locator("#bugs_0")).to_have_value("9")


def test_counts_typed_with_an_arabic_keypad_are_read_and_saved(page, served):
    """Issue 10: a phone set to Arabic types ٤ ٥ on its keypad; the count field keeps them
    (a type=number field would drop them), its chip is ticked, the last count is filled in,
    the sum adds up and the deal saves with the numbers meant."""
    url, database = served
    game_id = store_game(database, game_file("trigami"))
    page.goto(f"{url}/games/{game_id}/deals/new")
    f = Form(page)
    f.bid(0, "spades"), f.bid(1, "hearts"), f.bid(2, "clubs")
    page.fill("#tricks_0", "٤")  # Arabic-Indic 4
    page.fill("#tricks_1", "۵")  # Persian 5
    expect(page.locator("#tricks_0")).to_have_value("٤")
    expect(page.locator("#tricks_0_chip-4")).to_be_checked()
    expect(page.locator("#tricks_2")).to_have_value("4")  # 13 − 4 − 5
    expect(page.locator("[data-sum-line]")).to_have_text("13 of 13")
    page.fill("#bugs_2", "٣")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#deal-1")).to_be_visible()
    from scorekeeper import store
    from scorekeeper.db import connect

    db = connect(str(database))
    try:
        entry = store.get_game(db, game_id).deals[0].entry
    finally:
        db.conn.close()
    assert entry["tricks"] == [4, 5, 4] and entry["bugs"][2] == 3


#: The words of each tapped player's place on the Trix finishing taps that are wider
#: than the room their button gives them (then broken inside the word: "Viimein / en")
PLACES_WHOLE = """() => [...document.querySelectorAll(".finish-tap")].flatMap((tap) => {
  const style = getComputedStyle(tap), place = tap.querySelector(".finish-place");
  const room = tap.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
  const ruler = document.createElement("canvas").getContext("2d");
  const font = getComputedStyle(place);
  ruler.font = `${font.fontWeight} ${font.fontSize} ${font.fontFamily}`;
  return place.textContent.trim().split(/\\s+/).filter((w) => ruler.measureText(w).width > room + 0.5)
    .map((w) => `${w} (${ruler.measureText(w).width.toFixed(1)} px in ${room.toFixed(1)})`);
})"""


@pytest.mark.parametrize("width", [390, 360])
@pytest.mark.parametrize("locale", ["fi-FI", "en-GB"])
def test_the_trix_finishing_taps_break_no_place_inside_a_word(browser, served, width, locale):
    """Seen on a Finnish phone at 390 px (a screenshot of this session): four finishing
    taps a row left each about 75 px, so "Ensimmäisenä ulos" (out first) and "Viimeinen"
    (last) broke inside their words. Where a place's word is long the taps go two a row,
    as they do for long names; English keeps four a row."""
    url, database = served
    game_id = store_game(database, game_file("trix", deals=[]))
    page = new_page(browser, width, 844, locale=locale)
    try:
        page.goto(f"{url}/games/{game_id}/deals/new?contract=trix")
        for seat in (3, 0, 2, 1):
            page.locator(f'.finish-taps button[data-seat="{seat}"]').click()
        expect(page.locator(".finish-tap .finish-place").first).not_to_be_empty()
        assert page.evaluate(PLACES_WHOLE) == []
        tops = {round(y) for y in page.evaluate("""() => Array.from(document.querySelectorAll(".finish-tap"),
                                                              (tap) => tap.getBoundingClientRect().y)""")}
        assert len(tops) == (1 if locale == "en-GB" else 2), tops  # four a row; two where a place is long
        assert no_sideways_scroll(page)
        shot(page, f"finish-taps-{locale}-{width}")
    finally:
        page.context.close()
