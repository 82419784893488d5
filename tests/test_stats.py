"""Statistics across games (scorekeeper/stats.py), checked against the small history of
tests/history.py, whose every number is worked by hand from SCORING.md there and below.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper import groups, stats, store, summaries
from tests.history import KINGDOM, plain, store_history
from tests.test_web import text


@pytest.fixture
def history(db, make_game):
    """The history stored: ({"G1": id, …}, {"Anna": player id, …})."""
    ids = store_history(make_game)
    players = {name: pid for pid, name in store.player_names(db).items()}
    return ids, players


def seated(db) -> list[stats.SeatedGame]:
    return stats.seat_games(store.list_games(db), store.player_seats(db))


def of(db, name: str) -> stats.PlayerStats:
    names = store.player_names(db)
    pid = next(pid for pid, n in names.items() if n == name)
    return stats.player_stats(seated(db), pid, names)


def fig(player: stats.PlayerStats, key: str) -> stats.Figure:
    found = player.figure(key)
    assert found is not None, key
    return found


def games(ids: dict[str, str], *names: str) -> set[str]:
    return {ids[name] for name in names}


# ----------------------------------------------------------------- games played and won


def test_games_played_finished_and_won(db, history):
    ids, _players = history
    anna = of(db, "Anna")
    # Anna sat in all four; G1 and G4 are finished and she won both
    assert (anna.played.value, anna.finished.value, anna.won.value, anna.won.of) == (4, 2, 2, 2)
    assert set(anna.played.game_ids) == games(ids, "G1", "G2", "G3", "G4")
    assert set(anna.won.game_ids) == games(ids, "G1", "G4")
    dan = of(db, "Dan")
    # Dan played the two Trix games, finished one (G4), won none
    assert (dan.played.value, dan.finished.value, dan.won.value) == (2, 1, 0)
    assert dan.won.game_ids == ()


def test_games_are_listed_newest_first(db, history):
    ids, _players = history
    assert of(db, "Anna").played.game_ids == (ids["G4"], ids["G3"], ids["G2"], ids["G1"])


def test_player_records_list_everyone_by_name(db, history):
    lines = summaries.records(db, groups.only_group(db).id)
    assert [(line.name, line.played, line.finished, line.won) for line in lines] == [
        ("Anna", 4, 2, 2), ("Ben", 4, 2, 0), ("Carla", 4, 2, 0), ("Dan", 2, 1, 0)]


# ----------------------------------------------------------------- Trigami


def test_trigami_points_per_deal_best_and_worst(db, history):
    ids, _players = history
    anna = of(db, "Anna")
    # G1: 80, 30, 200; G2 (seat 2): 20, 0 → 330 over 5 deals = 66.0
    assert fig(anna, "trigami.deals").value == 5
    points = fig(anna, "trigami.points")
    assert (points.value, points.of, points.average) == (66.0, 5, True)
    assert set(points.game_ids) == games(ids, "G1", "G2")
    trigami = next(k for k in anna.kinds if k.kind == "trigami")
    assert (trigami.best.game_id, trigami.best.number, trigami.best.points) == (ids["G1"], 3, 200)
    assert trigami.best.label == "Doublets ♦"
    assert (trigami.worst.game_id, trigami.worst.number, trigami.worst.points) == (ids["G2"], 2, 0)

    ben = of(db, "Ben")
    # G1: 200, 0, 20; G2 (seat 0): 32, 100 → 352 / 5 = 70.4
    assert fig(ben, "trigami.points").value == pytest.approx(70.4)
    trigami = next(k for k in ben.kinds if k.kind == "trigami")
    assert (trigami.best.game_id, trigami.best.number, trigami.best.points) == (ids["G1"], 1, 200)
    assert (trigami.worst.game_id, trigami.worst.number, trigami.worst.points) == (ids["G1"], 2, 0)

    carla = of(db, "Carla")
    # 13, 80, 50, 80, 0 → 223 / 5 = 44.6; best 80 first in G1 deal 2 (a tie goes to the first time)
    assert fig(carla, "trigami.points").value == pytest.approx(44.6)
    trigami = next(k for k in carla.kinds if k.kind == "trigami")
    assert (trigami.best.game_id, trigami.best.number) == (ids["G1"], 2)


def test_doublets_lost_to_another_players_every_trick_is_neither_made_nor_failed(db, make_game):
    """Tester 35: Anna bid Doublets ♥ and took no trick and no bug while Carla took every
    trick: 0 for Anna by the every-trick rule (SCORING.md §1.2, 1.), with no bug. Her
    figures said "Doublets made (no bugs) 0 of 1" and "Doublets failed (0 points) 1".
    Made is no bug, failed a bug; a deal lost to another's every trick is neither. Ben's
    Doublets with one bug fails; Anna's next Doublets, 5 clean tricks (5 × 20 × 2 = 200),
    is made."""
    sweep = {"bids": [{"kind": "doublets", "suit": "H"}, {"kind": "plain", "suit": "S"},
                      {"kind": "plain", "suit": "C"}], "tricks": [0, 0, 13], "bugs": [0, 0, 10]}
    made = {"bids": [{"kind": "doublets", "suit": "H"}, {"kind": "doublets", "suit": "S"},
                     {"kind": "plain", "suit": "C"}], "tricks": [5, 4, 4], "bugs": [0, 1, 4]}
    make_game(deals=[sweep, made])
    anna, ben = of(db, "Anna"), of(db, "Ben")
    assert (fig(anna, "trigami.doublets.made").value, fig(anna, "trigami.doublets.made").of) == (1, 2)
    assert fig(anna, "trigami.doublets.failed").value == 0
    # tester 69: made 1 and failed 0 of 2 left one bid unsaid: lost to Carla's every trick
    swept = fig(anna, "trigami.doublets.swept")
    assert (swept.value, swept.of) == (1, 2)
    assert fig(ben, "trigami.doublets.swept").value == 0  # his failed for a bug
    assert (fig(ben, "trigami.doublets.made").value, fig(ben, "trigami.doublets.failed").value) == (0, 1)


def test_doublets_with_every_trick_is_made_though_it_took_every_bug(db, make_game):
    """Tester 55: Ben bid Doublets ♠ and took all 13 tricks, so all 10 spades: 200 by the
    every-trick rule, which comes before Doublets' "a bug scores 0" (SCORING.md §1.2, 1.
    and 2.). His figures said "Doublets failed (0 points) 1 of 1" beside his best deal,
    +200 with that very bid. It is made; Carla's Doublets in the same deal, no trick and
    no bug, lost to Ben's every trick, is neither."""
    every_trick = {"bids": [{"kind": "plain", "suit": "H"}, {"kind": "doublets", "suit": "S"},
                            {"kind": "doublets", "suit": "C"}], "tricks": [0, 13, 0], "bugs": [0, 10, 0]}
    make_game(deals=[every_trick])
    ben, carla = of(db, "Ben"), of(db, "Carla")
    made, failed = fig(ben, "trigami.doublets.made"), fig(ben, "trigami.doublets.failed")
    assert (made.value, made.of, failed.value) == (1, 1, 0)
    assert fig(ben, "trigami.points").value == 200
    assert (fig(carla, "trigami.doublets.made").value, fig(carla, "trigami.doublets.failed").value) == (0, 0)
    assert fig(carla, "trigami.doublets.swept").value == 1
    assert fig(ben, "trigami.doublets.swept").value == 0


def test_trigami_bids_doublets_turnip_and_bugs(db, history):
    ids, _players = history
    anna = of(db, "Anna")
    # Anna's bids: Turnip, plain, Doublets (G1); plain, plain (G2)
    assert (fig(anna, "trigami.bids.plain").value, fig(anna, "trigami.bids.plain").of) == (3, 5)
    assert fig(anna, "trigami.bids.turnip").value == 1
    assert fig(anna, "trigami.bids.doublets").value == 1
    made = fig(anna, "trigami.doublets.made")
    assert (made.value, made.of, set(made.game_ids)) == (1, 1, games(ids, "G1"))
    assert fig(anna, "trigami.doublets.failed").value == 0
    assert fig(anna, "trigami.doublets.failed").game_ids == ()
    # her one Turnip bid scored 80
    assert fig(anna, "trigami.turnip.points").value == 80.0
    # bugs 1, 2, 0, 2, 0 → 1.0; tricks 4, 6, 5, 4, 0 → 3.8
    assert fig(anna, "trigami.bugs").value == pytest.approx(1.0)
    assert fig(anna, "trigami.tricks").value == pytest.approx(3.8)
    assert fig(anna, "trigami.every_trick").value == 0

    ben = of(db, "Ben")
    # Doublets ♠ kept (200) and Doublets ♥ lost with 1 bug (0), both in G1
    made, failed = fig(ben, "trigami.doublets.made"), fig(ben, "trigami.doublets.failed")
    assert (made.value, made.of, failed.value, failed.of) == (1, 2, 1, 2)
    assert set(failed.game_ids) == games(ids, "G1")
    # Turnip in G2: floor(50 / 3) = 16, doubled 32
    turnip = fig(ben, "trigami.turnip.points")
    assert (turnip.value, set(turnip.game_ids)) == (32.0, games(ids, "G2"))
    # bugs 0, 1, 4, 3, 10 → 3.6; tricks 5, 3, 8, 5, 13 → 6.8; every trick once (G2)
    assert fig(ben, "trigami.bugs").value == pytest.approx(3.6)
    assert fig(ben, "trigami.tricks").value == pytest.approx(6.8)
    assert (fig(ben, "trigami.every_trick").value, set(fig(ben, "trigami.every_trick").game_ids)) == (
        1, games(ids, "G2"))

    carla = of(db, "Carla")
    # only plain bids: nothing to average for the Turnip
    assert fig(carla, "trigami.bids.plain").value == 5
    assert fig(carla, "trigami.turnip.points").value is None


# ----------------------------------------------------------------- Trix


def test_trix_points_per_deal(db, history):
    # Anna: G3 0 −75 −30 −45 +150 +75 = 75; G4 4 × 200 = 800 → 875 / 26
    assert fig(of(db, "Anna"), "trix.points").value == pytest.approx(875 / 26)
    # Dan: G3 0 −75 −40 −45 +100 −150 = −210; G4 −1800 → −2010 / 26
    assert fig(of(db, "Dan"), "trix.points").value == pytest.approx(-2010 / 26)


def test_trix_king_of_hearts_doubled_caught_and_taken_back(db, history):
    ids, _players = history
    # King deals: G3 deals 1 and 6, G4 one a kingdom → 6
    ben = of(db, "Ben")
    assert fig(ben, "trix.king.deals").value == 6
    # Ben doubled the K♥ in G3 deal 1 and Carla took it: caught (+75)
    assert fig(ben, "trix.king.doubled").value == 1
    caught = fig(ben, "trix.king.caught")
    assert (caught.value, set(caught.game_ids)) == (1, games(ids, "G3"))
    assert fig(ben, "trix.king.back").value == 0
    # Ben: +75, 0, 0 × 4 → 12.5 a King deal
    assert fig(ben, "trix.king.points").value == pytest.approx(12.5)

    carla = of(db, "Carla")
    # Carla took it, doubled by Ben: −150; 1 of 6
    assert (fig(carla, "trix.king.taken").value, fig(carla, "trix.king.taken").of) == (1, 6)
    assert fig(carla, "trix.king.taken_doubled").value == 1
    assert fig(carla, "trix.king.points").value == pytest.approx(-150 / 6)

    dan = of(db, "Dan")
    # Dan took it in G3 deal 6 (doubled by himself, taken back) and in all four G4 King deals
    assert (fig(dan, "trix.king.taken").value, fig(dan, "trix.king.taken").of) == (5, 6)
    assert set(fig(dan, "trix.king.taken").game_ids) == games(ids, "G3", "G4")
    assert (fig(dan, "trix.king.doubled").value, fig(dan, "trix.king.back").value) == (1, 1)
    assert set(fig(dan, "trix.king.back").game_ids) == games(ids, "G3")
    # 0, −150, −75 × 4 → −450 / 6 = −75.0
    assert fig(dan, "trix.king.points").value == pytest.approx(-75.0)

    anna = of(db, "Anna")
    # Anna led to the trick in which Dan took back his doubled K♥: +75
    assert (fig(anna, "trix.king.led").value, set(fig(anna, "trix.king.led").game_ids)) == (1, games(ids, "G3"))
    assert fig(anna, "trix.king.taken").value == 0
    assert fig(anna, "trix.king.points").value == pytest.approx(12.5)  # (0 + 75 + 0 × 4) / 6


def test_trix_queens_diamonds_tricks_and_trix(db, history):
    ids, _players = history
    anna = of(db, "Anna")
    # Queens deals: G3 deal 2 + four in G4 = 5; Anna took Q♥ and Q♦ once → 2 / 5 = 0.4
    queens = fig(anna, "trix.queens.taken")
    assert (queens.value, queens.of, set(queens.game_ids)) == (pytest.approx(0.4), 5, games(ids, "G3", "G4"))
    # she doubled Q♦ and took it back: −50 (Carla, who led, +25)
    assert (fig(anna, "trix.queens.doubled").value, fig(anna, "trix.queens.back").value) == (1, 1)
    assert fig(anna, "trix.queens.caught").value == 0
    assert fig(anna, "trix.queens.points").value == pytest.approx(-15.0)  # (−75 + 0) / 5
    # Diamonds 3 then 0 × 4 → 0.6 (−6.0 a deal); Tricks 3 then 0 × 4 → 0.6 (−9.0)
    assert fig(anna, "trix.diamonds.taken").value == pytest.approx(0.6)
    assert fig(anna, "trix.diamonds.points").value == pytest.approx(-6.0)
    assert fig(anna, "trix.tricks.taken").value == pytest.approx(0.6)
    assert fig(anna, "trix.tricks.points").value == pytest.approx(-9.0)
    # Trix: 2nd in G3, 1st four times in G4 → place 1.2; out first 4 of 5; (150 + 800) / 5
    assert fig(anna, "trix.trix.place").value == pytest.approx(1.2)
    first = fig(anna, "trix.trix.first")
    assert (first.value, first.of, set(first.game_ids)) == (4, 5, games(ids, "G4"))
    assert fig(anna, "trix.trix.points").value == pytest.approx(190.0)

    ben = of(db, "Ben")
    # Ben doubled Q♠ and Dan took it: caught, +25
    assert (fig(ben, "trix.queens.doubled").value, fig(ben, "trix.queens.caught").value) == (1, 1)
    assert fig(ben, "trix.queens.taken").value == 0.0
    assert fig(ben, "trix.queens.points").value == pytest.approx(5.0)  # (25 + 0) / 5
    carla = of(db, "Carla")
    assert (fig(carla, "trix.queens.led").value, set(fig(carla, "trix.queens.led").game_ids)) == (1, games(ids, "G3"))
    # places 1st (G3), 3rd × 4 → 13 / 5 = 2.6
    assert fig(carla, "trix.trix.place").value == pytest.approx(2.6)

    dan = of(db, "Dan")
    # Queens: 2 in G3 (Q♠ doubled by Ben, Q♣) + 16 in G4 = 18 / 5 = 3.6; (−75 − 400) / 5 = −95
    assert fig(dan, "trix.queens.taken").value == pytest.approx(3.6)
    assert fig(dan, "trix.queens.taken_doubled").value == 1
    assert fig(dan, "trix.queens.points").value == pytest.approx(-95.0)
    # Diamonds (4 + 52) / 5 = 11.2, (−40 − 520) / 5 = −112; Tricks (3 + 52) / 5 = 11.0
    assert fig(dan, "trix.diamonds.taken").value == pytest.approx(11.2)
    assert fig(dan, "trix.diamonds.points").value == pytest.approx(-112.0)
    assert fig(dan, "trix.tricks.taken").value == pytest.approx(11.0)
    assert fig(dan, "trix.tricks.points").value == pytest.approx(-165.0)
    trix = next(k for k in dan.kinds if k.kind == "trix")
    # best +100 (Trix, G3 deal 5); worst −195 (all 13 tricks, first in G4 deal 4)
    assert (trix.best.game_id, trix.best.number, trix.best.points) == (ids["G3"], 5, 100)
    assert (trix.worst.game_id, trix.worst.number, trix.worst.points, trix.worst.label) == (
        ids["G4"], 4, -195, "Tricks")


def test_trix_sections_name_the_contracts_played(db, history):
    trix = next(k for k in of(db, "Anna").kinds if k.kind == "trix")
    assert [s.title for s in trix.sections] == ["King of Hearts", "Queens", "Diamonds", "Tricks", "Trix"]


# ----------------------------------------------------------------- head to head


def test_head_to_head_over_finished_games(db, history):
    ids, players = history
    anna = {r.name: r for r in of(db, "Anna").head_to_head}
    assert list(anna) == ["Ben", "Carla", "Dan"]
    # G1: 310 v 220 v 143; G4: 800 v 600 v 400 v −1800
    assert (anna["Ben"].games.value, anna["Ben"].ahead.value, anna["Ben"].behind.value) == (2, 2, 0)
    assert set(anna["Ben"].ahead.game_ids) == games(ids, "G1", "G4")
    assert (anna["Dan"].games.value, anna["Dan"].ahead.value) == (1, 1)
    assert anna["Dan"].games.key == f"vs.{players['Dan']}"
    ben = {r.name: r for r in of(db, "Ben").head_to_head}
    assert (ben["Anna"].behind.value, ben["Carla"].ahead.value, ben["Dan"].ahead.value) == (2, 2, 1)
    dan = {r.name: r for r in of(db, "Dan").head_to_head}
    assert all((r.games.value, r.behind.value) == (1, 1) for r in dan.values())


def test_level_totals_count_as_level(db, make_game):
    # Target 100: Anna takes every trick (100 with a plain bid), Ben and Carla 0 and 0
    make_game(options={"target": 100}, deals=[
        {"bids": [plain("S"), plain("H"), plain("C")], "tricks": [13, 0, 0], "bugs": [10, 0, 0]}])
    ben = {r.name: r for r in of(db, "Ben").head_to_head}
    assert (ben["Carla"].level.value, ben["Carla"].ahead.value, ben["Anna"].behind.value) == (1, 0, 1)


def test_reversed_scoring_turns_points_back_and_lowest_is_ahead(db, make_game):
    # Reversed scoring negates every deal (SCORING.md §2.5): Anna −800, Ben −600,
    # Carla −400, Dan +1800, and the lowest total wins
    gid = make_game(kind="trix", options={"scoring": "reversed"}, deals=KINGDOM * 4)
    anna = of(db, "Anna")
    assert anna.won.value == 1 and anna.reversed_games
    assert {r.name: r.ahead.value for r in anna.head_to_head} == {"Ben": 1, "Carla": 1, "Dan": 1}
    dan = of(db, "Dan")
    # Dan's deals count the standard way round: a kingdom −75 −100 −130 −195 +50 = −450,
    # four of them −1800 over 20 deals = −90 a deal
    assert fig(dan, "trix.points").value == pytest.approx(-90.0)
    trix = next(k for k in dan.kinds if k.kind == "trix")
    # his worst deal is the Tricks deal, +195 as scored (−195 turned back)
    assert (trix.worst.game_id, trix.worst.number, trix.worst.points) == (gid, 4, 195)
    assert [r.total for r in dan.results] == [1800]


def test_a_reversed_games_best_and_worst_deal_show_the_points_they_were_chosen_by(client, db, make_game):
    """Tester 1 (stop 31): under reversed scoring a player's "Best deal" read −50 above a
    "Worst deal" of +195: chosen with the signs turned back, shown as scored. The page
    shows the points it compares, and what the sheet says beside them."""
    make_game(kind="trix", options={"scoring": "reversed"}, deals=KINGDOM * 4)
    dan = db.execute("select id from players where name = 'Dan'").fetchone()[0]
    page = text(client.get(f"/players/{dan}"))
    assert "Best deal +50 Trix · deal 5 reversed scoring: −50 on its sheet" in page
    assert "Worst deal −195 Tricks · deal 4 reversed scoring: +195 on its sheet" in page
    # a game scored the standard way says its points once, as before
    make_game(kind="trix", players=["Anna", "Ben", "Carla", "Eve"], deals=KINGDOM)
    eve = db.execute("select id from players where name = 'Eve'").fetchone()[0]
    assert "reversed scoring" not in text(client.get(f"/players/{eve}"))


# ----------------------------------------------------------------- special cases


def test_trix_complex_deal_counts_each_contract_alone(db, make_game):
    # One deal plays King and Queens: Anna took the K♥ (−75), Ben all four queens (−100)
    make_game(kind="trix", options={"complex": True}, deals=[
        {"contracts": ["king", "queens"], "king": {"taker": 0},
         "queens": {suit: {"taker": 1} for suit in "SHDC"}}])
    anna, ben = of(db, "Anna"), of(db, "Ben")
    assert fig(anna, "trix.king.points").value == -75.0
    assert fig(anna, "trix.queens.points").value == 0.0
    assert fig(ben, "trix.queens.points").value == -100.0
    assert fig(ben, "trix.queens.taken").value == 4.0
    assert fig(anna, "trix.deals").value == 1  # one deal, two contracts


def test_a_deal_that_no_longer_fits_counts_up_to_the_problem(db, make_game):
    gid = make_game(deals=[
        {"turnip": "D", "bids": [{"kind": "turnip"}, {"kind": "doublets", "suit": "S"}, plain("H")],
         "tricks": [4, 5, 4], "bugs": [1, 0, 3]},
        {"bids": [plain("S"), plain("H"), plain("C")], "tricks": [5, 4, 4], "bugs": [0, 0, 0]}])
    # a hand-edited database: deal 2's tricks now add up to 12
    second = store.get_game(db, gid).deals[1]
    db["deals"].update(second.id, {"entry": json.dumps({**second.entry, "tricks": [5, 4, 3]})})
    anna = of(db, "Anna")
    assert fig(anna, "trigami.deals").value == 1
    assert fig(anna, "trigami.points").value == 80.0  # deal 1 only
    assert anna.played.value == 1 and anna.finished.value == 0


# ----------------------------------------------------------------- filters


def test_filter_by_kind_player_and_days(db, history):
    ids, players = history
    # started on 1, 2, 3 and 4 March 2025; G3 at 23:30 UTC, already 4 March in Helsinki
    for name, when in (("G1", "2025-03-01T20:00:00+00:00"), ("G2", "2025-03-02T20:00:00+00:00"),
                       ("G3", "2025-03-03T23:30:00+00:00"), ("G4", "2025-03-04T20:00:00+00:00")):
        db["games"].update(ids[name], {"created_at": when})

    def shown(**kwargs) -> set[str]:
        return {g.id for g in summaries.find(db, size=100, **kwargs).games}

    assert shown(kind="trix") == games(ids, "G3", "G4")
    assert shown(player=players["Dan"]) == games(ids, "G3", "G4")
    assert shown(kind="trigami", player=players["Dan"]) == set()
    assert shown(since="2025-03-02T00:00:00+00:00", before="2025-03-04T00:00:00+00:00") == games(ids, "G2", "G3")
    assert shown(since="2025-03-04T00:00:00+00:00") == games(ids, "G4")
    # 4 March in Helsinki starts at 22:00 UTC on the 3rd
    assert shown(since="2025-03-03T22:00:00+00:00") == games(ids, "G3", "G4")
    assert shown(finished=False) == games(ids, "G2", "G3")
    assert shown(finished=True) == games(ids, "G1", "G4")


def test_stats_is_pure():
    """stats.py counts; it knows no web, no database and no forms (STYLE.md)."""
    import scorekeeper.stats as module

    source = Path(module.__file__).read_text(encoding="utf-8")
    for name in ("flask", "sqlite_utils", "wtforms"):
        assert f"import {name}" not in source and f"from {name}" not in source


def test_a_deleted_deal_is_not_counted(db, make_game):
    # Two deals, the second deleted from the web (softly: it can be restored)
    gid = make_game(deals=[
        {"bids": [plain("S"), plain("H"), plain("C")], "tricks": [5, 4, 4], "bugs": [0, 0, 0]},
        {"bids": [plain("S"), plain("H"), plain("C")], "tricks": [13, 0, 0], "bugs": [10, 0, 0]}])
    store.delete_deal(db, gid, store.get_game(db, gid).deals[1].id)
    anna = of(db, "Anna")
    # only deal 1: 5 clean tricks, 5 × 20 = 100
    assert (fig(anna, "trigami.deals").value, fig(anna, "trigami.points").value) == (1, 100.0)
    assert fig(anna, "trigami.every_trick").value == 0


# ----------------------------------------------------------------- kept on write


def page_of(player: stats.PlayerStats) -> list:
    """Everything a player page shows, without which games each figure comes from (the
    totals kept on write know how many, not which)."""
    figures = [(f.key, f.label, f.value, f.games, f.of, f.average, f.per, f.detail)
               for f in player.all_figures()]
    kinds = [(k.kind, k.best, k.worst, [(s.title, s.tiles, len(s.figures)) for s in k.sections])
             for k in player.kinds]
    return [player.name, figures, kinds, [(r.opponent, r.name) for r in player.head_to_head],
            list(player.results), player.reversed_games]


def assert_kept_as_counted(db) -> None:
    names = store.player_names(db)
    for pid in {row[0] for row in db.execute("select player_id from game_players")}:
        counted = stats.player_stats(seated(db), pid, names)
        assert all(f.games == len(f.game_ids) for f in counted.all_figures())
        kept = summaries.player_stats(db, pid, names)
        assert page_of(kept) == page_of(counted), names[pid]
    # nobody keeps figures of games they no longer sit in
    assert {row[0] for row in db.execute("select player_id from player_figures")} == {
        row[0] for row in db.execute("select player_id from game_players")}


def test_the_figures_kept_on_write_are_the_figures_counted_from_the_games(db, history):
    ids, players = history
    assert_kept_as_counted(db)
    anna = summaries.player_stats(db, players["Anna"], store.player_names(db))
    assert (anna.played.value, anna.won.value, anna.won.games) == (4, 2, 2)  # as counted by hand above
    g1 = store.get_game(db, ids["G1"])
    # Anna's Doublets ♦ of deal 3 was a plain bid
    store.update_deal(db, g1.id, g1.deals[2].id, {"bids": [plain("D"), plain("S"), plain("H")],
                                                   "tricks": [5, 8, 0], "bugs": [0, 4, 0]})
    assert_kept_as_counted(db)
    store.delete_deal(db, g1.id, g1.deals[0].id)  # the Turnip deal goes: G1 is no longer won
    assert_kept_as_counted(db)
    assert summaries.player_stats(db, players["Anna"], store.player_names(db)).won.value == 1
    store.restore_deal(db, g1.id, g1.deals[0].id)
    assert_kept_as_counted(db)
    store.add_deal(db, ids["G2"], {"bids": [plain("S"), plain("H"), plain("D")],
                                   "tricks": [13, 0, 0], "bugs": [10, 0, 0]})
    assert_kept_as_counted(db)
    store.update_game(db, ids["G3"], players=["Anna", "Ben", "Carla", "Eva"])  # Dan's seat was Eva's
    assert_kept_as_counted(db)
    store.update_game(db, ids["G4"], options={**store.get_game(db, ids["G4"]).options, "scoring": "reversed"})
    assert_kept_as_counted(db)
    assert summaries.player_stats(db, players["Anna"], store.player_names(db)).reversed_games


def test_working_the_figures_out_again_counts_no_game_twice(db, history):
    """After a rules fix every summary is worked out again (summaries.refresh_stale): each
    game's old part is taken away before its new one is added."""
    before = {pid: page_of(summaries.player_stats(db, pid, store.player_names(db)))
              for pid in store.player_names(db)}
    db.execute("update game_summaries set rules = 'older-rules'")
    assert summaries.refresh_stale(db) == 4
    assert {pid: page_of(summaries.player_stats(db, pid, store.player_names(db)))
            for pid in store.player_names(db)} == before
    assert_kept_as_counted(db)
