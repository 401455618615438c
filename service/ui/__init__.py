"""The browser pages: the hand lab (`/ui`), the replay viewer (`/ui/replay`, and `/ui/replay/{id}` opened at a stored
game), the drills (`/ui/drill`) and the rules (`/docs/rules`).

Jinja templates sharing one head and header (templates/ui/base.html), CSS and plain JavaScript modules served
as static files (no build step, no external host): the pages call the same `/v1` API any client does, so they show
exactly what it answers, the rule-sets' hand sizes and decks included.
"""

from __future__ import annotations

import re
from pathlib import Path

from flask import Blueprint, Flask, Response, redirect, render_template
from markupsafe import Markup, escape
from werkzeug.wrappers import Response as BaseResponse

from service.ui import rule_titles, rules_doc

from .. import i18n

HERE = Path(__file__).resolve().parent

# the templates live under templates/ui/ so no other blueprint's template of the same name can shadow them
blp = Blueprint("ui", __name__, static_folder=str(HERE / "static"), static_url_path="/ui/static",
                template_folder=str(HERE / "templates"))


#: The names of keys a page's key help mentions, as the keyboard prints them in every language.
KEY_NAMES = re.compile(r"Page Up/Down|Page Up|Page Down|Home|End|Enter|Space|Ctrl\+[A-Z]|←|→|1–9"
                       r"|(?<![\w-])[jkN](?![\w-])")


@blp.app_template_filter("keys")
def keys(text: str) -> Markup:
    """A key help text with every key name in `<kbd>` (a key is a code on the keyboard, never a word to translate)."""
    return Markup(KEY_NAMES.sub(lambda found: f"<kbd>{found[0]}</kbd>", str(escape(text))))


def page(name: str, **context) -> Response:
    """An HTML page (a few KB, its template compiled once) in the reader's language, revalidated on every load so a
    new release is picked up. A `?lang=` shows this page in that language and is not remembered (a shared link may
    carry one; the reader keeps their language): the language switch remembers a choice itself, in the cookie
    (i18n.COOKIE) that i18n.js sets on a click."""
    titles = rule_titles.titles(rules_doc.language_of(i18n.language()))
    answer = Response(render_template(f"ui/{name}", **i18n.template_globals(), rule_titles=titles, **context),
                      mimetype="text/html")
    answer.headers["Cache-Control"] = "no-cache"
    answer.vary.update(("Accept-Language", "Cookie"))
    return answer


@blp.get("/")
def home() -> BaseResponse:
    """The site's root leads to the hand lab."""
    return redirect("/ui", code=302)


@blp.get("/favicon.ico")
def favicon() -> Response:
    """The site's icon where a browser looks for it unasked (a problem page, a JSON answer): the pages' SVG, served
    as what it is (`image/svg+xml`), open like every page."""
    return blp.send_static_file("favicon.svg")


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


@blp.get("/ui/drill")
def drill() -> Response:
    """The drills."""
    return page("drill.html")


@blp.get(rules_doc.URL)
def rules() -> Response:
    """The rules the service implements (docs/rules.md, rendered once), every rule at its anchor."""
    language = rules_doc.language_of(i18n.language())
    return page("rules.html", doc=rules_doc.rendered(language), doc_lang=i18n.tag(language))


@blp.get(f"/{rules_doc.CITED}")
def rules_source() -> BaseResponse:
    """`/docs/rules.md`, as code and answers cite the rules, is the rules page (the browser keeps the `#anchor`)."""
    return redirect(rules_doc.URL, code=308)


#: The viewer opened at a stored game (service/ui/embed_replay.py adds its route to this blueprint).
STORED_GAME = "/ui/replay/<share_id>"
#: The pages in the OpenAPI document: what they are, open without a key (the API calls they make need one).
PAGE_DOCS = {
    "/ui": ("get_hand_lab", "The hand lab: build a hand from the cards and see its melds, hu and points, the claim "
                            "advice, the ranked discards and a deep search."),
    "/ui/replay": ("get_replay_viewer", "The replay viewer: step through a game log with its audit, run the replay "
                                        "analysis and see every decision annotated."),
    STORED_GAME: ("get_stored_game_viewer", "The replay viewer opened at a stored game (POST "
                                                        "/v1/shares: its `url`), which it reads as any reader does "
                                                        "(GET /v1/shares/{id})."),
    "/ui/drill": ("get_drill_page", "Drills: positions from seeded rounds the advice plays; pick a discard or "
                                    "answer a public card, see it graded by the advice's values, keep statistics in "
                                    "the browser."),
    rules_doc.URL: ("get_rules", "The rules the service implements, each rule at the anchor that answers cite "
                                 "(`docs/rules.md#fc-claims` is `/docs/rules#fc-claims`)."),
}


def document(app: Flask, spec) -> None:
    """Add the pages to the OpenAPI document (an HTML page each, no key needed), and the redirects of the root and
    of the rules document as cited."""
    rules = {rule.rule: rule for rule in app.url_map.iter_rules() if rule.endpoint.startswith("ui.")}
    html = {"text/html": {"schema": {"type": "string"}}}
    for path, (operation_id, summary) in PAGE_DOCS.items():
        responses = {"200": {"description": "the page (HTML)", "content": html}}
        if path == STORED_GAME:  # the viewer all the same, with the game's status
            responses.update({"404": {"description": "the page, for a game never stored or expired", "content": html},
                              "410": {"description": "the page, for a game its owner deleted", "content": html}})
        spec.path(rule=rules[path], operations={"get": {
            "operationId": operation_id, "summary": summary, "tags": ["ui"], "security": [], "responses": responses}})
    spec.path(rule=rules["/"], operations={"get": {
        "operationId": "get_home", "summary": "The site's root: a redirect to the hand lab (`/ui`).", "tags": ["ui"],
        "security": [], "responses": {"302": {"description": "to the hand lab", "headers": {"Location": {
            "description": "`/ui`", "schema": {"type": "string", "example": "/ui"}}}}}}})
    spec.path(rule=rules[f"/{rules_doc.CITED}"], operations={"get": {
        "operationId": "get_rules_source", "summary": "The rules document as cited (`docs/rules.md#...`): a "
        "redirect to the rules page (`/docs/rules`); the browser keeps the anchor.", "tags": ["ui"], "security": [],
        "responses": {"308": {"description": "to the rules page", "headers": {"Location": {
            "description": "`/docs/rules`", "schema": {"type": "string", "example": rules_doc.URL}}}}}}})


def init_app(app: Flask) -> None:
    """Serve the pages and their static files, and document the pages in the API's OpenAPI document."""
    for language in i18n.LANGUAGES:  # rendered now: a document that fails to render stops the start, not a request
        rules_doc.page(language)
    app.register_blueprint(blp)
    api = app.extensions.get("longcards_api")
    if api is not None:
        api.spec.tag({"name": "ui", "description": "The browser pages"})
        document(app, api.spec)
