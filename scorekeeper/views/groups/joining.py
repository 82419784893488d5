"""Joining a group: the welcome page, starting a group, opening a link (a play link,
a read-only link of the group or of one game), switching to another group this phone
opened, and going back from a read-only link.

No GET changes which group a phone is in or makes a link: a phone in a group that opens
another group's link (play or read-only) is asked first, and the switch and the way back
are forms with their form token (CSRF).
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import flash, g, make_response, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from markupsafe import Markup

from ... import access, attempts, groups, limits, night_store
from ...db import get_db
from ...forms.groups import JoinForm, StartForm
from ...i18n import gettext as _
from ...i18n import ngettext
from ..common import refused
from .blueprint import bp


@bp.route("/welcome", methods=["GET", "POST"])
def welcome() -> Any:
    """For a phone in no group: what Scorekeeper is, start a group, or how to join one.

    Sent (POST), its "paste the group's link" form (issue 18, part 5: the app installed on
    the home screen opens here, never at a link) sends the phone to what was pasted
    (forms.groups.pasted_link) as opening it would: a group's link to ``/g/<token>``, a
    table card to ``/t/<token>``
    (joining, its passcode and "does not work" as for the link itself: nothing is looked
    up here, so this page tells no more than the link would), a one-time code to its page
    (``/code?c=``, where the code is tried and counted). Being a POST, it counts against
    the write limit of its address (limits.py) and is refused over it (429), so a guesser
    gains nothing over opening addresses. What is no link or code is refused beside
    the field (400), the text kept."""
    if request.method == "POST":
        form = JoinForm()
        if form.validate() and form.pasted is not None:
            pasted = form.pasted
            if pasted.code:
                return redirect(url_for("groups.enter_code", c=attempts.shown_code(pasted.code)), 303)
            if pasted.card:
                return redirect(url_for("groups.table_card", token=pasted.card), 303)
            return redirect(url_for("groups.join", token=pasted.token, game=pasted.game), 303)
        return render_template("groups/welcome.html", form=StartForm(formdata=None), paste_form=form,
                               lost=False), 400
    if access.current() is not None:
        return redirect(url_for("games.index"))
    lost = bool(session.get("link"))  # a link it had was replaced, or (a read-only one) stopped
    stopped = lost and groups.stopped_view_link(get_db(), str(session["link"]))
    return render_template("groups/welcome.html", form=StartForm(), lost=lost, stopped=stopped,
                           others=access.other_groups())


@bp.app_template_global("join_form")
def join_form() -> JoinForm:
    """An empty "paste the group's link" form, for every page that shows the welcome page
    (access.py and the group page show it too, for a link that was replaced)."""
    return JoinForm(formdata=None)



@bp.post("/groups/new")
def start() -> Any:
    """Start a new group: this phone is in it at once (its play link kept). The same form
    sent again (a double tap) answers with the group it started (groups.create). Another
    site's form (no cookie, no token) is refused without a cookie set in its answer."""
    if "HTTP_COOKIE" not in request.environ and not access.token_given():
        return refused()
    form = StartForm()
    if not form.validate_on_submit():
        if not form.errors.get("name"):
            form.name.errors = [_("This page was open too long: tap Start again.")]
        return render_template("groups/welcome.html", form=form, lost=False), 400
    try:
        group = groups.create(get_db(), form.name.data or None, default=_("Our games"), nonce=form.nonce.data or None)
    except groups.FormUsedError:  # an old page sent again: a new tap starts a new group
        form.nonce.data = secrets.token_urlsafe(16)
        form.name.errors = [_("This form started a group already. Tap Start again to start another one.")]
        return render_template("groups/welcome.html", form=form, lost=False), 400
    access.remember(group.token or "")
    # the way to the link to share, one tap (tester 16: "tap the group's name at the top"
    # alone left a first evening looking for it)
    flash(Markup(_("Your group is ready. <a href=\"%(url)s\">Invite the others</a>: their phones join with "
                   "the group's link, there to share (and behind the group's name at the top).",
                   url=url_for("groups.settings") + "#share-head")), "saved")
    return redirect(url_for("games.index"))


#: Play links a phone keeps, its own group's and the last few others' it opened
KEPT = 6



@bp.route("/g/<token>", methods=["GET", "POST"])
def join(token: str) -> Any:
    """Open a link: the group's play link, or a read-only link (of the group, or of one
    game). The phone remembers it and goes to the games (``?game=``: to that game). A
    phone with a play link that opens a read-only link of another group keeps its own to
    come back to ("Back to my group").

    ``?screen=<night>``: the address a club night's page offers for its big screen
    (views/nights.show, with the group's read-only link; docs/club-nights.md, "The big
    screen"): it opens that night's big screen, and this browser keeps the read-only link
    even when it had the group's play link (a TV first opened with the play link then
    shows and changes nothing); that play link is kept to go back to, as any read-only
    link's.

    A phone in a group that opens another group's play link is asked first, on a page
    (any web page can link here: deals entered afterwards would go to the other group);
    so is one that opens another group's read-only link (its games would seem gone), but
    for a phone looking at that group already. The page's button sends the same address
    as a form (POST, with the form token), which makes the change; this phone's group
    stays among those it can switch to (or to go back to from a read-only link). A POST without its
    token changes nothing (400): another site's form arrives without this phone's cookie,
    so it would look like a phone in no group. A link that does not work says so, nothing
    more."""
    link = groups.open_link(get_db(), token)
    if link is not None and link.access == groups.TABLE:
        link = None  # a table card opens at its own address, where wrong ones are counted (table_card)
    return _open(token, link, "groups.join")


def _open(token: str, link: groups.Access | None, endpoint: str) -> Any:
    """Open ``link`` (found by its ``token`` at ``endpoint``'s address: ``groups.join`` or
    ``groups.table_card``) on this phone, as :func:`join` says."""
    db = get_db()
    mine, home = access.current(), access.home()
    # another group's link on a phone in a group: asked first (a read-only one too, unless
    # the phone is looking at that group already)
    asking = link is not None and home is not None and home.group.id != link.group.id \
        and (link.access != groups.VIEW or mine is None or mine.group.id != link.group.id)
    screen = _screen_night(link)
    posted = request.method == "POST"
    confirmed = posted and access.token_given()
    if posted and not confirmed and not asking:
        return refused()  # a form without its token (another site's sends no cookie): nothing changes
    if link is None:
        return render_template("groups/welcome.html", form=StartForm(), lost=False, bad_link=True), 404
    if asking and home is not None:
        if not confirmed:  # asked (again, when the confirmation came without its token)
            return render_template("groups/switch.html", form=FlaskForm(), group=link.group, home=home,
                                   action=url_for(endpoint, token=token, game=request.args.get("game"),
                                                  screen=screen),
                                   read_only=link.access == groups.VIEW, card=link.table,
                                   refused=posted), 400 if posted else 200
        if home.token not in session.get("known", ()):
            access.remember(home.token)  # kept to switch back to (its Group page lists it)
    if mine is not None and mine.full and mine.group.id == link.group.id and screen is None:
        pass  # already in this group with every right: a read-only link or a table card takes none away
    else:
        if link.full:
            session.pop("back", None)
        elif mine is not None and mine.full:
            session["back"] = mine.token
        access.remember(token, play=link.full)
        g.access = link
    game_id = link.game_id or request.args.get("game")
    if screen is not None:
        target = url_for("nights.screen", night_id=screen)
    elif game_id and len(game_id) <= 64 and groups.game_group(db, game_id) == link.group.id:
        target = url_for("games.show", game_id=game_id)
    else:
        target = url_for("games.index")
    if not access.passed(g.access):
        session["after_passcode"] = target
        return redirect(url_for("groups.passcode"))
    return redirect(target)


def _screen_night(link: groups.Access | None) -> int | None:
    """The night whose big screen this request's ``?screen=`` names, when ``link`` is
    its group's read-only link (of the whole group); None otherwise (no such night,
    another group's, not digits, or another kind of link: then the link opens as
    without it)."""
    wanted = request.args.get("screen", "")
    if link is None or link.access != groups.VIEW or link.game_id is not None \
            or not wanted.isdecimal() or len(wanted) > 18 or not wanted.isascii():
        return None
    night_id = int(wanted)
    return night_id if night_store.night_group(get_db(), night_id) == link.group.id else None


@bp.route("/t/<token>", methods=["GET", "POST"])
def table_card(token: str) -> Any:
    """Open a club night's table card (docs/club-nights.md, "Table cards"): the phone
    then enters deals in that table's game only, while the night runs, and sees its sheet
    afterwards; no passcode is asked. As :func:`join` otherwise: a phone with the group's
    play link keeps it (and every right) and goes to the table's game; a phone in another
    group is asked first. A working card always opens; a token that opens no table card
    (made up, altered, or a group's link) is counted per phone and address
    (attempts.count_wrong_card, the limits of wrong one-time codes): 404, "this card does
    not work", or over a limit 429, "too many"."""
    db = get_db()
    link = groups.open_link(db, token)
    if link is not None and link.access == groups.TABLE:
        return _open(token, link, "groups.table_card")
    counted = attempts.count_wrong_card(db, access.phone(), limits.address(), limits.passcode_limits())
    if isinstance(counted, attempts.Refused):
        minutes = max(1, -(-counted.retry_after // 60))
        message = ngettext("Too many table cards that do not work from this phone or its network. Try again in "
                           "%(num)s minute.", "Too many table cards that do not work from this phone or its "
                           "network. Try again in %(num)s minutes.", minutes)
        response = make_response(render_template("error.html", code=429, message=message), 429)
        response.headers["Retry-After"] = str(counted.retry_after)
        return response
    return render_template("error.html", code=404, message=_(
        "This table card does not work. Ask the night's organiser: the night's page shows each table's "
        "QR code.")), 404


@bp.post("/groups/switch")
def switch() -> Any:
    """Switch this phone to another group it opened before (its play link still kept);
    refused without the form token (:func:`views.common.refused`). With ``game`` (a game
    of that group: groups/elsewhere.html), to that game's sheet, else to the games."""
    if not access.token_given():
        return refused()
    token = request.form.get("to", "")
    link = groups.open_link(get_db(), token) if token in session.get("known", ()) else None
    if link is not None:
        access.remember(token)
        session.pop("back", None)
        game = request.form.get("game", "")
        if game and groups.game_group(get_db(), game) == link.group.id:
            return redirect(url_for("games.show", game_id=game))
    return redirect(url_for("games.index"))


@bp.post("/groups/back")
def back() -> Any:
    """Leave a read-only link for the group this phone played in before; refused without
    the form token (:func:`views.common.refused`)."""
    if not access.token_given():
        return refused()
    token = session.pop("back", None)
    if isinstance(token, str) and groups.open_link(get_db(), token) is not None:
        access.remember(token)
    elif isinstance(token, str):  # its group made a new link meanwhile: said, not a silent stay (tester 53)
        flash(_("The link this phone used no longer works: it was replaced by a newer one. Ask someone in your "
                "group for the new link."), "told")
    return redirect(url_for("games.index"))

