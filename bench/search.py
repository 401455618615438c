"""Suggested-discard benchmark: the exact ranking (POST /v1/discards) and the Monte Carlo search (POST /v1/searches).

1. Exact ranking: for each rule-set, N hands that must discard (Four Color Cards 21 cards, Chắn 20), of three
   kinds (seeded): `near` (a winning hand with one card swapped: typically waiting or one away), `random` (cards
   dealt at random) and `winning` (a complete hand). Every `analyse_discards` call (all legal discards: waits,
   unseen copies, distance, points, improving cards, ranking) is timed with perf_counter_ns after one warm-up
   pass over other hands (a serving process keeps its caches). Target: median <= 5 ms for a 21-card hand.
2. Playouts: typical positions per rule-set, a fixed number of deals with early stopping off, playouts per
   second on this one core. Target >= 2,000.
3. Interval: the same position searched on a ladder of deal counts until the leader's 95% interval half-width
   on its win probability is at most 0.02, and the seconds that took. Target: +-2% within 5 s.
Parts 2 and 3 run `bench/search_playouts.py`'s positions (`near`, `mid`, `dealt`; see there).

    .venv/bin/python bench/search.py [--hands N] [--seed S] [--deals D] [--kinds near mid dealt] [--json]
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

from service.advice.analyse import analyse_discards  # noqa: E402
from service.advice.warm import warm_tables  # noqa: E402
from service.rules.chan import samples as chan_samples  # noqa: E402
from service.rules.chan.cards import code as chan_code  # noqa: E402
from service.rules.fourcolor import samples  # noqa: E402
from service.rules.fourcolor.cards import code as fc_code  # noqa: E402
from service.rules.registry import get_ruleset  # noqa: E402

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")
TARGET_EXACT_MS = 5.0
TARGET_PLAYOUTS = 2000
TARGET_HALF_WIDTH = 0.02


def fourcolor_hands(ruleset_id: str, kind: str, rng: random.Random, n: int) -> list[list[str]]:
    """n 21-card hands of one kind, as codes."""
    rules = get_ruleset(ruleset_id).meld_rules(get_ruleset(ruleset_id).resolve_options(None))
    make = {"near": samples.near_miss, "random": samples.random_hand, "winning": samples.winning_hand}[kind]
    hands = []
    while len(hands) < n:
        hand = make(rng, rules, 21)
        if any(c < 28 and c % 7 != 0 for c in hand):  # at least one legal discard (not all Generals/flowers)
            hands.append([fc_code(c) for c in hand])
    return hands


def chan_hands(kind: str, rng: random.Random, n: int) -> list[list[str]]:
    """n 20-card Chắn hands of one kind, as codes, each with at least one legal discard."""
    ruleset = get_ruleset("cardavia-chan")
    hands = []
    while len(hands) < n:
        if kind == "random":
            deck = [f for f in range(25) for _ in range(4)]
            cards = rng.sample(deck, 20)
        else:
            hand, win = (chan_samples.near_miss if kind == "near" else chan_samples.winning_hand)(rng)
            cards = hand + [win]
        codes = [chan_code(c) for c in cards]
        parsed = ruleset.parse(ruleset.resolve_options(None), codes)
        from service.rules.chan.captures import History

        if ruleset.legal_discards(parsed, History()):
            hands.append(codes)
    return hands


def hands_for(ruleset_id: str, kind: str, rng: random.Random, n: int) -> list[list[str]]:
    """Hands that must discard, of one kind."""
    return chan_hands(kind, rng, n) if ruleset_id == "cardavia-chan" else fourcolor_hands(ruleset_id, kind, rng, n)


def analyse(ruleset_id: str, codes: list[str], visible: list[str]) -> Any:
    """One exact analysis from card codes (parsing included, as the endpoint does)."""
    ruleset = get_ruleset(ruleset_id)
    options = ruleset.resolve_options(None)
    hand = ruleset.parse(options, codes)
    if ruleset_id == "cardavia-chan":
        from service.rules.chan.captures import History

        return analyse_discards(ruleset, hand, options, visible, 4, History())
    return analyse_discards(ruleset, hand, options, visible, 4)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_exact(n: int, seed: int) -> dict[str, Any]:
    """ms per full ranking, per rule-set and hand kind."""
    out: dict[str, Any] = {}
    for ruleset_id in RULESETS:
        rng = random.Random(seed)
        for kind in ("near", "random", "winning"):
            warm = hands_for(ruleset_id, kind, rng, max(20, n // 5))
            for hand in warm:
                analyse(ruleset_id, hand, [])
            hands = hands_for(ruleset_id, kind, rng, n)
            times, legal = [], []
            for hand in hands:
                start = time.perf_counter_ns()
                result = analyse(ruleset_id, hand, [])
                times.append((time.perf_counter_ns() - start) / 1e6)
                legal.append(len(result.options))
            out[f"{ruleset_id}/{kind}"] = {
                "hands": n, "median_ms": round(statistics.median(times), 3), "p95_ms": round(percentile(times, .95), 3),
                "max_ms": round(max(times), 3), "mean_discards": round(statistics.mean(legal), 1)}
    return out


def main() -> None:
    """Run the three parts and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--kinds", nargs="*", default=["near", "mid", "dealt"],
                        help="Monte Carlo positions (none: the exact part only)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    tables = warm_tables()
    report = {"python": platform.python_version(), "machine": platform.machine(), "tables_s": round(tables, 2),
              "exact": bench_exact(args.hands, args.seed)}
    if args.kinds:
        report.update(bench_montecarlo(args.deals, args.seed, args.kinds))
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"Python {report['python']} on {report['machine']}; tables built in {report['tables_s']} s")
    print(f"\nExact ranking of every legal discard (target median <= {TARGET_EXACT_MS} ms):")
    for name, row in report["exact"].items():
        print(f"  {name:28s} median {row['median_ms']:7.3f} ms  p95 {row['p95_ms']:7.3f}  max {row['max_ms']:7.3f}"
              f"  ({row['mean_discards']} discards per hand, {row['hands']} hands)")
    if args.kinds:
        print_montecarlo(report)


def bench_montecarlo(deals: int, seed: int, kinds: list[str]) -> dict[str, Any]:
    """Playouts per second and the time to a +-2% interval, per rule-set and position (search_playouts.py)."""
    import search_playouts

    return {"montecarlo": {f"{ruleset_id}/{kind}": search_playouts.bench(ruleset_id, kind, deals, seed)
                           for ruleset_id in RULESETS for kind in kinds}}


def print_montecarlo(report: dict[str, Any]) -> None:
    """Print the Monte Carlo figures."""
    import search_playouts
    print(f"\nMonte Carlo search (targets >= {TARGET_PLAYOUTS} playouts/s on one core; +-{TARGET_HALF_WIDTH} on the "
          "leader's win probability within 5 s):")
    for name, row in report["montecarlo"].items():
        reached = (f"+-2% after {row['deals_to_target']} deals in {row['seconds_to_target']} s"
                   if row["deals_to_target"] else "+-2% not reached on the ladder")
        print(f"  {name:28s} {row['playouts_per_second']:6d} playouts/s ({row['playouts']} playouts in "
              f"{row['seconds']} s, {row['analyses']} hands analysed); {reached}")
        print(f"  {'':28s} {search_playouts.describe_answer(row['answer'])}")


if __name__ == "__main__":
    main()
