"""Duplicate deals per second on one core, per rule-set and policy mix (a duplicate deal: 4 rounds, one per
rotation of the policies over the seats).

Usage: .venv/bin/python bench/arena.py [--deals N] [--seed S] [--policies P0,P1,P2,P3] [--json]
Mixes: 4 seats of `baseline`, 4 of `advice`, and `advice,baseline,advice,baseline`, or only the mix `--policies`
names (any arena policy, `py:MODULE:FACTORY` ones included: docs/bots.md#python-policies). Every mix plays the
same deals in one process, each rotation as `python -m service arena --jobs 1` plays it (a rotation that repeats
one of deterministic policies is not played again), the first deal once beforehand to build the tables; the
figure is deals over the wall time of the rest, with decisions (discards and claims asked of a policy) per second
beside it.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: this tree's engine, and bench/ policies by their names

from service.arena.duplicate import SEATS, Arena, distinct_rotations, play_with, seating_of  # noqa: E402
from service.arena.policies import check_names, make  # noqa: E402
from service.arena.seating import Seating  # noqa: E402
from service.rules.registry import all_rulesets  # noqa: E402

MIXES = {"baseline x4": ("baseline",) * 4, "advice x4": ("advice",) * 4,
         "advice-baseline": ("advice", "baseline", "advice", "baseline")}


class Counting:
    """Counts the decisions of the players it wraps (the arena's own players, from `make`)."""

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


def play_counted(arena: Arena, index: int, counting: Counting) -> None:
    """Deal `index` in every rotation the arena plays (`distinct_rotations`), each seat's player counted."""
    for rotation, played in enumerate(distinct_rotations(arena)):
        if played == rotation:
            players = [counting.wrap(make(name, Seating(arena.seed, index, rotation, seat, arena.budget,
                                                        arena.samples)))
                       for seat, name in enumerate(seating_of(arena, rotation))]
            play_with(arena, index, players)


def measure(ruleset: str, policies: tuple[str, ...], deals: int, seed: int) -> dict:
    """Deals and decisions per second of one mix."""
    counting, arena = Counting(), Arena(ruleset, policies, seed)
    play_counted(arena, deals, counting)  # warm: imports and evaluation tables, outside the timed deals
    counting.decisions = 0
    start = time.perf_counter()
    for index in range(deals):
        play_counted(arena, index, counting)
    elapsed = time.perf_counter() - start
    return {"deals": deals, "seconds": elapsed, "deals_per_s": deals / elapsed,
            "decisions_per_s": counting.decisions / elapsed, "decisions_per_deal": counting.decisions / deals}


def main() -> None:
    """CLI."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policies", default=None, help=f"time only this mix: {SEATS} comma-separated names")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    mixes = MIXES
    if args.policies:
        names = tuple(n.strip() for n in args.policies.split(","))
        try:
            check_names(names, SEATS)
        except ValueError as error:
            parser.error(str(error))
        mixes = {args.policies: names}
    print(f"arena throughput, one core: {platform.platform()}, {platform.python_implementation()} "
          f"{platform.python_version()}; {args.deals} duplicate deals (x 4 rounds) per rule-set and mix")
    print(f"  {'rule-set':<17} {'mix':<16} {'deals/s':>8} {'ms/deal':>9} {'decisions/s':>12} {'decisions/deal':>15}")
    figures: dict = {}
    for rs in all_rulesets():
        for mix, policies in mixes.items():
            figures[f"{rs.id} {mix}"] = fig = measure(rs.id, policies, args.deals, args.seed)
            print(f"  {rs.id:<17} {mix:<16} {fig['deals_per_s']:8.2f} {fig['seconds'] / args.deals * 1e3:9.0f} "
                  f"{fig['decisions_per_s']:12.0f} {fig['decisions_per_deal']:15.0f}")
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
