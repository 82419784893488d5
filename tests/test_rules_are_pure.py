"""rules/ knows no web and no database (STYLE.md, "The shape"): standard library only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "scorekeeper" / "rules"
FORBIDDEN = {"flask", "wtforms", "flask_wtf", "flask_babel", "sqlite_utils"}


def imported_modules(path: Path) -> set[str]:
    """The top-level names of every module ``path`` imports, anywhere in the file."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "__import__" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value.split(".")[0])
    return names


def test_there_are_rules_to_check():
    assert (RULES / "common.py").is_file()


@pytest.mark.parametrize("path", sorted(RULES.rglob("*.py")), ids=lambda p: p.name)
def test_rules_import_no_web_or_database(path):
    assert imported_modules(path) & FORBIDDEN == set()


def test_the_check_catches_a_web_import(tmp_path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def f():\n    from flask_babel import gettext\n    import sqlite_utils.db\n")
    assert imported_modules(sneaky) & FORBIDDEN == {"flask_babel", "sqlite_utils"}
