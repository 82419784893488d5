"""Trix, the four-player compendium: contracts, doubling, kingdoms, explained points.

One object, :data:`TRIX`, follows :class:`~scorekeeper.rules.common.GameRules`.  A deal
names the contract(s) its kingdom's owner chose and carries one block for each
(GAME-FILE.md, "Trix"); :meth:`TrixRules.score` walks the deals kingdom by kingdom, checks
every deal against SCORING.md §2.3 and explains each player's points in the rule's terms.

Seats are 0-based, in playing order (to the right in Trix), so the next kingdom's owner,
the previous owner's right-hand neighbour, is ``(owner + 1) % 4``.

Source: ../shared/SCORING.md §2 (normative); rules/trix.de.txt.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .common import (
    SUIT_SYMBOLS,
    SUITS,
    DealError,
    DealScore,
    FormatError,
    GameOverError,
    GameScore,
    KingdomCheck,
    RuleError,
    ScoreLine,
    _,
    _p,
    and_listed,
    check_count,
    listed,
    places_by_totals,
    shown_names,
    signed,
)

KING = "king"
QUEENS = "queens"
DIAMONDS = "diamonds"
TRICKS = "tricks"
TRIX_CONTRACT = "trix"

#: The five contracts, in the order the rules list them (SCORING.md §2.1).
CONTRACTS: tuple[str, ...] = (KING, QUEENS, DIAMONDS, TRICKS, TRIX_CONTRACT)
#: The four contracts that may be combined in Trix Complex (SCORING.md §2.5).
PENALTY_CONTRACTS: tuple[str, ...] = (KING, QUEENS, DIAMONDS, TRICKS)
#: English names; use :func:`contract_name` for the translated one.
CONTRACT_NAMES: Mapping[str, str] = {
    KING: "King of Hearts",
    QUEENS: "Queens",
    DIAMONDS: "Diamonds",
    TRICKS: "Tricks",
    TRIX_CONTRACT: "Trix",
}

SEATS = 4
KINGDOMS = 4
TRICKS_PER_DEAL = 13
CARDS_PER_TRICK = 4
#: Trix contract: points for finishing 1st, 2nd, 3rd, 4th (SCORING.md §2.1).
TRIX_POINTS: tuple[int, ...] = (200, 150, 100, 50)
#: Penalty for the K♥ and for each queen, before doubling (SCORING.md §2.1).
KING_PENALTY = 75
QUEEN_PENALTY = 25
#: Penalty per diamond and per trick: standard values and swapped values (§2.1, §2.5).
VALUES: Mapping[str, Mapping[str, int]] = {
    "standard": {DIAMONDS: 10, TRICKS: 15},
    "swapped": {DIAMONDS: 15, TRICKS: 10},
}
TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))

_SCORINGS = ("standard", "reversed")
#: How a doubled card won back by its own doubler scores (SCORING.md §2.2, "House reading
#: of a card taken back"): "leader" (the default; rules/trix.de.txt) or "plain".
TAKEN_BACK = ("leader", "plain")
#: How partners win (SCORING.md §2.5, Partners): the higher team total, or not holding the worst total
PARTNERSHIPS = ("sum", "worst-loses")
_PARTNERSHIPS = (None, *PARTNERSHIPS)
_CARD_KEYS = ("taker", "doubled_by", "leader")


def contract_name(contract: str) -> str:
    """The translated human name of a contract key ("queens" → "Queens")."""
    names = {
        KING: _p("contract", "King of Hearts"),
        QUEENS: _p("contract", "Queens"),
        DIAMONDS: _p("contract", "Diamonds"),
        TRICKS: _p("contract", "Tricks"),
        TRIX_CONTRACT: _p("contract", "Trix"),
    }
    return names[contract]


def contract_total(contract: str, values: str = "standard") -> int:
    """What one contract hands out in all, in standard scoring: −75, −100, −130, −195,
    +500 (diamonds and tricks swap with ``values="swapped"``).  Doubling never changes it.
    Source: SCORING.md §2.1, §2.2."""
    if contract == KING:
        return -KING_PENALTY
    if contract == QUEENS:
        return -QUEEN_PENALTY * len(SUITS)
    if contract in (DIAMONDS, TRICKS):
        return -VALUES[values][contract] * TRICKS_PER_DEAL
    return sum(TRIX_POINTS)


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class TrixOptions:
    """A Trix game's settings, fixed when the game starts (SCORING.md §2.2, §2.5).

    ``doubling``: the K♥ and the queens may be doubled.  ``values``: "standard" or
    "swapped" (diamonds −15, tricks −10).  ``scoring``: "standard" or "reversed" (every
    sign flipped, lowest wins).  ``order``: None (free choice) or the five contract keys
    in their fixed order.  ``partnership``: None, "sum" or "worst-loses".  ``complex``:
    Trix Complex, several penalty contracts may be played in one deal.  ``taken_back``:
    the house reading of a doubled card won back by its doubler, "leader" (the doubler
    pays double, the trick's leader gains half; only the plain penalty if the doubler
    led it) or "plain" (the doubler pays the plain penalty, nobody gains) (§2.2).
    """

    doubling: bool = True
    values: str = "standard"
    scoring: str = "standard"
    order: tuple[str, ...] | None = None
    partnership: str | None = None
    complex: bool = False
    taken_back: str = "leader"

    @property
    def reversed(self) -> bool:
        """Whether scoring is reversed (lowest total wins)."""
        return self.scoring == "reversed"


@dataclass(frozen=True)
class CardTaken:
    """Who took the K♥ or one queen, and its doubling (SCORING.md §2.2).

    ``taker``: the seat that took the card.  ``doubled_by``: the seat that doubled it (its
    holder), or None.  ``leader``: the seat that led to the trick in which the card was
    taken, given exactly when the doubler took it back (== ``doubled_by`` when the doubler
    led it), else None.
    """

    taker: int
    doubled_by: int | None = None
    leader: int | None = None


@dataclass(frozen=True)
class TrixDeal:
    """One Trix deal as entered at the table (GAME-FILE.md, "Trix").

    ``contracts``: the contract keys chosen, as listed (one, or several penalty contracts
    in Trix Complex).  Exactly the blocks of those contracts are set, the others None:
    ``king`` a :class:`CardTaken`; ``queens`` four :class:`CardTaken` in suit order
    S, H, D, C (see :meth:`queen`); ``diamonds`` and ``tricks`` one count per seat;
    ``trix`` the seats in finishing order, first out first.
    """

    contracts: tuple[str, ...]
    king: CardTaken | None = None
    queens: tuple[CardTaken, ...] | None = None
    diamonds: tuple[int, ...] | None = None
    tricks: tuple[int, ...] | None = None
    trix: tuple[int, ...] | None = None

    def queen(self, suit: str) -> CardTaken:
        """The queen of ``suit`` ("S", "H", "D", "C"); raises ValueError without Queens."""
        if self.queens is None:
            raise ValueError("this deal has no Queens block")
        return self.queens[SUITS.index(suit)]

    def block(self, contract: str) -> Any:
        """The block of ``contract`` (None when the deal does not carry it)."""
        return getattr(self, contract)


# --------------------------------------------------------------------------- helpers


#: The cards Trix scores one by one: the King of Hearts and the four queens, as (rank,
#: suit) with rank "K" or "Q" and suit "S", "H", "D", "C".
CARDS: tuple[tuple[str, str], ...] = (("K", "H"), *(("Q", suit) for suit in SUITS))


def card_label(rank: str, suit: str) -> str:
    """A card as the reader's players write it on a score sheet and in the explanations:
    its rank's letter and its suit's symbol, "K♥", "Q♠" in English ("D♠" in German, where
    the queen is the Dame).  ``rank`` "K" (the King of Hearts) or "Q" (a queen), ``suit``
    "S", "H", "D", "C".  The suit stays a symbol in every language; the letter, and where
    it stands, are the catalogue's.  Raises KeyError for another card.  Source:
    rules/trix.de.txt ("Herz-König", "Pik-Dame"); each catalogue's NOTES.md."""
    forms = {
        # TRANSLATORS: the King of Hearts written short, as players write it on a score
        # sheet: the rank's letter and {suit}, the suit's symbol (♥). Shown on the sheet
        # ("K♥²": doubled) and in sentences ("took the K♥: −75").
        "K": _p("card", "K{suit}"),
        # TRANSLATORS: a queen written short, as players write it on a score sheet: the
        # rank's letter and {suit}, the suit's symbol (♠, ♥, ♦, ♣). Shown on the sheet
        # ("Q♠²": doubled) and in sentences ("took 2 queens (Q♠, Q♣): …").
        "Q": _p("card", "Q{suit}"),
    }
    return forms[rank].format(suit=SUIT_SYMBOLS[suit])


def card_name(rank: str, suit: str) -> str:
    """A card's name in words, as players say it ("queen of spades"; German "Pik-Dame"):
    what a screen reader reads for :func:`card_label`.  ``rank`` and ``suit`` as there;
    raises KeyError for a card Trix does not name."""
    names = {
        ("K", "H"): _p("card", "king of hearts"),
        ("Q", "S"): _p("card", "queen of spades"),
        ("Q", "H"): _p("card", "queen of hearts"),
        ("Q", "D"): _p("card", "queen of diamonds"),
        ("Q", "C"): _p("card", "queen of clubs"),
    }
    return names[rank, suit]


def _king_label() -> str:
    return card_label("K", "H")


def _queen_label(suit: str) -> str:
    return card_label("Q", suit)


def _card_label(field: str) -> str:
    """"king" → "K♥", "queens.S" → "Q♠"."""
    if field == KING:
        return _king_label()
    return _queen_label(field.rsplit(".", 1)[1])


def _join(names: Sequence[str]) -> str:
    return " + ".join(names)


def _ordinal_step(place: int) -> str:
    steps = (
        _("finished 1st in Trix: {points}"),
        _("finished 2nd in Trix: {points}"),
        _("finished 3rd in Trix: {points}"),
        _("finished 4th in Trix: {points}"),
    )
    return steps[place]


#: Where each kind of step is written down: (SCORING.md sections, rules/trix.de.txt parts),
#: as rules/sources.py reads them.  A doubled card is worth twice its §2.1 penalty, so
#: doubling cites both §2.1 and §2.2; a variant cites its own item of §2.5.
_SOURCES: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "points": (("§2.1",), ("Abrechnung",)),
    "trix": (("§2.1",), ("Der Kontrakt Trix",)),
    "doubling": (("§2.1", "§2.2"), ("Herz-König und Damen verdoppeln",)),
    "swapped": (("§2.1", "§2.5 Swapped values"), ("Varianten: Getauschte Werte",)),
    "reversed": (("§2.5 Reversed scoring",), ("Varianten: Umgekehrte Wertung",)),
    "complex": (("§2.5 Trix Complex",), ("Varianten: Trix Complex",)),
}


def _source(keys: Sequence[str]) -> str:
    """The source string for a line whose steps have these kinds (keys of _SOURCES), e.g.
    "SCORING.md §2.1, §2.2; rules/trix.de.txt, Herz-König und Damen verdoppeln"."""
    sections: list[str] = []
    parts: list[str] = []
    for key in keys:
        for section in _SOURCES[key][0]:
            if section not in sections:
                sections.append(section)
        for part in _SOURCES[key][1]:
            if part not in parts:
                parts.append(part)
    return f"SCORING.md {', '.join(sorted(sections))}; rules/trix.de.txt, {', '.join(parts)}"


# A scoring step: (sentence, points, source key); one list of them per seat.
_Step = tuple[str, int, str]


def _score_card(card: CardTaken, label: str, penalty: int, names: Sequence[str],
                steps: list[list[_Step]], taken_back: str = "leader") -> None:
    """The K♥ or one doubled queen; ``taken_back`` the game's house reading of a card won
    back by its doubler ("leader" or "plain").  Source: SCORING.md §2.1, §2.2;
    rules/trix.de.txt, Herz-König und Damen verdoppeln."""
    taker, doubler, leader = card.taker, card.doubled_by, card.leader
    if doubler is None:
        steps[taker].append((_("took the {card}: {points}").format(
            card=label, points=signed(-penalty)), -penalty, "points"))
    elif doubler != taker:
        steps[taker].append((_("took the {card}, doubled by {doubler}: {points}").format(
            card=label, doubler=names[doubler], points=signed(-2 * penalty)),
            -2 * penalty, "doubling"))
        steps[doubler].append((_("doubled the {card} and {taker} took it: {points}").format(
            card=label, taker=names[taker], points=signed(penalty)), penalty, "doubling"))
    elif taken_back == "plain":
        steps[doubler].append((_("doubled the {card} and took it back: {points}").format(
            card=label, points=signed(-penalty)), -penalty, "doubling"))
    elif leader is not None and leader != doubler:
        steps[doubler].append((_("doubled the {card} and took it back: {points}").format(
            card=label, points=signed(-2 * penalty)), -2 * penalty, "doubling"))
        steps[leader].append((
            _("led to the trick in which {doubler} took back the doubled {card}: {points}")
            .format(card=label, doubler=names[doubler], points=signed(penalty)),
            penalty, "doubling"))
    else:
        steps[doubler].append((_("doubled the {card}, led it and took it back: {points}").format(
            card=label, points=signed(-penalty)), -penalty, "doubling"))


def _score_king(deal: TrixDeal, names: Sequence[str],
                steps: list[list[_Step]], taken_back: str = "leader") -> None:
    assert deal.king is not None
    _score_card(deal.king, _king_label(), KING_PENALTY, names, steps, taken_back)
    for seat in range(SEATS):
        if not steps[seat]:
            steps[seat].append((_("did not take the {card}: {points}").format(card=_king_label(), points=signed(0)),
                                0, "points"))


def _score_queens(deal: TrixDeal, names: Sequence[str],
                  steps: list[list[_Step]], taken_back: str = "leader") -> None:
    assert deal.queens is not None
    plain: list[list[str]] = [[] for _seat in range(SEATS)]
    for suit, card in zip(SUITS, deal.queens, strict=True):
        if card.doubled_by is None:
            plain[card.taker].append(_queen_label(suit))
        else:
            _score_card(card, _queen_label(suit), QUEEN_PENALTY, names, steps, taken_back)
    for seat in range(SEATS):
        queens = plain[seat]
        if len(queens) == 1:
            steps[seat].append((_("took 1 queen ({cards}): {points}").format(
                cards=queens[0], points=signed(-QUEEN_PENALTY)), -QUEEN_PENALTY, "points"))
        elif queens:
            points = -QUEEN_PENALTY * len(queens)
            steps[seat].append((_("took {n} queens ({cards}): {n} × {each} = {points}").format(
                n=len(queens), cards=listed(queens), each=signed(-QUEEN_PENALTY),
                points=signed(points)), points, "points"))
        if not steps[seat]:
            steps[seat].append((_("took no queens: {points}").format(points=signed(0)), 0, "points"))


def _score_counts(contract: str, counts: Sequence[int], options: TrixOptions,
                  steps: list[list[_Step]]) -> None:
    """Diamonds or Tricks: a fixed penalty per card or trick.  Source: SCORING.md §2.1,
    §2.5 (swapped values)."""
    each = VALUES[options.values][contract]
    if contract == DIAMONDS:
        none, one, many = (_("took no diamonds: {points}"), _("took 1 diamond: {points}"),
                           _("took {n} diamonds: {n} × {each} = {points}"))
    else:
        none, one, many = (_("took no tricks: {points}"), _("took 1 trick: {points}"),
                           _("took {n} tricks: {n} × {each} = {points}"))
    for seat, count in enumerate(counts):
        points = -each * count
        text = (none if count == 0 else one if count == 1 else many).format(
            n=count, each=signed(-each), points=signed(points))
        key = "points"
        if options.values == "swapped" and count:
            text = _("{step} (swapped values)").format(step=text)
            key = "swapped"
        steps[seat].append((text, points, key))


def _score_trix(deal: TrixDeal, steps: list[list[_Step]]) -> None:
    assert deal.trix is not None
    for place, seat in enumerate(deal.trix):
        points = TRIX_POINTS[place]
        steps[seat].append((_ordinal_step(place).format(points=signed(points)), points, "trix"))


def _card_points(card: CardTaken, penalty: int, points: list[int], taken_back: str = "leader") -> None:
    """Add the K♥'s or one queen's points to ``points`` (one int per seat), as
    :func:`_score_card` tells them under the house reading ``taken_back`` ("leader" or
    "plain").  Source: SCORING.md §2.1, §2.2."""
    taker, doubler, leader = card.taker, card.doubled_by, card.leader
    if doubler is None:
        points[taker] -= penalty
    elif doubler != taker:
        points[taker] -= 2 * penalty
        points[doubler] += penalty
    elif taken_back == "plain":
        points[doubler] -= penalty
    elif leader is not None and leader != doubler:
        points[doubler] -= 2 * penalty
        points[leader] += penalty
    else:
        points[doubler] -= penalty


def _points(deal: TrixDeal, options: TrixOptions) -> list[int]:
    """The points of a checked ``deal``, one int per seat: SCORING.md §2.1 (values
    swapped per §2.5), doubling per §2.2 (a card taken back by its doubler as the game's
    ``taken_back`` reads it), every sign flipped in reversed scoring (§2.5).
    :meth:`TrixRules._tell` works out the same in words, only when someone reads them."""
    points = [0] * SEATS
    for contract in deal.contracts:
        if contract == KING:
            assert deal.king is not None
            _card_points(deal.king, KING_PENALTY, points, options.taken_back)
        elif contract == QUEENS:
            assert deal.queens is not None
            for card in deal.queens:
                _card_points(card, QUEEN_PENALTY, points, options.taken_back)
        elif contract == TRIX_CONTRACT:
            assert deal.trix is not None
            for place, seat in enumerate(deal.trix):
                points[seat] += TRIX_POINTS[place]
        else:
            each = VALUES[options.values][contract]
            for seat, count in enumerate(getattr(deal, contract)):
                points[seat] -= each * count
    return [-p for p in points] if options.reversed else points


def taken_back_cards(deal: TrixDeal) -> tuple[CardTaken, ...]:
    """The doubled cards of ``deal`` that their own doubler won back (the K♥ and the
    queens, in that order): the cards the house reading ``taken_back`` decides
    (SCORING.md §2.2)."""
    cards = [deal.king] if deal.king is not None else []
    cards += list(deal.queens or ())
    return tuple(c for c in cards if c.doubled_by is not None and c.doubled_by == c.taker)


def reading_words(taken_back: str) -> str:
    """A house reading of a card taken back ("leader" or "plain"), in words for players,
    translated now, e.g. "the doubler pays double and whoever led to that trick gains
    half".  Raises KeyError for another value.  Source: SCORING.md §2.2."""
    words = {
        # TRANSLATORS: how a doubled K♥ or queen scores when the player who doubled it wins
        # it back in a trick: the reading of rules/trix.de.txt. "Double": twice the card's
        # penalty; "half": the plain penalty goes to whoever led to that trick.
        "leader": _("the doubler pays double and whoever led to that trick gains half"),
        # TRANSLATORS: the other reading: the doubler pays the card's plain (undoubled)
        # penalty and nobody gains points, whoever led to that trick.
        "plain": _("the doubler pays the plain penalty and nobody gains"),
    }
    return words[taken_back]


def _reading(deal: TrixDeal, names: Sequence[str], options: TrixOptions) -> dict[int, str]:
    """The sentence that names the game's house reading of a card taken back and what
    the other reading would give in this deal, for each seat it concerns (the doublers
    and leaders of the cards taken back), translated now; {} when no card was taken back
    by its doubler.  Source: SCORING.md §2.2, "House reading of a card taken back"."""
    cards = taken_back_cards(deal)
    if not cards:
        return {}
    other = TAKEN_BACK[1 - TAKEN_BACK.index(options.taken_back)]
    now = _points(deal, options)
    then = _points(deal, replace(options, taken_back=other))
    changed = [seat for seat in range(SEATS) if now[seat] != then[seat]]
    if changed:
        # TRANSLATORS: {changes} lists players and their points in this deal, e.g.
        # "Ben −75 and Dan 0"; {reading} and {other} are the two readings in words.
        text = _("How a card taken back is read here: {reading}. The other reading ({other}) would "
                 "give {changes} in this deal.").format(
            reading=reading_words(options.taken_back), other=reading_words(other),
            changes=and_listed([f"{names[seat]} {signed(then[seat])}" for seat in changed]))
    else:
        text = _("How a card taken back is read here: {reading}. The other reading ({other}) gives "
                 "the same points in this deal.").format(
            reading=reading_words(options.taken_back), other=reading_words(other))
    seats = {seat for card in cards for seat in (card.taker, card.leader) if seat is not None}
    return dict.fromkeys(sorted(seats | set(changed)), text)



def winners_of(totals: Sequence[int], options: TrixOptions) -> tuple[int, ...]:
    """The winning seats for final ``totals`` (one int per seat), sorted.

    Alone: the highest total wins (lowest when reversed); tied players share.  Partners
    ("sum"): the higher team total (seats 0+2 against 1+3; lower when reversed) wins both
    partners; equal team totals → all four share.  Partners ("worst-loses"): the team
    holding the single worst individual total (lowest; highest when reversed) loses; if
    both teams hold it, all four share.  Source: SCORING.md §2 (opening), §2.5.

    This app's reading of §2.5's "if both teams hold that worst total, or team totals are
    equal, all four share": each clause is the tie of one way of winning (both teams
    holding the worst total under "worst-loses", equal team totals under "sum"), so under
    "worst-loses" equal team totals (in a whole game, both 0: every kingdom sums to 0)
    still leave the team holding the worst total the loser.
    """
    rev = options.reversed
    if options.partnership is None:
        best = min(totals) if rev else max(totals)
        return tuple(seat for seat in range(SEATS) if totals[seat] == best)
    if options.partnership == "sum":
        first, second = (sum(totals[seat] for seat in team) for team in TEAMS)
        if first == second:
            return tuple(range(SEATS))
        first_wins = first < second if rev else first > second
        return TEAMS[0] if first_wins else TEAMS[1]
    worst = max(totals) if rev else min(totals)
    losing = [i for i, team in enumerate(TEAMS) if any(totals[s] == worst for s in team)]
    if len(losing) == 2:
        return tuple(range(SEATS))
    return TEAMS[1 - losing[0]]


@dataclass(frozen=True)
class TeamStanding:
    """One team of partners with the players' totals so far (SCORING.md §2.5, Partners).

    ``seats`` (0, 2) or (1, 3); ``totals`` the partners' totals, in seat order; ``total``
    their sum (the team total); ``worst`` the team's worst individual total (the lower,
    or the higher under reversed scoring); ``decides`` the number that settles the game
    between the teams: ``total`` ("sum") or ``worst`` ("worst-loses"); ``ahead`` whether
    this team wins if the game ends with these totals (both teams when all four share).
    """

    seats: tuple[int, int]
    totals: tuple[int, int]
    total: int
    worst: int
    decides: int
    ahead: bool


def team_standings(totals: Sequence[int], options: TrixOptions) -> tuple[TeamStanding, TeamStanding]:
    """Both teams (seats 0+2, then 1+3) for ``totals`` (one int per seat) under
    ``options.partnership`` ("sum" or "worst-loses"); ``ahead`` as :func:`winners_of`
    finds the winners.  Raises ValueError for a game without partners.
    Source: SCORING.md §2.5, Partners and Reversed scoring ("worst" is the highest)."""
    if options.partnership is None:
        raise ValueError("this game is not played in partnerships")
    winners = winners_of(totals, options)
    out = []
    for team in TEAMS:
        pair = (totals[team[0]], totals[team[1]])
        worst = max(pair) if options.reversed else min(pair)
        total = sum(pair)
        out.append(TeamStanding(seats=team, totals=pair, total=total, worst=worst,
                                decides=total if options.partnership == "sum" else worst,
                                ahead=team[0] in winners))
    return out[0], out[1]


# --------------------------------------------------------------------------- the rules


class TrixRules:
    """The rules of Trix (SCORING.md §2), following common.GameRules."""

    kind = "trix"
    title = "Trix"
    seats = SEATS

    # ---- options

    def parse_options(self, raw: Mapping[str, Any]) -> TrixOptions:
        """The game file's ``options`` dict → :class:`TrixOptions`; missing keys take
        their defaults.  Raises FormatError (field "options.<key>") on an unknown key or a
        bad value.  Source: GAME-FILE.md, "Trix"; SCORING.md §2.2 (``taken_back``), §2.5."""
        if not isinstance(raw, Mapping):
            raise FormatError(_("options must be a JSON object"), field="options")
        known = ("doubling", "values", "scoring", "order", "partnership", "complex", "taken_back")
        for key in raw:
            if key not in known:
                raise FormatError(_("unknown Trix option {key!r}; known: {known}").format(
                    key=key, known=", ".join(known)), field=f"options.{key}")

        def flag(key: str, default: bool) -> bool:
            value = raw.get(key, default)
            if not isinstance(value, bool):
                raise FormatError(_("options.{key} must be true or false, not {value!r}").format(
                    key=key, value=value), field=f"options.{key}")
            return value

        def choice(key: str, allowed: tuple[Any, ...], default: Any) -> Any:
            value = raw.get(key, default)
            if not any(value is option or (isinstance(value, str) and value == option)
                       for option in allowed):
                shown = ", ".join("null" if a is None else repr(a) for a in allowed)
                raise FormatError(_("options.{key} must be one of {allowed}, not {value!r}")
                                  .format(key=key, allowed=shown, value=value),
                                  field=f"options.{key}")
            return value

        order = raw.get("order")
        if order is not None:
            if (not isinstance(order, (list, tuple)) or len(order) != len(CONTRACTS)
                    or not all(isinstance(c, str) for c in order)
                    or sorted(order) != sorted(CONTRACTS)):
                raise FormatError(
                    _("options.order must be null or list the five contracts once each "
                      "({contracts}), not {value!r}").format(
                        contracts=", ".join(CONTRACTS), value=order),
                    field="options.order")
            order = tuple(order)
        return TrixOptions(
            doubling=flag("doubling", True),
            values=choice("values", tuple(VALUES), "standard"),
            scoring=choice("scoring", _SCORINGS, "standard"),
            order=order,
            partnership=choice("partnership", _PARTNERSHIPS, None),
            complex=flag("complex", False),
            taken_back=choice("taken_back", TAKEN_BACK, "leader"),
        )

    def dump_options(self, options: TrixOptions) -> dict[str, Any]:
        """:class:`TrixOptions` → a dict with every key; ``order`` a list or None."""
        return {
            "doubling": options.doubling,
            "values": options.values,
            "scoring": options.scoring,
            "order": list(options.order) if options.order is not None else None,
            "partnership": options.partnership,
            "complex": options.complex,
            "taken_back": options.taken_back,
        }

    # ---- deals

    def deal_problems(self, raw: Any, number: int, players: Sequence[str]) -> list[RuleError]:
        """A Trix deal's problems a form shows at once (GameRules.deal_problems): its
        entry's shape (:meth:`parse_deal`), whose problem comes alone; else, in a deal
        of several contracts (Trix Complex), every way they disagree (SCORING.md §2.3:
        a card's taker who won no trick, the Q♦'s taker without a diamond, penalty cards
        beyond a player's tricks). The rules that need the game (the kingdom, doubling
        allowed) are told by :meth:`score`, one at a time."""
        try:
            deal = self.parse_deal(raw, number, players)
        except RuleError as problem:
            return [problem]
        names = shown_names(players)

        def said(message: str, field: str | None, seat: int | None = None) -> DealError:
            return DealError(message, deal=number, field=field, seat=seat)

        return list(self._cross_problems(deal, names, said))

    def parse_deal(self, raw: Any, number: int, players: Sequence[str] | None = None) -> TrixDeal:
        """One deal entry (GAME-FILE.md, "Trix") → :class:`TrixDeal`; ``number`` 1-based;
        ``players`` (names in seat order), when given, name the player in a message.

        Checks the shape only: a non-empty list of known contracts without repeats, exactly
        their blocks (a block given as null counts as absent), seats 0–3 and counts 0–13 as
        JSON integers, no unknown keys inside blocks.  Keys the format does not define at
        the deal's top level are ignored.  The rules (sums, kingdoms, doubling, Complex)
        are checked by :meth:`score`.  Raises DealError(deal=number, field, seat).
        """
        players = None if players is None else shown_names(players)

        def error(message: str, field: str | None, seat: int | None = None) -> DealError:
            return DealError(message, deal=number, field=field, seat=seat)

        if not isinstance(raw, Mapping):
            raise error(_("a deal must be a JSON object"), None)
        if "contracts" not in raw:
            raise error(_("the deal names no contract"), "contracts")
        names = raw["contracts"]
        if not isinstance(names, (list, tuple)) or not names:
            raise error(_("contracts must be a non-empty list of contracts"), "contracts")
        contracts: list[str] = []
        for name in names:
            if not isinstance(name, str) or name not in CONTRACTS:
                raise error(_("unknown contract {name!r}; expected one of: {known}").format(
                    name=name, known=", ".join(CONTRACTS)), "contracts")
            if name in contracts:
                raise error(_("{contract} is listed twice").format(
                    contract=contract_name(name)), "contracts")
            contracts.append(name)
        for contract in CONTRACTS:
            present = raw.get(contract) is not None
            if contract in contracts and not present:
                raise error(_("the deal names {contract} but has no {key} block").format(
                    contract=contract_name(contract), key=contract), contract)
            if present and contract not in contracts:
                raise error(_("the deal has a {key} block but does not name {contract}").format(
                    contract=contract_name(contract), key=contract), contract)

        def card(value: Any, field: str) -> CardTaken:
            label = _card_label(field)
            if not isinstance(value, Mapping):
                raise error(_("{field} must be a JSON object naming who took the {card}")
                            .format(field=field, card=label), field)
            for key in value:
                if key not in _CARD_KEYS:
                    raise error(_("unknown key {key!r} in {field}").format(key=key, field=field),
                                f"{field}.{key}")
            if value.get("taker") is None:
                raise error(_("{field}.taker is missing: who took the {card}?").format(
                    field=field, card=label), f"{field}.taker")

            def seat(key: str) -> int:
                return check_count(value[key], deal=number, field=f"{field}.{key}",
                                   high=SEATS - 1)

            def seat_or_none(key: str) -> int | None:
                return None if value.get(key) is None else seat(key)

            # checked in _CARD_KEYS' order: taker (present, see above), doubled_by, leader
            return CardTaken(taker=seat("taker"), doubled_by=seat_or_none("doubled_by"),
                             leader=seat_or_none("leader"))

        def per_seat(value: Any, field: str, high: int) -> tuple[int, ...]:
            if not isinstance(value, (list, tuple)) or len(value) != SEATS:
                raise error(_("{field} must list 4 numbers, one per seat").format(field=field),
                            field)
            per_player = field != TRIX_CONTRACT  # the finishing order lists seats by place
            return tuple(check_count(v, deal=number, field=field,
                                     seat=seat if per_player else None,
                                     name=players[seat] if per_player and players else None, high=high)
                         for seat, v in enumerate(value))

        king = queens = diamonds = tricks = trix = None
        if KING in contracts:
            king = card(raw[KING], KING)
        if QUEENS in contracts:
            block = raw[QUEENS]
            if not isinstance(block, Mapping):
                raise error(_("queens must be a JSON object with one entry per suit "
                              "(S, H, D, C)"), QUEENS)
            for key in block:
                if key not in SUITS:
                    raise error(_("unknown key {key!r} in queens; the suits are S, H, D, C")
                                .format(key=key), f"{QUEENS}.{key}")
            for suit in SUITS:
                if suit not in block:
                    raise error(_("who took the {card}? queens.{suit} is missing").format(
                        card=_queen_label(suit), suit=suit), f"{QUEENS}.{suit}")
            queens = tuple(card(block[suit], f"{QUEENS}.{suit}") for suit in SUITS)
        if DIAMONDS in contracts:
            diamonds = per_seat(raw[DIAMONDS], DIAMONDS, TRICKS_PER_DEAL)
        if TRICKS in contracts:
            tricks = per_seat(raw[TRICKS], TRICKS, TRICKS_PER_DEAL)
        if TRIX_CONTRACT in contracts:
            trix = per_seat(raw[TRIX_CONTRACT], TRIX_CONTRACT, SEATS - 1)
        return TrixDeal(contracts=tuple(contracts), king=king, queens=queens,
                        diamonds=diamonds, tricks=tricks, trix=trix)

    def dump_deal(self, deal: TrixDeal) -> dict[str, Any]:
        """:class:`TrixDeal` → its game-file dict; ``parse_deal(dump_deal(d)) == d``.

        A card block lists ``doubled_by`` and ``leader`` only when they are set (parse
        accepts them as null too); blocks follow the order of :data:`CONTRACTS`.
        """

        def card(value: CardTaken) -> dict[str, int]:
            out = {"taker": value.taker}
            if value.doubled_by is not None:
                out["doubled_by"] = value.doubled_by
            if value.leader is not None:
                out["leader"] = value.leader
            return out

        out: dict[str, Any] = {"contracts": list(deal.contracts)}
        if deal.king is not None:
            out[KING] = card(deal.king)
        if deal.queens is not None:
            out[QUEENS] = {suit: card(q) for suit, q in zip(SUITS, deal.queens, strict=True)}
        for key in (DIAMONDS, TRICKS, TRIX_CONTRACT):
            value = getattr(deal, key)
            if value is not None:
                out[key] = list(value)
        return out

    # ---- checks

    def check_deal(self, deal: TrixDeal, number: int, players: Sequence[str],
                   options: TrixOptions) -> None:
        """The checks of SCORING.md §2.3 that need only the deal itself (no kingdom):
        one contract unless Trix Complex, Trix never combined; tricks and diamonds add up
        to 13; the finishing order names each player once; doubling allowed, leader given
        exactly when the doubler took the card back; Complex cross-checks.  Raises
        DealError naming the player (by name), seat and field."""
        players = shown_names(players)

        def error(message: str, field: str | None, seat: int | None = None) -> DealError:
            return DealError(message, deal=number, field=field, seat=seat)

        contracts = deal.contracts
        self._check_combination(deal, number, options)
        for contract in CONTRACTS:
            if (getattr(deal, contract) is not None) != (contract in contracts):
                raise error(_("the deal must carry exactly the blocks of the contracts it "
                              "names ({contract})").format(contract=contract_name(contract)),
                            contract)

        def card(value: CardTaken, field: str) -> None:
            label = _card_label(field)
            taker, doubler, leader = value.taker, value.doubled_by, value.leader
            if doubler is not None and not options.doubling:
                raise error(_("{doubler} doubled the {card}, but this game is played "
                              "without doubling").format(doubler=players[doubler], card=label),
                            f"{field}.doubled_by", doubler)
            if doubler is None and leader is not None:
                raise error(_("the {card} was not doubled, so no leader is recorded for it "
                              "(given: {leader})").format(card=label, leader=players[leader]),
                            f"{field}.leader", leader)
            if doubler is not None and doubler != taker and leader is not None:
                raise error(_("{taker} took the {card}, not {doubler} who doubled it, so no "
                              "leader is recorded (given: {leader})").format(
                                  taker=players[taker], card=label, doubler=players[doubler],
                                  leader=players[leader]), f"{field}.leader", leader)
            if doubler is not None and doubler == taker and leader is None:
                raise error(_("{doubler} doubled the {card} and took it back: who led to that "
                              "trick?").format(doubler=players[doubler], card=label),
                            f"{field}.leader", doubler)

        if deal.king is not None:
            card(deal.king, KING)
        if deal.queens is not None:
            for suit, queen in zip(SUITS, deal.queens, strict=True):
                card(queen, f"{QUEENS}.{suit}")
        for contract in (DIAMONDS, TRICKS):
            counts = getattr(deal, contract)
            if counts is not None and sum(counts) != TRICKS_PER_DEAL:
                what = _p("counted", "diamonds") if contract == DIAMONDS else _p("counted", "tricks")
                raise error(_("{what} add up to {total}, expected {expected}").format(
                    what=what, total=sum(counts), expected=TRICKS_PER_DEAL), contract)
        if deal.trix is not None:
            for seat in range(SEATS):
                times = deal.trix.count(seat)
                if times > 1:
                    missing = [players[s] for s in range(SEATS) if s not in deal.trix]
                    raise error(_("the Trix finishing order names {name} {times} times and "
                                  "leaves out {missing}").format(
                                      name=players[seat], times=times,
                                      missing=listed(missing)), TRIX_CONTRACT, seat)
        found = self._cross_problems(deal, players, error)
        if found:
            raise found[0]

    @staticmethod
    def _check_combination(deal: TrixDeal, number: int, options: TrixOptions) -> None:
        """One contract a deal, except in Trix Complex, where Trix itself is never combined
        (SCORING.md §2.5)."""
        contracts = deal.contracts
        if len(contracts) > 1:
            if not options.complex:
                raise DealError(_("{chosen} in one deal: without Trix Complex each deal "
                                  "plays one contract").format(
                                      chosen=_join([contract_name(c) for c in contracts])),
                                deal=number, field="contracts")
            if TRIX_CONTRACT in contracts:
                raise DealError(_("{chosen} in one deal: Trix is never combined with "
                                  "another contract").format(
                                      chosen=_join([contract_name(c) for c in contracts])),
                                deal=number, field="contracts")

    @staticmethod
    def _cross_problems(deal: TrixDeal, players: Sequence[str], error: Any) -> list[DealError]:
        """Trix Complex: the contracts of one deal must agree (SCORING.md §2.3): every
        such disagreement, in order (each stands alone: a card's taker who won no trick,
        the Q♦'s taker without a diamond, a player's penalty cards beyond their tricks)."""
        found: list[DealError] = []
        tricks = deal.tricks
        cards: list[tuple[str, CardTaken]] = []
        if deal.king is not None:
            cards.append((KING, deal.king))
        if deal.queens is not None:
            cards.extend((f"{QUEENS}.{suit}", q) for suit, q in zip(SUITS, deal.queens, strict=True))
        if tricks is not None:
            for field, value in cards:
                if tricks[value.taker] == 0:
                    found.append(error(_("{name} took the {card} but won no tricks").format(
                        name=players[value.taker], card=_card_label(field)),
                        f"{field}.taker", value.taker))
        queen_of_diamonds = deal.queen("D") if deal.queens is not None else None
        if queen_of_diamonds is not None and deal.diamonds is not None:
            taker = queen_of_diamonds.taker
            if deal.diamonds[taker] == 0:
                found.append(error(_("{name} took the {card} but no diamonds; the {card} is a "
                                     "diamond").format(name=players[taker], card=_queen_label("D")),
                                   f"{QUEENS}.D.taker", taker))
        if tricks is None or len(deal.contracts) == 1:
            return found
        for seat in range(SEATS):
            penalty = 0
            if deal.king is not None and deal.king.taker == seat:
                penalty += 1
            if deal.queens is not None:
                penalty += sum(1 for q in deal.queens if q.taker == seat)
            if deal.diamonds is not None:
                penalty += deal.diamonds[seat]
                if queen_of_diamonds is not None and queen_of_diamonds.taker == seat:
                    penalty -= 1  # the Q♦ is one card, counted as a queen and a diamond
            room = CARDS_PER_TRICK * tricks[seat]
            if room == 0 and any(problem.seat == seat for problem in found):
                continue  # "took the K♥ but won no tricks" says it already
            if penalty > room:
                message = (_("{name} took {cards} penalty cards (the {queen} counted once), more "
                             "than 1 trick holds ({room} cards)") if tricks[seat] == 1 else
                           _("{name} took {cards} penalty cards (the {queen} counted once), more "
                             "than {tricks} tricks hold ({room} cards)"))
                found.append(error(message.format(name=players[seat], cards=penalty, queen=_queen_label("D"),
                                                  tricks=tricks[seat], room=room), TRICKS, seat))
        return found

    # ---- points

    def score_deal(self, deal: TrixDeal, players: Sequence[str],
                   options: TrixOptions) -> tuple[ScoreLine, ...]:
        """One :class:`ScoreLine` per seat for ``deal`` (assumed checked), its steps told
        only when read (:class:`TrixWhy`).

        Points per SCORING.md §2.1 (values swapped per §2.5), doubling per §2.2, and in
        reversed scoring the exact negation of every line (§2.5).  A deal of several
        contracts (Trix Complex) prefixes each step with its contract.
        """
        why = TrixWhy(deal, shown_names(players), options)
        return tuple(ScoreLine(seat=seat, points=points, why=why)
                     for seat, points in enumerate(_points(deal, options)))

    @staticmethod
    def _tell(deal: TrixDeal, players: Sequence[str],
              options: TrixOptions) -> list[tuple[tuple[str, ...], str, int]]:
        """Every seat's steps in a checked ``deal`` (translated now), their source and
        the points they arrive at (those of :func:`_points`; a test holds the two
        together), one triple per seat.  Each call tells the whole deal."""
        steps: list[list[_Step]] = [[] for _seat in range(SEATS)]
        combined = len(deal.contracts) > 1
        for contract in deal.contracts:
            part: list[list[_Step]] = [[] for _seat in range(SEATS)]
            if contract == KING:
                _score_king(deal, players, part, options.taken_back)
            elif contract == QUEENS:
                _score_queens(deal, players, part, options.taken_back)
            elif contract == TRIX_CONTRACT:
                _score_trix(deal, part)
            else:
                _score_counts(contract, getattr(deal, contract), options, part)
            for seat in range(SEATS):
                for text, points, key in part[seat]:
                    if combined:
                        text = _("{contract}: {step}").format(
                            contract=contract_name(contract), step=text)
                    steps[seat].append((text, points, key))
        reading = _reading(deal, players, options)
        lines = []
        for seat in range(SEATS):
            points = sum(p for _text, p, _key in steps[seat])
            texts = [text for text, _p, _key in steps[seat]]
            keys = [key for _text, _p, key in steps[seat]]
            if len(texts) > 1:
                texts.append(_("in all: {points}").format(points=signed(points)))
            if combined:
                keys.append("complex")
            if options.reversed:
                texts.append(_("Reversed scoring: sign flipped: {before} → {after}").format(
                    before=signed(points), after=signed(-points)))
                points = -points
                keys.append("reversed")
            if seat in reading and "doubling" not in keys:  # (the reading itself: TrixWhy.notes)
                keys.insert(0, "doubling")
            lines.append((tuple(texts), _source(keys), points))
        return lines

    # ---- the game

    def score(self, players: Sequence[str], first_dealer: int, options: TrixOptions,
              deals: Sequence[Any], names_at: Callable[[int], Sequence[str]] | None = None) -> GameScore:
        """Score a Trix game: 4 kingdoms, each ending when its owner has chosen all five
        contracts (fewer deals in Trix Complex).

        ``players``: 4 names in playing order; ``first_dealer``: the first kingdom's owner
        (dealt the 7♥ in the first deal); ``options``: :class:`TrixOptions` (or its dict);
        ``deals``: :class:`TrixDeal` (or game-file dicts), in the order played.  The first
        deal's dealer is None (anyone deals it); every other deal is dealt by its kingdom's
        owner, and each next owner is the previous owner's right-hand neighbour,
        ``(owner + 1) % 4``.  Raises FormatError on bad players or first_dealer, DealError
        (deal, seat, field, the player's name in the message) on the first deal that
        breaks SCORING.md §2.3.  ``names_at(number)``: who sat at each seat in deal
        ``number`` when someone took over a seat (issue 18, part 3), for that deal's
        messages and steps; the points stay with the seat.  Source: SCORING.md §2;
        rules/trix.de.txt, Vorbereitung und Königreiche, Spielende.
        """
        if isinstance(players, str) or len(players) != SEATS:
            raise FormatError(_("Trix needs exactly {seats} players").format(seats=SEATS), field="players")
        names = shown_names(players)
        if (isinstance(first_dealer, bool) or not isinstance(first_dealer, int)
                or not 0 <= first_dealer < SEATS):
            raise FormatError(_("first_dealer must be a seat from 0 to 3, not {value!r}")
                              .format(value=first_dealer), field="first_dealer")
        if not isinstance(options, TrixOptions):
            options = self.parse_options(options)

        totals = [0] * SEATS
        scored: list[DealScore] = []
        kingdoms: list[KingdomCheck] = []
        done = 0  # kingdoms completed
        played: list[str] = []
        kingdom_deals: list[int] = []
        for index, raw in enumerate(deals):
            number = index + 1
            sitting = names_at(number) if names_at else players
            names = shown_names(sitting)
            deal = raw if isinstance(raw, TrixDeal) else self.parse_deal(raw, number, sitting)
            if done >= KINGDOMS:
                raise GameOverError(_("the game is over: all four kingdoms have been played"),
                                deal=number)
            owner = (first_dealer + done) % SEATS
            self._check_combination(deal, number, options)
            self._check_kingdom(deal, number, names, owner, played, options)
            self.check_deal(deal, number, names, options)
            lines = self.score_deal(deal, names, options)
            points = tuple(line.points for line in lines)
            totals = [t + p for t, p in zip(totals, points, strict=True)]
            played.extend(deal.contracts)
            kingdom_deals.append(number)
            scored.append(DealScore(
                number=number, dealer=None if number == 1 else owner, points=points,
                totals=tuple(totals), lines=lines, kingdom=done + 1, owner=owner,
                contracts=deal.contracts))
            check = KingdomCheck(number=done + 1, owner=owner, deals=tuple(kingdom_deals),
                                 played=tuple(played), complete=len(played) == len(CONTRACTS),
                                 total=sum(totals))
            if kingdoms and kingdoms[-1].number == check.number:
                kingdoms[-1] = check
            else:
                kingdoms.append(check)
            if check.complete:
                done += 1
                played, kingdom_deals = [], []

        finished = done >= KINGDOMS
        next_owner = None if finished else (first_dealer + done) % SEATS
        order = options.order if options.order is not None else CONTRACTS
        return GameScore(
            deals=tuple(scored),
            totals=tuple(totals),
            finished=finished,
            winners=winners_of(totals, options) if finished else (),
            next_dealer=None if finished or not scored else next_owner,
            kingdoms=tuple(kingdoms),
            team_totals=self._team_totals(totals) if options.partnership is not None else None,
            owner=next_owner,
            remaining=() if finished else tuple(c for c in order if c not in played),
            extra={"kingdom": None if finished else done + 1},
        )

    def places(self, score: GameScore, options: TrixOptions) -> tuple[int, ...]:
        """Finishing places as the game stands. Alone: by totals, highest first (lowest
        when reversed), level players sharing the better place. Partners: both partners of
        the side :func:`winners_of` finds ahead are first, the other side second (all four
        first when it finds both level). Source: SCORING.md §2 (opening), §2.5."""
        if options.partnership is None:
            return places_by_totals(score.totals, options.reversed)
        ahead = winners_of(score.totals, options)
        return tuple(1 if seat in ahead else 2 for seat in range(SEATS))

    def sides(self, options: TrixOptions) -> tuple[tuple[int, ...], ...]:
        """Each player alone, or the partners (seats 0+2 and 1+3: SCORING.md §2.5)."""
        if options.partnership is None:
            return tuple((seat,) for seat in range(SEATS))
        return TEAMS

    def low_wins(self, options: TrixOptions) -> bool:
        """Whether reversed scoring makes the lowest total best (SCORING.md §2.5)."""
        return options.reversed

    @staticmethod
    def _team_totals(totals: Sequence[int]) -> tuple[int, int]:
        """Partners' totals: (seats 0+2, seats 1+3) (SCORING.md §2.5)."""
        first, second = (sum(totals[seat] for seat in team) for team in TEAMS)
        return first, second

    @staticmethod
    def _check_kingdom(deal: TrixDeal, number: int, players: Sequence[str], owner: int,
                       played: Sequence[str], options: TrixOptions) -> None:
        """A contract once per kingdom; in a fixed order, the next contract(s) of the order
        (a Complex deal takes the next ones, listed in any order).  Source: SCORING.md §2,
        §2.3, §2.5."""
        for contract in deal.contracts:
            if contract in played:
                raise DealError(_("{contract} has already been played in {owner}'s kingdom")
                                .format(contract=contract_name(contract), owner=players[owner]),
                                deal=number, seat=owner, field="contracts")
        if options.order is not None:
            upcoming = [c for c in options.order if c not in played]
            expected = upcoming[:len(deal.contracts)]
            if set(expected) != set(deal.contracts):
                raise DealError(
                    _("in the fixed order {owner}'s kingdom plays {expected} next, not "
                      "{chosen}").format(
                        owner=players[owner],
                        expected=_join([contract_name(c) for c in expected]),
                        chosen=_join([contract_name(c) for c in deal.contracts])),
                    deal=number, seat=owner, field="contracts")


@dataclass(frozen=True)
class TrixWhy:
    """What the lines of a scored Trix deal are told from, when they are read (a
    common.Explainer): the checked ``deal``, the players' ``names`` by seat and the
    game's ``options``."""

    deal: TrixDeal
    names: tuple[str, ...]
    options: TrixOptions

    def steps(self, seat: int) -> tuple[str, ...]:
        """``seat``'s steps, e.g. ("took the Q♠, doubled by Ben: −50", "took 1 queen
        (Q♣): −25", "in all: −75"), translated now."""
        return self.tell(seat)[0]

    def source(self, seat: int) -> str:
        """The rules ``seat``'s steps follow, e.g. "SCORING.md §2.1, §2.2;
        rules/trix.de.txt, Herz-König und Damen verdoppeln"."""
        return self.tell(seat)[1]

    def notes(self, seat: int) -> tuple[str, ...]:
        """The game's house reading of a doubled card its doubler took back, and what the
        other reading would give, for a seat it concerns (the doubler, who led to that
        trick); () otherwise.  Source: SCORING.md §2.2, "House reading of a card taken
        back"."""
        reading = _reading(self.deal, self.names, self.options)
        return (reading[seat],) if seat in reading else ()

    def tell(self, seat: int) -> tuple[tuple[str, ...], str, int]:
        """``seat``'s steps (translated now), their source and the points they arrive at
        (the line's)."""
        return TrixRules._tell(self.deal, self.names, self.options)[seat]


#: The Trix rules object (rules/__init__.py expects ``trix.TRIX``).
TRIX = TrixRules()


@dataclass(frozen=True)
class ContractHints:
    """What each contract gives under a game's settings, for the deal form's hints: points
    as the rules score them (SCORING.md §2.1, §2.2; swapped values and reversed scoring per
    §2.5). ``king``: to whoever takes the K♥; ``king_doubled``: (to the taker, to the
    doubler) when one player doubled it and another took it; ``king_taken_back``: (to the
    doubler, to the trick's leader) when the doubler won it back and another player led to
    that trick, as the game's ``taken_back`` reads it (SCORING.md §2.2); ``taken_back``
    that reading ("leader" or "plain"); ``queen``/``queen_doubled``/``queen_taken_back``
    the same for one queen; ``diamond``: a diamond; ``trick``: a trick; ``trix``: by
    finishing place, first out first."""

    king: int
    king_doubled: tuple[int, int]
    queen: int
    queen_doubled: tuple[int, int]
    diamond: int
    trick: int
    trix: tuple[int, ...]
    king_taken_back: tuple[int, int] = (-2 * KING_PENALTY, KING_PENALTY)
    queen_taken_back: tuple[int, int] = (-2 * QUEEN_PENALTY, QUEEN_PENALTY)
    taken_back: str = "leader"


def hints(options: TrixOptions) -> ContractHints:
    """The :class:`ContractHints` of ``options``, worked out by scoring one example deal
    of each contract with these rules, so a form's hint can never say other numbers than
    the sheet will."""
    names = [f"P{seat}" for seat in range(SEATS)]

    def points(**block: Any) -> tuple[int, ...]:
        (contract,) = block
        deal = TrixDeal(contracts=(contract,), **block)
        return tuple(line.points for line in TRIX.score_deal(deal, names, options))

    king = points(king=CardTaken(0))[0]
    doubled = points(king=CardTaken(0, doubled_by=1))
    undoubled = CardTaken(1)
    queen = points(queens=(CardTaken(0), undoubled, undoubled, undoubled))[0]
    queen_doubled = points(queens=(CardTaken(0, doubled_by=2), undoubled, undoubled, undoubled))
    king_back = points(king=CardTaken(0, doubled_by=0, leader=1))
    queen_back = points(queens=(CardTaken(0, doubled_by=0, leader=2), undoubled, undoubled, undoubled))
    return ContractHints(
        king=king, king_doubled=(doubled[0], doubled[1]),
        queen=queen, queen_doubled=(queen_doubled[0], queen_doubled[2]),
        king_taken_back=(king_back[0], king_back[1]), queen_taken_back=(queen_back[0], queen_back[2]),
        taken_back=options.taken_back,
        diamond=points(diamonds=(1, 12, 0, 0))[0], trick=points(tricks=(1, 12, 0, 0))[0],
        trix=points(trix=tuple(range(SEATS))))

__all__ = [
    "CARDS",
    "CONTRACTS",
    "CONTRACT_NAMES",
    "PARTNERSHIPS",
    "PENALTY_CONTRACTS",
    "TAKEN_BACK",
    "TRIX",
    "CardTaken",
    "ContractHints",
    "TeamStanding",
    "TrixDeal",
    "TrixOptions",
    "TrixRules",
    "TrixWhy",
    "card_label",
    "card_name",
    "contract_name",
    "contract_total",
    "hints",
    "reading_words",
    "taken_back_cards",
    "team_standings",
    "winners_of",
]
