"""Taking back what an organiser did by mistake on a club night, through the pages
(issue 20; docs/club-nights.md, "Reopening a round" and "Late arrivals and leavers"):
a round closed early is reopened while the next round is not seated, and refused in
words once it is, or once every table's game is over; a player marked as leaving stays
while the next round is not seated, and after that comes back as a late arrival.

Worked by hand from docs/club-nights.md, "The standing": a Trigami table of three gives
2 placing points for every player behind and 1 for every other player level. One clean
deal of 5, 4 and 4 tricks scores 100, 80, 80 (SCORING.md §1.2: 20 a trick), so seat 1
first (4 points), seats 2 and 3 level second (1 each); a table with no deal counted
leaves its three level (2 points each, score 0).
"""

from __future__ import annotations

import json

import pytest

from scorekeeper import night_actions
from scorekeeper.nightfile import NightPlayer, read_night
from tests.test_nights import (  # noqa: F401 (fixed_seed: a fixture)
    NINE,
    fixed_seed,
    night,
    play_trigami,
    ranked,
    standing_rows,
    start,
    text,
    trigami_deal,
)

pytestmark = pytest.mark.usefixtures("fixed_seed")  # the draw fixed: a failure replays

SIX = NINE[:6]


def clean_deal(client, game_id: str, nonce: str) -> None:
    """Seat 1 takes 5 clean tricks (100), seats 2 and 3 four each (80): far from 500."""
    answer = client.post(f"/games/{game_id}/deals/new", data=trigami_deal([("S", 5, 0), ("H", 4, 0), ("D", 4, 0)],
                                                                          nonce))
    assert answer.status_code == 302, text(answer)[-500:]


def one_clean_deal(points: dict[str, int], scores: dict[str, int], players) -> None:
    """Add a table's one clean deal to the standing by hand."""
    for seat, name in enumerate(players):
        points[name] += 4 if seat == 0 else 1
        scores[name] += 100 if seat == 0 else 80


def level(points: dict[str, int], players) -> None:
    """A table with no deal counted: its three level, 2 points each, score 0."""
    for name in players:
        points[name] += 2


@pytest.fixture
def closed_early(client, db):
    """Six at Trigami to 500 (two tables, two rounds): table 1 has dealt once, table 2
    not at all, and round 1 is closed early."""
    night_id = start(client, "trigami", SIX, 2, target="500")
    first = night(db, night_id).current
    clean_deal(client, first.tables[0].game.id, "r1t1")
    assert client.post(f"/nights/{night_id}/close").status_code == 302
    assert night(db, night_id).current.closed_early
    return night_id, first


# ----------------------------------------------------------------- reopening a round


def test_a_round_closed_early_is_reopened_and_counts_every_deal_again(client, db, closed_early):
    night_id, first = closed_early
    t1, t2 = (table.game for table in first.tables)
    page = text(client.get(f"/nights/{night_id}"))
    assert "Reopen round 1" in page and "Round 1 can be reopened until round 2 is seated." in page
    # table 2 deals after the close: the night does not count it yet
    clean_deal(client, t2.id, "late")
    points, scores = dict.fromkeys(SIX, 0), dict.fromkeys(SIX, 0)
    one_clean_deal(points, scores, t1.players)
    level(points, t2.players)
    assert standing_rows(client, night_id) == ranked(points, scores)
    # asked first, naming what counts again
    ask = text(client.get(f"/nights/{night_id}/rounds/1/reopen"))
    assert "Reopen round 1?" in ask
    assert "Deals entered since the round was closed count again" in ask
    assert f"Table 2: {t2.players[0]}, {t2.players[1]}, {t2.players[2]} · 0 counted, 1 now" in ask
    assert night(db, night_id).current.closed, "asking changes nothing"
    answer = client.post(f"/nights/{night_id}/rounds/1/reopen", follow_redirects=True)
    assert "Round 1 is open again: its tables play on. 1 deal entered since it was closed counts now." \
        in text(answer)
    page = text(answer)
    assert "Close round 1" in page and "Reopen round 1" not in page and "2 tables still playing." in page
    # the standing counts both tables as they stand now
    points, scores = dict.fromkeys(SIX, 0), dict.fromkeys(SIX, 0)
    one_clean_deal(points, scores, t1.players)
    one_clean_deal(points, scores, t2.players)
    assert standing_rows(client, night_id) == ranked(points, scores)
    # the tables play on: a deal now counts, and the next round waits for the round's end
    clean_deal(client, t1.id, "again")
    for seat, name in enumerate(t1.players):
        scores[name] += 100 if seat == 0 else 80  # 200, 160, 160: the same places
    assert standing_rows(client, night_id) == ranked(points, scores)
    refused = text(client.post(f"/nights/{night_id}/next", follow_redirects=True))
    assert "Round 1 is not over" in refused
    assert len(night(db, night_id).rounds) == 1
    # closed again: it counts what the tables have now
    assert client.post(f"/nights/{night_id}/close").status_code == 302
    assert [t.counted for t in night(db, night_id).current.tables] == [2, 1]


def test_reopening_is_refused_once_the_next_round_is_seated(client, db, closed_early):
    night_id, _first = closed_early
    assert client.post(f"/nights/{night_id}/next").status_code == 302
    before = night(db, night_id)
    assert len(before.rounds) == 2
    assert "Reopen round" not in text(client.get(f"/nights/{night_id}"))
    said = "Round 1 can no longer be reopened: round 2 is seated, and its players sit at its tables."
    for answer in (client.get(f"/nights/{night_id}/rounds/1/reopen", follow_redirects=True),
                   client.post(f"/nights/{night_id}/rounds/1/reopen", follow_redirects=True)):
        assert said in text(answer)
    after = night(db, night_id)
    assert after.rounds[0].closed and after.rounds[0].closed_early
    assert [t.counted for t in after.rounds[0].tables] == [1, 0]
    assert len(after.rounds) == 2
    assert client.get(f"/nights/{night_id}/rounds/3/reopen").status_code == 302


def test_a_round_whose_games_are_all_over_is_not_reopened_unless_a_deal_is_deleted(client, db):
    night_id = start(client, "trigami", SIX, 2)  # to 100: one deal ends a game
    first = night(db, night_id).current
    for table in first.tables:
        play_trigami(client, table.game.id, table.game.players, list(table.game.players), f"t{table.number}")
    page = text(client.get(f"/nights/{night_id}"))
    assert "This round is over." in page and "Reopen round 1" not in page
    said = "Every table's game of round 1 is over: there is nothing left to play, so it stays closed."
    assert said in text(client.post(f"/nights/{night_id}/rounds/1/reopen", follow_redirects=True))
    # closed by the organiser once every game is over: still nothing to reopen
    client.post(f"/nights/{night_id}/close")
    assert night(db, night_id).current.closed and not night(db, night_id).current.closed_early
    assert "Reopen round 1" not in text(client.get(f"/nights/{night_id}"))
    assert said in text(client.get(f"/nights/{night_id}/rounds/1/reopen", follow_redirects=True))
    # a deal deleted at table 2: its game is no longer over, so the round can be reopened
    game = night(db, night_id).current.tables[1].game
    deleted = client.post(f"/games/{game.id}/deals/{game.deals[0].id}/delete",
                          data={"version": game.deals[0].version})
    assert deleted.status_code == 302, text(deleted)[-400:]
    assert "Reopen round 1" in text(client.get(f"/nights/{night_id}"))
    answer = text(client.post(f"/nights/{night_id}/rounds/1/reopen", follow_redirects=True))
    assert "Round 1 is open again: its tables play on." in answer and "1 table still playing." in answer
    assert "Seat round 2" not in answer


def test_an_open_round_has_nothing_to_reopen(client, db):
    night_id = start(client, "trigami", SIX, 2, target="500")
    answer = client.post(f"/nights/{night_id}/rounds/1/reopen", follow_redirects=True)
    assert "Round 1 is open: its tables are playing." in text(answer)
    assert not night(db, night_id).current.closed


# ----------------------------------------------------------------- taking back a leaver


def test_a_leaver_stays_while_the_next_round_is_not_seated(client, db):
    night_id = start(client, "trigami", SIX, 3, target="500")
    client.post(f"/nights/{night_id}/leave", data={"player": "Aino"})
    page = text(client.get(f"/nights/{night_id}"))
    assert "Aino leaves after round 1." in page and "Aino stays" in page
    answer = client.post(f"/nights/{night_id}/stay", data={"player": "Aino"}, follow_redirects=True)
    assert "Aino stays: seated again from round 2." in text(answer)
    assert "Aino stays" not in text(answer).replace("Aino stays: seated", "")
    assert night(db, night_id).player("Aino").until_round is None
    client.post(f"/nights/{night_id}/close")
    client.post(f"/nights/{night_id}/next")
    second = night(db, night_id).current
    assert "Aino" in [name for table in second.tables for name in table.game.players]
    # someone not leaving: said, nothing changed
    answer = client.post(f"/nights/{night_id}/stay", data={"player": "Bruno"}, follow_redirects=True)
    assert "Bruno is not leaving." in text(answer)


def test_a_leaver_is_not_taken_back_once_the_next_round_is_seated(client, db):
    night_id = start(client, "trigami", SIX, 3, target="500")
    client.post(f"/nights/{night_id}/leave", data={"player": "Bruno"})
    client.post(f"/nights/{night_id}/close")
    client.post(f"/nights/{night_id}/next")
    page = text(client.get(f"/nights/{night_id}"))
    assert "Bruno left after round 1." in page and "Bruno stays" not in page
    assert "Round 2 is seated: they come back as a late arrival, from the next round." in page
    answer = client.post(f"/nights/{night_id}/stay", data={"player": "Bruno"}, follow_redirects=True)
    assert "Bruno left after round 1, and round 2 is seated: they can no longer be taken back. Add them as a " \
           "late arrival: they join from the next round." in text(answer)
    assert night(db, night_id).player("Bruno").until_round == 1


def test_a_leaver_is_told_of_the_round_seated_now_not_the_one_after_they_left(client, db):
    """Bruno left after round 1 of three; rounds 2 and 3 are seated. Round 3 is the one
    seated now, and the night's last (tester 11: the page said "Round 2, the night's
    last", in Finnish too)."""
    night_id = start(client, "trigami", SIX, 3, target="500")
    client.post(f"/nights/{night_id}/leave", data={"player": "Bruno"})
    for _round in (2, 3):
        client.post(f"/nights/{night_id}/close")
        client.post(f"/nights/{night_id}/next")
    assert len(night(db, night_id).rounds) == 3
    page = text(client.get(f"/nights/{night_id}"))
    assert "Bruno left after round 1." in page
    assert "Round 3, the night's last, is seated: there is no next round to come back to." in page
    assert "Round 2, the night's last" not in page
    answer = text(client.post(f"/nights/{night_id}/stay", data={"player": "Bruno"}, follow_redirects=True))
    assert "Bruno left after round 1, and round 3, the night's last, is seated: they can no longer be taken " \
           "back, and there is no next round to come back to." in answer


def test_a_leaver_of_a_two_round_night_is_not_told_of_a_next_round(client, db):
    """The tester's partners night of two rounds: Bruno left after round 1 and round 2,
    the night's last, is seated. Neither the page nor an old "Bruno stays" speak of a
    next round to come back in: there is none."""
    night_id = start(client, "trigami", SIX, 2, target="500")
    client.post(f"/nights/{night_id}/leave", data={"player": "Bruno"})
    client.post(f"/nights/{night_id}/close")
    client.post(f"/nights/{night_id}/next")
    page = text(client.get(f"/nights/{night_id}"))
    assert "Round 2, the night's last, is seated: there is no next round to come back to." in page
    assert "come back as a late arrival" not in page
    answer = text(client.post(f"/nights/{night_id}/stay", data={"player": "Bruno"}, follow_redirects=True))
    assert "Bruno left after round 1, and round 2, the night's last, is seated: they can no longer be taken " \
           "back, and there is no next round to come back to." in answer
    assert "join from the next round" not in answer
    assert night(db, night_id).player("Bruno").until_round == 1


def test_a_leaver_gone_comes_back_as_a_late_arrival(client, db):
    """Bruno leaves after round 1 and round 2 is seated without him; added again as a late
    arrival he is back from round 3, away in round 2 (neither seated nor sitting out: it
    counts nothing), and the night file says so and reads back whole."""
    night_id = start(client, "trigami", SIX, 3, target="500")
    client.post(f"/nights/{night_id}/leave", data={"player": "Bruno"})
    client.post(f"/nights/{night_id}/close")
    client.post(f"/nights/{night_id}/next")  # five: one table, two sit out
    answer = client.post(f"/nights/{night_id}/arrive", data={"name": "bruno"}, follow_redirects=True)
    assert "Bruno is back: seated again from round 3." in text(answer)
    assert "Bruno away in round 2" in text(answer) and "Bruno left after round 1" not in text(answer)
    client.post(f"/nights/{night_id}/close")
    client.post(f"/nights/{night_id}/next")
    rounds = night(db, night_id).rounds
    assert "Bruno" not in [*rounds[1].sitting_out, *(n for t in rounds[1].tables for n in t.game.players)]
    assert "Bruno" in [*rounds[2].sitting_out, *(n for t in rounds[2].tables for n in t.game.players)]
    client.post(f"/nights/{night_id}/close")  # round 3 closed with no deal: every table level
    rows = {row.player: row for row in night(db, night_id).standing()}
    assert [line.round for line in rows["Bruno"].rounds] == [1, 3], "round 2, away, counts nothing"
    data = json.loads(client.get(f"/nights/{night_id}/night.json").get_data(as_text=True))
    bruno = next(p for p in data["players"] if p["name"] == "Bruno")
    assert bruno == {"name": "Bruno", "from_round": 1, "until_round": None, "away": [2]}
    assert not isinstance(read_night(json.dumps(data)), list)
    # away in a round he played: refused, said where
    bruno["away"] = [3]
    problems = read_night(json.dumps(data))
    assert isinstance(problems, list)
    assert any("Bruno" in p.message and (p.field or "").startswith("rounds[2]") for p in problems), \
        [(p.field, p.message) for p in problems]


def test_a_leaver_not_yet_gone_added_as_a_late_arrival_simply_stays(client, db):
    night_id = start(client, "trigami", SIX, 3, target="500")
    client.post(f"/nights/{night_id}/leave", data={"player": "Carla"})
    answer = client.post(f"/nights/{night_id}/arrive", data={"name": "Carla"}, follow_redirects=True)
    assert "Carla is back: seated again from round 2." in text(answer)
    assert night(db, night_id).player("Carla") == NightPlayer("Carla", 1, None, ())


# ----------------------------------------------------------------- checked inside the write


def test_seating_from_a_page_read_before_a_reopen_is_refused(client, db, closed_early):
    """The organiser's page read while round 1 was closed; round 1 reopened meanwhile:
    seating from that page is refused (the round is not over), nothing seated."""
    night_id, _first = closed_early
    seen = night(db, night_id)
    assert night_actions.reopen_round(db, seen, 1) == night_actions.Reopened(1)
    result = night_actions.seat_next_round(db, seen)
    assert isinstance(result, night_actions.NotOver) and result.number == 1
    assert len(night(db, night_id).rounds) == 1 and not night(db, night_id).current.closed


def test_seating_from_a_page_read_before_a_take_back_seats_the_player(client, db):
    night_id = start(client, "trigami", SIX, 3, target="500")
    client.post(f"/nights/{night_id}/leave", data={"player": "Aino"})
    client.post(f"/nights/{night_id}/close")
    seen = night(db, night_id)
    assert night_actions.stay(db, seen, "Aino") == night_actions.Staying("Aino", 2)
    assert night_actions.seat_next_round(db, seen) == night_actions.Seated(2)
    second = night(db, night_id).current
    assert "Aino" in [name for table in second.tables for name in table.game.players]


def test_a_leaver_marked_from_a_page_read_before_the_next_round_plays_it_out(client, db):
    """Marked as leaving from a page read in round 1, after round 2 was seated with them:
    they play out round 2 (their last), so the night stays whole."""
    night_id = start(client, "trigami", SIX, 3, target="500")
    client.post(f"/nights/{night_id}/close")
    seen = night(db, night_id)
    client.post(f"/nights/{night_id}/next")
    assert night_actions.leave(db, seen, "Dmitri") == night_actions.Leaving("Dmitri", 2)
    assert not isinstance(read_night(client.get(f"/nights/{night_id}/night.json").get_data()), list)
