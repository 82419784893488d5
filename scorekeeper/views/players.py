"""Players: everyone's games played and won, and each player's statistics and results
across games. Thin: store reads, stats counts (scorekeeper/stats.py), charts draws."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template

from .. import locale_numbers, stats, store, summaries
from ..access import group_id
from ..db import get_db
from .pages import shared
from .past import results_charts

bp = Blueprint("players", __name__)


@bp.app_template_filter("figure_value")
def figure_value(figure: stats.Figure) -> str:
    """A figure's number as the page shows it, in the page's digits (locale_numbers.py): a count
    as it is, an average with one decimal (the language's decimal sign), points signed as
    on the score sheet (+12.5, −15.0: a real minus sign), "–" when there is nothing to
    average."""
    if figure.value is None:
        return "–"
    points = figure.key.endswith(".points")
    if figure.average:
        return locale_numbers.decimal(figure.value, plus=points)
    # not an average: a count or a sum of points, a whole number (stats.Figure)
    whole = int(figure.value)
    return locale_numbers.signed(whole) if points else locale_numbers.number(whole)


@bp.get("/players")
@shared
def index() -> str:
    """Everyone who has played: games played and won, each linked to those games."""
    return render_template("players/index.html", lines=summaries.records(get_db(), group_id()))


@bp.get("/players/<int:player_id>")
@shared
def show(player_id: int) -> Any:
    """One player's statistics across games, results charts and head-to-head records."""
    names = store.player_names(get_db(), group_id())
    if player_id not in names:
        abort(404)
    player = summaries.player_stats(get_db(), player_id, names)
    return render_template("players/show.html", player=player, charts=results_charts(player))
