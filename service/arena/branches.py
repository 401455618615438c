"""Paired branches: one discard decision of an advice-against-advice round, played on two ways from the same true
deal (the same hands, the same stock in the same order, the advice in every seat), so that the difference of the two
outcomes prices one option against the other with far less noise than either outcome alone (the rest of the round
is the same cards in both branches; only what the decision changes differs).

The loss model (`python -m service learn --loss`, docs/advice.md#value) is fitted on such pairs of training seeds;
bench/counterfactual.py judges the review's prices on pairs of a seed never trained on.

- `Brancher`: the advice for one seat, keeping every discard decision it meets, and at its discard number `at`
  discarding `card` instead (after asking the advice, so that a follow-up planned with a claim is spent as it would
  be).
- `branch`: the deciding seat's settlement of the round replayed with one discard changed. The advice and the round
  driver draw on no random source, so a branch replays the round move for move up to the decision; that the seat
  sees the same hand and the same public cards there is checked, never assumed.
- `outcome`: a seat's settlement in the objective's unit: its delta in points, or where nobody pays 1 for a win.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..replay.decisions import SeatView
from ..rules.analysis import DiscardOption, Wait
from ..rules.registry import get_ruleset
from .advice import Advice
from .duplicate import SEATS, Arena, play_with, seat_results
from .parallel import in_order
from .seat import analyse

#: Deals handed out ahead of the one being read, per process.
BATCH = 8
#: One decision's record: (seat, its discard number, its view, the card it discarded).
Decision = tuple[int, int, SeatView, int]


class Brancher(Advice):
    """The advice for one seat, counting its discards: it keeps every decision (`into`), and at its discard number
    `at` discards `card` instead (after asking the advice, so that a planned follow-up is spent as it would be)."""

    def __init__(self, seat: int, into: list[Decision] | None = None, at: int | None = None,
                 card: int | None = None) -> None:
        super().__init__()
        self.seat, self.into, self.at, self.card = seat, into, at, card
        self.count = 0
        self.view: SeatView | None = None  # the view at discard `at`

    def discard(self, view: SeatView) -> int:
        card = super().discard(view)
        if self.count == self.at and self.card is not None:
            card, self.view = self.card, view
        if self.into is not None:
            self.into.append((self.seat, self.count, view, card))
        self.count += 1
        return card


def paying(ruleset: str) -> bool:
    """Whether the rule-set's default options settle in points (else the objective is the chance to win)."""
    rs = get_ruleset(ruleset)
    return rs.objective(rs.resolve_options({})) == "expected_settlement"


def outcome(log: dict, seat: int, pays: bool) -> float:
    """The seat's settlement of a round: its delta, or where nobody pays 1 for a win."""
    result = seat_results(log, ["advice"] * SEATS)[seat]
    return float(result.delta) if pays else float(result.won)


def played(arena: Arena, deal: int) -> tuple[dict, list[Decision]]:
    """Deal `deal` played with the advice in every seat: its log and every discard decision of every seat."""
    seen: list[Decision] = []
    log = play_with(arena, deal, [Brancher(s, into=seen) for s in range(SEATS)])
    return log, seen


def branch(arena: Arena, deal: int, decision: Decision, card: int, pays: bool) -> float:
    """The deciding seat's settlement of deal `deal` replayed with the advice everywhere, but for that seat's
    discard of `decision`, which is `card`."""
    seat, at, view, _ = decision
    players = [Brancher(s, at=at if s == seat else None, card=card) for s in range(SEATS)]
    log = play_with(arena, deal, players)
    seen = players[seat].view
    if seen is None or seen.hand != view.hand or seen.visible != view.visible:
        raise RuntimeError(f"deal {deal}: the branch did not replay the round up to seat {seat}'s discard {at}")
    return outcome(log, seat, pays)


def option_record(option: DiscardOption) -> dict[str, Any]:
    """An option as plain data (`option_from` reads it back)."""
    return dataclasses.asdict(option)


def option_from(record: dict[str, Any]) -> DiscardOption:
    """The option `option_record` wrote."""
    fields = dict(record)
    fields["waits"] = tuple(Wait(w["card"], w["unseen"], tuple(w["claims"]), w["points"], w["gain"])
                            for w in record["waits"])
    fields["improving"] = tuple(tuple(pair) for pair in record["improving"])
    return DiscardOption(**fields)


@dataclass(frozen=True)
class Played:
    """Deal `deal` of an advice-against-advice arena, played: its log, its discard decisions in a random order
    (drawn by `rng`, seeded by what the draw is for, the rule-set, the seed and the deal), and whether the
    rule-set's default options settle in points."""

    arena: Arena
    deal: int
    pays: bool
    log: dict
    decisions: list[Decision]
    rng: random.Random

    def settled(self, decision: Decision, card: int) -> float:
        """The deciding seat's settlement after discarding `card` at `decision`: the round already played where the
        advice discarded that very card, else a branch."""
        if decision[3] == card:
            return outcome(self.log, decision[0], self.pays)
        return branch(self.arena, self.deal, decision, card, self.pays)


def drawn(ruleset: str, seed: int, deal: int, purpose: str) -> Played:
    """Deal `deal` of `seed` played with the advice in every seat, its decisions shuffled for `purpose`."""
    arena = Arena(ruleset, ("advice",) * SEATS, seed)
    log, seen = played(arena, deal)
    rng = random.Random(f"{purpose}/{ruleset}/{seed}/{deal}")
    rng.shuffle(seen)
    return Played(arena, deal, paying(ruleset), log, seen, rng)


def training_pairs(ruleset: str, seed: int, deal: int, others: int) -> dict[str, Any]:
    """Deal `deal` of `seed`: one of its discard decisions drawn at random (among those with an option ranked below
    the first), the first option and up to `others` options ranked below it (drawn at random) each played out. The
    record holds the options as data, the unseen cards they are counted on and each option's realised settlement
    (`decision` None when no decision of the round has an option ranked below the first)."""
    round_ = drawn(ruleset, seed, deal, "branches")
    for decision in round_.decisions:
        analysis = analyse(decision[2])
        below = [o for o in analysis.options if o.rank > 1]
        if not below:
            continue
        first = analysis.options[0]
        chosen = round_.rng.sample(below, min(others, len(below)))
        return {"deal": deal, "decision": decision[:2], "unseen_total": analysis.unseen_total,
                "first": {**option_record(first), "realised": round_.settled(decision, first.card)},
                "others": [{**option_record(o), "realised": round_.settled(decision, o.card)} for o in chosen]}
    return {"deal": deal, "decision": None}


def _training_pairs(job: tuple[str, int, int, int]) -> dict[str, Any]:
    return training_pairs(*job)


def first_found(work: Callable[[tuple[Any, ...]], dict[str, Any]], jobs_of: Callable[[int], tuple[Any, ...]],
                jobs: int, wanted: int, found: Callable[[dict[str, Any]], bool],
                each: Callable[[], object] = lambda: None) -> tuple[list[dict[str, Any]], int]:
    """The first `wanted` records of `deals_in_order` that are `found` (a round may give none), calling `each` on
    every one, and how many deals were played."""
    records: list[dict[str, Any]] = []
    played = 0
    for record in deals_in_order(work, jobs_of, jobs):
        played += 1
        if found(record):
            records.append(record)
            each()
            if len(records) == wanted:
                break
    return records, played


def deals_in_order(work: Callable[[tuple[Any, ...]], dict[str, Any]], jobs_of: Callable[[int], tuple[Any, ...]],
                   jobs: int) -> Iterator[dict[str, Any]]:
    """`work(jobs_of(d))` for deals d = 0, 1, 2, ... in deal order, in `jobs` processes (the same records for any
    `jobs`, every deal being seeded by its number); the caller stops when it has enough (`parallel.in_order`)."""
    return in_order(work, map(jobs_of, itertools.count()), jobs, jobs * BATCH)
