"""GET /oembed: the oEmbed 1.0 provider (https://oembed.com) of the embed views, so that forum software and CMSs turn
a pasted link to a stored game, a hand or a drill into the embedded view.

A URL of this service (the same scheme, host and port as the request) that names a page with an embed view:
- a stored game: `/ui/replay/{id}` or `/embed/replay/{id}` (the game must exist: a deleted or expired one is 404);
- a hand: `/ui?...` or `/embed/hand?...` (the hand lab's query);
- a drill: `/ui/drill?...` or `/embed/drill?...`.
The answer is a `rich` type: an iframe of the embed view, sized within `maxwidth` × `maxheight`. Anything else (another
host, another scheme, `javascript:`, a path with no embed view) is 404, as the specification asks; `format=xml` is 501
(JSON only). The URL is parsed, never fetched: the provider makes no request of its own.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import marshmallow as ma
from flask import request
from flask.views import MethodView
from markupsafe import escape

from ..api.blueprint import Blueprint
from ..http.errors import problem
from ..i18n import _
from ..rules.text import text

blp = Blueprint("oembed", __name__, description="oEmbed: the embed views of stored games, hands and drills")

#: The longest `url` read: longer ones are refused (422) before they are parsed.
MAX_URL = 2048
#: The iframe's width and height when the consumer sets no bound, by view; the view scrolls inside a shorter one.
SIZES = {"replay": (640, 720), "hand": (640, 560), "drill": (640, 600)}
#: The embed views' own parameters a linked URL may carry into the iframe (the rest of a hand or drill query too).
VIEW_PARAMS = ("lang", "theme", "faces")
#: Seconds a consumer may keep an answer.
CACHE_AGE = 3600


class OembedArgsSchema(ma.Schema):
    """The oEmbed request's parameters."""

    url = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=MAX_URL),
                           metadata={"description": "the page to embed: a stored game, a hand or a drill of this "
                                                    "service (the same scheme, host and port)"})
    maxwidth = ma.fields.Integer(validate=ma.validate.Range(min=1, max=10_000),
                                 metadata={"description": "the widest the embed may be, in pixels"})
    maxheight = ma.fields.Integer(validate=ma.validate.Range(min=1, max=10_000),
                                  metadata={"description": "the tallest the embed may be, in pixels"})
    format = ma.fields.String(load_default="json", validate=ma.validate.OneOf(["json", "xml"]),
                              metadata={"description": "`json` (`xml` is not implemented: 501)"})


class OembedSchema(ma.Schema):
    """An oEmbed 1.0 answer of type `rich`: the iframe of the embed view."""

    version = ma.fields.String(required=True, metadata={"example": "1.0"})
    type = ma.fields.String(required=True, metadata={"example": "rich"})
    html = ma.fields.String(required=True, metadata={"description": "the iframe of the embed view"})
    width = ma.fields.Integer(required=True)
    height = ma.fields.Integer(required=True)
    title = ma.fields.String(required=True)
    provider_name = ma.fields.String(required=True, metadata={"example": "Long Cards"})
    provider_url = ma.fields.String(required=True)
    cache_age = ma.fields.Integer(required=True)


class NotEmbeddable(Exception):
    """A URL that names no embed view of this service."""


def embed_target(url: str) -> tuple[str, str, dict[str, str]]:
    """(view, embed path, query) of a page URL of this service; NotEmbeddable for anything else."""
    parts = urlsplit(url.strip())
    own = urlsplit(request.host_url)
    same_origin = (parts.scheme, parts.netloc.lower()) == (own.scheme, own.netloc.lower())
    if parts.scheme not in ("http", "https") or not same_origin:
        raise NotEmbeddable
    query = dict(parse_qsl(parts.query, keep_blank_values=False))
    path = parts.path.rstrip("/") or "/"
    for prefix in ("/ui/replay/", "/embed/replay/"):
        if path.startswith(prefix):
            return "replay", f"/embed/replay/{path.removeprefix(prefix)}", query
    if path in ("/ui", "/embed/hand"):
        if not query.get("ruleset"):
            raise NotEmbeddable
        return "hand", "/embed/hand", query
    if path in ("/ui/drill", "/embed/drill"):
        return "drill", "/embed/drill", query
    raise NotEmbeddable


def replay_title(share_id: str) -> str:
    """The title of a stored game that exists; NotEmbeddable when it does not (unknown, expired or deleted)."""
    from .. import shares
    from ..api.shares import load_summary

    try:
        stored = load_summary(share_id)
    except (shares.ShareNotFound, shares.ShareDeleted):
        raise NotEmbeddable from None
    return stored.title or str(_("A stored game of Long Cards"))


def title_of(view: str, embed_path: str) -> str:
    """The answer's title, in the reader's language."""
    if view == "replay":
        return replay_title(embed_path.rsplit("/", 1)[1])
    return str(_("A hand in the Long Cards hand lab") if view == "hand" else _("A Long Cards drill"))


def iframe(src: str, width: int, height: int, title: str) -> str:
    """The iframe an oEmbed consumer puts on its page."""
    return (f'<iframe src="{escape(src)}" width="{width}" height="{height}" title="{escape(title)}" '
            f'style="border:0;max-width:100%" loading="lazy" referrerpolicy="strict-origin-when-cross-origin" '
            f'sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox"></iframe>')


@blp.route("/oembed")
class Oembed(MethodView):
    """The oEmbed provider."""

    @blp.doc(operationId="get_oembed", security=[])
    @blp.arguments(OembedArgsSchema(), location="query")
    @blp.response(200, OembedSchema())
    @blp.alt_response(404, description="`not_embeddable`: the URL names no embed view of this service")
    @blp.alt_response(501, description="`format_not_implemented`: `format=xml`")
    def get(self, args: dict):
        """The oEmbed answer (type `rich`) for a stored game, a hand or a drill of this service: an iframe of its
        embed view within `maxwidth` × `maxheight`. Open without a key, like the pages."""
        if args["format"] != "json":
            return problem(501, "format_not_implemented", text("oEmbed answers are JSON only (format=json)"))
        try:
            view, path, query = embed_target(args["url"])
            title = title_of(view, path)
        except NotEmbeddable:
            return problem(404, "not_embeddable", text("this URL names no stored game, hand or drill of this "
                                                       "service that can be embedded"))
        width, height = SIZES[view]
        width = min(width, args.get("maxwidth", width))
        height = min(height, args.get("maxheight", height))
        kept = query if view != "replay" else {k: v for k, v in query.items() if k in (*VIEW_PARAMS, "round", "event")}
        src = request.host_url.rstrip("/") + path + (f"?{urlencode(kept)}" if kept else "")
        answer: dict[str, Any] = {
            "version": "1.0", "type": "rich", "html": iframe(src, width, height, title), "width": width,
            "height": height, "title": title, "provider_name": "Long Cards", "provider_url": request.host_url,
            "cache_age": CACHE_AGE}
        return answer


def init_app(app) -> None:
    """Serve GET /oembed, documented in the API's OpenAPI document."""
    api = app.extensions.get("longcards_api")
    if api is not None:
        api.register_blueprint(blp)
    else:
        app.register_blueprint(blp)
