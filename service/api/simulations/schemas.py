"""Schemas of POST /v1/simulations: which table to simulate, and the logs it played."""

from __future__ import annotations

from marshmallow import fields, validate

from ..audits.schemas import GameLogSchema
from ..common import EchoSchema, RulesetRequestSchema, integer

POLICIES = ("greedy", "random")
MAX_ROUNDS = 20


class SimulationRequestSchema(RulesetRequestSchema):
    """A seeded simulation: the table, the players' policy, how many rounds."""

    seed = integer(load_default=0, validate=validate.Range(min=0, max=2**31 - 1), metadata={
        "description": "round i is played from seed + i: the same request gives the same logs"})
    seats = integer(load_default=4, validate=validate.Range(min=2, max=4), metadata={
        "description": "players; the rule-set decides which counts it allows"})
    policy = fields.String(load_default="greedy", validate=validate.OneOf(POLICIES), metadata={
        "description": "greedy: every player claims its best claim and discards a card in no meld; random: claims "
                       "or passes and discards at random (never an illegal move)"})
    rounds = integer(load_default=1, validate=validate.Range(min=1, max=MAX_ROUNDS))


class SimulationResponseSchema(EchoSchema):
    """The simulated rounds, each a legal game log with its recorded result."""

    seed = fields.Integer(required=True)
    seats = fields.Integer(required=True)
    policy = fields.String(required=True)
    logs = fields.List(fields.Nested(GameLogSchema), required=True)
