"""Job fixtures: a real Redis (REDIS_URL's server, database 12, flushed around each test) and the app on it; the
burst SimpleWorker that runs the jobs is tests/support/jobs.py's `run_worker`.

No Redis, no job tests: the fixture fails loudly instead of skipping, so a CI without Redis goes red.
"""

from __future__ import annotations

import pytest
from redis import Redis

from service.jobs.queues import connect
from tests.support.jobs import job_app
from tests.support.redis import RedisServer, test_redis_url

TEST_DB = 12


@pytest.fixture(scope="session")
def redis_url() -> str:
    """REDIS_URL's server (default the local one), database 12."""
    return test_redis_url(TEST_DB)


@pytest.fixture
def app(redis_db: Redis, redis_url: str):
    """The app on the test database, webhooks on; its Redis client is closed afterwards."""
    with job_app(redis_url, WEBHOOK_ALLOW_PRIVATE=True) as app:  # the test receiver listens on 127.0.0.1
        yield app


@pytest.fixture
def redis_server(tmp_path):
    """A private Redis of the test's own (the fault tests stop and start it); stopped afterwards."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    connection = connect(server.url)
    yield server, connection
    connection.close()
    server.stop()


@pytest.fixture
def client(app):
    """A test client for the app."""
    return app.test_client()
