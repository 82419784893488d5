"""The scoring rules stated for players: what an explanation shows as "the rule".

A score's source string cites the section of the project's SCORING.md its rule is written
down in ("SCORING.md §2.2"), and the original rule texts beside it.  SCORING.md is the
developers' notes, in English; players are shown instead the section's *statement* here:
short, plain, in the words the game's players use, translated into every language the
app speaks (through ``_()``, so the catalogues carry them).  No file names, code names or
section numbers.  rules/sources.py (:func:`~scorekeeper.rules.sources.in_language`) puts
a statement in place of every SCORING.md passage a reader would have been quoted.

:func:`statement` is pure: a section as a source string cites it ("§2.2", "§2.5 Swapped
values") in, the statement in the current translator's language out.  A game added later
states its own sections here: a key per section (or item) its source strings cite, and a
test (tests/test_rule_statements.py) fails for a cited section without one.

Source: ../shared/SCORING.md, section by section (the numbers are the rules' own).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .common import _, number, signed
from .trix import card_label


class NoStatement(LookupError):
    """No statement for a section: the key is not in :data:`SECTIONS`."""


@dataclass(frozen=True)
class Statement:
    """A rule stated for players: ``name`` its heading ("Doubling"); ``paragraphs`` the
    text, each a str (a paragraph) or a tuple of str (a bulleted list), translated."""

    name: str
    paragraphs: tuple[str | tuple[str, ...], ...]


def _trigami_points() -> Statement:
    return Statement(_("Points"), (
        _("If one player wins every trick, they score {all}, or {special} after a Turnip or "
          "Doublets bid; the other two score {zero}, whatever they bid.")
        .format(all=number(100), special=number(200), zero=number(0)),
        _("Doublets: with no bugs, {each} a trick, or {none} with no tricks at all; with any "
          "bug, {zero}.").format(each=number(40), none=number(100), zero=number(0)),
        _("A plain bid: no tricks scores {none}; tricks without bugs score {clean} each; "
          "otherwise {ten} a trick, divided by the bugs, the fraction dropped.")
        .format(none=number(50), clean=number(20), ten=number(10)),
        _("Turnip: the plain bid's score, doubled. Divide first, then double."),
    ))


def _trigami_checks() -> Statement:
    return Statement(_("Consistency checks on a deal"), (
        _("Every card ends up in somebody's tricks; the turnip goes with the last trick. So the "
          "tricks add up to {tricks}, a player without tricks has no bugs, and nobody has more "
          "bugs than the cards they took.").format(tricks=number(13)),
        _("Each suit has {cards} cards, so the bugs of one suit add up to at most {cards}, and "
          "a player who wins every trick has all {cards} of their bug suit.").format(cards=number(10)),
        _("In plain Bugami: {tricks} tricks and {cards} cards a suit, and the card left over "
          "takes the turnip's place.").format(tricks=number(17), cards=number(13)),
        _("A Turnip bid needs the turnip card's suit, and no deal comes after the game is over."),
    ))


def _trigami_game() -> Statement:
    return Statement(_("The game"), (
        _("Points add up deal by deal. The first to reach the target ({target} unless the "
          "game chose another) wins; if more than one reach it in the same deal, the higher "
          "total wins. On a tie at the top the game goes on until one player alone is ahead.")
        .format(target=number(500)),
        _("The deal passes to the left, and the player on the dealer's left leads to the "
          "first trick."),
    ))


def _plain_bugami() -> Statement:
    return Statement(_("Plain Bugami for three"), (
        _("All {cards} cards are dealt, {each} each; the one card left over joins the last "
          "trick. There are no Turnip or Doublets bids: every bid scores as a plain bid. A "
          "player who wins all {tricks} tricks scores {all}.")
        .format(cards=number(52), each=number(17), tricks=number(17), all=number(100)),
    ))


def _kingdoms() -> Statement:
    return Statement(_("Kingdoms and the winner"), (
        _("Whoever is dealt the 7♥ in the first deal owns the first kingdom. A kingdom is "
          "five deals: its owner deals them all and chooses each of the five contracts once, "
          "in any order."),
        _("The next kingdom belongs to the player on the owner's right. Four kingdoms make "
          "the game; the highest total wins, and equal totals share the win."),
    ))


def _contracts() -> Statement:
    king = card_label("K", "H")
    return Statement(_("Contracts and points"), (
        (
            _("King of Hearts: {points} for whoever takes the {card}.").format(points=signed(-75), card=king),
            _("Queens: {points} for each queen taken.").format(points=signed(-25)),
            _("Diamonds: {points} for each diamond taken.").format(points=signed(-10)),
            _("Tricks: {points} for each trick taken.").format(points=signed(-15)),
            _("Trix: {first}, {second}, {third} and {fourth} for finishing first to fourth.")
            .format(first=signed(200), second=signed(150), third=signed(100), fourth=signed(50)),
        ),
        _("The five contracts add up to {zero}, so after every kingdom the four totals add up "
          "to {zero}.").format(zero=number(0)),
    ))


def _doubling() -> Statement:
    king = card_label("K", "H")
    return Statement(_("Doubling"), (
        _("Whoever holds the {card} may double it before the first lead; in Queens, each "
          "player may double the queens they hold. A doubled card costs twice its penalty, "
          "and half of that goes to the doubler.").format(card=king),
        (
            _("Another player takes the doubled {card}: the taker {taker}, the doubler {doubler}.")
            .format(card=king, taker=signed(-150), doubler=signed(75)),
            _("The doubler wins their own doubled {card} back: the doubler {doubler}, and "
              "whoever led to that trick {leader}. If the doubler led the {card} themselves, "
              "the doubler scores only {alone}.")
            .format(card=king, doubler=signed(-150), leader=signed(75), alone=signed(-75)),
            _("A doubled queen works the same way with half the points: the taker {taker}, the "
              "doubler {doubler}; won back, the doubler {back} and whoever led to that trick "
              "{leader}, or only {alone} if the doubler led it.")
            .format(taker=signed(-50), doubler=signed(25), back=signed(-50), leader=signed(25),
                    alone=signed(-25)),
        ),
    ))


def _taken_back() -> Statement:
    king = card_label("K", "H")
    return Statement(_("A doubled card won back"), (
        _("Tables read the doubler winning back their own doubled card in one of two ways; "
          "both keep the contract's total."),
        (
            _("The trick's leader gains: the doubler pays double, and whoever led to that trick "
              "gains half (if the doubler led it, only the plain penalty)."),
            _("Plain penalty: the doubler pays only the plain penalty ({king} for the {card}, "
              "{queen} for a queen), and nobody gains.")
            .format(king=signed(-75), card=king, queen=signed(-25)),
        ),
    ))


def _trix_checks() -> Statement:
    king = card_label("K", "H")
    return Statement(_("Consistency checks"), (
        _("Tricks and diamonds each add up to {n}; each queen and the {card} has one taker; "
          "the Trix finishing order names each player once.").format(n=number(13), card=king),
        _("Each contract is played once in a kingdom, and nothing comes after the fourth kingdom."),
        _("Only the player who held a card can double it. Who led to the trick is entered only "
          "when the doubler took their own card back."),
        _("In Trix Complex the contracts of one deal must fit together: whoever took the {card} "
          "or a queen won a trick, and a player's penalty cards fit in their tricks.")
        .format(card=king),
    ))


def _bad_hand() -> Statement:
    return Statement(_("Bad hand"), (
        _("When Trix is chosen, a player dealt all four 2s, or three 2s and the 3 of the "
          "fourth suit, may have the deal cancelled. The owner chooses again; nothing is "
          "scored, so the deal is not entered."),
    ))


def _variants() -> Statement:
    return Statement(_("Variants"), (
        _("Each variant is chosen when the game starts: no doubling, swapped values, a fixed "
          "order, reversed scoring, partners, Trix Complex."),
    ))


def _no_doubling() -> Statement:
    return Statement(_("No doubling"), (
        _("Nobody doubles the {card} or the queens: each card costs its plain penalty.")
        .format(card=card_label("K", "H")),
    ))


def _swapped() -> Statement:
    return Statement(_("Swapped values"), (
        _("Diamonds cost {diamond} each ({diamonds} in all) and tricks {trick} each ({tricks} "
          "in all).").format(diamond=signed(-15), diamonds=signed(-195), trick=signed(-10),
                            tricks=signed(-130)),
    ))


def _fixed_order() -> Statement:
    return Statement(_("Fixed order"), (
        _("The contracts are played in the same set order in every kingdom."),
    ))


def _reversed() -> Statement:
    return Statement(_("Reversed scoring"), (
        _("Every sign is flipped, the doubler's share included: penalties become plus points "
          "and the Trix places minus points. The lowest total wins; with partners, the lower "
          "team total wins."),
    ))


def _partners() -> Statement:
    return Statement(_("Partners"), (
        _("Partners sit opposite each other. Everyone still scores for themselves and owns a "
          "kingdom; at the end the partners' totals are added and the higher team total wins."),
        _("Some tables play instead that the team holding the single worst total loses. If "
          "both teams hold it, or the team totals are equal, all four share the result."),
    ))


def _complex() -> Statement:
    return Statement(_("Trix Complex"), (
        _("The kingdom's owner may play two or more of King of Hearts, Queens, Diamonds and "
          "Tricks in one deal, scoring them all at once; the kingdom then has fewer deals. "
          "Trix is never combined."),
    ))


#: SCORING.md's sections (and §2.5's items) as source strings cite them → their statement.
SECTIONS: dict[str, Callable[[], Statement]] = {
    "§1.2": _trigami_points,
    "§1.3": _trigami_checks,
    "§1.4": _trigami_game,
    "§1.5": _plain_bugami,
    "§2": _kingdoms,
    "§2.1": _contracts,
    "§2.2": _doubling,
    "§2.2 House reading": _taken_back,
    "§2.3": _trix_checks,
    "§2.4": _bad_hand,
    "§2.5": _variants,
    "§2.5 No doubling": _no_doubling,
    "§2.5 Swapped values": _swapped,
    "§2.5 Fixed order": _fixed_order,
    "§2.5 Reversed scoring": _reversed,
    "§2.5 Partners": _partners,
    "§2.5 Trix Complex": _complex,
}


def statement(section: str, item: str | None = None) -> Statement:
    """The statement of SCORING.md ``section`` ("§2.5"), or of its list ``item`` ("Swapped
    values"), in the current translator's language; raises NoStatement."""
    key = f"{section} {item}" if item else section
    try:
        return SECTIONS[key]()
    except KeyError:
        raise NoStatement(f"no statement of SCORING.md {key}") from None


__all__ = ["SECTIONS", "NoStatement", "Statement", "statement"]
