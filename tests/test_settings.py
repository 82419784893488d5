"""A setting that cannot be read stops the start with one line naming it (scorekeeper/
settings.py; tester 15: ``SCOREKEEPER_WRITE_LIMIT=abc`` started, then answered every form
with a 500; ``SCOREKEEPER_GAME_FILE_MAX_DEALS=x`` ended an import in a traceback;
``SCOREKEEPER_RATELIMIT_ENABLED=off`` left the limits on without a word)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from scorekeeper import create_app
from scorekeeper.cli import main
from scorekeeper.settings import SettingError
from tests.conftest import game_file


def command(tmp_path, *args: str, **settings: str):
    """``scorekeeper ARGS`` with the SCOREKEEPER_* variables ``settings`` set, as an
    operator's shell would pass them."""
    env = {"SCOREKEEPER_DATABASE": str(tmp_path / "scores.sqlite3"), "SCOREKEEPER_SECRET_KEY": "test",
           "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance"),
           **{f"SCOREKEEPER_{name}": value for name, value in settings.items()}}
    return CliRunner(env=env).invoke(main, list(args))


@pytest.mark.parametrize(("name", "value", "says"), [
    ("WRITE_LIMIT", "abc", "WRITE_LIMIT = 'abc' is no limit"),
    ("IMPORT_LIMIT", "twenty", "IMPORT_LIMIT = 'twenty' is no limit"),
    ("GAME_FILE_MAX_DEALS", "x", "GAME_FILE_MAX_DEALS = 'x' is not a whole number from 1 up"),
    ("GAME_FILE_MAX_BYTES", "-5", "GAME_FILE_MAX_BYTES = -5 is not a whole number from 1 up"),
    ("GROUP_FILE_MAX_BYTES", "0", "GROUP_FILE_MAX_BYTES = 0 is not a whole number from 1 up"),
    ("RATELIMIT_ENABLED", "maybe", "RATELIMIT_ENABLED = 'maybe' is neither on nor off"),
    # tester 17: each of these started a server whose pages then failed, or ended in a traceback
    ("SECRET_KEY", "123", "SECRET_KEY = 123 is no key: write it as text"),
    ("DATABASE", "", "DATABASE = '' is no database file"),
    ("GAME_FILE_MAX_BYTES", "²", "GAME_FILE_MAX_BYTES = '²' is not a whole number from 1 up"),
    ("GAME_FILE_MAX_DEALS", "9" * 5000, "GAME_FILE_MAX_DEALS = '999"),
    ("RATELIMIT_STORAGE_URI", "abc", "RATELIMIT_STORAGE_URI = 'abc' is no storage of the limits library"),
    ("MAX_CONTENT_LENGTH", "abc", "MAX_CONTENT_LENGTH = 'abc' is not a whole number from 1 up"),
    ("PERMANENT_SESSION_LIFETIME", "abc", "PERMANENT_SESSION_LIFETIME = 'abc' is not a whole number from 1 up"),
    ("SESSION_COOKIE_SAMESITE", "bogus", "SESSION_COOKIE_SAMESITE = 'bogus' is not one of"),
    ("WRITE_LIMIT", "0 per minute", "WRITE_LIMIT = '0 per minute' lets nothing through"),
    ("TRUSTED_PROXIES", "²", "TRUSTED_PROXIES must be a whole number of proxies (0, 1, 2 …), not '²'"),
    # tester 19: printed as the address phones open, and written into the QR codes
    ("PUBLIC_URL", "javascript:alert(1)", "PUBLIC_URL = 'javascript:alert(1)' is not an address phones can open"),
    ("PUBLIC_URL", "http://scores .example", "PUBLIC_URL = 'http://scores .example' is not an address phones can open"),
])
def test_a_setting_that_cannot_be_read_stops_the_command_in_one_line(tmp_path, name, value, says):
    (tmp_path / "game.json").write_text('{"format": 1, "game": "trigami", "players": ["A", "B", "C"], '
                                        '"first_dealer": 0, "options": {}, "deals": []}', encoding="utf-8")
    result = command(tmp_path, "import", str(tmp_path / "game.json"), **{name: value})
    assert result.exit_code == 1
    assert result.stderr.startswith(f"scorekeeper: a setting cannot be read: {says}")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert not (tmp_path / "scores.sqlite3").exists() or "Imported" not in result.stdout  # nothing imported


def test_the_server_app_is_never_made_with_a_limit_it_cannot_read(tmp_path):
    """The web server's app: refused when it is made, not at the first form sent."""
    with pytest.raises(SettingError, match="WRITE_LIMIT = 'abc' is no limit"):
        create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "x.sqlite3"),
                    "WRITE_LIMIT": "abc"})


@pytest.mark.parametrize(("value", "on"), [("false", False), ("False", False), ("off", False), ("no", False),
                                           ("0", False), ("true", True), ("ON", True), ("1", True)])
def test_the_limits_switch_reads_the_words_an_operator_writes(tmp_path, value, on):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "x.sqlite3"),
                      "WTF_CSRF_ENABLED": False, "WRITE_LIMIT": "2 per minute", "RATELIMIT_ENABLED": value})
    client = app.test_client()
    answers = [client.post("/games/new?kind=trigami", data={
        "player_0": "Anna", "player_1": "Ben", "player_2": f"Carla{n}", "first_dealer": "0", "target": "500"}
    ).status_code for n in range(3)]
    assert answers == ([302, 302, 429] if on else [302, 302, 302])


def test_a_number_given_as_digits_is_read_as_the_number(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "x.sqlite3"),
                      "GAME_FILE_MAX_DEALS": "2", "TRUSTED_PROXIES": "1"})
    assert app.config["GAME_FILE_MAX_DEALS"] == 2


def test_a_config_file_that_is_no_python_stops_the_command_in_one_line(tmp_path):
    """Tester 17: a typo in instance/config.py printed Python's traceback."""
    (tmp_path / "instance").mkdir()
    (tmp_path / "instance" / "config.py").write_text("WRITE_LIMIT = this is not python\n", encoding="utf-8")
    result = command(tmp_path, "groups")
    assert result.exit_code == 1
    assert result.stderr.startswith("scorekeeper: a setting cannot be read: ") and "config.py cannot be read" in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_a_key_or_database_given_as_text_in_quotes_is_read(tmp_path):
    """A SCOREKEEPER_ variable is read as JSON: a key of digits in quotes is text."""
    result = command(tmp_path, "init-db", SECRET_KEY='"123456"')  # (a command that makes the database)
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize("line", ["GAME_FILE_MAX_DEALS = 10**5000", "MAX_CONTENT_LENGTH = 10**5000",
                                  "TRUSTED_PROXIES = -1"])
def test_a_number_in_the_config_file_that_is_no_setting_stops_the_command_in_one_line(tmp_path, line):
    """A number of 5,000 digits in config.py (Python will not even write it out) or a
    negative count: one line, as for the same in a variable."""
    (tmp_path / "instance").mkdir()
    (tmp_path / "instance" / "config.py").write_text(line + "\n", encoding="utf-8")
    result = command(tmp_path, "groups")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"scorekeeper: a setting cannot be read: {line.split()[0]}")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_a_key_too_long_for_python_to_write_out_is_said_so(tmp_path):
    with pytest.raises(SettingError, match="SECRET_KEY = a number too long to show is no key"):
        create_app({"TESTING": True, "SECRET_KEY": 10**5000, "DATABASE": str(tmp_path / "x.sqlite3")})


@pytest.mark.parametrize("command_args", [("groups",), ("export", "--group", "1")], ids=["groups", "export"])
def test_a_database_that_is_a_folder_is_said_in_one_line(tmp_path, command_args):
    """Tester 19 (HIGH): SCOREKEEPER_DATABASE naming a folder ended every command in
    SQLite's traceback ("unable to open database file")."""
    (tmp_path / "scores").mkdir()
    result = command(tmp_path, *command_args, DATABASE=str(tmp_path / "scores"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr == (f"scorekeeper: the database {tmp_path / 'scores'} cannot be opened: it is a folder; "
                             "name a file (SCOREKEEPER_DATABASE) in it instead; nothing was changed\n")


@pytest.mark.parametrize(("command_args", "reading"), [
    (("groups",), "list"), (("export", "--group", "1"), "export"), (("backup", "{copy}"), "back up")],
    ids=["groups", "export", "backup"])
def test_a_command_that_only_reads_refuses_a_database_that_is_not_there(tmp_path, command_args, reading):
    """Tester 19 (MEDIUM), tester 21 (HIGH): a typo in SCOREKEEPER_DATABASE silently made
    its folders and an empty database, and `groups`, `export` and `backup` went on with
    none of the group's games (a nightly backup said "Backed up 0 games" every night).
    They now make nothing and say so in one line."""
    database = tmp_path / "srv" / "scorekeepr" / "scores.sqlite3"  # "scorekeepr": a typo
    args = [a.format(copy=tmp_path / "copy.sqlite3") for a in command_args]
    result = command(tmp_path, *args, DATABASE=str(database))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr == (f"scorekeeper: no database at {database} (SCOREKEEPER_DATABASE): nothing to "
                             f"{reading}, and none was made; check the path (scorekeeper serve makes a new one)\n")
    assert not (tmp_path / "srv").exists() and not (tmp_path / "copy.sqlite3").exists()


def test_an_import_into_a_new_database_says_it_was_made(tmp_path):
    """A group moved to a new server (`scorekeeper import` on an empty path) still makes
    the database, and says where in one line: a mistyped path shows at once."""
    game = tmp_path / "game.json"
    game.write_text(json.dumps(game_file()), encoding="utf-8")
    database = tmp_path / "srv" / "scores.sqlite3"
    said = (f"scorekeeper: no database was at {database}: a new, empty one was made there "
            "(if the group's games are elsewhere, check SCOREKEEPER_DATABASE)\n")
    first = command(tmp_path, "import", str(game), DATABASE=str(database))
    assert first.exit_code == 0, first.stderr
    assert said in first.stderr and database.is_file()
    again = command(tmp_path, "groups", DATABASE=str(database))
    assert again.exit_code == 0 and "no database" not in again.stderr


def test_a_file_that_is_no_database_is_said_in_one_line_and_left_as_it_was(tmp_path):
    """Tester 21 (HIGH): SCOREKEEPER_DATABASE naming a file of another kind (a game file
    given by mistake) ended every command in SQLite's traceback ("file is not a database")."""
    other = tmp_path / "game.json"
    other.write_text('{"format": 1}\n', encoding="utf-8")
    for args in (("groups",), ("export", "--group", "1"), ("import", str(other))):
        result = command(tmp_path, *args, DATABASE=str(other))
        assert result.exit_code == 1 and "Traceback" not in result.output, args
        assert result.stderr.startswith(f"scorekeeper: the database {other} cannot be opened: it is no database "
                                        "(a file of another kind, or a damaged one"), (args, result.stderr)
        assert result.stderr.count("\n") == 1
    assert other.read_text(encoding="utf-8") == '{"format": 1}\n'


def test_a_database_on_a_read_only_disk_is_said_in_one_line(tmp_path):
    """Tester 19 (HIGH): a database on a disk mounted read-only ended `serve`, `groups`,
    `backup` and `export` in a traceback; said in one line, the data as it was."""
    from tests.disk_support import read_only_disk

    with read_only_disk(tmp_path / "disk") as folder:
        database = folder / "scores.sqlite3"
        result = command(tmp_path, "groups", DATABASE=str(database))
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert result.stderr.startswith(f"scorekeeper: the database {database} cannot be opened: "
                                        "this user may not write there (a read-only disk?)")
        assert result.stderr.count("\n") == 1
