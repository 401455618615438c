"""The job API: POST /v1/replays (202 + Location), GET /v1/jobs (the caller's recent jobs), GET and DELETE
/v1/jobs/{id}."""

from __future__ import annotations

from flask import current_app, jsonify, request
from flask.views import MethodView
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.exceptions import WatchError
from rq.command import send_stop_job_command
from rq.utils import now, utcformat

from workers.callbacks import CallbackRefused
from workers.callbacks import resolve as resolve_callback
from workers.queues import SERIALIZER, enqueue, new_job_id
from workers.replays import analyse_replays
from workers.webhooks import SECRET_ENV, notify_failure, notify_success

from ...errors import TooManyRequests, problem
from ...joblist import BadCursor, page, remember
from ...jobs import JobNotFound, active_jobs, active_key, count_active, idempotency, job_json, load, owner, redis
from ...replay.log import parse_log
from ...replay.reviewers import count_discards
from ...rules.errors import DomainError
from ..blueprint import Blueprint
from ..examples import CREATE_REPLAY
from .schemas import JobListArgsSchema, JobListSchema, JobSchema, ReplayRequestSchema, ResultPageArgsSchema

#: A deep review's worst case (decisions x time budget): one job never holds a worker for more than 5 minutes.
MAX_DEEP_SECONDS = 300
#: Seconds a caller over MAX_ACTIVE_JOBS is told to wait.
ACTIVE_RETRY_AFTER = 10
#: Seconds a client should wait before polling a job it just submitted.
POLL_AFTER = "1"

blp = Blueprint("jobs", __name__, url_prefix="/v1", description="Asynchronous jobs (RQ on Redis)")


def check_callback(url: str) -> None:
    """Webhooks need the shared secret, and go to public addresses only unless WEBHOOK_ALLOW_PRIVATE is set
    (a callback to loopback or a private network would let a caller make this service probe them). The
    workers check the address again at every delivery."""
    if not current_app.config.get("WEBHOOK_SECRET"):
        raise DomainError(f"webhooks are off: set {SECRET_ENV}", "callback_url", code="webhooks_disabled")
    if current_app.config.get("WEBHOOK_ALLOW_PRIVATE"):
        return
    try:
        resolve_callback(url)
    except CallbackRefused as refused:
        raise DomainError(f"callback_url refused: {refused}", "callback_url", code="invalid_callback_url") from None


def submit(key: str, digest: str, make, attempts: int = 5):
    """The job this idempotency key names, or a new one: the key, the job and the caller's set of active jobs
    are written in one transaction watched on the key and the set, so two identical requests at once get one
    job, nothing is half-enqueued, and a caller never has more than MAX_ACTIVE_JOBS queued or running (429).
    A key that names a job made from another payload is refused: its job answers a different question."""
    limit, active = current_app.config.get("MAX_ACTIVE_JOBS") or 0, active_key()
    for _ in range(attempts):
        with redis().pipeline() as pipe:
            try:
                pipe.watch(key, active)
                existing = pipe.get(key)
                if existing is not None:
                    job_id, _, made_from = existing.decode().partition(" ")
                    try:
                        job = load(job_id)
                    except JobNotFound:
                        job = None  # that job has expired: this request starts a new one
                    if job is not None and made_from not in ("", digest):
                        raise DomainError("this Idempotency-Key was used with another request body",
                                          "Idempotency-Key", code="idempotency_key_reused")
                    if job is not None:
                        return job
                running, ended = active_jobs(redis(), active)
                if limit and len(running) >= limit:
                    raise TooManyRequests("too_many_active_jobs", f"{len(running)} jobs of this caller are queued "
                                          f"or running; at most {limit} at once", ACTIVE_RETRY_AFTER)
                job_id = new_job_id()
                pipe.multi()
                pipe.set(key, f"{job_id} {digest}", ex=analyse_replays.spec.result_ttl)
                count_active(pipe, active, job_id, ended)
                job = make(pipe, job_id)
                remember(pipe, owner(), job_id)
                pipe.execute()
                return job
            except WatchError:
                continue  # another request wrote the key meanwhile: read it again
    raise RedisTimeoutError("idempotency key kept changing")


def accepted(job) -> object:
    """202 with the job, its Location and when to poll it (Retry-After)."""
    response = jsonify(job_json(job))
    response.status_code = 202
    response.headers["Location"] = f"/v1/jobs/{job.id}"
    response.headers["Retry-After"] = POLL_AFTER
    return response


@blp.route("/replays")
class Replays(MethodView):
    """Full replay analysis of one or many logs."""

    @blp.doc(operationId="create_replay")
    @blp.arguments(ReplayRequestSchema(), example=CREATE_REPLAY)
    @blp.response(202, JobSchema(), headers={"Location": {"description": "the job", "schema": {"type": "string"}}})
    @blp.alt_response(429, description="too many jobs of this caller queued or running (MAX_ACTIVE_JOBS), over "
                      "the rate limit, or too many failed authentications; retry after Retry-After seconds")
    @blp.alt_response(503, description="Redis unavailable; retry after the Retry-After seconds")
    def post(self, payload: dict):
        """Queue an analysis: audit and per-seat statistics of every log, one summary across games."""
        for i, log in enumerate(payload["logs"]):
            try:
                parse_log(log)  # a log that cannot be replayed is refused now, not inside the job
            except DomainError as error:
                raise DomainError(error.message, f"logs.{i}.{error.field}", code=error.code) from None
        if payload["callback_url"]:
            check_callback(payload["callback_url"])
        decisions = sum(count_discards(log) for log in payload["logs"])
        review = payload["review"]
        if review["mode"] == "deep" and decisions * review["time_budget"] > MAX_DEEP_SECONDS:
            raise DomainError(f"a deep review of {decisions} discards at {review['time_budget']} s each exceeds "
                              f"{MAX_DEEP_SECONDS} s; lower the time budget or send fewer logs",
                              "review.time_budget", code="review_too_long")
        meta = {"owner": owner(), "kind": "replay", "callback_url": payload["callback_url"],
                "progress": {"events_done": 0, "events_total": sum(len(log["events"]) for log in payload["logs"]),
                             "logs_done": 0, "logs_total": len(payload["logs"]), "decisions_done": 0,
                             "decisions_total": decisions}}
        key, digest = idempotency(request.headers.get("Idempotency-Key"), payload)
        return accepted(submit(key, digest, lambda pipe, job_id: enqueue(
            analyse_replays, redis(), payload["logs"], payload["players"], review, job_id=job_id, meta=meta,
            on_success=notify_success, on_failure=notify_failure, pipeline=pipe)))


@blp.route("/jobs")
class JobList(MethodView):
    """The caller's recent jobs."""

    @blp.doc(operationId="list_jobs")
    @blp.arguments(JobListArgsSchema(), location="query")
    @blp.response(200, JobListSchema())
    @blp.alt_response(503, description="Redis unavailable")
    def get(self, args: dict):
        """The caller's jobs, newest first, without their results; `next_cursor` fetches the next page."""
        try:
            jobs, following = page(redis(), owner(), args["limit"], args["cursor"])
        except BadCursor:
            raise DomainError("cursor is not one a job list gave", "cursor", code="invalid_request") from None
        return jsonify({"jobs": [job_json(job, with_result=False) for job in jobs], "next_cursor": following})


def paged(answer: dict, offset: int, limit: int | None) -> dict:
    """A replay result with only the per-log entries offset..offset+limit (the summary always whole)."""
    result = answer["result"]
    if limit is None or not isinstance(result, dict) or not isinstance(result.get("logs"), list):
        return answer
    logs = result["logs"]
    answer["result"] = {**result, "logs": logs[offset:offset + limit],
                        "logs_page": {"offset": offset, "limit": limit, "total": len(logs)}}
    return answer


@blp.route("/jobs/<string:job_id>")
class Jobs(MethodView):
    """One job."""

    @blp.doc(operationId="get_job")
    @blp.arguments(ResultPageArgsSchema(), location="query")
    @blp.response(200, JobSchema())
    @blp.alt_response(404, description="no such job for this caller")
    @blp.alt_response(503, description="Redis unavailable")
    def get(self, args: dict, job_id: str):
        """Status, progress, result or error of a job; a replay result page by page with `logs_limit`."""
        try:
            return jsonify(paged(job_json(load(job_id)), args["logs_offset"], args["logs_limit"]))
        except JobNotFound:
            return problem(404, "job_not_found", f"no job {job_id!r}")

    @blp.doc(operationId="cancel_job")
    @blp.response(200, JobSchema(), description="canceled: the job as it is now (`ended_at` set)")
    @blp.alt_response(202, schema=JobSchema(), description="running: the worker was told to stop; poll the job")
    @blp.alt_response(404, description="no such job for this caller")
    @blp.alt_response(409, description="the job already ended")
    @blp.alt_response(503, description="Redis unavailable")
    def delete(self, job_id: str):
        """Cancel a queued job (200) or stop a running one (202); either way the job as it is now."""
        try:
            job = load(job_id)
        except JobNotFound:
            return problem(404, "job_not_found", f"no job {job_id!r}")
        status = job_json(job)["status"]
        if status in ("finished", "failed", "canceled"):
            return problem(409, "job_not_cancelable", f"job {job_id} already {status}")
        if status == "started":
            send_stop_job_command(redis(), job.id, serializer=SERIALIZER)
            code = 202
        else:
            job.cancel()
            job.ended_at = now()
            redis().hset(job.key, "ended_at", utcformat(job.ended_at))
            code = 200
        response = jsonify(job_json(job))
        response.status_code = code
        return response
