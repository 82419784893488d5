"""The ``scorekeeper`` command: score, import, export, groups, backup, serve, init-db.

``scorekeeper score FILE`` needs no database and prints exactly what GAME-FILE.md says.
"""

from __future__ import annotations

import json
import sys

import click

from . import gamefile
from .rules import RuleError


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


def _fail(message: str) -> None:
    click.echo(f"scorekeeper: {message}", err=True)
    sys.exit(1)


def _load(path: str, max_bytes: int | None = None, max_deals: int | None = None) -> gamefile.GameFile:
    """Read and score-check a game file, or exit 1 with the problem on stderr. An import
    passes the app's GAME_FILE_MAX_BYTES and GAME_FILE_MAX_DEALS (gamefile.py: why)."""
    try:
        text = _read(path, max_bytes)
        if max_deals is not None:
            try:
                too_many = gamefile.too_many_deals(json.loads(text), max_deals)
            except (ValueError, RecursionError):
                too_many = None  # not JSON: loads says so below
            if too_many is not None:
                raise too_many
        game = gamefile.loads(text)
        game.score()
    except TooLarge:
        _fail(f"{path} is larger than a game file to import ({max_bytes // 1024 if max_bytes else 0} KB at most)")
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        _fail("standard input is not UTF-8 text" if path == "-"
              else f"{path} is not a UTF-8 text file")
    except RuleError as exc:
        _fail(str(exc))
    return game


@click.group(help="Keeps score at the card table: Trigami, plain Bugami for three and Trix.")
def main() -> None:
    pass


@main.command()
@click.argument("file")
def score(file: str) -> None:
    """Score a game file (- for standard input) and print the result as JSON."""
    result = _load(file).score()
    click.echo(json.dumps(result.to_json(), ensure_ascii=False))


def _app():
    from . import create_app

    return create_app()


@main.command("import")
@click.argument("file")
@click.option("--copy", is_flag=True, help="Store it even if the same game is stored already.")
@click.option("--group", "group_name", metavar="GROUP",
              help="The group's number or name (scorekeeper groups); needed when there are several.")
def import_(file: str, copy: bool, group_name: str | None) -> None:
    """Store a game file's game in a group; prints the game page's URL path last.

    Without --group, the game goes into the only group (one is made on a database that
    has none). A game identical to one of the group's (same players, settings and deals)
    is not stored twice: the stored game's path is printed instead, unless --copy is
    given."""
    app = _app()
    game = _load(file, app.config["GAME_FILE_MAX_BYTES"], app.config["GAME_FILE_MAX_DEALS"])
    from . import groups, store
    from .db import connect

    db = connect(app.config["DATABASE"])
    try:
        if group_name is not None:
            try:
                group_id: int | None = groups.find(db, group_name).id
            except groups.NoSuchGroupError as exc:
                _fail(f"{exc}; scorekeeper groups lists them")
        else:
            only = groups.only_group(db)
            if only is None:
                _fail("there are several groups: say which with --group (scorekeeper groups lists them)")
            group_id = only.id
        game_id = store.create_game(db, game, unique=not copy, group_id=group_id)
    except store.DuplicateGameError as twin:
        click.echo("scorekeeper: this game is already stored; nothing imported (--copy stores it again)",
                   err=True)
        click.echo(f"/games/{twin.game_id}")
        return
    finally:
        db.conn.close()
    deals = "1 deal" if len(game.deals) == 1 else f"{len(game.deals)} deals"
    click.echo(f"Imported {game.rules.title}: {', '.join(game.players)} ({deals})")
    click.echo(f"/games/{game_id}")


# An id may start with "-" (games stored before new ids stopped doing so): taken as GAME,
# not refused as an unknown option
@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("game")
def export(game: str) -> None:
    """Print a stored game's game file (GAME may be its id or its URL path; an id that
    starts with "-" may also follow "--")."""
    app = _app()
    from . import store
    from .db import connect

    game_id = game.rstrip("/").rsplit("/", 1)[-1]
    if not game_id.isprintable() or any("\ud800" <= c <= "\udfff" for c in game_id):  # bytes not UTF-8
        _fail(f"no game {game_id!r}")
    db = connect(app.config["DATABASE"])
    try:
        stored = store.get_game(db, game_id)
    except store.NotFoundError:
        _fail(f"no game {game_id!r}")
    finally:
        db.conn.close()
    click.echo(json.dumps(stored.to_dict(), indent=2, ensure_ascii=False))


def _public_url(app) -> str:
    """The address links are shown with: PUBLIC_URL, else this computer's address on
    the Wi-Fi (port 5000, as ``make run`` serves), else a path alone."""
    from . import network

    if app.config.get("PUBLIC_URL"):
        return app.config["PUBLIC_URL"].rstrip("/")
    urls = network.phone_urls("0.0.0.0", 5000)
    return urls[0] if urls else ""


@main.command("groups")
def groups_() -> None:
    """List the groups: number, name, games, and the private link that opens each."""
    app = _app()
    from . import groups
    from .db import connect

    db = connect(app.config["DATABASE"])
    try:
        found = groups.all_groups(db)
        counts = dict(db.execute("select group_id, count(*) from games group by group_id").fetchall())
    finally:
        db.conn.close()
    if not found:
        click.echo("No groups yet: the first phone to open the app starts one.")
        return
    base = _public_url(app)
    for group in found:
        games = counts.get(group.id, 0)
        passcode = ", passcode on" if group.passcode_id else ""
        click.echo(f"{group.id}  {group.name}  ({games} game{'s' if games != 1 else ''}{passcode})")
        click.echo(f"    {base}/g/{group.token}")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
def backup(file: str) -> None:
    """Write a consistent copy of the database to FILE, even while the server runs
    (SQLite's online backup). To restore: stop the server, put FILE in place of the
    database file (instance/scorekeeper.sqlite3), start it again."""
    import sqlite3
    from pathlib import Path

    app = _app()
    target = Path(file)
    if target.exists():
        _fail(f"{file} exists already: choose a new name")
    if target.resolve() == Path(app.config["DATABASE"]).resolve():
        _fail("that is the database itself")
    try:
        source = sqlite3.connect(app.config["DATABASE"], timeout=30)
        copy = sqlite3.connect(target)
    except sqlite3.Error as exc:
        _fail(f"cannot write {file}: {exc}")
    try:
        with copy:
            source.backup(copy)
        games = copy.execute("select count(*) from games").fetchone()[0]
    finally:
        copy.close()
        source.close()
    target.chmod(0o600)
    click.echo(f"Backed up {games} game{'s' if games != 1 else ''} to {file}")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="0.0.0.0 lets phones on the same Wi-Fi reach it.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
def serve(host: str, port: int) -> None:
    """Serve the app with waitress (the database is created and migrated first).

    Prints the address phones open and keeps it as the app's PUBLIC_URL, which the score
    sheet's QR code uses when the sheet is opened on this computer (network.game_address).
    A PUBLIC_URL already configured (instance/config.py, SCOREKEEPER_PUBLIC_URL) is kept.
    \f
    Behind TRUSTED_PROXIES reverse proxies (README: "On the internet, behind a reverse
    proxy") the address this computer listens on is not the one phones open: only a
    configured PUBLIC_URL is printed and kept, and waitress passes the proxies'
    X-Forwarded-* headers on to the app, where ProxyFix reads the last TRUSTED_PROXIES
    values of each (scorekeeper._secure). Waitress' own reading of them (trusted_proxy=…)
    is not used: ProxyFix is then the one place that reads them, the same under any WSGI
    server and in the tests' Flask client, it needs no proxy address (which a container or
    a second host changes), and two readers would each drop a hop. With TRUSTED_PROXIES=0
    waitress removes every X-Forwarded-* header (its default), so no client can claim an
    address, a scheme or a host.
    """
    from waitress import serve as waitress_serve

    from . import network, trusted_proxies

    app = _app()
    proxies = trusted_proxies(app)
    click.echo(f"Scorekeeper on {network.server_url(host or '0.0.0.0', port)}/  "
               f"(database: {app.config['DATABASE']})")
    urls = [app.config["PUBLIC_URL"].rstrip("/")] if app.config.get("PUBLIC_URL") else []
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
    # waitress gives the root logger a handler (logging.basicConfig): the app's lines go
    # there, once, not also through Flask's own handler (every line twice in the log)
    from flask.logging import default_handler

    app.logger.removeHandler(default_handler)
    waitress_serve(app, host=host, port=port, threads=8, clear_untrusted_proxy_headers=not proxies)


@main.command("init-db")
def init_db() -> None:
    """Create the database or bring it up to date."""
    app = _app()
    click.echo(f"Database ready: {app.config['DATABASE']}")
