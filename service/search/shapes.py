"""What a Four Color Cards hand offers at a glance, for the opponents of a playout: the cards in no meld of it
(those they discard first) and the public cards that may complete it (the only ones their win test tries).

A card of the hand that is in no meld with the others must meld with the public card for the hand to win, so
the public cards that may complete a hand are those that meld with every such card: a necessary condition, and
a cheap one, recomputed only when the hand changes (docs/rules.md#fc-melds).
"""

from __future__ import annotations

from ..rules.fourcolor.cards import N_KINDS, SOLDIER
from ..rules.fourcolor.melds import MeldRules, classify

#: Chess cards that may be discarded: every character but the General (docs/rules.md#fc-generals-discard: "Generals can
#: never be
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
        self.alone = [[any(classify((k,) * m, rules) for m in range(2, n + 1)) for n in range(5)]
                      for k in range(N_KINDS)]
        self.grow = [[n < 4 and classify((k,) * (n + 1), rules) is not None for n in range(5)]
                     for k in range(N_KINDS)]

    def loose(self, counts: list[int]) -> list[int]:
        """The discardable cards of a hand that are in no meld of it, in card order (the hot path of the opponents'
        play): per colour, Advisor and Elephant meld with the other two of G A E, Chariot, Horse and Cannon with
        the other two of C H P, a Soldier with two Soldiers of other colours."""
        out = []
        alone = self.alone
        soldiers = (counts[6] > 0) + (counts[13] > 0) + (counts[20] > 0) + (counts[27] > 0)
        for b in (0, 7, 14, 21):
            g, a, e, c, h, p, s = counts[b:b + 7]
            if a and not (g and e) and not alone[b + 1][a]:
                out.append(b + 1)
            if e and not (g and a) and not alone[b + 2][e]:
                out.append(b + 2)
            if c and not (h and p) and not alone[b + 3][c]:
                out.append(b + 3)
            if h and not (c and p) and not alone[b + 4][h]:
                out.append(b + 4)
            if p and not (c and h) and not alone[b + 5][p]:
                out.append(b + 5)
            if s and soldiers < 3 and not alone[b + 6][s]:
                out.append(b + 6)
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
