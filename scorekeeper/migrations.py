"""The database schema, as append-only migrations (sqlite-utils Migrations).

Never edit or reorder a migration that has landed: add a new one below. Each runs once,
in a transaction, and is recorded in the _sqlite_migrations table.

What is stored is what the table saw: players, games (kind, seats, first dealer, options)
and each deal's entry exactly as the game file has it (JSON), and every change to a game
with what it was before and after (``changes``, m003). Points are never stored.
"""

from __future__ import annotations

import re

import sqlite_utils
from sqlite_utils.migrations import Migrations

from . import groups
from .inputs import name_key

migrations = Migrations("scorekeeper")


@migrations()
def m001_players_games_deals(db: sqlite_utils.Database) -> None:
    db.table("players").create(
        {"id": int, "name": str, "name_key": str, "created_at": str}, pk="id", not_null={"name", "name_key"}
    )
    db.table("players").create_index(["name_key"], unique=True)
    db.table("games").create(
        {
            "id": str,  # random, so one game's address reveals nothing of others
            "kind": str,
            "first_dealer": int,
            "options": str,  # JSON, every key present
            "created_at": str,  # UTC, ISO 8601
            "updated_at": str,
        },
        pk="id",
        not_null={"kind", "first_dealer", "options", "created_at", "updated_at"},
    )
    db.table("game_players").create(
        {"game_id": str, "seat": int, "player_id": int},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    db.table("game_players").create_index(["player_id"])
    db.table("deals").create(
        {
            "id": int,
            "game_id": str,
            "position": int,  # order of play within the game
            "entry": str,  # the game file's deal object, JSON
            "nonce": str,  # the form's one-time token: a double tap adds one deal
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "position", "entry", "created_at", "updated_at"},
    )
    db.table("deals").create_index(["game_id", "position"], unique=True)
    db.table("deals").create_index(["nonce"], unique=True)


@migrations()
def m002_game_nonce(db: sqlite_utils.Database) -> None:
    """The new-game form's one-time token: a double tap on Start makes one game."""
    db.table("games").add_column("nonce", str)
    db.table("games").create_index(["nonce"], unique=True)


@migrations()
def m003_history(db: sqlite_utils.Database) -> None:
    """Every change to a game is recorded (``changes``), and deals are deleted softly
    (``deals.deleted_at``), so a deleted deal can be restored. The history is an event log
    of what was entered: points and totals are never stored, they are replayed."""
    db.table("deals").add_column("deleted_at", str)  # UTC, ISO 8601; null while the deal is in play
    db.table("changes").create(
        {
            "id": int,  # the order of the changes
            "game_id": str,
            "at": str,  # UTC, ISO 8601
            "action": str,  # store.ACTIONS
            "deal_id": int,  # deal actions only
            "position": int,  # the deal's place key in the order of play (deals.position)
            "before": str,  # JSON: what it was before (null when there was nothing)
            "after": str,  # JSON: what it was after (null when nothing is left)
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id"), ("deal_id", "deals", "id")],
        not_null={"game_id", "at", "action"},
    )
    db.table("changes").create_index(["game_id", "id"])


@migrations()
def m004_summaries(db: sqlite_utils.Database) -> None:
    """What the lists show of each game, kept up to date by every write (summaries.py):
    a game's summary, each seat's result, each player's record. Worked out from the deal
    entries like the score sheet, never entered; filled in on start-up
    (summaries.refresh_stale)."""
    db.table("game_summaries").create(
        {
            "game_id": str,
            "version": int,  # the game's version it was worked out at (store.game_version)
            "rules": str,  # the rules' fingerprint that scored it (summaries.RULES)
            "kind": str,
            "deals": int,
            "finished": int,  # 0 or 1
            "totals": str,  # JSON: one int per seat
            "winners": str,  # JSON: seats (finished games)
            "leaders": str,  # JSON: seats with the best total so far
            "problem_deal": int,  # 1-based: the first stored deal that no longer fits; null if none
        },
        pk="game_id",
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("game_summaries").create_index(["finished"])
    db.table("games").create_index(["created_at"])  # the lists: newest first
    db.table("seat_results").create(
        {"game_id": str, "seat": int, "total": int, "won": int},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("player_records").create(
        {"player_id": int, "played": int, "finished": int, "won": int, "last_played": str},
        pk="player_id",
    )


@migrations()
def m005_player_stats(db: sqlite_utils.Database) -> None:
    """What each seat of each game adds to its player's statistics (``seat_stats``) and
    each player's figures summed over their games (``player_figures``), kept up to date by
    every write (summaries.py), so that a player page never scores the player's games.
    Worked out from the deal entries like everything else; the summaries are emptied here
    so that start-up (summaries.refresh_stale) works all of it out for stored games."""
    db.table("seat_stats").create(
        {
            "game_id": str,
            "seat": int,
            "player_id": int,
            "kind": str,
            "created_at": str,  # the game's start (UTC, ISO 8601): the order of play
            "game_rowid": int,  # after created_at, the order of games started together
            "counts": str,  # JSON: {figure key: [count, total, chances]} (stats.SeatPart)
            "best_better": int,  # the seat's best deal's points, higher is better; null without deals
            "best": str,  # JSON: [deal number, points, what was played] (stats.DealMark)
            "worst_better": int,
            "worst": str,
            "finished": int,  # 0 or 1
            "total": int,  # final total (finished games)
            "best_other": int,  # the best final total of the others (finished games)
            "won": int,
            "reversed": int,  # Trix, reversed scoring: the lowest total wins
        },
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id")],
    )
    db.execute("create index seat_stats_best on seat_stats "
               "(player_id, kind, best_better desc, created_at, game_rowid)")
    db.execute("create index seat_stats_worst on seat_stats "
               "(player_id, kind, worst_better, created_at, game_rowid)")
    db.execute("create index seat_stats_results on seat_stats "
               "(player_id, kind, finished, created_at, game_rowid)")
    db.execute("create index seat_stats_last on seat_stats (player_id, created_at)")
    db.table("player_figures").create(
        {
            "player_id": int,
            "key": str,  # stats.Figure.key
            "things": int,  # summed counts
            "total": int,  # summed values (averages)
            "chances": int,  # summed chances ("x of n")
            "games": int,  # games it comes from (count above 0)
            "seen": int,  # games that count this figure at all (0: the row goes)
        },
        pk=("player_id", "key"),
    )
    db.execute("delete from game_summaries")


#: What a migration has to tell whoever started the app (db.migrate prints it): a group
#: made for the games already stored, and its link
NOTICES: list[str] = []


@migrations()
def m006_groups(db: sqlite_utils.Database) -> None:
    """Groups: the people who play together, each with its own games and players, reached
    through a private link (``links``). Players belong to a group, so the same name in two
    groups is two people. A database made before groups puts all its games and players
    into one group, whose link is told once (:data:`NOTICES`; ``scorekeeper groups`` lists
    it again)."""
    db.table("groups").create(
        {
            "id": int,
            "name": str,
            "passcode": str,  # werkzeug password hash; null: the link alone is enough
            "passcode_id": str,  # random, new with each passcode: a phone's proof is this
            "version": int,  # the id of the latest change to any of its games (the lists' version)
            "created_at": str,
        },
        pk="id",
        not_null={"name", "version", "created_at"},
    )
    db.table("links").create(
        {
            "token": str,  # at least 128 random bits, URL-safe
            "group_id": int,
            "game_id": str,  # a read-only link to one game; null: the whole group
            "access": str,  # "play" (everything) or "view" (read-only)
            "created_at": str,
            "revoked_at": str,  # null while it works
        },
        pk="token",
        foreign_keys=[("group_id", "groups", "id"), ("game_id", "games", "id")],
        not_null={"group_id", "access", "created_at"},
    )
    db.table("links").create_index(["group_id", "access", "game_id"])
    db.table("players").add_column("group_id", int)
    db.table("games").add_column("group_id", int)
    for index in db.table("players").indexes:
        if index.columns == ["name_key"]:
            db.execute(f"drop index [{index.name}]")
    db.execute("update players set group_id = 0")  # set below, before the index needs it
    if db.table("games").count or db.table("players").count:
        group = groups.create(db, None)
        db.execute("update players set group_id = ?", [group.id])
        db.execute("update games set group_id = ?", [group.id])
        db.execute("update groups set version = (select coalesce(max(id), 0) from changes) where id = ?",
                   [group.id])
        NOTICES.append(group.token or "")  # (a new group has its link)
    db.table("players").create_index(["group_id", "name_key"], unique=True)
    db.table("games").create_index(["group_id", "created_at"])


@migrations()
def m007_name_keys(db: sqlite_utils.Database) -> None:
    """Players' keys worked out again by the new ``store.name_key`` (inputs.name_key) (issue 9: invisible
    characters, full-width letters and case no longer make two players): :func:`_keys_again`."""
    _keys_again(db)


def _keys_again(db: sqlite_utils.Database) -> None:
    """Every player's key worked out again by inputs.name_key as it is now.

    Two stored players whose names now have one key ("Ann" and "Ann" + zero-width space)
    are kept apart, not merged, so no game changes its players and none is lost: the one
    stored first takes the key (new games with either spelling join it); each later one
    keeps its games under a key with its id appended after U+001F, a character no name
    can hold ("ann\\x1f7"). Renaming it on a game's settings page to the first one's name
    merges the two as any rename to a known name does. The keys are unique within the
    scope of the players' unique index on name_key (the whole table, or whatever columns
    that index names beside it, such as a group)."""
    scope: list[str] = []
    for index in db.execute("pragma index_list(players)").fetchall():
        if index[2]:  # unique
            columns = [row[2] for row in db.execute(f'pragma index_info("{index[1]}")').fetchall()]
            if "name_key" in columns:
                scope = [c for c in columns if c != "name_key"]
    select = ", ".join(f'"{c}"' for c in scope)
    rows = db.execute(f"select id, name{', ' + select if scope else ''} from players order by id").fetchall()
    # Every key out of the way first, so that no update meets an old key under the unique index
    db.execute("update players set name_key = char(30) || id")
    taken: set[tuple[object, ...]] = set()
    for row in rows:
        player_id, name, where = row[0], row[1], tuple(row[2:])
        key = name_key(name)
        if (*where, key) in taken:
            key = f"{key}\x1f{player_id}"
        taken.add((*where, key))
        db.execute("update players set name_key = ? where id = ?", [key, player_id])


@migrations()
def m008_passcode_attempts(db: sqlite_utils.Database) -> None:
    """Wrong passcodes counted in the database (issue 16, attempts.py), one-time codes
    that let a phone in, and whether a group's passcode was set under the rule of at
    least 6 digits or a few words (null: set before it; it keeps working)."""
    db.table("passcode_attempts").create(
        {
            "id": int,
            "at": float,  # Unix time, seconds
            "kind": str,  # "passcode" or "code" (a one-time code typed)
            "group_id": int,  # the group guessed at (null for a code: it names no group)
            "phone": str,  # the random id in the phone's session cookie
            "address": str,  # the client's address (an IPv6 address's /64)
        },
        pk="id",
        not_null={"at", "kind", "phone", "address"},
    )
    for columns in (["phone", "kind", "at"], ["address", "kind", "at"], ["group_id", "kind", "at"], ["at"]):
        db.table("passcode_attempts").create_index(columns)
    db.table("entry_codes").create(
        {
            "hash": str,  # SHA-256 of the code (50 random bits: no slow hash needed for 15 minutes)
            "group_id": int,
            "created_at": str,
            "expires_at": float,  # Unix time, seconds
            "used_at": str,  # null until a phone came in with it
        },
        pk="hash",
        foreign_keys=[("group_id", "groups", "id")],
        not_null={"group_id", "created_at", "expires_at"},
    )
    db.table("entry_codes").create_index(["expires_at"])
    db.table("groups").add_column("passcode_rule", int)  # 1: set under the rule of at least 6 digits or a few words


@migrations()
def m009_nonces_per_group(db: sqlite_utils.Database) -> None:
    """Form tokens (nonces) that only ever resolve inside their own group (issue 16, part
    5): a game's token is unique within its group, a deal's within its game (a token of
    another group's form is no answer here, and stores anew here); "Start a group" keeps
    its form's token with the group it made (``groups.nonce``), so the same form sent twice
    makes one group; a change of players or settings keeps its form's token
    (``changes.nonce``), so the same Save sent twice gets the first answer."""
    for table, columns in (("games", ["group_id", "nonce"]), ("deals", ["game_id", "nonce"])):
        for index in db.table(table).indexes:
            if index.columns == ["nonce"]:
                db.execute(f"drop index [{index.name}]")
        db.table(table).create_index(columns, unique=True)
    db.table("groups").add_column("nonce", str)
    db.table("groups").create_index(["nonce"], unique=True)
    db.table("changes").add_column("nonce", str)
    db.execute("create index changes_nonce on changes (game_id, nonce) where nonce is not null")


@migrations()
def m010_new_link_nonce(db: sqlite_utils.Database) -> None:
    """"Make a new link" sent twice makes one link (issue 16, fixes after the merge): a play
    link keeps the form token that made it (``links.nonce``, unique within its group) and
    the link it replaced (``links.replaces``), so the same form sent again, even with the
    replaced link still in its cookie, is answered with the link it made."""
    db.table("links").add_column("nonce", str)
    db.table("links").add_column("replaces", str)
    db.execute("create unique index links_group_nonce on links (group_id, nonce) where nonce is not null")
    db.execute("create index links_replaces on links (replaces) where replaces is not null")


@migrations()
def m011_deleted_games(db: sqlite_utils.Database) -> None:
    """A game deleted softly (issue 18, part 1): ``games.deleted_at`` (UTC, ISO 8601; null
    while the game is in play). A deleted game leaves every list, statistic and group file
    but keeps its deals and history, so "Deleted games" can restore it whole."""
    db.table("games").add_column("deleted_at", str)
    db.execute("create index games_deleted on games (group_id, deleted_at) where deleted_at is not null")


@migrations()
def m012_seat_changes(db: sqlite_utils.Database) -> None:
    """Someone takes over a seat during a game (issue 18, part 3): ``seat_changes`` holds
    who plays a seat from the deal placed at ``position`` on (the place the next deal took
    when it was said: deals.position), with the form token that made it; ``game_players``
    keeps who sat at the start. A player's statistics count only the deals they played,
    so one seat of a game may now add to two players: ``seat_stats`` is kept by game and
    player (its ``seat``: where the player sat last); start-up works it out again."""
    db.table("seat_changes").create(
        {
            "id": int,
            "game_id": str,
            "seat": int,  # 0-based, in playing order
            "position": int,  # deals.position of the first deal the new player plays
            "player_id": int,
            "created_at": str,  # UTC, ISO 8601
            "nonce": str,  # the players-and-settings form's one-time token (null: an import)
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
        not_null={"game_id", "seat", "position", "player_id", "created_at"},
    )
    db.table("seat_changes").create_index(["game_id", "position"])
    db.table("seat_changes").create_index(["player_id"])
    db.execute("create unique index seat_changes_nonce on seat_changes (game_id, nonce) where nonce is not null")
    db.execute("delete from seat_stats")
    db.execute("delete from player_figures")
    db.execute("delete from game_summaries")  # refresh_stale works them all out again
    db.table("seat_stats").transform(pk=("game_id", "player_id"))


@migrations()
def m013_trix_taken_back(db: sqlite_utils.Database) -> None:
    """The Trix option ``taken_back`` (issue 19, part 2: the house reading of a card taken
    back, SCORING.md §2.2): every Trix game stored before it gets ``"taken_back":
    "leader"``, the reading it was scored by, so that a game's options keep every key
    (an import or a Start compares them whole). Points do not change."""
    db.execute("update games set options = json_set(options, '$.taken_back', 'leader') "
               "where kind = 'trix' and json_type(options, '$.taken_back') is null")


@migrations()
def m014_imported_games(db: sqlite_utils.Database) -> None:
    """Whether a game was stored from a game file (an import; a group moved from another
    server: issue 18, part 4) rather than started here. A game file holds no date, so such
    a game's ``created_at`` is when it was imported, and the lists and its history say
    "imported" instead of calling it the day it was played. Games stored before this
    are taken as started here: which were imported is not known."""
    db.table("games").add_column("imported", int, not_null_default=0)


@migrations()
def m015_nights(db: sqlite_utils.Database) -> None:
    """Club nights (issue 20; docs/club-nights.md): a night of a group plays one game
    (``kind``, ``options`` as the game file's, every table the same) over
    ``rounds_planned`` rounds, ranked by ``ranking`` ("placings" or "score"), round 1
    seated by ``seating`` ("random" or "ranking") from the night's draw ``seed``.
    ``night_players``: who came, in the order they were added, each from ``from_round``
    until ``until_round`` (null: to the end). ``night_rounds``: each round seated, with
    whether it is ``closed`` (by the organiser, or when the next round was seated after
    every table's game was over) and ``closed_early``. ``night_tables``: each table of a
    round is an ordinary game of the group (``game_id``); ``counted`` the deals the night
    counts when its round was closed early (null: all). ``night_sitting_out``: who sat a
    round out, in the order the draw chose them. Points are never stored."""
    db.table("nights").create(
        {
            "id": int,
            "group_id": int,
            "name": str,
            "kind": str,
            "options": str,  # JSON, as the game file's options
            "rounds_planned": int,
            "ranking": str,
            "seating": str,
            "seed": int,
            "created_at": str,  # UTC, ISO 8601
            "nonce": str,  # the start or import form's one-time token
            "imported": int,
        },
        pk="id",
        foreign_keys=[("group_id", "groups", "id")],
        not_null={"group_id", "kind", "options", "rounds_planned", "ranking", "seating", "seed", "created_at"},
        defaults={"imported": 0},
    )
    db.table("nights").create_index(["group_id", "created_at"])
    db.execute("create unique index nights_nonce on nights (group_id, nonce) where nonce is not null")
    db.table("night_players").create(
        {"night_id": int, "position": int, "player_id": int, "from_round": int, "until_round": int},
        pk=("night_id", "player_id"),
        foreign_keys=[("night_id", "nights", "id"), ("player_id", "players", "id")],
        not_null={"night_id", "position", "player_id", "from_round"},
    )
    db.table("night_rounds").create(
        {"night_id": int, "number": int, "closed": int, "closed_early": int, "closed_at": str},
        pk=("night_id", "number"),
        foreign_keys=[("night_id", "nights", "id")],
        not_null={"night_id", "number", "closed", "closed_early"},
        defaults={"closed": 0, "closed_early": 0},
    )
    db.table("night_tables").create(
        {"night_id": int, "round": int, "number": int, "game_id": str, "counted": int},
        pk=("night_id", "round", "number"),
        foreign_keys=[("night_id", "nights", "id"), ("game_id", "games", "id")],
        not_null={"night_id", "round", "number", "game_id"},
    )
    db.table("night_tables").create_index(["game_id"], unique=True)
    db.table("night_sitting_out").create(
        {"night_id": int, "round": int, "position": int, "player_id": int},
        pk=("night_id", "round", "player_id"),
        foreign_keys=[("night_id", "nights", "id"), ("player_id", "players", "id")],
        not_null={"night_id", "round", "position", "player_id"},
    )


@migrations()
def m016_night_players_away(db: sqlite_utils.Database) -> None:
    """A leaver who comes back (issue 20; docs/club-nights.md, "Late arrivals and
    leavers"): ``night_players.away``, the rounds a player of the night was not there for
    between leaving and coming back as a late arrival, a JSON list of round numbers
    (null: none)."""
    db.table("night_players").add_column("away", str)


@migrations()
def m017_table_cards(db: sqlite_utils.Database) -> None:
    """Table cards (docs/club-nights.md, "Table cards"): each table of a club night gets a
    link of its own (``links.access`` "table", ``game_id`` its game) that enters deals in
    that game only while the night runs, instead of the group's play link on the printed
    cards and the night's QR codes. The tables seated before get theirs here, made at their
    night's start (``created_at``: the card's twelve hours count from it, so an old night's
    cards only show their games)."""
    for group_id, game_id, created_at in db.execute(
            "select n.group_id, t.game_id, n.created_at from night_tables t join nights n on n.id = t.night_id "
            "order by t.night_id, t.round, t.number").fetchall():
        db.execute("insert into links (token, group_id, game_id, access, created_at) values (?, ?, ?, 'table', ?)",
                   [groups.new_token(), group_id, game_id, created_at])


@migrations()
def m018_deleted_nights(db: sqlite_utils.Database) -> None:
    """A club night deleted softly, with its tables' games (a night started by mistake:
    docs/club-nights.md, "Deleting a night"): ``nights.deleted_at`` (UTC, ISO 8601; null
    while the night counts). A deleted night leaves the nights list, the season and the
    statistics, its tables' games with it (each deleted as a game is), and "Deleted
    nights" restores it whole."""
    db.table("nights").add_column("deleted_at", str)


@migrations()
def m019_import_reports(db: sqlite_utils.Database) -> None:
    """What a group file's import did (views/transfer.py): kept, so that the page saying
    it has an address of its own to be opened again, reloaded or in another language
    (the language switch), instead of being only the answer to the upload. ``report``:
    the JSON actions.GroupReport writes; ``id``: a random token; kept 30 days
    (store.keep_import_report)."""
    db.table("import_reports").create(
        {"id": str, "group_id": int, "made_at": str, "report": str},
        pk="id",
        not_null={"group_id", "made_at", "report"},
        foreign_keys=[("group_id", "groups", "id")],
    )
    db.table("import_reports").create_index(["made_at"])


@migrations()
def m020_counted_deals_deleted(db: sqlite_utils.Database) -> None:
    """A club night's table closed early counts its first ``counted`` deals; one of them
    deleted afterwards counts one fewer, and ``counted_deleted`` (a JSON list of deal ids)
    remembers it, so that the deal restored counts again and a deal added after the close
    never does (store.delete_deal, store.restore_deal)."""
    db.table("night_tables").add_column("counted_deleted", str)


@migrations()
def m021_arabic_name_keys(db: sqlite_utils.Database) -> None:
    """Players' keys worked out again now that inputs.name_key makes Arabic letters drawn
    alike one (the Persian yeh and the alef maksura as the yeh, the keheh as the kaf, no
    tatweel: tester 38). Two stored players whose names now share a key stay apart, as
    :func:`_keys_again` keeps them: rename one to the other's name to make them one."""
    _keys_again(db)


def autoincrement_again(sql: str) -> str:
    """The ``CREATE TABLE`` statement ``sql`` of ``changes`` (as SQLite keeps it, its names
    quoted "so", [so] or `so`, as the sqlite-utils that made it wrote them) made into one of
    ``changes_again`` whose ``id`` is ``INTEGER PRIMARY KEY AUTOINCREMENT``; raises
    ValueError for a statement of another shape (nothing is changed then)."""
    made, renamed = re.subn(r'^\s*CREATE\s+TABLE\s+["\[`]?changes["\]`]?', 'CREATE TABLE "changes_again"', sql,
                            count=1, flags=re.IGNORECASE)
    made, keyed = re.subn(r'(["\[`]?\bid["\]`]?\s+INTEGER\s+PRIMARY\s+KEY)\b(?!\s+AUTOINCREMENT)', r"\1 AUTOINCREMENT",
                          made, count=1, flags=re.IGNORECASE)
    if not (renamed and keyed):
        raise ValueError(f"changes is not as m003 made it: {sql}")
    return made


@migrations()
def m022_change_ids_never_again(db: sqlite_utils.Database) -> None:
    """A change's id is a game's version, which phones hold (a score sheet polling, a
    form's ``seen``): it is never handed out twice. SQLite gives a row the highest id + 1,
    so a database put back from a backup gave the changes made after it the ids of
    changes it no longer has, and a phone that had seen one took the game for unchanged
    (tester 44). ``changes`` is made again with AUTOINCREMENT, whose counter
    (``sqlite_sequence``) only goes up; a restore (backups.restore) sets it past every id
    the database it replaces had handed out."""
    sql = db.execute("select sql from sqlite_master where type = 'table' and name = 'changes'").fetchone()[0]
    indexes = [row[0] for row in db.execute(
        "select sql from sqlite_master where type = 'index' and tbl_name = 'changes' and sql is not null")]
    db.execute(autoincrement_again(sql))
    db.execute("insert into changes_again select * from changes")
    db.execute("drop table changes")
    db.execute('alter table changes_again rename to "changes"')
    for index in indexes:
        db.execute(index)
