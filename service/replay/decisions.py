"""Decision review: every discard of every seat rated against the exact analysis (and, in deep mode, against a
Monte Carlo search of the same position), plus the wins and claims each seat passed up.

A reviewer keeps what each seat has seen: every public card that was not claimed (a claimed card is inside its
meld) and the other seats' exposed melds. At a discard the seat's cards are as the log has them, so the
analysis sees exactly the position the player saw.

Expected loss, exact mode: the expected gain of the best-ranked discard minus that of the actual one (never
negative): what the choice cost on the next card turned up from the stock. Deep mode: the search's objective
(expected settlement in points; win probability where nobody pays) of its best candidate minus the actual
discard's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..rules.analysis import DiscardAnalysis
from ..rules.chan.captures import history_json
from ..rules.chan.cards import code as chan_code
from ..rules.errors import DomainError
from ..rules.fourcolor.cards import code as fc_code
from .log import Event

MODES = ("none", "exact", "deep")
COSTLIEST = 5
DEEP_CANDIDATES = 3  # besides the actual discard, the best of the exact ranking


@dataclass(frozen=True)
class ReviewSettings:
    """How deep to review: `mode` none / exact / deep; the deep search's limits per decision."""

    mode: str = "exact"
    samples: int = 300
    time_budget: float = 2.0
    seed: int = 0


class DecisionReview:
    """Mixin for the reviewing replays: `init_decisions` once, then the hooks fill `decisions` and `passes`."""

    def init_decisions(self, settings: ReviewSettings | None, progress: Callable[[], None] | None = None) -> None:
        self.settings = settings or ReviewSettings("none")
        self.shown: list[int] = []
        self.decisions: list[dict[str, Any]] = []
        self.passes: list[dict[str, Any]] = []
        self.offered_by: int | None = None  # the event that put the public card on offer
        self.progress = progress

    # -- what each seat has seen ---------------------------------------------------------------------------
    def shown_now(self, event: Event) -> None:
        """The public card just offered (by `event`) is seen by everyone."""
        if self.public is not None:  # type: ignore[attr-defined]
            self.shown.append(self.public.card)  # type: ignore[attr-defined]
            self.offered_by = event.index

    def discard(self, event: Event) -> None:
        super().discard(event)  # type: ignore[misc]
        self.shown_now(event)

    def draw(self, event: Event) -> None:
        super().draw(event)  # type: ignore[misc]
        self.shown_now(event)

    def resolve(self, *args: Any) -> None:
        before = self.public  # type: ignore[attr-defined]
        super().resolve(*args)  # type: ignore[misc]
        if before is not None and self.public is None and self.outcome is None:  # type: ignore[attr-defined]
            self.shown.remove(before.card)  # claimed: it now lies in the claimant's exposed meld

    def visible_to(self, seat: int) -> list[int]:
        """Unclaimed public cards and the other seats' exposed cards."""
        cards = list(self.shown)
        for other, melds in enumerate(self.exposed):  # type: ignore[attr-defined]
            if other != seat:
                cards += [c for meld in melds for c in meld.cards]
        return cards

    def record_pass(self, seat: int, kinds: set[str]) -> None:
        """A seat that made no claim on the card `offered_by` put on offer, though it had these legal claims."""
        if kinds:
            won = "hu" in kinds or "win" in kinds
            self.passes.append({"event": self.offered_by, "seat": seat,
                                "passed": "win" if won else "claim", "claims": sorted(kinds)})

    # -- the discard ---------------------------------------------------------------------------------------
    def discarding(self, event: Event, card: int) -> None:
        if self.settings.mode == "none":
            return
        try:
            analysis = self.analyse(event.seat)
        except DomainError:
            return  # a position the log made impossible: the audit reports it
        actual = next((o for o in analysis.options if o.card == card), None)
        if actual is None or not analysis.options:
            return
        best = analysis.options[0]
        show = self.show  # type: ignore[attr-defined]
        entry = {
            "event": event.index, "seat": event.seat, "card": show(card), "rank": actual.rank,
            "best": [show(o.card) for o in analysis.options if o.rank == 1], "agreed": actual.rank == 1,
            "options": len(analysis.options), "distance": actual.distance, "best_distance": best.distance,
            "expected_loss": round(max(0.0, best.expected_gain - actual.expected_gain), 4),
            "reason": best.reason, "deep": None,
            "ranking": [{"card": show(o.card), "rank": o.rank, "distance": o.distance,
                         "expected_gain": round(o.expected_gain, 4)} for o in analysis.options],
        }
        if self.settings.mode == "deep":
            try:
                entry["deep"] = self.deep_rating(event.seat, card, analysis)
                entry["expected_loss"] = entry["deep"]["expected_loss"]
            except DomainError:
                pass  # a position an illegal log made impossible to deal: the exact rating stands
        self.decisions.append(entry)
        if self.progress is not None:
            self.progress()

    def deep_rating(self, seat: int, card: int, analysis: DiscardAnalysis) -> dict[str, Any]:
        """Search the seat's position over the best exact candidates and the actual discard."""
        from ..search.montecarlo import search
        from ..search.position import parse_position

        show = self.show  # type: ignore[attr-defined]
        candidates = [o.card for o in analysis.options[:DEEP_CANDIDATES]]
        if card not in candidates:
            candidates.append(card)
        stock = self.log.stock  # type: ignore[attr-defined]
        left = None if stock is None else len(stock) - self.drawn  # type: ignore[attr-defined]
        request = position_request(self, seat, self.shown, left)
        position = parse_position(self.ruleset, dict(self.options), request)  # type: ignore[attr-defined]
        found = search(position, candidates, samples=self.settings.samples, time_budget=self.settings.time_budget,
                       seed=self.settings.seed).to_json()
        rows = found["candidates"]
        key = "win_probability" if found["objective"] == "win_probability" else "expected_settlement"
        value = {row["card"]: row[key]["mean"] for row in rows}
        top = found["best"]  # the search's leader (a candidate it dropped early may show a noisier mean)
        return {"objective": found["objective"], "best": top, "values": value,
                "expected_loss": round(max(0.0, value[top] - value[show(card)]), 4),
                "deals": found["deals"], "stopped": found["stopped"]}


def position_request(replay: Any, seat: int, visible: list[int], stock_remaining: int | None) -> dict[str, Any]:
    """A seat's position in a replay (either family's turn machine) as a search request, in codes: his cards,
    his melds, the other seats' melds, `visible` cards, and for Chắn his history."""
    chan = replay.log.ruleset.family == "chan"
    show = chan_code if chan else fc_code
    hand = [f for f, n in enumerate(replay.counts[seat]) for _ in range(n)] if chan else replay.hands[seat].cards()

    def melds(of: int) -> list[dict[str, Any]]:
        return [{"kind": m.kind, "cards": m.codes()} for m in replay.exposed[of]]

    return {
        "hand": [show(c) for c in hand], "exposed": melds(seat), "visible": [show(c) for c in visible],
        "seats": replay.seats, "seat": seat, "stock_remaining": stock_remaining,
        "opponents": [{"seat": s, "exposed": melds(s)} for s in range(replay.seats) if s != seat],
        "history": history_json(replay.history[seat]) if chan else None,
    }


def seat_summary(decisions: list[dict[str, Any]], passes: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    """Agreement rate, total expected loss and the costliest decisions of one seat."""
    mine = [d for d in decisions if d["seat"] == seat]
    agreed = sum(d["agreed"] for d in mine)
    costliest = sorted(mine, key=lambda d: (-d["expected_loss"], d["event"]))[:COSTLIEST]
    return {
        "decisions": len(mine), "agreed": agreed, "agreement_rate": round(agreed / len(mine), 4) if mine else None,
        "expected_loss": round(sum(d["expected_loss"] for d in mine), 4),
        "costliest": [{k: d[k] for k in ("event", "card", "best", "expected_loss")}
                      for d in costliest if d["expected_loss"] > 0],
        "passed_wins": [p["event"] for p in passes if p["seat"] == seat and p["passed"] == "win"],
        "passed_claims": [p["event"] for p in passes if p["seat"] == seat and p["passed"] == "claim"],
        "passes": [{k: p[k] for k in ("event", "passed", "claims")} for p in passes if p["seat"] == seat],
    }
