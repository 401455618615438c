"""A failed job's error never shows a secret: the detail repeats the last line of the job's exception, and an
exception of redis-py can hold a connection's repr with its password (a Sentinel that named no primary)."""

from __future__ import annotations

from rq.job import Job, JobStatus
from rq.results import Result

from service.jobs.queues import SERIALIZER
from tests.support.jobs import WEBHOOK_SECRET, search_body


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
