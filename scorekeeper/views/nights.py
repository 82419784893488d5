"""Club nights (issue 20): the group's nights, starting one, the night's page (its
round's tables, each a game with its link and QR code; close the round, reopen one
closed by mistake, seat the next, a late arrival, a leaver and "X stays"), the standing with every figure explained, the big screen for
a TV, the printable standing and table cards, and the night file. Thin: night_actions
does the work, night_records scores; these views map requests and results to pages.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

from .. import forms, groups, locale_numbers, night_actions, night_store, store
from ..access import group_id
from ..club import POINTS_BEHIND, POINTS_LEVEL, RoundLine, SeasonRow, StandingRow
from ..db import get_db
from ..explanations import sum_terms
from ..forms import nights as night_forms
from ..forms.players import RankingForm
from ..i18n import gettext as _
from ..i18n import ngettext
from ..inputs import name_key
from ..night_records import TABLE_SIZE, StoredNight, StoredTable, night_file
from ..nightfile import dumps
from ..qr import qr_code
from ..rules import KINDS, RuleError, get_rules
from ..rules.common import listed
from ..text import isolate
from .common import card_url, named_attachment, night_title, refused, screen_url
from .conditional import conditional
from .players import Period, chosen_period

bp = Blueprint("nights", __name__)


def get_night_or_404(night_id: int) -> StoredNight:
    """The night of this group, or 404 saying there is no such night (another group's
    night is no answer here)."""
    try:
        night = night_store.get_night(get_db(), night_id, group_id())
    except night_store.NightNotFoundError:
        abort(404, description=_("There is no such night here."))  # as /live says it
    if night.deleted_at is not None:  # its page says so, with Restore (410: gone, not unknown)
        if request.endpoint in ("nights.live",):
            abort(make_response(jsonify(error=_("This night was deleted. It can be restored from Club nights.")), 410))
        abort(make_response(render_template("nights/deleted.html", night=night, title=night_title(night),
                                            form=forms.EmptyForm()), 410))
    return night


@bp.get("/nights")
def index() -> str:
    """The group's club nights, the latest first, a new night for each game, and the
    deleted nights with Restore."""
    return render_template("nights/index.html", nights=night_store.list_nights(get_db(), group_id()),
                           deleted=night_store.deleted_nights(get_db(), group_id()), kinds=KINDS,
                           empty=forms.EmptyForm())


@bp.route("/nights/<int:night_id>/delete", methods=["GET", "POST"])
def delete(night_id: int) -> Any:
    """A night started by mistake: asked once, naming the night and what goes with it
    (GET); deleted with its tables' games (POST: night_actions.delete_night), then the
    nights list, whose message offers Restore. The same delete sent twice (a double tap,
    two phones) deletes once and says it was deleted already."""
    form = forms.EmptyForm()
    shown = request.form.get("deals", "")
    if request.method == "POST" and form.validate_on_submit():
        try:
            result = night_actions.delete_night(get_db(), night_id, group_id(),
                                                int(shown) if shown.isdecimal() and len(shown) < 9 else None)
        except night_store.NightNotFoundError:
            abort(404, description=_("There is no such night here."))
        if isinstance(result, night_actions.NightPlayedMeanwhile):  # asked again, with the deals as now
            form.form_errors.append(_("Deals were entered at its tables since this page was opened. Check "
                                      "again, then tap Delete night to confirm."))
            return _delete_page(result.night, form), 409
        title = night_title(result.night)
        flash(_("%(night)s was deleted already (on another phone?).", night=isolate(title)) if result.again
              else _("%(night)s deleted, with its tables' games. Restore it below if that was a mistake.",
                     night=isolate(title)), "saved")
        return redirect(url_for("nights.index", _anchor="deleted-head"))
    night = get_night_or_404(night_id)
    if forms.csrf_failed(form):
        form.form_errors.append(_("This page was open too long. Tap Delete again to confirm."))
    return _delete_page(night, form), 400 if form.is_submitted() else 200


def _delete_page(night: StoredNight, form: Any) -> str:
    """"Delete this night?": the night, its tables and the deals entered at them (sent back
    with the answer, so that deals entered meanwhile ask again)."""
    tables = [table for round_ in night.rounds for table in round_.tables]
    return render_template("nights/delete.html", night=night, title=night_title(night), form=form,
                           tables=len(tables), deals=night_store.night_deals(night))


@bp.post("/nights/<int:night_id>/restore")
def restore(night_id: int) -> Any:
    """Put a deleted night back with its tables' games (night_actions.restore_night) and
    open its page; a night back already gets the same answer, saying so."""
    form = forms.EmptyForm()
    if not form.validate_on_submit():
        flash(_("This page was open too long or came from elsewhere. Tap Restore again."), "saved")
        return redirect(url_for("nights.index", _anchor="deleted-head"))
    try:
        result = night_actions.restore_night(get_db(), night_id, group_id())
    except night_store.NightNotFoundError:
        abort(404, description=_("There is no such night here."))
    if isinstance(result, night_actions.SameNightInPlay):
        flash(_("The night stays deleted: the same night, its draw and players, is in the nights list again "
                "(imported again?), so restoring it would count every table twice."), "told")
        return redirect(url_for("nights.show", night_id=result.night_id))
    if isinstance(result, night_actions.NightTwinInPlay):
        flash(_("The night stays deleted: one of its tables' games is in the games list again (imported "
                "again?), so restoring it would count that game twice."), "told")
        return redirect(url_for("nights.index", _anchor="deleted-head"))
    title = night_title(result.night)
    flash(_("%(night)s was restored already.", night=isolate(title)) if result.again
          else _("%(night)s restored, with its tables' games.", night=isolate(title)), "saved")
    return redirect(url_for("nights.show", night_id=night_id))


@bp.route("/nights/new", methods=["GET", "POST"])
def new() -> Any:
    """Start a night: the game (chosen first), its settings, who is present (the group's
    players ticked, newcomers typed), rounds, ranking and round 1's seating; then round 1
    is seated and the night's page opens."""
    kind = request.args.get("kind")
    if kind not in KINDS:
        return render_template("nights/choose_kind.html", kinds=KINDS), 400 if request.method == "POST" else 200
    known = store.known_players(get_db(), group_id())
    form = night_forms.night_form(kind, known)()
    rules = get_rules(kind)
    if form.is_submitted():
        # every wrong field says so at once: the night's own checks run even when a
        # field's validator failed, the game's settings when theirs passed
        valid = form.validate()
        players = form.night_players()
        named, name = form.night_name()
        options = form.parsed_options(rules) if form.settings_read() else None
        if players is not None and len(players) < TABLE_SIZE[kind]:
            form.newcomers.errors = [*form.newcomers.errors, ngettext(
                "A table needs %(size)s players; only %(num)s is ticked or typed.",
                "A table needs %(size)s players; only %(num)s are ticked or typed.",
                len(players), size=TABLE_SIZE[kind])]
        elif valid and players is not None and options is not None and named:
            tables = len(players) // TABLE_SIZE[kind]
            if tables > night_forms.MANY_TABLES and form.seating_many.data != str(len(players)):
                form.seating_many.data = str(len(players))  # asked once for this many
                return render_template("nights/new.html", form=form, kind=kind, rules=rules, known=known,
                                       many=(len(players), tables))
            result = night_actions.start_night(
                get_db(), group_id(), kind=kind, options=rules.dump_options(options), players=players,
                rounds=form.rounds.data, ranking=form.ranking.data if form.ranking.data in ("placings", "score")
                else "placings", seating="ranking" if form.seating.data == "ranking" else "random",
                name=name, nonce=form.nonce.data, ask_first=form.again.data != "1")
            if isinstance(result, night_actions.NightStarted):
                flash(_("The night has begun: round %(n)s is seated.", n=1), "saved")
                return redirect(url_for("nights.show", night_id=result.night_id))
            if isinstance(result, night_actions.NightStartedAlready):  # Back, then Start again: asked first
                return render_template("nights/started.html", twin=result, kind=kind, players=players)
            form.newcomers.errors = [*form.newcomers.errors, result.reason]
    if forms.csrf_failed(form):
        form.form_errors.append(_("This page was open too long. Your entries are kept: tap Start again."))
    return render_template("nights/new.html", form=form, kind=kind, rules=rules, known=known), \
        400 if form.is_submitted() else 200


def _tables(night: StoredNight) -> list[dict[str, Any]]:
    """The current round's tables for the pages: each with its game, status, and its
    table card's address and QR code (``code`` None for a table without one: its card
    never falls back to the group's link, docs/club-nights.md, "Table cards")."""
    current = night.current
    if current is None:
        return []
    cards = groups.table_cards(get_db(), night.id)
    out = []
    for table in current.tables:
        token = cards.get(table.game.id)
        code = qr_code(card_url(token)) if token else None
        out.append({"table": table, "code": code, "leader": _leaders(table)})
    return out


def _leaders(table: StoredTable) -> list[str]:
    """Who leads at ``table`` as it stands (the game's first place), none before a deal."""
    if not table.deals:
        return []
    result = table.result()
    return [name for name, place in zip(result.players, result.places, strict=True) if place == 1]


def _page(night: StoredNight) -> dict[str, Any]:
    """What the night's pages share."""
    current = night.current
    rules = get_rules(night.kind)
    sides = len(rules.sides(rules.parse_options(night.options)))
    return {"night": night, "title": night_title(night), "tables": _tables(night),
            "standing": night.standing(), "current": current,
            "dealt": any(table.deals for round_ in night.rounds for table in round_.tables),
            "sides": sides, "partners": sides < TABLE_SIZE[night.kind]}


@bp.get("/nights/<int:night_id>")
def show(night_id: int) -> str:
    """The night's page: the current round's tables (each game's link and QR code, its
    players, its leader or its end), who sits out, the organiser's buttons."""
    version = night_store.night_version(get_db(), night_id)  # read first: a change meanwhile shows next poll
    return _night_page(get_night_or_404(night_id), version=version)


def _staying(night: StoredNight) -> list[str]:
    """The night's players who have not said they leave before the next round."""
    return [p.name for p in night.players if p.until_round is None or p.until_round >= night.next_number]


def _night_page(night: StoredNight, arrival: Any = None, leaver: Any = None, version: str | None = None) -> Any:
    """The night's page (``version``: the night's version read before the night, for its
    live updates); with a refused late arrival or leaver form (status 400), that form with
    its message beside its field and what was typed."""
    view_token = groups.working_view_link(get_db(), night.group_id)  # opening the page makes none
    screen = screen_url(view_token, night.id) if view_token else None
    page = render_template(
        "nights/show.html", **_page(night), empty=forms.EmptyForm(),
        screen_link=screen, screen_code=qr_code(screen) if screen else None,
        arrival=arrival or night_forms.ArrivalForm(formdata=None),
        leaver=leaver or night_forms.leaver_form(_staying(night))(formdata=None),
        known=store.known_players(get_db(), group_id()),
        leavers=[(p, p.until_round >= len(night.rounds)) for p in night.players if p.until_round is not None],
        version=version or night_store.night_version(get_db(), night.id))
    return (page, 400) if arrival is not None or leaver is not None else page


def _moved_on(shown: int, current: int) -> str:
    """A page left open named round ``shown``; the night is at round ``current`` now."""
    return _("This page showed round %(shown)s; round %(n)s is seated now: nothing changed.", shown=shown,
             n=current)


def _closed_already(number: int) -> str:
    """An old "Close round" page, or a second phone, after round ``number`` was closed."""
    return _("Round %(n)s was closed already: nothing changed.", n=number)


@bp.route("/nights/<int:night_id>/close", methods=["GET", "POST"])
def close(night_id: int) -> Any:
    """Close round ``round`` (the form's, the round the page named; docs/club-nights.md,
    "Pages left open"): asked first (GET ``?round=N``, naming the tables not yet over,
    which then count as they stand); POST closes it. Closed already (an old page, two
    phones at once: checked inside the write): the night's page says so, and no other
    round is closed instead."""
    night = get_night_or_404(night_id)
    form = night_forms.RoundForm()
    if request.method == "POST" and form.validate_on_submit():
        shown = form.shown_round()
        if shown == 0:
            flash(_("This page was open too long or came from elsewhere. Tap it again."), "saved")
            return redirect(url_for("nights.show", night_id=night_id))
        result = night_actions.close_round(get_db(), night, shown)
        if result is None:
            return redirect(url_for("nights.show", night_id=night_id))
        if result.again:
            flash(_closed_already(result.number), "told")
        elif result.early:
            flash(ngettext("Round %(n)s closed: %(num)s table counts as it stands.",
                           "Round %(n)s closed: %(num)s tables count as they stand.", len(result.unfinished),
                           n=result.number), "saved")
        else:
            flash(_("Round %(n)s closed.", n=result.number), "saved")
        return redirect(url_for("nights.show", night_id=night_id))
    current = night.current
    if current is None:
        return redirect(url_for("nights.show", night_id=night_id))
    # no round named: the current one; a round that is no number (0: a link cut short or
    # typed over) is the night's page, as for an old link
    given = request.args.get("round")
    asked = current.number if given is None else night_forms.round_number(given)
    if asked != current.number or current.closed:
        # an old link, or the round closed since: the night's page, which offers what is left
        if 1 <= asked <= len(night.rounds) and night.rounds[asked - 1].closed:
            flash(_("Round %(n)s was closed already.", n=asked), "told")
        return redirect(url_for("nights.show", night_id=night_id))
    return render_template("nights/close.html", night=night, title=night_title(night), current=current,
                           form=form), 400 if form.is_submitted() else 200


@bp.post("/nights/<int:night_id>/next")
def next_round(night_id: int) -> Any:
    """Seat round ``round`` (the form's: the round the button named; docs/club-nights.md,
    "Pages left open"; night_actions.seat_next_round); seated already: said, and never
    the round after it; a round not over is said, with its tables to finish or Close the
    round."""
    night = get_night_or_404(night_id)
    form = night_forms.RoundForm()
    if not form.validate_on_submit() or form.shown_round() == 0:
        flash(_("This page was open too long or came from elsewhere. Tap it again."), "saved")
        return redirect(url_for("nights.show", night_id=night_id))
    match night_actions.seat_next_round(get_db(), night, form.shown_round()):
        case night_actions.Seated(number=number, again=again):
            flash(_("Round %(n)s is seated already: nothing changed.", n=number) if again else
                  _("Round %(n)s is seated.", n=number), "told" if again else "saved")
        case night_actions.MovedOn(shown=shown, current=current):
            flash(_moved_on(shown, current), "told")
        case night_actions.NotOver(number=number, unfinished=unfinished):
            flash(ngettext("Round %(n)s is not over: table %(tables)s is still playing. Close the round first "
                           "to count it as it stands.",
                           "Round %(n)s is not over: tables %(tables)s are still playing. Close the round first "
                           "to count them as they stand.", len(unfinished), n=number,
                           tables=listed([locale_numbers.number(t.number) for t in unfinished])), "saved")
        case night_actions.NoMoreRounds(planned=planned):
            flash(ngettext("The night's %(num)s round is played.", "The night's %(num)s rounds are played.",
                           planned), "saved")
        case night_actions.TooFew(present=present, size=size):
            flash(ngettext("A table needs %(size)s players; only %(num)s is here.",
                           "A table needs %(size)s players; only %(num)s are here.", present, size=size), "saved")
    return redirect(url_for("nights.show", night_id=night_id))


def _reopen_refused(number: int, reason: str) -> str:
    """Why round ``number`` was not reopened, in the players' words."""
    if reason == "next_seated":
        return _("Round %(n)s can no longer be reopened: round %(next)s is seated, and its players sit at its "
                 "tables.", n=number, next=number + 1)
    if reason == "open":
        return _("Round %(n)s is open: its tables are playing.", n=number)
    if reason == "over":
        return _("Every table's game of round %(n)s is over: there is nothing left to play, so it stays closed.",
                 n=number)
    return _("There is no round %(n)s to reopen.", n=number)


@bp.route("/nights/<int:night_id>/rounds/<int:number>/reopen", methods=["GET", "POST"])
def reopen(night_id: int, number: int) -> Any:
    """Reopen round ``number``, closed by mistake (docs/club-nights.md, "Reopening a
    round"): asked first (GET: what counts again), POST reopens it; refused (the next
    round seated, every game over, open already) with the reason on the night's page."""
    night = get_night_or_404(night_id)
    form = forms.EmptyForm()
    if request.method == "POST" and form.validate_on_submit():
        match night_actions.reopen_round(get_db(), night, number):
            case night_actions.Reopened(added=counted_again):
                words = _("Round %(n)s is open again: its tables play on.", n=number)
                if counted_again:
                    words += " " + ngettext("%(num)s deal entered since it was closed counts now.",
                                            "%(num)s deals entered since it was closed count now.",
                                            sum(now - before for _table, before, now in counted_again))
                flash(words, "saved")
            case night_actions.ReopenRefused(reason=why):
                flash(_reopen_refused(number, why), "saved")
        return redirect(url_for("nights.show", night_id=night_id))
    refusal = night.reopen_refusal(number)
    if refusal is not None:
        flash(_reopen_refused(number, refusal), "saved")
        return redirect(url_for("nights.show", night_id=night_id))
    round_ = night.rounds[number - 1]
    added = [t for t in round_.tables if t.counted is not None and t.deals < len(t.game.deals)]
    return render_template("nights/reopen.html", night=night, title=night_title(night), round=round_,
                           added=added, form=form), 400 if form.is_submitted() else 200


@bp.post("/nights/<int:night_id>/arrive")
def arrive(night_id: int) -> Any:
    """A late arrival: joins from the next round."""
    night = get_night_or_404(night_id)
    form = night_forms.ArrivalForm()
    if form.validate_on_submit():
        name = form.checked_name()
        if name is not None:
            result = night_actions.arrive(get_db(), night, name)
            if isinstance(result, night_actions.Arrived):
                if result.again:
                    flash(_("%(name)s is on the night already.", name=isolate(result.name)), "saved")
                elif result.back:
                    flash(_("%(name)s is back: seated again from round %(n)s.", name=isolate(result.name),
                            n=result.from_round), "saved")
                else:
                    flash(_("%(name)s joins from round %(n)s.", name=isolate(result.name), n=result.from_round),
                          "saved")
                return redirect(url_for("nights.show", night_id=night_id))
            form.name.errors = [_("Every round of the night is seated: there is no next round to join.")]
    return _night_page(night, arrival=form)


@bp.post("/nights/<int:night_id>/leave")
def leave(night_id: int) -> Any:
    """A leaver: plays out the current round, not seated after it."""
    night = get_night_or_404(night_id)
    staying = _staying(night)
    form = night_forms.leaver_form(staying)()
    if form.validate_on_submit() and form.player.data in staying:
        result = night_actions.leave(get_db(), night, form.player.data, night_forms.shown_round(form["round"]))
        if isinstance(result, night_actions.MovedOn):
            flash(_moved_on(result.shown, result.current) + " " + _("Choose again who leaves, if anyone."), "told")
            return redirect(url_for("nights.show", night_id=night_id) + "#leave")
        if isinstance(result, night_actions.Leaving):
            flash(_("%(name)s is no longer on the night.", name=isolate(result.name)) if result.removed else
                  _("%(name)s leaves after round %(n)s.", name=isolate(result.name), n=result.until_round), "saved")
            return redirect(url_for("nights.show", night_id=night_id))
    gone = next((p for p in night.players if p.name == form.player.data and p.name not in staying), None)
    if gone is not None and gone.until_round is not None:  # a page left open: another phone was first
        flash(_("%(name)s leaves after round %(n)s already: nothing changed.", name=isolate(gone.name),
                n=gone.until_round), "told")
        return redirect(url_for("nights.show", night_id=night_id) + "#leave")
    form.player.errors = [_("Choose who leaves.")]
    return _night_page(night, leaver=form)


@bp.post("/nights/<int:night_id>/stay")
def stay(night_id: int) -> Any:
    """Take back a leaver ("X stays"): seated again from the next round, while it is not
    seated; after that refused, saying they come back as a late arrival."""
    night = get_night_or_404(night_id)
    form = night_forms.StayForm()
    if not form.validate_on_submit():
        flash(_("This page was open too long or came from elsewhere. Tap it again."), "saved")
        return redirect(url_for("nights.show", night_id=night_id) + "#leave")
    match night_actions.stay(get_db(), night, form.player.data or "", night_forms.shown_round(form.round)):
        case night_actions.MovedOn(shown=shown, current=current):
            flash(_moved_on(shown, current), "told")
        case night_actions.Staying(name=name, from_round=from_round):
            flash(_("%(name)s stays: seated again from round %(n)s.", name=isolate(name), n=from_round), "saved")
        # (the round seated now, the night's latest: not always the one after the leaver's)
        case night_actions.StayRefused(name=name, reason="gone", until_round=until, seated=seated) \
                if seated >= night.rounds_planned:  # the night's last round: no next one to join
            flash(_("%(name)s left after round %(n)s, and round %(next)s, the night's last, is seated: they can no "
                    "longer be taken back, and there is no next round to come back to.", name=isolate(name),
                    n=until, next=seated), "saved")
        case night_actions.StayRefused(name=name, reason="gone", until_round=until, seated=seated):
            flash(_("%(name)s left after round %(n)s, and round %(next)s is seated: they can no longer be taken "
                    "back. Add them as a late arrival: they join from the next round.", name=isolate(name),
                    n=until, next=seated), "saved")
        case night_actions.StayRefused(name=name, reason="staying"):
            flash(_("%(name)s is not leaving.", name=isolate(name)), "saved")
        case night_actions.StayRefused():
            flash(_("Choose who stays."), "saved")
    return redirect(url_for("nights.show", night_id=night_id) + "#leave")


def line_words(line: RoundLine, sides: int, partners: bool = False, playing: bool = False) -> str:
    """One round of a player's standing in a sentence: where they finished and why that
    gives these placing points, or the sit-out rule (docs/club-nights.md); the round's
    score, said as the side's total with partners (``partners``: partnership Trix);
    numbers in the page's digits. ``playing``: the round is still being played (its
    unfinished games count as they stand now, not as they stood)."""
    n = locale_numbers.number
    if line.sat_out:
        points = ngettext("Round %(round)s: sat out. Counted level with every other side of a table: %(level)s × "
                          "%(one)s = %(num)s placing point.",
                          "Round %(round)s: sat out. Counted level with every other side of a table: %(level)s × "
                          "%(one)s = %(num)s placing points.", line.points, round=n(line.round), level=n(line.level),
                          one=n(POINTS_LEVEL))
        score = _("Score %(score)s: the average of the sides' totals that round, cut toward zero.",
                  score=n(line.score)) if partners else \
            _("Score %(score)s: the average score of everyone who played that round, cut toward zero.",
              score=n(line.score))
        return points + " " + score
    words = ngettext("Round %(round)s, table %(table)s: place %(place)s of %(sides)s. %(behind)s behind × %(two)s + "
                     "%(level)s level × %(one)s = %(num)s placing point.",
                     "Round %(round)s, table %(table)s: place %(place)s of %(sides)s. %(behind)s behind × %(two)s + "
                     "%(level)s level × %(one)s = %(num)s placing points.", line.points, round=n(line.round),
                     table=n(line.table or 0), place=n(line.place or 0), sides=n(sides), behind=n(line.behind),
                     two=n(POINTS_BEHIND), level=n(line.level), one=n(POINTS_LEVEL))
    if line.side_totals:
        words += " " + _("Score %(score)s: your side's total, yours %(yours)s + your partner's %(partner)s.",
                         score=n(line.score), yours=n(line.side_totals[0]),
                         partner=sum_terms(line.side_totals[1:]))
    else:
        words += " " + _("Score %(score)s.", score=n(line.score))
    if not line.finished:
        words += " " + (_("The game is not over yet: it counts as it stands.") if playing
                        else _("The game was not over: it counts as it stood."))
    return words


def row_words(row: StandingRow, ranking: str, low_wins: bool) -> str:
    """How a row's rank comes about, in a sentence: its placing points and score added
    up round by round, what ranks the night, and a shared rank."""
    n = locale_numbers.number
    if len(row.rounds) > 1:
        sums = _("Placing points: %(points)s = %(total)s. Score: %(scores)s = %(score)s.",
                 points=sum_terms([line.points for line in row.rounds]), total=n(row.points),
                 scores=sum_terms([line.score for line in row.rounds]), score=n(row.score))
    else:
        sums = _("Placing points: %(total)s. Score: %(score)s.", total=n(row.points), score=n(row.score))
    if ranking == "score":
        why = _("Ranked by total score alone (lower is better).") if low_wins else \
            _("Ranked by total score alone (higher is better).")
    else:
        why = _("Ranked by placing points; equal points are decided by total score (lower is better).") \
            if low_wins else _("Ranked by placing points; equal points are decided by total score (higher is better).")
    shared = " " + _("Level with another player in what ranks them: the rank is shared.") if row.shared else ""
    return sums + " " + why + shared


@bp.get("/nights/<int:night_id>/standing")
def standing(night_id: int) -> str:
    """The night's standing, each figure explained in a sentence (docs/club-nights.md)."""
    version = night_store.night_version(get_db(), night_id)  # read first: a change meanwhile shows next poll
    night = get_night_or_404(night_id)
    page = _page(night)
    sides = page["sides"]
    partners = page["partners"]
    playing = {round_.number for round_ in night.rounds if not round_.over}
    rows = [{"row": row, "words": row_words(row, night.ranking, night.low_wins),
             "lines": [line_words(line, sides, partners, line.round in playing) for line in row.rounds]}
            for row in page["standing"]]
    return render_template("nights/standing.html", **page, rows=rows, version=version)


@bp.get("/nights/<int:night_id>/live")
def live(night_id: int) -> Any:
    """The night's version as JSON (``{"version": str}``) for the big screen and the
    night's page to notice a deal saved at any table (static/app.js, data-live); 304
    while unchanged."""
    if night_store.night_group(get_db(), night_id) != group_id():  # asked every 2 s: nothing scored
        return jsonify(error=_("There is no such night here.")), 404
    version = night_store.night_version(get_db(), night_id)
    return conditional(f"n{version}", lambda: jsonify(version=version), private=False)


@bp.get("/nights/<int:night_id>/screen")
def screen(night_id: int) -> str:
    """The big screen for a TV or projector: the standing and the round's tables, in
    large type, updating by itself (static/app.js polls the night's version)."""
    version = night_store.night_version(get_db(), night_id)  # read first: a change meanwhile shows next poll
    night = get_night_or_404(night_id)
    return render_template("nights/screen.html", **_page(night), version=version)


@bp.post("/nights/<int:night_id>/screen-link")
def screen_link(night_id: int) -> Any:
    """Make the group's read-only link for the big screen (docs/club-nights.md, "The big
    screen"), as the group page's "Make a read-only link" does (groups.view_link: the
    working one if there is one, so a double tap makes one), then back to the night's
    page, where its address and QR code now show. A form without its token changes
    nothing (400); a read-only link or a table card may not send it (access.admit)."""
    night = get_night_or_404(night_id)
    if not forms.EmptyForm().validate_on_submit():
        return refused()
    groups.view_link(get_db(), night.group_id)
    return redirect(url_for("nights.show", night_id=night.id, _anchor="big-screen"))


@bp.get("/nights/<int:night_id>/print")
def print_night(night_id: int) -> str:
    """The standing and a card for each table of the current round, for paper."""
    night = get_night_or_404(night_id)
    return render_template("nights/print.html", **_page(night))


@bp.get("/nights/<int:night_id>/night.json")
def download(night_id: int) -> Response:
    """The night file (docs/night-file.md), a download."""
    night = get_night_or_404(night_id)
    try:
        text = dumps(night_file(night))
    except RuleError:
        abort(409)
    day = datetime.fromisoformat(night.created_at).astimezone(UTC).date().isoformat()
    return Response(text, mimetype="application/json", headers=named_attachment(f"night-{night.kind}-{day}.json"))


# ------------------------------------------------------------------------- the season


def _season(form: RankingForm) -> tuple[Period, night_actions.Season]:
    """The period ``form`` chose and the group's season over it."""
    period = chosen_period(form)
    return period, night_actions.season(get_db(), group_id(), since=period.since, before=period.before,
                                        kind=period.kind)


def season_words(row: SeasonRow, nights: list[tuple[night_actions.SeasonNight, StandingRow]]) -> list[str]:
    """How a season line comes about, one sentence a figure: each added up night by night
    (oldest first), then what ranks the season (docs/club-nights.md, "The season");
    numbers in the page's digits."""
    n = locale_numbers.number

    def added(values: list[int]) -> str:
        # the total kept on the line of its "=" (no-break spaces)
        return sum_terms(values) + "\u00a0=\u00a0" + n(sum(values)) if len(values) > 1 else n(sum(values))

    won = [night_title(season_night.night) for season_night, mine in nights if mine.rank == 1]
    words = [
        ngettext("%(num)s night: a round played or sat out in each.", "%(num)s nights: a round played or sat out "
                 "in each.", row.nights),
        _("Rounds played at a table: %(sum)s.", sum=added([mine.played for _, mine in nights])),
        _("Placing points: %(sum)s.", sum=added([mine.points for _, mine in nights])),
        (_("Nights won (first in the night's standing, shared or not): %(nights)s.", nights=listed(
            [isolate(title) for title in won])) if won else _("Nights won: none.")),
        _("Total score: %(sum)s. It is shown but decides nothing.", sum=added([mine.score for _, mine in nights])),
    ]
    if row.shared:
        words.append(_("Level with another player in points, nights won and rounds: the rank is shared."))
    return words


@bp.get("/season")
def season() -> Any:
    """The group's season: the nights of a chosen period and game (RankingForm, as on
    the players list) and the season table across them, each line's figures explained
    on its player's season page. A filter that does not parse: its message beside its
    field, what was typed kept, not applied; the page answers 200, as the games list and
    the players list do for their filters (a GET that still shows the season, not a
    refused form)."""
    form = RankingForm(formdata=request.args)
    period, found = _season(form)
    ids = _player_ids()
    page = render_template("nights/season.html", form=form, period=period, season=found, query=_filters(),
                           rows=[(row, ids.get(name_key(row.player))) for row in found.table], title=night_title)
    return page


def _player_ids() -> dict[str, int]:
    """The group's players' ids by their names' key (inputs.name_key), as the standings'
    names are matched."""
    return {name_key(name): pid for pid, name in store.player_names(get_db(), group_id()).items()}


def _filters() -> dict[str, str]:
    """The filters asked for, to carry to the player's season page and back."""
    return {key: value for key, value in request.args.items() if key in ("period", "start", "end", "kind", "tz")
            and value}


@bp.get("/season/players/<int:player_id>")
def season_player(player_id: int) -> Any:
    """One player's season over the chosen period: their line of the season table, each
    figure in a sentence, and the nights that make it up (each night's rank, rounds,
    placing points and score, linked to its standing)."""
    name = store.player_names(get_db(), group_id()).get(player_id)
    if name is None:
        abort(404)
    form = RankingForm(formdata=request.args)
    period, found = _season(form)
    row = next((row for row in found.table if name_key(row.player) == name_key(name)), None)
    nights = found.of(name)
    page = render_template("nights/season_player.html", form=form, period=period, name=name, row=row,
                           nights=nights, words=season_words(row, nights) if row else [], query=_filters(),
                           title=night_title)
    return page
