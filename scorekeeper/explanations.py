"""Why every number on the score sheet is what it is, and the game under other settings.

No Flask and no database: a parsed game file (:class:`~scorekeeper.gamefile.GameFile`)
and its :class:`~scorekeeper.rules.GameScore` in, frozen explanations out; the views
render them.  Each explanation carries its steps in the rules' own terms, the source it
rests on (a source string as rules/sources.py reads it) and the passages quoted from it,
as cited; what a reader is shown of them (statements for players, texts in their
language, originals) is rules.sources.in_language's, applied by the views.

:func:`what_if` re-scores the same deal entries under other settings; nothing stored
changes.  Source: SCORING.md §1.4 (Trigami game), §2 and §2.1–2.5 (Trix), as cited below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .gamefile import GameFile
from .i18n import right_to_left
from .rules import DealError, GameScore
from .rules.common import DealScore, KingdomCheck, _, _n, and_listed, listed, together
from .rules.common import number as written
from .rules.sources import Passage, quote, quote_all
from .rules.trigami import BUGAMI3, TRIGAMI
from .rules.trix import CONTRACTS, contract_name, contract_total, reading_words, team_standings
from .text import isolate, left_to_right

#: What the sheet's game-level numbers rest on, per kind of game.
TOTAL_SOURCES: Mapping[str, str] = {
    "trigami": "SCORING.md §1.4; rules/trigami.en.txt, Winning the game",
    "bugami3": "SCORING.md §1.4, §1.5; rules/trigami.en.txt, Winning the game",
    "trix": "SCORING.md §2; rules/trix.de.txt, Spielende",
}
DEALER_SOURCES: Mapping[str, str] = {
    "trigami": "SCORING.md §1.4; rules/trigami.en.txt, Setup, Playing",
    # plain Bugami: the items of Trigami's text that hold for it, not its 13 cards and
    # turnip (tester 39: "Pelaajille jaetaan 13 korttia" under "Why this dealer?")
    "bugami3": ("SCORING.md §1.4, §1.5; rules/trigami.en.txt, Setup: Choose the first dealer, "
                "Playing: The player to the dealer's left, Variants: Plain Bugami for three"),
    "trix": "SCORING.md §2; rules/trix.de.txt, Vorbereitung und Königreiche",
}
REVERSED_SOURCE = "SCORING.md §2.5 Reversed scoring; rules/trix.de.txt, Varianten: Umgekehrte Wertung"
TEAMS_SOURCE = "SCORING.md §2.5 Partners; rules/trix.de.txt, Varianten: Trix mit Partnern"
KINGDOM_SOURCE = "SCORING.md §2.1; rules/trix.de.txt, Abrechnung"
DOUBLED_KINGDOM_SOURCE = "SCORING.md §2.2; rules/trix.de.txt, Herz-König und Damen verdoppeln"


def _is_trix(file: GameFile) -> bool:
    return file.kind == "trix"


def _reversed(file: GameFile) -> bool:
    return _is_trix(file) and file.options.reversed



def sum_terms(numbers: Sequence[int]) -> str:
    """Numbers to add up as a person writes them: [80, -7, 20] → "80 − 7 + 20", not
    "80 + −7 + 20" (in a page, in the reader's digits: rules.common.number); "" for none."""
    if not numbers:
        return ""
    text = written(numbers[0])
    for value in numbers[1:]:
        text += f" − {written(-value)}" if value < 0 else f" + {written(value)}"
    return text


def sum_expression(numbers: Sequence[int]) -> str:
    """Numbers added up as a person writes it: [80, -7, 20] → "80 − 7 + 20 = 93" (in a
    page, in the reader's digits: rules.common.number). On a right-to-left page the sum
    is a left-to-right isolate (U+2066 … U+2069, UAX #9 §2.7), read as written: in an
    Arabic sentence its numbers and signs would otherwise be reordered ("٩٣ = ٢٠ + ٧ −")."""
    if not numbers:
        return written(0)
    text = f"{sum_terms(numbers)} = {written(sum(numbers))}"
    return left_to_right(text) if right_to_left() else text


class NotExplained(LookupError):
    """No such deal, seat or kingdom in the scored game (1-based numbers, 0-based seats)."""


# ----------------------------------------------------------------------------- this app's readings


def setting_sentence(setting: str, calculator: bool = False) -> str:
    """The sentence that names the setting which changes a reading: ``setting`` the
    setting's name as the settings page shows it (a translated label); ``calculator``:
    said on the calculator, whose settings are on its own page, above (tester 35: it
    named a game's "Players and settings" page the calculator has not)."""
    if calculator:
        return _("The setting “{setting}” above changes this.").format(setting=setting)
    return _("The setting “{setting}” under “{page}” changes this.").format(
        setting=setting, page=_("Players and settings"))


def reversed_reading(calculator: bool = False) -> tuple[str, ...]:
    """This app's reading of Trix reversed scoring, and its setting (SCORING.md §2.5,
    Reversed scoring: every sign flipped, the doubler's share included); ``calculator``
    as :func:`setting_sentence`."""
    return (_("This app's reading of reversed scoring: every sign is flipped, the doubler's share "
              "included, so each deal scores the exact opposite of standard scoring, and the lowest "
              "total wins."), setting_sentence(_("Scoring"), calculator))


def leftover_reading(tricks: int) -> tuple[str, ...]:
    """This app's reading of the card left over in plain Bugami for three: it joins the
    last trick (SCORING.md §1.5); ``tricks`` the cards dealt to each (17).  No setting."""
    return (_("This app's reading, where the variant's text is silent: the one card left over after "
              "dealing {n} cards each joins the last trick, so whoever wins the last trick counts it "
              "among their bugs when it is of their bug suit.").format(n=tricks),)


def tie_reading() -> tuple[str, ...]:
    """This app's reading of a tie at the top in Trigami and plain Bugami: play goes on
    (SCORING.md §1.4).  No setting."""
    return (_("This app's reading, where the rules are silent: while the highest total at or over "
              "the target is shared, nobody has won; the game goes on, and the next deal decides."),)


def worst_loses_reading(reversed_: bool) -> tuple[str, ...]:
    """This app's reading of partners' "the team with the worst total loses", and its
    setting (SCORING.md §2.5, Partners; with reversed scoring "worst" is the highest)."""
    return (_("This app's reading of “the team with the worst total loses”: the worst total is the "
              "highest of the four players' totals.")
            if reversed_ else
            _("This app's reading of “the team with the worst total loses”: the worst total is the "
              "lowest of the four players' totals."),
            setting_sentence(_("Partners")))


def _tied_at_the_top(score: GameScore, target: int) -> bool:
    """Whether after some deal of ``score`` the highest total, at or over ``target``, was
    shared: the case a tie at the top decides (SCORING.md §1.4)."""
    return any(max(d.totals) >= target and d.totals.count(max(d.totals)) > 1 for d in score.deals)


def every_trick_reading() -> tuple[str, ...]:
    """This app's reading where the Trigami texts differ: every trick after a Turnip or
    Doublets bid scores 200 whatever the bugs, as the English and German texts say; the
    Finnish adds "without bugs", which cannot happen (SCORING.md §1.2).  No setting."""
    return (_("This app's reading, where the texts differ: every trick won after a Turnip or Doublets bid "
              "scores {points} whatever the bugs, as the English and German texts say. The Finnish text's "
              "Doublets paragraph adds “having taken no bugs”, which cannot happen: every trick brings all "
              "the bugs.").format(points=200),)


def _every_trick_bid(kind: str, entry: Mapping[str, Any], tricks: int, asked: int | None = None) -> bool:
    """Whether deal ``entry`` (the game file's dict) of a ``kind`` game has a Turnip or
    Doublets bidder winning every one of its ``tricks`` tricks: the case of
    :func:`every_trick_reading`; with ``asked`` (a seat), whether that seat is the one:
    the others' 0 follows from the rules alike (tester 31: the reading stood under a
    plain bidder's 0)."""
    bids = entry.get("bids") or []
    return kind == "trigami" and any(
        count == tricks and seat < len(bids) and bids[seat].get("kind") in ("turnip", "doublets")
        and (asked is None or asked == seat)
        for seat, count in enumerate(entry.get("tricks") or []))


def _deal_readings(file: GameFile, calculator: bool = False) -> tuple[str, ...]:
    """The readings that decide the points of any deal of ``file`` (``calculator``: as
    :func:`setting_sentence`)."""
    if file.kind == "bugami3":
        return leftover_reading(BUGAMI3.tricks)
    return reversed_reading(calculator) if _reversed(file) else ()


# ----------------------------------------------------------------------------- one deal


@dataclass(frozen=True)
class LineExplanation:
    """One player's points in one deal: ``steps`` from the rules (ScoreLine.steps),
    ``source`` the ScoreLine's source string and ``passages`` quoted from it; ``notes``
    the house readings that decide them (ScoreLine.notes), said under the steps."""

    seat: int
    name: str
    points: int
    steps: tuple[str, ...]
    source: str
    passages: tuple[Passage, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class DealExplanation:
    """A deal explained.

    ``number`` 1-based; ``entry`` the deal as entered (the game file's dict, normalised);
    ``deal`` its DealScore; ``lines`` the seats asked for (one, or every seat); ``dealt``
    a sentence saying who dealt and chose; ``passages`` every passage the lines cite, once;
    ``count`` the number of deals scored (for links to the previous and next deal);
    ``readings`` this app's readings that decide the deal's points, each in a sentence,
    with the setting that changes it (see :func:`reversed_reading`, :func:`leftover_reading`).
    """

    number: int
    kind: str
    players: tuple[str, ...]
    entry: dict[str, Any]
    deal: DealScore
    lines: tuple[LineExplanation, ...]
    dealt: str
    passages: tuple[Passage, ...]
    count: int
    readings: tuple[str, ...] = ()


def explain_line(deal: DealScore, seat: int, players: Sequence[str]) -> LineExplanation:
    """One seat's line of a scored deal, with its quoted sources; raises NotExplained for
    a seat that is not in the deal, SourceError for a citation the texts do not have."""
    if not 0 <= seat < len(deal.lines):
        raise NotExplained(f"no seat {seat} in deal {deal.number}")
    line = deal.lines[seat]
    return LineExplanation(seat=seat, name=players[seat], points=line.points, steps=line.steps,
                           source=line.source, passages=quote(line.source), notes=line.notes)


def _dealt(file: GameFile, deal: DealScore) -> str:
    """Who dealt ``deal`` and (Trix) chose its contract, in one sentence."""
    players = file.players
    if _is_trix(file):
        chosen = " + ".join(contract_name(c) for c in deal.contracts)
        owner = isolate(players[deal.owner]) if deal.owner is not None else "?"
        if file.options.order:  # a fixed order (SCORING.md §2.2): nobody chose; the order's turn
            if deal.dealer is None:
                return _("Anyone dealt the first deal; {owner} was dealt the 7♥, so owns kingdom {kingdom}; "
                         "{contract} came in the fixed order.").format(owner=owner, kingdom=1, contract=chosen)
            return _("{owner} dealt (kingdom {kingdom} is theirs); {contract} came in the fixed order.").format(
                owner=owner, kingdom=deal.kingdom, contract=chosen)
        if deal.dealer is None:
            return _("Anyone dealt the first deal; {owner} was dealt the 7♥, so owns kingdom {kingdom} "
                     "and chose {contract}.").format(owner=owner, kingdom=1, contract=chosen)
        return _("{owner} dealt (kingdom {kingdom} is theirs) and chose {contract}.").format(
            owner=owner, kingdom=deal.kingdom, contract=chosen)
    dealer = deal.dealer if deal.dealer is not None else 0
    return _("{dealer} dealt; {leader}, on the dealer's left, led to the first trick.").format(
        dealer=isolate(players[dealer]), leader=isolate(players[(dealer + 1) % len(players)]))


def explain_deal(file: GameFile, score: GameScore, number: int,
                 seat: int | None = None, calculator: bool = False) -> DealExplanation:
    """Deal ``number`` (1-based) of a scored game, for ``seat`` or (None) every seat.

    ``file`` the parsed game (its deals at least up to ``number``), ``score`` its score;
    ``calculator``: a deal of the calculator, whose settings are on its page.
    Raises NotExplained when the deal or the seat is not in the score.
    """
    if not 1 <= number <= len(score.deals) or number > len(file.deals):
        raise NotExplained(f"no deal {number}")
    deal = score.deals[number - 1]
    seats = range(len(file.players)) if seat is None else [seat]
    lines = tuple(explain_line(deal, s, file.players) for s in seats)
    entry = file.rules.dump_deal(file.deals[number - 1])
    readings = _deal_readings(file, calculator)
    if _every_trick_bid(file.kind, entry, TRIGAMI.tricks, seat):
        readings += every_trick_reading()
    return DealExplanation(
        number=number, kind=file.kind, players=file.players,
        entry=entry, deal=deal, lines=lines,
        dealt=_dealt(file, deal), passages=quote_all([line.source for line in lines]),
        count=len(score.deals), readings=readings)


# ----------------------------------------------------------------------------- totals


@dataclass(frozen=True)
class TotalRow:
    """One deal's share of a total: ``number`` 1-based, ``points``, ``running`` total;
    ``player``: who played the seat in that deal ("" when nobody else ever did)."""

    number: int
    points: int
    running: int
    player: str = ""


@dataclass(frozen=True)
class TotalExplanation:
    """A player's total: the sum of their deals (``rows``), ``steps`` (the sum written
    out, where the total stands against the target or the others), the ``source`` and
    its ``passages``; ``readings`` this app's readings that decide who wins (a tie at the
    top, reversed scoring), each in a sentence, with the setting that changes it."""

    seat: int
    name: str
    total: int
    rows: tuple[TotalRow, ...]
    steps: tuple[str, ...]
    source: str
    passages: tuple[Passage, ...]
    readings: tuple[str, ...] = ()


def _team_names(file: GameFile, seats: Sequence[int]) -> str:
    """Partners' names as they share something: "Anna & Carla" (isolated)."""
    return together(isolate(file.players[s]) for s in seats)


def _partners_result(file: GameFile, score: GameScore) -> str:
    """How a partners' Trix game is won, with the totals that decide it (the game over)
    or the rule alone (not over yet): "sum", the higher team total (lower when
    reversed); "worst-loses", the team holding the single worst individual total (the
    lowest; the highest when reversed) loses; a tie between the teams shares the result.
    Source: SCORING.md §2.5, Partners and Reversed scoring."""
    rev = _reversed(file)
    players = file.players
    first, second = team_standings(score.totals, file.options)
    if file.options.partnership == "sum":
        best = (_("the lower team total (the partners' totals added)") if rev else
                _("the higher team total (the partners' totals added)"))
        if not score.finished:
            return _("After the fourth kingdom {best} wins.").format(best=best)
        if first.total == second.total:
            return _("After four kingdoms {best} wins; both teams have {total}, so all four share "
                     "the win.").format(best=best, total=written(first.total))
        won, lost = (first, second) if first.ahead else (second, first)
        return _("After four kingdoms {best} wins: {team} {total} against {others} {other_total}, "
                 "so {team} won.").format(best=best, team=_team_names(file, won.seats), total=written(won.total),
                                          others=_team_names(file, lost.seats), other_total=written(lost.total))
    if not score.finished:
        return (_("After the fourth kingdom the team holding the worst individual total (the highest) "
                  "loses.") if rev else
                _("After the fourth kingdom the team holding the worst individual total (the lowest) "
                  "loses."))
    worst = max(score.totals) if rev else min(score.totals)
    holders = and_listed([isolate(players[s]) for s, total in enumerate(score.totals) if total == worst])
    if first.ahead and second.ahead:
        return (_("After four kingdoms the team holding the worst individual total (the highest) loses: "
                  "it is {worst}, held by {holders}, one in each team, so all four share the win.") if rev else
                _("After four kingdoms the team holding the worst individual total (the lowest) loses: "
                  "it is {worst}, held by {holders}, one in each team, so all four share the win.")
                ).format(holders=holders, worst=written(worst))
    won, lost = (first, second) if first.ahead else (second, first)
    return (_("After four kingdoms the team holding the worst individual total (the highest) loses: "
              "it is {worst}, held by {holders}, so {losers} lost and {winners} won.") if rev else
            _("After four kingdoms the team holding the worst individual total (the lowest) loses: "
              "it is {worst}, held by {holders}, so {losers} lost and {winners} won.")
            ).format(holders=holders, worst=written(worst), losers=_team_names(file, lost.seats),
                     winners=_team_names(file, won.seats))


def explain_total(file: GameFile, score: GameScore, seat: int,
                  sat_before: Sequence[tuple[str, int, int]] = ()) -> TotalExplanation:
    """``seat``'s total (0-based) as the sum of their points in every deal scored, and
    what it means for winning. ``sat_before``: who else played the seat before whoever
    plays it now (records.StoredGame.sat_before: name, first and last deal, 1-based):
    the total is then the seat's, each deal's row names who played it, and the steps say
    so. Raises NotExplained for a seat not in the game.
    Source: SCORING.md §1.4 (Trigami), §2 (Trix), §2.5 (reversed scoring); GAME-FILE.md,
    "Someone takes over a seat" (points stay with the seat)."""
    if not 0 <= seat < len(file.players):
        raise NotExplained(f"no seat {seat}")
    players = file.players
    name = players[seat]
    shown = isolate(name)  # in the steps

    def played_by(number: int) -> str:
        if not sat_before:
            return ""
        return next((who for who, first, last in sat_before if first <= number <= last), name)

    rows = tuple(TotalRow(d.number, d.points[seat], d.totals[seat], played_by(d.number)) for d in score.deals)
    total = score.totals[seat]
    steps = []
    if rows and sat_before:
        steps.append(_n(len(rows), "The points of {name}'s seat in {n} deal: {sum}",
                        "The points of {name}'s seat in the {n} deals: {sum}",
                        name=shown, sum=sum_expression([r.points for r in rows])))
        steps.append(_("Points stay with the seat, whoever plays it: {earlier} played it before {name}.").format(
            earlier=listed(_("{name} in deals {first}–{last}").format(name=isolate(who), first=first, last=last)
                           if first != last else _("{name} in deal {n}").format(name=isolate(who), n=first)
                           for who, first, last in sat_before), name=shown))
    elif rows:
        steps.append(_n(len(rows), "{name}'s points in {n} deal: {sum}", "{name}'s points in the {n} deals: {sum}",
                        name=shown, sum=sum_expression([r.points for r in rows])))
    else:
        steps.append(_("No deals yet: every total starts at {zero}.").format(zero=0))
    source = TOTAL_SOURCES[file.kind]
    winners = and_listed([isolate(players[s]) for s in score.winners])
    readings: tuple[str, ...] = ()
    if _is_trix(file):
        rev = _reversed(file)
        partnership = file.options.partnership
        if partnership is not None:
            source = f"{source}; {TEAMS_SOURCE}"
            readings = worst_loses_reading(rev) if partnership == "worst-loses" else ()
        if rev:
            source = f"{source}; {REVERSED_SOURCE}"
            readings += reversed_reading()
        if partnership is not None:
            steps.append(_partners_result(file, score))
        else:
            best = _("the lowest total") if rev else _("the highest total")
            if not score.finished:
                steps.append(_("After the fourth kingdom {best} wins.").format(best=best))
            elif seat in score.winners:
                steps.append(_("After four kingdoms {best} wins: {name} won.").format(
                    best=best, name=shown) if len(score.winners) == 1 else
                    _("After four kingdoms {best} wins; {names} share it, so share the win.")
                    .format(best=best, names=winners))
            else:
                steps.append(_("After four kingdoms {best} wins: {names}.").format(
                    best=best, names=winners))
    else:
        target = file.options.target
        if _tied_at_the_top(score, target):
            readings = tie_reading()  # the game went on (or goes on) past a tie at the top
        if score.finished:
            steps.append(_("{name} reached {target} with the highest total, alone: {name} won.")
                         .format(name=winners, target=target))
        elif total >= target:
            steps.append(_("{name} has reached {target}, but the highest total is shared: the "
                           "game goes on, and the next deal decides.").format(
                name=shown, target=target))
        else:
            steps.append(_("The first to reach {target} wins: {name} needs {rest} more.").format(
                target=target, name=shown, rest=target - total))
    return TotalExplanation(seat=seat, name=name, total=total, rows=rows, steps=tuple(steps),
                            source=source, passages=quote(source), readings=readings)


@dataclass(frozen=True)
class Team:
    """Partners: ``seats`` (0 and 2, or 1 and 3), their ``totals`` and the team ``total``;
    ``worst`` the team's worst individual total (the lower; the higher when reversed);
    ``decides`` what settles the game between the teams: ``total`` ("sum") or ``worst``
    ("worst-loses"); ``ahead`` whether the team wins (the game over) or would win now."""

    seats: tuple[int, int]
    names: tuple[str, str]
    totals: tuple[int, int]
    total: int
    worst: int = 0
    decides: int = 0
    ahead: bool = False


@dataclass(frozen=True)
class TeamExplanation:
    """Partners' totals (SCORING.md §2.5, Partners): both ``teams``, ``steps`` (each sum,
    or each team's worst total, and how the winner is found), ``partnership`` ("sum" or
    "worst-loses"), ``finished`` whether the game is over, ``source`` and ``passages``;
    ``readings`` this app's readings of
    "worst loses" and reversed scoring where they apply, with their settings."""

    teams: tuple[Team, Team]
    steps: tuple[str, ...]
    source: str
    passages: tuple[Passage, ...]
    readings: tuple[str, ...] = ()
    partnership: str = "sum"
    finished: bool = False


def explain_teams(file: GameFile, score: GameScore) -> TeamExplanation:
    """The two teams' totals of a partnership Trix game; raises NotExplained when the game
    has no partners.  Under "worst-loses" each team's worst individual total is what
    counts, not its sum.  Source: SCORING.md §2.5 Partners; rules/trix.de.txt, Varianten."""
    if not _is_trix(file) or file.options.partnership is None:
        raise NotExplained("this game is not played in partnerships")
    players = file.players
    first, second = (Team(seats=t.seats, names=(players[t.seats[0]], players[t.seats[1]]), totals=t.totals,
                          total=t.total, worst=t.worst, decides=t.decides, ahead=t.ahead)
                     for t in team_standings(score.totals, file.options))
    teams = (first, second)
    rev = _reversed(file)
    worst_loses = file.options.partnership == "worst-loses"
    if worst_loses:
        steps = [_("{first} {first_total}, {second} {second_total}: the team's worst total is {worst}.").format(
            first=isolate(t.names[0]), first_total=written(t.totals[0]), second=isolate(t.names[1]),
            second_total=written(t.totals[1]), worst=written(t.worst)) for t in teams]
    else:
        steps = [_("{first} & {second}: {sum}").format(
            first=isolate(t.names[0]), second=isolate(t.names[1]), sum=sum_expression(list(t.totals)))
            for t in teams]
    if score.finished:
        steps.append(_partners_result(file, score))
    elif not worst_loses:
        steps.append(_("At the end the lower team total wins; equal team totals share the result.")
                     if rev else
                     _("At the end the higher team total wins; equal team totals share the result."))
    else:
        steps.append(_("At the end the team holding the single worst total (the highest) loses; "
                       "if both hold it, all four share the result.") if rev else
                     _("At the end the team holding the single worst total (the lowest) loses; "
                       "if both hold it, all four share the result."))
    source = TEAMS_SOURCE + (f"; {REVERSED_SOURCE}" if rev else "")
    readings = (worst_loses_reading(rev) if worst_loses else ()) + (reversed_reading() if rev else ())
    return TeamExplanation(teams=teams, steps=tuple(steps), source=source, passages=quote(source),
                           readings=readings, partnership=file.options.partnership,
                           finished=score.finished)


# ----------------------------------------------------------------------------- the dealer


@dataclass(frozen=True)
class DealerExplanation:
    """Who deals deal ``number`` (None when the game is over) and why.

    ``dealer`` the seat (None: anyone, the first Trix deal, or nobody once the game is
    over); ``rotation`` (Trigami) each seat with the deal numbers it deals, e.g.
    (0, "Anna", "1, 4, 7 …"); ``steps``, ``source`` and ``passages``.
    """

    number: int | None
    dealer: int | None
    rotation: tuple[tuple[int, str, str], ...]
    steps: tuple[str, ...]
    source: str
    passages: tuple[Passage, ...]


def _rotation(file: GameFile, up_to: int, over: bool) -> tuple[tuple[int, str, str], ...]:
    """Trigami's rotation, in the order of play from the first dealer: each seat with the
    deal numbers it deals, ``first``, ``first + seats``, … shown up to ``up_to`` (at least
    three of each, then "…"; once the game is ``over``, the deals played alone, ``up_to``
    the last). A seat someone took over is a row for each player who dealt from it, with
    the deals they dealt: (seat, name, "1, 4"), (seat, name, "7, 10 …")."""
    seats = len(file.players)
    rows: list[tuple[int, str, str]] = []
    for k in range(seats):
        seat = (file.first_dealer + k) % seats
        last = up_to if over else max(up_to, k + 1 + 2 * seats)
        dealt: list[tuple[str, list[int]]] = []
        for deal in range(k + 1, last + 1, seats):
            name = file.players_at(deal)[seat]
            if not dealt or dealt[-1][0] != name:
                dealt.append((name, []))
            dealt[-1][1].append(deal)
        for index, (name, deals) in enumerate(dealt):
            more = "" if over or index < len(dealt) - 1 else " …"
            rows.append((seat, name, listed(written(deal) for deal in deals) + more))
    return tuple(rows)


def explain_dealer(file: GameFile, score: GameScore, number: int | None = None) -> DealerExplanation:
    """Why deal ``number`` (1-based; None: the next deal) is dealt by whom it is.

    Trigami: the first dealer was chosen at the start, then the deal passes to the left
    (SCORING.md §1.4).  Trix: anyone deals the first deal, whoever is dealt the 7♥ owns
    kingdom 1; each owner deals their kingdom; the next kingdom belongs to the previous
    owner's right-hand neighbour (SCORING.md §2).  A seat someone took over
    (``file.seat_changes``) is named by whoever sat in it at the deal told of: the first
    dealer (Trigami) and the 7♥'s holder (Trix) as they sat in deal 1, a kingdom's owner
    as at its first deal, deal ``number``'s dealer as they sit then.  Raises
    NotExplained for a number beyond the next deal.
    """
    seats = len(file.players)
    scored = len(score.deals)
    if number is None:
        number = scored + 1
    if not 1 <= number <= scored + 1:
        raise NotExplained(f"no deal {number}")
    over = number == scored + 1 and score.finished
    at_start, then = file.players_at(1), file.players_at(number)
    source = DEALER_SOURCES[file.kind]
    steps: list[str] = []
    first = file.first_dealer
    dealer: int | None = None  # nobody deals once the game is over
    if not _is_trix(file):
        steps.append(_("{first} dealt deal {n} (chosen when the game started).").format(
            first=isolate(at_start[first]), n=1))
        steps.append(_("After each deal the next player to the left deals."))
        rotation = _rotation(file, scored if over else number, over)
        if over:
            steps.append(_("The game is over: nobody deals."))
        else:
            dealer = (first + number - 1) % seats
            steps.append(_("So deal {n} is dealt by {dealer}, and {leader}, on the dealer's "
                           "left, leads to the first trick.").format(
                n=number, dealer=isolate(then[dealer]), leader=isolate(then[(dealer + 1) % seats])))
        return DealerExplanation(number=None if over else number, dealer=dealer, rotation=rotation,
                                 steps=tuple(steps), source=source, passages=quote(source))

    # Trix: the kingdom of deal `number` (the next deal belongs to the current or next one)
    if number <= scored:
        deal = score.deals[number - 1]
        kingdom, owner = deal.kingdom or 1, deal.owner if deal.owner is not None else first
    else:
        done = sum(1 for k in score.kingdoms if k.complete)
        kingdom, owner = done + 1, score.owner if score.owner is not None else first

    def owner_of(k: int) -> str:
        """Kingdom ``k``'s owner by name, as they sat at its first deal (as the score
        sheet's kingdom heading names them); a kingdom to come, as they sit now."""
        began = next((n for n, d in enumerate(score.deals, 1) if d.kingdom == k), scored + 1)
        return file.players_at(began)[(first + k - 1) % seats]

    fixed = file.options.order  # a fixed order (SCORING.md §2.2): nobody chooses
    steps.append((_("Anyone dealt the first deal. {first} was dealt the 7♥, so {first} owns "
                    "kingdom {kingdom} and deals the kingdom's other deals.") if fixed else
                  _("Anyone dealt the first deal. {first} was dealt the 7♥, so {first} owns "
                    "kingdom {kingdom}: chose the first deal's contract and deals the kingdom's other "
                    "deals.")).format(first=isolate(at_start[first]), kingdom=1))
    steps.append(_("Each next kingdom belongs to the previous owner's right-hand neighbour "
                   "(play goes to the right): {order}.").format(order=listed(
                       _("kingdom {k} {name}").format(k=k, name=isolate(owner_of(k))) for k in range(1, 5))))
    if fixed:
        steps.append(_("In this game the contracts come in a fixed order ({order}): an owner deals "
                       "every deal of the kingdom, each contract in its turn.").format(
                           order=listed(contract_name(contract) for contract in fixed)))
    else:
        steps.append(_("An owner chooses each of the five contracts once and deals every deal of "
                       "the kingdom."))
    if over:
        dealer = None
        steps.append(_("All four kingdoms have been played: the game is over."))
    elif number == 1:
        dealer = None
        steps.append((_("So deal {n} may be dealt by any player; it is in {owner}'s kingdom.") if fixed else
                      _("So deal {n} may be dealt by any player, and {owner} chooses its contract.")).format(
            n=1, owner=isolate(then[owner])))
    else:
        dealer = owner
        steps.append((_("Deal {n} is in kingdom {k}, so {owner} deals it.") if fixed else
                      _("Deal {n} is in kingdom {k}, so {owner} deals it and chooses its contract.")).format(
            n=number, k=kingdom, owner=isolate(then[owner])))
    return DealerExplanation(number=None if over else number, dealer=dealer, rotation=(),
                             steps=tuple(steps), source=source, passages=quote(source))


# ----------------------------------------------------------------------------- kingdom checks


@dataclass(frozen=True)
class KingdomRow:
    """One deal of a kingdom: its ``points`` by seat, their ``sum`` and the ``expected`` sum
    (the contracts' totals, SCORING.md §2.1)."""

    number: int
    contracts: tuple[str, ...]
    points: tuple[int, ...]
    sum: int
    expected: int


@dataclass(frozen=True)
class KingdomExplanation:
    """A Trix kingdom's check (Σ = 0): its deals (``rows``), what each contract hands out
    (``contract_totals``: (contract, points)), the running ``totals`` after its last deal
    and their ``total``; ``steps``, ``source`` and ``passages``; ``readings`` (reversed
    scoring) as for a deal."""

    check: KingdomCheck
    owner: str
    rows: tuple[KingdomRow, ...]
    contract_totals: tuple[tuple[str, int], ...]
    totals: tuple[int, ...]
    total: int
    steps: tuple[str, ...]
    source: str
    passages: tuple[Passage, ...]
    readings: tuple[str, ...] = ()
    #: for each seat, who else played it in this kingdom before whoever played its last
    #: deal: (name, first deal, last deal) in order (a seat taken over inside the kingdom)
    sat_before: tuple[tuple[tuple[str, int, int], ...], ...] = ()


def explain_kingdom(file: GameFile, score: GameScore, number: int) -> KingdomExplanation:
    """Kingdom ``number`` (1-based) of a Trix game: why its four totals add up to 0. Its
    owner is named as seated at the kingdom's first deal, the totals' players as at its
    last, and who played a seat before that inside the kingdom (``sat_before``: a seat
    taken over, ``file.seat_changes``).

    Raises NotExplained for a game that is not Trix or a kingdom not begun.  Source:
    SCORING.md §2.1 (the contracts total 0), §2.2 (doubling keeps each total), §2.5
    (swapped values and reversed scoring keep the sum 0).
    """
    if not _is_trix(file) or not 1 <= number <= len(score.kingdoms):
        raise NotExplained(f"no kingdom {number}")
    options = file.options
    sign = -1 if options.reversed else 1
    check = score.kingdoms[number - 1]
    deals = [score.deals[n - 1] for n in check.deals]
    rows = tuple(KingdomRow(
        number=d.number, contracts=d.contracts, points=d.points, sum=sum(d.points),
        expected=sign * sum(contract_total(c, options.values) for c in d.contracts)) for d in deals)
    contract_totals = tuple((c, sign * contract_total(c, options.values)) for c in CONTRACTS)
    totals = deals[-1].totals
    # who sat then (someone may have taken a seat over: issue 18, part 3): the owner when
    # the kingdom began, each total's player at its last deal (tester 67: "Kingdom 3
    # (Dieter)" for a kingdom his successor played from its first deal)
    owner = file.players_at(check.deals[0])[check.owner]
    seated = file.players_at(check.deals[-1])
    sat_before = []  # who played each seat in the kingdom's deals before its last one's player
    at_deal = [(n, file.players_at(n)) for n in check.deals]
    for seat in range(len(file.players)):
        runs: list[tuple[str, int, int]] = []
        for n, sat in at_deal:
            name = sat[seat]
            if runs and runs[-1][0] == name:
                runs[-1] = (name, runs[-1][1], n)
            else:
                runs.append((name, n, n))
        sat_before.append(tuple(runs[:-1]))
    steps = [_("The five contracts hand out {sum} in all, whoever takes what.").format(
        sum=sum_expression([points for _c, points in contract_totals]))]
    doubled = any(
        (file.deals[n - 1].king is not None and file.deals[n - 1].king.doubled_by is not None)
        or any(q.doubled_by is not None for q in (file.deals[n - 1].queens or ()))
        for n in check.deals)
    if doubled:
        steps.append(_("Doubling moves points between players but never changes a contract's "
                       "total."))
    earlier = number - 1
    if earlier:
        steps.append(_("The {n} kingdoms before this one each added up to {zero}.").format(n=earlier, zero=0)
                     if earlier > 1 else _("The kingdom before this one added up to {zero}.").format(zero=0))
    names = listed(f"{isolate(seated[s])} {written(t)}" for s, t in enumerate(totals))
    if check.complete:
        steps.append(_("So after deal {n} the four totals ({totals}) add up to {sum}.").format(
            n=deals[-1].number, totals=names, sum=sum_expression(list(totals))))
        steps.append(_("✓ The check holds.") if check.ok else
                     _("✗ They should add up to {zero}: a deal above was entered wrongly.").format(zero=0))
    else:
        left = [contract_name(c) for c in CONTRACTS if c not in check.played]
        steps.append(_("This kingdom is not over yet ({left} to come): the totals add up to {zero} "
                       "only once all five contracts are played; now they add up to {sum}.").format(
            left=listed(left), zero=0, sum=written(sum(totals))))
    source = KINGDOM_SOURCE
    if doubled:
        source += f"; {DOUBLED_KINGDOM_SOURCE}"
    if options.reversed:
        source += f"; {REVERSED_SOURCE}"
    return KingdomExplanation(check=check, owner=owner, rows=rows, contract_totals=contract_totals,
                              totals=totals, total=sum(totals), steps=tuple(steps), source=source,
                              passages=quote_all(source.split("; ")), readings=_deal_readings(file),
                              sat_before=tuple(sat_before))


# ----------------------------------------------------------------------------- what if


@dataclass(frozen=True)
class WhatIf:
    """A game re-scored under other settings, beside the real one.

    ``real`` and ``other`` are the two scores; ``other`` covers the first ``played`` deals
    (a lower target may end a Trigami game earlier: the rest "would not have been
    played"); ``changes`` the settings changed, in words (empty: none); ``readings`` this
    app's readings that decide the other game's numbers (a tie at the top, reversed scoring).
    """

    real: GameScore
    other: GameScore
    played: int
    changes: tuple[str, ...]
    readings: tuple[str, ...] = ()
    #: Trix: the what-if game is played by partners (its winners are a team of two)
    other_partners: bool = False

    @property
    def stopped_early(self) -> bool:
        """Whether the what-if game ends before the deals played for real."""
        return self.played < len(self.real.deals)


def without_doubling(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A Trix deal entry as if nobody had doubled: ``doubled_by`` and ``leader`` dropped
    from the K♥ and every queen; other blocks unchanged."""
    out = dict(entry)
    if isinstance(out.get("king"), Mapping):
        out["king"] = {"taker": out["king"]["taker"]}
    if isinstance(out.get("queens"), Mapping):
        out["queens"] = {suit: {"taker": card["taker"]} for suit, card in out["queens"].items()}
    return out


def _score_until_over(file: GameFile) -> tuple[GameScore, int]:
    """Score ``file``; if the game ends before its last deal (a deal "after the game is
    over"), score the deals up to the end.  Returns the score and the deals it covers."""
    try:
        return file.score(), len(file.deals)
    except DealError as error:
        if error.deal is None or error.deal < 2:
            raise
        head = replace(file, deals=file.deals[: error.deal - 1],
                       seat_changes=tuple(c for c in file.seat_changes if c.from_deal <= error.deal))
        score = head.score()
        if not score.finished:
            raise
        return score, len(head.deals)


def what_if(file: GameFile, real: GameScore, *, doubling: bool | None = None,
            values: str | None = None, scoring: str | None = None,
            taken_back: str | None = None, partnership: str | None = None,
            target: int | None = None) -> WhatIf:
    """``file`` re-scored with other settings (None keeps the game's own).

    Trix: ``doubling=False`` scores every deal as if nobody had doubled; ``values``
    "standard" or "swapped"; ``scoring`` "standard" or "reversed"; ``taken_back``
    "leader" or "plain", the house reading of a card taken back by its doubler (no
    change without doubling, where no card is doubled); ``partnership`` "alone" (each
    player for themselves), "sum" or "worst-loses" (partners opposite: who wins,
    SCORING.md §2.5; the points are the same).  Trigami and plain
    Bugami: ``target`` a whole number above 0 (the game may then end earlier, or not yet).
    ``real`` is ``file``'s own score.  Raises ValueError for a setting the game does not
    have, FormatError (a ValueError) for a bad value, DealError only if the real game does
    not score either.
    Source: SCORING.md §1.4, §2.2, §2.5.
    """
    rules = file.rules
    options = rules.dump_options(file.options)
    changes: list[str] = []
    entries = [rules.dump_deal(d) for d in file.deals]
    if file.kind == "trix":
        if target is not None:
            raise ValueError("a Trix game has no target")
        if doubling is False and options["doubling"]:
            entries = [without_doubling(e) for e in entries]
            options["doubling"] = False
            changes.append(_("no doubling: every deal scored as if nobody had doubled"))
        if values is not None and values != options["values"]:
            options["values"] = values
            changes.append(_("swapped values: diamonds {diamonds}, tricks {tricks}").format(diamonds=-15, tricks=-10)
                           if values == "swapped" else
                           _("standard values: diamonds {diamonds}, tricks {tricks}").format(diamonds=-10, tricks=-15))
        if scoring is not None and scoring != options["scoring"]:
            options["scoring"] = scoring
            changes.append(_("reversed scoring: every sign flipped, lowest wins")
                           if scoring == "reversed" else
                           _("standard scoring: highest wins"))
        if taken_back is not None and taken_back != options["taken_back"] and options["doubling"]:
            options["taken_back"] = taken_back
            changes.append(_("a doubled card taken back: {reading}").format(reading=reading_words(taken_back)))
        wanted = None if partnership == "alone" else partnership
        if partnership is not None and wanted != options["partnership"]:
            options["partnership"] = wanted
            low = options["scoring"] == "reversed"  # the lowest wins (tester 74: "highest" said)
            said = {None: (_("everyone for themselves: the highest total wins"),
                           _("everyone for themselves: the lowest total wins")),
                    "sum": (_("partners opposite: the higher team total wins"),
                            _("partners opposite: the lower team total wins"))}
            worst = _("partners opposite: the team holding the worst total loses")
            changes.append(said[wanted][low] if wanted in said else worst)
    else:
        if doubling is not None or values is not None or scoring is not None or taken_back is not None \
                or partnership is not None:
            raise ValueError(f"{file.kind} has no doubling, values, scoring, taken_back or partnership settings")
        if target is not None and target != options["target"]:
            options["target"] = target
            changes.append(_("play to {target} instead of {real}").format(
                target=target, real=file.options.target))
    parsed = rules.parse_options(options)
    deals = tuple(rules.parse_deal(entry, n, file.players) for n, entry in enumerate(entries, 1))
    other_file = replace(file, options=parsed, deals=deals)  # the same players, seat changes and all
    other, played = _score_until_over(other_file)
    readings: tuple[str, ...] = ()
    if file.kind == "trix":
        readings = reversed_reading() if parsed.reversed else ()
    elif _tied_at_the_top(other, parsed.target):
        readings = tie_reading()
    return WhatIf(real=real, other=other, played=played, changes=tuple(changes), readings=readings,
                  other_partners=file.kind == "trix" and parsed.partnership is not None)


@dataclass(frozen=True)
class PointsChange:
    """One player's points before and after a change: ``seat`` 0-based."""

    seat: int
    before: int
    after: int


@dataclass(frozen=True)
class ReadingChange:
    """What changing a Trix game's house reading of a card taken back to ``taken_back``
    would do to its score: each deal whose points change (``deals``: (1-based number, the
    seats whose points change)) and the totals that change (``totals``); both empty when
    no deal has a doubled card taken back by its doubler.  Source: SCORING.md §2.2."""

    taken_back: str
    deals: tuple[tuple[int, tuple[PointsChange, ...]], ...]
    totals: tuple[PointsChange, ...]


def reading_change(file: GameFile, real: GameScore, taken_back: str) -> ReadingChange:
    """What the game ``file`` (scored: ``real``) would score with ``taken_back`` ("leader"
    or "plain") as its reading of a card taken back (:class:`ReadingChange`), for the
    question asked before the setting is changed.  Raises ValueError for a game that is
    not Trix, FormatError for another value."""
    if not _is_trix(file):
        raise ValueError("only Trix has a reading of a card taken back")
    other = what_if(file, real, taken_back=taken_back).other

    def changed(before: Sequence[int], after: Sequence[int]) -> tuple[PointsChange, ...]:
        return tuple(PointsChange(seat, b, a) for seat, (b, a) in enumerate(zip(before, after, strict=True))
                     if b != a)

    deals = tuple((deal.number, changed(deal.points, then.points))
                  for deal, then in zip(real.deals, other.deals, strict=False) if deal.points != then.points)
    return ReadingChange(taken_back=taken_back, deals=deals, totals=changed(real.totals, other.totals))


__all__ = [
    "DealExplanation", "DealerExplanation", "KingdomExplanation", "KingdomRow",
    "LineExplanation", "NotExplained", "PointsChange", "ReadingChange", "Team", "TeamExplanation", "TotalExplanation",
    "TotalRow", "WhatIf", "explain_deal", "explain_dealer", "explain_kingdom", "explain_line",
    "explain_teams", "explain_total", "leftover_reading", "reading_change", "reversed_reading",
    "setting_sentence", "sum_expression", "tie_reading", "what_if", "without_doubling", "worst_loses_reading",
]
