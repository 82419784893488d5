"""Controls a club night offers only where they can work (issue 20; docs/club-nights.md):
no late arrival and no "leaves after this round" in the last planned round (there is no
next round); no "Delete this game" on a night's table (a night's tables go with their
night, "A table's game"); and the add-deal form of a table whose round is closed says,
as its sheet does, that deals added now do not count ("A round closed early").
"""

from __future__ import annotations

import pytest

from tests.test_nights import NINE, fixed_seed, night, start, text  # noqa: F401 (fixed_seed: a fixture)

pytestmark = pytest.mark.usefixtures("fixed_seed")

LAST = "Round 2 is the night's last: there is no next round for a late arrival to join or a player to leave before."
NOT_COUNTED = "Round 1 is closed: deals added now do not count in the night."


def test_the_last_round_offers_no_late_arrival_and_no_leaver(client, db):
    night_id = start(client, "trigami", NINE[:6], 2)
    first = text(client.get(f"/nights/{night_id}"))
    assert "A late arrival" in first and "Leaves after this round" in first and LAST not in first
    assert client.post(f"/nights/{night_id}/close", data={"round": "1"}).status_code == 302
    assert client.post(f"/nights/{night_id}/next", data={"round": "2"}).status_code == 302
    last = text(client.get(f"/nights/{night_id}"))
    assert LAST in last
    assert "A late arrival" not in last and "Leaves after this round" not in last
    assert "Joins from the next round." not in last


def test_a_nights_table_offers_no_delete_and_says_why(client, db, make_game):
    night_id = start(client, "trigami", NINE[:6], 2)
    table = night(db, night_id).current.tables[0].game.id
    page = client.get(f"/games/{table}").get_data(as_text=True)
    assert f"/games/{table}/delete" not in page and "Delete this game" not in page
    assert "A night's table is removed with its night, not on its own." in text(client.get(f"/games/{table}"))
    ordinary = make_game()
    assert f'href="/games/{ordinary}/delete"' in client.get(f"/games/{ordinary}").get_data(as_text=True)


def test_the_add_deal_form_of_a_closed_round_warns_as_the_sheet_does(client, db):
    night_id = start(client, "trigami", NINE[:6], 2)
    table = night(db, night_id).current.tables[0].game.id
    assert NOT_COUNTED not in text(client.get(f"/games/{table}/deals/new"))
    assert client.post(f"/nights/{night_id}/close", data={"round": "1"}).status_code == 302
    assert NOT_COUNTED in text(client.get(f"/games/{table}"))
    assert NOT_COUNTED in text(client.get(f"/games/{table}/deals/new"))
