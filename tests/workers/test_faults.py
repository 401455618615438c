"""Faults: a worker killed mid-job loses no job, and a Redis outage costs the job endpoints only (503 +
Retry-After, nothing half-written) until Redis is back, with no restart of the app."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import psutil
import pytest
from redis import Redis
from rq.job import JobStatus
from rq.registry import FailedJobRegistry, StartedJobRegistry

from service.app import create_app
from service.jobs import IDEMPOTENCY_PREFIX
from tests.redis_server import RedisServer
from workers.queues import QUEUE_REPLAYS, connect, enqueue, fetch, queue
from workers.replays import analyse_replays

from .conftest import WEBHOOK_SECRET, batch, run_worker

ROOT = Path(__file__).resolve().parents[2]
#: Logs in the long job: 2.2-2.8 s of work in one worker on this 2-core machine (measured), long enough to be
#: killed in the middle of it.
LONG_BATCH = 480


def wait_for(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll `check` until it returns something true; fail (never hang) after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"gave up after {timeout} s waiting for {what}")


def kill_tree(process: subprocess.Popen) -> None:
    """SIGKILL a worker and the processes it started (its work horse, its scheduler): a lost machine or an
    OOM-killed container. The worker goes first, so it cannot record the horse's death as a failure."""
    try:
        children = psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        children = []
    process.send_signal(signal.SIGKILL)
    for child in children:
        with contextlib.suppress(psutil.NoSuchProcess):
            child.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    psutil.wait_procs(children, timeout=10)


@contextlib.contextmanager
def worker_process(redis_url: str, log: Path) -> Iterator[subprocess.Popen]:
    """`python -m workers` (forking Worker, scheduler on) on the test database; killed afterwards."""
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "workers"], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                   env={**os.environ, "REDIS_URL": redis_url}, start_new_session=True)
    try:
        yield process
    finally:
        if process.poll() is None:
            kill_tree(process)


def started_mid_job(job_id: str, connection: Redis, process: subprocess.Popen, log: Path) -> bool:
    """The job runs and has saved some progress (and the worker is still alive)."""
    if process.poll() is not None:
        pytest.fail(f"the worker exited ({process.returncode}):\n{log.read_text()[-2000:]}")
    job = fetch(job_id, connection)
    return job.get_status() == JobStatus.STARTED and job.meta["progress"]["events_done"] > 0


@pytest.mark.parametrize("retries", [pytest.param(1, id="retries_left_requeued"),
                                     pytest.param(0, id="no_retries_left_failed")])
def test_worker_killed_mid_job_loses_no_job(client, redis_db, redis_url, tmp_path, monkeypatch, retries):
    """SIGKILL the worker while the job runs: the job stays `started` until its started-registry entry expires;
    then the registry's cleanup requeues it if it has retries left (a new worker completes it), else records
    it failed with AbandonedJobError."""
    monkeypatch.setattr(analyse_replays, "spec", replace(analyse_replays.spec, timeout=20, retries=retries,
                                                         intervals=(0,)))
    logs = batch(LONG_BATCH)
    total = sum(len(log["events"]) for log in logs)
    job = enqueue(analyse_replays, redis_db, logs, None, meta={
        "owner": "public", "kind": "replay",
        "progress": {"events_done": 0, "events_total": total, "logs_done": 0, "logs_total": len(logs)}})
    with worker_process(redis_url, tmp_path / "worker.log") as process:
        wait_for(lambda: started_mid_job(job.id, redis_db, process, tmp_path / "worker.log"), 30, "the job to start")
        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.get_json()["workers"] >= 1
        kill_tree(process)
    at_kill = client.get(f"/v1/jobs/{job.id}").get_json()
    assert at_kill["status"] == "started" and 0 < at_kill["progress"]["events_done"] < total, at_kill

    registry = StartedJobRegistry(queue=queue(QUEUE_REPLAYS, redis_db))
    [(entry, expiry)] = redis_db.zrange(registry.key, 0, -1, withscores=True)
    assert entry.decode().startswith(f"{job.id}:")
    registry.cleanup()  # not expired yet: a worker that is merely slow keeps its job
    assert fetch(job.id, redis_db).get_status() == JobStatus.STARTED
    # RQ keeps the entry min(job_timeout, 30 s) + 60 s past the last heartbeat (80 s here): a short job_timeout
    # cannot bring it under a minute. Rather than sleep that long, clean up with the clock at the expiry.
    assert expiry - time.time() <= 20 + 60
    registry.cleanup(timestamp=expiry + 1)
    assert redis_db.zcard(registry.key) == 0
    after = fetch(job.id, redis_db)
    if retries:
        assert after.get_status() == JobStatus.QUEUED and after.retries_left == 0
        assert queue(QUEUE_REPLAYS, redis_db).job_ids == [job.id]
        assert run_worker(redis_db)
        body = client.get(f"/v1/jobs/{job.id}").get_json()
        assert body["status"] == "finished" and body["result"]["summary"]["games"] == LONG_BATCH
        assert body["progress"]["events_done"] == total
    else:
        assert after.get_status() == JobStatus.FAILED
        assert job.id in FailedJobRegistry(queue=queue(QUEUE_REPLAYS, redis_db)).get_job_ids()
        body = client.get(f"/v1/jobs/{job.id}").get_json()
        assert body["status"] == "failed" and "AbandonedJobError" in body["error"]["detail"], body


def test_redis_outage_fails_jobs_fast_and_recovers_without_restart(tmp_path):
    """Redis down: /v1/hu and /v1/melds still answer, the job endpoints answer 503 + Retry-After at once and
    write nothing; Redis back on the same port: the same app queues jobs again and a worker completes them."""
    server = RedisServer(tmp_path)
    server.start()
    app = create_app({"TESTING": True, "REDIS_URL": server.url, "WEBHOOK_SECRET": WEBHOOK_SECRET})
    client = app.test_client()
    connection = None
    try:
        before = client.post("/v1/replays", json={"logs": batch(1)})
        assert before.status_code == 202
        server.stop(save=True)

        assert client.post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": ["rA", "yA"]}).status_code == 200
        assert client.post("/v1/melds", json={"ruleset": "bga-taiwan", "hand": ["rA", "rA"]}).status_code == 200
        started = time.monotonic()
        down = [client.post("/v1/replays", json={"logs": batch(2)}), client.get("/v1/jobs/x"),
                client.get(before.headers["Location"]), client.delete(before.headers["Location"])]
        assert time.monotonic() - started < 5  # refused at once, not after a hang
        for response in down:
            assert response.status_code == 503 and response.mimetype == "application/problem+json"
            assert response.headers["Retry-After"].isdigit() and response.get_json()["code"] == "jobs_unavailable"
        assert client.get("/readyz").status_code == 503

        server.start()  # same port, same data directory: the saved data is back
        connection = connect(server.url)
        assert queue(QUEUE_REPLAYS, connection).job_ids == [before.get_json()["id"]]  # nothing half-enqueued
        assert len(connection.keys(f"{IDEMPOTENCY_PREFIX}*")) == 1
        after = client.post("/v1/replays", json={"logs": batch(2)})
        assert after.status_code == 202 and after.get_json()["id"] != before.get_json()["id"]
        assert run_worker(connection)
        for location in (before.headers["Location"], after.headers["Location"]):
            assert client.get(location).get_json()["status"] == "finished"
    finally:
        server.stop()
        for client_connection in (connection, app.extensions.get("longcards_redis")):
            if client_connection is not None:
                client_connection.close()
