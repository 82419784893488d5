"""The web app's blueprints, one module a part of the app (views/common.py holds what
they share; views/errors.py the error pages)."""

from __future__ import annotations

from flask import Flask

from .. import access
from ..assets import asset_version
from . import (
    app_shell,
    common,
    deals,
    errors,
    explain,
    games,
    groups,
    kept,
    languages,
    live,
    manage,
    nights,
    offline,
    players,
    transfer,
)


def init_app(app: Flask) -> None:
    """Register the blueprints, then what runs around every view: a body too large refused
    unread, then the link's check (access.admit); the language; the template helpers and
    the error pages."""
    app.url_map.converters["int"] = common.SqliteInt
    for module in (games, deals, explain, manage, players, transfer, app_shell, live, offline, groups, languages, nights):
        app.register_blueprint(module.bp)
    app.before_request(common.refuse_oversize)  # before access's check: a body too large is refused unread
    access.init_app(app)
    languages.init_app(app)
    kept.init_app(app)  # before the app factory sets up Flask-Compress: its cache is kept's
    common.init_templates(app)
    # static/ URLs carry the app's fingerprint, so a new version is never an old cached file
    app.jinja_env.globals["asset_version"] = lambda: asset_version(app)
    errors.init_app(app)
