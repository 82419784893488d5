"""A club night started by mistake is deleted with its tables' games, and restored whole
(docs/club-nights.md, "Deleting a night"): the night leaves the nights list, the season
and every player's count of games; its tables' games leave the games list and the
deleted games (they come back with their night alone); a second delete or restore is
harmless and said; two phones deleting at once delete it once.

The night: NINE players at Trigami to 100 (three tables), table 1's game ended by one
deal of SCORING.md §1.2 (7 clean tricks 140, 6 clean tricks 120, no trick 50)."""

from __future__ import annotations

from functools import partial

import pytest

from scorekeeper import groups, night_actions, night_store, store, summaries
from tests.race_support import assert_race_invariants, at_once, changes, form_fields, statuses
from tests.test_nights import NINE, fixed_seed, night, play_trigami, start, text  # noqa: F401 - a fixture


@pytest.fixture
def mistaken(client, db, fixed_seed):  # noqa: F811 - the fixture imported above
    """A night of nine with table 1's game played to its end: (night id, its tables' game ids)."""
    night_id = start(client, "trigami", NINE, 2)
    tables = night(db, night_id).current.tables
    first = tables[0].game
    play_trigami(client, first.id, first.players, list(first.players), "table-1")
    return night_id, [table.game.id for table in tables]


def played(db) -> dict[str, int]:
    return {r.name: r.played for r in summaries.records(db, groups.only_group(db).id)}


def test_a_night_started_by_mistake_is_deleted_with_its_tables_and_restored_whole(client, db, mistaken):
    night_id, games = mistaken
    before = played(db)
    assert set(before) == set(NINE) and all(count == 1 for count in before.values())
    season = text(client.get("/season"))

    asked = client.get(f"/nights/{night_id}/delete")
    assert asked.status_code == 200
    page = text(asked)
    assert "Delete this night?" in page and "Its 3 tables' games go with it (deals entered: 1)." in page
    assert "Nothing is lost: restore it whole from “Deleted nights” on the Club nights page." in page
    assert "Delete this night" in text(client.get(f"/nights/{night_id}"))  # offered on the night's page

    deleted = client.post(f"/nights/{night_id}/delete")
    assert deleted.status_code == 302 and deleted.location.endswith("/nights#deleted-head")
    listed = text(client.get("/nights"))
    assert "deleted, with its tables' games. Restore it below if that was a mistake." in listed
    assert "Deleted nights" in listed and "No club nights yet." in listed
    # its pages say it is deleted, with Restore (tester 5, stop 31: a page titled "Not found"
    # read as if the night were lost): gone (410), not unknown (404)
    gone = client.get(f"/nights/{night_id}")
    assert gone.status_code == 410
    assert "This night was deleted" in text(gone) and f'action="/nights/{night_id}/restore"' in gone.get_data(
        as_text=True)
    assert client.get(f"/nights/{night_id}/standing").status_code == 410
    assert night_store.list_nights(db, groups.only_group(db).id) == []
    # every game of it, and every count of it, gone with it
    assert [g.id for g in store.list_games(db)] == []
    assert played(db) == {}
    assert all(name not in text(client.get("/season")) for name in NINE)
    assert "Bruno" in season or "Aino" in season  # (the season did list them before)
    # a table's game says where it went, and is not restored alone
    gone = client.get(f"/games/{games[0]}")
    assert gone.status_code == 410
    assert "It is table 1 of round 1 of a club night that was deleted" in text(gone)
    assert "Restore this game" not in text(gone)
    assert games[0] not in client.get("/games/deleted").get_data(as_text=True)
    alone = client.post(f"/games/{games[0]}/restore", follow_redirects=True)
    assert "it comes back with its night" in text(alone)
    assert store.list_games(db) == []

    restored = client.post(f"/nights/{night_id}/restore", follow_redirects=True)
    assert "restored, with its tables' games." in text(restored)
    assert client.get(f"/nights/{night_id}").status_code == 200
    assert sorted(g.id for g in store.list_games(db)) == sorted(games)
    assert played(db) == before
    assert len(store.get_game(db, games[0]).deals) == 1  # its deal back with it
    assert "Deleted nights" not in text(client.get("/nights"))


def test_a_question_left_open_while_a_table_saved_a_deal_asks_again(client, db, mistaken):
    """The tester's two phones: one opens "Delete this night?" (1 deal entered), the other
    saves a deal at table 2, then the first taps Delete night. Nothing is deleted (409):
    the question is asked again with 2 deals, and a second tap deletes it."""
    night_id, _games = mistaken
    asked = client.get(f"/nights/{night_id}/delete")
    sent = form_fields(asked.get_data(as_text=True))
    assert sent["deals"] == "1"
    table = night(db, night_id).current.tables[1].game
    play_trigami(client, table.id, table.players, list(table.players), "table-2")
    again = client.post(f"/nights/{night_id}/delete", data=sent)
    assert again.status_code == 409
    assert "Deals were entered at its tables since this page was opened." in text(again)
    assert "(deals entered: 2)" in text(again)
    assert night_store.get_night(db, night_id).deleted_at is None
    confirmed = client.post(f"/nights/{night_id}/delete", data=form_fields(again.get_data(as_text=True)))
    assert confirmed.status_code == 302
    assert night_store.get_night(db, night_id).deleted_at is not None


def test_a_second_delete_or_restore_is_harmless_and_said(client, db, mistaken):
    night_id, games = mistaken
    assert client.post(f"/nights/{night_id}/delete").status_code == 302
    again = client.post(f"/nights/{night_id}/delete", follow_redirects=True)
    assert "was deleted already (on another phone?)." in text(again)
    assert client.post(f"/nights/{night_id}/restore").status_code == 302
    again = client.post(f"/nights/{night_id}/restore", follow_redirects=True)
    assert "was restored already." in text(again)
    assert sorted(g.id for g in store.list_games(db)) == sorted(games)


def test_a_read_only_link_neither_deletes_nor_is_offered_to(app, client, db, mistaken):
    night_id, _games = mistaken
    viewer = app.test_client(join=groups.view_link(db, groups.only_group(db).id))
    assert "Delete this night" not in text(viewer.get(f"/nights/{night_id}"))
    assert viewer.post(f"/nights/{night_id}/delete").status_code == 403
    assert night_store.get_night(db, night_id).deleted_at is None


def test_another_groups_night_is_no_night_here(app, db, mistaken):
    night_id, _games = mistaken
    other = groups.create(db, "Friday club")
    stranger = app.test_client(join=other.token)
    assert stranger.post(f"/nights/{night_id}/delete").status_code == 404
    assert stranger.post(f"/nights/{night_id}/restore").status_code == 404
    assert night_store.get_night(db, night_id).deleted_at is None


def test_two_phones_deleting_one_night_at_once_delete_it_once_and_both_are_told(race_server):
    """Two phones tap "Delete night" on one night at the same instant (the real server,
    CSRF on), three rounds: each table's game deleted once (one "game_deleted" each), both
    answered with the nights list, one told it was deleted, the other that it was deleted
    already; then a double tap on Restore brings every table back once."""
    for round_ in range(1, 4):
        what = f"round {round_}: "
        with race_server.db() as db:
            started = night_actions.start_night(
                db, groups.only_group(db).id, kind="trigami", options={"target": 100},
                players=[f"{name} {round_}" for name in NINE], rounds=2, ranking="placings",
                seating="random", seed=round_)
            night_id = started.night_id
            tables = [t.game.id for t in night_store.get_night(db, night_id).current.tables]
        a, b = race_server.phone(), race_server.phone()
        path = f"/nights/{night_id}/delete"
        forms = [a.form(path), b.form(path)]
        replies = at_once(partial(a.post, path, forms[0]), partial(b.post, path, forms[1]))
        assert all(r.redirects_to("/nights") for r in replies), f"{what}{statuses(replies)}"
        with race_server.db() as db:
            assert night_store.get_night(db, night_id).deleted_at is not None
            for game_id in tables:
                assert len(changes(db, game_id, "game_deleted")) == 1, what
                assert store.is_deleted(db, game_id)
        told = sorted("deleted already" in phone.get("/nights").text for phone in (a, b))
        assert told == [False, True], f"{what}both phones were told the same"
        assert_race_invariants(race_server, replies, what)

        path = f"/nights/{night_id}/restore"
        forms = [a.form("/nights", path), b.form("/nights", path)]
        replies = at_once(partial(a.post, path, forms[0]), partial(b.post, path, forms[1]))
        assert all(r.redirects_to(f"/nights/{night_id}") for r in replies), f"{what}{statuses(replies)}"
        with race_server.db() as db:
            assert night_store.get_night(db, night_id).deleted_at is None
            for game_id in tables:
                assert len(changes(db, game_id, "game_restored")) == 1, what
                assert not store.is_deleted(db, game_id)
        assert_race_invariants(race_server, replies, what)
