"""Pages left open on a club night (issue 20; docs/club-nights.md, "Pages left open"):
every form that changes the night's rounds or players carries the round its page showed,
and when another phone has moved the night on since, it changes nothing and says so on
the night's page, in the players' words. Never the round after the one named.

The night of the tester's report: Trigami, four players (one table of three, one sits
out each round), three rounds. Two phones: A opened its page first and left it open,
B moved the night on.
"""

from __future__ import annotations

import pytest

from tests.race_support import form_fields
from tests.test_nights import fixed_seed, night, start, text  # noqa: F401 (fixed_seed: a fixture)

pytestmark = pytest.mark.usefixtures("fixed_seed")

FOUR = ["Aino", "Bruno", "Carla", "Dmitri"]


@pytest.fixture
def phones(app):
    """Phone A and phone B, each with its own cookies (its own flashed messages)."""
    return app.test_client(), app.test_client()


def page_form(phone, path: str, action: str | None = None) -> tuple[str, dict]:
    """GET ``path`` on ``phone`` and read the form a tap would send: (where it posts, its
    fields). A form with no action posts to the page's own address."""
    response = phone.get(path)
    assert response.status_code == 200, text(response)[-400:]
    fields = form_fields(response.get_data(as_text=True), action)
    return (path.split("#")[0] if action is None else action), fields


def tap(phone, path: str, fields: dict) -> str:
    """Send ``fields`` to ``path`` as a tap does and read the page it leads to."""
    response = phone.post(path, data=fields)
    assert response.status_code == 302, text(response)[-400:]
    return text(phone.get(response.location))


def close_link(phone, night_id: int) -> str:
    """The night page's "Close round N" link, as the organiser taps it."""
    body = phone.get(f"/nights/{night_id}").get_data(as_text=True)
    start_at = body.index(f"/nights/{night_id}/close")
    return body[start_at:body.index('"', start_at)].replace("&amp;", "&")


def close_round(phone, night_id: int) -> str:
    """Phone taps "Close round N" and then "Close the round"."""
    path, fields = page_form(phone, close_link(phone, night_id))
    return tap(phone, path, fields)


def seat_next(phone, night_id: int) -> str:
    """Phone taps "Seat round N" on the night's page."""
    _, fields = page_form(phone, f"/nights/{night_id}", action=f"/nights/{night_id}/next")
    return tap(phone, f"/nights/{night_id}/next", fields)


def test_an_old_close_page_tapped_after_the_next_round_is_seated_closes_nothing(phones, db):
    a, b = phones
    night_id = start(a, "trigami", FOUR, 3)
    assert close_link(a, night_id).endswith("close?round=1")
    old_path, old_close = page_form(a, close_link(a, night_id))  # "Close round 1?" left open
    assert "Round 1 closed: 1 table counts as it stands." in close_round(b, night_id)
    assert "Round 2 is seated." in seat_next(b, night_id)
    said = tap(a, old_path, old_close)
    assert "Round 1 was closed already: nothing changed." in said
    assert "Round 2 closed" not in said
    assert "Round 2 of 3 · 1 table still playing." in said
    second = night(db, night_id).rounds[1]
    assert not second.closed and not second.closed_early
    assert [t.counted for t in second.tables] == [None]


def test_an_old_seat_button_tapped_after_that_round_is_seated_seats_nothing(phones, db):
    a, b = phones
    night_id = start(a, "trigami", FOUR, 3)
    close_round(b, night_id)
    _, old_seat = page_form(a, f"/nights/{night_id}", action=f"/nights/{night_id}/next")  # "Seat round 2"
    assert old_seat["round"] == "2"
    assert "Round 2 is seated." in seat_next(b, night_id)
    assert "Round 2 closed: 1 table counts as it stands." in close_round(b, night_id)  # round 3 could be seated
    said = tap(a, f"/nights/{night_id}/next", old_seat)
    assert "Round 2 is seated already: nothing changed." in said
    assert "Round 3" not in said
    assert [r.number for r in night(db, night_id).rounds] == [1, 2]
    assert "Round 3 is seated." in seat_next(b, night_id)  # the page as it is now seats round 3


def test_the_same_close_tapped_twice_closes_once_and_says_so(phones, db):
    a, _ = phones
    night_id = start(a, "trigami", FOUR, 3)
    path, fields = page_form(a, close_link(a, night_id))
    assert "Round 1 closed: 1 table counts as it stands." in tap(a, path, fields)
    assert "Round 1 was closed already: nothing changed." in tap(a, path, fields)
    assert len(night(db, night_id).rounds) == 1


def test_an_old_leaver_form_sent_after_the_next_round_is_seated_changes_nothing(phones, db):
    a, b = phones
    night_id = start(a, "trigami", FOUR, 3)
    _, old_leave = page_form(a, f"/nights/{night_id}", action=f"/nights/{night_id}/leave#leave")
    assert old_leave["round"] == "1"
    close_round(b, night_id)
    seat_next(b, night_id)
    said = tap(a, f"/nights/{night_id}/leave", {**old_leave, "player": "Aino"})
    assert "This page showed round 1; round 2 is seated now: nothing changed. Choose again who leaves, " \
           "if anyone." in said
    assert "Aino leaves after round 2" not in said
    assert night(db, night_id).player("Aino").until_round is None
    # chosen again on the page as it is now: she plays out round 2
    _, leave = page_form(a, f"/nights/{night_id}", action=f"/nights/{night_id}/leave#leave")
    assert "Aino leaves after round 2." in tap(a, f"/nights/{night_id}/leave", {**leave, "player": "Aino"})
    assert night(db, night_id).player("Aino").until_round == 2


def test_a_leaver_chosen_on_an_old_page_after_another_phone_chose_them_is_told_nothing_changed(phones, db):
    """Two organiser phones on the night's page: B says Aino leaves; A, still showing her
    among those who may leave, taps her too. A is told she leaves after round 1 already
    (a fresh tester got "Choose who leaves." and her name gone from the choices)."""
    a, b = phones
    night_id = start(a, "trigami", FOUR, 3)
    _, old_leave = page_form(a, f"/nights/{night_id}", action=f"/nights/{night_id}/leave#leave")
    _, leave = page_form(b, f"/nights/{night_id}", action=f"/nights/{night_id}/leave#leave")
    assert "Aino leaves after round 1." in tap(b, f"/nights/{night_id}/leave", {**leave, "player": "Aino"})
    said = tap(a, f"/nights/{night_id}/leave", {**old_leave, "player": "Aino"})
    assert "Aino leaves after round 1 already: nothing changed." in said
    assert "Choose who leaves." not in said
    assert night(db, night_id).player("Aino").until_round == 1


def test_an_old_stay_button_for_an_earlier_leaving_changes_nothing(phones, db):
    """Aino said she leaves after round 1, then stayed, played round 2 and now leaves
    after it: an "Aino stays" button from round 1's page takes back nothing."""
    a, b = phones
    night_id = start(a, "trigami", FOUR, 3)
    _, leave = page_form(b, f"/nights/{night_id}", action=f"/nights/{night_id}/leave#leave")
    tap(b, f"/nights/{night_id}/leave", {**leave, "player": "Aino"})
    _, old_stay = page_form(a, f"/nights/{night_id}", action=f"/nights/{night_id}/stay")
    assert (old_stay["player"], old_stay["round"]) == ("Aino", "1")
    _, stay = page_form(b, f"/nights/{night_id}", action=f"/nights/{night_id}/stay")
    assert "Aino stays: seated again from round 2." in tap(b, f"/nights/{night_id}/stay", stay)
    close_round(b, night_id)
    seat_next(b, night_id)
    _, leave = page_form(b, f"/nights/{night_id}", action=f"/nights/{night_id}/leave#leave")
    assert "Aino leaves after round 2." in tap(b, f"/nights/{night_id}/leave", {**leave, "player": "Aino"})
    said = tap(a, f"/nights/{night_id}/stay", old_stay)
    assert "This page showed round 1; round 2 is seated now: nothing changed." in said
    assert night(db, night_id).player("Aino").until_round == 2


def test_the_close_question_after_the_round_is_closed_leads_to_the_night(phones, db):
    a, b = phones
    night_id = start(a, "trigami", FOUR, 3)
    link = close_link(a, night_id)
    close_round(b, night_id)
    for asked in (link, f"/nights/{night_id}/close"):
        response = a.get(asked)
        assert response.status_code == 302 and response.location.endswith(f"/nights/{night_id}")
        said = text(a.get(response.location))
        assert "Round 1 was closed already." in said and "still playing" not in said
    # a later round open and asked for: its own question
    seat_next(b, night_id)
    assert "Close round 2?" in text(a.get(close_link(a, night_id)))
    response = a.get(link)  # the old link to round 1's question
    assert response.status_code == 302
    assert "Round 1 was closed already." in text(a.get(response.location))


@pytest.mark.parametrize("junk", ["abc", "-1", "0", "2", "9" * 400, "9" * 5000, "١", ""])
def test_a_close_link_naming_no_round_of_the_night_closes_nothing_and_shows_the_night(phones, db, junk):
    # a link cut short or typed over: not a "Close round 1?" for a round it did not name
    a, _ = phones
    night_id = start(a, "trigami", FOUR, 3)
    answer = a.get(f"/nights/{night_id}/close?round={junk}")
    assert answer.status_code == 302 and answer.location.endswith(f"/nights/{night_id}")
    assert "Round 1 of 3" in text(a.get(answer.location))
    assert not night(db, night_id).rounds[0].closed
