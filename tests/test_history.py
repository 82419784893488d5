"""The history of a game, restoring deleted deals, and the players-and-settings page.

Through Flask's test client, as a player sees it. Points and totals are worked by hand
from SCORING.md: the worked Trigami deal (§1.2) scores Anna +80, Ben +200, Carla +13.
"""

from __future__ import annotations

import html
import json
import re

from scorekeeper import groups, i18n, store
from tests.conftest import WORKED_TRIGAMI_DEAL, csrf_token, game_file
from tests.test_web import WORKED_FORM, text, trigami_form

# Anna plain ♠ 5 clean tricks → 5 × 20 = 100; Ben ♥ 4 tricks 2 bugs → 40 ÷ 2 = 20;
# Carla ♣ 4 tricks 4 bugs → 40 ÷ 4 = 10 (SCORING.md §1.2, 3.)
PLAIN_DEAL = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"},
                       {"kind": "plain", "suit": "C"}],
              "tricks": [5, 4, 4], "bugs": [0, 2, 4]}
PLAIN_FORM = trigami_form(["S", "H", "C"], ["5", "4", "4"], ["0", "2", "4"], nonce="plain")
# 6, 4 and 3 clean tricks: 120, 80, 60 (§1.2, 2.)
OTHER_DEAL = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"},
                       {"kind": "plain", "suit": "C"}], "tricks": [6, 4, 3], "bugs": [0, 0, 0]}
# Anna takes every trick: 100 (§1.2, 1.)
SLAM = {"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [13, 0, 0], "bugs": [10, 0, 0]}


def history(client, game_id: str) -> str:
    response = client.get(f"/games/{game_id}/history")
    assert response.status_code == 200
    return text(response)


def entries(client, game_id: str) -> list[str]:
    """Each change on the history page as one line of text, newest first."""
    body = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    items = re.findall(r'<li class="change [^"]*"[^>]*>(.*?)</li>\s*(?=<li class="change|</ol>)', body, re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", item)).split()) for item in items]


def sheet_table(client, game_id: str) -> str:
    body = client.get(f"/games/{game_id}").get_data(as_text=True)
    return re.search(r'<table class="sheet.*?</table>', body, re.S).group(0)


def new_trigami_game(client) -> str:
    response = client.post("/games/new?kind=trigami", data={
        "player_0": "Anna", "player_1": "Ben", "player_2": "Carla", "first_dealer": "0", "target": "500"})
    assert response.status_code == 302
    return response.headers["Location"].rsplit("/", 1)[-1]


def restore_url(page_html: str) -> str:
    match = re.search(r'action="([^"]*/restore)"', page_html)
    assert match, "no Restore form on the page"
    return html.unescape(match.group(1))


# ----------------------------------------------------------------- the history in words


def test_every_kind_of_change_is_in_the_history_in_words_with_its_totals(client, db):
    game_id = new_trigami_game(client)
    assert client.post(f"/games/{game_id}/deals/new", data=WORKED_FORM).status_code == 302
    first = store.get_game(db, game_id).deals[0].id
    # Anna 5 tricks, Ben 4: Anna's Turnip 50 ÷ 1 doubled = 100, Ben's Doublets 4 × 40 = 160
    edited = {**WORKED_FORM, "tricks_0": "5", "tricks_1": "4", "tricks_2": "4"}
    assert client.post(f"/games/{game_id}/deals/{first}/edit", data=edited).status_code == 302
    assert client.post(f"/games/{game_id}/deals/new", data=PLAIN_FORM).status_code == 302
    assert client.post(f"/games/{game_id}/deals/{first}/delete").status_code == 302
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    assert client.post(restore_url(page), data={"back": "history"}).status_code == 302
    assert client.post(f"/games/{game_id}/edit", data={
        "player_0": "Anna", "player_1": "Benjamin", "player_2": "Carla", "target": "300"}).status_code == 302

    lines = entries(client, game_id)
    assert len(lines) == 8
    settings, renamed, restored, deleted, added, changed, added_first, started = lines
    assert "Settings changed: Target 500 → 300" in settings
    assert "Anna 200 Benjamin 180 Carla 23" in settings  # totals unchanged: 100 + 100, 160 + 20, 13 + 10
    assert "Players renamed: \u2068Ben\u2069 → \u2068Benjamin\u2069" in renamed
    assert "Anna 200 Benjamin 180 Carla 23" in renamed  # named as they are from this change on
    # before the rename, Ben is still called Ben
    assert "Deal 1 restored" in restored
    assert "Anna 100 → 200 Ben 20 → 180 Carla 10 → 23" in restored
    assert "Deal 1 deleted: \u2068Anna\u2069 +100 · \u2068Ben\u2069 +160 · \u2068Carla\u2069 +13" in deleted
    assert "Anna 200 → 100 Ben 180 → 20 Carla 23 → 10" in deleted
    assert "Deal 2 added: \u2068Anna\u2069 +100 · \u2068Ben\u2069 +20 · \u2068Carla\u2069 +10" in added
    assert "Deal 1 changed: \u2068Anna\u2069's tricks 4 → 5 \u2068Ben\u2069's tricks 5 → 4" in changed
    # the deal's own points: Anna's Turnip 80 → 100, Ben's Doublets 200 → 160, Carla's 13 unmoved
    assert "Points: \u2068Anna\u2069 +80 → +100 · \u2068Ben\u2069 +200 → +160 · \u2068Carla\u2069 +13" in changed
    assert "Anna 80 → 100 Ben 200 → 160 Carla 13" in changed
    assert "Deal 1 added: \u2068Anna\u2069 +80 · \u2068Ben\u2069 +200 · \u2068Carla\u2069 +13" in added_first
    assert "Anna 0 → 80 Ben 0 → 200 Carla 0 → 13" in added_first
    assert "Benjamin" not in " ".join(lines[2:])
    assert "Game started: Players: \u2068Anna\u2069, \u2068Ben\u2069, \u2068Carla\u2069 Target 500" in started
    assert "started before the app kept a history" not in history(client, game_id)


def test_in_arabic_a_deals_points_before_and_after_point_as_its_counts_do(client, make_game, db):
    """Tester 38: in Arabic the points line of a changed deal read "−٧٥ → ٠" (0 becoming
    −75, read right to left) beside counts and totals that point the Arabic way; its
    arrow now points as theirs: Anna +80 ← +100 (SCORING.md §1.2's worked deal, Anna's
    tricks 4 → 5)."""
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    deal = store.get_game(db, game_id).deals[0]
    store.update_deal(db, game_id, deal.id, {**WORKED_TRIGAMI_DEAL, "tricks": [5, 4, 4]})
    client.set_cookie(i18n.COOKIE, "ar")
    changed = entries(client, game_id)[0]
    assert "\u2068Anna\u2069 ٤ ← ٥" in changed  # the counts, as before
    assert "\u2068Anna\u2069 \u061c+٨٠ ← \u061c+١٠٠" in changed
    assert "\u2068Ben\u2069 \u061c+٢٠٠ ← \u061c+١٦٠" in changed


def test_older_entries_name_the_players_as_they_were_then(client, make_game, db):
    game_id = make_game(players=["Anna", "Ben", "Dan"], deals=[WORKED_TRIGAMI_DEAL])
    assert client.post(f"/games/{game_id}/edit", data={
        "player_0": "Anna", "player_1": "Ben", "player_2": "Carla", "target": "500"}).status_code == 302
    assert client.post(f"/games/{game_id}/deals/new", data=PLAIN_FORM).status_code == 302
    added, renamed, started = entries(client, game_id)
    assert "Deal 2 added: \u2068Anna\u2069 +100 · \u2068Ben\u2069 +20 · \u2068Carla\u2069 +10" in added
    assert "Anna 80 → 180 Ben 200 → 220 Carla 13 → 23" in added
    assert "Players renamed: \u2068Dan\u2069 → \u2068Carla\u2069 Totals Anna 80 Ben 200 Carla 13" in renamed
    # the game as it was started: Dan in the third seat, in the sentence and the totals alike
    assert "Game started: Players: \u2068Anna\u2069, \u2068Ben\u2069, \u2068Dan\u2069" in started
    assert "Anna 0 → 80 Ben 0 → 200 Dan 0 → 13" in started
    assert "Carla" not in started


def test_after_a_settings_change_the_sheet_no_longer_offers_to_undo_the_deal_added_before(client, make_game):
    """Tester 18 (LOW): "Undo deal 2" stood under "Settings changed: …" on the sheet, and
    read as undoing the settings. Once this phone changed something else, the offer goes;
    a deal added after it is offered again."""
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    assert client.post(f"/games/{game_id}/deals/new", data=PLAIN_FORM).status_code == 302
    assert "Undo deal 2" in text(client.get(f"/games/{game_id}"))
    names = {"player_0": "Anna", "player_1": "Ben", "player_2": "Carla"}
    assert client.post(f"/games/{game_id}/edit", data={**names, "target": "300"}).status_code == 302
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Settings changed: Target 500 → 300" in sheet and "Undo deal 2" not in sheet
    assert client.post(f"/games/{game_id}/deals/new", data={**PLAIN_FORM, "nonce": "third"}).status_code == 302
    assert "Undo deal 3" in text(client.get(f"/games/{game_id}"))


def test_after_taking_back_a_seat_change_the_sheet_no_longer_offers_to_undo_the_deal_added_before(
        app, client, db, make_game):
    """As after a settings change: this phone added deal 2, another phone gave Carla's seat
    to Dora, and this phone took that back (on the players page, or by giving the seat
    back to Carla): "Undo deal 2" would now sit under "Seat change taken back"."""
    for give_back in ("take-back", "seat form"):
        game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
        assert client.post(f"/games/{game_id}/deals/new", data=PLAIN_FORM).status_code == 302
        assert "Undo deal 2" in text(client.get(f"/games/{game_id}"))
        other_phone = app.test_client()
        assert other_phone.post(f"/games/{game_id}/seats", data={
            "seat": "2", "player": "Dora", "from_deal": "3", "nonce": f"dora-{give_back}"}).status_code == 302
        if give_back == "take-back":
            change = store.get_game(db, game_id).seat_changes[0]
            answer = client.post(f"/games/{game_id}/seats/{change.id}/take-back", follow_redirects=True)
        else:
            answer = client.post(f"/games/{game_id}/seats", data={
                "seat": "2", "player": "Carla", "from_deal": "3", "nonce": f"carla-{give_back}"},
                follow_redirects=True)
        sheet = text(answer)
        assert "Taken back: \u2068Carla\u2069 plays on from deal 3, not \u2068Dora\u2069." in sheet, give_back
        assert "Undo deal 2" not in sheet, give_back


def test_a_target_change_that_ends_the_game_says_who_won_and_one_that_reopens_it_says_so(client, make_game):
    game_id = make_game(deals=[SLAM])  # Anna 100, Ben 0, Carla 0 (SCORING.md §1.2, 1.)
    names = {"player_0": "Anna", "player_1": "Ben", "player_2": "Carla"}
    assert client.post(f"/games/{game_id}/edit", data={**names, "target": "75"}).status_code == 302
    ended = entries(client, game_id)[0]
    assert "Settings changed: Target 500 → 75 Game over — \u2068Anna\u2069 won! Totals Anna 100 Ben 0 Carla 0" in ended
    assert client.post(f"/games/{game_id}/edit", data={**names, "target": "300"}).status_code == 302
    reopened, ended_again, started = entries(client, game_id)
    assert ("Settings changed: Target 75 → 300 The game is no longer over (\u2068Anna\u2069 had won): play goes on."
            in reopened)
    assert "Game over" in ended_again and "over" not in started
    assert "Add deal 2" in text(client.get(f"/games/{game_id}"))  # the sheet agrees: play goes on


def test_a_deal_that_ends_the_game_says_who_won_in_the_history(client, make_game, db):
    game_id = make_game(options={"target": 100})
    assert client.post(f"/games/{game_id}/deals/new", data=PLAIN_FORM).status_code == 302  # Anna 100
    assert "Deal 1 added: \u2068Anna\u2069 +100 · \u2068Ben\u2069 +20 · \u2068Carla\u2069 +10 Game over — \u2068Anna\u2069 won!" in entries(client, game_id)[0]
    deal = store.get_game(db, game_id).deals[0]
    assert client.post(f"/games/{game_id}/deals/{deal.id}/delete").status_code == 302
    assert "The game is no longer over (\u2068Anna\u2069 had won)" in entries(client, game_id)[0]


def test_each_change_shows_its_time_in_utc_for_the_browser_to_make_local(client, make_game):
    game_id = make_game()
    body = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    match = re.search(r'<time[^>]*datetime="([^"]+)"[^>]*data-local-time', body)
    assert match and match.group(1).endswith("+00:00")  # UTC, ISO 8601
    assert "UTC</time>" in body  # what shows without JavaScript


def test_the_sheet_links_to_the_history_and_the_settings(client, make_game):
    game_id = make_game()
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/history"' in page
    assert f'href="/games/{game_id}/edit"' in page


def test_a_trix_deal_changed_is_told_card_by_card(client, make_game, db):
    game_id = make_game(kind="trix", deals=[{"contracts": ["king"], "king": {"taker": 2}}])
    deal = store.get_game(db, game_id).deals[0]
    response = client.post(f"/games/{game_id}/deals/{deal.id}/edit", data={
        "contracts": "king", "king_taker": "3", "king_doubled_by": "1"})
    assert response.status_code == 302
    changed = entries(client, game_id)[0]
    assert "Deal 1 changed: K♥ taken by \u2068Carla\u2069 → \u2068Dan\u2069 K♥ doubled by nobody → \u2068Ben\u2069" in changed
    # K♥ −75 (§2.1); doubled by Ben and taken by Dan: Dan −150, Ben +75 (§2.2)
    assert "Anna 0 Ben 0 → 75 Carla −75 → 0 Dan 0 → −150" in changed


def test_a_game_from_before_the_history_says_so(tmp_path):
    from scorekeeper import create_app
    from tests.test_store import OLD_GAME, upgraded_database

    upgraded_database(tmp_path / "old.sqlite3").conn.close()
    client = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                         "DATABASE": str(tmp_path / "old.sqlite3")}).test_client()
    page = history(client, OLD_GAME)
    assert "No changes recorded yet" in page and "started before the app kept a history" in page
    assert client.post(f"/games/{OLD_GAME}/deals/new", data=PLAIN_FORM).status_code == 302
    lines = entries(client, OLD_GAME)
    assert len(lines) == 1 and "Deal 2 added" in lines[0]
    assert "Anna 80 → 180 Ben 200 → 220 Carla 13 → 23" in lines[0]


# ----------------------------------------------------------------- restore


def test_delete_then_restore_gives_back_the_same_sheet_and_game_file(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL, WORKED_TRIGAMI_DEAL])
    sheet_before = sheet_table(client, game_id)
    file_before = client.get(f"/games/{game_id}/game.json").get_data()
    second = store.get_game(db, game_id).deals[1]
    assert client.post(f"/games/{game_id}/deals/{second.id}/delete").status_code == 302
    assert sheet_table(client, game_id) != sheet_before
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    response = client.post(restore_url(page), data={"back": "history"}, follow_redirects=True)
    assert "Deal 2 restored." in text(response)
    assert sheet_table(client, game_id) == sheet_before
    assert client.get(f"/games/{game_id}/game.json").get_data() == file_before
    assert store.get_game(db, game_id).deals[1] == second  # the same deal, in its old place


def test_a_deal_restored_before_a_seat_was_taken_over_names_its_player_and_the_seats_holder(client, db):
    """Tester 8: Dora takes Carla's seat from deal 3; deal 2 is deleted and restored. The
    entry named the seat's total, the whole game's, after Carla ("Carla 165 → 178"), read
    as Carla's own. The deal's points name Carla, who played it (+13: SCORING.md §1.2's
    worked deal); the totals name Dora, who holds the seat at the game's end, as the score
    sheet's totals do."""
    from scorekeeper.gamefile import from_dict

    game_id = store.create_game(db, from_dict({
        **game_file(deals=[PLAIN_DEAL, WORKED_TRIGAMI_DEAL, PLAIN_DEAL]),
        "seat_changes": [{"from_deal": 3, "seat": 2, "player": "Dora"}]}))
    second = store.get_game(db, game_id).deals[1]
    assert client.post(f"/games/{game_id}/deals/{second.id}/delete").status_code == 302
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    assert client.post(restore_url(page), data={"back": "history"}).status_code == 302
    restored = entries(client, game_id)[0].replace("\u2068", "").replace("\u2069", "")
    assert "Deal 2 restored: Anna +80 · Ben +200 · Carla +13 " in restored  # the deal, as played
    assert "(deal 2 became deal 3)" in restored  # deal 2 was deal 2 still: it moved down (tester 57)
    totals = restored.split("Totals", 1)[1]
    assert re.findall(r"(Anna|Ben|Carla|Dora) ", totals) == ["Anna", "Ben", "Dora"], restored


def test_restore_says_beforehand_when_the_deals_after_it_and_their_dealers_move(client, make_game, db):
    """Tester 8: deal 2 deleted, a deal added meanwhile (dealt by the player then next),
    then deal 2 restored: the added deal became deal 3, dealt by another player, with no
    word before the tap (a delete says it beforehand). The history's Restore says so while
    deals stand at or after the deleted deal's place; the last deal deleted says nothing."""
    game_id = make_game(options={"target": 1000}, deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL, SLAM])
    deals = store.get_game(db, game_id).deals
    said = ("Restored, it is deal 3 again: the deals from deal 3 on move down one place "
            "(deal 3 becomes deal 4), and so do their dealers.")
    assert client.post(f"/games/{game_id}/deals/{deals[2].id}/delete").status_code == 302
    assert "Restore" in history(client, game_id) and said not in history(client, game_id)
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)  # deal 3 now, dealt by the next dealer
    assert said in history(client, game_id)
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    answer = client.post(restore_url(page), data={"back": "history"}, follow_redirects=True)
    assert "Deal 3 restored." in text(answer), text(answer)[:3000]
    after = store.get_game(db, game_id).deals
    assert len(after) == 4 and [d.id for d in after[:3]] == [d.id for d in deals], after  # as said
    # and said afterwards, on the restore's own entry (tester 57: "Deal 3 added" below it
    # is deal 4 now, with nothing to say so)
    restored, added = entries(client, game_id)[:2]
    assert restored.startswith("Deal 3 restored") or "Deal 3 restored" in restored
    assert ("The deals after it moved down one place (deal 3 became deal 4), and so did their dealers; the "
            "changes below name them by the numbers they had then.") in restored
    assert "Deal 3 added" in added


def _restore_fields(page_html: str) -> dict[str, str]:
    """The hidden fields of the page's first Restore form, as the phone sends them."""
    form = re.search(r'<form[^>]*action="[^"]*/restore"[^>]*>(.*?)</form>', page_html, re.S).group(1)
    return {html.unescape(name): html.unescape(value) for name, value in
            re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form) if name != "csrf_token"}


def test_a_restore_from_the_flash_asks_first_when_a_deal_was_added_after_its_place_since(client, make_game, db):
    """Tester 32: deal 3 deleted on one phone, the next deal saved on another (deal 3
    then, dealt by the next dealer); the first phone's "Restore deal 3" put the old deal
    back in front of it with no word: the other phone's deal became deal 4, dealt by
    someone else. Now the Restore asks first, saying which deal moves; nothing changes
    until "Restore anyway"."""
    game_id = make_game(options={"target": 1000}, deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL, SLAM])
    third = store.get_game(db, game_id).deals[2]
    deleted = client.post(f"/games/{game_id}/deals/{third.id}/delete", follow_redirects=True)
    flash = deleted.get_data(as_text=True)
    assert "Restore deal 3" in text(deleted)
    store.add_deal(db, game_id, PLAIN_DEAL)  # another phone: deal 3 now
    before = store.get_game(db, game_id)
    changes = len(store.changes(db, game_id))
    asked = client.post(restore_url(flash), data=_restore_fields(flash))
    assert asked.status_code == 302 and asked.headers["Location"] == f"/games/{game_id}/history#restore-{third.id}"
    shown = client.get(f"/games/{game_id}/history")
    page = shown.get_data(as_text=True)
    said = re.search(rf'id="restore-{third.id}-error"[^>]*>(.*?)</p>', page, re.S)
    assert said, "the question is not beside the Restore button"
    assert html.unescape(said.group(1)) == (
        "Since this deal was deleted, deal 3 was added after its place. Restored, this deal is deal 3 "
        "again: the deals from deal 3 on move down one place (deal 3 becomes deal 4), and so do their "
        "dealers. Tap Restore anyway if it was really played before them.")
    assert "↶ Restore anyway" in text(shown)
    assert store.get_game(db, game_id) == before and len(store.changes(db, game_id)) == changes
    restored = client.post(restore_url(page), data=_restore_fields(page), follow_redirects=True)
    assert "Deal 3 restored." in text(restored)
    after = store.get_game(db, game_id).deals
    assert [d.id for d in after[:3]] == [d.id for d in before.deals[:2]] + [third.id] and len(after) == 4


def test_a_restore_from_the_flash_of_a_deal_with_only_older_deals_after_it_asks_nothing(client, make_game, db):
    """Deal 2 of 3 deleted by mistake: deal 3 was there before the delete, so putting
    deal 2 back puts every deal where it stood; nothing to ask."""
    game_id = make_game(options={"target": 1000}, deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL, SLAM])
    deals = store.get_game(db, game_id).deals
    flash = client.post(f"/games/{game_id}/deals/{deals[1].id}/delete", follow_redirects=True).get_data(as_text=True)
    restored = client.post(restore_url(flash), data=_restore_fields(flash), follow_redirects=True)
    assert "Deal 2 restored." in text(restored)
    assert store.get_game(db, game_id).deals == deals


def test_a_history_page_drawn_before_a_deal_was_added_asks_before_restoring(client, make_game, db):
    """The history's Restore says beforehand which deals move, as the game stood when the
    page was drawn; a deal added after the delete since then moves unannounced, so the
    tap asks; the page drawn again says it, and its Restore restores at once."""
    game_id = make_game(options={"target": 1000}, deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL])
    second = store.get_game(db, game_id).deals[1]
    store.delete_deal(db, game_id, second.id)
    drawn = client.get(f"/games/{game_id}/history")
    stale = drawn.get_data(as_text=True)
    assert "move down one place" not in text(drawn)  # the last deal: nothing after it to move
    store.add_deal(db, game_id, SLAM)  # another phone: deal 2 now
    asked = client.post(restore_url(stale), data=_restore_fields(stale), follow_redirects=True)
    assert "Since this deal was deleted, deal 2 was added after its place." in text(asked)
    assert [d.id for d in store.deleted_deals(db, game_id)] == [second.id]
    drawn = client.get(f"/games/{game_id}/history")
    fresh = drawn.get_data(as_text=True)
    assert "the deals from deal 2 on move down one place (deal 2 becomes deal 3)" in text(drawn)
    restored = client.post(restore_url(fresh), data=_restore_fields(fresh), follow_redirects=True)
    assert "Deal 2 restored." in text(restored)
    assert store.get_game(db, game_id).deals[1].id == second.id


def test_a_history_page_drawn_before_an_add_and_a_delete_still_asks(client, make_game, db):
    """Tester 36: deal 2 deleted (2 deals left), the history left open; another phone adds
    a deal and deletes deal 1 (2 deals again): the Restore went ahead unasked, the added
    deal moving down and its dealer with it. The page sends the game's version it was
    drawn at, not its count of deals."""
    game_id = make_game(options={"target": 1000}, deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL, SLAM])
    first, second, _third = store.get_game(db, game_id).deals
    store.delete_deal(db, game_id, second.id)
    drawn = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    form = re.search(rf'<form[^>]*id="restore-{second.id}".*?</form>', drawn, re.S).group(0)
    store.add_deal(db, game_id, OTHER_DEAL)  # another phone: deal 3
    store.delete_deal(db, game_id, first.id)  # ... and deal 1 gone: two deals, as drawn
    asked = client.post(restore_url(form), data=_restore_fields(form), follow_redirects=True)
    assert "Since this deal was deleted, deal 2 was added after its place." in text(asked)
    assert second.id in [d.id for d in store.deleted_deals(db, game_id)]


def test_the_historys_restore_hint_names_the_place_the_deal_goes_back_to_now(client, make_game, db):
    """Tester 36: deal 2 deleted and restored; deal 4 added on another phone and taken
    back: its history entry said "Restored, it is deal 4 again: … (deal 4 becomes deal
    5)", and restored it became deal 5 with nothing moved. The hint counts the deals in
    play now: back in its place it is the last deal, so nothing moves and nothing is said."""
    game_id = make_game(options={"target": 1000}, deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL, SLAM])
    second = store.get_game(db, game_id).deals[1]
    store.delete_deal(db, game_id, second.id)
    added = store.add_deal(db, game_id, OTHER_DEAL)  # deal 3 then
    store.delete_deal(db, game_id, added)  # taken back
    store.restore_deal(db, game_id, second.id)  # deal 2 again: three deals in play
    page = text(client.get(f"/games/{game_id}/history"))
    assert "Restored, it is deal 3 again" not in page and "move down one place" not in page
    assert "↶ Restore" in page  # the deal taken back can still come back, as deal 4


def test_a_restore_that_no_longer_fits_is_refused_with_the_reason_and_changes_nothing(client, make_game, db):
    king = {"contracts": ["king"], "king": {"taker": 2}}
    queens = {"contracts": ["queens"], "queens": {s: {"taker": i} for i, s in enumerate("SHDC")}}
    game_id = make_game(kind="trix", deals=[king, queens])
    first = store.get_game(db, game_id).deals[0]
    assert client.post(f"/games/{game_id}/deals/{first.id}/delete").status_code == 302
    # the King of Hearts is played again meanwhile, after the Queens
    assert client.post(f"/games/{game_id}/deals/new", data={
        "nonce": "k2", "contracts": "king", "king_taker": "1"}).status_code == 302
    before = store.get_game(db, game_id)
    changes = len(store.changes(db, game_id))
    response = client.post(f"/games/{game_id}/deals/{first.id}/restore", data={"back": "sheet"})
    # back to the history page (a GET: refreshing it sends nothing again), at that Restore button
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game_id}/history#restore-{first.id}"
    body = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    said = re.search(rf'id="restore-{first.id}-error"[^>]*>(.*?)</p>', body, re.S)
    assert said, "the reason is not beside the Restore button"
    assert html.unescape(said.group(1)) == (
        "Deal 1 cannot go back in its place: deal 3 would then no longer fit "
        "(King of Hearts has already been played in \u2068Anna\u2069's kingdom).")
    assert f'id="restore-{first.id}"' in body  # the place the redirect scrolls to
    # said once, like any message after a tap: the page shown again is the plain history
    assert "cannot go back" not in text(client.get(f"/games/{game_id}/history"))
    assert store.get_game(db, game_id) == before
    assert len(store.changes(db, game_id)) == changes
    assert [d.id for d in store.deleted_deals(db, game_id)] == [first.id]


def test_undo_then_restore_from_the_flash_without_javascript(client, make_game, db):
    game_id = make_game()
    client.post(f"/games/{game_id}/deals/new", data=WORKED_FORM)
    deal_id = store.get_game(db, game_id).deals[0].id
    undone = client.post(f"/games/{game_id}/deals/{deal_id}/delete", data={"undo": "1"}, follow_redirects=True)
    page = undone.get_data(as_text=True)
    assert "Deal 1 taken back." in text(undone) and "Restore deal 1" in text(undone)
    assert restore_url(page) == f"/games/{game_id}/deals/{deal_id}/restore"
    assert 'name="back" value="sheet"' in page
    assert len(store.get_game(db, game_id).deals) == 0
    restored = client.post(restore_url(page), data={"back": "sheet"})
    assert restored.status_code == 302 and restored.headers["Location"] == f"/games/{game_id}"
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Deal 1 restored." in sheet
    assert "Anna 80 Ben 200 Carla 13" in sheet
    assert "Restore deal 1" not in sheet  # the offer goes with its flash


def test_a_delete_offers_restore_and_says_so_beforehand(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL])
    second = store.get_game(db, game_id).deals[1]
    confirm = text(client.get(f"/games/{game_id}/deals/{second.id}/delete"))
    assert "restored from the game's history" in confirm
    deleted = text(client.post(f"/games/{game_id}/deals/{second.id}/delete", follow_redirects=True))
    assert "Deal 2 deleted." in deleted and "Restore deal 2" in deleted
    assert "↶ Restore" in history(client, game_id)


def test_a_double_tap_on_restore_restores_once(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL])
    first = store.get_game(db, game_id).deals[0]
    store.delete_deal(db, game_id, first.id)
    url = f"/games/{game_id}/deals/{first.id}/restore"
    assert client.post(url, data={"back": "history"}).status_code == 302
    again = client.post(url, data={"back": "history"}, follow_redirects=True)
    assert again.status_code == 200 and "Deal 1 restored." in text(again)  # the same answer as the first
    assert len(store.get_game(db, game_id).deals) == 2
    assert [c.action for c in store.changes(db, game_id)].count("deal_restored") == 1
    assert "↶ Restore" not in history(client, game_id)  # nothing left to restore


def test_only_the_latest_delete_of_a_deal_offers_restore(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL])
    second = store.get_game(db, game_id).deals[1]
    store.delete_deal(db, game_id, second.id)
    store.restore_deal(db, game_id, second.id)
    store.delete_deal(db, game_id, second.id)
    body = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    assert body.count("/restore\"") == 1


def test_restoring_an_unknown_deal_is_a_404(client, make_game):
    game_id = make_game()
    assert client.post(f"/games/{game_id}/deals/999/restore").status_code == 404
    assert client.get("/games/nope/history").status_code == 404
    assert client.get("/games/nope/edit").status_code == 404


# ----------------------------------------------------------------- players and settings


def test_renaming_a_player_keeps_the_deals_and_shows_on_the_sheet(client, make_game, db):
    game_id = make_game(players=["Anna", "Benny", "Carla"], deals=[WORKED_TRIGAMI_DEAL])
    other = make_game(players=["Ben", "Dora", "Emil"])  # Ben is known from another game
    form = client.get(f"/games/{game_id}/edit").get_data(as_text=True)
    assert 'value="Benny"' in form and 'value="500"' in form
    names = {"player_0": "Anna", "player_1": "  ben ", "player_2": "Carla", "target": "500"}
    asked = client.post(f"/games/{game_id}/edit", data=names)
    assert "Ben is already a player here" in text(asked)  # asked once before the seat becomes him
    response = client.post(f"/games/{game_id}/edit", data={**names, "confirm_player": "ben"},
                           follow_redirects=True)
    assert "Players renamed: \u2068Benny\u2069 → \u2068Ben\u2069." in text(response)  # as the known player is spelt
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Anna 80 Ben 200 Carla 13" in sheet  # the deal is kept; the known player's name
    game = store.get_game(db, game_id)
    assert len(game.deals) == 1 and game.players == ("Anna", "Ben", "Carla")
    seats = store.player_seats(db)
    assert seats[game_id][1] == seats[other][0]  # the same person: statistics follow him
    assert "Benny" not in store.known_players(db, groups.only_group(db).id)  # nobody is called that any more


def test_renaming_a_seat_to_another_known_player_asks_once_before_merging(client, make_game, db):
    game_id = make_game(players=["Anna", "Ben", "Dan"], deals=[WORKED_TRIGAMI_DEAL])
    other = make_game(players=["Carla", "Emil", "Frida"])  # Carla: another person, known here
    names = {"player_0": "Anna", "player_1": "Ben", "player_2": "carla", "target": "300"}
    asked = client.post(f"/games/{game_id}/edit", data=names)
    assert asked.status_code == 200
    page = asked.get_data(as_text=True)
    notice = re.search(r'id="player_2-merge"[^>]*>(.*?)</p>', page, re.S)
    assert notice, "the question is not beside Dan's seat"
    assert html.unescape(notice.group(1)) == (
        "<bdi>Carla</bdi> is already a player here: this seat will count as <bdi>Carla</bdi> in the statistics. "
        "Tap Save again to confirm.")
    assert 'value="carla"' in page and 'value="300"' in page  # what was typed is kept
    assert re.search(r'<input type="hidden" name="confirm_player" value="carla">', page)
    # nothing is saved yet: Dan is still Dan, in his own record
    game = store.get_game(db, game_id)
    assert game.players == ("Anna", "Ben", "Dan") and game.options == {"target": 500}
    assert [c.action for c in store.changes(db, game_id)] == ["game_created"]
    # Save again, with the page's confirmation: the seat is Carla, in her statistics
    saved = client.post(f"/games/{game_id}/edit", data={**names, "confirm_player": "carla"},
                        follow_redirects=True)
    assert "Players renamed: \u2068Dan\u2069 → \u2068Carla\u2069." in text(saved) and "Target 500 → 300" in text(saved)
    seats = store.player_seats(db)
    assert seats[game_id][2] == seats[other][0]
    assert "Dan" not in store.known_players(db, groups.only_group(db).id)


def test_a_confirmation_for_one_known_player_does_not_cover_another(client, make_game, db):
    game_id = make_game(players=["Anna", "Ben", "Dan"])
    make_game(players=["Carla", "Emil", "Frida"])
    asked = client.post(f"/games/{game_id}/edit", data={
        "player_0": "Anna", "player_1": "Ben", "player_2": "Emil", "target": "500", "confirm_player": "carla"})
    assert asked.status_code == 200 and "Emil is already a player here" in text(asked)
    assert store.get_game(db, game_id).players == ("Anna", "Ben", "Dan")


def test_a_new_name_makes_a_new_player_and_spelling_fixes_the_name(client, make_game, db):
    game_id = make_game(players=["anna", "Ben", "Carla"])
    client.post(f"/games/{game_id}/edit", data={
        "player_0": "Anna", "player_1": "Bernd", "player_2": "Carla", "target": "500"})
    assert store.get_game(db, game_id).players == ("Anna", "Bernd", "Carla")
    assert {"Anna", "Bernd", "Carla"} <= set(store.known_players(db, groups.only_group(db).id))


def test_a_name_respelled_says_beforehand_and_after_that_it_changes_in_every_game(client, make_game, db):
    """Tester 33: "A1" respelled "a1" in one game changed it in another game of the group
    too (the same player), with nothing said. The form says so beforehand, and the
    message after the Save names the player respelled everywhere."""
    game_id = make_game(players=["A1", "Ben", "Carla"])
    other = make_game(players=["Dora", "A1", "Emil"])
    form = text(client.get(f"/games/{game_id}/edit"))
    assert ("A name changed only in its capitals or spacing is the same player's, and changes in every "
            "game of the group.") in form
    saved = client.post(f"/games/{game_id}/edit", data={
        "player_0": "a1", "player_1": "Bernd", "player_2": "Carla", "target": "500"}, follow_redirects=True)
    said = text(saved).replace("\u2068", "").replace("\u2069", "")
    assert "Players renamed: A1 → a1, Ben → Bernd." in said
    assert "The same player, spelled anew in every game of the group: a1." in said
    assert store.get_game(db, other).players == ("Dora", "a1", "Emil")  # as said
    assert "spelled anew" not in text(client.post(f"/games/{other}/edit", data={
        "player_0": "Dora", "player_1": "a1", "player_2": "Emilia", "target": "500"}, follow_redirects=True))


def test_a_name_given_twice_is_refused_beside_its_field(client, make_game, db):
    game_id = make_game()
    response = client.post(f"/games/{game_id}/edit", data={
        "player_0": "Anna", "player_1": "ANNA", "player_2": "Carla", "target": "500"})
    assert response.status_code == 400
    errors = re.search(r'id="player_1-errors">(.*?)</ul>', response.get_data(as_text=True), re.S)
    assert errors and "named twice" in errors.group(1)
    assert store.get_game(db, game_id).players == ("Anna", "Ben", "Carla")
    assert [c.action for c in store.changes(db, game_id)] == ["game_created"]


def test_a_target_the_game_has_already_passed_is_refused_and_changes_nothing(client, make_game, db):
    game_id = make_game(deals=[SLAM, PLAIN_DEAL])  # Anna 100 after deal 1, 200 after deal 2
    response = client.post(f"/games/{game_id}/edit", data={
        "player_0": "Anna", "player_1": "Bernd", "player_2": "Carla", "target": "100"})
    assert response.status_code == 400
    errors = re.search(r'id="target-errors">(.*?)</ul>', response.get_data(as_text=True), re.S)
    assert errors and "Deal 2 would no longer fit: the game is already over" in html.unescape(errors.group(1))
    game = store.get_game(db, game_id)
    assert game.options == {"target": 500} and game.players == ("Anna", "Ben", "Carla")  # not even the name
    assert len(store.changes(db, game_id)) == 1
    # 200 is reached by deal 2, the last one: the game is then won by Anna
    assert client.post(f"/games/{game_id}/edit", data={
        "player_0": "Anna", "player_1": "Ben", "player_2": "Carla", "target": "200"}).status_code == 302
    assert "Game over — Anna won!" in text(client.get(f"/games/{game_id}"))


def test_trix_settings_change_when_every_deal_still_fits(client, make_game, db):
    doubled = {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}}
    game_id = make_game(kind="trix", deals=[doubled, {"contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}])
    form = client.get(f"/games/{game_id}/edit").get_data(as_text=True)
    assert re.search(r'id="doubling"[^>]*checked|checked[^>]*id="doubling"', form)
    names = {"player_0": "Anna", "player_1": "Ben", "player_2": "Carla", "player_3": "Dan"}
    # no doubling: deal 1 has a doubled K♥
    refused = client.post(f"/games/{game_id}/edit", data={**names, "values": "standard", "scoring": "standard"})
    assert refused.status_code == 400
    assert "Deal 1 would no longer fit" in text(refused)
    assert store.get_game(db, game_id).options["doubling"] is True
    # swapped values: diamonds −15 each (§2.5): Anna 4 × −15 = −60
    ok = client.post(f"/games/{game_id}/edit", data={**names, "doubling": "y", "values": "swapped",
                                                     "scoring": "standard"}, follow_redirects=True)
    assert "Settings changed: Values Diamonds −10, Tricks −15 → Diamonds −15, Tricks −10." in text(ok)
    assert store.get_game(db, game_id).options["values"] == "swapped"
    lines = entries(client, game_id)
    assert "Settings changed: Values Diamonds −10, Tricks −15 → Diamonds −15, Tricks −10" in lines[0]
    # Anna −40 → −60, Ben +75 −30 = 45 → 30, Carla −150 −30 = −180 → −195, Dan −30 → −45
    assert "Anna −40 → −60 Ben 45 → 30 Carla −180 → −195 Dan −30 → −45" in lines[0]


def test_a_setting_of_buttons_left_out_of_a_crafted_save_stays_as_it_is(client, make_game, db):
    """Tester 36: a players-and-settings post without ``values`` (the page always sends
    one) put Swapped values back to standard unsaid, scoring the game again. A setting
    of buttons not sent stays as it is; the names are saved."""
    game_id = make_game(kind="trix", options={"values": "swapped", "scoring": "reversed"},
                        deals=[{"contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]}])
    saved = client.post(f"/games/{game_id}/edit", data={
        "player_0": "Anna", "player_1": "Bernd", "player_2": "Carla", "player_3": "Dan", "doubling": "y"},
        follow_redirects=True)
    assert "Players renamed: Ben → Bernd." in text(saved).replace("\u2068", "").replace("\u2069", "")
    options = store.get_game(db, game_id).options
    assert options["values"] == "swapped" and options["scoring"] == "reversed"
    assert "Settings changed" not in text(saved)


def test_saving_the_same_names_and_settings_records_nothing(client, make_game, db):
    game_id = make_game()
    response = client.post(f"/games/{game_id}/edit", data={
        "player_0": "Anna", "player_1": "Ben", "player_2": "Carla", "target": "500"}, follow_redirects=True)
    assert "Nothing was changed." in text(response)
    assert len(store.changes(db, game_id)) == 1


# ----------------------------------------------------------------- CSRF


def test_restore_and_edit_without_a_csrf_token_are_refused(csrf_app):
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict

    db = connect(csrf_app.config["DATABASE"])
    game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    deal_id = store.get_game(db, game_id).deals[0].id
    store.delete_deal(db, game_id, deal_id)
    client = csrf_app.test_client()
    refused = client.post(f"/games/{game_id}/deals/{deal_id}/restore", data={"back": "history"})
    assert refused.status_code == 302 and refused.headers["Location"].endswith(f"/history#restore-{deal_id}")
    said = client.get(refused.headers["Location"]).get_data(as_text=True)
    assert re.search(rf'id="restore-{deal_id}-error"[^>]*>[^<]*Tap Restore again', said)
    assert store.get_game(db, game_id).deals == ()
    edit = client.post(f"/games/{game_id}/edit", data={
        "player_0": "Anna", "player_1": "Bernd", "player_2": "Carla", "target": "500"})
    assert edit.status_code == 400 and "tap Save again" in text(edit)
    assert 'value="Bernd"' in edit.get_data(as_text=True)  # what was typed is kept
    assert store.get_game(db, game_id).players == ("Anna", "Ben", "Carla")
    # with the pages' tokens both go through
    token = csrf_token(client.get(f"/games/{game_id}/history").get_data(as_text=True))
    assert client.post(f"/games/{game_id}/deals/{deal_id}/restore",
                       data={"back": "history", "csrf_token": token}).status_code == 302
    token = csrf_token(client.get(f"/games/{game_id}/edit").get_data(as_text=True))
    assert client.post(f"/games/{game_id}/edit", data={
        "player_0": "Anna", "player_1": "Bernd", "player_2": "Carla", "target": "500",
        "csrf_token": token}).status_code == 302
    assert store.get_game(db, game_id).players == ("Anna", "Bernd", "Carla")
    assert len(store.get_game(db, game_id).deals) == 1
    db.conn.close()


def test_the_same_form_sent_again_after_an_undo_saves_the_deal_anew(client, make_game, db):
    game_id = make_game()
    client.post(f"/games/{game_id}/deals/new", data=WORKED_FORM)
    deal_id = store.get_game(db, game_id).deals[0].id
    client.post(f"/games/{game_id}/deals/{deal_id}/delete", data={"undo": "1"})
    assert client.post(f"/games/{game_id}/deals/new", data=WORKED_FORM).status_code == 302
    game = store.get_game(db, game_id)
    assert len(game.deals) == 1 and game.deals[0].id != deal_id


def test_a_stored_deal_that_no_longer_fits_does_not_break_the_history(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    # say, a rules fix since: the store itself refuses such a deal, so it goes in by hand
    bad = {**WORKED_TRIGAMI_DEAL, "tricks": [4, 4, 4]}
    deal_id = db["deals"].insert({"game_id": game_id, "position": 1, "entry": json.dumps(bad),
                                  "created_at": "2026-11-29T20:00:00+00:00",
                                  "updated_at": "2026-11-29T20:00:00+00:00"}).last_pk
    store._record(db, game_id, "2026-11-29T20:00:00+00:00", "deal_added", deal_id=deal_id, position=1, after=bad)
    lines = entries(client, game_id)
    assert "Deal 2 added" in lines[0] and "Anna 80 → ? Ben 200 → ? Carla 13 → ?" in lines[0]
    assert "no longer fits the rules" in history(client, game_id)


def test_a_trix_contract_changed_tells_the_new_contract_whole(client, make_game, db):
    queens = {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1}, "H": {"taker": 0},
                                                  "D": {"taker": 2}, "C": {"taker": 3}}}
    game_id = make_game(kind="trix", deals=[queens])
    deal = store.get_game(db, game_id).deals[0]
    assert client.post(f"/games/{game_id}/deals/{deal.id}/edit", data={
        "contracts": "diamonds", "diamonds_0": "3", "diamonds_1": "4", "diamonds_2": "2"}).status_code == 302
    changed = entries(client, game_id)[0]
    # Queens: Anna's Q♥ −25, Dan's Q♠ doubled by Ben −50 (+25 to Ben) and Q♣ −25, Carla's Q♦
    # −25; Diamonds: −10 a diamond (SCORING.md §2.2)
    assert ("Deal 1 changed: Contract Queens → Diamonds Diamonds: \u2068Anna\u2069 3, \u2068Ben\u2069 4, "
            "\u2068Carla\u2069 2, \u2068Dan\u2069 4 Points: \u2068Anna\u2069 −25 → −30 · \u2068Ben\u2069 +25 → −40 · "
            "\u2068Carla\u2069 −25 → −20 · \u2068Dan\u2069 −75 → −40 Totals") in changed
    # Queens with Ben's Q♠ doubled and taken by Dan: −25, +25, −25, −75 (§2.2's worked example);
    # Diamonds at −10 each: −30, −40, −20, −40
    assert "Anna −25 → −30 Ben 25 → −40 Carla −25 → −20 Dan −75 → −40" in changed


def test_restoring_a_deal_that_was_entered_again_asks_before_counting_it_twice(client, make_game, db):
    # Deal 2 deleted, then typed in again by hand: restoring the old one would count the
    # same deal twice, so the history asks first (nothing changes), then restores if asked.
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL])
    second = store.get_game(db, game_id).deals[1]
    client.post(f"/games/{game_id}/deals/{second.id}/delete")
    client.post(f"/games/{game_id}/deals/new", data=PLAIN_FORM)
    assert len(store.get_game(db, game_id).deals) == 2
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    asked = client.post(restore_url(page), data={"back": "history"}, follow_redirects=True)
    assert "count that deal twice" in text(asked) and "Restore anyway" in text(asked)
    assert "Deal 2 has exactly the same entries (entered again after the delete?)" in text(asked)
    assert len(store.get_game(db, game_id).deals) == 2
    body = asked.get_data(as_text=True)
    assert 'name="again" value="1"' in body
    again = client.post(restore_url(body), data={"back": "history", "again": "1"}, follow_redirects=True)
    assert "Deal 2 restored." in text(again)
    assert len(store.get_game(db, game_id).deals) == 3


def test_a_deal_entered_again_that_cannot_go_back_says_why_at_once_not_restore_anyway(client, make_game, db):
    """Tester 62: in Trix, deal 1 (King of Hearts, Carla took it) deleted, then the same
    King of Hearts typed in again as deal 2: the history's Restore asked "Restore
    anyway?", and that was then refused, the King of Hearts being played twice in Anna's
    kingdom (SCORING.md §2: each contract once a kingdom). The refusal comes at the first
    tap, with one stop ("kingdom.)." before); nothing changes."""
    king = {"contracts": ["king"], "king": {"taker": 2}}
    queens = {"contracts": ["queens"], "queens": {s: {"taker": i} for i, s in enumerate("SHDC")}}
    game_id = make_game(kind="trix", deals=[king, queens])
    first = store.get_game(db, game_id).deals[0]
    assert client.post(f"/games/{game_id}/deals/{first.id}/delete").status_code == 302
    store.add_deal(db, game_id, king)  # typed in again by hand
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    asked = text(client.post(restore_url(page), data={"back": "history"}, follow_redirects=True))
    assert "Restore anyway" not in asked and "count that deal twice" not in asked
    # back in its place, deal 1 comes before the King of Hearts typed again, now deal 3
    assert ("Deal 1 cannot go back in its place: deal 3 would then no longer fit (King of Hearts has already "
            "been played in \u2068Anna\u2069's kingdom).") in asked, asked
    assert [d.entry for d in store.get_game(db, game_id).deals] == [queens, king]


def test_restoring_a_deal_like_an_earlier_one_does_not_guess_it_was_entered_again(client, make_game, db):
    """The tester's case: deal 3 had the very entries of deal 1, which was never deleted;
    deal 3 deleted, its Restore asks first, without supposing deal 1 was typed in again
    after the delete (it was there before)."""
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, PLAIN_DEAL, WORKED_TRIGAMI_DEAL])
    third = store.get_game(db, game_id).deals[2]
    client.post(f"/games/{game_id}/deals/{third.id}/delete")
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    asked = text(client.post(restore_url(page), data={"back": "history"}, follow_redirects=True))
    assert "Deal 1 has exactly the same entries: if it is this deal, restoring would count it twice." in asked
    assert "entered again after the delete" not in asked and "Restore anyway" in asked
    assert len(store.get_game(db, game_id).deals) == 2
