"""The language switch at the foot of every page (base.html): a link per language, in its
own name, that keeps the choice on this phone (the ``lang`` cookie, read by
i18n.language before Accept-Language) and brings the phone back to the page it was on.

Plain links and a redirect, no script: it works on every page, with a group's link or
without (the welcome page), on a read-only link too, since it changes nothing stored.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, redirect, request, url_for

from .. import i18n

bp = Blueprint("languages", __name__)

#: How long a phone keeps its choice: as long as browsers keep a cookie (400 days), as
#: the group's link is kept
KEPT = 400 * 24 * 3600


@bp.get("/language/<code>")
def choose(code: str) -> Any:
    """Keep ``code`` (one of i18n.LANGUAGES) as this phone's language and go back to
    ``next`` (a path on this server; the home page for anything else). 404 for a language
    not offered."""
    if code not in i18n.LANGUAGES:
        abort(404)
    response = redirect(_local(request.args.get("next")), 303)
    response.set_cookie(i18n.COOKIE, code, max_age=KEPT, path="/", samesite="Lax", httponly=True,
                        secure=request.is_secure)
    response.cache_control.no_store = True
    return response


def _local(target: str | None) -> str:
    """``target`` when it is a path on this server ("/games/…?…"), else the home page: the
    switch never sends a phone to another site (an open redirect)."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return url_for("games.index")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or any(c in target for c in "\r\n\t"):
        return url_for("games.index")
    return target


def here() -> str:
    """The address the switch brings the phone back to: this page's, or for a form sent
    (a POST re-drawn with its errors) the form's page when it can be opened, else the home
    page."""
    if request.method in ("GET", "HEAD"):
        return request.full_path.removesuffix("?")
    rule = request.url_rule
    if rule is not None and rule.methods and "GET" in rule.methods:
        return request.path
    return url_for("games.index")


def switch() -> list[dict[str, str]]:
    """The switch's links: ``code``, ``name`` (in its own language), its ``dir``,
    ``href``, and ``current`` for the page's language."""
    back = here()
    current = i18n.language()
    return [{"code": code, "name": i18n.LANGUAGE_NAMES[code], "current": code == current,
             "dir": "rtl" if code in i18n.RTL_LANGUAGES else "ltr",
             "href": url_for("languages.choose", code=code, next=back)} for code in i18n.LANGUAGES]


def init_app(app: Any) -> None:
    app.jinja_env.globals["language_switch"] = switch
