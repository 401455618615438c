"""Running statistics of one candidate discard over playouts, and their confidence intervals.

Proportions (win, paying) use the Wilson score interval, which stays inside [0, 1] and behaves at 0 or n
successes; the expected settlement uses the normal approximation of the mean (sample standard deviation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .deal import Outcome


@dataclass(frozen=True)
class Interval:
    """An estimate and its confidence interval; the arena's also counts its values (`n`) and has no bounds with
    fewer than two of them (low/high None)."""

    mean: float
    low: float | None
    high: float | None
    n: int | None = None  # the values behind it, where the figure reports them (the arena's); the search's: None

    def excludes_zero(self) -> bool:
        """Whether the interval lies wholly on one side of 0."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    def to_json(self) -> dict[str, Any]:
        """Rounded to six decimals for reading (the same text for the same figures); `n` as it is, when counted."""
        out: dict[str, Any] = {"mean": rounded(self.mean), "low": rounded(self.low), "high": rounded(self.high)}
        if self.n is not None:
            out["n"] = self.n
        return out


def rounded(value: float | None) -> float | None:
    """Six decimals: enough to read, and the same text for the same figures."""
    return None if value is None else round(value, 6)


def wilson(successes: int, n: int, z: float) -> Interval:
    """Wilson score interval of a proportion."""
    if n == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(total: float, squares: float, n: int, z: float) -> Interval:
    """Normal-approximation interval of a mean from its sums (sample variance; a single value: zero width)."""
    if n == 0:
        return Interval(0.0, -math.inf, math.inf)
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    half = z * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half)


@dataclass(frozen=True)
class CandidateStats:
    """What the playouts of one candidate discard say."""

    card: int
    exact_rank: int | None
    playouts: int
    win_probability: Interval
    expected_settlement: Interval
    pay_probability: Interval
    mean_winning_points: float | None
    eliminated_after: int | None = None  # the deals after which the search stopped playing it; None: in play
    # its objective minus the first candidate's, deal by deal over the deals both played (None for the first)
    versus_first: Interval | None = None

    def to_json(self, code: Any) -> dict[str, Any]:
        """JSON with the card as its code."""
        points = self.mean_winning_points
        return {"card": code(self.card), "exact_rank": self.exact_rank, "playouts": self.playouts,
                "win_probability": self.win_probability.to_json(),
                "expected_settlement": self.expected_settlement.to_json(),
                "pay_probability": self.pay_probability.to_json(),
                "mean_winning_points": None if points is None else round(points, 6),
                "eliminated_after": self.eliminated_after,
                "versus_first": None if self.versus_first is None else self.versus_first.to_json()}


class Accumulator:
    """Sums over the playouts of one candidate, and over its paired differences from the first candidate."""

    __slots__ = ("card", "rank", "n", "wins", "total", "squares", "pays", "points", "eliminated_after", "last",
                 "paired", "paired_total", "paired_squares")

    def __init__(self, card: int, rank: int | None) -> None:
        self.card, self.rank = card, rank
        self.eliminated_after: int | None = None
        self.n = self.wins = self.total = self.squares = self.pays = self.points = 0
        self.last: Outcome | None = None
        self.paired = 0
        self.paired_total: float = 0
        self.paired_squares: float = 0

    def add(self, outcome: Outcome) -> None:
        """Count one playout."""
        won, delta, points = outcome
        self.last = outcome
        self.n += 1
        self.total += delta
        self.squares += delta * delta
        if won:
            self.wins += 1
            self.points += points
        if delta < 0:
            self.pays += 1

    def pair(self, first: Accumulator, name: str) -> None:
        """Count this deal's difference from the `first` candidate's playout of the same deal, in objective `name`
        (both have just played it)."""
        diff = value_of(self.last, name) - value_of(first.last, name)
        self.paired += 1
        self.paired_total += diff
        self.paired_squares += diff * diff

    def objective(self, name: str, z: float) -> Interval:
        """The interval of the objective the search compares candidates on."""
        if name == "win_probability":
            return wilson(self.wins, self.n, z)
        return mean_interval(self.total, self.squares, self.n, z)

    def stats(self, z: float) -> CandidateStats:
        """The candidate's figures with their intervals."""
        versus = mean_interval(self.paired_total, self.paired_squares, self.paired, z) if self.paired else None
        return CandidateStats(self.card, self.rank, self.n, wilson(self.wins, self.n, z),
                              mean_interval(self.total, self.squares, self.n, z), wilson(self.pays, self.n, z),
                              self.points / self.wins if self.wins else None, self.eliminated_after, versus)


def value_of(outcome: Any, name: str) -> float:
    """One playout's value in the objective `name`: 1 or 0 for a win (win probability), else the settlement."""
    won, delta, _ = outcome
    return (1.0 if won else 0.0) if name == "win_probability" else float(delta)
