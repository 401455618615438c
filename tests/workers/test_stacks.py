"""A worker that logs nothing can be asked where it waits: SIGUSR2 makes a real `python -m workers` write the stack of
every thread to its log (workers/__main__.py), and it goes on working (docs/reliability.md)."""

from __future__ import annotations

import signal

import pytest

from service.app import create_app
from tests.support.jobs import batch
from tests.support.processes import registered, wait_for, worker_process


@pytest.mark.slow
def test_sigusr2_writes_every_threads_stack_and_the_worker_goes_on(redis_db, redis_url, tmp_path):
    log = tmp_path / "worker.log"
    with worker_process(redis_url, log) as process:
        wait_for(lambda: registered(redis_db, 1), 60, "the worker to register")
        process.send_signal(signal.SIGUSR2)

        def every_stack(text: str) -> bool:
            """The worker's own loop and RQ's command listener: a stack per thread (the dump is written a line at a
            time, and a read may come half-way through it)."""
            return "rq/worker/" in text and text.count("(most recent call first)") >= 2

        wait_for(lambda: every_stack(log.read_text(errors="replace")), 10, "every thread's stack in the log",
                 left=lambda: log.read_text(errors="replace")[-3000:])
        client = create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()
        answer = client.post("/v1/replays", json={"logs": batch(1)})
        assert answer.status_code == 202, answer.get_json()
        location = f"/v1/jobs/{answer.get_json()['id']}"
        wait_for(lambda: client.get(location).get_json()["status"] == "finished", 60, "the job after the dump")
        assert process.poll() is None
