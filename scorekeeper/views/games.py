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

from .. import forms, network, sheet, store
from . import attachment
from ..db import get_db
from ..gamefile import GameFile, dumps
from ..qr import QrCode, qr_code
from ..rules import KINDS, RuleError, get_rules

bp = Blueprint("games", __name__)


def get_game_or_404(game_id: str) -> store.StoredGame:
    """The stored game, or a 404 page."""
    try:
        return store.get_game(get_db(), game_id)
    except store.NotFoundError:
        abort(404)


@bp.get("/")
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
    game's version and what this browser's session shows on it), without scoring."""
    etag = _sheet_etag(game_id)
    if etag is not None and request.if_none_match.contains_weak(etag):
        return _revalidate(Response(status=304), etag)
    game = get_game_or_404(game_id)
    scored = sheet.build(game)
    html = render_template("games/show.html", sheet=scored, rules=get_rules(game.kind),
                           undo=store_undo_target(game), undo_form=forms.EmptyForm(),
                           chart=_chart(scored), join=join_code(game.id),
                           join_local=network.is_loopback(urlsplit(join_code(game.id).text).hostname or ""))
    return _revalidate(make_response(html), etag)


def _revalidate(response: Response, etag: str | None) -> Response:
    if etag is not None:
        response.set_etag(etag, weak=True)  # weak: the same whether compressed or not
    response.cache_control.private = True
    response.cache_control.no_cache = True  # asked again every time: 304 while unchanged
    return response


def _sheet_etag(game_id: str) -> str | None:
    """The sheet's validator: the game's version and everything else the page shows that
    is not the game (this session's Undo and restore offers and form token, the app's
    version, the language, the address for other phones); None when there is no such
    game or a message waits to be shown (the page must be drawn)."""
    from flask import session
    from flask_babel import get_locale

    from .live import asset_version

    if session.get("_flashes"):
        return None
    row = get_db().execute(
        "select (select 1 from games where id = ?), (select coalesce(max(id), 0) from changes where game_id = ?)",
        [game_id, game_id]).fetchone()
    if not row[0]:
        return None
    parts = [game_id, row[1], asset_version(current_app), str(get_locale()), session.get("last_added"),
             session.get("restorable"), session.get("csrf_token"), current_app.config.get("PUBLIC_URL"),
             request.host]
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:20]


_CHARTS: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_CHARTS_LOCK = threading.Lock()


def _chart(scored: sheet.Sheet) -> Any:
    """The sheet's chart (views.past.game_chart), drawn once per version of the game:
    a finished game's sheet is opened again and again, and the chart is most of its cost.
    The 64 most recent are kept."""
    from flask_babel import get_locale

    from .past import game_chart

    game = scored.game
    key = (game.id, game.version, len(game.deals), game.players, json.dumps(game.options), str(get_locale()))
    with _CHARTS_LOCK:
        if key in _CHARTS:
            _CHARTS.move_to_end(key)
            return _CHARTS[key]
    chart = game_chart(scored)
    with _CHARTS_LOCK:
        _CHARTS[key] = chart
        while len(_CHARTS) > 64:
            _CHARTS.popitem(last=False)
    return chart


def join_code(game_id: str) -> QrCode:
    """The QR code of the address another phone opens for this game's sheet: the one this
    request came in on, or PUBLIC_URL (set by ``scorekeeper serve``) when it came in on a
    loopback host (network.game_address)."""
    return qr_code(network.game_address(url_for("games.show", game_id=game_id), request.host_url,
                                        current_app.config.get("PUBLIC_URL")))


def store_undo_target(game: store.StoredGame) -> int | None:
    """The deal the Undo button may take back: the last one, just added from this browser."""
    from flask import session

    last = session.get("last_added")
    if last and game.deals and last.get("game") == game.id and last.get("deal") == game.deals[-1].id \
            and last.get("version") in (None, game.deals[-1].version):
        # not once another phone has changed it: Undo would take back their correction too
        return game.deals[-1].id
    return None


@bp.get("/games/<game_id>/game.json")
def download(game_id: str) -> Response:
    game = get_game_or_404(game_id)
    try:
        text = dumps(game.game_file())
    except RuleError:  # a stored deal no longer fits: hand over what was entered, unchanged
        import json

        text = json.dumps(game.to_dict(), indent=2, ensure_ascii=False) + "\n"
    return Response(text, mimetype="application/json", headers=attachment(game, "json"))
