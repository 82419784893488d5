"""Explanations in the reader's language on a phone (issue 19): what-if, a kingdom check
and a Trigami tie at the top, in Arabic and Finnish at 390×844, each with this app's
reading where one decides the score; nothing wider than the phone.

Screenshots go to screenshots/reading-*.png — open them and look.
"""

from __future__ import annotations

import pytest

from tests import browser_support
from tests.browser_support import FITS_WIDTH, new_page, serve, store_game, sync_api
from tests.test_explain_words import REVERSED, TAKEN_BACK_KINGDOM, TIE, TRIX_PLAYERS

expect = sync_api.expect

pytestmark = pytest.mark.browser

LOCALES = {"ar": "ar-EG", "fi": "fi-FI"}
# play to 100: Anna and Ben 5 clean tricks each, 100 (SCORING.md §1.2), share the top
TIED = {"bids": [{"kind": "plain", "suit": s} for s in "SHC"], "tricks": [5, 5, 3], "bugs": [0, 0, 0]}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The app's URL and three games: a reversed Trix game with cards taken back, a
    Trigami game tied at the top of its target."""
    path = tmp_path_factory.mktemp("reading-words") / "reading.sqlite3"
    with serve(path) as base:
        def make(**data):
            return store_game(path, {"format": 1, "first_dealer": 0, "options": {}, **data})

        trix = make(game="trix", players=TRIX_PLAYERS, first_dealer=1, deals=TAKEN_BACK_KINGDOM,
                    options={"scoring": "reversed", "partnership": "worst-loses"})
        tie = make(game="trigami", players=["Anna", "Ben", "Carla"], options={"target": 100}, deals=[TIED])
        yield base, trix, tie


def shot(page, name: str) -> None:
    """The whole page, and the phone's screen (390×844) as it opens."""
    browser_support.shot(page, f"reading-{name}")
    browser_support.shot(page, f"reading-{name}-screen", full_page=False)


@pytest.mark.parametrize("code", ["ar", "fi"])
def test_what_if_kingdom_check_and_tie_read_in_the_phones_language(browser, games, code):
    base, trix, tie = games
    page = new_page(browser, locale=LOCALES[code])
    try:
        page.goto(f"{base}/games/{trix}/what-if?doubling=none")
        expect(page.locator("html")).to_have_attribute("lang", code)
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(page, f"what-if-{code}")

        page.goto(f"{base}/games/{trix}/explain/kingdom/1")
        expect(page.locator(".readings")).to_contain_text(REVERSED[code])
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(page, f"kingdom-{code}")

        page.goto(f"{base}/games/{tie}/explain/total?seat=0")
        expect(page.locator(".readings")).to_contain_text(TIE[code])
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(page, f"tie-{code}")

        page.goto(f"{base}/games/{trix}/explain/teams")
        expect(page.locator(".readings")).to_be_visible()
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(page, f"teams-{code}")
    finally:
        page.context.close()
