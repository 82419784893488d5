"""Scorekeeper: keeps score at the card table (Trigami, plain Bugami for three, Trix).

The package is the app (``flask --app scorekeeper``): :func:`create_app` is app.py's.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
