"""Limits that keep one client from slowing down everyone (issue 9): requests per client
per minute on writes and on imports, through Flask-Limiter. Its counts are kept where
``RATELIMIT_STORAGE_URI`` says: in the server's memory by default (``memory://``: they
start afresh when it restarts); ``scorekeeper serve`` with more than one worker process
keeps them in a SQLite file beside the database (``sqlite:///<database>-limits``,
limit_storage.py), so that every worker counts every request of a client together.

``limiter`` is the one Flask-Limiter of the app. A view adds its own limit with
``@limiter.limit(...)``; a limit given as a function of no arguments is read on each
request, so each app's config counts (tests make many apps in one process). Config keys:

- ``RATELIMIT_ENABLED`` (default True): False turns every limit off for that app.
- ``LIMITS_SHARED`` (default False; ``scorekeeper serve`` sets it with more than one
  worker): the counts in the file :func:`shared_storage` names, unless
  ``RATELIMIT_STORAGE_URI`` says otherwise.
- ``RATELIMIT_STORAGE_URI`` (default "memory://"): where the write and import limits
  are counted (Flask-Limiter's own key): any storage of the ``limits`` library, e.g.
  "sqlite:///path/to/file" (limit_storage.py) or "redis://host:6379".
- ``WRITE_LIMIT`` (default "120 per minute"): POSTs of one client (:func:`client`: by
  address, see ``TRUSTED_PROXIES`` behind a reverse proxy, and by the link the phone came
  in with) to all pages together. A deal form's live
  preview does not count: it writes nothing, and a phone asks for one at every tap.
- ``IMPORT_LIMIT`` (default "20 per minute"): game files one client uploads.
- ``PASSCODE_LIMIT_PHONE`` (default "5 per minute; 20 per hour"), ``PASSCODE_LIMIT_CLIENT``
  (default "15 per minute; 60 per hour") and ``PASSCODE_LIMIT_GROUP`` (default "30 per
  hour"): wrong passcodes from one phone (its session), from one address (looser: a
  café's Wi-Fi is one address), and for one group from everyone together. These are
  not Flask-Limiter's: they are counted exactly in the database (attempts.py says why);
  :func:`passcode_limits` reads them. Wrong one-time codes count against the same phone
  and address limits, separately, and never against a group; so do the addresses of a
  club night's table cards that do not work (``/t/<token>``, attempts.count_wrong_card).

Going over a write or import limit answers 429 with the app's error page
(views.init_app) and writes nothing: the limit is checked before the view runs.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os

from flask import Flask, current_app, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.errors import ConfigurationError

from . import limit_storage  # noqa: F401  # registers the sqlite:// storage with limits
from .attempts import Limit, Limits
from .settings import SettingError, switch

#: Writes that a limit does not count: answers computed for a page, nothing stored
NOT_WRITES = frozenset({"deals.preview"})


def _disabled() -> bool:
    return not current_app.config.get("RATELIMIT_ENABLED", True)


def _write_limit() -> str:
    return str(current_app.config["WRITE_LIMIT"])


def import_limit() -> str:
    """The import limit of the current app (for ``@limiter.limit(import_limit)``)."""
    return str(current_app.config["IMPORT_LIMIT"])


def _windows(key: str) -> tuple[Limit, ...]:
    return tuple((item.amount, float(item.get_expiry())) for item in parse_many(str(current_app.config[key])))


def passcode_limits() -> Limits:
    """The current app's limits on wrong passcodes and codes (none when
    ``RATELIMIT_ENABLED`` is off); raises ValueError for a config value that is no limit."""
    if _disabled():
        return Limits()
    return Limits(phone=_windows("PASSCODE_LIMIT_PHONE"), address=_windows("PASSCODE_LIMIT_CLIENT"),
                  group=_windows("PASSCODE_LIMIT_GROUP"))


def address() -> str:
    """The client's address as every limit counts it (the passcode limits and the write
    and import limits; behind ``TRUSTED_PROXIES``, the proxy's client): an IPv6 address
    by its /64, since one home or phone is given a whole /64 and could otherwise take a
    new address for each guess or each write (tester 40: the write limit counted each);
    without the port a proxy may write with it ("10.0.0.1:40000", "[2001:db8::1]:443":
    tester 52, each connection counted as a new address)."""
    found = _without_port(get_remote_address())
    try:
        ip = ipaddress.ip_address(found)
    except ValueError:
        return found
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _without_port(found: str) -> str:
    """``found`` without a port written after it: "10.0.0.1:40000" → "10.0.0.1",
    "[2001:db8::1]:443" → "2001:db8::1"; anything else as it is."""
    if found.startswith("[") and "]" in found:
        return found[1:found.index("]")]
    host, colon, port = found.rpartition(":")
    return host if colon and port.isdigit() and "." in host and ":" not in host else found


def client() -> str:
    """Whom the write and import limits count together: the client's address
    (:func:`address`) and, for a phone that came in with a link (a group's play or
    read-only link, a club night's table card: its session's), that link. The groups on
    one venue's Wi-Fi (one address behind its router, or behind a proxy) each have their
    own budget, and each table card of a club night too (tester 44: one group's saves had
    left another group at the same club with "Please wait a minute"); a phone in no group
    (the welcome page, starting a group) counts by its address alone."""
    link = session.get("link")
    if isinstance(link, str) and link:
        return f"{address()} {hashlib.sha256(link.encode()).hexdigest()[:16]}"
    return address()


def _not_a_write() -> bool:
    return request.method != "POST" or request.endpoint in NOT_WRITES


limiter = Limiter(
    key_func=client,
    # One budget per client for every write together (not per page)
    application_limits=[_write_limit],
    application_limits_exempt_when=_not_a_write,
    strategy="moving-window",  # no burst of twice the limit around a minute's turn
)
limiter.request_filter(_disabled)


def shared_storage(database: str) -> str:
    """The storage of the counts that every worker process serving the database file
    ``database`` shares: ``sqlite:///<database>-limits`` (limit_storage.py); the memory
    of the process for an in-memory database (it has one process)."""
    if database == ":memory:" or database.startswith("file:"):
        return "memory://"
    return f"sqlite://{os.path.abspath(database)}-limits"


def init_app(app: Flask) -> None:
    """Defaults for the limits' config keys, then the limiter on ``app``. Flask-Limiter's
    own RATELIMIT_ENABLED flag belongs to the one limiter of the process, not to an app
    (the last app made would turn it off or on for all): it stays on, and each app's
    ``RATELIMIT_ENABLED`` is read on each request (``_disabled``)."""
    app.config["RATELIMIT_ENABLED"] = switch("RATELIMIT_ENABLED", app.config.get("RATELIMIT_ENABLED", True))
    if not app.config.get("RATELIMIT_STORAGE_URI"):
        app.config["RATELIMIT_STORAGE_URI"] = shared_storage(app.config["DATABASE"]) \
            if app.config.get("LIMITS_SHARED") else "memory://"
    app.config.setdefault("WRITE_LIMIT", "120 per minute")
    app.config.setdefault("IMPORT_LIMIT", "20 per minute")
    app.config.setdefault("PASSCODE_LIMIT_PHONE", "5 per minute; 20 per hour")
    app.config.setdefault("PASSCODE_LIMIT_CLIENT", "15 per minute; 60 per hour")
    app.config.setdefault("PASSCODE_LIMIT_GROUP", "30 per hour")
    for key in ("WRITE_LIMIT", "IMPORT_LIMIT", "PASSCODE_LIMIT_PHONE", "PASSCODE_LIMIT_CLIENT",
                "PASSCODE_LIMIT_GROUP"):
        try:  # a typo in the config stops the start, not the first phone that needs the limit
            windows = parse_many(str(app.config[key]))
        except ValueError as error:
            raise SettingError(f"{key} = {app.config[key]!r} is no limit (e.g. '5 per minute; 20 per hour'): "
                               f"{error}") from None
        if any(window.amount < 1 for window in windows):  # "0 per minute": every request refused
            raise SettingError(f"{key} = {app.config[key]!r} lets nothing through: a limit is 1 or more "
                               f"(e.g. '5 per minute'); RATELIMIT_ENABLED=false turns the limits off")
    enabled = app.config["RATELIMIT_ENABLED"]
    app.config["RATELIMIT_ENABLED"] = True
    storage = app.config["RATELIMIT_STORAGE_URI"]
    try:
        if not isinstance(storage, str):
            raise TypeError("not text")
        limiter.init_app(app)
    except (ConfigurationError, TypeError, AttributeError, ValueError) as error:  # a storage no library knows
        raise SettingError(f"RATELIMIT_STORAGE_URI = {storage!r} is no storage of the limits library "
                           f"(e.g. 'redis://localhost:6379'): {error}") from None
    finally:
        app.config["RATELIMIT_ENABLED"] = enabled
