"""Player names isolated from the text around them, so mixed scripts never scramble a line.

A name is text of its own direction: "سارة" beside "+75" or beside a Latin name would
otherwise be reordered by the bidirectional algorithm with its neighbours ("Deal 7 saved:
0 محمد ,75+ سارة"). In HTML a name sits in ``<bdi>`` (the ``bdi`` filter); in plain text
(flash messages, page titles, JSON news, SVG text, <option>) between U+2068 FIRST STRONG
ISOLATE and U+2069 POP DIRECTIONAL ISOLATE (:func:`isolate`). Each takes its direction
from the name's first strong letter. Source: Unicode UAX #9, §2.7 Explicit Directional
Isolates; HTML, the bdi element.
"""

from __future__ import annotations

from collections.abc import Iterable

from markupsafe import Markup, escape

FSI = "\u2068"  # FIRST STRONG ISOLATE
LRI = "\u2066"  # LEFT-TO-RIGHT ISOLATE
PDI = "\u2069"  # POP DIRECTIONAL ISOLATE


def isolate(name: object) -> str:
    """``name`` between FSI and PDI, for plain text: "\u2068سارة\u2069". A name already
    isolated is returned as it is (the rules' messages isolate names themselves)."""
    text = str(name)
    if text.startswith(FSI) and text.endswith(PDI):
        return text
    return f"{FSI}{text}{PDI}"


def left_to_right(text: str) -> str:
    """``text`` between LRI and PDI: read left to right whatever the line around it, for
    what is written so whatever the language (a sum "80 + 100 = 180", a signed number of
    0–9 on an Arabic page)."""
    return f"{LRI}{text}{PDI}"


def isolate_all(names: Iterable[object]) -> list[str]:
    """Each of ``names`` isolated (:func:`isolate`)."""
    return [isolate(name) for name in names]


def bdi(name: object) -> Markup:
    """``name`` escaped, in a ``<bdi>`` element: the Jinja filter ``|bdi``. Its result is
    Markup, so ``_("… %(name)s …", name=player|bdi)`` keeps the element."""
    return Markup("<bdi>%s</bdi>") % escape(name)


def last_words_together(text: object) -> Markup:
    """``text`` (markup kept as it is, else escaped) with its last space a no-break space,
    so that a line never ends with its last word alone: "(Ben until deal\u00a05)", not
    "(Ben until deal" and "5)" on a line of its own in a narrow column (tester 69). The
    Jinja filter ``|last_words_together``."""
    markup = text if isinstance(text, Markup) else escape(text)
    before, space, last = str(markup).rpartition(" ")
    return Markup(before + "\u00a0" + last) if space else Markup(markup)


def names_in_bdi(text: str) -> Markup:
    """Plain ``text`` escaped for a page, each name isolated in it (FSI…PDI, by
    :func:`isolate`) put into a ``<bdi>`` element instead: the Jinja filter
    ``|names_in_bdi``, for text made as plain text that a page wants to style by its
    names (a name of 40 letters may break anywhere, the words around it only between
    words)."""
    parts = str(text).split(FSI)
    out = [escape(parts[0])]
    for part in parts[1:]:
        name, closed, rest = part.partition(PDI)
        out.append(Markup("<bdi>%s</bdi>%s") % (name, rest) if closed else escape(FSI + part))
    return Markup("").join(out)


#: The longest run without a space that :func:`shortened` keeps whole: longer than any
#: name (40 characters) with its quotes, shorter than a line of a phone
LONGEST_RUN = 48


def shortened(message: str, longest: int = LONGEST_RUN) -> str:
    """``message`` with every run of more than ``longest`` characters without a space cut
    to its first ``longest`` and "…": a problem of an uploaded file quotes what the file
    holds ("unknown option 'ÄÄÄ…'"), which may be thousands of characters long."""
    return " ".join(word if len(word) <= longest else word[:longest] + "…" for word in message.split(" "))
