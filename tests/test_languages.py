"""Every request is answered in its own language, and nothing of one request's language
is left for the next: the templates' and the rules' strings come from the request's
catalogue, and kept pages and 304s are per language.

The tests make a German catalogue of a few strings of their own and let the app offer
German beside English (tests/test_every_language.py checks the catalogues shipped).
"""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from scorekeeper import create_app, i18n
from scorekeeper.rules import common

WHOLE_NUMBER = "{who}{field} must be a whole number, not {value}"  # a rules string (rules/common.py)
GERMAN = {
    "Scorekeeper": "Punktezähler",
    "No deals yet.": "Noch keine Runden.",
    WHOLE_NUMBER: "{who}{field} muss eine ganze Zahl sein, nicht {value}",
}
IN_GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
IN_ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The app of conftest, offering German too (client, db and make_game use it)."""
    catalog = Catalog(locale="de")
    for english, german in GERMAN.items():
        catalog.add(english, german)
    folder = tmp_path / "translations" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.mo", "wb") as mo:
        write_mo(mo, catalog)
    monkeypatch.setattr(i18n, "LANGUAGES", ("en", "de"))
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "test.sqlite3"),
                       "WTF_CSRF_ENABLED": False, "BABEL_TRANSLATION_DIRECTORIES": str(tmp_path / "translations")})


def test_a_page_is_drawn_in_the_language_the_phone_asks_for(client):
    german = client.get("/", headers=IN_GERMAN).get_data(as_text=True)
    assert 'lang="de"' in german and "Punktezähler" in german
    english = client.get("/", headers=IN_ENGLISH).get_data(as_text=True)  # right after, same server thread
    assert 'lang="en"' in english and "Scorekeeper" in english and "Punktezähler" not in english
    other = client.get("/", headers={"Accept-Language": "fi"}).get_data(as_text=True)  # not offered: English
    assert 'lang="en"' in other and "Punktezähler" not in other


def test_the_rules_speak_the_requests_language_and_only_during_it(app):
    for headers, expected in ((IN_GERMAN, GERMAN[WHOLE_NUMBER]), (IN_ENGLISH, WHOLE_NUMBER),
                              (IN_GERMAN, GERMAN[WHOLE_NUMBER])):
        with app.test_request_context("/", headers=headers):
            assert common._(WHOLE_NUMBER) == expected
            assert common._(WHOLE_NUMBER) == expected  # the catalogue, once bound, is the same one
        assert i18n._lookup.get() is None  # nothing left bound for the next request
    assert common._(WHOLE_NUMBER) == WHOLE_NUMBER  # outside the app: the string as it is


def test_a_sheet_in_another_language_is_never_answered_304(client, make_game):
    game_id = make_game()
    url = f"/games/{game_id}"
    german = client.get(url, headers=IN_GERMAN)
    assert "Noch keine Runden." in german.get_data(as_text=True)
    english = client.get(url, headers={**IN_ENGLISH, "If-None-Match": german.headers["ETag"]})
    assert english.status_code == 200 and "No deals yet." in english.get_data(as_text=True)
    assert english.headers["ETag"] != german.headers["ETag"]
    assert client.get(url, headers={**IN_GERMAN, "If-None-Match": german.headers["ETag"]}).status_code == 304
    # kept pages are per language too: each language gets its own, again and again
    for _ in range(2):
        assert "Noch keine Runden." in client.get(url, headers=IN_GERMAN).get_data(as_text=True)
        assert "No deals yet." in client.get(url, headers=IN_ENGLISH).get_data(as_text=True)


def test_a_list_in_another_language_is_never_answered_304(client, make_game):
    make_game()
    german = client.get("/", headers=IN_GERMAN)
    english = client.get("/", headers={**IN_ENGLISH, "If-None-Match": german.headers["ETag"]})
    assert english.status_code == 200 and "Punktezähler" not in english.get_data(as_text=True)
    assert client.get("/", headers={**IN_GERMAN, "If-None-Match": german.headers["ETag"]}).status_code == 304
