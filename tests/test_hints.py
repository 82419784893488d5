"""The deal form's hints follow the game's settings: the points each Trix contract's hint
says are the points SCORING.md gives under those settings (§2.1, §2.2, §2.5), and the
points the sheet then shows.

§2.1: K♥ −75, a queen −25, a diamond −10, a trick −15, Trix +200, +150, +100, +50 in
finishing order. §2.2: a doubled card costs its taker twice, and half goes to the doubler
(K♥: −150 and +75; a queen: −50 and +25). §2.5: swapped values make a diamond −15 and a
trick −10; reversed scoring turns every sign.
"""

from __future__ import annotations

import html
import itertools
import re

import pytest

from scorekeeper import sheet, store


def text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def hint_line(page: str, heading: str) -> str:
    """The hint beside a contract's heading, as text."""
    match = re.search(rf"<h2>{heading} <span class=\"rule\">(.*?)</span></h2>", page, re.S)
    assert match, f"no hint for {heading}"
    return " ".join(text(match.group(1)).split())


def expected(values: str, scoring: str) -> dict[str, int]:
    sign = -1 if scoring == "reversed" else 1
    per = {"diamond": -10, "trick": -15} if values == "standard" else {"diamond": -15, "trick": -10}
    base = {"king": -75, "king_taker": -150, "king_doubler": 75, "queen": -25, "queen_taker": -50,
            "queen_doubler": 25, **per, "first": 200, "second": 150, "third": 100, "last": 50}
    return {key: sign * points for key, points in base.items()}


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"\u2212{-points}"


@pytest.mark.parametrize(("values", "scoring", "doubling"),
                         list(itertools.product(("standard", "swapped"), ("standard", "reversed"), (True, False))))
def test_every_trix_hint_says_the_points_of_the_game_settings(client, make_game, values, scoring, doubling):
    game_id = make_game(kind="trix", options={"values": values, "scoring": scoring, "doubling": doubling})
    page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    want = expected(values, scoring)
    king = hint_line(page, "King of Hearts")
    queens = hint_line(page, "Queens")
    assert king.startswith(f"{signed(want['king'])} to whoever takes the K♥"), king
    assert queens.startswith(f"{signed(want['queen'])} a queen"), queens
    if doubling:
        assert f"doubled: {signed(want['king_taker'])}, and {signed(want['king_doubler'])} to the doubler" in king
        assert f"doubled: {signed(want['queen_taker'])}, and {signed(want['queen_doubler'])} to the doubler" in queens
    else:
        assert "doubled" not in king + queens
    assert hint_line(page, "Diamonds").startswith(f"{signed(want['diamond'])} a diamond")
    assert hint_line(page, "Tricks").startswith(f"{signed(want['trick'])} a trick")
    places = ", ".join(signed(want[p]) for p in ("first", "second", "third", "last"))
    assert hint_line(page, "Trix") == f"{places} in finishing order"


def test_a_reversed_game_s_king_hint_is_what_the_saved_deal_gives(client, make_game, db):
    """The form of a reversed game says +75 for the K♥, and the K♥ taken through that form
    gives its taker +75."""
    game_id = make_game(kind="trix", options={"scoring": "reversed"})
    page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert hint_line(page, "King of Hearts").startswith("+75 to whoever takes the K♥")
    assert client.post(f"/games/{game_id}/deals/new",
                       data={"contracts": "king", "king_taker": "2"}).status_code == 302
    assert sheet.build(store.get_game(db, game_id)).score.deals[0].points[2] == 75


def test_the_calculator_s_hints_follow_the_settings_it_is_given(client):
    page = client.get("/calculator?kind=trix&settings=1&values=swapped&scoring=reversed").get_data(as_text=True)
    want = expected("swapped", "reversed")
    assert hint_line(page, "Diamonds").startswith(f"{signed(want['diamond'])} a diamond")  # +15
    assert hint_line(page, "King of Hearts").startswith(f"{signed(want['king'])} to whoever")  # +75
    assert "doubled" not in hint_line(page, "Queens")  # doubling not ticked
