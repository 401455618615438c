"""What every answer gets, in one WSGI layer around the app instead of seven Flask hooks.

- `X-Request-ID` (service/http/requestid.py): the client's when sane, else a new one, fixed before the app runs.
- The security headers (service/http/security_headers.py), each unless the view set its own.
- `Vary: Accept-Encoding` (compression, service/http/compression.py, decides per answer whether to gzip).
- `Content-Language` when a text of the answer was translated (service/i18n.py).
- The request metrics (service/http/metrics.py): a count per method, route rule and status, and the latency.

Flask runs each before/after hook through `ensure_sync` and each header edit through a case-insensitive search of
the answer's headers; here the headers are a plain list edited once, when the answer starts. The request object
(the route rule, the blueprint) is read from the WSGI environment, where werkzeug keeps it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from .. import i18n
from . import metrics, requestid, security_headers

Headers = list[tuple[str, str]]
StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

#: The headers added unless the answer has them (lower-cased names to test against).
FIXED = {blueprint: tuple((name, name.lower(), value) for name, value in security_headers.fixed_for(blueprint).items())
         for blueprint in (None, security_headers.EMBED_BLUEPRINT)}
CSP = "Content-Security-Policy"


class Envelope:
    """WSGI middleware: request id, security headers, `Vary`, metrics. O(headers) per answer."""

    def __init__(self, app: WsgiApp, *, record_metrics: bool = True) -> None:
        self.app = app
        self.record_metrics = record_metrics

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        rid = requestid.assign(environ)
        seen: list[tuple[str, str]] = []  # (status, route rule) of the answer, noted when it starts

        def start(status: str, headers: Headers, exc_info: Any = None) -> Any:
            # The request object is in the environment until Flask pops the request context, after this call.
            request = environ.get("werkzeug.request")
            if request is not None:
                rule = request.url_rule
                route, blueprint = (rule.rule if rule is not None else metrics.UNMATCHED), request.blueprint
            else:
                route, blueprint = metrics.UNMATCHED, None
            names = {name.lower() for name, _ in headers}
            fixed = FIXED[security_headers.EMBED_BLUEPRINT if blueprint == security_headers.EMBED_BLUEPRINT else None]
            for name, lowered, value in fixed:
                if lowered not in names:
                    headers.append((name, value))
            if "content-security-policy" not in names:
                headers.append((CSP, security_headers.policy_for(blueprint)))
            if "vary" not in names:
                headers.append(("Vary", "Accept-Encoding"))
            else:
                for index, (name, value) in enumerate(headers):
                    if name.lower() == "vary" and "accept-encoding" not in value.lower():
                        headers[index] = (name, f"{value}, Accept-Encoding")
            language = environ.get(i18n.ENVIRON_KEY)  # a text of the answer was translated
            if language is not None and "content-language" not in names:
                headers.append(("Content-Language", i18n.tag(language)))
            if "x-request-id" in names:
                headers[:] = [(n, v) for n, v in headers if n.lower() != "x-request-id"]
            headers.append((requestid.HEADER, rid))
            seen.append((status[:3], route))
            return start_response(status, headers, exc_info)

        answer = self.app(environ, start)
        if self.record_metrics and seen:
            status, endpoint = seen[-1]
            metrics.observe(environ.get("REQUEST_METHOD", ""), endpoint, status, time.perf_counter() - started)
        return answer
