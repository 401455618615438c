"""The API's side of the stored games (service/shares.py, which knows no Flask): who keeps what a request stores,
a share read with the app's Redis client, a share as the API shows it, and the refusals as problems.

The refusals' handlers are installed on the app (service/app.py), as the job layer's are: a view of any blueprint
that reads a share through `load_share` and lets a refusal through answers its problem.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, Response, request

from ... import shares
from ...http.errors import problem
from ...i18n import N_, localize
from ...jobs.submit import ACTIVE_PREFIX
from ...rules.text import Text, ntext, read_texts, text
from ..jobs.access import STATUS, caller, redis


def owner() -> str:
    """Who keeps what the request stores: the API key's name (`key:NAME`), else the client address (`addr:IP`), as
    the active-job limit counts callers (service/jobs/submit.py `Caller`)."""
    return caller().active.removeprefix(ACTIVE_PREFIX)


def load_share(share_id: str) -> shares.Stored:
    """The share with this id, read with the app's Redis client (ShareNotFound, ShareDeleted)."""
    return shares.read(redis(), share_id)


def load_summary(share_id: str) -> shares.Summary:
    """The summary of the share with this id, its logs left in Redis (ShareNotFound, ShareDeleted)."""
    return shares.summary(redis(), share_id)


def summary_json(share: shares.Summary) -> dict[str, Any]:
    """A share in short, with its addresses on the host the request reached (request.host_url honours trusted
    proxies)."""
    host = request.host_url
    return {"id": share.id, "url": f"{host}ui/replay/{share.id}", "embed_url": f"{host}embed/replay/{share.id}",
            "api_url": f"{host}v1/shares/{share.id}", "created_at": share.created_at, "expires_at": share.expires_at,
            "title": share.title, "rounds": share.rounds, "size": share.size}


def share_json(share: shares.Stored) -> dict[str, Any]:
    """A share as GET /v1/shares/{id} answers it: its summary, its logs, and its analysis's texts in the reader's
    language."""
    analysis = share.document["analysis"]
    return {**summary_json(share), "logs": share.document["logs"],
            "analysis": None if analysis is None else read_texts(analysis, localize)}


#: Why a job cannot be stored with the logs (service/shares.py `JobNotShareable.why`).
NOT_SHAREABLE = {"missing": N_("job {id} is no job of this caller's, or it expired"),
                 "kind": N_("job {id} is a search: only a replay analysis is stored with the logs"),
                 "unfinished": N_("job {id} has no result to store: it is {status}"),
                 "other_logs": N_("job {id} analysed other rounds than these logs: store the logs it analysed")}


def handle_not_found(error: shares.ShareNotFound) -> Response:
    """404: no share with this id."""
    return problem(404, "share_not_found", text("no stored game {id}", id=repr(error.share_id)))


def handle_deleted(error: shares.ShareDeleted) -> Response:
    """410: its owner deleted the share."""
    return problem(410, "share_deleted", text("stored game {id} was deleted by its owner", id=repr(error.share_id)))


def handle_not_yours(error: shares.ShareNotYours) -> Response:
    """403: another caller stored the share."""
    return problem(403, "share_not_yours", text(
        "stored game {id} was stored by another API key (without keys: another client address); only it may delete "
        "it", id=repr(error.share_id)))


def handle_too_large(error: shares.ShareTooLarge) -> Response:
    """413: the document is over SHARE_MAX_BYTES."""
    return problem(413, "share_too_large", text(
        "the game to store is {size} bytes as JSON, over the {limit} bytes allowed (LONGCARDS_SHARE_MAX_BYTES)",
        size=error.size, limit=error.limit))


def handle_too_many(error: shares.TooManyShares) -> Response:
    """429: the caller keeps MAX_SHARES shares already."""
    return problem(429, "too_many_shares", ntext(
        "this caller keeps {n} stored game, the most allowed (LONGCARDS_MAX_SHARES); delete it first",
        "this caller keeps {n} stored games, the most allowed (LONGCARDS_MAX_SHARES); delete one first", error.kept))


def handle_not_shareable(error: shares.JobNotShareable) -> Response:
    """409: the job is no finished replay of this caller's."""
    status = STATUS.get(error.status, "queued") if error.status is not None else ""
    return problem(409, "job_not_shareable", Text(NOT_SHAREABLE[error.why], {"id": repr(error.job_id),
                                                                         "status": status}))


def handle_not_replicated(error: shares.ShareNotReplicated) -> Response:
    """503 with the seconds to wait: no replica acknowledged the store (or the deletion) in time; it may be done."""
    return problem(503, "not_replicated", text(
        "{acknowledged} of {wanted} Redis replicas acknowledged the stored game within {timeout_ms} ms; it may be "
        "stored (or deleted) all the same: GET /v1/shares lists the caller's", acknowledged=error.acknowledged,
        wanted=error.wanted, timeout_ms=error.timeout_ms), headers={"Retry-After": str(error.retry_after)})


#: What the share functions may raise, and its problem (Redis's failures: service/api/jobs/errors.py).
HANDLERS: tuple[tuple[type[Exception], Callable[[Any], Response]], ...] = (
    (shares.ShareNotFound, handle_not_found), (shares.ShareDeleted, handle_deleted),
    (shares.ShareNotYours, handle_not_yours), (shares.ShareTooLarge, handle_too_large),
    (shares.TooManyShares, handle_too_many), (shares.JobNotShareable, handle_not_shareable),
    (shares.ShareNotReplicated, handle_not_replicated),
)


def register(app: Flask) -> None:
    """Install the handlers on the app."""
    for error, handler in HANDLERS:
        app.register_error_handler(error, handler)
