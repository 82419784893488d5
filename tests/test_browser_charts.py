"""The charts, past games and player pages in headless Chromium on a phone (390 × 844 and
360 wide): screenshots into screenshots/ (look at them), no sideways scrolling, nothing
fetched from anywhere but the app, and dates in the viewer's time zone.
"""

from __future__ import annotations

import pytest

from tests.browser_support import BOX, FITS_WIDTH, shot, sync_api
from tests.browser_support import new_page as _page
from tests.history import G1, KINGDOM, store_history

pytestmark = pytest.mark.browser

LONG_NAMES = ["Anna-Maria Katariina", "Bartholomew", "Christophoros", "Dorothea Wilhelmina"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app on 127.0.0.1 (a free port), its database holding tests/history.py, a second
    finished Trigami game (so Anna's results chart has a line) and a Trix game with four
    long names: (base URL, {"G1": id, …, "long": id})."""
    from scorekeeper import store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.browser_support import serve
    from tests.conftest import game_file

    path = tmp_path_factory.mktemp("charts") / "charts.sqlite3"
    serving = serve(path)
    url = serving.__enter__()
    db = connect(str(path))

    def make(**kwargs):
        return store.create_game(db, from_dict(game_file(**kwargs)))

    ids = store_history(make)
    ids["again"] = make(**{**G1, "options": {"target": 100}, "deals": [
        {"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [0, 13, 0], "bugs": [0, 10, 0]}]})
    ids["long"] = make(kind="trix", players=LONG_NAMES, deals=KINGDOM * 2 + KINGDOM[:3])
    db.conn.close()
    yield url, ids
    serving.__exit__(None, None, None)


def requests_of(page) -> list[str]:
    """Every address the page asks for, filled in as it loads (all should be the app's)."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    return seen


#: The first chart ``selector`` finds, once shown, read in one call: its box (:data:`BOX`),
#: whether the page fits its width (:data:`FITS_WIDTH`), how many lines the game chart
#: draws and how many lines each of its legend's totals takes (a Range's rectangles: one
#: a line it spans)
CHART_SEEN = f"""(chart) => ({{box: ({BOX})(chart), fits: {FITS_WIDTH},
  lines: document.querySelectorAll("figure.game-chart svg .series .line").length,
  totalLines: Array.from(document.querySelectorAll("figure.game-chart .chart-legend b"), (b) => {{
    const r = document.createRange(); r.selectNodeContents(b); return r.getClientRects().length; }})}})"""


def chart_seen(page, selector: str = "figure.game-chart svg.chart-svg") -> dict:
    """The chart once it shows, and the page around it (:data:`CHART_SEEN`)."""
    chart = page.locator(selector).first
    sync_api.expect(chart).to_be_visible()
    return chart.evaluate(CHART_SEEN)


def test_game_chart_on_a_phone(browser, server):
    base, ids = server
    page = _page(browser)
    requests = requests_of(page)
    page.goto(f"{base}/games/{ids['G4']}")
    seen = chart_seen(page)
    box = seen["box"]
    # the chart fills the phone's width (less the page's margins) and stays on screen
    assert 330 <= box["width"] <= 390 and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert 200 <= box["height"] <= 300
    assert seen["lines"] == 4
    sync_api.expect(page.locator("figure.game-chart .chart-legend li")).to_have_count(4)
    assert seen["fits"]  # no sideways scroll
    page.locator("figure.game-chart").scroll_into_view_if_needed()
    shot(page, "charts-1-trix-sheet")
    page.goto(f"{base}/games/{ids['G1']}")
    sync_api.expect(page.locator("figure.game-chart svg.chart-svg").first).to_be_visible()
    shot(page, "charts-2-trigami-sheet")
    assert all(url.startswith((base, "data:")) for url in requests), requests
    page.context.close()


def test_game_chart_in_the_dark(browser, server):
    base, ids = server
    page = _page(browser, color_scheme="dark")
    context = page.context
    page.goto(f"{base}/games/{ids['G3']}")
    chart = page.locator("figure.game-chart svg.chart-svg").first
    sync_api.expect(chart).to_be_visible()
    # the axis labels take the page's ink, light on the dark background
    fill = chart.evaluate("() => getComputedStyle(document.querySelector('figure.game-chart svg .axis text')).fill")
    assert fill in ("rgb(236, 235, 230)",), fill
    shot(page, "charts-3-sheet-dark")
    context.close()


def test_player_page_on_a_phone(browser, server):
    base, ids = server
    page = _page(browser)
    requests = requests_of(page)
    page.goto(f"{base}/players")
    assert page.evaluate(FITS_WIDTH)  # no sideways scroll
    shot(page, "charts-4-players")
    page.locator(".players-table").get_by_role("link", name="Anna", exact=True).click()
    sync_api.expect(page.locator("h1")).to_have_text("Anna")
    # Trigami: two finished games, so a results chart; Trix: one, so none yet
    sync_api.expect(page.locator("figure.results-chart")).to_have_count(1)
    assert chart_seen(page, "figure.results-chart svg.chart-svg")["fits"]  # no sideways scroll
    shot(page, "charts-5-player-anna")
    # a figure's number leads to its games: Doublets made → G1 only
    page.locator('[data-figure="trigami.doublets.made"]').click()
    sync_api.expect(page.locator(".figure-banner")).to_contain_text("Doublets made")
    sync_api.expect(page.locator(".game-card")).to_have_count(1)
    assert page.locator(f'a[href="/games/{ids["G1"]}"]').count() == 1
    shot(page, "charts-6-figure-games")
    assert all(url.startswith((base, "data:")) for url in requests), requests
    page.context.close()


def test_a_dot_on_the_results_chart_opens_its_game(browser, server):
    base, ids = server
    page = _page(browser)
    page.goto(f"{base}/players/1")
    page.locator("figure.results-chart svg a").first.dispatch_event("click")
    page.wait_for_url(f"{base}/games/{ids['G1']}")
    page.context.close()


def test_small_phone_past_games_and_long_names(browser, server):
    base, ids = server
    page = _page(browser, width=360, height=740)
    page.goto(f"{base}/")
    page.get_by_text("Find past games").click()
    page.select_option("#kind", "trix")
    page.get_by_role("button", name="Show games").click()
    sync_api.expect(page.locator("#unfinished .game-card")).to_have_count(2)
    sync_api.expect(page.locator("#finished .game-card")).to_have_count(1)
    assert page.evaluate(FITS_WIDTH)  # no sideways scroll
    shot(page, "charts-7-home-filtered-360")
    page.locator("#unfinished .carry-on").first.click()
    page.wait_for_url(f"{base}/games/{ids['long']}#latest")
    assert chart_seen(page)["fits"]  # no sideways scroll
    shot(page, "charts-8-long-names-360")
    for player in range(1, 9):
        page.goto(f"{base}/players/{player}")
        assert page.evaluate(FITS_WIDTH), player  # no sideways scroll (the page loaded: goto waits)
    page.context.close()


def test_a_name_of_forty_letters_leaves_the_legends_totals_whole(browser, tmp_path):
    """Tester 1 (stop 31): beside a 40-letter name with no space, the chart legend's
    totals wrapped digit by digit at 360 px ("25" read as a 2 above a 5). Each total
    stays on one line, and the page does not scroll sideways."""
    from scorekeeper import store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.browser_support import serve
    from tests.conftest import game_file

    path = tmp_path / "wide.sqlite3"
    with serve(path) as base:
        db = connect(str(path))
        game_id = store.create_game(db, from_dict(game_file(
            kind="trix", players=["W" * 40, "Ben", "Carla", "Dan"], deals=KINGDOM[4:])))  # 200, 150, 100, 50
        db.conn.close()
        page = _page(browser, width=360, height=740)
        page.goto(f"{base}/games/{game_id}")
        chart = page.locator("figure.game-chart svg.chart-svg").first
        sync_api.expect(chart).to_be_visible()
        totals = page.locator("figure.game-chart .chart-legend b")
        sync_api.expect(totals).to_have_count(4)
        # each total's text in one line box (a Range's rectangles: one a line it spans),
        # read with the page's fit
        seen = chart.evaluate(CHART_SEEN)
        assert seen["totalLines"] == [1, 1, 1, 1], seen["totalLines"]
        assert seen["fits"]  # no sideways scroll
        shot(page, "charts-9-forty-letters-360")
        page.context.close()


def test_dates_in_the_viewers_time_zone(browser, server):
    base, _ids = server
    page = _page(browser, javascript=False)
    page.goto(f"{base}/")
    sync_api.expect(page.locator("time[data-local-time]").first).to_contain_text("UTC")
    page.context.close()
    page = _page(browser)
    page.goto(f"{base}/")
    sync_api.expect(page.locator("time[data-local-time]").first).not_to_contain_text("UTC")
    # the filter form sends the viewer's zone, so days are the viewer's days
    page.get_by_text("Find past games").click()
    page.get_by_role("button", name="Show games").click()
    assert "tz=" in page.url
    page.context.close()


def test_a_game_cards_kind_is_never_broken_beside_a_long_date(browser, tmp_path):
    """Tester 2 (stop 31): on the games list at 390 px, two imported games of one day
    (their cards say "Imported Dec 4, 2026, 08:09 PM") showed their kind as "Trigam" over
    "i". The kind stays whole; the date wraps instead."""
    from scorekeeper import store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.browser_support import serve
    from tests.conftest import WORKED_TRIGAMI_DEAL, game_file

    path = tmp_path / "cards.sqlite3"
    with serve(path) as base:
        db = connect(str(path))
        for deals in ([WORKED_TRIGAMI_DEAL], [{**WORKED_TRIGAMI_DEAL, "tricks": [5, 4, 4]}]):
            store.import_game(db, from_dict(game_file(deals=deals)))
        db.conn.close()
        for width, height in ((390, 844), (360, 740)):
            page = _page(browser, width=width, height=height)
            page.goto(f"{base}/")
            kinds = page.locator(".game-card-head strong")
            sync_api.expect(kinds).to_have_count(2)
            sync_api.expect(page.locator(".game-card-when").first).to_contain_text("Imported")
            lines = kinds.evaluate_all("(ks) => ks.map((k) => { const r = document.createRange();"
                                       " r.selectNodeContents(k); return r.getClientRects().length; })")
            assert lines == [1, 1], (width, lines)
            shot(page, f"cards-imported-{width}")
            page.context.close()
