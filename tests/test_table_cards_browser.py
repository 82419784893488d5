"""A club night's table card in headless Chromium at 390×844 (docs/club-nights.md, "Table
cards"): the QR code printed on table 1's card, read back with zxing-cpp from a
screenshot, is the card's own address (never the group's link); a fresh phone that
opens it lands on table 1's game, saves a deal (SCORING.md §1.2's worked example: 80,
200, 13), and is refused the group page in words. Screenshots: screenshots/table-card-*.png.
"""

from __future__ import annotations

import pytest

from scorekeeper import groups, night_actions, night_store, store
from scorekeeper.db import connect
from tests.a11y_support import Audit, audited_page
from tests.browser_support import (
    FITS_WIDTH,
    fill_worked_example,
    go_offline,
    new_page,
    served_night,
    sheet_and_form_kept,
    shot,
    sync_api,
)
from tests.png_support import read_png
from tests.test_join import decode_grey

pytestmark = pytest.mark.browser

expect = sync_api.expect
LIVE = 5_000  # ms: a poll every 2 s tells an open page
@pytest.fixture
def night_served(tmp_path):
    """A served app with a Trigami night of nine started: (URL, night, table 1's card token,
    the group's play link token)."""
    database = tmp_path / "cards.sqlite3"
    with served_night(database, rounds=2) as (url, night, group):
        db = connect(str(database))
        try:
            token = groups.table_cards(db, night.id)[night.current.tables[0].game.id]
        finally:
            db.conn.close()
        yield url, night, token, group.token


def test_a_fresh_phone_scans_table_1s_printed_card_and_saves_a_deal(browser, night_served):
    url, night, token, play = night_served
    table = night.current.tables[0]
    organiser = new_page(browser)
    phone = new_page(browser, join=False)  # a phone that has opened no link
    try:
        organiser.goto(f"{url}/nights/{night.id}/print")
        card = organiser.locator(".table-card").first
        qr = card.locator("svg.card-qr")
        png = read_png(qr.screenshot())
        scanned = decode_grey(png.grey(), png.width, png.height)
        assert scanned == [f"{url}/t/{token}"]  # the card's own address
        # the card's address as printed and the whole page, in one call
        printed, whole = organiser.evaluate(
            "[document.querySelector('.table-card .join-address').innerText, document.documentElement.outerHTML]")
        assert printed == scanned[0]
        assert play not in whole  # the group's play link is on no card
        shot(organiser, "table-card-print-390")

        phone.goto(scanned[0])
        assert phone.url == f"{url}/games/{table.game.id}"
        expect(phone.get_by_text("Table card: this phone enters deals at table 1 (round 1) only.")).to_be_visible()
        assert phone.evaluate(FITS_WIDTH)  # no sideways scroll
        shot(phone, "table-card-sheet-390")
        phone.get_by_role("link", name="Add deal 1").click()
        fill_worked_example(phone)
        phone.get_by_role("button", name="Save deal 1").click()
        expect(phone.locator("thead .total")).to_have_text(["80", "200", "13"])
        shot(phone, "table-card-saved-390")

        # nothing else of the group opens on it: said, with the way back to its game
        answer = phone.goto(f"{url}/group")
        assert answer.status == 403
        expect(phone.get_by_role("heading", name="Table 1's card")).to_be_visible()
        assert phone.evaluate(FITS_WIDTH)  # no sideways scroll
        shot(phone, "table-card-refused-390")
        phone.get_by_role("link", name="Open table 1's game").click()
        assert phone.url == f"{url}/games/{table.game.id}"
    finally:
        for page in (organiser, phone):
            page.context.close()


def test_a_card_phones_pages_meet_wcag_22_aa(browser, night_served):
    """axe (WCAG 2.2 AA) and the measured contrasts of tests/test_a11y_browser.py on what a
    phone with a table card sees: its sheet with the card's bar, the deal form, and the
    page that refuses the group page."""
    url, night, token, _ = night_served
    game_id = night.current.tables[0].game.id
    page = audited_page(browser, join=False)
    try:
        page.goto(f"{url}/t/{token}")
        audit = Audit(page)
        for address in (f"/games/{game_id}", f"/games/{game_id}/deals/new", "/group"):
            audit.visit(url, address)
        assert not audit.problems, audit.report()
        shot(page, "table-card-refused-390")
    finally:
        page.context.close()


def test_a_deal_kept_offline_on_a_card_whose_round_closed_meanwhile_is_told_so_in_one_line(browser, night_served,
                                                                                            tmp_path):
    """The tester's table: the card's phone loses the Wi-Fi, saves deal 1 (kept on the
    phone), and the organiser closes round 1 meanwhile. Back online, the deal is refused
    (nothing written to a closed round), and the phone says why in the card's one line,
    not the refusal page run together with its buttons and languages; it offers no "Open
    it … save it again" (this card can never save it), and the sheet is drawn again as
    the server has it: no "Add deal", nobody dealing "next" on the phone's own count."""
    url, night, token, _ = night_served
    game_id = night.current.tables[0].game.id
    phone = new_page(browser, join=False, service_workers="allow")
    context = phone.context
    try:
        phone.goto(f"{url}/t/{token}")
        assert phone.url == f"{url}/games/{game_id}"
        sheet_and_form_kept(phone)
        drawn = phone.locator("[data-next-text]").inner_text()
        go_offline(context, f"{url}/games/{game_id}/live")
        phone.get_by_role("link", name="Add deal 1").click()
        fill_worked_example(phone)
        phone.get_by_role("button", name="Save deal 1").click()
        expect(phone.locator("[data-outbox]")).to_contain_text("Deal 1, kept on this phone at")
        db = connect(str(tmp_path / "cards.sqlite3"))  # night_served's
        try:
            night_actions.close_round(db, night_store.get_night(db, night.id), 1)
        finally:
            db.conn.close()
        # the service worker's first fetch of the sheet fails (as when the worker is still
        # offline a moment after the page, seen once in a full run): the sheet shown must
        # still be the server's, not the copy the worker kept with its "Add deal 1"
        cut: list[str] = []
        context.route(f"{url}/games/{game_id}", lambda route: (cut.append(route.request.url),
                                                               route.abort("internetdisconnected")), times=1)
        context.set_offline(False)
        outbox = phone.locator("[data-outbox]")
        expect(outbox).to_contain_text("Not saved: Round 1 is closed: this table card now only shows the scores of "
                                       "table 1. Deals can no longer be entered or changed with it.", timeout=20_000)
        expect(outbox).to_contain_text("This phone can no longer enter deals in this game: note the entries for the "
                                       "organiser, then discard it.")
        said = outbox.locator(".errors").inner_text()
        assert "English" not in said and "Open table 1" not in said
        expect(outbox.get_by_role("button", name="Open it")).to_have_count(0)
        expect(outbox.get_by_role("button", name="Discard")).to_be_visible()
        expect(phone.get_by_role("link", name="Add deal 1")).to_have_count(0)
        assert cut, "the worker's fetch of the sheet was never cut: the test tried nothing"
        # the sheet settled (above): who deals next, if it says, and its fit in one call
        next_texts, fits = phone.evaluate(
            f"[Array.from(document.querySelectorAll('[data-next-text]'), (e) => e.innerText), {FITS_WIDTH}]")
        assert next_texts == [] or next_texts == [drawn]
        assert fits  # no sideways scroll
        shot(phone, "table-card-offline-refused-390")
        db = connect(str(tmp_path / "cards.sqlite3"))
        try:
            assert store.get_game(db, game_id).deals == ()  # nothing written to the closed round
        finally:
            db.conn.close()
    finally:
        context.close()


def test_a_card_phone_online_as_its_round_closes_keeps_its_entries_and_stops_offering_to_save(browser, night_served,
                                                                                              tmp_path):
    """Tester 28: the card's phone, online, had deal 2 typed in when the organiser closed
    round 1; its pages went on offering "+ Add deal" and "Undo", and Save showed only the
    card's refusal: the deal just typed was gone. Now (one phone, three pages):
    - the form whose Save crosses the close comes back as sent, nothing saved: the
      refusal above it (its focus), the entries as typed, no Save;
    - a form left open is told by its poll, keeps its entries and loses its Save;
    - the score sheet is drawn again read-only: no "Add deal", no Undo.
    Nothing is written to the closed round."""
    url, night, token, _ = night_served
    game_id = night.current.tables[0].game.id
    typing = new_page(browser, join=False)
    phone = typing.context
    try:
        typing.goto(f"{url}/t/{token}")
        typing.get_by_role("link", name="Add deal 1").click()
        fill_worked_example(typing)
        typing.get_by_role("button", name="Save deal 1").click()
        expect(typing.get_by_role("button", name="↶ Undo deal 1")).to_be_visible()
        sheet = phone.new_page()
        sheet.goto(f"{url}/games/{game_id}")
        expect(sheet.get_by_role("button", name="↶ Undo deal 1")).to_be_visible()
        waiting = phone.new_page()
        waiting.goto(f"{url}/games/{game_id}/deals/new")
        typing.goto(f"{url}/games/{game_id}/deals/new")
        typing.route("**/live?**", lambda route: route.abort())  # this page hears nothing before its Save
        fill_worked_example(typing)
        typed = [typing.input_value(f"#{field}_{seat}") or "0" for field in ("tricks", "bugs") for seat in range(3)]
        db = connect(str(tmp_path / "cards.sqlite3"))  # night_served's
        try:
            night_actions.close_round(db, night_store.get_night(db, night.id), 1)
        finally:
            db.conn.close()

        typing.get_by_role("button", name="Save deal 2").click()
        refusal = typing.locator("form [data-card-shut]")
        expect(refusal).to_contain_text("Nothing was saved.")
        expect(refusal).to_contain_text("Round 1 is closed: this table card now only shows the scores of table 1.")
        expect(refusal).to_contain_text("Your entries are below, as you typed them: give them to the organiser.")
        expect(refusal).to_be_focused()
        # (Ben's bugs left blank: 0, as a blank count reads)
        assert [typing.input_value(f"#{field}_{seat}") or "0" for field in ("tricks", "bugs")
                for seat in range(3)] == typed
        expect(typing.locator(".seat-card").first.get_by_role("radio", name="Turnip")).to_be_checked()
        expect(typing.locator("button[type=submit]")).to_have_count(0)
        expect(typing.get_by_role("link", name="Open table 1's game")).to_be_visible()
        assert typing.evaluate(FITS_WIDTH)  # no sideways scroll
        shot(typing, "table-card-closed-while-typing-390")

        told = waiting.locator("form [data-card-shut]")
        expect(told).to_contain_text("Round 1 is closed: this table card now only shows the scores of table 1.",
                                     timeout=LIVE)
        expect(told).to_contain_text("Your entries are below, as you typed them: give them to the organiser.")
        expect(waiting.locator("button[type=submit]")).to_have_count(0)
        # the bar at the top says so too, not "this phone enters deals at table 1" any more
        expect(waiting.locator(".table-card-bar")).to_have_text(
            "Round 1 is closed: the card of table 1 now only shows its scores.")
        shot(waiting, "table-card-closed-form-open-390", full_page=False)

        expect(sheet.get_by_text("Round 1 is closed: the card of table 1 now only shows its scores.")).to_be_visible(
            timeout=LIVE)
        expect(sheet.get_by_role("link", name="Add deal 2")).to_have_count(0)
        expect(sheet.get_by_role("button", name="↶ Undo deal 1")).to_have_count(0)
        db = connect(str(tmp_path / "cards.sqlite3"))
        try:
            assert len(store.get_game(db, game_id).deals) == 1  # deal 1, from before the close
        finally:
            db.conn.close()
    finally:
        phone.close()
