"""Faults seen from the API: a Redis outage costs the job endpoints only (503 + Retry-After, nothing half-written)
until Redis is back, with no restart of the app. Workers under faults: test_recovery.py."""

from __future__ import annotations

import time

from service.app import create_app
from service.jobs.queues import QUEUE_REPLAYS, connect, queue
from service.jobs.submit import IDEMPOTENCY_PREFIX
from tests.support.jobs import WEBHOOK_SECRET, batch, run_worker
from tests.support.redis import RedisServer


def test_redis_outage_fails_jobs_fast_and_recovers_without_restart(tmp_path):
    """Redis down: /v1/hu and /v1/melds still answer, the job endpoints answer 503 + Retry-After at once and
    write nothing; Redis back on the same port: the same app queues jobs again and a worker completes them."""
    server = RedisServer(tmp_path)
    server.start()
    app = create_app({"TESTING": True, "REDIS_URL": server.url, "WEBHOOK_SECRET": WEBHOOK_SECRET})
    client = app.test_client()
    connection = None
    try:
        before = client.post("/v1/replays", json={"logs": batch(1)})
        assert before.status_code == 202
        server.stop(save=True)

        assert client.post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": ["rA", "yA"]}).status_code == 200
        assert client.post("/v1/melds", json={"ruleset": "bga-taiwan", "hand": ["rA", "rA"]}).status_code == 200
        started = time.monotonic()
        down = [client.post("/v1/replays", json={"logs": batch(2)}), client.get("/v1/jobs/x"),
                client.get(before.headers["Location"]), client.delete(before.headers["Location"])]
        assert time.monotonic() - started < 5  # refused at once, not after a hang
        for response in down:
            assert response.status_code == 503 and response.mimetype == "application/problem+json"
            assert response.headers["Retry-After"].isdigit() and response.get_json()["code"] == "jobs_unavailable"
        assert client.get("/readyz").status_code == 503

        server.start()  # same port, same data directory: the saved data is back
        connection = connect(server.url)
        assert queue(QUEUE_REPLAYS, connection).job_ids == [before.get_json()["id"]]  # nothing half-enqueued
        assert len(connection.keys(f"{IDEMPOTENCY_PREFIX}*")) == 1
        after = client.post("/v1/replays", json={"logs": batch(2)})
        assert after.status_code == 202 and after.get_json()["id"] != before.get_json()["id"]
        assert run_worker(connection)
        for location in (before.headers["Location"], after.headers["Location"]):
            assert client.get(location).get_json()["status"] == "finished"
    finally:
        server.stop()
        for client_connection in (connection, app.extensions.get("longcards_redis")):
            if client_connection is not None:
                client_connection.close()
