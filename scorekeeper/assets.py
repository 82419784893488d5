"""The app's file fingerprint: which version of static/ and templates/ this server runs.

Static URLs carry it (``?v=``: such a file is cached a year, immutable, by the app
factory), kept pages and score sheets are keyed by it, and the service worker's cache is
named after it (views/offline.py), so a new version of the app replaces the old one on a
phone's next visit with connection.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Flask

#: Where the fingerprint is kept once worked out (``app.extensions``); a test sets it to
#: stand for a new version of the files
EXTENSION = "scorekeeper_assets"


def asset_version(app: Flask) -> str:
    """A fingerprint of ``app``'s files (static/ and templates/: their paths and bytes), 12
    hex digits, computed once per start (a restart after an update computes it anew)."""
    version: str | None = app.extensions.get(EXTENSION)
    if version is None:
        digest = hashlib.sha256()
        for folder in (app.static_folder, app.template_folder):
            root = Path(app.root_path, folder or "")
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
        version = app.extensions[EXTENSION] = digest.hexdigest()[:12]
    return version
