"""The floor of bench/http.sh: a bare Flask app answering `GET /healthz` as the service does
(`{"status": "ok", ...}`), with none of the service's hooks, served by the same gunicorn configuration."""

from __future__ import annotations

from flask import Flask


def create_app() -> Flask:
    """A Flask app with one route."""
    app = Flask("bare")

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok", "engine_version": "0.1.0"}

    return app
