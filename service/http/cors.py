"""Cross-origin calls from browsers (flask-cors): `/v1` answers, errors included, carry the CORS headers for the
origins named in `CORS_ORIGINS`.

By default no origin is named and no answer carries them: the service's own pages are same-origin, and a web page
of any other site the user visits cannot read (or, past a preflight, send) calls to the API, which matters most
for a local service without API keys (it would list, read and cancel every job). An integrator names its origins;
`*` (any origin) only when set explicitly, with a warning when no API key is configured. Keys travel in headers,
never in cookies, so no credentials are allowed. Preflights (OPTIONS with Access-Control-Request-Method) need no
key and spend no rate budget: they run nothing.
"""

from __future__ import annotations

import re

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


ANY_ORIGIN_WARNING = ("LONGCARDS_CORS_ORIGINS=* with no API key: any web page a user of this service visits may "
                      "call it from their browser (list, read and cancel every job); name the sites that need it in "
                      "LONGCARDS_CORS_ORIGINS, or set LONGCARDS_API_KEYS")


def origins(raw: str | list[str] | tuple[str, ...] | None) -> list[str]:
    """The allowed origins of `CORS_ORIGINS` (comma-separated, `*` for any); none when it is empty. An origin is a
    scheme and a host, with a port if any: one with a path (`https://a.example/app`), without a scheme or with a
    wildcard never matches what a browser sends, so it is refused."""
    found = [o.strip().rstrip("/") for o in ((raw or "").split(",") if isinstance(raw, str) or raw is None else raw)
             if o.strip()]
    for origin in found:
        if origin != "*" and not re.fullmatch(r"[a-z][a-z0-9+.-]*://[^/\s*]+", origin):
            raise ValueError(f"CORS_ORIGINS: {origin!r} is not an origin (scheme://host or scheme://host:port), nor *")
    return found


def init_app(app: Flask) -> None:
    """Answer preflights and add the CORS headers to every `/v1` answer, for the configured origins; nothing at all
    when none is configured (the default: same-origin only)."""
    allowed = origins(app.config["CORS_ORIGINS"])
    if not allowed:
        return
    if "*" in allowed and not str(app.config.get("API_KEYS") or "").strip():
        app.logger.warning(ANY_ORIGIN_WARNING)
    CORS(app, resources={r"/v1/.*": {"origins": allowed}},
         allow_headers=list(ALLOW_HEADERS), expose_headers=list(EXPOSE_HEADERS), methods=list(METHODS),
         supports_credentials=False, send_wildcard=True, max_age=MAX_AGE)
