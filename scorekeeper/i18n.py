"""Translations: Flask-Babel for templates and views, plugged into the rules' _() too.

English only for now; German, Finnish and Arabic (right to left) are to come, so every
user-facing string goes through gettext and layouts use logical CSS properties.
"""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel, gettext

from .rules import common

LANGUAGES = ("en",)


def _locale() -> str | None:
    return request.accept_languages.best_match(LANGUAGES) or "en"


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=_locale)
    common.set_translator(gettext)
    app.context_processor(template_context)


RTL_LANGUAGES = ("ar", "he", "fa", "ur")


def template_context() -> dict[str, str]:
    """``lang`` and ``text_direction`` for <html>: Arabic (to come) reads right to left."""
    from flask_babel import get_locale

    lang = str(get_locale() or "en")
    return {"lang": lang, "text_direction": "rtl" if lang.split("_")[0] in RTL_LANGUAGES else "ltr"}
