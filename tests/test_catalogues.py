"""The translation catalogues (scorekeeper/translations/<language>/LC_MESSAGES/messages.po):
complete, their placeholders those of the English, and compiled by the build (hatch_build.py)
into what Flask-Babel reads. A catalogue with an empty or fuzzy entry, or a translation
that drops or renames a ``%(name)s`` or ``{name}``, would show a player English or break
a page."""

from __future__ import annotations

import gettext
import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = sorted((ROOT / "scorekeeper" / "translations").glob("*/LC_MESSAGES/messages.po"))
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w*)\}")


def _read(path: Path):
    with path.open("rb") as source:
        return read_po(source, locale=path.parent.parent.name)


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def test_there_are_catalogues_for_german_finnish_and_arabic():
    assert {path.parent.parent.name for path in CATALOGUES} >= {"de", "fi", "ar"}


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_every_entry_is_translated_and_none_is_fuzzy(path):
    catalog = _read(path)
    empty = [m.id for m in catalog if m.id and not all(m.string if isinstance(m.string, tuple) else [m.string])]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not empty and not fuzzy, (empty[:5], fuzzy[:5])
    assert len([m for m in catalog if m.id]) > 800


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_every_translation_keeps_the_placeholders_of_the_english(path):
    wrong = []
    for message in _read(path):
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            # plural: each form uses only the English forms' placeholders, and every one
            # that both have, but the count: a form may say it in words ("%(num)s" in
            # gettext's messages, "{n}" in the rules' _n), as Arabic's forms for one and
            # two do ("لطشة واحدة", "لطشتان")
            singular, plural = placeholders(message.id[0]), placeholders(message.id[1])
            for form in message.string:
                if placeholders(form) - (singular | plural) or (singular & plural) - {"num", "n"} - placeholders(form):
                    wrong.append((message.id[0], form))
        elif placeholders(message.string) != placeholders(message.id):
            wrong.append((message.id, message.string))
    assert not wrong, wrong[:10]


def test_the_build_compiles_each_catalogue_into_what_gettext_reads(tmp_path):
    sys.path.insert(0, str(ROOT))
    try:
        from hatch_build import compile_catalogues
    finally:
        sys.path.remove(str(ROOT))
    written = compile_catalogues(ROOT)
    assert sorted(mo.with_suffix(".po") for mo in written) == CATALOGUES
    for mo in written:
        with mo.open("rb") as compiled:
            translations = gettext.GNUTranslations(compiled)
        catalog = _read(mo.with_suffix(".po"))
        sample = next(m for m in catalog if m.id == "Start a group")
        assert translations.gettext("Start a group") == sample.string != "Start a group"


def test_a_finnish_compound_tail_stays_with_its_words():
    """Finnish joins a compound of several words with a space and a hyphen ("tupla tai
    kuitti -tarjous"): the space is a no-break space, so that a phone never leaves "kuitti
    -" at a line's end and "-tarjous" on the next (tester 57, at 320 px)."""
    catalogue = _read(ROOT / "scorekeeper" / "translations" / "fi" / "LC_MESSAGES" / "messages.po")
    broken = [text for message in catalogue if message.id
              for text in (message.string if isinstance(message.string, tuple) else (message.string,))
              if re.search(r"\w -\w", text or "")]
    assert broken == []
