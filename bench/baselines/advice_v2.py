"""`advice-v2`: the advice (`advice`) as it played when it was frozen (engine 0.5.0: the paying distance, the rich
win, the improving cards weighted by their reach, the expected gain, the Tôm and Lèo sets kept), so that a later
advice is measured against it; nothing here may follow later changes of the order in `service/advice/ranking.py`.
An arena policy loaded by its name, `py:bench.baselines.advice_v2:AdviceV2` (docs/bots.md#python-policies), and
deterministic; from the repository's root:

    .venv/bin/python -m service arena --ruleset R --policies advice,V2,advice,V2 --deals N --seed S --jobs 2

with that name for V2. tests/bench/test_baselines.py holds it to the moves the advice made when it was frozen.

It is the service's `Advice` with a frozen copy of the order (`RankingV2`) passed in as its ranking: the options
and their exact figures are the engine's (facts of the rules and of what the seat has seen); only the order in
which they are read is copied here as it stood.
"""

from __future__ import annotations

from service.advice.ranking import Ranking
from service.arena.advice import Advice
from service.arena.seating import Seating
from service.rules.analysis import ClaimOption, DiscardOption

WIN_KINDS = ("hu", "win")


class RankingV2(Ranking):
    """The order as it stood (do not change): it did not yet answer a claim that cannot take the card as a pass."""

    preempts = False

    def hand(self, option: DiscardOption | ClaimOption) -> tuple[float, ...]:
        """Fewest replacements from a win that pays (the paying distance where a win can cost, else the distance),
        fewest from a rich win, the most unseen cards that lower the paying distance, fewest replacements from any
        win, the most reach, the most one-card expected gain, the most Tôm and Lèo sets kept (a discard), the most
        unseen improving cards, the most waiting copies."""
        waiting = sum(w.unseen for w in option.waits)
        kept = (option.sets_kept or 0) if isinstance(option, DiscardOption) else 0
        paying = option.distance if option.paying is None else option.paying
        return (paying, option.rich or 0, -(option.paying_improving or 0), option.distance, -option.reach,
                -option.expected_gain, -kept, -option.improving_unseen, -waiting)

    def discard(self, option: DiscardOption) -> tuple[float, ...]:
        """The hand the discard leaves, then the card with fewer unseen copies."""
        return (*self.hand(option), option.card_unseen)

    def claim(self, option: ClaimOption) -> tuple[float, ...]:
        """A win that gains first (the more, the better); then pass and every claim by the hand each leaves at
        rest, pass before a claim that is no better; last a win that costs."""
        if option.kind in WIN_KINDS:
            gain = option.gain or 0
            return (0 if gain > 0 else 2, -gain)
        return (1, *self.hand(option), 0 if option.kind == "pass" else 1)


RANKING_V2 = RankingV2()


class AdviceV2(Advice):
    """The advice with the frozen order (the module docstring)."""

    deterministic = True  # its repeated rotations replay: the arena plays them once (`policies.is_deterministic`)

    def __init__(self, seating: Seating | None = None) -> None:
        super().__init__(ranking=RANKING_V2)
