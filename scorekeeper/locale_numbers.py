"""Numbers and dates as the page's reader writes them: in the language's usual digits,
with its signs and its way of writing a day.

Every number a player reads on a page or in a message (points, totals, counts, deal and
kingdom numbers, statistics, chart labels) is written here, for the request's language
and digits (:func:`digits`). What is data stays as the game file spells it: the game file,
the CSV, the values of form fields, addresses, ``data-*`` attributes and SVG coordinates
keep Western digits 0–9, and a count is read in any digits (inputs.py).

- **Digits.** The language's usual ones are CLDR's "native" numbering system for it
  (Babel's ``Locale.other_numbering_systems``): Western digits (``latn``) for English,
  German and Finnish, Arabic-Indic digits (``arab``: ٠١٢٣٤٥٦٧٨٩) for Arabic, the default
  of Arabic as written in the Levant and the Gulf, where Trix is played (ar_JO, ar_SY,
  ar_LB, ar_SA, …). A phone may ask for Western digits instead (the ``digits`` cookie,
  views/languages.py), for a table that reads those.
- **Signs.** CLDR's plus and minus signs of the language in those digits (Babel's
  ``get_plus_sign_symbol`` / ``get_minus_sign_symbol``), with their direction marks:
  ALM (U+061C) before a sign of Arabic-Indic digits, LRM (U+200E) before one of Western
  digits in Arabic, so that "+٧٥" and "+75" keep their sign before the number in a
  right-to-left line; a signed number of Western digits in Arabic is moreover a
  left-to-right isolate (U+2066 … U+2069, UAX #9), or two of them in a line ("Anna +80 ·
  Ben +200") would join with what lies between into one left-to-right run. A hyphen-minus becomes the true minus sign U+2212, as the paper
  sheet writes it (Finnish's CLDR minus is U+2212 already): "+75", "−150", "0" in
  English, German and Finnish, exactly as before.
- **No grouping** for points and counts: a score sheet writes 1250, not 1,250 or 1.250.

Babel chooses the numbering system and the symbols, but does not put a number's digits in
that system (python-babel/babel#731, open): the digits come from the Unicode database,
each system's ten digits running from its zero (decimal digits are encoded in runs of ten
from zero; The Unicode Standard, §4.6 Numeric Value).

Days and times are Babel's (CLDR's "yMMMd" and "Hm" in the page's language: "Nov 30, 2026",
"30. Nov. 2026", "30 نوفمبر 2026"), in the page's digits too.

Outside a request (the command line, the rules' own tests) numbers are Western, as
``scorekeeper score`` has always printed them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal, localcontext
from functools import lru_cache

from babel import Locale
from babel.dates import format_skeleton, get_datetime_format
from babel.numbers import get_minus_sign_symbol, get_plus_sign_symbol, parse_pattern
from flask import g, has_request_context, request
from flask_babel import get_locale

from .text import left_to_right

#: The cookie that keeps a phone's choice of Western digits (views/languages.py)
COOKIE = "digits"

#: CLDR's name of the Western digits 0–9, the cookie's one value
WESTERN = "latn"

#: The first digit of each numbering system a page may be written in, by its CLDR name
#: (the Unicode character's name): the other nine follow it
_ZEROS = {"latn": "DIGIT ZERO", "arab": "ARABIC-INDIC DIGIT ZERO"}

#: The true minus sign, as the paper sheet writes it
MINUS = "\u2212"

LRM = "\u200e"  # LEFT-TO-RIGHT MARK


@lru_cache(maxsize=16)
def usual(language: str) -> str:
    """The CLDR numbering system ``language`` (a code of i18n.LANGUAGES) usually writes
    numbers in: "latn" for "en", "de", "fi"; "arab" for "ar"."""
    system = Locale.parse(language).other_numbering_systems.get("native", WESTERN)
    return system if system in _ZEROS else WESTERN


def digits() -> str:
    """The request's numbering system: "latn" (0–9) when this phone chose Western digits
    (the ``digits`` cookie) or outside a request, else its language's :func:`usual` ones."""
    return _where()[1]


def offered() -> bool:
    """Whether the page's language usually writes other digits than 0–9, so that the
    choice of Western digits is offered (Arabic pages)."""
    return usual(_where()[0]) != WESTERN


@lru_cache(maxsize=16)
def _table(system: str) -> dict[int, str]:
    """str.translate's table from 0–9 to ``system``'s digits (Unicode database)."""
    zero = ord(unicodedata.lookup(_ZEROS[system]))
    table = {ord("0") + value: chr(zero + value) for value in range(10)}
    assert all(unicodedata.decimal(c) == v for v, c in enumerate(table.values()))  # a run of ten from zero
    return table


def sample(system: str) -> str:
    """The digits 0 to 9 of ``system`` as the digits switch names them: "0–9", "٠–٩"."""
    table = _table(system)
    return f"{table[ord('0')]}–{table[ord('9')]}"


@lru_cache(maxsize=16)
def _signs(language: str, system: str) -> tuple[str, str]:
    """(plus, minus) of ``language`` in ``system``: CLDR's, with their direction marks;
    a hyphen-minus made the true minus sign."""
    locale = Locale.parse(language)
    plus = get_plus_sign_symbol(locale, numbering_system=system)
    minus = get_minus_sign_symbol(locale, numbering_system=system).replace("-", MINUS)
    return plus, minus


def _babel_language() -> str:
    return str(get_locale() or "en")


#: The request's language: i18n.language once i18n is loaded (:func:`use_language`: it
#: is worked out once per Accept-Language there), Flask-Babel's locale until then
_language: Callable[[], str] = _babel_language


def use_language(find: Callable[[], str]) -> None:
    """Take the request's language from ``find`` (i18n.language): the language the page
    is drawn in. (i18n imports this module, so the language is handed down, not imported.)"""
    global _language
    _language = find


@contextmanager
def as_data() -> Iterator[None]:
    """Inside it, numbers are written as outside a request: 0–9, "+75", "−150" (U+2212),
    with no direction marks, whatever the page's language and digits: what a download
    holds is data, the same in every language (the CSV's text cells: docs/translating.md,
    "What stays 0–9")."""
    before = g.get("_numbers_as_data", False)
    g._numbers_as_data = True
    try:
        yield
    finally:
        g._numbers_as_data = before


def _as_data() -> bool:
    return not has_request_context() or bool(g.get("_numbers_as_data"))


def _where() -> tuple[str, str]:
    """(language, numbering system) of the request, worked out once per request (a score
    sheet writes a few thousand numbers); ("en", "latn") outside one. The language is
    the one the page is drawn in (i18n.language, through :func:`use_language`)."""
    if _as_data():
        return "en", WESTERN
    where: tuple[str, str] | None = g.get("_numbers_where")
    if where is None:
        language = _language()
        chosen = request.cookies.get(COOKIE) if "HTTP_COOKIE" in request.environ else None
        where = g._numbers_where = (language, system_of(language, chosen))
    return where


def system_of(language: str, chosen: str | None) -> str:
    """The numbering system a page in ``language`` is written in when the ``digits``
    cookie holds ``chosen`` (None: none): :func:`digits`, without a request."""
    return WESTERN if chosen == WESTERN else usual(language)


# Each distinct number is written once per language and digits: a sheet repeats the same
# few hundred points and totals, and Babel takes some microseconds for each.
@lru_cache(maxsize=8192)
def _written(value: int | float | Decimal, pattern: str, language: str, system: str, plus: bool) -> str:
    # Babel rounds in the decimal module's context (28 digits): a number of a game file
    # quoted in its error message may be any length (10**30 tricks), so the context holds
    # all of its digits
    magnitude = value.copy_abs() if isinstance(value, Decimal) else abs(value)  # (one type for mypy)
    with localcontext() as context:
        context.prec = max(context.prec, len(str(int(magnitude))) + 8)
        # a half rounded away from zero, as a player rounds by hand (the decimal module's
        # default, half to even, wrote 1.25 as 1.2 beside 1.75 as 1.8: tester 27); Babel
        # reads a float by its shortest repr, so 0.15 is 0.2
        context.rounding = ROUND_HALF_UP
        text: str = parse_pattern(pattern).apply(magnitude, Locale.parse(language), numbering_system=system)
    shown = any(c in "123456789" for c in text)  # not 0 once rounded: never "−0.0"
    if system != WESTERN:
        text = text.translate(_table(system))
    sign_plus, sign_minus = _signs(language, system)
    sign = sign_minus if value < 0 and shown else sign_plus if plus and value > 0 and shown else ""
    if LRM in sign:
        # Western digits in a right-to-left language: the LRM keeps "+75" in order, but it
        # would also pull the neighbours between two such numbers into one left-to-right
        # run ("Anna +80 · Ben +200" read backwards): the number is isolated as a whole
        return left_to_right(sign + text)
    return sign + text


def number(value: int) -> str:
    """A count, a deal or kingdom number or a total, as the page writes it: digits of
    :func:`digits`, not grouped, a minus sign when below 0: 1250, "−15", "١٢٥٠",
    "\u061c−١٥". Outside a request (or :func:`as_data`): 0–9, with U+2212 for a minus."""
    if _as_data():
        return f"{MINUS}{-value}" if value < 0 else str(value)
    return _written(value, "0", *_where(), plus=False)


def signed(points: int) -> str:
    """A deal's points as the paper sheet writes them: "+75", "−150", "0" in English,
    German and Finnish; "\u061c+٧٥", "\u061c−١٥٠", "٠" in Arabic-Indic digits;
    "\u2066\u200e+75\u2069" (isolated, LRM before the sign) in Western digits in Arabic."""
    if _as_data():
        return f"+{points}" if points > 0 else f"{MINUS}{-points}" if points < 0 else "0"
    return _written(points, "0", *_where(), plus=True)


def decimal(value: float | Decimal, *, plus: bool = False, places: int = 1) -> str:
    """An average with one decimal (``places`` decimals) in the language's decimal sign
    and digits, grouped as the language groups (Babel's pattern "#,##0.0"): "12.5",
    "12,5", "١٢٫٥"; a minus below 0 (never "−0.0"), a plus above 0 when ``plus``
    (points)."""
    return _written(value, "#,##0." + "0" * places, *_where(), plus=plus)


def in_digits(text: str) -> str:
    """``text`` that Babel wrote (a day, a time: always 0–9) in the page's digits. Never
    for what a person typed, nor for data."""
    system = digits()
    return text if system == WESTERN else text.translate(_table(system))


def _moment(when: str | date | datetime) -> datetime | date:
    if isinstance(when, str):
        when = datetime.fromisoformat(when) if "T" in when else date.fromisoformat(when[:10])
    if isinstance(when, datetime):
        return when.astimezone(UTC) if when.tzinfo else when.replace(tzinfo=UTC)
    return when


def day(when: str | date | datetime) -> str:
    """A day in the page's language and digits (CLDR skeleton "yMMMd"): "Nov 30, 2026",
    "30. Nov. 2026", "30.11.2026", "٣٠ نوفمبر ٢٠٢٦". ``when``: a date, or a time or an
    ISO 8601 string of one (its UTC day)."""
    language = _where()[0]
    return in_digits(format_skeleton("yMMMd", _moment(when), locale=language))


def day_and_time(when: str | datetime) -> str:
    """A UTC time with its day, in the page's language and digits (CLDR: the day
    "yMMMd" and the time "Hm" joined as the language joins them): "Nov 30, 2026, 19:33",
    "30.11.2026 19.33", "٣٠ نوفمبر ٢٠٢٦، ١٩:٣٣"."""
    language = _where()[0]
    moment = _moment(when)
    joined = str(get_datetime_format("medium", locale=language))  # "{1}, {0}": day, time
    text = joined.replace("{1}", format_skeleton("yMMMd", moment, locale=language)).replace(
        "{0}", format_skeleton("Hm", moment, locale=language, tzinfo=UTC))
    return in_digits(text)
