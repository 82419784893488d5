"""An unchanged poll is answered before Flask's request work (issue 20, part 6), and only
to a phone that may see the game: views/live.QuickPolls.

A phone polls its game every two seconds (static/app.js). A poll whose game did not change
since the phone last asked is answered 304 from one look-up: no session opened or saved
(no cookie set), no view. A phone without the group's link, with a replaced link, of
another group, with a link to another game or without the group's passcode learns
nothing from it, not even that a game is unchanged: it gets what it got before (the
welcome page, the passcode page, 404), whatever If-None-Match it sends.
"""

from __future__ import annotations

import pytest

from scorekeeper import create_app, groups, store
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.database_support import new_database


def _app(tmp_path, name: str = "quick.sqlite3", **config):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": new_database(tmp_path / name),
                       "WTF_CSRF_ENABLED": False, **config})


@pytest.fixture
def counted(tmp_path):
    """An app whose every request that reaches Flask is counted (a before_request hook
    ahead of all others), a game of its group, and a phone that joined the group."""
    app = _app(tmp_path)
    reached: list[str] = []
    app.before_request_funcs.setdefault(None, []).insert(0, lambda: reached.append(str(app)) and None)
    db = connect(app.config["DATABASE"])
    game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    yield app, app.test_client(), db, game_id, reached
    db.conn.close()


def _poll(client, url: str, etag: str | None = None, **kwargs):
    return client.get(url, headers={"If-None-Match": etag} if etag else {}, **kwargs)


def test_an_unchanged_poll_is_answered_304_without_flask_and_without_a_cookie(counted):
    _app, client, _db, game_id, reached = counted
    url = f"/games/{game_id}/live?since=1"
    first = _poll(client, url)
    assert first.status_code == 200 and first.json["deals"] == 1
    etag = first.headers["ETag"]
    before = len(reached)
    for _ in range(3):
        again = _poll(client, url, etag)
        assert again.status_code == 304
        assert again.headers["ETag"] == etag
        assert "Set-Cookie" not in again.headers
    assert len(reached) == before  # Flask never opened a request for them
    # the home page's poll of the whole group, the same
    home = _poll(client, "/live")
    assert home.status_code == 200
    before = len(reached)
    assert _poll(client, "/live", home.headers["ETag"]).status_code == 304
    assert len(reached) == before


def test_a_poll_after_a_change_gets_the_news(counted):
    _app, client, db, game_id, _reached = counted
    url = f"/games/{game_id}/live?since=1"
    etag = _poll(client, url).headers["ETag"]
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)  # another phone saves deal 2
    after = _poll(client, url, etag)
    assert after.status_code == 200
    assert after.json["deals"] == 2 and "Deal 2" in after.json["news"]
    assert after.headers["ETag"] != etag
    home = _poll(client, "/live")
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    assert _poll(client, "/live", home.headers["ETag"]).status_code == 200


def test_a_quick_answer_carries_what_the_long_way_carries(tmp_path):
    """The same status, headers and body as the app's own answer (QUICK_POLLS off), over
    HTTP and HTTPS: a 304 of a game's poll and of the group's, and the 200 of a poll
    since the version the phone has (no news: answered quickly too)."""
    answers = {}
    for quick in (True, False):
        app = _app(tmp_path, f"q{quick}.sqlite3", QUICK_POLLS=quick)
        db = connect(app.config["DATABASE"])
        game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
        version = store.game_version(db, game_id)
        db.conn.close()
        for base in ("http://localhost", "https://localhost"):
            client = app.test_client()
            client.get(f"/g/{client.group_token}", base_url=base)
            for url in (f"/games/{game_id}/live?since=0&mine=abc", "/live", f"/games/{game_id}/live?since={version}"):
                first = _poll(client, url, base_url=base)
                answer = _poll(client, url, first.headers["ETag"], base_url=base)
                assert answer.status_code == 304
                key = url.split("?")[0].replace(game_id, "G")
                answers[quick, base, key] = sorted(answer.headers.items())
                if url.endswith(f"since={version}"):
                    assert first.json == {"version": version, "deals": 1, "finished": False, "news": "",
                                          "stored": [], "added": {}, "stops": False, "shut": "", "shut_bar": "", "left": []}
                    answers[quick, base, "200"] = (sorted(first.headers.items()), first.get_data())
    for (quick, base, url), seen in answers.items():
        if quick:
            assert seen == answers[False, base, url], (base, url)
    assert any(name == "Strict-Transport-Security" for name, _ in answers[True, "https://localhost", "/live"])


def test_a_poll_with_no_news_is_answered_without_flask_and_one_with_news_by_the_view(counted):
    _app, client, db, game_id, reached = counted
    version = store.game_version(db, game_id)
    before = len(reached)
    quick = _poll(client, f"/games/{game_id}/live?since={version}")
    assert quick.status_code == 200 and quick.json["deals"] == 1 and quick.json["news"] == ""
    assert "Set-Cookie" not in quick.headers
    assert len(reached) == before  # a sheet just loaded asks since its own version: nothing to tell
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)  # another phone saves deal 2
    news = _poll(client, f"/games/{game_id}/live?since={version}")
    assert news.json["deals"] == 2 and "Deal 2" in news.json["news"]
    assert len(reached) == before + 1  # the news is written by the view
    mine = _poll(client, f"/games/{game_id}/live?since={news.json['version']}&mine=abc")
    assert mine.json["stored"] == [] and len(reached) == before + 2  # its own deals looked up by the view


def test_a_phone_without_the_link_learns_nothing_from_a_poll(counted):
    app, client, _db, game_id, _reached = counted
    url = f"/games/{game_id}/live?since=1"
    etag = _poll(client, url).headers["ETag"]  # the ETag of a phone in the group (guessable anyway)
    stranger = app.test_client(join=False)
    for sent in (etag, "*", None):
        answer = _poll(stranger, url, sent)
        assert (answer.status_code, answer.headers["Location"]) == (302, "/welcome")
    # a session cookie signed with another key is no link
    forger = create_app({"TESTING": True, "SECRET_KEY": "not the server's", "DATABASE": app.config["DATABASE"]})
    fake = forger.test_client()  # joined the same group, but its cookie is signed with the wrong key
    cookie = fake.get_cookie("session")
    assert cookie is not None
    stranger.set_cookie("session", cookie.value)
    assert _poll(stranger, url, etag).status_code == 302
    assert _poll(stranger, "/live", "W/\"all1\"").status_code == 302


def test_a_replaced_link_stops_quick_answers_at_once(counted):
    _app, client, db, game_id, _reached = counted
    url = f"/games/{game_id}/live?since=1"
    etag = _poll(client, url).headers["ETag"]
    group = groups.only_group(db)
    groups.new_play_link(db, group.id)
    answer = _poll(client, url, etag)
    assert answer.status_code == 302  # to the welcome page, as every page of the group now


def test_another_group_or_another_game_gets_404_not_304(counted, tmp_path):
    app, client, db, game_id, _reached = counted
    url = f"/games/{game_id}/live?since=1"
    etag = _poll(client, url).headers["ETag"]
    other = groups.create(db, "Other club")
    elsewhere = app.test_client(join=other.token)
    assert _poll(elsewhere, url, etag).status_code == 404
    # a view link to one game may poll that game, not another of the group
    second = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])),
                               group_id=groups.only_group_id(db) or groups.all_groups(db)[0].id)
    one_game = app.test_client(join=groups.view_link(db, groups.all_groups(db)[0].id, second))
    assert _poll(one_game, url, etag).status_code == 404
    assert _poll(one_game, "/live", "W/\"all1\"").status_code in (302, 404)
    mine = _poll(one_game, f"/games/{second}/live?since=1")
    assert mine.status_code == 200
    assert _poll(one_game, f"/games/{second}/live?since=1", mine.headers["ETag"]).status_code == 304


def test_a_phone_that_did_not_give_the_passcode_is_asked_for_it(counted):
    _app, client, db, game_id, _reached = counted
    url = f"/games/{game_id}/live?since=1"
    etag = _poll(client, url).headers["ETag"]
    groups.set_passcode(db, groups.all_groups(db)[0].id, "clubs and spades")
    answer = _poll(client, url, etag)
    assert answer.status_code == 302 and "passcode" in answer.headers["Location"]


def test_a_deleted_game_is_said_even_to_a_phone_that_had_it(counted):
    _app, client, db, game_id, _reached = counted
    url = f"/games/{game_id}/live?since=1"
    etag = _poll(client, url).headers["ETag"]
    store.delete_game(db, game_id)
    answer = _poll(client, url, etag)
    assert answer.status_code == 410 and answer.json["deleted"] is True


def test_a_host_no_link_can_be_made_of_is_refused_as_ever(counted):
    app, client, _db, game_id, _reached = counted
    url = f"/games/{game_id}/live?since=1"
    etag = _poll(client, url).headers["ETag"]
    cookie = f"session={client.get_cookie('session').value}"
    plain = app.test_client(join=False, use_cookies=False)  # sends the Cookie header as given
    assert plain.get(url, headers={"If-None-Match": etag, "Host": "localhost", "Cookie": cookie}).status_code == 304
    assert plain.get(url, headers={"If-None-Match": etag, "Host": "a..b", "Cookie": cookie}).status_code == 400


def test_a_new_sheet_asked_for_by_every_phone_at_once_is_drawn_once(counted, monkeypatch):
    """After a deal, every phone at the table asks for the new sheet within one poll: the
    server draws it once and hands the others the kept page (kept.KeptPages.once), however
    the threads interleave."""
    import threading

    from scorekeeper.views import games

    app, _client, db, game_id, _reached = counted
    drawn: list[str] = []
    draw = games._draw_sheet

    def counting(key, game):
        drawn.append(game)
        return draw(key, game)

    monkeypatch.setattr(games, "_draw_sheet", counting)
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    phones = [app.test_client() for _ in range(8)]
    barrier = threading.Barrier(len(phones), timeout=30)
    pages: list[bytes] = []

    def open_sheet(phone) -> None:
        barrier.wait()
        answer = phone.get(f"/games/{game_id}")
        assert answer.status_code == 200
        pages.append(answer.get_data())

    threads = [threading.Thread(target=open_sheet, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(pages) == 8 and all(b'id="deal-2"' in page for page in pages)
    assert drawn == [game_id]


def test_a_sheet_drawn_by_one_worker_is_read_by_another_and_a_new_version_drawn_anew(tmp_path, monkeypatch):
    """Two apps on one database as two worker processes of one server (SHARED_PAGES, as
    ``scorekeeper serve --workers 2`` sets): the sheet one drew is the other's without
    drawing; after a deal, the new version is drawn once and both show it."""
    from scorekeeper.views import games, kept

    database = new_database(tmp_path / "shared.sqlite3")
    workers = [create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": database,
                           "WTF_CSRF_ENABLED": False, "SHARED_PAGES": True}) for _ in range(2)]
    # workers forked from one start of the server share its run (shared_pages.SharedPages.run)
    workers[1].extensions[kept.SHARED].run = workers[0].extensions[kept.SHARED].run
    db = connect(database)
    game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    drawn: list[str] = []
    draw = games._draw_sheet
    monkeypatch.setattr(games, "_draw_sheet", lambda key, game: drawn.append(game) or draw(key, game))
    one, other = (worker.test_client() for worker in workers)
    first = one.get(f"/games/{game_id}")
    second = other.get(f"/games/{game_id}")
    assert first.status_code == second.status_code == 200 and b'id="deal-1"' in second.get_data()
    assert first.get_data() == second.get_data()
    assert drawn == [game_id]
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)  # deal 2, saved on either
    assert b'id="deal-2"' in other.get(f"/games/{game_id}").get_data()
    assert b'id="deal-2"' in one.get(f"/games/{game_id}").get_data()
    assert drawn == [game_id, game_id]
    # the next start of the server (a database restored meanwhile may bring a version
    # number back with other deals) draws its own
    restarted = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": database,
                            "WTF_CSRF_ENABLED": False, "SHARED_PAGES": True})
    assert b'id="deal-2"' in restarted.test_client().get(f"/games/{game_id}").get_data()
    assert drawn == [game_id, game_id, game_id]
    db.conn.close()


def test_the_big_screen_poll_of_a_night_is_answered_quickly_and_the_same_as_the_long_way(tmp_path):
    """The big screen polls its night every two seconds: unchanged, it is answered 304
    before Flask, with the headers the view gives; a deal saved at a table changes it; a
    phone of another group gets the view's 404, whatever ETag it sends."""
    from tests.test_nights import start

    answers = {}
    for quick in (True, False):
        app = _app(tmp_path, f"n{quick}.sqlite3", QUICK_POLLS=quick)
        reached: list[str] = []
        app.before_request_funcs.setdefault(None, []).insert(0, lambda seen=reached: seen.append("x") and None)
        client = app.test_client()
        night_id = start(client, "trigami", ["Aino", "Bruno", "Carla"], 2)
        url = f"/nights/{night_id}/live"
        first = _poll(client, url)
        assert first.status_code == 200
        before = len(reached)
        again = _poll(client, url, first.headers["ETag"])
        assert again.status_code == 304
        assert (len(reached) == before) is quick  # quick: Flask never opened a request
        assert again.headers["ETag"] == first.headers["ETag"]
        answers[quick] = sorted((name, value) for name, value in again.headers.items() if name != "ETag")
        db = connect(app.config["DATABASE"])
        table = db.execute("select game_id from night_tables where night_id = ?", [night_id]).fetchone()[0]
        store.add_deal(db, table, WORKED_TRIGAMI_DEAL)  # a deal saved at the table
        changed = _poll(client, url, first.headers["ETag"])
        assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]
        other = groups.create(db, "Another club")
        db.conn.close()
        stranger = app.test_client(join=other.token)
        assert _poll(stranger, url, changed.headers["ETag"]).status_code == 404
    assert answers[True] == answers[False]  # the same headers (each night its own ETag)
