"""The `advice` policy: exactly what the API advises, move by move.

- Discard: the first option of the rule-set's `analyse_discards` (what POST /v1/discards answers first).
- Claim: the first option of the rule-set's `analyse_claims` (what POST /v1/claims answers first): a pass, or the
  engine's legal claim it names; when the take is forced the analysis offers only the forced options. After a
  claim the seat discards that option's `follow` card (the discard the answer names with the claim).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..replay.decisions import SeatView
from .baseline import Baseline
from .seat import analyse


class Advice:
    """The API's advice for one seat of one round (the module docstring)."""

    def __init__(self) -> None:
        self.follow: int | None = None  # the discard the last claim's advice named
        self.claims = Baseline()

    def discard(self, view: SeatView) -> int:
        if self.follow is not None:
            card, self.follow = self.follow, None
            return card
        return analyse(view).options[0].card

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        return self.claims.claim(view, card, source, role, legal, forced)
