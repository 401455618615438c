"""Cacheable answers: a strong `ETag` from the body, `Cache-Control`, and 304 Not Modified for `If-None-Match`."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Response, request

from .. import i18n

#: Rule-sets and schemas change only with a release; an hour is short enough to pick a new one up.
MAX_AGE = 3600


def cacheable(response: Response, max_age: int = MAX_AGE) -> Response:
    """Tag the answer and answer 304 (no body) when the client already holds it."""
    if i18n.chosen():  # its texts are in the reader's language (service/i18n.py)
        response.vary.add("Accept-Language")
    response.add_etag()
    response.cache_control.public = True
    response.cache_control.max_age = max_age
    response.make_conditional(request)  # in place
    return response


def cached_for(max_age: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Make a view's answer cacheable for `max_age` seconds once flask-smorest has serialised it (put above
    `@blp.response`)."""
    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Response:
            response = view(*args, **kwargs)
            return cacheable(response, max_age) if response.status_code == 200 else response
        return wrapper
    return decorate


#: Make a view's answer cacheable for MAX_AGE seconds (put above `@blp.response`).
cached = cached_for(MAX_AGE)
