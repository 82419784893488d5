"""A table's Players and settings page and its Delete page at 390×844 (screenshots/
night-table-*.png): the night's words instead of the forms, nothing wider than the phone."""

from __future__ import annotations

import pytest

from tests.browser_support import FITS_WIDTH, new_page, shot
from tests.test_nights_browser import night_served  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser


def test_a_table_says_its_players_are_the_nights(browser, night_served):  # noqa: F811
    url, night = night_served
    table = night.current.tables[1]
    page = new_page(browser)
    try:
        page.goto(f"{url}/games/{table.game.id}/edit")
        # the loaded page's note, its settings form (none) and its fit in one call
        note, forms, fits = page.evaluate(f"""[document.querySelector(".night-table").innerText,
            document.querySelectorAll("form.edit-game").length, {FITS_WIDTH}]""")
        assert "table 2 of round 1 of \u2068Friday club\u2069" in note
        assert forms == 0
        assert fits  # no sideways scroll
        shot(page, "night-table-settings")
        page.goto(f"{url}/games/{table.game.id}/delete")
        said, buttons, fits = page.evaluate(f"""[document.querySelector("main").innerText,
            document.querySelectorAll("button.danger").length, {FITS_WIDTH}]""")
        assert "removed with their night, or not at all" in said
        assert buttons == 0
        assert fits  # no sideways scroll
        shot(page, "night-table-delete")
    finally:
        page.context.close()
