"""Real processes on the real clock: wait for a condition (a server answering, a worker registered) without ever
hanging; and for the fault tests, start `python -m workers` on a Redis, find the one running a job, and kill it
with its work horse. ROOT is the repository, where the processes run."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from redis import Redis
from rq import Worker
from rq.job import JobStatus

from service.jobs.queues import fetch
from workers.worker import WorkerClock

ROOT = Path(__file__).resolve().parents[2]


#: The workers' intervals in this run (the session's, tests/conftest.py WORKER_CLOCK).
CLOCK = WorkerClock.from_environment()
#: Seconds the machine may add to a bound of the clock (a worker process busy forking a job, a loaded CI).
SLACK = 5


def wait_for(check: Callable[[], Any], timeout: float, what: str, every: float = 0.05,
             left: Callable[[], Any] | None = None) -> Any:
    """Poll `check` until it returns something true; fail (never hang) after `timeout` seconds, saying what `left`
    returns then (what the wait was still waiting on), when given."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    pytest.fail(f"gave up after {timeout} s waiting for {what}" + (f" (left: {left()!r})" if left else ""))


def running(process: psutil.Process) -> bool:
    """Still there and not a zombie (a zombie has ended: its parent has yet to reap it)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


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
def worker_processes(redis_url: str, logs: list[Path], *extra: str) -> Iterator[list[subprocess.Popen]]:
    """One `python -m workers` (the service's worker, scheduler on) per log file; all killed afterwards."""
    processes = []
    try:
        for log in logs:
            with log.open("wb") as out:
                processes.append(subprocess.Popen(
                    [sys.executable, "-m", "workers", *extra], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                    env={**os.environ, "REDIS_URL": redis_url}, start_new_session=True))
        yield processes
    finally:
        for process in processes:
            if process.poll() is None:
                kill_tree(process)


@contextlib.contextmanager
def worker_process(redis_url: str, log: Path) -> Iterator[subprocess.Popen]:
    """One `python -m workers` on `redis_url`; killed afterwards."""
    with worker_processes(redis_url, [log]) as (process,):
        yield process


def alive(process: subprocess.Popen, log: Path) -> None:
    """Fail with the worker's log if it exited."""
    if process.poll() is not None:
        pytest.fail(f"the worker exited ({process.returncode}):\n{log.read_text()[-3000:]}")


def registered(connection: Redis, count: int) -> bool:
    """At least `count` workers are registered (they build their tables first, about 2 s)."""
    return Worker.count(connection=connection) >= count


def started_mid_job(job_id: str, connection: Redis, process: subprocess.Popen | None = None,
                    log: Path | None = None) -> bool:
    """The job runs and has saved some progress (and the worker, when given, is still alive)."""
    if process is not None:
        alive(process, log)
    job = fetch(job_id, connection)
    return job.get_status() == JobStatus.STARTED and job.meta["progress"]["events_done"] > 0


def runner_of(job_id: str, connection: Redis, processes: list[subprocess.Popen]) -> subprocess.Popen:
    """The worker process that runs the job."""
    worker = Worker.find_by_key(Worker.redis_worker_namespace_prefix + fetch(job_id, connection).worker_name,
                                connection=connection)
    [process] = [p for p in processes if p.pid == worker.pid]
    return process
