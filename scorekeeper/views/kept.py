"""Pages drawn once per version of what they show and kept for the next phone that asks
for the same version: the past games list and the players' pages (views/pages.py), the
score sheet (views/games.py), and the bytes Flask-Compress made of them. With several
worker processes, a drawn sheet is also shared with the other workers (:func:`shared`,
shared_pages.py), so that each version is drawn about once on the whole server.

One cache per app: cachetools' LRUCache behind a lock (waitress answers from several
threads), the most recently used kept, up to :data:`MOST` bytes in all. A page's key
holds everything it shows (the version of its games, the app's files, the language and
digits, the address, the group and its kind of link), so a kept page is never out of
date: a changed game, another language or a new version of the app makes a new key, and
the old page, never asked for again, goes when room is needed.

Compressed bytes: Flask-Compress compresses every answer a browser accepts compressed.
With this cache as its ``COMPRESS_CACHE_BACKEND`` and :func:`compressed_key` as its
``COMPRESS_CACHE_KEY`` (both set by :func:`init_app`), it compresses a page sent with
:func:`send` once per algorithm (br, gzip, …) and reuses the bytes: a long sheet is not
compressed again for every phone. Any other answer (a sheet with this browser's own Undo,
a form) has no key and is compressed afresh, never kept. Flask-Compress does not evaluate
conditional requests: the app does, before drawing (views/conditional.py).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Hashable, Sized
from typing import Any

from cachetools import LRUCache
from flask import Flask, Request, Response, current_app, g

from ..shared_pages import SharedPages

#: Bytes of kept pages, drawn and compressed, per app: a few MB (a 200-deal sheet is about
#: 0.5 MB drawn and 25 KB compressed)
MOST = 7_000_000

#: Where the app's cache is (``app.extensions``)
EXTENSION = "scorekeeper_kept"
#: Where the pages shared with the server's other workers are (``app.extensions``)
SHARED = "scorekeeper_shared_pages"


class KeptPages:
    """Pages by key (any hashable), the most recently used kept, up to ``most`` in all
    of their sizes (``len``: a page's bytes; a drawn sheet's, see games.DrawnSheet).
    Safe to share between threads. A page larger than ``most`` is kept alone, as if it
    filled the cache: the longest game's sheet is opened by every phone all the same."""

    def __init__(self, most: int) -> None:
        self._pages: LRUCache[Hashable, Sized] = LRUCache(most, getsizeof=lambda page: min(len(page), most))
        self._lock = threading.Lock()
        self._drawing: dict[Hashable, threading.Lock] = {}

    def once(self, key: Hashable, draw: Callable[[], Any]) -> Any:
        """The page kept under ``key``, else ``draw()``'s (which keeps it, or not, with
        :meth:`set`), drawn once however many threads ask at the same moment: the others
        wait for it and take the kept page. Why: after a deal is saved, every phone at the
        table asks for the new sheet within a poll's two seconds, and on a busy server
        they would all draw it while the first is still drawing."""
        page = self.get(key)
        if page is not None:
            return page
        with self._lock:
            lock = self._drawing.setdefault(key, threading.Lock())
        try:
            with lock:
                page = self.get(key)
                return page if page is not None else draw()
        finally:
            with self._lock:
                if self._drawing.get(key) is lock:
                    del self._drawing[key]

    def get(self, key: Hashable) -> Any:
        """The page kept under ``key``, now the most recently used one, or None."""
        with self._lock:
            return self._pages.get(key)

    def set(self, key: Hashable, page: Sized) -> None:
        """Keep ``page`` under ``key``, making room by letting the least recently used go."""
        with self._lock:
            self._pages[key] = page

    def __len__(self) -> int:
        """How many pages are kept."""
        with self._lock:
            return len(self._pages)


class _Compressed:
    """Flask-Compress's cache backend (get and set by its key, "br;" + :func:`compressed_key`)
    in the app's :class:`KeptPages`; a key with nothing after the algorithm's name (an
    answer not sent with :func:`send`) is neither looked up nor kept."""

    def __init__(self, pages: KeptPages) -> None:
        self._pages = pages

    def get(self, key: str) -> bytes | None:
        return None if key.endswith(";") else self._pages.get(("compressed", key))

    def set(self, key: str, value: bytes) -> None:
        if not key.endswith(";"):
            self._pages.set(("compressed", key), value)


#: Where :func:`send` leaves the compressed bytes' key for :func:`compressed_key` (``g``)
_SENT = "_kept_compressed_key"


def compressed_key(_request: Request) -> str:
    """Flask-Compress's ``COMPRESS_CACHE_KEY``: the key of the kept page this answer sends
    (:func:`send`), or "" for any other answer."""
    return str(g.get(_SENT, ""))


def init_app(app: Flask) -> None:
    """Give ``app`` its cache, and Flask-Compress its backend and key in it (before
    Flask-Compress is set up on ``app``: it reads them once, then)."""
    pages = app.extensions[EXTENSION] = KeptPages(MOST)
    database = str(app.config["DATABASE"])
    if app.config.get("SHARED_PAGES") and database != ":memory:" and not database.startswith("file:"):
        app.extensions[SHARED] = SharedPages(f"{os.path.abspath(database)}-pages")
    backend: Callable[[], _Compressed] = lambda: _Compressed(pages)  # noqa: E731 - Flask-Compress calls it
    app.config.setdefault("COMPRESS_CACHE_BACKEND", backend)
    app.config.setdefault("COMPRESS_CACHE_KEY", compressed_key)
    # 304s are the app's own (views/conditional.py), decided before a page is drawn
    app.config.setdefault("COMPRESS_EVALUATE_CONDITIONAL_REQUEST", False)


def shared() -> SharedPages | None:
    """The pages this app's server shares between its worker processes (config
    ``SHARED_PAGES``, set by ``scorekeeper serve`` with several workers), or None."""
    found: SharedPages | None = current_app.extensions.get(SHARED)
    return found


def pages() -> KeptPages:
    """The current app's kept pages."""
    kept: KeptPages = current_app.extensions[EXTENSION]
    return kept


def send(key: Hashable, page: bytes) -> Response:
    """``page`` (HTML, UTF-8), kept under ``key``, as an answer; Flask-Compress compresses
    it once per algorithm and keeps the bytes under the same key."""
    setattr(g, _SENT, hashlib.sha256(repr(key).encode()).hexdigest()[:32])
    return Response(page, content_type="text/html; charset=utf-8")
