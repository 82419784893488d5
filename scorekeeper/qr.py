"""QR codes drawn on the server as SVG path data (segno makes the code), so the score sheet
shows one with no JavaScript and nothing fetched from the web. No Flask here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

# White modules around the code: the QR specification's quiet zone, 4 modules wide, which
# a phone's camera needs to find the code; drawn inside the SVG so no page style can drop it
QUIET_ZONE = 4


@dataclass(frozen=True)
class QrCode:
    """text: what the code holds; size: modules across (and down), the quiet zone included;
    path: SVG path data of the dark modules, one unit a module, to draw in a
    ``viewBox="0 0 size size"`` on white."""

    text: str
    size: int
    path: str


@lru_cache(maxsize=1024)  # a few ms each; the sheet is drawn again after every deal (a club night: 200 tables)
def qr_code(text: str) -> QrCode:
    """A regular QR code (never a Micro QR, which phone cameras do not read) of ``text``,
    error correction M or better (segno raises it when that costs no extra size).

    Each row's runs of dark modules become one rectangle each ("M4 4h7v1h-7z"): whole
    units, so with ``shape-rendering="crispEdges"`` no seam shows between rows.
    """
    import segno

    code = segno.make(text, error="m", micro=False)
    runs: list[str] = []
    for y, row in enumerate(code.matrix, start=QUIET_ZONE):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                width = x - start
                runs.append(f"M{start + QUIET_ZONE} {y}h{width}v1h-{width}z")
            else:
                x += 1
    return QrCode(text=text, size=len(code.matrix) + 2 * QUIET_ZONE, path="".join(runs))
