"""A game's history (every change, newest first, with the totals it made), restoring a
deleted deal, and the players-and-settings page. Thin: the store reads, writes and records;
history.py replays the log; the rules check every change before it is kept."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from .. import forms, history, store
from ..db import get_db
from ..rules import RuleError, get_rules
from .games import get_game_or_404

bp = Blueprint("manage", __name__)


# ---------------------------------------------------------------- history and restore


def _history_page(game: store.StoredGame, errors: dict[int, str] | None = None, status: int = 200) -> Any:
    db = get_db()
    told = history.build(game, store.changes(db, game.id), store.deleted_deals(db, game.id))
    return render_template("manage/history.html", game=game, history=told, errors=errors or {},
                           form=forms.EmptyForm()), status


@bp.get("/games/<game_id>/history", endpoint="history")
def show_history(game_id: str) -> Any:
    """Every change to the game, newest first, with its time and the totals before → after."""
    return _history_page(get_game_or_404(game_id))


@bp.post("/games/<game_id>/deals/<int:deal_id>/restore")
def restore(game_id: str, deal_id: int) -> Any:
    """Put a deleted deal back in its place if the game still fits the rules with it;
    else the history page says why beside its Restore button, and nothing changes.
    Form field ``back``: "sheet" returns to the score sheet, anything else to the history."""
    game = get_game_or_404(game_id)
    form = forms.EmptyForm()
    back = url_for("games.show", game_id=game.id) if request.form.get("back") == "sheet" else \
        url_for("manage.history", game_id=game.id)
    if not form.validate_on_submit():
        return _history_page(game, {deal_id: _("This page was open too long or came from elsewhere. "
                                              "Tap Restore again.")}, 400)
    try:
        number = store.restore_deal(get_db(), game.id, deal_id)
    except store.NotFoundError:
        abort(404)
    except store.NotDeletedError:  # a double tap, or another phone was quicker
        now = store.get_game(get_db(), game.id)
        flash(_("Deal %(n)s is already back in the game.", n=now.deal_index(deal_id) + 1), "saved")
        return redirect(back)
    except RuleError as error:
        return _history_page(game, {deal_id: _refusal(game, deal_id, error)}, 400)
    session.pop("restorable", None)
    flash(_("Deal %(n)s restored.", n=number), "saved")
    return redirect(back)


def _refusal(game: store.StoredGame, deal_id: int, error: RuleError) -> str:
    """Why a deleted deal cannot go back, in words."""
    deal = next(d for d in store.deleted_deals(get_db(), game.id) if d.id == deal_id)
    number = history.number_if_restored(game, deal)
    if error.deal is None or error.deal == number:
        return _("Deal %(n)s cannot go back in its place: %(problem)s.", n=number,
                 problem=error.message)
    return _("Deal %(n)s cannot go back in its place: deal %(later)s would then no longer fit "
             "(%(problem)s).", n=number, later=error.deal, problem=error.message)


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


def offer_restore(game: store.StoredGame, deal_id: int, number: int) -> None:
    """Remember the deal just deleted, so the next page's flash offers to restore it."""
    session["restorable"] = {"game": game.id, "deal": deal_id, "number": number}


# ---------------------------------------------------------------- players and settings


@bp.route("/games/<game_id>/edit", methods=["GET", "POST"])
def edit_game(game_id: str) -> Any:
    """Rename players and change the settings that still fit every recorded deal."""
    game = get_game_or_404(game_id)
    form = forms.edit_game_form(game.kind, len(game.players))()
    if not form.is_submitted():
        form.fill(game.players, game.options)
    elif form.validate():
        message = _save(form, game)
        if message is not None:
            flash(message, "saved")
            return redirect(url_for("games.show", game_id=game.id))
    elif forms.csrf_failed(form):
        form.form_errors.append(_("This page was open too long. Your changes are kept: tap Save again."))
    return render_template("manage/edit.html", form=form, game=game, rules=get_rules(game.kind),
                           known=store.known_players(get_db())), 400 if form.is_submitted() else 200


def _save(form: Any, game: store.StoredGame) -> str | None:
    """Save the form's names and settings; the flash message, or None after putting every
    problem beside its field (nothing saved)."""
    rules = get_rules(game.kind)
    players = form.players()
    parsed = form.parsed_options(rules)
    if players is None or parsed is None:
        return None
    options = rules.dump_options(parsed)
    try:
        done = store.update_game(get_db(), game.id, players=players, options=options)
    except RuleError as error:
        changed = [key for key in options if options[key] != game.options.get(key)]
        message = forms.capitalized(error.message) if error.deal is None else \
            _("Deal %(n)s would no longer fit: %(problem)s", n=error.deal, problem=error.message)
        _setting_error(form, changed, _("Nothing was changed. %(problem)s.", problem=message))
        return None
    said = []
    if "players_renamed" in done:
        now = store.get_game(get_db(), game.id).players
        said.append(_("Players renamed: %(names)s.", names=", ".join(
            history.renamed(old, new) for old, new in zip(game.players, now, strict=True) if old != new)))
    if "settings_changed" in done:
        said.append(_("Settings changed: %(changes)s.", changes="; ".join(
            history.settings_changes(game.kind, game.options, options))))
    return " ".join(said) or _("Nothing was changed.")


def _setting_error(form: Any, keys: list[str], message: str) -> None:
    """Put ``message`` beside the one setting it concerns, else at the top of the form."""
    fields = {"order": "order_1"}
    if len(keys) == 1 and fields.get(keys[0], keys[0]) in form:
        field = form[fields.get(keys[0], keys[0])]
        field.errors = [*field.errors, message]
    else:
        form.form_errors.append(message)
