"""What the lists show of each game, kept up to date when a game changes.

The home page, the past-games filters and the players list must not score every stored
game on every request (a club has thousands). So each write (store.py) refreshes, inside
its own transaction, the game's summary: kind, start, whether it is over, its totals,
winners and leaders, its number of deals and the first deal that no longer fits
(``game_summaries``, ``seat_results``), and the record of each player in it
(``player_records``: games played, finished, won, the last one). Lists then read these
rows with SQL, a page at a time. The store imports nothing of this: db.connect hands
:func:`refresh_written` to store.after_write, which calls it inside every write.

Points are still never the record: a summary is worked out from the deal entries
(sheet.build), exactly as the score sheet is, and carries the fingerprint of the rules
that scored it (:data:`RULES`); after a rules fix, :func:`refresh_stale` works every
summary out again on start-up, so a fix corrects the lists too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any

import sqlite_utils

from . import sheet as sheets
from . import stats, store
from .records import FinishedGame, StoredGame
from .rules import KINDS, RuleError, get_rules
from .store import get_game, writing


def _rules_fingerprint() -> str:
    digest = hashlib.sha256()
    here = Path(__file__).parent
    for path in [*sorted((here / "rules").glob("*.py")), here / "stats.py"]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


#: The fingerprint of the scoring rules' and the statistics' code: a summary worked out
#: by other code is stale.
RULES = _rules_fingerprint()


@dataclass(frozen=True)
class GameSummary:
    """One game as the lists show it. ``players``: who sits at each seat now, in playing
    order (someone may have taken over a seat); ``totals``:
    one int per seat (zeros before the first deal); ``winners`` (a finished game) and
    ``leaders`` (the best total so far): seats; ``problem_deal``: the 1-based number of
    the first stored deal that no longer fits the rules, else None; ``created_at``: UTC
    ISO 8601."""

    id: str
    kind: str
    created_at: str
    players: tuple[str, ...]
    deals: int
    finished: bool
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    leaders: tuple[int, ...]
    problem_deal: int | None
    #: from a game file (StoredGame.imported): ``created_at`` is when it was imported
    imported: bool = False
    #: a partners' game (Trix, SCORING.md §2.5): ``leaders`` and ``winners`` are a side,
    #: both partners, when one side is ahead
    partners: bool = False
    #: by seat, who sat there before the player there now (someone took over the seat),
    #: oldest first; () for a seat never taken over
    before: tuple[tuple[str, ...], ...] = ()

    @property
    def level(self) -> bool:
        """Whether the game is level at the top: more than one player ahead, or with
        partners both sides (every seat)."""
        return len(self.leaders) > (2 if self.partners else 1)


def _row(game: StoredGame, scored: sheets.Sheet) -> dict[str, Any]:
    score = scored.score
    problem = scored.problem
    return {
        "game_id": game.id,
        "version": game.version,
        "rules": RULES,
        "kind": game.kind,
        "deals": len(game.deals),
        "finished": int(scored.finished),
        "totals": json.dumps(list(score.totals) if score else [0] * len(game.players)),
        "winners": json.dumps(list(score.winners) if scored.finished and score else []),
        "leaders": json.dumps(list(scored.leaders)),
        "problem_deal": (problem.deal or 0) if problem is not None else None,
    }


def refresh(db: sqlite_utils.Database, game_id: str, scored: sheets.Sheet | None = None,
            players: Iterable[int] = ()) -> None:
    """Work the game's summary out again (``scored``: its sheet, when the caller has just
    scored it) and the records of its players and of ``players`` (ids of players who
    have just left the game: a renamed seat). Call it inside the write's transaction.
    A deleted game is forgotten instead (:func:`forget`), and a restored one worked out
    again, so every count changes at once (issue 18, part 1)."""
    if store.is_deleted(db, game_id):
        forget(db, game_id, players)
        return
    game = get_game(db, game_id)
    if scored is None or scored.game.deals != game.deals or scored.game.options != game.options:
        scored = sheets.build(game)
    row = _row(game, scored)
    db.table("game_summaries").upsert(row, pk="game_id")
    winners = set(json.loads(row["winners"]))
    totals = json.loads(row["totals"])
    db.table("seat_results").upsert_all(
        ({"game_id": game.id, "seat": seat, "total": totals[seat], "won": int(seat in winners)}
         for seat in range(len(game.players))), pk=("game_id", "seat"))
    seated = [row[0] for row in db.execute(
        "select player_id from game_players where game_id = ? order by seat", [game_id])]
    seated_game = stats.SeatedGame(game, tuple(seated), scored)
    _refresh_seat_stats(db, seated_game)
    refresh_players(db, [*seated_game.everyone, *players])


def forget(db: sqlite_utils.Database, game_id: str, players: Iterable[int] = ()) -> None:
    """Take a deleted game out of every list and statistic (issue 18, part 1): its
    summary and seats' results go, what its seats added to their players' figures is taken
    away, and the records of its players (and of ``players``) are written again (a player
    left in no game loses their record, so leaves the players list). Its deals and history
    stay in the store: :func:`refresh` works it all out again when it is restored."""
    seated = [row[0] for row in db.execute("select player_id from game_players where game_id = ?", [game_id])]
    for player_id, counts in db.execute(
            "select player_id, counts from seat_stats where game_id = ?", [game_id]).fetchall():
        _add_figures(db, player_id, json.loads(counts), -1)
    for table in ("seat_stats", "seat_results", "game_summaries"):
        db.execute(f"delete from {table} where game_id = ?", [game_id])
    refresh_players(db, [*seated, *players])


def refresh_written(db: sqlite_utils.Database, written: store.Written) -> None:
    """:func:`refresh` after a write of the store, inside its transaction
    (store.after_write's listener, registered by db.connect): from the game as the write
    just scored it, when it did, else scored here."""
    scored = None
    if written.game is not None and written.score is not None:
        scored = sheets.Sheet(written.game, written.file, written.score, None)
    refresh(db, written.game_id, scored, players=written.left)


def _add_figures(db: sqlite_utils.Database, player_id: int, counts: Mapping[str, Sequence[int]],
                 sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) one game's counts to the player's figures."""
    db.conn.executemany(
        "insert into player_figures (player_id, key, things, total, chances, games, seen) "
        "values (?, ?, ?, ?, ?, ?, ?) on conflict (player_id, key) do update set "
        "things = things + excluded.things, total = total + excluded.total, "
        "chances = chances + excluded.chances, games = games + excluded.games, seen = seen + excluded.seen",
        [(player_id, key, sign * count, sign * total, sign * of, sign * (count > 0), sign)
         for key, (count, total, of) in counts.items()])
    if sign < 0:
        db.execute("delete from player_figures where player_id = ? and seen <= 0", [player_id])


def _refresh_seat_stats(db: sqlite_utils.Database, game: stats.SeatedGame) -> None:
    """Work out what ``game`` adds to each of its players' statistics (one part a player:
    someone who took over a seat adds only the deals they played), and change each
    player's summed figures by the difference (old parts taken away, new ones added): a
    write costs the same however many games the player has."""
    for player_id, counts in db.execute(
            "select player_id, counts from seat_stats where game_id = ?", [game.id]).fetchall():
        _add_figures(db, player_id, json.loads(counts), -1)
    db.execute("delete from seat_stats where game_id = ?", [game.id])
    rowid = db.execute("select rowid from games where id = ?", [game.id]).fetchone()[0]
    rows = []
    for part in stats.seat_parts(game):
        counts = dict(part.counts)
        if part.reversed:
            counts[REVERSED] = (1, 0, 0)
        result = part.result
        rows.append({
            "game_id": part.game_id, "seat": part.seat, "player_id": part.player_id, "kind": part.kind,
            "created_at": part.created_at, "game_rowid": rowid, "counts": json.dumps(counts),
            "best_better": part.best.better if part.best else None,
            "best": json.dumps([part.best.number, part.best.points, part.best.what]) if part.best else None,
            "worst_better": part.worst.better if part.worst else None,
            "worst": json.dumps([part.worst.number, part.worst.points, part.worst.what]) if part.worst else None,
            "finished": int(result is not None),
            "total": result.total if result else None,
            "best_other": result.best_other if result else None,
            "won": int(result.won) if result else 0,
            "reversed": int(part.reversed),
        })
        _add_figures(db, part.player_id, counts, 1)
    db.table("seat_stats").insert_all(rows)  # one insert for the game's seats


#: The key of player_figures that counts the games with reversed scoring (no figure of its own)
REVERSED = "reversed"


def refresh_players(db: sqlite_utils.Database, player_ids: Iterable[int]) -> None:
    """Write the records of ``player_ids`` again from their summed figures (games played,
    finished, won: player_figures) and their last game; a player left in no game loses
    their record. Indexed reads: the same cost however many games they have."""
    for player_id in sorted(set(player_ids)):
        figures = dict(db.execute(
            "select key, things from player_figures where player_id = ? and key in ('played', 'finished', 'won')",
            [player_id]).fetchall())
        last = db.execute("select max(created_at) from seat_stats where player_id = ?", [player_id]).fetchone()[0]
        if figures.get("played"):
            db.table("player_records").upsert({"player_id": player_id, "played": figures["played"],
                                               "finished": figures.get("finished", 0), "won": figures.get("won", 0),
                                               "last_played": last}, pk="player_id")
        else:
            db.execute("delete from player_records where player_id = ?", [player_id])


def refresh_stale(db: sqlite_utils.Database) -> int:
    """Work out every summary that is missing, older than its game, or from other rules
    (on start-up, after an upgrade or a rules fix), and forget any of a deleted game;
    returns how many."""
    stale = [row[0] for row in db.execute(
        "select g.id from games g left join game_summaries s on s.game_id = g.id "
        "where (g.deleted_at is null and (s.game_id is null or s.rules != ? or s.version != "
        "(select coalesce(max(id), 0) from changes c where c.game_id = g.id))) "
        "or (g.deleted_at is not null and s.game_id is not null)", [RULES])]
    for start in range(0, len(stale), 200):
        with writing(db):
            for game_id in stale[start:start + 200]:
                refresh(db, game_id)
    return len(stale)


def _summaries(db: sqlite_utils.Database, rows: list[dict[str, Any]]) -> list[GameSummary]:
    if not rows:
        return []
    ids = [row["game_id"] for row in rows]
    marks = ",".join("?" * len(ids))
    names: dict[str, list[str]] = {game_id: [] for game_id in ids}
    for game_id, name in db.execute(
            f"select gp.game_id, p.name from game_players gp join players p on p.id = gp.player_id "
            f"where gp.game_id in ({marks}) order by gp.game_id, gp.seat", ids):
        names[game_id].append(name)
    # who sits now: every seat change applies from its deal on (issue 18, part 3); who
    # sat there before is kept, so a card still names everyone who played in it
    before: dict[str, list[list[str]]] = {game_id: [[] for _ in names[game_id]] for game_id in ids}
    for game_id, seat, name in db.execute(
            f"select sc.game_id, sc.seat, p.name from seat_changes sc join players p on p.id = sc.player_id "
            f"where sc.game_id in ({marks}) order by sc.game_id, sc.position, sc.id", ids):
        if seat < len(names[game_id]):
            if names[game_id][seat] not in before[game_id][seat] and names[game_id][seat] != name:
                before[game_id][seat].append(names[game_id][seat])
            names[game_id][seat] = name
    return [GameSummary(
        id=row["game_id"], kind=row["kind"], created_at=row["game_created_at"], players=tuple(names[row["game_id"]]),
        deals=row["deals"], finished=bool(row["finished"]), totals=tuple(json.loads(row["totals"])),
        winners=tuple(json.loads(row["winners"])), leaders=tuple(json.loads(row["leaders"])),
        problem_deal=row["problem_deal"], imported=bool(row["game_imported"]),
        partners=bool(row.get("game_partners")),
        before=tuple(tuple(n for n in seat if n != now) for seat, now in zip(
            before[row["game_id"]], names[row["game_id"]], strict=True))) for row in rows]


@dataclass(frozen=True)
class Page:
    """One page of a list of games, newest first: ``games`` on it, ``number`` (1-based),
    ``total`` games in the whole list, ``size`` games a page."""

    games: list[GameSummary]
    number: int
    total: int
    size: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))

    @property
    def has_older(self) -> bool:
        return self.number < self.pages


def find(db: sqlite_utils.Database, *, kind: str | None = None, player: int | None = None,
         since: str | None = None, before: str | None = None, finished: bool | None = None,
         only: Iterable[str] | None = None, figure: tuple[int, str] | None = None,
         page: int = 1, size: int = 20, group: int | None = None, done: bool | None = None) -> Page:
    """Games matching every filter given, newest first, one page of ``size``: ``kind``;
    ``player`` (a players-table id) sat in it; started at or after ``since`` and before
    ``before`` (UTC ISO 8601); ``finished`` or not; ``done`` or not: finished, or a club
    night's table whose round is closed (deals added now count for nothing in its night:
    the games list shows it with the finished ones, not to carry on; tester 65); ``only``
    these game ids; ``figure``
    (player id, figure key): the games that figure of that player's page comes from
    (stats.Figure); ``group`` a group's games only (None: every group's). A page past the
    last is the last."""
    wanted = list(only) if only is not None else None
    figure_sql, figure_params = figure_games(*figure) if figure else ("", [])
    filters: list[tuple[Any, str, list[Any]]] = [
        (group, "g.group_id = ?", [group]),
        (kind, "s.kind = ?", [kind]),
        (player, "s.game_id in (select game_id from game_players where player_id = ? "
                 "union select game_id from seat_changes where player_id = ?)", [player, player]),
        (since, "g.created_at >= ?", [since]),
        (before, "g.created_at < ?", [before]),
        (finished, "s.finished = ?", [int(bool(finished))]),
        (done, f"{'' if done else 'not '}(s.finished or s.game_id in (select t.game_id from night_tables t "
               "join night_rounds r on r.night_id = t.night_id and r.number = t.round where r.closed))", []),
        (wanted, f"s.game_id in ({','.join('?' * len(wanted or ())) or 'null'})", wanted or []),
        (figure, figure_sql, figure_params),
    ]
    where = ["1", *(sql for value, sql, _ in filters if value is not None)]
    params = [p for value, _, values in filters if value is not None for p in values]
    condition = " and ".join(where)
    total = db.execute(f"select count(*) from game_summaries s join games g on g.id = s.game_id where {condition}",
                       params).fetchone()[0]
    pages = max(1, -(-total // size))
    number = min(max(1, page), pages)
    rows = [dict(row) for row in db.query(
        f"select s.*, g.created_at as game_created_at, g.imported as game_imported, "
        f"json_extract(g.options, '$.partnership') is not null as game_partners "
        f"from game_summaries s join games g on g.id = s.game_id "
        f"where {condition} order by g.created_at desc, g.rowid desc limit ? offset ?", [*params, size, (number - 1) * size])]
    return Page(_summaries(db, rows), number, total, size)


@dataclass(frozen=True)
class Record:
    """A player's line on the players list (see :func:`records`)."""

    player_id: int
    name: str
    played: int
    finished: int
    won: int
    last_played: str


def records(db: sqlite_utils.Database, group: int) -> list[Record]:
    """Everyone of group ``group`` who has sat in a game, by name (case-insensitive):
    games played, finished and won (shared wins and partners' wins included), and the last
    one's start."""
    return [Record(*row) for row in db.execute(
        "select p.id, p.name, r.played, r.finished, r.won, r.last_played from player_records r "
        "join players p on p.id = r.player_id where p.group_id = ? order by p.name_key, p.id", [group])]


def seated_players(db: sqlite_utils.Database, group: int) -> dict[int, str]:
    """Everyone of group ``group`` who has sat in a game: {players-table id: name}, in
    name order."""
    return {row[0]: row[1] for row in db.execute(
        "select p.id, p.name from player_records r join players p on p.id = r.player_id where p.group_id = ? "
        "order by p.name_key", [group])}


# --------------------------------------------------------------------------- a player's page


def player_stats(db: sqlite_utils.Database, player_id: int, names: Mapping[int, str]) -> stats.PlayerStats:
    """The statistics of player ``player_id``, read from the figures kept on write: the
    same page as :func:`stats.player_stats` over all their games, except that figures
    give how many games they come from, not which (``Figure.game_ids`` is None; the games
    list finds them: :func:`find` with ``figure``). A few indexed reads, however many games
    the player has. ``names``: store.player_names."""
    counts: dict[str, tuple[int, int, int, int]] = {
        key: (things, total, chances, games) for key, things, total, chances, games in db.execute(
            "select key, things, total, chances, games from player_figures where player_id = ?", [player_id])}
    kinds = [kind for kind in KINDS if f"{kind}.games" in counts]
    best: dict[str, stats.DealRef] = {}
    worst: dict[str, stats.DealRef] = {}
    results: list[tuple[str, int, stats.Result]] = []
    for kind in kinds:
        for kept, column, order in ((best, "best", "desc"), (worst, "worst", "")):
            row = db.execute(
                f"select game_id, created_at, {column}, {column}_better from seat_stats where player_id = ? "
                f"and kind = ? and {column}_better is not null order by {column}_better {order}, created_at, "
                f"game_rowid limit 1", [player_id, kind]).fetchone()
            if row is not None:
                number, points, what = json.loads(row[2])
                kept[kind] = stats.DealRef(row[0], number, points, row[1], stats.deal_label(kind, what), row[3])
        results.extend((created_at, rowid, stats.Result(game_id, kind, created_at, total, best_other,
                                                        bool(won), bool(reversed_)))
                       for game_id, created_at, rowid, total, best_other, won, reversed_ in db.execute(
            "select game_id, created_at, game_rowid, total, best_other, won, reversed from seat_stats "
            "where player_id = ? and kind = ? and finished = 1 "
            "order by created_at desc, game_rowid desc limit ?", [player_id, kind, stats.RESULTS_KEPT]))
    results.sort(key=lambda line: line[:2])
    reversed_games = counts.pop(REVERSED, (0, 0, 0, 0))[3] > 0
    return stats.assemble(player_id, stats.Totals(counts, best, worst, [r for *_, r in results],
                                                  reversed_games), names)


def figure_games(player_id: int, key: str) -> tuple[str, list[Any]]:
    """The SQL condition (on ``s.game_id``) and its parameters for the games a figure of a
    player comes from (its count is above 0 in them), for :func:`find`'s ``figure``."""
    return ("s.game_id in (select game_id from seat_stats where player_id = ? "
            "and json_extract(counts, ?) > 0)", [player_id, f'$."{key}"[0]'])


# --------------------------------------------------------------------------- ratings


def finished_games(db: sqlite_utils.Database, group: int, *, since: str | None = None,
                   before: str | None = None, kind: str | None = None) -> list[FinishedGame]:
    """The finished games of group ``group`` that the ratings count (ratings.py), in the
    order they were started (oldest first; games started in the same second in the order
    they were stored): not deleted, started at or after ``since`` and before ``before``
    (UTC ISO 8601, or a day "2026-01-31": its UTC midnight), of ``kind`` only when given.
    Each with whoever sat at each seat at the end, the final totals and the winning
    seats, read from the seats' kept results (``seat_stats``: a finished seat's result belongs to the player at
    the seat at the end), never by scoring a game. A game missing a seat's result (a
    database part-way through its refresh) is left out."""
    filters: list[tuple[Any, str]] = [(since, "g.created_at >= ?"), (before, "g.created_at < ?"),
                                      (kind, "g.kind = ?")]
    where = "".join(f" and {sql}" for value, sql in filters if value is not None)
    params = [group, *(value for value, _ in filters if value is not None)]
    rows = db.execute(
        "select g.id, g.kind, g.created_at, g.options, s.seat, s.player_id, p.name, s.total, s.won "
        "from seat_stats s join games g on g.id = s.game_id join players p on p.id = s.player_id "
        "where s.finished = 1 and g.deleted_at is null and g.group_id = ?" + where +
        " order by g.created_at, g.rowid, s.seat", params).fetchall()
    games: list[FinishedGame] = []
    for game_id, game_rows in groupby(rows, key=lambda row: row[0]):
        seats = {row[4]: row for row in game_rows}  # seat → (…, seat, player_id, name, total, won)
        _, game_kind, created_at, options, *_ = seats[min(seats)]
        try:
            complete = sorted(seats) == list(range(get_rules(game_kind).seats))
        except RuleError:  # a kind this version does not know
            complete = False
        if complete:
            at_end = [seats[seat] for seat in sorted(seats)]
            games.append(FinishedGame(
                id=game_id, kind=game_kind, created_at=created_at, options=json.loads(options),
                seated=tuple((row[5], row[6]) for row in at_end), totals=tuple(row[7] for row in at_end),
                winners=tuple(seat for seat, row in enumerate(at_end) if row[8])))
    return games
