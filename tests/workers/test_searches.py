"""POST /v1/searches and the deep review through the HTTP API, a burst SimpleWorker doing the work."""

from __future__ import annotations

import pytest

from service.jobs.queues import QUEUE_REPLAYS, QUEUE_SEARCHES, queue
from tests.support.jobs import run_worker, search_body
from tests.support.logs import dealt_log


def test_search_job_ranks_candidates_with_intervals(client, redis_db):
    """202 + Location on the searches queue; once run: every candidate with its three intervals, the stop
    reason, deals done = samples, progress at the total; a waiting discard beats one that breaks a meld."""
    response = client.post("/v1/searches", json=search_body(candidates=["yA", "rA"]))
    body = response.get_json()
    assert response.status_code == 202, body
    assert body["kind"] == "search" and body["progress"] == {"deals_done": 0, "deals_total": 60}
    assert queue(QUEUE_SEARCHES, redis_db).count == 1
    assert run_worker(redis_db)
    job = client.get(response.headers["Location"]).get_json()
    assert job["status"] == "finished", job
    result = job["result"]
    assert result["ruleset"] == "bga-taiwan" and result["engine_version"] and result["seed"] == 3
    assert result["objective"] == "expected_settlement" and result["stopped"] in ("samples", "leader_clear")
    assert job["progress"]["deals_done"] == result["deals"] <= 60
    cards = [c["card"] for c in result["candidates"]]
    assert sorted(cards) == ["rA", "yA"] and result["best"] == cards[0]
    for row in result["candidates"]:
        # a candidate dropped as clearly behind stops being played; the others play every deal
        assert row["playouts"] == (result["deals"] if row["eliminated_after"] is None else row["eliminated_after"])
        for name in ("win_probability", "expected_settlement", "pay_probability"):
            interval = row[name]
            assert interval["low"] <= interval["mean"] <= interval["high"]
    by_card = {c["card"]: c for c in result["candidates"]}
    assert by_card["yA"]["win_probability"]["mean"] >= by_card["rA"]["win_probability"]["mean"]


def test_same_seed_same_answer(client, redis_db):
    """Two jobs of the same position and seed (different idempotency keys) answer the same, timing apart."""
    first = client.post("/v1/searches", json=search_body(), headers={"Idempotency-Key": "a"})
    second = client.post("/v1/searches", json=search_body(), headers={"Idempotency-Key": "b"})
    assert first.get_json()["id"] != second.get_json()["id"]
    assert run_worker(redis_db)
    results = [client.get(r.headers["Location"]).get_json()["result"] for r in (first, second)]
    for result in results:
        result.pop("timing")
    assert results[0] == results[1]


def test_the_search_deals_as_asked_and_says_so(client, redis_db):
    """`dealing` defaults to shaped hands for the other seats; uniform deals them at random; the result says
    which, and the two differ on the same seed (eight public cards seen: two turns played)."""
    seen = ["rC", "rH", "yA", "yE", "gA", "gE", "wC", "wH"]
    shaped = client.post("/v1/searches", json=search_body(visible=seen), headers={"Idempotency-Key": "s"})
    uniform = client.post("/v1/searches", json=search_body(visible=seen, dealing="uniform"),
                          headers={"Idempotency-Key": "u"})
    assert shaped.status_code == uniform.status_code == 202
    assert run_worker(redis_db)
    results = [client.get(r.headers["Location"]).get_json()["result"] for r in (shaped, uniform)]
    assert [r["dealing"] for r in results] == ["shaped", "uniform"]
    assert [c["expected_settlement"] for c in results[0]["candidates"]] != [
        c["expected_settlement"] for c in results[1]["candidates"]]


def test_bad_search_is_422_and_nothing_is_queued(client, redis_db):
    """Input errors are refused before anything is queued, naming the field."""
    for body, field in ((search_body(candidates=["rG"]), "candidates.0"), (search_body(visible=["gC", "gC"]),
                        "visible.1"), (search_body(samples=0), "samples"), (search_body(seat=4), "seat"),
                        (search_body(dealing="by hand"), "dealing")):
        response = client.post("/v1/searches", json=body)
        problem = response.get_json()
        assert response.status_code == 422 and field in problem["errors"], problem
    assert queue(QUEUE_SEARCHES, redis_db).count == 0


@pytest.mark.slow  # over 2 s on 2 cores
def test_deep_review_rates_each_discard_with_a_search(client, redis_db):
    """mode deep: each discard carries the search's values; its expected loss is the best value minus the
    actual discard's; progress counts decisions."""
    review = {"mode": "deep", "samples": 40, "time_budget": 10, "seed": 1}
    response = client.post("/v1/replays", json={"logs": [dealt_log("rA")], "review": review})
    assert response.status_code == 202, response.get_json()
    assert queue(QUEUE_REPLAYS, redis_db).count == 1
    assert run_worker(redis_db)
    job = client.get(response.headers["Location"]).get_json()
    assert job["status"] == "finished", job
    assert job["progress"]["decisions_done"] == job["progress"]["decisions_total"] == 1
    [decision] = job["result"]["logs"][0]["seats"][0]["decisions"]
    deep = decision["deep"]
    assert "rA" in deep["values"] and deep["best"] in deep["values"] and deep["deals"] >= 1
    assert decision["expected_loss"] == deep["expected_loss"] == round(
        max(0.0, deep["values"][deep["best"]] - deep["values"]["rA"]), 4)


def test_deep_review_too_long_is_refused(client, redis_db):
    """A deep review whose worst case exceeds the limit is a 422 naming review.time_budget."""
    logs = [dealt_log("rA")] * 200
    response = client.post("/v1/replays", json={"logs": logs, "review": {"mode": "deep", "time_budget": 30}})
    assert response.status_code == 422 and "review.time_budget" in response.get_json()["errors"]
