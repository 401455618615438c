"""HTTP conventions integrators expect: request ids, cache validators, compression, rate-limit fields, 415 for a
body that is not JSON, problem type pages, messages written for people."""

from __future__ import annotations

import gzip
import json
import os
import time

import pytest

from service.app import create_app
from service.http.auth import entry
from service.replay.families import simulate

HAND = {"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE"]}


@pytest.mark.parametrize(("method", "path", "body"), [
    pytest.param("GET", "/healthz", None, id="liveness"),
    pytest.param("POST", "/v1/hu", HAND, id="answer"),
    pytest.param("POST", "/v1/hu", {"ruleset": "nope", "hand": []}, id="problem"),
    pytest.param("GET", "/v1/nothing", None, id="not_found"),
])
def test_sane_request_id_is_echoed_on_every_answer(client, method, path, body):
    """The client's X-Request-ID comes back; a problem names it as `request_id`."""
    response = client.open(path, method=method, json=body, headers={"X-Request-ID": "site-42:abc/1"})
    assert response.headers["X-Request-ID"] == "site-42:abc/1"
    if response.mimetype == "application/problem+json":
        assert response.get_json()["request_id"] == "site-42:abc/1"


@pytest.mark.parametrize("given", [None, "", "a" * 129, "two words", "line\tbreak", "é-accent"])
def test_missing_or_insane_request_id_is_replaced(client, given):
    """Absent, too long, or with spaces, control or non-ASCII characters: a fresh id, different each time."""
    headers = {} if given is None else {"X-Request-ID": given}
    first = client.post("/v1/hu", json={"ruleset": "nope", "hand": []}, headers=headers)
    second = client.post("/v1/hu", json={"ruleset": "nope", "hand": []}, headers=headers)
    ids = [first.headers["X-Request-ID"], second.headers["X-Request-ID"]]
    assert ids[0] != ids[1] and given not in ids and all(len(i) == 32 for i in ids)
    assert first.get_json()["request_id"] == ids[0]


def test_a_forked_worker_makes_ids_of_its_own():
    """gunicorn forks its workers from one process: each draws its own random part, so no two share an id."""
    from service.http import requestid

    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the worker
        os.write(write, requestid.new_id().encode())
        os._exit(0)
    os.waitpid(child, 0)
    theirs, mine = os.read(read, 64).decode(), requestid.new_id()
    os.close(read)
    os.close(write)
    assert len(theirs) == len(mine) == 32 and theirs[:20] != mine[:20]


def test_request_id_reaches_a_refused_request(redis_url):
    """Even a request refused before any view (no API key) carries its id."""
    client = create_app({"TESTING": True, "API_KEYS": entry("site", "k" * 20), "REDIS_URL": redis_url}).test_client()
    response = client.get("/v1/rulesets", headers={"X-Request-ID": "r-1"})
    assert response.status_code == 401 and response.get_json()["request_id"] == "r-1"
    assert response.headers["X-Request-ID"] == "r-1"


@pytest.mark.parametrize("path", ["/v1/rulesets", "/v1/rulesets/cardavia-chan", "/v1/schemas/game-log"])
@pytest.mark.parametrize("encoding", ["", "gzip"])
def test_reference_answers_are_cacheable_and_conditional(client, path, encoding):
    """ETag + Cache-Control; If-None-Match with the ETag gives 304 with no body, another ETag the full answer."""
    first = client.get(path, headers={"Accept-Encoding": encoding})
    assert first.status_code == 200 and first.headers["Cache-Control"] == "public, max-age=3600"
    etag = first.headers["ETag"]
    again = client.get(path, headers={"Accept-Encoding": encoding, "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    stale = client.get(path, headers={"Accept-Encoding": encoding, "If-None-Match": '"stale"'})
    assert stale.status_code == 200 and stale.data == first.data


def test_one_etag_names_one_byte_string_across_seconds(client):
    """gzip's header carries no time: the same answer a second later is the same bytes under the same ETag."""
    first = client.get("/v1/rulesets", headers={"Accept-Encoding": "gzip"})
    time.sleep(1.05 - time.time() % 1)  # past the next second boundary, on the real clock
    later = client.get("/v1/rulesets", headers={"Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip" and first.data[4:8] == b"\0\0\0\0"
    assert later.headers["ETag"] == first.headers["ETag"] and later.data == first.data


def test_etag_changes_with_the_answer(client):
    """Two rule-sets, two validators: an ETag is of the body, not of the path."""
    tags = {client.get(f"/v1/rulesets/{r}").headers["ETag"] for r in ("bga-taiwan", "cardavia-chan")}
    assert len(tags) == 2


@pytest.mark.parametrize("path", ["/openapi.json", "/v1/rulesets", "/docs/swagger-ui-bundle.js",
                                  "/docs/swagger-ui.css"])
def test_large_answers_are_gzipped_when_accepted(client, path):
    """gzip when the client accepts it, the same bytes once decompressed; Vary: Accept-Encoding either way."""
    with client.get(path) as plain, client.get(path, headers={"Accept-Encoding": "gzip"}) as packed:
        plain.get_data(), packed.get_data()  # read before the files close
    assert "Content-Encoding" not in plain.headers and packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data and len(packed.data) < len(plain.data) / 2
    assert "Accept-Encoding" in plain.headers["Vary"] and "Accept-Encoding" in packed.headers["Vary"]


def test_small_answers_stay_plain(client):
    """Under the minimum size compressing costs more than it saves."""
    response = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in response.headers and json.loads(response.data)["status"] == "ok"


def test_job_result_with_replay_analyses_is_gzipped(redis_db, redis_url):
    """A finished replay job's answer (large) is compressed."""
    from tests.support.jobs import run_worker

    client = create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()
    location = client.post("/v1/replays", json={"logs": [simulate("cardavia-chan", 13, 4, "greedy")]}
                           ).headers["Location"]
    assert run_worker(redis_db)
    response = client.get(location, headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(response.data))["status"] == "finished"


def test_rate_limit_fields_on_every_limited_answer(redis_db, redis_url):
    """RateLimit-Limit, -Remaining (counting down) and -Reset (seconds) on answers, the 429 included."""
    client = create_app({"TESTING": True, "RATE_LIMIT": "3/minute", "REDIS_URL": redis_url}).test_client()
    answers = [client.post("/v1/hu", json=HAND) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert [a.headers["RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    assert all(a.headers["RateLimit-Limit"] == "3" for a in answers)
    assert all(0 <= int(a.headers["RateLimit-Reset"]) <= 60 for a in answers)
    assert "Retry-After" not in answers[0].headers and 1 <= int(answers[3].headers["Retry-After"]) <= 60
    assert "RateLimit-Limit" not in client.get("/healthz").headers  # exempt paths are not counted


def test_no_rate_limit_fields_without_limits(client):
    """Off unless configured."""
    assert "RateLimit-Limit" not in client.post("/v1/hu", json=HAND).headers


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_body_that_is_not_json_is_415(client, content_type):
    """The JSON sent under another (or no) content type is refused as such, not read as missing fields."""
    kwargs = {"data": json.dumps(HAND)}
    if content_type:
        kwargs["content_type"] = content_type
    response = client.post("/v1/hu", **kwargs)
    body = response.get_json()
    assert response.status_code == 415 and body["code"] == "unsupported_media_type" and "errors" not in body
    assert "application/json" in body["detail"]


def test_json_with_a_charset_or_a_json_suffix_is_accepted(client):
    """application/json; charset=utf-8 and application/*+json are JSON."""
    for content_type in ("application/json; charset=utf-8", "application/merge-patch+json"):
        assert client.post("/v1/hu", data=json.dumps(HAND), content_type=content_type).status_code == 200


@pytest.mark.parametrize(("body", "field", "message"), [
    pytest.param({"ruleset": "bga-taiwan", "hand": ["rA"], "seats": 4, "winner": "x"}, "winner",
                 "must be an integer", id="integer"),
    pytest.param({"ruleset": 3, "hand": ["rA"], "seats": 4, "winner": 0}, "ruleset", "must be a string",
                 id="string"),
    pytest.param({"hand": ["rA"], "seats": 4, "winner": 0}, "ruleset", "is required", id="required"),
    pytest.param({"ruleset": "bga-taiwan", "hand": "rA", "seats": 4, "winner": 0}, "hand", "must be an array",
                 id="array"),
    pytest.param({"ruleset": "bga-taiwan", "hand": ["rA"], "seats": 5, "winner": 0}, "seats", "must be 2 to 4",
                 id="range"),
    pytest.param({"ruleset": "bga-taiwan", "hand": ["rA"], "seats": 4, "winner": 0, "x": 1}, "x",
                 "is not a field of this request", id="unknown_field"),
    pytest.param({"ruleset": "bga-taiwan", "hand": ["rA"], "seats": 4, "winner": 0, "options": {"threshold": "9"}},
                 "options.threshold", "option 'threshold' must be an integer", id="option_type"),
])
def test_messages_are_written_for_people(client, body, field, message):
    """Field messages read as a sentence after the field name."""
    errors = client.post("/v1/settlements", json=body).get_json()["errors"]
    assert errors[field] == [message]


def test_result_mismatch_shows_the_results_as_json(client):
    """The audit prints both results as JSON (double quotes, true/null), never as Python reprs."""
    log = simulate("cardavia-chan", 13, 4, "greedy")
    log["result"] = {**log["result"], "deltas": [9, -9, 0, 0]}
    message = client.post("/v1/audits", json=log).get_json()["violations"][-1]["message"]
    recorded = message.split("the recorded result ", 1)[1].split(" differs from the replay's ", 1)
    assert json.loads(recorded[0])["deltas"] == [9, -9, 0, 0]
    assert json.loads(recorded[1])["type"] == log["result"]["type"] and "'" not in recorded[0] + recorded[1]


def test_problem_type_page_json_and_html(client):
    """/problems/{code}: JSON by default, HTML for a browser, each with the status and how to fix it."""
    described = client.get("/problems/missing_public_card").get_json()
    assert described["status"] == 422 and described["code"] == "missing_public_card" and described["fix"]
    page = client.get("/problems/missing_public_card",
                      headers={"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"})
    assert page.mimetype == "text/html" and b"missing_public_card" in page.data and b"422" in page.data
    assert described["fix"].replace("`", "").split()[0].encode() in page.data


@pytest.mark.parametrize("headers", [
    pytest.param({}, id="JSON by default"),
    pytest.param({"Accept": "application/json"}, id="JSON asked for"),
    pytest.param({"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}, id="HTML"),
    pytest.param({"Accept": "text/html", "Accept-Language": "vi"}, id="HTML in Vietnamese"),
    pytest.param({"Accept-Language": "vi"}, id="JSON in Vietnamese"),
])
def test_both_problem_type_representations_vary_on_accept(client, headers):
    """One URL, two cacheable representations chosen by `Accept`, in the reader's language: a shared cache must
    keep them apart, so each (and its 304) says `Vary: Accept, Accept-Language, Accept-Encoding`, each once."""
    answer = client.get("/problems/missing_public_card", headers=headers)
    again = client.get("/problems/missing_public_card", headers={**headers, "If-None-Match": answer.headers["ETag"]})
    assert (answer.status_code, again.status_code) == (200, 304)
    for response in (answer, again):
        varies = [name.strip().lower() for value in response.headers.getlist("Vary") for name in value.split(",")]
        assert sorted(varies) == ["accept", "accept-encoding", "accept-language"], response.headers


def test_unknown_problem_code_is_a_404_problem(client):
    """No page for a code the service never answers."""
    response = client.get("/problems/no_such_code")
    assert response.status_code == 404 and response.get_json()["code"] == "not_found"


def test_problem_pages_need_no_api_key(redis_url):
    """Linked from every error, the 401 included, so open like the docs."""
    client = create_app({"TESTING": True, "API_KEYS": entry("site", "k" * 20), "REDIS_URL": redis_url}).test_client()
    refused = client.get("/v1/rulesets").get_json()
    assert client.get(refused["type"]).get_json()["status"] == 401
