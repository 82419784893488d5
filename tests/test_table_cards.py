"""A club night's table cards (docs/club-nights.md, "Table cards"; docs/at-the-table.md):
the printed cards and the night page's QR codes carry a link of each table's own, never
the group's play link. The rules tested, as the docs state them:

- a card lets a phone that had no link enter deals in its table's game, with no passcode;
- it opens nothing else: another game of the group, the group page, a new game, the
  game's settings, the nights: refused (403, a page naming the card and its game);
- a token made up or altered opens nothing ("this table card does not work", 404), and
  such tries are counted per phone: over the limit, 429 and nothing looked up;
- once the round is closed (the next round seated, or closed by the organiser), once the
  night is over, or 12 hours after the round was seated, the card shows the sheet and
  changes nothing;
- a phone that has the group's play link keeps it, and every right, when it scans a card.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from scorekeeper import club, create_app, groups, night_store
from scorekeeper.db import connect
from tests.database_support import new_database
from tests.test_join import decode_modules, modules
from tests.test_nights import NINE, start, text, trigami_deal

WIFI = "http://192.168.1.20:5000"


def cards_of(db, night_id) -> dict[int, tuple[str, str]]:
    """The current round's tables: {table number: (game id, card token)}."""
    night = night_store.get_night(db, night_id)
    tokens = groups.table_cards(db, night_id)
    return {t.number: (t.game.id, tokens[t.game.id]) for t in night.current.tables}


@pytest.fixture
def night(app, client, db):
    """A Trigami night of nine (three tables) started by the organiser's phone (the
    group's play link): (night id, {table: (game id, token)})."""
    night_id = start(client, "trigami", NINE, 2)
    return night_id, cards_of(db, night_id)


def fresh_phone(app):
    """A phone that has opened no link."""
    return app.test_client(join=False)


def deal(phone, game_id, nonce="n1"):
    """Save one Trigami deal: seat 0 takes 7 tricks, seat 1 six, seat 2 none."""
    return phone.post(f"/games/{game_id}/deals/new",
                      data=trigami_deal([("S", 7, 0), ("H", 6, 0), ("D", 0, 0)], nonce))


def deals_in(db, game_id) -> int:
    return db.execute("select count(*) from deals where game_id = ? and deleted_at is null", [game_id]).fetchone()[0]


def test_a_table_card_lets_a_fresh_phone_save_a_deal_in_its_game(app, db, night):
    _, cards = night
    game_id, token = cards[2]
    phone = fresh_phone(app)
    opened = phone.get(f"/t/{token}")
    assert opened.status_code == 302 and opened.location.endswith(f"/games/{game_id}")
    sheet = phone.get(f"/games/{game_id}")
    assert sheet.status_code == 200
    assert "Table card: this phone enters deals at table 2 (round 1) only." in text(sheet)
    assert f"/games/{game_id}/deals/new" in sheet.get_data(as_text=True)  # the Add deal button
    saved = deal(phone, game_id)
    assert saved.status_code == 302
    assert deals_in(db, game_id) == 1


def test_a_table_card_opens_no_other_game_and_no_group_page(app, db, night):
    _, cards = night
    game_id, token = cards[1]
    other = cards[2][0]
    phone = fresh_phone(app)
    phone.get(f"/t/{token}")
    for address in (f"/games/{other}", "/group", "/games/new", f"/games/{game_id}/edit", "/nights",
                    f"/games/{game_id}/read-only-link", f"/games/{game_id}/delete", "/players"):
        answer = phone.get(address)
        assert answer.status_code == 403, address
        assert "It enters deals in that table's game only" in text(answer), address
        assert f'href="/games/{game_id}"' in answer.get_data(as_text=True)  # leads to its own game
    refused = deal(phone, other)
    assert refused.status_code == 403 and deals_in(db, other) == 0
    assert phone.post("/games/new", data={"kind": "trigami", "players": "A\nB\nC"}).status_code == 403
    assert phone.post("/group", data={"action": "rename", "rename-name": "Mine now"}).status_code == 403
    assert groups.get(db, 1).name != "Mine now"
    # the games list and the brand lead to its game, not to the group's games
    assert phone.get("/").location.endswith(f"/games/{game_id}")


def test_a_made_up_or_altered_card_opens_nothing(app, db, night):
    _, cards = night
    game_id, token = cards[1]
    altered = token[:-1] + ("A" if token[-1] != "A" else "B")
    phone = fresh_phone(app)
    for wrong in (altered, "x" * 32, groups.get(db, 1).token):  # the group's play link is no card either
        answer = phone.get(f"/t/{wrong}")
        assert answer.status_code == 404
        assert "This table card does not work" in text(answer)
    assert phone.get(f"/games/{game_id}").status_code == 302  # still in no group: the welcome page
    assert deal(phone, game_id).status_code == 403
    # and a card's token is no group link at /g/ (where tries are not counted)
    assert fresh_phone(app).get(f"/g/{token}").status_code == 404


def test_wrong_cards_are_limited_per_phone_and_a_right_one_is_not_counted(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "DATABASE": new_database(tmp_path / "limited.sqlite3"),
                      "PASSCODE_LIMIT_PHONE": "3 per minute", "PASSCODE_LIMIT_CLIENT": "100 per minute"})
    organiser = app.test_client()
    night_id = start(organiser, "trigami", NINE, 1)
    database = connect(app.config["DATABASE"])
    try:
        token = cards_of(database, night_id)[1][1]
    finally:
        database.conn.close()
    phone = fresh_phone(app)
    for _ in range(2):
        assert phone.get(f"/t/{token}").status_code == 302  # right ones never count
    for n in range(3):
        assert phone.get(f"/t/wrong{n}").status_code == 404
    over = phone.get("/t/wrong3")  # the fourth wrong one in a minute
    assert over.status_code == 429
    assert int(over.headers["Retry-After"]) >= 1
    assert "Too many table cards that do not work from this phone" in text(over)
    # a working card still opens (192 bits: nobody guesses one; tester 70: a page could
    # otherwise shut a whole room's address out of its cards)
    assert phone.get(f"/t/{token}").status_code == 302
    assert fresh_phone(app).get(f"/t/{token}").status_code == 302  # another phone is not held up


def test_made_up_cards_from_a_rooms_address_never_keep_its_phones_from_their_table(tmp_path):
    """Tester 70: sixty made-up card addresses asked for with no cookie (any web page a
    phone on the club's Wi-Fi opens can do it, with image tags) put that address over its
    limit for an hour, and every phone behind it was refused its real table card (429).
    Each tried from a phone of its own, as cookie-less requests are, at one address."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "DATABASE": new_database(tmp_path / "room.sqlite3")})  # the default limits
    night_id = start(app.test_client(), "trigami", NINE, 1)
    database = connect(app.config["DATABASE"])
    try:
        game_id, token = cards_of(database, night_id)[1]
    finally:
        database.conn.close()
    room = {"REMOTE_ADDR": "192.168.1.77"}
    answers = [fresh_phone(app).get(f"/t/notacard{n}", environ_base=room).status_code for n in range(61)]
    assert answers[0] == 404 and answers[-1] == 429  # the address is over its limit of wrong ones
    table_phone = fresh_phone(app)
    opened = table_phone.get(f"/t/{token}", environ_base=room)
    assert opened.status_code == 302 and opened.location.endswith(f"/games/{game_id}")
    assert deal(table_phone, game_id).status_code == 302  # and it enters its table's deals


def test_a_card_phones_sheet_names_its_night_without_a_link_it_would_be_refused(app, client, db, night):
    """The sheet's "Club night: round 1, table 2" line leads a phone of the group to the
    night's page; a card phone, which the night's page refuses (403), reads it as text."""
    night_id, cards = night
    game_id, token = cards[2]
    phone = fresh_phone(app)
    phone.get(f"/t/{token}")
    seen = phone.get(f"/games/{game_id}")
    assert "Club night: round 1, table 2" in text(seen)
    assert f'href="/nights/{night_id}"' not in seen.get_data(as_text=True)
    assert phone.get(f"/nights/{night_id}").status_code == 403  # why: it would be refused
    assert f'href="/nights/{night_id}"' in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_after_the_round_is_closed_the_card_only_shows_the_sheet(app, client, db, night):
    night_id, cards = night
    game_id, token = cards[3]
    phone = fresh_phone(app)
    phone.get(f"/t/{token}")
    assert deal(phone, game_id, "before").status_code == 302
    assert client.post(f"/nights/{night_id}/close").status_code == 302  # the organiser closes round 1
    sheet = phone.get(f"/games/{game_id}")
    assert sheet.status_code == 200
    # round 1 of 2 closed, not the night: the card says which
    assert "Round 1 is closed: the card of table 3 now only shows its scores." in text(sheet)
    assert "The night is over" not in text(sheet)
    assert "deals added now do not count" not in text(sheet)  # said to phones that may add one
    assert f"/games/{game_id}/deals/new" not in sheet.get_data(as_text=True)
    refused = deal(phone, game_id, "after")
    assert refused.status_code == 403
    assert "Round 1 is closed: this table card now only shows the scores of table 3. Deals can no longer be " \
           "entered or changed with it" in text(refused)
    assert "Nothing was saved." in text(refused)  # the deal typed in, said not saved (the tester's report)
    assert "Nothing was saved." not in text(phone.get("/group"))  # a page only refused, nothing sent
    assert deals_in(db, game_id) == 1
    # the same card scanned again (a replay after the night): the sheet, read-only
    again = fresh_phone(app)
    assert again.get(f"/t/{token}").location.endswith(f"/games/{game_id}")
    assert again.get(f"/games/{game_id}").status_code == 200
    assert deal(again, game_id, "replay").status_code == 403 and deals_in(db, game_id) == 1


def test_a_closed_tables_card_names_nobody_to_deal_next(app, client, db, night):
    """Tester 34: the card of a closed round, its game unfinished, still said "Aino deals
    next; …" (and showed the badge) though nobody deals there any more. The organiser's
    phone, which may still add a deal, is told who deals."""
    night_id, cards = night
    game_id, token = cards[1]
    phone = fresh_phone(app)
    phone.get(f"/t/{token}")
    assert "deals next; " in text(phone.get(f"/games/{game_id}"))  # open: said
    assert client.post(f"/nights/{night_id}/close").status_code == 302
    closed = phone.get(f"/games/{game_id}").get_data(as_text=True)
    assert "deals next" not in closed and "dealer-badge" not in closed
    assert "deals next; " in text(client.get(f"/games/{game_id}"))


def test_a_deal_typed_as_the_round_closed_comes_back_with_its_entries_for_the_organiser(app, client, db, night):
    """Tester 28: a table phone online had a deal's form open when the organiser closed
    the round; its Save answered only "Nothing was saved. Round 1 is closed…", and the
    deal just typed was gone. Now the form comes back as sent, nothing saved (403): the
    card's refusal above it, the entries as typed below, no Save; the same for a change
    of a deal already saved."""
    night_id, cards = night
    game_id, token = cards[2]
    phone = fresh_phone(app)
    phone.get(f"/t/{token}")
    assert deal(phone, game_id, "before").status_code == 302
    assert phone.get(f"/games/{game_id}/live").get_json()["shut"] == ""  # its pages' poll: the card saves
    assert client.post(f"/nights/{night_id}/close").status_code == 302  # the organiser closes round 1
    # the poll of an open page says so, for it to stop offering to save (static/app.js)
    poll = phone.get(f"/games/{game_id}/live").get_json()
    assert poll["shut"].startswith("Round 1 is closed: this table card now only shows the scores of table 2.")
    assert poll["shut_bar"] == "Round 1 is closed: the card of table 2 now only shows its scores."  # its bar's words
    assert client.get(f"/games/{game_id}/live").get_json()["shut"] == ""  # the organiser's phone: no card
    refused = phone.post(f"/games/{game_id}/deals/new",
                         data=trigami_deal([("S", 5, 0), ("H", 4, 1), ("D", 4, 2)], "after"))
    assert refused.status_code == 403
    page, html = text(refused), refused.get_data(as_text=True)
    assert "Nothing was saved." in page
    assert "Round 1 is closed: this table card now only shows the scores of table 2. Deals can no longer be " \
           "entered or changed with it" in page
    assert "Your entries are below, as you typed them: give them to the organiser." in page
    typed = dict(re.findall(r'<input[^>]*name="((?:tricks|bugs)_\d)"[^>]*value="(\d+)"', html))
    assert typed == {"tricks_0": "5", "bugs_0": "0", "tricks_1": "4", "bugs_1": "1", "tricks_2": "4", "bugs_2": "2"}
    assert "Save deal" not in page and 'type="submit"' not in html
    assert "deals added now do not count" not in page  # said to phones that may still add one
    assert deals_in(db, game_id) == 1
    # a change of the deal saved before the close: the same, the change not made
    changed = phone.post(f"/games/{game_id}/deals/1/edit",
                         data=trigami_deal([("S", 6, 0), ("H", 7, 0), ("D", 0, 0)], "change"))
    assert changed.status_code == 403
    assert "give them to the organiser" in text(changed) and "Save changes" not in text(changed)
    assert 'name="tricks_0"' in changed.get_data(as_text=True)
    assert db.execute("select entry from deals where game_id = ?", [game_id]).fetchone()[0].count('"tricks": [7, 6, 0]') == 1


def test_the_next_round_seated_closes_the_last_rounds_cards(app, client, db, night):
    night_id, cards = night
    client.post(f"/nights/{night_id}/close")
    assert client.post(f"/nights/{night_id}/next").status_code == 302
    new_cards = cards_of(db, night_id)
    assert {t for _, t in new_cards.values()}.isdisjoint(t for _, t in cards.values())  # a card per table and round
    old_phone, new_phone = fresh_phone(app), fresh_phone(app)
    old_phone.get(f"/t/{cards[1][1]}")
    new_phone.get(f"/t/{new_cards[1][1]}")
    assert deal(old_phone, cards[1][0]).status_code == 403
    assert deal(new_phone, new_cards[1][0]).status_code == 302


def test_a_card_closes_twelve_hours_after_its_round_was_seated():
    seated = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)
    open_ = {"round_closed": False, "night_over": False, "seated_at": seated}
    assert club.table_card_open(**open_, at=seated + timedelta(hours=11, minutes=59))
    assert not club.table_card_open(**open_, at=seated + timedelta(hours=12))
    assert not club.table_card_open(**open_, at=seated - timedelta(minutes=1))  # no card before its round
    assert not club.table_card_open(round_closed=True, night_over=False, seated_at=seated, at=seated)
    assert not club.table_card_open(round_closed=False, night_over=True, seated_at=seated, at=seated)


def test_a_night_left_open_stops_its_cards_after_twelve_hours(app, db, night):
    _, cards = night
    game_id, token = cards[1]
    db.execute("update links set created_at = ? where token = ?",
               [(datetime.now(UTC) - timedelta(hours=13)).isoformat(timespec="seconds"), token])
    db.conn.commit()
    phone = fresh_phone(app)
    phone.get(f"/t/{token}")
    sheet = phone.get(f"/games/{game_id}")
    assert sheet.status_code == 200
    assert "This table card has run out: the card of table 1 now only shows its scores." in text(sheet)
    refused = deal(phone, game_id)
    assert refused.status_code == 403
    assert "This table card has run out: it now only shows the scores of table 1." in text(refused)
    assert "The night is over" not in text(refused)  # its round still open, the night on


def test_the_last_round_over_ends_the_night_for_its_cards(app, client, db):
    night_id = start(client, "trigami", NINE[:3], 1)  # one table, one round
    game_id, token = cards_of(db, night_id)[1]
    phone = fresh_phone(app)
    phone.get(f"/t/{token}")
    # the game to 100 in one deal (SCORING.md §1.2): 7 clean tricks 140, 6 → 120, none 50
    assert deal(phone, game_id).status_code == 302
    assert night_store.get_night(db, night_id).finished
    assert deal(phone, game_id, "n2").status_code == 403
    assert "The night is over" in text(phone.get(f"/games/{game_id}"))


def test_a_phone_with_the_play_link_keeps_every_right_when_it_scans_a_card(app, client, db, night):
    _, cards = night
    game_id, token = cards[1]
    opened = client.get(f"/t/{token}")
    assert opened.location.endswith(f"/games/{game_id}")
    sheet = client.get(f"/games/{game_id}")
    assert "Table card" not in text(sheet)
    assert client.get(f"/games/{cards[2][0]}").status_code == 200
    assert client.get("/group").status_code == 200
    assert deal(client, cards[2][0]).status_code == 302


def test_a_card_asks_for_no_passcode(app, client, db, night):
    _, cards = night
    groups.set_passcode(db, 1, "clubs and spades")
    game_id, token = cards[1]
    phone = fresh_phone(app)
    assert phone.get(f"/t/{token}").location.endswith(f"/games/{game_id}")
    assert deal(phone, game_id).status_code == 302
    # while the group's play link still asks for it on a fresh phone
    assert fresh_phone(app).get(f"/g/{groups.get(db, 1).token}").location.endswith("/passcode")


def test_a_card_phone_passes_on_the_card_not_the_group_link(app, db, night):
    _, cards = night
    game_id, token = cards[1]
    phone = fresh_phone(app)
    phone.get(f"/t/{token}", base_url=WIFI)
    page = phone.get(f"/games/{game_id}", base_url=WIFI).get_data(as_text=True)
    svg = re.search(r'<details class="join panel">.*?(<svg\b.*?</svg>)', page, re.S).group(1)
    from xml.etree import ElementTree
    assert decode_modules(modules(ElementTree.fromstring(svg))) == [f"{WIFI}/t/{token}"]
    assert groups.get(db, 1).token not in page


def test_the_printed_cards_and_the_nights_qr_codes_carry_the_cards_not_the_group_link(client, db, night):
    from xml.etree import ElementTree
    night_id, cards = night
    play = groups.get(db, 1).token
    for address, svg_class in ((f"/nights/{night_id}/print", "card-qr"), (f"/nights/{night_id}", "join-qr")):
        page = client.get(address, base_url=WIFI).get_data(as_text=True)
        assert play not in page, address
        read = [decode_modules(modules(ElementTree.fromstring(svg)))[0]
                for svg in re.findall(rf'<svg class="{svg_class}".*?</svg>', page, re.S)]
        assert read == [f"{WIFI}/t/{cards[n][1]}" for n in (1, 2, 3)], address


def test_a_table_card_pasted_on_the_welcome_page_opens_as_scanned(app, db, night):
    _, cards = night
    game_id, token = cards[2]
    phone = fresh_phone(app)
    sent = phone.post("/welcome", data={"link": f"Table 2 tonight: {WIFI}/t/{token}."})
    assert sent.status_code == 303 and sent.location.endswith(f"/t/{token}")
    assert phone.get(sent.location).location.endswith(f"/games/{game_id}")
    assert deal(phone, game_id).status_code == 302


def test_another_groups_card_of_a_closed_round_promises_no_deal_entry(app, client, db, night):
    """The tester's old card: round 1 closed, its table card scanned by a phone of another
    group. The question says the card only shows that table's scores now, not that the
    phone would enter deals with it."""
    night_id, cards = night
    _game_id, token = cards[1]
    assert client.post(f"/nights/{night_id}/close").status_code == 302
    other = groups.create(db, "Tuesday table")
    phone = app.test_client(join=other.token)
    phone.get("/")
    asked = text(phone.get(f"/t/{token}"))
    assert "Its round is over: it only shows that table's scores. This phone is in Tuesday table." in asked
    assert "enters deals" not in asked


def test_another_groups_card_is_asked_first_and_the_phone_can_go_back(app, db, night):
    _, cards = night
    game_id, token = cards[1]
    other = groups.create(db, "Tuesday table")
    phone = app.test_client(join=other.token)
    phone.get("/")
    asked = phone.get(f"/t/{token}")
    assert asked.status_code == 200
    assert "with it, this phone enters deals at that table only. This phone is in Tuesday table." in text(asked)
    assert phone.get("/").status_code == 200 and "Tuesday table" in text(phone.get("/group"))  # nothing changed yet
    confirmed = phone.post(f"/t/{token}")
    assert confirmed.location.endswith(f"/games/{game_id}")
    sheet = phone.get(f"/games/{game_id}")
    assert "Back to my group" in text(sheet)
    assert deal(phone, game_id).status_code == 302
    phone.post("/groups/back")
    assert "Tuesday table" in text(phone.get("/group"))


def test_a_night_seated_before_table_cards_gets_one_per_table_from_its_start(app, client, db):
    """Migration m017_table_cards, on a database whose night was seated before it (its
    tables' cards taken away and the migration forgotten, as in a database of m015)."""
    night_id = start(client, "trigami", NINE, 2)
    games = [game_id for game_id, _ in cards_of(db, night_id).values()]
    db.execute("update nights set created_at = '2026-11-20T19:00:00+00:00' where id = ?", [night_id])
    db.execute("delete from links where access = 'table'")
    db.execute("delete from _sqlite_migrations where name = 'm017_table_cards'")
    db.conn.commit()
    from scorekeeper.db import migrate
    migrate(db)
    made = db.execute("select game_id, created_at, length(token) from links where access = 'table'").fetchall()
    assert sorted(g for g, _, _ in made) == sorted(games)
    assert {(at, n) for _, at, n in made} == {("2026-11-20T19:00:00+00:00", 32)}
    # an old night's cards show its games and change nothing (twelve hours are long past)
    phone = fresh_phone(app)
    phone.get(f"/t/{cards_of(db, night_id)[1][1]}")
    assert phone.get(f"/games/{games[0]}").status_code == 200
    assert deal(phone, games[0]).status_code == 403


def test_a_card_phone_can_take_back_and_restore_its_deal_and_poll_its_game_only(app, db, night):
    _, cards = night
    game_id, token = cards[1]
    phone = fresh_phone(app)
    phone.get(f"/t/{token}")
    deal(phone, game_id)
    deal_id = db.execute("select id from deals where game_id = ?", [game_id]).fetchone()[0]
    assert phone.post(f"/games/{game_id}/deals/{deal_id}/delete", data={"undo": "1"}).status_code == 302
    assert deals_in(db, game_id) == 0  # Undo
    assert phone.post(f"/games/{game_id}/deals/{deal_id}/restore", data={"back": "sheet"}).status_code == 302
    assert deals_in(db, game_id) == 1  # Restore
    assert phone.get(f"/games/{game_id}/live").status_code == 200
    other = phone.get(f"/games/{cards[2][0]}/live")
    assert other.status_code == 403 and "error" in other.get_json()
    # the game's players and settings are not the card's to change
    assert phone.post(f"/games/{game_id}/edit", data={"players-0": "Mallory"}).status_code == 403
