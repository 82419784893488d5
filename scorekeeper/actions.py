"""What the app does to a game: add, change, delete and restore a deal, change the
players and settings, delete and restore a game, import a game file or a group file.

Plain functions: each takes the database (``sqlite_utils.Database``) and plain values
(the game as the request read it, the entry as the game file writes it, the form's
one-time token, the version the phone saw) and returns what happened as a result object
(:class:`Saved`, :class:`Stale`, :class:`Refused`, …), never words or pages: the views
choose those. No Flask here, so every path can be tested without a request.

The checks that guard a write run inside its transaction (store.py): the rules score the
game with the change there, so a change another phone saved this instant counts. What
is checked here first (a form token already used, a game another phone changed since
the phone read it) is checked again by the write where it matters. So is a table card's
right to write (``card``: the deal actions read it in their own transaction, before the
store's write, :class:`CardClosed`): the request's check (access.admit) answers early,
this one holds when the organiser closes the round at the instant of the save.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlite_utils

from . import groups, store
from .gamefile import GameFile, GroupProblems, find_problems, group_dumps, loads, read_group
from .records import Change, StoredDeal, StoredGame, fingerprint, with_deal_back
from .rules import GameScore, RuleError, get_rules

# ------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Saved:
    """A new deal was written. ``deal_id``: its id; ``number``: its 1-based number;
    ``score``: the whole game with it, as the write's own check scored it; ``version``:
    the deal's fingerprint (records.fingerprint), what Undo sends back."""

    deal_id: int
    number: int
    score: GameScore
    version: str


@dataclass(frozen=True)
class AlreadySaved:
    """The form's token saved a deal already (a double tap, the form sent again, a second
    tap saved at the same instant): nothing was written. ``game``: the game as it is;
    ``number`` and ``score``: that deal's 1-based number and the whole game scored, None
    when it is no longer in play or the game no longer scores; ``version``: its
    fingerprint when it is still the game's newest deal (Undo stays on offer), else None."""

    game: StoredGame
    deal_id: int
    number: int | None = None
    score: GameScore | None = None
    version: str | None = None


@dataclass(frozen=True)
class SameDeal:
    """Another phone added this very deal (exactly these entries) after this phone read
    the game: nothing was written, the deal is saved once (issue 18, part 8). ``game``:
    the game as it is; ``deal_id`` and ``number``: that deal's id and 1-based number;
    ``nonce``: the form token it was saved with, which this phone's outbox counts as its
    own from now on (so its next waiting deal, made after this one, is no conflict)."""

    game: StoredGame
    deal_id: int
    number: int
    nonce: str | None = None


@dataclass(frozen=True)
class Stale:
    """Another phone changed the game after this phone read it: nothing was written.
    ``game``: the game as it is now (its version is the one the phone sees next);
    ``arrived``: the changes made meanwhile, oldest first (records.Change); ``set_back``:
    the version the phone read is one the game no longer has, the database put back
    from a backup since (store.set_back)."""

    game: StoredGame
    arrived: list[Change]
    set_back: bool = False


@dataclass(frozen=True)
class Refused:
    """The rules refused the change (the deal itself, or a later deal that would no
    longer fit): nothing was written. ``error``: the rules' error, naming its deal
    (1-based), seat and field; ``others``: the deal's other problems its own entries
    show (rules.GameRules.deal_problems), to put right together with it."""

    error: RuleError
    others: tuple[RuleError, ...] = ()


def _refused(game: StoredGame, entry: Mapping[str, Any], number: int, error: RuleError) -> Refused:
    """Deal ``number`` (1-based) of ``game`` reading ``entry`` refused with ``error``,
    and the deal's other problems beside it (none when the error is another deal's)."""
    if error.deal != number:
        return Refused(error)
    said = (error.field, error.seat, error.message)
    found = get_rules(game.kind).deal_problems(dict(entry), number, game.players_at(number))
    return Refused(error, tuple(p for p in found if (p.field, p.seat, p.message) != said))


@dataclass(frozen=True)
class CannotGoBack:
    """The rules refused to restore the deal (it, or a later deal, would no longer fit
    with it back): nothing was written. ``error``: the rules' error (its deal counted
    with the deal back); ``number``: the 1-based number the deal would have had."""

    error: RuleError
    number: int


@dataclass(frozen=True)
class DiskFull:
    """The database's disk refused the write (full, read-only, failing): nothing was
    written, and a later write succeeds by itself once there is space.
    ``error``: store.DiskFullError (its ``reason``, ``path`` and SQLite's ``detail``)."""

    error: store.DiskFullError


@dataclass(frozen=True)
class Incomplete:
    """The entry had problems of its own (the form says which): nothing was checked
    against the game, nothing written."""


@dataclass(frozen=True)
class Changed:
    """A deal reads as the change says. ``number``: its 1-based number; ``score``: the
    whole game with it; ``written``: False when it read so already (the same change sent
    twice, or Save without a change: nothing written, and the answer is the same);
    ``altered``: False when the phone sent the deal back as it read it (Save on a form
    with nothing altered), True for a change (written, or saved already by an earlier
    send of the same form)."""

    deal_id: int
    number: int
    score: GameScore
    written: bool = True
    altered: bool = True


@dataclass(frozen=True)
class ChangedMeanwhile:
    """The deal was changed on another phone since this phone read it (its fingerprint is
    no longer the one sent): nothing was written. ``deal``: the deal as it is now;
    ``read``: its entry as this phone read it (found by that fingerprint in the change
    log), None when the log does not have it."""

    deal: StoredDeal
    read: dict[str, Any] | None = None


@dataclass(frozen=True)
class Gone:
    """The deal was deleted (on another phone) since this phone read it: nothing was
    written. ``number``: the 1-based number it had in play (for the offer to restore it);
    None when the game has no such deal at all."""

    number: int | None


@dataclass(frozen=True)
class NotLast:
    """An Undo of deal ``number`` after another phone added deal ``number`` + 1 (or more):
    the deal is no longer the game's last, and taking it back would move the later deals
    up, each with another dealer. Nothing was written; a Delete asked for knowingly does it.
    ``game``: the game as it is now (read in the refused write's transaction)."""

    number: int
    game: StoredGame


@dataclass(frozen=True)
class LaterChanged:
    """A Delete of deal ``number`` confirmed on a page drawn before another phone added
    (or deleted) a deal after it: the page did not say that those deals move up one
    place, each with another dealer (tester 63, HIGH: the other phone's Trix, deal 16,
    became deal 15 in the wrong kingdom, dealt by the wrong seat). Nothing was written;
    the page is drawn again for the game as it is now (``game``, read in the refused
    write's transaction), to be confirmed again."""

    number: int
    game: StoredGame


@dataclass(frozen=True)
class Deleted:
    """The deal left play (softly: it can be restored). ``number``: the 1-based number it
    had; ``again``: it had left already (the same delete sent twice, or another phone was
    quicker), and the answer is the same."""

    number: int
    again: bool = False


@dataclass(frozen=True)
class NotFound:
    """No such deal in the game (in play or deleted)."""


@dataclass(frozen=True)
class CardClosed:
    """The table card the phone came in with no longer lets it change its game's deals
    (docs/club-nights.md, "Table cards": its round closed or the next one seated, the
    night over, 12 hours past, or the card gone), as read inside the write's own
    transaction (groups.card_writes): nothing was written."""


@dataclass(frozen=True)
class Restored:
    """The deleted deal is back in its place. ``number``: its 1-based number; ``again``:
    it was back already (a double tap, or another phone was quicker)."""

    number: int
    again: bool = False


@dataclass(frozen=True)
class MovesLater:
    """Nothing restored: since the deal was deleted, deal ``later`` (its number now) and
    perhaps more were added after its place, by this phone or another, and the phone that
    asked had not shown that they would move: restored as deal ``number``, each moves down
    one place and its dealer with it (tester 32), so the players are asked first."""

    number: int
    later: int


@dataclass(frozen=True)
class Twin:
    """Nothing restored: deal ``number`` in play has exactly the deleted deal's entries
    (``later``: it stands after the deleted deal's place, so perhaps entered again by hand
    after the delete), so restoring would count it twice."""

    number: int
    later: bool = True


@dataclass(frozen=True)
class GameChanged:
    """Players and settings saved; ``made``: the changes this form's token made, oldest
    first (the same when the form is sent again; empty when nothing changed)."""

    made: list[Change]


@dataclass(frozen=True)
class Imported:
    """The game file is stored as game ``game_id``; ``game``: what it held; ``alike``: a
    game of the group like it (the same players and first dealer, many of the same
    deals: store._began_alike) but not it, now beside it (both count: the reader is
    told which)."""

    game_id: str
    game: GameFile
    alike: str | None = None


@dataclass(frozen=True)
class Problems:
    """The game file has problems (gamefile.find_problems: each a RuleError, with its
    deal when it is in one): nothing was stored."""

    problems: list[RuleError]


@dataclass(frozen=True)
class AlreadyStored:
    """An identical game is stored already (``game``), or (``continued``) the same game
    played on since the file was written, or (``table``) a club night's table whose
    later deals the file holds (they come with the night's file): nothing was stored."""

    game: StoredGame
    continued: bool = False
    table: bool = False


@dataclass(frozen=True)
class Continued:
    """The file's game is a game of the group (``game_id``) played on elsewhere since
    the group's copy: its later deals (``added``; 0 when only a seat was taken over after
    the group's last deal) and seat changes (``seats``: how many, the file's last ones)
    were added to it, not stored as a second game. ``game``: the file's game."""

    game_id: str
    game: GameFile
    added: int
    seats: int = 0

    @property
    def seat_changes(self) -> tuple[tuple[str, str, int], ...]:
        """The seat changes added, each (who takes the seat, who sat there before, from
        which deal)."""
        changes = self.game.seat_changes[len(self.game.seat_changes) - self.seats:] if self.seats else ()
        return tuple((change.player, self.game.players_at(change.from_deal - 1)[change.seat], change.from_deal)
                     for change in changes)


class _ImportCounts:
    """What a group file's import did, counted from its ``games`` (store.ImportedGame,
    one a game of the file)."""

    games: Sequence[store.ImportedGame]

    @property
    def stored(self) -> int:
        """How many games were stored."""
        return sum(not game.already for game in self.games)

    @property
    def already(self) -> int:
        """How many games the group held already (not counting a game the file lists
        again: :attr:`again`)."""
        return sum(game.already and not game.again for game in self.games)

    @property
    def again(self) -> int:
        """How many games the file lists again (the same deals as a game before them in
        the file): each is that game, stored once."""
        return sum(bool(game.again) for game in self.games)

    @property
    def added(self) -> int:
        """How many later deals were added to games the group held already."""
        return sum(game.added for game in self.games)


@dataclass(frozen=True)
class GroupImported(_ImportCounts):
    """A group file was imported: ``games`` each game of the file, in file order
    (store.ImportedGame: the game stored, or the group's game it is already); ``files``
    what the file held for each (gamefile.GameFile), in the same order."""

    games: list[store.ImportedGame]
    files: tuple[GameFile, ...]

    def report(self, filename: str | None) -> GroupReport:
        """What the import did, to be kept and shown (:func:`keep_group_report`);
        ``filename``: the uploaded file's name, shown with it."""
        return GroupReport(tuple(self.games), tuple(ImportedFile(game.kind, tuple(game.players), len(game.deals))
                                                    for game in self.files), filename)


@dataclass(frozen=True)
class ImportedFile:
    """What a group file held for one game, as its import report names it: the kind
    ("trigami", "bugami3", "trix"), the players at the start and the number of deals."""

    kind: str
    players: tuple[str, ...]
    deals: int


@dataclass(frozen=True)
class GroupReport(_ImportCounts):
    """A group file's import as its page tells it, kept for that page's own address
    (a reload, the language switch: :func:`keep_group_report`, :func:`group_report`):
    each game of the file (``games``, store.ImportedGame) beside what the file held for
    it (``files``), and the file's name as uploaded."""

    games: tuple[store.ImportedGame, ...]
    files: tuple[ImportedFile, ...]
    filename: str | None

    def to_json(self) -> str:
        return json.dumps({"games": [asdict(game) for game in self.games],
                           "files": [asdict(file) for file in self.files], "filename": self.filename})

    @classmethod
    def from_json(cls, text: str) -> GroupReport:
        data = json.loads(text)
        return cls(tuple(store.ImportedGame(**game) for game in data["games"]),
                   tuple(ImportedFile(file["kind"], tuple(file["players"]), file["deals"]) for file in data["files"]),
                   data["filename"])


@dataclass(frozen=True)
class GroupRefused:
    """The group file has problems (gamefile.GroupProblems: of the file, or of its games,
    each named by its position and players): nothing was stored."""

    problems: GroupProblems


@dataclass(frozen=True)
class Started:
    """The new game is stored as game ``game_id`` (or was, by this very form before), its
    ``players`` by seat as stored: a name typed like a known player's ("matti") is that
    player's ("Matti"), as the sheet shows it."""

    game_id: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class StartedAlready:
    """This game was started within :data:`SAME_START` and has no deal yet (``twin``):
    nothing was stored; the phone is asked whether to open it or start another."""

    twin: StoredGame


@dataclass(frozen=True)
class GameDeleted:
    """The game left every list and statistic (softly: it can be restored). ``game``: the
    game as it was deleted (its ``deleted_at`` says when); ``again``: it was deleted
    already (a double tap, or another phone was quicker), nothing was written, and the
    answer is the same but says so."""

    game: StoredGame
    again: bool = False


@dataclass(frozen=True)
class GameRestored:
    """The deleted game is back whole (deals, history, links). ``game``: the game as it is
    now; ``again``: it was back already (a double tap, or another phone was quicker);
    ``twin``: the id of an identical game in play beside it (both with no deal yet: two
    starts, "Start another"), which the phone is told of, or None."""

    game: StoredGame
    again: bool = False
    twin: str | None = None


@dataclass(frozen=True)
class TwinInPlay:
    """The deleted game stays deleted: an identical game with the same deals (``twin``,
    its id) is in play (imported again after the delete), or (``continued``) the same
    game played on since on one side, and both would count the same game twice.
    ``game``: the deleted game, as it stays."""

    twin: str
    game: StoredGame
    continued: bool = False


@dataclass(frozen=True)
class NoSuchGame:
    """No such game (neither in play nor deleted)."""


@dataclass(frozen=True)
class NightTable:
    """Nothing written: the game is table ``table`` of round ``round`` of club night
    ``night_id``, whose players and settings are the night's; it goes with its night or
    not at all (docs/club-nights.md, "A table's game")."""

    night_id: int
    round: int
    table: int


#: How recent a game, with no deal yet, must be for a Start of the same game to be asked
#: about first
SAME_START = timedelta(hours=1)

#: What each action can answer
AddResult = Saved | AlreadySaved | SameDeal | Stale | Refused | DiskFull | Incomplete | CardClosed
ChangeResult = Changed | ChangedMeanwhile | Gone | Refused | DiskFull | Incomplete | CardClosed
@dataclass(frozen=True)
class SeatTakenFromDeal2:
    """Deleting deal 1 would have ``player`` play for ``replaced`` (at ``seat``) from the
    very first deal: a seat is taken over from deal 2 at the earliest (GAME-FILE.md,
    "Someone takes over a seat"), so the delete is refused; nothing was written. The deal
    can be changed instead (tester 39: refused in the game file's words, "from_deal must
    be a deal from 2 …")."""

    player: str
    replaced: str
    seat: int


DeleteResult = Deleted | ChangedMeanwhile | Refused | NotFound | CardClosed | NotLast | LaterChanged | SeatTakenFromDeal2
RestoreResult = Restored | Twin | MovesLater | CannotGoBack | NotFound | CardClosed
GameChangeResult = GameChanged | Stale | Refused | NightTable
ImportResult = Imported | Continued | Problems | AlreadyStored
GroupImportResult = GroupImported | GroupRefused
StartResult = Started | StartedAlready
GameDeleteResult = GameDeleted | NoSuchGame | NightTable
GameRestoreResult = GameRestored | TwinInPlay | NoSuchGame | NightTable


def _card_closed(db: sqlite_utils.Database, game_id: str, card: str | None) -> bool:
    """Whether table card ``card`` (its token; None: no card, a play link) may no longer
    change game ``game_id``'s deals; call it inside the write's transaction."""
    return card is not None and not groups.card_writes(db, card, game_id)


# ------------------------------------------------------------------------- a new deal


def add_deal(db: sqlite_utils.Database, game: StoredGame, entry: Mapping[str, Any] | None, *,
             nonce: str | None, seen: int | None, mine: Iterable[str] = (), card: str | None = None) -> AddResult:
    """Add deal ``entry`` (the game file's form of it; None: the form found problems in
    it) to ``game``, the game as this request read it.

    In this order: a deal saved already with form token ``nonce`` is the answer
    (:class:`AlreadySaved`: one write per tap); an entry with problems of its own is
    :class:`Stale` when the game changed since the phone read it (version ``seen``;
    None: not checked) by anything but this phone's own deals (their tokens ``mine``,
    sent from its outbox just before), else :class:`Incomplete`; then the write, which
    checks inside its transaction, against the game since ``seen``: another phone's deal
    added since with exactly this entry is :class:`SameDeal` (the same deal entered on
    two phones is one deal, issue 18, part 8), any other change but this phone's own
    deals :class:`Stale`; then it scores the game with the deal: :class:`Saved`,
    :class:`Refused` (also a game that is over), :class:`DiskFull`. ``card``: the
    table card's token the phone came in with (None: a play link); a card that no
    longer writes, read in the write's transaction first, is :class:`CardClosed`.
    Raises store.NotFoundError for a game gone meanwhile.
    """
    saved = store.deal_for_nonce(db, game.id, nonce)
    if saved is not None:
        return already_saved(game, saved)
    if entry is None:
        if seen is not None and seen != game.version:
            arrived = arrived_since(db, game.id, seen, game.version, mine)  # the rule a poll tells
            if arrived.stops:
                return Stale(game, arrived.changes, arrived.set_back)
        return Incomplete()
    try:
        with store.writing(db):
            if _card_closed(db, game.id, card):
                return CardClosed()
            added = store.add_deal_scored(db, game.id, entry, nonce, seen=game.version if seen is None else seen,
                                          mine=mine)
    except store.StaleError as stale:
        if (saved := store.deal_for_nonce(db, game.id, nonce)) is not None:
            return already_saved(stale.game, saved)  # the same form, saved this instant by a second tap
        return Stale(stale.game, stale.since, stale.set_back)
    except RuleError as error:
        return _refused(game, entry, len(game.deals) + 1, error)
    except store.DiskFullError as error:
        return DiskFull(error)
    if added.same:  # another phone was quicker with this very deal
        return SameDeal(store.get_game(db, game.id), added.deal_id, added.number or 0,
                        store.nonce_of_deal(db, added.deal_id))
    if added.score is None:  # the same form, saved this instant by a second tap
        return already_saved(store.get_game(db, game.id), added.deal_id)
    return Saved(added.deal_id, added.number or len(game.deals) + 1, added.score, fingerprint(entry))


def already_saved(game: StoredGame, deal_id: int) -> AlreadySaved:
    """What the first tap saved, deal ``deal_id`` of ``game`` (the game as it is)."""
    try:
        index = game.deal_index(deal_id)
        score = game.game_file().score()
    except (store.NotFoundError, RuleError):
        return AlreadySaved(game, deal_id)
    newest = index == len(game.deals) - 1
    return AlreadySaved(game, deal_id, index + 1, score, game.deals[index].version if newest else None)


@dataclass(frozen=True)
class Arrived:
    """What a phone's poll learns of a game since the version it saw. ``stored``: of its
    form tokens, those a deal in play was saved with ({token: deal id}: a save whose
    answer was lost arrived after all); ``changes``: the changes since that version, oldest
    first (empty when it saw none or is up to date); ``stops``: whether they would stop
    its next deal's save until it has seen them (:func:`add_deal`'s rule: not when they
    are only its own deals and earlier deals put right); ``set_back``: the version it saw
    is one the game no longer has, the database put back from a backup since
    (store.set_back), which always stops."""

    stored: dict[str, int]
    changes: list[Change]
    stops: bool
    set_back: bool = False
    #: of ``stored``, the game's version each deal was added at ({token: version}): a
    #: phone's state of that version or later counts it already (tester 49: a deal whose
    #: answer was lost was counted twice, "+ Add deal 8" after deal 6)
    added: dict[str, int] = field(default_factory=dict)


def arrived_since(db: sqlite_utils.Database, game_id: str, since: int | None, version: int,
                  mine: Iterable[str]) -> Arrived:
    """What a phone that saw version ``since`` of game ``game_id`` (None: it says none),
    now at ``version``, is to learn; ``mine``: the form tokens of the deals it sent
    (:class:`Arrived`)."""
    mine = list(mine)
    stored = store.deals_by_nonce(db, game_id, mine)
    versions = store.added_versions(db, game_id, stored.values())
    added = {nonce: versions[deal_id] for nonce, deal_id in stored.items() if deal_id in versions}
    if since is None or since == version:
        return Arrived(stored, [], False, added=added)
    changes = store.changes_since(db, game_id, since)
    if store.set_back(db, game_id, since):
        return Arrived(stored, changes, True, set_back=True, added=added)
    return Arrived(stored, changes, not store.own_changes(db, changes, mine), added=added)


# ------------------------------------------------------------------------- a changed deal


def change_deal(db: sqlite_utils.Database, game: StoredGame, deal_id: int, entry: Mapping[str, Any] | None, *,
                expected: str | None, card: str | None = None) -> ChangeResult:
    """Make deal ``deal_id`` of ``game`` (the game as this request read it) read
    ``entry`` (None: the form found problems in it: :class:`Incomplete`).

    ``expected``: the deal's fingerprint as the phone read it (None: not checked); a
    deal that reads otherwise now is :class:`ChangedMeanwhile`. The write scores the
    game with the change inside its transaction: :class:`Changed`, :class:`Refused`
    (the deal, or a later one no longer fitting), :class:`Gone` (deleted meanwhile),
    :class:`DiskFull`. A deal that read so already is scored here, in its place, for
    the answer (``Changed.written`` False). ``card``: the table card's token the phone
    came in with (None: a play link); one that no longer writes, read in the write's
    transaction first, is :class:`CardClosed`.
    """
    if entry is None:
        return Incomplete()
    try:
        with store.writing(db):
            if _card_closed(db, game.id, card):
                return CardClosed()
            saved = store.update_deal_scored(db, game.id, deal_id, entry, expected=expected)
    except store.NotFoundError:  # deleted this instant on another phone
        return deleted_meanwhile(db, game.id, deal_id)
    except store.DealChangedError as changed:
        return ChangedMeanwhile(changed.deal, store.entry_as_read(db, game.id, deal_id, expected) if expected else None)
    except RuleError as error:
        numbers = {deal.id: number for number, deal in enumerate(game.deals, 1)}
        return _refused(game, entry, numbers[deal_id], error) if deal_id in numbers else Refused(error)
    except store.DiskFullError as error:
        return DiskFull(error)
    if saved.number is not None and saved.score is not None:
        return Changed(deal_id, saved.number, saved.score)
    index = game.deal_index(deal_id)
    entries = [d.entry for d in game.deals]
    entries[index] = dict(entry)
    try:
        return Changed(deal_id, index + 1, game.game_file(entries).score(), written=False,
                       altered=expected is None or expected != fingerprint(entry))
    except RuleError as error:
        return Refused(error)


def deleted_meanwhile(db: sqlite_utils.Database, game_id: str, deal_id: int) -> Gone:
    """Deal ``deal_id`` as deleted: the number it had in play (None: no such deleted deal)."""
    deleted = next((d for d in store.deleted_deals(db, game_id) if d.id == deal_id), None)
    if deleted is None:
        return Gone(None)
    return Gone(store.get_game(db, game_id).number_at(deleted.position))


# ------------------------------------------------------------------------- delete and restore


def _seat_taken_from_deal_2(game: StoredGame, deal_id: int) -> SeatTakenFromDeal2 | None:
    """The seat change that deleting deal ``deal_id`` would move to the first deal (one
    from deal 2, deal 1 deleted), or None."""
    if game.deal_index(deal_id) != 0:
        return None
    change = next((c for c in game.seat_changes if game.from_deal(c) == 2), None)
    if change is None:
        return None
    return SeatTakenFromDeal2(change.player, game.players_at(1)[change.seat], change.seat)


def delete_problem(game: StoredGame, deal_id: int) -> RuleError | SeatTakenFromDeal2 | None:
    """Why deleting deal ``deal_id`` of ``game`` would be refused (a seat change it would
    move to the first deal: :class:`SeatTakenFromDeal2`; a later deal no longer fitting),
    or None; nothing written (what the "Delete deal N?" page warns of). Raises
    store.NotFoundError for no such deal in play."""
    index = game.deal_index(deal_id)
    seat_first = _seat_taken_from_deal_2(game, deal_id)
    if seat_first is not None:
        return seat_first
    entries = [d.entry for d in game.deals]
    try:
        game.game_file(entries[:index] + entries[index + 1:]).score()
    except RuleError as error:
        return error
    return None


def later_deals(game: StoredGame, deal_id: int) -> str:
    """The deals after ``deal_id`` in ``game`` as a "Delete deal N?" page is drawn for
    them (it says they move up one place): how many, and the game's last deal's id
    ("2:41"; "" for a deal not in play). Sent back with the Delete (:func:`delete_deal`)."""
    ids = [deal.id for deal in game.deals]
    if deal_id not in ids:
        return ""
    return f"{len(ids) - 1 - ids.index(deal_id)}:{ids[-1]}"


def delete_deal(db: sqlite_utils.Database, game_id: str, deal_id: int, *, expected: str | None,
                card: str | None = None, undo: bool = False, later: str | None = None) -> DeleteResult:
    """Delete deal ``deal_id`` softly (it can be restored). ``expected``: its fingerprint
    as the phone read it (None: not checked). ``undo``: the Undo of the deal this phone
    has just added, which takes back the game's last deal only (:class:`NotLast` once
    another phone added one after it). ``later``: the deals after it as the phone's page
    showed them (:func:`later_deals`; None: not checked): others now, :class:`LaterChanged`.
    Checked inside the write: the game must still
    score without it. :class:`Deleted` (also for a deal deleted already),
    :class:`ChangedMeanwhile`, :class:`Refused`, :class:`NotFound`; :class:`CardClosed`
    for a table card ``card`` (its token; None: a play link) that no longer writes, read
    in the write's transaction first. A disk that refuses the write raises
    store.DiskFullError (the app's error page answers it)."""
    try:
        with store.writing(db):
            if _card_closed(db, game_id, card):
                return CardClosed()
            now = store.get_game(db, game_id)
            in_play = [deal.id for deal in now.deals]
            if undo and deal_id in in_play[:-1]:
                return NotLast(in_play.index(deal_id) + 1, now)
            if not undo and later is not None and deal_id in in_play and later != later_deals(now, deal_id):
                return LaterChanged(in_play.index(deal_id) + 1, now)
            seat_first = _seat_taken_from_deal_2(now, deal_id) if deal_id in in_play else None
            if seat_first is not None:  # read in the write's transaction, as the rules' check
                return seat_first
            return Deleted(store.delete_deal(db, game_id, deal_id, expected=expected))
    except store.AlreadyDeletedError as done:  # a double tap, or another phone was quicker
        return Deleted(done.number, again=True)
    except store.NotFoundError:
        return NotFound()
    except store.DealChangedError as changed:
        return ChangedMeanwhile(changed.deal)
    except RuleError as error:
        return Refused(error)


def twin_in_play(db: sqlite_utils.Database, game: StoredGame, deal_id: int) -> Twin | None:
    """A deal of ``game`` in play with exactly the entries of deleted deal ``deal_id``
    (entered again by hand after the delete, or the same deal played twice), as
    :class:`Twin`, or None."""
    deleted = next((d for d in store.deleted_deals(db, game.id) if d.id == deal_id), None)
    if deleted is None:
        return None
    return next((Twin(n, later=d.position > deleted.position) for n, d in enumerate(game.deals, 1)
                 if d.entry == deleted.entry), None)


def restore_deal(db: sqlite_utils.Database, game: StoredGame, deal_id: int, *, anyway: bool = False,
                 card: str | None = None, ask: bool = False, seen: int | None = None) -> RestoreResult:
    """Put deleted deal ``deal_id`` of ``game`` (as this request read it) back in its
    place. A deal in play with exactly its entries is :class:`Twin` unless ``anyway``
    (both were really played). With ``ask`` (a phone's tap), deals added after the delete
    that stand after its place are :class:`MovesLater` unless ``anyway`` or the page said
    beforehand that they move down, drawn at game version ``seen``, the version now (the
    history's Restore; None: it said nothing, as the flash's Restore after a delete; a
    count of deals could stay the same over an add and a delete: tester 36).
    Checked inside the write: that, and the game must still score with it back
    (:class:`CannotGoBack`, said first). :class:`Restored`
    (also for a deal back already), :class:`NotFound`; :class:`CardClosed` for a table
    card ``card`` (its token; None: a play link) that no longer writes, read in the
    write's transaction first. A disk that refuses the write raises
    store.DiskFullError (the app's error page answers it)."""
    twin = twin_in_play(db, game, deal_id)
    if twin is not None and not anyway:
        # a deal that cannot go back at all is said first, not asked about (tester 62:
        # "Restore anyway" was offered, then refused: the King of Hearts played twice)
        deleted = next(d for d in store.deleted_deals(db, game.id) if d.id == deal_id)
        try:
            with_deal_back(game, deleted).game_file().score()
        except RuleError as error:
            return CannotGoBack(error, game.number_at(deleted.position))
        return twin
    try:
        with store.writing(db):
            if _card_closed(db, game.id, card):
                return CardClosed()
            moved = store.added_after_delete(db, game.id, deal_id)
            # the page said nothing of them, or drew the game as it was before another change
            if moved and ask and not anyway and seen != store.game_version(db, game.id):
                now = store.get_game(db, game.id)
                deleted = next(d for d in store.deleted_deals(db, game.id) if d.id == deal_id)
                with_deal_back(now, deleted).game_file().score()  # a deal that cannot go back: said first
                return MovesLater(now.number_at(deleted.position), now.deal_index(moved[0]) + 1)
            return Restored(store.restore_deal(db, game.id, deal_id))
    except store.NotFoundError:
        return NotFound()
    except store.NotDeletedError:  # a double tap, or another phone was quicker: the same answer
        return Restored(store.get_game(db, game.id).deal_index(deal_id) + 1, again=True)
    except RuleError as error:
        deal = next(d for d in store.deleted_deals(db, game.id) if d.id == deal_id)
        return CannotGoBack(error, game.number_at(deal.position))


# ------------------------------------------------------------------------- delete and restore a game


def delete_game(db: sqlite_utils.Database, game_id: str) -> GameDeleteResult:
    """Delete game ``game_id`` softly (issue 18, part 1: a game started by mistake): it
    leaves every list, statistic, player's count and group file at once, and "Deleted
    games" (or the Undo right after) restores it whole. Checked and written in one
    transaction (store.delete_game): :class:`GameDeleted`, with ``again`` for a game
    deleted already (two phones, a double tap: harmless, and said); :class:`NoSuchGame`.
    A table of a club night: :class:`NightTable`, nothing written.
    A disk that refuses the write raises store.DiskFullError (the app's error page)."""
    try:
        return GameDeleted(store.delete_game(db, game_id))
    except store.GameDeletedError as gone:
        return GameDeleted(gone.game, again=True)
    except store.NotFoundError:
        return NoSuchGame()
    except store.NightTableError as table:
        return NightTable(table.night_id, table.round, table.table)


def restore_game(db: sqlite_utils.Database, game_id: str) -> GameRestoreResult:
    """Put deleted game ``game_id`` back whole (issue 18, part 1): its deals, history and
    links work again, and it counts in every list and statistic at once. Checked and
    written in one transaction (store.restore_game): :class:`GameRestored`, with
    ``again`` for a game back already, and the ``twin`` beside it when both have no deal
    yet (two starts of one game are two games the group wanted); :class:`TwinInPlay`
    when an identical game with the same deals is in play (it would count twice);
    :class:`NoSuchGame`; :class:`NightTable` for a table of a deleted club night (it
    comes back with its night: night_actions.restore_night). A disk that refuses the
    write raises store.DiskFullError (the app's error page)."""
    try:
        restored = store.restore_game(db, game_id)
        return GameRestored(restored.game, twin=restored.twin)
    except store.DuplicateGameError as twin:
        try:
            stays = store.get_game(db, game_id)  # (restored meanwhile on another phone)
        except store.GameDeletedError as gone:
            stays = gone.game
        return TwinInPlay(twin.game_id, stays, twin.continued)
    except store.GameNotDeletedError:  # a double tap, or another phone was quicker
        return GameRestored(store.get_game(db, game_id), again=True)
    except store.NotFoundError:
        return NoSuchGame()
    except store.NightTableError as table:
        return NightTable(table.night_id, table.round, table.table)


# ------------------------------------------------------------------------- players and settings


def change_problem(game: StoredGame, players: Iterable[str], options: Mapping[str, Any]) -> RuleError | None:
    """What would refuse renaming ``game``'s players to ``players`` and setting
    ``options``, as :func:`change_game` would find it against the game as read (a seat
    change whose player the new name already is, a setting a deal no longer fits); None
    when nothing would. Pure: nothing is read or written. For a form to say the problem
    before it asks anything (tester 30: "Tap Save again to confirm", and then refused)."""
    try:
        replace(game, players=tuple(players), options=dict(options)).game_file().score()
    except RuleError as error:
        return error
    return None


def sent_already(db: sqlite_utils.Database, game_id: str, nonce: str | None) -> bool:
    """Whether the form with token ``nonce`` changed ``game_id`` already (the same Save
    sent again: a double tap), so that it gets its first answer, asking nothing again."""
    return bool(nonce) and bool(store.form_changes(db, game_id, nonce))


def change_game(db: sqlite_utils.Database, game_id: str, *, players: Iterable[str], options: Mapping[str, Any],
                seen: int | None, nonce: str) -> GameChangeResult:
    """Rename the players and change the settings (store.update_game) with form token
    ``nonce``. ``seen``: the game's version as the form was opened (None: not checked);
    players or settings changed since on another phone are :class:`Stale` (its
    ``arrived`` empty: the game's names are what the answer shows). Checked inside the
    write against every deal: :class:`Refused`. :class:`GameChanged` lists what this
    token changed (the same when the form is sent again). A table of a club night whose
    players or settings would change: :class:`NightTable`, nothing written (checked
    inside the write)."""
    try:
        store.update_game(db, game_id, players=players, options=options, seen=seen, nonce=nonce)
    except store.StaleError as stale:
        return Stale(stale.game, stale.since, stale.set_back)
    except store.NightTableError as table:
        return NightTable(table.night_id, table.round, table.table)
    except RuleError as error:
        return Refused(error)
    return GameChanged(store.form_changes(db, game_id, nonce))


# ------------------------------------------------------------------------- someone takes over a seat


@dataclass(frozen=True)
class SeatTaken:
    """A seat change was written (or this form token had written it: ``again``):
    ``player`` plays ``seat`` from deal ``from_deal`` on, instead of ``replaces``."""

    seat: int
    player: str
    replaces: str
    from_deal: int
    again: bool = False


@dataclass(frozen=True)
class SeatTakenBack:
    """A seat change was taken back: ``replaces`` plays ``seat`` again from deal
    ``from_deal``, not ``player``."""

    seat: int
    player: str
    replaces: str
    from_deal: int


@dataclass(frozen=True)
class SeatNotChanged:
    """Nothing was written. ``reason``: store.SeatChangeRefusedError's ("no_seat",
    "no_deal", "finished", "moved", "not_next", "taken_meanwhile", "deal_after", "gone", "night_table": a table of a club
    night keeps the night's players) or "rules" (``error``: the game file's
    rule it would break, e.g. the player sits at another seat); ``number``: the deal
    concerned (the next deal, or the first deal the change's player played)."""

    reason: str
    number: int | None = None
    error: RuleError | None = None


SeatResult = SeatTaken | SeatTakenBack | SeatNotChanged


def take_seat(db: sqlite_utils.Database, game_id: str, *, seat: int, player: str, from_deal: int | None,
              nonce: str | None, seen: int | None = None) -> SeatResult:
    """``player`` takes over ``seat`` from the next deal on (issue 18, part 3;
    store.take_seat): :class:`SeatTaken` (a change of that seat from the same deal,
    a wrong name, replaced), :class:`SeatTakenBack` (``player`` is who sat there before
    such a change: the change is taken back), or :class:`SeatNotChanged` with why, all
    checked inside the write (a seat the game does not have: "no_seat"). ``from_deal``:
    the deal number the form said; ``seen``: the game's version the form was drawn at
    (tells "moved", a deal added or removed meanwhile, from "not_next", a form that named
    another deal); ``nonce``: the form's one-time token (sent again: the first
    answer)."""
    try:
        done = store.take_seat(db, game_id, seat, player, from_deal=from_deal, nonce=nonce, seen=seen)
    except store.SeatChangeRefusedError as refused:
        return SeatNotChanged(refused.reason, refused.number)
    except store.NightTableError:
        return SeatNotChanged("night_table")
    except RuleError as error:
        return SeatNotChanged("rules", error=error)
    if done.taken_back:
        return SeatTakenBack(done.change.seat, done.change.player, done.replaces, done.from_deal)
    return SeatTaken(done.change.seat, done.change.player, done.replaces, done.from_deal, done.again)


def take_seat_back(db: sqlite_utils.Database, game_id: str, change_id: int) -> SeatResult:
    """Take back seat change ``change_id`` while no deal was added after it
    (store.take_seat_back): :class:`SeatTakenBack`, or :class:`SeatNotChanged`
    ("deal_after", "gone", "rules")."""
    try:
        done = store.take_seat_back(db, game_id, change_id)
    except store.SeatChangeRefusedError as refused:
        return SeatNotChanged(refused.reason, refused.number)
    except RuleError as error:
        return SeatNotChanged("rules", error=error)
    return SeatTakenBack(done.change.seat, done.change.player, done.replaces, done.from_deal)


# ------------------------------------------------------------------------- who deals first


@dataclass(frozen=True)
class FirstDealerSet:
    """``seat`` deals first now (Trix: holds the 7♥); ``changed``: False when it did
    already, or the same form was sent again (nothing written)."""

    seat: int
    changed: bool


@dataclass(frozen=True)
class FirstDealPlayed:
    """Nothing written: ``deals`` deals are in play (one saved on another phone
    meanwhile), each dealt as the game's first dealer said."""

    deals: int


FirstDealerResult = FirstDealerSet | FirstDealPlayed | CardClosed | DiskFull


def set_first_dealer(db: sqlite_utils.Database, game_id: str, seat: int, *, nonce: str | None,
                     card: str | None = None) -> FirstDealerResult:
    """Make ``seat`` the game's first dealer (Trix: the first kingdom's owner, who holds
    the 7♥) while no deal is in play (store.set_first_dealer, checked inside its
    write): :class:`FirstDealerSet`, :class:`FirstDealPlayed`, :class:`DiskFull`.
    ``card``: the table card's token the phone came in with (None: a play link): a card
    that no longer writes, read in the write's own transaction, is :class:`CardClosed`
    (a club night's table: who holds the 7♥ is the table's to say, as its deals are).
    Raises ValueError for a seat the game does not have, store.NotFoundError for a game
    gone meanwhile."""
    try:
        with store.writing(db):
            if _card_closed(db, game_id, card):
                return CardClosed()
            changed = store.set_first_dealer(db, game_id, seat, nonce=nonce)
    except store.FirstDealPlayedError as played:
        return FirstDealPlayed(played.deals)
    except store.DiskFullError as error:
        return DiskFull(error)
    return FirstDealerSet(seat, changed)


# ------------------------------------------------------------------------- players


#: A player's new name given in every game of the group: the store's own record
#: (store.PlayerRenamed: the player's id and name now, whether two were made one, in how
#: many games)
PlayerNamed = store.PlayerRenamed


@dataclass(frozen=True)
class PlayerNotNamed:
    """Nothing written (store.PlayerRenameRefused): ``reason`` "gone" (no such player),
    "changed" (renamed meanwhile on another phone: ``other`` is the name now),
    "together" (``other`` played in ``games`` (ids) or club nights ``nights`` (ids) with
    this player: two people), "confirm" (the name is ``other``'s: this player's
    ``games`` would become theirs, asked first)."""

    reason: str
    other: str = ""
    games: tuple[str, ...] = ()
    nights: tuple[int, ...] = ()


def rename_player(db: sqlite_utils.Database, group_id: int, player_id: int, name: str, *,
                  confirmed: str | None = None, was: str | None = None) -> PlayerNamed | PlayerNotNamed:
    """Give the player ``name`` in every game and club night of the group (tester 51: a
    typo put right once, not once a game), or make them one with the player of that name
    once ``confirmed`` (that name's key); ``was``: the name the form showed (renamed
    since on another phone: refused, "changed"); every check inside the write
    (store.rename_player)."""
    try:
        done = store.rename_player(db, group_id, player_id, name, confirmed=confirmed, was=was)
    except store.PlayerRenameRefused as refused:
        return PlayerNotNamed(refused.reason, refused.other, refused.games, refused.nights)
    return done


# ------------------------------------------------------------------------- import


def start_game(db: sqlite_utils.Database, game: GameFile, *, group_id: int, nonce: str | None,
               again: bool = False) -> StartResult:
    """Start ``game`` (players, first dealer, settings; no deals) in group ``group_id``.

    A game of the group with the same kind, players and settings, started within
    :data:`SAME_START` and without a deal (store.just_started: Back after Start, then
    Start again, issue 18) is :class:`StartedAlready` unless ``again`` (the phone chose
    "Start another"), checked inside the write, so two phones starting one game at once
    store one. Form token ``nonce``: the same Start sent twice is one game, the first's
    (answered before that check). A disk that refuses the write raises
    store.DiskFullError."""
    since = None if again else (datetime.now(UTC) - SAME_START).isoformat(timespec="seconds")
    try:
        game_id = store.create_game(db, game, nonce=nonce, group_id=group_id, started_since=since)
    except store.StartedAlreadyError as started:
        return StartedAlready(started.game)
    return Started(game_id, store.get_game(db, game_id).players)


def import_game(db: sqlite_utils.Database, raw: bytes, *, group_id: int, nonce: str | None, copy: bool,
                max_deals: int) -> ImportResult:
    """Store game file ``raw`` (GAME-FILE.md; bytes as uploaded) in group ``group_id``.

    Every problem of the file (more than ``max_deals`` deals is one) is
    :class:`Problems`, and nothing is stored. An identical game of the group, or the same
    game played on since, is :class:`AlreadyStored` unless ``copy`` (a copy asked for), checked inside the write so
    two imports at the same instant store one game. Form token ``nonce``: the same upload
    sent twice stores one game. The group's game with fewer deals that the file's game
    continues (store.import_game) gets the file's later deals: :class:`Continued`.
    :class:`Imported` names the game stored. A disk that
    refuses the write raises store.DiskFullError (the app's error page answers it)."""
    found = find_problems(raw, max_deals=max_deals)
    if found:
        return Problems(found)
    game = loads(raw)
    done = store.import_game(db, game, group_id=group_id, nonce=nonce, copy=copy)
    if done.added or done.seats:
        return Continued(done.game_id, game, done.added, done.seats)
    if done.already:
        return AlreadyStored(store.get_game(db, done.game_id), continued=done.continued, table=done.table)
    return Imported(done.game_id, game, done.alike)


def group_file_text(db: sqlite_utils.Database, group_id: int, name: str) -> str:
    """The group file of group ``group_id`` (named ``name``; GAME-FILE.md, "A group
    file", its keys exactly): every game in play, oldest first, each exactly as its own
    "Game file" download (records.StoredGame.exported). "Download all games" and
    ``scorekeeper export --group``, one function for both."""
    return group_dumps(name, [game.exported() for game in reversed(store.list_games(db, group_id))])


def import_group(db: sqlite_utils.Database, raw: str | bytes, *, group_id: int, nonce: str | None = None,
                 copy: bool = False, max_deals: int | None = None, max_games: int | None = None
                 ) -> GroupImportResult:
    """Store every game of group file ``raw`` (GAME-FILE.md, "A group file"; bytes as
    uploaded or text) that group ``group_id`` does not hold already (issue 18, part 4).

    Every game is checked first, as importing its own game file would be (at most
    ``max_deals`` deals each; at most ``max_games`` games, gamefile.read_group): a file
    with any problem, in any game, is
    :class:`GroupRefused` and nothing is stored, so a group moves whole or not at all.
    Else the games are stored in one transaction (store.import_games: what "already"
    means, ``copy``, and the upload's token ``nonce``, which makes the same upload sent
    twice store its games once): :class:`GroupImported`. A disk that refuses the write
    raises store.DiskFullError, and nothing is stored."""
    read = read_group(raw, max_deals=max_deals, max_games=max_games)
    if isinstance(read, GroupProblems):
        return GroupRefused(read)
    if nonce:  # the same form sent with another file (Back, another file chosen) is another upload
        nonce = f"{nonce}:{hashlib.sha256(raw if isinstance(raw, bytes) else raw.encode()).hexdigest()[:16]}"
    return GroupImported(store.import_games(db, read.games, group_id, nonce=nonce, copy=copy), read.games)


def keep_group_report(db: sqlite_utils.Database, group_id: int, report: GroupReport) -> str:
    """Keep ``report`` for group ``group_id`` (30 days: store.keep_import_report);
    returns the id its page is opened by. Raises store.DiskFullError when the disk
    refuses it (the games are stored all the same)."""
    return store.keep_import_report(db, group_id, report.to_json())


def group_report(db: sqlite_utils.Database, group_id: int, report_id: str) -> GroupReport | None:
    """The import report kept as ``report_id`` for group ``group_id``, or None (another
    group's, too old, no such report, or one a version of the app wrote in a shape this
    one does not read: its page is then not found, never an error)."""
    kept = store.import_report(db, group_id, report_id)
    if kept is None:
        return None
    try:
        return GroupReport.from_json(kept)
    except (ValueError, TypeError, KeyError):
        return None
