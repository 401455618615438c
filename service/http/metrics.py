"""Prometheus metrics at GET /metrics: requests and their latency per endpoint, jobs by state per queue.

Request metrics live in prometheus_client's default registry; under gunicorn (`PROMETHEUS_MULTIPROC_DIR` set)
every worker writes them to that directory and a scrape sums them. Job counts are read from RQ's registries
when scraped; an unreachable Redis gives `longcards_redis_up 0`, not a failed scrape.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from flask import Flask, Response, request
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from redis import Redis
from redis.exceptions import RedisError

from ..jobs.queues import QUEUES, queue
from ..jobs.submit import redis

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "<unmatched>"  # paths no route matches: one label value, whatever the path
REQUESTS = Counter("longcards_http_requests", "HTTP requests answered", ["method", "endpoint", "status"])
LATENCY = Histogram(
    "longcards_http_request_duration_seconds", "Time to answer an HTTP request, by endpoint", ["method", "endpoint"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
#: Job states and the RQ registry holding each (queued jobs are the queue's list itself).
REGISTRIES = {
    "started": "started_job_registry", "finished": "finished_job_registry", "failed": "failed_job_registry",
    "canceled": "canceled_job_registry", "scheduled": "scheduled_job_registry", "deferred": "deferred_job_registry",
}


class JobsCollector:
    """Jobs by queue and state, queue depth and whether Redis answered, read at scrape time."""

    def __init__(self, connection: Redis) -> None:
        self.connection = connection

    def counts(self) -> dict[str, dict[str, int]]:
        """queue -> state -> jobs, in one round trip (no registry cleanup: that is the workers' job)."""
        with self.connection.pipeline(transaction=False) as pipe:
            for name in QUEUES:
                rq_queue = queue(name, self.connection)
                pipe.llen(rq_queue.key)
                for attribute in REGISTRIES.values():
                    pipe.zcard(getattr(rq_queue, attribute).key)
            values = pipe.execute()
        states, width = ("queued", *REGISTRIES), 1 + len(REGISTRIES)
        return {name: dict(zip(states, values[i * width:(i + 1) * width])) for i, name in enumerate(QUEUES)}

    def collect(self) -> Iterator[Metric]:
        """The gauges; only `longcards_redis_up 0` when Redis does not answer."""
        up = GaugeMetricFamily("longcards_redis_up", "1 if Redis answered this scrape, else 0")
        try:
            counts = self.counts()
        except (RedisError, OSError):
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        jobs = GaugeMetricFamily("longcards_jobs", "Jobs per queue and state (RQ registries)",
                                 labels=["queue", "state"])
        depth = GaugeMetricFamily("longcards_queue_depth", "Jobs waiting in each queue", labels=["queue"])
        for name, states in counts.items():
            depth.add_metric([name], states["queued"])
            for state, count in states.items():
                jobs.add_metric([name, state], count)
        yield jobs
        yield depth


#: The label children already made, by (method, endpoint, status): `labels()` takes a lock and builds a key each call.
_children: dict[tuple[str, str, str], tuple[Any, Any]] = {}


def observe(method: str, endpoint: str, status: str, seconds: float) -> None:
    """Count one answered request and its latency, labelled by route rule (not the raw path); called by the
    envelope (service/http/envelope.py) for every request when metrics are on."""
    if method not in METHODS:
        method = "other"
    key = (method, endpoint, status)
    children = _children.get(key)
    if children is None:
        children = _children[key] = (REQUESTS.labels(method, endpoint, status), LATENCY.labels(method, endpoint))
    children[0].inc()
    children[1].observe(seconds)


def scrape() -> Response:
    """GET /metrics: this process's (or every gunicorn worker's) request metrics and the job gauges."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(REGISTRY)
    registry.register(JobsCollector(redis()))
    encode, content_type = choose_encoder(request.headers.get("Accept", ""))
    return Response(encode(registry), content_type=content_type)


def init_app(app: Flask) -> None:
    """Serve /metrics (the envelope counts and times every request, refused ones too)."""
    if not app.config.get("METRICS", True):
        return
    app.add_url_rule("/metrics", "metrics", scrape, methods=["GET"])
