"""A club night raced on the real server (waitress, CSRF on; tests/race_support.py):
every table saving a deal at the instant the organiser closes the round early, and two
organisers seating the next round at once. Invariants only, never timings: no 5xx, every
game scores, nothing stored twice, every acknowledged deal present, one round seated, and
the night counts exactly the deals each table had when the round was closed
(docs/club-nights.md, "A round closed early").
"""

from __future__ import annotations

from scorekeeper import groups, night_actions, night_store, store
from tests.conftest import WORKED_TRIGAMI_DEAL
from tests.race_support import (
    assert_acknowledged_present,
    assert_race_invariants,
    at_once,
    with_deal,
)

NINE = ["Aino", "Bruno", "Carla", "Dmitri", "Eeva", "Farid", "Greta", "Hamid", "Ilse"]
#: Three clean plain bids (SCORING.md §1.2: 20 a trick): 100, 80, 80, far from 500
CLEAN = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "D"}],
         "tricks": [5, 4, 4], "bugs": [0, 0, 0]}


def test_deals_saved_while_the_round_is_closed_are_counted_whole_or_not_at_all(race_server):
    with race_server.db() as db:
        started = night_actions.start_night(db, groups.only_group(db).id, kind="trigami", options={"target": 500},
                                            players=NINE, rounds=2, ranking="placings", seating="random", seed=11)
        night_id = started.night_id
        tables = night_store.get_night(db, night_id).current.tables
    phones = [race_server.phone() for _ in tables]
    forms = [phone.form(f"/games/{table.game.id}/deals/new") for phone, table in zip(phones, tables, strict=True)]
    organiser = race_server.phone()
    close_form = organiser.form(f"/nights/{night_id}/close")
    sends = [(lambda p=p, t=t, f=f: p.post(f"/games/{t.game.id}/deals/new", with_deal(f, "trigami", CLEAN)))
             for p, t, f in zip(phones, tables, forms, strict=True)]
    replies = at_once(*sends, lambda: organiser.post(f"/nights/{night_id}/close", close_form))
    assert replies[-1].redirects_to(f"/nights/{night_id}"), replies
    assert_race_invariants(race_server, replies)
    with race_server.db() as db:
        for table, reply in zip(tables, replies, strict=False):
            assert_acknowledged_present(db, table.game.id, "trigami", [(reply, CLEAN)])
        night = night_store.get_night(db, night_id)
        assert night.rounds[0].closed_early
        counted = {t.number: t.counted for t in night.rounds[0].tables}
        assert all(count in (0, 1) for count in counted.values()), counted
        # a deal after the close changes nothing: the standing stands on the counted deals
        before = [(row.player, row.points, row.score) for row in night.standing()]
        late = [phone.post(f"/games/{t.game.id}/deals/new",
                           with_deal(phone.form(f"/games/{t.game.id}/deals/new"), "trigami", WORKED_TRIGAMI_DEAL))
                for phone, t in zip(phones, tables, strict=True)]
        assert all(reply.status == 302 for reply in late), late
        after = [(row.player, row.points, row.score) for row in night_store.get_night(db, night_id).standing()]
        assert after == before


def test_two_organisers_seating_the_next_round_at_once_seat_it_once(race_server):
    with race_server.db() as db:
        started = night_actions.start_night(db, groups.only_group(db).id, kind="trigami", options={"target": 500},
                                            players=NINE, rounds=3, ranking="placings", seating="random", seed=12)
        night_id = started.night_id
        night_actions.close_round(db, night_store.get_night(db, night_id))
        games_before = db["games"].count
    organisers = [race_server.phone() for _ in range(3)]
    forms = [o.form(f"/nights/{night_id}", action="/next") for o in organisers]
    replies = at_once(*[(lambda o=o, f=f: o.post(f"/nights/{night_id}/next", f))
                        for o, f in zip(organisers, forms, strict=True)])
    assert all(reply.redirects_to(f"/nights/{night_id}") for reply in replies), replies
    assert_race_invariants(race_server, replies)
    with race_server.db() as db:
        night = night_store.get_night(db, night_id)
        assert [r.number for r in night.rounds] == [1, 2]
        assert db["games"].count == games_before + 3


def test_five_taps_on_a_late_arrival_at_once_add_them_once(race_server):
    """The same name sent five times at once (a double tap, two organisers): the player is
    on the night once, from the next round, and no tap gets an error."""
    with race_server.db() as db:
        started = night_actions.start_night(db, groups.only_group(db).id, kind="trigami", options={"target": 500},
                                            players=NINE, rounds=3, ranking="placings", seating="random", seed=13)
        night_id = started.night_id
    phones = [race_server.phone() for _ in range(5)]
    forms = [{**p.form(f"/nights/{night_id}", action="/arrive#arrive"), "name": "Jonas"} for p in phones]
    replies = at_once(*[(lambda p=p, f=f: p.post(f"/nights/{night_id}/arrive", f))
                        for p, f in zip(phones, forms, strict=True)])
    assert all(reply.redirects_to(f"/nights/{night_id}") for reply in replies), replies
    assert_race_invariants(race_server, replies)
    with race_server.db() as db:
        night = night_store.get_night(db, night_id)
        assert [p.name for p in night.players].count("Jonas") == 1
        assert night.player("Jonas").from_round == 2
        assert len(night.players) == len(NINE) + 1


def test_a_counted_deal_deleted_at_the_instant_the_round_closes_never_lets_a_later_deal_in(race_server):
    """A table's first deal deleted on one phone at the instant the organiser closes the
    round early on another (docs/club-nights.md, "A round closed early"): whichever write
    comes first, the night counts the table's one deal left, never none and never two; the
    deleted deal restored counts again only if the close had counted it, and a deal added
    after the close never counts."""
    with race_server.db() as db:
        started = night_actions.start_night(db, groups.only_group(db).id, kind="trigami", options={"target": 500},
                                            players=NINE, rounds=2, ranking="placings", seating="random", seed=13)
        night_id = started.night_id
        table = night_store.get_night(db, night_id).current.tables[0]
    game_id = table.game.id
    phone, organiser = race_server.phone(), race_server.phone()
    for entry in (CLEAN, WORKED_TRIGAMI_DEAL):  # deal 1, deal 2
        assert phone.post(f"/games/{game_id}/deals/new",
                          with_deal(phone.form(f"/games/{game_id}/deals/new"), "trigami", entry)).status == 302
    with race_server.db() as db:
        first = store.get_game(db, game_id).deals[0].id
    delete_form = phone.form(f"/games/{game_id}/deals/{first}/delete")
    close_form = organiser.form(f"/nights/{night_id}/close")
    replies = at_once(lambda: phone.post(f"/games/{game_id}/deals/{first}/delete", delete_form),
                      lambda: organiser.post(f"/nights/{night_id}/close", close_form))
    assert all(reply.status in (302, 303) for reply in replies), replies
    assert_race_invariants(race_server, replies)
    with race_server.db() as db:
        night_table = night_store.get_night(db, night_id).rounds[0].tables[0]
        assert night_table.counted == 1  # deal 2 alone, whichever came first
        counted_at_close = db.execute("select counted_deleted from night_tables where game_id = ?",
                                      [game_id]).fetchone()[0] not in (None, "[]")
    later = {**CLEAN, "tricks": [6, 4, 3]}  # 120, 80, 60: not deal 1 again (a twin is asked about)
    late = phone.post(f"/games/{game_id}/deals/new",
                      with_deal(phone.form(f"/games/{game_id}/deals/new"), "trigami", later))
    assert late.status == 302  # deal 3, after the close
    assert phone.post(f"/games/{game_id}/deals/{first}/restore",
                      phone.form(f"/games/{game_id}/history", action=f"/deals/{first}/restore")).status == 302
    with race_server.db() as db:
        game = store.get_game(db, game_id)
        assert [d.entry for d in game.deals] == [CLEAN, WORKED_TRIGAMI_DEAL, later]
        night_table = night_store.get_night(db, night_id).rounds[0].tables[0]
        # deal 1 counts again only if the close counted it; deal 3 never
        assert night_table.counted == (2 if counted_at_close else 1)


def test_two_organisers_starting_the_same_night_at_once_start_it_once(race_server):
    """Two organisers' phones tap Start on the same night (game, settings, players) at the
    same instant, each with its own form: one night is stored, and the other phone is
    asked "You started this night already" with the way to it, never a second night with
    live tables (the check runs inside the write: night_store.create_night)."""
    phones = [race_server.phone(), race_server.phone()]
    forms = [{**phone.form("/nights/new?kind=trigami"), "newcomers": "\n".join(NINE[:6]), "rounds": "2",
              "ranking": "placings", "seating": "random", "target": "100"} for phone in phones]
    assert forms[0]["nonce"] != forms[1]["nonce"]  # two forms, not one sent twice
    replies = at_once(*(lambda p=p, f=f: p.post("/nights/new?kind=trigami", f) for p, f in zip(phones, forms,
                                                                                               strict=True)))
    with race_server.db() as db:
        nights = [row[0] for row in db.execute("select id from nights")]
    assert len(nights) == 1, replies
    started = [r for r in replies if r.redirects_to(f"/nights/{nights[0]}")]
    asked = [r for r in replies if r.status == 200 and "You started this night already" in r.text]
    assert len(started) == 1 and len(asked) == 1, replies
    assert f'href="/nights/{nights[0]}"' in asked[0].body  # Open it
