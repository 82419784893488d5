"""No dead CSS (issue 7, "Fast at any size"): every class and id that a selector in
static/app.css names is one that a page can carry, so a rule left behind when its markup
went fails here instead of being sent to every phone.

Where a page's classes come from:
- templates: ``class="…"`` attributes (Jinja inside them included: ``{{ 'ok' if k.ok else
  'bad' }}``, macro arguments such as ``class="seat-chips"``) and ``{% block body_class %}``;
- static/app.js: its string literals (``el("h2", "outbox-head")``, ``classList.add("news")``,
  ``querySelector(".errors")``);
- Python that writes markup (scorekeeper/**/*.py): ``class="…"`` inside a string (the suit
  symbols, views/common.py) and strings that are nothing but class names (the charts'
  ``chart-svg``, charts.py).
Ids come from templates (``id="…"``) and from form fields, whose ids are their names in
forms/: an id counts when its name is a word anywhere in templates, app.js or Python.

Parsed with tinycss2, so ``#fff`` in a value or a class inside ``:has(…)`` is read right.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import tinycss2

ROOT = Path(__file__).resolve().parent.parent
CSS = ROOT / "static" / "app.css"

# Classes a template or Python builds from a value, so their full name is written nowhere:
# class -> (the file, the expression that builds it). Each expression must still be in its
# file, and each class still in app.css: drop an entry when its rule goes.
BUILT = {
    **{f"suit-{s}": ("scorekeeper/views/common.py", 'class="suit suit-{c}"') for s in "SHDC"},
    **{f"block-{c}": ("templates/deals/_trix.html", "block-{{ name }}")
       for c in ("king", "queens", "diamonds", "tricks", "trix")},
    **{f"change-deal-{a}": ("templates/manage/history.html", "change-{{ e.change.action|replace('_', '-') }}")
       for a in ("added", "deleted", "restored")},
    # a message saying why something did not happen as tapped, never cut (views/games.py: "told")
    "flash-told": ("templates/_flashes.html", "flash-{{ category }}"),
    "level-1": ("templates/explain/_macros.html", "level-{{ item.level }}"),  # a quoted rule's nested item
    # a sheet, the printable sheet and the paper check for three or four players
    "sheet-3": ("templates/games/_sheet.html", "sheet-{{ seats }}"),
    "sheet-4": ("templates/games/_sheet.html", "sheet-{{ seats }}"),
    "paper-3": ("templates/transfer/print.html", "paper-{{ seats }}"),
    "paper-4": ("templates/transfer/print.html", "paper-{{ seats }}"),
    "paper-cells-3": ("templates/transfer/paper_check.html", "paper-cells-{{ seats }}"),
    "paper-cells-4": ("templates/transfer/paper_check.html", "paper-cells-{{ seats }}"),
}

WORD = re.compile(r"[A-Za-z_][\w-]*")
CLASS_ATTR = re.compile(r"""\bclass=(?:"((?:[^"{]|\{(?![{%])|\{\{.*?\}\}|\{%.*?%\})*)"|'([^']*)')""", re.S)
BODY_CLASS = re.compile(r"\{%-?\s*block body_class\s*-?%\}(.*?)\{%-?\s*endblock", re.S)
JS_STRING = re.compile(r"""'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`""")
CLASS_LIST = re.compile(r"\s*[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)*\s*")


def selector_names(css: str) -> tuple[set[str], set[str]]:
    """The class names and the ids named by the selectors of every style rule in ``css``,
    inside @media and @supports too."""
    classes: set[str] = set()
    ids: set[str] = set()

    def tokens(nodes):
        previous = None
        for token in nodes:
            if token.type == "hash" and token.is_identifier:
                ids.add(token.value)
            elif token.type == "ident" and previous is not None and previous.type == "literal" \
                    and previous.value == ".":
                classes.add(token.value)
            elif token.type == "function":
                tokens(token.arguments)
            elif token.type in ("() block", "[] block"):
                tokens(token.content)
            previous = token

    def rules(nodes):
        for node in nodes:
            if node.type == "qualified-rule":
                tokens(node.prelude)
            elif node.type == "at-rule" and node.content is not None \
                    and node.lower_at_keyword in ("media", "supports"):
                rules(tinycss2.parse_blocks_contents(node.content, skip_comments=True, skip_whitespace=True))

    rules(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))
    return classes, ids


def templates() -> list[Path]:
    return sorted((ROOT / "templates").rglob("*.html"))


def python_files() -> list[Path]:
    return sorted((ROOT / "scorekeeper").rglob("*.py"))


def template_classes(text: str) -> set[str]:
    found: set[str] = set()
    for match in CLASS_ATTR.finditer(text):
        found.update(WORD.findall(match.group(1) or match.group(2) or ""))
    for match in BODY_CLASS.finditer(text):
        found.update(WORD.findall(match.group(1)))
    return found


def script_classes(text: str) -> set[str]:
    found: set[str] = set()
    for match in JS_STRING.finditer(text):
        found.update(WORD.findall(next(g for g in match.groups() if g is not None)))
    return found


def python_classes(text: str) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            for attribute in CLASS_ATTR.finditer(node.value):
                found.update(WORD.findall(attribute.group(1) or attribute.group(2) or ""))
            if CLASS_LIST.fullmatch(node.value):
                found.update(node.value.split())
    return found


def classes_in_markup() -> set[str]:
    found: set[str] = set()
    for path in templates():
        found |= template_classes(path.read_text(encoding="utf-8"))
    found |= script_classes((ROOT / "static" / "app.js").read_text(encoding="utf-8"))
    for path in python_files():
        found |= python_classes(path.read_text(encoding="utf-8"))
    return found


def words_in_sources() -> set[str]:
    found: set[str] = set()
    for path in [*templates(), ROOT / "static" / "app.js", *python_files()]:
        found.update(WORD.findall(path.read_text(encoding="utf-8")))
    return found


CLASSES, IDS = selector_names(CSS.read_text(encoding="utf-8"))


def test_the_stylesheet_names_classes_and_ids():
    # a parser that read nothing would make every test below pass
    assert {"sheet", "chip", "action-bar", "suit-H", "paper-cells-3"} <= CLASSES
    assert {"fixed_order", "totals"} <= IDS


def test_every_class_in_app_css_is_one_a_page_can_carry():
    dead = CLASSES - classes_in_markup() - BUILT.keys()
    assert dead == set(), f"rules for classes no page carries: remove them from app.css: {sorted(dead)}"


def test_every_id_in_app_css_is_one_a_page_can_carry():
    dead = IDS - words_in_sources()
    assert dead == set(), f"rules for ids no page carries: remove them from app.css: {sorted(dead)}"


@pytest.mark.parametrize("name", sorted(BUILT))
def test_a_built_class_is_still_built_and_styled(name):
    path, expression = BUILT[name]
    assert expression in (ROOT / path).read_text(encoding="utf-8"), f"{path} no longer builds {name}"
    assert name in CLASSES, f"app.css no longer styles {name}: drop it from BUILT"


def test_a_rule_for_a_class_nothing_carries_fails():
    classes, ids = selector_names("""
        .sheet td, .gone-class { color: red }
        @media print { .chip:has(.also-gone) { border: 0 } }
        @supports selector(:has(*)) { #no-such-field { color: #fff } }
    """)
    assert {"gone-class", "also-gone"} <= classes - classes_in_markup()
    assert ids - words_in_sources() == {"no-such-field"}  # and #fff, a colour, is no id


def test_where_classes_come_from():
    assert template_classes('<p class="flash flash-{{ category }}">') >= {"flash", "flash-"}
    assert template_classes("""<tr class="check-row {{ 'ok' if k.ok else 'bad' }}">""") >= {"ok", "bad"}
    assert template_classes('{{ m.chips(form.turnip, class="suit-chips") }}') >= {"suit-chips"}
    assert template_classes("{% block body_class %}sheet-page{% endblock %}") == {"sheet-page"}
    assert template_classes('<p data-note="outbox-head">') == set()
    assert script_classes('el("h2", "outbox-head"); x.querySelector(".errors, [data-conflict]")') >= {
        "outbox-head", "errors"}
    assert python_classes('root.set("class", f"{root.get(\'class\', \'\')} chart-svg".strip())') >= {"chart-svg"}
    assert python_classes("Markup('<span class=\"suit suit-{c}\">')") >= {"suit"}
    assert "deal" not in python_classes('_("Deal %(n)s was added")')


# ---------------------------------------------------------------- the dark theme: colours only

DARK = re.compile(r"prefers-color-scheme\s*:\s*dark")


def colour_properties(css: str) -> tuple[dict[str, list[str]], list[str]]:
    """The custom properties the stylesheet ``css`` sets, with every value it gives each
    ({"--bg": ["#f4f1ea", "#121412"], …}), and what its dark-scheme blocks set that is
    not a custom property (``selector { declaration }``, to be none)."""
    values: dict[str, list[str]] = {}
    other: list[str] = []

    def read(rules: list, dark: bool) -> None:
        for rule in rules:
            if rule.type == "at-rule" and rule.content is not None:
                inner = dark or bool(DARK.search(tinycss2.serialize(rule.prelude)))
                read(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True), inner)
            elif rule.type == "qualified-rule":
                for item in tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True):
                    if item.type != "declaration":
                        continue
                    value = tinycss2.serialize(item.value).strip()
                    if item.name.startswith("--"):
                        values.setdefault(item.name, []).append(value)
                    elif dark:
                        other.append(f"{tinycss2.serialize(rule.prelude).strip()} {{ {item.name}: {value} }}")

    read(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True), False)
    return values, other


def not_colours(css: str) -> list[str]:
    """What the dark scheme of ``css`` changes besides colours: declarations other than
    custom properties in its dark blocks, and custom properties set there that take a
    value other than a colour anywhere (a #hex colour, or var() of such a property)."""
    values, other = colour_properties(css)
    dark_set: set[str] = set()
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if rule.type == "at-rule" and DARK.search(tinycss2.serialize(rule.prelude)):
            dark_set.update(re.findall(r"(--[\w-]+)\s*:", tinycss2.serialize(rule.content)))

    def colour(value: str, seen: frozenset[str] = frozenset()) -> bool:
        if re.fullmatch(r"#[0-9a-fA-F]{3,8}", value):
            return True
        name = re.fullmatch(r"var\((--[\w-]+)\)", value)
        return bool(name) and name.group(1) not in seen and all(  # type: ignore[union-attr]
            colour(v, seen | {name.group(1)}) for v in values.get(name.group(1), ["?"]))  # type: ignore[union-attr]

    return other + [f"{name}: {value}" for name in sorted(dark_set) for value in values[name] if not colour(value)]


def test_the_dark_theme_changes_colours_and_nothing_else():
    # tests/a11y_support.py audits the dark theme for the rules about colours alone
    assert not_colours(CSS.read_text(encoding="utf-8")) == []
    assert {"--bg", "--ink", "--seat-0"} <= colour_properties(CSS.read_text(encoding="utf-8"))[0].keys()
    # … and nothing else on a page follows the phone's scheme but its status bar's colour
    for path in [*templates(), *(ROOT / "static").glob("*.js")]:
        for line in path.read_text(encoding="utf-8").splitlines():
            assert not DARK.search(line) or '<meta name="theme-color"' in line, f"{path.name}: {line.strip()}"


def test_a_dark_theme_that_changes_more_than_colours_fails():
    css = """:root { --bg: #fff; --tap: 48px; --ink: #000; }
             @media (prefers-color-scheme: dark) {
               :root { --bg: #111; --tap: 40px; --ink: var(--bg); }
               .sheet td { padding: 0; }
             }"""
    assert not_colours(css) == [".sheet td { padding: 0 }", "--tap: 48px", "--tap: 40px"]
