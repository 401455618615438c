"""One problem+json (RFC 9457) error model for every failure: `type`, `title`, `status`, `detail`, `code`,
and `errors` (field -> messages) for invalid input. Never a bare 500 page."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask import Flask, Response, has_request_context, json
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from werkzeug.exceptions import HTTPException

from ..rules.errors import DomainError
from .problems import PROBLEMS, uri
from .requestid import request_id

PROBLEM_TYPE = "application/problem+json"
log = logging.getLogger(__name__)
#: An answer lists at most this many invalid fields (`errors_omitted` counts the rest) ...
MAX_REPORTED_ERRORS = 50
#: ... and cuts every field path and message to this many characters: a huge input is never echoed back.
MAX_ERROR_TEXT = 200

#: Stable codes for HTTP-level failures (domain codes come from service.rules.errors).
HTTP_CODES = {
    400: "malformed_json", 404: "not_found", 405: "method_not_allowed", 413: "payload_too_large",
    415: "unsupported_media_type", 422: "invalid_request", 429: "rate_limited", 500: "internal_error",
}
#: marshmallow's default messages as people read them ("must be an integer", not "Not a valid integer.").
MESSAGES = {
    "Not a valid integer.": "must be an integer", "Not a valid string.": "must be a string",
    "Not a valid boolean.": "must be true or false", "Not a valid number.": "must be a number",
    "Not a valid list.": "must be an array", "Not a valid mapping type.": "must be an object",
    "Invalid type.": "must be an object", "Invalid input type.": "must be an object",
    "Missing data for required field.": "is required", "Field may not be null.": "must not be null",
    "Unknown field.": "is not a field of this request", "Not a valid URL.": "must be an http(s) URL",
    "Number too large.": "is too large", "Not a valid utf-8 string.": "must be valid UTF-8",
    "Special numeric values (nan or infinity) are not permitted.": "must be a finite number",
}
PATTERNS = (
    (re.compile(r"Must be greater than or equal to (\S+) and less than or equal to (\S+)\."), r"must be \1 to \2"),
    (re.compile(r"Must be greater than or equal to (\S+)\."), r"must be at least \1"),
    (re.compile(r"Must be less than or equal to (\S+)\."), r"must be at most \1"),
    (re.compile(r"Must be (greater|less) than (\S+)\."), r"must be \1 than \2"),
    (re.compile(r"Length must be between (\d+) and (\d+)\."), r"length must be \1 to \2"),
    (re.compile(r"Length must be (\d+)\."), r"length must be \1"),
    (re.compile(r"Longer than maximum length (\d+)\."), r"length must be at most \1"),
    (re.compile(r"Shorter than minimum length (\d+)\."), r"length must be at least \1"),
    (re.compile(r"Must be one of: (.*)\."), r"must be one of: \1"),
)


class ProblemSchema(ma.Schema):
    """An RFC 9457 problem document as this service sends it."""

    type = ma.fields.String(required=True, metadata={"description": "URI reference naming the problem type"})
    title = ma.fields.String(required=True)
    status = ma.fields.Integer(required=True)
    detail = ma.fields.String(required=True)
    code = ma.fields.String(required=True, metadata={"description": "stable snake_case error code"})
    errors = ma.fields.Dict(
        keys=ma.fields.String(), values=ma.fields.List(ma.fields.String()),
        metadata={"description": f"invalid input: dotted field path -> messages (the first {MAX_REPORTED_ERRORS})"},
    )
    request_id = ma.fields.String(metadata={"description": "the request's X-Request-ID, to quote when reporting"})
    errors_omitted = ma.fields.Integer(metadata={"description": "invalid fields found beyond those in `errors`"})


class TooManyRequests(Exception):
    """A request refused for now (429 problem+json with `Retry-After`): the caller may retry later."""

    def __init__(self, code: str, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.code, self.detail, self.retry_after = code, detail, retry_after


def problem(status: int, code: str, detail: str, errors: Mapping[str, list[str]] | None = None,
            headers: Mapping[str, str] | None = None) -> Response:
    """Build a problem+json response."""
    if code not in PROBLEMS:
        log.warning("problem code %r has no entry in service.http.problems", code)
    body: dict[str, Any] = {
        "type": uri(code), "title": HTTPStatus(status).phrase, "status": status,
        "detail": clip(detail, 2 * MAX_ERROR_TEXT), "code": code,
    }
    if errors:
        shown = list(errors.items())[:MAX_REPORTED_ERRORS]
        body["errors"] = {clip(k): [clip(m) for m in list(v)[:MAX_REPORTED_ERRORS]] for k, v in shown}
        if len(errors) > len(shown):
            body["errors_omitted"] = len(errors) - len(shown)
    if has_request_context():
        body["request_id"] = request_id()
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def clip(text: str, limit: int = MAX_ERROR_TEXT) -> str:
    """`text`, cut to `limit` characters with an ellipsis."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def flatten(messages: Any, prefix: str = "") -> dict[str, list[str]]:
    """Flatten marshmallow/webargs nested messages into dotted field paths ("hand.3": [...])."""
    if isinstance(messages, Mapping):
        out: dict[str, list[str]] = {}
        for key, value in messages.items():
            if key in ("json", "query") and not prefix:  # webargs' location level
                out.update(flatten(value))
                continue
            name = prefix if key == "_schema" else (f"{prefix}.{key}" if prefix else str(key))
            out.update(flatten(value, name))
        return out
    if isinstance(messages, (list, tuple)) and all(isinstance(m, str) for m in messages):
        return {prefix or "body": [readable(m) for m in messages]}
    if isinstance(messages, (list, tuple)):
        out = {}
        for i, value in enumerate(messages):
            out.update(flatten(value, f"{prefix}.{i}" if prefix else str(i)))
        return out
    return {prefix or "body": [readable(str(messages))]}


def readable(message: str) -> str:
    """A marshmallow message as a person reads it beside the field name."""
    if message in MESSAGES:
        return MESSAGES[message]
    for pattern, replacement in PATTERNS:
        if pattern.fullmatch(message):
            return pattern.sub(replacement, message)
    return message


def handle_http_exception(error: HTTPException) -> Response:
    """HTTP errors (webargs validation, 404, 405, 413 ...) as problem+json."""
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    if status == 400 and messages is not None:
        return problem(400, "malformed_json", "the request body is not valid JSON", flatten(messages) or None)
    if status == 422 and messages is not None:
        errors = flatten(messages)
        names = sorted(errors)
        more = f" and {len(names) - 10} more" if len(names) > 10 else ""
        return problem(422, "invalid_request", f"invalid fields: {', '.join(names[:10])}{more}", errors)
    if status == 413:
        return problem(413, "payload_too_large", "the request body exceeds the configured maximum size")
    code = HTTP_CODES.get(status, "http_error")
    # Keep protocol headers werkzeug sets (e.g. `Allow` on 405, RFC 9110), not its HTML content type.
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    headers.update(data.get("headers") or {})
    return problem(status, code, error.description or HTTPStatus(status).phrase, headers=headers)


def handle_domain_error(error: DomainError) -> Response:
    """Rules-engine rejections: 422 with the stable code and the field at fault."""
    errors = {error.field or "body": [error.message]}
    return problem(error.status, error.code, error.message, errors)


def handle_too_many(error: TooManyRequests) -> Response:
    """429 with the seconds to wait."""
    return problem(429, error.code, error.detail, headers={"Retry-After": str(error.retry_after)})


def handle_redis_down(error: Exception) -> Response:
    """Redis unreachable: job endpoints answer 503 with Retry-After; nothing was enqueued."""
    log.warning("redis unavailable: %s", error)
    return problem(503, "jobs_unavailable", "the job queue (Redis) is unavailable; retry later",
                   headers={"Retry-After": "5"})


def handle_unexpected(error: Exception) -> Response:
    """Anything else is a bug: log it, answer a problem (never an HTML 500)."""
    log.exception("unhandled error", exc_info=error)
    return problem(500, "internal_error", "internal error; it has been logged")


def register(app: Flask) -> None:
    """Install the handlers on the app."""
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(DomainError, handle_domain_error)
    app.register_error_handler(TooManyRequests, handle_too_many)
    app.register_error_handler(RedisConnectionError, handle_redis_down)
    app.register_error_handler(RedisTimeoutError, handle_redis_down)
    app.register_error_handler(Exception, handle_unexpected)
