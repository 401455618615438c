"""Job fixtures: a real Redis (REDIS_URL's server, database 12, flushed around each test), the app on it, and a
burst SimpleWorker on every queue with the JSON serializer.

No Redis, no job tests: the fixture fails loudly instead of skipping, so a CI without Redis goes red.
"""

from __future__ import annotations

from functools import cache

import pytest
from redis import Redis
from rq import SimpleWorker

from service.app import create_app
from service.jobs.queues import QUEUES, SERIALIZER, queue
from service.replay.families import simulate
from tests.conftest import test_redis_url

TEST_DB = 12
WEBHOOK_SECRET = "test-webhook-secret"
#: (rule-set, seats, policy) of the simulated tables batches cycle through.
TABLES = (("bga-taiwan", 3, "greedy"), ("cardavia-chan", 4, "greedy"), ("bga-taiwan", 4, "random"),
          ("cardavia-flowers", 4, "random"), ("cardavia-chan", 4, "random"), ("bga-taiwan", 2, "random"))


@cache
def _simulated(index: int) -> dict:
    """The index-th simulated log of the pool (seeded, so the same every run)."""
    ruleset_id, seats, policy = TABLES[index % len(TABLES)]
    return simulate(ruleset_id, index, seats, policy)


def batch(size: int, unique: int = 36) -> list[dict]:
    """`size` legal logs, cycling through `unique` distinct simulated rounds of every table (cheap to build)."""
    return [_simulated(i % unique) for i in range(size)]


@pytest.fixture(scope="session")
def redis_url() -> str:
    """REDIS_URL's server (default the local one), database 12."""
    return test_redis_url(TEST_DB)


@pytest.fixture
def app(redis_db: Redis, redis_url: str):
    """The app on the test database, webhooks on; its Redis client is closed afterwards."""
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "WEBHOOK_SECRET": WEBHOOK_SECRET,
                      "WEBHOOK_ALLOW_PRIVATE": True})  # the test receiver listens on 127.0.0.1
    yield app
    client = app.extensions.get("longcards_redis")
    if client is not None:
        client.close()


@pytest.fixture
def client(app):
    """A test client for the app."""
    return app.test_client()


def run_worker(connection: Redis, queues: tuple[str, ...] = QUEUES, with_scheduler: bool = False) -> bool:
    """Drain the queues with a burst SimpleWorker in this process (JSON serializer); True if it ran any job."""
    worker = SimpleWorker([queue(name, connection) for name in queues], connection=connection,
                          serializer=SERIALIZER)
    return worker.work(burst=True, with_scheduler=with_scheduler)
