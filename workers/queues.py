"""Queue names, the Redis connection and the one job decorator every job uses.

Jobs are plain module-level functions taking JSON-safe arguments; they raise on failure (so RQ retries).
Every queue uses RQ's JSON serializer: request data is never pickled. `REDIS_URL` is read when a connection
is made, never at import.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redis import Redis
from rq import Queue, Retry
from rq.job import Callback, Job
from rq.serializers import JSONSerializer

QUEUE_REPLAYS = "replays"
QUEUE_SEARCHES = "searches"
QUEUE_WEBHOOKS = "webhooks"
QUEUES = (QUEUE_REPLAYS, QUEUE_SEARCHES, QUEUE_WEBHOOKS)
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
SERIALIZER = JSONSerializer


def redis_url() -> str:
    """The Redis server to use: `REDIS_URL`, or the local default."""
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def connect(url: str | None = None) -> Redis:
    """A Redis client with short timeouts, so an unreachable Redis fails fast instead of hanging a request."""
    return Redis.from_url(url or redis_url(), socket_connect_timeout=2, socket_timeout=5, health_check_interval=15)


def queue(name: str, connection: Redis) -> Queue:
    """A queue by name, with the JSON serializer."""
    return Queue(name, connection=connection, serializer=SERIALIZER)


def fetch(job_id: str, connection: Redis) -> Job:
    """A job by id (raises rq.exceptions.NoSuchJobError)."""
    return Job.fetch(job_id, connection=connection, serializer=SERIALIZER)


def new_job_id() -> str:
    """An unguessable job id (144 random bits, URL-safe)."""
    return secrets.token_urlsafe(18)


@dataclass(frozen=True)
class JobSpec:
    """How a job function runs: its queue, time limit, retries and how long results and failures are kept."""

    queue: str
    timeout: int = 600
    retries: int = 3
    intervals: tuple[int, ...] = (5, 30, 120)
    result_ttl: int = 24 * 3600
    failure_ttl: int = 7 * 24 * 3600


def job(queue_name: str, **settings: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a plain function as a job of `queue_name`; `enqueue` reads its settings."""
    def mark(func: Callable[..., Any]) -> Callable[..., Any]:
        func.spec = JobSpec(queue_name, **settings)  # type: ignore[attr-defined]
        return func

    return mark


def enqueue(func: Callable[..., Any], connection: Redis, *args: Any, job_id: str | None = None,
            meta: dict[str, Any] | None = None, on_success: Callable | None = None,
            on_failure: Callable | None = None, pipeline: Any = None) -> Job:
    """Enqueue a job function with its spec: retries with backoff, time limit, result and failure TTLs.
    With `pipeline` (in MULTI) the job is written when the caller executes it, atomically with its other writes."""
    spec: JobSpec = func.spec  # type: ignore[attr-defined]
    return queue(spec.queue, connection).enqueue(
        func, *args, job_id=job_id or new_job_id(), meta=meta or {},
        retry=Retry(max=spec.retries, interval=list(spec.intervals)) if spec.retries else None,
        job_timeout=spec.timeout, result_ttl=spec.result_ttl, failure_ttl=spec.failure_ttl,
        on_success=Callback(on_success) if on_success else None,
        on_failure=Callback(on_failure) if on_failure else None, pipeline=pipeline,
    )
