"""The browser pages: the hand lab (`/ui`) and the replay viewer (`/ui/replay`).

Two Jinja templates sharing one head and header (templates/ui/base.html), CSS and plain JavaScript modules served
as static files (no build step, no external host): the pages call the same `/v1` API any client does, so they show
exactly what it answers, the rule-sets' hand sizes and decks included.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, redirect, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from .. import i18n

HERE = Path(__file__).resolve().parent

# the templates live under templates/ui/ so no other blueprint's template of the same name can shadow them
blp = Blueprint("ui", __name__, static_folder=str(HERE / "static"), static_url_path="/ui/static",
                template_folder=str(HERE / "templates"))


def page(name: str) -> Response:
    """An HTML page (a few KB, its template compiled once) in the reader's language, revalidated on every load so a
    new release is picked up. A `?lang=` choice is kept in a cookie: the next page opens in that language."""
    answer = Response(render_template(f"ui/{name}", **i18n.template_globals()), mimetype="text/html")
    answer.headers["Cache-Control"] = "no-cache"
    answer.vary.update(("Accept-Language", "Cookie"))
    asked = request.args.get("lang")
    if asked and i18n.supported(asked):
        answer.set_cookie(i18n.COOKIE, i18n.tag(i18n.language()), max_age=365 * 24 * 3600, samesite="Lax")
    return answer


@blp.get("/")
def home() -> BaseResponse:
    """The site's root leads to the hand lab."""
    return redirect("/ui", code=302)


@blp.get("/ui")
def lab() -> Response:
    """The hand lab."""
    return page("lab.html")


@blp.get("/ui/")
def lab_slash() -> BaseResponse:
    """`/ui/` is the hand lab too."""
    return redirect("/ui", code=308)


@blp.get("/ui/replay")
def replay() -> Response:
    """The replay viewer."""
    return page("replay.html")


#: The pages in the OpenAPI document: what they are, open without a key (the API calls they make need one).
PAGE_DOCS = {
    "/ui": ("get_hand_lab", "The hand lab: build a hand from the cards and see its melds, hu and points, the claim "
                            "advice, the ranked discards and a deep search."),
    "/ui/replay": ("get_replay_viewer", "The replay viewer: step through a game log with its audit, run the replay "
                                        "analysis and see every decision annotated."),
}


def document(app: Flask, spec) -> None:
    """Add the pages to the OpenAPI document (an HTML page each, no key needed), and the root's redirect."""
    rules = {rule.rule: rule for rule in app.url_map.iter_rules() if rule.endpoint.startswith("ui.")}
    for path, (operation_id, summary) in PAGE_DOCS.items():
        spec.path(rule=rules[path], operations={"get": {
            "operationId": operation_id, "summary": summary, "tags": ["ui"], "security": [],
            "responses": {"200": {"description": "the page (HTML)",
                                  "content": {"text/html": {"schema": {"type": "string"}}}}}}})
    spec.path(rule=rules["/"], operations={"get": {
        "operationId": "get_home", "summary": "The site's root: a redirect to the hand lab (`/ui`).", "tags": ["ui"],
        "security": [], "responses": {"302": {"description": "to the hand lab", "headers": {"Location": {
            "description": "`/ui`", "schema": {"type": "string", "example": "/ui"}}}}}}})


def init_app(app: Flask) -> None:
    """Serve the pages and their static files, and document the pages in the API's OpenAPI document."""
    app.register_blueprint(blp)
    api = app.extensions.get("longcards_api")
    if api is not None:
        api.spec.tag({"name": "ui", "description": "The browser pages"})
        document(app, api.spec)
