"""Points a Four Color Cards hand already holds: the best concealed points of its cards split into melds with
leftovers allowed (a card may stay out of every meld), on the tables of `tables.py`.

Every public card taken goes into an exposed meld (docs/rules.md#fc-turn), so a concealed meld can only come from
the dealt cards or be the winning meld: the concealed melds a hand holds now are points it keeps to the win unless
it breaks them. `KeptPoints.of(tally)` is the best sum of concealed meld points over every sub-multiset of the
tally that splits completely into melds (flowers count their points, Generals theirs: each is a meld alone).
"""

from __future__ import annotations

from functools import lru_cache

from .cards import Tally
from .evaluate import colour_states
from .melds import MeldRules
from .tables import N_STATES, WEIGHTS, tables_for


class KeptPoints:
    """Best concealed points with leftovers, per colour state, joined over the Soldier groups."""

    def __init__(self, rules: MeldRules) -> None:
        colour, self.soldier = tables_for(rules)
        best = colour.best
        kept = [0] * N_STATES
        for state in range(1, N_STATES):
            top = best[state]
            for w in WEIGHTS:
                if state // w % 5 and kept[state - w] > top:
                    top = kept[state - w]
            kept[state] = top
        self.kept = kept
        self.flower_points = rules.value("flower", True) if rules.flowers else 0

    def of(self, tally: Tally) -> int:
        """The best concealed points of the tally's cards split into melds, leftovers allowed."""
        kept = self.kept
        s0, s1, s2, s3 = colour_states(tally.counts)
        top = 0
        for row in self.soldier.by_soldiers[(s0 % 5) * 125 + (s1 % 5) * 25 + (s2 % 5) * 5 + s3 % 5]:
            total = row[4] + kept[s0 - row[0]] + kept[s1 - row[1]] + kept[s2 - row[2]] + kept[s3 - row[3]]
            if total > top:
                top = total
        if tally.flowers:
            top += self.flower_points * bin(tally.flowers).count("1")
        return top


@lru_cache(maxsize=16)
def kept_points_for(rules: MeldRules) -> KeptPoints:
    """The cached table of a meld profile (about a second to build)."""
    return KeptPoints(rules)
