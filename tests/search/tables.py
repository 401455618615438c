"""Positions for the search tests: cut out of simulated rounds, where the true deal and stock are known.

`cut(log, k)` replays a simulated log up to its event k (a discard) with the audit's own state machine and returns
the discarding seat's position as a search request, plus the true rest of the round as a `Deal` (the other seats'
concealed cards, the stock still to come, Chắn histories and initial deals). A playout on that deal, appended to
the log's first k events, is a complete round the audit can check.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from service.replay.audit import replay_for
from service.replay.log import parse_log
from service.replay.simulate_chan import simulate as simulate_chan
from service.replay.simulate_fourcolor import simulate as simulate_fourcolor
from service.rules.chan import cards as chan_cards
from service.rules.fourcolor import cards as fc_cards
from service.rules.registry import get_ruleset
from service.search.deal import Deal
from service.search.position import Position, parse_position

BGA, FLOWERS, CHAN = "bga-taiwan", "cardavia-flowers", "cardavia-chan"
RULESETS = (BGA, FLOWERS, CHAN)


@cache
def simulated(ruleset_id: str, seed: int, policy: str = "greedy") -> dict:
    """One simulated round's log (4 seats)."""
    if ruleset_id == CHAN:
        return simulate_chan(ruleset_id, seed, 4, policy)
    return simulate_fourcolor(ruleset_id, seed, 4, policy)


def discards(log: dict) -> list[int]:
    """Indices of the log's discards a search can start from: the discard goes to the next seat (not the one
    after an out-of-turn Chíu, whose discard returns to the interrupted gate)."""
    events = log["events"]
    return [k for k, e in enumerate(events) if e["type"] == "discard" and (k == 0 or events[k - 1]["type"] != "chiu")]


def _deck(ruleset_id: str) -> list[int]:
    """Every card of the rule-set's deck."""
    if ruleset_id == CHAN:
        return [c for c in range(chan_cards.N_FACES) for _ in range(4)]
    flowers = list(range(28, 33)) if ruleset_id == FLOWERS else []
    return [c for c in range(28) for _ in range(4)] + flowers


def cut(log: dict, k: int) -> tuple[dict[str, Any], Deal]:
    """The position of the seat discarding at event k (a search request) and the true rest of the round."""
    parsed = parse_log({**log, "events": log["events"][:k], "result": None})
    replay = replay_for(parsed)
    replay.run()
    chan = parsed.ruleset.family == "chan"
    show = chan_cards.code if chan else fc_cards.code
    seat = log["events"][k]["seat"]
    if chan:
        hands = [[f for f, n in enumerate(c) for _ in range(n)] for c in replay.counts]
    else:
        hands = [h.cards() for h in replay.hands]
    left = Counter(_deck(log["ruleset"]))
    for cards in hands + [m.cards for melds in replay.exposed for m in melds] + [parsed.stock[replay.drawn:]]:
        left.subtract(cards)
    payload: dict[str, Any] = {
        "ruleset": log["ruleset"], "hand": [show(c) for c in hands[seat]],
        "exposed": [{"kind": m.kind, "cards": m.codes()} for m in replay.exposed[seat]],
        "visible": [show(c) for c in sorted(left.elements())], "seats": parsed.seats, "seat": seat,
        "opponents": [{"seat": s, "exposed": [{"kind": m.kind, "cards": m.codes()} for m in replay.exposed[s]]}
                      for s in range(parsed.seats) if s != seat],
        "stock_remaining": None,
    }
    if chan:
        history = replay.history[seat]
        payload["history"] = {name: [show(c) for c in sorted(getattr(history, name))]
                              for name in ("discarded", "passed_identical", "played_into_ca")}
        payload["history"]["captured_ca"] = history.captured_ca
    deal = Deal(tuple(() if s == seat else tuple(h) for s, h in enumerate(hands)), tuple(parsed.stock[replay.drawn:]),
                tuple(replay.history) if chan else None, tuple(tuple(c) for c in replay.dealt) if chan else None)
    return payload, deal


def position_of(payload: dict[str, Any]) -> Position:
    """Parse a request's position under its rule-set's default options."""
    ruleset = get_ruleset(payload["ruleset"])
    return parse_position(ruleset, ruleset.resolve_options(payload.get("options")), payload)


@cache
def sample_position(ruleset_id: str, seed: int = 3, which: int = 2) -> tuple[dict[str, Any], Deal]:
    """A mid-round position of a simulated round (the `which`-th usable discard) and its true deal."""
    log = simulated(ruleset_id, seed)
    return cut(log, discards(log)[which])
