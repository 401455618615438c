"""The fast lane (service/http/fastlane.py, docs/reliability.md#fast-lane): `POST /v1/hu` answered outside Flask's
request machinery must be the app's answer to the byte, headers included, and must step aside whenever anything
of the app's request handling could change the answer."""

from __future__ import annotations

import gzip
import random
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from service.app import create_app
from service.http.auth import entry
from service.rules.chan import samples as chan_samples
from service.rules.chan.cards import code as chan_code
from service.rules.fourcolor import samples as fc_samples
from service.rules.fourcolor.cards import code as fc_code
from service.rules.registry import all_rulesets
from tests.support.metrics import scrape, value

LANGUAGES = [None, "vi", "zh-TW,zh;q=0.9", "uk-UA", "pt-BR;q=0.8, it;q=0.9", "fr", "en-GB"]


#: Bodies that are not UTF-8: 400 malformed_json on both paths (tests/api/test_errors.py has every endpoint).
NOT_UTF8 = {
    "a byte no UTF-8 text has": b'{"ruleset": "bga-taiwan", "hand": ["\xff"]}',
    "UTF-16": '{"ruleset": "bga-taiwan", "hand": ["rG"]}'.encode("utf-16"),
    "Latin-1": '{"ruleset": "bga-taiwan", "hand": ["rG"], "note": "é"}'.encode("latin-1"),
    "an encoded surrogate": b'{"ruleset": "bga-taiwan", "hand": ["\xed\xa0\x80"]}',
    "a UTF-8 BOM": b'\xef\xbb\xbf{"ruleset": "bga-taiwan", "hand": ["rG"]}',
}


def lane(app) -> Any:
    """The app's fast lane."""
    return app.extensions["longcards_fastlane"]


def hu_bodies(n: int, seed: int) -> Iterator[dict[str, Any]]:
    """Plain /v1/hu requests of every rule-set: wins, near misses, hands without a public card, options given."""
    rng = random.Random(seed)
    rulesets = all_rulesets()
    for i in range(n):
        ruleset = rulesets[i % len(rulesets)]
        if ruleset.family == "chan":
            hand, card = (chan_samples.winning_hand if i % 3 else chan_samples.near_miss)(rng)
            body: dict[str, Any] = {"ruleset": ruleset.id, "hand": [chan_code(c) for c in hand],
                                    "public_card": chan_code(card)}
        else:
            rules = ruleset.meld_rules(ruleset.resolve_options(None))
            cards = (fc_samples.winning_hand if i % 3 else fc_samples.near_miss)(rng, rules)
            body = {"ruleset": ruleset.id, "hand": [fc_code(c) for c in cards[:20]], "public_card": fc_code(cards[20])}
        if i % 5 == 0:
            body.pop("public_card")  # the hand as it stands
        if i % 7 == 0:
            body["options"] = {}
        yield body


def answer(client, **post: Any) -> tuple[int, bytes, list[tuple[str, str]]]:
    """Status, body and headers of a POST /v1/hu (`json=` or `data=` as the test client takes them), under one
    request id (a problem document names it)."""
    post["headers"] = {"X-Request-ID": "compare", **post.get("headers", {})}
    response = client.post("/v1/hu", **post)
    return response.status_code, response.get_data(), sorted(response.headers.items())


@pytest.fixture
def pair():
    """The default app (lane open) and the same app with the lane turned off."""
    return create_app({"TESTING": True}), create_app({"TESTING": True, "FAST_LANE": False})


def test_lane_answers_are_the_apps_to_the_byte(pair):
    """Every rule-set, wins and misses, seven Accept-Language headers: same status, body and headers, and the lane
    served every one of them."""
    fast, full = pair
    fast_client, full_client = fast.test_client(), full.test_client()
    count, translated = 0, set()
    for i, body in enumerate(hu_bodies(350, seed=20261202)):
        language = LANGUAGES[i % len(LANGUAGES)]
        headers = {"Accept-Language": language} if language else {}
        got, expected = answer(fast_client, json=body, headers=headers), answer(full_client, json=body, headers=headers)
        assert got == expected, body
        assert got[0] == 200
        translated.update(v for k, v in got[2] if k == "Content-Language")
        count += 1
    assert lane(fast).served == count and lane(full).served == 0
    # the near misses' reasons were translated: the lane chose the language as the app does
    assert {"vi", "zh-Hant", "uk", "it"} <= translated


@pytest.mark.parametrize("case", [
    pytest.param({"json": {"ruleset": "bga-taiwan", "hand": ["rG", "XX"]}}, id="unknown card: 422 naming hand.1"),
    pytest.param({"json": {"ruleset": "bga-taiwan", "hand": ["rG"] * 5}}, id="five copies"),
    pytest.param({"json": {"ruleset": "nope", "hand": []}}, id="unknown rule-set"),
    pytest.param({"json": {"ruleset": "bga-taiwan", "hand": [], "options": {"nope": 1}}}, id="unknown option"),
    pytest.param({"json": {"ruleset": "bga-taiwan", "hand": [], "extra": 1}}, id="unknown field"),
    pytest.param({"json": {"ruleset": "bga-taiwan", "hand": ["rG", 3]}}, id="a number for a card"),
    pytest.param({"json": [1, 2]}, id="a list"),
    pytest.param({"data": b'{"ruleset": "bga-taiwan", "hand": [', "content_type": "application/json"},
                 id="malformed JSON"),
    pytest.param({"data": b"", "content_type": "application/json"}, id="empty body"),
    *(pytest.param({"data": data, "content_type": "application/json"}, id=name) for name, data in NOT_UTF8.items()),
    pytest.param({"data": b'{"ruleset": "bga-taiwan", "hand": []}', "content_type": "text/plain"}, id="not JSON: 415"),
])
def test_lane_steps_aside_for_every_problem(pair, case):
    """A body the lane declines, or one the engine refuses, is answered by the app from the same bytes: the same
    problem document, naming the same field."""
    fast, full = pair
    got, expected = answer(fast.test_client(), **case), answer(full.test_client(), **case)
    assert got == expected
    assert got[0] in (400, 415, 422)
    assert lane(fast).served == 0


@pytest.mark.parametrize("data", NOT_UTF8.values(), ids=NOT_UTF8.keys())
def test_a_body_that_is_not_utf8_is_malformed_json_on_both_paths(pair, data):
    """The lane hands such a body to the app, which refuses it as it refuses any body that is not JSON: the same
    400 malformed_json to the byte, whichever path the request takes."""
    fast, full = pair
    got = answer(fast.test_client(), data=data, content_type="application/json")
    assert got == answer(full.test_client(), data=data, content_type="application/json")
    assert got[0] == 400 and orjson.loads(got[1])["code"] == "malformed_json"
    assert ("Content-Type", "application/problem+json") in got[2] and lane(fast).served == 0


def test_a_request_with_exposed_melds_is_the_apps(pair):
    """Exposed melds need the schema's care (each meld checked and named): the app answers, the same as ever."""
    fast, full = pair
    body = {"ruleset": "bga-taiwan", "hand": ["rH", "rH"], "exposed": [{"kind": "pair", "cards": ["rE", "rE"]}]}
    got, expected = answer(fast.test_client(), json=body), answer(full.test_client(), json=body)
    assert got == expected and got[0] == 200 and b'"hu":true' in got[1]
    assert lane(fast).served == 0


def test_a_query_string_or_a_json_subtype_takes_the_right_path(pair):
    """`?lang=` is the app's (the lane serves no query); a JSON media type with parameters is the lane's."""
    fast, full = pair
    body = next(b for b in hu_bodies(20, seed=1) if b["ruleset"] == "bga-taiwan")
    got = fast.test_client().post("/v1/hu?lang=vi", json={**body, "hand": body["hand"][:3]})
    expected = full.test_client().post("/v1/hu?lang=vi", json={**body, "hand": body["hand"][:3]})
    assert got.get_data() == expected.get_data() and got.headers["Content-Language"] == "vi"
    assert lane(fast).served == 0
    for client in (fast.test_client(), full.test_client()):
        response = client.post("/v1/hu", data=orjson.dumps(body), content_type="application/json; charset=utf-8")
        assert response.status_code == 200
    assert lane(fast).served == 1


def test_an_answer_to_gzip_is_left_to_the_app(pair):
    """A win answer over COMPRESS_MIN_SIZE is gzipped by the app for a client that accepts it; without
    Accept-Encoding the lane sends it as is."""
    fast, full = pair
    big = None
    for body in hu_bodies(200, seed=3):
        status, data, _ = answer(full.test_client(), json=body)
        if status == 200 and len(data) >= full.config["COMPRESS_MIN_SIZE"]:
            big = body
            break
    assert big is not None, "no answer of 1 KB or more among 200 hands"
    zipped = fast.test_client().post("/v1/hu", json=big, headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip" and lane(fast).served == 0
    plain = fast.test_client().post("/v1/hu", json=big)
    assert gzip.decompress(zipped.get_data()) == plain.get_data() and lane(fast).served == 1


def test_keys_close_the_lane_and_are_checked():
    """With API keys configured the lane stays closed: no key is 401, a good key is served by the app."""
    key = "k" * 32
    app = create_app({"TESTING": True, "API_KEYS": entry("trainer", key), "AUTH_FAIL_LIMIT": ""})
    client = app.test_client()
    body = {"ruleset": "bga-taiwan", "hand": ["rG"]}
    assert client.post("/v1/hu", json=body).status_code == 401
    assert client.post("/v1/hu", json=body, headers={"X-API-Key": "x" * 32}).status_code == 403
    assert client.post("/v1/hu", json=body, headers={"Authorization": f"Bearer {key}"}).status_code == 200
    assert lane(app).served == 0 and lane(app).open is False


def test_cors_and_rate_limits_close_the_lane(redis_db, redis_url):
    """Configured CORS origins and a rate limit each install a hook: every request takes the app, which answers
    with the CORS headers and counts the request against the limit."""
    app = create_app({"TESTING": True, "CORS_ORIGINS": "https://trainer.example"})
    response = app.test_client().post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": ["rG"]},
                                      headers={"Origin": "https://trainer.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "https://trainer.example"
    assert lane(app).served == 0 and lane(app).open is False
    limited = create_app({"TESTING": True, "RATE_LIMIT": "2/minute", "REDIS_URL": redis_url})
    statuses = [limited.test_client().post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": ["rG"]}).status_code
                for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert lane(limited).served == 0


def test_lane_answers_are_counted_and_secured_like_the_apps():
    """The envelope still gives a lane answer its metrics (route /v1/hu), request id and security headers."""
    app = create_app({"TESTING": True})
    client = app.test_client()
    before = scrape(client)
    response = client.post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": ["rG"]},
                           headers={"X-Request-ID": "trainer-42"})
    after = scrape(client)
    assert lane(app).served == 1
    assert response.headers["X-Request-ID"] == "trainer-42"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    labels = {"method": "POST", "endpoint": "/v1/hu", "status": "200"}
    assert value(after, "longcards_http_requests_total", **labels) - value(
        before, "longcards_http_requests_total", **labels) == 1
