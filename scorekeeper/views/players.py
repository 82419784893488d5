"""Blueprint 'players' (issue 3 work in progress: see the module's views as they land)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("players", __name__)
