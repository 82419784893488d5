"""Adding or changing a deal scores the game once for the form and once for the save
(issue 7, "Fast at any size": scoring is the cost that grows with the game).

"Scored" is one pass of the rules over a game's deals (``score`` of the Trigami or Trix
rules, whoever calls it: the sheet, the game file, the store). Each request is counted on
its own; the page a save redirects to is not part of it (it is not followed).

- the add-deal and edit-deal forms: once (the sheet, the dealer and, in Trix, the
  contracts still to choose all come from that one score);
- a save: once, inside the write transaction (store.py), where two phones' saves meet;
  that score also gives the points the sheet's "Deal N saved" message shows;
- a deal the form refuses (a count missing): once, for the form shown again;
- a deal the rules refuse: the refused check inside the write, then the form shown again
  from the game as stored: twice (the rules score a game all or nothing, so the check of
  the new deal cannot also yield the game before it).
"""

from __future__ import annotations

import pytest

from scorekeeper import store
from scorekeeper.rules.trigami import TrigamiRules
from scorekeeper.rules.trix import TrixRules
from tests.conftest import WORKED_TRIGAMI_DEAL
from tests.test_web import WORKED_FORM, deal_count, offered, text, trigami_form

PLAIN = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "D"}],
         "tricks": [5, 4, 4], "bugs": [0, 0, 0]}  # 100, 80, 80
KING = {"contracts": ["king"], "king": {"taker": 0}}  # Anna −75
DIAMONDS = {"contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}
# SCORING.md §2.2's queens example: Ben doubled the Q♠ and Dan took it
QUEENS_FORM = {"contracts": "queens", "queens_S_taker": "3", "queens_S_doubled_by": "1",
               "queens_H_taker": "0", "queens_D_taker": "2", "queens_C_taker": "3"}


@pytest.fixture
def scorings(monkeypatch):
    """The games scored since the list was last cleared: one item (the kind) per pass of
    the rules over a game."""
    passes: list[str] = []
    for rules in (TrigamiRules, TrixRules):
        def counted(self, *args, _score=rules.score, **kwargs):
            passes.append(self.kind)
            return _score(self, *args, **kwargs)

        monkeypatch.setattr(rules, "score", counted)
    return passes


def counted(scorings, request):
    """``request()``'s response and how many games it scored."""
    scorings.clear()
    response = request()
    return response, len(scorings)


@pytest.fixture
def trigami(make_game):
    return make_game(deals=[WORKED_TRIGAMI_DEAL, PLAIN])


@pytest.fixture
def trix(make_game):
    return make_game(kind="trix", deals=[KING, DIAMONDS])  # Anna's kingdom: three contracts left


# ----------------------------------------------------------------- adding a deal


@pytest.mark.parametrize("kind", ["trigami", "trix"])
def test_the_add_deal_form_scores_the_game_once(client, scorings, request, kind):
    game_id = request.getfixturevalue(kind)
    form, passes = counted(scorings, lambda: client.get(f"/games/{game_id}/deals/new"))
    assert form.status_code == 200 and "Deal 3" in text(form)
    assert passes == 1


def test_the_trix_form_still_offers_only_the_contracts_left(client, scorings, trix):
    page = client.get(f"/games/{trix}/deals/new").get_data(as_text=True)
    assert offered(page) == ["queens", "tricks", "trix"]


def test_saving_a_trigami_deal_scores_the_game_once(client, db, scorings, trigami):
    saved, passes = counted(scorings, lambda: client.post(f"/games/{trigami}/deals/new", data=WORKED_FORM))
    assert saved.status_code == 302
    assert passes == 1
    assert deal_count(db, trigami) == 3
    assert "Deal 3 saved: \u2068Anna\u2069 +80, \u2068Ben\u2069 +200, \u2068Carla\u2069 +13." in text(client.get(f"/games/{trigami}"))


def test_saving_a_trix_deal_scores_the_game_once(client, db, scorings, trix):
    saved, passes = counted(scorings, lambda: client.post(f"/games/{trix}/deals/new",
                                                          data={"nonce": "q", **QUEENS_FORM}))
    assert saved.status_code == 302
    assert passes == 1
    assert deal_count(db, trix) == 3
    assert "Deal 3 saved: \u2068Anna\u2069 −25, \u2068Ben\u2069 +25, \u2068Carla\u2069 −25, \u2068Dan\u2069 −75." in text(client.get(f"/games/{trix}"))


def test_a_deal_the_form_refuses_scores_the_game_once(client, db, scorings, trigami, trix):
    no_bid = {**WORKED_FORM}
    no_bid.pop("bids_2")
    refused, passes = counted(scorings, lambda: client.post(f"/games/{trigami}/deals/new", data=no_bid))
    assert refused.status_code == 400 and "Choose \u2068Carla\u2069's bid." in text(refused)
    assert passes == 1 and deal_count(db, trigami) == 2
    no_taker = {"nonce": "k", "contracts": "queens", "queens_S_taker": "3"}
    refused, passes = counted(scorings, lambda: client.post(f"/games/{trix}/deals/new", data=no_taker))
    assert refused.status_code == 400 and "Who took the Q♥?" in text(refused)
    assert 'value="king"' not in refused.get_data(as_text=True)  # still only the contracts left
    assert passes == 1 and deal_count(db, trix) == 2


def test_a_trigami_deal_the_rules_refuse_scores_the_game_twice(client, db, scorings, trigami):
    data = trigami_form(["S", "H", "D"], ["5", "5", "4"], ["0", "0", "0"])
    refused, passes = counted(scorings, lambda: client.post(f"/games/{trigami}/deals/new", data=data))
    assert refused.status_code == 400 and "Tricks add up to 14, expected 13" in text(refused)
    assert "Carla deals; Anna leads." in text(refused)  # deal 3 is Carla's, as before the refusal
    assert passes == 2 and deal_count(db, trigami) == 2


def test_a_trix_deal_the_rules_refuse_scores_the_game_twice(client, db, scorings, trix):
    data = {"nonce": "k", "contracts": "king", "king_taker": "1"}  # the K♥ is played in this kingdom
    refused, passes = counted(scorings, lambda: client.post(f"/games/{trix}/deals/new", data=data))
    assert refused.status_code == 400 and "King of Hearts has already been played" in text(refused)
    assert "Anna deals and chooses." in text(refused)
    assert passes == 2 and deal_count(db, trix) == 2


def test_the_trix_preview_scores_the_game_once(client, scorings, trix):
    preview, passes = counted(scorings, lambda: client.post(f"/games/{trix}/deals/preview", data=QUEENS_FORM))
    assert preview.json["ok"] and preview.json["points"] == ["−25", "+25", "−25", "−75"]
    assert passes == 1


# ----------------------------------------------------------------- changing a deal


@pytest.mark.parametrize("kind", ["trigami", "trix"])
def test_the_edit_form_scores_the_game_once(client, db, scorings, request, kind):
    game_id = request.getfixturevalue(kind)
    second = store.get_game(db, game_id).deals[1]
    form, passes = counted(scorings, lambda: client.get(f"/games/{game_id}/deals/{second.id}/edit"))
    assert form.status_code == 200 and "Change deal 2" in text(form)
    assert passes == 1


def test_the_trix_edit_form_offers_the_contracts_left_before_that_deal(client, db, trix):
    second = store.get_game(db, trix).deals[1]
    page = client.get(f"/games/{trix}/deals/{second.id}/edit").get_data(as_text=True)
    assert "Anna deals and chooses." in text(client.get(f"/games/{trix}/deals/{second.id}/edit"))
    # the K♥ was played before deal 2; diamonds is deal 2's own contract
    assert 'value="king"' not in page
    assert all(f'value="{c}"' in page for c in ("queens", "diamonds", "tricks", "trix"))


def test_saving_a_changed_trigami_deal_scores_the_game_once(client, db, scorings, trigami):
    first = store.get_game(db, trigami).deals[0]
    data = {**WORKED_FORM, "bids_0": "C"}  # Anna bid clubs, not Turnip: 40, not 80
    data.pop("turnip")
    saved, passes = counted(scorings, lambda: client.post(f"/games/{trigami}/deals/{first.id}/edit", data=data))
    assert saved.status_code == 302
    assert passes == 1
    assert "Deal 1 changed: \u2068Anna\u2069 +40, \u2068Ben\u2069 +200, \u2068Carla\u2069 +13." in text(client.get(f"/games/{trigami}"))


def test_saving_a_changed_trix_deal_scores_the_game_once(client, db, scorings, trix):
    first = store.get_game(db, trix).deals[0]
    data = {"contracts": "king", "king_taker": "3"}
    saved, passes = counted(scorings, lambda: client.post(f"/games/{trix}/deals/{first.id}/edit", data=data))
    assert saved.status_code == 302
    assert passes == 1
    assert "Deal 1 changed: \u2068Anna\u2069 0, \u2068Ben\u2069 0, \u2068Carla\u2069 0, \u2068Dan\u2069 −75." in text(client.get(f"/games/{trix}"))


def test_a_changed_deal_the_rules_refuse_scores_the_game_twice(client, db, scorings, trigami):
    first = store.get_game(db, trigami).deals[0]
    data = {**WORKED_FORM, "tricks_1": "9"}
    refused, passes = counted(scorings, lambda: client.post(f"/games/{trigami}/deals/{first.id}/edit", data=data))
    assert refused.status_code == 400 and "Tricks add up to 17, expected 13" in text(refused)
    assert passes == 2
    assert store.get_game(db, trigami).deals[0].entry == first.entry


def test_the_lists_summary_is_up_to_date_after_a_change(client, db, trigami):
    first = store.get_game(db, trigami).deals[0]
    data = {**WORKED_FORM, "bids_0": "C"}
    data.pop("turnip")
    client.post(f"/games/{trigami}/deals/{first.id}/edit", data=data)
    row = db["game_summaries"].get(trigami)
    assert row["totals"] == "[140, 280, 93]"  # 40 + 100, 200 + 80, 13 + 80


# ----------------------------------------------------------------- the state before a stored deal

KING_TO = {"contracts": ["king"], "king": {"taker": 1}}
QUEENS_TO = {"contracts": ["queens"], "queens": {s: {"taker": i} for i, s in enumerate("SHDC")}}
COUNTS = [4, 3, 3, 3]


def _trix_games():
    free = [KING_TO, QUEENS_TO, {"contracts": ["diamonds"], "diamonds": COUNTS},
            {"contracts": ["tricks"], "tricks": COUNTS}, {"contracts": ["trix"], "trix": [0, 1, 2, 3]}]
    order = ["trix", "queens", "king", "diamonds", "tricks"]
    fixed = sorted(free, key=lambda d: order.index(d["contracts"][0]))
    combined = [{"contracts": ["king", "queens"], "king": {"taker": 1}, "queens": QUEENS_TO["queens"]},
                {"contracts": ["diamonds", "tricks"], "diamonds": COUNTS, "tricks": COUNTS},
                {"contracts": ["trix"], "trix": [3, 2, 1, 0]}]
    return [({}, free * 3 + free[:2]), ({"order": order}, fixed * 2 + fixed[:4]),
            ({"complex": True}, combined * 3 + combined[:1])]


@pytest.mark.parametrize("options, deals", _trix_games())
def test_a_stored_deal_begins_as_the_deals_before_it_leave_the_game(app, make_game, db, options, deals):
    """The dealer, owner and contracts left that a deal's page reads from the sheet's one
    score are what scoring the deals before it says."""
    from scorekeeper.views import deals as view

    game = store.get_game(db, make_game(kind="trix", first_dealer=2, options=options, deals=deals))
    assert not game.game_file().score().finished  # every deal fits; a deal can still be added
    for index in range(len(deals) + 1):
        with app.test_request_context():
            before = view._before(game, index)
        earlier = game.game_file([d.entry for d in game.deals[:index]]).score()
        assert before == view.Before(earlier.next_dealer, earlier.owner, earlier.remaining), index


def test_a_trigami_deal_begins_with_its_dealer(app, make_game, db):
    from scorekeeper.views import deals as view

    game = store.get_game(db, make_game(first_dealer=1, deals=[WORKED_TRIGAMI_DEAL, PLAIN, PLAIN]))
    with app.test_request_context():
        assert [view._before(game, i).next_dealer for i in range(4)] == [1, 2, 0, 1]


def test_a_delete_and_a_restore_score_the_game_once_inside_their_write(scorings, db, trigami):
    """The check inside the write scores the game without the deal (or with it back), and
    the lists' summary reuses that score."""
    deal = store.get_game(db, trigami).deals[0]
    scorings.clear()
    store.delete_deal(db, trigami, deal.id)
    assert len(scorings) == 1
    scorings.clear()
    store.restore_deal(db, trigami, deal.id)
    assert len(scorings) == 1
