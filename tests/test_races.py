"""Several phones writing to one game at the same instant, against the real server.

Each race is fired from threads released together (tests/race_support.py) and repeated
for a few rounds on a fresh game, since a race need not show every time. The tests
assert what must hold however the requests interleave — no 5xx, every game scores,
nothing stored twice, nothing acknowledged lost, the loser told with a 409 — never
timings. Deals are worked from SCORING.md by hand (points in the comments).
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from scorekeeper import store
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.race_support import (
    Phone,
    RaceServer,
    Reply,
    assert_acknowledged_present,
    assert_no_server_error,
    assert_race_invariants,
    at_once,
    canonical,
    changes,
    deal_fields,
    form_fields,
    in_play,
    statuses,
    with_deal,
)

ROUNDS = 5


def plain(*suits: str) -> list[dict[str, str]]:
    return [{"kind": "plain", "suit": s} for s in suits]


# Trigami (SCORING.md §1.2). Anna takes every trick on a plain bid: 100, 0, 0.
SWEEP = {"bids": plain("S", "H", "D"), "tricks": [13, 0, 0], "bugs": [10, 0, 0]}
# Clean tricks, 20 each: 100, 80, 80.
CLEAN = {"bids": plain("S", "H", "D"), "tricks": [5, 4, 4], "bugs": [0, 0, 0]}
# No tricks 50; 6 tricks 2 bugs floor(60/2) = 30; 7 tricks 1 bug 70.
THIRD = {"bids": plain("S", "H", "D"), "tricks": [0, 6, 7], "bugs": [0, 2, 1]}
THREE_DEALS = [WORKED_TRIGAMI_DEAL, CLEAN, THIRD]  # 80, 200, 13 first

# Deal 1 (the worked example) corrected two ways: Anna bid clubs (4 tricks, 1 bug: 40 —
# no Turnip, so no doubling), or Ben took 6 tricks (Doublets, no bug: 240) and Carla 3.
ANNA_BID_CLUBS = {**WORKED_TRIGAMI_DEAL, "bids": plain("C") + WORKED_TRIGAMI_DEAL["bids"][1:]}
BEN_TOOK_SIX = {**WORKED_TRIGAMI_DEAL, "tricks": [4, 6, 3]}
# Deal 2 corrected: 4, 5, 4 clean tricks: 80, 100, 80.
EDITED_CLEAN = {**CLEAN, "tricks": [4, 5, 4]}

# Trix (SCORING.md §2.1): one queen each, nothing doubled: −25 each.
QUEENS = {"contracts": ["queens"], "queens": {s: {"taker": seat} for seat, s in enumerate("SHDC")}}


def king(taker: int) -> dict[str, Any]:
    """King of Hearts, not doubled: the taker −75."""
    return {"contracts": ["king"], "king": {"taker": taker}}


def sheet(game_id: str) -> str:
    return f"/games/{game_id}"


def one_saved_one_refused(replies: list[Reply], game_id: str, what: str) -> int:
    """Exactly one reply acknowledges the save (302 to the sheet) and the other is a 409;
    returns the index of the saved one."""
    saved = [i for i, r in enumerate(replies) if r.redirects_to(sheet(game_id))]
    refused = [i for i, r in enumerate(replies) if r.status == 409]
    assert len(saved) == 1 and len(refused) == 1, (
        f"{what}expected one save (302 → {sheet(game_id)}) and one 409 (the game changed), "
        f"got {statuses(replies)}")
    return saved[0]


def add_at_once(server: RaceServer, game_id: str, kind: str,
                entries: list[dict[str, Any]]) -> list[Reply]:
    """Each entry tapped in on its own phone, each phone having opened the new-deal form
    before any is sent; all sent at the same instant."""
    path = f"/games/{game_id}/deals/new"
    phones = [server.phone() for _ in entries]
    forms = [p.form(path) for p in phones]
    return at_once(*[
        (lambda p=p, f=f, e=e: p.post(path, with_deal(f, kind, e)))
        for p, f, e in zip(phones, forms, entries, strict=True)])


# --------------------------------------------------------------------------- adding


def test_two_phones_choosing_king_of_hearts_in_one_kingdom_store_one(race_server):
    """SCORING.md §2.3: a contract may not be chosen twice in one kingdom. Two phones tap
    in the kingdom's King of Hearts at the same instant (different takers): one is stored,
    the other is told the game changed (409) and nothing of it is saved."""
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game(kind="trix", deals=[QUEENS])
        sent = [king(1), king(2)]
        replies = add_at_once(race_server, game_id, "trix", sent)
        assert_no_server_error(replies, what)
        with race_server.db() as db:
            kings = [e for e in in_play(db, game_id) if "king" in e["contracts"]]
            assert len(kings) == 1, (f"{what}{len(kings)} King of Hearts deals stored in one kingdom, "
                                     f"expected 1; replies {statuses(replies)}")
            winner = one_saved_one_refused(replies, game_id, what)
            assert canonical("trix", kings[0]) == canonical("trix", sent[winner])
            assert_acknowledged_present(db, game_id, "trix", list(zip(replies, sent, strict=True)))
        assert_race_invariants(race_server, replies, what)


def test_two_phones_adding_the_deal_that_ends_the_game_store_one(race_server):
    """SCORING.md §1.4, 1.3: the first to reach 500 wins, and no deal comes after the game
    is over. Anna has 400 after four sweeps; two phones each add a deal that gives her 100
    more, at the same instant: one ends the game, the other gets a 409."""
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game(deals=[SWEEP] * 4)
        sent = [SWEEP, CLEAN]  # Anna 500 either way, alone at the top
        replies = add_at_once(race_server, game_id, "trigami", sent)
        assert_no_server_error(replies, what)
        with race_server.db() as db:
            deals = in_play(db, game_id)
            assert len(deals) == 5, (f"{what}{len(deals) - 4} game-ending deals stored from two phones "
                                     f"at once, expected 1; replies {statuses(replies)}")
            winner = one_saved_one_refused(replies, game_id, what)
            assert canonical("trigami", deals[4]) == canonical("trigami", sent[winner])
            assert_acknowledged_present(db, game_id, "trigami", list(zip(replies, sent, strict=True)))
            result = store.get_game(db, game_id).game_file().score()
            assert result.finished and result.winners == (0,), f"{what}the game should be over, won by Anna"
        assert_race_invariants(race_server, replies, what)


def test_the_same_new_deal_sent_twice_at_once_is_stored_once(race_server):
    """A double tap on Save (the same form, the same one-time token, twice at the same
    instant) stores one deal and answers both with the sheet."""
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game()
        path = f"/games/{game_id}/deals/new"
        phone = race_server.phone()
        data = with_deal(phone.form(path), "trigami", WORKED_TRIGAMI_DEAL)
        replies = at_once(partial(phone.post, path, data), partial(phone.post, path, data))
        assert_no_server_error(replies, what)
        with race_server.db() as db:
            deals = in_play(db, game_id)
            assert len(deals) == 1, f"{what}{len(deals)} deals stored from one form sent twice; {statuses(replies)}"
            assert len(changes(db, game_id, "deal_added")) == 1
        assert all(r.redirects_to(sheet(game_id)) for r in replies), f"{what}{statuses(replies)}"
        assert_race_invariants(race_server, replies, what)


# --------------------------------------------------------------------------- editing


def open_edit(phone: Phone, game_id: str, deal_id: int) -> dict[str, Any]:
    return phone.form(f"/games/{game_id}/deals/{deal_id}/edit")


def test_two_different_edits_of_one_deal_at_once_store_one(race_server):
    """Two phones change deal 1 differently at the same instant: exactly one change is
    stored; the other phone gets a 409 with its own change still in the form and the one
    stored put in beside it (a field it left as it read it takes the stored change),
    nothing of it saved."""
    mine, theirs = ANNA_BID_CLUBS, BEN_TOOK_SIX
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game(deals=THREE_DEALS)
        deal_id = race_server.game(game_id).deals[0].id
        path = f"/games/{game_id}/deals/{deal_id}/edit"
        a, b = race_server.phone(), race_server.phone()
        sent = [mine, theirs]
        data = [with_deal(open_edit(a, game_id, deal_id), "trigami", mine),
                with_deal(open_edit(b, game_id, deal_id), "trigami", theirs)]
        replies = at_once(partial(a.post, path, data[0]), partial(b.post, path, data[1]))
        assert_no_server_error(replies, what)
        with race_server.db() as db:
            stored = canonical("trigami", in_play(db, game_id)[0])
            recorded = len(changes(db, game_id, "deal_changed", deal_id))
            assert recorded == 1, (f"{what}{recorded} changes recorded for two different edits at once, "
                                   f"expected 1; replies {statuses(replies)}")
            assert stored in (canonical("trigami", mine), canonical("trigami", theirs))
            assert len(in_play(db, game_id)) == 3
        winner = one_saved_one_refused(replies, game_id, what)
        assert stored == canonical("trigami", sent[winner]), f"{what}the 302 was not the edit stored"
        kept = form_fields(replies[1 - winner].body)
        read, stored_fields = deal_fields("trigami", THREE_DEALS[0]), deal_fields("trigami", sent[winner])
        own = deal_fields("trigami", sent[1 - winner])
        both = {k: str(own[k] if own.get(k) != read.get(k) else stored_fields[k]) for k in own}
        assert {k: kept.get(k) for k in both} == both, \
            f"{what}the refused phone's form does not hold its own change and the one stored"
        assert_race_invariants(race_server, replies, what)


def test_an_earlier_deal_put_right_as_another_phone_adds_the_next_deal_stores_both(race_server):
    """One phone puts deal 1 right (Anna bid clubs: 40) at the instant another adds deal 4,
    its form opened before the correction: a correction of an earlier deal is no conflict
    for the next one (store.own_changes, checked inside the add's write), so both are
    saved, in whichever order they land: deal 1 as corrected, deal 4 after it."""
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game(deals=THREE_DEALS)
        deal_id = race_server.game(game_id).deals[0].id
        a, b = race_server.phone(), race_server.phone()
        edit, new = f"/games/{game_id}/deals/{deal_id}/edit", f"/games/{game_id}/deals/new"
        correction = with_deal(open_edit(a, game_id, deal_id), "trigami", ANNA_BID_CLUBS)
        next_deal = with_deal(b.form(new), "trigami", CLEAN)
        replies = at_once(partial(a.post, edit, correction), partial(b.post, new, next_deal))
        assert all(r.redirects_to(sheet(game_id)) for r in replies), f"{what}{statuses(replies)}"
        with race_server.db() as db:
            deals = in_play(db, game_id)
            assert [canonical("trigami", d) for d in deals] == [
                canonical("trigami", e) for e in (ANNA_BID_CLUBS, CLEAN, THIRD, CLEAN)], what
        assert_race_invariants(race_server, replies, what)


def test_the_same_edit_sent_twice_is_stored_once_and_never_refused(race_server):
    """The same edit sent twice (a double tap, then the form sent once more): every send
    is answered with the sheet — the change it asks for is there — and recorded once."""
    edit = ANNA_BID_CLUBS
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game(deals=THREE_DEALS)
        deal_id = race_server.game(game_id).deals[0].id
        path = f"/games/{game_id}/deals/{deal_id}/edit"
        phone = race_server.phone()
        data = with_deal(open_edit(phone, game_id, deal_id), "trigami", edit)
        replies = at_once(partial(phone.post, path, data), partial(phone.post, path, data))
        assert_no_server_error(replies, what)
        assert all(r.redirects_to(sheet(game_id)) for r in replies), f"{what}double tap: {statuses(replies)}"
        again = phone.post(path, data)
        assert again.redirects_to(sheet(game_id)), f"{what}the same edit sent once more: {again!r}"
        with race_server.db() as db:
            assert canonical("trigami", in_play(db, game_id)[0]) == canonical("trigami", edit)
            assert len(changes(db, game_id, "deal_changed", deal_id)) == 1
        assert_race_invariants(race_server, [*replies, again], what)


def edit_and_delete(server: RaceServer, order: str, what: str) -> None:
    """One phone saves a change to deal 2 while another deletes it (both pages opened
    first), sent ``order``: "at once", "edit first" or "delete first". Exactly one wins:
    the edit stored and the delete of the deal as it was asked again (409, nothing
    deleted), or the deal deleted and the edit refused — and a phone sent to the sheet
    without its change is told the deal went."""
    game_id = server.store_game(deals=THREE_DEALS)
    deal_id = server.game(game_id).deals[1].id
    editor, deleter = server.phone(), server.phone()
    edit_path = f"/games/{game_id}/deals/{deal_id}/edit"
    delete_path = f"/games/{game_id}/deals/{deal_id}/delete"
    edit_data = with_deal(open_edit(editor, game_id, deal_id), "trigami", EDITED_CLEAN)
    delete_data = deleter.form(delete_path)

    def send_edit() -> Reply:
        return editor.post(edit_path, edit_data)

    def send_delete() -> Reply:
        return deleter.post(delete_path, delete_data)

    if order == "at once":
        edited, deleted = at_once(send_edit, send_delete)
    elif order == "edit first":
        edited = send_edit()
        deleted = send_delete()
    else:
        deleted = send_delete()
        edited = send_edit()
    replies = [edited, deleted]
    assert_no_server_error(replies, what)
    with server.db() as db:
        removed = changes(db, game_id, "deal_deleted", deal_id)
        changed = changes(db, game_id, "deal_changed", deal_id)
        entries = [canonical("trigami", e) for e in in_play(db, game_id)]
    assert len(removed) <= 1, f"{what}{len(removed)} deletes recorded"
    assert len(changed) <= 1, f"{what}{len(changed)} edits recorded"
    if not removed:
        # the edit came first: the phone that asked to delete the deal as it was is
        # asked again (409), and the edited deal stays in play
        assert changed and deleted.status == 409, (
            f"{what}the delete was answered {deleted!r} (the edit {edited!r}) and nothing was deleted")
        assert "changed on another phone" in deleted.text, f"{what}the delete refusal does not say why"
        assert edited.redirects_to(sheet(game_id)), f"{what}the edit was stored but answered {edited!r}"
        assert entries == [canonical("trigami", WORKED_TRIGAMI_DEAL), canonical("trigami", EDITED_CLEAN),
                           canonical("trigami", THIRD)]
    else:
        assert order != "edit first", f"{what}the delete of a deal changed meanwhile was not asked again"
        assert deleted.redirects_to(sheet(game_id)), f"{what}the delete was stored but answered {deleted!r}"
        assert entries == [canonical("trigami", WORKED_TRIGAMI_DEAL), canonical("trigami", THIRD)]
        assert not changed, f"{what}an edit was stored on a deleted deal"
        assert canonical("trigami", removed[0].before) == canonical("trigami", CLEAN)
        assert edited.status in (302, 303, 409), f"{what}edit: {edited!r}"
        if edited.status != 409:  # sent to the sheet: it must say the change was not saved
            page = editor.get(sheet(game_id))
            assert "deleted" in page.text, f"{what}the editing phone is not told its change was lost"
    assert_race_invariants(server, replies, what)


def test_an_edit_racing_a_delete_of_the_same_deal_stays_consistent(race_server):
    """Edit against delete of one deal: at the same instant, then each way round (so both
    outcomes are checked every run, whichever the race happens to give)."""
    edit_and_delete(race_server, "edit first", "edit first: ")
    edit_and_delete(race_server, "delete first", "delete first: ")
    for round_ in range(1, ROUNDS + 1):
        edit_and_delete(race_server, "at once", f"round {round_}: ")


# --------------------------------------------------------------------------- deleting


def test_a_double_delete_and_a_double_undo_delete_once(race_server):
    """Two phones delete deal 2 at the same instant; later, a double tap on Undo after a
    new deal: each deal is deleted once (one "deal_deleted"), every tap answered 302."""
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game(deals=THREE_DEALS)
        deal_id = race_server.game(game_id).deals[1].id
        path = f"/games/{game_id}/deals/{deal_id}/delete"
        a, b = race_server.phone(), race_server.phone()
        forms = [a.form(path), b.form(path)]
        replies = at_once(partial(a.post, path, forms[0]), partial(b.post, path, forms[1]))
        assert_no_server_error(replies, what)
        with race_server.db() as db:
            assert len(in_play(db, game_id)) == 2, f"{what}{statuses(replies)}"
            assert len(changes(db, game_id, "deal_deleted", deal_id)) == 1, f"{what}{statuses(replies)}"
        assert all(r.redirects_to(sheet(game_id)) for r in replies), f"{what}double delete: {statuses(replies)}"
        assert_race_invariants(race_server, replies, what)

        # Undo: the phone that just added deal 3 taps Undo twice
        new_path = f"/games/{game_id}/deals/new"
        added = a.post(new_path, with_deal(a.form(new_path), "trigami", CLEAN))
        assert added.redirects_to(sheet(game_id)), f"{what}adding: {added!r}\n{added.text[:1500]}"
        new_id = race_server.game(game_id).deals[-1].id
        undo_path = f"/games/{game_id}/deals/{new_id}/delete"
        undo = {**a.form(undo_path), "undo": "1"}
        undone = at_once(partial(a.post, undo_path, undo), partial(a.post, undo_path, undo))
        assert_no_server_error(undone, what)
        with race_server.db() as db:
            assert len(in_play(db, game_id)) == 2, f"{what}undo: {statuses(undone)}"
            assert len(changes(db, game_id, "deal_deleted", new_id)) == 1, f"{what}undo: {statuses(undone)}"
        assert all(r.redirects_to(sheet(game_id)) for r in undone), f"{what}double undo: {statuses(undone)}"
        assert_race_invariants(race_server, undone, what)


def test_an_undo_as_another_phone_adds_the_next_deal_never_takes_back_a_deal_no_longer_last(race_server):
    """Phone one taps "Undo deal 1" at the instant phone two saves deal 2: deal 1 is taken
    back only while it is still the last deal (phone two's, then answered 409, was never
    stored), or phone two's deal is stored and the Undo takes nothing back (409). Never
    deal 1 taken back from under a later deal, which would move that deal up to deal 1
    with another dealer."""
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game(deals=[WORKED_TRIGAMI_DEAL])
        first = race_server.game(game_id).deals[0].id
        a, b = race_server.phone(), race_server.phone()
        undo_path = f"/games/{game_id}/deals/{first}/delete"
        undo = {**a.form(undo_path), "undo": "1"}
        new_path = f"/games/{game_id}/deals/new"
        deal_2 = with_deal(b.form(new_path), "trigami", CLEAN)
        replies = at_once(partial(a.post, undo_path, undo), partial(b.post, new_path, deal_2))
        assert_no_server_error(replies, what)
        undone, saved = replies
        with race_server.db() as db:
            order = [(c.action, c.deal_id) for c in reversed(store.changes(db, game_id))
                     if c.action in ("deal_added", "deal_deleted")]
            kept = in_play(db, game_id)
        taken_back = ("deal_deleted", first) in order
        if taken_back:
            assert undone.redirects_to(sheet(game_id)) and saved.status == 409, f"{what}{statuses(replies)}"
            assert kept == [], f"{what}{order}"
        else:
            assert undone.status == 409 and saved.redirects_to(sheet(game_id)), f"{what}{statuses(replies)}"
            assert kept == [WORKED_TRIGAMI_DEAL, CLEAN], f"{what}{order}"
        later = [n for n, (action, deal_id) in enumerate(order) if action == "deal_added" and deal_id != first]
        assert not (taken_back and later and order.index(("deal_deleted", first)) > later[0]), f"{what}{order}"
        assert_race_invariants(race_server, replies, what)


def test_a_double_restore_restores_once(race_server):
    """Two phones tap Restore on deleted deal 2 at the same instant: it is back once (one
    "deal_restored"), in its place, and both are told "Deal 2 restored."."""
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game(deals=THREE_DEALS)
        deal_id = race_server.game(game_id).deals[1].id
        with race_server.db() as db:
            store.delete_deal(db, game_id, deal_id)
        a, b = race_server.phone(), race_server.phone()
        history = f"/games/{game_id}/history"
        path = f"/games/{game_id}/deals/{deal_id}/restore"
        forms = [{"csrf_token": p.form(history)["csrf_token"], "back": "sheet"} for p in (a, b)]
        replies = at_once(partial(a.post, path, forms[0]), partial(b.post, path, forms[1]))
        assert_no_server_error(replies, what)
        with race_server.db() as db:
            assert [canonical("trigami", e) for e in in_play(db, game_id)] == [
                canonical("trigami", e) for e in THREE_DEALS], f"{what}{statuses(replies)}"
            assert len(changes(db, game_id, "deal_restored", deal_id)) == 1, f"{what}{statuses(replies)}"
        assert all(r.redirects_to(sheet(game_id)) for r in replies), f"{what}double restore: {statuses(replies)}"
        for phone in (a, b):
            assert "Deal 2 restored." in phone.get(sheet(game_id)).text, f"{what}a phone was told otherwise"
        assert_race_invariants(race_server, replies, what)


# --------------------------------------------------------------------------- importing


def _game_count(server: RaceServer) -> int:
    with server.db() as db:
        return len(store.list_games(db))


def _upload(phone: Phone, raw: bytes, fields: dict[str, Any]) -> Reply:
    """The import form ``fields`` sent from ``phone`` with ``raw`` as its game file."""
    return phone.post_file("/games/import", fields, "file", "game.json", raw)


def test_an_import_sent_twice_stores_one_game_and_an_identical_file_is_refused(race_server):
    """The same upload twice at the same instant (one form token): one game, both phones
    sent to it. The same file uploaded again from a new form: 409 "already stored",
    nothing stored — unless a copy is asked for (``copy=1``)."""
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        content = game_file(players=["Anna", "Ben", f"Carla {round_}"], deals=[WORKED_TRIGAMI_DEAL, CLEAN])
        raw = json.dumps(content).encode()
        before = _game_count(race_server)
        phone = race_server.phone()
        form = phone.form("/games/import")
        upload = partial(_upload, phone, raw)
        replies = at_once(partial(upload, form), partial(upload, form))
        assert_no_server_error(replies, what)
        assert _game_count(race_server) == before + 1, (
            f"{what}{_game_count(race_server) - before} games stored from one upload sent twice; "
            f"{statuses(replies)}")
        places = {r.location for r in replies}
        assert all(r.status in (302, 303) for r in replies) and len(places) == 1, f"{what}{statuses(replies)}"
        (place,) = places
        with race_server.db() as db:
            assert any(sheet(g.id) == place for g in store.list_games(db)), f"{what}sent to {place}, no such game"
        assert_race_invariants(race_server, replies, what)

        again = upload(phone.form("/games/import"))
        assert again.status == 409 and "already stored" in again.text.lower(), f"{what}the same file again: {again!r}"
        assert _game_count(race_server) == before + 1

        copied = upload({**phone.form("/games/import"), "copy": "1"})
        assert copied.status in (302, 303) and copied.location not in (None, place), f"{what}copy=1: {copied!r}"
        assert _game_count(race_server) == before + 2
        assert_race_invariants(race_server, [again, copied], what)


def test_a_newer_file_sent_from_two_phones_at_once_adds_its_later_deal_once(race_server):
    """A game stored with one deal; its newer file (two deals) imported on two phones at
    the same instant, each its own form: the later deal is added once, to that game, and
    no second game is stored, whichever import's check comes first."""
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        older = game_file(players=["Anna", "Ben", f"Dora {round_}"], deals=[WORKED_TRIGAMI_DEAL])
        newer = {**older, "deals": [WORKED_TRIGAMI_DEAL, CLEAN]}
        stored = race_server.phone()
        first = _upload(stored, json.dumps(older).encode(), stored.form("/games/import"))
        assert first.status in (302, 303), f"{what}{first!r}"
        before = _game_count(race_server)
        one, two = race_server.phone(), race_server.phone()
        raw = json.dumps(newer).encode()
        replies = at_once(partial(_upload, one, raw, one.form("/games/import")),
                          partial(_upload, two, raw, two.form("/games/import")))
        assert_no_server_error(replies, what)
        assert _game_count(race_server) == before, f"{what}a game stored beside its older copy; {statuses(replies)}"
        with race_server.db() as db:
            game = store.get_game(db, first.location.rsplit("/", 1)[-1])
        assert [d.entry for d in game.deals] == [WORKED_TRIGAMI_DEAL, CLEAN], f"{what}{statuses(replies)}"
        # one phone was told the deal was added, the other that the game is stored already
        assert sorted(r.status for r in replies) == [302, 409], f"{what}{statuses(replies)}"
        assert_race_invariants(race_server, replies, what)
