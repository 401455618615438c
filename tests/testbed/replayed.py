"""The position of a seat about to discard at some event of a round log, with the true rest of the round.

`position_before(log, k)` replays the log's first k events with the audit's own state machine, as a reviewer
(event k must be a discard), and returns the discarding seat's position as a search request (what he has seen:
every card out of play, the exposed melds), plus what the sampled deals of a search stand for, here known: the
other seats' concealed cards, the stock still to come and, for Chắn, every seat's history and initial deal. A
playout of the discard on that deal, appended to the first k events, is a whole round log.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from service.replay.decisions import SeatView
from service.replay.families import replay_family
from service.replay.log import parse_log
from service.replay.reviewers import reviewer_for
from service.rules.chan.captures import history_json
from service.rules.errors import DomainError
from service.rules.registry import get_ruleset
from service.search.deal import Deal
from service.search.position import Position, parse_position


def discards(log: dict) -> list[int]:
    """Indices of the log's discards a search can start from: the discard goes to the next seat (not the one
    after an out-of-turn Chíu, whose discard returns to the interrupted gate)."""
    events = log["events"]
    return [k for k, e in enumerate(events) if e["type"] == "discard" and (k == 0 or events[k - 1]["type"] != "chiu")]


def drawn_position(log: dict, salt: str) -> tuple[int, Position, Deal] | None:
    """One discard of the log drawn at random (seeded by `salt`) among those a search can start from: its event
    index, the position as a search parses it and the true deal; None when the log has none, or the drawn position
    is one no search request can state."""
    found = discards(log)
    if not found:
        return None
    k = random.Random(salt).choice(found)
    payload, true = position_before(log, k)
    rs = get_ruleset(log["ruleset"])
    try:
        return k, parse_position(rs, rs.resolve_options(log.get("options")), payload), true
    except DomainError:
        return None


def position_before(log: dict, k: int) -> tuple[dict[str, Any], Deal]:
    """The position of the seat discarding at event k (a search request) and the true rest of the round."""
    parsed = parse_log({**log, "events": log["events"][:k], "result": None})
    replay = reviewer_for(parsed)
    replay.run()
    seat = log["events"][k]["seat"]
    hands = [replay.concealed(s) for s in range(replay.seats)]
    left = Counter(get_ruleset(log["ruleset"]).deck())
    stock = parsed.stock
    assert stock is not None  # the testbed replays complete logs
    for cards in hands + [m.cards for melds in replay.exposed for m in melds] + [stock[replay.drawn:]]:
        left.subtract(cards)
    view = replay.seat_view(seat, sorted(left.elements()), None)
    payload = {"ruleset": log["ruleset"], **position_request(view, replay.show)}
    histories, dealt = replay_family(parsed.ruleset).records(replay)
    deal = Deal(tuple(() if s == seat else tuple(h) for s, h in enumerate(hands)), tuple(stock[replay.drawn:]),
                histories, dealt)
    return payload, deal


def position_request(view: SeatView, show: Any) -> dict[str, Any]:
    """A seat's view as a search request, cards as codes (`show`: the family's card code)."""

    def melds(of: tuple[Any, ...]) -> list[dict[str, Any]]:
        return [{"kind": m.kind, "cards": m.codes()} for m in of]

    return {
        "hand": [show(c) for c in view.hand], "exposed": melds(view.exposed),
        "visible": [show(c) for c in view.visible], "seats": view.seats, "seat": view.seat,
        "stock_remaining": view.stock_remaining,
        "opponents": [{"seat": s, "exposed": melds(m)} for s, m in enumerate(view.opponents) if s != view.seat],
        "history": None if view.history is None else history_json(view.history),
    }
