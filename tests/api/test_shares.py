"""Stored games (POST, GET, DELETE /v1/shares...): what is stored reads back byte for byte under a strong ETag; the
two reads of a game are open with API keys on and the rest needs a key; only the owner deletes, and the link then
answers 410; the size, the quota and the retention hold; a replay job's analysis is stored with the logs; a round
answers what POST /v1/audits?tables=true does."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from redis import Redis

from service import shares
from service.http.auth import entry
from service.jobs import replication
from service.replay.families import simulate
from tests.support.jobs import job_app, run_worker, search_body

KEYS = {"site-a": "site-a-secret-0123456789abcdef", "site-b": "site-b-secret-0123456789abcdef"}
KEYED = {"API_KEYS": ",".join(entry(name, key) for name, key in KEYS.items())}
FOUR_COLOR_LOG = simulate("bga-taiwan", 11, 4, "greedy")
CHAN_LOG = simulate("cardavia-chan", 3)
GAME = {"logs": [FOUR_COLOR_LOG, CHAN_LOG], "title": "Friday night"}
UNKNOWN_ID = "A" * 24


def key(name: str) -> dict[str, str]:
    """The headers carrying one of KEYS."""
    return {"X-API-Key": KEYS[name]}


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """The problem document of an answer, checked to be `code` with `status`."""
    body = response.get_json()
    assert (response.status_code, response.mimetype, body["code"]) == (status, "application/problem+json", code), body
    return body


@pytest.fixture
def share_app(redis_db: Redis, redis_url: str) -> Iterator[Callable[..., Flask]]:
    """A maker of apps on the test Redis, with settings on top; their Redis clients closed afterwards."""
    with ExitStack() as stack:
        yield lambda **config: stack.enter_context(job_app(redis_url, **config))


@pytest.fixture
def client(share_app) -> FlaskClient:
    """A client of an app without keys, on the test Redis."""
    return share_app().test_client()


def store(client: FlaskClient, body: dict[str, Any] = GAME, **kwargs: Any) -> dict[str, Any]:
    """Store a game; its summary."""
    response = client.post("/v1/shares", json=body, **kwargs)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_storing_a_game_answers_201_its_location_and_its_summary(client, redis_db):
    """201, Location /v1/shares/{id}, and where to read, view and embed it, its times, title, rounds and size."""
    response = client.post("/v1/shares", json=GAME)
    assert response.status_code == 201
    summary = response.get_json()
    share_id = summary["id"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{24}", share_id)
    assert response.headers["Location"] == f"/v1/shares/{share_id}"
    assert summary["url"] == f"http://localhost/ui/replay/{share_id}"
    assert summary["embed_url"] == f"http://localhost/embed/replay/{share_id}"
    assert summary["api_url"] == f"http://localhost/v1/shares/{share_id}"
    created, expires = (datetime.fromisoformat(summary[name]) for name in ("created_at", "expires_at"))
    assert expires - created == timedelta(days=365) and abs(datetime.now(created.tzinfo) - created).total_seconds() < 60
    assert (summary["title"], summary["rounds"]) == ("Friday night", 2)
    assert summary["size"] == len(shares.read(redis_db, share_id).body) > 5000


def test_a_stored_game_reads_back_the_same_bytes_under_a_strong_etag(client):
    """GET answers the same bytes twice, the logs as stored, a strong ETag and 5 minutes of public caching;
    If-None-Match with it answers 304 without a body."""
    summary = store(client)
    first, second = (client.get(f"/v1/shares/{summary['id']}") for _ in range(2))
    assert first.status_code == second.status_code == 200
    assert first.get_data() == second.get_data()
    answer = first.get_json()
    assert answer == {**summary, "logs": GAME["logs"], "analysis": None}
    etag = first.headers["ETag"]
    assert etag == second.headers["ETag"] and not etag.startswith("W/")
    assert first.cache_control.public and first.cache_control.max_age == 300
    again = client.get(f"/v1/shares/{summary['id']}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""


def test_with_keys_a_game_and_its_rounds_are_open_and_the_rest_needs_a_key(share_app):
    """The id is the capability: GET of a game and of its rounds need no key; storing, listing and deleting do."""
    client = share_app(**KEYED).test_client()
    problem(client.post("/v1/shares", json=GAME), 401, "missing_api_key")
    share_id = store(client, headers=key("site-a"))["id"]
    assert client.get(f"/v1/shares/{share_id}").status_code == 200
    assert client.get(f"/v1/shares/{share_id}/rounds/1").status_code == 200
    assert client.head(f"/v1/shares/{share_id}").status_code == 200
    problem(client.get("/v1/shares"), 401, "missing_api_key")
    problem(client.delete(f"/v1/shares/{share_id}"), 401, "missing_api_key")
    assert client.get(f"/v1/shares/{share_id}").status_code == 200  # still there


def test_only_the_owner_deletes_a_game_and_its_link_then_answers_410(share_app, redis_db):
    """Another key's DELETE is 403 share_not_yours; the owner's is 204, then the game and its rounds answer 410
    share_deleted (as a second DELETE does) for as long as the game would have lived."""
    client = share_app(**KEYED).test_client()
    share_id = store(client, headers=key("site-a"))["id"]
    problem(client.delete(f"/v1/shares/{share_id}", headers=key("site-b")), 403, "share_not_yours")
    assert client.get(f"/v1/shares/{share_id}").status_code == 200
    deleted = client.delete(f"/v1/shares/{share_id}", headers=key("site-a"))
    assert deleted.status_code == 204 and deleted.get_data() == b""
    problem(client.get(f"/v1/shares/{share_id}"), 410, "share_deleted")
    problem(client.get(f"/v1/shares/{share_id}/rounds/0"), 410, "share_deleted")
    problem(client.delete(f"/v1/shares/{share_id}", headers=key("site-a")), 410, "share_deleted")
    assert 365 * 86400 - 60 < redis_db.ttl(shares.DELETED_PREFIX + share_id) <= 365 * 86400
    assert client.get("/v1/shares", headers=key("site-a")).get_json() == {"shares": []}


def test_without_keys_the_owner_is_the_client_address(client):
    """Without keys a game is its client address's: another address may read it but not delete it."""
    share_id = store(client)["id"]
    elsewhere = {"environ_base": {"REMOTE_ADDR": "192.0.2.7"}}
    assert client.get(f"/v1/shares/{share_id}", **elsewhere).status_code == 200
    problem(client.delete(f"/v1/shares/{share_id}", **elsewhere), 403, "share_not_yours")
    assert client.get("/v1/shares", **elsewhere).get_json() == {"shares": []}
    assert client.delete(f"/v1/shares/{share_id}").status_code == 204


@pytest.mark.parametrize("path", ["/v1/shares/{id}", "/v1/shares/{id}/rounds/0"], ids=["game", "round"])
@pytest.mark.parametrize("method", ["GET", "DELETE"])
def test_an_unknown_id_is_404_share_not_found(client, path, method):
    """A well-formed id no game has: 404 share_not_found (the round's DELETE: no such method, 405)."""
    response = client.open(path.format(id=UNKNOWN_ID), method=method)
    if method == "DELETE" and "rounds" in path:
        assert response.status_code == 405
    else:
        problem(response, 404, "share_not_found")


@pytest.mark.parametrize("share_id", ["short", "A" * 25, "A" * 23 + "!", "A" * 23 + ".", "Ä" * 24])
def test_a_malformed_id_is_404_without_asking_redis(share_app, dead_redis_url, share_id):
    """An id no game can have is share_not_found, answered without Redis (the app's Redis is down here)."""
    client = share_app(REDIS_URL=dead_redis_url).test_client()
    for method in ("GET", "DELETE"):
        problem(client.open(f"/v1/shares/{share_id}", method=method), 404, "share_not_found")
    problem(client.get(f"/v1/shares/{share_id}/rounds/0"), 404, "share_not_found")


def test_redis_down_is_503_jobs_unavailable(share_app, dead_redis_url):
    """Storing and reading need Redis: down, 503 with Retry-After, as the job endpoints answer."""
    client = share_app(REDIS_URL=dead_redis_url).test_client()
    for response in (client.post("/v1/shares", json=GAME), client.get(f"/v1/shares/{UNKNOWN_ID}"),
                     client.get("/v1/shares")):
        assert int(problem(response, 503, "jobs_unavailable")["status"]) == 503
        assert response.headers["Retry-After"]


def test_a_game_no_replica_acknowledges_is_503_not_replicated(share_app, monkeypatch):
    """With a replica wanted and none acknowledging in time: 503 not_replicated with Retry-After, for a store and for
    a deletion, both done all the same (the listing says so)."""
    client = share_app(SUBMIT_REPLICAS=1, SUBMIT_REPLICA_WAIT_MS=20).test_client()
    kept = store(client)
    monkeypatch.setattr(replication, "attached_replicas", lambda _: 1)
    response = client.post("/v1/shares", json=GAME)
    assert "stored game" in problem(response, 503, "not_replicated")["detail"] and response.headers["Retry-After"]
    problem(client.delete(f"/v1/shares/{kept['id']}"), 503, "not_replicated")
    listed = [share["id"] for share in client.get("/v1/shares").get_json()["shares"]]
    assert len(listed) == 1 and kept["id"] not in listed


def test_a_game_over_share_max_bytes_is_413_share_too_large(share_app):
    """The logs (and analysis) as JSON over SHARE_MAX_BYTES: 413 share_too_large, nothing stored; one under it is
    stored."""
    client = share_app(SHARE_MAX_BYTES=4096).test_client()
    body = problem(client.post("/v1/shares", json=GAME), 413, "share_too_large")
    assert "4096" in body["detail"]
    assert client.get("/v1/shares").get_json() == {"shares": []}
    assert store(client, {"logs": [CHAN_LOG]})["size"] <= 4096


def test_max_shares_is_429_too_many_shares_until_one_is_deleted_or_expires(share_app, redis_db):
    """At MAX_SHARES live games one more is 429 too_many_shares; a deletion frees a place, and so does a game that
    expired (pruned from the owner's index)."""
    client = share_app(MAX_SHARES=2).test_client()
    first, second = store(client)["id"], store(client)["id"]
    problem(client.post("/v1/shares", json=GAME), 429, "too_many_shares")
    assert client.delete(f"/v1/shares/{first}").status_code == 204
    store(client)
    problem(client.post("/v1/shares", json=GAME), 429, "too_many_shares")
    redis_db.delete(shares.share_key(second))  # as its retention ending would
    store(client)
    assert len(client.get("/v1/shares").get_json()["shares"]) == 2


@pytest.mark.parametrize(("log", "field", "code"), [
    ({k: v for k, v in FOUR_COLOR_LOG.items() if k != "ruleset"}, "logs.1.ruleset", "invalid_request"),
    ({**FOUR_COLOR_LOG, "events": [{**FOUR_COLOR_LOG["events"][0], "card": 7}]}, "logs.1.events.0.card",
     "invalid_request"),
    ({**FOUR_COLOR_LOG, "events": [{"seat": 0, "type": "capture"}]}, "logs.1.events.0.type", "invalid_log"),
], ids=["missing-ruleset", "card-not-a-string", "not-replayable"])
def test_a_log_that_fails_validation_is_422_naming_the_field(client, log, field, code):
    """A round the game-log schema refuses, or one that cannot be replayed: 422 naming `logs.N.<field>`, and nothing
    is stored."""
    body = problem(client.post("/v1/shares", json={"logs": [CHAN_LOG, log]}), 422, code)
    assert field in body["errors"], body
    assert client.get("/v1/shares").get_json() == {"shares": []}


@pytest.mark.parametrize(("body", "field"), [({"logs": []}, "logs"), ({"logs": [CHAN_LOG] * 51}, "logs"),
                                             ({**GAME, "title": "x" * 201}, "title"), ({**GAME, "job": ""}, "job")])
def test_the_bounds_of_a_game_are_422(client, body, field):
    """1 to 50 rounds, a title of 200 characters at most, a job id that is not empty."""
    assert field in problem(client.post("/v1/shares", json=body), 422, "invalid_request")["errors"]


def test_a_finished_replay_jobs_analysis_is_stored_and_read_back(client, redis_db):
    """`job`: a finished replay of this caller's: its result is the game's `analysis`, as GET /v1/jobs/{id} shows it,
    in the reader's language too; it counts in the size."""
    created = client.post("/v1/replays", json={"logs": [CHAN_LOG], "review": {"mode": "exact"}})
    assert created.status_code == 202 and run_worker(redis_db)
    job_id = created.get_json()["id"]
    plain = store(client, {"logs": [CHAN_LOG]})
    summary = store(client, {"logs": [CHAN_LOG], "job": job_id})
    assert summary["size"] > plain["size"] + 1000
    for language in ("en", "vi"):
        headers = {"Accept-Language": language}
        result = client.get(f"/v1/jobs/{job_id}", headers=headers).get_json()["result"]
        answer = client.get(f"/v1/shares/{summary['id']}", headers=headers)
        assert answer.get_json()["analysis"] == result
        assert "Accept-Language" in answer.headers["Vary"]
    reasons = [d["reason"] for s in result["logs"][0]["seats"] for d in s["decisions"] if d.get("reason")]
    assert reasons, "no text to read in another language: the check above shows nothing"


def test_a_job_that_is_not_a_finished_replay_of_the_caller_is_409_job_not_shareable(share_app):
    """Another key's replay, a replay not finished yet, a search, and an id no job has: 409 job_not_shareable, and
    nothing is stored."""
    client = share_app(**KEYED).test_client()
    theirs = client.post("/v1/replays", json={"logs": [CHAN_LOG]}, headers=key("site-b")).get_json()["id"]
    queued = client.post("/v1/replays", json={"logs": [CHAN_LOG]}, headers=key("site-a")).get_json()["id"]
    search = client.post("/v1/searches", json=search_body(), headers=key("site-a")).get_json()["id"]
    for job_id, said in ((theirs, "no job of this caller's"), (queued, "it is queued"), (search, "a search"),
                         ("no-such-job", "no job of this caller's")):
        body = problem(client.post("/v1/shares", json={"logs": [CHAN_LOG], "job": job_id}, headers=key("site-a")),
                       409, "job_not_shareable")
        assert said in body["detail"], body
    assert client.get("/v1/shares", headers=key("site-a")).get_json() == {"shares": []}


@pytest.mark.parametrize("days", [2, 0])
def test_a_game_lives_share_retention_days(share_app, redis_db, days):
    """SHARE_RETENTION_DAYS: the game's Redis hash expires that many days after it is stored (`expires_at` says
    when); 0 keeps it until it is deleted (no TTL, `expires_at` null)."""
    client = share_app(SHARE_RETENTION_DAYS=days).test_client()
    summary = store(client)
    ttl = redis_db.ttl(shares.share_key(summary["id"]))
    index = redis_db.ttl(shares.index_key("addr:127.0.0.1"))
    if days:
        assert days * 86400 - 60 < ttl <= days * 86400 and days * 86400 - 60 < index <= days * 86400
        created, expires = (datetime.fromisoformat(summary[name]) for name in ("created_at", "expires_at"))
        assert expires - created == timedelta(days=days)
    else:
        assert (ttl, index, summary["expires_at"]) == (-1, -1, None)
        assert client.delete(f"/v1/shares/{summary['id']}").status_code == 204
        assert 30 * 86400 - 60 < redis_db.ttl(shares.DELETED_PREFIX + summary["id"]) <= 30 * 86400


@pytest.mark.parametrize("language", ["en", "vi"])
def test_a_round_answers_what_the_audit_answers_with_its_tables(client, language):
    """GET /v1/shares/{id}/rounds/{n} is POST /v1/audits?tables=true of that round, byte for byte, in the reader's
    language; cacheable under a strong ETag."""
    share_id = store(client)["id"]
    headers = {"Accept-Language": language}
    for n, log in enumerate(GAME["logs"]):
        round_ = client.get(f"/v1/shares/{share_id}/rounds/{n}", headers=headers)
        audit = client.post("/v1/audits?tables=true", json=log, headers=headers)
        assert round_.status_code == audit.status_code == 200
        assert round_.get_data() == audit.get_data() and round_.get_json()["tables"]
        assert round_.cache_control.public and round_.cache_control.max_age == 300
        again = client.get(f"/v1/shares/{share_id}/rounds/{n}",
                           headers={**headers, "If-None-Match": round_.headers["ETag"]})
        assert again.status_code == 304


@pytest.mark.parametrize("n", ["2", "99", "-1", "x"])
def test_a_round_out_of_range_is_404_not_found(client, n):
    """A game of two rounds has rounds 0 and 1: any other is 404 not_found."""
    share_id = store(client)["id"]
    problem(client.get(f"/v1/shares/{share_id}/rounds/{n}"), 404, "not_found")


def test_the_listing_shows_the_callers_own_games_newest_first(share_app):
    """GET /v1/shares: the caller's games (not another key's), newest first, as their summaries; a deleted game
    leaves it."""
    client = share_app(**KEYED).test_client()
    older = store(client, headers=key("site-a"))
    newer = store(client, {"logs": [CHAN_LOG]}, headers=key("site-a"))
    theirs = store(client, headers=key("site-b"))
    assert client.get("/v1/shares", headers=key("site-a")).get_json() == {"shares": [newer, older]}
    assert client.get("/v1/shares", headers=key("site-b")).get_json() == {"shares": [theirs]}
    assert client.delete(f"/v1/shares/{newer['id']}", headers=key("site-a")).status_code == 204
    assert client.get("/v1/shares", headers=key("site-a")).get_json() == {"shares": [older]}


def test_a_store_sent_again_with_its_idempotency_key_answers_the_same_game(share_app, monkeypatch):
    """A store that got no answer, or a 503 not_replicated, is sent again with the same Idempotency-Key and body: the
    same game, one of them kept. The same key with another body: 422 idempotency_key_reused naming the header.
    Without a key, each store is a game of its own; a game deleted since its key named it is stored anew."""
    client = share_app(SUBMIT_REPLICAS=1, SUBMIT_REPLICA_WAIT_MS=20).test_client()
    headers = {"Idempotency-Key": "friday-1"}
    monkeypatch.setattr(replication, "attached_replicas", lambda _: 1)  # a replica that never acknowledges
    problem(client.post("/v1/shares", json=GAME, headers=headers), 503, "not_replicated")
    monkeypatch.setattr(replication, "attached_replicas", lambda _: 0)
    again = store(client, headers=headers)
    assert store(client, headers=headers)["id"] == again["id"]
    assert [s["id"] for s in client.get("/v1/shares").get_json()["shares"]] == [again["id"]]
    reused = problem(client.post("/v1/shares", json={**GAME, "title": "Saturday"}, headers=headers), 422,
                     "idempotency_key_reused")
    assert list(reused["errors"]) == ["Idempotency-Key"]
    assert store(client)["id"] != store(client)["id"]  # no key: two games
    assert client.delete(f"/v1/shares/{again['id']}").status_code == 204
    assert store(client, headers=headers)["id"] != again["id"]


def test_an_analysis_of_other_rounds_is_409_job_not_shareable(client, redis_db):
    """A finished replay of these very rounds is stored with them; one of other rounds would annotate moves never made
    here: 409 job_not_shareable, nothing stored."""
    created = client.post("/v1/replays", json={"logs": [CHAN_LOG], "review": {"mode": "exact"}})
    assert created.status_code == 202 and run_worker(redis_db)
    body = problem(client.post("/v1/shares", json={"logs": [FOUR_COLOR_LOG], "job": created.get_json()["id"]}),
                   409, "job_not_shareable")
    assert "other rounds" in body["detail"]
    assert client.get("/v1/shares").get_json() == {"shares": []}
