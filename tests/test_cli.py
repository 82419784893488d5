"""The ``scorekeeper`` command: score, import, export, init-db (GAME-FILE.md, README.md).

``score`` prints one JSON object on success and, on a bad file, nothing on standard
output and one line on standard error.  Expected points are worked by hand from
SCORING.md (the working is in the comments).  Seats: Anna 0, Ben 1, Carla 2 (Dan 3).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from scorekeeper import create_app, store
from scorekeeper.cli import main
from scorekeeper.db import connect
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.run_support import made_once, run_folder
from tests.test_gamefile import BUGAMI3_DEALS, TRIX_KINGDOM, TRIX_KINGDOM_POINTS, plain_deal

PAGE = re.compile(r"^/games/[A-Za-z0-9_-]+$")


@pytest.fixture
def invoke(app):
    """Run ``scorekeeper ARGS`` in-process on the app fixture's database (so the client
    fixture sees what it stores): invoke(*args, input=None, database=None) → Result."""

    def run(*args: str, input: str | bytes | None = None, database: Path | None = None) -> Result:
        env = {"SCOREKEEPER_DATABASE": str(database or app.config["DATABASE"]),
               "SCOREKEEPER_SECRET_KEY": "test"}
        return CliRunner(env=env).invoke(main, list(args), input=input)

    return run


@pytest.fixture
def write(tmp_path):
    """write(data, name="game.json") → the path of a file holding ``data`` as JSON (bytes
    and str are written as they are)."""

    def put(data: Any, name: str = "game.json") -> str:
        path = tmp_path / name
        if isinstance(data, bytes):
            path.write_bytes(data)
        elif isinstance(data, str):
            path.write_text(data, encoding="utf-8")
        else:
            path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return str(path)

    return put


def scored(result: Result) -> dict[str, Any]:
    """The one JSON object a successful ``score`` prints, on one line, with nothing on
    standard error."""
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.endswith("\n") and result.stdout.count("\n") == 1
    out = json.loads(result.stdout)
    assert isinstance(out, dict)
    return out


def assert_refused(result: Result, *words: str) -> None:
    """Non-zero exit, nothing on standard output, one line on standard error naming each
    of ``words``, and no traceback."""
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit), result.exception  # not a crash
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("scorekeeper: ")
    for word in words:
        assert word in lines[0]


# --------------------------------------------------------------------------- score: good


def test_score_prints_the_worked_trigami_example(invoke, write):
    # SCORING.md §1.2: turnip D; Anna Turnip 4 tricks 1 bug → 40 ÷ 1 = 40, doubled 80; Ben
    # Doublets ♠ 5 tricks no spade → 5 × 40 = 200; Carla hearts 4 tricks 3 hearts → 13.
    out = scored(invoke("score", write(game_file(deals=[WORKED_TRIGAMI_DEAL]))))
    assert out["deals"][0]["points"] == [80, 200, 13]
    assert out["deals"][0]["totals"] == [80, 200, 13]
    assert out["totals"] == [80, 200, 13]
    assert out["finished"] is False
    assert out["winners"] == []
    assert "team_totals" not in out


def test_score_reads_standard_input_for_dash(invoke):
    text = json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL]))
    out = scored(invoke("score", "-", input=text))
    assert out["totals"] == [80, 200, 13]


def test_trigami_game_ends_when_ben_passes_500_alone(invoke, write):
    # The worked deal three times: Ben 200, 400, 600; Anna 80, 160, 240; Carla 13, 26, 39.
    out = scored(invoke("score", write(game_file(deals=[WORKED_TRIGAMI_DEAL] * 3))))
    assert [d["points"] for d in out["deals"]] == [[80, 200, 13]] * 3
    assert [d["totals"] for d in out["deals"]] == [[80, 200, 13], [160, 400, 26],
                                                   [240, 600, 39]]
    assert out["totals"] == [240, 600, 39]
    assert out["finished"] is True
    assert out["winners"] == [1]


def test_reaching_the_target_exactly_wins(invoke, write):
    # SCORING.md §1.4: "reach" means the target or more; Ben's 200 reaches a target of 200.
    out = scored(invoke("score", write(game_file(options={"target": 200},
                                                 deals=[WORKED_TRIGAMI_DEAL]))))
    assert out["finished"] is True
    assert out["winners"] == [1]


def test_score_a_bugami3_file(invoke, write):
    # Deal 1: 50 ÷ 2 = 25, 60 ÷ 3 = 20, 60 ÷ 4 = 15; deal 2: no tricks 50, 8 clean tricks
    # 160, 90 ÷ 5 = 18 (fraction dropped).
    out = scored(invoke("score", write(game_file("bugami3", first_dealer=2,
                                                 deals=BUGAMI3_DEALS))))
    assert [d["points"] for d in out["deals"]] == [[25, 20, 15], [50, 160, 18]]
    assert [d["totals"] for d in out["deals"]] == [[25, 20, 15], [75, 180, 33]]
    assert out["totals"] == [75, 180, 33]
    assert (out["finished"], out["winners"]) == (False, [])


def test_score_a_full_trix_kingdom(invoke, write):
    out = scored(invoke("score", write(game_file("trix", deals=TRIX_KINGDOM))))
    assert [d["points"] for d in out["deals"]] == TRIX_KINGDOM_POINTS
    assert [d["totals"] for d in out["deals"]] == [
        [0, 75, -150, 0], [-25, 100, -175, -75], [-55, 60, -195, -115],
        [-100, 15, -255, -160], [50, 65, -55, -60]]
    assert out["totals"] == [50, 65, -55, -60]
    assert sum(out["totals"]) == 0  # SCORING.md §2.1: a completed kingdom sums to 0
    assert (out["finished"], out["winners"]) == (False, [])
    assert "team_totals" not in out


@pytest.mark.parametrize(("ben_doubles", "points"), [
    # SCORING.md §2.2 worked example: Dan takes two queens, Anna and Carla one each
    (False, [-25, 0, -25, -50]),
    # … and had Ben doubled his Q♠ and Dan taken it: Dan −75, Ben +25
    (True, [-25, 25, -25, -75]),
])
def test_queens_worked_example_with_and_without_a_double(invoke, write, ben_doubles, points):
    spade = {"taker": 3, "doubled_by": 1} if ben_doubles else {"taker": 3}
    deal = {"contracts": ["queens"],
            "queens": {"S": spade, "H": {"taker": 0}, "D": {"taker": 2}, "C": {"taker": 3}}}
    out = scored(invoke("score", write(game_file("trix", deals=[deal]))))
    assert out["deals"][0]["points"] == points
    assert sum(points) == -100  # doubling keeps the contract's total (§2.2)


@pytest.mark.parametrize(("partnership", "winners"), [
    # Four times the kingdom above: Anna 200, Ben 260, Carla −220, Dan −240.
    (None, [1]),                 # the highest total: Ben
    ("sum", [1, 3]),             # teams: Anna + Carla −20, Ben + Dan +20
    ("worst-loses", [0, 2]),     # the worst total, Dan's −240, sinks Ben and Dan
])
def test_a_whole_trix_game_names_its_winners(invoke, write, partnership, winners):
    data = game_file("trix", options={"partnership": partnership}, deals=TRIX_KINGDOM * 4)
    out = scored(invoke("score", write(data)))
    assert len(out["deals"]) == 20
    assert out["totals"] == [200, 260, -220, -240]
    assert out["finished"] is True
    assert out["winners"] == winners
    if partnership is None:
        assert "team_totals" not in out
    else:
        assert out["team_totals"] == [-20, 20]


def test_partnership_game_in_progress_shows_team_totals(invoke, write):
    # After one kingdom: seats 0+2 = 50 − 55 = −5, seats 1+3 = 65 − 60 = 5
    data = game_file("trix", options={"partnership": "sum"}, deals=TRIX_KINGDOM)
    out = scored(invoke("score", write(data)))
    assert out["team_totals"] == [-5, 5]
    assert out["winners"] == []


def test_unknown_keys_at_the_top_and_in_a_trigami_deal_are_ignored(invoke, write):
    data = game_file(deals=[{**WORKED_TRIGAMI_DEAL, "note": "Ben kept his spades"}])
    data["comment"] = "Friday at the pub"
    out = scored(invoke("score", write(data)))
    assert out["totals"] == [80, 200, 13]


def test_a_game_file_with_a_key_of_a_night_file_is_scored_as_a_game_file(invoke, write):
    """GAME-FILE.md: "Keys the format does not define are ignored". A game file with a
    "rounds" key of its own (tester 56) was refused as a night file."""
    data = {**game_file(deals=[WORKED_TRIGAMI_DEAL]), "rounds": 3}
    out = scored(invoke("score", write(data)))
    assert out["totals"] == [80, 200, 13]


# ---------------------------------------------------------------------------- score: bad


def _without(key: str) -> dict[str, Any]:
    data = game_file()
    del data[key]
    return data


BAD_FILES = {
    "not JSON": (b"scores: 80 200 13", ["not a JSON file"]),
    # JSON has no NaN or Infinity (RFC 8259), though Python's json reads them (tester 56)
    "NaN": (json.dumps({**game_file(), "comment": float("nan")}).encode(), ["not a JSON file"]),
    "Infinity": (json.dumps({**game_file(), "first_dealer": float("-inf")}).encode(), ["not a JSON file"]),
    "a JSON array": ([game_file()], ["JSON object"]),
    "missing key": (_without("deals"), ["missing key 'deals'"]),
    "format 2": ({**game_file(), "format": 2}, ["format must be 1"]),
    "unknown game": ({**game_file(), "game": "bridge"}, ["unknown game 'bridge'"]),
    "unknown option": (game_file(options={"target": 500, "jokers": True}), ["jokers"]),
    "unknown Trix option": (game_file("trix", options={"target": 500}), ["target"]),
    "two players": (game_file(players=["Anna", "Ben"]), ["players", "3"]),
    "three at Trix": (game_file("trix", players=["Anna", "Ben", "Carla"]), ["players", "4"]),
    "first_dealer 3": (game_file(first_dealer=3), ["first_dealer", "3"]),
    "tricks add up to 12": (
        game_file(deals=[WORKED_TRIGAMI_DEAL, plain_deal([4, 4, 4], [1, 1, 1])]),
        ["deal 2: tricks add up to 12, expected 13"]),
    "bugs without tricks": (
        game_file(deals=[plain_deal([6, 0, 7], [1, 4, 1])]),
        ["deal 1: Ben has 4 bugs but won no tricks"]),
    "more bugs than cards": (
        # Carla's 2 tricks hold 6 cards (7 with the turnip), not 9 hearts
        game_file(deals=[plain_deal([6, 5, 2], [1, 1, 9])]), ["deal 1", "Carla", "9 bugs"]),
    "a count of 4.0": (game_file(deals=[plain_deal([4.0, 5, 4], [1, 1, 1])]),
                       ["deal 1", "tricks", "4.0"]),
    "a count of true": (game_file(deals=[plain_deal([4, 5, 4], [1, True, 1])]),
                        ["deal 1", "bugs", "true"]),  # spelled as in the JSON file
    "a deal after the end": (game_file(deals=[WORKED_TRIGAMI_DEAL] * 4), ["deal 4", "over"]),
    "bugami3 turnip": (game_file("bugami3", deals=[{**BUGAMI3_DEALS[0], "turnip": "S"}]),
                       ["deal 1", "turnip"]),
    "Trix diamonds 12": (game_file("trix", deals=[{"contracts": ["diamonds"],
                                                   "diamonds": [3, 4, 2, 3]}]),
                         ["deal 1: diamonds add up to 12, expected 13"]),
    "Trix contract twice in a kingdom": (
        game_file("trix", deals=[TRIX_KINGDOM[2], TRIX_KINGDOM[2]]),
        ["deal 2", "Diamonds", "Anna"]),
    "unknown key in a Trix block": (
        game_file("trix", deals=[{"contracts": ["king"], "king": {"taker": 1, "by": 2}}]),
        ["deal 1", "'by'"]),
    "unknown key in a queen": (
        game_file("trix", deals=[{"contracts": ["queens"],
                                  "queens": {"S": {"taker": 3, "note": "x"}, "H": {"taker": 0},
                                             "D": {"taker": 2}, "C": {"taker": 3}}}]),
        ["deal 1", "'note'"]),
    "doubled without doubling": (
        game_file("trix", options={"doubling": False}, deals=TRIX_KINGDOM[:1]),
        ["deal 1", "Ben", "without doubling"]),
    "a deal that is null": (game_file(deals=[None]), ["deal 1: a deal must be an object, not null"]),  # as in the file
    "names that are numbers": (game_file(players=[1, 2, 3]), ["player 1's name must be text in quotes, not 1"]),
    "a seat change with no deals": ({**game_file(), "seat_changes": [{"from_deal": 2, "seat": 0, "player": "Dora"}]},
                                    ["seat change 1: a game with no deals has no seat changes"]),
    "not UTF-8": (b'{"format": 1, "game": "trigami", "players": ["Jos\xe9", "Ben", "Carla"], '
                  b'"first_dealer": 0, "options": {}, "deals": []}', ["not a UTF-8"]),
}


@pytest.mark.parametrize(("data", "words"), BAD_FILES.values(), ids=BAD_FILES.keys())
def test_score_refuses_a_bad_file_in_one_line(invoke, write, data, words):
    assert_refused(invoke("score", write(data)), *words)


def test_score_names_the_first_deal_with_a_problem_as_the_import_page_does(invoke, write):
    """Tester 14: a plain Bugami for three file (17 tricks a deal) relabelled Trigami (13).
    Deal 1's tricks add up to 17; deal 2 gives one player 17 tricks, which no Trigami deal
    can, found when the file is read: the command named deal 2 alone, the import page deal
    1 first. Whoever puts the file right starts at deal 1 now."""
    deals = [{"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [5, 6, 6], "bugs": [2, 3, 4]},
             {"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [0, 0, 17], "bugs": [0, 0, 5]}]
    result = invoke("score", write(game_file(deals=deals)))
    assert_refused(result, "deal 1: tricks add up to 17, expected 13")
    assert "deal 2" not in result.stderr


def test_score_of_a_missing_file_says_so(invoke, tmp_path):
    missing = str(tmp_path / "nowhere.json")
    assert_refused(invoke("score", missing), "cannot read", missing)


def test_score_of_a_folder_says_so(invoke, tmp_path):
    assert_refused(invoke("score", str(tmp_path)), "cannot read")


def test_score_refuses_non_utf8_standard_input(invoke):
    data = b'{"format": 1, "game": "trigami", "players": ["Jos\xe9", "Ben", "Carla"]}'
    assert_refused(invoke("score", "-", input=data), "standard input", "UTF-8")


def test_trix_card_with_null_taker_is_one_line_not_a_traceback(invoke, write):
    deal = {"contracts": ["king"], "king": {"taker": None}}
    result = invoke("score", write(game_file("trix", deals=[deal])))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert_refused(result, "deal 1", "taker")


@pytest.mark.parametrize("data", [
    game_file(deals=[plain_deal([4.0, 5, 4], [1, 1, 1])]),
    game_file("trix", deals=[{"contracts": ["diamonds"], "diamonds": [3.0, 4, 2, 4]}]),
], ids=["trigami", "trix"])
def test_a_bad_count_names_the_player(invoke, write, data):
    assert_refused(invoke("score", write(data)), "deal 1", "Anna")


# ------------------------------------------------------------------- import and export


def test_import_stores_the_game_and_prints_its_page_last(invoke, write, client):
    result = invoke("import", write(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    assert result.exit_code == 0, result.stderr
    page = result.stdout.splitlines()[-1]
    assert PAGE.match(page), result.stdout
    response = client.get(page)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for name in ("Anna", "Ben", "Carla"):
        assert name in html


def test_imported_game_is_seen_by_a_fresh_app_on_the_same_database(invoke, write, tmp_path):
    database = tmp_path / "other.sqlite3"
    result = invoke("import", write(game_file("trix", players=["Zoë", "Ben", "Carla", "Dan"],
                                              deals=TRIX_KINGDOM)), database=database)
    assert result.exit_code == 0, result.stderr
    page = result.stdout.splitlines()[-1]
    fresh = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(database)})
    response = fresh.test_client().get(page)
    assert response.status_code == 200
    assert "Zoë" in response.get_data(as_text=True)


def test_import_from_standard_input(invoke, db):
    result = invoke("import", "-", input=json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    assert result.exit_code == 0, result.stderr
    game_id = result.stdout.splitlines()[-1].rsplit("/", 1)[1]
    assert store.get_game(db, game_id).players == ("Anna", "Ben", "Carla")


def test_import_of_a_bad_file_stores_nothing(invoke, write, db):
    data = game_file(deals=[WORKED_TRIGAMI_DEAL, plain_deal([4, 4, 4], [1, 1, 1])])
    assert_refused(invoke("import", write(data)), "deal 2", "tricks add up to 12")
    assert store.list_games(db) == []


def _import(invoke, write, data: Any, name: str = "game.json") -> str:
    result = invoke("import", write(data, name))
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()[-1]


def test_export_by_id_or_by_page_prints_the_normalised_game_file(invoke, write):
    original = game_file(first_dealer=1, deals=[
        {"bids": [{"kind": "turnip"}, {"suit": "S", "kind": "doublets"},
                  {"kind": "plain", "suit": "H"}],
         "tricks": [4, 5, 4], "bugs": [1, 0, 3], "turnip": "D", "note": "ignored"}])
    original["comment"] = "ignored too"
    page = _import(invoke, write, original)
    game_id = page.rsplit("/", 1)[1]
    exports = [invoke("export", ref) for ref in (game_id, page, page + "/")]
    for result in exports:
        assert result.exit_code == 0, result.stderr
        assert result.stderr == ""
    assert exports[0].stdout == exports[1].stdout == exports[2].stdout
    # GAME-FILE.md with every option spelt out, unknown keys gone, keys in the format's order
    assert json.loads(exports[0].stdout) == {
        "format": 1, "game": "trigami", "players": ["Anna", "Ben", "Carla"],
        "first_dealer": 1, "options": {"target": 500},
        "deals": [{"turnip": "D",
                   "bids": [{"kind": "turnip"}, {"kind": "doublets", "suit": "S"},
                            {"kind": "plain", "suit": "H"}],
                   "tricks": [4, 5, 4], "bugs": [1, 0, 3]}],
    }


@pytest.mark.parametrize("data", [
    game_file(players=["Anna", "Ben", "Carla"], options={"target": 300},
              deals=[{**WORKED_TRIGAMI_DEAL, "last_trick": 1, "note": "x"},
                     plain_deal([6, 0, 7], [2, 0, 3])]),
    game_file("bugami3", first_dealer=2, deals=BUGAMI3_DEALS),
    game_file("trix", players=["Anna", "Björn", "Carla", "Dan"],
              options={"partnership": "worst-loses", "values": "swapped"},
              deals=TRIX_KINGDOM),
], ids=["trigami", "bugami3", "trix"])
def test_export_import_export_gives_the_identical_file(invoke, write, data):
    first = invoke("export", _import(invoke, write, data, "original.json"))
    assert first.exit_code == 0, first.stderr
    second = invoke("export", _import(invoke, write, first.stdout, "exported.json"))
    assert second.exit_code == 0, second.stderr
    assert second.stdout == first.stdout
    # … and the exported file scores like the original
    assert (scored(invoke("score", write(first.stdout, "again.json")))
            == scored(invoke("score", write(data, "original.json"))))


def test_export_of_an_unknown_game_fails_with_a_message(invoke):
    result = invoke("export", "/games/no-such-game")
    assert_refused(result, "no game", "no-such-game")


@pytest.mark.parametrize(("args", "words"), [
    (("backup", "{folder}"), ("Invalid value for 'FILE'", "is a directory", "scorekeeper backup --help")),
    (("frobnicate",), ("No such command 'frobnicate'", "scorekeeper --help")),
    (("import",), ("Missing argument 'FILE'", "scorekeeper import --help")),
], ids=["a folder to back up into", "no such command", "nothing to import"])
def test_an_argument_a_command_cannot_take_is_said_in_one_line(invoke, tmp_path, args, words):
    """Tester 21 (LOW): `scorekeeper backup FOLDER` printed click's three lines of usage
    where every other refusal is one line; the status stays click's 2."""
    result = invoke(*(a.format(folder=tmp_path) for a in args))
    assert result.exit_code == 2
    assert_refused(result, *words)


# ------------------------------------------------------------------------------ init-db


def test_init_db_creates_the_database_and_may_run_twice(invoke, tmp_path):
    database = tmp_path / "fresh" / "scores.sqlite3"
    assert not database.exists()
    for _time in range(2):
        result = invoke("init-db", database=database)
        assert result.exit_code == 0, result.stderr
        assert str(database) in result.stdout
    assert database.is_file()
    with sqlite3.connect(database) as conn:
        tables = {row[0] for row in conn.execute("select name from sqlite_master where type='table'")}
    assert {"games", "players", "game_players", "deals"} <= tables


# ------------------------------------------------------------- the installed command


def test_installed_console_script_keeps_stdout_and_stderr_apart(tmp_path):
    """The real ``scorekeeper`` next to this Python: JSON alone on stdout and exit 0 for a
    good file; nothing on stdout, one line on stderr and exit 1 for a bad one."""
    script = Path(sys.executable).with_name("scorekeeper")
    if not script.exists():
        pytest.skip(f"no console script at {script}: install the package (make test)")
    env = {**os.environ, "SCOREKEEPER_DATABASE": str(tmp_path / "cli.sqlite3"),
           "SCOREKEEPER_SECRET_KEY": "test"}

    def run(*args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([str(script), *args], input=data, capture_output=True,
                              env=env, cwd=tmp_path, timeout=60, check=False)

    good = tmp_path / "good.json"
    good.write_text(json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL])), encoding="utf-8")
    done = run("score", str(good))
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.count(b"\n") == 1
    assert json.loads(done.stdout)["deals"][0]["points"] == [80, 200, 13]

    # a locale of Latin-1 (tester 56: a traceback for the ♦ of the explanations): the JSON
    # in UTF-8 all the same, as JSON is
    latin = subprocess.run([str(script), "score", str(good)], capture_output=True, cwd=tmp_path, timeout=60,
                           env={**env, "PYTHONIOENCODING": "latin-1"}, check=False)
    assert (latin.returncode, latin.stderr) == (0, b"")
    assert json.loads(latin.stdout.decode("utf-8")) == json.loads(done.stdout)
    # a full disk under "> file": one line, not a traceback
    if Path("/dev/full").exists():
        with open("/dev/full", "wb") as full:
            unwritten = subprocess.run([str(script), "score", str(good)], stdout=full, stderr=subprocess.PIPE,
                                       cwd=tmp_path, env=env, timeout=60, check=False)
        assert unwritten.returncode == 1
        assert unwritten.stderr.startswith(b"scorekeeper: the result could not be written") and b"Traceback" not in \
            unwritten.stderr, unwritten.stderr

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(game_file(deals=[plain_deal([4, 4, 4], [1, 1, 1])])),
                   encoding="utf-8")
    done = run("score", str(bad))
    assert done.returncode == 1
    assert done.stdout == b""
    assert done.stderr == b"scorekeeper: deal 1: tricks add up to 12, expected 13\n"

    # Latin-1 on standard input is refused like a Latin-1 file, whatever the locale
    done = run("score", "-", data=b'{"players": ["Jos\xe9"]}')
    assert done.returncode == 1
    assert done.stdout == b""
    assert done.stderr == b"scorekeeper: standard input is not UTF-8 text\n"


def test_a_disk_with_room_for_part_of_a_file_is_said_never_a_file_cut_short(tmp_path):
    """Tester 66: with room on the disk for part of the output (``export --group > file``,
    "move a group" in the README), the file was cut short and the command exited 0 with
    nothing said: a copy kept that json.load refuses; ``score > file`` the same. On a
    small disk (a tmpfs, tests/disk_support.py) with one page of room left, 4 KB, each
    command that writes a file larger than that exits 1 with one line. (Where mounting
    is not permitted, the process's file size limit stands in for the room; the commands
    that read the database then cannot open it, so only ``score`` is checked there.)"""
    import errno
    import resource

    from tests.disk_support import small_disk

    script = Path(sys.executable).with_name("scorekeeper")
    if not script.exists():
        pytest.skip(f"no console script at {script}: install the package (make test)")
    env = {**os.environ, "SCOREKEEPER_DATABASE": str(tmp_path / "cli.sqlite3"), "SCOREKEEPER_SECRET_KEY": "5e" * 32}
    thirty = tmp_path / "thirty.json"
    thirty.write_text(json.dumps(game_file(deals=[plain_deal([4, 4, 5], [3, 3, 3])] * 30)), encoding="utf-8")
    assert subprocess.run([str(script), "import", str(thirty)], env=env, cwd=tmp_path, capture_output=True,
                          timeout=60, check=False).returncode == 0
    db = connect(str(tmp_path / "cli.sqlite3"))
    try:
        game_id = store.list_games(db)[0].id
    finally:
        db.conn.close()
    commands = [(["score", str(thirty)], "the result"), (["export", game_id], "the game file"),
                (["export", "--group", "1"], "the group file")]
    with small_disk(tmp_path / "small") as disk:
        limit = None
        if disk.how == "tmpfs":
            filler = tmp_path / "small" / "filler"
            fill = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                while True:
                    os.write(fill, b"\0" * 4096)
            except OSError as full:
                assert full.errno == errno.ENOSPC
            finally:
                os.close(fill)
            os.truncate(filler, filler.stat().st_size // 4096 * 4096 - 4096)  # one page of room
        else:
            commands, limit = commands[:1], 4096

        def limited() -> None:
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        for args, what in commands:
            whole = subprocess.run([str(script), *args], env=env, cwd=tmp_path, capture_output=True, timeout=60,
                                   check=False)
            assert whole.returncode == 0 and len(whole.stdout) > 8192, args  # more than the room left
            out = tmp_path / "small" / "out.json"
            with out.open("wb") as kept:
                cut = subprocess.run([str(script), *args], env=env, cwd=tmp_path, stdout=kept,
                                     stderr=subprocess.PIPE, timeout=60, check=False, preexec_fn=limited)
            assert cut.returncode == 1, (args, cut.stderr)
            assert cut.stderr.decode().startswith(f"scorekeeper: {what} could not be written: "), cut.stderr
            assert cut.stderr.count(b"\n") == 1 and b"Traceback" not in cut.stderr
            out.unlink()


# ------------------------------------------------------------------------------ the wheel

NO_NETWORK = ("Could not find a version that satisfies", "No matching distribution found",
              "Failed to establish a new connection", "Temporary failure in name resolution",
              "Network is unreachable", "ConnectTimeout", "ReadTimeout")


@pytest.mark.parametrize("workers", ["1", "2"])  # waitress, gunicorn
def test_serve_on_a_port_in_use_says_so_in_one_line_before_claiming_to_serve(invoke, monkeypatch, workers):
    """Another server (or Scorekeeper started twice) listens on the port already: one
    line naming the port and what to do, no traceback, and no "Scorekeeper on …" first."""
    import socket

    import waitress

    monkeypatch.setenv("SCOREKEEPER_WORKERS", workers)
    monkeypatch.setattr(waitress, "serve", lambda *a, **k: pytest.fail("served on a port in use"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = invoke("serve", "--host", "127.0.0.1", "--port", str(port), "--workers", workers)
    assert_refused(result, f"port {port} is in use already", f"--port {port + 1}")
    assert "Scorekeeper on" not in result.output


def _build_wheel(out: Path) -> None:
    project = Path(__file__).resolve().parents[1]
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(out), str(project)],
        capture_output=True, text=True, timeout=600, check=False)
    if build.returncode != 0:
        output = build.stdout + build.stderr
        if any(sign in output for sign in NO_NETWORK):
            pytest.skip("cannot build the wheel: pip found no build backend (hatchling) "
                        "without network access")
        pytest.fail(f"pip wheel failed:\n{output}")


# Built once for the whole run (tests/run_support.py): as a module-scoped fixture it was
# built again by each worker that ran one of the tests below
@pytest.fixture(scope="session")
def wheel(tmp_path_factory, worker_id) -> Path:
    """The app's wheel, built once for the tests below from this checkout (pip wheel: the
    build backend is fetched like any build's; skipped without network)."""
    out = made_once(run_folder(tmp_path_factory, worker_id), "wheel", _build_wheel)
    wheels = list(out.glob("scorekeeper-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.mark.slow
def test_wheel_carries_templates_and_static(wheel):
    """A non-editable install needs templates/ and static/ inside the package
    (STYLE.md, habit 1: hatchling's force-include)."""
    project = Path(__file__).resolve().parents[1]
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        scripts = archive.read(entry_points).decode()
    assert "scorekeeper/templates/base.html" in names
    assert "scorekeeper/static/app.css" in names
    # the rule texts an explanation quotes: read from the package, never from ../shared
    for text in ("SCORING.md", "trigami.en.txt", "trigami.de.txt", "trigami.fi.txt", "trix.de.txt"):
        assert f"scorekeeper/rules/texts/{text}" in names
    assert "scorekeeper = scorekeeper.cli:main" in scripts
    # every translation catalogue compiled by the build (hatch_build.py), none to compile by hand
    for po in project.glob("scorekeeper/translations/*/LC_MESSAGES/messages.po"):
        assert str(po.with_suffix(".mo").relative_to(project)) in names


#: Run by the fresh virtual environment's Python: an app on a new instance folder
#: (argv[1]) answers a phone that asks for German; prints what it answered, as JSON
ASK_IN_GERMAN = """
import json, sys
import scorekeeper
from scorekeeper import create_app
app = create_app(instance_path=sys.argv[1])
answer = app.test_client().get("/", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"},
                               follow_redirects=True)
print(json.dumps({"package": scorekeeper.__file__, "templates": app.template_folder,
                  "status": answer.status_code, "language": answer.headers.get("Content-Language"),
                  "page": answer.get_data(as_text=True)}))
"""


@pytest.mark.slow
def test_the_installed_wheel_in_a_fresh_virtual_environment_serves_german(wheel, tmp_path):
    """Issue 10: the wheel installed alone (no checkout, no editable install) answers in
    German: its compiled catalogues (hatch_build.py; the .mo files are not committed) are
    in it. The wheel is installed without its dependencies, which the fresh environment
    reads from this one's site-packages, after its own: nothing is downloaded."""
    import sysconfig
    import venv

    from babel.messages.pofile import read_po

    home = tmp_path / "venv"
    # without a pip of its own (ensurepip: seconds for a copy of pip never used again);
    # this environment's pip installs into it (pip --python)
    venv.create(home, with_pip=False)
    python = home / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                              "--no-index", "--quiet", str(wheel)],
                             capture_output=True, text=True, timeout=300, check=False)
    assert install.returncode == 0, install.stdout + install.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    # a .pth file's paths come after the environment's own site-packages, and their own
    # .pth files (this environment's editable install of the checkout) are not read
    Path(site, "dependencies.pth").write_text("".join(f"{path}\n" for path in ours))
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("PYTHON", "SCOREKEEPER_", "VIRTUAL_ENV"))}
    run = subprocess.run([str(python), "-c", ASK_IN_GERMAN, str(tmp_path / "instance")], cwd=tmp_path,
                         env=environment, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)

    # the wheel's app, not the checkout's
    assert Path(answer["package"]).is_relative_to(home), answer["package"]
    assert Path(answer["templates"]).is_relative_to(home), answer["templates"]
    # in German: the welcome page's words from the German catalogue, none of the English
    project = Path(__file__).resolve().parents[1]
    with (project / "scorekeeper/translations/de/LC_MESSAGES/messages.po").open("rb") as po:
        german = read_po(po, locale="de")
    page = answer["page"]
    assert answer["status"] == 200 and answer["language"] == "de"
    assert '<html lang="de"' in page
    for english in ("Keep score at the card table", "Join your group", "Start a new group"):
        translated = german.get(english).string
        assert translated and translated != english
        assert translated in page and english not in page, english


def test_a_file_saved_with_a_byte_order_mark_is_read(invoke, write, tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL])).encode())
    result = invoke("score", str(path))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["totals"] == [80, 200, 13]


def test_importing_the_same_game_again_stores_it_once_unless_copied(invoke, write, db):
    data = game_file(deals=[WORKED_TRIGAMI_DEAL])
    first = _import(invoke, write, data)
    again = invoke("import", write(data))
    assert again.exit_code == 0 and "already stored" in again.stderr
    assert again.stdout.strip().splitlines()[-1] == first  # the stored game's page
    assert db["games"].count == 1
    copied = invoke("import", "--copy", write(data))
    assert copied.exit_code == 0 and copied.stdout.strip().splitlines()[-1] != first
    assert db["games"].count == 2


def test_python_dash_m_scorekeeper_is_the_scorekeeper_command(tmp_path):
    """``python -m scorekeeper score FILE`` prints what ``scorekeeper score FILE`` prints
    (GAME-FILE.md), and its help names the command as ``scorekeeper``."""
    file = tmp_path / "game.json"
    file.write_text(json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL])), encoding="utf-8")
    scored = subprocess.run([sys.executable, "-m", "scorekeeper", "score", str(file)], capture_output=True,
                            text=True, timeout=60)
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout) == json.loads(CliRunner().invoke(main, ["score", str(file)]).stdout)
    helped = subprocess.run([sys.executable, "-m", "scorekeeper", "--help"], capture_output=True, text=True,
                            timeout=60)
    assert helped.returncode == 0 and helped.stdout.startswith("Usage: scorekeeper ")
