"""The benchmark's databases, built through the app's own import path and cached.

Every game goes through ``gamefile.from_dict`` and ``GameFile.score`` (it must score, and a
"finished" game must be finished) and is stored with ``store.create_game`` on a database
made by ``db.connect`` + ``db.migrate`` — exactly what ``scorekeeper import`` does. The
store's clock is set to each game's date while it is stored (create_game stamps "now"), so
that the games are spread over three years, oldest first, as a club's would be.

A database of ``n`` finished games holds: ``n`` finished games (about half Trigami to 500,
half Trix of four kingdoms = 20 deals), 12 players in varying seats, plus one unfinished
Trigami game of 200 deals (target 100000: it never ends), as a long game at the table.
The 2,000-deal game lives in a database of its own (``long``: 10 finished games + it), so
that it does not weigh on every list page of the small databases.

Built databases are kept in bench/.cache/, keyed by what they hold and by the code that
writes them (scorekeeper/ outside views/, and this file): a change there rebuilds them.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CACHE = HERE / ".cache"

PLAYERS = ["Anna", "Ben", "Carla", "Dan", "Eva", "Filip", "Greta", "Hugo", "Ines", "Jonas",
           "Katja", "Lars"]

# Trix: one kingdom as in tests/test_gamefile.py (TRIX_KINGDOM; SCORING.md §2); the
# contracts of each kingdom are played in a shuffled order (free choice).
TRIX_KINGDOM: list[dict[str, Any]] = [
    {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1, "leader": None}},
    {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1}, "H": {"taker": 0},
                                         "D": {"taker": 2}, "C": {"taker": 3}}},
    {"contracts": ["diamonds"], "diamonds": [3, 4, 2, 4]},
    {"contracts": ["tricks"], "tricks": [3, 3, 4, 3]},
    {"contracts": ["trix"], "trix": [2, 0, 3, 1]},
]

# Trigami: the worked example of SCORING.md §1.2 (80, 200, 13: the Doublets bid scores
# 200), rotated so that any seat can take the 200; and a plain deal (100, 80, 80).
WORKED = {"turnip": "D",
          "bids": [{"kind": "turnip"}, {"kind": "doublets", "suit": "S"}, {"kind": "plain", "suit": "H"}],
          "tricks": [4, 5, 4], "bugs": [1, 0, 3]}
PLAIN = {"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [5, 4, 4], "bugs": [0, 0, 0]}
PLAIN_OTHER = {"bids": [{"kind": "plain", "suit": s} for s in "CSH"], "tricks": [3, 6, 4], "bugs": [1, 2, 2]}
# Low-scoring deals (many bugs: 5 or 6 points each), so that a game of 2,000 deals stays
# under the highest target (100,000) and never ends.
LOW = [{"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [4, 5, 4], "bugs": [8, 10, 8]},
       {"bids": [{"kind": "plain", "suit": s} for s in "HCS"], "tricks": [6, 4, 3], "bugs": [10, 8, 6]}]


def _rotate(deal: dict[str, Any], by: int) -> dict[str, Any]:
    """The deal with every per-seat list shifted by ``by`` seats (seat s gets seat s-by's)."""
    def shift(values: list[Any]) -> list[Any]:
        return values[-by:] + values[:-by] if by else list(values)
    return {**deal, "bids": shift(deal["bids"]), "tricks": shift(deal["tricks"]), "bugs": shift(deal["bugs"])}


def trigami_finished(rng: random.Random) -> dict[str, Any]:
    """A finished Trigami game to 500: a few ordinary deals, then one player's Doublets
    of 200 until the game is over (checked by scoring after each deal)."""
    from scorekeeper.gamefile import from_dict

    winner = rng.randrange(3)
    data: dict[str, Any] = {"format": 1, "game": "trigami", "players": rng.sample(PLAYERS, 3),
            "first_dealer": rng.randrange(3), "options": {"target": 500},
            "deals": [_rotate(rng.choice((PLAIN, PLAIN_OTHER)), rng.randrange(3))
                      for _ in range(rng.randrange(0, 3))]}
    while not from_dict(data).score().finished:
        data["deals"].append(_rotate(WORKED, (winner - 1) % 3))
    return data


def _renumber(deal: dict[str, Any], seat: list[int]) -> dict[str, Any]:
    """A Trix deal with seat s played by seat[s] (a permutation: the same deal, other people)."""
    out: dict[str, Any] = {"contracts": deal["contracts"]}
    for name in deal["contracts"]:
        block = deal[name]
        if name == "king":
            out[name] = {k: (None if v is None else seat[v]) for k, v in block.items()}
        elif name == "queens":
            out[name] = {suit: {k: (None if v is None else seat[v]) for k, v in q.items()}
                         for suit, q in block.items()}
        elif name == "trix":
            out[name] = [seat[s] for s in block]
        else:  # counts per seat
            counts = [0] * 4
            for s, count in enumerate(block):
                counts[seat[s]] = count
            out[name] = counts
    return out


def trix_finished(rng: random.Random) -> dict[str, Any]:
    """A finished Trix game: four kingdoms of five contracts, each in a shuffled order,
    the whole game played by a shuffled seating."""
    seat = rng.sample(range(4), 4)
    deals = []
    for _kingdom in range(4):
        kingdom = list(TRIX_KINGDOM)
        rng.shuffle(kingdom)
        deals += [_renumber(d, seat) for d in kingdom]
    return {"format": 1, "game": "trix", "players": rng.sample(PLAYERS, 4),
            "first_dealer": rng.randrange(4), "options": {}, "deals": deals}


def trigami_long(deals: int, rng: random.Random) -> dict[str, Any]:
    """An unfinished Trigami game of ``deals`` deals (target 100000: it never ends)."""
    return {"format": 1, "game": "trigami", "players": ["Anna", "Ben", "Carla"], "first_dealer": 0,
            "options": {"target": 100000},
            "deals": [_rotate(rng.choice((PLAIN, PLAIN_OTHER, WORKED) if n % 8 == 0 else LOW),
                              rng.randrange(3)) for n in range(deals)]}


@dataclass
class Dataset:
    """A built database and the ids the benchmark asks for."""

    path: str
    games: int  # finished games
    trix20: str  # a finished 20-deal Trix game
    long_game: str  # the unfinished long Trigami game (200 deals; 2,000 in "long")
    long_deals: int
    player_id: int  # the player seated most often
    player_name: str

    def copy_to(self, folder: Path) -> Dataset:
        """This dataset's database copied into ``folder`` (the server may migrate and
        write to its copy; the cache stays as built)."""
        target = folder / Path(self.path).name
        shutil.copyfile(self.path, target)
        return Dataset(**{**asdict(self), "path": str(target)})


def _code_key() -> str:
    """A hash of the code that writes a database: the app's modules outside views/ (the
    store, its migrations and whatever they keep up to date, the rules, the game file)
    and this file."""
    digest = hashlib.sha256()
    package = ROOT / "scorekeeper"
    files = sorted(path for path in package.rglob("*.py") if "views" not in path.relative_to(package).parts)
    for path in [*files, Path(__file__)]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def build(games: int, long_deals: int = 200, log: Any = print) -> Dataset:
    """The database of ``games`` finished games and one unfinished game of ``long_deals``
    deals, from the cache or built now."""
    CACHE.mkdir(parents=True, exist_ok=True)
    stem = f"games{games}-long{long_deals}-{_code_key()}"
    db_path, meta_path = CACHE / f"{stem}.sqlite3", CACHE / f"{stem}.json"
    if db_path.exists() and meta_path.exists():
        return Dataset(**json.loads(meta_path.read_text()))
    for old in CACHE.glob(f"games{games}-long{long_deals}-*"):  # built by older code
        old.unlink()

    from scorekeeper import store
    from scorekeeper.db import connect, migrate
    from scorekeeper.gamefile import from_dict

    log(f"building the database of {games} games + a {long_deals}-deal game (cached in bench/.cache/)…")
    tmp = db_path.with_suffix(".building")
    for leftover in CACHE.glob(tmp.name + "*"):
        leftover.unlink()
    rng = random.Random(games * 7919 + long_deals)
    db = connect(str(tmp))
    built = False
    try:
        migrate(db)
        ids: list[str] = []
        trix20 = None
        games_data = [trix_finished(rng) if n % 2 else trigami_finished(rng) for n in range(games)]
        stamps = _dates(games + 1, rng)
        clock = _Clock(store)
        with store.writing(db), clock:  # one transaction: create_game's own nests inside it
            for n, data in enumerate(games_data):
                game = from_dict(data)
                if not game.score().finished:
                    raise AssertionError(f"bench game {n} does not finish: {data}")
                clock.at = stamps[n]
                ids.append(store.create_game(db, game))
                if data["game"] == "trix":
                    trix20 = ids[-1]
            long_game = from_dict(trigami_long(long_deals, rng))
            if long_game.score().finished:
                raise AssertionError("the long game must not finish")
            clock.at = stamps[-1]
            ids.append(store.create_game(db, long_game))
            if not clock.used:
                _set_dates(db, ids, stamps)
        if trix20 is None:
            raise ValueError("at least 2 games are needed for a Trix game")
        row = next(db.query(
            "select p.id, p.name, count(*) as n from game_players gp join players p on p.id = gp.player_id "
            "group by p.id order by n desc, p.id limit 1"))
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        built = True
    finally:
        db.conn.close()
        if not built:
            for leftover in CACHE.glob(tmp.name + "*"):
                leftover.unlink()
    tmp.rename(db_path)
    for leftover in CACHE.glob(tmp.name + "-*"):  # -wal, -shm
        leftover.unlink()
    dataset = Dataset(path=str(db_path), games=games, trix20=trix20, long_game=ids[-1],
                      long_deals=long_deals, player_id=row["id"], player_name=row["name"])
    meta_path.write_text(json.dumps(asdict(dataset), indent=2))
    return dataset


def _dates(count: int, rng: random.Random) -> list[str]:
    """``count`` times over the last three years, oldest first (UTC ISO 8601, as the
    store writes them); the last one two hours ago: the long game, still at the table."""
    end = datetime.now(UTC).replace(microsecond=0)
    start = end - timedelta(days=3 * 365)
    step = (end - start) / max(count, 1)
    stamps = [start + step * n + timedelta(minutes=rng.randrange(0, 180)) for n in range(count)]
    stamps[-1] = end - timedelta(hours=2)
    return [at.isoformat(timespec="seconds") for at in stamps]


class _Clock:
    """The store's clock (``store._now``) set to ``at`` while the games are stored, so
    that every time create_game writes — the game's, its deals', its change's, and
    whatever is kept up to date from them — is that game's date, as if it had been
    entered then. Without such a hook, :func:`_set_dates` moves the dates afterwards."""

    def __init__(self, store: Any) -> None:
        self.store, self.at, self.used, self.saved = store, "", False, None

    def __enter__(self) -> _Clock:
        if callable(getattr(self.store, "_now", None)):
            self.saved = self.store._now
            self.store._now = self._now
        return self

    def _now(self) -> str:
        self.used = True
        return self.at

    def __exit__(self, *exc: Any) -> None:
        if self.saved is not None:
            self.store._now = self.saved


def _set_dates(db: Any, ids: list[str], stamps: list[str]) -> None:
    """The fallback: each game's stored times moved to its date with SQL (the game, its
    deals and its recorded changes)."""
    db.conn.executemany("update games set created_at = ?, updated_at = ? where id = ?",
                        [(at, at, game_id) for game_id, at in zip(ids, stamps, strict=True)])
    db.conn.executemany("update deals set created_at = ?, updated_at = ? where game_id = ?",
                        [(at, at, game_id) for game_id, at in zip(ids, stamps, strict=True)])
    db.conn.executemany("update changes set at = ? where game_id = ?", list(zip(stamps, ids, strict=True)))
