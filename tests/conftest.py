"""Fixtures shared by every test package: the flaskr trio (app, client, runner), and the test session's Redis.

With `REDIS_URL` unset the session starts a private redis-server (tests/redis_server.py) and points `REDIS_URL`
at it before any test module is imported, so the suite never touches a Redis it did not start; with `REDIS_URL`
set, the tests use only the databases 12-14 of that server.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from redis import Redis
from redis.exceptions import RedisError

from service.app import create_app
from service.jobs.queues import DEFAULT_REDIS_URL, connect
from tests.redis_server import RedisServer

_private_redis: RedisServer | None = None


def pytest_configure(config: pytest.Config) -> None:
    """Start the session's private Redis when REDIS_URL is not set (before test modules read it)."""
    global _private_redis
    if os.environ.get("REDIS_URL"):
        return
    _private_redis = RedisServer(Path(tempfile.mkdtemp(prefix="longcards-test-redis-")))
    _private_redis.start()
    os.environ["REDIS_URL"] = _private_redis.url


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the private Redis and remove its directory."""
    global _private_redis
    if _private_redis is not None:
        _private_redis.stop()
        shutil.rmtree(_private_redis.data_dir, ignore_errors=True)
        os.environ.pop("REDIS_URL", None)
        _private_redis = None


def with_db(url: str, db: int) -> str:
    """The same server as `url`, another database (`/db` for redis://, `?db=` for unix://)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "unix":
        query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k != "db"] + [("db", str(db))]
        return f"unix://{parts.path}?{urllib.parse.urlencode(query)}"
    return urllib.parse.urlunsplit(parts._replace(path=f"/{db}"))


def test_redis_url(db: int) -> str:
    """REDIS_URL's server (default the local one), database `db`: each test package has its own."""
    return with_db(os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL, db)


test_redis_url.__test__ = False  # a helper, not a test


def free_port() -> int:
    """A loopback TCP port nothing listens on now (the OS just handed it out and took it back)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def flushed_redis(url: str) -> Iterator[Redis]:
    """A client on a test database, flushed before and after; fails (never skips) when Redis does not answer."""
    connection = connect(url)
    try:
        connection.ping()
    except RedisError as error:
        connection.close()
        pytest.fail(f"these tests need a Redis at {url} ({error}); start one (.ci/run does) or set REDIS_URL",
                    pytrace=False)
    connection.flushdb()
    try:
        yield connection
    finally:
        connection.flushdb()
        connection.close()


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
