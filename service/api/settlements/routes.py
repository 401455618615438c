"""POST /v1/settlements (round settlement) and POST /v1/matches (running match totals)."""

from __future__ import annotations

from flask.views import MethodView

from ...i18n import localize
from ...rules.errors import DeltasNotZeroSum, InvalidSeat
from ...rules.fourcolor.settle import match_totals
from ...rules.registry import check_extras
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
        check_extras(ruleset, payload["lucky_card"], payload["context"])
        extra = {"lucky_card": payload["lucky_card"]} if ruleset.lucky_card else None
        hand = ruleset.parse(options, payload["hand"], payload["exposed"], payload["public_card"], extra)
        result = ruleset.settle(hand, options, payload["seats"], payload["winner"], lucky_card=payload["lucky_card"],
                                context=payload["context"])
        rules = ruleset.meld_rules(options)
        answer = echo(ruleset, options)
        answer.update(
            points=result.points, lucky_bonus=result.lucky_bonus, bonuses=list(result.bonuses),
            melds=[meld_json(m, rules) for m in result.melds],
            breakdown=[{"step": li.step, "text": localize(li.text), "points": li.points} for li in result.breakdown],
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
                raise DeltasNotZeroSum(f"round {i} deltas sum to {sum(deltas)}, not 0", f"rounds.{i}")
        totals = match_totals(rounds, seats, payload["start"])
        final = totals[-1] if totals else [payload["start"]] * seats
        top = max(final)
        answer = echo(ruleset, options)
        answer.update(start=payload["start"], totals=totals, final=final,
                      leaders=[s for s, v in enumerate(final) if v == top], rounds_played=len(rounds),
                      standard_rounds=STANDARD_ROUNDS)
        return answer
