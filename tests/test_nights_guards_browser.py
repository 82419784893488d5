"""A table's Players and settings page and its Delete page at 390×844 (screenshots/
night-table-*.png): the night's words instead of the forms, nothing wider than the phone."""

from __future__ import annotations

import pytest

from tests.browser_support import new_page, no_sideways_scroll, shot
from tests.test_nights_browser import night_served  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser


def test_a_table_says_its_players_are_the_nights(browser, night_served):  # noqa: F811
    url, night = night_served
    table = night.current.tables[1]
    page = new_page(browser)
    try:
        page.goto(f"{url}/games/{table.game.id}/edit")
        note = page.locator(".night-table")
        assert "table 2 of round 1 of \u2068Friday club\u2069" in note.inner_text()
        assert page.locator("form.edit-game").count() == 0
        no_sideways_scroll(page)
        shot(page, "night-table-settings")
        page.goto(f"{url}/games/{table.game.id}/delete")
        assert "removed with their night, or not at all" in page.inner_text("main")
        assert page.locator("button.danger").count() == 0
        no_sideways_scroll(page)
        shot(page, "night-table-delete")
    finally:
        page.context.close()
