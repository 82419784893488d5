"""Digits in headless Chromium at 390×844, as an Arabic phone at the table sees them: while
counts are typed on an Arabic keypad, the running sum under the counts ("١٣ من ١٣") and
each player's previewed points ("+٨٠") are written in Arabic-Indic digits by static/app.js,
like the server's; the days are in Arabic words and digits; and after the digits switch
(Western digits) the same page writes 0–9, still in Arabic. Screenshots:
screenshots/digits-*.png — open them and look.
"""

from __future__ import annotations

import re

import pytest

from tests.browser_support import FITS_WIDTH, new_page, serve, shot, store_game, sync_api
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_gamefile import TRIX_KINGDOM

pytestmark = pytest.mark.browser

expect = sync_api.expect
WESTERN = re.compile(r"[0-9]")
ARABIC_INDIC = re.compile(r"[٠-٩]")
#: An Arabic month's name as CLDR writes it (Babel, Intl): the days are in Arabic words
ARABIC_MONTH = re.compile("يناير|فبراير|مارس|أبريل|مايو|يونيو|يوليو|أغسطس|سبتمبر|أكتوبر|نوفمبر|ديسمبر")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    path = tmp_path_factory.mktemp("digits-browser") / "digits.sqlite3"
    with serve(path) as url:
        trigami = store_game(path, game_file(deals=[WORKED_TRIGAMI_DEAL] * 2))
        trix = store_game(path, game_file("trix", deals=TRIX_KINGDOM[:2]))
        yield {"url": url, "trigami": trigami, "trix": trix}


def arabic_phone(browser, site):
    page = new_page(browser)
    page.context.add_cookies([{"name": "lang", "value": "ar", "url": site["url"]}])
    return page


def tap_chip(page, name: str, value: str) -> None:
    page.locator(f'label[for="{page.locator(f"input[name={name!r}][value={value!r}]").get_attribute("id")}"]').click()


def test_typing_on_an_arabic_keypad_shows_the_sum_and_the_points_in_arabic_indic_digits(site, browser):
    page = arabic_phone(browser, site)
    try:
        page.goto(f"{site['url']}/games/{site['trigami']}/deals/new")
        expect(page.locator("html")).to_have_attribute("data-digits", "arab")
        # the chips show ٠ … ١٣; what they send stays 0 … 13
        chip = page.locator('input[name="tricks_0_chip"][value="13"]')
        expect(page.locator(f'label[for="{chip.get_attribute("id")}"]')).to_have_text("١٣")
        # SCORING.md §1.2's worked example: Anna Turnip (♦), 4 tricks, 1 bug; Ben Doublets ♠,
        # 5 tricks; Carla ♥, the last 4 tricks filled in, 3 bugs → +80, +200, +13
        tap_chip(page, "turnip", "D")
        tap_chip(page, "bids_0", "turnip")
        tap_chip(page, "bids_1", "S")
        page.locator('label[for="doublets_1"]').click()
        tap_chip(page, "bids_2", "H")
        page.locator("#tricks_0").click()
        page.keyboard.type("٤")
        sum_line = page.locator("[data-sum-line]")
        expect(sum_line).to_have_text("٤ من ١٣")
        page.locator("#tricks_1").click()
        page.keyboard.type("٥")
        expect(page.locator("#tricks_2")).to_have_value("٤")  # filled in in the page's digits, as typed beside it
        expect(sum_line).to_have_text("١٣ من ١٣")
        page.locator("#bugs_0").click()
        page.keyboard.type("١")
        page.locator("#bugs_2").click()
        page.keyboard.type("٣")
        # the preview: each player's points as the server writes them, sign before number
        expect(page.locator("[data-seat-preview]")).to_have_text(["\u061c+٨٠", "\u061c+٢٠٠", "\u061c+١٣"])
        # the preview shown: its line and the page's fit in one call
        line, fits = page.evaluate(f"[document.querySelector('[data-preview-line]').innerText, {FITS_WIDTH}]")
        assert ARABIC_INDIC.search(line) and not WESTERN.search(line)
        assert fits  # no sideways scroll
        shot(page, "digits-trigami-deal-ar")
    finally:
        page.context.close()


def test_a_trix_count_sums_in_arabic_indic_digits_and_in_western_ones_once_chosen(site, browser):
    page = arabic_phone(browser, site)
    try:
        form = f"{site['url']}/games/{site['trix']}/deals/new?contract=diamonds"
        page.goto(form)
        block = page.locator('[data-block="diamonds"]')
        for seat, typed in enumerate("٣٤٢"):
            block.locator(f"#diamonds_{seat}").click()
            page.keyboard.type(typed)
        expect(block.locator("[data-sum-of]")).to_have_text("١٣ من ١٣")  # the last 4 filled in
        # the preview line: Anna's 3 diamonds × −10 (SCORING.md §2.1), sign before number
        expect(page.locator("[data-preview-line]")).to_contain_text("\u2068Anna\u2069 \u061c\u2212٣٠")
        shot(page, "digits-trix-deal-ar")

        # the digits switch at the foot of the page: Western digits, same page, still Arabic
        switch = page.get_by_role("navigation", name="الأرقام")
        switch.get_by_role("link", name="الأرقام الغربية (0–9)").click()
        page.wait_for_url(form)
        expect(page.locator("html")).to_have_attribute("data-digits", "latn")
        expect(page.locator("html")).to_have_attribute("lang", "ar")
        for seat, typed in enumerate("٣٤٢"):
            block.locator(f"#diamonds_{seat}").fill("")
            block.locator(f"#diamonds_{seat}").click()
            page.keyboard.type(typed)
        expect(block.locator("[data-sum-of]")).to_have_text("13 من 13")
        expect(page.locator("[data-preview-line]")).to_contain_text("\u2068Anna\u2069 \u2066\u200e\u221230\u2069")
        expect(switch.locator("a[aria-current]")).to_have_text("الأرقام الغربية (0–9)")
        shot(page, "digits-trix-deal-ar-western")
    finally:
        page.context.close()


def test_counts_typed_on_an_english_page_come_back_in_arabic_indic_digits_on_the_arabic_one(site, browser):
    """Tester 61 (LOW): counts typed on the English form, the language then switched to
    Arabic: the entries brought back showed a Western "4" among Arabic-Indic chips. They
    come back in the page's digits, the same counts (the sum line reads them)."""
    page = new_page(browser)
    try:
        form = f"{site['url']}/games/{site['trigami']}/deals/new"
        page.goto(form)
        page.locator("#tricks_0").fill("4")
        page.locator("#tricks_1").fill("5")
        page.wait_for_function("Object.keys(localStorage).some((k) => k.startsWith('scorekeeper-draft:') "
                               "&& localStorage.getItem(k).includes('tricks_1'))")
        page.context.add_cookies([{"name": "lang", "value": "ar", "url": site["url"]}])
        page.goto(form)
        expect(page.locator("html")).to_have_attribute("lang", "ar")
        expect(page.locator(".draft-back")).to_be_visible()
        expect(page.locator("#tricks_0")).to_have_value("٤")
        expect(page.locator("#tricks_1")).to_have_value("٥")
        expect(page.locator("[data-sum-line]")).to_have_text("١٣ من ١٣")  # the last 4 filled in
        expect(page.locator("#tricks_2")).to_have_value("٤")
    finally:
        page.context.close()


def test_days_and_the_sheet_in_the_pages_language_and_digits(site, browser):
    page = arabic_phone(browser, site)
    try:
        page.goto(f"{site['url']}/")
        day = page.locator("time[data-local-time]").first
        expect(day).not_to_contain_text("UTC")  # app.js wrote the phone's local day
        text = day.inner_text()
        assert ARABIC_MONTH.search(text) and ARABIC_INDIC.search(text) and not WESTERN.search(text), text
        shot(page, "digits-home-ar")

        page.goto(f"{site['url']}/games/{site['trix']}")
        expect(page.locator("tr#deal-1 .points").nth(1)).to_have_text("\u061c+٧٥")
        expect(page.locator("tr#deal-1 .points").nth(2)).to_have_text("\u061c\u2212١٥٠")
        numbered, fits = page.evaluate(f"[document.querySelector('tr#deal-1 th.deal-col a').innerText, {FITS_WIDTH}]")
        assert "١" in numbered and not WESTERN.search(numbered)
        assert fits  # no sideways scroll
        shot(page, "digits-sheet-ar")

        page.goto(f"{site['url']}/digits/latn?next=/")
        text = page.locator("time[data-local-time]").first.inner_text()
        assert ARABIC_MONTH.search(text) and WESTERN.search(text) and not ARABIC_INDIC.search(text), text
        page.goto(f"{site['url']}/games/{site['trix']}")
        expect(page.locator("tr#deal-1 .points").nth(1)).to_have_text("\u2066\u200e+75\u2069")
        shot(page, "digits-sheet-ar-western")
    finally:
        page.context.close()
