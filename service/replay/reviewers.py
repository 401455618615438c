"""The per-seat statistics of a replayed round the reviewers (`reviewing.py`) give: claims made and passed up,
illegal moves, points, and the review of every discard (`decisions.py`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from .audit import Audit, audit_replay
from .decisions import ReviewSettings, seat_summary
from .families import replay_family
from .log import GameLog, parse_log
from .reviewing import Reviewer


def reviewer_for(log: GameLog, settings: ReviewSettings | None = None, progress: Callable | None = None
                 ) -> Reviewer:
    """The reviewing replay of the log's family."""
    return replay_family(log.ruleset).reviewer(log, settings, progress)


def review(raw: dict[str, Any], settings: ReviewSettings | None = None, progress: Callable | None = None
           ) -> tuple[Audit, list[dict[str, Any]]]:
    """Audit a log, gather per-seat statistics and (unless settings.mode is none) review every decision."""
    log = parse_log(raw)
    replay = reviewer_for(log, settings, progress)
    found = audit_replay(log, replay)
    claims: list[Counter] = [Counter() for _ in range(log.seats)]
    for event in log.events:
        if event.type in ("claim", "capture", "chiu", "hu", "win"):
            claims[event.seat][event.meld or event.type] += 1
    illegal = Counter(v.seat for v in found.violations if v.seat is not None)
    deltas = found.outcome.get("deltas") or [0] * log.seats
    winner = found.outcome.get("winner")
    reviewed = replay.settings.mode != "none"
    passed = Counter((p["seat"], p["passed"]) for p in replay.passes)
    return found, [
        {"seat": seat, "claims": dict(claims[seat]), "claims_made": sum(claims[seat].values()),
         "wins_passed_up": passed[seat, "win"], "claims_passed_up": passed[seat, "claim"],
         "violations": illegal[seat], "delta": deltas[seat], "won": winner == seat,
         "review": seat_summary(replay.decisions, replay.passes, seat, replay.claim_decisions, replay.loss_units())
         if reviewed else None,
         "decisions": [d for d in replay.decisions if d["seat"] == seat] if reviewed else None,
         "claim_decisions": [d for d in replay.claim_decisions if d["seat"] == seat] if reviewed else None}
        for seat in range(log.seats)
    ]


def count_discards(raw: dict[str, Any]) -> int:
    """Discard events of a log: the decisions a review rates (progress total)."""
    return sum(1 for e in raw.get("events") or () if isinstance(e, dict) and e.get("type") == "discard")
