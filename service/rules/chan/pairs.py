"""Pairs of Chắn and the pairing of a hand (RULES.md 2, "Pairs").

Chắn = two identical cards; Cạ = same value, different suits (never with Chi chi); Chíu = four identical
cards = two Chắn. An identical pair is never split to form a Cạ; a triple may give its third card to a Cạ.
So the pairing of concealed cards is forced: every face gives count // 2 Chắn (four identical: one Chíu), and
the odd cards left must meet an odd card of the same value in another suit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..errors import InvalidMeld
from .cards import CHI_CHI, N_FACES, code, parse_card, value_of

KINDS = ("chan", "ca", "chiu")


@dataclass(frozen=True)
class Pair:
    """A Chắn, a Cạ or a Chíu (four identical, counting as two Chắn)."""

    kind: str
    cards: tuple[int, ...]
    concealed: bool = True

    @property
    def chan(self) -> int:
        """How many Chắn this is worth."""
        return {"chan": 1, "chiu": 2}.get(self.kind, 0)

    def codes(self) -> list[str]:
        """The cards as codes."""
        return [code(c) for c in self.cards]

    def points(self, _rules: object = None) -> int:
        """Pairs carry no points of their own: Chắn scores by bonuses (RULES.md 2, "Scoring")."""
        return 0


@dataclass(frozen=True)
class Pairing:
    """The forced pairing of some cards: its pairs, and the cards no pair can take."""

    pairs: tuple[Pair, ...]
    unpaired: tuple[int, ...]


def classify(cards: Sequence[int]) -> str | None:
    """The pair kind these cards form, or None."""
    if len(cards) == 4 and len(set(cards)) == 1:
        return "chiu"
    if len(cards) != 2:
        return None
    a, b = cards
    if a == b:
        return "chan"
    if CHI_CHI not in (a, b) and value_of(a) == value_of(b):
        return "ca"  # same value, different suits; Chi chi pairs only with Chi chi [D]
    return None


def pair_up(counts: Sequence[int]) -> Pairing:
    """The forced pairing of a count vector (identical pairs first, odd cards into Cạ by value)."""
    pairs: list[Pair] = []
    odd: dict[int, list[int]] = {}
    for face in range(N_FACES):
        n = counts[face]
        if n == 4:
            pairs.append(Pair("chiu", (face,) * 4))
        elif n >= 2:
            pairs.append(Pair("chan", (face, face)))
        if n % 2:
            odd.setdefault(value_of(face), []).append(face)
    unpaired: list[int] = []
    for value, faces in sorted(odd.items()):
        if value == 0:  # Chi chi forms no Cạ
            unpaired += faces
            continue
        if len(faces) >= 2:
            pairs.append(Pair("ca", (faces[0], faces[1])))
        unpaired += faces[2:] if len(faces) >= 2 else faces
    return Pairing(tuple(pairs), tuple(unpaired))


def parse_exposed(items: Sequence[Mapping[str, object]]) -> tuple[Pair, ...]:
    """Exposed pairs of a request: each must form exactly its `kind`."""
    out = []
    for i, item in enumerate(items):
        field = f"exposed.{i}"
        kind = item.get("kind")
        if kind not in KINDS:
            raise InvalidMeld(f"unknown pair kind {kind!r}; Chắn has: {', '.join(KINDS)}", f"{field}.kind")
        raw = item.get("cards")
        if not isinstance(raw, (list, tuple)) or not raw:
            raise InvalidMeld("a pair needs a non-empty list of cards", f"{field}.cards")
        cards = tuple(sorted(parse_card(t, f"{field}.cards.{j}") for j, t in enumerate(raw)))
        found = classify(cards)
        if found != kind:
            what = f"a {found}" if found else "no pair"
            raise InvalidMeld(f"{' '.join(code(c) for c in cards)} is {what}, not a {kind}", f"{field}.cards")
        out.append(Pair(str(kind), cards, concealed=False))
    return tuple(out)


def holds_ca_at(counts: Sequence[int], value: int) -> bool:
    """True when the hand's odd cards of `value` span two suits: it already holds a Cạ there (rule 5)."""
    return sum(1 for s in range(3) if counts[(value - 2) * 3 + s] % 2) >= 2
