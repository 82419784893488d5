"""Build hook (hatchling): the translation catalogues are compiled as the package is
built, so that ``pip install .`` (and the editable install ``make run`` and ``make test``
make) serve every language with no extra step.

Each ``scorekeeper/translations/<language>/LC_MESSAGES/messages.po`` becomes the
``messages.mo`` beside it (Babel, as ``pybabel compile`` would), in the source tree —
where an editable install reads it — and in the wheel. The .mo files are built, never
committed (.gitignore).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # imported by the tests (tests/test_catalogues.py), outside a build
    BuildHookInterface = object  # type: ignore[assignment,misc]


def compile_catalogues(root: Path) -> list[Path]:
    """Compile every catalogue under ``root``/scorekeeper/translations; returns the .mo
    files written. A catalogue that is broken stops the build (babel raises)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted((root / "scorekeeper" / "translations").glob("*/LC_MESSAGES/messages.po")):
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name)
        mo = po.with_suffix(".mo")
        # written beside it, then put in its place at once: a server or a test reading the
        # catalogue meanwhile (a build while the suite runs) reads the old file or the new
        # one, never half of one
        fresh = mo.with_name(f".{os.getpid()}.{mo.name}")  # ignored by git, as *.mo
        with fresh.open("wb") as target:
            write_mo(target, catalog, use_fuzzy=False)
        os.replace(fresh, mo)
        written.append(mo)
    return written


class CatalogueHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        for mo in compile_catalogues(root):
            build_data["artifacts"].append(str(mo.relative_to(root)))
