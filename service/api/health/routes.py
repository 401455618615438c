"""Liveness (no Redis, no tables) and readiness (Redis takes writes, a worker is alive)."""

from __future__ import annotations

import logging

import marshmallow as ma
import orjson
from flask import Response, current_app
from flask.views import MethodView
from redis.exceptions import RedisError
from rq import Worker

from ...http.errors import problem
from ...jobs.errors import refused
from ...jobs.queues import connect
from ...redisconf import failure
from ...rules.registry import ENGINE_VERSION
from ...rules.text import text
from ..blueprint import Blueprint
from ..jobs.access import redis

log = logging.getLogger(__name__)
blp = Blueprint("health", __name__, description="Liveness")


#: The liveness answer, as HealthSchema gives it.
ALIVE = orjson.dumps({"status": "ok", "engine_version": ENGINE_VERSION})
#: The key /readyz writes (kept PROBE_TTL_MS) to learn that Redis takes writes: a full, read-only or unsaving Redis
#: answers PING and reads but refuses every job. The probe waits PROBE_TIMEOUT s for Redis, well within the
#: orchestrator's own timeout (3 s on Kubernetes), on a connection of its own, closed after it.
PROBE_KEY = "longcards:readyz"
PROBE_TTL_MS = 10_000
PROBE_TIMEOUT = 1.0


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
    """Redis takes writes and at least one worker is alive."""

    @blp.response(200, ReadySchema)
    @blp.doc(security=[], operationId="get_readiness")  # open even when API keys are on
    @blp.alt_response(503, description="`not_ready`: Redis unreachable or refusing writes (full, unable to save, "
                                       "read-only), or no worker alive; the detail says which",
                      headers={"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}})
    def get(self):
        """Report whether jobs can run now."""
        try:
            with connect(settings=current_app.config, timeout=PROBE_TIMEOUT) as probe:
                probe.set(PROBE_KEY, b"1", px=PROBE_TTL_MS)
            workers = Worker.count(connection=redis())
        except RedisError as error:  # a fixed text: the error's own can hold a password
            refusal = refused(error)
            log.warning("not ready: %s%s", f"Redis refuses writes ({refusal}): " if refusal else "",
                        failure(error, current_app.config))
            detail = text("Redis refuses writes (full, unable to save, or read-only)") if refusal else \
                text("Redis does not answer")
            return problem(503, "not_ready", detail, headers={"Retry-After": "5"})
        if workers < 1:
            return problem(503, "not_ready", text("no worker is alive"), headers={"Retry-After": "5"})
        return {"status": "ready", "redis": "ok", "workers": workers}
