"""Flask application factory: `create_app(config=None)`; nothing connects or builds tables at import time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_swagger_ui import get_swaggerui_blueprint
from werkzeug.middleware.proxy_fix import ProxyFix

from . import config as settings
from . import ui
from .api import register_blueprints
from .http import auth, compression, cors, errors, metrics, ratelimit, requestid
from .http.jsonio import OrjsonProvider


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: configuration, errors, HTTP conventions, CORS, metrics, keys, rate limits, the API, its docs,
    the browser pages."""
    app = Flask(__name__)
    app.json = OrjsonProvider(app)  # answers keep the documented field order
    app.config.update(settings.load(config))
    proxies = int(app.config["TRUSTED_PROXIES"])
    if proxies:  # the client's address (rate limits, logs) is the one the trusted proxies saw
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    errors.register(app)
    compression.init_app(app)
    cors.init_app(app)
    # Request hooks run in this order: fix the request id, time the request, check its key, then spend the
    # key's rate budget.
    requestid.init_app(app)
    metrics.init_app(app)
    auth.init_app(app)
    ratelimit.init_app(app)
    app.extensions["longcards_api"] = register_blueprints(app)
    docs = get_swaggerui_blueprint(
        app.config["DOCS_URL"], "/openapi.json", config={"app_name": app.config["API_TITLE"]},
    )
    app.register_blueprint(docs)
    ui.init_app(app)
    return app
