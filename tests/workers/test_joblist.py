"""Jobs as a client polls them: the submission's polling hint, the caller's job list (paged, newest first, own
jobs only), a replay result page by page, and cancellation answering the job's new state."""

from __future__ import annotations

from pathlib import Path

import pytest
from rq.job import Job
from rq.results import Result

from service.app import create_app
from service.http.auth import entry
from service.jobs import listing as joblist
from service.jobs.pages import logs_key
from service.jobs.queues import enqueue, fetch
from tests.support.jobs import LONG_BATCH, batch, run_worker
from tests.support.processes import wait_for, worker_process
from workers.replays import analyse_replays


def submit(client, logs: list[dict], **extra):
    """POST /v1/replays; the job's id."""
    response = client.post("/v1/replays", json={"logs": logs, **extra})
    assert response.status_code == 202, response.get_json()
    return response.get_json()["id"]


def every_page(client, limit: int, headers: dict | None = None) -> list[list[str]]:
    """The ids of each page of GET /v1/jobs, following next_cursor to the end."""
    pages, cursor = [], None
    while True:
        query = {"limit": limit, **({"cursor": cursor} if cursor else {})}
        body = client.get("/v1/jobs", query_string=query, headers=headers or {}).get_json()
        pages.append([job["id"] for job in body["jobs"]])
        cursor = body["next_cursor"]
        if cursor is None:
            return pages


def test_submission_says_when_to_poll(client, redis_db):
    """202 carries Retry-After: 1 beside Location."""
    response = client.post("/v1/replays", json={"logs": batch(1)})
    assert response.status_code == 202 and response.headers["Retry-After"] == "1"


def test_job_list_is_newest_first_and_paged_without_gaps(client, redis_db):
    """Seven jobs, pages of three: every job once, newest first; a job submitted meanwhile shifts nothing."""
    ids = [submit(client, batch(1), players=[[f"p{i}", "b", "c"]]) for i in range(7)]
    first = client.get("/v1/jobs?limit=3").get_json()
    assert [job["id"] for job in first["jobs"]] == ids[::-1][:3]
    assert all(job["result"] is None and job["status"] == "queued" for job in first["jobs"])
    submit(client, batch(2))  # newer than every page still to come
    rest = client.get("/v1/jobs", query_string={"limit": 3, "cursor": first["next_cursor"]}).get_json()
    assert [job["id"] for job in rest["jobs"]] == ids[::-1][3:6]
    assert sum(every_page(client, 3), []) == [every_page(client, 100)[0][0], *ids[::-1]]


def test_job_list_leaves_results_out(client, redis_db):
    """Finished jobs are listed with status and times; the result is fetched from the job itself."""
    job_id = submit(client, batch(1))
    run_worker(redis_db)
    listed = client.get("/v1/jobs").get_json()["jobs"][0]
    assert listed["id"] == job_id and listed["status"] == "finished" and listed["ended_at"] and listed["result"] is None
    assert client.get(f"/v1/jobs/{job_id}").get_json()["result"]["summary"]["games"] == 1


def test_job_list_shows_only_the_callers_jobs(redis_db, redis_url):
    """With API keys each key lists its own jobs."""
    keys = {"site-a": "a" * 20, "site-b": "b" * 20}
    client = create_app({"TESTING": True, "REDIS_URL": redis_url,
                         "API_KEYS": [entry(name, key) for name, key in keys.items()]}).test_client()
    mine = [client.post("/v1/replays", json={"logs": batch(i + 1)}, headers={"X-API-Key": keys["site-a"]}
                        ).get_json()["id"] for i in range(2)]
    theirs = client.post("/v1/replays", json={"logs": batch(3)}, headers={"X-API-Key": keys["site-b"]}).get_json()
    assert every_page(client, 10, {"X-API-Key": keys["site-a"]}) == [mine[::-1]]
    assert every_page(client, 10, {"X-API-Key": keys["site-b"]}) == [[theirs["id"]]]


def test_job_list_is_trimmed_and_forgets_expired_jobs(client, redis_db, monkeypatch):
    """Only the newest KEEP are remembered; a job whose data expired is left out and dropped from the list."""
    monkeypatch.setattr(joblist, "KEEP", 3)
    ids = [submit(client, batch(i + 1)) for i in range(5)]
    assert every_page(client, 10) == [ids[::-1][:3]]
    redis_db.delete(f"rq:job:{ids[3]}")  # what RQ's TTL does to a job's hash
    assert every_page(client, 10) == [[ids[4], ids[2]]]
    assert redis_db.zcard(joblist.index_key("public")) == 2


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "cursor=nonsense", "cursor=1.5:bad%20id"])
def test_bad_paging_is_422(client, redis_db, query):
    """Out-of-range limits and cursors this API did not give are invalid requests naming the field."""
    response = client.get(f"/v1/jobs?{query}")
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == "invalid_request"
    assert query.split("=")[0] in body["errors"]


@pytest.mark.slow  # over 2 s on 2 cores
def test_replay_result_page_by_page(client, redis_db):
    """logs_offset/logs_limit page the per-log entries; the summary is always whole."""
    job_id = submit(client, batch(5))
    run_worker(redis_db)
    whole = client.get(f"/v1/jobs/{job_id}").get_json()["result"]
    assert "logs_page" not in whole and len(whole["logs"]) == 5
    pages = [client.get(f"/v1/jobs/{job_id}?logs_offset={o}&logs_limit=2").get_json()["result"] for o in (0, 2, 4)]
    assert [[log["index"] for log in page["logs"]] for page in pages] == [[0, 1], [2, 3], [4]]
    assert pages[2]["logs_page"] == {"offset": 4, "limit": 2, "total": 5}
    assert all(page["summary"] == whole["summary"] for page in pages)


@pytest.mark.slow  # over 2 s on 2 cores
def test_a_page_answers_the_same_bytes_as_the_result_stored_whole(client, redis_db):
    """A finished replay's result is stored page by page (RQ keeps its head; one entry per log). A copy of the job
    with the same result stored whole, as RQ stores any result (and replays were stored before), answers every
    page query with the same bytes; the result is the one the job function returned."""
    logs = batch(30)
    job_id = submit(client, logs)
    assert run_worker(redis_db)
    assert redis_db.llen(logs_key(job_id)) == 30 and fetch(job_id, redis_db).return_value()["logs"] == 30
    copy = f"whole-{job_id[:12]}"
    redis_db.hset(Job.key_for(copy), mapping=redis_db.hgetall(Job.key_for(job_id)))
    Result.create(fetch(copy, redis_db), Result.Type.SUCCESSFUL, ttl=600, return_value=analyse_replays(logs, None))
    for query in ("", "?logs_limit=1", "?logs_offset=7&logs_limit=1", "?logs_offset=28&logs_limit=5",
                  "?logs_offset=40&logs_limit=3", "?logs_offset=0&logs_limit=30", "?logs_offset=3&logs_limit=200",
                  "?logs_offset=3"):
        paged = client.get(f"/v1/jobs/{job_id}{query}")
        whole = client.get(f"/v1/jobs/{copy}{query}")
        assert paged.status_code == whole.status_code == 200
        assert paged.get_data() == whole.get_data().replace(copy.encode(), job_id.encode()), query
    assert len(client.get(f"/v1/jobs/{job_id}?logs_offset=5&logs_limit=2").get_json()["result"]["logs"]) == 2


def test_cancel_answers_the_canceled_job_with_its_end(client, redis_db):
    """A queued job: 200, status canceled, ended_at set; GET agrees."""
    job_id = submit(client, batch(1))
    response = client.delete(f"/v1/jobs/{job_id}")
    body = response.get_json()
    assert response.status_code == 200 and body["status"] == "canceled" and body["ended_at"]
    assert client.get(f"/v1/jobs/{job_id}").get_json()["ended_at"] == body["ended_at"]


@pytest.mark.slow  # over 2 s on 2 cores
def test_stopping_a_running_job_is_202_then_canceled(client, redis_db, redis_url, tmp_path: Path):
    """A running job: 202 while the worker is told to stop, then canceled with ended_at."""
    job_id = enqueue(analyse_replays, redis_db, batch(LONG_BATCH), None, meta={"owner": "public", "kind": "replay"}).id
    with worker_process(redis_url, tmp_path / "worker.log"):
        wait_for(lambda: client.get(f"/v1/jobs/{job_id}").get_json()["status"] == "started", 30, "the job to start")
        response = client.delete(f"/v1/jobs/{job_id}")
        assert response.status_code == 202 and response.get_json()["status"] == "started"
        ended = wait_for(lambda: (lambda b: b if b["status"] == "canceled" else None)(
            client.get(f"/v1/jobs/{job_id}").get_json()), 30, "the job to stop")
    assert ended["ended_at"] and ended["result"] is None
