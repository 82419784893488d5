"""No silent change of group (issue 16, part 4): another group's play link opened on a
phone in a group asks first and changes nothing until confirmed; the switch, the way back
and the confirmation need their form token; no GET changes a phone's group or makes a
link; read-only links are made by their buttons.

Two groups on one server: Alpha (Anna, Ben, Carla) and Bravo (Xavier, Yolanda, Zeno). The
app runs with CSRF on, as in production, unless a test says otherwise.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper import create_app, groups, store
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, csrf_token, game_file
from tests.race_support import deal_fields
from tests.test_groups import crawl

ALPHA = ["Anna", "Ben", "Carla"]
BRAVO = ["Xavier", "Yolanda", "Zeno"]


@pytest.fixture
def app(tmp_path):
    """The app with CSRF on, and groups Alpha and Bravo with a game each."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "switch.sqlite3")})
    db = connect(app.config["DATABASE"])
    try:
        for name, players in (("Alpha", ALPHA), ("Bravo", BRAVO)):
            group = groups.create(db, name)
            game_id = store.create_game(db, from_dict(game_file(players=players, deals=[WORKED_TRIGAMI_DEAL])),
                                        group_id=group.id)
            app.config[name] = {"group": group, "game": game_id}
    finally:
        db.conn.close()
    return app


def phone(app, name: str | None):
    """A phone that opened group ``name``'s play link (None: no link at all)."""
    return app.test_client(join=app.config[name]["group"].token if name else False)


def table(app, sql: str) -> list[tuple]:
    db = connect(app.config["DATABASE"])
    try:
        return [tuple(row) for row in db.execute(sql).fetchall()]
    finally:
        db.conn.close()


def links(app) -> list[tuple]:
    """Every link row as it is (made, stopped): a GET must leave them all as they were."""
    return table(app, "select * from links order by token")


def shown_group(client) -> str:
    """The group whose games this phone's home page shows ("Alpha" or "Bravo")."""
    home = client.get("/")
    assert home.status_code == 200, home.status_code
    page = home.get_data(as_text=True)
    found = [name for name, players in (("Alpha", ALPHA), ("Bravo", BRAVO)) if players[0] in page]
    assert len(found) == 1, found
    return found[0]


def text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)).split())


def bravo_view(app) -> str:
    """Bravo's read-only link (made now if it has none)."""
    db = connect(app.config["DATABASE"])
    try:
        return groups.view_link(db, app.config["Bravo"]["group"].id)
    finally:
        db.conn.close()


def look(client, link: str) -> None:
    """Open a read-only link of another group on a phone in a group: asked, then confirmed
    with the page's own form."""
    asked = client.get(link).get_data(as_text=True)
    action = re.search(r'<form method="post" action="([^"]+)"', asked).group(1).replace("&amp;", "&")
    assert client.post(action, data={"csrf_token": csrf_token(asked)}).status_code == 302


def test_another_groups_play_link_asks_first_and_changes_nothing(app):
    alpha = phone(app, "Alpha")
    before = links(app)
    asked = alpha.get(f"/g/{app.config['Bravo']['group'].token}")
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200
    assert "Open <bdi>Bravo</bdi> on this phone?" in page  # names isolated (RTL-safe)
    assert "You stay able to go back to <bdi>Alpha</bdi>" in page
    assert "Xavier" not in page  # nothing of Bravo's games shown before the phone is there
    assert shown_group(alpha) == "Alpha" and links(app) == before
    # a deal entered now still goes to Alpha's game
    game_id = app.config["Alpha"]["game"]
    form = alpha.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    saved = alpha.post(f"/games/{game_id}/deals/new", data={
        **deal_fields("trigami", WORKED_TRIGAMI_DEAL), "csrf_token": csrf_token(form),
        "nonce": re.search(r'name="nonce"[^>]*value="([^"]+)"', form).group(1),
        "seen": re.search(r'name="seen"[^>]*value="([^"]+)"', form).group(1)})
    assert saved.status_code == 302, text(saved)
    assert table(app, f"select count(*) from deals where game_id = '{game_id}'") == [(2,)]


def test_confirming_moves_the_phone_and_it_can_switch_back(app):
    alpha = phone(app, "Alpha")
    bravo_link = f"/g/{app.config['Bravo']['group'].token}?game={app.config['Bravo']['game']}"
    asked = alpha.get(bravo_link).get_data(as_text=True)
    action = re.search(r'<form method="post" action="([^"]+)"', asked).group(1).replace("&amp;", "&")
    moved = alpha.post(action, data={"csrf_token": csrf_token(asked)})
    assert moved.status_code == 302 and moved.location == f"/games/{app.config['Bravo']['game']}"
    assert shown_group(alpha) == "Bravo"
    group_page = alpha.get("/group").get_data(as_text=True)
    assert "Switch to <bdi>Alpha</bdi>" in group_page  # "you stay able to go back"
    switch = re.search(r'<form method="post" action="/groups/switch">.*?</form>', group_page, re.S).group(0)
    fields = dict(re.findall(r'name="([^"]+)"[^>]*value="([^"]*)"', switch))
    assert set(fields) == {"csrf_token", "to"}
    assert alpha.post("/groups/switch", data=fields).status_code == 302
    assert shown_group(alpha) == "Alpha"


def test_staying_keeps_the_phone_in_its_group(app):
    alpha = phone(app, "Alpha")
    asked = alpha.get(f"/g/{app.config['Bravo']['group'].token}").get_data(as_text=True)
    stay = re.search(r'<a class="button" href="([^"]+)"><span>Stay in <bdi>Alpha</bdi></span></a>', asked)
    assert stay, "a way to stay"
    assert alpha.get(stay.group(1)).status_code == 200 and shown_group(alpha) == "Alpha"


def test_a_phone_looking_at_a_read_only_link_is_asked_too_and_stays_by_going_back(app):
    alpha = phone(app, "Alpha")
    look(alpha, f"/g/{bravo_view(app)}")  # Bravo's games, read-only, with "Back to my group"
    asked = alpha.get(f"/g/{app.config['Bravo']['group'].token}").get_data(as_text=True)
    assert "Open <bdi>Bravo</bdi> on this phone?" in asked and "go back to <bdi>Alpha</bdi>" in asked
    forms = re.findall(r'<form method="post" action="/groups/back">.*?</form>', asked, re.S)
    (stay,) = [form for form in forms if "Stay in <bdi>Alpha</bdi>" in form]
    assert alpha.post("/groups/back", data={"csrf_token": csrf_token(stay)}).status_code == 302
    assert shown_group(alpha) == "Alpha" and "Add deal" in text(alpha.get(f"/games/{app.config['Alpha']['game']}"))


def test_a_phone_in_no_group_or_opening_its_own_groups_link_goes_straight_in(app):
    newcomer = phone(app, None)
    answer = newcomer.get(f"/g/{app.config['Bravo']['group'].token}")
    assert answer.status_code == 302 and answer.location == "/"
    assert shown_group(newcomer) == "Bravo"
    alpha = phone(app, "Alpha")
    again = alpha.get(f"/g/{app.config['Alpha']['group'].token}?game={app.config['Alpha']['game']}")
    assert again.status_code == 302 and again.location == f"/games/{app.config['Alpha']['game']}"


def test_another_groups_read_only_link_asks_first_and_changes_nothing(app):
    alpha = phone(app, "Alpha")
    view = bravo_view(app)
    before = links(app)
    asked = alpha.get(f"/g/{view}")
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200
    assert "Look at the games of <bdi>Bravo</bdi> on this phone (read only)?" in page
    assert "You stay able to go back to <bdi>Alpha</bdi>" in page
    assert "Xavier" not in page and "No games yet" not in page
    assert shown_group(alpha) == "Alpha" and links(app) == before
    assert "Add deal" in text(alpha.get(f"/games/{app.config['Alpha']['game']}"))
    # staying: the phone's own games, as before
    stay = re.search(r'<a class="button" href="([^"]+)"><span>Stay in <bdi>Alpha</bdi></span></a>', page)
    assert stay and alpha.get(stay.group(1)).status_code == 200 and shown_group(alpha) == "Alpha"
    # the confirmation without its token changes nothing
    refused = alpha.post(f"/g/{view}")
    assert refused.status_code == 400 and shown_group(alpha) == "Alpha"


def test_another_groups_read_only_link_confirmed_opens_with_the_way_back(app):
    alpha = phone(app, "Alpha")
    look(alpha, f"/g/{bravo_view(app)}")
    sheet = alpha.get(f"/games/{app.config['Bravo']['game']}").get_data(as_text=True)
    assert "Back to my group" in sheet and "Add deal" not in sheet
    # another read-only link of the group it looks at: no second question
    db = connect(app.config["DATABASE"])
    try:
        one_game = groups.view_link(db, app.config["Bravo"]["group"].id, app.config["Bravo"]["game"])
    finally:
        db.conn.close()
    assert alpha.get(f"/g/{one_game}").status_code == 302
    # the way back is a form with this phone's own token
    assert alpha.post("/groups/back").status_code == 400 and "Xavier" in text(alpha.get(f"/games/{app.config['Bravo']['game']}"))
    assert alpha.post("/groups/back", data={"csrf_token": csrf_token(sheet)}).status_code == 302
    assert shown_group(alpha) == "Alpha"


def test_a_read_only_link_of_its_own_group_or_on_a_phone_in_no_group_opens_at_once(app):
    newcomer = phone(app, None)
    answer = newcomer.get(f"/g/{bravo_view(app)}")
    assert answer.status_code == 302 and answer.location == "/"
    assert shown_group(newcomer) == "Bravo" and "Back to my group" not in text(newcomer.get("/"))
    bravo = phone(app, "Bravo")
    answer = bravo.get(f"/g/{bravo_view(app)}")
    assert answer.status_code == 302 and "Add deal" in text(bravo.get(f"/games/{app.config['Bravo']['game']}"))


def test_a_read_only_phone_is_not_told_to_start_a_game(app):
    db = connect(app.config["DATABASE"])
    try:
        empty = groups.create(db, "Charlie")
        view = groups.view_link(db, empty.id)
    finally:
        db.conn.close()
    viewer = phone(app, None)
    assert viewer.get(f"/g/{view}").status_code == 302
    shown = text(viewer.get("/"))
    assert "No games yet: the games this group enters show here." in shown and "Start one" not in shown
    assert "Start one, put the phone beside the cards" in text(app.test_client(join=empty.token).get("/"))


def test_a_kept_read_only_page_carries_each_phones_own_token_back(app):
    """The sheet and the lists are kept per version and sent to every phone alike
    (views/pages.py): a page with "Back to my group" carries this phone's form token, so it
    is kept for this phone alone, and each phone's own way back works."""
    view = bravo_view(app)
    first, second = phone(app, "Alpha"), phone(app, "Alpha")
    for client in (first, second):
        look(client, f"/g/{view}")
    for path in (f"/games/{app.config['Bravo']['game']}", "/", "/players"):
        pages = [client.get(path).get_data(as_text=True) for client in (first, second)]
        assert csrf_token(pages[0]) != csrf_token(pages[1]), path
    for client in (first, second):
        page = client.get(f"/games/{app.config['Bravo']['game']}").get_data(as_text=True)
        assert client.post("/groups/back", data={"csrf_token": csrf_token(page)}).status_code == 302
        assert shown_group(client) == "Alpha"


def test_a_passcode_group_asks_its_passcode_after_the_confirmation(app):
    db = connect(app.config["DATABASE"])
    try:
        groups.set_passcode(db, app.config["Bravo"]["group"].id, "clubs and spades")
    finally:
        db.conn.close()
    alpha = phone(app, "Alpha")
    bravo_game = app.config["Bravo"]["game"]
    asked = alpha.get(f"/g/{app.config['Bravo']['group'].token}?game={bravo_game}").get_data(as_text=True)
    action = re.search(r'<form method="post" action="([^"]+)"', asked).group(1).replace("&amp;", "&")
    moved = alpha.post(action, data={"csrf_token": csrf_token(asked)})
    assert moved.status_code == 302 and moved.location == "/passcode"
    form = alpha.get("/passcode").get_data(as_text=True)
    opened = alpha.post("/passcode", data={"passcode": "clubs and spades", "csrf_token": csrf_token(form)})
    assert opened.status_code == 302 and opened.location == f"/games/{bravo_game}"  # after_passcode
    assert "Xavier" in alpha.get(f"/games/{bravo_game}").get_data(as_text=True)


def test_the_confirmation_without_its_token_is_refused_and_changes_nothing(app):
    alpha = phone(app, "Alpha")
    before = links(app)
    refused = alpha.post(f"/g/{app.config['Bravo']['group'].token}")
    assert refused.status_code == 400
    assert "Nothing was changed: this page was open too long or came from elsewhere" in text(refused)
    assert "Open <bdi>Bravo</bdi> on this phone?" in refused.get_data(as_text=True)  # asked again
    forged = alpha.post(f"/g/{app.config['Bravo']['group'].token}", data={"csrf_token": "forged"})
    assert forged.status_code == 400
    assert shown_group(alpha) == "Alpha" and links(app) == before


def test_another_sites_form_moves_no_phone(app):
    """Another site's form posting to a play link, Start, switch or back arrives without
    the phone's cookie (SameSite=Lax) and without a form token: refused, and no cookie set
    that would replace the phone's own (and its group with it)."""
    before = table(app, "select count(*) from groups")
    for path in (f"/g/{app.config['Bravo']['group'].token}", "/groups/new", "/groups/switch", "/groups/back"):
        cross_site = phone(app, None)  # what the app sees of a phone's cross-site POST: no cookie
        refused = cross_site.post(path, data={"csrf_token": "x", "to": app.config["Bravo"]["group"].token})
        assert refused.status_code == 400 and "Nothing was changed" in text(refused), path
        assert "Set-Cookie" not in refused.headers, path  # the phone's own cookie stays as it is
        assert cross_site.get("/").location == "/welcome"
    assert table(app, "select count(*) from groups") == before


def test_no_form_posted_from_another_site_sets_a_cookie(app):
    """Tester 44 (HIGH): another site's form posting a one-time code (``/code``) or to a
    table card's address (``/t/<token>``) was answered with a new session cookie, which
    replaced the phone's own: the phone was out of its group. Every route that takes a
    POST, posted as another site's form arrives (no cookie, no form token): no cookie set
    or deleted in the answer, and no server error."""
    db = connect(app.config["DATABASE"])
    try:
        game = store.get_game(db, app.config["Alpha"]["game"])
        player_id = next(iter(store.player_names(db, app.config["Alpha"]["group"].id)))
    finally:
        db.conn.close()
    ids = {"game_id": game.id, "deal_id": str(game.deals[0].id), "player_id": str(player_id), "number": "1",
           "night_id": "1", "round_number": "1", "table": "1", "change_id": "1", "token": app.config["Bravo"]["group"].token,
           "code": "de", "system": "arab"}
    posted = []
    for rule in app.url_map.iter_rules():
        if "POST" not in rule.methods:
            continue
        path = rule.rule
        for name, value in ids.items():
            path = re.sub(rf"<(?:[a-z]+:)?{name}>", value, path)
        assert "<" not in path, path  # every route's arguments filled in
        cross_site = phone(app, None)
        answer = cross_site.post(path, data={"csrf_token": "x", "code": "ABCDE-FGHIJ", "passcode": "p",
                                             "to": app.config["Bravo"]["group"].token, "name": "Mallory"})
        assert answer.status_code < 500, path
        assert "Set-Cookie" not in answer.headers, path
        posted.append(path)
    assert "/code" in posted and f"/t/{app.config['Bravo']['group'].token}" in posted
    assert table(app, "select count(*) from groups") == [(2,)]


def test_switch_and_back_without_their_token_are_refused_and_change_nothing(app):
    client = phone(app, "Bravo")
    asked = client.get(f"/g/{app.config['Alpha']['group'].token}").get_data(as_text=True)
    client.post(f"/g/{app.config['Alpha']['group'].token}", data={"csrf_token": csrf_token(asked)})
    assert shown_group(client) == "Alpha"  # it knows both groups now
    bravo = app.config["Bravo"]["group"].token
    for data in ({"to": bravo}, {"to": bravo, "csrf_token": "forged"}):
        refused = client.post("/groups/switch", data=data)
        assert refused.status_code == 400, data
        assert "Nothing was changed: this page was open too long or came from elsewhere" in text(refused)
        assert shown_group(client) == "Alpha"
    # a phone on a read-only link of Bravo: the way back needs its token too
    look(client, f"/g/{bravo_view(app)}")
    assert client.post("/groups/back").status_code == 400
    assert client.post("/groups/back", data={"csrf_token": "forged"}).status_code == 400
    assert "Read-only" in client.get("/").get_data(as_text=True) and shown_group(client) == "Bravo"


def get_routes(app, ids: dict[str, str]) -> list[str]:
    """Every GET route of the app with its arguments filled in from ``ids``."""
    paths = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        path = rule.rule
        for name, value in ids.items():
            path = re.sub(rf"<(?:[a-z]+:)?{name}>", value, path)
        if "<" not in path:
            paths.append(path)
    return paths


@pytest.mark.parametrize("start", ["Alpha", "view"])
def test_no_get_changes_a_phones_group_or_makes_a_link(app, start):
    """A play phone and a read-only one open every page of their group they can reach
    (links followed, then every GET route of the app with this group's ids; the play
    phone also Bravo's play link, the read-only one, in no group, its own link): the links
    table is as it was, and the phone is where it was."""
    db = connect(app.config["DATABASE"])
    try:
        game = store.get_game(db, app.config["Alpha"]["game"])
        player_id = next(iter(store.player_names(db, app.config["Alpha"]["group"].id)))
        view = groups.view_link(db, app.config["Alpha"]["group"].id)
        alpha = phone(app, "Alpha") if start == "Alpha" else app.test_client(join=view)
    finally:
        db.conn.close()
    with alpha.session_transaction() as session:
        kept = {key: session.get(key) for key in ("link", "known", "back")}
    before = links(app)
    pages = crawl(alpha)
    assert any(path.endswith("/read-only-link") for path in pages) == (start == "Alpha")
    ids = {"game_id": game.id, "deal_id": str(game.deals[0].id), "player_id": str(player_id), "number": "1",
           "token": app.config["Bravo"]["group"].token if start == "Alpha" else view, "code": "de",
           "system": "arab"}
    for path in get_routes(app, ids):
        assert alpha.get(path).status_code < 500, path
    assert links(app) == before
    with alpha.session_transaction() as session:
        assert {key: session.get(key) for key in ("link", "known", "back")} == kept


def test_the_group_pages_read_only_link_is_made_by_its_button(app):
    alpha = phone(app, "Alpha")
    page = alpha.get("/group").get_data(as_text=True)
    assert 'id="view-link"' not in page and "Make a read-only link" in page
    assert alpha.post("/group", data={"action": "make_view"}).status_code == 400  # no token: nothing
    assert not table(app, "select * from links where access = 'view'")
    for _ in range(2):  # a double tap makes one
        made = alpha.post("/group", data={"action": "make_view", "csrf_token": csrf_token(page)})
        assert made.status_code == 302 and made.location == "/group#view-head"
    views = table(app, "select token from links where access = 'view' and game_id is null")
    assert len(views) == 1
    page = alpha.get("/group").get_data(as_text=True)
    assert f"/g/{views[0][0]}" in page and "Make a read-only link" not in page
    assert phone(app, None).get(f"/g/{views[0][0]}").status_code == 302  # it works


def test_a_games_read_only_link_is_made_by_its_button(app):
    alpha = phone(app, "Alpha")
    game_id = app.config["Alpha"]["game"]
    sheet = alpha.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/read-only-link"' in sheet  # the sheet leads to the page
    page = alpha.get(f"/games/{game_id}/read-only-link").get_data(as_text=True)
    assert "Make a read-only link" in page and 'id="game-view-link"' not in page
    refused = alpha.post(f"/games/{game_id}/read-only-link")
    assert refused.status_code == 400 and "Nothing was changed" in text(refused)
    assert not table(app, "select * from links where access = 'view'")
    for _ in range(2):
        made = alpha.post(f"/games/{game_id}/read-only-link", data={"csrf_token": csrf_token(page)})
        assert made.status_code == 302 and made.location == f"/games/{game_id}/read-only-link"
    views = table(app, f"select token from links where access = 'view' and game_id = '{game_id}'")
    assert len(views) == 1
    page = alpha.get(f"/games/{game_id}/read-only-link").get_data(as_text=True)
    assert 'id="game-view-link"' in page and f"/g/{views[0][0]}?" not in page and f"/g/{views[0][0]}" in page
    viewer = phone(app, None)
    assert viewer.get(f"/g/{views[0][0]}").location == f"/games/{game_id}"
    assert viewer.post(f"/games/{game_id}/read-only-link", data={"csrf_token": "x"}).status_code == 403


def run(app, change) -> None:
    """``change(db)`` made on the app's database, as another phone's tap would."""
    db = connect(app.config["DATABASE"])
    try:
        change(db)
        db.conn.commit()
    finally:
        db.conn.close()


def switch_back(client, page: str, name: str) -> None:
    """Tap "Switch to ``name``" on ``page`` (its form, with this phone's own token): the
    phone is in that group again."""
    form = re.search(r'<form method="post" action="/groups/switch">(.*?)</form>', page, re.S)
    assert form and f"Switch to <bdi>{name}</bdi>" in form.group(1), page
    to = re.search(r'name="to" value="([^"]+)"', form.group(1)).group(1)
    assert client.post("/groups/switch", data={"to": to, "csrf_token": csrf_token(form.group(1))}).status_code == 302
    assert shown_group(client) == name


def test_a_phone_held_at_a_passcode_it_does_not_know_can_go_back_to_its_group(app):
    """Tester 52: a phone of Alpha opened Bravo's link and moved there, but does not know
    Bravo's passcode: every page sent it back to the passcode, with no way back to Alpha
    but a form made by hand. The passcode page now offers Alpha."""
    run(app, lambda db: groups.set_passcode(db, app.config["Bravo"]["group"].id, "clubs and spades"))
    alpha = phone(app, "Alpha")
    asked = alpha.get(f"/g/{app.config['Bravo']['group'].token}").get_data(as_text=True)
    action = re.search(r'<form method="post" action="([^"]+)"', asked).group(1).replace("&amp;", "&")
    assert alpha.post(action, data={"csrf_token": csrf_token(asked)}).location == "/passcode"
    assert alpha.get("/").location == "/passcode"  # held there
    page = alpha.get("/passcode").get_data(as_text=True)
    assert "Switch to <bdi>Bravo</bdi>" not in page  # the group asking is not offered
    switch_back(alpha, page, "Alpha")


def test_a_phone_whose_other_groups_link_was_replaced_can_go_back_to_its_group(app):
    """Tester 52: a phone of Alpha switched to Bravo; Bravo made a new link. The phone
    was told its link was replaced, on a page with no way back to Alpha. That page now
    offers Alpha."""
    alpha = phone(app, "Alpha")
    asked = alpha.get(f"/g/{app.config['Bravo']['group'].token}").get_data(as_text=True)
    action = re.search(r'<form method="post" action="([^"]+)"', asked).group(1).replace("&amp;", "&")
    alpha.post(action, data={"csrf_token": csrf_token(asked)})
    assert shown_group(alpha) == "Bravo"
    run(app, lambda db: groups.new_play_link(db, app.config["Bravo"]["group"].id))
    assert alpha.get("/").location == "/welcome"
    page = alpha.get("/welcome").get_data(as_text=True)
    assert "replaced by a newer one" in page and "Switch to <bdi>Bravo</bdi>" not in page
    switch_back(alpha, page, "Alpha")


def test_a_phone_whose_read_only_link_was_stopped_can_go_back_to_its_group(app):
    """Tester 52: a phone of Alpha looking at Bravo through Bravo's read-only link had
    "Back to my group"; once Bravo stopped its read-only links, the phone landed on the
    welcome page with no way back. That page now offers Alpha."""
    alpha = phone(app, "Alpha")
    look(alpha, f"/g/{bravo_view(app)}")
    run(app, lambda db: groups.stop_view_links(db, app.config["Bravo"]["group"].id))
    assert alpha.get("/").location == "/welcome"
    page = alpha.get("/welcome").get_data(as_text=True)
    assert "its group stopped its read-only links" in page
    switch_back(alpha, page, "Alpha")


def test_back_to_a_group_whose_link_was_replaced_says_so(app):
    """Tester 53: a phone of Alpha looking at Bravo's read-only link tapped "Back to my
    group" after Alpha had made a new link: it stayed on Bravo's pages, the button gone,
    with no word why. It is told its group's link was replaced."""
    alpha = phone(app, "Alpha")
    look(alpha, f"/g/{bravo_view(app)}")
    sheet = alpha.get(f"/games/{app.config['Bravo']['game']}").get_data(as_text=True)
    run(app, lambda db: groups.new_play_link(db, app.config["Alpha"]["group"].id))
    assert alpha.post("/groups/back", data={"csrf_token": csrf_token(sheet)}).status_code == 302
    assert "The link this phone used no longer works: it was replaced by a newer one." in text(alpha.get("/"))
