"""GET /metrics: request counters and latency histograms, job gauges from RQ, gunicorn workers summed."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from service.app import create_app
from service.jobs.queues import queue
from service.replay.families import simulate
from tests.support.metrics import scrape, value

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def app(redis_db, redis_url):
    """The app on the test Redis database."""
    return create_app({"TESTING": True, "REDIS_URL": redis_url})


def test_requests_are_counted_and_timed_per_route(client):
    """Counts by method, route rule and status; a latency histogram per route; unknown paths share one label."""
    before = scrape(client)
    for _ in range(3):
        assert client.get("/v1/rulesets").status_code == 200
    assert client.post("/v1/hu", json={"ruleset": "nope", "hand": []}).status_code == 422
    assert client.get("/v1/rulesets/bga-taiwan").status_code == 200
    assert client.get("/no/such/path").status_code == 404
    after = scrape(client)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    requests = "longcards_http_requests_total"
    assert delta(requests, method="GET", endpoint="/v1/rulesets", status="200") == 3
    assert delta(requests, method="POST", endpoint="/v1/hu", status="422") == 1
    assert delta(requests, method="GET", endpoint="/v1/rulesets/<string:ruleset_id>", status="200") == 1
    assert delta(requests, method="GET", endpoint="<unmatched>", status="404") == 1
    latency = "longcards_http_request_duration_seconds"
    assert delta(f"{latency}_count", method="GET", endpoint="/v1/rulesets") == 3
    assert delta(f"{latency}_bucket", method="GET", endpoint="/v1/rulesets", le="+Inf") == 3
    assert delta(f"{latency}_sum", method="GET", endpoint="/v1/rulesets") > 0


def test_job_gauges_read_the_rq_registries(client, redis_db):
    """Queued, canceled and scheduled jobs per queue, and the queue depth, as RQ holds them now."""
    created = client.post("/v1/replays", json={"logs": [simulate("bga-taiwan", 11, 3, "greedy")]})
    assert created.status_code == 202
    queue("replays", redis_db).enqueue_in(timedelta(hours=1), "workers.replays.analyse_replays", [], None)
    samples = scrape(client)
    assert value(samples, "longcards_redis_up") == 1
    assert value(samples, "longcards_jobs", queue="replays", state="queued") == 1
    assert value(samples, "longcards_jobs", queue="replays", state="scheduled") == 1
    assert value(samples, "longcards_queue_depth", queue="replays") == 1
    assert value(samples, "longcards_queue_depth", queue="webhooks") == 0
    assert ("longcards_jobs", (("queue", "searches"), ("state", "failed"))) in samples

    assert client.delete(created.headers["Location"]).status_code == 200
    samples = scrape(client)
    assert value(samples, "longcards_jobs", queue="replays", state="queued") == 0
    assert value(samples, "longcards_jobs", queue="replays", state="canceled") == 1


def test_redis_down_is_a_gauge_not_a_failed_scrape(dead_redis_url):
    """An unreachable Redis: the scrape answers, with longcards_redis_up 0 and no job gauges."""
    client = create_app({"TESTING": True, "REDIS_URL": dead_redis_url}).test_client()
    client.get("/healthz")
    samples = scrape(client)
    assert value(samples, "longcards_redis_up") == 0
    assert not any(name == "longcards_jobs" for name, _ in samples)
    assert value(samples, "longcards_http_requests_total", method="GET", endpoint="/healthz", status="200") >= 1


WORKER = """
from service.app import create_app
client = create_app({"TESTING": True}).test_client()
for _ in range(3):
    assert client.get("/healthz").status_code == 200
"""


@pytest.mark.slow  # over 2 s on 2 cores
def test_gunicorn_workers_are_summed_in_multiprocess_mode(client, monkeypatch, tmp_path):
    """With PROMETHEUS_MULTIPROC_DIR set, a scrape sums what every worker process wrote there."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    for _ in range(2):  # two worker processes
        subprocess.run([sys.executable, "-c", WORKER], env=env, cwd=ROOT, check=True, timeout=120)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    samples = scrape(client)
    assert value(samples, "longcards_http_requests_total", method="GET", endpoint="/healthz", status="200") == 6
    assert value(samples, "longcards_redis_up") == 1


def test_metrics_can_be_turned_off(redis_url):
    """METRICS false: no /metrics route."""
    client = create_app({"TESTING": True, "METRICS": False, "REDIS_URL": redis_url}).test_client()
    assert client.get("/metrics").status_code == 404
