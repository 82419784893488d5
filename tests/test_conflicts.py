"""Two phones, one game, one after the other: what a phone whose form is out of date is
told, and that nothing of its is saved until the player chooses (issue: several phones).

The races themselves (requests at the same instant) are in test_races.py; here the order
is fixed, so each page can be read word for word. Points are worked from SCORING.md.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper import conflicts, store
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.race_support import form_fields
from tests.test_web import WORKED_FORM, text, trigami_form

# Plain bids, clean tricks (SCORING.md §1.2, 3.: 20 a trick): Anna 5 → 100, Ben 4 → 80, Carla 4 → 80
CLEAN_FORM = trigami_form(["S", "H", "D"], ["5", "4", "4"], ["0", "0", "0"], nonce="clean")


def hidden(page: str, name: str) -> str:
    """The value of the page's hidden input ``name`` (attributes in any order)."""
    for tag in re.findall(r"<input[^>]*>", page):
        if f'name="{name}"' in tag and 'type="hidden"' in tag:
            return re.search(r'value="([^"]*)"', tag).group(1)
    raise AssertionError(f"no hidden {name} on the page")


def open_form(client, game_id: str) -> str:
    """The "seen" version the add-deal form carries as it opens."""
    return hidden(client.get(f"/games/{game_id}/deals/new").get_data(as_text=True), "seen")


def worked_example_first(client, game_id: str) -> object:
    """Phone A opens "Add deal"; phone B saves SCORING.md §1.2's worked example first
    (+80, +200, +13); then phone A saves its own plain deal (CLEAN_FORM), made for the
    deal B took: A's answer, refused with 409 (asserted)."""
    seen = open_form(client, game_id)  # phone A opens "Add deal"
    assert client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "seen": open_form(client, game_id)}
                       ).status_code == 302
    refused = client.post(f"/games/{game_id}/deals/new", data={**CLEAN_FORM, "seen": seen})
    assert refused.status_code == 409
    return refused


def test_a_deal_added_meanwhile_is_shown_and_the_entries_are_kept(client, make_game, db):
    game_id = make_game()
    # phone B saves the worked example first: Anna +80, Ben +200, Carla +13 (SCORING.md §1.2);
    # phone A saves its own deal, made for deal 1
    refused = worked_example_first(client, game_id)
    page = text(refused)
    assert "Nothing of yours was saved yet" in page
    assert "Deal 1 was added on another phone: \u2068Anna\u2069 +80, \u2068Ben\u2069 +200, \u2068Carla\u2069 +13." in page
    assert "Add mine as deal 2" in page and "Discard mine" in page
    html = refused.get_data(as_text=True)
    assert 'name="tricks_0" type="text" value="5"' in html or re.search(r'name="tricks_0"[^>]*value="5"', html)
    assert len(store.get_game(db, game_id).deals) == 1  # nothing of phone A's saved yet
    # "Add mine as deal 2": the form now carries the game as it is
    added = client.post(f"/games/{game_id}/deals/new", data={**CLEAN_FORM, "seen": hidden(html, "seen")})
    assert added.status_code == 302
    deals = store.get_game(db, game_id).deals
    assert [d.entry["tricks"] for d in deals] == [[4, 5, 4], [5, 4, 4]]
    assert "Deal 2 saved: \u2068Anna\u2069 +100, \u2068Ben\u2069 +80, \u2068Carla\u2069 +80." in text(client.get(f"/games/{game_id}"))


def test_a_game_that_ended_meanwhile_takes_no_more_deals(client, make_game, db):
    game_id = make_game(options={"target": 150})
    seen = open_form(client, game_id)
    # the worked example gives Ben 200, past 150: Ben has won (SCORING.md §1.4)
    client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "seen": open_form(client, game_id)})
    refused = client.post(f"/games/{game_id}/deals/new", data={**CLEAN_FORM, "seen": seen})
    assert refused.status_code == 409
    page = text(refused)
    assert "Deal 1 was added on another phone: \u2068Anna\u2069 +80, \u2068Ben\u2069 +200, \u2068Carla\u2069 +13." in page
    assert "The game is over now, so your deal cannot be added." in page
    assert "Add mine" not in page and "Discard mine" in page
    # no deal 2 will be, nor will anything of this phone's be saved later (tester 59)
    assert "<h1>Game over</h1>" in refused.text and "Deal 2" not in page
    assert "Nothing of yours was saved: another phone was quicker." in page
    assert len(store.get_game(db, game_id).deals) == 1


def test_a_deal_changed_or_deleted_meanwhile_is_named(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, WORKED_TRIGAMI_DEAL])
    seen = open_form(client, game_id)
    first, second = store.get_game(db, game_id).deals
    store.delete_deal(db, game_id, second.id)  # on another phone
    store.update_deal(db, game_id, first.id, {**WORKED_TRIGAMI_DEAL, "tricks": [4, 4, 5]})
    refused = client.post(f"/games/{game_id}/deals/new", data={**CLEAN_FORM, "seen": seen})
    assert refused.status_code == 409
    page = text(refused)
    assert "Deal 2 was deleted on another phone." in page
    # Carla's hearts: 5 tricks with 3 bugs → floor(50/3) = 16 (SCORING.md §1.2, 3.)
    assert "Deal 1 was changed on another phone: \u2068Anna\u2069 +80, \u2068Ben\u2069 +160, \u2068Carla\u2069 +16." in page
    assert "Add mine as deal 2" in page


def test_a_deal_added_and_deleted_again_meanwhile_is_told_as_both(client, make_game, db):
    """Another phone added deal 1 and deleted it again while this phone's form was open
    (tester 31: told only "Deal 1 was deleted on another phone", a phone whose own deal
    was deal 1 read it as its own). The game is as the form saw it: this phone's deal
    is still deal 1."""
    game_id = make_game()
    seen = open_form(client, game_id)
    theirs = store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)  # on another phone
    store.delete_deal(db, game_id, theirs)
    refused = client.post(f"/games/{game_id}/deals/new", data={**CLEAN_FORM, "seen": seen})
    page = text(refused)
    assert "Deal 1 was added on another phone and deleted again." in page
    assert "Deal 1 was deleted on another phone" not in page
    assert refused.status_code == 409  # told first, nothing saved; then saved as deal 1, the game as it was
    assert not store.get_game(db, game_id).deals
    saved = client.post(f"/games/{game_id}/deals/new", data={**CLEAN_FORM, "seen": hidden(
        refused.get_data(as_text=True), "seen")})
    assert saved.status_code == 302
    assert [d.entry["tricks"] for d in store.get_game(db, game_id).deals] == [[5, 4, 4]]


def test_a_form_without_a_version_is_still_checked_against_the_stored_game(client, make_game, db):
    # an old page (or a script) sends no "seen": the deal is checked against the game as
    # it is inside the write, so it is stored as the next deal, never breaking the game
    game_id = make_game()
    assert client.post(f"/games/{game_id}/deals/new", data=WORKED_FORM).status_code == 302
    assert client.post(f"/games/{game_id}/deals/new", data=CLEAN_FORM).status_code == 302
    assert len(store.get_game(db, game_id).deals) == 2


def test_the_same_edit_sent_again_is_answered_as_the_first(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    deal = store.get_game(db, game_id).deals[0]
    url = f"/games/{game_id}/deals/{deal.id}/edit"
    edit = {**CLEAN_FORM, "version": deal.version}
    assert client.post(url, data=edit).status_code == 302
    again = client.post(url, data=edit, follow_redirects=True)  # a resend on a slow connection
    assert again.status_code == 200
    assert "Deal 1 changed: \u2068Anna\u2069 +100, \u2068Ben\u2069 +80, \u2068Carla\u2069 +80." in text(again)
    assert "changed on another phone" not in text(again)
    assert [c.action for c in store.changes(db, game_id)].count("deal_changed") == 1


def test_deleting_a_deal_changed_meanwhile_asks_again(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    deal = store.get_game(db, game_id).deals[0]
    url = f"/games/{game_id}/deals/{deal.id}/delete"
    version = hidden(client.get(url).get_data(as_text=True), "version")
    store.update_deal(db, game_id, deal.id, {**WORKED_TRIGAMI_DEAL, "tricks": [4, 4, 5]})  # another phone
    asked = client.post(url, data={"version": version})
    assert asked.status_code == 409
    assert "Deal 1 was changed on another phone meanwhile" in text(asked)
    assert "Anna +80, Ben +160, Carla +16" in text(asked)  # the deal as it reads now
    assert len(store.get_game(db, game_id).deals) == 1
    again = client.post(url, data={"version": hidden(asked.get_data(as_text=True), "version")})
    assert again.status_code == 302 and store.get_game(db, game_id).deals == ()


def test_an_edit_of_a_deal_deleted_meanwhile_offers_to_restore_it(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    deal = store.get_game(db, game_id).deals[0]
    store.delete_deal(db, game_id, deal.id)
    page = text(client.post(f"/games/{game_id}/deals/{deal.id}/edit", data=CLEAN_FORM, follow_redirects=True))
    assert "Deal 1 was deleted in the meantime (on another phone?), so the change was not saved." in page
    assert "Restore deal 1" in page


def test_a_change_sent_as_its_deal_was_deleted_comes_back_in_its_form_once_restored(client, make_game, db):
    """Tester 34: phone A corrects deal 1 (Carla's bugs 3 → 1), phone B deletes deal 1,
    A's Save is refused ("not saved", Restore deal 1), and the Restore brought the deal
    back as it was: the correction was lost. Restored, the deal opens in its form with
    A's change, and its Save stores it: Carla ♥ 4 tricks 1 bug, 40 ÷ 1 = 40 (SCORING.md
    §1.2) instead of the worked example's 13."""
    plain = {"bids": [{"kind": "plain", "suit": s} for s in "SHC"], "tricks": [5, 4, 4], "bugs": [0, 2, 4]}
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, plain])
    deal = store.get_game(db, game_id).deals[0]
    form = form_fields(client.get(f"/games/{game_id}/deals/{deal.id}/edit").get_data(as_text=True))
    store.delete_deal(db, game_id, deal.id)  # phone B
    mine = {**form, "bugs_2": "1"}
    refused = client.post(f"/games/{game_id}/deals/{deal.id}/edit", data=mine, follow_redirects=True)
    assert ("Deal 1 was deleted in the meantime (on another phone?), so the change was not saved. Restored, "
            "it opens with your change, to save again.") in text(refused)
    back = client.post(f"/games/{game_id}/deals/{deal.id}/restore",
                       data={**form_fields(refused.get_data(as_text=True)), "back": "sheet"})
    assert back.status_code == 302 and back.location == f"/games/{game_id}/deals/{deal.id}/edit"
    assert store.get_game(db, game_id).deals[0].entry == WORKED_TRIGAMI_DEAL  # back as it was, first
    opened = client.get(back.location)
    page = opened.get_data(as_text=True)
    assert ("Deal 1 is back. Your change, not saved when it was deleted, is in the form again: check it, "
            "then tap Save changes.") in text(opened)
    assert hidden(page, "version") == store.get_game(db, game_id).deals[0].version  # no clash with itself
    fields = form_fields(page)
    assert fields["bugs_2"] == "1" and fields["tricks_2"] == "4"
    saved = client.post(f"/games/{game_id}/deals/{deal.id}/edit", data=fields, follow_redirects=True)
    assert "Deal 1 changed: \u2068Anna\u2069 +80, \u2068Ben\u2069 +200, \u2068Carla\u2069 +40." in text(saved)
    assert store.get_game(db, game_id).deals[0].entry["bugs"] == [1, 0, 1]
    # said once: the deal's form opened again is the deal as stored
    assert "Your change, not saved" not in text(client.get(f"/games/{game_id}/deals/{deal.id}/edit"))


def test_a_deal_added_and_deleted_again_several_times_meanwhile_is_told_once(client, make_game, db):
    """Tester 61: "Deal 1 was added on another phone and deleted again." three times over,
    and "another phone was quicker" above "No deal was added meanwhile"."""
    game_id = make_game()
    seen = open_form(client, game_id)
    for _ in range(3):  # another phone
        store.delete_deal(db, game_id, store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL))
    refused = client.post(f"/games/{game_id}/deals/new", data={**CLEAN_FORM, "seen": seen})
    page = text(refused)
    assert refused.status_code == 409
    assert page.count("Deal 1 was added on another phone and deleted again.") == 1
    assert "Nothing of yours was saved yet: the game was changed on another phone." in page
    assert "another phone was quicker" not in page and "No deal was added meanwhile." in page


def test_a_deal_saved_after_a_player_was_renamed_meanwhile_is_added_under_the_new_name(client, make_game, db):
    """A name put right on another phone ("Ben" → "Benedikt") says nothing of the deal
    being entered, whose entries are by seat: Save adds it, the points under the names as
    they are now, and the form's check of the game says so before (the carried note
    "rename blocks another phone's open save once")."""
    game_id = make_game()
    seen = open_form(client, game_id)
    store.update_game(db, game_id, players=["Anna", "Benedikt", "Carla"])  # another phone
    news = client.get(f"/games/{game_id}/live", query_string={"since": seen}).get_json()
    assert news["stops"] is False
    saved = client.post(f"/games/{game_id}/deals/new", data={**CLEAN_FORM, "seen": seen}, follow_redirects=True)
    assert saved.status_code == 200
    assert "Deal 1 saved: \u2068Anna\u2069 +100, \u2068Benedikt\u2069 +80, \u2068Carla\u2069 +80." in text(saved)
    assert len(store.get_game(db, game_id).deals) == 1


def test_a_deal_saved_after_two_players_swapped_names_meanwhile_is_asked_about(client, make_game, db):
    """Names moved between seats (Anna and Ben swapped: the first seat was Ben all along)
    may put the entries typed under "Anna" under the wrong seat: nothing is saved, the
    page says the players were renamed, as for any change a phone must see first."""
    game_id = make_game()
    seen = open_form(client, game_id)
    store.update_game(db, game_id, players=["Ben", "Anna", "Carla"])  # another phone
    assert client.get(f"/games/{game_id}/live", query_string={"since": seen}).get_json()["stops"] is True
    refused = client.post(f"/games/{game_id}/deals/new", data={**CLEAN_FORM, "seen": seen})
    assert refused.status_code == 409 and "The players were renamed on another phone" in text(refused)
    assert store.get_game(db, game_id).deals == ()


def test_players_renamed_meanwhile_are_not_overwritten_silently(client, make_game, db):
    game_id = make_game()
    form = client.get(f"/games/{game_id}/edit").get_data(as_text=True)
    seen = hidden(form, "seen")
    store.update_game(db, game_id, players=["Anna", "Benedikt", "Carla"])  # another phone
    mine = {"player_0": "Anna", "player_1": "Ben", "player_2": "Carla", "target": "300", "seen": seen}
    refused = client.post(f"/games/{game_id}/edit", data=mine)
    assert refused.status_code == 409
    # each name isolated (issue 10): "(now: سارة, Benedikt, …)" never reorders
    assert ("changed on another phone while this page was open (now: \u2068Anna\u2069, \u2068Benedikt\u2069, "
            "\u2068Carla\u2069)") in text(refused)
    assert "to put right" not in text(refused)  # told, nothing to put right (tester 36)
    game = store.get_game(db, game_id)
    assert game.players[1] == "Benedikt" and game.options["target"] == 500
    # a second Save replaces it knowingly
    again = client.post(f"/games/{game_id}/edit", data={**mine, "seen": hidden(refused.get_data(as_text=True), "seen")})
    assert again.status_code == 302
    game = store.get_game(db, game_id)
    assert game.players[1] == "Ben" and game.options["target"] == 300


def test_players_and_settings_opened_before_a_restore_save_nothing_unseen(client, make_game, db):
    """Tester 44: a page opened on the game as it was before a backup was put back (here
    its last deal and that change gone, as the backup lacked them) is told the game was
    set back, and its Save saves nothing until the form is sent again."""
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, WORKED_TRIGAMI_DEAL])
    form = client.get(f"/games/{game_id}/edit").get_data(as_text=True)
    seen = hidden(form, "seen")
    last = store.get_game(db, game_id).deals[-1].id
    with store.writing(db):  # the backup put back: without deal 2 and its change
        db.execute("delete from changes where id = ?", [int(seen)])
        db.execute("delete from deals where id = ?", [last])
    mine = {"player_0": "Anna", "player_1": "Ben", "player_2": "Carla", "target": "300", "seen": seen}
    refused = client.post(f"/games/{game_id}/edit", data=mine)
    assert refused.status_code == 409
    assert ("The game was set back on the server to an earlier copy (a backup was put back), so some of what "
            "this phone showed may be gone.") in text(refused)
    assert store.get_game(db, game_id).options["target"] == 500


def opened_then_changed_elsewhere(client, make_game, db, players: list[str], options: dict | None = None):
    """A game's Players and settings opened on this phone, then saved on another phone
    (``players``, ``options``): (game id, this phone's form as it was drawn)."""
    game_id = make_game()
    form = form_fields(client.get(f"/games/{game_id}/edit").get_data(as_text=True))
    store.update_game(db, game_id, players=players, options=options)  # the other phone
    return game_id, form


def test_players_and_settings_changed_on_two_phones_are_put_together_not_undone(client, make_game, db):
    """The tester's two phones on Players and settings: one renames Anna to Annika and
    plays to 300; the other, on its page opened before, renames only Ben to Benedikt.
    Nothing is saved (409), and the form shows both changes together, as an edit of a
    deal does: Annika and 300 (left alone on this phone) with Benedikt (its own). Saving
    what the form shows keeps everyone's change; before, it put Anna and 500 back."""
    game_id, form = opened_then_changed_elsewhere(client, make_game, db, ["Annika", "Ben", "Carla"], {"target": 300})
    refused = client.post(f"/games/{game_id}/edit", data={**form, "player_1": "Benedikt"})
    assert refused.status_code == 409
    assert "Their changes are now in the form and yours are kept: check, then tap Save again." in text(refused)
    shown = form_fields(refused.get_data(as_text=True))
    assert [shown[f"player_{seat}"] for seat in range(3)] == ["Annika", "Benedikt", "Carla"]
    assert shown["target"] == "300"
    game = store.get_game(db, game_id)
    assert game.players == ("Annika", "Ben", "Carla")  # nothing of this phone's saved yet
    saved = client.post(f"/games/{game_id}/edit", data=shown)
    assert saved.status_code == 302
    game = store.get_game(db, game_id)
    assert game.players == ("Annika", "Benedikt", "Carla") and game.options["target"] == 300


@pytest.mark.parametrize("seen", ["x", "1e3", "99999999999999999999999"])
def test_a_garbled_version_is_read_as_old_not_as_none_so_nothing_is_overwritten_unseen(client, make_game, db, seen):
    """Tester 36: a form whose ``seen`` came garbled (crafted) was read as a form without
    one and saved over the other phone's change unasked: the deal's form and Players and
    settings now take it as the oldest version, and tell of what changed first."""
    game_id, form = opened_then_changed_elsewhere(client, make_game, db, ["Annika", "Ben", "Carla"])
    refused = client.post(f"/games/{game_id}/edit", data={**form, "seen": seen, "player_1": "Benedikt"})
    assert refused.status_code == 409
    assert store.get_game(db, game_id).players == ("Annika", "Ben", "Carla")
    assert client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "seen": open_form(client, game_id)}
                       ).status_code == 302  # the other phone's deal 1
    refused = client.post(f"/games/{game_id}/deals/new", data={**CLEAN_FORM, "seen": seen})
    assert refused.status_code == 409 and "Nothing of yours was saved yet" in text(refused)
    assert len(store.get_game(db, game_id).deals) == 1


def test_a_name_both_phones_changed_keeps_this_phones_in_the_form(client, make_game, db):
    game_id, form = opened_then_changed_elsewhere(client, make_game, db, ["Anna", "Benny", "Carla"])
    refused = client.post(f"/games/{game_id}/edit", data={**form, "player_1": "Benedikt", "target": "400"})
    assert refused.status_code == 409
    shown = form_fields(refused.get_data(as_text=True))
    assert [shown[f"player_{seat}"] for seat in range(3)] == ["Anna", "Benedikt", "Carla"]
    assert shown["target"] == "400"
    assert "(now: \u2068Anna\u2069, \u2068Benny\u2069, \u2068Carla\u2069)" in text(refused)
    assert "The other phone changed: \u2068Ben\u2069 → \u2068Benny\u2069." in text(refused)


def test_a_target_both_phones_changed_says_the_other_phones_beside_this_phones_own(client, make_game, db):
    """The tester's two phones: one plays to 850, the other, on its page opened before,
    types 950. The second is not saved (409), keeps 950 in the form, and is told the other
    phone set 850: a second Save then replaces it knowingly."""
    game_id, form = opened_then_changed_elsewhere(client, make_game, db, ["Anna", "Ben", "Carla"], {"target": 850})
    refused = client.post(f"/games/{game_id}/edit", data={**form, "target": "950"})
    assert refused.status_code == 409
    assert "The other phone changed: Target 500 → 850." in text(refused)
    assert form_fields(refused.get_data(as_text=True))["target"] == "950"
    assert store.get_game(db, game_id).options["target"] == 850


def test_a_trix_contract_played_meanwhile_keeps_the_entries_and_says_so(client, make_game, db):
    game_id = make_game(kind="trix")
    seen = open_form(client, game_id)
    # another phone saves Diamonds first: −10 a diamond (SCORING.md §2.1): 2, 2, 2, 7
    other = {"nonce": "b", "contracts": "diamonds", "diamonds_0": "2", "diamonds_1": "2", "diamonds_2": "2",
             "diamonds_3": "7", "seen": seen}
    assert client.post(f"/games/{game_id}/deals/new", data=other).status_code == 302
    mine = {"nonce": "a", "contracts": "diamonds", "diamonds_0": "3", "diamonds_1": "4", "diamonds_2": "5",
            "diamonds_3": "1", "seen": seen}
    refused = client.post(f"/games/{game_id}/deals/new", data=mine)
    assert refused.status_code == 409
    page = text(refused)
    assert "Deal 1 was added on another phone: \u2068Anna\u2069 −20, \u2068Ben\u2069 −20, \u2068Carla\u2069 −20, \u2068Dan\u2069 −70." in page
    assert "Diamonds has been played in this kingdom meanwhile: if yours is the same deal, discard it" in page
    html = refused.get_data(as_text=True)
    for seat, count in enumerate("3451"):  # the entries as typed stay on the page
        assert re.search(rf'name="diamonds_{seat}"[^>]*value="{count}"', html), seat
    assert len(store.get_game(db, game_id).deals) == 1


def test_a_garbled_contract_sent_after_another_phones_deal_is_answered_not_a_server_error(client, make_game, db):
    """A Trix deal sent with a contract that is none of the five (a forged or garbled
    form) after another phone's deal: the form again (409), nothing of it saved."""
    game_id = make_game(kind="trix")
    seen = open_form(client, game_id)
    other = {"nonce": "b", "contracts": "diamonds", "diamonds_0": "2", "diamonds_1": "2", "diamonds_2": "2",
             "diamonds_3": "7", "seen": seen}
    assert client.post(f"/games/{game_id}/deals/new", data=other).status_code == 302
    garbled = client.post(f"/games/{game_id}/deals/new", data={"nonce": "a", "contracts": "Ann\U000ff41a", "seen": seen})
    assert garbled.status_code == 409
    assert "Deal 1 was added on another phone" in text(garbled)
    assert len(store.get_game(db, game_id).deals) == 1


def test_a_seat_taken_over_meanwhile_does_not_ask_whether_the_deal_is_the_same(client, make_game, db):
    """Only a seat was taken over on another phone while deal 2 was being entered: no
    deal of theirs can be this one, so the page does not offer to discard it as "the same
    deal"; it asks to check the entries against that change and add them."""
    from scorekeeper import actions

    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    seen = open_form(client, game_id)
    assert isinstance(actions.take_seat(db, game_id, seat=2, player="Dora", from_deal=2, nonce="s"), actions.SeatTaken)
    refused = client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "nonce": "d2", "seen": seen})
    assert refused.status_code == 409
    said = text(refused).replace("\u2068", "").replace("\u2069", "")
    assert "On another phone: Dora takes Carla's seat from deal 2" in said
    assert "No deal was added meanwhile. Your entries are below, as you typed them: check them against that " \
           "change, then add them as deal 2." in said
    assert "if it is the same deal" not in said
    assert len(store.get_game(db, game_id).deals) == 1


def test_undo_is_not_offered_once_another_phone_changed_the_deal(client, make_game, db):
    game_id = make_game()
    client.post(f"/games/{game_id}/deals/new", data=WORKED_FORM)
    assert "Undo deal 1" in text(client.get(f"/games/{game_id}"))
    deal = store.get_game(db, game_id).deals[0]
    store.update_deal(db, game_id, deal.id, {**WORKED_TRIGAMI_DEAL, "tricks": [4, 4, 5]})  # another phone
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Undo deal 1" not in sheet  # it would take back their correction too
    assert "160" in sheet


def test_one_deal_changed_on_two_phones_is_put_together_field_by_field():
    """conflicts.merged: what this phone left as it read it takes the other phone's
    change; what it changed keeps its own, also where both changed it; a field either
    phone took away stays away."""
    from scorekeeper.conflicts import merged

    read = {"bids": [{"kind": "turnip"}, {"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}],
            "tricks": [4, 5, 4], "bugs": [1, 0, 3], "turnip": "D"}
    theirs = {**read, "bugs": [1, 0, 2], "last_trick": 1}  # Carla's bugs, and who won the last trick
    mine = {**read, "bugs": [0, 0, 3], "tricks": [4, 6, 3]}  # Anna's bugs, Ben's and Carla's tricks
    mine.pop("turnip")  # the turnip card no longer noted
    assert merged(read, theirs, mine) == {"bids": read["bids"], "tricks": [4, 6, 3], "bugs": [0, 0, 2],
                                          "last_trick": 1}
    both = {**read, "bugs": [1, 0, 1]}  # this phone changed Carla's bugs too: its own stands
    assert merged(read, theirs, both)["bugs"] == [1, 0, 1]
    king = {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}}
    assert merged(king, {"contracts": ["king"], "king": {"taker": 3, "doubled_by": 1}},
                  {"contracts": ["king"], "king": {"taker": 2}}) == {"contracts": ["king"], "king": {"taker": 3}}


def test_a_deal_added_meanwhile_is_compared_under_the_names_of_who_sat_in_it(client, db):
    """Dora took Carla's seat from deal 2 (GAME-FILE.md, seat_changes). Phone B saves deal
    2 first; phone A's different deal 2 is refused, and the comparison names the players
    of deal 2, Dora among them, as the form below it does: not Carla, who no longer sits."""
    data = {**game_file(deals=[WORKED_TRIGAMI_DEAL]), "seat_changes": [{"from_deal": 2, "seat": 2, "player": "Dora"}]}
    game_id = store.create_game(db, from_dict(data))
    # phone B saves the worked example as deal 2: Anna +80, Ben +200, Dora +13 (SCORING.md §1.2)
    page = text(worked_example_first(client, game_id))
    assert "Deal 2 was added on another phone: \u2068Anna\u2069 +80, \u2068Ben\u2069 +200, \u2068Dora\u2069 +13." in page
    table = page[page.index("Deal 2 was added"):page.index("Add mine as deal 3")]
    assert "Dora" in table and "Carla" not in table, table


def test_the_comparison_colours_its_suits_as_the_sheet_does(client, make_game):
    """Tester 39: the two phones' entries side by side wrote ♥ and ♦ in black; they are red
    (UX.md), named for screen readers: the hearts of a bid in the worked deal (SCORING.md §1.2)."""
    game_id = make_game()
    compare = re.search(r'<table class="compare".*?</table>', worked_example_first(client, game_id)
                        .get_data(as_text=True), re.S).group(0)
    assert '<span class="suit suit-H" role="img" aria-label="hearts">♥</span>' in compare


def test_a_save_sent_twice_says_saved_once(client, make_game, db):
    """A double tap on Save in Players and settings (the same form sent twice, one after
    the other): one change, and the sheet it leads to says so once, not twice."""
    game_id = make_game()
    form = form_fields(client.get(f"/games/{game_id}/edit").get_data(as_text=True))
    sent = {**form, "target": "300"}
    assert client.post(f"/games/{game_id}/edit", data=sent).status_code == 302
    second = client.post(f"/games/{game_id}/edit", data=sent)
    assert second.status_code == 302
    sheet = client.get(second.location).get_data(as_text=True)
    assert sheet.count('class="flash flash-saved"') == 1, sheet
    assert store.get_game(db, game_id).options["target"] == 300


def test_a_deal_changed_on_two_phones_is_told_as_news_not_as_a_problem(client, make_game, db):
    """Tester 27: phone A opens deal 1 to change Anna's bugs; phone B changes Carla's first.
    A's Save puts the two changes together (409, nothing saved yet) and says so, but had
    headed it "Nothing was saved: 1 thing to put right." with nothing wrong in the form."""
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    deal = store.get_game(db, game_id).deals[0]
    url = f"/games/{game_id}/deals/{deal.id}/edit"
    fields = form_fields(client.get(url).get_data(as_text=True))  # phone A opens the deal
    store.update_deal(db, game_id, deal.id, {**WORKED_TRIGAMI_DEAL, "bugs": [1, 0, 2]})  # phone B: Carla 3 → 2
    answer = client.post(url, data={**fields, "bugs_0": "0"})  # phone A: Anna 1 → 0
    assert answer.status_code == 409
    page = text(answer)
    assert ("Deal 1 was changed on another phone while this page was open. The form now holds that change "
            "and yours: check it, then tap Save.") in page
    assert "to put right" not in page
    assert store.get_game(db, game_id).deals[0].entry["bugs"] == [1, 0, 2]  # nothing of A's saved yet
    # the form holds both changes; Save stores them
    fields = form_fields(answer.get_data(as_text=True))
    assert (fields["bugs_0"], fields["bugs_2"]) == ("0", "2")
    assert client.post(url, data=fields).status_code == 302
    assert store.get_game(db, game_id).deals[0].entry["bugs"] == [0, 0, 2]


def test_an_outbox_send_saved_already_says_at_which_version_and_keeps_the_message_for_the_sheet(
        client, make_game, db):
    """Tester 42: a deal whose first send was stored but lost its answer, sent again from
    the outbox: the answer says it was saved already, at which version of the game (so
    the phone counts it once), and "Deal 1 saved" with Undo still wait for the sheet."""
    game_id = make_game()
    first = client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "seen": open_form(client, game_id)})
    assert first.status_code == 302  # stored; its answer lost on the way
    client.get(f"/games/{game_id}/history")  # (a page read meanwhile takes the first message)
    again = client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "outbox": "1"})
    assert again.status_code == 200
    added = re.search(r'data-saved-already data-added="(\d+)"', again.get_data(as_text=True))
    deal = store.get_game(db, game_id).deals[0]
    assert added and int(added.group(1)) == store.added_at(db, game_id, deal.id)
    assert len(store.get_game(db, game_id).deals) == 1
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Deal 1 saved: \u2068Anna\u2069 +80" in sheet and "Undo deal 1" in sheet


def test_a_trix_complex_deal_of_king_and_queens_is_compared_card_by_card(make_game, db):
    """Trix Complex (SCORING.md §2): one deal played as the King of Hearts and the queens
    together. Another phone saved it with the Q♣ taken by Dan; this phone's entry has Carla:
    the comparison sets every card side by side, the queens after the king, and the
    sentence names the one that differs as words say it."""
    deal = {"contracts": ["king", "queens"], "king": {"taker": 1},
            "queens": {suit: {"taker": seat} for seat, suit in enumerate("SHDC")}}
    game_id = make_game(kind="trix", options={"complex": True})
    store.add_deal(db, game_id, deal)  # on the other phone
    game = store.get_game(db, game_id)
    mine = {**deal, "queens": {**deal["queens"], "C": {"taker": 2}}}
    compared = conflicts.compare(game, store.changes_since(db, game_id, 0), mine)
    assert compared is not None and compared.number == 1
    labels = [row.label for row in compared.rows]
    assert labels == ["Contract", "K♥ taken by", "Q♠ taken by", "Q♥ taken by", "Q♦ taken by", "Q♣ taken by"]
    assert compared.differences == ("who took the Q♣",)
