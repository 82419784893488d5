"""A phone's deals go in the order they were entered (tester 22, HIGH), in headless
Chromium at 390×844: deals kept on the phone, one of them refused (another phone's deal
came first) and the others waiting for it, then a new deal entered after them, without
connection or with it. The new deal had been saved before the deals entered earlier
(entered as deal 6, saved as deal 5: a seat's deal out of turn, and in Trix a contract in
the wrong kingdom); now it waits after them and every deal goes in the phone's order. And
while they wait, the sheet numbers them as they will be saved (two cards had both read
"Deal 4").

A game to 1000 of two clean deals (tests/test_offline_truth_browser.py); the deals' tricks tell
them apart: this phone's deal 3 (5, 4, 4), its deal 4 (6, 4, 3), the other phone's deal
3 (4, 4, 5), the deal entered afterwards (3, 5, 5). Trigami's deal passes to the next seat
(SCORING.md §1).
"""

from __future__ import annotations

import re

import pytest

from tests.browser_support import go_offline, shot, sync_api
from tests.test_live_browser import clean_deal, deals
from tests.test_offline_truth_browser import (
    CLEAN,
    SENT,
    all_sent_in_order,
    another_phone_adds,
    deal_3_kept_offline,
    served,  # noqa: F401 - the fixture
)

pytestmark = pytest.mark.browser

expect = sync_api.expect

THEIRS = {**CLEAN, "tricks": [4, 4, 5]}  # the other phone's deal 3
#: The games' target: Anna's six deals below make 500, which would end a game to 500
TARGET = 1000


def keep_deal_4_then_refuse_deal_3(page, database, game_id: str) -> None:
    """The phone of :func:`deal_3_kept_offline` keeps a deal 4 too; another phone adds its
    own deal 3 meanwhile; back online, deal 3 is refused and deal 4 waits for it."""
    page.get_by_role("link", name="Add deal 4").click()
    expect(page.get_by_role("heading", name="Deal 4")).to_be_visible()
    clean_deal(page, tricks=(6, 4))
    page.get_by_role("button", name="Save deal 4").click()
    expect(page.locator("[data-outbox]")).to_contain_text("Deal 4, kept on this phone at")
    another_phone_adds(database, game_id, THEIRS)
    page.context.set_offline(False)
    expect(page.locator(".outbox-item.refused")).to_contain_text("Deal 3 was added on another phone", timeout=SENT)
    expect(page.locator(".outbox-item:not(.refused)")).to_contain_text("Not sent yet: it comes after your deal 3")
    expect(page.locator("#deal-3")).to_be_visible(timeout=SENT)  # the other phone's deal 3 on the sheet


def cards(page) -> list[str]:
    """The outbox's cards, as headed, in the order shown."""
    return page.locator(".outbox-item h3").all_inner_texts()


def test_a_deal_entered_offline_after_a_refused_deal_opened_again_goes_after_the_deals_entered_before_it(
        browser, served):  # noqa: F811 - the fixture
    """Offline again, deal 3 opened from its card and saved (now deal 4), then a new deal
    entered: it is deal 6, after this phone's deal 4 (now 5); it had gone in as deal 5.
    Meanwhile the cards read deal 4 and deal 5 in the order they are sent (the deal opened
    again had been listed last, with the same number as the one after it, which still
    said it waited for a deal not saved), and the sheet offers "Add deal 6"."""
    with deal_3_kept_offline(browser, served, TARGET) as (page, url, database, game_id):
        keep_deal_4_then_refuse_deal_3(page, database, game_id)
        go_offline(page.context, f"{url}/games/{game_id}/live")
        page.locator(".outbox-item.refused").get_by_role("button", name="Open it").click()
        expect(page.get_by_role("heading", name="Deal 4")).to_be_visible()
        expect(page.locator("#tricks_0")).to_have_value("5")  # this phone's deal 3, as kept
        page.get_by_role("button", name="Save deal 4").click()
        expect(page.locator("[data-outbox]")).to_contain_text("2 deals waiting to be sent")
        heads = cards(page)
        assert [head.split(",")[0] for head in heads] == ["Deal 4", "Deal 5"], heads
        said = page.locator(".outbox-item").all_inner_texts()
        assert "Anna: ♠, Tricks 5" in said[0] and "Anna: ♠, Tricks 6" in said[1], said  # deal 3 as kept, then deal 4
        expect(page.locator(".outbox-behind")).to_have_count(0)  # nothing waits for a deal not saved
        shot(page, "outbox-order-reopened-saved-offline")
        page.get_by_role("link", name="Add deal 6").click()
        expect(page.get_by_role("heading", name="Deal 6")).to_be_visible()
        clean_deal(page, tricks=(3, 5))
        page.get_by_role("button", name="Save deal 6").click()
        expect(page.locator("[data-outbox]")).to_contain_text("3 deals waiting to be sent")
        assert [head.split(",")[0] for head in cards(page)] == ["Deal 4", "Deal 5", "Deal 6"]
        page.context.set_offline(False)
        all_sent_in_order(page, database, [[5, 4, 4], [5, 4, 4], [4, 4, 5], [5, 4, 4], [6, 4, 3], [3, 5, 5]])


def test_a_deal_saved_online_while_deals_entered_before_it_wait_goes_after_them(browser, served):  # noqa: F811
    """With connection, deal 3 refused and deal 4 waiting for it, a new deal entered on the
    add-deal form (reached otherwise than from the sheet, which offers none until deal 3
    is opened again or discarded: tester 31) waits after deal 4 instead of being saved at
    once (it had been saved as deal 4, before this phone's deal 4); once deal 3 is
    discarded, this phone's deal 4 and then the new deal go, as deals 4 and 5."""
    with deal_3_kept_offline(browser, served, TARGET) as (page, url, database, game_id):
        keep_deal_4_then_refuse_deal_3(page, database, game_id)
        expect(page.get_by_role("link", name=re.compile("Add deal"))).to_have_count(0)
        page.goto(f"{url}/games/{game_id}/deals/new")  # (a second tab, Back to a form)
        expect(page.get_by_role("heading", name="Deal 5")).to_be_visible()
        clean_deal(page, tricks=(3, 5))
        page.get_by_role("button", name="Save deal 5").click()
        # the sheet, listing it after this phone's deal 4: nothing of it saved yet
        expect(page.locator(".outbox-item")).to_have_count(3)
        heads = cards(page)
        assert [head.split(",")[0] for head in heads] == ["Deal 3", "Deal 4", "Deal 5"], heads
        page.wait_for_timeout(6000)  # a round of the outbox later (every 5 s): both still wait
        assert [d["tricks"] for d in deals(database)] == [[5, 4, 4], [5, 4, 4], [4, 4, 5]]
        shot(page, "outbox-order-new-deal-waits")
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator(".outbox-item.refused").get_by_role("button", name="Discard").click()
        all_sent_in_order(page, database, [[5, 4, 4], [5, 4, 4], [4, 4, 5], [6, 4, 3], [3, 5, 5]])


def test_a_deal_refused_twice_then_discarded_lets_the_deals_kept_after_it_go(browser, served):  # noqa: F811
    """Tester 23 (HIGH): deal 3 refused, opened again and saved without connection,
    refused again (the other phone's deal 4 came first), then discarded: this phone's deal
    4, kept after it, had waited for it for good, its card saying it went once deal 3,
    "opened again", was saved. Now the card says it comes after a deal not saved, the sheet
    offers no new deal until that one is settled (tester 31: its number depends on it),
    and once that deal is discarded it goes, as deal 5, and the sheet offers deal 6."""
    with deal_3_kept_offline(browser, served, TARGET) as (page, url, database, game_id):
        keep_deal_4_then_refuse_deal_3(page, database, game_id)
        refused = page.locator(".outbox-item.refused")
        go_offline(page.context, f"{url}/games/{game_id}/live")
        refused.get_by_role("button", name="Open it").click()
        expect(page.get_by_role("heading", name="Deal 4")).to_be_visible()
        expect(page.locator("#tricks_0")).to_have_value("5")
        page.get_by_role("button", name="Save deal 4").click()  # kept again, without connection
        expect(page.locator("[data-outbox]")).to_contain_text("2 deals waiting to be sent")
        another_phone_adds(database, game_id, {**CLEAN, "tricks": [4, 5, 4]})  # its deal 4
        page.context.set_offline(False)
        expect(refused).to_contain_text("Deal 4 was added on another phone", timeout=SENT)
        expect(page.locator("#deal-4")).to_be_visible(timeout=SENT)  # the sheet caught up
        waiting = page.locator(".outbox-item:not(.refused)")
        expect(waiting).to_contain_text("Not sent yet: it comes after your deal 4, which was not saved.")
        assert "opened again" not in waiting.inner_text()
        assert [head.split(",")[0] for head in cards(page)] == ["Deal 4", "Deal 5"]
        expect(page.get_by_role("link", name=re.compile("Add deal"))).to_have_count(0)
        expect(page.locator("[data-settle-first]")).to_contain_text("Open or discard your deal 4 first")
        shot(page, "outbox-order-refused-twice")
        page.once("dialog", lambda dialog: dialog.accept())
        refused.get_by_role("button", name="Discard").click()
        all_sent_in_order(page, database, [[5, 4, 4], [5, 4, 4], [4, 4, 5], [4, 5, 4], [6, 4, 3]])
        expect(page.get_by_role("link", name="Add deal 6")).to_be_visible(timeout=SENT)
