"""Submissions at once: 100 parallel requests against the app (a thread each, one Redis) never answer 503 while
Redis answers, give exactly one job per idempotency key (or per identical body), refuse a reused key with another
body, and never let a caller hold more than MAX_ACTIVE_JOBS queued or running jobs."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from service.jobs.queues import QUEUE_REPLAYS, queue
from tests.support.jobs import batch, job_app

PARALLEL = 100


@pytest.fixture
def limited(redis_db, redis_url):
    """An app whose callers may hold 20 active jobs."""
    with job_app(redis_url, MAX_ACTIVE_JOBS=20) as app:
        yield app


def at_once(app, requests: list[tuple[dict, dict, str]]) -> list[tuple[int, dict]]:
    """POST every (body, headers, client address) to /v1/replays from its own thread, all released together;
    each answer's status and body, in order."""
    start = threading.Barrier(len(requests))

    def post(request: tuple[dict, dict, str]) -> tuple[int, dict]:
        body, headers, address = request
        client = app.test_client()
        start.wait(timeout=60)
        response = client.post("/v1/replays", json=body, headers=headers, environ_base={"REMOTE_ADDR": address})
        return response.status_code, response.get_json()

    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(post, requests))


def logs(i: int) -> dict:
    """The i-th distinct request body (one log, its own player names)."""
    return {"logs": batch(1), "players": [[f"p{i}", "b", "c"]]}


def test_shared_idempotency_keys_give_one_job_per_key(limited, redis_db):
    """10 keys, each sent by 10 requests at once with the same body, all from one caller (10 jobs: under its cap
    of 20): 100 x 202, one job per key, 10 jobs queued."""
    requests = [(logs(i % 10), {"Idempotency-Key": f"k{i % 10}"}, "192.0.2.1") for i in range(PARALLEL)]
    answers = at_once(limited, requests)
    assert Counter(status for status, _ in answers) == {202: PARALLEL}, [b for s, b in answers if s != 202][:3]
    by_key: dict[str, set[str]] = {}
    for (_, headers, _), (_, body) in zip(requests, answers):
        by_key.setdefault(headers["Idempotency-Key"], set()).add(body["id"])
    assert all(len(ids) == 1 for ids in by_key.values()) and len(by_key) == 10
    assert len({next(iter(ids)) for ids in by_key.values()}) == 10
    assert queue(QUEUE_REPLAYS, redis_db).count == 10


def test_identical_bodies_without_a_key_give_one_job(limited, redis_db):
    """100 identical bodies without a key, from one caller: one job for all."""
    answers = at_once(limited, [(logs(0), {}, "192.0.2.1")] * PARALLEL)
    assert Counter(status for status, _ in answers) == {202: PARALLEL}
    assert len({body["id"] for _, body in answers}) == 1
    assert queue(QUEUE_REPLAYS, redis_db).count == 1


@pytest.mark.parametrize("keyed", [True, False], ids=["a-key-each", "no-key"])
def test_the_cap_holds_under_concurrency(limited, redis_db, keyed):
    """100 different requests of one caller at once (with a key each, or none): exactly 20 are queued (202), the
    other 80 get 429 too_many_active_jobs; none 503."""
    answers = at_once(limited, [(logs(i), {"Idempotency-Key": f"c{i}"} if keyed else {}, "192.0.2.1")
                                for i in range(PARALLEL)])
    statuses = Counter(status for status, _ in answers)
    assert statuses == {202: 20, 429: 80}, statuses
    assert {body["code"] for status, body in answers if status == 429} == {"too_many_active_jobs"}
    assert len({body["id"] for status, body in answers if status == 202}) == 20
    assert queue(QUEUE_REPLAYS, redis_db).count == 20


def test_a_reused_key_is_refused_under_concurrency(limited, redis_db):
    """One key sent with two different bodies by 50 requests each: one body wins the key (all its requests get its
    job), every request with the other body gets 422 idempotency_key_reused."""
    requests = [(logs(i % 2), {"Idempotency-Key": "shared"}, "192.0.2.1") for i in range(PARALLEL)]
    answers = at_once(limited, requests)
    accepted = {(body["id"], request[0]["players"][0][0]) for request, (status, body) in zip(requests, answers)
                if status == 202}
    refused = [(request[0]["players"][0][0], body["code"]) for request, (status, body) in zip(requests, answers)
               if status != 202]
    assert len(accepted) == 1
    [(_, winner)] = accepted
    assert len(refused) == 50 and {code for _, code in refused} == {"idempotency_key_reused"}
    assert {player for player, _ in refused} == {"p0", "p1"} - {winner}
    assert queue(QUEUE_REPLAYS, redis_db).count == 1
