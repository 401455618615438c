"""The full replay analysis job: audit every log of a batch, per-seat statistics, one summary across games."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from rq import get_current_job

from service.replay.stats import review

from .queues import QUEUE_REPLAYS, job

PROGRESS_EVERY = 200  # events between two progress saves


@job(QUEUE_REPLAYS, timeout=900)
def analyse_replays(logs: list[dict[str, Any]], players: list[list[str]] | None = None) -> dict[str, Any]:
    """Audit each log and gather per-seat statistics; progress (events done / total) goes to job.meta."""
    current = get_current_job()
    total = sum(len(log.get("events") or ()) for log in logs)
    done, last = 0, 0
    results = []
    totals = defaultdict(lambda: {"games": 0, "points": 0, "wins": 0, "violations": 0, "trajectory": []})
    for i, log in enumerate(logs):
        found, seats = review(log)
        names = (players[i] if players and i < len(players) else None) or [f"seat {s}" for s in range(log["seats"])]
        for seat, stats in enumerate(seats):
            player = totals[names[seat]]
            player["games"] += 1
            player["points"] += stats["delta"] or 0
            player["trajectory"].append(player["points"])  # running total after each of the player's games
            player["wins"] += int(stats["won"])
            player["violations"] += stats["violations"]
            stats["player"] = names[seat]
        results.append({
            "index": i, "valid": found.valid, "recorded_result_matches": found.recorded_result_matches,
            "violations": [{"event": v.event, "seat": v.seat, "code": v.code, "message": v.message}
                           for v in found.violations],
            "outcome": dict(found.outcome), "seats": seats,
        })
        done += len(log.get("events") or ())
        if current is not None and (done - last >= PROGRESS_EVERY or i == len(logs) - 1):
            current.meta["progress"] = {"events_done": done, "events_total": total, "logs_done": i + 1,
                                        "logs_total": len(logs)}
            current.save_meta()
            last = done
    outcomes = Counter(r["outcome"]["type"] for r in results)
    return {"logs": results, "summary": {"games": len(logs), "valid": sum(r["valid"] for r in results),
                                         "outcomes": dict(outcomes), "players": dict(totals)}}
