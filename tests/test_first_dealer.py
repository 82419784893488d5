"""Who deals first — in Trix, who holds the 7♥ — said before the first deal.

SCORING.md §2: "Anyone deals the very first deal; whoever is dealt the 7♥ owns the first
kingdom, chooses the contract for that deal and deals the other four. Each next kingdom
belongs to the previous owner's right-hand neighbour." A club night seats its tables
before anyone has seen the cards, seat 0 first (docs/club-nights.md), and a new game's
tap may be the wrong one, so until the first deal is saved the sheet offers "Someone
else holds the 7♥?" (Trigami and plain Bugami, SCORING.md §1: "Someone else deals
first?"; the deal then passes to the next seat). Once a deal is saved, each deal was
dealt as it said, and it no longer changes (tester 65).
"""

from __future__ import annotations

import re
from functools import partial

import pytest

from scorekeeper import groups, night_store, store
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.conftest import csrf_token, game_file
from tests.race_support import assert_race_invariants, at_once, deal_fields, form_fields
from tests.test_nights import NINE, start
from tests.test_nights import text as page_words

KING = {"contracts": ["king"], "king": {"taker": 1}}  # Ben takes the K♥: −75 (SCORING.md §2.1)


def text(response) -> str:
    """The page as a player reads it (tests/test_nights.py), a card's suit beside its rank
    and the full stop or question mark after it, as the page draws them."""
    return re.sub(r"([♠♥♦♣]) ([.?])", r"\1\2", re.sub(r"(\w) ([♠♥♦♣])", r"\1\2", page_words(response)))


def history_text(client, game_id: str) -> str:
    return text(client.get(f"/games/{game_id}/history"))


def test_someone_else_holds_the_seven_of_hearts_before_the_first_deal(client, db, make_game):
    game_id = make_game(kind="trix")  # Anna, Ben, Carla, Dan; the new-game form said Anna
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Anna holds the 7♥ and chooses the contract" in sheet
    assert "Someone else holds the 7♥?" in sheet
    page = client.get(f"/games/{game_id}/first-dealer")
    assert page.status_code == 200
    assert 'checked id="seat-0"' in page.get_data(as_text=True)  # Anna ticked: what the game says now

    answer = client.post(f"/games/{game_id}/first-dealer", data={"seat": "2", "nonce": "n1"})
    assert answer.status_code == 302 and answer.location.endswith(f"/games/{game_id}")
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Carla holds the 7♥ and owns the first kingdom." in sheet  # the flash
    assert "Carla holds the 7♥ and chooses the contract" in sheet
    assert "Anna holds the 7♥" not in sheet
    assert store.get_game(db, game_id).game_file().first_dealer == 2  # what the game file says

    # Carla owns kingdom 1: she chose the K♥ and deals the other four deals of it
    assert client.post(f"/games/{game_id}/deals/new", data={"nonce": "d1", "contracts": "king",
                                                            "king_taker": "1"}).status_code == 302
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Carla deals (kingdom 1)." in sheet
    assert "Kingdom 1 — Carla chooses and deals" in sheet
    assert "Someone else holds the 7♥?" not in sheet
    told = history_text(client, game_id)
    assert "Who holds the 7♥ changed" in told
    assert "Carla holds the 7♥ and owns the first kingdom, not Anna." in told


def test_after_the_first_deal_who_held_the_seven_of_hearts_stays(client, db, make_game):
    game_id = make_game(kind="trix", deals=[KING])
    answer = client.post(f"/games/{game_id}/first-dealer", data={"seat": "3", "nonce": "n1"})
    assert answer.status_code == 409
    assert ("Deal 1 is saved already, so who holds the 7♥ can no longer change: Anna owns the first "
            "kingdom.") in text(answer)
    game = store.get_game(db, game_id)
    assert game.first_dealer == 0
    assert "first_dealer_changed" not in [c.action for c in store.changes(db, game_id)]
    assert "Anna deals (kingdom 1)." in text(client.get(f"/games/{game_id}"))
    # in the page's digits (tester 74: a Western 1 on an Arabic page)
    client.set_cookie("lang", "ar")
    said = client.post(f"/games/{game_id}/first-dealer", data={"seat": "3", "nonce": "n2"})
    assert said.status_code == 409 and "التوزيعة \u0661 محفوظة" in text(said)


def test_someone_else_deals_first_in_trigami_and_the_deal_passes_on(client, db, make_game):
    game_id = make_game()  # Anna, Ben, Carla; Anna deals first
    assert "Anna deals next; Ben leads to the first trick." in text(client.get(f"/games/{game_id}"))
    answer = client.post(f"/games/{game_id}/first-dealer", data={"seat": "1", "nonce": "n1"})
    assert answer.status_code == 302
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Ben deals first." in sheet
    assert "Ben deals next; Carla leads to the first trick." in sheet  # SCORING.md §1: the next seat leads
    data = {"nonce": "d1", "bids_0": "S", "tricks_0": "5", "bugs_0": "0", "bids_1": "H", "tricks_1": "4",
            "bugs_1": "0", "bids_2": "D", "tricks_2": "4", "bugs_2": "0"}
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 302
    assert "Carla deals next; Anna leads to the first trick." in text(client.get(f"/games/{game_id}"))
    assert "Ben deals first, not Anna." in history_text(client, game_id)


def test_the_same_tap_sent_twice_changes_it_once(client, db, make_game):
    game_id = make_game(kind="trix")
    for _ in range(2):
        assert client.post(f"/games/{game_id}/first-dealer", data={"seat": "2", "nonce": "same"}).status_code == 302
    assert [c.action for c in store.changes(db, game_id)].count("first_dealer_changed") == 1
    # the same form sent again with another tap (a page from the browser's cache): nothing
    # changes, and the phone is told who holds the 7♥, not the seat it tapped (tester 72)
    assert client.post(f"/games/{game_id}/first-dealer", data={"seat": "3", "nonce": "same"}).status_code == 302
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Carla holds the 7♥ and owns the first kingdom." in sheet and "Dan holds" not in sheet
    assert store.get_game(db, game_id).first_dealer == 2


def test_a_form_without_its_token_changes_nothing(csrf_app, db):
    """Tester 72: the form was saved without its CSRF token (from another site's page too);
    a form sent so is refused, as every other form of the app is, and nothing changes."""
    phone = csrf_app.test_client()
    connection = connect(csrf_app.config["DATABASE"])
    try:
        game_id = store.create_game(connection, from_dict(game_file(kind="trix")))
    finally:
        connection.conn.close()
    page = phone.get(f"/games/{game_id}/first-dealer").get_data(as_text=True)
    forged = phone.post(f"/games/{game_id}/first-dealer", data={"seat": "2", "nonce": "n1"},
                        headers={"Origin": "http://evil.example"})
    assert forged.status_code == 400 and "This page was open too long. Tap Save again." in text(forged)
    connection = connect(csrf_app.config["DATABASE"])
    try:
        assert store.get_game(connection, game_id).first_dealer == 0
        # with the page's own token it is saved
        sent = phone.post(f"/games/{game_id}/first-dealer",
                          data={"seat": "2", "nonce": "n2", "csrf_token": csrf_token(page)})
        assert sent.status_code == 302 and store.get_game(connection, game_id).first_dealer == 2
    finally:
        connection.conn.close()


@pytest.mark.parametrize("sent", [{}, {"seat": "4"}, {"seat": "-1"}, {"seat": "Carla"}],
                         ids=["none tapped", "no fifth seat", "below the first", "a name"])
def test_no_seat_or_one_the_game_does_not_have_is_refused_beside_the_chips(client, db, make_game, sent):
    game_id = make_game(kind="trix")
    answer = client.post(f"/games/{game_id}/first-dealer", data={"nonce": "n1", **sent})
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert 'id="seat-errors"' in page and "Tap who holds the 7♥." in text(answer)
    assert store.get_game(db, game_id).first_dealer == 0
    assert "first_dealer_changed" not in [c.action for c in store.changes(db, game_id)]


def test_a_club_nights_table_card_says_who_holds_the_seven_of_hearts(app, client, db):
    night_id = start(client, "trix", NINE[:8], 2)  # two tables of four, seat 0 holding the 7♥
    table = night_store.get_night(db, night_id).current.tables[0]
    card = groups.table_cards(db, night_id)[table.game.id]
    phone = app.test_client(join=False)  # the table's phone scanned its card: no group link
    assert phone.get(f"/t/{card}").status_code == 302
    sheet = text(phone.get(f"/games/{table.game.id}"))
    first, third = table.game.players[0], table.game.players[2]
    assert f"{first} holds the 7♥ and chooses the contract" in sheet
    assert "Someone else holds the 7♥?" in sheet
    form = phone.get(f"/games/{table.game.id}/deals/new")
    assert "Someone else?" in text(form)
    answer = phone.post(f"/games/{table.game.id}/first-dealer", data={"seat": "2", "nonce": "n1", "then": "deal"})
    assert answer.status_code == 302 and answer.location.endswith(f"/games/{table.game.id}/deals/new")
    assert f"{third} holds the 7♥ and chooses." in text(phone.get(f"/games/{table.game.id}/deals/new"))
    assert store.get_game(db, table.game.id).first_dealer == 2
    # the table's other game is not the card's
    other = night_store.get_night(db, night_id).current.tables[1].game.id
    assert phone.post(f"/games/{other}/first-dealer", data={"seat": "2", "nonce": "n2"}).status_code == 403
    assert store.get_game(db, other).first_dealer == 0


def test_the_printed_table_cards_name_no_seven_of_hearts_holder_before_the_cards_are_dealt(client, db):
    """Tester 73: the printed cards of a Trix night said "holds the 7♥" beside each table's
    first seat, before anyone had seen the cards, and kept saying it after the table said
    another player holds it. Before deal 1 a card says how the holder is told; after it,
    it names the holder the table said."""
    night_id = start(client, "trix", NINE[:8], 2)
    first, _second = night_store.get_night(db, night_id).current.tables
    printed = text(client.get(f"/nights/{night_id}/print"))
    assert "holds the 7♥" not in printed
    assert printed.count("Whoever is dealt the 7♥ in the first deal owns the first kingdom: say who on the "
                         "table's score sheet before saving deal 1.") == 2
    assert client.post(f"/games/{first.game.id}/first-dealer", data={"seat": "3", "nonce": "n1"}).status_code == 302
    assert client.post(f"/games/{first.game.id}/deals/new", data={"nonce": "d1", "contracts": "king",
                                                                  "king_taker": "1"}).status_code == 302
    client.get(f"/games/{first.game.id}")  # the sheet, with the news of both
    printed = text(client.get(f"/nights/{night_id}/print"))
    holder = first.game.players[3]
    assert f"{holder} holds the 7♥" in printed and printed.count("holds the 7♥") == 1  # table 2 has not dealt
    assert f"{first.game.players[0]} holds the 7♥" not in printed


def test_a_deal_and_a_new_seven_of_hearts_holder_at_the_same_instant(race_server):
    """Two phones at one table: one saves deal 1 as the sheet said (Anna's kingdom), the
    other says Carla holds the 7♥. The check that no deal is in play is read inside the
    write, so exactly one of them is written: never a deal dealt under one owner and
    then given to another."""
    for _ in range(8):
        game_id = race_server.store_game(kind="trix")
        dealer, owner = race_server.phone(), race_server.phone()
        deal_form = dealer.form(f"/games/{game_id}/deals/new")
        owner_form = form_fields(owner.get(f"/games/{game_id}/first-dealer").body)
        replies = at_once(
            partial(dealer.post, f"/games/{game_id}/deals/new", {**deal_form, **deal_fields("trix", KING)}),
            partial(owner.post, f"/games/{game_id}/first-dealer", {**owner_form, "seat": "2"}))
        assert_race_invariants(race_server, replies)
        saved, changed = (reply.redirects_to(f"/games/{game_id}") for reply in replies)
        game = race_server.game(game_id)
        assert saved != changed, [reply.status for reply in replies]  # one written, the other told
        if saved:
            assert len(game.deals) == 1 and game.first_dealer == 0 and replies[1].status == 409
        else:
            assert not game.deals and game.first_dealer == 2 and replies[0].status == 409
            # the deal's phone is told why its deal waits: kingdom 1 is Carla's now
            told = " ".join(re.sub(r"<[^>]+>", " ", replies[0].body).replace("\u2068", "").replace("\u2069", "").split())
            told = re.sub(r"(\w) ([♠♥♦♣])", r"\1\2", told)
            assert "On another phone: Carla holds the 7♥ and owns the first kingdom" in told, told[:1500]
