"""The app's side of the job platform: its Redis connection, job JSON, idempotency, ownership and the one path
every job takes in (`queue_job`: idempotency, the caller's active-job limit, the job list, the enqueue with its
webhooks, the 202 answer).

Redis is reached lazily (first job request), never at import or app creation; an unreachable Redis makes
the job endpoints answer 503 while the synchronous endpoints keep working.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any, cast

from flask import current_app, g, request
from redis import Redis
from redis.client import Pipeline
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.exceptions import WatchError
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from ..http.errors import TooManyRequests
from ..rules.errors import DomainError
from .callbacks import SECRET_ENV, CallbackRefused
from .callbacks import resolve as resolve_callback
from .listing import remember
from .queues import NOTIFY_FAILURE, NOTIFY_SUCCESS, connect, enqueue, fetch, new_job_id, spec

IDEMPOTENCY_PREFIX = "longcards:idem:"
#: A set per owner of the ids of the jobs it submitted that may still be queued or running.
ACTIVE_PREFIX = "longcards:active:"
ACTIVE_TTL = 7 * 24 * 3600
#: Seconds a caller over MAX_ACTIVE_JOBS is told to wait.
ACTIVE_RETRY_AFTER = 10
#: Seconds a client should wait before polling a job it just submitted.
POLL_AFTER = "1"
ENDED = frozenset({b"finished", b"failed", b"stopped", b"canceled"})
JOB_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: RQ status -> the API's status names (CONTRACT: queued, started, finished, failed, canceled).
STATUS = {
    JobStatus.QUEUED: "queued", JobStatus.DEFERRED: "queued", JobStatus.SCHEDULED: "queued",
    JobStatus.STARTED: "started", JobStatus.FINISHED: "finished", JobStatus.FAILED: "failed",
    JobStatus.STOPPED: "canceled", JobStatus.CANCELED: "canceled",
}


class JobNotFound(Exception):
    """No job with this id is visible to the caller."""


def redis() -> Redis:
    """The app's Redis client (one per app; connections are made on first use)."""
    client = current_app.extensions.get("longcards_redis")
    if client is None:
        client = connect(current_app.config.get("REDIS_URL"))
        current_app.extensions["longcards_redis"] = client
    return client


def owner() -> str:
    """Who is asking: the API key's name when keys are on, else everyone is `public`."""
    return getattr(g, "api_key", None) or "public"


def active_key() -> str:
    """The set of active jobs a submission counts against: the API key's name, else the client address."""
    name = getattr(g, "api_key", None)
    return ACTIVE_PREFIX + (f"key:{name}" if name else f"addr:{request.remote_addr or 'unknown'}")


def active_jobs(connection: Redis, key: str) -> tuple[list[bytes], list[bytes]]:
    """The ids in an owner's set of jobs still queued or running, and those of jobs that have ended (or expired)."""
    ids = list(cast("set[bytes]", connection.smembers(key)))  # redis-py types a sync and an async client as one
    with connection.pipeline(transaction=False) as pipe:
        for job_id in ids:
            pipe.hget(Job.key_for(job_id.decode()), "status")
        statuses = pipe.execute()
    active = [job_id for job_id, status in zip(ids, statuses) if status is not None and status not in ENDED]
    return active, [job_id for job_id, status in zip(ids, statuses) if status is None or status in ENDED]


def count_active(pipe: Pipeline, key: str, job_id: str, ended: list[bytes]) -> None:
    """Queue the set update of a new job: the ended ones pruned, the new one added."""
    if ended:
        pipe.srem(key, *ended)
    pipe.sadd(key, job_id)
    pipe.expire(key, ACTIVE_TTL)


def load(job_id: str) -> Job:
    """A job the caller may see (another key's job, or an id no job can have, is not found)."""
    if not JOB_ID.fullmatch(job_id):
        raise JobNotFound(job_id)
    try:
        job = fetch(job_id, redis())
    except NoSuchJobError:
        raise JobNotFound(job_id) from None
    if job.meta.get("owner", "public") != owner():
        raise JobNotFound(job_id)
    return job


def idempotency(header: str | None, payload: Any) -> tuple[str, str]:
    """The Redis key remembering which job answers this request (named by the Idempotency-Key header, else by
    the payload), and the payload's digest, which a reused key must match."""
    body = hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    basis = hashlib.sha256(header.encode()).hexdigest() if header else body
    return f"{IDEMPOTENCY_PREFIX}{owner()}:{'key' if header else 'body'}:{basis}", body


def check_callback(url: str) -> None:
    """Webhooks need the shared secret, and go to public addresses only unless WEBHOOK_ALLOW_PRIVATE is set
    (a callback to loopback or a private network would let a caller make this service probe them). The
    workers check the address again at every delivery."""
    if not current_app.config.get("WEBHOOK_SECRET"):
        raise DomainError(f"webhooks are off: set {SECRET_ENV}", "callback_url", code="webhooks_disabled")
    if current_app.config.get("WEBHOOK_ALLOW_PRIVATE"):
        return
    try:
        resolve_callback(url)
    except CallbackRefused as refused:
        raise DomainError(f"callback_url refused: {refused}", "callback_url", code="invalid_callback_url") from None


def queue_job(name: str, args: tuple[Any, ...], *, kind: str, progress: dict[str, Any],
              callback_url: str | None, key: str, digest: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Queue the job function `name` on `args` as the caller's job (once per idempotency key and digest, see
    `submit`), its webhooks on success and failure: the 202 answer."""
    meta = {"owner": owner(), "kind": kind, "callback_url": callback_url, "progress": progress}
    job = submit(key, digest, spec(name).result_ttl, lambda pipe, job_id: enqueue(
        name, redis(), *args, job_id=job_id, meta=meta, on_success=NOTIFY_SUCCESS, on_failure=NOTIFY_FAILURE,
        pipeline=pipe))
    return accepted(job)


def submit(key: str, digest: str, ttl: int, make: Callable[[Pipeline, str], Job], attempts: int = 5) -> Job:
    """The job this idempotency key names, or a new one: the key, the job, the caller's set of active jobs and
    job list are written in one transaction watched on the key and the set, so two identical requests at once
    get one job, nothing is half-enqueued, and a caller never has more than MAX_ACTIVE_JOBS queued or running
    (429). A key that names a job made from another payload is refused: its job answers a different question."""
    limit, active = current_app.config.get("MAX_ACTIVE_JOBS") or 0, active_key()
    for _ in range(attempts):
        with redis().pipeline() as pipe:
            try:
                pipe.watch(key, active)
                existing = cast("bytes | None", pipe.get(key))
                if existing is not None:
                    job = _named_job(existing.decode(), digest)
                    if job is not None:
                        return job
                running, ended = active_jobs(redis(), active)
                if limit and len(running) >= limit:
                    raise TooManyRequests("too_many_active_jobs", f"{len(running)} jobs of this caller are queued "
                                          f"or running; at most {limit} at once", ACTIVE_RETRY_AFTER)
                job_id = new_job_id()
                pipe.multi()
                pipe.set(key, f"{job_id} {digest}", ex=ttl)
                count_active(pipe, active, job_id, ended)
                job = make(pipe, job_id)
                remember(pipe, owner(), job_id)
                pipe.execute()
                return job
            except WatchError:
                continue  # another request wrote the key meanwhile: read it again
    raise RedisTimeoutError("idempotency key kept changing")


def _named_job(entry: str, digest: str) -> Job | None:
    """The job an idempotency key's entry names (None once it has expired), refused for another payload."""
    job_id, _, made_from = entry.partition(" ")
    try:
        job = load(job_id)
    except JobNotFound:
        return None  # that job has expired: this request starts a new one
    if made_from not in ("", digest):
        raise DomainError("this Idempotency-Key was used with another request body", "Idempotency-Key",
                          code="idempotency_key_reused")
    return job


def accepted(job: Job) -> tuple[dict[str, Any], int, dict[str, str]]:
    """202 with the job, its Location and when to poll it (Retry-After)."""
    return job_json(job), 202, {"Location": f"/v1/jobs/{job.id}", "Retry-After": POLL_AFTER}


def job_json(job: Job, with_result: bool = True) -> dict[str, Any]:
    """A job as the API shows it: status, progress, result (unless left out) or a problem-shaped error."""
    status = STATUS.get(job.get_status(refresh=True), "queued")
    answer: dict[str, Any] = {
        "id": job.id, "kind": job.meta.get("kind"), "status": status, "progress": job.meta.get("progress"),
        "created_at": _iso(job.created_at), "started_at": _iso(job.started_at),
        "ended_at": _iso(_ended_at(job, status)),
        "retries_left": job.retries_left, "result": None, "error": None, "links": {"self": f"/v1/jobs/{job.id}"},
    }
    if status == "finished" and with_result:
        answer["result"] = job.return_value()
    elif status == "failed":
        latest = job.latest_result()
        reason = (latest.exc_string or "").strip().splitlines()[-1:] if latest else []
        answer["error"] = {"type": "/problems/job_failed", "title": "Job failed", "status": 500,
                           "detail": reason[0] if reason else "the job failed", "code": "job_failed"}
    return answer


def _ended_at(job: Job, status: str) -> Any:
    """When the job ended; a job stopped while running has no `ended_at` of its own, its last result's time."""
    if job.ended_at is None and status == "canceled":
        latest = job.latest_result()
        return latest.created_at if latest else None
    return job.ended_at


def _iso(moment: Any) -> str | None:
    """An ISO-8601 time, or None."""
    return moment.isoformat() if moment else None
