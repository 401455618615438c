"""Random positions for the claim properties of both families: a resting hand and the public card it is offered."""

from __future__ import annotations

import random
from collections.abc import Sequence


def offered(rng: random.Random, deck: Sequence[int], size: int, copies: int) -> tuple[int, list[int], list[int]]:
    """Shuffle `deck` and turn up its last card as the public card; the hand is `size` cards holding up to `copies`
    copies of it, the rest drawn from the other cards; the cards seen are the other cards after the first `size`,
    up to the 40th. Returns (public card, hand, cards seen)."""
    cards = list(deck)
    rng.shuffle(cards)
    public = cards.pop()
    same = [c for c in cards if c == public][:copies]
    rest = [c for c in cards if c != public]
    return public, same + rest[:size - len(same)], rest[size:40]
