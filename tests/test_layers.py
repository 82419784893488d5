"""The layers only look down (issue 17): rules (pure) ← records (the stored game's types)
← store (SQL) ← … ← web ← app factory. Read from the import graph, counting every import
of a project module, at the top of a file or inside a function (an import moved into a
function to dodge a cycle still makes one)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """``scorekeeper.views.deals`` for scorekeeper/views/deals.py (a package's __init__.py
    is the package)."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_imports(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module of the package at ``root`` that ``path`` imports, anywhere in the
    file: ``from . import a, b`` counts ``scorekeeper.a`` and ``scorekeeper.b`` (a name
    that is no module counts as the module it comes from)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    modules = {module_name(p, root) for p in root.rglob("*.py")}
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            targets = [f"{source}.{alias.name}" for alias in node.names] or [source]
            targets = [t if t in modules else source for t in targets]
        else:
            continue
        found.update(t for t in targets if t == "scorekeeper" or t.startswith("scorekeeper."))
    return found - {name}


def test_the_graph_counts_imports_inside_functions(tmp_path):
    root = tmp_path / "scorekeeper"
    for module in ("__init__.py", "summaries.py", "sheet.py", "views/__init__.py", "views/deals.py"):
        (root / module).parent.mkdir(parents=True, exist_ok=True)
        (root / module).write_text("")
    sneaky = root / "store.py"
    sneaky.write_text("import json\n\n\ndef f():\n    from . import summaries\n"
                      "    from .views import deals\n    import scorekeeper.sheet\n")
    assert project_imports(sneaky, root) == {"scorekeeper.summaries", "scorekeeper.views.deals",
                                             "scorekeeper.sheet"}


#: Pure helpers below everything: what records.py may build on besides rules/
PURE = {"scorekeeper.gamefile", "scorekeeper.inputs", "scorekeeper.text"}


def test_records_know_no_database_and_no_web():
    """records.py (StoredGame, StoredDeal, Change) is plain data: it imports rules/ and the
    pure helpers only, never the store, the database, the summaries or a view."""
    imported = project_imports(PACKAGE / "records.py")
    assert imported, "records.py builds on gamefile"
    assert {m for m in imported if not (m in PURE or m == "scorekeeper.rules" or m.startswith("scorekeeper.rules."))} \
        == set()
    for below in ("store", "db", "summaries", "groups", "migrations", "views", "forms", "sheet", "stats"):
        assert not any(m == f"scorekeeper.{below}" or m.startswith(f"scorekeeper.{below}.") for m in imported)


@pytest.mark.parametrize("above", ["summaries", "sheet", "stats", "groups", "views", "forms", "actions",
                                   "history", "conflicts", "app", "cli", "db"])
def test_the_store_imports_nothing_above_it(above):
    """store.py is SQL, transactions and the change log: the summaries are kept through
    its after_write hook (db.connect wires it), so it imports none of them, nor any
    read model, view or form."""
    imported = project_imports(PACKAGE / "store.py")
    assert not any(m == f"scorekeeper.{above}" or m.startswith(f"scorekeeper.{above}.") for m in imported), imported


@pytest.mark.parametrize("path", sorted((PACKAGE / "rules").rglob("*.py")), ids=lambda p: p.name)
def test_the_rules_import_only_the_rules(path):
    """rules/ is the pure core: nothing in it imports the rest of the package."""
    outside = {m for m in project_imports(path) if not m.startswith("scorekeeper.rules")}
    assert outside == set()


@pytest.mark.parametrize("reader", ["sheet", "stats", "conflicts", "history"])
def test_the_read_models_read_records_not_the_store(reader):
    """What reads a game (the sheet, statistics, history, what arrived meanwhile) takes
    records and no database."""
    imported = project_imports(PACKAGE / f"{reader}.py")
    assert "scorekeeper.records" in imported
    assert not {"scorekeeper.store", "scorekeeper.db", "scorekeeper.summaries"} & imported


def test_the_import_graph_has_no_cycle():
    """No module reaches itself again through the modules it imports (imports inside
    functions counted): the one-way flow the architecture page draws."""
    graph = {module_name(path): project_imports(path) for path in PACKAGE.rglob("*.py")}
    # a package's own __init__ runs before its modules: importing scorekeeper.x also
    # imports scorekeeper, so a package's __init__ is not an edge back
    state: dict[str, str] = {}
    cycles: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for target in sorted(graph.get(node, ())):
            if target not in graph:
                continue
            if state.get(target) == "open":
                cycles.append([*trail[trail.index(target):], target])
            elif target not in state:
                visit(target, [*trail, target])
        state[node] = "done"

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert cycles == []


def test_no_project_import_hides_inside_a_function():
    """Every project import sits at the top of its file, where the next reader sees the
    layer it reaches (issue 17: 32 imports inside functions were dodging cycles)."""
    hidden = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                relative = isinstance(node, ast.ImportFrom) and (
                    node.level > 0 or (node.module or "").startswith("scorekeeper"))
                absolute = isinstance(node, ast.Import) and any(
                    alias.name.startswith("scorekeeper") for alias in node.names)
                if relative or absolute:
                    hidden.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert hidden == []


#: Each module's layer as docs/architecture.md draws it (1, the rules and what is as
#: pure, to 6, the app factory and the command line); a package stands for its modules
LAYERS: dict[str, int] = {
    **dict.fromkeys(["rules", "gamefile", "inputs", "text", "names", "club", "nightfile", "settings", "i18n",
                     "locale_numbers"], 1),
    **dict.fromkeys(["records", "night_records", "sheet", "stats", "history", "conflicts", "explanations",
                     "export", "charts", "next_deal"], 2),
    **dict.fromkeys(["store", "summaries", "groups", "attempts", "migrations", "db", "backups", "night_store",
                     "limit_storage", "side_files", "shared_pages"], 3),
    **dict.fromkeys(["actions", "night_actions", "ratings"], 4),
    **dict.fromkeys(["views", "forms", "access", "limits", "assets", "network", "qr"], 5),
    **dict.fromkeys(["app", "cli", "__main__"], 6),
}


def _layer(module: str) -> int | None:
    """The layer of ``scorekeeper.x.y`` (its top module's, x), 6 for the package itself
    (its __init__ re-exports create_app); None for a module no layer holds."""
    if module == "scorekeeper":
        return 6
    return LAYERS.get(module.split(".")[1])


def test_every_module_has_a_layer_and_imports_nothing_above_it():
    """Tester 40: names.py (layer 1) imported i18n.py, drawn in the web layer, and three
    read models did too, while the page said "nothing imports the other way"; only
    records, store and rules were checked. Now every module is placed and every import
    (inside functions too) goes to its own layer or one below."""
    unplaced, upward = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        own = _layer(name)
        if own is None:
            unplaced.append(name)
            continue
        upward += [f"{name} ({own}) imports {target} ({_layer(target)})"
                   for target in sorted(project_imports(path)) if (_layer(target) or 0) > own]
    assert unplaced == [], "place each in LAYERS and on docs/architecture.md's drawing"
    assert upward == []


def test_the_architecture_page_draws_each_module_in_its_layer():
    """docs/architecture.md's drawing names every module of LAYERS in its layer's box,
    so that the page a newcomer reads and the check above say the same."""
    page = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawing = page[page.index("┌"):page.index("┘")]
    boxes = {int(box.group(1)): box.group(0) for box in re.finditer(r"│ (\d)  .*?(?=├|$)", drawing, re.S)}
    assert sorted(boxes) == [1, 2, 3, 4, 5, 6]
    misplaced = [f"{name} (layer {layer})" for name, layer in LAYERS.items()
                 if not re.search(rf"(?<![\w.]){re.escape(name)}(\.py|/|\s)", boxes[layer])]
    assert misplaced == []
