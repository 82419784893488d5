"""Games in and out: the CSV of a score sheet, a printable sheet, importing a game file,
and checking a score sheet kept on paper. Thin: export, gamefile and rules.paper do the
work; these views map requests to them.
"""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup
from werkzeug.exceptions import RequestEntityTooLarge

from .. import (
    actions,
    export,
    forms,
    i18n,
    locale_numbers,
    night_actions,
    night_store,
    sheet,
    store,
)
from ..access import group_id
from ..db import get_db
from ..forms import transfer as transfer_forms
from ..gamefile import is_group_file
from ..i18n import gettext as _
from ..i18n import ngettext
from ..inputs import whole_number
from ..limits import import_limit, limiter
from ..nightfile import is_night_file, place
from ..records import StoredGame
from ..rules import RuleError, get_rules, paper
from ..rules.common import listed, listed_apart
from ..text import isolate, isolate_all
from .common import attachment, get_game_or_404

bp = Blueprint("transfer", __name__)


@bp.get("/games/<game_id>/sheet.csv")
def csv(game_id: str) -> Response:
    """The score sheet as a CSV download (see export.py for the format's reasons)."""
    game = get_game_or_404(game_id)
    with locale_numbers.as_data():  # the steps' numbers too: 0–9 in every language
        body = export.to_csv(export.sheet_rows(sheet.build(game)), export.cell_separator(i18n.language()))
    return Response(body, mimetype="text/csv", headers={
        "Content-Type": "text/csv; charset=utf-8", **attachment(game, "csv")})


@bp.get("/games/<game_id>/print")
def print_sheet(game_id: str) -> str:
    """The score sheet laid out like the paper one, for printing on A4."""
    game = get_game_or_404(game_id)
    return render_template("transfer/print.html", sheet=sheet.build(game), rules=get_rules(game.kind),
                           night=night_store.table_of(get_db(), game.id))


# --------------------------------------------------------------------------- import


def _by_deal(problems: list[RuleError]) -> list[tuple[int | None, list[str]]]:
    """Problems grouped for the page: (None, messages outside any deal) first, then
    (deal number, its messages) in order."""
    groups: dict[int | None, list[str]] = {}
    for problem in problems:
        groups.setdefault(problem.deal, []).append(problem.message)
    return sorted(groups.items(), key=lambda item: -1 if item[0] is None else item[0])


def _too_large() -> Any:
    """The upload form again, status 413: the file is larger than a game file may be (or a
    group file or night file, whose limit is the group file's)."""
    form = transfer_forms.UploadForm(formdata=None)
    form.file.errors = [_("That file is too large: a game file is at most %(kb)s KB. Is it the right file?",
                          kb=current_app.config["GAME_FILE_MAX_BYTES"] // 1024),
                        _("A group file or a night file sent here is at most %(kb)s KB (a larger group file "
                          "is imported on the server: scorekeeper import).", kb=_group_kb())]
    return render_template("transfer/upload.html", form=form, problems=[]), 413


def _group_kb() -> int:
    """The largest group file this page takes, in KB: the group file limit, or the
    request's (MAX_CONTENT_LENGTH, less room for the form around the file)."""
    config = current_app.config
    request_most = (config.get("MAX_CONTENT_LENGTH") or config["GROUP_FILE_MAX_BYTES"]) - 4 * 1024
    return max(0, min(config["GROUP_FILE_MAX_BYTES"], request_most)) // 1024


@bp.route("/games/import", methods=["GET", "POST"])
@limiter.limit(import_limit, methods=["POST"])
def upload() -> Any:
    """Upload a game file (GAME-FILE.md) to store it; every problem is listed by deal and
    nothing is stored while there is one. A file over GAME_FILE_MAX_BYTES is refused
    (413), one of more than GAME_FILE_MAX_DEALS deals is a problem of the file (400).
    A group file (up to GROUP_FILE_MAX_BYTES, and the request limit) is imported whole
    or not at all: :func:`_import_group`."""
    problems: list[RuleError] = []
    try:
        form = transfer_forms.UploadForm()
        valid = form.validate_on_submit()
    except RequestEntityTooLarge:
        # Werkzeug refuses bodies over MAX_CONTENT_LENGTH before reading them; say so on
        # the form instead of the bare 413 page.
        return _too_large()
    if valid:
        config = current_app.config
        raw = form.raw(max(config["GAME_FILE_MAX_BYTES"], config["GROUP_FILE_MAX_BYTES"]) + 1)
        if len(raw) <= config["GROUP_FILE_MAX_BYTES"] and is_group_file(raw):
            return _import_group(form, raw)
        if len(raw) <= config["GROUP_FILE_MAX_BYTES"] and is_night_file(raw):
            return _import_night(form, raw)
        if len(raw) > config["GAME_FILE_MAX_BYTES"]:
            return _too_large()
        # an identical stored game is asked about first, unless this is the copy asked for
        result = actions.import_game(get_db(), raw, group_id=group_id(), nonce=form.nonce.data,
                                     copy=form.copy.data == "1", max_deals=current_app.config["GAME_FILE_MAX_DEALS"])
        match result:
            case actions.AlreadyStored(game=twin, continued=continued, table=table):
                return _already_stored(form, raw, twin, continued, table)
            case actions.Continued(game_id=game_id, game=game, added=0):
                flash(_("Already stored: who takes over a seat after its last deal added to %(kind)s: %(names)s.",
                        kind=forms.KIND_NAMES[game.kind], names=listed(isolate_all(game.players))), "saved")
                return redirect(url_for("games.show", game_id=game_id))
            case actions.Continued(game_id=game_id, game=game, added=added) as continued:
                flash(ngettext("Already stored with fewer deals: %(num)s later deal added to %(kind)s: %(names)s.",
                               "Already stored with fewer deals: %(num)s later deals added to %(kind)s: %(names)s.",
                               added, kind=forms.KIND_NAMES[game.kind], names=listed(isolate_all(game.players))),
                      "saved")
                if continued.seats:  # said too, not only seen in the sheet's head (tester 48)
                    changes = [_("%(player)s for %(old)s from deal %(n)s", player=isolate(player), old=isolate(old),
                                 n=number) for player, old, number in continued.seat_changes]
                    flash(_("Who takes over a seat came with them: %(changes)s.", changes=listed_apart(changes)),
                          "saved")
                return redirect(url_for("games.show", game_id=game_id))
            case actions.Imported(game_id=game_id, game=game, alike=alike):
                flash(ngettext("Imported %(kind)s: %(names)s, %(num)s deal.",
                               "Imported %(kind)s: %(names)s, %(num)s deals.", len(game.deals),
                               kind=forms.KIND_NAMES[game.kind], names=listed(isolate_all(game.players))), "saved")
                if alike is not None:  # both count: said, with the way to the other one
                    flash(Markup(_("A game here has the same players and many of the same deals (a deal put "
                                   "right or a setting changed on one side?): both count. <a href=\"%(url)s\">Open "
                                   "the one here</a> to delete the one not wanted.", url=url_for("games.show", game_id=alike))), "told")
                return redirect(url_for("games.show", game_id=game_id))
            case actions.Problems(problems=found):
                problems = found
    elif form.is_submitted() and "csrf_token" in form and form.csrf_token.errors:
        form.form_errors.append(_("This page was open too long or came from elsewhere. Nothing "
                                  "was imported: choose the file again and tap Import."))
    status = 400 if form.is_submitted() else 200
    form.content.data = form.copy.data = ""
    return render_template("transfer/upload.html", form=form, problems=_by_deal(problems),
                           filename=getattr(form.file.data, "filename", None)), status


def _import_group(form: transfer_forms.UploadForm, raw: bytes) -> Any:
    """A group file uploaded (GAME-FILE.md, "A group file"; issue 18, part 4): every game
    the group does not hold already is stored, and the report says what was done, game
    by game (status 200); or, when any game has a problem, nothing is stored and the
    upload page lists every problem by game (its place in the file and its players) and
    deal (status 400). The same upload sent again stores nothing more and gives the same
    report (actions.import_group: the form's token)."""
    result = actions.import_group(get_db(), raw, group_id=group_id(), nonce=form.nonce.data,
                                  max_deals=current_app.config["GAME_FILE_MAX_DEALS"],
                                  max_games=current_app.config["GROUP_FILE_MAX_GAMES"])
    filename = getattr(form.file.data, "filename", None)
    match result:
        case actions.GroupRefused(problems=found):
            form.content.data = form.copy.data = ""
            games = [(game, _by_deal(game.problems)) for game in found.games]
            return render_template("transfer/upload.html", form=form, problems=[], filename=filename,
                                   group_problems=found, group_games=games,
                                   total=_games_in(raw)), 400
        case actions.GroupImported():
            report = result.report(filename)
            try:
                report_id = actions.keep_group_report(get_db(), group_id(), report)
            except store.DiskFullError:  # the games are stored; the report is said once, here
                return _group_report_page(report)
            # the report's own address: reloaded or shown in another language (the switch
            # at the foot of the page), it says the same, and nothing is imported again
            return redirect(url_for("transfer.group_report", report_id=report_id), 303)
    raise AssertionError(result)  # pragma: no cover - every result is answered above


@bp.get("/games/import/report/<report_id>")
def group_report(report_id: str) -> Any:
    """What a group file's import did (:func:`_import_group`), at its own address for 30
    days; 404 for another group's report, an older one or none."""
    report = actions.group_report(get_db(), group_id(), report_id)
    if report is None:
        abort(404)
    return _group_report_page(report)


def _group_report_page(report: actions.GroupReport) -> str:
    return render_template("transfer/group_report.html", result=report,
                           rows=list(zip(report.games, report.files, strict=True)), filename=report.filename)


def _import_night(form: transfer_forms.UploadForm, raw: bytes) -> Any:
    """A night file uploaded (docs/night-file.md; issue 20, part 5): stored whole, in one
    transaction, and the night's page opens; or, with any problem, nothing is stored and
    the upload page lists every problem by where it is in the file (status 400)."""
    result = night_actions.import_night(get_db(), raw, group_id(), nonce=form.nonce.data,
                                        max_deals=current_app.config["GAME_FILE_MAX_DEALS"])
    if isinstance(result, night_actions.NightImported):
        flash(_("Club night imported."), "saved")
        return redirect(url_for("nights.show", night_id=result.night_id))
    if isinstance(result, night_actions.NightAlreadyStored):
        if result.more > 0:
            flash(ngettext("Nothing was imported: this club night is stored here already, with %(num)s deal fewer "
                           "than the file: the copy here is older. To take the file's, delete the night here "
                           "(at the foot of its page), then import the file again.",
                           "Nothing was imported: this club night is stored here already, with %(num)s deals fewer "
                           "than the file: the copy here is older. To take the file's, delete the night here "
                           "(at the foot of its page), then import the file again.", result.more), "told")
        elif result.differs:
            flash(_("Nothing was imported: this club night is stored here already, and the file is another copy "
                    "of it. To take the file's, delete the night here (at the foot of its page), then import the "
                    "file again."), "told")
        else:
            flash(_("Nothing was imported: this club night is already stored."), "saved")
        return redirect(url_for("nights.show", night_id=result.night_id))
    form.content.data = form.copy.data = ""
    return render_template("transfer/upload.html", form=form, problems=[], filename=getattr(form.file.data, "filename", None),
                           night_problems=[(_where(problem.field), problem.field, problem.message)
                                           for problem in result.problems]), 400


def _where(field: str | None) -> str:
    """Where in a night file a problem is, in words: "Round 3, table 2" (the file's own
    path beside it counts from 0)."""
    round_, table = place(field)
    if round_ is None:
        return ""
    if table is None:
        return _("Round %(round)s", round=round_)
    return _("Round %(round)s, table %(table)s", round=round_, table=table)


def _games_in(raw: bytes) -> int | None:
    """How many games a group file lists (None when it lists none that can be counted)."""
    try:
        games = json.loads(raw.decode("utf-8-sig")).get("games")
    except (ValueError, RecursionError, AttributeError):
        return None
    return len(games) if isinstance(games, list) else None


def _already_stored(form: transfer_forms.UploadForm, raw: bytes, stored: StoredGame,
                    continued: bool = False, table: bool = False) -> Any:
    """The upload page again, nothing stored: the same game (``stored``) is stored
    already, or (``continued``) has been played on since, or (``table``) is a club
    night's table with fewer deals; open it, or import a copy anyway (the file's text
    comes back in the form). Status 409."""
    form.content.data = raw.decode("utf-8-sig")
    form.copy.data = "1"
    return render_template("transfer/upload.html", form=form, problems=[], twin=stored, continued=continued,
                           table=table, filename=getattr(form.file.data, "filename", None)), 409


# --------------------------------------------------------------------------- paper check


def _row_count(kind: str) -> int:
    """Rows to show: ``rows`` from the address, plus ``add`` when a "more rows" button was
    tapped; between 1 and the game's most."""
    rows = whole_number(request.args.get("rows")) or transfer_forms.DEFAULT_ROWS
    rows += whole_number(request.args.get("add")) or 0
    return max(1, min(rows, transfer_forms.MAX_ROWS[kind]))


@bp.get("/check")
def paper_check() -> str:
    """Type in a score sheet kept on paper; every row or total that cannot be right is
    marked, with the reason (rules/paper.py). A GET form: nothing is stored, and the
    address of a checked sheet can be sent to whoever doubts it."""
    kind = request.args.get("kind")
    if kind not in paper.KINDS:
        return render_template("transfer/paper_choose.html")
    sent = request.args.get("sent") == "1"
    complex_ = kind == "trix" and sent and bool(request.args.get("complex"))
    form_class = transfer_forms.paper_form(kind, _row_count(kind), complex_)
    form = form_class(request.args if sent else None)
    result = None
    if sent and form.validate():
        result = paper.check_sheet(form.paper_rows(), form.options(), form.names())
    return render_template("transfer/paper_check.html", form=form, kind=kind, result=result,
                           sent=sent, chips=transfer_forms.CONTRACT_CHIPS,
                           max_rows=transfer_forms.MAX_ROWS[kind])
