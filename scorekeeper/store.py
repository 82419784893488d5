"""Every read and write of players, games and deals (SQLite through sqlite-utils).

No Flask here: each function takes the ``sqlite_utils.Database``. What is stored is what
the table saw — deal entries exactly as the game file has them — never points; callers
score on read (gamefile.GameFile.score), so a rules fix corrects old games too.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlite_utils

from . import gamefile
from .gamefile import GameFile


class NotFoundError(LookupError):
    """No game (or no deal in that game) with that id."""


@contextmanager
def writing(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """A write transaction that takes the write lock at once (BEGIN IMMEDIATE), so two
    phones saving at the same moment wait for each other (busy timeout) instead of one
    failing with "database is locked" when its read turns into a write."""
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.rollback()
        raise
    db.conn.commit()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def name_key(name: str) -> str:
    """The key under which a player's name is unique: trimmed, spaces folded, casefolded."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class StoredDeal:
    """One deal as stored: ``entry`` is the game file's deal object; ``position`` its
    place in the order of play (0-based)."""

    id: int
    position: int
    entry: dict[str, Any]


@dataclass(frozen=True)
class StoredGame:
    """One game as stored: names in playing order, options and deal entries as the game
    file has them; times are UTC ISO 8601 strings."""

    id: str
    kind: str
    players: tuple[str, ...]
    first_dealer: int
    options: dict[str, Any]
    deals: tuple[StoredDeal, ...]
    created_at: str
    updated_at: str

    def to_dict(self, entries: Iterable[Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The game file dict, with ``entries`` in place of the stored deals if given."""
        return {
            "format": gamefile.FORMAT,
            "game": self.kind,
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "options": self.options,
            "deals": [d.entry for d in self.deals] if entries is None else list(entries),
        }

    def game_file(self, entries: Iterable[Mapping[str, Any]] | None = None) -> GameFile:
        """Parse the stored game (or it with other deal entries); raises RuleError."""
        return gamefile.from_dict(self.to_dict(entries))

    def deal_index(self, deal_id: int) -> int:
        """The 0-based index of deal ``deal_id``; raises NotFoundError."""
        for index, deal in enumerate(self.deals):
            if deal.id == deal_id:
                return index
        raise NotFoundError(f"no deal {deal_id} in game {self.id}")


def _player_id(db: sqlite_utils.Database, name: str, now: str) -> int:
    """The id of the player called ``name`` (any case), created if new."""
    name = " ".join(name.split())
    key = name_key(name)
    rows = list(db["players"].rows_where("name_key = ?", [key], limit=1))
    if rows:
        return rows[0]["id"]
    return db["players"].insert({"name": name, "name_key": key, "created_at": now}).last_pk


def create_game(db: sqlite_utils.Database, game: GameFile, nonce: str | None = None) -> str:
    """Store a whole game (players, settings, deals) in one transaction; returns its
    random id. The caller has checked ``game`` (gamefile.from_dict and score).

    ``nonce`` is the form's one-time token: if a game was already made with it (a double
    tap on Start), nothing is added and that game's id is returned.
    """
    now = _now()
    game_id = secrets.token_urlsafe(9)
    data = game.to_dict()
    with writing(db):
        if nonce:
            rows = list(db["games"].rows_where("nonce = ?", [nonce], limit=1))
            if rows:
                return rows[0]["id"]
        player_ids = [_player_id(db, name, now) for name in game.players]
        db["games"].insert({
            "id": game_id, "kind": game.kind, "first_dealer": game.first_dealer,
            "options": json.dumps(data["options"]), "created_at": now, "updated_at": now,
            "nonce": nonce or None,
        })
        db["game_players"].insert_all(
            {"game_id": game_id, "seat": seat, "player_id": pid} for seat, pid in enumerate(player_ids)
        )
        db["deals"].insert_all(
            {"game_id": game_id, "position": pos, "entry": json.dumps(entry),
             "nonce": None, "created_at": now, "updated_at": now}
            for pos, entry in enumerate(data["deals"])
        )
    return game_id


def _games(db: sqlite_utils.Database, where: str = "", params: list[Any] | None = None) -> list[StoredGame]:
    games = list(db.query(f"select * from games {where} order by created_at desc, rowid desc", params or []))
    if not games:
        return []
    ids = [g["id"] for g in games]
    marks = ",".join("?" * len(ids))
    names: dict[str, list[str]] = defaultdict(list)
    for row in db.query(
        f"select gp.game_id, p.name from game_players gp join players p on p.id = gp.player_id "
        f"where gp.game_id in ({marks}) order by gp.game_id, gp.seat", ids
    ):
        names[row["game_id"]].append(row["name"])
    deals: dict[str, list[StoredDeal]] = defaultdict(list)
    for row in db.query(
        f"select id, game_id, position, entry from deals where game_id in ({marks}) "
        f"order by game_id, position", ids
    ):
        deals[row["game_id"]].append(StoredDeal(row["id"], row["position"], json.loads(row["entry"])))
    return [
        StoredGame(
            id=g["id"], kind=g["kind"], players=tuple(names[g["id"]]), first_dealer=g["first_dealer"],
            options=json.loads(g["options"]), deals=tuple(deals[g["id"]]),
            created_at=g["created_at"], updated_at=g["updated_at"],
        )
        for g in games
    ]


def get_game(db: sqlite_utils.Database, game_id: str) -> StoredGame:
    """The game with id ``game_id``; raises NotFoundError."""
    found = _games(db, "where id = ?", [game_id])
    if not found:
        raise NotFoundError(f"no game {game_id!r}")
    return found[0]


def list_games(db: sqlite_utils.Database) -> list[StoredGame]:
    """Every game, newest first."""
    return _games(db)


def known_players(db: sqlite_utils.Database) -> list[str]:
    """Every stored player's name, most recently seated first."""
    return [row["name"] for row in db.query(
        "select p.name, max(g.created_at) as last from players p "
        "left join game_players gp on gp.player_id = p.id left join games g on g.id = gp.game_id "
        "group by p.id order by last desc, p.name_key"
    )]


def last_players(db: sqlite_utils.Database, kind: str) -> list[str]:
    """The players of the newest game of ``kind``, in playing order (the same group
    usually sits down again); empty if there is none."""
    return [row["name"] for row in db.query(
        "select p.name from game_players gp join players p on p.id = gp.player_id "
        "where gp.game_id = (select id from games where kind = ? order by created_at desc, rowid desc limit 1) "
        "order by gp.seat", [kind])]


def _touch(db: sqlite_utils.Database, game_id: str, now: str) -> None:
    db["games"].update(game_id, {"updated_at": now})


def add_deal(db: sqlite_utils.Database, game_id: str, entry: Mapping[str, Any],
             nonce: str | None = None) -> int:
    """Append a deal entry to the game; returns the deal's id.

    ``nonce`` is the form's one-time token: if a deal was already saved with it (a double
    tap, a resent form), nothing is added and that deal's id is returned.
    """
    now = _now()
    try:
        return _insert_deal(db, game_id, entry, nonce, now)
    except sqlite3.IntegrityError:  # the same form saved at the same moment by a second tap
        if nonce:
            rows = list(db["deals"].rows_where("nonce = ?", [nonce], limit=1))
            if rows:
                return rows[0]["id"]
        raise


def _insert_deal(db: sqlite_utils.Database, game_id: str, entry: Mapping[str, Any],
                 nonce: str | None, now: str) -> int:
    with writing(db):
        if nonce:
            rows = list(db["deals"].rows_where("nonce = ?", [nonce], limit=1))
            if rows:
                return rows[0]["id"]
        position = db.execute(
            "select coalesce(max(position) + 1, 0) from deals where game_id = ?", [game_id]
        ).fetchone()[0]
        deal_id = db["deals"].insert({
            "game_id": game_id, "position": position, "entry": json.dumps(dict(entry)),
            "nonce": nonce, "created_at": now, "updated_at": now,
        }).last_pk
        _touch(db, game_id, now)
    return deal_id


def deal_for_nonce(db: sqlite_utils.Database, nonce: str | None) -> int | None:
    """The id of the deal already saved with this form token, or None."""
    if not nonce:
        return None
    rows = list(db["deals"].rows_where("nonce = ?", [nonce], limit=1))
    return rows[0]["id"] if rows else None


def update_deal(db: sqlite_utils.Database, game_id: str, deal_id: int, entry: Mapping[str, Any]) -> None:
    """Replace a deal's entry, keeping its place; raises NotFoundError."""
    now = _now()
    with writing(db):
        if not db["deals"].count_where("id = ? and game_id = ?", [deal_id, game_id]):
            raise NotFoundError(f"no deal {deal_id} in game {game_id}")
        db["deals"].update(deal_id, {"entry": json.dumps(dict(entry)), "updated_at": now})
        _touch(db, game_id, now)


def delete_deal(db: sqlite_utils.Database, game_id: str, deal_id: int) -> None:
    """Delete a deal; later deals keep their order; raises NotFoundError."""
    now = _now()
    with writing(db):
        if not db["deals"].count_where("id = ? and game_id = ?", [deal_id, game_id]):
            raise NotFoundError(f"no deal {deal_id} in game {game_id}")
        db.execute("delete from deals where id = ?", [deal_id])
        _touch(db, game_id, now)


# --- who sat where (statistics and the past-games filters) ---------------------------


def player_names(db: sqlite_utils.Database) -> dict[int, str]:
    """Every stored player's name by id (the players table's id), in name order."""
    return {row["id"]: row["name"] for row in db.query("select id, name from players order by name_key")}


def player_seats(db: sqlite_utils.Database) -> dict[str, tuple[int, ...]]:
    """Each game's player ids by seat (in playing order): {game id: (player id, …)}.

    Pairs with :func:`list_games`, whose ``players`` are the same seats' names."""
    seats: dict[str, list[int]] = defaultdict(list)
    for row in db.query("select game_id, player_id from game_players order by game_id, seat"):
        seats[row["game_id"]].append(row["player_id"])
    return {game_id: tuple(ids) for game_id, ids in seats.items()}
