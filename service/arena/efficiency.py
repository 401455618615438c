"""The `efficiency` policy: a floor that only races to a win, on the engine's exact distances; no expected gain,
no safety.

- Discard: the legal discard that leaves the fewest cards missing from a win (the exact distance), then the most
  unseen improving cards, then card order.
- Public card: a win whenever legal and it does not cost the seat (bga-taiwan: a hu under the threshold makes
  its caller pay, docs/rules.md#fc-settlement); else a claim only when it leaves a strictly smaller distance
  (after its best discard) than passing, the claim that leaves the smallest distance (then the order the round
  lists them in), then that discard. A forced take: a win if legal, else the take that leaves the smallest
  distance. A claim after which no card may be discarded ends the round as the seat's hu (Four Color Cards; Chắn
  never offers one), so it counts as a win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..advice.analyse import analyse_claims
from ..replay.decisions import SeatView
from ..rules.analysis import WIN_DISTANCE, DiscardOption
from .seat import FollowUp, after_claim, analyse, hand_of, seen_codes, win_gain

WIN_KINDS = ("hu", "win")


def fastest(options: Sequence[DiscardOption]) -> DiscardOption | None:
    """The discard leaving the least distance, then the most unseen improving cards, then card order."""
    return min(options, key=lambda o: (o.distance, -o.improving_unseen, o.card), default=None)


class Efficiency:
    """The distance-only seat of one round (the module docstring)."""

    def __init__(self) -> None:
        self.follow = FollowUp()  # the discard chosen with the last claim

    def discard(self, view: SeatView) -> int:
        return self.follow.discard(view, fastest)

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        win = next((c for c in legal if c.kind in WIN_KINDS), None)
        if win is not None and (forced or win_gain(view, card) > 0):
            return win
        best: tuple[int, Any, DiscardOption | None] | None = None
        for claim in (c for c in legal if c.kind not in WIN_KINDS):
            cards, exposed, history = after_claim(view, card, claim)
            follow = fastest(analyse(view, cards, exposed, history).options)
            distance = WIN_DISTANCE if follow is None else follow.distance
            if best is None or distance < best[0]:
                best = (distance, claim, follow)
        if best is None or not (forced or best[0] < self._passing(view, card, source, role)):
            return None
        if best[2] is not None:
            self.follow.plan(view, card, best[1], best[2].card)
        return best[1]

    @staticmethod
    def _passing(view: SeatView, card: int, source: str, role: str) -> int:
        """The exact distance of the hand left by passing (Chắn: with a passed-up identical capture barred)."""
        analysis = analyse_claims(view.ruleset, hand_of(view, public=card), view.options, role, seen_codes(view),
                                  view.seats, source=source, history=view.history)
        return next(o.distance for o in analysis.options if o.kind == "pass")
