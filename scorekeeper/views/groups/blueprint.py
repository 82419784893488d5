"""The one blueprint of the group pages ("groups"), whose views live in joining.py,
passcode.py and settings.py (one endpoint name space: ``groups.join``, ``groups.passcode``,
``groups.settings`` …)."""

from __future__ import annotations

from flask import Blueprint, Response, request

bp = Blueprint("groups", __name__)

#: The pages that show a way in: the group's private link and its QR code, a game's
#: read-only link, a one-time code. Kept by no cache, the phone's own included
#: ("private, no-store", as the downloads: tester 52 found them sent with none).
WAYS_IN = frozenset({"groups.settings", "groups.let_in", "groups.game_link"})


@bp.after_request
def _kept_by_no_cache(response: Response) -> Response:
    if request.endpoint in WAYS_IN:
        response.headers["Cache-Control"] = "private, no-store"
    return response
