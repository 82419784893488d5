"""What every game's rules share: seats, suits, errors and the scored result.

Each game lives in its own module (``trigami.py``, ``trix.py``) and offers one object
that follows :class:`GameRules`.  The rules are pure: standard library only, game-file
dicts in (see ../shared/GAME-FILE.md), frozen dataclasses out.  Points are never stored;
they are computed from the deal entries every time.

Seats are 0-based indexes into the players, in playing order.  Suits are "S", "H", "D", "C".
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: Mapping[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

_translator: Callable[[str], str] = lambda message: message  # noqa: E731
_plural_translator: Callable[[str, str, int], str] = (  # noqa: E731
    lambda singular, plural, count: singular if count == 1 else plural)
_context_translator: Callable[[str, str], str] = lambda context, message: message  # noqa: E731
_plural_context_translator: Callable[[str, str, str, int], str] = (  # noqa: E731
    lambda context, singular, plural, count: singular if count == 1 else plural)


def set_translator(translate: Callable[[str], str],
                   translate_plural: Callable[[str, str, int], str] | None = None,
                   translate_in_context: Callable[[str, str], str] | None = None,
                   translate_plural_in_context: Callable[[str, str, str, int], str] | None = None) -> None:
    """Route every user-facing string of the rules through ``translate`` (gettext),
    ``translate_plural`` (ngettext: singular, plural, count), ``translate_in_context``
    (pgettext: context, message) and ``translate_plural_in_context`` (npgettext:
    context, singular, plural, count).

    The rules know no Flask; the web app plugs Flask-Babel's gettext in here.  Strings are
    marked ``_("… {name} …")``, ``_n(count, "{n} bug", "{n} bugs")`` or ``_p("card",
    "Q{suit}")`` and formatted after translation, so translators see the placeholders.
    """
    global _translator, _plural_translator, _context_translator, _plural_context_translator
    _translator = translate
    if translate_plural is not None:
        _plural_translator = translate_plural
    if translate_in_context is not None:
        _context_translator = translate_in_context
    if translate_plural_in_context is not None:
        _plural_context_translator = translate_plural_in_context


#: How a player's name is put into a message (set_name_isolation): as it is, unless the
#: web app isolates it.
_shown_name: Callable[[str], str] = str


def set_name_isolation(isolate: Callable[[str], str]) -> None:
    """Put every player's name into the rules' messages and steps through ``isolate``.

    The web app plugs in text.isolate (the name between U+2068 and U+2069), so that
    "سارة won the last trick but no tricks" keeps its order beside Latin names and signed
    numbers; the command line keeps names as typed.
    """
    global _shown_name
    _shown_name = isolate


def shown_name(name: str) -> str:
    """A player's ``name`` as the rules' messages write it (see set_name_isolation)."""
    return _shown_name(str(name))


def shown_names(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` (the players by seat) as the rules' messages write them."""
    return tuple(_shown_name(str(name)) for name in names)


def _signed_as_on_paper(points: int) -> str:
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"\u2212{-points}"
    return "0"


#: How a whole number and a deal's points are written into the rules' messages
#: (set_number_format): as the command line prints them, unless the web app writes them
#: in the reader's digits.
_shown_number: Callable[[int], str] | None = None
_shown_signed: Callable[[int], str] = _signed_as_on_paper


def set_number_format(number: Callable[[int], str], signed_points: Callable[[int], str]) -> None:
    """Write every whole number put into the rules' messages (``{n}``, ``{points}``, deal
    and kingdom numbers) through ``number``, and every deal's points through
    ``signed_points`` (see :func:`signed`).

    The web app plugs in locale_numbers.number and locale_numbers.signed, so an Arabic page reads
    "أخذ لطشة واحدة: \u061c−١٥"; the command line keeps 0–9, "+75" and "−150" (U+2212),
    as ``scorekeeper score`` has always printed them.
    """
    global _shown_number, _shown_signed
    _shown_number = number
    _shown_signed = signed_points


class _Number(int):
    """A whole number put into a message: written by the number format when it stands
    plainly ("{n}"), as the int it is otherwise ("{value!r}" quotes the game file)."""

    def __format__(self, spec: str) -> str:
        if spec or _shown_number is None:
            return int.__format__(int(self), spec)
        return _shown_number(int(self))


class _Quoted:
    """A value put into a message as the game file holds it: "{value!r}" spells null,
    true, false, a list or an object as the file does (not Python's None, True, False),
    "{value}" as str.format would."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return _json(self.value)

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


def _as_number(value: Any) -> Any:
    if type(value) is int:
        return _Number(value)
    if value is None or isinstance(value, (bool, list, dict)):  # text keeps Python's quotes, 'deals'
        return _Quoted(value)
    return value


class Message(str):
    """A translated message of the rules. Its ``format`` writes the whole numbers it is
    given (int, not bool) in the reader's digits (:func:`set_number_format`), and quotes
    null, true and false ("{value!r}") as the game file spells them; everything else
    formats as str.format does."""

    __slots__ = ()

    def format(self, *args: Any, **kwargs: Any) -> str:
        """str.format, with each whole number written as :func:`set_number_format` says,
        and null, true and false quoted ("{value!r}") as the game file spells them
        (:class:`_Quoted`)."""
        return str.format(self, *map(_as_number, args), **{k: _as_number(v) for k, v in kwargs.items()})


def _(message: str) -> Message:
    """Translate ``message`` with the translator set by :func:`set_translator`; its
    ``format`` writes numbers in the reader's digits (:class:`Message`)."""
    return Message(_translator(message))


def _p(context: str, message: str) -> str:
    """``message`` in the sense ``context`` names, translated: one English word may be two
    in another language ("diamonds" the suit, "diamonds" counted). Extracted for the
    catalogues as pgettext (Makefile: ``-k _p:1c,2``); outside the app, ``message``."""
    return _context_translator(context, message)


def listed(items: Iterable[object]) -> str:
    """``items`` one after the other as the reader's language lists them: "Anna, Ben,
    Carla"; in Arabic with the Arabic comma, "سارة، محمد، Anna" (a Latin comma in an
    Arabic line is a typo to its reader). The separator is the catalogue's (context "list
    separator"); outside the app, ", "."""
    return _p("list separator", ", ").join(str(item) for item in items)


def and_listed(items: Iterable[object]) -> str:
    """``items`` told as a sentence tells them: "Anna", "Anna and Ben", "Anna, Ben and
    Carla" (:func:`listed` up to the last, then the catalogue's "{names} and {last}":
    "Anna, Ben und Carla", "سارة، محمد ونور")."""
    names = [str(item) for item in items]
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=listed(names[:-1]), last=names[-1])


def together(items: Iterable[object]) -> str:
    """Players who share something (a win, the lead, a team): "Anna & Ben", three as
    "Anna, Ben & Carla" (:func:`listed` up to the last). German keeps "&", Finnish writes
    "ja" ("Aino ja Eero": tester 45 read "&" as a programmer's), Arabic joins with "و"
    ("سارة ومحمد")."""
    names = [str(item) for item in items]
    last = _p("list separator", " & ")
    return last.join(names) if len(names) < 3 else listed(names[:-1]) + last + names[-1]


def side_by_side(items: Iterable[object]) -> str:
    """Each player's points of a deal, side by side: "Anna +100 · Ben +160"; Arabic
    lists them with "،", as a "٠" beside "·" reads as one more dot."""
    return _p("list separator", " · ").join(str(item) for item in items)


def separator() -> str:
    """The mark between labels set side by side on one line (a page's title, "Trix ·
    With doubling", "Deal 3 · Anna, Ben"): " · "; Arabic " — ", as a "·" beside an
    Arabic zero "٠" reads as one more dot (issue 18, part 11). The catalogue's (context
    "label separator"); outside the app, " · "."""
    return _p("label separator", " · ")


def listed_apart(items: Iterable[object]) -> str:
    """Like :func:`listed`, for items that hold commas themselves: "; ", Arabic "؛ "."""
    return _p("list separator", "; ").join(str(item) for item in items)


def _n(count: int, singular: str, plural: str, **fields: object) -> str:
    """``count`` with its noun in the reader's language, which may have more forms than
    two (Arabic has six): _n(1, "{n} bug", "{n} bugs") → "1 bug"; ``fields`` fill the
    message's other places ("{name}'s points in {n} deal"). Extracted for the
    catalogues as ngettext (Makefile: ``-k _n:2,3``)."""
    return Message(_plural_translator(singular, plural, count)).format(n=count, **fields)


def _np(context: str, singular: str, plural: str, count: int) -> str:
    """:func:`_n` in the sense ``context`` names: _np("in a sum", "{n} bug", "{n} bugs", 2)
    → "2 bugs", where a language words a count otherwise in running text than in a sum
    (Arabic writes two as a dual without its digit, "ورقتان", in running text; a sum
    keeps the digit: tester 35). Extracted as npgettext (Makefile: ``-k _np:1c,2,3``)."""
    return Message(_plural_context_translator(context, singular, plural, count)).format(n=count)


def signed(points: int) -> str:
    """Points as the paper sheet writes them: +75, −150 (a true minus sign, U+2212), 0;
    in a page, in the reader's digits and signs (:func:`set_number_format`)."""
    return _shown_signed(points)


def number(value: int) -> str:
    """A whole number as a message writes it: 0–9, a true minus sign (U+2212) below 0;
    in a page in the reader's digits (:func:`set_number_format`)."""
    if _shown_number is None:
        return f"\u2212{-value}" if value < 0 else str(value)
    return _shown_number(value)


class RuleError(ValueError):
    """A deal or a game file breaks a rule or the game-file format.

    ``message`` is the card player's sentence without any prefix, e.g. "Ben has 4 bugs
    but won no tricks".  ``deal`` is the 1-based deal number (None for problems outside any
    deal), ``seat`` the player concerned (None if none), ``field`` where the problem is, as
    a dotted path into the deal entry ("tricks", "bugs", "bids", "turnip", "last_trick",
    "contracts", "king.taker", "queens.S.doubled_by", "diamonds", "trix", ...) or into the
    file ("players", "first_dealer", "options.target", ...).

    ``str(error)`` is what ``scorekeeper score`` prints: "deal 3: tricks add up to 12,
    expected 13".
    """

    def __init__(
        self,
        message: str,
        *,
        deal: int | None = None,
        seat: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.deal = deal
        self.seat = seat
        self.field = field

    def __str__(self) -> str:
        if self.deal is None:
            return self.message
        return f"deal {self.deal}: {self.message}"


class DealError(RuleError):
    """A deal breaks a rule or a consistency check (SCORING.md §1.3, §2.3)."""


class GameOverError(DealError):
    """A deal after the game is over: won (SCORING.md §1.4: a player alone at or over
    the target after a deal) or, in Trix, every kingdom played (§2). ``deal`` is the
    first deal after the end; the game ended with the deal before it."""


class FormatError(RuleError):
    """The game file's shape is wrong: a missing key, a wrong type, an unknown option."""


class Explainer(Protocol):
    """How a scored deal's points came about, told only when someone asks.

    Each game's rules keep, for every scored deal, the few things its points were worked
    out from (the deal as entered, the players' names, the options) in an object with
    these two methods; a :class:`ScoreLine` asks it when its ``steps`` or ``source`` are
    read.  Scoring itself builds no sentence, and the sentences are translated by the
    translator in force when they are read (the request's language), never at scoring
    time.
    """

    def steps(self, seat: int) -> tuple[str, ...]:
        """The sentences of ``seat``'s points in this deal, translated now."""
        ...

    def source(self, seat: int) -> str:
        """The rule behind ``seat``'s points, e.g. "SCORING.md §1.2; rules/trigami.en.txt,
        Scoring" (never translated: rules/sources.py reads it)."""
        ...

    def notes(self, seat: int) -> tuple[str, ...]:
        """What decides ``seat``'s points beyond the steps, each in a sentence translated
        now: the game's house reading of a rule the texts leave open, and what the other
        reading would give ("How a card taken back is read here: …"); () for none.
        Said apart from the steps, which are arithmetic (tester 31: a note numbered as a
        step after "in all: 0" read as a fourth sum)."""
        ...


@dataclass(frozen=True)
class ScoreLine:
    """One player's points in one deal, with the steps a person can check.

    ``points`` is an int, worked out when the deal is scored.  ``steps`` are sentences
    such as "5 tricks ÷ 3 bugs = 16 (fraction dropped)", "Turnip doubles: 32"; ``source``
    names the rule, e.g. "SCORING.md §1.2; rules/trigami.en.txt, Scoring".  Both are
    worked out by ``why`` (an :class:`Explainer`) each time they are read, from the same
    entries as the points: scoring a game builds no sentence, and the steps come in the
    language of whoever reads them.  Two lines are equal when their seat, points and
    entries are.
    """

    seat: int
    points: int
    why: Explainer = field(repr=False)

    @property
    def steps(self) -> tuple[str, ...]:
        """The sentences of this line, built and translated now (see :class:`Explainer`)."""
        return self.why.steps(self.seat)

    @property
    def source(self) -> str:
        """The rule this line's points follow, as rules/sources.py cites it."""
        return self.why.source(self.seat)

    @property
    def notes(self) -> tuple[str, ...]:
        """The house readings that decide this line's points (Explainer.notes)."""
        return self.why.notes(self.seat)


@dataclass(frozen=True)
class DealScore:
    """A scored deal.

    ``number`` is 1-based; ``points`` and ``totals`` (running totals after this deal) are
    one int per seat; ``lines`` one :class:`ScoreLine` per seat; ``dealer`` the seat that
    dealt it (None where the rules leave it open: the very first Trix deal).  Trix fills
    ``kingdom`` (1-based), ``owner`` and ``contracts``.
    """

    number: int
    dealer: int | None
    points: tuple[int, ...]
    totals: tuple[int, ...]
    lines: tuple[ScoreLine, ...]
    kingdom: int | None = None
    owner: int | None = None
    contracts: tuple[str, ...] = ()


@dataclass(frozen=True)
class KingdomCheck:
    """The paper players' check after a Trix kingdom (SCORING.md §2.1).

    ``number`` is 1-based, ``owner`` a seat, ``deals`` the 1-based deal numbers in it,
    ``played`` the contracts chosen so far, ``complete`` whether all five are played, and
    ``total`` the sum of the four totals after its last deal (0 when all is well).
    """

    number: int
    owner: int
    deals: tuple[int, ...]
    played: tuple[str, ...]
    complete: bool
    total: int

    @property
    def ok(self) -> bool:
        """Whether a completed kingdom leaves the four totals summing to 0."""
        return self.complete and self.total == 0


@dataclass(frozen=True)
class GameScore:
    """A whole game scored from its deals.

    ``totals`` one int per seat; ``finished`` whether the game is over; ``winners`` the
    winning seats (every tied seat on a shared win, both partners of a winning team);
    ``next_dealer`` the seat that deals next (None when the game is over, or when anyone
    may deal: the first Trix deal).  Trix also fills ``owner`` (the current or next
    kingdom's owner), ``remaining`` (the contracts that owner has still to choose, in the
    fixed order when there is one), ``kingdoms``, and for partners ``team_totals``
    (seats 0+2, seats 1+3).
    """

    deals: tuple[DealScore, ...]
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]
    next_dealer: int | None
    kingdoms: tuple[KingdomCheck, ...] = ()
    team_totals: tuple[int, int] | None = None
    owner: int | None = None
    remaining: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The object ``scorekeeper score`` prints (GAME-FILE.md, "What it prints")."""
        out: dict[str, Any] = {
            "deals": [
                {
                    "points": list(d.points),
                    "totals": list(d.totals),
                    "dealer": d.dealer,
                    **({"kingdom": d.kingdom, "contracts": list(d.contracts)} if d.kingdom else {}),
                    "explanations": [list(line.steps) for line in d.lines],
                }
                for d in self.deals
            ],
            "totals": list(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
            "next_dealer": self.next_dealer,
        }
        if self.team_totals is not None:
            out["team_totals"] = list(self.team_totals)
        if self.kingdoms:
            out["kingdoms"] = [
                {"owner": k.owner, "deals": list(k.deals), "complete": k.complete, "sum": k.total}
                for k in self.kingdoms
            ]
        return out


class GameRules(Protocol):
    """The one interface every game's module offers (as a module-level object).

    Deal entries and options are the game file's dicts (GAME-FILE.md); the rules parse
    them, so the web forms, the importer and the CLI all go through the same checks.
    """

    # Read-only: callers read these and never set them (the rules objects are frozen
    # dataclasses or hold them as class attributes), so a property is what they offer.

    @property
    def kind(self) -> str:
        """The game file's "game": "trigami", "bugami3", "trix"."""
        ...

    @property
    def title(self) -> str:
        """Shown to players, e.g. "Trigami"."""
        ...

    @property
    def seats(self) -> int:
        """Number of players: 3 or 4."""
        ...

    def parse_options(self, raw: Mapping[str, Any]) -> Any:
        """Options dict → the game's frozen options; missing keys take defaults.

        Raises FormatError (field "options.<key>") on an unknown key or value.
        """
        ...

    def dump_options(self, options: Any) -> dict[str, Any]:
        """The game's options → a dict with every key (defaults included)."""
        ...

    def parse_deal(self, raw: Any, number: int, players: Sequence[str] | None = None) -> Any:
        """One deal entry (dict) → the game's frozen deal; ``number`` is 1-based;
        ``players`` (names in seat order), when given, name the player in messages.

        Checks shape only (types, keys, ranges of single values); raises DealError with
        ``deal=number`` and the field.
        """
        ...

    def dump_deal(self, deal: Any) -> dict[str, Any]:
        """The game's deal → its game-file dict (parse_deal(dump_deal(d)) == d)."""
        ...

    def deal_problems(self, raw: Any, number: int, players: Sequence[str]) -> list[RuleError]:
        """Every problem of deal entry ``raw`` (deal ``number``) that its own entries
        show and a player can put right at once, each with its field and seat, the one
        :meth:`score` would raise first among them first; [] when the deal alone shows
        none (the game around it may still refuse it). A form shows them all together
        instead of one a Save."""
        ...

    def score(
        self,
        players: Sequence[str],
        first_dealer: int,
        options: Any,
        deals: Sequence[Any],
        names_at: Callable[[int], Sequence[str]] | None = None,
    ) -> GameScore:
        """Score parsed deals in order; raises DealError (with deal, seat, field and the
        player's name in the message) on the first deal that breaks a rule. ``names_at``:
        who sat at each seat in a deal (its 1-based number), when someone took over a seat
        (issue 18, part 3): its messages and steps name them; points stay with the seat."""
        ...

    def places(self, score: GameScore, options: Any) -> tuple[int, ...]:
        """Each seat's finishing place in the game as it stands (or ended): 1 is first,
        seats level share the better place (1, 1, 3). A club night ranks its tables by
        them (club.py; docs/club-nights.md)."""
        ...

    def sides(self, options: Any) -> tuple[tuple[int, ...], ...]:
        """The seats that win or lose together: each seat alone, or partners' pairs."""
        ...

    def low_wins(self, options: Any) -> bool:
        """Whether the lowest total is best (Trix's reversed scoring)."""
        ...


def _json(value: Any) -> str:
    """A value as the game file spells it (true, "4", 4.0), for messages."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)



def places_by_totals(totals: Sequence[int], low_wins: bool = False) -> tuple[int, ...]:
    """Each seat's place by its total (one int per seat): 1 plus the number of seats with
    a better total (higher; lower when ``low_wins``), so level seats share the better
    place: (30, 50, 30) → (2, 1, 2)."""
    return tuple(1 + sum(1 for other in totals if (other < total if low_wins else other > total))
                 for total in totals)

def check_count(value: Any, *, deal: int, field: str, seat: int | None = None,
                name: str | None = None, low: int = 0, high: int) -> int:
    """Return ``value`` if it is a whole number (a JSON integer, not 4.0, not true) in
    ``low..high``; otherwise raise DealError naming the field and, if given, the player."""
    who = f"{name}: " if name else ""
    if isinstance(value, bool) or not isinstance(value, int):
        raise DealError(_("{who}{field} must be a whole number, not {value}").format(
            who=who, field=field, value=_json(value)), deal=deal, seat=seat, field=field)
    if not low <= value <= high:
        raise DealError(_("{who}{field} must be between {low} and {high}, not {value}").format(
            who=who, field=field, low=low, high=high, value=value),
            deal=deal, seat=seat, field=field)
    return value
