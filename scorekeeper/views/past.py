"""Past games: the home page's filters and lists, and the charts of the score sheet and
the player page. Thin glue: store reads, stats counts, charts draws; no SQL here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, time, timedelta, tzinfo
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from flask import abort, url_for

from .. import charts, forms, locale_numbers, night_store, stats, store, summaries
from ..access import group_id
from ..db import get_db
from ..i18n import gettext as _
from ..inputs import whole_number_below
from ..rules.common import listed
from ..sheet import Sheet
from ..text import isolate


@cache
def _zone_names() -> frozenset[str]:
    """The names of the IANA time zones this computer knows (tzdata or the system's)."""
    return frozenset(available_timezones())


def time_zone(name: str | None) -> tzinfo | None:
    """The IANA time zone called ``name`` (sent by the browser's script), or None for
    anything else: only a known zone's name is looked up, never a path ("America" is a
    folder of zones, "../x" a file outside them)."""
    if not name or len(name) > 64 or name not in _zone_names():
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # listed, yet unreadable
        return None


def _day_start(day: Any, zone: tzinfo) -> str | None:
    """The first moment of ``day`` (a date) in ``zone``, as a stored time (UTC ISO 8601);
    None when that moment falls outside the years 1 to 9999 in UTC, which no game was
    started in, so that the day bounds nothing: 1 January of the year 1 in a time zone
    east of UTC as the first day, or the day after 31 December 9999 as the end of the
    last."""
    try:
        return datetime.combine(day, time.min, tzinfo=zone).astimezone(UTC).isoformat(timespec="seconds")
    except OverflowError:
        return None


def _day_after(day: Any) -> Any:
    """The day after ``day`` (a date), or None after 31 December 9999 (no such day)."""
    try:
        return day + timedelta(days=1)
    except OverflowError:
        return None


#: Games on one page of the past games list
PAGE_SIZE = 20
#: Unfinished games shown above the finished ones when not asked for alone
UNFINISHED_SHOWN = 10


def past_games(args: Mapping[str, str]) -> dict[str, Any]:
    """What templates/games/index.html shows for the query ``args``: the filter form
    (kind, player — anyone who has sat in a game —, status, from, to; ``tz`` the viewer's
    time zone, filled in by static/app.js, else days are UTC days; ``figure`` a player
    page figure whose games to show), the ``unfinished`` and ``finished`` games that
    pass (summaries.Page, newest first, ``page`` the page of the list asked for), and
    ``figure`` (a stats.Figure) when one was asked for. Read from the games' summaries
    (summaries.py), never by scoring every game. A filter that does not parse is shown
    with its error and not applied; a day at the calendar's ends (the last day 31
    December 9999, the first 1 January of the year 1) bounds nothing; a time zone that
    is not one counts days in UTC. Aborts with 404 for a figure the player does not
    have."""
    db = get_db()
    group = group_id()
    names = summaries.seated_players(db, group)
    form = forms.past_games_form(names)(formdata=args, meta={"csrf": False})
    form.validate()
    zone = time_zone(form.tz.data)
    kind = (form.kind.data or None) if not form.kind.errors else None
    player = int(form.player.data) if form.player.data and not form.player.errors else None
    # a day that cannot be read (or a To before the From) bounds nothing, on either side:
    # half a period would list what nobody asked for (as the players' and season's pages)
    whole = not (form.start.errors or form.end.errors)
    start = form.start.data if whole else None
    end = form.end.data if whole else None
    figure = None
    if form.figure.data:
        if player is None:
            abort(404)
        figure = summaries.player_stats(db, player, store.player_names(db, group)).figure(form.figure.data)
        if figure is None:
            abort(404)
    status = form.status.data if not form.status.errors else ""
    page = whole_number_below(args.get("page"), 10**9, start=1) if hasattr(args, "getlist") else None
    after = _day_after(end) if end else None  # the "to" day is included
    filters: dict[str, Any] = {"kind": kind, "player": player, "figure": (player, figure.key) if figure else None,
               "since": _day_start(start, zone or UTC) if start else None,
               "before": _day_start(after, zone or UTC) if after else None}
    unfinished = finished = None
    if status == "unfinished":
        unfinished = summaries.find(db, done=False, page=page or 1, size=PAGE_SIZE, group=group, **filters)
    elif status == "finished":
        finished = summaries.find(db, done=True, page=page or 1, size=PAGE_SIZE, group=group, **filters)
    else:
        if (page or 1) == 1:
            unfinished = summaries.find(db, done=False, size=UNFINISHED_SHOWN, group=group, **filters)
        finished = summaries.find(db, done=True, page=page or 1, size=PAGE_SIZE, group=group, **filters)
    shown = [g.id for listed in (unfinished, finished) if listed for g in listed.games]
    return {
        "form": form,
        "night_tables": night_store.tables_of(db, shown),
        "unfinished": unfinished,
        "finished": finished,
        "figure": figure,
        "figure_player": names.get(player) if figure and player is not None else None,
        "filtered": any((kind, player, start, end, status, figure)),
        "any_games": bool(names),
        "local_days": zone is not None,
        "status": status,
    }


# --------------------------------------------------------------------------- charts


#: The most deals a score sheet's chart draws (see game_chart)
MAX_POINTS = 100


def game_chart(sheet: Sheet) -> dict[str, Any] | None:
    """The score sheet's running totals as a line chart: one line per player in their
    seat's colour, from 0 before the first deal to the totals after the last scored one
    (Trigami: the target marked once the leader is halfway there). {"svg": markup,
    "lines": the charts.Line objects, for the legend, "target": the target marked or
    None}; None before the first deal."""
    score = sheet.score
    if score is None or not score.deals:
        return None
    game = sheet.game
    # A long game is drawn from at most about MAX_POINTS of its deals (evenly spaced, the
    # last always): a phone's screen shows no more, and the page stays small and quick.
    step = -(-len(score.deals) // MAX_POINTS)
    shown = [deal for index, deal in enumerate(score.deals, 1) if index % step == 0 or index == len(score.deals)]
    lines = [charts.seat_line(name, [0, *(deal.totals[seat] for deal in shown)], seat)
             for seat, name in enumerate(game.players_now)]
    target = score.extra.get("target") if game.kind != "trix" else None
    if target is not None and max(score.totals) * 2 < target:
        target = None
    # every number a reader sees in the page's digits (locale_numbers.py)
    totals = listed(f"{isolate(name)} {locale_numbers.number(total)}" for name, total in zip(game.players_now, score.totals, strict=True))
    labels = [locale_numbers.number(0), *(locale_numbers.number(deal.number) for deal in shown)]
    # Trix: the kingdoms' last deals (5, 10, … or fewer deals in Trix Complex)
    major = [locale_numbers.number(0), *(locale_numbers.number(k.deals[-1]) for k in score.kingdoms)] \
        if score.kingdoms and step == 1 else None
    svg = charts.line_chart(
        lines, labels, x_major=major, number=locale_numbers.number,
        title=_("Running totals"),
        description=_("Running totals after each of %(n)s deals; now %(totals)s.",
                      n=len(score.deals), totals=totals),
        x_title=_("Deal"), target=target)
    return {"svg": svg, "lines": lines, "target": target}


def results_charts(player: stats.PlayerStats) -> list[dict[str, Any]]:
    """The player's results over time, one chart per kind of game with finished games:
    their final total in each game, oldest first, beside the best total of the others
    (from two finished games on: one is a dot, not a line); a long record draws its latest
    stats.RESULTS_KEPT games. Each dot links to its game. Items: {"kind", "svg", "lines"
    (charts.Line, for the legend), "count" (all finished games of the kind), "won"}."""
    out = []
    for kind_stats in player.kinds:
        kind = kind_stats.kind
        won_figure = next(f for f in kind_stats.figures if f.key == f"{kind}.won")
        count, won = won_figure.of or 0, int(won_figure.value or 0)
        if count < 2:
            continue
        drawn: Sequence[stats.Result] = [r for r in player.results if r.kind == kind]
        first = count - len(drawn)  # a long record: its latest games
        links = [url_for("games.show", game_id=r.game_id) for r in drawn]
        lines = [
            charts.Line(_("Best of the others"), [r.best_other for r in drawn],
                        "var(--muted)", "3,4", links),
            charts.Line(player.name, [r.total for r in drawn], "var(--accent)", "none", links),
        ]
        description = _("%(name)s's final totals in %(n)s finished games, oldest first, beside "
                        "the best total of the others; won %(won)s.",
                        name=isolate(player.name), n=count, won=won)
        if first:
            description += " " + _("The chart shows the latest %(shown)s.", shown=len(drawn))
        svg = charts.line_chart(
            lines, [locale_numbers.number(n) for n in range(first + 1, count + 1)], number=locale_numbers.number,
            title=_("%(name)s's results", name=isolate(player.name)), description=description,
            x_title=_("Finished games, oldest first"))
        out.append({"kind": kind, "svg": svg, "lines": lines, "count": count, "won": won})
    return out
