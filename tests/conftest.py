"""Fixtures shared by every test package: the flaskr trio (app, client, runner), and the test session's Redis.

With `REDIS_URL` unset the session starts a private redis-server (tests/support/redis.py) and points `REDIS_URL`
at it before any test module is imported, so the suite never touches a Redis it did not start; with `REDIS_URL`
set, the tests use only the databases 12-14 of that server.
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
from tests.support.redis import RedisServer, flushed_redis

_private_redis: RedisServer | None = None


def pytest_configure(config: pytest.Config) -> None:
    """Start the session's private Redis when REDIS_URL is not set (before test modules read it)."""
    global _private_redis
    if os.environ.get("REDIS_URL"):
        return
    _private_redis = RedisServer(Path(tempfile.mkdtemp(prefix="longcards-test-redis-")))
    _private_redis.start()
    os.environ["REDIS_URL"] = _private_redis.url


#: The time limit of a test marked slow (real processes on the real clock) without a limit of its own; the others
#: have pyproject.toml's 60 s. The longest such test takes about 110 s on 2 idle cores.
SLOW_TIMEOUT = 300


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A slow test without a `timeout` mark of its own gets SLOW_TIMEOUT."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the private Redis and remove its directory."""
    global _private_redis
    if _private_redis is not None:
        _private_redis.stop()
        shutil.rmtree(_private_redis.data_dir, ignore_errors=True)
        os.environ.pop("REDIS_URL", None)
        _private_redis = None


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
