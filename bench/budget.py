"""How far the Monte Carlo search overruns its time budget (POST /v1/searches, the deep review, the arena's `search`
policy): for each rule-set and position kind of `bench/search_playouts.py` (`near`, `mid`, `dealt`), `--searches`
searches per budget (seeds 1, 2, ...), each with more samples than it can play (so the budget ends it), on this one
core; the overrun is the search's own elapsed time minus its budget. Besides the median and the largest overrun:
the deals a search got through and the longest gap between two of its clock readings (the first deal, read only at
its end, or a step no turn interrupts), which bounds how far it can overrun.

    .venv/bin/python bench/budget.py [--budgets 0.1 0.5 1.0] [--searches N] [--rulesets ID ...]
                                     [--kinds near mid dealt] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: measure this tree's engine

from bench.search_playouts import machine_report, position, positions_parsed  # noqa: E402
from service.search.montecarlo import search  # noqa: E402


def timed_clock(marks: list[float]) -> Any:
    """perf_counter, noting every reading: the longest gap between two readings bounds the overrun."""

    def clock() -> float:
        now = time.perf_counter()
        marks.append(now)
        return now

    return clock


def bench(ruleset_id: str, kind: str, budget: float, searches: int) -> dict[str, Any]:
    """Overruns of `searches` searches of one position with `budget` seconds each."""
    where = position(ruleset_id, kind, 7)
    overruns, deals, gaps = [], [], []
    for seed in range(1, searches + 1):
        marks: list[float] = []
        run = search(where, None, samples=10**6, time_budget=budget, seed=seed, min_samples=10**9,
                     clock=timed_clock(marks))
        assert run.stopped == "time_budget", run.stopped
        overruns.append(run.elapsed - budget)
        deals.append(run.deals)
        gaps.append(max(b - a for a, b in zip(marks, marks[1:])))
    return {"searches": searches, "budget_s": budget, "median_overrun_ms": round(statistics.median(overruns) * 1e3, 1),
            "max_overrun_ms": round(max(overruns) * 1e3, 1), "median_deals": statistics.median(deals),
            "longest_gap_between_readings_ms": round(max(gaps) * 1e3, 1)}


def main() -> None:
    """Run every rule-set, position kind and budget and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budgets", nargs="*", type=float, default=[0.1, 0.5, 1.0])
    parser.add_argument("--searches", type=int, default=10)
    args = positions_parsed(parser)
    report: dict[str, Any] = {**machine_report(), "rows": {}}
    for ruleset_id in args.rulesets:
        for kind in args.kinds:
            for budget in args.budgets:
                report["rows"][f"{ruleset_id}/{kind}/{budget:g}s"] = bench(ruleset_id, kind, budget, args.searches)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"Python {report['python']} on {report['machine']}; tables built in {report['tables_s']} s")
    for name, row in report["rows"].items():
        print(f"  {name:32s} overrun median {row['median_overrun_ms']:7.1f} ms, max {row['max_overrun_ms']:7.1f} ms "
              f"({row['searches']} searches, median {row['median_deals']} deals; longest gap between clock "
              f"readings {row['longest_gap_between_readings_ms']} ms)")


if __name__ == "__main__":
    main()
