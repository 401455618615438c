"""`X-Request-ID` on every answer: the client's when it is sane (1-128 visible ASCII characters), else a new one.

The id is also in every problem document (`request_id`) and in gunicorn's access log (deploy/gunicorn.conf.py),
so a caller's report can be matched with the server's lines.
"""

from __future__ import annotations

import re
import uuid

from flask import Flask, Response, g, request

HEADER = "X-Request-ID"
#: Visible ASCII only: no spaces or control characters that could forge log lines.
SANE = re.compile(r"[\x21-\x7e]{1,128}")


def request_id() -> str:
    """This request's id (assigned on first use)."""
    if "request_id" not in g:
        given = request.headers.get(HEADER, "")
        g.request_id = given if SANE.fullmatch(given) else uuid.uuid4().hex
    return g.request_id


def assign() -> None:
    """Before every request: fix the id before anything can fail."""
    request_id()


def echo(response: Response) -> Response:
    """After every request: send the id back."""
    response.headers[HEADER] = request_id()
    return response


def init_app(app: Flask) -> None:
    """Install the hooks; call first so every later hook and error handler sees the id."""
    app.before_request(assign)
    app.after_request(echo)
