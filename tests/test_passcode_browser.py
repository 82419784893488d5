"""Letting a phone in on phones (headless Chromium, 390×844): strangers have used up the
group's tries, so a new phone is refused even with the right passcode; a phone in the group
taps "Let a phone in" on the Group page, and the new phone types the code, or scans its QR
code. Screenshots: screenshots/let-in-*.png."""

from __future__ import annotations

import contextlib
import re

import pytest

from tests.a11y_support import TAGS, audited_page
from tests.browser_support import (
    FITS_WIDTH,
    fill_worked_example,
    group_token,
    new_page,
    serve,
    shot,
    store_game,
    sync_api,
)
from tests.conftest import game_file
from tests.png_support import read_png
from tests.test_join import decode_grey

pytestmark = pytest.mark.browser
expect = sync_api.expect

PASSCODE = "clubs and spades"


def read_qr(page) -> str:
    """What a camera reads from the page's QR code (its screenshot, through zxing-cpp)."""
    png = read_png(page.locator("svg.join-qr").screenshot())
    grey = b"".join(row[::png.channels] for row in png.rows)  # the red channel: black or white
    found = decode_grey(grey, png.width, png.height)
    assert len(found) == 1, found
    return found[0]


def accessible(page) -> list[str]:
    """axe-core's WCAG 2.2 AA violations on the page as it is now (tests/test_a11y_browser.py)."""
    results = page.evaluate("(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, "
                            "resultTypes: ['violations']})", TAGS)
    return [f"{v['id']}: {v['help']}: {[n['target'] for n in v['nodes']]}" for v in results["violations"]]


def give_passcode(database) -> None:
    """The group of ``database`` given the passcode PASSCODE (on its Group page, by a phone
    of the group, as far as the other phones can tell)."""
    from scorekeeper import groups
    from scorekeeper.db import connect

    db = connect(str(database))
    try:
        groups.set_passcode(db, groups.only_group(db).id, PASSCODE)
    finally:
        db.conn.close()


def enter_passcode(page, passcode: str) -> None:
    page.get_by_label("Passcode", exact=True).fill(passcode)
    page.get_by_role("button", name="Open the group").click()


def test_a_member_lets_a_new_phone_in_while_strangers_used_up_the_groups_tries(browser, tmp_path):

    database = tmp_path / "let-in.sqlite3"
    with serve(database, PASSCODE_LIMIT_GROUP="2 per hour") as base:
        token = group_token(database)
        give_passcode(database)

        member = audited_page(browser)
        member.goto(base + "/")
        enter_passcode(member, PASSCODE)
        expect(member.get_by_role("link", name="+ New game")).to_be_visible()

        # a stranger with the link guesses twice: the group's tries are used up
        newcomer = audited_page(browser, join=False)
        newcomer.goto(f"{base}/g/{token}")
        expect(newcomer.locator("[data-passcode-waiting]")).to_be_hidden()  # no deal kept on it
        for guess in ("hearts and clubs", "spades and clubs"):
            enter_passcode(newcomer, guess)
            expect(newcomer.get_by_text("That is not the passcode")).to_be_visible()
        enter_passcode(newcomer, PASSCODE)
        expect(newcomer.get_by_text("Too many wrong passcodes for this group")).to_be_visible()
        expect(newcomer.get_by_text("Ask someone in the group to tap 'Let a phone in' on the Group page")).to_be_visible()
        assert newcomer.evaluate(FITS_WIDTH)  # no sideways scroll (the page shown: above)
        shot(newcomer, "let-in-refused")
        assert accessible(newcomer) == []

        # the member makes a code on the Group page
        member.goto(base + "/group")
        expect(member.get_by_text("At least 6 digits, or two words or more (8 characters or more).")).to_be_visible()
        member.get_by_role("button", name="Let a phone in").scroll_into_view_if_needed()
        shot(member, "let-in-group-page")
        for heading, name in (("Passcode", "passcode"), ("Let a phone in", "let-in")):
            section = member.locator("section").filter(has=member.get_by_role("heading", name=heading, exact=True))
            shot(section, f"let-in-group-page-{name}")
        assert accessible(member) == []
        member.get_by_role("button", name="Let a phone in").click()
        expect(member.get_by_role("heading", name="Let a phone in")).to_be_visible()
        expect(member.get_by_role("img", name="Link with the one-time code")).to_be_visible()
        # the code page shown: its code and its fit in one call
        code, fits = member.evaluate(f"[document.querySelector('#let-in-code').innerText, {FITS_WIDTH}]")
        assert re.fullmatch(r"[0-9A-Z]{5}-[0-9A-Z]{5}", code)
        assert fits  # no sideways scroll
        shot(member, "let-in-code")
        assert accessible(member) == []

        # the new phone types it below the passcode and is in
        newcomer.get_by_label("One-time code").fill(code)
        newcomer.get_by_role("button", name="Come in with the code").click()
        expect(newcomer.get_by_role("status")).to_contain_text(re.compile(r"You are in \W?Our games\W?\."))
        expect(newcomer.get_by_role("link", name="+ New game")).to_be_visible()
        shot(newcomer, "let-in-done")
        member.reload()
        expect(member.get_by_text("The code was used: that phone is in the group.")).to_be_visible()

        # another code, scanned: its QR code opens the code page filled in, one tap more
        member.get_by_role("button", name="Make a code").click()
        scanned = read_qr(member)
        assert scanned.startswith(base + "/code?c=")
        third = audited_page(browser, join=False, color_scheme="dark")
        third.goto(scanned)
        expect(third.get_by_label("One-time code")).to_have_value(member.locator("#let-in-code").inner_text())
        shot(third, "let-in-scanned")
        assert accessible(third) == []
        third.get_by_role("button", name="Come in with the code").click()
        expect(third.get_by_role("link", name="+ New game")).to_be_visible()
        for page in (member, newcomer, third):
            page.context.close()


def test_a_deal_kept_offline_while_the_passcode_changed_waits_for_it_then_is_sent_once(browser, tmp_path):
    """Tester 4 (stop 31): a deal kept on a phone without connection, the organiser set a
    new passcode meanwhile, the phone back online: the deal's card showed the whole
    passcode page run together as its refusal, and the deal was never sent by itself.
    Now it waits, saying in one line that the passcode is asked for; once the phone has
    given it, the deal is sent by itself, exactly once."""
    from scorekeeper import store
    from scorekeeper.db import connect
    from tests.browser_support import new_page, store_game
    from tests.conftest import game_file

    database = tmp_path / "changed.sqlite3"
    with serve(database) as base:
        game_id = store_game(database, game_file())
        page = new_page(browser)
        try:
            page.goto(f"{base}/games/{game_id}/deals/new")
            for seat, suit in enumerate(["spades", "hearts", "clubs"]):
                page.locator(".seat-card").nth(seat).get_by_role("img", name=suit).click()
            page.fill("#tricks_0", "5")
            page.fill("#tricks_1", "4")
            page.context.set_offline(True)
            page.get_by_role("button", name="Save deal 1").click()
            expect(page.locator("[data-preview-line]")).to_contain_text("No connection: deal 1 is kept on this phone")
            give_passcode(database)
            db = connect(str(database))
            page.context.set_offline(False)
            # asked for the passcode (the page goes there, or its waiting deal says so)
            expect(page.get_by_label("Passcode", exact=True)).to_be_visible(timeout=20_000)
            # the passcode page says the deal waits for it (tester 5: it did not)
            page.goto(f"{base}/passcode")
            expect(page.locator("[data-passcode-waiting]")).to_have_text(
                "1 deal kept on this phone waits to be sent: it is sent by itself once the passcode is given.")
            shot(page, "passcode-asked-while-a-deal-waits")
            assert len(store.get_game(db, game_id).deals) == 0
            enter_passcode(page, PASSCODE)
            # back where it was, and the deal sent by itself: 20 a clean trick (SCORING.md §1.2)
            page.goto(f"{base}/games/{game_id}")
            expect(page.locator("thead .total")).to_have_text(["100", "80", "80"], timeout=20_000)
            expect(page.locator("[data-outbox]")).to_be_hidden()
            page.wait_for_timeout(5_500)  # the outbox's next round finds nothing left to send
            assert len(store.get_game(db, game_id).deals) == 1
            db.conn.close()
        finally:
            page.context.close()


def test_a_game_page_opened_on_a_phone_asked_for_the_passcode_opens_after_it(browser, tmp_path):
    """Tester 5 (LOW): a phone of the group opens a game's page (a link sent in a chat)
    while the group's passcode is new to it: once the passcode is given, that game's page
    opens, not the home page. The page's service worker fetches its own pages in the
    background (the home page among them): those are no page the player opened."""

    database = tmp_path / "direct.sqlite3"
    with serve(database) as base:
        game_id = store_game(database, game_file(players=["Iris", "Jon", "Kai"]))
        give_passcode(database)
        page = new_page(browser, service_workers="allow")
        try:
            page.goto(f"{base}/games/{game_id}")
            expect(page.get_by_label("Passcode", exact=True)).to_be_visible()
            # the passcode page's script registers the service worker, which fetches the
            # pages it keeps for the road (the home page, the offline page) as it installs
            page.evaluate("Promise.race([navigator.serviceWorker.ready, new Promise((_, no) => "
                          "setTimeout(() => no(new Error('no service worker after 10 s')), 10000))])")
            enter_passcode(page, PASSCODE)
            expect(page).to_have_url(f"{base}/games/{game_id}")
            expect(page.locator("thead .player-col")).to_contain_text(["Iris", "Jon", "Kai"])
        finally:
            page.context.close()


def test_the_passcode_typed_where_a_save_was_refused_lets_the_phone_in_and_the_deal_is_saved(browser, tmp_path):
    """Tester 8 (HIGH): a phone fills in a deal; meanwhile the group is given a passcode;
    Save answers "nothing was saved. Enter the passcode, then go back and save again." The
    passcode typed there, on that page, let nobody in: the page stood at the form's
    address and sent the passcode there, refused again, and came back the same. Now
    "Open the group" lets the phone in and opens the form again with what was typed, and
    its Save stores the deal: SCORING.md §1.2's worked example, 80, 200, 13."""

    database = tmp_path / "refused.sqlite3"
    with serve(database) as base:
        game_id = store_game(database, game_file())
        page = new_page(browser)
        try:
            page.goto(f"{base}/games/{game_id}/deals/new")
            fill_worked_example(page)
            give_passcode(database)
            page.locator(".action-bar button[type=submit]").click()
            expect(page.get_by_role("alert")).to_contain_text(
                "so nothing was saved. Enter the passcode: the form opens again with what was typed, to save again.")
            shot(page, "passcode-after-refused-save")
            enter_passcode(page, PASSCODE)
            expect(page).to_have_url(f"{base}/games/{game_id}/deals/new")
            expect(page.locator("#tricks_1")).to_have_value("5")  # what was typed is kept
            page.locator(".action-bar button[type=submit]").click()
            expect(page.locator("#deal-1")).to_be_visible()
            expect(page.locator("tr#deal-1 .points")).to_contain_text(["80", "200", "13"])
        finally:
            page.context.close()


def test_a_phone_taken_off_its_form_by_a_first_passcode_is_told_its_entries_are_kept(browser, tmp_path):
    """Tester 58 (LOW): a phone filling in a deal when the group is first given a passcode
    is taken to the passcode page by the form's next check; the page said nothing of what
    was typed. It says it is kept (and the form brings it back); a phone with nothing
    typed reads no such line."""
    database = tmp_path / "first.sqlite3"
    with serve(database) as base:
        game_id = store_game(database, game_file())
        page = new_page(browser)
        kept = page.locator("[data-passcode-drafts]")
        try:
            page.goto(f"{base}/games/{game_id}/deals/new")
            page.fill("#tricks_0", "4")
            give_passcode(database)
            expect(page).to_have_url(f"{base}/passcode")  # the form's check, every two seconds
            expect(kept).to_have_text("Entries typed on this phone and not saved are kept: their form brings them "
                                      "back once the passcode is given.")
            enter_passcode(page, PASSCODE)
            expect(page).to_have_url(f"{base}/games/{game_id}/deals/new")
            expect(page.locator("#tricks_0")).to_have_value("4")
            other = new_page(browser)  # another phone of the group, nothing typed on it
            try:
                other.goto(f"{base}/games/{game_id}")
                expect(other).to_have_url(f"{base}/passcode")
                expect(other.get_by_text("This group has a passcode.")).to_be_visible()
                expect(other.locator("[data-passcode-drafts]")).to_be_hidden()
            finally:
                other.context.close()
        finally:
            page.context.close()


def test_a_check_sent_to_the_passcode_page_while_a_save_is_on_its_way_leaves_the_save_its_answer(browser, tmp_path):
    """An open deal form asks every two seconds whether another phone changed the game; once
    the group has a passcode, that check is sent on to the passcode page and the form's page
    is asked for again. When that answer crossed a Save (seen on a busy machine), the
    reload cut off the Save's own answer: the phone stood on the bare passcode page, never
    told that nothing was saved nor that the form opens again with what was typed. Here the
    check is held until the Save has gone, then answered before the Save is."""
    database = tmp_path / "crossed.sqlite3"
    with serve(database) as base:
        game_id = store_game(database, game_file())
        page = new_page(browser)
        checks, saves = [], []

        def hold_first_save(route):
            if route.request.method == "POST" and not saves:
                saves.append(route)
            else:
                route.continue_()

        try:
            page.goto(f"{base}/games/{game_id}/deals/new")
            fill_worked_example(page)
            give_passcode(database)
            page.route("**/live?*", lambda route: checks.append(route))
            page.route(re.compile(r".*/deals/new$"), hold_first_save)
            for _ in range(100):  # the form's next check, held
                if checks:
                    break
                page.wait_for_timeout(100)
            page.locator(".action-bar button[type=submit]").click()
            for _ in range(100):  # the Save, held
                if saves:
                    break
                page.wait_for_timeout(100)
            assert checks and saves
            with page.expect_request_finished(lambda request: request.url.endswith("/passcode")):
                checks[0].continue_()  # the check's answer: sent on to the passcode page
            page.wait_for_timeout(300)  # what the form does with it (it used to reload at once)
            # then the Save's answer (a Save cut off by a reload has none: the assertion says so)
            with contextlib.suppress(sync_api.Error):
                saves[0].continue_()
            expect(page.get_by_role("alert")).to_contain_text(
                "so nothing was saved. Enter the passcode: the form opens again with what was typed, to save again.")
            enter_passcode(page, PASSCODE)
            expect(page.locator("#tricks_1")).to_have_value("5")  # what was typed is kept
        finally:
            page.context.close()
