"""The tests' Redis: the private redis-server (service/runtime/localredis.py's, with no automatic saves) that the test
session starts when `REDIS_URL` is not set, so the suite never touches a Redis it did not start (the fault tests
start more and stop them at will); each test package's database on it, flushed around a test."""

from __future__ import annotations

import os
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from redis import Redis
from redis.exceptions import OutOfMemoryError, RedisError

from service.jobs.queues import DEFAULT_REDIS_URL, connect
from service.runtime.localredis import RedisServer, redis_server_binary

from .ports import free_port

__all__ = ["PRIVATE_REDIS", "REFUSALS", "RedisServer", "flushed_redis", "redis_server_binary", "refusing_writes",
           "test_redis_url", "with_db"]


def with_db(url: str, db: int) -> str:
    """The same server as `url`, another database (`/db` for redis://, `?db=` for unix://)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "unix":
        query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k != "db"] + [("db", str(db))]
        return f"unix://{parts.path}?{urllib.parse.urlencode(query)}"
    return urllib.parse.urlunsplit(parts._replace(path=f"/{db}"))


#: Set in the environment of a test process whose REDIS_URL is its own private server (tests/conftest.py), so the
#: xdist workers it starts, which inherit its environment, start their own instead of sharing it.
PRIVATE_REDIS = "LONGCARDS_TEST_PRIVATE_REDIS"

#: The databases the test packages name (11-14); an xdist worker on a Redis of the user's (REDIS_URL set before the
#: run) takes the four below the previous worker's: gw0 11-14, gw1 7-10, gw2 3-6. On a private Redis (REDIS_URL
#: unset) every worker has a server of its own and keeps the numbers as they are.
DATABASES_PER_WORKER = 4
MAX_SHARED_WORKERS = 3


def test_redis_url(db: int) -> str:
    """REDIS_URL's server (default the local one), database `db`: each test package has its own, and each xdist
    worker sharing a user's Redis its own set of them."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = 0 if os.environ.get(PRIVATE_REDIS) else int(worker.removeprefix("gw") or 0)
    if index >= MAX_SHARED_WORKERS:
        pytest.fail(f"with REDIS_URL set, run at most {MAX_SHARED_WORKERS} test workers (-n); or unset it so each "
                    "worker starts a Redis of its own", pytrace=False)
    return with_db(os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL, db - DATABASES_PER_WORKER * index)


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


#: The ways `refusing_writes` makes a Redis refuse writes, by the code of its refusal.
REFUSALS = ("OOM", "READONLY", "MISCONF")
FILLER = "longcards-test:filler:"


@contextmanager
def refusing_writes(connection: Redis, cause: str) -> Iterator[None]:
    """The private Redis of `connection` refuses writes for real until the block ends, as `cause` says: OOM (full:
    `maxmemory` just above what it holds, `noeviction`, filled up to it, then its limit a little below what it holds,
    so a client's buffer freed meanwhile makes no room), READONLY (a replica: REPLICAOF an
    address where no primary listens; it keeps its data and serves reads) or MISCONF (a save failed, its directory
    being /proc, with `stop-writes-on-bgsave-error`). Afterwards it takes writes again, its fillers deleted."""
    if cause == "OOM":
        connection.config_set("maxmemory-policy", "noeviction")
        connection.config_set("maxmemory", int(connection.info("memory")["used_memory"]) + 256 * 1024)
        try:
            for index in range(1000):
                connection.set(f"{FILLER}{index}", b"x" * 16384)
            pytest.fail("Redis took 16 MB past its maxmemory")
        except OutOfMemoryError:  # full; kept full when a client's buffer is freed, which would make room
            connection.config_set("maxmemory", int(connection.info("memory")["used_memory"]) - 512 * 1024)
    elif cause == "READONLY":
        connection.execute_command("REPLICAOF", "127.0.0.1", str(free_port()))
    elif cause == "MISCONF":
        directory = connection.config_get("dir")["dir"]
        connection.config_set("save", "3600 1")
        connection.config_set("stop-writes-on-bgsave-error", "yes")
        connection.config_set("dir", "/proc")
        connection.bgsave()
        deadline = time.monotonic() + 10
        while connection.info("persistence")["rdb_last_bgsave_status"] != "err" or \
                connection.info("persistence")["rdb_bgsave_in_progress"]:
            if time.monotonic() > deadline:
                pytest.fail("the save in /proc did not fail")
            time.sleep(0.02)
    else:
        raise ValueError(cause)
    try:
        yield
    finally:
        if cause == "OOM":
            connection.config_set("maxmemory", 0)
            connection.delete(*connection.keys(f"{FILLER}*"))
        elif cause == "READONLY":
            connection.execute_command("REPLICAOF", "NO", "ONE")
        else:
            connection.config_set("dir", directory)
            connection.config_set("save", "")
