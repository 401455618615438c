"""API keys (stored hashed, either header, jobs per key) and rate limits (per key or address, 429 problems)."""

from __future__ import annotations

import hashlib
import io
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.__main__ import main
from service.app import create_app
from service.config import ConfigError
from service.http.auth import entry
from service.replay.families import simulate

KEYS = {"site-a": "site-a-secret-0123456789abcdef", "site-b": "site-b-secret-0123456789abcdef"}
ROOT = Path(__file__).resolve().parents[2]
HAND = {"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE"]}


def bearer(name: str) -> dict[str, str]:
    """The Authorization header carrying a test key."""
    return {"Authorization": f"Bearer {KEYS[name]}"}


def problem(response, status: int, code: str) -> dict:
    """Assert a problem+json answer with this status and code; return its body."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["status"] == status and body["code"] == code
    return body


@pytest.fixture
def app(redis_db, redis_url):
    """Keys on for site-a and site-b (only their hashes configured), jobs in the test Redis database."""
    keys = ",".join(entry(name, key) for name, key in KEYS.items())
    return create_app({"TESTING": True, "API_KEYS": keys, "REDIS_URL": redis_url})


@pytest.mark.parametrize("headers", [
    pytest.param({}, id="no_header"),
    pytest.param({"Authorization": "Bearer "}, id="empty_bearer"),
    pytest.param({"Authorization": f"Basic {KEYS['site-a']}"}, id="other_scheme"),
    pytest.param({"X-API-Key": ""}, id="empty_x_api_key"),
])
def test_missing_key_is_401_with_a_bearer_challenge(client, headers):
    """No usable key: 401 missing_api_key and WWW-Authenticate: Bearer."""
    response = client.post("/v1/hu", json=HAND, headers=headers)
    problem(response, 401, "missing_api_key")
    assert response.headers["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize("headers", [
    pytest.param({"Authorization": "Bearer not-a-key-of-this-service"}, id="bearer"),
    pytest.param({"X-API-Key": "not-a-key-of-this-service"}, id="x_api_key"),
    pytest.param({"X-API-Key": hashlib.sha256(KEYS["site-a"].encode()).hexdigest()}, id="the_stored_hash"),
])
def test_unknown_key_is_403(client, headers):
    """A key whose hash is not configured (the hash itself is not a key either)."""
    problem(client.post("/v1/hu", json=HAND, headers=headers), 403, "invalid_api_key")


@pytest.mark.parametrize("headers", [
    pytest.param(bearer("site-a"), id="bearer"),
    pytest.param({"Authorization": f"bearer  {KEYS['site-a']}"}, id="scheme_is_case_insensitive"),
    pytest.param({"X-API-Key": KEYS["site-b"]}, id="x_api_key"),
])
def test_known_key_is_accepted_in_either_header(client, headers):
    """Authorization: Bearer <key> or X-API-Key: <key>."""
    assert client.post("/v1/hu", json=HAND, headers=headers).status_code == 200


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics", "/docs/", "/openapi.json"])
def test_open_paths_need_no_key(client, path):
    """Liveness, readiness (503 here: no worker runs), metrics, the docs and the spec stay open."""
    response = client.get(path)
    assert response.status_code in (200, 503), response.get_data(as_text=True)[:200]


@pytest.mark.parametrize(("method", "path"), [("GET", "/v1/rulesets"), ("POST", "/healthz"), ("GET", "/nowhere")])
def test_everything_else_needs_a_key(client, method, path):
    """Reads, other methods on open paths and unknown paths alike: no key, no answer."""
    problem(client.open(path, method=method), 401, "missing_api_key")


def test_keys_are_stored_hashed_only(app):
    """Configuration and app state hold `name:sha256`, never the key."""
    state = repr(dict(app.config)) + repr(app.extensions["longcards_api_keys"])
    assert not any(key in state for key in KEYS.values())
    for name, key in KEYS.items():
        assert f"{name}:{hashlib.sha256(key.encode()).hexdigest()}" in app.config["API_KEYS"]


def test_hash_key_command_prints_a_working_entry(monkeypatch, capsys, redis_url):
    """`python -m service hash-key NAME` reads the key on stdin; its output is what API_KEYS takes."""
    key = "site-c-secret-0123456789abcdef"
    monkeypatch.setattr("sys.stdin", io.StringIO(key + "\n"))
    assert main(["hash-key", "site-c"]) == 0
    line = capsys.readouterr().out.strip()
    assert line == f"site-c:{hashlib.sha256(key.encode()).hexdigest()}"
    client = create_app({"TESTING": True, "API_KEYS": line, "REDIS_URL": redis_url}).test_client()
    assert client.get("/v1/rulesets", headers={"X-API-Key": key}).status_code == 200


def test_hash_key_command_refuses_short_keys(monkeypatch, capsys):
    """Unsalted SHA-256 only protects random keys: short ones are refused."""
    monkeypatch.setattr("sys.stdin", io.StringIO("hunter2\n"))
    assert main(["hash-key", "site-c"]) == 2
    assert "at least" in capsys.readouterr().err


@pytest.mark.parametrize("stdin", ["", "\n", "   \n"])
def test_hash_key_command_fails_loudly_on_an_empty_key(stdin):
    """As deploy/README.md runs it, `ENTRY=$(... | python -m service hash-key NAME) && ...`: with no key the
    command prints nothing on stdout, says why on stderr and exits non-zero, so the `&&` stops."""
    shell = 'ENTRY=$(python -m service hash-key site-c) && printf "created:%s" "$ENTRY"'
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["sh", "-c", shell], input=stdin, capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 2, done
    assert done.stdout == ""
    assert "hash-key: no key on stdin" in done.stderr


@pytest.mark.parametrize("keys", [
    pytest.param(KEYS["site-a"], id="plain_key"),
    pytest.param(f"site-a:{KEYS['site-a']}", id="name_and_plain_key"),
    pytest.param(f"site a:{'0' * 64}", id="bad_name"),
    pytest.param(f"site-a:{'0' * 64},site-b:{'0' * 64}", id="same_hash_twice"),
    pytest.param(",", id="only_a_separator"),
    pytest.param(f"site-a:{'0' * 64},", id="trailing_empty_entry"),
    pytest.param(f"site-a:{'0' * 64},,site-b:{'1' * 64}", id="empty_entry_between"),
])
def test_malformed_key_entries_fail_at_startup(keys):
    """A misconfigured API_KEYS stops the app from starting, without echoing the entry; an empty entry is
    refused too, rather than dropped (a value of separators only would otherwise leave the API open)."""
    with pytest.raises(ConfigError, match=r"LONGCARDS_API_KEYS is not valid \(entry \d") as raised:
        create_app({"TESTING": True, "API_KEYS": keys})
    assert KEYS["site-a"] not in str(raised.value)


@pytest.mark.parametrize("keys", ["", "  ", None])
def test_require_auth_without_keys_refuses_to_start(keys):
    """REQUIRE_AUTH with no key configured: create_app raises, naming both settings."""
    with pytest.raises(ConfigError, match="LONGCARDS_REQUIRE_AUTH is set but LONGCARDS_API_KEYS names no key"):
        create_app({"TESTING": True, "API_KEYS": keys, "REQUIRE_AUTH": True})


def test_require_auth_from_the_environment(monkeypatch):
    """LONGCARDS_REQUIRE_AUTH=true is read as REQUIRE_AUTH; a value that is not a boolean is refused."""
    monkeypatch.delenv("LONGCARDS_API_KEYS", raising=False)
    monkeypatch.setenv("LONGCARDS_REQUIRE_AUTH", "true")
    with pytest.raises(ConfigError, match="names no key"):
        create_app({"TESTING": True})
    monkeypatch.setenv("LONGCARDS_REQUIRE_AUTH", "ture")
    with pytest.raises(ConfigError, match="LONGCARDS_REQUIRE_AUTH='ture' is not valid: expects true or false"):
        create_app({"TESTING": True})


def test_require_auth_with_a_key_starts(redis_url):
    """REQUIRE_AUTH is satisfied by one well-formed entry: the app starts and asks for the key."""
    app = create_app({"TESTING": True, "API_KEYS": entry("site-a", KEYS["site-a"]), "REQUIRE_AUTH": True,
                      "REDIS_URL": redis_url})
    problem(app.test_client().get("/v1/rulesets"), 401, "missing_api_key")


def test_no_keys_logs_a_loud_warning(caplog):
    """Without keys and without REQUIRE_AUTH the app starts open, and says so at WARNING level."""
    with caplog.at_level(logging.WARNING):
        create_app({"TESTING": True, "API_KEYS": ""})
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "NO AUTHENTICATION" in r.getMessage()]
    assert len(warnings) == 1, caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        create_app({"TESTING": True, "API_KEYS": entry("site-a", KEYS["site-a"])})
    assert "NO AUTHENTICATION" not in caplog.text


def test_job_is_visible_only_to_the_key_that_created_it(client):
    """site-b cannot read, cancel or replay site-a's job; site-a sees it with either header."""
    payload = {"logs": [simulate("bga-taiwan", 11, 3, "greedy")]}
    created = client.post("/v1/replays", json=payload, headers=bearer("site-a"))
    assert created.status_code == 202, created.get_data(as_text=True)
    location = created.headers["Location"]
    problem(client.get(location, headers=bearer("site-b")), 404, "job_not_found")
    problem(client.delete(location, headers=bearer("site-b")), 404, "job_not_found")
    mine = client.get(location, headers={"X-API-Key": KEYS["site-a"]})
    assert mine.status_code == 200 and mine.get_json()["id"] == created.get_json()["id"]
    theirs = client.post("/v1/replays", json=payload, headers=bearer("site-b"))  # idempotency is per key too
    assert theirs.status_code == 202 and theirs.get_json()["id"] != created.get_json()["id"]


def test_two_keys_of_one_name_share_its_jobs(redis_db, redis_url):
    """Rotation: old and new key under one name act as the same owner."""
    old, new = "rotating-old-0123456789abcdef", "rotating-new-0123456789abcdef"
    app = create_app({"TESTING": True, "API_KEYS": [entry("site-a", old), entry("site-a", new)],
                      "REDIS_URL": redis_url})
    client = app.test_client()
    created = client.post("/v1/replays", json={"logs": [simulate("bga-taiwan", 11, 3, "greedy")]},
                          headers={"X-API-Key": old})
    assert client.get(created.headers["Location"], headers={"X-API-Key": new}).status_code == 200


def test_everything_is_open_and_unlimited_unless_configured(redis_url):
    """No API_KEYS, no RATE_LIMIT: no key asked for, no limiter installed."""
    app = create_app({"TESTING": True, "REDIS_URL": redis_url})
    assert app.extensions["longcards_api_keys"] == () and "longcards_limiter" not in app.extensions
    client = app.test_client()
    assert all(client.post("/v1/hu", json=HAND).status_code == 200 for _ in range(5))


def test_rate_limit_is_a_429_problem_with_retry_after(redis_db, redis_url):
    """Over the limit: 429 rate_limited with Retry-After seconds; health and metrics are exempt."""
    client = create_app({"TESTING": True, "RATE_LIMIT": "2/minute", "REDIS_URL": redis_url}).test_client()
    assert [client.post("/v1/hu", json=HAND).status_code for _ in range(2)] == [200, 200]
    response = client.get("/v1/rulesets")  # one budget across the API, not one per endpoint
    body = problem(response, 429, "rate_limited")
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert "2 per 1 minute" in body["detail"]
    assert redis_db.keys("LIMITS:*"), "counted in Redis"
    for path in ("/healthz", "/readyz", "/metrics"):
        assert all(client.get(path).status_code != 429 for _ in range(3)), path


def test_the_breached_limit_of_several_is_named(redis_db, redis_url):
    """`5/second;2/minute`: the minute's limit is the one refused, and Retry-After counts to its window's end."""
    client = create_app({"TESTING": True, "RATE_LIMIT": "5/second;2/minute", "REDIS_URL": redis_url}).test_client()
    assert [client.get("/v1/rulesets").status_code for _ in range(2)] == [200, 200]
    response = client.get("/v1/rulesets")
    assert "2 per 1 minute" in problem(response, 429, "rate_limited")["detail"]
    assert 30 <= int(response.headers["Retry-After"]) <= 60


def test_rate_limit_is_per_key(redis_db, redis_url):
    """site-a's budget spent, site-b still has its own."""
    keys = ",".join(entry(name, key) for name, key in KEYS.items())
    client = create_app({"TESTING": True, "API_KEYS": keys, "RATE_LIMIT": "2/minute",
                         "REDIS_URL": redis_url}).test_client()
    codes = [client.post("/v1/hu", json=HAND, headers=bearer("site-a")).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert client.post("/v1/hu", json=HAND, headers={"X-API-Key": KEYS["site-b"]}).status_code == 200


def test_rate_limit_without_keys_is_per_address(redis_db, redis_url):
    """Without keys each client address has its own budget."""
    client = create_app({"TESTING": True, "RATE_LIMIT": "1/minute", "REDIS_URL": redis_url}).test_client()
    first, second = ({"REMOTE_ADDR": "192.0.2.1"}, {"REMOTE_ADDR": "192.0.2.2"})
    assert client.post("/v1/hu", json=HAND, environ_base=first).status_code == 200
    assert client.post("/v1/hu", json=HAND, environ_base=first).status_code == 429
    assert client.post("/v1/hu", json=HAND, environ_base=second).status_code == 200


@pytest.mark.parametrize("proxies", [0, 1])
def test_rate_limit_behind_the_proxy_is_per_forwarded_address(redis_db, redis_url, proxies):
    """Behind the trusted proxy (TRUSTED_PROXIES 1) the budget is the X-Forwarded-For address's; with none
    trusted the header is ignored, so a client cannot forge a fresh address per request."""
    client = create_app({"TESTING": True, "RATE_LIMIT": "1/minute", "REDIS_URL": redis_url,
                         "TRUSTED_PROXIES": proxies}).test_client()
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    assert client.post("/v1/hu", json=HAND, environ_base=proxy,
                       headers={"X-Forwarded-For": "192.0.2.1"}).status_code == 200
    other = client.post("/v1/hu", json=HAND, environ_base=proxy, headers={"X-Forwarded-For": "192.0.2.2"})
    assert other.status_code == (200 if proxies else 429)
    again = client.post("/v1/hu", json=HAND, environ_base=proxy, headers={"X-Forwarded-For": "192.0.2.1"})
    assert again.status_code == 429


def test_redis_down_never_fails_synchronous_endpoints(dead_redis_url):
    """The limiter falls back to counting in memory: 200s, and the limit still holds."""
    client = create_app({"TESTING": True, "RATE_LIMIT": "2/minute", "REDIS_URL": dead_redis_url}).test_client()
    assert client.post("/v1/hu", json=HAND).status_code == 200
    assert client.get("/v1/rulesets").status_code == 200
    problem(client.get("/v1/rulesets"), 429, "rate_limited")
