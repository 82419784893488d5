"""Digits (issue 10): every number a player reads is written in the page's language and its
usual digits, Arabic-Indic (٠–٩) on an Arabic page, with CLDR's signs and their
direction marks; a phone may ask for Western digits 0–9 instead (the digits switch at the
foot of an Arabic page), and keeps the choice like its language. English, German and
Finnish read as before ("+75", "−150"); the game file, the CSV and the command line keep
0–9: what is stored never changes with the digits.

Expected strings are written out by hand from CLDR's data for these languages (Unicode
CLDR 47, the numbers and dates of en, de, fi, ar): ALM (U+061C) before a sign of
Arabic-Indic digits, LRM (U+200E) before a sign of Western digits in Arabic.
"""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper import i18n, locale_numbers, store
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.race_support import form_fields
from tests.test_every_language import (  # noqa: F401 - group_fixture is the "group" fixture
    VERBATIM,
    crawled,
    group_fixture,
    seen,
)
from tests.test_gamefile import TRIX_KINGDOM

ALM, LRM, FSI, LRI, PDI, MINUS = "\u061c", "\u200e", "\u2068", "\u2066", "\u2069", "\u2212"
WESTERN = re.compile(r"[0-9]")
ARABIC_INDIC = re.compile(r"[٠-٩]")

#: What may keep 0–9 on an Arabic page in Arabic-Indic digits, each for its reason: a
#: card's index as printed on the cards ("7♥"), a command to type and an address to copy
#: (as the computer needs them), the paper size "A4" (a name), a rule's section as the
#: quoted text numbers it ("§2.1", rules/sources.py), the digits switch's own link to
#: Western digits ("0–9"), and the group's and players' names (what was typed).
CARD = re.compile(r"[0-9]+(?=(?:<[^>]+>)*[♠♥♦♣])")  # its suit may be an element of its own
PAPER = re.compile(r"\bA4\b|§[0-9.]+")
SWITCH = re.compile(r'<nav class="digits".*?</nav>', re.S)


def shown_text(html: str, data: tuple[str, ...]) -> str:
    """What a reader sees of ``html`` (test_every_language.seen: text, labels, titles,
    placeholders, less script and what is marked as another language), less names and
    the stated exceptions."""
    text = " ".join(seen(CARD.sub("", SWITCH.sub("", html))).parts)
    for string in (*data, *VERBATIM):
        text = text.replace(string, " ")
    text = " ".join(token for token in text.split() if "/" not in token and "=" not in token)
    return PAPER.sub(" ", text)


def arabic(client, digits: str | None = None) -> None:
    """This phone reads Arabic, in its usual digits or (``digits`` "latn") in 0–9."""
    client.set_cookie(i18n.COOKIE, "ar")
    if digits:
        client.set_cookie(locale_numbers.COOKIE, digits)
    else:
        client.delete_cookie(locale_numbers.COOKIE)


def body(response) -> str:
    return response.get_data(as_text=True)


def flashed(page: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", m) for m in re.findall(r'<p class="flash[^"]*">(.*?)</p>', page, re.S)]


# ----------------------------------------------------------------- how numbers are written


@pytest.mark.parametrize(("language", "digits", "points", "total", "average"), [
    ("en", None, ["+75", f"{MINUS}150", "0"], [f"{MINUS}15", "1250"], f"{MINUS}12.5"),
    ("de", None, ["+75", f"{MINUS}150", "0"], [f"{MINUS}15", "1250"], f"{MINUS}12,5"),
    ("fi", None, ["+75", f"{MINUS}150", "0"], [f"{MINUS}15", "1250"], f"{MINUS}12,5"),
    ("ar", None, [f"{ALM}+٧٥", f"{ALM}{MINUS}١٥٠", "٠"], [f"{ALM}{MINUS}١٥", "١٢٥٠"], f"{ALM}{MINUS}١٢٫٥"),
    # Western digits in Arabic: a signed number is also a left-to-right isolate
    ("ar", "latn", [f"{LRI}{LRM}+75{PDI}", f"{LRI}{LRM}{MINUS}150{PDI}", "0"], [f"{LRI}{LRM}{MINUS}15{PDI}", "1250"],
     f"{LRI}{LRM}{MINUS}12.5{PDI}"),
])
def test_points_totals_and_averages_in_each_language(app, language, digits, points, total, average):
    cookie = f"lang={language}" + (f"; digits={digits}" if digits else "")
    with app.test_request_context("/", headers={"Cookie": cookie}):
        assert [locale_numbers.signed(p) for p in (75, -150, 0)] == points
        # a score sheet groups no digits: 1250, not 1,250 or 1.250
        assert [locale_numbers.number(t) for t in (-15, 1250)] == total
        assert locale_numbers.decimal(-12.5) == average
        assert locale_numbers.decimal(-0.04) in ("0.0", "0,0", "٠٫٠")  # never "−0.0"


def test_an_average_half_way_is_rounded_away_from_zero_like_any_other(app):
    """Tester 27: on a player's page −86.25 showed as −86.2 and 1.25 as 1.2, but −43.75 as
    −43.8 (Babel rounds half to even): a half is rounded away from zero, every time, as a
    player rounds by hand; the rest to the nearest, and 0.15 (not quite 0.15 as a float)
    as written."""
    with app.test_request_context("/", headers={"Cookie": "lang=en"}):
        shown = [locale_numbers.decimal(v) for v in (-86.25, 1.25, -43.75, 0.15, 2.5, 75.27272727)]
        assert shown == [f"{MINUS}86.3", "1.3", f"{MINUS}43.8", "0.2", "2.5", "75.3"]
        assert locale_numbers.decimal(0.125, places=2) == "0.13"  # a rating's two places


@pytest.mark.parametrize(("language", "digits", "day"), [
    ("en", None, "Mar 1, 2025"), ("de", None, "1. März 2025"), ("fi", None, "1.3.2025"),
    ("ar", None, "١ مارس ٢٠٢٥"), ("ar", "latn", "1 مارس 2025"),
])
def test_a_day_in_each_language_and_its_digits(app, language, digits, day):
    cookie = f"lang={language}" + (f"; digits={digits}" if digits else "")
    with app.test_request_context("/", headers={"Cookie": cookie}):
        assert locale_numbers.day("2025-03-01T20:00:00+00:00") == day


def test_the_command_line_and_the_rules_outside_a_page_keep_0_to_9(app):
    # the app is made (its hooks are in the rules), but no page is being drawn: a scored
    # game reads as `scorekeeper score` has always printed it
    from scorekeeper.rules import get_rules

    rules = get_rules("trix")
    players = ["Anna", "Ben", "Carla", "Dan"]
    score = rules.score(players, 0, rules.parse_options({}),
                        [rules.parse_deal(d, n, players) for n, d in enumerate(TRIX_KINGDOM[:1], 1)])
    steps = " ".join(" ".join(line.steps) for line in score.deals[0].lines)
    assert f"{MINUS}150" in steps and "+75" in steps and not ARABIC_INDIC.search(steps)
    assert json.dumps(score.to_json()["deals"][0]["points"]) == "[0, 75, -150, 0]"


@pytest.mark.parametrize("digits", [None, "latn"], ids=["Arabic-Indic chosen", "Western chosen"])
def test_the_spreadsheet_keeps_0_to_9_in_arabic_its_steps_too(client, db, digits):
    """The CSV is data, 0–9 in every language (docs/translating.md, "What stays 0–9"):
    its Trix steps ("how it was worked out") wrote Arabic-Indic digits and direction marks
    in Arabic. SCORING.md §2.2: the K♥ Ben doubled, taken by Carla: Carla −150, Ben +75."""
    game_id = store.create_game(db, from_dict(game_file("trix", deals=TRIX_KINGDOM[:1])))
    arabic(client, digits)
    cells = [cell for row in client.get(f"/games/{game_id}/sheet.csv").get_data(as_text=True).splitlines()
             for cell in row.split(",")]
    assert not ARABIC_INDIC.search(" ".join(cells))
    assert not any(mark in cell for cell in cells for mark in "\u061c\u200e\u200f\u2066\u2067\u2068\u2069")
    assert any(cell.endswith(f": {MINUS}150") for cell in cells)  # Carla's step, as `scorekeeper score` writes it
    assert any(cell.endswith(": +75") for cell in cells)


# ----------------------------------------------------------------- every page, in Arabic


def extra_pages(client, db) -> dict[str, str]:
    """Pages no link leads to, with numbers of their own: a deal saved (its flash), a
    refused deal (its messages), a paper sheet checked, what-if with another target."""
    trigami = store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"])))
    pages = {}
    saved = client.post(f"/games/{trigami}/deals/new", data=WORKED_FORM, follow_redirects=True)
    pages["saved"] = body(saved)
    refused = client.post(f"/games/{trigami}/deals/new", data={**WORKED_FORM, "nonce": "r", "tricks_1": "9"})
    assert refused.status_code == 400
    pages["refused"] = body(refused)
    pages["history"] = body(client.get(f"/games/{trigami}/history"))
    pages["what-if"] = body(client.get(f"/games/{trigami}/what-if", query_string={"target": "300"}))
    pages["paper"] = body(client.get("/check", query_string={
        "kind": "trix", "sent": "1", "rows": "5", "n0": "Anna", "n1": "Ben", "n2": "Carla", "n3": "Dan",
        "c1": "king", "p1_0": "0", "p1_1": "75", "p1_2": "-150", "p1_3": "0",
        "c2": "queens", "p2_0": "-25", "p2_1": "25", "p2_2": "-20", "p2_3": "-75"}))
    return pages


def arabic_pages(client, db) -> dict[str, str]:
    """Every page an Arabic phone reaches by links from the home page (crawled in Arabic:
    the links are the same in every language), and the :func:`extra_pages`, drawn in the
    phone's digits: {address or name: HTML}."""
    linked = crawled(client)
    assert len(linked) > 60  # the whole site: sheets, explanations, forms, players, history …
    return {url: body(response) for url, response in linked.items()} | extra_pages(client, db)


#: SCORING.md §1.2's worked example as the Trigami form sends it: Anna +80, Ben +200, Carla +13
WORKED_FORM = {"nonce": "w", "turnip": "D", "bids_0": "turnip", "bids_1": "S", "doublets_1": "y", "bids_2": "H",
               "tricks_0": "4", "tricks_1": "5", "tricks_2": "4", "bugs_0": "1", "bugs_1": "0", "bugs_2": "3"}


@pytest.mark.slow  # every page of the site, in every language (make test-fast leaves it out)
def test_every_page_in_arabic_writes_its_numbers_in_arabic_indic_digits_and_lists_with_the_arabic_comma(
        client, db, group):
    """Every page drawn in Arabic (one crawl for both checks): no Western digit, and the
    Arabic "،" and "؛", never a Latin comma or semicolon, which in an Arabic line (players
    listed, a trix finishing order, a saved deal's points) reads as a typo. Names, typed
    text and what stays as the computer writes it (a command, a file's own keys) aside."""
    arabic(client)
    drawn = arabic_pages(client, db)
    left = {url: WESTERN.findall(shown_text(page, group["data"])) for url, page in drawn.items()}
    assert {url: found for url, found in left.items() if found} == {}
    # and they are there: a sheet's points, a checked paper sheet's marks
    assert all(ARABIC_INDIC.search(shown_text(drawn[url], ())) for url in ("saved", "paper", "history"))
    latin = {url: re.findall(r".{0,20}[,;].{0,20}", shown_text(page, group["data"])) for url, page in drawn.items()}
    assert {url: found for url, found in latin.items() if found} == {}


@pytest.mark.slow  # every page of the site, in every language (make test-fast leaves it out)
def test_every_page_with_western_digits_chosen_has_no_arabic_indic_digit(client, db, group):
    arabic(client, "latn")
    drawn = arabic_pages(client, db)
    left = {url: ARABIC_INDIC.findall(shown_text(page, group["data"])) for url, page in drawn.items()}
    assert {url: found for url, found in left.items() if found} == {}
    assert all(seen(page).lang == "ar" for page in drawn.values())  # still Arabic words


def test_the_saved_message_in_arabic_has_each_sign_before_its_number(client, db):
    game_id = store.create_game(db, from_dict(game_file("trix", players=["سارة", "محمد", "Anna", "Bob"],
                                                        first_dealer=1)))
    arabic(client)
    # King of Hearts (SCORING.md §2.1): Anna takes it, doubled by محمد: Anna −150, محمد +75
    page = body(client.post(f"/games/{game_id}/deals/new", data={
        "nonce": "k", "contracts": "king", "king_taker": "2", "king_doubled_by": "1"}, follow_redirects=True))
    [message] = flashed(page)
    # in logical order: each name isolated, then ALM and the sign, then the number's digits
    # and the players listed with the Arabic comma ("،"), not a Latin one
    assert message == (f"حُفظت التوزيعة ١: {FSI}سارة{PDI} ٠، {FSI}محمد{PDI} {ALM}+٧٥، "
                       f"{FSI}Anna{PDI} {ALM}{MINUS}١٥٠، {FSI}Bob{PDI} ٠.")


@pytest.mark.parametrize(("language", "saved"), [
    ("en", "Deal 1 saved: \u2068Sara\u2069 0, \u2068Moh\u2069 +75, \u2068Anna\u2069 −150, \u2068Bob\u2069 0."),
    ("de", "+75"), ("fi", "+75"),
])
def test_english_german_and_finnish_pages_read_as_before(client, db, language, saved):
    game_id = store.create_game(db, from_dict(game_file("trix", players=["Sara", "Moh", "Anna", "Bob"],
                                                        first_dealer=1)))
    client.set_cookie(i18n.COOKIE, language)
    page = body(client.post(f"/games/{game_id}/deals/new", data={
        "nonce": "k", "contracts": "king", "king_taker": "2", "king_doubled_by": "1"}, follow_redirects=True))
    [message] = flashed(page)
    assert saved in message and f"{MINUS}150" in message and not ARABIC_INDIC.search(page)
    # the sheet: the points and the running totals as the paper sheet writes them
    assert '<span class="points">+75</span>' in page and f'<span class="points">{MINUS}150</span>' in page
    assert f'<span class="total">{MINUS}150</span>' in page
    assert 'data-digits="latn"' in page and "/digits/" not in page  # no digits switch


# ----------------------------------------------------------------- the digits switch


def test_the_switch_is_offered_on_arabic_pages_only_in_arabic_words(client, db, group):
    client.set_cookie(i18n.COOKIE, "en")
    assert "/digits/" not in body(client.get("/"))
    arabic(client)
    page = body(client.get("/players"))
    switch = SWITCH.search(page).group(0)
    links = re.findall(r'<a href="([^"]+)"( aria-current="true")?>([^<]+)</a>', switch)
    assert [(href.replace("&amp;", "&"), bool(current), name) for href, current, name in links] == [
        ("/digits/usual?next=/players", True, "الأرقام المشرقية (٠–٩)"),
        ("/digits/latn?next=/players", False, "الأرقام الغربية (0–9)")]
    assert 'aria-label="الأرقام"' in switch


def test_western_digits_are_kept_on_the_phone_across_pages_and_back_again(client, db, group):
    game_id = db.execute("select id from games where kind = 'trix'").fetchone()[0]
    arabic(client)
    sheet = f"/games/{game_id}"
    assert ARABIC_INDIC.search(shown_text(body(client.get(sheet)), group["data"]))
    answer = client.get("/digits/latn", query_string={"next": sheet})
    assert answer.status_code == 303 and answer.location == sheet  # back to the same page
    cookie = client.get_cookie(locale_numbers.COOKIE)
    assert cookie.value == "latn" and cookie.http_only and cookie.same_site == "Lax"
    for url in (sheet, "/", "/players", f"{sheet}/history", f"{sheet}/explain/kingdom/1"):
        page = body(client.get(url))
        assert 'data-digits="latn"' in page and seen(page).lang == "ar", url
        assert not ARABIC_INDIC.search(shown_text(page, group["data"])), url
        assert WESTERN.search(shown_text(page, group["data"])), url
    back = client.get("/digits/usual", query_string={"next": "/players"})
    assert back.status_code == 303 and back.location == "/players" and client.get_cookie(locale_numbers.COOKIE) is None
    assert 'data-digits="arab"' in body(client.get("/players"))


def test_the_switch_refuses_other_digits_and_other_sites(client):
    assert client.get("/digits/arabext").status_code == 404
    assert client.get("/digits/latn", query_string={"next": "//example.com/"}).location == "/"


def test_a_switch_to_no_language_or_digits_says_there_is_no_such_page(client):
    """Testers 22 and 25: /language/xx answered "There is no such game, deal or player
    here", as if a game were gone. A language or digits the switch does not offer, and an
    address of no page at all, say there is no such page (404), in the phone's language;
    nothing is kept on the phone."""
    for address in ("/language/xx?next=/players", "/digits/arabext", "/no-such-page"):
        answer = client.get(address)
        page = body(answer)
        assert answer.status_code == 404, address
        assert "There is no such page here. The address may have been mistyped or cut short." in page, address
        assert "no such game, deal or player" not in page, address
    assert client.get_cookie(i18n.COOKIE) is None and client.get_cookie(locale_numbers.COOKIE) is None
    # a game's address still speaks of the game
    assert "There is no such game, deal or player here." in body(client.get("/games/no-such-game"))
    client.get("/language/de")
    assert "Diese Seite gibt es hier nicht." in body(client.get("/language/xx"))


def test_nothing_stored_changes_with_the_digits(client, db):
    """The same deal saved from an Arabic phone in its digits (typed on its keypad), from
    an English one and from an Arabic one with Western digits: the game files are the
    same, and so are the CSVs' numbers (its words are the phone's language), in 0–9."""
    files, sheets = [], []
    for language, digits in (("ar", None), ("en", None), ("ar", "latn")):
        game_id = store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"])))
        client.set_cookie(i18n.COOKIE, language)
        client.set_cookie(locale_numbers.COOKIE, digits or "")
        # typed on an Arabic keypad
        typed = {**WORKED_FORM, "nonce": f"{language}{digits}", "tricks_0": "٤", "tricks_1": "٥", "bugs_0": "١"}
        assert client.post(f"/games/{game_id}/deals/new", data=typed).status_code == 302
        game_file_text = body(client.get(f"/games/{game_id}/game.json"))
        data = json.loads(game_file_text)
        files.append({key: data[key] for key in ("format", "game", "players", "first_dealer", "options", "deals")})
        sheets.append(body(client.get(f"/games/{game_id}/sheet.csv")).splitlines()[1:])
        assert not ARABIC_INDIC.search(game_file_text + "".join(sheets[-1]))
    assert files[0] == files[1] == files[2] and files[0]["deals"] == [WORKED_TRIGAMI_DEAL]
    assert sheets[0] == sheets[2]
    assert [re.findall(r"-?[0-9]+", line) for line in sheets[0]] == [re.findall(r"-?[0-9]+", line) for line in sheets[1]]


def test_a_deal_changed_on_an_arabic_phone_shows_its_counts_in_its_digits_and_saves_them_unchanged(client, db):
    """Tester 14 (LOW): the Arabic form of a deal being changed showed its counts as "4"
    beside the chips' "٤". They are written in the page's digits (0–9 with Western digits
    chosen), the form sent back as it stands saves the same deal, and what a player typed
    comes back as typed when a form is refused."""
    game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    deal_id = store.get_game(db, game_id).deals[0].id
    edit = f"/games/{game_id}/deals/{deal_id}/edit"
    arabic(client)
    page = body(client.get(edit))
    fields = form_fields(page)
    counts = {name: fields[name] for name in ("tricks_0", "tricks_1", "tricks_2", "bugs_0", "bugs_1", "bugs_2")}
    assert counts == {"tricks_0": "٤", "tricks_1": "٥", "tricks_2": "٤", "bugs_0": "١", "bugs_1": "٠", "bugs_2": "٣"}
    assert client.post(edit, data=fields).status_code == 302
    assert [d.entry for d in store.get_game(db, game_id).deals] == [WORKED_TRIGAMI_DEAL]
    arabic(client, "latn")
    assert form_fields(body(client.get(edit)))["tricks_0"] == "4"
    arabic(client)
    refused = client.post(edit, data={**fields, "tricks_0": "4", "bugs_2": "99"})
    assert refused.status_code == 400
    assert form_fields(body(refused))["tricks_0"] == "4"  # as typed, not rewritten
    # tester 45 (LOW): a count tapped on a chip (its value "3") came back as "3" beside the
    # chip "٣" when the form was refused; it comes back as the chip shows it
    tapped = client.post(edit, data={**fields, "tricks_0": "", "tricks_0_chip": "3", "bugs_2": "99"})
    assert tapped.status_code == 400
    assert form_fields(body(tapped))["tricks_0"] == "٣"
    # tester 50 (LOW): the form sent back as the page showed it (each count "٤" beside its
    # ticked chip, whose value is "4"), refused for another field, came back with "4",
    # "5", "4", "1", "0" beside the chips "٤", "٥"…; it comes back as it was shown
    assert fields["tricks_0_chip"] == "4"  # the chips go with the counts
    shown = client.post(edit, data={**fields, "bugs_2": "99"})
    assert shown.status_code == 400
    back = form_fields(body(shown))
    assert {name: back[name] for name in counts if name != "bugs_2"} == {
        "tricks_0": "٤", "tricks_1": "٥", "tricks_2": "٤", "bugs_0": "١", "bugs_1": "٠"}
    # a new game's target starts in the page's digits too, and is read back
    assert 'value="٥٠٠"' in body(client.get("/games/new?kind=trigami"))


def test_a_wrong_seat_and_a_codes_minutes_are_in_the_pages_digits(client, db):
    """Tester 18 (LOW): an Arabic page said "لا يوجد لاعب 9" for a seat the game has not,
    and the code page "لمدة 15 دقيقة": both in Arabic-Indic digits now."""
    game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    arabic(client)
    explained = body(client.get(f"/games/{game_id}/explain/total?seat=8"))  # seats from 0: a ninth player
    assert "لاعب ٩" in explained and "لاعب 9" not in explained
    typed = body(client.get(f"/games/{game_id}/explain/total?seat=٩"))  # typed in the page's digits
    assert "لاعب ١٠" in typed and "لاعب ٩" not in typed
    code = body(client.get("/code"))
    assert "١٥" in code and "15" not in shown_text(code, ())


# ----------------------------------------------------------------- kept pages


@pytest.mark.parametrize("url", ["/games/{trix}", "/", "/players"])
def test_a_kept_page_never_answers_one_phones_digits_to_another(client, db, group, url):
    """A 304 and a kept page are per digits as per language: the ETag of the page in
    Arabic-Indic digits is not the one in Western digits, so neither phone is told "you
    have it" for the other's page."""
    trix = db.execute("select id from games where kind = 'trix'").fetchone()[0]
    url = url.format(trix=trix)
    arabic(client)
    first = client.get(url)
    tag = first.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    arabic(client, "latn")
    western = client.get(url, headers={"If-None-Match": tag})
    assert western.status_code == 200 and western.headers["ETag"] != tag
    assert not ARABIC_INDIC.search(shown_text(body(western), group["data"]))
    arabic(client)
    again = client.get(url, headers={"If-None-Match": western.headers["ETag"]})
    assert again.status_code == 200 and not WESTERN.search(shown_text(body(again), group["data"]))


def test_the_live_news_comes_in_the_phones_digits(client, db):
    game_id = store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"])))
    version = client.get(f"/games/{game_id}/live").get_json()["version"]
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)  # another phone; SCORING.md §1.2: +80, +200, +13
    arabic(client)
    arab = client.get(f"/games/{game_id}/live?since={version}")
    assert f"{FSI}Anna{PDI} {ALM}+٨٠" in arab.get_json()["news"]
    arabic(client, "latn")
    latn = client.get(f"/games/{game_id}/live?since={version}", headers={"If-None-Match": arab.headers["ETag"]})
    assert latn.status_code == 200 and f"{FSI}Anna{PDI} {LRI}{LRM}+80{PDI}" in latn.get_json()["news"]


# ----------------------------------------------------------------- dates


def test_a_games_day_is_written_in_the_pages_language_and_digits(client, db):
    game_id = store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"])))
    db["games"].update(game_id, {"created_at": "2025-03-01T20:00:00+00:00"})
    for language, digits, day in (("en", None, "Mar 1, 2025"), ("de", None, "1. März 2025"),
                                  ("ar", None, "١ مارس ٢٠٢٥"), ("ar", "latn", "1 مارس 2025")):
        client.set_cookie(i18n.COOKIE, language)
        client.set_cookie(locale_numbers.COOKIE, digits or "")
        printed = body(client.get(f"/games/{game_id}/print"))
        # (as written without the phone's script, which writes it in the phone's own variant
        # of the language: tests/test_history_browser.py)
        assert f'<time datetime="2025-03-01T20:00:00+00:00" data-local-time>{day}</time>' in printed, language


def test_an_arabic_total_reads_its_sum_left_to_right_as_written(client, db):
    """Anna's total after SCORING.md §1.2's worked deal (+80) and a deal where she takes
    5 of 13 tricks with a plain bid and no bugs (+100): "٨٠ + ١٠٠ = ١٨٠". In an Arabic
    sentence the sum is a left-to-right isolate, or its numbers and signs would be
    reordered around the "=" ("١٨٠ = ١٠٠ + ٨٠"); an English page has no such mark."""
    second = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"},
                       {"kind": "plain", "suit": "C"}], "tricks": [5, 4, 4], "bugs": [0, 0, 0]}
    game_id = store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"],
                                                        deals=[WORKED_TRIGAMI_DEAL, second])))
    english = body(client.get(f"/games/{game_id}/explain/total", query_string={"seat": 0}))
    assert "80 + 100 = 180" in english and "\u2066" not in english
    arabic(client)
    page = body(client.get(f"/games/{game_id}/explain/total", query_string={"seat": 0}))
    assert "\u2066٨٠ + ١٠٠ = ١٨٠\u2069" in page
