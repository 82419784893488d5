"""The live endpoints a page polls, and the service worker's file (Flask's test client).

What a phone sees: 304 while nothing changed (so 20 phones cost the server almost
nothing), the new version and what arrived once another phone changed the game.
"""

from __future__ import annotations

import json

from scorekeeper import store
from tests.conftest import WORKED_TRIGAMI_DEAL


def live(client, game_id: str, since: int | None = None, etag: str | None = None):
    url = f"/games/{game_id}/live" + (f"?since={since}" if since is not None else "")
    return client.get(url, headers={"If-None-Match": etag} if etag else {})


def test_an_unchanged_game_is_answered_304_and_a_change_is_seen(client, make_game, db):
    game_id = make_game()
    first = live(client, game_id)
    assert first.status_code == 200 and first.headers["ETag"]
    version = first.get_json()["version"]
    assert first.get_json() == {"version": version, "deals": 0, "finished": False, "news": "", "stored": [], "added": {},
                                "stops": False, "shut": "", "shut_bar": "", "left": []}  # (shut: a table card that saves no more)
    assert "no-cache" in first.headers["Cache-Control"]
    again = live(client, game_id, etag=first.headers["ETag"])
    assert again.status_code == 304 and again.data == b""
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)  # another phone
    changed = live(client, game_id, etag=first.headers["ETag"])
    assert changed.status_code == 200
    assert changed.get_json()["version"] > version and changed.get_json()["deals"] == 1


def test_the_news_says_what_arrived_since_the_version_the_phone_has(client, make_game, db):
    game_id = make_game()
    version = live(client, game_id).get_json()["version"]
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    # SCORING.md §1.2 worked example: Anna +80, Ben +200, Carla +13
    news = live(client, game_id, since=version).get_json()["news"]
    assert news == "Deal 1 was added on another phone: \u2068Anna\u2069 +80, \u2068Ben\u2069 +200, \u2068Carla\u2069 +13."


def test_trix_news_tells_the_contracts_the_next_deal_may_choose(client, make_game, db):
    """Each contract once a kingdom (SCORING.md §2): King of Hearts played, another phone
    adds Queens: the news carries the three left, for an open form (tester 63). In a fixed
    order without Trix Complex (§2.5) only the next one; a Trigami game has none to tell."""
    game_id = make_game(kind="trix", deals=[{"contracts": ["king"], "king": {"taker": 2}}])
    version = live(client, game_id).get_json()["version"]
    assert live(client, game_id).get_json()["left"] == []  # no news: nothing said
    store.add_deal(db, game_id, {"contracts": ["queens"], "queens": {s: {"taker": i} for i, s in enumerate("SHDC")}})
    assert live(client, game_id, since=version).get_json()["left"] == ["diamonds", "tricks", "trix"]
    fixed = make_game(kind="trix", options={"order": ["trix", "queens", "king", "diamonds", "tricks"]})
    version = live(client, fixed).get_json()["version"]
    store.add_deal(db, fixed, {"contracts": ["trix"], "trix": [2, 0, 3, 1]})
    assert live(client, fixed, since=version).get_json()["left"] == ["queens"]
    trigami = make_game()
    version = live(client, trigami).get_json()["version"]
    store.add_deal(db, trigami, WORKED_TRIGAMI_DEAL)
    assert live(client, trigami, since=version).get_json()["left"] == []


def test_a_finished_game_says_so(client, make_game, db):
    game_id = make_game(options={"target": 150}, deals=[WORKED_TRIGAMI_DEAL])  # Ben 200 ≥ 150
    assert live(client, game_id).get_json()["finished"] is True


def test_no_such_game_is_a_404_in_json(client):
    response = live(client, "nope")
    assert response.status_code == 404 and "no such game" in response.get_json()["error"]


def test_the_home_page_version_moves_with_any_game(client, make_game, db):
    before = client.get("/live")
    assert before.status_code == 200
    assert client.get("/live", headers={"If-None-Match": before.headers["ETag"]}).status_code == 304
    game_id = make_game()
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    after = client.get("/live", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.get_json()["version"] > before.get_json()["version"]


def test_pages_that_live_carry_their_version(client, make_game, db):
    game_id = make_game()
    version = store.get_game(db, game_id).version
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'data-live-version="{version}"' in sheet
    form = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert f'data-live-version="{version}"' in form and f'name="seen" type="hidden" value="{version}"' in form
    home = client.get("/").get_data(as_text=True)
    assert f'data-live-version="{store.changes(db, game_id)[0].id}"' in home  # the group's latest change


def test_the_service_worker_is_served_uncached_from_the_top(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    body = response.get_data(as_text=True)
    # it keeps this version's style and script, the home page and the offline page
    version = json.loads(body.split("const VERSION = ", 1)[1].split(";", 1)[0])
    page = client.get("/").get_data(as_text=True)
    assert f"/static/app.js?v={version}" in page and f"/static/app.css?v={version}" in page
    shell = json.loads(body.split("const SHELL = ", 1)[1].split(";\n", 1)[0])
    assert f"/static/app.js?v={version}" in shell and "/" in shell and "/offline" in shell
    for url in shell:
        answer = client.get(url)
        assert answer.status_code == 200, url
        answer.close()  # static files are streamed


def test_a_new_version_of_the_app_gets_a_new_service_worker(tmp_path):
    from scorekeeper import create_app
    from scorekeeper.assets import asset_version

    static = tmp_path / "static"
    (static / "icons").mkdir(parents=True)
    for name in ("app.css", "app.js", "icons/icon.svg"):
        (static / name).write_text("v1")
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "x.sqlite3")})
    app.static_folder = str(static)
    first = asset_version(app)
    (static / "app.js").write_text("v2")
    app.extensions.pop("scorekeeper_assets")  # as a restart of the server does
    assert asset_version(app) != first


def test_the_offline_page_says_what_is_still_there(client):
    page = client.get("/offline").get_data(as_text=True)
    assert "No connection" in page and "Score sheets opened on this phone are still there" in page


def test_a_phones_own_deals_are_not_news_and_are_said_to_be_stored(client, make_game, db):
    # the phone sent deal 1 from its outbox (form token "mine-1"), and its answer was lost
    game_id = make_game()
    version = live(client, game_id).get_json()["version"]
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL, nonce="mine-1")
    answer = client.get(f"/games/{game_id}/live?since={version}&mine=mine-1,still-waiting").get_json()
    assert answer["news"] == "" and answer["stored"] == ["mine-1"]
    # … at the version that added it, which a state of that version counts already
    # (tester 49: counted again beside the sheet that had it, "+ Add deal 3" after deal 1)
    assert answer["added"] == {"mine-1": live(client, game_id).get_json()["version"]}
    # another phone's deal is news all the same
    store.add_deal(db, game_id, {**WORKED_TRIGAMI_DEAL, "tricks": [4, 4, 5]}, nonce="theirs")
    answer = client.get(f"/games/{game_id}/live?since={version}&mine=mine-1").get_json()
    assert answer["news"] == "Deal 2 was added on another phone: \u2068Anna\u2069 +80, \u2068Ben\u2069 +160, \u2068Carla\u2069 +16."


def test_the_poll_says_whether_what_changed_stops_a_new_deal(client, make_game, db):
    """An open add-deal form is told whether Save would ask first (``stops``): another
    phone's deal added does (a deal entered twice must be seen); an earlier deal put right
    does not (the new deal is saved after it: store.own_changes), nor this phone's own deal."""
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    version = live(client, game_id).get_json()["version"]
    first = store.get_game(db, game_id).deals[0]
    store.update_deal(db, game_id, first.id, {**WORKED_TRIGAMI_DEAL, "bugs": [1, 0, 4]})  # Carla 4 bugs: 10
    answer = live(client, game_id, since=version).get_json()
    assert answer["news"].startswith("Deal 1 was changed on another phone") and answer["stops"] is False
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL, nonce="mine-2")
    answer = client.get(f"/games/{game_id}/live?since={version}&mine=mine-2").get_json()
    assert answer["stops"] is False and answer["stored"] == ["mine-2"]
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL, nonce="theirs")
    answer = client.get(f"/games/{game_id}/live?since={version}&mine=mine-2").get_json()
    assert answer["stops"] is True


def test_a_version_too_large_for_the_database_is_no_server_error(client, make_game):
    game_id = make_game()
    answer = client.get(f"/games/{game_id}/live?since={2**63}")
    assert answer.status_code == 200 and answer.get_json()["deals"] == 0
