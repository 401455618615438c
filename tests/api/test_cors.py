"""CORS: by default no other site's page may call /v1 from a browser; the origins named in CORS_ORIGINS call it
with a key in a header; preflights need no key and spend no budget; `*` only when set so."""

from __future__ import annotations

import pytest

from service.app import create_app
from service.config import ConfigError
from service.http.auth import entry

KEY = "browser-site-secret-0123456789abcdef"
ALLOWED, OTHER = "https://cards.example", "https://evil.example"
HAND = {"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE"]}


def preflight(client, origin: str, method: str = "POST", headers: str = "authorization, content-type"):
    """What a browser sends before a cross-origin POST with an Authorization header and a JSON body."""
    return client.options("/v1/hu", headers={
        "Origin": origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers})


@pytest.fixture
def app(redis_db, redis_url):
    """Keys on, a 3-request budget, two allowed origins."""
    return create_app({"TESTING": True, "API_KEYS": entry("site", KEY), "RATE_LIMIT": "3/minute",
                       "REDIS_URL": redis_url, "CORS_ORIGINS": f"{ALLOWED}, https://club.example/"})


def test_preflight_from_an_allowed_origin_needs_no_key(client):
    """The browser sends no key on a preflight: it is answered with what the real request may carry."""
    response = preflight(client, ALLOWED, headers="authorization, content-type, idempotency-key, x-api-key")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Access-Control-Allow-Origin"] == ALLOWED
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in response.headers["Access-Control-Allow-Headers"].split(",")}
    assert allowed == {"authorization", "content-type", "idempotency-key", "x-api-key"}
    assert int(response.headers["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_preflight_from_another_origin_gets_no_grant(client):
    """An origin not configured: no Access-Control-Allow-* header, so the browser never sends the request."""
    response = preflight(client, OTHER)
    assert response.status_code == 200
    assert not [h for h in response.headers.keys() if h.lower().startswith("access-control-")]


def test_preflights_spend_no_rate_budget(client):
    """Ten preflights, then the whole 3-request budget is still there for the real calls."""
    assert all(preflight(client, ALLOWED).status_code == 200 for _ in range(10))
    codes = [client.post("/v1/hu", json=HAND, headers={"Origin": ALLOWED, "X-API-Key": KEY}).status_code
             for _ in range(4)]
    assert codes == [200, 200, 200, 429]


def test_a_plain_options_request_still_needs_a_key(client):
    """Without Access-Control-Request-Method an OPTIONS request is not a preflight and is treated like any other."""
    assert client.options("/v1/hu", headers={"Origin": ALLOWED}).status_code == 401


@pytest.mark.parametrize(("body", "status"), [
    pytest.param(HAND, 200, id="ok"),
    pytest.param({**HAND, "hand": ["rG", 7]}, 422, id="invalid_request"),
])
def test_answers_and_errors_carry_the_origin_and_exposed_headers(client, body, status):
    """The browser lets the page read the answer, an error's problem document included, and the listed headers."""
    response = client.post("/v1/hu", json=body, headers={"Origin": ALLOWED, "Authorization": f"Bearer {KEY}"})
    assert response.status_code == status
    assert response.headers["Access-Control-Allow-Origin"] == ALLOWED
    exposed = {h.strip() for h in response.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"Location", "Retry-After", "RateLimit-Remaining", "X-Request-ID", "ETag"} <= exposed


def test_rate_limited_and_unauthorised_answers_carry_the_origin(client):
    """A 429 (and its Retry-After) and a 401 reach the page, which could not tell what happened otherwise."""
    headers = {"Origin": ALLOWED, "X-API-Key": KEY}
    for _ in range(3):
        client.get("/v1/rulesets", headers=headers)
    limited = client.get("/v1/rulesets", headers=headers)
    assert limited.status_code == 429
    assert limited.headers["Access-Control-Allow-Origin"] == ALLOWED
    assert "Retry-After" in limited.headers["Access-Control-Expose-Headers"]
    unauthorised = client.get("/v1/rulesets", headers={"Origin": ALLOWED})
    assert unauthorised.status_code == 401 and unauthorised.headers["Access-Control-Allow-Origin"] == ALLOWED


def test_other_origins_get_answers_without_the_grant(client):
    """The server still answers (CORS is enforced by the browser), but without Access-Control-Allow-Origin."""
    response = client.post("/v1/hu", json=HAND, headers={"Origin": OTHER, "X-API-Key": KEY})
    assert response.status_code == 200 and "Access-Control-Allow-Origin" not in response.headers


def test_no_other_origin_by_default(redis_url):
    """The default: no grant to any origin, so no other site's page can read an answer (or send a JSON request)
    to a local service, which without keys would hand it every job."""
    client = create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()
    for response in (client.post("/v1/hu", json=HAND, headers={"Origin": OTHER}),
                     client.get("/v1/jobs", headers={"Origin": OTHER}),
                     client.delete("/v1/jobs/some-job", headers={"Origin": OTHER}),
                     preflight(client, OTHER, method="DELETE")):
        assert not [h for h in response.headers.keys() if h.lower().startswith("access-control-")], response


def test_the_default_comes_from_the_environment_too(redis_url, monkeypatch):
    """LONGCARDS_CORS_ORIGINS names the origins; unset, none."""
    monkeypatch.setenv("LONGCARDS_CORS_ORIGINS", ALLOWED)
    named = create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()
    assert named.post("/v1/hu", json=HAND, headers={"Origin": ALLOWED}).headers["Access-Control-Allow-Origin"] \
        == ALLOWED
    monkeypatch.delenv("LONGCARDS_CORS_ORIGINS")
    unset = create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()
    assert "Access-Control-Allow-Origin" not in unset.post("/v1/hu", json=HAND, headers={"Origin": ALLOWED}).headers


def test_any_origin_only_when_set_so_with_a_warning_without_keys(redis_url, caplog):
    """`*`: any page may call, no credentials (keys are headers, not cookies); without API keys the start says
    that any site may use the service."""
    client = create_app({"TESTING": True, "REDIS_URL": redis_url, "CORS_ORIGINS": "*"}).test_client()
    response = client.post("/v1/hu", json=HAND, headers={"Origin": OTHER})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response.headers
    assert preflight(client, OTHER).headers["Access-Control-Allow-Origin"] == "*"
    assert any("LONGCARDS_CORS_ORIGINS=*" in r.getMessage() for r in caplog.records)
    caplog.clear()
    create_app({"TESTING": True, "REDIS_URL": redis_url, "CORS_ORIGINS": "*", "API_KEYS": entry("site", KEY)})
    assert not any("LONGCARDS_CORS_ORIGINS" in r.getMessage() for r in caplog.records)


def test_an_empty_origin_list_grants_none(redis_url):
    """Only separators: no origin, as with the default."""
    client = create_app({"TESTING": True, "REDIS_URL": redis_url, "CORS_ORIGINS": " , "}).test_client()
    assert "Access-Control-Allow-Origin" not in client.post("/v1/hu", json=HAND, headers={"Origin": OTHER}).headers


@pytest.mark.parametrize("origin", ["cards.example", "https://cards.example/app", "https://*.example",
                                    "https://cards example"])
def test_an_entry_that_is_no_origin_fails_at_startup(origin):
    """A browser's Origin is a scheme, a host and maybe a port: an entry with a path, no scheme or a wildcard would
    never match, so the service refuses to start instead of silently granting nothing."""
    with pytest.raises(ConfigError, match="LONGCARDS_CORS_ORIGINS"):
        create_app({"TESTING": True, "CORS_ORIGINS": f"{ALLOWED},{origin}"})


def test_only_the_api_gets_cors_headers(client):
    """The docs, health and metrics are not cross-origin resources."""
    assert "Access-Control-Allow-Origin" not in client.get("/healthz", headers={"Origin": ALLOWED}).headers


def vary(response) -> set[str]:
    """The answer's `Vary` values, from its single `Vary` header."""
    assert len(response.headers.getlist("Vary")) == 1, response.headers.getlist("Vary")
    return {v.strip() for v in response.headers["Vary"].split(",")}


@pytest.mark.parametrize("configured", [ALLOWED, f"{ALLOWED},https://club.example"])
def test_every_api_answer_varies_by_origin_with_or_without_one(redis_url, configured):
    """Named origins: the grant depends on `Origin`, so a shared cache must key on it; one origin named included,
    and the answer to a request without `Origin` too (a cache would else hand it, grant-less, to a browser)."""
    client = create_app({"TESTING": True, "REDIS_URL": redis_url, "CORS_ORIGINS": configured}).test_client()
    for origin in (ALLOWED, OTHER, None):
        headers = {"Origin": origin} if origin else {}
        answer = client.get("/v1/rulesets", headers=headers)
        assert answer.status_code == 200 and answer.headers["Cache-Control"].startswith("public")
        assert {"Origin", "Accept-Encoding"} <= vary(answer), origin
        assert ("Access-Control-Allow-Origin" in answer.headers) is (origin == ALLOWED)
        again = client.get("/v1/rulesets", headers={**headers, "If-None-Match": answer.headers["ETag"]})
        assert again.status_code == 304 and "Origin" in vary(again)
        gzipped = client.get("/v1/rulesets", headers={**headers, "Accept-Encoding": "gzip", "Accept-Language": "vi"})
        assert gzipped.headers["Content-Encoding"] == "gzip" and {"Origin", "Accept-Language"} <= vary(gzipped)
        assert "Origin" in vary(client.get("/v1/nothing-here", headers=headers))
        assert "Origin" in vary(client.post("/v1/hu", json=HAND, headers=headers))
    assert "Origin" not in vary(client.get("/healthz", headers={"Origin": ALLOWED}))  # no CORS there


def test_any_origin_is_granted_alike_with_or_without_one(redis_url):
    """`*`: every /v1 answer grants `*`, `Origin` or not, so it is the same for every site (no `Vary: Origin` needed,
    a shared cache keeps one copy)."""
    client = create_app({"TESTING": True, "REDIS_URL": redis_url, "CORS_ORIGINS": "*"}).test_client()
    answers = [client.get("/v1/rulesets", headers={"Origin": origin} if origin else {})
               for origin in (ALLOWED, OTHER, None)]
    assert [a.headers.getlist("Access-Control-Allow-Origin") for a in answers] == [["*"]] * 3
    assert len({a.headers["Access-Control-Expose-Headers"] for a in answers}) == 1
    assert all("Origin" not in vary(a) for a in answers)
