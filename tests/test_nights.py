"""Club nights through the pages (issue 20): start a night, each table's game played
through the real deal forms, rounds closed by themselves or by the organiser, late
arrivals and leavers, the standing worked out by hand from docs/club-nights.md, and the
night file's round trip.

The rules used by hand here (docs/club-nights.md, "The standing"): at each table, 2
placing points for every side that finished behind yours and 1 for every other side level
with yours (a Trigami table: 4, 2, 0; two level second: 4, 1, 1; a Trix table of four with
three level first: 4, 4, 4, 0); a player who sits a round out gets a table's average (Trix:
3) and the round's average score, cut toward zero.
"""

from __future__ import annotations

import html
import io
import json
import re
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from openskill.models import BradleyTerryFull

from scorekeeper import create_app, groups, night_actions, night_store, store, summaries
from scorekeeper.db import connect
from tests.database_support import new_database

NINE = ["Aino", "Bruno", "Carla", "Dmitri", "Eeva", "Farid", "Greta", "Hamid", "Ilse"]
THIRTEEN = [*NINE, "Jonas", "Karim", "Lotta", "Mona"]


def text(response) -> str:
    """The page as a player reads it: tags dropped, entities decoded, spaces folded, the
    names' isolation marks dropped."""
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    plain = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?bdi>", "", body)))
    return " ".join(plain.replace("\u2068", "").replace("\u2069", "").split())


@pytest.fixture
def fixed_seed(monkeypatch):
    """The night's draw fixed, so a failure can be replayed."""
    monkeypatch.setattr(night_actions.secrets, "randbelow", lambda _n: 20261204)


def start(client, kind: str, names: list[str], rounds: int, *, ranking: str = "placings", ticked=(), **settings):
    """Start a night through its form; returns the night's id."""
    data = {"newcomers": "\n".join(names), "rounds": str(rounds), "ranking": ranking, "seating": "random",
            "present": list(ticked), **settings}
    if kind != "trix":
        data.setdefault("target", "100")
    else:
        data.setdefault("values", "standard")
        data.setdefault("scoring", "standard")
        data.setdefault("partnership", "")
        data.setdefault("doubling", "y")
        data.setdefault("taken_back", "leader")
    response = client.post(f"/nights/new?kind={kind}", data=data)
    assert response.status_code == 302, text(response)[-600:]
    return int(response.location.rsplit("/", 1)[-1])


def night(db, night_id):
    return night_store.get_night(db, night_id)


def trigami_deal(bids_tricks: list[tuple[str, int, int]], nonce: str) -> dict[str, str]:
    """The Trigami deal form's fields: (bid suit, tricks, bugs) per seat."""
    data = {"nonce": nonce}
    for seat, (suit, tricks, bugs) in enumerate(bids_tricks):
        data[f"bids_{seat}"] = suit
        data[f"tricks_{seat}"] = str(tricks)
        data[f"bugs_{seat}"] = str(bugs)
    return data


def play_trigami(client, game_id: str, players: tuple[str, ...], order: list[str], nonce: str) -> dict[str, int]:
    """One deal that ends a game to 100: ``order`` (names, first to third) take 7 clean
    tricks (7 × 20 = 140), 6 clean tricks (120) and no trick (50: SCORING.md §1.2, normal
    scoring); returns each name's score."""
    points = {order[0]: 140, order[1]: 120, order[2]: 50}
    tricks = {order[0]: 7, order[1]: 6, order[2]: 0}
    suits = "SHD"
    data = trigami_deal([(suits[seat], tricks[name], 0) for seat, name in enumerate(players)], nonce)
    answer = client.post(f"/games/{game_id}/deals/new", data=data)
    assert answer.status_code == 302, text(answer)[-500:]
    return points


def sweep_trigami(client, game_id: str, players: tuple[str, ...], winner: str, nonce: str) -> dict[str, int]:
    """One deal where ``winner`` takes every trick: 100, both others 0 (SCORING.md §1.2, 1)."""
    suits = "SHD"
    data = trigami_deal([(suits[seat], 13 if name == winner else 0, 10 if name == winner else 0)
                         for seat, name in enumerate(players)], nonce)
    answer = client.post(f"/games/{game_id}/deals/new", data=data)
    assert answer.status_code == 302, text(answer)[-500:]
    return {name: 100 if name == winner else 0 for name in players}


def standing_rows(client, night_id) -> list[tuple[str, str, int, int]]:
    """The standing page's rows: (rank as shown, name, placing points, score)."""
    page = client.get(f"/nights/{night_id}/standing").get_data(as_text=True)
    table = page[page.index('<table class="standing">'):page.index("</table>")]
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]:
        cells = [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
                 for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        rows.append((cells[0], cells[1], int(cells[2]), int(cells[3].replace("−", "-"))))
    return rows


def ranked(points: dict[str, int], scores: dict[str, int]) -> list[tuple[str, str, int, int]]:
    """The standing by hand: most placing points, then the higher score; equal in both
    share the rank, shown "3="; listed by name within a shared rank."""
    order = sorted(points, key=lambda name: (-points[name], -scores[name], name.casefold()))
    rows = []
    for name in order:
        key = (points[name], scores[name])
        first = next(i for i, other in enumerate(order) if (points[other], scores[other]) == key)
        shared = sum(1 for other in order if (points[other], scores[other]) == key) > 1
        rows.append((f"{first + 1}{'=' if shared else ''}", name, points[name], scores[name]))
    return rows


def assert_round_seated(round_, present: list[str], size: int) -> None:
    """Everyone present is at exactly one table or sits out; tables are full."""
    seated = [name for table in round_.tables for name in table.game.players]
    assert all(len(table.game.players) == size for table in round_.tables)
    assert len(seated) == len(set(seated)), "nobody at two tables"
    assert sorted(seated + list(round_.sitting_out)) == sorted(present)
    assert len(round_.sitting_out) == len(present) % size


# ----------------------------------------------------------------- nine at Trigami


def test_nine_at_trigami_three_rounds(client, db, fixed_seed):
    night_id = start(client, "trigami", NINE, 3)
    page = text(client.get(f"/nights/{night_id}"))
    assert "Round 1 of 3" in page and "Table 3" in page and "Table 4" not in page
    points = dict.fromkeys(NINE, 0)
    scores = dict.fromkeys(NINE, 0)
    for number in (1, 2, 3):
        current = night(db, night_id).current
        assert current.number == number
        assert_round_seated(current, NINE, 3)
        for table in current.tables:
            players = table.game.players
            if number == 3 and table.number == 1:  # a tie: two level second, 1 point each
                winner = sorted(players)[0]
                got = sweep_trigami(client, table.game.id, players, winner, f"r{number}t{table.number}")
                for name in players:
                    points[name] += 4 if name == winner else 1
            else:  # first to third by name: 140, 120, 50; placing points 4, 2, 0
                order = sorted(players)
                got = play_trigami(client, table.game.id, players, order, f"r{number}t{table.number}")
                for name, gained in zip(order, (4, 2, 0), strict=True):
                    points[name] += gained
            for name, score in got.items():
                scores[name] += score
        # every game over: the round is over by itself
        page = text(client.get(f"/nights/{night_id}"))
        assert "This round is over." in page or "The night is over." in page
        if number < 3:
            assert client.post(f"/nights/{night_id}/next").status_code == 302
    # nine players meet new opponents every round: no pair twice
    met = Counter(frozenset(pair) for round_ in night(db, night_id).rounds for table in round_.tables
                  for pair in combinations(table.game.players, 2))
    assert max(met.values()) == 1 and len(met) == 27
    assert standing_rows(client, night_id) == ranked(points, scores)
    over = text(client.get(f"/nights/{night_id}"))
    assert "The night is over." in over
    # its winner is called so, not "Leading" (tester 28), as the season's list says
    first = [name for rank, name, _, _ in ranked(points, scores) if rank.rstrip("=") == "1"]
    assert f"Winner{'s' if len(first) > 1 else ''}: {', '.join(first)}" in over and "Leading" not in over
    # each figure explained: Aino is first at every table she plays (first by name)
    why = text(client.get(f"/nights/{night_id}/standing"))
    assert "Round 1, table" in why and "place 1 of 3. 2 behind × 2 + 0 level × 1 = 4 placing points. Score 140." in why
    assert "0 behind × 2 + 1 level × 1 = 1 placing point. Score 0." in why  # the tie's second places


def test_two_tables_level_share_the_rank(client, db, fixed_seed):
    """Two tables each swept by one player: both winners 4 points and 100, the four others
    1 point and 0: ranks 1= 1= 3= 3= 3= 3= (docs/club-nights.md: equal shares the rank)."""
    names = NINE[:6]
    night_id = start(client, "trigami", names, 1)
    winners = []
    for table in night(db, night_id).current.tables:
        winner = table.game.players[1]
        winners.append(winner)
        sweep_trigami(client, table.game.id, table.game.players, winner, f"t{table.number}")
    rows = standing_rows(client, night_id)
    assert [row[0] for row in rows] == ["1=", "1=", "3=", "3=", "3=", "3="]
    assert sorted(row[1] for row in rows[:2]) == sorted(winners)
    assert {(row[2], row[3]) for row in rows[:2]} == {(4, 100)}
    assert {(row[2], row[3]) for row in rows[2:]} == {(1, 0)}


# ----------------------------------------------------------------- thirteen at Trix


def king_taken(client, game_id: str, seat: int, nonce: str) -> None:
    """Deal 1 of a Trix game: the King of Hearts, taken by ``seat`` (−75, SCORING.md §2)."""
    answer = client.post(f"/games/{game_id}/deals/new", data={"nonce": nonce, "contracts": "king",
                                                               "king_taker": str(seat)})
    assert answer.status_code == 302, text(answer)[-500:]


def test_thirteen_at_trix_two_rounds_closed_early(client, db, fixed_seed):
    night_id = start(client, "trix", THIRTEEN, 2)
    first = night(db, night_id).current
    assert_round_seated(first, THIRTEEN, 4)
    (out_1,) = first.sitting_out
    points = dict.fromkeys(THIRTEEN, 0)
    scores = dict.fromkeys(THIRTEEN, 0)
    # round 1: every table deals the King, taken by its seat 0: −75 for them, three level first
    for table in first.tables:
        king_taken(client, table.game.id, 0, f"r1t{table.number}")
        for seat, name in enumerate(table.game.players):
            points[name] += 0 if seat == 0 else 4  # 3 level first: 2 × 1 behind + 1 × 2 level
            scores[name] += -75 if seat == 0 else 0
    # the sit-out: 3 points (level with the three other sides), average −225 / 12 = −18.75 → −18
    points[out_1] += 3
    scores[out_1] += -18
    # not over: seating the next round is refused, and says so
    refused = client.post(f"/nights/{night_id}/next", follow_redirects=True)
    assert "Round 1 is not over" in text(refused)
    ask = text(client.get(f"/nights/{night_id}/close"))
    assert "3 tables are still playing" in ask and "count as they stand" in ask
    assert client.post(f"/nights/{night_id}/close").status_code == 302
    assert client.post(f"/nights/{night_id}/next").status_code == 302
    second = night(db, night_id).current
    assert second.number == 2
    assert_round_seated(second, THIRTEEN, 4)
    (out_2,) = second.sitting_out
    assert out_2 != out_1, "nobody sits out twice before everyone has sat out once"
    # opponents varied: with 13 at Trix two pairs must meet again in round 2, and no more
    met = Counter(frozenset(pair) for round_ in night(db, night_id).rounds for table in round_.tables
                  for pair in combinations(table.game.players, 2))
    assert sum(count - 1 for count in met.values()) <= 2
    # round 2: table 1 deals the King taken by seat 1; tables 2 and 3 have not dealt (all
    # level: 3 points each, 0)
    t1 = second.tables[0]
    king_taken(client, t1.game.id, 1, "r2t1")
    for seat, name in enumerate(t1.game.players):
        points[name] += 0 if seat == 1 else 4
        scores[name] += -75 if seat == 1 else 0
    for table in second.tables[1:]:
        for name in table.game.players:
            points[name] += 3
    points[out_2] += 3
    scores[out_2] += -6  # −75 / 12 = −6.25 → −6
    ask = text(client.get(f"/nights/{night_id}/close"))
    assert "3 tables are still playing" in ask
    client.post(f"/nights/{night_id}/close")
    expected = ranked(points, scores)
    assert standing_rows(client, night_id) == expected
    # a deal added after the round was closed early changes nothing in the night
    king_taken(client, second.tables[1].game.id, 2, "late")
    assert standing_rows(client, night_id) == expected
    why = text(client.get(f"/nights/{night_id}/standing"))
    assert "Round 1: sat out. Counted level with every other side of a table: 3 × 1 = 3 placing points. " \
           "Score -18" in why.replace("−", "-")
    assert "The game was not over: it counts as it stood." in why
    assert "1 deal · counted as it stood" in text(client.get(f"/nights/{night_id}"))
    # the last planned round is played: no round 3
    assert "Seat round 3" not in text(client.get(f"/nights/{night_id}"))


def test_a_counted_deal_deleted_after_an_early_close_lets_no_later_deal_in(client, db, fixed_seed):
    """A round closed early counts each table's deals as they stood (docs/club-nights.md,
    "A round closed early"). Deleting one of those deals afterwards (a deal entered twice)
    leaves the table one deal fewer to count, not the first deal added after the close in
    its place (tester 11, HIGH: it counted in the night). Restored, it counts again; a
    deal added after the close counts in no case. SCORING.md §2: the King −75 to its
    taker, Diamonds −10 a diamond (13 diamonds: −130)."""
    night_id = start(client, "trix", NINE[:8], 2)  # two tables of four
    table = night(db, night_id).current.tables[0]
    game_id, taker = table.game.id, table.game.players[0]
    king_taken(client, game_id, 0, "counted king")  # deal 1: the taker −75
    assert client.post(f"/nights/{night_id}/close").status_code == 302  # table 2 has not dealt: early
    late = client.post(f"/games/{game_id}/deals/new", data={"nonce": "after the close", "contracts": "diamonds",
                                                             "diamonds_0": "13", "diamonds_1": "0", "diamonds_2": "0",
                                                             "diamonds_3": "0"})
    assert late.status_code == 302, text(late)[-500:]  # deal 2, after the close: the taker −130

    def taker_score() -> int:
        return next(score for _rank, name, _points, score in standing_rows(client, night_id) if name == taker)

    def counted() -> int | None:
        return night(db, night_id).rounds[0].tables[0].counted

    assert (counted(), taker_score()) == (1, -75)
    king, diamonds = store.get_game(db, game_id).deals
    assert client.post(f"/games/{game_id}/deals/{king.id}/delete").status_code == 302
    assert (counted(), taker_score()) == (0, 0)  # nothing of the table's counts; not the Diamonds
    page = text(client.get(f"/nights/{night_id}"))
    assert "No deal · counted as it stood" in page and "No deal yet" not in page  # (its game has one)
    assert client.post(f"/games/{game_id}/deals/{king.id}/restore").status_code == 302
    assert (counted(), taker_score()) == (1, -75)
    # the deal added after the close, deleted and restored: the count never moves
    assert client.post(f"/games/{game_id}/deals/{diamonds.id}/delete").status_code == 302
    assert (counted(), taker_score()) == (1, -75)
    assert client.post(f"/games/{game_id}/deals/{diamonds.id}/restore").status_code == 302
    assert (counted(), taker_score()) == (1, -75)
    assert len(store.get_game(db, game_id).deals) == 2


def test_a_round_being_played_is_told_in_the_present(client, db, fixed_seed):
    """While round 1 is played, its games count as they stand now, and the standing says
    so in the present; once closed early, in the past (tester 11, LOW: "The game was not
    over: it counts as it stood" of a game still being played)."""
    night_id = start(client, "trix", NINE[:8], 2)
    king_taken(client, night(db, night_id).current.tables[0].game.id, 0, "playing")
    why = text(client.get(f"/nights/{night_id}/standing"))
    assert "The game is not over yet: it counts as it stands." in why
    assert "it counts as it stood" not in why
    client.post(f"/nights/{night_id}/close")
    why = text(client.get(f"/nights/{night_id}/standing"))
    assert "The game was not over: it counts as it stood." in why and "it counts as it stands" not in why


def test_partners_sit_opposite_and_score_as_a_side(client, db, fixed_seed):
    """Partnership Trix: each table of four is two pairs (seats 0+2, 1+3); a side's places
    are its partners' (docs/club-nights.md): the winning pair 2 points each, the other 0."""
    night_id = start(client, "trix", NINE[:8], 1, partnership="sum")
    tables = night(db, night_id).current.tables
    page = text(client.get(f"/nights/{night_id}"))
    printed = text(client.get(f"/nights/{night_id}/print"))  # the table cards say it too
    for table in tables:
        p = table.game.players
        assert f"Partners: {p[0]} & {p[2]}, {p[1]} & {p[3]}." in page
        assert f"Partners: {p[0]} & {p[2]}, {p[1]} & {p[3]}." in printed
    king_taken(client, tables[0].game.id, 0, "p1")
    client.post(f"/nights/{night_id}/close")
    rows = {row[1]: row[2] for row in standing_rows(client, night_id)}
    p = tables[0].game.players
    assert rows[p[1]] == rows[p[3]] == 2 and rows[p[0]] == rows[p[2]] == 0
    q = tables[1].game.players
    assert {rows[name] for name in q} == {1}  # no deal: the two sides level


def test_partners_score_their_sides_total_and_a_sit_out_the_sides_average(client, db, fixed_seed):
    """Partnership Trix, nine players: two tables and a sit-out. Each partner's round
    score is the side's total; the sit-out scores the average of the round's side totals
    (docs/club-nights.md, "The standing")."""
    night_id = start(client, "trix", NINE, 1, partnership="sum")
    first = night(db, night_id).current
    (out,) = first.sitting_out
    tables = first.tables
    king_taken(client, tables[0].game.id, 0, "p1")  # seat 0: −75 (SCORING.md §2)
    client.post(f"/nights/{night_id}/close")
    p, q = tables[0].game.players, tables[1].game.players
    rows = {row[1]: row for row in standing_rows(client, night_id)}
    # table 1: p0+p2 −75 + 0 = −75, p1+p3 0: p1 and p3 win (2), p0 and p2 0
    assert [rows[name][2:] for name in p] == [(0, -75), (2, 0), (0, -75), (2, 0)]
    # table 2 no deal: both sides level (1), 0
    assert [rows[name][2:] for name in q] == [(1, 0)] * 4
    # the sit-out: level with the other side of a table (1); sides −75, 0, 0, 0: −75 / 4 =
    # −18.75 → −18 (the eight players' own totals would give −75 / 8 → −9)
    assert rows[out][2:] == (1, -18)
    # ranked: p1, p3 (2, 0) share first; the table-2 four (1, 0) share third; the sit-out
    # (1, −18) seventh; p0 and p2 (0, −75) share eighth
    assert [(rows[name][0]) for name in (p[1], p[3], *q, out, p[0], p[2])] == \
        ["1=", "1=", "3=", "3=", "3=", "3=", "7", "8=", "8="]
    why = text(client.get(f"/nights/{night_id}/standing")).replace("−", "-")
    assert "Score -75: your side's total, yours -75 + your partner's 0." in why
    assert "Score -75: your side's total, yours 0 + your partner's -75." in why
    assert "Score -18: the average of the sides' totals that round, cut toward zero." in why
    assert "Partners share their side's result" in why


def test_one_placing_point_is_said_in_the_singular(client, db, fixed_seed):
    """Partnership Trix, nine players, round 1 closed before any deal: every side level
    with the other side of its table, 1 placing point each, and the sit-out 1 too (a
    table's average: docs/club-nights.md); a count of 1 reads "1 placing point"."""
    night_id = start(client, "trix", NINE, 1, partnership="sum")
    client.post(f"/nights/{night_id}/close")
    why = text(client.get(f"/nights/{night_id}/standing"))
    assert "1 level × 1 = 1 placing point." in why
    assert "Counted level with every other side of a table: 1 × 1 = 1 placing point." in why
    assert "1 placing points" not in why


def test_one_table_still_playing_is_said_in_the_singular(client, db, fixed_seed):
    night_id = start(client, "trigami", NINE[:3], 2)
    answer = client.post(f"/nights/{night_id}/next", follow_redirects=True)
    assert "Round 1 is not over: table 1 is still playing. Close the round first to count it as it stands." \
        in text(answer)


# ----------------------------------------------------------------- late arrivals and leavers


def test_late_arrival_and_leaver(client, db, fixed_seed):
    names = NINE[:6]
    night_id = start(client, "trigami", names, 3)
    leaver = names[0]
    answer = client.post(f"/nights/{night_id}/arrive", data={"name": "Zoe"}, follow_redirects=True)
    assert "Zoe joins from round 2." in text(answer)
    client.post(f"/nights/{night_id}/arrive", data={"name": "Yusuf"})
    answer = client.post(f"/nights/{night_id}/leave", data={"player": leaver}, follow_redirects=True)
    assert f"{leaver} leaves after round 1." in text(answer)
    first = night(db, night_id).rounds[0]
    assert "Zoe" not in [n for t in first.tables for n in t.game.players]
    assert leaver in [n for t in first.tables for n in t.game.players]  # plays out round 1
    for table in first.tables:
        play_trigami(client, table.game.id, table.game.players, sorted(table.game.players), f"t{table.number}")
    client.post(f"/nights/{night_id}/next")
    second = night(db, night_id).rounds[1]
    present = [*names[1:], "Zoe", "Yusuf"]
    assert_round_seated(second, present, 3)  # 7 players: two tables and one sits out
    assert leaver not in [*second.sitting_out, *(n for t in second.tables for n in t.game.players)]
    rows = {row[1]: row for row in standing_rows(client, night_id)}
    assert rows[leaver][2] in (0, 2, 4)  # round 1 only: rounds not played count nothing
    page = text(client.get(f"/nights/{night_id}"))
    assert "Zoe from round 2" in page and f"{leaver} until round 1" in page


def test_late_arrival_who_leaves_before_playing_is_off_the_night(client, db, fixed_seed):
    night_id = start(client, "trigami", NINE[:3], 2)
    client.post(f"/nights/{night_id}/arrive", data={"name": "Zoe"})
    answer = client.post(f"/nights/{night_id}/leave", data={"player": "Zoe"}, follow_redirects=True)
    assert "Zoe is no longer on the night." in text(answer)
    assert [p.name for p in night(db, night_id).players] == NINE[:3]
    answer = client.post(f"/nights/{night_id}/leave", data={})
    assert answer.status_code == 400 and "Choose who leaves." in text(answer)


def test_late_arrival_name_checked_beside_its_field(client, db, fixed_seed):
    night_id = start(client, "trigami", NINE[:3], 2)
    answer = client.post(f"/nights/{night_id}/arrive", data={"name": "  "})
    assert answer.status_code == 400 and "Enter the late arrival's name." in text(answer)
    assert len(night(db, night_id).players) == 3


def test_start_refuses_too_few_and_keeps_what_was_typed(client, db):
    answer = client.post("/nights/new?kind=trix", data={"newcomers": "Aino\nBruno\nCarla", "rounds": "2",
                                                         "ranking": "placings", "seating": "random"})
    assert answer.status_code == 400
    assert "A table needs 4 players; only 3 are ticked or typed." in text(answer)
    assert "Bruno" in answer.get_data(as_text=True)
    assert db["nights"].count == 0 and db["games"].count == 0
    answer = client.post("/nights/new?kind=trigami", data={"newcomers": "Aino\naino\nCarla", "rounds": "2",
                                                            "target": "100"})
    assert answer.status_code == 400 and "named twice" in text(answer)


def test_present_ticked_from_the_group_and_newcomers_typed(client, db, fixed_seed):
    """The group's players are offered as ticks; the ticked and the typed make the night."""
    start(client, "trigami", NINE[:3], 1)
    form = text(client.get("/nights/new?kind=trigami"))
    assert all(name in form for name in NINE[:3])
    night_id = start(client, "trigami", ["Zoe"], 1, ticked=["Aino", "Carla"])
    seated = night(db, night_id).current.tables[0].game.players
    assert sorted(seated) == ["Aino", "Carla", "Zoe"]


def test_a_plain_bugami_night_seats_tables_of_three(client, db, fixed_seed):
    night_id = start(client, "bugami3", NINE[:7], 2)
    current = night(db, night_id).current
    assert_round_seated(current, NINE[:7], 3)  # two tables, one sits out
    assert all(table.game.kind == "bugami3" and table.game.options == {"target": 100} for table in current.tables)


def test_table_sheet_names_its_night(client, db, fixed_seed):
    night_id = start(client, "trigami", NINE[:6], 2, name="Friday club")
    table = night(db, night_id).current.tables[1]
    sheet = client.get(f"/games/{table.game.id}").get_data(as_text=True)
    assert "Club night: round 1, table 2" in text(client.get(f"/games/{table.game.id}"))
    assert "Club night: round 1, table 2" in text(client.get(f"/games/{table.game.id}/print"))
    # its card in the games list names the night (tester 65: which night's table 2?)
    assert "Friday club: round 1, table 2" in text(client.get("/"))
    assert f'href="/nights/{night_id}"' in sheet
    night_page = client.get(f"/nights/{night_id}").get_data(as_text=True)
    assert f'href="/games/{table.game.id}"' in night_page and "join-qr" in night_page
    assert "Friday club" in night_page


def test_nights_reachable_from_home_and_group_page(client):
    assert 'href="/nights"' in client.get("/").get_data(as_text=True)
    assert 'href="/nights"' in client.get("/group").get_data(as_text=True)


# ----------------------------------------------------------------- the night file


def two_rounds_played(client, db) -> int:
    """A night of seven over two rounds: round 1's tables played to their end, round 2's
    first table swept and the round closed early (table 2 has not dealt); its id."""
    night_id = start(client, "trigami", NINE[:7], 2)
    for table in night(db, night_id).current.tables:
        play_trigami(client, table.game.id, table.game.players, sorted(table.game.players), f"t{table.number}")
    client.post(f"/nights/{night_id}/next")
    table = night(db, night_id).current.tables[0]
    sweep_trigami(client, table.game.id, table.game.players, table.game.players[2], "sweep")
    client.post(f"/nights/{night_id}/close")  # table 2 has not dealt: closed early
    return night_id


def test_night_file_round_trip(client, db, tmp_path, fixed_seed):
    night_id = two_rounds_played(client, db)
    download = client.get(f"/nights/{night_id}/night.json")
    assert download.status_code == 200
    assert download.headers["Content-Disposition"].startswith("attachment;")
    data = json.loads(download.data)
    assert data["format"] == 1 and data["game"] == "trigami" and data["rounds_planned"] == 2
    assert [r["closed_early"] for r in data["rounds"]] == [False, True]
    assert "counted" in data["rounds"][1]["tables"][1]
    standing = standing_rows(client, night_id)
    seating = [[t.game.players for t in r.tables] for r in night(db, night_id).rounds]

    fresh = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                        "DATABASE": new_database(tmp_path / "fresh.sqlite3")})
    other = fresh.test_client()
    answer = other.post("/games/import", data={"file": (io.BytesIO(download.data), "night.json")},
                        content_type="multipart/form-data")
    assert answer.status_code == 302, text(answer)[-800:]
    new_id = int(answer.location.rsplit("/", 1)[-1])
    assert standing_rows(other, new_id) == standing
    fresh_db = connect(fresh.config["DATABASE"])
    try:
        again = night_store.get_night(fresh_db, new_id)
        assert [[t.game.players for t in r.tables] for r in again.rounds] == seating
        assert fresh_db["games"].count == 4  # two rounds of two tables: every table an ordinary game of the group
    finally:
        fresh_db.conn.close()
    # the same file exported again from there is the same night
    assert json.loads(other.get(f"/nights/{new_id}/night.json").data) == data
    # imported again: already there, nothing stored twice
    again_answer = other.post("/games/import", data={"file": (io.BytesIO(download.data), "night.json")},
                              content_type="multipart/form-data", follow_redirects=True)
    assert "this club night is already stored" in text(again_answer)
    fresh_db = connect(fresh.config["DATABASE"])
    try:
        assert fresh_db["nights"].count == 1 and fresh_db["games"].count == 4
    finally:
        fresh_db.conn.close()


def test_a_night_file_after_the_group_file_makes_the_games_stored_its_tables(client, db, tmp_path, fixed_seed):
    """Tester 3's steps (stop 31): a group moved with "Download all games", and its club
    night with its night file. The group file holds the night's table games as games of
    the group; the night imported after it takes those games as its tables instead of
    storing each a second time, so every player's games are counted once, as at home."""
    night_id = two_rounds_played(client, db)
    group_file = client.get("/group/games.json").data
    night_file = client.get(f"/nights/{night_id}/night.json").data
    standing = standing_rows(client, night_id)
    played = {r.name: (r.played, r.won) for r in summaries.records(db, groups.only_group(db).id)}

    fresh = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                        "DATABASE": new_database(tmp_path / "fresh.sqlite3")})
    other = fresh.test_client()
    for name, body in (("games.json", group_file), ("night.json", night_file)):
        answer = other.post("/games/import", data={"file": (io.BytesIO(body), name)},
                            content_type="multipart/form-data")
        assert answer.status_code in (302, 303), text(answer)[-800:]  # the report's page, the night's
    new_id = int(answer.location.rsplit("/", 1)[-1])
    assert standing_rows(other, new_id) == standing
    # and the group file once more, after the night: its games are the night's tables
    again = other.post("/games/import", data={"file": (io.BytesIO(group_file), "games.json")},
                       content_type="multipart/form-data", follow_redirects=True)
    assert "0 games imported. 4 games were here already" in text(again)
    fresh_db = connect(fresh.config["DATABASE"])
    try:
        assert fresh_db["games"].count == 4  # two rounds of two tables, each stored once
        tables = {t.game.id for r in night_store.get_night(fresh_db, new_id).rounds for t in r.tables}
        assert tables == {g.id for g in store.list_games(fresh_db)}
        group = groups.only_group(fresh_db)
        assert {r.name: (r.played, r.won) for r in summaries.records(fresh_db, group.id)} == played
    finally:
        fresh_db.conn.close()


def test_bad_night_file_refused_whole(client, db, tmp_path, fixed_seed):
    night_id = start(client, "trigami", NINE[:6], 1)
    data = json.loads(client.get(f"/nights/{night_id}/night.json").data)
    tables = data["rounds"][0]["tables"]
    tables[1]["game"]["players"][0] = tables[0]["game"]["players"][0]  # one player at two tables
    fresh = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                        "DATABASE": new_database(tmp_path / "fresh.sqlite3")})
    other = fresh.test_client()
    answer = other.post("/games/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "night.json")},
                        content_type="multipart/form-data")
    assert answer.status_code == 400
    page = text(answer)
    assert "Nothing was imported." in page and "sits at two tables" in page
    assert "rounds[0].tables[1].game.players" in page
    # where, as a reader counts (tester 2, stop 31: the file's path counts from 0)
    assert "Round 1, table 2 ( rounds[0].tables[1].game.players )" in page
    fresh_db = connect(fresh.config["DATABASE"])
    try:
        assert fresh_db["nights"].count == 0 and fresh_db["games"].count == 0
    finally:
        fresh_db.conn.close()


def test_a_broken_table_deal_in_a_night_file_is_said_in_the_readers_language(client, tmp_path, fixed_seed):
    """Tester 2 (stop 31): a German reader was told "deal 1: Die Stiche ergeben 14" with
    "deal" in English, under a path counting rounds from 0."""
    night_id = start(client, "trigami", NINE[:6], 1)
    data = json.loads(client.get(f"/nights/{night_id}/night.json").data)
    data["rounds"][0]["tables"][1]["game"]["deals"] = [
        {"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [5, 5, 4], "bugs": [0, 0, 0]}]
    fresh = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                        "DATABASE": new_database(tmp_path / "fresh.sqlite3")})
    other = fresh.test_client()
    other.get("/language/de", query_string={"next": "/"})
    answer = other.post("/games/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "night.json")},
                        content_type="multipart/form-data")
    assert answer.status_code == 400
    page = text(answer)
    assert "Runde 1, Tisch 2" in page and "Spiel 1:" in page and "14" in page
    assert "deal 1" not in page


def two_copies_of_a_night(client, db, tmp_path) -> tuple[bytes, bytes, Any]:
    """A night of six's file before and after table 1's game was played to its end, and
    another server's app (an empty database): (earlier file, later file, that app)."""
    night_id = start(client, "trigami", NINE[:6], 1)
    earlier = client.get(f"/nights/{night_id}/night.json").data
    table = night(db, night_id).current.tables[0]
    play_trigami(client, table.game.id, table.game.players, sorted(table.game.players), "t1")
    later = client.get(f"/nights/{night_id}/night.json").data
    fresh = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                        "DATABASE": new_database(tmp_path / "fresh.sqlite3")})
    return earlier, later, fresh


def test_a_later_copy_of_a_night_stored_already_is_told_and_how_to_take_it(client, db, tmp_path, fixed_seed):
    """Tester 2 (stop 31): a night file imported while round 1 was played, then its later
    copy: nothing is imported (the night is here), but the reader is told that the copy
    here is older, by how many deals, and how to take the file's; the same copy again is
    simply here already."""
    earlier, later, fresh = two_copies_of_a_night(client, db, tmp_path)
    other = fresh.test_client()

    def sent(body: bytes) -> str:
        return text(other.post("/games/import", data={"file": (io.BytesIO(body), "night.json")},
                               content_type="multipart/form-data", follow_redirects=True))

    sent(earlier)
    page = sent(later)
    assert ("Nothing was imported: this club night is stored here already, with 1 deal fewer than the file: "
            "the copy here is older.") in page
    assert "delete the night here (at the foot of its page), then import the file again" in page
    assert sent(earlier).count("Nothing was imported: this club night is already stored.") == 1


def test_a_night_deleted_to_take_a_later_copy_stays_deleted_once_that_copy_is_in(client, db, tmp_path, fixed_seed):
    """Tester 3 (stop 31) did as the page says: the older copy deleted, the later file
    imported; then "Restore" on the deleted one put it back beside the new one, and the
    season counted the night twice. The restore is refused, and says why."""
    earlier, later, fresh = two_copies_of_a_night(client, db, tmp_path)
    other = fresh.test_client()

    def imported(body: bytes) -> int:
        answer = other.post("/games/import", data={"file": (io.BytesIO(body), "night.json")},
                            content_type="multipart/form-data")
        return int(answer.location.rsplit("/", 1)[-1])

    old = imported(earlier)
    other.post(f"/nights/{old}/delete", data={"deals": "0"})
    new = imported(later)
    assert new != old
    answer = other.post(f"/nights/{old}/restore", follow_redirects=True)
    assert ("The night stays deleted: the same night, its draw and players, is in the nights list again "
            "(imported again?), so restoring it would count every table twice.") in text(answer)
    fresh_db = connect(fresh.config["DATABASE"])
    try:
        assert [n.id for n in night_store.list_nights(fresh_db, groups.only_group(fresh_db).id)] == [new]
        assert [n.id for n, _when in night_store.deleted_nights(fresh_db, groups.only_group(fresh_db).id)] == [old]
    finally:
        fresh_db.conn.close()


def test_big_screen_and_print_show_standing_and_tables(client, db, fixed_seed):
    night_id = start(client, "trigami", NINE[:6], 2)
    screen = client.get(f"/nights/{night_id}/screen")
    assert screen.status_code == 200
    body = screen.get_data(as_text=True)
    assert 'data-live="swap"' in body and f"/nights/{night_id}/live" in body
    assert "Standing" in text(screen) and "Table 2" in text(screen)
    live = client.get(f"/nights/{night_id}/live")
    assert client.get(f"/nights/{night_id}/live", headers={"If-None-Match": live.headers["ETag"]}).status_code == 304
    table = night(db, night_id).current.tables[0]
    sweep_trigami(client, table.game.id, table.game.players, table.game.players[0], "s")
    assert client.get(f"/nights/{night_id}/live", headers={"If-None-Match": live.headers["ETag"]}).status_code == 200
    assert client.get("/nights/999/live").status_code == 404
    printed = text(client.get(f"/nights/{night_id}/print"))
    assert "Round 1, table 1" in printed and "Round 1, table 2" in printed and "deals first" in printed


def test_round_one_by_the_groups_ranking(client, db, make_game, fixed_seed):
    """Round 1 "by ranking": the best-ranked at table 1, the next at table 2, the unrated
    last (docs/club-nights.md, "Seating"); the ranking is the one of /players over all
    the group's games: openskill's BradleyTerryFull ordinal (mu − 3·sigma), worked out
    here by the library itself. Each game is a sweep (SCORING.md §1.2: 100 for all 13
    tricks, 0 for the others): the winner first, the other two level second. Greta and
    Hamid win twice, Ilse once; Zoe, a newcomer, has no rating and comes last; Farid is
    rated but not present."""
    won = [{"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [13, 0, 0], "bugs": [10, 0, 0]}] * 5
    games = (("Greta", ["Aino", "Bruno"]), ("Greta", ["Carla", "Ilse"]),
             ("Hamid", ["Dmitri", "Eeva"]), ("Hamid", ["Farid", "Aino"]),
             ("Ilse", ["Bruno", "Carla"]))
    for winner, others in games:
        make_game(players=[winner, *others], deals=won)
    model = BradleyTerryFull()
    rating: dict[str, object] = {}
    for winner, others in games:  # in the order the games were started
        teams = [[rating.setdefault(name, model.rating())] for name in (winner, *others)]
        for (name,), (after,) in zip([[winner], *[[o] for o in others]], model.rate(teams, ranks=[1, 2, 2]),
                                     strict=True):
            rating[name] = after
    present = [name for name in NINE if name != "Farid"]
    best_first = sorted(present, key=lambda name: -(rating[name].mu - 3 * rating[name].sigma))
    ordinal = [rating[name].mu - 3 * rating[name].sigma for name in best_first]
    assert ordinal[2] > ordinal[3] + 1e-6 and ordinal[5] > ordinal[6] + 1e-6, "no tie across tables"
    response = client.post("/nights/new?kind=trigami", data={
        "present": present, "newcomers": "Zoe", "rounds": "2", "ranking": "placings",
        "seating": "ranking", "target": "100"})
    assert response.status_code == 302
    tables = night(db, int(response.location.rsplit("/", 1)[-1])).current.tables
    assert [set(table.game.players) for table in tables] == [
        set(best_first[:3]), set(best_first[3:6]), {*best_first[6:], "Zoe"}]


def test_the_same_round_seated_twice_at_once_is_seated_once(client, db, fixed_seed):
    """Two organisers (or a double tap) seating round 2 from the same page: one round 2,
    the second told it was seated already (the round's number is checked inside the
    write)."""
    night_id = start(client, "trigami", NINE[:6], 2)
    read = night(db, night_id)
    for table in read.current.tables:
        sweep_trigami(client, table.game.id, table.game.players, table.game.players[0], f"t{table.number}")
    seen = night(db, night_id)  # both phones read the night before either taps
    first = night_actions.seat_next_round(db, seen)
    second = night_actions.seat_next_round(db, seen)
    assert first == night_actions.Seated(2) and second == night_actions.Seated(2, again=True)
    assert db.execute("select count(*) from night_tables where night_id = ? and round = 2",
                      [night_id]).fetchone()[0] == 2
    games_before = db["games"].count
    assert client.post(f"/nights/{night_id}/next", follow_redirects=True).status_code == 200
    assert db["games"].count == games_before


def test_a_round_seated_with_no_deal_yet_counts_nothing_until_played_or_closed(client, db, fixed_seed):
    """docs/club-nights.md, "The standing": a round seated but not begun adds no placing
    point to anyone (before, all level: everyone 2 more, the sit-outs too); its first deal
    counts it, and so would closing it (its tables level, with 0)."""
    night_id = start(client, "trigami", NINE, 2)
    points = dict.fromkeys(NINE, 0)
    scores = dict.fromkeys(NINE, 0)
    for table in night(db, night_id).current.tables:
        order = sorted(table.game.players)
        got = play_trigami(client, table.game.id, table.game.players, order, f"t{table.number}")
        for name, gained in zip(order, (4, 2, 0), strict=True):
            points[name] += gained
        for name, score in got.items():
            scores[name] += score
    assert client.post(f"/nights/{night_id}/next").status_code == 302
    assert standing_rows(client, night_id) == ranked(points, scores)  # round 2 seated, nothing dealt
    assert "Trigami · Round 2 of 2" in text(client.get(f"/nights/{night_id}/screen"))
    # closed with no deal: every table level, 2 placing points each (N − 1 at three a table)
    assert client.post(f"/nights/{night_id}/close").status_code == 302
    assert night(db, night_id).current.closed
    assert standing_rows(client, night_id) == ranked({name: p + 2 for name, p in points.items()}, scores)


def test_a_game_started_with_a_night_tables_players_is_started_not_taken_for_that_table(client, db, fixed_seed):
    # the new-game form fills in the last players of the kind: a table's, just seated by
    # the night. Starting it is a game of its own, not "You started this game already"
    night_id = start(client, "trigami", ["Aino", "Bruno", "Carla"], 1, target="500")
    table = night(db, night_id).current.tables[0].game
    form = client.get("/games/new?kind=trigami").get_data(as_text=True)
    assert all(f'value="{name}"' in form for name in table.players)
    fields = {f"player_{seat}": name for seat, name in enumerate(table.players)}
    answer = client.post("/games/new?kind=trigami", data={**fields, "first_dealer": "0", "target": "500"})
    assert answer.status_code == 302, text(answer)[-400:]
    started = answer.location.rsplit("/", 1)[-1]
    assert started != table.id
    assert store.get_game(db, started).players == table.players
    assert db["games"].count == 2
    # a second Start of that same form is still asked about (Back, then Start again)
    again = client.post("/games/new?kind=trigami", data={**fields, "first_dealer": "0", "target": "500"})
    assert again.status_code == 200 and "You started this game already" in text(again)
    assert db["games"].count == 2


def test_the_command_line_imports_a_night_file_and_says_what_it_did(client, db, app, tmp_path, fixed_seed):
    """Tester 2 (stop 31): `scorekeeper import` of a night file said "missing key
    'first_dealer'" while the web page took it. It imports it, as the web page does; says
    when the night is there already; names a broken file's problems by round and table;
    and `scorekeeper score`, which scores one game, says what the file is."""
    from click.testing import CliRunner

    from scorekeeper.cli import main

    night_id = start(client, "trigami", NINE[:6], 1)
    data = json.loads(client.get(f"/nights/{night_id}/night.json").data)
    other = str(tmp_path / "other.sqlite3")
    runner = CliRunner(env={"SCOREKEEPER_DATABASE": other, "SCOREKEEPER_SECRET_KEY": "t"})
    path = tmp_path / "night.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = runner.invoke(main, ["import", str(path)])
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[0] == "Club night imported"
    new_id = int(done.stdout.splitlines()[-1].rsplit("/", 1)[-1])
    fresh = connect(other)
    try:
        assert [[t.game.players for t in r.tables] for r in night_store.get_night(fresh, new_id).rounds] == \
            [[t.game.players for t in r.tables] for r in night(db, night_id).rounds]
    finally:
        fresh.conn.close()
    again = runner.invoke(main, ["import", str(path)])
    assert again.exit_code == 0 and again.stdout.strip() == f"/nights/{new_id}"
    assert "this club night is already stored" in again.stderr
    tables = data["rounds"][0]["tables"]
    tables[1]["game"]["players"][0] = tables[0]["game"]["players"][0]  # one player at two tables
    path.write_text(json.dumps(data), encoding="utf-8")
    broken = runner.invoke(main, ["import", "--group", "1", str(path)])
    assert broken.exit_code == 1 and broken.stdout == ""
    assert "round 1, table 2 (rounds[0].tables[1].game.players): " in broken.stderr
    scored = runner.invoke(main, ["score", str(path)])
    assert scored.exit_code == 1 and scored.stdout == ""
    assert "is a night file, not one game's file" in scored.stderr


def test_a_night_and_a_newer_group_file_count_each_table_once_in_either_order(client, db, tmp_path, fixed_seed):
    """Tester 3 (stop 31): a night file imported, table 1 played on where it came from,
    then the newer group file imported: table 1's game was stored again beside the
    night's table, and its players' games counted twice. Now the group file finds the
    table ("here already as a club night's table": its later deals come with the night's
    file). And the other way round, the newer group file first: the older night file
    takes the game the group file stored, played on since, as its table."""
    night_id = start(client, "trigami", NINE[:6], 1)
    table = night(db, night_id).current.tables[0]
    # each player's bugs as many as their tricks hold: 0 points a deal, nobody near 100
    quiet = {"bids_0": "S", "bids_1": "H", "bids_2": "D", "tricks_0": "4", "tricks_1": "5", "tricks_2": "4",
             "bugs_0": "4", "bugs_1": "5", "bugs_2": "4"}
    unplayed_night = client.get(f"/nights/{night_id}/night.json").data
    assert client.post(f"/games/{table.game.id}/deals/new", data={**quiet, "nonce": "d1"}).status_code == 302
    older_night = client.get(f"/nights/{night_id}/night.json").data
    assert client.post(f"/games/{table.game.id}/deals/new", data={**quiet, "nonce": "d2"}).status_code == 302
    newer_group = client.get("/group/games.json").data

    def fresh_phone(name: str):
        app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                          "DATABASE": new_database(tmp_path / f"{name}.sqlite3")})
        return app, app.test_client()

    def sent(phone, body: bytes, name: str):
        return phone.post("/games/import", data={"file": (io.BytesIO(body), name)},
                          content_type="multipart/form-data")

    def games_and_played(app):
        other = connect(app.config["DATABASE"])
        try:
            group = groups.only_group(other)
            return (len(store.list_games(other, group.id)),
                    {r.name: r.played for r in summaries.records(other, group.id)})
        finally:
            other.conn.close()

    # the night first (played at table 1, or not yet), then the newer group file
    for name, first in (("night-first", older_night), ("unplayed-first", unplayed_night)):
        app, phone = fresh_phone(name)
        assert sent(phone, first, "night.json").status_code == 302
        report = text(phone.get(sent(phone, newer_group, "games.json").location))
        assert "here already as a club night's table: its later deals come with the night's file" in report, name
        assert "0 games imported" in report
        assert games_and_played(app)[0] == 2  # the night's two tables, each once
    # the newer group file first, then the older night file
    app, phone = fresh_phone("group-first")
    assert sent(phone, newer_group, "games.json").status_code == 303  # to the report's page
    before = games_and_played(app)
    assert sent(phone, older_night, "night.json").status_code == 302
    assert games_and_played(app) == before  # no table stored again: Finn-like players counted once
    other = connect(app.config["DATABASE"])
    try:
        (stored,) = night_store.list_nights(other, groups.only_group(other).id)
        tables = night_store.get_night(other, stored.id).rounds[0].tables
        assert [len(t.game.deals) for t in tables] == [2, 0]  # table 1 is the game played on
    finally:
        other.conn.close()


def test_the_same_night_started_again_is_asked_about_first(client, db, fixed_seed):
    """Tester 28: the start form sent again (Back, then Start) with the same game,
    settings and players made a second night with live tables, unasked. It asks first,
    as a game's form does; "Start another" starts it; once a deal is entered at the first
    night, a new Start is a new night."""
    names = NINE[:6]
    first = start(client, "trigami", names, 2)
    form = {"newcomers": "\n".join(reversed(names)), "rounds": "2", "ranking": "placings", "seating": "random",
            "target": "100"}  # the same players, typed in another order
    asked = client.post("/nights/new?kind=trigami", data=form)
    assert asked.status_code == 200
    page = text(asked)
    assert "You started this night already" in page
    assert "with the same players and settings; nobody has dealt yet." in page
    assert f'href="/nights/{first}"' in asked.get_data(as_text=True)  # Open it
    assert db.execute("select count(*) from nights").fetchone()[0] == 1
    other = client.post("/nights/new?kind=trigami", data={**form, "rounds": "3"})  # another night: no question
    assert other.status_code == 302
    again = client.post("/nights/new?kind=trigami", data={**form, "again": "1"})  # "Start another night"
    assert again.status_code == 302
    assert db.execute("select count(*) from nights").fetchone()[0] == 3
    # once dealt at, a night is not "started a moment ago": the same Start is a new night
    for table in night(db, first).current.tables:
        players = table.game.players
        play_trigami(client, table.game.id, players, sorted(players), f"t{table.number}")
    settings = night_store.NightSettings(kind="trigami", options={"target": 100}, rounds_planned=2,
                                         ranking="placings", seating="random", seed=0)
    twin = night_store.just_started(db, 1, settings, names, "2000-01-01T00:00:00+00:00")
    assert twin is not None and twin[0] == int(again.location.rsplit("/", 1)[-1])  # not the first: dealt at


def test_a_standings_sum_is_written_as_by_hand_with_its_minus_signs(app):
    """Tester 34: "Score: 50 + −9 = 41" beside a round sat out (−75 ÷ 8 = −9, truncated:
    docs/club-nights.md). A sum of rounds reads "50 − 9 = 41", and in Arabic digits
    "٥٠ − ٩" on an Arabic page (explanations.sum_terms, as the standing's sums write it)."""
    from scorekeeper.explanations import sum_terms as terms

    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert terms([50, -9]) == "50 − 9"
        assert terms([-20, 5, -9, 0]) == "−20 + 5 − 9 + 0"
        assert terms([7]) == "7" and terms([]) == ""
    with app.test_request_context("/", headers={"Accept-Language": "ar"}):
        assert terms([50, -9]) == "٥٠ − ٩"
