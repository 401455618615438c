"""Cacheable answers: a strong `ETag` from the body, `Cache-Control`, and 304 Not Modified for `If-None-Match`."""

from __future__ import annotations

from flask import Response, request

#: Rule-sets and schemas change only with a release; an hour is short enough to pick a new one up.
MAX_AGE = 3600


def cacheable(response: Response, max_age: int = MAX_AGE) -> Response:
    """Tag the answer and answer 304 (no body) when the client already holds it."""
    response.add_etag()
    response.cache_control.public = True
    response.cache_control.max_age = max_age
    return response.make_conditional(request)
