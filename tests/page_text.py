"""What a player sees (or hears) of a page, for the tests that read pages' words
(tests/test_every_language.py, tests/test_explain_words.py)."""

from __future__ import annotations

from collections.abc import Set
from html.parser import HTMLParser


class PageText(HTMLParser):
    """A page's text as a player sees or hears it: its text, with the title and the
    labels (aria-label), titles, placeholders, alternative texts and button values of its
    elements, less what is never shown (script, style, template), the passages of the
    ``quoted`` classes, and a passage marked as in another language than the page
    (``lang``): anywhere, or with ``behind_a_tap`` only inside a closed ``<details>`` (an
    original rule text one tap away, named by its language). ``parts`` the pieces read,
    ``lang`` and ``dir`` the page's own."""

    HIDDEN = frozenset({"script", "style", "template"})
    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                      "source", "track", "wbr"})

    def __init__(self, quoted: Set[str] = frozenset(), behind_a_tap: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.quoted, self.only_behind_a_tap = quoted, behind_a_tap
        self.parts: list[str] = []
        self.lang = ""
        self.dir = ""
        self._stack: list[tuple[str, bool, bool]] = []  # (tag, whether its text counts, behind a tap)

    def _counts(self) -> bool:
        return not self._stack or self._stack[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.lang, self.dir = values.get("lang") or "", values.get("dir") or ""
        behind_a_tap = (bool(self._stack) and self._stack[-1][2]) or (tag == "details" and "open" not in values)
        counts = self._counts() and tag not in self.HIDDEN
        if self.quoted & set((values.get("class") or "").split()):
            counts = False
        if values.get("translate") == "no":  # an address, a command: words of no language
            counts = False
        other_language = tag != "html" and values.get("lang") not in (None, self.lang)
        if other_language and (behind_a_tap or not self.only_behind_a_tap):
            counts = False
        if counts:
            self.parts += [values[a] or "" for a in ("aria-label", "title", "placeholder", "alt") if a in values]
            if tag == "input" and values.get("type") in ("submit", "button"):
                self.parts.append(values.get("value") or "")
        if tag not in self.VOID:
            self._stack.append((tag, counts, behind_a_tap))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self._stack) - 1, -1, -1):
            if self._stack[depth][0] == tag:
                del self._stack[depth:]
                break

    def handle_data(self, data: str) -> None:
        if self._counts():
            self.parts.append(data)


def page_text(body: str, quoted: Set[str] = frozenset(), behind_a_tap: bool = False) -> PageText:
    """``body`` read by :class:`PageText`."""
    parser = PageText(quoted, behind_a_tap)
    parser.feed(body)
    parser.close()
    return parser
