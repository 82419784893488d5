"""A small history of games, scored by hand from SCORING.md, for the statistics tests
(tests/test_stats.py, tests/test_past_games.py, tests/test_browser_charts.py).

Four games, newest last (``store.list_games`` lists them newest first):

G1  Trigami to 300, Anna · Ben · Carla, finished: Anna wins.       SCORING.md §1.2, §1.4
    deal 1 (turnip ♦, the worked example): Anna Turnip 4 tricks 1 bug: 40 ÷ 1 = 40,
           doubled 80; Ben Doublets ♠ 5 tricks no bug: 5 × 40 = 200; Carla ♥ 4 tricks
           3 bugs: 40 ÷ 3 = 13 (fraction dropped).                totals  80  200  13
    deal 2: Anna ♠ 6 tricks 2 bugs: 60 ÷ 2 = 30; Ben Doublets ♥ 3 tricks 1 bug: lost, 0;
           Carla ♣ 4 tricks no bug: 4 × 20 = 80.                   totals 110  200  93
    deal 3: Anna Doublets ♦ 5 tricks no bug: 200; Ben ♠ 8 tricks 4 bugs: 80 ÷ 4 = 20;
           Carla ♥ no tricks: 50.                                  totals 310  220 143
           Anna alone at or over 300: she wins.
G2  Trigami to 500, Ben · Carla · Anna (other seats), unfinished.
    deal 1 (turnip ♣): Ben Turnip 5 tricks 3 bugs: floor(50 / 3) = 16, doubled 32;
           Carla ♠ 4 tricks no bug: 80; Anna ♥ 4 tricks 2 bugs: 40 ÷ 2 = 20.
                                                                   totals  32   80  20
    deal 2: Ben ♦ every trick (13, all 10 bugs): 100, the others 0.
                                                                   totals 132   80  20
G3  Trix, Anna · Ben · Carla · Dan, Ben owns the first kingdom, doubling, unfinished.
                                                                  (SCORING.md §2.1, §2.2)
    deal 1 King: Ben doubles the K♥, Carla takes it: Carla −150, Ben +75.
    deal 2 Queens: Ben doubles Q♠, Dan takes it: Dan −50, Ben +25; Anna takes Q♥: −25;
           Anna doubles Q♦ and takes it back, Carla led that trick: Anna −50, Carla +25;
           Dan takes Q♣: −25.            Anna −75, Ben +25, Carla +25, Dan −75 (Σ −100)
    deal 3 Diamonds 3 4 2 4:             Anna −30, Ben −40, Carla −20, Dan −40 (Σ −130)
    deal 4 Tricks 3 3 4 3:               Anna −45, Ben −45, Carla −60, Dan −45 (Σ −195)
    deal 5 Trix, out Carla, Anna, Dan, Ben: Carla +200, Anna +150, Dan +100, Ben +50.
           Kingdom 1 complete: Anna 0, Ben 65, Carla −5, Dan −60 (Σ 0 ✓)
    deal 6 King (Carla's kingdom): Dan doubles the K♥ and takes it back, Anna led that
           trick: Dan −150, Anna +75.                 totals Anna 75, Ben 65, Carla −5, Dan −210
G4  Trix, Anna · Ben · Carla · Dan, finished: each of the four kingdoms is the same five
    deals: Dan takes the K♥ (−75), all four queens (−100), all 13 diamonds (−130) and
    all 13 tricks (−195); Trix out Anna, Ben, Carla, Dan (+200, +150, +100, +50).
    A kingdom: Anna +200, Ben +150, Carla +100, Dan −450 (Σ 0 ✓); four of them:
    Anna 800, Ben 600, Carla 400, Dan −1800. Anna wins.
"""

from __future__ import annotations

from typing import Any

from tests.conftest import game_file


def plain(suit: str) -> dict[str, str]:
    return {"kind": "plain", "suit": suit}


def doublets(suit: str) -> dict[str, str]:
    return {"kind": "doublets", "suit": suit}


TURNIP = {"kind": "turnip"}

G1: dict[str, Any] = {"kind": "trigami", "players": ["Anna", "Ben", "Carla"], "options": {"target": 300}, "deals": [
    {"turnip": "D", "bids": [TURNIP, doublets("S"), plain("H")], "tricks": [4, 5, 4], "bugs": [1, 0, 3]},
    {"bids": [plain("S"), doublets("H"), plain("C")], "tricks": [6, 3, 4], "bugs": [2, 1, 0]},
    {"bids": [doublets("D"), plain("S"), plain("H")], "tricks": [5, 8, 0], "bugs": [0, 4, 0]},
]}
G2: dict[str, Any] = {"kind": "trigami", "players": ["Ben", "Carla", "Anna"], "deals": [
    {"turnip": "C", "bids": [TURNIP, plain("S"), plain("H")], "tricks": [5, 4, 4], "bugs": [3, 0, 2]},
    {"bids": [plain("D"), plain("S"), plain("H")], "tricks": [13, 0, 0], "bugs": [10, 0, 0]},
]}
G3: dict[str, Any] = {"kind": "trix", "players": ["Anna", "Ben", "Carla", "Dan"], "first_dealer": 1, "deals": [
    {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}},
    {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1}, "H": {"taker": 0},
                                         "D": {"taker": 0, "doubled_by": 0, "leader": 2}, "C": {"taker": 3}}},
    {"contracts": ["diamonds"], "diamonds": [3, 4, 2, 4]},
    {"contracts": ["tricks"], "tricks": [3, 3, 4, 3]},
    {"contracts": ["trix"], "trix": [2, 0, 3, 1]},
    {"contracts": ["king"], "king": {"taker": 3, "doubled_by": 3, "leader": 0}},
]}
KINGDOM: list[dict[str, Any]] = [
    {"contracts": ["king"], "king": {"taker": 3}},
    {"contracts": ["queens"], "queens": {suit: {"taker": 3} for suit in "SHDC"}},
    {"contracts": ["diamonds"], "diamonds": [0, 0, 0, 13]},
    {"contracts": ["tricks"], "tricks": [0, 0, 0, 13]},
    {"contracts": ["trix"], "trix": [0, 1, 2, 3]},
]
G4: dict[str, Any] = {"kind": "trix", "players": ["Anna", "Ben", "Carla", "Dan"], "deals": KINGDOM * 4}

HISTORY = {"G1": G1, "G2": G2, "G3": G3, "G4": G4}


def store_history(make_game) -> dict[str, str]:
    """Store G1 … G4 in that order (with make_game from conftest); {"G1": game id, …}."""
    return {name: make_game(**game) for name, game in HISTORY.items()}


def file_of(name: str) -> dict[str, Any]:
    """The game file dict of one game of the history."""
    return game_file(**HISTORY[name])
