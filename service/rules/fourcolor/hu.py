"""Hu (win) status of a Four Color Cards hand: docs/rules.md#fc-hu: the claimant's hand plus the public card
splits entirely into melds (exposed melds stay as they are)"."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Tally
from .evaluate import Decomposition, evaluator_for, melds_with
from .hand import FourColorHand
from .melds import Meld, MeldRules


@dataclass(frozen=True)
class HuResult:
    """Whether the hand wins, with its best decomposition and points (exposed + concealed values)."""

    hu: bool
    points: int | None
    exposed_points: int
    concealed_points: int | None
    melds: tuple[Meld, ...] | None
    decompositions: int
    card_count: int


def evaluate_hu(hand: FourColorHand, rules: MeldRules, winning_meld_concealed: bool = True) -> HuResult:
    """Hu status and best decomposition of hand + public card; exposed melds score their exposed values.

    `winning_meld_concealed` is the bga-taiwan decision of docs/rules.md#fc-settlement: when False, the meld that
    holds the winning (public) card scores its exposed value, and the best split is chosen under that rule.
    """
    evaluator = evaluator_for(rules)
    tally = hand.with_public()
    exposed_points = sum(m.points(rules) for m in hand.exposed)
    best, count = evaluator.evaluate(tally)
    if best is not None and not winning_meld_concealed and hand.public_card is not None:
        best = _best_with_open_winning_meld(tally, hand.public_card, rules)
    if best is None:
        return HuResult(False, None, exposed_points, None, None, 0, hand.card_count())
    return HuResult(
        True, exposed_points + best.points, exposed_points, best.points,
        hand.exposed + best.melds, count, hand.card_count(),
    )


def _best_with_open_winning_meld(tally: Tally, card: int, rules: MeldRules) -> Decomposition | None:
    """Best split when the meld containing `card` is scored as exposed: try each such meld."""
    evaluator = evaluator_for(rules)
    top: Decomposition | None = None
    for meld in melds_with(tally, card, rules):
        rest = tally.copy()
        for c in meld.cards:
            rest.remove(c)
        split = evaluator.best_decomposition(rest)
        if split is None:
            continue
        opened = Meld(meld.kind, meld.cards, concealed=False)
        points = split.points + opened.points(rules)
        if top is None or points > top.points:
            top = Decomposition((opened,) + split.melds, points)
    return top
