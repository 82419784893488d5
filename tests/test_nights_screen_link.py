"""The big screen through the group's read-only link (docs/club-nights.md, "The big
screen"): the night's page offers the TV an address that opens the big screen with the
group's read-only link, not the play link the organiser's phone holds, so a TV left in
the club room shows the standing and changes nothing.

The night: six at Trigami to 100 (two tables of three), round 1. Table 1's first
player takes every trick: 100, the two others 0 (SCORING.md §1.2); placing points
(docs/club-nights.md, "The standing"): 2 behind × 2 = 4 for the sweeper, and 0 behind ×
2 + 1 level × 1 = 1 for each of the two level at 0. Table 2 has no deal yet and counts
as it stands: its three level at 0, 2 level × 1 = 2 each.
"""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper import groups
from tests.conftest import csrf_token
from tests.test_nights import NINE, fixed_seed, night, start, sweep_trigami, text  # noqa: F401 (fixed_seed: a fixture)

pytestmark = pytest.mark.usefixtures("fixed_seed")  # the night's draw fixed

SIX = NINE[:6]
ONLY_SHOWS = "This link only shows the scores: nobody can change anything with it."


def offered(page: str) -> str:
    """The address the night's page offers for the big screen (its link box's text)."""
    found = re.search(r'id="screen-link"[^>]*value="([^"]+)"', page)
    assert found, "the night's page offers no big-screen address"
    return html.unescape(found.group(1))


def screen_rows(page: str) -> list[tuple[str, str, int, int]]:
    """The big screen's standing: (rank as shown, name, placing points, score) by row."""
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", page[page.index('<table class="standing">'):], re.S)[1:]:
        cells = [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
                 for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        rows.append((cells[0], cells[1], int(cells[2]), int(cells[3])))
    return rows


def group_of(db):
    return groups.only_group(db)


def test_the_night_page_offers_the_big_screen_through_the_groups_read_only_link(app, client, db):
    night_id = start(client, "trigami", SIX, 2)
    group = group_of(db)
    # no read-only link yet: the page says so and offers to make one, as the group page
    # does; opening the page makes none
    first = client.get(f"/nights/{night_id}")
    assert "The group has none yet." in text(first) and "Make a read-only link" in text(first)
    assert groups.working_view_link(db, group.id) is None
    made = client.post(f"/nights/{night_id}/screen-link")
    assert made.status_code == 302 and made.location.endswith(f"/nights/{night_id}#big-screen")
    again = client.post(f"/nights/{night_id}/screen-link")  # a double tap: still one link
    assert again.status_code == 302
    view = groups.working_view_link(db, group.id)
    assert view is not None
    assert db.execute("select count(*) from links where group_id = ? and access = 'view' and revoked_at is null",
                      [group.id]).fetchone()[0] == 1
    page = client.get(f"/nights/{night_id}")
    address = offered(page.get_data(as_text=True))
    assert address == f"http://localhost/g/{view}?screen={night_id}"
    assert group.token not in page.get_data(as_text=True).split('id="big-screen"')[1].split("</section>")[0]
    assert ONLY_SHOWS in text(page) and "Open on the big screen" in text(page)
    # the same link the group page shows (one read-only link, one way to make it)
    assert f"/g/{view}" in client.get("/group").get_data(as_text=True)


def test_the_tv_sees_the_standing_through_the_read_only_link_and_changes_nothing(app, client, db):
    night_id = start(client, "trigami", SIX, 2)
    client.post(f"/nights/{night_id}/screen-link")
    address = offered(client.get(f"/nights/{night_id}").get_data(as_text=True))
    table = night(db, night_id).current.tables[0]
    winner = table.game.players[0]
    sweep_trigami(client, table.game.id, table.game.players, winner, "s1")

    tv = app.test_client(join=False)  # a TV's browser that never had a link
    opened = tv.get(address)
    assert opened.status_code == 302 and opened.location == f"/nights/{night_id}/screen"
    screen = tv.get(f"/nights/{night_id}/screen")
    assert screen.status_code == 200
    shown = text(screen)
    assert "Standing" in shown and "Table 1" in shown and "Table 2" in shown
    # by hand (this file's docstring): the sweeper 4 and 100; table 2, not played yet,
    # counts as it stands, its three level at 0: 2 level × 1 = 2 each; the sweeper's two
    # level at 0 behind him: 1 each
    others = night(db, night_id).current.tables[1].game.players
    expected = [("1", winner, 4, 100), *(("2=", name, 2, 0) for name in sorted(others)),
                *(("5=", name, 1, 0) for name in sorted(table.game.players[1:]))]
    assert screen_rows(screen.get_data(as_text=True)) == expected
    assert tv.get(f"/nights/{night_id}/live").status_code == 200  # it follows the tables by itself

    # every write from the TV is refused, and nothing changed
    version = night(db, night_id).current.tables[1].game.version
    other = night(db, night_id).current.tables[1].game
    deal = tv.post(f"/games/{other.id}/deals/new", data={"nonce": "tv", "bids_0": "S", "tricks_0": "13"})
    assert deal.status_code == 403
    assert tv.post(f"/nights/{night_id}/arrive", data={"name": "Intruder"}).status_code == 403
    assert tv.post(f"/nights/{night_id}/next").status_code == 403
    assert tv.post(f"/nights/{night_id}/screen-link").status_code == 403
    assert tv.get(f"/games/{other.id}/deals/new").status_code == 403
    assert tv.get("/games/new").status_code == 403
    assert night(db, night_id).current.tables[1].game.version == version
    assert "Intruder" not in text(client.get(f"/nights/{night_id}"))
    # the TV's own night page offers no address and no organiser's button
    tv_night = tv.get(f"/nights/{night_id}")
    assert tv_night.status_code == 200 and 'id="big-screen"' not in tv_night.get_data(as_text=True)


def test_a_tv_that_had_the_play_link_is_read_only_once_it_opens_the_address(app, client, db):
    """The TV was opened with the organiser's play link before; the big screen's address
    leaves it with the read-only link (the play link kept only to go back to)."""
    night_id = start(client, "trigami", SIX, 2)
    client.post(f"/nights/{night_id}/screen-link")
    address = offered(client.get(f"/nights/{night_id}").get_data(as_text=True))
    tv = app.test_client()  # joined with the play link
    game = night(db, night_id).current.tables[0].game
    assert tv.get(f"/games/{game.id}/deals/new").status_code == 200  # may write, for now
    assert tv.get(address).location == f"/nights/{night_id}/screen"
    assert "Standing" in text(tv.get(f"/nights/{night_id}/screen"))
    assert tv.get(f"/games/{game.id}/deals/new").status_code == 403
    assert tv.post(f"/nights/{night_id}/arrive", data={"name": "Intruder"}).status_code == 403


def test_a_plain_read_only_link_still_leaves_a_play_phone_its_rights(app, client, db):
    """Without ``screen=``, the group's read-only link opened on a phone that has the play
    link takes nothing away (as before); with a night of another group or no number, it
    opens the games list as a plain read-only link does."""
    night_id = start(client, "trigami", SIX, 2)
    client.post(f"/nights/{night_id}/screen-link")
    view = groups.working_view_link(db, group_of(db).id)
    phone = app.test_client()
    assert phone.get(f"/g/{view}").location == "/"
    game = night(db, night_id).current.tables[0].game
    assert phone.get(f"/games/{game.id}/deals/new").status_code == 200
    tv = app.test_client(join=False)
    for junk in ("999", "x", "1" * 40, f"{night_id}.0", "-1"):
        assert tv.get(f"/g/{view}?screen={junk}").location == "/", junk


def test_making_the_link_without_the_form_token_changes_nothing(csrf_app):
    """CSRF on, as in production: the page's own token makes the link; a form without it
    is refused (400) and makes none."""
    from scorekeeper.db import connect

    phone = csrf_app.test_client()
    new = phone.get("/nights/new?kind=trigami").get_data(as_text=True)
    answer = phone.post("/nights/new?kind=trigami", data={
        "csrf_token": csrf_token(new), "newcomers": "\n".join(SIX), "rounds": "2", "ranking": "placings",
        "seating": "random", "target": "100"})
    assert answer.status_code == 302, text(answer)[-400:]
    night_id = int(answer.location.rsplit("/", 1)[-1])
    db = connect(csrf_app.config["DATABASE"])
    try:
        group = groups.only_group(db)
        assert phone.post(f"/nights/{night_id}/screen-link").status_code == 400
        assert groups.working_view_link(db, group.id) is None
        page = phone.get(f"/nights/{night_id}").get_data(as_text=True)
        assert phone.post(f"/nights/{night_id}/screen-link", data={"csrf_token": csrf_token(page)}).status_code == 302
        assert groups.working_view_link(db, group.id) is not None
    finally:
        db.conn.close()


def test_a_tv_in_another_group_is_asked_first_then_shown_the_big_screen(app, client, db):
    """A browser in another group opening the address is asked first (as for any
    read-only link of another group); its confirmation, with its form token, opens the
    night's big screen, not the games list."""
    night_id = start(client, "trigami", SIX, 2)
    client.post(f"/nights/{night_id}/screen-link")
    address = offered(client.get(f"/nights/{night_id}").get_data(as_text=True))
    other = groups.create(db, "Tuesday pub")
    tv = app.test_client(join=other.token)
    asked = tv.get(address)
    assert asked.status_code == 200
    action = html.unescape(re.search(r'<form method="post" action="([^"]+)"', asked.get_data(as_text=True)).group(1))
    assert f"screen={night_id}" in action
    confirmed = tv.post(action)
    assert confirmed.status_code == 302 and confirmed.location == f"/nights/{night_id}/screen"
    assert "Standing" in text(tv.get(confirmed.location))
    assert tv.post(f"/nights/{night_id}/arrive", data={"name": "Intruder"}).status_code == 403


def test_the_organisers_big_screen_button_leads_to_the_tvs_address_not_to_the_screen_with_the_play_link(
        app, client, db):
    """A fresh tester cast what the night page's "Big screen" button opened: the big screen
    in the organiser's own browser, with the play link. On a phone that may write, the
    button leads to the section with the TV's read-only address; the screen itself opens
    from there by a link that says it is for this phone. A read-only phone's button opens
    the big screen."""
    night_id = start(client, "trigami", SIX, 2)
    client.post(f"/nights/{night_id}/screen-link")
    page = client.get(f"/nights/{night_id}").get_data(as_text=True)
    button = re.search(r'<a class="button small" href="([^"]*)">Big screen</a>', page)
    assert button and button.group(1) == "#big-screen"
    section = page.split('id="big-screen"')[1].split("</section>")[0]
    assert f'href="/nights/{night_id}/screen">Open the big screen on this phone</a>' in section
    assert "Copy this link into the TV&#39;s browser" in section or "Copy this link into the TV's browser" in section
    tv = app.test_client()
    tv.get(offered(page).removeprefix("http://localhost"))  # the read-only link
    seen = tv.get(f"/nights/{night_id}").get_data(as_text=True)
    button = re.search(r'<a class="button small" href="([^"]*)">Big screen</a>', seen)
    assert button and button.group(1) == f"/nights/{night_id}/screen"
    assert 'id="big-screen"' not in seen
