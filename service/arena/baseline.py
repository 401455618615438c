"""The `baseline` policy: the discard ranking and claim rule the service used when the arena was built, frozen.

It must not move when the advice improves, so that the arena measures the advice against a fixed yardstick:
nothing here may follow later changes of `service/advice/ranking.py` or `service/search/player.py`.

- Discard: the options of the advice's `analyse_discards`, sorted by `FROZEN_RANK_KEY` (a copy of the ranking
  key as it stood: fewest replacements, then the most expected gain on the next stock card, then the most unseen
  improving cards, then the most waiting copies; then the card), the first one.
- Win: whenever its gain is positive (the seat's settlement delta, settled without the lucky card or a win
  context): bga-taiwan never calls a hu under the threshold (he would pay each opponent); where nobody pays
  (cardavia-flowers' payment none) every win; Chắn every win.
- Meld claim (Four Color Cards: a meld on the public card; Chắn: a capture or a Chíu): only when the best discard
  after it (by the frozen key) leaves a smaller distance than the hand has now; among several, the one whose best
  discard ranks first by the frozen key. "Now" is the distance the seat's last discard left (before its first
  discard: the structural distance of its dealt hand).
- Forced take (a General or flower the drawer turns up): a paying win if it has one, else into the meld whose best
  discard ranks first, whatever the distance. A meld that leaves no legal discard (only Generals and flowers: the
  round ends as his hu) ranks first when that hu would pay, and is never taken otherwise unless forced.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..replay.decisions import SeatView
from ..rules.analysis import DiscardOption
from .seat import after_claim, analyse, resting_distance, win_gain

WIN_KINDS = ("hu", "win")
#: Where a claim's key ranks when its meld leaves no legal discard and that ends the round as a paying hu.
ENDS_PAYING = (-1.0,)


def frozen_rank_key(option: DiscardOption) -> tuple[float, ...]:
    """The ranking key as it stood (do not change): distance, -expected gain, -unseen improving cards, -waiting
    copies."""
    waiting = sum(w.unseen for w in option.waits)
    return (option.distance, -option.expected_gain, -option.improving_unseen, -waiting)


def frozen_order(options: Sequence[DiscardOption]) -> list[DiscardOption]:
    """Discard options best first by the frozen key, then the card."""
    return sorted(options, key=lambda o: (frozen_rank_key(o), o.card))


class Baseline:
    """The frozen policy of one seat in one round (the module docstring)."""

    def __init__(self) -> None:
        self.resting: int | None = None  # the distance the seat's last discard left

    def discard(self, view: SeatView) -> int:
        best = frozen_order(analyse(view).options)[0]
        self.resting = best.distance
        return best.card

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        wins = [c for c in legal if c.kind in WIN_KINDS]
        for win in wins:
            if win_gain(view, card) > 0:
                return win
        best = best_meld(view, card, [c for c in legal if c.kind not in WIN_KINDS])
        if forced:
            return best[1] if best else legal[0]
        if best is None:
            return None
        now = resting_distance(view) if self.resting is None else self.resting
        return best[1] if best[0][0] < now else None


def best_meld(view: SeatView, card: int, melds: Sequence[Any]) -> tuple[tuple[float, ...], Any] | None:
    """The meld claim whose best discard after it ranks first by the frozen key, with that key (None: none)."""
    best = None
    for claim in melds:
        cards, exposed, history = after_claim(view, card, claim)
        options = analyse(view, cards, exposed, history).options
        if options:
            key = frozen_rank_key(frozen_order(options)[0])
        elif win_gain(view, None, cards, exposed) > 0:
            key = ENDS_PAYING
        else:
            continue
        if best is None or key < best[0]:
            best = (key, claim)
    return best
