"""Stored games: POST /v1/shares (store a game: 201 + Location), GET /v1/shares (the caller's), GET and DELETE
/v1/shares/{id}, GET /v1/shares/{id}/rounds/{n} (a round's audit with its tables).

The two GETs of one game are open without an API key (service/http/auth.py OPEN_ENDPOINTS): the unguessable id is
the capability, as a link shared with other players must work for them; the rate limits still apply. Their answers
are the same bytes each time for one host and language: a strong ETag, 304 to If-None-Match, cacheable 5 minutes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import current_app, jsonify, request
from flask.views import MethodView
from marshmallow import Schema

from ... import shares
from ...http.errors import problem
from ...jobs import submit
from ...replay.log import parse_log
from ...rules.errors import DomainError
from ...rules.text import ntext
from ..audits.routes import audit_json
from ..audits.schemas import AuditResponseSchema
from ..blueprint import Blueprint
from ..caching import cacheable, cached_for
from ..examples import CREATE_SHARE
from ..jobs.access import caller, redis
from ..jobs.schemas import JOBS_UNAVAILABLE, SUBMISSION_UNAVAILABLE
from .access import load_share, owner, share_json, summary_json
from .schemas import (
    SHARE_DELETED,
    SHARE_NOT_FOUND,
    ShareListSchema,
    ShareRequestSchema,
    ShareSchema,
    ShareSummarySchema,
)

#: Seconds a reader (or a cache between) may keep a stored game's answer: a deleted game is gone from caches soon.
MAX_AGE = 300
#: A strong tag of the answer: the same bytes for the same host and language.
ETAG = {"ETag": {"description": "strong tag of the answer; send it as If-None-Match", "schema": {"type": "string"}}}

blp = Blueprint("shares", __name__, url_prefix="/v1", description="Stored games: a game's logs and analysis kept "
                "under an unguessable id, to replay, link and embed")


def open_read(operation: str, schema: Schema) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Document a read of one stored game: open without a key (an empty `security`: no 401 or 403 either), its 200
    answer `schema` under a strong ETag, 304 to If-None-Match, 404, 410, and 503 while Redis is down."""
    decorators = (blp.doc(operationId=operation, security=[]), blp.response(200, schema, headers=ETAG),
                  blp.alt_response(304, description="If-None-Match names the current ETag"),
                  blp.alt_response(404, description=SHARE_NOT_FOUND),
                  blp.alt_response(410, description=SHARE_DELETED), blp.alt_response(503, **JOBS_UNAVAILABLE))

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        for decorator in reversed(decorators):
            view = decorator(view)
        return view
    return decorate


@blp.route("/shares")
class ShareList(MethodView):
    """The caller's stored games."""

    @blp.doc(operationId="create_share")
    @blp.arguments(ShareRequestSchema(), example=CREATE_SHARE)
    @blp.response(201, ShareSummarySchema(), headers={"Location": {"description": "the stored game",
                                                                     "schema": {"type": "string"}}})
    @blp.alt_response(409, description="`job_not_shareable`: `job` is no finished replay job of this caller's over "
                                       "these logs")
    @blp.alt_response(413, description="`share_too_large`: the logs and the analysis as JSON exceed "
                                       "LONGCARDS_SHARE_MAX_BYTES; `payload_too_large`: the body exceeds "
                                       "LONGCARDS_MAX_CONTENT_LENGTH")
    @blp.alt_response(429, description="`too_many_shares`: the caller keeps LONGCARDS_MAX_SHARES stored games; "
                                       "delete one first. `rate_limited`: over the rate limit")
    @blp.alt_response(503, **{**SUBMISSION_UNAVAILABLE, "description": (
        "`jobs_unavailable`: Redis unavailable, nothing was stored; `not_replicated`: no Redis replica acknowledged "
        "the game in time, it may be stored (GET /v1/shares lists it). Retry after the Retry-After seconds")})
    def post(self, payload: dict):
        """Store a game (its logs, a title, a replay job's analysis) under a new unguessable id; sent again with the
        same `Idempotency-Key` and body (within a day), it answers the game it stored, while that lives."""
        for i, log in enumerate(payload["logs"]):
            try:
                parse_log(log)  # a round that cannot be replayed would never show: refused now, as a replay's is
            except DomainError as error:
                raise DomainError(error.message, f"logs.{i}.{error.field}", code=error.code) from None
        connection = redis()
        job, logs = payload["job"], payload["logs"]
        analysis = None if job is None else shares.analysis(connection, job, caller().owner, logs)
        asked, header = owner(), request.headers.get("Idempotency-Key")
        key = submit.idempotency(asked, header, payload, shares.IDEMPOTENCY_PREFIX) if header else None
        stored = shares.store(connection, current_app.config, asked, logs, payload["title"], analysis,
                              idempotency=key)
        return summary_json(stored), 201, {"Location": f"/v1/shares/{stored.id}"}

    @blp.doc(operationId="list_shares")
    @blp.response(200, ShareListSchema())
    @blp.alt_response(503, **JOBS_UNAVAILABLE)
    def get(self):
        """The caller's stored games, newest first, without their logs."""
        return {"shares": [summary_json(share) for share in shares.listing(redis(), owner())]}


@blp.route("/shares/<string:share_id>")
class Share(MethodView):
    """One stored game."""

    @open_read("get_share", ShareSchema())
    def get(self, share_id: str):
        """A stored game: its summary, logs and analysis. Open without a key: the id is the capability."""
        # Sent as built (the shape of ShareSchema; the schemathesis suite checks it): dumping thousands of events
        # through marshmallow would cost more than reading them.
        return cacheable(jsonify(share_json(load_share(share_id))), MAX_AGE)

    @blp.doc(operationId="delete_share")
    @blp.response(204)
    @blp.alt_response(403, description="`share_not_yours`: another API key (without keys: another client "
                                       "address) stored it; `invalid_api_key`: the key is not one the service knows")
    @blp.alt_response(404, description=SHARE_NOT_FOUND)
    @blp.alt_response(410, description=SHARE_DELETED)
    @blp.alt_response(503, **JOBS_UNAVAILABLE)
    def delete(self, share_id: str):
        """Delete a stored game the caller stored: its link answers 410 from then on."""
        shares.delete(redis(), current_app.config, share_id, owner())
        return None


@blp.route("/shares/<string:share_id>/rounds/<int:n>")
class ShareRound(MethodView):
    """One round of a stored game, audited."""

    @cached_for(MAX_AGE)
    @open_read("get_share_round", AuditResponseSchema())
    def get(self, share_id: str, n: int):
        """Round n (from 0) of a stored game: its audit with the table after every event, as POST
        /v1/audits?tables=true answers it. Open without a key: the id is the capability."""
        logs = load_share(share_id).document["logs"]
        if n >= len(logs):
            return problem(404, "not_found", ntext("stored game {id} has {n} round, numbered from 0",
                                                   "stored game {id} has {n} rounds, numbered from 0", len(logs),
                                                   id=repr(share_id)))
        return audit_json(logs[n], tables=True)
