"""The reviewers, and the per-seat statistics of a replayed round they give: claims made and passed up, illegal
moves, points, and the review of every discard (`decisions.py`).

The reviewers are the replays with the hooks filled in: each time a card was offered, every seat that made no
claim is asked what it could have claimed (engine's legal claims for its role then), and every seat's answer
(its claim, its win, or its pass) is rated when it had a legal claim or win; each discard is rated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..rules.analysis import ClaimAnalysis, DiscardAnalysis
from ..rules.chan import cards as chan_cards
from ..rules.chan.captures import History
from ..rules.chan.hand import ChanHand
from ..rules.chan.rulesets import chan_ruleset
from ..rules.fourcolor import cards as fc_cards
from .audit import Audit, audit_replay
from .chan import ChanReplay
from .decisions import DecisionReview, ReviewSettings, seat_summary
from .fourcolor import FourColorReplay
from .log import GameLog, parse_log


class FourColorReviewer(DecisionReview, FourColorReplay):
    """Four Color Cards replay that also counts hu and claims passed up and rates every discard."""

    show = staticmethod(fc_cards.code)

    def __init__(self, log: GameLog, settings: ReviewSettings | None = None, progress: Callable | None = None) -> None:
        super().__init__(log)
        self.init_decisions(settings, progress)

    def offered(self, public: Any, claims: list) -> None:
        made = answers(claims)
        for seat in range(self.seats):
            role = self.role(seat, public)
            self.rate_claim(seat, public.card, role, "stock" if public.source == "draw" else "discard",
                            made.get(seat))
            if seat in made:
                continue
            legal, _ = self.ruleset.legal_claims(self.hand_of(seat, public.card), role, self.options)
            self.record_pass(seat, {c.kind for c in legal})

    def analyse_claim(self, seat: int, card: int, role: str, source: str, visible: list[int]) -> ClaimAnalysis:
        return self.ruleset.analyse_claims(self.hand_of(seat, card), self.options, role,
                                           [fc_cards.code(c) for c in visible], self.seats, source)

    def concealed(self, seat: int) -> list[int]:
        return self.hands[seat].cards()

    def analyse(self, seat: int) -> DiscardAnalysis:
        visible = [fc_cards.code(c) for c in self.visible_to(seat)]
        return self.ruleset.analyse_discards(self.hand_of(seat, None), self.options, visible, self.seats)


class ChanReviewer(DecisionReview, ChanReplay):
    """Chắn replay that also counts wins and captures passed up and rates every discard."""

    show = staticmethod(chan_cards.code)

    def __init__(self, log: GameLog, settings: ReviewSettings | None = None, progress: Callable | None = None) -> None:
        super().__init__(log)
        self.init_decisions(settings, progress)
        self.ruleset = chan_ruleset(log.ruleset)

    def offered(self, public: Any, claims: list) -> None:
        made = answers(claims)
        source = "stock" if public.source == "stock" else "discard"
        for seat in range(self.seats):
            if self.history[seat].dead_hand:
                continue
            role = self.role(seat, public)
            self.rate_claim(seat, public.card, role, source, made.get(seat))
            if seat in made:
                continue
            legal = self.ruleset.legal_claims(self.chan_hand(seat, public.card), role, self.options, source,
                                              self.history[seat])
            self.record_pass(seat, {c.kind for c in legal})

    def analyse_claim(self, seat: int, card: int, role: str, source: str, visible: list[int]) -> ClaimAnalysis:
        return self.ruleset.analyse_claims(self.chan_hand(seat, card), self.options, role,
                                           [chan_cards.code(c) for c in visible], self.seats, source,
                                           self.history[seat])

    def chan_hand(self, seat: int, card: int | None) -> ChanHand:
        return ChanHand(tuple(self.counts[seat]), tuple(self.exposed[seat]), card)

    def concealed(self, seat: int) -> list[int]:
        return [face for face, n in enumerate(self.counts[seat]) for _ in range(n)]

    def history_of(self, seat: int) -> History:
        return self.history[seat]

    def analyse(self, seat: int) -> DiscardAnalysis:
        visible = [chan_cards.code(c) for c in self.visible_to(seat)]
        return self.ruleset.analyse_discards(self.chan_hand(seat, None), self.options, visible, self.seats,
                                             self.history[seat])


def answers(claims: list) -> dict[int, Any]:
    """Each claiming seat's first claim or win on the card."""
    made: dict[int, Any] = {}
    for event in claims:
        made.setdefault(event.seat, event)
    return made


#: The reviewing replay of each game family.
REVIEWERS: dict[str, type[FourColorReviewer] | type[ChanReviewer]] = {"fourcolor": FourColorReviewer,
                                                                      "chan": ChanReviewer}


def reviewer_for(log: GameLog, settings: ReviewSettings | None = None, progress: Callable | None = None) -> Any:
    """The reviewing replay of the log's family."""
    return REVIEWERS[log.ruleset.family](log, settings, progress)


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
         "review": seat_summary(replay.decisions, replay.passes, seat, replay.claim_decisions) if reviewed else None,
         "decisions": [d for d in replay.decisions if d["seat"] == seat] if reviewed else None,
         "claim_decisions": [d for d in replay.claim_decisions if d["seat"] == seat] if reviewed else None}
        for seat in range(log.seats)
    ]


def count_discards(raw: dict[str, Any]) -> int:
    """Discard events of a log: the decisions a review rates (progress total)."""
    return sum(1 for e in raw.get("events") or () if isinstance(e, dict) and e.get("type") == "discard")
