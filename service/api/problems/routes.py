"""GET /problems/{code}: what a problem `type` means, its HTTP status and how to fix the request (HTML for
browsers, JSON otherwise). Open without an API key, like the docs."""

from __future__ import annotations

import marshmallow as ma
from flask import Response, request
from flask.views import MethodView
from markupsafe import Markup, escape

from ...http.errors import problem, title
from ...http.problems import PROBLEMS, uri
from ...i18n import _, language, localize, tag
from ...rules.text import text
from ..blueprint import Blueprint
from ..caching import cached

blp = Blueprint("problems", __name__, url_prefix="/problems", description="Problem types (error codes)")

PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{code}</title></head>
<body><h1><code>{code}</code>: {status} {phrase}</h1>
<p><strong>{when_label}</strong> {when}</p>
<p><strong>{fix_label}</strong> {fix}</p>
<p>{about}</p></body></html>
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
    """The JSON description of a known code, in the reader's language (the code itself never changes)."""
    entry = PROBLEMS[code]
    return {"type": uri(code), "code": code, "status": entry.status, "title": localize(title(entry.status)),
            "other_status": entry.other_status, "when": _(entry.when), "fix": _(entry.fix)}


def page(code: str, info: dict) -> str:
    """The HTML page of a known code, in the reader's language."""
    about = escape(_("Problem answers with this {type} are {media} with a stable {code}; see the {docs}.")).format(
        type=Markup("<code>type</code>"), media=Markup("<code>application/problem+json</code>"),
        code=Markup("<code>code</code>"), docs=Markup('<a href="/docs">{}</a>').format(_("API docs")))
    return PAGE.format(lang=tag(language()), code=escape(code), status=info["status"], phrase=escape(info["title"]),
                       when_label=escape(_("When:")), when=escape(info["when"]), fix_label=escape(_("How to fix:")),
                       fix=escape(info["fix"]), about=about)


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
            return problem(404, "not_found", text("no problem code {code}", code=repr(code)))
        info = describe(code)
        # One URL, two representations chosen by `Accept`: a shared cache must keep them apart (`cached` adds
        # Accept-Language, the envelope Accept-Encoding).
        vary = {"Vary": "Accept"}
        if request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html":
            return Response(page(code, info), mimetype="text/html", headers=vary)
        return info, 200, vary
