"""Queue names, job names and their specs, the Redis connection and the one enqueue every job takes.

A job is named by the dotted path of its function in `workers/` (RQ stores that name and the worker imports it),
so the service enqueues jobs without importing the workers: the workers import this module, never the reverse.
The names, queues and ids are stored in Redis: a job queued by an older API must still run, so they never change.
Jobs are plain module-level functions taking JSON-safe arguments; they raise on failure (so RQ retries).
Every queue uses RQ's JSON serializer: request data is never pickled. Where Redis is (`REDIS_URL`, or Sentinels:
service/redisconf.py) is read when a connection is made, never at import.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from redis import Redis
from rq import Queue, Retry
from rq.job import Callback, Job
from rq.serializers import JSONSerializer

from ..redisconf import DEFAULT_REDIS_URL, RedisSettings
from .waiting import track

QUEUE_REPLAYS = "replays"
QUEUE_SEARCHES = "searches"
QUEUE_WEBHOOKS = "webhooks"
QUEUES = (QUEUE_REPLAYS, QUEUE_SEARCHES, QUEUE_WEBHOOKS)
SERIALIZER = JSONSerializer

#: The job functions, by the name RQ stores (module path and function of workers/).
ANALYSE_REPLAYS = "workers.replays.analyse_replays"
DEEP_SEARCH = "workers.searches.deep_search"
DELIVER_WEBHOOK = "workers.webhooks.deliver_webhook"
#: The callbacks a job may carry: they queue its webhook when it ends.
NOTIFY_SUCCESS = "workers.webhooks.notify_success"
NOTIFY_FAILURE = "workers.webhooks.notify_failure"
CALLBACKS = (NOTIFY_SUCCESS, NOTIFY_FAILURE)


@dataclass(frozen=True)
class JobSpec:
    """How a job function runs: its queue, time limit, retries, and how long it is kept once it has ended, whatever
    its end (finished, failed, stopped or canceled) unless the one who queues it says otherwise."""

    queue: str
    timeout: int = 600
    retries: int = 3
    intervals: tuple[int, ...] = (5, 30, 120)
    result_ttl: int = 24 * 3600


#: Every job function's spec: these are the only functions a worker runs (workers/worker.py).
SPECS: dict[str, JobSpec] = {
    ANALYSE_REPLAYS: JobSpec(QUEUE_REPLAYS, timeout=3600),
    DEEP_SEARCH: JobSpec(QUEUE_SEARCHES, timeout=300),
    DELIVER_WEBHOOK: JobSpec(QUEUE_WEBHOOKS, timeout=30, retries=5, intervals=(2, 10, 60, 300, 1800)),
}


def redis_url() -> str:
    """The Redis server to use: `REDIS_URL`, or the local default."""
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def connect(url: str | None = None, settings: Mapping[str, Any] | None = None, timeout: float | None = None) -> Redis:
    """A Redis client with short timeouts, so an unreachable Redis fails fast instead of hanging a request (2 s to
    connect, 5 s for an answer; `timeout` seconds for both): of the server at `url`, else of the one `settings` (an
    app's config; None: the environment) name, through Sentinel when they name Sentinels (service/redisconf.py)."""
    where = RedisSettings(url=url) if url else RedisSettings.read(settings)
    return where.client(socket_connect_timeout=timeout or 2, socket_timeout=timeout or 5, health_check_interval=15)


def queue(name: str, connection: Redis) -> Queue:
    """A queue by name, with the JSON serializer."""
    return Queue(name, connection=connection, serializer=SERIALIZER)


def fetch(job_id: str, connection: Redis) -> Job:
    """A job by id (raises rq.exceptions.NoSuchJobError)."""
    return Job.fetch(job_id, connection=connection, serializer=SERIALIZER)


class JobView(Job):
    """A job as the API reads it, to show it: its arguments (the request, up to a megabyte once decompressed) are
    left out, so reading a job costs the same whatever it was asked. Read only: never saved back."""

    def restore(self, raw_data: Any) -> Any:
        return super().restore({**raw_data, b"data": b""})

    @classmethod
    def fetch_many(cls, job_ids: Iterable[str], connection: Redis, serializer: Any = None) -> list[Job | None]:
        """Jobs by id (None for one that does not exist), read in one round trip outside a transaction: a Redis at
        `maxmemory` refuses every command queued in a MULTI, reads included, while it answers them one by one."""
        ids = list(job_ids)
        with connection.pipeline(transaction=False) as pipe:
            for job_id in ids:
                pipe.hgetall(cls.key_for(job_id))
            hashes = pipe.execute()
        jobs: list[Job | None] = []
        for job_id, raw in zip(ids, hashes):
            job = cls(job_id, connection=connection, serializer=serializer) if raw else None
            if job is not None:
                job.restore(raw)
            jobs.append(job)
        return jobs


def view(job_id: str, connection: Redis) -> JobView:
    """A job by id, to show it (raises rq.exceptions.NoSuchJobError)."""
    return cast(JobView, JobView.fetch(job_id, connection=connection, serializer=SERIALIZER))


def new_job_id() -> str:
    """An unguessable job id (144 random bits, URL-safe)."""
    return secrets.token_urlsafe(18)


def job_name(func: str | Callable[..., Any]) -> str:
    """The name RQ stores for a job function: the dotted name itself, or the function's module and name."""
    return func if isinstance(func, str) else f"{func.__module__}.{func.__qualname__}"


def spec(func: str | Callable[..., Any]) -> JobSpec:
    """The spec of a job function, by name or function; KeyError for a function that is not a job."""
    return SPECS[job_name(func)]


def enqueue(func: str | Callable[..., Any], connection: Redis, *args: Any, job_id: str | None = None,
            meta: dict[str, Any] | None = None, on_success: str | None = None, on_failure: str | None = None,
            pipeline: Any = None, ttl: int | None = None) -> Job:
    """Enqueue a job function (by name) with its spec: retries with backoff, time limit, and how long it is kept
    once it has ended (`ttl`, else the spec's result TTL: results and failures alike); the callbacks by name too.
    The job is recorded among the waiting jobs (service/jobs/waiting.py) in the transaction that queues it: with
    `pipeline` the job's writes are queued there, for the caller to run with its own. The description is the
    function's name: RQ would otherwise store a copy of the arguments there (a megabyte for a large batch)."""
    name, settings = job_name(func), spec(func)
    kept = ttl or settings.result_ttl
    pipe = connection.pipeline() if pipeline is None else pipeline
    try:
        job = queue(settings.queue, connection).enqueue(
            name, *args, job_id=job_id or new_job_id(), meta=meta or {}, description=name,
            retry=Retry(max=settings.retries, interval=list(settings.intervals)) if settings.retries else None,
            job_timeout=settings.timeout, result_ttl=kept, failure_ttl=kept,
            on_success=Callback(on_success) if on_success else None,
            on_failure=Callback(on_failure) if on_failure else None, pipeline=pipe,
        )
        track(pipe, job.id)
        if pipeline is None:
            pipe.execute()
    finally:
        if pipeline is None:
            pipe.reset()
    return job
