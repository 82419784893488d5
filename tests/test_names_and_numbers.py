"""No input breaks it, and no two players look alike (issue 9, part 3): the examples of the
issue, each as a player or the command line would meet it. (tests/test_no_input_breaks_it.py
feeds arbitrary text everywhere; these name what must happen.)"""

from __future__ import annotations

import io
import json
import re
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorekeeper import inputs, store
from scorekeeper.cli import main
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from scorekeeper.migrations import migrations
from scorekeeper.rules import FormatError
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_web import text

ZWSP = "\u200b"


# ------------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(("typed", "number"), [
    ("3", 3), (" 12 ", 12), ("٣", 3), ("０７", 7), ("0" * 5000 + "1", 1), ("", None), ("-1", None),
    ("1.5", None), ("1e3", None), ("+3", None), ("9" * 18, 10**18 - 1), ("9" * 19, inputs.TOO_LARGE),
    ("9" * 5000, inputs.TOO_LARGE), ("²", None), ("Ⅻ", None),
    ("\u200f١٢\u200e", 12), ("\u200b3", 3), ("\u200f", None),  # marks a paste leaves (tester 38)
])
def test_a_whole_number_is_read_from_any_digits_and_never_raises(typed, number):
    assert inputs.whole_number(typed) == number


def test_a_huge_number_for_who_won_the_last_trick_is_refused_beside_the_field(client, make_game, db):
    game_id = make_game()
    before = db["deals"].count
    response = client.post(f"/games/{game_id}/deals/new", data={
        "bids_0": "S", "bids_1": "H", "bids_2": "D", "last_trick": "9" * 5000,
        "tricks_0": "4", "tricks_1": "5", "tricks_2": "4", "bugs_0": "0", "bugs_1": "0", "bugs_2": "0"})
    assert response.status_code == 400
    assert "Tap one of the players" in text(response)
    assert db["deals"].count == before


@pytest.mark.parametrize("field", ["tricks_0", "bugs_1", "tricks_0_chip"])
def test_a_count_thousands_of_digits_long_is_out_of_range_not_an_error(client, make_game, db, field):
    game_id = make_game()
    response = client.post(f"/games/{game_id}/deals/new", data={field: "7" * 5000})
    assert response.status_code == 400
    page = text(response)
    assert "Enter a number from 0 to" in page or "Tap one of the numbers" in page
    assert db["deals"].count == 0


@pytest.mark.parametrize("query", ["seat=" + "9" * 5000, "seat=" + "9" * 30, "seat=-1", "seat=%00"])
def test_an_explanation_for_a_seat_that_is_no_number_shows_every_player(client, make_game, query):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    response = client.get(f"/games/{game_id}/explain/1?{query}")
    assert response.status_code == 200
    assert "so every player is shown" in text(response)


@pytest.mark.parametrize("url", [
    "/games/{g}/deals/preview?deal=" + "9" * 5000, "/games/{g}/deals/preview?deal=" + "9" * 40,
])
def test_a_preview_of_a_deal_that_cannot_exist_is_not_found(client, make_game, url):
    assert client.post(url.format(g=make_game())).status_code == 404


@pytest.mark.parametrize("query", ["page=" + "9" * 5000, "page=" + "9" * 25, "page=-3", "player=" + "9" * 5000])
def test_past_games_with_a_page_or_player_that_cannot_exist(client, make_game, query):
    make_game()
    assert client.get(f"/?{query}").status_code in (200, 404)
    assert client.get(f"/?status=finished&{query}").status_code in (200, 404)


def test_a_paper_sheet_cell_thousands_of_digits_long_is_too_large(client):
    response = client.get("/check?kind=trigami&sent=1&p1_0=" + "9" * 5000)
    assert response.status_code == 200
    assert "That number is too large for one deal." in text(response)


# ------------------------------------------------------------------------------- names


@pytest.mark.parametrize("other", [
    "Ann" + ZWSP, "ANN", " ann ", "Ａｎｎ", "A\u00adnn", "Ann\ufe0f", "\u2060Ann", "A\u200dnn",
])
def test_names_that_look_alike_have_one_key(other):
    assert store.name_key(other) == store.name_key("Ann")


#: Tester 38: Arabic names drawn alike, typed on an Arabic or a Persian keyboard
LAYLA, LAYLA_PERSIAN_YEH, LAYLA_TATWEEL = "ليلى", "ليل\u06cc", "ليـلى"
KARIM, KARIM_KEHEH = "كريم", "\u06a9ريم"


@pytest.mark.parametrize(("one", "other"), [(LAYLA, LAYLA_PERSIAN_YEH), (LAYLA, LAYLA_TATWEEL), (KARIM, KARIM_KEHEH),
                                            ("على", "علي")])
def test_arabic_names_drawn_alike_have_one_key(one, other):
    assert store.name_key(one) == store.name_key(other)


@pytest.mark.parametrize(("one", "other"), [("Ann", "Anne"), ("Ann", "Ánn"), ("Ann", "Ana"), ("李雷", "李蕾"),
                                            ("ليلى", "ليلة"), ("كريم", "كريمة")])
def test_names_that_differ_visibly_have_different_keys(one, other):
    assert store.name_key(one) != store.name_key(other)


def test_a_name_is_stored_in_nfc_and_trimmed(client, db):
    decomposed = "Ame\u0301lie"  # e + combining acute, as some keyboards send it
    client.post("/games/new?kind=trigami", data={
        "player_0": "  " + decomposed + "  ", "player_1": "Ben", "player_2": "Carla",
        "first_dealer": "0", "target": "500"})
    names = [row["name"] for row in db["players"].rows]
    assert "Amélie" in names and unicodedata.is_normalized("NFC", "Amélie")
    assert decomposed not in names


@pytest.mark.parametrize(("one", "twin"), [("Ann", "Ann" + ZWSP), ("Ann", "ANN"), ("Ann", "Ａｎｎ"), ("Ann", "An\u00adn"),
                                           (LAYLA, LAYLA_PERSIAN_YEH), (KARIM, KARIM_KEHEH)])
def test_two_names_that_look_alike_in_one_game_are_named_twice(client, db, one, twin):
    response = client.post("/games/new?kind=trigami", data={
        "player_0": one, "player_1": twin, "player_2": "Carla", "first_dealer": "0", "target": "500"})
    assert response.status_code == 400
    assert "is named twice" in text(response)
    assert db["games"].count == 0


@pytest.mark.parametrize("name", [ZWSP, ZWSP * 3, "\u0301", " \u200d ", "\ufe0f", "\u3164"])
def test_a_name_with_no_visible_character_is_refused(client, db, name):
    response = client.post("/games/new?kind=trigami", data={
        "player_0": name, "player_1": "Ben", "player_2": "Carla", "first_dealer": "0", "target": "500"})
    assert response.status_code == 400
    assert db["games"].count == 0 and db["players"].count == 0


@pytest.mark.parametrize("name", ["Ann\u202e", "\u2066Ann", "Ann\x07", "Ann\x00"])
def test_control_and_direction_override_characters_are_refused(client, db, name):
    response = client.post("/games/new?kind=trigami", data={
        "player_0": name, "player_1": "Ben", "player_2": "Carla", "first_dealer": "0", "target": "500"})
    assert response.status_code == 400
    assert db["games"].count == 0


def test_a_tower_of_accents_on_one_letter_is_refused_and_real_names_are_not(client, db):
    """Tester 52 (LOW): "A" with 39 acute accents (40 characters) was taken as a name, and
    its accents drew through the header, the sheet, the chart and the games list. More
    than four marks on one letter are refused; names of real scripts, whose letters
    carry two or three (Vietnamese typed decomposed, Arabic with shadda and a vowel,
    Hebrew pointing), are not."""
    tower = client.post("/games/new?kind=trigami", data={
        "player_0": "A" + "\u0301" * 39, "player_1": "Ben", "player_2": "Carla", "first_dealer": "0", "target": "500"})
    assert tower.status_code == 400
    assert "Player 1&#39;s name has characters that are not text." in tower.get_data(as_text=True)
    assert db["games"].count == 0
    real = ["Nguye\u0302\u0303n", "مُحَمَّد", "שָׁלוֹם"]
    written = client.post("/games/new?kind=trigami", data={
        "player_0": real[0], "player_1": real[1], "player_2": real[2], "first_dealer": "0", "target": "500"})
    assert written.status_code == 302
    assert db["games"].count == 1


def test_every_wrong_name_of_a_new_game_is_said_beside_its_own_field_at_once(client, db):
    response = client.post("/games/new?kind=trigami", data={
        "player_0": "A" * 41, "player_1": "", "player_2": "\u202eevil", "first_dealer": "0", "target": "500"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    for seat, message in ((0, "Player 1&#39;s name is longer than 40 characters."),
                          (1, "Enter a name for player 2."),
                          (2, "Player 3&#39;s name has invisible control characters.")):
        errors = re.search(rf'<ul class="errors" id="player_{seat}-errors">(.*?)</ul>', page, re.S)
        assert errors and message in errors.group(1), seat
    assert db["games"].count == 0


def test_a_look_alike_name_in_a_new_game_is_the_same_player(client, make_game, db):
    make_game(players=["Ann", "Ben", "Carla"])
    started = client.post("/games/new?kind=trigami", follow_redirects=True, data={
        "player_0": "Ａｎｎ" + ZWSP, "player_1": "BEN", "player_2": "Dora", "first_dealer": "0", "target": "500"})
    assert db["games"].count == 2
    assert sorted(row["name"] for row in db["players"].rows) == ["Ann", "Ben", "Carla", "Dora"]
    # and the start says so with the names the sheet shows, not as typed (tester 46: "matti")
    assert "New game: \u2068Ann\u2069, \u2068Ben\u2069, \u2068Dora\u2069. \u2068Ann\u2069 deals first." in text(started)


@pytest.mark.parametrize("typed", ["C1\u200f", "\u200fC1", "\u200e C1 \u200b", "\ufeffC1\u061c"])
def test_invisible_marks_at_either_end_of_a_name_are_not_stored(client, db, typed):
    """Tester 33: "C1" + RLM was stored as typed and shown as "C1" everywhere, a second
    spelling of one player no one could see. The marks at the ends go; one inside a name
    stays (a joiner may be part of how a name is written)."""
    response = client.post("/games/new?kind=trigami", data={
        "player_0": typed, "player_1": "Be\u200dn", "player_2": "Dora", "first_dealer": "0", "target": "500"})
    assert response.status_code == 302
    game = store.get_game(db, response.headers["Location"].rsplit("/", 1)[-1])
    assert game.players == ("C1", "Be\u200dn", "Dora")


def test_a_game_file_with_a_lone_surrogate_in_a_name_is_refused_with_a_message(client, db):
    content = json.dumps(game_file(players=["Ann\udcff", "Ben", "Carla"])).encode()
    response = client.post("/games/import", data={"file": (io.BytesIO(content), "g.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "player 1's name has characters that are not text" in text(response)
    assert db["games"].count == 0


def test_a_file_with_look_alike_names_is_named_twice():
    with pytest.raises(FormatError, match="named twice"):
        from_dict(game_file(players=["Ann", "Ann" + ZWSP, "Carla"]))


# ------------------------------------------------------------------------------- m007


def test_m007_gives_existing_players_the_new_keys_and_keeps_look_alikes_apart(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    db = connect(path)
    migrations.apply(db, stop_before="m007_name_keys")
    first = store.create_game(db, from_dict(game_file(players=["Ann", "Ben", "Carla"], deals=[WORKED_TRIGAMI_DEAL])))
    second = store.create_game(db, from_dict(game_file(players=["Dora", "ＢＥＮ x", "Carla"])))
    # As the old key (spaces folded, casefolded) stored them: "Ann" + zero-width space
    # and "Ａｎｎ" were players of their own
    for old, name in (("Dora", "Ann" + ZWSP), ("ＢＥＮ x", "Ａｎｎ")):
        db.execute("update players set name = ?, name_key = ? where name = ?",
                   [name, " ".join(name.split()).casefold(), old])
    db.conn.commit()
    before = {game_id: store.get_game(db, game_id) for game_id in (first, second)}
    migrations.apply(db)
    rows = {row["name"]: row for row in db["players"].rows}
    assert rows["Ann"]["name_key"] == "ann"  # the first stored keeps the key
    assert rows["Ann" + ZWSP]["name_key"] == f"ann\x1f{rows['Ann' + ZWSP]['id']}"  # kept apart
    assert rows["Ａｎｎ"]["name_key"] == f"ann\x1f{rows['Ａｎｎ']['id']}"
    assert rows["Carla"]["name_key"] == "carla"
    for game_id, game in before.items():  # no game lost or changed
        assert store.get_game(db, game_id).players == game.players
    assert len({row["name_key"] for row in rows.values()}) == len(rows)
    # a new game with either spelling joins the first one
    store.create_game(db, from_dict(game_file(players=["ANN", "Ben", "Carla"])))
    assert db["players"].count == len(rows)
    db.conn.close()


def test_m021_gives_arabic_look_alikes_one_key_and_keeps_stored_ones_apart(tmp_path):
    """Players stored before m021 as "ليلى" and "ليلی" (a Persian keyboard's yeh) were two;
    after it the first keeps the key both spellings now have, the other keeps its games
    apart (as m007 did), and a new game with either spelling joins the first."""
    path = str(tmp_path / "old.sqlite3")
    db = connect(path)
    migrations.apply(db, stop_before="m021_arabic_name_keys")
    first = store.create_game(db, from_dict(game_file(players=[LAYLA, "Ben", "Carla"], deals=[WORKED_TRIGAMI_DEAL])))
    second = store.create_game(db, from_dict(game_file(players=["Dora", "Ben", "Carla"])))
    # as the key before m021 stored it: the Persian spelling a player of its own
    db.execute("update players set name = ?, name_key = ? where name = ?",
               [LAYLA_PERSIAN_YEH, LAYLA_PERSIAN_YEH, "Dora"])
    db.conn.commit()
    before = {game_id: store.get_game(db, game_id).players for game_id in (first, second)}
    migrations.apply(db)
    rows = {row["name"]: row for row in db["players"].rows}
    assert rows[LAYLA]["name_key"] == store.name_key(LAYLA_PERSIAN_YEH)
    assert rows[LAYLA_PERSIAN_YEH]["name_key"] == f"{store.name_key(LAYLA)}\x1f{rows[LAYLA_PERSIAN_YEH]['id']}"
    assert {game_id: store.get_game(db, game_id).players for game_id in before} == before
    store.create_game(db, from_dict(game_file(players=[LAYLA_TATWEEL, "Ben", "Carla"])))
    assert db["players"].count == len(rows)
    db.conn.close()


# ------------------------------------------------------------------------------- command line


@pytest.fixture
def cli(app):
    def run(*args: str):
        env = {"SCOREKEEPER_DATABASE": app.config["DATABASE"], "SCOREKEEPER_SECRET_KEY": "test"}
        return CliRunner(env=env).invoke(main, list(args))

    return run


def test_import_of_a_name_with_a_lone_surrogate_says_so_without_a_traceback(cli, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game_file(players=["Ann\udcff", "Ben", "Carla"])), encoding="utf-8")
    result = cli("import", str(path))
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "player 1's name has characters that are not text" in result.stderr
    assert "Traceback" not in result.output


def test_import_of_too_many_deals_or_too_large_a_file_is_refused(app, cli, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL] * 501)), encoding="utf-8")
    result = cli("import", str(path))
    assert result.exit_code == 1 and "it has 501 deals; a game file to import holds at most 500" in result.stderr
    path.write_text(json.dumps({**game_file(), "note": "x" * 600_000}), encoding="utf-8")
    result = cli("import", str(path))
    assert result.exit_code == 1 and "larger than a game file to import (512 KB at most)" in result.stderr
    # score reads no more either (tester 66: /dev/zero was read until memory ran out)
    result = cli("score", str(path))
    assert result.exit_code == 1 and "larger than a game file to score (512 KB at most)" in result.stderr
    if Path("/dev/zero").exists():
        result = cli("score", "/dev/zero")
        assert result.exit_code == 1 and result.stderr == "scorekeeper: /dev/zero is larger than a game file to score " \
            "(512 KB at most)\n"


def test_a_game_is_never_played_past_what_an_import_takes_so_its_group_always_moves(app, client, cli, db,
                                                                                       tmp_path):
    """Tester 2 (stop 31): a game of target 5,000 took a 501st deal, and then its own
    group's file could not be imported (a group moves whole or not at all). The 501st
    deal is refused with a reason beside nothing lost, and the group's file of the game
    at 500 deals is imported again."""
    import_file = tmp_path / "long.json"
    quiet = {"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [4, 5, 4], "bugs": [4, 5, 4]}  # 0 each
    import_file.write_text(json.dumps(game_file(options={"target": 5000}, deals=[quiet] * 500)), encoding="utf-8")
    imported = cli("import", str(import_file))
    assert imported.exit_code == 0, imported.stderr
    game_id = imported.stdout.splitlines()[-1].rsplit("/", 1)[-1]
    form = {"bids_0": "S", "bids_1": "H", "bids_2": "D", "tricks_0": "4", "tricks_1": "5", "tricks_2": "4",
            "bugs_0": "4", "bugs_1": "5", "bugs_2": "4", "nonce": "deal-501"}
    refused = client.post(f"/games/{game_id}/deals/new", data=form)
    assert refused.status_code in (400, 409)
    assert "A game holds at most 500 deals, so that its file can always be imported again" in refused.get_data(
        as_text=True)
    assert len(store.get_game(db, game_id).deals) == 500
    group = tmp_path / "group.json"
    group.write_text(cli("export", "--group", "1").stdout, encoding="utf-8")
    again = cli("import", "--copy", str(group))
    assert again.exit_code == 0, again.stderr


def test_export_of_a_game_whose_id_starts_with_a_dash(cli, make_game, db):
    game_id = make_game()
    old = "-" + game_id[1:]  # as 1 in 64 games were stored before ids stopped starting with "-"
    db.execute("pragma foreign_keys = off")
    for table in db.table_names():
        if "game_id" in db[table].columns_dict:
            db.execute(f'update "{table}" set game_id = ? where game_id = ?', [old, game_id])
    db.execute("update games set id = ? where id = ?", [old, game_id])
    db.conn.commit()
    result = cli("export", old)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["players"] == ["Anna", "Ben", "Carla"]
    assert cli("export", "--", old).exit_code == 0


@pytest.mark.parametrize("args", [["export", "-no-such-game"], ["export", "\udcff"], ["export", "9" * 5000],
                                  ["serve", "--port", "9" * 5000], ["serve", "--port", "70000"],
                                  ["import", "/no/such/file.json"]])
def test_odd_command_line_arguments_get_a_message_not_a_traceback(cli, args):
    result = cli(*args)
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


def test_after_m007_renaming_a_look_alike_to_the_first_ones_name_makes_them_one(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    db = connect(path)
    migrations.apply(db, stop_before="m007_name_keys")
    store.create_game(db, from_dict(game_file(players=["Ann", "Ben", "Carla"])))
    other = store.create_game(db, from_dict(game_file(players=["Dora", "Ben", "Carla"])))
    db.execute("update players set name = ?, name_key = ? where name = 'Dora'", ["Ann" + ZWSP, "ann" + ZWSP])
    db.conn.commit()
    migrations.apply(db)
    store.update_game(db, other, players=["Ann", "Ben", "Carla"])
    assert sorted(row["name"] for row in db["players"].rows) == ["Ann", "Ben", "Carla"]
    assert store.get_game(db, other).players == ("Ann", "Ben", "Carla")
    db.conn.close()


def test_a_game_file_with_a_number_thousands_of_digits_long_says_so(client, db):
    content = json.dumps(game_file()).replace('"first_dealer": 0', '"first_dealer": ' + "9" * 5000).encode()
    response = client.post("/games/import", data={"file": (io.BytesIO(content), "g.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "it holds a number thousands of digits long" in text(response)
    assert db["games"].count == 0


def test_a_negative_count_is_named_beside_its_field_not_added_up_wrongly(client, make_game):
    """Tricks −4, 13, 4: the −4 is refused beside Anna's field; the summary does not also
    claim that the tricks "add up to 17" (the −4 read as nothing, the rest summed)."""
    from tests.test_web import WORKED_FORM

    game_id = make_game()
    answer = client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "tricks_0": "-4", "tricks_1": "13",
                                                              "tricks_2": "4"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "cannot be negative" in page
    assert "add up to 17" not in page


def test_a_name_of_a_blank_braille_pattern_shows_nothing_and_is_refused(client):
    answer = client.post("/games/new?kind=trigami", data={"player_0": "Anna", "player_1": "Ben",
                                                          "player_2": "\u2800", "first_dealer": "0", "target": "500"})
    assert answer.status_code == 400 and 'id="problems"' in answer.get_data(as_text=True)


# A browser cuts a pasted name at a field's maxlength without a word: "Bartholomew-Maximilian
# von Hohenzollern-Sigmaringen" would be saved as "Bartholomew-Maximilian von Hohenzolle".
# No name field carries one; the server refuses a long name beside its field instead.
LONG_NAME = "Bartholomew-Maximilian von Hohenzollern-Sigmaringen"  # 51 characters


def _name_inputs(html: str, names: tuple[str, ...]) -> list[str]:
    wanted = re.compile(r'\bname="(?:' + "|".join(map(re.escape, names)) + ')"')
    return [tag for tag in re.findall(r"<input[^>]*>", html) if wanted.search(tag)]


@pytest.mark.parametrize(("address", "names"), [
    ("/games/new?kind=trigami", ("player_0", "player_1", "player_2")),
    ("/games/new?kind=trix", ("player_0", "player_1", "player_2", "player_3")),
    ("/calculator?kind=trigami", ("player",)),
    ("/check?kind=trix", ("n0", "n1", "n2", "n3")),
])
def test_no_name_field_cuts_a_long_name_short_without_a_word(client, address, names):
    inputs = _name_inputs(client.get(address).get_data(as_text=True), names)
    assert len(inputs) >= len(names)
    assert [tag for tag in inputs if "maxlength" in tag] == []


def test_a_long_name_taking_a_seat_is_refused_beside_its_field_and_kept(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    page = client.get(f"/games/{game_id}/edit").get_data(as_text=True)
    field = _name_inputs(page, ("player",))
    assert field and "maxlength" not in field[0]
    answer = client.post(f"/games/{game_id}/seats", data={"seat": "2", "player": LONG_NAME, "from_deal": "2",
                                                          "nonce": "long"})
    assert answer.status_code == 400
    said = answer.get_data(as_text=True)
    assert "longer than 40 characters" in said
    assert f'value="{LONG_NAME}"' in said
    assert store.get_game(db, game_id).players_now == ("Anna", "Ben", "Carla")
