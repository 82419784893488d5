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
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    render_template,
    request,
    url_for,
)

from .. import conflicts, groups, i18n, numbers, store
from ..db import get_db
from ..i18n import gettext as _
from ..inputs import TOO_LARGE, whole_number

bp = Blueprint("live", __name__)


def _not_modified(etag: str) -> Response | None:
    """304 when the phone already has ``etag``, else None."""
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
        response.set_etag(etag, weak=True)
        response.cache_control.no_cache = True
        return response
    return None


def _json(etag: str, **data: Any) -> Response:
    response = jsonify(**data)
    response.set_etag(etag, weak=True)  # weak: the same whether compressed or not
    response.cache_control.no_cache = True  # always asked again, answered 304 while unchanged
    return response


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
    only news is scored. 404 for no such game."""
    db = get_db()
    row = store.live_state(db, game_id)
    if row is None:
        return jsonify(error=_("There is no such game here.")), 404
    version, deals, finished = row
    since = whole_number(request.args.get("since"))
    if since == TOO_LARGE:  # no such version: the news is everything
        since = 0
    mine = sorted({n for n in request.args.get("mine", "").split(",") if 0 < len(n) <= 64})[:50]
    etag = f"g{version}-{since if since is not None else ''}-{i18n.language()}-{numbers.digits()}-" + \
        hashlib.sha256(",".join(mine).encode()).hexdigest()[:8]  # news is in the phone's language and digits
    if (unchanged := _not_modified(etag)) is not None:
        return unchanged
    own = store.deals_by_nonce(db, game_id, mine)
    news = ""
    if since is not None and since != version:  # scored only to tell what arrived
        news = conflicts.summary(store.get_game(db, game_id), store.changes_since(db, game_id, since),
                                 set(own.values()))
    return _json(etag, version=version, deals=deals, finished=bool(finished), news=news, stored=sorted(own))


@bp.get("/live")
def everything() -> Any:
    """The version of the group's games together (the latest change to any), for the
    home page: ``{"version": int}``; ETag, 304 while unchanged."""
    from ..access import group_id

    version = groups.version(get_db(), group_id())
    etag = f"all{version}"
    if (unchanged := _not_modified(etag)) is not None:
        return unchanged
    return _json(etag, version=version)


# ------------------------------------------------------------------ without connection


def asset_version(app: Flask) -> str:
    """A fingerprint of the app's files (static/ and templates/, 12 hex digits), computed
    once per start: static URLs carry it (``?v=``), and the service worker's cache is
    named after it, so a new version of the app replaces the old cached one on the next
    visit with connection."""
    version = app.extensions.get("scorekeeper_assets")
    if version is None:
        digest = hashlib.sha256()
        for folder in (app.static_folder, app.template_folder):
            root = Path(app.root_path, folder or "")
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
        version = app.extensions["scorekeeper_assets"] = digest.hexdigest()[:12]
    return version


#: How many pages a phone's service worker keeps besides the shell (the oldest goes first)
KEPT_PAGES = 150


def shell_urls() -> list[str]:
    """What the service worker keeps from its first visit: the style, the script, the
    icons, the home page and the page shown for a page never opened before."""
    version = asset_version(current_app)
    return [url_for("static", filename=name, v=version) for name in ("app.css", "app.js", "icons/icon.svg")] + [
        url_for("games.index"), url_for("live.offline")]


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker (templates/sw.js), at the top so that it may serve every page.
    Never cached by the browser: its bytes change with :func:`asset_version`, which is
    how a phone learns of a new version of the app."""
    body = render_template("sw.js", version=asset_version(current_app), shell=shell_urls(),
                           offline=url_for("live.offline"), kept_pages=KEPT_PAGES)
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/offline")
def offline() -> str:
    """Shown by the service worker, without connection, for a page this phone never
    opened: what to do, and that the sheets opened before are still there."""
    return render_template("offline.html")
