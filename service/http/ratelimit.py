"""Rate limits (Flask-Limiter): `RATE_LIMIT` per API key, else per client address, counted in Redis; every
limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds). And
`AUTH_FAIL_LIMIT`, refused API keys per client address (the `limits` library Flask-Limiter is built on).

One budget per caller across the whole API; liveness, readiness and metrics are exempt. Redis being down
never fails a request: the limiters count in process memory until Redis answers again. Both count in the Redis the
jobs use (`REDIS_URL`, or the primary the Sentinels name: service/redisconf.py).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app, g, request
from flask_limiter import HeaderNames, Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from ..redisconf import RedisSettings, failure
from ..rules.text import text
from .cors import is_preflight
from .errors import problem

EXEMPT_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
#: The IETF RateLimit header fields on every limited answer. Flask-Limiter writes the reset as a Unix time under
#: RESET and then *sets* the delta seconds under RETRY_AFTER (on every answer, not only 429s): mapping both to
#: `RateLimit-Reset` leaves the delta seconds the fields call for, and `Retry-After` to the 429s (and the
#: job submissions' polling hint) that set it themselves.
HEADERS = {HeaderNames.LIMIT: "RateLimit-Limit", HeaderNames.REMAINING: "RateLimit-Remaining",
           HeaderNames.RESET: "RateLimit-Reset", HeaderNames.RETRY_AFTER: "RateLimit-Reset"}

log = logging.getLogger(__name__)


class FailureLimit:
    """Refused keys per client address in a moving window: past the limit, the address's wrong keys answer 429
    until its oldest refusal leaves the window, so a client that keeps sending a wrong key is told to stop."""

    def __init__(self, limit: str, settings: Mapping[str, Any]) -> None:
        self.items: list[RateLimitItem] = parse_many(limit)
        self.settings = settings
        uri, options = RedisSettings.read(settings).limits_storage(socket_connect_timeout=1, socket_timeout=1)
        self.shared = MovingWindowRateLimiter(storage_from_string(uri, **options))
        self.local = MovingWindowRateLimiter(MemoryStorage())  # while Redis does not answer

    def _call(self, method: str, *args: object):
        """The shared limiter's `method`, or the in-process one's when Redis fails."""
        try:
            return getattr(self.shared, method)(*args)
        except Exception as error:  # Redis down or timing out: never fail the request for it
            log.warning("auth failure limit: redis unavailable (%s); counting in memory", failure(error, self.settings))
            return getattr(self.local, method)(*args)

    def retry_after(self, address: str) -> int | None:
        """Seconds until `address` may try again, or None when it is under the limit."""
        for item in self.items:
            if not self._call("test", item, "authfail", address):
                reset = self._call("get_window_stats", item, "authfail", address).reset_time
                return max(1, math.ceil(reset - time.time()))
        return None

    def failed(self, address: str) -> None:
        """Count one failed authentication of `address`."""
        for item in self.items:
            self._call("hit", item, "authfail", address)


def caller() -> str:
    """Whose budget a request spends: the API key's name, else the client address."""
    name = getattr(g, "api_key", None)
    return f"key:{name}" if name else f"addr:{request.remote_addr or 'unknown'}"


def exempt() -> bool:
    """Liveness, readiness and metrics are never limited (probes and scrapers must always get through), nor are
    CORS preflights (a browser sends one before many calls)."""
    return request.path in EXEMPT_PATHS or is_preflight()


def handle_rate_limited(error: RateLimitExceeded) -> Response:
    """429 problem+json with Retry-After: the seconds until the caller's window resets."""
    limit, retry_after = error.description, 60
    try:
        # The breached limit (the exception may name another of several configured ones).
        current = current_app.extensions["longcards_limiter"].current_limit
        if current is not None:
            limit = str(current.limit)
            retry_after = max(1, math.ceil(current.window.reset_time - time.time()))
    except Exception:  # the storage failed between the hit and this read: keep the defaults
        pass
    return problem(429, "rate_limited", text("rate limit exceeded ({limit}); retry later", limit=limit),
                   headers={"Retry-After": str(retry_after)})


def init_app(app: Flask) -> None:
    """Install the limiter when `RATE_LIMIT` is set; nothing connects to Redis until the first request."""
    limit = app.config.get("RATE_LIMIT")
    if not limit:
        return
    parse_many(limit)  # a malformed limit fails at startup, not on the first request
    # Short timeouts: a hung Redis must not hold requests; the in-memory fallback takes over.
    uri, options = RedisSettings.read(app.config).limits_storage(socket_connect_timeout=1, socket_timeout=1)
    limiter = Limiter(
        caller, application_limits=[limit], storage_uri=uri, storage_options=options,
        swallow_errors=True, in_memory_fallback_enabled=True, key_prefix="longcards",
        headers_enabled=True, header_name_mapping=HEADERS,
    )
    limiter.request_filter(exempt)
    limiter.init_app(app)
    app.extensions["longcards_limiter"] = limiter
    app.register_error_handler(RateLimitExceeded, handle_rate_limited)
