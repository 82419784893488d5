"""Home, new game, the score sheet, deleting and restoring a game (and the group's deleted
games) and the game file download."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any, cast
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
from markupsafe import Markup

from .. import (
    actions,
    forms,
    groups,
    i18n,
    locale_numbers,
    network,
    next_deal,
    night_store,
    sheet,
    store,
)
from ..access import can_write, current, group_id, page_key
from ..assets import asset_version
from ..db import get_db
from ..gamefile import GameFile
from ..i18n import gettext as _
from ..i18n import ngettext
from ..qr import QrCode, qr_code
from ..records import StoredGame
from ..rules import KINDS, get_rules
from ..rules.common import listed, separator
from ..shared_pages import key_of
from ..text import isolate, isolate_all
from . import kept
from .common import attachment, card_url, get_game_or_404, link_code, night_title
from .conditional import conditional
from .pages import address, shared
from .past import game_chart, past_games

bp = Blueprint("games", __name__)


@bp.get("/")
@shared
def index() -> str:
    """Past games: filters, then unfinished games (carry on) apart from finished ones."""
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
    valid = form.validate_on_submit()
    if forms.csrf_failed(form):
        form.form_errors.append(_("This page was open too long. Your entries are kept: tap Start again."))
    elif form.is_submitted():
        # every problem at once, the names' too when a setting is refused (testers 20, 24)
        game = _game_from_form(form, kind)
        if valid and game is not None:
            started = actions.start_game(get_db(), game, group_id=group_id(), nonce=form.nonce.data,
                                         again=form.again.data == "1")
            if isinstance(started, actions.StartedAlready):  # Back, then Start again: asked first
                return render_template("games/started.html", twin=started.twin, kind=kind, rules=rules)
            # the names as stored: "matti" typed is the known player Matti (tester 46)
            names, first = listed(isolate_all(started.players)), isolate(started.players[game.first_dealer])
            flash(_("New game: %(names)s. %(dealer)s deals first.", names=names, dealer=first) if kind != "trix" else
                  _("New game: %(names)s. %(owner)s holds the 7♥; the contracts come in their fixed order.",
                    names=names, owner=first)
                  if game.options.order else  # a fixed order (SCORING.md §2.2): nobody chooses
                  _("New game: %(names)s. %(owner)s holds the 7♥ and chooses the first contract.",
                    names=names, owner=first),
                  "saved")
            return redirect(url_for("games.show", game_id=started.game_id))
    # A refused form answers 400, as the deal forms do
    return render_template("games/new.html", form=form, kind=kind, rules=rules, known=known), \
        400 if form.is_submitted() else 200


def _game_from_form(form: Any, kind: str) -> GameFile | None:
    """The new game, or None after putting every problem beside its field: the names, the
    first dealer and the settings each checked, whatever the others' (the settings by the
    rules only once the form's own checks of them passed: a target that is no number is
    said once)."""
    rules = get_rules(kind)
    players = form.players()
    dealer = form.first_dealer.data
    first_dealer: int | None = None
    if dealer == "random" and kind != "trix":
        first_dealer = random.randrange(rules.seats)
    elif dealer in [str(s) for s in range(rules.seats)]:
        first_dealer = int(dealer)
    else:
        form.first_dealer.errors = [_("Tap who holds the 7♥.") if kind == "trix" else _("Tap who deals first.")]
    settings_read = not any(field.errors for field in form
                            if not field.name.startswith("player_") and field.name != "first_dealer")
    options = form.parsed_options(rules) if settings_read else None
    if players is None or first_dealer is None or options is None:
        return None
    return GameFile(kind, players, first_dealer, options, ())


@bp.get("/games/<game_id>")
def show(game_id: str) -> Any:
    """The score sheet. A phone that has it already is answered 304 (a weak ETag of
    everything the page shows: the game's version, the app's, the language, the address
    and what this browser's session shows on it), without scoring; the page is drawn once
    per version of the game (:func:`_drawn_sheet`), and sent as kept, compressed once
    (views/kept.py)."""
    found = _version_of(game_id)
    if found is None:
        get_game_or_404(game_id)  # a deleted game's page (410), else 404
        abort(404)
    key = _page_key(game_id, found)
    mine = session._get_current_object()  # type: ignore[attr-defined]  # (read several times)
    if mine.get("_flashes"):  # a message to show once: this page is this browser's own
        drawn = _drawn_sheet(key, game_id)
        messages = cast("list[tuple[str, str]]", get_flashed_messages(with_categories=True))
        own = _own_slot(game_id, drawn, messages)
        return conditional(None, lambda: make_response(drawn.page.replace(_UNDO_SLOT, own.encode())))
    return conditional(_sheet_etag(key, mine), lambda: _sheet_page(key, game_id))


def _sheet_page(key: tuple[Any, ...], game_id: str) -> Response:
    """The sheet as sent: the kept page, or with this browser's own Undo drawn into it."""
    drawn = _drawn_sheet(key, game_id)
    undo = _own_slot(game_id, drawn)
    if undo:  # this browser's own page: drawn into the kept one, compressed for it alone
        return make_response(drawn.page.replace(_UNDO_SLOT, undo.encode()))
    return kept.send(key, drawn.page)


def _version_of(game_id: str) -> tuple[int, str] | None:
    """The game's version (store.game_version) and its players' names as spelt now (a
    correction of a name's spelling in another game changes them here too), or None when
    there is no such game: one look-up, no scoring."""
    return store.sheet_version(get_db(), game_id)


def _page_key(game_id: str, version: tuple[int, str]) -> tuple[Any, ...]:
    """What the page shows besides this browser's own part: the game at ``version``, the
    app's version, the language and its digits (locale_numbers.digits) and the address other
    phones use (the QR code: PUBLIC_URL and the address this request came in on,
    pages.address) and, last, the club night's table it is (night_store.TableOf: its round
    closed or not, which the sheet says and which changes no version of the game)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    config = app.config
    return (config["DATABASE"], game_id, version, asset_version(app), i18n.language(), locale_numbers.digits(),
            config.get("PUBLIC_URL"), address(), page_key(), night_store.table_of(get_db(), game_id))


def _sheet_etag(key: tuple[Any, ...], mine: Any) -> str:
    """The sheet's validator: the page's key and what the browser's session ``mine``
    shows on it (its Undo and restore offers, its form token). A page with a message
    waiting (a flash) has none: it is drawn every time."""
    parts = (key, mine.get("last_added"), mine.get("restorable"), mine.get("csrf_token"))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]


#: Where a browser's own messages and Undo go in a drawn sheet (games/_sheet.html)
_UNDO_SLOT = b"<!--sheet:undo-->"


@dataclass(frozen=True)
class DrawnSheet:
    """A score sheet drawn for one version of its game (its key: :func:`_page_key`), as
    kept for every phone: the whole ``page`` (HTML, UTF-8) with :data:`_UNDO_SLOT` where a
    browser's own messages and Undo go; ``last``, the last deal ({"deal", "version",
    "number"}, or None), and ``bar``, whether the page has an action bar (a deal can be
    added). Its size in the cache (``len``) is its page's."""

    page: bytes
    last: dict[str, Any] | None
    bar: bool

    def __len__(self) -> int:
        return len(self.page)


def _drawn_sheet(key: tuple[Any, ...], game_id: str) -> DrawnSheet:
    """The sheet for ``key`` (:func:`_page_key`): drawn once and kept. A sheet is opened
    again and again by every phone at the table, and drawing it is most of its cost."""
    drawn: DrawnSheet = kept.pages().once(key, lambda: _shared_or_drawn(key, game_id))
    return drawn


def _shared_or_drawn(key: tuple[Any, ...], game_id: str) -> DrawnSheet:
    """The sheet another worker of this server drew for ``key`` (kept.shared), kept here
    too; else drawn here, and shared once kept."""
    shared = kept.shared()
    if shared is None:
        return _draw_sheet(key, game_id)
    name = key_of(key)
    found = shared.get(name)
    if found is not None:
        meta = json.loads(found[0])
        drawn = DrawnSheet(found[1], meta["last"], bool(meta["bar"]))
        kept.pages().set(key, drawn)
        return drawn
    drawn = _draw_sheet(key, game_id)
    if kept.pages().get(key) is drawn:  # kept: the game did not change while it was drawn
        shared.set(name, json.dumps({"last": drawn.last, "bar": drawn.bar}), drawn.page)
    return drawn


def _draw_sheet(key: tuple[Any, ...], game_id: str) -> DrawnSheet:
    """Draw the sheet for ``key``, and keep it unless the game changed meanwhile."""
    game = get_game_or_404(game_id)
    scored = sheet.build(game)
    join = join_code(game.id)  # its QR code drawn once
    html = render_template("games/_sheet.html", sheet=scored, rules=get_rules(game.kind), next_deal=next_deal.state(scored, store.deal_tokens(get_db(), game.id)),
                           night=key[-1],
                           undo_slot=Markup(_UNDO_SLOT.decode()), chart=game_chart(scored), join=join,
                           join_local=network.is_loopback(urlsplit(join.text).hostname or ""))
    title = f"{listed(isolate_all(game.players_now))}{separator()}{forms.KIND_NAMES[game.kind]}"
    page = render_template("games/show.html", title=title, body=Markup(html))
    last = {"deal": game.deals[-1].id, "version": game.deals[-1].version, "number": len(game.deals)} \
        if game.deals else None
    drawn = DrawnSheet(page.encode(), last, scored.can_add)
    if game.version == key[2][0]:  # not a game changed since its version was read
        kept.pages().set(key, drawn)
    return drawn


def _own_slot(game_id: str, drawn: DrawnSheet, messages: list[tuple[str, str]] | None = None) -> str:
    """This browser's own part of the sheet, in its bar at the bottom: ``messages`` (the
    flashed (category, message) pairs, shown once) and the Undo button for the last deal,
    if this browser has just added it, nobody has changed it since and the phone may
    still change it (not a table card whose round closed: tester 28); else nothing."""
    last = drawn.last
    mine = session.get("last_added")
    undo = last if last and mine and mine.get("game") == game_id and mine.get("deal") == last["deal"] \
        and mine.get("version") in (None, last["version"]) and can_write() else None  # (a card that shut: none)
    if not undo and not messages:
        return ""
    return render_template("games/_undo.html", game_id=game_id, undo=undo, messages=messages or [],
                           bar=drawn.bar, undo_form=forms.EmptyForm())


def join_code(game_id: str) -> QrCode:
    """The QR code another phone scans to open this game's sheet: the group's link (it
    then knows the group too) for a phone that may play; the link it came in with for a
    read-only one; a table card's phone, the card. Its address is the one this request came in on, or PUBLIC_URL (set by
    ``scorekeeper serve``) when it came in on a loopback host (network.game_address)."""
    access = current()
    assert access is not None
    if access.access == groups.TABLE:  # a table card passes on itself, never more
        return qr_code(card_url(access.token))
    return link_code(access.group.token if access.full and access.group.token else access.token, game_id)


# ---------------------------------------------------------------- delete and restore a game


@bp.route("/games/<game_id>/delete", methods=["GET", "POST"])
def delete(game_id: str) -> Any:
    """Ask once, naming the game (its kind, players, start and deals: GET); delete it
    (POST: actions.delete_game) and go to the games list, whose message offers Undo
    (issue 18, part 1). The same delete sent twice (a double tap, two phones) deletes once
    and says it was deleted already."""
    form = forms.EmptyForm()
    if request.method == "POST" and form.validate_on_submit():
        result = actions.delete_game(get_db(), game_id)
        if isinstance(result, actions.NoSuchGame):
            abort(404)
        if isinstance(result, actions.NightTable):  # a night's table goes with its night, or not at all
            form.form_errors.append(_not_deleted(result.night_id, result.round, result.table))
            return render_template("games/delete.html", game=get_game_or_404(game_id), form=form,
                                   night_table=True), 409
        offer_game_restore(result.game)
        words = game_words(result.game)
        # its deals counted: of two games of the same players, which one went (tester 36)
        count = len(result.game.deals)
        deals = ngettext("%(num)s deal", "%(num)s deals", count) if count else _("no deals yet")
        flash(_("%(game)s was deleted already (on another phone?).", game=words) if result.again
              else _("%(game)s (%(deals)s) deleted.", game=words, deals=deals), "game_restorable")
        return redirect(url_for("games.index"))
    game = get_game_or_404(game_id)  # a game deleted already: its page says so, with Restore
    table = night_store.table_of(get_db(), game.id)
    if table is not None:
        form.form_errors.append(_not_deleted(table.night_id, table.round, table.table))
    elif forms.csrf_failed(form):
        form.form_errors.append(_("This page was open too long. Tap Delete again to confirm."))
    return render_template("games/delete.html", game=game, form=form, night_table=table is not None), \
        400 if form.is_submitted() else 200


def _not_deleted(night_id: int, round_: int, table: int) -> str:
    """Why a table of a club night is not deleted on its own, in words."""
    title = night_title(night_store.get_night(get_db(), night_id))
    return _("This game is table %(table)s of round %(round)s of %(night)s: a night's tables are removed "
             "with their night, or not at all.", table=table, round=round_, night=isolate(title))


@bp.post("/games/<game_id>/restore")
def restore(game_id: str) -> Any:
    """Put a deleted game back whole (actions.restore_game: the Undo after a delete, the
    deleted game's page, the Deleted games list) and open its score sheet; a game back
    already (a double tap, another phone) gets the same answer, saying so."""
    form = forms.EmptyForm()
    if not form.validate_on_submit():
        flash(_("This page was open too long or came from elsewhere. Tap Restore again."), "saved")
        return redirect(url_for("games.show", game_id=game_id))
    result = actions.restore_game(get_db(), game_id)
    if isinstance(result, actions.NoSuchGame):
        abort(404)
    if isinstance(result, actions.NightTable):  # a deleted night's table: back with its night only
        flash(_("That game is a table of a deleted club night: it comes back with its night. Restore the "
                "night here."), "told")
        return redirect(url_for("nights.index", _anchor="deleted-head"))
    if isinstance(result, actions.TwinInPlay):  # its twin's sheet, saying why this one stays deleted
        flash(_("%(game)s stays deleted: the game shown here is the same game, played on since on one side "
                "(imported again?), so restoring the deleted one would count it twice.",
                game=game_words(result.game)) if result.continued else
              _("%(game)s stays deleted: the game shown here has the same players, settings and deals "
                "(imported again?), so restoring the deleted one would count the same game twice.",
                game=game_words(result.game)), "told")  # never cut short in the sheet's bar
        return redirect(url_for("games.show", game_id=result.twin))
    session.pop("restorable_game", None)
    words = game_words(result.game)
    if result.again:
        flash(_("%(game)s was restored already.", game=words), "saved")
    elif result.twin is not None:  # two starts of one game, neither played yet: both stay
        flash(_("%(game)s restored. Another game with the same players and settings and no deal yet is "
                "in the list too: both count as games played.", game=words), "told")
    else:
        flash(_("%(game)s restored.", game=words), "saved")
    return redirect(url_for("games.show", game_id=game_id))


@bp.get("/games/deleted")
def deleted() -> Any:
    """The group's deleted games, the latest deleted first, each with Restore (issue 18,
    part 1; reached from the Group page), or, for one a game in play already is (imported
    again since, or played on), a link to that game: Restore would refuse it."""
    db, group = get_db(), group_id()
    games = store.deleted_games(db, group)
    return render_template("games/deleted.html", games=games, in_play=store.in_play_already(db, games, group),
                           form=forms.EmptyForm())


def game_words(game: StoredGame) -> str:
    """A game named in words for a message (issue 18, part 1): "Trigami with Anna, Ben,
    Carla", who sits now (as the score sheet names them), each name isolated from the
    words around it."""
    return _("%(kind)s with %(names)s", kind=forms.KIND_NAMES[game.kind], names=listed(isolate_all(game.players_now)))


def offer_game_restore(game: StoredGame) -> None:
    """Remember the game just deleted, so the next page's message offers Undo."""
    session["restorable_game"] = game.id


@bp.app_context_processor
def game_restore_context() -> dict[str, Any]:
    """``game_restore_offer()`` for the message after a game's delete (_flashes.html): the
    Undo's address and form, or None."""

    def game_restore_offer() -> dict[str, Any] | None:
        game_id = session.get("restorable_game")
        if not isinstance(game_id, str):
            return None
        return {"url": url_for("games.restore", game_id=game_id), "form": forms.EmptyForm()}

    return {"game_restore_offer": game_restore_offer}


@bp.get("/games/<game_id>/game.json")
def download(game_id: str) -> Response:
    """The game file (GAME-FILE.md), as records.StoredGame.exported writes it: the group
    file holds each game the same way (a stored deal that no longer fits: what was
    entered, unchanged)."""
    game = get_game_or_404(game_id)
    text = json.dumps(game.exported(), indent=2, ensure_ascii=False) + "\n"
    return Response(text, mimetype="application/json", headers=attachment(game, "json"))
