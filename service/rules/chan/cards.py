"""Chắn cards (docs/rules.md#chan-cards): values 2-9 in suits Vạn `m`, Sách `s`, Văn `c`, plus Chi chi `CC`.

A card is an int: (value - 2) * 3 + suit for the 24 suited faces, 24 for Chi chi. Four copies of each: 100.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import ImpossibleCount, InvalidCard, shown
from ..text import text

SUITS = "msc"
CHI_CHI = 24
N_FACES = 25
COPIES = 4
CODES = tuple(f"{v}{s}" for v in range(2, 10) for s in SUITS) + ("CC",)
CODE_INDEX = {c: i for i, c in enumerate(CODES)}
#: docs/rules.md#chan-cards: "Red cards: 8m 9m 8s 9s CC; all others are black."
RED = frozenset(CODE_INDEX[c] for c in ("8m", "9m", "8s", "9s", "CC"))


def value_of(card: int) -> int:
    """Face value 2..9 (Chi chi: 0)."""
    return 0 if card == CHI_CHI else card // 3 + 2


def suit_of(card: int) -> int:
    """Suit index 0..2 (m, s, c); Chi chi: -1."""
    return -1 if card == CHI_CHI else card % 3


def code(card: int) -> str:
    """Canonical code of a card index."""
    return CODES[card]


def parse_card(given: object, field: str) -> int:
    """Parse one canonical, case-sensitive Chắn card code."""
    card = CODE_INDEX.get(given) if isinstance(given, str) else None
    if card is None:
        raise InvalidCard(text("{card} is not a Chắn card code (value 2-9 + suit m/s/c, or CC)",
                               card=shown(given)), field)
    return card


def tally(cards: Iterable[int]) -> list[int]:
    """Copies of each of the 25 faces."""
    counts = [0] * N_FACES
    for card in cards:
        counts[card] += 1
    return counts


def check_copies(located: list[tuple[int, str]]) -> None:
    """At most 4 copies of a face, counted over every card given; the error names the surplus copy."""
    seen = [0] * N_FACES
    for card, field in located:
        seen[card] += 1
        if seen[card] > COPIES:
            raise ImpossibleCount(text("{card} appears {seen} times; the deck has {copies} (counted over hand, "
                                       "exposed pairs and the public card)",
                                       card=code(card), seen=seen[card], copies=COPIES), field)
