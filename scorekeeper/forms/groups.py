"""The forms of a group: start one, rename it, set its passcode, give the passcode, give a
one-time code; and how a name or a passcode is read (what a keyboard can type, the same
passcode on any keypad).
"""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, Length, ValidationError

from .. import groups
from ..i18n import gettext as _
from ..i18n import lazy_gettext as _l
from ..inputs import clean_name, has_visible_character


def typeable(text: str) -> bool:
    """Whether every character of ``text`` can be typed and seen: no control, format
    (zero-width, direction marks), private-use or unassigned characters."""
    return all(unicodedata.category(c)[0] != "C" for c in text)


def passcode_text(passcode: str) -> str:
    """A passcode as it is kept and compared: the same on any keyboard, so "١٢٣٤" (an
    Arabic keypad), "１２３４" (full-width) and "1234" are one passcode (NFKC, then any
    script's decimal digits as 0-9)."""
    folded = unicodedata.normalize("NFKC", passcode)
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in folded)


def group_name(form: Any, field: Any) -> None:
    """A group's name as it is kept (inputs.clean_name), with something to see and nothing
    unseen that would steer the text around it (control or direction characters)."""
    field.data = clean_name(field.data or "")
    if field.data and not has_visible_character(field.data):
        raise ValidationError(_("Give the group a name with letters or digits."))
    if not typeable(field.data.replace(" ", "")):
        raise ValidationError(_("A group's name cannot hold invisible or control characters."))


class StartForm(FlaskForm):
    """Start a group: its name, optional (a default is given), and a one-time token
    (``nonce``) so that the form sent twice starts one group."""

    name = StringField(_l("Name of the group (optional)"),
                       validators=[Length(max=60, message=_l("At most %(most)s characters, please.", most=60)), group_name],
                       render_kw={"autocomplete": "off", "placeholder": _l("Our games")})
    nonce = HiddenField(validators=[Length(max=64)])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.nonce.data:
            self.nonce.data = secrets.token_urlsafe(16)


class PasscodeForm(FlaskForm):
    """The group's passcode, given once on a phone that opened its play link."""

    passcode = PasswordField(_l("Passcode"), validators=[DataRequired(_l("Enter the group's passcode."))],
                             render_kw={"autocomplete": "current-password", "autofocus": True})


class CodeForm(FlaskForm):
    """A one-time code from a phone in the group (attempts.py), typed or from its QR code."""

    code = StringField(_l("One-time code"), validators=[DataRequired(_l("Enter the code shown on the other phone."))],
                       render_kw={"autocomplete": "one-time-code", "autocapitalize": "characters",
                                  "spellcheck": "false", "autocorrect": "off"})


class RenameForm(FlaskForm):
    """The group's new name (the group page)."""

    name = StringField(_l("Name"), validators=[DataRequired(_l("Give the group a name.")),
                                               Length(max=60, message=_l("At most %(most)s characters, please.", most=60)),
                                               group_name],
                       render_kw={"autocomplete": "off"})


class NewPasscodeForm(FlaskForm):
    """The group's new passcode (the group page); blank is refused by the page."""

    passcode = StringField(_l("New passcode"), validators=[
        Length(max=groups.PASSCODE_LENGTH[1], message=_l("At most %(most)s characters, please.",
                                                         most=groups.PASSCODE_LENGTH[1]))],
        render_kw={"autocomplete": "new-password", "aria-describedby": "pass-passcode-rule"})

    def validate_passcode(self, field: Any) -> None:
        """At least 6 digits, or two words and 8 characters (groups.passcode_rule), and
        not one digit repeated or a run (groups.easy_passcode); a passcode nobody could
        type is told so by the page (settings) instead."""
        if field.data and typeable(field.data) and not groups.passcode_rule(passcode_text(field.data).strip()):
            raise ValidationError(_("Too short to be safe: at least %(digits)s digits, or two words or more "
                                    "(%(characters)s characters or more).", digits=groups.PASSCODE_DIGITS,
                                    characters=groups.PASSPHRASE[1]))
        if field.data and groups.easy_passcode(passcode_text(field.data).strip()):
            raise ValidationError(_("Too easy to guess: one digit repeated or a run like %(run)s is tried "
                                    "first. Choose digits with no pattern.", run=123456))
