"""The one blueprint of the group pages ("groups"), whose views live in joining.py,
passcode.py and settings.py (one endpoint name space: ``groups.join``, ``groups.passcode``,
``groups.settings`` …)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("groups", __name__)
