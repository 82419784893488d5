"""Cards written and said as each language's players write and say them (issue 10).

On the score sheet and in the explanations a card is short, its rank's letter and its
suit's symbol: English, Finnish and Arabic players write the letters on the cards' corners,
K♥ and Q♠; German players write the queen with D, Dame (rules/trix.de.txt: "Pik-Dame",
"Herz-König"). A screen reader says the card in words: "queen of spades", "Pik-Dame",
"patarouva", "بنت البستوني" (the Arabic Trix players' بنت, a queen, and شيخ الكبة, the
K♥). The suit stays a symbol everywhere.

One English word in two senses is two strings: "diamonds" the suit (a symbol's name, which
Finnish says in the singular: ruutu) and "diamonds" counted (Finnish ruudut); "Trix" the
game (Arabic تركس) and "Trix" the contract, which Arabic names with the article like the
other four (التركس).

The deal (SCORING.md §2.1, §2.2): Queens, Ben doubles the Q♠ and Dan takes it (Dan −50,
Ben +25); Anna takes the Q♥, Carla the Q♦, Dan the Q♣ (−25 each). Seats: Anna 0, Ben 1,
Carla 2, Dan 3.
"""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper import i18n
from scorekeeper.rules import trix
from tests.test_explain import text

KING_DOUBLED = {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1}}
QUEENS = {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 1}, "H": {"taker": 0},
                                              "D": {"taker": 2}, "C": {"taker": 3}}}

#: (the K♥ short, the Q♠ short, the Q♣ short), as each language's players write them
#: Arabic writes the card's letters too, each card a left-to-right isolate (U+2066 … U+2069)
#: so that in an Arabic line it never reads "♥K"
SHORT = {"en": ("K♥", "Q♠", "Q♣"), "de": ("K♥", "D♠", "D♣"), "fi": ("K♥", "Q♠", "Q♣"),
         "ar": ("\u2066K♥\u2069", "\u2066Q♠\u2069", "\u2066Q♣\u2069")}
#: What a screen reader says for Ben's marks on the sheet: he doubled the K♥, then the Q♠
SAID_DOUBLED = {
    "en": ("doubled the king of hearts", "doubled the queen of spades"),
    "de": ("hat den Herz-König verdoppelt", "hat die Pik-Dame verdoppelt"),
    "fi": ("tuplasi herttakuninkaan", "tuplasi patarouvan"),
    "ar": ("دبّل شيخ الكبة", "دبّل بنت البستوني"),
}
#: The Q♠ in words, as a screen reader reads it inside an explanation's sentence
QUEEN_OF_SPADES = {"en": "queen of spades", "de": "Pik-Dame", "fi": "patarouva", "ar": "بنت البستوني"}


def in_language(client, url: str, code: str, **kwargs):
    client.set_cookie(i18n.COOKIE, code)
    return client.get(url, **kwargs)


def plain(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def doubled_marks(page: str) -> list[tuple[str, str]]:
    """Each doubled card's mark on a sheet: (what the eye sees, what a screen reader says)."""
    marks = re.findall(r'<span class="doubled-mark"><bdi dir="ltr" aria-hidden="true">(.*?)</bdi>'
                       r'<span class="visually-hidden">(.*?)</span></span>', page, re.S)
    return [(plain(seen), plain(said)) for seen, said in marks]


@pytest.mark.parametrize("code", ["en", "de", "fi", "ar"])
def test_the_sheet_marks_each_doubled_card_as_the_readers_players_write_and_say_it(client, make_game, code):
    game_id = make_game(kind="trix", deals=[KING_DOUBLED, QUEENS])
    page = in_language(client, f"/games/{game_id}", code).get_data(as_text=True)
    king, queen, _club = SHORT[code]
    said_king, said_queen = SAID_DOUBLED[code]
    assert doubled_marks(page) == [(f"{king}²", said_king), (f"{queen}²", said_queen)]


@pytest.mark.parametrize("code", ["en", "de", "fi", "ar"])
def test_the_sheets_note_on_doubled_cards_writes_them_alike(client, make_game, code):
    game_id = make_game(kind="trix", deals=[KING_DOUBLED])
    page = text(in_language(client, f"/games/{game_id}", code))
    king, queen, _club = SHORT[code]
    assert f"{king}²" in page and f"{queen}²" in page


def test_an_explanation_writes_the_queen_as_german_players_do_and_names_it_in_words(client, make_game):
    game_id = make_game(kind="trix", deals=[KING_DOUBLED, QUEENS])
    for code, dan, ben in (
            ("en", ["took the Q♠, doubled by \u2068Ben\u2069: −50", "took 1 queen (Q♣): −25"],
             "doubled the Q♠ and \u2068Dan\u2069 took it: +25"),
            ("de", ["D♠ bekommen, verdoppelt von \u2068Ben\u2069: −50", "1 Dame bekommen (D♣): −25"],
             "D♠ verdoppelt, und \u2068Dan\u2069 hat die Karte bekommen: +25")):
        dans = in_language(client, f"/games/{game_id}/explain/2?seat=3", code)
        for step in dan:
            assert step in text(dans), (code, step)
        assert ben in text(in_language(client, f"/games/{game_id}/explain/2?seat=1", code)), code
        # a screen reader hears the card in words, the eye sees its letter and symbol
        card = re.search(r'<span role="img" aria-label="([^"]*)">(.*?)</span></span>', dans.get_data(as_text=True))
        assert (card.group(1), plain(card.group(2) + "</span>")) == (QUEEN_OF_SPADES[code], SHORT[code][1])


@pytest.mark.parametrize("code", ["fi", "ar"])
def test_explanations_name_the_queen_in_words_in_finnish_and_arabic(client, make_game, code):
    game_id = make_game(kind="trix", deals=[KING_DOUBLED, QUEENS])
    page = in_language(client, f"/games/{game_id}/explain/2?seat=3", code).get_data(as_text=True)
    assert f'aria-label="{QUEEN_OF_SPADES[code]}"' in page


def test_the_german_deal_form_asks_for_the_cards_as_german_players_write_them(client, make_game):
    game_id = make_game(kind="trix")
    page = text(in_language(client, f"/games/{game_id}/deals/new", "de"))
    assert "Wer hat den K♥ bekommen?" in page
    for queen in ("D♠", "D♥", "D♦", "D♣"):
        assert f"Wer hat die {queen} bekommen?" in page
        assert f"Wer hat die {queen} verdoppelt?" in page
    assert "Q♠" not in page
    # and says so when one is missing (a Save without the Q♠)
    refused = client.post(f"/games/{game_id}/deals/new", data={
        "nonce": "q", "contracts": "queens", "queens_H_taker": "0", "queens_D_taker": "2", "queens_C_taker": "3"})
    assert refused.status_code == 400
    assert "Wer hat die D♠ bekommen?" in text(refused)


def test_a_german_rule_message_writes_the_queen_of_diamonds_with_d(client, make_game):
    """Trix Complex (SCORING.md §2.3, §2.5): Queens and Diamonds in one deal, Carla takes
    the Q♦ but no diamond — the Q♦ is a diamond."""
    game_id = make_game(kind="trix", options={"complex": True})
    client.set_cookie(i18n.COOKIE, "de")
    refused = client.post(f"/games/{game_id}/deals/new", data={
        "nonce": "c", "contracts": ["queens", "diamonds"],
        "queens_S_taker": "0", "queens_H_taker": "1", "queens_D_taker": "2", "queens_C_taker": "3",
        "diamonds_0": "5", "diamonds_1": "4", "diamonds_2": "0", "diamonds_3": "4"})
    assert refused.status_code == 400
    page = text(refused)
    assert "D♦ bekommen, aber kein Karo; D♦ ist ein Karo" in page
    assert "Q♦" not in page


def test_a_finnish_suit_is_named_in_the_singular_and_counted_in_the_plural(client, make_game):
    """A symbol's name is the suit (ruutu); the count asked for is the diamonds taken
    (ruudut)."""
    trigami = make_game()
    form = in_language(client, f"/games/{trigami}/deals/new", "fi").get_data(as_text=True)
    names = set(re.findall(r'<span class="suit suit-[SHDC]" role="img" aria-label="([^"]*)">', form))
    assert names == {"pata", "hertta", "ruutu", "risti"}
    trix_id = make_game(kind="trix")
    refused = client.post(f"/games/{trix_id}/deals/new", data={
        "nonce": "d", "contracts": "diamonds", "diamonds_0": "3", "diamonds_1": "4"})
    assert refused.status_code == 400
    assert "\u2068Carla\u2069 — ruudut: montako?" in text(refused)


def test_arabic_names_the_game_trix_and_the_contract_with_its_article(client, make_game):
    kinds = text(in_language(client, "/games/new", "ar"))
    assert "تركس" in kinds.split() and "التركس" not in kinds.split()
    game_id = make_game(kind="trix")
    form = in_language(client, f"/games/{game_id}/deals/new", "ar").get_data(as_text=True)
    chips = [plain(label) for label in re.findall(r'<label for="contracts-\d">(.*?)</label>', form)]
    assert chips == ["شيخ الكبة", "البنات", "الديناري", "اللطوش", "التركس"]


def test_outside_the_app_the_rules_write_cards_in_english():
    """The command line (no catalogue): the letters of an English deck."""
    assert [trix.card_label(rank, suit) for rank, suit in trix.CARDS] == ["K♥", "Q♠", "Q♥", "Q♦", "Q♣"]
    assert trix.card_name("Q", "S") == "queen of spades"


def test_a_german_count_of_one_trick_is_said_in_words_that_agree_with_it(client, make_game):
    """Tester 31: "aber 1 Stich fassen nur 3 Karten" (a plural verb after one trick).
    SCORING.md §1.3: Anna, with 1 trick, took 3 cards, and the turnip (a diamond) is not of
    her bug suit (spades), so 4 bugs cannot be hers."""
    from tests.test_web import trigami_form

    game_id = make_game()
    client.set_cookie(i18n.COOKIE, "de")
    refused = client.post(f"/games/{game_id}/deals/new",
                          data=trigami_form(["S", "H", "D"], ["1", "6", "6"], ["4", "0", "0"], turnip="D"))
    assert refused.status_code == 400
    page = text(refused)
    assert ("\u2068Anna\u2069 hat 4 böse Karten, aber 1 Stich, das sind nur 3 Karten, und die Turnip kann keine "
            "böse Karte dieses Spielers sein") in page
    assert "fassen" not in page
