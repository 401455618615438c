"""A seeded simulator of legal Four Color Cards rounds, writing logs in the game-log format (docs/rules.md#logs).

Players: `random` (claims or passes at random, discards at random) and `greedy` (always claims the best
claim it has, discards a card that is in no meld of its hand). It is the audit's test bed: every log it
writes must audit clean with its recorded result.
"""

from __future__ import annotations

import random
from typing import Any

from ..rules.fourcolor.cards import CHESS_CODES, FLOWER_CODES, GENERAL, Tally, character_of, code, is_flower
from ..rules.fourcolor.evaluate import legal_melds
from ..rules.fourcolor.hand import FourColorHand
from ..rules.registry import get_ruleset
from .log import deal_sizes


class SimulatedFourColorRound:
    """One simulated round."""

    def __init__(self, ruleset_id: str, seed: int, seats: int, policy: str, options: dict | None) -> None:
        self.rs = get_ruleset(ruleset_id)
        self.options = self.rs.resolve_options(options)
        self.flowers = self.rs.has_flowers
        self.rng = random.Random(seed)
        self.seats, self.policy = seats, policy
        codes = list(CHESS_CODES) * 4 + (list(FLOWER_CODES) if self.flowers else [])
        self.rng.shuffle(codes)
        self.dealer = self.rng.randrange(seats)
        sizes = deal_sizes(self.rs, seats, self.dealer)
        self.deal, at = [], 0
        for n in sizes:
            self.deal.append(codes[at:at + n])
            at += n
        self.stock = codes[at:]
        parse = self.rs.parse
        self.hands = [parse(self.options, h).concealed for h in self.deal]
        self.exposed: list[list[Any]] = [[] for _ in range(seats)]
        self.events: list[dict] = []
        self.drawn = 0
        self.result: dict | None = None

    def log(self) -> dict:
        """The round as a log document."""
        return {"ruleset": self.rs.id, "options": dict(self.options), "seats": self.seats, "dealer": self.dealer,
                "hands": self.deal, "stock": self.stock, "events": self.events, "result": self.result}

    def play(self) -> dict:
        """Play to the end (hu, forced end or exhausted stock)."""
        if not self.rs.dealer_extra_card:  # docs/rules.md#fc-deal: a dealer dealt no extra card draws first
            public = self.draw(self.dealer)
        else:
            hand = FourColorHand(self.hands[self.dealer], (), None)
            if self.rs.hu(hand, self.options).hu:
                self.events.append({"seat": self.dealer, "type": "hu"})
                return self.finish(self.dealer, hand)
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
            legal, must = self.rs.legal_claims(FourColorHand(self.hands[seat], tuple(self.exposed[seat]), card),
                                               role, self.options)
            choice = self.choose(legal, must)
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
            return self.finish(seat, FourColorHand(self.hands[seat], tuple(self.exposed[seat]), card))
        used = list(claim.meld.cards)
        used.remove(card)
        for c in used:
            self.hands[seat].remove(c)
        self.exposed[seat].append(claim.meld)
        if not self.discardable(seat):
            return self.finish(seat, FourColorHand(self.hands[seat], tuple(self.exposed[seat]), None))
        return self.discard(seat)

    def choose(self, legal: list, must: bool) -> Any:
        """A player's answer to the public card."""
        hu = [c for c in legal if c.kind == "hu"]
        if hu:
            return hu[0]
        if not legal:
            return None
        if must or self.policy == "greedy":
            return legal[0]
        return self.rng.choice(legal) if self.rng.random() < 0.5 else None

    def role(self, seat: int, source: str, origin: int) -> str:
        """Seat role on a public card."""
        if seat == origin:
            return "drawer" if source == "draw" else "discarder"
        return "next" if seat == (origin + 1) % self.seats else "other"

    def discardable(self, seat: int) -> list[int]:
        """Cards the seat may discard (never a General or a flower)."""
        return [c for c in self.hands[seat].cards() if not is_flower(c) and character_of(c) != GENERAL]

    def discard(self, seat: int) -> tuple[int, str, int] | None:
        """The seat discards; greedy keeps cards that are in some meld of its hand."""
        options = self.discardable(seat)
        if not options:
            return self.finish(seat, FourColorHand(self.hands[seat], tuple(self.exposed[seat]), None))
        if self.policy == "greedy":
            melded = {c for m in legal_melds(self.hands[seat], self.rs.meld_rules(self.options)) for c in m.cards}
            loose = [c for c in options if c not in melded]
            options = loose or options
        card = self.rng.choice(options)
        self.hands[seat].remove(card)
        self.events.append({"seat": seat, "type": "discard", "card": code(card)})
        return card, "discard", seat

    def draw(self, seat: int) -> tuple[int, str, int] | None:
        """The seat turns up the next stock card."""
        if self.drawn >= len(self.stock):
            return None
        card_code = self.stock[self.drawn]
        self.drawn += 1
        self.events.append({"seat": seat, "type": "draw", "card": card_code})
        return self.rs.parse(self.options, [card_code]).concealed.cards()[0], "draw", seat

    def finish(self, seat: int, hand: FourColorHand) -> None:
        """Settle the round as the seat's hu and record the result."""
        lucky = self.stock[self.drawn] if self.rs.lucky_card and self.drawn < len(self.stock) else None
        settled = self.rs.settle(hand, self.options, self.seats, seat, lucky)
        self.result = {"type": "hu", "winner": seat, "points": settled.points, "deltas": list(settled.deltas)}
        return None


def simulate(ruleset_id: str, seed: int, seats: int = 4, policy: str = "greedy", options: dict | None = None) -> dict:
    """One simulated round's log."""
    return SimulatedFourColorRound(ruleset_id, seed, seats, policy, options).play()


__all__ = ["simulate", "Tally"]
