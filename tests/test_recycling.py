"""A gunicorn worker is replaced when its memory passes LONGCARDS_WORKER_MAX_MEMORY_MB (service/runtime/recycling.py),
and not every N requests: the ceiling's reading, the check by hand, and gunicorn for real."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

from service.config import ConfigError, process_setting
from service.runtime.recycling import check, peak_mb
from tests.support.ports import free_port

ROOT = Path(__file__).resolve().parents[1]


def ceiling_mb(environ: dict[str, str]) -> int:
    """The ceiling deploy/gunicorn.conf.py reads."""
    return process_setting("LONGCARDS_WORKER_MAX_MEMORY_MB", environ)


def test_the_ceiling_is_read_from_the_environment():
    assert ceiling_mb({}) == 512
    assert ceiling_mb({"LONGCARDS_WORKER_MAX_MEMORY_MB": "0"}) == 0
    assert ceiling_mb({"LONGCARDS_WORKER_MAX_MEMORY_MB": "2048"}) == 2048
    for bad in ("lots", "-1", "1.5"):
        with pytest.raises(ConfigError, match="LONGCARDS_WORKER_MAX_MEMORY_MB"):
            ceiling_mb({"LONGCARDS_WORKER_MAX_MEMORY_MB": bad})


class Log:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def info(self, message: str, *args: object) -> None:
        self.lines.append(message % args)


def test_a_worker_past_the_ceiling_is_asked_to_go_and_says_why():
    """This process is well past 1 MB and below 100,000 MB: only the low ceiling asks it to go; 0 never does."""
    assert 1 < peak_mb() < 100_000
    for limit, replaced in ((100_000, False), (0, False), (1, True)):
        worker = SimpleNamespace(alive=True, pid=42, log=Log())
        assert check(worker, limit) is replaced
        assert worker.alive is not replaced
        assert bool(worker.log.lines) is replaced
    assert "LONGCARDS_WORKER_MAX_MEMORY_MB=1" in worker.log.lines[0]


def start(ceiling: str) -> tuple[subprocess.Popen, int]:
    """gunicorn (one worker) with the project's config and this memory ceiling, on a free loopback port."""
    port = free_port()
    env = {**os.environ, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1", "LONGCARDS_METRICS": "false",
           "LONGCARDS_WORKER_MAX_MEMORY_MB": ceiling}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py",
                               "service.app:create_app()"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    return server, port


def answer(port: int, deadline: float) -> None:
    """One /healthz answer, retried while gunicorn starts or swaps its worker."""
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
                assert response.status == 200
                return
        except OSError:
            assert time.monotonic() < deadline, "no answer"
            time.sleep(0.2)


def workers(server: subprocess.Popen) -> set[int]:
    """The worker processes gunicorn runs now."""
    return {int(p) for p in Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()}


@pytest.mark.slow
def test_gunicorn_replaces_a_worker_past_the_ceiling_and_keeps_one_below_it():
    """With a 1 MB ceiling every answer is the worker's last: after each one a new worker takes over (three
    answers, three workers). With the default ceiling 60 answers come from the one worker gunicorn started."""
    server, port = start("1")
    try:
        deadline = time.monotonic() + 120
        answer(port, deadline)
        seen = [workers(server)]
        for _ in range(2):
            while not workers(server) or workers(server) == seen[-1]:
                assert time.monotonic() < deadline, seen
                time.sleep(0.1)
            seen.append(workers(server))
            answer(port, deadline)
        assert len(set().union(*seen)) >= 3, seen
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    server, port = start("512")
    try:
        deadline = time.monotonic() + 120
        answer(port, deadline)
        first = workers(server)
        for _ in range(60):
            answer(port, deadline)
        assert workers(server) == first and len(first) == 1
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
