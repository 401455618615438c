"""The project's flask-smorest Blueprint: request bodies are decoded with orjson (same errors, less time)."""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import flask_smorest
import orjson
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import UnsupportedMediaType

from ..rules.text import text


class Parser(FlaskParser):
    """webargs' Flask parser with orjson decoding; a body that is not JSON, UTF-8 encoded (RFC 8259), is 400
    `malformed_json`, and a body that is not declared JSON is refused with 415 rather than read as missing fields."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            shown = req.mimetype or "none"
            raise UnsupportedMediaType(text("the request body must be application/json (Content-Type: {type})",
                                            type=shown))
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError as error:
            # Answered here: orjson keeps no document it cannot read as UTF-8 (`doc` is ""), which webargs would
            # take for an empty body (422 for every required field).
            self._handle_invalid_json_error(error, req)


PROBLEM_CONTENT: dict[str, Any] = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}

#: Every rate-limited operation may answer 429: over LONGCARDS_RATE_LIMIT, or too many failed authentications.
TOO_MANY_REQUESTS = {
    "description": "over the rate limit, or too many failed authentications from this address; retry after "
                   "Retry-After seconds",
    "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}},
    "content": PROBLEM_CONTENT,
}
#: What any operation with a JSON body may answer before its arguments are even read.
BODY_PROBLEMS = {
    "400": {"description": "`malformed_json`: the body is not valid JSON"},
    "413": {"description": "`payload_too_large`: the body exceeds the configured maximum size"},
    "415": {"description": "`unsupported_media_type`: the body is not declared `Content-Type: application/json`"},
}
#: What any operation needing an API key answers when the deployment configures keys.
KEY_PROBLEMS = {
    "401": {"description": "`missing_api_key`: API keys are configured and the request carries none",
            "headers": {"WWW-Authenticate": {"description": "`Bearer`", "schema": {"type": "string"}}}},
    "403": {"description": "`invalid_api_key`: the key is not one the service knows"},
}


def document_429(doc: dict, doc_info: dict, **kwargs: Any) -> dict:
    """Add the 429 answer to an operation's documentation (a route's own 429 description is kept)."""
    responses = doc.setdefault("responses", {})
    responses["429"] = {**deepcopy(TOO_MANY_REQUESTS), **responses.get("429", {})}
    return doc


def document_keys(doc: dict, doc_info: dict, **kwargs: Any) -> dict:
    """Add the 401 and 403 answers of an operation that needs an API key (not of one open without it: its
    `security` is empty)."""
    if doc_info.get("manual_doc", {}).get("security") == []:
        return doc
    responses = doc.setdefault("responses", {})
    for status, answer in KEY_PROBLEMS.items():
        responses.setdefault(status, deepcopy(answer))
    return doc


#: The language parameters (components registered by service/api/__init__.py): every operation whose answers
#: may hold texts for people (advice reasons, problem titles and details) reads them.
LANGUAGE_PARAMETERS = ["Lang", "AcceptLanguage", "SeatsFrom"]


def document_languages(doc: dict, doc_info: dict, **kwargs: Any) -> dict:
    """Add the `lang` query parameter and the `Accept-Language` and `X-Seats-From` headers to an operation."""
    parameters = doc.setdefault("parameters", [])
    parameters.extend(p for p in LANGUAGE_PARAMETERS if p not in parameters)
    return doc


def document_problems(doc: dict, doc_info: dict, **kwargs: Any) -> dict:
    """Give every error answer of an operation its problem+json body (a generated client then parses it), and
    an operation with a JSON body its 400, 413 and 415."""
    responses = doc.setdefault("responses", {})
    if "requestBody" in doc:
        for status, answer in BODY_PROBLEMS.items():
            responses.setdefault(status, deepcopy(answer))
    for status, response in responses.items():
        # A str is a response component (UNPROCESSABLE_ENTITY ...), already a problem.
        if str(status)[0] in "45" and isinstance(response, dict) and "content" not in response:
            response["content"] = deepcopy(PROBLEM_CONTENT)
    return doc


class Blueprint(flask_smorest.Blueprint):
    """flask_smorest.Blueprint using `Parser`, whose operations document every problem they may answer:
    401 and 403 under /v1 (the rest is open), 429 under any prefix (/healthz and /readyz, unprefixed, are
    never rate-limited), and the problem+json body of each error answer."""

    ARGUMENTS_PARSER = Parser()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        prefix = kwargs.get("url_prefix") or ""
        if prefix.startswith("/v1"):
            self._prepare_doc_cbks.append(document_keys)
        if prefix:
            self._prepare_doc_cbks.append(document_429)
            self._prepare_doc_cbks.append(document_languages)
        self._prepare_doc_cbks.append(document_problems)
