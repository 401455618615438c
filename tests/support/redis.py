"""The tests' Redis: the private redis-server (service/jobs/localredis.py's, with no automatic saves) that the test
session starts when `REDIS_URL` is not set, so the suite never touches a Redis it did not start (the fault tests
start more and stop them at will); each test package's database on it, flushed around a test."""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from redis import Redis
from redis.exceptions import RedisError

from service.jobs.localredis import RedisServer, redis_server_binary
from service.jobs.queues import DEFAULT_REDIS_URL, connect

__all__ = ["RedisServer", "flushed_redis", "redis_server_binary", "test_redis_url", "with_db"]


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
