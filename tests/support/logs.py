"""Whole round logs for the review and job tests: a dealt bga-taiwan round that opens with a chosen discard, and
legal simulated rounds of every rule-set."""

from __future__ import annotations

import random

from service.replay.families import simulate
from service.rules.fourcolor.cards import CHESS_CODES
from tests.support.fourcolor_logs import BGA, FLOWERS, simulated

# The hand of tests/api/test_discards.py: melds worth 12 plus the loose yA and wC; discarding either loose card
# waits on the other's pair (3 unseen copies at the deal, 12 points, each of 3 opponents pays 3: gain 9).
BGA_HAND = ["rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS", "yS", "gS", "wE", "wE",
            "gH", "gH", "yA", "wC"]


def dealt_log(first_discard: str, first_stock: str | None = None) -> dict:
    """A 4-seat bga-taiwan round: the dealer (seat 0) holds BGA_HAND and opens with `first_discard`; with
    `first_stock`, that card is the first one turned up."""
    deck = list(CHESS_CODES) * 4
    for card in BGA_HAND + ([first_stock] if first_stock else []):
        deck.remove(card)
    random.Random(5).shuffle(deck)
    hands = [BGA_HAND] + [deck[i * 20:(i + 1) * 20] for i in range(3)]
    stock = ([first_stock] if first_stock else []) + deck[60:]
    return {"ruleset": BGA, "seats": 4, "dealer": 0, "hands": hands, "stock": stock,
            "events": [{"seat": 0, "type": "discard", "card": first_discard}]}


def simulated_logs() -> list[dict]:
    """Legal simulated rounds of the three rule-sets, both policies."""
    logs = [log for ruleset, seats in ((BGA, 4), (BGA, 2), (FLOWERS, 4)) for policy in ("greedy", "random")
            for log in simulated(ruleset, seats, policy, 4)]
    logs += [simulate("cardavia-chan", seed, 4, policy) for seed in range(4) for policy in ("greedy", "random")]
    return logs
