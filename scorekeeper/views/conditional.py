"""Conditional answers: what a phone asks for again and again (a score sheet, the past
games, a game's live version every two seconds) is answered 304 Not Modified while the
phone has it already, without drawing it again.

Werkzeug parses the request's If-None-Match and writes the validator; Werkzeug's
``make_conditional`` is not used, as it answers 412 to a GET whose If-Match does not hold,
where these answers ignore If-Match (a browser does not send it with a GET).
Flask-Compress's own evaluation of conditional requests is off likewise (views/kept.py)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, request


def conditional(etag: str | None, draw: Callable[[], Response], *, private: bool = True) -> Response:
    """The answer to a GET of something whose validator is ``etag`` (a weak ETag: the same
    whether compressed or not): 304 Not Modified, without calling ``draw``, when the
    request's If-None-Match holds it; else ``draw()`` with that ETag. Either way
    ``Cache-Control: no-cache`` (asked again every time), and ``private`` (a group's data:
    never kept by a shared cache) unless ``private`` is False.

    ``etag`` None: no validator, drawn every time (a page showing a message once). A drawn
    answer other than 200 (a redirect, an error page) is returned as drawn, without them."""
    if etag is not None and request.if_none_match.contains_weak(etag):
        response = Response(status=304)  # no body, and no entity headers when sent (Werkzeug)
    else:
        response = draw()
        if response.status_code != 200:
            return response
    if etag is not None:
        response.set_etag(etag, weak=True)
    if private:
        response.cache_control.private = True
    response.cache_control.no_cache = True
    return response
