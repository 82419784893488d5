"""Storage: what the table saw is the record; players once; ids reveal nothing."""

from __future__ import annotations

import json

import pytest

from scorekeeper import store
from scorekeeper.db import connect, migrate
from scorekeeper.gamefile import from_dict
from scorekeeper.migrations import autoincrement_again, migrations
from scorekeeper.rules import RuleError
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


# ----------------------------------------------------------------- history (issue 3)

OLD_GAME = "old-game-1234"


def store_old_game(db) -> None:
    """A game as the schema up to m002 stored it (no history, deals deleted for good):
    Anna, Ben, Carla to 500 with the worked deal (80, 200, 13) and a deal deleted then."""
    at = "2024-01-01T20:00:00+00:00"
    db["players"].insert_all([{"id": i, "name": n, "name_key": n.casefold(), "created_at": at}
                              for i, n in enumerate(["Anna", "Ben", "Carla"], 1)])
    db["games"].insert({"id": OLD_GAME, "kind": "trigami", "first_dealer": 0, "options": '{"target": 500}',
                        "created_at": at, "updated_at": at, "nonce": "start-tap"})
    db["game_players"].insert_all([{"game_id": OLD_GAME, "seat": s, "player_id": s + 1} for s in range(3)])
    db["deals"].insert({"game_id": OLD_GAME, "position": 1, "entry": json.dumps(WORKED_TRIGAMI_DEAL),
                        "nonce": "deal-tap", "created_at": at, "updated_at": at})


def upgraded_database(path):
    """A database made by the migrations up to m002, with :func:`store_old_game` in it,
    then brought up to date."""
    db = connect(str(path))
    migrations.apply(db, stop_before="m003_history")
    assert "changes" not in db.table_names()
    store_old_game(db)
    migrate(db)
    return db


def test_fresh_and_upgraded_databases_end_up_the_same_with_the_old_game_intact(tmp_path):
    fresh = connect(str(tmp_path / "fresh.sqlite3"))
    migrate(fresh)
    upgraded = upgraded_database(tmp_path / "old.sqlite3")
    assert upgraded.schema == fresh.schema
    assert [m.name for m in migrations.applied(upgraded)] == [m.name for m in migrations.applied(fresh)]
    game = store.get_game(upgraded, OLD_GAME)
    assert game.players == ("Anna", "Ben", "Carla") and game.options == {"target": 500}
    assert [d.entry for d in game.deals] == [WORKED_TRIGAMI_DEAL]
    assert game.game_file().score().totals == (80, 200, 13)
    assert store.changes(upgraded, OLD_GAME) == [] and store.deleted_deals(upgraded, OLD_GAME) == []
    # and it carries on with a history from now on
    deal_id = game.deals[0].id
    store.delete_deal(upgraded, OLD_GAME, deal_id)
    assert store.restore_deal(upgraded, OLD_GAME, deal_id) == 1
    assert [c.action for c in store.changes(upgraded, OLD_GAME)] == ["deal_restored", "deal_deleted"]
    assert store.get_game(upgraded, OLD_GAME).deals == game.deals


def test_m022_keeps_every_change_and_never_hands_out_an_id_again(tmp_path):
    """A database from before m022 with changes in it: migrated, its change log is the
    same, change by change, and a change deleted at the end (as a backup put back leaves
    the log shorter than the ids the phones saw) does not give its id to the next one."""
    db = connect(str(tmp_path / "before.sqlite3"))
    migrations.apply(db, stop_before="m022_change_ids_never_again")
    game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    before = store.changes(db, game_id)
    migrate(db)
    assert store.changes(db, game_id) == before
    last = before[0].id
    db.execute("delete from changes where id = ?", [last])
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    assert store.changes(db, game_id)[0].id == last + 1 and store.game_version(db, game_id) > last


@pytest.mark.parametrize("quote", ['"{}"', "[{}]", "`{}`", "{}"])
def test_m022_reads_the_changes_table_however_its_names_were_quoted(quote):
    made = (f"CREATE TABLE {quote.format('changes')} (\n   {quote.format('id')} INTEGER PRIMARY KEY,\n"
            f"   {quote.format('game_id')} TEXT NOT NULL)")
    again = autoincrement_again(made)
    assert again.startswith('CREATE TABLE "changes_again"')
    assert f"{quote.format('id')} INTEGER PRIMARY KEY AUTOINCREMENT," in again
    assert f"{quote.format('game_id')} TEXT NOT NULL" in again
    with pytest.raises(ValueError):
        autoincrement_again("CREATE TABLE other (id TEXT)")


def test_every_write_records_its_change_with_before_and_after(db):
    game_id = store.create_game(db, from_dict(game_file()))
    deal_id = store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    changed = {**WORKED_TRIGAMI_DEAL, "last_trick": 1}
    store.update_deal(db, game_id, deal_id, changed)
    store.update_deal(db, game_id, deal_id, changed)  # the same again: nothing to record
    store.delete_deal(db, game_id, deal_id)
    store.restore_deal(db, game_id, deal_id)
    store.update_game(db, game_id, players=["Anna", "Benny", "Carla"], options={"target": 300})
    log = store.changes(db, game_id)
    assert [c.action for c in log] == ["settings_changed", "players_renamed", "deal_restored",
                                       "deal_deleted", "deal_changed", "deal_added", "game_created"]
    settings, renamed, restored, deleted, edited, added, created = log
    assert created.after["players"] == ["Anna", "Ben", "Carla"] and created.before is None
    assert (added.deal_id, added.position, added.before, added.after) == (deal_id, 0, None, WORKED_TRIGAMI_DEAL)
    assert (edited.before, edited.after) == (WORKED_TRIGAMI_DEAL, changed)
    assert (deleted.before, deleted.after) == (changed, None)
    assert (restored.before, restored.after) == (None, changed)
    assert renamed.before == {"players": ["Anna", "Ben", "Carla"]}
    assert renamed.after == {"players": ["Anna", "Benny", "Carla"]}
    assert (settings.before, settings.after) == ({"options": {"target": 500}}, {"options": {"target": 300}})
    assert all(c.at.endswith("+00:00") and c.at[:4].isdigit() for c in log)  # UTC, ISO 8601
    assert not any("point" in column or "total" in column for column in db["changes"].columns_dict)


def test_a_write_and_the_record_of_it_are_one_transaction(db, monkeypatch):
    game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    deal_id = store.get_game(db, game_id).deals[0].id

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(store, "_record", broken)
    for write in (lambda: store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL),
                  lambda: store.update_deal(db, game_id, deal_id, {**WORKED_TRIGAMI_DEAL, "last_trick": 0}),
                  lambda: store.delete_deal(db, game_id, deal_id),
                  lambda: store.update_game(db, game_id, players=["Anna", "Benny", "Carla"])):
        with pytest.raises(RuntimeError):
            write()
    game = store.get_game(db, game_id)
    assert [d.entry for d in game.deals] == [WORKED_TRIGAMI_DEAL] and game.players == ("Anna", "Ben", "Carla")
    assert db["deals"].count == 1 and db["players"].count == 3


def test_a_deleted_deal_stays_stored_but_out_of_play(db):
    game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    deal_id = store.get_game(db, game_id).deals[0].id
    store.delete_deal(db, game_id, deal_id)
    row = db["deals"].get(deal_id)
    assert row["deleted_at"] and json.loads(row["entry"]) == WORKED_TRIGAMI_DEAL
    assert store.get_game(db, game_id).deals == () and store.list_games(db)[0].deals == ()
    assert [d.id for d in store.deleted_deals(db, game_id)] == [deal_id]
    with pytest.raises(store.NotFoundError):
        store.delete_deal(db, game_id, deal_id)
    with pytest.raises(store.NotFoundError):
        store.update_deal(db, game_id, deal_id, WORKED_TRIGAMI_DEAL)


def test_a_restored_deal_goes_back_to_its_old_place(db):
    game_id = store.create_game(db, from_dict(game_file(options={"target": 5000})))
    ids = [store.add_deal(db, game_id, {**WORKED_TRIGAMI_DEAL, "n": n}) for n in range(3)]
    store.delete_deal(db, game_id, ids[1])
    store.add_deal(db, game_id, {**WORKED_TRIGAMI_DEAL, "n": 3})
    assert store.restore_deal(db, game_id, ids[1]) == 2
    assert [d.entry["n"] for d in store.get_game(db, game_id).deals] == [0, 1, 2, 3]
    with pytest.raises(store.NotDeletedError):
        store.restore_deal(db, game_id, ids[1])
    with pytest.raises(store.NotFoundError):
        store.restore_deal(db, "another-game", ids[1])


def test_a_restore_that_breaks_a_rule_raises_and_changes_nothing(db):
    slam = {"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [13, 0, 0], "bugs": [10, 0, 0]}
    game_id = store.create_game(db, from_dict(game_file(options={"target": 200})))
    first = store.add_deal(db, game_id, slam)
    store.delete_deal(db, game_id, first)
    store.add_deal(db, game_id, slam)
    store.add_deal(db, game_id, slam)  # Anna reaches 200: game over
    before, log = store.get_game(db, game_id), store.changes(db, game_id)
    with pytest.raises(RuleError) as refused:
        store.restore_deal(db, game_id, first)
    assert refused.value.deal == 3 and "over" in refused.value.message
    assert store.get_game(db, game_id) == before and store.changes(db, game_id) == log


def test_renamed_seats_link_to_players_by_name(db):
    game_id = store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"])))
    other = store.create_game(db, from_dict(game_file(players=["Dora", "Emil", "Fritz"])))
    ids = {name: pid for pid, name in store.player_names(db).items()}
    # Anna and Ben swap seats' names; Carla becomes Dora, who is known
    assert store.update_game(db, game_id, players=["Ben", "Anna", "dora"]) == ("players_renamed",)
    assert store.player_seats(db)[game_id] == (ids["Ben"], ids["Anna"], ids["Dora"])
    assert store.get_game(db, game_id).players == ("Ben", "Anna", "Dora")
    assert "Carla" not in store.player_names(db).values()  # in no game any more
    assert store.get_game(db, other).players == ("Dora", "Emil", "Fritz")
    # a spelling fix is the same person, everywhere
    store.update_game(db, other, players=["DORA", "Emil", "Fritz"])
    assert store.get_game(db, game_id).players[2] == "DORA" and store.player_seats(db)[other][0] == ids["Dora"]
    with pytest.raises(RuleError):
        store.update_game(db, game_id, players=["Anna", "anna", "Emil"])


def test_a_game_id_never_starts_with_a_dash_that_a_command_line_takes_for_an_option():
    """``scorekeeper export <id>``: an id "-9Ab…" would be read as an option (1 in 64
    ids did)."""
    ids = [store.new_game_id() for _ in range(5000)]
    assert not any(game_id.startswith("-") for game_id in ids)
    assert len(set(ids)) == len(ids) and all(len(game_id) == 12 for game_id in ids)


def test_every_migration_written_runs_on_a_new_database(db):
    """Each ``m0NN_…`` function in migrations.py is a registered migration and is applied,
    in the order of its number: one left without its ``@migrations()`` (an easy slip when
    two branches each add one) would leave its tables or columns missing, and every page
    that needs them fails."""
    import inspect

    from scorekeeper import migrations as module

    written = sorted(name for name, value in vars(module).items()
                     if inspect.isfunction(value) and name[:2] == "m0" and name[2:4].isdigit())
    assert len(written) >= 9
    assert [m.name for m in migrations.applied(db)] == written


def test_the_sheet_version_and_live_state_follow_every_change_without_scoring(db):
    game_id = store.create_game(db, from_dict(game_file(options={"target": 200})))
    slam = {"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [13, 0, 0], "bugs": [10, 0, 0]}
    assert store.sheet_version(db, game_id) == (store.game_version(db, game_id), '["Anna","Ben","Carla"]')
    assert store.live_state(db, game_id) == (store.game_version(db, game_id), 0, False)
    store.add_deal(db, game_id, slam)
    store.add_deal(db, game_id, slam)  # every trick to Anna twice: 100 + 100 reaches 200, she has won
    store.update_game(db, game_id, players=["Anna", "Bea", "Carla"])
    version = store.game_version(db, game_id)
    assert store.sheet_version(db, game_id) == (version, '["Anna","Bea","Carla"]')
    assert store.live_state(db, game_id) == (version, 2, True)
    assert store.sheet_version(db, "no-such-game") is None and store.live_state(db, "no-such-game") is None
