"""Schemas of POST /v1/claims: a resting hand facing a public card, what the player has seen, and the advice."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ..common import READER_LANGUAGE, EchoSchema, card_field, card_list, integer
from ..discards.schemas import (
    VALUE_DESCRIPTION,
    CardCountSchema,
    DiscardOptionSchema,
    DiscardsRequestSchema,
    WaitSchema,
)

SOURCES = ["discard", "stock"]


class ClaimsRequestSchema(DiscardsRequestSchema):
    """A player between turns (Four Color Cards: 20 cards with the exposed melds; Chắn: 19) and a public card."""

    hand = card_list(required=True, validate=validate.Length(max=64), metadata={
        "description": "concealed cards as they stand between turns (not the public card)"})
    public_card = card_field("the card on offer", required=True)
    card_source = fields.String(load_default="discard", validate=validate.OneOf(SOURCES), metadata={
        "description": "`discard`: another seat's discard; `stock`: a card turned up from the stock (Chắn: only "
                       "a stock card can be won, except by Chíu)"})
    from_seat = integer(required=True, validate=validate.Range(min=0, max=3), metadata={
        "description": "the seat the card came from: its discarder, or the seat that turned it up. The player's "
                       "role follows: that seat is the drawer (stock) or the discarder (who may claim nothing), "
                       "the seat after it is next, every other seat is other"})
    visible = card_list(load_default=list, validate=validate.Length(max=120), metadata={
        "description": "every other card the player has seen, as for /v1/discards, not counting the public card. "
                       "Unseen copies = the deck minus his own cards, the public card and these."})


class FollowSchema(DiscardOptionSchema):
    """The discard that should follow a claim: the top option of the exact ranking of the hand after it."""


class ClaimOptionSchema(ma.Schema):
    """One answer to the public card: pass, a claim and the discard after it, or a win."""

    kind = fields.String(required=True, metadata={
        "description": "`pass`; `hu` (Four Color Cards) or `win` (Chắn); else the meld kind claimed (`triple`, "
                       "`chan`, `ca`, `chiu` ...)"})
    cards = fields.List(card_field(), required=True, metadata={
        "description": "the meld exposed, the public card included; empty for pass and a win"})
    rank = fields.Integer(required=True, metadata={"description": "1 = the advice; equal rankings share a rank"})
    reason = fields.String(required=True, metadata={"description": READER_LANGUAGE})
    priority = fields.Integer(required=True, metadata={
        "description": "the claim's priority (higher takes the card; /v1/rulesets lists the classes); pass 0"})
    forced = fields.Boolean(required=True, metadata={
        "description": "the drawer must take this card (a General; cardavia-flowers: or a flower)"})
    preempted = fields.Boolean(required=True, metadata={
        "description": "the claim can never take the card: a turned-up General (cardavia-flowers: or flower) goes "
                       "to its drawer unless a claim of higher priority takes it, so this answer comes to a pass "
                       "and carries the pass's figures and value (docs/rules.md#fc-must-take)"})
    follow = fields.Nested(FollowSchema, required=True, allow_none=True, metadata={
        "description": "the discard to make after the claim (null: pass, a win, a claim that cannot take the card, "
                       "or no legal discard after it)"})
    distance = fields.Integer(required=True, metadata={
        "description": "of the hand the option leaves between turns (pass: the hand as it stands); a win: -1"})
    paying_distance = fields.Integer(required=True, allow_none=True, metadata={
        "description": "of the hand the option leaves, as for a discard; a win: null"})
    paying_improving = fields.Integer(required=True, allow_none=True, metadata={
        "description": "of the hand the option leaves, as for a discard's best option; a win: null"})
    rich_distance = fields.Integer(required=True, allow_none=True, metadata={
        "description": "of the hand the option leaves, as for a discard; a win: null"})
    waits = fields.List(fields.Nested(WaitSchema), required=True)
    improving = fields.List(fields.Nested(CardCountSchema), required=True)
    improving_unseen = fields.Integer(required=True)
    expected_gain = fields.Float(required=True, metadata={
        "description": "as for a discard (the next stock card); a win: its gain, which is certain"})
    gain = fields.Integer(required=True, allow_none=True, metadata={
        "description": "a win: the player's settlement (negative: a bga-taiwan hu under the threshold costs the "
                       "caller; the points where nobody pays); null otherwise"})
    value = fields.Float(required=True, allow_none=True, metadata={"description": VALUE_DESCRIPTION})


class ClaimsResponseSchema(EchoSchema):
    """Every option on the public card, best first."""

    public_card = card_field(required=True)
    card_source = fields.String(required=True)
    seat_role = fields.String(required=True, metadata={"enum": ["drawer", "next", "other", "discarder"]})
    forced = fields.Boolean(required=True, metadata={
        "description": "the card must be taken: only the takes are listed, no pass"})
    advice = fields.String(required=True, metadata={"description": "the kind of the choice ranked first"})
    choices = fields.List(fields.Nested(ClaimOptionSchema), required=True, metadata={
        "description": "pass (unless forced), every legal claim and a win, best first"})
