"""Entering a deal by taps (issue 8), through Flask's test client: counts as chips that
work without JavaScript, a Trix form opened with its contract chosen, the preview that
says why it cannot score yet, and problems named as a player would name them.

The browser side (tap counts, the chips' limits, the finishing order tapped in order,
Back after saving) is in tests/test_fast_entry_browser.py. Expected points come from
SCORING.md, worked by hand.
"""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper import store
from tests.test_web import WORKED_FORM, deal_count, text

BIDS = {"nonce": "c", "bids_0": "S", "bids_1": "H", "bids_2": "D"}


def saved_entry(db, game_id):
    return store.get_game(db, game_id).deals[-1].entry


# ----------------------------------------------------------------- counts as chips


def test_counts_tapped_as_chips_are_saved_without_javascript(client, make_game, db):
    """Without JavaScript a chip is a radio button (<field>_chip); the number field left
    blank, the chip counts. 5 clean tricks = 100; 4 tricks with 2 bugs: 40 ÷ 2 = 20;
    Carla's 4 tricks (the rest, filled in by the server), clean: 80 (SCORING.md §1.2)."""
    game_id = make_game()
    data = {**BIDS, "tricks_0": "", "tricks_0_chip": "5", "tricks_1_chip": "4", "bugs_1": "", "bugs_1_chip": "2",
            "bugs_0_chip": "0", "bugs_2_chip": "0"}
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 302
    entry = saved_entry(db, game_id)
    assert entry["tricks"] == [5, 4, 4] and entry["bugs"] == [0, 2, 0]
    assert "Deal 1 saved: \u2068Anna\u2069 +100, \u2068Ben\u2069 +20, \u2068Carla\u2069 +80." in text(client.get(f"/games/{game_id}"))


def test_a_typed_count_wins_over_a_chip(client, make_game, db):
    """Bugs' chip 0 is ticked from the start (a blank means none): a number typed without
    JavaScript is what counts, and the form shows it on its chip when it comes back."""
    game_id = make_game()
    data = {**BIDS, "tricks_0": "5", "tricks_1": "4", "bugs_0": "3", "bugs_0_chip": "0"}
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 302
    assert saved_entry(db, game_id)["bugs"] == [3, 0, 0]
    # sent back with a problem (no bid for Carla): the field and its chip say 3
    refused = client.post(f"/games/{game_id}/deals/new", data={**data, "nonce": "d", "bids_2": ""})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 400 and deal_count(db, game_id) == 1
    assert re.search(r'<input[^>]*id="bugs_0"[^>]*value="3"', page)
    assert re.search(r'id="bugs_0_chip-3" value="3" checked', page)


def test_a_chip_no_form_sends_is_refused_beside_its_field(client, make_game, db):
    game_id = make_game()
    refused = client.post(f"/games/{game_id}/deals/new", data={**BIDS, "tricks_0_chip": "14", "tricks_1": "4"})
    assert refused.status_code == 400 and deal_count(db, game_id) == 0
    errors = re.search(r'id="tricks_0-errors">(.*?)</ul>', refused.get_data(as_text=True), re.S)
    assert errors and "Tap one of the numbers." in errors.group(1)


def test_a_chip_and_a_number_both_changed_and_disagreeing_are_refused_beside_the_field(client, make_game, db):
    """Without JavaScript, chip and field can say different things. The form sends back
    the count it showed (<field>_was): changed both, to 5 and 4, nothing is saved (400),
    the field says so with the player's name, keeps the 4 typed and ticks no chip."""
    game_id = make_game()
    data = {**BIDS, "tricks_0": "4", "tricks_0_chip": "5", "tricks_0_was": "", "tricks_1": "4", "tricks_1_was": "",
            "bugs_0_chip": "0", "bugs_0_was": "0"}
    refused = client.post(f"/games/{game_id}/deals/new", data=data)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 400 and deal_count(db, game_id) == 0
    errors = re.search(r'id="tricks_0-errors">(.*?)</ul>', page, re.S)
    assert errors and "\u2068Anna\u2069's tricks: you tapped 5 but typed 4. Tap the right number, or type it again." in \
        html.unescape(errors.group(1))
    assert re.search(r'<input[^>]*id="tricks_0"[^>]*value="4"', page)
    assert not re.search(r'name="tricks_0_chip"[^>]*checked', page)
    assert 'name="tricks_0_was" value="4"' in page
    # the player taps 5 again (the 4 left as it was): the chip wins. Ben's bugs typed as 2
    # beside the chip 0 ticked from the start: the number wins. 5 clean tricks = 100; 4
    # tricks, 2 bugs: 40 ÷ 2 = 20; Carla's 4 clean = 80 (SCORING.md §1.2)
    again = {**data, "tricks_0_was": "4", "bugs_1": "2", "bugs_1_chip": "0", "bugs_1_was": "0"}
    assert client.post(f"/games/{game_id}/deals/new", data=again).status_code == 302
    assert saved_entry(db, game_id)["tricks"] == [5, 4, 4] and saved_entry(db, game_id)["bugs"] == [0, 2, 0]
    assert "Deal 1 saved: \u2068Anna\u2069 +100, \u2068Ben\u2069 +20, \u2068Carla\u2069 +80." in text(client.get(f"/games/{game_id}"))


def test_a_chip_tapped_on_a_deal_being_changed_wins_over_the_number_left_in_its_field(client, make_game, db):
    """Changing a deal without JavaScript: each field shows its count and its chip is
    ticked; tapping other chips (the numbers left as they were) changes the counts.
    Tricks 0, 5, 8 with bugs 0, 2, 1: 50, 50 ÷ 2 = 25, 80 ÷ 1 = 80 (SCORING.md §1.2)."""
    game_id = make_game(deals=[{"bids": [{"kind": "plain", "suit": s} for s in "SHD"],
                                "tricks": [0, 6, 7], "bugs": [0, 2, 1]}])
    deal_id = store.get_game(db, game_id).deals[0].id
    page = client.get(f"/games/{game_id}/deals/{deal_id}/edit").get_data(as_text=True)
    assert 'name="tricks_1_was" value="6"' in page and 'name="bugs_0_was" value="0"' in page
    shown = {"tricks": ["0", "6", "7"], "bugs": ["0", "2", "1"]}
    data = {"bids_0": "S", "bids_1": "H", "bids_2": "D"}
    for what, counts in shown.items():
        for seat, count in enumerate(counts):
            data |= {f"{what}_{seat}": count, f"{what}_{seat}_chip": count, f"{what}_{seat}_was": count}
    data |= {"tricks_1_chip": "5", "tricks_2_chip": "8"}
    answer = client.post(f"/games/{game_id}/deals/{deal_id}/edit", data=data)
    assert answer.status_code == 302
    assert saved_entry(db, game_id)["tricks"] == [0, 5, 8]
    assert "Deal 1 changed: \u2068Anna\u2069 +50, \u2068Ben\u2069 +25, \u2068Carla\u2069 +80." in text(client.get(f"/games/{game_id}"))


def test_every_count_is_a_row_of_chips_named_after_its_player(client, make_game):
    game_id = make_game(players=["Anna", "Ben", "Carla"])
    page = html.unescape(client.get(f"/games/{game_id}/deals/new").get_data(as_text=True))
    for seat, name in enumerate(["Anna", "Ben", "Carla"]):
        # the row of chips and the number field both carry the player's name
        assert page.count(f'aria-label="{name}\'s tricks"') == 2 and page.count(f'aria-label="{name}\'s bugs"') == 2
        assert len(re.findall(rf'name="tricks_{seat}_chip"', page)) == 14  # 0 … 13
        assert len(re.findall(rf'name="bugs_{seat}_chip"', page)) == 11  # 0 … 10
        assert re.search(rf'id="bugs_{seat}_chip-0" value="0" checked', page)  # none until tapped
        assert not re.search(rf'name="tricks_{seat}_chip"[^>]*checked', page)
    assert 'aria-label="Anna: Doublets"' in page
    # the number field stays, for keyboards and screen readers: the numeric keypad, any digits (issue 10)
    assert re.search(r'<input[^>]*id="tricks_0"[^>]*inputmode="numeric"|<input[^>]*inputmode="numeric"[^>]*id="tricks_0"', page)


def test_plain_bugami_counts_go_to_17_tricks_and_13_bugs(client, make_game):
    game_id = make_game(kind="bugami3")
    page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert len(re.findall(r'name="tricks_0_chip"', page)) == 18
    assert len(re.findall(r'name="bugs_0_chip"', page)) == 14


def test_trix_counts_are_chips_too(client, make_game, db):
    """Diamonds 3, 4, 2 tapped; Dan's 4 is the rest: −10 a diamond (SCORING.md §2.1)."""
    game_id = make_game(kind="trix")
    page = html.unescape(client.get(f"/games/{game_id}/deals/new?contract=diamonds").get_data(as_text=True))
    assert 'aria-label="Dan\'s diamonds"' in page and len(re.findall(r'name="diamonds_3_chip"', page)) == 14
    data = {"nonce": "d", "contracts": "diamonds", "diamonds_0_chip": "3", "diamonds_1_chip": "4", "diamonds_2_chip": "2"}
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 302
    assert saved_entry(db, game_id)["diamonds"] == [3, 4, 2, 4]
    assert "\u2068Anna\u2069 −30, \u2068Ben\u2069 −40, \u2068Carla\u2069 −20, \u2068Dan\u2069 −40." in text(client.get(f"/games/{game_id}"))


def test_the_turnip_suit_can_be_noted_without_a_turnip_bid(client, make_game, db):
    """GAME-FILE.md: the turnip may be given when nobody bid Turnip; the form offers it."""
    game_id = make_game()
    form = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert 'name="turnip"' in form
    assert client.post(f"/games/{game_id}/deals/new", data={**BIDS, "tricks_0": "5", "tricks_1": "4",
                                                             "turnip": "C"}).status_code == 302
    assert saved_entry(db, game_id)["turnip"] == "C"


# ----------------------------------------------------------------- Trix: the contract from the sheet


def test_the_trix_sheet_offers_a_button_for_each_contract_left(client, make_game):
    game_id = make_game(kind="trix", deals=[{"contracts": ["king"], "king": {"taker": 0}}])
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    links = re.findall(r'href="[^"]*/deals/new\?contract=(\w+)"', page)
    assert links == ["queens", "diamonds", "tricks", "trix"]
    assert "+ Add deal 2:" in text(client.get(f"/games/{game_id}"))


@pytest.mark.parametrize("options, deals", [
    ({"order": ["trix", "queens", "king", "diamonds", "tricks"]}, []),  # a fixed order: one contract is next
    ({}, [{"contracts": [c], c: {"taker": 0}} if c == "king" else
          {"contracts": [c], c: [4, 3, 3, 3]} for c in ("king", "diamonds", "tricks")]
         + [{"contracts": ["trix"], "trix": [0, 1, 2, 3]}]),  # the kingdom's last contract
])
def test_one_contract_left_is_one_add_button(client, make_game, options, deals):
    game_id = make_game(kind="trix", options=options, deals=deals)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "?contract=" not in page
    form = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert len(re.findall(r'name="contracts"[^>]*checked|checked[^>]*name="contracts"', form)) == 1


def test_the_form_opens_with_the_contract_chosen_on_the_sheet(client, make_game):
    game_id = make_game(kind="trix", deals=[{"contracts": ["king"], "king": {"taker": 0}}])
    page = client.get(f"/games/{game_id}/deals/new?contract=queens").get_data(as_text=True)
    assert re.search(r'<input[^>]*checked[^>]*value="queens"|<input[^>]*value="queens"[^>]*checked', page)
    assert "data-played-already" not in page
    for asked in ("king", "poker"):  # played already in this kingdom, or no contract at all: none chosen
        page = client.get(f"/games/{game_id}/deals/new?contract={asked}").get_data(as_text=True)
        assert not re.search(r'name="contracts"[^>]*checked|checked[^>]*name="contracts"', page)
    # … and the one played already is said so (tester 8: the sheet's "+ King" on a phone
    # whose sheet was drawn before another phone entered the King opened a form with
    # nothing ticked and no word why); this phone's own deal just saved, then Back, is said
    # too (tester 18: "entered on another phone?" for its own deal); an address naming no
    # contract says nothing
    played = text(client.get(f"/games/{game_id}/deals/new?contract=king"))
    assert "King of Hearts has been played in this kingdom already (saved just now, or on another phone): " \
           "choose this deal's contract." in played
    assert "played in this kingdom already" not in text(client.get(f"/games/{game_id}/deals/new?contract=poker"))


def test_a_complex_game_opens_with_that_contract_ticked(client, make_game):
    game_id = make_game(kind="trix", options={"complex": True})
    page = client.get(f"/games/{game_id}/deals/new?contract=diamonds").get_data(as_text=True)
    ticked = re.findall(r'<input[^>]*name="contracts"[^>]*>', page)
    assert [t for t in ticked if "checked" in t] == [next(t for t in ticked if 'value="diamonds"' in t)]


def test_doubling_shows_without_a_fold_out(client, make_game):
    game_id = make_game(kind="trix")
    page = client.get(f"/games/{game_id}/deals/new?contract=king")
    assert "Doubled?" not in text(page)
    # the legend as read, its card's suit in its own red span (tester 38): no tags between
    legends = [re.sub(r"<[^>]+>", "", legend) for legend in re.findall(r"<legend[^>]*>(.*?)</legend>",
                                                                     page.get_data(as_text=True), re.S)]
    assert "Who doubled the K♥?" in legends
    assert re.search(r'<legend[^>]*>Who doubled the K<span class="suit suit-H">♥</span>\?</legend>',
                     page.get_data(as_text=True))
    assert 'holds the 7<span class="suit suit-H">♥</span> and chooses.' in page.get_data(as_text=True)


# ----------------------------------------------------------------- the preview says why


def preview(client, game_id, data):
    return client.post(f"/games/{game_id}/deals/preview", data={"nonce": "p", **data}).get_json()


def test_the_preview_asks_for_what_is_missing(client, make_game):
    game_id = make_game()
    # wrong: where each question stands (every bid, every player's tricks; blank bugs are 0)
    assert preview(client, game_id, {}) == {"ok": False, "message": "Choose \u2068Anna\u2069's bid.", "question": True,
                                            "wrong": ["bids_0", "bids_1", "bids_2", "tricks_0", "tricks_1", "tricks_2"]}
    answer = preview(client, game_id, {"bids_0": "S", "bids_1": "H", "bids_2": "D", "tricks_0_chip": "5"})
    assert answer == {"ok": False, "message": "How many tricks did \u2068Ben\u2069 win?", "question": True,
                      "wrong": ["tricks_1", "tricks_2"]}


def test_the_preview_names_turnip_with_doublets_as_save_would(client, make_game):
    """Turnip and Doublets ticked for one player: the reason shows at once, in Save's words,
    even while another player's bid is still missing."""
    game_id = make_game()
    data = {**WORKED_FORM, "doublets_0": "y"}
    data.pop("bids_2")
    answer = preview(client, game_id, data)
    message = "\u2068Anna\u2069: Doublets needs a suit, Turnip takes the turnip's suit; choose one of the two."
    assert answer == {"ok": False, "message": message, "question": False, "wrong": ["bids_2", "doublets_0"]}
    saved = client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "doublets_0": "y"})
    assert saved.status_code == 400 and message in text(saved)


def test_the_preview_says_what_the_rules_refuse(client, make_game):
    game_id = make_game()
    answer = preview(client, game_id, {**WORKED_FORM, "tricks_2": "3"})
    assert answer == {"ok": False, "message": "Tricks add up to 12, expected 13.", "question": False,
                      "wrong": ["tricks-errors"]}  # above the tricks: the sum is no one player's
    answer = preview(client, game_id, {**WORKED_FORM, "tricks_0": "x"})  # whose count, away from its field
    assert answer == {"ok": False, "message": "\u2068Anna\u2069's tricks: Enter a whole number, like 3.", "question": False,
                      "wrong": ["tricks_0"]}


def test_a_player_twice_in_the_finishing_order_is_named(client, make_game, db):
    game_id = make_game(kind="trix")
    data = {"contracts": "trix", "trix_place_1": "2", "trix_place_2": "2", "trix_place_3": "0"}
    message = "\u2068Carla\u2069 is tapped as both out first and second: each player goes out once."
    assert preview(client, game_id, data) == {"ok": False, "message": message, "question": False,
                                              "wrong": ["trix-errors"]}  # above the finishing order
    refused = client.post(f"/games/{game_id}/deals/new", data={"nonce": "t", **data})
    assert refused.status_code == 400 and message in text(refused) and deal_count(db, game_id) == 0


def test_the_preview_asks_for_the_next_place_of_the_finishing_order(client, make_game):
    """Tester 31: with players tapped, the line went on asking for the whole order; it asks
    for the first place left (the last one out fills itself in)."""
    game_id = make_game(kind="trix")
    none = preview(client, game_id, {"contracts": "trix"})
    assert none["message"] == "Tap who went out first, second and third." and none["question"]
    one = preview(client, game_id, {"contracts": "trix", "trix_place_1": "2"})
    assert one["message"] == "Tap who went out second."
    two = preview(client, game_id, {"contracts": "trix", "trix_place_1": "2", "trix_place_2": "0"})
    assert two["message"] == "Tap who went out third."
    gap = preview(client, game_id, {"contracts": "trix", "trix_place_2": "0", "trix_place_3": "1"})
    assert gap["message"] == "Tap who went out first."
    # three tapped: the last one out is whoever is left (Dan), and the points are worked out
    done = preview(client, game_id, {"contracts": "trix", "trix_place_1": "2", "trix_place_2": "0",
                                     "trix_place_3": "1"})
    assert done["ok"] and done["points"] == ["+150", "+100", "+200", "+50"]  # §2.1: 200, 150, 100, 50


def test_the_calculator_preview_says_why_too(client):
    answer = client.get("/calculator/preview", query_string={"kind": "trigami", "bids_0": "S"}).get_json()
    # top to bottom, as the form asks: the first player's card before the second's
    assert answer == {"ok": False, "message": "How many tricks did \u2068Player 1\u2069 win?", "question": True,
                      "wrong": ["bids_1", "bids_2", "tricks_0", "tricks_1", "tricks_2"]}


def test_a_preview_on_an_expired_page_says_so(csrf_app):
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.conftest import game_file

    database = connect(csrf_app.config["DATABASE"])
    game_id = store.create_game(database, from_dict(game_file()))
    database.conn.close()
    answer = csrf_app.test_client().post(f"/games/{game_id}/deals/preview", data=WORKED_FORM).get_json()
    assert not answer["ok"] and answer["message"].startswith("This page was open too long")


# ----------------------------------------------------------------- Back after saving


def test_the_browser_is_asked_not_to_put_taps_back_into_a_new_form(client, make_game):
    game_id = make_game()
    page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    form = re.search(r'<form method="post"[^>]*class="deal-form[^"]*"', page)
    assert form and 'autocomplete="off"' in html.unescape(form.group(0))


def test_a_contract_asked_of_a_trigami_form_is_ignored(client, make_game):
    game_id = make_game()
    assert client.get(f"/games/{game_id}/deals/new?contract=king").status_code == 200


def test_a_deal_being_changed_shows_its_counts_on_their_chips(client, make_game, db):
    game_id = make_game(deals=[{"bids": [{"kind": "plain", "suit": s} for s in "SHD"],
                                "tricks": [0, 6, 7], "bugs": [0, 2, 1]}])
    deal_id = store.get_game(db, game_id).deals[0].id
    page = client.get(f"/games/{game_id}/deals/{deal_id}/edit").get_data(as_text=True)
    ticked = re.findall(r'id="(\w+_chip-\d+)" value="\d+" checked', page)
    assert ticked == ["tricks_0_chip-0", "bugs_0_chip-0", "tricks_1_chip-6", "bugs_1_chip-2",
                      "tricks_2_chip-7", "bugs_2_chip-1"]
