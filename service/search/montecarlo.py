"""The deep suggested-discard search: Monte Carlo playouts of every candidate discard on the same sampled deals.

Common random numbers: deal i is always the same deal for a seed (`deal.py`), and every candidate is played on
it with the same random source for the opponents, so the differences between candidates are not drowned by the
differences between deals. Per candidate: the win probability and the probability of paying (Wilson intervals),
the expected settlement (normal interval) and the mean points of his wins. The objective the candidates are
ranked on is the expected settlement, or the win probability where the rule-set has no payments
(cardavia-flowers with payment none).

The search stops when `samples` deals are done (`samples`), when `time_budget` seconds have passed (`time_budget`;
at least one deal is always played), or, after `min_samples` deals, when the leader is clear: its lower bound on
the objective is above every other candidate's upper bound (`leader_clear`; two candidates at least). Same seed
and samples give the same answer; a time budget may cut it short, but deal i is always the same deal.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from ..rules.errors import DomainError
from . import chan, fourcolor
from .deal import deal_rng, sample_deal
from .player import Planner
from .position import Position
from .stats import Accumulator, CandidateStats

DEFAULT_CANDIDATES = 4
PROGRESS_EVERY = 50


@dataclass(frozen=True)
class SearchResult:
    """The candidates best first, why the search stopped, and what it cost."""

    candidates: tuple[CandidateStats, ...]
    objective: str  # "expected_settlement" or "win_probability"
    stopped: str  # "samples", "time_budget" or "leader_clear"
    deals: int
    playouts: int
    elapsed: float
    seed: int
    samples: int
    confidence: float
    policies: dict[str, str]
    analyses: int  # distinct player hands analysed exactly
    code: Callable[[int], str]

    @property
    def playouts_per_second(self) -> float:
        """Playouts over the elapsed time (the exact analyses included)."""
        return self.playouts / self.elapsed if self.elapsed > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON-friendly answer, cards as codes; timing apart, since only it differs between equal searches."""
        return {
            "objective": self.objective, "stopped": self.stopped, "best": self.code(self.candidates[0].card),
            "candidates": [c.to_json(self.code) for c in self.candidates],
            "deals": self.deals, "playouts": self.playouts, "samples": self.samples, "seed": self.seed,
            "confidence": self.confidence, "policies": dict(self.policies), "analyses": self.analyses,
            "timing": {"elapsed_seconds": round(self.elapsed, 4),
                       "playouts_per_second": round(self.playouts_per_second, 1)},
        }


def objective_of(position: Position) -> str:
    """Expected settlement, or the win probability where nobody pays (RULES.md 1 flowers: no payments [D])."""
    if position.ruleset.id == "cardavia-flowers" and position.options["payment"] == "none":
        return "win_probability"
    return "expected_settlement"


def search(position: Position, candidates: Sequence[int] | None = None, *, samples: int, time_budget: float,
           seed: int, confidence: float = 0.95, min_samples: int = 200,
           progress: Callable[[int, int], None] | None = None, clock: Callable[[], float] = time.perf_counter
           ) -> SearchResult:
    """Compare candidate discards (default: the top 4 of the exact ranking) by playing out sampled deals."""
    start = clock()
    _check_limits(samples, time_budget, confidence, min_samples)
    table: Any = (chan.ChanTable if position.family == "chan" else fourcolor.FourColorTable)(position,
                                                                                             Planner(position))
    play = chan.playout if position.family == "chan" else fourcolor.playout
    ranks = dict(table.start.ranking)
    chosen = _candidates(position, candidates, table.start.ranking)
    runs = [Accumulator(card, ranks.get(card)) for card in chosen]
    objective, z = objective_of(position), NormalDist().inv_cdf((1 + confidence) / 2)
    deals, stopped = 0, "samples"
    while deals < samples:
        rng = deal_rng(seed, deals)
        deal = sample_deal(position, rng)
        play_seed = rng.getrandbits(64)
        for run in runs:
            run.add(play(table, run.card, deal, random.Random(play_seed)))
        deals += 1
        if progress is not None and (deals % PROGRESS_EVERY == 0 or deals == samples):
            progress(deals, samples)
        if deals >= samples:
            break
        if clock() - start >= time_budget:
            stopped = "time_budget"
            break
        if deals >= min_samples and _leader_clear(runs, objective, z):
            stopped = "leader_clear"
            break
    stats = [run.stats(z) for run in runs]
    order = {run.card: (-run.objective(objective, z).mean, run.rank or 0, run.card) for run in runs}
    stats.sort(key=lambda s: order[s.card])
    return SearchResult(tuple(stats), objective, stopped, deals, deals * len(runs), clock() - start, seed, samples,
                        confidence, dict(table.policies), table.planner.analyses, position.code)


def _check_limits(samples: int, time_budget: float, confidence: float, min_samples: int) -> None:
    """The search limits, each a DomainError naming it when out of range."""
    if not isinstance(samples, int) or isinstance(samples, bool) or samples < 1:
        raise DomainError("samples must be a positive integer", "samples", code="invalid_field")
    if not time_budget > 0:
        raise DomainError("time_budget must be positive seconds", "time_budget", code="invalid_field")
    if not 0 < confidence < 1:
        raise DomainError("confidence must be between 0 and 1", "confidence", code="invalid_field")
    if min_samples < 1:
        raise DomainError("min_samples must be at least 1", "min_samples", code="invalid_field")


def _candidates(position: Position, given: Sequence[int] | None, ranking: Sequence[tuple[int, int]]) -> list[int]:
    """The given candidates (each a legal discard, once), or the top of the exact ranking."""
    legal = set(position.legal_discards())
    if not legal:
        raise DomainError("the hand has no legal discard (only Generals and flowers; Chắn: rules 2, 3, 6, or a "
                          "dead hand)", "hand", code="no_legal_discard")
    if given is None:
        return [card for card, _ in ranking[:DEFAULT_CANDIDATES] if card in legal]
    if not given:
        raise DomainError("give at least one candidate, or none for the exact ranking's best", "candidates",
                          code="invalid_field")
    chosen: list[int] = []
    for i, card in enumerate(given):
        if card not in legal:
            raise DomainError(f"{position.code(card)} is not a legal discard of this hand", f"candidates.{i}",
                              code="illegal_discard")
        if card not in chosen:
            chosen.append(card)
    return chosen


def _leader_clear(runs: Sequence[Accumulator], objective: str, z: float) -> bool:
    """The leader's lower bound is above every other candidate's upper bound (two candidates at least)."""
    if len(runs) < 2:
        return False
    intervals = sorted((run.objective(objective, z) for run in runs), key=lambda i: -i.mean)
    return all(intervals[0].low > other.high for other in intervals[1:])
