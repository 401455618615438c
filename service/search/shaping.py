"""Deals in keeping with the play so far: the other seats' hands shaped towards a win by how long they have played.

A seat that has played part of a round holds a hand it has improved turn after turn, keeping what fits and letting
go what does not; a hand dealt uniformly from the unseen cards is as far from a win as a fresh deal. Dealt that
way, the other seats win less often in the playouts than at the table, and the search promised far more than
seats realise (docs/advice.md#deep-search-post-v1searches).

A shaped deal starts as the uniform one (`deal.sample_deal`: the unseen cards shuffled, the other seats' hands in
seat order) and then improves each other seat's hand by `steps` random swaps with the cards left over (the stock and
the cards out of play): a swap is kept when the hand's structural distance to a win (the fewest cards to replace so
that one more card wins, the family's `distance`) does not grow, and undone otherwise. `steps` is the rule-set's
`shaping_swaps` (swaps per turn) times the turns played so far (`turns_played`: the public cards met, discards and
turned-up cards seen plus one claimed card per exposed meld, per seat). Each kept swap is one more card drawn and
one let go, as in play, but a random one: it takes a few swaps to match one turn of a player who sees every public
card. The leftover cards are then shuffled again into the stock. Every draw comes from the deal's own random source,
so deal i of a search is the same deal for every candidate and every run.

`shaping_swaps` is three times the rate that matches the other seats' distances to those of their true hands at
the same points of advice rounds (`bench/shaping.py`, seed 6001): at that rate, the playouts of the advice's
discard promise what the seats realise at the table (`bench/calibration.py --truth --steps`, seed 6004; neither
is a judging seed). Twice the distance-matched rate plays out like the true hands; the rest stands for the
playouts' other seats, a little kinder than the advice. Shaped hands are therefore about half a card nearer a win
than true ones, where uniform hands are up to 1.5 further (late in the round). docs/advice.md#shaped-deals.

Cost: one structural distance per swap (bga-taiwan about 0.1 ms, Chắn 0.03 ms), some 1 to 3 ms a deal in
mid-round and up to 4.5 ms late in a bga-taiwan round, shared by every candidate of the deal.
`dealing="uniform"` keeps the uniform deal (`deal.sample_deal`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .deal import Deal, dealt_hands, sample_deal
from .position import Position

DEALINGS = ("shaped", "uniform")

#: A seat's structural distance to a win holding these concealed cards (with its exposed melds).
Distance = Callable[[int, Sequence[int]], int]


def turns_played(position: Position) -> float:
    """Turns each seat has had, counted in public cards met: every card seen outside a meld, plus the claimed card
    of every exposed meld, over the seats."""
    claimed = len(position.exposed) + sum(len(melds) for melds in position.opponents)
    return (len(position.visible) + claimed) / position.seats


def steps_for(position: Position, per_turn: float | None = None) -> int:
    """Swaps tried per other seat for this position: `per_turn` (default: the rule-set's `shaping_swaps`, swaps
    per turn, bench/shaping.py tunes it) times the turns played."""
    rate = position.ruleset.shaping_swaps if per_turn is None else per_turn
    return round(rate * turns_played(position))


def shaped_deal(position: Position, rng: random.Random, distance: Distance, per_turn: float | None = None) -> Deal:
    """The uniform deal, then each other seat's hand improved by `steps_for(position, per_turn)` swaps with the
    leftover cards (kept when `distance` does not grow), the leftover shuffled into the stock (module
    docstring)."""
    steps = steps_for(position, per_turn)
    if steps == 0:
        return sample_deal(position, rng)
    dealt, left = dealt_hands(position, rng)
    hands = [list(hand) for hand in dealt]
    rest = sorted(left)  # the swaps draw from the leftover in card order, then it is shuffled into the stock
    if rest:
        for seat, hand in enumerate(hands):
            if not hand:
                continue  # the player's own seat, or a seat with every card in exposed melds
            now = distance(seat, hand)
            for _ in range(steps):
                i, j = rng.randrange(len(hand)), rng.randrange(len(rest))
                hand[i], rest[j] = rest[j], hand[i]
                after = distance(seat, hand)
                if after <= now:
                    now = after
                else:
                    hand[i], rest[j] = rest[j], hand[i]
    rng.shuffle(rest)
    return Deal(tuple(tuple(hand) for hand in hands), tuple(rest[:position.stock_size]))
