"""The replay job through the HTTP API, a burst SimpleWorker doing the work: submit, progress, result, cancel,
idempotency, refusal, failure after retries, and signed webhooks (delivered, and retried when refused)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from rq.registry import FailedJobRegistry, ScheduledJobRegistry

from service.jobs.queues import QUEUE_REPLAYS, QUEUE_WEBHOOKS, SPECS, fetch, job_name, queue, spec
from tests.support.jobs import WEBHOOK_SECRET, batch, run_worker
from tests.support.receivers import Receiver, receiving
from workers import replays
from workers.callbacks import ALLOW_PRIVATE_ENV
from workers.replays import analyse_replays
from workers.webhooks import SECRET_ENV, SIGNATURE_HEADER, deliver_webhook, verify

PLAYERS = [["ann", "bao", "cam"], ["ann", "bao", "cam", "dan"]]


def submit(client, logs: list[dict], headers: dict | None = None, **extra):
    """POST /v1/replays."""
    return client.post("/v1/replays", json={"logs": logs, **extra}, headers=headers or {})


def queued(redis_db, name: str = QUEUE_REPLAYS) -> int:
    """How many jobs wait on a queue."""
    return queue(name, redis_db).count


def test_submit_answers_202_location_and_queued(client, redis_db):
    """202, Location naming the job, status queued with the events to do; the job waits on the replays queue."""
    logs = batch(2)
    response = submit(client, logs, players=PLAYERS)
    body = response.get_json()
    assert response.status_code == 202, body
    assert response.headers["Location"] == f"/v1/jobs/{body['id']}" == body["links"]["self"]
    assert body["status"] == "queued" and body["kind"] == "replay" and body["retries_left"] == 3
    total = sum(len(log["events"]) for log in logs)
    discards = sum(1 for log in logs for e in log["events"] if e["type"] == "discard")
    assert body["progress"] == {"events_done": 0, "events_total": total, "logs_done": 0, "logs_total": 2,
                                "decisions_done": 0, "decisions_total": discards}
    assert client.get(response.headers["Location"]).get_json()["status"] == "queued"
    assert queued(redis_db) == 1


@pytest.mark.slow  # over 2 s on 2 cores
def test_worker_finishes_job_with_audit_stats_and_player_summary(client, redis_db, monkeypatch):
    """Progress is visible mid-run (status started), then done == total; the result has a per-log audit,
    per-seat statistics named by player, and each player's totals across games."""
    logs = batch(12)
    players = [PLAYERS[0] if log["seats"] == 3 else ["ann", "bao", "cam", "dan"][:log["seats"]] for log in logs]
    location = submit(client, logs, players=players).headers["Location"]
    seen, review = [], replays.review

    def watched(log, *args):
        seen.append(client.get(location).get_json())
        return review(log, *args)

    monkeypatch.setattr(replays, "review", watched)
    assert run_worker(redis_db)
    body = client.get(location).get_json()
    total = sum(len(log["events"]) for log in logs)
    assert body["status"] == "finished" and body["ended_at"] and body["error"] is None
    discards = sum(1 for log in logs for e in log["events"] if e["type"] == "discard")
    assert body["progress"] == {"events_done": total, "events_total": total, "logs_done": 12, "logs_total": 12,
                                "decisions_done": discards, "decisions_total": discards}
    assert {s["status"] for s in seen} == {"started"}
    done = [s["progress"]["events_done"] for s in seen]
    assert done == sorted(done) and 0 < max(done) < total, done  # saved every PROGRESS_EVERY events

    result = body["result"]
    assert [r["index"] for r in result["logs"]] == list(range(12))
    assert all(r["valid"] and r["recorded_result_matches"] and r["violations"] == [] for r in result["logs"])
    for entry, log, names in zip(result["logs"], logs, players):
        assert entry["outcome"]["type"] == log["result"]["type"]
        assert [s["player"] for s in entry["seats"]] == names[:log["seats"]]
        assert [s["delta"] for s in entry["seats"]] == (log["result"].get("deltas") or [0] * log["seats"])
    summary = result["summary"]
    assert summary["games"] == summary["valid"] == 12
    assert sum(summary["outcomes"].values()) == 12
    for name, totals in summary["players"].items():
        seats = [s for r in result["logs"] for s in r["seats"] if s["player"] == name]
        running = [sum(s["delta"] or 0 for s in seats[:k + 1]) for k in range(len(seats))]
        decisions = sum(s["review"]["decisions"] for s in seats)
        agreed = sum(s["review"]["agreed"] for s in seats)
        claims, overall = totals.pop("claims"), totals.pop("overall")
        everyone = sorted(({"loss": d["expected_loss"], "game": r["index"], "event": d["event"]}
                           for r in result["logs"] for s in r["seats"] if s["player"] == name
                           for d in s["review"]["costliest"] + s["review"]["claims"]["costliest"]),
                          key=lambda d: (-d["loss"], d["game"], d["event"]))
        assert [{"loss": d["expected_loss"], "game": d["game"], "event": d["event"]}
                for d in totals.pop("costliest")] == everyone[:5]
        units = {s["review"]["loss_unit"] for s in seats if s["review"]["decisions"]}
        assert totals.pop("loss_unit") == (units.pop() if len(units) == 1 else "mixed")
        assert totals.pop("mean_loss") == round(totals["expected_loss"] / decisions, 4)
        assert totals == {"games": len(seats), "points": sum(s["delta"] or 0 for s in seats),
                          "wins": sum(s["won"] for s in seats), "violations": 0, "trajectory": running,
                          "decisions": decisions, "agreed": agreed,
                          "agreement_rate": pytest.approx(agreed / decisions, abs=1e-4),
                          "expected_loss": pytest.approx(sum(s["review"]["expected_loss"] for s in seats))}
        answered = sum(s["review"]["claims"]["decisions"] for s in seats)
        assert claims["decisions"] == answered == sum(len(s["claim_decisions"]) for s in seats)
        assert overall["decisions"] == decisions + answered
        assert overall["agreed"] == agreed + claims["agreed"]
    assert summary["players"]["ann"]["games"] == 12 and sum(p["points"] for p in summary["players"].values()) == 0


def test_cancel_queued_job(client, redis_db, monkeypatch):
    """DELETE of a queued job: 200 canceled with its end time, gone from the queue, and a worker never runs it."""
    calls = []
    monkeypatch.setattr(replays, "review", lambda log, *args: calls.append(log))
    location = submit(client, batch(1)).headers["Location"]
    response = client.delete(location)
    assert response.status_code == 200 and response.get_json()["status"] == "canceled"
    assert response.get_json()["ended_at"] is not None
    assert queued(redis_db) == 0
    assert run_worker(redis_db) is False and calls == []
    assert client.get(location).get_json()["status"] == "canceled"
    again = client.delete(location)
    assert again.status_code == 409 and again.get_json()["code"] == "job_not_cancelable"


def test_delete_finished_job_is_409(client, redis_db):
    """A finished job cannot be canceled: 409 problem, and it stays finished."""
    location = submit(client, batch(1)).headers["Location"]
    run_worker(redis_db)
    response = client.delete(location)
    assert response.status_code == 409 and response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "job_not_cancelable" and "finished" in response.get_json()["detail"]
    assert client.get(location).get_json()["status"] == "finished"


def test_idempotency_key_header_returns_the_same_job(client, redis_db):
    """The same Idempotency-Key gets the first job back (even once it has finished); one job is queued."""
    key = {"Idempotency-Key": "order-17"}
    first = submit(client, batch(1), key).get_json()
    second = submit(client, batch(1), key)
    assert second.status_code == 202 and second.get_json()["id"] == first["id"]
    assert queued(redis_db) == 1
    run_worker(redis_db)
    later = submit(client, batch(1), key).get_json()
    assert later["id"] == first["id"] and later["status"] == "finished"
    assert submit(client, batch(1), {"Idempotency-Key": "order-18"}).get_json()["id"] != first["id"]


def test_idempotency_key_reused_with_another_body_is_422(client, redis_db):
    """A key names one request: sent again with another body it is refused (422 idempotency_key_reused, nothing
    queued) instead of answering with the first job, whose result is another analysis's."""
    key = {"Idempotency-Key": "order-19"}
    first = submit(client, batch(1), key).get_json()
    reused = submit(client, batch(2), key)
    assert reused.status_code == 422, reused.get_json()
    body = reused.get_json()
    assert body["code"] == "idempotency_key_reused" and "Idempotency-Key" in body["errors"]
    assert submit(client, batch(1), key, players=[PLAYERS[0]]).status_code == 422
    assert queued(redis_db) == 1
    again = submit(client, batch(1), key)
    assert again.status_code == 202 and again.get_json()["id"] == first["id"]


def test_identical_payload_returns_the_same_job_and_another_payload_a_new_one(client, redis_db):
    """Without a key the payload is the key: the same body gets the same job, a different body a new one."""
    first = submit(client, batch(2), players=PLAYERS).get_json()
    assert submit(client, batch(2), players=PLAYERS).get_json()["id"] == first["id"]
    other = submit(client, batch(2), players=[["x", "y", "z"], PLAYERS[1]]).get_json()
    assert other["id"] != first["id"]
    assert queued(redis_db) == 2


def test_simultaneous_identical_requests_get_one_job(app, redis_db):
    """Eight identical requests at once: the key and the job are written in one watched transaction."""
    logs = batch(2)
    start = threading.Barrier(8)

    def post() -> str:
        client = app.test_client()
        start.wait(timeout=10)
        return submit(client, logs, headers={"Idempotency-Key": "race"}).get_json()["id"]

    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(lambda _: post(), range(8)))
    assert len(set(ids)) == 1
    assert queued(redis_db) == 1


@pytest.mark.parametrize(("change", "field"), [
    pytest.param({"dealer": 9}, "logs.1.dealer", id="dealer_not_a_seat"),
    pytest.param({"ruleset": "go-fish"}, "logs.1.ruleset", id="unknown_ruleset"),
    pytest.param({"events": [{"seat": 0, "type": "capture"}]}, "logs.1.events.0.type", id="chan_event_in_bga_log"),
])
def test_unreplayable_log_is_422_and_nothing_is_enqueued(client, redis_db, change, field):
    """A log that cannot be replayed is refused at submit, naming logs.N.<field>; no job, no idempotency key."""
    logs = [batch(1)[0], {**batch(1)[0], **change}]
    response = submit(client, logs)
    body = response.get_json()
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert field in body["errors"], body
    assert queued(redis_db) == 0 and redis_db.dbsize() == 0


@pytest.mark.parametrize("job_id", ["no-such-job", "a" * 65, "dots.are.not.ids"])
def test_unknown_job_is_404_problem(client, redis_db, job_id):
    """GET and DELETE of a job that does not exist (or cannot exist): 404 problem+json."""
    for response in (client.get(f"/v1/jobs/{job_id}"), client.delete(f"/v1/jobs/{job_id}")):
        assert response.status_code == 404 and response.mimetype == "application/problem+json"
        assert response.get_json()["code"] == "job_not_found"


def test_failing_job_ends_failed_after_its_retries(client, redis_db, monkeypatch):
    """A job that raises is retried (spec: 3 retries; intervals set to 0 here so no wait) and then ends failed
    with a problem-shaped error; the failure webhook is queued once, after the last attempt only."""
    attempts = []

    def broken(log, *args):
        attempts.append(1)
        raise RuntimeError("the audit broke")

    monkeypatch.setattr(replays, "review", broken)
    monkeypatch.setitem(SPECS, job_name(analyse_replays), replace(spec(analyse_replays), intervals=(0,)))
    location = submit(client, batch(1), callback_url="http://127.0.0.1:9/hook").headers["Location"]
    assert run_worker(redis_db, (QUEUE_REPLAYS,))
    body = client.get(location).get_json()
    assert len(attempts) == 4 and body["status"] == "failed" and body["retries_left"] == 0
    assert body["result"] is None and body["error"] == {
        "type": "/problems/job_failed", "title": "Job failed", "status": 500,
        "detail": "RuntimeError: the audit broke", "code": "job_failed"}
    assert queued(redis_db, QUEUE_WEBHOOKS) == 1
    webhook = queue(QUEUE_WEBHOOKS, redis_db).jobs[0]
    assert webhook.args[1]["status"] == "failed" and webhook.args[1]["error"]["code"] == "job_failed"


@pytest.fixture
def receiver(monkeypatch) -> Iterator[Receiver]:
    """A webhook receiver on 127.0.0.1; the worker in this process may deliver to loopback."""
    monkeypatch.setenv(ALLOW_PRIVATE_ENV, "true")
    with receiving() as record:
        yield record


def test_webhook_is_signed_with_the_shared_secret(client, redis_db, receiver, monkeypatch):
    """The finished job queues a webhook job; delivered, its body carries the result and its signature
    verifies with the shared secret (and fails with another secret or an altered body)."""
    monkeypatch.setenv(SECRET_ENV, WEBHOOK_SECRET)
    job = submit(client, batch(2), callback_url=receiver.url).get_json()
    assert run_worker(redis_db, (QUEUE_REPLAYS,)) and receiver.requests == []
    assert queued(redis_db, QUEUE_WEBHOOKS) == 1
    assert run_worker(redis_db)
    assert len(receiver.requests) == 1
    headers, body = receiver.requests[0]
    assert headers["Content-Type"] == "application/json"
    assert verify(WEBHOOK_SECRET, headers[SIGNATURE_HEADER], body)
    assert not verify("another-secret", headers[SIGNATURE_HEADER], body)
    assert not verify(WEBHOOK_SECRET, headers[SIGNATURE_HEADER], body.replace(b"finished", b"failed"))
    assert not verify(WEBHOOK_SECRET, headers[SIGNATURE_HEADER], body, now=time.time() + 3600)  # a replay
    payload = json.loads(body)
    assert payload["id"] == job["id"] and payload["kind"] == "replay" and payload["status"] == "finished"
    assert payload["result"] == client.get(f"/v1/jobs/{job['id']}").get_json()["result"]


@pytest.mark.slow  # over 2 s on 2 cores
def test_refused_webhook_is_retried(client, redis_db, receiver, monkeypatch):
    """A receiver answering 500: the webhook job is scheduled again with one retry fewer, and delivered
    once its back-off has passed."""
    monkeypatch.setenv(SECRET_ENV, WEBHOOK_SECRET)
    receiver.answers = [500]
    submit(client, batch(1), callback_url=receiver.url)
    run_worker(redis_db)
    assert len(receiver.requests) == 1
    scheduled = ScheduledJobRegistry(queue=queue(QUEUE_WEBHOOKS, redis_db))
    [job_id] = scheduled.get_job_ids()
    webhook = fetch(job_id, redis_db)
    assert webhook.func_name == f"{deliver_webhook.__module__}.deliver_webhook"
    assert webhook.get_status() == "scheduled" and webhook.retries_left == spec(deliver_webhook).retries - 1
    wait = scheduled.get_scheduled_time(job_id).timestamp() - time.time()
    assert 0 < wait <= spec(deliver_webhook).intervals[0]
    time.sleep(wait + 0.1)
    assert run_worker(redis_db, with_scheduler=True)  # the scheduler moves it back to the queue; then it runs
    assert len(receiver.requests) == 2 and webhook.get_status(refresh=True) == "finished"
    assert all(verify(WEBHOOK_SECRET, h[SIGNATURE_HEADER], b) for h, b in receiver.requests)


def test_webhook_gives_up_after_its_retries(client, redis_db, receiver, monkeypatch):
    """A receiver that always answers 500 gets 1 + 5 attempts (back-off set to 0 here), then the webhook job
    is failed with the refusal as its reason."""
    monkeypatch.setenv(SECRET_ENV, WEBHOOK_SECRET)
    monkeypatch.setitem(SPECS, job_name(deliver_webhook), replace(spec(deliver_webhook), intervals=(0,)))
    receiver.answers = [500] * 10
    submit(client, batch(1), callback_url=receiver.url)
    run_worker(redis_db)
    assert len(receiver.requests) == 1 + spec(deliver_webhook).retries
    [job_id] = FailedJobRegistry(queue=queue(QUEUE_WEBHOOKS, redis_db)).get_job_ids()
    reason = fetch(job_id, redis_db).latest_result().exc_string.strip().splitlines()[-1]
    assert reason == f"workers.webhooks.WebhookRefused: {receiver.url} answered 500"


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/hook", "http://10.1.2.3/hook", "http://[::1]/hook",
                                 "http://169.254.169.254/latest"])
def test_callback_to_a_private_address_is_refused(app, redis_db, url):
    """Unless WEBHOOK_ALLOW_PRIVATE is set, a webhook may not point the service at loopback or private networks."""
    app.config["WEBHOOK_ALLOW_PRIVATE"] = False
    client = app.test_client()
    response = submit(client, batch(1), callback_url=url)
    assert response.status_code == 422 and response.get_json()["code"] == "invalid_callback_url"
    assert queued(redis_db) == 0
