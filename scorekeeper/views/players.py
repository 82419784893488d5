"""Players: the group's ranking (ratings.py: openskill ratings from finished games, over
a chosen period and game), everyone's games played and won, and each player's rating,
statistics and results across games. Thin: store reads, ratings and stats count
(scorekeeper/ratings.py, stats.py), charts draws."""

from __future__ import annotations

import threading
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from cachetools import LRUCache
from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for

from .. import actions, groups, locale_numbers, night_store, ratings, stats, store, summaries
from ..access import group_id
from ..db import get_db
from ..forms.players import PlayerNameForm, RankingForm
from ..i18n import gettext as _
from ..i18n import ngettext
from ..text import isolate
from .common import night_title
from .pages import shared, shared_hourly
from .past import _day_after, _day_start, results_charts, time_zone

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


@bp.app_template_filter("rating")
def rating_value(rating: ratings.Rating) -> str:
    """A rating as the pages show it: mu ± sigma, one decimal each, in the page's digits
    and decimal sign ("27.4 ± 4.1", "27,4 ± 4,1", "٢٧٫٤ ± ٤٫١"), no-break spaces around ±."""
    return _plus_minus(rating.mu, rating.sigma)


@bp.app_template_filter("ranked_by")
def ranked_by(rating: ratings.Rating) -> str:
    """What the ranking orders by (:attr:`ratings.Rating.ordinal`, the rating less three
    times its ±), two decimals in the page's digits and decimal sign ("12.04", "−1.43",
    "١٢٫٠٤"): shown under the rating, so a higher rating ranked lower is not a puzzle;
    two decimals, so that two players shown alike are level (one decimal showed 7.3 and
    7.3 on two ranks: tester 8)."""
    return locale_numbers.decimal(rating.ordinal, places=2)


def _plus_minus(mu: float, sigma: float) -> str:
    # no-break spaces: the rating and its ± stay on one line wherever they are
    return f"{locale_numbers.decimal(mu)}\u00a0±\u00a0{locale_numbers.decimal(sigma)}"


def first_rating() -> str:
    """Everyone's rating before their first game, as the pages write it ("25.0 ± 8.3")."""
    return _plus_minus(*ratings.first_rating())


# The group's ranking is worked out from all its finished games (about half a second for
# 5,000): kept per group version and filters, so that the players list and every player
# page drawn for one version of the games share one working-out.
_ranked: LRUCache[Hashable, list[ratings.RankedRow]] = LRUCache(maxsize=64)
_ranked_lock = threading.Lock()


def ranked(since: str | None = None, before: str | None = None, kind: str | None = None) -> list[ratings.RankedRow]:
    """The request's group's ranking (ratings.ranking) over ``since`` … ``before`` (UTC
    ISO 8601) and ``kind``, kept per version of the group's games."""
    db, group = get_db(), group_id()
    key = (current_app.config["DATABASE"], group, groups.version(db, group), since, before, kind)
    with _ranked_lock:
        rows = _ranked.get(key)
    if rows is None:
        rows = ratings.ranking(db, group, since=since, before=before, kind=kind)
        with _ranked_lock:
            _ranked[key] = rows
    return rows


@dataclass(frozen=True)
class Period:
    """The period a filter form (forms.players.RankingForm) chose: ``first`` and ``last``
    day (both included; None: no bound), ``since`` and ``before`` the stored times they
    bound (UTC ISO 8601), ``kind`` the game or None, ``local_days`` whether the days are
    the viewer's time zone's (else UTC's), ``filtered`` whether anything narrows it."""

    first: date | None
    last: date | None
    since: str | None
    before: str | None
    kind: str | None
    local_days: bool

    @property
    def filtered(self) -> bool:
        return bool(self.first or self.last or self.kind)


def chosen_period(form: RankingForm) -> Period:
    """Validate ``form`` (built from the query string) and read the period it chose: a
    field that does not parse keeps its message and bounds nothing (RankingForm.days);
    "this year" and "last 12 months" end today in the viewer's time zone."""
    form.validate()
    zone = time_zone(form.tz.data) or UTC
    first, last = form.days(datetime.now(zone).date())
    after = _day_after(last) if last else None
    return Period(first, last, _day_start(first, zone) if first else None,
                  _day_start(after, zone) if after else None, form.chosen_kind, zone is not UTC)


@bp.get("/players")
@shared_hourly
def index() -> Any:
    """The group's ranking, filtered by period and game (RankingForm; a filter that does
    not parse is shown with its message beside its field and what was typed, not
    applied, status 200 as on the games list and the season),
    above everyone who has played: games played and won, each linked to those games."""
    form = RankingForm(formdata=request.args)
    period = chosen_period(form)
    page = render_template(
        "players/index.html", lines=summaries.records(get_db(), group_id()), form=form, period=period,
        ranking=ranked(period.since, period.before, period.kind), local_days=period.local_days,
        filtered=period.filtered, first=period.first, last=period.last, start=first_rating())
    return page


@bp.get("/players/<int:player_id>")
@shared
def show(player_id: int) -> Any:
    """One player's rating, statistics across games, results charts and head-to-head
    records."""
    names = store.player_names(get_db(), group_id())
    if player_id not in names:
        abort(404)
    player = summaries.player_stats(get_db(), player_id, names)
    rows = ranked()
    row = next((row for row in rows if row.player_id == player_id), None)
    return render_template("players/show.html", player=player, charts=results_charts(player),
                           rating=row, rated=len(rows), start=first_rating())


@bp.route("/players/<int:player_id>/name", methods=["GET", "POST"])
def name(player_id: int) -> Any:
    """A player's name changed in every game and club night of the group (tester 51: a
    typo, "Mikka" for "Mika", had to be put right one game at a time). The name of
    another player here asks first, then makes the two one player (actions.rename_player);
    two who played together are refused, saying where. Done: back to the player's page
    (the other player's, when two became one), saying what changed."""
    db, group = get_db(), group_id()
    names = store.player_names(db, group)
    if player_id not in names:
        abort(404)
    was = names[player_id]
    form = PlayerNameForm(data={"name": was, "was": was} if request.method == "GET" else None)
    if not form.is_submitted():
        return render_template("players/name.html", form=form, player_id=player_id, was=was)
    if not form.validate():
        return render_template("players/name.html", form=form, player_id=player_id, was=was), 400
    done = actions.rename_player(db, group, player_id, form.cleaned, confirmed=form.confirm.data or None,
                                 was=form.was.data or None)
    if isinstance(done, actions.PlayerNamed):
        if done.merged:
            flash(ngettext("%(old)s and %(name)s are one player now: %(num)s game moved to %(name)s.",
                           "%(old)s and %(name)s are one player now: %(num)s games moved to %(name)s.",
                           done.games, old=isolate(was), name=isolate(done.name)), "success")
        elif done.name != was:
            flash(_("%(old)s is %(name)s now, in every game.", old=isolate(was), name=isolate(done.name)), "success")
        return redirect(url_for("players.show", player_id=done.player_id))
    if done.reason == "gone":
        abort(404)
    form.was.data = was
    if done.reason == "changed":  # renamed on another phone since this page was drawn: said, asked again
        form.name.errors = [_("Renamed on another phone meanwhile: this player is %(name)s now. Type the name again "
                              "if it should still change.", name=isolate(done.other))]
        return render_template("players/name.html", form=form, player_id=player_id, was=was), 409
    if done.reason == "confirm":
        form.confirm.data = store.name_key(form.cleaned)
        return render_template("players/name.html", form=form, player_id=player_id, was=was, merge=done)
    # where the two played together, each named (a deleted game by the list of deleted games)
    shown = [game_id for game_id in done.games if not store.is_deleted(db, game_id)]
    together = [store.get_game(db, game_id) for game_id in shown]
    nights = [night_store.get_night(db, night_id) for night_id in done.nights]
    form.name.errors = [ngettext(
        "%(name)s and %(old)s both played in %(num)s game or club night: they are two players, so they cannot "
        "be made one.", "%(name)s and %(old)s both played in %(num)s games or club nights: they are two players, "
        "so they cannot be made one.", len(done.games) + len(done.nights), name=isolate(done.other), old=isolate(was))]
    return render_template("players/name.html", form=form, player_id=player_id, was=was, together=together,
                           nights=[(night.id, night_title(night)) for night in nights],
                           deleted=len(done.games) - len(shown)), 409
