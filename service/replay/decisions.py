"""Decision review: every discard of every seat rated against the exact analysis (and, in deep mode, against a
Monte Carlo search of the same position, run by the `rater` the settings carry), every answer to a public card on
which a seat had a legal claim or win rated against the claim analysis (exactly, in deep mode too), plus the wins
and claims each seat passed up.

A reviewer keeps what each seat has seen: every public card that was not claimed (a claimed card is inside its
meld) and the other seats' exposed melds. At a discard the seat's cards are as the log has them, so the
analysis sees exactly the position the player saw.

Expected loss (`Pricing`), exact mode, discards and claim decisions alike: where the rule-set's value model
applies (`advice.value.model_for`: 4 seats, the options it was trained under), the value of the advised option
(the first of the ranking) minus the value of the option played, each as the answers of /v1/discards and
/v1/claims show it (4 decimals; advice/value.py: the values never rise along the ranking, so the loss is never
negative, and it is never clipped), in the rule-set's unit (points; wins where nobody pays); the option played
agrees exactly when its value equals the advised one's to 4 decimals (the tie, `SAME_VALUE`), and then costs 0;
else it costs its loss, more than 0. Where no model applies: the one-card expected gain of the advised option
minus the actual one's (unit `expected_gain`), a win counting its gain. Deep mode: a discard's loss is the search's
objective (expected settlement in points; win probability where nobody pays) of its best candidate minus the
actual discard's; claim decisions stay exact. Every decision and every total names its `loss_unit`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..advice.value import ValueModel, model_for, shown_value, unit_of
from ..rules.analysis import WIN_KINDS, ClaimAnalysis, ClaimOption, DiscardAnalysis, DiscardOption
from ..rules.errors import DomainError
from ..rules.protocol import RuleSet
from ..rules.text import stored
from .log import Event

MODES = ("none", "exact", "deep")
COSTLIEST = 5
#: The version of the review's answers (its pricing): 2 prices a decision in values where a value model applies;
#: 3 in the values of one order (the advice's, the loss never clipped).
REVIEW_VERSION = "review-3"
#: The unit of a loss where no value model applies: the one-card expected gain.
FALLBACK_UNIT = "expected_gain"
#: The unit of totals over decisions priced in different units.
MIXED_UNIT = "mixed"
#: The tie: a loss this small (the values shown equal to 4 decimals) is no loss, the option played agrees.
SAME_VALUE = 1e-9


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


@dataclass(frozen=True)
class Pricing:
    """How a review prices a decision: the rule-set's value model where it applies (4 seats, the options it was
    trained under: `model_for`), in the unit of the rule-set's objective; else the one-card expected gain."""

    model: ValueModel | None
    unit: str  # of an exact loss: "points", "wins", or FALLBACK_UNIT without a model

    @classmethod
    def of(cls, ruleset: RuleSet, options: Mapping[str, Any], seats: int) -> Pricing:
        """The pricing of a game of this rule-set, options and table size."""
        model = model_for(ruleset, options, seats)
        return cls(model, FALLBACK_UNIT if model is None else unit_of(ruleset.objective(options)))

    def value(self, option: DiscardOption | ClaimOption) -> float | None:
        """An option's value as /v1/discards and /v1/claims show it (4 decimals; None without a model)."""
        return shown_value(option)

    def price(self, best: DiscardOption | ClaimOption, actual: DiscardOption | ClaimOption,
              unseen_total: int) -> dict[str, Any]:
        """The option played against the advised one `best` (both of one analysis, counted on its
        `unseen_total`): `value`, `best_value`, `agreed`, `expected_loss` and its `loss_unit`."""
        shown, best_shown = shown_value(actual), shown_value(best)
        if self.model is None or shown is None or best_shown is None:
            return {"value": None, "best_value": None, "agreed": actual.rank == 1, "loss_unit": self.unit,
                    "expected_loss": round(max(0.0, best.expected_gain - actual.expected_gain), 4)}
        loss = round(best_shown - shown, 4)
        return {"value": shown, "best_value": best_shown, "agreed": loss <= SAME_VALUE, "loss_unit": self.unit,
                "expected_loss": loss}


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
        log = self.log  # type: ignore[attr-defined]
        self.pricing = Pricing.of(log.ruleset, log.options, log.seats)

    def loss_units(self) -> tuple[str, str]:
        """The unit of a discard's loss and of a claim decision's in this review (before any is rated): deep mode
        prices discards in the search's objective."""
        log = self.log  # type: ignore[attr-defined]
        deep = self.settings.mode == "deep"
        return unit_of(log.ruleset.objective(log.options)) if deep else self.pricing.unit, self.pricing.unit

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
        best, total = analysis.options[0], analysis.unseen_total
        self.claim_decisions.append({
            "event": self.offered_by, "seat": seat, "card": show(card), "role": role, "answer": actual.kind,
            "cards": [show(c) for c in actual.cards], "rank": actual.rank, "best": best.kind,
            "best_cards": [show(c) for c in best.cards], "options": len(analysis.options),
            **self.pricing.price(best, actual, total), **stored("reason", best.reason),
            "ranking": [{"kind": o.kind, "cards": [show(c) for c in o.cards], "rank": o.rank, "distance": o.distance,
                         "expected_gain": round(o.expected_gain, 4), "gain": o.gain,
                         "value": self.pricing.value(o)} for o in analysis.options],
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
        best, total = analysis.options[0], analysis.unseen_total
        show = self.show  # type: ignore[attr-defined]
        entry = {
            "event": event.index, "seat": event.seat, "card": show(card), "rank": actual.rank,
            "best": [show(o.card) for o in analysis.options if o.rank == 1],
            "options": len(analysis.options), "distance": actual.distance, "best_distance": best.distance,
            **self.pricing.price(best, actual, total), **stored("reason", best.reason), "deep": None,
            "ranking": [{"card": show(o.card), "rank": o.rank, "distance": o.distance,
                         "expected_gain": round(o.expected_gain, 4), "value": self.pricing.value(o)}
                        for o in analysis.options],
        }
        if self.settings.mode == "deep":
            try:
                rater = self.settings.rater
                assert rater is not None  # a deep review is refused without one (__init__)
                entry["deep"] = rater(self.seat_view(event.seat, self.shown, self.stock_left()), card, analysis,
                                      self.settings)
                entry["expected_loss"] = entry["deep"]["expected_loss"]
                entry["loss_unit"] = unit_of(entry["deep"]["objective"])
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


def common_unit(units: Iterable[str]) -> str | None:
    """The one unit of some losses (None: no loss; `MIXED_UNIT`: losses in different units)."""
    found = set(units)
    return None if not found else found.pop() if len(found) == 1 else MIXED_UNIT


def rated(mine: list[dict[str, Any]], unit: str) -> dict[str, Any]:
    """Count, agreements, agreement rate, total and mean expected loss of some rated decisions, and the unit of
    their losses (`unit` when there are none)."""
    agreed = sum(d["agreed"] for d in mine)
    total = round(sum(d["expected_loss"] for d in mine), 4)
    return {"decisions": len(mine), "agreed": agreed,
            "agreement_rate": round(agreed / len(mine), 4) if mine else None,
            "expected_loss": total, "mean_loss": round(total / len(mine), 4) if mine else 0.0,
            "loss_unit": common_unit(d["loss_unit"] for d in mine) or unit}


def costliest(mine: list[dict[str, Any]], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """The `COSTLIEST` decisions of largest expected loss (earliest first among equal ones), those that cost."""
    ordered = sorted(mine, key=lambda d: (-d["expected_loss"], d["event"]))[:COSTLIEST]
    return [{k: d[k] for k in keys} for d in ordered if d["expected_loss"] > 0]


def seat_summary(decisions: list[dict[str, Any]], passes: list[dict[str, Any]], seat: int,
                 claim_decisions: list[dict[str, Any]] | None = None,
                 units: tuple[str, str] = (FALLBACK_UNIT, FALLBACK_UNIT)) -> dict[str, Any]:
    """Of one seat: agreement rate, total and mean expected loss and the costliest decisions of its discards; the
    same of its claim decisions (`claims`); both together (`overall`); the wins and claims it passed up. `units`:
    the loss units of a discard and of a claim decision in this review (`DecisionReview.loss_units`)."""
    mine = [d for d in decisions if d["seat"] == seat]
    answers = [d for d in claim_decisions or () if d["seat"] == seat]
    both = common_unit(units) or FALLBACK_UNIT
    return {
        **rated(mine, units[0]),
        "costliest": costliest(mine, ("event", "card", "best", "expected_loss", "loss_unit")),
        "claims": {**rated(answers, units[1]),
                   "costliest": costliest(answers, ("event", "card", "answer", "best", "expected_loss", "loss_unit"))},
        "overall": rated(mine + answers, both),
        "passed_wins": [p["event"] for p in passes if p["seat"] == seat and p["passed"] == "win"],
        "passed_claims": [p["event"] for p in passes if p["seat"] == seat and p["passed"] == "claim"],
        "passes": [{k: p[k] for k in ("event", "passed", "claims")} for p in passes if p["seat"] == seat],
    }
