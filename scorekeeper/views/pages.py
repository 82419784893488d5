"""Pages that are the same for every phone at one version of the stored games (the past
games list, the players list, a player's statistics): drawn once per version and kept
(views/kept.py), and answered 304 to a phone that has them already (views/conditional.py).

A page qualifies when nothing on it belongs to the browser's session (no form token, no
Undo): only a message waiting to be shown (a flash) is, and such a page is drawn anew.
A page is kept per group and per kind of link (play or read-only): the version is the
group's (groups.version), so any change to any of its games draws the page again and a
kept page is never out of date, and no group is ever shown another's page.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime
from functools import wraps
from typing import Any

from flask import Response, current_app, make_response, request, session

from .. import groups, i18n, locale_numbers, night_store
from ..access import page_key
from ..assets import asset_version
from ..db import get_db
from . import kept
from .conditional import conditional


def address() -> tuple[str | None, ...]:
    """What the address this request came in on (``request.host_url``: a QR code and
    absolute links show it) is made of, as the server got it: cheap enough for every
    request's page key, where working out ``host_url`` cost more than the rest of the key."""
    environ = request.environ
    return (environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST"), environ.get("SERVER_NAME"),
            environ.get("SERVER_PORT"), environ.get("SCRIPT_NAME"))


def _key(hourly: bool = False) -> str:
    mine = page_key()
    # a page that depends on today's date ("this year", "the last 12 months") is drawn
    # again in each new hour too: right within an hour of midnight wherever the viewer is
    hour = datetime.now(UTC).strftime("%Y-%m-%dT%H") if hourly else None
    db = get_db()
    # the rounds closed too: a closed round's tables move to the finished games (past.py)
    rounds = night_store.rounds_state(db, mine[0])
    return json.dumps([current_app.config["DATABASE"], request.full_path, groups.version(db, mine[0]),
                       rounds, mine, asset_version(current_app), i18n.language(), locale_numbers.digits(),
                       address(), hour])


def shared(view: Callable[..., Any]) -> Callable[..., Any]:
    """Keep the page ``view`` draws (a GET view returning HTML) per version of the games,
    address, language, digits and app version; answer 304 (weak ETag) to a browser that has it."""
    return _shared(view, hourly=False)


def shared_hourly(view: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`shared`, and drawn again every hour: for a page that counts from today's
    date (the players list's ranking of "this year")."""
    return _shared(view, hourly=True)


def _shared(view: Callable[..., Any], hourly: bool) -> Callable[..., Any]:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if session.get("_flashes"):  # a message to show once: this page is this browser's own
            return view(*args, **kwargs)
        key = _key(hourly)

        def draw() -> Response:
            page = kept.pages().get(key)
            if page is None:
                drawn = view(*args, **kwargs)
                if not isinstance(drawn, str):  # a redirect, an error: not kept
                    return make_response(drawn)
                page = drawn.encode()
                kept.pages().set(key, page)
            return kept.send(key, page)

        return conditional(hashlib.sha256(key.encode()).hexdigest()[:20], draw)

    return wrapper
