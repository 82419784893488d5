"""The app factory (:func:`create_app`): the Flask app with its database, languages,
limits and pages wired together; the top of the layers (README: architecture), which
nothing in the package imports but the ``scorekeeper`` command (cli.py)."""

from __future__ import annotations

import logging
import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, abort, request
from flask.sessions import SecureCookieSessionInterface
from flask_compress import Compress
from itsdangerous import URLSafeTimedSerializer
from werkzeug.middleware.proxy_fix import ProxyFix

from . import access, db, gamefile, i18n, limits, network, views
from .assets import asset_version
from .db import owner_only
from .settings import SettingError, one_of, shown_value, text, whole_number
from .views.live import quick_polls

_PACKAGE = Path(__file__).resolve().parent
_PROJECT = _PACKAGE.parent


def _asset_folder(name: str) -> str:
    """templates/ and static/ ship inside the wheel (scorekeeper/templates, …); in a
    source checkout they sit beside the package. Prefer the package copy."""
    packaged = _PACKAGE / name
    return str(packaged if packaged.is_dir() else _PROJECT / name)


#: Where a request's unusable Host header is kept (_Scorekeeper.create_url_adapter)
UNUSABLE_HOST = "scorekeeper.unusable_host"

#: Shorter than this, a secret key file is taken for broken (a new one is 64 hex digits)
_MIN_SECRET_KEY = 32


def _secret_key(instance_path: str, logger: logging.Logger) -> str:
    """The instance folder's secret key, generated on first use and kept there, readable
    by its owner only. A file that holds no usable key (empty, cut short, not text) is
    replaced with a new key and a warning: the phones' sessions start afresh, rather than
    every form failing."""
    path = Path(instance_path) / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    owner_only(path)
    try:
        key = path.read_text(encoding="utf-8").strip()
    except (UnicodeDecodeError, IsADirectoryError):
        key = ""
    if len(key) >= _MIN_SECRET_KEY:
        return key
    logger.warning("The secret key file %s held no usable key (%s); it now holds a new one. Phones "
                   "signed in with the old key start a new session.", path,
                   "empty" if not key else "too short or not text")
    fresh = path.with_name(f"secret_key.{secrets.token_hex(4)}.new")
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32))
    os.replace(fresh, path)  # whole or not at all; two servers starting at once read the same winner
    return path.read_text(encoding="utf-8").strip()


class _Scorekeeper(Flask):
    """Flask, with static files under versioned URLs cached for a year, immutable, and a
    Host header no address can be made of set aside before routing."""

    def create_url_adapter(self, request: Any) -> Any:
        # A Host no link can be written with (network.usable_host: a label over 63
        # characters, "a..b", "xn--zz") would leave Flask without a URL adapter, so even the
        # error page (its url_for) failed as a bare server error. It is set aside under
        # UNUSABLE_HOST and the URL map bound to "invalid" instead (RFC 6761: a name that
        # is never an address; nothing is linked with it, as the request answers 400 with
        # the app's error page before any view runs: _secure's refuse_unusable_host).
        # Behind TRUSTED_PROXIES this is the forwarded host: ProxyFix ran first and gave
        # it to SERVER_NAME too, so the server's own name cannot stand in.
        if request is not None:
            environ = request.environ
            if "HTTP_HOST" in environ and not network.usable_host(environ["HTTP_HOST"]):
                environ[UNUSABLE_HOST] = environ["HTTP_HOST"]
                environ["HTTP_HOST"] = "invalid"
        return super().create_url_adapter(request)

    def _versioned(self) -> bool:
        """Whether the request's static URL carries the app's fingerprint (?v=, see
        assets.asset_version): its content then never changes."""
        return request.args.get("v") == asset_version(self)

    def get_send_file_max_age(self, filename: str | None) -> int | None:
        # A versioned static file: a phone keeps it a year and asks no more (one request a
        # page on a repeat visit). Anything else is asked again each time.
        if self._versioned():
            return 365 * 24 * 3600
        return super().get_send_file_max_age(filename)

    def send_static_file(self, filename: str) -> Any:
        # Read whole (static files are a few KB): Flask-Compress then compresses it. The
        # file is closed at once, not when the response is: a server may never close a
        # response whose phone hung up (werkzeug's own server skips it when reading the
        # rest of a reset connection fails), and a file left to the garbage collector
        # warns.
        response = super().send_static_file(filename)
        opened = response.response
        response.direct_passthrough = False
        try:
            response.make_sequence()
        finally:
            if hasattr(opened, "close"):
                opened.close()
        if response.status_code == 200 and self._versioned():
            # immutable: the browser does not even ask whether it changed (set here, not in
            # an after_request hook that every other request would pass through)
            response.cache_control.public = True
            response.cache_control.immutable = True
        return response


class _Sessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, with their signing serializer made once per secret
    key rather than twice a request (making it cost about as much as the rest of opening
    and saving a phone's session on a 304 of the score sheet), and a request without
    cookies given its empty session straight away."""

    _made: tuple[tuple[Any, ...], URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, *(app.config["SECRET_KEY_FALLBACKS"] or ()))
        made = self._made
        if made is None or made[0] != keys:
            made = self._made = (keys, super().get_signing_serializer(app))
        return made[1]

    def get_cookie_secure(self, app: Flask) -> bool:
        # Secure when the page came over HTTPS (behind a proxy: see TRUSTED_PROXIES), so a
        # phone on plain http://192.168.… at the table still keeps its session
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def open_session(self, app: Flask, request: Any) -> Any:
        # No Cookie header, no session cookie: an empty session, without parsing cookies
        # (a phone that never opened a form sends none)
        if "HTTP_COOKIE" not in request.environ and self.get_signing_serializer(app) is not None:
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: Any, response: Any) -> None:
        # Another site's form (a POST without the phone's cookie, SameSite=Lax, and without
        # its form token) is answered without a cookie, whatever the page put in its
        # session: a cookie set or deleted in that answer would replace the phone's own,
        # its group with it (tester 44: a one-time code or a table card posted from
        # elsewhere signed the phone out). A phone's own first form comes with the cookie
        # its page gave it.
        if request.method not in ("GET", "HEAD", "OPTIONS") and "HTTP_COOKIE" not in request.environ \
                and not access.token_given():
            return
        super().save_session(app, session, response)


#: Content-Security-Policy of every response. Scripts only from this server's files
#: (static/app.js, /sw.js): no inline script, no eval, nothing from elsewhere. Styles
#: inline too: pygal writes a <style> and style="" into each chart's SVG inline in the page
#: (charts.py), and the score sheet is kept whole per version, so a per-response nonce
#: would not fit it. No page may be framed (clickjacking); forms post only here.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    # A game's address is all it takes to open it: never tell another site
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def trusted_proxies(app: Flask) -> int:
    """The app's TRUSTED_PROXIES: how many reverse proxies stand in front of it (0: none,
    the default). Raises SettingError (a ValueError) for anything but a whole number from 0 up, so a typo
    stops the start-up rather than trusting a client's X-Forwarded-* headers."""
    value = app.config.get("TRUSTED_PROXIES") or 0
    return whole_number("TRUSTED_PROXIES", value, least=0,
                        says=f"TRUSTED_PROXIES must be a whole number of proxies (0, 1, 2 …), not {shown_value(value)}")


def _secure(app: Flask) -> None:
    """Security headers on every response (issue 9): a few lines rather than
    Flask-Talisman, whose session cookie is Secure always or never (phones at the table
    use plain http://192.168.…; a group on the internet, HTTPS) and which would redirect
    every http request to https. Behind TRUSTED_PROXIES reverse proxies (config, default
    0), ProxyFix takes the client's address, scheme and host from their X-Forwarded-For,
    -Proto and -Host headers, so cookies are Secure over HTTPS, links and QR codes carry
    the public https:// address, and limits count each client. ProxyFix is the one reader
    of those headers, under any WSGI server: ``scorekeeper serve`` has waitress pass them
    on (cli.serve says why). A request whose Host no link can be made of answers 400
    here, before anything else runs (_Scorekeeper.create_url_adapter)."""

    def refuse_unusable_host() -> None:
        if UNUSABLE_HOST in request.environ:
            abort(400)

    app.before_request_funcs.setdefault(None, []).insert(0, refuse_unusable_host)
    proxies = trusted_proxies(app)
    if proxies > 0:
        # Only the three headers Caddy sets and the README's nginx lines set, replacing a
        # client's: X-Forwarded-Port and -Prefix would pass through from the client as sent
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]
    headers = list(SECURITY_HEADERS.items())

    @app.after_request
    def security_headers(response: Any) -> Any:
        response.headers.extend(headers)
        if request.is_secure:  # a browser that came over HTTPS keeps to it
            response.headers["Strict-Transport-Security"] = "max-age=31536000"
        return response


def _check_settings(app: Flask) -> None:
    """The settings this app reads, each as what it means (settings.py), so that a typo
    stops the start in one line (tester 17: a SECRET_KEY the environment read as a number,
    an empty DATABASE, MAX_CONTENT_LENGTH=abc started a server whose pages all failed)."""
    config = app.config
    if isinstance(config.get("DATABASE"), os.PathLike):
        config["DATABASE"] = os.fspath(config["DATABASE"])
    config["DATABASE"] = text("DATABASE", config.get("DATABASE"), "database file")
    public = config.get("PUBLIC_URL")
    if public and not network.phone_address(str(public).strip()):
        # printed as the address phones open and written into every QR code (tester 19:
        # "javascript:alert(1)" was)
        raise SettingError(f"PUBLIC_URL = {shown_value(public)} is not an address phones can open, "
                           "like http://192.168.1.20:5000")
    if config.get("SECRET_KEY") is not None and not isinstance(config["SECRET_KEY"], bytes):
        config["SECRET_KEY"] = text("SECRET_KEY", config["SECRET_KEY"], "key")
    for name in ("GAME_FILE_MAX_BYTES", "GAME_FILE_MAX_DEALS", "GROUP_FILE_MAX_BYTES", "GROUP_FILE_MAX_GAMES",
                 "MAX_CONTENT_LENGTH"):
        config[name] = whole_number(name, config[name])
    lifetime = config["PERMANENT_SESSION_LIFETIME"]
    if not isinstance(lifetime, timedelta):
        config["PERMANENT_SESSION_LIFETIME"] = whole_number("PERMANENT_SESSION_LIFETIME", lifetime)
    config["SESSION_COOKIE_SAMESITE"] = one_of("SESSION_COOKIE_SAMESITE", config["SESSION_COOKIE_SAMESITE"],
                                               ("Lax", "Strict", "None", None))


def create_app(test_config: dict[str, Any] | None = None, instance_path: str | None = None) -> Flask:
    """Build the app: defaults, then instance/config.py, then SCOREKEEPER_* environment
    variables (Flask's from_prefixed_env), then ``test_config``.

    Config keys: DATABASE (the SQLite file, default instance/scorekeeper.sqlite3),
    SECRET_KEY (generated into instance/secret_key when not configured), PUBLIC_URL (the
    address phones open, "http://192.168.1.20:5000"; set by ``scorekeeper serve``),
    TRUSTED_PROXIES (reverse proxies in front of the app, default 0: see README),
    GAME_FILE_MAX_BYTES, GAME_FILE_MAX_DEALS and GROUP_FILE_MAX_BYTES (what an import
    takes, gamefile.py; a page upload is bounded by MAX_CONTENT_LENGTH too, and a group
    file uploaded by GROUP_FILE_MAX_GAMES),
    RATELIMIT_ENABLED, WRITE_LIMIT, IMPORT_LIMIT (limits.py), QUICK_POLLS (default True:
    unchanged polls answered before Flask's request work, views/live.QuickPolls).
    """
    app = _Scorekeeper(
        "scorekeeper",  # the package: the app's name, logger and root folder as ever
        instance_relative_config=True,
        instance_path=instance_path or os.environ.get("SCOREKEEPER_INSTANCE_PATH") or None,
        template_folder=_asset_folder("templates"),
        static_folder=_asset_folder("static"),
    )
    app.session_interface = _Sessions()
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "scorekeeper.sqlite3"),
        SECRET_KEY=None,
        WTF_CSRF_TIME_LIMIT=None,  # a game evening is long; the token lives with the session
        BABEL_DEFAULT_LOCALE="en",
        MAX_CONTENT_LENGTH=1024 * 1024,
        # The session holds the group's link (access.py): remembered on the phone
        # for as long as browsers keep a cookie (400 days), its date renewed whenever the
        # session changes (each deal saved), not re-signed on every request
        PERMANENT_SESSION_LIFETIME=400 * 24 * 3600,
        SESSION_REFRESH_EACH_REQUEST=False,
        SESSION_COOKIE_SAMESITE="Lax",  # HttpOnly is Flask's default; Secure over HTTPS (_Sessions)
        TRUSTED_PROXIES=0,
        GAME_FILE_MAX_BYTES=gamefile.MAX_BYTES,
        GAME_FILE_MAX_DEALS=gamefile.MAX_DEALS,
        GROUP_FILE_MAX_BYTES=gamefile.MAX_GROUP_BYTES,
        GROUP_FILE_MAX_GAMES=gamefile.MAX_UPLOAD_GAMES,
    )
    try:
        app.config.from_pyfile("config.py", silent=True)
    except Exception as error:  # a typo in the file: one line naming it, not Python's traceback
        raise SettingError(f"{Path(app.instance_path) / 'config.py'} cannot be read: "
                           f"{type(error).__name__}: {error}") from None
    app.config.from_prefixed_env("SCOREKEEPER")
    if test_config is not None:
        app.config.from_mapping(test_config)
    _check_settings(app)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path, app.logger)
    elif len(app.config["SECRET_KEY"]) < _MIN_SECRET_KEY and not app.testing:
        # A short key can be found from one session cookie a phone was given (tried
        # offline), and with it a session into any group signed (tester 19: "123456")
        app.logger.warning("SECRET_KEY is %d characters long: a key that short can be guessed, and with it anyone "
                           "could sign themselves into every group. Use %d or more random characters (python3 -c "
                           "'import secrets; print(secrets.token_hex(32))'), or leave it unset: the app then keeps "
                           "its own in %s.", len(app.config["SECRET_KEY"]), _MIN_SECRET_KEY,
                           Path(app.instance_path) / "secret_key")

    quick_polls(app, SECURITY_HEADERS.items())  # inside ProxyFix (_secure): it sees the client's scheme
    _secure(app)
    limits.init_app(app)
    i18n.init_app(app)
    db.init_app(app)
    views.init_app(app)
    # Every text response compressed when the browser accepts it (gzip, Brotli, zstd)
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/plain", "text/csv", "text/javascript", "application/javascript",
        "application/json", "application/manifest+json", "image/svg+xml"])
    app.extensions["compress"] = Compress(app)  # kept pages' compressed bodies: its own cache (views/kept.py)
    return app
