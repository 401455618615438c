"""Request examples, by operationId: shown in the OpenAPI document, and each one sent by the tests (2xx)."""

from __future__ import annotations

from typing import Any

#: The README's first example: exposed triple 1 + concealed command 2 + concealed triple 3 = 6 points.
EVALUATE_HU = {"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE", "yC", "yC"],
               "exposed": [{"kind": "triple", "cards": ["wS", "wS", "wS"]}], "public_card": "yC"}

#: A yellow Chariot discarded by the seat before: the next seat may take it into a triple or a pair.
LIST_MELDS = {"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE", "yC", "yC", "gH"], "public_card": "yC",
              "seat_role": "next"}

SETTLE_ROUND = {**EVALUATE_HU, "seats": 3, "winner": 0, "lucky_card": "gC"}

TOTAL_MATCH = {"ruleset": "bga-taiwan", "seats": 3, "rounds": [[4, -2, -2], [-1, 2, -1]]}

#: A short bga-taiwan round (seeded simulator): two triples claimed, a Soldiers set, seat 2's hu on its card.
AUDIT_LOG: dict[str, Any] = {
    "ruleset": "bga-taiwan", "seats": 3, "dealer": 1,
    "hands": [
        ["yP", "yE", "gP", "yS", "wH", "rS", "rP", "yC", "gA", "gS", "rA", "wA", "rP", "yG", "wA", "rA", "wE", "yA",
         "rG", "rE"],
        ["gS", "rH", "wC", "rS", "yH", "rC", "yA", "rE", "wG", "gS", "yH", "wP", "gE", "rC", "yE", "gC", "rH", "yE",
         "rH", "gC", "gP"],
        ["gS", "gE", "wC", "wS", "gG", "rS", "wG", "yP", "wH", "wC", "yG", "yH", "gH", "wA", "rS", "gE", "gH", "wS",
         "wH", "yC"],
    ],
    "events": [
        {"seat": 1, "type": "discard", "card": "gE"},
        {"seat": 2, "type": "claim", "meld": "triple", "cards": ["gE", "gE", "gE"]},
        {"seat": 2, "type": "discard", "card": "wA"},
        {"seat": 0, "type": "claim", "meld": "triple", "cards": ["wA", "wA", "wA"]},
        {"seat": 0, "type": "discard", "card": "yC"},
        {"seat": 1, "type": "draw", "card": "yS"},
        {"seat": 1, "type": "claim", "meld": "soldiers3", "cards": ["rS", "yS", "gS"]},
        {"seat": 2, "type": "hu"},
    ],
    "result": {"type": "hu", "winner": 2, "points": 11, "deltas": [-2, -2, 4]},
}

#: The dealer of that round before his opening discard (21 cards).
RANK_DISCARDS = {"ruleset": "bga-taiwan", "hand": AUDIT_LOG["hands"][1], "seats": 3, "seat": 1}

#: Seat 2 of that round facing seat 1's opening discard gE, which it took into a triple.
RANK_CLAIMS = {"ruleset": "bga-taiwan", "hand": AUDIT_LOG["hands"][2], "public_card": "gE", "card_source": "discard",
               "from_seat": 1, "seats": 3, "seat": 2}

CREATE_REPLAY = {"logs": [AUDIT_LOG], "players": [["An", "Binh", "Chi"]], "review": {"mode": "exact"}}

CREATE_SEARCH = {**RANK_DISCARDS, "samples": 200, "time_budget": 1.0, "seed": 7}

#: Two seeded rounds of three greedy players.
CREATE_SHARE = {"logs": [AUDIT_LOG], "title": "Friday night, round 1"}
SIMULATE_ROUNDS = {"ruleset": "bga-taiwan", "seed": 7, "seats": 3, "policy": "greedy", "rounds": 2}

EXAMPLES: dict[str, dict[str, Any]] = {
    "list_melds": LIST_MELDS, "evaluate_hu": EVALUATE_HU, "settle_round": SETTLE_ROUND, "total_match": TOTAL_MATCH,
    "audit_log": AUDIT_LOG, "rank_discards": RANK_DISCARDS, "rank_claims": RANK_CLAIMS,
    "create_replay": CREATE_REPLAY, "create_search": CREATE_SEARCH, "simulate_rounds": SIMULATE_ROUNDS,
    "create_share": CREATE_SHARE,
}
