"""Paired branches: one discard decision of an advice-against-advice round, played on two ways from the same true
deal (the same hands, the same stock in the same order, the advice in every seat), so that the difference of the two
outcomes prices one option against the other with far less noise than either outcome alone (the rest of the round
is the same cards in both branches; only what the decision changes differs).

The loss model (`python -m service learn --loss`, docs/advice.md#value) is fitted on such pairs of training seeds;
bench/counterfactual.py judges the review's prices on pairs of a seed never trained on.

- `Brancher`: the advice for one seat, keeping every discard and claim decision it meets, and at its discard number
  `at` discarding `card` instead (after asking the advice, so that a follow-up planned with a claim is spent as it
  would be), or at its claim decision number `claim_at` giving the answer `answer` (pass, or a claim and the
  discard the claim analysis names after it).
- `branch`, `claim_branch`: the deciding seat's settlement of the round replayed with one discard, or one answer to
  a public card, changed. The advice and the round driver draw on no random source, so a branch replays the round
  move for move up to the decision; that the seat sees the same hand and the same public cards there is checked,
  never assumed. An answer played in a branch is only offered: a claim may still lose the card to a claim of
  higher priority, and the branch realises whatever then happens.
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
from ..rules.analysis import WIN_KINDS, ClaimAnalysis, ClaimOption, DiscardOption, Wait
from ..rules.registry import get_ruleset
from .advice import Advice, claim_analysis
from .duplicate import SEATS, Arena, play_with, seat_results
from .parallel import in_order
from .seat import analyse

#: Deals handed out ahead of the one being read, per process.
BATCH = 8
#: One decision's record: (seat, its discard number, its view, the card it discarded).
Decision = tuple[int, int, SeatView, int]
#: One claim decision's record: (seat, its claim decision number, its view, the public card, the advice's analysis
#: of the answers, the answer it gave: the option's `answer_key`).
ClaimDecision = tuple[int, int, SeatView, int, ClaimAnalysis, tuple[str, tuple[int, ...]]]


def has_choice(analysis: ClaimAnalysis) -> bool:
    """Whether a claim decision is a choice between pass and claims: no forced take, no win offered."""
    return not analysis.forced and not any(o.kind in WIN_KINDS for o in analysis.options)


def answer_key(option: ClaimOption) -> tuple[str, tuple[int, ...]]:
    """What names an answer among those to one public card: its kind and its meld's cards (pass: `pass`, ())."""
    return option.kind, option.cards


class Brancher(Advice):
    """The advice for one seat, counting its discards and its answers to public cards: it keeps every decision
    (`into`, `claims_into`), and at its discard number `at` discards `card` instead (after asking the advice, so
    that a planned follow-up is spent as it would be), or at its claim decision number `claim_at` gives the answer
    named `answer` (`answer_key`) instead of the advice's."""

    def __init__(self, seat: int, into: list[Decision] | None = None, at: int | None = None,
                 card: int | None = None, claims_into: list[ClaimDecision] | None = None,
                 claim_at: int | None = None, answer: tuple[str, tuple[int, ...]] | None = None) -> None:
        super().__init__()
        self.seat, self.into, self.at, self.card = seat, into, at, card
        self.claims_into, self.claim_at, self.answer_named = claims_into, claim_at, answer
        self.count = self.claims = 0
        self.view: SeatView | None = None  # the view at discard `at`
        self.claim_view: SeatView | None = None  # the view at claim decision `claim_at`

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Any, forced: bool) -> Any:
        analysis = claim_analysis(view, card, source, role, self.ranking)
        number, self.claims = self.claims, self.claims + 1
        if number == self.claim_at and self.answer_named is not None:
            self.claim_view = view
            chosen = [o for o in analysis.options if answer_key(o) == self.answer_named]
            analysis = ClaimAnalysis(tuple(chosen), analysis.forced, analysis.unseen_total)
        answer = self.answer(view, card, legal, analysis)
        if self.claims_into is not None:
            given = next((o for o in analysis.options if o.claim is None or o.claim == answer), None)
            self.claims_into.append((self.seat, number, view, card, analysis,
                                     answer_key(given) if given is not None else ("pass", ())))
        return answer

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


def played(arena: Arena, deal: int, claims: list[ClaimDecision] | None = None) -> tuple[dict, list[Decision]]:
    """Deal `deal` played with the advice in every seat: its log and every discard decision of every seat (and
    every claim decision into `claims`, when given)."""
    seen: list[Decision] = []
    log = play_with(arena, deal, [Brancher(s, into=seen, claims_into=claims) for s in range(SEATS)])
    return log, seen


def claim_branch(arena: Arena, deal: int, decision: ClaimDecision, answer: tuple[str, tuple[int, ...]],
                 pays: bool) -> float:
    """The deciding seat's settlement of deal `deal` replayed with the advice everywhere, but for that seat's
    answer at claim `decision`, which is the one named `answer`."""
    seat, at, view = decision[:3]
    players = [Brancher(s, claim_at=at if s == seat else None, answer=answer) for s in range(SEATS)]
    return replayed(arena, deal, players, seat, view, lambda p: p.claim_view, f"claim {at}", pays)


def branch(arena: Arena, deal: int, decision: Decision, card: int, pays: bool) -> float:
    """The deciding seat's settlement of deal `deal` replayed with the advice everywhere, but for that seat's
    discard of `decision`, which is `card`."""
    seat, at, view, _ = decision
    players = [Brancher(s, at=at if s == seat else None, card=card) for s in range(SEATS)]
    return replayed(arena, deal, players, seat, view, lambda p: p.view, f"discard {at}", pays)


def replayed(arena: Arena, deal: int, players: list[Brancher], seat: int, view: SeatView,
             seen: Callable[[Brancher], SeatView | None], what: str, pays: bool) -> float:
    """Deal `deal` played by `players`: the seat's settlement, once it is checked that the seat saw at its
    decision (`seen`) the hand and the public cards of `view`."""
    log = play_with(arena, deal, players)
    there = seen(players[seat])
    if there is None or there.hand != view.hand or there.visible != view.visible:
        raise RuntimeError(f"deal {deal}: the branch did not replay the round up to seat {seat}'s {what}")
    return outcome(log, seat, pays)


def option_record(option: DiscardOption) -> dict[str, Any]:
    """An option as plain data (`option_from` reads it back)."""
    return dataclasses.asdict(option)


def figures_from(record: dict[str, Any]) -> dict[str, Any]:
    """The fields of an option written as plain data, with its waits and improving cards as the option holds them."""
    fields = dict(record)
    fields["waits"] = tuple(Wait(w["card"], w["unseen"], tuple(w["claims"]), w["points"], w["gain"])
                            for w in record["waits"])
    fields["improving"] = tuple(tuple(pair) for pair in record["improving"])
    return fields


def option_from(record: dict[str, Any]) -> DiscardOption:
    """The option `option_record` wrote."""
    return DiscardOption(**figures_from(record))


@dataclass(frozen=True)
class Played:
    """Deal `deal` of an advice-against-advice arena, played: its log, its discard decisions in a random order
    (drawn by `rng`, seeded by what the draw is for, the rule-set, the seed and the deal), its claim decisions in a
    random order of their own (`claim_rng`, seeded likewise), and whether the rule-set's default options settle in
    points."""

    arena: Arena
    deal: int
    pays: bool
    log: dict
    decisions: list[Decision]
    rng: random.Random
    claims: list[ClaimDecision] = dataclasses.field(default_factory=list)
    claim_rng: random.Random = dataclasses.field(default_factory=random.Random)  # the claims' own draws

    def answered(self, decision: ClaimDecision, answer: tuple[str, tuple[int, ...]]) -> float:
        """The deciding seat's settlement after giving `answer` at claim `decision`: the round already played where
        the advice gave that very answer, else a branch."""
        if decision[5] == answer:
            return outcome(self.log, decision[0], self.pays)
        return claim_branch(self.arena, self.deal, decision, answer, self.pays)

    def settled(self, decision: Decision, card: int) -> float:
        """The deciding seat's settlement after discarding `card` at `decision`: the round already played where the
        advice discarded that very card, else a branch."""
        if decision[3] == card:
            return outcome(self.log, decision[0], self.pays)
        return branch(self.arena, self.deal, decision, card, self.pays)


def drawn(ruleset: str, seed: int, deal: int, purpose: str) -> Played:
    """Deal `deal` of `seed` played with the advice in every seat, its decisions shuffled for `purpose`."""
    arena = Arena(ruleset, ("advice",) * SEATS, seed)
    claims: list[ClaimDecision] = []
    log, seen = played(arena, deal, claims)
    rng = random.Random(f"{purpose}/{ruleset}/{seed}/{deal}")
    rng.shuffle(seen)
    claim_rng = random.Random(f"{purpose}/claims/{ruleset}/{seed}/{deal}")  # the discards' draws stay as they were
    claim_rng.shuffle(claims)
    return Played(arena, deal, paying(ruleset), log, seen, rng, claims, claim_rng)


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


def answer_record(option: ClaimOption) -> dict[str, Any]:
    """An answer to a public card as plain data (`answer_from` reads it back): what its loss features read, its
    follow-up discard as `option_record` writes it; the engine's claim object is left out."""
    fields = {f.name: getattr(option, f.name) for f in dataclasses.fields(option) if f.name not in ("claim", "follow")}
    fields["waits"] = [dataclasses.asdict(w) for w in option.waits]
    return {**fields, "follow": None if option.follow is None else option_record(option.follow)}


def answer_from(record: dict[str, Any]) -> ClaimOption:
    """The answer `answer_record` wrote (with no claim object)."""
    fields = figures_from(record)
    fields["cards"] = tuple(record["cards"])
    fields["follow"] = None if record["follow"] is None else option_from(record["follow"])
    return ClaimOption(claim=None, **fields)


def claim_training_pairs(ruleset: str, seed: int, deal: int, others: int) -> dict[str, Any]:
    """Deal `deal` of `seed`: one of its claim decisions drawn at random among those with an answer ranked below
    the first (a forced take, a decision where a win is offered and a claim that cannot take the card left out),
    the first answer and up to `others` answers ranked below it (drawn at random) each played out: the record as
    `training_pairs` writes it, of answers."""
    round_ = drawn(ruleset, seed, deal, "claim-branches")
    for decision in round_.claims:
        analysis = decision[4]
        if not has_choice(analysis):
            continue
        below = [o for o in analysis.options if o.rank > 1 and not o.preempted]
        if not below:
            continue
        first = analysis.options[0]
        chosen = round_.claim_rng.sample(below, min(others, len(below)))
        return {"deal": deal, "decision": decision[:2], "unseen_total": analysis.unseen_total,
                "first": {**answer_record(first), "realised": round_.answered(decision, answer_key(first))},
                "others": [{**answer_record(o), "realised": round_.answered(decision, answer_key(o))}
                           for o in chosen]}
    return {"deal": deal, "decision": None}


def _claim_training_pairs(job: tuple[str, int, int, int]) -> dict[str, Any]:
    return claim_training_pairs(*job)


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
