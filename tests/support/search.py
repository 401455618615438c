"""Positions for the search tests: cut out of simulated rounds (`tests.testbed.replayed`), where the true deal
and stock are known, and a small two-seat position whose win probability can be counted exactly; the family's
playout table of a position and its playouts, as the search runs them."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

from service.replay.families import simulate
from service.rules.fourcolor import cards as fc_cards
from service.rules.registry import get_ruleset
from service.search import families
from service.search.chan_table import ChanTable
from service.search.deal import Deal, Outcome, deal_rng, sample_deal
from service.search.fourcolor_table import FourColorTable
from service.search.position import Position, parse_position
from tests.testbed.replayed import discards, position_before

BGA, FLOWERS, CHAN = "bga-taiwan", "cardavia-flowers", "cardavia-chan"
RULESETS = (BGA, FLOWERS, CHAN)


@cache
def simulated(ruleset_id: str, seed: int, policy: str = "greedy") -> dict:
    """One simulated round's log (4 seats)."""
    return simulate(ruleset_id, seed, 4, policy)


def position_of(payload: dict[str, Any]) -> Position:
    """Parse a request's position under its rule-set's default options."""
    ruleset = get_ruleset(payload["ruleset"])
    return parse_position(ruleset, ruleset.resolve_options(payload.get("options")), payload)


@cache
def sample_position(ruleset_id: str, seed: int = 3, which: int = 2) -> tuple[dict[str, Any], Deal]:
    """A mid-round position of a simulated round (the `which`-th usable discard) and its true deal."""
    log = simulated(ruleset_id, seed)
    return position_before(log, discards(log)[which])


#: A two-seat bga-taiwan position small enough to count exactly. The player (seat 0) holds 20 cards waiting on
#: rH or rP (16 hu points: the opponent pays) and `yH`; the opponent's 17 exposed cards score 1 point, so he never
#: wins (a win must pay him) and he holds no pair (no claim). Seven cards are unseen: rH, rP and five that meld
#: with nothing; three fill the opponent's hand, two are the stock, two are out of play.
SMALL_HAND = "rG rA rE yG yA yE gS rS yS wS gC gH gP wC wC wC rH rH rP rP yH".split()
SMALL_OPPONENT = [("pair", ["yC", "yC"]), ("pair", ["yP", "yP"]), ("pair", ["gA", "gA"]), ("pair", ["gE", "gE"]),
                  ("pair", ["wA", "wA"]), ("pair", ["wE", "wE"]), ("pair", ["rC", "rC"]), ("triple", ["wH"] * 3)]
SMALL_UNSEEN = ["rH", "rP", "yC", "gA", "wE", "rC", "wP"]
SMALL_WAITS = ("rH", "rP")


def small_position() -> dict[str, Any]:
    """The request of the small position (every card not in it is visible)."""
    left = Counter(fc_cards.code(c) for c in get_ruleset(BGA).deck())
    left.subtract(SMALL_HAND + [c for _, cards in SMALL_OPPONENT for c in cards] + SMALL_UNSEEN)
    return {"ruleset": BGA, "hand": SMALL_HAND, "exposed": [], "visible": sorted(left.elements()), "seats": 2,
            "seat": 0, "opponents": [{"seat": 1, "exposed": [{"kind": k, "cards": c} for k, c in SMALL_OPPONENT]}],
            "stock_remaining": 2}


def table_of(position: Position) -> FourColorTable | ChanTable:
    """The family's playout table of a position (as the search builds it)."""
    return families.table_of(position)


def play(table: FourColorTable | ChanTable, card: int, deal: Deal, seed: int,
         log: list[dict] | None = None) -> Outcome:
    """One playout of the family."""
    return families.play(table, card, deal, random.Random(seed), log)


def played_table(position: Position, seed: int, candidates: int) -> FourColorTable | ChanTable:
    """A table after 30 sampled deals of seed `seed`, each played from the first `candidates` legal discards: its
    planner remembers the hands the player met."""
    table = table_of(position)
    for i in range(30):
        deal = sample_deal(position, deal_rng(seed, i))
        for candidate in position.legal_discards()[:candidates]:
            play(table, candidate, deal, i)
    return table
