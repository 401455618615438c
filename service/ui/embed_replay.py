"""The stored game's embed view (`/embed/replay/{id}`) and the host script of every embed view
(`/embed/longcards.js`).

The view is the replay viewer's stepping through a stored game (GET /v1/shares/{id}, service/api/shares/): the round
choice, the events, the table at each, the audit's verdict, and the annotations of the analysis stored with it. No
loader, no key, no analysis to run: a visitor of the host page runs no job. The stored game and the rule-sets are
rendered into the page as a JSON data block (`#embed-data`), read with the API's own answers (`api_answer`: in the
reader's language, seats counted from 1), so the first paint needs no round trip; each round's audit with its tables
is then read as any reader reads it (GET /v1/shares/{id}/rounds/{n}, open, cacheable). A game that is gone is a page
of its status (404 never stored or expired, 410 deleted) saying so in the reader's language.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote, urlencode

from flask import Response, request, send_from_directory
from redis.exceptions import RedisError

from .. import shares
from ..api.shares import load_summary
from . import STORED_GAME, page
from . import blp as pages
from .embed import blp
from .embed_views import Refused, ask, rulesets, view

STATIC = Path(__file__).resolve().parent / "static"
#: Seconds a browser or a cache may keep the host script before asking again (then revalidated by its ETag).
HOST_SCRIPT_AGE = 3600


@blp.get("/embed/replay/<share_id>")
def replay(share_id: str) -> Response:
    """A stored game to step through, at `?round=N&event=M` (from 1; event 0 or none: the deal)."""
    try:
        data = {"share": ask("GET", f"/v1/shares/{quote(share_id, safe='')}"), "rulesets": rulesets()}
    except Refused as refused:
        return view("replay.html", {"problem": refused.answer}, "")
    return view("replay.html", data, f"/ui/replay/{share_id}")


@blp.get("/embed/longcards.js")
def host_script() -> Response:
    """The script a host page includes to embed the views: each `<div data-longcards-share|hand|drill>` becomes an
    iframe of its view, sized to its content (service/ui/static/longcards.js). Cacheable for an hour."""
    return send_from_directory(STATIC, "longcards.js", mimetype="text/javascript", max_age=HOST_SCRIPT_AGE)


@pages.get(STORED_GAME)
def stored_game(share_id: str) -> Response:
    """The replay viewer opened at a stored game: its script loads it as any reader does (GET /v1/shares/{id}, open
    without a key), and says so when it is gone, as the page's status does (404 never stored or expired, 410
    deleted: a crawler or a link preview learns it too). The head names the game's oEmbed address (discovery: a site
    a link is pasted into finds the embed view there). A page of the pages' blueprint (never framed), served from
    here because it reads the stored game (service/ui/ itself knows no Redis)."""
    status = 200
    try:
        load_summary(share_id)  # its status only: the page's script reads the game
    except shares.ShareNotFound:
        status = 404
    except shares.ShareDeleted:
        status = 410
    except RedisError:
        pass  # the page's script says the service cannot be reached, as for any page
    oembed = f"{request.host_url}oembed?{urlencode({'url': request.base_url})}"
    answer = page("replay.html", share_id=share_id, oembed_url=oembed)
    answer.status_code = status
    return answer
