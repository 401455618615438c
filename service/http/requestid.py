"""`X-Request-ID` on every answer: the client's when it is sane (1-128 visible ASCII characters), else a new one.

The id is also in every problem document (`request_id`) and in gunicorn's access log (deploy/gunicorn.conf.py),
so a caller's report can be matched with the server's lines. The envelope (service/http/envelope.py) fixes it
before the app runs and sends it back.
"""

from __future__ import annotations

import itertools
import os
import re
from typing import Any

from flask import request

HEADER = "X-Request-ID"
#: Where the id is kept in the WSGI environment.
ENVIRON_KEY = "longcards.request_id"
#: Visible ASCII only: no spaces or control characters that could forge log lines.
SANE = re.compile(r"[\x21-\x7e]{1,128}")

# A new id is 32 hex digits: 20 random per process (a forked worker draws its own) and a counter.
_prefix = os.urandom(10).hex()
_counter = itertools.count()


def _draw_prefix() -> None:
    """A fresh random prefix for a new process (gunicorn forks its workers from one parent)."""
    global _prefix
    _prefix = os.urandom(10).hex()


os.register_at_fork(after_in_child=_draw_prefix)


def new_id() -> str:
    """A fresh id, unique across processes: the process's random prefix and a counter (no system call per id)."""
    return f"{_prefix}{next(_counter) & 0xFFFFFFFFFFFF:012x}"


def assign(environ: dict[str, Any]) -> str:
    """Fix the request's id in its environment (the client's when sane) and return it."""
    given = environ.get("HTTP_X_REQUEST_ID", "")
    rid = given if given and SANE.fullmatch(given) else new_id()
    environ[ENVIRON_KEY] = rid
    return rid


def request_id() -> str:
    """The current request's id (assigned on first use when the request did not come through the envelope)."""
    environ = request.environ
    rid = environ.get(ENVIRON_KEY)
    return rid if rid is not None else assign(environ)
