"""Schemas of the stored games: the game to store, its summary, the listing and the stored game itself."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ..audits.schemas import GameLogSchema
from ..common import BoundedList
from ..jobs.results import ReplayResultSchema

#: Rounds one stored game holds at most.
MAX_ROUNDS = 50
#: The 404 and 410 of a share id.
SHARE_NOT_FOUND = ("`share_not_found`: no stored game with this id (it never existed, or its retention has passed); "
                   "`not_found` for a round out of range")
SHARE_DELETED = "`share_deleted`: its owner deleted it"


class ShareRequestSchema(ma.Schema):
    """A game to store: its rounds' logs, a title, and the id of a finished replay job of the caller's whose
    analysis is stored with them."""

    logs = BoundedList(fields.Nested(GameLogSchema), required=True, validate=validate.Length(min=1, max=MAX_ROUNDS),
                       metadata={"description": "the game's rounds, in order; each must replay "
                                                "(else `invalid_log`, naming `logs.N...`)"})
    title = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))
    job = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64), metadata={
        "description": "a finished replay job of this caller (POST /v1/replays): its result is stored as the "
                       "game's `analysis` (else 409 `job_not_shareable`)"})


class ShareSummarySchema(ma.Schema):
    """A stored game in short: where to read it, view it and embed it, when it ends, its size."""

    id = fields.String(required=True, metadata={"description": "24 characters: the game's capability, whoever "
                                                               "holds it may read the game"})
    url = fields.String(required=True, metadata={"description": "the replay viewer opened at the game"})
    embed_url = fields.String(required=True, metadata={"description": "the game's view for another site's page "
                                                                     "(an iframe)"})
    api_url = fields.String(required=True, metadata={"description": "GET it here (no key needed)"})
    created_at = fields.String(required=True)
    expires_at = fields.String(required=True, allow_none=True, metadata={
        "description": "when it is deleted (LONGCARDS_SHARE_RETENTION_DAYS after it was stored); null: kept until "
                       "its owner deletes it"})
    title = fields.String(required=True, allow_none=True)
    rounds = fields.Integer(required=True, metadata={"description": "its logs, read one by one at "
                                                                    "/v1/shares/{id}/rounds/{n}"})
    size = fields.Integer(required=True, metadata={"description": "bytes of its logs, title and analysis as JSON, "
                                                                  "held to LONGCARDS_SHARE_MAX_BYTES"})


class ShareListSchema(ma.Schema):
    """The caller's stored games, newest first (the 1,000 newest)."""

    shares = fields.List(fields.Nested(ShareSummarySchema), required=True)


class ShareSchema(ShareSummarySchema):
    """A stored game: its summary, its logs, and the analysis stored with them."""

    logs = fields.List(fields.Nested(GameLogSchema), required=True)
    analysis = fields.Nested(ReplayResultSchema, required=True, allow_none=True, metadata={
        "description": "the replay job's result stored with the logs (its texts in the reader's language), or null"})
