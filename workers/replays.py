"""The full replay analysis job: audit every log of a batch, per-seat statistics and decision review, one
summary across games."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from rq import get_current_job

from service.replay.reviewers import count_discards, review
from service.search.review import settings_with_rater

from .queues import QUEUE_REPLAYS, job

PROGRESS_EVERY = 200  # events between two progress saves
DEEP_PROGRESS_EVERY = 1  # deep reviews are slow: every decision is worth a progress save


class Progress:
    """Events, logs and decisions done, saved to job.meta now and then."""

    def __init__(self, logs: list[dict[str, Any]], deep: bool) -> None:
        self.job = get_current_job()
        self.state = {"events_done": 0, "events_total": sum(len(log.get("events") or ()) for log in logs),
                      "logs_done": 0, "logs_total": len(logs), "decisions_done": 0,
                      "decisions_total": sum(count_discards(log) for log in logs)}
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
            self.job.meta["progress"] = dict(self.state)
            self.job.save_meta()
            self.saved_events = self.state["events_done"]


@job(QUEUE_REPLAYS, timeout=3600)
def analyse_replays(logs: list[dict[str, Any]], players: list[list[str]] | None = None,
                    review_settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """Audit and review each log and gather per-seat statistics; progress goes to job.meta."""
    settings = settings_with_rater(**(review_settings or {}))
    progress = Progress(logs, settings.mode == "deep")
    results = []
    totals = defaultdict(lambda: {"games": 0, "points": 0, "wins": 0, "violations": 0, "trajectory": [],
                                  "decisions": 0, "agreed": 0, "expected_loss": 0.0})
    for i, log in enumerate(logs):
        found, seats = review(log, settings, progress.decision)
        names = (players[i] if players and i < len(players) else None) or [f"seat {s}" for s in range(log["seats"])]
        for seat, stats in enumerate(seats):
            player = totals[names[seat]]
            player["games"] += 1
            player["points"] += stats["delta"] or 0
            player["trajectory"].append(player["points"])  # running total after each of the player's games
            player["wins"] += int(stats["won"])
            player["violations"] += stats["violations"]
            if stats["review"]:
                player["decisions"] += stats["review"]["decisions"]
                player["agreed"] += stats["review"]["agreed"]
                player["expected_loss"] = round(player["expected_loss"] + stats["review"]["expected_loss"], 4)
            stats["player"] = names[seat]
        results.append({
            "index": i, "valid": found.valid, "recorded_result_matches": found.recorded_result_matches,
            "violations": [{"event": v.event, "seat": v.seat, "code": v.code, "message": v.message}
                           for v in found.violations],
            "outcome": dict(found.outcome), "seats": seats,
        })
        progress.log_done(len(log.get("events") or ()), i == len(logs) - 1)
    for player in totals.values():
        player["agreement_rate"] = round(player["agreed"] / player["decisions"], 4) if player["decisions"] else None
    outcomes = Counter(r["outcome"]["type"] for r in results)
    return {"logs": results, "review": settings.mode,
            "summary": {"games": len(logs), "valid": sum(r["valid"] for r in results),
                        "outcomes": dict(outcomes), "players": dict(totals)}}
