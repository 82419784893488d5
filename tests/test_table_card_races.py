"""Table cards raced against the organiser's Close on the real server (waitress, CSRF on;
tests/race_support.py; docs/club-nights.md, "Table cards" and "A round closed early").

Each try starts a fresh Trigami night of nine (three tables); every table's card phone
saves a deal at the instant the organiser's phone closes round 1. A card enters deals
only while its round is open, so each save is answered either "saved" (it came before
the close) or with the card's 403 page (after it), and the night counts, for each table,
exactly the deals its game stores: none lands in a closed round. Invariants only, never
timings: no 5xx, every game scores, nothing stored twice.
"""

from __future__ import annotations

from scorekeeper import groups, night_actions, night_store
from tests.race_support import (
    Phone,
    assert_race_invariants,
    at_once,
    in_play,
    statuses,
    with_deal,
)

NINE = ["Aino", "Bruno", "Carla", "Dmitri", "Eeva", "Farid", "Greta", "Hamid", "Ilse"]
#: Three clean plain bids (SCORING.md §1.2: 20 a trick): 100, 80, 80, far from 500, so
#: the round stays unfinished and its close is early (each table's deals counted then)
CLEAN = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "D"}],
         "tricks": [5, 4, 4], "bugs": [0, 0, 0]}
#: What the card's phone reads on its 403 page (groups/table_only.html, over=True)
OVER = "Deals can no longer be entered or changed with it."
TRIES = 20


def close_while_every_card_saves(race_server, organiser: Phone, seed: int) -> tuple[int, int]:
    """One try: a fresh night, every table's card phone saving CLEAN at the instant the
    organiser closes round 1; the invariants checked. Returns (saved, refused)."""
    with race_server.db() as db:
        started = night_actions.start_night(db, groups.only_group(db).id, kind="trigami", options={"target": 500},
                                            players=NINE, rounds=2, ranking="placings", seating="random", seed=seed)
        night_id = started.night_id
        tables = night_store.get_night(db, night_id).current.tables
        cards = groups.table_cards(db, night_id)
    phones = []
    for table in tables:
        phone = Phone(race_server.url)  # a phone that came in with the card alone
        assert phone.get(f"/t/{cards[table.game.id]}").status == 302
        phones.append(phone)
    forms = [phone.form(f"/games/{t.game.id}/deals/new") for phone, t in zip(phones, tables, strict=True)]
    close_form = organiser.form(f"/nights/{night_id}/close")
    sends = [(lambda p=p, t=t, f=f: p.post(f"/games/{t.game.id}/deals/new", with_deal(f, "trigami", CLEAN)))
             for p, t, f in zip(phones, tables, forms, strict=True)]
    replies = at_once(*sends, lambda: organiser.post(f"/nights/{night_id}/close", close_form))
    what = f"try {seed}: {statuses(replies)}"
    assert replies[-1].redirects_to(f"/nights/{night_id}"), what
    assert_race_invariants(race_server, replies, what)
    saved = refused = 0
    with race_server.db() as db:
        night = night_store.get_night(db, night_id)
        assert night.rounds[0].closed and night.rounds[0].closed_early, what
        counted = {t.game.id: t.counted for t in night.rounds[0].tables}
        for table, reply in zip(tables, replies, strict=False):
            stored = in_play(db, table.game.id)
            if reply.status == 403:
                assert OVER in reply.text, what
                assert stored == [], what  # refused: nothing written
                refused += 1
            else:
                assert reply.status == 302 and reply.location == f"/games/{table.game.id}", what
                assert stored == [CLEAN], what  # saved: stored once, as answered
                saved += 1
            # nothing after the close: the night counted every deal the game stores
            assert counted[table.game.id] == len(stored), what
    return saved, refused


def test_a_deal_saved_by_a_card_as_the_round_closes_is_saved_before_the_close_or_refused(race_server):
    organiser = race_server.phone()
    answered = [close_while_every_card_saves(race_server, organiser, seed) for seed in range(TRIES)]
    assert sum(saved + refused for saved, refused in answered) == TRIES * 3  # every save answered one way
