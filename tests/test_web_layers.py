"""The web layer's modules look down only (issue 17): access control (access.py) and the
forms (forms/) import no view, and the names the forms, templates and the change history
share (names.py) import nothing of the web layer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


def imported(path: Path) -> set[str]:
    """The project modules ``path`` imports (anywhere in it, functions too), as dotted
    names below scorekeeper ("views.games", "forms.fields", "i18n")."""
    here = path.relative_to(PACKAGE).with_suffix("").parts
    package = here[:-1]  # a module's package; an __init__.py's own package
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - (node.level - 1)]
            module = [*base, *(node.module.split(".") if node.module else [])]
            names = [".".join(module)] if node.module else [".".join([*module, a.name]) for a in node.names]
            found.update(n for n in names if n)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scorekeeper."):
            found.add((node.module or "").removeprefix("scorekeeper."))
    return found


@pytest.mark.parametrize("path", [PACKAGE / "access.py", *sorted((PACKAGE / "forms").glob("*.py"))],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_access_control_and_the_forms_import_no_view(path):
    assert not {m for m in imported(path) if m == "views" or m.startswith("views.")}


def test_the_names_are_below_the_web_layer():
    web = ("views", "forms", "access", "limits")
    assert not {m for m in imported(PACKAGE / "names.py") if m.split(".")[0] in web}


def test_the_check_finds_an_import_of_a_view():
    # the check itself: a view importing the shared helpers is seen
    assert "views.common" in imported(PACKAGE / "views" / "groups" / "settings.py")
