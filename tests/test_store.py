"""Storage: what the table saw is the record; players once; ids reveal nothing."""

from __future__ import annotations

import json

from scorekeeper import store
from scorekeeper.db import connect, migrate
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file


def test_migrating_twice_changes_nothing(tmp_path):
    db = connect(str(tmp_path / "a.sqlite3"))
    migrate(db)
    schema = db.schema
    migrate(db)
    assert db.schema == schema
    assert {"players", "games", "game_players", "deals"} <= set(db.table_names())


def test_deal_entries_are_stored_as_entered_never_points(db):
    game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    row = next(db["deals"].rows_where("game_id = ?", [game_id]))
    assert json.loads(row["entry"]) == WORKED_TRIGAMI_DEAL
    assert not any("point" in column or "total" in column for column in db["deals"].columns_dict)


def test_players_are_stored_once_whatever_the_case_or_spacing(db):
    store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"])))
    store.create_game(db, from_dict(game_file(players=["anna", " Ben ", "Dora"])))
    assert db["players"].count == 4
    assert store.get_game(db, store.list_games(db)[0].id).players == ("Anna", "Ben", "Dora")


def test_game_ids_are_random_not_counting(db):
    ids = [store.create_game(db, from_dict(game_file())) for _ in range(3)]
    assert len(set(ids)) == 3
    assert all(len(i) >= 12 and not i.isdigit() for i in ids)


def test_a_nonce_saves_one_deal(db):
    game_id = store.create_game(db, from_dict(game_file()))
    first = store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL, nonce="tap")
    again = store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL, nonce="tap")
    assert first == again and len(store.get_game(db, game_id).deals) == 1


def test_deals_keep_their_order_after_a_delete(db):
    game_id = store.create_game(db, from_dict(game_file()))
    ids = [store.add_deal(db, game_id, {**WORKED_TRIGAMI_DEAL, "n": n}) for n in range(3)]
    store.delete_deal(db, game_id, ids[1])
    assert [d.entry["n"] for d in store.get_game(db, game_id).deals] == [0, 2]
    assert store.add_deal(db, game_id, {**WORKED_TRIGAMI_DEAL, "n": 3})
    assert [d.entry["n"] for d in store.get_game(db, game_id).deals] == [0, 2, 3]
