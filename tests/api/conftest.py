"""API fixtures beyond the flaskr trio: a real Redis database for key, limit and metrics tests, and a dead one."""

from __future__ import annotations

import pytest

from tests.support.ports import free_port
from tests.support.redis import test_redis_url

TEST_DB = 13


@pytest.fixture(scope="session")
def redis_url() -> str:
    """REDIS_URL's server (default the local one), database 13."""
    return test_redis_url(TEST_DB)


@pytest.fixture
def dead_redis_url() -> str:
    """A Redis URL nothing listens on (a port the OS just handed out and took back)."""
    return f"redis://127.0.0.1:{free_port()}/0"
