"""Legal claims on a public card (docs/rules.md#fc-claims and docs/rules.md#fl-claims)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import GENERAL, character_of, is_flower
from .evaluate import melds_with
from .hand import FourColorHand
from .hu import evaluate_hu
from .melds import MIXED_KINDS, Meld, MeldRules

ROLES = ("drawer", "next", "other", "discarder")

#: bga-taiwan: "Priority: hu > quad/triple > chi-type".
BGA_PRIORITY = {"hu": 3, "quad_triple": 2, "chi": 1}
#: cardavia-flowers: "the drawer's win, then other players' wins; then identical triples/quads; then the
#: drawer's own meld; then the next player's mixed meld".
FLOWERS_PRIORITY = {"drawer_hu": 5, "hu": 4, "quad_triple": 3, "drawer_meld": 2, "next_mixed": 1}
OPEN_IDENTICAL = frozenset({"triple", "quad", "general_quad"})


@dataclass(frozen=True)
class Claim:
    """One legal claim: the meld (or hu) it makes with the public card, its priority class and rank."""

    kind: str
    meld: Meld | None
    priority_class: str
    priority: int
    points: int
    hu_melds: tuple[Meld, ...] | None = None


def bga_class(kind: str, role: str) -> str | None:
    """bga-taiwan: quad/triple for anyone but the discarder; chi-type only for the drawer and the next player."""
    if role == "discarder":
        return None  # docs/rules.md#fc-claims: "any player except the one who discarded it"
    if kind in OPEN_IDENTICAL:
        return "quad_triple"
    return "chi" if role in ("drawer", "next") else None


def flowers_class(kind: str, role: str) -> str | None:
    """cardavia-flowers non-winning claims: the drawer may not pair the new card; others only triples/quads;
    the next player also mixed melds (docs/rules.md#fl-claims)."""
    if role == "discarder":
        return None
    if kind in OPEN_IDENTICAL:
        return "quad_triple"
    if role == "drawer" and kind != "pair":
        return "drawer_meld"
    if role == "next" and kind in MIXED_KINDS:
        return "next_mixed"
    return None


def bga_claims(hand: FourColorHand, role: str, rules: MeldRules, options: Mapping[str, Any]) -> list[Claim]:
    """bga-taiwan: hu for anyone but the discarder, then the melds `bga_class` allows."""
    winning_meld_concealed = options["winning_meld_concealed"]
    if role == "discarder":
        return []  # nobody claims his own discard
    claims = _hu_claim(hand, rules, winning_meld_concealed, "hu", BGA_PRIORITY["hu"])
    for meld in _public_melds(hand, rules):
        cls = bga_class(meld.kind, role)
        if cls is not None:
            claims.append(_claim(meld, cls, BGA_PRIORITY, rules))
    return claims


def flowers_claims(hand: FourColorHand, role: str, rules: MeldRules, options: Mapping[str, Any]) -> list[Claim]:
    """cardavia-flowers: restrictions apply to non-winning claims only (docs/rules.md#fl-claims)."""
    if role == "discarder":
        return []
    win_class = "drawer_hu" if role == "drawer" else "hu"
    claims = _hu_claim(hand, rules, True, win_class, FLOWERS_PRIORITY[win_class])
    for meld in _public_melds(hand, rules):
        cls = flowers_class(meld.kind, role)
        if cls is not None:
            claims.append(_claim(meld, cls, FLOWERS_PRIORITY, rules))
    return claims


def must_take(hand: FourColorHand, role: str, flowers_too: bool) -> bool:
    """True when the drawer must take the card: a General (docs/rules.md#fc-must-take), or a flower when
    `flowers_too`."""
    card = hand.public_card
    if role != "drawer" or card is None:
        return False
    if is_flower(card):
        return flowers_too
    return character_of(card) == GENERAL


def _public_melds(hand: FourColorHand, rules: MeldRules) -> list[Meld]:
    """Melds made of the public card and hand cards; the public card never enters the hand."""
    assert hand.public_card is not None
    return [Meld(m.kind, m.cards, concealed=False) for m in melds_with(hand.with_public(), hand.public_card, rules)]


def _claim(meld: Meld, cls: str, table: dict[str, int], rules: MeldRules) -> Claim:
    """A non-winning claim exposing `meld` (points at exposed value)."""
    return Claim(meld.kind, meld, cls, table[cls], meld.points(rules))


def _hu_claim(hand: FourColorHand, rules: MeldRules, concealed_win: bool, cls: str, rank: int) -> list[Claim]:
    """[hu claim] when hand + public card split into melds, else []."""
    result = evaluate_hu(hand, rules, concealed_win)
    if not result.hu:
        return []
    return [Claim("hu", None, cls, rank, result.points or 0, result.melds)]
