"""Player names of mixed scripts never scramble a line (issue 10, "Mixed directions").

Arabic and Latin names at one table (سارة, محمد, Anna, Bob): without isolation the
bidirectional algorithm reorders a name with its neighbours, so "Deal 7 saved: سارة +75,
محمد 0, Anna 0" shows as "Deal 7 saved: 0 محمد ,75+ سارة, Anna 0". Every name in a page is
therefore in a <bdi>, or, in plain text (flash messages, <title>, <option>, SVG text, JSON
news), between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE.
"""

from __future__ import annotations

import html
import re
from collections import deque
from html.parser import HTMLParser

import pytest

from scorekeeper import groups, store
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_conflicts import CLEAN_FORM, open_form
from tests.test_gamefile import TRIX_KINGDOM
from tests.test_web import WORKED_FORM, text

FSI, PDI = "\u2068", "\u2069"
TRIX_PLAYERS = ["سارة", "محمد", "Anna", "Bob"]
TRIGAMI_PLAYERS = ["سارة", "Bob", "محمد"]
GROUP_NAME = "أصدقاء الورق"
NAMES = [*TRIX_PLAYERS, GROUP_NAME]
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Isolation(HTMLParser):
    """Every name in a text node either inside a <bdi>, inside an element of the page with
    a dir attribute (HTML isolates its content as a <bdi>'s: a count's label, dir="auto",
    runs the way its name does), or between FSI and PDI; names in attribute values are
    left alone (an attribute is not laid out beside other text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.isolating: list[bool] = []
        self.bare: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag not in VOID:
            self.stack.append(tag)
            self.isolating.append(tag == "bdi" or (tag != "html" and any(name == "dir" for name, _ in attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.stack:
            while self.stack:
                self.isolating.pop()
                if self.stack.pop() == tag:
                    break

    def handle_data(self, data: str) -> None:
        # a quoted rule text's own examples ("Anna bids Turnip …") name no player here
        if any(self.isolating) or "blockquote" in self.stack:
            return
        for name in NAMES:
            for match in re.finditer(re.escape(name), data):
                before, after = data[:match.start()], data[match.end():]
                if not (before.endswith(FSI) and after.startswith(PDI)):
                    where = "/".join(self.stack[-4:])
                    self.bare.append(f"{where}: …{before[-40:]}[{name}]{after[:40]}…")


def bare_names(page: str) -> list[str]:
    """Each occurrence of a name in ``page`` that is not isolated, with its place."""
    parser = _Isolation()
    parser.feed(page)
    parser.close()
    return parser.bare


def test_names_in_bdi_puts_each_isolated_name_into_an_element_and_escapes_the_rest():
    from scorekeeper.text import isolate, left_to_right, names_in_bdi

    said = names_in_bdi(f"{isolate('سارة')}'s diamonds, {isolate('<b>Bob</b>')} {left_to_right('+75')} & more")
    assert str(said) == ("<bdi>سارة</bdi>&#39;s diamonds, <bdi>&lt;b&gt;Bob&lt;/b&gt;</bdi> \u2066+75\u2069 "
                         "&amp; more")
    assert bare_names(f"<p>{said}</p>") == []
    assert str(names_in_bdi(f"{FSI}unclosed <i>")) == f"{FSI}unclosed &lt;i&gt;"  # no PDI: left as text
    assert str(names_in_bdi("Contract")) == "Contract"


def test_the_checker_tells_isolated_names_from_bare_ones():
    assert bare_names("<p><bdi>سارة</bdi> +75, \u2068Anna\u2069 0 <a title='Bob'>x</a></p>") == []
    assert bare_names("<p>سارة +75</p>") and bare_names("<title>Bob</title>")
    assert bare_names('<label for="d" dir="auto">سارة</label>') == []
    assert bare_names('<html dir="ltr"><body><p>سارة +75</p></body></html>')  # the page's own dir isolates nothing


@pytest.fixture
def mixed_games(client, db):
    """A Trix game of four (partners, two kingdoms, one deal deleted), a Trigami game of
    three, and the group renamed in Arabic; returns the games' ids."""
    groups.rename(db, groups.all_groups(db)[0].id, GROUP_NAME)
    trix = store.create_game(db, from_dict(game_file("trix", players=TRIX_PLAYERS, options={"partnership": "sum"},
                                                     deals=TRIX_KINGDOM * 2)))
    trigami = store.create_game(db, from_dict(game_file(players=TRIGAMI_PLAYERS, deals=[WORKED_TRIGAMI_DEAL] * 2)))
    store.create_game(db, from_dict(game_file("bugami3", players=["Anna", "محمد", "سارة"])))
    for game_id in (trix, trigami):
        deal_id = store.get_game(db, game_id).deals[-1].id
        assert client.post(f"/games/{game_id}/deals/{deal_id}/delete").status_code == 302
    return trix, trigami


def test_every_name_on_every_page_is_isolated(client, mixed_games):
    seen: set[str] = set()
    queue = deque(["/"])
    bare: dict[str, str] = {}  # each bare name in its place → the first page it is on
    while queue and len(seen) < 3000:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        if "text/html" not in response.content_type:
            continue
        page = response.get_data(as_text=True)
        for found in bare_names(page):
            bare.setdefault(found, url)
        for href in re.findall(r'href="([^"#]+)', page):
            href = html.unescape(href)
            # not the language switch: it changes this phone's language and answers with a redirect page
            if href.startswith("/") and not href.startswith(("/static/", "/g/", "/language/", "/digits/")) and href not in seen:
                queue.append(href)
    assert len(seen) > 100  # sheets, forms, explanations, history, players, past games, print …
    assert bare == {}


def test_pages_after_a_post_isolate_every_name(client, mixed_games):
    _trix, trigami = mixed_games
    pages = {}
    # a phone whose form is out of date: the conflict page names what arrived
    seen = open_form(client, trigami)
    assert client.post(f"/games/{trigami}/deals/new", data={**WORKED_FORM, "seen": open_form(client, trigami)}
                       ).status_code == 302
    refused = client.post(f"/games/{trigami}/deals/new", data={**CLEAN_FORM, "seen": seen})
    assert refused.status_code == 409
    pages["conflict"] = refused.get_data(as_text=True)
    # a refused deal: its errors name the players
    wrong = client.post(f"/games/{trigami}/deals/new", data={**WORKED_FORM, "nonce": "w", "tricks_1": "9"})
    assert wrong.status_code == 400
    pages["refused deal"] = wrong.get_data(as_text=True)
    # a new game's flash, and the group's rename
    new = client.post("/games/new?kind=trigami", data={"player_0": "سارة", "player_1": "Anna", "player_2": "محمد",
                                                       "first_dealer": "0", "target": "500"}, follow_redirects=True)
    pages["new game"] = new.get_data(as_text=True)
    renamed = client.post("/group", data={"action": "rename", "rename-name": GROUP_NAME}, follow_redirects=True)
    pages["group renamed"] = renamed.get_data(as_text=True)
    assert {name: bare_names(page) for name, page in pages.items()} == {name: [] for name in pages}


def test_the_saved_message_keeps_its_order(client, db):
    game_id = store.create_game(db, from_dict(game_file("trix", players=TRIX_PLAYERS, first_dealer=1)))
    # King of Hearts (SCORING.md §2.1): محمد owns, Anna takes it, doubled by محمد: Anna −150, محمد +75
    response = client.post(f"/games/{game_id}/deals/new", data={
        "nonce": "k", "contracts": "king", "king_taker": "2", "king_doubled_by": "1"})
    assert response.status_code == 302
    assert ("Deal 1 saved: \u2068سارة\u2069 0, \u2068محمد\u2069 +75, \u2068Anna\u2069 −150, \u2068Bob\u2069 0."
            in text(client.get(f"/games/{game_id}")))


def test_the_live_news_keeps_its_order(client, db):
    game_id = store.create_game(db, from_dict(game_file(players=TRIGAMI_PLAYERS)))
    version = client.get(f"/games/{game_id}/live").get_json()["version"]
    store.add_deal(db, game_id, WORKED_TRIGAMI_DEAL)  # another phone; SCORING.md §1.2: +80, +200, +13
    news = client.get(f"/games/{game_id}/live?since={version}").get_json()["news"]
    assert news == "Deal 1 was added on another phone: \u2068سارة\u2069 +80, \u2068Bob\u2069 +200, \u2068محمد\u2069 +13."


def test_the_spreadsheet_keeps_names_as_typed(client, mixed_games):
    """A CSV cell is data: "سارة" in it must equal "سارة" typed into a filter (export.py)."""
    trix, _trigami = mixed_games
    body = client.get(f"/games/{trix}/sheet.csv").get_data(as_text=True)
    assert "سارة" in body and "Bob: total" in body
    assert FSI not in body and PDI not in body
