"""The deep search job: Monte Carlo playouts of every candidate discard of one position."""

from __future__ import annotations

from typing import Any

from rq import get_current_job

from service.advice.value import engine_version
from service.jobs.lifecycle import JobStopped, stop_requested
from service.rules.registry import get_ruleset
from service.search.montecarlo import parse_candidates, search
from service.search.position import parse_position


def deep_search(request: dict[str, Any]) -> dict[str, Any]:
    """Search the request's position; progress (deals done / total) goes to job.meta as the search runs, and the
    search stops there (JobStopped) if a cancel asked it to (the job `service.jobs.queues.DEEP_SEARCH`)."""
    current = get_current_job()
    ruleset = get_ruleset(request["ruleset"])
    options = dict(ruleset.resolve_options(request.get("options")))
    position = parse_position(ruleset, options, request)
    candidates = parse_candidates(position, request.get("candidates"))

    def progress(done: int, total: int) -> None:
        if current is not None:
            if stop_requested(current.connection, current.id):
                raise JobStopped("stopped on request")
            current.meta["progress"] = {"deals_done": done, "deals_total": total}
            current.save_meta()

    result = search(position, candidates, samples=request["samples"], time_budget=request["time_budget"],
                    seed=request["seed"], progress=progress, dealing=request.get("dealing", "shaped"))
    return {"ruleset": ruleset.id, "options": options, "engine_version": engine_version(ruleset), **result.to_json()}
