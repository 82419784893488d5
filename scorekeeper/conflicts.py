"""What another phone changed while this one was filling in a form, in words.

When a phone saves a deal into a game that changed since it opened the form (the store
raises StaleError with the changes made meanwhile), or when the live sheet notices a
change, the player is told what arrived — "Deal 5 was added on another phone: Anna +40,
Ben −10, Carla +20" — before anything of theirs is saved. Replayed from the change log
(records.Change) and the game as it is now, scored like the sheet; nothing is stored.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from . import sheet
from .i18n import gettext as _
from .records import Change, StoredGame
from .rules.common import listed, signed
from .text import isolate


@dataclass(frozen=True)
class Arrival:
    """One change made on another phone, as the form shows it.

    ``text``: "Deal 5 was added on another phone"; ``number``: the deal's 1-based number
    now (None for a change to players or settings, or a deal no longer in play);
    ``points``: "Anna +40" for each seat, the deal's points as the game now scores them
    (empty when the deal is not in play or no longer scores).
    """

    text: str
    number: int | None
    points: tuple[str, ...] = ()


def _number(game: StoredGame, change: Change) -> tuple[int, bool]:
    """(the deal's 1-based number now, whether it is in play). A deal out of play is
    numbered as it would be back in its place."""
    for index, deal in enumerate(game.deals):
        if deal.id == change.deal_id:
            return index + 1, True
    return game.number_at(change.position if change.position is not None else 0), False


def arrivals(game: StoredGame, since: Sequence[Change], own: Collection[int] = ()) -> list[Arrival]:
    """Each change in ``since`` (oldest first) in words, against ``game`` as it is now;
    changes to the deals ``own`` (ids of deals this phone saved itself) are left out.

    Several changes to one deal are told once, by the latest (a deal added and then
    changed reads "added"); the points are the deal's as the game scores now.
    """
    scored = sheet.build(game)
    told: dict[object, Arrival] = {}
    added: set[int] = set()  # deals added meanwhile: a later change of one still reads "added"
    for change in since:
        if change.deal_id in own:
            continue
        if change.action in ("players_renamed", "settings_changed"):
            told[change.action] = Arrival(
                _("The players were renamed on another phone") if change.action == "players_renamed"
                else _("The settings were changed on another phone"), None)
            continue
        if change.deal_id is None:
            continue
        number, in_play = _number(game, change)
        action = change.action
        if action == "deal_added":
            added.add(change.deal_id)
        elif action == "deal_changed" and change.deal_id in added:
            action = "deal_added"
        text = {
            "deal_added": _("Deal %(n)s was added on another phone", n=number),
            "deal_changed": _("Deal %(n)s was changed on another phone", n=number),
            "deal_deleted": _("Deal %(n)s was deleted on another phone", n=number),
            "deal_restored": _("Deal %(n)s was restored on another phone", n=number),
        }.get(action)
        if text is None:
            continue
        points: tuple[str, ...] = ()
        deal = scored.deal_score(number - 1) if in_play else None
        if deal is not None:
            points = tuple(f"{isolate(name)} {signed(p)}" for name, p in zip(game.players, deal.points, strict=True))
        told[change.deal_id] = Arrival(text, number if in_play else None, points)
    return list(told.values())


def summary(game: StoredGame, since: Sequence[Change], own: Collection[int] = ()) -> str:
    """The changes in one line for a banner: "Deal 5 was added on another phone: Anna +40,
    Ben −10, Carla +20." (sentences joined); empty when nothing a player sees changed.
    ``own``: as for :func:`arrivals`."""
    parts = []
    for arrival in arrivals(game, since, own):
        parts.append(f"{arrival.text}: {listed(arrival.points)}." if arrival.points else f"{arrival.text}.")
    return " ".join(parts)
