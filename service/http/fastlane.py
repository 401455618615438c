"""The fast lane: the hottest operation (`POST /v1/hu`) answered without Flask's request machinery when none of it
would change the answer.

A hand's hu takes the engine about 60 µs; Flask's request context, routing, webargs and the Response object around
it took over 200 µs more (docs/reliability.md#fast-lane). The lane is a WSGI layer inside the envelope
(service/http/envelope.py), which still gives its answers their request id, security headers, `Vary`,
`Content-Language` and metrics. It answers a request itself only when all of these hold, and hands every other
request, untouched, to the app:

- the request is `POST` to a lane path with no query string, a JSON `Content-Type` and a `Content-Length` within
  `MAX_CONTENT_LENGTH` (a chunked body, `?lang=`, a form ... take the app);
- the app runs no request hook the lane would skip: no API keys, no rate limit, no CORS origins configured (each
  installs a hook; with any of them every request takes the app, where the hook runs);
- the body is a plain request (`plain_hand_request`: what marshmallow would load unchanged) and the engine answers
  it without an error;
- the answer is below `COMPRESS_MIN_SIZE`, or the client accepts no encoding (else the app gzips it).

Whatever the lane declines after reading the body (a malformed or unusual body, any error) is handed to the app with
the same bytes, so every problem answer is made in one place, by the documented path. The answers are the app's to
the byte: tests/api/test_fastlane.py compares both over hundreds of requests.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from flask import Flask
from webargs.core import is_json
from werkzeug.wsgi import get_content_length

from .. import i18n

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
#: Where a lane answer leaves its (route rule, blueprint) for the envelope's metrics and security policy.
ROUTE_KEY = "longcards.route"


@dataclass(frozen=True)
class Lane:
    """One path the lane serves: its route rule and blueprint (as the app's route would report them), and the
    function making the answer of a decoded JSON body, or None when the body needs the app's care."""

    rule: str
    blueprint: str
    answer: Callable[[Any], dict[str, Any] | None]


class FastLane:
    """WSGI middleware serving `lanes` (by path) itself when nothing of the app's request handling would change the
    answer; the module docstring lists the conditions. O(body) beyond the engine's own work."""

    def __init__(self, app: Flask, wsgi_app: WsgiApp, lanes: Mapping[str, Lane], *,
                 skippable: Iterable[Callable[..., Any]] = ()) -> None:
        self.flask = app
        self.app = wsgi_app
        self.lanes = dict(lanes)
        self.skippable = frozenset(skippable)
        self.largest = int(app.config["MAX_CONTENT_LENGTH"] or 0)
        self.smallest_gzip = int(app.config["COMPRESS_MIN_SIZE"])
        self._open: bool | None = None
        #: Answers the lane made itself (the tests check that it serves at all).
        self.served = 0

    @property
    def open(self) -> bool:
        """Whether the app, as configured, runs no hook the lane would skip (decided at the first request, once
        every extension has registered its hooks)."""
        if self._open is None:
            app = self.flask
            self._open = bool(app.config.get("FAST_LANE", True)) and not any(
                app.before_request_funcs.values()) and not any(app.url_value_preprocessors.values()) and not any(
                app.teardown_request_funcs.values()) and all(
                hook in self.skippable for hooks in app.after_request_funcs.values() for hook in hooks)
        return self._open

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        lane = self.lanes.get(environ.get("PATH_INFO", ""))
        if lane is None or environ.get("REQUEST_METHOD") != "POST" or environ.get("QUERY_STRING") or not self.open:
            return self.app(environ, start_response)
        # The body's length and media type read as the app's request reads them (werkzeug, webargs): a chunked
        # body has no length, and `Content-Type` is compared in lower case as werkzeug's `mimetype` gives it.
        length = get_content_length(environ)
        if length is None or length > self.largest or not is_json(str(environ.get("CONTENT_TYPE", "")).lower()):
            return self.app(environ, start_response)
        body = environ["wsgi.input"].read(length)
        answer = self._answer(lane, body, environ)
        if answer is not None and (len(answer) < self.smallest_gzip or not environ.get("HTTP_ACCEPT_ENCODING")):
            self.served += 1
            environ[ROUTE_KEY] = (lane.rule, lane.blueprint)
            start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(answer)))])
            return [answer]
        environ["wsgi.input"] = io.BytesIO(body)  # the app reads the same bytes
        environ.pop(i18n.ENVIRON_KEY, None)  # and chooses the language again, as it would have
        return self.app(environ, start_response)

    @staticmethod
    def _answer(lane: Lane, body: bytes, environ: dict[str, Any]) -> bytes | None:
        """The encoded answer, or None for the app to make: any error is the app's to answer."""
        token = i18n.LANE_ENVIRON.set(environ)
        try:
            answer = lane.answer(orjson.loads(body))
            return None if answer is None else orjson.dumps(answer)
        except Exception:  # noqa: BLE001 - every problem answer is made by the app, from the same body
            return None
        finally:
            i18n.LANE_ENVIRON.reset(token)
