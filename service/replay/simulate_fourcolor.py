"""Legal Four Color Cards rounds played from a deal, one `Player` per seat, written as game logs
(docs/rules.md#logs).

`FourColorRound` is the driver: it deals, offers every public card to every seat through the rule-set's
`legal_claims` (with the drawer's forced take), resolves the claims by priority, asks the claimant (or the next
drawer) for a discard among the rule-set's `discardable` cards, ends the round on a hu, on a hand left with only
Generals and flowers (docs/rules.md#fc-generals-end) or on an exhausted stock, and settles it with the rule-set.
The dealer's dealt win (bga-taiwan: his 21 cards already split into melds) is declared without asking him.

`SIMULATED` is how the audit's test bed (`families.simulate`) plays here: its `random` player claims one time in two
and draws a discard among every copy it holds; `greedy` discards a card that is in no meld of its hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.fourcolor.cards import CHESS_CODES, FLOWER_CODES, Tally, code
from ..rules.fourcolor.evaluate import legal_melds
from ..rules.fourcolor.hand import FourColorHand
from ..rules.fourcolor.rulesets import FourColorRuleSet, fourcolor_ruleset
from ..rules.protocol import RuleSet
from .decisions import SeatView
from .players import Dealt, Player, SimulatedStyle, Table, checked_claim, checked_discard, shuffled_deal


def deal(ruleset: RuleSet, rng: random.Random, seats: int) -> Dealt:
    """A shuffled deal of the rule-set's deck (docs/rules.md#fc-deal): dealer, hands and stock."""
    return shuffled_deal(list(CHESS_CODES) * 4 + (list(FLOWER_CODES) if ruleset.has_flowers else []), ruleset, rng,
                         seats)


class FourColorRound(Table):
    """One round of a deal, every decision asked of the seat's player."""

    def __init__(self, ruleset: RuleSet, options: Mapping[str, Any] | None, dealt: Dealt,
                 players: Sequence[Player]) -> None:
        self.rs: FourColorRuleSet = fourcolor_ruleset(ruleset)
        self.options = ruleset.resolve_options(options)
        self.seats, self.players = len(players), list(players)
        self.dealer, self.deal, self.stock = dealt.dealer, [list(h) for h in dealt.hands], list(dealt.stock)
        parse = ruleset.parse
        self.hands = [parse(self.options, h).concealed for h in self.deal]
        self.exposed: list[list[Any]] = [[] for _ in range(self.seats)]
        self.events: list[dict] = []
        self.drawn = 0
        self.result: dict | None = None
        self.init_table()

    def concealed(self, seat: int) -> list[int]:
        return self.hands[seat].cards()

    def log(self) -> dict:
        """The round as a log document."""
        return {"ruleset": self.rs.id, "options": dict(self.options), "seats": self.seats, "dealer": self.dealer,
                "hands": self.deal, "stock": self.stock, "events": self.events, "result": self.result}

    def play(self) -> dict:
        """Play to the end (hu, forced end or exhausted stock); the log."""
        if not self.rs.dealer_extra_card:  # docs/rules.md#fc-deal: a dealer dealt no extra card draws first
            public = self.draw(self.dealer)
        else:
            hand = FourColorHand(self.hands[self.dealer], (), None)
            if self.rs.hu(hand, self.options).hu:
                self.events.append({"seat": self.dealer, "type": "hu"})
                self.finish(self.dealer, hand)
                return self.log()
            public = self.discard(self.dealer)
        while public is not None and self.result is None:
            public = self.offer(*public)
        if self.result is None:
            self.result = {"type": "draw"}
        return self.log()

    def offer(self, card: int, source: str, origin: int) -> tuple[int, str, int] | None:
        """All seats answer the public card; resolve; return the next public card (or None at the end)."""
        start = origin if source == "draw" else (origin + 1) % self.seats
        answers = []
        for k in range(self.seats):
            seat = (start + k) % self.seats
            role = self.role(seat, source, origin)
            legal, must = self.offered(seat, card, role)
            if not legal:
                continue
            choice = checked_claim(self.players[seat], self.view(seat, card), card, source, role, legal, must)
            if choice is not None:
                answers.append((-choice.priority, k, seat, choice))
                event = {"seat": seat, "type": "hu"} if choice.kind == "hu" else {
                    "seat": seat, "type": "claim", "meld": choice.kind, "cards": choice.meld.codes()}
                self.events.append(event)
        if not answers:
            nxt = (origin + 1) % self.seats
            return None if self.drawn >= len(self.stock) else self.draw(nxt)
        _, _, seat, claim = min(answers, key=lambda a: (a[0], a[1]))
        if claim.kind == "hu":
            self.finish(seat, FourColorHand(self.hands[seat], tuple(self.exposed[seat]), card))
            return None
        self.shown.remove(card)  # it now lies in the claimant's meld
        used = list(claim.meld.cards)
        used.remove(card)
        for c in used:
            self.hands[seat].remove(c)
        self.exposed[seat].append(claim.meld)
        return self.discard(seat)

    def offered(self, seat: int, card: int, role: str) -> tuple[list[Any], bool]:
        """The claims the seat in `role` is offered on public `card`, and whether it must take the card."""
        return self.rs.legal_claims(FourColorHand(self.hands[seat], tuple(self.exposed[seat]), card), role,
                                    self.options)

    def role(self, seat: int, source: str, origin: int) -> str:
        """Seat role on a public card."""
        if seat == origin:
            return "drawer" if source == "draw" else "discarder"
        return "next" if seat == (origin + 1) % self.seats else "other"

    def discard(self, seat: int) -> tuple[int, str, int] | None:
        """The seat discards; a seat with nothing it may discard ends the round as its hu
        (docs/rules.md#fc-generals-end)."""
        legal = self.rs.discardable(self.hands[seat].cards())
        if not legal:
            self.finish(seat, FourColorHand(self.hands[seat], tuple(self.exposed[seat]), None))
            return None
        card = checked_discard(self.players[seat], self.view(seat), legal)
        self.hands[seat].remove(card)
        self.shown.append(card)
        self.events.append({"seat": seat, "type": "discard", "card": code(card)})
        return card, "discard", seat

    def draw(self, seat: int) -> tuple[int, str, int] | None:
        """The seat turns up the next stock card."""
        if self.drawn >= len(self.stock):
            return None
        card_code = self.stock[self.drawn]
        self.drawn += 1
        self.events.append({"seat": seat, "type": "draw", "card": card_code})
        card = self.rs.parse(self.options, [card_code]).concealed.cards()[0]
        self.shown.append(card)
        return card, "draw", seat

    def finish(self, seat: int, hand: FourColorHand) -> None:
        """Settle the round as the seat's hu and record the result."""
        lucky = self.stock[self.drawn] if self.rs.lucky_card and self.drawn < len(self.stock) else None
        settled = self.rs.settle(hand, self.options, self.seats, seat, lucky)
        self.result = {"type": "hu", "winner": seat, "points": settled.points, "deltas": list(settled.deltas)}
        return None


def discards(view: SeatView) -> list[int]:
    """Every copy the seat holds of a card it may discard: the test bed draws one, so its odds stay as they were."""
    allowed = set(view.ruleset.discardable(view.hand))
    return [c for c in view.hand if c in allowed]


def loose(view: SeatView) -> set[int]:
    """The seat's cards in no legal meld of its hand."""
    rules = view.ruleset.meld_rules(view.options)
    return set(view.hand) - {c for m in legal_melds(Tally.of(view.hand), rules) for c in m.cards}


#: The test bed's players at a Four Color Cards table (`players.SimulatedPlayer`).
SIMULATED = SimulatedStyle("hu", 0.5, discards, loose)
