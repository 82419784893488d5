"""Offline, the form tells the truth (issue 18, part 7): what a page tells a phone of the
game it was drawn for (data-next-deal, next_deal.py), so that the phone can count its own
deals on top without connection; and a refusal that never calls this phone's own deal one
"added on another phone". The browser side: test_offline_truth_browser.py.

Dealers are worked from SCORING.md: Trigami's deal passes to the next seat (§1); in Trix
the kingdom's owner deals every deal of it and the next kingdom is the right-hand
neighbour's, seat + 1 (§2).
"""

from __future__ import annotations

import html
import json
import re

from scorekeeper import next_deal, sheet, store
from tests.test_conflicts import CLEAN_FORM, hidden, open_form
from tests.test_web import WORKED_FORM, _kingdom, text

CLEAN = {"turnip": "D", "bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"},
                                 {"kind": "plain", "suit": "D"}], "tricks": [5, 4, 4], "bugs": [0, 0, 0]}


def state_on(page: str, where: str) -> dict:
    """The data-next-deal of the page's element whose tag starts with ``where``."""
    tag = next(t for t in re.findall(r"<[^>]*data-next-deal=[^>]*>", page) if t.startswith(where))
    return json.loads(html.unescape(re.search(r"data-next-deal='([^']*)'", tag).group(1)))


def test_a_trigami_page_tells_the_next_deal_and_its_dealer(client, make_game, db):
    # first dealer Ben (seat 1); two deals: Ben dealt 1, Carla 2, so Anna deals deal 3
    game_id = make_game(first_dealer=1, deals=[CLEAN, CLEAN])
    version = store.get_game(db, game_id).version
    told = {"version": version, "deals": 2, "seats": 3, "kind": "trigami", "dealer": 0, "tokens": []}
    assert state_on(client.get(f"/games/{game_id}").get_data(as_text=True), "<div") == told
    form = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert state_on(form, "<form") == told
    # every seat's line is on the form, only the dealer's shown: Anna deals, Ben leads
    lines = re.findall(r'<span data-dealer-line="(\d)"( hidden)?>', form)
    assert lines == [("0", ""), ("1", " hidden"), ("2", " hidden")]
    assert "Anna deals; Ben leads." in text(client.get(f"/games/{game_id}/deals/new"))


def test_a_page_tells_the_form_tokens_of_the_deals_it_was_drawn_with(client, make_game, db):
    """A deal of this phone's whose Save answer never came waits in its outbox although
    the server stored it: the page's state names the deals' form tokens, so the phone
    does not count that deal twice (tester 61: "Deal 3" for deal 2, the wrong dealer).
    Deals deleted are not among them; the latest comes first."""
    game_id = make_game()
    for nonce in ("first-save", "second-save", "third-save"):
        seen = open_form(client, game_id)
        assert client.post(f"/games/{game_id}/deals/new",
                           data={**CLEAN_FORM, "nonce": nonce, "seen": seen}).status_code == 302
    store.delete_deal(db, game_id, store.get_game(db, game_id).deals[1].id)
    for page, where in ((f"/games/{game_id}", "<div"), (f"/games/{game_id}/deals/new", "<form")):
        told = state_on(client.get(page).get_data(as_text=True), where)
        assert told["deals"] == 2
        assert told["tokens"] == ["third-save", "first-save"]


def test_a_trix_page_tells_the_owner_and_the_contracts_played_in_the_kingdom(make_game, db):
    # Anna's kingdom complete, then Ben's King: Ben (seat 1) owns kingdom 2, four contracts left
    game_id = make_game(kind="trix", deals=[*_kingdom([0, 1, 2, 3]), {"contracts": ["king"], "king": {"taker": 2}}])
    told = next_deal.state(sheet.build(store.get_game(db, game_id)))
    assert told is not None
    assert {k: told[k] for k in ("deals", "seats", "owner", "done", "kingdoms", "played", "order", "fixed")} == {
        "deals": 6, "seats": 4, "owner": 1, "done": 1, "kingdoms": 4, "played": ["king"],
        "order": ["king", "queens", "diamonds", "tricks", "trix"], "fixed": False}


def test_a_fixed_order_without_complex_offers_only_the_next_contract(make_game, db):
    order = ["trix", "queens", "king", "diamonds", "tricks"]
    game_id = make_game(kind="trix", options={"order": order})
    told = next_deal.state(sheet.build(store.get_game(db, game_id)))
    assert told is not None and told["order"] == order and told["fixed"] is True and told["played"] == []


def test_a_finished_game_tells_nothing_to_count_on(make_game, db):
    game_id = make_game(kind="trix", deals=[*_kingdom([0, 1, 2, 3]), *_kingdom([1, 2, 3, 0]),
                                            *_kingdom([2, 3, 0, 1]), *_kingdom([3, 0, 1, 2])])
    assert next_deal.state(sheet.build(store.get_game(db, game_id))) is None


def test_a_refusal_leaves_out_this_phones_own_deal(client, make_game, db):
    """The phone's deal 1 went from its outbox; its deal 2, entered on the form it had
    before (version "seen" from before deal 1), arrives after another phone's deal 2:
    only that one is news, never the phone's own deal 1."""
    game_id = make_game()
    seen = open_form(client, game_id)
    own = client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "nonce": "own-1", "seen": seen})
    assert own.status_code == 302
    store.add_deal(db, game_id, CLEAN)  # another phone's deal 2
    refused = client.post(f"/games/{game_id}/deals/new",
                          data={**CLEAN_FORM, "nonce": "own-2", "seen": seen, "mine": "own-1"})
    assert refused.status_code == 409
    said = text(refused)
    assert "Deal 2 was added on another phone" in said
    assert "Deal 1 was added on another phone" not in said
    assert len(store.get_game(db, game_id).deals) == 2


def test_own_deals_only_are_no_conflict(client, make_game, db):
    game_id = make_game()
    seen = open_form(client, game_id)
    client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "nonce": "own-1", "seen": seen})
    added = client.post(f"/games/{game_id}/deals/new",
                        data={**CLEAN_FORM, "nonce": "own-2", "seen": seen, "mine": "own-1"})
    assert added.status_code == 302
    assert len(store.get_game(db, game_id).deals) == 2
    assert hidden(client.get(f"/games/{game_id}/deals/new").get_data(as_text=True), "seen") != seen
