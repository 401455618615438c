"""Workers on the real clock, each against a private Redis they share with nobody: they ride out a Redis outage in
the middle of a job, an idle worker finds the job of a SIGKILLed one within 90 s, workers register again after
Redis lost its data (/readyz ready within 30 s), and a job naming any function but the service's own is failed
without running. The measured times are printed (`pytest -s`)."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from rq import Callback, Queue, Retry, Worker
from rq.job import JobStatus

from service.app import create_app
from service.jobs.queues import QUEUE_REPLAYS, SERIALIZER, SPECS, fetch, job_name, spec
from tests.support.jobs import LONG_BATCH, batch, long_job
from tests.support.processes import (
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

#: The target: the job of a killed worker is retried (or failed) this soon, every other worker idle.
ABANDONED_WITHIN = 90
READY_WITHIN = 30


@pytest.mark.slow
def test_worker_rides_out_a_redis_outage_mid_job(redis_server, tmp_path):
    """Redis stops for 5 s while the job runs and comes back with its saved data: the worker is still alive and
    the job finishes with its whole result."""
    server, connection = redis_server
    log = tmp_path / "worker.log"
    with worker_process(server.url, log) as process:
        wait_for(lambda: registered(connection, 1), 60, "the worker to register")
        job = long_job(connection)
        wait_for(lambda: started_mid_job(job.id, connection, process, log), 30, "the job to start")
        assert fetch(job.id, connection).get_status() == JobStatus.STARTED
        server.stop(save=True)
        time.sleep(5)
        alive(process, log)
        server.start()
        back = time.monotonic()
        connection.connection_pool.disconnect()
        finished = wait_for(lambda: alive(process, log) or fetch(job.id, connection).get_status() in (
            JobStatus.FINISHED, JobStatus.FAILED) and fetch(job.id, connection), 120, "the job to end")
        assert finished.get_status() == JobStatus.FINISHED, log.read_text()[-3000:]
        print(f"\njob finished {time.monotonic() - back:.1f} s after Redis came back from a 5 s outage")
        assert finished.return_value()["summary"]["games"] == LONG_BATCH
        alive(process, log)
        assert Worker.count(connection=connection) == 1


@pytest.mark.slow
def test_job_of_a_killed_worker_is_retried_or_failed_by_an_idle_worker_within_90_s(redis_server, tmp_path,
                                                                                  monkeypatch):
    """Two workers run a job each and are SIGKILLed; a third, idle, finds both jobs abandoned on the real clock:
    the one with retries left is retried (and finished by it), the one without is failed."""
    server, connection = redis_server
    logs = [tmp_path / f"worker-{i}.log" for i in range(3)]
    with worker_processes(server.url, logs) as processes:
        wait_for(lambda: registered(connection, 3), 60, "three workers to register")
        retried = long_job(connection)
        monkeypatch.setitem(SPECS, job_name(analyse_replays), replace(spec(analyse_replays), retries=0))
        failed = long_job(connection)
        for job in (retried, failed):
            wait_for(lambda job=job: started_mid_job(job.id, connection), 30, "the jobs to start")
        doomed = {runner_of(job.id, connection, processes).pid for job in (retried, failed)}
        assert len(doomed) == 2
        for process in processes:
            if process.pid in doomed:
                kill_tree(process)
        killed_at = time.monotonic()
        assert fetch(retried.id, connection).get_status() == JobStatus.STARTED

        def left_started(job_id: str) -> float | None:
            return None if fetch(job_id, connection).get_status() == JobStatus.STARTED else time.monotonic()

        ended = {job.id: wait_for(lambda job=job: left_started(job.id), ABANDONED_WITHIN + 5, "an abandoned job",
                                  every=0.5) - killed_at for job in (retried, failed)}
        print(f"\nabandoned job found after {ended[retried.id]:.1f} s (retried), {ended[failed.id]:.1f} s (failed)")
        assert max(ended.values()) <= ABANDONED_WITHIN
        assert fetch(failed.id, connection).get_status() == JobStatus.FAILED
        # Retried after 5 s by the scheduler, whose lock the killed workers held (it expires 61 s after their
        # last scheduler heartbeat; the idle worker takes it at its next maintenance).
        wait_for(lambda: fetch(retried.id, connection).get_status() in (JobStatus.STARTED, JobStatus.FINISHED), 120,
                 "the retry to start", every=0.5)
        print(f"retried job running again {time.monotonic() - killed_at:.1f} s after the kill")
        wait_for(lambda: fetch(retried.id, connection).get_status() == JobStatus.FINISHED, 300, "the retry to end",
                 every=0.5)
        print(f"retried job finished {time.monotonic() - killed_at:.1f} s after the kill")
        assert fetch(retried.id, connection).return_value()["summary"]["games"] == LONG_BATCH


@pytest.mark.slow
def test_workers_register_again_after_redis_lost_its_data(redis_server, tmp_path):
    """Redis restarts empty: /readyz is ready again within 30 s, with no worker restarted."""
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
            wait_for(lambda: client.get("/readyz").status_code == 200, READY_WITHIN, "/readyz after the data loss",
                     every=0.5)
            print(f"\nready {time.monotonic() - restarted:.1f} s after Redis restarted empty")
            alive(process, log)
            [worker] = Worker.all(connection=connection, serializer=SERIALIZER)
            assert worker.pid == process.pid
    finally:
        app.extensions["longcards_redis"].close()


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
