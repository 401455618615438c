"""Schemas of GET /v1/drills: which drill to deal, and the position with the request that grades it."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ...arena.drills import DIFFICULTIES, KINDS
from ..common import RULESET_IDS, EchoSchema, card_field

MAX_INDEX = 100_000


class DrillArgsSchema(ma.Schema):
    """Which drill: the rule-set, the difficulty, the drill set's seed and the drill's number in it."""

    ruleset = fields.String(required=True, validate=validate.OneOf(RULESET_IDS), metadata={
        "description": "the rule-set played (its default options: where its value model applies)"})
    difficulty = fields.String(load_default="easy", validate=validate.OneOf(list(DIFFICULTIES)), metadata={
        "description": "by the distance of the best answer (its hand's fewest cards to replace before one more "
                       "card wins): `easy` 0 (it leaves the hand waiting), `medium` 1, `hard` 2 or more"})
    seed = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**31 - 1), metadata={
        "description": "the drill set: the same seed deals the same drills"})
    index = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INDEX), metadata={
        "description": "the drill's number in the set"})
    kind = fields.String(load_default="any", validate=validate.OneOf(KINDS), metadata={
        "description": "`discard`: which card to discard; `claim`: what to do with a public card; `any`: either"})


class DrillMeldSchema(ma.Schema):
    """A meld or pair laid open."""

    kind = fields.String(required=True)
    cards = fields.List(card_field(), required=True)


class DrillPositionSchema(ma.Schema):
    """What the seat knows at the decision."""

    seat = fields.Integer(required=True)
    hand = fields.List(card_field(), required=True, metadata={
        "description": "concealed cards, sorted (a discard: with the card just taken; a claim: between turns)"})
    exposed = fields.List(fields.Nested(DrillMeldSchema), required=True, metadata={"description": "his melds"})
    opponents = fields.List(fields.List(fields.Nested(DrillMeldSchema)), required=True, metadata={
        "description": "every seat's exposed melds by seat index (his own seat: empty)"})
    discards_seen = fields.List(card_field(), required=True, metadata={
        "description": "public cards seen and not claimed (discards and turned-up stock cards)"})
    stock_remaining = fields.Integer(required=True, allow_none=True)
    public_card = card_field("a claim: the card on offer", required=True, allow_none=True)
    card_source = fields.String(required=True, allow_none=True, metadata={"enum": ["discard", "stock"]})
    from_seat = fields.Integer(required=True, allow_none=True)
    seat_role = fields.String(required=True, allow_none=True, metadata={
        "enum": ["drawer", "next", "other", "discarder"]})


class DrillRequestSchema(ma.Schema):
    """The request whose answer ranks the options and grades the player's choice."""

    path = fields.String(required=True, metadata={"enum": ["/v1/discards", "/v1/claims"]})
    body = fields.Dict(required=True, metadata={
        "description": "the JSON body to POST to `path`, exactly (DiscardsRequest or ClaimsRequest)"})


class DrillSchema(EchoSchema):
    """A drill: the position, its distance and the request that ranks its options."""

    seed = fields.Integer(required=True)
    index = fields.Integer(required=True)
    difficulty = fields.String(required=True)
    loss_unit = fields.String(required=True, metadata={"enum": ["points", "wins", "expected_gain"], "description": (
        "the unit of the options' `value` and of a loss against the advice (the advised option's value minus the "
        "one chosen): `points`, or `wins` (the chance to win) where nobody pays; `expected_gain` where no value "
        "model applies (the options' one-card expected gains)")})
    kind = fields.String(required=True, metadata={"enum": ["discard", "claim"]})
    distance = fields.Integer(required=True, metadata={
        "description": "the smallest `distance` among the options the request answers"})
    round = fields.Integer(required=True, metadata={
        "description": "which round of the drill held the position (0 unless an earlier one held none)"})
    event = fields.Integer(required=True, metadata={"description": "events of that round before the decision"})
    dealer = fields.Integer(required=True)
    position = fields.Nested(DrillPositionSchema, required=True)
    request = fields.Nested(DrillRequestSchema, required=True)
