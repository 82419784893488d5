"""Deleting a game and restoring it (issue 18, part 1): the store, the actions and the
pages. A deleted game leaves every list, statistic, player's count and group file at
once, keeps its deals and history, and comes back whole.

The counts expected are worked out by hand from the games made here: "won" is five
deals of Anna taking all 13 tricks and 10 bugs under spades, 100 points each (SCORING.md
§1.2: 13 tricks + 10 bugs × … as tests/test_web.py's finished game), so 500 ends it and
Anna wins; "mistake" has no deal.
"""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper import actions, history, stats, store, summaries
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.race_support import form_fields
from tests.test_gamefile import TRIX_KINGDOM
from tests.test_transfer import upload
from tests.test_web import trigami_form

WON = [{"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [13, 0, 0], "bugs": [10, 0, 0]}] * 5


def text(response) -> str:
    body = re.sub(r"</?bdi>", "", response.get_data(as_text=True))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"[\u2066-\u2069]", "", body))).split())


@pytest.fixture
def season(db):
    """(group id, {name: game id}): a finished game Anna won (Anna, Ben, Carla) and a
    game started by mistake (Anna, Ben, Dora), in the only group."""
    won = store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"], deals=WON)))
    mistake = store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Dora"])))
    group = db.execute("select group_id from games where id = ?", [won]).fetchone()[0]
    return group, {"won": won, "mistake": mistake}


def _records(db, group: int) -> dict[str, tuple[int, int, int]]:
    """{name: (played, finished, won)} as the players list shows them."""
    return {r.name: (r.played, r.finished, r.won) for r in summaries.records(db, group)}


def _listed(db, group: int) -> set[str]:
    return {g.id for g in summaries.find(db, group=group, size=100).games}


# ---------------------------------------------------------------- store and summaries


def test_a_deleted_game_leaves_every_list_and_count_and_comes_back_whole(db, season):
    group, games = season
    assert _records(db, group) == {"Anna": (2, 1, 1), "Ben": (2, 1, 0), "Carla": (1, 1, 0), "Dora": (1, 0, 0)}
    before = store.get_game(db, games["won"])

    store.delete_game(db, games["won"])
    # Anna, Ben: the mistake only (not finished); Carla sat in no other game: off the list
    assert _records(db, group) == {"Anna": (1, 0, 0), "Ben": (1, 0, 0), "Dora": (1, 0, 0)}
    assert _listed(db, group) == {games["mistake"]}
    assert [g.id for g in store.list_games(db, group)] == [games["mistake"]]
    assert [g.id for g in store.list_games(db)] == [games["mistake"]]
    assert set(store.player_seats(db, group)) == {games["mistake"]}
    anna = next(pid for pid, name in store.player_names(db, group).items() if name == "Anna")
    page = summaries.player_stats(db, anna, store.player_names(db, group))
    assert (page.played.value, page.finished.value, page.won.value) == (1, 0, 0)
    # the statistics counted from the games themselves agree with the kept figures
    counted = stats.player_stats(stats.seat_games(store.list_games(db, group), store.player_seats(db, group)),
                                 anna, store.player_names(db, group))
    assert (counted.played.value, counted.finished.value, counted.won.value) == (1, 0, 0)
    with pytest.raises(store.GameDeletedError) as gone:
        store.get_game(db, games["won"])
    assert gone.value.game.deleted_at is not None and len(gone.value.game.deals) == 5
    assert store.live_state(db, games["won"]) is None and store.sheet_version(db, games["won"]) is None
    assert [g.id for g in store.deleted_games(db, group)] == [games["won"]]

    restored = store.restore_game(db, games["won"]).game
    assert restored.deals == before.deals and restored.players == before.players
    assert restored.deleted_at is None
    assert _records(db, group) == {"Anna": (2, 1, 1), "Ben": (2, 1, 0), "Carla": (1, 1, 0), "Dora": (1, 0, 0)}
    assert _listed(db, group) == {games["won"], games["mistake"]}
    assert store.deleted_games(db, group) == []
    page = summaries.player_stats(db, anna, store.player_names(db, group))
    assert (page.played.value, page.finished.value, page.won.value) == (2, 1, 1)


def test_a_deleted_game_takes_no_deal_no_change_and_no_delete_of_a_deal(db, season):
    _, games = season
    store.delete_game(db, games["mistake"])
    version = store.game_version(db, games["mistake"])
    with pytest.raises(store.NotFoundError):
        store.add_deal(db, games["mistake"], WORKED_TRIGAMI_DEAL)
    with pytest.raises(store.NotFoundError):
        store.update_game(db, games["mistake"], players=["Anna", "Ben", "Eve"])
    assert store.game_version(db, games["mistake"]) == version  # nothing written
    assert db.execute("select count(*) from deals where game_id = ?", [games["mistake"]]).fetchone()[0] == 0


def test_deleting_twice_deletes_once_and_says_so(db, season):
    _, games = season
    first = actions.delete_game(db, games["mistake"])
    second = actions.delete_game(db, games["mistake"])
    assert isinstance(first, actions.GameDeleted) and not first.again
    assert isinstance(second, actions.GameDeleted) and second.again
    assert second.game.deleted_at == first.game.deleted_at
    assert [c.action for c in store.changes(db, games["mistake"])] == ["game_deleted", "game_created"]
    assert actions.delete_game(db, "no-such-game") == actions.NoSuchGame()


def test_restoring_twice_restores_once_and_says_so(db, season):
    _, games = season
    actions.delete_game(db, games["won"])
    first = actions.restore_game(db, games["won"])
    second = actions.restore_game(db, games["won"])
    assert isinstance(first, actions.GameRestored) and not first.again
    assert isinstance(second, actions.GameRestored) and second.again
    assert [c.action for c in store.changes(db, games["won"])][:2] == ["game_restored", "game_deleted"]
    assert actions.restore_game(db, "no-such-game") == actions.NoSuchGame()


def test_the_history_records_the_delete_and_the_restore(db, season):
    _, games = season
    store.delete_game(db, games["won"])
    store.restore_game(db, games["won"])
    game = store.get_game(db, games["won"])
    told = history.build(game, store.changes(db, game.id), store.deleted_deals(db, game.id))
    titles = [e.title for e in told.entries]
    assert titles[:2] == ["Game restored", "Game deleted"] and titles[-1] == "Game started"
    # neither changed a total: Anna 500 before and after both
    assert told.entries[0].totals_before == told.entries[0].totals_after == (500, 0, 0)


def test_a_deleted_game_does_not_ask_before_the_same_start_and_is_not_a_twin(db, season):
    group, games = season
    store.delete_game(db, games["mistake"])
    again = from_dict(game_file(players=["Anna", "Ben", "Dora"]))
    assert store.just_started(db, again, group, since="2000-01-01T00:00:00+00:00") is None
    assert store.identical_game(db, again.to_dict(), group) is None
    assert store.last_players(db, "trigami", group) == ["Anna", "Ben", "Carla"]


def test_the_summaries_of_a_deleted_game_stay_forgotten_on_start_up(db, season):
    group, games = season
    store.delete_game(db, games["won"])
    assert summaries.refresh_stale(db) == 0
    assert _records(db, group)["Anna"] == (1, 0, 0)


def test_a_deleted_game_imported_again_stays_deleted_so_it_never_counts_twice(db, season):
    """The group file imported again after a delete stores the game anew; restoring the
    deleted one too would count that game twice for each of its players."""
    group, games = season
    store.delete_game(db, games["won"])
    copy = store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"], deals=WON)), group_id=group)
    assert _records(db, group) == {"Anna": (2, 1, 1), "Ben": (2, 1, 0), "Carla": (1, 1, 0), "Dora": (1, 0, 0)}

    refused = actions.restore_game(db, games["won"])
    assert isinstance(refused, actions.TwinInPlay) and refused.twin == copy
    assert store.is_deleted(db, games["won"])
    assert _records(db, group) == {"Anna": (2, 1, 1), "Ben": (2, 1, 0), "Carla": (1, 1, 0), "Dora": (1, 0, 0)}
    assert "game_restored" not in {c.action for c in store.changes(db, games["won"])}


def test_restore_of_a_game_imported_again_opens_the_copy_and_says_why(client, db, season):
    group, games = season
    client.post(f"/games/{games['won']}/delete")
    copy = store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"], deals=WON)), group_id=group)
    answer = client.post(f"/games/{games['won']}/restore")
    assert answer.status_code == 302 and answer.location == f"/games/{copy}"
    said = text(client.get(answer.location))
    assert ("Trigami with Anna, Ben, Carla stays deleted: the game shown here has the same players, settings "
            "and deals") in said and "would count the same game twice" in said
    assert "Anna: 2 games" in client.get("/players").get_data(as_text=True)
    assert store.is_deleted(db, games["won"])


def test_restore_of_a_game_imported_again_and_played_on_since_stays_deleted(client, db, make_game):
    """Tester 5 (stop 31): a game deleted, its file imported again and a deal added to the
    new copy: "Restore" put the old one back beside it, and its players counted 5 games
    instead of 4. The same game played on since is the same game: it stays deleted, and
    the page says so; and a deleted game longer than the copy in play stays deleted too."""
    first = [WORKED_TRIGAMI_DEAL]
    old = make_game(deals=first)
    assert client.post(f"/games/{old}/delete").status_code == 302
    copy = store.create_game(db, from_dict(game_file(deals=first)))
    store.add_deal(db, copy, {**WORKED_TRIGAMI_DEAL, "tricks": [5, 4, 4]})  # played on since
    answer = client.post(f"/games/{old}/restore")
    assert answer.status_code == 302 and answer.location == f"/games/{copy}"
    said = text(client.get(answer.location)).replace("\u2068", "").replace("\u2069", "")
    assert ("Trigami with Anna, Ben, Carla stays deleted: the game shown here is the same game, played on "
            "since on one side (imported again?), so restoring the deleted one would count it twice.") in said
    assert store.is_deleted(db, old)
    # the other way round: the copy in play, an older file of it imported, has fewer deals
    longer = make_game(players=["Dora", "Eve", "Finn"], deals=[*first, WORKED_TRIGAMI_DEAL])
    assert client.post(f"/games/{longer}/delete").status_code == 302
    store.create_game(db, from_dict(game_file(players=["Dora", "Eve", "Finn"], deals=first)), imported=True)
    client.post(f"/games/{longer}/restore")
    assert store.is_deleted(db, longer)


def test_a_new_game_whose_deals_begin_as_an_older_games_comes_back_with_its_undo(client, db, make_game):
    """Tester 33 (HIGH): last week's Trix game (Anna, Ben, Carla, Dan) began with the King
    of Hearts doubled by Ben and taken by Carla; tonight's game, the same players, began
    the same. Tonight's game deleted, its Undo opened last week's game, "stays deleted:
    … the same game, played on since", and "Deleted games" offered no Restore. A game in
    play before the delete is a game of its own, however its deals begin: only one that
    came after the delete (its file imported again) keeps a deleted game deleted."""
    king = {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}}
    queens = {"contracts": ["queens"], "queens": {s: {"taker": i} for i, s in enumerate("SHDC")}}
    last_week = make_game(kind="trix", deals=[king, queens])
    db.execute("update games set created_at = ? where id = ?", ["2026-11-29T19:30:00+00:00", last_week])
    db.conn.commit()
    tonight = make_game(kind="trix", deals=[king])
    assert client.post(f"/games/{tonight}/delete").status_code == 302
    page = client.get("/games/deleted").get_data(as_text=True)
    assert f'action="/games/{tonight}/restore"' in page and "Open the one in play" not in text(client.get("/games/deleted"))
    undo = client.post(f"/games/{tonight}/restore")
    assert undo.status_code == 302 and undo.location == f"/games/{tonight}"
    assert "Trix with Anna, Ben, Carla, Dan restored." in text(client.get(undo.location))
    assert not store.is_deleted(db, tonight) and not store.is_deleted(db, last_week)
    # the same game's file imported again after the delete still keeps the deleted one deleted
    assert client.post(f"/games/{tonight}/delete").status_code == 302
    copy = store.create_game(db, from_dict(game_file(kind="trix", deals=[king])))
    answer = client.post(f"/games/{tonight}/restore")
    assert answer.location == f"/games/{copy}" and store.is_deleted(db, tonight)


def test_a_game_started_since_whose_deals_begin_the_deleted_games_does_not_keep_it_deleted(client, db, make_game):
    """Tester 36 (HIGH): a Trix game of seven deals (Hana, Ivo, Jan, Kai; deal 1 the King
    of Hearts taken by Jan) deleted; a new game started by hand with the same players,
    whose deal 1 was the same: "Deleted games" offered no Restore ("the same game is in
    play"), and Restore refused. A game started since, shorter, whose deals begin the
    deleted game's, is a game of its own; only an older file of it, imported, is a copy."""
    players = ["Hana", "Ivo", "Jan", "Kai"]
    king = {"contracts": ["king"], "king": {"taker": 2}}
    queens = {"contracts": ["queens"], "queens": {s: {"taker": i} for i, s in enumerate("SHDC")}}
    old = make_game(kind="trix", players=players, deals=[king, queens])
    assert client.post(f"/games/{old}/delete").status_code == 302
    new = store.create_game(db, from_dict(game_file(kind="trix", players=players, deals=[king])))  # by hand
    page = client.get("/games/deleted").get_data(as_text=True)
    assert f'action="/games/{old}/restore"' in page
    answer = client.post(f"/games/{old}/restore")
    assert answer.location == f"/games/{old}" and not store.is_deleted(db, old)
    assert not store.is_deleted(db, new)


def test_deleted_games_offer_the_game_in_play_instead_of_a_restore_that_cannot_work(client, db, make_game):
    """Tester 6 (LOW): a game deleted, then its file imported again and played on: "Deleted
    games" went on offering "↶ Restore", which can only ever open the copy in play. It
    now says the same game is in play and links to it; a deleted game with no copy in
    play keeps its Restore."""
    first = [WORKED_TRIGAMI_DEAL]
    old = make_game(deals=first)
    alone = make_game(players=["Dora", "Eve", "Finn"], deals=first)
    for game_id in (old, alone):
        assert client.post(f"/games/{game_id}/delete").status_code == 302
    copy = store.create_game(db, from_dict(game_file(deals=first)))
    store.add_deal(db, copy, {**WORKED_TRIGAMI_DEAL, "tricks": [5, 4, 4]})  # played on since
    client.get("/games/deleted")  # the delete's own message, with its Undo, is shown once
    page = client.get("/games/deleted").get_data(as_text=True)
    assert page.count('action="/games/' + old + '/restore"') == 0
    assert page.count('action="/games/' + alone + '/restore"') == 1
    assert f'href="/games/{copy}"' in page
    said = text(client.get("/games/deleted"))
    assert said.count("The same game is in play (imported again, or played on since): it stays deleted, "
                      "so as not to count twice.") == 1
    assert said.count("Open the one in play") == 1


def _start_trix(client, *, another: bool = False):
    """Start Trix for Anna, Bernd, Chris, Dora on the new-game page, as a phone does:
    the form as the page gives it, the names typed in; ``another``: the "Start another"
    of the page that asks before a second Start of one game, sent as that page has it."""
    fields = form_fields(client.get("/games/new?kind=trix").get_data(as_text=True))
    fields.update({"player_0": "Anna", "player_1": "Bernd", "player_2": "Chris", "player_3": "Dora",
                   "first_dealer": "0"})
    answer = client.post("/games/new?kind=trix", data=fields)
    if not another:
        return answer
    asked = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "Start another" in text(answer)
    return client.post("/games/new?kind=trix", data=form_fields(asked))


def test_restoring_a_deleted_start_another_restores_it_beside_its_twin_and_says_so(client, db):
    """The tester's steps: Start, Back, Start again, "Start another" (two empty Trix games
    of the same players, started on purpose); delete the second, restore it from Deleted
    games. Two games the group wanted: it comes back, and the phone is told the other is
    there too; nothing is counted twice, because nothing was played."""
    first = _start_trix(client).location.rsplit("/", 1)[1]
    second = _start_trix(client, another=True).location.rsplit("/", 1)[1]
    assert first != second
    client.post(f"/games/{second}/delete")
    listed = client.get("/games/deleted").get_data(as_text=True)
    assert f"/games/{second}/restore" in listed

    answer = client.post(f"/games/{second}/restore", data=form_fields(listed, f"/games/{second}/restore"))
    assert answer.status_code == 302 and answer.location == f"/games/{second}"
    landed = client.get(answer.location)
    said = text(landed)
    # in the sheet's bar, whole: a message saying why is never cut to three lines
    assert re.search(r'class="flash flash-told"[^>]*>Trix with', landed.get_data(as_text=True))
    assert "Trix with Anna, Bernd, Chris, Dora restored." in said
    assert "Another game with the same players and settings and no deal yet is in the list too" in said
    assert not store.is_deleted(db, second)
    home = client.get("/").get_data(as_text=True)
    assert f"/games/{first}" in home and f"/games/{second}" in home
    assert "No deleted games." in text(client.get("/games/deleted"))
    assert "Anna: 2 games" in client.get("/players").get_data(as_text=True)


def test_restore_on_the_deleted_games_own_page_of_an_empty_twin_restores_it(client, db):
    """"Restore this game" on the deleted game's own page: the same answer."""
    first = _start_trix(client).location.rsplit("/", 1)[1]
    second = _start_trix(client, another=True).location.rsplit("/", 1)[1]
    client.post(f"/games/{first}/delete")  # the first one, this time
    own = client.get(f"/games/{first}")
    assert own.status_code == 410 and "Restore this game" in text(own)
    answer = client.post(f"/games/{first}/restore",
                         data=form_fields(own.get_data(as_text=True), f"/games/{first}/restore"))
    assert answer.location == f"/games/{first}"
    said = text(client.get(answer.location))
    assert "restored." in said and "no deal yet is in the list too" in said
    assert not store.is_deleted(db, first) and not store.is_deleted(db, second)


def test_a_played_game_whose_twin_with_the_same_deals_is_in_play_stays_deleted_and_says_so(client, db):
    """The group file imported again after a delete: the copy has the same deal; the
    deleted one stays deleted and the page it lands on (the copy) says so in words."""
    first = _start_trix(client).location.rsplit("/", 1)[1]
    store.add_deal(db, first, TRIX_KINGDOM[0])
    file = client.get(f"/games/{first}/game.json").get_data()
    client.post(f"/games/{first}/delete")
    imported = upload(client, file)
    assert imported.status_code == 302
    copy = imported.location.rsplit("/", 1)[1]

    listed = client.get("/games/deleted").get_data(as_text=True)
    answer = client.post(f"/games/{first}/restore", data=form_fields(listed, f"/games/{first}/restore"))
    assert answer.status_code == 302 and answer.location == f"/games/{copy}"
    landed = client.get(answer.location)
    said = text(landed)
    assert re.search(r'class="flash flash-told"[^>]*>Trix with', landed.get_data(as_text=True))
    assert ("Trix with Anna, Bernd, Chris, Dora stays deleted: the game shown here has the same players, "
            "settings and deals") in said and "would count the same game twice" in said
    assert store.is_deleted(db, first)
    assert "Anna: 1 game" in client.get("/players").get_data(as_text=True)


# ---------------------------------------------------------------- pages


def test_the_message_after_a_delete_counts_the_games_deals_to_tell_look_alikes_apart(client, db, season):
    """Tester 36: "Trigami with Anna, Ben, Carla deleted." said nothing of which of two
    games of the same players went; the message counts its deals, as its page did."""
    _, games = season
    store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"], deals=WON[:2])))
    client.post(f"/games/{games['won']}/delete")
    assert f"Trigami with Anna, Ben, Carla ({len(WON)} deals) deleted." in text(client.get("/"))


def test_delete_asks_once_naming_the_game_then_undo_brings_it_back(client, db, season):
    _, games = season
    ask = client.get(f"/games/{games['mistake']}/delete")
    said = text(ask)
    assert ask.status_code == 200
    assert "Delete this game?" in said and "Trigami" in said and "Anna, Ben, Dora" in said
    assert "Started" in said and "No deals yet" in said
    assert store.get_game(db, games["mistake"])  # asking deletes nothing

    done = client.post(f"/games/{games['mistake']}/delete")
    assert done.status_code == 302 and done.location == "/"
    home = client.get("/")
    said = text(home)
    assert "Trigami with Anna, Ben, Dora (no deals yet) deleted." in said and "Undo" in said
    assert games["mistake"] not in home.get_data(as_text=True).replace(f"/games/{games['mistake']}/restore", "")
    players = text(client.get("/players"))
    assert "Dora" not in players and "Anna: 1 game" in client.get("/players").get_data(as_text=True)

    undo = client.post(f"/games/{games['mistake']}/restore")
    assert undo.location == f"/games/{games['mistake']}"
    assert "Trigami with Anna, Ben, Dora restored." in text(client.get(undo.location))
    assert games["mistake"] in client.get("/").get_data(as_text=True)
    assert "Anna: 2 games" in client.get("/players").get_data(as_text=True)


def test_an_imported_game_is_named_by_its_import_where_it_is_deleted(client, db):
    """Tester 36: the delete page and "Deleted games" said "Started …" of an imported game,
    dated by its import (a game file holds no date): they say "Imported …", as the games
    list does; a game started here says "Started …"."""
    imported = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])), imported=True)
    started = store.create_game(db, from_dict(game_file(players=["Dora", "Eve", "Finn"])))
    assert "Imported" in text(client.get(f"/games/{imported}/delete"))
    assert "Started" in text(client.get(f"/games/{started}/delete"))
    for game_id in (imported, started):
        assert client.post(f"/games/{game_id}/delete").status_code == 302
    listed = text(client.get("/games/deleted"))
    assert listed.count("Imported") == 1 and listed.count("Started") == 1


def test_a_deleted_games_own_address_says_so_with_restore(client, db, season):
    _, games = season
    client.post(f"/games/{games['won']}/delete")
    for path in ("", "/history", "/deals/new", "/edit", "/game.json"):
        page = client.get(f"/games/{games['won']}{path}")
        assert page.status_code == 410, path
        said = text(page)
        assert "This game was deleted" in said and "Restore this game" in said and "Anna, Ben, Carla" in said
    live = client.get(f"/games/{games['won']}/live")
    assert live.status_code == 410 and live.get_json()["deleted"] is True
    again = client.post(f"/games/{games['won']}/delete")  # another phone deletes it too
    assert "was deleted already" in text(client.get(again.location))
    listed = client.get("/games/deleted")
    assert "Deleted games" in text(listed) and f"/games/{games['won']}/restore" in listed.get_data(as_text=True)
    assert "/games/deleted" in client.get("/group").get_data(as_text=True)
    client.post(f"/games/{games['won']}/restore")
    sheet = client.get(f"/games/{games['won']}")
    assert sheet.status_code == 200 and "Game over" in text(sheet)
    told = text(client.get(f"/games/{games['won']}/history"))
    assert told.index("Game restored") < told.index("Game deleted")
    assert "No deleted games." in text(client.get("/games/deleted"))
    restored_again = client.post(f"/games/{games['won']}/restore")
    assert "was restored already" in text(client.get(restored_again.location))


def test_a_read_only_link_can_neither_delete_nor_restore(app, db, season):
    from scorekeeper import groups

    group, games = season
    store.delete_game(db, games["mistake"])
    viewer = app.test_client(join=groups.view_link(db, group))
    page = viewer.get(f"/games/{games['mistake']}")
    assert page.status_code == 410 and "This game was deleted" in text(page)
    assert "Restore" not in text(page)
    assert viewer.get(f"/games/{games['won']}/delete").status_code == 403
    assert viewer.post(f"/games/{games['won']}/delete").status_code == 403
    assert viewer.post(f"/games/{games['mistake']}/restore").status_code == 403
    assert viewer.get("/games/deleted").status_code == 403
    assert "Delete this game" not in text(viewer.get(f"/games/{games['won']}"))
    assert store.is_deleted(db, games["mistake"]) and not store.is_deleted(db, games["won"])


def test_the_sheet_offers_delete_this_game(client, season):
    _, games = season
    sheet = client.get(f"/games/{games['won']}").get_data(as_text=True)
    assert f'href="/games/{games["won"]}/delete"' in sheet and "Delete this game" in sheet


def test_m011_keeps_every_game_in_play_and_lets_it_be_deleted(tmp_path):
    from scorekeeper.db import migrate
    from scorekeeper.migrations import migrations

    db = connect(str(tmp_path / "old.sqlite3"))
    try:
        migrations.apply(db, stop_before="m011_deleted_games")
        assert "deleted_at" not in db.table("games").columns_dict
        game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
        db.conn.commit()
        migrate(db)
        assert "deleted_at" in db.table("games").columns_dict
        assert [g.id for g in store.list_games(db)] == [game_id]
        assert store.get_game(db, game_id).deleted_at is None
        store.delete_game(db, game_id)
        assert store.list_games(db) == []
    finally:
        db.conn.close()


# ---------------------------------------------------------------- two phones at once


def test_two_phones_deleting_one_game_at_once_delete_it_once_and_both_are_told(race_server):
    """Two phones tap "Delete game" on one game at the same instant (the real server, CSRF
    on), five rounds: one "game_deleted", both answered with the games list, one told it
    was deleted, the other that it was deleted already; then a double tap on Undo brings
    it back once."""
    from functools import partial

    from tests.race_support import assert_race_invariants, at_once, changes, statuses

    for round_ in range(1, 6):
        what = f"round {round_}: "
        # a game of its own each round, so that each round's counts are its own
        game_id = race_server.store_game(players=["Anna", "Ben", f"Carla {round_}"], deals=WON[:2])
        a, b = race_server.phone(), race_server.phone()
        path = f"/games/{game_id}/delete"
        forms = [a.form(path), b.form(path)]
        replies = at_once(partial(a.post, path, forms[0]), partial(b.post, path, forms[1]))
        assert all(r.redirects_to("/") for r in replies), f"{what}{statuses(replies)}"
        with race_server.db() as db:
            assert len(changes(db, game_id, "game_deleted")) == 1, f"{what}{statuses(replies)}"
            assert store.is_deleted(db, game_id)
            assert game_id not in {g.id for g in summaries.find(db, size=100).games}
        told = sorted("already" in phone.get("/").text for phone in (a, b))
        assert told == [False, True], f"{what}both phones were told the same"
        assert_race_invariants(race_server, replies, what)

        undo = f"/games/{game_id}/restore"
        token = {"csrf_token": a.form("/games/deleted")["csrf_token"]}
        undone = at_once(partial(a.post, undo, token), partial(a.post, undo, token))
        assert all(r.redirects_to(f"/games/{game_id}") for r in undone), f"{what}{statuses(undone)}"
        with race_server.db() as db:
            assert len(changes(db, game_id, "game_restored")) == 1, f"{what}{statuses(undone)}"
            assert len(store.get_game(db, game_id).deals) == 2
            assert game_id in {g.id for g in summaries.find(db, size=100).games}
        assert_race_invariants(race_server, undone, what)


def test_the_command_line_neither_exports_nor_counts_a_deleted_game(app, db, season):
    from click.testing import CliRunner

    from scorekeeper.cli import main

    _, games = season
    store.delete_game(db, games["mistake"])
    env = {"SCOREKEEPER_DATABASE": app.config["DATABASE"], "SCOREKEEPER_SECRET_KEY": "test"}
    exported = CliRunner(env=env).invoke(main, ["export", games["mistake"]])
    assert exported.exit_code == 1 and "was deleted" in exported.stderr and "Deleted games" in exported.stderr
    listed = CliRunner(env=env).invoke(main, ["groups"])
    assert listed.exit_code == 0 and "(1 game" in listed.output, listed.output


def test_a_game_after_a_seat_change_is_named_by_who_sits_now_and_its_win_by_the_seat(client, db):
    """Dora took Carla's seat from deal 2 (GAME-FILE.md, seat_changes): the score sheet
    names Dora, and so do the delete page, the message after it, the deleted games (and
    their Restore), and the history's "Game over" for a win of that seat (points and wins
    stay with the seat, SCORING.md; the seat's player now is Dora)."""
    # Carla's seat takes all 13 tricks and 10 bugs under spades five times: 100 a deal,
    # 500 after deal 5 (as WON, for the third seat)
    wins = [{"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [0, 0, 13], "bugs": [0, 0, 10]}] * 5
    data = {**game_file(players=["Anna", "Ben", "Carla"], deals=wins[:4]),
            "seat_changes": [{"from_deal": 2, "seat": 2, "player": "Dora"}]}
    game_id = store.create_game(db, from_dict(data))
    form = trigami_form(["S", "S", "S"], ["0", "0", "13"], ["0", "0", "10"], nonce="fifth")
    assert client.post(f"/games/{game_id}/deals/new", data=form).status_code == 302
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Game over — Dora won!" in sheet
    told = text(client.get(f"/games/{game_id}/history"))
    assert "Game over — Dora won!" in told and "Carla won" not in told
    assert "History · Anna, Ben, Dora" in told and "Trigami · Anna, Ben, Dora · newest first" in told

    # every page about the game is titled by who sits now, as the sheet is
    for page in ("edit", "explain/2", "explain/total?seat=2", "explain/dealer"):
        title = re.search(r"<title>(.*?)</title>", client.get(f"/games/{game_id}/{page}").get_data(as_text=True), re.S)
        assert title and re.sub(r"[\u2066-\u2069]", "", html.unescape(title[1])).endswith("Anna, Ben, Dora"), (page, title)
    ask = text(client.get(f"/games/{game_id}/delete"))
    assert "Anna, Ben, Dora" in ask and "Carla" not in ask, ask
    done = client.post(f"/games/{game_id}/delete", follow_redirects=True)
    assert "Trigami with Anna, Ben, Dora" in text(done)
    listed = client.get("/games/deleted").get_data(as_text=True)
    assert "Restore: Trigami with Anna, Ben, Dora" in html.unescape(re.sub(r"[\u2066-\u2069]", "", listed))
    assert "Anna, Ben, Dora" in text(client.get("/games/deleted"))
