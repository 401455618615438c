"""The test session's one `python -m service serve` (the README's serve command: 2 gunicorn processes, 1 RQ worker,
its own private Redis) on a free port, shared by every test that only reads from it: the pages in Chromium and the
serve's ready report. Tests that stop, kill or reconfigure a serve start their own (tests/test_serve.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

from tests.support.ports import free_port
from tests.support.processes import ROOT, wait_for
from tests.support.web import answers

STARTUP = 120  # gunicorn and the worker build the evaluation tables first, on 2 shared cores


@dataclass(frozen=True)
class Served:
    """A running serve: its address, the file its output goes to, and the one origin of another site that may frame
    its embed views (LONGCARDS_EMBED_ORIGINS; nothing listens there until a test serves a host page on it)."""

    base: str
    log: Path
    embed_host: str = ""


@contextmanager
def serve_until_done(run_dir: Path) -> Iterator[Served]:
    """`python -m service serve` in `run_dir`, ready (Redis answers and a worker is alive, so jobs will run), until
    the block ends; then SIGTERM, and whatever is left of it killed."""
    base = f"http://127.0.0.1:{free_port()}"
    embed_host = f"http://127.0.0.1:{free_port()}"
    environ = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}
    environ.update(BIND=base.removeprefix("http://"), WEB_CONCURRENCY="2", LONGCARDS_WORKERS="1",
                   LONGCARDS_DATA_DIR=str(run_dir), LONGCARDS_EMBED_ORIGINS=embed_host)
    log = run_dir / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "service", "serve"], cwd=ROOT, env=environ, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(lambda: process.poll() is None and answers(base + "/readyz") or process.poll() is not None,
                 STARTUP, "the service to be ready", 0.25)
        if process.poll() is not None:
            pytest.fail(f"serve exited ({process.returncode}):\n{log.read_text()[-3000:]}")
        yield Served(base, log, embed_host)
    finally:
        children = psutil.Process(process.pid).children(recursive=True) if process.poll() is None else []
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        psutil.wait_procs(children, timeout=10)
        for child in children:
            if child.is_running():
                child.kill()
