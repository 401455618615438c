"""The `advice` policy: exactly what the API advises, move by move.

- Discard: the first option of the advice's `analyse_discards` (what POST /v1/discards answers first).
- Claim: the first option of the advice's `analyse_claims` (what POST /v1/claims answers first): pass, or the
  legal claim it names, then the discard it names with it (the option's `follow`). When the drawer must take the
  card the analysis lists only the forced takes. Chắn: a Chíu after which no legal discard exists is not offered by
  the round (the taker could not discard); should the analysis put one first, its next option is taken.

Both analyses rank by the advice's order (`ranking.SHIPPED`) unless the policy is made with another `ranking`:
how a variant of the order plays in the arena (bench/variants.py), with no module attribute replaced.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..advice.analyse import analyse_claims
from ..advice.ranking import SHIPPED, Ranking
from ..replay.decisions import SeatView
from ..rules.analysis import ClaimAnalysis
from .seat import FollowUp, analyse, hand_of, seen_codes


def claim_analysis(view: SeatView, card: int, source: str, role: str, ranking: Ranking = SHIPPED) -> ClaimAnalysis:
    """The advice's `analyse_claims` of the seat's answer to public `card` (what POST /v1/claims answers), ranked
    by `ranking`."""
    return analyse_claims(view.ruleset, hand_of(view, public=card), view.options, role, seen_codes(view),
                          view.seats, source=source, history=view.history, ranking=ranking)


class Advice:
    """The API's advice for one seat of one round (the module docstring)."""

    def __init__(self, *, ranking: Ranking = SHIPPED) -> None:
        self.ranking = ranking  # the order both analyses rank by
        self.follow = FollowUp()  # the discard the last claim's advice named

    def discard(self, view: SeatView) -> int:
        planned = self.follow.take(view)
        return planned if planned is not None else analyse(view, ranking=self.ranking).options[0].card

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        return self.answer(view, card, legal, claim_analysis(view, card, source, role, self.ranking))

    def answer(self, view: SeatView, card: int, legal: Sequence[Any], analysis: ClaimAnalysis) -> Any:
        """The first option of the claim analysis that is pass or one of `legal` (planning its follow-up)."""
        for option in analysis.options:
            if option.claim is None:
                return None  # pass
            taken = next((c for c in legal if c == option.claim), None)
            if taken is not None:
                if option.follow is not None:
                    self.follow.plan(view, card, taken, option.follow.card)
                return taken
        return None
