"""The `value` policy: every move by the base value of the position it leaves (`ValueModel.base`,
service/advice/value.py: what a hand at rest is worth as the advice's own play realised it), not by the advice's
order; a yardstick of that order (docs/advice.md#value), which the answers' values follow.

- Discard: the legal discard whose resting hand has the highest base value (then the advice's order).
- Public card: among pass, each legal claim (valued on the hand after its follow-up discard) and a win that gains,
  the option of highest value; a win that costs the seat (bga-taiwan: a hu under the threshold) only when nothing
  else may be done (a forced take). After a claim the discard is chosen afresh by value.

`Chooser` is the shared driver: it asks the advice's analyses, lets `pick` / `order` choose, and hands every
decision to `record` (None: nothing recorded); the value model's training records advice's choices with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..advice.analyse import analyse_claims
from ..advice.value import ValueModel, load_model
from ..replay.decisions import SeatView
from ..rules.analysis import WIN_KINDS, ClaimAnalysis, ClaimOption, DiscardAnalysis, DiscardOption
from .seat import analyse, hand_of, seen_codes

#: (seat, the option played, the unseen cards it was counted on): one decision.
Record = Callable[[int, DiscardOption | ClaimOption, int], None]


class Chooser:
    """A seat that plays `pick(analysis)` on a discard and the first legal option of `order(analysis)` on a
    public card, recording each decision that is not a win."""

    def __init__(self, record: Record | None = None) -> None:
        self.record = record

    def pick(self, analysis: DiscardAnalysis) -> DiscardOption:
        """The discard to play: the advice's first."""
        return analysis.options[0]

    def order(self, analysis: ClaimAnalysis) -> Sequence[ClaimOption]:
        """The answers to a public card, best first: the advice's order."""
        return analysis.options

    def discard(self, view: SeatView) -> int:
        analysis = analyse(view)
        option = self.pick(analysis)
        if self.record is not None:
            self.record(view.seat, option, analysis.unseen_total)
        return option.card

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        analysis = analyse_claims(view.ruleset, hand_of(view, public=card), view.options, role, seen_codes(view),
                                  view.seats, source=source, history=view.history)
        for option in self.order(analysis):
            taken = None if option.claim is None else next((c for c in legal if c == option.claim), None)
            if option.claim is not None and taken is None:
                continue  # not offered by the round (Chắn: a Chíu with no discard after it)
            if self.record is not None and option.kind not in WIN_KINDS:
                self.record(view.seat, option, analysis.unseen_total)
            return taken
        return None


class Value(Chooser):
    """The value policy of one seat (the module docstring)."""

    def __init__(self, model: ValueModel | None = None, record: Record | None = None) -> None:
        super().__init__(record)
        self.model = model  # None: the shipped model of the rule-set of the first view

    def discard(self, view: SeatView) -> int:
        self._load(view)
        return super().discard(view)

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        self._load(view)
        return super().claim(view, card, source, role, legal, forced)

    def _load(self, view: SeatView) -> None:
        """The shipped model of the view's rule-set, unless one was given."""
        if self.model is None:
            self.model = load_model(view.ruleset.id)

    def pick(self, analysis: DiscardAnalysis) -> DiscardOption:
        """The discard of highest value; the advice's order breaks ties (`max` keeps the first)."""
        assert self.model is not None
        model, total = self.model, analysis.unseen_total
        return max(analysis.options, key=lambda o: model.base(o, total))

    def order(self, analysis: ClaimAnalysis) -> Sequence[ClaimOption]:
        """Every answer by value, best first; a costing win after everything else."""
        assert self.model is not None
        model, total = self.model, analysis.unseen_total

        def key(option: ClaimOption) -> tuple[int, float]:
            costs = option.kind in WIN_KINDS and (option.gain or 0) <= 0
            return (1 if costs else 0, -model.base(option, total))

        return sorted(analysis.options, key=key)


class ValueTiebreak(Value):
    """`value-tiebreak`: the advice's first key, the distance, stays primary; the value orders only the options of
    the same distance (a winning claim that gains first and a costing one last, as the advice ranks them)."""

    def pick(self, analysis: DiscardAnalysis) -> DiscardOption:
        """Of the discards that leave the fewest replacements, the one of highest value (then the advice's order)."""
        assert self.model is not None
        model, total = self.model, analysis.unseen_total
        return min(analysis.options, key=lambda o: (o.distance, -model.base(o, total)))

    def order(self, analysis: ClaimAnalysis) -> Sequence[ClaimOption]:
        """A gaining win first (the more it gains the better), then by distance, then by value; a costing win last."""
        assert self.model is not None
        model, total = self.model, analysis.unseen_total

        def key(option: ClaimOption) -> tuple[float, ...]:
            if option.kind in WIN_KINDS:
                gain = option.gain or 0
                return (0 if gain > 0 else 2, -gain, 0.0)
            return (1, option.distance, -model.base(option, total))

        return sorted(analysis.options, key=key)
