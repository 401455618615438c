"""Discard-ranking benchmark: the in-process answer of POST /v1/discards (parsing, the exact analysis and the answer
in card codes with every option's learned `value`), per rule-set and hand kind (bench/search.py's seeded hands).
Each call is timed with perf_counter_ns after a warm-up pass over other hands. Target: median <= 3 ms, p99 <= 10 ms.

    .venv/bin/python bench/discards.py [--positions N] [--seed S] [--json]
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
from service.advice.warm import warm_tables  # noqa: E402
from service.api.discards.routes import analyse, analysis_json  # noqa: E402
from service.rules.registry import get_ruleset  # noqa: E402

TARGET_MEDIAN_MS = 3.0
TARGET_P99_MS = 10.0


def answer(ruleset_id: str, hand: list[str]) -> dict[str, Any]:
    """The endpoint's answer body (without the echo) for a hand with nothing else seen."""
    ruleset = get_ruleset(ruleset_id)
    options = ruleset.resolve_options(None)
    payload = {"hand": hand, "exposed": [], "visible": [], "seats": 4, "history": None}
    return analysis_json(ruleset, analyse(ruleset, options, payload), 4, 0, options)


def bench(n: int, seed: int) -> dict[str, Any]:
    """ms per answer, per rule-set and hand kind."""
    out: dict[str, Any] = {}
    for ruleset_id in RULESETS:
        rng = random.Random(seed)
        for kind in ("near", "random"):
            for hand in hands_for(ruleset_id, kind, rng, max(20, n // 5)):
                answer(ruleset_id, hand)
            times = []
            for hand in hands_for(ruleset_id, kind, rng, n):
                start = time.perf_counter_ns()
                answer(ruleset_id, hand)
                times.append((time.perf_counter_ns() - start) / 1e6)
            out[f"{ruleset_id}/{kind}"] = {"positions": n, "median_ms": round(statistics.median(times), 3),
                                           "p99_ms": round(percentile(times, .99), 3),
                                           "max_ms": round(max(times), 3)}
    return out


def main() -> None:
    """Run and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    warm_tables()
    figures = bench(args.positions, args.seed)
    if args.json:
        print(json.dumps({"python": platform.python_version(), "discards": figures}, indent=2))
        return
    print(f"POST /v1/discards in process, {args.positions} hands per row, Python {platform.python_version()}; "
          f"target median <= {TARGET_MEDIAN_MS} ms, p99 <= {TARGET_P99_MS} ms")
    print(f"{'rule-set/kind':<28} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for name, row in figures.items():
        print(f"{name:<28} {row['median_ms']:>10} {row['p99_ms']:>8} {row['max_ms']:>8}")


if __name__ == "__main__":
    main()
