"""A game's history in words, with the totals each change made: replayed, never stored.

The store keeps an event log (records.Change: what each change was before and after). Here
the log is replayed backwards from the game as it is now — each change undone in turn —
so every change has the game before it and after it; both are scored through the game
file (sheet.build), exactly as the score sheet is. Games started before the log existed
simply have fewer changes: the replay needs no first state.

Each change names the players as they were called just after it, so an old entry reads
as the table then saw it: its sentences a deal's players as they sat in it, its totals
(a seat's whole game) whoever held each seat at the game's end, as the score sheet's
totals do; the "Players renamed" change itself says who was called what. A change that
ends the game, reopens it or changes who won says so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from . import sheet
from .i18n import gettext as _
from .i18n import ngettext
from .names import CONTRACT_NAMES
from .records import Change, SeatTaken, StoredDeal, StoredGame
from .rules.common import SUIT_SYMBOLS, SUITS, listed, number, side_by_side, signed, together
from .rules.trix import TAKEN_BACK, card_label, reading_words
from .text import isolate, isolate_all


@dataclass(frozen=True)
class Entry:
    """One change as the history page shows it.

    ``title``: "Deal 4 changed"; ``details``: sentences such as "Ben's tricks 5 → 4";
    ``at``: the change's time (aware, UTC); ``totals_before``/``totals_after``: one int per
    seat (None when that state no longer scores: a stored deal breaks a rule);
    ``restorable``: the id of a deleted deal this entry may bring back (None otherwise);
    ``number``: the deal's 1-based number when it changed (None for game changes);
    ``back_as``: a restorable deal's number if restored now, among the deals in play now
    (tester 36: the hint named its number when deleted, and another deal added and taken
    back since had moved it);
    ``names``: the players' names just after the change, in playing order, a deal's as
    they sat in it (what the sentences are labelled with); ``total_names``: who held each
    seat at the end of the game just after the change (what the totals, a seat's whole
    game, are labelled with, as the score sheet's totals are: after a seat was taken over,
    a restored deal 2 names its Carla, the totals her successor); ``outcome``: a sentence
    when the change ended the game, reopened it or changed who won ("Game over — Anna
    won!"), else None.
    """

    change: Change
    title: str
    details: tuple[str, ...]
    at: datetime
    totals_before: tuple[int, ...] | None
    totals_after: tuple[int, ...] | None
    restorable: int | None
    number: int | None
    names: tuple[str, ...] = ()
    outcome: str | None = None
    total_names: tuple[str, ...] = ()
    back_as: int | None = None

    @property
    def changed_seats(self) -> tuple[int, ...]:
        """Seats whose total this change moved."""
        if self.totals_before is None or self.totals_after is None:
            return ()
        return tuple(s for s, (b, a) in enumerate(zip(self.totals_before, self.totals_after, strict=True))
                     if b != a)


@dataclass(frozen=True)
class History:
    """``entries`` newest first; ``complete`` whether the log reaches back to the game's
    start (False for games started before changes were recorded)."""

    entries: tuple[Entry, ...]
    complete: bool


def undo(game: StoredGame, change: Change) -> StoredGame | None:
    """The game as it was before ``change``, given the game just after it (None before
    "game_created"). A change that does not match the state (a hand-edited database) is
    passed over rather than guessed at."""
    action = change.action
    if action == "game_created":
        return None
    if action in ("deal_added", "deal_restored"):
        return replace(game, deals=tuple(d for d in game.deals if d.id != change.deal_id))
    if action == "deal_deleted" and change.deal_id is not None and change.position is not None:
        back = StoredDeal(change.deal_id, change.position, change.before)
        deals = sorted((*(d for d in game.deals if d.id != change.deal_id), back), key=lambda d: d.position)
        return replace(game, deals=tuple(deals))
    if action == "deal_changed":
        return replace(game, deals=tuple(
            replace(d, entry=change.before) if d.id == change.deal_id else d for d in game.deals))
    if action == "players_renamed":
        takers = change.before.get("took_over") or {}
        return replace(game, players=tuple(change.before["players"]), seat_changes=tuple(
            replace(c, player=takers.get(str(c.id), c.player)) for c in game.seat_changes))
    if action == "settings_changed":
        return replace(game, options=dict(change.before["options"]))
    if action == "seat_taken" and isinstance(change.after, Mapping):
        return replace(game, seat_changes=tuple(c for c in game.seat_changes if c.id != change.after.get("id")))
    if action == "seat_taken_back" and isinstance(change.before, Mapping):
        was = change.before
        taken = SeatTaken(was["id"], was["position"], was["seat"], was["player"], was.get("player_id"))
        return replace(game, seat_changes=tuple(sorted((*game.seat_changes, taken),
                                                       key=lambda c: (c.position, c.id))))
    if action == "first_dealer_changed" and isinstance(change.before, Mapping):
        return replace(game, first_dealer=int(change.before["first_dealer"]))
    return game


def _number(game: StoredGame | None, deal_id: int | None) -> int | None:
    if game is None:
        return None
    for index, deal in enumerate(game.deals):
        if deal.id == deal_id:
            return index + 1
    return None


def _totals(scored: sheet.Sheet | None, seats: int) -> tuple[int, ...] | None:
    if scored is None:
        return (0,) * seats  # before the game was started
    if scored.problem is not None or scored.score is None:
        return None
    return tuple(scored.score.totals)


def outcome(before: sheet.Sheet | None, after: sheet.Sheet | None) -> str | None:
    """What a change did to the end of the game, in words, or None when nothing: "Game
    over — Anna won!" (it ended the game), "The game is no longer over (Anna had won):
    play goes on." (it reopened it), "Game over — now Ben won, no longer Anna." (another
    winner). ``before``/``after``: the game scored just before and after the change
    (``before`` None: before the game was started); nothing is said when either state no
    longer scores (a stored deal breaks a rule)."""
    if after is None or after.problem is not None or after.score is None:
        return None
    if before is not None and (before.problem is not None or before.score is None):
        return None
    was = before is not None and before.finished
    if not was and not after.finished:
        return None
    if not after.finished:
        return _("The game is no longer over (%(names)s had won): play goes on.",
                 names=_winners(before))
    if was and before.score.winners == after.score.winners:  # type: ignore[union-attr]
        return None
    if not was:
        if len(after.score.winners) == len(after.game.players):
            return _("Game over — a tie: all share the win.")
        # the number of winners chooses the word's form (Finnish "voittajat": tester 68)
        return ngettext("Game over — %(names)s won!", "Game over — %(names)s won!",
                        len(after.score.winners), names=_winners(after))
    return _("Game over — now %(names)s won, no longer %(before)s.", names=_winners(after),
             before=_winners(before))


def _winners(scored: sheet.Sheet | None) -> str:
    """ "Anna & Carla": the winners' names as they were called in that state, who sat
    at the winning seats at its end (points and wins stay with the seat)."""
    if scored is None or scored.score is None:
        return "?"
    return together(isolate(scored.game.players_now[seat]) for seat in scored.score.winners)


def build(game: StoredGame, changes: Sequence[Change], deleted: Sequence[StoredDeal]) -> History:
    """The history of ``game`` (as stored now) from its ``changes`` (newest first, as
    store.changes gives them) and its ``deleted`` deals (store.deleted_deals)."""
    still_deleted = {d.id for d in deleted}
    seen: set[int] = set()
    entries: list[Entry] = []
    after: StoredGame | None = game
    after_sheet = sheet.build(game)
    for change in changes:
        if after is None:
            break  # changes before "game_created" cannot be: a hand-edited database
        before = undo(after, change)
        before_sheet = sheet.build(before) if before is not None else None
        number = _number(before if change.action == "deal_deleted" else after, change.deal_id)
        restorable = None
        if change.deal_id is not None and change.deal_id not in seen:
            seen.add(change.deal_id)
            if change.action == "deal_deleted" and change.deal_id in still_deleted:
                restorable = change.deal_id
        # as the players were called just after this change; a deal's, as they sat in it:
        # a deleted deal's in the game before the delete (after it, a seat taken over from
        # the next deal would seem to have been taken over in the deal deleted)
        sat = before if change.action == "deal_deleted" and before is not None else after
        names = sat.players_at(number) if number is not None else after.players_now
        shown = isolate_all(names)  # in the sentences, each name isolated from its neighbours
        title, details = describe(change, shown, game.kind, number,
                                  before_sheet if change.action == "deal_deleted" else after_sheet,
                                  imported=game.imported)
        if change.action == "deal_changed":
            details = (*details, *_points_moved(before_sheet, after_sheet, number, shown))
        if change.action == "deal_restored" and number is not None and number < len(after.deals):
            # what the restore moved, as the delete and the Restore button said beforehand;
            # the older entries below keep the numbers the deals had then (tester 57)
            details = (*details, _("The deals after it moved down one place (deal %(n)s became deal %(next)s), "
                                   "and so did their dealers; the changes below name them by the numbers they "
                                   "had then.", n=number, next=number + 1))
        entries.append(Entry(
            change=change, title=title, details=details, at=datetime.fromisoformat(change.at),
            totals_before=_totals(before_sheet, len(names)), totals_after=_totals(after_sheet, len(names)),
            restorable=restorable, number=number, names=tuple(names),
            outcome=outcome(before_sheet, after_sheet), total_names=tuple(after.players_now),
            back_as=game.number_at(change.position) if restorable and change.position is not None else None))
        after, after_sheet = before, before_sheet  # type: ignore[assignment]
    complete = any(e.change.action == "game_created" for e in entries)
    return History(tuple(entries), complete)


# ---------------------------------------------------------------- in words


def describe(change: Change, names: Sequence[str], kind: str, number: int | None,
             scored: sheet.Sheet | None, imported: bool = False) -> tuple[str, tuple[str, ...]]:
    """A change as a title and detail sentences a card player reads at a glance.

    ``number``: the deal's number at the time; ``scored``: the game with the deal in play
    (after it was added or restored, before it was deleted), for its points; ``imported``:
    the game was stored from a game file, so its first change is its import, not its
    start (StoredGame.imported)."""
    action = change.action
    shown = number if number is not None else "?"
    if action == "game_created":
        game = change.after or {}
        details = [_("Players: %(names)s", names=listed(isolate_all(game.get("players", names))))]
        details += settings_words(kind, game.get("options") or {})
        if game.get("deals"):
            details.append(ngettext("%(num)s deal entered at the start (a game file)",
                                    "%(num)s deals entered at the start (a game file)", len(game["deals"])))
        return (_("Game imported from a game file") if imported else _("Game started")), tuple(details)
    if action == "deal_added":
        return _("Deal %(n)s added", n=shown), _points(scored, number, names)
    if action == "deal_deleted":
        return _("Deal %(n)s deleted", n=shown), _points(scored, number, names)
    if action == "deal_restored":
        return _("Deal %(n)s restored", n=shown), _points(scored, number, names)
    if action == "deal_changed":
        changed = deal_changes(kind, change.before or {}, change.after or {}, names)
        return _("Deal %(n)s changed", n=shown), changed or (_("nothing that counts"),)
    if action == "players_renamed":
        old, new = change.before["players"], change.after["players"]
        pairs = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
        took_over = change.after.get("took_over") or {}  # who took over a seat (store.rename_player)
        pairs += [(a, took_over[key]) for key, a in (change.before.get("took_over") or {}).items()
                  if key in took_over and a != took_over[key]]
        return _("Players renamed"), tuple(renamed(a, b) for a, b in dict.fromkeys(pairs))
    if action == "settings_changed":
        return _("Settings changed"), settings_changes(kind, change.before["options"], change.after["options"])
    if action == "game_deleted":  # issue 18, part 1: it left every list and statistic
        return _("Game deleted"), (_("It counted in no list or statistic until it was restored."),)
    if action == "game_restored":
        return _("Game restored"), (_("Back whole, with every deal, in every list and statistic."),)
    if action in ("seat_taken", "seat_taken_back"):
        told = change.after if action == "seat_taken" else change.before
        if isinstance(told, Mapping):
            said = {"player": isolate(str(told.get("player", "?"))), "old": isolate(str(told.get("replaces", "?"))),
                    "n": told.get("from_deal", "?")}
            if action == "seat_taken":
                return _("%(player)s takes %(old)s's seat", **said), (
                    _("%(player)s plays for %(old)s from deal %(n)s on; points stay with the seat.", **said),)
            return _("Seat change taken back: %(old)s plays on", **said), (
                _("%(player)s does not take %(old)s's seat from deal %(n)s after all.", **said),)
    if action == "first_dealer_changed" and isinstance(change.before, Mapping) \
            and isinstance(change.after, Mapping):
        seats = (change.before.get("first_dealer"), change.after.get("first_dealer"))
        old, new = (isolate(names[s]) if isinstance(s, int) and 0 <= s < len(names) else "?" for s in seats)
        if kind == "trix":
            return _("Who holds the 7♥ changed"), (
                _("%(new)s holds the 7♥ and owns the first kingdom, not %(old)s.", new=new, old=old),)
        return _("Who deals first changed"), (_("%(new)s deals first, not %(old)s.", new=new, old=old),)
    return action, ()


def _points(scored: sheet.Sheet | None, number: int | None, names: Sequence[str]) -> tuple[str, ...]:
    """The deal's points by player ("Anna +80 · Ben +200 · Carla +13"), if it scores."""
    deal = scored.deal_score(number - 1) if scored is not None and number else None
    if deal is None:
        return ()
    return (side_by_side(f"{name} {signed(p)}" for name, p in zip(names, deal.points, strict=True)),)


def _points_moved(before: sheet.Sheet | None, after: sheet.Sheet | None, number: int | None,
                  names: Sequence[str]) -> tuple[str, ...]:
    """A changed deal's own points before and after, by player: "Points: Anna +80 → +100 ·
    Ben +200 → +160 · Carla +13" (a player whose points did not move is said once); none
    when either state no longer scores (a stored deal breaks a rule)."""
    old = before.deal_score(number - 1) if before is not None and number else None
    new = after.deal_score(number - 1) if after is not None and number else None
    if old is None or new is None:
        return ()
    # the arrow as the reader's language points it (Arabic "←": tester 38 read "−75 → 0"
    # as 0 becoming −75, beside the totals' arrows that point the Arabic way)
    each = side_by_side(f"{name} {signed(a)}" if a == b else f"{name} " + _("%(old)s → %(new)s", old=signed(a),
                                                                            new=signed(b))
                      for name, a, b in zip(names, old.points, new.points, strict=True))
    return (_("Points: %(each)s", each=each),)


def _from_to(label: str, before: Any, after: Any) -> str:
    """ "Ben's tricks 5 → 4" """
    return _("%(what)s %(before)s → %(after)s", what=label, before=before, after=after)


def renamed(old: str, new: str) -> str:
    """ "Benny → Ben" """
    return _("%(old)s → %(new)s", old=isolate(old), new=isolate(new))


def _bid(bid: Any) -> str:
    if not isinstance(bid, Mapping):
        return "—"
    if bid.get("kind") == "turnip":
        return _("Turnip")
    symbol = SUIT_SYMBOLS.get(bid.get("suit") or "", "?")
    return _("Doublets %(suit)s", suit=symbol) if bid.get("kind") == "doublets" else symbol


def _seat(names: Sequence[str], seat: Any, none: str) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else none


def _at(values: Any, seat: int) -> Any:
    return values[seat] if isinstance(values, list) and seat < len(values) else "—"


def _count(value: Any) -> Any:
    """A count in the page's digits (rules.common.number); anything else as it is."""
    return number(value) if type(value) is int else value


def deal_changes(kind: str, before: Mapping[str, Any], after: Mapping[str, Any],
                 names: Sequence[str]) -> tuple[str, ...]:
    """What differs between two entries of one deal, field by field, in words:
    "Ben's tricks 5 → 4", "Turnip card ♦ → ♥", "Q♠ taken by Dan → Carla"."""
    out: list[str] = []
    seats = range(len(names))
    if kind == "trix":
        out += _trix_changes(before, after, names)
        known = {"contracts", "king", "queens", "diamonds", "tricks", "trix"}
    else:
        for s in seats:
            old_bid, new_bid = _at(before.get("bids"), s), _at(after.get("bids"), s)
            if old_bid != new_bid:
                out.append(_from_to(_("%(name)s's bid", name=names[s]), _bid(old_bid), _bid(new_bid)))
            for field, label in (("tricks", _("%(name)s's tricks", name=names[s])),
                                 ("bugs", _("%(name)s's bugs", name=names[s]))):
                if _at(before.get(field), s) != _at(after.get(field), s):
                    out.append(_from_to(label, _at(before.get(field), s), _at(after.get(field), s)))
        if before.get("turnip") != after.get("turnip"):
            def turnip(entry: Mapping[str, Any]) -> str:
                return SUIT_SYMBOLS.get(entry.get("turnip") or "", _("not noted"))
            out.append(_from_to(_("Turnip card"), turnip(before), turnip(after)))
        if before.get("last_trick") != after.get("last_trick"):
            out.append(_from_to(_("Last trick won by"), _seat(names, before.get("last_trick"), _("not noted")),
                                _seat(names, after.get("last_trick"), _("not noted"))))
        known = {"bids", "tricks", "bugs", "turnip", "last_trick"}
    for key in sorted((set(before) | set(after)) - known):  # keys the format ignores, kept as entered
        if before.get(key) != after.get(key):
            out.append(_from_to(key, json.dumps(before.get(key)), json.dumps(after.get(key))))
    return tuple(out)


def _trix_changes(before: Mapping[str, Any], after: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """A Trix deal's changes: each field of a contract played before and after; a contract
    newly named is told whole ("Diamonds: Anna 3, Ben 4, …"), one dropped only by the
    contract line."""
    out: list[str] = []
    old_blocks, new_blocks = set(before.get("contracts") or ()), set(after.get("contracts") or ())
    if before.get("contracts") != after.get("contracts"):
        def contracts(entry: Mapping[str, Any]) -> str:
            return " + ".join(str(CONTRACT_NAMES.get(c, c)) for c in entry.get("contracts") or []) or "—"
        out.append(_from_to(_("Contract"), contracts(before), contracts(after)))

    def cards(entry: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
        found = [(card_label("K", "H"), entry.get("king") or {})] if "king" in entry else []
        return found + [(card_label("Q", s), (entry.get("queens") or {}).get(s) or {})
                        for s in SUITS if "queens" in entry]

    def order(entry: Mapping[str, Any]) -> str:
        return listed(_seat(names, s, "?") for s in entry.get("trix") or []) or "—"

    def card_fields(card: str) -> tuple[tuple[str, str, str], ...]:
        return (("taker", _("%(card)s taken by", card=card), "—"),
                ("doubled_by", _("%(card)s doubled by", card=card), _("nobody")),
                ("leader", _("%(card)s: trick led by", card=card), "—"))

    for contract in ("king", "queens", "diamonds", "tricks", "trix"):
        if contract not in new_blocks:
            continue
        if contract not in old_blocks:  # newly named: say what it was
            if contract in ("king", "queens"):
                for card, block in cards({contract: after.get(contract)}):
                    said = [_("%(card)s taken by %(name)s", card=card, name=_seat(names, block.get("taker"), "?"))]
                    if block.get("doubled_by") is not None:
                        said.append(_("doubled by %(name)s", name=_seat(names, block["doubled_by"], "?")))
                    if block.get("leader") is not None:
                        said.append(_("%(name)s led to that trick", name=_seat(names, block["leader"], "?")))
                    out.append(listed(said))
            elif contract == "trix":
                out.append(_("Finishing order %(order)s", order=order(after)))
            else:
                out.append(f"{CONTRACT_NAMES[contract]}: " + listed(
                    f"{name} {_count(_at(after.get(contract), s))}" for s, name in enumerate(names)))
            continue
        if contract in ("king", "queens"):
            pairs = zip(cards({contract: before.get(contract)}), cards({contract: after.get(contract)}), strict=True)
            for (card, old), (_card, new) in pairs:
                for field, label, none in card_fields(card):
                    if old.get(field) != new.get(field):
                        out.append(_from_to(label, _seat(names, old.get(field), none),
                                            _seat(names, new.get(field), none)))
        elif contract == "trix":
            if before.get("trix") != after.get("trix"):
                out.append(_from_to(_("Finishing order"), order(before), order(after)))
        else:
            for s, name in enumerate(names):
                label = _("%(name)s's diamonds", name=name) if contract == "diamonds" else \
                    _("%(name)s's tricks", name=name)
                if _at(before.get(contract), s) != _at(after.get(contract), s):
                    out.append(_from_to(label, _at(before.get(contract), s), _at(after.get(contract), s)))
    return out


def _setting_values(kind: str) -> dict[str, tuple[str, Any]]:
    """Per option: its label and how to say a value."""
    if kind != "trix":
        return {"target": (_("Target"), lambda target: number(target) if type(target) is int else None)}
    on_off = {True: _("on"), False: _("off")}
    return {
        "doubling": (_("Doubling"), on_off.get),
        "values": (_("Values"), {"standard": _("Diamonds %(diamonds)s, Tricks %(tricks)s", diamonds=-10, tricks=-15),
                                 "swapped": _("Diamonds %(diamonds)s, Tricks %(tricks)s", diamonds=-15, tricks=-10)}.get),
        "scoring": (_("Scoring"), {"standard": _("highest total wins"),
                                   "reversed": _("reversed, lowest wins")}.get),
        "partnership": (_("Partners"), {None: _("everyone for themselves"),
                                        "sum": _("partners opposite, team totals added"),
                                        "worst-loses": _("partners opposite, the worst total loses")}.get),
        "complex": (_("Trix Complex"), on_off.get),
        "taken_back": (_("A doubled card taken back:"), {reading: reading_words(reading)
                                                          for reading in TAKEN_BACK}.get),
        "order": (_("Contract order"), lambda order: listed(str(CONTRACT_NAMES.get(c, c)) for c in order)
                  if order else _("free choice")),
    }


def _say(say: Any, value: Any) -> str:
    try:
        said = say(value)
    except TypeError:  # an unhashable value where a choice was expected: show it as entered
        said = None
    return str(said) if said is not None else json.dumps(value)


def settings_words(kind: str, options: Mapping[str, Any]) -> list[str]:
    """Every setting in words: "Target 500", "Doubling on", …"""
    return [f"{label} {_say(say, options.get(key))}" for key, (label, say) in _setting_values(kind).items()
            if key in options]


def settings_changes(kind: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[str, ...]:
    """Each setting that differs: "Target 500 → 300", "Doubling on → off"."""
    return tuple(_from_to(label, _say(say, before.get(key)), _say(say, after.get(key)))
                 for key, (label, say) in _setting_values(kind).items() if before.get(key) != after.get(key))

