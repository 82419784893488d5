"""Add, preview, edit and delete a deal. Thin: forms map, rules check, store saves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, g, redirect, render_template, request, session, url_for
from werkzeug.datastructures import MultiDict

from .. import access, actions, conflicts, forms, next_deal, night_store, sheet, store
from ..db import get_db
from ..i18n import gettext as _
from ..inputs import whole_number
from ..records import Change, StoredDeal, StoredGame
from ..rules import GameScore, RuleError, get_rules, trix
from ..rules.common import listed, signed
from ..text import isolate
from .common import forget_undo, get_game_or_404, preview_answer, refused_by_disk, sent_version
from .manage import offer_restore, restored_changes

bp = Blueprint("deals", __name__, url_prefix="/games/<game_id>/deals")


def _score_of(game: StoredGame, entries: list[dict[str, Any]]) -> GameScore:
    return game.game_file(entries).score()


def _head(game: StoredGame) -> sheet.Sheet:
    """The game's sheet, scored once per request (the form, its context and the page all
    need it)."""
    memo: dict[tuple[str, int, int], sheet.Sheet] = g.setdefault("sheets", {})
    key = (game.id, game.version, len(game.deals))
    if key not in memo:
        memo[key] = sheet.build(game)
    return memo[key]


@dataclass(frozen=True)
class Before:
    """The game as deal ``index`` begins, as its page shows it: ``next_dealer``, the seat
    that deals it (None where anyone may: the first Trix deal); in Trix, ``owner``, the
    kingdom's owner, and ``remaining``, the contracts the owner has still to choose (in
    the fixed order when there is one)."""

    next_dealer: int | None
    owner: int | None = None
    remaining: tuple[str, ...] = ()


def _before(game: StoredGame, index: int) -> Before | None:
    """The game as deal ``index`` (0-based; == len(deals) for a new one) begins, read
    from the sheet's one score: for a new deal, the score's own next dealer and contracts
    left; for a stored deal, its dealer and owner and the contracts its kingdom had not
    played before it. Only past a stored deal that no longer fits are the deals before
    it scored apart. None when they do not score either."""
    head = _head(game)
    score = head.score
    if score is not None and index == len(score.deals):  # a new deal, or the first one not fitting
        return Before(score.next_dealer, score.owner, score.remaining)
    if score is not None and head.file is not None and index < len(score.deals):
        deal = score.deals[index]
        if game.kind != "trix":
            return Before(deal.dealer)
        played = {c for d in score.deals[:index] if d.kingdom == deal.kingdom for c in d.contracts}
        order = head.file.options.order or forms.CONTRACTS  # Source: SCORING.md §2, §2.5
        return Before(deal.dealer, deal.owner, tuple(c for c in order if c not in played))
    try:
        earlier = _score_of(game, [d.entry for d in game.deals[:index]])
    except RuleError:
        return None
    return Before(earlier.next_dealer, earlier.owner, earlier.remaining)


def deal_form_class(game: StoredGame, index: int) -> type[forms.DealForm]:
    """The form for deal ``index`` (0-based; == len(deals) for a new one). A Trix form
    offers every contract: :func:`_offer` narrows them when the form is shown, so a form
    sent back is read and saved without scoring the game first (the rules check it
    inside the write)."""
    if game.kind in ("trigami", "bugami3"):
        trigami = game.kind == "trigami"
        return forms.trigami_form(game.players_at(index + 1), turnip=trigami, tricks=13 if trigami else 17,
                                  suit_size=10 if trigami else 13)
    options = get_rules(game.kind).parse_options(game.options)
    return forms.trix_form(game.players_at(index + 1), offered=game.options.get("order") or forms.CONTRACTS,
                           complex_=options.complex, doubling=options.doubling)


def _offer(form: forms.DealForm, game: StoredGame, index: int, also: list[str] | None = None) -> None:
    """Trix: let the form offer only the contracts deal ``index`` may choose: those its
    owner has still to play (only the next one in a fixed order), the deal's own when
    editing, and ``also``: a phone's choice that another phone has played meanwhile, so
    that its entries stay on the page."""
    if game.kind != "trix":
        return
    before = _before(game, index)
    offered = list(before.remaining) if before is not None else list(forms.CONTRACTS)
    if game.options.get("order") and not get_rules(game.kind).parse_options(game.options).complex:
        offered = offered[:1]  # a fixed order leaves only the next contract
    if index < len(game.deals):
        # a stored deal: not the contracts its kingdom plays after it either (tester 71:
        # deal 3's form offered deal 4's Tricks, and Save refused it naming deal 4)
        later = _played_after(game, index)
        offered = [c for c in offered if c not in later]
        offered += [c for c in game.deals[index].entry["contracts"] if c not in offered]
    offered += [c for c in also or () if c in forms.CONTRACTS and c not in offered]
    order = game.options.get("order") or forms.CONTRACTS
    form.offer([c for c in order if c in offered] or list(forms.CONTRACTS))


def _played_after(game: StoredGame, index: int) -> set[str]:
    """Trix: the contracts the deals after stored deal ``index`` play in its kingdom, read
    from the sheet's one score (none where it does not score that far)."""
    score = _head(game).score
    if score is None or index >= len(score.deals):
        return set()
    kingdom = score.deals[index].kingdom
    return {c for d in score.deals[index + 1:] if d.kingdom == kingdom for c in d.contracts}


def _entry(form: forms.DealForm, game: StoredGame, index: int) -> dict[str, Any] | None:
    """The deal's entry as the game file writes it (for place ``index``, 0-based); or
    None after attaching every problem to its field. Only the deal's own shape is checked
    here (rules.parse_deal: nothing is scored): the rules check it against the game
    inside the write (store.add_deal_scored, update_deal_scored), where a change another
    phone saved this instant counts, and that check's score is the answer's too."""
    entry = form.to_entry()
    if entry is None:
        return None
    rules = get_rules(game.kind)
    try:
        return rules.dump_deal(rules.parse_deal(entry, index + 1, game.players_at(index + 1)))
    except RuleError as error:
        forms.attach_error(form, error, index + 1)
        return None


def _csrf_problem(form: forms.DealForm) -> None:
    if forms.csrf_failed(form):
        form.form_errors.append(_("This page was open too long or came from elsewhere. Your entries "
                                  "are kept: check them and tap Save again."))


def _sheet_at(game_id: str, number: int | None) -> str:
    """The score sheet's address, opened at deal ``number``'s row (#deal-N: below the
    sheet's sticky names and totals, app.css), or at its top when ``number`` is None or 0.
    The page's messages and Undo sit in its bar at the bottom, so they stay in sight."""
    return url_for("games.show", game_id=game_id, _anchor=f"deal-{number}" if number else None)


def _flash_saved(saved: actions.AlreadySaved) -> str:
    """Say again what the first tap saved (its response may not be the one shown); the
    sheet's address at that deal."""
    game = saved.game
    if saved.number is None or saved.score is None:
        flash(_("That deal was already saved."), "saved")
        return _sheet_at(game.id, len(game.deals))
    flash(_("Deal %(n)s saved: %(points)s.", n=saved.number, points=_summary(game, saved.score, saved.number - 1)),
          "saved")
    if saved.version is not None:  # still the newest deal: Undo stays on offer
        session["last_added"] = {"game": game.id, "deal": saved.deal_id, "version": saved.version}
    return _sheet_at(game.id, saved.number)


def _summary(game: StoredGame, result: GameScore, index: int) -> str:
    deal = result.deals[index]
    return listed(f"{isolate(name)} {signed(p)}" for name, p in zip(game.players_at(index + 1), deal.points, strict=True))


def _context(game: StoredGame, index: int) -> dict[str, Any]:
    """What the deal page shows besides the form: the dealer, the kingdom, the number."""
    head = _head(game)
    return {"game": game, "number": index + 1, "names": game.players_at(index + 1), "before": _before(game, index), "current": head.deal_score(index),
            "rules": get_rules(game.kind), "sheet": head}


@bp.route("/new", methods=["GET", "POST"])
def new(game_id: str) -> Any:
    """The form for the next deal (GET); save it (POST: actions.add_deal) and go to the
    sheet at its row, or the form again saying why not."""
    game = get_game_or_404(game_id)
    index = len(game.deals)
    form = deal_form_class(game, index)()
    if not form.is_submitted():
        form.seen.data = str(game.version)
        if _head(game).finished:
            if request.args.get("kept") == "1":  # the finished sheet's "Show them"
                return _kept_over_page(form, game)
            flash(_("This game is over: no more deals can be added."), "saved")
            return redirect(url_for("games.show", game_id=game.id))
        return _new_page(form, game, request.args.get("contract"))
    valid = form.validate()
    if (card := access.shut_card()) is not None:  # a table card whose round closed meanwhile
        return _card_shut_page(form, game, index, card)
    if forms.csrf_failed(form):  # nothing saved: never weighed against the game (not a 409)
        _entry(form, game, index)  # every other problem said at once
        return _new_page(form, game)
    entry = _entry(form, game, index)  # even when a field is off: report every problem at once
    result = actions.add_deal(get_db(), game, entry if valid else None, nonce=form.nonce.data,
                              seen=sent_version(form.seen.data), mine=request.form.get("mine", "").split(","),
                              card=access.card())
    match result:
        case actions.Saved(deal_id=deal_id, number=number, score=score, version=version):
            session["last_added"] = {"game": game.id, "deal": deal_id, "version": version}
            flash(_("Deal %(n)s saved: %(points)s.", n=number, points=_summary(game, score, number - 1)), "saved")
            return redirect(_sheet_at(game.id, number))  # its row in sight, the totals above it
        case actions.AlreadySaved():  # a double tap, or the form sent again: it is saved once
            sheet = _flash_saved(result)
            if request.form.get("outbox") == "1":
                # to the outbox's send (static/app.js), which follows no redirect: saved by an
                # earlier send whose answer was lost, and at which version of the game, so
                # that a state of this phone's that counts it already does not count it twice
                # (tester 42: the next form said deal 3, and Trix hid a contract left)
                return render_template("deals/saved_already.html", game=game, number=result.number,
                                       added=store.added_at(get_db(), game.id, result.deal_id), sheet=sheet)
            return redirect(sheet)
        case actions.SameDeal():  # another phone entered this very deal first: it is saved once
            return _same_deal(result)
        case actions.Stale(game=now, arrived=arrived, set_back=set_back):
            return _stale(now, arrived, entry if valid else None, asked=request.form.get("compare") == "1",
                          own=_own_deals(game.id, request.form.get("mine", "").split(",")), set_back=set_back)
        case actions.Refused(error=error, others=others):
            for problem in (error, *others):  # every problem the deal shows, at once
                forms.attach_error(form, problem, index + 1)
        case actions.DiskFull(error=refused):
            # the form again with the entries as typed (static/app.js keeps the deal in
            # the outbox and sends it by itself once there is space)
            return _new_page(form, game, disk_full=refused_by_disk(refused))
        case actions.CardClosed():  # the round closed at the instant of the save
            return _card_shut_page(form, game, index, access.card_as_now())
    return _new_page(form, game)


def _kept_over_page(form: forms.DealForm, game: StoredGame) -> Any:
    """A game over, the form its sheet's "Show them" opens: the entries this phone kept
    and never saved (static/app.js brings them back), to compare with the deals saved,
    and to discard; no Save (tester 59: the sheet said they were kept, and nothing could
    show them)."""
    index = len(game.deals)
    _offer(form, game, index)
    return render_template("deals/form.html", form=form, kept_over=True, **_context(game, index))


def _card_shut_page(form: forms.DealForm, game: StoredGame, index: int, card: Any,
                    deal_id: int | None = None) -> Any:
    """The deal form as it was sent (a new deal, or ``deal_id`` changed), nothing saved,
    saying that the phone's table card (``card``, groups.Table as it is now) no longer
    saves deals: its round closed, its time ran out, the night is over (403). The entries
    stay on the page as typed, for the players to give to the organiser (tester 28: the
    card's page alone had lost them); no Save, no preview."""
    editing = {"deal_id": deal_id} if deal_id is not None else {}
    _offer(form, game, index)  # the contracts the deal could choose, as on its form (tester 34: all five)
    _keep_chosen(form, game, index)
    return render_template("deals/form.html", form=form, card_shut=card, **editing, **_context(game, index)), 403


def _new_page(form: forms.DealForm, game: StoredGame, contract: str | None = None,
              disk_full: str | None = None) -> Any:
    """The add-deal form (``contract``: Trix, the contract to tick on a form just opened;
    ``disk_full``: what the phone is told when the disk refused the deal): status 507
    then, 400 with a problem, else 200. A table of a club night whose round is closed
    says, as its sheet does, that deals added now do not count in the night."""
    index = len(game.deals)
    _csrf_problem(form)
    _offer(form, game, index)
    if form.is_submitted():
        # a contract refused as played already stays on show with what was typed for it,
        # beside the rule's word, to change or discard (tester 8: the chip and its taker
        # were gone, after the conflict page's "Add mine" had kept them)
        _keep_chosen(form, game, index)
    played_already = None
    if not form.is_submitted():
        _choose(form, contract)
        played_already = _played_already(game, index, contract)
    contracts_now = _keep_every_contract(form, game)
    context = _context(game, index)
    if context["sheet"].finished and not form.form_errors:
        form.form_errors.append(_("This game is over: no more deals can be added."))
    return render_template("deals/form.html", form=form, disk_full=disk_full, contracts_now=contracts_now,
                           played_already=played_already,
                           next_deal=None if form.is_submitted() else next_deal.state(
                               context["sheet"], store.deal_tokens(get_db(), game.id)),
                           night=night_store.table_of(get_db(), game.id), **context), \
        507 if disk_full else 400 if form.has_errors else 200


def _keep_every_contract(form: forms.DealForm, game: StoredGame) -> tuple[str, ...] | None:
    """Trix, the add-deal form: every contract drawn, those not offered now hidden; the
    ones offered now (None for other games). Opened again without connection, the form
    offers what this phone works out from its own deals since (static/app.js,
    next_deal.py): a kingdom just begun offers all five again. Issue 18, part 7."""
    if game.kind != "trix" or form.is_submitted():  # a form sent back is never kept for the road
        return None
    now = form.offered_contracts
    form.offer([c for c in game.options.get("order") or forms.CONTRACTS if c in forms.CONTRACTS])
    return now


def _own_deals(game_id: str, nonces: list[str]) -> set[int]:
    """The ids of the game's deals saved with this phone's form tokens ``nonces`` (sent
    from its outbox): its own deals, never "added on another phone" (issue 18, part 7)."""
    return set(store.deals_by_nonce(get_db(), game_id, [n for n in nonces if 0 < len(n) <= 64][:50]).values())


def _keep_chosen(form: forms.DealForm, game: StoredGame, index: int) -> list[str]:
    """Trix, a form sent back (after :func:`_offer`): the contracts the phone chose that
    the game no longer offers (played meanwhile, on another phone), offered again so that
    they and their entries stay on show; returned (none in other games; a forged or
    garbled contract is none of the five)."""
    if game.kind != "trix":
        return []
    chosen = [c for c in request.form.getlist("contracts") if c in forms.CONTRACTS]
    played = [c for c in chosen if c not in form.offered_contracts]
    if played:
        _offer(form, game, index, also=played)
    return played


def _played_already(game: StoredGame, index: int, contract: str | None) -> str | None:
    """Trix: the name of ``contract`` (the one the score sheet's "+ Queens" asked the form
    to tick) when its kingdom has played it already, as deal ``index`` begins (another
    phone entered it after this phone's sheet was drawn): the form says so rather than
    open with nothing ticked and no word why (tester 8). None otherwise."""
    if game.kind != "trix" or contract not in forms.CONTRACTS:
        return None
    before = _before(game, index)
    if before is None or contract in before.remaining:
        return None
    return str(forms.CONTRACT_NAMES[contract])


def _choose(form: forms.DealForm, contract: str | None) -> None:
    """Trix: tick ``contract`` (the score sheet's "+ Queens" opens the form so: one tap
    less at the table), if the form offers it."""
    if contract and contract in getattr(form, "offered_contracts", ()):
        form.contracts.data = [contract] if form.is_complex else contract


def _same_deal(same: actions.SameDeal) -> Any:
    """Another phone had entered this very deal (issue 18, part 8): nothing was added.
    The sheet at that deal's row, saying so; to the outbox's own send (form field
    ``outbox``, static/app.js), which follows no redirect, the words in a page of their
    own (``data-same-deal``, with that deal's form token in ``data-nonce``, which the
    outbox counts as its own from then on), status 200, for the waiting deal to be
    marked sent."""
    game = same.game
    try:
        points = _summary(game, game.game_file().score(), same.number - 1)
        # "once": not a second copy (tester 34: "Saved" read as stored again)
        said = _("Already saved, once — the other phone had entered this very deal (deal %(n)s: %(points)s).",
                 n=same.number, points=points)
    except (RuleError, IndexError):
        said = _("Already saved, once — the other phone had entered this very deal (deal %(n)s).", n=same.number)
    if request.form.get("outbox") == "1":
        return render_template("deals/same.html", game=game, said=said, number=same.number, nonce=same.nonce)
    flash(said, "saved")
    return redirect(_sheet_at(game.id, same.number))


def _stale(game: StoredGame, since: list[Change], entry: dict[str, Any] | None = None, asked: bool = False,
           own: set[int] | None = None, set_back: bool = False) -> Any:
    """The add-deal form again, nothing saved: what arrived from another phone meanwhile
    (this phone's own deals ``own``, deal ids, left out: issue 18, part 7), the entries as
    typed, and the choice "Discard mine" or "Add mine as deal N+1" (a
    Save against the game as it is now), equally plain. When another phone added a deal
    meanwhile, it stands beside this phone's ``entry`` (conflicts.compare: theirs and
    mine, field by field with the points, and where they differ; issue 18, part 8).
    ``asked``: sent by "Compare with deal N" (entries brought back for a deal another
    phone added): the page says it is that comparison, not a new race. Status 409."""
    index = len(game.deals)
    form = deal_form_class(game, index)(formdata=request.form)
    _offer(form, game, index)
    played = _keep_chosen(form, game, index)  # the other phone played the contract this one chose
    form.seen.data = str(game.version)
    context = _context(game, index)
    clash = _("%(contracts)s has been played in this kingdom meanwhile: if yours is the same deal, "
              "discard it; if not, choose the contract that was really played.",
              contracts=" + ".join(str(forms.CONTRACT_NAMES[c]) for c in played)) if played else None
    return render_template("deals/form.html", form=form, arrivals=conflicts.arrivals(game, since, own or (), set_back),
                           set_back=set_back, asked=asked,
                           compared=conflicts.compare(game, since, entry, own or ()), clash=clash, **context), 409


@bp.route("/<int:deal_id>/edit", methods=["GET", "POST"])
def edit(game_id: str, deal_id: int) -> Any:
    """The form for a stored deal (GET); save the change (POST: actions.change_deal) and
    go to the sheet at its row, or the form again saying why not."""
    game = get_game_or_404(game_id)
    if _gone(game, deal_id):
        if request.method == "POST":
            return _deleted_meanwhile(game, deal_id, actions.deleted_meanwhile(get_db(), game.id, deal_id))
        return _deleted_already(game, deal_id)
    index = _index_or_404(game, deal_id)
    form = deal_form_class(game, index)()
    if not form.is_submitted():
        changes = restored_changes(game.id, deal_id)
        if changes is not None:  # restored after it was deleted under this phone's change
            form = deal_form_class(game, index)(formdata=MultiDict([(n, v) for n, v in changes]))
            form.notices.append(_("Deal %(n)s is back. Your change, not saved when it was deleted, is in "
                                  "the form again: check it, then tap Save changes.", n=index + 1))
        else:
            form.fill(game.deals[index].entry)
        form.version.data = game.deals[index].version
        return _edit_page(form, game, deal_id)
    valid = form.validate()
    if (card := access.shut_card()) is not None:  # a table card whose round closed meanwhile
        return _card_shut_page(form, game, index, card, deal_id)
    if forms.csrf_failed(form):  # nothing changed: never weighed against the game (not a 409)
        _entry(form, game, index)
        return _edit_page(form, game, deal_id)
    entry = _entry(form, game, index)
    result = actions.change_deal(get_db(), game, deal_id, entry if valid else None,
                                 expected=form.version.data or None, card=access.card())
    match result:
        case actions.Changed(number=number, altered=False):  # Save on the deal as it was drawn
            flash(_("Deal %(n)s is unchanged: there was nothing to save.", n=number), "told")
            return redirect(_sheet_at(game.id, index + 1))
        case actions.Changed(number=number, score=score):
            flash(_("Deal %(n)s changed: %(points)s.", n=number, points=_summary(game, score, number - 1)), "saved")
            forget_undo()  # its Undo would not take this change back
            return redirect(_sheet_at(game.id, index + 1))
        case actions.Gone():  # deleted this instant on another phone
            return _deleted_meanwhile(game, deal_id, result)
        case actions.ChangedMeanwhile(deal=now, read=read):
            return _changed_meanwhile(form, game, deal_id, now, read, entry if valid else None)
        case actions.Refused(error=error, others=others):  # the deal breaks a rule, or a later one no longer fits
            for problem in (error, *others):
                forms.attach_error(form, problem, index + 1)
        case actions.DiskFull(error=refused):  # the form again, the entries as typed
            return _edit_page(form, game, deal_id, disk_full=refused_by_disk(refused), status=507)
        case actions.CardClosed():  # the round closed at the instant of the save
            return _card_shut_page(form, game, index, access.card_as_now(), deal_id)
    return _edit_page(form, game, deal_id)


def _changed_meanwhile(form: forms.DealForm, game: StoredGame, deal_id: int, now: StoredDeal,
                       read: dict[str, Any] | None, mine: dict[str, Any] | None) -> Any:
    """The edit form again, nothing saved (409): the deal was changed on another phone
    since this form was opened. When the phone's entries read and the deal as the phone
    read it is known, the form holds both phones' changes (conflicts.changed_twice: what
    this phone left alone takes theirs), so a second Save undoes nothing of theirs
    unseen; else the entries as typed. Either way the page says what the other phone
    changed and what Save would change in the deal as saved now, field by field."""
    index = game.deal_index(deal_id)
    told = conflicts.changed_twice(game.kind, read, now.entry, mine,
                                   tuple(isolate(name) for name in game.players_at(index + 1)))
    if told.entry is not None:
        form = deal_form_class(game, index)(formdata=None)  # the fields as put together, not as sent
        form.fill(told.entry)
        form.notices.append(_("Deal %(n)s was changed on another phone while this page was open. The form "
                              "now holds that change and yours: check it, then tap Save.", n=index + 1))
    else:
        form.notices.append(_("Deal %(n)s was changed on another phone while this page was open. "
                              "Your entries are kept: tap Save again to replace that change, "
                              "or open the score sheet to see it.", n=index + 1))
    form.version.data = now.version
    return _edit_page(form, game, deal_id, status=409, meanwhile=told)


def _edit_page(form: forms.DealForm, game: StoredGame, deal_id: int, disk_full: str | None = None,
               status: int = 200, meanwhile: conflicts.ChangedTwice | None = None) -> Any:
    """The form for stored deal ``deal_id`` (``disk_full``: what the phone is told when
    the disk refused the change; ``meanwhile``: another phone's change to it,
    conflicts.ChangedTwice); ``status``, or 400 for a 200 with a problem."""
    index = game.deal_index(deal_id)
    _csrf_problem(form)
    _offer(form, game, index)
    if form.has_errors and status == 200:
        status = 400
    return render_template("deals/form.html", form=form, deal_id=deal_id, disk_full=disk_full, meanwhile=meanwhile,
                           **_context(game, index)), status


def _deleted_already(game: StoredGame, deal_id: int) -> Any:
    """A deleted deal's page opened again (Back after its delete, an old link): the sheet,
    saying the deal is deleted and offering to restore it, not a bare "Not found" that
    reads as if the game were gone. 404 when the game never had such a deal."""
    gone = actions.deleted_meanwhile(get_db(), game.id, deal_id)
    if gone.number is None:
        abort(404)
    offer_restore(game, deal_id, gone.number)
    flash(_("Deal %(n)s deleted.", n=gone.number), "restorable")
    return redirect(url_for("games.show", game_id=game.id))


#: The most of a change's fields kept for its deal's restore (the session is a cookie)
_KEPT_CHANGE_CHARS = 1500


def _deleted_meanwhile(game: StoredGame, deal_id: int, gone: actions.Gone) -> Any:
    """Back to the sheet: the deal being changed was deleted on another phone; the flash
    offers to restore it, and restored it opens in its form with this phone's change
    (the form's fields as sent, kept in the session). 404 when the game has no such deal."""
    if gone.number is None:
        abort(404)
    changes = [[name, value] for name, value in request.form.items(multi=True) if name != "csrf_token"]
    kept = changes if sum(len(n) + len(v) for n, v in changes) <= _KEPT_CHANGE_CHARS else None
    offer_restore(game, deal_id, gone.number, kept)
    flash(_("Deal %(n)s was deleted in the meantime (on another phone?), so the change was not saved.",
            n=gone.number) + (" " + _("Restored, it opens with your change, to save again.") if kept else ""),
          "restorable")
    return redirect(url_for("games.show", game_id=game.id))


@bp.post("/preview")
def preview(game_id: str) -> Any:
    """Each player's points for the deal as filled in so far (JSON), for the live preview.
    ``deal`` (a query argument) is the id of the deal being edited."""
    game = get_game_or_404(game_id)
    deal_id = whole_number(request.args.get("deal"))
    index = _index_or_404(game, deal_id) if deal_id is not None else len(game.deals)
    form = deal_form_class(game, index)()
    valid = form.validate()
    _csrf_problem(form)
    entry = _entry(form, game, index)  # every problem, as a Save would find it
    deal = None
    if valid and entry is not None:
        entries = [d.entry for d in game.deals]
        entries[index:index + 1] = [entry]
        try:
            deal = _score_of(game, entries).deals[index]
        except RuleError as error:
            forms.attach_error(form, error, index + 1)
    return preview_answer(form, deal)


@bp.route("/<int:deal_id>/delete", methods=["GET", "POST"])
def delete(game_id: str, deal_id: int) -> Any:
    """Ask once, naming the deal (GET); delete it (POST, also the sheet's Undo with
    ``undo=1``). Form field ``version``: the deal's fingerprint as the phone showed it; a
    deal changed meanwhile is asked about again. The same delete sent twice deletes once
    and gets the same answer."""
    game = get_game_or_404(game_id)
    form = forms.EmptyForm()
    if request.method == "POST" and form.validate_on_submit():
        result = actions.delete_deal(get_db(), game.id, deal_id, expected=request.form.get("version") or None,
                                     card=access.card(), undo=request.form.get("undo") == "1",
                                     later=request.form.get("later"))
        match result:
            case actions.NotLast(number=number, game=now):
                # the deal's "Delete deal N?" page, saying why nothing was taken back
                form.form_errors.append(_("Another phone added deal %(next)s meanwhile, so deal %(n)s is no longer "
                                          "the last: nothing was taken back.", n=number, next=number + 1))
                return _confirm(now, deal_id, form, actions.delete_problem(now, deal_id),
                                now.deals[number - 1].version), 409
            case actions.LaterChanged(number=number, game=now):
                # the page drawn again: what deleting it does now (the deals after it move up)
                form.form_errors.append(_("Another phone added or deleted a deal after deal %(n)s meanwhile, so this "
                                          "page no longer said what deleting it does: nothing was deleted. Read it "
                                          "again below, then tap Delete to delete it.", n=number))
                return _confirm(now, deal_id, form, actions.delete_problem(now, deal_id),
                                now.deals[number - 1].version), 409
            case actions.Deleted(number=number, again=again):
                return _deleted(game, deal_id, number, undo=request.form.get("undo") == "1", again=again)
            case actions.NotFound():
                abort(404)
            case actions.ChangedMeanwhile(deal=now):
                current = store.get_game(get_db(), game.id)
                # as it is now, it may not be deletable at all: then no Delete to tap again
                # (deleted meanwhile, the instant after: _confirm answers 404, as before)
                problem = None if _gone(current, deal_id) else actions.delete_problem(current, deal_id)
                form.form_errors.append(
                    _("Deal %(n)s was changed on another phone meanwhile: it now reads as below.",
                      n=game.deal_index(deal_id) + 1) if problem else
                    _("Deal %(n)s was changed on another phone meanwhile: it now reads as below. Tap Delete again "
                      "to delete it as it is now.", n=game.deal_index(deal_id) + 1))
                return _confirm(current, deal_id, form, problem, now.version), 409
            case actions.Refused(error=error):
                return _confirm(store.get_game(get_db(), game.id), deal_id, form, error, None), 400
            case actions.SeatTakenFromDeal2() as seat_first:  # a seat change taken meanwhile, too
                return _confirm(store.get_game(get_db(), game.id), deal_id, form, seat_first, None), 400
            case actions.CardClosed():  # the round closed at the instant of the delete
                return access.card_closed()
    if request.method == "POST" and _gone(game, deal_id):  # a repeat whose token failed
        return redirect(url_for("games.show", game_id=game.id))
    if _gone(game, deal_id):  # Back after the delete: its page again
        return _deleted_already(game, deal_id)
    index = _index_or_404(game, deal_id)
    if forms.csrf_failed(form):
        form.form_errors.append(_("This page was open too long. Tap Delete again to confirm."))
    return _confirm(game, deal_id, form, actions.delete_problem(game, deal_id),
                    request.form.get("version") or game.deals[index].version), 400 if form.is_submitted() else 200


def _deleted(game: StoredGame, deal_id: int, number: int, undo: bool, again: bool = False) -> Any:
    """To the sheet after deal ``deal_id`` (number ``number``) left play, at the deal now
    in its place (after an Undo: the newest one); the flash offers to restore it.
    ``again``: it had left already; when another deal has its number since (``game`` as
    the request read it), the flash says so (tester 64: "Deal 7 taken back." over the
    other phone's deal 7, which stayed)."""
    session.pop("last_added", None)
    offer_restore(game, deal_id, number)  # soft: the history can restore it
    if again and all(d.id != deal_id for d in game.deals) and len(game.deals) >= number:
        flash(_("Deal %(n)s had already been deleted (on another phone?), so nothing was taken back: the deal "
                "%(n)s on the sheet now is another one.", n=number), "restorable")
    else:
        flash(_("Deal %(n)s taken back.", n=number) if undo else _("Deal %(n)s deleted.", n=number), "restorable")
    left = sum(1 for d in game.deals if d.id != deal_id)
    return redirect(_sheet_at(game.id, min(number, left)))


def _confirm(game: StoredGame, deal_id: int, form: forms.EmptyForm,
             problem: RuleError | actions.SeatTakenFromDeal2 | None,
             version: str | None) -> str:
    """The "Delete deal N?" page (``version``: the fingerprint its Delete button sends)."""
    return render_template("deals/delete.html", form=form, problem=problem, deal_id=deal_id,
                           version=version, later=actions.later_deals(game, deal_id),
                           **_context(game, _index_or_404(game, deal_id)))


def _gone(game: StoredGame, deal_id: int) -> bool:
    """Whether ``deal_id`` is not (or no longer) a deal of ``game``."""
    return all(d.id != deal_id for d in game.deals)


def _index_or_404(game: StoredGame, deal_id: int) -> int:
    try:
        return game.deal_index(deal_id)
    except store.NotFoundError:
        abort(404)


@bp.app_template_global("trix_hints")
def trix_hints(options: Any) -> Any:
    """What each Trix contract gives under a game's ``options`` (the game file's dict, or
    parsed: TrixOptions), for the deal form's hints: rules.trix.hints, so a hint says what
    the sheet will."""
    return trix.hints(options if isinstance(options, trix.TrixOptions) else trix.TRIX.parse_options(options))
