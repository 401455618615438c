"""How far from a win the search deals the other seats' hands, against their true hands at the same points of play
(service/search/shaping.py): the table engine 0.3.1's rates were tuned on; engine 0.3.2's `shaping_swaps` is three
times those, tuned on the playouts' outcomes (`bench/calibration.py --truth --steps`).

Over advice-against-advice rounds of a seed (default 6001, a tuning seed: never one the arena or the calibration
judges on), one discard per round is drawn among the round log's discards (as `bench/calibration.py --truth` does);
at that point every other seat's true concealed hand, and `--deals` hands dealt for it by the search, uniformly and
shaped (with the rule-set's `shaping_swaps` or, with `--steps`, other values), are measured by the structural
distance to a win (`seat_distance`). The decisions are cut into five groups by the turns played (`turns_played`);
each row gives their mean distances, and the last line what dealing one deal cost in each group (milliseconds,
this one core). Shaping matches when its column follows the true one.

    .venv/bin/python bench/shaping.py [--ruleset R ...] [--rounds N] [--seed S] [--deals D] [--steps 3,4,5] [--json]
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

from service.arena.duplicate import SEATS, Arena, play_round  # noqa: E402
from service.rules.registry import all_rulesets, get_ruleset  # noqa: E402
from service.search import shaping  # noqa: E402
from service.search.deal import deal_rng, sample_deal  # noqa: E402
from service.search.families import search_family, table_of  # noqa: E402
from tests.testbed.replayed import drawn_position  # noqa: E402

GROUPS = 5


def rows_of(ruleset: str, rounds: int, seed: int, deals: int, steps: list[float]) -> list[dict[str, Any]]:
    """Per drawn decision: the turns played, the true hands' mean distance, the uniform hands' and the shaped
    hands' (per value of `steps`), each over the other seats holding concealed cards."""
    rs = get_ruleset(ruleset)
    arena = Arena(ruleset, ("advice",) * SEATS, seed)
    found = []
    for deal in range(rounds):
        log = play_round(arena, deal, 0)
        drawn = drawn_position(log, f"shaping/{ruleset}/{seed}/{deal}")
        if drawn is None:
            continue  # no discard, or a position no search request can state
        _, position, true = drawn
        table = table_of(position)
        distance = search_family(rs).seat_distance(table)
        seats = [s for s in range(SEATS) if s != position.seat and true.hands[s]]
        if not seats:
            continue

        def mean_distance(hands: Any, distance: Any = distance, seats: list[int] = seats) -> float:
            return statistics.fmean(distance(s, hands[s]) for s in seats)

        started = time.perf_counter()
        dealt = [sample_deal(position, deal_rng(deal, i)).hands for i in range(deals)]
        seconds = [(time.perf_counter() - started) / deals]
        uniform = statistics.fmean(mean_distance(hands) for hands in dealt)
        shaped = []
        for per_turn in steps:
            started = time.perf_counter()
            dealt = [shaping.shaped_deal(position, deal_rng(deal, i), distance, per_turn).hands for i in range(deals)]
            seconds.append((time.perf_counter() - started) / deals)
            shaped.append(statistics.fmean(mean_distance(hands) for hands in dealt))
        found.append({"turns": shaping.turns_played(position), "true": mean_distance(true.hands),
                      "uniform": uniform, "shaped": shaped, "ms": [1000 * x for x in seconds]})
    return found


def grouped(rows: list[dict[str, Any]], steps: list[float]) -> list[dict[str, Any]]:
    """The rows in `GROUPS` groups by turns played: each group's means."""
    ordered = sorted(rows, key=lambda r: r["turns"])
    out = []
    for g in range(GROUPS):
        part = ordered[g * len(ordered) // GROUPS:(g + 1) * len(ordered) // GROUPS]
        if not part:
            continue
        out.append({"decisions": len(part), "turns": statistics.fmean(r["turns"] for r in part),
                    "true": statistics.fmean(r["true"] for r in part),
                    "uniform": statistics.fmean(r["uniform"] for r in part),
                    "shaped": {str(s): statistics.fmean(r["shaped"][i] for r in part) for i, s in enumerate(steps)},
                    "ms": {"uniform": statistics.fmean(r["ms"][0] for r in part),
                           **{str(s): statistics.fmean(r["ms"][i + 1] for r in part) for i, s in enumerate(steps)}}})
    return out


def main() -> int:
    """Measure every asked rule-set and print the tables (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="rule-set id (repeatable; default: every one)")
    parser.add_argument("--rounds", type=int, default=200, help="advice rounds, one decision each")
    parser.add_argument("--seed", type=int, default=6001)
    parser.add_argument("--deals", type=int, default=4, help="hands dealt per decision and way of dealing")
    parser.add_argument("--steps", default=None, help="swaps per turn to try, comma-separated (default: the "
                                                      "shipped value)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, Any] = {}
    for ruleset in args.ruleset or [r.id for r in all_rulesets()]:
        steps = ([float(s) for s in args.steps.split(",")] if args.steps
                 else [get_ruleset(ruleset).shaping_swaps])
        started = time.monotonic()
        groups = grouped(rows_of(ruleset, args.rounds, args.seed, args.deals, steps), steps)
        out[ruleset] = {"seed": args.seed, "rounds": args.rounds, "deals": args.deals,
                        "shipped": get_ruleset(ruleset).shaping_swaps, "groups": groups,
                        "seconds": round(time.monotonic() - started, 1)}
        if not args.json:
            print(f"{ruleset}: seed {args.seed}, {args.rounds} rounds, {args.deals} deals a decision; mean "
                  f"structural distance of the other seats' hands (shipped: {out[ruleset]['shipped']} swaps a turn)")
            print("turns  decisions   true  uniform  " + "  ".join(f"shaped {s:g}" for s in steps))
            for g in groups:
                print(f"{g['turns']:5.2f}  {g['decisions']:9d}  {g['true']:5.2f}  {g['uniform']:7.2f}  "
                      + "  ".join(f"{g['shaped'][str(s)]:9.2f}" for s in steps))
            print("ms a deal, by the same groups: uniform " + " / ".join(f"{g['ms']['uniform']:.2f}" for g in groups)
                  + "".join(f"; shaped {s:g} " + " / ".join(f"{g['ms'][str(s)]:.2f}" for g in groups)
                            for s in steps))
            print(f"({out[ruleset]['seconds']} s)\n")
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
