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
from gunicorn.http.errors import NoMoreData, ParseException  # type: ignore[import-untyped]
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound

from .. import i18n
from ..i18n import N_
from ..rules.errors import DomainError
from ..rules.text import Text, text
from .problems import PHRASES, PROBLEMS, uri
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
#: werkzeug's descriptions of the HTTP errors the service answers with them (404, 405).
DESCRIPTIONS = {
    NotFound.description: N_("The requested URL was not found on the server. If you entered the URL manually please "
                             "check your spelling and try again."),
    MethodNotAllowed.description: N_("The method is not allowed for the requested URL."),
}
#: marshmallow's default messages as people read them ("must be an integer", not "Not a valid integer.").
MESSAGES = {
    "Not a valid integer.": N_("must be an integer"), "Not a valid string.": N_("must be a string"),
    "Not a valid boolean.": N_("must be true or false"), "Not a valid number.": N_("must be a number"),
    "Not a valid list.": N_("must be an array"), "Not a valid mapping type.": N_("must be an object"),
    "Invalid type.": N_("must be an object"), "Invalid input type.": N_("must be an object"),
    "Missing data for required field.": N_("is required"), "Field may not be null.": N_("must not be null"),
    "Unknown field.": N_("is not a field of this request"), "Not a valid URL.": N_("must be an http(s) URL"),
    "Number too large.": N_("is too large"), "Not a valid utf-8 string.": N_("must be valid UTF-8"),
    "Special numeric values (nan or infinity) are not permitted.": N_("must be a finite number"),
}
#: marshmallow's messages with values in them: the pattern and the message it becomes, named groups as parameters.
PATTERNS = (
    (re.compile(r"Must be greater than or equal to (?P<low>\S+) and less than or equal to (?P<high>\S+)\."),
     N_("must be {low} to {high}")),
    (re.compile(r"Must be greater than or equal to (?P<low>\S+)\."), N_("must be at least {low}")),
    (re.compile(r"Must be less than or equal to (?P<high>\S+)\."), N_("must be at most {high}")),
    (re.compile(r"Must be greater than (?P<low>\S+)\."), N_("must be greater than {low}")),
    (re.compile(r"Must be less than (?P<high>\S+)\."), N_("must be less than {high}")),
    (re.compile(r"Length must be between (?P<low>\d+) and (?P<high>\d+)\."), N_("length must be {low} to {high}")),
    (re.compile(r"Length must be (?P<length>\d+)\."), N_("length must be {length}")),
    (re.compile(r"Longer than maximum length (?P<high>\d+)\."), N_("length must be at most {high}")),
    (re.compile(r"Shorter than minimum length (?P<low>\d+)\."), N_("length must be at least {low}")),
    (re.compile(r"Must be one of: (?P<values>.*)\."), N_("must be one of: {values}")),
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


def problem(status: int, code: str, detail: str, errors: Mapping[str, list[str]] | None = None,
            headers: Mapping[str, str] | None = None) -> Response:
    """Build a problem+json response; its title, detail and messages in the reader's language where they are
    messages (`Text`; the code never changes), with `Content-Language`."""
    if code not in PROBLEMS:
        log.warning("problem code %r has no entry in service.http.problems", code)
    localize = i18n.localize if has_request_context() else str
    body: dict[str, Any] = {
        "type": uri(code), "title": localize(title(status)), "status": status,
        "detail": clip(localize(detail), 2 * MAX_ERROR_TEXT), "code": code,
    }
    if errors:
        shown = list(errors.items())[:MAX_REPORTED_ERRORS]
        body["errors"] = {clip(k): [clip(localize(m)) for m in list(v)[:MAX_REPORTED_ERRORS]] for k, v in shown}
        if len(errors) > len(shown):
            body["errors_omitted"] = len(errors) - len(shown)
    if has_request_context():
        body["request_id"] = request_id()
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_TYPE)
    if has_request_context():
        response.headers["Content-Language"] = i18n.tag(i18n.language())
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def title(status: int) -> Text | str:
    """A problem's title: the HTTP status phrase (a message where the catalogs have it)."""
    phrase = HTTPStatus(status).phrase
    return Text(PHRASES[status]) if status in PHRASES and PHRASES[status] == phrase else phrase


def clip(value: str, limit: int = MAX_ERROR_TEXT) -> str:
    """`value`, cut to `limit` characters with an ellipsis."""
    return value if len(value) <= limit else value[:limit - 3] + "..."


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
    """A marshmallow message as a person reads it beside the field name (a message the catalogs translate)."""
    if message in MESSAGES:
        return Text(MESSAGES[message])
    for pattern, replacement in PATTERNS:
        found = pattern.fullmatch(message)
        if found:
            return Text(replacement, found.groupdict())
    return message


def handle_http_exception(error: HTTPException) -> Response:
    """HTTP errors (webargs validation, 404, 405, 413 ...) as problem+json."""
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    if status == 400 and messages is not None:
        return problem(400, "malformed_json", text("the request body is not valid JSON"), flatten(messages) or None)
    if status == 422 and messages is not None:
        errors = flatten(messages)
        names = sorted(errors)
        shown = ", ".join(names[:10])
        fields_detail = (text("invalid fields: {fields} and {more} more", fields=shown, more=len(names) - 10)
                         if len(names) > 10 else text("invalid fields: {fields}", fields=shown))
        return problem(422, "invalid_request", fields_detail, errors)
    if status == 413:
        return problem(413, "payload_too_large", text("the request body exceeds the configured maximum size"))
    code = HTTP_CODES.get(status, "http_error")
    # Keep protocol headers werkzeug sets (e.g. `Allow` on 405, RFC 9110), not its HTML content type.
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    headers.update(data.get("headers") or {})
    detail = error.description or HTTPStatus(status).phrase
    if detail in DESCRIPTIONS:  # werkzeug's own wording: a message
        detail = Text(DESCRIPTIONS[detail])
    return problem(status, code, detail, headers=headers)


def handle_domain_error(error: DomainError) -> Response:
    """Rules-engine rejections: 422 with the stable code and the field at fault."""
    errors = {error.field or "body": [error.message]}
    return problem(error.status, error.code, error.message, errors)


def handle_unreadable_body(error: Exception) -> Response:
    """A body gunicorn could not read while the app read it (a malformed chunk size, a missing chunk terminator, the
    client gone mid-body): the request is malformed, not the service (400, never a 500). Nothing of it is echoed."""
    log.info("unreadable request body: %s", type(error).__name__)
    return problem(400, "malformed_request", text("the request body could not be read as sent"),
                   headers={"Connection": "close"})


def handle_unexpected(error: Exception) -> Response:
    """Anything else is a bug: log it, answer a problem (never an HTML 500)."""
    log.exception("unhandled error", exc_info=error)
    return problem(500, "internal_error", text("internal error; it has been logged"))


def register(app: Flask) -> None:
    """Install the handlers on the app."""
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(DomainError, handle_domain_error)
    app.register_error_handler(ParseException, handle_unreadable_body)
    app.register_error_handler(NoMoreData, handle_unreadable_body)
    app.register_error_handler(Exception, handle_unexpected)
