"""Games in and out through Flask's test client: the CSV of a score sheet, importing a game
file (and every problem of a bad one, by deal), and the printable sheet.

Expected points are worked by hand from SCORING.md (the working is in the comments).
Seats: Anna 0, Ben 1, Carla 2 (Dan 3 in Trix), in playing order.
"""

from __future__ import annotations

import copy
import csv
import html
import io
import json
import re

import pytest

from scorekeeper import gamefile, i18n, store
from scorekeeper.db import connect
from tests.conftest import WORKED_TRIGAMI_DEAL, csrf_token, game_file
from tests.race_support import form_fields
from tests.test_gamefile import TRIX_KINGDOM


def text(response) -> str:
    """The page as a player reads it: tags dropped, entities decoded, spaces folded."""
    # a name's <bdi> is inline: "<bdi>Anna</bdi>'s total" reads "Anna's total"
    body = re.sub(r"</?bdi>", "", re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def read_csv(response) -> list[list[str]]:
    """What a spreadsheet program reads: UTF-8 after the byte-order mark, then CSV."""
    assert response.data.startswith(b"\xef\xbb\xbf")  # the byte-order mark Excel needs
    return list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"), newline="")))


def plain(suit: str) -> dict:
    return {"kind": "plain", "suit": suit}


def trigami_deal(tricks, bugs, suits=("S", "H", "D")) -> dict:
    return {"bids": [plain(s) for s in suits], "tricks": list(tricks), "bugs": list(bugs)}


# --------------------------------------------------------------------------- CSV


def test_trix_csv_has_a_row_per_deal_with_kingdom_contracts_points_and_totals(client, make_game):
    game_id = make_game(kind="trix", players=["Anna", "Ben", "Carla", "Dan"], deals=TRIX_KINGDOM)
    response = client.get(f"/games/{game_id}/sheet.csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert 'attachment; filename="trix-' in response.headers["Content-Disposition"]
    rows = read_csv(response)
    assert rows[0] == ["Deal", "Dealer", "Kingdom", "Contracts",
                       "Anna: how it was worked out", "Ben: how it was worked out",
                       "Carla: how it was worked out", "Dan: how it was worked out",
                       "Anna: points", "Anna: total", "Ben: points", "Ben: total",
                       "Carla: points", "Carla: total", "Dan: points", "Dan: total"]
    # SCORING.md §2.1–2.2, kingdom of Anna (first_dealer 0); anyone deals the first deal:
    #   K♥ doubled by Ben, taken by Carla: 0 +75 −150 0
    #   Queens, Q♠ doubled by Ben taken by Dan, Dan also Q♣: −25 +25 −25 −75
    #   Diamonds 3 4 2 4: −30 −40 −20 −40; Tricks 3 3 4 3: −45 −45 −60 −45
    #   Trix: Carla, Anna, Dan, Ben: +150 +50 +200 +100
    assert rows[1] == ["1", "", "1", "King of Hearts",
                       "did not take the K♥: 0", "doubled the K♥ and Carla took it: +75",
                       "took the K♥, doubled by Ben: −150", "did not take the K♥: 0",
                       "0", "0", "75", "75", "-150", "-150", "0", "0"]
    assert rows[2] == ["2", "Anna", "1", "Queens",
                       "took 1 queen (Q♥): −25", "doubled the Q♠ and Dan took it: +25", "took 1 queen (Q♦): −25",
                       "took the Q♠, doubled by Ben: −50; took 1 queen (Q♣): −25; in all: −75",
                       "-25", "-25", "25", "100", "-25", "-175", "-75", "-75"]
    assert rows[3][4:8] == [f"took {n} diamonds: {n} × −10 = −{10 * n}" for n in (3, 4, 2, 4)]
    assert rows[3][8:] == ["-30", "-55", "-40", "60", "-20", "-195", "-40", "-115"]
    assert rows[4][4:8] == [f"took {n} tricks: {n} × −15 = −{15 * n}" for n in (3, 3, 4, 3)]
    assert rows[4][8:] == ["-45", "-100", "-45", "15", "-60", "-255", "-45", "-160"]
    assert rows[5] == ["5", "Anna", "1", "Trix", "finished 2nd in Trix: +150", "finished 4th in Trix: +50",
                       "finished 1st in Trix: +200", "finished 3rd in Trix: +100",
                       "150", "50", "50", "65", "200", "-55", "100", "-60"]
    # the totals row: 50 + 65 − 55 − 60 = 0
    assert rows[6] == ["Total", "", "", "", "", "", "", "", "", "50", "", "65", "", "-55", "", "-60"]
    assert len(rows) == 7


@pytest.mark.parametrize(("taken_back", "ben", "carla", "other_reading"), [
    ("leader", "doubled the K♥ and took it back: −150", "led to the trick in which Ben took back the doubled K♥: +75",
     "would give Ben −75 and Carla 0 in this deal."),
    ("plain", "doubled the K♥ and took it back: −75", "did not take the K♥: 0",
     "would give Ben −150 and Carla +75 in this deal."),
])
def test_trix_csv_tells_who_doubled_and_who_led_to_a_card_taken_back(client, make_game, taken_back, ben, carla,
                                                                       other_reading):
    """Tester 18 (MEDIUM): the CSV showed no doubling, and no leader of a card taken back,
    so a spreadsheet could not tell how −150 came about. SCORING.md §2.2: Ben doubled the
    K♥ and won it back himself in a trick Carla led: Ben −150, Carla +75; read "plain",
    Ben −75 and nobody gains (and the other reading is told, as on the explanation)."""
    game_id = make_game(kind="trix", options={"taken_back": taken_back}, deals=[
        {"contracts": ["king"], "king": {"taker": 1, "doubled_by": 1, "leader": 2}}])
    rows = read_csv(client.get(f"/games/{game_id}/sheet.csv"))
    assert rows[1][4] == rows[1][7] == "did not take the K♥: 0"
    assert rows[1][5].startswith(ben + "; ") and rows[1][5].endswith(other_reading)
    assert rows[1][6].startswith(carla + "; ") and rows[1][6].endswith(other_reading)
    assert rows[1][8::2] == (["0", "-150", "75", "0"] if taken_back == "leader" else ["0", "-75", "0", "0"])


def test_trigami_csv_gives_each_players_bid_tricks_and_bugs(client, make_game):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    rows = read_csv(client.get(f"/games/{game_id}/sheet.csv"))
    assert rows[0] == ["Deal", "Dealer", "Anna: bid", "Anna: tricks", "Anna: bugs",
                       "Ben: bid", "Ben: tricks", "Ben: bugs", "Carla: bid", "Carla: tricks", "Carla: bugs",
                       "Anna: points", "Anna: total", "Ben: points", "Ben: total", "Carla: points", "Carla: total"]
    # SCORING.md §1.2 worked example, so a spreadsheet can check it: Anna Turnip 4 tricks
    # 1 bug: 40 ÷ 1 doubled = 80; Ben Doublets ♠ 5 tricks no bug: 5 × 40 = 200; Carla ♥ 4
    # tricks 3 bugs: 40 ÷ 3 = 13. Anna deals first (first_dealer 0)
    assert rows[1] == ["1", "Anna", "Turnip ♦", "4", "1", "Doublets ♠", "5", "0", "♥", "4", "3",
                       "80", "80", "200", "200", "13", "13"]
    assert rows[2] == ["Total"] + [""] * 10 + ["", "80", "", "200", "", "13"]
    assert len(rows) == 3


def test_plain_bugami_csv_gives_tricks_and_bugs_too(client, make_game):
    # 17 tricks, 13 cards a suit (SCORING.md §1.3): Anna ♠ 6 clean tricks 6 × 20 = 120;
    # Ben ♥ 6 tricks 3 bugs: 60 ÷ 3 = 20; Carla ♦ 5 tricks 10 bugs: 50 ÷ 10 = 5
    deal = trigami_deal((6, 6, 5), (0, 3, 10))
    game_id = make_game(kind="bugami3", deals=[deal])
    rows = read_csv(client.get(f"/games/{game_id}/sheet.csv"))
    assert rows[1][2:11] == ["♠", "6", "0", "♥", "6", "3", "♦", "5", "10"]


def test_csv_keeps_names_in_any_script(client, make_game):
    names = ["Ελένη", "李娜", "عائشة", "Юлия"]
    game_id = make_game(kind="trix", players=names, deals=TRIX_KINGDOM[:1])
    rows = read_csv(client.get(f"/games/{game_id}/sheet.csv"))
    assert rows[0][8] == "Ελένη: points" and rows[0][10] == "李娜: points"
    assert rows[0][12] == "عائشة: points" and rows[0][14] == "Юлия: points"
    # Carla's seat (李娜's neighbour 'عائشة') took the doubled K♥: −150, named as typed
    assert rows[1][12] == "-150" and rows[1][5] == "doubled the K♥ and عائشة took it: +75"


@pytest.mark.parametrize("name", ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)"])
def test_csv_never_turns_a_name_into_a_formula(client, make_game, name):
    game_id = make_game(players=[name, "Ben", "Carla"], first_dealer=0,
                        deals=[trigami_deal((5, 4, 4), (0, 0, 0))])
    rows = read_csv(client.get(f"/games/{game_id}/sheet.csv"))
    cells = [cell for row in rows for cell in row]
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)
    assert f"'{name}: bid" in rows[0] and f"'{name}: tricks" in rows[0]
    assert rows[1][1] == f"'{name}"  # the dealer
    # numbers stay numbers: 5 clean tricks = 100, 4 clean = 80 (SCORING.md §1.2)
    assert rows[1][2:11] == ["♠", "5", "0", "♥", "4", "0", "♦", "4", "0"]
    assert rows[1][11:] == ["100", "100", "80", "80", "80", "80"]


def test_csv_of_a_finished_partners_game_has_team_totals_and_winners(client, make_game):
    # Four kingdoms of the same five deals, each owned in turn: every kingdom adds
    # 50, 65, −55, −60, so the totals are 200, 260, −220, −240; teams Anna & Carla
    # 200 − 220 = −20, Ben & Dan 260 − 240 = 20: Ben & Dan win.
    game_id = make_game(kind="trix", deals=TRIX_KINGDOM * 4, options={"partnership": "sum"})
    rows = read_csv(client.get(f"/games/{game_id}/sheet.csv"))
    assert rows[20][0] == "20" and rows[20][2] == "4"
    assert rows[21] == ["Total", *[""] * 8, "200", "", "260", "", "-220", "", "-240"]
    # the team named where a row says what it is, never in the Dealer column
    assert rows[22] == ["Team total: Anna & Carla", *[""] * 8, "-20", "", "", "", "-20", "", ""]
    assert rows[23] == ["Team total: Ben & Dan", *[""] * 8, "", "", "20", "", "", "", "20"]
    assert rows[24] == ["Won by: Ben & Dan"]
    assert all(row[1] in ("", "Anna", "Ben", "Carla", "Dan") for row in rows[1:] if len(row) > 1)


def test_csv_team_names_cannot_become_formulas(client, make_game):
    names = ["=SUM(1,2)", "Ben", "Ива́н", "@Dan"]
    game_id = make_game(kind="trix", players=names, deals=TRIX_KINGDOM, options={"partnership": "sum"})
    response = client.get(f"/games/{game_id}/sheet.csv")
    rows = read_csv(response)
    assert rows[7][0] == "Team total: =SUM(1,2) & Ива́н" and rows[8][0] == "Team total: Ben & @Dan"
    assert rows[0][8] == "'=SUM(1,2): points" and rows[0][14] == "'@Dan: points"
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row
                   if not cell.lstrip("-").isdigit())


def test_csv_of_an_unknown_game_is_a_404(client):
    assert client.get("/games/nope/sheet.csv").status_code == 404


# --------------------------------------------------------------------------- upload


def multipart(content: bytes, name: str = "game.json", **fields: str) -> tuple[bytes, str]:
    """A multipart/form-data body as a browser sends it. (Built by hand: the test client
    would spool a body this large to a temporary file that it never closes.)"""
    boundary = "----scorekeeper-test-boundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
             for key, value in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
                 f"Content-Type: application/json\r\n\r\n".encode() + content + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def upload(client, content: bytes | str, name: str = "game.json", **fields: str):
    if isinstance(content, str):
        content = content.encode("utf-8")
    body, content_type = multipart(content, name, **fields)
    return client.post("/games/import", data=body, content_type=content_type)


def test_import_page_is_linked_from_new_game(client):
    assert "/games/import" in client.get("/games/new").get_data(as_text=True)
    page = client.get("/games/import")
    assert page.status_code == 200
    assert 'type="file"' in page.get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in page.get_data(as_text=True)


def test_a_good_game_file_is_stored_and_shown(client, db):
    data = game_file("trix", players=["Anna", "Ben", "Carla", "Dan"], deals=TRIX_KINGDOM)
    response = upload(client, json.dumps(data))
    assert response.status_code == 302
    game_id = response.location.rsplit("/", 1)[-1]
    game = store.get_game(db, game_id)
    assert game.players == ("Anna", "Ben", "Carla", "Dan") and len(game.deals) == 5
    sheet = client.get(response.location)
    assert "Imported Trix: \u2068Anna\u2069, \u2068Ben\u2069, \u2068Carla\u2069, \u2068Dan\u2069, 5 deals." in text(sheet)
    assert "Kingdom 1 complete: totals sum to 0" in text(sheet)


def test_an_exported_file_imports_as_the_same_game(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL], players=["Ελένη", "Ben", "Carla"])
    exported = client.get(f"/games/{game_id}/game.json").data
    response = upload(client, b"\xef\xbb\xbf" + exported)  # a Windows editor's byte-order mark
    # the very game is stored already: asked first, nothing stored
    assert response.status_code == 409
    page = text(response)
    assert "Nothing was imported: this game is already stored." in page and "Import a copy anyway" in page
    assert "Trigami: Ελένη, Ben, Carla, 1 deal, stored on" in page  # which game, in words
    assert f"/games/{game_id}" in response.get_data(as_text=True)
    assert db["games"].count == 1
    # the copy asked for is the same game, stored a second time
    fields = dict(re.findall(r'name="(nonce|content|copy)" type="hidden" value="([^"]*)"',
                             response.get_data(as_text=True)))
    copy = client.post("/games/import", data={k: html.unescape(v) for k, v in fields.items()})
    assert copy.status_code == 302 and db["games"].count == 2
    again = store.get_game(db, copy.location.rsplit("/", 1)[-1])
    assert again.id != game_id and again.players == ("Ελένη", "Ben", "Carla")
    assert [d.entry for d in again.deals] == [d.entry for d in store.get_game(db, game_id).deals]


def test_a_file_of_a_game_played_on_since_is_asked_about_not_stored_again(client, make_game, db):
    # a game file kept after deal 1, imported again once the game had reached deal 2: the
    # same game, whose copy would count its first deal twice in the statistics
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    kept = client.get(f"/games/{game_id}/game.json").data
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    response = upload(client, kept)
    assert response.status_code == 409, text(response)
    page = text(response)
    assert "Nothing was imported: this game is already stored, and has been played on since." in page
    assert "2 deals" in page and f"/games/{game_id}" in response.get_data(as_text=True)
    assert db["games"].count == 1


def test_a_newer_file_of_a_stored_game_adds_its_later_deals_to_it(client, make_game, db):
    # a game imported after deal 1 (a phone's file), played on to deal 2 where the file
    # came from, and that newer file imported too: its deal 2 joins the stored game, which
    # a second copy would count twice in the statistics
    older = json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL]))
    first = upload(client, older)
    game_id = first.location.rsplit("/", 1)[-1]
    other = {**WORKED_TRIGAMI_DEAL, "tricks": [5, 4, 4]}
    newer = json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL, other]))
    response = upload(client, newer, nonce="newer-upload")
    assert response.status_code == 302 and response.location == f"/games/{game_id}"
    sheet = text(client.get(response.location)).replace("\u2068", "").replace("\u2069", "")
    assert "Already stored with fewer deals: 1 later deal added to Trigami: Anna, Ben, Carla." in sheet
    assert db["games"].count == 1
    assert [d.entry for d in store.get_game(db, game_id).deals] == [WORKED_TRIGAMI_DEAL, other]
    # the game's totals are the newer file's, scored by the rules
    scored = gamefile.loads(newer).score().totals
    assert store.get_game(db, game_id).game_file().score().totals == scored
    # the same upload sent again adds nothing; the newer file once more is the game itself
    assert upload(client, newer, nonce="newer-upload").location == f"/games/{game_id}"
    assert upload(client, newer).status_code == 409
    assert len(store.get_game(db, game_id).deals) == 2 and db["games"].count == 1


def test_a_newer_file_that_brings_a_seat_taken_over_says_so_with_its_deals(client, db):
    """Tester 48: deal 2 and Dora taking Carla's seat from deal 2 came with a newer file;
    the notice said only "1 later deal added", and the sheet's head was the one place
    that showed the seat had changed hands."""
    game_id = upload(client, json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL]))).location.rsplit("/", 1)[-1]
    newer = {**game_file(deals=[WORKED_TRIGAMI_DEAL] * 2), "seat_changes": [{"from_deal": 2, "seat": 2, "player": "Dora"}]}
    response = upload(client, json.dumps(newer), nonce="newer-upload")
    assert response.location == f"/games/{game_id}"
    sheet = text(client.get(response.location)).replace("\u2068", "").replace("\u2069", "")
    assert "Already stored with fewer deals: 1 later deal added to Trigami: Anna, Ben, Carla." in sheet
    assert "Who takes over a seat came with them: Dora for Carla from deal 2." in sheet
    assert store.get_game(db, game_id).players_now == ("Anna", "Ben", "Dora")


def test_a_newer_file_of_a_game_whose_first_deal_was_changed_here_is_another_game(client, make_game, db):
    # the stored copy's deal 1 was put right here: the file's deals no longer begin with
    # the stored game's, so neither is the other played on; nothing is added to it
    first = upload(client, json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    game_id = first.location.rsplit("/", 1)[-1]
    deal_id = store.get_game(db, game_id).deals[0].id
    changed = {**WORKED_TRIGAMI_DEAL, "tricks": [4, 4, 5]}
    store.update_deal(db, game_id, deal_id, changed)
    newer = upload(client, json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL, WORKED_TRIGAMI_DEAL])))
    assert newer.status_code == 302 and newer.location != f"/games/{game_id}"
    assert [d.entry for d in store.get_game(db, game_id).deals] == [changed]
    assert db["games"].count == 2


def test_the_same_upload_sent_twice_stores_one_game(client, db):
    content = json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL]))
    first = upload(client, content, nonce="same-upload")
    second = upload(client, content, nonce="same-upload")  # a resend on a slow connection
    assert first.status_code == second.status_code == 302
    assert first.location == second.location and db["games"].count == 1


def test_a_game_differing_in_one_deal_is_no_duplicate(client, db):
    upload(client, json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    other = {**WORKED_TRIGAMI_DEAL, "tricks": [5, 4, 4]}
    assert upload(client, json.dumps(game_file(deals=[other]))).status_code == 302
    third = {**WORKED_TRIGAMI_DEAL, "tricks": [4, 4, 5]}  # the first deal unlike either game's
    assert upload(client, json.dumps(game_file(deals=[third, WORKED_TRIGAMI_DEAL]))).status_code == 302
    assert db["games"].count == 3


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "not a JSON file"),
    (b"\xff\xfe{\x00}\x00", "not UTF-8 text"),  # UTF-16, as some editors save
    (json.dumps({**game_file(), "format": 2}), "format must be 1, not 2"),
    (json.dumps([1, 2, 3]), "The file it is not a Scorekeeper game file, group file or night file"),
    # another app's JSON: one sentence, not every key it lacks
    (json.dumps({"name": "my-settings", "version": 3}), "The file it is not a Scorekeeper game file, group file or night file"),
    (json.dumps({**game_file(), "game": "bridge"}), "unknown game 'bridge'"),
    (b"", "The file it is empty"),  # under the heading "The file": not "The file the file is empty"
    (b"  \n", "The file it is empty"),
])
def test_bad_files_are_explained_and_nothing_is_stored(client, db, content, message):
    response = upload(client, content)
    assert response.status_code == 400
    assert message in text(response)
    assert "missing key" not in text(response)  # a file that is no game file, or of another format
    assert "Nothing was imported" in text(response)
    assert db["games"].count == 0


@pytest.mark.parametrize(("language", "words"), [
    ("de", "unbekanntes Spiel 'bridge'; erwartet eines von: trigami, bugami3, trix"),
    ("fi", "tuntematon peli 'bridge'"),
])
def test_a_file_of_an_unknown_game_is_refused_in_the_readers_language(client, db, language, words):
    client.get(f"/language/{language}")
    response = upload(client, json.dumps({**game_file(), "game": "bridge"}))
    assert response.status_code == 400
    assert words in text(response) and "unknown game" not in text(response)
    assert db["games"].count == 0


@pytest.mark.parametrize(("content", "words"), [
    (b"", "Die Datei sie ist leer"),  # under the heading "Die Datei", as English "The file it is empty"
    (b"\xff\xfe{\x00}\x00", "Die Datei sie ist kein UTF-8-Text"),
    (json.dumps([1, 2, 3]), "Die Datei sie ist keine Partie-, Gruppen- oder Abenddatei von Scorekeeper"),
])
def test_a_refused_file_in_german_is_said_of_the_file_not_as_formal_you(client, db, content, words):
    """A file's problems stand under the heading "Die Datei", as "it is empty" does under
    "The file": "sie ist leer"; a capital "Sie ist leer" reads as the formal "you are
    empty"."""
    client.get("/language/de")
    said = text(upload(client, content))
    assert words in said and "Sie ist" not in said
    assert db["games"].count == 0


def test_no_file_chosen(client, db):
    response = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Choose a game file first." in text(response)
    assert db["games"].count == 0


def test_a_deal_breaking_a_rule_is_named_by_its_number(client, db):
    deals = [WORKED_TRIGAMI_DEAL, trigami_deal((4, 4, 4), (0, 0, 0))]  # 12 tricks
    response = upload(client, json.dumps(game_file(deals=deals)))
    assert response.status_code == 400
    page = text(response)
    assert "Deal 2 tricks add up to 12, expected 13" in page
    assert "Deal 1" not in page
    assert db["games"].count == 0


def test_every_bad_deal_is_listed_not_just_the_first(client, db):
    deals = [
        WORKED_TRIGAMI_DEAL,                             # right: 80, 200, 13
        trigami_deal((0, 6, 7), (2, 0, 0)),              # Anna has bugs but no tricks
        trigami_deal((5, 4, 4), (0, 0, 0)),              # right: 100, 80, 80
        trigami_deal((4, 4, 4), (0, 0, 0)),              # 12 tricks
        {"bids": "none", "tricks": [4, 5, 4], "bugs": [0, 0, 0]},  # not even the shape
    ]
    response = upload(client, json.dumps(game_file(deals=deals)))
    page = text(response)
    assert "Deal 2 \u2068Anna\u2069 has 2 bugs but won no tricks" in page
    assert "Deal 4 tricks add up to 12, expected 13" in page
    assert "Deal 5 bids must be a list of 3 entries" in page
    assert "Deal 1 " not in page and "Deal 3 " not in page
    assert db["games"].count == 0


def test_problems_outside_deals_are_listed_with_the_deals(client, db):
    data = game_file(deals=[trigami_deal((4, 4, 4), (0, 0, 0))])
    data["players"] = ["Anna", "anna", "Carla"]
    data["first_dealer"] = 7
    page = text(upload(client, json.dumps(data)))
    assert "The file \u2068anna\u2069 is named twice" in page
    assert "first_dealer must be a seat from 0 to 2, not 7" in page
    assert "Deal 1 tricks add up to 12, expected 13" in page


@pytest.mark.parametrize("language", ["en", "de", "ar"])
@pytest.mark.parametrize("count", [10**30, -10**30])
def test_a_count_of_any_length_in_a_file_is_refused_with_its_deal_not_a_server_error(client, db, language, count):
    """A game file can hold any JSON number; its error message quotes it, in the page's
    language and digits, however long it is (it once stopped the page: 500)."""
    data = game_file("trix", deals=[dict(TRIX_KINGDOM[2], diamonds=[count, 3, 5, 5])])
    client.set_cookie("lang", language)
    response = upload(client, json.dumps(data))
    assert response.status_code == 400
    assert db["games"].count == 0
    assert 'type="file"' in response.get_data(as_text=True)  # the form again, with the problem


@pytest.mark.parametrize("size", [600 * 1024, 1024 * 1024])  # over the game file's limit; over the request's
def test_a_file_over_the_limit_gets_a_friendly_message(client, db, size):
    big = json.dumps({**game_file(), "padding": "x" * size})
    response = upload(client, big)
    assert response.status_code == 413
    page = text(response)
    assert "That file is too large: a game file is at most 512 KB" in page
    assert 'type="file"' in response.get_data(as_text=True)  # the form again, not an error page
    assert db["games"].count == 0


def test_upload_without_csrf_token_stores_nothing(csrf_app):
    client = csrf_app.test_client()
    content = json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL])).encode()
    response = upload(client, content)
    assert response.status_code == 400
    assert "Nothing was imported" in text(response)
    db = connect(csrf_app.config["DATABASE"])
    try:
        assert db["games"].count == 0
        token = csrf_token(client.get("/games/import").get_data(as_text=True))
        good = upload(client, content, csrf_token=token)
        assert good.status_code == 302
        assert db["games"].count == 1
    finally:
        db.conn.close()


# --------------------------------------------------------------------------- find_problems


def test_find_problems_names_the_first_broken_deal_and_each_later_deals_own_mistakes():
    # Trix, kingdom of Anna: deal 2 plays King of Hearts again (already played in deal 1);
    # deal 4 has diamonds adding up to 12 — its own mistake, whatever came before.
    deals = copy.deepcopy(TRIX_KINGDOM[:2])
    deals.insert(1, copy.deepcopy(TRIX_KINGDOM[0]))
    deals.append({"contracts": ["diamonds"], "diamonds": [3, 4, 2, 3]})
    problems = gamefile.find_problems(json.dumps(game_file("trix", deals=deals)))
    assert [(p.deal, p.message) for p in problems[:2]] == [
        (2, "King of Hearts has already been played in Anna's kingdom"),
        (4, "diamonds add up to 12, expected 13"),
    ]
    assert problems[2].deal is None and "after deal 2" in problems[2].message


def test_find_problems_lists_no_knock_on_problems_after_a_broken_kingdom():
    # A whole game of four kingdoms in which deal 4 repeats Diamonds (deal 3) instead of
    # playing Tricks: every later kingdom would be shifted by one deal, but none of those
    # later deals is wrong on its own, so only deal 4 is named.
    game = [copy.deepcopy(deal) for _kingdom in range(4) for deal in TRIX_KINGDOM]
    game[3] = copy.deepcopy(TRIX_KINGDOM[2])
    problems = gamefile.find_problems(json.dumps(game_file("trix", deals=game)))
    assert [p.deal for p in problems] == [4, None]
    assert "Diamonds has already been played" in problems[0].message


def test_find_problems_of_a_good_file_is_empty():
    assert gamefile.find_problems(json.dumps(game_file("trix", deals=TRIX_KINGDOM))) == []


def test_find_problems_after_the_game_is_over():
    # target 150: Anna's every trick scores 100 twice (SCORING.md §1.2, 1.), 200 ≥ 150 after
    # deal 2, so deal 3 comes after the end
    every = trigami_deal((13, 0, 0), (10, 0, 0))
    problems = gamefile.find_problems(json.dumps(game_file(options={"target": 150},
                                                           deals=[every, every, every])))
    assert [(p.deal, p.message) for p in problems] == [(3, "the game is already over")]


def test_find_problems_lists_at_most_its_limit():
    bad = trigami_deal((4, 4, 4), (0, 0, 0))
    problems = gamefile.find_problems(json.dumps(game_file(deals=[bad] * 40)), limit=5)
    assert len(problems) == 6
    assert problems[-1].deal is None and "not checked" in problems[-1].message


# --------------------------------------------------------------------------- print


def test_printable_trix_sheet_shows_kingdoms_and_their_checks(client, make_game):
    game_id = make_game(kind="trix", deals=TRIX_KINGDOM * 4)
    response = client.get(f"/games/{game_id}/print")
    assert response.status_code == 200
    page = text(response)
    # kingdoms go to the right: Anna, Ben, Carla, Dan (SCORING.md §2)
    for number, owner in enumerate(["Anna", "Ben", "Carla", "Dan"], 1):
        assert f"Kingdom {number} — {owner}" in page
        assert f"Kingdom {number}: Σ = 0 ✓" in page
    assert "Total 200 260 −220 −240" in page
    assert "Game over — Ben won!" in page
    body = response.get_data(as_text=True)
    assert "action-bar" not in body  # no buttons to print
    assert body.count('class="paper-deal-row"') == 20


def test_printable_trix_sheet_marks_each_card_a_player_doubled(client, make_game):
    """Tester 18 (MEDIUM): the printed sheet showed no doubling, so a doubling argued over
    could not be settled from paper. Each doubled card is marked in its doubler's cell, as
    on the score sheet: Ben doubled the K♥ (Carla took it: −150, Ben +75) and the Q♠
    (Dan took it: −50, Ben +25; SCORING.md §2.2), with the legend."""
    game_id = make_game(kind="trix", deals=TRIX_KINGDOM[:2])
    page = text(client.get(f"/games/{game_id}/print"))
    assert "1 King of Hearts 0 0 +75 75 K ♥ ² doubled the king of hearts −150 −150 0 0" in page
    assert "+25 100 Q ♠ ² doubled the queen of spades −25 −175" in page
    assert "K♥², Q♠²: a card that player doubled." in page
    plain = make_game(kind="trix", players=["Eve", "Finn", "Gus", "Hal"], options={"doubling": False},
                      deals=[{"contracts": ["king"], "king": {"taker": 2}}])
    page = text(client.get(f"/games/{plain}/print"))
    assert "²" not in page and "doubled" not in page


def test_printable_trigami_sheet_and_the_link_to_it(client, make_game):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"/games/{game_id}/print" in sheet and f"/games/{game_id}/sheet.csv" in sheet
    page = text(client.get(f"/games/{game_id}/print"))
    assert "Deal Anna Ben Carla" in page
    # deal 1: points, running total, bid; Anna deals (D)
    assert "1 +80 80 Turnip ♦ D +200 200 Doublets ♠ +13 13 ♥" in page
    assert "Not finished: 1 deal played." in page


def test_printable_sheet_of_an_unknown_game_is_a_404(client):
    assert client.get("/games/nope/print").status_code == 404


def test_download_names_keep_names_in_any_script(client, make_game):
    from urllib.parse import unquote

    game_id = make_game(kind="trix", players=["Ива́н", "李雷", "=SUM(1,2)", "Zoë"])
    for url in (f"/games/{game_id}/sheet.csv", f"/games/{game_id}/game.json"):
        header = client.get(url).headers["Content-Disposition"]
        full = unquote(header.split("filename*=UTF-8''")[1])
        assert "李雷" in full and "zoë" in full and "=" not in full
        plain = header.split('filename="')[1].split('"')[0]
        assert plain.isascii() and plain.startswith("trix-")
    # names of no Latin letter at all: the plain name ends with the day, no hyphen hanging
    arabic = make_game(kind="trix", players=["سارة", "عمر", "ليلى", "يوسف"])
    header = client.get(f"/games/{arabic}/sheet.csv").headers["Content-Disposition"]
    assert re.fullmatch(r"trix-\d{4}-\d\d-\d\d\.csv", header.split('filename="')[1].split('"')[0]), header


def test_what_a_problem_quotes_of_a_huge_value_is_cut_to_a_line(client, db):
    """A file holding a 5,000-character option name or bid: the problem names it, cut to a
    line's length with "…", not 5,000 characters the phone must scroll past."""
    huge = "Ä" * 5000
    bid = {"bids": [{"kind": huge, "suit": "S"}] * 3, "tricks": [13, 0, 0], "bugs": [10, 0, 0]}
    for data in (game_file(options={huge: 3}), game_file(deals=[bid])):
        response = upload(client, json.dumps(data))
        page = text(response)
        assert response.status_code == 400 and "Nothing was imported" in page
        assert "Ä" * 40 in page and "Ä" * 60 not in page and "…" in page
    assert db["games"].count == 0


# ------------------------------------------------- an imported game's own target, under 50


def test_an_imported_game_to_10_can_be_renamed_and_keeps_its_target(client, db):
    """The tester's steps: a game file with target 10 (the format allows 1 to 100000), then
    Players and settings, a player renamed: saved, the game still to 10. A new target is
    still checked: no lower than the game's own, and never over 100000."""
    imported = upload(client, json.dumps(game_file(players=["Anna", "Ben", "Carla"], options={"target": 10})))
    assert imported.status_code == 302
    game_id = imported.location.rsplit("/", 1)[1]
    page = client.get(f"/games/{game_id}/edit")
    form = form_fields(page.get_data(as_text=True))
    assert form["target"] == "10"

    renamed = client.post(f"/games/{game_id}/edit", data={**form, "player_1": "Bernd"})
    assert renamed.status_code == 302, text(renamed)
    game = store.get_game(db, game_id)
    assert game.players == ("Anna", "Bernd", "Carla") and game.options["target"] == 10

    for low in ("9", "1", "0"):
        refused = client.post(f"/games/{game_id}/edit", data={**form_fields(client.get(
            f"/games/{game_id}/edit").get_data(as_text=True)), "target": low})
        assert refused.status_code == 400, low
        assert "Enter a target from 10 to 100000." in text(refused)
    refused = client.post(f"/games/{game_id}/edit", data={**form_fields(client.get(
        f"/games/{game_id}/edit").get_data(as_text=True)), "target": "100001"})
    assert refused.status_code == 400 and "Enter a target from 10 to 100000." in text(refused)
    raised = client.post(f"/games/{game_id}/edit", data={**form_fields(client.get(
        f"/games/{game_id}/edit").get_data(as_text=True)), "target": "30"})
    assert raised.status_code == 302
    assert store.get_game(db, game_id).options["target"] == 30


def test_a_game_to_50_or_more_still_takes_no_target_under_50(client, db, make_game):
    game_id = make_game(options={"target": 300})
    form = form_fields(client.get(f"/games/{game_id}/edit").get_data(as_text=True))
    refused = client.post(f"/games/{game_id}/edit", data={**form, "target": "10"})
    assert refused.status_code == 400 and "Enter a target from 50 to 100000." in text(refused)
    assert store.get_game(db, game_id).options["target"] == 300


def test_a_newer_file_with_only_a_seat_taken_over_adds_that_change(client, db):
    # tester 2's file (stop 31): the game's file written again after Dora took over Carla's
    # seat from the next deal, before it was played: the same game, Dora sitting now
    older = json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL]))
    game_id = upload(client, older).location.rsplit("/", 1)[-1]
    newer = {**game_file(deals=[WORKED_TRIGAMI_DEAL]), "seat_changes": [{"from_deal": 2, "seat": 2, "player": "Dora"}]}
    response = upload(client, json.dumps(newer))
    assert response.status_code == 302 and response.location == f"/games/{game_id}"
    sheet = text(client.get(response.location)).replace("\u2068", "").replace("\u2069", "")
    assert "Already stored: who takes over a seat after its last deal added to Trigami: Anna, Ben, Carla." in sheet
    game = store.get_game(db, game_id)
    assert game.players_now == ("Anna", "Ben", "Dora") and len(game.deals) == 1
    assert db["games"].count == 1
    assert upload(client, json.dumps(newer)).status_code == 409  # now the game itself


def test_a_game_put_right_on_one_server_is_stored_beside_and_named_not_silently(client, db):
    # tester 3 (stop 31): deal 2 put right on the other server, its file imported here:
    # only "Imported", and both games counted with no word. It is still another game (which
    # side is right is the group's call), stored, and the page names the one here
    first_deal = WORKED_TRIGAMI_DEAL
    second = {**WORKED_TRIGAMI_DEAL, "tricks": [5, 4, 4]}
    here = upload(client, json.dumps(game_file(deals=[first_deal, second]))).location.rsplit("/", 1)[-1]
    put_right = {**WORKED_TRIGAMI_DEAL, "tricks": [4, 4, 5]}
    response = upload(client, json.dumps(game_file(deals=[first_deal, put_right])))
    assert response.status_code == 302 and response.location != f"/games/{here}"
    sheet = client.get(response.location)
    assert ("A game here has the same players and many of the same deals (a deal put right or a setting "
            "changed on one side?): both count. Open the one here to delete the one not wanted.") in text(sheet)
    assert f'href="/games/{here}"' in sheet.get_data(as_text=True)
    assert db["games"].count == 2
    # a game of the same players that began otherwise is simply another game, said as before
    other = {**WORKED_TRIGAMI_DEAL, "tricks": [3, 5, 5]}
    answer = upload(client, json.dumps(game_file(deals=[other])))
    assert answer.status_code == 302 and "many of the same deals" not in text(client.get(answer.location))


def test_a_bid_plain_bugami_has_not_is_refused_in_the_readers_words(client, db):
    """Tester 39: a plain Bugami for three file with a Turnip bid was refused in Finnish as
    "pelissä Plain Bugami for three on vain tavallisia tarjouksia, ei tarjousta turnip": the
    game's and the bid's names in English, the bid as the file spells it (SCORING.md §1.5:
    plain Bugami has plain bids only)."""
    deal = {"bids": [{"kind": "turnip"}, {"kind": "plain", "suit": "H"}, {"kind": "doublets", "suit": "C"}],
            "tricks": [6, 5, 6], "bugs": [0, 0, 0]}
    content = json.dumps(game_file("bugami3", deals=[deal]))
    said = text(upload(client, content))
    assert "\u2068Anna\u2069: Plain Bugami for three has only plain bids, no Turnip" in said
    client.set_cookie(i18n.COOKIE, "fi")
    said = text(upload(client, content))
    assert "pelissä Tavallinen Bugami kolmelle on vain tavallisia tarjouksia, ei turnipsitarjousta" in said
    assert "Plain Bugami" not in said and "turnip" not in said.replace("turnipsi", "")
    assert db["games"].count == 0
