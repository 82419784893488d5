"""Translations: Flask-Babel for templates and views, plugged into the rules' _() too.

English, German, Finnish and Arabic (right to left; layouts use logical CSS properties).
A page's language is the phone's own choice (the language switch at the foot of every
page, views/languages.py, kept in the ``lang`` cookie), else the one its Accept-Language
asks for most. What is stored (games, the database, a game file) is the same in every
language.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from babel import Locale
from flask import Flask, Response, g, has_app_context, has_request_context, request
from flask_babel import Babel, get_translations
from flask_babel.speaklater import LazyString
from jinja2 import pass_context
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from . import locale_numbers
from .locale_numbers import digits, number
from .rules import common

LANGUAGES = ("en", "de", "fi", "ar")

#: Each language in its own name, as the language switch offers it (a reader looks for
#: the name of their own language, not its name in the page's)
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fi": "Suomi", "ar": "العربية"}

#: The cookie that keeps a phone's choice of language (views/languages.py)
COOKIE = "lang"

#: Endpoints whose answer is the same in every language: no Content-Language, no Vary on
#: the language (a game file, the versions polled by the pages, static files, sw.js)
NEUTRAL = frozenset({"static", "offline.service_worker", "live.everything", "games.download"})


def _locale() -> Locale:
    """The request's locale (Flask-Babel's locale selector): see :func:`language`."""
    return _parsed(language())


def language() -> str:
    """The request's language, a code of LANGUAGES ("en"): the one chosen on this phone
    (the ``lang`` cookie), else the one its Accept-Language asks for most, English when
    none. Pages are drawn in it (it is Flask-Babel's locale), so it is part of a kept
    page's key and ETag."""
    chosen = request.cookies.get(COOKIE) if "HTTP_COOKIE" in request.environ else None
    return language_of(chosen, request.headers.get("Accept-Language", ""))


def language_of(chosen: str | None, accept_language: str) -> str:
    """:func:`language` from its two sources, without a request: ``chosen`` the ``lang``
    cookie's value (None: none), ``accept_language`` the header ("" when not sent). The
    quick answers to polls (views/live.py) work it out from the WSGI environ."""
    if chosen in LANGUAGES:
        return chosen
    return _best_language(accept_language, LANGUAGES)


# the page's numbers are written in the page's language, worked out as above
locale_numbers.use_language(language)


# A phone sends the same Accept-Language with every request: parsing it and the locale
# each time cost more than the rest of a 304 of the score sheet.
@lru_cache(maxsize=256)
def _best_language(accept_language: str, languages: tuple[str, ...]) -> str:
    return parse_accept_header(accept_language, LanguageAccept).best_match(languages) or "en"


@lru_cache(maxsize=16)
def _parsed(language: str) -> Locale:
    return Locale.parse(language)


def _catalog() -> Any:
    """The request's translations (Flask-Babel's), looked up once per request: a score
    sheet asks for a few hundred strings, and Flask-Babel's own gettext finds the catalogue
    again for each one."""
    catalog = g.get("_catalog")
    if catalog is None:
        catalog = g._catalog = get_translations()
    return catalog


#: The request's catalogue lookup, bound by the request's first string (a 304 asks for
#: none, and finding the catalogue is a good part of its cost) and unbound when the request
#: ends (see init_app): the rules ask for a few strings a deal, so each lookup after the
#: first must cost next to nothing.
_lookup: ContextVar[Callable[[str], str] | None] = ContextVar("scorekeeper_lookup", default=None)


def written(variables: dict[str, Any]) -> dict[str, Any]:
    """``variables`` of a message with each whole number (int, not bool) written as the
    page writes numbers (locale_numbers.number: the reader's digits, a true minus sign)."""
    return {key: number(value) if type(value) is int else value for key, value in variables.items()}


def gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's gettext, with the catalogue found once per request; ``%(name)s``
    placeholders are filled from ``variables``, whole numbers in the page's digits
    (:func:`written`). Outside the app (the command line's ``score``) the string is
    returned as it is."""
    lookup = _lookup.get()
    if lookup is None:
        if not has_app_context():
            return string % variables if variables else string
        lookup = _catalog().ugettext
        if has_request_context():  # unbound by the request's teardown, never left behind
            _lookup.set(lookup)
    text = lookup(string)
    return text % written(variables) if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Flask-Babel's ngettext, likewise; ``%(num)s`` is the number, in the page's digits."""
    variables.setdefault("num", num)
    if not has_app_context():
        return (singular if num == 1 else plural) % variables
    return _catalog().ungettext(singular, plural, num) % written(variables)


def lazy_gettext(string: str, **variables: Any) -> LazyString:
    """Flask-Babel's lazy_gettext through :func:`gettext`: translated, and its numbers
    written, when the page shows it (a form's label, made once at import)."""
    return LazyString(gettext, string, **variables)


def _plural(singular: str, plural: str, count: int) -> str:
    """ngettext for the rules' _n: the catalogue's form for ``count`` (outside the app,
    the English one), placeholders left for the caller."""
    if not has_app_context():
        return singular if count == 1 else plural
    return _catalog().ungettext(singular, plural, count)


def _in_context(context: str, message: str) -> str:
    """pgettext for the rules' _p: ``message`` in the sense ``context`` names, from the
    request's catalogue (outside the app, as it is)."""
    if not has_app_context():
        return message
    return _catalog().upgettext(context, message)


def _plural_in_context(context: str, singular: str, plural: str, count: int) -> str:
    """npgettext for the rules' _np: the catalogue's form for ``count`` in the sense
    ``context`` names (outside the app, the English one), placeholders left."""
    if not has_app_context():
        return singular if count == 1 else plural
    return _catalog().unpgettext(context, singular, plural, count)


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=_locale)
    common.set_translator(gettext, _plural, _in_context, _plural_in_context)

    @app.teardown_request
    def unbind_catalogue(_exc: BaseException | None = None) -> None:
        _lookup.set(None)

    # templates: the same catalogue, found once (Jinja's i18n extension fills the
    # placeholders itself, escaping them)
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
        lambda string: _catalog().ugettext(string),
        lambda singular, plural, num: _catalog().ungettext(singular, plural, num), newstyle=True,
        pgettext=lambda context, string: _catalog().upgettext(context, string),
        npgettext=lambda context, singular, plural, num: _catalog().unpgettext(context, singular, plural, num))
    _write_numbers_in_templates(app)
    app.context_processor(template_context)
    app.after_request(_language_headers)


def _write_numbers_in_templates(app: Flask) -> None:
    """Templates' ``_()``, ``gettext`` and ``ngettext`` (Jinja's, as installed) with the
    whole numbers among their variables written in the page's digits (:func:`written`):
    ``_("Deal %(n)s", n=3)`` reads "التوزيعة ٣"; ngettext still chooses its plural form by
    the int."""
    env = app.jinja_env
    # Jinja's own, as install_gettext_callables set them (newstyle: context first)
    translate: Callable[..., str] = env.globals["gettext"]  # type: ignore[assignment]
    translate_plural: Callable[..., str] = env.globals["ngettext"]  # type: ignore[assignment]

    @pass_context
    def template_gettext(context: Any, string: str, **variables: Any) -> str:
        return translate(context, string, **written(variables))

    @pass_context
    def template_ngettext(context: Any, singular: str, plural: str, num: int, **variables: Any) -> str:
        variables.setdefault("num", num)
        return translate_plural(context, singular, plural, num, **written(variables))

    env.globals.update(gettext=template_gettext, _=template_gettext, ngettext=template_ngettext)


def _language_headers(response: Response) -> Response:
    """Content-Language (the page's language) on every answer drawn in a language, and
    Vary: Accept-Language, Cookie (what chooses it), so that no cache hands one
    language's page to a phone asking for another. Redirects and language-neutral
    answers (:data:`NEUTRAL`) carry neither."""
    if request.endpoint in NEUTRAL or (300 <= response.status_code < 400 and response.status_code != 304):
        return response
    response.vary.update(("Accept-Language", "Cookie"))
    if response.status_code != 304 and "Content-Language" not in response.headers:
        response.headers["Content-Language"] = language()
    return response


RTL_LANGUAGES = ("ar", "he", "fa", "ur")


def right_to_left() -> bool:
    """Whether the request's page reads right to left (Arabic); False outside a request
    (the command line)."""
    return has_request_context() and language().split("_")[0] in RTL_LANGUAGES


def template_context() -> dict[str, str]:
    """``lang``, ``text_direction`` and ``digits`` for <html>: Arabic reads right to left;
    ``digits`` is the CLDR numbering system of the page's numbers (locale_numbers.digits: "latn",
    "arab"), for static/app.js to write its own numbers and dates in."""
    from flask_babel import get_locale

    lang = str(get_locale() or "en")
    return {"lang": lang, "text_direction": "rtl" if right_to_left() else "ltr",
            "digits": digits()}
