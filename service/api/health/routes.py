"""Liveness (no Redis, no tables) and readiness (Redis answers, a worker is alive)."""

from __future__ import annotations

import logging

import marshmallow as ma
import orjson
from flask import Response, current_app
from flask.views import MethodView
from redis.exceptions import RedisError
from rq import Worker

from ...http.errors import problem
from ...redisconf import failure
from ...rules.registry import ENGINE_VERSION
from ...rules.text import text
from ..blueprint import Blueprint
from ..jobs.access import redis

log = logging.getLogger(__name__)
blp = Blueprint("health", __name__, description="Liveness")


#: The liveness answer, as HealthSchema gives it.
ALIVE = orjson.dumps({"status": "ok", "engine_version": ENGINE_VERSION})


class HealthSchema(ma.Schema):
    """Liveness answer."""

    status = ma.fields.String(required=True, metadata={"enum": ["ok"]})
    engine_version = ma.fields.String(required=True)


@blp.route("/healthz")
class Health(MethodView):
    """The process is up."""

    @blp.response(200, HealthSchema())
    @blp.doc(security=[], operationId="get_health")  # open even when API keys are on
    def get(self):
        """Report that the API process is alive."""
        # Probes call this many times a second: the answer never changes, so its body is encoded once.
        return Response(ALIVE, mimetype="application/json")


class ReadySchema(ma.Schema):
    """Readiness answer."""

    status = ma.fields.String(required=True, metadata={"enum": ["ready"]})
    redis = ma.fields.String(required=True)
    workers = ma.fields.Integer(required=True)


@blp.route("/readyz")
class Ready(MethodView):
    """Redis answers and at least one worker is alive."""

    @blp.response(200, ReadySchema)
    @blp.doc(security=[], operationId="get_readiness")  # open even when API keys are on
    @blp.alt_response(503, description="`not_ready`: Redis unreachable or no worker alive; the detail says which",
                      headers={"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}})
    def get(self):
        """Report whether jobs can run now."""
        try:
            connection = redis()
            connection.ping()
            workers = Worker.count(connection=connection)
        except RedisError as error:  # a fixed text: the error's own can hold a password
            log.warning("not ready: %s", failure(error, current_app.config))
            return problem(503, "not_ready", text("Redis does not answer"), headers={"Retry-After": "5"})
        if workers < 1:
            return problem(503, "not_ready", text("no worker is alive"), headers={"Retry-After": "5"})
        return {"status": "ready", "redis": "ok", "workers": workers}
