"""Another group's link opened on a phone in a group (headless Chromium, 390×844): the
phone is asked first, stays where it is, or opens the other group and switches back from
its Group page. Screenshot: screenshots/groups-switch-confirm.png."""

from __future__ import annotations

import pytest

from tests.browser_support import FITS_WIDTH, new_page, serve, shot, sync_api
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file

pytestmark = pytest.mark.browser
expect = sync_api.expect


def test_another_groups_link_asks_first_then_opens_it_and_the_phone_can_go_back(browser, tmp_path):
    from scorekeeper import groups, store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict

    database = tmp_path / "switch.sqlite3"
    with serve(database) as base:
        db = connect(str(database))
        try:
            alpha = groups.only_group(db)
            groups.rename(db, alpha.id, "Tuesday table")
            store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])), group_id=alpha.id)
            bravo = groups.create(db, "Friday club")
            store.create_game(db, from_dict(game_file(players=["Xavier", "Yolanda", "Zeno"])), group_id=bravo.id)
        finally:
            db.conn.close()
        page = new_page(browser)
        page.goto(f"{base}/g/{bravo.token}")
        expect(page.get_by_role("heading", name="Open Friday club on this phone?")).to_be_visible()
        expect(page.get_by_text("You stay able to go back to Tuesday table")).to_be_visible()
        expect(page.get_by_role("button", name="Open Friday club")).to_be_visible()
        expect(page.get_by_role("link", name="Stay in Tuesday table")).to_be_visible()
        assert page.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(page, "groups-switch-confirm")

        page.get_by_role("link", name="Stay in Tuesday table").click()
        expect(page.get_by_role("link", name="Carry on: Trigami with Anna, Ben, Carla")).to_be_visible()
        expect(page.get_by_role("link", name="Group: Tuesday table")).to_be_visible()

        page.goto(f"{base}/g/{bravo.token}")
        page.get_by_role("button", name="Open Friday club").click()
        expect(page.get_by_role("link", name="Carry on: Trigami with Xavier, Yolanda, Zeno")).to_be_visible()
        page.get_by_role("link", name="Group: Friday club").click()
        page.get_by_role("button", name="Switch to Tuesday table").click()
        expect(page.get_by_role("link", name="Carry on: Trigami with Anna, Ben, Carla")).to_be_visible()
        expect(page.get_by_role("link", name="Group: Tuesday table")).to_be_visible()
        page.context.close()
