"""POST /v1/claims: pass, every legal claim on a public card with the discard to follow it, and a win, ranked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import jsonify
from flask.views import MethodView

from ...advice.analyse import analyse_claims
from ...advice.value import shown_value
from ...i18n import localize
from ...rules.analysis import ClaimAnalysis, ClaimOption, DiscardOption
from ...rules.errors import InvalidSeat
from ...rules.protocol import RuleSet
from ...rules.roles import seat_role
from ..blueprint import Blueprint
from ..common import echo, resolve
from ..examples import RANK_CLAIMS
from .schemas import ClaimsRequestSchema, ClaimsResponseSchema

blp = Blueprint("claims", __name__, url_prefix="/v1", description="Claim advice")


def role_of(payload: dict) -> str:
    """The seat's role on the card (`seats`, `seat` and `from_seat` checked first, naming the field)."""
    seats = payload["seats"]
    for field in ("seat", "from_seat"):
        if payload[field] >= seats:
            raise InvalidSeat(f"{field} must be a seat index 0..{seats - 1}", field)
    return seat_role(payload["seat"], payload["from_seat"], payload["card_source"], seats)


def analyse(ruleset: RuleSet, options: dict, payload: dict, role: str) -> ClaimAnalysis:
    """Validate the hand and run the advice's claim analysis."""
    ruleset.check_seats(payload["seats"])
    hand = ruleset.parse(options, payload["hand"], payload["exposed"], payload["public_card"])
    return analyse_claims(ruleset, hand, options, role, payload["visible"], payload["seats"],
                          source=payload["card_source"], history=ruleset.history_of(payload.get("history")))


def _figures(ruleset: RuleSet, option: ClaimOption | DiscardOption, others: list[int]) -> dict[str, Any]:
    """Distance, waits, improving cards and expected gain of what an option leaves."""
    show = ruleset.card_code
    return {
        "distance": option.distance, "paying_distance": option.paying,
        "paying_improving": option.paying_improving, "rich_distance": option.rich,
        "waits": [{"card": show(w.card), "unseen": w.unseen, "claims": list(w.claims),
                   "from_seats": others if ("discard" in w.claims or "chiu" in w.claims) else [],
                   "points": w.points, "gain": w.gain} for w in option.waits],
        "improving": [{"card": show(c), "unseen": n} for c, n in option.improving],
        "improving_unseen": option.improving_unseen, "expected_gain": round(option.expected_gain, 4),
    }


def analysis_json(ruleset: RuleSet, analysis: ClaimAnalysis, seats: int, seat: int,
                  options: Mapping[str, Any]) -> dict[str, Any]:
    """The options in card codes."""
    show = ruleset.card_code
    others = [s for s in range(seats) if s != seat]
    out = []
    for o in analysis.options:
        follow = None if o.follow is None else {"card": show(o.follow.card), "unseen": o.follow.card_unseen,
                                                 "rank": o.follow.rank, "reason": localize(o.follow.reason),
                                                 **_figures(ruleset, o.follow, others),
                                                 "sets_kept": o.follow.sets_kept,
                                                 "value": shown_value(o.follow)}
        out.append({"kind": o.kind, "cards": [show(c) for c in o.cards], "rank": o.rank, "reason": localize(o.reason),
                    "priority": o.priority, "forced": o.forced, "preempted": o.preempted, "follow": follow,
                    "gain": o.gain,
                    **_figures(ruleset, o, others), "value": shown_value(o)})
    return {"forced": analysis.forced, "advice": out[0]["kind"], "choices": out}


@blp.route("/claims")
class Claims(MethodView):
    """Claim advice."""

    @blp.doc(operationId="rank_claims")
    @blp.arguments(ClaimsRequestSchema(), example=RANK_CLAIMS)
    @blp.response(200, ClaimsResponseSchema())
    def post(self, payload: dict):
        """Rank pass, every legal claim on the public card (with the discard to follow it) and a win."""
        ruleset, options = resolve(payload)
        role = role_of(payload)
        analysis = analyse(ruleset, options, payload, role)
        answer = echo(ruleset, options)
        answer.update(public_card=payload["public_card"], card_source=payload["card_source"], seat_role=role)
        answer.update(analysis_json(ruleset, analysis, payload["seats"], payload["seat"], options))
        return jsonify(answer)
