"""The job API: POST /v1/replays (202 + Location), GET and DELETE /v1/jobs/{id}."""

from __future__ import annotations

from flask import current_app, jsonify, request
from flask.views import MethodView
from rq.command import send_stop_job_command

from workers.queues import SERIALIZER, enqueue, new_job_id
from workers.replays import analyse_replays
from workers.webhooks import SECRET_ENV, notify_failure, notify_success

from ...errors import problem
from ...jobs import JobNotFound, idempotency_key, job_json, load, owner, redis
from ...replay.log import parse_log
from ...rules.errors import DomainError
from ..blueprint import Blueprint
from .schemas import JobSchema, ReplayRequestSchema

blp = Blueprint("jobs", __name__, url_prefix="/v1", description="Asynchronous jobs (RQ on Redis)")


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
        if payload["callback_url"] and not current_app.config.get("WEBHOOK_SECRET"):
            raise DomainError(f"webhooks are off: set {SECRET_ENV}", "callback_url", code="webhooks_disabled")
        connection = redis()
        key = idempotency_key(request.headers.get("Idempotency-Key"), payload)
        job_id = new_job_id()
        # SET NX (not SET NX GET, which needs Redis 7): the first request wins the key.
        existing = None if connection.set(key, job_id, nx=True, ex=analyse_replays.spec.result_ttl) \
            else connection.get(key)
        if existing is not None:
            try:
                return accepted(load(existing.decode()))
            except JobNotFound:
                connection.set(key, job_id, ex=analyse_replays.spec.result_ttl)  # that job expired: start anew
        meta = {"owner": owner(), "kind": "replay", "callback_url": payload["callback_url"],
                "progress": {"events_done": 0, "events_total": sum(len(log["events"]) for log in payload["logs"]),
                             "logs_done": 0, "logs_total": len(payload["logs"])}}
        job = enqueue(analyse_replays, connection, payload["logs"], payload["players"], job_id=job_id, meta=meta,
                      on_success=notify_success, on_failure=notify_failure)
        return accepted(job)


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
