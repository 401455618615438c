"""Drill positions: decisions met in seeded rounds the API's own advice plays at every seat, kept when they are
worth practising, dealt one per (seed, index).

Drill `index` of a seed plays rounds seeded by (rule-set, seed, index, round) with `Advice` in all four seats
(the rule-set's default options: where its value model applies, so every option has a `value`). Each seat's every
decision is a candidate: a discard (the position POST /v1/discards ranks) or an answer to a public card on which it
has a legal claim (POST /v1/claims). A candidate is kept when
- its distance, the smallest `distance` among its options (0: the best answer leaves the hand waiting, one card
  from a win), is the difficulty's (`DIFFICULTIES`); a position offering a win (distance -1) is none;
- there is something to get wrong: two options or more, one of them worth less than the advised one;
- the API can ask it: the seat's role follows from the seat the card came from as `rules.roles.seat_role` says.
The round stops at the kept position a random source seeded like the round picks among the first `PICK_AMONG`
(the last one kept when the round ends before); a round without one is followed by the next round of the drill,
at most `MAX_ROUNDS`. Same arguments, same position: nothing else is random. Stopping there, not playing the round
out, halves the work of a drill (`bench/drills.py`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..replay.decisions import SeatView
from ..replay.families import replay_family
from ..rules.analysis import WIN_KINDS, ClaimAnalysis, DiscardAnalysis
from ..rules.errors import DomainError
from ..rules.registry import RuleSet
from ..rules.roles import seat_role
from ..rules.text import text
from .advice import Advice, claim_analysis
from .external import history_json
from .seat import analyse, seen_codes

SEATS = 4
#: The distances of each difficulty: (least, most); None: no upper bound.
DIFFICULTIES: dict[str, tuple[int, int | None]] = {"easy": (0, 0), "medium": (1, 1), "hard": (2, None)}
KINDS = ("any", "discard", "claim")
#: Rounds a drill plays at most to find a position of its difficulty.
MAX_ROUNDS = 8
#: The position kept is one of the first so many a round offers (`Collector.enough`).
PICK_AMONG = 3
#: Values this close are the same value (an answer worth the advised one is right).
SAME_VALUE = 1e-9


class NoDrillPosition(DomainError):
    """No position of the wanted difficulty and kind came up in the rounds a drill may play."""

    code = "no_drill_position"


@dataclass(frozen=True)
class Candidate:
    """A decision met in play: the seat's view, its analysis and (a claim) the card, its source and origin."""

    kind: str  # "discard" or "claim"
    view: SeatView
    analysis: DiscardAnalysis | ClaimAnalysis
    distance: int
    event: int  # events of the round's log before the decision
    card: int | None = None
    source: str | None = None  # "discard" or "stock", as the API names it
    from_seat: int | None = None


def worth_drilling(ruleset: RuleSet, view: SeatView, analysis: DiscardAnalysis | ClaimAnalysis) -> bool:
    """Two options or more, one of them worse than the advised one (by value; by rank where no model applies)."""
    options = analysis.options
    if len(options) < 2:
        return False
    best = options[0].value
    if best is None:
        return any(o.rank > 1 for o in options)
    return any(o.value is not None and o.value < best - SAME_VALUE for o in options)


class Enough(Exception):
    """The round has met the position the drill keeps: it stops there."""


class Collector:
    """What a drill's round met: the candidates of the wanted difficulty and kind, up to the `enough`-th."""

    def __init__(self, ruleset: RuleSet, difficulty: str, kind: str, enough: int = PICK_AMONG) -> None:
        self.ruleset, self.kind, self.enough = ruleset, kind, enough
        self.least, self.most = DIFFICULTIES[difficulty]
        self.found: list[Candidate] = []
        self.events: Sequence[dict] = ()  # the round driver's events, once it exists

    def wanted(self, kind: str, analysis: DiscardAnalysis | ClaimAnalysis) -> int | None:
        """The position's distance when it is of the wanted kind and difficulty, else None."""
        if self.kind not in ("any", kind) or not analysis.options:
            return None
        if any(getattr(o, "kind", None) in WIN_KINDS for o in analysis.options):
            return None
        distance = min(o.distance for o in analysis.options)
        if distance < self.least or (self.most is not None and distance > self.most):
            return None
        return distance

    def discard(self, view: SeatView, analysis: DiscardAnalysis) -> None:
        """A discard decision."""
        distance = self.wanted("discard", analysis)
        if distance is not None and worth_drilling(self.ruleset, view, analysis):
            self.keep(Candidate("discard", view, analysis, distance, len(self.events)))

    def keep(self, candidate: Candidate) -> None:
        """One more candidate; the round stops at the `enough`-th."""
        self.found.append(candidate)
        if len(self.found) >= self.enough:
            raise Enough

    def claim(self, view: SeatView, card: int, source: str, role: str, analysis: ClaimAnalysis) -> None:
        """An answer to public `card`; its origin is the seat of the round's last discard or draw."""
        distance = self.wanted("claim", analysis)
        if distance is None or not worth_drilling(self.ruleset, view, analysis):
            return
        origin = next((e["seat"] for e in reversed(self.events) if e["type"] in ("discard", "draw")), None)
        shown = "discard" if source == "discard" else "stock"
        if origin is None or seat_role(view.seat, origin, shown, view.seats) != role:
            return  # a role the API cannot be asked for
        self.keep(Candidate("claim", view, analysis, distance, len(self.events), card, shown, origin))


class Recording(Advice):
    """The advice player, telling the collector of every decision it makes with the analysis it makes it on."""

    def __init__(self, collector: Collector) -> None:
        super().__init__()
        self.collector = collector

    def discard(self, view: SeatView) -> int:
        analysis = analyse(view)
        self.collector.discard(view, analysis)
        planned = self.follow.take(view)
        return planned if planned is not None else analysis.options[0].card

    def claim(self, view: SeatView, card: int, source: str, role: str, legal: Sequence[Any], forced: bool) -> Any:
        analysis = claim_analysis(view, card, source, role)
        self.collector.claim(view, card, source, role, analysis)
        return self.answer(view, card, legal, analysis)


def play(ruleset: RuleSet, collector: Collector, rng: random.Random) -> dict[str, Any]:
    """One round of a fresh deal with recording advice players, up to the collector's last candidate: the dealer
    and the events played."""
    family = replay_family(ruleset)
    dealt = family.deal(ruleset, rng, SEATS)
    players = [Recording(collector) for _ in dealt.hands]
    driver = family.round(ruleset, None, dealt, players)
    collector.events = driver.events
    try:
        driver.play()
    except Enough:
        pass
    return {"dealer": dealt.dealer, "events": len(driver.events)}


def deal_drill(ruleset: RuleSet, difficulty: str, seed: int, index: int, kind: str = "any") -> dict[str, Any]:
    """Drill `index` of `seed`: the position (`position_json`), which round of the drill it came from and its
    distance. NoDrillPosition when `MAX_ROUNDS` rounds held none."""
    for attempt in range(MAX_ROUNDS):
        where = f"drill/{ruleset.id}/{seed}/{index}/{attempt}"
        collector = Collector(ruleset, difficulty, kind, 1 + random.Random(where + "/pick").randrange(PICK_AMONG))
        played = play(ruleset, collector, random.Random(where))
        if collector.found:
            chosen = collector.found[-1]
            return {"round": attempt, "event": chosen.event, "dealer": played["dealer"], "kind": chosen.kind,
                    "distance": chosen.distance, **position_json(ruleset, chosen)}
    if kind == "any":
        raise NoDrillPosition(text("no {difficulty} position came up in {rounds} rounds of this drill; try another "
                                   "index or seed", difficulty=difficulty, rounds=MAX_ROUNDS), "difficulty")
    raise NoDrillPosition(text("no {difficulty} {kind} position came up in {rounds} rounds of this drill; try another "
                               "index or seed", difficulty=difficulty, kind=kind, rounds=MAX_ROUNDS), "difficulty")


def position_json(ruleset: RuleSet, chosen: Candidate) -> dict[str, Any]:
    """The seat's position in card codes, and the request (path and body) whose answer grades it."""
    view, code = chosen.view, ruleset.card_code

    def melds(items: Sequence[Any]) -> list[dict[str, Any]]:
        return [{"kind": m.kind, "cards": [code(c) for c in m.cards]} for m in items]

    history = history_json(view.history, code)
    body: dict[str, Any] = {"ruleset": ruleset.id, "hand": [code(c) for c in view.hand],
                            "exposed": melds(view.exposed), "visible": seen_codes(view), "seats": view.seats,
                            "seat": view.seat}
    if history is not None:
        body["history"] = history
    position: dict[str, Any] = {
        "seat": view.seat, "hand": body["hand"], "exposed": body["exposed"],
        "opponents": [melds(view.opponents[s]) for s in range(view.seats)],
        "discards_seen": [code(c) for c in view.visible], "stock_remaining": view.stock_remaining,
        "public_card": None, "card_source": None, "from_seat": None, "seat_role": None}
    if chosen.kind == "claim":
        assert chosen.card is not None and chosen.from_seat is not None and chosen.source is not None
        body.update(public_card=code(chosen.card), card_source=chosen.source, from_seat=chosen.from_seat)
        position.update(public_card=body["public_card"], card_source=chosen.source, from_seat=chosen.from_seat,
                        seat_role=seat_role(view.seat, chosen.from_seat, chosen.source, view.seats))
    path = "/v1/claims" if chosen.kind == "claim" else "/v1/discards"
    return {"position": position, "request": {"path": path, "body": body}}
