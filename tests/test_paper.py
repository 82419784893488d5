"""The paper sheet check: rules/paper.py from SCORING.md, and the /check page.

Expected verdicts are worked by hand from SCORING.md (the working is in the comments), never
copied from the program's output.  Seats: Anna 0, Ben 1, Carla 2 (Dan 3 in Trix).
"""

from __future__ import annotations

import html
import itertools
import re
from urllib.parse import urlencode

import pytest

from scorekeeper.rules import paper
from scorekeeper.rules.paper import (
    PaperOptions,
    PaperRow,
    check_sheet,
    check_trigami_row,
    check_trix_row,
)
from scorekeeper.rules.trix import TRIX

TRIX_STD = PaperOptions(kind="trix")
NAMES = ["Anna", "Ben", "Carla", "Dan"]


def messages(marks) -> str:
    return " | ".join(mark.message for mark in marks)


# --------------------------------------------------------------------------- Trigami values


@pytest.mark.parametrize(("value", "why"), [
    (13, "plain: 4 tricks, 3 bugs → ⌊40 ÷ 3⌋ = 13 (the rules' worked example)"),
    (32, "Turnip: 5 tricks, 3 bugs → ⌊50 ÷ 3⌋ = 16, doubled"),
    (80, "Turnip: 4 tricks, 1 bug → 40, doubled (worked example)"),
    (200, "Doublets: 5 clean tricks × 40; or every trick after Turnip"),
    (50, "plain, no tricks"),
    (2, "plain: 1 trick with 4 bugs (the turnip among them) → ⌊10 ÷ 4⌋ = 2"),
    (3, "plain: 1 trick, 3 bugs → ⌊10 ÷ 3⌋ = 3"),
    (0, "Doublets with a bug, or someone else won every trick"),
    (400, "Doublets: 10 clean tricks × 40"),
    (34, "Turnip: 7 tricks, 4 bugs → ⌊70 ÷ 4⌋ = 17, doubled"),
])
def test_possible_trigami_values(value, why):
    assert value in paper.trigami_values("trigami"), why


@pytest.mark.parametrize(("value", "why"), [
    # ⌊10t ÷ b⌋ = 1 needs 10t ÷ b < 2, so b > 5t; but b ≤ 3t + 1 (3 cards a trick and the
    # turnip), and 5t < 3t + 1 only for t = 0, which scores 50.  Turnip scores are even,
    # Doublets multiples of 40 (or 0, 100), clean tricks multiples of 20.
    (1, "b > 5t is impossible"),
    # ⌊10t ÷ b⌋ = 19: 19b ≤ 10t < 20b, i.e. t/2 < b ≤ 10t/19; for t ≤ 12 no whole b fits
    # (even t: b = t/2 is excluded, t/2 + 1 > 10t/19; odd t: (t + 1)/2 > 10t/19 below t = 19).
    (19, "no whole number of bugs between t/2 and 10t/19"),
    (401, "more than Doublets' 10 clean tricks × 40 = 400"),
    (-5, "never negative"),
])
def test_impossible_trigami_values(value, why):
    assert value not in paper.trigami_values("trigami"), why


def test_plain_bugami_has_no_turnip_doubling():
    # 34 in Trigami is Turnip 7 tricks 4 bugs (17 doubled).  Plain only: ⌊10t ÷ b⌋ = 34
    # needs 3.4b ≤ t < 3.5b: b = 1..4 gives no whole t, b = 5 gives t = 17 = every trick.
    assert 34 not in paper.trigami_values("bugami3")
    # 20 clean tricks each: 10 tricks = 30 cards, none of the bug suit → 200; 13 clean
    # tricks = 39 cards = all the cards outside one suit → 260 (§1.5: 39 cards outside).
    assert {200, 260} <= paper.trigami_values("bugami3")
    assert 280 not in paper.trigami_values("bugami3")  # 14 clean tricks: 42 > 39 cards


def test_an_impossible_value_names_the_nearest_possible():
    marks = check_trigami_row([1, 50, 19], names=["Anna", "Ben", "Carla"])
    assert [m.seat for m in marks] == [0, 2]
    assert "Anna: no counts give 1; the nearest possible scores are 0 and 2" in messages(marks)
    assert "Carla: no counts give 19; the nearest possible scores are 18 and 20" in messages(marks)
    assert all(m.source.startswith("SCORING.md §1.2") for m in marks)


def test_a_negative_trigami_score_is_marked():
    (mark,) = check_trigami_row([-20, 50, 13], names=["Anna", "Ben", "Carla"])
    assert mark.seat == 0 and "never below 0" in mark.message


@pytest.mark.parametrize("row", [
    (80, 200, 13),   # the worked example: 4 + 5 + 4 tricks
    (100, 0, 0),     # every trick, plain bid
    (0, 200, 0),     # every trick after Turnip or Doublets
    (50, 100, 160),  # no tricks; 5 clean tricks (5 × 20); 8 clean tricks (8 × 20): 0 + 5 + 8
])
def test_rows_one_deal_can_give(row):
    assert check_trigami_row(row) == ()


def test_three_possible_scores_that_no_deal_gives_together():
    # (50, 100, 100) too: 100 is 5 clean tricks, Doublets or Turnip with no tricks, or
    # Turnip with ⌊10t ÷ b⌋ = 50 (t = 5, b = 1; t = 10, b = 2): 0, 5 or 10 tricks again.
    assert check_trigami_row([50, 100, 100]) != ()
    # 50 is a plain bid with no tricks, or Turnip with ⌊10t ÷ b⌋ = 25: t = 5, b = 2 or
    # t = 10, b = 4.  Three players with 0, 5 or 10 tricks each cannot make 13.
    (mark,) = check_trigami_row([50, 50, 50])
    assert mark.field == "row" and mark.seat is None
    assert "tricks adding up to 13" in mark.message


def test_plain_bugami_zero_needs_someone_to_win_every_trick():
    # Without Doublets, 0 only comes from another player's every trick, which scores 100.
    assert check_trigami_row([200, 0, 0], "bugami3") != ()
    assert check_trigami_row([100, 0, 0], "bugami3") == ()


# --------------------------------------------------------------------------- Trix rows


@pytest.mark.parametrize(("contract", "points"), [
    ("queens", (-25, -25, -25, -25)),       # one queen each
    ("queens", (-75, 25, -25, -25)),        # Ben doubled the Q♠, Anna took it and one more
    ("queens", (-50, 0, -50, 0)),
    ("queens", (-25, 0, -25, -50)),         # the worked example of SCORING.md §2.2
    ("queens", (25, 25, -75, -75)),         # two doubled queens, Anna and Ben each +25
    ("king", (-75, 0, 0, 0)),
    ("king", (0, 75, -150, 0)),             # Ben doubled, Carla took it
    ("diamonds", (-30, -40, -20, -40)),     # 3 + 4 + 2 + 4 = 13 diamonds
    ("tricks", (-45, -45, -60, -45)),       # 3 + 3 + 4 + 3 = 13 tricks
    ("trix", (150, 50, 200, 100)),
])
def test_trix_rows_that_can_be_right(contract, points):
    assert check_trix_row(points, (contract,), TRIX_STD, NAMES) == ()


def test_queens_that_do_not_add_up_to_minus_100():
    (mark,) = check_trix_row((-25, -25, -25, 0), ("queens",), TRIX_STD, NAMES)
    assert mark.field == "row"
    assert mark.message == "Queens: −100 in all, but this row adds up to −75"
    assert mark.source == "SCORING.md §2.1"


def test_diamonds_must_add_up_to_minus_130_in_tens():
    (mark,) = check_trix_row((-30, -40, -20, -30), ("diamonds",), TRIX_STD, NAMES)
    assert mark.message == "Diamonds: −130 in all, but this row adds up to −120"
    marks = check_trix_row((-35, -45, -20, -30), ("diamonds",), TRIX_STD, NAMES)  # −130 in all
    assert [m.seat for m in marks] == [0, 1]
    assert "Anna: −35 is not a whole number of diamonds at −10 each" in messages(marks)


def test_a_diamonds_row_with_plus_points():
    marks = check_trix_row((10, -60, -40, -40), ("diamonds",), TRIX_STD, NAMES)
    assert "Anna: +10: in Diamonds nobody scores plus points" in messages(marks)


def test_king_of_hearts_patterns():
    # Each value alone is allowed (0, −75, +75), but −75 twice and +75: the K♥ is one card.
    (mark,) = check_trix_row((-75, 75, -75, 0), ("king",), TRIX_STD, NAMES)
    assert mark.field == "row" and "do not fit the K♥" in mark.message
    marks = check_trix_row((-50, -25, 0, 0), ("king",), TRIX_STD, NAMES)
    assert [m.seat for m in marks] == [0, 1]
    assert "in King of Hearts a player scores 0 or −75" in messages(marks)


def test_king_doubled_is_impossible_without_doubling():
    options = PaperOptions(kind="trix", doubling=False)
    marks = check_trix_row((0, 75, -150, 0), ("king",), options, NAMES)
    assert {m.seat for m in marks} == {1, 2}
    assert "without doubling" in messages(marks)


def test_queens_doubling_needs_a_taker_for_each_share():
    # Anna, Ben and Carla each doubled a queen they held, Dan took those three (3 × −50)
    # and the fourth queen (−25): +25 +25 +25 −175, −100 in all.
    assert check_trix_row((25, 25, 25, -175), ("queens",), TRIX_STD, NAMES) == ()
    # Anna +75: three +25 shares (four shares and a −25 would need five queens), so three
    # doubled queens went to the others (−150).  The others' −175 is then either
    #   a) those three and the fourth queen undoubled (−25): each player −50·doubled −25·plain
    #      with one plain queen in all — but −75 needs a plain one (−50 −25) and so does
    #      −25, three plain queens; or
    #   b) the fourth queen doubled too, its +25 to one of them: −75 is then −100 + 25, and
    #      two players of −75 would need two shares besides Anna's three: five shares.
    (mark,) = check_trix_row((75, -75, -75, -25), ("queens",), TRIX_STD, NAMES)
    assert mark.field == "row" and "cannot come from the four queens" in mark.message


def test_swapped_values_and_reversed_scoring():
    swapped = PaperOptions(kind="trix", values="swapped")
    assert check_trix_row((-30, -30, -40, -30), ("tricks",), swapped, NAMES) == ()  # 13 × −10
    assert check_trix_row((-30, -30, -40, -30), ("tricks",), TRIX_STD, NAMES) != ()
    reversed_ = PaperOptions(kind="trix", reversed=True)
    assert check_trix_row((25, 25, 25, 25), ("queens",), reversed_, NAMES) == ()
    (mark,) = check_trix_row((-25, -25, -25, -25), ("queens",), reversed_, NAMES)
    assert "Queens: +100 in all" in mark.message
    assert check_trix_row((-200, -150, -100, -50), ("trix",), reversed_, NAMES) == ()


def test_trix_places_score_once_each():
    (mark,) = check_trix_row((200, 200, 50, 50), ("trix",), TRIX_STD, NAMES)
    assert mark.message == "Each Trix place scores once: +200, +150, +100, +50"


def test_contracts_of_a_row():
    assert "Which contract" in messages(check_trix_row((-75, 0, 0, 0), (), TRIX_STD, NAMES))
    marks = check_trix_row((-75, -25, -25, -50), ("king", "queens"), TRIX_STD, NAMES)
    assert marks[0].field == "contracts" and "only Trix Complex" in marks[0].message
    complex_ = PaperOptions(kind="trix", complex=True)
    marks = check_trix_row((0, 0, 0, 0), ("trix", "king"), complex_, NAMES)
    assert "Trix is never combined" in messages(marks)


def test_trix_complex_checks_that_the_contracts_agree():
    complex_ = PaperOptions(kind="trix", complex=True, doubling=False)
    # King of Hearts + Tricks: −75 a K♥ and −15 a trick, −270 in all.  Anna −90: the K♥
    # and 1 trick; the others 4 tricks each: 1 + 4 + 4 + 4 = 13.
    assert check_trix_row((-90, -60, -60, -60), ("king", "tricks"), complex_, NAMES) == ()
    # Anna −75, Ben −60, Carla −60, Dan −75 (also −270): Ben and Carla have 4 tricks, so
    # Anna and Dan share 5 tricks and the K♥: one of them has the K♥ and no trick, but
    # whoever takes the K♥ wins a trick (SCORING.md §2.3).
    (mark,) = check_trix_row((-75, -60, -60, -75), ("king", "tricks"), complex_, NAMES)
    assert mark.field == "row" and "No way of taking the cards of King of Hearts + Tricks" in mark.message
    # −65 is no multiple of 15 nor −75 plus one.
    marks = check_trix_row((-75, -65, -65, -65), ("king", "tricks"), complex_, NAMES)
    assert {m.seat for m in marks} == {1, 2, 3}


def test_paper_check_agrees_with_the_rules_on_every_king_of_hearts_deal():
    """Every K♥ deal the rules accept passes; every other pattern of these values does not."""
    possible = set()
    for taker, doubler, leader in itertools.product(range(4), [None, *range(4)], [None, *range(4)]):
        entry = {"contracts": ["king"], "king": {"taker": taker, "doubled_by": doubler, "leader": leader}}
        try:
            deal = TRIX.parse_deal(entry, 1, NAMES)
            TRIX.check_deal(deal, 1, NAMES, TRIX.parse_options({}))
        except ValueError:
            continue
        possible.add(tuple(line.points for line in TRIX.score_deal(deal, NAMES, TRIX.parse_options({}))))
    for row in itertools.product((0, -75, -150, 75), repeat=4):
        assert (check_trix_row(row, ("king",), TRIX_STD, NAMES) == ()) == (row in possible), row


# --------------------------------------------------------------------------- whole sheets


def kingdom(diamonds=(-30, -40, -20, -40)):
    """A kingdom of the rules' example (test_gamefile.TRIX_KINGDOM), points by hand."""
    return [PaperRow((0, 75, -150, 0), ("king",)), PaperRow((-25, 25, -25, -75), ("queens",)),
            PaperRow(diamonds, ("diamonds",)), PaperRow((-45, -45, -60, -45), ("tricks",)),
            PaperRow((150, 50, 200, 100), ("trix",))]


def test_a_right_kingdom_closes_with_sigma_zero():
    result = check_sheet(kingdom(), TRIX_STD, NAMES)
    assert result.marks == ()
    closing = result.rows[4].kingdom_sum
    assert closing.number == 1 and closing.rows == (1, 2, 3, 4, 5) and closing.total == 0 and closing.ok
    # running totals by hand: Anna 0 −25 −30 −45 +150 = 50; Ben 75 + 25 − 40 − 45 + 50 = 65;
    # Carla −150 − 25 − 20 − 60 + 200 = −55; Dan 0 − 75 − 40 − 45 + 100 = −60
    assert result.totals == (50, 65, -55, -60)


def test_a_wrong_row_shows_in_the_kingdom_check():
    result = check_sheet(kingdom(diamonds=(-30, -40, -20, -30)), TRIX_STD, NAMES)  # −120
    assert [row.number for row in result.rows if row.marks] == [3, 5]
    assert "Kingdom 1: its deals add up to +10, not 0" in messages(result.rows[4].marks)


def test_a_contract_twice_in_one_kingdom():
    rows = [*kingdom()[:2], PaperRow((-25, -25, -25, -25), ("queens",))]
    result = check_sheet(rows, TRIX_STD, NAMES)
    assert "Queens was already played in kingdom 1" in messages(result.rows[2].marks)


def test_written_totals_are_checked_and_the_next_builds_on_what_was_written():
    rows = [PaperRow((0, 75, -150, 0), ("king",), (0, 75, -150, 0)),
            # Ben's total should be 75 + 25 = 100; 90 was written
            PaperRow((-25, 25, -25, -75), ("queens",), (-25, 90, -175, -75)),
            # from the written 90: 90 − 40 = 50 is right here (one slip is marked once)
            PaperRow((-30, -40, -20, -40), ("diamonds",), (-55, 50, -195, -115))]
    result = check_sheet(rows, TRIX_STD, NAMES)
    assert [row.number for row in result.rows if row.marks] == [2]
    (mark,) = result.rows[1].marks
    assert mark.seat == 1 and mark.field == "totals"
    assert mark.message == "Ben: the total should be 75 + 25 = 100, not 90"


def test_a_right_total_below_a_wrong_one_is_right_and_a_wrong_one_is_told_the_true_total():
    """Tester 27: Anna's total after deal 2 written 100 where 80 + 10 = 90; under deal 3
    (0 points) the writer put the true 90. That 90 is right: only deal 2 is marked (it had
    been marked too, as "should be 100 + 0 = 100, not 90", beside "Σ from the points: 90").
    A total that is neither the true one nor the one above carried down is marked with
    the true total, the one the sheet's sums show."""
    trigami = PaperOptions(kind="trigami")
    rows = [PaperRow((80, 200, 13), (), (80, 200, 13)),  # SCORING.md's worked example
            PaperRow((10, 32, 100), (), (100, 232, 113)),
            PaperRow((0, 50, 45), (), (90, 282, 158))]
    result = check_sheet(rows, trigami, NAMES[:3])
    assert [row.number for row in result.rows if row.marks] == [2]
    assert messages(result.rows[1].marks) == "Anna: the total should be 80 + 10 = 90, not 100"
    assert result.rows[2].running == (90, 282, 158)

    rows[2] = PaperRow((0, 50, 45), (), (95, 282, 158))  # neither 90 nor 100 + 0
    result = check_sheet(rows, trigami, NAMES[:3])
    assert [row.number for row in result.rows if row.marks] == [2, 3]
    assert messages(result.rows[2].marks) == "Anna: the total should be 90 + 0 = 90, not 95"


def test_written_totals_after_a_kingdom_must_add_up_to_zero():
    rows = kingdom()
    rows[4] = PaperRow(rows[4].points, ("trix",), (50, 65, -55, -50))  # Dan should be −60
    result = check_sheet(rows, TRIX_STD, NAMES)
    text = messages(result.rows[4].marks)
    assert "Dan: the total should be −160 + 100 = −60, not −50" in text
    assert "Kingdom 1: the written totals add up to +10, not 0" in text


@pytest.mark.parametrize("partnership, winners", [(None, (1,)), ("sum", (1, 3)), ("worst-loses", (0, 2))])
def test_a_partners_sheet_names_the_winning_team(client, partnership, winners):
    """Tester 35: a right partners' sheet was "Won by Dan" where the game of it had Ben
    and Dan win: the check had no partners. Four kingdoms of the rules' example end at
    Anna 200, Ben 260, Carla −220, Dan −240 (kingdom() by hand, × 4). Alone, Ben wins;
    partners opposite (SCORING.md §2.5), team totals Anna + Carla −20 against Ben + Dan
    +20: Ben and Dan; the team with the worst total (Dan's −240) loses: Anna and Carla."""
    result = check_sheet(kingdom() * 4, PaperOptions(kind="trix", partnership=partnership), NAMES)
    assert result.marks == () and result.finished
    assert result.totals == (200, 260, -220, -240)
    assert result.winners == winners
    page = text(client.get(check_url("trix", {r: row.points for r, row in enumerate(kingdom() * 4, 1)},
                                     {r: row.contracts[0] for r, row in enumerate(kingdom() * 4, 1)},
                                     n0="Anna", n1="Ben", n2="Carla", n3="Dan", doubling="y",
                                     partnership=partnership or "")))
    named = {(1,): "Won by Ben", (1, 3): "Won by Ben & Dan", (0, 2): "Won by Anna & Carla"}[winners]
    assert f"🏆 {named}" in page, page[:600]


def test_one_wrong_row_is_marked_in_its_kingdom_only_not_in_every_kingdom_after(client):
    """Tester 35: one Queens row written −25, +25, −25, −50 (−75: a queen short of −100)
    with each running total written as the points give it, then three right kingdoms:
    marked at deal 2 (the row), twice at deal 5 (the kingdom's deals, the written totals'
    Σ), and again at deals 10, 15 and 20, whose rows are all right ("the written totals
    add up to +25, not 0"). A slip is marked where it was made: the row and its
    kingdom's Σ; the kingdoms after it close ✓."""
    rows = kingdom() * 4
    rows[1] = PaperRow((-25, 25, -25, -50), ("queens",))
    running = [0, 0, 0, 0]
    for number, row in enumerate(rows):  # every total written as the points so far give it
        running = [t + p for t, p in zip(running, row.points, strict=True)]
        rows[number] = PaperRow(row.points, row.contracts, tuple(running))
    result = check_sheet(rows, TRIX_STD, NAMES)
    assert [row.number for row in result.rows if row.marks] == [2, 5], messages(result.marks)
    assert messages(result.rows[4].marks) == "Kingdom 1: its deals add up to +25, not 0"
    totals = {f"t{r}_{s}": v for r, row in enumerate(rows, 1) for s, v in enumerate(row.totals)}
    page = text(client.get(check_url("trix", {r: row.points for r, row in enumerate(rows, 1)},
                                     {r: row.contracts[0] for r, row in enumerate(rows, 1)},
                                     doubling="y", totals="y", **totals)))
    assert "In 1 deal something" not in page and "In 2 deals something cannot be right" in page, page[:400]
    assert page.count("Kingdom 1: its deals add up to +25, not 0") == 2  # in the summary, beside deal 5
    for k in (2, 3, 4):
        assert f"Kingdom {k}: Σ = 0 ✓" in page, k
    assert "the written totals add up" not in page


def test_a_total_beside_a_point_marked_impossible_is_not_blamed_too():
    """Tester 35: Ben's points written 99 where he scored 80 (4 clean tricks: 4 × 20,
    SCORING.md §1.2), his total written right, 200 + 80 = 280. 99 is marked (no bid
    scores it); the total was also marked "should be 200 + 99 = 299, not 280", blaming
    the one number that was right. The next total builds on the 280 written."""
    trigami = PaperOptions(kind="trigami")
    rows = [PaperRow((80, 200, 13), (), (80, 200, 13)),  # SCORING.md's worked example
            PaperRow((100, 99, 40), (), (180, 280, 53)),
            PaperRow((0, 80, 40), (), (180, 360, 93))]
    result = check_sheet(rows, trigami, NAMES[:3])
    assert [row.number for row in result.rows if row.marks] == [2]
    (mark,) = result.rows[1].marks
    assert mark.seat == 1 and mark.field == "points" and "99" in mark.message


def test_four_kingdoms_end_the_game():
    rows = kingdom() * 4 + [PaperRow((-75, 0, 0, 0), ("king",))]
    result = check_sheet(rows, TRIX_STD, NAMES)
    assert result.finished and result.winners == (1,)  # Ben: 4 × 65 = 260
    assert "four kingdoms had been played" in messages(result.rows[20].marks)


def test_trigami_game_over_and_blank_rows():
    options = PaperOptions(kind="trigami", target=300)
    rows = [PaperRow((200, 0, None)),  # blank is 0: Anna won every trick after Turnip
            PaperRow((None, None, None)),  # an empty row is skipped
            PaperRow((100, 50, 50)), PaperRow((13, 80, 200))]
    result = check_sheet(rows, options, ["Anna", "Ben", "Carla"])
    assert result.finished and result.winners == (0,)  # Anna 300 after deal 3
    assert not result.rows[1].filled and result.rows[1].marks == ()
    assert "The game was over after deal 3: Anna had reached 300" in messages(result.rows[3].marks)
    assert result.deals == 3


# --------------------------------------------------------------------------- the page


def text(response) -> str:
    # a name's <bdi> is inline: "<bdi>Anna</bdi>'s total" reads "Anna's total"
    body = re.sub(r"</?bdi>", "", re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def row_html(response, number: int) -> str:
    page = response.get_data(as_text=True)
    start = page.index(f'id="row-{number}"')
    end = page.find('id="row-', start + 10)
    return page[page.rfind("<li", 0, start):end if end > 0 else None]


def check_url(kind: str, rows: dict[int, tuple], contracts: dict[int, str] | None = None,
              **extra) -> str:
    data: list[tuple[str, str]] = [("kind", kind), ("sent", "1"), ("rows", str(max(rows) + 1))]
    for number, points in rows.items():
        data += [(f"p{number}_{seat}", str(p)) for seat, p in enumerate(points)]
    for number, contract in (contracts or {}).items():
        data += [(f"c{number}", c) for c in contract.split("+")]
    data += [(key, str(value)) for key, value in extra.items()]
    return "/check?" + urlencode(data)


def test_check_page_offers_the_three_games(client):
    page = text(client.get("/check"))
    for kind in ("Trigami", "Plain Bugami for three", "Trix"):
        assert kind in page
    assert "Check a paper sheet" in text(client.get("/"))  # in the top navigation


def test_check_page_marks_the_wrong_trix_rows(client):
    url = check_url("trix", {1: (0, 75, -150, 0), 2: (-25, -25, -25, 0), 3: (-30, -40, -20, -40)},
                    {1: "king", 2: "queens", 3: "diamonds"}, n0="Anna", n1="Ben", n2="Carla",
                    n3="Dan", doubling="y")
    response = client.get(url)
    assert response.status_code == 200
    assert 'class="panel paper-row ok"' in row_html(response, 1)
    second = row_html(response, 2)
    assert "paper-row bad" in second and "Queens: −100 in all, but this row adds up to −75" in html.unescape(second)
    assert 'paper-row ok' in row_html(response, 3)
    page = text(response)
    assert "In 1 deal something cannot be right" in page
    assert 'value="-25"' in second  # what was typed stays, the contract too
    assert re.search(r'<input checked[^>]*value="queens"', second)


def test_check_page_marks_an_impossible_trigami_cell(client):
    url = check_url("trigami", {1: (80, 200, 13), 2: (1, 50, 100)}, n0="Anna", n1="Ben", n2="Carla")
    response = client.get(url)
    second = row_html(response, 2)
    assert 'aria-invalid="true"' in second
    assert "\u2068Anna\u2069: no counts give 1; the nearest possible scores are 0 and 2" in html.unescape(second)
    assert "paper-row ok" in row_html(response, 1)


def test_check_page_checks_written_totals_only_when_ticked(client):
    rows = {1: (80, 200, 13)}
    base = check_url("trigami", rows) + "&t1_0=80&t1_1=200&t1_2=31"
    assert "should be 0 + 13 = 13, not 31" not in text(client.get(base))
    page = text(client.get(base + "&totals=y"))
    assert "\u2068Player 3\u2069: the total should be 0 + 13 = 13, not 31" in page


def test_a_totals_slip_is_told_in_the_readers_digits(client):
    """Tester 35: on an Arabic page the running-total message mixed digits ("200 + ٩٩ =
    299، لا 280"); every number of it is in the reader's digits."""
    base = check_url("trigami", {1: (80, 200, 13)}) + "&t1_0=80&t1_1=200&t1_2=31&totals=y"
    response = client.get(base, headers={"Accept-Language": "ar"})
    said = [m for m in re.findall(r"<li[^>]*>(.*?)</li>", response.get_data(as_text=True), re.S) if "٣١" in m]
    assert said, "no message about the total written 31"
    assert not re.search(r"[0-9]", re.sub(r"<[^>]+>|\(.*?\)", "", said[0])), said[0]
    assert "٠ + ١٣ = ١٣" in html.unescape(said[0])


def test_check_page_keeps_a_bad_number_and_says_so(client):
    response = client.get(check_url("trix", {1: ("-2x", 0, 0, 0)}, {1: "king"}))
    assert "Enter a whole number" in text(response)
    assert 'value="-2x"' in response.get_data(as_text=True)


def test_typographic_minus_signs_are_read(client):
    response = client.get(check_url("trix", {1: ("\u221275", "0", "", "")}, {1: "king"}))
    assert "The deal can be right" in text(response)


def test_rows_can_be_added(client):
    response = client.get("/check?kind=trigami&sent=1&rows=5&add=1&p1_0=50")
    page = response.get_data(as_text=True)
    assert 'id="row-6"' in page and 'id="row-7"' not in page
    assert 'name="rows" value="6"' in page
    assert 'value="50"' in page
    # nonsense in the address gives the default, never an error
    assert client.get("/check?kind=trix&rows=abc&add=-9").status_code == 200
    assert 'id="row-20"' in client.get("/check?kind=trix&rows=999").get_data(as_text=True)
    assert 'id="row-21"' not in client.get("/check?kind=trix&rows=999").get_data(as_text=True)


def test_trix_complex_rows_take_several_contracts(client):
    url = check_url("trix", {1: (-90, -60, -60, -60)}, {1: "king+tricks"}, complex="y")
    page = text(client.get(url))
    assert "The deal can be right" in page
    # without Trix Complex a row has one contract (radio buttons): the first one counts
    url = check_url("trix", {1: (-90, -60, -60, -60)}, {1: "king+tricks"})
    assert "King of Hearts: −75 in all, but this row adds up to −270" in text(client.get(url))


def test_marks_name_their_rule_in_words_not_file_names(client):
    from scorekeeper.rules.paper import SOURCE_DOUBLING, SOURCE_TRIGAMI, SOURCE_TRIX_CHECKS
    from scorekeeper.views.common import cited

    for source in (SOURCE_DOUBLING, SOURCE_TRIGAMI, SOURCE_TRIX_CHECKS):
        with client.application.test_request_context():
            words = cited(source)
        assert "SCORING.md" not in words and "§" not in words and "Scoring rules" not in words
    with client.application.test_request_context():
        assert cited(SOURCE_DOUBLING) == "Contracts and points; Doubling"  # the rules as stated to players
        assert cited(SOURCE_TRIX_CHECKS) == "Contracts and points; Doubling; Consistency checks"


def test_the_summary_counts_the_deals_it_lists(client):
    """Tester 38: "3 things cannot be right" over two lines, one deal's reasons sharing its
    line. It counts the deals listed: deal 2 adds up to −70, not the K♥'s −75 (SCORING.md
    §2.1), and the K♥ was played already in kingdom 1: one deal, three reasons."""
    page = text(client.get(check_url("trix", {1: (0, 75, -150, 0), 2: (0, 0, -70, 0)}, {1: "king", 2: "king"},
                                     n0="Anna", n1="Ben", n2="Carla", n3="Dan", doubling="y")))
    assert "✗ In 1 deal something cannot be right: Deal 2 :" in page
    assert "King of Hearts was already played in kingdom 1" in page


@pytest.mark.parametrize("target", ["520", "٥٢٠"])
def test_any_target_a_game_may_have_is_typed_as_the_new_game_form_takes_it(client, target):
    """Tester 39: the target was a number field stepping by 50, so the browser refused a
    game's 520 in its own words before sending; and a number field drops an Arabic
    keypad's digits. It is the new-game form's field: digits of any script, any whole
    number from 50 to 100000."""
    field = re.search(r'<input[^>]*name="target"[^>]*>', client.get("/check?kind=trigami").get_data(as_text=True))
    assert field and 'type="text"' in field.group(0) and 'inputmode="numeric"' in field.group(0)
    assert "step=" not in field.group(0)
    body = client.get(check_url("trigami", {1: (80, 200, 13)}, target=target)).get_data(as_text=True)
    assert 'id="target-errors"' not in body


@pytest.mark.parametrize("target", ["-1", "abc", "1" + "0" * 30, "10"])
def test_a_bad_target_is_said_beside_the_target_and_nowhere_else(client, target):
    response = client.get(check_url("trigami", {1: (80, 200, 13)}, target=target))
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    beside = re.search(r'id="target-errors">(.*?)</ul>', body, re.S)
    assert beside and html.unescape(beside.group(1)).strip() == "<li>Enter a target from 50 to 100000.</li>"
    assert re.search(r'<details class="panel paper-settings" open>', body)  # not hidden in a closed panel
    page = text(response)
    assert "Nothing was checked yet. The target under Players and settings needs correcting." in page
    assert "could not be read" not in page and "not whole numbers" not in page
    assert "negative" not in page
    assert 'aria-invalid="true"' not in row_html(response, 1)  # no deal is marked


def test_a_cell_that_cannot_be_read_is_named_in_the_summary(client):
    response = client.get(check_url("trigami", {1: (80, 200, 13), 2: ("8o", 0, 0)}))
    page = text(response)
    assert "Nothing was checked yet. A cell could not be read as points: Deal 2" in page
    assert "target" not in page.split("Nothing was checked yet.")[1].split("Deal 2")[0]
    assert 'href="#row-2"' in response.get_data(as_text=True)
    assert 'aria-invalid="true"' in row_html(response, 2)



def test_a_cell_that_cannot_be_read_is_said_by_whose_it_is(client):
    """Beside its row, the problem says whose points or running total it is, not just
    "enter a whole number" under a row of three cells and three totals."""
    response = client.get(check_url("trigami", {1: ("80", "2oo", "13")}, n0="Anna", n1="Ben", n2="Carla", totals="y",
                                    t1_0="80", t1_1="200", t1_2="l3"))
    row = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?bdi>", "", row_html(response, 1)))).split())
    assert "Ben's points: Enter a whole number" in row
    assert "Carla's running total: Enter a whole number" in row
    assert "Anna's" not in row


@pytest.mark.parametrize("kind", ["trix", "trigami"])
def test_an_arabic_paper_sheet_takes_the_digits_of_an_arabic_keypad(client, kind):
    """A cell typed on an Arabic keypad ("−١٥٠") reaches the check: no cell of an Arabic
    page is a type=number field (which drops ١٥٠) nor has a pattern of 0–9 only (which
    stops the form being sent); the King of Hearts row read from Arabic-Indic digits is
    right (SCORING.md §2.1: the taker −75, the others 0)."""
    client.set_cookie("lang", "ar")
    page = client.get("/check", query_string={"kind": kind, "rows": "1"}).get_data(as_text=True)
    cells = re.findall(r'<input[^>]*name="p1_\d"[^>]*>', page)
    assert cells and not [c for c in cells if 'type="number"' in c or "pattern=" in c]
    if kind == "trix":
        url = check_url("trix", {1: ("٠", "−٧٥", "٠", "٠")}, {1: "king"}, doubling="y")
        assert 'class="panel paper-row ok"' in row_html(client.get(url), 1)


# --------------------------------------------------------------------------- players' names


def name_field(response, seat: int) -> str:
    """The HTML of the name field of ``seat`` (its label, input and messages)."""
    page = response.get_data(as_text=True)
    start = page.index(f'<label for="n{seat}">')
    return page[page.rfind("<div", 0, start):page.index("</div>", start)]


def test_names_a_game_refuses_are_refused_beside_their_field_and_kept(client):
    """The names a new game refuses (40 characters at most, no invisible control
    characters: the game forms' own check) are refused here too: the message beside the
    field, what was typed still in it, nothing checked, and the sheet names the seat
    "Player 1" meanwhile, never the refused name (10,000 letters made the page 100,000
    pixels wide; a right-to-left override showed "evil" as "live")."""
    long_name, override = "A" * 10_000, "\u202eevil"
    url = check_url("trigami", {1: (20, 0, 0)}, n0=long_name, n1="<script>alert(1)</script>", n2=override)
    response = client.get(url)
    assert response.status_code == 200
    first, second, third = (name_field(response, seat) for seat in range(3))
    assert "Player 1&#39;s name is longer than 40 characters." in first and 'aria-invalid="true"' in first
    assert f'value="{long_name}"' in first
    assert "Player 3&#39;s name has invisible control characters." in third
    assert f'value="{override}"' in third
    assert "errors" not in second and 'value="&lt;script&gt;alert(1)&lt;/script&gt;"' in second
    page = text(response)
    assert "Nothing was checked yet. 2 players' names under Players and settings need correcting." in page
    assert "can be right" not in page
    assert re.search(r'<details class="panel paper-settings" open>', response.get_data(as_text=True))
    # the refused names are shown nowhere but in their own fields
    assert "A" * 41 not in page and "\u202e" not in page
    cells = row_html(response, 1)
    assert "<bdi>Player 1</bdi>" in cells and "<bdi>Player 3</bdi>" in cells
    assert "<bdi>&lt;script&gt;alert(1)&lt;/script&gt;</bdi>" in cells  # a name like any other, as text


def test_one_wrong_name_is_named_alone_and_the_same_player_twice_is_refused(client):
    response = client.get(check_url("trix", {1: (0, -75, 0, 0)}, {1: "king"}, n0="Anna", n1="Ben",
                                    n2="anna", n3="Dan"))
    assert "⁨anna⁩ is named twice." in html.unescape(name_field(response, 2))
    assert "errors" not in name_field(response, 0)
    assert "Nothing was checked yet. A player's name under Players and settings needs correcting." in text(response)
    assert 'href="#n2"' in response.get_data(as_text=True)


def test_names_a_game_takes_are_checked_with(client):
    # 40 letters, a joiner some scripts need, spaces made one: as a new game takes them
    names = {"n0": "B" * 40, "n1": "  Zoë   Ann ", "n2": "کاظم\u200cزاده"}
    response = client.get(check_url("trigami", {1: (80, 200, 13)}, **names))
    page = text(response)
    assert "The deal can be right." in page
    assert f"Totals from these points: {'B' * 40} 80 · Zoë Ann 200 · کاظم\u200cزاده 13" in page


def test_a_sheet_with_a_row_that_cannot_be_right_names_no_winner(client):
    """1,000 points in one Trigami deal cannot be right: the totals from the points are
    shown, but nobody is declared the winner on them; the same sheet put right is won."""
    wrong = text(client.get(check_url("trigami", {1: (7, 45, 1000)}, n0="A", n1="B", n2="C", target="500")))
    assert "Won by" not in wrong
    assert "No winner is named while something on the sheet cannot be right." in wrong
    right = text(client.get(check_url("trigami", {1: (80, 200, 13), 2: (80, 200, 13), 3: (80, 200, 13)},
                                      n0="A", n1="B", n2="C", target="500")))
    assert "Won by B" in right.replace("\u2068", "").replace("\u2069", "") and "No winner is named" not in right

