"""Joining from the installed app (issue 18, part 5): the welcome page takes the group's
link pasted — this server's, one with another host, a bare token or a one-time code —
and opens it as the link would; what is no link or code is refused beside the field
with the text kept; pasting counts against the write limit like any form, and tells no
more about a token than opening its link does. The browser's side (the Scan button, a
phone joining by paste): tests/test_join_paste_browser.py.
"""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper import attempts, create_app, groups, store
from scorekeeper.db import connect
from scorekeeper.forms.groups import pasted_link
from scorekeeper.gamefile import from_dict
from tests.conftest import game_file


@pytest.fixture
def group(app):
    """A group ("Tuesday table") with one game of Anna, Ben and Carla; its play link's token."""
    db = connect(app.config["DATABASE"])
    try:
        made = groups.create(db, "Tuesday table")
        game_id = store.create_game(db, from_dict(game_file(players=["Anna", "Ben", "Carla"])), group_id=made.id)
    finally:
        db.conn.close()
    return made.token, game_id


def newcomer(app):
    """A phone in no group: the installed app opened at the welcome page."""
    return app.test_client(join=False)


def field_value(page: str) -> str:
    found = re.search(r'<input[^>]*name="link"[^>]*>', page)
    assert found, "no link field on the page"
    value = re.search(r'value="([^"]*)"', found.group(0))
    return html.unescape(value.group(1)) if value else ""


def paste(phone, text: str):
    return phone.post("/welcome", data={"link": text})


def assert_in_group(phone, name: str = "Tuesday table") -> None:
    home = phone.get("/")
    assert home.status_code == 200, home.location
    assert name in home.get_data(as_text=True)


def test_the_welcome_page_has_a_place_to_paste_the_groups_link(app):
    page = newcomer(app).get("/welcome").get_data(as_text=True)
    assert 'action="/welcome"' in page and 'name="link"' in page
    assert "The group&#39;s link or code" in page or "The group's link or code" in page
    assert "Open the link" in page


@pytest.mark.parametrize("pasted", [
    "http://localhost/g/{token}",                       # this server's link as shared
    "  https://localhost/g/{token}\n",                  # with spaces and a newline around it
    "https://192.168.1.20:8000/g/{token}",              # another address of the server
    "https://cards.example.org/scores/g/{token}/",      # another host, behind a prefix
    "192.168.1.20:8000/g/{token}",                      # no https://
    "{token}",                                          # the code of the link alone
    "Join us at the table: <https://cards.example.org/g/{token}>.",  # a message around it
])
def test_a_pasted_link_opens_the_group_as_the_link_would(app, group, pasted):
    token, _ = group
    phone = newcomer(app)
    answer = paste(phone, pasted.format(token=token))
    assert answer.status_code == 303 and answer.location == f"/g/{token}"
    followed = phone.get(answer.location)
    assert followed.status_code == 302
    assert_in_group(phone)


def test_a_pasted_link_to_a_game_opens_that_game(app, group):
    token, game_id = group
    phone = newcomer(app)
    answer = paste(phone, f"https://elsewhere.example/g/{token}?game={game_id}")
    assert answer.status_code == 303
    assert phone.get(answer.location).location == f"/games/{game_id}"
    assert "Anna" in phone.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_pasted_one_time_code_opens_its_page_filled_in(app, group):
    """A one-time code (made on a phone in a group with a passcode) pasted alone, in
    lower case, or its QR code's link: the code's page with the code filled in, where the
    button tries it (and counts it when wrong), as opening the code's link does."""
    db = connect(app.config["DATABASE"])
    try:
        link = groups.open_link(db, group[0])
        assert link is not None
        code = attempts.make_code(db, link.group.id)
    finally:
        db.conn.close()
    shown = attempts.shown_code(code)
    for pasted in (shown, shown.lower(), f"https://host.example/code?c={shown}"):
        phone = newcomer(app)
        answer = paste(phone, pasted)
        assert answer.status_code == 303 and answer.location == f"/code?c={shown}"
        page = phone.get(answer.location).get_data(as_text=True)
        assert f'value="{shown}"' in page


@pytest.mark.parametrize("garbage", [
    "hello",
    "Anna, Ben and Carla",
    "https://example.org/",
    "https://example.org/games/123",
    "https://example.org/g/",
    "/g/has spaces/",
    "<script>alert(1)</script>",
    "x" * 3000,
])
def test_what_is_no_link_or_code_is_refused_beside_the_field_and_kept(app, group, garbage):
    phone = newcomer(app)
    answer = paste(phone, garbage)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "That is not a group&#39;s link or code" in page or "That is not a group's link or code" in page
    # beside the field: its error list follows the field, which points to it
    assert re.search(r'name="link"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="link"', page)
    assert page.index('id="link-errors"') > page.index('name="link"')
    assert field_value(page) == garbage
    assert "<script>alert(1)</script>" not in page
    assert phone.get("/").location == "/welcome"  # still in no group


@pytest.mark.parametrize("pasted", ["http://evil.com/g/abc", "https://example.org/g/", "/g/has spaces/"])
def test_a_link_with_g_in_it_that_is_no_groups_says_what_is_wrong_with_it(app, group, pasted):
    """Tester 33: a link with /g/ in it was told "Paste the whole link …: it has /g/ in
    it". It is told that what follows /g/ is cut short or mistyped."""
    said = " ".join(html.unescape(paste(newcomer(app), pasted).get_data(as_text=True)).split())
    assert ("That is not a group's link or code: what follows /g/ is cut short or mistyped. Paste the whole "
            "link again, as it was shared.") in said
    assert "it has /g/ in it" not in said


@pytest.mark.parametrize(("pasted", "said"), [
    # ten letters and digits, one of them no code's (U)
    ("K7QM4-9XP3U", "That is not a one-time code: a code has ten letters and digits, as the other phone shows it "
                    "(like K7QM4-9XP3H). Check it and type it again."),
    ("K7QM4 9XP", "That is not a one-time code"),  # cut short
    ("PC2JZ-Y", "That is not a one-time code"),  # cut short after its dash (tester 61)
    ("https://host.example/code?c=PC2JZ-", "That is not a one-time code"),  # a code's link cut short
    ("HTTP://HOST.EXAMPLE/CODE?C=XXXXX-XXXXX", "That is not a one-time code"),  # typed in capitals (tester 64)
    ("https://host.example/t/abc", "That is not a table card's link: what follows /t/ is cut short or mistyped. "
                                   "Scan the card's QR code again, or paste its whole link."),
])
def test_a_code_or_a_cards_link_that_is_none_is_told_so_not_pointed_to_a_groups_link(app, group, pasted, said):
    """Tester 60: both were told to paste the whole link someone shared, "it has /g/ in it"."""
    answer = paste(newcomer(app), pasted)
    page = " ".join(html.unescape(answer.get_data(as_text=True)).split())
    assert answer.status_code == 400 and said in page and "it has /g/ in it" not in page
    assert field_value(answer.get_data(as_text=True)) == pasted


def test_nothing_pasted_asks_for_the_link(app):
    answer = paste(newcomer(app), "   ")
    assert answer.status_code == 400
    assert "Paste the group&#39;s link here" in answer.get_data(as_text=True) \
        or "Paste the group's link here" in answer.get_data(as_text=True)


def test_a_pasted_token_tells_no_more_than_its_link(app, group):
    """A token that opens nothing answers the paste exactly as one that does (the same
    redirect); the link's own page then says "does not work", as when it is opened."""
    token, _ = group
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    right_answer, wrong_answer = paste(newcomer(app), token), paste(newcomer(app), wrong)
    assert (right_answer.status_code, wrong_answer.status_code) == (303, 303)
    assert wrong_answer.location == f"/g/{wrong}"
    assert right_answer.get_data().replace(token.encode(), b"T") == wrong_answer.get_data().replace(wrong.encode(), b"T")
    phone = newcomer(app)
    opened = phone.get(wrong_answer.location)
    assert opened.status_code == 404 and "This link does not work" in opened.get_data(as_text=True)
    assert phone.get("/").location == "/welcome"


def test_pasting_counts_against_the_write_limit_like_any_form(tmp_path, group):
    """Each paste is a POST of its address: over WRITE_LIMIT it is refused (429) without
    being read, so pasting guesses is no faster than any other form."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "DATABASE": str(tmp_path / "limited.sqlite3"), "RATELIMIT_ENABLED": True,
                      "WRITE_LIMIT": "3 per minute"})
    phone = app.test_client(join=False)
    phone.environ_base["REMOTE_ADDR"] = "10.18.5.1"
    answers = [phone.post("/welcome", data={"link": f"guess{n:012d}abcdefgh"}).status_code for n in range(3)]
    assert answers == [303, 303, 303]
    refused = phone.post("/welcome", data={"link": "guess999999999999abcdefgh"})
    assert refused.status_code == 429 and "Wait a minute" in refused.get_data(as_text=True)
    assert refused.location is None
    # a garbage paste counts too
    other = app.test_client(join=False)
    other.environ_base["REMOTE_ADDR"] = "10.18.5.2"
    assert [other.post("/welcome", data={"link": "nonsense"}).status_code for _ in range(4)] == [400, 400, 400, 429]


def test_the_paste_form_works_with_form_tokens_on(csrf_app):
    """The paste form carries no form token (it changes nothing, only leads to the
    link's address): a welcome page left open for days in the installed app still works."""
    db = connect(csrf_app.config["DATABASE"])
    try:
        made = groups.create(db, "Tuesday table")
    finally:
        db.conn.close()
    phone = csrf_app.test_client(join=False)
    answer = phone.post("/welcome", data={"link": f"https://x.example/g/{made.token}"})
    assert answer.status_code == 303
    phone.get(answer.location)
    assert_in_group(phone)


@pytest.mark.parametrize(("text", "token", "code"), [
    ("https://h/g/abcdefghijklmnopqrstuvwxyz012345", "abcdefghijklmnopqrstuvwxyz012345", None),
    ("abcdefghijklmnopqrstuvwxyz012345", "abcdefghijklmnopqrstuvwxyz012345", None),
    ("K7QM4-9XP3H", None, "K7QM49XP3H"),
    ("k7qm4 9xp3h", None, "K7QM49XP3H"),
    ("\u200fhttps://h/g/abcdefghijklmnopqrstuvwxyz012345\u200e", "abcdefghijklmnopqrstuvwxyz012345", None),
    ("hello", None, None),
    # a code misread in a letter or more still is one (tester 61: three look-alikes refused)
    ("K7QM4-9XPOH", None, "K7QM49XP0H"),
    ("KlQM4 9XPOH", None, "K1QM49XP0H"),
    ("EOXXL-MTPYO", None, "E0XX1MTPY0"),
    ("https://h/g/a/b", None, None),
    ("two links https://h/g/aaaaaaaaaaaaaaaaaaaa and https://h/g/bbbbbbbbbbbbbbbbbbbb", None, None),
])
def test_what_a_pasted_text_is_read_as(text, token, code):
    found = pasted_link(text)
    if token is None and code is None:
        assert found is None
    else:
        assert found is not None and (found.token, found.code) == (token, code)
