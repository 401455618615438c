"""Four Color Cards card codes (docs/rules.md#fc-cards): colour + character, and flowers F1..F5.

A card is an int: colour * 7 + character for the 28 chess cards, 28..32 for flowers F1..F5.
A hand is tallied into `Tally`: 28 copy counts and a flower bitmask.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..codes import fast_parser
from ..errors import ImpossibleCount, InvalidCard, shown
from ..text import text

COLOURS = "rygw"
CHARACTERS = "GAECHPS"
GENERAL, ADVISOR, ELEPHANT, CHARIOT, HORSE, CANNON, SOLDIER = range(7)
N_KINDS = 28
FLOWER_BASE = 28
N_FLOWERS = 5
COPIES = 4

CHESS_CODES = tuple(c + k for c in COLOURS for k in CHARACTERS)
FLOWER_CODES = tuple(f"F{i}" for i in range(1, N_FLOWERS + 1))
ALL_CODES = CHESS_CODES + FLOWER_CODES
CODE_INDEX = {code: i for i, code in enumerate(ALL_CODES)}


def colour_of(card: int) -> int:
    """Colour index 0..3 (r, y, g, w) of a chess card."""
    return card // 7


def character_of(card: int) -> int:
    """Character index 0..6 (G, A, E, C, H, P, S) of a chess card."""
    return card % 7


def is_flower(card: int) -> bool:
    """True for F1..F5."""
    return card >= FLOWER_BASE


def code(card: int) -> str:
    """Canonical code of a card index."""
    return ALL_CODES[card]


def parse_card(given: object, field: str, flowers: bool) -> int:
    """Parse one canonical, case-sensitive card code; flowers only in the flowers variant."""
    index = CODE_INDEX.get(given) if isinstance(given, str) else None
    if index is None:
        raise InvalidCard(text("{card} is not a card code (colour r/y/g/w + character G/A/E/C/H/P/S)",
                               card=shown(given)), field)
    if is_flower(index) and not flowers:
        raise InvalidCard(text("{card}: flower cards exist only in cardavia-flowers", card=shown(given)), field)
    return index


def card_parser(flowers: bool) -> Callable[..., int]:
    """A fast parser of card codes (flowers only in the flowers variant): `parse(text, *field_parts)`."""
    index = CODE_INDEX if flowers else {k: v for k, v in CODE_INDEX.items() if v < FLOWER_BASE}
    return fast_parser(index, lambda text, field: parse_card(text, field, flowers))


def discardable(cards: Iterable[int]) -> list[int]:
    """The cards that may be discarded, sorted, once each: never a General or a flower
    (docs/rules.md#fc-generals-discard)."""
    return sorted({c for c in cards if not is_flower(c) and character_of(c) != GENERAL})


def deck(flowers: bool) -> list[int]:
    """Every card of the deck, sorted: 4 copies of the 28 chess cards, and one of each flower in `flowers`."""
    chess = [c for c in range(N_KINDS) for _ in range(COPIES)]
    return chess + (list(range(FLOWER_BASE, FLOWER_BASE + N_FLOWERS)) if flowers else [])


@dataclass
class Tally:
    """Copy counts of the 28 chess cards plus a bitmask of flowers held."""

    counts: list[int]
    flowers: int = 0

    @classmethod
    def empty(cls) -> Tally:
        """A tally with no cards."""
        return cls([0] * N_KINDS, 0)

    @classmethod
    def of(cls, cards: Iterable[int]) -> Tally:
        """Tally a sequence of card indices (no count checks)."""
        counts, flowers = [0] * N_KINDS, 0
        for card in cards:
            if card < FLOWER_BASE:
                counts[card] += 1
            else:
                flowers |= 1 << (card - FLOWER_BASE)
        return cls(counts, flowers)

    def copy(self) -> Tally:
        """An independent copy."""
        return Tally(self.counts[:], self.flowers)

    def add(self, card: int) -> None:
        """Add one card."""
        if card >= FLOWER_BASE:
            self.flowers |= 1 << (card - FLOWER_BASE)
        else:
            self.counts[card] += 1

    def remove(self, card: int) -> None:
        """Remove one card (the caller knows it is there)."""
        if card >= FLOWER_BASE:
            self.flowers &= ~(1 << (card - FLOWER_BASE))
        else:
            self.counts[card] -= 1

    def count(self, card: int) -> int:
        """Copies of `card` held."""
        if card >= FLOWER_BASE:
            return (self.flowers >> (card - FLOWER_BASE)) & 1
        return self.counts[card]

    def cards(self) -> list[int]:
        """The cards in canonical order."""
        out = [card for card in range(N_KINDS) for _ in range(self.counts[card])]
        out += [FLOWER_BASE + i for i in range(N_FLOWERS) if self.flowers >> i & 1]
        return out

    def size(self) -> int:
        """Number of cards."""
        return sum(self.counts) + bin(self.flowers).count("1")


LIMITS = (COPIES,) * N_KINDS + (1,) * N_FLOWERS


def overfull(cards: Iterable[int]) -> bool:
    """True when some card appears more often than the deck holds (4 copies, 1 of each flower)."""
    seen = [0] * (N_KINDS + N_FLOWERS)
    for card in cards:
        seen[card] += 1
    return max(seen[:N_KINDS]) > COPIES or max(seen[N_KINDS:]) > 1


def check_copies(located: Sequence[tuple[int, str]]) -> None:
    """Raise ImpossibleCount when a card appears more often than the deck holds (4, or 1 flower).

    `located` pairs each card with the field it came from, so the error names the first surplus copy.
    """
    seen = [0] * (N_KINDS + N_FLOWERS)
    for card, field in located:
        seen[card] += 1
        limit = LIMITS[card]
        if seen[card] > limit:
            raise ImpossibleCount(
                text("{card} appears {seen} times; the deck has {limit} (counted over hand, exposed melds and the "
                     "public card)", card=code(card), seen=seen[card], limit=limit),
                field,
            )
