"""POST /v1/settlements (round settlement) and POST /v1/matches (running match totals)."""

from __future__ import annotations

from flask.views import MethodView

from ...rules.errors import InvalidSeat
from ...rules.fourcolor.settle import match_totals
from ..blueprint import Blueprint
from ..common import echo, meld_json, resolve
from ..examples import SETTLE_ROUND, TOTAL_MATCH
from .schemas import MatchRequestSchema, MatchResponseSchema, SettlementRequestSchema, SettlementResponseSchema

blp = Blueprint("settlements", __name__, url_prefix="/v1", description="Round settlement and match totals")

STANDARD_ROUNDS = 3  # docs/rules.md#fc-match: "the standard match is 3 rounds"


@blp.route("/settlements")
class Settlements(MethodView):
    """Settle a round won by hu."""

    @blp.doc(operationId="settle_round")
    @blp.arguments(SettlementRequestSchema(), example=SETTLE_ROUND)
    @blp.response(200, SettlementResponseSchema())
    def post(self, payload: dict):
        """Points of the winning hand, each step of the count, and what every seat pays or receives."""
        ruleset, options = resolve(payload)
        ruleset.check_seats(payload["seats"], payload["winner"])
        if ruleset.id != "bga-taiwan" and payload["lucky_card"] is not None:
            raise InvalidSeat("lucky_card exists only in bga-taiwan", "lucky_card", code="not_in_ruleset")
        if ruleset.family != "chan" and payload["context"] is not None:
            raise InvalidSeat("context exists only in cardavia-chan", "context", code="not_in_ruleset")
        extra = {"lucky_card": payload["lucky_card"]} if ruleset.id == "bga-taiwan" else None
        hand = ruleset.parse(options, payload["hand"], payload["exposed"], payload["public_card"], extra)
        if ruleset.family == "chan":
            result = ruleset.settle(hand, options, payload["seats"], payload["winner"], payload["context"])
            melds, lucky, bonuses = result.pairs, 0, list(result.bonuses)
        else:
            result = ruleset.settle(hand, options, payload["seats"], payload["winner"], payload["lucky_card"])
            melds, lucky, bonuses = result.melds, result.lucky_bonus, []
        rules = ruleset.meld_rules(options)
        answer = echo(ruleset, options)
        answer.update(
            points=result.points, lucky_bonus=lucky, bonuses=bonuses, melds=[meld_json(m, rules) for m in melds],
            breakdown=[{"step": li.step, "text": li.text, "points": li.points} for li in result.breakdown],
            seats=payload["seats"], winner=payload["winner"], deltas=list(result.deltas),
        )
        return answer


@blp.route("/matches")
class Matches(MethodView):
    """Running totals of a match."""

    @blp.doc(operationId="total_match")
    @blp.arguments(MatchRequestSchema(), example=TOTAL_MATCH)
    @blp.response(200, MatchResponseSchema())
    def post(self, payload: dict):
        """Add round deltas to every player's starting points; report totals and the leaders."""
        ruleset, options = resolve(payload)
        seats, rounds = payload["seats"], payload["rounds"]
        ruleset.check_seats(seats)
        for i, deltas in enumerate(rounds):
            if len(deltas) != seats:
                raise InvalidSeat(f"round {i} has {len(deltas)} deltas for {seats} seats", f"rounds.{i}")
            if sum(deltas) != 0:
                raise InvalidSeat(f"round {i} deltas sum to {sum(deltas)}, not 0", f"rounds.{i}",
                                  code="deltas_not_zero_sum")
        totals = match_totals(rounds, seats, payload["start"])
        final = totals[-1] if totals else [payload["start"]] * seats
        top = max(final)
        answer = echo(ruleset, options)
        answer.update(start=payload["start"], totals=totals, final=final,
                      leaders=[s for s, v in enumerate(final) if v == top], rounds_played=len(rounds),
                      standard_rounds=STANDARD_ROUNDS)
        return answer
