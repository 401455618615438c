"""The jobs' test material: legal logs to batch, a search request, and a burst worker of the service that runs the
queued jobs in the test's own process."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from flask import Flask
from redis import Redis
from rq.job import Job

from service.app import create_app
from service.jobs.queues import ANALYSE_REPLAYS, QUEUES, SERIALIZER, enqueue, queue
from service.replay.families import simulate
from workers.worker import InProcessWorker

WEBHOOK_SECRET = "test-webhook-secret"


@contextmanager
def job_app(redis_url: str, **config: Any) -> Iterator[Flask]:
    """The job app on `redis_url`, webhooks signed with `WEBHOOK_SECRET`, with `config` on top (e.g.
    `MAX_ACTIVE_JOBS`); its Redis client is closed afterwards."""
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "WEBHOOK_SECRET": WEBHOOK_SECRET, **config})
    try:
        yield app
    finally:
        client = app.extensions.get("longcards_redis")
        if client is not None:
            client.close()
#: (rule-set, seats, policy) of the simulated tables batches cycle through.
TABLES = (("bga-taiwan", 3, "greedy"), ("cardavia-chan", 4, "greedy"), ("bga-taiwan", 4, "random"),
          ("cardavia-flowers", 4, "random"), ("cardavia-chan", 4, "random"), ("bga-taiwan", 2, "random"))
#: Logs in a job of about 60 s on this 2-core machine when idle (0.12 s a log since the review ranks every discard;
#: several times longer under load): a job that outlasts a Redis outage.
LONG_BATCH = 480
#: Logs in a job of about 12 s when idle: long enough to be stopped or killed while it runs, short enough to be run
#: again to its end within a test (96 logs: 11.5 s measured with a burst worker).
STOPPABLE_BATCH = 96
# The bga-taiwan hand of tests/api/test_discards.py: discarding yA or wC waits on the other's pair (12 points).
HAND = ["rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS", "yS", "gS", "wE", "wE",
        "gH", "gH", "yA", "wC"]


@cache
def _simulated(index: int) -> dict:
    """The index-th simulated log of the pool (seeded, so the same every run)."""
    ruleset_id, seats, policy = TABLES[index % len(TABLES)]
    return simulate(ruleset_id, index, seats, policy)


def batch(size: int, unique: int = 36) -> list[dict]:
    """`size` legal logs, cycling through `unique` distinct simulated rounds of every table (cheap to build)."""
    return [_simulated(i % unique) for i in range(size)]


def long_job(connection: Redis, size: int = LONG_BATCH) -> Job:
    """A replay job of `size` logs with its progress meta, as the API queues it."""
    logs = batch(size)
    return enqueue(ANALYSE_REPLAYS, connection, logs, None, meta={"owner": "public", "kind": "replay", "progress": {
        "events_done": 0, "events_total": sum(len(log["events"]) for log in logs), "logs_done": 0,
        "logs_total": size}})


def search_body(**extra) -> dict:
    """A small search of the dealer's opening discard."""
    return {"ruleset": "bga-taiwan", "hand": HAND, "seats": 4, "seat": 0, "samples": 60, "time_budget": 20,
            "seed": 3, **extra}


def run_worker(connection: Redis, queues: tuple[str, ...] = QUEUES, with_scheduler: bool = False) -> bool:
    """Drain the queues with a burst worker of the service in this process (no fork, JSON serializer); True if it
    ran any job."""
    worker = InProcessWorker([queue(name, connection) for name in queues], connection=connection,
                             serializer=SERIALIZER)
    return worker.work(burst=True, with_scheduler=with_scheduler)
