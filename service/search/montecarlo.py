"""The deep suggested-discard search: Monte Carlo playouts of every candidate discard on the same sampled deals.

Common random numbers: deal i is always the same deal for a seed (`deal.py`; the other seats' hands shaped by the
turns played so far, `shaping.py`, unless `dealing` is "uniform"), and every candidate is played on it with the
same random source for the opponents, so the differences between candidates are not drowned by the
differences between deals. Per candidate: the win probability and the probability of paying (Wilson intervals),
the expected settlement (normal interval) and the mean points of his wins. The objective the candidates are
ranked on is the expected settlement, or the win probability where the rule-set has no payments
(cardavia-flowers with payment none).

Successive elimination: at `min_samples` deals and every `CHECK_EVERY` deals after, the leader is the candidate
still in play with the best mean objective, and every candidate whose upper bound on the objective is below the
leader's lower bound stops being played. It keeps the figures of the deals it played (`eliminated_after` says how
many), and the deals that follow go to the candidates still in contention: each deal costs fewer playouts, so the
leader's interval narrows faster for the same time. The checks fall on fixed deal counts, never on the clock, so
elimination is as reproducible as the deals.

The search stops when `samples` deals are done (`samples`), when `time_budget` seconds have passed (`time_budget`;
at least one deal is always played), or when elimination leaves one candidate (`leader_clear`; two candidates at
least to begin with). The clock is read between deals and at every turn of a playout after the first deal; a deal
the budget cuts short is dropped for every candidate, so a search overruns its budget by one turn of play and the
dealing of one deal, not by a whole deal of every candidate. Same seed and samples give the same answer; a time
budget may cut it short, but deal i is always the same deal.

Multiple comparisons: every comparison is made at a fixed 95% (the search's `confidence`, 0.95 unless given) on its
own, with no correction for how many are made: one per candidate against the leader at each check. The chance that
some check drops a candidate that is in truth as good as the leader is therefore larger than 5%, and grows with the
candidates and the checks; an eliminated candidate is "clearly behind at 95% when it was dropped", not "worse at
95%". Setting two separate intervals side by side, rather than one interval on the paired difference, makes each
comparison stricter than its level, which offsets part of this but is no guarantee.

Paired difference: every candidate after the first also gets its objective minus the first candidate's, deal by
deal, over the deals both played (`CandidateStats.versus_first`). Common random numbers make most of the deal's luck
cancel out of this difference, so its interval is the sharp test of "does this candidate beat the first one" (the
arena's `search` policy leaves the advice's first discard only on that evidence).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from ..rules.errors import DomainError
from ..rules.text import text
from .deal import deal_rng
from .families import deal_for, search_family, table_of
from .player import OutOfTime
from .position import Position
from .shaping import DEALINGS
from .stats import Accumulator, CandidateStats

DEFAULT_CANDIDATES = 4
PROGRESS_EVERY = 50
CHECK_EVERY = 50  # deals between elimination checks, after the first at min_samples


@dataclass(frozen=True)
class SearchResult:
    """The candidates best first (those still in play by their objective, then the eliminated, the last dropped
    first), why the search stopped, and what it cost."""

    candidates: tuple[CandidateStats, ...]
    objective: str  # "expected_settlement" or "win_probability"
    stopped: str  # "samples", "time_budget" or "leader_clear"
    deals: int
    playouts: int
    elapsed: float
    seed: int
    samples: int
    confidence: float
    min_samples: int
    policies: dict[str, str]
    analyses: int  # distinct player hands analysed exactly
    code: Callable[[int], str]
    dealing: str = "shaped"  # how the other seats' hands are dealt: "shaped" (`shaping.py`) or "uniform"

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
            "confidence": self.confidence, "min_samples": self.min_samples, "check_every": CHECK_EVERY,
            "policies": dict(self.policies), "dealing": self.dealing, "analyses": self.analyses,
            "timing": {"elapsed_seconds": round(self.elapsed, 4),
                       "playouts_per_second": round(self.playouts_per_second, 1)},
        }


def objective_of(position: Position) -> str:
    """Expected settlement, or the win probability where nobody pays (the rule-set's search objective)."""
    return position.ruleset.objective(position.options)


def search(position: Position, candidates: Sequence[int] | None = None, *, samples: int, time_budget: float,
           seed: int, confidence: float = 0.95, min_samples: int = 200,
           progress: Callable[[int, int], None] | None = None, clock: Callable[[], float] = time.perf_counter,
           dealing: str = "shaped") -> SearchResult:
    """Compare candidate discards (default: the top 4 of the exact ranking) by playing out sampled deals, the other
    seats' hands `dealing` "shaped" by the play so far (`shaping.py`) or "uniform"."""
    start = clock()
    _check_limits(samples, time_budget, confidence, min_samples)
    if dealing not in DEALINGS:  # the API's schema admits only these
        raise ValueError(f"dealing must be one of {DEALINGS}, not {dealing!r}")
    table = table_of(position)
    play = search_family(position.ruleset).playout
    ranks = dict(table.start.ranking)
    chosen = _candidates(position, candidates, table.start.ranking)
    runs = [Accumulator(card, ranks.get(card)) for card in chosen]
    playing = list(runs)
    objective, z = objective_of(position), NormalDist().inv_cdf((1 + confidence) / 2)
    deals, stopped = 0, "samples"
    opponents = random.Random()

    def expired() -> bool:
        return clock() - start >= time_budget

    while deals < samples:
        rng = deal_rng(seed, deals)
        deal = deal_for(table, rng, dealing)
        play_seed = rng.getrandbits(64)
        outcomes = []
        try:
            for run in playing:
                opponents.seed(play_seed)  # the state of random.Random(play_seed), without a new generator
                # the first deal is always played to the end; a later one stops at the budget and is dropped
                outcomes.append(play(table, run.card, deal, opponents, None, expired if deals else None))
        except OutOfTime:  # every candidate plays a deal or none does: the pairs stay paired
            stopped = "time_budget"
            break
        for run, outcome in zip(playing, outcomes, strict=True):
            run.add(outcome)
        if playing[0] is runs[0]:  # paired with the first candidate on the same deal (common random numbers)
            for run in playing[1:]:
                run.pair(runs[0], objective)
        deals += 1
        if progress is not None and (deals % PROGRESS_EVERY == 0 or deals == samples):
            progress(deals, samples)
        if deals >= samples:
            break
        if expired():
            stopped = "time_budget"
            break
        if len(playing) > 1 and _is_check(deals, min_samples):
            playing = _eliminate(playing, deals, objective, z)
            if len(playing) == 1:
                stopped = "leader_clear"
                break
    if progress is not None and deals % PROGRESS_EVERY and deals != samples:
        progress(deals, samples)  # a search stopped early ends its progress at the deals its result counts
    stats = sorted((run.stats(z) for run in runs), key=lambda s: _best_first(s, objective))
    return SearchResult(tuple(stats), objective, stopped, deals, sum(run.n for run in runs), clock() - start, seed,
                        samples, confidence, min_samples, dict(table.policies), table.planner.analyses, position.code,
                        dealing)


def _check_limits(samples: int, time_budget: float, confidence: float, min_samples: int) -> None:
    """The search limits, each a DomainError naming it when out of range."""
    if not isinstance(samples, int) or isinstance(samples, bool) or samples < 1:
        raise DomainError(text("samples must be a positive integer"), "samples", code="invalid_field")
    if not time_budget > 0:
        raise DomainError(text("time_budget must be positive seconds"), "time_budget", code="invalid_field")
    if not 0 < confidence < 1:
        raise DomainError(text("confidence must be between 0 and 1"), "confidence", code="invalid_field")
    if min_samples < 1:
        raise DomainError(text("min_samples must be at least 1"), "min_samples", code="invalid_field")


def parse_candidates(position: Position, texts: Sequence[object] | None) -> list[int] | None:
    """A request's candidate codes as legal discards, each once (errors name `candidates.N`); None stays None
    (the exact ranking's best). Raises `no_legal_discard` for a hand with none either way."""
    cards = None if texts is None else [position.card(text, f"candidates.{i}") for i, text in enumerate(texts)]
    chosen = _candidates(position, cards, ())
    return None if cards is None else chosen


def _candidates(position: Position, given: Sequence[int] | None, ranking: Sequence[tuple[int, int]]) -> list[int]:
    """The given candidates (each a legal discard, once), or the top of the exact ranking."""
    legal = set(position.legal_discards())
    if not legal:
        raise DomainError(text("the hand has no legal discard (only Generals and flowers; Chắn: rules 2, 3, 6, or a "
                               "dead hand)"), "hand", code="no_legal_discard")
    if given is None:
        return [card for card, _ in ranking[:DEFAULT_CANDIDATES] if card in legal]
    if not given:
        raise DomainError(text("give at least one candidate, or none for the exact ranking's best"), "candidates",
                          code="invalid_field")
    chosen: list[int] = []
    for i, card in enumerate(given):
        if card not in legal:
            raise DomainError(text("{card} is not a legal discard of this hand", card=position.code(card)),
                                   f"candidates.{i}",
                              code="illegal_discard")
        if card in chosen:  # the same card twice would only be played twice over
            raise DomainError(text("{card} is already candidate {index}", card=position.code(card),
                                   index=given.index(card)), f"candidates.{i}",
                              code="duplicate_candidate")
        chosen.append(card)
    return chosen


def _is_check(deals: int, min_samples: int) -> bool:
    """Elimination is checked at min_samples deals and every CHECK_EVERY deals after: fixed counts, not times."""
    return deals >= min_samples and (deals - min_samples) % CHECK_EVERY == 0


def _eliminate(playing: Sequence[Accumulator], deals: int, objective: str, z: float) -> list[Accumulator]:
    """The candidates still in contention: every one whose upper bound is below the leader's lower bound is
    dropped (marked with the deals it played); the leader, the best mean, always stays."""
    intervals = {run.card: run.objective(objective, z) for run in playing}
    leader = min(playing, key=lambda run: (-intervals[run.card].mean, run.rank or 0, run.card))
    kept = []
    for run in playing:
        high, low = intervals[run.card].high, intervals[leader.card].low
        if high is not None and low is not None and high < low:
            run.eliminated_after = deals
        else:
            kept.append(run)
    return kept


def _best_first(stats: CandidateStats, objective: str) -> tuple[bool, int, float, int, int]:
    """Sort key: candidates still in play by their objective, then the eliminated, the last dropped first."""
    value = stats.win_probability if objective == "win_probability" else stats.expected_settlement
    dropped = stats.eliminated_after
    return dropped is not None, -(dropped or 0), -value.mean, stats.exact_rank or 0, stats.card
