"""Browser tests of the pages: the system's Chromium (never a downloaded browser) driven by Playwright against
`python -m service serve` (the README's serve command: gunicorn, an RQ worker, its own private Redis) on a free
port. No browser is a failure, never a skip: `scripts/test` installs Debian's `chromium` when it can.

Every page collects its console errors and uncaught exceptions; a test fails on any it did not expect. Each test
writes a screenshot to `.artifacts/screenshots/`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.browser import CHROMIUM_ARGS, checked_page, chromium_path


@pytest.fixture(scope="session")
def server(session_serve) -> str:
    """The address of the test session's `python -m service serve` (tests/conftest.py `session_serve`)."""
    return session_serve.base


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
