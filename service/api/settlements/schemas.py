"""Schemas of POST /v1/settlements and POST /v1/matches."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ..common import (
    FOURCOLOR_CARD,
    BoundedList,
    EchoSchema,
    HandRequestSchema,
    MeldSchema,
    RulesetRequestSchema,
    card_field,
    integer,
)


class ChanContextSchema(ma.Schema):
    """cardavia-chan: how the win came about and facts of the initial deal (each grants its bonus)."""

    own_gate = fields.Boolean(load_default=False, metadata={
        "description": "won on the stock card turned up at the winner's own gate (Ù chì)"})
    heavenly = fields.Boolean(load_default=False, metadata={
        "description": "the dealer won with his initial 20 cards, no public card (Thiên ù)"})
    by_chiu = fields.Boolean(load_default=False, metadata={"description": "the win was completed by a Chíu"})
    chiu_on_dealt_triple = fields.Boolean(load_default=False, metadata={
        "description": "won by Chíu on a triple held since the deal (Chíu ù; needs by_chiu)"})
    dealt_quad = fields.Boolean(load_default=False, metadata={
        "description": "four identical cards in the initial deal (Thiên khai)"})
    dealt_pair_became_quad = fields.Boolean(load_default=False, metadata={
        "description": "a pair held since the deal became four identical cards (Bòn)"})


class SettlementRequestSchema(HandRequestSchema):
    """The winner's hand (`public_card` is the winning card), the table size and the winner's seat."""

    seats = integer(required=True, validate=validate.Range(min=2, max=4),
                           metadata={"description": "players at the table (bga-taiwan 2-4, cardavia-flowers 4)"})
    winner = integer(required=True, validate=validate.Range(min=0, max=3),
                            metadata={"description": "seat index of the winner, below seats"})
    lucky_card = card_field(
        "bga-taiwan: the stock card turned up at hu; absent or null: no stock left, no bonus", component=FOURCOLOR_CARD,
        load_default=None, allow_none=True)
    context = fields.Nested(ChanContextSchema, load_default=None, allow_none=True)


class LineSchema(ma.Schema):
    """One step of the settlement a player can follow."""

    step = fields.String(required=True, metadata={"description": "exposed_meld, concealed_meld, lucky_card, "
                         "total, payment_rule, payment; Chắn: u_xuong or the bonus name"})
    text = fields.String(required=True)
    points = fields.Integer(required=True)


class SettlementResponseSchema(EchoSchema):
    """Points, line-by-line breakdown and per-seat deltas (summing to zero)."""

    points = fields.Integer(required=True)
    lucky_bonus = fields.Integer(required=True)
    bonuses = fields.List(fields.String(), required=True, metadata={
        "description": "cardavia-chan: every bonus found (Tôm and Lèo once per full set); empty otherwise"})
    melds = fields.List(fields.Nested(MeldSchema), required=True)
    breakdown = fields.List(fields.Nested(LineSchema), required=True)
    seats = fields.Integer(required=True)
    winner = fields.Integer(required=True)
    deltas = fields.List(fields.Integer(), required=True)


class MatchRequestSchema(RulesetRequestSchema):
    """Round deltas of a match, in order."""

    seats = integer(required=True, validate=validate.Range(min=2, max=4))
    rounds = BoundedList(BoundedList(integer(validate=validate.Range(min=-100000, max=100000)),
                                     validate=validate.Length(max=4)),
                         required=True, validate=validate.Length(max=1000))
    start = integer(load_default=20, validate=validate.Range(min=-100000, max=100000),
                           metadata={"description": "points every player starts with (docs/rules.md#fc-match: 20)"})


class MatchResponseSchema(EchoSchema):
    """Running totals after each round, the final totals and the leading seats."""

    start = fields.Integer(required=True)
    totals = fields.List(fields.List(fields.Integer()), required=True)
    final = fields.List(fields.Integer(), required=True)
    leaders = fields.List(fields.Integer(), required=True)
    rounds_played = fields.Integer(required=True)
    standard_rounds = fields.Integer(required=True)
