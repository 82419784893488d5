"""Every read and write of club nights (issue 20; migration m015_nights): the night, its
players, rounds, tables and who sat out. Each table's game is an ordinary game of the
group, stored through store.create_game inside the night's own transaction, so a round is
seated whole or not at all. Writes take the write lock at once (store.writing: BEGIN
IMMEDIATE). No Flask here; night_actions.py decides what to write.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import sqlite_utils

from . import club, groups, store
from .gamefile import from_dict
from .night_records import StoredNight, StoredRound, StoredTable
from .nightfile import NightFile, NightPlayer
from .records import NotFoundError
from .rules import get_rules
from .store import name_key, writing


class NightNotFoundError(NotFoundError):
    """No night with that id in that group."""


class RoundSeatedError(Exception):
    """The round was seated already (a double tap, two organisers at once)."""


class RoundClosedError(Exception):
    """The round was closed already."""


class NightMovedOnError(Exception):
    """A page left open named round ``shown``, but the night's last round seated is
    ``current`` now (read inside the write): nothing written, the organiser chooses
    again (docs/club-nights.md, "Pages left open")."""

    def __init__(self, shown: int, current: int) -> None:
        super().__init__(shown, current)
        self.shown = shown
        self.current = current


class NightStoredError(Exception):
    """The night of a night file is in the group already (``night_id``): the same draw
    (seed), game and players. Importing it again would count its games twice."""

    def __init__(self, night_id: int) -> None:
        super().__init__(night_id)
        self.night_id = night_id


@dataclass(frozen=True)
class NightSettings:
    """What a night is started with: ``options`` the game file's options dict (every key);
    the rest as :class:`night_records.StoredNight`."""

    kind: str
    options: Mapping[str, Any]
    rounds_planned: int
    ranking: str
    seating: str
    seed: int
    name: str | None = None


def _player_id(db: sqlite_utils.Database, name: str, group_id: int, now: str) -> int:
    """The group's player called ``name`` (any case: store.name_key), made if new."""
    name = " ".join(name.split())
    row = db.execute("select id from players where group_id = ? and name_key = ?", [group_id, name_key(name)]).fetchone()
    if row is not None:
        return int(row[0])
    return cast(int, db.table("players").insert({"name": name, "name_key": name_key(name), "created_at": now,
                                                  "group_id": group_id}).last_pk)


def _night_id(db: sqlite_utils.Database, group_id: int, nonce: str | None) -> int | None:
    if not nonce:
        return None
    row = db.execute("select id from nights where group_id = ? and nonce = ?", [group_id, nonce]).fetchone()
    return None if row is None else int(row[0])


class NightStartedAlreadyError(Exception):
    """A night like the one being started was started a moment ago (:func:`just_started`):
    ``night_id``, ``created_at`` (UTC, ISO 8601)."""

    def __init__(self, night_id: int, created_at: str) -> None:
        super().__init__(night_id)
        self.night_id, self.created_at = night_id, created_at


def just_started(db: sqlite_utils.Database, group_id: int, settings: NightSettings, players: Sequence[str],
                 since: str) -> tuple[int, str] | None:
    """(id, start time) of the newest night of group ``group_id`` started at or after
    ``since`` (ISO, as store.now gives) with ``settings``' game, options, rounds, ranking
    and name and the same ``players`` (any case, any order), not deleted, with no deal
    at any of its tables yet; else None. What the start form asks about before a second
    Start of one night (Back, then Start again: tester 28); :func:`create_night` asks it
    inside its transaction."""
    keys = sorted(name_key(name) for name in players)
    rows = db.execute(
        "select n.id, n.created_at from nights n where n.group_id = ? and n.kind = ? and n.options = ? "
        "and n.rounds_planned = ? and n.ranking = ? and coalesce(n.name, '') = ? and n.created_at >= ? "
        "and n.deleted_at is null and not exists (select 1 from night_tables t join deals d on d.game_id = t.game_id "
        "where t.night_id = n.id) order by n.created_at desc, n.id desc",
        [group_id, settings.kind, json.dumps(dict(settings.options)), settings.rounds_planned, settings.ranking,
         settings.name or "", since]).fetchall()
    for night_id, created_at in rows:
        stored = [row[0] for row in db.execute(
            "select p.name_key from night_players np join players p on p.id = np.player_id where np.night_id = ?",
            [night_id])]
        if sorted(stored) == keys:
            return int(night_id), str(created_at)
    return None


def create_night(db: sqlite_utils.Database, group_id: int, settings: NightSettings, players: Sequence[str],
                 first: club.Seating, *, nonce: str | None = None, started_since: str | None = None) -> int:
    """Store a new night with its ``players`` (all from round 1) and round 1 seated as
    ``first`` (its tables' games started), in one transaction; returns the night's id.
    The same form token ``nonce`` again (a double tap on Start) stores nothing and
    returns the night it started. ``started_since``: a night like it started at or after
    this time and not played yet (:func:`just_started`) raises NightStartedAlreadyError,
    checked inside the transaction, so two phones starting one night at once store one."""
    now = store.now()
    with writing(db):
        found = _night_id(db, group_id, nonce)
        if found is not None:
            return found
        if started_since is not None:
            twin = just_started(db, group_id, settings, players, started_since)
            if twin is not None:
                raise NightStartedAlreadyError(*twin)
        night_id = cast(int, db.table("nights").insert({
            "group_id": group_id, "name": settings.name or None, "kind": settings.kind,
            "options": json.dumps(dict(settings.options)), "rounds_planned": settings.rounds_planned,
            "ranking": settings.ranking, "seating": settings.seating, "seed": settings.seed,
            "created_at": now, "nonce": nonce or None}).last_pk)
        for position, name in enumerate(players):
            db.table("night_players").insert({"night_id": night_id, "position": position,
                                              "player_id": _player_id(db, name, group_id, now), "from_round": 1})
        _seat(db, night_id, group_id, 1, first, settings.kind, settings.options, now)
    return night_id


def _seat(db: sqlite_utils.Database, night_id: int, group_id: int, number: int, seating: club.Seating,
          kind: str, options: Mapping[str, Any], now: str) -> list[str]:
    """Round ``number`` as ``seating`` says: each table an ordinary new game of the group
    (players in seat order, seat 0 first to deal), who sits out. Inside a transaction."""
    if db.execute("select 1 from night_rounds where night_id = ? and number = ?", [night_id, number]).fetchone():
        raise RoundSeatedError(number)
    db.table("night_rounds").insert({"night_id": night_id, "number": number, "closed": 0, "closed_early": 0})
    games = []
    for table, names in enumerate(seating.tables, 1):
        game = from_dict({"format": 1, "game": kind, "players": list(names), "first_dealer": 0,
                          "options": dict(options), "deals": []})
        game_id = store.create_game(db, game, group_id=group_id)
        db.table("night_tables").insert({"night_id": night_id, "round": number, "number": table,
                                         "game_id": game_id})
        _table_card(db, group_id, game_id, now)
        games.append(game_id)
    for position, name in enumerate(seating.sitting_out):
        db.table("night_sitting_out").insert({"night_id": night_id, "round": number, "position": position,
                                              "player_id": _player_id(db, name, group_id, now)})
    return games


def _table_card(db: sqlite_utils.Database, group_id: int, game_id: str, now: str) -> str:
    """The table card of a table's game, made as its round is seated (inside the round's
    transaction): a link of its own (groups.TABLE access, 192 random bits like every link)
    that enters deals in that game only while the night runs (docs/club-nights.md, "Table
    cards"). Returns its token."""
    token = groups.new_token()
    db.table("links").insert({"token": token, "group_id": group_id, "game_id": game_id, "access": groups.TABLE,
                              "created_at": now, "revoked_at": None})
    return token


def seat_round(db: sqlite_utils.Database, night_id: int, number: int,
               plan: Callable[[StoredNight], club.Seating]) -> None:
    """Seat round ``number`` of the night as ``plan`` seats it, given the night as it is
    inside the write (so a round reopened, a leaver taken back or a late arrival added
    this instant is either seen whole by the plan or waits for the seating: never half).
    ``plan`` may raise to refuse (nothing stored; its exception goes to the caller). The
    round before is closed first (over by itself: not early) unless closed already.
    Raises RoundSeatedError when it is seated already (nothing stored), NightMovedOnError
    when ``number`` is beyond the next round (not a round a page can show)."""
    now = store.now()
    with writing(db):
        night = get_night(db, night_id)
        if night.next_number > number:
            raise RoundSeatedError(number)
        if night.next_number < number:
            raise NightMovedOnError(number, len(night.rounds))
        seating = plan(night)
        db.execute("update night_rounds set closed = 1, closed_at = ? where night_id = ? and number = ? "
                   "and closed = 0", [now, night_id, number - 1])
        _seat(db, night_id, night.group_id, number, seating, night.kind, night.options, now)


def close_round(db: sqlite_utils.Database, night_id: int, number: int) -> tuple[StoredTable, ...]:
    """Close round ``number``; returns its tables whose game is not over (read inside the
    write): if any, the round is closed early and every table counts the deals it has
    now (a deal saved this instant is in or out, never half), and deals added later
    change nothing in the night (docs/club-nights.md, "A round closed early"). Raises
    RoundClosedError when it was closed already, NightNotFoundError with no such round."""
    with writing(db):
        night = get_night(db, night_id)
        if not 1 <= number <= len(night.rounds):
            raise NightNotFoundError(night_id)
        round_ = night.rounds[number - 1]
        if round_.closed:
            raise RoundClosedError(number)
        unfinished = round_.unfinished
        db.execute("update night_rounds set closed = 1, closed_early = ?, closed_at = ? where night_id = ? "
                   "and number = ?", [int(bool(unfinished)), store.now(), night_id, number])
        if unfinished:
            db.execute("update night_tables set counted = (select count(*) from deals d where "
                       "d.game_id = night_tables.game_id and d.deleted_at is null) "
                       "where night_id = ? and round = ?", [night_id, number])
    return unfinished


class ReopenRefusedError(Exception):
    """Round ``number`` cannot be reopened: ``reason`` as
    night_records.StoredNight.reopen_refusal says it."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(number, reason)
        self.number = number
        self.reason = reason


def reopen_round(db: sqlite_utils.Database, night_id: int, number: int) -> StoredRound:
    """Reopen closed round ``number`` (docs/club-nights.md, "Reopening a round"): it is
    open again, closed early no more, and its tables count every deal they have (deals
    added since the close too). Checked inside the write (StoredNight.reopen_refusal):
    raises ReopenRefusedError when the next round is seated (at the same instant too),
    the round is open already, or every table's game is over. Returns the round as it
    was before reopening."""
    with writing(db):
        night = get_night(db, night_id)
        reason = night.reopen_refusal(number)
        if reason is not None:
            raise ReopenRefusedError(number, reason)
        db.execute("update night_rounds set closed = 0, closed_early = 0, closed_at = null where night_id = ? "
                   "and number = ?", [night_id, number])
        db.execute("update night_tables set counted = null, counted_deleted = null where night_id = ? and round = ?",
                   [night_id, number])
    return night.rounds[number - 1]


class NoNextRoundError(Exception):
    """Every planned round of the night is seated: a late arrival has no round to join."""


@dataclass(frozen=True)
class AddedPlayer:
    """What :func:`add_player` found or wrote: the player's ``name`` as the group spells
    it, the round they join from; ``again``: they were on the night already (unchanged);
    ``back``: a leaver of the night, back from that round."""

    name: str
    from_round: int
    again: bool = False
    back: bool = False


def add_player(db: sqlite_utils.Database, night_id: int, name: str) -> AddedPlayer:
    """A late arrival: ``name`` joins the night from its next round (the rounds seated
    plus one, read inside the write: a round seated this instant is not joined halfway).
    Checked inside the write, so five taps at once add them once: a player of the night
    already (any case: store.name_key) is returned ``again``, unchanged. A leaver of the
    night comes back (``back``) from the next round: the rounds seated since they left
    are their rounds ``away`` (docs/club-nights.md, "Late arrivals and leavers"). Raises
    NoNextRoundError when every planned round is seated (nothing written)."""
    now = store.now()
    with writing(db):
        group_id, planned = db.execute("select group_id, rounds_planned from nights where id = ?",
                                       [night_id]).fetchone()
        seated = int(db.execute("select count(*) from night_rounds where night_id = ?", [night_id]).fetchone()[0])
        from_round = seated + 1
        found = db.execute("select p.name, np.from_round, np.until_round, np.away, np.player_id from night_players np "
                           "join players p on p.id = np.player_id where np.night_id = ? and p.name_key = ?",
                           [night_id, name_key(name)]).fetchone()
        if found is not None and found[2] is None:
            return AddedPlayer(str(found[0]), int(found[1]), again=True)
        if from_round > int(planned):
            raise NoNextRoundError(night_id)
        if found is not None:  # a leaver back: away for the rounds seated since their last
            away = [*json.loads(found[3] or "[]"), *range(int(found[2]) + 1, from_round)]
            db.execute("update night_players set until_round = null, away = ? where night_id = ? and player_id = ?",
                       [json.dumps(away) if away else None, night_id, found[4]])
            return AddedPlayer(str(found[0]), from_round, back=True)
        position = db.execute("select coalesce(max(position), -1) + 1 from night_players where night_id = ?",
                              [night_id]).fetchone()[0]
        player_id = _player_id(db, name, int(group_id), now)
        db.table("night_players").insert({"night_id": night_id, "position": position, "from_round": from_round,
                                          "player_id": player_id})
        shown = db.execute("select name from players where id = ?", [player_id]).fetchone()[0]
    return AddedPlayer(str(shown), from_round)


@dataclass(frozen=True)
class LeavingSet:
    """What :func:`set_leaving` wrote: ``name`` as the group spells it plays until round
    ``until_round``; ``removed``: a late arrival not yet seated, taken off the night."""

    name: str
    until_round: int
    removed: bool = False


def _night_player(db: sqlite_utils.Database, night_id: int, name: str) -> tuple[int, str, int, int | None] | None:
    """(player id, name, from_round, until_round) of the night's player ``name`` (any case)."""
    row = db.execute("select np.player_id, p.name, np.from_round, np.until_round from night_players np "
                     "join players p on p.id = np.player_id where np.night_id = ? and p.name_key = ?",
                     [night_id, name_key(name)]).fetchone()
    return None if row is None else (int(row[0]), str(row[1]), int(row[2]), row[3])


def set_leaving(db: sqlite_utils.Database, night_id: int, name: str, shown_round: int | None = None
                ) -> LeavingSet | None:
    """A leaver: ``name`` plays out the round seated last (read inside the write: a round
    seated this instant is played out, never left halfway) and is not seated after it; a
    late arrival not yet seated is taken off the night. A leaver already is returned
    unchanged. None: not of the night. ``shown_round``: the round the page showed; when
    another round is the last seated now, raises NightMovedOnError, nothing written (an
    old page would else make them leave after a round nobody chose)."""
    with writing(db):
        found = _night_player(db, night_id, name)
        if found is None:
            return None
        player_id, shown, from_round, leaving = found
        until = int(db.execute("select count(*) from night_rounds where night_id = ?", [night_id]).fetchone()[0])
        if shown_round is not None and shown_round != until:
            raise NightMovedOnError(shown_round, until)
        if leaving is not None:  # said already (a double tap): unchanged, never present again in a round gone
            return LeavingSet(shown, int(leaving))
        if until < from_round:
            db.execute("delete from night_players where night_id = ? and player_id = ?", [night_id, player_id])
            return LeavingSet(shown, until, removed=True)
        db.execute("update night_players set until_round = ? where night_id = ? and player_id = ?",
                   [until, night_id, player_id])
    return LeavingSet(shown, until)


class StayRefusedError(Exception):
    """A leaver cannot be taken back: ``reason`` as night_records.StoredNight.stay_refusal
    says it; ``until_round`` their last round (None: not leaving); ``seated`` how many
    rounds are seated (read inside the write: the latest is the one that refused it)."""

    def __init__(self, reason: str, until_round: int | None = None, seated: int = 0) -> None:
        super().__init__(reason, until_round, seated)
        self.reason = reason
        self.until_round = until_round
        self.seated = seated


def set_staying(db: sqlite_utils.Database, night_id: int, name: str, shown_round: int | None = None
                ) -> tuple[str, int]:
    """Take back a leaver (docs/club-nights.md, "Late arrivals and leavers"): ``name``
    stays, seated again from the next round. Checked inside the write
    (StoredNight.stay_refusal): raises StayRefusedError once the round after their last
    is seated (at the same instant too), or when they are not leaving; then, with
    ``shown_round`` (the round the page showed) not the last seated now, raises
    NightMovedOnError. Nothing written when refused. Returns (their name as the group
    spells it, the next round's number)."""
    with writing(db):
        night = get_night(db, night_id)
        reason = night.stay_refusal(name)
        player = night.player(name)
        if reason is not None or player is None:
            raise StayRefusedError(reason or "unknown", None if player is None else player.until_round,
                                   len(night.rounds))
        if shown_round is not None and shown_round != len(night.rounds):
            raise NightMovedOnError(shown_round, len(night.rounds))
        db.execute("update night_players set until_round = null where night_id = ? and player_id = "
                   "(select id from players where group_id = ? and name_key = ?)",
                   [night_id, night.group_id, name_key(player.name)])
    return player.name, night.next_number


def _same_night(db: sqlite_utils.Database, group_id: int, kind: str, seed: int, keys: Sequence[str],
                leave_out: int | None = None) -> int | None:
    """The id of a night of group ``group_id`` in play (not deleted; ``leave_out``: not
    this one) with game ``kind``, draw ``seed`` and players ``keys`` (name keys, in the
    night's order): the same night, imported or restored twice; or None."""
    for (twin,) in db.execute("select id from nights where group_id = ? and kind = ? and seed = ? "
                              "and deleted_at is null and id is not ?", [group_id, kind, seed, leave_out]).fetchall():
        theirs = [name_key(r[0]) for r in db.execute(
            "select p.name from night_players np join players p on p.id = np.player_id where np.night_id = ? "
            "order by np.position", [twin])]
        if theirs == list(keys):
            return int(twin)
    return None


def import_night(db: sqlite_utils.Database, night: NightFile, group_id: int, *, nonce: str | None = None) -> int:
    """Store a checked night file (nightfile.read_night) in group ``group_id`` in one
    transaction: the night, its players, and each round's tables as imported games and
    who sat out; every table or none. A table whose game the group holds already, in no
    night, with the same deals or played on since (the group's file imported first:
    store.identical_game), has that game as its table, not a second copy counted beside it. Returns the night's id (the same upload again,
    ``nonce``: the night it stored). Raises NightStoredError when the group has this
    night already (the same game, draw and players: checked inside the write)."""
    now = store.now()
    rules = night.kind
    with writing(db):
        found = _night_id(db, group_id, nonce)
        if found is not None:
            return found
        keys = [name_key(p.name) for p in night.players]
        twin = _same_night(db, group_id, night.kind, night.seed, keys)
        if twin is not None:
            raise NightStoredError(twin)
        night_id = cast(int, db.table("nights").insert({
            "group_id": group_id, "name": night.name, "kind": night.kind,
            "options": json.dumps(get_rules(rules).dump_options(night.options)),
            "rounds_planned": night.rounds_planned, "ranking": night.ranking, "seating": night.seating,
            "seed": night.seed, "created_at": now, "nonce": nonce or None, "imported": 1}).last_pk)
        for position, player in enumerate(night.players):
            db.table("night_players").insert({
                "night_id": night_id, "position": position, "player_id": _player_id(db, player.name, group_id, now),
                "from_round": player.from_round, "until_round": player.until_round,
                "away": json.dumps(list(player.away)) if player.away else None})
        for round_ in night.rounds:
            db.table("night_rounds").insert({"night_id": night_id, "number": round_.number,
                                             "closed": int(round_.closed), "closed_early": int(round_.closed_early),
                                             "closed_at": now if round_.closed else None})
            for table in round_.tables:
                # the table's game imported before with the group's file (played on since,
                # when the group's file is the newer: the table is that game)
                data = table.game.to_dict()
                game_id = store.identical_game(db, data, group_id, played_on=bool(data["deals"]), free=True) \
                    or store.create_game(db, table.game, group_id=group_id, imported=True)
                db.table("night_tables").insert({"night_id": night_id, "round": round_.number,
                                                 "number": table.table, "game_id": game_id,
                                                 "counted": table.counted})
                _table_card(db, group_id, game_id, now)
            for position, name in enumerate(round_.sitting_out):
                db.table("night_sitting_out").insert({"night_id": night_id, "round": round_.number,
                                                      "position": position,
                                                      "player_id": _player_id(db, name, group_id, now)})
    return night_id


# ------------------------------------------------------------------------- reading


def _games(db: sqlite_utils.Database, game_ids: Sequence[str]) -> dict[str, tuple[Any, bool]]:
    """The tables' games by id, deleted ones too ((game, deleted))."""
    out: dict[str, tuple[Any, bool]] = {}
    for game_id in game_ids:
        try:
            out[game_id] = (store.get_game(db, game_id), False)
        except store.GameDeletedError as gone:
            out[game_id] = (gone.game, True)
    return out


def get_night(db: sqlite_utils.Database, night_id: int, group_id: int | None = None) -> StoredNight:
    """The night with its players, rounds, tables (each with its game) and sit-outs;
    raises NightNotFoundError (also for a night of another group than ``group_id``)."""
    rows = list(db.query("select * from nights where id = ?", [night_id]))
    if not rows:
        raise NightNotFoundError(night_id)
    night = rows[0]
    if group_id is not None and night["group_id"] != group_id:
        raise NightNotFoundError(night_id)
    players = tuple(NightPlayer(r[0], r[1], r[2], tuple(json.loads(r[3] or "[]"))) for r in db.execute(
        "select p.name, np.from_round, np.until_round, np.away from night_players np "
        "join players p on p.id = np.player_id where np.night_id = ? order by np.position", [night_id]))
    tables = list(db.execute("select round, number, game_id, counted from night_tables where night_id = ? "
                             "order by round, number", [night_id]))
    games = _games(db, [t[2] for t in tables])
    out_rows = list(db.execute(
        "select so.round, p.name from night_sitting_out so join players p on p.id = so.player_id "
        "where so.night_id = ? order by so.round, so.position", [night_id]))
    rounds = []
    for number, closed, early in db.execute("select number, closed, closed_early from night_rounds "
                                            "where night_id = ? order by number", [night_id]):
        rounds.append(StoredRound(
            number=number,
            tables=tuple(StoredTable(t[0], t[1], games[t[2]][0], t[3], games[t[2]][1]) for t in tables
                         if t[0] == number),
            sitting_out=tuple(name for r, name in out_rows if r == number),
            closed=bool(closed), closed_early=bool(early)))
    return StoredNight(id=night["id"], group_id=night["group_id"], name=night["name"], kind=night["kind"],
                       options=json.loads(night["options"]), rounds_planned=night["rounds_planned"],
                       ranking=night["ranking"], seating=night["seating"], seed=night["seed"],
                       created_at=night["created_at"], players=players, rounds=tuple(rounds),
                       imported=bool(night["imported"]), deleted_at=night.get("deleted_at"))


@dataclass(frozen=True)
class NightListed:
    """A night in the group's list: its id, name, kind, start (UTC ISO 8601), players,
    rounds seated and planned."""

    id: int
    name: str | None
    kind: str
    created_at: str
    players: int
    rounds: int
    rounds_planned: int


def list_nights(db: sqlite_utils.Database, group_id: int, *, since: str | None = None, before: str | None = None,
                kind: str | None = None) -> list[NightListed]:
    """The group's nights, the latest first: started at or after ``since`` and before
    ``before`` (UTC ISO 8601 moments, as stored) and of ``kind`` only when given; not the
    deleted ones (:func:`deleted_nights`)."""
    filters = [(since, "n.created_at >= ?"), (before, "n.created_at < ?"), (kind, "n.kind = ?")]
    where = "".join(f" and {clause}" for value, clause in filters if value is not None)
    return [NightListed(*row[:7]) for row in _listed(
        db, f"n.deleted_at is null{where} order by n.created_at desc, n.id desc",
        [group_id, *(value for value, _ in filters if value is not None)])]


def _listed(db: sqlite_utils.Database, where: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """The rows of a list of nights: a :class:`NightListed`'s fields, then when it was
    deleted; of the group (the first of ``params``) and ``where`` (SQL on ``n``)."""
    return db.execute(
        "select n.id, n.name, n.kind, n.created_at, "
        "(select count(*) from night_players p where p.night_id = n.id), "
        "(select count(*) from night_rounds r where r.night_id = n.id), n.rounds_planned, n.deleted_at "
        f"from nights n where n.group_id = ? and {where}", params).fetchall()


def deleted_nights(db: sqlite_utils.Database, group_id: int) -> list[tuple[NightListed, str]]:
    """The group's deleted nights, the latest deleted first, each with when it was
    deleted: what "Deleted nights" offers to restore."""
    return [(NightListed(*row[:7]), row[7]) for row in _listed(
        db, "n.deleted_at is not null order by n.deleted_at desc, n.id desc", [group_id])]


class NightDeletedError(Exception):
    """The night was deleted already (a double tap, two phones at once): nothing written."""


class NightNotDeletedError(Exception):
    """The night is not deleted (restored already: a double tap, two phones at once)."""


class NightChangedError(Exception):
    """The night's tables hold another number of deals than the page that asked showed
    (``deals``, as now): nothing written."""

    def __init__(self, deals: int) -> None:
        super().__init__(f"{deals} deals now")
        self.deals = deals


def night_deals(night: StoredNight) -> int:
    """The deals in play at every table of ``night``."""
    return sum(len(table.game.deals) for round_ in night.rounds for table in round_.tables if not table.deleted)


def delete_night(db: sqlite_utils.Database, night_id: int, group_id: int, expected_deals: int | None = None
                 ) -> StoredNight:
    """Delete night ``night_id`` of group ``group_id`` softly, with its tables' games (a
    night started by mistake): the night leaves the nights list and the season, each of
    its tables' games is deleted as a game is (store.delete_game: every list and
    statistic forgets it, its deals and history kept), and :func:`restore_night` puts
    them all back. One transaction, checked inside it: raises NightNotFoundError (no such
    night in the group), NightDeletedError (deleted already), NightChangedError (its
    tables hold another number of deals than ``expected_deals``, what the question
    showed; None: not checked). Returns the night as it was deleted."""
    with writing(db):
        night = get_night(db, night_id, group_id)  # raises NightNotFoundError
        if night.deleted_at is not None:
            raise NightDeletedError(night_id)
        if expected_deals is not None and night_deals(night) != expected_deals:
            raise NightChangedError(night_deals(night))
        now = store.now()
        db.execute("update nights set deleted_at = ? where id = ?", [now, night_id])
        for round_ in night.rounds:
            for table in round_.tables:
                if not table.deleted:
                    store.delete_game(db, table.game.id, with_night=True)
    return get_night(db, night_id)


def restore_night(db: sqlite_utils.Database, night_id: int, group_id: int) -> StoredNight:
    """Put a deleted night back whole, its tables' games with it (store.restore_game): it
    counts again in the nights list, the season and every statistic. One transaction,
    checked inside it: raises NightNotFoundError, NightNotDeletedError (in play already),
    NightStoredError (the same night, its draw and players, is in play by now: imported
    again since it was deleted), store.DuplicateGameError (a table's game with deals is
    in play twice by now): nothing restored. Returns the night as it is back."""
    with writing(db):
        night = get_night(db, night_id, group_id)
        if night.deleted_at is None:
            raise NightNotDeletedError(night_id)
        twin = _same_night(db, group_id, night.kind, night.seed, [name_key(p.name) for p in night.players],
                           leave_out=night_id)
        if twin is not None:
            raise NightStoredError(twin)
        db.execute("update nights set deleted_at = null where id = ?", [night_id])
        for round_ in night.rounds:
            for table in round_.tables:
                if table.deleted:
                    store.restore_game(db, table.game.id, with_night=True)
    return get_night(db, night_id)


@dataclass(frozen=True)
class TableOf:
    """Where a game sits in a night: ``night_id``, its name, ``round`` and ``table``;
    ``closed``: that round is closed, so deals added to the game now count for nothing in
    the night (docs/club-nights.md: a round's games count as they stood when it closed)."""

    night_id: int
    name: str | None
    round: int
    table: int
    closed: bool = False


def table_of(db: sqlite_utils.Database, game_id: str) -> TableOf | None:
    """The night, round and table game ``game_id`` is, or None (an ordinary game)."""
    row = db.execute("select t.night_id, n.name, t.round, t.number, coalesce(r.closed, 0) from night_tables t "
                     "join nights n on n.id = t.night_id left join night_rounds r "
                     "on r.night_id = t.night_id and r.number = t.round where t.game_id = ?", [game_id]).fetchone()
    return None if row is None else TableOf(row[0], row[1], row[2], row[3], closed=bool(row[4]))


def tables_of(db: sqlite_utils.Database, game_ids: Sequence[str]) -> dict[str, TableOf]:
    """Which of ``game_ids`` are tables of a club night: {game id: :class:`TableOf`}
    (one indexed query for a page of games)."""
    if not game_ids:
        return {}
    marks = ",".join("?" * len(game_ids))
    return {row[0]: TableOf(row[1], row[2], row[3], row[4], closed=bool(row[5])) for row in db.execute(
        f"select t.game_id, t.night_id, n.name, t.round, t.number, coalesce(r.closed, 0) from night_tables t "
        f"join nights n on n.id = t.night_id left join night_rounds r "
        f"on r.night_id = t.night_id and r.number = t.round where t.game_id in ({marks})", list(game_ids))}


def night_group(db: sqlite_utils.Database, night_id: int) -> int | None:
    """The group of night ``night_id`` (one indexed look-up), or None: no such night."""
    row = db.execute("select group_id from nights where id = ?", [night_id]).fetchone()
    return None if row is None else int(row[0])


def night_of_link(db: sqlite_utils.Database, token: str, night_id: int) -> bool:
    """Whether night ``night_id`` is one of the group of the working (not replaced) link
    ``token``: one indexed look-up, for the big screen's quick poll (views/live.py)."""
    return db.execute("select 1 from links l join nights n on n.group_id = l.group_id "
                      "where l.token = ? and l.revoked_at is null and n.id = ?", [token, night_id]).fetchone() is not None


def rounds_state(db: sqlite_utils.Database, group_id: int) -> tuple[int, int]:
    """What of the group's nights a games list shows besides the games themselves: (rounds
    seated, rounds closed) over its nights not deleted. A round closed or reopened changes
    no game, so the group's version (groups.version) stays; the pages kept per version
    key on this too (views/pages.py), or a closed round's tables stayed under "carry on"
    (tester 68). One indexed query."""
    row = db.execute("select count(*), coalesce(sum(r.closed), 0) from night_rounds r join nights n "
                     "on n.id = r.night_id where n.group_id = ? and n.deleted_at is null", [group_id]).fetchone()
    return int(row[0]), int(row[1])


def night_version(db: sqlite_utils.Database, night_id: int) -> str:
    """A short fingerprint of everything the night's pages show: its rows, and the latest
    change of any of its tables' games (a deal saved at a table changes it). One query
    per table of the night's rows; nothing scored."""
    parts = [
        list(db.execute("select name, rounds_planned, ranking from nights where id = ?", [night_id])),
        list(db.execute("select player_id, from_round, until_round, away from night_players where night_id = ? "
                        "order by position", [night_id])),
        list(db.execute("select number, closed, closed_early from night_rounds where night_id = ? order by number",
                        [night_id])),
        list(db.execute("select round, number, game_id, counted from night_tables where night_id = ? "
                        "order by round, number", [night_id])),
        list(db.execute("select coalesce(max(c.id), 0) from changes c where c.game_id in "
                        "(select game_id from night_tables where night_id = ?)", [night_id])),
        list(db.execute("select p.name from night_players np join players p on p.id = np.player_id "
                        "where np.night_id = ? order by np.position", [night_id])),
    ]
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:16]

