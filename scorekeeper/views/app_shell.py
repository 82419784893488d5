"""What makes the app installable on a phone's home screen: the web app manifest and its
icons (static/icons/, drawn in icon.svg and icon-maskable.svg, rendered by
tools/render_icons.py). The service worker and the offline page: views/offline.py.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, url_for
from flask_babel import gettext as _

from ..i18n import template_context

bp = Blueprint("app_shell", __name__)

# base.html's theme colour: the top bar's card-table green
THEME_COLOR = "#1d5c3a"
# The light theme's page colour (app.css --bg): the splash screen while the app starts
BACKGROUND_COLOR = "#f4f1ea"

# The PNG icons in static/icons/: (file, size in pixels, purpose). "maskable" is green to
# every edge with the spade inside the central 80 %, for phones that cut their own shape.
ICONS = (
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
)


def manifest_members() -> dict[str, object]:
    """The manifest (W3C Web Application Manifest) as a dict: names and description in the
    request's language, start_url and scope the home page (past games, "Carry on"), one
    window without browser bars, colours, and ICONS with their URLs."""
    context = template_context()
    home = url_for("games.index")
    return {
        "name": _("Scorekeeper"),
        "short_name": _("Scorekeeper"),
        "description": _("Keeps score at the card table: Trigami, plain Bugami for three and Trix."),
        "lang": context["lang"],
        "dir": context["text_direction"],
        "id": home,
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [{"src": url_for("static", filename=path), "sizes": f"{size}x{size}",
                   "type": "image/png", "purpose": purpose} for path, size, purpose in ICONS],
    }


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    return Response(json.dumps(manifest_members(), ensure_ascii=False, indent=2),
                    mimetype="application/manifest+json")
