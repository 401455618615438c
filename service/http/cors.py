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

import ipaddress
import re

from flask import Flask, Response, request
from flask_cors import CORS

from ..config import HOSTNAME

ALLOW_HEADERS = ("Authorization", "X-API-Key", "Content-Type", "Idempotency-Key", "X-Request-ID", "If-None-Match",
                 "X-Seats-From")
EXPOSE_HEADERS = ("Location", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset",
                  "X-Request-ID", "ETag")
METHODS = ("GET", "HEAD", "POST", "DELETE", "OPTIONS")
#: The paths whose answers carry the CORS headers.
API_PREFIX = "/v1/"
#: Browsers may reuse a preflight's answer this many seconds (they cap it themselves: Chromium at 2 hours).
MAX_AGE = 600


def is_preflight() -> bool:
    """Whether the request is a CORS preflight."""
    return request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers


ANY_ORIGIN_WARNING = ("LONGCARDS_CORS_ORIGINS=* with no API key: any web page a user of this service visits may "
                      "call it from their browser (list, read and cancel every job); name the sites that need it in "
                      "LONGCARDS_CORS_ORIGINS, or set LONGCARDS_API_KEYS")


#: The ports a browser leaves out of an origin it sends.
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def origin_problem(origin: str) -> str:
    """Why a browser never sends `origin` as its `Origin` (which is scheme://host or scheme://host:port, the port
    from 1 to 65535 and left out when it is the scheme's own); "" when it may."""
    scheme, separator, authority = origin.partition("://")
    if not separator or not re.fullmatch(r"[a-z][a-z0-9+.-]*", scheme):
        return "not scheme://host[:port]"
    for marks, what in (("@", "a user or password"), ("/", "a path"), ("?#", "a query or fragment"),
                        ("*", "a wildcard (* alone allows any origin)"), (" \t", "a space")):
        if any(mark in authority for mark in marks):
            return f"it has {what}: an origin is scheme://host[:port]"
    host, port = authority, ""
    if re.search(r":[^:\]]*$", authority):  # a port after the host (an IPv6 address's colons are in brackets)
        host, _, port = authority.rpartition(":")
        if not port.isdigit() or not 0 < int(port) < 65536:
            return "the port is not from 1 to 65535"
        if DEFAULT_PORTS.get(scheme) == int(port):
            return f"a browser sends it without :{port}, the port of {scheme}"
    try:
        valid = ipaddress.IPv6Address(host[1:-1]) if host[:1] == "[" and host[-1:] == "]" else HOSTNAME.fullmatch(host)
    except ValueError:
        valid = None
    return "" if valid else "not a host name or address"


def checked_origins(raw: str | list[str] | tuple[str, ...] | None) -> list[str]:
    """The origins of a setting (comma-separated, `*` for any) as a browser sends them; none when it is empty. One a
    browser never sends (`origin_problem`) is refused: ValueError saying why, naming it when there are several (never
    one with a user or password)."""
    found = [o.strip().rstrip("/") for o in ((raw or "").split(",") if isinstance(raw, str) or raw is None else raw)
             if o.strip()]
    for origin in found:
        why = "" if origin == "*" else origin_problem(origin)
        if why:
            named = len(found) > 1 and "@" not in origin
            raise ValueError(f"{origin!r}: {why}" if named else why)
    return found


def origins(raw: str | list[str] | tuple[str, ...] | None) -> list[str | re.Pattern[str]]:
    """The allowed origins of `CORS_ORIGINS` (`checked_origins`), as flask-cors matches them: an IPv6 origin as a
    pattern of itself, since flask-cors takes text holding brackets for a regular expression."""
    return [re.compile(re.escape(o), re.IGNORECASE) if "[" in o else o for o in checked_origins(raw)]


def vary_by_origin(response: Response) -> Response:
    """Say `Vary: Origin` on every `/v1` answer, merged into the answer's other `Vary` values: its CORS headers
    depend on the request's `Origin` (a granted origin is named, another gets none), so a shared cache must not
    hand one site's answer to another, nor an answer to a request without `Origin` to a browser."""
    if request.path.startswith(API_PREFIX):
        response.vary.add("Origin")
    return response


def init_app(app: Flask) -> None:
    """Answer preflights and add the CORS headers to every `/v1` answer, for the configured origins; nothing at all
    when none is configured (the default: same-origin only). With `*` every `/v1` answer says
    `Access-Control-Allow-Origin: *`, `Origin` or not, so it is the same for every site and needs no `Vary: Origin`;
    with named origins only a granted origin's request gets the header, and every answer varies by `Origin`."""
    allowed = origins(app.config["CORS_ORIGINS"])
    if not allowed:
        return
    if "*" in allowed and not str(app.config.get("API_KEYS") or "").strip():
        app.logger.warning(ANY_ORIGIN_WARNING)
    any_origin = "*" in allowed
    # flask-cors's own Vary is added as a second header line (which a later `Vary` update drops) and only with
    # several origins; without `Origin` it would name every allowed origin (always_send), one header line each.
    CORS(app, resources={rf"{API_PREFIX}.*": {"origins": allowed}},
         allow_headers=list(ALLOW_HEADERS), expose_headers=list(EXPOSE_HEADERS), methods=list(METHODS),
         supports_credentials=False, send_wildcard=True, max_age=MAX_AGE, vary_header=False,
         always_send=any_origin)
    if not any_origin:
        app.after_request(vary_by_origin)
