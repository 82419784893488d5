"""What every browser test shares: the system's Chromium, a served app, phone-sized pages,
screenshots. Importing this module skips the importing test module when there is no
Chromium (and fails instead when SCOREKEEPER_REQUIRE_BROWSER is set, as in CI).

Never a downloaded browser: CHROMIUM, else `chromium-headless-shell` (Debian's package of
that name: Chromium's headless shell, as Playwright's own headless mode runs), else
`chromium`, on the PATH or in /usr/bin.
"""

from __future__ import annotations

import itertools
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

#: The headless shell (Debian's chromium-headless-shell) before the full browser: the same
#: engine without the browser's window and its own pages, the suite's browser tests in half
#: the time (measured: 920 s of tests against 1,600 s on 2 cores)
CHROMIUM = (os.environ.get("CHROMIUM") or shutil.which("chromium-headless-shell") or shutil.which("chromium")
            or next((p for p in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(p).exists()),
                    "/usr/bin/chromium"))
SHOTS = Path(__file__).resolve().parent.parent / "screenshots"
#: Whether the browser tests save their screenshots (SCREENSHOTS=1; ``make screenshots``).
#: Off by default: nobody opens them in CI or in a run before a commit, and a full-page
#: capture cost the browser about a third of its CPU time in the deal-entry, whole-game
#: and same-deal tests (measured: docs/architecture.md, "Where the suite's time goes").
#: Every assertion runs either way.
SCREENSHOTS = os.environ.get("SCREENSHOTS", "") not in ("", "0")
#: /dev/shm is small in containers; Chromium then fails now and then to draw a screenshot
#: ("Unable to capture screenshot"), so it keeps its shared memory in /tmp.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
#: The oldest Chromium (major version) the tests without connection run on: Chromium 150
#: takes a phone off the network (Playwright's set_offline) but a page opened afterwards
#: says it is online (navigator.onLine), as no phone does; 156 keeps it offline
OFFLINE_CHROMIUM = 156
#: Chromium's answer when it cannot draw one capture; the same capture asked again a moment
#: later is taken (seen in CI on a busy machine, and reported for Chromium elsewhere).
_TRANSIENT_CAPTURE = "Unable to capture screenshot"

if not Path(CHROMIUM).exists():
    if os.environ.get("SCOREKEEPER_REQUIRE_BROWSER"):
        raise RuntimeError(f"no Chromium at {CHROMIUM}: CI must run the browser tests")
    pytest.skip("no system Chromium: install it (apt-get install chromium-headless-shell) or set CHROMIUM=/path",
                allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


#: The apps being served: {URL: (cookie name, the session cookie of a phone that opened its
#: group's link)}. Each app has a cookie name of its own: a browser keeps cookies per
#: host, not per port, so two apps served on 127.0.0.1 would overwrite each other's.
_SERVED: dict[str, tuple[str, str]] = {}
_served_count = itertools.count(1)


@contextmanager
def serve(database: Path | str, make_group: bool = True, **config: Any) -> Iterator[str]:
    """The app on 127.0.0.1 (a free port) from a thread, on ``database``, with ``config``
    added to its configuration; yields its URL. Every page from :func:`new_page` is a phone
    that has opened its group's link (the only group, made if there is none; with
    ``make_group`` False, a new database stays without one, as on a fresh install)."""
    from werkzeug.serving import make_server

    from scorekeeper import create_app, groups
    from scorekeeper.db import connect
    from tests.database_support import new_database

    cookie_name = f"session{next(_served_count)}"
    app = create_app({"SECRET_KEY": "browser-tests-" + "k" * 32, "DATABASE": new_database(database), "SESSION_COOKIE_NAME": cookie_name,
                      **config})
    db = connect(str(database))
    try:
        token = groups.only_group(db).token if make_group else None
    finally:
        db.conn.close()
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_port}"
    if token:
        _SERVED[url] = (cookie_name, app.session_interface.get_signing_serializer(app).dumps(
            {"link": token, "_permanent": True}))
    try:
        yield url
    finally:
        _SERVED.pop(url, None)
        httpd.shutdown()
        httpd.server_close()  # the listening socket, not left to the garbage collector


#: A phone's locale for each of the app's languages (its Accept-Language, dates, digits)
PHONE_LOCALES = {"en": "en-GB", "de": "de-DE", "fi": "fi-FI", "ar": "ar-EG"}


@contextmanager
def served_to_play(database: Path | str) -> Iterator[tuple[str, Any, Any]]:
    """The app served on ``database`` (:func:`serve`), and what a test plays games through
    on the same database before its phones look: yields (the URL, a test client of the
    app with CSRF off, a connection to the database, closed afterwards)."""
    from scorekeeper import create_app
    from scorekeeper.db import connect

    with serve(database) as url:
        app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(database), "WTF_CSRF_ENABLED": False})
        db = connect(str(database))
        try:
            yield url, app.test_client(), db
        finally:
            db.conn.close()


def group_token(database: Path | str) -> str:
    """The play link's token of the only group of ``database``."""
    from scorekeeper import groups
    from scorekeeper.db import connect

    db = connect(str(database))
    try:
        return groups.only_group(db).token or ""
    finally:
        db.conn.close()


def store_game(database: Path | str, data: dict[str, Any]) -> str:
    """Store a game file dict in ``database``; returns the game's id."""
    from scorekeeper import store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict

    db = connect(str(database))
    try:
        return store.create_game(db, from_dict(data))
    finally:
        db.conn.close()


#: The nine players of the club nights the browser tests serve (:func:`served_night`)
NINE = ["Aino", "Bruno", "Carla", "Dmitri", "Eeva", "Farid", "Greta", "Hamid", "Ilse"]


@contextmanager
def served_night(database: Path | str, rounds: int) -> Iterator[tuple[str, Any, Any]]:
    """The app served on ``database`` (:func:`serve`) with a Trigami night of :data:`NINE`
    (three tables, target 500, ``rounds`` rounds, seated at random with a fixed seed)
    started in its only group: yields (the URL, the night as stored, the group)."""
    from scorekeeper import groups, night_actions, night_store
    from scorekeeper.db import connect

    with serve(database) as url:
        db = connect(str(database))
        try:
            group = groups.only_group(db)
            started = night_actions.start_night(db, group.id, kind="trigami", options={"target": 500},
                                                players=NINE, rounds=rounds, ranking="placings",
                                                seating="random", name="Friday club", seed=7)
            assert isinstance(started, night_actions.NightStarted)
            night = night_store.get_night(db, started.night_id)
        finally:
            db.conn.close()
        yield url, night, group


def joined(url: str) -> Any:
    """A urllib request for ``url`` from a phone that has opened the group's link of the
    app served there (:func:`serve`)."""
    from urllib.request import Request

    request = Request(url)
    for base, (name, cookie) in _SERVED.items():
        if url.startswith(base + "/"):
            request.add_header("Cookie", f"{name}={cookie}")
    return request


@contextmanager
def launch() -> Iterator[Any]:
    """The system's Chromium, headless (the conftest's ``browser`` fixture)."""
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


#: What a test can add to a phone (a browser context) or its page that Playwright's reset
#: for reuse does not take away (routes, scripts run in every page, listeners in the
#: test's Python, permissions …): a phone given one of them is closed after its test, never
#: kept for the next one. (A phone taken off the network is put back on it.)
_KEPT_UNLESS = ("add_init_script", "route", "route_from_har", "route_web_socket", "expose_binding",
                "expose_function", "grant_permissions", "set_geolocation",
                "set_extra_http_headers", "on", "once", "add_locator_handler", "new_cdp_session")


class _Phone:
    """A test's phone: a browser context with what the tests know of it besides
    Playwright's own state (the links it opened, the origins its pages went to)."""

    def __init__(self, context: Any, kept: bool) -> None:
        self.context, self.kept = context, kept
        self.join = True
        self.joined: set[str] = set()  # the served apps whose group link it opened
        self.visited: set[str] = set()  # the origins its pages went to
        self.in_use = False
        self.changed = False  # given something a reset does not take away (_KEPT_UNLESS)
        self.offline = False  # taken off the network by its test
        # Playwright's own, before they are wrapped
        self.close, self.set_offline, self.cdp = context.close, context.set_offline, context.new_cdp_session


#: The phone kept for reuse in each browser (in each xdist worker), while no test holds it
_KEPT: dict[Any, _Phone] = {}


def _spoil_on_change(phone: _Phone, target: Any) -> None:
    """Mark ``phone`` changed when the test calls one of :data:`_KEPT_UNLESS` on
    ``target`` (its context or one of its pages)."""
    for name in _KEPT_UNLESS:
        method = getattr(target, name, None)
        if method is None:
            continue

        def changing(*args: Any, _method: Any = method, **kwargs: Any) -> Any:
            phone.changed = True
            return _method(*args, **kwargs)

        setattr(target, name, changing)


def _phone_of(context: Any, kept: bool) -> _Phone:
    """The :class:`_Phone` of ``context``, set up on its first use: its close() hands a kept
    phone back for the next test (or closes it), its pages join the served apps' groups
    and note where they go, and what a reset does not undo marks it changed."""
    phone = getattr(context, "_scorekeeper_phone", None)
    if phone is not None:
        return phone
    phone = _Phone(context, kept)
    context._scorekeeper_phone = phone

    def close(*args: Any, **kwargs: Any) -> None:
        # Leave each page first: closing a context whose page still polls the server
        # (the live sheet) now and then never returns in headless Chromium; a phone
        # kept for the next test stops polling the same way.
        left = True
        for open_page in context.pages:
            try:
                open_page.goto("about:blank", timeout=5_000)
            except Exception:  # a page already gone, or one that hangs
                left = False
        phone.in_use = False
        if phone.kept and left and not phone.changed and not args and not kwargs:
            return
        if _KEPT.get(context.browser) is phone:
            del _KEPT[context.browser]
        phone.close(*args, **kwargs)

    context.close = close
    making = context.new_page

    def new_joined_page(*args: Any, **kwargs: Any) -> Any:
        return _set_up_page(phone, making(*args, **kwargs))

    context.new_page = new_joined_page

    def set_offline(offline: bool) -> None:
        phone.offline = offline
        phone.set_offline(offline)

    context.set_offline = set_offline
    _spoil_on_change(phone, context)
    return phone


def _set_up_page(phone: _Phone, page: Any) -> Any:
    """``page`` of ``phone`` set up once: each goto first joins the groups of the apps
    served since, and notes the origin; screenshots asked again when Chromium refuses one
    on a busy machine; what a reset does not undo marks the phone changed."""
    if getattr(page, "_scorekeeper_phone", None) is phone:
        return page
    page._scorekeeper_phone = phone
    going = page.goto

    def goto(url: str, *args: Any, **kwargs: Any) -> Any:
        _join_served(phone)
        if url.startswith(("http://", "https://")):
            phone.visited.add("/".join(url.split("/", 3)[:3]))
        return going(url, *args, **kwargs)

    page.goto = goto
    capturing = page.screenshot

    def screenshot(*args: Any, **kwargs: Any) -> Any:
        # Chromium now and then refuses one capture on a busy machine: ask up to three times.
        for attempt in range(3):
            try:
                return capturing(*args, **kwargs)
            except sync_api.Error as refused:
                if _TRANSIENT_CAPTURE not in str(refused) or attempt == 2:
                    raise
                page.wait_for_timeout(200)
        raise AssertionError("unreachable")

    page.screenshot = screenshot
    _spoil_on_change(phone, page)
    return page


def _join_served(phone: _Phone) -> None:
    """The phone opens the group's link of every app served now that it has not opened
    (a page made before its test's server started joins on its first visit)."""
    fresh = {url: cookie for url, cookie in _SERVED.items() if url not in phone.joined}
    if phone.join and fresh:
        phone.context.add_cookies([{"name": name, "value": cookie, "url": url, "httpOnly": True}
                                   for url, (name, cookie) in fresh.items()])
        phone.joined.update(fresh)


def _kept_phone(browser: Any, options: dict[str, Any]) -> _Phone | None:
    """The browser's kept phone, reset as new for a test by Playwright (the context reuse
    of Playwright Test: its pages but one closed, that one on about:blank, its cookies,
    storage of every origin, HTTP cache, viewport, colours and clock reset; a new context
    when ``options`` differ from the kept one's), with its Cache Storage and its page's
    history cleared too; None while another phone of the test holds it, or where this
    Playwright has no reuse (then every phone is a new context)."""
    held = _KEPT.get(browser)
    if held is not None and held.in_use:
        return None
    try:
        from playwright._impl.browser_context import to_options
        from playwright.sync_api._generated import mapping

        reusing = browser._impl_obj._new_context_for_reuse
    except (ImportError, AttributeError):
        return None
    context = mapping.from_impl(browser._sync(reusing(to_options(**options))))
    phone = _phone_of(context, kept=True)
    _KEPT[browser] = phone
    page = context.pages[0] if context.pages else context.new_page()
    session = phone.cdp(page)  # Playwright's own: not a change by a test
    try:
        for origin in phone.visited:  # what Playwright's reset leaves: the pages' Cache Storage
            session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        session.send("Page.resetNavigationHistory")
    finally:
        session.detach()
    phone.visited.clear()
    if phone.offline:
        phone.set_offline(False)
        phone.offline = False
    page.set_viewport_size(options["viewport"])  # the page's viewport_size as reset
    page.mouse.move(0, 0)  # nothing left hovered
    return phone


def hand_back_left_phone() -> bool:
    """After a test: a kept phone its test left open (never closed: its page still
    polling) is closed for real, so the next test's phone does not depend on what ran
    before it in the worker. True when there was one."""
    left = [phone for phone in _KEPT.values() if phone.in_use]
    for phone in left:
        phone.changed = True
        phone.context.close()
    return bool(left)


def new_page(browser, width: int = 390, height: int = 844, javascript: bool = True,
             service_workers: str = "block", color_scheme: str = "light", join: bool = True,
             locale: str | None = None, timezone_id: str | None = None):
    """A phone-sized page in a phone as new (close it with page.context.close()).

    The phone is the browser's kept one when it is free, reset as new (:func:`_kept_phone`:
    a new browser context cost Chromium 150–600 ms of CPU, a reset one a third of that),
    else a new context; it is closed instead of kept when its test added what a reset does
    not take away (:data:`_KEPT_UNLESS`).

    ``service_workers``: "block" (the default: as on plain http on the Wi-Fi, where
    browsers run none) or "allow", for the tests of the app without connection (always a
    new context). Blocked elsewhere because a service worker that keeps pages can wedge
    Chromium under automation when a test navigates while its fetches are in flight,
    hanging the run.
    ``join``: the phone has opened the group link of every app being served (serve); False:
    a phone with no link. ``locale``: the phone's language ("ar-EG": its Accept-Language,
    dates and times), else the browser's default (en-US). ``timezone_id``: the phone's
    time zone ("Europe/Helsinki"), else the machine's."""
    if service_workers == "allow" and int(browser.version.split(".")[0]) < OFFLINE_CHROMIUM:
        pytest.fail(f"Chromium {browser.version} is too old for the tests without connection: a page it opens "
                    "off the network says it is online (navigator.onLine), so the app never says it is offline. "
                    f"Chromium {OFFLINE_CHROMIUM} and newer do not: apt-get update, then apt-get install "
                    "chromium-headless-shell (a machine's old package lists give Debian's Chromium 150)")
    options = {"viewport": {"width": width, "height": height}, "device_scale_factor": 2, "is_mobile": True,
               "has_touch": True, "java_script_enabled": javascript, "service_workers": service_workers,
               "color_scheme": color_scheme, **({"locale": locale} if locale else {}),
               **({"timezone_id": timezone_id} if timezone_id else {})}
    phone = _kept_phone(browser, options) if service_workers == "block" else None
    if phone is None:
        phone = _phone_of(browser.new_context(**options), kept=False)
    phone.in_use, phone.join = True, join
    phone.joined.clear()
    _join_served(phone)
    context = phone.context
    page = context.pages[0] if context.pages else context.new_page()
    page.set_default_timeout(10_000)
    return page


def sheet_and_form_kept(page: Any) -> None:
    """Wait (at most 15 s each) until the service worker runs the score sheet open on
    ``page`` (a first visit: it may have claimed the page already) and has kept the sheet
    and its add-deal form for the road. (page.evaluate awaits the check; wait_for_function
    would take its promise for a yes.)"""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15_000)
    for _ in range(150):
        if page.evaluate("""async () => {
            const add = document.querySelector("[data-add-url]").dataset.addUrl;
            const kept = async (path) => Boolean(await caches.match(path, { ignoreVary: true }));
            return await kept(location.pathname) && await kept(add);
        }"""):
            return
        page.wait_for_timeout(100)
    pytest.fail("the sheet and its add-deal form were never kept")


def go_offline(context: Any, probe: str) -> None:
    """Take the phone ``context`` off the network, and wait until its pages and its service
    worker all are: Playwright applies the switch to a service worker a moment after the
    pages, and on a busy machine a request of the worker's (or a page's ``online`` event
    seen late) could still reach the server meanwhile. ``probe``: an address of the served
    app whose fetch fails once off the network (one no service worker answers from its
    copies: a game's /live)."""
    context.set_offline(True)
    failing = "(url) => fetch(url, {cache: 'no-store'}).then(() => false, () => true)"
    for _attempt in range(100):
        if (all(page.evaluate("() => navigator.onLine === false") and page.evaluate(failing, probe)
                for page in context.pages)
                and all(worker.evaluate(failing, probe) for worker in context.service_workers)):
            return
        context.pages[0].wait_for_timeout(100)
    raise AssertionError("the phone never went off the network")


def shot(what: Any, name: str, full_page: bool = True) -> None:
    """A screenshot into screenshots/NAME.png, to open and look at: of a page, the whole
    page, or with ``full_page=False`` the phone's screen as it shows now; of one element
    (a Locator), that element. Taken only when asked (:data:`SCREENSHOTS`: ``make
    screenshots``, or SCREENSHOTS=1 before any test command)."""
    if not SCREENSHOTS:
        return
    SHOTS.mkdir(exist_ok=True)
    path = str(SHOTS / f"{name}.png")
    if isinstance(what, sync_api.Locator):
        what.screenshot(path=path)
    else:
        what.screenshot(path=path, full_page=full_page)


#: The words of the cells a selector finds, each wider than its cell's room for text
#: (a word broken across two lines: "Finishin / g order", "Trick / s"), with its width
#: and the room. A name (in <bdi>) may break anywhere, and is left out; a word may break
#: at a soft hyphen (the Finnish "Hertta-/kuningas"), so each part counts; a <mark>'s own
#: padding takes room too.
_WORDS_CUT = """(selector) => [...document.querySelectorAll(selector)].flatMap((cell) => {
  const style = getComputedStyle(cell);
  const room = cell.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
  const ruler = document.createElement("canvas").getContext("2d");
  ruler.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const copy = cell.cloneNode(true);
  copy.querySelectorAll("bdi").forEach((name) => name.remove());
  const mark = cell.querySelector("mark") ? 2 * 0.2 * parseFloat(style.fontSize) : 0;
  return copy.textContent.trim().split(/[\\s\\u00ad]+/).filter((w) => w && ruler.measureText(w).width + mark > room + 0.5)
    .map((w) => `${w} (${ruler.measureText(w).width.toFixed(1)} px in ${room.toFixed(1)})`);
})"""


def words_cut(page, selector: str) -> list[str]:
    """Each word broken inside itself in the cells ``selector`` finds on ``page``, as
    "word (its width px in the room)" (:data:`_WORDS_CUT`); [] when every word is whole."""
    return page.evaluate(_WORDS_CUT, selector)


#: JavaScript: whether the page fits its width (no sideways scrolling), for a test that
#: reads it with its other measures in one call (:func:`no_sideways_scroll` reads it alone).
#: Against the page's own width (the root's clientWidth: the phone's width), never the
#: window's: a phone (is_mobile) zooms out to a page wider than itself, and its window
#: (innerWidth) grows with the page, so "scrollWidth <= innerWidth" held for a page 337 px
#: wide on a 320 px phone (tester 55's ranking)
FITS_WIDTH = "document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
#: JavaScript: a function giving an element's box as Playwright's ``bounding_box`` does,
#: {x, y, width, height} in the page's viewport, or null for an element shown nowhere
BOX = """(e) => {
  if (!e || !e.getClientRects().length) return null;
  const r = e.getBoundingClientRect();
  return {x: r.x, y: r.y, width: r.width, height: r.height};
}"""


def no_sideways_scroll(page) -> bool:
    """Whether the page, once loaded, fits its width (no sideways scrolling). Waits for the
    page a click has just opened: measured mid-navigation there is no document yet."""
    for attempt in range(3):
        page.wait_for_load_state()
        try:
            fits = page.evaluate(f"document.documentElement === null ? null : {FITS_WIDTH}")
        except sync_api.Error as lost:  # the click's navigation replaced the document
            if "context was destroyed" not in str(lost) or attempt == 2:
                raise
            continue
        if fits is not None:
            return bool(fits)
        page.wait_for_timeout(100)
    raise AssertionError("the page never loaded a document to measure")


def fill_worked_example(page) -> None:
    """Fill in SCORING.md §1.2's worked example on an open Trigami deal form (or the
    calculator): turnip ♦; Anna Turnip 4 tricks 1 bug, Ben Doublets ♠ 5 tricks no bug,
    Carla ♥ 4 tricks 3 bugs → 80, 200, 13."""
    cards = page.locator(".seat-card")
    cards.nth(0).get_by_text("Turnip", exact=True).click()
    cards.nth(1).get_by_role("img", name="spades").click()
    cards.nth(1).get_by_text("Doublets").click()
    cards.nth(2).get_by_role("img", name="hearts").click()
    page.fill("#tricks_0", "4")
    page.fill("#tricks_1", "5")
    page.fill("#bugs_0", "1")
    page.fill("#bugs_2", "3")
    page.locator(".suit-chips").get_by_role("img", name="diamonds").click()
