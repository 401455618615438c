"""POST /v1/discards: the exact ranking of every legal discard of a hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import jsonify
from flask.views import MethodView

from ...advice.analyse import analyse_discards
from ...advice.value import shown_value
from ...i18n import localize
from ...rules.analysis import DiscardAnalysis
from ...rules.errors import InvalidSeat
from ...rules.protocol import RuleSet
from ..blueprint import Blueprint
from ..common import echo, resolve
from ..examples import RANK_DISCARDS
from .schemas import DiscardsRequestSchema, DiscardsResponseSchema

blp = Blueprint("discards", __name__, url_prefix="/v1", description="Suggested discards")


def analyse(ruleset: RuleSet, options: dict, payload: dict) -> DiscardAnalysis:
    """Validate the hand and run the exact analysis, ranked by the advice."""
    hand = ruleset.parse(options, payload["hand"], payload["exposed"], None)
    return analyse_discards(ruleset, hand, options, payload["visible"], seats=payload["seats"],
                            history=ruleset.history_of(payload.get("history")))


def analysis_json(ruleset: RuleSet, analysis: DiscardAnalysis, seats: int, seat: int,
                  options: Mapping[str, Any]) -> dict[str, Any]:
    """The analysis in card codes; `from_seats` of a wait: every other seat for a discard win."""
    show = ruleset.card_code
    others = [s for s in range(seats) if s != seat]
    discards = [{
        "card": show(o.card), "unseen": o.card_unseen, "rank": o.rank, "reason": localize(o.reason),
        "distance": o.distance, "paying_distance": o.paying, "paying_improving": o.paying_improving,
        "rich_distance": o.rich,
        "waits": [{"card": show(w.card), "unseen": w.unseen, "claims": list(w.claims),
                   "from_seats": others if ("discard" in w.claims or "chiu" in w.claims) else [],
                   "points": w.points, "gain": w.gain} for w in o.waits],
        "improving": [{"card": show(c), "unseen": n} for c, n in o.improving],
        "improving_unseen": o.improving_unseen, "expected_gain": round(o.expected_gain, 4),
        "sets_kept": o.sets_kept, "value": shown_value(o),
    } for o in analysis.options]
    return {"distance": analysis.distance_now, "unseen_total": analysis.unseen_total,
            "best": [d["card"] for d in discards if d["rank"] == 1], "discards": discards}


@blp.route("/discards")
class Discards(MethodView):
    """Exact discard ranking."""

    @blp.doc(operationId="rank_discards")
    @blp.arguments(DiscardsRequestSchema(), example=RANK_DISCARDS)
    @blp.response(200, DiscardsResponseSchema())
    def post(self, payload: dict):
        """Rank every legal discard: waits, unseen copies, distance to a win, points per wait, the reason."""
        ruleset, options = resolve(payload)
        if payload["seat"] >= payload["seats"]:
            raise InvalidSeat(f"seat must be a seat index 0..{payload['seats'] - 1}", "seat")
        answer = echo(ruleset, options)
        answer.update(analysis_json(ruleset, analyse(ruleset, options, payload), payload["seats"],
                                    payload["seat"], options))
        return jsonify(answer)
