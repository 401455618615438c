"""A batch of reviewed logs as the replay job answers it: each log's entry, each player's totals across games,
the version of the engine and of the pricing that reviewed them, and the progress a batch starts from."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..advice.value import model_for
from ..rules.registry import ENGINE_VERSION, get_ruleset
from ..rules.text import stored
from .audit import Audit
from .decisions import COSTLIEST, REVIEW_VERSION, common_unit
from .reviewers import count_discards

PARTS = ("discards", "claims", "overall")


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
        "violations": [{"event": v.event, "seat": v.seat, "code": v.code, **stored("message", v.message)}
                       for v in found.violations],
        "outcome": dict(found.outcome), "seats": seats,
    }


def player_totals(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each player's totals across the entries (in order): games, points and their running total, wins,
    violations; of reviewed discards the count, agreements, total and mean expected loss, its unit and the
    agreement rate; the same of his reviewed claim decisions (`claims`) and of both together (`overall`); his
    `costliest` decisions across games, discards and claims together. A unit is that of his games' losses
    (`mixed` when they differ, null when none of his games was reviewed)."""
    totals: dict[str, dict[str, Any]] = {}
    costly: dict[str, list[dict[str, Any]]] = {}
    units: dict[tuple[str, str], list[tuple[int, str]]] = {}  # (player, part) -> (decisions, unit) per game
    for entry in entries:
        for stats in entry["seats"]:
            name = stats["player"]
            player = totals.setdefault(name, {
                "games": 0, "points": 0, "wins": 0, "violations": 0, "trajectory": [], **_figures(),
                "claims": _figures(), "overall": _figures()})
            player["games"] += 1
            player["points"] += stats["delta"] or 0
            player["trajectory"].append(player["points"])  # running total after each of the player's games
            player["wins"] += int(stats["won"])
            player["violations"] += stats["violations"]
            review = stats["review"]
            if review:
                costly.setdefault(name, []).extend(
                    [{"game": entry["index"], "kind": "discard", **d} for d in review.get("costliest") or ()]
                    + [{"game": entry["index"], "kind": "claim", **d}
                       for d in (review.get("claims") or {}).get("costliest") or ()])
                found = {"discards": review, "claims": review.get("claims") or _figures(),
                         "overall": review.get("overall") or review}
                for part in PARTS:
                    _add(player if part == "discards" else player[part], found[part])
                    if found[part].get("loss_unit"):
                        units.setdefault((name, part), []).append((found[part]["decisions"],
                                                                   found[part]["loss_unit"]))
    for name, player in totals.items():
        player["costliest"] = sorted(costly.get(name, []),
                                     key=lambda d: (-d["expected_loss"], d["game"], d["event"]))[:COSTLIEST]
        for part in PARTS:
            figures = player if part == "discards" else player[part]
            decisions = figures["decisions"]
            figures["agreement_rate"] = round(figures["agreed"] / decisions, 4) if decisions else None
            figures["mean_loss"] = round(figures["expected_loss"] / decisions, 4) if decisions else 0.0
            games = units.get((name, part), [])
            figures["loss_unit"] = common_unit(u for n, u in games if n) or common_unit(u for _, u in games)
    return totals


def _figures() -> dict[str, Any]:
    """No rated decisions yet."""
    return {"decisions": 0, "agreed": 0, "expected_loss": 0.0}


def _add(into: dict[str, Any], found: dict[str, Any]) -> None:
    """Add one game's rated decisions (count, agreements, expected loss) to a running total."""
    into["decisions"] += found["decisions"]
    into["agreed"] += found["agreed"]
    into["expected_loss"] = round(into["expected_loss"] + found["expected_loss"], 4)


def engine_version(logs: Sequence[Mapping[str, Any]], mode: str) -> str:
    """The version a batch's review answers with: the engine's, the review's (`REVIEW_VERSION`) and, `+`-joined
    and sorted, the version of every value model that priced one of its logs (`advice.value.model_for`), so
    answers priced by different models never pass for one another."""
    models: set[str] = set()
    if mode != "none":
        for raw in logs:
            ruleset = get_ruleset(raw.get("ruleset"))
            model = model_for(ruleset, ruleset.resolve_options(raw.get("options")), raw["seats"])
            if model is not None:
                models.add(model.version)
    return "+".join([ENGINE_VERSION, REVIEW_VERSION, *sorted(models)])


def batch_result(entries: list[dict[str, Any]], mode: str, version: str) -> dict[str, Any]:
    """The job's answer: every log's entry, the review mode, the engine version that reviewed them
    (`engine_version`), and one summary across games."""
    return {"logs": entries, "review": mode, "engine_version": version,
            "summary": {"games": len(entries), "valid": sum(e["valid"] for e in entries),
                        "outcomes": dict(Counter(e["outcome"]["type"] for e in entries)),
                        "players": player_totals(entries)}}
