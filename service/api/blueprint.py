"""The project's flask-smorest Blueprint: request bodies are decoded with orjson (same errors, less time)."""

from __future__ import annotations

from typing import Any

import flask_smorest
import orjson
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import UnsupportedMediaType


class Parser(FlaskParser):
    """webargs' Flask parser with orjson decoding; invalid JSON still raises json.JSONDecodeError (400), and a
    body that is not declared JSON is refused with 415 rather than read as missing fields."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            shown = req.mimetype or "none"
            raise UnsupportedMediaType(f"the request body must be application/json (Content-Type: {shown})")
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        return orjson.loads(data)


#: Every /v1 operation may answer 429: over LONGCARDS_RATE_LIMIT, or too many failed authentications.
TOO_MANY_REQUESTS = {
    "description": "over the rate limit, or too many failed authentications from this address; retry after "
                   "Retry-After seconds",
    "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}},
    "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
}


def document_429(doc: dict, doc_info: dict, **kwargs: Any) -> dict:
    """Add the 429 answer to an operation's documentation (a route's own 429 description is kept)."""
    responses = doc.setdefault("responses", {})
    responses["429"] = {**TOO_MANY_REQUESTS, **responses.get("429", {})}
    return doc


class Blueprint(flask_smorest.Blueprint):
    """flask_smorest.Blueprint using `Parser`; operations under /v1 document the 429 answer."""

    ARGUMENTS_PARSER = Parser()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if (kwargs.get("url_prefix") or "").startswith("/v1"):
            self._prepare_doc_cbks.append(document_429)
