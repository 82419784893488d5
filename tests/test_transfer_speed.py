"""What makes pages cheap to fetch again on a slow phone connection (no timings here:
`make bench` measures; these check the behaviour a phone relies on).

- a score sheet the phone has already is answered 304, until the game or what this
  browser is offered on it changes;
- every text response is compressed when the browser accepts it;
- static files carry the app's fingerprint in their URL and are kept a year, immutable.
"""

from __future__ import annotations

import gzip
import re

from scorekeeper import store
from tests.conftest import WORKED_TRIGAMI_DEAL
from tests.test_web import WORKED_FORM


def again(client, url: str, response):
    return client.get(url, headers={"If-None-Match": response.headers["ETag"]})


def test_an_unchanged_sheet_is_answered_304_and_a_changed_one_in_full(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    url = f"/games/{game_id}"
    first = client.get(url)
    assert first.status_code == 200 and first.headers["ETag"].startswith('W/"')
    assert "no-cache" in first.headers["Cache-Control"] and "private" in first.headers["Cache-Control"]
    repeat = again(client, url, first)
    assert repeat.status_code == 304 and repeat.data == b""
    store.add_deal(db, game_id, {**WORKED_TRIGAMI_DEAL, "tricks": [4, 4, 5]})  # another phone
    changed = again(client, url, first)
    assert changed.status_code == 200 and "Deal 2" in changed.get_data(as_text=True)
    assert changed.headers["ETag"] != first.headers["ETag"]


def test_a_sheet_with_a_message_or_an_undo_for_this_phone_is_drawn_anew(client, make_game):
    game_id = make_game()
    url = f"/games/{game_id}"
    before = client.get(url)
    client.post(f"/games/{game_id}/deals/new", data=WORKED_FORM)  # flashes "Deal 1 saved", offers Undo
    shown = again(client, url, before)
    assert shown.status_code == 200
    page = shown.get_data(as_text=True)
    assert "Deal 1 saved" in page and "Undo deal 1" in page
    # the message was shown once; the page with Undo is then a page of its own
    plain = client.get(url)
    assert "Deal 1 saved" not in plain.get_data(as_text=True) and "Undo deal 1" in plain.get_data(as_text=True)
    assert again(client, url, plain).status_code == 304


def test_text_is_compressed_when_the_browser_accepts_it(client, make_game):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    for url in ("/", f"/games/{game_id}", f"/games/{game_id}/game.json"):
        plain = client.get(url)
        packed = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert packed.headers.get("Content-Encoding") == "gzip", url
        assert gzip.decompress(packed.data) == plain.data, url
        assert len(packed.data) < len(plain.data), url
    form = client.get(f"/games/{game_id}/deals/new", headers={"Accept-Encoding": "gzip"})  # a new token each time
    assert form.headers.get("Content-Encoding") == "gzip" and b"Save deal 2" in gzip.decompress(form.data)


def test_static_files_are_kept_a_year_under_their_versioned_address(client):
    page = client.get("/").get_data(as_text=True)
    for url in re.findall(r'(?:href|src)="(/static/app\.(?:css|js)\?v=[0-9a-f]+)"', page):
        response = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200
        cache = response.headers["Cache-Control"]
        assert "max-age=31536000" in cache and "immutable" in cache, url
        assert response.headers["Content-Encoding"] == "gzip"
        response.close()
    unversioned = client.get("/static/app.css")
    assert "immutable" not in unversioned.headers.get("Cache-Control", "")
    unversioned.close()


def test_a_kept_sheet_shows_a_name_corrected_in_another_game(client, make_game, db):
    first = make_game(deals=[WORKED_TRIGAMI_DEAL])
    other = make_game(deals=[WORKED_TRIGAMI_DEAL])  # the same three people
    kept = client.get(f"/games/{other}")  # drawn and kept at this version of the game
    assert "CARLA" not in kept.get_data(as_text=True)
    # Carla's name is spelt better in the first game: she is one person, so everywhere
    store.update_game(db, first, players=["Anna", "Ben", "CARLA"])
    shown = again(client, f"/games/{other}", kept)
    assert shown.status_code == 200 and "CARLA" in shown.get_data(as_text=True)
