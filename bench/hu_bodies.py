"""Write N /v1/hu request bodies (random 21-card winning and near-miss bga-taiwan hands) as a JSON list; with
`readme`, the README's own `/v1/hu` example (an exposed triple and five cards in hand: a win) instead."""

from __future__ import annotations

import json
import random
import sys

from service.rules.fourcolor.cards import code
from service.rules.fourcolor.samples import near_miss, winning_hand
from service.rules.registry import get_ruleset

#: The README's `POST /v1/hu` example ("Is it a win?").
README_HU = {"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE", "yC", "yC"],
             "exposed": [{"kind": "triple", "cards": ["wS", "wS", "wS"]}], "public_card": "yC"}


def bodies(n: int, seed: int = 7) -> list[dict]:
    """Half winning hands, half near misses."""
    ruleset = get_ruleset("bga-taiwan")
    rules = ruleset.meld_rules(ruleset.resolve_options(None))
    rng = random.Random(seed)
    out = []
    for i in range(n):
        hand = winning_hand(rng, rules) if i % 2 == 0 else near_miss(rng, rules)
        out.append({"ruleset": "bga-taiwan", "hand": [code(c) for c in hand[:20]], "public_card": code(hand[20])})
    return out


if __name__ == "__main__":
    if sys.argv[1:] == ["readme"]:
        json.dump(README_HU, sys.stdout)
    else:
        json.dump(bodies(int(sys.argv[1]) if len(sys.argv) > 1 else 200), sys.stdout)
