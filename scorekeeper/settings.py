"""The app's settings read as what they mean, each checked when the app is made, so that
a typo in ``instance/config.py`` or a ``SCOREKEEPER_*`` variable stops the start with one
line naming the setting (the command line says it without a traceback: cli.py), rather
than answering the first phone that needs it with an error page (tester 15:
``SCOREKEEPER_WRITE_LIMIT=abc`` gave every form a 500). The settings themselves are
listed in README.md, "Configuration", and docs/deploying.md."""

from __future__ import annotations

from typing import Any


class SettingError(ValueError):
    """A setting that cannot be read: the message names it, what it holds and what it
    takes ("WRITE_LIMIT = 'abc' is no limit (e.g. '120 per minute'): …")."""


#: What a switch may be written as, from the environment (``SCOREKEEPER_X=off``) or config.py
_ON = {"1", "true", "yes", "on"}
_OFF = {"0", "false", "no", "off"}


def switch(name: str, value: Any) -> bool:
    """A setting that is on or off: True or False, 1 or 0, or the words true/false,
    yes/no, on/off in any case. Raises :class:`SettingError` for anything else (a typo
    would otherwise leave it on, or off, without a word)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    word = str(value).strip().casefold()
    if word in _ON or word in _OFF:
        return word in _ON
    raise SettingError(f"{name} = {shown_value(value)} is neither on nor off: write true or false")


#: More digits than any count or size of this app needs (and than int() reads at once)
_MOST_DIGITS = 18


def whole_number(name: str, value: Any, least: int = 1, says: str | None = None) -> int:
    """A setting that is a whole number from ``least`` up (a count, a size in bytes),
    given as a number or as its digits 0-9 (at most 18 of them). Raises
    :class:`SettingError` for anything else ("²", "1.5", "-1", a number of 5,000 digits,
    in the environment or as ``10**5000`` in config.py), saying ``says`` if given."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        digits = ""
    elif isinstance(value, int):
        digits = str(value) if 0 <= value < 10**_MOST_DIGITS else ""  # (str() of 5,000 digits raises)
    else:
        digits = value.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > _MOST_DIGITS or int(digits) < least:
        raise SettingError(says or f"{name} = {shown_value(value)} is not a whole number from {least} up")
    return int(digits)


def text(name: str, value: Any, what: str) -> str:
    """A setting that is text, not empty (a file's path, a key): ``what`` says what it
    is for the message. Raises :class:`SettingError` otherwise (a value the environment
    read as a number, ``SCOREKEEPER_SECRET_KEY=123``, or an empty one)."""
    if not isinstance(value, str) or not value.strip():
        raise SettingError(f"{name} = {shown_value(value)} is no {what}: write it as text"
                           + (" (in a SCOREKEEPER_ variable, in quotes: '\"…\"')" if not isinstance(value, str) else ""))
    return value


def one_of(name: str, value: Any, choices: tuple[Any, ...]) -> Any:
    """A setting that is one of ``choices``. Raises :class:`SettingError` otherwise."""
    if value not in choices:
        raise SettingError(f"{name} = {shown_value(value)} is not one of {', '.join(map(repr, choices))}")
    return value


def shown_value(value: Any) -> str:
    """A setting's value in a message: its repr, cut short (a number too long for repr,
    more than 4,300 digits, said as such)."""
    try:
        shown = repr(value)
    except ValueError:
        return "a number too long to show"
    return shown if len(shown) <= 40 else shown[:37] + "…"
