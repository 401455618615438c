"""POST /v1/melds (legal melds and claims) and POST /v1/hu (win status): parse, call the engine, answer."""

from __future__ import annotations

from flask import jsonify
from flask.views import MethodView

from ...rules.fourcolor.cards import code
from ..blueprint import Blueprint
from ..common import HandRequestSchema, echo, meld_json, resolve
from .schemas import HuResponseSchema, MeldsRequestSchema, MeldsResponseSchema

blp = Blueprint("hands", __name__, url_prefix="/v1", description="Melds, claims and hu of a hand")


def _parse(payload: dict):
    """Rule-set, options, meld rules and the validated hand of a request."""
    ruleset, options = resolve(payload)
    hand = ruleset.parse(options, payload["hand"], payload["exposed"], payload["public_card"])
    return ruleset, options, ruleset.meld_rules(options), hand


@blp.route("/melds")
class Melds(MethodView):
    """Legal melds of a hand and legal claims on a public card."""

    @blp.arguments(MeldsRequestSchema())
    @blp.response(200, MeldsResponseSchema())
    def post(self, payload: dict):
        """List every meld the concealed cards can form; with `public_card`, the claims on it for `seat_role`."""
        ruleset, options, rules, hand = _parse(payload)
        answer = echo(ruleset, options)
        answer["melds"] = [meld_json(m, rules) for m in ruleset.legal_melds(hand, options)]
        answer.update(public_card=payload["public_card"], seat_role=None, claims=None, must_take=None)
        if hand.public_card is not None:
            role = payload["seat_role"] or "other"
            claims, forced = ruleset.legal_claims(hand, role, options)
            answer.update(seat_role=role, must_take=forced, claims=[
                {"kind": c.kind, "cards": c.meld.codes() if c.meld else None, "priority_class": c.priority_class,
                 "priority": c.priority, "points": c.points,
                 "melds": [meld_json(m, rules) for m in c.hu_melds] if c.hu_melds else None}
                for c in claims
            ])
        return jsonify(answer)


@blp.route("/hu")
class Hu(MethodView):
    """Hu (win) status of a hand."""

    @blp.arguments(HandRequestSchema())
    @blp.response(200, HuResponseSchema())
    def post(self, payload: dict):
        """Does hand + public card split completely into melds? Best decomposition, points, number of splits."""
        ruleset, options, rules, hand = _parse(payload)
        result = ruleset.hu(hand, options)
        answer = echo(ruleset, options)
        answer.update(
            hu=result.hu, points=result.points, exposed_points=result.exposed_points,
            concealed_points=result.concealed_points,
            melds=[meld_json(m, rules) for m in result.melds] if result.melds is not None else None,
            decompositions=result.decompositions, card_count=result.card_count,
            public_card=code(hand.public_card) if hand.public_card is not None else None,
            reason=None if result.hu else "hand and public card do not split completely into melds",
        )
        # The hot endpoint: the answer is built to HuResponseSchema (checked by the schemathesis suite) and
        # sent as is; dumping it through marshmallow again doubled the request cost.
        return jsonify(answer)
