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
from typing import Any

from .rules import FormatError, GameRules, GameScore, get_rules
from .rules.common import _

FORMAT = 1
MAX_NAME_LENGTH = 40
# Direction overrides and isolates would turn a name (and the sheet around it) backwards;
# joiners (U+200C/U+200D), which some scripts need, stay allowed.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True)
class GameFile:
    """A parsed game file.

    ``players``: display names in playing order; ``first_dealer``: a seat (Trix: the
    first kingdom's owner); ``options``: the game's parsed options; ``deals``: the game's
    parsed deals, in the order played.
    """

    kind: str
    players: tuple[str, ...]
    first_dealer: int
    options: Any
    deals: tuple[Any, ...]

    @property
    def rules(self) -> GameRules:
        return get_rules(self.kind)

    def score(self) -> GameScore:
        """Score every deal; raises DealError on the first deal that breaks a rule."""
        return self.rules.score(self.players, self.first_dealer, self.options, self.deals)

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
        }


def check_player_names(names: Any, seats: int) -> tuple[str, ...]:
    """``seats`` distinct, non-empty names (trimmed; compared regardless of case).

    Raises FormatError (field "players", seat of the offending name where there is one).
    """
    if not isinstance(names, list) or len(names) != seats:
        raise FormatError(_("players must be a list of {n} names").format(n=seats), field="players")
    out: list[str] = []
    seen: set[str] = set()
    for seat, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise FormatError(_("player {n} has no name").format(n=seat + 1), field="players", seat=seat)
        name = " ".join(name.split())
        if len(name) > MAX_NAME_LENGTH:
            raise FormatError(_("player {n}'s name is longer than {max} characters").format(
                n=seat + 1, max=MAX_NAME_LENGTH), field="players", seat=seat)
        if any(unicodedata.category(c) == "Cc" or c in _BIDI_CONTROLS for c in name):
            raise FormatError(_("player {n}'s name has invisible control characters").format(n=seat + 1),
                              field="players", seat=seat)
        if name.casefold() in seen:
            raise FormatError(_("{name} is named twice").format(name=name), field="players", seat=seat)
        seen.add(name.casefold())
        out.append(name)
    return tuple(out)


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
                last=rules.seats - 1, value=first), field="first_dealer")
    if not isinstance(data["options"], Mapping):
        raise FormatError(_("options must be an object"), field="options")
    options = rules.parse_options(data["options"])
    if not isinstance(data["deals"], Sequence) or isinstance(data["deals"], str):
        raise FormatError(_("deals must be a list"), field="deals")
    deals = tuple(rules.parse_deal(raw, number, players) for number, raw in enumerate(data["deals"], 1))
    return GameFile(data["game"], players, first, options, deals)


def loads(text: str | bytes) -> GameFile:
    """Parse a game file's JSON text; raises FormatError (not JSON, bad shape) or
    DealError."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8-sig")
    try:
        data = json.loads(text.removeprefix("\ufeff"))  # a byte-order mark from a Windows editor
    except (ValueError, RecursionError) as exc:
        raise FormatError(_("not a JSON file: {problem}").format(problem=exc)) from None
    return from_dict(data)


def dumps(game: GameFile) -> str:
    """The game file as pretty JSON text (UTF-8 names kept as they are)."""
    return json.dumps(game.to_dict(), indent=2, ensure_ascii=False) + "\n"
