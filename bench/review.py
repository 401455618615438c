"""Decision review benchmark: the exact review of simulated rounds (`service/replay/reviewers.review`, as the replay
job runs it), per rule-set: milliseconds per round and per rated decision, and how the review prices the
decisions that disagree with the advice (the share priced exactly 0, the mean loss and its unit).

    .venv/bin/python bench/review.py [--rounds N] [--policy greedy|random] [--seed S] [--json]

Rounds are simulated first (seeds S..S+N-1, four seats), then reviewed in one process, best of 2 passes, timed in
the process's CPU time (other load on a shared machine stretches the wall clock, not this).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: measure this tree's engine

from service.replay.decisions import ReviewSettings  # noqa: E402
from service.replay.families import simulate  # noqa: E402
from service.replay.reviewers import review  # noqa: E402

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")


def priced(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """Of some rated decisions: how many, how many disagree, the share of those priced 0, their mean loss."""
    disagreeing = [d for d in decisions if not d["agreed"]]
    zero = sum(1 for d in disagreeing if d["expected_loss"] == 0)
    return {"decisions": len(decisions), "disagreeing": len(disagreeing),
            "zero_loss_share": round(zero / len(disagreeing), 4) if disagreeing else None,
            "mean_disagreeing_loss": round(sum(d["expected_loss"] for d in disagreeing) / len(disagreeing), 4)
            if disagreeing else None,
            "units": dict(Counter(str(d.get("loss_unit")) for d in decisions))}


def bench(ruleset: str, rounds: int, policy: str, seed: int) -> dict[str, Any]:
    """Review `rounds` simulated rounds of the rule-set: timing and pricing figures."""
    logs = [simulate(ruleset, s, 4, policy) for s in range(seed, seed + rounds)]
    review(logs[0], ReviewSettings("exact"))  # tables and imports
    passes, seats_of = [], []
    for _ in range(2):
        start = time.process_time()
        seats_of = [review(log, ReviewSettings("exact"))[1] for log in logs]
        passes.append(time.process_time() - start)
    best = min(passes)
    discards = [d for seats in seats_of for s in seats for d in s["decisions"]]
    claims = [d for seats in seats_of for s in seats for d in s["claim_decisions"]]
    rated = len(discards) + len(claims)
    return {"rounds": rounds, "ms_per_round": round(best / rounds * 1e3, 2),
            "us_per_decision": round(best / max(rated, 1) * 1e6, 1),
            "discards": priced(discards), "claims": priced(claims)}


def main() -> None:
    """CLI."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--policy", default="greedy", choices=("greedy", "random"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    print(f"exact review: {platform.platform()}, {platform.python_implementation()} {platform.python_version()}; "
          f"{args.rounds} simulated {args.policy} rounds of 4 seats per rule-set from seed {args.seed}, best of 2 "
          "(CPU time)")
    figures = {}
    for ruleset in RULESETS:
        figures[ruleset] = fig = bench(ruleset, args.rounds, args.policy, args.seed)
        for kind in ("discards", "claims"):
            p = fig[kind]
            share = "-" if p["zero_loss_share"] is None else f"{p['zero_loss_share']:.1%}"
            print(f"  {ruleset:<17} {kind:<8} {p['decisions']:5d} rated, {p['disagreeing']:4d} disagree, "
                  f"{share:>6} of those priced 0, mean loss {p['mean_disagreeing_loss']} {p['units']}")
        print(f"  {ruleset:<17} {fig['ms_per_round']:.1f} ms/round, {fig['us_per_decision']:.0f} us/decision")
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
