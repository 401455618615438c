"""The job resource: GET /v1/jobs (the caller's recent jobs), GET and DELETE /v1/jobs/{id}. Jobs are submitted
by their own resources (POST /v1/replays, POST /v1/searches) through `service.jobs.submit.queue_job`."""

from __future__ import annotations

from flask.views import MethodView
from rq.command import send_stop_job_command
from rq.utils import now, utcformat

from ...http.errors import problem
from ...jobs.listing import BadCursor, page
from ...jobs.queues import SERIALIZER
from ...jobs.submit import JobNotFound, job_json, load, owner, redis
from ...rules.errors import DomainError
from ..blueprint import Blueprint
from .schemas import JOB_NOT_FOUND, JOBS_UNAVAILABLE, JobListArgsSchema, JobListSchema, JobSchema, ResultPageArgsSchema

blp = Blueprint("jobs", __name__, url_prefix="/v1", description="Asynchronous jobs (RQ on Redis)")


@blp.route("/jobs")
class JobList(MethodView):
    """The caller's recent jobs."""

    @blp.doc(operationId="list_jobs")
    @blp.arguments(JobListArgsSchema(), location="query")
    @blp.response(200, JobListSchema())
    @blp.alt_response(503, **JOBS_UNAVAILABLE)
    def get(self, args: dict):
        """The caller's jobs, newest first, without their results; `next_cursor` fetches the next page."""
        try:
            jobs, following = page(redis(), owner(), args["limit"], args["cursor"])
        except BadCursor:
            raise DomainError("cursor is not one a job list gave", "cursor", code="invalid_request") from None
        return {"jobs": [job_json(job, with_result=False) for job in jobs], "next_cursor": following}


@blp.route("/jobs/<string:job_id>")
class Jobs(MethodView):
    """One job."""

    @blp.doc(operationId="get_job")
    @blp.arguments(ResultPageArgsSchema(), location="query")
    @blp.response(200, JobSchema())
    @blp.alt_response(404, description=JOB_NOT_FOUND)
    @blp.alt_response(503, **JOBS_UNAVAILABLE)
    def get(self, args: dict, job_id: str):
        """Status, progress, result or error of a job; a replay result page by page with `logs_limit`."""
        try:
            return job_json(load(job_id), logs_offset=args["logs_offset"], logs_limit=args["logs_limit"])
        except JobNotFound:
            return problem(404, "job_not_found", f"no job {job_id!r}")

    @blp.doc(operationId="cancel_job")
    @blp.response(200, JobSchema(), description="canceled: the job as it is now (`ended_at` set)")
    @blp.alt_response(202, schema=JobSchema(), description="running: the worker was told to stop; poll the job")
    @blp.alt_response(404, description=JOB_NOT_FOUND)
    @blp.alt_response(409, description="`job_not_cancelable`: the job already ended")
    @blp.alt_response(503, **JOBS_UNAVAILABLE)
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
            return job_json(job), 202
        job.cancel()
        job.ended_at = now()
        redis().hset(job.key, "ended_at", utcformat(job.ended_at))
        return job_json(job), 200
