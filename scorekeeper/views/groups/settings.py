"""The group page (its links to share, a new link, the read-only links, the passcode,
the name) and the read-only link to one game."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime
from typing import Any

from flask import Response, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from ... import access, actions, groups, store
from ...db import get_db
from ...forms.groups import NewPasscodeForm, RenameForm, StartForm, new_passcode, typeable
from ...i18n import gettext as _
from ...text import isolate
from ..common import link_code, link_url, named_attachment, refused
from .blueprint import bp


@bp.route("/group", methods=["GET", "POST"])
def settings() -> Any:
    """The group page: its link to share (text and QR code), a new link that stops the
    old one, the read-only link (made by its button, never by opening the page), the
    passcode and the name. Each change is its own form (``action``); the ones that lock
    phones out ask to be confirmed."""
    db = get_db()
    link = access.current()
    assert link is not None
    group_id = link.group.id
    rename_form, passcode_form = RenameForm(prefix="rename"), NewPasscodeForm(prefix="pass")
    status = 200
    unconfirmed = None  # the action whose box was not ticked: told beside it
    if request.method == "POST":
        action = request.form.get("action")
        confirmed = request.form.get("confirm") == "yes"
        plain = FlaskForm()
        if action == "rename" and rename_form.validate_on_submit():
            groups.rename(db, group_id, rename_form.name.data)
            flash(_("The group is now called %(name)s.", name=isolate(rename_form.name.data)), "saved")
            return redirect(url_for("groups.settings"))
        if action == "new_link" and plain.validate_on_submit() and confirmed:
            nonce = request.form.get("nonce", "")[:64] or None
            try:  # the same form sent again (a double tap): the link it made, no second one
                token = groups.new_play_link(db, group_id, nonce=nonce, replacing=link.token)
            except groups.LinkReplacedError:  # another phone made a new link first
                return render_template("groups/welcome.html", form=StartForm(), lost=True, unsaved=True,
                                       others=access.other_groups()), 403
            except groups.FormUsedError:  # an old page sent again: a new tap makes a new link
                flash(_("This form made a new link already. Tap Make a new link again to make another one."),
                      "problem")
                return redirect(url_for("groups.settings"))
            access.remember(token, replacing=link.token)
            flash(_("New link made. The old one no longer works: every other phone needs the new link."),
                  "saved")
            return redirect(url_for("groups.settings"))
        if action == "passcode" and passcode_form.validate_on_submit():
            # without the spaces a keyboard leaves around words (its word suggestion adds one
            # after the last): the passcode page reads what is typed there without them too
            new = (passcode_form.passcode.data or "").strip()
            if not new:  # never a passcode turned off by an empty Change: that has its own button
                passcode_form.passcode.errors = [_("Type the new passcode first.")]
            elif not typeable(new):
                passcode_form.passcode.errors = [_("Use letters, digits and punctuation that a phone's keyboard "
                                                   "can type: no invisible or control characters.")]
            else:
                passcode = new_passcode(new)
                same = groups.check_passcode(db, group_id, passcode) if link.group.passcode_id is not None else None
                if same is not None:
                    # the group's passcode typed again: no change, so no phone is asked again
                    # (tester 8: every other phone was told it had changed, and asked for it)
                    access.keep_proof(same, group_id)
                    flash(_("That is the group's passcode already: nothing changed, no phone is asked again."),
                          "saved")
                    return redirect(url_for("groups.settings"))
                changed = link.group.passcode_id is not None
                try:
                    access.keep_proof(groups.set_passcode(db, group_id, passcode, expected=_page_had()), group_id)
                except groups.PasscodeChangedError:
                    return _changed_meanwhile()
                if changed:
                    flash(_("Passcode changed. The old one no longer works: every other phone is asked "
                            "for the new one once."), "saved")
                else:
                    flash(_("Passcode set. Each phone that opens the link is asked for it once."), "saved")
                return redirect(url_for("groups.settings"))
        if action == "no_passcode" and plain.validate_on_submit():
            if confirmed:  # every phone may then come in with the link alone: ticked first
                try:
                    groups.set_passcode(db, group_id, None, expected=_page_had())
                except groups.PasscodeChangedError:
                    return _changed_meanwhile()
                flash(_("The passcode is off: the link alone opens the group."), "saved")
                return redirect(url_for("groups.settings"))
            unconfirmed = action
        if action == "make_view" and plain.validate_on_submit():
            groups.view_link(db, group_id)  # the working one if there is one: a double tap makes one
            flash(_("Read-only link made: it is below, to share."), "saved")
            return redirect(url_for("groups.settings", _anchor="view-head"))
        if action == "stop_view" and plain.validate_on_submit() and confirmed:
            stopped = groups.stop_view_links(db, group_id)
            flash(_("Read-only links stopped: %(n)s.", n=stopped), "saved")
            return redirect(url_for("groups.settings"))
        status = 400
        if action in ("new_link", "stop_view") and not confirmed:
            unconfirmed = action  # said beside its box
    group = groups.get(db, group_id)
    view_token = groups.working_view_link(db, group_id)  # shown if there is one: opening the page makes none
    if request.method == "GET" or not rename_form.name.data:
        rename_form.name.data = group.name
    return render_template("groups/settings.html", group=group, rename_form=rename_form,
                           passcode_form=passcode_form, confirm_form=FlaskForm(),
                           passcode_stamp=groups.passcode_stamp(group.passcode_id),
                           link_nonce=secrets.token_urlsafe(16),
                           play=link_url(group.token or ""), play_code=link_code(group.token or ""),
                           view=link_url(view_token) if view_token else None,
                           view_code=link_code(view_token) if view_token else None,
                           others=access.other_groups(),
                           passcode_before_rule=groups.passcode_before_rule(db, group_id),
                           passcode_digits=groups.PASSCODE_DIGITS, passphrase_characters=groups.PASSPHRASE[1],
                           unconfirmed=unconfirmed), status


@bp.get("/group/games.json")
def download_all() -> Response:
    """Every game of the group in one group file (GAME-FILE.md, "A group file": each game
    exactly as its own "Game file" download, records.StoredGame.exported; oldest first;
    deleted games left out): "Download all games" on the group page, to keep a copy or to
    move the group to another server (issue 18, part 4). Named after the group and the
    day: "our-games-2026-12-02.json"."""
    db = get_db()
    group = groups.get(db, access.group_id())
    name = re.sub(r"[\W_]+", "-", group.name.casefold()).strip("-") or "group"
    day = datetime.now(UTC).date().isoformat()
    return Response(actions.group_file_text(db, group.id, group.name), mimetype="application/json",
                    headers=named_attachment(f"{name}-{day}.json"))


@bp.route("/games/<game_id>/read-only-link", methods=["GET", "POST"])
def game_link(game_id: str) -> Any:
    """A read-only link to one game, to show a disputed score to someone who was not at
    the table: shown if there is one, made by the page's button (a form with its token;
    sent twice, one link); the group page can stop it."""
    db = get_db()
    form = FlaskForm()
    if request.method == "POST":
        if not access.token_given():
            return refused()
        groups.view_link(db, access.group_id(), game_id)
        return redirect(url_for("groups.game_link", game_id=game_id))
    token = groups.working_view_link(db, access.group_id(), game_id)
    game = store.get_game(db, game_id)
    return render_template("groups/game_link.html", game=game, form=form, url=link_url(token) if token else None,
                           code=link_code(token) if token else None)


def _page_had() -> str | object:
    """The passcode as the page that sent the form had it (its hidden ``was``,
    groups.passcode_stamp), or groups.ANY for a page from before it carried one."""
    was = request.form.get("was")
    return groups.ANY if was is None else was


def _changed_meanwhile() -> Any:
    """Another phone set, changed or turned off the passcode while this page was open:
    nothing is changed; said, and the page drawn again as it is now (the phone may then
    be asked for the other phone's passcode)."""
    flash(_("The passcode was changed on another phone meanwhile: nothing was changed here. "
            "Ask the others for it, then change it again if need be."), "problem")
    return redirect(url_for("groups.settings"))
