"""Workers on the real clock, each against a private Redis they share with nobody: they ride out a Redis outage in
the middle of a job, an idle worker finds the job of a SIGKILLed one within the bound its intervals set
(`WorkerClock.abandoned_within`), workers register again after Redis lost its data, and a job naming any function
but the service's own is failed without running. The workers run with the session's short intervals
(tests/conftest.py WORKER_CLOCK: a killed worker's job is found within 10 s, 55 s with the defaults). The measured
times are printed (`pytest -s`)."""

from __future__ import annotations

import contextlib
import signal
import time
from dataclasses import replace

import psutil
import pytest
from rq import Callback, Queue, Retry, Worker
from rq.job import JobStatus
from rq.registry import StartedJobRegistry
from rq.timeouts import UnixSignalDeathPenalty

from service.app import create_app
from service.jobs.queues import (
    ANALYSE_REPLAYS,
    NOTIFY_SUCCESS,
    QUEUE_REPLAYS,
    QUEUE_WEBHOOKS,
    SERIALIZER,
    SPECS,
    enqueue,
    fetch,
    job_name,
    queue,
    spec,
)
from tests.support.jobs import STOPPABLE_BATCH, batch, long_job
from tests.support.processes import (
    CLOCK,
    SLACK,
    alive,
    kill_tree,
    registered,
    runner_of,
    started_mid_job,
    wait_for,
    worker_process,
    worker_processes,
)
from workers.replays import analyse_replays
from workers.worker import InProcessWorker, ServiceJob

#: The heartbeat grace of the lost-end test's worker: longer than that test can take.
LOST_END_GRACE = 600


@pytest.mark.slow
def test_worker_rides_out_a_redis_outage_mid_job(redis_server, tmp_path):
    """Redis stops for 5 s while the job runs and comes back with its saved data: the worker is still alive and
    the job finishes with its whole result."""
    server, connection = redis_server
    log = tmp_path / "worker.log"
    with worker_process(server.url, log) as process:
        wait_for(lambda: registered(connection, 1), 60, "the worker to register")
        job = long_job(connection, STOPPABLE_BATCH // 2)  # about 6 s: outlasts the outage's start
        wait_for(lambda: started_mid_job(job.id, connection, process, log), 30, "the job to start")
        assert fetch(job.id, connection).get_status() == JobStatus.STARTED
        server.stop(save=True)
        time.sleep(5)
        alive(process, log)
        server.start()
        back = time.monotonic()
        connection.connection_pool.disconnect()
        finished = wait_for(lambda: alive(process, log) or fetch(job.id, connection).get_status() in (
            JobStatus.FINISHED, JobStatus.FAILED) and fetch(job.id, connection), 300, "the job to end")
        assert finished.get_status() == JobStatus.FINISHED, log.read_text()[-3000:]
        print(f"\njob finished {time.monotonic() - back:.1f} s after Redis came back from a 5 s outage")
        assert finished.return_value()["summary"]["games"] == STOPPABLE_BATCH // 2
        alive(process, log)
        assert Worker.count(connection=connection) == 1


@pytest.mark.slow
def test_job_of_a_killed_worker_is_retried_or_failed_by_an_idle_worker_in_time(redis_server, tmp_path, monkeypatch):
    """Two workers run a job each and are SIGKILLed; two others, idle, find both jobs abandoned on the real clock
    within `CLOCK.abandoned_within`: the one with retries left is retried (and finished by one of them), the one
    without is failed. (Two idle ones: a worker cleans up only between jobs, so the one that takes the retry at once
    finds nothing more until it has finished it, and the two entries may expire a heartbeat apart.)"""
    server, connection = redis_server
    logs = [tmp_path / f"worker-{i}.log" for i in range(4)]
    with worker_processes(server.url, logs) as processes:
        wait_for(lambda: registered(connection, 4), 60, "four workers to register")
        retried = long_job(connection, STOPPABLE_BATCH)
        monkeypatch.setitem(SPECS, job_name(analyse_replays), replace(spec(analyse_replays), retries=0))
        failed = long_job(connection, STOPPABLE_BATCH)
        for job in (retried, failed):
            wait_for(lambda job=job: started_mid_job(job.id, connection), 30, "the jobs to start")
        doomed = {runner_of(job.id, connection, processes).pid for job in (retried, failed)}
        assert len(doomed) == 2
        for process in processes:
            if process.pid in doomed:
                kill_tree(process)
        killed_at = time.monotonic()
        assert fetch(retried.id, connection).get_status() == JobStatus.STARTED

        # Found: failed, or queued again with a retry fewer (and maybe running again already: the idle worker
        # takes it at once, so its status alone may never be seen to leave `started`).
        retries = {job.id: fetch(job.id, connection).retries_left for job in (retried, failed)}
        ended: dict[str, float] = {}

        def found() -> bool:
            for job_id, left in retries.items():
                job = fetch(job_id, connection)
                if job_id not in ended and (job.get_status() != JobStatus.STARTED or job.retries_left != left):
                    ended[job_id] = time.monotonic() - killed_at
            return len(ended) == len(retries)

        wait_for(found, CLOCK.abandoned_within + 2 * SLACK, "the abandoned jobs", every=0.2)
        print(f"\nabandoned job found after {ended[retried.id]:.1f} s (retried), {ended[failed.id]:.1f} s (failed)")
        assert max(ended.values()) <= CLOCK.abandoned_within + SLACK
        assert fetch(failed.id, connection).get_status() == JobStatus.FAILED
        # Queued again at once, at the front (no back-off, so no wait for the scheduler lock the killed workers
        # held), and run by the idle worker.
        wait_for(lambda: fetch(retried.id, connection).get_status() in (JobStatus.STARTED, JobStatus.FINISHED), 120,
                 "the retry to start", every=0.5)
        print(f"retried job running again {time.monotonic() - killed_at:.1f} s after the kill")
        wait_for(lambda: fetch(retried.id, connection).get_status() == JobStatus.FINISHED, 300, "the retry to end",
                 every=0.5)
        print(f"retried job finished {time.monotonic() - killed_at:.1f} s after the kill")
        assert fetch(retried.id, connection).return_value()["summary"]["games"] == STOPPABLE_BATCH


@pytest.mark.slow
def test_a_job_whose_end_was_lost_is_run_again_by_its_own_worker_at_its_next_clean_up(redis_server, tmp_path,
                                                                                      monkeypatch):
    """What a promoted replica holds when the primary died before it had a job's end: Redis is saved while the job
    runs, the job finishes, and Redis comes back from that save, so the job is still recorded as running on its
    worker, which is alive and idle. That worker finds its own lost end at its next clean-up and the job runs
    again, without waiting for the job's last heartbeat to age (heartbeat + grace: 40 s by default, then up to a
    clean-up interval more): the worker's log says it found its own lost end. The worker's grace is long here
    (LOST_END_GRACE), so that however long a loaded machine takes to end the job after the save, the job's last
    heartbeat has not aged when Redis comes back: only its own worker's check can find it then."""
    monkeypatch.setenv("LONGCARDS_HEARTBEAT_GRACE", str(LOST_END_GRACE))
    server, connection = redis_server
    log = tmp_path / "worker.log"
    with worker_process(server.url, log) as process:
        wait_for(lambda: registered(connection, 1), 60, "the worker to register")
        job = saved_mid_job(connection, process, log)
        wait_for(lambda: alive(process, log) or fetch(job.id, connection).get_status() == JobStatus.FINISHED, 120,
                 "the job to end", every=0.2)
        server.stop()  # no save: it comes back from the one taken mid-job
        server.start()
        back = time.monotonic()
        connection.connection_pool.disconnect()
        # The end is lost: no result, and the job still started (or already queued again, if the worker was quick).
        lost = fetch(job.id, connection)
        assert lost.latest_result() is None and lost.get_status() in (JobStatus.STARTED, JobStatus.QUEUED)
        wait_for(lambda: alive(process, log) or fetch(job.id, connection).get_status() == JobStatus.FINISHED, 120,
                 "the job to end again", every=0.2)
        again = time.monotonic() - back
        print(f"\njob whose end was lost finished again {again:.1f} s after Redis came back without it")
        assert "its end was lost" in log.read_text(), log.read_text()[-3000:]
        assert fetch(job.id, connection).return_value()["summary"]["games"] == 24
        alive(process, log)


def saved_mid_job(connection, process, log, attempts: int = 3):
    """A job of 24 logs, and a save of Redis taken while it runs (the replica's copy: the job running, its end not
    yet there). The worker's process group is stopped (SIGSTOP) around the save, so that on a loaded machine the
    job cannot end between the check that it runs and the save; a job that ended before the stop is replaced by a
    new one. (RQ's work horse runs in a session of its own: each process of the tree is stopped.)"""
    for _ in range(attempts):
        job = long_job(connection, size=24)
        wait_for(lambda job=job: started_mid_job(job.id, connection, process, log), 60, "the job to start")
        tree = [psutil.Process(process.pid)]
        tree += tree[0].children(recursive=True)
        for member in tree:
            member.send_signal(signal.SIGSTOP)
        try:
            if fetch(job.id, connection).latest_result() is None:
                connection.save()
                return job
        finally:
            for member in tree:
                with contextlib.suppress(psutil.NoSuchProcess):
                    member.send_signal(signal.SIGCONT)
        wait_for(lambda job=job: fetch(job.id, connection).get_status() == JobStatus.FINISHED, 120,
                 "the early job to end")
    pytest.fail(f"each of {attempts} jobs ended before the worker could be stopped mid-job")


@pytest.mark.slow
def test_workers_register_again_after_redis_lost_its_data(redis_server, tmp_path):
    """Redis restarts empty: /readyz is ready again at the worker's next idle heartbeat (LONGCARDS_WORKER_POLL),
    with no worker restarted."""
    server, connection = redis_server
    app = create_app({"TESTING": True, "REDIS_URL": server.url})
    client = app.test_client()
    log = tmp_path / "worker.log"
    try:
        with worker_process(server.url, log) as process:
            wait_for(lambda: client.get("/readyz").status_code == 200, 60, "/readyz to be ready")
            server.stop()  # no save: the data is gone
            server.start()
            restarted = time.monotonic()
            assert client.get("/readyz").get_json()["detail"] == "no worker is alive"
            wait_for(lambda: client.get("/readyz").status_code == 200, CLOCK.poll + SLACK,
                     "/readyz after the data loss", every=0.5)
            print(f"\nready {time.monotonic() - restarted:.1f} s after Redis restarted empty")
            alive(process, log)
            [worker] = Worker.all(connection=connection, serializer=SERIALIZER)
            assert worker.pid == process.pid
    finally:
        app.extensions["longcards_redis"].close()


@pytest.mark.slow  # over 2 s on 2 cores
def test_a_job_naming_another_function_is_failed_without_running(redis_server, tmp_path):
    """Jobs written straight into Redis: one naming os.makedirs (retries asked for), one of the service's functions
    with a foreign callback. The worker fails both without running either; the service's own job still runs."""
    server, connection = redis_server
    target = tmp_path / "made-by-a-job"
    replays = Queue(QUEUE_REPLAYS, connection=connection, serializer=SERIALIZER)
    foreign = replays.enqueue("os.makedirs", str(target), retry=Retry(max=3))
    callback = replays.enqueue("workers.replays.analyse_replays", batch(1), on_success=Callback("os.makedirs"))
    own = replays.enqueue("workers.replays.analyse_replays", batch(1))
    log = tmp_path / "worker.log"
    with worker_processes(server.url, [log], "--burst") as (process,):
        assert process.wait(timeout=120) == 0, log.read_text()[-3000:]
    assert not target.exists()
    for job_id, name in ((foreign.id, "'os.makedirs' is not a job function"), (callback.id, "callback 'os.makedirs'")):
        job = fetch(job_id, connection)
        assert job.get_status() == JobStatus.FAILED
        assert "ForeignJobError" in job.latest_result().exc_string and name in job.latest_result().exc_string
    assert fetch(foreign.id, connection).retries_left == 3  # failed at once, never retried
    assert fetch(own.id, connection).get_status() == JobStatus.FINISHED


def test_an_abandoned_job_is_queued_again_at_once_at_the_front_a_retry_fewer(redis_server):
    """A started job whose worker stopped heartbeating (its started-registry entry has expired): the next clean-up
    puts it back first in its queue, with one retry fewer, and not in the scheduled registry to wait for its
    back-off (which would also wait for a live scheduler)."""
    _, connection = redis_server
    waiting = enqueue(ANALYSE_REPLAYS, connection, batch(1), None)
    lost = enqueue(ANALYSE_REPLAYS, connection, batch(2), None)
    replays = queue(QUEUE_REPLAYS, connection)
    connection.lrem(replays.key, 1, lost.id)  # a worker took it, started it and died
    connection.hset(lost.key, "status", JobStatus.STARTED)
    connection.zadd(StartedJobRegistry(queue=replays).key, {f"{lost.id}:dead-execution": 1})
    InProcessWorker([QUEUE_REPLAYS], connection=connection, serializer=SERIALIZER).clean_registries()  # as workers run
    back = fetch(lost.id, connection)
    assert back.get_status() == JobStatus.QUEUED and back.retries_left == spec(analyse_replays).retries - 1
    assert replays.job_ids == [lost.id, waiting.id]
    # ZCARD: RQ's `count` would clean the registry up itself first.
    assert not connection.zcard(replays.scheduled_job_registry.key) and not connection.zcard(
        StartedJobRegistry(queue=replays).key)


def test_the_success_webhook_is_queued_with_the_result_not_before(redis_server):
    """RQ runs a job's success callback before it records the result; a worker lost in between would leave a
    webhook queued for a job that then runs again and sends a second one. The service's job queues its webhook in
    the result's transaction: nothing when the callback is due, one delivery once the result is stored."""
    _, connection = redis_server
    job = enqueue(ANALYSE_REPLAYS, connection, batch(1), None, meta={"callback_url": "http://127.0.0.1:9/hook"},
                  on_success=NOTIFY_SUCCESS)
    hooks = queue(QUEUE_WEBHOOKS, connection)
    ServiceJob.fetch(job.id, connection=connection, serializer=SERIALIZER).execute_success_callback(
        UnixSignalDeathPenalty, {"summary": {}})
    assert hooks.count == 0
    worker = InProcessWorker([queue(QUEUE_REPLAYS, connection)], connection=connection, serializer=SERIALIZER)
    assert worker.work(burst=True)
    [delivery] = hooks.get_jobs()
    assert delivery.args[1]["id"] == job.id and delivery.args[1]["result"]["summary"]["games"] == 1
    assert fetch(job.id, connection).get_status() == JobStatus.FINISHED


def test_a_clean_up_lock_left_by_a_lost_worker_lasts_seconds_not_a_quarter_of_an_hour(redis_server):
    """RQ's clean-up lock of a queue lasts 899 s unless its worker releases it; a worker lost mid-clean-up would
    stop every other from finding abandoned jobs that long. The next clean-up cuts it to the clean-up interval."""
    _, connection = redis_server
    replays = queue(QUEUE_REPLAYS, connection)
    connection.set(replays.registry_cleaning_key, 1, ex=899)  # as a worker lost while it cleaned leaves it
    InProcessWorker([QUEUE_REPLAYS], connection=connection, serializer=SERIALIZER).clean_registries()
    assert 0 < connection.ttl(replays.registry_cleaning_key) <= CLOCK.cleanup
