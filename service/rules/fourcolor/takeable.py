"""How often a card that would move a Four Color Cards hand on can actually be had: the `reach` of a hand at rest.

A public card never enters a hand: whoever takes it exposes a meld made of it and his own cards
(docs/rules.md#fc-turn), and which melds a seat may claim depends on its role (docs/rules.md#fc-claims,
docs/rules.md#fl-claims). An improving card that makes a triple or a quad may be claimed by every seat but the
discarder; one that makes a chi-type meld only by the drawer and the next player (bga-taiwan), or a mixed meld only
by those two and no pair at all (cardavia-flowers: the drawer may not pair his new card, the others only claim
triples and quads). The distance counts replacements as if any card could come, so two improving cards of the
same count may be very unequal. `take_share` weighs an improving card by the share of the roles a public card
finds the seat in that may claim a meld with it: drawer 1/4 (he turns up one stock card in four), next 1/4,
other 1/2.

A waiting hand wins on any public card (hu has no role limit), but a General or a flower is never discarded
(docs/rules.md#fc-generals-discard), so a wait on one comes only from the stock: a bga-taiwan round of advice
play turns up 10.8 stock cards and makes 14.8 discards (100 rounds, seed 6100), so a wait that any public card may
bring sees about (10.8 + 14.8) / 10.8 = 2.4 times the public cards of a stock-only one (`ANY_ROUTE_WEIGHT`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import SOLDIER, Tally
from .claims import bga_class, flowers_class
from .evaluate import melds_with
from .melds import MeldRules

#: The roles a public card may find a seat in, with the share of public cards each takes.
ROLE_SHARES = (("drawer", 0.25), ("next", 0.25), ("other", 0.5))
#: A wait any public card may bring, against a wait only a stock card may bring (the module docstring).
ANY_ROUTE_WEIGHT = 2.4

_SHARES: dict[tuple[object, ...], float] = {}


def take_share(rest: Tally, card: int, rules: MeldRules, flowers: bool) -> float:
    """The share of public cards `card` could be claimed on into a meld with the cards of `rest` (the hand at
    rest): the roles (`ROLE_SHARES`) in which some meld it makes with them is a legal claim."""
    colour = card // 7 if card < 28 else -1
    key = (card, rules, flowers,
           tuple(rest.counts[colour * 7:colour * 7 + 7]) if colour >= 0 else rest.flowers,
           tuple(rest.counts[c * 7 + SOLDIER] for c in range(4)) if card % 7 == SOLDIER and card < 28 else ())
    share = _SHARES.get(key)
    if share is None:
        grown = rest.copy()
        grown.add(card)
        kinds = {m.kind for m in melds_with(grown, card, rules)}
        class_of: Callable[[str, str], str | None] = flowers_class if flowers else bga_class
        share = sum(part for role, part in ROLE_SHARES if any(class_of(kind, role) is not None for kind in kinds))
        if len(_SHARES) > 100_000:
            _SHARES.clear()
        _SHARES[key] = share
    return share


def improving_reach(rest: Tally, improving: Sequence[tuple[int, int]], rules: MeldRules, flowers: bool) -> float:
    """Unseen improving cards of a hand at rest, each copy weighted by `take_share`."""
    return sum(n * take_share(rest, card, rules, flowers) for card, n in improving if n)
