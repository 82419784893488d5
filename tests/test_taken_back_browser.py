"""The house reading of a card taken back on a phone (issue 19, part 2): the setting is
changed on the players-and-settings page (asked first, then confirmed) and the sheet
changes with it; the explanation of a K♥ taken back names the reading in English,
German, Finnish and Arabic at 390×844.

Screenshots go to screenshots/taken-back-*.png — open them and look.
Expected numbers are worked by hand from SCORING.md §2.2 (tests/test_taken_back.py).
"""

from __future__ import annotations

import pytest

from tests import browser_support
from tests.browser_support import FITS_WIDTH, new_page, serve, store_game, sync_api
from tests.test_taken_back import DIAMONDS, KING_BACK

expect = sync_api.expect

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    path = tmp_path_factory.mktemp("browser-taken-back") / "taken-back.sqlite3"
    with serve(path) as base:

        def make(options=None, deals=(KING_BACK, DIAMONDS)):
            game_id = store_game(path, {"format": 1, "game": "trix", "players": PLAYERS, "first_dealer": 0,
                                        "options": options or {}, "deals": list(deals)})
            return f"{base}/games/{game_id}"

        yield base, make


def shot(page, name: str, full_page: bool = True) -> None:
    browser_support.shot(page, f"taken-back-{name}", full_page=full_page)


def cell(page, deal: int, seat: int):
    return page.locator(f"#deal-{deal} td").nth(seat)


def test_change_the_reading_on_the_settings_page_and_see_the_sheet_change(browser, served):
    # leader: Ben −150, Dan +75 in deal 1; plain: Ben −75, Dan 0 (SCORING.md §2.2)
    _base, make = served
    url = make()
    page = new_page(browser)
    try:
        page.goto(url)
        expect(cell(page, 1, 1)).to_contain_text("−150")
        expect(cell(page, 1, 3)).to_contain_text("+75")
        page.goto(f"{url}/edit")
        page.get_by_text("The doubler pays the plain penalty, nobody gains").click()
        page.get_by_role("button", name="Save").click()
        notice = page.locator("#taken_back-confirm")
        expect(notice).to_contain_text("Every deal will be scored again with this reading of a card taken back")
        expect(notice).to_contain_text("−150 → −75")
        expect(notice).to_contain_text("Tap Save again to confirm.")
        assert page.url.startswith(f"{url}/edit")  # nothing saved yet
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        notice.scroll_into_view_if_needed()
        shot(page, "1-asked", full_page=False)
        page.get_by_role("button", name="Save").click()
        expect(page).to_have_url(url)
        expect(page.locator("body")).to_contain_text("Settings changed: A doubled card taken back:")
        expect(cell(page, 1, 1)).to_contain_text("−75")
        expect(cell(page, 1, 3)).not_to_contain_text("75")
        expect(page.locator(".settings-line")).to_contain_text("a card taken back: plain penalty, nobody gains")
        shot(page, "2-sheet-after", full_page=False)
        page.goto(f"{url}/history")
        expect(page.locator("body")).to_contain_text(
            "the doubler pays double and whoever led to that trick gains half → "
            "the doubler pays the plain penalty and nobody gains")
    finally:
        page.context.close()


@pytest.mark.parametrize(("locale", "lang", "words", "ben"), [
    ("en-GB", "en", "The other reading (the doubler pays the plain penalty and nobody gains) would give", "−75"),
    ("de-DE", "de", "Nach der anderen Lesart (der Verdoppler zahlt die einfache Strafe", "−75"),
    ("fi-FI", "fi", "Toisella tulkinnalla (tuplaaja maksaa tavallisen miinuksen", "−75"),
    ("ar", "ar", "ولو حُسبت على الطريقة الأخرى (يدفع المدبِّل الجزاء العادي", "−٧٥"),  # Arabic digits
])
def test_the_explanation_of_a_king_taken_back_in_each_language(browser, served, locale, lang, words, ben):
    _base, make = served
    url = make()
    page = new_page(browser, locale=locale)
    try:
        page.goto(url)
        cell(page, 1, 1).tap()  # Ben's −150: doubled the K♥ and took it back
        dialog = page.locator("dialog[data-explain-dialog]")
        expect(dialog).to_be_visible()
        # the reading said under the steps, not numbered among them as if a sum (tester 31)
        notes = dialog.locator(".steps + .step-notes")
        expect(notes).to_contain_text(words)
        expect(notes).to_contain_text(ben)  # what the other reading gives Ben: −75
        expect(dialog.locator(".steps")).not_to_contain_text(words)
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(page, f"3-explain-{lang}", full_page=False)
    finally:
        page.context.close()


def test_the_reading_on_the_new_game_form_the_deal_form_and_what_if(browser, served):
    """The setting where a game starts, the deal form's hint once the doubler took the K♥
    back (leader: −150 to the doubler, +75 to whoever led, −75 if the doubler led it), and
    What if… offering the other reading (Ben −180 → −105 in all, tests/test_taken_back.py)."""
    base, make = served
    url = make()
    page = new_page(browser)
    try:
        page.goto(f"{base}/games/new?kind=trix")
        expect(page.locator("#taken_back")).to_contain_text("A doubled card taken back by its doubler")
        page.locator("#taken_back").scroll_into_view_if_needed()
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(page, "4-new-game", full_page=False)
        page.goto(f"{make(deals=())}/deals/new")
        page.locator('label[for="contracts-0"]').click()  # King of Hearts
        king = page.locator('[data-block="king"]')
        king.locator("#king_taker").get_by_text("Ben").click()
        king.locator("#king_doubled_by").get_by_text("Ben").click()
        leader = king.locator("#king_leader")
        expect(leader).to_be_visible()
        expect(leader).to_contain_text("This game's reading: the doubler −150 and whoever led +75; "
                                       "if the doubler led it, only −75.")
        leader.scroll_into_view_if_needed()
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(page, "5-deal-form-leader", full_page=False)
        page.goto(f"{url}/what-if")
        page.get_by_text("The doubler pays the plain penalty, nobody gains").click()
        page.get_by_role("button", name="Show what would have happened").click()
        expect(page.locator(".what-if-result h2")).to_contain_text(
            "a doubled card taken back: the doubler pays the plain penalty and nobody gains")
        expect(page.locator(".other-totals")).to_contain_text("−105")
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        page.locator(".what-if-result").scroll_into_view_if_needed()
        shot(page, "6-what-if", full_page=False)
    finally:
        page.context.close()
