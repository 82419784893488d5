"""A deal saved while the server's disk is full (issue 16, part 7), in headless Chromium at
390×844: the phone is told why, the deal waits in the outbox saying so (not refused, not
silently retried), and it is sent by itself once there is room, once. The database is on
a small disk (tests/disk_support.py). Screenshots: screenshots/disk-*.png.

Points are SCORING.md §1.2's worked example: Anna 80, Ben 200, Carla 13.
"""

from __future__ import annotations

import pytest

from scorekeeper.db import connect
from tests.browser_support import (
    SCREENSHOTS,
    SHOTS,
    fill_worked_example,
    new_page,
    serve,
    store_game,
    sync_api,
)
from tests.conftest import game_file
from tests.disk_support import small_disk
from tests.test_full_disk import TOLD
from tests.test_live_browser import deals

pytestmark = pytest.mark.browser

expect = sync_api.expect


def _shots() -> tuple[list[tuple[str, bytes]], object]:
    """Screenshots taken as bytes and written to screenshots/ at the end: under a file
    size limit (tests/disk_support.py) this process may write no file meanwhile."""
    taken: list[tuple[str, bytes]] = []

    def take(page, name: str) -> None:
        if SCREENSHOTS:
            taken.append((name, page.screenshot(full_page=True)))

    return taken, take


def test_a_deal_saved_on_a_full_disk_waits_in_the_outbox_saying_why_and_is_sent_once_there_is_room(
        browser, tmp_path):
    taken, shot = _shots()
    with small_disk(tmp_path / "instance") as disk:
        database = disk.folder / "scorekeeper.sqlite3"
        with serve(database) as url:
            game_id = store_game(database, game_file())
            page = new_page(browser)
            # a connection held open for the test, as a real server's threads keep theirs
            # (`scorekeeper serve`: waitress's pool). This test server runs each request in
            # a thread of its own, whose connection goes with it: were every connection
            # closed at once, SQLite removes the database's shared-memory file, and the next
            # request, opening the database on the full disk, could not make it again
            # (seen once on a busy machine: the bare "Not saved" page instead of the form)
            held = connect(str(database))
            held.execute("select count(*) from games").fetchone()
            try:
                page.goto(f"{url}/games/{game_id}/deals/new")
                fill_worked_example(page)
                disk.fill(database)
                page.get_by_role("button", name="Save deal 1").click()

                # the form again: why, the entries as typed, and that it waits on this phone
                expect(page.locator("[data-disk-full]")).to_have_text(TOLD[disk.reason])
                expect(page.locator("[data-preview-line]")).to_contain_text(
                    "Deal 1 is kept on this phone and is sent by itself as soon as the server can save it.")
                assert page.input_value("#tricks_1") == "5"
                expect(page.get_by_role("button", name="Save deal 1")).to_be_disabled()
                shot(page, "disk-1-form")

                # the sheet lists it as waiting, with the reason; tries meanwhile keep it so
                page.goto(f"{url}/games/{game_id}")
                outbox = page.locator("[data-outbox]")
                expect(outbox).to_contain_text("1 deal waiting to be sent")
                expect(outbox.locator(".outbox-held")).to_have_text(
                    f"{TOLD[disk.reason]} This deal is sent by itself as soon as the "
                    "server can save it.")
                expect(outbox).to_contain_text("Anna: Turnip, Tricks 4, Bugs 1")
                page.wait_for_timeout(6_000)  # at least one more try (every 5 s) on the full disk
                expect(outbox).to_contain_text("1 deal waiting to be sent")
                # the outbox settled (above): its refused cards and its words in one call
                refused, said = page.evaluate("[document.querySelectorAll('.outbox-item.refused').length, "
                                              "document.querySelector('[data-outbox]').innerText]")
                assert refused == 0
                assert "Not saved:" not in said
                assert deals(database) == []
                shot(page, "disk-2-waiting")

                disk.free()  # room again: sent by itself, once, without a reload or restart
                expect(page.locator("thead .total")).to_have_text(["80", "200", "13"], timeout=15_000)
                expect(outbox).to_be_hidden()
                page.wait_for_timeout(6_000)  # later tries find nothing waiting
                assert [d["tricks"] for d in deals(database)] == [[4, 5, 4]]
                shot(page, "disk-3-sent")
            finally:
                page.context.close()
                held.conn.close()
    SHOTS.mkdir(exist_ok=True)
    for name, png in taken:
        (SHOTS / f"{name}.png").write_bytes(png)
