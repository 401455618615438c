"""Rounds audited per second per core, per rule-set, on simulated logs (target >= 1,000 rounds/s).

Usage: .venv/bin/python bench/audit.py [--rounds N] [--json]
Logs are simulated first (seeded, greedy and random players), then audited in one process: the figure is
rounds per second of one core, parsing included. Prints events per round and the outcome mix too.
"""

from __future__ import annotations

import argparse
import collections
import json
import platform
import statistics
import time

from service.replay.audit import audit


def simulated(ruleset: str, rounds: int) -> list[dict]:
    """Seeded simulated logs of one rule-set."""
    from service.replay.families import simulate

    seats = {"bga-taiwan": (2, 3, 4)}.get(ruleset, (4,))
    return [simulate(ruleset, seed, seats[seed % len(seats)], ("greedy", "random")[seed % 2])
            for seed in range(rounds)]


def measure(logs: list[dict]) -> dict:
    """Audit every log, three passes; report the best pass (least disturbed by other load)."""
    audit(logs[0])  # tables and imports
    passes = []
    for _ in range(3):
        start = time.perf_counter()
        results = [audit(log) for log in logs]
        passes.append(time.perf_counter() - start)
    best = min(passes)
    return {
        "rounds": len(logs), "rounds_per_s": len(logs) / best, "ms_per_round": best / len(logs) * 1e3,
        "passes_s": passes, "events_per_round": statistics.mean(len(log["events"]) for log in logs),
        "all_valid": all(r.valid for r in results),
        "outcomes": dict(collections.Counter(r.outcome["type"] for r in results)),
    }


def main() -> None:
    """CLI."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rulesets = ["bga-taiwan", "cardavia-flowers", "cardavia-chan"]
    print(f"audit throughput, one core: {platform.platform()}, {platform.python_implementation()} "
          f"{platform.python_version()}; {args.rounds} simulated rounds per rule-set, best of 3 passes")
    figures = {}
    for ruleset in rulesets:
        figures[ruleset] = fig = measure(simulated(ruleset, args.rounds))
        print(f"  {ruleset:<17} {fig['rounds_per_s']:7.0f} rounds/s  {fig['ms_per_round']:.2f} ms/round  "
              f"{fig['events_per_round']:.0f} events/round  valid {fig['all_valid']}  outcomes {fig['outcomes']}  "
              f"(target >= 1000 rounds/s: {'met' if fig['rounds_per_s'] >= 1000 else 'NOT met'})")
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
