"""The API's side of the job layer (service/jobs/, which knows no Flask): the app's Redis client, who is asking, a
job submitted from the request (a 202 answer), and a job as the API shows it.

The app's Redis client is made on the first job request, never at import or app creation: an unreachable Redis
makes the job endpoints answer 503 (service/api/jobs/errors.py) while the synchronous endpoints keep working.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, g, has_app_context, request
from redis import Redis
from rq.job import Job, JobStatus

from ...i18n import _, localize
from ...jobs import submit
from ...jobs.pages import read
from ...jobs.queues import connect
from ...redaction import redact
from ...rules.text import read_texts

#: Where the app keeps its Redis client (tests close it through this name).
CLIENT = "longcards_redis"
#: Seconds a client should wait before polling a job it just submitted.
POLL_AFTER = "1"
#: RQ status -> the API's status names (CONTRACT: queued, started, finished, failed, canceled).
STATUS = {
    JobStatus.QUEUED: "queued", JobStatus.DEFERRED: "queued", JobStatus.SCHEDULED: "queued",
    JobStatus.STARTED: "started", JobStatus.FINISHED: "finished", JobStatus.FAILED: "failed",
    JobStatus.STOPPED: "canceled", JobStatus.CANCELED: "canceled",
}


def redis() -> Redis:
    """The app's Redis client (one per app; connections are made on first use)."""
    client = current_app.extensions.get(CLIENT)
    if client is None:
        client = connect(settings=current_app.config)
        current_app.extensions[CLIENT] = client
    return client


def caller() -> submit.Caller:
    """Who is asking: the API key's name (auth.py sets it), else the client address."""
    return submit.Caller.of(getattr(g, "api_key", None), request.remote_addr)


def load(job_id: str) -> Job:
    """A job the caller may see (service/jobs/errors.py `JobNotFound` for any other id)."""
    return submit.load(redis(), job_id, caller().owner)


def check_callback(url: str) -> None:
    """Refuse a webhook address the app's settings do not allow (422, before anything is queued)."""
    submit.check_callback(url, current_app.config)


def queue(name: str, args: tuple[Any, ...], *, kind: str, progress: dict[str, Any], callback_url: str | None,
          payload: Any) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Queue the job function `name` on `args` as the caller's job, once per `Idempotency-Key` header (else per
    `payload`): the 202 answer (service/jobs/submit.py `queue_job`)."""
    who = caller()
    key, digest = submit.idempotency(who.owner, request.headers.get("Idempotency-Key"), payload)
    return accepted(submit.queue_job(redis(), current_app.config, who, name, args, kind=kind, progress=progress,
                                     callback_url=callback_url, key=key, digest=digest))


def accepted(job: Job) -> tuple[dict[str, Any], int, dict[str, str]]:
    """202 with the job, its Location and when to poll it (Retry-After)."""
    return job_json(job), 202, {"Location": f"/v1/jobs/{job.id}", "Retry-After": POLL_AFTER}


def job_json(job: Job, with_result: bool = True, logs_offset: int = 0, logs_limit: int | None = None) -> dict[str, Any]:
    """A job as the API shows it: status, progress, result (unless left out; a replay result's per-log entries
    only logs_offset..logs_offset+logs_limit with a limit, read alone) or a problem-shaped error."""
    status = STATUS.get(job.get_status(refresh=True), "queued")
    answer: dict[str, Any] = {
        "id": job.id, "kind": job.meta.get("kind"), "status": status, "progress": job.meta.get("progress"),
        "created_at": _iso(job.created_at), "started_at": _iso(job.started_at),
        "ended_at": _iso(_ended_at(job, status)),
        "retries_left": job.retries_left, "result": None, "error": None, "links": {"self": f"/v1/jobs/{job.id}"},
    }
    if status == "finished" and with_result:
        # the result is stored language-neutral: its reasons are put in the reader's language here, as it is read
        answer["result"] = read_texts(read(job.connection, job, logs_offset, logs_limit), localize)
    elif status == "failed":
        latest = job.latest_result()
        reason = (latest.exc_string or "").strip().splitlines()[-1:] if latest else []
        # The exception's own text may repeat a connection's settings: never a secret in an answer.
        settings = current_app.config if has_app_context() else None
        answer["error"] = {"type": "/problems/job_failed", "title": _("Job failed"), "status": 500,
                           "detail": redact(reason[0], settings) if reason else _("the job failed"),
                           "code": "job_failed"}
    return answer


def _ended_at(job: Job, status: str) -> Any:
    """When the job ended; a job stopped while running has no `ended_at` of its own, its last result's time."""
    if job.ended_at is None and status == "canceled":
        latest = job.latest_result()
        return latest.created_at if latest else None
    return job.ended_at


def _iso(moment: Any) -> str | None:
    """An ISO-8601 time, or None."""
    return moment.isoformat() if moment else None
