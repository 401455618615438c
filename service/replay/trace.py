"""The table after every event of a log, as a referee sees it: each seat's cards and melds, the card on offer, the
stock left. What a replay viewer steps through; the audit's own state machine keeps it, so it cannot disagree."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .audit import Audit, audit_replay, replay_for
from .log import parse_log


def audit_with_tables(raw: Mapping[str, Any]) -> tuple[Audit, list[dict[str, Any]]]:
    """Audit one log and record the table after each event it replayed (a replay that stops records no more)."""
    log = parse_log(raw)
    replay = replay_for(log)
    deck = len(log.ruleset.deck())
    stock = len(log.stock) if log.stock is not None else deck - sum(len(hand) for hand in log.hands)
    tables: list[dict[str, Any]] = []
    step = replay.step

    def step_and_record(event: Any) -> None:
        try:
            step(event)
        finally:  # the event that stops a replay is shown with the state it left
            tables.append({"event": event.index, **replay.table(), "stock": max(stock - replay.drawn, 0)})

    replay.step = step_and_record
    return audit_replay(log, replay), tables
