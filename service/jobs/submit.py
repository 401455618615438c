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

from flask import current_app, g, has_app_context, request
from redis import Redis
from redis.client import Pipeline
from redis.exceptions import TimeoutError as RedisTimeoutError
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from ..config import redact
from ..http.errors import TooManyRequests
from ..i18n import _, localize
from ..rules.errors import DomainError
from ..rules.text import read_texts
from .callbacks import SECRET_ENV, CallbackRefused
from .callbacks import resolve as resolve_callback
from .lifecycle import ENDED as ENDED_STATUSES
from .lifecycle import IDEMPOTENCY_META
from .listing import remember
from .pages import read
from .queues import NOTIFY_FAILURE, NOTIFY_SUCCESS, connect, enqueue, new_job_id, spec, view
from .replication import confirm, replicas_wanted

IDEMPOTENCY_PREFIX = "longcards:idem:"
#: A set per owner of the ids of the jobs it submitted that may still be queued or running.
ACTIVE_PREFIX = "longcards:active:"
ACTIVE_TTL = 7 * 24 * 3600
#: Seconds a caller over MAX_ACTIVE_JOBS is told to wait.
ACTIVE_RETRY_AFTER = 10
#: Seconds a client should wait before polling a job it just submitted.
POLL_AFTER = "1"
ENDED = frozenset(status.encode() for status in ENDED_STATUSES)
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
        client = connect(settings=current_app.config)
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


def load(job_id: str) -> Job:
    """A job the caller may see (another key's job, or an id no job can have, is not found)."""
    if not JOB_ID.fullmatch(job_id):
        raise JobNotFound(job_id)
    try:
        job = view(job_id, redis())
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
    `submit`), its webhooks on success and failure, kept JOB_RESULT_TTL seconds once it has ended: the 202
    answer, once the replicas SUBMIT_REPLICAS asks for have the job (service/jobs/replication.py)."""
    ttl = int(current_app.config.get("JOB_RESULT_TTL") or spec(name).result_ttl)
    meta = {"owner": owner(), "kind": kind, "callback_url": callback_url, "progress": progress,
            IDEMPOTENCY_META: key}
    job = submit(key, digest, ttl, lambda pipe, job_id: enqueue(
        name, redis(), *args, job_id=job_id, meta=meta, on_success=NOTIFY_SUCCESS, on_failure=NOTIFY_FAILURE,
        pipeline=pipe, ttl=ttl))
    confirm(redis(), replicas_wanted(current_app.config), int(current_app.config["SUBMIT_REPLICA_WAIT_MS"]))
    return accepted(job)


#: The submission, in one step of Redis: the job the idempotency key names, if it lives (refused when it was made
#: from another payload); else the caller's active jobs counted (their ids pruned of ended ones) against the limit;
#: else the key, the caller's set and the new job's own writes (queued by RQ on a pipeline that is never executed,
#: and replayed here: the job's hash, its queue, the caller's job list).
#: KEYS: idempotency key, the caller's active set. ARGV: job id, payload digest, the key's TTL, the limit (0: none),
#: the set's TTL, the job hash prefix, the number of commands, then each command as its length and its words.
SUBMIT = """
local existing = redis.call('GET', KEYS[1])
if existing then
  local space = string.find(existing, ' ', 1, true)
  local named = space and string.sub(existing, 1, space - 1) or existing
  local made_from = space and string.sub(existing, space + 1) or ''
  if redis.call('EXISTS', ARGV[6] .. named) == 1 then
    if made_from ~= '' and made_from ~= ARGV[2] then return {'reused', named} end
    return {'existing', named}
  end
end
local ended = {finished = true, failed = true, stopped = true, canceled = true}
local running = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local status = redis.call('HGET', ARGV[6] .. id, 'status')
  if status and not ended[status] then
    running = running + 1
  else
    redis.call('SREM', KEYS[2], id)
  end
end
local limit = tonumber(ARGV[4])
if limit > 0 and running >= limit then return {'busy', tostring(running)} end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2], 'EX', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[5])
local at = 8
for _ = 1, tonumber(ARGV[7]) do
  local words = tonumber(ARGV[at])
  redis.call(unpack(ARGV, at + 1, at + words))
  at = at + words + 1
end
return {'new', ARGV[1]}
"""


def submit(key: str, digest: str, ttl: int, make: Callable[[Pipeline, str], Job], attempts: int = 3) -> Job:
    """The job this idempotency key names, or a new one, decided and written in one Lua script (SUBMIT): two
    identical requests at once get one job, nothing is half-enqueued, a caller never has more than
    MAX_ACTIVE_JOBS queued or running (429), and no request is turned away while Redis answers. A key that names
    a job made from another payload is refused: its job answers a different question. The key lives until its
    job has ended (then as long as the job)."""
    limit, active, connection = int(current_app.config.get("MAX_ACTIVE_JOBS") or 0), active_key(), redis()
    for _attempt in range(attempts):
        existing = cast("bytes | None", connection.get(key))
        if existing is not None:  # the common repeat, answered without building the job
            job = _named_job(existing.decode(), digest)
            if job is not None:
                return job
        job_id = new_job_id()
        job, commands = _recorded(connection, make, job_id)
        words = [word for command in commands for word in (len(command), *command)]
        outcome, named = (part.decode() if isinstance(part, bytes) else part for part in cast(
            "list[Any]", connection.register_script(SUBMIT)(keys=[key, active], args=[
                job_id, digest, ttl + ACTIVE_TTL, limit, ACTIVE_TTL, Job.redis_job_namespace_prefix, len(commands),
                *words])))
        if outcome == "new":
            return job
        if outcome == "busy":
            raise TooManyRequests("too_many_active_jobs", f"{named} jobs of this caller are queued or running; at "
                                  f"most {limit} at once", ACTIVE_RETRY_AFTER)
        if outcome == "reused":
            raise _reused()
        try:
            return load(named)
        except JobNotFound:
            continue  # it expired this very moment: the next round makes a new one
    raise RedisTimeoutError("the job an idempotency key named kept expiring")


def _recorded(connection: Redis, make: Callable[[Pipeline, str], Job], job_id: str) -> tuple[Job, list[Any]]:
    """The new job, and the commands that write it (its hash, its queue) and add it to the caller's job list, as
    they were queued on a pipeline that is then dropped unexecuted."""
    recorder = connection.pipeline(transaction=True)
    try:
        job = make(recorder, job_id)
        remember(recorder, owner(), job_id)
        return job, [tuple(command) for command, _options in recorder.command_stack]
    finally:
        recorder.reset()


def _reused() -> DomainError:
    """A key sent again with another payload."""
    return DomainError("this Idempotency-Key was used with another request body", "Idempotency-Key",
                       code="idempotency_key_reused")


def _named_job(entry: str, digest: str) -> Job | None:
    """The job an idempotency key's entry names (None once it has expired), refused for another payload."""
    job_id, _, made_from = entry.partition(" ")
    try:
        job = load(job_id)
    except JobNotFound:
        return None  # that job has expired: this request starts a new one
    if made_from not in ("", digest):
        raise _reused()
    return job


def accepted(job: Job) -> tuple[dict[str, Any], int, dict[str, str]]:
    """202 with the job, its Location and when to poll it (Retry-After)."""
    return job_json(job), 202, {"Location": f"/v1/jobs/{job.id}", "Retry-After": POLL_AFTER}


def job_json(job: Job, with_result: bool = True, logs_offset: int = 0, logs_limit: int | None = None) -> dict[str, Any]:
    """A job as the API shows it: status, progress, result (unless left out; a replay result's per-log entries
    only logs_offset..logs_offset+logs_limit with a limit, read alone) or a problem-shaped error."""
    status = STATUS.get(job.get_status(refresh=True), "queued")
    answer: dict[str, Any] = {
        "id": job.id, "kind": job.meta.get("kind"), "status": status, "progress": job.meta.get("progress"),
        "created_at": _iso(job.created_at), "started_at": _iso(job.started_at),
        "ended_at": _iso(_ended_at(job, status)),
        "retries_left": job.retries_left, "result": None, "error": None, "links": {"self": f"/v1/jobs/{job.id}"},
    }
    if status == "finished" and with_result:
        # the result is stored language-neutral: its reasons are put in the reader's language here, as it is read
        answer["result"] = read_texts(read(job.connection, job, logs_offset, logs_limit), localize)
    elif status == "failed":
        latest = job.latest_result()
        reason = (latest.exc_string or "").strip().splitlines()[-1:] if latest else []
        # The exception's own text may repeat a connection's settings: never a secret in an answer.
        settings = current_app.config if has_app_context() else None
        answer["error"] = {"type": "/problems/job_failed", "title": _("Job failed"), "status": 500,
                           "detail": redact(reason[0], settings) if reason else _("the job failed"),
                           "code": "job_failed"}
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
