"""The workers' intervals come from the service's settings (docs/configuration.md): a worker built with the
environment's clock heartbeats, polls and cleans up at those intervals, a bad value stops it before it takes a job,
and the defaults find a killed worker's job within 55 s."""

from __future__ import annotations

import pytest

from service.config import ConfigError
from service.jobs.queues import SERIALIZER
from workers.worker import InProcessWorker, ServiceWorker, WorkerClock

SHORT = {"LONGCARDS_JOB_HEARTBEAT": "2", "LONGCARDS_HEARTBEAT_GRACE": "3", "LONGCARDS_WORKER_POLL": "4",
         "LONGCARDS_CLEANUP_INTERVAL": "5"}


def test_the_defaults_find_a_killed_workers_job_within_55_s():
    """10 s heartbeats, a 30 s grace and a 15 s poll (RQ's worker TTL of 30 s)."""
    clock = WorkerClock()
    assert (clock.heartbeat, clock.grace, clock.poll, clock.cleanup) == (10, 30, 15, 10)
    assert clock.abandoned_within == 55 and clock.worker_ttl == 30


@pytest.mark.parametrize("worker_class", [ServiceWorker, InProcessWorker])
def test_a_worker_takes_its_intervals_from_the_settings(monkeypatch, redis_db, worker_class):
    for name, seconds in SHORT.items():
        monkeypatch.setenv(name, seconds)
    worker = worker_class(["replays"], connection=redis_db, serializer=SERIALIZER)
    assert worker.clock == WorkerClock(heartbeat=2, grace=3, poll=4, cleanup=5)
    assert worker.job_monitoring_interval == 2 and worker.maintenance_interval == 5
    assert worker.dequeue_timeout == 4  # RQ blocks on the queues this long when idle


def test_a_running_jobs_entry_outlives_its_next_heartbeat_by_the_grace(monkeypatch, redis_db):
    """RQ's own allowance is 60 s past the next heartbeat; the service's is the grace."""
    for name, seconds in SHORT.items():
        monkeypatch.setenv(name, seconds)
    worker = ServiceWorker(["replays"], connection=redis_db, serializer=SERIALIZER)

    class Job:
        timeout = 3600  # far longer than a heartbeat

    assert worker.get_heartbeat_ttl(Job()) == 2 + 3  # type: ignore[arg-type]


@pytest.mark.parametrize("name, raw", [("LONGCARDS_JOB_HEARTBEAT", "0"), ("LONGCARDS_HEARTBEAT_GRACE", "soon"),
                                       ("LONGCARDS_WORKER_POLL", "301"), ("LONGCARDS_CLEANUP_INTERVAL", "-1")])
def test_a_bad_interval_is_refused_naming_the_setting(monkeypatch, name, raw):
    monkeypatch.setenv(name, raw)
    with pytest.raises(ConfigError, match=f"{name}='{raw}' is not valid"):
        WorkerClock.from_environment()
