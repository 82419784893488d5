"""Who may see and change which group: access control for every request.

A phone is in a group once it has opened the group's link: the link's token is kept in
the phone's signed session cookie, and every request checks it (:func:`admit`, run before
every view). A token that was replaced stops working at once. Nothing of any group is
shown to a phone without a link: it sees the welcome page (start a group, or how to join
one) and the calculator, which holds no one's games. A read-only (view) link shows
everything and changes nothing; a view link to one game shows that game only. A play link
of a group with a passcode lets a phone in once it gave the passcode (or a one-time code).
A club night's table card opens its table's game only: deals while the night runs, the
sheet afterwards; nothing else of the group (:func:`table_only`); it asks for no passcode
(docs/club-nights.md, "Table cards", says why).

This module is the web layer's (it reads Flask's ``session`` and ``request``); it imports
no view. The views ask it which group a request is for (:func:`group_id`), whether the
phone may write (:func:`can_write`), and keep what a phone opened (:func:`remember`).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Flask,
    abort,
    current_app,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_wtf.csrf import generate_csrf, validate_csrf
from wtforms.validators import ValidationError

from . import groups, store
from .db import get_db
from .forms import EmptyForm
from .forms.groups import CodeForm, PasscodeForm, StartForm
from .i18n import gettext as _

#: Endpoints anyone may open, with a link or without: they show no group's data
OPEN = frozenset({"static", "app_shell.manifest", "offline.service_worker", "offline.page", "groups.welcome",
                  "groups.join", "groups.start", "groups.passcode", "groups.back", "groups.switch",
                  "groups.enter_code", "groups.table_card",
                  "explain.calculator", "explain.calculator_preview", "languages.choose"})
#: Pages that exist to change something: refused to a read-only link even when only opened
WRITING = frozenset({"games.new", "deals.new", "deals.edit", "deals.delete", "deals.preview",
                     "manage.edit_game", "transfer.upload", "transfer.paper_check", "groups.settings",
                     "groups.game_link", "games.delete", "games.deleted", "nights.new", "nights.close",
                     "players.name", "manage.first_dealer"})
#: Endpoints that answer in JSON, errors too
JSON = frozenset({"live.game", "deals.preview", "nights.live"})
#: What a read-only link to one game may open besides that game's own pages
ONE_GAME = frozenset({"games.index", "groups.welcome"})
#: What a table card may change in its game while its night runs: the deals (save,
#: change, delete, the live preview, Undo, Restore) and, before the first deal, who holds
#: the 7♥ (who deals first), nothing of the game's players, settings or links
TABLE_WRITES = frozenset({"deals.new", "deals.edit", "deals.delete", "deals.preview", "manage.restore",
                          "manage.first_dealer"})
#: A table card's deal forms sent after the card stopped writing: answered by the view with
#: the form as sent, its entries kept for the organiser (views/deals.py, :func:`shut_card`),
#: not by the card's page, where they were lost (tester 28)
KEEPS_ENTRIES = frozenset({"deals.new", "deals.edit"})
#: Play links a phone keeps, its own group's and the last few others' it opened; also
#: the number of passcodes it keeps as given
KEPT = 6


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
    """Whether this phone may change anything: it opened the play link, or a table card
    while its night runs (then in that table's game only)."""
    access = current()
    return access is not None and access.can_write


def passed(access: groups.Access) -> bool:
    """Whether the phone gave the group's passcode (or none is needed)."""
    passcode_id = access.group.passcode_id
    return passcode_id is None or access.access != groups.PLAY or passcode_id in session.get("passed", ())


def keep_proof(proof: str | None, group_id: int | None = None) -> None:
    """Keep ``proof`` (a passcode's id) among the passcodes this phone gave (the latest
    few), and ``group_id`` among the groups it gave one for (:func:`passcode_changed`)."""
    if proof:
        session["passed"] = [proof, *(p for p in session.get("passed", ()) if p != proof)][:KEPT]
    if proof and group_id is not None:
        session["passed_in"] = [group_id, *(g for g in session.get("passed_in", ()) if g != group_id)][:KEPT]


def passcode_changed(access: groups.Access) -> bool:
    """Whether this phone gave group ``access.group``'s passcode before, and is asked
    again: the passcode was changed since (the passcode page says so)."""
    return access.group.id in session.get("passed_in", ()) and not passed(access)


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
            return render_template("groups/welcome.html", form=StartForm(), lost=True, unsaved=True,
                                   others=other_groups()), 403
        abort(403)
    if not passed(access):
        if request.method in ("GET", "HEAD"):
            # a page the player opened, not a poll, nor a page the service worker or a script
            # fetches in the background (the home page it keeps for the road came after a
            # game's page opened from a link, and was opened instead of it): opened again
            # once the passcode is given. A browser that sends no Sec-Fetch-Mode counts every page
            if endpoint not in JSON and request.headers.get("Sec-Fetch-Mode", "navigate") == "navigate":
                _come_back_to(request.full_path)
            return redirect(url_for("groups.passcode"))
        # a passcode set while this phone had a form open: say so, ask for it here, and
        # come back to the page the form was on (its entries are kept there: app.js). A
        # browser sends no Referer (the app's Referrer-Policy is no-referrer): the form
        # is then the page at the address it was sent to, where the app's forms post. Not
        # a deal sent from the phone's outbox (static/app.js adds "outbox"): that goes from
        # whatever page the phone shows, which it comes back to instead (tester 58: a phone
        # back online with deals waiting was taken to an empty form after the passcode)
        referrer = urlsplit(request.referrer or "")
        from_form = request.form.get("outbox") != "1"
        if from_form and referrer.netloc == request.host:
            _come_back_to(referrer.path + (f"?{referrer.query}" if referrer.query else ""))
        elif from_form and not request.referrer and request.url_rule is not None and "GET" in (request.url_rule.methods or ()):
            _come_back_to(request.full_path)
        return render_template("groups/passcode.html", form=PasscodeForm(formdata=None), group=access.group,
                               code_form=CodeForm(formdata=None), unsaved=True,
                               changed=passcode_changed(access), others=other_groups()), 403
    if access.access == groups.TABLE:
        return table_only(access, endpoint)
    if not access.can_write and (endpoint in WRITING or request.method not in ("GET", "HEAD")):
        abort(403)
    args = request.view_args or {}
    db = get_db()
    if "game_id" in args:
        owner = groups.game_group(db, args["game_id"])
        if (access.game_id is not None and args["game_id"] != access.game_id) or owner != access.group.id:
            if endpoint in JSON:
                return jsonify(error=_("There is no such game here.")), 404
            elsewhere = _other_group_of(owner) if access.full else None
            if elsewhere is not None:
                return render_template("groups/elsewhere.html", group=elsewhere, home=access,
                                       game_id=args["game_id"], form=EmptyForm(),
                                       sent=request.method not in ("GET", "HEAD"),
                                       new_deal=endpoint == "deals.new" and request.method == "POST"), 404
            abort(404)
    elif access.game_id is not None:  # a link to one game: that game, nothing else
        if endpoint in ONE_GAME:
            return redirect(url_for("games.show", game_id=access.game_id))
        abort(404)
    if "player_id" in args and store.player_group(db, args["player_id"]) != access.group.id:
        abort(404)
    return None


def _other_group_of(group_id: int | None) -> groups.Access | None:
    """The group ``group_id`` when it is another of this phone's groups (one it opened
    with its play link, kept to switch back to: :func:`other_groups`), else None: a game
    of a group the phone never opened stays a 404 like one that does not exist. A phone
    switched to another group on another page or tab, then saving a deal of the first
    group's game, is told where the game is (tester 14) instead of "Not found"."""
    if group_id is None:
        return None
    return next((other for other in other_groups() if other.group.id == group_id), None)


def _come_back_to(path: str) -> None:
    """Open ``path`` (this app's own, from the request: never another site's) once the
    phone has given the passcode (views.groups.passcode)."""
    path = path.removesuffix("?")
    if path.startswith("/") and not path.startswith(("//", "/\\")):
        session["after_passcode"] = path


def table_only(access: groups.Access, endpoint: str) -> Any:
    """What a phone with a table card (docs/club-nights.md, "Table cards") may open: its
    table's game, read (every page of it), and its deals changed while the night runs
    (:data:`TABLE_WRITES`); the games list and the welcome page lead to that game. Anything
    else (another game of the group, the group page, a new game, the game's settings) and
    a change after the night: 403, with a page that says what the card opens and leads
    to its game (JSON for a poll or a preview). None: let it through. This answers
    early, as the request arrives; the deal actions read the card again inside their
    write (:func:`card`, actions.CardClosed), so a round closed meanwhile still holds."""
    args = request.view_args or {}
    changes = endpoint in WRITING or request.method not in ("GET", "HEAD")
    mine = args.get("game_id") == access.game_id
    if mine and (not changes or (access.can_write and endpoint in TABLE_WRITES)):
        return None
    if mine and request.method == "POST" and endpoint in KEEPS_ENTRIES:
        return None  # refused by the view (shut_card), the entries on the page; nothing written
    if "game_id" not in args and endpoint in ONE_GAME and not changes:
        return redirect(url_for("games.show", game_id=access.game_id))
    if endpoint in JSON:
        return jsonify(error=_("This phone came in with a table card: it enters deals at that table only.")), 403
    return render_template("groups/table_only.html", card=access.table, game_id=access.game_id,
                           over=mine and changes and not access.can_write), 403


def card() -> str | None:
    """The token of the table card this request's phone came in with, for the deal
    actions to read inside their write whether it still writes (actions.CardClosed);
    None for any other link (a play link: no card to check)."""
    access = current()
    return access.token if access is not None and access.access == groups.TABLE else None


def shut_card() -> Any:
    """The table card this request's phone came in with (a ``groups.Table``) when it no
    longer writes as the request arrives (its round closed, its time run out, the night
    over); None for a card that writes and for any other link. A deal form sent with such
    a card is answered with the form and its entries (views/deals.py): nothing written."""
    access = current()
    if access is None or access.table is None or access.can_write:
        return None
    return card_as_now()


def shut_words(card: Any) -> str:
    """Why the table card ``card`` (a ``groups.Table`` that no longer writes) saves no more
    deals, in one sentence of the phone's language: its round closed, its time ran out,
    or the night is over (the card's pages, a deal form sent with it, its game's poll)."""
    if card.shut == "round":
        # no word of a next round's tables: there may be none yet, or none at all (tester 34)
        return _("Round %(round)s is closed: this table card now only shows the scores of table %(n)s. Deals can "
                 "no longer be entered or changed with it.", round=card.round, n=card.table)
    if card.shut == "time":
        return _("This table card has run out: it now only shows the scores of table %(n)s. Deals can no longer "
                 "be entered or changed with it.", n=card.table)
    return _("The night is over: this table card now only shows the scores of table %(n)s. Deals can no longer "
             "be entered or changed with it.", n=card.table)


def card_bar_words(card: Any) -> str:
    """What the bar on every page of a table card's phone says (base.html): the table and
    round it enters deals for, or, once it saves no more, why, in one short sentence of
    the phone's language; the game's poll sends it too, for a page open as the card shut
    (tester 28: a form told so kept the bar's "enters deals" until opened again)."""
    if card.open:
        return _("Table card: this phone enters deals at table %(table)s (round %(round)s) only.",
                 table=card.table, round=card.round)
    if card.shut == "round":
        return _("Round %(round)s is closed: the card of table %(table)s now only shows its scores.",
                 round=card.round, table=card.table)
    if card.shut == "time":
        return _("This table card has run out: the card of table %(table)s now only shows its scores.",
                 table=card.table)
    return _("The night is over: the card of table %(table)s now only shows its scores.", table=card.table)


def card_as_now() -> Any:
    """This request's table card (a ``groups.Table``) read again now: why it shut (its
    round, its time, the night), for a change refused inside its write
    (actions.CardClosed) as for one refused as it arrived; the page's bar says so too."""
    access = current()
    if access is None or access.table is None:  # pragma: no cover - only a card is refused so
        abort(403)
    now = groups.open_link(get_db(), access.token)
    if now is not None:
        g.access = now  # not what the request's check read
    return now.table if now is not None and now.table is not None else access.table


def card_closed() -> Any:
    """The answer to a deal change refused inside its write because the phone's table
    card no longer writes (actions.CardClosed: the round closed at that instant): the
    403 page :func:`table_only` shows for a change after the night, leading to the game."""
    access = current()
    card = card_as_now()
    return render_template("groups/table_only.html", card=card, game_id=access.game_id if access else None,
                           over=True), 403


def _replaced_here() -> groups.Access | None:
    """The new link of a "Make a new link" form sent again from the phone that made it
    with the link it replaced still in its cookie (a double tap, a resend when the answer
    was lost: groups.replaced_by), now this phone's link, so that the repeat gets the
    first answer; None for any other request (no other dead link gets back in)."""
    if request.method != "POST" or request.endpoint != "groups.settings" \
            or request.form.get("action") != "new_link" or not token_given():
        return None
    old, nonce = session.get("link"), request.form.get("nonce")
    if not isinstance(old, str) or not nonce:
        return None
    found = groups.replaced_by(get_db(), old, nonce)
    if found is not None:
        remember(found.token, replacing=old)
        g.access = found
    return found


def page_key() -> tuple[Any, ...]:
    """What a page kept for many phones (views/pages.py, the score sheet) must be kept
    apart by besides the games: the group, its name (the top bar shows it: a rename is
    seen at once) and its play link (the QR codes hold it), the
    kind of link and its game, and whether the page offers "Back to my group": that button's
    form carries this phone's form token, so such a page is kept for this phone alone (by a
    fingerprint of its session's token)."""
    access = current()
    if access is None:  # pragma: no cover - admit() lets no such request through
        raise LookupError("a kept page without a group")
    back = None
    if session.get("back") and not access.full:
        generate_csrf()  # the session's token, made now if it has none yet: the page will carry it
        secret = str(session.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), ""))
        back = hashlib.sha256(secret.encode()).hexdigest()[:20]
    return (access.group.id, access.group.name, access.group.token, access.access, access.game_id, back,
            access.table)


def remember(token: str, play: bool = True, replacing: str | None = None) -> None:
    """Keep ``token`` as this phone's link (for a year and more, like any bookmark); a
    ``play`` link also among the groups this phone can switch to (``replacing`` a link
    it replaces)."""
    session.permanent = True
    session["link"] = token
    generate_csrf()  # the phone's form secret, kept with its link (:func:`give_form_secret`)
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
        if other is not None and other.full and (access is None or other.group.id != access.group.id):
            found.append(other)
    return found


def home() -> groups.Access | None:
    """The group this phone plays in: its play link, or the one it keeps to go back to
    from a read-only link; None for a phone in no group."""
    mine = current()
    if mine is not None and mine.full:
        return mine
    back = session.get("back")
    found = groups.open_link(get_db(), back) if isinstance(back, str) else None
    return found if found is not None and found.full else None


def token_given() -> bool:
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


def phone() -> str:
    """This phone's random id, kept in its session cookie: wrong passcodes are counted per
    phone (attempts.py), so one player's mistakes do not hold up the next phone on the
    same Wi-Fi."""
    found = session.get("phone")
    if not isinstance(found, str) or not found:
        found = session["phone"] = secrets.token_urlsafe(12)
    return found


def give_form_secret() -> None:
    """Before a page let through (after :func:`admit`): make this phone's form secret
    now if its session has none (a phone that kept its link before :func:`remember`
    made the secret with it), so the first page it opens (a score sheet, kept for many
    phones, carries no form) leaves it in the cookie. Else the forms the phone fetches
    next at the same instant (the add-deal form its sheet's script keeps for the road,
    and the same form tapped open) each make one, and the phone keeps only the cookie
    that came back last: the other form's Save is refused as "open too long"."""
    if request.method in ("GET", "HEAD") and request.endpoint not in OPEN \
            and current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token") not in session:
        generate_csrf()


def init_app(app: Flask) -> None:
    """Check every request's link (:func:`admit`) and give its phone a form secret
    (:func:`give_form_secret`); templates get ``can_write``, ``current_access`` (what
    this phone may do) and ``csrf_token()`` (a form token)."""
    app.before_request(admit)
    app.before_request(give_form_secret)
    app.jinja_env.globals["can_write"] = can_write
    app.jinja_env.globals["csrf_token"] = generate_csrf  # a plain button's form token (base.html)
    app.jinja_env.globals["current_access"] = current
    app.jinja_env.globals["shut_words"] = shut_words  # groups/_card_shut.html
    app.jinja_env.globals["card_bar_words"] = card_bar_words  # base.html
