"""The night file (docs/night-file.md): a whole club night — its settings, its players,
each round's seating and each table's game file — as one JSON document, to keep or to
move to another server (issue 20, part 5). Pure: reads and writes dicts and text; the
store imports it in one transaction.

Each table's game is a whole game file (../shared/GAME-FILE.md), checked exactly as
importing that file alone would check it; the night's own keys are checked around them
(who sat where, who sat out, the rounds in order).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .gamefile import (
    _BIDI_CONTROLS,
    FORMAT,
    GameFile,
    _decoded,
    _json,
    check_player_name,
    find_problems,
    from_dict,
)
from .inputs import clean_name, has_visible_character, name_key
from .rules import KINDS, FormatError, RuleError, get_rules
from .rules.common import _

RANKINGS = ("placings", "score")
SEATINGS = ("random", "ranking")
#: More rounds than any evening plays; a file claiming more is refused.
MAX_ROUNDS = 50
#: At most this many problems are listed.
MAX_PROBLEMS = 30


@dataclass(frozen=True)
class NightPlayer:
    """A player of the night: ``name``; ``from_round`` the first round they could be
    seated (1, or the next round after a late arrival); ``until_round`` the last round
    before they left (None: stayed to the end); ``away`` the rounds in between they were
    not there for (a leaver who came back as a late arrival), in order."""

    name: str
    from_round: int = 1
    until_round: int | None = None
    away: tuple[int, ...] = ()

    def present(self, number: int) -> bool:
        """Whether the player was there for round ``number`` (seated or sitting out)."""
        return (self.from_round <= number and (self.until_round is None or number <= self.until_round)
                and number not in self.away)


@dataclass(frozen=True)
class NightTable:
    """One table of a round: ``table`` its 1-based number; ``game`` its game file;
    ``counted`` how many of its deals the night counts (None: all; a number when the
    round was closed before the game was over: the deals it had then)."""

    table: int
    game: GameFile
    counted: int | None = None


@dataclass(frozen=True)
class NightRound:
    """A round: ``number`` 1-based; ``tables`` in table order; ``sitting_out`` the names
    who sat it out; ``closed`` whether it has ended; ``closed_early`` whether the
    organiser closed it before every table's game was over."""

    number: int
    tables: tuple[NightTable, ...]
    sitting_out: tuple[str, ...] = ()
    closed: bool = False
    closed_early: bool = False


@dataclass(frozen=True)
class NightFile:
    """A parsed night file (docs/night-file.md). ``kind`` the game every table plays and
    ``options`` its parsed options; ``rounds_planned`` how many rounds the organiser
    chose; ``ranking`` "placings" or "score"; ``seating`` how round 1 was seated
    ("random" or "ranking"); ``seed`` the night's draw; ``name`` the night's name, or
    None."""

    kind: str
    options: Any
    rounds_planned: int
    ranking: str
    seating: str
    seed: int
    players: tuple[NightPlayer, ...]
    rounds: tuple[NightRound, ...]
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The file as docs/night-file.md lays it out."""
        rules = get_rules(self.kind)
        return {
            "format": FORMAT,
            "night": self.name,
            "game": self.kind,
            "options": rules.dump_options(self.options),
            "rounds_planned": self.rounds_planned,
            "ranking": self.ranking,
            "seating": self.seating,
            "seed": self.seed,
            "players": [{"name": p.name, "from_round": p.from_round, "until_round": p.until_round,
                         **({"away": list(p.away)} if p.away else {})}
                        for p in self.players],
            "rounds": [{
                "round": r.number,
                "closed": r.closed,
                "closed_early": r.closed_early,
                "sitting_out": list(r.sitting_out),
                "tables": [{"table": t.table, **({"counted": t.counted} if t.counted is not None else {}),
                            "game": t.game.to_dict()} for t in r.tables],
            } for r in self.rounds],
        }


def dumps(night: NightFile) -> str:
    """The night file as pretty JSON text (names kept as they are)."""
    return json.dumps(night.to_dict(), indent=2, ensure_ascii=False) + "\n"


def is_night_file(text: str | bytes) -> bool:
    """Whether ``text`` is meant as a night file: a JSON object with ``rounds`` and no
    ``deals`` (a group file has no ``rounds``; a game file has ``deals``, and a key it
    does not define, ``rounds`` too, is ignored: GAME-FILE.md; tester 56). Never raises."""
    try:
        data = _decoded(text)
    except FormatError:
        return False
    return isinstance(data, Mapping) and "rounds" in data and "deals" not in data


#: The longest night's name (characters, once cleaned), in the form and in a night file.
MAX_NIGHT_NAME = 60


def check_night_name(name: Any) -> str | None:
    """The night's name cleaned as a player's is (gamefile.check_player_name: trimmed,
    spaces made one, NFC), or None for none (null, or nothing visible). Refused as a
    player's name is: not text, more than :data:`MAX_NIGHT_NAME` characters, control
    characters or direction overrides and isolates (a name shown backwards).

    Raises FormatError (field "night")."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise FormatError(_("night must be the night's name, as text"), field="night")
    if any(unicodedata.category(c) == "Cs" for c in name):
        raise FormatError(_("the night's name has characters that are not text"), field="night")
    name = clean_name(name)
    if not has_visible_character(name):
        return None
    if len(name) > MAX_NIGHT_NAME:
        raise FormatError(_("the night's name is longer than {max} characters").format(max=MAX_NIGHT_NAME),
                          field="night")
    if any(unicodedata.category(c) == "Cc" or c in _BIDI_CONTROLS for c in name):
        raise FormatError(_("the night's name has invisible control characters"), field="night")
    return name


#: The largest seed a night file may give: SQLite's largest integer, 2**63 − 1 (one more
#: was a traceback at the import: tester 72); the app draws its seeds below 2**63
SEED_MOST = 2 ** 63 - 1


def _whole(value: Any, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


class _Problems:
    """Problems found so far, each a FormatError whose field names where it is."""

    def __init__(self) -> None:
        self.found: list[RuleError] = []
        #: players whose rounds could not be read (name keys): not said again as missing
        self.unsure: set[str] = set()

    def add(self, message: str, field: str) -> None:
        self.found.append(FormatError(message, field=field))


def _in_deal(problem: RuleError) -> str:
    """A table game's problem as the reader's language says it: "deal 3: …" (str() of a
    RuleError says "deal" in English, for ``scorekeeper score``)."""
    if problem.deal is None:
        return problem.message
    return _("deal {number}: {problem}").format(number=problem.deal, problem=problem.message)


def place(field: str | None) -> tuple[int | None, int | None]:
    """The round and table (1-based) a problem's ``field`` ("rounds[2].tables[1].game")
    is in, each None when it names none: the file counts from 0, a reader from 1."""
    found = re.match(r"rounds\[(\d+)\](?:\.tables\[(\d+)\])?", field or "")
    if found is None:
        return None, None
    return int(found[1]) + 1, int(found[2]) + 1 if found[2] is not None else None


def read_night(text: str | bytes, max_deals: int | None = None) -> NightFile | list[RuleError]:
    """Read and check a night file; returns the :class:`NightFile`, or every problem
    found (at most MAX_PROBLEMS, FormatErrors whose ``field`` says where: "rounds[2]
    .tables[1].game", …; a table's own game problems as importing its game file alone
    lists them). Nothing of a file with a problem may be stored. ``max_deals``: at most
    this many deals in a table's game. Never raises on bad input."""
    try:
        data = _decoded(text)
    except FormatError as error:
        return [error]
    if not isinstance(data, Mapping):
        return [FormatError(_("a night file is a JSON object"))]
    problems = _Problems()
    for key in ("format", "game", "options", "rounds_planned", "ranking", "seating", "seed", "players",
                "rounds"):
        if key not in data:
            problems.add(_("missing key {key!r}").format(key=key), key)
    if problems.found:
        return problems.found
    if type(data["format"]) is not int or data["format"] != FORMAT:
        problems.add(_("format must be 1, not {value!r}").format(value=data["format"]), "format")
    name = None
    try:
        name = check_night_name(data.get("night"))
    except FormatError as error:
        problems.found.append(error)
    kind = data["game"]
    if kind not in KINDS:
        problems.add(_("unknown game {kind!r}; expected one of: {known}").format(
            kind=kind, known=", ".join(KINDS)), "game")
        return problems.found
    rules = get_rules(kind)
    options: Any = None
    try:
        if not isinstance(data["options"], Mapping):
            raise FormatError(_("options must be an object"), field="options")
        options = rules.parse_options(data["options"])
    except FormatError as error:
        problems.found.append(error)
    if not _whole(data["rounds_planned"], 1, MAX_ROUNDS):
        problems.add(_("rounds_planned must be a whole number from 1 to {most}").format(most=MAX_ROUNDS),
                     "rounds_planned")
    if data["ranking"] not in RANKINGS:
        problems.add(_("ranking must be one of: {known}").format(known=", ".join(RANKINGS)), "ranking")
    if data["seating"] not in SEATINGS:
        problems.add(_("seating must be one of: {known}").format(known=", ".join(SEATINGS)), "seating")
    if not _whole(data["seed"], 0, SEED_MOST):
        # tester 66: "-5" was told "must be a whole number"
        problems.add(_("seed must be a whole number from 0 to {most}").format(most=SEED_MOST), "seed")
    players = _players(data["players"], problems)
    rounds = _rounds(data["rounds"], kind, options, players, problems, max_deals)
    if problems.found or options is None or players is None or rounds is None:
        return problems.found[:MAX_PROBLEMS] or [FormatError(_("it cannot be read"))]
    return NightFile(kind=kind, options=options, rounds_planned=data["rounds_planned"],
                     ranking=data["ranking"], seating=data["seating"], seed=data["seed"],
                     players=players, rounds=rounds, name=name)


def _players(raw: Any, problems: _Problems) -> tuple[NightPlayer, ...] | None:
    """The night's players, each with the rounds they were there for."""
    if not isinstance(raw, list) or not raw:
        problems.add(_("players must be a list of the night's players"), "players")
        return None
    out: list[NightPlayer] = []
    seen: dict[str, str] = {}
    for index, entry in enumerate(raw):
        where = f"players[{index}]"
        if not isinstance(entry, Mapping):
            problems.add(_("each player is an object with a name"), where)
            continue
        try:
            player = check_player_name(entry.get("name"), index)
        except FormatError as error:
            problems.add(str(error), f"{where}.name")
            continue
        if name_key(player) in seen:
            problems.add(_("{name} is listed twice").format(name=player), f"{where}.name")
            continue
        seen[name_key(player)] = player
        first = entry.get("from_round", 1)
        last = entry.get("until_round")
        if not _whole(first, 1, MAX_ROUNDS):
            problems.add(_("from_round must be a round number"), f"{where}.from_round")
            first, last = 1, None
            problems.unsure.add(name_key(player))
        elif last is not None and not _whole(last, first, MAX_ROUNDS):
            problems.add(_("until_round must be a round number from from_round on, or null"),
                         f"{where}.until_round")
            last = None
            problems.unsure.add(name_key(player))
        away = entry.get("away", [])
        if not isinstance(away, list) or not all(_whole(n, first + 1, last or MAX_ROUNDS) for n in away) \
                or away != sorted(set(away)):
            problems.add(_("away must list round numbers after from_round (and not after until_round), in order"),
                         f"{where}.away")
            away = []
            problems.unsure.add(name_key(player))
        # (kept as a player of the night either way: one message, not one more per table)
        out.append(NightPlayer(player, first, last, tuple(away)))
    return tuple(out)


def _rounds(raw: Any, kind: str, options: Any, players: Sequence[NightPlayer] | None,
            problems: _Problems, max_deals: int | None) -> tuple[NightRound, ...] | None:
    """The rounds, each checked against the night: the game and options of every table,
    who sat where, who sat out."""
    if not isinstance(raw, list):
        problems.add(_("rounds must be a list"), "rounds")
        return None
    if not raw:
        problems.add(_("a night has at least one round: rounds must list round 1"), "rounds")
        return None
    rules = get_rules(kind)
    by_key = {name_key(p.name): p for p in players or ()}
    out: list[NightRound] = []
    for index, entry in enumerate(raw):
        where = f"rounds[{index}]"
        number = index + 1
        if not isinstance(entry, Mapping):
            problems.add(_("each round is an object"), where)
            continue
        if entry.get("round") != number or not _whole(entry.get("round"), 1, MAX_ROUNDS):
            problems.add(_("round must be {number} here: rounds are listed in order").format(number=number),
                         f"{where}.round")
        closed, early = entry.get("closed", False), entry.get("closed_early", False)
        if not isinstance(closed, bool) or not isinstance(early, bool) or (early and not closed):
            problems.add(_("closed and closed_early must be true or false (closed_early only when closed)"),
                         f"{where}.closed")
            closed, early = bool(closed is True), bool(early is True and closed is True)
        if not closed and number < len(raw):
            problems.add(_("only the last round may still be open"), f"{where}.closed")
        seated: dict[str, str] = {}
        broken = False  # a table unread: who sat there is not known, so nobody is missing
        tables: list[NightTable] = []
        raw_tables = entry.get("tables")
        if not isinstance(raw_tables, list):
            problems.add(_("tables must be a list"), f"{where}.tables")
            raw_tables = []
        if isinstance(entry.get("tables"), list) and not raw_tables:  # tester 66: stored as a closed round
            problems.add(_("round {round} has no table: each round is played at one table or more").format(
                round=number), f"{where}.tables")
        for position, table in enumerate(raw_tables):
            at = f"{where}.tables[{position}]"
            if not isinstance(table, Mapping) or table.get("table") != position + 1:
                problems.add(_("table must be {number} here: tables are listed in order").format(
                    number=position + 1), f"{at}.table")
                broken = True
                continue
            game_raw = table.get("game")
            found = find_problems(json.dumps(game_raw, ensure_ascii=False), max_deals=max_deals)
            if found:
                problems.found.extend(FormatError(_in_deal(problem), field=f"{at}.game") for problem in found[:5])
                broken = True
                continue
            game = from_dict(game_raw)
            if game.kind != kind:
                problems.add(_("every table plays the night's game"), f"{at}.game.game")
                broken = True
                continue
            if options is not None and rules.dump_options(game.options) != rules.dump_options(options):
                problems.add(_("every table plays with the night's options"), f"{at}.game.options")
            counted = table.get("counted")
            if counted is not None and not early:
                problems.add(_("counted is the number of deals counted when the round was closed early, and "
                               "this round was not closed early"), f"{at}.counted")
                counted = None
            elif counted is not None and not _whole(counted, 0, len(game.deals)):
                problems.add(_("counted is the number of deals counted when the round was closed early: from 0 "
                               "to the table's {deals} deals, not {value}").format(
                    deals=len(game.deals), value=_json(counted)), f"{at}.counted")
                counted = None
            for name in {*game.players, *(change.player for change in game.seat_changes)}:
                player = by_key.get(name_key(name))
                if player is None:
                    problems.add(_("{name} is not one of the night's players").format(name=name), f"{at}.game.players")
                elif not player.present(number):
                    if name_key(name) not in problems.unsure:
                        problems.add(_("{name} was not there in round {round}").format(name=name, round=number),
                                     f"{at}.game.players")
                elif name_key(name) in seated:
                    problems.add(_("{name} sits at two tables").format(name=name), f"{at}.game.players")
                else:
                    seated[name_key(name)] = name
            tables.append(NightTable(position + 1, game, counted))
        out_raw = entry.get("sitting_out", [])
        sitting_out: list[str] = []
        if not isinstance(out_raw, list) or not all(isinstance(name, str) for name in out_raw):
            problems.add(_("sitting_out must be a list of names"), f"{where}.sitting_out")
            out_raw = []
        listed: set[str] = set()
        for name in out_raw:
            player = by_key.get(name_key(name))
            if name_key(name) in listed:  # tester 68: "Eve" twice was a traceback when stored
                problems.add(_("{name} sits out twice in round {round}").format(name=name, round=number),
                             f"{where}.sitting_out")
                continue
            listed.add(name_key(name))
            if player is not None and name_key(name) in problems.unsure:
                sitting_out.append(player.name)
            elif player is None or not player.present(number):
                problems.add(_("{name} was not there in round {round}").format(name=name, round=number),
                             f"{where}.sitting_out")
            elif name_key(name) in seated:
                problems.add(_("{name} both plays and sits out").format(name=name), f"{where}.sitting_out")
            else:
                sitting_out.append(player.name)
        missing = [p.name for key, p in by_key.items() if p.present(number) and key not in seated
                   and key not in {name_key(n) for n in sitting_out} and key not in problems.unsure]
        if missing and tables and not broken:
            problems.add(_("{names}: neither at a table nor sitting out").format(names=", ".join(missing)),
                         f"{where}")
        out.append(NightRound(number, tuple(tables), tuple(sitting_out), closed, early))
    return tuple(out)

