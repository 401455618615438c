"""The app's side of the job platform: its Redis connection, job JSON, idempotency and ownership.

Redis is reached lazily (first job request), never at import or app creation; an unreachable Redis makes
the job endpoints answer 503 while the synchronous endpoints keep working.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from flask import current_app, g, request
from redis import Redis
from redis.client import Pipeline
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from workers.queues import connect, fetch

IDEMPOTENCY_PREFIX = "longcards:idem:"
#: A set per owner of the ids of the jobs it submitted that may still be queued or running.
ACTIVE_PREFIX = "longcards:active:"
ACTIVE_TTL = 7 * 24 * 3600
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
    ids = list(connection.smembers(key))
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
