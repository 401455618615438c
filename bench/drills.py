"""Drill benchmark: the in-process work of GET /v1/drills (`arena.drills.deal_drill`: seeded rounds the advice plays
at every seat until one holds a position of the difficulty, then the pick), per rule-set and difficulty.

Each drill of a seed is timed with perf_counter_ns after a warm-up drill of another seed (the evaluation tables
built, as the service builds them at start). Also counted: how often a second round was needed. Interactive use
wants well under a second per drill.

    .venv/bin/python bench/drills.py [--drills N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: measure this tree's engine

from bench.search import RULESETS, percentile  # noqa: E402
from service.advice.warm import warm_tables  # noqa: E402
from service.arena.drills import DIFFICULTIES, deal_drill  # noqa: E402
from service.rules.registry import get_ruleset  # noqa: E402


def bench(n: int, seed: int) -> dict[str, Any]:
    """ms per drill and rounds played, per rule-set and difficulty."""
    out: dict[str, Any] = {}
    for ruleset_id in RULESETS:
        ruleset = get_ruleset(ruleset_id)
        deal_drill(ruleset, "hard", seed + 1, 0)
        for difficulty in DIFFICULTIES:
            times, rounds = [], []
            for index in range(n):
                start = time.perf_counter_ns()
                drill = deal_drill(ruleset, difficulty, seed, index)
                times.append((time.perf_counter_ns() - start) / 1e6)
                rounds.append(drill["round"] + 1)
            out[f"{ruleset_id}/{difficulty}"] = {
                "drills": n, "median_ms": round(statistics.median(times), 1),
                "p95_ms": round(percentile(times, .95), 1), "max_ms": round(max(times), 1),
                "mean_rounds": round(statistics.mean(rounds), 2)}
    return out


def main() -> None:
    """Run and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drills", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    warm_tables()
    figures = bench(args.drills, args.seed)
    if args.json:
        print(json.dumps({"python": platform.python_version(), "drills": figures}, indent=2))
        return
    print(f"drills, {args.drills} per row, Python {platform.python_version()}")
    print(f"{'rule-set/difficulty':<28} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'rounds':>7}")
    for name, row in figures.items():
        print(f"{name:<28} {row['median_ms']:>10} {row['p95_ms']:>8} {row['max_ms']:>8} {row['mean_rounds']:>7}")


if __name__ == "__main__":
    main()
