"""Each player's rating from the group's finished games (issue 20, part 4), and the
ranking the players list shows: a read model over the finished games' kept results
(summaries.finished_games), never scoring a game on read. The rules in words:
docs/club-nights.md, "Ratings".

**The library.** The ratings are openskill's (Weng–Lin Bayesian ratings for games of
many players and teams): each player has a rating ``mu`` (25 before the first game) and
an uncertainty ``sigma`` (25/3 at first), which shrinks as they play more. The model is
:class:`openskill.models.BradleyTerryFull`, not the library's default PlackettLuce,
because games here end in ties (two players level at the end share the better place,
and a Trix game of partners can end level): tried on openskill 6.2, PlackettLuce moves a
tied pair by less than the places they share and rates the player *behind* a tie as if
tied with it (places 1, 1, 3, 4: the third gains exactly what the two first gain), while
BradleyTerryFull, which compares every pair of sides, gives each tied side the average
of the places it shares (1, 1, 3, 4: the two first gain the mean of what first and second
would gain; the third loses what a third loses in 1, 2, 3, 4). The model's own defaults
are kept (mu 25, sigma 25/3, beta 25/6, tau 25/300), so a test or a reader can rate the
same games with the library directly and find the same numbers.

**What is rated.** Every finished game of the group that is not deleted (Trigami, plain
Bugami, Trix), one at a time in the order the games were started. A game's finishing
places are the rules' own (``GameRules.places``: highest total first, lowest under
reversed Trix scoring; level players share the better place; partners: the side ahead
by the partnership rule first, both partners alike), and its sides are the rules' own
(``GameRules.sides``): each player alone, or partners as one team of two. Someone who
took over a seat is rated with the seat's result, as the players' records count it;
who left before the end is not rated for that game. Games not finished count nothing.

**The ranking** orders players by the library's *ordinal*, ``mu − 3·sigma``: a rating
that the player is very likely above, so that a good result in one or two games does not
put a newcomer above a player proven over many. Players with the same ordinal share the
rank (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache

import sqlite_utils
from openskill.models import BradleyTerryFull, BradleyTerryFullRating

from . import summaries
from .inputs import name_key
from .records import FinishedGame
from .rules import RuleError, get_rules
from .rules.common import GameScore

#: How many sigmas below mu the ordinal sits: openskill's own ``ordinal()`` default
Z = 3


@cache
def model() -> BradleyTerryFull:
    """The rating model, with openskill's defaults (see the module's docstring for why
    this one)."""
    return BradleyTerryFull()


def first_rating() -> tuple[float, float]:
    """(mu, sigma) of a player before their first game: the model's (25, 25/3)."""
    return float(model().mu), float(model().sigma)


@dataclass(frozen=True)
class Rating:
    """A player's rating: ``mu`` the rating (about 25 for an average player), ``sigma``
    its uncertainty (25/3 before any game, smaller with every game), ``games`` how many
    finished games it comes from; ``player_id`` (players-table id) and ``name``."""

    player_id: int
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """``mu − 3·sigma``: what the ranking orders by (openskill's ordinal)."""
        return self.mu - Z * self.sigma


@dataclass(frozen=True)
class RankedRow:
    """One line of the ranking: ``rank`` (1 first; players with an equal ordinal, as the
    ranking shows it, share it: 1, 1, 3) and the player's :class:`Rating`."""

    rank: int
    rating: Rating

    @property
    def player_id(self) -> int:
        return self.rating.player_id

    @property
    def name(self) -> str:
        return self.rating.name

    @property
    def mu(self) -> float:
        return self.rating.mu

    @property
    def sigma(self) -> float:
        return self.rating.sigma

    @property
    def ordinal(self) -> float:
        return self.rating.ordinal

    @property
    def games(self) -> int:
        return self.rating.games


def game_sides(game: FinishedGame) -> tuple[list[list[int]], list[float]] | None:
    """The sides of ``game`` as the model rates them: (teams, ranks). ``teams``: one list
    of players-table ids per side (a player alone, or the two partners), ``ranks``: each
    side's finishing place from the rules (1.0 first; sides level share the better place).
    None for a game the rules cannot read (a kind or option this version does not know)."""
    try:
        rules = get_rules(game.kind)
        options = rules.parse_options(game.options)
    except RuleError:
        return None
    # the game as it ended, as GameRules.places reads it: its final totals and winners
    score = GameScore(deals=(), totals=game.totals, finished=True, winners=game.winners, next_dealer=None)
    places = rules.places(score, options)
    sides = rules.sides(options)
    teams = [[game.seated[seat][0] for seat in side] for side in sides]
    ranks = [float(min(places[seat] for seat in side)) for side in sides]  # the library's type
    return teams, ranks


def rate(games: Iterable[FinishedGame]) -> dict[int, Rating]:
    """Every player's rating after ``games`` (finished games, oldest first), rated one
    after the other with :func:`model`: {players-table id: Rating}, each with the name
    the games give. Players in no game are absent. Games the rules cannot
    read, or with a player at two seats, are skipped."""
    rate_game = model().rate
    new_rating = model().rating
    current: dict[int, BradleyTerryFullRating] = {}
    counts: dict[int, int] = {}
    names: dict[int, str] = {}
    for game in games:
        read = game_sides(game)
        if read is None:
            continue
        teams, ranks = read
        if len({pid for team in teams for pid in team}) != len(game.seated):
            continue
        for pid, name in game.seated:
            names[pid] = name
            if pid not in current:
                current[pid] = new_rating()
        rated = rate_game([[current[pid] for pid in team] for team in teams], ranks=ranks)
        for team, after in zip(teams, rated, strict=True):
            for pid, rating in zip(team, after, strict=True):
                current[pid] = rating
                counts[pid] = counts.get(pid, 0) + 1
    return {pid: Rating(pid, names[pid], float(r.mu), float(r.sigma), counts[pid])
            for pid, r in current.items()}


#: The decimals of an ordinal the ranking shows ("ranked by 5.17") and ranks by
SHOWN_PLACES = 2


def rank(rated: Iterable[Rating]) -> list[RankedRow]:
    """``rated`` ranked: highest ordinal first (then higher mu, then by name); players
    whose ordinals are equal as the ranking shows them (:data:`SHOWN_PLACES` decimals)
    share the rank: 1, 1, 3. (Two players each shown "ranked by 5.17" had ranks 3 and 4,
    on a page that says players level share a rank: tester 19.)"""
    def shown(rating: Rating) -> float:
        return round(rating.ordinal, SHOWN_PLACES) + 0.0  # -0.0 is 0.0

    ordered = sorted(rated, key=lambda r: (-shown(r), -r.mu, name_key(r.name), r.player_id))
    rows: list[RankedRow] = []
    for index, rating in enumerate(ordered):
        if rows and shown(rows[-1].rating) == shown(rating):
            rows.append(RankedRow(rows[-1].rank, rating))
        else:
            rows.append(RankedRow(index + 1, rating))
    return rows


def _moment(value: date | str | None) -> str | None:
    """A period's bound as the store compares it: a day as its ISO form (its UTC
    midnight), a datetime in ISO 8601, a string as it is."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    return value.isoformat()


def ratings(db: sqlite_utils.Database, group: int, *, since: date | str | None = None,
            before: date | str | None = None, kind: str | None = None) -> dict[str, Rating]:
    """Every player's rating from group ``group``'s finished games (see the module's
    docstring), by name: games started at or after ``since`` and before ``before`` (days:
    UTC midnight; or UTC ISO 8601 moments) and of ``kind`` ("trigami", "bugami3",
    "trix") only when given. One read of the kept results, then the library."""
    rated = rate(summaries.finished_games(db, group, since=_moment(since), before=_moment(before), kind=kind))
    return {rating.name: rating for rating in rated.values()}


def ranking(db: sqlite_utils.Database, group: int, *, since: date | str | None = None,
            before: date | str | None = None, kind: str | None = None) -> list[RankedRow]:
    """The group's ranking over the period and kind asked for (as :func:`ratings`):
    everyone with a rated game in it, best first (:func:`rank`)."""
    return rank(ratings(db, group, since=since, before=before, kind=kind).values())


def ranking_order(db: sqlite_utils.Database, group: int, names: Sequence[str]) -> list[str]:
    """``names`` in the order of the group's ranking over all its games, best first; the
    names without a rating yet last, in the order given. A name is matched as players'
    names are (case, spaces and look-alike letters aside: inputs.name_key), and returned
    as given. For a club night's round 1 seated "by the group's ranking"
    (docs/club-nights.md, Seating)."""
    position = {name_key(row.name): index for index, row in enumerate(ranking(db, group))}
    unrated = len(position)
    return [name for _, name in sorted(enumerate(names), key=lambda item: (
        position.get(name_key(item[1]), unrated), item[0]))]
