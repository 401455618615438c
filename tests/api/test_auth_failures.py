"""Refused keys are limited per client address: a client sending wrong keys is cut off; requests without a key
cost nothing, and a valid key is never locked out by others' wrong keys from the same address."""

from __future__ import annotations

import pytest

from service.app import create_app
from service.http.auth import entry

KEY = "site-a-secret-0123456789abcdef"
HAND = {"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE"]}
GUESSER, OTHER = "203.0.113.7", "198.51.100.9"


def make_app(redis_url: str, limit: str = "5/minute"):
    """Keys on (one key, site-a), failed authentications limited."""
    return create_app({"TESTING": True, "API_KEYS": entry("site-a", KEY), "REDIS_URL": redis_url,
                       "AUTH_FAIL_LIMIT": limit})


def attempt(client, address: str, key: str | None):
    """POST /v1/hu from `address` with `key` (None: no key at all)."""
    headers = {"X-API-Key": key} if key else {}
    return client.post("/v1/hu", json=HAND, headers=headers, environ_base={"REMOTE_ADDR": address})


def test_a_key_guesser_is_cut_off_while_a_valid_key_still_works(redis_db, redis_url):
    client = make_app(redis_url).test_client()
    codes = [attempt(client, GUESSER, f"guess-{i:020d}").status_code for i in range(5)]
    assert codes == [403] * 5
    refused = attempt(client, GUESSER, "guess-number-six-000000")
    assert refused.status_code == 429
    assert refused.json["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert attempt(client, OTHER, KEY).status_code == 200
    assert attempt(client, OTHER, None).status_code == 401


def test_a_valid_key_passes_from_an_address_over_its_limit(redis_db, redis_url):
    """Behind one address (an office, a proxy) someone else's wrong keys do not lock out a client with a right one."""
    client = make_app(redis_url, "3/minute").test_client()
    assert [attempt(client, GUESSER, "wrong-key-0000000000").status_code for _ in range(4)] == [403, 403, 403, 429]
    answer = attempt(client, GUESSER, KEY)
    assert answer.status_code == 200 and "hu" in answer.json
    assert attempt(client, GUESSER, "wrong-key-0000000000").status_code == 429


def test_requests_without_a_key_cost_nothing(redis_db, redis_url):
    """A page's `<img src=".../x">` and a browser's own favicon request carry no key: 401 (or the icon), never a
    lock-out, whatever path they ask for."""
    client = make_app(redis_url, "3/minute").test_client()
    paths = ["/v1/x", "/x", "/v1/rulesets", "/favicon.ico", "/problems/x/y"] * 5
    codes = set()
    for path in paths:
        with client.get(path, environ_base={"REMOTE_ADDR": GUESSER}) as answer:
            codes.add(answer.status_code)
    assert codes == {401, 200}  # the favicon is open
    assert [attempt(client, GUESSER, None).status_code for _ in range(10)] == [401] * 10
    assert attempt(client, GUESSER, "wrong-key-0000000000").status_code == 403
    assert attempt(client, GUESSER, KEY).status_code == 200


def test_the_count_is_shared_by_every_process(redis_db, redis_url):
    """Two apps (two gunicorn workers) on one Redis share the address's budget."""
    first, second = make_app(redis_url).test_client(), make_app(redis_url).test_client()
    for i in range(5):
        assert attempt(first if i % 2 else second, GUESSER, "wrong-key-0000000000").status_code == 403
    assert attempt(first, GUESSER, "wrong-key-0000000000").status_code == 429


def test_successes_spend_nothing(redis_db, redis_url):
    client = make_app(redis_url, "2/minute").test_client()
    assert all(attempt(client, GUESSER, KEY).status_code == 200 for _ in range(10))
    assert attempt(client, GUESSER, "wrong-key-0000000000").status_code == 403


def test_redis_down_still_limits_in_memory(dead_redis_url):
    client = make_app(dead_redis_url, "2/minute").test_client()
    assert [attempt(client, GUESSER, "wrong-key-0000000000").status_code for _ in range(3)] == [403, 403, 429]
    assert attempt(client, OTHER, KEY).status_code == 200


@pytest.mark.parametrize("limit", ["", None])
def test_the_limit_can_be_turned_off(redis_db, redis_url, limit):
    client = make_app(redis_url, limit).test_client()
    assert all(attempt(client, GUESSER, "wrong-key-0000000000").status_code == 403 for _ in range(30))
