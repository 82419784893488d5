"""One write per tap everywhere (issue 16, part 5): "Start a group" and the players-and-
settings Save sent twice (one after the other, or at the same instant against the real
server, threads released together by a barrier) write once and answer both alike; a form
token (nonce) only ever resolves inside its own group.
"""

from __future__ import annotations

import io
import json
import re
from datetime import timedelta
from functools import partial

import pytest

from scorekeeper import groups, records, store
from scorekeeper.db import connect, migrate
from scorekeeper.gamefile import from_dict
from scorekeeper.migrations import migrations
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.race_support import Phone, RaceServer, at_once, deal_fields, form_fields, statuses

ROUNDS = 5
OURS = ["Anna", "Ben", "Carla"]
THEIRS = ["Xavier", "Yolanda", "Zeno"]


def plain(text: str) -> str:
    """A page's text without the isolates around names (FSI … PDI)."""
    return text.replace("\u2068", "").replace("\u2069", "")


def twin_of(phone: Phone) -> Phone:
    """A second sending of the same page from the same phone: its own connection, the
    same cookies (session, form token) as ``phone`` has now."""
    twin = Phone(phone.base_url)
    for cookie in phone.cookies:
        twin.cookies.set_cookie(cookie)
    return twin


def group_count(server: RaceServer) -> int:
    with server.db() as db:
        return db["groups"].count


def play_link(phone: Phone) -> str:
    """The play link the phone's Group page shows (the group it is in)."""
    page = phone.get("/group")
    assert page.status == 200, page
    return re.search(r'id="play-link" type="url" value="([^"]+)"', page.body).group(1)


# --------------------------------------------------------------------------- Start a group


def test_start_a_group_sent_twice_at_once_starts_one_and_both_answers_lead_to_it(race_server):
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        before = group_count(race_server)
        phone = race_server.phone(join=False)
        fields = {**phone.form("/welcome", "/groups/new"), "name": f"Tuesday {round_}"}
        twin = twin_of(phone)
        replies = at_once(partial(phone.post, "/groups/new", fields), partial(twin.post, "/groups/new", fields))
        assert [r.status for r in replies] == [302, 302] and {r.location for r in replies} == {"/"}, \
            f"{what}{statuses(replies)}"
        assert group_count(race_server) == before + 1, f"{what}{group_count(race_server) - before} groups"
        with race_server.db() as db:
            started = groups.find(db, f"Tuesday {round_}")
        # each answer's cookie opens that group: both phones (both taps) are in it
        for one in (phone, twin):
            assert play_link(one).endswith(f"/g/{started.token}"), what
            assert f"Tuesday {round_}" in one.get("/").body


def test_two_phones_starting_the_same_game_at_once_start_one_and_the_other_is_asked(race_server):
    # Issue 18: one game per Start. Two phones of the table tap Start on the same game at
    # the same instant, each with its own form (its own token): the check that this game
    # was just started runs inside the write, so one game is stored and the other phone is
    # asked about that very game, whatever order the two arrive in
    first, second = race_server.phone(), race_server.phone()
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        players = {"player_0": "Anna", "player_1": "Ben", "player_2": f"Carla {round_}",
                   "first_dealer": "0", "target": "500"}
        forms = [{**phone.form("/games/new?kind=trigami"), **players} for phone in (first, second)]
        assert forms[0]["nonce"] != forms[1]["nonce"], what
        with race_server.db() as db:
            before = db["games"].count
        replies = at_once(*(partial(phone.post, "/games/new?kind=trigami", fields)
                            for phone, fields in zip((first, second), forms, strict=True)))
        assert sorted(r.status for r in replies) == [200, 302], f"{what}{statuses(replies)}"
        with race_server.db() as db:
            assert db["games"].count == before + 1, what
        started = next(r for r in replies if r.status == 302).location
        asked = next(r for r in replies if r.status == 200).body
        assert "You started this game already" in asked and f'href="{started}"' in asked, what


def test_start_a_group_sent_five_times_in_a_row_starts_one(race_server):
    phone = race_server.phone(join=False)
    fields = phone.form("/welcome", "/groups/new")
    replies = [phone.post("/groups/new", fields) for _ in range(5)]
    assert all(r.redirects_to("/") for r in replies), statuses(replies)
    assert group_count(race_server) == 1
    with race_server.db() as db:
        (group,) = groups.all_groups(db)
    assert play_link(phone).endswith(f"/g/{group.token}")


def test_an_old_start_form_sent_again_starts_nothing_and_says_so(app, db, monkeypatch):
    client = app.test_client(join=False)
    fields = {"name": "Friday", "nonce": "the-form-token"}
    assert client.post("/groups/new", data=fields).status_code == 302
    # after its link was replaced, the old page cannot hand out the new link
    group = groups.find(db, "Friday")
    groups.new_play_link(db, group.id)
    stranger = app.test_client(join=False)
    answer = stranger.post("/groups/new", data=fields)
    assert answer.status_code == 400
    assert "This form started a group already. Tap Start again" in answer.get_data(as_text=True)
    assert stranger.get("/").location == "/welcome" and db["groups"].count == 1
    # and long after it was started neither
    assert app.test_client(join=False).post("/groups/new", data={"nonce": "second"}).status_code == 302
    monkeypatch.setattr(groups, "STARTED_AGAIN", timedelta(seconds=-1))
    assert app.test_client(join=False).post("/groups/new", data={"nonce": "second"}).status_code == 400
    assert db["groups"].count == 2


# --------------------------------------------------------------------------- players and settings


def renamed(server: RaceServer, game_id: str) -> list[records.Change]:
    with server.db() as db:
        return [c for c in store.changes(db, game_id) if c.action in ("players_renamed", "settings_changed")]


def test_the_same_settings_save_sent_twice_at_once_saves_once_and_both_hear_it_saved(race_server):
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game(players=["Anna", "Ben", f"Carla {round_}"], deals=[WORKED_TRIGAMI_DEAL])
        phone = race_server.phone()
        fields = {**phone.form(f"/games/{game_id}/edit"), "player_1": f"Benny {round_}", "target": "300"}
        twin = twin_of(phone)
        replies = at_once(partial(phone.post, f"/games/{game_id}/edit", fields),
                          partial(twin.post, f"/games/{game_id}/edit", fields))
        assert all(r.redirects_to(f"/games/{game_id}") for r in replies), f"{what}{statuses(replies)}"
        assert [c.action for c in renamed(race_server, game_id)] == ["settings_changed", "players_renamed"], what
        for one in (phone, twin):  # the first answer, to both taps
            sheet = plain(one.get(f"/games/{game_id}").text)
            assert f"Players renamed: Ben → Benny {round_}. Settings changed: Target 500 → 300." in sheet, what
            assert "were changed on another phone" not in sheet


def test_the_same_settings_save_sent_again_gets_the_first_answer(client, make_game):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    page = client.get(f"/games/{game_id}/edit").get_data(as_text=True)
    fields = {**form_fields(page), "player_1": "Benny"}
    answers = []
    for _ in range(3):
        answer = client.post(f"/games/{game_id}/edit", data=fields)
        assert answer.status_code == 302 and answer.location == f"/games/{game_id}"
        answers.append(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert all("Players renamed: Ben → Benny." in plain(a) for a in answers)
    history = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    assert history.count("Benny") >= 1
    db = connect(client.application.config["DATABASE"])
    try:
        assert [c.action for c in store.changes(db, game_id)] == ["players_renamed", "game_created"]
    finally:
        db.conn.close()


def test_a_different_save_from_the_same_page_is_saved_not_dropped(client, make_game):
    """The page opened again from the browser's history (the same form token) and changed
    once more: a new change, saved; the answer says all the form did."""
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    fields = {**form_fields(client.get(f"/games/{game_id}/edit").get_data(as_text=True)), "player_1": "Benny"}
    assert client.post(f"/games/{game_id}/edit", data=fields).status_code == 302
    again = client.post(f"/games/{game_id}/edit", data={**fields, "target": "300"})
    assert again.status_code == 302
    sheet = plain(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Players renamed: Ben → Benny. Settings changed: Target 500 → 300." in sheet
    db = connect(client.application.config["DATABASE"])
    try:
        game = store.get_game(db, game_id)
    finally:
        db.conn.close()
    assert game.players[1] == "Benny" and game.options["target"] == 300


def test_a_save_after_another_phones_change_is_still_asked_about(app, make_game):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    mine, other = app.test_client(), app.test_client()
    fields = {**form_fields(mine.get(f"/games/{game_id}/edit").get_data(as_text=True)), "player_1": "Benny"}
    assert mine.post(f"/games/{game_id}/edit", data=fields).status_code == 302
    theirs = {**form_fields(other.get(f"/games/{game_id}/edit").get_data(as_text=True)), "player_2": "Carl"}
    assert other.post(f"/games/{game_id}/edit", data=theirs).status_code == 302
    # this phone's page sent once more, now with a new target: the other phone's rename is news to it
    answer = mine.post(f"/games/{game_id}/edit", data={**fields, "target": "300"})
    assert answer.status_code == 409 and "changed on another phone" in answer.get_data(as_text=True)


# --------------------------------------------------------------------------- nonces per group


@pytest.fixture
def two_phones(app):
    """A phone of each of two groups with a Trigami game each: ((phone, game id), …)."""
    db = connect(app.config["DATABASE"])
    try:
        made = []
        for name, players in (("Ours", OURS), ("Theirs", THEIRS)):
            group = groups.create(db, name)
            game_id = store.create_game(db, from_dict(game_file(players=players)), group_id=group.id)
            made.append((app.test_client(join=group.token), game_id))
    finally:
        db.conn.close()
    return made


NEW_GAME = {"player_0": "Anna", "player_1": "Ben", "player_2": "Carla", "first_dealer": "0", "target": "500"}


def test_a_new_game_form_with_another_groups_token_starts_a_game_here(app, two_phones):
    (ours, _), (theirs, _) = two_phones
    # (Dora, not Carla: a game of Anna, Ben and Carla was started a moment ago, and starting
    # it again asks first, tests/test_web.py)
    mine = ours.post("/games/new?kind=trigami", data={**NEW_GAME, "player_2": "Dora", "nonce": "one-token"})
    assert mine.status_code == 302
    answer = theirs.post("/games/new?kind=trigami",
                         data={**NEW_GAME, "player_0": "Xena", "nonce": "one-token"})
    assert answer.status_code == 302 and answer.location != mine.location
    sheet = theirs.get(answer.location).get_data(as_text=True)
    assert "Xena" in sheet and "Anna" not in sheet
    assert theirs.get(mine.location).status_code == 404
    # and the same form again in that group is still one game
    again = theirs.post("/games/new?kind=trigami", data={**NEW_GAME, "player_0": "Xena", "nonce": "one-token"})
    assert again.location == answer.location


def test_a_deal_with_another_groups_token_is_saved_in_this_game(app, two_phones):
    (ours, our_game), (theirs, their_game) = two_phones
    deal = deal_fields("trigami", WORKED_TRIGAMI_DEAL)
    assert ours.post(f"/games/{our_game}/deals/new", data={**deal, "nonce": "deal-token"}).status_code == 302
    answer = theirs.post(f"/games/{their_game}/deals/new", data={**deal, "nonce": "deal-token"})
    assert answer.status_code == 302 and answer.location.startswith(f"/games/{their_game}")
    db = connect(app.config["DATABASE"])
    try:
        assert len(store.get_game(db, their_game).deals) == 1 and len(store.get_game(db, our_game).deals) == 1
        assert store.deal_for_nonce(db, their_game, "deal-token") != store.deal_for_nonce(db, our_game, "deal-token")
    finally:
        db.conn.close()
    again = theirs.post(f"/games/{their_game}/deals/new", data={**deal, "nonce": "deal-token"})  # a double tap
    assert again.status_code == 302
    db = connect(app.config["DATABASE"])
    try:
        assert len(store.get_game(db, their_game).deals) == 1
    finally:
        db.conn.close()


def test_an_import_with_another_groups_token_is_stored_in_this_group(app, two_phones):
    (ours, _), (theirs, _) = two_phones
    raw = json.dumps(game_file(players=["Anna", "Ben", "Dora"], deals=[WORKED_TRIGAMI_DEAL])).encode()
    mine = ours.post("/games/import", data={"file": (io.BytesIO(raw), "game.json"), "nonce": "import-token"})
    assert mine.status_code == 302
    answer = theirs.post("/games/import", data={"file": (io.BytesIO(raw), "game.json"), "nonce": "import-token"})
    assert answer.status_code == 302 and answer.location != mine.location
    assert "Dora" in theirs.get(answer.location).get_data(as_text=True)
    assert theirs.get(mine.location).status_code == 404


def test_a_settings_token_answers_in_its_own_game_only(app, two_phones):
    (ours, our_game), (theirs, their_game) = two_phones
    fields = {**form_fields(ours.get(f"/games/{our_game}/edit").get_data(as_text=True)), "player_1": "Benny"}
    assert ours.post(f"/games/{our_game}/edit", data=fields).status_code == 302
    theirs_form = form_fields(theirs.get(f"/games/{their_game}/edit").get_data(as_text=True))
    answer = theirs.post(f"/games/{their_game}/edit", data={**theirs_form, "nonce": fields["nonce"]})
    assert answer.status_code == 302
    sheet = theirs.get(answer.location).get_data(as_text=True)
    assert "Nothing was changed." in sheet and "Benny" not in sheet and "Ben " not in sheet


# --------------------------------------------------------------------------- the migration


def test_m009_keeps_every_token_and_makes_them_unique_per_group(tmp_path):
    db = connect(str(tmp_path / "old.sqlite3"))
    migrations.apply(db, stop_before="m009_nonces_per_group")
    group = groups.create(db, "Old")
    game_id = store.create_game(db, from_dict(game_file()), nonce="old-game", group_id=group.id)
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL, nonce="old-deal")
    migrate(db)
    assert store.create_game(db, from_dict(game_file()), nonce="old-game", group_id=group.id) == game_id
    assert store.deal_for_nonce(db, game_id, "old-deal") is not None
    other = groups.create(db, "New", nonce="start")
    assert groups.create(db, "New", nonce="start") == other
    elsewhere = store.create_game(db, from_dict(game_file()), nonce="old-game", group_id=other.id)
    assert elsewhere != game_id
    unique = {tuple(index.columns) for table in ("games", "deals", "groups") for index in db[table].indexes
              if index.unique}
    assert {("group_id", "nonce"), ("game_id", "nonce"), ("nonce",)} <= unique
    db.conn.close()
