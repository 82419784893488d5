"""The score sheet as a spreadsheet: CSV that Excel, LibreOffice and Numbers open as is.

No Flask here: it reads a sheet.Sheet (scored on read from the deal entries) and returns
bytes. Strings go through the rules' translator (gettext once the app has started).

Why these choices:
- UTF-8 with a byte-order mark: Excel reads a CSV without one in the computer's legacy
  code page, which mangles names in other scripts (Ελένη, Юлия, 李娜, عائشة); LibreOffice
  and Numbers detect the mark too. No "sep=," line: with one, Excel ignores the mark.
- Points are numbers with an ASCII minus, so the spreadsheet can add them up.
- Cells are separated by a comma, or by a semicolon in a language whose decimal mark is
  a comma (German, Finnish): Excel splits a CSV that it opens on the computer's list
  separator, which is a semicolon there, and would show each comma-separated row in one
  cell (:func:`cell_separator`). LibreOffice asks, Numbers finds either.
- Spreadsheet formula injection: a text cell starting with =, +, -, @ (or a tab or carriage
  return) is run as a formula by spreadsheet programs; such a cell gets a leading
  apostrophe, the usual guard (OWASP, "CSV Injection"). So does one starting with their
  full-width or small forms (＝ ＋ － ＠, ﹦ ﹢ ﹣ ﹫), which spreadsheets in East Asian
  locales fold into the ASCII ones, or with any of them after spaces or invisible
  characters, which a program may drop when it reads the cell. Numbers are never touched:
  points are ints, written as numbers (-75), so a spreadsheet can add them up.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Sequence
from typing import Any

from babel.numbers import get_decimal_symbol

from .inputs import name_key
from .records import StoredGame
from .rules.common import SUIT_SYMBOLS, _, _n, listed_apart, together
from .rules.trix import contract_name
from .sheet import Sheet

#: What a spreadsheet program would run as a formula at the start of a cell (OWASP's
#: list). Compared after NFKC, which folds the full-width ＝ ＋ － ＠ (U+FF1D, U+FF0B,
#: U+FF0D, U+FF20) and the small ﹦ ﹢ ﹣ ﹫ into these.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A soft hyphen: a place a word may break in a page's narrow box, never shown otherwise
SOFT_HYPHEN = "\u00ad"
#: The marks a page sets around a name (text.isolate: FSI … PDI, LRI, RLI): a page's,
#: not a cell's (see sheet_rows)
ISOLATES = str.maketrans("", "", "\u2066\u2067\u2068\u2069")


def _skipped(char: str) -> bool:
    """What a spreadsheet may drop before reading a cell's first character: spaces of any
    script, line ends and invisible characters (zero-width space, byte-order mark, bidi
    marks)."""
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp")


def starts_like_a_formula(text: str) -> bool:
    """Whether a spreadsheet could read ``text`` as a formula: it starts with a tab or
    carriage return, or its first character that shows (after spaces and invisible
    characters), folded by NFKC, is =, +, -, or @."""
    if text.startswith(FORMULA_STARTS):
        return True
    shown = next((char for char in text if not _skipped(char)), "")
    return unicodedata.normalize("NFKC", shown)[:1] in ("=", "+", "-", "@")


def spreadsheet_safe(value: Any) -> Any:
    """A cell for the CSV: numbers as they are (-75 stays the number -75); text that
    starts like a formula (:func:`starts_like_a_formula`) behind an apostrophe, so it is
    shown, never run."""
    if isinstance(value, str) and starts_like_a_formula(value):
        return "'" + value
    return value


def _bid(bid: dict[str, Any], turnip: str | None) -> str:
    """A Trigami bid as the sheet shows it: "♥", "Turnip ♦", "Doublets ♠"."""
    if bid.get("kind") == "turnip":
        return _("Turnip {suit}").format(suit=SUIT_SYMBOLS.get(turnip or "", "")).strip()
    if bid.get("kind") == "doublets":
        return _("Doublets {suit}").format(suit=SUIT_SYMBOLS.get(bid.get("suit") or "", ""))
    return SUIT_SYMBOLS.get(bid.get("suit") or "", "")


def _count(values: Any, seat: int) -> Any:
    """A seat's count from a deal entry (tricks, bugs) as a number, or blank."""
    if isinstance(values, list) and seat < len(values) and isinstance(values[seat], int):
        return values[seat]
    return ""


def _seat_names(game: StoredGame, seat: int) -> str:
    """Everyone who sat at ``seat``, in the order they sat, each once: "Carla / Dora"."""
    names: list[str] = []
    for name in (game.players[seat], *(c.player for c in game.seat_changes if c.seat == seat)):
        if name_key(name) not in {name_key(n) for n in names}:
            names.append(name)
    return " / ".join(names)


def _worked_out(line: Any) -> str:
    """How a seat's points in a deal were worked out, the steps of its explanation one
    after the other: "took the K♥, doubled by Ben: −150"; "doubled the Q♠ and took it
    back: −50; led to the trick in which Ben took back the doubled Q♠: +25"."""
    # with the house reading that decided them (a card taken back), as the explanation
    # says it under the steps (ScoreLine.notes)
    return listed_apart(line.why.steps(line.seat) + line.why.notes(line.seat)).translate(ISOLATES)


def sheet_rows(sheet: Sheet) -> list[list[Any]]:
    """The sheet as rows of cells: a header; one row per scored deal — deal number,
    dealer, then Trix: kingdom and contract(s), and per player how that player's points
    were worked out (the explanation's steps: what they took, what they doubled, who led
    to a card taken back, SCORING.md §2.1–2.2), Trigami: each player's bid, tricks and
    bugs (what the points are worked from, SCORING.md §1.2, so a spreadsheet can check
    them); then per player that deal's points and the running total; a totals row;
    partners' team totals (the row named after the team, each total under both partners'
    total columns); who won; and the problem, if a stored deal no longer fits the rules.
    Cells are ints or str (not yet guarded against formulas: see :func:`to_csv`).
    """
    game = sheet.game
    # Names stay as typed here, unlike in the pages (issue 10, text.isolate): a cell is
    # data, and U+2068/U+2069 would be invisible characters inside it, so "سارة" in the
    # Dealer column would no longer equal "سارة" typed into a filter, a lookup or a
    # pivot table; a spreadsheet lays out each cell as a paragraph of its own, where a
    # name alone needs no isolating.
    # a column is a seat: named after everyone who sat there, in order ("Carla / Dora":
    # someone took over the seat, issue 18, part 3); who won or plays in a team is who
    # sits there now
    players = [_seat_names(game, seat) for seat in range(len(game.players))]
    now = game.players_now
    trix = game.kind == "trix"
    header: list[Any] = [_("Deal"), _("Dealer")]
    if trix:
        header += [_("Kingdom"), _("Contracts")]
        header += [_("{name}: how it was worked out").format(name=name) for name in players]
    else:
        for name in players:
            header += [_("{name}: bid").format(name=name), _("{name}: tricks").format(name=name),
                       _("{name}: bugs").format(name=name)]
    for name in players:
        header += [_("{name}: points").format(name=name), _("{name}: total").format(name=name)]
    rows: list[list[Any]] = [header]
    score = sheet.score
    deals = score.deals if score else ()
    for deal in deals:
        entry = game.deals[deal.number - 1].entry
        row: list[Any] = [deal.number, "" if deal.dealer is None else game.players_at(deal.number)[deal.dealer]]
        if trix:
            row += [deal.kingdom, " + ".join(contract_name(c) for c in deal.contracts)]
            row += [_worked_out(line) for line in deal.lines]
        else:
            for seat, bid in enumerate(entry.get("bids", ())):
                row += [_bid(bid, entry.get("turnip")), _count(entry.get("tricks"), seat),
                        _count(entry.get("bugs"), seat)]
        for points, total in zip(deal.points, deal.totals, strict=True):
            row += [points, total]
        rows.append(row)
    lead = (4 + len(players)) if trix else 2 + 3 * len(players)  # cells before the first player's points
    totals = score.totals if score else (0,) * len(players)
    rows.append([_("Total")] + [""] * (lead - 1) + _per_player(totals))
    if score and score.team_totals is not None:
        for first, second in ((0, 2), (1, 3)):
            team = score.team_totals[first]
            cells = [team if seat in (first, second) else "" for seat in range(len(players))]
            label = _("Team total: {names}").format(names=together((now[first], now[second])))
            rows.append([label] + [""] * (lead - 1) + _per_player(cells))
    # notes under the table: one cell each, so no name lands in the Dealer column
    if score and score.finished:
        # the number of winners chooses the word's form (Finnish "Voittajat", the Arabic dual: tester 67)
        rows.append([_n(len(score.winners), "Won by: {names}", "Won by: {names}",
                        names=together(now[seat] for seat in score.winners))])
    if sheet.problem is not None:
        rows.append([_("Problem: {problem}").format(problem=sheet.problem)])
    return rows


def _per_player(totals: Sequence[Any]) -> list[Any]:
    """Totals under each player's total column (their points column left empty)."""
    out: list[Any] = []
    for total in totals:
        out += ["", total]
    return out


def cell_separator(language: str) -> str:
    """The character that separates a CSV's cells for a spreadsheet set to ``language``
    (a code such as "de"): ";" where the language writes decimals with a comma, as
    Excel's list separator is then (German, Finnish, French …), else ",". The decimal
    mark is CLDR's, through Babel."""
    return ";" if get_decimal_symbol(language) == "," else ","


def to_csv(rows: Sequence[Sequence[Any]], separator: str = ",") -> bytes:
    """Rows of cells → CSV bytes: UTF-8 with a byte-order mark, cells separated by
    ``separator`` (see :func:`cell_separator`), CRLF line ends (RFC 4180), quoted where
    needed by Python's csv module, every text cell guarded by :func:`spreadsheet_safe`.
    Soft hyphens (U+00AD: where a word may break on a narrow page, e.g. the Finnish
    "Hertta­kuningas" on a contract button) are the page's, not the spreadsheet's: they
    are left out."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=separator, lineterminator="\r\n")
    for row in rows:
        writer.writerow([spreadsheet_safe(cell.replace(SOFT_HYPHEN, "") if isinstance(cell, str) else cell)
                         for cell in row])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


__all__ = ["FORMULA_STARTS", "cell_separator", "sheet_rows", "spreadsheet_safe", "starts_like_a_formula", "to_csv"]
