"""Groups on a phone (headless Chromium, 390×844): a fresh install, the first phone starts
the group in one tap, the second joins by its link, a read-only viewer sees the sheet and
no way to change it. Screenshots: screenshots/groups-*.png."""

from __future__ import annotations

import pytest

from tests.browser_support import FITS_WIDTH, new_page, serve, shot, sync_api
from tests.conftest import WORKED_TRIGAMI_DEAL

pytestmark = pytest.mark.browser
expect = sync_api.expect


def test_a_fresh_install_a_group_in_one_tap_and_a_second_phone_joins(browser, tmp_path):
    with serve(tmp_path / "fresh.sqlite3", make_group=False) as base:
        first = new_page(browser, join=False)
        first.goto(base + "/")
        expect(first.get_by_role("heading", name="Keep score at the card table")).to_be_visible()
        assert first.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(first, "groups-welcome")
        first.get_by_role("button", name="Start a group").click()  # the one tap
        expect(first.get_by_text("Your group is ready")).to_be_visible()
        first.get_by_role("link", name="Invite the others").click()  # one tap to the link to share
        expect(first.locator("#play-link")).to_be_in_viewport()
        first.get_by_role("link", name="Group: Our games").click()
        link = first.locator("#play-link").input_value()
        assert "/g/" in link and first.get_by_role("img", name="The group's link").is_visible()
        first.get_by_role("button", name="Copy link").first.click()
        expect(first.get_by_role("button", name="Copied")).to_be_visible()
        assert first.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(first, "groups-settings")

        second = new_page(browser, join=False, color_scheme="dark")
        second.goto(link.replace(link.split("/g/")[0], base))  # the address this test serves on
        expect(second.get_by_role("heading", name="Games")).to_be_visible()
        second.goto(base + "/")  # and it is remembered
        expect(second.get_by_role("link", name="+ New game")).to_be_visible()
        first.context.close()
        second.context.close()


def test_on_a_small_phone_the_way_to_start_a_group_is_in_sight(browser, tmp_path):
    """Tester 49: on a 320×568 phone "Start a new group" was below the fold, under the
    form for joining, so the first phone of a group saw only how to join one. The
    welcome page now says "No group yet? Start a new group" in sight; the tap brings the
    button that starts it into view."""
    with serve(tmp_path / "fresh.sqlite3", make_group=False) as base:
        page = new_page(browser, 320, 568, join=False)
        try:
            page.goto(base + "/")
            choice = page.get_by_role("link", name="Start a new group")
            expect(choice).to_be_in_viewport()
            choice.click()
            expect(page.get_by_role("button", name="Start a group")).to_be_in_viewport()
        finally:
            page.context.close()


def test_a_read_only_viewer_sees_the_sheet_and_nothing_to_change(browser, tmp_path):
    from scorekeeper import groups
    from scorekeeper.db import connect
    from tests.browser_support import store_game
    from tests.conftest import game_file

    database = tmp_path / "view.sqlite3"
    with serve(database) as base:
        game_id = store_game(database, game_file(deals=[WORKED_TRIGAMI_DEAL]))
        db = connect(str(database))
        try:
            token = groups.view_link(db, groups.only_group(db).id, game_id)
        finally:
            db.conn.close()
        viewer = new_page(browser, width=360, height=740, join=False)
        viewer.goto(f"{base}/g/{token}")
        expect(viewer.get_by_text("Read-only: this link shows one game")).to_be_visible()
        expect(viewer.locator("#deal-1")).to_be_visible()
        assert viewer.get_by_role("link", name="+ Add deal 2").count() == 0
        assert viewer.get_by_role("link", name="Deal 1: change or delete").count() == 0
        viewer.locator("#deal-1 td a").first.click()  # how a number came about still opens
        expect(viewer.locator("[data-explain-dialog]")).to_be_visible()
        assert viewer.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(viewer, "groups-read-only-sheet")
        viewer.context.close()


def test_a_refused_passcode_is_in_sight_with_its_field_to_type_again(browser, tmp_path):
    """Tester 29: on the Group page, "123456" as the new passcode was refused beside its
    field, three screens below the QR code, and the page stayed at its top: the passcode
    looked set. The refused field is now in sight and focused, its message beside it."""
    with serve(tmp_path / "passcode.sqlite3") as base:
        page = new_page(browser)
        try:
            page.goto(base + "/group")
            page.get_by_label("New passcode").fill("123456")
            page.get_by_role("button", name="Set passcode").click()
            field = page.get_by_label("New passcode")
            expect(field).to_be_focused()
            expect(field).to_be_in_viewport()
            expect(page.get_by_text("Too easy to guess")).to_be_in_viewport()
            expect(field).to_have_value("123456")  # as typed, to put right
            shot(page, "groups-passcode-refused", full_page=False)
        finally:
            page.context.close()
