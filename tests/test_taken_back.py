"""The house reading of a card taken back (Trix ``taken_back``, issue 19 part 2) through
the pages, the store, the game file and the command line: chosen when a game starts,
changed on the players-and-settings page (asked first, the game scored again, recorded in
its history), offered by What if…, named in the explanation, carried by the game file.

Expected numbers are worked by hand from SCORING.md §2.2 (the working is in the comments).
Seats: Anna 0, Ben 1, Carla 2, Dan 3; Anna owns the first kingdom.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from scorekeeper import create_app, sheet, store
from scorekeeper.db import connect
from tests.conftest import game_file
from tests.test_cli import assert_refused, invoke, scored, write  # noqa: F401 (fixtures)
from tests.test_explain import text as _text
from tests.test_history import entries

NAMES = {"player_0": "Anna", "player_1": "Ben", "player_2": "Carla", "player_3": "Dan"}
SETTINGS = {"doubling": "y", "values": "standard", "scoring": "standard"}
# Ben doubles the K♥ and wins it back; Dan led to that trick.
#   leader: Ben −150, Dan +75.   plain: Ben −75, Dan 0.
KING_BACK = {"contracts": ["king"], "king": {"taker": 1, "doubled_by": 1, "leader": 3}}
# Diamonds 4, 3, 3, 3 × −10: Anna −40, Ben −30, Carla −30, Dan −30.
DIAMONDS = {"contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}
# Totals after both deals:
#   leader: Anna −40, Ben −150 −30 = −180, Carla −30, Dan +75 −30 = 45
#   plain:  Anna −40, Ben −75 −30 = −105, Carla −30, Dan 0 −30 = −30
LEADER_TOTALS = (-40, -180, -30, 45)
PLAIN_TOTALS = (-40, -105, -30, -30)
DATA = Path(__file__).parent / "data"


def text(response) -> str:
    """The page as a player reads it: cards as on the screen ("K♥"), names without the
    marks that keep them apart from the text around them."""
    return _text(response).replace("\u2068", "").replace("\u2069", "")


def totals(db, game_id: str) -> tuple[int, ...]:
    return tuple(sheet.build(store.get_game(db, game_id)).score.totals)


def test_a_new_trix_game_reads_a_card_taken_back_as_the_leader_reading_unless_chosen(client, db):
    form = client.get("/games/new?kind=trix").get_data(as_text=True)
    assert re.search(r'<input[^>]*checked[^>]*value="leader"|<input[^>]*value="leader"[^>]*checked', form)
    assert "A doubled card taken back by its doubler" in form
    assert "The doubler pays the plain penalty, nobody gains" in form
    started = client.post("/games/new?kind=trix", data={**NAMES, **SETTINGS, "first_dealer": "0"})
    assert started.status_code == 302
    game = store.get_game(db, started.location.rsplit("/", 1)[-1])
    assert game.options["taken_back"] == "leader"


def test_a_reading_no_form_offers_is_refused_beside_its_field_and_changes_nothing(client, make_game, db):
    """Tester 52 (HIGH): the players-and-settings form sent with a reading it does not
    offer ("bogus", "", "PLAIN", "leader " with a space) was a 500, "Something went wrong
    on our side". It is refused (400), "Tap one of the choices shown." beside the setting,
    and nothing is written."""
    game_id = make_game(kind="trix", deals=[KING_BACK, DIAMONDS])
    for value in ("bogus", "", "PLAIN", "leader ", "0"):
        refused = client.post(f"/games/{game_id}/edit", data={**NAMES, **SETTINGS, "taken_back": value})
        assert refused.status_code == 400, value
        assert "Nothing was saved: 1 thing to put right. Tap one of the choices shown." in text(refused), value
        assert store.get_game(db, game_id).options["taken_back"] == "leader"
        assert totals(db, game_id) == LEADER_TOTALS


def test_changing_the_reading_is_asked_first_then_scores_again_and_is_recorded(client, make_game, db):
    game_id = make_game(kind="trix", deals=[KING_BACK, DIAMONDS])
    assert totals(db, game_id) == LEADER_TOTALS
    page = client.get(f"/games/{game_id}/edit").get_data(as_text=True)
    assert re.search(r'<input[^>]*checked[^>]*value="leader"|<input[^>]*value="leader"[^>]*checked', page)
    # Save with the plain reading: asked first, saying what changes; nothing changed yet
    asked = client.post(f"/games/{game_id}/edit", data={**NAMES, **SETTINGS, "taken_back": "plain"})
    assert asked.status_code == 200
    said = text(asked)
    assert ("Every deal will be scored again with this reading of a card taken back: the doubler pays the "
            "plain penalty and nobody gains.") in said
    assert "Deal 1: Ben +\u2212150 → \u221275" not in said  # signs as written, one each
    assert "Deal 1: Ben −150 → −75, Dan +75 → 0" in said
    assert "Totals: Anna −40 → −40" not in said  # only the totals that change
    assert "Ben −180 → −105, Dan 45 → −30" in said
    assert "Tap Save again to confirm." in said
    assert 'name="confirm_taken_back" value="plain"' in asked.get_data(as_text=True)
    assert store.get_game(db, game_id).options["taken_back"] == "leader"
    assert totals(db, game_id) == LEADER_TOTALS
    # Save again, confirmed: scored again, recorded, said in words
    saved = client.post(f"/games/{game_id}/edit", data={**NAMES, **SETTINGS, "taken_back": "plain",
                                                        "confirm_taken_back": "plain"}, follow_redirects=True)
    assert saved.status_code == 200
    assert ("Settings changed: A doubled card taken back: the doubler pays double and whoever led to that "
            "trick gains half → the doubler pays the plain penalty and nobody gains.") in text(saved)
    assert store.get_game(db, game_id).options["taken_back"] == "plain"
    assert totals(db, game_id) == PLAIN_TOTALS
    change = store.changes(db, game_id)[0]  # newest first
    assert change.action == "settings_changed"
    assert change.before["options"]["taken_back"] == "leader" and change.after["options"]["taken_back"] == "plain"
    newest = entries(client, game_id)[0]
    assert ("A doubled card taken back: the doubler pays double and whoever led to that trick gains half → "
            "the doubler pays the plain penalty and nobody gains") in newest
    # the history's totals before and after: Ben −180 → −105, Dan 45 → −30
    assert "Ben −180 → −105" in newest and "Dan 45 → −30" in newest
    # and back, asked again
    back = client.post(f"/games/{game_id}/edit", data={**NAMES, **SETTINGS, "taken_back": "leader"})
    assert back.status_code == 200 and "Deal 1: Ben −75 → −150, Dan 0 → +75" in text(back)


def test_a_reading_change_with_no_card_taken_back_is_asked_too_and_says_nothing_changes(client, make_game, db):
    game_id = make_game(kind="trix", deals=[DIAMONDS])
    asked = client.post(f"/games/{game_id}/edit", data={**NAMES, **SETTINGS, "taken_back": "plain"})
    assert asked.status_code == 200
    assert "No deal so far has a doubled card taken back by its doubler, so no points change now." in text(asked)
    assert store.get_game(db, game_id).options["taken_back"] == "leader"


def test_renaming_alone_asks_nothing_about_the_reading(client, make_game, db):
    game_id = make_game(kind="trix", deals=[KING_BACK], options={"taken_back": "plain"})
    saved = client.post(f"/games/{game_id}/edit", data={**NAMES, "player_0": "Anne", **SETTINGS,
                                                        "taken_back": "plain"})
    assert saved.status_code == 302
    assert store.get_game(db, game_id).players[0] == "Anne"
    assert [c.action for c in store.changes(db, game_id)].count("settings_changed") == 0


def test_the_explanation_names_the_reading_and_what_the_other_gives(client, make_game):
    leader = make_game(kind="trix", deals=[KING_BACK])
    page = text(client.get(f"/games/{leader}/explain/1?seat=1"))
    assert "doubled the K♥ and took it back: −150" in page
    assert ("How a card taken back is read here: the doubler pays double and whoever led to that trick "
            "gains half. The other reading (the doubler pays the plain penalty and nobody gains) would give "
            "Ben −75 and Dan 0 in this deal.") in page
    plain = make_game(kind="trix", deals=[KING_BACK], options={"taken_back": "plain"})
    page = text(client.get(f"/games/{plain}/explain/1?seat=3"))  # Dan, who led: 0 under plain
    assert "would give Ben −150 and Dan +75 in this deal" in page


def test_the_whole_deals_explanation_says_the_reading_once(client, make_game):
    """Tester 35: the whole deal's explanation said the reading of a card taken back under
    each player it concerns (the doubler Ben, the leader Dan), the same sentence twice
    and more; it is said once, under them all, and still under each on its own page."""
    game_id = make_game(kind="trix", deals=[KING_BACK])
    page = text(client.get(f"/games/{game_id}/explain/1"))
    assert page.count("How a card taken back is read here:") == 1
    assert "would give Ben −75 and Dan 0 in this deal." in page
    for seat in (1, 3):
        alone = text(client.get(f"/games/{game_id}/explain/1?seat={seat}"))
        assert alone.count("How a card taken back is read here:") == 1, seat


def test_what_if_offers_the_other_reading(client, make_game):
    game_id = make_game(kind="trix", deals=[KING_BACK, DIAMONDS])
    form = client.get(f"/games/{game_id}/what-if").get_data(as_text=True)
    assert 'name="taken_back"' in form
    response = client.get(f"/games/{game_id}/what-if?taken_back=plain")
    page, said = response.get_data(as_text=True), text(response)
    assert "What if — a doubled card taken back: the doubler pays the plain penalty and nobody gains" in said
    # the what-if totals row: the plain totals
    row = re.search(r'<tr class="what-if-totals other-totals">(.*?)</tr>', page, re.S).group(1)
    shown = [int(t.replace("\u2212", "-")) for t in re.findall(r'<span class="total">([^<]*)</span>', row)]
    assert tuple(shown) == PLAIN_TOTALS
    # a plain game looked at under the leader reading
    plain = make_game(kind="trix", deals=[KING_BACK, DIAMONDS], options={"taken_back": "plain"})
    page = client.get(f"/games/{plain}/what-if?taken_back=leader").get_data(as_text=True)
    row = re.search(r'<tr class="what-if-totals other-totals">(.*?)</tr>', page, re.S).group(1)
    shown = [int(t.replace("\u2212", "-")) for t in re.findall(r'<span class="total">([^<]*)</span>', row)]
    assert tuple(shown) == LEADER_TOTALS


def test_the_deal_forms_hint_follows_the_reading(client, make_game):
    leader = make_game(kind="trix")
    form = text(client.get(f"/games/{leader}/deals/new"))
    # the K♥: −150 to the doubler, +75 to whoever led, only −75 if the doubler led it
    assert "This game's reading: the doubler −150 and whoever led +75; if the doubler led it, only −75." in form
    plain = make_game(kind="trix", options={"taken_back": "plain", "scoring": "reversed"})
    form = text(client.get(f"/games/{plain}/deals/new"))
    # reversed: the K♥ taken back gives its doubler +75 (−75 flipped); a queen +25
    assert "This game's reading: the doubler +75, nobody gains." in form
    assert "This game's reading: the doubler +25, nobody gains." in form
    # who led is asked under both readings
    assert "If the doubler took the K♥ back: who led to that trick?" in form


def test_the_calculator_scores_a_card_taken_back_under_either_reading(client):
    deal = {"kind": "trix", "calc": "1", "settings": "1", "doubling": "y", "values": "standard",
            "scoring": "standard", "contracts": "king", "king_taker": "1", "king_doubled_by": "1",
            "king_leader": "3", "player": ["Anna", "Ben", "Carla", "Dan"]}
    leader = text(client.get("/calculator", query_string={**deal, "taken_back": "leader"}))
    assert "doubled the K♥ and took it back: −150" in leader
    plain = text(client.get("/calculator", query_string={**deal, "taken_back": "plain"}))
    assert "doubled the K♥ and took it back: −75" in plain
    # the reading named as the calculator's, which has no game (tester 35: "This game's
    # reading" on a deal of no game)
    assert ("How a card taken back is read here: the doubler pays the plain penalty and nobody gains. The other "
            "reading (the doubler pays double and whoever led to that trick gains half) would give") in plain
    assert "As set above: the doubler −75, nobody gains." in plain  # the form's hint
    assert "This game" not in plain


def test_the_game_file_and_score_carry_the_reading(client, make_game, db, invoke, write):  # noqa: F811
    game_id = make_game(kind="trix", deals=[KING_BACK, DIAMONDS], options={"taken_back": "plain"})
    exported = json.loads(client.get(f"/games/{game_id}/game.json").data)
    assert exported["options"]["taken_back"] == "plain"
    # scorekeeper score on the exported file: the plain reading's points
    out = scored(invoke("score", write(exported)))
    assert out["deals"][0]["points"] == [0, -75, 0, 0]
    assert tuple(out["totals"]) == PLAIN_TOTALS
    # the same file read the other way
    out = scored(invoke("score", write({**exported, "options": {**exported["options"], "taken_back": "leader"}})))
    assert out["deals"][0]["points"] == [0, -150, 0, 75]
    assert tuple(out["totals"]) == LEADER_TOTALS
    # without the option: the default, "leader"
    out = scored(invoke("score", write(game_file("trix", deals=[KING_BACK, DIAMONDS]))))
    assert tuple(out["totals"]) == LEADER_TOTALS
    # imported and exported again: the same file, the same reading
    imported = invoke("import", write(exported, "again.json"))
    assert imported.exit_code == 0, imported.stderr
    again = invoke("export", imported.stdout.splitlines()[-1])
    assert json.loads(again.stdout) == exported


def test_an_unknown_reading_is_refused_naming_the_option(invoke, write):  # noqa: F811
    result = invoke("score", write(game_file("trix", options={"taken_back": "doubler"}, deals=[KING_BACK])))
    assert_refused(result, "taken_back", "doubler")


def test_a_trix_game_stored_before_the_setting_reads_as_the_leader_reading(tmp_path):
    """tests/data/before-groups.sqlite3 holds a Trix game stored without ``taken_back``:
    migration m013 gives it the reading it was scored by."""
    database = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "before-groups.sqlite3", database)
    create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(database)})
    db = connect(str(database))
    try:
        rows = list(db.query("select id, kind, options from games"))
        trix = [json.loads(r["options"]) for r in rows if r["kind"] == "trix"]
        assert trix and all(options["taken_back"] == "leader" for options in trix)
        assert all("taken_back" not in json.loads(r["options"]) for r in rows if r["kind"] != "trix")
    finally:
        db.conn.close()


def test_the_sheet_and_the_printed_sheet_name_the_plain_reading(client, make_game):
    plain = make_game(kind="trix", deals=[KING_BACK], options={"taken_back": "plain"})
    for url in (f"/games/{plain}", f"/games/{plain}/print"):
        assert "a card taken back: plain penalty, nobody gains" in text(client.get(url))
    leader = make_game(kind="trix", deals=[KING_BACK])  # the default reading is not named
    for url in (f"/games/{leader}", f"/games/{leader}/print"):
        assert "a card taken back" not in text(client.get(url))


def test_what_if_across_readings_as_a_read_model():
    from scorekeeper import explanations
    from scorekeeper.gamefile import from_dict

    for own, other, real, then in (("leader", "plain", LEADER_TOTALS, PLAIN_TOTALS),
                                   ("plain", "leader", PLAIN_TOTALS, LEADER_TOTALS)):
        file = from_dict(game_file("trix", options={"taken_back": own}, deals=[KING_BACK, DIAMONDS]))
        score = file.score()
        assert tuple(score.totals) == real
        shown = explanations.what_if(file, score, taken_back=other)
        assert tuple(shown.other.totals) == then and len(shown.changes) == 1
        assert explanations.what_if(file, score, taken_back=own).changes == ()  # the game's own
        # as if nobody had doubled, the reading decides nothing: Ben −75 for the K♥ either way
        plain_deal = explanations.what_if(file, score, doubling=False, taken_back=other)
        assert tuple(plain_deal.other.totals) == PLAIN_TOTALS and len(plain_deal.changes) == 1
        change = explanations.reading_change(file, score, other)
        assert [number for number, _seats in change.deals] == [1]
        assert {(c.seat, c.before, c.after) for c in change.totals} == {
            (1, real[1], then[1]), (3, real[3], then[3])}
