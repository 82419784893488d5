"""The stored game's types: a game, its deals and its recorded changes, as plain frozen
dataclasses. No database here (store.py reads and writes them; sheet.py, stats.py,
history.py and conflicts.py read them), so everything that reads a game can do without
the storage layer.

What is stored is what the table saw — deal entries exactly as the game file has them —
never points: :meth:`StoredGame.game_file` parses a game to score it on read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from . import gamefile
from .gamefile import GameFile
from .inputs import name_key
from .rules import RuleError


class NotFoundError(LookupError):
    """No game (or no deal in that game) with that id (raised here by
    :meth:`StoredGame.deal_index`, and by the store's reads and writes)."""


#: What a :class:`Change` records; ``before``/``after`` hold, per action:
#: game_created — None / the game file as stored (players, first_dealer, options, deals);
#: deal_added, deal_restored — None / the deal entry; deal_deleted — the entry / None;
#: deal_changed — the old entry / the new entry; players_renamed — {"players": [names in
#: playing order]} both, with {"took_over": {seat change id: name}} when a player renamed
#: across the group had taken over a seat (store.rename_player); settings_changed — {"options": {every option}} both;
#: game_deleted — None / {"deleted_at": UTC time}; game_restored — {"deleted_at": the
#: time it had been deleted} / None (issue 18, part 1: the game itself is unchanged);
#: seat_taken — None / the seat change ({"id", "seat", "position", "player", "player_id",
#: "replaces", "from_deal"}: :class:`SeatTaken` and who sat there before); seat_taken_back
#: — that same object / None (issue 18, part 3); first_dealer_changed — {"first_dealer":
#: seat} both (who deals first, in Trix who holds the 7♥: only before the first deal).
ACTIONS: tuple[str, ...] = ("game_created", "deal_added", "deal_changed", "deal_deleted",
                            "deal_restored", "players_renamed", "settings_changed",
                            "game_deleted", "game_restored", "seat_taken", "seat_taken_back",
                            "first_dealer_changed")


@dataclass(frozen=True)
class StoredDeal:
    """One deal as stored: ``entry`` is the game file's deal object; ``position`` its
    place in the order of play (0-based)."""

    id: int
    position: int
    entry: dict[str, Any]

    @property
    def version(self) -> str:
        """A short fingerprint of the entry: an edit form carries it, so a save over a
        change made meanwhile on another phone is noticed, not silently undone."""
        return fingerprint(self.entry)


def fingerprint(entry: Mapping[str, Any]) -> str:
    """A deal entry's fingerprint (16 hex digits; equal entries, equal fingerprints)."""
    return hashlib.sha256(json.dumps(entry, sort_keys=True).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class SeatTaken:
    """Someone takes over a seat, as stored (issue 18, part 3): ``seat`` (0-based) is
    played by ``player`` (as spelt now; ``player_id`` the players-table id) in every deal
    whose place key is ``position`` or later: the place the next deal took when the
    change was made, so a deal deleted or restored before it moves its deal number
    (:meth:`StoredGame.from_deal`) but never who played which deal. ``at``: UTC ISO 8601."""

    id: int
    position: int
    seat: int
    player: str
    player_id: int | None = None
    at: str = ""


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
    #: The id of the game's latest recorded change (0 before any): it grows with every
    #: write, so a phone that read version N knows the game changed when it is not N.
    version: int = 0
    #: When the game was deleted (UTC ISO 8601; soft: it can be restored), None while in
    #: play (issue 18, part 1)
    deleted_at: str | None = None
    #: Who took over a seat when, in the order of their places (:class:`SeatTaken`);
    #: ``players`` are who sat at the start.
    seat_changes: tuple[SeatTaken, ...] = ()
    #: Stored from a game file (an import, or a group moved from another server), not
    #: started here: ``created_at`` is then when it was imported, not when it was played
    imported: bool = False

    def to_dict(self, entries: Iterable[Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The game file dict, with ``entries`` in place of the stored deals if given
        (then a seat change from past the deal after them is left out: the game as far as
        those deals). ``seat_changes`` only when there are some (GAME-FILE.md: optional)."""
        deals = [d.entry for d in self.deals] if entries is None else list(entries)
        changes: list[dict[str, Any]] = [
            {"from_deal": self.from_deal(c), "seat": c.seat, "player": c.player} for c in self.seat_changes
            if entries is None or self.from_deal(c) <= len(deals) + 1]
        return {
            "format": gamefile.FORMAT,
            "game": self.kind,
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "options": self.options,
            "deals": deals,
            **({"seat_changes": changes} if changes else {}),
        }

    def exported(self) -> dict[str, Any]:
        """The game file as "Game file" on the score sheet downloads it (GAME-FILE.md):
        parsed and written out again (every option spelt out, keys in the format's
        order); when a stored deal no longer fits the rules, what was entered, unchanged.
        The group file holds each game exactly so (issue 18, part 4)."""
        try:
            return self.game_file().to_dict()
        except RuleError:
            return self.to_dict()

    def from_deal(self, change: SeatTaken) -> int:
        """The 1-based number of the first deal ``change``'s player plays (the number of
        deals + 1: from the next deal)."""
        return self.number_at(change.position)

    def players_at(self, number: int) -> tuple[str, ...]:
        """Who sat at each seat in deal ``number`` (1-based; the number of deals + 1: who
        sits now), names by seat."""
        names = list(self.players)
        for change in self.seat_changes:
            if self.from_deal(change) <= number and 0 <= change.seat < len(names):
                names[change.seat] = change.player
        return tuple(names)

    @property
    def players_now(self) -> tuple[str, ...]:
        """Who sits at each seat now (plays the next deal): names by seat."""
        return self.players_at(len(self.deals) + 1)

    def sat_before(self, seat: int) -> tuple[tuple[str, int, int], ...]:
        """Who else sat at ``seat`` before whoever sits there now, oldest first: (name,
        the first and the last deal they played there, 1-based); empty when nobody took
        over the seat. A change whose player played no deal yet (from the next deal)
        counts: the one it replaces played until the last deal. Whoever sits now is left
        out (a player who comes back is the column's name), and so is anyone who played
        no deal there (a seat given before the first deal)."""
        runs: list[tuple[str, int, int]] = []
        name, first = self.players[seat], 1
        for change in self.seat_changes:
            if change.seat != seat:
                continue
            runs.append((name, first, self.from_deal(change) - 1))
            name, first = change.player, self.from_deal(change)
        return tuple((who, start, end) for who, start, end in runs
                     if start <= end and name_key(who) != name_key(name))

    def game_file(self, entries: Iterable[Mapping[str, Any]] | None = None) -> GameFile:
        """Parse the stored game (or it with other deal entries); raises RuleError."""
        return gamefile.from_dict(self.to_dict(entries))

    def number_at(self, position: int) -> int:
        """The 1-based number a deal with place key ``position`` has (or would have back
        in its place, if it is out of play) among the deals in play."""
        return 1 + sum(d.position < position for d in self.deals)

    def deal_index(self, deal_id: int) -> int:
        """The 0-based index of deal ``deal_id``; raises NotFoundError."""
        for index, deal in enumerate(self.deals):
            if deal.id == deal_id:
                return index
        raise NotFoundError(f"no deal {deal_id} in game {self.id}")


@dataclass(frozen=True)
class Change:
    """One recorded change to a game, as :data:`ACTIONS` describes.

    ``at``: UTC ISO 8601; ``deal_id`` and ``position`` (the deal's place key in the order
    of play, as :attr:`StoredDeal.position`) for deal actions, else None; ``before`` and
    ``after``: what it was, decoded from JSON (None where there was nothing); ``nonce``:
    the one-time token of the players-and-settings form that made it (None for others).
    """

    id: int
    game_id: str
    at: str
    action: str
    deal_id: int | None
    position: int | None
    before: Any
    after: Any
    nonce: str | None = None


def with_deal_back(game: StoredGame, deal: StoredDeal) -> StoredGame:
    """``game`` as it would be with deleted ``deal`` back in its place (nothing stored)."""
    deals = sorted((*(d for d in game.deals if d.id != deal.id), deal), key=lambda d: d.position)
    return replace(game, deals=tuple(deals))


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as the ratings read it (summaries.finished_games; ratings.py):
    ``kind`` the game file's "game"; ``options`` its options dict (GAME-FILE.md);
    ``created_at`` when it was started (UTC, ISO 8601); ``seated`` who sat at each seat at
    the end, in playing order, as (players-table id, name): someone who took over a seat
    gets the seat's result, as in the players' records (issue 18, part 3); ``totals`` one
    int per seat, the game's final totals; ``winners`` the winning seats."""

    id: str
    kind: str
    created_at: str
    options: Mapping[str, Any]
    seated: tuple[tuple[int, str], ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...] = ()
