"""The API docs page (`DOCS_URL`, default `/docs`): Swagger UI from the files of the flask-swagger-ui package,
served by this server (no CDN), set going by a script file of the pages (`static/docs.js`) that reads its settings
from a JSON block of the page. The page runs no inline script, so its Content-Security-Policy allows none
(service/http/security_headers.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flask_swagger_ui
from flask import Blueprint, Response, render_template, send_from_directory

from ..i18n import select_locale, tag

HERE = Path(__file__).resolve().parent
DIST = Path(flask_swagger_ui.__file__).resolve().parent / "dist"
#: The blueprint's name: compression (service/http/compression.py) and the security headers key on it.
NAME = "swagger_ui"


def blueprint(url: str, spec_url: str, title: str) -> Blueprint:
    """The docs page at `url` (and `url`/index.html) showing the spec at `spec_url`, and Swagger UI's files."""
    base = url.rstrip("/")
    docs = Blueprint(NAME, __name__, url_prefix=base, template_folder=str(HERE / "templates"))
    # validatorUrl None: no badge fetched from validator.swagger.io (the page loads nothing from elsewhere).
    settings: dict[str, Any] = {"url": spec_url, "dom_id": "#swagger-ui", "layout": "StandaloneLayout",
                                "deepLinking": True, "validatorUrl": None}

    @docs.get("/")
    @docs.get("/index.html")
    def page() -> Response:
        """The docs page, revalidated on every load."""
        answer = Response(render_template("ui/docs.html", base=base, title=title, settings=settings,
                                          spec_url=spec_url, lang_tag=tag(select_locale())),
                          mimetype="text/html")
        answer.headers["Cache-Control"] = "no-cache"
        return answer

    @docs.get("/<path:path>")
    def asset(path: str) -> Response:
        """One of Swagger UI's files."""
        return send_from_directory(DIST, path)

    return docs
