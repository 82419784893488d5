"""Rules shown in the reader's language (issues 10, 19): every SCORING.md section cited is
stated for players in the reader's language (rules/statements.py; SCORING.md, the
developers' notes, is never shown); the rule text is quoted from the text of the reader's
language where the game has one (Trigami: en, de, fi; Trix: de), otherwise offered as the
original, named by its language ("The original rule, in German"), one tap away.

Every source string the rules and explanations produce is shown to an English, German,
Finnish and Arabic reader; each quote must be text of the file of the language expected.
The correspondences (German "Abrechnung" is English "Scoring", Finnish "Pisteenlasku") were
read off the three Trigami texts side by side; see rules/sources.py, TRIGAMI_PARTS.
"""

from __future__ import annotations

import html
import itertools
import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from scorekeeper import create_app, explanations, i18n, store
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from scorekeeper.rules import common, statements, trix
from scorekeeper.rules.sources import (
    DOCUMENTS,
    RULE_TEXTS,
    TRIGAMI_PARTS,
    Passage,
    in_language,
    original_title,
    quote,
    quote_for,
    read_text,
)
from scorekeeper.rules.trigami import BUGAMI3, TRIGAMI
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_explain import CLEAN, KINGDOM, text

READERS = ("en", "de", "fi", "ar")


# --------------------------------------------------------------------------- the sources


def _trix_line_sources() -> set[str]:
    """The sources of every line of the worked kingdom (SCORING.md §2.1, §2.2; see
    tests/test_explain.py) scored under each setting that changes a line's rule."""
    sources = set()
    for options in ({}, {"values": "swapped"}, {"scoring": "reversed"},
                    {"values": "swapped", "scoring": "reversed"}, {"partnership": "sum"}):
        file = from_dict(game_file(kind="trix", first_dealer=1, options=options, deals=KINGDOM))
        for deal in file.score().deals:
            sources.update(line.source for line in deal.lines)
    return sources


def _trigami_line_sources() -> set[str]:
    sources = set()
    for kind, deals in (("trigami", [WORKED_TRIGAMI_DEAL, CLEAN]),
                        ("bugami3", [{"bids": [{"kind": "plain", "suit": s} for s in "SHC"],
                                      "tricks": [6, 5, 6], "bugs": [1, 0, 2]}])):
        file = from_dict(game_file(kind=kind, deals=deals))
        for deal in file.score().deals:
            sources.update(line.source for line in deal.lines)
    return sources


def _every_trix_step_source() -> set[str]:
    """Every source a Trix line can carry: each combination of the kinds of its steps
    (rules/trix.py builds the string from them)."""
    keys = list(trix._SOURCES)
    return {trix._source(combo) for n in range(1, len(keys) + 1) for combo in itertools.combinations(keys, n)}


TRIGAMI_SOURCES = sorted(
    _trigami_line_sources() | {TRIGAMI.source, BUGAMI3.source}
    | {explanations.TOTAL_SOURCES[k] for k in ("trigami", "bugami3")}
    | {explanations.DEALER_SOURCES[k] for k in ("trigami", "bugami3")})
TRIX_SOURCES = sorted(
    _trix_line_sources() | _every_trix_step_source()
    | {explanations.TOTAL_SOURCES["trix"], explanations.DEALER_SOURCES["trix"], explanations.REVERSED_SOURCE,
       explanations.TEAMS_SOURCE, explanations.KINGDOM_SOURCE, explanations.DOUBLED_KINGDOM_SOURCE,
       "; ".join((explanations.KINGDOM_SOURCE, explanations.DOUBLED_KINGDOM_SOURCE, explanations.REVERSED_SOURCE))})


def test_the_sources_collected_are_the_rules_own():
    assert "SCORING.md §1.2; rules/trigami.en.txt, Scoring" in TRIGAMI_SOURCES
    assert any("Plain Bugami for three" in s for s in TRIGAMI_SOURCES)
    assert "SCORING.md §2.1, §2.2; rules/trix.de.txt, Herz-König und Damen verdoppeln" in TRIX_SOURCES
    assert any("Getauschte Werte" in s for s in _trix_line_sources())
    assert any("Umgekehrte Wertung" in s for s in _trix_line_sources())


# --------------------------------------------------------------------------- text of the file


def _plain(text: str) -> str:
    """Markdown's marks dropped and spaces folded, as quoting does (a wrapped paragraph is
    joined; **strong**, *em*, `code` lose their marks)."""
    return " ".join(re.sub(r"\*\*|`|(?<![\w*])\*|\*(?![\w*])", "", text).split())


def _pieces(passage: Passage) -> list[str]:
    """The runs of text a passage quotes: each paragraph, list item (without its marker)
    and table cell."""
    pieces = []
    for block in passage.blocks:
        for item in block.items:
            if item.cells:
                pieces += ["".join(s.text for s in cell) for cell in item.cells]
            else:
                pieces.append("".join(s.text for s in item.spans))
    return pieces


def assert_text_of_the_file(passage: Passage) -> None:
    assert passage.blocks and passage.text.strip(), passage
    document = _plain(read_text(passage.document))
    for piece in _pieces(passage):
        assert _plain(piece) in document, (passage.document, piece)


def own_documents(game: str, reader: str) -> set[str]:
    """The rule texts a reader is quoted openly: the game's text in their language."""
    return {RULE_TEXTS[game][reader]} if reader in RULE_TEXTS[game] else set()


def scoring_sections(source: str) -> list[tuple[str, str | None]]:
    """The SCORING.md sections (and items) a source string cites."""
    return [(p.section, p.item) for p in quote(source) if p.document == "SCORING.md"]


def assert_for_players(passage: Passage) -> None:
    """A statement: the reader's words, none of SCORING.md's, no file or code names."""
    assert passage.blocks and passage.text.strip(), passage
    for piece in _pieces(passage):
        assert "§" not in piece and ".md" not in piece and ".txt" not in piece and "`" not in piece, piece
        assert len(piece) < 20 or _plain(piece) not in _plain(read_text("SCORING.md")), piece
    assert "§" not in passage.label and passage.title == ""


CASES = [(source, "trigami", reader) for source in TRIGAMI_SOURCES for reader in READERS] + \
        [(source, "trix", reader) for source in TRIX_SOURCES for reader in READERS]


@pytest.mark.parametrize(("source", "game", "reader"), CASES)
def test_every_source_is_quoted_from_the_text_of_the_readers_language(source, game, reader):
    """Statements for SCORING.md, each cited section once; rule texts quoted in the
    reader's language, or offered as originals named by their language."""
    passages = quote_for(source, reader)
    assert passages, f"nothing shown of {source!r} for {reader}"
    stated = [p for p in passages if p.kind == "statement"]
    assert [(p.section, p.item) for p in stated] == scoring_sections(source)
    for passage in stated:
        assert passage.lang == reader
        assert_for_players(passage)
    for passage in passages:
        if passage.kind == "statement":
            continue
        assert_text_of_the_file(passage)
        assert passage.lang == DOCUMENTS[passage.document][1]
        assert passage.document in RULE_TEXTS[game].values(), (reader, passage.document)
        if passage.kind == "quote":
            assert passage.document in own_documents(game, reader), (reader, passage.label)
        else:
            assert passage.kind == "original" and passage.lang != reader, (reader, passage.label)
            assert passage.title == original_title(passage.lang)
    assert [p.kind for p in passages] == sorted((p.kind for p in passages),
                                                key=("statement", "quote", "original").index)
    # each passage once
    keys = [(p.kind, p.document, p.section, p.item) for p in passages]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("source", TRIGAMI_SOURCES + TRIX_SOURCES)
def test_an_english_reader_is_quoted_as_before(source):
    """English: the English Trigami text as cited, same labels; SCORING.md stated, not
    quoted; the German Trix text (the only one there is) offered as the original."""
    before = [p for p in quote(source) if p.document != "SCORING.md"]
    after = [p for p in quote_for(source, "en") if p.kind != "statement"]
    assert [(p.document, p.section, p.item, p.text, p.label) for p in after] == \
           [(p.document, p.section, p.item, p.text, p.label) for p in before]
    for passage in after:
        assert passage.kind == ("quote" if passage.lang == "en" else "original")


@pytest.mark.parametrize("source", TRIGAMI_SOURCES)
def test_a_german_reader_of_trigami_meets_no_english(source):
    """The German text has every section and item the rules cite."""
    shown = [p for p in quote_for(source, "de") if p.kind != "statement"]
    assert {(p.document, p.kind) for p in shown} == {("rules/trigami.de.txt", "quote")}


@pytest.mark.parametrize("source", TRIX_SOURCES)
def test_a_german_reader_of_trix_is_quoted_the_german_text_only(source):
    shown = [p for p in quote_for(source, "de") if p.kind != "statement"]
    assert {(p.document, p.kind) for p in shown} == {("rules/trix.de.txt", "quote")}


@pytest.mark.parametrize("source", TRIGAMI_SOURCES + TRIX_SOURCES)
@pytest.mark.parametrize("reader", ("fi", "ar"))
def test_a_text_not_in_the_readers_language_is_an_original(source, reader):
    """No more English "quoted in English" notes: a text not in the reader's language is
    an original, named by its language; an Arabic reader has no rule text of their own."""
    for passage in quote_for(source, reader):
        if passage.kind != "statement" and passage.lang != reader:
            assert passage.kind == "original"
            assert passage.title in (original_title("en"), original_title("de"))
    if reader == "ar":
        assert {p.kind for p in quote_for(source, reader)} <= {"statement", "original"}
    assert not hasattr(quote_for(source, reader)[0], "note")


@pytest.mark.parametrize("source", TRIGAMI_SOURCES + TRIX_SOURCES)
@pytest.mark.parametrize("reader", READERS)
def test_quoting_again_for_the_same_reader_changes_nothing(source, reader):
    once = quote_for(source, reader)
    assert in_language(once, reader) == once


# --------------------------------------------------------------------------- by hand, from the texts


def test_a_german_reader_of_trigami_scoring_gets_abrechnung():
    points, passage = quote_for(TRIGAMI.source, "de")
    assert (points.kind, points.label) == ("statement", "Points")
    assert (passage.document, passage.label, passage.lang) == ("rules/trigami.de.txt", "Abrechnung", "de")
    assert "Saubere Stiche: Hast du Stiche, aber keine böse Karte, zählt jeder Stich 20." in passage.text
    assert "Winning the game" not in passage.text and "Die Punkte werden" not in passage.text


def test_a_finnish_reader_of_trigami_scoring_gets_pisteenlasku():
    _points, passage = quote_for(TRIGAMI.source, "fi")
    assert (passage.document, passage.label) == ("rules/trigami.fi.txt", "Pisteenlasku")
    assert passage.text.startswith("Jokaisesta voitetusta tikistä saa kymmenen pistettä.")
    assert passage.text.endswith("Sopiva pistetavoite pelille on 500 pistettä.")


def test_a_finnish_reader_of_the_winner_gets_the_finnish_target_and_the_rule_stated():
    """The Finnish text only calls 500 a suitable target; who wins on a tie is in the
    statement (SCORING.md §1.4), in the reader's language, not in English notes."""
    stated, finnish = quote_for(explanations.TOTAL_SOURCES["trigami"], "fi")
    assert finnish.text == "Sopiva pistetavoite pelille on 500 pistettä." and finnish.kind == "quote"
    assert (stated.kind, stated.section, stated.lang) == ("statement", "§1.4", "fi")
    assert "the higher total wins" in stated.text and "On a tie at the top the game goes on" in stated.text


def test_plain_bugami_for_a_finnish_reader_folds_the_english_variant():
    """The Finnish text has no plain Bugami: the English variant is the original, folded."""
    passages = quote_for(BUGAMI3.source, "fi")
    assert [(p.kind, p.document, p.label) for p in passages] == [
        ("statement", "SCORING.md", "Points"),
        ("statement", "SCORING.md", "Plain Bugami for three"),
        ("quote", "rules/trigami.fi.txt", "Pisteenlasku"),
        ("original", "rules/trigami.en.txt", "Variants — Plain Bugami for three"),
    ]
    assert passages[3].title == "The original rule, in English"


def test_a_german_reader_of_the_trigami_dealer_gets_vorbereitung_and_das_spiel():
    passages = quote_for(explanations.DEALER_SOURCES["trigami"], "de")
    assert [p.label for p in passages] == ["The game", "Vorbereitung", "Das Spiel"]
    assert "danach gibt reihum der linke Nachbar" in passages[1].text


def test_an_arabic_reader_of_trix_gets_the_rules_stated_and_the_german_original():
    """No Trix text in Arabic: the rules stated for the reader, the German text offered as
    the original (SCORING.md is never shown)."""
    passages = quote_for("SCORING.md §2.1, §2.2; rules/trix.de.txt, Herz-König und Damen verdoppeln", "ar")
    assert [(p.kind, p.section) for p in passages] == [
        ("statement", "§2.1"), ("statement", "§2.2"), ("original", "Herz-König und Damen verdoppeln")]
    assert passages[2].title == "The original rule, in German" and passages[2].lang == "de"
    assert "Bekommt ein anderer den Herz-König: Er schreibt −150, der Besitzer +75." in passages[2].text
    assert "Another player takes the doubled K♥: the taker −150, the doubler +75." in passages[1].text


def test_a_german_reader_of_a_swapped_value_gets_the_german_variant():
    source = "SCORING.md §2.1, §2.5 Swapped values; rules/trix.de.txt, Abrechnung, Varianten: Getauschte Werte"
    passages = quote_for(source, "de")
    assert [p.label for p in passages] == ["Contracts and points", "Swapped values",
                                           "Abrechnung", "Varianten — Getauschte Werte"]
    assert passages[1].text == "Diamonds cost −15 each (−195 in all) and tricks −10 each (−130 in all)."
    assert passages[3].text == "Getauschte Werte: Manche spielen Karo mit −15 pro Karte und Stiche mit −10 pro Stich."


def test_a_german_reader_of_a_doubled_queen_is_not_quoted_the_trix_contract():
    """A doubled queen costs twice its penalty: the German text says so under "Herz-König
    und Damen verdoppeln"; "Der Kontrakt Trix" (laying out the cards, the finishing
    points) has nothing to do with it, nor is anything quoted that the line does not cite."""
    passages = quote_for("SCORING.md §2.1, §2.2; rules/trix.de.txt, Herz-König und Damen verdoppeln", "de")
    assert [p.label for p in passages] == ["Contracts and points", "Doubling", "Herz-König und Damen verdoppeln"]
    assert "Eine verdoppelte Dame kostet −50" in passages[2].text


def test_a_scoring_section_cited_alone_is_its_statement():
    """A SCORING.md section cited alone (the paper check's marks) is its statement alone."""
    (passage,) = quote_for("SCORING.md §2.1", "de")
    assert (passage.kind, passage.label) == ("statement", "Contracts and points")
    (checks,) = quote_for("SCORING.md §1.3", "de")
    assert (checks.kind, checks.label) == ("statement", "Consistency checks on a deal")
    assert "the turnip goes with the last trick" in checks.text


# --------------------------------------------------------------------------- the tables


def _headings(document: str) -> list[str]:
    from scorekeeper.rules.sources import _text_sections

    return [heading for heading, _lines in _text_sections(document).values()]


def test_every_trigami_section_is_in_the_table_in_every_language():
    """Read side by side: the English and German texts have the same nine sections; every
    one, and every Finnish section, has its row (the title and the contents apart)."""
    columns = {"en": 0, "de": 1, "fi": 2}
    for language, column in columns.items():
        named = {(row[column] or "").partition(":")[0] for row in TRIGAMI_PARTS}
        headings = [h for h in _headings(RULE_TEXTS["trigami"][language]) if h not in ("Trigami", "Full rules", "Ausführliche Regeln")]
        missing = [h for h in headings if h not in named]
        assert not missing, (language, missing)


@pytest.mark.parametrize("row", TRIGAMI_PARTS, ids=lambda row: row[0])
def test_every_part_of_the_table_quotes_from_its_text(row):
    for language, part in zip(("en", "de", "fi"), row, strict=True):
        if part is not None:
            (passage,) = quote(f"{RULE_TEXTS['trigami'][language]}, {part}")
            assert_text_of_the_file(passage)


@pytest.mark.parametrize("section", list(statements.SECTIONS))
def test_every_statement_stands_for_a_scoring_section(section):
    """Every statement stands for a section (and item) SCORING.md has."""
    (passage,) = quote(f"SCORING.md {section}")
    for reader in READERS:
        (stated,) = in_language((passage,), reader)
        assert stated.kind == "statement"
        assert_for_players(stated)


def test_the_same_rule_in_all_three_trigami_texts():
    """Spot checks of the table against the texts: the same rule, item by item."""
    def one(citation: str) -> str:
        (passage,) = quote(citation)
        return passage.text

    assert "Four tricks with 1 bug score 40" in one("rules/trigami.en.txt, Scoring: Normal score")
    assert "Vier Stiche mit 1 böser Karte bringen 40" in one("rules/trigami.de.txt, Abrechnung: Normal")
    assert "Neljä voitettua tikkiä ja yksi kiusakortti on siis 40 pistettä" in one(
        "rules/trigami.fi.txt, Pisteenlasku: Jokaisesta voitetusta tikistä")
    assert "both opponents score 0" in one("rules/trigami.en.txt, Scoring: Every trick")
    assert "beide Gegner bekommen 0" in one("rules/trigami.de.txt, Abrechnung: Alle Stiche: Hast du")
    assert "Muut saavat nolla pistettä" in one("rules/trigami.fi.txt, Pisteenlasku: Jos voittaa kaikki tikit")
    assert "bringen 200" in one("rules/trigami.de.txt, Abrechnung: Alle Stiche nach")


# --------------------------------------------------------------------------- names in the reader's words


def test_statements_names_and_titles_go_through_the_translator(monkeypatch):
    """Statements, their names, an original's title and an English text's sections go
    through _(); a German text's own headings stay as they are."""
    monkeypatch.setattr(common, "_translator", lambda message: f"«{message}»")
    scoring, rule = quote_for(TRIGAMI.source, "ar")
    assert scoring.label == "«Points»" and scoring.text.startswith("«If one player wins every trick")
    assert rule.title == "«The original rule, in English»"
    assert rule.label == "Scoring"  # the original in its own words, its heading too
    (swapped,) = quote_for("SCORING.md §2.5 Swapped values", "fi")
    assert swapped.label == "«Swapped values»"
    _points, german = quote_for(TRIGAMI.source, "de")
    assert german.label == "Abrechnung"


def test_every_english_section_has_a_name_that_is_its_heading():
    """English section names go through _(), and in English they are the headings (without
    their remarks in brackets), so an English reader's labels are as before."""
    from scorekeeper.rules.sources import _markdown_sections, _text_sections, section_name

    for number in _markdown_sections("SCORING.md"):
        (passage,) = quote(f"SCORING.md §{number}")
        assert section_name("SCORING.md", f"§{number}") == passage.label.removeprefix(f"§{number} ")
    for heading, _lines in _text_sections("rules/trigami.en.txt").values():
        if heading not in ("Trigami", "Full rules"):
            assert section_name("rules/trigami.en.txt", heading) == heading


# --------------------------------------------------------------------------- the pages

NOTE = "Quoted in English"  # the note of old, that settled nothing at a table
TRANSLATED = {  # a few strings of each reader's catalogue, enough to see them used
    "de": {"Trigami rules (David Parlett), in German": "Trigami-Regeln (David Parlett), auf Deutsch"},
    "fi": {"The original rule, in English": "Alkuperäinen sääntö englanniksi",
           "Plain Bugami for three": "Tavallinen Bugami kolmelle"},
    "ar": {"The original rule, in German": "القاعدة الأصلية، بالألمانية", "Points": "النقاط",
           "Doubling": "الدبل"},
}


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The app of conftest, offering German, Finnish and Arabic too, each with a tiny
    catalogue (as tests/test_languages.py does): the pages as another language's reader
    gets them, whether or not that language is served yet."""
    for language, strings in TRANSLATED.items():
        catalog = Catalog(locale=language)
        for english, translated in strings.items():
            catalog.add(english, translated)
        folder = tmp_path / "translations" / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        with open(folder / "messages.mo", "wb") as mo:
            write_mo(mo, catalog)
    monkeypatch.setattr(i18n, "LANGUAGES", ("en", "de", "fi", "ar"))
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "test.sqlite3"),
                       "WTF_CSRF_ENABLED": False, "BABEL_TRANSLATION_DIRECTORIES": str(tmp_path / "translations")})


@pytest.fixture
def trigami(make_game):
    return make_game(deals=[WORKED_TRIGAMI_DEAL, CLEAN])


def test_a_german_reader_is_quoted_the_german_trigami_text(client, trigami):
    page = text(client.get(f"/games/{trigami}/explain/1?seat=2", headers={"Accept-Language": "de"}))
    assert "Trigami-Regeln (David Parlett), auf Deutsch Abrechnung" in page
    assert "Vier Stiche mit 1 böser Karte bringen 40, mit 2 bösen 20, mit 3 bösen 13." in page
    assert "Four tricks with 1 bug" not in page and "§" not in page and NOTE not in page


def test_a_finnish_reader_of_plain_bugami_sees_the_english_variant_noted(client, make_game):
    game = make_game(kind="bugami3", deals=[{"bids": [{"kind": "plain", "suit": s} for s in "SHC"],
                                             "tricks": [6, 5, 6], "bugs": [1, 0, 2]}])
    response = client.get(f"/games/{game}/explain/1", headers={"Accept-Language": "fi-FI,fi;q=0.9"})
    body = response.get_data(as_text=True)
    page = text(response)
    assert "Jokaisesta voitetusta tikistä saa kymmenen pistettä." in page
    assert "Tavallinen Bugami kolmelle" in page and "§" not in page and NOTE not in page
    # the English variant, closed, named by its language
    assert re.search(r'<details class="quote quote-original">\s*<summary>Alkuperäinen sääntö englanniksi: '
                     r'<span lang="en" dir="auto">Variants — Plain Bugami for three</span></summary>'
                     r'\s*<blockquote lang="en" dir="auto">', body)
    assert '<blockquote lang="fi" dir="auto">' in body


def test_an_arabic_reader_gets_the_german_original_folded(client, make_game):
    game = make_game(kind="trix", first_dealer=1, deals=KINGDOM)
    response = client.get(f"/games/{game}/explain/1?seat=2", headers={"Accept-Language": "ar"})
    page, body = text(response), response.get_data(as_text=True)
    assert "الدبل" in page and "§" not in page and NOTE not in page
    assert "K♥ doubled, taken by another player" not in page  # SCORING.md's words
    # the German text, named in Arabic, one tap away (a <details> closed by default)
    assert re.search(r'<details class="quote quote-original">\s*<summary>القاعدة الأصلية، بالألمانية: '
                     r'<span lang="de" dir="auto">Herz-König und Damen verdoppeln</span></summary>'
                     r'\s*<blockquote lang="de" dir="auto">', body)


def test_an_arabic_reader_is_told_an_originals_section_once(client, trigami):
    """Tester 33: the English original folded for an Arabic reader was titled "…،
    بالإنجليزية: Scoring", and opened it began with "Scoring" again."""
    body = client.get(f"/games/{trigami}/explain/1?seat=2", headers={"Accept-Language": "ar"}).get_data(as_text=True)
    originals = re.findall(r'<details class="quote quote-original">\s*<summary>[^<]*: <span lang="en" dir="auto">'
                           r'([^<]*)</span></summary>(.*?)</details>', body, re.S)
    assert originals, "no English original folded for the Arabic reader"
    for section, opened in originals:
        quoted = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", opened)).split())
        assert len(quoted) > 40 and not quoted.startswith(section.split(" — ")[0]), (section, quoted[:80])


def test_an_english_reader_sees_no_note(client, trigami):
    page = text(client.get(f"/games/{trigami}/explain/1?seat=2", headers={"Accept-Language": "en"}))
    assert "Points If one player wins every trick" in page and "Trigami rules (David Parlett) Scoring" in page
    assert NOTE not in page and "Scoring rules" not in page


def test_the_deal_forms_rules_follow_the_reader(client, db, trigami):
    """Changing a deal shows how it was scored, its rules quoted for the reader."""
    deal_id = store.get_game(db, trigami).deals[0].id
    page = text(client.get(f"/games/{trigami}/deals/{deal_id}/edit", headers={"Accept-Language": "de"}))
    assert "Trigami-Regeln (David Parlett), auf Deutsch Abrechnung" in page
    assert "Vier Stiche mit 1 böser Karte bringen 40" in page and "§1.2" not in page


@pytest.mark.skipif("de" not in i18n.LANGUAGES, reason="German is not served yet (issue 10)")
def test_with_german_served_an_explanation_quotes_the_german_text(tmp_path):
    """The app as shipped, its own German catalogue: runs once German is served."""
    shipped = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "shipped.sqlite3"),
                          "WTF_CSRF_ENABLED": False})
    client = shipped.test_client()  # joins the group, as a phone
    database = connect(shipped.config["DATABASE"])
    try:
        game = store.create_game(database, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    finally:
        database.conn.close()
    response = client.get(f"/games/{game}/explain/1?seat=2", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert response.status_code == 200
    page = text(response)
    assert "Vier Stiche mit 1 böser Karte bringen 40, mit 2 bösen 20, mit 3 bösen 13." in page
    assert "Abrechnung" in page and "Four tricks with 1 bug" not in page
    assert NOTE not in page
