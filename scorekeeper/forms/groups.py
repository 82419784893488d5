"""The forms of a group: start one, rename it, set its passcode, give the passcode, give a
one-time code; and how a name or a passcode is read (what a keyboard can type, the same
passcode on any keypad).
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, Length, ValidationError

from .. import attempts, groups
from ..i18n import gettext as _
from ..i18n import lazy_gettext as _l
from ..inputs import (
    EDGE_MARKS,
    GROUP_NAME_MOST,
    JOINERS,
    clean_name,
    has_visible_character,
    without_unseen,
)


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


def passcode_readings(typed: str) -> list[str]:
    """What a passcode typed at the passcode page may be, each as :func:`passcode_text`
    keeps it: as typed, and for digits typed in groups as people read them ("482 917"),
    the digits alone, which is how a new passcode of digits is kept (:func:`new_passcode`).
    A passcode kept with its groups' spaces (one set before) still matches as typed.
    Words are also read without the spaces a keyboard adds around them (a word suggestion
    leaves one after it) and with their first letter in the other case (a keyboard
    capitalises the first word of a text field, and not of a password field); no new
    passcode starts or ends with a space."""
    kept = passcode_text(typed)
    digits = "".join(kept.split())
    if digits.isdigit():
        return [kept, digits] if digits != kept else [kept]
    readings = [kept]
    for reading in (kept.strip(), kept.strip()[:1].swapcase() + kept.strip()[1:]):
        if reading and reading not in readings:
            readings.append(reading)
    return readings


def new_passcode(typed: str) -> str:
    """A new passcode as it is kept and judged: :func:`passcode_text`, with digits typed
    in groups ("482 917") joined, as the passcode page reads them too."""
    kept = passcode_text(typed)
    digits = "".join(kept.split())
    return digits if digits.isdigit() else kept


#: The marks a keyboard or a paste leaves in a name that show nothing and steer nothing
#: beyond themselves (inputs.EDGE_MARKS: direction marks, zero-width space …), dropped
#: wherever they are in a group's name (tester 38: "سهرة" + RLM + " الخميس" was refused
#: for a character nobody can see to take out)
_DROPPED_MARKS = str.maketrans(dict.fromkeys(EDGE_MARKS))


def group_name(form: Any, field: Any) -> None:
    """A group's name as it is kept (inputs.clean_name, without the marks
    :data:`_DROPPED_MARKS`), with something to see and nothing unseen that would steer the
    text around it (control characters, direction embeddings and overrides)."""
    raw = field.data or ""
    typed = " ".join(raw.translate(_DROPPED_MARKS).split())
    field.data = clean_name(typed)
    if raw.strip() and not typed:  # marks alone: no name, not the default one
        raise ValidationError(_("Give the group a name with letters or digits."))
    if not typeable("".join(c for c in typed if c != " " and c not in JOINERS)):  # said first: such characters alone too
        # the field shows the name without them, to save as it reads (tester 42: a pasted
        # right-to-left override showed "XsretseT", and nothing said what to take out)
        field.data = without_unseen(typed)
        # the form's own button named (tester 58: "Tap Save again" under "Start a group")
        raise ValidationError(_("A group's name cannot hold invisible or control characters: they are taken out "
                                "above. Tap “%(button)s” again if it reads right.", button=form.button))
    if typed and not has_visible_character(field.data):  # (marks alone are trimmed to nothing)
        raise ValidationError(_("Give the group a name with letters or digits."))


class StartForm(FlaskForm):
    """Start a group: its name, optional (a default is given), and a one-time token
    (``nonce``) so that the form sent twice starts one group."""

    name = StringField(_l("Name of the group (optional)"),
                       # cleaned first (group_name), so that the length is the name's as kept: a
                       # space the keyboard adds after 60 letters is no 61st character
                       validators=[group_name, Length(max=GROUP_NAME_MOST, message=_l("At most %(most)s characters, please.",
                                                                                         most=GROUP_NAME_MOST))],
                       # no maxlength (WTForms would write one from Length): a browser cuts a
                       # longer name pasted in short without a word; the form says so instead
                       render_kw={"autocomplete": "off", "placeholder": _l("Our games"), "maxlength": False})
    nonce = HiddenField(validators=[Length(max=64)])
    #: its button's words (templates/groups/welcome.html), which its messages name
    button = _l("Start a group")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.nonce.data:
            self.nonce.data = secrets.token_urlsafe(16)


class PasscodeForm(FlaskForm):
    """The group's passcode, given once on a phone that opened its play link."""

    passcode = PasswordField(_l("Passcode"), validators=[DataRequired(_l("Enter the group's passcode."))],
                             render_kw={"autocomplete": "current-password", "autofocus": True,
                                        "autocapitalize": "none", "autocorrect": "off", "spellcheck": "false"})


class CodeForm(FlaskForm):
    """A one-time code from a phone in the group (attempts.py), typed or from its QR code."""

    code = StringField(_l("One-time code"), validators=[DataRequired(_l("Enter the code shown on the other phone."))],
                       render_kw={"autocomplete": "one-time-code", "autocapitalize": "characters",
                                  "spellcheck": "false", "autocorrect": "off"})

    def typed_code(self) -> str:
        """The code as typed (:func:`passcode_text`: any script's digits as 0-9), or the
        code of a code's link pasted whole ("https://…/code?c=K7QM4-9XP3H", as "Copy
        link" on the other phone gives it: tester 62 was told it was no code); either
        is then read by attempts.normal_code."""
        text = self.code.data or ""
        if "/code?" in text and len(text) <= 2000:
            pasted = pasted_link(text)
            if pasted is not None and pasted.code:
                return pasted.code
        return passcode_text(text)


#: A link's token: URL-safe base 64, as long as groups.new_token makes one (32), or
#: about: from 16 (96 bits) to 64 (what groups.open_link looks up)
_TOKEN_TEXT = r"[A-Za-z0-9_-]{16,64}"
_TOKEN = re.compile(_TOKEN_TEXT)
#: A group's link's path: ``/g/<token>`` at the end (behind a prefix too, e.g. a server
#: under /cards/)
_LINK_PATH = re.compile(rf"(?:^|/)g/({_TOKEN_TEXT})/?$")
#: A club night's table card's path: ``/t/<token>`` (docs/club-nights.md, "Table cards")
_CARD_PATH = re.compile(rf"(?:^|/)t/({_TOKEN_TEXT})/?$")
#: What a messenger puts around a link in a sentence ("<https://…>", "(https://…).")
_AROUND = "<>()[]{}\"'«»“”‘’"
_AFTER = ".,;:!?…"


@dataclass(frozen=True)
class Pasted:
    """Where a pasted link or code leads: a link's ``token`` (``game``: the game its
    ``?game=`` names, or None), a table card's token (``card``), or a one-time ``code``
    (attempts.normal_code's form)."""

    token: str | None = None
    game: str | None = None
    code: str | None = None
    card: str | None = None


def _from_address(word: str) -> Pasted | None:
    """A link (with or without ``https://``, of this server or another: its path is what
    counts) as :class:`Pasted`, or None when its path is no group's link or code's page."""
    if "://" not in word and not word.startswith("/"):
        word = "//" + word  # "192.168.1.20:8000/g/…": a host without its scheme
    try:
        parts = urlsplit(word)
    except ValueError:  # e.g. "//[::1" (a broken IPv6 host)
        return None
    path = unquote(parts.path)
    query = parse_qs(parts.query)
    found = _LINK_PATH.search(path)
    if found:
        game = query.get("game", [""])[0]
        return Pasted(token=found.group(1), game=game if 0 < len(game) <= 64 else None)
    card = _CARD_PATH.search(path)
    if card:
        return Pasted(card=card.group(1))
    if path.rstrip("/").endswith("/code") and query.get("c"):
        code = attempts.normal_code(query["c"][0])
        return Pasted(code=code) if code else None
    return None


def looks_like_a_code(text: str) -> bool:
    """Whether ``text``, no link nor a code, was meant as a one-time code (what the page
    then says is about the code, not about a link): about ten letters and digits, with or
    without its dash or spaces; five and a dash with fewer after it (cut short); or a
    code's link ("…/code?c=…") whose code is none."""
    if "/code?" in text.lower():  # (a link typed in capitals too: tester 64)
        return True
    bare = "".join(text.split()).replace("-", "")
    return "/" not in text and bare.isalnum() and (
        8 <= len(bare) <= 12 or re.fullmatch(r"\s*[^\W_]{5}\s*-\s*[^\W_]{0,4}\s*", text) is not None)


def pasted_link(text: str) -> Pasted | None:
    """What a phone pasted (or typed) to join a group, read as the link would be opened
    (issue 18, part 5): a group's link ``https://host/g/TOKEN`` (any host: a link copied
    from another address of this server, or with ``?game=``), a one-time code's link
    (``…/code?c=CODE``), a table card's link (``…/t/TOKEN``), a one-time code alone ("K7QM4-9XP3H", any case and script's
    digits) or a link's token alone; the link picked out of a message around it
    ("Join us: https://…/g/TOKEN."). Spaces around it are dropped, and the unseen
    characters an Arabic keyboard or a messenger adds (direction marks, zero-width
    spaces). None when it is none of these (the page says so beside the field).

    Whether the token opens a group is not looked up here: the link's own page
    (views/groups/joining.join) answers that, as it does for a visited link."""
    text = "".join(c for c in text if unicodedata.category(c) != "Cf").strip()
    if not text:
        return None
    code = attempts.normal_code(text)
    if code:
        return Pasted(code=code)
    words = [w.strip(_AROUND).rstrip(_AFTER).strip(_AROUND) for w in text.split()]
    if len(words) > 1:  # a message around the link: the one word that is a link
        words = [w for w in words if "/g/" in w or "/t/" in w or "/code?" in w]
        if len(words) != 1:
            return None
    word = words[0]
    if "/" in word:
        return _from_address(word)
    if _TOKEN.fullmatch(word):
        return Pasted(token=word)
    return None


class JoinForm(FlaskForm):
    """A group's link, or its code, pasted on the welcome page (issue 18, part 5: the app
    installed on the home screen opens at the welcome page, not at a link). It changes
    nothing stored and keeps nothing in the session: its answer only sends the phone to the
    link's own address, where any web page could link it, so it has no form token
    (a welcome page left open for days in the installed app still works)."""

    class Meta:
        csrf = False

    #: What the pasted text leads to, once validated (:func:`pasted_link`)
    pasted: Pasted | None = None

    link = StringField(_l("The group's link or code"),
                       render_kw={"autocomplete": "off", "autocapitalize": "off", "autocorrect": "off",
                                  "spellcheck": "false", "inputmode": "url", "dir": "ltr",
                                  "placeholder": "https://…/g/…"})

    def validate_link(self, field: Any) -> None:
        """The pasted text read by :func:`pasted_link` (kept in ``self.pasted``); what is
        no link or code is refused beside the field, the text kept as it was typed."""
        if not (field.data or "").strip():
            raise ValidationError(_("Paste the group's link here (or type its code)."))
        self.pasted = pasted_link(field.data) if len(field.data) <= 2000 else None
        if self.pasted is None and "/g/" in field.data:  # (tester 33: told it "has /g/ in it")
            raise ValidationError(_("That is not a group's link or code: what follows /g/ is cut short or "
                                    "mistyped. Paste the whole link again, as it was shared."))
        if self.pasted is None and "/t/" in field.data:  # a table card's link cut short (tester 60)
            raise ValidationError(_("That is not a table card's link: what follows /t/ is cut short or "
                                    "mistyped. Scan the card's QR code again, or paste its whole link."))
        if self.pasted is None and looks_like_a_code(field.data):  # (tester 60: pointed to /g/)
            raise ValidationError(_("That is not a one-time code: a code has ten letters and digits, as the "
                                    "other phone shows it (like K7QM4-9XP3H). Check it and type it again."))
        if self.pasted is None:
            raise ValidationError(_("That is not a group's link or code. Paste the whole link someone in your "
                                    "group shared: it has /g/ in it."))


class RenameForm(FlaskForm):
    """The group's new name (the group page)."""

    name = StringField(_l("Name"), validators=[DataRequired(_l("Give the group a name.")), group_name,  # as StartForm's
                                               Length(max=GROUP_NAME_MOST, message=_l("At most %(most)s characters, please.",
                                                                                      most=GROUP_NAME_MOST))],
                       render_kw={"autocomplete": "off", "maxlength": False})  # as StartForm's name
    #: its button's words (templates/groups/settings.html), which its messages name
    button = _l("Rename")


class NewPasscodeForm(FlaskForm):
    """The group's new passcode (the group page); blank is refused by the page (the Group
    page's own button turns the passcode off)."""

    passcode = StringField(_l("New passcode"), validators=[
        Length(max=groups.PASSCODE_LENGTH[1], message=_l("At most %(most)s characters, please.",
                                                         most=groups.PASSCODE_LENGTH[1]))],
        # typed as it will be entered: no capital or correction a phone's keyboard would add
        render_kw={"autocomplete": "new-password", "aria-describedby": "pass-passcode-rule",
                   "autocapitalize": "none", "autocorrect": "off", "spellcheck": "false"})

    def validate_passcode(self, field: Any) -> None:
        """At least 6 digits, or two words and 8 characters (groups.passcode_rule), and
        not one digit repeated or a run (groups.easy_passcode); a passcode nobody could
        type is told so by the page (settings) instead."""
        if not field.data or len(field.data) > groups.PASSCODE_LENGTH[1]:
            return  # none (refused by the page), or too long (said so, and nothing more)
        kept = new_passcode(field.data).strip()
        if typeable(field.data) and not groups.passcode_rule(kept):
            if not kept.isdigit() and len(kept) >= groups.PASSPHRASE[1]:
                raise ValidationError(_("One word is easy to guess, however long: use two words or more, or at "
                                        "least %(digits)s digits.", digits=groups.PASSCODE_DIGITS))
            raise ValidationError(_("Too short to be safe: at least %(digits)s digits, or two words or more "
                                    "(%(characters)s characters or more).", digits=groups.PASSCODE_DIGITS,
                                    characters=groups.PASSPHRASE[1]))
        if field.data and groups.easy_passcode(new_passcode(field.data).strip()):
            raise ValidationError(_("Too easy to guess: one digit repeated or a run like %(run)s is tried "
                                    "first. Choose digits with no pattern.", run=123456))
