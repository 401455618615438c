"""Prometheus metrics at GET /metrics: requests and their latency per endpoint, jobs by state per queue.

Request metrics live in prometheus_client's default registry; under gunicorn (`PROMETHEUS_MULTIPROC_DIR` set)
every worker writes them to that directory and a scrape sums them. Job counts are read from RQ's registries
when scraped; an unreachable Redis gives `longcards_redis_up 0`, not a failed scrape.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

from flask import Flask, Response, g, request
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


def start_timer() -> None:
    """Before each request: note when it began."""
    g.metrics_started = time.perf_counter()


def record(response: Response) -> Response:
    """After each request: count it and time it, labelled by route rule (not the raw path)."""
    started = g.pop("metrics_started", None)
    method = request.method if request.method in METHODS else "other"
    endpoint = request.url_rule.rule if request.url_rule is not None else UNMATCHED
    REQUESTS.labels(method, endpoint, str(response.status_code)).inc()
    if started is not None:
        LATENCY.labels(method, endpoint).observe(time.perf_counter() - started)
    return response


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
    """Time every request (install first, so refused requests count too) and serve /metrics."""
    if not app.config.get("METRICS", True):
        return
    app.before_request(start_timer)
    app.after_request(record)
    app.add_url_rule("/metrics", "metrics", scrape, methods=["GET"])
