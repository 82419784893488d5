"""The rule texts shipped with the package, and quoting them from a ScoreLine's source.

Expected passages are read off SCORING.md and the rules/*.txt texts by eye: which section
holds which words, where a section ends.
"""

from __future__ import annotations

import itertools
from importlib import resources
from pathlib import Path

import pytest

from scorekeeper import explanations
from scorekeeper.rules import get_rules
from scorekeeper.rules.sources import (
    DOCUMENTS,
    SourceError,
    Span,
    blocks,
    document_title,
    quote,
    quote_all,
    read_text,
    spans,
)
from scorekeeper.rules.trix import TRIX

SHARED = Path(__file__).resolve().parents[3] / "shared"


# --------------------------------------------------------------------------- the shipped texts


def test_the_texts_ship_inside_the_package():
    texts = resources.files("scorekeeper.rules").joinpath("texts")
    for name, _lang in DOCUMENTS.values():
        assert texts.joinpath(name).is_file(), name


@pytest.mark.parametrize("document", list(DOCUMENTS))
def test_the_shipped_copies_equal_the_shared_texts(document):
    """The package carries copies so an installed app never reads ../shared; they must not
    drift from the project's texts."""
    shared = SHARED / document
    if not shared.is_file():
        pytest.skip(f"no shared text at {shared} (an installed copy)")
    assert read_text(document) == shared.read_text(encoding="utf-8")


def test_the_game_file_format_in_docs_equals_the_shared_one():
    """docs/game-file.md is the project's GAME-FILE.md, so that a clone without the shared
    docs still has the format the README points to (tester 40); it must not drift."""
    shared = SHARED / "GAME-FILE.md"
    if not shared.is_file():
        pytest.skip(f"no shared text at {shared}")
    ours = Path(__file__).resolve().parents[2] / "docs" / "game-file.md"
    assert ours.read_text(encoding="utf-8") == shared.read_text(encoding="utf-8")


def test_documents_in_words():
    assert document_title("SCORING.md") == "Scoring rules"
    assert document_title("rules/trigami.en.txt") == "Trigami rules (David Parlett)"
    assert document_title("rules/trix.de.txt") == "Trix rules, in German"
    with pytest.raises(SourceError):
        document_title("rules/bridge.txt")


# --------------------------------------------------------------------------- quoting SCORING.md


def test_scoring_section_is_quoted_from_its_heading_to_the_next():
    (passage,) = quote("SCORING.md §1.2")
    assert passage.title == "Scoring rules"
    assert passage.heading == "1.2 Points (in this order of precedence)"
    assert passage.label == "§1.2 Points"
    assert passage.lang == "en"
    text = passage.text
    assert "otherwise floor(10·t / b) — truncated division, the fraction is dropped." in text
    assert "Never double before dividing" in text
    # the worked example belongs to §1.2; §1.3 does not
    assert "Carla bids hearts, 4 tricks with 3 hearts → 13." in text
    assert "Consistency checks" not in text and "no tricks → no bugs" not in text


def test_a_sentence_wrapped_before_a_number_stays_one_paragraph():
    """"…no spade →\\n200. Carla bids…" in §1.2 is one sentence, not a list item 200."""
    (passage,) = quote("SCORING.md §1.2")
    example = next(b for b in passage.blocks if "Worked example" in b.items[0].text)
    assert example.kind == "paragraph"
    assert example.items[0].text.endswith("Carla bids hearts, 4 tricks with 3 hearts → 13.")


def test_numbered_and_nested_items_keep_their_shape():
    (passage,) = quote("SCORING.md §1.2")
    items = passage.blocks[0].items
    assert [i.marker for i in items if i.level == 0] == ["1.", "2.", "3.", "4."]
    assert [i.text for i in items if i.level == 1] == [
        "t = 0: 50;", "t > 0, b = 0 (clean tricks): 20 per trick;",
        "otherwise floor(10·t / b) — truncated division, the fraction is dropped."]
    assert items[0].spans[0] == Span("Every trick.", "strong")


def test_a_table_is_quoted_as_rows():
    passage = quote("SCORING.md §2.1")[0]
    table = passage.blocks[0]
    assert table.kind == "table"
    assert table.items[0].header and not table.items[1].header
    assert table.items[1].text == "King of Hearts (king) | who took the K♥ | −75"
    assert len(table.items) == 6  # the head and five contracts


def test_a_top_level_section_is_its_opening_text():
    (passage,) = quote("SCORING.md §2")
    assert passage.label == "§2 Trix, 4 players"
    assert "whoever is dealt the 7♥ owns the first kingdom" in passage.text
    assert "King of Hearts" not in passage.text  # §2.1's table is not §2's opening


def test_one_item_of_a_section():
    (passage,) = quote("SCORING.md §2.5 Swapped values")
    assert passage.label == "§2.5 Variants — Swapped values"
    assert passage.text == "Swapped values: diamonds −15 each (−195), tricks −10 each (−130)."


def test_inline_marks():
    assert spans("a **b** `c` *d* e") == (Span("a "), Span("b", "strong"), Span(" "), Span("c", "code"),
                                          Span(" "), Span("d", "em"), Span(" e"))
    assert spans("5 × 40 = 200") == (Span("5 × 40 = 200"),)


def test_plain_text_keeps_one_paragraph_a_line():
    found = blocks(["One.", "Two.", "", "• a", "• b"], wrapped=False)
    assert [b.kind for b in found] == ["paragraph", "paragraph", "list"]


# --------------------------------------------------------------------------- quoting the rule texts


def test_rule_text_section_after_the_comma():
    passages = quote("SCORING.md §1.2; rules/trigami.en.txt, Scoring")
    assert [p.label for p in passages] == ["§1.2 Points", "Scoring"]
    scoring = passages[1]
    assert scoring.title == "Trigami rules (David Parlett)"
    assert "Four tricks with 1 bug score 40, with 2 bugs 20, with 3 bugs 13." in scoring.text
    assert "40 ÷ 3 = 13.3, so 13." in scoring.text
    assert "The first player to reach 500 points wins" not in scoring.text  # "Winning the game"


def test_a_german_subheading_is_a_section():
    (passage,) = quote("rules/trix.de.txt, Herz-König und Damen verdoppeln")
    assert passage.lang == "de"
    assert "Bekommt ein anderer den Herz-König: Er schreibt −150, der Besitzer +75." in passage.text
    assert "Der Kontrakt Trix" not in passage.text


def test_finnish_and_german_trigami_texts():
    assert "Neljä voitettua tikkiä ja yksi kiusakortti on siis 40 pistettä" in quote(
        "rules/trigami.fi.txt, Pisteenlasku")[0].text
    assert "verdopple sie dann" in quote("rules/trigami.de.txt, Abrechnung")[0].text


def test_item_of_a_rule_text_section():
    (passage,) = quote("rules/trix.de.txt, Varianten: Umgekehrte Wertung")
    assert passage.text.startswith("Umgekehrte Wertung: Pluspunkte für die ersten vier Kontrakte")
    assert "Trix Complex" not in passage.text


@pytest.mark.parametrize("source", [
    "SCORING.md §9.9",
    "SCORING.md 1.2",
    "SCORING.md",
    "rules/trigami.en.txt, Bidding rules",
    "rules/trix.de.txt, Varianten: Poker",
    "rules/bridge.txt, Scoring",
])
def test_a_citation_the_texts_do_not_have_is_an_error(source):
    with pytest.raises(SourceError):
        quote(source)


def test_quote_all_gives_each_passage_once():
    both = quote_all(["SCORING.md §2.1; rules/trix.de.txt, Abrechnung",
                      "SCORING.md §2.1, §2.2; rules/trix.de.txt, Herz-König und Damen verdoppeln"])
    assert [p.label for p in both] == ["§2.1 Contracts and points", "Abrechnung", "§2.2 Doubling",
                                      "Herz-König und Damen verdoppeln"]


# --------------------------------------------------------------------------- every source the rules give


def _trigami_sources():
    """A deal for every branch of SCORING.md §1.2, and plain Bugami."""
    b = {"plain": {"kind": "plain", "suit": "H"}, "turnip": {"kind": "turnip"},
         "doublets": {"kind": "doublets", "suit": "S"}}
    deals = [
        ("trigami", {"turnip": "D", "bids": [b["turnip"], b["doublets"], b["plain"]],
                     "tricks": [4, 5, 4], "bugs": [1, 0, 3]}),
        ("trigami", {"turnip": "D", "bids": [b["turnip"], b["doublets"], b["plain"]],
                     "tricks": [13, 0, 0], "bugs": [10, 0, 0]}),
        ("bugami3", {"bids": [b["plain"]] * 3, "tricks": [17, 0, 0], "bugs": [13, 0, 0]}),
    ]
    for kind, deal in deals:
        rules = get_rules(kind)
        score = rules.score(("A", "B", "C"), 0, rules.parse_options({}), [rules.parse_deal(deal, 1)])
        yield from (line.source for line in score.deals[0].lines)


def _trix_sources():
    deals = [
        {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}},
        {"contracts": ["king"], "king": {"taker": 1, "doubled_by": 1, "leader": 3}},
        {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1}, "H": {"taker": 0},
                                             "D": {"taker": 2}, "C": {"taker": 3}}},
        {"contracts": ["diamonds"], "diamonds": [3, 4, 2, 4]},
        {"contracts": ["tricks", "king"], "tricks": [3, 3, 4, 3], "king": {"taker": 0}},
        {"contracts": ["trix"], "trix": [2, 0, 3, 1]},
    ]
    for values, scoring in itertools.product(("standard", "swapped"), ("standard", "reversed")):
        options = TRIX.parse_options({"values": values, "scoring": scoring, "complex": True})
        for deal in deals:
            score = TRIX.score(("A", "B", "C", "D"), 0, options, [deal])
            yield from (line.source for line in score.deals[0].lines)


def test_every_source_the_rules_give_is_in_the_texts():
    sources = set(_trigami_sources()) | set(_trix_sources())
    assert len(sources) > 5
    for source in sources:
        passages = quote(source)
        assert passages and all(p.text for p in passages), source


def test_every_game_level_source_is_in_the_texts():
    for table in (explanations.TOTAL_SOURCES, explanations.DEALER_SOURCES):
        for source in table.values():
            assert quote(source)
    for source in (explanations.REVERSED_SOURCE, explanations.TEAMS_SOURCE,
                   explanations.KINGDOM_SOURCE, explanations.DOUBLED_KINGDOM_SOURCE):
        assert quote(source)


def test_a_doubled_king_cites_its_penalty_and_the_doubling():
    """A doubled K♥ is worth twice its §2.1 penalty by §2.2: both are cited, for the taker
    and the doubler alike."""
    score = TRIX.score(("A", "B", "C", "D"), 0, TRIX.parse_options({}),
                       [{"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}}])
    for seat in (1, 2):
        labels = [p.label for p in quote(score.deals[0].lines[seat].source)]
        assert "§2.1 Contracts and points" in labels and "§2.2 Doubling" in labels
        assert "Herz-König und Damen verdoppeln" in labels


@pytest.mark.parametrize(("options", "item"), [
    ({"values": "swapped"}, "§2.5 Variants — Swapped values"),
    ({"scoring": "reversed"}, "§2.5 Variants — Reversed scoring"),
])
def test_a_variant_cites_its_own_item(options, item):
    score = TRIX.score(("A", "B", "C", "D"), 0, TRIX.parse_options(options),
                       [{"contracts": ["diamonds"], "diamonds": [3, 4, 2, 4]}])
    labels = [p.label for p in quote(score.deals[0].lines[0].source)]
    assert item in labels
    assert len([label for label in labels if label.startswith("§2.5")]) == 1  # not all of §2.5


def test_plain_bugami_cites_its_variant():
    rules = get_rules("bugami3")
    score = rules.score(("A", "B", "C"), 0, rules.parse_options({}), [rules.parse_deal(
        {"bids": [{"kind": "plain", "suit": s} for s in "SHD"], "tricks": [6, 6, 5], "bugs": [1, 2, 3]}, 1)])
    labels = [p.label for p in quote(score.deals[0].lines[0].source)]
    assert labels == ["§1.2 Points", "§1.5 Plain Bugami for three", "Scoring", "Variants — Plain Bugami for three"]


def test_plain_bugamis_dealer_is_explained_without_trigamis_thirteen_cards():
    """Tester 39: "Why this dealer?" of a plain Bugami game quoted Trigami's setup, "Everyone
    has 13 cards" and its turnip; it quotes who deals and who leads, and the variant."""
    passages = quote(explanations.DEALER_SOURCES["bugami3"])
    quoted = " ".join(p.text for p in passages if p.document != "SCORING.md")
    assert "after each deal the next player to the left deals" in quoted
    assert "The player to the dealer's left leads" in quoted
    assert "Everyone has 13 cards" not in quoted and "The card in the middle is the turnip" not in quoted
    assert "17 each" in quoted
