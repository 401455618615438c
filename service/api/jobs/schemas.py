"""Schemas of the job API: the job resource and the caller's job list."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ..common import OneOf
from ..replays.schemas import MAX_BATCH
from .results import RESULTS

#: The 404 of a job id.
JOB_NOT_FOUND = "`job_not_found`: no such job for this caller (another key's job included), or it expired"
#: Every job operation reaches Redis: down, it answers 503 with Retry-After.
JOBS_UNAVAILABLE = {"description": "`jobs_unavailable`: Redis unavailable; retry after the Retry-After seconds",
                    "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}}
#: A submission also answers 503 when no replica acknowledged its job in time (service/jobs/replication.py).
SUBMISSION_UNAVAILABLE = {
    **JOBS_UNAVAILABLE,
    "description": "`jobs_unavailable`: Redis unavailable, nothing was enqueued; `not_replicated`: no Redis replica "
                   "acknowledged the job in time, it may exist and the same request sent again (same "
                   "Idempotency-Key, else same body) answers it. Retry after the Retry-After seconds"}


class ProgressSchema(ma.Schema):
    """How far a job is."""

    events_done = fields.Integer()
    events_total = fields.Integer()
    logs_done = fields.Integer()
    logs_total = fields.Integer()
    decisions_done = fields.Integer(metadata={"description": "replays: discards reviewed (claim decisions, rated "
                                                             "exactly and fast, are not counted)"})
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
    kind = fields.String(required=True, allow_none=True, metadata={"description": "search or replay"})
    status = fields.String(required=True, metadata={"enum": ["queued", "started", "finished", "failed", "canceled"]})
    progress = fields.Nested(ProgressSchema, required=True, allow_none=True)
    created_at = fields.String(required=True, allow_none=True)
    started_at = fields.String(required=True, allow_none=True)
    ended_at = fields.String(required=True, allow_none=True)
    retries_left = fields.Integer(required=True, allow_none=True)
    result = OneOf(list(RESULTS.values()), required=True, allow_none=True, metadata={
        "description": "the job's answer once finished (SearchResult for kind search, ReplayResult for kind "
                       "replay); a replay result paged with `logs_limit` holds those logs "
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
