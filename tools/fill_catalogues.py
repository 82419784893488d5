"""Fill the catalogues from a JSON file of translations, after ``make messages``.

    python tools/fill_catalogues.py new-strings.json [more.json ...]

Each file is a list of entries, one a message:

    [{"msgid": "Deal %(n)s saved", "de": "Runde %(n)s gespeichert", "fi": "…", "ar": "…"},
     {"msgid": "%(num)s deal", "plural": "%(num)s deals",
      "de": ["%(num)s Runde", "%(num)s Runden"], "fi": [...], "ar": [six forms]},
     {"msgid": "diamonds", "context": "counted", "de": "Karo", ...}]

A plural entry gives as many forms as the language's Plural-Forms (German and Finnish 2,
Arabic 6). The entry must be in the catalogue already (``make messages`` puts it there);
its translation is set and its fuzzy flag cleared. An entry not found is reported and the
exit status is 1, so a forgotten ``make messages`` shows. Helpers on a branch keep their
new strings in such a file, so that they can be put into main's catalogues again after a
merge (the .po files' line references make their own merges noisy).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent / "scorekeeper" / "translations"


def main(paths: list[str]) -> int:
    entries = [entry for path in paths for entry in json.loads(Path(path).read_text(encoding="utf-8"))]
    missing = 0
    for po_path in sorted(ROOT.glob("*/LC_MESSAGES/messages.po")):
        language = po_path.parent.parent.name
        with po_path.open("rb") as f:
            catalog = read_po(f, locale=language)
        for entry in entries:
            if language not in entry:
                continue
            key = (entry["msgid"], entry["plural"]) if "plural" in entry else entry["msgid"]
            message = catalog.get(entry["msgid"], context=entry.get("context"))
            if message is None:
                print(f"{language}: not in the catalogue (run make messages?): {entry['msgid']!r}")
                missing += 1
                continue
            text = entry[language]
            if isinstance(key, tuple):
                if not isinstance(text, list) or len(text) != catalog.num_plurals:
                    print(f"{language}: {catalog.num_plurals} plural forms wanted for {entry['msgid']!r}")
                    missing += 1
                    continue
                message.string = tuple(text)
            else:
                message.string = text
            message.flags.discard("fuzzy")
        with po_path.open("wb") as f:
            write_po(f, catalog, width=76)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
