"""A game's history (every change, newest first, with the totals it made), restoring a
deleted deal, and the players-and-settings page. Thin: the store reads, writes and records;
history.py replays the log; the rules check every change before it is kept."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from wtforms import RadioField

from .. import actions, conflicts, explanations, forms, history, sheet, store
from ..access import card, card_closed, group_id
from ..db import get_db
from ..i18n import gettext as _
from ..records import Change, StoredGame
from ..rules import RuleError, get_rules
from ..rules.common import listed, listed_apart
from ..rules.trix import TAKEN_BACK, reading_words
from ..text import isolate, isolate_all
from .common import forget_undo, get_game_or_404, night_table_words, refused_by_disk, sent_version

bp = Blueprint("manage", __name__)


# ---------------------------------------------------------------- history and restore


def _history_page(game: StoredGame, errors: dict[int, str] | None = None,
                  twins: frozenset[int] = frozenset()) -> Any:
    db = get_db()
    told = history.build(game, store.changes(db, game.id), store.deleted_deals(db, game.id))
    return render_template("manage/history.html", game=game, history=told, errors=errors or {},
                           twins=twins, form=forms.EmptyForm())


@bp.get("/games/<game_id>/history", endpoint="history")
def show_history(game_id: str) -> Any:
    """Every change to the game, newest first, with its time and the totals before → after;
    after a refused Restore, its reason beside that deal's Restore button (once)."""
    game = get_game_or_404(game_id)
    refused = session.get("restore_refused")
    errors: dict[int, str] = {}
    twins: frozenset[int] = frozenset()
    if isinstance(refused, dict) and refused.get("game") == game.id:
        session.pop("restore_refused", None)
        errors = {refused["deal"]: refused["message"]}
        if refused.get("twin"):
            twins = frozenset([refused["deal"]])
    return _history_page(game, errors, twins)


def _refused(game: StoredGame, deal_id: int, message: str, anyway: bool = False) -> Any:
    """Back to the history, at the deal's Restore button, with why it did not go back:
    a redirect, so refreshing the page never sends the Restore again. ``anyway``: a
    question, not a refusal (the same deal is in play already, or deals added since would
    move); the button then offers to restore it anyway."""
    session["restore_refused"] = {"game": game.id, "deal": deal_id, "message": message, "twin": anyway}
    return redirect(url_for("manage.history", game_id=game.id, _anchor=f"restore-{deal_id}"))


@bp.post("/games/<game_id>/deals/<int:deal_id>/restore")
def restore(game_id: str, deal_id: int) -> Any:
    """Put a deleted deal back in its place if the game still fits the rules with it
    (actions.restore_deal); else back to the history page, which says why beside its
    Restore button, and nothing changes. Form field ``back``: "sheet" returns to the
    score sheet after a restore, anything else to the history."""
    game = get_game_or_404(game_id)
    form = forms.EmptyForm()
    back = url_for("games.show", game_id=game.id) if request.form.get("back") == "sheet" else \
        url_for("manage.history", game_id=game.id)
    if not form.validate_on_submit():
        return _refused(game, deal_id, _("This page was open too long or came from elsewhere. "
                                         "Tap Restore again."))
    # the history's Restore says beforehand that the deals after its place move down, and
    # sends the game's version it was drawn at; the flash's Restore after a delete says nothing
    seen = request.form.get("seen", "")
    result = actions.restore_deal(get_db(), game, deal_id, anyway=request.form.get("again") == "1", card=card(),
                                  ask=request.form.get("back") == "sheet" or "seen" in request.form,
                                  seen=sent_version(seen))
    match result:
        case actions.Twin(number=twin, later=True):
            return _refused(game, deal_id, _(
                "Deal %(n)s has exactly the same entries (entered again after the delete?): restoring "
                "this one would count that deal twice. Tap Restore anyway if both were really played.",
                n=twin), anyway=True)
        case actions.Twin(number=twin):  # an earlier deal, never deleted: no guess how it came
            return _refused(game, deal_id, _(
                "Deal %(n)s has exactly the same entries: if it is this deal, restoring would count it "
                "twice. Tap Restore anyway if both were really played.", n=twin), anyway=True)
        case actions.MovesLater(number=number, later=later):
            return _refused(game, deal_id, _(
                "Since this deal was deleted, deal %(later)s was added after its place. Restored, this deal "
                "is deal %(n)s again: the deals from deal %(n)s on move down one place (deal %(n)s becomes "
                "deal %(next)s), and so do their dealers. Tap Restore anyway if it was really played before "
                "them.", n=number, later=later, next=number + 1), anyway=True)
        case actions.NotFound():
            abort(404)
        case actions.CardClosed():  # the round closed at the instant of the restore
            return card_closed()
        case actions.CannotGoBack(error=error, number=number):
            return _refused(game, deal_id, _refusal(error, number))
        case actions.Restored(number=number):  # also a double tap, or another phone was quicker: the same answer
            offer = session.pop("restorable", None)
            flash(_("Deal %(n)s restored.", n=number), "saved")
            if isinstance(offer, dict) and offer.get("game") == game.id and offer.get("deal") == deal_id \
                    and offer.get("changes"):  # the change it was deleted under opens in its form
                session["restored_changes"] = {"game": game.id, "deal": deal_id, "changes": offer["changes"]}
                return redirect(url_for("deals.edit", game_id=game.id, deal_id=deal_id))
    return redirect(back)


def _refusal(error: RuleError, number: int) -> str:
    """Why a deleted deal cannot go back, in words (``number``: the number it would have
    back in its place)."""
    if error.deal is None or error.deal == number:
        return _("Deal %(n)s cannot go back in its place: %(problem)s.", n=number,
                 problem=forms.clause(error.message))
    return _("Deal %(n)s cannot go back in its place: deal %(later)s would then no longer fit "
             "(%(problem)s).", n=number, later=error.deal, problem=forms.clause(error.message))


@bp.app_context_processor
def restore_offer_context() -> dict[str, Any]:
    """``restore_offer()`` for the flash after a delete or an undo (base.html): the deal
    just deleted from this browser, with a form to restore it, or None."""

    def restore_offer() -> dict[str, Any] | None:
        offer = session.get("restorable")
        if not offer:
            return None
        return {"url": url_for("manage.restore", game_id=offer["game"], deal_id=offer["deal"]),
                "number": offer["number"], "form": forms.EmptyForm()}

    return {"restore_offer": restore_offer}


def offer_restore(game: StoredGame, deal_id: int, number: int, changes: list[list[str]] | None = None) -> None:
    """Remember the deal just deleted, so the next page's flash offers to restore it.
    ``changes``: a change of it this phone sent as it was deleted on another phone (the
    edit form's fields, [name, value] pairs): restored, the deal opens in its form with
    them (tester 34: the correction was lost, the deal back as it was)."""
    session["restorable"] = {"game": game.id, "deal": deal_id, "number": number,
                             **({"changes": changes} if changes else {})}


def restored_changes(game_id: str, deal_id: int) -> list[list[str]] | None:
    """The change a phone had sent for deal ``deal_id`` as it was deleted meanwhile, once
    that deal is restored (kept by :func:`restore` for the deal's form), taken: said once."""
    kept = session.get("restored_changes")
    if not isinstance(kept, dict) or kept.get("game") != game_id or kept.get("deal") != deal_id:
        return None
    session.pop("restored_changes", None)
    changes = kept.get("changes")
    return changes if isinstance(changes, list) else None


# ---------------------------------------------------------------- players and settings


@bp.route("/games/<game_id>/edit", methods=["GET", "POST"])
def edit_game(game_id: str) -> Any:
    """Rename players and change the settings that still fit every recorded deal. The
    form carries a one-time token (``nonce``): the same Save sent twice gets the first
    answer (store.update_game)."""
    game = get_game_or_404(game_id)
    form = forms.edit_game_form(game.kind, len(game.players), game.options.get("target"))()
    # a setting of buttons the form did not send (the page always sends one: a crafted
    # post) stays as it is, not its default (tester 36: Swapped values reset unsaid)
    unsent = [field for field in form if isinstance(field, RadioField) and field.name not in request.form] \
        if form.is_submitted() else []
    if unsent:
        kept = _fresh_edit_form(game)
        for field in unsent:
            field.data = kept[field.name].data
    nonce = request.form.get("nonce", "") if form.is_submitted() else ""
    if not (0 < len(nonce) <= 64):
        nonce = secrets.token_urlsafe(16)
    known = store.known_players(get_db(), group_id())
    merges: dict[int, str] = {}
    reading = None
    asking = False
    if not form.is_submitted():
        form.fill(game.players, game.options)
    elif form.validate():
        players = form.players()
        merges = _merges(game, players, known)
        confirmed = set(request.form.getlist("confirm_player"))
        reading = _reading_change(game, form)
        asking = any(store.name_key(name) not in confirmed for name in merges.values()) or reading is not None
        # the same Save sent again (a double tap): the first send's answer, asking nothing
        # (its new name is a known player by now, having been saved by it)
        asking = asking and not actions.sent_already(get_db(), game.id, nonce)
        if asking:
            rules = get_rules(game.kind)
            parsed = form.parsed_options(rules)  # a setting's own problem is said at once too
            problem = (actions.change_problem(game, players, rules.dump_options(parsed))
                       if players is not None and parsed is not None else None)
            if problem is not None:  # said now, not after a question whose answer it refuses
                _change_refused(form, game, rules.dump_options(parsed), problem)
                asking = False
        else:
            message = _save(form, game, players, nonce)
            if message is not None:
                flash(message, "saved")
                forget_undo()
                return redirect(url_for("games.show", game_id=game.id))
    elif forms.csrf_failed(form):
        form.form_errors.append(_("This page was open too long. Your changes are kept: tap Save again."))
    status = 200 if not form.is_submitted() or (asking and not form.errors) else 400
    seen = request.form.get("seen", str(game.version)) if form.is_submitted() else str(game.version)
    if getattr(form, "stale_version", None) is not None:
        seen, status = str(form.stale_version), 409
    return _edit_page(game, form, seen=seen, nonce=nonce, known=known, merges=merges if asking else {},
                      reading=reading if asking else None), status


def _reading_change(game: StoredGame, form: Any) -> explanations.ReadingChange | None:
    """What the form's new reading of a card taken back (Trix ``taken_back``) would do to
    the game, when it differs from the game's and this form was not told so yet (the
    page asks before the game is scored again; its hidden ``confirm_taken_back`` holds
    the reading it was told about); else None."""
    if game.kind != "trix" or "taken_back" not in form:
        return None
    new = form.taken_back.data
    if new == game.options.get("taken_back", "leader") or request.form.get("confirm_taken_back") == new:
        return None
    if new not in TAKEN_BACK:
        return None  # no reading the form offers (a crafted form): the rules refuse it on save (tester 52)
    s = sheet.build(game)
    if s.file is None or s.score is None:
        return None  # the rules refuse the change with their reason when it is saved
    try:
        return explanations.reading_change(s.file, s.score, new)
    except RuleError:
        return None


def _edit_page(game: StoredGame, form: Any, *, seen: str, nonce: str, known: list[str],
               merges: dict[int, str] | None = None, seat_form: Any = None,
               seat_errors: list[str] | None = None, reading: explanations.ReadingChange | None = None) -> str:
    """The players-and-settings page: the names and settings ``form``, and below it who
    took over a seat (each with Take back while no deal was added after it) and the
    seat-change form ``seat_form`` (a fresh one when None) with ``seat_errors`` above it;
    ``reading``: the new reading of a card taken back and what it changes, asked about
    before Save is tapped again."""
    scored = sheet.build(game)
    next_deal = len(game.deals) + 1
    if seat_form is None:
        seat_form = forms.seat_change_form(game.players_now)(formdata=None)
        seat_form.from_deal.data = str(next_deal)
        seat_form.seen.data = str(game.version)
    changes = [{"change": c, "from_deal": game.from_deal(c),
                "replaces": game.players_at(game.from_deal(c) - 1)[c.seat],
                "can_take_back": game.from_deal(c) == next_deal} for c in game.seat_changes]
    merges = merges or {}
    return render_template("manage/edit.html", form=form, game=game, night_table=night_table_words(game.id), rules=get_rules(game.kind), seen=seen,
                           nonce=nonce, known=known, merges=merges,
                           confirmed=sorted({store.name_key(n) for n in merges.values()}),
                           seat_form=seat_form, seat_errors=seat_errors or [], seat_changes=changes,
                           next_deal=next_deal, can_take_seat=bool(game.deals) and not scored.finished,
                           finished=scored.finished, take_back_form=forms.EmptyForm(), reading=reading,
                           reading_said=reading_words(reading.taken_back) if reading else None)


def _fresh_edit_form(game: StoredGame) -> Any:
    form = forms.edit_game_form(game.kind, len(game.players), game.options.get("target"))(formdata=None)
    form.fill(game.players, game.options)
    return form


@bp.get("/games/<game_id>/seats")
@bp.get("/games/<game_id>/seats/<int:change_id>/take-back")
def seat_form_page(game_id: str, change_id: int | None = None) -> Any:
    """The address a refused seat change was answered at, opened again (a reload after
    the browser's warning, a tab brought back, the address shared; tester 46: "that page
    cannot be used like that"): the seat-change form it came from."""
    get_game_or_404(game_id)
    return redirect(url_for("manage.edit_game", game_id=game_id) + "#seat-change")


@bp.post("/games/<game_id>/seats")
def take_seat(game_id: str) -> Any:
    """Someone takes over a seat from the next deal on (issue 18, part 3;
    actions.take_seat): back to the score sheet, whose head then names who sits now and
    who sat before; refused (nothing written) with the reason beside the seat-change form
    on the players-and-settings page."""
    game = get_game_or_404(game_id)
    seat_form = forms.seat_change_form(game.players_now)()
    errors: list[str] = []
    status = 400
    chosen = seat_form.chosen() if seat_form.validate_on_submit() else None
    if forms.csrf_failed(seat_form):
        errors.append(_("This page was open too long. Your entries are kept: tap the button again."))
    if chosen is not None:
        seat, name = chosen
        now = game.players_now
        key = store.name_key(name)
        # the same form sent again (a double tap): its first answer, from the store
        sent = actions.sent_already(get_db(), game.id, seat_form.nonce.data)
        if not sent and store.name_key(now[seat]) == key:
            seat_form.player.errors = [_("%(name)s sits at that seat already.", name=isolate(now[seat]))]
        elif not sent and any(store.name_key(other) == key for s, other in enumerate(now) if s != seat):
            seat_form.player.errors = [_("%(name)s sits at another seat: one player cannot play two seats at "
                                         "once.", name=isolate(name))]
        else:
            shown, seen = seat_form.from_deal.data or "", seat_form.seen.data or ""
            result = actions.take_seat(get_db(), game.id, seat=seat, player=name,
                                       from_deal=int(shown) if shown.isdecimal() and len(shown) < 9 else None,
                                       seen=sent_version(seen),
                                       nonce=seat_form.nonce.data)
            match result:
                case actions.SeatTaken(player=player, replaces=old, from_deal=number):
                    flash(_("%(player)s takes %(old)s's seat from deal %(n)s: points stay with the seat.",
                            player=isolate(player), old=isolate(old), n=number), "saved")
                    forget_undo()
                    return redirect(url_for("games.show", game_id=game.id))
                case actions.SeatTakenBack(player=player, replaces=old, from_deal=number):
                    # the seat's player before a change still to play: that change taken back
                    flash(_("Taken back: %(old)s plays on from deal %(n)s, not %(player)s.", old=isolate(old),
                            player=isolate(player), n=number), "saved")
                    forget_undo()
                    return redirect(url_for("games.show", game_id=game.id))
                case actions.SeatNotChanged(reason="rules", error=error) if error is not None:
                    seat_form.player.errors = [forms.sentence(error.message)]
                case actions.SeatNotChanged(reason="no_seat"):  # (a page of this game offers none)
                    seat_form.seat.errors = [str(forms.NO_SUCH_SEAT)]
                case actions.SeatNotChanged(reason="taken_meanwhile", number=number):
                    # another phone gave this seat to someone from the same deal: asked, not replaced
                    game = get_game_or_404(game_id)
                    seat_form.seen.data = str(game.version)
                    errors.append(_("%(player)s was given this seat from deal %(n)s on another phone meanwhile. "
                                    "To give it to %(name)s instead, tap the button again.",
                                    player=isolate(game.players_now[seat]), n=number, name=isolate(name)))
                    status = 409
                case actions.SeatNotChanged(reason=reason, number=number):
                    game = get_game_or_404(game_id)
                    seat_form.from_deal.data = str(len(game.deals) + 1)
                    seat_form.seen.data = str(game.version)
                    errors.append(_seat_refusal(reason, number, game))
                    status = 400 if reason == "not_next" else 409
    seat_form.nonce.data = seat_form.nonce.data or secrets.token_urlsafe(16)
    return _edit_page(game, _fresh_edit_form(game), seen=str(game.version), nonce=secrets.token_urlsafe(16),
                      known=store.known_players(get_db(), group_id()), seat_form=seat_form,
                      seat_errors=errors), status


@bp.post("/games/<game_id>/seats/<int:change_id>/take-back")
def take_seat_back(game_id: str, change_id: int) -> Any:
    """Take back a seat change entered by mistake, while no deal was added after it
    (actions.take_seat_back, checked inside the write): back to the score sheet; refused
    with the reason on the players-and-settings page."""
    game = get_game_or_404(game_id)
    form = forms.EmptyForm()
    errors: list[str] = []
    if not form.validate_on_submit():
        errors.append(_("This page was open too long or came from elsewhere. Tap Take back again."))
    else:
        result = actions.take_seat_back(get_db(), game.id, change_id)
        match result:
            case actions.SeatTakenBack(player=player, replaces=old, from_deal=number):
                flash(_("Taken back: %(old)s plays on from deal %(n)s, not %(player)s.", old=isolate(old),
                        player=isolate(player), n=number), "saved")
                forget_undo()
                return redirect(url_for("games.show", game_id=game.id))
            case actions.SeatNotChanged(reason="gone"):
                flash(_("That seat change was taken back already."), "saved")
                return redirect(url_for("games.show", game_id=game.id))
            case actions.SeatNotChanged(reason="rules", error=error) if error is not None:
                errors.append(_("It cannot be taken back: %(problem)s.", problem=forms.clause(error.message)))
            case actions.SeatNotChanged(reason=reason, number=number):
                errors.append(_seat_refusal(reason, number, game, change_id))
        game = get_game_or_404(game_id)
    return _edit_page(game, _fresh_edit_form(game), seen=str(game.version), nonce=secrets.token_urlsafe(16),
                      known=store.known_players(get_db(), group_id()), seat_errors=errors), 409


@bp.route("/games/<game_id>/first-dealer", methods=["GET", "POST"])
def first_dealer(game_id: str) -> Any:
    """Who deals first (Trix: who holds the 7♥ and owns the first kingdom) while no deal
    is in play (actions.set_first_dealer): a club night's table is seated with seat 0
    first before the cards are dealt (docs/club-nights.md), and a new game's tap may
    have been the wrong one. Back to the score sheet (or, ``then=deal``, to the first
    deal's form) with what changed; refused beside the chips when a deal was saved
    meanwhile (409). A table card may say it for its own table, as it enters its deals."""
    game = get_game_or_404(game_id)
    form = forms.first_dealer_form(game.kind, game.players)()
    then = "deal" if request.values.get("then") == "deal" else None
    status = 409 if game.deals else 200
    if not form.is_submitted():
        form.seat.data = str(game.first_dealer)
    elif not form.validate() and forms.csrf_failed(form):  # (validate reads the form's token)
        form.form_errors.append(_("This page was open too long. Tap Save again."))
        status = 400
    elif (seat := form.chosen()) is None:
        status = 400
    elif not game.deals:
        result = actions.set_first_dealer(get_db(), game.id, seat, nonce=form.nonce.data, card=card())
        match result:
            case actions.FirstDealerSet():
                # who deals first as stored: the same form sent again changes nothing, and
                # is told what its first send did (tester 72: it named the seat tapped last)
                game = get_game_or_404(game_id)
                names = isolate(game.players[game.first_dealer])
                flash(_("%(name)s holds the 7♥ and owns the first kingdom.", name=names) if game.kind == "trix"
                      else _("%(name)s deals first.", name=names), "saved")
                forget_undo()
                if then == "deal":
                    return redirect(url_for("deals.new", game_id=game.id))
                return redirect(url_for("games.show", game_id=game.id))
            case actions.FirstDealPlayed():
                game = get_game_or_404(game_id)  # a deal saved on another phone meanwhile
                status = 409
            case actions.CardClosed():  # the round closed at the instant of the save
                return card_closed()
            case actions.DiskFull(error=refused):
                return render_template("error.html", code=507, message=refused_by_disk(refused)), 507
    return render_template("manage/first_dealer.html", game=game, form=form, then=then), status


def _seat_refusal(reason: str, number: int | None, game: StoredGame | None = None,
                  change_id: int | None = None) -> str:
    """Why a seat change (or its take-back) was not made, in words."""
    if reason == "night_table":
        return _("Nothing was changed. %(why)s", why=night_table_words(game.id) if game else "")
    if reason == "no_deal":
        return _("No deal has been played yet: change the name under Names instead.")
    if reason == "finished":
        return _("The game is over: there is no next deal to take a seat in.")
    if reason == "moved":
        return _("A deal was added or removed on another phone meanwhile: the seat would now be taken from "
                 "deal %(n)s. Check and tap the button again.", n=number)
    if reason == "not_next":
        return _("A seat is taken over from the next deal only: this one from deal %(n)s. Check and tap the "
                 "button again.", n=number)
    if reason == "deal_after":
        change = next((c for c in game.seat_changes if c.id == change_id), None) if game else None
        if change is not None:
            return _("%(player)s has played deal %(n)s already, so this can no longer be taken back. If "
                     "%(old)s plays on, let %(old)s take the seat back from the next deal.",
                     player=isolate(change.player), n=number,
                     old=isolate(game.players_at((number or 1) - 1)[change.seat]) if game else "?")
        return _("A deal was played after it already, so it can no longer be taken back.")
    return _("Nothing was changed.")


def _merges(game: StoredGame, players: tuple[str, ...] | None, known: list[str]) -> dict[int, str]:
    """Seats renamed to a player already known here (another person's record, in any
    case): {seat: that player's name as stored}. Saving makes the seat that player, so
    the game moves into their statistics: the page asks once before it does."""
    if players is None:
        return {}
    stored = {store.name_key(name): name for name in known}
    renamed = zip(game.players, players, strict=True)
    return {seat: stored[store.name_key(new)] for seat, (old, new) in enumerate(renamed)
            if store.name_key(new) != store.name_key(old) and store.name_key(new) in stored}


def _save(form: Any, game: StoredGame, players: tuple[str, ...] | None, nonce: str) -> str | None:
    """Save ``players`` (the form's names, checked: form.players()) and the form's
    settings with the form's token ``nonce``; the flash message (what this form changed,
    the same when it is sent again), or None after putting every problem beside its
    field (nothing saved)."""
    rules = get_rules(game.kind)
    parsed = form.parsed_options(rules)
    if players is None or parsed is None:
        return None
    options = rules.dump_options(parsed)
    seen = request.form.get("seen", "")
    result = actions.change_game(get_db(), game.id, players=players, options=options,
                                 seen=sent_version(seen), nonce=nonce)
    match result:
        case actions.Stale(game=now, arrived=arrived, set_back=set_back):
            # renamed or re-set on another phone since this page was opened: the form shows
            # both changes put together (what this phone left alone takes the other's), and
            # a second Save saves what it shows
            names, settings = conflicts.merged_settings(arrived, players, options, now)
            form.fill(names, settings)
            if set_back:  # the database put back from a backup since the page was opened
                form.notices.append(conflicts.set_back_words() + ".")
            # told, not problems to put right (tester 36: "Nothing was saved: 2 things to put right")
            form.notices.append(_("The players or settings were changed on another phone while this page "
                                  "was open (now: %(names)s). Their changes are now in the form and yours "
                                  "are kept: check, then tap Save again.", names=listed(isolate_all(now.players))))
            theirs = conflicts.settings_changed_meanwhile(arrived, now)
            if theirs:  # said, also where this phone's own change of the same field is kept
                form.notices.append(_("The other phone changed: %(changes)s.", changes=listed(theirs)))
            form.stale_version = now.version
        case actions.Refused(error=error):
            _change_refused(form, game, options, error)
        case actions.NightTable():
            form.form_errors.append(_("Nothing was changed."))  # the page says why, once (night_table)
        case actions.GameChanged(made=made):
            return _saved(game.kind, made)
    return None


def _change_refused(form: Any, game: StoredGame, options: dict[str, Any], error: RuleError) -> None:
    """Say why the rules refuse the form's change (``options`` as it would store them):
    beside the one setting it concerns, else at the top; nothing was changed."""
    changed = [key for key in options if options[key] != game.options.get(key)]
    message = forms.capitalized(forms.clause(error.message)) if error.deal is None else \
        _("Deal %(n)s would no longer fit: %(problem)s", n=error.deal, problem=forms.clause(error.message))
    _setting_error(form, changed, _("Nothing was changed. %(problem)s.", problem=message))


def _saved(kind: str, made: list[Change]) -> str:
    """What a form's changes ``made`` (oldest first) did, as the flash says it: each
    renamed seat and each setting, from before the first to after the last."""
    said = []
    renamed = [c for c in made if c.action == "players_renamed"]
    if renamed:
        pairs = [history.renamed(old, new) for old, new in
                 zip(renamed[0].before["players"], renamed[-1].after["players"], strict=True) if old != new]
        if pairs:
            said.append(_("Players renamed: %(names)s.", names=listed(pairs)))
        # the same name but for capitals or spacing is the same player: respelled in every
        # game (store.update_game), said so (tester 33: the other games changed unsaid)
        respelled = [new for old, new in zip(renamed[0].before["players"], renamed[-1].after["players"], strict=True)
                     if old != new and store.name_key(old) == store.name_key(new)]
        if respelled:
            said.append(_("The same player, spelled anew in every game of the group: %(names)s.",
                          names=listed(isolate_all(respelled))))
    settings = [c for c in made if c.action == "settings_changed"]
    if settings:
        changes = history.settings_changes(kind, settings[0].before["options"], settings[-1].after["options"])
        if changes:
            said.append(_("Settings changed: %(changes)s.", changes=listed_apart(changes)))
    return " ".join(said) or _("Nothing was changed.")


def _setting_error(form: Any, keys: list[str], message: str) -> None:
    """Put ``message`` beside the one setting it concerns, else at the top of the form."""
    fields = {"order": "order_1"}
    if len(keys) == 1 and fields.get(keys[0], keys[0]) in form:
        field = form[fields.get(keys[0], keys[0])]
        field.errors = [*field.errors, message]
    else:
        form.form_errors.append(message)


