"""Liveness: answers without touching Redis or building tables."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView

from ...rules.registry import ENGINE_VERSION
from ..blueprint import Blueprint

blp = Blueprint("health", __name__, description="Liveness")


class HealthSchema(ma.Schema):
    """Liveness answer."""

    status = ma.fields.String(required=True, metadata={"enum": ["ok"]})
    engine_version = ma.fields.String(required=True)


@blp.route("/healthz")
class Health(MethodView):
    """The process is up."""

    @blp.response(200, HealthSchema())
    def get(self):
        """Report that the API process is alive."""
        return {"status": "ok", "engine_version": ENGINE_VERSION}
