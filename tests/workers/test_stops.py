"""`python -m workers` stopped or killed for real, on a private Redis and the real clock: a worker SIGKILLed leaves
no child behind (its scheduler and its work horse die with it); a worker stopped while a job runs either lets the
job finish within its grace or puts it back at the front of its queue, retries untouched, for the next worker to
finish. The measured times are printed (`pytest -s`)."""

from __future__ import annotations

import signal
import time

import psutil
import pytest
from rq import Queue
from rq.job import JobStatus
from rq.registry import FailedJobRegistry, StartedJobRegistry

from service.jobs.queues import QUEUE_REPLAYS, SERIALIZER, fetch
from tests.support.jobs import STOPPABLE_BATCH, long_job
from tests.support.processes import registered, running, started_mid_job, wait_for, worker_processes

pytestmark = pytest.mark.slow

#: A killed worker's children are gone this soon.
CHILDREN_GONE_WITHIN = 3.0


def test_a_killed_worker_takes_its_scheduler_and_its_work_horse_with_it(redis_server, tmp_path):
    """SIGKILL to the worker alone, while its work horse runs a job and its scheduler holds the scheduler lock:
    within 3 s neither child is left."""
    server, connection = redis_server
    log = tmp_path / "worker.log"
    with worker_processes(server.url, [log]) as (process,):
        wait_for(lambda: registered(connection, 1), 60, "the worker to register")
        worker = psutil.Process(process.pid)
        job = long_job(connection, STOPPABLE_BATCH)
        wait_for(lambda: started_mid_job(job.id, connection, process, log), 60, "the job to start")
        children = worker.children()
        assert len(children) == 2, children  # the scheduler and the work horse
        process.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        process.wait(timeout=10)
        wait_for(lambda: not any(running(child) for child in children), CHILDREN_GONE_WITHIN,
                 f"the children {[c.pid for c in children]} of the killed worker to end")
        print(f"\nscheduler and work horse gone {time.monotonic() - killed:.2f} s after the worker was killed")


@pytest.mark.parametrize("how", ["grace", "second signal"])
def test_a_worker_stopped_mid_job_puts_the_job_back_at_the_front_of_its_queue(redis_server, tmp_path, how):
    """SIGTERM while a long job runs, and either a 0.5 s grace or a second SIGTERM 1.5 s later: the worker exits,
    the job is queued first in its queue with its retries untouched (neither failed nor left started to be found
    abandoned), and the next worker finishes it. The grace is shorter than the second in which RQ ignores a signal
    as a duplicate of the first: the worker's own signal at its end is ignored, and the one it sends again goes
    through (a single signal, ignored when it came too soon after a slow first handler, let the job run on)."""
    server, connection = redis_server
    log = tmp_path / "worker.log"
    options = ["--stop-grace", "0.5"] if how == "grace" else []
    with worker_processes(server.url, [log], *options) as (process,):
        wait_for(lambda: registered(connection, 1), 60, "the worker to register")
        job = long_job(connection, STOPPABLE_BATCH)
        waiting = long_job(connection, 8)  # queued behind the long one
        wait_for(lambda: started_mid_job(job.id, connection, process, log), 60, "the job to start")
        wait_for(lambda: fetch(waiting.id, connection).get_status() == JobStatus.QUEUED, 1, "the other job queued")
        process.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        if how == "second signal":
            time.sleep(1.5)
            process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0, log.read_text()[-3000:]
        print(f"\nworker stopped {time.monotonic() - stopped:.1f} s after the first SIGTERM ({how})")
    back = fetch(job.id, connection)
    assert back.get_status() == JobStatus.QUEUED, log.read_text()[-3000:]
    assert back.retries_left == 3
    queue = Queue(QUEUE_REPLAYS, connection=connection, serializer=SERIALIZER)
    assert queue.job_ids == [job.id, waiting.id]
    assert StartedJobRegistry(queue=queue).get_job_ids() == []
    assert FailedJobRegistry(queue=queue).get_job_ids() == []
    assert "the job is back at the front of queue replays" in log.read_text()
    with worker_processes(server.url, [tmp_path / "next.log"], "--burst") as (burst,):
        assert burst.wait(timeout=600) == 0
    finished = fetch(job.id, connection)
    assert finished.get_status() == JobStatus.FINISHED
    assert finished.return_value()["summary"]["games"] == STOPPABLE_BATCH
    assert fetch(waiting.id, connection).get_status() == JobStatus.FINISHED


def test_a_job_that_ends_within_the_grace_is_finished_before_the_worker_stops(redis_server, tmp_path):
    """SIGTERM while a short job runs, with a 600 s grace: the worker waits for the job, which finishes, then
    exits."""
    server, connection = redis_server
    log = tmp_path / "worker.log"
    with worker_processes(server.url, [log], "--stop-grace", "600") as (process,):
        wait_for(lambda: registered(connection, 1), 60, "the worker to register")
        job = long_job(connection, STOPPABLE_BATCH // 2)
        wait_for(lambda: started_mid_job(job.id, connection, process, log), 60, "the job to start")
        process.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        assert process.wait(timeout=600) == 0, log.read_text()[-3000:]
        print(f"\nworker stopped {time.monotonic() - stopped:.1f} s after SIGTERM, once its job ended")
    said = log.read_text()
    assert "stopping once its job ends, at most in 600 s" in said  # the signal came while the job ran
    assert "cold shut down" not in said
    finished = fetch(job.id, connection)
    assert finished.get_status() == JobStatus.FINISHED, said[-3000:]
    assert finished.return_value()["summary"]["games"] == STOPPABLE_BATCH // 2
