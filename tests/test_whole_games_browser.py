"""Whole games in German, Finnish and Arabic, in headless Chromium at 390×844 (issue 10):
a group at the table plays in its own language from the first page to the totals, and
an Arabic page is mirrored without anything cut, scrambled or off the page.

- **A Trix kingdom in Arabic** (the phone's language ar-EG): the group started on the
  welcome page, the game started, and all five contracts entered through the Arabic
  forms with names in two scripts (سارة, محمد, Anna, Bob): chips tapped, and the counts
  of Diamonds and Tricks typed on an Arabic keypad (٣, ١٠). The totals a player reads are
  the ones worked by hand from SCORING.md §2 below, the kingdom's Σ = 0 check shows, and
  the game file holds the counts entered.
- **A Trigami game in German and in Finnish**, tapped in deal by deal to the target, with
  the winner named; totals worked by hand from SCORING.md §1.
- On every page a player of these games meets: no English word (what the player sees and
  hears: text, labels, placeholders; names, quoted rules and the language switch aside).
- **The Arabic pages' layout**, at 390 and 360 px: nothing scrolls sideways; the score
  sheet's and the printable sheet's seats run the way the page reads (the first seat on
  the right, on the left in German); the bar at the bottom is inside the screen; no two
  chips overlap; a number standing alone keeps its sign before its digits (Western
  digits: "+80", never "80+"; Arabic-Indic digits with CLDR's marks read from the right);
  the charts run left to right with their labels clear of the plot; no Arabic word is
  broken across two lines.

Numbers are read off the pages in whatever digits and signs they are written: Western or
Arabic-Indic digits, "−" (U+2212) or "-", with or without direction marks.

Screenshots: screenshots/whole-<language>-<page>.png — open them and look.
"""

from __future__ import annotations

import json
import re
import unicodedata
from itertools import pairwise
from typing import Any

import pytest

from tests.browser_support import FITS_WIDTH, serve, shot, store_game, sync_api
from tests.browser_support import new_page as phone
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_every_language import NAMES, SHARED, VERBATIM, english_left, seen
from tests.test_gamefile import TRIX_KINGDOM

pytestmark = pytest.mark.browser
expect = sync_api.expect

# ------------------------------------------------------------------ reading numbers

#: Direction marks and isolates a number or a name may carry (LRM, RLM, ALM, LRE … PDI)
MARKS = dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
SIGNED = re.compile(r"[+-]?\d+")


def western(text: str) -> str:
    """``text`` with every decimal digit written 0–9, "−" as "-" and no direction marks."""
    text = text.translate(MARKS).replace("\u2212", "-")
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in text)


def number(text: str) -> int:
    """The one whole number ``text`` shows ("−150", "+٧٥", "‎-25")."""
    found = SIGNED.findall(western(text))
    assert len(found) == 1, f"not one number: {text!r}"
    return int(found[0])


def numbers(locator) -> list[int]:
    return [number(text) for text in locator.all_inner_texts()]


def previewed(page, read: Any, expected: Any, timeout: float = 10_000) -> Any:
    """What ``read()`` finds in the points shown before saving, once it is ``expected`` or
    ``timeout`` ms have gone by. The preview is asked for 300 ms after the last tap and
    answered by the server, so while the entries are made it can show the points of an
    entry half made; the player reads it once it has settled."""
    waited = 0.0
    while True:
        try:
            found = read()
        except AssertionError:  # no number yet, or being replaced
            found = None
        if found == expected or waited >= timeout:
            return read() if found is None else found
        page.wait_for_timeout(100)
        waited += 100


# ------------------------------------------------------------------ the table's taps
# Language-free: every choice is found by its field and value, as the form sends it.


def tap(page, selector: str) -> None:
    page.locator(selector).tap()


def choose(page, field: str, value: Any) -> None:
    """Tap the chip of ``value`` in the radio group ``field`` (a bid, a taker, a doubler…)."""
    tap(page, f'input[name="{field}"][value="{value}"] + label')


def count(page, field: str, n: int) -> None:
    """Tap the chip ``n`` of a count (tricks_0, bugs_2, diamonds_1 …)."""
    tap(page, f'label[for="{field}_chip-{n}"]')


def typed(page, field: str, digits: str) -> None:
    """Type a count on the phone's keypad (Arabic-Indic digits as an Arabic keypad sends them)."""
    page.locator(f"#{field}").tap()
    page.keyboard.type(digits)


def save(page) -> None:
    """Tap Save and wait until the phone shows the score sheet. The URL is polled, not
    followed as one navigation: the sheet may be reached by a navigation that replaced
    the form's own (the page's script, or a live update), which Playwright reports as the
    first one aborted although the phone ends on the sheet."""
    page.locator('.deal-form .action-bar button[type="submit"]').tap()
    expect(page).to_have_url(re.compile(r"/games/[^/?#]+(#deal-\d+)?$"))


def start_group(page, url: str, name: str) -> None:
    """A phone with no link starts its group on the welcome page."""
    page.goto(f"{url}/")
    page.locator("#name").fill(name)
    page.locator('form[action$="/groups/new"] button[type="submit"]').tap()
    page.wait_for_url(f"{url}/")


def start_game(page, url: str, kind: str, players: list[str]) -> str:
    """From the home page: New game, the kind, the names in playing order, the first seat
    deals (or holds the 7♥); returns the new game's id."""
    page.locator('a.button[href="/games/new"]').first.tap()
    page.locator(f'a.kind-card[href$="kind={kind}"]').tap()
    for seat, name in enumerate(players):
        page.locator(f"#player_{seat}").fill(name)
    choose(page, "first_dealer", 0)
    page.locator('.new-game .action-bar button[type="submit"]').tap()
    page.wait_for_url(re.compile(rf"{re.escape(url)}/games/(?!new\b)[^/?#]+$"))
    return page.url.rsplit("/", 1)[1]


# ------------------------------------------------------------------ no English word

#: Latin abbreviations an Arabic page may show as Arabic writes them too: file formats
#: (the spreadsheet's "(CSV)"), the QR code, the time standard ("تُحسب الأيام بتوقيت UTC")
LATIN_ALLOWED = {"csv", "json", "qr", "utc"}
#: English words of fewer than four letters that a script might write ("0 of 13")
SHORT_ENGLISH = {"of", "the", "and"}


def english_seen(page, code: str, data: tuple[str, ...]) -> set[str]:
    """The English words a player reads or hears on the page as it is now (after its
    scripts ran): in Arabic, every Latin word of two letters or more; in German and
    Finnish, the words of four letters or more that the same page in English has too
    (tests/test_every_language.py), and short English words. Less ``data`` (the group's
    name and the players'), the games' names, text marked as another language (the
    language switch) and quoted rules."""
    html = page.content()
    text = " ".join(seen(html).parts)
    for string in (*data, *VERBATIM):
        text = text.replace(string, " ")
    text = " ".join(token for token in text.split() if "/" not in token and "=" not in token)  # addresses
    if code == "ar":
        return {w for w in re.findall(r"[A-Za-z]{2,}", text) if w.casefold() not in NAMES | LATIN_ALLOWED}
    context = page.context
    context.add_cookies([{"name": "lang", "value": "en", "url": page.url}])
    try:
        english = page.request.get(page.url).text()
    finally:
        context.add_cookies([{"name": "lang", "value": code, "url": page.url}])
    return english_left(english, html, NAMES | SHARED[code], data) | (set(re.findall(r"\w+", text)) & SHORT_ENGLISH)


def no_english(page, code: str, data: tuple[str, ...]) -> None:
    assert english_seen(page, code, data) == set(), page.url


# ------------------------------------------------------------------ layout, measured

# Where each signed number's sign is drawn beside its digits, in the elements that show
# a number alone (sheet, printable sheet, kingdom table, legends, figures, chart labels)
SIGNS = r"""(selector) => {
  const out = [];
  const re = /([+\u2212\-])[\u200e\u200f\u061c]*([0-9\u0660-\u0669\u06f0-\u06f9]+)/g;
  for (const root of document.querySelectorAll(selector)) {
    if (!root.checkVisibility()) continue;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(re)) {
        const sign = document.createRange();
        sign.setStart(node, m.index); sign.setEnd(node, m.index + 1);
        const start = m.index + m[0].length - m[2].length;
        const digits = document.createRange();
        digits.setStart(node, start); digits.setEnd(node, start + m[2].length);
        const s = sign.getBoundingClientRect(), d = digits.getBoundingClientRect();
        if (!s.width) continue;
        out.push({text: m[0], arabic: /[\u0660-\u0669\u06f0-\u06f9]/.test(m[2]),
                  side: s.right <= d.left + 1 ? "left" : s.left >= d.right - 1 ? "right" : "across"});
      }
    }
  }
  return out;
}"""
NUMBERS_ALONE = (".sheet .points, .sheet .total, .team-total, .paper-table td, .kingdom-table td, .chart-legend b, "
                 ".game-card-players b, .stat-value, .figure-number b, .figure-link, .big-points, .step-result, "
                 ".change-total bdi, .change-total b, svg.chart-svg text")

# Words of Arabic letters drawn across two lines: a word cut in two loses its letters' joins
BROKEN_WORDS = r"""() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent.checkVisibility() || parent.closest(".visually-hidden, .quote")) continue;
    for (const m of node.data.matchAll(/[\u0600-\u06ff\u0750-\u077f]+/g)) {
      const word = document.createRange();
      word.setStart(node, m.index); word.setEnd(node, m.index + m[0].length);
      const lines = new Set(Array.from(word.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""

# Tap targets that overlap another: chips and Trix finishing taps among themselves, the
# buttons of the fixed bar at the bottom among themselves (the page scrolls under the bar)
OVERLAPS = r"""() => {
  const boxes = Array.from(document.querySelectorAll(".chip label, .finish-tap, .action-bar .button"))
    .filter((e) => e.checkVisibility())
    .map((e) => [e.textContent.trim(), e.getBoundingClientRect(), Boolean(e.closest(".action-bar"))]);
  const out = [];
  boxes.forEach(([a, r, barA], i) => boxes.slice(i + 1).forEach(([b, s, barB]) => {
    if (barA !== barB) return;
    const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
    const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
    if (w > 1 && h > 1) out.push(a + " / " + b);
  }));
  return out;
}"""

# The fixed bar at the bottom, wholly on the screen (the phone's width: the root's
# clientWidth, as tests/browser_support.py FITS_WIDTH says why)
BAR_ON_SCREEN = r"""() => {
  const bar = document.querySelector("main .action-bar");
  if (!bar) return true;
  const r = bar.getBoundingClientRect();
  return r.left >= -1 && r.right <= document.documentElement.clientWidth + 1 && r.top >= 0 && r.bottom <= innerHeight + 1;
}"""

# The x of each seat's column (centre), in seat order, and of the deal column
SEAT_COLUMNS = r"""([seats, deal]) => ({
  seats: Array.from(document.querySelectorAll(seats), (e) => { const r = e.getBoundingClientRect(); return r.left + r.width / 2; }),
  deal: (() => { const r = document.querySelector(deal).getBoundingClientRect(); return r.left + r.width / 2; })(),
})"""

# Each chart: its value labels left of the plot, its x labels in order from left to right,
# every label inside the chart
CHARTS = r"""() => Array.from(document.querySelectorAll("svg.chart-svg")).filter((svg) => svg.checkVisibility()).map((svg) => {
  const box = svg.getBoundingClientRect();
  const plot = svg.querySelector(".plot > rect.background").getBoundingClientRect();
  const texts = Array.from(svg.querySelectorAll("text"));
  const x = Array.from(svg.querySelectorAll(".axis.x text"), (t) => [t.textContent, t.getBoundingClientRect().left]);
  return {
    yClear: Array.from(svg.querySelectorAll(".axis.y text")).every((t) => t.getBoundingClientRect().right <= plot.left + 1),
    xLabels: x.sort((a, b) => a[1] - b[1]).map((p) => p[0]),
    inside: texts.filter((t) => t.textContent.trim()).every((t) => {
      const r = t.getBoundingClientRect();
      return r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    }),
  };
})"""


# The points shown before saving, in seat order
PREVIEWS = """() => Array.from(document.querySelectorAll("[data-seat-preview]"))
  .sort((a, b) => a.dataset.seatPreview - b.dataset.seatPreview).map((e) => e.innerText)"""
# Everything :func:`laid_out_right` measures, in one look at the page: whether it fits
# its width, the broken words, the signs, the overlapping taps, the bar, the charts
LAYOUT = ("(alone) => ({fits: " + FITS_WIDTH + ", broken: (" + BROKEN_WORDS
          + ")(), signs: (" + SIGNS + ")(alone), overlaps: (" + OVERLAPS + ")(), bar: (" + BAR_ON_SCREEN
          + ")(), charts: (" + CHARTS + ")()})")
# What the deal form of a German or Finnish game must show: whether it fits its width,
# the overlapping taps, the bar
FORM_FITS = ("() => ({fits: " + FITS_WIDTH + ", overlaps: (" + OVERLAPS
             + ")(), bar: (" + BAR_ON_SCREEN + ")()})")


def misplaced(signs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Of ``signs`` (:data:`SIGNS`), the numbers whose sign is not where their reader
    starts: Western digits with the sign on their left ("+80"), Arabic-Indic digits
    (CLDR's Arabic forms, ALM before the sign) with the sign on their right, read first in
    a right-to-left line."""
    return [s for s in signs if s["side"] != ("right" if s["arabic"] else "left")]


def signs_misplaced(page) -> list[dict[str, Any]]:
    """The numbers on ``page`` whose sign is not where their reader starts (:func:`misplaced`)."""
    return misplaced(page.evaluate(SIGNS, NUMBERS_ALONE))


def seat_order(page, seats: str, deal: str) -> str:
    """"rtl" when the seats' columns run from right to left with the deal column rightmost,
    "ltr" the other way round."""
    columns = page.evaluate(SEAT_COLUMNS, [seats, deal])
    xs = columns["seats"]
    if all(a > b for a, b in pairwise(xs)) and columns["deal"] > xs[0]:
        return "rtl"
    if all(a < b for a, b in pairwise(xs)) and columns["deal"] < xs[0]:
        return "ltr"
    return f"mixed: {columns}"


def charts_right(page, charts: list[dict[str, Any]]) -> None:
    """Each of ``charts`` (:data:`CHARTS`, measured on ``page``) as it must be."""
    for chart in charts:
        assert chart["yClear"] and chart["inside"], (page.url, chart)
        xs = [number(label) for label in chart["xLabels"] if SIGNED.search(western(label))]
        assert xs == sorted(xs), (page.url, chart)  # deal 1 (or the first game) at the left


def laid_out_right(page, where: str) -> None:
    """What must hold on any Arabic page at the phone's width (measured at once: :data:`LAYOUT`)."""
    found = page.evaluate(LAYOUT, NUMBERS_ALONE)
    assert found["fits"], f"{where}: scrolls sideways"
    assert found["broken"] == [], where
    assert misplaced(found["signs"]) == [], where
    assert found["overlaps"] == [], where
    assert found["bar"], f"{where}: the bar at the bottom is off the screen"
    charts_right(page, found["charts"])


# =============================================================== a Trix kingdom in Arabic

ARABIC_GROUP = "أصدقاء الطاولة"
ARABIC_PLAYERS = ["سارة", "محمد", "Anna", "Bob"]

# The kingdom, worked by hand from SCORING.md §2 (standard values, doubling on), seats
# 0 سارة, 1 محمد, 2 Anna, 3 Bob:
#   King of Hearts: محمد doubles the K♥, Anna takes it (§2.2)    → Anna −150, محمد +75
#   Queens: سارة doubles the Q♠, Bob takes it                    → Bob −50, سارة +25
#           سارة takes the Q♥                                    → سارة −25
#           محمد doubles the Q♦ and wins it back; Anna led       → محمد −50, Anna +25
#           Anna takes the Q♣                                    → Anna −25
#   Diamonds, typed ٣ ٥ ١ (Bob's 4 filled in), −10 each           → −30 −50 −10 −40
#   Tricks, typed ٢ ٠ ١٠ (Bob's 1 filled in), −15 each            → −30 0 −150 −15
#   Trix: Bob out first, سارة second, Anna third, محمد last      → +150 +50 +100 +200
KINGDOM_POINTS = [[0, 75, -150, 0], [0, -50, 0, -50], [-30, -50, -10, -40], [-30, 0, -150, -15],
                  [150, 50, 100, 200]]
KINGDOM_TOTALS = [90, 25, -210, 95]  # Σ = 0, as after every kingdom (§2.1)
KINGDOM_ENTRIES = [
    {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}},
    {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 0}, "H": {"taker": 0},
                                         "D": {"taker": 1, "doubled_by": 1, "leader": 2}, "C": {"taker": 2}}},
    {"contracts": ["diamonds"], "diamonds": [3, 5, 1, 4]},
    {"contracts": ["tricks"], "tricks": [2, 0, 10, 1]},
    {"contracts": ["trix"], "trix": [3, 0, 2, 1]},
]


def king(page):
    choose(page, "king_taker", 2)
    choose(page, "king_doubled_by", 1)


def queens(page):
    choose(page, "queens_S_taker", 3), choose(page, "queens_S_doubled_by", 0)
    choose(page, "queens_H_taker", 0)
    choose(page, "queens_D_taker", 1), choose(page, "queens_D_doubled_by", 1)
    choose(page, "queens_D_leader", 2)  # asked only now: the doubler took it back
    choose(page, "queens_C_taker", 2)


def diamonds(page):
    typed(page, "diamonds_0", "٣"), typed(page, "diamonds_1", "٥"), typed(page, "diamonds_2", "١")
    expect(page.locator("#diamonds_0_chip-3")).to_be_checked()  # the chip of what was typed
    expect(page.locator("#diamonds_3")).to_have_value(re.compile("^(4|٤)$"))  # 13 − 3 − 5 − 1


def tricks(page):
    typed(page, "tricks_0", "٢"), typed(page, "tricks_1", "٠"), typed(page, "tricks_2", "١٠")
    expect(page.locator("#tricks_2_chip-10")).to_be_checked()
    expect(page.locator("#tricks_3")).to_have_value(re.compile("^(1|١)$"))


def trix(page):
    for seat in (3, 0, 2):
        tap(page, f'.finish-taps button[data-seat="{seat}"]')


KINGDOM = [("king", king), ("queens", queens), ("diamonds", diamonds), ("tricks", tricks), ("trix", trix)]


def test_a_trix_kingdom_entered_in_arabic_sums_to_zero_and_keeps_its_counts(browser, tmp_path):
    data = (ARABIC_GROUP, *ARABIC_PLAYERS)
    with serve(tmp_path / "ar.sqlite3", make_group=False) as url:
        page = phone(browser, locale="ar-EG", join=False)
        try:
            start_group(page, url, ARABIC_GROUP)
            expect(page.locator("html")).to_have_attribute("dir", "rtl")
            no_english(page, "ar", data)
            game_id = start_game(page, url, "trix", ARABIC_PLAYERS)
            no_english(page, "ar", data)
            assert seat_order(page, "thead .player-col", "thead .deal-col") == "rtl"  # سارة rightmost

            running = [0, 0, 0, 0]
            for n, ((contract, enter), points) in enumerate(zip(KINGDOM, KINGDOM_POINTS, strict=True), 1):
                several = page.locator(".add-contracts")
                if several.count():  # the owner names the contract on the sheet's bar
                    several.locator(f'a[href$="contract={contract}"]').tap()
                else:  # the kingdom's last contract: the one Add button
                    page.locator("a[data-add-label]").tap()
                expect(page.locator(f'input[name="contracts"][value="{contract}"]')).to_be_checked()
                enter(page)
                preview = page.locator("[data-preview-line]")
                expect(preview).not_to_be_empty()
                expect(preview.locator(".bad, .todo")).to_have_count(0)
                # each player's points before saving, in seat order, in whatever digits
                assert previewed(page, lambda preview=preview: [int(n) for n in SIGNED.findall(western(preview.inner_text()))],
                                 points) == points
                laid_out_right(page, f"deal {n} form")
                if contract == "diamonds":  # tester 45: "-1" typed read "1-" in a count's box
                    directions = page.evaluate("""[...document.querySelectorAll('input[inputmode="numeric"]')]
                        .map((i) => getComputedStyle(i).direction)""")
                    assert len(directions) >= 4 and set(directions) == {"ltr"}
                no_english(page, "ar", data)
                shot(page, f"whole-ar-form-{contract}")
                save(page)
                running = [a + b for a, b in zip(running, points, strict=True)]
                expect(page.locator(f"#deal-{n}")).to_be_visible()
                assert numbers(page.locator("thead .total")) == running
                assert numbers(page.locator(f"#deal-{n} .points")) == points

            assert running == KINGDOM_TOTALS and sum(running) == 0
            check = page.locator(".check-row")
            expect(check).to_have_count(1)
            expect(check).to_have_class(re.compile(r"\bok\b"))
            expect(check).to_contain_text("✓")
            assert 0 in [int(n) for n in SIGNED.findall(western(check.inner_text()))]
            expect(page.locator("html")).to_have_attribute("lang", "ar")
            expect(page.locator("html")).to_have_attribute("dir", "rtl")
            laid_out_right(page, "sheet")
            no_english(page, "ar", data)
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, "whole-ar-sheet")

            # how محمد's queens came about, opened in place from the sheet
            page.locator("#deal-2 td").nth(1).locator("a.cell-link").tap()
            dialog = page.locator("dialog[open]")
            expect(dialog.locator("[data-explain-body] h1, [data-explain-body] h2").first).to_be_visible()
            assert number(dialog.locator(".big-points").inner_text()) == -50  # the Q♦ he doubled and took back
            assert signs_misplaced(page) == [] and page.evaluate(BROKEN_WORDS) == []
            no_english(page, "ar", data)
            shot(page, "whole-ar-explanation-dialog", full_page=False)  # as the phone shows it
            dialog.locator('form[method="dialog"] button').tap()
            expect(page.locator("dialog[open]")).to_have_count(0)

            stored = json.loads(page.request.get(f"{url}/games/{game_id}/game.json").text())
            assert stored["players"] == ARABIC_PLAYERS
            assert stored["deals"] == KINGDOM_ENTRIES
        finally:
            page.context.close()


# ======================================================= the Arabic pages, one by one


@pytest.fixture(scope="module")
def arabic_site(tmp_path_factory):
    """An Arabic group with a Trix game at the start of its second kingdom (with a history:
    deals added, one deleted and added again), two finished Trix games, a finished Trigami game and one under
    way, all with names in two scripts."""
    from scorekeeper import create_app, groups, store
    from scorekeeper.db import connect

    database = tmp_path_factory.mktemp("whole-ar") / "ar.sqlite3"
    create_app({"SECRET_KEY": "whole-games", "DATABASE": str(database)})  # the tables
    db = connect(str(database))
    try:
        groups.create(db, ARABIC_GROUP)
    finally:
        db.conn.close()
    with serve(database) as url:
        trigami_players = ["سارة", "Anna", "محمد"]
        finished = [store_game(database, game_file("trix", players=ARABIC_PLAYERS, deals=TRIX_KINGDOM * 4))
                    for _ in range(2)]
        store_game(database, game_file(players=trigami_players, deals=[WORKED_TRIGAMI_DEAL] * 3))
        trigami = store_game(database, game_file(players=trigami_players, deals=[WORKED_TRIGAMI_DEAL]))
        trix_id = store_game(database, game_file("trix", players=ARABIC_PLAYERS))
        db = connect(str(database))
        try:
            for entry in TRIX_KINGDOM:
                store.add_deal(db, trix_id, entry)
            last = store.get_game(db, trix_id).deals[-1]
            store.delete_deal(db, trix_id, last.id)  # and added again: the kingdom is whole
            store.add_deal(db, trix_id, TRIX_KINGDOM[-1])
        finally:
            db.conn.close()
        yield {"url": url, "trix": trix_id, "finished": finished[0], "trigami": trigami}


def arabic_pages(site) -> dict[str, str]:
    url, trix_id = site["url"], site["trix"]
    pages = {"past-games": "/", "finished-games": "/?status=finished", "players": "/players",
             "sheet": f"/games/{trix_id}", "finished-sheet": f"/games/{site['finished']}",
             "trigami-sheet": f"/games/{site['trigami']}", "trigami-form": f"/games/{site['trigami']}/deals/new",
             "explanation": f"/games/{trix_id}/explain/2?seat=1", "kingdom": f"/games/{trix_id}/explain/kingdom/1",
             "total": f"/games/{trix_id}/explain/total?seat=0", "history": f"/games/{trix_id}/history",
             "group": "/group", "print": f"/games/{site['finished']}/print", "print-under-way": f"/games/{trix_id}/print",
             "what-if": f"/games/{site['finished']}/what-if", "calculator": "/calculator?game=trix"}
    pages.update({f"form-{c}": f"/games/{trix_id}/deals/new?contract={c}"
                  for c in ("king", "queens", "diamonds", "tricks", "trix")})
    return {name: url + path for name, path in pages.items()}


@pytest.mark.parametrize("width", [390, 360])
def test_every_arabic_page_is_mirrored_with_nothing_cut_or_scrambled(browser, arabic_site, width):
    page = phone(browser, width, 844 if width == 390 else 740, locale="ar-EG")
    try:
        pages = arabic_pages(arabic_site)
        # every page, and last the page of سارة, found on the players' page
        for name, address in [*pages.items(), ("player", None)]:
            page.goto(address or pages["player"])
            expect(page.locator("html")).to_have_attribute("dir", "rtl")
            laid_out_right(page, f"{name} at {width}")
            no_english(page, "ar", (ARABIC_GROUP, *ARABIC_PLAYERS))
            if width == 390:
                shot(page, f"whole-ar-page-{name}")
            if name == "players":
                player = page.locator("table.players-table a", has_text="سارة").first.get_attribute("href")
                pages["player"] = arabic_site["url"] + player
            # the seats run the way the page reads: the first on the right, by the deal column
            if name == "sheet":
                assert seat_order(page, "thead .player-col", "thead .deal-col") == "rtl", address
                expect(page.locator("figure.game-chart svg.chart-svg")).to_be_visible()
            if name == "print":
                assert seat_order(page, ".paper-table thead .paper-name", ".paper-table thead .paper-deal") == "rtl", address
            if name == "player":
                expect(page.locator("svg.chart-svg")).not_to_have_count(0)  # results charts were measured
    finally:
        page.context.close()


def test_a_german_sheet_runs_left_to_right(browser, arabic_site):
    page = phone(browser, locale="de-DE")
    try:
        page.goto(f"{arabic_site['url']}/games/{arabic_site['trix']}")
        expect(page.locator("html")).to_have_attribute("dir", "ltr")
        assert seat_order(page, "thead .player-col", "thead .deal-col") == "ltr"
        page.goto(f"{arabic_site['url']}/games/{arabic_site['finished']}/print")
        assert seat_order(page, ".paper-table thead .paper-name", ".paper-table thead .paper-deal") == "ltr"
    finally:
        page.context.close()


# ======================================================== Trigami in German and Finnish

# The game, worked by hand from SCORING.md §1 (target 500), seats 0, 1, 2:
#   1. turnip ♦; 0 Turnip, 4 tricks 1 bug: 40 ÷ 1 doubled = 80; 1 Doublets ♠, 5 tricks
#      clean: 200; 2 ♥, 4 tricks 3 bugs: floor(40 / 3) = 13 (§1.2's worked example)
#   2. 0 ♠, 5 tricks 3 bugs: floor(50 / 3) = 16; 1 ♥, 4 clean: 80; 2 ♦, 4 (filled in) 2 bugs: 20
#   3. every trick to 1, who bid Doublets ♣: 200; the others 0 (§1.2, 1.; 10 bugs filled in)
#   4. 0 ♥, no trick: 50; 1 ♠, 6 tricks 4 bugs: floor(60 / 4) = 15; 2 ♣, 7 clean: 140
#   5. turnip ♥; 0 Turnip, 3 tricks 2 bugs: floor(30 / 2) = 15, doubled 30; 1 ♦, 5 clean:
#      100; 2 ♠, 5 tricks 5 bugs: 10
# Totals 80 200 13 → 96 280 33 → 96 480 33 → 146 495 173 → 176 595 183: seat 1 alone past
# 500 (§1.4), and wins.


def trigami_deal_1(page):
    choose(page, "bids_0", "turnip"), choose(page, "bids_1", "S"), tap(page, 'label[for="doublets_1"]')
    choose(page, "bids_2", "H"), choose(page, "turnip", "D")
    count(page, "tricks_0", 4), count(page, "tricks_1", 5)
    count(page, "bugs_0", 1), count(page, "bugs_2", 3)


def trigami_deal_2(page):
    choose(page, "bids_0", "S"), choose(page, "bids_1", "H"), choose(page, "bids_2", "D")
    count(page, "tricks_0", 5), count(page, "tricks_1", 4)
    count(page, "bugs_0", 3), count(page, "bugs_2", 2)


def trigami_deal_3(page):
    choose(page, "bids_0", "S"), choose(page, "bids_1", "C"), tap(page, 'label[for="doublets_1"]')
    choose(page, "bids_2", "H")
    count(page, "tricks_0", 0), count(page, "tricks_2", 0)
    expect(page.locator("#bugs_1")).to_have_value(re.compile("^(10|١٠)$"))  # every trick: all 10


def trigami_deal_4(page):
    choose(page, "bids_0", "H"), choose(page, "bids_1", "S"), choose(page, "bids_2", "C")
    count(page, "tricks_0", 0), count(page, "tricks_1", 6)
    count(page, "bugs_1", 4)


def trigami_deal_5(page):
    choose(page, "bids_0", "turnip"), choose(page, "bids_1", "D"), choose(page, "bids_2", "S")
    choose(page, "turnip", "H")
    count(page, "tricks_0", 3), count(page, "tricks_1", 5)
    count(page, "bugs_0", 2), count(page, "bugs_2", 5)


TRIGAMI_GAME = [(trigami_deal_1, [80, 200, 13]), (trigami_deal_2, [16, 80, 20]), (trigami_deal_3, [0, 200, 0]),
                (trigami_deal_4, [50, 15, 140]), (trigami_deal_5, [30, 100, 10])]
TRIGAMI_TOTALS = [176, 595, 183]
GROUPS = {"de": ("Stammtisch", ["Jürgen", "Grete", "Kai"], "de-DE"),
          "fi": ("Mökki", ["Aino", "Väinö", "Ilmari"], "fi-FI")}


@pytest.mark.parametrize("code", list(GROUPS))
def test_a_trigami_game_is_played_to_the_target_in_german_and_finnish(browser, tmp_path, code):
    group, players, locale = GROUPS[code]
    data = (group, *players)
    with serve(tmp_path / f"{code}.sqlite3", make_group=False) as url:
        page = phone(browser, locale=locale, join=False)
        try:
            start_group(page, url, group)
            expect(page.locator("html")).to_have_attribute("lang", code)
            no_english(page, code, data)
            game_id = start_game(page, url, "trigami", players)
            assert seat_order(page, "thead .player-col", "thead .deal-col") == "ltr"
            running = [0, 0, 0]
            for n, (enter, points) in enumerate(TRIGAMI_GAME, 1):
                page.locator("a[data-add-label]").tap()
                expect(page.locator("h1")).to_contain_text(str(n))
                enter(page)
                # each player's points show before saving
                expect(page.locator("[data-seat-preview]")).to_have_text([re.compile(r"\S")] * len(points))
                assert previewed(page, lambda: [number(shown) for shown in page.evaluate(PREVIEWS)], points) == points
                fits = page.evaluate(FORM_FITS)
                assert fits["fits"]
                assert fits["overlaps"] == [] and fits["bar"]
                no_english(page, code, data)
                shot(page, f"whole-{code}-form-deal-{n}")
                save(page)
                running = [a + b for a, b in zip(running, points, strict=True)]
                assert numbers(page.locator("thead .total")) == running
                assert page.evaluate(FITS_WIDTH)
                no_english(page, code, data)

            assert running == TRIGAMI_TOTALS
            winner = page.locator(".banner.game-over")
            expect(winner).to_contain_text(players[1])  # the only one past 500
            expect(winner).to_contain_text("🏆")
            for loser in (players[0], players[2]):
                expect(winner).not_to_contain_text(loser)
            expect(page.locator("a[data-add-label]")).to_have_count(0)  # no deal after the game is over
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, f"whole-{code}-sheet")

            page.locator("#deal-5 td").nth(0).locator("a.cell-link").tap()  # how the Turnip's 30 came about
            dialog = page.locator("dialog[open]")
            expect(dialog.locator("[data-explain-body] h1, [data-explain-body] h2").first).to_be_visible()
            no_english(page, code, data)
            shot(page, f"whole-{code}-explanation-dialog", full_page=False)  # as the phone shows it
            page.goto(f"{url}/games/{game_id}/explain/5?seat=0")
            assert number(page.locator(".big-points").inner_text()) == 30
            no_english(page, code, data)
            shot(page, f"whole-{code}-explanation")
        finally:
            page.context.close()
