"""The job API: POST /v1/replays (202 + Location), GET and DELETE /v1/jobs/{id}."""

from __future__ import annotations

from flask import current_app, jsonify, request
from flask.views import MethodView
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.exceptions import WatchError
from rq.command import send_stop_job_command

from workers.callbacks import CallbackRefused
from workers.callbacks import resolve as resolve_callback
from workers.queues import SERIALIZER, enqueue, new_job_id
from workers.replays import analyse_replays
from workers.webhooks import SECRET_ENV, notify_failure, notify_success

from ...errors import problem
from ...jobs import JobNotFound, idempotency, job_json, load, owner, redis
from ...replay.log import parse_log
from ...replay.stats import count_discards
from ...rules.errors import DomainError
from ..blueprint import Blueprint
from .schemas import JobSchema, ReplayRequestSchema

#: A deep review's worst case (decisions x time budget) must fit well inside the job's time limit.
MAX_DEEP_SECONDS = 3000

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
    """The job this idempotency key names, or a new one: the key and the job are written in one transaction
    watched on the key, so two identical requests at once get one job and nothing is half-enqueued. A key that
    names a job made from another payload is refused: its job answers a different question."""
    for _ in range(attempts):
        with redis().pipeline() as pipe:
            try:
                pipe.watch(key)
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
                job_id = new_job_id()
                pipe.multi()
                pipe.set(key, f"{job_id} {digest}", ex=analyse_replays.spec.result_ttl)
                job = make(pipe, job_id)
                pipe.execute()
                return job
            except WatchError:
                continue  # another request wrote the key meanwhile: read it again
    raise RedisTimeoutError("idempotency key kept changing")


def accepted(job) -> object:
    """202 with the job and its Location."""
    response = jsonify(job_json(job))
    response.status_code = 202
    response.headers["Location"] = f"/v1/jobs/{job.id}"
    return response


@blp.route("/replays")
class Replays(MethodView):
    """Full replay analysis of one or many logs."""

    @blp.arguments(ReplayRequestSchema())
    @blp.response(202, JobSchema(), headers={"Location": {"description": "the job", "schema": {"type": "string"}}})
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


@blp.route("/jobs/<string:job_id>")
class Jobs(MethodView):
    """One job."""

    @blp.response(200, JobSchema())
    @blp.alt_response(404, description="no such job for this caller")
    @blp.alt_response(503, description="Redis unavailable")
    def get(self, job_id: str):
        """Status, progress, result or error of a job."""
        try:
            return jsonify(job_json(load(job_id)))
        except JobNotFound:
            return problem(404, "job_not_found", f"no job {job_id!r}")

    @blp.response(202, JobSchema())
    @blp.alt_response(404, description="no such job for this caller")
    @blp.alt_response(409, description="the job already ended")
    @blp.alt_response(503, description="Redis unavailable")
    def delete(self, job_id: str):
        """Cancel a queued or running job."""
        try:
            job = load(job_id)
        except JobNotFound:
            return problem(404, "job_not_found", f"no job {job_id!r}")
        status = job_json(job)["status"]
        if status in ("finished", "failed", "canceled"):
            return problem(409, "job_not_cancelable", f"job {job_id} already {status}")
        if status == "started":
            send_stop_job_command(redis(), job.id, serializer=SERIALIZER)
        else:
            job.cancel()
        response = jsonify(job_json(job))
        response.status_code = 202
        return response
