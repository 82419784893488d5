"""Groups (issue 9, part 1): each group's games are its own, reached through a private
link; read-only links change nothing; a replaced link stops working; a passcode guards a
link that went too far; a database from before groups keeps every game and score.

Two groups share one server in these tests: Anna, Ben and Carla play in one, Xavier,
Yolanda and Zeno in the other; a page of one that shows a name, a game's id or a player's
id of the other is a leak.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import sqlite3
from collections import deque
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import werkzeug.security
from click.testing import CliRunner

from scorekeeper import create_app, groups, i18n, store
from scorekeeper.cli import main
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, csrf_token, game_file

DATA = Path(__file__).parent / "data"
OURS = ["Anna", "Ben", "Carla"]
THEIRS = ["Xavier", "Yolanda", "Zeno"]
TRIX_DEAL = {"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1, "leader": None}}


@pytest.fixture
def two_groups(app):
    """Two groups with games of each kind; returns (ours, theirs) as dicts of the group,
    its games' ids and its players' ids."""
    db = connect(app.config["DATABASE"])
    made = []
    try:
        for names, group_name in ((OURS, "Tuesday table"), (THEIRS, "Other club")):
            group = groups.create(db, group_name)
            game_ids = [
                store.create_game(db, from_dict(game_file(players=names, deals=[WORKED_TRIGAMI_DEAL])),
                                  group_id=group.id),
                store.create_game(db, from_dict(game_file(kind="trix", players=[*names, names[0] + "ine"],
                                                          deals=[TRIX_DEAL])), group_id=group.id),
            ]
            player_ids = list(store.player_names(db, group.id))
            made.append({"group": group, "games": game_ids, "players": player_ids, "names": names})
    finally:
        db.conn.close()
    return made


def phone(app, token: str | None):
    """A phone that opened the link ``token`` (None: no link at all)."""
    return app.test_client(join=token or False)


def crawl(client, start: str = "/", limit: int = 400) -> dict[str, str]:
    """Every page reached from ``start`` by following links and the app's own GET forms'
    addresses: {address: what it answered (text)}; downloads included."""
    seen: dict[str, str] = {}
    queue = deque([start])
    while queue and len(seen) < limit:
        address = queue.popleft()
        if address in seen:
            continue
        response = client.get(address)
        body = response.get_data(as_text=True)
        seen[address] = body
        if response.status_code in (301, 302, 303):
            queue.append(urlsplit(response.location).path or "/")
            continue
        for href in re.findall(r'href="([^"#]+)', body):
            href = href.replace("&amp;", "&")
            if href.startswith("/") and not href.startswith(("/static/", "/language/", "/digits/")):
                queue.append(href)
    return seen


def leaks(pages: dict[str, str], other: dict) -> list[str]:
    """What of ``other``'s group shows on ``pages``: (address, what) pairs as strings."""
    found = []
    for address, body in pages.items():
        for name in other["names"]:
            if name in body:
                found.append(f"{address}: {name}")
        for game_id in other["games"]:
            if game_id in body:
                found.append(f"{address}: game {game_id}")
        if other["group"].name in body:
            found.append(f"{address}: group name")
        if other["group"].token in body:
            found.append(f"{address}: group link")
    return found


def test_every_page_of_one_group_shows_nothing_of_the_other(app, two_groups):
    ours, theirs = two_groups
    client = phone(app, ours["group"].token)
    pages = crawl(client)
    assert any("Anna" in body for body in pages.values())  # it did see its own games
    assert len(pages) > 30 and any("/players/" in a for a in pages) and any(a.endswith(".csv") for a in pages)
    assert leaks(pages, theirs) == []


def test_another_groups_games_and_players_are_not_found(app, two_groups):
    ours, theirs = two_groups
    client = phone(app, ours["group"].token)
    for game_id in theirs["games"]:
        for path in (f"/games/{game_id}", f"/games/{game_id}/game.json", f"/games/{game_id}/history",
                     f"/games/{game_id}/sheet.csv", f"/games/{game_id}/explain/1", f"/games/{game_id}/deals/new"):
            assert client.get(path).status_code == 404, path
        assert client.get(f"/games/{game_id}/live").status_code == 404
        assert client.post(f"/games/{game_id}/deals/new", data={"nonce": "x"}).status_code == 404
    for player_id in theirs["players"]:
        assert client.get(f"/players/{player_id}").status_code == 404
        assert "Xavier" not in client.get(f"/?player={player_id}").get_data(as_text=True)


def test_a_phone_without_a_link_sees_how_to_start_or_join_and_nothing_else(app, two_groups):
    stranger = phone(app, None)
    home = stranger.get("/", follow_redirects=True)
    text = home.get_data(as_text=True)
    assert "Start a group" in text and "Join your group" in text
    pages = crawl(stranger)
    for group in two_groups:
        assert leaks(pages, group) == []
    for group in two_groups:
        for game_id in group["games"]:
            answer = stranger.get(f"/games/{game_id}")
            assert answer.status_code == 302 and answer.location == "/welcome"
            assert stranger.get(f"/games/{game_id}/game.json").location == "/welcome"
        assert stranger.get(f"/players/{group['players'][0]}").location == "/welcome"
    # the same answer for a game that exists as for one that does not
    assert stranger.get("/games/no-such-game").location == "/welcome"
    assert stranger.post(f"/games/{two_groups[0]['games'][0]}/deals/new", data={}).status_code == 403


def test_starting_a_group_is_one_tap_and_the_phone_is_in_it(app, two_groups):
    newcomer = phone(app, None)
    answer = newcomer.post("/groups/new", data={"name": ""})
    assert answer.status_code == 302
    home = newcomer.get("/").get_data(as_text=True)
    assert "Your group is ready" in home and "No games yet" in home
    # one tap to the link to share (tester 16)
    assert '<a href="/group#share-head">Invite the others</a>' in home
    for group in two_groups:
        assert leaks({"/": home}, group) == []
    page = newcomer.get("/group").get_data(as_text=True)
    db = connect(app.config["DATABASE"])
    newest = groups.all_groups(db)[-1]
    db.conn.close()
    assert f"/g/{newest.token}" in page and newest.name == "Our games"


def test_a_group_started_on_a_german_phone_is_called_unsere_partien_in_every_language(app):
    """No English group name at the top of a German group's pages: the default name is
    the starting phone's language's, and, stored, it stays when a phone reads another."""
    german = phone(app, None)
    german.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-DE,de;q=0.9"
    assert german.post("/groups/new", data={"name": ""}).status_code == 302
    assert "Unsere Partien" in german.get("/").get_data(as_text=True)
    german.get("/language/fi")
    finnish_page = german.get("/").get_data(as_text=True)
    assert 'lang="fi"' in finnish_page and "Unsere Partien" in finnish_page
    assert "Our games" not in finnish_page


def test_a_link_token_is_unguessable_and_a_wrong_one_opens_nothing(app, two_groups):
    token = two_groups[0]["group"].token
    assert len(token) >= 22 and re.fullmatch(r"[A-Za-z0-9_-]+", token)  # ≥ 128 bits of base64
    wrong = phone(app, None)
    answer = wrong.get(f"/g/{token[:-1]}{'A' if token[-1] != 'A' else 'B'}")
    assert answer.status_code == 404 and "This link does not work" in answer.get_data(as_text=True)
    assert wrong.get("/").location == "/welcome"


def test_a_new_link_stops_the_old_one_on_every_phone(app, two_groups):
    ours = two_groups[0]
    keeper, other = phone(app, ours["group"].token), phone(app, ours["group"].token)
    assert other.get("/").status_code == 200
    refused = keeper.post("/group", data={"action": "new_link"})  # not confirmed: nothing changes
    assert refused.status_code == 400 and other.get("/").status_code == 200
    keeper.post("/group", data={"action": "new_link", "confirm": "yes"})
    assert keeper.get("/").status_code == 200  # the phone that made it keeps working
    assert other.get("/").location == "/welcome"
    assert "no longer works" in other.get("/welcome").get_data(as_text=True)
    assert phone(app, None).get(f"/g/{ours['group'].token}").status_code == 404
    db = connect(app.config["DATABASE"])
    new = groups.get(db, ours["group"].id).token
    db.conn.close()
    assert new != ours["group"].token and f"/g/{new}" in keeper.get("/group").get_data(as_text=True)
    assert phone(app, new).get("/").status_code == 200


def _view_token(app, group_id: int, game_id: str | None = None) -> str:
    db = connect(app.config["DATABASE"])
    try:
        return groups.view_link(db, group_id, game_id)
    finally:
        db.conn.close()


def _counts(app) -> dict[str, int]:
    db = connect(app.config["DATABASE"])
    try:
        return {table: db[table].count for table in ("games", "deals", "players", "changes", "links", "groups")}
    finally:
        db.conn.close()


def test_a_read_only_link_shows_everything_and_changes_nothing(app, two_groups):
    ours, theirs = two_groups
    viewer = phone(app, _view_token(app, ours["group"].id))
    pages = crawl(viewer)
    assert leaks(pages, theirs) == []
    sheet = viewer.get(f"/games/{ours['games'][0]}").get_data(as_text=True)
    assert "Read-only" in sheet and "Add deal" not in sheet and "change or delete" not in sheet
    assert "Anna" in sheet and viewer.get(f"/games/{ours['games'][0]}/history").status_code == 200
    assert viewer.get(f"/players/{ours['players'][0]}").status_code == 200
    assert viewer.get(f"/games/{ours['games'][0]}/game.json").status_code == 200
    before = _counts(app)
    game_id = ours["games"][0]
    deal_id = store.get_game(connect(app.config["DATABASE"]), game_id).deals[0].id
    for path in (f"/games/{game_id}/deals/new", f"/games/{game_id}/deals/{deal_id}/edit",
                 f"/games/{game_id}/deals/{deal_id}/delete", f"/games/{game_id}/edit", "/games/new?kind=trix",
                 "/games/import", "/group", f"/games/{game_id}/read-only-link"):
        assert viewer.get(path).status_code == 403, path
    for rule in app.url_map.iter_rules():  # every route that takes a POST
        if "POST" not in rule.methods or rule.endpoint.startswith("groups."):
            continue
        path = rule.rule.replace("<game_id>", game_id).replace("<int:deal_id>", str(deal_id)).replace("<int:change_id>", "1") \
            .replace("<int:night_id>", "1").replace("<int:number>", "1").replace("<int:player_id>", str(ours["players"][0]))
        assert viewer.post(path, data={"name": "x", "undo": "1"}).status_code == 403, path
    assert _counts(app) == before


@pytest.mark.parametrize("code", ["en", "de", "fi", "ar"])
def test_a_read_only_link_opens_unfinished_games_and_never_says_carry_on(app, two_groups, code):
    # issue 18: a game card seen through a read-only link said "Carry on", in every language
    from tests.test_every_language import catalogue, said

    words = catalogue(code) if code != "en" else None

    def word(msgid: str) -> str:
        return said(words, msgid) if words else msgid

    ours = two_groups[0]
    viewer, player = phone(app, _view_token(app, ours["group"].id)), phone(app, ours["group"].token)
    for client in (viewer, player):
        client.set_cookie(i18n.COOKIE, code)
    seen = html.unescape(viewer.get("/").get_data(as_text=True))
    played = html.unescape(player.get("/").get_data(as_text=True))
    # both games of ours are unfinished (a deal each): two cards under the heading
    assert seen.count(f'>{word("Open")} <span class="dir-arrow">') == 2
    assert f'<h2 id="unfinished-heading">{word("Unfinished")}</h2>' in seen
    assert word("Carry on") not in seen and word("Unfinished — carry on") not in seen
    assert played.count(f'>{word("Carry on")} <span class="dir-arrow">') == 2
    assert f'>{word("Open")} <span' not in played


def test_a_read_only_link_to_one_game_shows_that_game_only(app, two_groups):
    ours, _ = two_groups
    shown, hidden = ours["games"]
    viewer = phone(app, _view_token(app, ours["group"].id, shown))
    assert viewer.get("/").location == f"/games/{shown}"
    assert viewer.get(f"/games/{shown}").status_code == 200
    assert viewer.get(f"/games/{shown}/sheet.csv").status_code == 200
    assert viewer.get(f"/games/{hidden}").status_code == 404
    assert viewer.get("/players").status_code == 404
    assert viewer.get(f"/players/{ours['players'][0]}").status_code == 404
    pages = crawl(viewer, f"/games/{shown}")
    assert not any(hidden in body for body in pages.values())


def test_stopping_read_only_links_stops_them(app, two_groups):
    ours = two_groups[0]
    viewer = phone(app, _view_token(app, ours["group"].id))
    assert viewer.get("/").status_code == 200
    player = phone(app, ours["group"].token)
    player.post("/group", data={"action": "stop_view", "confirm": "yes"})
    assert viewer.get("/").location == "/welcome"
    assert player.get("/").status_code == 200  # the play link is not a read-only one
    # the viewer is told its read-only link was stopped, not that it was replaced
    told = html.unescape(viewer.get("/welcome").get_data(as_text=True))
    assert "its group stopped its read-only links" in told and "replaced by a newer one" not in told
    # a play link replaced is still said so
    old = phone(app, ours["group"].token)
    assert old.get("/").status_code == 200
    player.post("/group", data={"action": "new_link", "confirm": "yes"})
    told = html.unescape(old.get("/welcome").get_data(as_text=True))
    assert "it was replaced by a newer one" in told and "stopped" not in told


def test_a_player_opening_another_groups_read_only_link_can_go_back(app, two_groups):
    ours, theirs = two_groups
    client = phone(app, ours["group"].token)
    view = _view_token(app, theirs["group"].id, theirs["games"][0])
    assert "(read only)?" in client.get(f"/g/{view}").get_data(as_text=True)  # asked first
    assert client.post(f"/g/{view}").status_code == 302  # (CSRF off here)
    sheet = client.get(f"/games/{theirs['games'][0]}").get_data(as_text=True)
    assert "Xavier" in sheet and "Back to my group" in sheet
    assert client.get(f"/games/{ours['games'][0]}").status_code == 404  # looking at theirs now
    client.post("/groups/back")
    assert "Anna" in client.get(f"/games/{ours['games'][0]}").get_data(as_text=True)
    # and a read-only link of its own group takes no right away
    client.get(f"/g/{_view_token(app, ours['group'].id)}")
    assert "Add deal" in client.get(f"/games/{ours['games'][0]}").get_data(as_text=True)


def test_a_passcode_is_asked_once_per_phone(app, two_groups):
    ours = two_groups[0]
    keeper = phone(app, ours["group"].token)
    short = keeper.post("/group", data={"action": "passcode", "pass-passcode": "12"})
    assert short.status_code == 400 and "at least 6 digits" in short.get_data(as_text=True)
    keeper.post("/group", data={"action": "passcode", "pass-passcode": "clubs and spades"})
    assert keeper.get("/").status_code == 200  # the phone that set it is not asked
    newcomer = phone(app, None)
    assert newcomer.get(f"/g/{ours['group'].token}").location == "/passcode"
    assert newcomer.get(f"/games/{ours['games'][0]}").location == "/passcode"
    wrong = newcomer.post("/passcode", data={"passcode": "hearts"})
    assert wrong.status_code == 400 and "not the passcode" in wrong.get_data(as_text=True)
    assert "Anna" not in wrong.get_data(as_text=True)
    assert newcomer.post("/passcode", data={"passcode": "clubs and spades"}).status_code == 302
    assert "Anna" in newcomer.get("/").get_data(as_text=True)
    keeper.post("/group", data={"action": "no_passcode", "confirm": "yes"})
    assert phone(app, ours["group"].token).get("/").status_code == 200


def test_a_passcode_of_digits_may_be_typed_in_groups_as_people_read_it(app, two_groups):
    ours = two_groups[0]
    keeper = phone(app, ours["group"].token)
    # set as digits, typed in groups (with the phone's spaces around them too)
    keeper.post("/group", data={"action": "passcode", "pass-passcode": "482917"})
    for typed in (" 482 917 ", "48 29 17", "٤٨٢ ٩١٧"):
        newcomer = phone(app, ours["group"].token)
        assert newcomer.post("/passcode", data={"passcode": typed}).status_code == 302, typed
        assert newcomer.get("/").status_code == 200
    wrong = phone(app, ours["group"].token).post("/passcode", data={"passcode": "482 918"})
    assert wrong.status_code == 400 and "not the passcode" in wrong.get_data(as_text=True)
    # set in groups: kept as its digits, so typed either way it is the passcode
    keeper.post("/group", data={"action": "passcode", "pass-passcode": "739 164"})
    for typed in ("739164", "739 164"):
        assert phone(app, ours["group"].token).post("/passcode", data={"passcode": typed}).status_code == 302, typed


def test_a_passcode_kept_with_spaces_between_its_digit_groups_still_opens_as_typed(app, two_groups):
    # set before digit groups were read as digits (two "words" of digits passed as a
    # passphrase): it stays the passcode, typed as it was set
    ours = two_groups[0]
    db = connect(app.config["DATABASE"])
    try:
        groups.set_passcode(db, ours["group"].id, "1234 5678")
    finally:
        db.conn.close()
    assert phone(app, ours["group"].token).post("/passcode", data={"passcode": "1234 5678"}).status_code == 302
    refused = phone(app, ours["group"].token).post("/passcode", data={"passcode": "1234 5679"})
    assert refused.status_code == 400


def test_lists_and_statistics_are_kept_apart_per_group(app, two_groups):
    """The kept pages (views/pages.py) and the live version are per group: a change in
    one group is not seen by the other, and neither gets the other's kept page."""
    ours, theirs = two_groups
    mine, yours = phone(app, ours["group"].token), phone(app, theirs["group"].token)
    for path in ("/", "/players"):
        assert "Anna" in mine.get(path).get_data(as_text=True)
        assert "Xavier" in yours.get(path).get_data(as_text=True)
        assert "Anna" not in yours.get(path).get_data(as_text=True)
    version = yours.get("/live").get_json()["version"]
    mine.post(f"/games/{ours['games'][0]}/deals/{_first_deal(app, ours['games'][0])}/delete", data={})
    assert yours.get("/live").get_json()["version"] == version
    assert mine.get("/live").get_json()["version"] > version


def _first_deal(app, game_id: str) -> int:
    db = connect(app.config["DATABASE"])
    try:
        return store.get_game(db, game_id).deals[0].id
    finally:
        db.conn.close()


def test_the_same_name_in_two_groups_is_two_players(app, two_groups):
    ours, theirs = two_groups
    db = connect(app.config["DATABASE"])
    try:
        store.create_game(db, from_dict(game_file(players=["Anna", "Yolanda", "Zeno"])), group_id=theirs["group"].id)
        assert "Anna" in store.player_names(db, theirs["group"].id).values()
        anna_ids = [pid for pid, name in store.player_names(db).items() if name == "Anna"]
    finally:
        db.conn.close()
    assert len(anna_ids) == 2
    mine = phone(app, ours["group"].token)
    anna = next(pid for pid in ours["players"] if pid in anna_ids)
    page = mine.get(f"/players/{anna}").get_data(as_text=True)
    assert "Yolanda" not in page


def test_the_sheets_qr_code_is_the_groups_link_for_a_player_and_the_viewers_own_for_a_viewer(app, two_groups):
    from tests.test_join import decode_modules, join_svg, modules

    ours = two_groups[0]
    game_id = ours["games"][0]
    player = phone(app, ours["group"].token)
    read = decode_modules(modules(join_svg(player.get(f"/games/{game_id}").get_data(as_text=True))))
    assert read == [f"http://localhost/g/{ours['group'].token}?game={game_id}"]
    token = _view_token(app, ours["group"].id)
    viewer = phone(app, token)
    read = decode_modules(modules(join_svg(viewer.get(f"/games/{game_id}").get_data(as_text=True))))
    assert read == [f"http://localhost/g/{token}?game={game_id}"]  # never the play link
    # a phone that scans it lands on the game
    scanner = phone(app, None)
    assert scanner.get(f"/g/{ours['group'].token}?game={game_id}").location == f"/games/{game_id}"


def test_group_page_shows_its_link_as_qr_code(app, two_groups):
    from xml.etree import ElementTree

    from tests.test_join import decode_modules, modules

    ours = two_groups[0]
    page = phone(app, ours["group"].token).get("/group").get_data(as_text=True)
    svg = re.search(r'<svg class="join-qr".*?</svg>', page, re.S).group(0)
    assert decode_modules(modules(ElementTree.fromstring(svg))) == [f"http://localhost/g/{ours['group'].token}"]


def test_a_form_to_the_group_page_needs_its_token_with_csrf_on(csrf_app):
    client = csrf_app.test_client()
    page = client.get("/group").get_data(as_text=True)
    assert client.post("/group", data={"action": "new_link", "confirm": "yes"}).status_code == 400
    answer = client.post("/group", data={"action": "new_link", "confirm": "yes", "csrf_token": csrf_token(page)})
    assert answer.status_code == 302


# --- migration of a database from before groups --------------------------------------------


def test_a_database_from_before_groups_keeps_every_game_and_score(tmp_path, capsys):
    """tests/data/before-groups.sqlite3 was made by the version before groups (with its
    scores in before-groups.json; tests/data/make_before_groups.py): every game goes into
    one group, whose link is told, with its players, deals, history and totals."""
    database = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "before-groups.sqlite3", database)
    before = json.loads((DATA / "before-groups.json").read_text())
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(database), "WTF_CSRF_ENABLED": False})
    told = capsys.readouterr().err
    db = connect(str(database))
    try:
        (group,) = groups.all_groups(db)
        assert f"/g/{group.token}" in told
        for game_id, was in before.items():
            game = store.get_game(db, game_id)
            assert list(game.players) == was["players"] and len(game.deals) == was["deals"]
            assert list(game.game_file().score().totals) == was["totals"]
            assert groups.game_group(db, game_id) == group.id
        assert len(store.changes(db, next(iter(before)))) >= 2  # the history came along
    finally:
        db.conn.close()
    client = app.test_client()
    home = client.get("/").get_data(as_text=True)
    assert all(name in home for name in ("Anna", "Dorothea", "Émile"))
    result = CliRunner(env={"SCOREKEEPER_DATABASE": str(database)}).invoke(main, ["groups"])
    assert result.exit_code == 0 and f"/g/{group.token}" in result.output and "3 games" in result.output


# --- the command line ---------------------------------------------------------------------------


@pytest.fixture
def cli(tmp_path):
    runner = CliRunner(env={"SCOREKEEPER_DATABASE": str(tmp_path / "cli.sqlite3"),
                            "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance")})
    game = tmp_path / "game.json"
    game.write_text(json.dumps(game_file(deals=[WORKED_TRIGAMI_DEAL])))
    return runner, game, tmp_path / "cli.sqlite3"


def test_import_goes_into_the_only_group_and_asks_which_when_there_are_several(cli):
    runner, game, database = cli
    first = runner.invoke(main, ["import", str(game)])
    assert first.exit_code == 0, first.output
    db = connect(str(database))
    try:
        (only,) = groups.all_groups(db)
        other = groups.create(db, "Other club")
    finally:
        db.conn.close()
    several = runner.invoke(main, ["import", "--copy", str(game)])
    assert several.exit_code == 1 and "--group" in several.output
    named = runner.invoke(main, ["import", "--group", "other club", str(game)])
    assert named.exit_code == 0, named.output
    by_number = runner.invoke(main, ["import", "--copy", "--group", str(only.id), str(game)])
    assert by_number.exit_code == 0
    unknown = runner.invoke(main, ["import", "--group", "nobody", str(game)])
    assert unknown.exit_code == 1 and "no group" in unknown.output
    db = connect(str(database))
    try:
        assert len(store.list_games(db, only.id)) == 2 and len(store.list_games(db, other.id)) == 1
    finally:
        db.conn.close()
    listed = runner.invoke(main, ["groups"])
    assert f"/g/{only.token}" in listed.output and f"/g/{other.token}" in listed.output
    assert "2 games" in listed.output and "1 game)" in listed.output


@pytest.fixture
def listing(cli, monkeypatch):
    """``scorekeeper groups`` (arguments as given, extra environment ``env``) on a database
    with one group, on a computer whose Wi-Fi address is 192.0.2.2: (the result, the
    group's token)."""
    runner, game, database = cli
    assert runner.invoke(main, ["import", str(game)]).exit_code == 0
    db = connect(str(database))
    try:
        (group,) = groups.all_groups(db)
    finally:
        db.conn.close()
    monkeypatch.setattr("scorekeeper.network.machine_addresses", lambda: ["192.0.2.2"])

    def run(*args: str, env: dict[str, str | None] | None = None):
        return runner.invoke(main, ["groups", *args], env={"SCOREKEEPER_PUBLIC_URL": None, **(env or {})})

    return run, group.token


def test_groups_without_the_servers_address_print_paths_and_say_how_to_get_whole_links(listing):
    """The command cannot know the port a server runs on (make run PORT=5077): it never
    guesses one (it printed http://192.0.2.2:5000/g/… for a server on 5077), and says
    what to give it instead, with this computer's address it does know."""
    run, token = listing
    result = run()
    assert result.exit_code == 0, result.output
    assert f"\n    /g/{token}\n" in result.stdout
    assert "http" not in result.stdout and ":5000" not in result.stdout
    assert "These links are paths" in result.stderr
    assert "scorekeeper groups --url http://192.0.2.2:PORT" in result.stderr
    assert "SCOREKEEPER_PUBLIC_URL" in result.stderr


def test_groups_with_the_address_phones_open_print_whole_links(listing):
    run, token = listing
    given = run("--url", "http://192.0.2.2:5077/")
    assert given.exit_code == 0, given.output
    assert f"    http://192.0.2.2:5077/g/{token}\n" in given.stdout and given.stderr == ""
    public = run(env={"SCOREKEEPER_PUBLIC_URL": "https://scores.example.org"})
    assert f"    https://scores.example.org/g/{token}\n" in public.stdout and public.stderr == ""
    # --url is this very server: it wins over a PUBLIC_URL configured for another
    both = run("--url", "http://[fd00::5]:8000", env={"SCOREKEEPER_PUBLIC_URL": "https://scores.example.org"})
    assert f"    http://[fd00::5]:8000/g/{token}\n" in both.stdout


@pytest.mark.parametrize("url", ["192.0.2.2:5077", "http://192.0.2.2:99999", "ftp://192.0.2.2", "http://",
                                 "http://a b.example", "http://[::1", "http://192.0.2.2:5077/?x=1",
                                 "http://x/ y", "http://192.0.2.2:5077/club night"])
def test_groups_with_an_address_that_is_none_says_so_without_a_traceback(listing, url):
    run, token = listing
    result = run("--url", url)
    assert result.exit_code == 1
    assert "--url must be the address phones open, like http://192.168.1.20:5000" in result.stderr
    assert "Traceback" not in result.output and token not in result.output


def test_groups_without_a_wifi_address_still_say_what_to_give(listing, monkeypatch):
    run, _token = listing
    monkeypatch.setattr("scorekeeper.network.machine_addresses", list)
    assert "scorekeeper groups --url http://ADDRESS:PORT" in run().stderr


def test_backup_is_a_consistent_copy_readable_by_the_owner_only(cli, tmp_path):
    runner, game, _database = cli
    runner.invoke(main, ["import", str(game)])
    copy = tmp_path / "backup.sqlite3"
    result = runner.invoke(main, ["backup", str(copy)])
    assert result.exit_code == 0, result.output
    assert "1 game" in result.output
    assert copy.stat().st_mode & 0o777 == 0o600
    with sqlite3.connect(copy) as restored:
        assert restored.execute("pragma integrity_check").fetchone()[0] == "ok"
        assert restored.execute("select count(*) from deals").fetchone()[0] == 1
    again = runner.invoke(main, ["backup", str(copy)])
    assert again.exit_code == 1 and "exists already" in again.output  # never overwrites
    # restored in place of the database, the app serves the same game
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(copy)})
    assert "Anna" in app.test_client().get("/").get_data(as_text=True)


def test_a_phone_in_two_groups_can_switch_between_them(app, two_groups):
    ours, theirs = two_groups
    client = phone(app, ours["group"].token)
    assert "on this phone?" in client.get(f"/g/{theirs['group'].token}").get_data(as_text=True)  # asked first
    client.post(f"/g/{theirs['group'].token}")  # a friend's club, confirmed: this phone is there now
    assert "Xavier" in client.get("/").get_data(as_text=True)
    page = client.get("/group").get_data(as_text=True)
    assert "Switch to <bdi>Tuesday table</bdi>" in page and "Switch to <bdi>Other club</bdi>" not in page
    client.post("/groups/switch", data={"to": ours["group"].token})
    assert "Anna" in client.get("/").get_data(as_text=True)
    # a token the phone never opened switches nothing
    stranger = phone(app, None)
    stranger.post("/groups/switch", data={"to": ours["group"].token})
    assert stranger.get("/").location == "/welcome"


def test_a_game_of_the_group_left_on_another_tab_says_where_it_is_and_switches_back_to_it(app, two_groups):
    """Tester 14 (LOW): a phone in two groups, switched to the other on another page or tab,
    then saving a deal of the first group's game, got "Not found". It is told which group
    the game is in, that nothing was saved and that the deal's entries are kept, with a
    switch back that opens the game; a phone that never opened that group gets the plain
    404, as for a game that does not exist, naming nothing."""
    ours, theirs = two_groups
    client = phone(app, ours["group"].token)
    client.post(f"/g/{theirs['group'].token}")  # another tab: this phone is in theirs now
    game = ours["games"][0]
    page = client.get(f"/games/{game}")
    text = page.get_data(as_text=True)
    assert page.status_code == 404
    assert "This game is in <bdi>Tuesday table</bdi>" in text
    assert "This phone is in <bdi>Other club</bdi> now: it was switched there on another page or tab." in text
    assert "Nothing was saved." not in text  # a page opened, nothing sent
    assert "entries are kept" not in client.get(f"/games/{game}/deals/new").get_data(as_text=True)
    before = len(_deals_of(app, game))
    sent = client.post(f"/games/{game}/deals/new", data={"nonce": "n1", "turnip": "D"})
    text = sent.get_data(as_text=True)
    assert sent.status_code == 404 and "Nothing was saved." in text
    assert "The deal's entries are kept on this phone" in text
    assert len(_deals_of(app, game)) == before
    # the switch back opens the game; a game of another group than the one switched to is
    # not followed (the games list instead)
    back = client.post("/groups/switch", data={"to": ours["group"].token, "game": game})
    assert back.status_code == 302 and back.location == f"/games/{game}"
    assert "Anna" in client.get(back.location).get_data(as_text=True)
    elsewhere = client.post("/groups/switch", data={"to": ours["group"].token, "game": theirs["games"][0]})
    assert elsewhere.location == "/"
    # a phone of theirs alone: ours is a group it never opened
    stranger = phone(app, theirs["group"].token)
    plain = stranger.get(f"/games/{game}")
    assert plain.status_code == 404 and "Tuesday table" not in plain.get_data(as_text=True)
    none = stranger.get("/games/no-such-game")
    assert plain.get_data(as_text=True).replace(game, "<id>") == none.get_data(as_text=True).replace("no-such-game", "<id>")


def _deals_of(app, game_id: str) -> list:
    db = connect(app.config["DATABASE"])
    try:
        return list(store.get_game(db, game_id).deals)
    finally:
        db.conn.close()


def test_a_passcode_is_kept_only_as_a_slow_salted_hash(app, two_groups, monkeypatch):
    # the app's own hash, not the conftest's cheaper one: Werkzeug's scrypt at its full work
    # (2**15), salted, so that a copied database gives up no passcode quickly
    monkeypatch.setattr(groups, "generate_password_hash", werkzeug.security.generate_password_hash)
    ours = two_groups[0]
    keeper = phone(app, ours["group"].token)
    keeper.post("/group", data={"action": "passcode", "pass-passcode": "clubs and spades"})
    database = connect(app.config["DATABASE"])
    try:
        stored = database.execute("select passcode from groups where id = ?", [ours["group"].id]).fetchone()[0]
        assert stored.startswith("scrypt:32768:8:1$") and "clubs" not in stored
        assert groups.check_passcode(database, ours["group"].id, "clubs and spades")
        assert not groups.check_passcode(database, ours["group"].id, "clubs and hearts")
        groups.set_passcode(database, two_groups[1]["group"].id, "clubs and spades")
        theirs = database.execute("select passcode from groups where id = ?", [two_groups[1]["group"].id]).fetchone()[0]
        assert theirs != stored  # salted: one passcode, two hashes
    finally:
        database.conn.close()


CONTROL = "A group's name cannot hold invisible or control characters: they are taken out above."


@pytest.mark.parametrize(("typed", "said", "shown"), [
    ("\u202e", CONTROL, None),  # the tester's
    ("\u202eFriday", CONTROL, "Friday"),  # shown without the override, to save as it reads (tester 42)
    ("\u2800 \u2800", "Give the group a name with letters or digits.", None),  # blank, but typeable
])
def test_a_group_name_is_told_what_is_wrong_with_it(app, two_groups, typed, said, shown):
    keeper = phone(app, two_groups[0]["group"].token)
    answer = keeper.post("/group", data={"action": "rename", "rename-name": typed})
    assert answer.status_code == 400
    assert said in html.unescape(answer.get_data(as_text=True))
    if shown is not None:
        field = re.search(r'<input[^>]*name="rename-name"[^>]*>', answer.get_data(as_text=True)).group(0)
        assert f'value="{shown}"' in field, field
    assert two_groups[0]["group"].name in html.unescape(keeper.get("/group").get_data(as_text=True))


def test_a_group_name_with_control_characters_names_the_button_of_its_own_form(app, two_groups):
    """Tester 58: starting a group, the message said "Tap Save again" under a button that
    reads "Start a group"; renaming one, the button reads "Rename"."""
    answer = app.test_client(join=False).post("/groups/new", data={"name": "\u202eFriday", "nonce": "n1"})
    said = html.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 400 and CONTROL + " Tap “Start a group” again if it reads right." in said
    assert ">Start a group</button>" in said
    keeper = phone(app, two_groups[0]["group"].token)
    said = html.unescape(keeper.post("/group", data={"action": "rename", "rename-name": "\u202eFriday"}).get_data(as_text=True))
    assert CONTROL + " Tap “Rename” again if it reads right." in said and ">Rename</button>" in said
    keeper.set_cookie("lang", "de")
    said = html.unescape(keeper.post("/group", data={"action": "rename", "rename-name": "\u202eFriday"}).get_data(as_text=True))
    assert "Tippe noch einmal auf „Umbenennen“, wenn er richtig lautet." in said and ">Umbenennen</button>" in said


@pytest.mark.parametrize(("typed", "kept"), [
    ("سهرة\u200f الخميس", "سهرة الخميس"),  # a right-to-left mark a keyboard left (tester 38)
    ("\u200eFriday\u200b club", "Friday club"),
    ("می\u200cروم", "می\u200cروم"),  # a Persian zero-width non-joiner shapes the letters: kept
])
def test_a_group_name_drops_marks_that_show_nothing_and_keeps_joiners(app, two_groups, typed, kept):
    keeper = phone(app, two_groups[0]["group"].token)
    answer = keeper.post("/group", data={"action": "rename", "rename-name": typed})
    assert answer.status_code == 302, html.unescape(answer.get_data(as_text=True))[:300]
    assert kept in html.unescape(keeper.get("/group").get_data(as_text=True))


def test_a_passcode_nobody_could_type_is_refused(app, two_groups):
    keeper = phone(app, two_groups[0]["group"].token)
    for invisible in ("\u200b\u200b\u200b\u200b", "abc\u202e", "ab\x00cd"):
        answer = keeper.post("/group", data={"action": "passcode", "pass-passcode": invisible})
        assert answer.status_code == 400 and "no invisible or control characters" in answer.get_data(as_text=True)
    assert phone(app, two_groups[0]["group"].token).get("/").status_code == 200  # still no passcode asked


def test_guessing_a_passcode_is_slowed_down_per_phone_and_per_group(app, two_groups):
    """Wrong passcodes are counted per phone (5 a minute) and per group from every phone
    (here 8 an hour): then 429 with what to do, and not even the right passcode is tried
    until the wait is over; right ones are not counted. Another phone on the same
    address has its own count (tests/test_passcode_guessing.py has the rest)."""
    app.config.update(PASSCODE_LIMIT_PHONE="5 per minute", PASSCODE_LIMIT_GROUP="8 per hour")
    ours = two_groups[0]
    keeper = phone(app, ours["group"].token)
    keeper.post("/group", data={"action": "passcode", "pass-passcode": "clubs and spades"})
    guesser = phone(app, ours["group"].token)
    answers = [guesser.post("/passcode", data={"passcode": f"guess {n}"}).status_code for n in range(6)]
    assert answers == [400] * 5 + [429]
    stopped = guesser.post("/passcode", data={"passcode": "clubs and spades"})
    assert stopped.status_code == 429 and "Too many wrong passcodes from this phone" in stopped.get_data(as_text=True)
    assert "Anna" not in stopped.get_data(as_text=True)
    # another phone (same address) has its own count, but the group's is shared
    other = phone(app, ours["group"].token)
    assert [other.post("/passcode", data={"passcode": f"other {n}"}).status_code for n in range(4)] == [400, 400, 400, 429]
    third = app.test_client(join=ours["group"].token)
    third.environ_base["REMOTE_ADDR"] = "10.0.0.10"
    group_stop = third.post("/passcode", data={"passcode": "clubs and spades"})
    page = group_stop.get_data(as_text=True)
    assert group_stop.status_code == 429 and "for this group" in page and "Let a phone in" in page
    # the other group is not slowed down by this one's guessing
    theirs = two_groups[1]
    phone(app, theirs["group"].token).post("/group", data={"action": "passcode", "pass-passcode": "hearts and clubs"})
    fourth = app.test_client(join=theirs["group"].token)
    fourth.environ_base["REMOTE_ADDR"] = "10.0.0.11"
    assert fourth.post("/passcode", data={"passcode": "hearts and clubs"}).status_code == 302


@pytest.mark.parametrize("name", ["\u200b\u200b", "Club\u202e", "Tab\x07le"])
def test_a_group_name_must_show_and_steer_nothing(app, name):
    newcomer = phone(app, None)
    answer = newcomer.post("/groups/new", data={"name": name})
    assert answer.status_code == 400 and newcomer.get("/").location == "/welcome"
    assert 'class="errors"' in answer.get_data(as_text=True)


def test_a_group_name_too_long_is_said_not_cut(app, two_groups):
    """Tester 25: a long name pasted into "Start a group" was cut to 60 characters without
    a word (the field's maxlength, which the browser applies). The fields have none; the
    form says the limit beside the field, keeps what was typed, and starts or renames
    nothing."""
    long_name = "Club Ässä " + "X" * 300
    newcomer = phone(app, None)
    page = newcomer.get("/welcome").get_data(as_text=True)
    field = re.search(r'<input[^>]*name="name"[^>]*>', page).group(0)
    assert "maxlength" not in field
    answer = newcomer.post("/groups/new", data={"name": long_name})
    body = html.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 400 and "At most 60 characters, please." in body
    assert f'value="{long_name}"' in body  # kept as typed
    assert newcomer.get("/").location == "/welcome"  # no group started
    keeper = phone(app, two_groups[0]["group"].token)
    settings = keeper.get("/group").get_data(as_text=True)
    assert "maxlength" not in re.search(r'<input[^>]*name="rename-name"[^>]*>', settings).group(0)
    answer = keeper.post("/group", data={"action": "rename", "rename-name": long_name})
    assert answer.status_code == 400 and "At most 60 characters, please." in html.unescape(answer.get_data(as_text=True))
    assert two_groups[0]["group"].name in html.unescape(keeper.get("/group").get_data(as_text=True))
    # the limit is the name's as kept: 60 letters with the spaces a keyboard adds around
    # them, or a double space inside, are 60 characters once cleaned, and taken
    sixty = "Y" * 30 + "  " + "Z" * 29
    assert keeper.post("/group", data={"action": "rename", "rename-name": f" {sixty} "}).status_code == 302
    assert "Y" * 30 + " " + "Z" * 29 in html.unescape(keeper.get("/group").get_data(as_text=True))
    assert phone(app, None).post("/groups/new", data={"name": "X" * 60 + " "}).status_code == 302


def test_a_group_name_is_kept_as_typed_less_outer_spaces(app, two_groups):
    keeper = phone(app, two_groups[0]["group"].token)
    keeper.post("/group", data={"action": "rename", "rename-name": "  Zoe\u0308   table "})
    assert "Zoë table" in keeper.get("/group").get_data(as_text=True)


def test_a_renamed_group_shows_its_new_name_on_every_page_at_once(app, two_groups):
    """The home page and the score sheet are kept for many phones: a rename is seen on
    them at once, by a phone that saw them before and by one that joins after."""
    ours = two_groups[0]
    keeper = phone(app, ours["group"].token)
    sheet = f"/games/{ours['games'][0]}"
    for path in ("/", sheet):
        assert keeper.get(path).status_code == 200  # kept, and remembered by this phone
    keeper.post("/group", data={"action": "rename", "rename-name": "Friday club"})
    newcomer = phone(app, ours["group"].token)
    for who in (keeper, newcomer):
        for path in ("/", sheet):
            page = who.get(path).get_data(as_text=True)
            assert "Friday club" in page and ours["group"].name not in page, path


def test_a_phone_with_a_form_open_when_the_passcode_is_set_is_told_and_asked(app, two_groups):
    ours = two_groups[0]
    keeper, other = phone(app, ours["group"].token), phone(app, ours["group"].token)
    game_id = ours["games"][0]
    keeper.post("/group", data={"action": "passcode", "pass-passcode": "471100"})
    answer = other.post(f"/games/{game_id}/deals/new", data={"nonce": "late"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 403 and "now asks for its passcode, so nothing was saved" in page
    assert 'name="passcode"' in page
    # the passcode is typed into this page, whose address is the refused form's: it is
    # sent to the passcode page (tester 8, HIGH: it was sent to the form's address,
    # refused there again, and the same page came back for good)
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*>(?:(?!</form>).)*name="passcode"', page, re.S)
    assert form and form.group(1) == "/passcode"
    # typed on an Arabic keypad, the digits are the same passcode
    # … and the phone is back on the form it sent (a browser names no referrer: the
    # app's Referrer-Policy), where its entries are kept
    assert other.post(form.group(1), data={"passcode": "٤٧١١٠٠"}).location == f"/games/{game_id}/deals/new"
    assert other.get(f"/games/{game_id}").status_code == 200


def test_a_deal_sent_from_the_outbox_when_the_passcode_is_asked_leaves_the_phone_where_it_was(app, two_groups):
    """Tester 58: a phone back online on a game's sheet, with deals kept offline waiting,
    was sent to the passcode page; once it was given, the phone stood on an empty form
    for the next deal (the address the waiting deals were sent to), never told they were
    sent, and ready to type one of them again. The sheet it was on comes back instead."""
    ours = two_groups[0]
    keeper, other = phone(app, ours["group"].token), phone(app, ours["group"].token)
    game_id = ours["games"][0]
    keeper.post("/group", data={"action": "passcode", "pass-passcode": "471100"})
    # the sheet reloaded (its live check was sent to the passcode page), then the outbox's send
    assert other.get(f"/games/{game_id}", headers={"Sec-Fetch-Mode": "navigate"}).location == "/passcode"
    answer = other.post(f"/games/{game_id}/deals/new?contract=tricks", data={"nonce": "kept", "outbox": "1"})
    assert answer.status_code == 403 and 'name="passcode"' in answer.get_data(as_text=True)
    assert other.post("/passcode", data={"passcode": "471100"}).location == f"/games/{game_id}"


def test_a_phone_whose_link_was_replaced_while_a_form_was_open_is_told_why(app, two_groups):
    ours = two_groups[0]
    keeper, other = phone(app, ours["group"].token), phone(app, ours["group"].token)
    keeper.post("/group", data={"action": "new_link", "confirm": "yes"})
    answer = other.post(f"/games/{ours['games'][0]}/deals/new", data={"nonce": "late"})
    assert answer.status_code == 403
    assert "link this phone used was replaced" in answer.get_data(as_text=True)


def test_downloads_of_a_group_are_never_kept_by_a_cache(app, two_groups):
    client = phone(app, two_groups[0]["group"].token)
    game_id = two_groups[0]["games"][0]
    for path in (f"/games/{game_id}/game.json", f"/games/{game_id}/sheet.csv"):
        assert client.get(path).headers["Cache-Control"] == "private, no-store"


def test_the_pages_that_show_a_way_in_are_never_kept_by_a_cache(app, two_groups):
    """Tester 52 (LOW): the Group page (the private link and its QR code), a game's
    read-only link and the one-time code's page were sent with no Cache-Control, so a
    cache on the way or the phone's own could keep them."""
    client = phone(app, two_groups[0]["group"].token)
    game_id = two_groups[0]["games"][0]
    assert client.post("/group/let-in").status_code == 302  # a one-time code made
    for path in ("/group", "/group/let-in", f"/games/{game_id}/read-only-link"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["Cache-Control"] == "private, no-store", path


@pytest.mark.parametrize("action", ["new_link", "stop_view"])
def test_a_box_not_ticked_is_said_beside_it_and_it_takes_the_focus(client, action):
    """The tester's "Make a new link" (and "Stop read-only links") tapped without the tick:
    the page said "Tick the box to confirm first." at its top, far above the box. It is now
    said beside the box, which the page focuses (so the phone shows it), as "Turn the
    passcode off" does; nothing changed."""
    before = client.get("/group").get_data(as_text=True)
    refused = client.post("/group", data={"action": action})
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    form = re.search(rf'<form[^>]*>(?:(?!</form>).)*name="action" value="{action}".*?</form>', page, re.S)
    assert form and f'id="{action}-problem">Tick the box to confirm first.</p>' in form.group(0)
    box = re.search(r'<input type="checkbox" name="confirm"[^>]*>', form.group(0))
    assert box and f'aria-describedby="{action}-problem"' in box.group(0) and "autofocus" in box.group(0)
    assert page.count("Tick the box to confirm first.") == 1  # not also atop the page
    play = re.search(r"/g/[A-Za-z0-9_-]+", before)
    assert play and play.group(0) in client.get("/group").get_data(as_text=True)  # the link unchanged


def test_a_refused_form_on_the_group_page_makes_no_read_only_link(client, db):
    assert client.post("/group", data={"action": "stop_view", "confirm": "yes"}).status_code == 302
    working = "select count(*) from links where access = 'view' and revoked_at is null"
    assert db.execute(working).fetchone()[0] == 0
    refused = client.post("/group", data={"action": "stop_view"})  # not ticked: refused, nothing changes
    assert refused.status_code == 400 and "Tick the box" in refused.get_data(as_text=True)
    assert db.execute(working).fetchone()[0] == 0
    assert client.get("/group").status_code == 200  # opening the page makes none either
    assert db.execute(working).fetchone()[0] == 0
    assert client.post("/group", data={"action": "make_view"}).status_code == 302  # its button does
    assert db.execute(working).fetchone()[0] == 1


def test_the_rename_section_says_what_it_does_and_not_name_twice(client):
    """The Group page's last section once read "Name" as its heading and "Name" again as
    its field's label, one under the other."""
    page = client.get("/group").get_data(as_text=True)
    section = re.search(r'aria-labelledby="name-head".*?</section>', page, re.S)
    assert section
    heading = re.search(r"<h2[^>]*>(.*?)</h2>", section.group(0), re.S).group(1).strip()
    label = re.search(r"<label[^>]*>(.*?)</label>", section.group(0), re.S).group(1).strip()
    assert heading == "Rename the group" and label == "Name"


class _ButtonChildren(HTMLParser):
    """The tags found straight inside an element of class "button" (a link or a button)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.stack and self.stack[-1]:
            self.found.append(tag)
        if tag not in ("br", "img", "input", "meta", "link", "hr", "source", "wbr"):
            self.stack.append("button" in (dict(attrs).get("class") or "").split())

    def handle_endtag(self, tag: str) -> None:
        if self.stack and tag not in ("br", "img", "input", "meta", "link", "hr", "source", "wbr"):
            self.stack.pop()


def test_a_name_in_a_button_wraps_with_its_words_not_apart(app, two_groups):
    """A button is a flex box, whose every text and element straight inside is an item of
    its own: a name (<bdi>) straight inside would wrap apart from the words around it
    ("I/n · Tuesday table · bleibe/n" on a 360 px phone). Every button naming a group, a
    player or a total holds its label in one element."""
    ours, theirs = two_groups
    client = phone(app, ours["group"].token)
    pages = [client.get(f"/g/{theirs['group'].token}").get_data(as_text=True)]  # "Stay in …", "Open …"
    client.post(f"/g/{theirs['group'].token}")
    pages.append(client.get("/group").get_data(as_text=True))  # "Switch to …"
    game = theirs["games"][0]
    pages += [client.get(f"/games/{game}/explain/total?seat=0").get_data(as_text=True),  # "… 's total"
              client.get(f"/games/{game}/explain/total").get_data(as_text=True),
              client.get(f"/games/{game}/explain/1?seat=0").get_data(as_text=True)]
    for page in pages:
        assert "<bdi>" in page
        found = _ButtonChildren()
        found.feed(page)
        assert "bdi" not in found.found


def _was(page: str) -> str:
    """The passcode as a group page knows it (its forms' hidden ``was``)."""
    found = re.search(r'name="was" value="([^"]*)"', page)
    assert found is not None, "the page's passcode forms carry no 'was'"
    return found.group(1)


def test_two_phones_setting_the_passcode_at_the_same_instant_both_learn_which_one_holds(race_server):
    """Tester 19 (MEDIUM): two phones tapping Set passcode at the same instant were both
    told "Passcode set"; the later write won, and the phone whose passcode was overwritten
    was then refused its own. On the real server (CSRF on), five rounds, the two taps
    released together: exactly one phone is told its passcode is set, and it is the one
    that works; the other is told its change was not made (or, arriving once the first
    was written, is asked for the passcode), and its own does not work."""
    from functools import partial

    from tests.race_support import at_once, statuses

    for round_ in range(1, 6):
        what = f"round {round_}: "
        with race_server.db() as db:
            groups.set_passcode(db, groups.only_group(db).id, None)
        a, b = race_server.phone(), race_server.phone()
        forms = []
        for phone_, word in ((a, "clubs"), (b, "hearts")):
            page = phone_.get("/group").body
            token = re.search(r'name="pass-csrf_token" type="hidden" value="([^"]+)"', page)
            assert token is not None, "no passcode form"
            forms.append({"pass-csrf_token": token.group(1), "action": "passcode", "was": _was(page),
                          "pass-passcode": f"{word} and spades {round_}"})
        replies = at_once(partial(a.post, "/group", forms[0]), partial(b.post, "/group", forms[1]))
        assert all(r.status in (302, 403) for r in replies), f"{what}{statuses(replies)}"
        told = []
        for phone_, reply in zip((a, b), replies, strict=True):
            page = phone_.get("/group")
            if page.status in (302, 303):  # asked for the passcode: the flash is said there
                page = phone_.get(page.location or "/passcode")
            told.append(reply.status == 302 and "Passcode set" in page.text)
        assert sorted(told) == [False, True], f"{what}told set: {told} {statuses(replies)}"
        winner, loser = (forms[0], forms[1]) if told[0] else (forms[1], forms[0])
        with race_server.db() as db:
            group = groups.only_group(db)
            assert groups.check_passcode(db, group.id, winner["pass-passcode"]) is not None, what
            assert groups.check_passcode(db, group.id, loser["pass-passcode"]) is None, what
