"""The arena's figures: per policy and for every two policies, from per-deal values.

The unit is the deal: a policy's value on a deal is its mean score over the seats it played in every rotation of
that deal. Deals are independent, and every policy played the same cards from every seat of a deal, so the values
of two policies on one deal are paired. The rotations already take the luck of the seats out of each value; and
with two policies on a zero-sum settlement the two values are tied (A,B,A,B: B's is minus A's), so the paired
difference is a fixed multiple of A's value and its interval is as wide as the two separate ones end to end
(docs/advice.md#arena-how-strong-the-advice-plays).

- A mean's 95% interval is normal: mean +- z * sd / sqrt(n), z = 1.96, sd the sample standard deviation of the n
  per-deal values (n - 1 in the denominator); with fewer than two deals there is no interval.
- Per policy: the mean score per round with its interval, the win rate, the rate of paying (delta < 0), the mean
  points of its wins, and the rounds (seat-rounds) it played.
- Every two policies A, B: the mean of the per-deal differences A - B with its interval, and whether the interval
  excludes 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..search.stats import Interval, rounded

Z95 = 1.96


def interval(values: Sequence[float], z: float = Z95) -> Interval:
    """The mean of `values` with its normal interval, mean +- z * sd / sqrt(n)."""
    n = len(values)
    if n == 0:
        raise ValueError("an interval needs at least one value")
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean, None, None, n)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)


def score(result: Any, measure: str) -> float:
    """A seat's score: its settlement delta, or 1 for a win where nobody pays (`measure` "win")."""
    return float(result.won) if measure == "win" else float(result.delta)


def per_deal(deals: Sequence[Sequence[Sequence[Any]]], names: Sequence[str], measure: str) -> list[dict[str, float]]:
    """Each deal's value of each policy: its mean score over the seats it played in every rotation."""
    table = []
    for rounds in deals:
        scores: dict[str, list[float]] = {name: [] for name in names}
        for seats in rounds:
            for result in seats:
                scores[result.policy].append(score(result, measure))
        table.append({name: math.fsum(v) / len(v) for name, v in scores.items()})
    return table


def summary(deals: Sequence[Sequence[Sequence[Any]]], names: Sequence[str], measure: str) -> dict[str, Any]:
    """Per policy and per pair of policies (`names` distinct, in the order given)."""
    values = per_deal(deals, names, measure)
    policies = []
    for name in names:
        mine = [r for rounds in deals for seats in rounds for r in seats if r.policy == name]
        wins = [r.points for r in mine if r.won]
        policies.append({
            "policy": name, "score": interval([v[name] for v in values]).to_json(),
            "win_rate": rounded(len(wins) / len(mine)), "pay_rate": rounded(sum(r.delta < 0 for r in mine) / len(mine)),
            "mean_win_points": rounded(math.fsum(wins) / len(wins)) if wins else None, "rounds": len(mine)})
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            diff = interval([v[a] - v[b] for v in values])
            pairs.append({"a": a, "b": b, "difference": diff.to_json(), "excludes_zero": diff.excludes_zero()})
    return {"per_policy": policies, "pairs": pairs}
