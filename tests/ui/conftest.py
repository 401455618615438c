"""Browser tests of the pages: the system's Chromium (never a downloaded browser) driven by Playwright against
`python -m service serve` (the README's serve command: gunicorn, an RQ worker, its own private Redis) on a free
port. No browser is a failure, never a skip: `scripts/test` installs Debian's `chromium` when it can.

Every page collects its console errors and uncaught exceptions; a test fails on any it did not expect. Each test
writes a screenshot to `.artifacts/screenshots/`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator

import psutil
import pytest

from tests.support.browser import CHROMIUM_ARGS, checked_page, chromium_path
from tests.support.ports import free_port
from tests.support.processes import ROOT, wait_for
from tests.support.web import answers

STARTUP = 120  # gunicorn and the worker build the evaluation tables first, on 2 shared cores


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[str]:
    """`python -m service serve` (2 gunicorn processes, 1 RQ worker, its own Redis) until the session ends."""
    run_dir = tmp_path_factory.mktemp("serve")
    base = f"http://127.0.0.1:{free_port()}"
    environ = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}
    environ.update(BIND=base.removeprefix("http://"), WEB_CONCURRENCY="2", LONGCARDS_WORKERS="1",
                   LONGCARDS_DATA_DIR=str(run_dir))
    log = run_dir / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "service", "serve"], cwd=ROOT, env=environ, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        # /readyz: Redis answers and a worker is alive, so jobs will run
        wait_for(lambda: process.poll() is None and answers(base + "/readyz") or process.poll() is not None,
                 STARTUP, "the service to be ready", 0.25)
        if process.poll() is not None:
            pytest.fail(f"serve exited ({process.returncode}):\n{log.read_text()[-3000:]}")
        yield base
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


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless system Chromium for the session."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, request):
    """A desktop-sized page (1280 x 900); screenshot and console check at the end."""
    yield from checked_page(browser, request, 1280)


@pytest.fixture
def phone(browser, request):
    """A phone-sized page (375 x 740); screenshot and console check at the end."""
    yield from checked_page(browser, request, 375, 740)
