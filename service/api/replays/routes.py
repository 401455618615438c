"""POST /v1/replays: queue the full analysis of one or many game logs as a job (202 + Location).

Replays are jobs: the route joins the `jobs` blueprint, so the API document keeps one `jobs` tag (and
generated clients one jobs module) for submitting, polling and cancelling.
"""

from __future__ import annotations

from flask.views import MethodView

from ...jobs.queues import ANALYSE_REPLAYS
from ...replay.log import parse_log
from ...replay.summary import initial_progress
from ...rules.errors import DomainError
from ..examples import CREATE_REPLAY
from ..jobs.access import check_callback, queue
from ..jobs.routes import blp
from ..jobs.schemas import SUBMISSION_UNAVAILABLE, JobSchema
from .schemas import ReplayRequestSchema

#: A deep review's worst case (decisions x time budget): one job never holds a worker for more than 5 minutes.
MAX_DEEP_SECONDS = 300


@blp.route("/replays")
class Replays(MethodView):
    """Full replay analysis of one or many logs."""

    @blp.doc(operationId="create_replay")
    @blp.arguments(ReplayRequestSchema(), example=CREATE_REPLAY)
    @blp.response(202, JobSchema(), headers={"Location": {"description": "the job", "schema": {"type": "string"}}})
    @blp.alt_response(429, description="`too_many_active_jobs`: too many jobs of this caller queued or running "
                      "(MAX_ACTIVE_JOBS); `rate_limited`: over "
                      "the rate limit, or too many failed authentications; retry after Retry-After seconds")
    @blp.alt_response(503, **SUBMISSION_UNAVAILABLE)
    def post(self, payload: dict):
        """Queue an analysis: audit and per-seat statistics of every log, one summary across games."""
        for i, log in enumerate(payload["logs"]):
            try:
                parse_log(log)  # a log that cannot be replayed is refused now, not inside the job
            except DomainError as error:
                raise DomainError(error.message, f"logs.{i}.{error.field}", code=error.code) from None
        if payload["callback_url"]:
            check_callback(payload["callback_url"])
        progress, review = initial_progress(payload["logs"]), payload["review"]
        decisions = progress["decisions_total"]
        if review["mode"] == "deep" and decisions * review["time_budget"] > MAX_DEEP_SECONDS:
            raise DomainError(f"a deep review of {decisions} discards at {review['time_budget']} s each exceeds "
                              f"{MAX_DEEP_SECONDS} s; lower the time budget or send fewer logs",
                              "review.time_budget", code="review_too_long")
        return queue(ANALYSE_REPLAYS, (payload["logs"], payload["players"], review), kind="replay",
                     progress=progress, callback_url=payload["callback_url"], payload=payload)
