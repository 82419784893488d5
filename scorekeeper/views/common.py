"""What every blueprint needs: a game or 404, a download's name, a deal form's live
preview, what a phone is told when the disk refuses a write or a form comes without its
token, a link's address and QR code for another phone, and the template helpers (filters
and globals) every page uses. (views/__init__.py only registers the blueprints.)
"""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from flask import (
    Flask,
    Response,
    abort,
    current_app,
    has_request_context,
    jsonify,
    render_template,
    request,
    session,
    url_for,
)
from jinja2 import pass_context
from markupsafe import Markup, escape
from werkzeug.routing import IntegerConverter

from .. import forms, i18n, locale_numbers, network, night_store, store
from ..db import get_db
from ..i18n import gettext as _
from ..night_records import StoredNight
from ..qr import QrCode, qr_code
from ..records import StoredGame
from ..rules.common import (
    SUIT_SYMBOLS,
    listed,
    listed_apart,
    separator,
    set_name_isolation,
    set_number_format,
    signed,
    together,
)
from ..rules.sources import SourceError, quote_for
from ..rules.trix import card_label, card_name
from ..text import bdi, isolate, last_words_together, names_in_bdi, shortened

__all__ = [
    "OWN_413",
    "SqliteInt",
    "attachment",
    "card",
    "cited",
    "deleted_game_page",
    "forget_undo",
    "get_game_or_404",
    "init_templates",
    "link_code",
    "link_url",
    "listed_markup",
    "night_table_words",
    "night_title",
    "no_such_page",
    "preview_answer",
    "refuse_oversize",
    "refused",
    "refused_by_disk",
    "signed",
    "suit",
]


def no_such_page() -> str:
    """A 404's words for an address that names no game, deal or player: one of no page at
    all, or a language or digits the switch does not offer (a link typed or cut short)."""
    return _("There is no such page here. The address may have been mistyped or cut short.")


def get_game_or_404(game_id: str) -> StoredGame:
    """The stored game, or a 404 page; for a deleted game, the page that says so (410:
    :func:`deleted_game_page`), on every address of the game."""
    try:
        return store.get_game(get_db(), game_id)
    except store.GameDeletedError as gone:
        abort(deleted_game_page(gone.game))
    except store.NotFoundError:
        abort(404)


def deleted_game_page(game: StoredGame) -> Response:
    """The page of a deleted game (issue 18, part 1), status 410: "This game was deleted",
    naming it, with Restore for a phone that may write (a read-only link only reads it);
    the JSON endpoints get {"error", "deleted": true}."""
    if request.endpoint in ("live.game", "deals.preview"):
        response = jsonify(error=_("This game was deleted."), deleted=True)
    else:
        # a table of a club night was deleted with its night, and comes back with it
        table = night_store.table_of(get_db(), game.id)
        response = current_app.make_response(render_template("games/deleted_game.html", game=game,
                                                              form=forms.EmptyForm(), night_table=table))
    response.status_code = 410
    return response


def suit(code: str | None) -> Markup:
    """A suit symbol, coloured by CSS and named for screen readers."""
    if code is None or code not in SUIT_SYMBOLS:
        return Markup("")
    return Markup('<span class="suit suit-{c}" role="img" aria-label="{name}">{sym}</span>').format(
        c=code, name=forms.SUIT_NAMES[code], sym=SUIT_SYMBOLS[code])


def suit_colour(code: str) -> Markup:
    """A suit symbol coloured by CSS, read as written (where the words around it name it
    already: a form's legend a player finds by its text)."""
    if code not in SUIT_SYMBOLS:
        return Markup("")
    return Markup('<span class="suit suit-{c}">{sym}</span>').format(c=code, sym=SUIT_SYMBOLS[code])


def card(rank: str, code: str, named: bool = True) -> Markup:
    """The K♥ or a queen as the reader's players write it (rules.trix.card_label: "K♥",
    "D♠" in German), its suit's symbol coloured by CSS; named in words for screen readers
    ("queen of spades", card_name) unless ``named`` is False, where words beside it say
    the card."""
    label, symbol = card_label(rank, code), SUIT_SYMBOLS[code]
    before, found, after = label.partition(symbol)
    shown = (Markup('{}<span class="suit suit-{}">{}</span>{}').format(before, code, symbol, after)
             if found else Markup("{}").format(label))
    if not named:
        return shown
    return Markup('<span role="img" aria-label="{}">{}</span>').format(card_name(rank, code), shown)


def cited(source: str) -> str:
    """A rules citation in words, as the rules are stated to players in the reader's
    language (rules/sources.py, rules/statements.py): "SCORING.md §2.1, §2.2" →
    "Contracts and points; Doubling"; no file names or section numbers."""
    try:
        return listed_apart(p.label for p in quote_for(source, i18n.language()) if p.kind == "statement")
    except SourceError:
        return _("the rules")


def attachment(game: Any, suffix: str) -> dict[str, str]:
    """The Content-Disposition of a game's download, "trix-2026-11-29-anna-李雷.csv": kind,
    day (UTC) and names in any script (RFC 6266 filename*), with an ASCII fallback."""
    day = datetime.fromisoformat(game.created_at).astimezone(UTC).date().isoformat()
    names = "-".join(re.sub(r"[\W_]+", "", name.casefold()) or "player" for name in game.players)
    return named_attachment(f"{game.kind}-{day}-{names}.{suffix}")


def named_attachment(full: str) -> dict[str, str]:
    """The headers of a download called ``full`` (any script: RFC 6266 filename*, with an
    ASCII fallback), never kept by a shared cache or the browser."""
    plain = unicodedata.normalize("NFKD", full).encode("ascii", "ignore").decode()
    plain = re.sub(r"-{2,}", "-", re.sub(r"[^A-Za-z0-9.-]+", "", plain))
    # names of no Latin letter leave no hyphen hanging before the suffix (tester 57:
    # "trix-2026-12-06-.csv" for four Arabic names)
    plain = re.sub(r"-+\.", ".", plain).strip("-")
    return {"Content-Disposition": f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(full)}",
            # a group's private data: never kept by a shared cache or the browser's
            "Cache-Control": "private, no-store"}


def sent_version(text: str | None) -> int | None:
    """The game's version a form was drawn at, as it sends it back (``seen``): None when
    the field was not sent, 0 when it came garbled (crafted: read as the oldest, so the
    check of what changed since still runs; tester 36: a garbled one skipped it), else
    its value."""
    if text is None or text == "":
        return None
    return int(text) if text.isdecimal() and len(text) < 19 else 0


def forget_undo() -> None:
    """This phone changed the game after adding a deal (its settings or seats, or another
    deal): the sheet's "Undo deal N" goes, as the bar's message is now about that change
    (under "Settings changed" it read as undoing the settings, tester 18; under "Deal 1
    changed", tester 32 tapped it to undo the change and deal 2 was deleted); the deal can
    still be deleted from its own page."""
    session.pop("last_added", None)


def preview_answer(form: forms.DealForm, deal: Any) -> Response:
    """A deal form's live preview (JSON): each player's ``points`` (signed) and their
    ``steps`` for the scored ``deal`` (``ok``); or, for ``deal`` None, the one line that
    says why they cannot be worked out yet, in the words a Save would use (``message``,
    from the problems already on ``form``; ``question``: something is not entered yet,
    rather than wrong). ``wrong``: the ids that the form's problems now stand beside (a
    field's id, or a group's "<group>-errors"), for the page to take the red off those
    put right since a refused Save (tester 24: the K♥ question stayed red once answered);
    empty when the points are worked out."""
    if deal is None:
        problem = form.first_problem()
        wrong = sorted({where for where, _message in form.all_errors() if where})
        return jsonify(ok=False, message=problem[0] if problem else None, question=bool(problem and problem[1]),
                       wrong=wrong)
    return jsonify(ok=True, points=[signed(p) for p in deal.points], steps=[list(line.steps) for line in deal.lines],
                   wrong=[])


def listed_markup(items: Any, join: Any) -> Markup:
    """``join`` (rules.common.listed or listed_apart) for a template: the separator it
    puts between two items, with Markup.join escaping each item that is not markup."""
    separator = join(("", ""))
    return Markup(escape(separator)).join(items)


#: What the log says of a write the disk refused, by store.DiskFullError.reason
_DISK_TROUBLE = {"full": "the disk is full", "read-only": "the database or its file system is read-only",
                 "i/o": "the disk failed a write"}


def refused_by_disk(error: store.DiskFullError) -> str:
    """A write the database's disk refused (store.DiskFullError): log the one line an
    operator needs (what, where, that it resumes by itself; no traceback), and return what
    the phone is told, in its language (one sentence: a deal waiting in the outbox shows it
    too, static/app.js). Status 507 (Insufficient Storage) goes with it."""
    path = error.path or current_app.config.get("DATABASE", "")
    if request.method in ("GET", "HEAD"):  # a page SQLite could not open: no room to read through (-shm)
        current_app.logger.error(
            "Page not opened (%s %s): %s, so %s could not be opened (SQLite: %s). Pages open again by "
            "themselves once there is room.", request.method, request.path, _DISK_TROUBLE[error.reason], path,
            error.detail)
        if error.reason == "full":
            return _("The server's disk is full, so this page cannot be opened now. Nothing is lost: try "
                     "again once there is room.")
        return _("The server cannot use its disk, so this page cannot be opened now. Nothing is lost: try "
                 "again in a moment.")
    current_app.logger.error(
        "Nothing saved (%s %s): %s, so %s could not be written (SQLite: %s). Saving resumes by itself "
        "once it can write there again.", request.method, request.path, _DISK_TROUBLE[error.reason], path,
        error.detail)
    if error.reason == "full":
        return _("The server's disk is full: nothing was saved, your entries are kept.")
    return _("The server cannot write to its disk: nothing was saved, your entries are kept.")


def _for_another_phone(path: str) -> str:
    """The whole address of ``path`` as another phone reaches it (network.game_address:
    PUBLIC_URL when this page was opened on the serving computer)."""
    return network.game_address(path, request.host_url, current_app.config.get("PUBLIC_URL"))


def link_url(token: str, game_id: str | None = None) -> str:
    """The address of a link for another phone (network.game_address: PUBLIC_URL when
    this page was opened on the serving computer)."""
    return _for_another_phone(url_for("groups.join", token=token, game=game_id))


def link_code(token: str, game_id: str | None = None) -> QrCode:
    """The QR code of :func:`link_url`."""
    return qr_code(link_url(token, game_id))


def screen_url(token: str, night_id: int) -> str:
    """The address that opens club night ``night_id``'s big screen through the group's
    read-only link ``token`` (views/groups/joining.join, ``?screen=``), for the TV, as
    :func:`link_url`."""
    return _for_another_phone(url_for("groups.join", token=token, screen=night_id))


def card_url(token: str) -> str:
    """The address of a club night's table card (views/groups/joining.table_card), for
    another phone, as :func:`link_url`."""
    return _for_another_phone(url_for("groups.table_card", token=token))


def refused() -> Any:
    """The answer to a form without its form token (CSRF): 400, a page that says nothing
    changed, and nothing changed."""
    message = _("Nothing was changed: this page was open too long or came from elsewhere. Open it again and "
                "tap once more.")
    return render_template("error.html", code=400, message=message), 400


class SqliteInt(IntegerConverter):
    """``<int:…>`` in a URL, at most SQLite's largest integer: a longer number is a plain
    404, not an overflow deep in the database."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(map, *args, **kwargs)


#: Views that read an oversize body themselves, to answer 413 on their own form
#: (the upload form says how large a game file may be)
OWN_413 = frozenset({"transfer.upload"})


def refuse_oversize() -> None:
    """Every POST over the request limits answers 413 with the app's 413 page before any
    view runs, whatever the view would read: a body over MAX_CONTENT_LENGTH (by its
    Content-Length, or as it is read when sent in chunks), a form field over
    MAX_FORM_MEMORY_SIZE, more than MAX_FORM_PARTS parts. Parsing the form here (Werkzeug
    keeps it for the view) means a view that answers without reading the body ("Start a
    game" sent without a kind: 400) cannot answer otherwise than the rest."""
    if request.method == "POST" and request.endpoint not in OWN_413:
        request.form  # noqa: B018 - raises RequestEntityTooLarge (413)


def init_templates(app: Flask) -> None:
    """The filters and globals every template uses (numbers in the page's digits, lists
    as the page's language writes them, names isolated, suits and cards), and the rules'
    hooks that name players and write numbers for a page."""
    # the rules' messages and steps ("doubled by سارة: −75") name players isolated too, in
    # a page (the hook is the process's: the command line and the rules' own tests, with
    # no request, keep names as typed)
    set_name_isolation(lambda name: isolate(name) if has_request_context() else name)
    # … and write their numbers in the page's digits and signs (locale_numbers.py; outside a
    # request, the command line's 0–9, "+75" and "−150")
    set_number_format(locale_numbers.number, locale_numbers.signed)
    # numbers a person reads, in the page's digits: a deal's points ("+75", "+٧٥"), a
    # total or a count ("−15", "١٣"), a day; never for attributes that are data (value,
    # href, data-*). Each depends on the request, so Jinja must never work one out once
    # when compiling a template ({{ 0|number }} would keep the first page's digits).
    for name, write in (("signed", locale_numbers.signed), ("minus", locale_numbers.number), ("number", locale_numbers.number),
                        ("day", locale_numbers.day), ("day_and_time", locale_numbers.day_and_time)):
        app.jinja_env.filters[name] = pass_context(lambda _context, value, write=write: write(value))
    app.jinja_env.filters["cited"] = cited
    # a list as the page's language writes it ("Anna, Ben", "سارة، محمد"): names|map('bdi')|listed
    # (like |join, each item escaped unless it is markup already)
    app.jinja_env.filters["listed"] = pass_context(lambda _context, items: listed_markup(items, listed))
    app.jinja_env.filters["together"] = pass_context(lambda _context, items: listed_markup(items, together))
    app.jinja_env.filters["listed_apart"] = pass_context(lambda _context, items: listed_markup(items, listed_apart))
    # a player name in a page: <bdi> in HTML, FSI…PDI in plain text (<title>, <option>, SVG)
    app.jinja_env.filters["bdi"] = bdi
    app.jinja_env.filters["isolate"] = isolate
    app.jinja_env.filters["names_in_bdi"] = names_in_bdi
    app.jinja_env.filters["last_words_together"] = last_words_together
    # a problem of an uploaded file, with what it quotes of the file cut to a line's length
    app.jinja_env.filters["shortened"] = shortened
    # seats|map('extract', players) → the names of those seats
    app.jinja_env.filters["extract"] = lambda key, container: container[key]
    # Links to pages that may not exist yet render only once their view does
    app.jinja_env.globals["has_endpoint"] = lambda name: name in app.view_functions
    app.jinja_env.globals.update(
        suit=suit, suit_colour=suit_colour, card=card, card_label=card_label, CONTRACT_NAMES=forms.CONTRACT_NAMES,
        KIND_NAMES=forms.KIND_NAMES, SUITS=("S", "H", "D", "C"), tojson_compact=lambda v: json.dumps(v))
    # the mark between labels on one line ("Trix · With doubling"; Arabic " — "): {{ sep() }}
    app.jinja_env.globals["sep"] = separator


def night_title(night: StoredNight) -> str:
    """The night's name, or "Trix night, Dec 3,
    2026" from its start (its UTC day, in the page's language and digits)."""
    if night.name:
        return night.name
    return _("%(kind)s night, %(day)s", kind=forms.KIND_NAMES[night.kind], day=locale_numbers.day(night.created_at))


def night_table_words(game_id: str) -> str | None:
    """Why game ``game_id`` keeps its players and settings when it is a table of a club
    night (docs/club-nights.md, "A table's game"), in words; None: an ordinary game."""
    table = night_store.table_of(get_db(), game_id)
    if table is None:
        return None
    night = night_store.get_night(get_db(), table.night_id)
    return _("This game is table %(table)s of round %(round)s of %(night)s: its players and settings are the "
             "night's.", table=table.table, round=table.round, night=isolate(night_title(night)))
