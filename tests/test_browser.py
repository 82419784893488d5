"""Headless Chromium at phone size, driven by Playwright: what a player taps and sees.

Uses the system's Chromium (never a downloaded browser): CHROMIUM or /usr/bin/chromium.
Screenshots go to screenshots/ (ignored by git) — open them and look.
"""

from __future__ import annotations

import pytest

from tests.browser_support import new_page, no_sideways_scroll, serve, shot, sync_api

pytestmark = pytest.mark.browser

_page = new_page


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("browser") / "browser.sqlite3") as url:
        yield url


def new_game(page, server, kind, names, first):
    page.goto(f"{server}/games/new")
    page.get_by_role("link", name={"trigami": "Trigami", "trix": "Trix"}[kind], exact=False).first.click()
    for seat, name in enumerate(names):
        page.fill(f"#player_{seat}", name)
    page.locator(".first-dealer label", has_text=first).click()
    return page


def first_deal(page, server, names, suits):
    """A new Trigami game for ``names`` (the first deals), its deal form opened and each
    player's bid tapped (plain bids in ``suits``: "spades", "hearts", …)."""
    new_game(page, server, "trigami", names, names[0])
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("link", name="Add deal 1").click()
    for seat, suit in enumerate(suits):
        page.locator(".seat-card").nth(seat).get_by_role("img", name=suit).click()


def test_trigami_worked_example_on_a_phone(page, server):
    """SCORING.md §1.2: turnip ♦; Anna Turnip 4 tricks 1 bug; Ben Doublets ♠ 5 tricks no bug;
    Carla ♥ 4 tricks 3 bugs → 80, 200, 13."""
    new_game(page, server, "trigami", ["Anna", "Ben", "Carla"], "Anna")
    shot(page, "trigami-1-new-game")
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("link", name="Add deal 1").click()

    cards = page.locator(".seat-card")
    cards.nth(0).get_by_text("Turnip", exact=True).click()
    cards.nth(1).get_by_role("img", name="spades").click()
    cards.nth(1).get_by_text("Doublets").click()
    cards.nth(2).get_by_role("img", name="hearts").click()
    page.fill("#tricks_0", "4")
    page.fill("#tricks_1", "5")
    assert page.input_value("#tricks_2") == "4"  # 13 − 4 − 5 fills itself in
    page.fill("#bugs_0", "1")
    page.fill("#bugs_2", "3")
    page.locator(".suit-chips").get_by_role("img", name="diamonds").click()
    # the points show before saving
    sync_api.expect(page.locator('[data-seat-preview="0"]')).to_have_text("+80")
    sync_api.expect(page.locator('[data-seat-preview="1"]')).to_have_text("+200")
    sync_api.expect(page.locator('[data-seat-preview="2"]')).to_have_text("+13")
    shot(page, "trigami-2-deal-form")
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="Save deal 1").click()

    totals = page.locator("thead .total")
    sync_api.expect(totals).to_have_text(["80", "200", "13"])
    sync_api.expect(page.locator(".flash")).to_contain_text("Anna +80, Ben +200, Carla +13")
    sync_api.expect(page.locator(".next-line")).to_contain_text("Ben deals next")
    shot(page, "trigami-3-sheet")


def test_trix_king_of_hearts_doubled_on_a_phone(page, server):
    """SCORING.md §2.2: the K♥ doubled by its holder Ben and taken by Carla: Carla −150, Ben +75."""
    new_game(page, server, "trix", ["Anna", "Ben", "Carla", "Dan"], "Ben")
    page.get_by_role("button", name="Start game").click()
    sync_api.expect(page.locator(".next-line")).to_contain_text("Ben holds the 7♥")
    page.locator(".add-contracts").get_by_role("link", name="King of Hearts").click()  # the contract, chosen
    sync_api.expect(page.get_by_role("radio", name="King of Hearts")).to_be_checked()
    king = page.locator(".block-king")
    sync_api.expect(king).to_be_visible()
    sync_api.expect(page.locator(".block-queens")).to_be_hidden()  # only the chosen contract
    king.locator("fieldset").first.get_by_text("Carla", exact=True).click()
    king.locator("fieldset", has_text="Who doubled").get_by_text("Ben", exact=True).click()
    sync_api.expect(page.locator("[data-preview-line]")).to_contain_text("Ben +75 · Carla −150")
    shot(page, "trix-1-king-doubled")
    page.get_by_role("button", name="Save deal 1").click()
    sync_api.expect(page.locator("thead .total")).to_have_text(["0", "75", "−150", "0"])
    sync_api.expect(page.locator(".kingdom-row")).to_contain_text("Kingdom 1 — Ben")
    shot(page, "trix-2-sheet")


def test_a_deal_can_be_entered_without_javascript(browser, server):
    """Everything works without JavaScript: chips are real radio buttons, the server fills in
    the last count and checks the deal."""
    page = _page(browser, javascript=False)
    new_game(page, server, "trigami", ["Ida", "Jon", "Kai"], "Player 1")  # no script to rename the chips
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("link", name="Add deal 1").click()
    for seat, suit in enumerate(["spades", "hearts", "clubs"]):
        page.locator(".seat-card").nth(seat).get_by_role("img", name=suit).click()
    page.fill("#tricks_0", "5")
    page.fill("#tricks_1", "4")
    page.get_by_role("button", name="Save deal 1").click()
    # 5 clean tricks = 100, 4 clean = 80, Kai's 4 (filled in by the server) clean = 80
    sync_api.expect(page.locator("thead .total")).to_have_text(["100", "80", "80"])
    page.context.close()


def test_bad_count_is_shown_beside_the_field_and_kept(page, server):
    first_deal(page, server, ["Lea", "Max", "Nia"], ["spades", "hearts", "clubs"])
    page.fill("#tricks_0", "0")
    page.fill("#bugs_0", "2")
    page.fill("#tricks_1", "6")
    page.get_by_role("button", name="Save deal 1").click()
    errors = page.locator("#bugs_0-errors")
    sync_api.expect(errors).to_contain_text("Lea")
    assert page.input_value("#bugs_0") == "2" and page.input_value("#tricks_1") == "6"
    # the summary of what to put right has the focus, and each of its links leads to a field
    sync_api.expect(page.locator("#problems")).to_be_focused()
    for href in page.locator("#problems a").evaluate_all("links => links.map(a => a.getAttribute('href'))"):
        assert page.locator(href).count() == 1, href
    shot(page, "trigami-4-error")


def test_four_long_names_fit_a_small_phone(browser, server):
    page = _page(browser, width=360, height=740)
    names = ["Anna-Maria Katariina", "Bartholomew", "Christophoros", "Dorothea Wilhelmina"]
    new_game(page, server, "trix", names, "Bartholomew")
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="Start game").click()
    page.locator(".add-contracts").get_by_role("link", name="Tricks", exact=True).click()
    assert no_sideways_scroll(page)
    for seat, count in enumerate(["3", "4", "2"]):  # typed: the number fields stay for keyboards
        page.fill(f"#tricks_{seat}", count)
    sync_api.expect(page.locator("#tricks_3")).to_have_value("4")
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="Save deal 1").click()
    sync_api.expect(page.locator("thead .total")).to_have_text(["−45", "−60", "−30", "−60"])
    assert no_sideways_scroll(page)
    shot(page, "trix-3-long-names-360")
    page.context.close()


def test_a_filled_in_count_can_be_corrected(page, server):
    """The last player's tricks fill themselves in (13 minus the others); a player who
    corrects that count with Backspace gets what they type, not a refill."""
    first_deal(page, server, ["Ola", "Per", "Quin"], [])
    page.fill("#tricks_0", "4")
    page.fill("#tricks_2", "4")
    sync_api.expect(page.locator("#tricks_1")).to_have_value("5")
    page.locator("#tricks_1").click()
    page.keyboard.press("End")
    page.keyboard.press("Backspace")
    sync_api.expect(page.locator("#tricks_1")).to_have_value("")
    page.keyboard.type("4")
    sync_api.expect(page.locator("#tricks_1")).to_have_value("4")
    sync_api.expect(page.locator("[data-sum-line]")).to_contain_text("12 of 13")


@pytest.fixture
def page_without_service_worker(browser):
    page = new_page(browser)  # no service worker, as on plain http on the Wi-Fi
    yield page
    page.context.close()


def test_a_save_without_connection_keeps_the_deal_and_saves_it_once_later(page_without_service_worker, server):
    """No connection at the table, and no service worker (plain http on the Wi-Fi): Save
    keeps the deal on the phone and says so; back online, the page sends it by itself,
    exactly once, and shows the sheet."""
    page = page_without_service_worker
    first_deal(page, server, ["Rae", "Sam", "Tom"], ["spades", "hearts", "clubs"])
    page.fill("#tricks_0", "5")
    page.fill("#tricks_1", "4")
    form_url = page.url
    page.context.set_offline(True)
    page.get_by_role("button", name="Save deal 1").click()
    sync_api.expect(page.locator("[data-preview-line]")).to_contain_text(
        "No connection: deal 1 is kept on this phone and will be sent by itself when the connection is back.")
    assert page.url == form_url
    sync_api.expect(page.get_by_role("button", name="Save deal 1")).to_be_disabled()  # no second copy
    page.context.set_offline(False)
    # 20 a clean trick (SCORING.md §1.2): 5, 4, 4 tricks → 100, 80, 80
    sync_api.expect(page.locator("thead .total")).to_have_text(["100", "80", "80"], timeout=15_000)
    sync_api.expect(page.get_by_role("link", name="Add deal 2")).to_be_visible()
    page.wait_for_timeout(5_500)  # the outbox's next try finds nothing left to send
    sync_api.expect(page.locator("thead .total")).to_have_text(["100", "80", "80"])
    page.get_by_role("link", name="Add deal 2").click()
    assert page.input_value("#tricks_0") == ""  # the saved deal's draft is gone


def test_who_led_is_asked_only_when_the_doubler_took_the_card_back(page, server):
    """SCORING.md §2.2: the trick's leader matters only when the doubler wins the card back."""
    new_game(page, server, "trix", ["Uma", "Vic", "Wes", "Xia"], "Vic")
    page.get_by_role("button", name="Start game").click()
    page.locator(".add-contracts").get_by_role("link", name="King of Hearts").click()
    king = page.locator(".block-king")
    king.locator("fieldset").first.get_by_text("Vic", exact=True).click()
    leader = king.locator("fieldset", has_text="who led to that trick")
    sync_api.expect(leader).to_be_hidden()
    king.locator("fieldset", has_text="Who doubled").get_by_text("Vic", exact=True).click()
    sync_api.expect(leader).to_be_visible()
    leader.get_by_text("Xia", exact=True).click()
    page.get_by_role("button", name="Save deal 1").click()
    # Vic doubled and took it back, Xia led to that trick: Vic −150, Xia +75
    sync_api.expect(page.locator("thead .total")).to_have_text(["0", "−150", "0", "75"])
