"""Scorekeeper: keeps score at the card table (Trigami, plain Bugami for three, Trix)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

_PACKAGE = Path(__file__).resolve().parent
_PROJECT = _PACKAGE.parent


def _asset_folder(name: str) -> str:
    """templates/ and static/ ship inside the wheel (scorekeeper/templates, …); in a
    source checkout they sit beside the package. Prefer the package copy."""
    packaged = _PACKAGE / name
    return str(packaged if packaged.is_dir() else _PROJECT / name)


def _secret_key(instance_path: str) -> str:
    """The instance folder's secret key, generated on first use and kept there."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    return path.read_text().strip()


def create_app(test_config: dict[str, Any] | None = None, instance_path: str | None = None) -> Flask:
    """Build the app: defaults, then instance/config.py, then SCOREKEEPER_* environment
    variables (Flask's from_prefixed_env), then ``test_config``.

    Config keys: DATABASE (the SQLite file, default instance/scorekeeper.sqlite3),
    SECRET_KEY (generated into instance/secret_key when not configured), PUBLIC_URL (the
    address phones open, "http://192.168.1.20:5000"; set by ``scorekeeper serve``).
    """
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=instance_path or os.environ.get("SCOREKEEPER_INSTANCE_PATH") or None,
        template_folder=_asset_folder("templates"),
        static_folder=_asset_folder("static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "scorekeeper.sqlite3"),
        SECRET_KEY=None,
        WTF_CSRF_TIME_LIMIT=None,  # a game evening is long; the token lives with the session
        BABEL_DEFAULT_LOCALE="en",
        MAX_CONTENT_LENGTH=1024 * 1024,
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env("SCOREKEEPER")
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    from . import db, i18n, views

    i18n.init_app(app)
    db.init_app(app)
    views.init_app(app)
    return app
