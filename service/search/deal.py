"""One sampled deal of the cards the player has not seen, and what a playout returns.

Deal i of a search with seed s shuffles the unseen cards with `random.Random(f"{s}:{i}")` (string seeds hash
with SHA-512: the same deal in every Python run), fills the other seats' concealed hands in seat order, then
the stock in draw order; what is left is out of play. Every candidate discard is played on the same deal.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from .position import Position


class Deal(NamedTuple):
    """The other seats' concealed cards (the player's own seat: empty) and the stock in draw order.

    `histories` and `dealt` are optional knowledge of the other seats (Chắn capture rules 3-6, and the facts of
    the initial deal some bonuses need); a sampled deal has neither: every seat starts a clean history and the
    cards it holds now stand for its initial deal."""

    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    histories: tuple | None = None
    dealt: tuple[tuple[int, ...], ...] | None = None


class Outcome(NamedTuple):
    """The end of one playout for the player: whether he won, his settlement delta, the points of his win."""

    won: bool
    delta: int
    points: int = 0


def deal_rng(seed: int, index: int) -> random.Random:
    """The random source of deal `index` of a search seeded `seed` (stable across runs)."""
    return random.Random(f"{seed}:{index}")


def sample_deal(position: Position, rng: random.Random) -> Deal:
    """Shuffle the unseen cards into the other seats' hands and the stock."""
    hands, left = dealt_hands(position, rng)
    return Deal(hands, tuple(left[:position.stock_size]))


def dealt_hands(position: Position, rng: random.Random) -> tuple[tuple[tuple[int, ...], ...], list[int]]:
    """The unseen cards shuffled and the other seats' hands cut from them in seat order (the player's own seat:
    empty); the cards left over in shuffled order, the stock first."""
    cards = list(position.unseen)
    rng.shuffle(cards)
    hands: list[tuple[int, ...]] = []
    at = 0
    for seat, size in enumerate(position.concealed_sizes):
        if seat == position.seat:
            hands.append(())
            continue
        hands.append(tuple(cards[at:at + size]))
        at += size
    return tuple(hands), cards[at:]

