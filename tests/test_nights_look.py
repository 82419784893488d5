"""How a club night's pages read (issue 20): every number in the page's digits, players'
names shown as names (a player called "C" is not the clubs suit), a table's sheet saying
when its round is closed (docs/club-nights.md, "A round closed early": deals added later
change nothing in the night), and the printed standing saying which round it stands at.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper import i18n
from tests.test_digits import WESTERN, arabic, shown_text
from tests.test_nights import (
    NINE,
    fixed_seed,  # noqa: F401 - the night's draw fixed, for every test here
    night,
    start,
    sweep_trigami,
    text,
)

pytestmark = pytest.mark.usefixtures("fixed_seed")

CLOSED = "Round 1 is closed: deals added now do not count in the night."


def test_night_pages_in_arabic_write_every_number_in_arabic_indic_digits(client, db):
    night_id = start(client, "trigami", NINE[:7], 2)  # two tables, one sits out
    client.get(f"/nights/{night_id}")  # its message ("round 1 is seated"), in English
    arabic(client)
    for address in ("/nights", "/nights/new?kind=trix", "/nights/new?kind=trigami", "/nights/new?kind=bugami3",
                    f"/nights/{night_id}", f"/nights/{night_id}/standing", f"/nights/{night_id}/close",
                    f"/nights/{night_id}/print", f"/nights/{night_id}/screen"):
        page = client.get(address).get_data(as_text=True)
        assert WESTERN.findall(shown_text(page, tuple(NINE))) == [], (address, [w for w in shown_text(page, tuple(NINE)).split() if WESTERN.search(w)])
    # a refused number of rounds: "from ١ to ٥٠", never "from 1 to ٥٠"
    refused = client.post("/nights/new?kind=trigami", data={"newcomers": "\n".join(NINE[:6]), "rounds": "99",
                                                            "ranking": "placings", "seating": "random",
                                                            "target": "100"})
    assert refused.status_code in (200, 400)
    page = refused.get_data(as_text=True)
    assert "٥٠" in page and WESTERN.findall(shown_text(page, tuple(NINE[:6]))) == []


def test_players_called_c_and_d_are_names_not_suits(client, db):
    names = ["C", "D", "Aino", "Bruno", "Eeva", "Farid", "Greta"]
    night_id = start(client, "trigami", names, 2)
    client.set_cookie(i18n.COOKIE, "en")
    for address in (f"/nights/{night_id}", f"/nights/{night_id}/standing", f"/nights/{night_id}/screen",
                    f"/nights/{night_id}/print", f"/nights/{night_id}/close", "/nights/new?kind=trigami"):
        page = client.get(address).get_data(as_text=True)
        assert "♣" not in page and "♦" not in page and "suit-C" not in page, address
    # "Who leaves after this round?": one chip a player, each reading their name
    page = client.get(f"/nights/{night_id}").get_data(as_text=True)
    chips = page[page.index('id="leave-head"'):]
    assert 'value="C"' in chips and 'value="D"' in chips
    assert "\u2068C\u2069</label>" in chips or "<bdi>C</bdi></label>" in chips


def test_a_tables_sheet_says_when_its_round_is_closed(client, db):
    night_id = start(client, "trigami", NINE[:6], 2)
    table = night(db, night_id).current.tables[0]
    sheet = f"/games/{table.game.id}"
    assert "Club night: round 1, table 1" in text(client.get(sheet))
    assert CLOSED not in text(client.get(sheet))  # drawn once, and kept
    assert client.post(f"/nights/{night_id}/close").status_code == 302
    after = text(client.get(sheet))
    assert "Club night: round 1, table 1" in after and CLOSED in after
    # the other table too, and the round still open on a fresh night says nothing
    assert CLOSED in text(client.get(f"/games/{night(db, night_id).rounds[0].tables[1].game.id}"))


def test_a_closed_rounds_tables_are_not_offered_to_carry_on(client, db):
    """The home page's cards of a closed round's tables say the round is closed and offer
    to open the game, not to carry on (deals added now count for nothing in the night)."""
    night_id = start(client, "trigami", NINE[:6], 2)
    tables = night(db, night_id).current.tables
    home = client.get("/").get_data(as_text=True)
    assert home.count('class="button primary carry-on"') == 2  # both tables, round open
    assert "(round closed)" not in home
    assert client.post(f"/nights/{night_id}/close").status_code == 302
    client.get("/")  # the close's message shown once: the next visit is the page kept for every phone
    home = client.get("/").get_data(as_text=True)  # tester 68: it was the page kept before the close
    assert "carry-on" not in home and ">Carry on" not in home
    # tester 65: after two nights, ten such cards sat under "Unfinished — carry on", above
    # everything: they are listed with the finished games, which they are for the night
    unfinished = re.search(r'<ul class="game-list" id="unfinished">(.*?)</ul>', home, re.S)
    finished = re.search(r'<ul class="game-list" id="finished">(.*?)</ul>', home, re.S)
    assert unfinished is None and finished is not None
    for table in tables:
        card = re.search(rf'<a class="game-card" href="/games/{table.game.id}">(.*?)</a>', finished.group(1), re.S)
        assert card, f"table {table.number} has no card to open"
        assert f"Club night: round 1, table {table.number} (round closed)" in " ".join(card.group(1).split())
    # reopened, its tables are offered to carry on again (the kept page drawn again)
    assert client.post(f"/nights/{night_id}/rounds/1/reopen").status_code == 302
    client.get("/")
    assert client.get("/").get_data(as_text=True).count('class="button primary carry-on"') == 2
    assert client.post(f"/nights/{night_id}/close").status_code == 302
    # the next round's tables are offered as usual
    assert client.post(f"/nights/{night_id}/next").status_code == 302
    assert client.get("/").get_data(as_text=True).count('class="button primary carry-on"') == 2


def test_print_says_during_a_round_until_it_is_over(client, db):
    night_id = start(client, "trigami", NINE[:6], 2)
    printed = text(client.get(f"/nights/{night_id}/print"))
    assert "during round 1 of 2" in printed and "after round" not in printed
    for table in night(db, night_id).current.tables:
        sweep_trigami(client, table.game.id, table.game.players, table.game.players[0], f"t{table.number}")
    assert "after round 1 of 2" in text(client.get(f"/nights/{night_id}/print"))
    assert client.post(f"/nights/{night_id}/next").status_code == 302
    # round 2 just seated, no deal: the standing counts it as it stands, so "during"
    printed = text(client.get(f"/nights/{night_id}/print"))
    assert "during round 2 of 2" in printed and "after round 2 of 2" not in printed


def test_the_stays_button_holds_the_leavers_name_with_its_words(client, db):
    """"Aino stays" (German "Aino bleibt") is one label in its button, not the name and
    the word as two flex items wrapping apart on a small phone."""
    from tests.test_groups import _ButtonChildren

    night_id = start(client, "trigami", NINE[:6], 2)
    client.post(f"/nights/{night_id}/leave", data={"player": "Aino"})
    page = client.get(f"/nights/{night_id}").get_data(as_text=True)
    assert "<bdi>Aino</bdi> stays" in page
    found = _ButtonChildren()
    found.feed(page)
    assert "bdi" not in found.found



def test_a_named_nights_table_cards_name_the_night(client, db):
    """Tester 65: with several nights, "Club night: round 2, table 2" on a game's card
    could be any night's: a night with a name is named."""
    night_id = start(client, "trigami", NINE[:6], 2, name="Friday #1")
    tables = night(db, night_id).current.tables
    home = text(client.get("/"))
    for table in tables:
        assert f"Friday #1: round 1, table {table.number}" in home
    assert client.post(f"/nights/{night_id}/close").status_code == 302
    assert "Friday #1: round 1, table 1 (round closed)" in text(client.get("/"))
