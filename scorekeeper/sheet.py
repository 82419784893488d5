"""The score sheet of a stored game: scored on read from the deal entries.

No Flask here. If a stored deal no longer fits the rules (a rules fix, a hand-edited
database), the sheet shows every deal before it and names the problem, instead of failing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .gamefile import GameFile
from .records import StoredGame
from .rules import GameScore, RuleError
from .rules.common import SUITS
from .rules.trix import TeamStanding, TrixOptions, team_standings


@dataclass(frozen=True)
class Sheet:
    """A stored game with its score.

    ``score`` covers every deal, or the deals before ``problem`` when a stored deal breaks
    a rule; ``problem`` is that RuleError (its ``deal`` is 1-based).
    """

    game: StoredGame
    file: GameFile | None
    score: GameScore | None
    problem: RuleError | None

    @property
    def reversed(self) -> bool:
        return self.game.options.get("scoring") == "reversed"

    @property
    def deal_count(self) -> int:
        return len(self.game.deals)

    @property
    def leaders(self) -> tuple[int, ...]:
        """Seats in first place so far, by the rules' own places: the best total
        (highest; lowest under reversed scoring), or with partners both partners of the
        side ahead (SCORING.md §2.5: the team row marks the same side); none before the
        first deal."""
        if not self.score or not self.score.deals:
            return ()
        if self.file is not None:
            places = self.file.rules.places(self.score, self.file.options)
            return tuple(seat for seat, place in enumerate(places) if place == 1)
        totals = self.score.totals
        best = min(totals) if self.reversed else max(totals)
        return tuple(seat for seat, total in enumerate(totals) if total == best)

    @property
    def teams(self) -> tuple[TeamStanding, TeamStanding] | None:
        """A partners' Trix game's two teams (seats 0+2, 1+3) as the Teams row shows them:
        ``decides`` is the team total ("sum") or the team's worst individual total
        ("worst-loses"), ``ahead`` the team that wins (finished) or would win now
        (SCORING.md §2.5); None without partners or before a score."""
        if not self.score or not self.file or not isinstance(self.file.options, TrixOptions) \
                or self.file.options.partnership is None:
            return None
        return team_standings(self.score.totals, self.file.options)

    @property
    def finished(self) -> bool:
        return bool(self.score and self.score.finished)

    @property
    def can_add(self) -> bool:
        return self.problem is None and self.score is not None and not self.score.finished

    def doubled(self, index: int) -> dict[int, list[tuple[str, str]]]:
        """The cards doubled in stored Trix deal ``index`` (0-based), by the seat that
        doubled them: {seat: [("K", "H"), ("Q", "S"), …]}, the King of Hearts first, then
        the queens in the order ♠ ♥ ♦ ♣; empty for a deal without doubling. Read from the
        entry as the table gave it (GAME-FILE.md: ``king.doubled_by``,
        ``queens.<suit>.doubled_by``), for the marks on the sheet's row (♥K², Q♠²)."""
        entry = self.game.deals[index].entry
        cards: list[tuple[int | None, str, str]] = []
        if isinstance(entry.get("king"), dict):
            cards.append((entry["king"].get("doubled_by"), "K", "H"))
        queens = entry.get("queens")
        if isinstance(queens, dict):
            cards += [(queens[s].get("doubled_by"), "Q", s) for s in SUITS if isinstance(queens.get(s), dict)]
        out: dict[int, list[tuple[str, str]]] = {}
        for seat, rank, suit in cards:
            if isinstance(seat, int) and not isinstance(seat, bool):
                out.setdefault(seat, []).append((rank, suit))
        return out

    def deal_score(self, index: int) -> Any:
        """The DealScore of stored deal ``index`` (0-based), or None past a problem."""
        if self.score and index < len(self.score.deals):
            return self.score.deals[index]
        return None


def build(game: StoredGame) -> Sheet:
    """Score a stored game for its sheet; never raises on a deal that breaks a rule."""
    try:
        file = game.game_file()
    except RuleError as problem:
        if problem.deal is None:
            return Sheet(game, None, None, problem)
        file = game.game_file([d.entry for d in game.deals[: problem.deal - 1]])
        return Sheet(game, file, file.score(), problem)
    try:
        return Sheet(game, file, file.score(), None)
    except RuleError as problem:
        if problem.deal is None:
            return Sheet(game, file, None, problem)
        head = game.game_file([d.entry for d in game.deals[: problem.deal - 1]])
        return Sheet(game, head, head.score(), problem)
