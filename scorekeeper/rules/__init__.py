"""The scoring rules, one module per game, behind one interface (common.GameRules).

Pure Python: no Flask, WTForms or database imports here (a test enforces it).
"""

from __future__ import annotations

from . import trigami, trix
from .common import DealError, FormatError, GameOverError, GameRules, GameScore, RuleError, _


def get_rules(kind: str) -> GameRules:
    """The rules object for a game file's ``game`` value; raises FormatError if unknown."""
    games: dict[str, GameRules] = {
        "trigami": trigami.TRIGAMI,
        "bugami3": trigami.BUGAMI3,
        "trix": trix.TRIX,
    }
    try:
        return games[kind]
    except (KeyError, TypeError):
        raise FormatError(_("unknown game {kind!r}; expected one of: {known}").format(
            kind=kind, known=", ".join(games)), field="game") from None


KINDS: tuple[str, ...] = ("trigami", "bugami3", "trix")

__all__ = ["KINDS", "DealError", "FormatError", "GameOverError", "GameRules", "GameScore", "RuleError", "get_rules"]
