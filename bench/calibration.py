"""Calibration of the value model (docs/advice.md#value): over advice-against-advice rounds of a seed never trained
on (default 7003), the value the shipped model predicted for the option each seat played against the settlement
that seat realised in that round, in ten deciles of prediction.

Each decile: its decisions, mean prediction, realised mean with a 95% normal interval (decisions of one round are
correlated, so the interval is somewhat too narrow), and whether the mean prediction lies inside that interval or
within 10% of the value range (the mean prediction of the top decile minus that of the bottom one).

    .venv/bin/python bench/calibration.py [--ruleset R ...] [--decisions N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: measure this tree's engine

from service.arena.learn import Decisions, play_recorded  # noqa: E402
from service.rules.registry import all_rulesets  # noqa: E402
from service.rules.value import load_model  # noqa: E402

DECILES = 10
Z = 1.96
TOLERANCE = 0.10


def deciles(pairs: list[tuple[float, float]], groups: int = DECILES) -> list[dict[str, Any]]:
    """(prediction, realised) pairs sorted by prediction and cut into `groups` groups of (nearly) equal size:
    each group's size, mean prediction, realised mean and its 95% interval, and whether it is calibrated."""
    ordered = sorted(pairs, key=lambda p: p[0])
    n = len(ordered)
    cuts = [round(i * n / groups) for i in range(groups + 1)]
    rows = []
    for low, high in zip(cuts, cuts[1:]):
        part = ordered[low:high]
        predicted = statistics.fmean(p for p, _ in part)
        realised = [r for _, r in part]
        mean = statistics.fmean(realised)
        half = Z * statistics.stdev(realised) / len(realised) ** 0.5 if len(realised) > 1 else 0.0
        rows.append({"decisions": len(part), "predicted": predicted, "realised": mean,
                     "low": mean - half, "high": mean + half})
    span = rows[-1]["predicted"] - rows[0]["predicted"]
    for row in rows:
        row["inside"] = row["low"] <= row["predicted"] <= row["high"]
        row["near"] = abs(row["predicted"] - row["realised"]) <= TOLERANCE * abs(span)
        row["calibrated"] = row["inside"] or row["near"]
    return rows


def pairs_of(ruleset: str, decisions: int, seed: int) -> tuple[list[tuple[float, float]], int]:
    """(prediction, realised) of at least `decisions` decisions of advice rounds of `seed`; the rounds played."""
    model = load_model(ruleset)
    found = Decisions()
    deal = 0
    while len(found.targets) < decisions:
        play_recorded(ruleset, seed, deal, found)
        deal += 1
    predicted = [model.score(b, row) for b, row in zip(found.buckets, found.rows)]
    return list(zip(predicted, found.targets)), found.rounds


def table(ruleset: str, rows: list[dict[str, Any]], rounds: int, seed: int) -> str:
    """One rule-set's deciles as text."""
    total = sum(r["decisions"] for r in rows)
    lines = [f"{ruleset}: {total} decisions of {rounds} rounds, seed {seed}",
             f"{'decile':>6} {'n':>6} {'predicted':>10} {'realised':>10}  {'95% interval':<22} calibrated"]
    for i, r in enumerate(rows, 1):
        how = "inside" if r["inside"] else ("within 10%" if r["near"] else "no")
        lines.append(f"{i:>6} {r['decisions']:>6} {r['predicted']:>+10.4f} {r['realised']:>+10.4f}  "
                     f"[{r['low']:+.4f}, {r['high']:+.4f}]".ljust(60) + f" {how}")
    return "\n".join(lines)


def main() -> int:
    """Measure every asked rule-set and print the tables (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="rule-set id (repeatable; default: every one)")
    parser.add_argument("--decisions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=7003)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = {}
    for ruleset in args.ruleset or [r.id for r in all_rulesets()]:
        pairs, rounds = pairs_of(ruleset, args.decisions, args.seed)
        rows = deciles(pairs)
        out[ruleset] = {"seed": args.seed, "rounds": rounds, "decisions": len(pairs),
                        "model": load_model(ruleset).version, "deciles": rows}
        if not args.json:
            print(table(ruleset, rows, rounds, args.seed), end="\n\n")
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
