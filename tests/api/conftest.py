"""API fixtures beyond the flaskr trio: a real Redis database for key, limit and metrics tests, and a dead one."""

from __future__ import annotations

import os
import socket
import urllib.parse
from collections.abc import Iterator

import pytest
from redis import Redis
from redis.exceptions import RedisError

from workers.queues import DEFAULT_REDIS_URL, connect

TEST_DB = 13


@pytest.fixture(scope="session")
def redis_url() -> str:
    """REDIS_URL's server (default the local one), database 13."""
    parts = urllib.parse.urlsplit(os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{TEST_DB}"))


@pytest.fixture
def redis_db(redis_url: str) -> Iterator[Redis]:
    """A client on the test database, flushed before and after the test; fails (never skips) without Redis."""
    connection = connect(redis_url)
    try:
        connection.ping()
    except RedisError as error:
        connection.close()
        pytest.fail(f"these tests need a Redis at {redis_url} ({error}); start one or set REDIS_URL", pytrace=False)
    connection.flushdb()
    yield connection
    connection.flushdb()
    connection.close()


@pytest.fixture
def dead_redis_url() -> str:
    """A Redis URL nothing listens on (a port the OS just handed out and took back)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"
