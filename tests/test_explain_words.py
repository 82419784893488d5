"""Every explanation speaks to players in their language (issue 19, parts 1 and 3).

A Trix game with a doubled K♥ and doubled queens taken back by their doublers and a
Trigami game with Turnip and Doublets bids are stored; every explanation page of both
(each deal for every seat, totals, the dealer, the kingdom check, team totals, what-if
and the calculator, reached by following the pages' own links; what-if under other
settings, the deal forms' "How deal N was scored", the paper-sheet check's reasons, what
is said of a choice that is not one) is read in Arabic,
Finnish, German and English as a player reads it.  In Arabic, Finnish and German no
English sentence is left (found by English function words as whole words: "the", "and",
"of" …); in every language no file name, no "§" of our own notes and no code name
(snake_case, an option key such as ``doubled_by``).

Part 3: where one of this app's readings decides a score (a Trigami tie at the top, the
plain-Bugami leftover card, partners' "worst loses", reversed scoring), the explanation
says which reading it is, in every language (SCORING.md §1.4, §1.5, §2.5).
"""

from __future__ import annotations

import re
from collections import deque

import pytest

from scorekeeper import groups, i18n, store
from tests.conftest import WORKED_TRIGAMI_DEAL
from tests.page_text import page_text
from tests.test_paper import check_url

LANGUAGES = ("ar", "fi", "de", "en")
TRIX_PLAYERS = ["Anna", "Ben", "Carla", "Dan"]
#: Classes of elements left out of the checked text: none. The rules are stated for
#: players in the reader's language (rules/statements.py), and an original rule text in
#: another language sits behind a tap, marked with its own ``lang`` (see below).
QUOTED: set[str] = set()

#: English function words: one of them as a whole word in a German, Finnish or Arabic
#: page is an English sentence (or its remains) left in it
ENGLISH = ("the", "and", "of", "which", "with", "is", "are", "from", "this", "that", "would",
           "was", "were", "has", "have", "to", "by", "for", "in", "on", "not", "each", "every",
           "who", "when", "then", "so", "but", "or", "it", "its", "their", "they", "at", "as",
           "be", "if", "no", "only", "after", "before", "here", "there", "game", "deal", "points",
           "took", "doubled", "wins", "total", "reading")
#: Words a language writes the same as English: German "in", "so", "was" (what), "total";
#: Finnish "on" (is), "no"
OWN = {"de": {"in", "so", "was", "total"}, "fi": {"on", "no"}, "ar": set()}
ENGLISH_WORD = re.compile(r"(?<![\w'’-])(" + "|".join(ENGLISH) + r")(?![\w'’-])", re.I)
#: What a player should never read, in any language: a file name, a section of our own
#: notes, a code name (snake_case such as ``doubled_by`` or ``taken_back``, a contract's or
#: an option's key in brackets or quotes, "(king)", "\"leader\"")
FILE_NAME = re.compile(r"\b[\w/-]+\.(?:txt|md|json|py|html)\b")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
CODE_NAMES = re.compile(r"\bbugami3\b|\((?:king|queens|diamonds|tricks|trix|sum|worst-loses|plain|"
                        r"standard|swapped|reversed)\)|\"(?:leader|plain|sum|worst-loses|standard|swapped|"
                        r"reversed)\"|`")


def seen(body: str) -> str:
    """The checked text of a page, one space between its pieces."""
    return " ".join(" ".join(page_text(body, QUOTED, behind_a_tap=True).parts).split())


def _explanation_link(href: str, game_ids: tuple[str, ...]) -> bool:
    if href.startswith("/calculator") and not href.startswith("/calculator/"):
        return True
    return any(href.startswith((f"/games/{g}/explain", f"/games/{g}/what-if")) for g in game_ids)


def explanation_pages(client, game_ids: tuple[str, ...]) -> list[str]:
    """Every explanation page reached from the games' sheets by the pages' own links (in
    English), and what-if under each of its choices."""
    start = [f"/games/{g}" for g in game_ids]
    queue, pages, visited = deque(start), [], set()
    client.set_cookie(i18n.COOKIE, "en")
    while queue:
        url = queue.popleft()
        if url in visited:
            continue
        visited.add(url)
        response = client.get(url)
        if url not in start:
            if response.status_code not in (200, 400):
                continue
            pages.append(url)
        for href in re.findall(r'href="([^"#]+)', response.get_data(as_text=True)):
            href = href.replace("&amp;", "&")
            if _explanation_link(href, game_ids) and href not in visited:
                queue.append(href)
    return pages


TAKEN_BACK_KINGDOM = [
    # Ben doubled the K♥ and won it back; Anna led to that trick
    {"contracts": ["king"], "king": {"taker": 1, "doubled_by": 1, "leader": 0}},
    # Dan doubled his Q♠ and won it back, Carla leading; Anna doubled her Q♥, led it and won
    # it back; Carla doubled the Q♣ and Ben took it
    {"contracts": ["queens"], "queens": {"S": {"taker": 3, "doubled_by": 3, "leader": 2},
                                         "H": {"taker": 0, "doubled_by": 0, "leader": 0},
                                         "D": {"taker": 2}, "C": {"taker": 1, "doubled_by": 2}}},
    {"contracts": ["diamonds"], "diamonds": [3, 4, 2, 4]},
    {"contracts": ["tricks"], "tricks": [3, 3, 4, 3]},
    {"contracts": ["trix"], "trix": [2, 0, 3, 1]},
    {"contracts": ["queens"], "queens": {"S": {"taker": 0}, "H": {"taker": 1}, "D": {"taker": 2},
                                         "C": {"taker": 3}}},
]
CLEAN = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
         "tricks": [5, 4, 4], "bugs": [0, 0, 0]}
#: The paper-sheet check with a wrong row, a wrong total and a kingdom that does not add up
#: (its reasons name the rule they rest on)
PAPER_CHECKS = (
    check_url("trix", {1: (0, 75, -150, 0), 2: (-25, -25, -25, 0), 3: (-30, -40, -20, -40),
                       4: (-45, -45, -60, -40), 5: (200, 150, 100, 50)},
              {1: "king", 2: "queens", 3: "diamonds", 4: "tricks", 5: "trix"},
              n0="Anna", n1="Ben", n2="Carla", n3="Dan", doubling="y", totals="y", t1_0="5"),
    check_url("trigami", {1: (80, 200, 13), 2: (1, 50, 100), 3: (500, 0, 0)},
              n0="Anna", n1="Ben", n2="Carla", totals="y", t1_0="3"),
    check_url("bugami3", {1: (80, 200, 13), 2: (1, 50, 100)}, n0="Anna", n1="Ben", n2="Carla"),
)


@pytest.fixture
def games(make_game) -> tuple[str, ...]:
    """A Trix game (partners, "worst loses") whose first kingdom has doubled cards taken
    back, and a Trigami game with Turnip and Doublets bids."""
    trix = make_game(kind="trix", players=TRIX_PLAYERS, first_dealer=1, deals=TAKEN_BACK_KINGDOM,
                     options={"partnership": "worst-loses"})
    trigami = make_game(deals=[WORKED_TRIGAMI_DEAL, CLEAN])
    return trix, trigami


def problems_of(text: str, code: str) -> list[str]:
    """What a player of ``code`` should not read in ``text``."""
    found = []
    if code != "en":
        english = sorted({w.group().lower() for w in ENGLISH_WORD.finditer(text)} - OWN[code])
        if english:
            found.append(f"English words {english}")
    for pattern, what in ((FILE_NAME, "file name"), (SNAKE, "code name"), (CODE_NAMES, "code name")):
        hits = sorted(set(pattern.findall(text)))
        if hits:
            found.append(f"{what} {hits}")
    if "§" in text:
        found.append("§ (a section of our own notes)")
    return found


def test_every_explanation_page_speaks_the_readers_language(client, db, games):
    trix, trigami = games
    pages = explanation_pages(client, games)
    # each deal for each seat and for all, totals, teams, the dealer, the kingdom check,
    # what-if and the calculator filled in with each deal
    for wanted in (f"/games/{trix}/explain/1?seat=1", f"/games/{trix}/explain/2", f"/games/{trix}/explain/teams",
                   f"/games/{trix}/explain/kingdom/1", f"/games/{trix}/explain/dealer", f"/games/{trix}/what-if",
                   f"/games/{trigami}/explain/1?seat=0", f"/games/{trigami}/explain/total?seat=2",
                   "/calculator?kind=bugami3"):
        assert wanted in pages
    assert sum(url.startswith("/calculator?kind=trix&") for url in pages) == 6
    pages += [f"/games/{trix}/what-if?doubling=none&values=swapped&scoring=reversed",
              f"/games/{trigami}/what-if?target=100", *PAPER_CHECKS]
    # what is said of a choice that is not one, and a deal that cannot be
    pages += [f"/games/{trix}/explain/2?seat=9", f"/games/{trix}/explain/dealer?deal=x",
              f"/games/{trix}/what-if?values=bogus", "/calculator?kind=nope&player=Anna",
              "/calculator?kind=trigami&calc=1&bids_0=S&bids_1=H&bids_2=C&tricks_0=5&tricks_1=5&tricks_2=5"
              "&bugs_0=0&bugs_1=0&bugs_2=0",
              "/calculator?kind=trix&calc=1&contracts=king&king_taker=1&king_doubled_by=1"]
    # the deal form's "How deal N was scored", of every deal
    pages += [f"/games/{game}/deals/{deal.id}/edit" for game in games for deal in store.get_game(db, game).deals]
    names = ("Anna", "Ben", "Carla", "Dan", "Trigami", "Trix", "Bugami", groups.only_group(db).name)
    report = []
    for code in LANGUAGES:
        client.set_cookie(i18n.COOKIE, code)
        for url in pages:
            response = client.get(url)
            assert response.status_code in (200, 400), url
            text = seen(response.get_data(as_text=True))
            for name in names:
                text = text.replace(name, " ")
            report += [f"{code} {url}: {problem}" for problem in problems_of(text, code)]
    assert not report, "\n".join(report)


# ----------------------------------------------------------------------------- part 3: which reading

#: Each reading as a player reads it (SCORING.md §1.4, §1.5, §2.5), by language
TIE = {"en": "This app's reading, where the rules are silent: while the highest total at or over the target "
              "is shared, nobody has won; the game goes on, and the next deal decides.",
       "de": "So liest diese App die Regeln, wo sie schweigen: Solange mehrere den höchsten Stand auf oder "
             "über dem Ziel haben, hat niemand gewonnen; die Partie geht weiter, und das nächste Spiel entscheidet.",
       "fi": "Näin tämä sovellus tulkitsee sääntöjä, kun ne eivät kerro: niin kauan kuin suurin "
             "pistetavoitteen saavuttanut yhteispistemäärä on usealla, kukaan ei ole voittanut; peli jatkuu, "
             "ja seuraava jako ratkaisee.",
       "ar": "هكذا يفسّر هذا التطبيق القواعد حيث تسكت: ما دام أعلى مجموع بلغ الهدف أو تجاوزه مشتركًا بين "
             "أكثر من لاعب، فلا فائز بعد؛ تستمر اللعبة، والتوزيعة التالية تحسم."}
LEFTOVER = {"en": "the one card left over after dealing 17 cards each joins the last trick, so whoever wins the "
                  "last trick counts it among their bugs when it is of their bug suit.",
            "de": "Die eine Karte, die übrig bleibt, wenn jeder 17 Karten bekommen hat, kommt zum letzten Stich",
            "fi": "kun jokaiselle on jaettu 17 korttia, yksi ylijäänyt kortti lisätään viimeiseen tikkiin",
            "ar": "الورقة الوحيدة الزائدة بعد أن يأخذ كل لاعب ١٧ ورقة تنضم إلى اللطشة الأخيرة"}
WORST = {"en": "This app's reading of “the team with the worst total loses”: the worst total is the lowest of "
               "the four players' totals.",
         "de": "Der schlechteste Stand ist der niedrigste der vier Einzelstände",
         "fi": "huonoin tulos on neljän pelaajan yhteispistemääristä pienin",
         "ar": "أسوأ مجموع هو أدنى مجاميع اللاعبين الأربعة"}
WORST_REVERSED = {"en": "the worst total is the highest of the four players' totals",
                  "de": "Der schlechteste Stand ist der höchste der vier Einzelstände",
                  "fi": "huonoin tulos on neljän pelaajan yhteispistemääristä suurin",
                  "ar": "أسوأ مجموع هو أعلى مجاميع اللاعبين الأربعة"}
REVERSED = {"en": "This app's reading of reversed scoring: every sign is flipped, the doubler's share included, "
                  "so each deal scores the exact opposite of standard scoring, and the lowest total wins.",
            "de": "So liest diese App die umgekehrte Wertung: Jedes Vorzeichen wird umgedreht, auch der Anteil "
                  "des Verdopplers",
            "fi": "Näin tämä sovellus tulkitsee käänteisen pisteytyksen: jokainen etumerkki käännetään, myös "
                  "tuplaajan osuus",
            "ar": "هكذا يفسّر هذا التطبيق الحساب المعكوس: تُقلب كل إشارة، ومعها حصة المدبِّل"}
#: The setting that changes a reading, named as the settings page (Players and settings) names it
SETTING = {"en": "The setting “{}” under “Players and settings” changes this.",
           "de": "Ändern lässt sich das unter „Spieler und Einstellungen“ mit der Einstellung „{}“.",
           "fi": "Tämän muuttaa asetus ”{}” kohdassa ”Pelaajat ja asetukset”.",
           "ar": "يمكن تغيير هذا من الإعداد «{}» في «اللاعبون والإعدادات»."}
#: ... and on the calculator, whose settings are on its own page
SETTING_HERE = {"en": "The setting “{}” above changes this.",
                "de": "Ändern lässt sich das oben mit der Einstellung „{}“.",
                "fi": "Tämän muuttaa yllä oleva asetus ”{}”.",
                "ar": "يمكن تغيير هذا من الإعداد «{}» أعلاه."}
SCORING = {"en": "Scoring", "de": "Wertung", "fi": "Pisteytys", "ar": "الحساب"}
PARTNERS = {"en": "Partners", "de": "Partner", "fi": "Parit", "ar": "الشراكة"}


def read(client, url: str, code: str) -> str:
    client.set_cookie(i18n.COOKIE, code)
    response = client.get(url)
    assert response.status_code == 200
    return seen(response.get_data(as_text=True))


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_tie_at_the_top_says_the_game_goes_on_by_this_apps_reading(client, make_game, code):
    # play to 100: Anna 5 clean tricks 100, Ben 5 clean tricks 100, Carla 3 clean tricks 60
    # (SCORING.md §1.2): Anna and Ben share the top at the target, so nobody has won (§1.4)
    tie = {"bids": [{"kind": "plain", "suit": s} for s in "SHC"], "tricks": [5, 5, 3], "bugs": [0, 0, 0]}
    game_id = make_game(options={"target": 100}, deals=[tie])
    page = read(client, f"/games/{game_id}/explain/total?seat=2", code)
    assert TIE[code] in page
    # no tie, no word about it: 100, 80, 80 after one deal
    other = make_game(options={"target": 100}, deals=[CLEAN])
    assert TIE[code] not in read(client, f"/games/{other}/explain/total?seat=0", code)
    # what if the same deal had been played to 100 in a game to 500: the tie decides again
    to_500 = make_game(deals=[tie])
    assert TIE[code] not in read(client, f"/games/{to_500}/explain/total?seat=0", code)
    assert TIE[code] in read(client, f"/games/{to_500}/what-if?target=100", code)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_plain_bugami_deal_says_where_the_leftover_card_goes(client, make_game, code):
    # 52 cards, 17 each, one left over (SCORING.md §1.5): 5/2 → 25, 6/3 → 20, 6/4 → 15
    deal = {"bids": [{"kind": "plain", "suit": s} for s in "SHC"], "tricks": [5, 6, 6], "bugs": [2, 3, 4]}
    game_id = make_game(kind="bugami3", deals=[deal])
    assert LEFTOVER[code] in read(client, f"/games/{game_id}/explain/1?seat=0", code)
    assert LEFTOVER[code] in read(client, f"/games/{game_id}/explain/1", code)
    trigami = make_game(deals=[CLEAN])  # Trigami has a turnip, no card left over
    assert LEFTOVER[code] not in read(client, f"/games/{trigami}/explain/1", code)


@pytest.mark.parametrize("code", LANGUAGES)
def test_partners_worst_loses_says_which_total_is_worst_and_its_setting(client, make_game, code):
    game_id = make_game(kind="trix", players=TRIX_PLAYERS, first_dealer=1, deals=TAKEN_BACK_KINGDOM[:5],
                        options={"partnership": "worst-loses"})
    page = read(client, f"/games/{game_id}/explain/teams", code)
    assert WORST[code] in page and SETTING[code].format(PARTNERS[code]) in page
    # with reversed scoring the worst total is the highest (SCORING.md §2.5, Reversed scoring)
    rev = make_game(kind="trix", players=TRIX_PLAYERS, first_dealer=1, deals=TAKEN_BACK_KINGDOM[:5],
                    options={"partnership": "worst-loses", "scoring": "reversed"})
    page = read(client, f"/games/{rev}/explain/teams", code)
    assert WORST_REVERSED[code] in page and WORST[code] not in page
    assert REVERSED[code] in page and SETTING[code].format(SCORING[code]) in page
    # adding team totals is no reading of "worst"
    summed = make_game(kind="trix", players=TRIX_PLAYERS, first_dealer=1, deals=TAKEN_BACK_KINGDOM[:5],
                       options={"partnership": "sum"})
    assert WORST[code] not in read(client, f"/games/{summed}/explain/teams", code)


@pytest.mark.parametrize("code", LANGUAGES)
def test_reversed_scoring_says_its_reading_and_setting_wherever_it_decides_points(client, make_game, code):
    game_id = make_game(kind="trix", players=TRIX_PLAYERS, first_dealer=1, deals=TAKEN_BACK_KINGDOM,
                        options={"scoring": "reversed"})
    setting = SETTING[code].format(SCORING[code])
    for url in (f"/games/{game_id}/explain/1?seat=0", f"/games/{game_id}/explain/2",
                f"/games/{game_id}/explain/total?seat=1", f"/games/{game_id}/explain/kingdom/1"):
        page = read(client, url, code)
        assert REVERSED[code] in page and setting in page, url
    standard = make_game(kind="trix", players=TRIX_PLAYERS, first_dealer=1, deals=TAKEN_BACK_KINGDOM)
    assert REVERSED[code] not in read(client, f"/games/{standard}/explain/1?seat=0", code)
    # what if the standard game had been played reversed
    assert REVERSED[code] not in read(client, f"/games/{standard}/what-if?doubling=none", code)
    page = read(client, f"/games/{standard}/what-if?scoring=reversed", code)
    assert REVERSED[code] in page and setting in page
    # the calculator's own settings are on its page, above (tester 35: it named a game's
    # "Players and settings"): the Diamonds, 13 to Anna, reversed: +130 (§2.5)
    calculator = read(client, "/calculator?kind=trix&calc=1&settings=1&doubling=y&scoring=reversed"
                      "&contracts=diamonds&diamonds_0=13&diamonds_1=0&diamonds_2=0&diamonds_3=0", code)
    assert REVERSED[code] in calculator and SETTING_HERE[code].format(SCORING[code]) in calculator
    assert setting not in calculator


EVERY_TRICK = {"en": "This app's reading, where the texts differ: every trick won after a Turnip or Doublets bid "
                     "scores 200 whatever the bugs, as the English and German texts say. The Finnish text's "
                     "Doublets paragraph adds “having taken no bugs”, which cannot happen: every trick brings all "
                     "the bugs.",
               "de": "Der finnische Text fügt im Absatz zu Doublets „ohne eine böse Karte genommen zu haben“ hinzu",
               "fi": "Suomenkielisen tekstin tupla tai kuitti -kohta lisää ”eikä kerännyt lainkaan kiusamaansa "
                     "kortteja”, mikä ei ole mahdollista",
               "ar": "وتضيف فقرة «دبلتس» في النص الفنلندي «دون أخذ أي ورقة سيئة»"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_trick_after_doublets_says_where_the_finnish_text_differs(client, make_game, code):
    """SCORING.md §1.2: every trick scores 200 after Turnip or Doublets, whatever the bugs
    (the English and German texts); the Finnish text's Doublets paragraph asks for no bugs,
    which every trick cannot give. A Finnish table reading the Finnish rule beside 200 is
    told why (tester 13, MEDIUM: the quoted rule contradicted the score with no word)."""
    sweep = {"bids": [{"kind": "doublets", "suit": "S"}, {"kind": "plain", "suit": "S"},
                      {"kind": "plain", "suit": "H"}], "tricks": [13, 0, 0], "bugs": [10, 0, 0]}
    plain = {"bids": [{"kind": "plain", "suit": s} for s in "SHC"], "tricks": [5, 4, 4], "bugs": [0, 0, 0]}
    game_id = make_game(deals=[sweep, plain])
    page = read(client, f"/games/{game_id}/explain/1?seat=0", code)
    assert EVERY_TRICK[code] in page
    assert EVERY_TRICK[code] not in read(client, f"/games/{game_id}/explain/2?seat=0", code)
    # Ben's 0 (a plain bid, another player won every trick: §1.2) follows from the rules
    # alike: no reading under it (tester 31); the whole deal's page says it, for Anna's
    assert EVERY_TRICK[code] not in read(client, f"/games/{game_id}/explain/1?seat=1", code)
    assert EVERY_TRICK[code] in read(client, f"/games/{game_id}/explain/1", code)
    calculator = read(client, "/calculator?calc=1&settings=1&kind=trigami&bids_0=S&doublets_0=y&tricks_0=13"
                              "&bugs_0=10&bids_1=S&tricks_1=0&bugs_1=0&bids_2=H&tricks_2=0&bugs_2=0", code)
    assert EVERY_TRICK[code] in calculator


def test_every_count_in_an_arabic_sum_keeps_its_digit(client, make_game):
    """Tester 35: Arabic writes one and two as words without a digit ("ورقتان سيئتان", two
    bugs), which in a sum read "60، ÷ ورقتان سيئتان = 30": a count in a sum keeps its
    digit ("÷ ٢ ورقة سيئة"), while the entries above it stay in words. SCORING.md §1.2:
    Anna 6 tricks with 2 bugs, 6 × 10 = 60 ÷ 2 = 30; Carla 2 tricks with 1 bug, 20 ÷ 1 = 20."""
    deal = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
            "tricks": [6, 5, 2], "bugs": [2, 0, 1]}
    game_id = make_game(deals=[deal])
    client.set_cookie(i18n.COOKIE, "ar")
    anna = seen(client.get(f"/games/{game_id}/explain/1?seat=0").get_data(as_text=True))
    assert "٦ لطشات × ١٠ = ٦٠، ÷ ٢ ورقة سيئة = ٣٠" in anna
    assert "ورقتان سيئتان" in anna  # what was entered, in words
    carla = seen(client.get(f"/games/{game_id}/explain/1?seat=2").get_data(as_text=True))
    assert "٢ لطشة × ١٠ = ٢٠، ÷ ١ ورقة سيئة = ٢٠" in carla
