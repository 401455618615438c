"""A replay job's reasons are stored language-neutral and translated when the result is read: the same finished
job reads in English and in Vietnamese, every reviewed decision with its reason in the reader's language, the
stored messages never shown; its webhook payload carries no stored message."""

from __future__ import annotations

import json

from service.jobs.pages import read
from service.jobs.queues import fetch
from service.rules.text import STORED
from tests.support.jobs import batch, run_worker
from tests.support.pages import planted
from workers import webhooks
from workers.webhooks import notify_success


def decisions(result: dict) -> list[dict]:
    """Every reviewed decision (discards and answers to a public card) of a replay result."""
    return [d for log in result["logs"] for seat in log["seats"]
            for d in (seat["decisions"] or []) + (seat["claim_decisions"] or [])]


def test_a_finished_review_reads_in_each_language(client, redis_db, monkeypatch):
    location = client.post("/v1/replays", json={"logs": batch(2)}).headers["Location"]
    assert run_worker(redis_db)
    english = client.get(location)
    vietnamese = client.get(location, headers={"Accept-Language": "vi"})
    assert english.headers["Content-Language"] == "en" and vietnamese.headers["Content-Language"] == "vi"
    en, vi = decisions(english.get_json()["result"]), decisions(vietnamese.get_json()["result"])
    assert en and len(en) == len(vi)
    for one, other in zip(en, vi):
        assert {k: v for k, v in one.items() if k != "reason"} == {k: v for k, v in other.items() if k != "reason"}
        assert one["reason"] != other["reason"]  # every reason is a message the catalogs translate
    assert STORED not in english.get_data(as_text=True) and STORED not in vietnamese.get_data(as_text=True)
    # stored once, language-neutral: the messages are in Redis, and the webhook gets the English
    job = fetch(location.rsplit("/", 1)[-1], redis_db)
    assert STORED in json.dumps(read(redis_db, job))  # the per-log entries as stored
    sent: list[dict] = []
    job.meta["callback_url"] = "http://hook.example/"
    monkeypatch.setattr(webhooks, "enqueue",
                        lambda name, connection, url, payload, ttl, pipeline=None: sent.append(payload))
    notify_success(job, redis_db, job.return_value())
    assert sent and STORED not in json.dumps(sent[0])


def test_a_violation_of_a_finished_replay_is_stored_with_its_message_and_read_in_english(client, redis_db):
    # a discard of a card the seat was never dealt breaks not_in_hand there (tests/support/pages.py)
    log, index, card = planted()
    seat = log["events"][index]["seat"]
    location = client.post("/v1/replays", json={"logs": [log]}).headers["Location"]
    assert run_worker(redis_db)
    english = client.get(location)
    (violation,) = english.get_json()["result"]["logs"][0]["violations"]
    assert violation == {"event": index, "seat": seat, "code": "not_in_hand",
                         "message": f"{card} is not in seat {seat}'s hand"}
    assert STORED not in english.get_data(as_text=True)
    vietnamese = client.get(location, headers={"Accept-Language": "vi"}).get_json()["result"]["logs"][0]
    assert {k: v for k, v in vietnamese["violations"][0].items() if k != "message"} == {
        k: v for k, v in violation.items() if k != "message"}
    (stored_violation,) = read(redis_db, fetch(location.rsplit("/", 1)[-1], redis_db))["logs"][0]["violations"]
    assert stored_violation["message"] == violation["message"]
    assert stored_violation["message" + STORED] == {"message": "{card} is not in seat {seat}'s hand",
                                                    "params": {"card": card, "seat": seat}}
