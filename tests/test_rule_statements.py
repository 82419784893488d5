"""The rules behind every explanation, as players read them (issue 19, part 1).

Every explanation page of a Trix game (the K♥ and queens doubled, the K♥ and a queen won
back by their doubler) and of a Trigami game (Turnip and Doublets bids), read in English,
German, Finnish and Arabic with the app's own catalogues, must show the rule stated for
players: no text of SCORING.md (the developers' notes), no section numbers ("§"), no file
names, and no English "quoted in English" note for a reader of another language.  Where
the rule text exists in the reader's language it is quoted (Trix: German; Trigami: English,
German, Finnish); otherwise the original is one tap away, named by its language.

Expected texts are the rules' (../shared/SCORING.md §2.2, rules/trix.de.txt "Herz-König
und Damen verdoppeln"), not the code's output.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper.rules.sources import quote, read_text
from tests.conftest import WORKED_TRIGAMI_DEAL
from tests.test_explain import CLEAN, KINGDOM, text

READERS = ("en", "de", "fi", "ar")

# Ben (seat 1) owns the kingdom.  SCORING.md §2.2 worked by hand:
#   1 K♥ doubled by Ben, won back by Ben, Dan led to that trick: Ben −150, Dan +75
#   2 Queens: Q♠ doubled by Ben, taken by Dan: Dan −50, Ben +25; Q♥ doubled by Anna, won
#     back by Anna, Carla led to that trick: Anna −50, Carla +25; Q♦ Carla −25, Q♣ Dan −25
TAKEN_BACK = [
    {"contracts": ["king"], "king": {"taker": 1, "doubled_by": 1, "leader": 3}},
    {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1},
                                         "H": {"taker": 0, "doubled_by": 0, "leader": 2},
                                         "D": {"taker": 2}, "C": {"taker": 3}}},
    *KINGDOM[2:],
]


def _scoring_sentences() -> set[str]:
    """Every paragraph, list item and table cell of SCORING.md of some length, as quoting
    gives it: none of them may reach a player."""
    pieces = set()
    for number in ("1", "1.1", "1.2", "1.3", "1.4", "1.5", "2", "2.1", "2.2", "2.3", "2.4", "2.5"):
        for passage in quote(f"SCORING.md §{number}"):
            for block in passage.blocks:
                for item in block.items:
                    cells = item.cells or (item.spans,)
                    pieces.update("".join(s.text for s in cell) for cell in cells)
    return {" ".join(piece.split()) for piece in pieces if len(piece) >= 24}


SCORING_SENTENCES = _scoring_sentences()


def get(client, url: str, reader: str):
    response = client.get(url, headers={"Accept-Language": reader})
    assert response.status_code == 200, (url, reader, response.status_code)
    return response


def explanation_pages(client, game: str, deals: int, seats: int, trix: bool) -> list[str]:
    """Every explanation page of a game: each deal's points per seat and for all, the
    totals, the dealer, the kingdom check and team totals (Trix), what-if, the calculator
    filled in from each deal, and the deal form's "how it was scored"."""
    urls = []
    for number in range(1, deals + 1):
        urls += [f"/games/{game}/explain/{number}?seat={seat}" for seat in range(seats)]
        urls.append(f"/games/{game}/explain/{number}")
        urls.append(f"/games/{game}/explain/dealer?deal={number}")
    urls += [f"/games/{game}/explain/total?seat={seat}" for seat in range(seats)]
    urls += [f"/games/{game}/explain/dealer", f"/games/{game}/what-if"]
    if trix:
        urls += [f"/games/{game}/explain/kingdom/1", f"/games/{game}/explain/teams",
                 f"/games/{game}/what-if?doubling=off&values=swapped&scoring=reversed"]
    else:
        urls.append(f"/games/{game}/what-if?target=100")
    for number in range(1, deals + 1):  # "Try other counts": the calculator with this deal
        body = client.get(f"/games/{game}/explain/{number}").get_data(as_text=True)
        link = re.search(r'href="(/calculator\?[^"]+)"', body)
        assert link, f"deal {number} offers no calculator"
        urls.append(link.group(1).replace("&amp;", "&"))
    body = client.get(f"/games/{game}").get_data(as_text=True)
    urls += sorted(set(re.findall(r'href="(/games/[^"/]+/deals/[^"/]+/edit)"', body)))[:1]
    return urls


def assert_for_players(page: str, reader: str, where: str) -> None:
    assert "§" not in page, where
    assert "SCORING" not in page and ".md" not in page and ".txt" not in page, where
    flat = " ".join(page.split())
    leaked = [s for s in SCORING_SENTENCES if s in flat]
    assert not leaked, (where, leaked[:3])
    if reader != "en":
        assert "quoted in english" not in page.casefold(), where


def assert_rule_stated(body: str, url: str) -> None:
    """Each explanation and the calculator state the rule behind their numbers (what-if
    only re-scores, and cites no rule of its own)."""
    if "/what-if" not in url:
        assert 'class="quote rule-statement"' in body, url


@pytest.fixture
def trix(make_game):
    return make_game(kind="trix", first_dealer=1, deals=TAKEN_BACK, options={"partnership": "sum"})


@pytest.fixture
def trigami(make_game):
    return make_game(deals=[WORKED_TRIGAMI_DEAL, CLEAN])


@pytest.mark.parametrize("reader", READERS)
def test_every_trix_explanation_states_the_rules_for_players(client, trix, reader):
    for url in explanation_pages(client, trix, deals=5, seats=4, trix=True):
        response = get(client, url, reader)
        assert_for_players(text(response), reader, f"{reader} {url}")
        assert_rule_stated(response.get_data(as_text=True), url)


@pytest.mark.parametrize("reader", READERS)
def test_every_trigami_explanation_states_the_rules_for_players(client, trigami, reader):
    for url in explanation_pages(client, trigami, deals=2, seats=3, trix=False):
        response = get(client, url, reader)
        assert_for_players(text(response), reader, f"{reader} {url}")
        assert_rule_stated(response.get_data(as_text=True), url)


def test_the_scoring_notes_are_what_the_check_looks_for():
    """The check above would see SCORING.md's words: its doubling rule and its table."""
    assert "K♥ doubled, taken by another player: taker −150, doubler +75." in SCORING_SENTENCES
    assert "the paper players' check, which the app shows and asserts." in " ".join(SCORING_SENTENCES)
    assert "Herz-König und Damen verdoppeln" in read_text("rules/trix.de.txt")


def _original(body: str) -> re.Match[str] | None:
    """The first original folded away: groups (its title, the section as the text heads
    it, the text's language)."""
    return re.search(r'<details class="quote quote-original">\s*<summary>([^<]*): <span lang="\w+" dir="auto">'
                     r'([^<]*)</span></summary>\s*<blockquote lang="(\w+)"', body)


def test_a_german_reader_of_a_king_won_back_is_quoted_the_german_rule(client, trix):
    response = get(client, f"/games/{trix}/explain/1?seat=3", "de")
    page, body = text(response), response.get_data(as_text=True)
    # Dan led to the trick in which Ben won back his doubled K♥: Dan +75 (§2.2)
    assert "Dan in Spiel 1: +75" in page
    # the German text, quoted openly, not folded
    assert "Trix-Regeln, auf Deutsch Herz-König und Damen verdoppeln" in page
    assert ("Gewinnt der Besitzer selbst einen Stich mit dem Herz-König: Er schreibt −150, und wer "
            "zu diesem Stich ausgespielt hat, +75.") in page
    assert _original(body) is None
    # and the rule stated in German
    assert "Verdoppeln Wer den K♥ auf der Hand hat, darf ihn vor dem ersten Ausspielen verdoppeln" in page


def test_an_arabic_reader_of_a_king_won_back_gets_the_rule_in_arabic_and_the_german_one_tap_away(client, trix):
    response = get(client, f"/games/{trix}/explain/1?seat=1", "ar")
    page, body = text(response), response.get_data(as_text=True)
    # the doubling rule stated in Arabic: the doubler −150, whoever led to that trick +75
    assert "الدبل" in page and "من كان معه" in page
    # (the card "الورقة", feminine throughout, whichever card it is: tester 50)
    assert re.search(r"أخذ المدبِّل بنفسه الورقة .* التي دبّلها: المدبِّل ؜?[−-]١٥٠، ومن بدأ تلك اللطشة ؜?\+٧٥", page)
    found = _original(body)
    # named by its section too (tester 31: two originals read as one box twice)
    assert found and found.group(1) == "القاعدة الأصلية، بالألمانية" and found.group(3) == "de"
    assert found.group(2) == "Herz-König und Damen verdoppeln"
    assert re.search(r'<details class="quote quote-original">', body) and " open" not in found.group(0)
    # the German words are only inside the closed element
    outside = re.sub(r"<details class=\"quote quote-original\">.*?</details>", "", body, flags=re.S)
    assert "Herz-König" not in outside and "Herz-König und Damen verdoppeln" in body


@pytest.mark.parametrize(("reader", "title"), [("en", "The original rule, in German"),
                                                ("fi", "Alkuperäinen sääntö saksaksi")])
def test_other_readers_of_trix_get_the_german_text_folded(client, trix, reader, title):
    body = get(client, f"/games/{trix}/explain/2?seat=0", reader).get_data(as_text=True)
    found = _original(body)
    assert found and found.group(1) == title and found.group(3) == "de"


@pytest.mark.parametrize(("reader", "quoted"), [
    ("en", "Four tricks with 1 bug score 40"),
    ("de", "Vier Stiche mit 1 böser Karte bringen 40"),
    ("fi", "Neljä voitettua tikkiä ja yksi kiusakortti on siis 40 pistettä"),
])
def test_trigami_readers_of_en_de_fi_are_quoted_their_own_text(client, trigami, reader, quoted):
    response = get(client, f"/games/{trigami}/explain/1?seat=0", reader)
    assert quoted in text(response)
    assert _original(response.get_data(as_text=True)) is None


def test_an_arabic_reader_of_trigami_gets_the_english_text_folded(client, trigami):
    response = get(client, f"/games/{trigami}/explain/1?seat=0", "ar")
    page, body = text(response), response.get_data(as_text=True)
    assert "التيرنب: نقاط الطلب العادي مضاعفة. القسمة أولًا، ثم المضاعفة." in page
    found = _original(body)
    assert found and found.group(1) == "القاعدة الأصلية، بالإنجليزية" and found.group(3) == "en"


def test_every_rule_the_paper_check_names_is_stated():
    """The paper-sheet check's reasons name their rule (views.common.cited) by the
    statements' names: every source it cites has them."""
    from scorekeeper.rules import paper
    from scorekeeper.rules.sources import quote_for

    sources = [value for name, value in vars(paper).items() if name.startswith("SOURCE_")]
    assert len(sources) >= 8
    for source in sources:
        for reader in READERS:
            shown = quote_for(source, reader)
            assert shown and all(p.kind == "statement" and "§" not in p.label for p in shown), (source, reader)
