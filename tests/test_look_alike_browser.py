"""Game cards that would look alike show when each game was started (issue 18, part 2),
by the day on the phone, not the server's UTC day: two games of the same players an hour
apart around midnight are one evening at a table in Helsinki. Headless Chromium at
390×844 in the phone's time zone (Europe/Helsinki, UTC+2 in March; and UTC).
"""

from __future__ import annotations

import pytest

from scorekeeper.db import connect
from tests.browser_support import new_page, serve, shot, store_game
from tests.conftest import game_file

pytestmark = pytest.mark.browser

#: Anna, Ben, Carla at 21:30 and 22:30 UTC on 3 March: one UTC day, but 23:30 on the 3rd
#: and 00:30 on the 4th in Helsinki. Anna, Ben, Dora at 23:30 UTC on 5 March and 00:30 on
#: the 6th: two UTC days, but 01:30 and 02:30 on the 6th in Helsinki.
STARTS = [(["Anna", "Ben", "Carla"], "2025-03-03T21:30:00+00:00"),
          (["Anna", "Ben", "Carla"], "2025-03-03T22:30:00+00:00"),
          (["Anna", "Ben", "Dora"], "2025-03-05T23:30:00+00:00"),
          (["Anna", "Ben", "Dora"], "2025-03-06T00:30:00+00:00")]


@pytest.fixture
def season(tmp_path):
    path = tmp_path / "alike.sqlite3"
    with serve(path) as url:
        db = connect(str(path))
        try:
            for players, started in STARTS:
                db["games"].update(store_game(path, game_file(players=players)), {"created_at": started})
        finally:
            db.conn.close()
        yield url


def cards(browser, url: str, zone: str) -> dict[str, str]:
    """Each card's start as the phone shows it: {stored UTC time: the text on the card}."""
    page = new_page(browser, timezone_id=zone)
    try:
        page.goto(f"{url}/")
        page.wait_for_function("() => !document.querySelector('time[data-alike]').textContent.includes('UTC')")
        shot(page, f"look-alike-{zone.replace('/', '-')}")
        # every card's stored time and the text shown for it, in one call
        return dict(page.evaluate("""Array.from(document.querySelectorAll(".game-card time[data-alike]"),
            (time) => [time.getAttribute("datetime"), time.innerText])"""))
    finally:
        page.context.close()


def test_look_alike_cards_are_told_apart_by_the_phones_own_day(browser, season):
    helsinki = cards(browser, season, "Europe/Helsinki")
    # 23:30 on the 3rd and 00:30 on the 4th: two days there, so the day tells them apart
    assert helsinki["2025-03-03T21:30:00+00:00"] == "Mar 3, 2025"
    assert helsinki["2025-03-03T22:30:00+00:00"] == "Mar 4, 2025"
    # 01:30 and 02:30 on the 6th: one evening there, so each shows its time
    assert "Mar 6, 2025" in helsinki["2025-03-05T23:30:00+00:00"] and "01:30" in helsinki["2025-03-05T23:30:00+00:00"]
    assert "Mar 6, 2025" in helsinki["2025-03-06T00:30:00+00:00"] and "02:30" in helsinki["2025-03-06T00:30:00+00:00"]
    utc = cards(browser, season, "UTC")
    # at UTC it is the other way round
    assert "09:30 PM" in utc["2025-03-03T21:30:00+00:00"] and "10:30 PM" in utc["2025-03-03T22:30:00+00:00"]
    assert utc["2025-03-05T23:30:00+00:00"] == "Mar 5, 2025" and utc["2025-03-06T00:30:00+00:00"] == "Mar 6, 2025"
