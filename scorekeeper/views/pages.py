"""Pages that are the same for every phone at one version of the stored games (the past
games list, the players list, a player's statistics): drawn once per version and kept,
and answered 304 to a phone that has them already.

A page qualifies when nothing on it belongs to the browser's session (no form token, no
Undo): only a message waiting to be shown (a flash) is, and such a page is drawn anew.
A page is kept per group and per kind of link (play or read-only): the version is the
group's (groups.version), so any change to any of its games draws the page again and a
kept page is never out of date, and no group is ever shown another's page.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Response, current_app, make_response, request, session

from .. import groups, i18n, locale_numbers
from ..assets import asset_version
from ..db import get_db


class PageCache:
    """Drawn pages (str, or bytes as sent) by key, the most recently used kept, up to
    ``most`` characters or bytes in all."""

    def __init__(self, most: int) -> None:
        self._pages: OrderedDict[str, Any] = OrderedDict()
        self._size = 0
        self._most = most
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def put(self, key: str, page: Any) -> None:
        with self._lock:
            if key in self._pages:
                self._size -= len(self._pages.pop(key))
            self._pages[key] = page
            self._size += len(page)
            while self._size > self._most and len(self._pages) > 1:
                self._size -= len(self._pages.popitem(last=False)[1])


#: Lists and player pages kept (at most 2 million characters of HTML)
PAGES = PageCache(2_000_000)
#: The same pages as sent, compressed once per Accept-Encoding (at most 1 MB)
SENT = PageCache(1_000_000)


def _sent(key: str, page: str) -> tuple[str, bytes]:
    """(Content-Encoding, bytes) of ``page`` for this request's Accept-Encoding, compressed
    by Flask-Compress (its choice of algorithm and level) once, then kept: a long page
    (a player's charts) is not compressed again for every phone."""
    accept = request.headers.get("Accept-Encoding", "")
    sent_key = json.dumps([key, accept])
    found = SENT.get(sent_key)
    if found is None:
        response = current_app.extensions["compress"].after_request(make_response(page))
        found = response.headers.get("Content-Encoding", "").encode() + b"\n" + response.get_data()
        SENT.put(sent_key, found)
    encoding, _, data = found.partition(b"\n")
    return encoding.decode(), data


def address() -> tuple[str | None, ...]:
    """What the address this request came in on (``request.host_url``: a QR code and
    absolute links show it) is made of, as the server got it: cheap enough for every
    request's page key, where working out ``host_url`` cost more than the rest of the key."""
    environ = request.environ
    return (environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST"), environ.get("SERVER_NAME"),
            environ.get("SERVER_PORT"), environ.get("SCRIPT_NAME"))


def _key() -> str:
    from .groups import page_key

    mine = page_key()
    return json.dumps([current_app.config["DATABASE"], request.full_path, groups.version(get_db(), mine[0]),
                       mine, asset_version(current_app), i18n.language(), locale_numbers.digits(), address()])


def shared(view: Callable[..., Any]) -> Callable[..., Any]:
    """Keep the page ``view`` draws (a GET view returning HTML) per version of the games,
    address, language, digits and app version; answer 304 (weak ETag) to a browser that has it."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if session.get("_flashes"):  # a message to show once: this page is this browser's own
            return view(*args, **kwargs)
        key = _key()
        etag = hashlib.sha256(key.encode()).hexdigest()[:20]
        if request.if_none_match.contains_weak(etag):
            response = Response(status=304)
        else:
            page = PAGES.get(key)
            if page is None:
                page = view(*args, **kwargs)
                if not isinstance(page, str):  # a redirect, an error: not kept
                    return page
                PAGES.put(key, page)
            encoding, data = _sent(key, page)
            response = Response(data, content_type="text/html; charset=utf-8")
            if encoding:
                response.headers["Content-Encoding"] = encoding  # Flask-Compress leaves it be
                response.vary.add("Accept-Encoding")
        response.set_etag(etag, weak=True)
        response.cache_control.private = True
        response.cache_control.no_cache = True
        return response

    return wrapper
