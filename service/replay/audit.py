"""The audit: replay a log under its rules, list every violation, recompute the outcome, compare the result."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .log import GameLog, parse_log
from .violations import Violation


@dataclass(frozen=True)
class Audit:
    """What an audit finds."""

    valid: bool
    violations: tuple[Violation, ...]
    outcome: Mapping[str, Any]
    recorded_result_matches: bool | None
    events: int


def replay_for(log: GameLog, review: bool = False, **settings: Any) -> Any:
    """The turn state machine of the log's game family (`review`: the one that also gathers statistics and
    rates decisions; `settings` go to it)."""
    if review:
        from .stats import reviewer_for

        return reviewer_for(log, **settings)
    if log.ruleset.family == "chan":
        from .chan import ChanReplay

        return ChanReplay(log)
    from .fourcolor import FourColorReplay

    return FourColorReplay(log)


def audit(raw: Mapping[str, Any]) -> Audit:
    """Audit one log document (raises DomainError when the frame itself is malformed)."""
    return audit_replay(parse_log(raw))[0]


def audit_replay(log: GameLog, review: bool = False, **settings: Any) -> tuple[Audit, Any]:
    """Replay a parsed log; the audit and the replay itself (whose state a review reads)."""
    replay = replay_for(log, review, **settings)
    replay.run()
    violations = list(replay.violations)
    outcome = replay.outcome or {"type": "incomplete"}
    matches = None
    if log.result is not None:
        matches = all(outcome.get(k) == v for k, v in log.result.items() if k in ("winner", "points", "deltas", "type"))
        if not matches:
            shown = {k: outcome.get(k) for k in ("type", "winner", "points", "deltas")}
            violations.append(Violation(None, None, "result_mismatch",
                                        f"the recorded result {_json(log.result)} differs from the replay's "
                                        f"{_json(shown)}"))
    return Audit(not violations, tuple(violations), outcome, matches, len(log.events)), replay


def _json(value: Mapping[str, Any]) -> str:
    """A result as compact JSON, as the log writes it (not a Python repr)."""
    return json.dumps(dict(value), ensure_ascii=False, separators=(", ", ": "))
