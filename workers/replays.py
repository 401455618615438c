"""The full replay analysis job: audit every log of a batch, per-seat statistics and decision review, one
summary across games."""

from __future__ import annotations

from typing import Any

from rq import get_current_job

from service.jobs.lifecycle import JobStopped, stop_requested
from service.replay.reviewers import review
from service.replay.summary import batch_result, engine_version, initial_progress, log_entry, seat_names
from service.search.review import settings_with_rater

PROGRESS_EVERY = 200  # events between two progress saves
DEEP_PROGRESS_EVERY = 1  # deep reviews are slow: every decision is worth a progress save


class Progress:
    """Events, logs and decisions done, saved to job.meta now and then; at each save the job stops (JobStopped)
    if a cancel asked it to."""

    def __init__(self, logs: list[dict[str, Any]], deep: bool) -> None:
        self.job = get_current_job()
        self.state = initial_progress(logs)
        self.deep, self.saved_events = deep, 0

    def decision(self) -> None:
        self.state["decisions_done"] += 1
        if self.deep:
            self.save()

    def log_done(self, events: int, last: bool) -> None:
        self.state["events_done"] += events
        self.state["logs_done"] += 1
        if self.state["events_done"] - self.saved_events >= PROGRESS_EVERY or last:
            self.save()

    def save(self) -> None:
        if self.job is not None:
            if stop_requested(self.job.connection, self.job.id):
                raise JobStopped("stopped on request")
            self.job.meta["progress"] = dict(self.state)
            self.job.save_meta()
            self.saved_events = self.state["events_done"]


def analyse_replays(logs: list[dict[str, Any]], players: list[list[str]] | None = None,
                    review_settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """Audit and review each log and gather per-seat statistics; progress goes to job.meta (the job
    `service.jobs.queues.ANALYSE_REPLAYS`, with its spec there)."""
    settings = settings_with_rater(**(review_settings or {}))
    progress = Progress(logs, settings.mode == "deep")
    entries = []
    for i, log in enumerate(logs):
        found, seats = review(log, settings, progress.decision)
        entries.append(log_entry(i, found, seats, seat_names(players, i, log["seats"])))
        progress.log_done(len(log.get("events") or ()), i == len(logs) - 1)
    return batch_result(entries, settings.mode, engine_version(logs, settings.mode))
