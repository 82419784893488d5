"""Groups on the web: joining one (joining.py), its passcode and one-time codes
(passcode.py), the group page and the read-only links (settings.py). Who may open what
is checked for every request by scorekeeper/access.py, not here.
"""

from __future__ import annotations

from . import joining, passcode, settings
from .blueprint import bp

__all__ = ["bp", "joining", "passcode", "settings"]
