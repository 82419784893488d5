"""Taking back on a club night raced on the real server (waitress, CSRF on;
tests/race_support.py): reopening a round at the instant another organiser seats the
next one, and taking back a leaver at the instant the next round is seated. Exactly one
wins, and the night stays whole: everyone present in a round is at one table of it or
sits it out (its night file reads back without a problem), and a reopened round has no
round after it. Invariants only, never timings.
"""

from __future__ import annotations

from scorekeeper import groups, night_actions, night_store
from scorekeeper.night_records import night_file
from scorekeeper.nightfile import dumps, read_night
from tests.race_support import assert_race_invariants, at_once, with_deal

SIX = ["Aino", "Bruno", "Carla", "Dmitri", "Eeva", "Farid"]
#: Three clean plain bids (SCORING.md §1.2: 20 a trick): 100, 80, 80, far from 500
CLEAN = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "D"}],
         "tricks": [5, 4, 4], "bugs": [0, 0, 0]}


def started(race_server, seed: int) -> int:
    """Six at Trigami to 500 (two tables, three rounds): round 1 seated."""
    with race_server.db() as db:
        night = night_actions.start_night(db, groups.only_group(db).id, kind="trigami", options={"target": 500},
                                          players=SIX, rounds=3, ranking="placings", seating="random", seed=seed)
        return night.night_id


def assert_night_whole(db, night_id: int) -> night_store.StoredNight:
    """Everyone present in each round is at exactly one of its tables or sits it out, and
    only the last round may be open: the night file written from it reads back whole."""
    night = night_store.get_night(db, night_id)
    problems = read_night(dumps(night_file(night)))
    assert not isinstance(problems, list), [p.message for p in problems]
    assert all(round_.closed for round_ in night.rounds[:-1])
    return night


def test_reopening_a_round_as_the_next_is_seated_lets_exactly_one_win(race_server):
    for seed in range(40, 44):  # four nights: either may come first
        reopen_as_seated(race_server, seed)


def reopen_as_seated(race_server, seed: int) -> None:
    """Round 1 closed early; one organiser reopens it as another seats round 2."""
    night_id = started(race_server, seed)
    organiser, other = race_server.phone(), race_server.phone()
    with race_server.db() as db:
        first = night_store.get_night(db, night_id).current
    dealer = race_server.phone()
    path = f"/games/{first.tables[0].game.id}/deals/new"
    assert dealer.post(path, with_deal(dealer.form(path), "trigami", CLEAN)).status == 302
    closing = organiser.form(f"/nights/{night_id}/close")
    assert organiser.post(f"/nights/{night_id}/close", closing).redirects_to(f"/nights/{night_id}")
    reopen = organiser.form(f"/nights/{night_id}/rounds/1/reopen")
    seat = other.form(f"/nights/{night_id}", action="/next")
    replies = at_once(lambda: organiser.post(f"/nights/{night_id}/rounds/1/reopen", reopen),
                      lambda: other.post(f"/nights/{night_id}/next", seat))
    assert all(reply.redirects_to(f"/nights/{night_id}") for reply in replies), replies
    assert_race_invariants(race_server, replies)
    said = [organiser.get(f"/nights/{night_id}").text, other.get(f"/nights/{night_id}").text]
    with race_server.db() as db:
        night = assert_night_whole(db, night_id)
    reopened = "Round 1 is open again" in said[0]
    seated = "Round 2 is seated." in said[1]
    assert reopened != seated, said  # exactly one wins
    if reopened:
        assert len(night.rounds) == 1 and not night.current.closed and not night.current.closed_early
        assert [t.counted for t in night.current.tables] == [None, None]
        assert "Round 1 is not over" in said[1]
    else:
        assert len(night.rounds) == 2 and night.rounds[0].closed_early
        assert [t.counted for t in night.rounds[0].tables] == [1, 0]
        assert "Round 1 can no longer be reopened: round 2 is seated" in said[0]


def test_taking_back_a_leaver_as_the_next_round_is_seated_lets_exactly_one_win(race_server):
    for seed in range(50, 54):  # four nights: either may come first
        stay_as_seated(race_server, seed)


def stay_as_seated(race_server, seed: int) -> None:
    """Aino marked as leaving, round 1 closed; one organiser takes her back as another
    seats round 2."""
    night_id = started(race_server, seed)
    organiser, other = race_server.phone(), race_server.phone()
    leave = {**organiser.form(f"/nights/{night_id}", action="/leave#leave"), "player": "Aino"}
    assert organiser.post(f"/nights/{night_id}/leave", leave).redirects_to(f"/nights/{night_id}")
    closing = organiser.form(f"/nights/{night_id}/close")
    assert organiser.post(f"/nights/{night_id}/close", closing).redirects_to(f"/nights/{night_id}")
    stay = organiser.form(f"/nights/{night_id}", action="/stay")
    assert stay["player"] == "Aino"
    seat = other.form(f"/nights/{night_id}", action="/next")
    replies = at_once(lambda: organiser.post(f"/nights/{night_id}/stay", stay),
                      lambda: other.post(f"/nights/{night_id}/next", seat))
    assert all(reply.status == 302 for reply in replies), replies
    assert_race_invariants(race_server, replies)
    said = organiser.get(f"/nights/{night_id}").text.replace("\u2068", "").replace("\u2069", "")
    with race_server.db() as db:
        night = assert_night_whole(db, night_id)
    assert len(night.rounds) == 2
    seated = [name for table in night.rounds[1].tables for name in table.game.players]
    if "Aino stays: seated again from round 2." in said:
        assert night.player("Aino").until_round is None and "Aino" in seated
    else:
        assert "Aino left after round 1, and round 2 is seated" in said, said
        assert night.player("Aino").until_round == 1 and "Aino" not in seated
