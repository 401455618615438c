"""Off-path calibration of the value loss the review charges, against the loss realised by playing both options.

Over advice-against-advice rounds of a seed never trained on (default 7011): the loss the value model predicts for
discarding another option than the advice's first one, against the loss that discard realised when the round was
played on from there, in ten deciles of prediction.

Why: the review (service/replay/decisions.py, `Pricing.price`) charges a discard the value of the advised option
minus the value of the option played, `max(0, value(first) - value(played))`. The value model's on-path
calibration (bench/calibration.py) compares the value of the option the advice *played* with what the seat
realised; it never checks the value of the options the advice did not play, which is exactly what the review
charges a player for. Here both options are played out and their difference is what the prediction is judged on.

How, per rule-set, deal by deal (deal k of the seed is the arena's deal k, `duplicate.dealt`):

- The round is played with the advice (`arena.advice.Advice`) in every seat by the arena's round driver
  (`duplicate.play_with`), every discard decision kept: the seat, its how-many-th discard, its view.
- One decision is drawn at random (seeded by the rule-set, seed and deal) among the round's discards of every
  seat; the other option is drawn at random among the options whose value (as /v1/discards shows it, 4
  decimals) differs from the first option's. A decision with no such option is passed over for the next drawn
  one (a round with none gives no decision): one decision per round keeps the decisions independent.
- Both branches are played to the end of the round on the same true deal (the same hands, the same stock in the
  same order: the arena's deal k again), with the advice in every seat; the deciding seat discards the first
  option in one branch and the other option in the other. The advice and the driver draw on no random source, so
  each branch replays the round move for move up to the decision (checked: the seat sees the same hand there).
  Where the advice itself discarded its first option (not a discard it planned with a claim), the round already
  played is the first branch.
- Predicted loss: value(first) - value(other), the values as the review reads them (`Pricing`, 4 decimals),
  unclipped; the clipped `expected_loss` the review would report is kept too (0 where the other option ranks 1
  or is worth the same). Realised loss: the deciding seat's settlement in the first branch minus the other's
  (its delta in points; cardavia-flowers, where nobody pays: won 1, else 0).

Printed per rule-set: the deciles of predicted loss (decisions, mean predicted, mean realised with its 95% normal
interval, calibrated when the mean prediction lies inside the interval or within 10% of the value range: the
rule of bench/calibration.py); the overall mean predicted and realised loss with their intervals and their
paired difference; the mean clipped expected_loss; and the share of pairs the review prices 0 while the other
option realised less than the first (realised loss > 0). `--jobs` plays deals in that many processes: the same
figures for any `--jobs`, every deal being seeded by its number.

    .venv/bin/python bench/counterfactual.py [--ruleset R ...] [--decisions N] [--seed S] [--jobs J] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: measure this tree's engine

from bench.calibration import deciles, interval, one, positive, summary  # noqa: E402
from service.arena.advice import Advice  # noqa: E402
from service.arena.duplicate import SEATS, Arena, play_with, seat_results  # noqa: E402
from service.arena.seat import analyse  # noqa: E402
from service.replay.decisions import Pricing, SeatView  # noqa: E402
from service.rules.registry import all_rulesets, get_ruleset  # noqa: E402

#: Deals each process is handed at a time: the work is cut in batches of `jobs * BATCH` deals, in deal order.
BATCH = 8


class Brancher(Advice):
    """The advice for one seat, counting its discards: it keeps every decision (`into`), and at its discard number
    `at` discards `card` instead (after asking the advice, so that a planned follow-up is spent as it would be)."""

    def __init__(self, seat: int, into: list[tuple[int, int, SeatView, int]] | None = None,
                 at: int | None = None, card: int | None = None) -> None:
        super().__init__()
        self.seat, self.into, self.at, self.card = seat, into, at, card
        self.count = 0
        self.view: SeatView | None = None  # the view at discard `at`

    def discard(self, view: SeatView) -> int:
        card = super().discard(view)
        if self.count == self.at:
            card, self.view = self.card, view
        if self.into is not None:
            self.into.append((self.seat, self.count, view, card))
        self.count += 1
        return card


def outcome(log: dict, seat: int, paying: bool) -> float:
    """The seat's settlement of a round: its delta, or where nobody pays 1 for a win."""
    result = seat_results(log, ["advice"] * SEATS)[seat]
    return float(result.delta) if paying else float(result.won)


def branch(arena: Arena, deal: int, seat: int, at: int, card: int, view: SeatView, paying: bool) -> float:
    """The deciding seat's settlement of deal `deal` replayed with the advice everywhere, but for that seat's
    discard number `at`, which is `card`."""
    players = [Brancher(s, at=at if s == seat else None, card=card) for s in range(SEATS)]
    log = play_with(arena, deal, players)
    seen = players[seat].view
    if seen is None or seen.hand != view.hand or seen.visible != view.visible:
        raise RuntimeError(f"deal {deal}: the branch did not replay the round up to seat {seat}'s discard {at}")
    return outcome(log, seat, paying)


def decide(ruleset: str, seed: int, deal: int) -> dict[str, Any]:
    """Deal `deal`'s drawn decision, both branches played: the record of the pair (`predicted` None when the round
    has no discard with an option of another value)."""
    rs = get_ruleset(ruleset)
    arena = Arena(ruleset, ("advice",) * SEATS, seed)
    paying = rs.objective(rs.resolve_options({})) == "expected_settlement"
    seen: list[tuple[int, int, SeatView, int]] = []
    log = play_with(arena, deal, [Brancher(s, into=seen) for s in range(SEATS)])
    rng = random.Random(f"counterfactual/{ruleset}/{seed}/{deal}")
    order = list(range(len(seen)))
    rng.shuffle(order)
    record: dict[str, Any] = {"deal": deal, "predicted": None}
    for passed, i in enumerate(order):
        seat, at, view, played = seen[i]
        analysis = analyse(view)
        pricing = Pricing.of(view.ruleset, view.options, view.seats)
        if pricing.model is None:
            raise RuntimeError(f"{ruleset}: no value model applies (see service/rules/value.py)")
        total = analysis.unseen_total
        first = analysis.options[0]
        first_value = pricing.value(first, total)
        rest = [o for o in analysis.options[1:] if pricing.value(o, total) != first_value]
        if not rest:
            continue
        other = rng.choice(rest)
        price = pricing.price(first, other, total)
        realised_first = (outcome(log, seat, paying) if played == first.card
                          else branch(arena, deal, seat, at, first.card, view, paying))
        realised_other = branch(arena, deal, seat, at, other.card, view, paying)
        record.update(seat=seat, discard=at, passed=passed, options=len(analysis.options), rank=other.rank,
                      followed=played != first.card, first_value=price["best_value"], other_value=price["value"],
                      predicted=price["best_value"] - price["value"], expected_loss=price["expected_loss"],
                      agreed=price["agreed"], first=realised_first, other=realised_other,
                      realised=realised_first - realised_other)
        break
    return record


def _decide(job: tuple[str, int, int]) -> dict[str, Any]:
    return decide(*job)


def records_of(ruleset: str, decisions: int, seed: int, jobs: int = 1) -> tuple[list[dict[str, Any]], int]:
    """The records of the first `decisions` deals of `seed` that give a decision (deals in order: the same for any
    `jobs`), and how many deals were played."""
    found: list[dict[str, Any]] = []
    deal = 0
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        while len(found) < decisions:
            size = max(jobs * BATCH, 1) if pool is not None else 1
            work = [(ruleset, seed, d) for d in range(deal, deal + size)]
            for record in (pool.imap(_decide, work) if pool is not None else map(_decide, work)):
                deal += 1
                if record["predicted"] is not None:
                    found.append(record)
                    if len(found) == decisions:
                        break
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return found, deal


def figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Deciles of predicted loss, the overall means and the share of zero-priced costly moves."""
    pairs = [(r["predicted"], r["realised"]) for r in records]
    zero = [r for r in records if r["expected_loss"] == 0]
    return {"deciles": deciles(pairs), **summary(pairs),
            "expected_loss": interval([r["expected_loss"] for r in records]),
            "priced_zero": len(zero) / len(records),
            "priced_zero_costly": sum(r["realised"] > 0 for r in zero) / len(records),
            "priced_zero_realised": interval([r["realised"] for r in zero]) if zero else None,
            "followed": sum(r["followed"] for r in records)}


def table(ruleset: str, out: dict[str, Any]) -> str:
    """One rule-set's figures as text."""
    rows = out["deciles"]
    calibrated = sum(r["calibrated"] for r in rows)
    lines = [f"{ruleset}: {out['decisions']} decisions of {out['rounds']} rounds, seed {out['seed']} "
             f"({out['seconds']} s); loss in {out['unit']}",
             f"{'decile':>6} {'n':>6} {'predicted':>10} {'realised':>10}  {'95% interval':<22} calibrated"]
    for i, r in enumerate(rows, 1):
        how = "inside" if r["inside"] else ("within 10%" if r["near"] else "no")
        lines.append(f"{i:>6} {r['decisions']:>6} {r['predicted']:>+10.4f} {r['realised']:>+10.4f}  "
                     f"[{r['low']:+.4f}, {r['high']:+.4f}]".ljust(60) + f" {how}")
    lines.append(f"{calibrated} of {len(rows)} deciles calibrated")
    lines.append(f"loss: predicted {one(out['predicted'])}; realised {one(out['realised'])}; "
                 f"difference {one(out['difference'])}")
    zero = out["priced_zero_realised"]
    lines.append(f"expected_loss (clipped, as reviewed) {one(out['expected_loss'])}; priced 0: "
                 f"{out['priced_zero']:.1%} of pairs (realised {one(zero) if zero else '-'}); priced 0 yet costly "
                 f"(realised > 0): {out['priced_zero_costly']:.1%}")
    return "\n".join(lines)


def main() -> int:
    """Measure every asked rule-set and print the tables (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="rule-set id (repeatable; default: every one)")
    parser.add_argument("--decisions", type=positive, default=3000, help="pairs to play out, one per round")
    parser.add_argument("--seed", type=int, default=7011, help="arena seed of the deals (never trained on)")
    parser.add_argument("--jobs", type=positive, default=1, help="processes playing deals side by side")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, Any] = {}
    for ruleset in args.ruleset or [r.id for r in all_rulesets()]:
        started = time.monotonic()
        records, rounds = records_of(ruleset, args.decisions, args.seed, args.jobs)
        rs = get_ruleset(ruleset)
        paying = rs.objective(rs.resolve_options({})) == "expected_settlement"
        out[ruleset] = {"seed": args.seed, "rounds": rounds, "decisions": len(records),
                        "unit": "points" if paying else "wins", **figures(records),
                        "seconds": round(time.monotonic() - started, 1)}
        if not args.json:
            print(table(ruleset, out[ruleset]), end="\n\n", flush=True)
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
