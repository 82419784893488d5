"""Every phone sees the game live: small conditional requests that a page asks every two
seconds (static/app.js), answered 304 while nothing changed.

Why polling and not server-sent events: the server gives each open connection one of its
threads (8 a worker in ``scorekeeper serve``), so 20 phones holding a stream open would
take every thread and starve the other requests; a short request that costs one indexed
look-up (store.game_version) and mostly ends in 304 Not Modified keeps every thread free,
and survives a flaky Wi-Fi without reconnect logic. Measured: see README, "Several phones".

A club night has hundreds of phones polling at once (issue 20, part 6), and most polls
ask about a game that did not change. :class:`QuickPolls` answers those before Flask does
anything (no request context, no session opened or saved, no template, nothing scored):
it checks the phone's signed session cookie and its link exactly as access.admit would,
reads the link and the version in one indexed look-up (groups.poll_access), and answers
304 when the phone has that version already, or 200 when there is no news to tell (a sheet
just loaded asks since its own version). Anything else — no link, a replaced link, a
passcode not given, another group's game, a changed game, a request it cannot read
plainly — goes the long way, through the app's own checks, which then answer as ever:
so a phone without the group's link learns nothing it did not learn before, not even
whether a game changed. Measured in bench/club-results.md.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature
from werkzeug.wrappers import Request

from .. import (
    actions,
    conflicts,
    groups,
    i18n,
    locale_numbers,
    network,
    next_deal,
    night_store,
    sheet,
    store,
)
from ..access import card_bar_words, group_id, shut_card, shut_words
from ..db import get_db, kept_connection
from ..i18n import gettext as _
from ..inputs import TOO_LARGE, whole_number
from . import kept
from .conditional import conditional

bp = Blueprint("live", __name__)


def _poll(version: int, since_given: str | None, mine_given: str, language: str,
          digits: str) -> tuple[str, int | None, list[str]]:
    """A game poll's (ETag, ``since``, ``mine``): ``since_given`` and ``mine_given`` the
    query's values as sent, read as :func:`game` documents; the ETag holds the version,
    ``since``, the language and digits the news is written in, and a fingerprint of
    ``mine``. One function for the view and :class:`QuickPolls`, so both agree."""
    since = whole_number(since_given)
    if since == TOO_LARGE:  # no such version: the news is everything
        since = 0
    mine = sorted({n for n in mine_given.split(",") if 0 < len(n) <= 64})[:50]
    etag = f"g{version}-{since if since is not None else ''}-{language}-{digits}-" + \
        hashlib.sha256(",".join(mine).encode()).hexdigest()[:8]  # news is in the phone's language and digits
    return etag, since, mine


@bp.get("/games/<game_id>/live")
def game(game_id: str) -> Any:
    """The game's version as JSON, for a sheet or a deal form to notice another phone's
    change: ``{"version": int, "deals": int, "finished": bool, "news": str, "stored":
    [str], "added": {str: int}, "stops": bool, "shut": str, "shut_bar": str, "left": [str]}``.
    ``left``: with news, in Trix, the contracts the next deal may choose
    (next_deal.contracts_left: an open form says when its contract was played meanwhile),
    else []. ``shut``: for a phone with a table
    card that no longer saves (its round closed), why (access.shut_words), else "";
    ``shut_bar``: then what the bar on its pages says (access.card_bar_words), else "". ``stops``: whether what changed since would stop a new deal's
    save for the phone to see it first (actions.arrived_since: not when it is only this
    phone's own deals, earlier deals put right and names put right in place). ``news`` tells what changed since the version in the query argument
    ``since`` ("Deal 5 was added on another phone: Anna +40, …"; empty without
    ``since``), leaving out this phone's own deals: ``mine`` lists their form tokens
    (comma-separated), and ``stored`` answers which of them are saved (a save whose
    answer was lost arrived after all), and ``added`` the game's version each was added at
    ({token: version}: a state of that version or later counts it). ETag: the version, ``since`` and ``mine``; 304
    while unchanged; the count and the end come from the game's summary (summaries.py), so
    only news is scored. 404 for no such game, 410 (``deleted``: true) for a deleted one."""
    db = get_db()
    row = store.live_state(db, game_id)
    if row is None:
        if store.is_deleted(db, game_id):  # deleted on another phone: the page reloads to say so
            return jsonify(error=_("This game was deleted."), deleted=True), 410
        return jsonify(error=_("There is no such game here.")), 404
    version, deals, finished = row
    etag, since, mine = _poll(version, request.args.get("since"), request.args.get("mine", ""),
                              i18n.language(), locale_numbers.digits())
    card = shut_card()  # a table card whose round closed: its pages stop offering to save
    shut = shut_words(card) if card is not None else ""
    shut_bar = card_bar_words(card) if card is not None else ""
    if shut:
        etag += "-shut"

    def draw() -> Response:
        arrived = actions.arrived_since(db, game_id, since, version, mine)
        own = arrived.stored
        news, left = "", []
        if arrived.changes or arrived.set_back:  # scored only to tell what arrived
            # the same news for every phone at the table that saw the same version: written once
            key = ("news", current_app.config["DATABASE"], game_id, since, version, etag, tuple(sorted(own.values())))
            news = kept.pages().once(key, lambda: _news(db, game_id, arrived, version, key, set(own.values())))
            left_key = ("left", current_app.config["DATABASE"], game_id, version)
            left = kept.pages().once(left_key, lambda: _left(db, game_id, version, left_key))
        return jsonify(version=version, deals=deals, finished=bool(finished), news=news, stored=sorted(own),
                       added=arrived.added, stops=arrived.stops, shut=shut, shut_bar=shut_bar, left=left)

    return conditional(etag, draw, private=False)


def _news(db: Any, game_id: str, arrived: actions.Arrived, version: int, key: tuple[Any, ...], own: set[Any]) -> str:
    """What changed in the game since the phone's version (``arrived``: actions.arrived_since;
    conflicts.summary), kept under ``key`` while the game is still at ``version``."""
    news = conflicts.summary(store.get_game(db, game_id), arrived.changes, own, arrived.set_back)
    if store.game_version(db, game_id) == version:
        kept.pages().set(key, news)
    return news


def _left(db: Any, game_id: str, version: int, key: tuple[Any, ...]) -> list[str]:
    """Trix: the contracts the game's next deal may choose (next_deal.contracts_left), kept
    under ``key`` while the game is still at ``version``; [] for another game."""
    left = next_deal.contracts_left(sheet.build(store.get_game(db, game_id)))
    if store.game_version(db, game_id) == version:
        kept.pages().set(key, left)
    return left


@bp.get("/live")
def everything() -> Any:
    """The version of the group's games together (the latest change to any), for the
    home page: ``{"version": int}``; ETag, 304 while unchanged."""
    version = groups.version(get_db(), group_id())
    return conditional(_group_etag(version), lambda: jsonify(version=version), private=False)


def _group_etag(version: int) -> str:
    return f"all{version}"


_GAME_POLL = re.compile(r"/games/([A-Za-z0-9_-]{1,64})/live")
_NIGHT_POLL = re.compile(r"/nights/([1-9][0-9]{0,17})/live")
_WSGI = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class QuickPolls:
    """WSGI middleware: an unchanged poll (``GET /games/<id>/live``, ``GET /live`` or the big
    screen's ``GET /nights/<id>/live``, with If-None-Match) answered 304 from one indexed
    look-up (a night: a few), before the Flask app (``app``,
    whose WSGI callable is ``wrapped``) opens a request; every other request, and every
    poll it cannot answer so, passed to ``wrapped`` untouched (see the module's
    docstring). ``headers``: what every answer of the app carries (its security
    headers); Strict-Transport-Security is added over HTTPS, as the app does. Placed
    inside ProxyFix, so the scheme is the proxy's client's. Off with config
    ``QUICK_POLLS`` = False (every poll then answered by the views).

    A poll with no news to tell (the phone asks since the version it has, or since
    nothing) is answered 200 from the same look-up. Each answer carries what the long
    way's carries (a test compares them): ETag, ``Cache-Control: no-cache``, Vary, the
    security headers, and for a 200 its JSON, Content-Language; never a cookie."""

    def __init__(self, app: Flask, wrapped: _WSGI, headers: Iterable[tuple[str, str]]) -> None:
        self.app, self.wrapped = app, wrapped
        self.headers = list(headers)
        database = str(app.config.get("DATABASE", ""))
        # an in-memory database is one connection's own: only the app's requests see it
        self.enabled = bool(app.config.get("QUICK_POLLS", True)) and database != ":memory:" \
            and not database.startswith("file:")

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if self.enabled and environ.get("REQUEST_METHOD") == "GET" and "HTTP_COOKIE" in environ:
            answer = self._quick(environ)
            if answer is not None:
                etag, vary, body, language = answer
                headers = [("ETag", f'W/"{etag}"'), ("Cache-Control", "no-cache"), ("Vary", vary), *self.headers]
                if environ.get("wsgi.url_scheme") == "https":
                    headers.append(("Strict-Transport-Security", "max-age=31536000"))
                if body is None:
                    start_response("304 NOT MODIFIED", headers)
                    return [b""]
                headers += [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                            ("Content-Language", language)]
                start_response("200 OK", headers)
                return [body]
        return self.wrapped(environ, start_response)

    def _quick(self, environ: dict[str, Any]) -> tuple[str, str, bytes | None, str] | None:
        """(ETag, Vary, body, language) of a quick answer: body None for 304, when the
        request is a poll that may see its answer and has it already; the JSON of a game
        poll with no news to tell (``since`` is the game's version, or not given, and no
        ``mine``: nothing to score or look up), as :func:`game` writes it. Else None:
        answered the long way."""
        path = environ.get("PATH_INFO", "")
        found = _GAME_POLL.fullmatch(path)
        night = _NIGHT_POLL.fullmatch(path) if found is None else None
        if found is None and night is None and path != "/live":
            return None
        if found is None and "HTTP_IF_NONE_MATCH" not in environ:
            return None
        host = environ.get("HTTP_HOST")
        if host is not None and not network.usable_host(host):
            return None  # the app answers 400
        request = Request(environ)
        config = self.app.config
        session = self._session(request.cookies.get(config["SESSION_COOKIE_NAME"]))
        token = session.get("link") if session is not None else None
        if session is None or not isinstance(token, str):
            return None
        game_id = found.group(1) if found is not None else None
        try:
            link = groups.poll_access(kept_connection(config["DATABASE"]), token, game_id)
        except sqlite3.Error:  # busy, being migrated …: the long way says what there is to say
            return None
        # access.admit's checks, each one that would not let the poll through: the long way
        if link is None or (link.game_id is not None and link.game_id != game_id):
            return None
        if link.access == groups.TABLE:
            return None  # a table card: whether it still saves (its round, the night) is the view's to say
        if link.passcode_id is not None and link.access == groups.PLAY \
                and link.passcode_id not in session.get("passed", ()):
            return None
        if night is not None:  # the big screen's poll (views/nights.live), likewise
            if link.game_id is not None:
                return None
            try:
                db = kept_connection(config["DATABASE"])
                night_id = int(night.group(1))
                if not night_store.night_of_link(db, token, night_id):
                    return None  # another group's night, or none: the view's 404
                etag = f"n{night_store.night_version(db, night_id)}"
            except sqlite3.Error:
                return None
            return (etag, "Accept-Encoding, Accept-Language, Cookie", None, "") if request.if_none_match.contains_weak(etag) else None
        if game_id is None:
            etag = _group_etag(link.version)
            return (etag, "Accept-Encoding, Cookie", None, "") if request.if_none_match.contains_weak(etag) else None
        language = i18n.language_of(request.cookies.get(i18n.COOKIE), request.headers.get("Accept-Language", ""))
        digits = locale_numbers.system_of(language, request.cookies.get(locale_numbers.COOKIE))
        etag, since, mine = _poll(link.version, request.args.get("since"), request.args.get("mine", ""),
                                  language, digits)
        vary = "Accept-Encoding, Accept-Language, Cookie"
        if request.if_none_match.contains_weak(etag):
            return etag, vary, None, language
        if mine or (since is not None and since != link.version):
            return None  # news to tell, or this phone's deals to look up: the view
        drawn: Response = self.app.json.response(version=link.version, deals=link.deals, finished=link.finished,
                                                 news="", stored=[], added={}, stops=False, shut="", shut_bar="", left=[])  # type: ignore[assignment]  # as jsonify writes it
        return etag, vary, drawn.get_data(), language

    def _session(self, cookie: str | None) -> dict[str, Any] | None:
        """The phone's session as the app reads it (its signed cookie, Flask's session
        interface and serializer, within the session's lifetime); None for none or one
        whose signature does not hold."""
        if not cookie or not isinstance(self.app.session_interface, SecureCookieSessionInterface):
            return None
        serializer = self.app.session_interface.get_signing_serializer(self.app)
        if serializer is None:
            return None
        try:
            data = serializer.loads(cookie, max_age=int(self.app.permanent_session_lifetime.total_seconds()))
        except BadSignature:
            return None
        return data if isinstance(data, dict) else None


def quick_polls(app: Flask, headers: Iterable[tuple[str, str]]) -> None:
    """Put :class:`QuickPolls` in front of ``app``'s WSGI callable (before a ProxyFix is
    put around it)."""
    app.wsgi_app = QuickPolls(app, app.wsgi_app, headers)  # type: ignore[method-assign]
