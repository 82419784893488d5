"""Coming into a group that has a passcode: the passcode page (once a phone), a
one-time code typed or scanned from a phone in the group, and the page on that phone
that makes such a code ("Let a phone in"). Wrong passcodes and codes are counted
(attempts.py, limits.py).
"""

from __future__ import annotations

from typing import Any

from flask import (
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_wtf import FlaskForm

from ... import access, attempts, groups, limits, network
from ...db import get_db
from ...forms.groups import CodeForm, PasscodeForm, passcode_readings, passcode_text
from ...i18n import gettext as _
from ...i18n import ngettext
from ...qr import qr_code
from ...text import isolate
from .blueprint import bp


def _too_many(refused: attempts.Refused, what: str) -> str:
    """What a phone over a limit is told (``what``: "passcode" or "code"): how long to
    wait, in whole minutes rounded up from ``refused.retry_after`` (the Retry-After
    header's seconds), in the page's digits."""
    minutes = max(1, -(-refused.retry_after // 60))
    if what == "code":
        return ngettext("Too many wrong codes from this phone or its network. Try again in %(num)s minute.",
                        "Too many wrong codes from this phone or its network. Try again in %(num)s minutes.",
                        minutes)
    if refused.by == attempts.GROUP:
        return ngettext("Too many wrong passcodes for this group. Try again in %(num)s minute — or ask someone "
                        "in the group to tap 'Let a phone in'.",
                        "Too many wrong passcodes for this group. Try again in %(num)s minutes — or ask someone "
                        "in the group to tap 'Let a phone in'.", minutes)
    return ngettext("Too many wrong passcodes from this phone or its network. Try again in %(num)s minute — or "
                    "ask someone in the group to tap 'Let a phone in'.",
                    "Too many wrong passcodes from this phone or its network. Try again in %(num)s minutes — or "
                    "ask someone in the group to tap 'Let a phone in'.", minutes)


def _passcode_page(form: PasscodeForm, group: groups.Group, status: int, **context: Any) -> Any:
    link = access.current()
    changed = link is not None and access.passcode_changed(link)  # given here before: changed since
    response = make_response(render_template("groups/passcode.html", form=form, group=group, changed=changed,
                                             code_form=CodeForm(formdata=None), others=access.other_groups(),
                                             **context), status)
    if "refused" in context:
        response.headers["Retry-After"] = str(context["refused"].retry_after)
    return response


@bp.route("/passcode", methods=["GET", "POST"])
def passcode() -> Any:
    """The group's passcode, asked once on each phone that opened its play link. Wrong
    passcodes are counted exactly per phone, per address and per group (attempts.py,
    limits.py): over a limit, 429 and nothing judged, with where to get a one-time code."""
    link = access.current()
    if link is None:
        return redirect(url_for("groups.welcome"))
    if access.passed(link):
        return redirect(session.pop("after_passcode", None) or url_for("games.index"))
    form = PasscodeForm()
    if form.validate_on_submit():
        db = get_db()
        counted = attempts.count_passcode(db, link.group.id, access.phone(), limits.address(), limits.passcode_limits())
        if isinstance(counted, attempts.Refused):
            return _passcode_page(form, link.group, 429, refused=counted,
                                  too_many=_too_many(counted, "passcode"))
        # digits typed in groups ("482 917") are the digits; as typed, for one kept so
        proof = next((found for typed in passcode_readings(form.passcode.data or "")
                      if (found := groups.check_passcode(db, link.group.id, typed)) is not None), None)
        if proof is not None:
            attempts.forget(db, counted)
            access.keep_proof(proof, link.group.id)
            return redirect(session.pop("after_passcode", None) or url_for("games.index"))
        form.passcode.errors = [_("That is not the passcode. Ask someone in your group.")]
    access.phone()  # given with the form's token, so all this phone's tries count as one phone's
    return _passcode_page(form, link.group, 400 if form.is_submitted() else 200)


@bp.route("/code", methods=["GET", "POST"])
def enter_code() -> Any:
    """Come into a group with a one-time code made on a phone already in it (its QR code
    opens this page with the code filled in, ``?c=``): no passcode needed, whatever the
    group's limit. Opening the page changes nothing; the button does. Wrong codes are
    counted per phone and per address, never against a group."""
    form = CodeForm() if request.method == "POST" else CodeForm(formdata=None, code=request.args.get("c", "")[:40])
    access.phone()
    status, wait = 200, 0
    message = None
    if request.method == "GET" and form.code.data and attempts.normal_code(passcode_text(form.code.data)) is None:
        # a link whose code is cut short or is no code at all (tester 58: the page said nothing)
        form.code.errors = [_("This link's code cannot be a one-time code, which has ten letters and digits "
                              "(as K7QM4-9XP3H). Type the code shown on the other phone.")]
    if request.method == "POST":
        status = 400
        typed, valid = form.typed_code(), form.validate_on_submit()
        if valid and attempts.normal_code(typed) is None:
            # no code at all (too short, too long, a sign that is none of a code's): no
            # try at a code is counted, and the page says what a code looks like (tester
            # 60: "does not work … used already or too old", and a wrong try counted)
            form.code.errors = [_("That is not a one-time code: a code has ten letters and digits, as the "
                                  "other phone shows it (like K7QM4-9XP3H). Check it and type it again.")]
        elif valid:
            db = get_db()
            found = attempts.use_code(db, typed, access.phone(), limits.address(), limits.passcode_limits())
            if isinstance(found, attempts.Refused):
                message, status, wait = _too_many(found, "code"), 429, found.retry_after
            elif found is None:
                # a code misread is the likeliest (tester 26): said first, then a used or old one
                form.code.errors = [_("That code does not work. Check it against the code on the other phone; "
                                      "it may also be used already or more than %(minutes)s minutes old: then "
                                      "ask for a new one.", minutes=attempts.CODE_LIFETIME // 60)]
            else:
                group = groups.get(db, found.group_id)  # its name; its link and passcode as the code met them
                mine = access.current()
                if mine is None or mine.group.id != group.id or not mine.can_write:
                    access.remember(found.token or "")
                    session.pop("back", None)
                    target = url_for("games.index")
                else:  # this phone was asking for the passcode: where it was going
                    target = session.pop("after_passcode", None) or url_for("games.index")
                access.keep_proof(found.passcode_id, group.id)
                flash(_("You are in %(name)s.", name=isolate(group.name)), "saved")
                return redirect(target)
    response = make_response(render_template("groups/code.html", form=form, too_many=message,
                                             minutes=attempts.CODE_LIFETIME // 60), status)
    if status == 429:
        response.headers["Retry-After"] = str(wait)
    return response


@bp.route("/group/let-in", methods=["GET", "POST"])
def let_in() -> Any:
    """On a phone in the group: make a one-time code (and its QR code) that lets the next
    phone in without the passcode, even while the group's limit on wrong passcodes is
    used up. The code is kept in this phone's session (with its group) to show again,
    and whether it was used."""
    if not access.can_write():
        abort(403)
    db = get_db()
    kept = session.get("let_in")
    # the code this phone made for this group (not one it made in another group it was in)
    code = kept[1] if isinstance(kept, list) and len(kept) == 2 and kept[0] == access.group_id() else None
    if not isinstance(code, str):
        code = None
    if request.method == "POST":
        if not FlaskForm().validate_on_submit():
            abort(400)
        # "Make another code": the one shown until now stops working; one used meanwhile
        # (the page still showed it) is said, a phone having come in with it (tester 68)
        if code is not None and attempts.code_state(db, code) == "used":
            flash(_("The code shown before was used: a phone came in with it."), "told")
        session["let_in"] = [access.group_id(), attempts.make_code(db, access.group_id(), replacing=code)]
        return redirect(url_for("groups.let_in"))
    state = attempts.code_state(db, code) if code is not None else None
    url = shown = None
    if state == "waiting" and code is not None:
        shown = attempts.shown_code(code)
        path = url_for("groups.enter_code", c=shown)
        url = network.game_address(path, request.host_url, current_app.config.get("PUBLIC_URL"))
    return render_template("groups/let_in.html", state=state, code=shown if url else None,
                           url=url, qr=qr_code(url) if url else None, minutes=attempts.CODE_LIFETIME // 60,
                           confirm_form=FlaskForm())

