"""Schemas of POST /v1/replays: the logs to analyse, their players, the decision review, the webhook."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ...replay.decisions import MODES, ReviewSettings
from ..audits.schemas import GameLogSchema
from ..common import BoundedList, Number, integer

MAX_BATCH = 200


class ReviewSchema(ma.Schema):
    """How every discard is reviewed: `exact` (the exact ranking, fast), `deep` (a Monte Carlo search of each
    decision, slow, progress per decision) or `none`. Claim decisions are rated exactly in both exact and deep
    modes."""

    mode = fields.String(load_default=ReviewSettings.mode, validate=validate.OneOf(MODES))
    samples = integer(load_default=ReviewSettings.samples, validate=validate.Range(min=1, max=20_000), metadata={
        "description": "deep: deals played out per decision"})
    time_budget = Number(load_default=ReviewSettings.time_budget, validate=validate.Range(min=0.05, max=30.0),
                               metadata={"description": "deep: seconds of search per decision at most"})
    seed = integer(load_default=ReviewSettings.seed, validate=validate.Range(min=0, max=2**63 - 1))


class ReplayRequestSchema(ma.Schema):
    """One or many logs to analyse in one job, optional player names per log, optional webhook."""

    logs = BoundedList(fields.Nested(GameLogSchema), required=True, validate=validate.Length(min=1, max=MAX_BATCH))
    players = BoundedList(BoundedList(fields.String(validate=validate.Length(max=100)), validate=validate.Length(
        min=2, max=4)), load_default=None, allow_none=True, validate=validate.Length(max=MAX_BATCH), metadata={
        "description": "player names per log, by seat: the summary totals each player across games"})
    callback_url = fields.Url(load_default=None, allow_none=True, schemes={"http", "https"}, require_tld=False,
                              metadata={"description": "POSTed the result when the job ends, signed (docs/jobs.md)"})
    review = fields.Nested(ReviewSchema, load_default=lambda: ReviewSchema().load({}), metadata={
        "description": "decision review of every discard and every claim decision (default: exact; claim "
                       "decisions are rated exactly in deep mode too)"})
