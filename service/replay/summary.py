"""A batch of reviewed logs as the replay job answers it: each log's entry, each player's totals across games,
and the progress a batch starts from."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .audit import Audit
from .reviewers import count_discards


def initial_progress(logs: list[dict[str, Any]]) -> dict[str, int]:
    """Nothing done yet of a batch: its events, logs and decisions (discards) to go through."""
    return {"events_done": 0, "events_total": sum(len(log.get("events") or ()) for log in logs),
            "logs_done": 0, "logs_total": len(logs), "decisions_done": 0,
            "decisions_total": sum(count_discards(log) for log in logs)}


def seat_names(players: list[list[str]] | None, index: int, seats: int) -> list[str]:
    """The player names of a log's seats: as given for that log, else `seat 0`, `seat 1`, ..."""
    return (players[index] if players and index < len(players) else None) or [f"seat {s}" for s in range(seats)]


def log_entry(index: int, found: Audit, seats: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    """One log's entry: its audit, and per seat its statistics named by player."""
    for seat, stats in enumerate(seats):
        stats["player"] = names[seat]
    return {
        "index": index, "valid": found.valid, "recorded_result_matches": found.recorded_result_matches,
        "violations": [{"event": v.event, "seat": v.seat, "code": v.code, "message": v.message}
                       for v in found.violations],
        "outcome": dict(found.outcome), "seats": seats,
    }


def player_totals(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each player's totals across the entries (in order): games, points and their running total, wins,
    violations; of reviewed discards the count, agreements, expected loss and agreement rate; the same of his
    reviewed claim decisions (`claims`) and of both together (`overall`)."""
    totals: dict[str, dict[str, Any]] = {}
    for entry in entries:
        for stats in entry["seats"]:
            player = totals.setdefault(stats["player"], {
                "games": 0, "points": 0, "wins": 0, "violations": 0, "trajectory": [], "decisions": 0,
                "agreed": 0, "expected_loss": 0.0, "claims": _figures(), "overall": _figures()})
            player["games"] += 1
            player["points"] += stats["delta"] or 0
            player["trajectory"].append(player["points"])  # running total after each of the player's games
            player["wins"] += int(stats["won"])
            player["violations"] += stats["violations"]
            review = stats["review"]
            if review:
                _add(player, review)
                _add(player["claims"], review.get("claims") or _figures())
                _add(player["overall"], review.get("overall") or review)
    for player in totals.values():
        for figures in (player, player["claims"], player["overall"]):
            decisions = figures["decisions"]
            figures["agreement_rate"] = round(figures["agreed"] / decisions, 4) if decisions else None
    return totals


def _figures() -> dict[str, Any]:
    """No rated decisions yet."""
    return {"decisions": 0, "agreed": 0, "expected_loss": 0.0}


def _add(into: dict[str, Any], found: dict[str, Any]) -> None:
    """Add one game's rated decisions (count, agreements, expected loss) to a running total."""
    into["decisions"] += found["decisions"]
    into["agreed"] += found["agreed"]
    into["expected_loss"] = round(into["expected_loss"] + found["expected_loss"], 4)


def batch_result(entries: list[dict[str, Any]], mode: str) -> dict[str, Any]:
    """The job's answer: every log's entry, the review mode, and one summary across games."""
    return {"logs": entries, "review": mode,
            "summary": {"games": len(entries), "valid": sum(e["valid"] for e in entries),
                        "outcomes": dict(Counter(e["outcome"]["type"] for e in entries)),
                        "players": player_totals(entries)}}
