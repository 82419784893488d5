"""What another phone changed while this one was filling in a form, in words.

When a phone saves a deal into a game that changed since it opened the form (the store
raises StaleError with the changes made meanwhile), or when the live sheet notices a
change, the player is told what arrived — "Deal 5 was added on another phone: Anna +40,
Ben −10, Carla +20" — before anything of theirs is saved. Replayed from the change log
(records.Change) and the game as it is now, scored like the sheet; nothing is stored.

When another phone added a deal meanwhile, :func:`compare` sets it beside this phone's
entries, field by field in plain words with each deal's points, so the players see at
a glance whether the two are one deal (issue 18, part 8; an identical one is never
asked about: the write takes it as saved).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import history, sheet
from .i18n import gettext as _
from .names import CONTRACT_NAMES
from .records import Change, StoredGame
from .rules import RuleError, get_rules
from .rules.common import SUIT_SYMBOLS, SUITS, listed, number, signed
from .rules.trix import card_label
from .text import isolate


@dataclass(frozen=True)
class Arrival:
    """One change made on another phone, as the form shows it.

    ``text``: "Deal 5 was added on another phone"; ``number``: the deal's 1-based number
    now (None for a change to players or settings, or a deal no longer in play);
    ``points``: "Anna +40" for each seat, the deal's points as the game now scores them
    (empty when the deal is not in play or no longer scores); ``added``: a deal added
    (which may be this phone's very deal), not another change.
    """

    text: str
    number: int | None
    points: tuple[str, ...] = ()
    added: bool = False


def _number(game: StoredGame, change: Change) -> tuple[int, bool]:
    """(the deal's 1-based number now, whether it is in play). A deal out of play is
    numbered as it would be back in its place."""
    for index, deal in enumerate(game.deals):
        if deal.id == change.deal_id:
            return index + 1, True
    return game.number_at(change.position if change.position is not None else 0), False


def arrivals(game: StoredGame, since: Sequence[Change], own: Collection[int] = (),
             set_back: bool = False) -> list[Arrival]:
    """Each change in ``since`` (oldest first) in words, against ``game`` as it is now;
    changes to the deals ``own`` (ids of deals this phone saved itself) are left out.

    Several changes to one deal are told once, by the latest (a deal added and then
    changed reads "added"; added and then deleted, "added … and deleted again": told
    only "deleted", a phone whose own deal had that number read it as its own, tester
    31); the points are the deal's as the game scores now. ``set_back``: the version the
    phone read is one the game no longer has (store.set_back): said first, as what it saw
    of the game may be gone.
    """
    told: dict[object, Arrival] = {}
    if set_back:
        told["set_back"] = Arrival(set_back_words(), None)
    if not since:
        return list(told.values())
    scored = sheet.build(game)
    added: set[int] = set()  # deals added meanwhile: a later change of one still reads "added"
    for change in since:
        if change.deal_id in own:
            continue
        if change.action in ("players_renamed", "settings_changed"):
            told[change.action] = Arrival(
                _("The players were renamed on another phone") if change.action == "players_renamed"
                else _("The settings were changed on another phone"), None)
            continue
        if change.action in ("seat_taken", "seat_taken_back"):
            told_of = change.after if change.action == "seat_taken" else change.before
            if isinstance(told_of, dict):
                said = {"player": isolate(str(told_of.get("player", "?"))),
                        "old": isolate(str(told_of.get("replaces", "?"))), "n": told_of.get("from_deal", "?")}
                told[(change.action, change.id)] = Arrival(
                    _("On another phone: %(player)s takes %(old)s's seat from deal %(n)s", **said)
                    if change.action == "seat_taken" else
                    _("On another phone: %(player)s's taking of %(old)s's seat was taken back", **said), None)
            continue
        if change.action == "first_dealer_changed" and isinstance(change.after, dict):
            seat = change.after.get("first_dealer")
            name = isolate(game.players[seat]) if isinstance(seat, int) and 0 <= seat < len(game.players) else "?"
            told[change.action] = Arrival(
                _("On another phone: %(name)s holds the 7♥ and owns the first kingdom", name=name)
                if game.kind == "trix" else _("On another phone: %(name)s deals first", name=name), None)
            continue
        if change.deal_id is None:
            continue
        number, in_play = _number(game, change)
        action = change.action
        if action == "deal_added":
            added.add(change.deal_id)
        elif action in ("deal_changed", "deal_restored") and change.deal_id in added:
            action = "deal_added"
        elif action == "deal_deleted" and change.deal_id in added:
            action = "deal_added_and_deleted"
        text = {
            "deal_added": _("Deal %(n)s was added on another phone", n=number),
            "deal_added_and_deleted": _("Deal %(n)s was added on another phone and deleted again", n=number),
            "deal_changed": _("Deal %(n)s was changed on another phone", n=number),
            "deal_deleted": _("Deal %(n)s was deleted on another phone", n=number),
            "deal_restored": _("Deal %(n)s was restored on another phone", n=number),
        }.get(action)
        if text is None:
            continue
        points: tuple[str, ...] = ()
        deal = scored.deal_score(number - 1) if in_play else None
        if deal is not None:
            points = tuple(f"{isolate(name)} {signed(p)}"
                           for name, p in zip(game.players_at(number), deal.points, strict=True))
        told[change.deal_id] = Arrival(text, number if in_play else None, points, added=action == "deal_added")
    # a deal added and deleted again, several times over (each time another deal): told once
    # (tester 61: "Deal 2 was added on another phone and deleted again." three times)
    return list(dict.fromkeys(told.values()))


def set_back_words() -> str:
    """What a phone is told of a game set back past the version it read (store.set_back),
    without the full stop."""
    return _("The game was set back on the server to an earlier copy (a backup was put back), so some of "
             "what this phone showed may be gone")


def summary(game: StoredGame, since: Sequence[Change], own: Collection[int] = (), set_back: bool = False) -> str:
    """The changes in one line for a banner: "Deal 5 was added on another phone: Anna +40,
    Ben −10, Carla +20." (sentences joined); empty when nothing a player sees changed.
    ``own`` and ``set_back``: as for :func:`arrivals`."""
    parts = []
    for arrival in arrivals(game, since, own, set_back):
        parts.append(f"{arrival.text}: {listed(arrival.points)}." if arrival.points else f"{arrival.text}.")
    return " ".join(parts)


# ------------------------------------------------------------------ theirs beside mine


@dataclass(frozen=True)
class Row:
    """One field of a deal, as each phone has it: ``label`` ("Ben's tricks", "K♥ taken
    by"), ``theirs`` (the deal another phone added) and ``mine`` (this phone's entry), in
    plain words; ``differs``: whether the two say otherwise. ``named``: the field as a
    sentence names it ("they differ in who took the K♥"), where its label does not read
    there (tester 55: "they differ in K♥ taken by."); None: the label."""

    label: str
    theirs: str
    mine: str
    named: str | None = None

    @property
    def differs(self) -> bool:
        return self.theirs != self.mine


@dataclass(frozen=True)
class Compared:
    """The deal another phone added meanwhile beside this phone's entries.

    ``number``: that deal's 1-based number; ``rows``: every field either deal has
    (:class:`Row`); ``points``: each player's points (label: the player's name),
    theirs as the game scores now, mine as they would be in that deal's place ("—"
    where they do not score); ``differences``: the labels of the fields that differ,
    for the sentence that says where."""

    number: int
    rows: tuple[Row, ...]
    points: tuple[Row, ...]

    @property
    def differences(self) -> tuple[str, ...]:
        return tuple(r.named or r.label for r in self.rows if r.differs)


def compare(game: StoredGame, since: Sequence[Change], mine: Mapping[str, Any] | None,
            own: Collection[int] = ()) -> Compared | None:
    """Of the deals added in ``since`` (on another phone: not the ids ``own``) and still
    in play in ``game`` (as it is now), the one nearest this phone's entry ``mine``
    (fewest fields differing) beside it; None when no deal was added meanwhile or the
    phone's entry did not read (``mine`` None)."""
    if mine is None:
        return None
    added = {c.deal_id for c in since if c.action == "deal_added" and c.deal_id not in own}
    candidates = [(i, d) for i, d in enumerate(game.deals) if d.id in added]
    if not candidates:
        return None
    best: Compared | None = None
    for index, deal in candidates:
        names = tuple(isolate(n) for n in game.players_at(index + 1))  # who sat in that deal
        rows = _rows(game.kind, deal.entry, mine, names)
        if best is None or sum(r.differs for r in rows) < sum(r.differs for r in best.rows):
            best = Compared(index + 1, rows, _points(game, index, mine, names))
    return best


def _points(game: StoredGame, index: int, mine: Mapping[str, Any], names: Sequence[str]) -> tuple[Row, ...]:
    """Each player's points for deal ``index`` as stored (theirs) and with ``mine`` in
    its place, else after the deals in play (as "Add mine" would save it)."""
    theirs = sheet.build(game).deal_score(index)
    entries = [d.entry for d in game.deals]
    ours = None
    for place in ([*entries[:index], dict(mine)], [*entries, dict(mine)]):
        try:
            ours = game.game_file(place).score().deals[len(place) - 1]
            break
        except RuleError:
            continue
    return tuple(Row(name, signed(theirs.points[s]) if theirs is not None else "—",
                     signed(ours.points[s]) if ours is not None else "—") for s, name in enumerate(names))


def _seat(names: Sequence[str], seat: Any, none: str = "—") -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else none


def _count(values: Any, seat: int) -> str:
    value = values[seat] if isinstance(values, list) and seat < len(values) else None
    return number(value) if type(value) is int else "—"


def _bid(bids: Any, seat: int) -> str:
    bid = bids[seat] if isinstance(bids, list) and seat < len(bids) else None
    if not isinstance(bid, Mapping):
        return "—"
    if bid.get("kind") == "turnip":
        return _("Turnip")
    symbol = SUIT_SYMBOLS.get(bid.get("suit") or "", "?")
    return _("Doublets %(suit)s", suit=symbol) if bid.get("kind") == "doublets" else symbol


def _rows(kind: str, theirs: Mapping[str, Any], mine: Mapping[str, Any], names: Sequence[str]) -> tuple[Row, ...]:
    """Every field of a deal of ``kind`` that either entry has, in plain words."""
    if kind == "trix":
        return _trix_rows(theirs, mine, names)
    rows: list[Row] = []
    for s, name in enumerate(names):
        rows.append(Row(_("%(name)s's bid", name=name), _bid(theirs.get("bids"), s), _bid(mine.get("bids"), s)))
        rows.append(Row(_("%(name)s's tricks", name=name), _count(theirs.get("tricks"), s),
                        _count(mine.get("tricks"), s)))
        rows.append(Row(_("%(name)s's bugs", name=name), _count(theirs.get("bugs"), s), _count(mine.get("bugs"), s)))
    if kind == "trigami":
        def turnip(entry: Mapping[str, Any]) -> str:
            return SUIT_SYMBOLS.get(entry.get("turnip") or "", _("not noted"))
        rows.append(Row(_("Turnip card"), turnip(theirs), turnip(mine)))
    rows.append(Row(_("Last trick won by"), _seat(names, theirs.get("last_trick"), _("not noted")),
                    _seat(names, mine.get("last_trick"), _("not noted")),
                    # TRANSLATORS: a field of a deal as "they differ in %(fields)s" names it
                    _("who won the last trick")))
    return tuple(rows)


def _trix_rows(theirs: Mapping[str, Any], mine: Mapping[str, Any], names: Sequence[str]) -> tuple[Row, ...]:
    """A Trix deal's fields: its contracts, then those of each contract either names."""
    def contracts(entry: Mapping[str, Any]) -> str:
        return " + ".join(str(CONTRACT_NAMES.get(c, c)) for c in entry.get("contracts") or []) or "—"

    def block(entry: Mapping[str, Any], contract: str, suit: str | None) -> Mapping[str, Any]:
        found = entry.get(contract) if contract in (entry.get("contracts") or ()) else None
        if suit is not None:
            found = found.get(suit) if isinstance(found, Mapping) else None
        return found if isinstance(found, Mapping) else {}

    rows = [Row(_("Contract"), contracts(theirs), contracts(mine))]
    named = set(theirs.get("contracts") or ()) | set(mine.get("contracts") or ())
    for contract in ("king", "queens", "diamonds", "tricks", "trix"):
        if contract not in named:
            continue
        if contract in ("king", "queens"):
            cards = [("K", "H", None)] if contract == "king" else [("Q", s, s) for s in SUITS]
            for rank, suit, key in cards:
                card = card_label(rank, suit)
                ours, others = block(mine, contract, key), block(theirs, contract, key)
                # TRANSLATORS: the next three: a field of a deal as "they differ in %(fields)s" names it
                rows.append(Row(_("%(card)s taken by", card=card), _seat(names, others.get("taker")),
                                _seat(names, ours.get("taker")), _("who took the %(card)s", card=card)))
                for field, label, said, none in (
                        ("doubled_by", _("%(card)s doubled by", card=card), _("who doubled the %(card)s", card=card),
                         _("nobody")),
                        ("leader", _("%(card)s: trick led by", card=card),
                         _("who led the trick the %(card)s fell in", card=card), "—")):
                    if others.get(field) is not None or ours.get(field) is not None:
                        rows.append(Row(label, _seat(names, others.get(field), none), _seat(names, ours.get(field), none),
                                        said))
        elif contract == "trix":
            def order(entry: Mapping[str, Any]) -> str:
                if "trix" not in (entry.get("contracts") or ()):
                    return "—"
                return listed(_seat(names, s, "?") for s in entry.get("trix") or []) or "—"
            rows.append(Row(_("Finishing order"), order(theirs), order(mine)))
        else:
            for s, name in enumerate(names):
                label = _("%(name)s's diamonds", name=name) if contract == "diamonds" else \
                    _("%(name)s's tricks", name=name)

                rows.append(Row(label, *(_count(e.get(contract), s) if contract in (e.get("contracts") or ()) else "—"
                                         for e in (theirs, mine))))
    return tuple(rows)


# ------------------------------------------------------------------ one deal changed on two phones

_MISSING = object()


@dataclass(frozen=True)
class ChangedTwice:
    """A deal this phone changed after another phone changed it (since the form was
    opened): ``entry``, both phones' changes together (:func:`merged`) for the form to
    show, None when this phone's entries did not read or the deal as it read it is not
    known; ``theirs``, the other phone's changes in words ("Carla's bugs 2 → 3", none
    when not known); ``saving``, what Save would change in the deal as saved now, in
    words (None: this phone's entries did not read)."""

    entry: dict[str, Any] | None
    theirs: tuple[str, ...]
    saving: tuple[str, ...] | None


def changed_twice(kind: str, read: Mapping[str, Any] | None, theirs: Mapping[str, Any],
                  mine: Mapping[str, Any] | None, names: Sequence[str]) -> ChangedTwice:
    """What this phone is shown when its change of a deal meets another phone's: ``read``
    the entry as this phone read it (None: not known), ``theirs`` as saved now, ``mine``
    this phone's entry (None: it did not read), ``names`` the players of the deal (as
    shown). See :class:`ChangedTwice`."""
    entry = merged(read, theirs, mine) if read is not None and mine is not None else None
    shown = entry if entry is not None else mine
    return ChangedTwice(entry, history.deal_changes(kind, read, theirs, names) if read is not None else (),
                        history.deal_changes(kind, theirs, shown, names) if shown is not None else None)


def merged(read: Mapping[str, Any], theirs: Mapping[str, Any], mine: Mapping[str, Any]) -> dict[str, Any]:
    """One deal changed on two phones at once, put together for this phone to check:
    ``read``, the deal's entry as this phone read it, with the other phone's changes
    since (``theirs``: the entry saved now) and this phone's (``mine``), field by field
    (each seat's count, bid or card a field of its own). A field this phone left as it
    read it takes theirs; one it changed keeps its own, also where the other phone
    changed it too. Nothing is saved: the form shows the result, and Save saves it."""
    return dict(_field(read, theirs, mine))


def _field(read: Any, theirs: Any, mine: Any) -> Any:
    if all(isinstance(x, Mapping) for x in (read, theirs, mine)):
        out = {}
        for key in [*mine, *(k for k in theirs if k not in mine)]:
            value = _field(read.get(key, _MISSING), theirs.get(key, _MISSING), mine.get(key, _MISSING))
            if value is not _MISSING:
                out[key] = value
        return out
    if all(isinstance(x, list) for x in (read, theirs, mine)) and len(read) == len(theirs) == len(mine):
        return [_field(r, t, m) for r, t, m in zip(read, theirs, mine, strict=True)]
    return theirs if mine == read else mine



def _as_read(arrived: Sequence[Change]) -> tuple[Sequence[str] | None, Mapping[str, Any] | None]:
    """The players and the settings as a form opened before ``arrived`` (the changes since,
    oldest first) read them: each from the first of those changes that changed it, None
    when none did."""
    renamed = [c.before["players"] for c in arrived if c.action == "players_renamed" and isinstance(c.before, Mapping)]
    reset = [c.before["options"] for c in arrived if c.action == "settings_changed" and isinstance(c.before, Mapping)]
    return (renamed[0] if renamed else None), (reset[0] if reset else None)


def merged_settings(arrived: Sequence[Change], players: Sequence[str], options: Mapping[str, Any],
                    now: StoredGame) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The players and settings this phone saved (``players`` by seat, ``options`` as
    the game file writes them) put together with another phone's change of them since
    the form was opened (``arrived``: the changes since, oldest first; ``now``: the game
    as it is), as :func:`merged` puts a deal together: a name or a setting this phone
    left as it read it takes the other phone's; one it changed keeps its own. Returns
    (names by seat, options) for the form to show; nothing is saved."""
    rules = get_rules(now.kind)

    def spelt_out(raw: Mapping[str, Any]) -> dict[str, Any]:
        try:
            return rules.dump_options(rules.parse_options(raw))
        except RuleError:
            return dict(raw)

    read_players, read_options = _as_read(arrived)
    read_players = now.players if read_players is None else read_players
    read = spelt_out(now.options if read_options is None else read_options)
    theirs, mine = spelt_out(now.options), spelt_out(options)
    names = tuple(their if own == was else own
                  for was, their, own in zip(read_players, now.players, players, strict=True))
    settings = {}
    for key in [*mine, *(k for k in theirs if k not in mine)]:
        own = mine.get(key, _MISSING)
        value = theirs.get(key, _MISSING) if own == read.get(key, _MISSING) else own
        if value is not _MISSING:
            settings[key] = value
    return names, settings


def settings_changed_meanwhile(arrived: Sequence[Change], now: StoredGame) -> tuple[str, ...]:
    """What another phone changed of the players and settings since the form was opened
    (``arrived``: the changes since, oldest first; ``now``: the game as it is), in words:
    "Ben → Benedikt", "Target 900 → 850"; from what the form read to what is stored now."""
    read_players, read_options = _as_read(arrived)
    words = [history.renamed(old, new) for old, new in zip(read_players or (), now.players, strict=False)
             if old != new]
    if read_options is not None:
        words.extend(history.settings_changes(now.kind, read_options, now.options))
    return tuple(words)
