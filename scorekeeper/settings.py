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
    raise SettingError(f"{name} = {value!r} is neither on nor off: write true or false")


def whole_number(name: str, value: Any, least: int = 1) -> int:
    """A setting that is a whole number from ``least`` up (a count, a size in bytes),
    given as a number or as its digits. Raises :class:`SettingError` for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).strip().isdigit() \
            or int(value) < least:
        raise SettingError(f"{name} = {value!r} is not a whole number from {least} up")
    return int(value)
