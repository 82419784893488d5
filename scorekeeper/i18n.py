"""Translations: Flask-Babel for templates and views, plugged into the rules' _() too.

English only for now; German, Finnish and Arabic (right to left) are to come, so every
user-facing string goes through gettext and layouts use logical CSS properties.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from flask import Flask, g, has_app_context, request
from flask_babel import Babel, get_translations

from .rules import common

LANGUAGES = ("en",)


def _locale() -> str | None:
    return request.accept_languages.best_match(LANGUAGES) or "en"


def _catalog() -> Any:
    """The request's translations (Flask-Babel's), looked up once per request: a score
    sheet asks for a few hundred strings, and Flask-Babel's own gettext finds the catalogue
    again for each one."""
    catalog = g.get("_catalog")
    if catalog is None:
        catalog = g._catalog = get_translations()
    return catalog


#: The request's catalogue lookup, bound when the request starts (see init_app): the rules
#: ask for a few strings a deal, so each lookup must cost next to nothing.
_lookup: ContextVar[Callable[[str], str] | None] = ContextVar("scorekeeper_lookup", default=None)


def gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's gettext, with the catalogue found once per request; ``%(name)s``
    placeholders are filled from ``variables``. Outside the app (the command line's
    ``score``) the string is returned as it is."""
    lookup = _lookup.get()
    if lookup is not None:
        text = lookup(string)
    else:
        text = _catalog().ugettext(string) if has_app_context() else string
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Flask-Babel's ngettext, likewise; ``%(num)s`` is the number."""
    variables.setdefault("num", num)
    text = _catalog().ungettext(singular, plural, num) if has_app_context() else (singular if num == 1 else plural)
    return text % variables


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=_locale)
    common.set_translator(gettext)

    @app.before_request
    def bind_catalogue() -> None:
        _lookup.set(_catalog().ugettext)

    @app.teardown_request
    def unbind_catalogue(_exc: BaseException | None = None) -> None:
        _lookup.set(None)

    # templates: the same catalogue, found once (Jinja's i18n extension fills the
    # placeholders itself, escaping them)
    app.jinja_env.install_gettext_callables(
        lambda string: _catalog().ugettext(string),
        lambda singular, plural, num: _catalog().ungettext(singular, plural, num), newstyle=True)
    app.context_processor(template_context)


RTL_LANGUAGES = ("ar", "he", "fa", "ur")


def template_context() -> dict[str, str]:
    """``lang`` and ``text_direction`` for <html>: Arabic (to come) reads right to left."""
    from flask_babel import get_locale

    lang = str(get_locale() or "en")
    return {"lang": lang, "text_direction": "rtl" if lang.split("_")[0] in RTL_LANGUAGES else "ltr"}
