"""The big screen through the group's read-only link, in headless Chromium (docs/club-
nights.md, "The big screen"): the organiser makes the link on the night's page at
390×844 (screenshots/night-screen-offer-390.png), a TV that never had a link opens the
offered address at 1920×1080 and follows a deal saved at a table by itself
(screenshots/night-big-screen-read-only-1920.png); a game's form opened from that TV is
refused.

The deal is SCORING.md §1.2's worked example (tests/test_nights_browser.py): seat 2
Doublets ♠ 5 tricks → 200 leads its table and the standing.
"""

from __future__ import annotations

import pytest

from scorekeeper import store
from scorekeeper.db import connect
from tests.browser_support import FITS_WIDTH, group_token, new_page, shot, sync_api
from tests.conftest import WORKED_TRIGAMI_DEAL
from tests.test_nights_browser import LIVE, night_served  # noqa: F401 (night_served: a fixture)

pytestmark = pytest.mark.browser

expect = sync_api.expect


def test_the_organiser_offers_the_tv_a_read_only_big_screen(browser, night_served, tmp_path):  # noqa: F811
    url, night = night_served
    table = night.current.tables[0]
    seats = table.game.players
    organiser = new_page(browser)  # 390×844, with the play link
    tv = new_page(browser, width=1920, height=1080, join=False)  # a TV's browser that never had a link
    try:
        organiser.goto(f"{url}/nights/{night.id}")
        offer = organiser.locator("#big-screen")
        expect(offer.get_by_role("heading")).to_have_text("Open on the big screen")
        expect(offer).to_contain_text("The group has none yet.")
        offer.get_by_role("button", name="Make a read-only link").click()
        offer = organiser.locator("#big-screen")
        expect(offer.locator("svg.join-qr")).to_be_visible()
        expect(offer).to_contain_text("This link only shows the scores: nobody can change anything with it.")
        expect(offer.get_by_role("button", name="Copy link")).to_be_visible()  # static/copy.js
        # the offer shown: the link's address and the page's fit in one call
        address, fits = organiser.evaluate(f"[document.querySelector('#big-screen #screen-link').value, {FITS_WIDTH}]")
        assert "/g/" in address and f"?screen={night.id}" in address
        assert group_token(tmp_path / "night.sqlite3") not in address  # not the play link
        assert fits  # no sideways scroll
        offer.scroll_into_view_if_needed()
        shot(organiser, "night-screen-offer-390")
        shot(offer, "night-screen-offer-panel-390")  # the panel, close up

        # the TV opens the address: the big screen, through the read-only link
        tv.goto(address)
        assert tv.url == f"{url}/nights/{night.id}/screen"
        card = tv.locator("#table-1")
        expect(card).to_contain_text("No deal yet")
        db = connect(str(tmp_path / "night.sqlite3"))
        try:
            store.add_deal(db, table.game.id, WORKED_TRIGAMI_DEAL)
        finally:
            db.conn.close()
        expect(card).to_contain_text("1 deal", timeout=LIVE)  # followed by itself
        first = tv.locator(".standing tbody tr").first
        expect(first).to_contain_text(seats[1])
        expect(first).to_contain_text("200")
        assert tv.evaluate(FITS_WIDTH)  # no sideways scroll (the screen shown: above)
        shot(tv, "night-big-screen-read-only-1920")
        # someone at the TV types a game's address: refused, nothing to change there
        refused = tv.goto(f"{url}/games/{table.game.id}/deals/new")
        assert refused is not None and refused.status == 403
    finally:
        organiser.context.close()
        tv.context.close()
