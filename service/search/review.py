"""The deep review of a discard: the seat's position searched over the best exact candidates and the actual
discard (the rater a deep replay review is given: `ReviewSettings.rater`).

The position is built from the replay's engine values (`position_of`), never round-tripped through card codes.
The expected loss is the search's objective (expected settlement in points; win probability where nobody pays)
of its best candidate minus the actual discard's.
"""

from __future__ import annotations

from typing import Any

from ..replay.decisions import ReviewSettings, SeatView
from ..rules.analysis import DiscardAnalysis
from .montecarlo import search
from .position import position_of

DEEP_CANDIDATES = 3  # besides the actual discard, the best of the exact ranking


def deep_rating(view: SeatView, card: int, analysis: DiscardAnalysis, settings: ReviewSettings) -> dict[str, Any]:
    """Search the seat's position over the best exact candidates and the actual discard `card`."""
    candidates = [o.card for o in analysis.options[:DEEP_CANDIDATES]]
    if card not in candidates:
        candidates.append(card)
    position = position_of(view.ruleset, view.options, view.hand, view.exposed, view.visible, view.seats, view.seat,
                           view.opponents, view.stock_remaining, view.history)
    found = search(position, candidates, samples=settings.samples, time_budget=settings.time_budget,
                   seed=settings.seed).to_json()
    key = "win_probability" if found["objective"] == "win_probability" else "expected_settlement"
    value = {row["card"]: row[key]["mean"] for row in found["candidates"]}
    top = found["best"]  # the search's leader (a candidate it dropped early may show a noisier mean)
    return {"objective": found["objective"], "best": top, "values": value,
            "expected_loss": round(max(0.0, value[top] - value[position.code(card)]), 4),
            "deals": found["deals"], "stopped": found["stopped"]}


def settings_with_rater(**given: Any) -> ReviewSettings:
    """Review settings from a request's fields, with the deep rater in place."""
    return ReviewSettings(**given, rater=deep_rating)
