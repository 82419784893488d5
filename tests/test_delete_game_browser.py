"""Deleting a game and restoring it on a phone (issue 18, part 1), in headless Chromium at
390×844 and 360×740: delete a game started by mistake and Undo; delete a finished game
and restore it from the group's Deleted games list; the players' counts and statistics
checked before and after, worked out by hand from the games made here.

Screenshots: screenshots/delete-game-*.png (the confirmation page and the Deleted games
list in English, German, Finnish and Arabic, at both sizes) — open them and look.
"""

from __future__ import annotations

import pytest

from tests.a11y_support import Audit, audited_page
from tests.browser_support import new_page, no_sideways_scroll, serve, shot, store_game, sync_api
from tests.conftest import game_file

pytestmark = pytest.mark.browser

expect = sync_api.expect

SIZES = [(390, 844), (360, 740)]

#: Five deals of Anna taking all 13 tricks and 10 bugs under spades: 100 points each
#: (13 × 5 + 10 × 3 + 5, SCORING.md §1.2), so she reaches 500 and wins; Ben and Carla 0
WON = [{"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [13, 0, 0], "bugs": [10, 0, 0]}] * 5


@pytest.fixture
def season(tmp_path):
    """(address, {"won": id, "mistake": id}): a finished game Anna won (Anna, Ben, Carla)
    and, after it, a game started by mistake with no deal (Anna, Ben, Dora)."""
    path = tmp_path / "season.sqlite3"
    with serve(path) as url:
        won = store_game(path, game_file(players=["Anna", "Ben", "Carla"], deals=WON))
        mistake = store_game(path, game_file(players=["Anna", "Ben", "Dora"]))
        yield url, {"won": won, "mistake": mistake}


#: The players list: each row's cells, as read
PLAYER_ROWS = """() => Array.from(document.querySelectorAll(".players-table tbody tr"),
  (row) => Array.from(row.querySelectorAll("th, td"), (cell) => cell.innerText))"""
#: A player's page: the Games, Finished and Won tiles, then the Trigami figures "Deals
#: played" and "Points per deal" (found by their label, as Playwright's has_text finds text)
TILES = """() => {
  const figure = (label) => Array.from(document.querySelectorAll(".stats-kind .stat-tile"))
    .find((tile) => Array.from(tile.querySelectorAll(".stat-label")).some((l) => l.textContent.replace(/\\s+/g, " ").toLowerCase().includes(label.toLowerCase())))
    .querySelector(".stat-value").innerText;
  return [...Array.from(document.querySelector(".tiles-3").querySelectorAll(".stat-value"), (v) => v.innerText),
          figure("Deals played"), figure("Points per deal")];
}"""


def players(page, url: str) -> dict[str, str]:
    """The players list as read: {name: "games · won of finished"}."""
    page.goto(f"{url}/players")
    return {cells[0].strip(): f"{cells[1].strip()} · {' '.join(cells[2].split())}" for cells in page.evaluate(PLAYER_ROWS)}


def tiles(page, url: str, name: str, on_players: bool = False) -> list[str]:
    """A player's page as read: the Games, Finished and Won tiles, then the Trigami
    figures "Deals played" and "Points per deal". ``on_players``: the page shows the
    players list already."""
    if not on_players:
        page.goto(f"{url}/players")
    page.locator(".players-table").get_by_role("link", name=name, exact=True).click()
    # the click only starts the way to the player's page: read its tiles once it is there
    # (read at once, the players list was still on screen and had no tiles)
    expect(page.locator(".tiles-3").first).to_be_visible()
    return page.evaluate(TILES)


def players_and_tiles(page, url: str, name: str) -> tuple[dict[str, str], list[str]]:
    """The players list as read (:func:`players`), then the page of ``name`` opened from it
    (:func:`tiles`)."""
    listed = players(page, url)
    return listed, tiles(page, url, name, on_players=True)


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_delete_a_game_started_by_mistake_and_undo(browser, season, size):
    url, games = season
    page = new_page(browser, *size)
    try:
        assert players(page, url) == {"Anna": "2 · 1 of 1", "Ben": "2 · 0 of 1", "Carla": "1 · 0 of 1",
                                      "Dora": "1 · 0 of 0"}
        page.goto(f"{url}/games/{games['mistake']}")
        shot(page, f"delete-game-sheet-{size[0]}")
        page.get_by_role("link", name="Delete this game").click()
        panel = page.locator(".delete-game")
        expect(panel.get_by_role("heading")).to_have_text("Delete this game?")
        expect(panel.locator(".game-named")).to_contain_text("Trigami")
        expect(panel.locator(".game-named")).to_contain_text("Anna, Ben, Dora")
        expect(panel.locator(".game-named")).to_contain_text("No deals yet")
        expect(panel.locator(".game-named time")).not_to_contain_text("UTC")  # the phone's own time
        assert no_sideways_scroll(page)
        page.get_by_role("button", name="Delete game").click()

        expect(page.locator(".flash-restore")).to_contain_text("deleted.")
        expect(page.locator(".game-list li")).to_have_count(1)  # the finished game only
        expect(page.locator(".game-list")).not_to_contain_text("Dora")
        shot(page, f"delete-game-undo-offered-{size[0]}")
        page.get_by_role("button", name="Undo").click()
        expect(page).to_have_url(f"{url}/games/{games['mistake']}")
        expect(page.locator(".flash")).to_contain_text("restored.")
        page.goto(url)
        expect(page.locator(".game-list li")).to_have_count(2)
        assert players(page, url)["Dora"] == "1 · 0 of 0"

        # deleted, the counts change at once: Anna and Ben lose a game, Dora leaves the list
        page.goto(f"{url}/games/{games['mistake']}/delete")
        page.get_by_role("button", name="Delete game").click()
        expect(page.locator(".flash-restore")).to_be_visible()
        listed, anna = players_and_tiles(page, url, "Anna")
        assert listed == {"Anna": "1 · 1 of 1", "Ben": "1 · 0 of 1", "Carla": "1 · 0 of 1"}
        assert anna == ["1", "1", "1", "5", "+100.0"]
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_restore_a_deleted_game_from_the_deleted_list(browser, season, size):
    url, games = season
    page = new_page(browser, *size)
    other = new_page(browser, *size)  # a second phone at the table
    try:
        assert tiles(page, url, "Anna") == ["2", "1", "1", "5", "+100.0"]
        page.goto(f"{url}/games/{games['won']}")
        page.get_by_role("link", name="Delete this game").click()
        other.goto(f"{url}/games/{games['won']}/delete")
        page.get_by_role("button", name="Delete game").click()
        expect(page.locator(".flash-restore")).to_contain_text("deleted.")
        # the other phone deletes it too: harmless, and it says so
        other.get_by_role("button", name="Delete game").click()
        expect(other.locator(".flash-restore")).to_contain_text("was deleted already")

        # Anna: only the game with no deal is left — played 1, finished 0, won 0, no deal played
        listed, anna = players_and_tiles(page, url, "Anna")
        assert anna == ["1", "0", "0", "0", "–"]
        assert listed == {"Anna": "1 · 0 of 0", "Ben": "1 · 0 of 0", "Dora": "1 · 0 of 0"}

        # its own address says it was deleted, with Restore
        page.goto(f"{url}/games/{games['won']}")
        expect(page.get_by_role("heading", name="This game was deleted")).to_be_visible()
        expect(page.get_by_role("button", name="Restore this game")).to_be_visible()

        page.goto(f"{url}/group")
        page.get_by_role("link", name="Deleted games").click()
        expect(page.locator(".deleted-games li")).to_have_count(1)
        expect(page.locator(".deleted-games")).to_contain_text("Anna, Ben, Carla")
        expect(page.locator(".deleted-games")).to_contain_text("5 deals")
        assert no_sideways_scroll(page)
        page.get_by_role("button", name="Restore: Trigami with Anna, Ben, Carla").click()
        expect(page).to_have_url(f"{url}/games/{games['won']}")
        expect(page.locator(".game-over")).to_contain_text("Anna")
        expect(page.locator("thead .total")).to_have_text(["500", "0", "0"])
        page.get_by_role("link", name="History of changes").click()
        expect(page.locator(".change-title").nth(0)).to_have_text("Game restored:")
        expect(page.locator(".change-title").nth(1)).to_have_text("Game deleted:")

        listed, anna = players_and_tiles(page, url, "Anna")
        assert anna == ["2", "1", "1", "5", "+100.0"]
        assert listed == {"Anna": "2 · 1 of 1", "Ben": "2 · 0 of 1", "Carla": "1 · 0 of 1", "Dora": "1 · 0 of 0"}
        page.goto(f"{url}/games/deleted")
        expect(page.get_by_text("No deleted games.")).to_be_visible()
    finally:
        other.context.close()
        page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "de-DE", "fi-FI", "ar-EG"])
def test_the_confirmation_and_the_deleted_list_in_every_language(browser, season, locale):
    url, games = season
    for width, height in SIZES:
        page = new_page(browser, width, height, locale=locale)
        try:
            page.goto(f"{url}/games/{games['won']}/delete")
            expect(page.locator(".delete-game .game-named")).to_contain_text("Carla")
            assert page.locator("html").get_attribute("dir") == ("rtl" if locale == "ar-EG" else "ltr")
            assert no_sideways_scroll(page)
            shot(page, f"delete-game-confirm-{locale}-{width}")
            page.locator(".delete-game button[type=submit]").click()
            expect(page.locator(".flash-restore")).to_be_visible()
            page.goto(f"{url}/games/deleted")
            expect(page.locator(".deleted-games li")).to_have_count(1)
            assert no_sideways_scroll(page)
            shot(page, f"delete-game-list-{locale}-{width}")
            page.goto(f"{url}/games/{games['won']}")
            assert no_sideways_scroll(page)
            shot(page, f"delete-game-deleted-page-{locale}-{width}")
            page.locator(".deleted-game button[type=submit]").click()  # restored for the next size
            expect(page.locator(".game-over")).to_be_visible()
        finally:
            page.context.close()


def test_the_deleted_pages_meet_wcag_22_aa(browser, season):
    """axe (WCAG 2.2 AA) and the measured contrasts of tests/test_a11y_browser.py on the
    pages its crawl cannot reach: a deleted game's own page, the Deleted games list with a
    game in it, and the games list with the Undo offered."""
    url, games = season
    page = audited_page(browser)
    audit = Audit(page)
    try:
        audit.visit(url, f"/games/{games['won']}/delete")
        page.locator(".delete-game button[type=submit]").click()
        expect(page.locator(".flash-restore")).to_be_visible()
        audit("/ with Undo")
        audit.visit(url, "/games/deleted")
        audit.visit(url, f"/games/{games['won']}")
        assert audit.checked == 4
        assert not audit.problems, audit.report()
    finally:
        page.context.close()


LIVE = 10_000  # ms: a page asks every 2 s; slack for a loaded machine


def test_a_deal_being_entered_when_another_phone_deletes_the_game_comes_back_with_it(browser, season):
    """Phone B is entering deal 1 when phone A deletes the game: B's form gives way to
    "This game was deleted", says another phone deleted it and that B's entries are kept
    on B; when A restores the game (Undo), B's form comes back by itself with the entries
    as they were, and B saves the deal."""
    url, games = season
    a, b = new_page(browser), new_page(browser)
    try:
        b.goto(f"{url}/games/{games['mistake']}/deals/new")
        expect(b.get_by_role("heading", name="Deal 1")).to_be_visible()
        b.locator(".seat-card").nth(0).get_by_role("img", name="spades").click()
        b.fill("#tricks_0", "5")
        b.fill("#tricks_1", "4")

        a.goto(f"{url}/games/{games['mistake']}/delete")
        a.get_by_role("button", name="Delete game").click()
        expect(a.locator(".flash-restore")).to_contain_text("deleted.")
        expect(b.get_by_role("heading", name="This game was deleted")).to_be_visible(timeout=LIVE)
        expect(b.locator("[data-deleted-meanwhile]")).to_have_text("Deleted on another phone while deal 1 was being entered on this one.")
        expect(b.locator("[data-draft-kept]")).to_have_text("Your entries for deal 1 are kept on this phone; they come back if the game is restored.")
        shot(b, "delete-game-while-entering")

        a.get_by_role("button", name="Undo").click()
        expect(a.locator(".flash")).to_contain_text("restored.")
        expect(b.get_by_role("heading", name="Deal 1")).to_be_visible(timeout=LIVE)
        expect(b.locator("#tricks_0")).to_have_value("5")
        expect(b.locator("#tricks_1")).to_have_value("4")
        expect(b.locator(".seat-card").nth(0).locator('input[name="bids_0"][value="S"]')).to_be_checked()
        for seat, suit in [(1, "hearts"), (2, "clubs")]:
            b.locator(".seat-card").nth(seat).get_by_role("img", name=suit).click()
        b.get_by_role("button", name="Save deal 1").click()
        expect(b.locator(".flash")).to_contain_text("Deal 1 saved")
        expect(b.locator("tr.deal-row")).to_have_count(1)
    finally:
        b.context.close()
        a.context.close()
