"""The club night's forms through the pages (issue 20): a name too long refused beside
its field and never cut short, every wrong field of the new-night form said at once, and
a night that does not exist said as a night. Each asserts what the organiser sees and
that nothing was saved."""

from __future__ import annotations

import re

import pytest

from tests.test_nights import NINE, fixed_seed, night, start, text  # noqa: F401 (fixed_seed: a fixture)

pytestmark = pytest.mark.usefixtures("fixed_seed")  # the draw fixed: a failure replays

LONG = "Y" * 200


def test_every_wrong_field_of_a_new_night_is_said_at_once(client, db):
    answer = client.post("/nights/new?kind=trigami", data={
        "newcomers": "a\nA\nCarla", "rounds": "0", "target": "100", "ranking": "placings", "seating": "random"})
    page = text(answer)
    assert answer.status_code == 400
    assert "Enter a number of rounds from 1 to 50." in page
    assert "named twice" in page
    assert db["nights"].count == 0 and db["games"].count == 0


def test_a_bad_target_and_a_name_too_long_are_both_said(client, db):
    answer = client.post("/nights/new?kind=trigami", data={
        "newcomers": "Aino\nBruno\nCarla", "rounds": "2", "target": "7", "name": "N" * 61})
    page = text(answer)
    assert answer.status_code == 400
    assert "Enter a target from 50 to 100000." in page
    assert "The night's name is longer than 60 characters." in page
    assert page.count("Enter a target from 50 to 100000.") == 2  # the summary at the top and beside its field
    assert db["nights"].count == 0


def test_too_few_players_and_bad_rounds_are_both_said(client, db):
    answer = client.post("/nights/new?kind=trix", data={
        "newcomers": "Aino\nBruno\nCarla", "rounds": "x", "values": "standard", "scoring": "standard",
        "doubling": "y", "taken_back": "leader"})
    page = text(answer)
    assert answer.status_code == 400
    assert "A table needs 4 players; only 3 are ticked or typed." in page
    assert "Enter a number of rounds from 1 to 50." in page  # the field's range, not "like 3"
    assert db["nights"].count == 0


def test_a_night_that_does_not_exist_is_said_as_a_night(client, db):
    # … and an address no night could have (a fresh tester's /nights/-1 and /nights/abc)
    for address in ("/nights/9999", "/nights/9999/standing", "/nights/9999/screen", "/nights/9999/close",
                    "/nights/-1", "/nights/abc", "/nights/1.5/standing"):
        answer = client.get(address)
        assert answer.status_code == 404
        assert "There is no such night here." in text(answer)
        assert "game, deal or player" not in text(answer)
    for language, words in (("de", "Diesen Abend gibt es hier nicht."), ("fi", "Täällä ei ole sellaista iltaa."),
                            ("ar", "لا توجد أمسية كهذه هنا.")):
        client.get(f"/language/{language}")
        assert words in text(client.get("/nights/9999"))
    client.get("/language/en")
    assert client.get("/games/999999").status_code == 404  # other pages keep their own words
    assert "There is no such game, deal or player here." in text(client.get("/season/players/9999"))


def test_a_late_arrivals_name_with_control_characters_is_said_of_the_late_arrival(client, db):
    """A name turned backwards by a direction override is refused beside the late
    arrival's field in the late arrival's words, not as "player 1"'s."""
    night_id = start(client, "trigami", NINE[:3], 2)
    answer = client.post(f"/nights/{night_id}/arrive", data={"name": "\u202eDora"})
    assert answer.status_code == 400
    said = text(answer)
    assert "The late arrival's name has invisible control characters: type it again." in said
    assert "Player 1" not in said and "player 1" not in said
    assert [p.name for p in night(db, night_id).players] == NINE[:3]


def test_a_late_arrivals_name_too_long_is_refused_not_cut_short(client, db):
    night_id = start(client, "trigami", NINE[:3], 2)
    answer = client.post(f"/nights/{night_id}/arrive", data={"name": LONG})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "The late arrival's name is longer than 40 characters." in text(answer)
    assert f'value="{LONG}"' in page  # what was typed is kept, whole
    assert 'maxlength' not in page.split('id="name"')[1].split(">")[0]  # the browser cuts nothing short
    assert [p.name for p in night(db, night_id).players] == NINE[:3]
    assert "joins from round" not in text(client.get(f"/nights/{night_id}"))
    # 40 characters is a name (gamefile.MAX_NAME_LENGTH); spaces around it are not counted
    answer = client.post(f"/nights/{night_id}/arrive", data={"name": "  " + "Z" * 40 + "  "})
    assert answer.status_code == 302
    assert night(db, night_id).players[-1].name == "Z" * 40


def test_a_nights_name_too_long_is_refused_not_cut_short(client, db):
    form = client.get("/nights/new?kind=trigami").get_data(as_text=True)
    assert "maxlength" not in form.split('id="name"')[1].split(">")[0]
    answer = client.post("/nights/new?kind=trigami", data={
        "newcomers": "Aino\nBruno\nCarla", "rounds": "2", "target": "100", "name": "N" * 200})
    assert answer.status_code == 400
    assert "The night's name is longer than 60 characters." in text(answer)
    assert 'value="' + "N" * 200 + '"' in answer.get_data(as_text=True)
    assert db["nights"].count == 0 and db["games"].count == 0


def test_each_wrong_newcomer_is_said_by_the_line_it_is_on(client, db):
    # blank lines count: the organiser reads the field by its lines, not by the names in it
    newcomers = "Aino\n\nBruno\n" + "Z" * 41 + "\n\naino\n\u200b\nCarla\u202e"
    answer = client.post("/nights/new?kind=trigami", data={"newcomers": newcomers, "rounds": "2", "target": "100"})
    page = text(answer)
    assert answer.status_code == 400
    assert "Line 4: the name is longer than 40 characters." in page
    assert "Line 6: aino is named twice." in page
    assert "Line 7 has no name in it, only invisible characters: type the name again." in page
    assert "Line 8: the name has invisible control characters: type it again." in page
    assert "player 4" not in page.lower() and "player 5" not in page.lower()
    assert "Z" * 41 in answer.get_data(as_text=True)  # what was typed is kept
    assert db["nights"].count == 0 and db["games"].count == 0


def test_a_pasted_list_gone_wrong_says_its_first_problems_and_how_many_more(client, db):
    """3,000 lines of one name: the first seven lines named twice are said by their
    line, then how many more lines have problems, not 2,999 sentences; everything typed
    is kept, and nothing is started."""
    newcomers = "\n".join(["Aino"] * 3000)
    answer = client.post("/nights/new?kind=trigami", data={"newcomers": newcomers, "rounds": "2", "target": "100"})
    page = text(answer)
    assert answer.status_code == 400
    for line in range(2, 9):
        assert f"Line {line}: Aino is named twice." in page
    assert "Line 9:" not in page and "Line 3000" not in page
    assert "2992 more lines have problems." in page
    assert answer.get_data(as_text=True).count("Aino") >= 3000  # the field keeps every line
    assert db["nights"].count == 0 and db["games"].count == 0
    # eight problems are all said, each by its line
    answer = client.post("/nights/new?kind=trigami", data={"newcomers": "\n".join(["Aino"] * 9), "rounds": "2",
                                                          "target": "100"})
    assert "Line 9: Aino is named twice." in text(answer) and "more lines" not in text(answer)


def test_a_night_of_more_than_twenty_tables_is_asked_first(client, db):
    """A list pasted twice or a whole address book would seat a night nobody meant: past
    20 tables the organiser is asked, with everything typed kept, and the next tap of
    Start seats them; a list changed meanwhile is asked about again."""
    many = [f"Player {n}" for n in range(1, 64)]  # 63 at Trigami: 21 tables
    data = {"newcomers": "\n".join(many), "rounds": "2", "target": "100"}
    asked = client.post("/nights/new?kind=trigami", data=data)
    page = text(asked)
    assert asked.status_code == 200
    assert "Seat 63 players at 21 tables?" in page
    assert "Check who is ticked and the newcomers, then tap Start the night again." in page
    assert "Player 63" in asked.get_data(as_text=True)  # the list is kept
    assert db["nights"].count == 0 and db["games"].count == 0
    kept = re.search(r'name="seating_many"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="seating_many"',
                     asked.get_data(as_text=True))
    assert kept and "63" in kept.groups()
    # three more added meanwhile: asked again, for 66
    again = client.post("/nights/new?kind=trigami", data={**data, "newcomers": "\n".join([*many, "X1", "X2", "X3"]),
                                                          "seating_many": "63"})
    assert "Seat 66 players at 22 tables?" in text(again) and db["nights"].count == 0
    started = client.post("/nights/new?kind=trigami", data={**data, "seating_many": "63"})
    assert started.status_code == 302
    assert len(night(db, db["nights"].count).current.tables) == 21
    # 20 tables start at once
    twenty = client.post("/nights/new?kind=trigami", data={**data, "newcomers": "\n".join(many[:60])})
    assert twenty.status_code == 302 and db["nights"].count == 2

