"""gunicorn's own error answers as problem+json, with the envelope's headers (the worker classes
deploy/gunicorn.conf.py chooses; docs/reliability.md#malformed-requests).

A request gunicorn cannot parse (a control character in a header, `Content-Length` twice, a request line over
`limit_request_line`, too many or too long header fields, an `Expect` other than `100-continue`, a transfer coding
it does not read) never reaches the app: gunicorn answers it itself, in `Worker.handle_error`, with a bare HTML page
that echoes part of the request and has none of the headers the envelope (service/http/envelope.py) gives every
answer of the app. The workers here answer the same statuses, gunicorn's mapping of its exceptions kept (a test
compares them), as the app's problems: `application/problem+json` with a `code` of service/http/problems.py, the
security headers, an `X-Request-ID` (the client's when the headers were read and it is sane, else a new one) that
is also the body's `request_id` and in the warning gunicorn logs, and `Connection: close`. The body is English (the
request's `Accept-Language` was never read) and never holds a byte of the request.

Left to gunicorn: its 403 to a PROXY protocol header from an address it does not trust and to a TLS error (this
project configures neither), and every worker class not here.
"""

from __future__ import annotations

import json
from datetime import timedelta
from http import HTTPStatus
from ssl import SSLError
from typing import Any

from gunicorn import util  # type: ignore[import-untyped]
from gunicorn.http import errors as http_errors  # type: ignore[import-untyped]
from gunicorn.http.wsgi import Response, default_environ  # type: ignore[import-untyped]
from gunicorn.workers.ggevent import GeventWorker  # type: ignore[import-untyped]
from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]
from gunicorn.workers.sync import SyncWorker  # type: ignore[import-untyped]

from ..http import requestid, security_headers
from ..http.errors import PROBLEM_TYPE, title
from ..http.problems import uri
from ..redaction import request_target

#: Exceptions gunicorn answers 400, with what the client sent wrong (gunicorn's own wording would quote the request).
MALFORMED = (
    (http_errors.InvalidRequestLine, "the request line is not `METHOD target HTTP/1.1`"),
    (http_errors.InvalidRequestMethod, "the request method is not a valid method name"),
    (http_errors.InvalidHTTPVersion, "the HTTP version is not one the server accepts (HTTP/1.0 or HTTP/1.1)"),
    (http_errors.InvalidHeaderName, "a header field name is not a valid token"),
    (http_errors.ObsoleteFolding, "a header field continues on a folded line (obsolete line folding)"),
    (http_errors.InvalidHeader, "a header field is malformed (a control character in its value, a line without a "
                                "colon) or given twice where it may occur once"),
    (http_errors.InvalidSchemeHeaders, "the headers naming the request's scheme contradict each other"),
    (http_errors.InvalidProxyLine, "the PROXY protocol line is malformed"),
    (http_errors.InvalidH2CPreface, "the connection does not start with the HTTP/2 preface"),
    ((http_errors.InvalidChunkSize, http_errors.ChunkMissingTerminator, http_errors.InvalidChunkExtension),
     "the chunked body is malformed"),
)
#: gunicorn's names of the headers whose repetition or misuse leaves the body's length ambiguous.
FRAMING = frozenset({"CONTENT-LENGTH", "TRANSFER-ENCODING"})
FRAMING_DETAIL = ("the body's length is ambiguous: `Content-Length` given twice or malformed, or with "
                  "`Transfer-Encoding`, or a transfer coding list that does not end with `chunked`")
#: gunicorn's fixed messages of LimitRequestHeaders, said with the configured limit.
TOO_LARGE = {"limit request headers fields": "more than {fields} header fields",
             "limit request headers fields size": "a header field longer than {size} bytes"}


def classify(exc: BaseException, cfg: Any) -> tuple[int, str, str] | None:
    """The status, problem code and detail of the answer to an error gunicorn caught; None: left to gunicorn."""
    if isinstance(exc, (http_errors.InvalidResponseHeader, http_errors.InvalidResponseHeaderName)):
        return 500, "internal_error", "internal error; it has been logged"  # the app's header: its fault
    if isinstance(exc, (http_errors.ForbiddenProxyRequest, SSLError)):
        return None
    if isinstance(exc, http_errors.LimitRequestLine):
        return 414, "request_line_too_long", f"the request line is longer than {cfg.limit_request_line} bytes"
    if isinstance(exc, http_errors.LimitRequestHeaders):
        said = TOO_LARGE.get(str(exc), "the header section is too large")
        return 431, "header_fields_too_large", said.format(fields=cfg.limit_request_fields,
                                                           size=cfg.limit_request_field_size)
    if isinstance(exc, http_errors.ExpectationFailed):
        return 417, "expectation_failed", "the server meets no expectation but `Expect: 100-continue`"
    if isinstance(exc, http_errors.UnsupportedTransferCoding):
        return 501, "unsupported_transfer_coding", "the server reads no transfer coding but `chunked`"
    if isinstance(exc, http_errors.InvalidHeader) and getattr(exc, "hdr", None) in FRAMING:
        return 400, "malformed_request", FRAMING_DETAIL
    for kinds, detail in MALFORMED:
        if isinstance(exc, kinds):
            return 400, "malformed_request", detail
    return 500, "internal_error", "internal error; it has been logged"


def request_id(req: Any) -> str:
    """The id of the answer: the request's `X-Request-ID` when its headers were read and it is sane, else a new one
    (as the envelope chooses it, service/http/requestid.py)."""
    for name, value in getattr(req, "headers", None) or ():
        if name == "X-REQUEST-ID" and requestid.SANE.fullmatch(value):
            return str(value)
    return requestid.new_id()


def render(status: int, code: str, detail: str, rid: str) -> tuple[list[tuple[str, str]], bytes]:
    """The headers and body of a problem answer in the app's shape (service/http/errors.py `problem`)."""
    body = json.dumps({"type": uri(code), "title": str(title(status)), "status": status, "detail": detail,
                       "code": code, "request_id": rid}, sort_keys=True, separators=(",", ":")).encode()
    headers = [("Date", util.http_date()), ("Connection", "close"), ("Content-Type", PROBLEM_TYPE),
               ("Content-Length", str(len(body))), ("Content-Language", "en"),
               *security_headers.HEADERS.items(), ("Content-Security-Policy", security_headers.policy_for(None)),
               (requestid.HEADER, rid)]
    return headers, body


class ProblemAnswers:
    """`handle_error` of a gunicorn worker, answering problem+json; mixed in before gunicorn's worker class."""

    log: Any
    cfg: Any

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        """Answer an error gunicorn caught before or around the app as a problem, logged as gunicorn logs it."""
        found = classify(exc, self.cfg)
        if found is None:
            super().handle_error(req, client, addr, exc)  # type: ignore[misc]
            return
        status, code, detail = found
        if not req and isinstance(exc, (http_errors.InvalidHeader, http_errors.InvalidHeaderName)):
            req = getattr(exc, "req", None)  # the headers read so far: for the access log and the client's id
        rid = request_id(req)
        ip = (addr or ("", -1))[0]  # a unix socket has no address
        if status == 500:
            self.log.exception("Error handling request (answered 500 internal_error, rid=%s)", rid)
        else:  # gunicorn's warning, which quotes the request with repr(): no control character reaches the log,
            # nor a key put in the query (service/runtime/access_log.py)
            self.log.warning("Invalid request from ip=%s: %s (answered %d %s, rid=%s)", ip, request_target(str(exc)),
                             status, code, rid)
        headers, body = render(status, code, detail, rid)
        if req is not None and hasattr(req, "method"):
            self._log_access(req, client, addr, status, headers, len(body))
        head = f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n" + "".join(f"{n}: {v}\r\n" for n, v in headers)
        try:
            util.write_nonblock(client, head.encode("latin-1") + b"\r\n" + body)
        except Exception:
            self.log.debug("Failed to send error message.")

    def _log_access(self, req: Any, client: Any, addr: Any, status: int, headers: list[tuple[str, str]],
                    sent: int) -> None:
        """The access log line of a request whose headers were read, with the answer's X-Request-ID."""
        environ = default_environ(req, client, self.cfg)
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = (addr[0], str(addr[1])) if addr else ("", "-1")
        resp = Response(req, client, self.cfg)
        resp.status, resp.headers, resp.sent = f"{status} {HTTPStatus(status).phrase}", headers, sent
        self.log.access(resp, req, environ, timedelta(0))


class ProblemGeventWorker(ProblemAnswers, GeventWorker):
    """gunicorn's gevent worker answering its errors as problems."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        """Answer, then close as RFC 9112 9.6 says (gunicorn's gevent worker closes at once: with request bytes
        still unread, as after a request line over the limit, the kernel then resets the connection and the client
        may lose the answer)."""
        super().handle_error(req, client, addr, exc)
        util.close_graceful(client)


class ProblemThreadWorker(ProblemAnswers, ThreadWorker):
    """gunicorn's gthread worker answering its errors as problems (it closes the connection gracefully itself)."""


class ProblemSyncWorker(ProblemAnswers, SyncWorker):
    """gunicorn's sync worker answering its errors as problems (it closes the connection gracefully itself)."""
