"""Configuration: instance folder, SCOREKEEPER_* variables, a generated secret key."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from scorekeeper import create_app


def test_database_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_DATABASE", str(tmp_path / "env.sqlite3"))
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-env")
    app = create_app()
    assert app.config["DATABASE"] == str(tmp_path / "env.sqlite3")
    assert (tmp_path / "env.sqlite3").exists()  # created and migrated on start
    assert app.config["SECRET_KEY"] == "from-env"


def test_secret_key_is_generated_once_into_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    monkeypatch.setenv("SCOREKEEPER_DATABASE", str(tmp_path / "k.sqlite3"))
    first = create_app(instance_path=str(tmp_path / "instance"))
    second = create_app(instance_path=str(tmp_path / "instance"))
    key_file = tmp_path / "instance" / "secret_key"
    assert key_file.exists() and len(first.config["SECRET_KEY"]) >= 32
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]  # kept, so sessions survive a restart
    assert key_file.stat().st_mode & 0o077 == 0  # readable by its owner only


def test_no_page_loads_anything_from_the_internet(client, make_game):
    game_id = make_game()
    for url in ("/", "/games/new?kind=trix", f"/games/{game_id}", f"/games/{game_id}/deals/new"):
        page = client.get(url).get_data(as_text=True)
        # the sheet shows its own address as text, for another phone: it loads nothing
        page = re.sub(r'<p class="join-address">.*?</p>', "", page, flags=re.S)
        assert "http://" not in page and "https://" not in page and "//cdn" not in page
    css = Path(__file__).resolve().parent.parent.joinpath("static", "app.css").read_text()
    assert "url(" not in css and "@import" not in css


def test_every_template_string_goes_through_gettext():
    """Visible English in templates sits inside _() (a cheap check: no bare words between tags
    except symbols and template expressions)."""
    import re

    root = Path(__file__).resolve().parent.parent / "templates"
    offenders = []
    for path in root.rglob("*.html"):
        source = re.sub(r"{#.*?#}|{%.*?%}|{{.*?}}|<script.*?</script>|<style.*?</style>", "", path.read_text(), flags=re.S)
        for chunk in re.findall(r">([^<>]+)<", source):
            if re.search(r"[A-Za-z]{2,}", chunk):
                offenders.append(f"{path.name}: {chunk.strip()}")
    assert offenders == []


def test_rules_modules_have_documented_public_functions():
    for name in ("trigami.py", "trix.py", "common.py"):
        tree = ast.parse((Path(__file__).resolve().parent.parent / "scorekeeper" / "rules" / name).read_text())
        methods = [n for c in tree.body if isinstance(c, ast.ClassDef) for n in c.body]
        for node in tree.body + methods:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
                assert ast.get_docstring(node), f"{name}: {node.name} has no docstring"
