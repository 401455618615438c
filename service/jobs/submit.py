"""The job layer's one path in for a job, and the reads the API makes of one: who asks (`Caller`), idempotency,
ownership and `queue_job` (idempotency, the caller's active-job limit, the job list, the enqueue with its webhooks,
the wait for a replica).

No Flask here: the API passes in what it knows of the request (the app's Redis client and settings, the caller, the
`Idempotency-Key` header) and turns the job, or a refusal of service/jobs/errors.py, into its answer
(service/api/jobs/access.py). Redis is reached when a job is first asked for, never at import.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from redis import Redis
from redis.client import Pipeline
from redis.exceptions import TimeoutError as RedisTimeoutError
from rq.exceptions import NoSuchJobError
from rq.job import Job

from ..rules.errors import DomainError
from .callbacks import SECRET_ENV, CallbackRefused
from .callbacks import endpoint as callback_endpoint
from .callbacks import resolve as resolve_callback
from .errors import JobNotFound, TooManyActiveJobs
from .lifecycle import ENDED as ENDED_STATUSES
from .lifecycle import IDEMPOTENCY_META
from .listing import remember
from .queues import NOTIFY_FAILURE, NOTIFY_SUCCESS, enqueue, new_job_id, spec, view
from .replication import confirm, replicas_wanted

IDEMPOTENCY_PREFIX = "longcards:idem:"
#: A set per owner of the ids of the jobs it submitted that may still be queued or running.
ACTIVE_PREFIX = "longcards:active:"
ACTIVE_TTL = 7 * 24 * 3600
#: Seconds a caller over MAX_ACTIVE_JOBS is told to wait.
ACTIVE_RETRY_AFTER = 10
ENDED = frozenset(status.encode() for status in ENDED_STATUSES)
JOB_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class Caller:
    """Who asks: the owner of the jobs it makes and may see (the API key's name, else everyone is `public`), and the
    set of active jobs its submissions count against (the key's, else the client address's)."""

    owner: str
    active: str

    @classmethod
    def of(cls, api_key: str | None, address: str | None) -> Caller:
        """The caller with this API key's name (None: no key), from this client address."""
        active = f"key:{api_key}" if api_key else f"addr:{address or 'unknown'}"
        return cls(api_key or "public", ACTIVE_PREFIX + active)


def active_jobs(connection: Redis, key: str) -> tuple[list[bytes], list[bytes]]:
    """The ids in an owner's set of jobs still queued or running, and those of jobs that have ended (or expired)."""
    ids = list(cast("set[bytes]", connection.smembers(key)))  # redis-py types a sync and an async client as one
    with connection.pipeline(transaction=False) as pipe:
        for job_id in ids:
            pipe.hget(Job.key_for(job_id.decode()), "status")
        statuses = pipe.execute()
    active = [job_id for job_id, status in zip(ids, statuses) if status is not None and status not in ENDED]
    return active, [job_id for job_id, status in zip(ids, statuses) if status is None or status in ENDED]


def load(connection: Redis, job_id: str, owner: str) -> Job:
    """A job `owner` may see (another owner's job, or an id no job can have, is not found)."""
    if not JOB_ID.fullmatch(job_id):
        raise JobNotFound(job_id)
    try:
        job = view(job_id, connection)
    except NoSuchJobError:
        raise JobNotFound(job_id) from None
    if job.meta.get("owner", "public") != owner:
        raise JobNotFound(job_id)
    return job


def idempotency(owner: str, header: str | None, payload: Any, prefix: str = IDEMPOTENCY_PREFIX) -> tuple[str, str]:
    """The Redis key remembering which of `owner`'s jobs (or, under another `prefix`, stored games) answers this
    request (named by the Idempotency-Key header, else by the payload), and the payload's digest, which a reused key
    must match."""
    body = hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    basis = hashlib.sha256(header.encode()).hexdigest() if header else body
    return f"{prefix}{owner}:{'key' if header else 'body'}:{basis}", body


def check_callback(url: str, settings: Mapping[str, Any]) -> None:
    """Webhooks need the shared secret and a URL a delivery can carry, and go to public addresses only unless
    WEBHOOK_ALLOW_PRIVATE is set (a callback to loopback or a private network would let a caller make this service
    probe them). The workers check the address again at every delivery."""
    if not settings.get("WEBHOOK_SECRET"):
        raise DomainError(f"webhooks are off: set {SECRET_ENV}", "callback_url", code="webhooks_disabled")
    try:
        if settings.get("WEBHOOK_ALLOW_PRIVATE"):
            callback_endpoint(url)  # the URL's form only: any address may be reached
        else:
            resolve_callback(url)
    except CallbackRefused as refused:
        raise DomainError(f"callback_url refused: {refused}", "callback_url", code="invalid_callback_url") from None


def queue_job(connection: Redis, settings: Mapping[str, Any], caller: Caller, name: str, args: tuple[Any, ...], *,
              kind: str, progress: dict[str, Any], callback_url: str | None, key: str, digest: str) -> Job:
    """Queue the job function `name` on `args` as the caller's job (once per idempotency key and digest, see
    `submit`), its webhooks on success and failure, kept JOB_RESULT_TTL seconds once it has ended; returned once the
    replicas SUBMIT_REPLICAS asks for have it (service/jobs/replication.py). `settings`: the app's."""
    ttl = int(settings.get("JOB_RESULT_TTL") or spec(name).result_ttl)
    meta = {"owner": caller.owner, "kind": kind, "callback_url": callback_url, "progress": progress,
            IDEMPOTENCY_META: key}
    job = submit(connection, caller, key, digest, ttl, lambda pipe, job_id: enqueue(
        name, connection, *args, job_id=job_id, meta=meta, on_success=NOTIFY_SUCCESS, on_failure=NOTIFY_FAILURE,
        pipeline=pipe, ttl=ttl), limit=int(settings.get("MAX_ACTIVE_JOBS") or 0))
    confirm(connection, replicas_wanted(settings), int(settings["SUBMIT_REPLICA_WAIT_MS"]))
    return job


#: The submission, in one step of Redis: the job the idempotency key names, if it lives (refused when it was made
#: from another payload); else the caller's active jobs counted (their ids pruned of ended ones) against the limit;
#: else the key, the caller's set and the new job's own writes (queued by RQ on a pipeline that is never executed,
#: and replayed here: the job's hash, its queue, its entry among the waiting jobs, the caller's job list).
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


def submit(connection: Redis, caller: Caller, key: str, digest: str, ttl: int, make: Callable[[Pipeline, str], Job],
           limit: int = 0, attempts: int = 3) -> Job:
    """The job this idempotency key names, or a new one, decided and written in one Lua script (SUBMIT): two
    identical requests at once get one job, nothing is half-enqueued, a caller never has more than `limit`
    (MAX_ACTIVE_JOBS; 0: no limit) queued or running (TooManyActiveJobs), and no request is turned away while Redis
    answers. A key that names a job made from another payload is refused: its job answers a different question. The
    key lives until its job has ended (then as long as the job)."""
    for _attempt in range(attempts):
        existing = cast("bytes | None", connection.get(key))
        if existing is not None:  # the common repeat, answered without building the job
            job = _named_job(connection, caller.owner, existing.decode(), digest)
            if job is not None:
                return job
        job_id = new_job_id()
        job, commands = _recorded(connection, caller.owner, make, job_id)
        words = [word for command in commands for word in (len(command), *command)]
        outcome, named = (part.decode() if isinstance(part, bytes) else part for part in cast(
            "list[Any]", connection.register_script(SUBMIT)(keys=[key, caller.active], args=[
                job_id, digest, ttl + ACTIVE_TTL, limit, ACTIVE_TTL, Job.redis_job_namespace_prefix, len(commands),
                *words])))
        if outcome == "new":
            return job
        if outcome == "busy":
            raise TooManyActiveJobs(int(named), limit, ACTIVE_RETRY_AFTER)
        if outcome == "reused":
            raise reused_key()
        try:
            return load(connection, named, caller.owner)
        except JobNotFound:
            continue  # it expired this very moment: the next round makes a new one
    raise RedisTimeoutError("the job an idempotency key named kept expiring")


def _recorded(connection: Redis, owner: str, make: Callable[[Pipeline, str], Job],
              job_id: str) -> tuple[Job, list[Any]]:
    """The new job, and the commands that write it (its hash, its queue, its entry among the waiting jobs:
    service/jobs/waiting.py) and add it to its owner's job list, as they were queued on a pipeline that is then
    dropped unexecuted."""
    recorder = connection.pipeline(transaction=True)
    try:
        job = make(recorder, job_id)
        remember(recorder, owner, job_id)
        return job, [tuple(command) for command, _options in recorder.command_stack]
    finally:
        recorder.reset()


def reused_key() -> DomainError:
    """A key sent again with another payload."""
    return DomainError("this Idempotency-Key was used with another request body", "Idempotency-Key",
                       code="idempotency_key_reused")


def _named_job(connection: Redis, owner: str, entry: str, digest: str) -> Job | None:
    """The job an idempotency key's entry names (None once it has expired), refused for another payload."""
    job_id, _, made_from = entry.partition(" ")
    try:
        job = load(connection, job_id, owner)
    except JobNotFound:
        return None  # that job has expired: this request starts a new one
    if made_from not in ("", digest):
        raise reused_key()
    return job
