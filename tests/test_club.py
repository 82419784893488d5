"""The rules of a club night (scorekeeper/club.py, docs/club-nights.md): seating, sitting
out, and the standing, each worked by hand from the documented rules."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from scorekeeper import club
from scorekeeper.club import Seating, SeatingError, TableResult, seat_round, standing
from scorekeeper.rules import get_rules
from scorekeeper.rules.common import GameScore

NINE = ["Aino", "Ben", "Carla", "Dora", "Eero", "Fatima", "Jörg", "Hanna", "Ilkka"]
THIRTEEN = [*NINE, "Karim", "Leila", "Mona", "Nabil"]


def night(players, size, rounds, seed=1, **kw):
    seatings: list[Seating] = []
    for number in range(1, rounds + 1):
        seatings.append(seat_round(players, size, seed=seed * 100 + number, earlier=seatings, **kw))
    return seatings


@pytest.mark.parametrize(("present", "size", "out"), [(9, 3, 0), (10, 3, 1), (11, 3, 2), (12, 4, 0),
                                                      (13, 4, 1), (15, 4, 3), (3, 3, 0), (4, 4, 0)])
def test_the_players_left_over_when_the_tables_are_full_sit_out(present, size, out):
    assert club.sitting_out_count(present, size) == out
    seating = seat_round([f"P{i}" for i in range(present)], size, seed=present)
    assert len(seating.sitting_out) == out
    assert [len(table) for table in seating.tables] == [size] * (present // size)


def test_fewer_players_than_a_table_or_a_name_twice_cannot_be_seated():
    with pytest.raises(SeatingError, match="4"):
        seat_round(["Aino", "Ben", "Carla"], 4, seed=1)
    with pytest.raises(SeatingError, match=r"A table needs 3 players; only 1 is here\."):
        seat_round(["Aino"], 3, seed=1)
    with pytest.raises(SeatingError, match="Ben"):
        seat_round(["Aino", "Ben", "Carla", "Ben"], 3, seed=1)


@pytest.mark.parametrize(("players", "size", "rounds"), [(NINE, 3, 3), (THIRTEEN, 4, 2), (THIRTEEN, 4, 13),
                                                         (NINE[:7], 3, 6), (THIRTEEN[:10], 4, 5)])
def test_nobody_sits_at_two_tables_and_everyone_present_is_seated_or_sits_out(players, size, rounds):
    for seating in night(players, size, rounds):
        seated = seating.seated
        assert len(seated) == len(set(seated))
        assert sorted([*seated, *seating.sitting_out]) == sorted(players)
        assert not set(seated) & set(seating.sitting_out)


@pytest.mark.parametrize("seed", range(1, 6))
def test_sitting_out_goes_round_before_anyone_sits_out_twice(seed):
    # 13 at Trix: one sits out each round; over 13 rounds each sits out exactly once.
    seatings = night(THIRTEEN, 4, 13, seed=seed)
    assert Counter(name for s in seatings for name in s.sitting_out) == Counter(THIRTEEN)
    # 7 at Trigami: one sits out each round; after any round, sit-outs differ by at most 1
    seatings = night(NINE[:7], 3, 10, seed=seed)
    for done in range(1, 11):
        counts = Counter(name for s in seatings[:done] for name in s.sitting_out)
        assert max(counts[n] for n in NINE[:7]) - min(counts[n] for n in NINE[:7]) <= 1


@pytest.mark.parametrize("seed", range(1, 11))
def test_nine_at_trigami_meet_new_opponents_every_round(seed):
    # three rounds of three tables: each player meets 2 new opponents a round, 6 of 8 in all
    seatings = night(NINE, 3, 3, seed=seed)
    met = club.meetings(seatings)
    assert max(met.values()) == 1
    for name in NINE:
        assert sum(1 for pair in met if name in pair) == 6


@pytest.mark.parametrize("seed", range(1, 11))
def test_thirteen_at_trix_repeat_no_more_meetings_than_the_tables_force(seed):
    # Round 2 seats 12 of the 13; the one who sat out round 1 can join three players from
    # three different tables, but each of the other two tables of round 2 takes four
    # players from only three tables of round 1: at least one pair meets again at each.
    first, second = night(THIRTEEN, 4, 2, seed=seed)
    met = club.meetings([first, second])
    assert sum(1 for count in met.values() if count > 1) == 2
    assert max(met.values()) == 2


def test_the_same_night_seats_the_same_way_and_another_draw_differently():
    assert night(NINE, 3, 3, seed=5) == night(NINE, 3, 3, seed=5)
    assert {night(NINE, 3, 1, seed=s)[0].tables for s in range(1, 6)} != {night(NINE, 3, 1, seed=5)[0].tables}


def test_round_one_by_ranking_puts_the_best_ranked_at_table_one():
    ranking = list(reversed(THIRTEEN[:12]))  # Mona first … Aino last
    seating = seat_round(THIRTEEN[:12], 4, seed=3, order=ranking)
    assert [set(table) for table in seating.tables] == [set(ranking[0:4]), set(ranking[4:8]), set(ranking[8:12])]


def test_partners_change_between_rounds():
    eight = THIRTEEN[:8]
    seatings = night(eight, 4, 3, seed=2, partners=True)
    together = club.partnerships(seatings)
    # three rounds of two tables: 12 partnerships, and among 8 players no pair need repeat
    assert sum(together.values()) == 12
    assert max(together.values()) == 1


# ---------------------------------------------------------------- the standing


def trigami_table(rnd, table, players, totals, finished=True):
    rules = get_rules("trigami")
    options = rules.parse_options({})
    score = GameScore(deals=(), totals=tuple(totals), finished=finished, winners=(), next_dealer=None)
    return TableResult(round=rnd, table=table, players=tuple(players), totals=tuple(totals),
                       places=rules.places(score, options), sides=rules.sides(options), finished=finished)


def trix_table(rnd, table, players, totals, **options_raw):
    rules = get_rules("trix")
    options = rules.parse_options(options_raw)
    score = GameScore(deals=(), totals=tuple(totals), finished=True, winners=(), next_dealer=None)
    return TableResult(round=rnd, table=table, players=tuple(players), totals=tuple(totals),
                       places=rules.places(score, options), sides=rules.sides(options))


def test_placing_points_are_two_for_each_player_behind_and_one_for_each_level():
    # A Trix table: Ben and Carla level first, Aino third, Dora fourth.
    result = trix_table(1, 1, ["Aino", "Ben", "Carla", "Dora"], [-100, 250, 250, -400])
    assert result.places == (3, 1, 1, 4)
    lines = club.round_lines(result)
    # Ben: 2 behind (Aino, Dora) ×2 + 1 level (Carla) = 5; Aino: 1 behind ×2 = 2; Dora 0
    assert [line.points for line in lines] == [2, 5, 5, 0]
    assert sum(line.points for line in lines) == 4 * 3  # N sides: N·(N−1), whatever the ties


def test_reversed_trix_places_the_lowest_first_and_partners_win_together():
    reversed_ = trix_table(1, 1, ["A", "B", "C", "D"], [-100, 250, 40, -400], scoring="reversed")
    assert reversed_.places == (2, 4, 3, 1)
    # partners, "sum": 0+2 have −60, 1+3 have −150: seats 0 and 2 win, 2 points each
    partners = trix_table(1, 1, ["A", "B", "C", "D"], [-100, 250, 40, -400], partnership="sum")
    assert partners.sides == ((0, 2), (1, 3))
    assert [line.points for line in club.round_lines(partners)] == [2, 0, 2, 0]
    level = trix_table(1, 1, ["A", "B", "C", "D"], [-100, 50, 0, -150], partnership="sum")
    assert [line.points for line in club.round_lines(level)] == [1, 1, 1, 1]


def test_a_night_of_nine_at_trigami_is_ranked_by_placing_points_then_score():
    results = [
        # round 1: Aino 503 wins, Ben 320, Carla 320 level second
        trigami_table(1, 1, ["Aino", "Ben", "Carla"], [503, 320, 320]),
        trigami_table(1, 2, ["Dora", "Eero", "Fatima"], [210, 515, 400]),
        trigami_table(1, 3, ["Jörg", "Hanna", "Ilkka"], [100, 200, 510]),
        # round 2
        trigami_table(2, 1, ["Aino", "Dora", "Jörg"], [150, 500, 300]),
        trigami_table(2, 2, ["Ben", "Eero", "Hanna"], [505, 100, 90]),
        trigami_table(2, 3, ["Carla", "Fatima", "Ilkka"], [200, 501, 200]),
    ]
    rows = {row.player: row for row in standing(results, players=NINE)}
    # Aino: first (4) then third (0) = 4; score 503 + 150 = 653
    assert (rows["Aino"].points, rows["Aino"].score) == (4, 653)
    # Ben: level second with Carla (nobody behind, one level: 1), then first (4): 5
    assert (rows["Ben"].points, rows["Ben"].score) == (5, 825)
    # Carla: 1, then level second with Ilkka: 1 → 2
    assert rows["Carla"].points == 2
    # Dora: third 0, first 4 → 4, score 710; Eero: first 4, second 2 → 6
    assert (rows["Dora"].points, rows["Dora"].score) == (4, 710)
    assert rows["Eero"].points == 6
    assert rows["Fatima"].points == 2 + 4
    assert rows["Ilkka"].points == 4 + 1
    assert rows["Hanna"].points == 2 + 0
    assert rows["Jörg"].points == 0 + 2
    ranked = standing(results, players=NINE)
    # Eero 6 (score 615) and Fatima 6 (score 901): Fatima first on score
    assert [(row.rank, row.player) for row in ranked[:2]] == [(1, "Fatima"), (2, "Eero")]
    # Ben 5 (825) before Ilkka 5 (710); Dora 4 (710) before Aino 4 (653)
    assert [row.player for row in ranked[2:6]] == ["Ben", "Ilkka", "Dora", "Aino"]


def test_rows_equal_in_what_ranks_them_share_the_rank():
    results = [trigami_table(1, 1, ["Aino", "Ben", "Carla"], [300, 300, 100]),
               trigami_table(1, 2, ["Dora", "Eero", "Fatima"], [300, 200, 300])]
    ranked = standing(results)
    # Aino, Ben, Dora, Fatima: 3 points and 300 each; then Eero 2 (200), Carla 0
    assert [(row.rank, row.shared) for row in ranked] == [(1, True)] * 4 + [(5, False), (6, False)]
    assert [row.player for row in ranked[:4]] == ["Aino", "Ben", "Dora", "Fatima"]
    by_score = standing(results, ranking="score")
    assert [row.rank for row in by_score] == [1, 1, 1, 1, 5, 6]


def test_a_player_sitting_out_is_level_with_a_table_and_scores_the_rounds_average():
    results = [trix_table(1, 1, ["A", "B", "C", "D"], [-100, 250, 250, -401]),
               trix_table(1, 2, ["E", "F", "G", "H"], [100, 0, -50, -50])]
    rows = {row.player: row for row in standing(results, {1: ["X"]})}
    # level with the other three sides of a table of four: 3 points
    assert rows["X"].points == 3
    # the round's average: (−100 + 250 + 250 − 401 + 100 + 0 − 50 − 50) / 8 = −1/8 → 0
    assert rows["X"].score == 0
    assert rows["X"].rounds[0].sat_out and rows["X"].sat_out == 1 and rows["X"].played == 0
    rows = {row.player: row for row in standing([trix_table(1, 1, ["A", "B", "C", "D"], [-100, -250, 50, -401])],
                                                {1: ["X"]})}
    # −701 / 4 = −175.25: cut toward zero, −175
    assert rows["X"].score == -175


def test_reversed_scoring_ranks_the_lowest_total_first_on_score():
    results = [trix_table(1, 1, ["A", "B", "C", "D"], [-100, 250, 40, -400], scoring="reversed")]
    assert [row.player for row in standing(results, ranking="score", low_wins=True)] == ["D", "A", "C", "B"]


def test_an_unfinished_game_counts_as_it_stands():
    result = trigami_table(1, 1, ["Aino", "Ben", "Carla"], [120, 80, 120], finished=False)
    lines = club.round_lines(result)
    assert [line.points for line in lines] == [3, 0, 3]
    assert not any(line.finished for line in lines)
    # a table that never dealt: everyone level
    empty = trigami_table(1, 2, ["Dora", "Eero", "Fatima"], [0, 0, 0], finished=False)
    assert [line.points for line in club.round_lines(empty)] == [2, 2, 2]


def test_every_table_shares_out_the_same_points_whatever_the_ties():
    for totals in ([1, 2, 3], [1, 1, 3], [1, 1, 1], [5, 3, 5]):
        result = trigami_table(1, 1, ["A", "B", "C"], totals)
        assert sum(line.points for line in club.round_lines(result)) == 3 * 2
    for a, b, c, d in combinations([0, 10, 10, 20, 30], 4):
        result = trix_table(1, 1, ["A", "B", "C", "D"], [a, b, c, d])
        assert sum(line.points for line in club.round_lines(result)) == 4 * 3


def test_the_season_adds_nights_placing_points_then_nights_won_then_fewer_rounds():
    first = standing([trigami_table(1, 1, ["Aino", "Ben", "Carla"], [500, 300, 100]),
                      trigami_table(2, 1, ["Aino", "Ben", "Carla"], [100, 500, 300])], players=["Aino", "Ben", "Carla",
                                                                                                 "Dora"])
    # night 1: Aino 4+0 = 4 (600), Ben 2+4 = 6 (800), Carla 0+2 = 2; Dora never seated
    second = standing([trigami_table(1, 1, ["Aino", "Carla", "Dora"], [400, 500, 100])], {1: ["Ben"]})
    # night 2: Carla 4, Aino 2, Ben sits out: level with a table, 2; Dora 0
    season = {row.player: row for row in club.season_table([first, second])}
    assert (season["Aino"].points, season["Aino"].nights, season["Aino"].rounds) == (6, 2, 3)
    assert (season["Ben"].points, season["Ben"].wins, season["Ben"].rounds) == (8, 1, 2)
    assert (season["Carla"].points, season["Carla"].wins) == (6, 1)
    assert (season["Dora"].nights, season["Dora"].points) == (1, 0)
    ranked = club.season_table([first, second])
    # Ben 8; Carla and Aino 6 each: Carla won a night, Aino none
    assert [(row.rank, row.player) for row in ranked] == [(1, "Ben"), (2, "Carla"), (3, "Aino"), (4, "Dora")]


def test_equal_in_the_season_on_points_wins_and_rounds_share_the_rank():
    a = standing([trigami_table(1, 1, ["Aino", "Ben", "Carla"], [300, 300, 100])])
    ranked = club.season_table([a])
    assert [(row.rank, row.shared, row.player) for row in ranked] == [(1, True, "Aino"), (1, True, "Ben"),
                                                                      (3, False, "Carla")]


# ------------------------------------------------- partners share their side's result


def test_partners_each_score_their_sides_total_in_the_round():
    # partners, "sum": A −100 + C 40 = −60 beats B 250 + D −400 = −150 (docs: "The standing")
    lines = club.round_lines(trix_table(1, 1, ["A", "B", "C", "D"], [-100, 250, 40, -400], partnership="sum"))
    assert [line.score for line in lines] == [-60, -150, -60, -150]
    assert [line.points for line in lines] == [2, 0, 2, 0]
    # the explanation's parts: the player's own total first, then the partner's
    assert [line.side_totals for line in lines] == [(-100, 40), (250, -400), (40, -100), (-400, 250)]
    # a player alone: the own total, no parts
    alone = club.round_lines(trix_table(1, 1, ["A", "B", "C", "D"], [-100, 250, 40, -400]))
    assert [line.score for line in alone] == [-100, 250, 40, -400]
    assert not any(line.side_totals for line in alone)


def test_partners_stay_level_in_the_standing_and_equal_sides_share_the_rank():
    results = [
        # table 1: A+C −100 + 40 = −60 win against B+D 250 − 400 = −150
        trix_table(1, 1, ["A", "B", "C", "D"], [-100, 250, 40, -400], partnership="sum"),
        # table 2: E+G 0 − 60 = −60 win against F+H −200 + 50 = −150: the same as table 1
        trix_table(1, 2, ["E", "F", "G", "H"], [0, -200, -60, 50], partnership="sum"),
    ]
    ranked = standing(results)
    rows = {row.player: row for row in ranked}
    assert {name: (rows[name].points, rows[name].score) for name in "ACEG"} == dict.fromkeys("ACEG", (2, -60))
    assert {name: (rows[name].points, rows[name].score) for name in "BDFH"} == dict.fromkeys("BDFH", (0, -150))
    # two winning sides level in points and score: all four share rank 1; the losers rank 5
    assert [(row.rank, row.shared, row.player) for row in ranked] == [
        (1, True, "A"), (1, True, "C"), (1, True, "E"), (1, True, "G"),
        (5, True, "B"), (5, True, "D"), (5, True, "F"), (5, True, "H")]
    # by score alone, the same: partners never split
    assert [row.rank for row in standing(results, ranking="score")] == [1, 1, 1, 1, 5, 5, 5, 5]


def test_a_side_ahead_on_the_tie_break_ranks_both_partners_ahead():
    # both tables' winners have 2 points; table 2's side totals +200 against table 1's −60
    results = [trix_table(1, 1, ["A", "B", "C", "D"], [-100, 250, 40, -400], partnership="sum"),
               trix_table(1, 2, ["E", "F", "G", "H"], [250, -100, -50, -200], partnership="sum")]
    ranked = standing(results)
    # E and G (2, +200), then A and C (2, −60), then B and D (0, −150), F and H (0, −300)
    assert [(row.rank, row.player, row.score) for row in ranked] == [
        (1, "E", 200), (1, "G", 200), (3, "A", -60), (3, "C", -60),
        (5, "B", -150), (5, "D", -150), (7, "F", -300), (7, "H", -300)]


def test_a_sit_out_at_partnership_trix_scores_the_average_of_the_sides_totals():
    # the example of docs/club-nights.md, "The standing": sides −60, −150 (table 1) and
    # +200, −300 (table 2); everyone at a table gets the side's total, so the average over
    # the eight players is the average over the four sides: −310 / 4 = −77.5 → −77
    results = [trix_table(1, 1, ["A", "B", "C", "D"], [-100, 250, 40, -400], partnership="sum"),
               trix_table(1, 2, ["E", "F", "G", "H"], [250, -100, -50, -200], partnership="sum")]
    rows = {row.player: row for row in standing(results, {1: ["X"]})}
    # level with the other side of a table of two sides: 1 placing point (a table's average)
    assert (rows["X"].points, rows["X"].score) == (1, -77)
    # not the average of the eight players' own totals (−310 / 8 → −38)
    assert rows["X"].score != -38


def test_worst_loses_partners_score_their_sides_total_even_when_it_is_the_lower():
    # "worst-loses": D's −400 is the worst, so B+D (250 − 400 = −150) lose, and A+C
    # (−300 + 100 = −200) win with the lower total: each partner scores the side's total
    lines = club.round_lines(trix_table(1, 1, ["A", "B", "C", "D"], [-300, 250, 100, -400],
                                        partnership="worst-loses"))
    assert [line.points for line in lines] == [2, 0, 2, 0]
    assert [line.score for line in lines] == [-200, -150, -200, -150]


def test_the_season_adds_each_partners_side_totals():
    night = standing([trix_table(1, 1, ["A", "B", "C", "D"], [-100, 250, 40, -400], partnership="sum"),
                      trix_table(2, 1, ["A", "B", "C", "D"], [300, 0, -100, -200], partnership="sum")])
    # round 2: A+C 300 − 100 = 200 beat B+D 0 − 200 = −200; A and C: −60 + 200 = 140
    season = {row.player: row for row in club.season_table([night])}
    assert (season["A"].points, season["A"].score) == (4, 140)
    assert (season["C"].points, season["C"].score) == (4, 140)
    assert (season["B"].points, season["B"].score) == (0, -350)
