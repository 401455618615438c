"""POST /v1/searches: queue a deep suggested-discard search (Monte Carlo playouts) as a job."""

from __future__ import annotations

from flask.views import MethodView

from ...jobs.queues import DEEP_SEARCH
from ...search.montecarlo import parse_candidates
from ...search.position import parse_position
from ..blueprint import Blueprint
from ..common import resolve
from ..examples import CREATE_SEARCH
from ..jobs.access import check_callback, queue
from ..jobs.schemas import SUBMISSION_UNAVAILABLE, JobSchema
from .schemas import SearchRequestSchema

blp = Blueprint("searches", __name__, url_prefix="/v1", description="Deep discard search (jobs)")


@blp.route("/searches")
class Searches(MethodView):
    """Monte Carlo search of the best discard."""

    @blp.doc(operationId="create_search")
    @blp.arguments(SearchRequestSchema(), example=CREATE_SEARCH)
    @blp.response(202, JobSchema(), headers={"Location": {"description": "the job", "schema": {"type": "string"}}})
    @blp.alt_response(429, description="`too_many_active_jobs`: too many jobs of this caller queued or running "
                      "(MAX_ACTIVE_JOBS); `rate_limited`: over "
                      "the rate limit, or too many failed authentications; retry after Retry-After seconds")
    @blp.alt_response(503, **SUBMISSION_UNAVAILABLE)
    def post(self, payload: dict):
        """Queue a search: per candidate discard, win probability, expected settlement and chance of paying,
        each with a confidence interval, from playouts of the rest of the round over the unseen cards."""
        ruleset, options = resolve(payload)
        # every input error is a 422 now, not a failed job
        parse_candidates(parse_position(ruleset, options, payload), payload["candidates"])
        if payload["callback_url"]:
            check_callback(payload["callback_url"])
        return queue(DEEP_SEARCH, (payload,), kind="search",
                     progress={"deals_done": 0, "deals_total": payload["samples"]},
                     callback_url=payload["callback_url"], payload={"search": payload})
