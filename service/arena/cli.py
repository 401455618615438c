"""`python -m service arena`: play duplicate deals between policies and print the figures
(docs/advice.md#arena-how-strong-the-advice-plays).

Exit status: 0 with the figures; 2 when the arguments are wrong (an unknown policy or rule-set, not exactly one
policy per seat, bad options) or an external bot broke the protocol (docs/bots.md), with the reason on standard
error; 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..rules.errors import DomainError
from ..rules.registry import all_rulesets, get_ruleset
from .bots import DEFAULT_TIMEOUT, BotError, close_all
from .duplicate import SEATS, Arena, play_deals
from .policies import POLICIES, Deterministic, check_names
from .seating import DEFAULT_SAMPLES, MAX_BUDGET, Seating
from .stats import summary

MEASURES = {"settlement": "the seat's settlement delta per round (points; negative when it pays)",
            "win": "1 for the round's winner, 0 otherwise (nobody pays under these options)"}


def add_parser(sub: Any) -> None:
    """The `arena` subcommand's arguments."""
    arena = sub.add_parser("arena", help="play policies against each other on duplicate deals",
                           description="Play every deal once per rotation of the policies over the seats and "
                                       "report each policy's mean score and every pair's paired difference.")
    arena.add_argument("--ruleset", required=True, help=f"one of {', '.join(r.id for r in all_rulesets())}")
    arena.add_argument("--policies", required=True,
                       help=f"{SEATS} comma-separated names, one per seat, repeats allowed; known: "
                            f"{', '.join(sorted(POLICIES))}, external:COMMAND (a bot program) and "
                            "py:MODULE:FACTORY (a Python policy, e.g. a baseline of bench/; docs/bots.md)")
    arena.add_argument("--deals", type=int, default=100, help="deals to play (each in every rotation)")
    arena.add_argument("--seed", type=int, default=0, help="deal i of a seed is the same deal for any policies")
    arena.add_argument("--options", default=None, help="rule options as a JSON object")
    arena.add_argument("--jobs", type=int, default=1, help="processes playing deals (same figures for any)")
    arena.add_argument("--budget", type=float, default=MAX_BUDGET,
                       help=f"search policy: seconds per decision, at most {MAX_BUDGET}")
    arena.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="search policy: deals per decision")
    arena.add_argument("--bot-timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                       help="external bots: seconds per decision before the run stops")
    arena.add_argument("--logs", default=None, metavar="DIR", help="write every round's game log into DIR")
    arena.add_argument("--json", action="store_true", help="print the figures as JSON")


def arena_of(args: argparse.Namespace) -> Arena:
    """The arena the arguments describe; ValueError or DomainError saying what is wrong."""
    names = tuple(n.strip() for n in args.policies.split(","))
    check_names(names, SEATS)
    rs = get_ruleset(args.ruleset)
    rs.check_seats(SEATS)
    options = json.loads(args.options) if args.options else {}
    if not isinstance(options, dict):
        raise ValueError("--options must be a JSON object")
    rs.resolve_options(options)
    if args.deals < 1 or args.jobs < 1 or args.samples < 1:
        raise ValueError("--deals, --jobs and --samples must be at least 1")
    if not 0 < args.budget <= MAX_BUDGET:
        raise ValueError(f"--budget must be more than 0 and at most {MAX_BUDGET} seconds")
    if not args.bot_timeout > 0:
        raise ValueError("--bot-timeout must be more than 0 seconds")
    return Arena(rs.id, names, args.seed, options, args.budget, args.samples, args.logs,
                 bot_timeout=args.bot_timeout)


def run(args: argparse.Namespace) -> int:
    """Play the arena and print its figures."""
    try:
        arena = arena_of(args)
    except (ValueError, DomainError) as error:
        print(f"arena: {getattr(error, 'message', error)}", file=sys.stderr)
        return 2
    if arena.logs is not None:
        from pathlib import Path

        Path(arena.logs).mkdir(parents=True, exist_ok=True)
    try:
        report = figures(arena, args.deals, args.jobs)
    except BotError as error:
        print(f"arena: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 130
    print(json.dumps(report, ensure_ascii=False, indent=2) if args.json else table(report))
    return 0


def figures(arena: Arena, deals: int, jobs: int = 1) -> dict[str, Any]:
    """Play the deals and compute the figures (a progress bar on a terminal's standard error)."""
    from tqdm import tqdm

    rs = get_ruleset(arena.ruleset)
    options = rs.resolve_options(arena.options)
    measure = "settlement" if rs.objective(options) == "expected_settlement" else "win"
    bar = tqdm(total=deals, unit="deal", file=sys.stderr, disable=not sys.stderr.isatty())
    played = []
    try:
        for rounds in play_deals(arena, deals, jobs):
            played.append(rounds)
            bar.update(1)
    finally:
        bar.close()
        close_all()  # the external bots' run ends here (a worker's bots end with the worker)
    names = list(dict.fromkeys(arena.policies))
    return {"ruleset": rs.id, "options": dict(options), "policies": list(arena.policies), "seats": SEATS,
            "seed": arena.seed, "deals": deals, "rotations": len(arena.policies), "rounds": deals * SEATS,
            "measure": measure, "measure_description": MEASURES[measure],
            "search": {"budget": arena.budget, "samples": arena.samples} if "search" in names else None,
            **summary(played, names, measure)}


#: Below this many deals the normal approximation of the intervals is too optimistic to read as 95%.
FEW_DEALS = 30


def table(report: dict[str, Any]) -> str:
    """The figures as a readable table."""
    wide = max([10, *(len(p["policy"]) for p in report["per_policy"])])  # an external:COMMAND name is long
    pair_wide = max([22, *(len(p["a"]) + len(p["b"]) + 3 for p in report["pairs"])])
    lines = [f"{report['ruleset']}: {report['deals']} deals x {report['rotations']} rotations "
             f"({report['rounds']} rounds), seed {report['seed']}, policies {','.join(report['policies'])}",
             f"score: {report['measure_description']}", "",
             f"{'policy':<{wide}} {'score':>9}  {'95% interval':<21} {'win rate':>8} {'pay rate':>8} "
             f"{'win points':>10} {'seat-rounds':>11}"]
    for p in report["per_policy"]:
        s = p["score"]
        points = "-" if p["mean_win_points"] is None else f"{p['mean_win_points']:.2f}"
        lines.append(f"{p['policy']:<{wide}} {s['mean']:>9.4f}  {_span(s):<21} {p['win_rate']:>8.3f} "
                     f"{p['pay_rate']:>8.3f} {points:>10} {p['rounds']:>11}")
    if report["pairs"]:
        lines += ["", "paired difference per deal (A - B):",
                  f"{'A - B':<{pair_wide}} {'mean':>9}  {'95% interval':<21} excludes 0"]
        for pair in report["pairs"]:
            d = pair["difference"]
            lines.append(f"{pair['a'] + ' - ' + pair['b']:<{pair_wide}} {d['mean']:>+9.4f}  {_span(d):<21} "
                         f"{'yes' if pair['excludes_zero'] else 'no'}")
    if report["deals"] < FEW_DEALS:
        lines += ["", f"note: the intervals are normal approximations; with fewer than {FEW_DEALS} deals they are "
                      "too narrow to trust"]
    return "\n".join(lines)


def _span(interval: dict[str, Any]) -> str:
    """[low, high], or a dash without an interval."""
    if interval["low"] is None:
        return "-"
    return f"[{interval['low']:+.4f}, {interval['high']:+.4f}]"


def deterministic_policy(name: str, make: Callable[[Seating], Any]) -> None:
    """Register `make` as arena policy `name`, deterministic (its rotations that repeat are played once), in this
    process: how bench/ceilings.py adds the policy it measures (a spawned worker registers it again). A policy
    that can be imported is better named `py:MODULE:FACTORY` (docs/bots.md#python-policies): every process loads
    it by its name."""
    POLICIES[name] = Deterministic(make)


def head_to_head_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of a bench harness that plays one policy head to head (`head_to_head`)."""
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--against", default="advice",
                        help="the policy of the other two seats (any arena policy, py:MODULE:FACTORY included)")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=6001)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")


def check_head_to_head(args: argparse.Namespace) -> None:
    """ValueError naming what is wrong with `head_to_head_arguments`."""
    check_names([args.against], 1)
    if args.deals < 1 or args.jobs < 1:
        raise ValueError("--deals and --jobs must be at least 1")


def head_to_head(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """The figures of policy `name` in two seats against `args.against` in the other two (`name, B, name, B`) on
    the duplicate deals of `args.seed`."""
    rs = get_ruleset(args.ruleset)
    return figures(Arena(rs.id, (name, args.against, name, args.against), args.seed, {}), args.deals, args.jobs)
