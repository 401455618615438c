"""The tests' private redis-server: service/jobs/localredis.py's, with no automatic saves. The test session starts one
when `REDIS_URL` is not set, so the suite never touches a Redis it did not start; the fault tests start more and
stop them at will."""

from service.jobs.localredis import RedisServer, redis_server_binary

__all__ = ["RedisServer", "redis_server_binary"]
