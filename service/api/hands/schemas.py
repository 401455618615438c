"""Schemas of POST /v1/melds and POST /v1/hu."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ..common import EchoSchema, HandRequestSchema, MeldSchema

ROLES = ["drawer", "next", "other", "discarder"]


class MeldsRequestSchema(HandRequestSchema):
    """A hand; with `public_card`, also the claims on it for `seat_role`."""

    seat_role = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(ROLES), metadata={
        "description": "with public_card: drawer (turned it up), next (seat after the discarder or drawer), "
                       "other, discarder. Default: other.",
    })


class ClaimSchema(ma.Schema):
    """A legal claim on the public card: the meld it exposes (or hu) with its priority."""

    kind = fields.String(required=True, metadata={"description": "`hu` or the meld kind"})
    cards = fields.List(fields.String(), required=True, allow_none=True,
                        metadata={"description": "meld cards including the public card; null for hu"})
    priority_class = fields.String(required=True)
    priority = fields.Integer(required=True, metadata={"description": "higher wins; ties go by seat order"})
    points = fields.Integer(required=True, metadata={"description": "exposed meld value, or hu points"})
    melds = fields.List(fields.Nested(MeldSchema), required=True, allow_none=True,
                        metadata={"description": "for hu: the best decomposition"})


class MeldsResponseSchema(EchoSchema):
    """Every meld the concealed hand can form, and the claims on the public card if one was given."""

    melds = fields.List(fields.Nested(MeldSchema), required=True)
    public_card = fields.String(required=True, allow_none=True)
    seat_role = fields.String(required=True, allow_none=True)
    claims = fields.List(fields.Nested(ClaimSchema), required=True, allow_none=True)
    must_take = fields.Boolean(required=True, allow_none=True, metadata={
        "description": "the drawer must take this card (a General) unless a higher claim takes it"})


class HuResponseSchema(EchoSchema):
    """Hu (win) status with the best decomposition; `points` and `melds` are null when hu is false."""

    hu = fields.Boolean(required=True)
    points = fields.Integer(required=True, allow_none=True)
    exposed_points = fields.Integer(required=True)
    concealed_points = fields.Integer(required=True, allow_none=True)
    melds = fields.List(fields.Nested(MeldSchema), required=True, allow_none=True)
    decompositions = fields.Integer(required=True, metadata={"description": "distinct complete splits"})
    card_count = fields.Integer(required=True)
    public_card = fields.String(required=True, allow_none=True)
    reason = fields.String(required=True, allow_none=True, metadata={"description": "why the hand does not win"})
