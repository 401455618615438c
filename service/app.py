"""Flask application factory: `create_app(config=None)`; nothing connects or builds tables at import time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_swagger_ui import get_swaggerui_blueprint

from . import config as settings
from . import errors
from .api import register_blueprints
from .jsonio import OrjsonProvider


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: configuration, problem+json errors, the API blueprints and the local docs page."""
    app = Flask(__name__)
    app.json = OrjsonProvider(app)  # answers keep the documented field order
    app.config.update(settings.load(config))
    errors.register(app)
    app.extensions["longcards_api"] = register_blueprints(app)
    docs = get_swaggerui_blueprint(
        app.config["DOCS_URL"], "/openapi.json", config={"app_name": app.config["API_TITLE"]},
    )
    app.register_blueprint(docs)
    return app
