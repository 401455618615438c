"""`advice-v1`: the advice (`advice`) as it played when it was frozen (engine 0.1.0, after the safer ties), so that
later advice is measured against it; nothing here may follow later changes of the ranking in
`service/advice/ranking.py`. An arena policy loaded by its name, `py:bench.baselines.advice_v1:AdviceV1`
(docs/bots.md#python-policies), and deterministic; from the repository's root:

    .venv/bin/python -m service arena --ruleset R --policies advice,V1,advice,V1 --deals N --seed S --jobs 2

with that name for V1. tests/bench/test_baselines.py holds it to the moves the advice made when it was frozen.

Only the engine's exact figures are taken from it (every legal discard's distance, waits with their unseen copies,
unseen improving cards, expected gain and the unseen copies of the card; a win's gain; the figures of the hand at
rest when passing, and of a claim that leaves no legal discard): these are facts of the rules. The order is a copy
of the ranking as it stood:
- Discard: the least of `v1_rank_key` (fewest replacements, the most expected gain on the next stock card, the most
  unseen improving cards, the most waiting copies, the fewest unseen copies of the card), then card order.
- Claim: `v1_claim_key`: a win that gains first (the more, the better); then pass and every claim by the hand it
  leaves at rest (a claim: its best discard by the frozen key), pass first on equal terms; last a win that costs.
  Then kind and cards. The first that is legal is played (pass is always legal unless the take is forced), then
  the discard it was chosen with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.advice.analyse import analyse_claims
from service.arena.seat import FollowUp, after_claim, analyse, hand_of, seen_codes
from service.arena.seating import Seating
from service.replay.decisions import SeatView
from service.rules.analysis import ClaimOption, DiscardOption

WIN_KINDS = ("hu", "win")


def v1_hand_key(option: DiscardOption | ClaimOption) -> tuple[float, ...]:
    """The value of a hand at rest as it stood (do not change): distance, -expected gain, -unseen improving
    cards, -waiting copies."""
    waiting = sum(w.unseen for w in option.waits)
    return (option.distance, -option.expected_gain, -option.improving_unseen, -waiting)


def v1_rank_key(option: DiscardOption) -> tuple[float, ...]:
    """The discard order as it stood (do not change): the hand it leaves, then fewer unseen copies of the card."""
    return (*v1_hand_key(option), option.card_unseen)


def v1_first(options: Sequence[DiscardOption]) -> DiscardOption | None:
    """The best discard by the frozen key, then card order (None: no legal discard)."""
    return min(options, key=lambda o: (v1_rank_key(o), o.card), default=None)


def v1_claim_key(kind: str, gain: int | None, rest: DiscardOption | ClaimOption) -> tuple[float, ...]:
    """The claim order as it stood (do not change), of an answer of this kind leaving the hand `rest`."""
    if kind in WIN_KINDS:
        won = gain or 0
        return (0 if won > 0 else 2, -won)
    return (1, *v1_hand_key(rest), 0 if kind == "pass" else 1)


class AdviceV1:
    """The frozen advice of one seat in one round (the module docstring), made by the arena for the seat's
    `Seating`, which it does not need: its moves follow from the seat's view alone."""

    deterministic = True  # its repeated rotations replay: the arena plays them once (`policies.is_deterministic`)

    def __init__(self, seating: Seating | None = None) -> None:
        self.follow = FollowUp()  # the discard chosen with the last claim

    def discard(self, view: SeatView) -> int:
        return self.follow.discard(view, v1_first)

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        analysis = analyse_claims(view.ruleset, hand_of(view, public=card), view.options, role, seen_codes(view),
                                  view.seats, source=source, history=view.history)
        ranked = sorted((self._keyed(view, card, option) for option in analysis.options), key=lambda k: k[0])
        for _, option, follow in ranked:
            if option.claim is None:
                return None  # pass
            taken = next((c for c in legal if c == option.claim), None)
            if taken is not None:
                if follow is not None:
                    self.follow.plan(view, card, taken, follow.card)
                return taken
        return None

    @staticmethod
    def _keyed(view: SeatView, card: int, option: ClaimOption
               ) -> tuple[tuple[Any, ...], ClaimOption, DiscardOption | None]:
        """An answer's frozen sort key (then kind and cards), the answer and the discard chosen with a claim."""
        then = (option.kind, option.cards)
        if option.kind in WIN_KINDS or option.claim is None:
            return (v1_claim_key(option.kind, option.gain, option), then), option, None
        follow = v1_first(analyse(view, *after_claim(view, card, option.claim)).options)
        # no legal discard after the claim: the engine's figures of the hand it leaves
        rest: DiscardOption | ClaimOption = option if follow is None else follow
        return (v1_claim_key(option.kind, option.gain, rest), then), option, follow
