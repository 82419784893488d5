"""The game file, format 1 (GAME-FILE.md): parse, check, normalise, dump.

Expected values are worked by hand from SCORING.md and GAME-FILE.md (the working is in the
comments), never copied from the program's output.  Seats: Anna 0, Ben 1, Carla 2 (Dan 3
in Trix), in playing order.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import gamefile
from scorekeeper.rules import DealError, FormatError, RuleError
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file

# One kingdom of Trix, owned by Anna (first_dealer 0), each contract once, worked by hand
# from SCORING.md §2.1–2.2:
#   king: Ben doubles the K♥, Carla takes it          → Carla −150, Ben +75
#   queens: Ben doubles Q♠, Dan takes it; Dan also Q♣,
#           Anna Q♥, Carla Q♦                         → Anna −25, Ben +25, Carla −25, Dan −75
#   diamonds 3 4 2 4 × −10                            → −30 −40 −20 −40
#   tricks   3 3 4 3 × −15                            → −45 −45 −60 −45
#   trix: Carla, Anna, Dan, Ben                       → Anna 150, Ben 50, Carla 200, Dan 100
TRIX_KINGDOM: list[dict[str, Any]] = [
    {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1, "leader": None}},
    {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1},
                                         "H": {"taker": 0}, "D": {"taker": 2},
                                         "C": {"taker": 3}}},
    {"contracts": ["diamonds"], "diamonds": [3, 4, 2, 4]},
    {"contracts": ["tricks"], "tricks": [3, 3, 4, 3]},
    {"contracts": ["trix"], "trix": [2, 0, 3, 1]},
]
TRIX_KINGDOM_POINTS = [[0, 75, -150, 0], [-25, 25, -25, -75], [-30, -40, -20, -40],
                       [-45, -45, -60, -45], [150, 50, 200, 100]]

# Plain Bugami for three (SCORING.md §1.5: 17 tricks, plain bids, plain scoring):
#   Anna 5 tricks 2 bugs → 50 ÷ 2 = 25; Ben 6/3 → 60 ÷ 3 = 20; Carla 6/4 → 60 ÷ 4 = 15
#   Anna no tricks → 50; Ben 8 clean tricks → 8 × 20 = 160; Carla 9/5 → 90 ÷ 5 = 18
BUGAMI3_DEALS: list[dict[str, Any]] = [
    {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"},
              {"kind": "plain", "suit": "D"}], "tricks": [5, 6, 6], "bugs": [2, 3, 4]},
    {"bids": [{"kind": "plain", "suit": "C"}, {"kind": "plain", "suit": "H"},
              {"kind": "plain", "suit": "S"}], "tricks": [0, 8, 9], "bugs": [0, 0, 5]},
]

PLAIN = {"kind": "plain"}


def plain_deal(tricks: list[int], bugs: list[int]) -> dict[str, Any]:
    """A Trigami deal of plain bids in spades, hearts and diamonds."""
    return {"bids": [{**PLAIN, "suit": "S"}, {**PLAIN, "suit": "H"}, {**PLAIN, "suit": "D"}],
            "tricks": tricks, "bugs": bugs}


def load(data: Any) -> gamefile.GameFile:
    return gamefile.loads(json.dumps(data))


# --------------------------------------------------------------------------- good files


def test_worked_trigami_example_scores_80_200_13():
    # SCORING.md §1.2: Anna Turnip 4/1 → 40 ÷ 1 = 40, doubled 80; Ben Doublets 5/0 → 200;
    # Carla hearts 4/3 → 40 ÷ 3 = 13.
    game = load(game_file(deals=[WORKED_TRIGAMI_DEAL]))
    result = game.score()
    assert game.kind == "trigami"
    assert game.players == ("Anna", "Ben", "Carla")
    assert [d.points for d in result.deals] == [(80, 200, 13)]
    assert result.totals == (80, 200, 13)
    assert not result.finished and result.winners == ()


def test_bugami3_file_scores_plain_bids_over_17_tricks():
    result = load(game_file("bugami3", deals=BUGAMI3_DEALS)).score()
    assert [d.points for d in result.deals] == [(25, 20, 15), (50, 160, 18)]
    assert result.totals == (75, 180, 33)


def test_one_trix_kingdom_sums_to_zero():
    result = load(game_file("trix", deals=TRIX_KINGDOM)).score()
    assert [list(d.points) for d in result.deals] == TRIX_KINGDOM_POINTS
    # Anna 0−25−30−45+150 = 50, Ben 75+25−40−45+50 = 65, Carla −150−25−20−60+200 = −55,
    # Dan 0−75−40−45+100 = −60; the paper players' check: 50 + 65 − 55 − 60 = 0.
    assert result.totals == (50, 65, -55, -60)
    assert sum(result.totals) == 0
    assert not result.finished


def test_player_names_are_trimmed_with_inner_spaces_folded():
    game = load(game_file(players=["  Anna  Maria ", "Ben", "Carla"]))
    assert game.players == ("Anna Maria", "Ben", "Carla")


def test_missing_options_take_their_defaults():
    assert load(game_file("trigami")).to_dict()["options"] == {"target": 500}
    assert load(game_file("bugami3")).to_dict()["options"] == {"target": 500}
    assert load(game_file("trix")).to_dict()["options"] == {
        "doubling": True, "values": "standard", "scoring": "standard", "order": None,
        "partnership": None, "complex": False, "taken_back": "leader"}


def test_to_dict_normalises_a_trigami_file():
    data = game_file(players=["Anna", "Ben", "Carla"], first_dealer=2,
                     options={"target": 300},
                     deals=[{"note": "ignored", "bugs": [1, 0, 3], "tricks": [4, 5, 4],
                             "bids": [{"kind": "turnip"}, {"kind": "doublets", "suit": "S"},
                                      {"suit": "H", "kind": "plain"}],
                             "turnip": "D", "last_trick": 1}])
    data["comment"] = "ignored too"
    assert load(data).to_dict() == {
        "format": 1, "game": "trigami", "players": ["Anna", "Ben", "Carla"],
        "first_dealer": 2, "options": {"target": 300},
        "deals": [{"turnip": "D",
                   "bids": [{"kind": "turnip"}, {"kind": "doublets", "suit": "S"},
                            {"kind": "plain", "suit": "H"}],
                   "tricks": [4, 5, 4], "bugs": [1, 0, 3], "last_trick": 1}],
    }


def test_to_dict_normalises_a_trix_file():
    # null doubled_by / leader are the defaults and are left out; every option is listed
    dumped = load(game_file("trix", options={"partnership": "sum"}, deals=TRIX_KINGDOM[:2]))
    assert dumped.to_dict() == {
        "format": 1, "game": "trix", "players": ["Anna", "Ben", "Carla", "Dan"],
        "first_dealer": 0,
        "options": {"doubling": True, "values": "standard", "scoring": "standard",
                    "order": None, "partnership": "sum", "complex": False, "taken_back": "leader"},
        "deals": [
            {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}},
            {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1},
                                                 "H": {"taker": 0}, "D": {"taker": 2},
                                                 "C": {"taker": 3}}},
        ],
    }


def test_dumps_is_indented_utf8_json_ending_in_a_newline():
    text = gamefile.dumps(load(game_file(players=["Jörg", "Åsa", "Carla"])))
    assert text.endswith("}\n")
    assert '"Jörg"' in text and "\\u" not in text
    assert text.splitlines()[1] == '  "format": 1,'


@pytest.mark.parametrize(("kind", "deals"), [
    ("trigami", [WORKED_TRIGAMI_DEAL, {**plain_deal([6, 0, 7], [2, 0, 3]), "last_trick": 2}]),
    ("bugami3", BUGAMI3_DEALS),
    ("trix", TRIX_KINGDOM),
])
def test_dump_then_load_gives_the_same_game(kind, deals):
    game = load(game_file(kind, deals=deals))
    again = gamefile.loads(gamefile.dumps(game))
    assert again == game
    assert gamefile.dumps(again) == gamefile.dumps(game)


# ------------------------------------------------------------------ keys nobody defined


def test_unknown_keys_at_the_top_and_in_a_trigami_deal_are_ignored():
    data = game_file(deals=[{**WORKED_TRIGAMI_DEAL, "note": "Ben's best", "scorer": 2}])
    data["comment"] = "played at the pub"
    data["version"] = {"app": "paper"}
    assert load(data).score().totals == (80, 200, 13)


def test_unknown_keys_at_the_top_of_a_trix_deal_are_ignored():
    deal = {**TRIX_KINGDOM[2], "note": "Dan dealt"}
    assert load(game_file("trix", deals=[deal])).score().totals == (-30, -40, -20, -40)


@pytest.mark.parametrize(("kind", "options", "field"), [
    ("trigami", {"colour": "red"}, "options.colour"),
    ("trigami", {"target": 500, "Target": 600}, "options.Target"),
    ("bugami3", {"doubling": False}, "options.doubling"),
    ("trix", {"target": 500}, "options.target"),
    ("trix", {"doubling": True, "jokers": 2}, "options.jokers"),
])
def test_unknown_option_is_an_error(kind, options, field):
    with pytest.raises(FormatError) as caught:
        load(game_file(kind, options=options))
    assert caught.value.field == field
    assert caught.value.deal is None
    assert field.split(".")[1] in str(caught.value)


@pytest.mark.parametrize(("deal", "field"), [
    ({"contracts": ["king"], "king": {"taker": 2, "note": "x"}}, "king.note"),
    ({"contracts": ["queens"], "queens": {"S": {"taker": 3}, "H": {"taker": 0},
                                          "D": {"taker": 2}, "C": {"taker": 3},
                                          "J": {"taker": 1}}}, "queens.J"),
    ({"contracts": ["queens"], "queens": {"S": {"taker": 3, "by": 1}, "H": {"taker": 0},
                                          "D": {"taker": 2}, "C": {"taker": 3}}}, "queens.S.by"),
])
def test_unknown_key_inside_a_trix_contract_block_is_an_error(deal, field):
    with pytest.raises(DealError) as caught:
        load(game_file("trix", deals=[deal]))
    assert caught.value.deal == 1
    assert caught.value.field == field
    assert str(caught.value).startswith("deal 1: ")


# --------------------------------------------------------------------------- bad files


def _without(key: str) -> dict[str, Any]:
    data = game_file()
    del data[key]
    return data


@pytest.mark.parametrize(("data", "field", "words"), [
    ([], None, "JSON object"),
    ("trigami", None, "JSON object"),
    *[(_without(key), key, f"missing key '{key}'")
      for key in ("format", "game", "players", "first_dealer", "options", "deals")],
    ({**game_file(), "format": 2}, "format", "format must be 1"),
    ({**game_file(), "format": "1"}, "format", "format must be 1"),
    ({**game_file(), "format": 1.0}, "format", "format must be 1"),
    ({**game_file(), "format": True}, "format", "format must be 1"),
    ({**game_file(), "game": "whist"}, "game", "unknown game 'whist'"),
    ({**game_file(), "game": ["trix"]}, "game", "unknown game"),
    (game_file(players=["Anna", "Ben"]), "players", "3 names"),
    (game_file(players=["Anna", "Ben", "Carla", "Dan"]), "players", "3 names"),
    (game_file("trix", players=["Anna", "Ben", "Carla"]), "players", "4 names"),
    ({**game_file(), "players": "Anna, Ben, Carla"}, "players", "3 names"),
    (game_file(players=["Anna", "Ben", "anna"]), "players", "named twice"),
    (game_file(players=["Anna", "  ", "Carla"]), "players", "player 2 has no name"),
    (game_file(players=["Anna", 7, "Carla"]), "players", "player 2's name must be text in quotes, not 7"),
    (game_file(players=["Anna", "B" * 41, "Carla"]), "players", "longer than 40"),
    (game_file(first_dealer=3), "first_dealer", "from 0 to 2"),
    (game_file(first_dealer=-1), "first_dealer", "from 0 to 2"),
    (game_file("trix", first_dealer=4), "first_dealer", "from 0 to 3"),
    ({**game_file(), "first_dealer": True}, "first_dealer", "from 0 to 2"),
    ({**game_file(), "first_dealer": "0"}, "first_dealer", "from 0 to 2"),
    ({**game_file(), "options": []}, "options", "options must be an object"),
    (game_file(options={"target": 0}), "options.target", "from 1 to 100000"),
    (game_file(options={"target": "500"}), "options.target", "from 1 to 100000"),
    (game_file(options={"target": True}), "options.target", "from 1 to 100000"),
    (game_file(options={"target": 10**22}), "options.target", "from 1 to 100000"),
    (game_file("trix", options={"values": "double"}), "options.values", "values"),
    (game_file("trix", options={"doubling": "yes"}), "options.doubling", "true or false"),
    ({**game_file(), "deals": {"1": WORKED_TRIGAMI_DEAL}}, "deals", "deals must be a list"),
    ({**game_file(), "deals": "none"}, "deals", "deals must be a list"),
])
def test_a_file_of_the_wrong_shape_is_a_format_error(data, field, words):
    with pytest.raises(FormatError) as caught:
        load(data)
    assert caught.value.field == field
    assert caught.value.deal is None  # a problem outside any deal
    assert words in str(caught.value)


@pytest.mark.parametrize("text", ["", "not json", "{", "{'format': 1}", "[1, 2,]"])
def test_text_that_is_not_json_is_a_format_error(text):
    with pytest.raises(FormatError, match="not a JSON file"):
        gamefile.loads(text)


def test_a_key_given_twice_is_a_format_error_not_the_last_one_read():
    """Tester 33: ``"first_dealer": 1, "first_dealer": 2`` was read as 2, unsaid (JSON
    readers keep the last); which one the players meant is unknown, so it is refused."""
    text = ('{"format": 1, "game": "trigami", "players": ["Anna", "Ben", "Carla"], '
            '"first_dealer": 1, "first_dealer": 2, "options": {}, "deals": []}')
    with pytest.raises(FormatError, match='it gives "first_dealer" twice in one place'):
        gamefile.loads(text)
    problems = gamefile.find_problems(text)
    assert [str(p) for p in problems] == [
        'it gives "first_dealer" twice in one place, so which one counts is unclear; keep one']
    deal_twice = text.replace('"deals": []', '"deals": [{"bids": [], "tricks": [13, 0, 0], "tricks": [0, 13, 0]}]')
    with pytest.raises(FormatError, match='it gives "tricks" twice'):
        gamefile.loads(deal_twice)


def test_deeply_nested_json_is_a_format_error_not_a_crash():
    with pytest.raises(FormatError, match="not a JSON file"):
        gamefile.loads("[" * 100_000)


@pytest.mark.parametrize(("value", "shown"), [(4.0, "4.0"), (True, "true"), ("4", "\"4\"")])  # as the file spells them
def test_a_count_must_be_a_json_integer(value, shown):
    # SCORING.md §1.3: counts are whole numbers ≥ 0 (not 4.0, not true)
    with pytest.raises(DealError) as caught:
        load(game_file(deals=[plain_deal([value, 5, 4], [1, 1, 1])]))
    assert (caught.value.deal, caught.value.seat, caught.value.field) == (1, 0, "tricks")
    assert shown in str(caught.value)


def test_a_trix_count_must_be_a_json_integer():
    with pytest.raises(DealError) as caught:
        load(game_file("trix", deals=[{"contracts": ["diamonds"], "diamonds": [3, 4.0, 2, 4]}]))
    assert (caught.value.deal, caught.value.field) == (1, "diamonds")


def test_tricks_adding_up_to_12_name_the_deal():
    # GAME-FILE.md's own example: "deal 3: tricks add up to 12, expected 13"
    game = load(game_file(deals=[WORKED_TRIGAMI_DEAL, WORKED_TRIGAMI_DEAL,
                                 plain_deal([4, 4, 4], [1, 1, 1])]))
    with pytest.raises(DealError) as caught:
        game.score()
    assert str(caught.value) == "deal 3: tricks add up to 12, expected 13"
    assert (caught.value.deal, caught.value.field) == (3, "tricks")


def test_bugs_without_tricks_name_the_player():
    # GAME-FILE.md's own example: "deal 5: Ben has 4 bugs but won no tricks"
    deals = [plain_deal([5, 4, 4], [1, 1, 1])] * 4 + [plain_deal([6, 0, 7], [1, 4, 1])]
    with pytest.raises(DealError) as caught:
        load(game_file(deals=deals)).score()
    assert str(caught.value) == "deal 5: Ben has 4 bugs but won no tricks"
    assert (caught.value.deal, caught.value.seat, caught.value.field) == (5, 1, "bugs")


def test_no_deal_after_the_game_is_over():
    # Ben's Doublets: 200, 400, 600 → he passes 500 alone in deal 3; deal 4 is one too many
    game = load(game_file(deals=[WORKED_TRIGAMI_DEAL] * 4))
    with pytest.raises(DealError) as caught:
        game.score()
    assert caught.value.deal == 4
    assert "over" in str(caught.value)


@pytest.mark.parametrize(("deal", "field"), [
    ({**BUGAMI3_DEALS[0], "turnip": "D"}, "turnip"),
    ({**BUGAMI3_DEALS[0], "bids": [{"kind": "turnip"}, *BUGAMI3_DEALS[0]["bids"][1:]]}, "bids"),
    ({**BUGAMI3_DEALS[0], "tricks": [5, 6, 5]}, "tricks"),
])
def test_bugami3_has_no_turnip_no_special_bids_and_17_tricks(deal, field):
    with pytest.raises(DealError) as caught:
        load(game_file("bugami3", deals=[deal])).score()
    assert (caught.value.deal, caught.value.field) == (1, field)


def test_trix_diamonds_must_add_up_to_13():
    game = load(game_file("trix", deals=[{"contracts": ["diamonds"], "diamonds": [3, 4, 2, 3]}]))
    with pytest.raises(DealError, match=r"^deal 1: diamonds add up to 12, expected 13$"):
        game.score()


@pytest.mark.parametrize(("deal", "field"), [
    ({"contracts": ["king"]}, "king"),
    ({"contracts": ["king"], "king": {"taker": 1}, "diamonds": [3, 4, 2, 4]}, "diamonds"),
    ({"contracts": ["hearts"], "hearts": [1, 2, 3, 4]}, "contracts"),
    ({"king": {"taker": 1}}, "contracts"),
])
def test_a_trix_deal_carries_exactly_the_blocks_of_its_contracts(deal, field):
    with pytest.raises(DealError) as caught:
        load(game_file("trix", deals=[deal]))
    assert (caught.value.deal, caught.value.field) == (1, field)


# ------------------------------------------------------ never anything but a RuleError

AWKWARD = [None, True, False, 0, -1, 3, 4, 13, 17, 4.0, 1e300, "", "S", "x", [], {},
           [0, 0, 0], [1, 2, 3, 7], {"taker": 0}, ["king"], 10**30]



def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


@pytest.mark.parametrize(("kind", "deals"), [
    ("trigami", [{**WORKED_TRIGAMI_DEAL, "last_trick": 1}]),
    ("bugami3", BUGAMI3_DEALS),
    ("trix", TRIX_KINGDOM),
])
def test_any_one_awkward_value_is_a_rule_error_or_fine(kind, deals):
    """Every value of a good file replaced, one at a time, by something awkward (or
    removed): parsing and scoring either succeed or raise RuleError, never anything else,
    so the command line can always answer in one line."""
    original = game_file(kind, deals=copy.deepcopy(deals))
    crashes = []
    for path in [p for p in _paths(original) if p]:
        for value in [*AWKWARD, KeyError]:
            data = copy.deepcopy(original)
            parent = data
            for key in path[:-1]:
                parent = parent[key]
            if value is KeyError:
                del parent[path[-1]]
            else:
                parent[path[-1]] = copy.deepcopy(value)
            try:
                game = load(data)
                game.score()
                assert gamefile.loads(gamefile.dumps(game)) == game
            except RuleError:
                pass
            except Exception as exc:
                crashes.append(f"{path} = {value!r}: {type(exc).__name__}: {exc}")
    assert crashes == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 20) | st.sampled_from([4.0, "S", "x", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["kind", "suit", "taker", "contracts", "king", "note"]), inner,
        max_size=4),
    max_leaves=10,
)


@given(st.fixed_dictionaries({}, optional={
    "format": st.sampled_from([1, 2, "1"]) | json_values,
    "game": st.sampled_from(["trigami", "bugami3", "trix"]) | json_values,
    "players": st.lists(st.sampled_from(["Anna", "Ben", "Carla", "Dan", ""]), max_size=5)
    | json_values,
    "first_dealer": st.integers(-1, 4) | json_values,
    "options": st.just({}) | json_values,
    "deals": st.lists(json_values, max_size=3) | json_values,
}))
def test_any_json_object_loads_or_is_a_rule_error(data):
    try:
        game = load(data)
        game.score()
    except RuleError as exc:
        assert str(exc)


# ------------------------------------------------------------------ one game played on


def test_a_game_continues_its_copy_with_fewer_deals_and_a_later_seat_change():
    """gamefile.continues (GAME-FILE.md, "Someone takes over a seat"): the same game
    played on is the same players, settings and first deals; a player who took over
    after the copy's last deal makes no other game, one who took over earlier does."""
    one = plain_deal([6, 0, 7], [2, 0, 3])
    dora = [{"from_deal": 2, "seat": 1, "player": "Dora"}]
    copy_ = game_file(deals=[WORKED_TRIGAMI_DEAL])
    later = {**game_file(deals=[WORKED_TRIGAMI_DEAL, one]), "seat_changes": dora}
    assert gamefile.continues(later, copy_)
    assert not gamefile.continues(copy_, later)  # fewer deals never continue more
    assert not gamefile.continues(later, later)  # nor a game itself
    # the same deals, and Dora taking over from the next deal: that game, a moment later
    assert gamefile.continues({**copy_, "seat_changes": dora}, copy_)
    assert not gamefile.continues(copy_, {**copy_, "seat_changes": dora})
    # the copy knew Dora would take over from the next deal: still the same game
    assert gamefile.continues(later, {**copy_, "seat_changes": [{**dora[0], "player": "dora"}]})
    # ... but not when the copy had someone else take over from there
    assert not gamefile.continues(later, {**copy_, "seat_changes": [{**dora[0], "seat": 2}]})
    # Dora played deal 2 in one and not in the other: two games
    three = {**game_file(deals=[WORKED_TRIGAMI_DEAL, one, one]), "seat_changes": dora}
    assert not gamefile.continues(three, game_file(deals=[WORKED_TRIGAMI_DEAL, one]))
    # another first deal, another target, another first dealer, other players: other games
    assert not gamefile.continues(later, game_file(deals=[one]))
    assert not gamefile.continues(later, {**copy_, "options": {"target": 300}})
    assert not gamefile.continues(later, {**copy_, "first_dealer": 1})
    assert not gamefile.continues(later, {**copy_, "players": ["Anna", "Ben", "Cecilia"]})
    # names in any case are the same players
    assert gamefile.continues(later, {**copy_, "players": ["ANNA", "ben", "Carla"]})


def test_every_problem_of_a_broken_deal_is_listed_for_an_import():
    """Tester 5 (stop 31): a game file whose deal 2 bids Turnip without the turnip's suit
    and has tricks 5, 5, 5 was refused naming the turnip alone; the 15 tricks only after
    it was put right. The import's list names both (SCORING.md §1.3: each check stands
    alone); `scorekeeper score` still says the first (GAME-FILE.md: a message)."""
    bad = {"bids": [{"kind": "turnip"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
           "tricks": [5, 5, 5], "bugs": [1, 0, 3]}
    raw = json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL, bad]))
    found = [(p.deal, p.field, p.message) for p in gamefile.find_problems(raw)]
    assert found == [(2, "turnip", "Anna bid Turnip, so the turnip's suit is needed"),
                     (2, "tricks", "tricks add up to 15, expected 13")]
    with pytest.raises(RuleError) as first:
        gamefile.loads(raw).score()
    assert first.value.deal == 2 and first.value.field == "turnip"


def test_deals_after_a_broken_one_are_said_checked_alone_in_the_words_of_their_game():
    """Tester 6 (LOW): a Trigami file with a broken deal 2 and deals after it was told the
    later deals were not checked against "a kingdom", which only Trix has (SCORING.md
    §2.1); a Trigami deal is checked against the deals before it for the end of the game
    alone (§1.3, "no deal after the game is over"). A Trix file still names its kingdom."""
    broken = {**WORKED_TRIGAMI_DEAL, "tricks": [5, 5, 5]}
    trigami = json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL, broken, WORKED_TRIGAMI_DEAL]))
    said = [p.message for p in gamefile.find_problems(trigami) if p.deal is None]
    assert said == ["the deals after deal 2 were each checked on their own, not against the deals before "
                    "them (the end of the game): put deal 2 right and check again"]
    diamonds = {"contracts": ["diamonds"], "diamonds": [3, 4, 2, 5]}  # 14 diamonds of 13
    trix = json.dumps(game_file("trix", deals=[TRIX_KINGDOM[0], diamonds, *TRIX_KINGDOM[1:2], *TRIX_KINGDOM[3:]]))
    said = [p.message for p in gamefile.find_problems(trix) if p.deal is None]
    assert said == ["the deals after deal 2 were each checked on their own, not against the deals before "
                    "them (a kingdom, the end of the game): put deal 2 right and check again"]


def test_a_deal_that_cannot_be_read_leaves_the_kingdoms_after_it_as_they_were():
    """Tester 8 (MEDIUM): a Trix file whose deal 3, the King of Hearts of the first
    kingdom, names a taker 7 (no such seat) was told that as well as "Deal 6: Trix has
    already been played in Anna's kingdom": deal 3 left out, deal 6, the Trix opening the
    second kingdom, was counted into the first (SCORING.md §2: five contracts a kingdom,
    each once). The deal that cannot be read is named alone; the deals after it are each
    checked on their own, and said so, as after a deal that breaks a rule."""
    wrong_king = {"contracts": ["king"], "king": {"taker": 7}}
    k = TRIX_KINGDOM  # king, queens, diamonds, tricks, trix
    deals = [k[1], k[2], wrong_king, k[3], k[4], k[4], k[0]]
    found = [(p.deal, p.message) for p in gamefile.find_problems(json.dumps(game_file("trix", deals=deals)))]
    assert found == [(3, "king.taker must be between 0 and 3, not 7"),
                     (None, "the deals after deal 3 were each checked on their own, not against the deals before "
                            "them (a kingdom, the end of the game): put deal 3 right and check again")]
    # a later deal's own mistake is still found (14 diamonds of 13)
    deals[5] = {"contracts": ["diamonds"], "diamonds": [3, 4, 2, 5]}
    found = [p.deal for p in gamefile.find_problems(json.dumps(game_file("trix", deals=deals)))]
    assert found == [3, 6, None]
    # … and a rule broken before the deal that cannot be read is named as before
    deals = [k[0], k[0], wrong_king, k[3]]
    found = [(p.deal, p.message) for p in gamefile.find_problems(json.dumps(game_file("trix", deals=deals)))]
    assert found[:2] == [(2, "King of Hearts has already been played in Anna's kingdom"),
                         (3, "king.taker must be between 0 and 3, not 7")]


@pytest.mark.parametrize(("names", "said"), [
    (["Anna\u2066", "Ben\u2069", "Carla"], [(0, "player 1's name has invisible control characters"),
                                           (1, "player 2's name has invisible control characters")]),
    (["Anna", "\u200b", ""], [(1, "player 2 has no name"), (2, "player 3 has no name")]),
    (["Anna", "ANNA", "x" * 41], [(1, "ANNA is named twice"), (2, "player 3's name is longer than 40 characters")]),
])
def test_every_bad_name_of_a_game_is_listed_for_an_import(names, said):
    """Tester 6 (LOW): an import named the first bad name of a game alone, so a file with
    two was refused twice over. Every name's problem is listed at once; `scorekeeper
    score` still says the first (GAME-FILE.md: a message)."""
    raw = json.dumps({**game_file(deals=[WORKED_TRIGAMI_DEAL]), "players": names})
    found = [(p.seat, p.message) for p in gamefile.find_problems(raw) if p.field == "players"]
    assert found == said
    with pytest.raises(FormatError) as first:
        gamefile.loads(raw)
    assert (first.value.seat, first.value.message) == said[0]
