"""Flask application factory: `create_app(config=None)`; nothing connects or builds tables at import time."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import FunctionType
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from . import config as settings
from . import i18n, redaction, ui
from .api import register_blueprints
from .api.jobs import errors as job_errors
from .api.jobs.access import redis as jobs_redis
from .api.shares import access as shares_access
from .http import auth, compression, cors, errors, metrics, ratelimit
from .http.envelope import Envelope
from .http.jsonio import OrjsonProvider
from .jobs.metrics import JobsCollector
from .ui import embed, embed_replay, oembed  # noqa: F401 - embed_replay adds /ui/replay/{id} to the pages
from .ui.docs import blueprint as docs_blueprint


class ServiceApp(Flask):
    """Flask, remembering which functions are plain (not coroutines): Flask asks `inspect.iscoroutinefunction`
    about each view and hook it calls, on every request."""

    plain: set[FunctionType] = set()

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """`func` itself when it is a plain function or a method of one, else Flask's answer."""
        code = getattr(func, "__func__", func)
        if code in self.plain:
            return func
        answer = super().ensure_sync(func)
        if answer is func and type(code) is FunctionType:  # partials and other callables: asked each time
            self.plain.add(code)
        return answer


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: configuration, errors (the job layer's too), security headers, HTTP conventions, CORS, metrics
    (with the job gauges), keys, rate limits, the API, its docs, the browser pages."""
    app = ServiceApp(__name__)
    app.json = OrjsonProvider(app)  # answers keep the documented field order
    app.config.update(settings.load(config))
    redaction.redact_logs(app.config)  # no log line of this process shows a secret, whoever writes it
    proxies = int(app.config["TRUSTED_PROXIES"])
    if proxies:  # the client's address (rate limits, logs) is the one the trusted proxies saw
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    # One WSGI layer adds what every answer gets (request id, security headers, Vary, metrics): cheaper than a
    # Flask hook for each.
    app.wsgi_app = Envelope(app.wsgi_app,  # type: ignore[method-assign]
                            record_metrics=bool(app.config.get("METRICS", True)))
    errors.register(app)
    job_errors.register(app)  # the job layer's refusals and Redis's failures as problems
    shares_access.register(app)  # the stored games' refusals as problems
    compression.init_app(app)
    cors.init_app(app)
    # Request hooks run in this order: check the key, then spend the key's rate budget.
    metrics.init_app(app, collectors=[JobsCollector(jobs_redis)])  # the job gauges, read at each scrape
    auth.init_app(app)
    ratelimit.init_app(app)
    app.extensions["longcards_api"] = register_blueprints(app)
    app.register_blueprint(docs_blueprint(app.config["DOCS_URL"], "/openapi.json", app.config["API_TITLE"]))
    i18n.init_app(app)
    ui.init_app(app)
    embed.init_app(app)
    oembed.init_app(app)
    return app
