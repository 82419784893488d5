"""Every page in every language (issue 10): chosen by the browser's Accept-Language on the
first visit, then by the language switch at the foot of every page, kept on the phone;
a kept page or a 304 never answers one language for another, and nothing stored changes
with the language.

Every page reached by following links from the home page of a group with a Trigami game
and a Trix game with deals, the welcome page, the error pages and the calculator are drawn
in German, Finnish and Arabic: each answers as in English, with ``lang`` and ``dir`` right,
and with no English word of the English page left in it (the words of four letters or more
that the English page's text and the translated page's text share, less names: the games',
the players', the group's, the app's, and text marked as another language).
"""

from __future__ import annotations

import functools
import gettext
import json
import re
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import create_app, groups, i18n, store
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.page_text import PageText, page_text
from tests.test_gamefile import TRIX_KINGDOM

LANGUAGES = {"de": "ltr", "fi": "ltr", "ar": "rtl"}
PLAYERS = ["Anna", "Ben", "Carla", "Dan"]
#: Words a page in any language may share with the English one: the games' and the app's
#: names, the Trigami terms the rule texts themselves keep, a file format
NAMES = {"trix", "trigami", "bugami", "turnip", "doublets", "scorekeeper", "json"}
#: Words a language has from English, or shares with it, and uses as its own: German
#: "Link", "Name", "Start", "Computer", "Server", "Minute", "QR-Code", "Downloads", "auf
#: der Hand", "Problem" (an error page's title), "Browser"; "Trix Complex", the variant's name kept in German and Finnish (fi/NOTES.md)
SHARED = {"de": {"link", "links", "name", "start", "computer", "server", "minute", "code", "downloads", "hand",
                 "complex", "problem", "browser"},
          "fi": {"complex"}, "ar": set()}
#: Not words of the page's language whatever it is: a command to type
VERBATIM = ("make run HOST=0.0.0.0",)
#: Classes of what the rule-quoting work owns (rules/sources.py, explain/_macros.html):
#: quoted rule texts with their titles and sections, and the citations that name them,
#: checked there (a quote is in the rule text's own language on purpose)
QUOTED = {"quote", "explain-rules"}
#: Strings not yet in the catalogues (new-strings.json of issue 10's language switch):
#: their words are let through in a language only while its catalogue lacks them
PENDING = ("Language", "Deal %(n)s: %(problem)s")
#: and a branch's new strings, kept in new-strings.json until they are merged into the
#: catalogues (the preamble of the issues' helpers)
_NEW = Path(__file__).resolve().parent.parent / "new-strings.json"
if _NEW.exists():
    PENDING += tuple(entry["msgid"] for entry in json.loads(_NEW.read_text(encoding="utf-8")))
WORD = re.compile(r"[^\W\d_]{4,}")


#: An English page is read once for all the languages it is compared with: room for every
#: page of the crawl in English and one language (a smaller cache, with the crawl's 261
#: pages, dropped each English page before its next language came to it)
@functools.lru_cache(maxsize=2048)
def seen(html: str) -> PageText:
    """What a player sees (or hears) of a page, less what is marked as in another language
    than the page (``lang``: the language switch, a quoted English rule) and the QUOTED
    passages (the same page read once: the reading is never changed)."""
    return page_text(html, QUOTED)


def words(text: PageText, names: set[str], data: tuple[str, ...]) -> set[str]:
    """The words of four letters or more of ``text``, less ``names``, the strings
    ``data`` (the group's name, the players') and addresses (anything with / or =)."""
    joined = " ".join(text.parts)
    for string in (*data, *VERBATIM):
        joined = joined.replace(string, " ")
    plain = " ".join(token for token in joined.split() if "/" not in token and "=" not in token)
    return set(WORD.findall(plain.casefold())) - names


def english_left(english_html: str, translated_html: str, names: set[str], data: tuple[str, ...]) -> set[str]:
    """The words of four letters or more of the English page left in the translated one."""
    return words(seen(english_html), names, data) & words(seen(translated_html), names, data)


def pending(app, code: str) -> set[str]:
    """The words of PENDING strings that ``code``'s catalogue does not translate yet."""
    from flask_babel import force_locale, gettext

    with app.test_request_context("/"), force_locale(code):
        return {w for msgid in PENDING if gettext(msgid) == msgid for w in WORD.findall(msgid.casefold())}


@pytest.fixture(name="group")  # named apart from its function, so test_digits can import it
def group_fixture(app, client, db) -> dict[str, object]:
    """A group with a finished Trigami game and a Trix game of a whole kingdom and more;
    what a page may show in English whatever its language: ``data`` (the group's name and
    the players'), and per language the ``names`` (NAMES, SHARED, PENDING's words)."""
    store.create_game(db, from_dict(game_file(deals=[WORKED_TRIGAMI_DEAL] * 3)))
    store.create_game(db, from_dict(game_file("trix", options={"partnership": "sum"},
                                              deals=TRIX_KINGDOM + TRIX_KINGDOM[:2])))
    data = (groups.only_group(db).name, *PLAYERS)
    return {"data": data, "names": {code: NAMES | SHARED[code] | pending(app, code) for code in LANGUAGES}}


def crawl(client) -> list[str]:
    """Every page reached by links from the home page (HTML only), in the phone's
    language (``client``'s cookie; English without one)."""
    return list(crawled(client))


def crawled(client) -> dict[str, Any]:
    """:func:`crawl`'s pages with the answer each was drawn as, {address: response}: a
    test about what the pages say reads them from here instead of asking for each again."""
    queue, pages, visited = deque(["/"]), {}, set()
    while queue:
        url = queue.popleft()
        if url in visited:
            continue
        visited.add(url)
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.content_type:
            continue
        pages[url] = response
        for href in re.findall(r'href="([^"#]+)', response.get_data(as_text=True)):
            href = href.replace("&amp;", "&")
            if href.startswith("/") and not href.startswith(("/static/", "/language/", "/digits/")) and href not in visited:
                queue.append(href)
    return pages


def in_language(client, url: str, code: str, **kwargs):
    client.set_cookie(i18n.COOKIE, code)
    return client.get(url, **kwargs)


def check(english, translated, code: str, group: dict[str, object], where: str) -> list[str]:
    """What is wrong with ``translated`` (the page ``english`` in ``code``) in ``group``."""
    problems = []
    if translated.status_code != english.status_code:
        problems.append(f"{where} [{code}]: {translated.status_code}, in English {english.status_code}")
    page = seen(translated.get_data(as_text=True))
    if (page.lang, page.dir) != (code, LANGUAGES[code]):
        problems.append(f"{where} [{code}]: lang={page.lang!r} dir={page.dir!r}")
    if not all(f'hreflang="{other}"' in translated.get_data(as_text=True) for other in i18n.LANGUAGES):
        problems.append(f"{where} [{code}]: no language switch")
    if translated.headers.get("Content-Language") != code:
        problems.append(f"{where} [{code}]: Content-Language {translated.headers.get('Content-Language')!r}")
    left = english_left(english.get_data(as_text=True), translated.get_data(as_text=True),
                        group["names"][code], group["data"])  # type: ignore[index]
    if left:
        problems.append(f"{where} [{code}]: English left: {', '.join(sorted(left))}")
    return problems


@pytest.mark.slow  # every page of the site, in every language (make test-fast leaves it out)
def test_every_page_is_drawn_in_each_language_without_an_english_word_left(client, group):
    client.set_cookie(i18n.COOKIE, "en")
    english = crawled(client)
    pages = list(english)
    assert len(pages) > 60  # sheets, explanations, forms, players, history, what-if, the printable sheet …
    problems = []
    for code in LANGUAGES:
        for url in pages:
            problems += check(english[url], in_language(client, url, code), code, group, url)
    assert not problems, "\n".join(problems)


def test_the_welcome_page_and_the_calculator_without_a_group_link_in_each_language(app, group):
    phone = app.test_client(join=False)
    problems = []
    for url in ("/welcome", "/calculator", "/calculator?game=trix", "/offline"):
        phone.set_cookie(i18n.COOKIE, "en")
        english = phone.get(url)
        assert english.status_code == 200, url
        for code in LANGUAGES:
            problems += check(english, in_language(phone, url, code), code, group, url)
    assert not problems, "\n".join(problems)


@pytest.fixture
def limited_app(tmp_path):
    """An app with its limits on (one write a minute), and a page that answers 400."""
    from flask import abort

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "limited.sqlite3"),
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": True, "WRITE_LIMIT": "1 per minute"})
    app.add_url_rule("/unreadable", "unreadable", lambda: abort(400))
    return app


def test_the_error_pages_refused_forms_and_a_read_only_links_pages_in_each_language(app, client, db, group, limited_app):
    game_id = db.execute("select id from games where kind = 'trix'").fetchone()[0]
    read_only = app.test_client(join=False)
    read_only.get(f"/g/{groups.view_link(db, groups.only_group(db).id)}")
    no_link = app.test_client(join=False)
    limited = limited_app.test_client()
    new_game = {"player_0": "Anna", "player_1": "Ben", "player_2": "Carla", "first_dealer": "0", "target": "500"}
    limited.post("/games/new?kind=trigami", data=new_game)
    requests = [  # (what, phone, method, url, data, expected status)
        ("read-only home", read_only, "get", "/", None, 200),
        ("read-only sheet", read_only, "get", f"/games/{game_id}", None, 200),
        ("a refused new game", client, "post", "/games/new?kind=trigami", {"player_0": "Anna"}, 400),
        ("a refused Trix deal", client, "post", f"/games/{game_id}/deals/new", {"contracts": "king"}, 400),
        ("404 no such game", client, "get", "/games/no-such-game", None, 404),
        ("404 no such deal", client, "get", f"/games/{game_id}/explain/99", None, 404),
        ("400", limited, "get", "/unreadable", None, 400),
        ("403 read-only", read_only, "post", f"/games/{game_id}/deals/new", {}, 403),
        ("403 without a link", no_link, "post", "/games/new?kind=trigami", new_game, 403),
        ("413", client, "post", "/games/new?kind=trigami", {**new_game, "x": "y" * (2 * 1024 * 1024)}, 413),
        ("429", limited, "post", "/games/new?kind=trigami", new_game, 429),
    ]
    problems = []
    for what, phone, method, url, data, status in requests:
        phone.set_cookie(i18n.COOKIE, "en")
        english = getattr(phone, method)(url, data=data)
        assert english.status_code == status, what
        for code in LANGUAGES:
            phone.set_cookie(i18n.COOKIE, code)
            problems += check(english, getattr(phone, method)(url, data=data), code, group, what)
    assert not problems, "\n".join(problems)



# ---------------------------------------------------------------- choosing and switching

IN_ARABIC = {"Accept-Language": "ar-EG,ar;q=0.9,en;q=0.5"}


def switch_link(html: str, code: str) -> str:
    """The language switch's link to ``code`` on a page."""
    match = re.search(rf'<a href="([^"]+)" hreflang="{code}" lang="{code}"', html)
    assert match, f"no switch to {code}"
    return match.group(1).replace("&amp;", "&")


def catalogue(code: str):
    """The shipped catalogue of ``code`` (what a translator wrote)."""
    from babel.messages.pofile import read_po

    with (Path(i18n.__file__).parent / "translations" / code / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=code)


def said(messages, msgid: str, context: str | None = None) -> str:
    """``msgid`` as the catalogue ``messages`` translates it (never empty)."""
    message = messages.get(msgid, context=context)
    assert message is not None and message.string, (msgid, context)
    return message.string


# What separates a spreadsheet's cells where Excel is set to the language (issue 18): a
# semicolon where a comma is the decimal mark
SEPARATORS = {"en": ",", "ar": ",", "de": ";", "fi": ";"}


def read_csv(response, separator: str = ",") -> list[list[str]]:
    import csv
    import io

    text = response.get_data().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=separator))
    # the header's cells hold no separator, so each one between them splits two cells
    assert text.splitlines()[0].count(separator) == len(rows[0]) - 1 > 1
    return rows


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_spreadsheet_download_is_in_each_language(client, make_game, code):
    """The CSV's headers, contracts, bids and notes are the catalogue's words; names and
    numbers stay as they are (export.py)."""
    messages = catalogue(code)
    trix = make_game(kind="trix", players=PLAYERS, options={"partnership": "sum"}, deals=TRIX_KINGDOM)
    trigami = make_game(deals=[WORKED_TRIGAMI_DEAL] * 3)  # Ben reaches 600 first and wins

    answer = in_language(client, f"/games/{trix}/sheet.csv", code)
    assert answer.status_code == 200 and answer.headers["Content-Language"] == code
    rows = read_csv(answer, SEPARATORS[code])
    assert rows[0] == [said(messages, "Deal"), said(messages, "Dealer"), said(messages, "Kingdom"),
                       said(messages, "Contracts")] + [
        said(messages, "{name}: how it was worked out").format(name=name) for name in PLAYERS] + [
        cell.format(name=name) for name in PLAYERS
        for cell in (said(messages, "{name}: points"), said(messages, "{name}: total"))]
    # how each player's points were worked out, in the reader's words: Carla took the K♥
    # Ben doubled (SCORING.md §2.2)
    took = said(messages, "took the {card}, doubled by {doubler}: {points}")
    assert all(part in rows[1][6] for part in re.split(r"\{\w+\}", took)) and "Ben" in rows[1][6]
    contracts = ("King of Hearts", "Queens", "Diamonds", "Tricks", "Trix")
    # a soft hyphen is where a button's word may break (Finnish "Hertta-kuningas" at 360
    # px), not a character for a spreadsheet to sort or search by
    assert [row[3] for row in rows[1:6]] == [said(messages, c, "contract").replace("\u00ad", "") for c in contracts]
    assert not any("\u00ad" in cell for row in rows for cell in row)
    assert rows[6][0] == said(messages, "Total")
    together = said(messages, " & ", "list separator")  # Arabic: "Anna وCarla"
    assert [row[0] for row in rows[7:9]] == [said(messages, "Team total: {names}").format(names=together.join(names))
                                             for names in (("Anna", "Carla"), ("Ben", "Dan"))]

    rows = read_csv(in_language(client, f"/games/{trigami}/sheet.csv", code), SEPARATORS[code])
    # Carla's running total, 13 a deal (SCORING.md §1.2): a number a sum can add
    assert [row[-1] for row in rows[1:4]] == ["13", "26", "39"]
    assert rows[0][:5] == [said(messages, "Deal"), said(messages, "Dealer"),
                           said(messages, "{name}: bid").format(name="Anna"),
                           said(messages, "{name}: tricks").format(name="Anna"),
                           said(messages, "{name}: bugs").format(name="Anna")]
    assert (rows[1][2], rows[1][5]) == (said(messages, "Turnip {suit}").format(suit="♦"),
                                        said(messages, "Doublets {suit}").format(suit="♠"))
    # one winner: the catalogue's form for 1 (the plural forms: tests/test_explain_teams.py)
    won = said(messages, "Won by: {names}")
    one = won[gettext.c2py(messages.plural_expr)(1)] if isinstance(won, tuple) else won
    assert rows[-1] == [one.format(names="Ben")]


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_installed_apps_name_and_description_are_in_each_language(client, code):
    """The manifest a phone installs the app from: its name under the icon (at most 12
    characters), description, language and direction (views/app_shell.py)."""
    messages = catalogue(code)
    answer = in_language(client, "/manifest.webmanifest", code)
    assert answer.headers["Content-Language"] == code
    manifest = answer.get_json(force=True)
    assert manifest["name"] == manifest["short_name"] == said(messages, "Scorekeeper")
    assert len(manifest["short_name"]) <= 12
    assert manifest["description"] == said(
        messages, "Keeps score at the card table: Trigami, plain Bugami for three and Trix.")
    assert manifest["description"] != "Keeps score at the card table: Trigami, plain Bugami for three and Trix."
    assert (manifest["lang"], manifest["dir"]) == (code, LANGUAGES[code])


def test_the_first_visit_is_in_the_language_the_phone_asks_for(client, make_game):
    game_id = make_game(kind="trix")
    for url in ("/", f"/games/{game_id}", "/players", "/calculator"):
        page = client.get(url, headers=IN_ARABIC)
        html = page.get_data(as_text=True)
        assert '<html lang="ar" dir="rtl"' in html, url
        assert page.headers["Content-Language"] == "ar"
        assert {"Accept-Language", "Cookie"} <= set(page.vary), url
    assert '<html lang="fi" dir="ltr"' in client.get("/", headers={"Accept-Language": "fi-FI"}).get_data(as_text=True)
    assert '<html lang="en" dir="ltr"' in client.get("/", headers={"Accept-Language": "sv"}).get_data(as_text=True)


def test_the_switch_brings_the_phone_back_in_its_language_and_keeps_it(client, make_game):
    game_id = make_game(kind="trix")
    sheet = client.get(f"/games/{game_id}", headers=IN_ARABIC).get_data(as_text=True)
    assert 'aria-current="true">العربية<' in sheet  # the page's own language is marked
    switched = client.get(switch_link(sheet, "de"), headers=IN_ARABIC)
    assert switched.status_code == 303 and switched.location == f"/games/{game_id}"
    cookie = switched.headers["Set-Cookie"]
    assert cookie.startswith("lang=de;") and "Max-Age=34560000" in cookie  # 400 days
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie and "Path=/" in cookie
    # the choice wins over the phone's Accept-Language, on that page and every next one
    for url in (f"/games/{game_id}", "/", "/players", f"/games/{game_id}/deals/new?contract=king"):
        page = client.get(url, headers=IN_ARABIC)
        assert '<html lang="de" dir="ltr"' in page.get_data(as_text=True), url
        assert page.headers["Content-Language"] == "de"
    back = client.get(switch_link(client.get("/players").get_data(as_text=True), "ar"))
    assert back.location == "/players"
    assert '<html lang="ar" dir="rtl"' in client.get("/players").get_data(as_text=True)


def test_the_switch_works_without_a_group_and_on_a_read_only_link(app, db, make_game):
    game_id = make_game()
    stranger = app.test_client(join=False)
    welcome = stranger.get("/welcome").get_data(as_text=True)
    answer = stranger.get(switch_link(welcome, "fi"))
    assert answer.status_code == 303 and answer.location == "/welcome"
    assert '<html lang="fi"' in stranger.get("/welcome").get_data(as_text=True)
    viewer = app.test_client(join=False)
    viewer.get(f"/g/{groups.view_link(db, groups.only_group(db).id)}")
    sheet = viewer.get(f"/games/{game_id}").get_data(as_text=True)
    answer = viewer.get(switch_link(sheet, "ar"))
    assert answer.status_code == 303 and answer.location == f"/games/{game_id}"
    assert '<html lang="ar" dir="rtl"' in viewer.get(f"/games/{game_id}").get_data(as_text=True)


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil.example", "evil",
                                    "", "/\r\nSet-Cookie: x=1"])
def test_the_switch_never_sends_a_phone_to_another_site(client, target):
    answer = client.get("/language/de", query_string={"next": target})
    assert answer.status_code == 303 and answer.location == "/"


def test_a_language_not_offered_is_not_found(client):
    answer = client.get("/language/sv?next=/")
    assert answer.status_code == 404 and "Set-Cookie" not in answer.headers


def test_a_page_kept_or_answered_304_is_never_another_languages(client, make_game):
    game_id = make_game(kind="trix")
    for url in (f"/games/{game_id}", "/", "/players"):  # the sheet, and pages kept for every phone
        client.set_cookie(i18n.COOKIE, "de")
        german = client.get(url, headers=IN_ARABIC)
        assert '<html lang="de"' in german.get_data(as_text=True)
        etag = german.headers["ETag"]
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
        client.set_cookie(i18n.COOKIE, "fi")
        finnish = client.get(url, headers={"If-None-Match": etag})
        assert finnish.status_code == 200 and '<html lang="fi"' in finnish.get_data(as_text=True), url
        assert finnish.headers["ETag"] != etag
        assert {"Accept-Language", "Cookie"} <= set(client.get(url, headers={"If-None-Match": finnish.headers["ETag"]}).vary)
        client.delete_cookie(i18n.COOKIE)  # the phone's Accept-Language again: not the kept German page
        arabic = client.get(url, headers={**IN_ARABIC, "If-None-Match": etag})
        assert arabic.status_code == 200 and '<html lang="ar"' in arabic.get_data(as_text=True), url


def test_another_phones_news_comes_in_each_phones_language(client, db, make_game):
    game_id = make_game()
    version = client.get(f"/games/{game_id}/live").get_json()["version"]
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)  # another phone
    url = f"/games/{game_id}/live?since={version}"
    client.set_cookie(i18n.COOKIE, "de")
    german = client.get(url)
    assert german.json["news"].startswith("Spiel 1 wurde auf einem anderen Handy eingetragen")
    client.set_cookie(i18n.COOKIE, "en")
    english = client.get(url, headers={"If-None-Match": german.headers["ETag"]})
    assert english.status_code == 200 and english.json["news"] != german.json["news"]
    assert english.headers["Content-Language"] == "en"


def test_switching_language_changes_nothing_stored(app, client, db, make_game):
    trix = make_game(kind="trix", deals=TRIX_KINGDOM)
    trigami = make_game(deals=[WORKED_TRIGAMI_DEAL] * 2)
    stored = list(db.conn.iterdump())
    files = {}
    for code in i18n.LANGUAGES:
        client.get(f"/language/{code}?next=/")
        for game_id in (trix, trigami):
            client.get(f"/games/{game_id}")
            answer = client.get(f"/games/{game_id}/game.json")
            assert "Content-Language" not in answer.headers  # a game file has no language
            files.setdefault(game_id, set()).add(answer.data)
    assert all(len(versions) == 1 for versions in files.values())  # byte for byte the same
    assert list(db.conn.iterdump()) == stored
