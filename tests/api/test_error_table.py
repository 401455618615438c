"""The error table of docs/api.md is true: it lists exactly the codes of service/http/problems.py with their statuses,
and every code in it is produced here by a real request (a table of request -> code)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.app import create_app
from service.http.problems import PROBLEMS
from service.replay.families import simulate

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
ROW = re.compile(r"^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \| ([^|]+) \|", re.M)
#: A failed job's `error` is no answer of its own: tests/workers/test_jobs.py fails a job for real.
JOB_ERROR_ONLY = {"job_failed"}
#: Answered by gunicorn's workers before the app reads the request: tests/test_gunicorn_errors.py sends them to a
#: real gunicorn.
SERVER_ONLY = {"malformed_request", "request_line_too_long", "header_fields_too_large", "expectation_failed",
               "unsupported_transfer_coding"}

DISCARD_HAND = ["rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS", "yS", "gS", "wE", "wE",
                "gH", "gH", "yA", "wC"]
DECISION = {"ruleset": "bga-taiwan", "seats": 4, "seat": 2, "hand": DISCARD_HAND}
GENERALS_AND_FLOWERS = [f"{c}G" for c in "rygw" for _ in range(4)] + ["F1", "F2", "F3", "F4", "F5"]
CHAN_PLAIN = "2m 2m 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 2s 2c 4m 4c 5m 5s 9s 9c".split()
KEYS = "ci:" + "0" * 64
LOG = simulate("bga-taiwan", 11, 4, "greedy")


def documented_codes() -> dict[str, str]:
    """Each code of the error table of docs/api.md with its status cell."""
    text = API_DOC.read_text(encoding="utf-8")
    table = text[text.index("\n## Errors\n"):text.index("\n## Calling from a browser\n")]
    return {code.strip("`"): status.strip() for codes, status in ROW.findall(table) for code in codes.split(", ")}


def test_documented_table_lists_exactly_the_problem_codes_with_their_status():
    """One table in code, the one of docs/api.md matched to it: same codes, and each row names the code's statuses."""
    documented = documented_codes()
    assert set(documented) == set(PROBLEMS)
    for code, entry in PROBLEMS.items():
        statuses = {int(s) for s in re.findall(r"\d{3}", documented[code])}
        assert entry.status in statuses, code
        assert entry.other_status is None or entry.other_status in statuses, code


# (config, method, path, request keyword arguments) -> (status, code). "redis" configs get the test database.
CASES = {
    "malformed_json": ({}, "POST", "/v1/hu", {"data": "{not json", "content_type": "application/json"}, 400),
    "unsupported_media_type": ({}, "POST", "/v1/hu", {"data": '{"ruleset": "bga-taiwan", "hand": []}',
                                                      "content_type": "text/plain"}, 415),
    "invalid_request": ({}, "POST", "/v1/settlements", {"json": {
        "ruleset": "bga-taiwan", "seats": 5, "winner": 0, "hand": ["rG"]}}, 422),
    "invalid_field": ({"REDIS_URL": "redis"}, "POST", "/v1/searches", {"json": {**DECISION, "history": {}}}, 422),
    "unknown_ruleset": ({}, "POST", "/v1/hu", {"json": {"ruleset": "mahjong", "hand": []}}, 422),
    "unknown_option": ({}, "POST", "/v1/hu", {"json": {"ruleset": "bga-taiwan", "hand": [], "options": {"x": 1}}},
                       422),
    "invalid_option": ({}, "POST", "/v1/hu", {"json": {"ruleset": "bga-taiwan", "hand": [],
                                                       "options": {"threshold": "10"}}}, 422),
    "unknown_card": ({}, "POST", "/v1/hu", {"json": {"ruleset": "bga-taiwan", "hand": ["F1"]}}, 422),
    "impossible_card_count": ({}, "POST", "/v1/hu", {"json": {"ruleset": "bga-taiwan", "hand": ["yC"] * 4,
                                                              "public_card": "yC"}}, 422),
    "too_many_cards": ({}, "POST", "/v1/hu", {"json": {"ruleset": "bga-taiwan", "hand": [
        f"{c}{k}" for c in "rygw" for k in "ACHP" for _ in range(2)][:22]}}, 422),
    "invalid_meld": ({}, "POST", "/v1/hu", {"json": {"ruleset": "bga-taiwan", "hand": [],
                                                     "exposed": [{"kind": "triple", "cards": ["rG"] * 3}]}}, 422),
    "invalid_seat": ({}, "POST", "/v1/settlements", {"json": {"ruleset": "cardavia-flowers", "seats": 3,
                                                              "winner": 0, "hand": ["F1"]}}, 422),
    "missing_public_card": ({}, "POST", "/v1/melds", {"json": {"ruleset": "bga-taiwan", "hand": ["rA"],
                                                               "seat_role": "next"}}, 422),
    "not_a_win": ({}, "POST", "/v1/settlements", {"json": {"ruleset": "bga-taiwan", "seats": 4, "winner": 0,
                                                           "hand": ["rA", "yA"]}}, 422),
    "not_in_ruleset": ({}, "POST", "/v1/settlements", {"json": {"ruleset": "cardavia-flowers", "seats": 4,
                                                                "winner": 0, "hand": ["F1"], "lucky_card": "rG"}},
                       422),
    "deltas_not_zero_sum": ({}, "POST", "/v1/matches", {"json": {"ruleset": "bga-taiwan", "seats": 4,
                                                                 "rounds": [[1, 0, 0, 0]]}}, 422),
    "inconsistent_context": ({}, "POST", "/v1/settlements", {"json": {
        "ruleset": "cardavia-chan", "seats": 4, "winner": 0, "hand": CHAN_PLAIN,
        "context": {"heavenly": True, "own_gate": True}}}, 422),
    "missing_api_key": ({"API_KEYS": KEYS}, "GET", "/v1/rulesets", {}, 401),
    "invalid_api_key": ({"API_KEYS": KEYS}, "GET", "/v1/rulesets", {"headers": {"X-API-Key": "x" * 20}}, 403),
    "rate_limited": ({"RATE_LIMIT": "1/hour", "REDIS_URL": "redis"}, "GET", "/v1/rulesets", {}, 429),
    "payload_too_large": ({"MAX_CONTENT_LENGTH": 100}, "POST", "/v1/hu", {"json": {"ruleset": "bga-taiwan",
                                                                                   "hand": ["rA"] * 40}}, 413),
    "not_found": ({}, "GET", "/v1/nothing", {}, 404),
    "method_not_allowed": ({}, "GET", "/v1/hu", {}, 405),
    "job_not_found": ({"REDIS_URL": "redis"}, "GET", "/v1/jobs/no-such-job", {}, 404),
    "job_not_cancelable": ({"REDIS_URL": "redis"}, "DELETE", "canceled job", {}, 409),
    "share_not_found": ({"REDIS_URL": "redis"}, "GET", "/v1/shares/" + "A" * 24, {}, 404),
    "share_deleted": ({"REDIS_URL": "redis"}, "GET", "deleted share", {}, 410),
    "share_not_yours": ({"REDIS_URL": "redis"}, "DELETE", "stored share", {"environ_base": {
        "REMOTE_ADDR": "192.0.2.7"}}, 403),
    "share_too_large": ({"REDIS_URL": "redis", "SHARE_MAX_BYTES": 1024}, "POST", "/v1/shares", {"json": {
        "logs": [LOG]}}, 413),
    "too_many_shares": ({"REDIS_URL": "redis", "MAX_SHARES": 1}, "POST", "/v1/shares", {"json": {"logs": [LOG]}}, 429),
    "job_not_shareable": ({"REDIS_URL": "redis"}, "POST", "/v1/shares", {"json": {"logs": [LOG], "job": "no-such-job"}},
                          409),
    "not_embeddable": ({}, "GET", "/oembed", {"query_string": {"url": "javascript:alert(1)"}}, 404),
    "format_not_implemented": ({}, "GET", "/oembed", {"query_string": {"url": "http://localhost/ui?ruleset=x",
                                                                       "format": "xml"}}, 501),
    "webhooks_disabled": ({"REDIS_URL": "redis"}, "POST", "/v1/replays", {"json": {
        "logs": [LOG], "callback_url": "https://example.org/hook"}}, 422),
    "invalid_callback_url": ({"REDIS_URL": "redis", "WEBHOOK_SECRET": "s" * 16}, "POST", "/v1/replays", {"json": {
        "logs": [LOG], "callback_url": "http://127.0.0.1/hook"}}, 422),
    "wrong_card_count": ({}, "POST", "/v1/discards", {"json": {**DECISION, "hand": DISCARD_HAND[:5]}}, 422),
    "illegal_discard": ({"REDIS_URL": "redis"}, "POST", "/v1/searches", {"json": {**DECISION, "candidates": ["rG"]}},
                        422),
    "no_legal_discard": ({"REDIS_URL": "redis"}, "POST", "/v1/searches", {"json": {
        "ruleset": "cardavia-flowers", "seats": 4, "seat": 0, "hand": GENERALS_AND_FLOWERS}}, 422),
    "duplicate_candidate": ({"REDIS_URL": "redis"}, "POST", "/v1/searches", {"json": {
        **DECISION, "candidates": ["yA", "yA"]}}, 422),
    "idempotency_key_reused": ({"REDIS_URL": "redis"}, "POST", "/v1/replays", {
        "json": {"logs": [LOG, LOG]}, "headers": {"Idempotency-Key": "k1"}}, 422),
    "too_many_active_jobs": ({"REDIS_URL": "redis", "MAX_ACTIVE_JOBS": 1}, "POST", "/v1/replays", {
        "json": {"logs": [LOG, LOG]}}, 429),
    "review_too_long": ({"REDIS_URL": "redis"}, "POST", "/v1/replays", {"json": {
        "logs": [LOG] * 10, "review": {"mode": "deep", "time_budget": 30}}}, 422),
    "invalid_log": ({}, "POST", "/v1/audits", {"json": {**LOG, "events": [{"seat": 0, "type": "capture"}]}}, 422),
    "wrong_deal_size": ({}, "POST", "/v1/audits", {"json": {**LOG, "hands": [h[:5] for h in LOG["hands"]]}}, 422),
    "jobs_unavailable": ({"REDIS_URL": "dead"}, "POST", "/v1/replays", {"json": {"logs": [LOG]}}, 503),
    # The test Redis has no replica: it is taken as attached (below), and WAIT finds none acknowledging.
    "not_replicated": ({"REDIS_URL": "redis", "SUBMIT_REPLICAS": 1, "SUBMIT_REPLICA_WAIT_MS": 20}, "POST",
                       "/v1/replays", {"json": {"logs": [LOG]}}, 503),
    "not_ready": ({"REDIS_URL": "redis"}, "GET", "/readyz", {}, 503),
    "internal_error": ({}, "POST", "/v1/hu", {"json": {"ruleset": "bga-taiwan", "hand": []}}, 500),
    "no_drill_position": ({}, "GET", "/v1/drills?ruleset=bga-taiwan&difficulty=easy&seed=1&index=0", {}, 422),
}


def test_every_documented_code_has_a_case():
    """The table below produces every code of the table of docs/api.md."""
    assert set(CASES) | JOB_ERROR_ONLY | SERVER_ONLY == set(documented_codes())


def _app(config: dict, redis_url: str, dead_redis_url: str):
    """An app with the case's configuration; "redis" and "dead" stand for the test database and a dead server."""
    urls = {"redis": redis_url, "dead": dead_redis_url}
    settings = {"TESTING": True, **config}
    if "REDIS_URL" in config:
        settings["REDIS_URL"] = urls[config["REDIS_URL"]]
    return create_app(settings)


@pytest.mark.parametrize("code", sorted(CASES))
def test_request_produces_the_documented_code(code, redis_db, redis_url, dead_redis_url, monkeypatch):
    """Each request answers problem+json with its code and status, and the `type` that describes the code."""
    config, method, path, kwargs, status = CASES[code]
    app = _app(config, redis_url, dead_redis_url)
    client = app.test_client()
    if code == "internal_error":
        from service.rules.fourcolor import rulesets

        monkeypatch.setattr(rulesets.FourColorRuleSet, "hu", lambda *_: 1 / 0)
    if code == "rate_limited":
        client.get(path)
    if code == "no_drill_position":  # a drill that may play no round finds no position
        from service.arena import drills

        monkeypatch.setattr(drills, "MAX_ROUNDS", 0)
    if code == "not_replicated":  # tests/workers/test_replication.py stops a real replica instead
        from service.jobs import replication

        monkeypatch.setattr(replication, "attached_replicas", lambda _: 1)
    if code in ("idempotency_key_reused", "too_many_active_jobs"):  # a first job, then another body
        first = client.post(path, json={"logs": [LOG]}, headers=kwargs.get("headers", {}))
        assert first.status_code == 202, first.get_json()
    if path == "canceled job":
        path = client.post("/v1/replays", json={"logs": [LOG]}).headers["Location"]
        assert client.delete(path).status_code == 200
    if code == "too_many_shares":  # a first stored game takes the one place
        assert client.post(path, **kwargs).status_code == 201
    if path in ("stored share", "deleted share"):  # a game stored from the test client's address, 127.0.0.1
        path = client.post("/v1/shares", json={"logs": [LOG]}).headers["Location"]
        if code == "share_deleted":
            assert client.delete(path).status_code == 204
    response = client.open(path, method=method, **kwargs)
    body = response.get_json()
    assert (response.status_code, response.mimetype) == (status, "application/problem+json"), body
    assert body["code"] == code and body["type"] == f"/problems/{code}" and body["status"] == status
    assert PROBLEMS[code].status == status or PROBLEMS[code].other_status == status
    described = create_app({"TESTING": True}).test_client().get(body["type"])
    assert described.status_code == 200 and described.get_json()["code"] == code


#: Codes the engine raises that no request reaches: the request schema refuses such input first (with
#: invalid_request), or the code is a base class's default. The command line still prints them.
REFUSED_BY_THE_SCHEMA = {
    "invalid_source": "card_source is an enum", "unknown_context": "context lists its flags",
    "unexpected_public_card": "decisions have no public_card field", "too_many_events": "events has a maximum length",
    "domain_error": "DomainError's default; every raise names its code",
}
CODE_IN_SOURCE = re.compile(r'code\s*=\s*"([a-z_]+)"|problem\(\d{3}, "([a-z_]+)"|\d{3}: "([a-z_]+)"')


def test_every_code_in_the_source_has_a_problem_entry():
    """A code added to the service without a /problems entry (and a row in docs/api.md) fails here."""
    source = Path(__file__).resolve().parents[2] / "service"
    found = {next(g for g in match if g) for path in source.rglob("*.py")
             for match in CODE_IN_SOURCE.findall(path.read_text(encoding="utf-8"))}
    assert found - set(PROBLEMS) - JOB_ERROR_ONLY == set(REFUSED_BY_THE_SCHEMA)
