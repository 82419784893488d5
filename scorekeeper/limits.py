"""Limits that keep one client from slowing down everyone (issue 9): requests per client
per minute on writes and on imports, through Flask-Limiter (in-memory counts: one server
process; they start afresh when it restarts).

``limiter`` is the one Flask-Limiter of the app. A view adds its own limit with
``@limiter.limit(...)``; a limit given as a function of no arguments is read on each
request, so each app's config counts (tests make many apps in one process). Config keys:

- ``RATELIMIT_ENABLED`` (default True): False turns every limit off for that app.
- ``WRITE_LIMIT`` (default "120 per minute"): POSTs of one client (by address; see
  ``TRUSTED_PROXIES`` behind a reverse proxy) to all pages together. A deal form's live
  preview does not count: it writes nothing, and a phone asks for one at every tap.
- ``IMPORT_LIMIT`` (default "20 per minute"): game files one client uploads.
- ``PASSCODE_LIMIT_CLIENT`` (default "5 per minute; 20 per hour") and
  ``PASSCODE_LIMIT_GROUP`` (default "30 per hour"): wrong passcodes from one client, and
  for one group from all clients together (views/groups.py): a 4-digit passcode would
  take weeks to guess.

Going over a limit answers 429 with the app's error page (views.init_app) and writes
nothing: the limit is checked before the view runs.
"""

from __future__ import annotations

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

#: Writes that a limit does not count: answers computed for a page, nothing stored
NOT_WRITES = frozenset({"deals.preview"})


def _disabled() -> bool:
    return not current_app.config.get("RATELIMIT_ENABLED", True)


def _write_limit() -> str:
    return str(current_app.config["WRITE_LIMIT"])


def import_limit() -> str:
    """The import limit of the current app (for ``@limiter.limit(import_limit)``)."""
    return str(current_app.config["IMPORT_LIMIT"])


def passcode_limit_client() -> str:
    return str(current_app.config["PASSCODE_LIMIT_CLIENT"])


def passcode_limit_group() -> str:
    return str(current_app.config["PASSCODE_LIMIT_GROUP"])


def _app_key() -> str:
    # the app's database first: counts of one app (a test's) are not another's
    return str(current_app.config["DATABASE"])


def client_key() -> str:
    """A client (its address) of this app."""
    return f"{_app_key()}|client|{get_remote_address()}"


def group_key() -> str:
    """The group whose link this phone opened, of this app."""
    from .views.groups import current

    access = current()
    return f"{_app_key()}|group|{access.group.id if access else None}"


def _not_a_write() -> bool:
    return request.method != "POST" or request.endpoint in NOT_WRITES


limiter = Limiter(
    key_func=get_remote_address,
    # One budget per client for every write together (not per page)
    application_limits=[_write_limit],
    application_limits_exempt_when=_not_a_write,
    storage_uri="memory://",
    strategy="moving-window",  # no burst of twice the limit around a minute's turn
)
limiter.request_filter(_disabled)


def init_app(app: Flask) -> None:
    """Defaults for the limits' config keys, then the limiter on ``app``. Flask-Limiter's
    own RATELIMIT_ENABLED flag belongs to the one limiter of the process, not to an app
    (the last app made would turn it off or on for all): it stays on, and each app's
    ``RATELIMIT_ENABLED`` is read on each request (``_disabled``)."""
    app.config.setdefault("RATELIMIT_ENABLED", True)
    app.config.setdefault("WRITE_LIMIT", "120 per minute")
    app.config.setdefault("IMPORT_LIMIT", "20 per minute")
    app.config.setdefault("PASSCODE_LIMIT_CLIENT", "5 per minute; 20 per hour")
    app.config.setdefault("PASSCODE_LIMIT_GROUP", "30 per hour")
    enabled = app.config["RATELIMIT_ENABLED"]
    app.config["RATELIMIT_ENABLED"] = True
    try:
        limiter.init_app(app)
    finally:
        app.config["RATELIMIT_ENABLED"] = enabled
