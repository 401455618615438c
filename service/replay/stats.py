"""Per-seat statistics of a replayed round: claims made and passed up, illegal moves, points.

The reviewers are the replays with the `offered` hook filled in: each time a card was offered, every seat
that made no claim is asked what it could have claimed (engine's legal claims for its role then).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .audit import Audit, audit_replay
from .chan import ChanReplay
from .fourcolor import FourColorReplay
from .log import GameLog, parse_log


class _Passes:
    """Counters a reviewer keeps per seat."""

    def init_passes(self, seats: int) -> None:
        self.passed_wins = [0] * seats
        self.passed_claims = [0] * seats

    def count_pass(self, seat: int, kinds: set[str]) -> None:
        if "hu" in kinds or "win" in kinds:
            self.passed_wins[seat] += 1
        elif kinds:
            self.passed_claims[seat] += 1


class FourColorReviewer(_Passes, FourColorReplay):
    """Four Color Cards replay that also counts hu and claims passed up."""

    def __init__(self, log: GameLog) -> None:
        super().__init__(log)
        self.init_passes(self.seats)

    def offered(self, public: Any, claims: list) -> None:
        claimed = {c.seat for c in claims}
        for seat in range(self.seats):
            if seat in claimed:
                continue
            legal, _ = self.ruleset.legal_claims(self.hand_of(seat, public.card), self.role(seat, public),
                                                 self.options)
            self.count_pass(seat, {c.kind for c in legal})


class ChanReviewer(_Passes, ChanReplay):
    """Chắn replay that also counts wins and captures passed up."""

    def __init__(self, log: GameLog) -> None:
        super().__init__(log)
        self.init_passes(self.seats)
        self.ruleset = log.ruleset

    def offered(self, public: Any, claims: list) -> None:
        from ..rules.chan.hand import ChanHand

        claimed = {c.seat for c in claims}
        for seat in range(self.seats):
            if seat in claimed or self.history[seat].dead_hand:
                continue
            hand = ChanHand(tuple(self.counts[seat]), tuple(self.exposed[seat]), public.card)
            legal = self.ruleset.legal_claims(hand, self.role(seat, public), self.options,
                                              "stock" if public.source == "stock" else "discard", self.history[seat])
            self.count_pass(seat, {c.kind for c in legal})


def reviewer_for(log: GameLog) -> Any:
    """The reviewing replay of the log's family."""
    return ChanReviewer(log) if log.ruleset.family == "chan" else FourColorReviewer(log)


def review(raw: dict[str, Any]) -> tuple[Audit, list[dict[str, Any]]]:
    """Audit a log and gather per-seat statistics in the same replay."""
    log = parse_log(raw)
    found, replay = audit_replay(log, review=True)
    claims: list[Counter] = [Counter() for _ in range(log.seats)]
    for event in log.events:
        if event.type in ("claim", "capture", "chiu", "hu", "win"):
            claims[event.seat][event.meld or event.type] += 1
    illegal = Counter(v.seat for v in found.violations if v.seat is not None)
    deltas = found.outcome.get("deltas") or [0] * log.seats
    winner = found.outcome.get("winner")
    return found, [
        {"seat": seat, "claims": dict(claims[seat]), "claims_made": sum(claims[seat].values()),
         "wins_passed_up": replay.passed_wins[seat], "claims_passed_up": replay.passed_claims[seat],
         "violations": illegal[seat], "delta": deltas[seat], "won": winner == seat}
        for seat in range(log.seats)
    ]
