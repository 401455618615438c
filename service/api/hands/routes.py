"""POST /v1/melds (legal melds and claims) and POST /v1/hu (win status): parse, call the engine, answer."""

from __future__ import annotations

from flask import jsonify
from flask.views import MethodView

from ...i18n import N_
from ...rules.errors import DomainError
from ...rules.text import text
from ..blueprint import Blueprint
from ..common import echo, meld_json, resolve
from ..examples import EVALUATE_HU, LIST_MELDS
from .answers import answers_for
from .schemas import HuRequestSchema, HuResponseSchema, MeldsRequestSchema, MeldsResponseSchema

blp = Blueprint("hands", __name__, url_prefix="/v1", description="Melds, claims and hu of a hand")


def _parse(payload: dict):
    """Rule-set, options, meld rules and the validated hand of a request."""
    ruleset, options = resolve(payload)
    hand = ruleset.parse(options, payload["hand"], payload["exposed"], payload["public_card"])
    return ruleset, options, ruleset.meld_rules(options), hand


#: What `seat_role` or `card_source` asks of a hand, by endpoint: the detail of its 422 without a public card.
QUESTIONS = {
    "melds": N_("{field} asks for the claims on a public card; give public_card"),
    "hu": N_("{field} asks whether this seat may win on a public card; give public_card"),
}


def require_public_card(payload: dict, hand, endpoint: str) -> None:
    """422 `missing_public_card` when `seat_role` or `card_source` asks the endpoint's question (QUESTIONS) of a
    hand without a public card: the answer would leave the question out, and the caller would take the answer for
    one."""
    if hand.public_card is None and (payload["seat_role"] or payload["card_source"]):
        asked = "seat_role" if payload["seat_role"] else "card_source"
        raise DomainError(text(QUESTIONS[endpoint], field=asked), "public_card", code="missing_public_card")


@blp.route("/melds")
class Melds(MethodView):
    """Legal melds of a hand and legal claims on a public card."""

    @blp.doc(operationId="list_melds")
    @blp.arguments(MeldsRequestSchema(), example=LIST_MELDS)
    @blp.response(200, MeldsResponseSchema())
    def post(self, payload: dict):
        """List every meld (Chắn: pair) the concealed cards can form; with `public_card`, the claims on it."""
        ruleset, options, rules, hand = _parse(payload)
        require_public_card(payload, hand, "melds")
        answer = echo(ruleset, options)
        answer["melds"] = [meld_json(m, rules) for m in ruleset.legal_melds(hand, options)]
        answer.update(public_card=payload["public_card"], seat_role=None, card_source=None, claims=None,
                      must_take=None, legal_discards=None)
        if hand.public_card is not None:
            answer.update(seat_role=payload["seat_role"] or "other", **answers_for(ruleset).claims(
                ruleset, options, hand, payload))
        else:
            answer["legal_discards"] = answers_for(ruleset).discards(ruleset, hand, payload)
        return jsonify(answer)


@blp.route("/hu")
class Hu(MethodView):
    """Hu (win) status of a hand."""

    @blp.doc(operationId="evaluate_hu")
    @blp.arguments(HuRequestSchema(), example=EVALUATE_HU)
    @blp.response(200, HuResponseSchema())
    def post(self, payload: dict):
        """Does hand + public card split completely into melds (Chắn: pairs)? Best split, points, reasons. With
        `seat_role` or `card_source`, also: do the rules let this seat win on that card?"""
        # The hot endpoint: the answer is built to HuResponseSchema (checked by the schemathesis suite) and
        # sent as is; dumping it through marshmallow again doubled the request cost.
        return jsonify(hu_answer(payload))


def hu_answer(payload: dict) -> dict:
    """The answer of POST /v1/hu to a loaded request."""
    ruleset, options, _, hand = _parse(payload)
    require_public_card(payload, hand, "hu")
    answer = echo(ruleset, options)
    family = answers_for(ruleset)
    answer.update(family.hu(ruleset, options, hand))
    role, source = payload.get("seat_role"), payload.get("card_source")
    if answer["hu"] and hand.public_card is not None and (role or source):
        closed = family.win_closed(ruleset, options, hand, role or "other", source or "discard")
        if closed is not None:  # the cards win, but not this seat on this card
            answer.update(hu=False, points=None, exposed_points=None, concealed_points=None, melds=None,
                          reasons=[{"code": "win_not_open", "message": closed}])
    return answer
