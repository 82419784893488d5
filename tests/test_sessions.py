"""A phone's session (Flask's signed cookie: its form token, its Undo, its messages) is
believed only under the app's secret key, or a former key kept in SECRET_KEY_FALLBACKS,
whatever the server kept from earlier requests."""

from __future__ import annotations

from scorekeeper import store
from tests.conftest import csrf_token
from tests.test_web import WORKED_FORM


def test_a_session_is_believed_only_under_the_apps_key(app, client, make_game):
    game_id = make_game()
    client.post(f"/games/{game_id}/deals/new", data=WORKED_FORM)
    assert "Undo deal 1" in client.get(f"/games/{game_id}").get_data(as_text=True)
    app.config["SECRET_KEY"] = "a new key"  # the cookie was signed with the old one
    assert client.get(f"/games/{game_id}").location == "/welcome"  # nor its group's link believed
    client.get(f"/g/{client.group_token}")  # the link opened again
    assert "Undo deal 1" not in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_former_key_kept_as_fallback_still_opens_the_session(app, client, make_game):
    game_id = make_game()
    client.post(f"/games/{game_id}/deals/new", data=WORKED_FORM)
    app.config.update(SECRET_KEY="a new key", SECRET_KEY_FALLBACKS=["test"])
    assert "Undo deal 1" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_form_token_from_a_session_under_another_key_is_refused(csrf_app, make_game):
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.conftest import game_file

    db = connect(csrf_app.config["DATABASE"])
    game_id = store.create_game(db, from_dict(game_file()))
    client = csrf_app.test_client()
    token = csrf_token(client.get(f"/games/{game_id}/deals/new").get_data(as_text=True))
    csrf_app.config["SECRET_KEY"] = "a new key"
    assert client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "csrf_token": token}).status_code == 403
    client.get(f"/g/{client.group_token}")  # the group's link opened again: its form token still refused
    assert client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "csrf_token": token}).status_code == 400
    token = csrf_token(client.get(f"/games/{game_id}/deals/new").get_data(as_text=True))  # a fresh page
    assert client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "csrf_token": token}).status_code == 302
    assert len(store.get_game(db, game_id).deals) == 1
    db.conn.close()


def test_a_phone_gets_a_new_cookie_only_when_a_page_keeps_something_new_in_it(csrf_app, make_game):
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.conftest import game_file

    db = connect(csrf_app.config["DATABASE"])
    game_id = store.create_game(db, from_dict(game_file()))
    db.conn.close()
    client = csrf_app.test_client()  # its cookie holds the group's link and the phone's form secret
    joined = csrf_app.test_client(join=False).get(f"/g/{client.group_token}")
    assert "session=" in joined.headers["Set-Cookie"]  # the link kept: a new cookie
    sheet = client.get(f"/games/{game_id}")
    assert sheet.status_code == 200 and "Set-Cookie" not in sheet.headers  # not signed again
    assert "Cookie" in sheet.headers["Vary"]  # what it shows depends on a session, had there been one
    form = client.get(f"/games/{game_id}/deals/new")  # its token made from the secret the link came with
    assert "Set-Cookie" not in form.headers
    token = csrf_token(form.get_data(as_text=True))
    assert client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "csrf_token": token}).status_code == 302
    client.delete_cookie("session")  # the cookie lost: the token alone is not enough, nor is it in a group
    assert client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "nonce": "other",
                                                           "csrf_token": token}).status_code == 403
    client.get(f"/g/{client.group_token}")
    assert client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "nonce": "other",
                                                           "csrf_token": token}).status_code == 400
