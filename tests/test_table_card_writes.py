"""A table card's right to write, read inside the write (docs/club-nights.md, "Table
cards"): a card enters deals in its table's game only while its round is open, its
night not over, and for 12 hours at most. The request's check (access.admit) reads that
as the request arrives; the deal's own write reads it again in its transaction
(actions.CardClosed), so a round closed between the two gets nothing written, and the
phone the same page as any change after the night (403, "Deals can no longer be entered
or changed with it.").

The deals are SCORING.md §1.2's plain bids, far from the target of 500: CLEAN (5, 4 and 4
clean tricks) and OTHER (6, 4 and 3): neither ends a game, so only the card's round
decides whether they may be saved.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from scorekeeper import actions, groups, night_actions, night_store, store
from tests.test_nights import NINE, text, trigami_deal

CLEAN = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "D"}],
         "tricks": [5, 4, 4], "bugs": [0, 0, 0]}
OTHER = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "D"}],
         "tricks": [6, 4, 3], "bugs": [0, 0, 0]}


def start(db) -> tuple[int, str, str]:
    """A Trigami night of nine, two rounds, to 500: (night id, table 1's game id, its card)."""
    started = night_actions.start_night(db, groups.only_group(db).id, kind="trigami", options={"target": 500},
                                        players=NINE, rounds=2, ranking="placings", seating="random", seed=7)
    night = night_store.get_night(db, started.night_id)
    game_id = night.current.tables[0].game.id
    return started.night_id, game_id, groups.table_cards(db, started.night_id)[game_id]


def close(db, night_id: int) -> None:
    """The organiser closes the night's current round."""
    assert night_actions.close_round(db, night_store.get_night(db, night_id)) is not None


def seat_next(db, night_id: int) -> None:
    """The organiser closes the round and seats the next one: the night moved on."""
    close(db, night_id)
    assert night_actions.seat_next_round(db, night_store.get_night(db, night_id)) == night_actions.Seated(2)


def twelve_hours_pass(db, night_id: int) -> None:
    """The card was made (its round seated) 13 hours ago: past its 12 hours."""
    db.execute("update links set created_at = ? where access = 'table'",
               [(datetime.now(UTC) - timedelta(hours=13)).isoformat(timespec="seconds")])
    db.conn.commit()


def as_stored(db, game_id: str) -> tuple[list, list, list]:
    """What a player could find of the game: its deals in play, its deleted deals (the
    history's Restore buttons) and its history (the change log's actions, newest first)."""
    game = store.get_game(db, game_id)
    return ([d.entry for d in game.deals], [d.entry for d in store.deleted_deals(db, game_id)],
            [c.action for c in store.changes(db, game_id)])


@pytest.mark.parametrize("ends", [close, seat_next, twelve_hours_pass],
                         ids=["round closed", "next round seated", "twelve hours past"])
def test_a_card_whose_round_ended_after_the_requests_check_writes_nothing(db, ends):
    night_id, game_id, card = start(db)
    game = store.get_game(db, game_id)
    saved = actions.add_deal(db, game, CLEAN, nonce="first", seen=game.version, card=card)
    assert isinstance(saved, actions.Saved) and saved.number == 1  # while the round is open it writes
    game = store.get_game(db, game_id)
    second = actions.add_deal(db, game, OTHER, nonce="second", seen=game.version, card=card)
    assert isinstance(second, actions.Saved)
    assert isinstance(actions.delete_deal(db, game_id, second.deal_id, expected=None, card=card), actions.Deleted)
    # the request's check (access.admit reads groups.open_link as the request arrives) lets it in ...
    assert groups.open_link(db, card).can_write
    read = store.get_game(db, game_id)  # ... the view reads the game ...
    ends(db, night_id)  # ... and the round ends before the write
    before = as_stored(db, game_id)
    first = read.deals[0].id
    assert actions.add_deal(db, read, OTHER, nonce="late", seen=read.version, card=card) == actions.CardClosed()
    assert actions.change_deal(db, read, first, OTHER, expected=read.deals[0].version, card=card) \
        == actions.CardClosed()
    assert actions.delete_deal(db, game_id, first, expected=read.deals[0].version, card=card) \
        == actions.CardClosed()
    assert actions.restore_deal(db, read, second.deal_id, card=card) == actions.CardClosed()
    assert as_stored(db, game_id) == before == (
        [CLEAN], [OTHER], ["deal_deleted", "deal_added", "deal_added", "game_created"])
    assert store.deal_for_nonce(db, game_id, "late") is None


def test_the_organisers_play_link_still_writes_after_the_round_closed(db):
    """No card (a play link): the night counts the deals it had at the close, and the
    game itself takes a deal afterwards, as before (docs/club-nights.md, "A round closed
    early")."""
    night_id, game_id, _ = start(db)
    close(db, night_id)
    game = store.get_game(db, game_id)
    assert isinstance(actions.add_deal(db, game, CLEAN, nonce="organiser", seen=game.version), actions.Saved)
    assert [d.entry for d in store.get_game(db, game_id).deals] == [CLEAN]


def test_another_tables_card_writes_nothing_in_this_game(db):
    night_id, game_id, _ = start(db)
    night = night_store.get_night(db, night_id)
    other = groups.table_cards(db, night_id)[night.current.tables[1].game.id]
    game = store.get_game(db, game_id)
    assert actions.add_deal(db, game, CLEAN, nonce="wrong", seen=game.version, card=other) == actions.CardClosed()
    assert store.get_game(db, game_id).deals == ()


def card_phone_with_deals(app, db) -> tuple[int, str, object, int, int]:
    """Table 1's card phone, which saved CLEAN (5, 4, 4 tricks) and then OTHER (6, 4, 3)
    and took OTHER back with Undo: (night id, game id, the phone, CLEAN's deal id,
    OTHER's deal id)."""
    night_id, game_id, card = start(db)
    phone = app.test_client(join=False)
    assert phone.get(f"/t/{card}").status_code == 302
    for nonce, tricks in (("n1", (5, 4, 4)), ("n2", (6, 4, 3))):
        fields = trigami_deal([(suit, n, 0) for suit, n in zip("SHD", tricks, strict=True)], nonce)
        assert phone.post(f"/games/{game_id}/deals/new", data=fields).status_code == 302
    first, other = (d.id for d in store.get_game(db, game_id).deals)
    assert phone.post(f"/games/{game_id}/deals/{other}/delete", data={"undo": "1"}).status_code == 302
    return night_id, game_id, phone, first, other


#: Each deal change a card makes: the action its view calls, and the request (address
#: and form, given the game, CLEAN's deal id and OTHER's, deleted)
SENT = {
    "add_deal": lambda game, first, other: (f"/games/{game}/deals/new", trigami_deal([("S", 7, 0), ("H", 6, 0),
                                                                                      ("D", 0, 0)], "n3")),
    "change_deal": lambda game, first, other: (f"/games/{game}/deals/{first}/edit",
                                               trigami_deal([("S", 6, 0), ("H", 4, 0), ("D", 3, 0)], "n4")),
    "delete_deal": lambda game, first, other: (f"/games/{game}/deals/{first}/delete", {"undo": "1"}),
    "restore_deal": lambda game, first, other: (f"/games/{game}/deals/{other}/restore", {"back": "sheet"}),
}


@pytest.mark.parametrize("action", list(SENT))
def test_a_change_whose_round_closes_after_the_check_gets_the_cards_403_page(app, db, monkeypatch, action):
    """Through the app: the card's phone sends its change; the organiser's Close commits
    after the request's check and before the write (put there by wrapping the action the
    view calls). The phone gets the page of a change after the night, and the game stays
    as it was."""
    night_id, game_id, phone, first, other = card_phone_with_deals(app, db)
    before = as_stored(db, game_id)
    real = getattr(actions, action)

    def closed_meanwhile(*args, **kwargs):
        close(db, night_id)  # the organiser's phone, on a connection of its own
        return real(*args, **kwargs)

    monkeypatch.setattr(actions, action, closed_meanwhile)
    address, fields = SENT[action](game_id, first, other)
    sent = phone.post(address, data=fields)
    assert sent.status_code == 403
    # its round closed, not the night (round 2 is to come): said so, in the card's words
    assert "Round 1 is closed: this table card now only shows the scores of table 1. " \
           "Deals can no longer be entered or changed with it." in text(sent)
    assert "next round's tables" not in text(sent)  # none may be seated yet, or ever (tester 34)
    assert "The night is over" not in text(sent)
    # the bar at the top as it is now too, not as the request's check read it
    assert "Round 1 is closed: the card of table 1 now only shows its scores." in text(sent)
    assert "this phone enters deals" not in text(sent)
    assert f'href="/games/{game_id}"' in sent.get_data(as_text=True)  # leads to its game
    assert as_stored(db, game_id) == before == ([CLEAN], [OTHER], ["deal_deleted", "deal_added", "deal_added",
                                                                   "game_created"])


def test_a_trix_cards_form_refused_as_its_round_closed_offers_only_the_contracts_left(app, db):
    """Tester 34: table 1 had played the King of Hearts, the Queens and the Diamonds in
    its first kingdom; its card's Tricks deal, sent as the organiser closed the round,
    came back (nothing saved, entries kept) offering all five contracts, where the form
    had offered Tricks and Trix. The form sent back offers what the deal could choose."""
    eight = [*NINE[:8]]
    started = night_actions.start_night(db, groups.only_group(db).id, kind="trix", options={}, players=eight,
                                        rounds=2, ranking="placings", seating="random", seed=7)
    night = night_store.get_night(db, started.night_id)
    game_id = night.current.tables[0].game.id
    card = groups.table_cards(db, started.night_id)[game_id]
    for deal in ({"contracts": ["king"], "king": {"taker": 2}},
                 {"contracts": ["queens"], "queens": {s: {"taker": i} for i, s in enumerate("SHDC")}},
                 {"contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}):
        store.add_deal(db, game_id, deal)
    phone = app.test_client(join=False)
    assert phone.get(f"/t/{card}").status_code == 302
    assert phone.get(f"/games/{game_id}/deals/new").status_code == 200
    close(db, started.night_id)
    sent = phone.post(f"/games/{game_id}/deals/new", data={
        "nonce": "t1", "contracts": "tricks", **{f"tricks_{s}": n for s, n in enumerate(["4", "3", "3", "3"])}})
    assert sent.status_code == 403 and "Round 1 is closed" in text(sent)
    page = sent.get_data(as_text=True)
    again = sorted(set(re.findall(r'name="contracts"[^>]*value="(\w+)"|value="(\w+)"[^>]*name="contracts"', page)))
    assert {v for pair in again for v in pair if v} == {"tricks", "trix"}, again  # the kingdom's owner's left
    assert re.search(r'name="tricks_0"[^>]*value="4"|value="4"[^>]*name="tricks_0"', page)  # kept as typed
