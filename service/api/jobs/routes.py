"""The job resource: GET /v1/jobs (the caller's recent jobs), GET and DELETE /v1/jobs/{id}. Jobs are submitted
by their own resources (POST /v1/replays, POST /v1/searches) through `access.queue` (service/api/jobs/access.py)."""

from __future__ import annotations

from flask.views import MethodView

from ...http.errors import problem
from ...i18n import N_
from ...jobs.errors import JobNotFound
from ...jobs.lifecycle import job_ttl, request_cancel
from ...jobs.listing import BadCursor, page
from ...rules.errors import DomainError
from ...rules.text import Text
from ..blueprint import Blueprint
from .access import caller, job_json, load, redis
from .schemas import JOB_NOT_FOUND, JOBS_UNAVAILABLE, JobListArgsSchema, JobListSchema, JobSchema, ResultPageArgsSchema

#: Why a job cannot be canceled: it has ended (how), or its end is being recorded (which).
ENDED = {"finished": N_("job {id} already finished"), "failed": N_("job {id} already failed"),
         "stopped": N_("job {id} already canceled"), "canceled": N_("job {id} already canceled")}
ENDING = {"finish": N_("job {id} is ending: its result is being stored"),
          "failure": N_("job {id} is ending: its failure is being recorded")}

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
            jobs, following = page(redis(), caller().owner, args["limit"], args["cursor"])
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
        return job_json(load(job_id), logs_offset=args["logs_offset"], logs_limit=args["logs_limit"])

    @blp.doc(operationId="cancel_job")
    @blp.response(200, JobSchema(), description="canceled before it started: the job as it is now (`ended_at` "
                                                "set); it never runs")
    @blp.alt_response(202, schema=JobSchema(), description="running: it is being stopped (it stores no result and "
                                                           "sends no webhook); poll it: `canceled` once stopped")
    @blp.alt_response(404, description=JOB_NOT_FOUND)
    @blp.alt_response(409, description="`job_not_cancelable`: the job has ended (finished, failed or canceled), or "
                                       "its end is being recorded")
    @blp.alt_response(503, **JOBS_UNAVAILABLE)
    def delete(self, job_id: str):
        """Cancel a queued job (200) or stop a running one (202); either way the job as it is now."""
        job = load(job_id)
        outcome, detail = request_cancel(redis(), job, job_ttl(job))
        if outcome == "gone":
            raise JobNotFound(job_id)
        if outcome == "ended":
            return problem(409, "job_not_cancelable", Text(ENDED.get(detail, ENDED["finished"]), {"id": job_id}))
        if outcome == "ending":
            ending = ENDING["finish" if detail == "finish" else "failure"]
            return problem(409, "job_not_cancelable", Text(ending, {"id": job_id}))
        job.refresh()
        return job_json(job), 200 if outcome == "canceled" else 202
