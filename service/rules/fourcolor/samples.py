"""Random hands for property tests and benchmarks: winning hands built from random melds, and near misses."""

from __future__ import annotations

import random

from .cards import COPIES, FLOWER_BASE, N_FLOWERS, N_KINDS
from .melds import MeldRules, classify

_SHAPES = (
    [(c,) for c in range(N_KINDS)]
    + [(c,) * n for c in range(N_KINDS) for n in (2, 3, 4)]
    + [tuple(col * 7 + k for k in g) for col in range(4) for g in ((0, 1, 2), (3, 4, 5))]
    + [tuple(c * 7 + 6 for c in range(4) if c != m) for m in range(4)]
    + [tuple(c * 7 + 6 for c in range(4))]
)


def _deck(rules: MeldRules) -> list[int]:
    """Remaining copies of every card."""
    return [COPIES] * N_KINDS + ([1] * N_FLOWERS if rules.flowers else [])


def winning_hand(rng: random.Random, rules: MeldRules, size: int = 21) -> list[int]:
    """A random hand of exactly `size` cards that splits completely into melds."""
    if size == 0:
        return []  # the empty hand is all melds; the loop below only returns after adding a meld
    shapes = [s for s in _SHAPES if classify(s, rules)]
    if rules.flowers:
        shapes += [(FLOWER_BASE + i,) for i in range(N_FLOWERS)]
    while True:
        left, hand = _deck(rules), list[int]()
        for _ in range(200):
            shape = rng.choice(shapes)
            if len(hand) + len(shape) > size or any(left[c] < shape.count(c) for c in shape):
                continue
            for c in shape:
                left[c] -= 1
            hand += shape
            if len(hand) == size:
                rng.shuffle(hand)
                return hand


def near_miss(rng: random.Random, rules: MeldRules, size: int = 21) -> list[int]:
    """A winning hand with one card replaced by another card still in the deck."""
    hand = winning_hand(rng, rules, size)
    left = _deck(rules)
    for c in hand:
        left[c] -= 1
    spare = [c for c, n in enumerate(left) for _ in range(n)]
    hand[rng.randrange(size)] = rng.choice(spare)
    return hand


def random_hand(rng: random.Random, rules: MeldRules, size: int = 21) -> list[int]:
    """Uniformly random cards from a full deck."""
    deck = [c for c, n in enumerate(_deck(rules)) for _ in range(n)]
    return rng.sample(deck, size)
