"""The history, restoring and the players-and-settings page in headless Chromium at 390×844.

Uses the system's Chromium like tests/test_browser.py (skipped without it). Screenshots:
screenshots/history-*.png — open them and look.
"""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from tests.browser_support import FITS_WIDTH, SCREENSHOTS, shot, store_game, sync_api
from tests.browser_support import new_page as _page
from tests.conftest import game_file

pytestmark = pytest.mark.browser

PLAIN = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
         "tricks": [5, 4, 4], "bugs": [0, 2, 4]}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(address, database path): the app on 127.0.0.1 from a thread, on its own database."""
    from tests.browser_support import serve

    path = tmp_path_factory.mktemp("history-browser") / "history.sqlite3"
    with serve(path) as url:
        yield url, str(path)


def test_delete_restore_rename_and_the_history_on_a_phone(browser, served):
    from scorekeeper import store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.conftest import WORKED_TRIGAMI_DEAL, game_file

    server, path = served
    db = connect(path)
    game_id = store.create_game(db, from_dict(game_file(players=["Anna", "Benny", "Carla"])))
    first = store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    store.add_deal(db, game_id, PLAIN)
    store.update_deal(db, game_id, first, {**WORKED_TRIGAMI_DEAL, "tricks": [5, 4, 4]})
    third = store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    db.conn.close()

    page = _page(browser)
    page.goto(f"{server}/games/{game_id}")
    page.get_by_role("link", name="Deal 2: change or delete").click()
    page.get_by_role("link", name="Delete").first.click()
    sync_api.expect(page.get_by_text("restored from the game's history")).to_be_visible()
    page.get_by_role("button", name="Delete deal 2").click()
    sync_api.expect(page.locator(".flash-restore")).to_contain_text("Deal 2 deleted.")
    shot(page, "history-1-deleted-with-restore")
    page.get_by_role("button", name="Restore deal 2").click()
    sync_api.expect(page.locator(".flash")).to_contain_text("Deal 2 restored.")
    # 100 + 100 + 80, 160 + 20 + 200, 13 + 10 + 13
    sync_api.expect(page.locator("thead .total")).to_have_text(["280", "380", "36"])

    page.get_by_role("link", name="Players and settings").click()
    page.fill("#player_1", "Ben")
    page.fill("#target", "100")
    page.get_by_role("button", name="Save").click()
    sync_api.expect(page.locator("#target-errors")).to_contain_text("Deal 2 would no longer fit")
    assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
    shot(page, "history-2-edit-refused")
    page.fill("#target", "1000")
    page.get_by_role("button", name="Save").click()
    sync_api.expect(page.locator(".flash")).to_contain_text("Players renamed: \u2068Benny\u2069 → \u2068Ben\u2069.")
    sync_api.expect(page.locator("thead .player-name")).to_have_text(["Anna", "Ben", "Carla"])

    page.goto(f"{server}/games/{game_id}/deals/{third}/delete")
    page.get_by_role("button", name="Delete deal 3").click()
    page.get_by_role("link", name="History of changes").click()
    sync_api.expect(page.locator(".change").first).to_contain_text("Deal 3 deleted")
    # static/app.js writes the local time in place of the UTC one
    sync_api.expect(page.locator(".change-time").first).not_to_contain_text("UTC")
    assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
    shot(page, "history-3-history")
    shot(page, "history-3-history-top", full_page=False)  # as the phone first shows it
    page.get_by_role("button", name="Restore").first.click()
    sync_api.expect(page.locator(".change").first).to_contain_text("Deal 3 restored")
    if SCREENSHOTS:  # a page to look at, nothing asserted (make screenshots)
        page.goto(f"{server}/games/{game_id}/edit")
        shot(page, "history-4-edit")
    page.context.close()


def test_trix_settings_on_a_phone(browser, served):
    from scorekeeper import store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.conftest import game_file

    server, path = served
    db = connect(path)
    names = ["Anna-Maria Katariina", "Bartholomew", "Christophoros", "Dorothea Wilhelmina"]
    game_id = store.create_game(db, from_dict(game_file(kind="trix", players=names, deals=[
        {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}}])))
    db.conn.close()
    page = _page(browser)
    page.goto(f"{server}/games/{game_id}/edit")
    page.locator(".chip-toggle label", has_text="Doubling").click()  # off: deal 1 has a doubled K♥
    page.get_by_role("button", name="Save").click()
    sync_api.expect(page.locator("#doubling-errors")).to_contain_text("Deal 1 would no longer fit")
    assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
    shot(page, "history-5-trix-settings-refused")
    page.context.close()


@pytest.mark.parametrize(("locale", "shape", "day"), [
    ("en-GB", r"^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2}$", "%-d %b %Y"),  # 7 Dec 2026, 07:36
    ("en-US", r"^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} [AP]M$", "%b %-d, %Y"),  # Dec 7, 2026, 07:36 AM
])
def test_the_history_dates_a_change_as_the_phones_own_english_does(browser, served, locale, shape, day):
    """Tester 67: a British phone read the history's times the American way ("Dec 7,
    2026, 07:36 AM"): the page says only "en". Each phone reads them in its own English;
    the printable sheet's day too (tester 69: "Dec 7, 2026" on a British phone)."""
    url, database = served
    game_id = store_game(database, game_file(deals=[PLAIN]))
    page = _page(browser, locale=locale)
    try:
        page.goto(f"{url}/games/{game_id}/history")
        when = page.locator("time.change-time").first
        sync_api.expect(when).not_to_contain_text("UTC")  # written by the page's script
        assert re.match(shape, when.inner_text().replace("\u202f", " ")), when.inner_text()
        page.goto(f"{url}/games/{game_id}/print")
        started = page.locator(".paper-head time")
        made = datetime.fromisoformat(started.get_attribute("datetime")).astimezone()  # the phone's day
        sync_api.expect(started).to_have_text(made.strftime(day))
    finally:
        page.context.close()
