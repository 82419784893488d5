"""A player's name changed for every game of the group at once (tester 51: "Mikka", a typo
for "Mika", in several games could only be put right one game at a time, on each game's
players-and-settings page): the store's rename (store.rename_player), and the player's
"Change the name" page.

The worked deal of SCORING.md §1.2 (tests/conftest.py WORKED_TRIGAMI_DEAL) gives the three
seats 80, 200 and 13: three of them end a game at the rules' 500 (§1.4) with the second seat
on 600, the winner; one of them leaves the game unfinished.
"""

from __future__ import annotations

import html
import re
from functools import partial
from typing import Any

import pytest

from scorekeeper import create_app, groups, night_actions, store
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.race_support import assert_no_server_error, at_once, statuses
from tests.test_no_input_breaks_it import _snapshot

WON_BY_SEAT_2 = [WORKED_TRIGAMI_DEAL] * 3  # 240, 600, 39: finished, the second seat wins
UNFINISHED = [WORKED_TRIGAMI_DEAL]

#: The season as typed, "Mikka" twice for "Mika": (players, deals) of each game, oldest first
SEASON = [
    (["Mika", "Liisa", "Pekka"], WON_BY_SEAT_2),    # Mika: finished, not won
    (["Anni", "Mikka", "Jussi"], WON_BY_SEAT_2),    # Mikka: finished, won
    (["Mikka", "Tuula", "Anni"], UNFINISHED),      # Mikka: unfinished
]


def store_season(db, season=SEASON) -> list[str]:
    return [store.create_game(db, from_dict(game_file(players=players, deals=deals))) for players, deals in season]


def player_id(db, name: str) -> int:
    return next(pid for pid, shown in store.player_names(db).items() if shown == name)


def record(db, name: str) -> dict[str, Any]:
    """A player's record (games played, finished, won) and summed figures, by key: what the
    players list and their page show (head-to-head by the other player's name)."""
    pid = player_id(db, name)
    played, finished, won = db.execute(
        "select played, finished, won from player_records where player_id = ?", [pid]).fetchone()
    names = store.player_names(db)
    # head-to-head figures are keyed by the other player's id ("vs.5.ahead"): by their name here
    figures = {re.sub(r"^vs\.(\d+)", lambda m: f"vs.{names[int(m.group(1))]}", row[0]): tuple(row[1:])
               for row in db.execute("select key, things, total, chances, games, seen from player_figures "
                                     "where player_id = ?", [pid])}
    return {"played": played, "finished": finished, "won": won, "figures": figures}


def renames(db, game_id: str) -> list[tuple[list[str], list[str]]]:
    """The game's "players_renamed" changes: (names before, names after)."""
    return [(change.before["players"], change.after["players"]) for change in store.changes_since(db, game_id, 0)
            if change.action == "players_renamed"]


def test_a_typo_is_put_right_in_every_game_at_once(db):
    """Only "Mikka" plays (no "Mika" yet): the player is renamed, the same player, in both
    games, each game's history saying so; the record is theirs still."""
    games = store_season(db, SEASON[1:])
    mikka = player_id(db, "Mikka")
    before = record(db, "Mikka")
    done = store.rename_player(db, groups.only_group(db).id, mikka, "  Mika ")
    assert (done.player_id, done.name, done.merged, done.games) == (mikka, "Mika", False, 2)
    assert [store.get_game(db, g).players for g in games] == [("Anni", "Mika", "Jussi"), ("Mika", "Tuula", "Anni")]
    assert renames(db, games[0]) == [(["Anni", "Mikka", "Jussi"], ["Anni", "Mika", "Jussi"])]
    assert renames(db, games[1]) == [(["Mikka", "Tuula", "Anni"], ["Mika", "Tuula", "Anni"])]
    assert record(db, "Mika") == before
    assert "Mikka" not in store.player_names(db).values()


def test_the_name_of_another_player_is_asked_first_then_makes_them_one(db, tmp_path):
    """"Mikka" renamed "mika": Mika plays here already. Unconfirmed, nothing changes and the
    answer names Mika and Mikka's games; confirmed, the two are one player, Mika (her
    spelling kept), whose record and figures are what they would be had Mikka's games
    been typed with Mika's name from the start."""
    games = store_season(db)
    group = groups.only_group(db).id
    mika, mikka = player_id(db, "Mika"), player_id(db, "Mikka")
    untouched = _snapshot(str(db.conn.execute("pragma database_list").fetchone()[2]))
    with pytest.raises(store.PlayerRenameRefused) as asked:
        store.rename_player(db, group, mikka, "mika")
    assert (asked.value.reason, asked.value.other, asked.value.games) == ("confirm", "Mika", tuple(games[1:]))
    assert _snapshot(str(db.conn.execute("pragma database_list").fetchone()[2])) == untouched
    done = store.rename_player(db, group, mikka, "mika", confirmed=store.name_key("mika"))
    assert (done.player_id, done.name, done.merged, done.games) == (mika, "Mika", True, 2)
    assert [store.get_game(db, g).players[seat] for g, seat in zip(games, (0, 1, 0), strict=True)] == ["Mika"] * 3
    assert "Mikka" not in store.player_names(db).values()
    assert record(db, "Mika")["played"] == 3 and record(db, "Mika")["won"] == 1
    # as if typed right from the start
    typed_right = connect(str(create_app({"TESTING": True, "SECRET_KEY": "t",
                                          "DATABASE": str(tmp_path / "right.sqlite3")}).config["DATABASE"]))
    try:
        store_season(typed_right, [([name.replace("Mikka", "Mika") for name in players], deals)
                                   for players, deals in SEASON])
        assert record(db, "Mika") == record(typed_right, "Mika")
    finally:
        typed_right.conn.close()


def test_two_who_played_in_one_game_are_never_made_one(db):
    """Mika and Mikka at one table, or Mikka taking over a seat in Mika's game: two people.
    Refused, naming the game, confirmed or not; nothing changes."""
    games = store_season(db, [*SEASON, (["Mika", "Mikka", "Liisa"], UNFINISHED)])
    group = groups.only_group(db).id
    mikka = player_id(db, "Mikka")
    path = str(db.conn.execute("pragma database_list").fetchone()[2])
    untouched = _snapshot(path)
    for confirmed in (None, store.name_key("Mika")):
        with pytest.raises(store.PlayerRenameRefused) as refused:
            store.rename_player(db, group, mikka, "Mika", confirmed=confirmed)
        assert (refused.value.reason, refused.value.other, refused.value.games) == ("together", "Mika", (games[3],))
    assert _snapshot(path) == untouched
    # a seat taken over: Mikka plays on in Mika's unfinished game
    other = store.create_game(db, from_dict(game_file(players=["Mika", "Pekka", "Jussi"], deals=UNFINISHED)))
    store.take_seat(db, other, 1, "Mikka")
    with pytest.raises(store.PlayerRenameRefused) as refused:
        store.rename_player(db, group, mikka, "Mika", confirmed=store.name_key("Mika"))
    assert refused.value.reason == "together" and other in refused.value.games


def test_two_at_one_club_night_are_never_made_one(db):
    """Mika and Mikka both came to one club night (at tables of their own): made one, the
    night would have one player twice. Refused, the night counted."""
    group = groups.only_group(db).id
    started = night_actions.start_night(db, group, kind="trigami", options={"target": 500},
                                        players=["Mika", "Mikka", "Liisa", "Pekka", "Anni", "Jussi"], rounds=2,
                                        ranking="placings", seating="random", seed=3)
    assert isinstance(started, night_actions.NightStarted)
    with pytest.raises(store.PlayerRenameRefused) as refused:
        store.rename_player(db, group, player_id(db, "Mikka"), "Mika", confirmed=store.name_key("Mika"))
    assert refused.value.reason == "together" and refused.value.nights == (started.night_id,)


# ----------------------------------------------------------------------------- the page


def text(response) -> str:
    """The page as a player reads it (names without their isolating marks)."""
    page = re.sub(r"</?bdi>", "", response.get_data(as_text=True))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).replace("\u2068", "").replace("\u2069", "").split())


def test_a_game_where_the_player_only_took_over_a_seat_says_it_in_its_history(client, db):
    """Mikka took over Pekka's seat from deal 2 and played on; "Mikka" put right to "Mika"
    across the group: the game's sheet names Mika, and its history says who was renamed,
    as it does for a player who sat down at the start (tester 53: it said nothing, and the
    seat change above read "Mikka", a name no longer in the game)."""
    game_id = store.create_game(db, from_dict(game_file(players=["Liisa", "Pekka", "Jussi"], deals=UNFINISHED)))
    store.take_seat(db, game_id, 1, "Mikka")
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    store.rename_player(db, groups.only_group(db).id, player_id(db, "Mikka"), "Mika")
    assert store.get_game(db, game_id).players_now == ("Liisa", "Mika", "Jussi")
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    entries = [" ".join(html.unescape(re.sub(r"<[^>]+>|[\u2068\u2069]", " ", item)).split()) for item in
               re.findall(r'<li class="change [^"]*"[^>]*>(.*?)</li>\s*(?=<li class="change|</ol>)', page, re.S)]
    assert "Players renamed" in entries[0] and "Mikka → Mika" in entries[0]
    assert "Pekka →" not in entries[0] and "Liisa →" not in entries[0]  # only the name that changed
    assert "Mikka +200" in entries[1]  # before the rename, as a started player's history reads: deal 2 by Mikka


def test_the_players_page_changes_a_name_asking_before_it_makes_two_one(client, db):
    games = store_season(db)
    mika, mikka = player_id(db, "Mika"), player_id(db, "Mikka")
    page = client.get(f"/players/{mikka}").get_data(as_text=True)
    assert f'href="/players/{mikka}/name"' in page
    form = client.get(f"/players/{mikka}/name")
    assert form.status_code == 200 and re.search(r'name="name"[^>]*value="Mikka"', form.get_data(as_text=True))
    blank = client.post(f"/players/{mikka}/name", data={"name": "  "})
    assert blank.status_code == 400 and "Enter the player's name." in text(blank)
    asked = client.post(f"/players/{mikka}/name", data={"name": "mika"})
    assert asked.status_code == 200
    assert ("Mika is already a player here. Mikka's 2 games become Mika's, and the two are one player from "
            "now on.") in text(asked)
    assert re.search(r'name="name"[^>]*value="mika"', asked.get_data(as_text=True))  # as typed
    assert store.get_game(db, games[1]).players[1] == "Mikka"  # nothing changed yet
    confirm = re.search(r'name="confirm"[^>]*value="([^"]*)"', asked.get_data(as_text=True)).group(1)
    made = client.post(f"/players/{mikka}/name", data={"name": "mika", "confirm": confirm})
    assert made.status_code == 302 and made.location == f"/players/{mika}"
    assert "Mikka and Mika are one player now: 2 games moved to Mika." in text(client.get(made.location))
    assert client.get(f"/players/{mikka}").status_code == 404
    assert store.get_game(db, games[1]).players[1] == "Mika"


def test_the_page_says_where_two_played_together(client, db):
    games = store_season(db, [*SEASON, (["Mika", "Mikka", "Liisa"], UNFINISHED)])
    refused = client.post(f"/players/{player_id(db, 'Mikka')}/name", data={"name": "Mika", "confirm": "mika"})
    assert refused.status_code == 409
    assert ("Mika and Mikka both played in 1 game or club night: they are two players, so they cannot be made "
            "one.") in text(refused)
    assert f'href="/games/{games[3]}"' in refused.get_data(as_text=True)


def test_the_page_names_a_deleted_game_and_a_club_night_the_two_shared(client, db):
    """Tester 53: two players whose only game together was deleted got the deleted game's
    own page ("This game was deleted"), the name typed gone; two who met only at a club
    night were told "1 game or club night" with nothing named. Both are said on the form,
    the name as typed, the deleted games and the night linked."""
    games = store_season(db, [*SEASON, (["Mika", "Mikka", "Liisa"], UNFINISHED)])
    assert store.delete_game(db, games[3]) is not None
    refused = client.post(f"/players/{player_id(db, 'Mikka')}/name", data={"name": "Mika", "confirm": "mika"})
    assert refused.status_code == 409
    assert "Mika and Mikka both played in 1 game or club night" in text(refused)
    assert 'href="/games/deleted"' in refused.get_data(as_text=True) and "1 deleted game" in text(refused)
    assert re.search(r'name="name"[^>]*value="Mika"', refused.get_data(as_text=True))
    group = groups.only_group(db).id
    started = night_actions.start_night(db, group, kind="trigami", options={"target": 500},
                                        players=["Gus", "Mika", "Liisa", "Pekka", "Anni", "Jussi"], rounds=2,
                                        ranking="placings", seating="random", seed=3, name="Spring night")
    night = client.post(f"/players/{player_id(db, 'Gus')}/name", data={"name": "Mika", "confirm": "mika"})
    assert night.status_code == 409 and "Mika and Gus both played in" in text(night)  # (a table too, as seated)
    assert f'href="/nights/{started.night_id}">Spring night</a>' in night.get_data(as_text=True)


def test_a_name_changed_on_another_phone_meanwhile_is_not_overwritten_unasked(client, db):
    """Tester 53: two phones renamed one player at the same time, "Ra" to "Alpha" and to
    "Beta": both were told it was done, and the last one won. The page sends the name it
    showed; the second is refused, saying the name now, and changes nothing."""
    store_season(db, SEASON[1:])
    mikka = player_id(db, "Mikka")
    shown = client.get(f"/players/{mikka}/name").get_data(as_text=True)  # both phones' page
    was = re.search(r'name="was"[^>]*value="([^"]*)"', shown).group(1)
    assert was == "Mikka"
    assert client.post(f"/players/{mikka}/name", data={"name": "Mika", "was": was}).status_code == 302
    late = client.post(f"/players/{mikka}/name", data={"name": "Mikael", "was": was})
    assert late.status_code == 409
    assert "Renamed on another phone meanwhile: this player is Mika now." in text(late)
    assert store.player_names(db)[mikka] == "Mika"


def test_a_read_only_phone_sees_no_way_to_change_a_name(app, db):
    store_season(db)
    mikka = player_id(db, "Mikka")
    view = groups.view_link(db, groups.only_group(db).id)
    db.conn.commit()
    looker = app.test_client(join=view)
    assert f"/players/{mikka}/name" not in looker.get(f"/players/{mikka}").get_data(as_text=True)
    assert looker.get(f"/players/{mikka}/name").status_code == 403  # not a form that cannot be sent (tester 53)
    assert looker.post(f"/players/{mikka}/name", data={"name": "Mika"}).status_code == 403
    assert "Mikka" in store.player_names(db).values()


# ----------------------------------------------------------------------------- races


def test_two_phones_renaming_one_player_at_the_same_instant_rename_once(race_server):
    """Two phones, each on the player's page of "Mikka", send "Mika" and "Mikael" at the
    same instant (a barrier releases them together, against the real server): one name is
    given and the other phone is told the player was renamed meanwhile; every game shows
    the one name, and nothing else changes."""
    for round_ in range(3):
        with race_server.db() as db:
            store_season(db, [(["Anni", f"Mikka{round_}", "Jussi"], WON_BY_SEAT_2),
                              ([f"Mikka{round_}", "Tuula", "Anni"], UNFINISHED)])
            mikka = player_id(db, f"Mikka{round_}")
        path = f"/players/{mikka}/name"
        phones = [race_server.phone(), race_server.phone()]
        forms = [{**phone.form(path), "name": name} for phone, name in zip(phones, (f"Mika{round_}", f"Mikael{round_}"),
                                                                           strict=True)]
        replies = at_once(*(partial(phone.post, path, form) for phone, form in zip(phones, forms, strict=True)))
        assert_no_server_error(replies, f"round {round_}")
        assert sorted(reply.status for reply in replies) == [302, 409], statuses(replies)
        told = next(reply for reply in replies if reply.status == 409)
        with race_server.db() as db:
            now = store.player_names(db)[mikka]
            assert now in (f"Mika{round_}", f"Mikael{round_}")
            assert f"Renamed on another phone meanwhile: this player is {now} now." in told.text.replace(
                "\u2068", "").replace("\u2069", "")
            games = [g for g in store.list_games(db) if now in g.players]
            assert len(games) == 2 and not [g for g in store.list_games(db) if f"Mikka{round_}" in g.players]
