"""What a Four Color Cards hand offers at a glance, for the opponents of a playout: the cards in no meld of it
(those they discard first) and the public cards that may complete it (the only ones their win test tries).

A card of the hand that is in no meld with the others must meld with the public card for the hand to win, so
the public cards that may complete a hand are those that meld with every such card: a necessary condition, and
a cheap one, recomputed only when the hand changes (RULES.md 1, "Melds").
"""

from __future__ import annotations

from ..rules.fourcolor.cards import N_KINDS, SOLDIER
from ..rules.fourcolor.melds import MeldRules, classify

#: Chess cards that may be discarded: every character but the General (RULES.md 1: "Generals can never be
#: discarded"; flowers never either).
DISCARDABLE = tuple(c for c in range(N_KINDS) if c % 7)
SOLDIERS = tuple(c * 7 + SOLDIER for c in range(4))
#: The other two cards of a card's command (G A E) or field (C H P) of its colour.
TRIO = tuple(tuple(c // 7 * 7 + k for k in group if k != c % 7) if c % 7 in group else ()
             for c in range(N_KINDS) for group in [(0, 1, 2) if c % 7 < 3 else (3, 4, 5)])


class Shapes:
    """The meld tables of one rule profile that the two questions need."""

    def __init__(self, rules: MeldRules) -> None:
        # alone[k][n]: n copies of k hold an identical meld; grow[k][n]: one more copy makes one.
        alone = [[any(classify((k,) * m, rules) for m in range(2, n + 1)) for n in range(5)] for k in range(N_KINDS)]
        self.grow = [[n < 4 and classify((k,) * (n + 1), rules) is not None for n in range(5)]
                     for k in range(N_KINDS)]
        # Per discardable card: its identical-meld row, its command/field partners, the other colours' Soldiers.
        self.profile = [(k, alone[k], TRIO[k], tuple(s for s in SOLDIERS if s != k) if k % 7 == SOLDIER else ())
                        for k in DISCARDABLE]

    def loose(self, counts: list[int]) -> list[int]:
        """The discardable cards of a hand that are in no meld of it (the hot path of the opponents' play)."""
        out = []
        for k, alone, trio, others in self.profile:
            n = counts[k]
            if not n or alone[n]:
                continue
            if trio and counts[trio[0]] and counts[trio[1]]:
                continue
            if others and (counts[others[0]] > 0) + (counts[others[1]] > 0) + (counts[others[2]] > 0) >= 2:
                continue
            out.append(k)
        return out

    def wins_with(self, counts: list[int], loose: list[int]) -> frozenset[int] | None:
        """The public cards that may complete this resting hand (None: any card may): each loose card must
        meld with the public card, so the cards that meld with all of them."""
        found: set[int] | None = None
        for k in loose:
            fits = {k} if self.grow[k][counts[k]] else set()
            trio = TRIO[k]
            if trio and bool(counts[trio[0]]) != bool(counts[trio[1]]):
                fits.add(trio[1] if counts[trio[0]] else trio[0])
            if k % 7 == SOLDIER:
                held = [s for s in SOLDIERS if s != k and counts[s]]
                if len(held) == 1:
                    fits.update(s for s in SOLDIERS if s != k and s != held[0])
            found = fits if found is None else found & fits
            if not found:
                return frozenset()
        return None if found is None else frozenset(found)
