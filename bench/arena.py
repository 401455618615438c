"""Duplicate deals per second on one core, per rule-set and policy mix (a duplicate deal: 4 rounds, one per
rotation of the policies over the seats).

Usage: .venv/bin/python bench/arena.py [--deals N] [--seed S] [--json]
Mixes: 4 seats of `baseline`, 4 of `advice`, and `advice,baseline,advice,baseline`. Every mix plays the same
deals in one process (`play_deal`, as `python -m service arena --jobs 1` does), the first deal once beforehand to
build the tables; the figure is deals over the wall time of the rest, with decisions (discards and claims asked
of a policy) per second beside it.
"""

from __future__ import annotations

import argparse
import json
import platform
import time

from service.arena.duplicate import Arena, play_deal
from service.rules.registry import all_rulesets

MIXES = {"baseline x4": ("baseline",) * 4, "advice x4": ("advice",) * 4,
         "advice-baseline": ("advice", "baseline", "advice", "baseline")}


class Counting:
    """Counts the decisions of the players it wraps (the arena's own `make`, wrapped)."""

    def __init__(self) -> None:
        self.decisions = 0

    def wrap(self, player):
        counter = self

        class Counted:
            def discard(self, view):
                counter.decisions += 1
                return player.discard(view)

            def claim(self, *args):
                counter.decisions += 1
                return player.claim(*args)

        return Counted()


def measure(ruleset: str, policies: tuple[str, ...], deals: int, seed: int) -> dict:
    """Deals and decisions per second of one mix."""
    from service.arena import duplicate

    counting, real = Counting(), duplicate.make
    duplicate.make = lambda name, seating: counting.wrap(real(name, seating))
    try:
        arena = Arena(ruleset, policies, seed)
        play_deal(arena, deals)  # warm: imports and evaluation tables, outside the timed deals
        counting.decisions = 0
        start = time.perf_counter()
        for index in range(deals):
            play_deal(arena, index)
        elapsed = time.perf_counter() - start
    finally:
        duplicate.make = real
    return {"deals": deals, "seconds": elapsed, "deals_per_s": deals / elapsed,
            "decisions_per_s": counting.decisions / elapsed, "decisions_per_deal": counting.decisions / deals}


def main() -> None:
    """CLI."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    print(f"arena throughput, one core: {platform.platform()}, {platform.python_implementation()} "
          f"{platform.python_version()}; {args.deals} duplicate deals (x 4 rounds) per rule-set and mix")
    print(f"  {'rule-set':<17} {'mix':<16} {'deals/s':>8} {'ms/deal':>9} {'decisions/s':>12} {'decisions/deal':>15}")
    figures: dict = {}
    for rs in all_rulesets():
        for mix, policies in MIXES.items():
            figures[f"{rs.id} {mix}"] = fig = measure(rs.id, policies, args.deals, args.seed)
            print(f"  {rs.id:<17} {mix:<16} {fig['deals_per_s']:8.2f} {fig['seconds'] / args.deals * 1e3:9.0f} "
                  f"{fig['decisions_per_s']:12.0f} {fig['decisions_per_deal']:15.0f}")
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
