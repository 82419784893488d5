"""The house reading of a card taken back (Trix option ``taken_back``), tested from the
rule: SCORING.md §2.2, "House reading of a card taken back".

"leader" (the default, rules/trix.de.txt): the doubler who wins back their own doubled K♥
pays −150 and the player who led to that trick gains +75, or the doubler pays only −75 if
they led it; a queen the same with 50/25.  "plain": the doubler pays the plain penalty,
−75 for the K♥, −25 for a queen, and nobody gains, whoever led.  Reversed scoring flips
every sign (§2.5).  Every expected number below is worked by hand from those sentences
(the working is in the comments).  Seats: Anna 0, Ben 1, Carla 2, Dan 3.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules.common import FormatError
from scorekeeper.rules.trix import TRIX, hints

PLAYERS = ("Anna", "Ben", "Carla", "Dan")
ANNA, BEN, CARLA, DAN = range(4)


def card(taker, doubled_by=None, leader=None):
    out = {"taker": taker}
    if doubled_by is not None:
        out["doubled_by"] = doubled_by
    if leader is not None:
        out["leader"] = leader
    return out


def king(taker, doubled_by=None, leader=None):
    return {"contracts": ["king"], "king": card(taker, doubled_by, leader)}


def queens(S, H, D, C):
    def one(value):
        return value if isinstance(value, dict) else card(value)
    return {"contracts": ["queens"], "queens": {"S": one(S), "H": one(H), "D": one(D), "C": one(C)}}


def lines(deal, **options):
    parsed = TRIX.parse_options(options)
    entry = TRIX.parse_deal(deal, 1, PLAYERS)
    TRIX.check_deal(entry, 1, PLAYERS, parsed)
    return TRIX.score_deal(entry, PLAYERS, parsed)


def points(deal, **options):
    return [line.points for line in lines(deal, **options)]


# Each case: the deal, its points under "leader", its points under "plain" (standard
# scoring), and the contract's total, which doubling never changes (−75; −100 for Queens).
CASES = [
    # K♥ doubled by Ben, Dan takes it: not taken back, both readings alike: Dan −150, Ben +75.
    pytest.param(king(DAN, doubled_by=BEN), [0, 75, 0, -150], [0, 75, 0, -150], -75, id="king-taken-by-another"),
    # Ben doubles the K♥ and wins it back, Dan led to that trick.
    # leader: Ben −150, Dan +75.  plain: Ben −75, Dan 0 (nobody gains).
    pytest.param(king(BEN, doubled_by=BEN, leader=DAN), [0, -150, 0, 75], [0, -75, 0, 0], -75,
                 id="king-back-another-led"),
    # Ben doubles the K♥, leads it himself and wins it back.
    # leader: only −75.  plain: −75.
    pytest.param(king(BEN, doubled_by=BEN, leader=BEN), [0, -75, 0, 0], [0, -75, 0, 0], -75,
                 id="king-back-doubler-led"),
    # Queens: Anna Q♠ (−25); Carla doubles her Q♥ and wins it back, Dan led; Ben Q♦ and Q♣ (−50).
    # leader: Carla −50, Dan +25.  plain: Carla −25, Dan 0.
    pytest.param(queens(ANNA, card(CARLA, doubled_by=CARLA, leader=DAN), BEN, BEN),
                 [-25, -50, -50, 25], [-25, -50, -25, 0], -100, id="queen-back-another-led"),
    # The same, but Carla led her Q♥ herself: only −25 in both readings.
    pytest.param(queens(ANNA, card(CARLA, doubled_by=CARLA, leader=CARLA), BEN, BEN),
                 [-25, -50, -25, 0], [-25, -50, -25, 0], -100, id="queen-back-doubler-led"),
    # Dan doubles Q♦ and Anna takes it (Anna −50, Dan +25, either reading); Dan doubles Q♣ and
    # wins it back, Carla led; Ben takes Q♠ and Q♥ (−50).
    # leader: Dan +25 −50 = −25, Carla +25.  plain: Dan +25 −25 = 0, Carla 0.
    pytest.param(queens(BEN, BEN, card(ANNA, doubled_by=DAN), card(DAN, doubled_by=DAN, leader=CARLA)),
                 [-50, -50, 25, -25], [-50, -50, 0, 0], -100, id="queen-doubled-and-queen-back"),
    # Anna doubles Q♠ and wins it back, Ben led; Ben doubles Q♣ and wins it back, Anna led;
    # Carla Q♥, Dan Q♦.  leader: Anna −50 +25 = −25, Ben +25 −50 = −25.  plain: −25 each.
    pytest.param(queens(card(ANNA, doubled_by=ANNA, leader=BEN), CARLA, DAN, card(BEN, doubled_by=BEN, leader=ANNA)),
                 [-25, -25, -25, -25], [-25, -25, -25, -25], -100, id="two-queens-back-crosswise"),
]


@pytest.mark.parametrize(("deal", "leader", "plain", "total"), CASES)
@pytest.mark.parametrize("scoring", ["standard", "reversed"])
def test_every_card_case_under_both_readings(deal, leader, plain, total, scoring):
    sign = -1 if scoring == "reversed" else 1  # reversed: the exact negation (§2.5)
    assert points(deal, scoring=scoring) == [sign * p for p in leader]  # the default is "leader"
    assert points(deal, scoring=scoring, taken_back="leader") == [sign * p for p in leader]
    assert points(deal, scoring=scoring, taken_back="plain") == [sign * p for p in plain]
    assert sum(leader) == sum(plain) == total  # each reading keeps the contract's total


def test_the_steps_say_what_the_doubler_pays_under_each_reading():
    deal = king(BEN, doubled_by=BEN, leader=DAN)
    assert lines(deal)[BEN].steps[0] == "doubled the K♥ and took it back: −150"
    assert lines(deal)[DAN].steps[0] == "led to the trick in which Ben took back the doubled K♥: +75"
    plain = lines(deal, taken_back="plain")
    assert plain[BEN].steps[0] == "doubled the K♥ and took it back: −75"
    assert plain[DAN].steps[0] == "did not take the K♥: 0"
    for scored in (lines(deal), plain):  # both cite the doubling rule, where the reading is written
        assert "§2.2" in scored[BEN].source and "§2.2" in scored[DAN].source


@pytest.mark.parametrize(("taken_back", "scoring", "this", "other"), [
    # leader: Ben −150, Dan +75; the other reading (plain) gives Ben −75, Dan 0.
    ("leader", "standard", "the doubler pays double and whoever led to that trick gains half",
     "would give Ben −75 and Dan 0 in this deal"),
    # plain: Ben −75; the other reading (leader) gives Ben −150, Dan +75.
    ("plain", "standard", "the doubler pays the plain penalty and nobody gains",
     "would give Ben −150 and Dan +75 in this deal"),
    # reversed: every sign flipped, the other reading's points too.
    ("leader", "reversed", "the doubler pays double and whoever led to that trick gains half",
     "would give Ben +75 and Dan 0 in this deal"),
    ("plain", "reversed", "the doubler pays the plain penalty and nobody gains",
     "would give Ben +150 and Dan −75 in this deal"),
])
def test_the_explanation_names_this_reading_and_what_the_other_gives(taken_back, scoring, this, other):
    scored = lines(king(BEN, doubled_by=BEN, leader=DAN), taken_back=taken_back, scoring=scoring)
    for seat in (BEN, DAN):  # the doubler's and the leader's explanation both say it,
        # apart from the steps, which are sums (tester 31: read as a fourth step)
        (said,) = scored[seat].notes
        assert said.startswith(f"How a card taken back is read here: {this}.")
        assert other in said
        assert not any("reading" in step for step in scored[seat].steps)
    for seat in (ANNA, CARLA):
        assert not any("reading" in step for step in scored[seat].steps) and scored[seat].notes == ()


def test_a_card_led_by_its_doubler_gives_the_same_under_both_readings_and_says_so():
    for taken_back in ("leader", "plain"):
        (said,) = lines(king(BEN, doubled_by=BEN, leader=BEN), taken_back=taken_back)[BEN].notes
        assert "gives the same points in this deal" in said


def test_no_reading_is_named_where_no_card_was_taken_back():
    for deal in (king(DAN, doubled_by=BEN), king(DAN), queens(ANNA, BEN, CARLA, DAN)):
        for line in lines(deal, taken_back="plain"):
            assert not any("reading" in step for step in line.steps) and line.notes == ()


# A kingdom (Anna's, five deals) with a K♥ and a queen taken back, played out:
#   King:     Ben doubles, wins it back, Dan led.
#             leader [0, −150, 0, +75]        plain [0, −75, 0, 0]
#   Queens:   Ben Q♠ Q♥ −50; Dan doubles Q♦, Anna takes it (−50, Dan +25); Dan doubles Q♣ and
#             wins it back, Carla led.
#             leader [−50, −50, +25, −25]     plain [−50, −50, 0, 0]
#   Diamonds: 4, 3, 3, 3 × −10 = [−40, −30, −30, −30]
#   Tricks:   3, 3, 4, 3 × −15 = [−45, −45, −60, −45]
#   Trix:     Anna, Ben, Carla, Dan out in that order: [+200, +150, +100, +50]
# Totals, leader: Anna 0 −50 −40 −45 +200 = 65; Ben −150 −50 −30 −45 +150 = −125;
#                 Carla 0 +25 −30 −60 +100 = 35; Dan 75 −25 −30 −45 +50 = 25. Σ = 0.
# Totals, plain:  Anna 65; Ben −75 −50 −30 −45 +150 = −50; Carla 0 +0 −30 −60 +100 = 10;
#                 Dan 0 +0 −30 −45 +50 = −25. Σ = 0.
# Partners (seats 0+2 against 1+3): leader 100 against −100; plain 75 against −75.
KINGDOM = [
    king(BEN, doubled_by=BEN, leader=DAN),
    queens(BEN, BEN, card(ANNA, doubled_by=DAN), card(DAN, doubled_by=DAN, leader=CARLA)),
    {"contracts": ["diamonds"], "diamonds": [4, 3, 3, 3]},
    {"contracts": ["tricks"], "tricks": [3, 3, 4, 3]},
    {"contracts": ["trix"], "trix": [ANNA, BEN, CARLA, DAN]},
]
TOTALS = {"leader": [65, -125, 35, 25], "plain": [65, -50, 10, -25]}
TEAMS = {"leader": (100, -100), "plain": (75, -75)}


@pytest.mark.parametrize("taken_back", ["leader", "plain"])
@pytest.mark.parametrize("scoring", ["standard", "reversed"])
@pytest.mark.parametrize("partnership", [None, "sum", "worst-loses"])
def test_a_kingdom_sums_to_zero_under_either_reading(taken_back, scoring, partnership):
    sign = -1 if scoring == "reversed" else 1
    score = TRIX.score(PLAYERS, ANNA, {"taken_back": taken_back, "scoring": scoring,
                                       "partnership": partnership}, KINGDOM)
    assert list(score.totals) == [sign * t for t in TOTALS[taken_back]]
    (kingdom,) = score.kingdoms
    assert kingdom.complete and kingdom.total == 0
    if partnership is None:
        assert score.team_totals is None
    else:
        assert score.team_totals == tuple(sign * t for t in TEAMS[taken_back])


@pytest.mark.parametrize(("taken_back", "scoring", "king", "queen"), [
    # Taken back by the doubler, another player led: (to the doubler, to the leader).
    ("leader", "standard", (-150, 75), (-50, 25)),
    ("plain", "standard", (-75, 0), (-25, 0)),
    ("leader", "reversed", (150, -75), (50, -25)),
    ("plain", "reversed", (75, 0), (25, 0)),
])
def test_the_deal_forms_hints_follow_the_reading(taken_back, scoring, king, queen):
    said = hints(TRIX.parse_options({"taken_back": taken_back, "scoring": scoring}))
    assert said.taken_back == taken_back
    assert said.king_taken_back == king
    assert said.queen_taken_back == queen


def test_an_unknown_reading_is_an_error_naming_the_option():
    with pytest.raises(FormatError) as info:
        TRIX.parse_options({"taken_back": "doubler"})
    assert info.value.field == "options.taken_back"
    assert "taken_back" in info.value.message and "'leader', 'plain'" in info.value.message
