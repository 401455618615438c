"""The floor of bench/http.sh: a bare Flask app answering `GET /healthz` and `POST /v1/hu` as the service does, with
none of the service's hooks, served by the same gunicorn configuration.

`/v1/hu` loads the body with the service's schema and answers with the service's own function, so the two servers
do the same evaluation and differ only by what surrounds it. With `LONGCARDS_API_KEYS` set, every request but
`/healthz` needs one of its keys (`Authorization: Bearer <key>`): the plainest check a Flask app can make, its
SHA-256 compared with each stored hash in constant time, 401 otherwise.
"""

from __future__ import annotations

import hmac
import os

from flask import Flask, jsonify, request

from service.api.common import HandRequestSchema
from service.api.hands.routes import hu_answer
from service.http.auth import digest, parse_keys


def create_app() -> Flask:
    """A Flask app with two routes, and a key check when `LONGCARDS_API_KEYS` names keys."""
    app = Flask("bare")
    schema = HandRequestSchema()
    hashes = [hashed for _, hashed in parse_keys(os.environ.get("LONGCARDS_API_KEYS", ""))]

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok", "engine_version": "0.1.0"}

    @app.post("/v1/hu")
    def hu():
        return jsonify(hu_answer(schema.load(request.get_json())))

    if hashes:
        @app.before_request
        def require_key():
            if request.path == "/healthz":
                return None
            scheme, _, token = request.headers.get("Authorization", "").partition(" ")
            presented = digest(token.strip()) if scheme.lower() == "bearer" else ""
            if not any([hmac.compare_digest(presented, hashed) for hashed in hashes]):
                return {"error": "an API key is required"}, 401
            return None

    return app
