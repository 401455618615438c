"""Fixtures shared by every test package: the flaskr trio (app, client, runner), and the test session's Redis.

With `REDIS_URL` unset each test process (the session, or each pytest-xdist worker of it) starts a private
redis-server (tests/support/redis.py) and points `REDIS_URL` at it before any test module is imported, so the suite
never touches a Redis it did not start and parallel workers share no database; with `REDIS_URL` set, the tests use
only the databases 11-14 of that server, and each xdist worker four of its own below them (tests/support/redis.py).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis import Redis

from service.app import create_app
from tests.support.redis import PRIVATE_REDIS, RedisServer, flushed_redis
from tests.support.serving import Served, serve_until_done

_private_redis: RedisServer | None = None


def _runs_no_tests(config: pytest.Config) -> bool:
    """The xdist controller: its workers run the tests, each with its own Redis."""
    return not hasattr(config, "workerinput") and bool(config.getoption("numprocesses", None))


#: The workers' intervals in every process the tests start (the service's own settings, docs/configuration.md):
#: heartbeats every second, a job abandoned 9 s after its last one, idle workers polling and cleaning up every
#: second. The real-fault tests kill real workers on the real clock; with these a killed worker's job is found
#: within 10 s instead of 55 s (the grace still outlasts a loaded machine's late heartbeat and a Sentinel
#: failover). A value set in the environment before the run is kept.
WORKER_CLOCK = {"LONGCARDS_JOB_HEARTBEAT": "1", "LONGCARDS_HEARTBEAT_GRACE": "8", "LONGCARDS_WORKER_POLL": "1",
                "LONGCARDS_CLEANUP_INTERVAL": "1"}


def pytest_configure(config: pytest.Config) -> None:
    """Set the workers' short intervals; start this process's private Redis when REDIS_URL is not set by the user
    (before test modules read it)."""
    global _private_redis
    for name, seconds in WORKER_CLOCK.items():
        os.environ.setdefault(name, seconds)
    if os.environ.get("REDIS_URL") and not os.environ.get(PRIVATE_REDIS) or _runs_no_tests(config):
        return
    _private_redis = RedisServer(Path(tempfile.mkdtemp(prefix="longcards-test-redis-")))
    _private_redis.start()
    os.environ["REDIS_URL"] = _private_redis.url
    os.environ[PRIVATE_REDIS] = "1"


#: The time limit of a test marked slow (real processes on the real clock) without a limit of its own; the others
#: have pyproject.toml's 60 s. The longest such test takes about 110 s on 2 idle cores.
SLOW_TIMEOUT = 300


#: The tests that share the session's one `serve` and one Chromium (`session_serve`, tests/ui/conftest.py), by node
#: id: with several test processes (scripts/test: pytest-xdist's loadgroup) they form one group, sent whole to one
#: process, so the run starts each once. A test using either fixture elsewhere is refused at collection.
PAGE_TESTS = ("tests/ui/", "tests/test_serve.py::test_serve_says_where_the_pages_and_the_docs_are_once_ready")


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A slow test without a `timeout` mark of its own gets SLOW_TIMEOUT; the page tests form the xdist group
    "pages"; the longest work comes first (the page tests, then the slow ones), so parallel test processes do not
    end on it."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
        uses = {"session_serve", "browser"} & set(getattr(item, "fixturenames", ()))
        if uses and not item.nodeid.startswith(PAGE_TESTS):
            raise pytest.UsageError(f"{item.nodeid} uses {', '.join(sorted(uses))}: add it to PAGE_TESTS "
                                    "(tests/conftest.py) so the session starts them once")
        if item.nodeid.startswith(PAGE_TESTS) and config.pluginmanager.hasplugin("xdist"):
            item.add_marker(pytest.mark.xdist_group("pages"))
    items.sort(key=lambda item: (not item.nodeid.startswith(PAGE_TESTS), not item.get_closest_marker("slow")))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the private Redis and remove its directory."""
    global _private_redis
    if _private_redis is not None:
        _private_redis.stop()
        shutil.rmtree(_private_redis.data_dir, ignore_errors=True)
        os.environ.pop("REDIS_URL", None)
        os.environ.pop(PRIVATE_REDIS, None)
        _private_redis = None


@pytest.fixture(scope="session")
def session_serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The session's one `python -m service serve` (tests/support/serving.py), shared by the tests that only read
    from it; they form the PAGES group, so one process of the run starts it."""
    with serve_until_done(tmp_path_factory.mktemp("serve")) as running:
        yield running


@pytest.fixture
def redis_db(redis_url: str) -> Iterator[Redis]:
    """A client on the package's test database (each package's `redis_url` fixture names it), flushed before and
    after the test; fails (never skips) without Redis."""
    with flushed_redis(redis_url) as connection:
        yield connection


@pytest.fixture
def app():
    """A test app with default configuration."""
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    """A test client for the app."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """A CLI runner for the app."""
    return app.test_cli_runner()
