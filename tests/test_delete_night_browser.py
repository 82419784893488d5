"""A club night started by mistake, deleted and restored on a phone (390×844 and 360×740,
headless Chromium; docs/club-nights.md, "Deleting a night"): the night's page offers
"Delete this night", the question names the night and what goes with it, the nights list
then offers Restore, and the night comes back whole. Screenshots:
screenshots/night-delete-*.png."""

from __future__ import annotations

import re

import pytest

from tests.a11y_support import Audit, audited_page
from tests.browser_support import FITS_WIDTH, new_page, served_night, shot, sync_api

pytestmark = pytest.mark.browser

expect = sync_api.expect


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740)])
def test_a_night_started_by_mistake_is_deleted_and_restored_on_a_phone(browser, tmp_path, width, height):
    with served_night(tmp_path / "nights.sqlite3", rounds=2) as (url, night, _group):
        page = new_page(browser, width, height)
        try:
            page.goto(f"{url}/nights/{night.id}")
            page.get_by_role("link", name="Delete this night").click()
            expect(page.get_by_role("heading", name="Delete this night?")).to_be_visible()
            expect(page.locator("main")).to_contain_text("Friday club")
            expect(page.locator("main")).to_contain_text("Its 3 tables' games go with it (deals entered: 0).")
            keep, delete = page.get_by_role("link", name="Keep it"), page.get_by_role("button", name="Delete night")
            expect(keep).to_be_visible()
            expect(delete).to_be_in_viewport()  # in the thumb's reach, as every page's Save
            assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
            shot(page, f"night-delete-ask-{width}")
            delete.click()
            expect(page.locator(".flash")).to_contain_text("\u2068Friday club\u2069 deleted, with its tables' games.")
            deleted = page.locator("#deleted-head")
            expect(deleted).to_be_visible()
            expect(page.get_by_role("link", name="Friday club")).to_have_count(0)  # not among the nights
            assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
            shot(page, f"night-delete-listed-{width}")
            page.get_by_role("button", name="Restore: Friday club").click()
            expect(page.locator(".flash")).to_contain_text("\u2068Friday club\u2069 restored, with its tables' games.")
            expect(page.get_by_role("heading", name="Friday club")).to_be_visible()
            expect(page.locator(".night-tables, main").first).to_contain_text("Table 3")
        finally:
            page.context.close()


def test_the_pages_of_deleting_a_night_meet_wcag_22_aa(browser, tmp_path):
    """axe (tests/test_a11y_browser.py's audit, light and dark) on the question, the nights
    list with a deleted night and its Restore, and a deleted night's table game."""
    with served_night(tmp_path / "nights.sqlite3", rounds=2) as (url, night, _group):
        page = audited_page(browser, 360, 740)
        audit = Audit(page)
        try:
            audit.visit(url, f"/nights/{night.id}")
            audit.visit(url, f"/nights/{night.id}/delete")
            page.get_by_role("button", name="Delete night").click()
            expect(page.locator("#deleted-head")).to_be_visible()
            audit("the nights list with a deleted night")
            page.goto(f"{url}/games/{night.current.tables[0].game.id}")
            expect(page.locator("main")).to_contain_text("a club night that was deleted")
            audit("a deleted night's table")
            page.goto(f"{url}/nights/{night.id}")  # the deleted night's own page: what it was, Restore
            expect(page.get_by_role("heading", name="This night was deleted")).to_be_visible()
            expect(page.get_by_role("button", name=re.compile("Restore"))).to_be_visible()
            shot(page, "night-deleted-page-360")
            audit("a deleted night's page")
            assert not audit.problems, audit.report()
        finally:
            page.context.close()
