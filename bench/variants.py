"""A variant of the advice's order played head to head against the advice (or another policy) on the arena's
duplicate deals: how a change to the ranking is measured before it ships. The variants tried, each with its
figure, are listed in bench/README.md.

Usage: .venv/bin/python bench/variants.py --ruleset R --variant NAME [--against advice] [--deals N] [--seed S]
                                          [--jobs J] [--json]

The seats play `V,B,V,B` (B: `--against`, any arena policy), V being the arena policy `py:bench.variants:NAME`
(docs/bots.md#python-policies): the advice (`service/arena/advice.py`) made with the variant's ranking, which every
analysis it asks for ranks by (their `ranking` parameter). A variant is a `Ranking` (service/advice/ranking.py)
passed in: nothing of the service is replaced, and every figure its order reads is the engine's own. Variants:
- `shipped`: the advice's own order (`ranking.SHIPPED`): every figure equals the advice's (a check of the harness).
- `more_unseen`: between discards that leave equally good hands, the card with more unseen copies first (the
  advice: fewer). The example of a variant: it overrides `Ranking.discard`; one that overrides `Ranking.hand`
  changes the claims' order too, since a claim is compared by the hand it leaves.

A new variant is a `Ranking` in `VARIANTS` and its policy, a module attribute of the same name (`policy`), which
the arena loads by its name in this process and in each worker of `--jobs`. The same policy plays in any arena:
`.venv/bin/python -m service arena --ruleset R --policies py:bench.variants:more_unseen,advice,... --deals N`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout: this tree's engine, and this module by its name

from service.advice.ranking import SHIPPED, Ranking  # noqa: E402
from service.arena.advice import Advice  # noqa: E402
from service.arena.cli import check_head_to_head, head_to_head, head_to_head_arguments, table  # noqa: E402
from service.arena.policies import Deterministic  # noqa: E402
from service.rules.analysis import DiscardOption  # noqa: E402


class MoreUnseen(Ranking):
    """`more_unseen`: the advice's order with its tie-break reversed."""

    def discard(self, option: DiscardOption) -> tuple[float, ...]:
        return (*self.hand(option), -option.card_unseen)


#: Every variant by name: the ranking its advice ranks by.
VARIANTS: dict[str, Ranking] = {"shipped": SHIPPED, "more_unseen": MoreUnseen()}


def policy(name: str) -> Deterministic:
    """The arena policy of variant `name`: the advice ranking by it, deterministic as the advice is."""
    ranking = VARIANTS[name]
    return Deterministic(lambda seating: Advice(ranking=ranking))


shipped = policy("shipped")
more_unseen = policy("more_unseen")


def policy_name(variant: str) -> str:
    """The arena's name of a variant's policy; ValueError naming an unknown variant."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; known: {', '.join(sorted(VARIANTS))}")
    return f"py:bench.variants:{variant}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True, help=f"one of {', '.join(sorted(VARIANTS))}")
    head_to_head_arguments(parser)
    args = parser.parse_args()
    try:
        name = policy_name(args.variant)
        check_head_to_head(args)
    except ValueError as error:
        print(f"variants: {error}", file=sys.stderr)
        return 2
    report = head_to_head(name, args)
    report["variant"] = args.variant
    print(json.dumps(report, indent=2) if args.json else f"variant {args.variant}\n{table(report)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
