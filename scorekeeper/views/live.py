"""Every phone sees the game live: small conditional requests that a page asks every two
seconds (static/app.js), answered 304 while nothing changed.

Why polling and not server-sent events: waitress gives each open connection one of its
threads (8 in ``scorekeeper serve``), so 20 phones holding a stream open would take every
thread and starve the other requests; a short request that costs one indexed look-up
(store.game_version) and mostly ends in 304 Not Modified keeps every thread free, and
survives a flaky Wi-Fi without reconnect logic. Measured: see README, "Several phones".
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Blueprint, Response, jsonify, request

from .. import conflicts, groups, i18n, locale_numbers, store
from ..access import group_id
from ..db import get_db
from ..i18n import gettext as _
from ..inputs import TOO_LARGE, whole_number
from .conditional import conditional

bp = Blueprint("live", __name__)


@bp.get("/games/<game_id>/live")
def game(game_id: str) -> Any:
    """The game's version as JSON, for a sheet or a deal form to notice another phone's
    change: ``{"version": int, "deals": int, "finished": bool, "news": str, "stored":
    [str]}``. ``news`` tells what changed since the version in the query argument
    ``since`` ("Deal 5 was added on another phone: Anna +40, …"; empty without
    ``since``), leaving out this phone's own deals: ``mine`` lists their form tokens
    (comma-separated), and ``stored`` answers which of them are saved (a save whose
    answer was lost arrived after all). ETag: the version, ``since`` and ``mine``; 304
    while unchanged; the count and the end come from the game's summary (summaries.py), so
    only news is scored. 404 for no such game, 410 (``deleted``: true) for a deleted one."""
    db = get_db()
    row = store.live_state(db, game_id)
    if row is None:
        if store.is_deleted(db, game_id):  # deleted on another phone: the page reloads to say so
            return jsonify(error=_("This game was deleted."), deleted=True), 410
        return jsonify(error=_("There is no such game here.")), 404
    version, deals, finished = row
    since = whole_number(request.args.get("since"))
    if since == TOO_LARGE:  # no such version: the news is everything
        since = 0
    mine = sorted({n for n in request.args.get("mine", "").split(",") if 0 < len(n) <= 64})[:50]
    etag = f"g{version}-{since if since is not None else ''}-{i18n.language()}-{locale_numbers.digits()}-" + \
        hashlib.sha256(",".join(mine).encode()).hexdigest()[:8]  # news is in the phone's language and digits

    def draw() -> Response:
        own = store.deals_by_nonce(db, game_id, mine)
        news = ""
        if since is not None and since != version:  # scored only to tell what arrived
            news = conflicts.summary(store.get_game(db, game_id), store.changes_since(db, game_id, since),
                                     set(own.values()))
        return jsonify(version=version, deals=deals, finished=bool(finished), news=news, stored=sorted(own))

    return conditional(etag, draw, private=False)


@bp.get("/live")
def everything() -> Any:
    """The version of the group's games together (the latest change to any), for the
    home page: ``{"version": int}``; ETag, 304 while unchanged."""
    version = groups.version(get_db(), group_id())
    return conditional(f"all{version}", lambda: jsonify(version=version), private=False)
