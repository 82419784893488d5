"""Without connection: the service worker (/sw.js), which keeps the app's files and the
pages a phone opened, and the page it shows for one never opened (/offline)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, url_for

from ..assets import asset_version

bp = Blueprint("offline", __name__)

#: How many pages a phone's service worker keeps besides the shell (the oldest goes first)
KEPT_PAGES = 150


def shell_urls() -> list[str]:
    """What the service worker keeps from its first visit: the style, the script, the
    icons, the home page and the page shown for a page never opened before."""
    version = asset_version(current_app)
    return [url_for("static", filename=name, v=version) for name in ("app.css", "app.js", "icons/icon.svg")] + [
        url_for("games.index"), url_for("offline.page")]


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker (templates/sw.js), at the top so that it may serve every page.
    Never cached by the browser: its bytes change with the app's files
    (assets.asset_version), which is how a phone learns of a new version of the app."""
    body = render_template("sw.js", version=asset_version(current_app), shell=shell_urls(),
                           offline=url_for("offline.page"), kept_pages=KEPT_PAGES)
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/offline")
def page() -> str:
    """Shown by the service worker, without connection, for a page this phone never
    opened: what to do, and that the sheets opened before are still there."""
    return render_template("offline.html")
