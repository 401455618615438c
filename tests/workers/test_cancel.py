"""Cancel on real workers and the real clock: a DELETE either stops the job for good (a queued job never starts, a
running one is stopped: no result, no success webhook, its place among the caller's active jobs freed only once it
has stopped) or is refused with 409 naming why."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from redis import Redis

from service.app import create_app
from service.jobs.pages import logs_key
from service.jobs.queues import fetch
from service.jobs.submit import active_jobs
from tests.support.jobs import WEBHOOK_SECRET, batch, job_app
from tests.support.logs import dealt_log
from tests.support.processes import registered, wait_for, worker_processes
from tests.support.receivers import Receiver, receiving
from workers.callbacks import ALLOW_PRIVATE_ENV
from workers.webhooks import SECRET_ENV

ADDRESS = "192.0.2.7"
#: A deep review of ten discards, each searched for up to 30 s: minutes of work, stopped long before its end.
SLOW = {"logs": [dealt_log("rA")] * 10, "review": {"mode": "deep", "samples": 20_000, "time_budget": 30}}


@pytest.fixture
def receiver(monkeypatch) -> Iterator[Receiver]:
    """A webhook receiver on 127.0.0.1; the workers started afterwards sign with the secret and may deliver to
    loopback."""
    monkeypatch.setenv(SECRET_ENV, WEBHOOK_SECRET)
    monkeypatch.setenv(ALLOW_PRIVATE_ENV, "true")
    with receiving() as record:
        yield record


@pytest.fixture
def app(redis_db, redis_url):
    """Webhooks to loopback on; one active job per caller."""
    with job_app(redis_url, WEBHOOK_ALLOW_PRIVATE=True, MAX_ACTIVE_JOBS=1) as app:
        yield app


def post(client, body: dict, receiver: Receiver, address: str = ADDRESS):
    """POST /v1/replays from `address` with the receiver as callback."""
    return client.post("/v1/replays", json={**body, "callback_url": receiver.url},
                       environ_base={"REMOTE_ADDR": address})


def hooks_for(receiver: Receiver, job_id: str) -> list[str]:
    """The statuses of the webhooks the receiver got about one job."""
    return [payload["status"] for payload in (json.loads(body) for _, body in receiver.requests)
            if payload["id"] == job_id]


def stored_result(connection: Redis, job_id: str) -> bool:
    """Whether a result of the job is stored: its pages, or a successful result in RQ's result stream."""
    return bool(connection.exists(logs_key(job_id))) or fetch(job_id, connection).return_value() is not None


@pytest.mark.slow
def test_a_running_job_is_stopped_for_good(app, client, redis_db, redis_url, receiver, tmp_path):
    """A deep review runs; a second job of the same caller is refused (429). DELETE: 202, and the job ends canceled
    within seconds; over the next seconds it never finishes, no result is stored, no webhook of success comes, and
    only now does the caller get its place back. Deleting it again, or deleting a finished job, is 409."""
    with worker_processes(redis_url, [tmp_path / "worker-1.log"]):
        wait_for(lambda: registered(redis_db, 1), 60, "the worker to register")
        job_id = post(client, SLOW, receiver).get_json()["id"]
        location = f"/v1/jobs/{job_id}"
        wait_for(lambda: client.get(location).get_json()["status"] == "started", 30, "the job to start")
        assert post(client, {"logs": batch(1)}, receiver).status_code == 429
        asked = time.monotonic()
        response = client.delete(location)
        assert response.status_code == 202, response.get_json()
        assert response.get_json()["status"] == "started"
        ended = wait_for(lambda: (lambda b: b if b["status"] != "started" else None)(client.get(location).get_json()),
                         10, "the job to stop")
        print(f"\nstopped {time.monotonic() - asked:.2f} s after the DELETE")
        assert ended["status"] == "canceled" and ended["ended_at"] and ended["result"] is None
        assert active_jobs(redis_db, f"longcards:active:addr:{ADDRESS}")[0] == []
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline:
            body = client.get(location).get_json()
            assert body["status"] == "canceled" and body["result"] is None, body
            time.sleep(0.2)
        assert not stored_result(redis_db, job_id)
        assert hooks_for(receiver, job_id) == []
        again = client.delete(location)
        assert again.status_code == 409 and again.get_json()["code"] == "job_not_cancelable"
        assert "canceled" in again.get_json()["detail"]

        small = post(client, {"logs": batch(1)}, receiver)
        assert small.status_code == 202, small.get_json()  # the stopped job's place is free
        done = f"/v1/jobs/{small.get_json()['id']}"
        wait_for(lambda: client.get(done).get_json()["status"] == "finished", 30, "the small job to finish")
        refused = client.delete(done)
        assert refused.status_code == 409 and refused.mimetype == "application/problem+json"
        assert refused.get_json()["code"] == "job_not_cancelable" and "finished" in refused.get_json()["detail"]
        wait_for(lambda: hooks_for(receiver, small.get_json()["id"]) == ["finished"], 30, "the small job's webhook")


@pytest.mark.slow
def test_a_cancel_as_a_worker_takes_the_job_never_lets_it_finish(redis_db, redis_url, receiver, tmp_path):
    """Jobs deleted right after their submission, while two idle workers take them at once: each DELETE answered
    200 or 202 ends with a job that is canceled, without result or webhook; each one refused (409) was finished
    and sent its webhook. The caller's active jobs are then none."""
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "WEBHOOK_SECRET": WEBHOOK_SECRET,
                      "WEBHOOK_ALLOW_PRIVATE": True, "MAX_ACTIVE_JOBS": 0})
    client = app.test_client()
    answers: dict[str, int] = {}
    try:
        with worker_processes(redis_url, [tmp_path / "worker-1.log", tmp_path / "worker-2.log"]):
            wait_for(lambda: registered(redis_db, 2), 60, "two workers to register")
            for i in range(40):
                created = post(client, {"logs": batch(1 + i % 12), "players": [[f"p{i}", "b", "c"]]}, receiver)
                job_id = created.get_json()["id"]
                answers[job_id] = client.delete(f"/v1/jobs/{job_id}").status_code
                time.sleep(0.3)
            wait_for(lambda: all(client.get(f"/v1/jobs/{j}").get_json()["status"] in ("finished", "canceled")
                                 for j in answers), 60, "every job to end")
            finished = [j for j, status in answers.items() if status == 409]
            wait_for(lambda: all(hooks_for(receiver, j) == ["finished"] for j in finished), 60, "the webhooks")
            time.sleep(2)  # time for anything that should not happen
        assert set(answers.values()) <= {200, 202, 409}
        for job_id, status in answers.items():
            body = client.get(f"/v1/jobs/{job_id}").get_json()
            if status == 409:
                assert body["status"] == "finished" and hooks_for(receiver, job_id) == ["finished"]
            else:
                assert (body["status"], body["result"]) == ("canceled", None), (status, body["status"])
                assert hooks_for(receiver, job_id) == [] and not stored_result(redis_db, job_id)
        assert active_jobs(redis_db, f"longcards:active:addr:{ADDRESS}")[0] == []
        print(f"\nDELETE answers: {sorted(answers.values())}")
    finally:
        redis_client = app.extensions.get("longcards_redis")
        if redis_client is not None:
            redis_client.close()
