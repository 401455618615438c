"""The job layer's refusals (service/jobs/errors.py) and Redis's failures as problems (service/http/errors.py
`problem`), installed by the app factory (service/app.py): the job layer raises them and knows nothing of HTTP."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ...http.errors import handle_unexpected, problem
from ...jobs.errors import JobNotFound, NotReplicated, TooManyActiveJobs, refused
from ...redisconf import failure
from ...rules.text import text
from .access import CLIENT

log = logging.getLogger(__name__)
#: Seconds a client is told to wait while Redis is unavailable.
REDIS_RETRY_AFTER = 5
#: Refusals (service/jobs/errors.py `refused`) of a Redis node that is not, or not yet, a primary.
NOT_A_PRIMARY = ("READONLY", "LOADING", "MASTERDOWN")


def handle_job_not_found(error: JobNotFound) -> Response:
    """404: no such job for this caller (another key's job included), or it expired."""
    return problem(404, "job_not_found", text("no job {id}", id=repr(error.job_id)))


def handle_too_many_active(error: TooManyActiveJobs) -> Response:
    """429 with the seconds to wait: the caller has MAX_ACTIVE_JOBS queued or running."""
    return problem(429, "too_many_active_jobs", str(error), headers={"Retry-After": str(error.retry_after)})


def handle_not_replicated(error: NotReplicated) -> Response:
    """503 with the seconds to wait: no replica acknowledged the submission in time; the job may exist, and the same
    request sent again answers it (service/jobs/replication.py)."""
    return problem(503, "not_replicated", text(
        "{acknowledged} of {wanted} Redis replicas acknowledged the job within {timeout_ms} ms; send the same "
        "request again (same Idempotency-Key or body): it answers this job if it was kept",
        acknowledged=error.acknowledged, wanted=error.wanted, timeout_ms=error.timeout_ms),
        headers={"Retry-After": str(error.retry_after)})


def handle_redis_down(error: Exception) -> Response:
    """Redis unreachable, or refusing writes (full, unable to save, a read-only replica): job endpoints answer 503
    with Retry-After; no job was made."""
    log.warning("redis unavailable: %s", failure(error, current_app.config))
    return problem(503, "jobs_unavailable", text("the job queue (Redis) is unavailable; retry later"),
                   headers={"Retry-After": str(REDIS_RETRY_AFTER)})


def handle_redis_response(error: ResponseError) -> Response:
    """A Redis error answer: a refusal of writes (OOM, MISCONF, READONLY, EXECABORT ...: `refused`) is 503 as for
    an unreachable Redis, and from a node that is no longer the primary (a demoted primary still connected to) the
    connections are dropped so the next ones ask the Sentinels again; any other is a bug (500)."""
    refusal = refused(error)
    if refusal is None:
        return handle_unexpected(error)
    client = current_app.extensions.get(CLIENT)
    if client is not None and refusal in NOT_A_PRIMARY:
        client.connection_pool.disconnect()
    return handle_redis_down(error)


#: What the job endpoints may raise, and its problem.
HANDLERS: tuple[tuple[type[Exception], Callable[[Any], Response]], ...] = (
    (JobNotFound, handle_job_not_found), (TooManyActiveJobs, handle_too_many_active),
    (NotReplicated, handle_not_replicated), (ResponseError, handle_redis_response),
    (RedisConnectionError, handle_redis_down), (RedisTimeoutError, handle_redis_down),
)


def register(app: Flask) -> None:
    """Install the handlers on the app."""
    for error, handler in HANDLERS:
        app.register_error_handler(error, handler)
