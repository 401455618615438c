"""API keys: stored as SHA-256 hashes only, checked before every request once `API_KEYS` is configured.

A key is presented as `Authorization: Bearer <key>` or `X-API-Key: <key>`; its name becomes `flask.g.api_key`,
the owner of the jobs it creates. Liveness, readiness, metrics, the docs, the pages and their icon stay open.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable

from flask import Flask, Response, current_app, g, request
from werkzeug.routing import RequestRedirect

from ..config import ConfigError
from ..rules.text import text
from .cors import is_preflight
from .errors import problem
from .ratelimit import FailureLimit

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
DIGEST = re.compile(r"[0-9a-fA-F]{64}")
#: Unsalted SHA-256 is only safe for random keys: refuse to hash short ones.
MIN_KEY_LENGTH = 16
#: Open without a key, decided by the route a request matched (never by a prefix of its path): the probes, the
#: metrics, the spec, the problem types, a stored game and its rounds (the unguessable id is the capability: a link
#: shared with players works for them; the rate limits still apply), and the blueprints of the API docs and of the
#: browser pages (the root, the rules page, static files; the API calls the pages make need a key like any other).
OPEN_ENDPOINTS = frozenset({"health.Health", "health.Ready", "metrics", "api-docs.openapi_json",
                            "problems.ProblemType", "oembed.Oembed", "shares.Share", "shares.ShareRound"})
OPEN_BLUEPRINTS = frozenset({"swagger_ui", "ui", "embed"})
NO_KEYS_REQUIRED = ("LONGCARDS_REQUIRE_AUTH is set but LONGCARDS_API_KEYS names no key: refusing to start without "
                    "authentication (python -m service hash-key NAME prints an entry)")
NO_KEYS_WARNING = ("NO AUTHENTICATION: LONGCARDS_API_KEYS names no key, so every request is served to anyone; "
                   "set LONGCARDS_API_KEYS (and LONGCARDS_REQUIRE_AUTH=true to refuse to start without it)")
def digest(key: str) -> str:
    """The stored form of a key: its SHA-256, hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def entry(name: str, key: str) -> str:
    """The `API_KEYS` entry (`name:sha256hex`) for a key; refuses bad names and short keys."""
    if not NAME.fullmatch(name):
        raise ValueError("a key name is 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit")
    if len(key) < MIN_KEY_LENGTH:
        raise ValueError(f"a key has at least {MIN_KEY_LENGTH} characters; make one with "
                         "python -c 'import secrets; print(secrets.token_urlsafe(32))'")
    return f"{name}:{digest(key)}"


def parse_keys(raw: str | Iterable[str] | None) -> tuple[tuple[str, str], ...]:
    """(name, hash) pairs from `name:sha256hex` entries; several hashes may share a name (key rotation).

    A blank value means no keys; otherwise every entry must be well formed, an empty one (`a:..,`, `,`) included,
    so a mistyped value stops the service instead of leaving it with fewer keys or none.
    """
    if isinstance(raw, str):
        entries = raw.split(",") if raw.strip() else []
    else:
        entries = list(raw or ())
    keys: dict[str, str] = {}
    for i, entry in enumerate(e.strip() for e in entries):
        name, _, hashed = entry.partition(":")
        if not NAME.fullmatch(name) or not DIGEST.fullmatch(hashed):
            # The entry itself is not echoed: a plain key pasted here by mistake must not reach the logs.
            raise ConfigError(f"LONGCARDS_API_KEYS entry {i} is not name:sha256hex (python -m service hash-key NAME)")
        if hashed.lower() in keys:
            raise ConfigError(f"LONGCARDS_API_KEYS entry {i} repeats the hash of key {keys[hashed.lower()]!r}")
        keys[hashed.lower()] = name
    return tuple((name, hashed) for hashed, name in keys.items())


def presented_key() -> str | None:
    """The key the request carries (Bearer token, else X-API-Key), or None."""
    scheme, _, token = request.headers.get("Authorization", "").strip().partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return request.headers.get("X-API-Key", "").strip() or None


def key_name(key: str, keys: tuple[tuple[str, str], ...]) -> str | None:
    """The name of the key whose hash matches, comparing every stored hash in constant time."""
    found = None
    presented = digest(key)
    for name, hashed in keys:
        if hmac.compare_digest(presented, hashed):
            found = name
    return found


def is_open(method: str) -> bool:
    """Whether the request needs no key: a GET or HEAD of an open route (OPEN_ENDPOINTS, OPEN_BLUEPRINTS), or of a
    path the router only redirects (`/docs` to `/docs/`), which runs nothing."""
    if method not in ("GET", "HEAD"):
        return False
    if request.endpoint is None:
        return isinstance(request.routing_exception, RequestRedirect)
    return request.endpoint in OPEN_ENDPOINTS or request.blueprint in OPEN_BLUEPRINTS


def require_key() -> Response | None:
    """Before each request: 401 without a key, which costs nothing; a valid key's name remembered, whatever the
    address did before; an unknown key refused with 403 and counted against the address, or with 429 once the
    address is over its failed authentications. Only refused keys count: a request without a key (a page's
    `<img>`, a browser's own `/favicon.ico`) cannot lock an address out, and others' wrong keys from a shared
    address (an office, a proxy) never lock out a valid key. CORS preflights pass: browsers send them without the
    key's header, and they run nothing."""
    if is_open(request.method) or is_preflight():
        return None
    key = presented_key()
    if key is None:
        return problem(401, "missing_api_key", text("an API key is required: Authorization: Bearer <key> or X-API-Key"),
                       headers={"WWW-Authenticate": "Bearer"})
    name = key_name(key, current_app.extensions["longcards_api_keys"])
    if name is not None:
        g.api_key = name
        return None
    failures: FailureLimit | None = current_app.extensions.get("longcards_auth_failures")
    if failures:
        address = request.remote_addr or "unknown"
        wait = failures.retry_after(address)
        if wait is not None:
            return problem(429, "rate_limited", text("too many failed authentications from this address; retry later"),
                           headers={"Retry-After": str(wait)})
        failures.failed(address)
    return problem(403, "invalid_api_key", text("the API key is not valid"))


def init_app(app: Flask) -> None:
    """Check API keys on every request when `API_KEYS` names any, limiting each address's failed attempts
    when `AUTH_FAIL_LIMIT` is set; refuse to start on a malformed entry, or on none with `REQUIRE_AUTH`;
    warn when the API runs open."""
    keys = parse_keys(app.config.get("API_KEYS"))
    app.extensions["longcards_api_keys"] = keys
    if keys:
        if app.config.get("AUTH_FAIL_LIMIT"):
            app.extensions["longcards_auth_failures"] = FailureLimit(app.config["AUTH_FAIL_LIMIT"], app.config)
        app.before_request(require_key)
    elif app.config.get("REQUIRE_AUTH"):
        raise ConfigError(NO_KEYS_REQUIRED)
    else:
        app.logger.warning(NO_KEYS_WARNING)
