"""The job gauges of GET /metrics: jobs by queue and state, the depth of each queue and whether Redis answered, read
from RQ's registries when scraped. A prometheus_client collector the app factory hands to the metrics endpoint
(service/http/metrics.py), which knows nothing of jobs; an unreachable Redis gives `longcards_redis_up 0`, not a
failed scrape."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client.core import GaugeMetricFamily, Metric
from redis import Redis
from redis.exceptions import RedisError

from .queues import QUEUES, queue

#: Job states and the RQ registry holding each (queued jobs are the queue's list itself).
REGISTRIES = {
    "started": "started_job_registry", "finished": "finished_job_registry", "failed": "failed_job_registry",
    "canceled": "canceled_job_registry", "scheduled": "scheduled_job_registry", "deferred": "deferred_job_registry",
}


class JobsCollector:
    """Jobs by queue and state, queue depth and whether Redis answered, read at scrape time on the connection
    `connection()` gives then (the app's Redis client)."""

    def __init__(self, connection: Callable[[], Redis]) -> None:
        self.connection = connection

    def counts(self) -> dict[str, dict[str, int]]:
        """queue -> state -> jobs, in one round trip (no registry cleanup: that is the workers' job)."""
        connection = self.connection()
        with connection.pipeline(transaction=False) as pipe:
            for name in QUEUES:
                rq_queue = queue(name, connection)
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
