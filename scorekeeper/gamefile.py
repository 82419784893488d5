"""The game file, format 1 (../shared/GAME-FILE.md): parse, validate, score, dump.

A game file holds one game's players, settings and every deal as entered at the table;
never points. Everything that reads deals — the CLI, the importer and the web forms — goes
through :func:`parse` and :func:`score`, so all share one set of checks.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .inputs import clean_name, has_visible_character, name_key
from .rules import FormatError, GameRules, GameScore, RuleError, get_rules
from .rules.common import _, shown_name

FORMAT = 1
MAX_NAME_LENGTH = 40
# Direction overrides and isolates would turn a name (and the sheet around it) backwards;
# joiners (U+200C/U+200D), which some scripts need, stay allowed.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True)
class SeatChange:
    """Someone takes over a seat (GAME-FILE.md, "Someone takes over a seat"; issue 18,
    part 3): from deal ``from_deal`` (1-based) on, ``seat`` (0-based) is played by
    ``player`` (a cleaned name). Points stay with the seat."""

    from_deal: int
    seat: int
    player: str


@dataclass(frozen=True)
class GameFile:
    """A parsed game file.

    ``players``: display names in playing order, as they sat at the start;
    ``first_dealer``: a seat (Trix: the first kingdom's owner); ``options``: the game's
    parsed options; ``deals``: the game's parsed deals, in the order played;
    ``seat_changes``: who took over a seat when (:class:`SeatChange`, in deal order).
    """

    kind: str
    players: tuple[str, ...]
    first_dealer: int
    options: Any
    deals: tuple[Any, ...]
    seat_changes: tuple[SeatChange, ...] = ()

    def players_at(self, number: int) -> tuple[str, ...]:
        """Who sat at each seat in deal ``number`` (1-based; the number of deals + 1:
        who sits now), names by seat."""
        return players_at(self.players, self.seat_changes, number)

    @property
    def rules(self) -> GameRules:
        return get_rules(self.kind)

    def score(self) -> GameScore:
        """Score every deal; raises DealError on the first deal that breaks a rule."""
        return self.rules.score(self.players, self.first_dealer, self.options, self.deals,
                                self.players_at if self.seat_changes else None)

    def to_dict(self) -> dict[str, Any]:
        """The file as GAME-FILE.md lays it out (options with every key)."""
        rules = self.rules
        return {
            "format": FORMAT,
            "game": self.kind,
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "options": rules.dump_options(self.options),
            "deals": [rules.dump_deal(d) for d in self.deals],
            **({"seat_changes": [{"from_deal": c.from_deal, "seat": c.seat, "player": c.player}
                                 for c in self.seat_changes]} if self.seat_changes else {}),
        }


def players_at(players: Sequence[str], changes: Sequence[SeatChange], number: int) -> tuple[str, ...]:
    """The names by seat in deal ``number`` (1-based): ``players`` as they sat at the
    start, with every change from that deal or before (in deal order) applied."""
    names = list(players)
    for change in changes:
        if change.from_deal <= number and 0 <= change.seat < len(names):
            names[change.seat] = change.player
    return tuple(names)


def check_seat_changes(raw: Any, players: Sequence[str], deals: int) -> tuple[SeatChange, ...]:
    """A game file's ``seat_changes`` (GAME-FILE.md, "Someone takes over a seat"),
    checked: a list of objects {"from_deal", "seat", "player"}, in deal order, each
    ``from_deal`` a whole number from 2 to ``deals`` + 1 (a change announced before the
    next deal), ``seat`` one of ``players``' seats, ``player`` a name (checked as the
    players' names are) not sitting at another seat from that deal on, and not the one
    sitting at that seat already; a seat changes at most once a deal. Changes of the
    same deal take effect together (two players may swap seats).

    Raises FormatError (field "seat_changes"; ``seat`` the seat concerned) whose message
    names the change (1-based) and the problem; ``deal`` stays None, since no deal's
    entry is wrong (the sheet then shows no deal past it as broken).
    """
    if not isinstance(raw, list):
        raise FormatError(_("seat_changes must be a list"), field="seat_changes")
    seats = len(players)
    out: list[SeatChange] = []
    for n, item in enumerate(raw, 1):
        if not isinstance(item, Mapping):
            raise FormatError(_("seat change {n} must be an object").format(n=n), field="seat_changes")
        for key in ("from_deal", "seat", "player"):
            if key not in item:
                raise FormatError(_("seat change {n}: missing key {key!r}").format(n=n, key=key),
                                  field="seat_changes")
        start, seat = item["from_deal"], item["seat"]
        if deals == 0:  # no deal 2 to take over from: the range below would be empty
            raise FormatError(_("seat change {n}: a game with no deals has no seat changes (someone takes "
                                "over a seat from deal 2 at the earliest)").format(n=n), field="seat_changes")
        if isinstance(start, bool) or not isinstance(start, int) or not 2 <= start <= deals + 1:
            raise FormatError(_("seat change {n}: from_deal must be a deal from 2 to the number of deals "
                                "+ 1 ({last}), not {value}").format(n=n, last=deals + 1, value=_json(start)),
                              field="seat_changes")
        if out and start < out[-1].from_deal:
            raise FormatError(_("seat change {n}: the seat changes must be in deal order (deal {deal} "
                                "comes after deal {before})").format(n=n, deal=start, before=out[-1].from_deal),
                              field="seat_changes")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise FormatError(_("seat change {n}: seat must be a seat from 0 to {last}, not {value}").format(
                n=n, last=str(seats - 1), value=_json(seat)), field="seat_changes")
        try:
            (name,) = check_player_names([item["player"]], 1)
        except FormatError as error:
            # the one name of a seat change is "the player who takes the seat", not the
            # "player 1" of a game's list (tester 15)
            player = item["player"]
            problem = (_("the player who takes the seat must be a name, as text, not {value}").format(
                value=_json(player)) if not isinstance(player, str)  # tester 66: ["D"] was "no name"
                else _("the player who takes the seat has no name") if name_fault(player) == "blank"
                else error.message)
            raise FormatError(_("seat change {n}: {problem}").format(n=n, problem=problem),
                              field="seat_changes", seat=seat) from None
        out.append(SeatChange(start, seat, name))
    for start in sorted({c.from_deal for c in out}):
        before = players_at(players, out, start - 1)
        now = players_at(players, out, start)
        changing = [(n, c) for n, c in enumerate(out, 1) if c.from_deal == start]
        moved: set[int] = set()
        for n, change in changing:
            if change.seat in moved:
                raise FormatError(_("seat change {n}: seat {seat} changes twice from deal {deal}").format(
                    n=n, seat=str(change.seat), deal=start), field="seat_changes", seat=change.seat)
            moved.add(change.seat)
            if name_key(before[change.seat]) == name_key(change.player):
                raise FormatError(_("seat change {n}: {name} sits at that seat already").format(
                    n=n, name=shown_name(change.player)), field="seat_changes", seat=change.seat)
            # a clash with a seat a later change of this deal fills is that change's, named there
            later = {c.seat for m, c in changing if m > n}
            if any(name_key(other) == name_key(change.player) for s, other in enumerate(now)
                   if s != change.seat and s not in later):
                raise FormatError(_("seat change {n}: {name} is sitting at another seat in deal {deal}").format(
                    n=n, name=shown_name(change.player), deal=start), field="seat_changes", seat=change.seat)
    return tuple(out)


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


#: The most combining marks a name stacks on one letter: written names of every script
#: stay within it (a Vietnamese letter two once composed, Hebrew pointing three or four);
#: a tower of forty accents on one "A" is no name (tester 52: it drew across the pages)
MAX_MARKS = 4


def _stacked(name: str) -> bool:
    """Whether ``name`` stacks more than :data:`MAX_MARKS` combining marks (Unicode Mn,
    Me) on one letter."""
    run = 0
    for char in name:
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if run > MAX_MARKS:
            return True
    return False


#: What can keep a text from being a player's name (:func:`name_fault`)
NameFault = Literal["blank", "not text", "long", "control"]


def name_fault(name: Any) -> NameFault | None:
    """What keeps ``name`` from being a player's name, or None when it is one: "blank"
    (not text, or nothing visible once cleaned: only spaces, zero-width or combining
    marks), "not text" (half of a UTF-16 pair, "\\udcff" in a JSON file: SQLite could not
    store it; or more than :data:`MAX_MARKS` combining marks stacked on one letter, which
    draw through the lines above and below it on every page: tester 52), "long" (more
    than :data:`MAX_NAME_LENGTH` characters once cleaned by inputs.clean_name), "control"
    (control characters, or the direction overrides and isolates that would turn a name
    and the sheet around it backwards). Checked in that order. Every check of a name, in a game file and in each form that takes one, asks
    this; each says the fault in its own words."""
    if not isinstance(name, str) or not name.strip():
        return "blank"
    if any(unicodedata.category(c) == "Cs" for c in name):
        return "not text"
    name = clean_name(name)
    if not has_visible_character(name):
        return "blank"
    if _stacked(name):
        return "not text"
    if len(name) > MAX_NAME_LENGTH:
        return "long"
    if any(unicodedata.category(c) == "Cc" or c in _BIDI_CONTROLS for c in name):
        return "control"
    return None


def check_player_name(name: Any, seat: int) -> str:
    """One player's name (``seat`` 0-based, for the message), cleaned (trimmed, spaces
    made one, Unicode NFC: inputs.clean_name), when :func:`name_fault` finds nothing
    wrong with it: text with something visible in it, at most :data:`MAX_NAME_LENGTH`
    characters, without control characters or direction overrides and isolates. Every
    form that takes a name checks it here too (forms/fields.py: check_names).

    Raises FormatError (field "players", ``seat``).
    """
    fault = name_fault(name)
    if fault is None:
        return clean_name(name)
    n = seat + 1
    if name is not None and not isinstance(name, str):  # a number or a list where a name goes
        raise FormatError(_("player {n}'s name must be text in quotes, not {value!r}").format(n=n, value=name),
                          field="players", seat=seat)
    message = (_("player {n} has no name").format(n=n) if fault == "blank" else
               _("player {n}'s name has characters that are not text").format(n=n) if fault == "not text" else
               _("player {n}'s name is longer than {max} characters").format(n=n, max=MAX_NAME_LENGTH)
               if fault == "long" else
               _("player {n}'s name has invisible control characters").format(n=n))
    raise FormatError(message, field="players", seat=seat)


def named_twice(name: str, seat: int) -> FormatError:
    """The problem of a name (cleaned) that is another seat's player already (their
    :func:`inputs.name_key` is the same), at ``seat``."""
    return FormatError(_("{name} is named twice").format(name=shown_name(name)), field="players", seat=seat)


def _read_names(names: Any, seats: int) -> tuple[tuple[str, ...], list[FormatError]]:
    """A game file's ``players`` read: (the names cleaned, every problem in seat order).
    The problems: not a list of ``seats`` names; else each name :func:`check_player_name`
    refuses, and each name that is an earlier seat's player already (their
    :func:`inputs.name_key` the same: case, width, invisible characters aside). An import
    lists them all at once (:func:`find_problems`), not the first alone."""
    if not isinstance(names, list) or len(names) != seats:
        return (), [FormatError(_("players must be a list of {n} names").format(n=seats), field="players")]
    cleaned: list[str] = []
    problems: list[FormatError] = []
    seen: set[str] = set()
    for seat, name in enumerate(names):
        try:
            name = check_player_name(name, seat)
        except FormatError as error:
            problems.append(error)
            continue
        key = name_key(name)
        if key in seen:
            problems.append(named_twice(name, seat))
        seen.add(key)
        cleaned.append(name)
    return tuple(cleaned), problems


def check_player_names(names: Any, seats: int) -> tuple[str, ...]:
    """``seats`` distinct names, each checked and cleaned by :func:`check_player_name`
    (:func:`_read_names`).

    Raises FormatError (field "players", seat of the offending name where there is one):
    the first problem :func:`_read_names` finds.
    """
    cleaned, problems = _read_names(names, seats)
    if problems:
        raise problems[0]
    return cleaned


def from_dict(data: Any) -> GameFile:
    """Check a decoded game file's shape and every deal's shape; raises FormatError or
    DealError (with the 1-based deal number). Does not score: see :meth:`GameFile.score`.
    """
    if not isinstance(data, Mapping):
        raise FormatError(_("a game file is a JSON object"))
    for key in ("format", "game", "players", "first_dealer", "options", "deals"):
        if key not in data:
            raise FormatError(_("missing key {key!r}").format(key=key), field=key)
    if type(data["format"]) is not int or data["format"] != FORMAT:
        raise FormatError(_("format must be 1, not {value!r}").format(value=data["format"]), field="format")
    rules = get_rules(data["game"])
    players = check_player_names(data["players"], rules.seats)
    first = data["first_dealer"]
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < rules.seats:
        raise FormatError(
            _("first_dealer must be a seat from 0 to {last}, not {value!r}").format(
                last=str(rules.seats - 1), value=first), field="first_dealer")  # the file's seat numbers: 0–9
    if not isinstance(data["options"], Mapping):
        raise FormatError(_("options must be an object"), field="options")
    options = rules.parse_options(data["options"])
    if not isinstance(data["deals"], Sequence) or isinstance(data["deals"], str):
        raise FormatError(_("deals must be a list"), field="deals")
    changes = check_seat_changes(data.get("seat_changes", []), players, len(data["deals"]))
    # a deal's problem names who sat at its seats then (tester 51: "Pekka" for Tuula's bugs)
    deals = tuple(rules.parse_deal(raw, number, players_at(players, changes, number))
                  for number, raw in enumerate(data["deals"], 1))
    return GameFile(data["game"], players, first, options, deals, changes)


class _KeyTwice(ValueError):
    """A JSON object that gives one key twice (JSON readers keep the last silently)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _one_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members, each key once; raises _KeyTwice (tester 33: a file with
    "first_dealer" twice was read with the second, unsaid)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _KeyTwice(key)
        data[key] = value
    return data


def _not_a_number(constant: str) -> Any:
    """Python's json reads NaN, Infinity and -Infinity, which JSON has not (RFC 8259, §6;
    tester 56: a file with NaN was taken): refused as not JSON."""
    raise ValueError(f"{constant} is not JSON")


def _decode(text: str) -> Any:
    """JSON text decoded, refusing an object with a key given twice (_KeyTwice) and the
    NaN and Infinity JSON has not (ValueError)."""
    return json.loads(text, object_pairs_hook=_one_each, parse_constant=_not_a_number)


def _not_json(exc: Exception) -> FormatError:
    """Why a text is not JSON, in words (not Python's "Expecting value: line 1 column 1")."""
    if isinstance(exc, _KeyTwice):
        return FormatError(_("it gives \"{key}\" twice in one place, so which one counts is unclear; "
                             "keep one").format(key=exc.key[:40]))
    if isinstance(exc, json.JSONDecodeError):
        return FormatError(_("not a JSON file: it goes wrong at line {line}, column {column}").format(
            line=exc.lineno, column=exc.colno))
    if isinstance(exc, RecursionError):
        return FormatError(_("not a JSON file a game can be read from: it is nested too deeply"))
    if "integer string conversion" in str(exc):  # Python reads no number of over 4,300 digits
        return FormatError(_("not a game file: it holds a number thousands of digits long"))
    return FormatError(_("not a JSON file"))


def loads(text: str | bytes) -> GameFile:
    """Parse a game file's JSON text; raises FormatError (not JSON, bad shape) or
    DealError."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8-sig")
    try:
        data = _decode(text.removeprefix("\ufeff"))  # a byte-order mark from a Windows editor
    except (ValueError, RecursionError) as exc:
        raise _not_json(exc) from None
    return from_dict(data)


def dumps(game: GameFile) -> str:
    """The game file as pretty JSON text (UTF-8 names kept as they are)."""
    return json.dumps(game.to_dict(), indent=2, ensure_ascii=False) + "\n"


#: At most this many problems are listed; a file with more gets a last line saying so.
MAX_PROBLEMS = 30
#: Imports refuse a game file of more deals than this (config GAME_FILE_MAX_DEALS): a
#: legal file of 2,000 deals makes every page that shows the game or its players slow for
#: everyone on the server, and no evening at a table comes near 500 deals.
MAX_DEALS = 500
#: Imports refuse a game file larger than this (config GAME_FILE_MAX_BYTES): 500 deals
#: written out by the app take about 200 KB.
MAX_BYTES = 512 * 1024


def too_many_deals(data: Any, most: int | None) -> FormatError | None:
    """The problem of a decoded game file with more than ``most`` deals (None: any
    number), else None."""
    deals = data.get("deals") if isinstance(data, Mapping) else None
    if most is None or not isinstance(deals, list) or len(deals) <= most:
        return None
    return FormatError(_("it has {n} deals; a game file to import holds at most {most}").format(
        n=len(deals), most=most), field="deals")


def find_problems(text: str | bytes, limit: int = MAX_PROBLEMS, max_deals: int | None = None) -> list[RuleError]:
    """Every problem of a game file's text, not just the first; [] when it can be stored.

    ``text``: the file as uploaded (bytes, UTF-8 with or without a byte-order mark) or
    decoded.  Returns RuleErrors in this order: problems outside any deal (``deal`` None:
    not UTF-8, empty, not JSON, a missing key, the format number, the game, the players,
    first_dealer, options — a wrong format number or game stops there, since nothing else
    can be read by this format's rules); then, by deal number, each deal's shape problem
    (:meth:`GameRules.parse_deal`) or else its rule problem, checked in the context of the
    deals before it (a game over too early, a contract played twice, … show up as such)
    up to the first deal that breaks a rule or cannot be read; each deal after that one
    is checked on its own (its context is not known), and a last FormatError says so.
    Options that cannot be read leave the rules of play unknown: deals then get their
    shape checked only.  At most ``limit`` problems; one more FormatError says how many
    deals were not checked after that.  A file of more than ``max_deals`` deals gets that
    one problem, and nothing else is checked.  Never raises on bad input.
    """
    problems: list[RuleError] = []
    if isinstance(text, bytes | bytearray):
        if not text.strip():
            return [FormatError(_("it is empty"))]
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            return [FormatError(_("it is not UTF-8 text (unreadable byte at position "
                                  "{at}); save it as UTF-8 and try again").format(at=exc.start))]
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return [FormatError(_("it is empty"))]
    try:
        data = _decode(text)
    except (ValueError, RecursionError) as exc:
        return [_not_json(exc)]
    if not isinstance(data, Mapping) or not any(key in data for key in ("format", "game", "games", "players", "deals")):
        # some other JSON file (a settings file, another app's export): one sentence, not
        # a list of every key it lacks
        return [FormatError(_("it is not a Scorekeeper game file, group file or night file"))]
    too_many = too_many_deals(data, max_deals)
    if too_many is not None:
        return [too_many]
    if "format" in data and (type(data["format"]) is not int or data["format"] != FORMAT):
        # a later format: nothing else can be read by this format's rules
        return [FormatError(_("format must be 1, not {value!r}").format(value=data["format"]), field="format")]
    missing = [key for key in ("format", "game", "players", "first_dealer", "options", "deals")
               if key not in data]
    problems.extend(FormatError(_("missing key {key!r}").format(key=key), field=key)
                    for key in missing)
    if "game" not in data:
        return problems
    try:
        rules = get_rules(data["game"])
    except FormatError as error:
        return [*problems, error]

    players: tuple[str, ...] | None = None
    if "players" in data:
        cleaned, wrong = _read_names(data["players"], rules.seats)
        problems.extend(wrong)
        if not wrong:
            players = cleaned
    first = data.get("first_dealer", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < rules.seats:
        problems.append(FormatError(_("first_dealer must be a seat from 0 to {last}, not "
                                      "{value!r}").format(last=str(rules.seats - 1), value=first),
                                    field="first_dealer"))
        first = 0
    options = None
    raw_options = data.get("options", {})
    if not isinstance(raw_options, Mapping):
        problems.append(FormatError(_("options must be an object"), field="options"))
    else:
        try:
            options = rules.parse_options(raw_options)
        except FormatError as error:
            problems.append(error)
    raw_deals = data.get("deals", [])
    if not isinstance(raw_deals, Sequence) or isinstance(raw_deals, str):
        problems.append(FormatError(_("deals must be a list"), field="deals"))
        return problems
    changes: tuple[SeatChange, ...] = ()
    if players is not None and "seat_changes" in data:
        try:
            changes = check_seat_changes(data["seat_changes"], players, len(raw_deals))
        except FormatError as error:
            problems.append(error)

    parsed: list[tuple[int, Any]] = []  # (1-based deal number, parsed deal) of well-shaped deals
    misshapen: int | None = None  # the first deal that cannot be read
    for number, raw in enumerate(raw_deals, 1):
        try:
            parsed.append((number, rules.parse_deal(raw, number, players_at(players, changes, number)
                                                     if players is not None else None)))
        except RuleError as error:
            problems.append(error)
            misshapen = misshapen or number
    names = players or tuple(_("player {number}").format(number=seat + 1)
                             for seat in range(rules.seats))

    def names_at(number: int) -> tuple[str, ...]:
        """Who sat at each seat in deal ``number``: a problem names whoever played it
        (tester 62: the web import named the player who had left the seat)."""
        return players_at(names, changes, number)

    checked_alone_after: int | None = None
    stopped_after: int | None = None  # the last deal checked when the limit was reached
    if options is not None and parsed:
        # In order, as the game was played: the first deal that breaks a rule is named.
        # The deals after it cannot be checked against the game as it was (a kingdom, the
        # end of the game), since the game was not what that deal says; each is checked on
        # its own instead, so its own mistakes are listed and no knock-on ones. So are the
        # deals after one that cannot be read at all: without it, a later deal would take
        # its place in its kingdom (tester 8: a correct deal 6 said to repeat a contract)
        before = [deal for deal in parsed if misshapen is None or deal[0] < misshapen]
        alone_from, broke = len(before), misshapen
        try:
            rules.score(names, first, options, [deal for _number, deal in before], names_at if changes else None)
        except RuleError as error:
            if error.deal is None or not 1 <= error.deal <= len(before):
                problems.append(error)
                alone_from = len(parsed)
            else:
                number, _deal = before[error.deal - 1]
                problems.append(type(error)(error.message, deal=number, seat=error.seat,
                                            field=error.field))
                problems.extend(_more_of(rules, raw_deals[number - 1], number, names_at(number), error))
                alone_from, broke = error.deal, number
        if broke is not None and alone_from < len(parsed):
            alone = _options_alone(rules, options)
            last = broke
            for later, deal in parsed[alone_from:]:
                if len(problems) >= limit:
                    stopped_after = last
                    break
                last = later
                try:
                    rules.score(names_at(later), first, alone, [deal])
                except RuleError as own:
                    problems.append(type(own)(own.message, deal=later, seat=own.seat,
                                              field=own.field))
                    problems.extend(_more_of(rules, raw_deals[later - 1], later, names_at(later), own))
            checked_alone_after = broke
    problems.sort(key=lambda error: 0 if error.deal is None else error.deal)
    if len(problems) > limit:
        problems, rest = problems[:limit], len(problems) - limit
        problems.append(FormatError(_("… and {n} more problems not listed").format(n=rest)))
    if stopped_after is not None:
        problems.append(FormatError(_("… deals after deal {n} were not checked for the rules")
                                    .format(n=stopped_after)))
    elif checked_alone_after is not None:
        # what a deal is checked against besides itself: in Trix its kingdom too (SCORING.md §2)
        said = (_("the deals after deal {n} were each checked on their own, not against the deals "
                  "before them (a kingdom, the end of the game): put deal {n} right and check again")
                if rules.kind == "trix" else
                _("the deals after deal {n} were each checked on their own, not against the deals "
                  "before them (the end of the game): put deal {n} right and check again"))
        problems.append(FormatError(said.format(n=checked_alone_after)))
    return problems


def _more_of(rules: GameRules, raw: Any, number: int, names: Sequence[str], said: RuleError) -> list[RuleError]:
    """Deal ``number``'s other problems its own entries show (GameRules.deal_problems),
    beside ``said``, the one its check raised: all of them are listed at once."""
    told = (said.field, said.seat, said.message)
    return [problem for problem in rules.deal_problems(raw, number, names)
            if (problem.field, problem.seat, problem.message) != told]


def _options_alone(rules: GameRules, options: Any) -> Any:
    """The options for checking one deal on its own: a fixed contract order says nothing
    about a deal without the deals before it."""
    dumped = rules.dump_options(options)
    if dumped.get("order") is None:
        return options
    return rules.parse_options({**dumped, "order": None})


# --------------------------------------------------------------------------- a group file

#: Imports refuse a group file larger than this (config GROUP_FILE_MAX_BYTES): years of a
#: group's games written out by the app take a few MB; a page upload is bounded by the
#: request limit (MAX_CONTENT_LENGTH, 1 MB) before this.
MAX_GROUP_BYTES = 16 * 1024 * 1024
#: A group file uploaded from a page holds at most this many games (config
#: GROUP_FILE_MAX_GAMES): the import stores them in one transaction, which every other
#: write of the server waits for, and a megabyte of empty games is about ten thousand
#: (tester 66: a minute in which no table could save a deal). A group's file of real
#: games reaches the upload's megabyte long before; ``scorekeeper import`` takes any.
MAX_UPLOAD_GAMES = 1000
#: At most this many games with problems are listed; a file with more gets a last line.
MAX_GAMES_WITH_PROBLEMS = 10


@dataclass(frozen=True)
class GroupFile:
    """A parsed group file (GAME-FILE.md, "A group file"): ``name`` the group's name as
    the file gives it (None when it gives none); ``games`` every game, oldest first."""

    name: str | None
    games: tuple[GameFile, ...]


@dataclass(frozen=True)
class GameProblems:
    """The problems of one game of a group file: ``number`` its 1-based position in the
    file; ``kind`` and ``players`` as the file gives them, to name it ("" and () where the
    file's own are unreadable); ``problems`` as :func:`find_problems` lists them."""

    number: int
    kind: str
    players: tuple[str, ...]
    problems: list[RuleError]


@dataclass(frozen=True)
class GroupProblems:
    """Why a group file cannot be imported: ``file`` problems of the file itself (not
    JSON, the format, ``games`` not a list); ``games`` each game with a problem, in file
    order (at most :data:`MAX_GAMES_WITH_PROBLEMS`); ``more`` how many more games have
    problems beyond those listed."""

    file: list[RuleError]
    games: list[GameProblems]
    more: int = 0


def _decoded(text: str | bytes) -> Any:
    """The JSON value of an uploaded file's text; raises FormatError (not UTF-8, empty,
    not JSON)."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise FormatError(_("it is not UTF-8 text (unreadable byte at position "
                                "{at}); save it as UTF-8 and try again").format(at=exc.start)) from None
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise FormatError(_("it is empty"))
    try:
        return _decode(text)
    except (ValueError, RecursionError) as exc:
        raise _not_json(exc) from None


def is_group_file(text: str | bytes) -> bool:
    """Whether ``text`` is meant as a group file: a JSON object with ``games`` or
    ``group`` and no ``game`` (a game file has ``game``), so a group file that lost its
    games is told so, not that it lacks a game file's keys. Anything else, unreadable
    text too, is taken as a game file, whose checks then say what is wrong. Never raises."""
    try:
        data = _decoded(text)
    except FormatError:
        return False
    return isinstance(data, Mapping) and ("games" in data or "group" in data) and "game" not in data


def _names(raw: Any) -> tuple[str, ...]:
    """A game's player names as a file gives them, to name a game with problems (only
    the names that are text)."""
    players = raw.get("players") if isinstance(raw, Mapping) else None
    if not isinstance(players, list):
        return ()
    return tuple(clean_name(name) for name in players
                 if isinstance(name, str) and not any(unicodedata.category(c) == "Cs" for c in name))


def read_group(text: str | bytes, max_deals: int | None = None,
               max_games: int | None = None) -> GroupFile | GroupProblems:
    """Read a group file (``{"format": 1, "group": NAME, "games": [game files]}``) and
    check every game in it as importing its own game file would (:func:`find_problems`,
    ``max_deals`` deals at most in each; issue 18, part 4); a file of more than
    ``max_games`` games (None: any number) is refused before any game is read.

    Returns the :class:`GroupFile`, or :class:`GroupProblems` when anything is wrong:
    one broken game makes the whole file refused, so that an import stores a group whole
    or not at all (nothing is lost, nothing is wrong). ``group`` may be missing; when
    given it is text. Never raises on bad input."""
    try:
        data = _decoded(text)
    except FormatError as error:
        return GroupProblems([error], [])
    if not isinstance(data, Mapping):
        return GroupProblems([FormatError(_("a group file is a JSON object"))], [])
    file_problems: list[RuleError] = []
    if "format" not in data:
        file_problems.append(FormatError(_("missing key {key!r}").format(key="format"), field="format"))
    elif type(data["format"]) is not int or data["format"] != FORMAT:
        file_problems.append(FormatError(_("format must be 1, not {value!r}").format(value=data["format"]),
                                         field="format"))
    name = data.get("group")
    if name is not None and not isinstance(name, str):
        file_problems.append(FormatError(_("group must be the group's name, as text"), field="group"))
    games = data.get("games")
    if not isinstance(games, list):
        file_problems.append(FormatError(_("games must be a list of game files"), field="games"))
        return GroupProblems(file_problems, [])
    if max_games is not None and len(games) > max_games:
        file_problems.append(FormatError(_("it holds {n} games; a group file imported from a page holds at most "
                                           "{most}: import it on the server, with scorekeeper import").format(
            n=len(games), most=max_games), field="games"))
    if file_problems:
        return GroupProblems(file_problems, [])
    broken: list[GameProblems] = []
    parsed: list[GameFile] = []
    for number, raw in enumerate(games, 1):
        found = find_problems(json.dumps(raw, ensure_ascii=False), max_deals=max_deals)
        if found:
            kind = raw.get("game") if isinstance(raw, Mapping) else None
            broken.append(GameProblems(number, kind if isinstance(kind, str) else "", _names(raw), found))
        elif not broken:
            parsed.append(from_dict(raw))
    if broken:
        listed = broken[:MAX_GAMES_WITH_PROBLEMS]
        return GroupProblems([], listed, len(broken) - len(listed))
    return GroupFile(name, tuple(parsed))


def group_dict(name: str, games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A group file (GAME-FILE.md): ``games`` whole game files, oldest first."""
    return {"format": FORMAT, "group": name, "games": list(games)}


def group_dumps(name: str, games: Sequence[Mapping[str, Any]]) -> str:
    """A group file as pretty JSON text (names kept as they are), like :func:`dumps`."""
    return json.dumps(group_dict(name, games), indent=2, ensure_ascii=False) + "\n"


def same_game_key(data: Mapping[str, Any]) -> str:
    """What makes two stored games the same game, from a game file dict as exported:
    the kind, the players (each seat's :func:`inputs.name_key`, so "anna" is "Anna"), the
    first dealer, the options, the deals and the seat changes (whoever takes a seat, by
    name key too). A group import does not store a game whose key a game of the group
    has already (issue 18, part 4); keys the format does not define are left out."""
    return _game_key(data, data.get("deals"))


def continues(longer: Mapping[str, Any], shorter: Mapping[str, Any], *, same_kin: bool = False) -> bool:
    """Whether game file dict ``longer`` is game ``shorter`` played on: the same kind,
    players (any case), first dealer and options (:func:`kin_key`); ``shorter``'s deals
    are ``longer``'s first deals; and its seat changes are ``longer``'s, but for changes
    from after ``shorter``'s last deal, and there are more deals or such a change
    (a player who took over later: GAME-FILE.md,
    "Someone takes over a seat"). Both as exported (records.StoredGame.exported). A
    group file imported again after its games were played on (store.import_games), or
    a game's newer file imported where an older copy is stored (issue 18, part 4).
    ``same_kin``: the caller knows both have one :func:`kin_key` (games it grouped by it)."""
    deals, earlier = list(longer.get("deals") or ()), list(shorter.get("deals") or ())
    played = len(earlier)
    # the cheap tests first (a group's games are compared pairwise): counts, then the
    # deals as parsed JSON (equal whatever their keys' order), then the kin
    if played > len(deals) or deals[:played] != earlier or (not same_kin and kin_key(longer) != kin_key(shorter)):
        return False
    later = _change_keys(longer)
    for change in _change_keys(shorter):
        if change not in later:
            return False
        later.remove(change)
    # more deals, or the same deals and a seat taken over from the next deal on
    return all(change[0] > played for change in later) and (played < len(deals) or bool(later))


def kin_key(data: Mapping[str, Any]) -> str:
    """What two games must share for one to continue the other (:func:`continues`): the
    kind, the players (name keys), the first dealer and the options of game file dict
    ``data``; neither deals nor seat changes."""
    return _game_key({**data, "seat_changes": []}, None)


def _change_keys(data: Mapping[str, Any]) -> list[tuple[int, int, str]]:
    """Game file dict ``data``'s seat changes as (from_deal, seat, player's name key)."""
    return [(change["from_deal"], change["seat"], name_key(str(change["player"])))
            for change in data.get("seat_changes") or () if isinstance(change, Mapping)]


def _game_key(data: Mapping[str, Any], deals: Any) -> str:
    changes = [{**change, "player": name_key(change["player"])}
               if isinstance(change, Mapping) and isinstance(change.get("player"), str) else change
               for change in data.get("seat_changes") or ()]
    return json.dumps({"game": data.get("game"), "players": [name_key(str(n)) for n in data.get("players", ())],
                       "first_dealer": data.get("first_dealer"), "options": data.get("options"),
                       "deals": deals, "seat_changes": changes}, sort_keys=True, ensure_ascii=False)
