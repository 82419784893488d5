"""The whole group out and in (issue 18, part 4): the group file of GAME-FILE.md, written by
"Download all games" on the Group page and by ``scorekeeper export --group``, read by the
upload page and ``scorekeeper import --group``; every game equal after the move, a second
import storing nothing and saying so, a broken game refusing the whole file by name."""

from __future__ import annotations

import io
import json
import re
import threading
from typing import Any

import pytest
from click.testing import CliRunner, Result

from scorekeeper import actions, cli, create_app, groups, night_store, store, summaries
from scorekeeper.cli import main
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict, same_game_key
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.database_support import new_database
from tests.race_support import form_fields, multipart, with_deal
from tests.test_gamefile import BUGAMI3_DEALS, TRIX_KINGDOM, plain_deal
from tests.test_nights import NINE, fixed_seed, start  # noqa: F401 - a fixture
from tests.test_web import text

#: A season's games, oldest first: a Trigami game to 300, plain Bugami for three, a
#: partners' Trix kingdom, a game started and never played, and a second one just like it
SEASON = [
    game_file(players=["Jörg", "Aino", "Sara"], options={"target": 300},
              deals=[WORKED_TRIGAMI_DEAL, plain_deal([6, 0, 7], [2, 0, 3])]),
    game_file("bugami3", players=["Aino", "Jörg", "Mika"], first_dealer=2, deals=BUGAMI3_DEALS),
    game_file("trix", players=["سارة", "محمد", "Jörg", "Aino"], options={"partnership": "sum"},
              deals=TRIX_KINGDOM),
    game_file(players=["Anna", "Ben", "Carla"]),
    game_file(players=["Anna", "Ben", "Carla"]),
]


def season(db, group_id: int) -> list[str]:
    """Store :data:`SEASON` in group ``group_id``, oldest first; returns the games' ids."""
    return [store.create_game(db, from_dict(data), group_id=group_id) for data in SEASON]


def exported_games(db, group_id: int) -> list[dict[str, Any]]:
    """Every game of the group as its own "Game file" download gives it, oldest first."""
    return [game.exported() for game in reversed(store.list_games(db, group_id))]


def run(database: str, *args: str, input: str | None = None) -> Result:
    env = {"SCOREKEEPER_DATABASE": database, "SCOREKEEPER_SECRET_KEY": "test"}
    return CliRunner(env=env).invoke(main, list(args), input=input)


@pytest.fixture
def two_groups(app, db):
    """The app's group ("Tuesday table") holding :data:`SEASON`, and an empty second group
    ("Friday club"): (first, second)."""
    first = groups.only_group(db)
    groups.rename(db, first.id, "Tuesday table")
    season(db, first.id)
    second = groups.create(db, "Friday club")
    return groups.get(db, first.id), second


# ------------------------------------------------------------------------- command line


def test_a_group_named_as_another_groups_number_is_told_apart(app, db, two_groups):
    """Tester 68: with group 1 and a group named "1", ``--group 1`` said "several groups
    called '1'": one is called that, the other has that number. Said so, and a name
    typed 3,000 characters long is not repeated whole."""
    first, second = two_groups
    groups.rename(db, second.id, str(first.id))
    said = run(app.config["DATABASE"], "export", "--group", str(first.id))
    assert said.exit_code == 1
    assert (f"'{first.id}' is the number of group {first.id} (Tuesday table) and the name of group {second.id}: "
            "say which by its other number or name") in said.stderr
    assert run(app.config["DATABASE"], "export", "--group", "Tuesday table").exit_code == 0
    long = run(app.config["DATABASE"], "export", "--group", "y" * 3000)
    assert long.exit_code == 1 and f"no group '{'y' * 60}…'" in long.stderr and len(long.stderr) < 300


def test_export_group_prints_the_group_file_of_game_file_md(app, db, two_groups):
    first, _second = two_groups
    result = run(app.config["DATABASE"], "export", "--group", "Tuesday table")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == ["format", "group", "games"]
    assert data["format"] == 1 and data["group"] == "Tuesday table"
    # oldest first, each game exactly what its own download gives
    assert data["games"] == exported_games(db, first.id)
    assert [game["players"] for game in data["games"]] == [game["players"] for game in SEASON]
    assert data["games"][0]["options"] == {"target": 300}
    assert data["games"][2]["options"]["partnership"] == "sum"
    # by the group's number too
    assert run(app.config["DATABASE"], "export", "--group", str(first.id)).stdout == result.stdout


def test_export_import_group_round_trip_keeps_every_game(app, db, two_groups, tmp_path):
    first, _second = two_groups
    exported = run(app.config["DATABASE"], "export", "--group", "Tuesday table")
    path = tmp_path / "tuesday.json"
    path.write_text(exported.stdout, encoding="utf-8")
    # another server: a new database, its one group made by the import
    other = new_database(tmp_path / "other.sqlite3")
    result = run(other, "import", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "5 games imported, 0 already there"
    assert "game 3 (Trix: سارة, محمد, Jörg, Aino, 5 deals): imported /games/" in result.stdout
    again = run(other, "export", "--group", "1")
    assert json.loads(again.stdout)["games"] == json.loads(exported.stdout)["games"]
    # and another group of the same server
    result = run(app.config["DATABASE"], "import", "--group", "Friday club", str(path))
    assert result.exit_code == 0, result.stderr
    moved = json.loads(run(app.config["DATABASE"], "export", "--group", "Friday club").stdout)
    assert moved["games"] == json.loads(exported.stdout)["games"]
    assert len(store.list_games(db, first.id)) == 5  # the first group's games are its own still


@pytest.mark.parametrize("where", ["file", "--group"])
def test_a_new_databases_group_is_named_as_the_group_page_would_keep_it(tmp_path, where):
    """Tester 66: on a new database, the group file's "group" (or ``--group``) of 518
    characters with ESC, BEL and a right-to-left override became the group's name as it
    was, into every page's top bar and ``scorekeeper groups``. The name is kept as the
    Group page keeps a typed one: those characters out, 60 characters at most; nothing
    visible left, the usual "Our games"."""
    dirty = "\u001b[31mRED\u001b[0m \u202eTuesday\u0007 table " + "x" * 500
    for name, kept in ((dirty, ("[31mRED[0m Tuesday table " + "x" * 60)[:60]), ("\u202e\u0007 \u200f", "Our games")):
        database = new_database(tmp_path / f"{where}-{len(name)}.sqlite3")
        path = tmp_path / "our.json"
        path.write_text(json.dumps({"format": 1, "group": name if where == "file" else "Tuesday",
                                    "games": [game_file(deals=[WORKED_TRIGAMI_DEAL])]}), encoding="utf-8")
        args = ["import", str(path)] if where == "file" else ["import", "--group", name, str(path)]
        result = run(database, *args)
        assert result.exit_code == 0, result.stderr
        # said, not done silently (tester 70: a name of 100,000 characters cut to 60 unsaid)
        assert "kept as the Group page keeps names: at most 60 characters" in result.stderr
        db = connect(database)
        try:
            assert [g.name for g in groups.all_groups(db)] == [kept]
        finally:
            db.conn.close()


@pytest.mark.parametrize("named", [["--group", "Friday"], []], ids=["--group", "the file's name"])
def test_a_refused_file_on_a_new_database_leaves_no_group_behind(tmp_path, named):
    """Tester 70: on a new database, a group file refused for a broken game ("nothing
    imported", exit 1) still made the group it was to go into; `scorekeeper groups`
    listed it empty with a working link, and the corrected file's games then went into it
    under the refused command's name. Nothing is stored, no group either; the corrected
    file makes its group then."""
    database = new_database(tmp_path / "new.sqlite3")
    broken = {"format": 1, "group": "Our crew", "games": [game_file(deals=[WORKED_TRIGAMI_DEAL]),
                                                          game_file(players=["Anna", "Anna", "Ben"])]}
    path = tmp_path / "crew.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    refused = run(database, "import", *named, str(path))
    assert refused.exit_code == 1 and "nothing imported" in refused.stderr
    assert "was made" not in refused.stderr
    db = connect(database)
    try:
        assert groups.all_groups(db) == []
    finally:
        db.conn.close()
    path.write_text(json.dumps({**broken, "games": broken["games"][:1]}), encoding="utf-8")
    result = run(database, "import", str(path))
    assert result.exit_code == 0, result.stderr
    assert "the group Our crew was made for the file's games" in result.stderr
    db = connect(database)
    try:
        assert [(g.name, len(store.list_games(db, g.id))) for g in groups.all_groups(db)] == [("Our crew", 1)]
    finally:
        db.conn.close()


def test_a_file_of_no_games_or_a_group_number_on_a_new_database_makes_no_group(tmp_path):
    """Tester 72: on a new database a group file with no games said "0 games imported" and
    made the group "Our games" all the same; and `--group 3` said "no group '3'" as if
    there were groups to list."""
    database = new_database(tmp_path / "new.sqlite3")
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"format": 1, "group": "", "games": []}), encoding="utf-8")
    result = run(database, "import", str(path))
    assert result.exit_code == 0 and "0 games imported" in result.stdout and "was made" not in result.stderr
    path.write_text(json.dumps({"format": 1, "group": "Crew", "games": [game_file(deals=[WORKED_TRIGAMI_DEAL])]}),
                    encoding="utf-8")
    numbered = run(database, "import", "--group", "3", str(path))
    assert numbered.exit_code == 1
    assert "this database has no group yet, so none is number 3" in numbered.stderr
    db = connect(database)
    try:
        assert groups.all_groups(db) == []
    finally:
        db.conn.close()


def test_import_group_twice_stores_nothing_the_second_time_and_says_so(app, db, two_groups, tmp_path):
    _first, second = two_groups
    path = tmp_path / "tuesday.json"
    path.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    assert run(app.config["DATABASE"], "import", "--group", "Friday club", str(path)).exit_code == 0
    result = run(app.config["DATABASE"], "import", "--group", "Friday club", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "0 games imported, 5 already there"
    assert result.stdout.count("already there /games/") == 5
    assert len(store.list_games(db, second.id)) == 5
    # into the group it came from: every game is there already, the two empty ones too
    result = run(app.config["DATABASE"], "import", "--group", "Tuesday table", str(path))
    assert result.stdout.splitlines()[-1] == "0 games imported, 5 already there"


def test_a_group_file_with_nothing_new_is_not_said_imported(app, db, two_groups):
    """Tester 6 (LOW): a group file imported again, or one holding no games, was headed
    "Group file imported" over "0 games imported.": nothing new is said so, and a file
    without games says it holds none."""
    _first, second = two_groups
    data = json.loads(app.test_client().get("/group/games.json").data)
    phone = app.test_client(join=second.token)
    first = said(upload(phone, json.dumps(data, ensure_ascii=False).encode()))
    assert first.count("Group file imported") == 2 and "5 games imported." in first  # the title and the heading
    again = said(upload(phone, json.dumps(data, ensure_ascii=False).encode()))
    assert "Group file imported" not in again
    assert again.count("Nothing new in this group file") == 2
    assert "0 games imported. 5 games were here already: not stored again." in again
    empty = said(upload(phone, json.dumps({**data, "games": []}).encode()))
    assert "Nothing new in this group file" in empty and "The file holds no games." in empty
    assert "0 games imported" not in empty
    assert len(store.list_games(db, second.id)) == 5


def test_a_name_thousands_of_letters_long_is_cut_in_its_games_heading(app, two_groups):
    """Tester 6 (LOW): a group file whose game has a 5,000-letter name (with spaces) put
    the whole name in the game's heading, 200 lines on a phone before its problem: the
    heading cuts it at 40 letters and "…"; the problem says the name is too long."""
    _first, second = two_groups
    data = json.loads(app.test_client().get("/group/games.json").data)
    long_name = ("Annabella " * 500).strip()
    data["games"][0]["players"][0] = long_name
    page = said(upload(app.test_client(join=second.token), json.dumps(data).encode()))
    assert "player 1's name is longer than 40 characters" in page
    assert long_name[:40] + "…" in page
    assert long_name[:41] not in page and page.count("Annabella") <= 6


def test_a_game_already_there_is_the_same_players_in_any_case_and_counted_once_per_copy(app, db, two_groups,
                                                                                        tmp_path):
    _first, second = two_groups
    # the second group has one of the two empty games, its names typed otherwise, and a
    # game with the same players but another deal (the file game's second deal as its first)
    store.create_game(db, from_dict(game_file(players=["ANNA", "ben", "Carla"])), group_id=second.id)
    store.create_game(db, from_dict({**SEASON[0], "deals": SEASON[0]["deals"][1:]}), group_id=second.id)
    path = tmp_path / "tuesday.json"
    path.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    result = run(app.config["DATABASE"], "import", "--group", "Friday club", str(path))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "4 games imported, 1 already there"
    assert "game 1 (Trigami: Jörg, Aino, Sara, 2 deals): imported" in lines[0]
    assert "game 4 (Trigami: Anna, Ben, Carla, 0 deals): already there" in lines[3]
    assert "game 5 (Trigami: Anna, Ben, Carla, 0 deals): imported" in lines[4]


def test_a_game_the_file_lists_again_is_stored_once(app, db, two_groups, tmp_path):
    """GAME-FILE.md: importing a group file stores each game as importing its own file
    would, and a game already stored is not stored again. A hand-made file listing the
    played Trigami game three times (and the Trix game twice) stores each once; the
    copies after the first are already there, as that game."""
    _first, second = two_groups
    data = json.loads(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout)
    trigami, trix = data["games"][0], data["games"][2]
    path = tmp_path / "again.json"
    path.write_text(json.dumps({**data, "games": [trigami, trix, trigami, trix, trigami]}), encoding="utf-8")
    result = run(app.config["DATABASE"], "import", "--group", "Friday club", str(path))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    # the group had neither game: nothing was "already there"; the copies are told as copies
    assert lines[-1] == "2 games imported, 0 already there, 3 copies in the file"
    stored = {game.kind: game.id for game in store.list_games(db, second.id)}
    assert len(store.list_games(db, second.id)) == 2
    assert lines[2] == f"game 3 (Trigami: Jörg, Aino, Sara, 2 deals): a copy of game 1 of the file: the same game, counted once " \
                       f"/games/{stored['trigami']}"
    assert lines[3] == f"game 4 (Trix: سارة, محمد, Jörg, Aino, 5 deals): a copy of game 2 of the file: the same game, counted once " \
                       f"/games/{stored['trix']}"
    assert lines[4] == f"game 5 (Trigami: Jörg, Aino, Sara, 2 deals): a copy of game 1 of the file: the same game, counted once " \
                       f"/games/{stored['trigami']}"
    # Sara sat in one game, not three
    assert [r.played for r in summaries.records(db, second.id) if r.name == "Sara"] == [1]


def test_web_a_game_the_file_lists_again_is_stored_once_even_into_a_game_played_on(app, db, two_groups):
    """The tester's file: one finished game listed twice. Uploaded into a group holding that
    game played on since, both copies are that game, continued since; into an empty group
    it is stored once."""
    _first, second = two_groups
    data = json.loads(app.test_client().get("/group/games.json").data)
    trix = data["games"][2]
    twice = json.dumps({**data, "games": [trix, trix]}, ensure_ascii=False).encode()
    phone = app.test_client(join=second.token)
    page = said(upload(phone, twice))
    # tester 5 (MEDIUM): the second copy was said to be "here already", in a group that had none
    assert "1 game imported. 1 game is listed again in the file (a copy): counted once." in page
    assert "here already" not in page
    assert "5 deals: a copy of number 1 above: the same game, counted once" in page
    assert len(store.list_games(db, second.id)) == 1
    (game,) = store.list_games(db, second.id)
    store.add_deal(db, game.id, TRIX_KINGDOM[0])
    page = said(upload(phone, twice))
    assert "0 games imported. 1 game was here already: not stored again. " \
           "1 game is listed again in the file (a copy): counted once." in page
    assert page.count("5 deals: here already, continued since") == 1
    assert page.count("5 deals: a copy of number 1 above: the same game, counted once") == 1
    assert [g.id for g in store.list_games(db, second.id)] == [game.id]


def test_a_broken_game_refuses_the_whole_file_naming_it_and_stores_nothing(app, db, two_groups, tmp_path):
    _first, second = two_groups
    data = json.loads(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout)
    data["games"][1]["deals"][1]["tricks"] = [5, 5, 5]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = run(app.config["DATABASE"], "import", "--group", "Friday club", str(path))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert "nothing imported" in result.stderr
    assert "game 2 of 5 (Plain Bugami for three: Aino, Jörg, Mika): deal 2: tricks add up to 15, expected 17" \
        in result.stderr, result.stderr
    assert store.list_games(db, second.id) == []


def test_export_says_what_to_export_and_names_an_unknown_group(app):
    for args, words in ((("export",), "scorekeeper export --group GROUP"),
                        (("export", "--group", "Nobody"), "no group 'Nobody'")):
        result = run(app.config["DATABASE"], *args)
        assert result.exit_code == 1 and result.stdout == ""
        assert words in result.stderr


def test_the_single_game_import_and_export_are_as_before(app, db, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(SEASON[0], ensure_ascii=False), encoding="utf-8")
    result = run(app.config["DATABASE"], "import", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == "Imported Trigami: Jörg, Aino, Sara (2 deals)"
    page = result.stdout.splitlines()[-1]
    assert json.loads(run(app.config["DATABASE"], "export", page).stdout)["players"] == ["Jörg", "Aino", "Sara"]


# ------------------------------------------------------------------------- the web


def said(response) -> str:
    """The page's words (tests.test_web.text), a comma after a link read as written."""
    return text(response).replace(" ,", ",")


def upload(client, body: bytes, name: str = "tuesday.json"):
    """The file sent from the import page, and the page the phone then shows: a group
    file's report is at an address of its own (the upload answers 303 to it)."""
    return client.post("/games/import", data={"file": (io.BytesIO(body), name)},
                       content_type="multipart/form-data", follow_redirects=True)


def test_the_group_page_offers_the_download_and_the_import(client):
    page = client.get("/group")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'href="/group/games.json"' in html and "Download all games" in text(page)
    assert 'href="/games/import"' in html and "Import games" in text(page)


def test_download_all_games_is_the_group_file_each_game_its_own_download(app, client, db, two_groups):
    first, _second = two_groups
    answer = client.get("/group/games.json")
    assert answer.status_code == 200
    assert answer.mimetype == "application/json"
    assert "attachment" in answer.headers["Content-Disposition"]
    assert "tuesday-table-" in answer.headers["Content-Disposition"]
    assert "no-store" in answer.headers["Cache-Control"]
    data = json.loads(answer.get_data(as_text=True))
    assert data["format"] == 1 and data["group"] == "Tuesday table"
    ids = [game.id for game in reversed(store.list_games(db, first.id))]
    singles = [json.loads(client.get(f"/games/{game_id}/game.json").get_data(as_text=True)) for game_id in ids]
    assert data["games"] == singles
    # what the command line prints, to the byte
    assert run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout == answer.get_data(as_text=True)


def test_web_download_then_import_into_another_group_keeps_every_game(app, db, two_groups):
    first, second = two_groups
    body = app.test_client().get("/group/games.json").data
    phone = app.test_client(join=second.token)
    answer = upload(phone, body)
    assert answer.status_code == 200
    page = said(answer)
    assert "Group file imported" in page
    assert "5 games imported." in page
    assert "Trix with سارة, محمد, Jörg, Aino, 5 deals: imported" in page
    moved = json.loads(phone.get("/group/games.json").get_data(as_text=True))
    assert moved["group"] == "Friday club"
    assert moved["games"] == json.loads(body)["games"]
    # each game's own file is equal too, and the home page lists them
    for game in store.list_games(db, second.id):
        assert game.id in answer.get_data(as_text=True)
    assert len(store.list_games(db, first.id)) == 5


def test_web_import_twice_stores_nothing_the_second_time_and_says_so(app, db, two_groups):
    _first, second = two_groups
    body = app.test_client().get("/group/games.json").data
    phone = app.test_client(join=second.token)
    assert upload(phone, body).status_code == 200
    answer = upload(phone, body)
    assert answer.status_code == 200
    page = text(answer)
    assert "0 games imported. 5 games were here already: not stored again." in page
    assert page.count(": here already") == 5
    assert len(store.list_games(db, second.id)) == 5


def test_the_same_upload_sent_again_gives_the_same_report_and_stores_once(app, db, two_groups):
    _first, second = two_groups
    body = app.test_client().get("/group/games.json").data
    phone = app.test_client(join=second.token)
    sent = {"file": (io.BytesIO(body), "tuesday.json"), "nonce": "one-upload"}
    first_answer = phone.post("/games/import", data=sent, content_type="multipart/form-data", follow_redirects=True)
    sent = {"file": (io.BytesIO(body), "tuesday.json"), "nonce": "one-upload"}
    second_answer = phone.post("/games/import", data=sent, content_type="multipart/form-data", follow_redirects=True)
    assert "5 games imported." in text(first_answer)
    assert text(second_answer) == text(first_answer)
    assert len(store.list_games(db, second.id)) == 5


def test_web_a_broken_game_refuses_the_file_naming_the_game_and_the_deal(app, db, two_groups):
    _first, second = two_groups
    data = json.loads(app.test_client().get("/group/games.json").data)
    data["games"][2]["deals"][3]["tricks"] = [3, 3, 3, 3]
    phone = app.test_client(join=second.token)
    answer = upload(phone, json.dumps(data, ensure_ascii=False).encode(), "broken.json")
    assert answer.status_code == 400
    page = text(answer)
    assert "Nothing was imported. broken.json has these problems:" in page
    assert "Game 3 of 5: Trix with سارة, محمد, Jörg, Aino" in page
    assert "Deal 4 tricks add up to 12, expected 13" in page
    assert "Game 1 " not in page and "Game 2 " not in page
    assert "imported whole or not at all" in page
    assert store.list_games(db, second.id) == []


def test_web_a_file_that_is_no_group_file_is_said_so(app, db, two_groups):
    _first, second = two_groups
    phone = app.test_client(join=second.token)
    answer = upload(phone, json.dumps({"format": 2, "group": "x", "games": []}).encode())
    assert answer.status_code == 400
    assert "format must be 1, not 2" in text(answer)
    answer = upload(phone, json.dumps({"format": 1, "group": "x", "games": {"a": 1}}).encode())
    assert "games must be a list of game files" in text(answer)
    # a group file that lost its games is told so, not that it lacks a game file's keys
    answer = upload(phone, json.dumps({"format": 1, "group": "Our games"}).encode())
    assert answer.status_code == 400
    assert "games must be a list of game files" in text(answer) and "'game'" not in text(answer)
    assert store.list_games(db, second.id) == []


def test_a_game_file_is_still_imported_as_one_game(client, db):
    answer = client.post("/games/import", data={"file": (io.BytesIO(json.dumps(SEASON[1]).encode()), "game.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 302
    assert len(store.list_games(db)) == 1


def test_the_report_and_the_problems_are_in_the_phones_language(app, db, two_groups):
    _first, second = two_groups
    body = app.test_client().get("/group/games.json").data
    broken = json.loads(body)
    broken["games"][0]["deals"][0]["tricks"] = [4, 4, 4]
    phone = app.test_client(join=second.token)
    phone.get("/language/de")
    refused = text(upload(phone, json.dumps(broken).encode()))
    assert "Nichts wurde importiert." in refused
    assert "Spiel 1" in refused  # the deal, in German words
    report = upload(phone, body)
    assert report.status_code == 200
    assert 'lang="de"' in report.get_data(as_text=True)


def test_a_one_game_read_only_link_cannot_download_the_group(app, db, two_groups):
    first, _second = two_groups
    game_id = store.list_games(db, first.id)[0].id
    token = groups.view_link(db, first.id, game_id)
    viewer = app.test_client(join=False)
    viewer.get(f"/g/{token}")
    assert viewer.get(f"/games/{game_id}").status_code == 200
    assert viewer.get("/group/games.json").status_code == 404


def test_the_group_file_of_a_group_is_not_another_groups(app, db, two_groups):
    _first, second = two_groups
    store.create_game(db, from_dict(game_file(players=["Xavier", "Yolanda", "Zeno"])), group_id=second.id)
    data = json.loads(app.test_client(join=second.token).get("/group/games.json").data)
    assert [game["players"] for game in data["games"]] == [["Xavier", "Yolanda", "Zeno"]]


def test_a_fresh_app_takes_a_group_file_near_the_request_limit(tmp_path):
    """A season's group file of a few hundred KB goes through the page (MAX_CONTENT_LENGTH
    is 1 MB)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "DATABASE": new_database(tmp_path / "big.sqlite3")})
    long_games = [game_file(players=[f"Anna {n}", "Ben", "Carla"], options={"target": 100000},
                            deals=[plain_deal([4, 5, 4], [1, 1, 1]) for _ in range(60)]) for n in range(20)]
    body = json.dumps({"format": 1, "group": "Big", "games": long_games}, indent=2).encode()
    assert 512 * 1024 < len(body) < 1000 * 1024
    # encoded here: the test client's own encoder leaves a temporary file open
    sent, kind = multipart({}, "file", "big.json", body, "application/json")
    answer = app.test_client().post("/games/import", data=sent, content_type=kind, follow_redirects=True)
    assert answer.status_code == 200, text(answer)[:500]
    assert "20 games imported." in text(answer)
    database = connect(app.config["DATABASE"])
    try:
        assert len(store.list_games(database)) == 20
    finally:
        database.conn.close()


def test_a_page_upload_of_more_games_than_an_import_holds_the_server_for_is_refused(app, db, tmp_path):
    """Tester 66: a megabyte of empty games (about ten thousand) uploaded from the import
    page held every write of the server, every group's deals among them, for a minute.
    More than GROUP_FILE_MAX_GAMES games (1,000) is refused whole, saying how many and
    where such a file goes; the command line takes the same file; the most is imported."""
    empty = game_file(players=["Anna", "Ben", "Carla"])
    too_many = json.dumps({"format": 1, "group": "F", "games": [empty] * 1001}).encode()
    assert len(too_many) < 1024 * 1024  # within the upload's megabyte
    sent, kind = multipart({}, "file", "empty.json", too_many, "application/json")
    answer = app.test_client().post("/games/import", data=sent, content_type=kind, follow_redirects=True)
    assert answer.status_code == 400
    assert ("it holds 1001 games; a group file imported from a page holds at most 1000: import it on the "
            "server, with scorekeeper import") in said(answer).replace("1,001", "1001").replace("1,000", "1000")
    assert "put these games right" not in said(answer)  # no game is wrong: there are too many
    assert store.list_games(db) == []
    path = tmp_path / "empty.json"
    path.write_bytes(too_many)
    result = run(app.config["DATABASE"], "import", str(path))
    assert result.exit_code == 0, result.stderr
    assert len(store.list_games(db)) == 1001
    most = json.dumps({"format": 1, "group": "F", "games": [game_file(players=["Dora", "Emil", "Fay"])] * 1000})
    sent, kind = multipart({}, "file", "most.json", most.encode(), "application/json")
    answer = app.test_client().post("/games/import", data=sent, content_type=kind, follow_redirects=True)
    assert answer.status_code == 200 and "1000 games imported." in said(answer).replace("1,000", "1000")


def test_a_write_refused_part_way_stores_no_game_of_the_file(app, db, two_groups, monkeypatch):
    """The games are stored in one transaction: a disk that refuses the third game's write
    leaves the group without the first two as well."""
    _first, second = two_groups
    body = app.test_client().get("/group/games.json").data
    storing = store.create_game
    calls = []

    def refusing(*args: Any, **kwargs: Any) -> str:
        calls.append(1)
        if len(calls) == 3:
            raise store.DiskFullError("full", "", "database or disk is full")
        return storing(*args, **kwargs)

    monkeypatch.setattr(store, "create_game", refusing)
    with pytest.raises(store.DiskFullError):
        actions.import_group(db, body, group_id=second.id)
    assert len(calls) == 3
    assert store.list_games(db, second.id) == []
    monkeypatch.setattr(store, "create_game", storing)
    result = actions.import_group(db, body, group_id=second.id)
    assert isinstance(result, actions.GroupImported) and result.stored == 5


def test_a_file_of_many_games_of_the_same_players_is_compared_game_by_game_not_pair_by_pair(db, monkeypatch):
    """Tester 19 (HIGH): a group file of thousands of games, imported by anyone who starts
    a group, held the write lock for a minute (every other group's saves waited), each
    game being compared with every other for "continues" and "began alike". Counted, not
    timed: 240 games of the same players, none the start or the copy of another (two deals
    each, tricks 13 shared out differently), are compared a handful of times, not 57,000;
    and every one is stored."""
    # 13 tricks, at most 10 each (30 cards not of a player's bug suit: no bugs)
    splits = [(a, b, 13 - a - b) for a in range(11) for b in range(11) if 0 <= 13 - a - b <= 10]
    deals = [[plain_deal(list(splits[n]), [0, 0, 0]), plain_deal(list(splits[(n + step) % len(splits)]), [0, 0, 0])]
             for step in (1, 2, 3) for n in range(len(splits))][:240]
    files = [game_file(players=["Anna", "Ben", "Carla"], deals=pair) for pair in deals]
    assert len({json.dumps(f["deals"]) for f in files}) == len(files) == 240
    group = groups.create(db, "Flood")
    counted = {"continues": 0, "began alike": 0}
    continues, began_alike = store.continues, store._began_alike

    def counting_continues(*args: Any, **kwargs: Any) -> bool:
        counted["continues"] += 1
        return continues(*args, **kwargs)

    def counting_began_alike(data: Any, stored: Any, *args: Any, **kwargs: Any) -> Any:
        counted["began alike"] += len(stored)
        return began_alike(data, stored, *args, **kwargs)

    monkeypatch.setattr(store, "continues", counting_continues)
    monkeypatch.setattr(store, "_began_alike", counting_began_alike)
    body = json.dumps({"format": 1, "group": "Flood", "games": files})
    result = actions.import_group(db, body, group_id=group.id)
    assert isinstance(result, actions.GroupImported) and result.stored == 240
    assert counted["continues"] <= 240, counted
    # each game is compared with the games before it that share a deal with it (its
    # first or its second), never with every game of its players
    assert counted["began alike"] <= 240 * 6, counted


def test_an_empty_group_file_imports_nothing_and_says_so(client, db):
    answer = upload(client, json.dumps({"format": 1, "group": "New", "games": []}).encode())
    assert answer.status_code == 200
    # tester 6 (LOW): said as it is, not "0 games imported." under "Group file imported"
    assert "The file holds no games." in text(answer) and "Nothing new in this group file" in text(answer)
    assert store.list_games(db) == []


# ------------------------------------------------------------- a moved game's date


def test_games_moved_to_another_server_say_they_were_imported_not_started_that_day(app, client, db, two_groups):
    """A game file holds no date (GAME-FILE.md), so a moved game is dated by its import:
    its card says "Imported" and its history "Game imported from a game file", where a
    game started here says neither; the file itself keeps to the format's keys."""
    first, second = two_groups
    body = client.get("/group/games.json").data
    assert all("started" not in game and "imported" not in game for game in json.loads(body)["games"])
    phone = app.test_client(join=second.token)
    assert upload(phone, body).status_code == 200
    cards = re.findall(r'<span class="game-card-head">(.*?)</span>\s*<span class="game-card-players">',
                       phone.get("/").get_data(as_text=True), re.S)
    assert len(cards) == 5 and all("Imported" in card for card in cards)
    moved = store.list_games(db, second.id)[0]
    history = text(phone.get(f"/games/{moved.id}/history"))
    assert "Game imported from a game file" in history and "Game started" not in history
    # the first group's own games were started there
    home = client.get("/").get_data(as_text=True)
    assert "Imported" not in home
    assert "Game started" in text(client.get(f"/games/{store.list_games(db, first.id)[0].id}/history"))


def test_a_game_file_imported_on_the_command_line_is_marked_imported(app, db, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(SEASON[0], ensure_ascii=False), encoding="utf-8")
    assert run(app.config["DATABASE"], "import", str(path)).exit_code == 0
    assert [game.imported for game in store.list_games(db, groups.only_group(db).id)] == [True]


# ------------------------------------------------------ a game continued since the download


def _play_on(phone, game_id: str, entry: dict[str, Any]) -> None:
    """Tap in one more deal of ``game_id`` on ``phone``, as the add-deal page sends it."""
    form = form_fields(phone.get(f"/games/{game_id}/deals/new").get_data(as_text=True))
    saved = phone.post(f"/games/{game_id}/deals/new", data=with_deal(form, "trix", entry))
    assert saved.status_code == 302, text(saved)


def _trix_of(db, group_id: int) -> str:
    (trix,) = [game.id for game in store.list_games(db, group_id) if game.kind == "trix"]
    return trix


def test_web_import_again_after_a_game_was_played_on_counts_it_as_here_continued_since(app, db, two_groups):
    """The tester's steps: download every game, import the file into a second group, play
    one more deal of the imported Trix game there, import the same file again. The file's
    Trix game is the first deals of the one played on: here already, continued since, not
    stored beside it (the statistics would count its deals twice)."""
    first, second = two_groups
    body = app.test_client().get("/group/games.json").data
    phone = app.test_client(join=second.token)
    assert upload(phone, body).status_code == 200
    trix = _trix_of(db, second.id)
    _play_on(phone, trix, TRIX_KINGDOM[0])  # deal 6: the next kingdom's King of Hearts
    assert len(store.get_game(db, trix).deals) == 6
    records = {r.name: (r.played, r.finished, r.won) for r in summaries.records(db, second.id)}

    answer = upload(phone, body)
    assert answer.status_code == 200
    page = said(answer)
    assert "0 games imported. 5 games were here already: not stored again." in page
    assert "Trix with سارة, محمد, Jörg, Aino, 5 deals: here already, continued since" in page
    assert page.count(": here already") == 5
    assert f"/games/{trix}" in answer.get_data(as_text=True)  # the link opens the game played on
    assert len(store.list_games(db, second.id)) == 5
    assert _trix_of(db, second.id) == trix and len(store.get_game(db, trix).deals) == 6
    assert {r.name: (r.played, r.finished, r.won) for r in summaries.records(db, second.id)} == records
    assert records["Aino"][0] == 3  # Trigami, plain Bugami, Trix: once each
    assert len(store.list_games(db, first.id)) == 5


def test_a_game_whose_deals_went_another_way_is_another_game_and_is_stored(app, db, two_groups):
    """Only the first deals of a stored game make it the file's game continued: a stored
    game of the same players whose deals differ (a deal changed) is another game."""
    _first, second = two_groups
    body = app.test_client().get("/group/games.json").data
    data = json.loads(body)
    short = {**data["games"][2], "deals": data["games"][2]["deals"][:4]}  # the Trix game, 4 deals
    other = {**data["games"][2], "deals": [data["games"][2]["deals"][1], *data["games"][2]["deals"][:1],
                                           *data["games"][2]["deals"][2:]]}  # its first two deals swapped
    store.create_game(db, from_dict(other), group_id=second.id)
    phone = app.test_client(join=second.token)
    answer = upload(phone, json.dumps({**data, "games": [short]}).encode())
    assert "Trix with سارة, محمد, Jörg, Aino, 4 deals: imported" in said(answer)
    assert len(store.list_games(db, second.id)) == 2


def test_every_earlier_copy_of_a_game_played_on_is_that_game(app, db, two_groups):
    """A file holding a game twice as it went (after deal 4 and after deal 5: tester 2's
    file, stop 31) into a group holding it played on to 6: both copies are that game,
    continued since, and nothing is stored beside it. (Two games whose first four deals,
    every bid, trick and bug, are the same are one game at two moments, not two games that
    began alike.)"""
    _first, second = two_groups
    data = json.loads(app.test_client().get("/group/games.json").data)
    trix = data["games"][2]
    four, five = {**trix, "deals": trix["deals"][:4]}, trix
    six = store.create_game(db, from_dict({**trix, "deals": [*trix["deals"], TRIX_KINGDOM[0]]}), group_id=second.id)
    answer = upload(app.test_client(join=second.token), json.dumps({**data, "games": [four, five]}).encode())
    page = said(answer)
    # the copy after deal 4 is told as an earlier copy of the file's own number 2 (tester 6)
    assert "0 games imported. 1 game was here already: not stored again. " \
           "1 game is listed again in the file (a copy): counted once." in page
    # … below it (tester 7, LOW: "number 13" said neither above nor below)
    assert "4 deals: an earlier copy of number 2 below, with fewer deals: the same game, counted once" in page
    assert "5 deals: here already, continued since" in page
    assert [game.id for game in store.list_games(db, second.id)] == [six]


def test_a_file_holding_a_game_at_two_moments_stores_it_once(app, db, two_groups, tmp_path):
    """Tester 2 (stop 31): a group file listing one game after deal 2 and again after deal
    5, in either order, into a group that has neither: one game of five deals, stored
    once; the earlier copy is that game, continued since."""
    _first, _second = two_groups
    data = json.loads(app.test_client().get("/group/games.json").data)
    trix = data["games"][2]
    two = {**trix, "deals": trix["deals"][:2]}
    for order, number in (([two, trix], 1), ([trix, two], 2)):
        group = groups.create(db, f"Order {number}")
        path = tmp_path / f"order-{number}.json"
        path.write_text(json.dumps({**data, "games": order}), encoding="utf-8")
        result = run(app.config["DATABASE"], "import", "--group", f"Order {number}", str(path))
        assert result.exit_code == 0, result.stderr
        (stored,) = store.list_games(db, group.id)
        assert len(stored.deals) == 5
        lines = result.stdout.splitlines()
        # tester 6 (MEDIUM): the group never had it; the earlier copy is told as one
        assert f"game {number} (Trix: سارة, محمد, Jörg, Aino, 2 deals): an earlier copy of game {3 - number} " \
               f"of the file, with fewer deals: the same game, counted once /games/{stored.id}" in lines
        assert lines[-1] == "1 game imported, 0 already there, 1 copy in the file"


def test_a_file_holding_a_game_at_two_moments_says_so_on_the_page(app, db, two_groups):
    """Tester 6 (MEDIUM): a file listing the Trix game after deal 2 twice, then after deal
    5, into a group that never had it: one game, and the report says the first two are
    earlier copies of number 3, not "here already" (they never were)."""
    _first, _second = two_groups
    data = json.loads(app.test_client().get("/group/games.json").data)
    trix = data["games"][2]
    two = {**trix, "deals": trix["deals"][:2]}
    group = groups.create(db, "Fresh")
    page = said(upload(app.test_client(join=group.token), json.dumps({**data, "games": [two, two, trix]}).encode()))
    assert "1 game imported. 2 games are listed again in the file (copies): each counted once." in page
    assert "here already" not in page
    assert page.count("2 deals: an earlier copy of number 3 below, with fewer deals: the same game, counted once") == 2
    (stored,) = store.list_games(db, group.id)
    assert len(stored.deals) == 5


def test_an_earlier_copy_listed_after_the_game_says_it_is_above(app, db, two_groups):
    """Tester 7 (LOW): "an earlier copy of number 13" said neither where number 13 was.
    The Trix game after deal 5, then after deal 2, into a fresh group: number 2 is an
    earlier copy of number 1 above; the game is stored once, with its five deals."""
    data = json.loads(app.test_client().get("/group/games.json").data)
    trix = data["games"][2]
    group = groups.create(db, "Fresh")
    page = said(upload(app.test_client(join=group.token),
                       json.dumps({**data, "games": [trix, {**trix, "deals": trix["deals"][:2]}]}).encode()))
    assert "5 deals: imported" in page
    assert "2 deals: an earlier copy of number 1 above, with fewer deals: the same game, counted once" in page
    (stored,) = store.list_games(db, group.id)
    assert len(stored.deals) == 5


def test_two_copies_in_a_file_that_went_otherwise_are_both_stored_and_said_so(app, db, two_groups):
    """Tester 6 (MEDIUM): a file holding the Trix game twice, the second with its deal 3
    entered otherwise (put right on one server and not the other): both are stored, as
    for such a game here, and the report says the second began as number 1 and went
    otherwise, rather than "imported" twice in silence."""
    _first, _second = two_groups
    data = json.loads(app.test_client().get("/group/games.json").data)
    trix = data["games"][2]
    other = {**trix, "deals": [*trix["deals"][:2], trix["deals"][3], trix["deals"][2], *trix["deals"][4:]]}
    group = groups.create(db, "Fresh")
    page = said(upload(app.test_client(join=group.token), json.dumps({**data, "games": [trix, other]}).encode()))
    assert "2 games imported." in page
    beside = "5 deals: imported beside number 1 above, with the same players and many of the same deals " \
             "(a deal put right or a setting changed on one side?): both count"
    assert beside in page
    assert len(store.list_games(db, group.id)) == 2
    # into a group holding the first copy already (tester 7): said the same way
    held = groups.create(db, "Held")
    store.create_game(db, from_dict(trix), group_id=held.id)
    page = said(upload(app.test_client(join=held.token), json.dumps({**data, "games": [trix, other]}).encode()))
    assert "1 game imported. 1 game was here already: not stored again." in page and beside in page
    assert len(store.list_games(db, held.id)) == 2


def test_a_game_whose_first_deal_was_put_right_where_it_came_from_is_named_beside_its_copy(app, db, two_groups):
    """Tester 14 (MEDIUM): the group file imported into another group; then deal 1 of its
    plain Bugami game put right where it came from (a bug miscounted), and the newer file
    imported again. The game is stored beside the copy here, as a deal put right later
    on is, but the report said only "imported": the group counted the game twice with no
    word. It names the copy here now, as for any deal put right on one side."""
    first, second = two_groups
    friday = app.test_client(join=second.token)
    older = app.test_client().get("/group/games.json").data
    assert "5 games imported." in said(upload(friday, older))
    bugami = next(g for g in store.list_games(db, first.id) if g.kind == "bugami3")
    put_right = {**BUGAMI3_DEALS[0], "bugs": [2, 4, 3]}  # two of the bugs the other way round
    assert store.update_deal(db, bugami.id, bugami.deals[0].id, put_right)
    copy_here = next(g for g in store.list_games(db, second.id) if g.kind == "bugami3")
    answer = upload(friday, app.test_client().get("/group/games.json").data)
    assert ("Plain Bugami for three with Aino, Jörg, Mika, 2 deals: imported beside a game here with the same "
            "players and many of the same deals (a deal put right or a setting changed on one side?): "
            "both count") in said(answer)
    assert f'href="/games/{copy_here.id}"' in answer.get_data(as_text=True)  # the way to the one here
    assert len([g for g in store.list_games(db, second.id) if g.kind == "bugami3"]) == 2
    # a game of the same players whose deals all went otherwise is another game: no word
    other = {**SEASON[1], "deals": BUGAMI3_DEALS[::-1]}
    alone = said(upload(app.test_client(join=groups.create(db, "Fresh").token),
                        json.dumps({"format": 1, "group": "Fresh", "games": [other, SEASON[1]]}).encode()))
    assert "2 games imported." in alone and "many of the same deals" not in alone


def test_cli_import_again_after_a_game_was_played_on_says_already_there_continued_since(app, db, two_groups,
                                                                                         tmp_path):
    _first, second = two_groups
    path = tmp_path / "tuesday.json"
    path.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    assert run(app.config["DATABASE"], "import", "--group", "Friday club", str(path)).exit_code == 0
    trix = _trix_of(db, second.id)
    store.add_deal(db, trix, TRIX_KINGDOM[0])
    result = run(app.config["DATABASE"], "import", "--group", "Friday club", str(path))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "0 games imported, 5 already there"
    assert f"game 3 (Trix: سارة, محمد, Jörg, Aino, 5 deals): already there, continued since /games/{trix}" in lines
    assert len(store.list_games(db, second.id)) == 5


def _same_game(db, one: str, other: str) -> bool:
    """Whether stored games ``one`` and ``other`` are the same game: players, settings,
    every deal and seat change (as their game files say)."""
    return same_game_key(store.get_game(db, one).exported()) == same_game_key(store.get_game(db, other).exported())


def test_a_newer_group_file_adds_the_deals_played_since_to_the_game_imported_before(app, db, two_groups, tmp_path):
    """Tester 3's steps (stop 31): a group moved by its group file, played on where it
    came from, and its newer file imported too. The Trix game played on is the group's
    copy with one more deal: that deal is added to it, not a second Trix game stored
    beside it (the statistics would count its first five deals twice)."""
    first, second = two_groups
    older, newer = tmp_path / "older.json", tmp_path / "newer.json"
    older.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    assert run(app.config["DATABASE"], "import", "--group", "Friday club", str(older)).exit_code == 0
    store.add_deal(db, _trix_of(db, first.id), TRIX_KINGDOM[0])  # deal 6, played where the group came from
    newer.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    trix = _trix_of(db, second.id)

    result = run(app.config["DATABASE"], "import", "--group", "Friday club", str(newer))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert f"game 3 (Trix: سارة, محمد, Jörg, Aino, 6 deals): already there, 1 later deal added /games/{trix}" in lines
    assert lines[-1] == "0 games imported, 5 already there (1 later deal added to them)"
    assert len(store.list_games(db, second.id)) == 5
    assert _trix_of(db, second.id) == trix and len(store.get_game(db, trix).deals) == 6
    assert _same_game(db, trix, _trix_of(db, first.id))
    # both groups now hold one season: the same statistics, Aino in 3 games, not 4
    records = {r.name: (r.played, r.finished, r.won) for r in summaries.records(db, first.id)}
    assert {r.name: (r.played, r.finished, r.won) for r in summaries.records(db, second.id)} == records
    assert records["Aino"][0] == 3
    # the newer file again: nothing more
    again = run(app.config["DATABASE"], "import", "--group", "Friday club", str(newer))
    assert f"game 3 (Trix: سارة, محمد, Jörg, Aino, 6 deals): already there /games/{trix}" in again.stdout.splitlines()
    assert len(store.get_game(db, trix).deals) == 6


def test_web_a_newer_file_brings_the_later_deals_and_who_took_over_a_seat(app, db, two_groups):
    """The newer group file's Trix game has a seat taken over after the older file was
    written, and a deal played by the newcomer: both come to the group's copy, in its
    history as any deal and seat change, and the same upload sent again adds nothing."""
    first, second = two_groups
    home = app.test_client()  # a phone of the group the games came from
    phone = app.test_client(join=second.token)
    assert upload(phone, home.get("/group/games.json").data).status_code == 200
    there = _trix_of(db, first.id)
    store.take_seat(db, there, 2, "Dora")  # Jörg leaves after deal 5
    store.add_deal(db, there, TRIX_KINGDOM[0])
    newer = home.get("/group/games.json").data
    trix = _trix_of(db, second.id)

    sent = {"file": (io.BytesIO(newer), "newer.json"), "nonce": "newer-upload"}
    answer = phone.post("/games/import", data=sent, content_type="multipart/form-data", follow_redirects=True)
    assert answer.status_code == 200
    page = said(answer)
    assert "Trix with سارة, محمد, Jörg, Aino, 6 deals: here already, 1 later deal added" in page
    assert "0 games imported. 5 games were here already: not stored again. 1 later deal was added to them." in page
    game = store.get_game(db, trix)
    assert len(game.deals) == 6 and game.players_now == ("سارة", "محمد", "Dora", "Aino")
    assert _same_game(db, trix, there)
    history = text(phone.get(f"/games/{trix}/history"))
    assert "Dora" in history and "Deal 6" in history
    # the same upload sent again (a second tap, a resent form): the same report, nothing added
    sent = {"file": (io.BytesIO(newer), "newer.json"), "nonce": "newer-upload"}
    again = phone.post("/games/import", data=sent, content_type="multipart/form-data", follow_redirects=True)
    assert "Trix with سارة, محمد, Jörg, Aino, 6 deals: here already, 1 later deal added" in said(again)
    assert len(store.get_game(db, trix).deals) == 6 and len(store.list_games(db, second.id)) == 5


def test_a_game_played_on_in_both_places_is_stored_as_another_game_not_merged(app, db, two_groups):
    """Deals added to the group's copy that the newer file's game does not have: neither
    is the other played on, so the file's game is stored beside it, and no deal of
    either is lost or mixed in."""
    first, second = two_groups
    home = app.test_client()
    phone = app.test_client(join=second.token)
    assert upload(phone, home.get("/group/games.json").data).status_code == 200
    trix = _trix_of(db, second.id)
    store.add_deal(db, trix, TRIX_KINGDOM[0])  # deal 6 here: the King of Hearts
    store.add_deal(db, _trix_of(db, first.id), TRIX_KINGDOM[1])  # deal 6 there: another contract
    answer = upload(phone, home.get("/group/games.json").data)
    assert "Trix with سارة, محمد, Jörg, Aino, 6 deals: imported" in said(answer)
    assert [d.entry for d in store.get_game(db, trix).deals][-1] == TRIX_KINGDOM[0]
    assert len(store.list_games(db, second.id)) == 6


def test_a_club_nights_table_is_never_added_to_by_an_import(client, db, fixed_seed):  # noqa: F811
    """A table's deals are the night's (docs/club-nights.md): a game file that continues
    a table's game adds nothing to it, nor is it stored beside it to count twice
    (tester 3, stop 31): its later deals come with the night's file; a copy is stored
    only when asked for."""
    night_id = start(client, "trigami", NINE, 2)
    table = night_store.get_night(db, night_id).current.tables[0].game
    deal = plain_deal([4, 5, 4], [4, 5, 4])  # everyone's bugs as many as their tricks hold: 0 points
    store.add_deal(db, table.id, deal)
    games = len(store.list_games(db))
    data = store.get_game(db, table.id).exported()
    answer = upload(client, json.dumps({**data, "deals": [deal, deal]}).encode(), name="table.json")
    assert answer.status_code == 409
    assert ("this game is a club night's table here, with fewer deals than the file: its later deals come "
            "with the night's file") in text(answer)
    assert [d.entry for d in store.get_game(db, table.id).deals] == [deal]
    assert len(store.list_games(db)) == games


def test_cli_a_newer_group_file_with_a_seat_taken_over_since_adds_the_change(app, db, two_groups, tmp_path):
    first, second = two_groups
    older, newer = tmp_path / "older.json", tmp_path / "newer.json"
    older.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    assert run(app.config["DATABASE"], "import", "--group", "Friday club", str(older)).exit_code == 0
    store.take_seat(db, _trix_of(db, first.id), 2, "Dora")  # from deal 6, not yet played
    newer.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    trix = _trix_of(db, second.id)
    result = run(app.config["DATABASE"], "import", "--group", "Friday club", str(newer))
    lines = result.stdout.splitlines()
    assert (f"game 3 (Trix: سارة, محمد, Jörg, Aino, 5 deals): already there, who takes over a seat added "
            f"/games/{trix}") in lines
    assert store.get_game(db, trix).players_now == ("سارة", "محمد", "Dora", "Aino")
    assert len(store.list_games(db, second.id)) == 5


def test_score_of_a_group_file_says_it_is_one(app, two_groups, tmp_path):
    """`scorekeeper score` scores one game's file (GAME-FILE.md: nothing on standard
    output, the problem on standard error); given a group file it says what that is,
    not "missing key 'game'" (tester 2, stop 31)."""
    path = tmp_path / "tuesday.json"
    path.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    scored = run(app.config["DATABASE"], "score", str(path))
    assert scored.exit_code == 1 and scored.stdout == ""
    assert "is a group file, not one game's file" in scored.stderr and "missing key" not in scored.stderr


def test_cli_a_group_file_with_a_game_put_right_elsewhere_says_which_game_here_it_began_like(app, db, two_groups,
                                                                                             tmp_path):
    """Tester 3 (stop 31): the Trigami game's deal 2 put right where the group came from;
    its newer group file stores it beside the copy here (a whole file is not asked about
    game by game), and says so, naming the game here, so the older one can be deleted."""
    first, second = two_groups
    older, newer = tmp_path / "older.json", tmp_path / "newer.json"
    older.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    assert run(app.config["DATABASE"], "import", "--group", "Friday club", str(older)).exit_code == 0
    trigami = next(g for g in store.list_games(db, first.id) if g.kind == "trigami" and g.deals)
    store.update_deal(db, trigami.id, trigami.deals[1].id, plain_deal([6, 1, 6], [2, 0, 3]))
    newer.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    copy_here = next(g for g in store.list_games(db, second.id) if g.kind == "trigami" and g.deals)
    result = run(app.config["DATABASE"], "import", "--group", "Friday club", str(newer))
    assert result.exit_code == 0, result.stderr
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("game 1 ")]
    assert (f"imported beside /games/{copy_here.id}, with the same players and many of the same deals "
            f"(a deal put right or a setting changed on one side?): both count") in line


def test_cli_a_game_file_put_right_elsewhere_is_imported_and_the_one_here_named(app, db, two_groups, tmp_path):
    _first, second = two_groups
    data = {**SEASON[0], "deals": [WORKED_TRIGAMI_DEAL, plain_deal([6, 0, 7], [2, 0, 3])]}
    here = store.create_game(db, from_dict(data), group_id=second.id)
    path = tmp_path / "put-right.json"
    path.write_text(json.dumps({**data, "deals": [WORKED_TRIGAMI_DEAL, plain_deal([6, 1, 6], [2, 0, 3])]}),
                    encoding="utf-8")
    result = run(app.config["DATABASE"], "import", "--group", "Friday club", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == "Imported Trigami: Jörg, Aino, Sara (2 deals)"
    assert f"/games/{here} here has the same players and many of the same deals" in result.stderr
    assert len(store.list_games(db, second.id)) == 2


# ------------------------------------------------------------------ the report's own page


def test_the_report_has_its_own_address_to_reload_or_read_in_another_language(app, db, two_groups):
    """The upload answers 303 to the report's page, which says the same when opened
    again (a reload) or through the language switch, and imports nothing more (tester 7:
    the switch, on a report that was only the upload's answer, showed the empty import
    page)."""
    first, second = two_groups
    body = app.test_client().get("/group/games.json").data
    phone = app.test_client(join=second.token)
    answer = phone.post("/games/import", data={"file": (io.BytesIO(body), "tuesday.json")},
                        content_type="multipart/form-data")
    assert answer.status_code == 303
    address = answer.location
    assert address.startswith("/games/import/report/")
    report = phone.get(address)
    assert report.status_code == 200
    assert "5 games imported." in text(report) and "tuesday.json" in text(report)
    assert text(phone.get(address)) == text(report)  # reloaded: the same, nothing imported again
    switched = phone.get(f"/language/fi?next={address}", follow_redirects=True)
    assert "5 peliä tuotu." in text(switched)
    assert len(store.list_games(db, second.id)) == 5
    # another group's phone, and an address that was never a report's: not found
    assert app.test_client(join=first.token).get(address).status_code == 404
    assert phone.get("/games/import/report/no-such-report").status_code == 404


def test_a_report_is_kept_thirty_days(db, two_groups):
    _first, second = two_groups
    old = store.keep_import_report(db, second.id, '{"games": [], "files": [], "filename": null}',
                                   at="2026-11-01T20:00:00+00:00")
    assert store.import_report(db, second.id, old) is not None
    kept = store.keep_import_report(db, second.id, '{"games": [], "files": [], "filename": "x.json"}',
                                    at="2026-12-01T20:00:01+00:00")  # 30 days and a second later
    assert store.import_report(db, second.id, old) is None
    assert store.import_report(db, second.id, kept) == '{"games": [], "files": [], "filename": "x.json"}'
    # a report of a shape this version does not read (an older or newer app's): not found
    odd = store.keep_import_report(db, second.id, '{"games": [{"number": 1, "gone": true}], "files": []}')
    assert actions.group_report(db, second.id, odd) is None
    assert actions.group_report(db, second.id, kept) == actions.GroupReport((), (), "x.json")


def test_a_report_the_disk_cannot_keep_is_said_at_once_with_the_games_stored(app, db, two_groups, monkeypatch):
    """The games stored, the disk full before the report could be kept: the upload's
    answer is the report itself (as before it had an address), not an error."""
    _first, second = two_groups
    body = app.test_client().get("/group/games.json").data

    def refused(*args, **kwargs):
        raise store.DiskFullError("full", app.config["DATABASE"], "database or disk is full")

    monkeypatch.setattr(store, "keep_import_report", refused)
    answer = app.test_client(join=second.token).post(
        "/games/import", data={"file": (io.BytesIO(body), "tuesday.json")}, content_type="multipart/form-data")
    assert answer.status_code == 200
    assert "5 games imported." in text(answer)
    assert len(store.list_games(db, second.id)) == 5


def test_a_game_whose_deals_begin_another_games_moves_with_copy(app, db, two_groups, tmp_path):
    """Tester 15 (HIGH, left as designed, see docs/deploying.md): a group holding the Trix
    game and another game of the same players that stopped after the same first deal.
    Its group file lists both; a file has no identity for a game, so the shorter one reads
    as an earlier copy of the longer (testers 2, 6, 7: a file holding one game at two
    moments stores it once) and is counted once, which the command says, with the way to
    store every game as its own: --copy, into a group that holds none of them."""
    first, _second = two_groups
    trix = next(g for g in store.list_games(db, first.id) if g.kind == "trix")
    store.create_game(db, from_dict({**trix.exported(), "deals": trix.exported()["deals"][:1]}), group_id=first.id)
    path = tmp_path / "tuesday.json"
    path.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    groups.create(db, "Moved")
    moved = run(app.config["DATABASE"], "import", "--group", "Moved", str(path))
    assert moved.exit_code == 0, moved.stderr
    assert "1 copy in the file" in moved.stdout.splitlines()[-1]
    assert ("scorekeeper: note: 1 game of the file was taken for an earlier copy or a copy of another game of it; "
            "to store every game of the file as a game of its own, import it with --copy into a group that "
            "holds none of them") in moved.stderr
    groups.create(db, "Moved whole")
    whole = run(app.config["DATABASE"], "import", "--copy", "--group", "Moved whole", str(path))
    assert whole.exit_code == 0, whole.stderr
    stored = [g for grp in groups.all_groups(db) if grp.name == "Moved whole" for g in store.list_games(db, grp.id)]
    assert sorted(len(g.deals) for g in stored) == sorted(len(g.deals) for g in store.list_games(db, first.id))


@pytest.mark.parametrize("named", [True, False], ids=["--group named", "no --group"])
def test_a_group_moved_to_a_new_server_is_made_there_under_its_name(app, db, two_groups, tmp_path, named):
    """Tester 19 (MEDIUM): the README's move, `scorekeeper import --group "Card Club"
    file.json` on the new server's empty database, said "no group 'Card Club'", and
    without --group the games went into "Our games" (tester 15: the file's own name was
    not used). On a database with no group, the group is made under the name given, else
    the file's; with groups there, a name none has is still refused (a typo)."""
    path = tmp_path / "tuesday.json"
    path.write_text(run(app.config["DATABASE"], "export", "--group", "Tuesday table").stdout, encoding="utf-8")
    new_server = tmp_path / "scores-new.sqlite3"
    moved = run(str(new_server), "import", *(("--group", "Card Club") if named else ()), str(path))
    assert moved.exit_code == 0, moved.stderr
    name = "Card Club" if named else "Tuesday table"
    assert f"the group {name} was made" in moved.stderr and "Traceback" not in moved.output
    there = connect(str(new_server))
    try:
        (group,) = groups.all_groups(there)
        assert group.name == name
        assert len(store.list_games(there, group.id)) == len(store.list_games(db, two_groups[0].id))
    finally:
        there.conn.close()
    typo = run(str(new_server), "import", "--group", "Card Clb", str(path))
    assert typo.exit_code == 1 and "no group 'Card Clb'" in typo.stderr



@pytest.mark.parametrize("starter", ["scorekeeper import", "a phone's first page"])
def test_two_starts_on_a_new_database_at_the_same_instant_make_one_group(tmp_path, monkeypatch, starter):
    """Each saw "no group yet" before the write that made one, so two imports (or an
    import and a phone) starting together on a new server's empty database made two
    groups. Here both are held just after that look until the other has looked too (the
    worst interleaving, every time): the first group is made inside the write, and the
    other finds it there."""
    database = str(tmp_path / "scores-new.sqlite3")
    assert run(database, "init-db").exit_code == 0  # migrated once, no group yet
    barrier, looked = threading.Barrier(2, timeout=30), threading.local()
    real = groups.all_groups

    def all_groups_then_wait(db):
        found = real(db)
        if not getattr(looked, "once", False):  # each thread's first look only
            looked.once = True
            barrier.wait()
        return found

    monkeypatch.setattr(groups, "all_groups", all_groups_then_wait)
    made: list[int] = []

    def start() -> None:
        db = connect(database)
        try:
            if starter == "scorekeeper import":
                made.append(cli._target_group(db, None, "Tuesday table"))
            else:
                made.append(groups.only_group_id(db))
        finally:
            db.conn.close()

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    there = connect(database)
    try:
        found = real(there)
    finally:
        there.conn.close()
    assert [g.name for g in found] == [found[0].name], "one group, not one each"
    group = found[0]
    assert made == [group.id, group.id]
    assert group.name == ("Tuesday table" if starter == "scorekeeper import" else "Our games")
