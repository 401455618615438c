"""Cross-origin calls from browsers (flask-cors): `/v1` answers, errors included, carry the CORS headers.

Keys travel in headers, never in cookies, so no credentials are allowed and the default origin is `*`.
Preflights (OPTIONS with Access-Control-Request-Method) need no key and spend no rate budget: they run nothing.
"""

from __future__ import annotations

from flask import Flask, request
from flask_cors import CORS

ALLOW_HEADERS = ("Authorization", "X-API-Key", "Content-Type", "Idempotency-Key", "X-Request-ID", "If-None-Match")
EXPOSE_HEADERS = ("Location", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset",
                  "X-Request-ID", "ETag")
METHODS = ("GET", "HEAD", "POST", "DELETE", "OPTIONS")
#: Browsers may reuse a preflight's answer this many seconds (they cap it themselves: Chromium at 2 hours).
MAX_AGE = 600


def is_preflight() -> bool:
    """Whether the request is a CORS preflight."""
    return request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers


def origins(raw: str | list[str] | tuple[str, ...]) -> list[str]:
    """The allowed origins of `CORS_ORIGINS` (comma-separated, `*` for any); refuses an empty list."""
    found = [o.strip().rstrip("/") for o in (raw.split(",") if isinstance(raw, str) else raw) if o.strip()]
    if not found:
        raise ValueError("CORS_ORIGINS names no origin; use * to allow any")
    return found


def init_app(app: Flask) -> None:
    """Answer preflights and add the CORS headers to every `/v1` answer, for the configured origins."""
    CORS(app, resources={r"/v1/.*": {"origins": origins(app.config["CORS_ORIGINS"])}},
         allow_headers=list(ALLOW_HEADERS), expose_headers=list(EXPOSE_HEADERS), methods=list(METHODS),
         supports_credentials=False, send_wildcard=True, max_age=MAX_AGE)
