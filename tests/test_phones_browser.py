"""Every browser test starts from a phone as new (tests/browser_support.py, new_page),
though a phone left by the test before is reset for it rather than made anew: nothing
the last test left on it (the app's drafts and outbox in localStorage, the tab's
sessionStorage, kept pages in Cache Storage, IndexedDB, the group's cookie, the network
switched off, dark colours, another size, the pages it went back from) reaches the next
one, and a phone given what a reset does not undo (a route) is never handed on."""

from __future__ import annotations

import pytest

from tests.browser_support import new_page, serve

pytestmark = pytest.mark.browser

#: What a page shows of the phone it is on
LOOK = """async () => ({
  local: localStorage.length,
  session: sessionStorage.length,
  kept: (await caches.keys()).length,
  databases: (await indexedDB.databases()).length,
  cookie: document.cookie,
  online: navigator.onLine,
  dark: matchMedia("(prefers-color-scheme: dark)").matches,
  width: innerWidth,
  history: history.length,
})"""

#: What a test can leave on a phone's pages
LEAVE = """async () => {
  localStorage.setItem("draft", "1");
  sessionStorage.setItem("taps", "7");
  document.cookie = "left=1";
  await (await caches.open("pages")).put("/kept", new Response("a sheet"));
  await new Promise((done) => {
    const opening = indexedDB.open("outbox");
    opening.onupgradeneeded = () => opening.result.createObjectStore("deals");
    opening.onsuccess = () => { opening.result.close(); done(); };
  });
}"""


def test_a_phone_handed_to_the_next_test_keeps_nothing_of_the_last(browser, tmp_path):
    with serve(tmp_path / "phones.sqlite3") as url:
        new = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True, service_workers="block")
        try:
            fresh = new.new_page()
            fresh.goto(url + "/offline")
            as_new = fresh.evaluate(LOOK)
        finally:
            new.close()
        assert as_new["local"] == as_new["kept"] == as_new["databases"] == 0 and as_new["online"]

        page = new_page(browser)
        left = page.context
        page.goto(url + "/offline")
        page.evaluate(LEAVE)
        page.goto(url + "/")
        left.new_page().goto(url + "/offline")
        page.emulate_media(color_scheme="dark")
        page.set_viewport_size({"width": 700, "height": 900})
        left.set_offline(True)
        before = page.evaluate(LOOK)
        assert before["local"] == before["session"] == before["kept"] == before["databases"] == 1
        assert not before["online"] and before["dark"] and before["width"] == 700 and before["history"] > 1
        left.close()

        page = new_page(browser)
        try:
            assert page.context is left, "the phone the last test left was not handed on"
            assert len(page.context.pages) == 1
            assert page.viewport_size == {"width": 390, "height": 844}
            page.goto(url + "/offline")
            assert page.evaluate(LOOK) == as_new
        finally:
            page.context.close()


def test_a_phone_given_a_route_is_not_handed_on(browser, tmp_path):
    with serve(tmp_path / "phones.sqlite3") as url:
        page = new_page(browser)
        routed = page.context
        page.route(url + "/", lambda route: route.fulfill(body="not the app"))
        page.goto(url + "/")
        assert page.content().count("not the app") == 1
        routed.close()

        page = new_page(browser)
        try:
            assert page.context is not routed
            page.goto(url + "/")
            assert "not the app" not in page.content()
        finally:
            page.context.close()
