"""Every job expires, whatever its end: with JOB_RESULT_TTL at 2 s, a job canceled while queued, a finished one,
one stopped while running and one that failed (each with an idempotency key and a webhook) leave nothing of theirs
in Redis once 2 s have passed on the real clock after their end: no job hash, result, page, execution,
idempotency key nor webhook delivery job; and the queues' registries forget them at the worker's next clean-up."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from rq.executions import Execution

from service.app import create_app
from service.jobs.lifecycle import expire_job
from service.jobs.queues import SERIALIZER, SPECS, enqueue, job_name, spec
from tests.support.jobs import WEBHOOK_SECRET, batch
from tests.support.logs import dealt_log
from tests.support.processes import registered, wait_for, worker_processes
from tests.support.receivers import receiving
from workers.callbacks import ALLOW_PRIVATE_ENV
from workers.replays import analyse_replays
from workers.webhooks import SECRET_ENV
from workers.worker import ServiceWorker

TTL = 2
#: Keys that belong to one job (RQ's and the service's); none may outlive the job's TTL.
PER_JOB = (b"rq:job:", b"rq:results:", b"rq:executions:", b"rq:execution:", b"longcards:idem:",
           b"longcards:result:")
SLOW = {"logs": [dealt_log("rA")] * 10, "review": {"mode": "deep", "samples": 20_000, "time_budget": 30}}


#: The registries of each queue, sorted sets of job ids (RQ's, the canceled one pruned by the service's workers).
REGISTRIES = (b"rq:canceled:", b"rq:failed:", b"rq:finished:", b"rq:wip:", b"rq:scheduled:", b"rq:deferred:")


def registered_jobs(connection) -> int:
    """How many job ids the queues' registries still hold."""
    return sum(connection.zcard(key) for key in connection.scan_iter(count=1000) if key.startswith(REGISTRIES))


def per_job_keys(connection) -> list[bytes]:
    """Every key left that belongs to a single job."""
    return sorted(key for key in connection.scan_iter(count=1000) if key.startswith(PER_JOB))


@pytest.mark.slow
def test_every_job_expires_whatever_its_end(redis_db, redis_url, tmp_path, monkeypatch):
    monkeypatch.setenv(SECRET_ENV, WEBHOOK_SECRET)
    monkeypatch.setenv(ALLOW_PRIVATE_ENV, "true")
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "WEBHOOK_SECRET": WEBHOOK_SECRET,
                      "WEBHOOK_ALLOW_PRIVATE": True, "JOB_RESULT_TTL": TTL})
    client = app.test_client()

    def submit(body: dict, key: str) -> str:
        response = client.post("/v1/replays", json={**body, "callback_url": receiver.url},
                               headers={"Idempotency-Key": key})
        assert response.status_code == 202, response.get_json()
        return f"/v1/jobs/{response.get_json()['id']}"

    def status(location: str) -> str:
        return client.get(location).get_json()["status"]

    try:
        with receiving() as receiver:
            canceled = submit({"logs": batch(3)}, "canceled")  # no worker yet: it waits in its queue
            assert client.delete(canceled).status_code == 200
            with worker_processes(redis_url, [tmp_path / "worker.log"]):
                wait_for(lambda: registered(redis_db, 1), 60, "the worker to register")
                finished = submit({"logs": batch(2)}, "finished")
                wait_for(lambda: status(finished) == "finished", 30, "the job to finish")
                stopped = submit(SLOW, "stopped")
                wait_for(lambda: status(stopped) == "started", 30, "the slow job to start")
                assert client.delete(stopped).status_code == 202
                wait_for(lambda: status(stopped) == "canceled", 10, "the slow job to stop")
                # A job allowed 1 s with no retry: the worker's time limit fails it.
                monkeypatch.setitem(SPECS, job_name(analyse_replays),
                                    replace(spec(analyse_replays), timeout=1, retries=0))
                failed = submit(SLOW, "failed")
                wait_for(lambda: status(failed) == "failed", 30, "the job to fail")
                wait_for(lambda: len(receiver.requests) == 2, 30, "the webhooks of the finished and failed jobs")
                ended = time.monotonic()
                assert per_job_keys(redis_db)  # each is still there, until its TTL has passed
                gone = wait_for(lambda: not per_job_keys(redis_db) and time.monotonic(), 30, "every job to expire",
                                every=0.25, left=lambda: {key: redis_db.ttl(key) for key in per_job_keys(redis_db)})
                # The queues' registries forget them at the worker's next clean-up (every LONGCARDS_WORKER_POLL s at
                # most when idle: 1 s in the tests).
                wait_for(lambda: not registered_jobs(redis_db), 45, "the registries to forget the jobs", every=0.5)
        print(f"\nevery per-job key gone {gone - ended:.1f} s after the last end (TTL {TTL} s)")
        assert gone - ended <= TTL + 1.5
        for location in (canceled, finished, stopped, failed):
            assert client.get(location).status_code == 404
            assert not [key for key in redis_db.scan_iter(count=1000) if location.rsplit("/", 1)[1].encode() in key]
    finally:
        redis_client = app.extensions.get("longcards_redis")
        if redis_client is not None:
            redis_client.close()


@pytest.mark.parametrize("ended", [True, False], ids=["after its end", "while it runs"])
def test_a_heartbeat_after_a_jobs_end_brings_nothing_of_it_back(redis_db, ended):
    """RQ's monitor heartbeats a running job's execution every heartbeat; waking as the work horse records the end
    (seen on a loaded machine), its heartbeat recreated the execution the end deleted, and RQ gave the set of the
    job's executions 60 s past the heartbeat's TTL: a key that outlived the job. After the end nothing comes back;
    while the job runs its execution keeps its heartbeat."""
    worker = ServiceWorker(["replays"], connection=redis_db, serializer=SERIALIZER)
    worker.register_birth()
    job = enqueue(analyse_replays, redis_db, batch(1), ttl=TTL)
    with redis_db.pipeline() as pipe:
        worker.execution = Execution.create(job, ttl=60, pipeline=pipe, worker_name=worker.name)
        pipe.execute()
    if ended:  # as the end does: the execution deleted, the job's keys given its TTL
        with redis_db.pipeline() as pipe:
            worker.execution.delete(job, pipe)
            expire_job(pipe, job, TTL)
            pipe.execute()
    worker.maintain_heartbeats(job)
    executions = [key for key in redis_db.scan_iter(count=1000)
                  if key.startswith((b"rq:execution:", b"rq:executions:"))]
    if ended:
        assert executions == []
    else:
        assert sorted(executions) == sorted([worker.execution.key.encode(), f"rq:executions:{job.id}".encode()])
        assert 0 < redis_db.ttl(f"rq:executions:{job.id}")
