"""The `search` policy: the Monte Carlo discard search (`service/search/montecarlo.py`) choosing among the
advice's best discards.

- Discard: the candidates are the first `CANDIDATES` options of the advice's `analyse_discards` (distinct
  cards). The search is skipped, and the first option discarded, when there is one option only, or when the first
  is clearly ahead: it leaves a smaller distance to a win than the second (every candidate but the first would
  need one more replacement). Otherwise the seat's position (`position_of`, from its view) is searched with the
  arena's limits per decision (`Seating.budget` seconds, at most `MAX_BUDGET`, and `Seating.samples` deals),
  seeded from the arena's seed, the deal, the rotation, the seat and the decision's number. The search's leader
  is discarded only when it beats the advice's first discard on the same deals: its paired difference from it
  (`versus_first`) has a 95% interval above zero. Otherwise the advice stands: a leader by a hair on a few hundred
  deals is as likely noise as a better discard. With the time budget reached before the samples, the answer
  depends on the machine's speed: the arena is then reproducible only with a samples cap that is reached first.
- Claim: as `advice` (the discard after a claim is searched like any other).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..replay.decisions import SeatView
from ..search.montecarlo import search
from ..search.position import position_of
from .advice import Advice
from .seat import analyse
from .seating import MAX_BUDGET, Seating

CANDIDATES = 3


class Search:
    """The searching seat of one round (the module docstring)."""

    def __init__(self, seating: Seating) -> None:
        self.seating, self.advice, self.decisions = seating, Advice(), 0

    def discard(self, view: SeatView) -> int:
        self.advice.follow.planned = None  # the search decides every discard itself
        self.decisions += 1
        options = analyse(view).options
        if len(options) == 1 or options[0].distance < options[1].distance:
            return options[0].card
        position = position_of(view.ruleset, view.options, view.hand, view.exposed, view.visible, view.seats,
                               view.seat, view.opponents, view.stock_remaining, view.history)
        seed = self.seating.rng("search", self.decisions).getrandbits(32)
        found = search(position, [o.card for o in options[:CANDIDATES]], samples=self.seating.samples,
                       time_budget=min(self.seating.budget, MAX_BUDGET), seed=seed,
                       min_samples=min(200, self.seating.samples))
        leader = found.candidates[0]
        ahead = leader.versus_first  # the leader minus the advice's first discard, paired deal by deal
        return leader.card if ahead is not None and ahead.low is not None and ahead.low > 0 else options[0].card

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        return self.advice.claim(view, card, source, role, legal, forced)
