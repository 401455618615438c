"""Claim-advice benchmark: the in-process decision of POST /v1/claims (`analyse_claims`: pass, every legal claim
with the exact ranking of the hand after it, and a win), per rule-set.

Positions (seeded): a hand of `near` (a winning hand with one card swapped) or `random` cards, one of its cards
taken out as the public card and the rest as the resting hand (Four Color Cards 20, Chắn 19), so the card often
makes a claim; the seat is `next` on a discard (every claim kind allowed) or, one time in three, the drawer of a
stock card. Each call (parsing included, as the endpoint does) is timed with perf_counter_ns after a warm-up pass
over other positions. Target: median <= 5 ms.

    .venv/bin/python bench/claims.py [--positions N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: measure this tree's engine

from bench.search import RULESETS, hands_for, percentile  # noqa: E402
from service.advice.analyse import analyse_claims  # noqa: E402
from service.advice.warm import warm_tables  # noqa: E402
from service.rules.registry import get_ruleset  # noqa: E402

TARGET_MS = 5.0


def positions(ruleset_id: str, kind: str, rng: random.Random, n: int) -> list[tuple[list[str], str, str, str]]:
    """n (resting hand, public card, role, source) positions of one kind."""
    out = []
    for hand in hands_for(ruleset_id, kind, rng, n):
        public = hand.pop(rng.randrange(len(hand)))
        role, source = ("drawer", "stock") if rng.random() < 1 / 3 else ("next", "discard")
        out.append((hand, public, role, source))
    return out


def decide(ruleset_id: str, position: tuple[list[str], str, str, str]) -> Any:
    """One claim decision from card codes."""
    ruleset = get_ruleset(ruleset_id)
    options = ruleset.resolve_options(None)
    hand, public, role, source = position
    parsed = ruleset.parse(options, hand, [], public)
    return analyse_claims(ruleset, parsed, options, role, [], 4, source)


def bench(n: int, seed: int) -> dict[str, Any]:
    """ms per decision, per rule-set and hand kind."""
    out: dict[str, Any] = {}
    for ruleset_id in RULESETS:
        rng = random.Random(seed)
        for kind in ("near", "random"):
            for position in positions(ruleset_id, kind, rng, max(20, n // 5)):
                decide(ruleset_id, position)
            times, choices = [], []
            for position in positions(ruleset_id, kind, rng, n):
                start = time.perf_counter_ns()
                result = decide(ruleset_id, position)
                times.append((time.perf_counter_ns() - start) / 1e6)
                choices.append(len(result.options))
            out[f"{ruleset_id}/{kind}"] = {
                "positions": n, "median_ms": round(statistics.median(times), 3),
                "p95_ms": round(percentile(times, .95), 3), "max_ms": round(max(times), 3),
                "mean_choices": round(statistics.mean(choices), 2)}
    return out


def main() -> None:
    """Run and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    warm_tables()
    figures = bench(args.positions, args.seed)
    if args.json:
        print(json.dumps({"python": platform.python_version(), "claims": figures}, indent=2))
        return
    print(f"claim advice, {args.positions} positions per row, Python {platform.python_version()}; "
          f"target median <= {TARGET_MS} ms")
    print(f"{'rule-set/kind':<28} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'choices':>8}")
    for name, row in figures.items():
        print(f"{name:<28} {row['median_ms']:>10} {row['p95_ms']:>8} {row['max_ms']:>8} {row['mean_choices']:>8}")


if __name__ == "__main__":
    main()
