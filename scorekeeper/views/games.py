"""Home, new game, the score sheet and the game file download."""

from __future__ import annotations

import hashlib
import json
import random
import threading
from collections import OrderedDict
from urllib.parse import urlsplit
from typing import Any

from flask import (Blueprint, Response, abort, current_app, flash, make_response, redirect, render_template,
                   request, url_for)
from flask_babel import gettext as _
from markupsafe import Markup

from .. import forms, network, sheet, store
from . import attachment
from ..db import get_db
from ..gamefile import GameFile, dumps
from ..qr import QrCode, qr_code
from .pages import shared
from .past import game_chart
from ..rules import KINDS, RuleError, get_rules

bp = Blueprint("games", __name__)


def get_game_or_404(game_id: str) -> store.StoredGame:
    """The stored game, or a 404 page."""
    try:
        return store.get_game(get_db(), game_id)
    except store.NotFoundError:
        abort(404)


@bp.get("/")
@shared
def index() -> str:
    """Past games: filters, then unfinished games (carry on) apart from finished ones."""
    from .past import past_games

    version = store.latest_change(get_db())  # read first: a change while rendering is fetched next time
    return render_template("games/index.html", live_version=version, **past_games(request.args))


@bp.route("/games/new", methods=["GET", "POST"])
def new() -> Any:
    kind = request.args.get("kind")
    if kind not in KINDS:
        return render_template("games/choose_kind.html")
    rules = get_rules(kind)
    form = forms.new_game_form(kind, rules.seats)()
    known = store.known_players(get_db())
    if not form.is_submitted():
        for seat, name in enumerate(store.last_players(get_db(), kind)):
            form[f"player_{seat}"].data = name
    if form.validate_on_submit():
        game = _game_from_form(form, kind)
        if game is not None:
            game_id = store.create_game(get_db(), game, nonce=form.nonce.data)
            flash(_("New game: %(names)s. %(dealer)s deals first.", names=", ".join(game.players),
                    dealer=game.players[game.first_dealer]) if kind != "trix" else
                  _("New game: %(names)s. %(owner)s holds the 7♥ and chooses the first contract.",
                    names=", ".join(game.players), owner=game.players[game.first_dealer]), "saved")
            return redirect(url_for("games.show", game_id=game_id))
    elif forms.csrf_failed(form):
        form.form_errors.append(_("This page was open too long. Your entries are kept: tap Start again."))
    return render_template("games/new.html", form=form, kind=kind, rules=rules, known=known)


def _game_from_form(form: Any, kind: str) -> GameFile | None:
    """The new game, or None after putting errors beside the fields."""
    rules = get_rules(kind)
    players = form.players()
    if players is None:
        return None
    dealer = form.first_dealer.data
    if dealer == "random" and kind != "trix":
        first_dealer = random.randrange(rules.seats)
    elif dealer in [str(s) for s in range(rules.seats)]:
        first_dealer = int(dealer)
    else:
        form.first_dealer.errors = [_("Tap who holds the 7♥.") if kind == "trix" else _("Tap who deals first.")]
        return None
    options = form.parsed_options(rules)
    if options is None:
        return None
    return GameFile(kind, players, first_dealer, options, ())


@bp.get("/games/<game_id>")
def show(game_id: str) -> Any:
    """The score sheet. A phone that has it already is answered 304 (a weak ETag of the
    game's version and what this browser's session shows on it), without scoring; the
    sheet's body is drawn once per version of the game (:func:`_sheet_body`)."""
    found = _version_of(game_id)
    if found is None:
        abort(404)
    etag = _sheet_etag(game_id, found)
    if etag is not None and request.if_none_match.contains_weak(etag):
        return _revalidate(Response(status=304), etag)
    body = _sheet_body(game_id, found)
    html = render_template("games/show.html", title=body["title"],
                           body=Markup(body["html"].replace(_UNDO_SLOT, _undo_slot(game_id, body["last"]))))
    return _revalidate(make_response(html), etag)


def _version_of(game_id: str) -> tuple[int, str] | None:
    """The game's version (store.game_version) and its players' names as spelt now (a
    correction of a name's spelling in another game changes them here too), or None when
    there is no such game: one look-up, no scoring."""
    row = get_db().execute(
        "select (select 1 from games where id = ?), (select coalesce(max(id), 0) from changes where game_id = ?), "
        "(select json_group_array(name) from (select p.name from game_players gp join players p "
        "on p.id = gp.player_id where gp.game_id = ? order by gp.seat))",
        [game_id, game_id, game_id]).fetchone()
    return (row[1], row[2]) if row[0] else None


def _revalidate(response: Response, etag: str | None) -> Response:
    if etag is not None:
        response.set_etag(etag, weak=True)  # weak: the same whether compressed or not
    response.cache_control.private = True
    response.cache_control.no_cache = True  # asked again every time: 304 while unchanged
    return response


def _page_key(game_id: str, version: tuple[int, str]) -> list[Any]:
    """What a sheet's body depends on besides the game: the app's version, the language
    and the address other phones use (the QR code)."""
    from flask_babel import get_locale

    from .live import asset_version

    return [current_app.config["DATABASE"], game_id, version, asset_version(current_app), str(get_locale()),
            current_app.config.get("PUBLIC_URL"), request.host_url]


def _sheet_etag(game_id: str, version: tuple[int, str]) -> str | None:
    """The sheet's validator: the body's key and this session's own part of the page
    (its Undo and restore offers, its form token); None when a message waits to be shown
    (the page must be drawn)."""
    from flask import session

    if session.get("_flashes"):
        return None
    parts = [*_page_key(game_id, version), session.get("last_added"), session.get("restorable"),
             session.get("csrf_token")]
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:20]


_UNDO_SLOT = "<!--sheet:undo-->"
_BODIES: OrderedDict[str, dict[str, Any]] = OrderedDict()
_BODIES_LOCK = threading.Lock()
#: At most this many characters of drawn sheets are kept (a few MB: a sheet with a − is two bytes a character)
_BODIES_MAX = 3_000_000


def _sheet_body(game_id: str, version: tuple[int, str]) -> dict[str, Any]:
    """The sheet's body for this version of the game: {"title", "html" (with
    :data:`_UNDO_SLOT` where this browser's Undo goes), "last" (the last deal: {"deal",
    "version", "number"}, or None)}. Drawn once and kept (the most recent first, up to
    :data:`_BODIES_MAX` characters): a sheet is opened again and again by every phone at
    the table, and drawing it is most of its cost."""
    key = json.dumps(_page_key(game_id, version), default=str)
    with _BODIES_LOCK:
        if key in _BODIES:
            _BODIES.move_to_end(key)
            return _BODIES[key]
    game = get_game_or_404(game_id)
    scored = sheet.build(game)
    html = render_template("games/_sheet.html", sheet=scored, rules=get_rules(game.kind),
                           undo_slot=Markup(_UNDO_SLOT), chart=game_chart(scored), join=join_code(game.id),
                           join_local=network.is_loopback(urlsplit(join_code(game.id).text).hostname or ""))
    last = {"deal": game.deals[-1].id, "version": game.deals[-1].version, "number": len(game.deals)} \
        if game.deals else None
    body = {"title": f"{', '.join(game.players)} · {forms.KIND_NAMES[game.kind]}", "html": html, "last": last}
    if game.version == version[0]:  # not a game changed since its version was read
        with _BODIES_LOCK:
            _BODIES[key] = body
            while sum(len(b["html"]) for b in _BODIES.values()) > _BODIES_MAX and len(_BODIES) > 1:
                _BODIES.popitem(last=False)
    return body


def _undo_slot(game_id: str, last: dict[str, Any] | None) -> str:
    """This browser's Undo button: for the last deal, if this browser has just added it
    and nobody has changed it since; else nothing."""
    from flask import session

    mine = session.get("last_added")
    if not last or not mine or mine.get("game") != game_id or mine.get("deal") != last["deal"] \
            or mine.get("version") not in (None, last["version"]):
        return ""
    return render_template("games/_undo.html", game_id=game_id, undo=last, undo_form=forms.EmptyForm())


def join_code(game_id: str) -> QrCode:
    """The QR code of the address another phone opens for this game's sheet: the one this
    request came in on, or PUBLIC_URL (set by ``scorekeeper serve``) when it came in on a
    loopback host (network.game_address)."""
    return qr_code(network.game_address(url_for("games.show", game_id=game_id), request.host_url,
                                        current_app.config.get("PUBLIC_URL")))


@bp.get("/games/<game_id>/game.json")
def download(game_id: str) -> Response:
    game = get_game_or_404(game_id)
    try:
        text = dumps(game.game_file())
    except RuleError:  # a stored deal no longer fits: hand over what was entered, unchanged
        import json

        text = json.dumps(game.to_dict(), indent=2, ensure_ascii=False) + "\n"
    return Response(text, mimetype="application/json", headers=attachment(game, "json"))
