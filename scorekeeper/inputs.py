"""Text from outside — form fields, query parameters, game files, the command line — turned
into whole numbers and player names, with the limits that keep any text from breaking a
page. Standard library only; no Flask.

Why a limit on digits: Python refuses to convert a string of more than 4,300 digits to an
int (ValueError, CVE-2020-10735), and SQLite stores at most 2**63 − 1; no count, seat,
deal, page or target at a card table comes near 18 digits.
"""

from __future__ import annotations

import unicodedata

#: More digits than this is never a number anyone means here (and always fits SQLite)
MAX_DIGITS = 18
#: What :func:`whole_number` gives for a longer number: larger than any limit checked
TOO_LARGE: int = 10**MAX_DIGITS


def whole_number(text: object) -> int | None:
    """A whole number written with decimal digits of any script ("12", "١٢", leading
    zeros allowed, spaces and invisible format characters ignored), or None when ``text`` is anything else (a sign,
    a point, letters, nothing). A number of more than :data:`MAX_DIGITS` significant digits
    gives :data:`TOO_LARGE`, so that the caller's range check refuses it in its own words,
    and no ValueError or OverflowError can come of it."""
    if not isinstance(text, str):
        return None
    # the direction marks and zero-width characters a paste or an Arabic keyboard leaves
    # around digits show nothing (tester 38: "‏12" refused as no whole number)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf").strip()
    if not text.isdecimal():
        return None
    digits = "".join(str(unicodedata.decimal(c)) for c in text).lstrip("0")
    if len(digits) > MAX_DIGITS:
        return TOO_LARGE
    return int(digits or "0")


def whole_number_below(text: object, end: int, start: int = 0) -> int | None:
    """:func:`whole_number` when ``start`` <= it < ``end`` (a seat, a page, a deal id),
    else None."""
    number = whole_number(text)
    return number if number is not None and start <= number < end else None


# ------------------------------------------------------------------------------- names

#: Characters that draw nothing yet are not Unicode format characters (category Cf, which
#: :func:`name_key` drops too): the combining grapheme joiner, variation selectors, Hangul
#: and Mongolian fillers. Source: Unicode's Default_Ignorable_Code_Point property
#: (DerivedCoreProperties.txt), the part of it outside Cf.
_IGNORABLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\u180b\u180c\u180d\u180f"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
)


def invisible(char: str) -> bool:
    """Whether ``char`` draws nothing on its own: a format character (zero-width space,
    joiners, soft hyphen, byte-order mark, direction marks, tags) or another default
    ignorable code point (variation selectors, fillers)."""
    return unicodedata.category(char) == "Cf" or char in _IGNORABLE or 0xE0100 <= ord(char) <= 0xE01EF


#: Invisible marks that mean nothing at either end of a name (it is shown isolated):
#: zero-width space, the direction marks (LRM, RLM, ALM), word joiner, byte-order mark,
#: soft hyphen. Trimmed with the spaces, so "C1" + RLM is stored as "C1" (tester 33: it
#: looked like "C1" everywhere, a second spelling of one player). Inside a name they stay.
EDGE_MARKS = "\u200b\u200e\u200f\u061c\u2060\ufeff\u00ad"


def clean_name(name: str) -> str:
    """A name as it is stored and shown: Unicode NFC (an "é" typed as e + ´ and one typed
    as é are then the same letters), runs of spaces made one, trimmed of spaces and of
    the invisible marks :data:`EDGE_MARKS` at either end."""
    spaced = " ".join(unicodedata.normalize("NFC", name).split())
    return " ".join(spaced.strip(EDGE_MARKS + " ").split())


#: The longest name a group may have (the Group page's fields: forms/groups.py)
GROUP_NAME_MOST = 60
#: The joiners that shape the letters beside them (Persian and Arabic ZWNJ, emoji ZWJ):
#: kept in a group's name when every other unseen character is taken out
JOINERS = "\u200c\u200d"


def without_unseen(text: str) -> str:
    """``text`` as :func:`clean_name` keeps it, without :data:`EDGE_MARKS` wherever they
    are and without control characters, direction embeddings and overrides (format
    characters but the :data:`JOINERS`): what a group's name keeps of what was typed or
    given (forms/groups.py, :func:`group_name_from`)."""
    return clean_name("".join(c for c in text if c not in EDGE_MARKS
                              and (c in JOINERS or c.isspace() or unicodedata.category(c)[0] != "C")))


def group_name_from(text: str) -> str | None:
    """A group's name from a file or the command line (``scorekeeper import`` on a new
    database), kept as the Group page keeps a typed one: :data:`EDGE_MARKS` dropped
    wherever they are, control characters and direction embeddings and overrides taken
    out (the joiners U+200C and U+200D that shape letters kept), spaces made one, cut to
    :data:`GROUP_NAME_MOST` characters; None when nothing visible is left (the caller's
    default then). Tester 66: a group file's name of 518 characters with ESC, BEL and a
    right-to-left override was stored as it was, into every page's top bar."""
    name = without_unseen(text)[:GROUP_NAME_MOST].rstrip()
    return name if has_visible_character(name) else None


#: Symbols that draw as blank space: the Braille pattern with no dot (U+2800), often
#: used to make a name that looks empty
_BLANK_SYMBOLS = frozenset("\u2800")


def has_visible_character(name: str) -> bool:
    """Whether ``name`` shows anything: a letter, digit, punctuation mark or symbol (not
    only spaces, combining marks, invisible characters or a blank Braille pattern)."""
    return any(unicodedata.category(c)[0] in "LNPS" and not invisible(c) and c not in _BLANK_SYMBOLS
               for c in name)


#: Arabic-script letters one keyboard types for another's, drawn alike in a name: the
#: Persian yeh (U+06CC) and the alef maksura (U+0649) for the yeh, "ليلى" / "ليلی" (at a
#: word's end all three look alike, and "على" / "علي" is one name written two ways); the
#: Persian keheh (U+06A9) for the kaf, "كريم" / "کريم"; and the tatweel (U+0640), which
#: only stretches a joining line, "ليـلى", is dropped (tester 38)
_ARABIC_ALIKE = str.maketrans({"\u06cc": "\u064a", "\u0649": "\u064a", "\u06a9": "\u0643", "\u0640": None})


def name_key(name: str) -> str:
    """The key under which a player's name is one player: what is left when invisible
    characters are dropped, compatibility forms folded (full-width "Ａｎｎ" is "Ann",
    "ﬁ" is "fi": NFKC), case folded, Arabic letters drawn alike made one
    (:data:`_ARABIC_ALIKE`: "ليلى" and "ليلی") and spaces made one. "Ann", " ann ",
    "ANN", "Ann\\u200b" and "Ａｎｎ" have one key. Unicode's NFKC_Casefold,
    approximately: NFKC, casefold, NFKC again (casefolding can undo a normal form)."""
    visible = "".join(c for c in name if not invisible(c))
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", visible).casefold())
    return " ".join(folded.translate(_ARABIC_ALIKE).split())
