"""GET /problems/{code}: what a problem `type` means, its HTTP status and how to fix the request (HTML for
browsers, JSON otherwise). Open without an API key, like the docs."""

from __future__ import annotations

from http import HTTPStatus

import marshmallow as ma
from flask import Response, request
from flask.views import MethodView
from markupsafe import escape

from ...http.errors import problem
from ...http.problems import PROBLEMS, uri
from ..blueprint import Blueprint
from ..caching import cached

blp = Blueprint("problems", __name__, url_prefix="/problems", description="Problem types (error codes)")

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{code}</title></head>
<body><h1><code>{code}</code>: {status} {phrase}</h1>
<p><strong>When:</strong> {when}</p>
<p><strong>How to fix:</strong> {fix}</p>
<p>Problem answers with this <code>type</code> are <code>application/problem+json</code> with a stable
<code>code</code>; see the <a href="/docs">API docs</a>.</p></body></html>
"""


class ProblemTypeSchema(ma.Schema):
    """One problem type."""

    type = ma.fields.String(required=True)
    code = ma.fields.String(required=True)
    status = ma.fields.Integer(required=True)
    title = ma.fields.String(required=True, metadata={"description": "the HTTP status phrase"})
    other_status = ma.fields.Integer(allow_none=True, metadata={"description": "the status of the endpoint "
                                                                               "that answers otherwise"})
    when = ma.fields.String(required=True)
    fix = ma.fields.String(required=True)


def describe(code: str) -> dict:
    """The JSON description of a known code."""
    entry = PROBLEMS[code]
    return {"type": uri(code), "code": code, "status": entry.status, "title": HTTPStatus(entry.status).phrase,
            "other_status": entry.other_status, "when": entry.when, "fix": entry.fix}


@blp.route("/<string:code>")
class ProblemType(MethodView):
    """One problem type."""

    @cached
    @blp.response(200, ProblemTypeSchema())
    @blp.alt_response(404, description="`not_found`: no such problem code")
    @blp.doc(security=[], operationId="get_problem_type")  # open even when API keys are on
    def get(self, code: str):
        """Describe a problem code: its status, when it happens and how to fix the request."""
        if code not in PROBLEMS:
            return problem(404, "not_found", f"no problem code {code!r}")
        info = describe(code)
        if request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html":
            page = PAGE.format(code=escape(code), status=info["status"], phrase=escape(info["title"]),
                               when=escape(info["when"]), fix=escape(info["fix"]))
            return Response(page, mimetype="text/html")
        return info
