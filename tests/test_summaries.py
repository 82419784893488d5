"""The lists' summaries (summaries.py): always what the score sheet says, kept up to date
by every write, worked out again after a rules fix; and paging that shows every game once.

Points are SCORING.md §1.2's: the worked example gives Anna 80, Ben 200, Carla 13; clean
plain bids 20 a trick.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper import groups, sheet, store, summaries
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_web import text

CLEAN = {"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [5, 4, 4], "bugs": [0, 0, 0]}


def summary(db, game_id: str) -> summaries.GameSummary:
    return next(g for g in summaries.find(db, size=1000).games if g.id == game_id)


def as_sheet_says(db, game_id: str) -> dict:
    scored = sheet.build(store.get_game(db, game_id))
    score = scored.score
    return {"finished": scored.finished, "totals": tuple(score.totals) if score else (0, 0, 0),
            "winners": tuple(score.winners) if scored.finished else (), "leaders": scored.leaders,
            "deals": len(scored.game.deals)}


def said(s: summaries.GameSummary) -> dict:
    return {"finished": s.finished, "totals": s.totals, "winners": s.winners, "leaders": s.leaders,
            "deals": s.deals}


def test_every_write_keeps_the_summary_what_the_sheet_says(db, make_game):
    game_id = make_game(options={"target": 300})
    assert said(summary(db, game_id)) == as_sheet_says(db, game_id) == {
        "finished": False, "totals": (0, 0, 0), "winners": (), "leaders": (), "deals": 0}
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    assert summary(db, game_id).totals == (80, 200, 13) and summary(db, game_id).leaders == (1,)
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)  # Ben 400 ≥ 300: Ben has won
    assert said(summary(db, game_id)) == as_sheet_says(db, game_id)
    assert summary(db, game_id).finished and summary(db, game_id).winners == (1,)
    _first, second = store.get_game(db, game_id).deals
    store.update_deal(db, game_id, second.id, CLEAN)  # 80 + 100, 200 + 80, 13 + 80: not over
    assert said(summary(db, game_id)) == as_sheet_says(db, game_id)
    assert not summary(db, game_id).finished and summary(db, game_id).totals == (180, 280, 93)
    store.delete_deal(db, game_id, second.id)
    assert summary(db, game_id).totals == (80, 200, 13) and summary(db, game_id).deals == 1
    store.restore_deal(db, game_id, second.id)
    assert summary(db, game_id).totals == (180, 280, 93)
    store.update_game(db, game_id, options={"target": 250})  # Ben's 280 passes 250: over
    assert summary(db, game_id).finished and summary(db, game_id).winners == (1,)
    assert said(summary(db, game_id)) == as_sheet_says(db, game_id)


def test_the_summaries_are_written_inside_the_store_write_they_follow(db, make_game):
    """The store imports no summaries (issue 17): db.connect hands summaries.refresh_written
    to store.after_write, which calls it inside each write's own transaction; a listener
    that fails undoes the write, and the summary stays what it was."""
    game_id = make_game()
    seen: list[store.Written] = []

    def failing(database, written: store.Written) -> None:
        seen.append(written)
        assert summary(database, game_id).deals == 1  # the summaries' listener ran first, in this write
        raise RuntimeError("a listener failed")

    store.after_write(failing)
    try:
        with pytest.raises(RuntimeError, match="a listener failed"):
            store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)
    finally:
        store._listeners.remove(failing)
    assert [(w.game_id, w.score is not None) for w in seen] == [(game_id, True)]  # scored once, handed on
    assert store.get_game(db, game_id).deals == () and summary(db, game_id).deals == 0


def test_a_listener_given_twice_is_called_once():
    before = list(store._listeners)
    store.after_write(summaries.refresh_written)
    store.after_write(summaries.refresh_written)
    assert store._listeners == before and store._listeners.count(summaries.refresh_written) == 1


def test_player_records_follow_games_and_renames(db, make_game):
    won = make_game(options={"target": 150}, deals=[WORKED_TRIGAMI_DEAL])  # Ben 200: won
    make_game(deals=[WORKED_TRIGAMI_DEAL])  # not over
    lines = {r.name: (r.played, r.finished, r.won) for r in summaries.records(db, groups.only_group(db).id)}
    assert lines == {"Anna": (2, 1, 0), "Ben": (2, 1, 1), "Carla": (2, 1, 0)}
    store.update_game(db, won, players=["Anna", "Bea", "Carla"])  # Ben's seat was Bea all along
    lines = {r.name: (r.played, r.finished, r.won) for r in summaries.records(db, groups.only_group(db).id)}
    assert lines == {"Anna": (2, 1, 0), "Bea": (1, 1, 1), "Ben": (1, 0, 0), "Carla": (2, 1, 0)}


def test_a_rules_fix_works_every_summary_out_again(db, make_game):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    # a summary from other rules (or from before summaries existed) is stale
    db["game_summaries"].update(game_id, {"rules": "older-rules", "totals": "[1, 2, 3]"})
    db.execute("delete from game_summaries where game_id != ?", [game_id])
    assert summaries.refresh_stale(db) == 1
    assert summary(db, game_id).totals == (80, 200, 13)
    assert summaries.refresh_stale(db) == 0  # nothing left to do


def test_a_database_from_before_the_summaries_gets_them_on_start(tmp_path):
    from scorekeeper.db import connect, migrate

    path = str(tmp_path / "old.sqlite3")
    db = connect(path)
    migrate(db)
    game_id = store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    for table in ("game_summaries", "seat_results", "player_records"):
        db.execute(f"delete from {table}")
    db.conn.commit()
    migrate(db)  # as on every start
    assert summary(db, game_id).totals == (80, 200, 13)
    assert {r.name: r.played for r in summaries.records(db, groups.only_group(db).id)} == {"Anna": 1, "Ben": 1, "Carla": 1}
    db.conn.close()


def test_paging_shows_every_game_exactly_once_newest_first(client, db):
    ids = []
    for n in range(47):
        data = game_file(players=["Anna", "Ben", f"Guest {n}"], options={"target": 150},
                         deals=[WORKED_TRIGAMI_DEAL])  # each over: Ben wins
        ids.append(store.create_game(db, from_dict(data)))
        db["games"].update(ids[-1], {"created_at": f"2026-01-01T00:{n:02d}:00+00:00"})
    seen: list[str] = []
    url = "/?status=finished"
    pages = 0
    while url:
        page = client.get(url).get_data(as_text=True)
        block = page.split('id="finished"', 1)[1].split("</ul>", 1)[0]
        seen += re.findall(r'href="/games/([\w-]+)"', block)
        older = re.search(r'<a class="button small" rel="next" href="([^"]+)"', page)
        url = older.group(1).replace("&amp;", "&") if older else None
        pages += 1
    assert pages == 3  # 20 + 20 + 7
    assert seen == list(reversed(ids))  # each once, the newest first
    assert "Page 3 of 3" in text(client.get("/?status=finished&page=3"))
    assert "Page 3 of 3" in text(client.get("/?status=finished&page=99"))  # past the end: the last


def test_the_home_page_shows_a_few_unfinished_games_and_links_to_all(client, db):
    for n in range(12):
        store.create_game(db, from_dict(game_file(players=["Anna", "Ben", f"Guest {n}"])))
    page = text(client.get("/"))
    assert page.count("Carry on →") == 10
    assert "All 12 unfinished games →" in page
    assert text(client.get("/?status=unfinished")).count("Carry on →") == 12
