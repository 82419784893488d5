"""Settling a dispute: how each number came about, the calculator and what-if.

Through Flask's test client, as a player reads the pages; expected numbers worked by hand
from SCORING.md (the working is in the comments).  Seats: Anna 0, Ben 1, Carla 2, Dan 3.
"""

from __future__ import annotations

import html
import json
import re
from urllib.parse import urlencode

import pytest

from scorekeeper import explanations, i18n, store
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_web import text as _text


def text(response) -> str:
    """The page as a player reads it; a coloured suit symbol joins the words around it,
    as on the screen: "took the K♥: −150", and so does a card named in words for screen
    readers (an inline <span role="img" aria-label="king of hearts">)."""
    body = re.sub(r'<span class="suit [^"]*"[^>]*>(.)</span>', r"\1", response.get_data(as_text=True))
    body = re.sub(r'<span role="img" aria-label="[^"]*">([^<]*)</span>', r"\1", body)
    response = type("Page", (), {"get_data": lambda self, as_text=True: body})()
    return _text(response)

# 5 clean tricks 100, 4 clean 80, 4 clean 80 (SCORING.md §1.2, clean tricks: 20 each)
CLEAN = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
         "tricks": [5, 4, 4], "bugs": [0, 0, 0]}

# One whole Trix kingdom owned by Ben (first_dealer=1), SCORING.md §2.1, §2.2:
#   1 K♥ doubled by Ben, taken by Carla:          Anna 0,    Ben +75,  Carla −150, Dan 0
#   2 Queens, Q♠ doubled by Ben and taken by Dan: Anna −25,  Ben +25,  Carla −25,  Dan −75
#   3 Diamonds 3 4 2 4:                           Anna −30,  Ben −40,  Carla −20,  Dan −40
#   4 Tricks 3 3 4 3:                             Anna −45,  Ben −45,  Carla −60,  Dan −45
#   5 Trix: Carla, Anna, Dan, Ben:                Anna +150, Ben +50,  Carla +200, Dan +100
#   totals                                        Anna 50,   Ben 65,   Carla −55,  Dan −60  (Σ 0)
KINGDOM = [
    {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}},
    {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1}, "H": {"taker": 0},
                                         "D": {"taker": 2}, "C": {"taker": 3}}},
    {"contracts": ["diamonds"], "diamonds": [3, 4, 2, 4]},
    {"contracts": ["tricks"], "tricks": [3, 3, 4, 3]},
    {"contracts": ["trix"], "trix": [2, 0, 3, 1]},
]


def rows(db) -> dict[str, int]:
    """Every table's row count: the calculator and what-if must store nothing."""
    return {name: db[name].count for name in db.table_names()}


@pytest.fixture
def trigami(make_game):
    return make_game(deals=[WORKED_TRIGAMI_DEAL, CLEAN])


@pytest.fixture
def trix(make_game):
    return make_game(kind="trix", first_dealer=1, deals=KINGDOM)


# ----------------------------------------------------------------------------- the sheet links


def test_every_number_on_the_sheet_links_to_its_explanation(client, trigami):
    body = client.get(f"/games/{trigami}").get_data(as_text=True)
    for seat in range(3):
        assert f'href="/games/{trigami}/explain/1?seat={seat}"' in body
        assert f'href="/games/{trigami}/explain/total?seat={seat}"' in body
    assert f'href="/games/{trigami}/explain/dealer"' in body
    assert f'href="/games/{trigami}/what-if"' in body  # _links.html shows it once the view exists
    assert 'href="/calculator"' in body


def test_trix_sheet_links_kingdom_check_dealer_and_teams(client, make_game):
    game_id = make_game(kind="trix", first_dealer=1, deals=KINGDOM, options={"partnership": "sum"})
    body = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/explain/kingdom/1"' in body
    assert f'href="/games/{game_id}/explain/dealer?deal=1"' in body  # the kingdom's heading
    assert f'href="/games/{game_id}/explain/teams"' in body


# ----------------------------------------------------------------------------- one deal


def test_worked_trigami_deal_shows_counts_steps_and_quotes_the_rule(client, trigami):
    page = text(client.get(f"/games/{trigami}/explain/1?seat=2"))
    assert "Carla in deal 1: +13" in page
    assert "4 tricks × 10 = 40, ÷ 3 bugs = 13 (fraction dropped)" in page
    # the counts entered: bids, tricks and bugs of every player, the turnip
    assert "Anna Turnip ♦ 4 1" in page and "Ben Doublets ♠ 5 0" in page and "Carla ♥ 4 3" in page
    assert "Turnip card: ♦" in page
    # SCORING.md §1.2 stated for players, and the rule text's own section quoted
    assert "The rules Points If one player wins every trick" in page
    assert "otherwise 10 a trick, divided by the bugs, the fraction dropped." in page
    assert "Trigami rules (David Parlett) Scoring" in page
    assert "Four tricks with 1 bug score 40, with 2 bugs 20, with 3 bugs 13." in page
    # no developer notes: no file names, section numbers or SCORING.md's own words
    assert "SCORING.md" not in page and ".txt" not in page and "§" not in page
    assert "floor(10·t / b)" not in page


def test_a_deal_without_a_seat_explains_every_player(client, trigami):
    page = text(client.get(f"/games/{trigami}/explain/1"))
    assert "Anna : +80" in page and "Turnip doubles: 80" in page
    assert "Ben : +200" in page and "Doublets kept, no bugs: 5 tricks × 40 = 200" in page
    assert "Carla : +13" in page
    assert page.count("If one player wins every trick") == 1  # each rule once


def test_a_doubled_king_quotes_the_doubling_rule(client, trix):
    page = text(client.get(f"/games/{trix}/explain/1?seat=2"))
    assert "Carla in deal 1: −150" in page
    assert "took the K♥, doubled by \u2068Ben\u2069: −150" in page
    assert "K♥: Carla, doubled by Ben" in page
    assert "Contracts and points King of Hearts: −75 for whoever takes the K♥." in page
    assert "Another player takes the doubled K♥: the taker −150, the doubler +75." in page
    assert "K♥ doubled, taken by another player" not in page and "§" not in page  # not SCORING.md
    # no Trix rules in English: the German text, one tap away, named by its language
    body = client.get(f"/games/{trix}/explain/1?seat=2").get_data(as_text=True)
    assert re.search(r'<details class="quote quote-original">\s*<summary>The original rule, in German: '
                     r'<span lang="de" dir="auto">[^<]+</span></summary>', body)
    assert "Herz-König und Damen verdoppeln" in page
    ben = text(client.get(f"/games/{trix}/explain/1?seat=1"))
    assert "doubled the K♥ and \u2068Carla\u2069 took it: +75" in ben and "Doubling Whoever holds the K♥" in ben


def test_unknown_seat_shows_everyone_and_says_so(client, trigami):
    for seat in ("7", "x", "-1"):
        response = client.get(f"/games/{trigami}/explain/1?seat={seat}")
        assert response.status_code == 200
        page = text(response)
        assert "so every player is shown" in page and "How deal 1 was scored" in page


def test_no_such_deal_or_game_is_a_404(client, trigami):
    assert client.get(f"/games/{trigami}/explain/3").status_code == 404
    assert client.get(f"/games/{trigami}/explain/0").status_code == 404
    assert client.get("/games/nope/explain/1").status_code == 404
    assert client.get("/games/nope/what-if").status_code == 404


def test_a_deal_that_no_longer_fits_is_not_explained_but_earlier_ones_are(client, db, trigami):
    broken = {**CLEAN, "tricks": [5, 4, 3]}  # adds up to 12: a hand-edited database
    # the store refuses such a deal, so it goes in by hand
    db["deals"].update(store.get_game(db, trigami).deals[1].id, {"entry": json.dumps(broken)})
    response = client.get(f"/games/{trigami}/explain/2?seat=0")
    assert response.status_code == 409
    assert "Deal 2 no longer fits the rules: tricks add up to 12, expected 13" in text(response)
    assert client.get(f"/games/{trigami}/explain/1?seat=0").status_code == 200
    assert client.get(f"/games/{trigami}/what-if?target=100").status_code == 200


def test_the_deal_form_explains_the_deal_with_its_rules(client, db, trigami):
    deal_id = store.get_game(db, trigami).deals[0].id
    page = text(client.get(f"/games/{trigami}/deals/{deal_id}/edit"))
    assert "How deal 1 was scored" in page
    assert "4 tricks × 10 = 40, ÷ 3 bugs = 13 (fraction dropped)" in page
    assert "Points If one player wins every trick" in page and "the fraction dropped" in page


def test_try_other_counts_fills_the_calculator_with_the_deal(client, trigami):
    body = client.get(f"/games/{trigami}/explain/1?seat=2").get_data(as_text=True)
    link = re.search(r'href="(/calculator\?[^"]+)"', body).group(1).replace("&amp;", "&")
    page = text(client.get(link))
    assert "Anna +80" in page and "Ben +200" in page and "Carla +13" in page


def test_try_other_counts_carries_counts_of_zero(client, make_game):
    # Anna takes every trick (SCORING.md §1.2, 1.): 100; Ben and Carla 0 tricks, 0 bugs
    slam = {"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [13, 0, 0], "bugs": [10, 0, 0]}
    game_id = make_game(deals=[slam])
    body = client.get(f"/games/{game_id}/explain/1?seat=1").get_data(as_text=True)
    link = re.search(r'href="(/calculator\?[^"]+)"', body).group(1).replace("&amp;", "&")
    response = client.get(link)
    assert response.status_code == 200
    assert "Anna +100" in text(response) and "Ben 0" in text(response)


# ----------------------------------------------------------------------------- totals, teams, dealer, kingdom


def test_total_lists_each_deal_summing_to_the_total(client, trigami):
    page = text(client.get(f"/games/{trigami}/explain/total?seat=0"))
    # Anna: +80 in deal 1, +100 in deal 2 = 180; 500 to win
    assert "Anna's total: 180" in page
    assert "Deal 1 +80 80 Deal 2 +100 180 Total 180" in page
    assert "\u2068Anna\u2069's points in the 2 deals: 80 + 100 = 180" in page
    assert "The first to reach 500 wins: \u2068Anna\u2069 needs 320 more." in page
    assert "The game Points add up deal by deal." in page and "Winning the game" in page
    body = client.get(f"/games/{trigami}/explain/total?seat=0").get_data(as_text=True)
    assert f'href="/games/{trigami}/explain/2?seat=0"' in body  # each deal links to its explanation


def test_total_without_a_seat_offers_the_players(client, trigami):
    page = text(client.get(f"/games/{trigami}/explain/total?seat=3"))  # seats from 0: a fourth player
    assert "There is no player 4 in this game" in page and "no player 3" not in page
    assert "Anna: 180" in page and "Ben: 280" in page and "Carla: 93" in page


def test_trix_total_of_a_finished_game_names_the_winner(client, make_game):
    # four kingdoms of the same five deals, owners Ben, Carla, Dan, Anna: 4 × the totals above
    game_id = make_game(kind="trix", first_dealer=1, deals=KINGDOM * 4)
    page = text(client.get(f"/games/{game_id}/explain/total?seat=1"))
    assert "Ben's total: 260" in page
    assert "After four kingdoms the highest total wins: \u2068Ben\u2069 won." in page


def test_the_sheets_team_row_shows_each_players_team_total_and_partner(client, make_game):
    names = ["=SUM(1,2)", "Ben", "Ива́н", "Dorothea Wilhelmina"]
    game_id = make_game(kind="trix", players=names, first_dealer=1, deals=KINGDOM, options={"partnership": "sum"})
    body = client.get(f"/games/{game_id}").get_data(as_text=True)
    row = html.unescape(re.search(r'<tr class="team-row">(.*?)</tr>', body, re.S).group(1))
    # partners sit opposite, not in neighbouring columns: under each player's column its
    # team's total (teams 0+2: 50 − 55 = −5, 1+3: 65 − 60 = 5, as in
    # test_team_totals_add_the_partners) and the partner, named whole (issue 18, part 10)
    teams = re.findall(r'<span class="team-names">(.*?)</span>\s*<b class="team-total">(.*?)</b>', row, re.S)
    assert teams == [("with <bdi>Ива́н</bdi>", "−5"), ("with <bdi>Dorothea Wilhelmina</bdi>", "5"),
                     ("with <bdi>=SUM(1,2)</bdi>", "−5"), ("with <bdi>Ben</bdi>", "5")]
    assert len(re.findall(r"<td\b", row)) == 4


def test_team_totals_add_the_partners(client, make_game):
    game_id = make_game(kind="trix", first_dealer=1, deals=KINGDOM, options={"partnership": "sum"})
    page = text(client.get(f"/games/{game_id}/explain/teams"))
    assert "\u2068Anna\u2069 & \u2068Carla\u2069: 50 − 55 = −5" in page
    assert "\u2068Ben\u2069 & \u2068Dan\u2069: 65 − 60 = 5" in page
    assert "the higher team total wins" in page
    assert "Partners Partners sit opposite each other." in page and "§" not in page
    assert client.get(f"/games/{make_game(kind='trix')}/explain/teams").status_code == 404
    # a Finnish reader reads "ja", not a programmer's "&" (tester 45)
    client.set_cookie(i18n.COOKIE, "fi")
    page = text(client.get(f"/games/{game_id}/explain/teams"))
    assert "\u2068Anna\u2069 ja \u2068Carla\u2069: 50 − 55 = −5" in page and " & " not in page


def test_trigami_dealer_rotates_to_the_left(client, trigami):
    page = text(client.get(f"/games/{trigami}/explain/dealer"))
    # Anna dealt deal 1, Ben deal 2, so Carla deals deal 3 and Anna, on her left, leads
    assert "Deal 3: Carla deals" in page
    assert "So deal 3 is dealt by \u2068Carla\u2069, and \u2068Anna\u2069, on the dealer's left, leads to the first trick." in page
    assert "Anna 1, 4, 7 …" in page and "Carla 3, 6, 9 …" in page
    assert "The deal passes to the left, and the player on the dealer's left leads" in page  # §1.4 stated
    deal_two = text(client.get(f"/games/{trigami}/explain/dealer?deal=2"))
    assert "Deal 2: Ben deals" in deal_two


def test_trix_dealer_is_the_kingdom_owner_and_the_7_of_hearts_decides(client, trix):
    first = text(client.get(f"/games/{trix}/explain/dealer?deal=1"))
    assert "Deal 1: anyone deals" in first
    # its last step in plain words (tester 27: "So deal 1 is dealt by anyone")
    assert "So deal 1 may be dealt by any player, and \u2068Ben\u2069 chooses its contract." in first
    assert "\u2068Ben\u2069 was dealt the 7♥, so \u2068Ben\u2069 owns kingdom 1" in first
    later = text(client.get(f"/games/{trix}/explain/dealer?deal=3"))
    assert "Deal 3: Ben deals" in later
    nxt = text(client.get(f"/games/{trix}/explain/dealer"))
    # kingdom 1 is complete; the next belongs to Ben's right-hand neighbour, Carla
    assert "Deal 6: Carla deals" in nxt and "kingdom 2 \u2068Carla\u2069" in nxt
    assert "Vorbereitung und Königreiche" in nxt


@pytest.mark.parametrize("deal", ["x", "0", "99", "-3", "1e3"])
def test_bad_dealer_query_shows_the_next_deal(client, trix, deal):
    response = client.get(f"/games/{trix}/explain/dealer?deal={deal}")
    assert response.status_code == 200
    assert "Deal 6: Carla deals" in text(response)


def test_kingdom_check_explains_why_it_sums_to_zero(client, trix):
    page = text(client.get(f"/games/{trix}/explain/kingdom/1"))
    assert "Kingdom 1 (Ben): Σ = 0 ✓" in page
    assert "The five contracts hand out −75 − 100 − 130 − 195 + 500 = 0 in all" in page
    assert "Doubling moves points between players but never changes a contract's total." in page
    assert "add up to 50 + 65 − 55 − 60 = 0" in page
    assert "Contracts and points King of Hearts: −75" in page
    assert "so after every kingdom the four totals add up to 0" in page
    assert client.get(f"/games/{trix}/explain/kingdom/2").status_code == 404


def test_unfinished_kingdom_says_what_is_still_to_come(client, make_game):
    game_id = make_game(kind="trix", first_dealer=1, deals=KINGDOM[:2])
    page = text(client.get(f"/games/{game_id}/explain/kingdom/1"))
    assert "Diamonds, Tricks, Trix to come" in page


# ----------------------------------------------------------------------------- the calculator


def calculator(client, **params):
    pairs = []
    for key, value in params.items():
        for item in value if isinstance(value, list) else [value]:
            pairs.append((key, item))
    return client.get("/calculator?" + urlencode(pairs))


WORKED_QUERY = {"kind": "trigami", "calc": "1", "player": ["Anna", "Ben", "Carla"],
                "bids_0": "turnip", "bids_1": "S", "doublets_1": "y", "bids_2": "H",
                "tricks_0": "4", "tricks_1": "5", "tricks_2": "4", "bugs_0": "1", "bugs_2": "3", "turnip": "D"}


def test_calculator_scores_the_worked_example_and_saves_nothing(client, db, trigami):
    before = rows(db)
    response = calculator(client, **WORKED_QUERY)
    assert response.status_code == 200
    page = text(response)
    assert "Anna +80 Ben +200 Carla +13" in page
    assert "4 tricks × 10 = 40, ÷ 3 bugs = 13 (fraction dropped)" in page
    assert "Points If one player wins every trick" in page and "§" not in page
    assert rows(db) == before


def test_calculator_scores_a_trix_queens_deal_with_a_double(client, db, trix):
    # SCORING.md §2.2: Ben doubles his Q♠ and Dan takes it: Dan −50 −25 (Q♣) = −75, Ben +25
    before = rows(db)
    page = text(calculator(client, kind="trix", calc="1", settings="1", doubling="y", player=["Anna", "Ben", "Carla", "Dan"],
                           contracts="queens", queens_S_taker="3", queens_S_doubled_by="1",
                           queens_H_taker="0", queens_D_taker="2", queens_C_taker="3"))
    assert "Anna −25 Ben +25 Carla −25 Dan −75" in page
    assert "doubled the Q♠ and \u2068Dan\u2069 took it: +25" in page
    assert "A doubled queen works the same way with half the points: the taker −50, the doubler +25" in page
    assert rows(db) == before


@pytest.mark.parametrize(("settings", "expected"), [
    # Diamonds 3 4 2 4: standard −10 each; swapped −15 each; reversed flips the signs
    ({}, "Player 1 −30 Player 2 −40 Player 3 −20 Player 4 −40"),
    ({"values": "swapped"}, "Player 1 −45 Player 2 −60 Player 3 −30 Player 4 −60"),
    ({"scoring": "reversed"}, "Player 1 +30 Player 2 +40 Player 3 +20 Player 4 +40"),
])
def test_calculator_trix_settings_change_the_points(client, settings, expected):
    page = text(calculator(client, kind="trix", calc="1", settings="1", contracts="diamonds",
                           diamonds_0="3", diamonds_1="4", diamonds_2="2", diamonds_3="4", **settings))
    assert expected in page


def test_calculator_trix_complex_and_no_doubling(client):
    # Complex: K♥ (Anna −75) and Tricks 3 3 4 3 (−45 −45 −60 −45) in one deal
    page = text(calculator(client, kind="trix", calc="1", settings="1", complex="y",
                           contracts=["king", "tricks"], king_taker="0",
                           tricks_0="3", tricks_1="3", tricks_2="4", tricks_3="3"))
    assert "Player 1 −120 Player 2 −45 Player 3 −60 Player 4 −45" in page
    # without doubling the form has no doubling fields, so a double cannot be entered
    plain = calculator(client, kind="trix", settings="1", contracts="king")
    assert "king_doubled_by" not in plain.get_data(as_text=True)


def test_calculator_says_a_doubler_is_left_out_once_doubling_is_turned_off(client):
    """A doubler chosen, then doubling turned off in the settings (the form is sent again
    with the doubler): the K♥ scores −75 undoubled (SCORING.md §2.1, §2.3: no doubled card
    without doubling), and the page says the doubler was left out (tester 13: it was
    dropped without a word)."""
    page = text(calculator(client, kind="trix", calc="1", settings="1", contracts="king", king_taker="0",
                           king_doubled_by="1"))
    assert "Player 1 −75 Player 2 0 Player 3 0 Player 4 0" in page
    assert "Doubling is off in these settings, so no card is doubled: the doublers chosen are left out." in page
    doubled = text(calculator(client, kind="trix", calc="1", settings="1", doubling="y", contracts="king",
                              king_taker="0", king_doubled_by="1"))
    assert "Player 1 −150 Player 2 +75" in doubled and "left out" not in doubled


def test_try_other_counts_opens_the_calculator_with_the_deal_as_played(client, make_game):
    """The worked example's explanation (SCORING.md §1.2) leads to the calculator filled
    in with the deal: Ben's Doublets ticked, as the deal's "y" (what a tick box sends,
    forms.fields.TickField), so the calculator works out the same 80, 200 and 13."""
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    page = client.get(f"/games/{game_id}/explain/1?seat=1").get_data(as_text=True)
    link = html.unescape(re.search(r'<a class="button small" href="([^"]*/calculator[^"]*)"', page).group(1))
    assert "doublets_1=y" in link
    worked = text(client.get(link))
    assert "Anna +80" in worked and "Ben +200" in worked and "Carla +13" in worked, worked[:2000]


def test_calculator_shows_rule_problems_beside_the_fields(client):
    response = calculator(client, **{**WORKED_QUERY, "tricks_2": "3"})
    assert response.status_code == 400
    page = text(response)
    assert "Tricks add up to 12, expected 13" in page
    assert "Nothing was saved" not in page and "before it can be worked out" in page


@pytest.mark.parametrize("query", [
    "kind=poker", "kind=trix&values=banana&scoring=upside&settings=1&calc=1",
    "kind=trigami&player=A", "kind=trigami&player=A&player=a&player=B",
    "kind=trigami&calc=1&tricks_0=lots", "kind=bugami3&calc=1&bids_0=turnip",
    "kind=trix&calc=1&contracts=poker", "kind=trix&calc=1&contracts=trix&trix_place_1=9",
])
def test_calculator_bad_values_do_not_crash(client, query):
    response = client.get(f"/calculator?{query}")
    assert response.status_code in (200, 400)
    assert "Something went wrong" not in text(response)


def test_calculator_names_and_unknown_kind_are_said(client):
    page = text(client.get("/calculator?kind=poker"))
    assert "There is no game called “poker” here, so Trigami is shown." in page
    page = text(client.get("/calculator?kind=trigami&player=A&player=a&player=B"))
    assert "A name needs correcting, so the players are numbered for now." in page and "Player 1" in page


def calculator_name_field(page: str, seat: int) -> str:
    start = page.index(f'<label for="player-{seat}">')
    return page[page.rfind("<div", 0, start):page.index("</div>", start)]


def test_calculator_refuses_the_names_a_game_refuses_beside_their_field_and_keeps_them(client):
    """The calculator's names are checked as a new game's (40 characters at most, no
    invisible control characters, the same player twice): the message beside the name,
    what was typed still in its field, and the players numbered meanwhile."""
    long_name, override = "A" * 10_000, "\u202eevil"
    query = {**WORKED_QUERY, "player": [long_name, "Ben", override]}
    response = client.get("/calculator", query_string=query)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    first, second, third = (calculator_name_field(page, seat) for seat in range(3))
    assert "Player 1&#39;s name is longer than 40 characters." in first and f'value="{long_name}"' in first
    assert 'aria-invalid="true"' in first and "errors" not in second
    assert "Player 3&#39;s name has invisible control characters." in third and f'value="{override}"' in third
    assert re.search(r'<details class="panel calc-names" open>', page)
    words = text(response)
    assert "A name needs correcting, so the players are numbered for now." in words
    assert "A" * 41 not in words and "\u202e" not in words
    # the deal is still worked out, for the numbered players (worked example: +80 +200 +13)
    assert "Player 1 +80" in words and "Player 3 +13" in words and "Ben +200" not in words
    twice = client.get("/calculator", query_string={**WORKED_QUERY, "player": ["Anna", "ANNA", "Carla"]})
    assert "⁨ANNA⁩ is named twice." in html.unescape(calculator_name_field(twice.get_data(as_text=True), 1))


def test_calculator_preview_as_json(client):
    data = {key: value for key, value in WORKED_QUERY.items() if key != "player"}
    response = client.get("/calculator/preview", query_string=data)
    assert response.get_json() == {"ok": True, "points": ["+80", "+200", "+13"], "steps": response.get_json()["steps"],
                                   "wrong": []}
    bad = client.get("/calculator/preview", query_string={**data, "tricks_2": "3"}).get_json()
    # the words the calculator shows beside the field when "Work it out" is tapped, and
    # where: above the tricks, whose sum it is, not beside one player's count
    assert bad == {"ok": False, "message": "Tricks add up to 12, expected 13.", "question": False,
                   "wrong": ["tricks-errors"]}


# ----------------------------------------------------------------------------- what-if


def test_the_what_if_rows_are_headed_by_a_word_their_narrow_column_holds(client, trix):
    """Tester 39: in Finnish the row of the game as played was headed "Kuten pelattiin",
    broken "Kuten pelattii / n" in the deal numbers' narrow column at 390 px; the row has
    its own short word ("Pelattu"), while the doubling choice keeps the sentence."""
    client.set_cookie(i18n.COOKIE, "fi")
    html_page = client.get(f"/games/{trix}/what-if?doubling=none").get_data(as_text=True)
    row = re.search(r'<tr class="what-if-totals real-totals">\s*(?:\{#.*?#\}\s*)?<th[^>]*>([^<]*)</th>', html_page, re.S)
    assert row and row.group(1).strip() == "Pelattu"
    assert "Kuten pelattiin" in html_page  # the form's choice "As played"


def test_what_if_no_doubling_changes_doubler_and_taker(client, db, trix):
    # Without doubling: deal 1 Carla −75 (not −150), Ben 0 (not +75); deal 2 Dan −50 (not −75),
    # Ben 0 (not +25). Ben 65 − 75 − 25 = −35, Carla −55 + 75 = 20, Dan −60 + 25 = −35, Anna 50.
    before = rows(db)
    page = text(client.get(f"/games/{trix}/what-if?doubling=none"))
    assert "What if — no doubling: every deal scored as if nobody had doubled" in page
    assert "As played 50 65 −55 −60" in page
    assert "What if 50 −35 20 −35" in page
    assert rows(db) == before
    assert store.get_game(db, trix).deals[0].entry["king"] == {"taker": 2, "doubled_by": 1}


def test_what_if_reversed_is_the_exact_negation(client, make_game):
    game_id = make_game(kind="trix", first_dealer=1, deals=KINGDOM * 4)
    page = text(client.get(f"/games/{game_id}/what-if?scoring=reversed"))
    # real totals 4 × (50, 65, −55, −60); Ben won with the highest. Reversed: the lowest wins
    assert "As played 200 260 won −220 −240" in page
    assert "What if −200 −260 would win 220 240" in page
    assert "As played: Ben won." in page
    assert "What if: Ben would have won, after deal 20." in page


def test_what_if_says_partners_won_not_that_they_shared_the_win(client, make_game):
    """Tester 48: the partners who won outright were said to have "shared the win", the
    words of a tie; the sheet says they won. Team totals 4 × (50 − 55) = −20 for Anna and
    Carla, 4 × (65 − 60) = 20 for Ben and Dan: the higher team total wins (SCORING.md §2.5)."""
    game_id = make_game(kind="trix", first_dealer=1, deals=KINGDOM * 4, options={"partnership": "sum"})
    page = text(client.get(f"/games/{game_id}/what-if?values=swapped"))
    assert "As played: Ben & Dan won." in page
    # swapped values (diamonds −15, tricks −10) turn the kingdom round: Anna and Carla ahead
    assert "What if: Anna & Carla would have won, after deal 20." in page and "shared" not in page


def test_what_if_partners_settles_who_wins_as_a_team(client, make_game):
    """Tester 71: "What if…" had no Partners setting, though it decides who wins. Totals
    4 × (50, 65, −55, −60): Anna 200, Ben 260, Carla −220, Dan −240 (SCORING.md §2.5,
    partners opposite: Anna & Carla, Ben & Dan). Played alone, Ben wins. Team totals:
    Anna & Carla −20, Ben & Dan 20, so Ben & Dan win; the worst single total, Dan's −240,
    loses for Ben & Dan, so Anna & Carla win. The points stay as they are."""
    game_id = make_game(kind="trix", first_dealer=1, deals=KINGDOM * 4)
    summed = text(client.get(f"/games/{game_id}/what-if?partnership=sum"))
    assert "What if — partners opposite: the higher team total wins" in summed
    assert "As played: Ben won." in summed
    assert "What if: Ben & Dan would have won, after deal 20." in summed and "shared" not in summed
    assert "As played 200 260 won −220 −240" in summed and "What if 200 260 would win −220 −240 would win" in summed
    worst = text(client.get(f"/games/{game_id}/what-if?partnership=worst-loses"))
    assert "What if: Anna & Carla would have won, after deal 20." in worst
    # a game of partners, played as if each were alone
    partners = make_game(kind="trix", first_dealer=1, deals=KINGDOM * 4, options={"partnership": "worst-loses"})
    alone = text(client.get(f"/games/{partners}/what-if?partnership=alone"))
    assert "What if — everyone for themselves: the highest total wins" in alone
    assert "As played: Anna & Carla won." in alone and "What if: Ben would have won, after deal 20." in alone
    # reversed scoring: the lowest wins, and the heading says so (tester 74: "highest")
    low = text(client.get(f"/games/{game_id}/what-if?scoring=reversed&partnership=sum"))
    assert "partners opposite: the lower team total wins" in low and "higher" not in low
    # team totals reversed: Anna & Carla 20, Ben & Dan −20: the lower wins
    assert "What if: Ben & Dan would have won, after deal 20." in low
    # the game's own setting changes nothing, and says so
    own = text(client.get(f"/games/{partners}/what-if?partnership=worst-loses"))
    assert "These are the game's own settings, so nothing changes." in own


def test_what_if_reversed_negates_every_deal_the_doublers_share_included(make_game, db):
    game = store.get_game(db, make_game(kind="trix", first_dealer=1, deals=KINGDOM * 2))
    file = game.game_file()
    real = file.score()
    other = explanations.what_if(file, real, scoring="reversed").other
    for mine, theirs in zip(real.deals, other.deals, strict=True):
        assert theirs.points == tuple(-p for p in mine.points)
        assert theirs.totals == tuple(-t for t in mine.totals)


def test_what_if_swapped_values(client, trix):
    # swapped: diamonds −15 (3 4 2 4 → −45 −60 −30 −60), tricks −10 (3 3 4 3 → −30 −30 −40 −30):
    # Anna 50 +30 −15 +15 = ... worked per player: Anna 0 −25 −45 −30 +150 = 50
    # Ben 75 +25 −60 −30 +50 = 60; Carla −150 −25 −30 −40 +200 = −45; Dan 0 −75 −60 −30 +100 = −65
    page = text(client.get(f"/games/{trix}/what-if?values=swapped"))
    assert "What if 50 60 −45 −65" in page


def test_what_if_lower_target_ends_the_game_earlier_and_names_the_winner(client, make_game):
    # totals after each deal: (80, 200, 13), (180, 280, 93), (280, 360, 173)
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL, CLEAN, CLEAN])
    page = text(client.get(f"/games/{game_id}/what-if?target=250"))
    assert "What if — play to 250 instead of 500" in page
    assert "As played: the game is not over yet." in page
    assert "What if: Ben would have won, after deal 2. Deal 3 would not have been played." in page
    assert "What if 180 280 would win 93" in page
    assert "not played" in page


def test_what_if_higher_target_keeps_the_game_going(client, make_game):
    won = [{"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [13, 0, 0], "bugs": [10, 0, 0]}] * 5
    game_id = make_game(deals=won)  # Anna reaches 500 in deal 5
    page = text(client.get(f"/games/{game_id}/what-if?target=1000"))
    assert "As played: Anna won." in page
    assert "What if: the game would not be over yet." in page


@pytest.mark.parametrize("query", [
    "target=abc", "target=-5", "target=10", "target=99999999999999999999", "target=",
    "values=swapped", "doubling=none", "target=250&target=300",
])
def test_what_if_bad_trigami_values_do_not_crash(client, trigami, query):
    response = client.get(f"/games/{trigami}/what-if?{query}")
    assert response.status_code == 200
    page = text(response)
    assert "Something went wrong" not in page
    if query.startswith("target=") and query not in ("target=", "target=250&target=300"):
        assert "Enter" in page  # said beside the field


@pytest.mark.parametrize("query, said", [
    ("target=abc", "Enter a target from 50 to 100000."),  # not "like 3", below the range
    ("target=1e3", "Enter a target from 50 to 100000."),
    ("target=-1", "Enter a target from 50 to 100000."),
    ("target=10", "Enter a target from 50 to 100000."),
    ("target=" + "1" + "0" * 30, "Enter a target from 50 to 100000."),
])
def test_what_if_a_bad_target_shows_only_its_error(client, trigami, query, said):
    body = client.get(f"/games/{trigami}/what-if?{query}").get_data(as_text=True)
    beside = re.search(r'id="target-errors">(.*?)</ul>', body, re.S)
    assert beside and said in beside.group(1)
    page = text(type("Page", (), {"get_data": lambda self, as_text=True: body})())
    assert "nothing changes" not in page and "What if:" not in page


@pytest.mark.parametrize("query", [
    "doubling=zz", "values=banana", "scoring=", "scoring=reversed&scoring=standard",
    "target=300", "doubling=none&values=swapped&scoring=reversed",
])
def test_what_if_bad_trix_values_do_not_crash(client, trix, query):
    response = client.get(f"/games/{trix}/what-if?{query}")
    assert response.status_code == 200
    assert "Something went wrong" not in text(response)


def test_what_if_says_an_unknown_choice_was_not_used(client, trix):
    page = text(client.get(f"/games/{trix}/what-if?values=banana"))
    assert "“banana” is not a choice for Values, so the game's own is used." in page
    assert "These are the game's own settings, so nothing changes." in page


def test_what_if_without_doubling_in_the_game_offers_no_such_choice(client, make_game):
    game_id = make_game(kind="trix", options={"doubling": False})
    page = text(client.get(f"/games/{game_id}/what-if?doubling=none"))
    assert "As if nobody had doubled" not in page


# ----------------------------------------------------------------------------- pure helpers


def test_sum_expression():
    assert explanations.sum_expression([80, -7, 20]) == "80 − 7 + 20 = 93"
    assert explanations.sum_expression([-150]) == "−150 = −150"
    assert explanations.sum_expression([]) == "0"


def test_without_doubling_drops_doubler_and_leader_only():
    entry = {"contracts": ["king", "queens"], "king": {"taker": 1, "doubled_by": 1, "leader": 3},
             "queens": {"S": {"taker": 0, "doubled_by": 2}, "H": {"taker": 1}, "D": {"taker": 2}, "C": {"taker": 3}}}
    assert explanations.without_doubling(entry) == {
        "contracts": ["king", "queens"], "king": {"taker": 1},
        "queens": {"S": {"taker": 0}, "H": {"taker": 1}, "D": {"taker": 2}, "C": {"taker": 3}}}
    assert entry["king"]["doubled_by"] == 1  # the real entry is untouched


def test_what_if_refuses_settings_the_game_does_not_have():
    file = from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL]))
    with pytest.raises(ValueError):
        explanations.what_if(file, file.score(), values="swapped")
    trix_file = from_dict(game_file(kind="trix"))
    with pytest.raises(ValueError):
        explanations.what_if(trix_file, trix_file.score(), target=100)
    with pytest.raises(ValueError):
        explanations.what_if(file, file.score(), partnership="sum")  # Trigami has no partners
