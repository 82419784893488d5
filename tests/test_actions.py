"""What the app does, without a request: saving, changing, deleting and restoring a deal,
renaming players, importing a game file (scorekeeper/actions.py), against a real database.

The points asserted are SCORING.md's, worked by hand: the worked example of §1.2 gives
Anna 80, Ben 200, Carla 13; PLAIN_DEAL (plain bids) gives Anna 20 × 5 clean tricks = 100,
Ben ⌊40 / 2⌋ = 20, Carla ⌊40 / 4⌋ = 10; SLAM, every trick to Anna on a plain bid: 100.
"""

from __future__ import annotations

import json

from scorekeeper import actions, groups, records, store
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_web import _kingdom  # Trix: a whole kingdom of the first owner, the K♥ to seat 0

PLAIN_DEAL = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"},
                       {"kind": "plain", "suit": "C"}],
              "tricks": [5, 4, 4], "bugs": [0, 2, 4]}
SLAM = {"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [13, 0, 0], "bugs": [10, 0, 0]}
# Ben won no tricks yet has a bug: "no tricks → no bugs" (§1.3)
BUG_WITHOUT_TRICKS = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"},
                               {"kind": "plain", "suit": "C"}],
                      "tricks": [7, 0, 6], "bugs": [1, 1, 2]}


def _game(db, game_id: str) -> records.StoredGame:
    return store.get_game(db, game_id)


def _add(db, game_id: str, entry, nonce: str = "tap", seen: int | None = None, mine=()):
    game = _game(db, game_id)
    return actions.add_deal(db, game, entry, nonce=nonce, seen=game.version if seen is None else seen, mine=mine)


# ------------------------------------------------------------------------- adding a deal


def test_a_deal_is_saved_with_its_points_and_what_undo_needs(db, make_game):
    game_id = make_game()
    saved = _add(db, game_id, WORKED_TRIGAMI_DEAL)
    assert isinstance(saved, actions.Saved)
    assert saved.number == 1
    assert saved.score.deals[0].points == (80, 200, 13)
    stored = _game(db, game_id).deals
    assert [d.id for d in stored] == [saved.deal_id]
    assert saved.version == stored[0].version  # Undo deletes this deal as it reads


def test_the_same_tap_twice_saves_one_deal(db, make_game):
    game_id = make_game()
    first = _add(db, game_id, WORKED_TRIGAMI_DEAL, nonce="once")
    seen_before = _game(db, game_id).version - 1
    again = _add(db, game_id, WORKED_TRIGAMI_DEAL, nonce="once", seen=seen_before)
    assert isinstance(first, actions.Saved) and isinstance(again, actions.AlreadySaved)
    assert again.deal_id == first.deal_id and again.number == 1
    assert again.score is not None and again.score.deals[0].points == (80, 200, 13)
    assert again.version == first.version  # still the newest deal: Undo stays on offer
    assert len(_game(db, game_id).deals) == 1


def test_a_tap_saved_before_a_later_deal_no_longer_offers_undo(db, make_game):
    game_id = make_game()
    first = _add(db, game_id, WORKED_TRIGAMI_DEAL, nonce="one")
    _add(db, game_id, PLAIN_DEAL, nonce="two")
    again = _add(db, game_id, WORKED_TRIGAMI_DEAL, nonce="one")
    assert isinstance(again, actions.AlreadySaved) and again.deal_id == first.deal_id
    assert again.number == 1 and again.version is None
    assert len(_game(db, game_id).deals) == 2


def test_a_deal_another_phone_saved_first_makes_the_save_stale_with_what_arrived(db, make_game):
    game_id = make_game()
    seen = _game(db, game_id).version  # this phone opens the form
    _add(db, game_id, PLAIN_DEAL, nonce="other phone")
    stale = _add(db, game_id, WORKED_TRIGAMI_DEAL, nonce="this phone", seen=seen)
    assert isinstance(stale, actions.Stale)
    assert [(c.action, c.after) for c in stale.arrived] == [("deal_added", PLAIN_DEAL)]
    assert len(stale.game.deals) == 1 and stale.game.version == _game(db, game_id).version
    assert [d.entry for d in _game(db, game_id).deals] == [PLAIN_DEAL]  # nothing of this phone's written


def test_a_phones_own_earlier_deals_are_no_conflict(db, make_game):
    game_id = make_game()
    seen = _game(db, game_id).version
    _add(db, game_id, PLAIN_DEAL, nonce="outbox 1", seen=seen)  # sent from this phone's outbox
    saved = _add(db, game_id, WORKED_TRIGAMI_DEAL, nonce="outbox 2", seen=seen, mine=["outbox 1"])
    assert isinstance(saved, actions.Saved) and saved.number == 2
    assert [d.points for d in saved.score.deals] == [(100, 20, 10), (80, 200, 13)]


def test_an_earlier_deal_put_right_on_another_phone_is_no_conflict_for_the_next_deal(db, make_game):
    """Tester 6 (MEDIUM): a phone kept deal 3 offline while another phone put right a bug
    count in deal 1; back online, deal 3 was refused "Deal 1 was changed on another
    phone … discard it if it is the same deal", though a correction of deal 1 says
    nothing of deal 3. It is saved after the correction, each scored by SCORING.md:
    PLAIN_DEAL put right to Carla 4 tricks 2 bugs: ⌊40 / 2⌋ = 20 (was ⌊40 / 4⌋ = 10)."""
    game_id = make_game(deals=[PLAIN_DEAL, PLAIN_DEAL])
    seen = _game(db, game_id).version  # this phone opens the form for deal 3, then loses its connection
    first = _game(db, game_id).deals[0]
    put_right = {**PLAIN_DEAL, "bugs": [0, 2, 2]}
    changed = actions.change_deal(db, _game(db, game_id), first.id, put_right, expected=first.version)
    assert isinstance(changed, actions.Changed)
    saved = _add(db, game_id, WORKED_TRIGAMI_DEAL, nonce="kept offline", seen=seen)
    assert isinstance(saved, actions.Saved) and saved.number == 3
    assert [d.points for d in saved.score.deals] == [(100, 20, 20), (100, 20, 10), (80, 200, 13)]
    assert [d.entry for d in _game(db, game_id).deals] == [put_right, PLAIN_DEAL, WORKED_TRIGAMI_DEAL]


def test_a_deal_deleted_on_another_phone_still_stops_the_next_deal(db, make_game):
    """What a phone must see before its deal is added: a deal gone (the numbers moved)
    still makes the save stale, nothing written."""
    game_id = make_game(deals=[PLAIN_DEAL, PLAIN_DEAL])
    seen = _game(db, game_id).version
    first = _game(db, game_id).deals[0]
    assert isinstance(actions.delete_deal(db, game_id, first.id, expected=first.version), actions.Deleted)
    stale = _add(db, game_id, WORKED_TRIGAMI_DEAL, nonce="kept offline", seen=seen)
    assert isinstance(stale, actions.Stale)
    assert [c.action for c in stale.arrived] == ["deal_deleted"]
    assert len(_game(db, game_id).deals) == 1


def test_a_correction_that_ends_the_game_refuses_the_next_deal_as_over(db, make_game):
    """Put right on another phone, deal 2 takes Ben past the target: the deal kept
    offline is refused by the rules (SCORING.md §1.3: no deal after the game is over),
    not added after the end. Deal 2 put right: turnip ♦; Anna Turnip, 3 tricks 1 bug:
    30 ÷ 1 doubled = 60; Ben Doublets ♠, 8 tricks clean: 8 × 40 = 320; Carla ♥, 2 tricks
    3 bugs: ⌊20 / 3⌋ = 6. Ben 200 + 320 = 520 ≥ 500, alone at the top: he wins (§1.4)."""
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, WORKED_TRIGAMI_DEAL])  # Ben 200, 400
    seen = _game(db, game_id).version
    second = _game(db, game_id).deals[1]
    put_right = {**WORKED_TRIGAMI_DEAL, "tricks": [3, 8, 2], "bugs": [1, 0, 3]}
    changed = actions.change_deal(db, _game(db, game_id), second.id, put_right, expected=second.version)
    assert isinstance(changed, actions.Changed)
    assert changed.score.deals[1].points == (60, 320, 6)
    assert changed.score.totals == (140, 520, 19) and changed.score.finished
    refused = _add(db, game_id, PLAIN_DEAL, nonce="kept offline", seen=seen)
    assert isinstance(refused, actions.Refused) and refused.error.deal == 3
    assert len(_game(db, game_id).deals) == 2


def test_a_deal_that_breaks_a_rule_is_refused_naming_deal_seat_and_field(db, make_game):
    game_id = make_game(deals=[PLAIN_DEAL])
    refused = _add(db, game_id, BUG_WITHOUT_TRICKS)
    assert isinstance(refused, actions.Refused)
    assert (refused.error.deal, refused.error.seat, refused.error.field) == (2, 1, "bugs")
    assert len(_game(db, game_id).deals) == 1


def test_no_deal_is_added_once_the_game_is_over(db, make_game):
    game_id = make_game(options={"target": 200})
    assert isinstance(_add(db, game_id, SLAM, nonce="1"), actions.Saved)
    assert isinstance(_add(db, game_id, SLAM, nonce="2"), actions.Saved)  # Anna 200: she has won
    over = _add(db, game_id, PLAIN_DEAL, nonce="3")
    assert isinstance(over, actions.Refused) and over.error.deal == 3
    assert len(_game(db, game_id).deals) == 2


def test_an_entry_with_problems_of_its_own_writes_nothing(db, make_game):
    game_id = make_game()
    assert isinstance(_add(db, game_id, None), actions.Incomplete)
    assert _game(db, game_id).deals == ()


def test_a_full_disk_saves_nothing_and_says_so(db, make_game, monkeypatch):
    game_id = make_game()

    def full(*args, **kwargs):
        raise store.DiskFullError("full", "", "database or disk is full")

    monkeypatch.setattr(store, "add_deal_scored", full)
    refused = _add(db, game_id, WORKED_TRIGAMI_DEAL)
    assert isinstance(refused, actions.DiskFull) and refused.error.reason == "full"
    assert _game(db, game_id).deals == ()


def test_a_poll_learns_its_own_deals_stored_and_whether_another_phones_change_stops_its_save(db, make_game):
    game_id = make_game()
    seen = _game(db, game_id).version
    assert actions.arrived_since(db, game_id, seen, seen, ["mine-1"]) == actions.Arrived({}, [], False)
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL, nonce="mine-1")  # its answer lost
    now = _game(db, game_id)
    mine = actions.arrived_since(db, game_id, seen, now.version, ["mine-1", "still-waiting"])
    assert mine.stored == {"mine-1": now.deals[0].id} and not mine.stops
    assert [c.action for c in mine.changes] == ["deal_added"]
    store.update_deal(db, game_id, now.deals[0].id, PLAIN_DEAL)  # deal 1 put right elsewhere
    put_right = actions.arrived_since(db, game_id, seen, _game(db, game_id).version, ["mine-1"])
    assert not put_right.stops and [c.action for c in put_right.changes] == ["deal_added", "deal_changed"]
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL, nonce="theirs")  # another phone's deal 2
    assert actions.arrived_since(db, game_id, seen, _game(db, game_id).version, ["mine-1"]).stops


# ------------------------------------------------------------------------- changing a deal


def test_a_change_is_saved_with_the_new_points_and_answered_the_same_when_sent_again(db, make_game):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    game = _game(db, game_id)
    deal = game.deals[0]
    changed = actions.change_deal(db, game, deal.id, PLAIN_DEAL, expected=deal.version)
    assert isinstance(changed, actions.Changed) and changed.written
    assert changed.number == 1 and changed.score.deals[0].points == (100, 20, 10)
    again = actions.change_deal(db, game, deal.id, PLAIN_DEAL, expected=deal.version)
    assert isinstance(again, actions.Changed) and not again.written
    assert again.altered  # the phone's change, saved by its first send: not "unchanged"
    assert again.number == 1 and again.score.deals[0].points == (100, 20, 10)
    assert [d.entry for d in _game(db, game_id).deals] == [PLAIN_DEAL]
    assert [c.action for c in store.changes(db, game_id)].count("deal_changed") == 1
    # Save on the deal as the phone read it, nothing altered: nothing written, and said so
    now = _game(db, game_id).deals[0]
    kept = actions.change_deal(db, _game(db, game_id), deal.id, PLAIN_DEAL, expected=now.version)
    assert isinstance(kept, actions.Changed) and not kept.written and not kept.altered
    assert [c.action for c in store.changes(db, game_id)].count("deal_changed") == 1


def test_a_deal_changed_on_another_phone_is_not_overwritten_silently(db, make_game):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    game = _game(db, game_id)
    deal = game.deals[0]
    store.update_deal(db, game_id, deal.id, PLAIN_DEAL)  # the other phone
    mine = dict(WORKED_TRIGAMI_DEAL, tricks=[4, 4, 5])
    answer = actions.change_deal(db, game, deal.id, mine, expected=deal.version)
    assert isinstance(answer, actions.ChangedMeanwhile) and answer.deal.entry == PLAIN_DEAL
    assert [d.entry for d in _game(db, game_id).deals] == [PLAIN_DEAL]


def test_a_change_to_a_deal_deleted_meanwhile_names_its_number(db, make_game):
    game_id = make_game(deals=[PLAIN_DEAL, WORKED_TRIGAMI_DEAL])
    game = _game(db, game_id)
    second = game.deals[1]
    store.delete_deal(db, game_id, second.id)  # the other phone
    answer = actions.change_deal(db, game, second.id, PLAIN_DEAL, expected=second.version)
    assert answer == actions.Gone(2)
    assert [d.entry for d in _game(db, game_id).deals] == [PLAIN_DEAL]


def test_a_change_that_breaks_a_rule_is_refused(db, make_game):
    game_id = make_game(deals=[PLAIN_DEAL, WORKED_TRIGAMI_DEAL])
    game = _game(db, game_id)
    refused = actions.change_deal(db, game, game.deals[1].id, BUG_WITHOUT_TRICKS, expected=None)
    assert isinstance(refused, actions.Refused)
    assert (refused.error.deal, refused.error.seat, refused.error.field) == (2, 1, "bugs")
    assert [d.entry for d in _game(db, game_id).deals] == [PLAIN_DEAL, WORKED_TRIGAMI_DEAL]


# ------------------------------------------------------------------------- deleting and restoring


def test_a_delete_that_would_break_later_deals_is_refused(db, make_game):
    # without deal 2 (Queens), the King of Hearts of deal 6 would fall into kingdom 1, as
    # its 5th deal, when kingdom 1 had its King already (§2: each contract exactly once a kingdom)
    game_id = make_game(kind="trix", deals=[*_kingdom([0, 1, 2, 3]), {"contracts": ["king"], "king": {"taker": 2}}])
    game = _game(db, game_id)
    second = game.deals[1]
    assert actions.delete_problem(game, second.id) is not None  # the page warns beforehand
    refused = actions.delete_deal(db, game_id, second.id, expected=second.version)
    assert isinstance(refused, actions.Refused) and refused.error.deal == 5  # counted without deal 2
    assert len(_game(db, game_id).deals) == 6


def test_a_delete_sent_twice_deletes_once_with_the_same_number(db, make_game):
    game_id = make_game(deals=[PLAIN_DEAL, WORKED_TRIGAMI_DEAL])
    second = _game(db, game_id).deals[1]
    assert actions.delete_problem(_game(db, game_id), second.id) is None
    first = actions.delete_deal(db, game_id, second.id, expected=second.version)
    again = actions.delete_deal(db, game_id, second.id, expected=second.version)
    assert first == actions.Deleted(2) and again == actions.Deleted(2, again=True)
    assert [d.entry for d in _game(db, game_id).deals] == [PLAIN_DEAL]
    assert actions.delete_deal(db, game_id, 10**6, expected=None) == actions.NotFound()


def test_deleting_a_deal_changed_meanwhile_asks_again(db, make_game):
    game_id = make_game(deals=[PLAIN_DEAL])
    deal = _game(db, game_id).deals[0]
    store.update_deal(db, game_id, deal.id, WORKED_TRIGAMI_DEAL)  # the other phone
    answer = actions.delete_deal(db, game_id, deal.id, expected=deal.version)
    assert isinstance(answer, actions.ChangedMeanwhile) and answer.deal.entry == WORKED_TRIGAMI_DEAL
    assert len(_game(db, game_id).deals) == 1


def test_a_deleted_deal_goes_back_in_its_place(db, make_game):
    game_id = make_game(deals=[PLAIN_DEAL, WORKED_TRIGAMI_DEAL])
    first = _game(db, game_id).deals[0]
    store.delete_deal(db, game_id, first.id)
    restored = actions.restore_deal(db, _game(db, game_id), first.id)
    again = actions.restore_deal(db, _game(db, game_id), first.id)
    assert restored == actions.Restored(1) and again == actions.Restored(1, again=True)
    assert [d.entry for d in _game(db, game_id).deals] == [PLAIN_DEAL, WORKED_TRIGAMI_DEAL]


def test_a_deal_entered_again_is_not_restored_twice_unless_asked(db, make_game):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL])
    second = _game(db, game_id).deals[1]
    store.delete_deal(db, game_id, second.id)
    store.add_deal(db, game_id, PLAIN_DEAL)  # typed in again by hand
    assert actions.restore_deal(db, _game(db, game_id), second.id) == actions.Twin(2)
    assert len(_game(db, game_id).deals) == 2
    assert actions.restore_deal(db, _game(db, game_id), second.id, anyway=True) == actions.Restored(2)
    assert len(_game(db, game_id).deals) == 3


def test_a_restore_that_no_longer_fits_is_refused_with_its_place(db, make_game):
    game_id = make_game(options={"target": 200})
    first = store.add_deal(db, game_id, PLAIN_DEAL)
    store.delete_deal(db, game_id, first)
    store.add_deal(db, game_id, SLAM)
    store.add_deal(db, game_id, SLAM)  # Anna reaches 200: game over
    refused = actions.restore_deal(db, _game(db, game_id), first)
    assert isinstance(refused, actions.CannotGoBack)
    # back first, it gives Anna 100 + 100 = 200 after deal 2: deal 3 would come after the end
    assert refused.number == 1 and refused.error.deal == 3
    assert len(_game(db, game_id).deals) == 2
    assert actions.restore_deal(db, _game(db, game_id), 10**6) == actions.NotFound()


# ------------------------------------------------------------------------- players and settings


def test_renaming_players_says_what_changed_and_stale_forms_are_refused(db, make_game):
    game_id = make_game()
    seen = _game(db, game_id).version
    done = actions.change_game(db, game_id, players=["Anna", "Bea", "Carla"], options={"target": 500},
                               seen=seen, nonce="rename")
    assert isinstance(done, actions.GameChanged)
    assert [c.action for c in done.made] == ["players_renamed"]
    stale = actions.change_game(db, game_id, players=["Anna", "Ben", "Cleo"], options={"target": 500},
                                seen=seen, nonce="other")
    assert isinstance(stale, actions.Stale) and stale.game.players == ("Anna", "Bea", "Carla")
    assert _game(db, game_id).players == ("Anna", "Bea", "Carla")


def test_a_setting_that_no_longer_fits_a_deal_is_refused(db, make_game):
    game_id = make_game(deals=[SLAM, SLAM])  # Anna 200
    refused = actions.change_game(db, game_id, players=["Anna", "Ben", "Carla"], options={"target": 100},
                                  seen=None, nonce="target")
    assert isinstance(refused, actions.Refused) and refused.error.deal == 2  # over after deal 1 at 100
    assert _game(db, game_id).options.get("target", 500) == 500


# ------------------------------------------------------------------------- import


def _file(**kwargs) -> bytes:
    return json.dumps(game_file(**kwargs)).encode()


def test_a_game_file_is_imported_once_then_asked_about_then_copied(db):
    group = groups.only_group(db)
    assert group is not None
    raw = _file(deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL])
    imported = actions.import_game(db, raw, group_id=group.id, nonce="up", copy=False, max_deals=1000)
    assert isinstance(imported, actions.Imported) and len(imported.game.deals) == 2
    stored = _game(db, imported.game_id)
    assert [d.entry for d in stored.deals] == [WORKED_TRIGAMI_DEAL, PLAIN_DEAL]
    twin = actions.import_game(db, raw, group_id=group.id, nonce="up again", copy=False, max_deals=1000)
    assert isinstance(twin, actions.AlreadyStored) and twin.game.id == imported.game_id
    resent = actions.import_game(db, raw, group_id=group.id, nonce="up", copy=True, max_deals=1000)
    assert resent == imported  # the same upload sent twice stores one game
    copy = actions.import_game(db, raw, group_id=group.id, nonce="copy", copy=True, max_deals=1000)
    assert isinstance(copy, actions.Imported) and copy.game_id != imported.game_id
    assert len(store.list_games(db, group.id)) == 2


def test_a_game_file_with_problems_stores_nothing_and_names_each_deal(db):
    group = groups.only_group(db)
    assert group is not None
    raw = _file(deals=[PLAIN_DEAL, BUG_WITHOUT_TRICKS])
    answer = actions.import_game(db, raw, group_id=group.id, nonce=None, copy=False, max_deals=1000)
    assert isinstance(answer, actions.Problems)
    assert [(p.deal, p.seat, p.field) for p in answer.problems] == [(2, 1, "bugs")]
    too_many = actions.import_game(db, _file(deals=[PLAIN_DEAL] * 3), group_id=group.id, nonce=None,
                                   copy=False, max_deals=2)
    assert isinstance(too_many, actions.Problems)
    assert store.list_games(db, group.id) == []


# ------------------------------------------------------------------ a new game (issue 18)


def test_a_game_started_again_is_asked_about_and_started_only_when_chosen(db):
    group = groups.only_group(db)
    game = from_dict(game_file(players=["Anna", "Ben", "Carla"]))
    first = actions.start_game(db, game, group_id=group.id, nonce="first")
    assert isinstance(first, actions.Started)
    # the same form sent twice: the same game, no question
    assert actions.start_game(db, game, group_id=group.id, nonce="first") == first
    # Back, then Start again (a new token): asked about, nothing stored
    asked = actions.start_game(db, game, group_id=group.id, nonce="after-back")
    assert isinstance(asked, actions.StartedAlready) and asked.twin.id == first.game_id
    assert db["games"].count == 1
    # "Start another": a second game
    another = actions.start_game(db, game, group_id=group.id, nonce="after-back", again=True)
    assert isinstance(another, actions.Started) and another.game_id != first.game_id
    assert db["games"].count == 2
