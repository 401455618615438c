"""The audit: replay a log under its rules, list every violation, recompute the outcome, compare the result."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..rules.text import text
from .families import replay_family
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


def replay_for(log: GameLog) -> Any:
    """The turn state machine of the log's game family."""
    return replay_family(log.ruleset).replay(log)


def audit(raw: Mapping[str, Any]) -> Audit:
    """Audit one log document (raises DomainError when the frame itself is malformed)."""
    log = parse_log(raw)
    return audit_replay(log, replay_for(log))


def audit_replay(log: GameLog, replay: Any) -> Audit:
    """Run `replay` (a fresh turn state machine of the log, or a reviewer, whose state a review then reads) over
    the parsed log and audit it."""
    replay.run()
    violations = list(replay.violations)
    outcome = replay.outcome or {"type": "incomplete"}
    matches = None
    if log.result is not None:
        matches = all(outcome.get(k) == v for k, v in log.result.items() if k in ("winner", "points", "deltas", "type"))
        if not matches:
            shown = {k: outcome.get(k) for k in ("type", "winner", "points", "deltas")}
            violations.append(Violation(None, None, "result_mismatch",
                                        text("the recorded result {recorded} differs from the replay's {replayed}",
                                             recorded=_json(log.result), replayed=_json(shown))))
    return Audit(not violations, tuple(violations), outcome, matches, len(log.events))


def _json(value: Mapping[str, Any]) -> str:
    """A result as compact JSON, as the log writes it (not a Python repr)."""
    return json.dumps(dict(value), ensure_ascii=False, separators=(", ", ": "))
