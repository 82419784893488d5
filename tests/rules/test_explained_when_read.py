"""Explanations are told when someone reads them, not when a game is scored (issue 7).

Scoring works out points, totals and winners; a line's steps and source are worked out
from the same entries when ``line.steps`` / ``line.source`` are read, and translated by
the translator in force at that moment (a request's language), never at scoring time.
The sentences themselves are those of SCORING.md's worked examples, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from scorekeeper.rules import common
from scorekeeper.rules.trigami import TRIGAMI, Options, TrigamiRules
from scorekeeper.rules.trix import TRIX, TrixRules

TRIGAMI_PLAYERS = ("Anna", "Ben", "Carla")
TRIX_PLAYERS = ("Anna", "Ben", "Carla", "Dan")
ANNA, BEN, CARLA, DAN = range(4)

# SCORING.md §1.2, worked example (rules/trigami.en.txt): turnip 5♦; Anna bids Turnip,
# 4 tricks with 1 diamond → 40 ÷ 1 = 40, doubled 80; Ben bids Doublets in spades, 5 tricks,
# no spade → 200; Carla bids hearts, 4 tricks with 3 hearts → 13.
TRIGAMI_WORKED = {"turnip": "D",
                  "bids": [{"kind": "turnip"}, {"kind": "doublets", "suit": "S"},
                           {"kind": "plain", "suit": "H"}],
                  "tricks": [4, 5, 4], "bugs": [1, 0, 3]}
TRIGAMI_WORKED_STEPS = (
    ("bid Turnip (bug suit ♦)", "4 tricks, 1 bug", "4 tricks × 10 = 40, ÷ 1 bug = 40",
     "Turnip doubles: 80"),
    ("bid Doublets (bug suit ♠)", "5 tricks, 0 bugs", "Doublets kept, no bugs: 5 tricks × 40 = 200"),
    ("plain bid (bug suit ♥)", "4 tricks, 3 bugs",
     "4 tricks × 10 = 40, ÷ 3 bugs = 13 (fraction dropped)"),
)

# SCORING.md §2.2, worked example (rules/trix.de.txt): Queens; Ben doubled his Q♠ and Dan
# took it, Anna took the Q♥, Carla the Q♦, Dan the Q♣: Anna −25, Ben +25, Carla −25,
# Dan −50 − 25 = −75.
TRIX_WORKED = {"contracts": ["queens"],
               "queens": {"S": {"taker": DAN, "doubled_by": BEN}, "H": {"taker": ANNA},
                          "D": {"taker": CARLA}, "C": {"taker": DAN}}}
TRIX_WORKED_STEPS = (
    ("took 1 queen (Q♥): −25",),
    ("doubled the Q♠ and Dan took it: +25",),
    ("took 1 queen (Q♦): −25",),
    ("took the Q♠, doubled by Ben: −50", "took 1 queen (Q♣): −25", "in all: −75"),
)


def score_trigami(*raw_deals: dict[str, Any], target: int = 500) -> common.GameScore:
    deals = [TRIGAMI.parse_deal(raw, number, TRIGAMI_PLAYERS)
             for number, raw in enumerate(raw_deals, 1)]
    return TRIGAMI.score(TRIGAMI_PLAYERS, 0, Options(target=target), deals)


def score_trix(*raw_deals: dict[str, Any]) -> common.GameScore:
    return TRIX.score(TRIX_PLAYERS, ANNA, TRIX.parse_options({}), list(raw_deals))


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every message the rules ask the translator for, in order (returned untranslated)."""
    messages: list[str] = []

    def translate(message: str) -> str:
        messages.append(message)
        return message

    monkeypatch.setattr(common, "_translator", translate)
    yield messages


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts the narrations: one entry per call of a game's step-telling function."""
    calls: list[str] = []

    def counting(name: str, tell: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any) -> Any:
            calls.append(name)
            return tell(*args)
        return wrapper

    monkeypatch.setattr(TrigamiRules, "_tell", counting("trigami", TrigamiRules._tell))
    monkeypatch.setattr(TrixRules, "_tell", staticmethod(counting("trix", TrixRules._tell)))
    return calls


def test_scoring_a_trigami_deal_builds_and_translates_no_step(asked, told):
    game = score_trigami(TRIGAMI_WORKED)
    assert game.deals[0].points == (80, 200, 13)
    assert asked == [] and told == []
    assert tuple(line.steps for line in game.deals[0].lines) == TRIGAMI_WORKED_STEPS
    assert told == ["trigami"] * 3
    assert "bid Turnip (bug suit {suit})" in asked
    assert all(line.source == "SCORING.md §1.2; rules/trigami.en.txt, Scoring"
               for line in game.deals[0].lines)


def test_scoring_a_trix_deal_builds_and_translates_no_step(asked, told):
    game = score_trix(TRIX_WORKED)
    assert game.deals[0].points == (-25, 25, -25, -75)
    assert asked == [] and told == []
    assert tuple(line.steps for line in game.deals[0].lines) == TRIX_WORKED_STEPS
    assert told == ["trix"] * 4
    assert "in all: {points}" in asked
    dan = game.deals[0].lines[DAN]
    assert dan.source.startswith("SCORING.md §2.1, §2.2; rules/trix.de.txt")
    assert "Herz-König und Damen verdoppeln" in dan.source and "Abrechnung" in dan.source


def test_a_long_game_is_scored_without_a_sentence_and_told_in_full_when_printed(asked, told):
    # 200 deals of the worked example, each seat taking Ben's Doublets in turn: the totals
    # need no step; `scorekeeper score` (to_json) then prints every line's steps.
    deals = [{**TRIGAMI_WORKED, "bids": TRIGAMI_WORKED["bids"][-n:] + TRIGAMI_WORKED["bids"][:-n],
              "tricks": TRIGAMI_WORKED["tricks"][-n:] + TRIGAMI_WORKED["tricks"][:-n],
              "bugs": TRIGAMI_WORKED["bugs"][-n:] + TRIGAMI_WORKED["bugs"][:-n]}
             for n in (0, 1, 2) * 66 + (0, 1)]
    game = score_trigami(*deals, target=100_000)
    # 66 rounds of 80 + 200 + 13 = 293 each, then (80, 200, 13) and (13, 80, 200)
    assert len(game.deals) == 200
    assert game.totals == (66 * 293 + 80 + 13, 66 * 293 + 200 + 80, 66 * 293 + 13 + 200)
    assert asked == [] and told == []
    printed = game.to_json()
    assert told == ["trigami"] * 600
    assert printed["deals"][0]["explanations"] == [list(s) for s in TRIGAMI_WORKED_STEPS]


def test_steps_are_translated_when_read_in_the_language_then_in_force(monkeypatch):
    german = {"bid Turnip (bug suit {suit})": "reizte Rübe (Käferfarbe {suit})",
              "Turnip doubles: {points}": "Rübe verdoppelt: {points}",
              "took the {card}, doubled by {doubler}: {points}":
                  "nahm die {card}, von {doubler} verdoppelt: {points}"}
    english = common._translator
    trigami, trix = score_trigami(TRIGAMI_WORKED), score_trix(TRIX_WORKED)  # in English

    monkeypatch.setattr(common, "_translator", lambda message: german.get(message, message))
    anna = trigami.deals[0].lines[ANNA].steps
    assert anna[0] == "reizte Rübe (Käferfarbe ♦)" and anna[-1] == "Rübe verdoppelt: 80"
    assert trix.deals[0].lines[DAN].steps[0] == "nahm die Q♠, von Ben verdoppelt: −50"

    monkeypatch.setattr(common, "_translator", english)  # nothing kept from the last reading
    assert trigami.deals[0].lines[ANNA].steps == TRIGAMI_WORKED_STEPS[ANNA]
    assert trix.deals[0].lines[DAN].steps == TRIX_WORKED_STEPS[DAN]


def test_lines_are_equal_when_their_entries_are():
    assert score_trigami(TRIGAMI_WORKED) == score_trigami(TRIGAMI_WORKED)
    assert score_trix(TRIX_WORKED) == score_trix(TRIX_WORKED)
    carla = score_trigami(TRIGAMI_WORKED).deals[0].lines[CARLA]
    assert carla == score_trigami(TRIGAMI_WORKED).deals[0].lines[CARLA]
    assert hash(carla) == hash(score_trigami(TRIGAMI_WORKED).deals[0].lines[CARLA])
    # Carla's bug suit clubs instead of hearts: 13 again, but another line.
    clubs = {**TRIGAMI_WORKED, "bids": [*TRIGAMI_WORKED["bids"][:2], {"kind": "plain", "suit": "C"}]}
    other = score_trigami(clubs).deals[0].lines[CARLA]
    assert other.points == carla.points == 13
    assert other != carla and other.steps[0] == "plain bid (bug suit ♣)"
