"""Meld kinds of Four Color Cards and their points (docs/rules.md#fc-melds).

`MeldRules` is everything about melds that options can change; it is hashable so the evaluation tables
built from it are cached once per distinct rule profile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .cards import (
    ADVISOR,
    CANNON,
    CHARIOT,
    ELEPHANT,
    GENERAL,
    HORSE,
    SOLDIER,
    character_of,
    code,
    colour_of,
    is_flower,
)

KINDS = (
    "general", "flower", "pair", "triple", "quad", "general_quad",
    "command", "field", "soldiers3", "soldiers4",
)
#: Kinds whose cards are all one identical card (docs/rules.md#fc-claims: quad / triple are "gan / pong").
IDENTICAL_KINDS = frozenset({"pair", "triple", "quad", "general_quad"})
#: Mixed melds: one colour (command, field) or soldiers of different colours.
MIXED_KINDS = frozenset({"command", "field", "soldiers3", "soldiers4"})


@dataclass(frozen=True)
class MeldRules:
    """Which melds exist under a rule profile and what each scores (exposed, concealed)."""

    points: tuple[tuple[str, int, int], ...]
    general_quad: bool
    general_triple: bool
    soldier_pairs: bool
    soldier_sets: bool
    flowers: bool
    _index: Mapping[str, tuple[int, int]] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _hash: int = field(default=0, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {k: (e, c) for k, e, c in self.points})
        object.__setattr__(self, "_hash", hash((self.points, self.general_quad, self.general_triple,
                                                self.soldier_pairs, self.soldier_sets, self.flowers)))

    def __hash__(self) -> int:
        """Computed once: a profile is a key of the engine's caches (tables, evaluators, meld answers), looked up
        several times per request, and hashing its points table each time showed in profiles."""
        return self._hash

    def allows(self, kind: str) -> bool:
        """True when the kind exists under these rules."""
        return kind in self._index

    def value(self, kind: str, concealed: bool) -> int:
        """Points of one meld of `kind`, exposed or concealed."""
        exposed_pts, concealed_pts = self._index[kind]
        return concealed_pts if concealed else exposed_pts

    def table(self) -> list[dict[str, object]]:
        """The meld table for /v1/rulesets."""
        return [{"kind": k, "exposed": e, "concealed": c} for k, e, c in self.points]


@dataclass(frozen=True)
class Meld:
    """One meld: its kind, its cards (card indices, sorted) and whether it is concealed."""

    kind: str
    cards: tuple[int, ...]
    concealed: bool = True

    def codes(self) -> list[str]:
        """The cards as canonical codes."""
        return [code(c) for c in self.cards]

    def points(self, rules: MeldRules) -> int:
        """Points of this meld under `rules`."""
        return rules.value(self.kind, self.concealed)


def classify(cards: Sequence[int], rules: MeldRules) -> str | None:
    """The meld kind formed by exactly these cards, or None when they form no meld."""
    n = len(cards)
    if n == 0 or n > 4:
        return None
    if any(is_flower(c) for c in cards):
        return "flower" if n == 1 and rules.flowers else None
    first = cards[0]
    char = character_of(first)
    if all(c == first for c in cards):
        return _identical_kind(char, n, rules)
    chars = sorted(character_of(c) for c in cards)
    colours = {colour_of(c) for c in cards}
    if n == 3 and len(colours) == 1:
        if chars == [GENERAL, ADVISOR, ELEPHANT]:
            return "command"
        if chars == [CHARIOT, HORSE, CANNON]:
            return "field"
    if all(ch == SOLDIER for ch in chars) and len(colours) == n and n >= 3:
        return "soldiers3" if n == 3 else "soldiers4"
    return None


def _identical_kind(char: int, n: int, rules: MeldRules) -> str | None:
    """Kind of n identical cards of character `char`."""
    if char == GENERAL:
        # docs/rules.md#fc-general-triple: one General is a meld; three are three `general` melds, never a triple.
        if n == 1:
            return "general"
        if n == 4 and rules.general_quad:
            return "general_quad"
        if n == 3 and rules.general_triple:
            return "triple"
        return None
    if n == 1:
        return None
    if char == SOLDIER:
        # docs/rules.md#fc-soldier-sets: Soldier pairs only in flowers; same-colour Soldier triples/quads are a
        # decision option.
        if n == 2:
            return "pair" if rules.soldier_pairs else None
        if not rules.soldier_sets:
            return None
    return ("pair", "triple", "quad")[n - 2]


def colour_patterns(rules: MeldRules) -> list[tuple[str, tuple[int, ...]]]:
    """Every meld within one colour as (kind, count vector over the 7 characters)."""
    patterns: list[tuple[str, tuple[int, ...]]] = []
    for char in range(7):
        for n in (1, 2, 3, 4):
            kind = _identical_kind(char, n, rules)
            if kind is not None:
                vec = [0] * 7
                vec[char] = n
                patterns.append((kind, tuple(vec)))
    patterns.append(("command", (1, 1, 1, 0, 0, 0, 0)))
    patterns.append(("field", (0, 0, 0, 1, 1, 1, 0)))
    return patterns
