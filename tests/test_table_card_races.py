"""Table cards raced against the organiser's Close on the real server (waitress, CSRF on;
tests/race_support.py; docs/club-nights.md, "Table cards" and "A round closed early").

Each try starts a fresh Trigami night of nine (three tables); every table's card phone
saves a deal (or takes back, with Undo, the deal it saved just before) at the instant
the organiser's phone closes round 1. A card changes deals only while its round is
open, so each is answered either "saved" / "taken back" (it came before the close) or
with the card's 403 page (after it, nothing written), and the night counts, for each
table, exactly the deals its game has in play: no change lands in a closed round. Invariants only, never
timings: no 5xx, every game scores, nothing stored twice.
"""

from __future__ import annotations

import pytest

from scorekeeper import groups, night_actions, night_store
from tests.race_support import (
    Phone,
    assert_race_invariants,
    at_once,
    in_play,
    serve,
    statuses,
    with_deal,
)
from tests.test_nights_races import CLEAN, NINE

# NINE players; CLEAN: three clean plain bids, 100, 80, 80, far from 500, so the round
# stays unfinished and its close is early (each table's deals counted then)
#: What the card's phone reads on its 403 page (groups/table_only.html, over=True)
OVER = "Deals can no longer be entered or changed with it"  # then "." or "; the organiser has…"
TRIES = 20


@pytest.fixture
def race_server(tmp_path):
    """The real server (conftest's race_server) with room for every try's writes: all
    the test's phones come from 127.0.0.1, one client for the write limit (120 a
    minute), where a club's phones each have an address of their own."""
    with serve(tmp_path / "race.sqlite3", {"WRITE_LIMIT": "1000 per minute"}) as server:
        yield server


def close_while_every_card_writes(race_server, organiser: Phone, seed: int, undo: bool) -> tuple[int, int]:
    """One try: a fresh night, every table's card phone saving CLEAN (``undo``: taking
    back the CLEAN it saved just before) at the instant the organiser closes round 1;
    the invariants checked. Returns (written, refused)."""
    with race_server.db() as db:
        started = night_actions.start_night(db, groups.only_group(db).id, kind="trigami", options={"target": 500},
                                            players=NINE, rounds=2, ranking="placings", seating="random", seed=seed)
        night_id = started.night_id
        tables = night_store.get_night(db, night_id).current.tables
        cards = groups.table_cards(db, night_id)
    phones, sends = [], []
    for table in tables:
        phone = Phone(race_server.url)  # a phone that came in with the card alone
        assert phone.get(f"/t/{cards[table.game.id]}").status == 302
        new = f"/games/{table.game.id}/deals/new"
        if undo:
            assert phone.post(new, with_deal(phone.form(new), "trigami", CLEAN)).redirects_to(f"/games/{table.game.id}")
            deal_id = race_server.game(table.game.id).deals[0].id
            address = f"/games/{table.game.id}/deals/{deal_id}/delete"
            fields = {**phone.form(address), "undo": "1"}  # its token and the deal's version
        else:
            address, fields = new, with_deal(phone.form(new), "trigami", CLEAN)
        phones.append(phone)
        sends.append(lambda p=phone, a=address, f=fields: p.post(a, f))
    close_form = organiser.form(f"/nights/{night_id}/close")
    replies = at_once(*sends, lambda: organiser.post(f"/nights/{night_id}/close", close_form))
    what = f"try {seed}: {statuses(replies)}"
    assert replies[-1].redirects_to(f"/nights/{night_id}"), what
    assert_race_invariants(race_server, replies, what)
    written = refused = 0
    with race_server.db() as db:
        night = night_store.get_night(db, night_id)
        assert night.rounds[0].closed and night.rounds[0].closed_early, what
        counted = {t.game.id: t.counted for t in night.rounds[0].tables}
        for table, reply in zip(tables, replies, strict=False):
            stored = in_play(db, table.game.id)
            if reply.status == 403:
                assert OVER in reply.text, what
                assert stored == ([CLEAN] if undo else []), what  # refused: nothing written
                refused += 1
            else:
                assert reply.status == 302 and reply.location == f"/games/{table.game.id}", what
                assert stored == ([] if undo else [CLEAN]), what  # written once, as answered
                written += 1
            # nothing after the close: the night counted the deals the game has in play
            assert counted[table.game.id] == len(stored), what
    return written, refused


@pytest.mark.parametrize("undo", [False, True], ids=["a deal saved", "a deal taken back"])
def test_a_cards_deal_written_as_the_round_closes_comes_before_the_close_or_is_refused(race_server, undo):
    organiser = race_server.phone()
    answered = [close_while_every_card_writes(race_server, organiser, seed, undo) for seed in range(TRIES)]
    assert sum(written + refused for written, refused in answered) == TRIES * 3  # every one answered one way
