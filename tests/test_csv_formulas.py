"""No cell of the CSV download runs as a formula (issue 16, part 6; OWASP, "CSV
Injection"): a name starting with = + - @, with their full-width (＝ ＋ － ＠) or small
(﹦ ﹢ ﹣ ﹫) forms, or with one of them behind spaces or invisible characters, comes out
behind an apostrophe wherever it stands (headers, the Dealer column, team totals), while
the points stay numbers, negative ones too."""

from __future__ import annotations

import pytest

from scorekeeper.export import spreadsheet_safe, starts_like_a_formula, to_csv
from tests.test_gamefile import TRIX_KINGDOM
from tests.test_transfer import read_csv, trigami_deal

#: Each character a spreadsheet reads as the start of a formula, as a name's first
#: character (a tab or carriage return is never a name: refused on entry, see below)
FORMULA_CHARACTERS = ["=", "+", "-", "@", "＝", "＋", "－", "＠", "﹦", "﹢", "﹣", "﹫"]


@pytest.mark.parametrize("first", FORMULA_CHARACTERS)
def test_a_name_starting_with_a_formula_character_is_text_in_every_cell(client, make_game, first):
    name = f"{first}SUM(1,2)"
    game_id = make_game(players=[name, "Ben", "Carla"], first_dealer=0, deals=[trigami_deal((5, 4, 4), (0, 0, 0))])
    rows = read_csv(client.get(f"/games/{game_id}/sheet.csv"))
    assert f"'{name}: bid" in rows[0] and f"'{name}: points" in rows[0] and f"'{name}: total" in rows[0]
    assert rows[1][1] == f"'{name}"  # Dealer
    # No cell a spreadsheet would run: none starts like a formula but the numbers
    for row in rows:
        for cell in row:
            assert cell.lstrip("-").isdigit() or not starts_like_a_formula(cell), cell
    # the points stay numbers: 5 clean tricks = 100, 4 clean = 80 (SCORING.md §1.2)
    assert rows[1][11:] == ["100", "100", "80", "80", "80", "80"]


@pytest.mark.parametrize("first", ["＝", "＠", "﹢"])
def test_team_totals_named_after_a_full_width_formula_name_are_text(client, make_game, first):
    names = [f"{first}1+1", "Ben", "Carla", "Dan"]
    game_id = make_game(kind="trix", players=names, deals=TRIX_KINGDOM, options={"partnership": "sum"})
    rows = read_csv(client.get(f"/games/{game_id}/sheet.csv"))
    assert rows[0][8] == f"'{first}1+1: points"
    # "Team total: ＝1+1 & Carla" starts with words: no formula, kept as it is
    assert rows[7][0] == f"Team total: {first}1+1 & Carla"


def test_negative_points_stay_numbers(client, make_game):
    # The first Trix deal: the K♥ doubled by Ben and taken by Carla: Carla −150,
    # Ben +75 (SCORING.md §2.1): written as numbers, no apostrophe
    game_id = make_game(kind="trix", players=["-Anna", "Ben", "Carla", "Dan"], deals=TRIX_KINGDOM[:1])
    rows = read_csv(client.get(f"/games/{game_id}/sheet.csv"))
    assert rows[1][12:14] == ["-150", "-150"] and rows[1][10:12] == ["75", "75"]
    assert rows[0][8] == "'-Anna: points"


@pytest.mark.parametrize("cell", [
    "=1+1", "+1", "-1+1", "@SUM(A1)", "\t=1+1", "\r=1+1", "\tx", "\rx",
    "＝1+1", "＋1", "－1+1", "＠SUM(A1)", "﹦1", "﹢1", "﹣1", "﹫x", "⩵1",
    " =1+1", "\u3000=1+1", "\u00a0+1", "\u200b=1+1", "\ufeff=1+1", "\u200e@x", "\u2066－1", "\n=1",
])
def test_every_cell_a_spreadsheet_reads_as_a_formula_is_behind_an_apostrophe(cell):
    assert spreadsheet_safe(cell) == "'" + cell
    assert to_csv([[cell]]).decode("utf-8-sig").lstrip('"').startswith("'")


@pytest.mark.parametrize("cell", ["Anna", "Team total: =1 & +2", "1 + 2", "−75", "Σ", "", "'=1", " Anna"])
def test_text_that_is_no_formula_is_kept_as_typed(cell):
    assert spreadsheet_safe(cell) == cell


@pytest.mark.parametrize("number", [-75, -150, 0, 13, -(2**62)])
def test_numbers_are_never_touched(number):
    assert spreadsheet_safe(number) == number
    assert to_csv([[number]]).decode("utf-8-sig") == f"{number}\r\n"
