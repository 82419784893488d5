"""The screen stays awake at the table (issue 18, part 6), headless Chromium at 390×844
and 360×740: the Screen Wake Lock is asked for while a game's sheet or a deal form is
open, asked again when the page is shown again, let go when the page is left; the "Keep
the screen on" switch turns it off, remembered on the phone; a browser without a wake
lock shows no switch and no error.

navigator.wakeLock is stubbed (page.add_init_script): each request and release is
written down in the tab's sessionStorage, which outlives the page that made it, so a
release on leaving a page is seen on the next. Screenshots of the switch at the foot of
the sheet and of the deal form in English, German, Finnish and Arabic:
screenshots/wake-*.png — open them and look.
"""

from __future__ import annotations

import pytest

from tests.browser_support import (
    FITS_WIDTH,
    new_page,
    serve,
    shot,
    store_game,
    sync_api,
)
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file

pytestmark = pytest.mark.browser
expect = sync_api.expect

SIZES = [(390, 844), (360, 740)]
LOCALES = {"en": "en-US", "de": "de-DE", "fi": "fi-FI", "ar": "ar-EG"}

#: A wake lock that writes down what is asked of it: "request screen /path" and
#: "release /path" (the page that asked), in sessionStorage["wake-calls"]. Hiding the page
#: (window.__hide()) lets every lock go, as browsers do.
WAKE_LOCK = """
(() => {
  const write = (what) => {
    const calls = JSON.parse(sessionStorage.getItem("wake-calls") || "[]");
    calls.push(what + " " + location.pathname);
    sessionStorage.setItem("wake-calls", JSON.stringify(calls));
  };
  const held = new Set();
  class Sentinel extends EventTarget {
    constructor(type) { super(); this.type = type; this.released = false; }
    async release() {
      if (this.released) return;
      this.released = true;
      held.delete(this);
      write("release");
      this.dispatchEvent(new Event("release"));
    }
  }
  const wakeLock = { request: async (type) => { write("request " + type); const s = new Sentinel(type); held.add(s); return s; } };
  Object.defineProperty(Navigator.prototype, "wakeLock", { configurable: true, get: () => wakeLock });
  let state = "visible";
  Object.defineProperty(Document.prototype, "visibilityState", { configurable: true, get: () => state });
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => state !== "visible" });
  window.__hide = () => {
    state = "hidden";
    for (const s of [...held]) { s.released = true; held.delete(s); write("released by the browser");
                                 s.dispatchEvent(new Event("release")); }
    document.dispatchEvent(new Event("visibilitychange"));
  };
  window.__show = () => { state = "visible"; document.dispatchEvent(new Event("visibilitychange")); };
})();
"""

#: A browser without the Screen Wake Lock
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(the app's address, a Trigami game of one deal, not finished)."""
    path = tmp_path_factory.mktemp("wake") / "wake.sqlite3"
    with serve(path) as base:
        game_id = store_game(path, game_file(players=["Anna", "Ben", "Carla"], deals=[WORKED_TRIGAMI_DEAL]))
        yield base, game_id


def phone(browser, size, script=WAKE_LOCK, locale="en"):
    width, height = size
    page = new_page(browser, width=width, height=height, locale=LOCALES[locale])
    page.context.add_init_script(script)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def calls(page) -> list[str]:
    return page.evaluate("JSON.parse(sessionStorage.getItem('wake-calls') || '[]')")


def wait_for_calls(page, count: int) -> list[str]:
    """The calls once there are ``count`` of them (those there are after 10 s, to fail
    on). Polled from here: the page's CSP (no eval) refuses page.wait_for_function's
    polling in the page."""
    for _ in range(200):
        found = calls(page)
        if len(found) >= count:
            return found
        page.wait_for_timeout(50)
    return calls(page)


def switch(page):
    return page.get_by_role("switch", name="Keep the screen on")


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_the_screen_is_kept_on_at_the_sheet_and_the_deal_form_and_let_go_on_leaving(browser, served, size):
    base, game_id = served
    sheet, form = f"/games/{game_id}", f"/games/{game_id}/deals/new"
    page = phone(browser, size)
    try:
        page.goto(base + sheet)
        assert wait_for_calls(page, 1) == [f"request screen {sheet}"]
        expect(switch(page)).to_be_visible()
        expect(switch(page)).to_be_checked()
        # the phone put away and taken out again: the browser let the lock go; it is asked again
        page.evaluate("window.__hide()")
        page.evaluate("window.__show()")
        assert wait_for_calls(page, 3) == [f"request screen {sheet}", f"released by the browser {sheet}",
                                           f"request screen {sheet}"]
        page.get_by_role("link", name="+ Add deal 2").click()
        page.wait_for_url(base + form)
        assert wait_for_calls(page, 5)[3:] == [f"release {sheet}", f"request screen {form}"]
        expect(switch(page)).to_be_visible()
        page.get_by_role("link", name="Score sheet").click()  # back without saving
        page.wait_for_url(base + sheet)
        assert wait_for_calls(page, 7)[5:] == [f"release {form}", f"request screen {sheet}"]
        page.goto(base + "/")  # the games list: nothing to keep on
        expect(page.get_by_role("heading", name="Games")).to_be_visible()
        page.wait_for_load_state("load")
        assert calls(page)[7:] == [f"release {sheet}"]
        assert switch(page).count() == 0
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_the_switch_turns_it_off_and_the_phone_remembers(browser, served, size):
    base, game_id = served
    sheet, form = f"/games/{game_id}", f"/games/{game_id}/deals/new"
    page = phone(browser, size)
    try:
        page.goto(base + form)
        assert wait_for_calls(page, 1) == [f"request screen {form}"]
        switch(page).click()
        assert wait_for_calls(page, 2)[1:] == [f"release {form}"]
        expect(switch(page)).not_to_be_checked()
        # off on every page of this phone from now on, the sheet too
        page.reload()
        expect(switch(page)).to_be_visible()
        expect(switch(page)).not_to_be_checked()
        page.goto(base + sheet)
        expect(switch(page)).not_to_be_checked()
        page.evaluate("window.__hide()")
        page.evaluate("window.__show()")  # shown again: still nothing asked
        page.goto(base + form)
        expect(switch(page)).not_to_be_checked()
        assert calls(page) == [f"request screen {form}", f"release {form}"]
        switch(page).click()  # on again
        assert wait_for_calls(page, 3)[2:] == [f"request screen {form}"]
        page.goto(base + sheet)
        expect(switch(page)).to_be_checked()
        assert wait_for_calls(page, 5)[3:] == [f"release {form}", f"request screen {sheet}"]
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_without_a_wake_lock_no_switch_and_no_error(browser, served, size):
    base, game_id = served
    page = phone(browser, size, script=NO_WAKE_LOCK)
    try:
        for path in (f"/games/{game_id}", f"/games/{game_id}/deals/new"):
            page.goto(base + path)
            page.wait_for_load_state("load")
            assert page.evaluate("'wakeLock' in navigator") is False
            assert page.locator("[data-wake-lock]").count() == 1
            expect(page.locator("[data-wake-lock]")).to_be_hidden()
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()


#: Scrolled to the end of the page: whether a fixed bar at the bottom covers the foot of
#: the switch's label, and whether the page fits its width (:func:`no_sideways_scroll`)
AT_THE_END = """() => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  const label = document.querySelector("[data-wake-lock] label").getBoundingClientRect();
  const y = label.y + label.height;
  return {covered: [...document.querySelectorAll('.action-bar, .undo, .sheet-bar')]
            .filter((bar) => getComputedStyle(bar).position === 'fixed')
            .some((bar) => { const r = bar.getBoundingClientRect(); return r.height > 0 && r.top < y; }),
          fits: FITS_WIDTH};
}""".replace("FITS_WIDTH", FITS_WIDTH)


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
@pytest.mark.parametrize("language", list(LOCALES))
def test_the_switch_in_every_language(browser, served, size, language):
    """The switch at the foot of the sheet and of the deal form, clear of the bars at the
    bottom once scrolled to the end, in each language."""
    base, game_id = served
    page = phone(browser, size, locale=language)
    try:
        for name, path in (("sheet", f"/games/{game_id}"), ("form", f"/games/{game_id}/deals/new")):
            page.goto(base + path)
            expect(page.locator("[data-wake-lock]")).to_be_visible()
            seen = page.evaluate(AT_THE_END)
            assert not seen["covered"], f"the switch on the {name} is under a bar at the bottom"
            assert seen["fits"]  # no sideways scroll
            shot(page, f"wake-{name}-{language}-{size[0]}", full_page=False)  # what the phone shows
            shot(page, f"wake-{name}-{language}-{size[0]}-full")
    finally:
        page.context.close()
