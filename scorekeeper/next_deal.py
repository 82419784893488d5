"""The next deal as a phone works it out without connection (issue 18, part 7).

A phone at the table keeps the add-deal form and the score sheet for the road (the
service worker, templates/sw.js). Opened again without connection, that form was drawn
for the game as it was then: deals this phone has saved since (sent, or still waiting in
its outbox) and deals it has seen arrive from another phone are not in it. So every page
of a game carries the state of the game it was drawn for, and static/app.js counts this
phone's own deals on top of the newest state it knows: the deal's number, the dealer and,
in Trix, the kingdom's owner and the contracts left. The rotation is the rules' (SCORING.md
§1 for Trigami and plain Bugami: the deal passes to the next seat; §2: the kingdom's owner
deals every deal of it, the next kingdom goes to the right-hand neighbour,
``(owner + 1) % 4``); the script only counts.

No Flask here: a read model of sheet.Sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .rules import get_rules
from .rules.trix import CONTRACTS, KINGDOMS
from .sheet import Sheet


def state(scored: Sheet, tokens: Sequence[str] = ()) -> dict[str, Any] | None:
    """The game of ``scored`` as its next deal begins, as static/app.js reads it (a page's
    ``data-next-deal``), or None where no deal can be added (the game is over, or a stored
    deal no longer fits the rules: nothing to count on).

    Every game: ``version`` (the game's version, store.game_version: the newest state a
    phone knows wins), ``deals`` (how many are in play), ``seats``, ``kind``, ``tokens``
    (``tokens`` as given: the form tokens of its last deals, store.deal_tokens; a deal of
    this phone's waiting in its outbox with one of them is stored already, and counted in
    ``deals``). Trigami and plain Bugami: ``dealer``, the seat dealing the next deal (each deal after it: the
    next seat, modulo ``seats``). Trix: ``owner``, the seat whose kingdom it is (it
    deals every deal of it but the game's first: whoever holds the 7♥), ``done`` (kingdoms complete, of
    ``kingdoms``), ``played`` (the contracts played in this kingdom), ``order`` (every
    contract, in the fixed order when the game has one), ``fixed`` (only the next
    contract of the order may be chosen: a fixed order without Trix Complex).
    """
    score = scored.score
    if score is None or not scored.can_add:
        return None
    game = scored.game
    base: dict[str, Any] = {"version": game.version, "deals": len(game.deals), "seats": len(game.players),
                            "kind": game.kind, "tokens": list(tokens)}
    if game.kind != "trix":
        return base | {"dealer": score.next_dealer}
    options = get_rules(game.kind).parse_options(game.options)
    order = list(options.order or CONTRACTS)
    return base | {
        "owner": score.owner,
        "done": sum(1 for kingdom in score.kingdoms if kingdom.complete),
        "kingdoms": KINGDOMS,
        "played": [c for c in order if c not in score.remaining],
        "order": order,
        "fixed": bool(options.order) and not options.complex,
    }


def contracts_left(scored: Sheet) -> list[str]:
    """Trix: the contracts the next deal of ``scored`` may choose, in the order's order:
    those its kingdom has not played (SCORING.md §2: each contract once a kingdom), or in
    a fixed order without Trix Complex only the next of them (§2.5). [] for another game,
    or where no deal can be added. The live check gives them to an open deal form
    (views/live.py), which says when a contract chosen on it was played meanwhile."""
    told = state(scored)
    if told is None or scored.game.kind != "trix":
        return []
    left = [c for c in told["order"] if c not in told["played"]]
    return left[:1] if told["fixed"] else left

