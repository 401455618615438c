"""The loss of an option: what discarding (or answering) otherwise than the advice's first option costs, in the
value's unit, fitted on paired branches (`python -m service learn --loss`, docs/advice.md#value).

An option's value is the value of the first option minus its loss (`service.advice.value.values_of`). The loss of
an option tied with the first (rank 1) is 0; of any other, a linear function of what separates it from the first
(`loss_features`), floored at 0, then raised along the ranking so that no option loses less than one ranked above
it (`losses`): the values fall as the ranks rise, so the option list ordered by the advice's key is ordered by
value too, and there is one order.

Why paired branches: one round's settlement has a standard deviation of 5-8 points, against differences between
options of tenths. Played on from the same true deal (the same hands and stock order, the advice in every seat),
two options share everything but what the decision changes, and their difference is what the loss is fitted to
(`service/arena/branches.py`).

Features (`LOSS_FEATURES`), the first option F against the option O, U the unseen cards both are counted on:
- `bias`: 1 (what an option ranked below the first loses when nothing else tells them apart);
- `value_gap`, `value_gap_positive`: the base values' difference V(F) - V(O) (`ValueModel.base`), and its
  positive part;
- `paying_gap`: O's replacements from a win that pays (`paying_of`) minus F's; `distance_gap`: O's distance minus
  F's (two discards of one hand leave hands one card apart, so each gap is -1, 0 or 1);
- `stage`: U / 100; `paying_gap_stage`: the paying gap times the stage;
- `breaks_wait`: the paying gap where F is waiting (a waiting hand broken);
- `wait_share_gap`, `improving_share_gap`: F's waiting copies and improving cards minus O's, over U;
- `expected_gain_gap`: F's one-card expected gain minus O's;
- `card_unseen_gap`: unseen copies of O's discard minus F's (a claim: of its follow-up discard);
- `sets_kept_gap`: Chắn, the Tôm and Lèo sets F keeps minus O's;
- `rich_gap`, `paying_improving_gap`: bga-taiwan, O's replacements from a rich win minus F's, and F's unseen
  cards lowering the paying distance minus O's, over U.

Answers to a public card have a loss of their own where the model file has one (`claim_loss`, fitted on paired
branches of claim decisions: `python -m service learn --claims`): a claim changes the hand by a whole meld and may
still lose the card to a higher claim, so the discards' weights price it poorly. Its features
(`CLAIM_LOSS_FEATURES`) are the ones above and:
- `claim_below`: 1 when O is a claim (the advice passes), 0 when O is the pass (the advice claims);
- `contested_first`, `contested_other`: 1 when F, or O, is a claim of the lowest priority (chi-type, a next
  player's mixed meld, a Chắn capture), which a claim of another seat can still take the card from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..rules.analysis import ClaimOption, DiscardOption, paying_of

Option = DiscardOption | ClaimOption

LOSS_FEATURES = ("bias", "value_gap", "value_gap_positive", "paying_gap", "distance_gap", "stage",
                 "paying_gap_stage", "breaks_wait", "wait_share_gap", "improving_share_gap", "expected_gain_gap",
                 "card_unseen_gap", "sets_kept_gap", "rich_gap", "paying_improving_gap")
CLAIM_LOSS_FEATURES = (*LOSS_FEATURES, "claim_below", "contested_first", "contested_other")
#: The priority of the claims another seat's claim can still take the card from (every family's lowest).
CONTESTED = 1


def waiting(option: Option) -> int:
    """Unseen copies of the option's waits."""
    return sum(w.unseen for w in option.waits)


def card_unseen(option: Option) -> int:
    """Unseen copies of the card the option discards (a claim: its follow-up discard; pass, a win: 0)."""
    if isinstance(option, DiscardOption):
        return option.card_unseen
    return option.follow.card_unseen if option.follow is not None else 0


def loss_features(first: Option, other: Option, first_value: float, other_value: float,
                  unseen_total: int) -> tuple[float, ...]:
    """The features (`LOSS_FEATURES` order) of `other` against `first`, with their base values."""
    total = max(unseen_total, 1)
    stage = total / 100
    gap = first_value - other_value
    paying = paying_of(other) - paying_of(first)
    return (1.0, gap, max(gap, 0.0), float(paying), float(other.distance - first.distance), stage, paying * stage,
            float(first.distance <= 0) * paying,
            (waiting(first) - waiting(other)) / total, (first.improving_unseen - other.improving_unseen) / total,
            first.expected_gain - other.expected_gain, float(card_unseen(other) - card_unseen(first)),
            float((first.sets_kept or 0) - (other.sets_kept or 0)), float((other.rich or 0) - (first.rich or 0)),
            float((first.paying_improving or 0) - (other.paying_improving or 0)) / total)


def contested(option: Option) -> bool:
    """Whether `option` is a claim of the lowest priority (pass, a discard: no)."""
    return isinstance(option, ClaimOption) and option.kind != "pass" and option.priority == CONTESTED


def claim_loss_features(first: Option, other: Option, first_value: float, other_value: float,
                        unseen_total: int) -> tuple[float, ...]:
    """The features (`CLAIM_LOSS_FEATURES` order) of the answer `other` against the first answer `first`."""
    return (*loss_features(first, other, first_value, other_value, unseen_total),
            float(isinstance(other, ClaimOption) and other.kind != "pass"), float(contested(first)),
            float(contested(other)))


Features = Callable[[Option, Option, float, float, int], tuple[float, ...]]


def raw_loss(weights: Sequence[float], row: Sequence[float]) -> float:
    """The linear loss of a feature row, floored at 0."""
    return max(0.0, sum(w * x for w, x in zip(weights, row)))


def losses(weights: Sequence[float], options: Sequence[Option], base: Sequence[float],
           unseen_total: int, features: Features = loss_features) -> list[float]:
    """The loss of every option of a ranked list (`options`, best first, `base` their base values): 0 for the
    options ranked 1; else the linear loss (of `features`: the discards', or the answers' `claim_loss_features`)
    against the first option, raised to the largest loss ranked above it, and options of one rank share the largest
    loss among them. O(options)."""
    first = options[0]
    out: list[float] = []
    most = 0.0
    for option, value in zip(options, base):
        if option.rank > first.rank:
            most = max(most, raw_loss(weights, features(first, option, base[0], value, unseen_total)))
        out.append(most if option.rank > first.rank else 0.0)
    for i in range(len(out) - 2, -1, -1):  # one rank, one loss: the largest of its options
        if options[i].rank == options[i + 1].rank:
            out[i] = out[i + 1]
    return out
