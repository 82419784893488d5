"""The language switch at the foot of every page (base.html): a link per language, in its
own name, that keeps the choice on this phone (the ``lang`` cookie, read by
i18n.language before Accept-Language) and brings the phone back to the page it was on.
Below it, on the pages of a language whose usual digits are not 0–9 (Arabic: ٠–٩), the
digits switch: the language's digits or Western digits 0–9, kept likewise (the ``digits``
cookie, read by locale_numbers.digits).

Plain links and a redirect, no script: it works on every page, with a group's link or
without (the welcome page), on a read-only link too, since it changes nothing stored.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, redirect, request, url_for

from .. import i18n, locale_numbers
from ..i18n import lazy_gettext as _l
from .common import no_such_page

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
        abort(404, description=no_such_page())
    response = redirect(_local(request.args.get("next")), 303)
    response.set_cookie(i18n.COOKIE, code, max_age=KEPT, path="/", samesite="Lax", httponly=True,
                        secure=request.is_secure)
    response.cache_control.no_store = True
    return response


#: The digits switch's words for each numbering system, with its digits from 0 to 9
DIGITS_NAMES = {"latn": _l("Western digits (%(digits)s)"), "arab": _l("Arabic-Indic digits (%(digits)s)")}

#: The digits switch's address for the language's own digits (``locale_numbers.WESTERN``, "latn",
#: for 0–9)
USUAL = "usual"


@bp.get("/digits/<system>")
def choose_digits(system: str) -> Any:
    """Keep Western digits 0–9 on this phone (``system`` "latn"), or go back to the
    language's usual digits ("usual": the cookie is dropped), and go back to ``next`` as
    :func:`choose` does. 404 for anything else. Changes nothing stored: the game file and
    the CSV keep 0–9 whatever the choice."""
    if system not in (locale_numbers.WESTERN, USUAL):
        abort(404, description=no_such_page())
    response = redirect(_local(request.args.get("next")), 303)
    if system == locale_numbers.WESTERN:
        response.set_cookie(locale_numbers.COOKIE, system, max_age=KEPT, path="/", samesite="Lax", httponly=True,
                            secure=request.is_secure)
    else:
        response.delete_cookie(locale_numbers.COOKIE, path="/", samesite="Lax", httponly=True, secure=request.is_secure)
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


def switch() -> list[dict[str, Any]]:
    """The switch's links: ``code``, ``name`` (in its own language), its ``dir``,
    ``href``, and ``current`` for the page's language."""
    back = here()
    current = i18n.language()
    return [{"code": code, "name": i18n.LANGUAGE_NAMES[code], "current": code == current,
             "dir": "rtl" if code in i18n.RTL_LANGUAGES else "ltr",
             "href": url_for("languages.choose", code=code, next=back)} for code in i18n.LANGUAGES]


def digits_switch() -> list[dict[str, Any]]:
    """The digits switch's two links (the language's usual digits, then 0–9), each with
    its ``name`` (its digits shown in themselves: "Arabic-Indic digits (٠–٩)"), ``href``
    and ``current``; none on the pages of a language that writes 0–9 (locale_numbers.offered)."""
    if not locale_numbers.offered():
        return []
    back = here()
    current = locale_numbers.digits()
    usual = locale_numbers.usual(i18n.language())
    return [{"name": DIGITS_NAMES[system] % {"digits": locale_numbers.sample(system)}, "current": system == current,
             "href": url_for("languages.choose_digits", system=USUAL if system == usual else system, next=back)}
            for system in (usual, locale_numbers.WESTERN)]


def init_app(app: Any) -> None:
    app.jinja_env.globals["language_switch"] = switch
    app.jinja_env.globals["digits_switch"] = digits_switch
