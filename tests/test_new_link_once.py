""""Make a new link" is one write per tap (issue 16, part 5, found after the merge): the
form sent twice (a double tap, or once more when the answer was lost on bad Wi-Fi), one
after the other or at the same instant against the real server (threads released
together by a barrier), makes one new link, and both answers leave the phone that made it
in its group with the NEW link, although the second request still carries the replaced
link in its cookie. Only that replaced link with that form's token gets back in: no other
dead link, no token of another group's form.
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import partial

from scorekeeper import groups
from tests.race_support import Fields, Phone, RaceServer, at_once, form_fields, statuses
from tests.test_one_write_per_tap import play_link, twin_of

ROUNDS = 5


def new_link_form(phone: Phone) -> Fields:
    """The Group page's "Make a new link" form as a browser sends it, box ticked."""
    page = phone.get("/group")
    assert page.status == 200, page
    form = next(f for f in re.findall(r"<form\b.*?</form>", page.body, flags=re.S) if 'value="new_link"' in f)
    return {**form_fields(form), "confirm": "yes"}


def play_links(server: RaceServer, group_id: int) -> list[tuple[str, str | None]]:
    """The group's play links ever made: (token, when stopped), oldest first."""
    with server.db() as db:
        return [tuple(r) for r in db.execute("select token, revoked_at from links where group_id = ? "
                                             "and access = 'play' order by rowid", [group_id])]


def working(server: RaceServer, group_id: int) -> str:
    with server.db() as db:
        return groups.get(db, group_id).token


def the_group(server: RaceServer) -> groups.Group:
    with server.db() as db:
        return groups.only_group(db)


def locked_out(phone: Phone) -> bool:
    """Whether the phone is on "The link this phone used no longer works" (no group)."""
    answer = phone.get("/")
    return answer.status == 302 and answer.location == "/welcome"


def test_a_new_link_sent_twice_at_once_makes_one_and_the_phone_keeps_it(race_server):
    group = the_group(race_server)
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        before = len(play_links(race_server, group.id))
        organiser, other = race_server.phone(), race_server.phone()
        fields = new_link_form(organiser)
        twin = twin_of(organiser)
        replies = at_once(partial(organiser.post, "/group", fields), partial(twin.post, "/group", fields))
        assert all(r.redirects_to("/group") for r in replies), f"{what}{statuses(replies)}"
        made = play_links(race_server, group.id)
        assert len(made) == before + 1, f"{what}{len(made) - before} new links"
        new = working(race_server, group.id)
        assert [t for t, stopped in made if stopped is None] == [new], what
        for one in (organiser, twin):  # each answer's cookie: in the group, with the new link
            assert play_link(one).endswith(f"/g/{new}"), what
            assert not locked_out(one), what
        assert locked_out(other), f"{what}another phone's old link still works"


def test_a_new_link_sent_again_after_its_answer_was_lost_gets_the_same_link(race_server):
    group = the_group(race_server)
    organiser, other = race_server.phone(), race_server.phone()
    fields = new_link_form(organiser)
    lost = twin_of(organiser)  # the cookie as it was when the form was sent: the old link
    first = organiser.post("/group", fields)
    assert first.redirects_to("/group"), first
    new = working(race_server, group.id)
    again = lost.post("/group", fields)  # the answer never arrived: the browser sends it again
    assert again.redirects_to("/group"), f"{again!r}\n{again.text[:300]}"
    page = lost.get("/group")  # the first answer: the message, the new link
    assert "New link made." in page.text and f'value="{race_server.url}/g/{new}"' in page.body
    # and from the phone that got the answer (its cookie has the new link): still that link
    assert organiser.post("/group", fields).redirects_to("/group")
    assert play_link(organiser).endswith(f"/g/{new}")
    assert len(play_links(race_server, group.id)) == 2 and working(race_server, group.id) == new
    assert locked_out(other)


def test_no_other_dead_link_gets_back_in(race_server):
    group = the_group(race_server)
    organiser, other = race_server.phone(), race_server.phone()
    others_form = new_link_form(other)  # its own page, open while the organiser replaces the link
    first = new_link_form(organiser)
    assert organiser.post("/group", first).redirects_to("/group")
    # the other phone's own form with the replaced link: locked out, nothing made
    refused = other.post("/group", others_form)
    assert refused.status == 403 and "link this phone used was replaced" in refused.text
    second = new_link_form(organiser)
    assert organiser.post("/group", second).redirects_to("/group")
    latest = working(race_server, group.id)
    # a link replaced two times ago with the latest form's token: not the link that form replaced
    refused = other.post("/group", {**others_form, "nonce": second["nonce"]})
    assert refused.status == 403 and locked_out(other)
    # the first form sent once more now its link was replaced: nothing made, the phone keeps the latest
    again = organiser.post("/group", first)
    assert again.redirects_to("/group")
    page = organiser.get("/group")
    assert "This form made a new link already." in page.text and f"/g/{latest}\"" in page.body
    assert len(play_links(race_server, group.id)) == 3 and working(race_server, group.id) == latest


def test_a_new_link_form_of_another_group_does_nothing_here(race_server):
    alpha = the_group(race_server)
    organiser = race_server.phone()
    with race_server.db() as db:
        bravo = groups.create(db, "Bravo")
    in_bravo, dead_bravo = Phone(race_server.url), Phone(race_server.url)
    for one in (in_bravo, dead_bravo):
        assert one.get(f"/g/{bravo.token}").status == 302
    bravo_form = new_link_form(dead_bravo)
    alpha_form = new_link_form(organiser)
    assert organiser.post("/group", alpha_form).redirects_to("/group")
    alpha_link = working(race_server, alpha.id)
    # Bravo's replaced link with Alpha's token: no way into Alpha, nothing made
    with race_server.db() as db:
        groups.new_play_link(db, bravo.id)
    bravo_link = working(race_server, bravo.id)
    refused = dead_bravo.post("/group", {**bravo_form, "nonce": alpha_form["nonce"]})
    assert refused.status == 403 and locked_out(dead_bravo)
    assert working(race_server, alpha.id) == alpha_link and working(race_server, bravo.id) == bravo_link
    # a phone in Bravo sending Alpha's token: a new tap in Bravo, a new Bravo link, Alpha untouched
    assert in_bravo.get(f"/g/{bravo_link}").status == 302
    made = in_bravo.post("/group", {**new_link_form(in_bravo), "nonce": alpha_form["nonce"]})
    assert made.redirects_to("/group")
    assert working(race_server, bravo.id) not in (bravo_link, alpha_link)
    assert play_link(in_bravo).endswith(f"/g/{working(race_server, bravo.id)}")
    assert working(race_server, alpha.id) == alpha_link and len(play_links(race_server, alpha.id)) == 2


def test_an_old_new_link_form_hands_out_nothing_once_it_is_old(race_server, monkeypatch):
    """Long after (a page kept in a browser's history with its old cookie), the form
    makes nothing and lets nobody in."""
    group = the_group(race_server)
    organiser = race_server.phone()
    fields = new_link_form(organiser)
    lost = twin_of(organiser)
    assert organiser.post("/group", fields).redirects_to("/group")
    monkeypatch.setattr(groups, "STARTED_AGAIN", timedelta(seconds=-1))
    assert lost.post("/group", fields).status == 403 and locked_out(lost)
    assert organiser.post("/group", fields).redirects_to("/group")
    assert "This form made a new link already." in organiser.get("/group").text
    assert len(play_links(race_server, group.id)) == 2
