"""Partners and ties: who won and why, said truly on the sheet and in the explanations.

Through Flask's test client, as a player reads the pages; every expected number is worked
by hand from SCORING.md §2.5 (Partners: "sum" — the higher team total wins; "worst-loses" —
the team holding the single worst individual total loses; Reversed scoring: the lower team
total wins and "worst" is the highest) and §1.4 (Trigami: reaching the target counts).
Seats: Anna 0, Ben 1, Carla 2, Dan 3; partners sit opposite: Anna & Carla, Ben & Dan.
"""

from __future__ import annotations

import html
import re

import pytest

from tests.test_cards_by_language import KING_DOUBLED, in_language
from tests.test_explain import KINGDOM, text

# KINGDOM (tests/test_explain.py) totals Anna 50, Ben 65, Carla −55, Dan −60; four times
# over: Anna 200, Ben 260, Carla −220, Dan −240.  Team totals: Anna & Carla −20, Ben & Dan
# 20.  The lowest individual total is Dan's −240, so under "worst loses" Ben & Dan lose
# and Anna & Carla win, although their team total is the lower: the case that tells the
# two partnership rules apart.  Reversed: every total negated (Anna −200, Ben −260, Carla
# 220, Dan 240): the worst is the highest, Dan's 240, so again Anna & Carla win; with
# "sum" the lower team total wins, Ben & Dan's −20.
WHOLE_GAME = KINGDOM * 4


def game(make_game, partnership: str, reversed_: bool = False, deals=WHOLE_GAME) -> str:
    options = {"partnership": partnership, **({"scoring": "reversed"} if reversed_ else {})}
    return make_game(kind="trix", first_dealer=1, deals=deals, options=options)


def team_row(client, game_id: str, code: str = "en") -> tuple[str, list[tuple[str, str]]]:
    """The sheet's Teams row: its heading as read, and (classes, number) for each column."""
    body = in_language(client, f"/games/{game_id}", code).get_data(as_text=True)
    row = re.search(r'<tr class="team-row">(.*?)</tr>', body, re.S).group(1)
    head = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", re.search(r"<th.*?</th>", row, re.S).group(0))).split())
    cells = re.findall(r'<td class="([^"]*)">.*?<b class="team-total">(.*?)</b>', row, re.S)
    return head, [(classes, html.unescape(number)) for classes, number in cells]


# ----------------------------------------------------------------------------- a player's total


@pytest.mark.parametrize("seat", [0, 1])
def test_worst_loses_total_names_the_worst_total_and_its_holder(client, make_game, seat):
    game_id = game(make_game, "worst-loses")
    page = text(client.get(f"/games/{game_id}/explain/total?seat={seat}"))
    assert ("After four kingdoms the team holding the worst individual total (the lowest) loses: it is −240, "
            "held by \u2068Dan\u2069, so \u2068Ben\u2069 & \u2068Dan\u2069 lost and \u2068Anna\u2069 & "
            "\u2068Carla\u2069 won.") in page
    assert "After four kingdoms the highest total wins" not in page and "share it, so share the win" not in page
    # the reading and its setting, as on the team page
    assert "the worst total is the lowest of the four players' totals" in page


def test_worst_loses_reversed_total_says_the_worst_is_the_highest(client, make_game):
    game_id = game(make_game, "worst-loses", reversed_=True)
    page = text(client.get(f"/games/{game_id}/explain/total?seat=0"))
    assert ("After four kingdoms the team holding the worst individual total (the highest) loses: it is 240, "
            "held by \u2068Dan\u2069, so \u2068Ben\u2069 & \u2068Dan\u2069 lost and \u2068Anna\u2069 & "
            "\u2068Carla\u2069 won.") in page
    assert "After four kingdoms the lowest total wins" not in page
    assert "the worst total is the highest of the four players' totals" in page


def test_worst_loses_total_in_german(client, make_game):
    game_id = game(make_game, "worst-loses")
    page = text(in_language(client, f"/games/{game_id}/explain/total?seat=0", "de"))
    assert ("Nach vier Königreichen verliert die Partei mit dem schlechtesten Einzelstand (dem niedrigsten): "
            "Er ist −240, gehalten von \u2068Dan\u2069, also haben \u2068Ben\u2069 & \u2068Dan\u2069 verloren "
            "und \u2068Anna\u2069 & \u2068Carla\u2069 gewonnen.") in page
    assert "Nach vier Königreichen gewinnt der höchste Stand" not in page


def test_worst_loses_shared_worst_total_shares_the_win(client, make_game):
    # one kingdom with the trix order Carla, Dan, Anna, Ben instead (SCORING.md §2.1:
    # 200, 150, 100, 50): Anna −25−30−45+100 = 0 … worked per seat below
    deals = [KINGDOM[0], KINGDOM[1], KINGDOM[2], KINGDOM[3], {"contracts": ["trix"], "trix": [3, 2, 0, 1]}]
    # K♥: Ben +75, Carla −150; Queens: Anna −25, Ben +25, Carla −25, Dan −75;
    # Diamonds: −30, −40, −20, −40; Tricks: −45, −45, −60, −45; Trix 3rd, 4th, 1st, 2nd:
    # Anna +100, Ben +50, Carla +200, Dan +150 → Anna 0, Ben 65, Carla −55, Dan −10.
    # Not a tie: Carla's −55 is the worst, so Anna & Carla lose (the game is not over, so
    # the rule is said without a result)
    game_id = game(make_game, "worst-loses", deals=deals)
    page = text(client.get(f"/games/{game_id}/explain/total?seat=0"))
    assert "After the fourth kingdom the team holding the worst individual total (the lowest) loses." in page


# ----------------------------------------------------------------------------- "sum"


def test_sum_total_says_it_is_the_team_total_that_wins(client, make_game):
    game_id = game(make_game, "sum")
    for seat in (0, 3):
        page = text(client.get(f"/games/{game_id}/explain/total?seat={seat}"))
        assert ("After four kingdoms the higher team total (the partners' totals added) wins: \u2068Ben\u2069 & "
                "\u2068Dan\u2069 20 against \u2068Anna\u2069 & \u2068Carla\u2069 −20, so \u2068Ben\u2069 & "
                "\u2068Dan\u2069 won.") in page
        assert "After four kingdoms the highest total wins" not in page


def test_sum_reversed_total_says_the_lower_team_total_wins(client, make_game):
    game_id = game(make_game, "sum", reversed_=True)
    page = text(client.get(f"/games/{game_id}/explain/total?seat=1"))
    assert ("After four kingdoms the lower team total (the partners' totals added) wins: \u2068Ben\u2069 & "
            "\u2068Dan\u2069 −20 against \u2068Anna\u2069 & \u2068Carla\u2069 20, so \u2068Ben\u2069 & "
            "\u2068Dan\u2069 won.") in page


def test_sum_unfinished_total_says_the_team_total_decides(client, make_game):
    game_id = game(make_game, "sum", deals=KINGDOM)
    page = text(in_language(client, f"/games/{game_id}/explain/total?seat=0", "fi"))
    assert "Neljännen kuningaskunnan jälkeen parin suurempi yhteispistemäärä (parin pisteet yhteenlaskettuina) voittaa." in page


# ----------------------------------------------------------------------------- the sheet's Teams row


def test_worst_loses_sheet_shows_each_teams_worst_total_and_marks_the_winners(client, make_game):
    game_id = game(make_game, "worst-loses")
    head, cells = team_row(client, game_id)
    assert head == "Teams worst total"
    # Anna & Carla's worst is Carla's −220, Ben & Dan's Dan's −240 (not the sums −20 and 20)
    assert [number for _c, number in cells] == ["−220", "−240", "−220", "−240"]
    assert ["winner" in classes.split() for classes, _n in cells] == [True, False, True, False]
    # a finished game names the winners below the sheet, as the totals decide
    assert "Game over — Anna & Carla won!" in text(client.get(f"/games/{game_id}"))


def test_worst_loses_sheet_reversed_and_in_arabic(client, make_game):
    game_id = game(make_game, "worst-loses", reversed_=True)
    head, cells = team_row(client, game_id, "ar")
    assert head == "الفرق أسوأ مجموع"
    assert ["winner" in classes.split() for classes, _n in cells] == [True, False, True, False]


def test_worst_loses_sheet_mid_game_stars_the_team_ahead(client, make_game):
    # one kingdom: Anna 50, Ben 65, Carla −55, Dan −60: Dan's −60 is the worst, so
    # Anna & Carla would win now; the team sums (−5 against 5) would say the opposite
    game_id = game(make_game, "worst-loses", deals=KINGDOM)
    _head, cells = team_row(client, game_id)
    assert [number for _c, number in cells] == ["−55", "−60", "−55", "−60"]
    assert ["leader" in classes.split() for classes, _n in cells] == [True, False, True, False]
    assert not any("winner" in classes.split() for classes, _n in cells)


def test_sum_sheet_shows_team_totals_and_marks_the_winners(client, make_game):
    game_id = game(make_game, "sum")
    head, cells = team_row(client, game_id, "de")
    assert head == "Parteien"
    assert [number for _c, number in cells] == ["−20", "20", "−20", "20"]
    assert ["winner" in classes.split() for classes, _n in cells] == [False, True, False, True]


# ----------------------------------------------------------------------------- the team page


def test_worst_loses_team_page_shows_the_worst_totals_and_the_result(client, make_game):
    game_id = game(make_game, "worst-loses")
    page = text(client.get(f"/games/{game_id}/explain/teams"))
    assert "Team Partners' totals Worst total" in page  # the table's heads
    assert "\u2068Anna\u2069 200, \u2068Carla\u2069 −220: the team's worst total is −220." in page
    assert "\u2068Ben\u2069 260, \u2068Dan\u2069 −240: the team's worst total is −240." in page
    # after four kingdoms: both in the past (tester 67: "lose … won")
    assert "it is −240, held by \u2068Dan\u2069, so \u2068Ben\u2069 & \u2068Dan\u2069 lost and" in page
    assert "Anna & Carla Winners" in page and "Ben & Dan Winners" not in page
    assert "−20" not in page  # the team sums decide nothing here


def test_worst_loses_team_page_in_arabic_names_the_worst_total(client, make_game):
    game_id = game(make_game, "worst-loses")
    page = text(in_language(client, f"/games/{game_id}/explain/teams", "ar"))
    assert "أسوأ مجموع" in page and "وهو عند \u2068Dan\u2069" in page
    assert "Anna وCarla الفائزان" in page


# ----------------------------------------------------------------------------- wording


def test_one_deal_is_one_deal(client, make_game):
    # KINGDOM's first deal: Ben doubled the K♥ and Carla took it, Ben +75 (SCORING.md §2.2)
    game_id = make_game(kind="trix", first_dealer=1, deals=KINGDOM[:1])
    assert "\u2068Ben\u2069's points in 1 deal: 75 = 75" in text(client.get(f"/games/{game_id}/explain/total?seat=1"))
    page = text(in_language(client, f"/games/{game_id}/explain/total?seat=1", "de"))
    assert "Punkte von \u2068Ben\u2069 in 1 Spiel: 75 = 75" in page


def test_a_tie_exactly_at_the_target_says_at_or_past(client, make_game):
    # SCORING.md §1.4: reaching the target counts, and a tie at the top goes on. Five clean
    # tricks for Anna and Ben (20 a trick: 100 each), three for Carla (60); target 100
    level = {"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [5, 5, 3], "bugs": [0, 0, 0]}
    game_id = make_game(players=["Tia", "Tom", "Uma"], options={"target": 100}, deals=[level])
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Tia & Tom are level at the top with 100, at or past the target of 100: the next deal decides." in sheet
    assert "past 100:" not in sheet.replace("at or past the target of 100:", "")
    german = text(in_language(client, f"/games/{game_id}", "de"))
    assert "Tia & Tom liegen gleichauf vorn mit 100, am Ziel 100 oder darüber" in german


@pytest.mark.parametrize("code", ["en", "ar"])
def test_a_doubled_cards_mark_stays_after_the_card_in_every_direction(client, make_game, code):
    game_id = make_game(kind="trix", deals=[KING_DOUBLED])
    page = in_language(client, f"/games/{game_id}", code).get_data(as_text=True)
    # the card and its ² isolated left to right, so that an Arabic row does not put the
    # ² before the card ("²K♥")
    marks = re.findall(r'<span class="doubled-mark"><bdi dir="ltr" aria-hidden="true">(.*?)</bdi>', page, re.S)
    assert marks and all(re.sub(r"<[^>]+>", "", m).endswith("²") for m in marks)
    # and so in the note under the sheet
    assert page.count('<bdi dir="ltr">') >= 2


def test_printed_sheet_shows_each_teams_worst_total_under_worst_loses(client, make_game):
    page = text(client.get(f"/games/{game(make_game, 'worst-loses')}/print"))
    assert "Teams: worst total −220 −240 −220 −240" in page
    assert "Game over — Anna & Carla won!" in page
    # "sum": the team totals, as before
    assert "Teams −20 20 −20 20" in text(client.get(f"/games/{game(make_game, 'sum')}/print"))


def test_partners_mid_game_the_names_above_star_the_side_ahead_not_the_best_player(client, make_game):
    # one kingdom: Ben's 65 is the best total alone, but under "worst loses" Dan's −60
    # makes Anna & Carla the side ahead: the names above mark them, as the Teams row does
    game_id = game(make_game, "worst-loses", deals=KINGDOM)
    body = client.get(f"/games/{game_id}").get_data(as_text=True)
    heads = re.findall(r'<th scope="col" class="player-col([^"]*)"', body)
    assert ["leader" in classes.split() for classes in heads] == [True, False, True, False]


def test_two_winners_and_two_level_are_said_in_the_number_each_language_has(client, make_game):
    """Tester 67: a pair of winners read in Finnish as one winner ("voittaja Karim ja
    Aino") and in Arabic in the plural where two people take the dual ("الفائزون",
    "متعادلون"). Partners win as two: Finnish "voittajat", Arabic "الفائزان"; two level at
    the top: "متعادلان"; one winner keeps the singular."""
    from tests.test_transfer import read_csv

    partners = game(make_game, "worst-loses")  # Anna & Carla win (the module's docstring)
    what_if = text(in_language(client, f"/games/{partners}/what-if?scoring=reversed", "fi"))
    assert "Kuten pelattiin: voittajat Anna ja Carla." in what_if.replace("\u2068", "").replace("\u2069", "")
    teams = text(in_language(client, f"/games/{partners}/explain/teams", "ar"))
    assert "الفائزان" in teams and "الفائزون" not in teams
    rows = read_csv(in_language(client, f"/games/{partners}/sheet.csv", "ar"))
    assert ["الفائزان: Anna وCarla"] in [[c.replace("\u2068", "").replace("\u2069", "") for c in r] for r in rows]
    rows = read_csv(in_language(client, f"/games/{partners}/sheet.csv", "fi"))
    assert any(r and r[0].startswith("Voittajat: ") for r in rows), rows[-3:]
    # the sheet's and the printed sheet's last line (tester 68: "voittaja" for the pair)
    for page in (f"/games/{partners}", f"/games/{partners}/print"):
        said = text(in_language(client, page, "fi")).replace("\u2068", "").replace("\u2069", "")
        assert "Peli päättyi — voittajat: Anna ja Carla!" in said, page
    alone = make_game(kind="trix", first_dealer=1, deals=WHOLE_GAME)  # Ben wins alone (260)
    said = text(in_language(client, f"/games/{alone}", "fi")).replace("\u2068", "").replace("\u2069", "")
    assert "Peli päättyi — voittaja: Ben!" in said
    rows = read_csv(in_language(client, f"/games/{alone}/sheet.csv", "fi"))
    assert any(r and r[0].startswith("Voittaja: ") for r in rows)
    level = {"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [5, 5, 3], "bugs": [0, 0, 0]}
    tie = make_game(players=["Tia", "Tom", "Uma"], options={"target": 100}, deals=[level])
    arabic = text(in_language(client, f"/games/{tie}", "ar"))
    assert "متعادلان في الصدارة" in arabic and "متعادلون" not in arabic
