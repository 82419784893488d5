"""The rule texts a score cites, quoted: from a ScoreLine's ``source`` to the passages.

The texts ship inside the package (``rules/texts/``, copies of the project's shared
SCORING.md and rules/*.txt; a test keeps them equal), so an installed app never reads
outside itself.  :func:`quote` is pure: a source string in, the cited sections out.

A source string names one or more documents, separated by ";"::

    "SCORING.md §1.2; rules/trigami.en.txt, Scoring"
    "SCORING.md §2.1, §2.5 Swapped values; rules/trix.de.txt, Abrechnung, Varianten: Getauschte Werte"

After "SCORING.md" come section numbers ("§1.2"), each optionally followed by the first
words of one list item of that section ("§2.5 Swapped values" quotes only the bullet
"**Swapped values:** …").  After a rule text's path and a comma come section headings as
the text writes them ("Scoring"), each optionally followed by ":" and the first words of
one list item ("Varianten: Getauschte Werte").

Source: the texts themselves; the source strings are those of rules/trigami.py, trix.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .common import _

#: The documents that can be cited, by the name a source string uses: (file in texts/,
#: language of the text).  Titles come from :func:`document_title` (translated).
DOCUMENTS: dict[str, tuple[str, str]] = {
    "SCORING.md": ("SCORING.md", "en"),
    "rules/trigami.en.txt": ("trigami.en.txt", "en"),
    "rules/trigami.de.txt": ("trigami.de.txt", "de"),
    "rules/trigami.fi.txt": ("trigami.fi.txt", "fi"),
    "rules/trix.de.txt": ("trix.de.txt", "de"),
}


class SourceError(LookupError):
    """A source string names a document, section or item that the texts do not have,
    or is not shaped like one (see the module docstring)."""


@dataclass(frozen=True)
class Span:
    """A run of text in a quote: ``style`` is "" (plain), "strong", "em" or "code"."""

    text: str
    style: str = ""


@dataclass(frozen=True)
class Item:
    """One paragraph, list item or table row of a quote.

    ``spans`` the text (paragraphs, list items); ``level`` the list item's depth (0 for the
    outermost); ``marker`` "1." for a numbered item, "" for a bullet; ``cells`` a table
    row's cells (each a tuple of spans); ``header`` whether that row is the table's head.
    """

    spans: tuple[Span, ...] = ()
    level: int = 0
    marker: str = ""
    cells: tuple[tuple[Span, ...], ...] = ()
    header: bool = False

    @property
    def text(self) -> str:
        """The item as plain text ("1. Every trick. …", "a | b | c")."""
        if self.cells:
            return " | ".join("".join(s.text for s in cell) for cell in self.cells)
        body = "".join(s.text for s in self.spans)
        return f"{self.marker} {body}" if self.marker else body


@dataclass(frozen=True)
class Block:
    """A paragraph ("paragraph", one item), a list ("list") or a table ("table")."""

    kind: str
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Passage:
    """One quoted section (or one list item of it).

    ``document`` as cited ("SCORING.md", "rules/trix.de.txt"); ``title`` the document in
    words ("Scoring rules", "Trix rules, in German"); ``lang`` the text's language ("en",
    "de", "fi"); ``section`` as cited ("§1.2", "Scoring"); ``heading`` the section's
    heading ("1.2 Points (in this order of precedence)", "Scoring"); ``item`` the first
    words of the one list item quoted (None: the whole section); ``blocks`` the text.
    """

    document: str
    title: str
    lang: str
    section: str
    heading: str
    item: str | None
    blocks: tuple[Block, ...]

    @property
    def label(self) -> str:
        """The section in words, without the heading's remark in brackets: "§1.2 Points",
        "Scoring", "§2.5 Variants — Swapped values"."""
        heading = re.sub(r"\s*\([^)]*\)\s*$", "", self.heading)
        if self.section.startswith("§"):
            heading = "§" + heading
        return f"{heading} — {self.item}" if self.item else heading

    @property
    def text(self) -> str:
        """The quote as plain text, one line per paragraph, item or row."""
        return "\n".join(item.text for block in self.blocks for item in block.items)


def document_title(document: str) -> str:
    """A cited document in words: "SCORING.md" → "Scoring rules", "rules/trigami.en.txt" →
    "Trigami rules (David Parlett)"; raises SourceError for an unknown document."""
    titles = {
        "SCORING.md": _("Scoring rules"),
        "rules/trigami.en.txt": _("Trigami rules (David Parlett)"),
        "rules/trigami.de.txt": _("Trigami rules (David Parlett), in German"),
        "rules/trigami.fi.txt": _("Trigami rules, in Finnish"),
        "rules/trix.de.txt": _("Trix rules, in German"),
    }
    try:
        return titles[document]
    except KeyError:
        raise SourceError(f"unknown document {document!r}") from None


@lru_cache(maxsize=None)
def read_text(document: str) -> str:
    """The full text of a cited document, from the package; raises SourceError."""
    if document not in DOCUMENTS:
        raise SourceError(f"unknown document {document!r}")
    name = DOCUMENTS[document][0]
    return resources.files(__package__).joinpath("texts", name).read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- parsing

_MD_HEADING = re.compile(r"^#{1,6}\s+(?:(\d+(?:\.\d+)*)\.?\s+)?(.*\S)\s*$")
_RULE = re.compile(r"^\s*-{3,}\s*$")
_LIST_ITEM = re.compile(r"^(\s*)([-•]|\d+\.)\s+(.*)$")
_TABLE_SEPARATOR = re.compile(r"^\|[\s:|-]+\|$")
_INLINE = re.compile(r"\*\*(.+?)\*\*|`([^`]+)`|(?<![\w*])\*(?!\s)([^*]+?)\*(?![\w*])")


def spans(text: str) -> tuple[Span, ...]:
    """Markdown's inline marks (**strong**, *em*, `code`) → spans; other text as it is."""
    out: list[Span] = []
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() > position:
            out.append(Span(text[position:match.start()]))
        strong, code, em = match.groups()
        if strong is not None:
            out.append(Span(strong, "strong"))
        elif code is not None:
            out.append(Span(code, "code"))
        else:
            out.append(Span(em, "em"))
        position = match.end()
    if position < len(text):
        out.append(Span(text[position:]))
    return tuple(out)


def blocks(lines: list[str], *, wrapped: bool) -> tuple[Block, ...]:
    """Section lines → paragraphs, lists and tables.

    ``wrapped``: Markdown (lines of a paragraph are joined; an indented line continues
    the list item above) rather than a plain text with one paragraph a line.
    """
    done: list[Block] = []
    kind: str | None = None
    items: list[dict[str, object]] = []

    def close() -> None:
        nonlocal kind, items
        if kind is not None and items:
            built = []
            for entry in items:
                if "cells" in entry:
                    built.append(Item(cells=tuple(spans(c) for c in entry["cells"]),  # type: ignore[union-attr]
                                      header=bool(entry["header"])))
                else:
                    built.append(Item(spans=spans(str(entry["text"])), level=int(entry["level"]),  # type: ignore[call-overload]
                                      marker=str(entry["marker"])))
            done.append(Block(kind, tuple(built)))
        kind, items = None, []

    for raw in lines:
        line = raw.rstrip()
        if not line.strip():
            close()
            continue
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|"):
            if kind != "table":
                close()
                kind = "table"
            if _TABLE_SEPARATOR.match(stripped):
                if items:
                    items[-1]["header"] = True
                continue
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            items.append({"cells": cells, "header": False})
            continue
        match = _LIST_ITEM.match(line)
        if match and wrapped and kind == "paragraph" and match.group(2)[0].isdigit() \
                and match.group(2) != "1.":
            match = None  # "200. Carla bids…" wraps a sentence; only "1." starts a list there
        if match:
            indent, marker, text = match.groups()
            if kind != "list":
                close()
                kind = "list"
            items.append({"text": text, "level": len(indent.expandtabs()) // 2,
                          "marker": marker if marker[0].isdigit() else ""})
            continue
        if wrapped and kind == "list" and line[:1].isspace():
            items[-1]["text"] = f"{items[-1]['text']} {stripped}"
            continue
        if wrapped and kind == "paragraph":
            items[-1]["text"] = f"{items[-1]['text']} {stripped}"
            continue
        close()
        kind = "paragraph"
        items.append({"text": stripped, "level": 0, "marker": ""})
    close()
    return tuple(done)


@lru_cache(maxsize=None)
def _markdown_sections(document: str) -> dict[str, tuple[str, list[str]]]:
    """Numbered sections of a Markdown text: "1.2" → (heading, lines up to the next
    heading or rule)."""
    sections: dict[str, tuple[str, list[str]]] = {}
    current: list[str] | None = None
    for line in read_text(document).splitlines():
        heading = _MD_HEADING.match(line)
        if heading:
            number, title = heading.groups()
            current = None
            if number:
                current = []
                sections[number] = (f"{number} {title}", current)
            continue
        if _RULE.match(line):
            current = None
            continue
        if current is not None:
            current.append(line)
    return sections


def _is_heading(line: str) -> bool:
    """A rule text's heading: a short line of its own that is no sentence, list item or
    "Key: value" line ("Scoring", "Herz-König und Damen verdoppeln")."""
    text = line.strip()
    return (bool(text) and not _LIST_ITEM.match(text) and ":" not in text
            and text[-1] not in ".:!?;,)" and len(text.split()) <= 6)


@lru_cache(maxsize=None)
def _text_sections(document: str) -> dict[str, tuple[str, list[str]]]:
    """Sections of a plain rule text: casefolded heading → (heading, lines up to the next
    heading).  A heading stands between blank lines."""
    lines = read_text(document).splitlines()
    sections: dict[str, tuple[str, list[str]]] = {}
    current: list[str] | None = None
    for index, line in enumerate(lines):
        before = lines[index - 1] if index else ""
        after = lines[index + 1] if index + 1 < len(lines) else ""
        if _is_heading(line) and not before.strip() and not after.strip():
            current = []
            sections.setdefault(line.strip().casefold(), (line.strip(), current))
            continue
        if current is not None:
            current.append(line)
    return sections


def _only_item(found: tuple[Block, ...], item: str, where: str) -> tuple[Block, ...]:
    """The one top-level list item (with the items nested under it) whose text starts with
    ``item``, as a list block; raises SourceError."""
    wanted = item.casefold()
    for block in found:
        if block.kind != "list":
            continue
        for index, entry in enumerate(block.items):
            text = "".join(s.text for s in entry.spans).lstrip()
            if entry.level == 0 and text.casefold().startswith(wanted):
                end = index + 1
                while end < len(block.items) and block.items[end].level > 0:
                    end += 1
                return (Block("list", block.items[index:end]),)
    raise SourceError(f"no list item {item!r} in {where}")


def _split(citation: str) -> tuple[str, list[str]]:
    """"SCORING.md §1.2, §1.5" → ("SCORING.md", ["§1.2", "§1.5"]);
    "rules/trix.de.txt, Abrechnung, Varianten" → ("rules/trix.de.txt", ["Abrechnung", …])."""
    citation = citation.strip()
    for document in DOCUMENTS:
        if citation == document or citation.startswith(document + " ") or citation.startswith(document + ","):
            rest = citation[len(document):].strip().lstrip(",").strip()
            parts = [part.strip() for part in rest.split(",") if part.strip()]
            if not parts:
                raise SourceError(f"{citation!r} names no section")
            return document, parts
    raise SourceError(f"unknown document in {citation!r}")


def quote(source: str) -> tuple[Passage, ...]:
    """The passages a ScoreLine's ``source`` cites, in the order cited.

    ``source``: e.g. "SCORING.md §1.2; rules/trigami.en.txt, Scoring" (see the module
    docstring).  Returns one :class:`Passage` per cited section (or list item).  Raises
    SourceError when a document, section or item is not in the texts, so a wrong citation
    in the rules fails the tests rather than quoting nothing.
    """
    passages: list[Passage] = []
    for citation in source.split(";"):
        if not citation.strip():
            continue
        document, parts = _split(citation)
        lang = DOCUMENTS[document][1]
        title = document_title(document)
        markdown = document.endswith(".md")
        for part in parts:
            if markdown:
                match = re.fullmatch(r"§(\d+(?:\.\d+)*)(?:\s+(.+))?", part)
                if not match:
                    raise SourceError(f"{part!r} in {citation!r} is not a section like §1.2")
                number, item = match.groups()
                found = _markdown_sections(document).get(number)
                section = f"§{number}"
            else:
                name, _colon, item_text = part.partition(":")
                item = item_text.strip() or None
                found = _text_sections(document).get(name.strip().casefold())
                section = name.strip()
            if found is None:
                raise SourceError(f"no section {section!r} in {document}")
            heading, lines = found
            quoted = blocks(lines, wrapped=markdown)
            if item:
                quoted = _only_item(quoted, item, f"{document} {section}")
            passages.append(Passage(document=document, title=title, lang=lang, section=section,
                                    heading=heading, item=item, blocks=quoted))
    return tuple(passages)


def quote_all(sources: list[str] | tuple[str, ...]) -> tuple[Passage, ...]:
    """The passages of several source strings, each passage once, in first-cited order
    (the lines of one deal often cite the same sections).  Raises SourceError."""
    seen: set[tuple[str, str, str | None]] = set()
    out: list[Passage] = []
    for source in sources:
        for passage in quote(source):
            key = (passage.document, passage.section, passage.item)
            if key not in seen:
                seen.add(key)
                out.append(passage)
    return tuple(out)


__all__ = ["DOCUMENTS", "Block", "Item", "Passage", "SourceError", "Span", "document_title",
           "quote", "quote_all", "read_text"]
