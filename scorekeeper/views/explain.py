"""Settling a dispute: how each number on the sheet came about, a calculator, what-if.

Thin: the sheet scores the stored deal entries, ``explanations`` explains and re-scores,
``rules.sources`` quotes the rules; nothing here writes to the database.  Every page is a
GET: the calculator and what-if read their choices from the query string (no CSRF: they
change nothing).

Routes (blueprint ``explain``):

- ``/games/<id>/explain/<n>?seat=S`` — deal n (1-based), one seat (0-based) or all;
- ``/games/<id>/explain/total?seat=S``, ``/games/<id>/explain/teams``;
- ``/games/<id>/explain/dealer?deal=n`` (no deal: the next one);
- ``/games/<id>/explain/kingdom/<k>`` — a Trix kingdom's check;
- ``/games/<id>/what-if?…`` — the game re-scored under other settings;
- ``/calculator?kind=trigami|bugami3|trix`` and ``POST /calculator/preview`` (JSON).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, abort, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField

from .. import explanations, forms, sheet
from ..gamefile import GameFile
from ..i18n import gettext as _
from ..i18n import language
from ..inputs import whole_number_below
from ..rules import KINDS, RuleError, get_rules
from ..rules.common import SUIT_SYMBOLS, DealScore
from ..rules.sources import Passage, in_language, quote_all
from ..rules.trix import CARDS, TAKEN_BACK, card_label
from .common import get_game_or_404, preview_answer

bp = Blueprint("explain", __name__)


@bp.app_template_global()
def deal_explanation(deal: DealScore, players: tuple[str, ...]) -> dict[str, Any]:
    """For templates that show a scored deal (the deal form's "How deal N was scored"):
    ``lines`` (one LineExplanation per seat) and ``passages`` (the rules shown, each once,
    for this reader: :func:`reader_passages`)."""
    lines = [explanations.explain_line(deal, seat, players) for seat in range(len(deal.lines))]
    return {"lines": lines, "passages": reader_passages(quote_all([line.source for line in lines]))}


@bp.app_template_global()
def reader_passages(passages: tuple[Passage, ...]) -> tuple[Passage, ...]:
    """An explanation's rules for this request's reader (rules.sources.in_language): each
    SCORING.md section as its statement for players in the reader's language, the rule
    text of the reader's language where there is one, otherwise the original (``kind``
    "original", for the template to fold away).  The explanations quote as cited;
    templates show them through this, and doing it twice changes nothing."""
    return in_language(passages, language())


_SUIT_CODES = {symbol: code for code, symbol in SUIT_SYMBOLS.items()}


@lru_cache(maxsize=8)
def _cards_of(lang: str) -> tuple[dict[str, tuple[str, str]], re.Pattern[str]]:
    """The cards as language ``lang`` writes them ({"K♥": ("K", "H"), …}) and the pattern
    that finds them and the suit symbols in a sentence; made once a language (a Trix deal
    form asks for it at each of its forty questions and hints)."""
    cards = {card_label(rank, suit): (rank, suit) for rank, suit in CARDS}
    pattern = "|".join(re.escape(label) for label in sorted(cards, key=len, reverse=True))
    return cards, re.compile(rf"(?<!\w)(?:{pattern})|[{''.join(_SUIT_CODES)}]")


@bp.app_template_global()
def suit_parts(text: str) -> list[tuple[str, Any]]:
    """A sentence split around its cards and suit symbols, so a template can colour them
    and name them for screen readers: "took the K♥: −75" → [("took the ", None), ("K♥",
    ("K", "H")), (": −75", None)]; a symbol that is no card of Trix's, e.g. "plain ♥" →
    [("plain ", None), ("♥", "H")]. Cards are found as this request's language writes
    them (rules.trix.card_label: "D♠" in German), after no letter."""
    if not any(symbol in text for symbol in _SUIT_CODES):  # most sentences: nothing to find
        return [(text, None)] if text else []
    cards, finder = _cards_of(language())
    parts: list[tuple[str, Any]] = []
    last = 0
    for found in finder.finditer(text):
        if found.start() > last:
            parts.append((text[last:found.start()], None))
        piece = found.group()
        parts.append((piece, cards.get(piece) or _SUIT_CODES[piece]))
        last = found.end()
    if last < len(text):
        parts.append((text[last:], None))
    return parts


# ----------------------------------------------------------------------------- helpers


def _sheet(game_id: str) -> sheet.Sheet:
    return sheet.build(get_game_or_404(game_id))


def _seated(s: sheet.Sheet, number: int) -> sheet.Sheet:
    """``s`` with the players who sat in deal ``number`` (the number of deals + 1: who
    sits now) as its players, so that an explanation names them (someone may have taken
    over a seat: issue 18, part 3); points stay with the seat. For the page only."""
    if not s.game.seat_changes or s.file is None:
        return s
    names = s.game.players_at(number)
    return sheet.Sheet(replace(s.game, players=names, seat_changes=()),
                       replace(s.file, players=names, seat_changes=()), s.score, s.problem)


def _unavailable(s: sheet.Sheet) -> Any:
    """The page for a game whose stored deals no longer score (a rules fix, an edit)."""
    return render_template("explain/unavailable.html", sheet=s, game=s.game), 409


def _seat_arg(name: str, seats: int) -> tuple[int | None, str | None]:
    """A seat from the query (0-based): (seat, None); (None, None) when not given;
    (None, notice) when it names no player of the game."""
    raw = request.args.get(name, "").strip()
    if not raw:
        return None, None
    seat = whole_number_below(raw, seats)
    if seat is not None:
        return seat, None
    # seats are counted from 0 in the address and from 1 on the page (seat=3 is a fourth
    # player); a number in the page's digits (an Arabic page's "٩"), anything else as it came
    shown: int | str = int(raw) + 1 if raw.isdecimal() and len(raw) < 10 else raw
    return None, _("There is no player %(seat)s in this game, so every player is shown.", seat=shown)


def _deal_arg(name: str) -> tuple[int | None, str | None]:
    """A 1-based deal number from the query: (number, None), (None, None) when not given,
    (None, notice) when it is no number."""
    raw = request.args.get(name, "").strip()
    if not raw:
        return None, None
    number = whole_number_below(raw, 10_000, start=1)
    if number is not None:
        return number, None
    return None, _("“%(value)s” is not a deal number, so the next deal is shown.", value=raw)


# ----------------------------------------------------------------------------- explanations


@bp.get("/games/<game_id>/explain/<int:number>")
def deal(game_id: str, number: int) -> Any:
    """How deal ``number`` was scored, for ``?seat=S`` or every player."""
    s = _sheet(game_id)
    if not 1 <= number <= s.deal_count:
        abort(404)
    if s.file is None or s.score is None or number > len(s.score.deals):
        return _unavailable(s)
    seat, notice = _seat_arg("seat", len(s.game.players))
    s = _seated(s, number)
    assert s.file is not None and s.score is not None
    x = explanations.explain_deal(s.file, s.score, number, seat)
    return render_template("explain/deal.html", sheet=s, game=s.game, x=x, seat=seat, notice=notice,
                           deal_id=s.game.deals[number - 1].id,
                           calculator=_calculator_url(s.file, x.entry))


@bp.get("/games/<game_id>/explain/total")
def total(game_id: str) -> Any:
    """A player's total (``?seat=S``) as the sum of their deals; without a seat, a list
    of the players to choose from."""
    s = _sheet(game_id)
    if s.file is None or s.score is None:
        return _unavailable(s)
    seat, notice = _seat_arg("seat", len(s.game.players))
    before = s.game.sat_before(seat) if seat is not None else ()  # before _seated forgets who sat when
    s = _seated(s, s.deal_count + 1)
    assert s.file is not None and s.score is not None
    x = explanations.explain_total(s.file, s.score, seat, before) if seat is not None else None
    return render_template("explain/total.html", sheet=s, game=s.game, x=x, notice=notice)


@bp.get("/games/<game_id>/explain/teams")
def teams(game_id: str) -> Any:
    """Partners' totals in a partnership Trix game."""
    s = _sheet(game_id)
    if s.file is None or s.score is None:
        return _unavailable(s)
    s = _seated(s, s.deal_count + 1)
    assert s.file is not None and s.score is not None
    try:
        x = explanations.explain_teams(s.file, s.score)
    except explanations.NotExplained:
        abort(404)
    return render_template("explain/teams.html", sheet=s, game=s.game, x=x)


@bp.get("/games/<game_id>/explain/dealer")
def dealer(game_id: str) -> Any:
    """Why deal ``?deal=n`` (default: the next deal) is dealt by whom it is."""
    s = _sheet(game_id)
    if s.file is None or s.score is None:
        return _unavailable(s)
    number, notice = _deal_arg("deal")
    if number is not None and number > len(s.score.deals) + 1:
        number, notice = None, _("There is no deal %(n)s yet, so the next deal is shown.", n=number)
    x = explanations.explain_dealer(s.file, s.score, number)  # names whoever sat at each deal told of
    s = _seated(s, number or s.deal_count + 1)
    return render_template("explain/dealer.html", sheet=s, game=s.game, x=x, notice=notice)


@bp.get("/games/<game_id>/explain/kingdom/<int:number>")
def kingdom(game_id: str, number: int) -> Any:
    """A Trix kingdom's check: why its four totals add up to 0."""
    s = _sheet(game_id)
    if s.file is None or s.score is None:
        return _unavailable(s)
    try:
        x = explanations.explain_kingdom(s.file, s.score, number)
    except explanations.NotExplained:
        abort(404)
    s = _seated(s, x.check.deals[-1])  # its columns: who sat at the kingdom's last deal
    return render_template("explain/kingdom.html", sheet=s, game=s.game, x=x)


# ----------------------------------------------------------------------------- what-if


def _choice(form: Any, name: str, allowed: tuple[str, ...], own: str, notices: list[str]) -> str:
    """A what-if radio's value; blank or unknown → the game's own (an unknown one said so)."""
    value = form[name].data
    if value not in allowed:
        if value not in (None, "", "None"):
            notices.append(_("“%(value)s” is not a choice for %(setting)s, so the game's own is used.",
                             value=value, setting=form[name].label.text))
        value = own
    form[name].data = value
    return value


@bp.get("/games/<game_id>/what-if")
def what_if(game_id: str) -> Any:
    """The game re-scored under another setting (no doubling, swapped values, reversed
    scoring, the other reading of a card taken back, partners or none, another target)
    beside the real one; nothing is changed."""
    s = _sheet(game_id)
    if s.file is None or s.score is None:
        return _unavailable(s)
    game = s.game
    trix = game.kind == "trix"
    options = s.file.options
    form = forms.what_if_form(game.kind, bool(trix and options.doubling))(formdata=request.args)
    form.validate()
    notices: list[str] = []
    choice: dict[str, Any] = {}
    if trix:
        if "doubling" in form:
            choice["doubling"] = _choice(form, "doubling", ("kept", "none"), "kept", notices) != "none"
        choice["values"] = _choice(form, "values", ("standard", "swapped"), options.values, notices)
        choice["scoring"] = _choice(form, "scoring", ("standard", "reversed"), options.scoring, notices)
        if "taken_back" in form:
            choice["taken_back"] = _choice(form, "taken_back", TAKEN_BACK, options.taken_back, notices)
        choice["partnership"] = _choice(form, "partnership", ("alone", "sum", "worst-loses"),
                                        options.partnership or "alone", notices)
    elif form.target.errors or form.target.data is None:
        choice["target"] = options.target  # a bad target is said beside the field
        if not form.target.errors:
            form.target.data = options.target
    else:
        choice["target"] = form.target.data
    if s.problem is not None and s.problem.deal:
        notices.append(_("Deal %(n)s no longer fits the rules, so only the deals before it are compared.",
                         n=s.problem.deal))
    result = explanations.what_if(s.file, s.score, **choice)
    # a target that is not one is said beside its field, and nothing else: not also
    # "these are the game's own settings"
    refused = not trix and bool(form.target.errors)
    return render_template("explain/what_if.html", sheet=s, game=game, form=form, x=result,
                           notices=notices, trix=trix, refused=refused)


# ----------------------------------------------------------------------------- calculator

_TRIGAMI_SHAPES: dict[str, dict[str, Any]] = {"trigami": {"turnip": True, "tricks": 13, "suit_size": 10},
                   "bugami3": {"turnip": False, "tricks": 17, "suit_size": 13}}


def _deal_form_class(kind: str, names: tuple[str, ...], options: Any) -> type[forms.DealForm]:
    """The game's deal form for the calculator: every Trix contract is offered."""
    if kind == "trix":
        return forms.trix_form(names, offered=forms.CONTRACTS, complex_=options.complex,
                               doubling=options.doubling)
    return forms.trigami_form(names, **_TRIGAMI_SHAPES[kind])


def _calculator(args: MultiDict, submitted: bool) -> dict[str, Any]:
    """Everything the calculator shows for these query (or preview form) values: the kind,
    names, settings and deal forms, notices about values that were not understood, and
    (once ``submitted``) the deal's explanation or the problems beside the fields."""
    notices: list[str] = []
    kind = args.get("kind") or "trigami"
    if kind not in KINDS:
        notices.append(_("There is no game called “%(kind)s” here, so Trigami is shown.", kind=kind))
        kind = "trigami"
    rules = get_rules(kind)
    default_names = tuple(_("Player %(n)s", n=seat + 1) for seat in range(rules.seats))
    names = default_names
    given = args.getlist("player")
    typed: list[str] = []  # what the name fields show again: as typed
    name_problems: list[list[str]] = [[] for _seat in default_names]
    if any(name.strip() for name in given):
        if len(given) != rules.seats:
            notices.append(_("%(game)s needs %(n)s names, so the players are numbered.",
                             game=forms.KIND_NAMES[kind], n=rules.seats))
        else:
            typed = given
            checked, name_problems = forms.check_names(given, default_names)  # as a game's names
            if any(name_problems):
                notices.append(_("A name needs correcting, so the players are numbered for now."))
            else:
                names = tuple(checked)
    settings = forms.calculator_settings_form(kind)(formdata=args if "settings" in args else None)
    raw_options: dict[str, Any] = {}
    if kind == "trix":
        for name, allowed in (("values", ("standard", "swapped")), ("scoring", ("standard", "reversed")),
                              ("taken_back", TAKEN_BACK)):
            if settings[name].data not in allowed:
                if settings[name].data not in (None, "", "None"):
                    notices.append(_("“%(value)s” is not a choice for %(setting)s, so the usual one is used.",
                                     value=settings[name].data, setting=settings[name].label.text))
                settings[name].data = allowed[0]
        raw_options = {"doubling": bool(settings.doubling.data), "values": settings.values.data,
                       "scoring": settings.scoring.data, "complex": bool(settings.complex.data),
                       "taken_back": settings.taken_back.data}
    options = rules.parse_options(raw_options)
    if kind == "trix" and not options.doubling and any(
            name.endswith("_doubled_by") and value for name, value in args.items()):
        # a doubler chosen, then doubling turned off: the deal has no doubled card (SCORING.md
        # §2.3), which is said rather than dropped without a word
        notices.append(_("Doubling is off in these settings, so no card is doubled: the doublers chosen "
                         "are left out."))
    form = _deal_form_class(kind, names, options)(formdata=args if submitted else None,
                                                  meta={"csrf": False})
    result = None
    if submitted:
        valid = form.validate()
        entry = form.to_entry()
        if entry is not None and valid:
            try:
                parsed = rules.parse_deal(entry, 1, names)
                file = GameFile(kind, names, 0, options, (parsed,))
                result = explanations.explain_deal(file, file.score(), 1, calculator=True)
                form.fill(entry)  # show the counts the calculator filled in (the last tricks)
                for field in form:
                    field.raw_data = None
            except RuleError as error:
                forms.attach_error(form, error, 1)
    return {"kind": kind, "rules": rules, "names": names, "default_names": default_names,
            "typed_names": typed, "name_problems": name_problems,
            "settings": settings, "form": form, "result": result, "notices": notices,
            "submitted": submitted, "options": options}


def _calculator_url(file: GameFile, entry: dict[str, Any]) -> str:
    """The calculator filled in with a stored deal (its players, settings and counts), to
    try "what if I had…" from a deal's explanation."""
    params: list[tuple[str, str]] = [("kind", file.kind)] + [("player", name) for name in file.players]
    if file.kind == "trix":
        options = file.options
        params += [("settings", "1"), ("values", options.values), ("scoring", options.scoring),
                   ("taken_back", options.taken_back)]
        params += [(name, "y") for name in ("doubling", "complex") if getattr(options, name)]
    form = _deal_form_class(file.kind, file.players, file.options)(formdata=None, meta={"csrf": False})
    form.fill(entry)
    for field in form:
        # not `in (None, "", False)`: 0 == False, and a count of 0 must be carried over
        if field.name in ("nonce", "version", "csrf_token") or field.data is None or field.data is False \
                or field.data == "":
            continue
        if isinstance(field, BooleanField):  # a tick box (forms.fields.TickField too): what it sends
            params.append((field.name, "y"))
        elif isinstance(field.data, list | tuple):
            params += [(field.name, str(value)) for value in field.data]
        else:
            params.append((field.name, str(field.data)))
    params.append(("calc", "1"))
    return f"{url_for('explain.calculator')}?{urlencode(params)}#result"


@bp.get("/calculator")
def calculator() -> Any:
    """Score one deal without saving it (``?kind=trigami|bugami3|trix``; names as
    repeated ``player``; the deal's fields and, for Trix, the settings). "Work it out"
    sends the form here again with ``calc=1``."""
    context = _calculator(request.args, submitted="calc" in request.args)
    status = 400 if context["submitted"] and context["result"] is None else 200
    return render_template("explain/calculator.html", **context), status


@bp.get("/calculator/preview")
def calculator_preview() -> Any:
    """The calculator's live preview (JSON, as deals.preview): each player's points for
    the deal as filled in so far, or the first problem. A GET, like the calculator: it
    saves nothing."""
    context = _calculator(request.args, submitted=True)
    return preview_answer(context["form"], context["result"] and context["result"].deal)
