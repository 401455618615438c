"""The embed views: pages made for other sites to frame (`/embed/...`), and what makes them fit a host page.

- Framing by permission: `EMBED_ORIGINS` (service/config.py) lists the sites whose pages may frame these views; their
  Content-Security-Policy names them in `frame-ancestors` (`*` only when set so). Every other page of the service
  stays unframeable (service/http/security_headers.py).
- No site chrome, no API key box: an embed view never reads a visitor's stored key (common.js `EMBEDDED`) and sets
  no cookie; its language comes from `?lang=` (the host page's choice), else the browser's `Accept-Language`, never
  from the language cookie of the service's own pages.
- `theme` (`light`, `dark`, `auto`: the system's) and `faces` (the card faces, faces.js) are the host's choice.
- The view posts its height to the host page (embed-frame.js) and the host script (`/embed/longcards.js`) sizes the
  iframe; both check the other's origin.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request

from .. import i18n
from ..http.cors import checked_origins
from ..http.security_headers import EMBED_BLUEPRINT, embed_policy
from . import rule_titles, rules_doc

blp = Blueprint(EMBED_BLUEPRINT, __name__)
THEMES = ("auto", "light", "dark")


def frame_origins() -> list[str]:
    """The origins that may frame the embed views (`["*"]`: any; `[]`: none), from `EMBED_ORIGINS`."""
    return checked_origins(current_app.config.get("EMBED_ORIGINS"))


def theme() -> str:
    """The theme the host page asked for (`?theme=`), `auto` (the system's) for anything else."""
    asked = request.args.get("theme", "auto")
    return asked if asked in THEMES else "auto"


def embed_page(name: str, status: int = 200, **context: Any) -> Response:
    """An embed view: the template `ui/embed/<name>` in the reader's language, framable by `EMBED_ORIGINS` only,
    revalidated on every load."""
    allowed = frame_origins()
    titles = rule_titles.titles(rules_doc.language_of(i18n.language()))
    answer = Response(render_template(
        f"ui/embed/{name}", **i18n.template_globals(), rule_titles=titles, theme=theme(),
        faces=request.args.get("faces", ""), frame_origins=json.dumps(allowed), **context),
        status=status, mimetype="text/html")
    answer.headers["Content-Security-Policy"] = embed_policy(allowed)
    if not allowed:
        answer.headers["X-Frame-Options"] = "DENY"
    answer.headers["Cache-Control"] = "no-cache"
    answer.vary.add("Accept-Language")
    return answer


def api_answer(method: str, path: str, *, body: Any = None, query: dict[str, Any] | None = None) -> tuple[int, Any]:
    """The API's own answer (status, JSON) to a request an embed view makes for its visitor, computed in this request:
    the same validation, answer and problem (in the reader's language, seats counted from 1) as a client of `path`
    would get, with no key asked (auth and the rate limit are the embed view's own request's). For the bounded, keyless
    questions of one hand or one drill only (docs/api.md#embedding): never a job."""
    headers = {"Accept-Language": i18n.tag(i18n.language()), i18n.SEATS_HEADER: "1"}
    environ = {i18n.ENVIRON_KEY: i18n.language(), "REMOTE_ADDR": request.remote_addr or ""}
    with current_app.test_request_context(path, method=method, json=body, query_string=query, headers=headers,
                                          environ_base=environ):
        try:
            returned = current_app.dispatch_request()
        except Exception as error:  # noqa: BLE001 - the app's own handlers make it the problem a client would get
            returned = current_app.handle_user_exception(error)
        answer = current_app.make_response(returned)
        return answer.status_code, answer.get_json(silent=True)


def init_app(app) -> None:
    """Serve the embed views."""
    # the views' routes on `blp`: the stored game's view and the host script; the hand and drill views
    from . import embed_replay, embed_views  # noqa: F401
    app.register_blueprint(blp)
