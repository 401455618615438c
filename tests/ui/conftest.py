"""Browser tests of the pages: the system's Chromium (never a downloaded browser) driven by Playwright against
`python -m service serve` (the README's serve command: gunicorn, an RQ worker, its own private Redis) on a free
port. No browser is a failure, never a skip: `scripts/test` installs Debian's `chromium` when it can.

Every page collects its console errors and uncaught exceptions; a test fails on any it did not expect. Each test
writes a screenshot to `.artifacts/screenshots/`.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator

import psutil
import pytest

from tests.conftest import free_port
from tests.workers.processes import ROOT, wait_for

STARTUP = 120  # gunicorn and the worker build the evaluation tables first, on 2 shared cores
ARTIFACTS = ROOT / ".artifacts" / "screenshots"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str:
    """The system's Chromium; fails the test run loudly when there is none."""
    for candidate in (os.environ.get("LONGCARDS_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.fail("the browser tests need Chromium: `apt-get install -y chromium` (scripts/test does it when it can), "
                "or set LONGCARDS_CHROMIUM to its path", pytrace=False)


def answers(url: str) -> bool:
    """Whether a GET of `url` answers 200."""
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


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


class Console:
    """What a page said on its console: errors and uncaught exceptions, minus those a test expects."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.expected: list[re.Pattern] = []

    def expect(self, pattern: str) -> None:
        """Allow console errors matching `pattern` (an API error answer the test provokes on purpose)."""
        self.expected.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.expected)]


def open_page(browser, width: int, height: int = 900):
    """A fresh page of the given size whose console errors are collected."""
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    context.set_default_timeout(20_000)
    page = context.new_page()
    console = Console()
    page.on("console", lambda message: message.type == "error" and console.errors.append(message.text))
    page.on("pageerror", lambda error: console.errors.append(f"uncaught: {error}"))
    return context, page, console


@pytest.fixture
def page(browser, request):
    """A desktop-sized page (1280 x 900); screenshot and console check at the end."""
    yield from _page(browser, request, 1280)


@pytest.fixture
def phone(browser, request):
    """A phone-sized page (375 x 740); screenshot and console check at the end."""
    yield from _page(browser, request, 375, 740)


def _page(browser, request, width: int, height: int = 900):
    context, page, console = open_page(browser, width, height)
    page.console = console
    try:
        yield page
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
        assert console.unexpected() == [], f"console errors: {console.unexpected()}"
    finally:
        context.close()
