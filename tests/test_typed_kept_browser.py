"""What was typed survives the language switch (headless Chromium at 390×844): a player
half-way through the New game form who switches to German finds the names and the target
as typed, in the German form; nothing is kept for a page the switch does not come back to.
"""

from __future__ import annotations

import pytest

from tests.browser_support import new_page, serve, shot, sync_api

pytestmark = pytest.mark.browser
expect = sync_api.expect


@pytest.fixture
def url(tmp_path):
    with serve(tmp_path / "typed.sqlite3") as address:
        yield address


def test_the_new_game_form_keeps_the_names_typed_across_a_language_switch(browser, url):
    page = new_page(browser)
    try:
        page.goto(f"{url}/games/new?kind=trigami")
        page.locator("[name=player_0]").fill("Anna")
        page.locator("[name=player_1]").fill("سارة")
        page.locator("[name=player_2]").fill("Jörg")
        page.locator("[name=target]").fill("300")
        page.get_by_role("link", name="Deutsch").click()
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator("[name=player_0]")).to_have_value("Anna")
        expect(page.locator("[name=player_1]")).to_have_value("سارة")
        expect(page.locator("[name=player_2]")).to_have_value("Jörg")
        expect(page.locator("[name=target]")).to_have_value("300")
        shot(page, "typed-kept-new-game-de")
        # kept for that one page load: opening the form again starts empty
        page.goto(f"{url}/games/new?kind=trigami")
        expect(page.locator("[name=player_0]")).to_have_value("")
        # a switch with nothing typed brings nothing back
        page.get_by_role("link", name="English").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("[name=player_0]")).to_have_value("")
    finally:
        page.context.close()
