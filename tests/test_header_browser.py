"""The top bar at the narrowest phone width the app is made for, 360×740, in every
language: no page scrolls sideways, and every link of the header (the app's name, the
group's name, Players, Calculator, Check a paper sheet) lies whole inside the screen, where
a finger can reach it, none over another. The Finnish "Tarkista paperipöytäkirja" was cut
off at the right edge of a nav that scrolled sideways on its own. Screenshots:
screenshots/header-360-*.png — open them and look.
"""

from __future__ import annotations

import pytest

from tests.browser_support import (
    BOX,
    FITS_WIDTH,
    PHONE_LOCALES,
    new_page,
    serve,
    shot,
    store_game,
)
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file

pytestmark = pytest.mark.browser

LOCALES = PHONE_LOCALES
#: The header's links in each language, as a player reads them (the catalogues' words)
NAV = {"en": ["Players", "Calculator", "Check a paper sheet"],
       "de": ["Spieler", "Rechner", "Papierliste prüfen"],
       "fi": ["Pelaajat", "Laskuri", "Tarkista paperipöytäkirja"],
       "ar": ["اللاعبون", "الحاسبة", "تدقيق ورقة نقاط"]}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    path = tmp_path_factory.mktemp("header-browser") / "header.sqlite3"
    with serve(path) as url:
        game = store_game(path, game_file(deals=[WORKED_TRIGAMI_DEAL]))
        yield {"url": url, "game": game}


#: What a player sees of the top bar, at once: the page's language, whether it fits its
#: width, each link's text and box (None when it shows nowhere), whether a part of the
#: header scrolls on its own, whether every link's own text shows whole
TOP_BAR = """() => ({
  lang: document.documentElement.getAttribute("lang"),
  fits: FITS_WIDTH,
  names: Array.from(document.querySelectorAll("header.topbar a"), (a) => a.innerText),
  boxes: Array.from(document.querySelectorAll("header.topbar a"), BOX),
  unscrolled: [...document.querySelectorAll("header.topbar, header.topbar nav")].every(e => e.scrollWidth <= e.clientWidth + 1),
  whole: [...document.querySelectorAll("header.topbar nav a, header.topbar .brand")].every(a => a.scrollWidth <= a.clientWidth + 1),
})""".replace("FITS_WIDTH", FITS_WIDTH).replace("BOX", BOX)


@pytest.mark.parametrize("language", list(LOCALES))
def test_every_header_link_fits_a_360_pixel_phone_in_every_language(site, browser, language):
    page = new_page(browser, width=360, height=740, locale=LOCALES[language])
    try:
        for path in ("/", f"/games/{site['game']}", "/check", "/calculator?kind=trix", "/players"):
            page.goto(site["url"] + path)
            bar = page.evaluate(TOP_BAR)
            assert bar["lang"] == language
            assert bar["fits"], (language, path)  # no sideways scroll
            names = [name.strip() for name in bar["names"]]
            assert names[-3:] == NAV[language], names  # each one there, in the page's language
            boxes = []
            for index, box in enumerate(bar["boxes"]):
                assert box is not None, (language, path, names[index])
                # whole inside the screen, and tall enough to tap (WCAG 2.5.8: 24 px)
                assert box["x"] >= 0 and box["x"] + box["width"] <= 360 + 0.5, (language, path, names[index], box)
                assert box["height"] >= 24, (language, path, names[index], box)
                boxes.append(box)
            for index, one in enumerate(boxes):
                for other in boxes[index + 1:]:
                    apart = (one["x"] + one["width"] <= other["x"] + 0.5 or other["x"] + other["width"] <= one["x"] + 0.5
                             or one["y"] + one["height"] <= other["y"] + 0.5 or other["y"] + other["height"] <= one["y"] + 0.5)
                    assert apart, (language, path, names, one, other)
            # nothing of the links hidden in a part of the header that scrolls on its own
            assert bar["unscrolled"], (language, path)
            # every link's own text shows whole (the group's name may end in "…")
            assert bar["whole"], (language, path)
            if path == "/":
                shot(page, f"header-360-{language}")
    finally:
        page.context.close()


#: the first and last character of a group's name, as the top bar cuts a long one short
ENDS_SHOWN = """(link) => {
  const box = link.getBoundingClientRect();
  const text = link.querySelector("bdi").firstChild;
  const at = (start) => { const r = document.createRange(); r.setStart(text, start); r.setEnd(text, start + 1);
                          return r.getBoundingClientRect(); };
  const first = at(0), last = at(text.length - 1);
  const inside = (r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
  return [inside(first), inside(last)];
}"""


#: The group's name in the top bar, at once: its text, whether it is cut, its ends shown
#: (:data:`ENDS_SHOWN`), and whether the page fits its width
GROUP_NAME_SHOWN = ("(shown) => ({name: shown.querySelector('bdi').innerText, cut: shown.scrollWidth > shown.clientWidth + 1"
                    " || shown.querySelector('bdi').scrollWidth > shown.clientWidth + 1, ends: (" + ENDS_SHOWN
                    + ")(shown), fits: " + FITS_WIDTH + "})")


@pytest.mark.parametrize("name", ["Tuesday evening card table", "طاولة الورق مساء كل ثلاثاء"])
@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_long_group_name_is_cut_short_at_its_own_end_in_either_direction(tmp_path, browser, language, name):
    """A group's name too long for the top bar shows its beginning and is cut at its end,
    whichever way the page and the name read (tester 10: on an Arabic page a Latin name
    lost its beginning: "…sday table")."""
    from scorekeeper import groups
    from scorekeeper.db import connect

    path = tmp_path / "header.sqlite3"
    with serve(path) as url:
        db = connect(str(path))
        try:
            groups.rename(db, groups.all_groups(db)[0].id, name)
        finally:
            db.conn.close()
        page = new_page(browser, width=360, height=740, locale=LOCALES[language])
        try:
            page.goto(url + "/")
            shown = page.locator("header.topbar .topbar-group").evaluate(GROUP_NAME_SHOWN)
            assert shown["name"] == name
            assert shown["cut"]  # too long: cut
            assert shown["ends"] == [True, False], (language, name)
            assert shown["fits"]  # no sideways scroll
            shot(page, f"header-long-group-name-{language}-{name[:3]}")
        finally:
            page.context.close()
