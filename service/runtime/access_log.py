"""gunicorn's access log without the keys a client sends: the logger class deploy/gunicorn.conf.py names.

The API takes keys in headers only; a client that puts one in the query (`?api_key=...`) is refused, and the
request line, query string and target that gunicorn's atoms give the log format show that parameter's value masked
(service/redaction.py `request_target`, which says which parameters carry a key); every other parameter stays as the
client sent it. The headers that carry a key (`Authorization`, `X-API-Key`) and cookies are masked too, should a
log format name them.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

from ..redaction import MASK, request_target

#: The atoms that hold a request's target or query (gunicorn's `r`, `q`, and the same in the WSGI environ).
TARGET_ATOMS = ("r", "q", "{raw_uri}e", "{query_string}e", "{request_uri}e")
#: The request headers whose value is a credential, as gunicorn names their atoms.
CREDENTIAL_HEADERS = ("{authorization}i", "{x-api-key}i", "{cookie}i", "{proxy-authorization}i")


class AccessLogger(Logger):
    """gunicorn's logger, its access log atoms without a key."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        """gunicorn's atoms with the query parameters and headers that carry a key masked."""
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for name in TARGET_ATOMS:
            if isinstance(atoms.get(name), str):
                atoms[name] = request_target(atoms[name])
        for name in CREDENTIAL_HEADERS:
            if atoms.get(name):
                atoms[name] = MASK
        return atoms
