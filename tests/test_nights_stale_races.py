"""Pages left open on a club night, raced on the real server (waitress, CSRF on;
tests/race_support.py; docs/club-nights.md, "Pages left open"): two phones close
"round 1" at the same instant from pages read before, while a third seats round 2.
Exactly one closes round 1, the other is told it was closed already, and round 2, if
seated, is never closed by either. Invariants only, never timings.
"""

from __future__ import annotations

from scorekeeper import groups, night_actions, night_store
from tests.race_support import assert_race_invariants, at_once, form_fields

FOUR = ["Aino", "Bruno", "Carla", "Dmitri"]


def test_two_phones_closing_round_1_at_once_close_it_once_and_never_round_2(race_server):
    for seed in range(60, 64):  # four nights: any of the three may come first
        close_twice_as_seated(race_server, seed)


def close_twice_as_seated(race_server, seed: int) -> None:
    with race_server.db() as db:
        night_id = night_actions.start_night(db, groups.only_group(db).id, kind="trigami", options={"target": 500},
                                             players=FOUR, rounds=3, ranking="placings", seating="random",
                                             seed=seed).night_id
    a, b, c = race_server.phone(), race_server.phone(), race_server.phone()
    closing = [phone.form(f"/nights/{night_id}/close?round=1") for phone in (a, b)]
    assert all(form["round"] == "1" for form in closing)
    # the third phone's "Seat round 2", as its page would send it once round 1 is over
    seating = {**form_fields(c.get(f"/nights/{night_id}").body, f"/nights/{night_id}/arrive#arrive"), "round": "2"}
    seating.pop("name", None)
    replies = at_once(lambda: a.post(f"/nights/{night_id}/close?round=1", closing[0]),
                      lambda: b.post(f"/nights/{night_id}/close?round=1", closing[1]),
                      lambda: c.post(f"/nights/{night_id}/next", seating))
    assert all(reply.redirects_to(f"/nights/{night_id}") for reply in replies), replies
    assert_race_invariants(race_server, replies)
    said = [phone.get(f"/nights/{night_id}").text for phone in (a, b, c)]
    closed = ["Round 1 closed: 1 table counts as it stands." in words for words in said[:2]]
    told = ["Round 1 was closed already: nothing changed." in words for words in said[:2]]
    assert sorted(closed) == [False, True] and sorted(told) == [False, True], said
    assert closed != told, said
    assert not any("Round 2 closed" in words for words in said), said
    with race_server.db() as db:
        night = night_store.get_night(db, night_id)
    assert night.rounds[0].closed and night.rounds[0].closed_early
    if len(night.rounds) == 2:  # seated after the close: open, with no deal, nothing counted
        assert "Round 2 is seated." in said[2], said
        assert not night.rounds[1].closed and [t.counted for t in night.rounds[1].tables] == [None]
    else:
        assert len(night.rounds) == 1 and "Round 1 is not over" in said[2], said
