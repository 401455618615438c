"""Monte Carlo search benchmark: playouts per second and the seconds to a +-2% interval, per rule-set.

Positions (seeded): `near`, a hand one card from a win (a winning hand with one card swapped; Four Color Cards 21
cards, Chắn 20) with 12 visible cards, the player at seat 0 about to discard; `mid`, the position of a seat about
to discard a few turns into a simulated round (greedy simulator, `tests.testbed.replayed`), its melds, the other
seats' melds and the cards out of play as they are; `dealt`, a random hand of the same size and 12 visible cards.
Each search plays the default candidates (the top 4 of the exact ranking) on the same
deals with early stopping off, on this one core, in a fresh memo: the exact analyses of the player's hands are
counted in (they are what the first deals pay for).

1. Playouts per second over the first `--deals` deals (x 4 candidates), where most of the player's hands are new.
2. Seconds to a +-2% interval: the leader's 95% Wilson interval half-width on its win probability after n deals,
   for n on a ladder, from the search's own elapsed time (elimination off); target <= 5 s.
3. The default search (elimination of clearly worse candidates on) with a 5 s budget: how it stopped, the deals
   and playouts it got through, and the leader's half-width.

    .venv/bin/python bench/search_playouts.py [--deals N] [--seed S] [--rulesets ID ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: measure this tree's engine

from service.advice.warm import warm_tables  # noqa: E402
from service.replay.families import simulate  # noqa: E402
from service.rules.chan import samples as chan_samples  # noqa: E402
from service.rules.chan.cards import code as chan_code  # noqa: E402
from service.rules.fourcolor import samples  # noqa: E402
from service.rules.fourcolor.cards import code as fc_code  # noqa: E402
from service.rules.registry import get_ruleset  # noqa: E402
from service.search.montecarlo import search  # noqa: E402
from service.search.position import parse_position  # noqa: E402
from service.search.shaping import DEALINGS  # noqa: E402
from tests.testbed.replayed import discards, position_before  # noqa: E402

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")
LADDER = (250, 500, 1000, 1500, 2000, 2500, 3000, 4000, 5000)
TARGET_PLAYOUTS, TARGET_SECONDS, TARGET_HALF_WIDTH = 2000, 5.0, 0.02
VISIBLE = 12


def hand_of(ruleset_id: str, kind: str, rng: random.Random) -> tuple[list[int], list[int]]:
    """A hand about to discard and the rest of the deck, as card ints."""
    if ruleset_id == "cardavia-chan":
        deck = [f for f in range(25) for _ in range(4)]
        if kind == "near":
            hand, win = chan_samples.near_miss(rng)
            cards = hand + [win]
        else:
            cards = rng.sample(deck, 20)
    else:
        rules = get_ruleset(ruleset_id).meld_rules(get_ruleset(ruleset_id).resolve_options(None))
        deck = [c for c in range(28) for _ in range(4)] + (list(range(28, 33)) if rules.flowers else [])
        make = samples.near_miss if kind == "near" else samples.random_hand
        cards = make(rng, rules, 21)
    rest = list(deck)
    for c in cards:
        rest.remove(c)
    return cards, rest


def mid_round(ruleset_id: str, seed: int) -> Any:
    """The position of the seat making the third discard of a simulated round (the first round with one)."""
    ruleset = get_ruleset(ruleset_id)
    while True:
        log = simulate(ruleset_id, seed, 4, "greedy")
        found = discards(log)
        if len(found) > 3:
            payload, _ = position_before(log, found[3])
            return parse_position(ruleset, ruleset.resolve_options(None), payload)
        seed += 1


def position(ruleset_id: str, kind: str, seed: int) -> Any:
    """The benchmark position: the hand, 12 visible cards, 4 seats, seat 0 to discard."""
    if kind == "mid":
        return mid_round(ruleset_id, seed)
    rng = random.Random(f"{ruleset_id}:{kind}:{seed}")
    ruleset = get_ruleset(ruleset_id)
    show = chan_code if ruleset_id == "cardavia-chan" else fc_code
    while True:
        cards, rest = hand_of(ruleset_id, kind, rng)
        visible = rng.sample(rest, VISIBLE)
        payload = {"hand": [show(c) for c in cards], "visible": [show(c) for c in visible], "seats": 4, "seat": 0}
        found = parse_position(ruleset, ruleset.resolve_options(None), payload)
        if len(found.legal_discards()) >= 2:
            return found


def bench(ruleset_id: str, kind: str, deals: int, seed: int, dealing: str = "shaped") -> dict[str, Any]:
    """Playouts per second and the time to the target half-width on one position."""
    where = position(ruleset_id, kind, seed)
    run = search(where, None, samples=deals, time_budget=600, seed=seed, min_samples=10**9, dealing=dealing)
    row: dict[str, Any] = {"deals": run.deals, "candidates": len(run.candidates), "playouts": run.playouts,
                           "seconds": round(run.elapsed, 2), "playouts_per_second": round(run.playouts_per_second),
                           "analyses": run.analyses, "seconds_to_target": None, "deals_to_target": None,
                           "playouts_per_second_to_target": None}
    for n in LADDER:
        step = search(where, None, samples=n, time_budget=600, seed=seed, min_samples=10**9, dealing=dealing)
        leader = step.candidates[0].win_probability
        if (leader.high - leader.low) / 2 <= TARGET_HALF_WIDTH:
            row.update(seconds_to_target=round(step.elapsed, 2), deals_to_target=n,
                       playouts_per_second_to_target=round(step.playouts_per_second))
            break
    answer = search(where, None, samples=100_000, time_budget=TARGET_SECONDS, seed=seed, dealing=dealing)
    leader = answer.candidates[0].win_probability
    row["answer"] = {"stopped": answer.stopped, "deals": answer.deals, "playouts": answer.playouts,
                     "seconds": round(answer.elapsed, 2), "half_width": round((leader.high - leader.low) / 2, 4),
                     "eliminated": sum(c.eliminated_after is not None for c in answer.candidates)}
    return row


def positions_parsed(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The arguments, with the rule-sets and position kinds to run and --json added (shared by bench/budget.py)."""
    parser.add_argument("--rulesets", nargs="*", default=list(RULESETS))
    parser.add_argument("--kinds", nargs="*", default=["near", "mid", "dealt"])
    parser.add_argument("--json", action="store_true")
    return parser.parse_args()


def machine_report() -> dict[str, Any]:
    """The Python and machine measured on, and the seconds building the engine's tables took (built here)."""
    tables = warm_tables()
    return {"python": platform.python_version(), "machine": platform.machine(), "tables_s": round(tables, 2)}


def main() -> None:
    """Run every rule-set and position kind and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--dealing", choices=DEALINGS, default="shaped",
                        help="how the other seats' hands are dealt (the search's default: shaped)")
    args = positions_parsed(parser)
    report: dict[str, Any] = {**machine_report(), "positions": {}}
    for ruleset_id in args.rulesets:
        for kind in args.kinds:
            report["positions"][f"{ruleset_id}/{kind}"] = bench(ruleset_id, kind, args.deals, args.seed, args.dealing)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"Python {report['python']} on {report['machine']}; tables built in {report['tables_s']} s")
    print(f"targets: >= {TARGET_PLAYOUTS} playouts/s; +-{TARGET_HALF_WIDTH} (95%) on the leader's win probability "
          f"within {TARGET_SECONDS} s")
    for name, row in report["positions"].items():
        reached = (f"+-2% after {row['deals_to_target']} deals in {row['seconds_to_target']} s "
                   f"({row['playouts_per_second_to_target']} playouts/s)"
                   if row["deals_to_target"] else f"+-2% not reached within {LADDER[-1]} deals")
        print(f"  {name:24s} {row['playouts_per_second']:6d} playouts/s ({row['playouts']} playouts in "
              f"{row['seconds']} s, {row['analyses']} hands analysed); {reached}")
        print(f"  {'':24s} {describe_answer(row['answer'])}")


def describe_answer(answer: dict[str, Any]) -> str:
    """The default search (elimination on) within the time target: how it stopped and how narrow it got."""
    return (f"default search in {TARGET_SECONDS:g} s: stopped by {answer['stopped']} after {answer['deals']} deals "
            f"({answer['playouts']} playouts, {answer['eliminated']} candidates dropped) in {answer['seconds']} s, "
            f"leader +-{answer['half_width']:.3f}")


if __name__ == "__main__":
    main()
