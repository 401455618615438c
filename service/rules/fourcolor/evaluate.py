"""Decomposition of Four Color Cards hands into melds, backed by the tables of `tables.py`.

`Evaluator` answers: can a tally split completely into melds, the best split and its concealed points,
and how many distinct splits (multisets of melds) exist. docs/rules.md#fc-decomposition: a hand's concealed melds are
chosen by the decomposition that scores most.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from .cards import FLOWER_BASE, N_FLOWERS, SOLDIER, Tally
from .melds import Meld, MeldRules, classify
from .tables import tables_for


@dataclass(frozen=True)
class Decomposition:
    """A complete split of concealed cards into melds and its concealed points."""

    melds: tuple[Meld, ...]
    points: int


def colour_states(counts: list[int]) -> tuple[int, int, int, int]:
    """The four one-colour table states of a count vector (unrolled: this is the hot path)."""
    c = counts
    return (
        c[0] * 15625 + c[1] * 3125 + c[2] * 625 + c[3] * 125 + c[4] * 25 + c[5] * 5 + c[6],
        c[7] * 15625 + c[8] * 3125 + c[9] * 625 + c[10] * 125 + c[11] * 25 + c[12] * 5 + c[13],
        c[14] * 15625 + c[15] * 3125 + c[16] * 625 + c[17] * 125 + c[18] * 25 + c[19] * 5 + c[20],
        c[21] * 15625 + c[22] * 3125 + c[23] * 625 + c[24] * 125 + c[25] * 25 + c[26] * 5 + c[27],
    )


class Evaluator:
    """Table look-ups for one meld profile."""

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        self.colour, self.soldier = tables_for(rules)
        self.flower_points = rules.value("flower", True) if rules.flowers else 0
        self._split_melds = [self._build_splits(colour) for colour in range(4)]

    def _build_splits(self, colour: int) -> list[tuple[Meld, ...]]:
        """Best split of every state of one colour as shared Meld objects (built once, ~0.1 s); a state without
        a split keeps (), never read: a choice only ever rests on states with one."""
        made = [Meld(kind, tuple(colour * 7 + k for k in range(7) for _ in range(vec[k])))
                for kind, vec in self.colour.patterns]
        splits: list[tuple[Meld, ...]] = [()] * len(self.colour.best)
        for state, pick in enumerate(self.colour.choice):
            if pick is not None:
                delta, _, chosen = pick
                splits[state] = splits[state - delta] + tuple(made[p] for p in chosen)
        return splits

    def best_points(self, tally: Tally) -> int:
        """Best concealed points of a complete split, or -1 when the cards do not all form melds."""
        best = self.evaluate(tally)[0]
        return -1 if best is None else best.points

    def count(self, tally: Tally) -> int:
        """Number of distinct complete splits (as multisets of melds); 0 when there is none."""
        return self.evaluate(tally)[1]

    def best_decomposition(self, tally: Tally) -> Decomposition | None:
        """The best-scoring complete split, or None: a few look-ups per feasible Soldier export."""
        return self.evaluate(tally)[0]

    def evaluate(self, tally: Tally) -> tuple[Decomposition | None, int]:
        """The best split (or None) and the number of distinct splits, in one pass over the Soldier exports."""
        best, ways = self.colour.best, self.colour.ways
        s0, s1, s2, s3 = colour_states(tally.counts)
        top, pick, total = -1, None, 0
        for row in self.soldier.by_soldiers[(s0 % 5) * 125 + (s1 % 5) * 25 + (s2 % 5) * 5 + s3 % 5]:
            a = best[s0 - row[0]]
            b = best[s1 - row[1]]
            c = best[s2 - row[2]]
            d = best[s3 - row[3]]
            if a >= 0 and b >= 0 and c >= 0 and d >= 0:
                total += row[5] * ways[s0 - row[0]] * ways[s1 - row[1]] * ways[s2 - row[2]] * ways[s3 - row[3]]
                if row[4] + a + b + c + d > top:
                    top, pick = row[4] + a + b + c + d, row
        if pick is None:
            return None, 0
        r, y, g, w = self._split_melds
        melds = (
            r[s0 - pick[0]] + y[s1 - pick[1]] + g[s2 - pick[2]] + w[s3 - pick[3]] + self._soldier_melds(pick[6])
        )
        if tally.flowers:
            melds += self._flower_melds(tally.flowers)
            top += self.flower_points * bin(tally.flowers).count("1")
        return Decomposition(melds, top), total

    @staticmethod
    @lru_cache(maxsize=1024)
    def _flower_melds(flowers: int) -> tuple[Meld, ...]:
        """One `flower` meld per flower held."""
        return tuple(Meld("flower", (FLOWER_BASE + i,)) for i in range(N_FLOWERS) if flowers >> i & 1)

    @staticmethod
    @lru_cache(maxsize=1024)
    def _soldier_melds(groups: tuple[int, tuple[int, ...]]) -> tuple[Meld, ...]:
        """Soldier melds of a soldier-table choice (n4 groups of four, missing[m] groups without colour m)."""
        n4, missing = groups
        melds = [Meld("soldiers4", tuple(c * 7 + SOLDIER for c in range(4))) for _ in range(n4)]
        for m, n in enumerate(missing):
            melds += [Meld("soldiers3", tuple(c * 7 + SOLDIER for c in range(4) if c != m)) for _ in range(n)]
        return tuple(melds)


@lru_cache(maxsize=16)
def evaluator_for(rules: MeldRules) -> Evaluator:
    """The cached evaluator of a meld profile."""
    return Evaluator(rules)


def legal_melds(tally: Tally, rules: MeldRules) -> list[Meld]:
    """Every distinct meld that can be formed from the tally's cards (concealed), in card order."""
    found: set[tuple[int, ...]] = set()
    for card in tally.cards():
        for n in range(1, tally.count(card) + 1):
            found.add((card,) * n)
    for colour in range(4):
        base = colour * 7
        for chars in ((0, 1, 2), (3, 4, 5)):
            if all(tally.counts[base + k] for k in chars):
                found.add(tuple(base + k for k in chars))
    soldiers = [c * 7 + SOLDIER for c in range(4) if tally.counts[c * 7 + SOLDIER]]
    for size in (3, 4):
        found.update(combinations(soldiers, size))
    melds = [Meld(kind, cards) for cards in found if (kind := classify(cards, rules)) is not None]
    melds.sort(key=lambda m: (m.cards, len(m.cards)))
    return melds


def melds_with(tally: Tally, card: int, rules: MeldRules) -> list[Meld]:
    """Every meld of the tally that contains `card` (built around the card, not filtered from all melds)."""
    if card >= FLOWER_BASE:
        return [Meld("flower", (card,))] if rules.flowers and tally.count(card) else []
    counts = tally.counts
    found = [(card,) * n for n in range(1, counts[card] + 1)]
    colour, char = divmod(card, 7)
    for group in ((0, 1, 2), (3, 4, 5)):
        if char in group and all(counts[colour * 7 + k] for k in group):
            found.append(tuple(colour * 7 + k for k in group))
    if char == SOLDIER:
        soldiers = [c * 7 + SOLDIER for c in range(4) if c != colour and counts[c * 7 + SOLDIER]]
        for size in (2, 3):
            found += [tuple(sorted((card, *rest))) for rest in combinations(soldiers, size)]
    melds = [Meld(kind, cards) for cards in found if (kind := classify(cards, rules)) is not None]
    melds.sort(key=lambda m: (m.cards, len(m.cards)))
    return melds
