"""Home, new game, the score sheet and the game file download."""

from __future__ import annotations

import hashlib
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    get_flashed_messages,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_compress import Compress
from markupsafe import Markup

from .. import forms, groups, i18n, locale_numbers, network, sheet, store
from ..assets import asset_version
from ..db import get_db
from ..gamefile import GameFile, dumps
from ..i18n import gettext as _
from ..qr import QrCode
from ..rules import KINDS, RuleError, get_rules
from ..rules.common import listed
from ..text import isolate, isolate_all
from . import attachment
from .groups import current, group_id, link_code, page_key
from .pages import address, shared
from .past import game_chart

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

    version = groups.version(get_db(), group_id())  # read first: a change while rendering is fetched next time
    return render_template("games/index.html", live_version=version, **past_games(request.args))


@bp.route("/games/new", methods=["GET", "POST"])
def new() -> Any:
    kind = request.args.get("kind")
    if kind not in KINDS:  # a POST without a game to start is refused like any form: 400
        return render_template("games/choose_kind.html"), 400 if request.method == "POST" else 200
    rules = get_rules(kind)
    form = forms.new_game_form(kind, rules.seats)()
    known = store.known_players(get_db(), group_id())
    if not form.is_submitted():
        for seat, name in enumerate(store.last_players(get_db(), kind, group_id())):
            form[f"player_{seat}"].data = name
    if form.validate_on_submit():
        game = _game_from_form(form, kind)
        if game is not None:
            game_id = store.create_game(get_db(), game, nonce=form.nonce.data, group_id=group_id())
            flash(_("New game: %(names)s. %(dealer)s deals first.", names=listed(isolate_all(game.players)),
                    dealer=isolate(game.players[game.first_dealer])) if kind != "trix" else
                  _("New game: %(names)s. %(owner)s holds the 7♥ and chooses the first contract.",
                    names=listed(isolate_all(game.players)), owner=isolate(game.players[game.first_dealer])),
                  "saved")
            return redirect(url_for("games.show", game_id=game_id))
    elif forms.csrf_failed(form):
        form.form_errors.append(_("This page was open too long. Your entries are kept: tap Start again."))
    # A refused form answers 400, as the deal forms do
    return render_template("games/new.html", form=form, kind=kind, rules=rules, known=known), \
        400 if form.is_submitted() else 200


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
    """The score sheet. A phone that has it already is answered 304 (a weak ETag of
    everything the page shows: the game's version, the app's, the language, the address
    and what this browser's session shows on it), without scoring; the page is drawn once
    per version of the game (:func:`_kept_sheet`), and sent as kept, compressed once."""
    found = _version_of(game_id)
    if found is None:
        abort(404)
    key = _page_key(game_id, found)
    mine = session._get_current_object()  # type: ignore[attr-defined]  # (read several times)
    if mine.get("_flashes"):  # a message to show once: this page is this browser's own
        kept = _kept_sheet(key, game_id)
        own = _own_slot(game_id, kept, get_flashed_messages(with_categories=True))
        html = render_template("games/show.html", title=kept.title, body=Markup(kept.body.replace(_UNDO_SLOT, own)))
        return _revalidate(make_response(html), None)
    etag = _sheet_etag(key, mine)
    if request.if_none_match.contains_weak(etag):
        return _revalidate(Response(status=304), etag)
    kept = _kept_sheet(key, game_id)
    undo = _own_slot(game_id, kept)
    if undo:  # this browser's own page: drawn into the kept one, compressed for it alone
        return _revalidate(make_response(kept.page().replace(_UNDO_SLOT, undo)), etag)
    content_encoding, data = kept.sent(request.headers.get("Accept-Encoding", ""))
    response = Response(data, content_type="text/html; charset=utf-8")
    if content_encoding:
        response.headers["Content-Encoding"] = content_encoding  # Flask-Compress leaves it be
    return _revalidate(response, etag)


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
    headers = response.headers
    if etag is not None:
        headers["ETag"] = f'W/"{etag}"'  # weak: the same whether compressed or not
    headers["Cache-Control"] = "private, no-cache"  # asked again every time: 304 while unchanged
    return response


def _page_key(game_id: str, version: tuple[int, str]) -> tuple[Any, ...]:
    """What the page shows besides this browser's own part: the game at ``version``, the
    app's version, the language and its digits (locale_numbers.digits) and the address other
    phones use (the QR code: PUBLIC_URL and the address this request came in on,
    pages.address)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    config = app.config
    return (config["DATABASE"], game_id, version, asset_version(app), i18n.language(), locale_numbers.digits(),
            config.get("PUBLIC_URL"), address(), page_key())


def _sheet_etag(key: tuple[Any, ...], mine: Any) -> str:
    """The sheet's validator: the page's key and what the browser's session ``mine``
    shows on it (its Undo and restore offers, its form token). A page with a message
    waiting (a flash) has none: it is drawn every time."""
    parts = (key, mine.get("last_added"), mine.get("restorable"), mine.get("csrf_token"))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]


_UNDO_SLOT = "<!--sheet:undo-->"


@dataclass
class _Sheet:
    """A drawn score sheet: its ``key`` (:func:`_page_key`), ``title``, ``body`` (with
    :data:`_UNDO_SLOT` where a browser's messages and Undo go), ``last``, the last deal
    ({"deal", "version", "number"}, or None) and ``bar``, whether it has an action bar
    (a deal can be added); the whole page and its compressed bytes are added when first
    asked for."""

    key: tuple[Any, ...]
    title: str
    body: str
    last: dict[str, Any] | None
    bar: bool = True
    _page: str | None = None
    _sent: dict[str, tuple[str, bytes]] = field(default_factory=dict)

    def size(self) -> int:
        """About how many bytes it holds (a − in a page is two bytes of UTF-8)."""
        return len(self.body) + len(self._page or "") + sum(len(data) for _, data in self._sent.values())

    def page(self) -> str:
        """The whole page without messages, with :data:`_UNDO_SLOT`: drawn once."""
        if self._page is None:
            page = render_template("games/show.html", title=self.title, body=Markup(self.body))
            _KEPT.grew(self, page=page)
        return self._page  # type: ignore[return-value]

    def sent(self, accept_encoding: str) -> tuple[str, bytes]:
        """(Content-Encoding, bytes) of :meth:`page` for a browser that sends this
        Accept-Encoding: compressed by Flask-Compress (its choice of algorithm and level)
        once, then kept."""
        found = self._sent.get(accept_encoding)
        if found is None:
            response = _compress().after_request(make_response(self.page()))
            found = (response.headers.get("Content-Encoding", ""), response.get_data())
            _KEPT.grew(self, sent=(accept_encoding, found))
        return found


class _KeptSheets:
    """Drawn sheets by page key, the most recently used kept, up to ``most`` bytes."""

    def __init__(self, most: int) -> None:
        self._sheets: OrderedDict[tuple[Any, ...], _Sheet] = OrderedDict()
        self._size = 0
        self._most = most
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> _Sheet | None:
        with self._lock:
            sheet = self._sheets.get(key)
            if sheet is not None:
                self._sheets.move_to_end(key)
            return sheet

    def put(self, key: tuple[Any, ...], sheet: _Sheet) -> None:
        with self._lock:
            old = self._sheets.pop(key, None)
            self._size += sheet.size() - (old.size() if old else 0)
            self._sheets[key] = sheet
            self._trim()

    def grew(self, sheet: _Sheet, page: str | None = None, sent: tuple[str, tuple[str, bytes]] | None = None) -> None:
        """Add its whole page or one of its compressed forms (Accept-Encoding, (encoding,
        bytes)) to ``sheet``, kept or not; the first one added stays."""
        with self._lock:
            before = sheet.size()
            if page is not None and sheet._page is None:
                sheet._page = page
            if sent is not None and len(sheet._sent) < 8:  # Accept-Encoding comes in a few forms only
                sheet._sent.setdefault(*sent)
            if self._sheets.get(sheet.key) is sheet:
                self._size += sheet.size() - before
                self._trim()

    def _trim(self) -> None:
        while self._size > self._most and len(self._sheets) > 1:
            self._size -= self._sheets.popitem(last=False)[1].size()


#: At most this many bytes of drawn sheets are kept (a few MB)
_KEPT = _KeptSheets(4_000_000)


def _compress() -> Compress:
    return current_app.extensions["compress"]


def _kept_sheet(key: tuple[Any, ...], game_id: str) -> _Sheet:
    """The sheet for ``key`` (:func:`_page_key`): drawn once and kept. A sheet is opened
    again and again by every phone at the table, and drawing it is most of its cost."""
    kept = _KEPT.get(key)
    if kept is not None:
        return kept
    game = get_game_or_404(game_id)
    scored = sheet.build(game)
    html = render_template("games/_sheet.html", sheet=scored, rules=get_rules(game.kind),
                           undo_slot=Markup(_UNDO_SLOT), chart=game_chart(scored), join=join_code(game.id),
                           join_local=network.is_loopback(urlsplit(join_code(game.id).text).hostname or ""))
    last = {"deal": game.deals[-1].id, "version": game.deals[-1].version, "number": len(game.deals)} \
        if game.deals else None
    drawn = _Sheet(key, f"{listed(isolate_all(game.players))} · {forms.KIND_NAMES[game.kind]}", html, last, scored.can_add)
    if game.version == key[2][0]:  # not a game changed since its version was read
        _KEPT.put(key, drawn)
    return drawn


def _own_slot(game_id: str, kept: _Sheet, messages: list[tuple[str, str]] | None = None) -> str:
    """This browser's own part of the sheet, in its bar at the bottom: ``messages`` (the
    flashed (category, message) pairs, shown once) and the Undo button for the last deal,
    if this browser has just added it and nobody has changed it since; else nothing."""
    last = kept.last
    mine = session.get("last_added")
    undo = last if last and mine and mine.get("game") == game_id and mine.get("deal") == last["deal"] \
        and mine.get("version") in (None, last["version"]) else None
    if not undo and not messages:
        return ""
    return render_template("games/_undo.html", game_id=game_id, undo=undo, messages=messages or [],
                           bar=kept.bar, undo_form=forms.EmptyForm())


def join_code(game_id: str) -> QrCode:
    """The QR code another phone scans to open this game's sheet: the group's link (it
    then knows the group too) for a phone that may play; the link it came in with for a
    read-only one. Its address is the one this request came in on, or PUBLIC_URL (set by
    ``scorekeeper serve``) when it came in on a loopback host (network.game_address)."""
    access = current()
    assert access is not None
    return link_code(access.group.token if access.can_write and access.group.token else access.token, game_id)


@bp.get("/games/<game_id>/game.json")
def download(game_id: str) -> Response:
    game = get_game_or_404(game_id)
    try:
        text = dumps(game.game_file())
    except RuleError:  # a stored deal no longer fits: hand over what was entered, unchanged
        import json

        text = json.dumps(game.to_dict(), indent=2, ensure_ascii=False) + "\n"
    return Response(text, mimetype="application/json", headers=attachment(game, "json"))
