"""A page left open on a club night in headless Chromium at 390×844 (issue 20;
docs/club-nights.md, "Pages left open"): phone A opens "Close round 1?" and leaves it;
phone B closes round 1 and seats round 2; A's "Close the round" closes nothing and the
night's page says so (screenshots/night-stale-close-390.png)."""

from __future__ import annotations

import pytest

from tests.browser_support import FITS_WIDTH, new_page, shot, sync_api
from tests.test_nights_browser import night_served  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

expect = sync_api.expect


def test_an_old_close_page_closes_nothing_once_the_night_moved_on(browser, night_served):  # noqa: F811
    url, night = night_served
    a, b = new_page(browser), new_page(browser)
    try:
        a.goto(f"{url}/nights/{night.id}")
        a.get_by_role("link", name="Close round 1").click()
        expect(a.get_by_role("heading", name="Close round 1?")).to_be_visible()
        b.goto(f"{url}/nights/{night.id}")
        b.get_by_role("link", name="Close round 1").click()
        b.get_by_role("button", name="Close the round").click()
        expect(b.get_by_text("Round 1 closed: 3 tables count as they stand.")).to_be_visible()
        b.get_by_role("button", name="Seat round 2").click()
        expect(b.get_by_text("Round 2 is seated.")).to_be_visible()
        a.get_by_role("button", name="Close the round").click()
        expect(a.get_by_text("Round 1 was closed already: nothing changed.")).to_be_visible()
        expect(a.get_by_text("Round 2 of 3 · 3 tables still playing.")).to_be_visible()
        expect(a.get_by_role("link", name="Close round 2")).to_be_visible()
        assert a.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(a, "night-stale-close-390")
    finally:
        a.context.close()
        b.context.close()
