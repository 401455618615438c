"""Configuration: defaults here, overridden by `LONGCARDS_*` environment variables, then by `create_app(config)`.

Nothing is read at import time; `load()` is called by the app factory.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

PREFIX = "LONGCARDS_"
#: Where Redis is (service/jobs/redisconf.py): names shared with the workers, read without the prefix.
REDIS_SETTINGS = ("REDIS_URL", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER", "REDIS_SENTINEL_PASSWORD")


class ConfigError(RuntimeError):
    """A setting the service cannot start with; gunicorn prints a RuntimeError's message and exits 1."""

DEFAULTS: dict[str, Any] = {
    "API_TITLE": "Long Cards hand evaluation and replay service",
    "API_VERSION": "1.0.0",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    # Request bodies larger than this get 413 problem+json (bytes); a batch of 200 logs is about 1 MB.
    "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
    "DOCS_URL": "/docs",
    # Webhooks to loopback / private addresses (tests, or a site's own network behind the firewall).
    "WEBHOOK_ALLOW_PRIVATE": False,
    # Comma-separated `name:sha256hex` entries (`python -m service hash-key NAME`); empty = no keys needed.
    "API_KEYS": "",
    # Refuse to start unless API_KEYS names at least one key (deployments set it, so no empty secret runs open).
    "REQUIRE_AUTH": False,
    # Requests per API key (else per client address) across the API, e.g. "600/minute"; empty = no limit.
    "RATE_LIMIT": "",
    # Failed authentications (401/403) per client address, e.g. "20/minute"; beyond it the address gets 429.
    "AUTH_FAIL_LIMIT": "20/minute",
    # Jobs one API key (else one client address) may have queued or running at once; 0 = no limit.
    "MAX_ACTIVE_JOBS": 20,
    # Seconds a job is kept once it has ended, whatever its end (finished, failed, canceled): its status, result,
    # the idempotency key naming it and its webhook's delivery job all expire then.
    "JOB_RESULT_TTL": 24 * 3600,
    # Replicas that must acknowledge a job before its submission is answered 202 (Redis WAIT), so that a failover
    # cannot lose it; at most those attached are waited for. -1: one when Redis is reached through Sentinels, else 0.
    "SUBMIT_REPLICAS": -1,
    # How long a submission waits for them (ms), then answers 503 `not_replicated` (the job may exist: the same
    # request sent again answers it). Below the Redis client's 5 s socket timeout.
    "SUBMIT_REPLICA_WAIT_MS": 1000,
    # Answer plain POST /v1/hu requests outside Flask's request machinery when no request hook is configured (no API
    # keys, rate limit or CORS origins): the same answers at a fraction of the cost (service/http/fastlane.py).
    "FAST_LANE": True,
    # Serve GET /metrics (Prometheus text format).
    "METRICS": True,
    # Origins of other sites whose pages may call /v1 from the browser, comma-separated; "*" = any (keys are headers,
    # not cookies); empty = none: only the service's own pages (same-origin), so no other site a user visits can.
    "CORS_ORIGINS": "",
    # Reverse proxies in front of the API whose X-Forwarded-For / X-Forwarded-Proto are trusted (the deploy files'
    # nginx: 1); 0 = none, the headers are ignored (a client could forge them).
    "TRUSTED_PROXIES": 0,
}


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def _coerce(name: str, default: Any, raw: str) -> Any:
    """Parse the environment string of `name` into the type of its default; ConfigError when it does not parse."""
    try:
        if isinstance(default, bool):
            word = raw.strip().lower()
            if word not in TRUE + FALSE:
                raise ValueError("expected true or false")
            return word in TRUE
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, (dict, list)):
            return json.loads(raw)
    except ValueError as error:
        raise ConfigError(f"{PREFIX}{name} is not a valid value: {error}") from None
    return raw


def load(overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Defaults, then `LONGCARDS_<NAME>` environment variables, then `overrides`."""
    env = os.environ if environ is None else environ
    config = dict(DEFAULTS)
    for name, default in DEFAULTS.items():
        if PREFIX + name in env:
            config[name] = _coerce(name, default, env[PREFIX + name])
    # Names fixed by the contract or shared with the workers, read without the prefix.
    for name in REDIS_SETTINGS:
        config.setdefault(name, env.get(name))
    config.setdefault("WEBHOOK_SECRET", env.get("LONGCARDS_WEBHOOK_SECRET"))
    config.update(overrides or {})
    return config
