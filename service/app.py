"""Flask application factory: `create_app(config=None)`; nothing connects or builds tables at import time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from . import config as settings
from . import i18n, ui
from .api import register_blueprints
from .http import auth, compression, cors, errors, metrics, ratelimit, requestid, security_headers
from .http.jsonio import OrjsonProvider
from .ui.docs import blueprint as docs_blueprint


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: configuration, errors, security headers, HTTP conventions, CORS, metrics, keys, rate limits,
    the API, its docs, the browser pages."""
    app = Flask(__name__)
    app.json = OrjsonProvider(app)  # answers keep the documented field order
    app.config.update(settings.load(config))
    proxies = int(app.config["TRUSTED_PROXIES"])
    if proxies:  # the client's address (rate limits, logs) is the one the trusted proxies saw
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    errors.register(app)
    security_headers.init_app(app)
    compression.init_app(app)
    cors.init_app(app)
    # Request hooks run in this order: fix the request id, time the request, check its key, then spend the
    # key's rate budget.
    requestid.init_app(app)
    metrics.init_app(app)
    auth.init_app(app)
    ratelimit.init_app(app)
    app.extensions["longcards_api"] = register_blueprints(app)
    app.register_blueprint(docs_blueprint(app.config["DOCS_URL"], "/openapi.json", app.config["API_TITLE"]))
    i18n.init_app(app)
    ui.init_app(app)
    return app
