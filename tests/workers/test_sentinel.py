"""Redis through Sentinel (service/redisconf.py), on a real group: a primary, a replica and three Sentinels
(tests/support/sentinel.py). The API's jobs, /metrics, its rate limits and failed-login limit, the workers and
their schedulers all reach the primary the Sentinels name; a write refused by a read-only node is a 503; an
accepted submission is on the replica before its 202 (WAIT), a submission no replica acknowledges is refused with
503 and sent again safely; and what WAIT costs per submission is printed (`pytest -s`). The failover itself:
tests/test_failover.py."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

import pytest
from rq.job import Job

from service.jobs.queues import QUEUES, SERIALIZER, connect, queue
from service.redisconf import RedisSettings
from tests.support.jobs import batch, job_app, run_worker
from tests.support.sentinel import MASTER, RedisGroup, redis_group

pytestmark = pytest.mark.slow  # five redis-servers, and Sentinels find each other in 2-4 s


@pytest.fixture(scope="module")
def group(tmp_path_factory) -> Iterator[RedisGroup]:
    """One group for the module, flushed before each use by the tests that count keys."""
    with redis_group(tmp_path_factory.mktemp("sentinel")) as started:
        yield started


@pytest.fixture
def primary(group):
    """A direct client of the primary, flushed before and after."""
    node = group.node("primary")
    node.flushall()
    yield node
    node.flushall()
    node.close()


def test_every_connection_of_the_app_reaches_the_primary_the_sentinels_name(group, primary, monkeypatch):
    for name, value in group.env.items():
        monkeypatch.setenv(name, value)
    with job_app(group.env["REDIS_URL"], **group.env, RATE_LIMIT="1000/minute") as app:
        client = app.test_client()
        answer = client.post("/v1/replays", json={"logs": batch(1)})
        assert answer.status_code == 202, answer.get_json()
        job_id = answer.get_json()["id"]
        assert primary.exists(Job.key_for(job_id)), "the job is not on the primary"
        assert group.node("replica").exists(Job.key_for(job_id)), "the 202 came before the replica had the job"
        assert primary.keys("LIMITS:LIMITER/longcards/*"), \
            "the rate limit does not count on the primary"
        # The worker's connection (from the environment, as `python -m workers` makes it) runs the job.
        worker_side = connect()
        assert run_worker(worker_side)
        assert client.get(f"/v1/jobs/{job_id}").get_json()["status"] == "finished"
        assert client.get("/readyz").status_code == 503  # no worker registered: Redis itself answered
        assert "longcards_redis_up 1.0" in client.get("/metrics").get_data(as_text=True)
        worker_side.close()


def test_failed_logins_count_on_the_primary(group, primary):
    from service.http.auth import entry

    with job_app(group.env["REDIS_URL"], **group.env, API_KEYS=entry("site", "k" * 20)) as app:
        refused = app.test_client().get("/v1/rulesets", headers={"X-API-Key": "not-the-key-0123"})
        assert refused.status_code == 403
    assert primary.keys("*authfail*"), f"the failed login is not counted on the primary: {primary.keys('*')}"


def test_the_workers_scheduler_rebuilds_its_connection_through_the_sentinels(group, primary, monkeypatch):
    """RQ's scheduler runs in a process of its own and rebuilds the worker's connection from its pool's settings:
    those of a Sentinel pool must still lead to the primary."""
    from rq.scheduler import RQScheduler

    from workers.worker import worker_connection

    for name, value in group.env.items():
        monkeypatch.setenv(name, value)
    scheduler = RQScheduler([queue(name, worker_connection()) for name in QUEUES], connection=worker_connection(),
                            serializer=SERIALIZER)
    assert scheduler.acquire_locks() == set(QUEUES)
    assert scheduler.connection.connection_pool.get_connection().port == group.ports["primary"]
    assert all(primary.exists(scheduler.get_locking_key(name)) for name in QUEUES)
    scheduler.release_locks()


def test_a_submission_no_replica_acknowledges_is_refused_and_sent_again_safely(group, primary):
    with job_app(group.env["REDIS_URL"], **group.env, SUBMIT_REPLICA_WAIT_MS=200) as app:
        client = app.test_client()
        request = {"json": {"logs": batch(2)}, "headers": {"Idempotency-Key": "once"}}
        group.pause("replica")
        try:
            refused = client.post("/v1/replays", **request)
        finally:
            group.resume("replica")
        body = refused.get_json()
        assert (refused.status_code, body["code"]) == (503, "not_replicated"), body
        assert int(refused.headers["Retry-After"]) >= 1
        written = primary.keys("rq:job:*")
        assert len(written) == 1, "the refused submission wrote its job (it may run): the retry must answer it"
        accepted = client.post("/v1/replays", **request)
        assert accepted.status_code == 202, accepted.get_json()
        assert primary.keys("rq:job:*") == written, "the retry made a second job"
        assert Job.key_for(accepted.get_json()["id"]).encode() == written[0]


def test_a_demoted_primary_reached_without_sentinel_answers_503_not_500(group, primary):
    """REDIS_URL straight at a read-only replica (a primary demoted under a client that does not ask the
    Sentinels): the submission is refused like an unreachable Redis."""
    url = f"redis://:{group.env['REDIS_URL'].split(':')[2].split('@')[0]}@127.0.0.1:{group.ports['replica']}/0"
    with job_app(url, REDIS_SENTINELS="") as app:
        answer = app.test_client().post("/v1/replays", json={"logs": batch(1)})
        body = answer.get_json()
        assert (answer.status_code, body["code"]) == (503, "jobs_unavailable"), body
        assert int(answer.headers["Retry-After"]) >= 1


def test_wait_cost_per_submission(group, primary):
    """Submissions timed with and without waiting for the replica, alternately, on the same group; printed."""
    timings: dict[int, list[float]] = {0: [], 1: []}
    apps = {wanted: job_app(group.env["REDIS_URL"], **group.env, SUBMIT_REPLICAS=wanted, MAX_ACTIVE_JOBS=0)
            for wanted in timings}
    with apps[0] as without, apps[1] as with_wait:
        clients = {0: without.test_client(), 1: with_wait.test_client()}
        logs = batch(1)
        for i in range(120):
            for wanted, client in clients.items():
                began = time.perf_counter()
                answer = client.post("/v1/replays", json={"logs": logs}, headers={"Idempotency-Key": f"{wanted}-{i}"})
                timings[wanted].append(time.perf_counter() - began)
                assert answer.status_code == 202, answer.get_json()
    median = {wanted: statistics.median(values[20:]) * 1000 for wanted, values in timings.items()}
    print(f"\nsubmission median: {median[0]:.2f} ms without WAIT, {median[1]:.2f} ms with WAIT 1 "
          f"(+{median[1] - median[0]:.2f} ms)")
    assert median[1] > 0 and median[0] > 0


@pytest.mark.parametrize("value, error", [
    ("127.0.0.1", "REDIS_SENTINELS='127.0.0.1' is not valid: expects host:port"),
    ("127.0.0.1:0", "REDIS_SENTINELS='127.0.0.1:0' is not valid: expects host:port"),
    (" , ", r"REDIS_SENTINELS=' , ' is not valid \(names no host:port\)"),
])
def test_malformed_sentinels_stop_the_app_at_start(value, error):
    from service.app import create_app

    with pytest.raises(RuntimeError, match=error):
        create_app({"TESTING": True, "REDIS_SENTINELS": value, "REDIS_SENTINEL_MASTER": MASTER})
    with pytest.raises(RuntimeError, match="REDIS_SENTINEL_MASTER"):
        create_app({"TESTING": True, "REDIS_SENTINELS": "127.0.0.1:26379"})


def test_sentinel_settings_take_the_password_and_database_from_redis_url():
    settings = RedisSettings.read({"REDIS_SENTINELS": "a:1, [::1]:2", "REDIS_SENTINEL_MASTER": "m",
                                   "REDIS_URL": "redis://:p%40ss@ignored:6379/3"})
    assert settings.sentinels == (("a", 1), ("::1", 2))
    assert settings.primary_options() == {"username": None, "password": "p@ss", "db": 3}
    uri, options = settings.limits_storage(socket_timeout=1)
    assert uri == "redis+sentinel://a:1,[::1]:2/m"
    assert options["password"] == "p@ss" and options["db"] == 3 and options["use_replicas"] is False
    assert options["sentinel_kwargs"] == {"password": None, "socket_timeout": 1}
    assert RedisSettings.read({"REDIS_URL": "unix:///r.sock?db=2"}).limits_storage() == ("redis+unix:///r.sock?db=2",
                                                                                         {})
