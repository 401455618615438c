"""Hand-evaluation benchmark: table-driven hu + best decomposition against the plain recursive search.

Per rule-set (default options) it generates N winning and N near-miss 21-card hands (samples.py, seeded),
tallies them, then times every `Evaluator.best_decomposition(tally)` call (None = no hu, so one call is the
hu test and the best split) with time.perf_counter_ns, and `reference.search` on the first M hands of each
set in the same run. Table build time is measured first, in this fresh process.

Chắn (cardavia-chan): N winning 20-card hands built from 10 random pairs (>= 6 Chắn, no identical pair
split; chan/samples.py, same seed) and N near misses (one of the 20 cards swapped for another face still in
the deck), parsed once into ChanHand (19 concealed + the winning card), then every `evaluate_win(hand)` call
(the forced pairing, the counts and every reason) is timed the same way.

    .venv/bin/python bench/hand_eval.py [--hands N] [--seed S] [--reference-hands M] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: measure this tree's engine

from service.rules.chan import samples as chan_samples  # noqa: E402
from service.rules.chan.cards import code as chan_code  # noqa: E402
from service.rules.chan.hand import ChanHand, evaluate_win  # noqa: E402
from service.rules.fourcolor import samples  # noqa: E402
from service.rules.fourcolor.cards import Tally  # noqa: E402
from service.rules.fourcolor.evaluate import Evaluator  # noqa: E402
from service.rules.fourcolor.melds import MeldRules  # noqa: E402
from service.rules.fourcolor.tables import tables_for  # noqa: E402
from service.rules.registry import get_ruleset  # noqa: E402
from tests.testbed import fourcolor_oracle as reference  # noqa: E402

RULESETS = ("bga-taiwan", "cardavia-flowers")
HAND_SIZE = 21
TARGET_MEDIAN_US = 10.0
TARGET_SPEEDUP = 20.0
SETS = (("winning", samples.winning_hand), ("near-miss", samples.near_miss))
CHAN = "cardavia-chan"
CHAN_SETS = (("winning", chan_samples.winning_hand), ("near-miss", chan_samples.near_miss))


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    return {
        "platform": platform.platform(), "machine": platform.machine(), "processor": platform.processor(),
        "cpus": os.cpu_count(), "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


def timed_calls(call: Callable[[Tally], object], tallies: Sequence[Tally]) -> list[int]:
    """Nanoseconds of each call, garbage collector off (as timeit does)."""
    clock, out = time.perf_counter_ns, []
    gc.disable()
    try:
        for tally in tallies:
            start = clock()
            call(tally)
            out.append(clock() - start)
    finally:
        gc.enable()
    return out


def timer_overhead_ns(samples_n: int = 10000) -> float:
    """Median cost of the two clock reads around a call (included in every figure, not subtracted)."""
    clock = time.perf_counter_ns
    return statistics.median(-(clock() - clock()) for _ in range(samples_n))


def summary(ns: Sequence[int]) -> dict[str, float]:
    """Median and nearest-rank p99 in microseconds."""
    ordered = sorted(ns)
    p99 = ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]
    return {"n": len(ordered), "median_us": statistics.median(ordered) / 1000, "p99_us": p99 / 1000}


def build_tables(rules: MeldRules) -> tuple[Evaluator, dict[str, float]]:
    """The evaluator of a profile, timing the one-off table build (colour + soldier tables, then splits)."""
    start = time.perf_counter_ns()
    tables_for(rules)
    tables = time.perf_counter_ns()
    evaluator = Evaluator(rules)
    done = time.perf_counter_ns()
    return evaluator, {"tables_ms": (tables - start) / 1e6, "splits_ms": (done - tables) / 1e6,
                       "total_ms": (done - start) / 1e6}


def bench_set(evaluator: Evaluator, rules: MeldRules, tallies: list[Tally], ref_n: int) -> dict[str, Any]:
    """Time the tables on every hand and the reference search on the first `ref_n`; check they agree."""
    timed_calls(evaluator.best_decomposition, tallies[:1000])  # warm-up (caches, branch history)
    table_ns = timed_calls(evaluator.best_decomposition, tallies)
    subset = tallies[:ref_n]
    ref_ns = timed_calls(lambda t: reference.search(t, rules), subset)
    ratios = [r / t for r, t in zip(ref_ns, table_ns)]
    agree = sum(evaluator.best_points(t) == reference.search(t, rules)[0] for t in subset)
    hu = sum(evaluator.best_decomposition(t) is not None for t in tallies)
    tables, ref = summary(table_ns), summary(ref_ns)
    return {
        "hands": len(tallies), "hu_rate": hu / len(tallies), "tables": tables, "reference": ref,
        "speedup_median_ratio": statistics.median(ratios),
        "speedup_ratio_of_medians": ref["median_us"] / tables["median_us"],
        "reference_agrees": agree, "reference_hands": len(subset),
    }


def bench_ruleset(ruleset_id: str, n: int, seed: int, ref_n: int) -> dict[str, Any]:
    """Build the tables, generate and tally the hands, then time both sets."""
    ruleset = get_ruleset(ruleset_id)
    rules = ruleset.meld_rules(ruleset.resolve_options(None))
    evaluator, build = build_tables(rules)
    out: dict[str, Any] = {"build": build, "sets": {}}
    rng = random.Random(seed)
    hands = {name: [make(rng, rules, HAND_SIZE) for _ in range(n)] for name, make in SETS}
    tallies = {name: [Tally.of(h) for h in cards] for name, cards in hands.items()}
    for name, _ in SETS:
        out["sets"][name] = bench_set(evaluator, rules, tallies[name], min(ref_n, n))
    return out


def bench_chan(n: int, seed: int) -> dict[str, Any]:
    """Parse N winning and N near-miss Chắn hands once, then time `evaluate_win` on each (the win test,
    docs/rules.md#chan-win)."""
    ruleset = get_ruleset(CHAN)
    options = ruleset.resolve_options(None)
    rng = random.Random(seed)
    out: dict[str, Any] = {"sets": {}}
    for name, make in CHAN_SETS:
        hands: list[ChanHand] = []
        for _ in range(n):
            hand, win = make(rng)
            hands.append(ruleset.parse(options, [chan_code(c) for c in hand], public_card=chan_code(win)))
        timed_calls(evaluate_win, hands[:1000])  # warm-up
        ns = timed_calls(evaluate_win, hands)
        hu = sum(evaluate_win(h).hu for h in hands)
        out["sets"][name] = {"hands": n, "hu_rate": hu / n, "evaluate_win": summary(ns)}
    return out


def print_chan(figures: dict[str, Any]) -> None:
    """The Chắn rows."""
    cfg = figures["config"]
    print(f"Chắn hand evaluation: evaluate_win on pre-parsed ChanHand (rs.hu calls it), {cfg['hands']} winning + "
          f"{cfg['hands']} near-miss 20-card hands built from random pairs, seed {cfg['seed']}")
    head = f"  {'rule-set':<18}{'set':<11}{'engine':<13}{'hands':>7}{'hu':>7}{'median':>10}{'p99':>10}  target"
    print(head)
    print("  " + "-" * (len(head) - 2))
    for name, s in figures["chan"]["sets"].items():
        t = s["evaluate_win"]
        mark = verdict(t["median_us"] <= TARGET_MEDIAN_US)
        print(f"  {CHAN:<18}{name:<11}{'evaluate_win':<13}{t['n']:>7}{s['hu_rate']:>7.0%}{t['median_us']:>10.2f}"
              f"{t['p99_us']:>10.2f}  <= {TARGET_MEDIAN_US:g} µs {mark}")
    print()


def verdict(ok: bool) -> str:
    """Mark a figure against its target."""
    return "ok" if ok else "MISSED"


def print_report(figures: dict[str, Any]) -> None:
    """The readable table."""
    cfg = figures["config"]
    m = figures["machine"]
    print("Four Color Cards hand evaluation: Evaluator.best_decomposition (tables) vs reference.search")
    print(f"machine: {m['platform']} ({m['machine']}, {m['cpus']} CPUs), {m['python']}")
    print(f"hands: {cfg['hands']} winning + {cfg['hands']} near-miss {HAND_SIZE}-card hands per rule-set, "
          f"seed {cfg['seed']}, default options; reference search on the first {cfg['reference_hands']} of each set")
    print(f"timing: perf_counter_ns per call, gc off, timer overhead {cfg['timer_overhead_ns']:.0f} ns/call "
          "included; reference.search also counts the splits")
    print()
    print("one-off table build per profile (before timing hands)")
    print(f"  {'rule-set':<18}{'colour+soldier tables':>24}{'decomposition splits':>23}{'total':>12}")
    for rid, fig in figures["rulesets"].items():
        b = fig["build"]
        print(f"  {rid:<18}{b['tables_ms']:>21.1f} ms{b['splits_ms']:>20.1f} ms{b['total_ms']:>9.1f} ms")
    print()
    print(f"per-hand time, µs (targets: tables median <= {TARGET_MEDIAN_US:g} µs, "
          f"speed-up >= {TARGET_SPEEDUP:g}x)")
    head = f"  {'rule-set':<18}{'set':<11}{'engine':<11}{'hands':>7}{'hu':>7}{'median':>10}{'p99':>10}  target"
    print(head)
    print("  " + "-" * (len(head) - 2))
    for rid, fig in figures["rulesets"].items():
        for name, s in fig["sets"].items():
            t, r = s["tables"], s["reference"]
            mark = verdict(t["median_us"] <= TARGET_MEDIAN_US)
            print(f"  {rid:<18}{name:<11}{'tables':<11}{t['n']:>7}{s['hu_rate']:>7.0%}{t['median_us']:>10.2f}"
                  f"{t['p99_us']:>10.2f}  <= {TARGET_MEDIAN_US:g} µs {mark}")
            print(f"  {'':<18}{'':<11}{'reference':<11}{r['n']:>7}{'':>7}{r['median_us']:>10.2f}{r['p99_us']:>10.2f}")
            speed = s["speedup_median_ratio"]
            print(f"  {'':<18}{'':<11}{'speed-up':<11}{r['n']:>7}{'':>7}{speed:>9.0f}x{'':>10}  >= "
                  f"{TARGET_SPEEDUP:g}x {verdict(speed >= TARGET_SPEEDUP)} "
                  f"(ratio of medians {s['speedup_ratio_of_medians']:.0f}x)")
            agree = f"{s['reference_agrees']}/{s['reference_hands']}"
            print(f"  {'':<18}{'':<11}{'agreement':<11}{agree:>7}  hands where tables and reference give equal points")
    print("  speed-up: median over the same hands of reference time / tables time")
    print()


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments, run every rule-set, print the table (and the JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10000, help="hands per set (winning, near-miss)")
    parser.add_argument("--seed", type=int, default=20240601, help="seed of the hand generator")
    parser.add_argument("--reference-hands", type=int, default=1000,
                        help="hands per set given to the slow reference search (the first ones)")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.reference_hands < 1:
        parser.error("--hands and --reference-hands must be >= 1")
    figures: dict[str, Any] = {
        "machine": machine(),
        "config": {"hands": args.hands, "seed": args.seed, "reference_hands": min(args.reference_hands, args.hands),
                   "hand_size": HAND_SIZE, "timer_overhead_ns": timer_overhead_ns()},
        "targets": {"median_us_max": TARGET_MEDIAN_US, "speedup_min": TARGET_SPEEDUP},
        "rulesets": {rid: bench_ruleset(rid, args.hands, args.seed, args.reference_hands) for rid in RULESETS},
        "chan": bench_chan(args.hands, args.seed),
    }
    print_report(figures)
    print_chan(figures)
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
