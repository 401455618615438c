"""Random Chắn hands for benchmarks and tests: winning hands built from random pairs, and near misses."""

from __future__ import annotations

import random

from .cards import CHI_CHI, COPIES, N_FACES

PAIRS = 10
MIN_CHAN = 6


def winning_pairs(rng: random.Random, min_chan: int = MIN_CHAN) -> list[tuple[int, int]]:
    """Ten random pairs within the deck, at least `min_chan` Chắn, no face in two Cạ (no identical pair split).

    Chắn faces are drawn first (two Chắn of a face make a Chíu), then one Cạ per value at most.
    """
    left, ca_values = [COPIES] * N_FACES, set()
    pairs: list[tuple[int, int]] = []
    n_chan = rng.randint(min_chan, PAIRS)
    while len(pairs) < n_chan:
        face = rng.randrange(N_FACES)
        if left[face] >= 2:
            left[face] -= 2
            pairs.append((face, face))
    while len(pairs) < PAIRS:
        value = rng.randrange(8)
        a, b = sorted(value * 3 + s for s in rng.sample(range(3), 2))
        if value not in ca_values and left[a] and left[b]:
            ca_values.add(value)
            left[a] -= 1
            left[b] -= 1
            pairs.append((a, b))
    return pairs


def winning_hand(rng: random.Random) -> tuple[list[int], int]:
    """19 concealed cards and a winning card that completes them (Chi chi only when the 6 Chắn + 4 Cạ rule holds)."""
    while True:
        pairs = winning_pairs(rng)
        cards = [c for pair in pairs for c in pair]
        rng.shuffle(cards)
        chan = sum(1 for a, b in pairs if a == b)
        for i, card in enumerate(cards):
            if card != CHI_CHI or chan == MIN_CHAN:
                return cards[:i] + cards[i + 1:], card


def near_miss(rng: random.Random) -> tuple[list[int], int]:
    """A winning hand with one of its 20 cards swapped for another face still in the deck."""
    hand, win = winning_hand(rng)
    cards = hand + [win]
    left = [COPIES] * N_FACES
    for c in cards:
        left[c] -= 1
    i = rng.randrange(len(cards))
    cards[i] = rng.choice([f for f in range(N_FACES) if left[f] and f != cards[i]])
    return cards[:-1], cards[-1]
