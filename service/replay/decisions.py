"""Decision review: every discard of every seat rated against the exact analysis (and, in deep mode, against a
Monte Carlo search of the same position, run by the `rater` the settings carry), every answer to a public card on
which a seat had a legal claim or win rated against the claim analysis (exactly, in deep mode too), plus the wins
and claims each seat passed up.

A reviewer keeps what each seat has seen: every public card that was not claimed (a claimed card is inside its
meld) and the other seats' exposed melds. At a discard the seat's cards are as the log has them, so the
analysis sees exactly the position the player saw.

Expected loss, exact mode: the expected gain of the best-ranked discard minus that of the actual one (never
negative): what the choice cost on the next card turned up from the stock. Deep mode: the search's objective
(expected settlement in points; win probability where nobody pays) of its best candidate minus the actual
discard's. A claim decision, in every mode: the expected gain of the advised option minus that of the seat's
answer (never negative), a win counting its gain (it is certain).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..rules.analysis import WIN_KINDS, ClaimAnalysis, ClaimOption, DiscardAnalysis
from ..rules.errors import DomainError
from ..rules.protocol import RuleSet
from .log import Event

MODES = ("none", "exact", "deep")
COSTLIEST = 5


@dataclass(frozen=True)
class SeatView:
    """What a seat knows when it must discard, in engine values: the position a deep rater searches from."""

    ruleset: RuleSet
    options: Mapping[str, Any]
    hand: tuple[int, ...]  # concealed cards, sorted
    exposed: tuple[Any, ...]  # his exposed melds
    visible: tuple[int, ...]  # public cards seen outside every exposed meld
    seats: int
    seat: int
    opponents: tuple[tuple[Any, ...], ...]  # exposed melds of every seat by seat index (his own seat: ())
    stock_remaining: int | None
    history: Any  # Chắn: his earlier moves; None for Four Color


#: A deep rater: (the seat's view, the card he discarded, the exact analysis, the settings) -> the deep rating.
Rater = Callable[[SeatView, int, DiscardAnalysis, "ReviewSettings"], dict[str, Any]]


@dataclass(frozen=True)
class ReviewSettings:
    """How deep to review: `mode` none / exact / deep; the deep search's limits per decision, and the `rater`
    that performs it (given by whoever asks for a deep review, so the replay never reaches the search)."""

    mode: str = "exact"
    samples: int = 300
    time_budget: float = 2.0
    seed: int = 0
    rater: Rater | None = field(default=None, compare=False, repr=False)


class DecisionReview:
    """Mixin for the reviewing replays: `init_decisions` once, then the hooks fill `decisions` and `passes`."""

    def init_decisions(self, settings: ReviewSettings | None, progress: Callable[[], None] | None = None) -> None:
        self.settings = settings or ReviewSettings("none")
        if self.settings.mode == "deep" and self.settings.rater is None:
            raise ValueError("a deep review needs a rater (ReviewSettings.rater)")
        self.shown: list[int] = []
        self.decisions: list[dict[str, Any]] = []
        self.passes: list[dict[str, Any]] = []
        self.claim_decisions: list[dict[str, Any]] = []
        self.claims_rated: set[tuple[int | None, int]] = set()
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

    # -- the answer to a public card ------------------------------------------------------------------------
    def rate_claim(self, seat: int, card: int, role: str, source: str, made: Event | None) -> None:
        """Rate a seat's answer to the card on offer (`made`: its claim or win, None: it passed) against the claim
        analysis of the position it saw, when it had a legal claim or win; once per offer and seat."""
        key = (self.offered_by, seat)
        if self.settings.mode == "none" or key in self.claims_rated:
            return
        self.claims_rated.add(key)
        visible = self.visible_to(seat)
        if card in visible:
            visible.remove(card)  # the card on offer is the public card itself
        try:
            analysis = self.analyse_claim(seat, card, role, source, visible)
        except DomainError:
            return  # a position the log made impossible: the audit reports it
        actual = answer_of(analysis, made)
        if actual is None or all(o.kind == "pass" for o in analysis.options):
            return  # nothing to decide, or a claim the rules do not allow (the audit reports it)
        show = self.show  # type: ignore[attr-defined]
        best = analysis.options[0]
        self.claim_decisions.append({
            "event": self.offered_by, "seat": seat, "card": show(card), "role": role, "answer": actual.kind,
            "cards": [show(c) for c in actual.cards], "rank": actual.rank, "best": best.kind,
            "best_cards": [show(c) for c in best.cards], "agreed": actual.rank == 1, "options": len(analysis.options),
            "expected_loss": round(max(0.0, best.expected_gain - actual.expected_gain), 4), "reason": best.reason,
            "ranking": [{"kind": o.kind, "cards": [show(c) for c in o.cards], "rank": o.rank, "distance": o.distance,
                         "expected_gain": round(o.expected_gain, 4), "gain": o.gain} for o in analysis.options],
        })

    def analyse_claim(self, seat: int, card: int, role: str, source: str, visible: list[int]) -> ClaimAnalysis:
        """The claim analysis of the seat's position on the card (each family's reviewer runs its rule-set's)."""
        raise NotImplementedError

    def analyse(self, seat: int) -> DiscardAnalysis:
        """The discard analysis of the seat's position (each family's reviewer runs its rule-set's)."""
        raise NotImplementedError

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
                rater = self.settings.rater
                assert rater is not None  # a deep review is refused without one (__init__)
                entry["deep"] = rater(self.seat_view(event.seat, self.shown, self.stock_left()), card, analysis,
                                      self.settings)
                entry["expected_loss"] = entry["deep"]["expected_loss"]
            except DomainError:
                pass  # a position an illegal log made impossible to deal: the exact rating stands
        self.decisions.append(entry)
        if self.progress is not None:
            self.progress()

    def stock_left(self) -> int | None:
        """Cards still in the stock (None when the log does not give the stock)."""
        stock = self.log.stock  # type: ignore[attr-defined]
        return None if stock is None else len(stock) - self.drawn  # type: ignore[attr-defined]

    def seat_view(self, seat: int, visible: list[int], stock_remaining: int | None) -> SeatView:
        """The seat's position now: his cards and melds, the other seats' melds, the `visible` cards."""
        exposed = self.exposed  # type: ignore[attr-defined]
        hand = tuple(sorted(self.concealed(seat)))
        return SeatView(self.log.ruleset, dict(self.options), hand,  # type: ignore[attr-defined]
                        tuple(exposed[seat]), tuple(visible), self.seats, seat,  # type: ignore[attr-defined]
                        tuple(() if s == seat else tuple(melds) for s, melds in enumerate(exposed)),
                        stock_remaining, self.history_of(seat))

    def concealed(self, seat: int) -> list[int]:
        """The seat's concealed cards (each family's reviewer says how its replay keeps them)."""
        raise NotImplementedError

    def history_of(self, seat: int) -> Any:
        """What the seat did earlier that its rules remember (None where nothing is)."""
        return None


def answer_of(analysis: ClaimAnalysis, made: Event | None) -> ClaimOption | None:
    """The option a seat's answer stands for: pass, a win, or the claim with the same meld kind and cards."""
    if made is None:
        return next((o for o in analysis.options if o.kind == "pass"), None)
    if made.type in WIN_KINDS:
        return next((o for o in analysis.options if o.kind in WIN_KINDS), None)
    kind = made.meld or made.type  # a Chắn Chíu names no meld, and one card on offer allows one Chíu
    cards = None if made.cards is None or kind == "chiu" else tuple(sorted(made.cards))
    return next((o for o in analysis.options
                 if o.kind == kind and (cards is None or tuple(sorted(o.cards)) == cards)), None)


def rated(mine: list[dict[str, Any]]) -> dict[str, Any]:
    """Count, agreements, agreement rate and total expected loss of some rated decisions."""
    agreed = sum(d["agreed"] for d in mine)
    return {"decisions": len(mine), "agreed": agreed,
            "agreement_rate": round(agreed / len(mine), 4) if mine else None,
            "expected_loss": round(sum(d["expected_loss"] for d in mine), 4)}


def seat_summary(decisions: list[dict[str, Any]], passes: list[dict[str, Any]], seat: int,
                 claim_decisions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Of one seat: agreement rate, total expected loss and the costliest decisions of its discards; the same of
    its claim decisions (`claims`); both together (`overall`); the wins and claims it passed up."""
    mine = [d for d in decisions if d["seat"] == seat]
    answers = [d for d in claim_decisions or () if d["seat"] == seat]
    costliest = sorted(mine, key=lambda d: (-d["expected_loss"], d["event"]))[:COSTLIEST]
    claim_costliest = sorted(answers, key=lambda d: (-d["expected_loss"], d["event"]))[:COSTLIEST]
    return {
        **rated(mine),
        "costliest": [{k: d[k] for k in ("event", "card", "best", "expected_loss")}
                      for d in costliest if d["expected_loss"] > 0],
        "claims": {**rated(answers),
                   "costliest": [{k: d[k] for k in ("event", "card", "answer", "best", "expected_loss")}
                                 for d in claim_costliest if d["expected_loss"] > 0]},
        "overall": rated(mine + answers),
        "passed_wins": [p["event"] for p in passes if p["seat"] == seat and p["passed"] == "win"],
        "passed_claims": [p["event"] for p in passes if p["seat"] == seat and p["passed"] == "claim"],
        "passes": [{k: p[k] for k in ("event", "passed", "claims")} for p in passes if p["seat"] == seat],
    }
