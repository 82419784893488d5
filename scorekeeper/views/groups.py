"""Groups on the web: the private links, who may see and change what, the group page.

A phone is in a group once it has opened the group's link: the link's token is kept in
the phone's signed session cookie, and every request checks it (:func:`admit`). A token
that was replaced stops working at once. Nothing of any group is shown to a phone without
a link: it sees the welcome page (start a group, or how to join one) and the calculator,
which holds no one's games. A read-only (view) link shows everything and changes nothing;
a view link to one game shows that game only.

No GET changes which group a phone is in or makes a link: a phone in a group that opens
another group's link (play or read-only) is asked first, and the switch, the way back and the read-only
links are forms with their form token (CSRF).
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_wtf import FlaskForm
from flask_wtf.csrf import generate_csrf, validate_csrf
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, Length, ValidationError

from .. import attempts, groups, limits, network, store
from ..db import get_db
from ..i18n import gettext as _
from ..i18n import lazy_gettext as _l
from ..i18n import ngettext
from ..inputs import clean_name, has_visible_character
from ..qr import QrCode, qr_code
from ..text import isolate

bp = Blueprint("groups", __name__)

#: Endpoints anyone may open, with a link or without: they show no group's data
OPEN = frozenset({"static", "app_shell.manifest", "offline.service_worker", "offline.page", "groups.welcome",
                  "groups.join", "groups.start", "groups.passcode", "groups.back", "groups.switch",
                  "groups.enter_code",
                  "explain.calculator", "explain.calculator_preview", "languages.choose"})
#: Pages that exist to change something: refused to a read-only link even when only opened
WRITING = frozenset({"games.new", "deals.new", "deals.edit", "deals.delete", "deals.preview",
                     "manage.edit_game", "transfer.upload", "transfer.paper_check", "groups.settings",
                     "groups.game_link"})
#: Endpoints that answer in JSON, errors too
JSON = frozenset({"live.game", "deals.preview"})
#: What a read-only link to one game may open besides that game's own pages
ONE_GAME = frozenset({"games.index", "groups.welcome"})


def current() -> groups.Access | None:
    """What this request's phone may open (its session's link), looked up once a request;
    None without a working link."""
    if "access" not in g:
        token = session.get("link") if "HTTP_COOKIE" in request.environ else None
        g.access = groups.open_link(get_db(), token) if isinstance(token, str) else None
    return g.access


def group_id() -> int:
    """The id of this request's group (after :func:`admit`, which refuses requests without
    one to every page that calls this)."""
    access = current()
    if access is None:  # pragma: no cover - admit() answered already
        abort(404)
    return access.group.id


def can_write() -> bool:
    """Whether this phone may change anything (it opened the play link)."""
    access = current()
    return access is not None and access.can_write


def _passed(access: groups.Access) -> bool:
    """Whether the phone gave the group's passcode (or none is needed)."""
    passcode_id = access.group.passcode_id
    return passcode_id is None or access.access != groups.PLAY or passcode_id in session.get("passed", ())


def _pass(proof: str | None) -> None:
    """Keep ``proof`` (a passcode's id) among the passcodes this phone gave (the latest few)."""
    if proof:
        session["passed"] = [proof, *(p for p in session.get("passed", ()) if p != proof)][:KEPT]


def admit() -> Any:
    """Before every request: let it through, or answer for it. Without a working link,
    the welcome page (or 403 for a form sent; but "Make a new link" sent again with the link
    it replaced gets that form's new link, :func:`_replaced_here`); with a play link of a group with a
    passcode not yet given here, the passcode page; a game or player of another group (or
    none at all) is 404, one answer for both; a read-only link may not send or open a
    form (403)."""
    endpoint = request.endpoint
    if endpoint is None or endpoint in OPEN:
        return None
    access = current()
    if access is None:
        access = _replaced_here()
    if access is None:
        if request.method in ("GET", "HEAD"):
            return redirect(url_for("groups.welcome"))
        if session.get("link"):  # the link it had was replaced while a form was open
            return render_template("groups/welcome.html", form=StartForm(), lost=True, unsaved=True), 403
        abort(403)
    if not _passed(access):
        if request.method in ("GET", "HEAD"):
            return redirect(url_for("groups.passcode"))
        # a passcode set while this phone had a form open: say so, ask for it here
        return render_template("groups/passcode.html", form=PasscodeForm(formdata=None), group=access.group,
                               unsaved=True), 403
    if not access.can_write and (endpoint in WRITING or request.method not in ("GET", "HEAD")):
        abort(403)
    args = request.view_args or {}
    db = get_db()
    if "game_id" in args:
        if (access.game_id is not None and args["game_id"] != access.game_id) \
                or groups.game_group(db, args["game_id"]) != access.group.id:
            if endpoint in JSON:
                return jsonify(error=_("There is no such game here.")), 404
            abort(404)
    elif access.game_id is not None:  # a link to one game: that game, nothing else
        if endpoint in ONE_GAME:
            return redirect(url_for("games.show", game_id=access.game_id))
        abort(404)
    if "player_id" in args and store.player_group(db, args["player_id"]) != access.group.id:
        abort(404)
    return None


def _replaced_here() -> groups.Access | None:
    """The new link of a "Make a new link" form sent again from the phone that made it
    with the link it replaced still in its cookie (a double tap, a resend when the answer
    was lost: groups.replaced_by), now this phone's link, so that the repeat gets the
    first answer; None for any other request (no other dead link gets back in)."""
    if request.method != "POST" or request.endpoint != "groups.settings" \
            or request.form.get("action") != "new_link" or not _token_given():
        return None
    old, nonce = session.get("link"), request.form.get("nonce")
    if not isinstance(old, str) or not nonce:
        return None
    found = groups.replaced_by(get_db(), old, nonce)
    if found is not None:
        _remember(found.token, replacing=old)
        g.access = found
    return found


def page_key() -> tuple[Any, ...]:
    """What a page kept for many phones (views/pages.py, the score sheet) must be kept
    apart by besides the games: the group and its play link (the QR codes hold it), the
    kind of link and its game, and whether the page offers "Back to my group": that button's
    form carries this phone's form token, so such a page is kept for this phone alone (by a
    fingerprint of its session's token)."""
    access = current()
    if access is None:  # pragma: no cover - admit() lets no such request through
        raise LookupError("a kept page without a group")
    back = None
    if session.get("back") and not access.can_write:
        generate_csrf()  # the session's token, made now if it has none yet: the page will carry it
        secret = str(session.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), ""))
        back = hashlib.sha256(secret.encode()).hexdigest()[:20]
    return (access.group.id, access.group.token, access.access, access.game_id, back)


def link_url(token: str, game_id: str | None = None) -> str:
    """The address of a link for another phone (network.game_address: PUBLIC_URL when
    this page was opened on the serving computer)."""
    path = url_for("groups.join", token=token, game=game_id)
    return network.game_address(path, request.host_url, current_app.config.get("PUBLIC_URL"))


def link_code(token: str, game_id: str | None = None) -> QrCode:
    """The QR code of :func:`link_url`."""
    return qr_code(link_url(token, game_id))


# ------------------------------------------------------------------ joining


@bp.get("/welcome")
def welcome() -> Any:
    """For a phone in no group: what Scorekeeper is, start a group, or how to join one."""
    if current() is not None:
        return redirect(url_for("games.index"))
    lost = bool(session.get("link"))  # a link it had was replaced
    return render_template("groups/welcome.html", form=StartForm(), lost=lost)


def group_name(form: Any, field: Any) -> None:
    """A group's name as it is kept (inputs.clean_name), with something to see and nothing
    unseen that would steer the text around it (control or direction characters)."""
    field.data = clean_name(field.data or "")
    if field.data and not has_visible_character(field.data):
        raise ValidationError(_("Give the group a name with letters or digits."))
    if not _typeable(field.data.replace(" ", "")):
        raise ValidationError(_("A group's name cannot hold invisible or control characters."))


class StartForm(FlaskForm):
    """Start a group: its name, optional (a default is given), and a one-time token
    (``nonce``) so that the form sent twice starts one group."""

    name = StringField(_l("Name of the group (optional)"),
                       validators=[Length(max=60, message=_l("At most %(most)s characters, please.", most=60)), group_name],
                       render_kw={"autocomplete": "off", "placeholder": _l("Our games")})
    nonce = HiddenField(validators=[Length(max=64)])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.nonce.data:
            self.nonce.data = secrets.token_urlsafe(16)


@bp.post("/groups/new")
def start() -> Any:
    """Start a new group: this phone is in it at once (its play link kept). The same form
    sent again (a double tap) answers with the group it started (groups.create). Another
    site's form (no cookie, no token) is refused without a cookie set in its answer."""
    if "HTTP_COOKIE" not in request.environ and not _token_given():
        return _refused()
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
    _remember(group.token or "")
    flash(_("Your group is ready. To let the others' phones join, tap the group's name at the top: its "
            "link is there to share."), "saved")
    return redirect(url_for("games.index"))


#: Play links a phone keeps, its own group's and the last few others' it opened
KEPT = 6


def _remember(token: str, play: bool = True, replacing: str | None = None) -> None:
    """Keep ``token`` as this phone's link (for a year and more, like any bookmark); a
    ``play`` link also among the groups this phone can switch to (``replacing`` a link
    it replaces)."""
    session.permanent = True
    session["link"] = token
    if play:
        others = [t for t in session.get("known", ()) if t not in (token, replacing)]
        session["known"] = [token, *others][:KEPT]


def other_groups() -> list[groups.Access]:
    """The groups this phone opened before whose play links still work, but for the
    one it is in: the Group page offers to switch to them."""
    access = current()
    found = []
    for token in session.get("known", ()):
        other = groups.open_link(get_db(), token) if isinstance(token, str) else None
        if other is not None and other.can_write and (access is None or other.group.id != access.group.id):
            found.append(other)
    return found


def _home() -> groups.Access | None:
    """The group this phone plays in: its play link, or the one it keeps to go back to
    from a read-only link; None for a phone in no group."""
    mine = current()
    if mine is not None and mine.can_write:
        return mine
    back = session.get("back")
    home = groups.open_link(get_db(), back) if isinstance(back, str) else None
    return home if home is not None and home.can_write else None


def _token_given() -> bool:
    """Whether this POST carries its form token (CSRF), checked without writing to the
    session: another site's form arrives without this phone's cookie (SameSite=Lax), and
    a session made for it would replace the phone's own cookie, its group with it."""
    if not current_app.config.get("WTF_CSRF_ENABLED", True):
        return True
    try:
        validate_csrf(request.form.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")))
    except ValidationError:
        return False
    return True


def _refused() -> Any:
    """The answer to a form without its form token (CSRF): 400, a page that says nothing
    changed, and nothing changed."""
    message = _("Nothing was changed: this page was open too long or came from elsewhere. Open it again and "
                "tap once more.")
    return render_template("error.html", code=400, message=message), 400


@bp.route("/g/<token>", methods=["GET", "POST"])
def join(token: str) -> Any:
    """Open a link: the group's play link, or a read-only link (of the group, or of one
    game). The phone remembers it and goes to the games (``?game=``: to that game). A
    phone with a play link that opens a read-only link of another group keeps its own to
    come back to ("Back to my group").

    A phone in a group that opens another group's play link is asked first, on a page
    (any web page can link here: deals entered afterwards would go to the other group);
    so is one that opens another group's read-only link (its games would seem gone), but
    for a phone looking at that group already. The page's button sends the same address
    as a form (POST, with the form token), which makes the change; this phone's group
    stays among those it can switch to (or to go back to from a read-only link). A POST without its
    token changes nothing (400): another site's form arrives without this phone's cookie,
    so it would look like a phone in no group. A link that does not work says so, nothing
    more."""
    db = get_db()
    access = groups.open_link(db, token)
    mine, home = current(), _home()
    # another group's link on a phone in a group: asked first (a read-only one too, unless
    # the phone is looking at that group already)
    asking = access is not None and home is not None and home.group.id != access.group.id \
        and (access.can_write or mine is None or mine.group.id != access.group.id)
    posted = request.method == "POST"
    confirmed = posted and _token_given()
    if posted and not confirmed and not asking:
        return _refused()  # a form without its token (another site's sends no cookie): nothing changes
    if access is None:
        return render_template("groups/welcome.html", form=StartForm(), lost=False, bad_link=True), 404
    if asking and home is not None:
        if not confirmed:  # asked (again, when the confirmation came without its token)
            return render_template("groups/switch.html", form=FlaskForm(), group=access.group, home=home,
                                   action=url_for("groups.join", token=token, game=request.args.get("game")),
                                   read_only=not access.can_write, refused=posted), 400 if posted else 200
        if home.token not in session.get("known", ()):
            _remember(home.token)  # kept to switch back to (its Group page lists it)
    if mine is not None and mine.can_write and mine.group.id == access.group.id:
        pass  # already in this group with every right: a read-only link takes none away
    else:
        if access.can_write:
            session.pop("back", None)
        elif mine is not None and mine.can_write:
            session["back"] = mine.token
        _remember(token, play=access.can_write)
        g.access = access
    game_id = request.args.get("game") or access.game_id
    if game_id and len(game_id) <= 64 and groups.game_group(db, game_id) == access.group.id:
        target = url_for("games.show", game_id=game_id)
    else:
        target = url_for("games.index")
    if not _passed(g.access):
        session["after_passcode"] = target
        return redirect(url_for("groups.passcode"))
    return redirect(target)


@bp.post("/groups/switch")
def switch() -> Any:
    """Switch this phone to another group it opened before (its play link still kept);
    refused without the form token (:func:`_refused`)."""
    if not _token_given():
        return _refused()
    token = request.form.get("to", "")
    if token in session.get("known", ()) and groups.open_link(get_db(), token) is not None:
        _remember(token)
        session.pop("back", None)
    return redirect(url_for("games.index"))


@bp.post("/groups/back")
def back() -> Any:
    """Leave a read-only link for the group this phone played in before; refused without
    the form token (:func:`_refused`)."""
    if not _token_given():
        return _refused()
    token = session.pop("back", None)
    if isinstance(token, str) and groups.open_link(get_db(), token) is not None:
        _remember(token)
    return redirect(url_for("games.index"))


def passcode_text(passcode: str) -> str:
    """A passcode as it is kept and compared: the same on any keyboard, so "١٢٣٤" (an
    Arabic keypad), "１２３４" (full-width) and "1234" are one passcode (NFKC, then any
    script's decimal digits as 0-9)."""
    folded = unicodedata.normalize("NFKC", passcode)
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in folded)


class PasscodeForm(FlaskForm):
    passcode = PasswordField(_l("Passcode"), validators=[DataRequired(_l("Enter the group's passcode."))],
                             render_kw={"autocomplete": "current-password", "autofocus": True})


class CodeForm(FlaskForm):
    """A one-time code from a phone in the group (attempts.py), typed or from its QR code."""

    code = StringField(_l("One-time code"), validators=[DataRequired(_l("Enter the code shown on the other phone."))],
                       render_kw={"autocomplete": "one-time-code", "autocapitalize": "characters",
                                  "spellcheck": "false", "autocorrect": "off"})


def _phone() -> str:
    """This phone's random id, kept in its session cookie: wrong passcodes are counted per
    phone (attempts.py), so one player's mistakes do not hold up the next phone on the
    same Wi-Fi."""
    phone = session.get("phone")
    if not isinstance(phone, str) or not phone:
        phone = session["phone"] = secrets.token_urlsafe(12)
    return phone


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
    response = make_response(render_template("groups/passcode.html", form=form, group=group,
                                             code_form=CodeForm(formdata=None), **context), status)
    if "refused" in context:
        response.headers["Retry-After"] = str(context["refused"].retry_after)
    return response


@bp.route("/passcode", methods=["GET", "POST"])
def passcode() -> Any:
    """The group's passcode, asked once on each phone that opened its play link. Wrong
    passcodes are counted exactly per phone, per address and per group (attempts.py,
    limits.py): over a limit, 429 and nothing judged, with where to get a one-time code."""
    access = current()
    if access is None:
        return redirect(url_for("groups.welcome"))
    if _passed(access):
        return redirect(session.pop("after_passcode", None) or url_for("games.index"))
    form = PasscodeForm()
    if form.validate_on_submit():
        db = get_db()
        counted = attempts.count_passcode(db, access.group.id, _phone(), limits.address(), limits.passcode_limits())
        if isinstance(counted, attempts.Refused):
            return _passcode_page(form, access.group, 429, refused=counted,
                                  too_many=_too_many(counted, "passcode"))
        proof = groups.check_passcode(db, access.group.id, passcode_text(form.passcode.data or ""))
        if proof is not None:
            attempts.forget(db, counted)
            _pass(proof)
            return redirect(session.pop("after_passcode", None) or url_for("games.index"))
        form.passcode.errors = [_("That is not the passcode. Ask someone in your group.")]
    _phone()  # given with the form's token, so all this phone's tries count as one phone's
    return _passcode_page(form, access.group, 400 if form.is_submitted() else 200)


@bp.route("/code", methods=["GET", "POST"])
def enter_code() -> Any:
    """Come into a group with a one-time code made on a phone already in it (its QR code
    opens this page with the code filled in, ``?c=``): no passcode needed, whatever the
    group's limit. Opening the page changes nothing; the button does. Wrong codes are
    counted per phone and per address, never against a group."""
    form = CodeForm() if request.method == "POST" else CodeForm(formdata=None, code=request.args.get("c", "")[:40])
    _phone()
    status, wait = 200, 0
    message = None
    if request.method == "POST":
        status = 400
        if form.validate_on_submit():
            db = get_db()
            found = attempts.use_code(db, passcode_text(form.code.data or ""), _phone(), limits.address(),
                                      limits.passcode_limits())
            if isinstance(found, attempts.Refused):
                message, status, wait = _too_many(found, "code"), 429, found.retry_after
            elif found is None:
                form.code.errors = [_("That code does not work: it may be used already or more than 15 minutes "
                                      "old. Ask for a new one.")]
            else:
                group = groups.get(db, found)
                mine = current()
                if mine is None or mine.group.id != group.id or not mine.can_write:
                    _remember(group.token or "")
                    session.pop("back", None)
                    target = url_for("games.index")
                else:  # this phone was asking for the passcode: where it was going
                    target = session.pop("after_passcode", None) or url_for("games.index")
                _pass(group.passcode_id)
                flash(_("You are in %(name)s.", name=isolate(group.name)), "saved")
                return redirect(target)
    response = make_response(render_template("groups/code.html", form=form, too_many=message), status)
    if status == 429:
        response.headers["Retry-After"] = str(wait)
    return response


@bp.route("/group/let-in", methods=["GET", "POST"])
def let_in() -> Any:
    """On a phone in the group: make a one-time code (and its QR code) that lets the next
    phone in without the passcode, even while the group's limit on wrong passcodes is
    used up. The code is kept in this phone's session (with its group) to show again,
    and whether it was used."""
    if not can_write():
        abort(403)
    db = get_db()
    if request.method == "POST":
        if not FlaskForm().validate_on_submit():
            abort(400)
        session["let_in"] = [group_id(), attempts.make_code(db, group_id())]
        return redirect(url_for("groups.let_in"))
    kept = session.get("let_in")
    # the code this phone made for this group (not one it made in another group it was in)
    code = kept[1] if isinstance(kept, list) and len(kept) == 2 and kept[0] == group_id() else None
    state = attempts.code_state(db, code) if isinstance(code, str) else None
    url = None
    if state == "waiting":
        path = url_for("groups.enter_code", c=attempts.shown_code(code))
        url = network.game_address(path, request.host_url, current_app.config.get("PUBLIC_URL"))
    return render_template("groups/let_in.html", state=state, code=attempts.shown_code(code) if url else None,
                           url=url, qr=qr_code(url) if url else None, minutes=attempts.CODE_LIFETIME // 60,
                           confirm_form=FlaskForm())


# ------------------------------------------------------------------ the group page


class RenameForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(_l("Give the group a name.")),
                                               Length(max=60, message=_l("At most %(most)s characters, please.", most=60)),
                                               group_name],
                       render_kw={"autocomplete": "off"})


class NewPasscodeForm(FlaskForm):
    passcode = StringField(_l("New passcode"), validators=[
        Length(max=groups.PASSCODE_LENGTH[1], message=_l("At most %(most)s characters, please.",
                                                         most=groups.PASSCODE_LENGTH[1]))],
        render_kw={"autocomplete": "new-password", "aria-describedby": "pass-passcode-rule"})

    def validate_passcode(self, field: Any) -> None:
        """At least 6 digits, or two words and 8 characters (groups.passcode_rule), and
        not one digit repeated or a run (groups.easy_passcode); a passcode nobody could
        type is told so by the page (settings) instead."""
        if field.data and _typeable(field.data) and not groups.passcode_rule(passcode_text(field.data).strip()):
            raise ValidationError(_("Too short to be safe: at least %(digits)s digits, or two words or more "
                                    "(%(characters)s characters or more).", digits=groups.PASSCODE_DIGITS,
                                    characters=groups.PASSPHRASE[1]))
        if field.data and groups.easy_passcode(passcode_text(field.data).strip()):
            raise ValidationError(_("Too easy to guess: one digit repeated or a run like %(run)s is tried "
                                    "first. Choose digits with no pattern.", run=123456))


@bp.route("/group", methods=["GET", "POST"])
def settings() -> Any:
    """The group page: its link to share (text and QR code), a new link that stops the
    old one, the read-only link (made by its button, never by opening the page), the
    passcode and the name. Each change is its own form (``action``); the ones that lock
    phones out ask to be confirmed."""
    db = get_db()
    access = current()
    assert access is not None
    group_id = access.group.id
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
                token = groups.new_play_link(db, group_id, nonce=nonce, replacing=access.token)
            except groups.LinkReplacedError:  # another phone made a new link first
                return render_template("groups/welcome.html", form=StartForm(), lost=True, unsaved=True), 403
            except groups.FormUsedError:  # an old page sent again: a new tap makes a new link
                flash(_("This form made a new link already. Tap Make a new link again to make another one."),
                      "problem")
                return redirect(url_for("groups.settings"))
            _remember(token, replacing=access.token)
            flash(_("New link made. The old one no longer works: every other phone needs the new link."),
                  "saved")
            return redirect(url_for("groups.settings"))
        if action == "passcode" and passcode_form.validate_on_submit():
            new = passcode_form.passcode.data or ""
            if new.strip() != new:
                passcode_form.passcode.errors = [_("A passcode cannot start or end with a space.")]
            elif not _typeable(new):
                passcode_form.passcode.errors = [_("Use letters, digits and punctuation that a phone's keyboard "
                                                   "can type: no invisible or control characters.")]
            else:
                _pass(groups.set_passcode(db, group_id, passcode_text(new)))
                flash(_("Passcode set. Each phone that opens the link is asked for it once."), "saved")
                return redirect(url_for("groups.settings"))
        if action == "no_passcode" and plain.validate_on_submit():
            if confirmed:  # every phone may then come in with the link alone: ticked first
                groups.set_passcode(db, group_id, None)
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
            flash(_("Tick the box to confirm first."), "problem")
    group = groups.get(db, group_id)
    view_token = groups.working_view_link(db, group_id)  # shown if there is one: opening the page makes none
    if request.method == "GET" or not rename_form.name.data:
        rename_form.name.data = group.name
    return render_template("groups/settings.html", group=group, rename_form=rename_form,
                           passcode_form=passcode_form, confirm_form=FlaskForm(),
                           link_nonce=secrets.token_urlsafe(16),
                           play=link_url(group.token or ""), play_code=link_code(group.token or ""),
                           view=link_url(view_token) if view_token else None,
                           view_code=link_code(view_token) if view_token else None,
                           others=other_groups(),
                           passcode_before_rule=groups.passcode_before_rule(db, group_id),
                           passcode_digits=groups.PASSCODE_DIGITS, passphrase_characters=groups.PASSPHRASE[1],
                           unconfirmed=unconfirmed), status


@bp.route("/games/<game_id>/read-only-link", methods=["GET", "POST"])
def game_link(game_id: str) -> Any:
    """A read-only link to one game, to show a disputed score to someone who was not at
    the table: shown if there is one, made by the page's button (a form with its token;
    sent twice, one link); the group page can stop it."""
    db = get_db()
    form = FlaskForm()
    if request.method == "POST":
        if not _token_given():
            return _refused()
        groups.view_link(db, group_id(), game_id)
        return redirect(url_for("groups.game_link", game_id=game_id))
    token = groups.working_view_link(db, group_id(), game_id)
    game = store.get_game(db, game_id)
    return render_template("groups/game_link.html", game=game, form=form, url=link_url(token) if token else None,
                           code=link_code(token) if token else None)


def _typeable(text: str) -> bool:
    """Whether every character of ``text`` can be typed and seen: no control, format
    (zero-width, direction marks), private-use or unassigned characters."""
    return all(unicodedata.category(c)[0] != "C" for c in text)


def init_app(app: Any) -> None:
    """Check every request's link (:func:`admit`); templates get ``can_write``,
    ``current_access`` (what this phone may do) and ``csrf_token()`` (a form token)."""
    app.before_request(admit)
    app.jinja_env.globals["can_write"] = can_write
    app.jinja_env.globals["csrf_token"] = generate_csrf  # a plain button's form token (base.html)
    app.jinja_env.globals["current_access"] = current
