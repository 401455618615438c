"""Schemas of the job API: POST /v1/replays and the job resource."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ...replay.decisions import MODES, ReviewSettings
from ..audits.schemas import GameLogSchema
from ..common import BoundedList, Number, integer

MAX_BATCH = 200


class ReviewSchema(ma.Schema):
    """How every discard is reviewed: `exact` (the exact ranking, fast), `deep` (a Monte Carlo search of each
    decision, slow, progress per decision) or `none`."""

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
                              metadata={"description": "POSTed the result when the job ends, signed (see README)"})
    review = fields.Nested(ReviewSchema, load_default=lambda: ReviewSchema().load({}), metadata={
        "description": "decision review of every discard (default: exact)"})


class ProgressSchema(ma.Schema):
    """How far a job is."""

    events_done = fields.Integer()
    events_total = fields.Integer()
    logs_done = fields.Integer()
    logs_total = fields.Integer()
    decisions_done = fields.Integer(metadata={"description": "replays: discards reviewed"})
    decisions_total = fields.Integer()
    deals_done = fields.Integer(metadata={"description": "searches: deals played out"})
    deals_total = fields.Integer()


class JobErrorSchema(ma.Schema):
    """Why a job failed, problem-shaped."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    code = fields.String(required=True)


class JobLinksSchema(ma.Schema):
    """Where the job lives."""

    self = fields.String(required=True)


class JobSchema(ma.Schema):
    """A job: status (queued, started, finished, failed, canceled), progress, result or error."""

    id = fields.String(required=True)
    kind = fields.String(required=True, allow_none=True)
    status = fields.String(required=True, metadata={"enum": ["queued", "started", "finished", "failed", "canceled"]})
    progress = fields.Nested(ProgressSchema, required=True, allow_none=True)
    created_at = fields.String(required=True, allow_none=True)
    started_at = fields.String(required=True, allow_none=True)
    ended_at = fields.String(required=True, allow_none=True)
    retries_left = fields.Integer(required=True, allow_none=True)
    result = fields.Raw(required=True, allow_none=True, metadata={
        "description": "the job's answer once finished; a replay result paged with `logs_limit` holds those logs "
                       "only and `logs_page` (offset, limit, total), its summary always whole. Null in job lists"})
    error = fields.Nested(JobErrorSchema, required=True, allow_none=True)
    links = fields.Nested(JobLinksSchema, required=True)


class JobListArgsSchema(ma.Schema):
    """Paging of the caller's jobs."""

    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100), metadata={
        "description": "jobs per page"})
    cursor = fields.String(load_default=None, validate=validate.Length(max=100), metadata={
        "description": "`next_cursor` of the previous page"})


class JobListSchema(ma.Schema):
    """The caller's recent jobs, newest first (up to 1,000 are remembered), without results."""

    jobs = fields.List(fields.Nested(JobSchema), required=True)
    next_cursor = fields.String(required=True, allow_none=True, metadata={
        "description": "pass as `cursor` for the next page; null on the last"})


class ResultPageArgsSchema(ma.Schema):
    """A page of a replay result's per-log entries."""

    logs_offset = fields.Integer(load_default=0, validate=validate.Range(min=0), metadata={
        "description": "first log entry of the page"})
    logs_limit = fields.Integer(load_default=None, validate=validate.Range(min=1, max=MAX_BATCH), metadata={
        "description": "log entries per page (absent: all)"})
