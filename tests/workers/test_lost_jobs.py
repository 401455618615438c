"""A job a worker took from its queue and never claimed is not lost: every job the service queues waits in one
sorted set from its push to its claim (service/jobs/waiting.py), whatever queued it; the workers' clean-up puts a job
still `queued` and in no queue back at the front of its queue once it has been so for heartbeat + grace; and a copy
of a job another worker claimed, or that has ended, is dropped unrun, so a job put back while a live worker still
held it runs once. The real-process tests run on the session's short intervals (tests/conftest.py WORKER_CLOCK).
The case of a worker killed while it held a job through refused writes: test_refused_writes.py."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from redis import Redis
from rq.job import JobStatus
from rq.registry import StartedJobRegistry
from rq.utils import now

from service.jobs.lifecycle import claim_start
from service.jobs.queues import (
    ANALYSE_REPLAYS,
    QUEUE_REPLAYS,
    QUEUE_SEARCHES,
    QUEUE_WEBHOOKS,
    SERIALIZER,
    enqueue,
    fetch,
    queue,
)
from service.jobs.submit import Caller, active_jobs
from service.jobs.waiting import SWEEP_LOCK, WAITING, sweep
from tests.support.jobs import batch, job_app, long_job, run_worker, search_body
from tests.support.processes import (
    CLOCK,
    SLACK,
    alive,
    registered,
    runner_of,
    started_mid_job,
    wait_for,
    worker_process,
    worker_processes,
)
from workers.worker import InProcessWorker, ServiceJob

#: The seconds the sweep waits before it puts a job in no queue back (heartbeat + grace, the session's clock).
HELD_FOR = CLOCK.heartbeat + CLOCK.grace
#: The caller of the test client's requests (no API key, from the test client's address).
CALLER = Caller.of(None, "127.0.0.1")


def waiting(connection: Redis) -> set[str]:
    """The ids of the jobs recorded as waiting for a worker."""
    return {job_id.decode() for job_id in connection.zrange(WAITING, 0, -1)}


def aged(connection: Redis, *job_ids: str) -> None:
    """Date the jobs' waiting entries an hour back (and their queueing): as if they were queued that long ago."""
    for job_id in job_ids:
        connection.zadd(WAITING, {job_id: time.time() - 3600})
        connection.hset(f"rq:job:{job_id}", "enqueued_at", (now() - timedelta(hours=1)).strftime(
            "%Y-%m-%dT%H:%M:%S.%fZ"))


def test_every_way_a_job_is_queued_records_it_as_waiting_until_it_is_claimed(app, redis_db):
    """A submission (the SUBMIT script), its webhook's delivery (queued with the result), a retry after its back-off
    and the retry of an abandoned job all record the job as waiting, in the step that queues it; a claim, a cancel
    and a failure without a retry left end its wait."""
    client = app.test_client()
    submitted = client.post("/v1/replays", json={"logs": batch(1), "callback_url": "http://127.0.0.1:9/hook"})
    canceled = client.post("/v1/replays", json={"logs": batch(2)})
    job_id, canceled_id = submitted.get_json()["id"], canceled.get_json()["id"]
    assert waiting(redis_db) == {job_id, canceled_id}
    assert client.delete(f"/v1/jobs/{canceled_id}").status_code == 200
    assert waiting(redis_db) == {job_id}

    assert run_worker(redis_db, (QUEUE_REPLAYS,))  # claimed and finished; its delivery queued with the result
    [delivery] = queue(QUEUE_WEBHOOKS, redis_db).job_ids
    assert waiting(redis_db) == {delivery}
    assert run_worker(redis_db, (QUEUE_WEBHOOKS,))  # refused on port 9: retried after its back-off
    assert fetch(delivery, redis_db).get_status() == JobStatus.SCHEDULED and waiting(redis_db) == {delivery}

    lost = enqueue(ANALYSE_REPLAYS, redis_db, batch(1), None)
    replays = queue(QUEUE_REPLAYS, redis_db)
    assert claim_start(redis_db, lost.id, "a-worker-about-to-die") == "run"
    redis_db.lrem(replays.key, 1, lost.id)
    assert waiting(redis_db) == {delivery}
    redis_db.zadd(StartedJobRegistry(queue=replays).key, {f"{lost.id}:dead-execution": 1})
    InProcessWorker([QUEUE_REPLAYS], connection=redis_db, serializer=SERIALIZER).clean_registries()
    assert fetch(lost.id, redis_db).get_status() == JobStatus.QUEUED and waiting(redis_db) == {delivery, lost.id}


def test_the_sweep_puts_back_only_a_queued_job_in_no_queue_for_heartbeat_plus_grace(redis_db):
    """Of the waiting jobs, only one still `queued`, in no queue nor intermediate list, queued more than
    heartbeat + grace ago goes back, at the front of its queue, its entry renewed; one taken a moment ago, one in
    its queue, one in a single-queue worker's hands and one waiting for its retry's back-off stay as they are; the
    entries of a started, a finished and a vanished job are dropped. One sweep per clean-up interval runs, whichever
    worker asks."""
    replays = queue(QUEUE_REPLAYS, redis_db)
    jobs = {name: enqueue(ANALYSE_REPLAYS, redis_db, batch(1), None).id for name in (
        "lost", "just taken", "in its queue", "in hand", "retrying", "started", "finished")}
    for name in ("lost", "just taken", "in hand", "retrying", "started", "finished"):
        redis_db.lrem(replays.key, 1, jobs[name])
    redis_db.rpush(replays.intermediate_queue_key, jobs["in hand"])
    retrying = ServiceJob.fetch(jobs["retrying"], connection=redis_db, serializer=SERIALIZER)
    with redis_db.pipeline() as pipe:
        retrying.retry(replays, pipe)
        pipe.execute()
    assert claim_start(redis_db, jobs["started"], "a-live-worker") == "run"
    redis_db.hset(f"rq:job:{jobs['finished']}", "status", JobStatus.FINISHED)
    aged(redis_db, *(jobs[name] for name in jobs if name != "just taken"))
    redis_db.zadd(WAITING, {"a-job-long-expired": 1})

    assert sweep(redis_db, HELD_FOR, CLOCK.cleanup) == [jobs["lost"]]
    assert replays.job_ids == [jobs["lost"], jobs["in its queue"]]
    assert fetch(jobs["retrying"], redis_db).get_status() == JobStatus.SCHEDULED
    assert fetch(jobs["started"], redis_db).get_status() == JobStatus.STARTED
    assert waiting(redis_db) == {jobs[name] for name in ("lost", "just taken", "in its queue", "in hand", "retrying")}
    renewed = time.time() - HELD_FOR
    assert redis_db.zscore(WAITING, jobs["lost"]) > renewed and redis_db.zscore(WAITING, jobs["in its queue"]) > renewed

    redis_db.lrem(replays.key, 1, jobs["lost"])  # taken again and lost again at once
    aged(redis_db, jobs["lost"])
    assert sweep(redis_db, HELD_FOR, CLOCK.cleanup) == []  # another worker swept less than an interval ago
    redis_db.delete(SWEEP_LOCK)
    assert sweep(redis_db, HELD_FOR, CLOCK.cleanup) == [jobs["lost"]]


def test_a_copy_of_a_job_another_worker_claimed_or_that_has_ended_is_dropped_unrun(redis_db):
    """A copy of a job on its queue (the sweep put it back while a live worker still held it) is dropped by the
    worker that takes it, not run: the job runs once, by whichever worker claimed it first, and a copy taken after
    its end does not run it again."""
    replays = queue(QUEUE_REPLAYS, redis_db)
    job = enqueue(ANALYSE_REPLAYS, redis_db, batch(1), None, meta={"progress": {}})
    assert claim_start(redis_db, job.id, "the-first-worker") == "run"  # it took the job: the copy is on the queue
    assert run_worker(redis_db, (QUEUE_REPLAYS,))
    held = fetch(job.id, redis_db)
    assert (held.get_status(), held.worker_name, held.latest_result()) == (JobStatus.STARTED, "the-first-worker", None)

    finished = enqueue(ANALYSE_REPLAYS, redis_db, batch(1), None, meta={"progress": {}})
    assert run_worker(redis_db, (QUEUE_REPLAYS,))
    redis_db.lpush(replays.key, finished.id)
    assert run_worker(redis_db, (QUEUE_REPLAYS,))
    assert len(fetch(finished.id, redis_db).results()) == 1 and replays.count == 0


@pytest.mark.slow
def test_a_job_a_lost_worker_took_and_never_claimed_is_put_back_and_run(redis_server, tmp_path):
    """A search submitted through the API is taken from its queue as a worker's BLPOP takes it, by a worker that is
    then lost: the job is `queued` and in no queue. A real worker started afterwards puts it back at the front of
    its queue once it has been so for heartbeat + grace (at its first clean-up after that, within an idle worker's
    clean-up interval), says so in its log, and runs it; its caller has no active job left."""
    server, connection = redis_server
    log = tmp_path / "worker.log"
    with job_app(server.url) as app:
        client = app.test_client()
        submitted = client.post("/v1/searches", json=search_body())
        assert submitted.status_code == 202
        job_id = submitted.get_json()["id"]
        assert connection.lpop(queue(QUEUE_SEARCHES, connection).key) == job_id.encode()
        taken = time.monotonic()
        with worker_process(server.url, log) as process:
            wait_for(lambda: registered(connection, 1), 60, "the worker to register")
            ready = time.monotonic() - taken
            bound = max(HELD_FOR, ready) + max(CLOCK.poll, CLOCK.cleanup)
            wait_for(lambda: alive(process, log) or fetch(job_id, connection).get_status() != JobStatus.QUEUED,
                     bound + 2 * SLACK, "the lost job to be put back and started", every=0.2)
            back = time.monotonic() - taken
            print(f"\nlost job running again {back:.1f} s after it was taken (worker ready after {ready:.1f} s)")
            assert back <= bound + SLACK
            wait_for(lambda: alive(process, log) or fetch(job_id, connection).get_status() == JobStatus.FINISHED,
                     120, "the job to finish", every=0.2)
        assert f"job {job_id} was queued but in no queue" in log.read_text(), log.read_text()[-3000:]
        assert "put back at the front of queue searches" in log.read_text()
        assert client.get(f"/v1/jobs/{job_id}").get_json()["status"] == "finished"
        assert active_jobs(connection, CALLER.active)[0] == []


@pytest.mark.slow
def test_a_copy_of_a_running_job_is_dropped_and_the_job_runs_once(redis_server, tmp_path):
    """Two real workers; while one runs a replay, a copy of the job is pushed on its queue (the sweep put it back
    while that worker held it through refused writes, then it claimed it): the idle worker takes the copy and drops
    it. Once the job has finished, a copy taken then is dropped too. The job ran once: one result."""
    server, connection = redis_server
    logs = [tmp_path / "worker-0.log", tmp_path / "worker-1.log"]
    replays = queue(QUEUE_REPLAYS, connection)
    with worker_processes(server.url, logs) as processes:
        wait_for(lambda: registered(connection, 2), 60, "two workers to register")
        job = long_job(connection, size=48)
        wait_for(lambda: started_mid_job(job.id, connection), 60, "the job to start")
        runner = runner_of(job.id, connection, processes)
        [other] = [log for process, log in zip(processes, logs) if process is not runner]
        connection.lpush(replays.key, job.id)
        wait_for(lambda: "this copy of it is dropped" in other.read_text(), 30, "the idle worker to drop the copy")
        wait_for(lambda: fetch(job.id, connection).get_status() == JobStatus.FINISHED, 120, "the job to finish",
                 every=0.2)
        connection.lpush(replays.key, job.id)
        wait_for(lambda: sum(log.read_text().count(f"job {job.id} was claimed by another worker or has ended")
                             for log in logs) == 2, 30, "the copy taken after the end to be dropped")
        for process, log in zip(processes, logs):
            alive(process, log)
    done = fetch(job.id, connection)
    assert done.get_status() == JobStatus.FINISHED and len(done.results()) == 1
    assert done.return_value()["summary"]["games"] == 48
    assert replays.count == 0 and not connection.llen(replays.intermediate_queue_key)
