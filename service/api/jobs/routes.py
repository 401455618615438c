"""The job API: POST /v1/replays (202 + Location), GET and DELETE /v1/jobs/{id}."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from flask import current_app, jsonify, request
from flask.views import MethodView
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.exceptions import WatchError
from rq.command import send_stop_job_command

from workers.queues import SERIALIZER, enqueue, new_job_id
from workers.replays import analyse_replays
from workers.webhooks import SECRET_ENV, notify_failure, notify_success

from ...errors import TooManyRequests, problem
from ...jobs import JobNotFound, active_jobs, active_key, count_active, idempotency_key, job_json, load, owner, redis
from ...replay.log import parse_log
from ...replay.stats import count_discards
from ...rules.errors import DomainError
from ..blueprint import Blueprint
from .schemas import JobSchema, ReplayRequestSchema

#: A deep review's worst case (decisions x time budget): one job never holds a worker for more than 5 minutes.
MAX_DEEP_SECONDS = 300
#: Seconds a caller over MAX_ACTIVE_JOBS is told to wait.
ACTIVE_RETRY_AFTER = 10

blp = Blueprint("jobs", __name__, url_prefix="/v1", description="Asynchronous jobs (RQ on Redis)")


def check_callback(url: str) -> None:
    """Webhooks need the shared secret, and go to public addresses only unless WEBHOOK_ALLOW_PRIVATE is set
    (a callback to loopback or a private network would let a caller make this service probe them)."""
    if not current_app.config.get("WEBHOOK_SECRET"):
        raise DomainError(f"webhooks are off: set {SECRET_ENV}", "callback_url", code="webhooks_disabled")
    if current_app.config.get("WEBHOOK_ALLOW_PRIVATE"):
        return
    host = urlsplit(url).hostname or ""
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except (OSError, UnicodeError):
        raise DomainError(f"callback_url host {host!r} does not resolve", "callback_url",
                          code="invalid_callback_url") from None
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%")[0])
        if not ip.is_global:
            raise DomainError(f"callback_url resolves to a non-public address ({ip})", "callback_url",
                              code="invalid_callback_url")


def submit(key: str, make, attempts: int = 5):
    """The job this idempotency key names, or a new one: the key, the job and the caller's set of active jobs
    are written in one transaction watched on the key and the set, so two identical requests at once get one
    job, nothing is half-enqueued, and a caller never has more than MAX_ACTIVE_JOBS queued or running (429)."""
    limit, active = current_app.config.get("MAX_ACTIVE_JOBS") or 0, active_key()
    for _ in range(attempts):
        with redis().pipeline() as pipe:
            try:
                pipe.watch(key, active)
                existing = pipe.get(key)
                if existing is not None:
                    try:
                        return load(existing.decode())
                    except JobNotFound:
                        pass  # that job has expired: this request starts a new one
                running, ended = active_jobs(redis(), active)
                if limit and len(running) >= limit:
                    raise TooManyRequests("too_many_active_jobs", f"{len(running)} jobs of this caller are queued "
                                          f"or running; at most {limit} at once", ACTIVE_RETRY_AFTER)
                job_id = new_job_id()
                pipe.multi()
                pipe.set(key, job_id, ex=analyse_replays.spec.result_ttl)
                count_active(pipe, active, job_id, ended)
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
        key = idempotency_key(request.headers.get("Idempotency-Key"), payload)
        return accepted(submit(key, lambda pipe, job_id: enqueue(
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
