"""A club night's guards, through the pages (a fresh tester's findings): a table's game
keeps the night's players and settings (docs/club-nights.md, "A table's game"), a late
arrival in the last round, players who never played a round, a night file without a
round, night names checked as player names are, and the import's messages.
"""

from __future__ import annotations

import io
import json
import re

import pytest

from scorekeeper import actions, night_store
from tests.test_nights import NINE, fixed_seed, night, play_trigami, standing_rows, start, text  # noqa: F401 (a fixture)
from tests.test_transfer import upload

SIX = NINE[:6]
pytestmark = pytest.mark.usefixtures("fixed_seed")  # the draw fixed: a failure replays


def _tables(db, night_id):
    return night(db, night_id).current.tables


def assert_nobody_at_two_tables(db, night_id) -> None:
    for round_ in night(db, night_id).rounds:
        seated = [name.casefold() for table in round_.tables for name in table.game.players]
        assert len(seated) == len(set(seated)), seated


# ----------------------------------------------------------------- a table keeps the night's players


def test_a_table_phone_cannot_change_who_plays_or_the_target(client, db):
    night_id = start(client, "trigami", SIX, 2)
    one, two = _tables(db, night_id)
    page = client.get(f"/games/{one.game.id}/edit")
    assert page.status_code == 200
    said = text(page)
    assert "This game is table 1 of round 1 of" in said and "its players and settings are the night's" in said
    # an old page (or a hand-made request): Player 1 renamed to a player of table 2, the target raised
    answer = client.post(f"/games/{one.game.id}/edit", data={
        "nonce": "n1", "seen": str(one.game.version), "player_0": two.game.players[0],
        "player_1": one.game.players[1], "player_2": one.game.players[2], "target": "200",
        "confirm_player": two.game.players[0].casefold()})
    assert answer.status_code != 302
    assert "Nothing was changed." in text(answer)
    assert text(answer).count("its players and settings are the night's") == 1  # said once, not twice
    after = night_store.get_night(db, night_id).current.tables[0].game
    assert after.players == one.game.players and after.options == one.game.options
    assert_nobody_at_two_tables(db, night_id)
    # checked by the write itself, whatever page sent it
    result = actions.change_game(db, one.game.id, players=["Zed", *one.game.players[1:]],
                                 options=one.game.options, seen=None, nonce="n2")
    assert result == actions.NightTable(night_id, 1, 1)
    assert night_store.get_night(db, night_id).current.tables[0].game.players == one.game.players


def test_a_table_seat_is_not_taken_over(client, db):
    night_id = start(client, "trigami", SIX, 2)
    one, two = _tables(db, night_id)
    client.post(f"/games/{one.game.id}/deals/new", data={
        "nonce": "d1", **{f"bids_{s}": "SHD"[s] for s in range(3)}, "tricks_0": "5", "tricks_1": "4",
        "tricks_2": "4", **{f"bugs_{s}": "0" for s in range(3)}})
    game = night_store.get_night(db, night_id).current.tables[0].game
    answer = client.post(f"/games/{one.game.id}/seats", data={
        "seat": "0", "player": two.game.players[1], "from_deal": str(len(game.deals) + 1),
        "seen": str(game.version), "nonce": "s1"})
    assert answer.status_code != 302
    assert "its players and settings are the night's" in text(answer)
    assert night_store.get_night(db, night_id).current.tables[0].game.seat_changes == ()
    assert_nobody_at_two_tables(db, night_id)


def test_a_table_game_is_not_deleted_on_its_own(client, db):
    night_id = start(client, "trigami", SIX, 2)
    one = _tables(db, night_id)[0]
    asked = text(client.get(f"/games/{one.game.id}/delete"))
    assert "a night's tables are removed with their night, or not at all" in asked
    assert "Delete game" not in asked
    answer = client.post(f"/games/{one.game.id}/delete")
    assert answer.status_code == 409
    assert "This game is table 1 of round 1 of" in text(answer)
    assert not night_store.get_night(db, night_id).current.tables[0].deleted
    assert client.get(f"/games/{one.game.id}").status_code == 200


def test_an_ordinary_game_is_still_renamed_and_deleted(client, db, make_game):
    start(client, "trigami", SIX, 1)
    game_id = make_game()
    edit = client.get(f"/games/{game_id}/edit")
    assert "players and settings are the night's" not in text(edit)
    assert client.post(f"/games/{game_id}/delete").status_code == 302


# ----------------------------------------------------------------- the last round


def finish_round(client, db, night_id, tag: str) -> None:
    """Every table of the current round plays one deal to 100 (the round is over)."""
    for table in _tables(db, night_id):
        players = table.game.players
        play_trigami(client, table.game.id, players, sorted(players), f"{tag}t{table.number}")


def test_no_late_arrival_in_the_last_round(client, db):
    night_id = start(client, "trigami", SIX, 2)
    finish_round(client, db, night_id, "r1")
    assert client.post(f"/nights/{night_id}/next").status_code == 302
    answer = client.post(f"/nights/{night_id}/arrive", data={"name": "Jonas"})
    assert answer.status_code == 400
    said = text(answer)
    assert "there is no next round to join" in said and "joins from round 3" not in said
    assert night(db, night_id).player("Jonas") is None
    # in round 1 of 2 a late arrival joins from round 2
    other = start(client, "trigami", SIX, 2)
    assert client.post(f"/nights/{other}/arrive", data={"name": "Jonas"}).status_code == 302
    assert night(db, other).player("Jonas").from_round == 2


def test_a_player_who_never_played_a_round_is_not_ranked(client, db):
    """Six play round 1 of 2 (each table: 140, 120, 50 → 4, 2, 0 placing points); Jonas
    arrives late, not seated yet. The standing ranks the six only: Jonas's row of zeros
    would rank above anyone with a negative total (or, under reversed Trix scoring, above
    everyone), so he is not in it until he plays (docs/club-nights.md, "The standing")."""
    night_id = start(client, "trigami", SIX, 2)
    finish_round(client, db, night_id, "r1")
    assert client.post(f"/nights/{night_id}/arrive", data={"name": "Jonas"}).status_code == 302
    rows = standing_rows(client, night_id)
    assert [row[1] for row in rows if row[1] == "Jonas"] == []
    assert len(rows) == 6
    assert [row[0] for row in rows] == ["1=", "1=", "3=", "3=", "5=", "5="]
    assert {(row[2], row[3]) for row in rows[:2]} == {(4, 140)}
    assert {(row[2], row[3]) for row in rows[4:]} == {(0, 50)}


# ----------------------------------------------------------------- the night file and the night's name


def import_file(client, data) -> tuple[int, str]:
    """Upload ``data`` (a dict or list, as JSON) on the import page: (status, the page's words)."""
    raw = json.dumps(data).encode()
    answer = client.post("/games/import", data={"file": (io.BytesIO(raw), "night.json")},
                         content_type="multipart/form-data")
    return answer.status_code, text(answer)


def exported(client, db) -> dict:
    night_id = start(client, "trigami", SIX, 2)
    return json.loads(client.get(f"/nights/{night_id}/night.json").data)


def test_a_night_file_without_a_round_is_refused(client, db):
    data = exported(client, db)
    nights_before = db["nights"].count
    status, said = import_file(client, {**data, "rounds": []})
    assert status == 400
    assert "Nothing was imported." in said and "a night has at least one round" in said
    assert db["nights"].count == nights_before


def test_a_wrong_until_round_is_said_once(client, db):
    data = exported(client, db)
    data["players"][0]["until_round"] = 0
    status, said = import_file(client, data)
    assert status == 400
    assert "until_round must be a round number from from_round on, or null" in said
    assert "is not one of the night's players" not in said and "was not there" not in said
    assert "neither at a table nor sitting out" not in said


@pytest.mark.parametrize("name", ["Club \u202enight", "Bell\x07night", "Iso\u2066night", "x" * 61, "x" * 5000])
def test_a_night_name_is_checked_as_a_player_name_is(client, db, name):
    data = exported(client, db)
    nights_before, games_before = db["nights"].count, db["games"].count
    status, said = import_file(client, {**data, "night": name})
    assert status == 400 and "night" in said
    assert "invisible control characters" in said or "longer than 60 characters" in said
    assert db["nights"].count == nights_before
    form = {"newcomers": "\n".join(SIX), "rounds": "1", "ranking": "placings", "seating": "random",
            "target": "100", "name": name}
    answer = client.post("/nights/new?kind=trigami", data=form)
    assert answer.status_code == 400
    page = text(answer)
    assert "The night's name has invisible control characters." in page or \
        "The night's name is longer than 60 characters." in page
    assert (db["nights"].count, db["games"].count) == (nights_before, games_before)


def test_a_night_name_of_60_characters_is_kept(client, db):
    name = "Torstai-ilta " + "x" * 47
    form = {"newcomers": "\n".join(SIX), "rounds": "1", "ranking": "placings", "seating": "random",
            "target": "100", "name": name}
    answer = client.post("/nights/new?kind=trigami", data=form)
    assert answer.status_code == 302
    assert night(db, int(answer.location.rsplit("/", 1)[-1])).name == name


def test_import_messages_name_night_files(client, db):
    status, said = import_file(client, [1, 2, 3])
    assert status == 400 and "game file, group file or night file" in said


def test_one_player_ticked_is_said_in_the_singular(client, db):
    form = {"newcomers": "Aino", "rounds": "1", "ranking": "placings", "seating": "random", "target": "100"}
    said = text(client.post("/nights/new?kind=trigami", data=form))
    assert "only 1 is ticked or typed" in said and "only 1 are" not in said


def test_leaves_after_this_round_with_nobody_chosen_is_said_beside_the_choice(client, db):
    night_id = start(client, "trigami", SIX, 2)
    answer = client.post(f"/nights/{night_id}/leave", data={})
    assert answer.status_code == 400
    body = answer.get_data(as_text=True)
    # the answer opens at the leaver's form (its fragment), the message beside the names
    assert f'action="/nights/{night_id}/leave#leave"' in body and 'id="leave"' in body
    choice = body[body.index('id="leave"'):]
    assert "Choose who leaves." in text_of(choice[:choice.index("</form>")])
    assert all(p.until_round is None for p in night(db, night_id).players)


def text_of(fragment: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())


def test_a_file_too_large_names_night_files_too(client, db):
    """Over the game file's limit and no group or night file: the 413 page says what each
    kind of file may weigh, night files included."""
    raw = json.dumps({"padding": "x" * 600 * 1024}).encode()
    answer = upload(client, raw, "big.json")  # built by hand: the test client leaves a large body's file open
    assert answer.status_code == 413
    assert "A group file or a night file sent here is at most" in text(answer)
