"""Guessing a group's passcode is bounded exactly, and a group's own phones can always let
a new phone in (issue 16, scorekeeper/attempts.py).

The limits (limits.py defaults): wrong passcodes 5 a minute and 20 an hour per phone, 15 a
minute and 60 an hour per address, 30 an hour per group from everyone together. The
bursts are fired at the real server (waitress) from threads released together
(tests/race_support.py); many addresses are real source addresses of 127.0.0.0/8.
"""

from __future__ import annotations

import functools
import html
import http.client
import re
import urllib.request
from typing import Any

import pytest

from scorekeeper import attempts, groups, store
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.conftest import game_file
from tests.race_support import (
    Phone,
    RaceServer,
    _NoRedirects,
    assert_no_server_error,
    at_once,
    form_fields,
    statuses,
)
from tests.test_web import text

PASSCODE = "clubs and spades"


def phone(app, token):
    return app.test_client(join=token or False)


def set_passcode(database, passcode: str = PASSCODE) -> None:
    db = connect(str(database))
    try:
        groups.set_passcode(db, groups.only_group(db).id, passcode)
    finally:
        db.conn.close()


def _wrong_attempts(db, group_id: int, since: float) -> int:
    """How many wrong passcodes are recorded for the group since ``since`` (Unix seconds)."""
    return db.execute("select count(*) from passcode_attempts where group_id = ? and kind = ? and at > ?",
                      [group_id, attempts.PASSCODE, since]).fetchone()[0]


def wrong_in_database(database) -> int:
    """Wrong passcodes recorded for the only group in the last hour."""
    db = connect(str(database))
    try:
        return _wrong_attempts(db, groups.only_group(db).id, 0)
    finally:
        db.conn.close()


class _From(urllib.request.HTTPHandler):
    """HTTP from one source address of the loopback network."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address

    def http_open(self, req):
        return self.do_open(functools.partial(http.client.HTTPConnection, source_address=(self.address, 0)), req)


def phone_at(server: RaceServer, address: str) -> Phone:
    """A phone on its own network (source ``address``) that has opened the group's link."""
    phone = Phone(server.url)
    # build_opener leaves out its own HTTPHandler when given a subclass of it
    phone._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(phone.cookies),
                                                _NoRedirects(), _From(address))
    with server.db() as db:
        token = groups.only_group(db).token
    assert phone.get(f"/g/{token}").redirects_to("/passcode")
    return phone


def guess(phone: Phone, passcode: str):
    """One passcode sent from ``phone``, with its passcode page's form token."""
    form = phone.form("/passcode")
    return lambda: phone.post("/passcode", {**form, "passcode": passcode})


# ---------------------------------------------------------------------------- bursts


def test_a_burst_of_wrong_passcodes_from_one_phone_is_judged_exactly_up_to_its_limit(race_server):
    set_passcode(race_server.database)
    guesser = phone_at(race_server, "127.0.0.1")
    replies = at_once(*(guess(guesser, f"wrong guess {n}") for n in range(12)))
    assert_no_server_error(replies)
    # 5 a minute per phone: five judged wrong (400), seven refused unjudged (429)
    assert sorted(r.status for r in replies) == [400] * 5 + [429] * 7, statuses(replies)
    assert all("not the passcode" in r.text for r in replies if r.status == 400)
    assert all("Too many wrong passcodes from this phone" in r.text for r in replies if r.status == 429)
    assert wrong_in_database(race_server.database) == 5
    # even the right passcode waits now: nothing is judged until the minute is over
    right = guess(guesser, PASSCODE)()
    assert right.status == 429 and int(right.headers["Retry-After"]) > 0


def test_many_addresses_at_once_are_judged_exactly_up_to_the_groups_cap(race_server):
    set_passcode(race_server.database)
    member = phone_at(race_server, "127.0.0.1")  # in the group before any stranger came
    assert guess(member, PASSCODE)().status == 302
    phones = [phone_at(race_server, f"127.0.{1 + n // 200}.{1 + n % 200}") for n in range(50)]
    sends = [guess(p, f"wrong guess {n}") for p in phones for n in range(3)]
    replies = at_once(*sends)
    assert_no_server_error(replies)
    # 150 wrong passcodes from 50 addresses: the group's cap, 30 an hour, judges 30
    judged = [r for r in replies if r.status == 400]
    refused = [r for r in replies if r.status == 429]
    assert (len(judged), len(refused)) == (30, 120), statuses(replies)
    assert all("Too many wrong passcodes for this group" in r.text for r in refused)
    assert wrong_in_database(race_server.database) == 30
    # a new phone of the group with the right passcode is refused too …
    newcomer = phone_at(race_server, "127.0.9.9")
    refused_right = guess(newcomer, PASSCODE)()
    assert refused_right.status == 429
    assert "Ask someone in the group to tap 'Let a phone in' on the Group page" in refused_right.text
    # … but the member lets it in with a one-time code, typed on the passcode page
    made = member.post("/group/let-in", member.form("/group/let-in"))
    assert made.redirects_to("/group/let-in")
    code = shown_code(member.get("/group/let-in").body)
    typed = form_after(newcomer.get("/passcode").body, "/code")
    assert newcomer.post("/code", {**typed, "code": code}).status == 302
    home = newcomer.get("/")
    assert home.status == 200 and "New game" in home.text


def shown_code(page: str) -> str:
    found = re.search(r'id="let-in-code">([0-9A-Z]{5}-[0-9A-Z]{5})<', page)
    assert found, "the Let a phone in page shows no code"
    return found.group(1)


def form_after(page: str, action: str) -> dict:
    """The fields of the form of ``page`` that posts to ``action``."""
    start = page.index(f'action="{action}"')
    return form_fields('<form method="post" ' + page[start:])


# ---------------------------------------------------------------------------- per phone, per address


@pytest.fixture
def guarded(app):
    """The app's group with a passcode, set by its organiser's phone (``app.keeper``);
    returns the group's token."""
    token = groups.only_group(connect(app.config["DATABASE"])).token
    keeper = phone(app, token)
    assert keeper.post("/group", data={"action": "passcode", "pass-passcode": PASSCODE}).status_code == 302
    app.keeper = keeper
    return token


def test_one_phones_mistakes_do_not_block_another_phone_on_the_same_wifi(app, guarded):
    mistyper = phone(app, guarded)
    assert [mistyper.post("/passcode", data={"passcode": "clubs and spade"}).status_code
            for _ in range(6)] == [400] * 5 + [429]
    # the next player at the café, on the same address, is not held up
    neighbour = phone(app, guarded)
    assert neighbour.post("/passcode", data={"passcode": PASSCODE}).status_code == 302
    assert neighbour.get("/").status_code == 200


def test_a_guesser_who_clears_cookies_is_still_bounded_by_the_address(app, guarded):
    """A fresh phone for every guess (cookies cleared): the address's limit, 15 a minute."""
    answers = [phone(app, guarded).post("/passcode", data={"passcode": f"guess {n}"}).status_code
               for n in range(16)]
    assert answers == [400] * 15 + [429]
    fresh = phone(app, guarded)
    stopped = fresh.post("/passcode", data={"passcode": PASSCODE})
    assert stopped.status_code == 429 and "from this phone or its network" in stopped.get_data(as_text=True)
    # elsewhere, the right passcode works (the group's cap, 30, is not reached)
    elsewhere = phone(app, guarded)
    elsewhere.environ_base["REMOTE_ADDR"] = "10.0.0.7"
    assert elsewhere.post("/passcode", data={"passcode": PASSCODE}).status_code == 302


def test_an_ipv6_guesser_is_counted_by_its_64_block(app, guarded):
    for n in range(15):
        guesser = phone(app, guarded)
        guesser.environ_base["REMOTE_ADDR"] = f"2001:db8:1:2::{n + 1:x}"
        assert guesser.post("/passcode", data={"passcode": f"guess {n}"}).status_code == 400
    last = phone(app, guarded)
    last.environ_base["REMOTE_ADDR"] = "2001:db8:1:2:ffff::1"
    assert last.post("/passcode", data={"passcode": PASSCODE}).status_code == 429



@pytest.mark.parametrize("spelt", ["10.99.0.1:{port}", "[2001:db8:5::1]:{port}"])
def test_a_proxy_that_writes_the_port_too_still_counts_one_address(app, guarded, spelt):
    """Tester 52: behind a proxy that writes the client's port with its address
    (X-Forwarded-For "10.99.0.1:40000", as some hosting does), each connection's port
    made a new address, so the per-address limit (15 a minute) never held. The port is
    not part of the address: the 16th guess from the one address is refused."""
    for n in range(15):
        guesser = phone(app, guarded)
        guesser.environ_base["REMOTE_ADDR"] = spelt.format(port=40000 + n)
        assert guesser.post("/passcode", data={"passcode": f"guess {n}"}).status_code == 400
    last = phone(app, guarded)
    last.environ_base["REMOTE_ADDR"] = spelt.format(port=41000)
    assert last.post("/passcode", data={"passcode": PASSCODE}).status_code == 429


# ---------------------------------------------------------------------------- one-time codes


def make_code(member) -> str:
    assert member.post("/group/let-in").status_code == 302
    page = member.get("/group/let-in").get_data(as_text=True)
    assert "It works once, for 15 minutes" in page
    return shown_code(page)


def test_a_members_code_lets_a_new_phone_in_while_the_groups_cap_is_used_up(app, guarded):
    app.config.update(PASSCODE_LIMIT_GROUP="3 per hour")
    for n in range(3):
        stranger = phone(app, guarded)
        stranger.environ_base["REMOTE_ADDR"] = f"10.9.0.{n + 1}"
        assert stranger.post("/passcode", data={"passcode": f"guess {n}"}).status_code == 400
    newcomer = phone(app, guarded)
    refused = newcomer.post("/passcode", data={"passcode": PASSCODE})
    page = html.unescape(refused.get_data(as_text=True))
    assert refused.status_code == 429 and "Too many wrong passcodes for this group" in page
    assert "Ask someone in the group to tap 'Let a phone in' on the Group page" in page
    # the organiser's phone makes a code; the QR code holds its address
    code = make_code(app.keeper)
    assert f"/code?c={code}" in app.keeper.get("/group/let-in").get_data(as_text=True)
    # typed in lower case with a space, as a hurried player would
    came_in = newcomer.post("/code", data={"code": code.lower().replace("-", " ")})
    assert came_in.status_code == 302
    home = newcomer.get("/")
    assert home.status_code == 200 and "New game" in home.get_data(as_text=True)
    assert "The code was used" in app.keeper.get("/group/let-in").get_data(as_text=True)


def test_the_qr_code_opens_the_code_page_which_changes_nothing_until_tapped(app, guarded):
    code = make_code(app.keeper)
    stranger = phone(app, None)
    page = stranger.get(f"/code?c={code}")
    assert page.status_code == 200 and f'value="{code}"' in page.get_data(as_text=True)
    assert stranger.get("/").location == "/welcome"  # opening the page let nobody in
    assert stranger.post("/code", data={"code": code}).status_code == 302
    assert stranger.get("/").status_code == 200  # in the group, past its passcode
    assert "cannot be a one-time code" not in page.get_data(as_text=True)


def test_the_codes_link_pasted_whole_into_the_code_field_lets_the_phone_in(app, guarded):
    """Tester 62: "Copy link" on the phone in the group gives the code's link; pasted
    whole into "One-time code" it was refused as "not a one-time code" (the code alone
    worked). Its code is read from it, once, as typed."""
    code = make_code(app.keeper)
    link = f"https://cards.example/code?c={code}"
    stranger = phone(app, None)
    assert stranger.post("/code", data={"code": f" {link} "}).status_code == 302
    assert stranger.get("/").status_code == 200  # in the group, past its passcode
    again = phone(app, None).post("/code", data={"code": link})  # used up: one phone only
    assert again.status_code == 400 and "That code does not work" in again.get_data(as_text=True)


@pytest.mark.parametrize("c", ["garbage", "K7QM4-9XP"])  # no code at all; a link cut short
def test_a_code_link_whose_code_cannot_be_one_says_so_beside_the_field(app, c):
    """Tester 58: the page opened as if the code were fine, to be refused only once tapped."""
    page = phone(app, None).get("/code", query_string={"c": c})
    body = html.unescape(page.get_data(as_text=True))
    assert page.status_code == 200 and f'value="{c}"' in body
    assert "This link's code cannot be a one-time code, which has ten letters and digits (as K7QM4-9XP3H)." in body


def test_a_typed_code_that_cannot_be_one_says_what_a_code_is_and_counts_no_try(app, guarded):
    """Tester 60: "abc" was told "does not work … used already or more than 15 minutes
    old", and five of them were "too many wrong codes". A shape no code has is said at
    once and tries nothing; a code of the right shape that opens nothing still counts."""
    guesser = phone(app, None)
    for _ in range(8):  # more than the wrong tries a phone may make
        answer = guesser.post("/code", data={"code": "abc"})
        body = " ".join(html.unescape(answer.get_data(as_text=True)).split())
        assert answer.status_code == 400
        assert ("That is not a one-time code: a code has ten letters and digits, as the other phone shows it "
                "(like K7QM4-9XP3H). Check it and type it again.") in body
        assert "does not work" not in body and 'value="abc"' in body
    # the phone's five wrong tries are all still to come (test_wrong_codes_count_per_phone…)
    answers = [guesser.post("/code", data={"code": f"AAAAA-AAAA{n}"}) for n in range(6)]
    assert [a.status_code for a in answers] == [400] * 5 + [429]
    assert "That code does not work" in answers[0].get_data(as_text=True)


def test_a_used_code_is_refused(app, guarded):
    code = make_code(app.keeper)
    first, second = phone(app, None), phone(app, None)
    assert first.post("/code", data={"code": code}).status_code == 302
    again = second.post("/code", data={"code": code})
    assert again.status_code == 400 and "That code does not work" in again.get_data(as_text=True)
    assert second.get("/").location == "/welcome"
    # one character misread (tester 26: told only "used already or old"): said to check it first
    misread = ("1" if code[0] != "1" else "2") + code[1:]
    answer = phone(app, None).post("/code", data={"code": misread})
    assert answer.status_code == 400
    assert "That code does not work. Check it against the code on the other phone;" in answer.get_data(as_text=True)


def test_an_expired_code_is_refused(app):
    db = connect(app.config["DATABASE"])
    group = groups.only_group(db)
    code = attempts.make_code(db, group.id, at=1_000_000.0)
    limits = attempts.Limits(phone=((5, 60.0),), address=((15, 60.0),))
    fifteen_minutes_later = 1_000_000.0 + attempts.CODE_LIFETIME
    assert attempts.use_code(db, code, "phone", "10.0.0.1", limits, at=fifteen_minutes_later) is None
    # a fresh one works once, a minute after it was made
    code = attempts.make_code(db, group.id, at=1_000_000.0)
    assert attempts.use_code(db, code, "phone", "10.0.0.1", limits, at=1_000_060.0).group_id == group.id
    assert attempts.use_code(db, code, "other", "10.0.0.2", limits, at=1_000_061.0) is None


def test_wrong_codes_count_per_phone_and_never_against_the_group(app, guarded):
    guesser = phone(app, None)
    answers = [guesser.post("/code", data={"code": f"AAAAA-AAAA{n}"}).status_code for n in range(6)]
    assert answers == [400] * 5 + [429]
    refused = guesser.post("/code", data={"code": "AAAAA-AAAAA"})
    minutes = -(-int(refused.headers["Retry-After"]) // 60)
    assert (f"Too many wrong codes from this phone or its network. Try again in {minutes} "
            f"minute{'s' if minutes != 1 else ''}.") in refused.get_data(as_text=True)
    # wrong codes from forty addresses do not touch the group's count (30 an hour):
    for n in range(40):
        stranger = phone(app, None)
        stranger.environ_base["REMOTE_ADDR"] = f"10.8.{n}.1"
        assert stranger.post("/code", data={"code": f"BBBBB-BBB{n:02d}"}).status_code == 400
    newcomer = phone(app, guarded)
    assert newcomer.post("/passcode", data={"passcode": PASSCODE}).status_code == 302


def test_wrong_codes_typed_on_the_same_wifi_never_keep_a_right_code_out(app, guarded):
    """Tester 70: fifteen wrong codes from one address, each from a fresh phone, put the
    address over its limit, and a newcomer's right code from that Wi-Fi was refused for up
    to an hour (429) while the group's cap was used up too: "nobody can lock this door"
    did not hold. A right code lets its phone in whatever the wrong ones count."""
    wifi = "10.7.7.7"
    answers = []
    for n in range(16):
        guesser = phone(app, None)
        guesser.environ_base["REMOTE_ADDR"] = wifi
        answers.append(guesser.post("/code", data={"code": f"CCCCC-CCC{n:02d}"}).status_code)
    assert answers == [400] * 15 + [429]  # wrong ones are slowed down ...
    newcomer = phone(app, guarded)
    newcomer.environ_base["REMOTE_ADDR"] = wifi
    came_in = newcomer.post("/code", data={"code": make_code(app.keeper)})
    assert came_in.status_code == 302  # ... a right one is let in
    assert "New game" in newcomer.get("/").get_data(as_text=True)


def passcode_changed_under_a_player(app) -> tuple[Any, Any, str]:
    """A group with the passcode "clubs and spades", given on a player's phone and on the
    keeper's, and a Trigami game; then the keeper changes it: (the player's phone, which
    has not given the new one, the group, the game's id)."""
    db = connect(app.config["DATABASE"])
    try:
        group = groups.only_group(db)
        groups.set_passcode(db, group.id, "clubs and spades")
    finally:
        db.conn.close()
    player, keeper = phone(app, group.token), phone(app, group.token)
    for one in (player, keeper):
        assert one.post("/passcode", data={"passcode": "clubs and spades"}).status_code == 302
    started = player.post("/games/new?kind=trigami", data={"player_0": "Anna", "player_1": "Ben", "player_2": "Carla",
                                                           "first_dealer": "0", "target": "500"})
    assert keeper.post("/group", data={"action": "passcode", "pass-passcode": "hearts and diamonds"}).status_code == 302
    return player, group, started.location.rsplit("/", 1)[1]


def test_a_save_refused_after_the_passcode_changed_says_so_once(app):
    """Tester 58 (LOW): the refused save's alert ("… was changed, so nothing was saved …")
    was followed by a notice saying the same again in other words."""
    player, _group, game_id = passcode_changed_under_a_player(app)
    answer = player.post(f"/games/{game_id}/deals/new", data={"nonce": "late"})
    said = html.unescape(re.sub(r"<[^>]+>", " ", answer.get_data(as_text=True)))
    assert answer.status_code == 403 and "The group's passcode was changed, so nothing was saved." in said
    assert "changed since this phone last gave it" not in said


def test_a_phone_asked_again_after_the_passcode_changed_is_told_it_changed(app):
    """The tester's phone in the middle of a deal: the organiser changes the passcode, and
    the phone's next page is the passcode page. It says the passcode was changed (not
    only "This group has a passcode"); a phone that never gave one reads the usual words."""
    player, group, _game_id = passcode_changed_under_a_player(app)
    assert player.get("/").location == "/passcode"
    asked = html.unescape(re.sub(r"<[^>]+>", " ", player.get("/passcode").get_data(as_text=True)))
    assert "The group's passcode was changed since this phone last gave it." in asked
    newcomer = phone(app, group.token)
    first = html.unescape(newcomer.get("/passcode").get_data(as_text=True))
    assert "This group has a passcode. Enter it once" in first and "passcode was changed" not in first
    assert player.post("/passcode", data={"passcode": "hearts and diamonds"}).status_code == 302
    assert player.get("/").status_code == 200  # in again


def test_the_keeper_is_told_a_changed_passcode_stopped_the_old_one(app):
    """Tester 5 (LOW): "Passcode set" after a change did not say the old passcode stopped
    working, so the keeper could not tell the table to use the new one. Setting the first
    passcode says it is asked once; changing it says the old one no longer works."""
    keeper = phone(app, groups.only_group(connect(app.config["DATABASE"])).token)

    def said(passcode: str) -> str:
        answer = keeper.post("/group", data={"action": "passcode", "pass-passcode": passcode},
                             follow_redirects=True)
        return html.unescape(answer.get_data(as_text=True))

    first = said("clubs and spades")
    assert "Passcode set. Each phone that opens the link is asked for it once." in first
    assert "old one no longer works" not in first
    changed = said("hearts and diamonds")
    assert "Passcode changed. The old one no longer works: every other phone is asked for the new one once." in changed
    assert "Passcode set." not in changed
    # the same passcode typed again: nothing changes, and no phone that gave it is asked
    # for it again (tester 8: every other phone was told it had changed and asked again)
    other = phone(app, groups.only_group(connect(app.config["DATABASE"])).token)
    assert other.post("/passcode", data={"passcode": "hearts and diamonds"}).status_code == 302
    again = said(" hearts and diamonds ")
    assert "That is the group's passcode already: nothing changed, no phone is asked again." in again
    assert "old one no longer works" not in again and "Passcode set." not in again
    assert other.get("/").status_code == 200  # not sent to the passcode page
    assert keeper.get("/").status_code == 200


def test_after_a_changed_passcode_the_phone_comes_back_to_the_page_it_was_on(app):
    """Tester 3 (stop 31): the passcode changed while a phone had a game open; once the new
    passcode is given, the phone is back on that game's page (or the deal form it sent),
    not on the games list, and its polls in between never take the place of the page."""
    db = connect(app.config["DATABASE"])
    group = groups.only_group(db)
    game_id = store.create_game(db, from_dict(game_file()), group_id=group.id)
    groups.set_passcode(db, group.id, "clubs and spades")
    player, keeper = phone(app, group.token), phone(app, group.token)
    for one in (player, keeper):
        assert one.post("/passcode", data={"passcode": "clubs and spades"}).status_code == 302
    keeper.post("/group", data={"action": "passcode", "pass-passcode": "hearts and diamonds"})
    assert player.get(f"/games/{game_id}").location == "/passcode"
    assert player.get(f"/games/{game_id}/live?since=0").status_code in (302, 401, 403)  # the sheet's poll
    back = player.post("/passcode", data={"passcode": "hearts and diamonds"})
    assert back.status_code == 302 and back.location == f"/games/{game_id}"
    # a deal form sent just after the change: asked for the passcode, then back on that form
    keeper.post("/group", data={"action": "passcode", "pass-passcode": "diamonds and clubs"})
    form = f"http://localhost/games/{game_id}/deals/new"
    sent = player.post(f"/games/{game_id}/deals/new", data={"nonce": "x"}, headers={"Referer": form})
    assert sent.status_code == 403 and "passcode" in sent.get_data(as_text=True).lower()
    back = player.post("/passcode", data={"passcode": "diamonds and clubs"})
    assert back.location == f"/games/{game_id}/deals/new"
    # a page of another site named as the referrer is never where the phone is sent
    keeper.post("/group", data={"action": "passcode", "pass-passcode": "spades and hearts"})
    player.post(f"/games/{game_id}/deals/new", data={"nonce": "y"}, headers={"Referer": "https://evil.example/x"})
    assert player.post("/passcode", data={"passcode": "spades and hearts"}).location == "/"  # the games list


# ---------------------------------------------------------------------------- the rule for new passcodes


@pytest.mark.parametrize("passcode, saved", [
    ("12345", False), ("٠١٢٣٤", False), ("hearts!", False), ("two hi", False),
    ("271828", True), ("٤٧١١٠٠", True), ("123457", True), ("clubs and spades", True),
])
def test_a_new_passcode_has_six_digits_or_a_few_words(app, passcode, saved):
    token = groups.only_group(connect(app.config["DATABASE"])).token
    keeper = phone(app, token)
    answer = keeper.post("/group", data={"action": "passcode", "pass-passcode": passcode})
    newcomer = phone(app, token)
    if saved:
        assert answer.status_code == 302 and newcomer.get("/").location == "/passcode"
    else:
        page = answer.get_data(as_text=True)
        assert answer.status_code == 400
        beside = re.search(r'id="pass-passcode-errors".*?</', page, re.S)
        assert beside and "Too short to be safe: at least 6 digits, or two words or more" in beside.group(0)
        # said once, beside the field, not again by the rule's hint under it (tester 49)
        assert text(answer).count("6 digits, or two words or more") == 1
        assert newcomer.get("/").status_code == 200  # nothing saved: no passcode asked


@pytest.mark.parametrize("typed, said", [
    ("Supercalifragilistic", "One word is easy to guess, however long: use two words or more, or at least 6 digits."),
    ("x" * 1000, "At most 64 characters, please."),
])
def test_a_refused_passcode_is_told_one_reason_that_fits_it(app, typed, said):
    """The tester's passcodes: one long word is not "too short", and 1,000 letters are told
    they are too long, not also too short."""
    keeper = phone(app, groups.only_group(connect(app.config["DATABASE"])).token)
    answer = keeper.post("/group", data={"action": "passcode", "pass-passcode": typed})
    assert answer.status_code == 400
    beside = re.search(r'id="pass-passcode-errors".*?</ul>', answer.get_data(as_text=True), re.S)
    assert beside
    told = [html.unescape(re.sub(r"<[^>]+>", "", item)).strip() for item in re.findall(r"<li.*?</li>", beside.group(0), re.S)]
    assert told == [said]


@pytest.mark.parametrize("before", [None, "482913"])
def test_an_empty_change_passcode_is_refused_and_never_turns_the_passcode_off(app, before):
    """The tester's mis-tap: "Change passcode" with the field left empty said "Passcode
    set" and turned the passcode off, letting any phone with the link in. Turning it off
    is its own button, with a box to tick; an empty field is told so beside it."""
    db = connect(app.config["DATABASE"])
    group = groups.only_group(db)
    if before:
        groups.set_passcode(db, group.id, before)
    keeper = phone(app, group.token)
    if before:
        assert keeper.post("/passcode", data={"passcode": before}).status_code == 302
    answer = keeper.post("/group", data={"action": "passcode", "pass-passcode": ""})
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    beside = re.search(r'id="pass-passcode-errors".*?</ul>', page, re.S)
    assert beside and "Type the new passcode first." in beside.group(0)
    assert "Passcode set" not in page
    newcomer = phone(app, group.token)
    if before:
        assert newcomer.get("/").location == "/passcode"  # still asked
        assert newcomer.post("/passcode", data={"passcode": before}).status_code == 302
    else:
        assert newcomer.get("/").status_code == 200  # still none


def test_a_passphrase_opens_the_group_as_a_phones_keyboard_types_it(app):
    """A keyboard capitalises the first word of a text field (the Group page's field, before
    it said not to) and leaves a space after a word it suggests; a password field (the
    passcode page) does neither. Each way opens the group, without a wrong try counted;
    another word does not."""
    db = connect(app.config["DATABASE"])
    token = groups.only_group(db).token
    keeper = phone(app, token)
    page = keeper.get("/group").get_data(as_text=True)
    field = re.search(r'<input[^>]*name="pass-passcode"[^>]*>', page)
    assert field and 'autocapitalize="none"' in field.group(0) and 'autocorrect="off"' in field.group(0)
    assert keeper.post("/group", data={"action": "passcode", "pass-passcode": "horse battery"}).status_code == 302
    for typed in ("horse battery", "Horse battery", "horse battery ", " Horse battery "):
        assert phone(app, token).post("/passcode", data={"passcode": typed}).status_code == 302, typed
    assert phone(app, token).post("/passcode", data={"passcode": "horse batteries"}).status_code == 400
    # set on a keyboard that capitalised it: typed in a password field, it still opens
    groups.set_passcode(db, groups.only_group(db).id, "Horse battery")
    assert phone(app, token).post("/passcode", data={"passcode": "horse battery"}).status_code == 302
    # set with the space a word suggestion leaves after the last word: kept without it
    keeper = phone(app, token)
    assert keeper.post("/passcode", data={"passcode": "Horse battery"}).status_code == 302
    assert keeper.post("/group", data={"action": "passcode", "pass-passcode": "blue harbour "}).status_code == 302
    assert phone(app, token).post("/passcode", data={"passcode": "blue harbour"}).status_code == 302


def test_a_short_passcode_from_before_the_rule_keeps_working_and_a_longer_one_is_suggested(app):
    """A passcode set before migration m008 (only its hash kept, so no one can tell its
    length): it still opens the group, and the Group page suggests a longer one."""
    db = connect(app.config["DATABASE"])
    group = groups.only_group(db)
    groups.set_passcode(db, group.id, "4711")
    db.execute("update groups set passcode_rule = null where id = ?", [group.id])  # as m008 leaves it
    db.conn.commit()
    newcomer = phone(app, group.token)
    assert newcomer.post("/passcode", data={"passcode": "4711"}).status_code == 302
    page = newcomer.get("/group").get_data(as_text=True)
    assert "set before passcodes needed at least 6 digits" in page
    newcomer.post("/group", data={"action": "passcode", "pass-passcode": "471147"})
    assert "set before passcodes needed" not in newcomer.get("/group").get_data(as_text=True)


# ---------------------------------------------------------------------------- the counts themselves


def test_the_counts_are_moving_windows_and_a_right_passcode_is_not_counted(app):
    db = connect(app.config["DATABASE"])
    group_id = groups.only_group(db).id
    limits = attempts.Limits(phone=((5, 60.0), (20, 3600.0)), address=((15, 60.0),), group=((30, 3600.0),))
    t = 5_000_000.0
    for n in range(5):
        assert isinstance(attempts.count_passcode(db, group_id, "p", "a", limits, at=t + n), attempts.Counted)
    refused = attempts.count_passcode(db, group_id, "p", "a", limits, at=t + 10)
    assert refused == attempts.Refused(attempts.PHONE, 50)  # the first leaves the minute at t + 60
    right = attempts.count_passcode(db, group_id, "p", "a", limits, at=t + 60)
    assert isinstance(right, attempts.Counted)
    attempts.forget(db, right)  # it was right: not counted
    assert _wrong_attempts(db, group_id, 0) == 5
    # the hour: 20 per phone, four minutes of five
    for minute in range(1, 4):
        for n in range(5):
            assert isinstance(attempts.count_passcode(db, group_id, "p", "a", limits, at=t + 60 * minute + n),
                              attempts.Counted)
    hour = attempts.count_passcode(db, group_id, "p", "a", limits, at=t + 300)
    assert hour.by == attempts.PHONE and hour.retry_after == 3300
    # attempts older than the longest window are pruned
    attempts.count_passcode(db, group_id, "q", "b", limits, at=t + 7300)
    assert db.execute("select count(*) from passcode_attempts").fetchone()[0] == 1


def test_codes_are_read_the_way_phones_type_them():
    assert attempts.normal_code(" k7qm4 - 9xp3h ") == "K7QM49XP3H"
    assert attempts.normal_code("K7QM4-9XP3O") == "K7QM49XP30"  # O read as 0
    assert attempts.normal_code("١٢٣٤٥٦٧٨٩٠") == "1234567890"  # an Arabic keypad
    assert attempts.normal_code("K7QM4-9XP3") is None and attempts.normal_code("K7QM4-9XP3U") is None


def test_a_read_only_link_cannot_let_a_phone_in(app, guarded):
    db = connect(app.config["DATABASE"])
    viewer = phone(app, groups.view_link(db, groups.only_group(db).id))
    assert viewer.get("/group/let-in").status_code == 403
    assert viewer.post("/group/let-in").status_code == 403
    assert db.execute("select count(*) from entry_codes").fetchone()[0] == 0


def test_a_passcode_limit_that_is_no_limit_stops_the_start(tmp_path):
    from scorekeeper import create_app

    with pytest.raises(ValueError, match="PASSCODE_LIMIT_GROUP = 'thirty an hour' is no limit"):
        create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "x.sqlite3"),
                    "PASSCODE_LIMIT_GROUP": "thirty an hour"})


@pytest.mark.parametrize("passcode", ["000000", "111111", "123456", "654321", "3456789", "٩٨٧٦٥٤", "１２３４５６"])
def test_a_new_passcode_of_one_digit_repeated_or_a_run_is_refused_beside_the_field(app, passcode):
    """The documented guessing bound (docs/at-the-table.md) counts on a code picked at
    random: the codes a guesser tries first are refused, told beside the field, and
    nothing is saved."""
    token = groups.only_group(connect(app.config["DATABASE"])).token
    keeper = phone(app, token)
    answer = keeper.post("/group", data={"action": "passcode", "pass-passcode": passcode})
    assert answer.status_code == 400
    beside = re.search(r'id="pass-passcode-errors".*?</', answer.get_data(as_text=True), re.S)
    assert beside and "Too easy to guess" in beside.group(0)
    assert phone(app, token).get("/").status_code == 200  # nothing saved: no passcode asked


def _minutes(reply) -> int:
    """The Retry-After header's seconds as whole minutes, rounded up."""
    return -(-int(reply.headers["Retry-After"]) // 60)


def test_over_the_groups_cap_the_page_says_in_how_many_minutes_and_who_can_let_the_phone_in(app, guarded):
    app.config.update(PASSCODE_LIMIT_GROUP="2 per hour")
    for n in range(2):
        stranger = phone(app, guarded)
        stranger.environ_base["REMOTE_ADDR"] = f"10.9.1.{n + 1}"
        assert stranger.post("/passcode", data={"passcode": f"guess {n}"}).status_code == 400
    refused = phone(app, guarded).post("/passcode", data={"passcode": PASSCODE})
    assert refused.status_code == 429
    minutes = _minutes(refused)
    assert 1 <= minutes <= 60
    page = html.unescape(refused.get_data(as_text=True))
    assert "wait a while" not in page
    assert (f"Too many wrong passcodes for this group. Try again in {minutes} minute{'s' if minutes != 1 else ''} "
            "— or ask someone in the group to tap 'Let a phone in'.") in page


def test_an_arabic_page_over_the_limit_writes_its_minutes_in_arabic_digits(app, guarded):
    app.config.update(PASSCODE_LIMIT_GROUP="1 per hour")
    stranger = phone(app, guarded)
    stranger.environ_base["REMOTE_ADDR"] = "10.9.2.1"
    assert stranger.post("/passcode", data={"passcode": "guess"}).status_code == 400
    reader = phone(app, guarded)
    reader.set_cookie("lang", "ar")
    refused = reader.post("/passcode", data={"passcode": PASSCODE})
    assert refused.status_code == 429
    arabic = str(_minutes(refused)).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    alert = re.search(r"<p class=\"errors\" role=\"alert\">(.*?)</p>", html.unescape(refused.get_data(as_text=True)), re.S)
    assert alert and arabic in alert.group(1) and not re.search(r"[0-9]", alert.group(1)), alert


def test_one_phone_over_its_limit_is_told_its_minutes_too(app, guarded):
    mistyper = phone(app, guarded)
    for _ in range(5):
        assert mistyper.post("/passcode", data={"passcode": "clubs and spade"}).status_code == 400
    refused = mistyper.post("/passcode", data={"passcode": "clubs and spade"})
    assert refused.status_code == 429
    minutes = _minutes(refused)
    page = html.unescape(refused.get_data(as_text=True))
    assert f"from this phone or its network. Try again in {minutes} minute" in page


def test_turning_the_passcode_off_needs_its_box_ticked(app, guarded):
    keeper = app.keeper
    page = keeper.get("/group").get_data(as_text=True)
    form = re.search(r'<form[^>]*>(?:(?!</form>).)*value="no_passcode".*?</form>', page, re.S)
    assert form and 'type="checkbox" name="confirm"' in form.group(0)
    unticked = keeper.post("/group", data={"action": "no_passcode"})
    assert unticked.status_code == 400
    form = re.search(r'value="no_passcode".*?</form>', unticked.get_data(as_text=True), re.S)
    assert form and "Tick the box to confirm first" in form.group(0)  # beside the button, not only atop the page
    assert phone(app, guarded).get("/").location == "/passcode"  # still on
    ticked = keeper.post("/group", data={"action": "no_passcode", "confirm": "yes"})
    assert ticked.status_code == 302
    assert phone(app, guarded).get("/").status_code == 200  # off


def test_another_code_stops_the_one_shown_before_working(app, guarded):
    """Tester 64: "Make another code" showed a new code while the one shown before (read
    out to the wrong person, or left on a screen) still let a phone in for its fifteen
    minutes. The page says the old one stops working, and it does; the new one works."""
    first = make_code(app.keeper)
    assert "Another code stops this one working." in app.keeper.get("/group/let-in").get_data(as_text=True)
    second = make_code(app.keeper)
    assert second != first
    refused = phone(app, None).post("/code", data={"code": first})
    assert refused.status_code == 400 and "That code does not work" in refused.get_data(as_text=True)
    newcomer = phone(app, None)
    assert newcomer.post("/code", data={"code": second}).status_code == 302
    assert newcomer.get("/").status_code == 200  # in the group, past its passcode


def test_another_code_leaves_a_code_of_another_phone_working(app, guarded):
    """Each phone's "Make another code" replaces only the code it showed itself: two
    organisers letting two phones in at once do not spoil each other's code."""
    other = phone(app, guarded)
    assert other.post("/passcode", data={"passcode": PASSCODE}).status_code == 302
    theirs = make_code(other)
    make_code(app.keeper)
    make_code(app.keeper)  # the keeper's second replaces the keeper's first only
    newcomer = phone(app, None)
    assert newcomer.post("/code", data={"code": theirs}).status_code == 302
    assert newcomer.get("/").status_code == 200


@pytest.mark.parametrize("shut_out_by", ["a new link", "a new passcode"])
def test_a_code_made_before_a_new_link_or_passcode_lets_nobody_in(app, guarded, shut_out_by):
    """Tester 66: a member about to be shut out made a one-time code and kept it; the
    organiser made a new link (or changed the passcode); from a fresh phone the kept code
    let him back in, with the new link on the Group page. A new link or passcode now stops
    every code not used yet; the page of the phone that made it says why it no longer
    works, and a code made afterwards works."""
    member = phone(app, guarded)
    assert member.post("/passcode", data={"passcode": PASSCODE}).status_code == 302
    kept = make_code(member)
    if shut_out_by == "a new link":
        assert app.keeper.post("/group", data={"action": "new_link", "confirm": "yes"}).status_code == 302
        settings = html.unescape(app.keeper.get("/group").get_data(as_text=True))
        assert "One-time codes not used yet stop working too." in settings
        assert "Read-only links keep working: stop them under “Show without changing”." in settings
    else:
        changed = app.keeper.post("/group", data={"action": "passcode", "pass-passcode": "hearts and diamonds",
                                                  "was": groups.passcode_stamp(groups.only_group(
                                                      connect(app.config["DATABASE"])).passcode_id)})
        assert changed.status_code == 302
    comeback = phone(app, None)
    refused = comeback.post("/code", data={"code": kept})
    assert refused.status_code == 400 and "That code does not work" in refused.get_data(as_text=True)
    assert comeback.get("/").location == "/welcome"  # not in the group
    if shut_out_by == "a new passcode":  # a member told the new one: the code page says why the old code died
        assert member.post("/passcode", data={"passcode": "hearts and diamonds"}).status_code == 302
        said = html.unescape(member.get("/group/let-in").get_data(as_text=True))
        assert "The code no longer works: the group has a new link or passcode since it was made." in said
    fresh = make_code(app.keeper)  # the organiser lets a phone in afterwards: that code works
    newcomer = phone(app, None)
    assert newcomer.post("/code", data={"code": fresh}).status_code == 302
    assert newcomer.get("/").status_code == 200


def test_a_code_used_at_the_instant_a_new_link_is_made_never_gets_past_the_new_link(race_server):
    """Tester 68: a code typed on a phone at the same instant as "Make a new link" was
    tapped let that phone in with the new link, now and then (4 of 80): the page read the
    group's link after the code was used, and a new link made in between was the one it
    handed out. Whichever comes first, the phone ends outside: its code stopped by the new
    link, or it came in with the old link, which the new one then stopped. Twenty rounds,
    each started together (a barrier); only the outcome is asserted, never an order."""
    set_passcode(race_server.database)
    member = phone_at(race_server, "127.0.0.1")
    assert guess(member, PASSCODE)().status == 302
    for round_ in range(20):
        assert member.post("/group/let-in", member.form("/group/let-in")).redirects_to("/group/let-in")
        code = shown_code(member.get("/group/let-in").body)
        stranger = Phone(race_server.url)
        stranger._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(stranger.cookies),
                                                       _NoRedirects(), _From(f"127.0.5.{round_ + 1}"))
        typed = stranger.form(f"/code?c={code}")
        csrf = member.form("/group")["csrf_token"]
        use = functools.partial(stranger.post, "/code", {**typed, "code": code})
        new_link = functools.partial(member.post, "/group", {"csrf_token": csrf, "action": "new_link",
                                                             "confirm": "yes", "nonce": f"race-{round_}"})
        replies = at_once(use, new_link)
        assert_no_server_error(replies)
        assert replies[1].status == 302, statuses(replies)  # the new link is made either way
        assert stranger.get("/").status != 200, f"round {round_}: the stranger is in ({statuses(replies)})"
        assert member.get("/").status == 200  # the phone that made the new link keeps it


def test_another_code_on_a_page_still_showing_a_used_one_says_it_was_used(app, guarded):
    """Tester 68: the let-in page still showed a code that a phone had used meanwhile;
    "Make another code" showed a new one and never said the one before had let a phone
    in, the case where a code shown to the wrong person matters."""
    first = make_code(app.keeper)
    assert phone(app, None).post("/code", data={"code": first}).status_code == 302  # somebody came in
    made = app.keeper.post("/group/let-in")
    assert made.status_code == 302
    page = html.unescape(app.keeper.get("/group/let-in").get_data(as_text=True))
    assert "The code shown before was used: a phone came in with it." in page
    assert shown_code(page) != first
    # an unused code replaced says nothing of the kind
    app.keeper.post("/group/let-in")
    assert "was used" not in app.keeper.get("/group/let-in").get_data(as_text=True)
