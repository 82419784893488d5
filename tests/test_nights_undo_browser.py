"""Taking back on a club night in headless Chromium at 390×844 (issue 20): the organiser
marks a player as leaving and takes them back ("X stays"), closes round 1 early, a table
enters a deal after the close, and the organiser reopens the round, asked first with the
deal that counts again named (screenshots/night-undo-*.png).
"""

from __future__ import annotations

import pytest

from tests.a11y_support import Audit, audited_page
from tests.browser_support import fill_worked_example, new_page, no_sideways_scroll, shot, sync_api
from tests.test_nights_browser import night_served  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

expect = sync_api.expect


def test_an_organiser_takes_back_a_leaver_and_reopens_a_round(browser, night_served):  # noqa: F811
    url, night = night_served
    leaver = night.current.tables[0].game.players[0]
    late_table = night.current.tables[1]
    page = new_page(browser)
    try:
        page.goto(f"{url}/nights/{night.id}")
        leave = page.locator("#leave")
        leave.locator("label").filter(has_text=leaver).click()
        leave.get_by_role("button", name="Leaves after this round").click()
        expect(page.get_by_text(f"{leaver} leaves after round 1.").first).to_be_visible()
        stays = page.get_by_role("button", name=f"{leaver} stays")
        expect(stays).to_be_visible()
        assert no_sideways_scroll(page)
        page.locator("#leave").scroll_into_view_if_needed()
        shot(page, "night-undo-leaver-390")
        stays.click()
        expect(page.get_by_text(f"\u2068{leaver}\u2069 stays: seated again from round 2.")).to_be_visible()
        expect(page.get_by_role("button", name=f"{leaver} stays")).to_have_count(0)
        # round 1 closed early by mistake
        page.get_by_role("link", name="Close round 1").click()
        page.get_by_role("button", name="Close the round").click()
        expect(page.get_by_text("Round 1 closed: 3 tables count as they stand.")).to_be_visible()
        reopen = page.get_by_role("link", name="Reopen round 1")
        expect(reopen).to_be_visible()
        expect(page.get_by_text("Round 1 can be reopened until round 2 is seated.")).to_be_visible()
        assert no_sideways_scroll(page)
        shot(page, "night-undo-closed-390")
        # table 2 still enters its deal on its phone
        table_phone = new_page(browser)
        try:
            table_phone.goto(f"{url}/games/{late_table.game.id}/deals/new")
            fill_worked_example(table_phone)
            table_phone.get_by_role("button", name="Save deal 1").click()
            expect(table_phone.locator("thead .total")).to_have_text(["80", "200", "13"])
        finally:
            table_phone.context.close()
        page.reload()
        page.get_by_role("link", name="Reopen round 1").click()
        expect(page.get_by_role("heading", name="Reopen round 1?")).to_be_visible()
        expect(page.locator(".notice")).to_contain_text("Table 2")
        expect(page.locator(".notice")).to_contain_text("0 counted, 1 now")
        assert no_sideways_scroll(page)
        shot(page, "night-undo-reopen-ask-390")
        page.get_by_role("button", name="Reopen the round").click()
        expect(page.get_by_text("Round 1 is open again: its tables play on. 1 deal entered since it was closed "
                                "counts now.")).to_be_visible()
        expect(page.get_by_role("link", name="Close round 1")).to_be_visible()
        expect(page.get_by_role("link", name="Reopen round 1")).to_have_count(0)
        expect(page.locator("#table-2")).to_contain_text("1 deal")
        assert no_sideways_scroll(page)
        shot(page, "night-undo-reopened-390")
    finally:
        page.context.close()


def test_reopening_and_taking_back_meet_wcag_22_aa(browser, night_served):  # noqa: F811
    """axe (WCAG 2.2 AA) and the measured contrasts of tests/test_a11y_browser.py on the
    night's page with a leaver to take back and a closed round to reopen, and on the
    page that asks before reopening, in the light and the dark theme."""
    url, night = night_served
    page = audited_page(browser)
    try:
        page.goto(f"{url}/nights/{night.id}")
        page.locator("#leave label").first.click()
        page.get_by_role("button", name="Leaves after this round").click()
        page.get_by_role("link", name="Close round 1").click()
        page.get_by_role("button", name="Close the round").click()
        expect(page.get_by_role("link", name="Reopen round 1")).to_be_visible()
        audit = Audit(page)
        audit(f"/nights/{night.id}")
        audit.visit(url, f"/nights/{night.id}/rounds/1/reopen")
        assert not audit.problems, audit.report()
    finally:
        page.context.close()
