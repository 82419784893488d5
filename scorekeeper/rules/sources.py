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

A source string cites the texts as the rules were written from them (SCORING.md and the
English Trigami text, or the German Trix text).  :func:`quote_for` (or :func:`in_language`
for passages already quoted) turns that into what a reader of a language is shown: every
SCORING.md section as its statement for players in the reader's language
(rules/statements.py; SCORING.md is the developers' notes and is never shown to players),
the rule text of the reader's language where the game has one (Trigami: en, de, fi; Trix:
de), and the others as originals named by their language ("The original rule, in German"),
for the page to fold away — by the table TRIGAMI_PARTS (the three Trigami texts, section
by section).

Source: the texts themselves; the source strings are those of rules/trigami.py, trix.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from .common import _
from .statements import NoStatement, statement

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
    """One quoted section (or one list item of it), or the statement standing for it.

    ``document`` as cited ("SCORING.md", "rules/trix.de.txt"); ``title`` the document in
    words ("Trix rules, in German"; an original's "The original rule, in German"; a
    statement's ""); ``lang`` the text's language ("en", "de", "fi"; a statement's the
    reader's); ``section`` as cited ("§1.2", "Scoring"); ``heading`` the section's heading
    ("1.2 Points (in this order of precedence)", "Scoring"; a statement's name); ``item``
    the first words of the one list item (or paragraph) quoted (None: the whole section);
    ``blocks`` the text.  ``name``: the section (and item) in the reader's words where the
    text's own are English, or the statement's name ("" otherwise: the heading is the
    name).  ``kind``: "quote" (a rule text, as :func:`quote` gives it), "statement" (a
    SCORING.md section stated for players) or "original" (a rule text in a language the
    reader was not given it in, for the page to show one tap away).  See
    :func:`in_language`.
    """

    document: str
    title: str
    lang: str
    section: str
    heading: str
    item: str | None
    blocks: tuple[Block, ...]
    name: str = ""
    kind: str = "quote"

    @property
    def label(self) -> str:
        """The section in words, without the heading's remark in brackets: "§1.2 Points",
        "Scoring", "§2.5 Variants — Swapped values" (with ``name``: "§1.2 Punkte"; a
        statement: its name alone, "Doubling")."""
        if self.kind == "statement":
            return self.name
        if self.name:
            return f"{self.section} {self.name}" if self.section.startswith("§") else self.name
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


@cache
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


@dataclass
class _Reading:
    """An item of :func:`blocks` while its lines are read: a table row's ``cells`` (None
    for a paragraph or list item) and ``header``, or a text with its ``level`` and
    ``marker``; :class:`Item` once its block closes."""

    text: str = ""
    level: int = 0
    marker: str = ""
    cells: list[str] | None = None
    header: bool = False


def blocks(lines: list[str], *, wrapped: bool) -> tuple[Block, ...]:
    """Section lines → paragraphs, lists and tables.

    ``wrapped``: Markdown (lines of a paragraph are joined; an indented line continues
    the list item above) rather than a plain text with one paragraph a line.
    """
    done: list[Block] = []
    kind: str | None = None
    items: list[_Reading] = []

    def close() -> None:
        nonlocal kind, items
        if kind is not None and items:
            built = []
            for entry in items:
                if entry.cells is not None:
                    built.append(Item(cells=tuple(spans(c) for c in entry.cells),
                                      header=entry.header))
                else:
                    built.append(Item(spans=spans(entry.text), level=entry.level,
                                      marker=entry.marker))
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
                    items[-1].header = True
                continue
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            items.append(_Reading(cells=cells))
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
            items.append(_Reading(text=text, level=len(indent.expandtabs()) // 2,
                                  marker=marker if marker[0].isdigit() else ""))
            continue
        if wrapped and kind == "list" and line[:1].isspace():
            items[-1].text = f"{items[-1].text} {stripped}"
            continue
        if wrapped and kind == "paragraph":
            items[-1].text = f"{items[-1].text} {stripped}"
            continue
        close()
        kind = "paragraph"
        items.append(_Reading(text=stripped))
    close()
    return tuple(done)


@cache
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


@cache
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
    ``item``, as a list block; failing that, the one paragraph that starts with it (the
    Finnish Trigami text writes some rules as paragraphs where the others list them);
    raises SourceError."""
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
    for block in found:
        if block.kind == "paragraph" and block.items[0].text.casefold().startswith(wanted):
            return (block,)
    raise SourceError(f"no list item {item!r} in {where}")


def _split(citation: str) -> tuple[str, list[str]]:
    """"SCORING.md §1.2, §1.5" → ("SCORING.md", ["§1.2", "§1.5"]);
    "rules/trix.de.txt, Abrechnung, Varianten" → ("rules/trix.de.txt", ["Abrechnung", …])."""
    citation = citation.strip()
    for document in DOCUMENTS:
        if citation == document or citation.startswith((document + " ", document + ",")):
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


# ----------------------------------------------------------------------------- by language
#
# A reader is shown, for every SCORING.md section cited, its statement for players in their
# language (rules/statements.py); the rule texts cited are quoted from the text of the
# reader's language where one exists, and otherwise offered as the original, named by its
# language, for the page to fold away.  What that takes, written out as tables so they can
# be read against the texts (and are checked by tests/test_quotes_by_language.py):

#: Each game's rule texts, by language.  Trigami has English, German and Finnish; Trix
#: only German.  SCORING.md (the app's normative summary) is English only.
RULE_TEXTS: dict[str, dict[str, str]] = {
    "trigami": {"en": "rules/trigami.en.txt", "de": "rules/trigami.de.txt",
                "fi": "rules/trigami.fi.txt"},
    "trix": {"de": "rules/trix.de.txt"},
}

#: Trigami's texts, section by section (and list item by list item where a source names
#: one): the same rule as each text cites it — "Heading" or "Heading: first words" of one
#: item (or, in the Finnish text, of one paragraph).  None: that text has no such part,
#: and the English is the original.  The English and German texts have the same nine sections
#: in the same order; the Finnish is a shorter retelling with its own sections: "Pelin
#: tavoite" (the aim of the game) stands for the overview, "Jako" (the deal) covers the bid
#: cards and the deal, its last line ("Sopiva pistetavoite…") is all it says of winning,
#: and it has no tips or variants.  The Finnish scores by paragraphs and its own list of
#: special cases: its "every trick" item also gives the 200 after Turnip or Doublets.
TRIGAMI_PARTS: tuple[tuple[str, str, str | None], ...] = (
    # (en, de, fi)
    ("Overview", "Überblick", "Pelin tavoite"),
    ("Overview: Players", "Überblick: Spieler", None),
    ("Overview: You need", "Überblick: Du brauchst", None),
    ("The cards", "Die Karten", "Jako"),
    ("Setup", "Vorbereitung", "Jako"),
    ("Setup: Choose the first dealer", "Vorbereitung: Der erste Geber", None),
    ("Bidding", "Bieten", "Tarjoukset"),
    ("Bidding: Turnip", "Bieten: Turnip", "Tarjoukset: Turnipsi"),
    ("Bidding: Doublets", "Bieten: Doublets", "Tarjoukset: Tupla tai kuitti"),
    ("Playing", "Das Spiel", "Pelin kulku"),
    ("Playing: The player to the dealer's left", "Das Spiel: Der Spieler links vom Geber", None),
    ("Scoring", "Abrechnung", "Pisteenlasku"),
    ("Scoring: Normal score", "Abrechnung: Normal", "Pisteenlasku: Jokaisesta voitetusta tikistä"),
    ("Scoring: Clean tricks", "Abrechnung: Saubere Stiche", "Pisteenlasku: Jos pelaajalla ei ole"),
    ("Scoring: No tricks", "Abrechnung: Kein Stich", "Pisteenlasku: Jos jää kokonaan ilman tikkejä"),
    ("Scoring: Every trick", "Abrechnung: Alle Stiche: Hast du", "Pisteenlasku: Jos voittaa kaikki tikit"),
    ("Scoring: Turnip", "Abrechnung: Turnip", "Pisteenlasku: Jos lupasi turnipsin"),
    ("Scoring: Doublets", "Abrechnung: Doublets", "Pisteenlasku: Jos lupasi tuplan ja kuitin"),
    ("Scoring: Winning every trick", "Abrechnung: Alle Stiche nach", "Pisteenlasku: Jos voittaa kaikki tikit"),
    ("Winning the game", "Spielende", "Pisteenlasku: Sopiva pistetavoite"),
    ("Tips for beginners", "Tipps für Einsteiger", None),
    ("Variants", "Varianten", None),
    ("Variants: Other bid ranks", "Varianten: Andere Bietkarten", None),
    ("Variants: Plain Bugami for three", "Varianten: Einfaches Bugami zu dritt", None),
)


def original_title(lang: str) -> str:
    """The title of a rule text offered in a language the reader does not read: "The
    original rule, in German"; raises SourceError for a language no rule text is in."""
    titles = {
        "de": _("The original rule, in German"),
        "en": _("The original rule, in English"),
        "fi": _("The original rule, in Finnish"),
    }
    try:
        return titles[lang]
    except KeyError:
        raise SourceError(f"no rule text in {lang!r}") from None


def section_name(document: str, section: str, item: str | None = None) -> str | None:
    """An English text's section (and item) named in the reader's words: ("SCORING.md",
    "§2.5", "Swapped values") → "Variants — Swapped values" in English, "Varianten —
    Getauschte Werte" in German; None for a document not in English or a section without a
    name here.  The English names are the texts' own headings without their remarks in
    brackets, so an English reader's labels are the headings."""
    if document == "SCORING.md":
        names = {
            "§1": _("Trigami (David Parlett), {n} players").format(n=3),
            "§1.1": _("Per deal, per player, what is entered"),
            "§1.2": _("Points"),
            "§1.3": _("Consistency checks on a deal"),
            "§1.4": _("The game"),
            "§1.5": _("Plain Bugami for three"),
            "§2": _("Trix, {n} players").format(n=4),
            "§2.1": _("Contracts and points"),
            "§2.2": _("Doubling"),
            "§2.3": _("Consistency checks"),
            "§2.4": _("Bad hand"),
            "§2.5": _("Variants"),
        }
        items = {
            "No doubling": _("No doubling"),
            "Swapped values": _("Swapped values"),
            "Fixed order": _("Fixed order"),
            "Reversed scoring": _("Reversed scoring"),
            "Partners": _("Partners"),
            "Trix Complex": _("Trix Complex"),
        }
    elif document == "rules/trigami.en.txt":
        names = {
            "Overview": _("Overview"),
            "The cards": _("The cards"),
            "Setup": _("Setup"),
            "Bidding": _("Bidding"),
            "Playing": _("Playing"),
            "Scoring": _("Scoring"),
            "Winning the game": _("Winning the game"),
            "Tips for beginners": _("Tips for beginners"),
            "Variants": _("Variants"),
        }
        items = {
            "Plain Bugami for three": _("Plain Bugami for three"),
            "Other bid ranks": _("Other bid ranks"),
            "Choose the first dealer": _("Choose the first dealer"),
            "The player to the dealer's left": _("The player to the dealer's left"),
        }
    else:
        return None
    name = names.get(section)
    if name is None or (item and item not in items):
        return None
    return f"{name} — {items[item]}" if item else name


def _game(document: str) -> str | None:
    """"rules/trigami.de.txt" → "trigami"; None for SCORING.md."""
    for game, texts in RULE_TEXTS.items():
        if document in texts.values():
            return game
    return None


def _part(passage: Passage) -> str:
    """A rule-text passage as a part of TRIGAMI_PARTS: "Scoring", "Variants: Plain…"."""
    return passage.section + (f": {passage.item}" if passage.item else "")


_COLUMNS = ("en", "de", "fi")  # TRIGAMI_PARTS' columns


def _counterpart(passage: Passage, language: str) -> str | None:
    """The citation of a Trigami rule-text passage in ``language``'s text
    ("rules/trigami.de.txt, Abrechnung"), by TRIGAMI_PARTS; None when that text has no such
    part (or the passage is not found in the table)."""
    column = _COLUMNS.index(passage.lang)
    wanted = _part(passage).casefold()
    for row in TRIGAMI_PARTS:
        name = row[column]
        if name is not None and name.casefold() == wanted:
            part = row[_COLUMNS.index(language)]
            return None if part is None else f"{RULE_TEXTS['trigami'][language]}, {part}"
    return None


def _named(passage: Passage) -> Passage:
    """The passage with its section named in the reader's words (English texts)."""
    return replace(passage, name=section_name(passage.document, passage.section, passage.item) or "")


def _stated(passage: Passage, language: str) -> Passage:
    """A SCORING.md passage as its statement for players (rules/statements.py), in the
    current translator's language (``language``, as the page says it); raises SourceError
    for a section without a statement."""
    try:
        said = statement(passage.section, passage.item)
    except NoStatement as error:
        raise SourceError(str(error)) from None
    lines: list[str] = []
    for paragraph in said.paragraphs:
        lines += [f"- {item}" for item in paragraph] if isinstance(paragraph, tuple) else [paragraph]
        lines.append("")
    return replace(passage, kind="statement", title="", lang=language, heading=said.name,
                   name=said.name, blocks=blocks(lines, wrapped=False))


def in_language(passages: tuple[Passage, ...] | list[Passage], language: str) -> tuple[Passage, ...]:
    """What one explanation shows a reader of ``language`` ("en", "de", "fi", "ar", …) of
    the rules it cites.

    ``passages``: what the explanation quotes (from :func:`quote` or :func:`quote_all`).
    Returns, each once and in the order cited: first the statements for players of the
    SCORING.md sections (``kind`` "statement", in the reader's language: SCORING.md is the
    developers' notes and is never shown), then the rule texts quoted in the reader's
    language (``kind`` "quote"), then the rule texts there is none of in that language,
    as they are written (``kind`` "original", titled by :func:`original_title`, for the
    page to show one tap away).  Doing it again for the same language changes nothing.
    Raises SourceError for a section without a statement or a table entry the texts lack
    (tests quote every one).

    - A Trigami rule-text passage is quoted from the reader's language's text by
      TRIGAMI_PARTS (English, German, Finnish); where that text has no such part, or
      there is no text in that language (Arabic), the one cited is the original.
    - The German Trix text is quoted for a German reader, the original for any other.
    - English texts' section names in the reader's words (:func:`section_name`); a rule
      text quoted in its own language keeps its headings, and so does an original: all of
      it is in its own language, under a title in the reader's.
    """
    stated: list[Passage] = []
    own: list[Passage] = []
    originals: list[Passage] = []
    for passage in passages:
        if passage.kind == "statement" or passage.document == "SCORING.md":
            stated.append(passage if passage.kind == "statement" and passage.lang == language
                          else _stated(passage, language))
        elif passage.kind == "original" or passage.lang == language:
            (originals if passage.kind == "original" else own).append(passage)
        elif _game(passage.document) == "trigami" and language in RULE_TEXTS["trigami"] \
                and (citation := _counterpart(passage, language)):
            own += quote(citation)
        else:
            originals.append(replace(passage, kind="original", title=original_title(passage.lang), name=""))
    out: list[Passage] = []
    seen: set[tuple[str, str, str, str]] = set()
    for passage in stated + [_named(p) for p in own] + originals:
        key = (passage.kind, passage.document, passage.section.casefold(), (passage.item or "").casefold())
        if key not in seen:
            seen.add(key)
            out.append(passage)
    return tuple(out)


def quote_for(source: str, language: str) -> tuple[Passage, ...]:
    """:func:`quote` for a reader of ``language``: statements for players, the rule text
    of that language where one exists, the others as originals (see :func:`in_language`).
    Pure: the language is an argument; statements, titles and names go through ``_()``
    like :func:`document_title`.  Raises SourceError."""
    return in_language(quote(source), language)


__all__ = ["DOCUMENTS", "RULE_TEXTS", "TRIGAMI_PARTS", "Block", "Item", "Passage", "SourceError",
           "Span", "document_title", "in_language", "original_title", "quote", "quote_all",
           "quote_for", "read_text", "section_name"]
