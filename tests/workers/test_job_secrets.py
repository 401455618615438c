"""A failed job's error never shows a secret, in its answer or its webhook: the detail repeats the last line of the
job's exception, and an exception of redis-py can hold a connection's repr with its password (a Sentinel that named
no primary)."""

from __future__ import annotations

import json
from dataclasses import replace

from rq.job import Job, JobStatus
from rq.results import Result

from service.jobs.queues import QUEUE_REPLAYS, QUEUE_WEBHOOKS, SERIALIZER, SPECS, job_name, spec
from tests.support.jobs import WEBHOOK_SECRET, batch, run_worker, search_body
from tests.support.receivers import receiving
from workers import replays
from workers.callbacks import ALLOW_PRIVATE_ENV
from workers.replays import analyse_replays
from workers.webhooks import SECRET_ENV


def test_a_failed_jobs_error_shows_no_password(app, redis_db):
    answer = app.test_client().post("/v1/searches", json=search_body())
    assert answer.status_code == 202
    job = Job.fetch(answer.get_json()["id"], connection=redis_db, serializer=SERIALIZER)
    said = ("redis.sentinel.MasterNotFoundError: No master found for 'longcards' : <Redis<SentinelConnectionPool("
            "<Connection(host=10.0.0.9,port=26379,password=sentinel-pass-4711,db=0)>)>> - ConnectionError(), "
            f"redis://:data-pass-4711@10.0.0.9:6379/0 {WEBHOOK_SECRET}")
    job.set_status(JobStatus.FAILED)
    Result.create_failure(job, 600, f"Traceback (most recent call last):\n  ...\n{said}\n")
    error = app.test_client().get(f"/v1/jobs/{job.id}").get_json()["error"]
    assert error["code"] == "job_failed" and error["detail"].startswith("redis.sentinel.MasterNotFoundError")
    for secret in ("sentinel-pass-4711", "data-pass-4711", WEBHOOK_SECRET):
        assert secret not in error["detail"], error["detail"]
    assert "password=***" in error["detail"] and "redis://:***@10.0.0.9" in error["detail"]


def test_a_failed_jobs_webhook_shows_no_secret(client, redis_db, monkeypatch):
    """The failure webhook goes to a third party: a job whose exception holds the webhook secret and a URL with a
    password reaches a real receiver with both taken out, and says what GET /v1/jobs/{id} says."""
    monkeypatch.setenv(SECRET_ENV, WEBHOOK_SECRET)
    monkeypatch.setenv(ALLOW_PRIVATE_ENV, "true")

    def broken(log, *args):
        raise RuntimeError(f"could not fetch https://ops:hunter2@files.example.test/x (key {WEBHOOK_SECRET})")

    monkeypatch.setattr(replays, "review", broken)
    monkeypatch.setitem(SPECS, job_name(analyse_replays), replace(spec(analyse_replays), retries=0))
    with receiving() as receiver:
        answer = client.post("/v1/replays", json={"logs": batch(1), "callback_url": receiver.url})
        assert answer.status_code == 202, answer.get_json()
        run_worker(redis_db, (QUEUE_REPLAYS,))
        run_worker(redis_db, (QUEUE_WEBHOOKS,))
    [(headers, body)] = receiver.requests
    payload = json.loads(body)
    assert payload["status"] == "failed", payload
    detail = payload["error"]["detail"]
    assert WEBHOOK_SECRET not in detail and "hunter2" not in detail, detail
    assert detail == "RuntimeError: could not fetch https://ops:***@files.example.test/x (key ***)", detail
    assert client.get(answer.headers["Location"]).get_json()["error"]["detail"] == detail
