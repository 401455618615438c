"""Limits on jobs: active jobs per caller (429 + Retry-After), a deep review's worst case, duplicate candidates."""

from __future__ import annotations

import pytest

from service.jobs.queues import QUEUE_SEARCHES, queue
from tests.support.jobs import batch, job_app, run_worker, search_body
from tests.support.logs import dealt_log


@pytest.fixture
def app(redis_db, redis_url):
    """The job app with at most 3 active jobs per caller."""
    with job_app(redis_url, MAX_ACTIVE_JOBS=3) as app:
        yield app


def replay(client, index: int, address: str = "192.0.2.1"):
    """Submit a replay of the index-th simulated log from `address`."""
    return client.post("/v1/replays", json={"logs": batch(index + 1)[index:]}, environ_base={"REMOTE_ADDR": address})


def test_a_caller_over_its_active_jobs_gets_429(client, redis_db):
    first = [replay(client, i) for i in range(3)]
    assert [r.status_code for r in first] == [202] * 3
    refused = replay(client, 3)
    assert refused.status_code == 429, refused.get_json()
    assert refused.get_json()["code"] == "too_many_active_jobs"
    assert int(refused.headers["Retry-After"]) > 0
    assert replay(client, 0).headers["Location"] == first[0].headers["Location"]  # the same job again: no new one
    assert replay(client, 9, address="192.0.2.2").status_code == 202  # another caller has its own budget
    assert client.delete(first[0].headers["Location"]).status_code == 200  # a canceled job frees its place
    assert replay(client, 3).status_code == 202
    assert replay(client, 4).status_code == 429
    assert run_worker(redis_db)  # every job ends: the places are free again
    assert [replay(client, i).status_code for i in range(5, 8)] == [202] * 3


def test_searches_count_with_replays(client, redis_db):
    for i in range(3):
        assert replay(client, i).status_code == 202
    response = client.post("/v1/searches", json=search_body(), environ_base={"REMOTE_ADDR": "192.0.2.1"})
    assert response.status_code == 429
    assert queue(QUEUE_SEARCHES, redis_db).count == 0


def test_deep_review_of_hours_is_refused(client, redis_db):
    """90 discards at 30 s each (45 minutes at worst) are refused; 10 at 30 s (5 minutes) are not."""
    long = client.post("/v1/replays", json={"logs": [dealt_log("rA")] * 90,
                                             "review": {"mode": "deep", "time_budget": 30}})
    assert long.status_code == 422
    assert long.get_json()["code"] == "review_too_long"
    short = client.post("/v1/replays", json={"logs": [dealt_log("rA")] * 10,
                                              "review": {"mode": "deep", "time_budget": 30}})
    assert short.status_code == 202, short.get_json()


def test_duplicate_candidates_are_refused(client, redis_db):
    response = client.post("/v1/searches", json=search_body(candidates=["yA", "rA", "yA"]))
    assert response.status_code == 422
    body = response.get_json()
    assert body["code"] == "duplicate_candidate" and "candidates.2" in body["errors"]
    assert queue(QUEUE_SEARCHES, redis_db).count == 0
