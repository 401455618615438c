"""A seeded simulator of legal Chắn rounds, writing logs in the game-log format of docs/rules.md#logs (the audit's
test bed).

Players: `greedy` (always wins, Chíus and captures when it can; discards an unpaired card) and `random`
(takes what it may at random). Histories (discards, passed identical captures, Cạ) are kept exactly as the
replay infers them, so every log it writes must audit clean.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ..rules.chan.captures import History, capture_rule_broken, legal_discards
from ..rules.chan.cards import CODES, code, tally
from ..rules.chan.hand import ChanHand, evaluate_win
from ..rules.chan.pairs import Pair, pair_up
from ..rules.chan.rulesets import CARDAVIA_CHAN
from ..rules.chan.scoring import settle
from ..rules.registry import get_ruleset

SEATS = 4


class SimulatedChanRound:
    """One simulated round."""

    def __init__(self, ruleset_id: str, seed: int, policy: str, options: dict | None) -> None:
        self.rs = get_ruleset(ruleset_id)
        self.options = self.rs.resolve_options(options)
        self.rng, self.policy = random.Random(seed), policy
        deck = list(CODES) * 4
        self.rng.shuffle(deck)
        self.dealer = self.rng.randrange(SEATS)
        self.deal, at = [], 0
        for seat in range(SEATS):
            n = 20 if seat == self.dealer else 19
            self.deal.append(deck[at:at + n])
            at += n
        self.stock = deck[at:]
        self.counts = [tally(CODES.index(c) for c in h) for h in self.deal]
        self.dealt = [list(c) for c in self.counts]
        self.exposed: list[list[Pair]] = [[] for _ in range(SEATS)]
        self.history = [History() for _ in range(SEATS)]
        self.events: list[dict] = []
        self.drawn = 0
        self.result: dict | None = None

    def play(self) -> dict:
        """Play the round to a win or an exhausted stock."""
        dealer = self.dealer
        hand = ChanHand(tuple(self.counts[dealer]), (), None)
        if evaluate_win(hand).hu:
            self.events.append({"seat": dealer, "type": "win"})
            self.finish(dealer, hand, {"heavenly": True})
            return self.log()
        if legal_discards(self.counts[dealer], History()):
            public = self.discard(dealer, (dealer + 1) % SEATS)
        else:
            self.history[dealer] = replace(self.history[dealer], dead_hand=True)
            public = self.draw(dealer)
        while public is not None and self.result is None:
            public = self.offer(*public)
        if self.result is None:
            self.result = {"type": "draw", "winner": None, "points": 0, "deltas": [0] * SEATS}
        return self.log()

    def log(self) -> dict:
        """The round as a log document."""
        return {"ruleset": self.rs.id, "options": dict(self.options), "seats": SEATS, "dealer": self.dealer,
                "hands": self.deal, "stock": self.stock, "events": self.events, "result": self.result}

    def role(self, seat: int, source: str, gate: int, to_act: int) -> str:
        """Seat role on the card."""
        if source == "stock":
            return "drawer" if seat == gate else "next" if seat == (gate + 1) % SEATS else "other"
        return "discarder" if seat == gate else "next" if seat == to_act else "other"

    def offer(self, card: int, source: str, gate: int, to_act: int) -> tuple[int, str, int, int] | None:
        """Every seat answers the card; the best claim takes it; else it moves on to a draw."""
        answers = []
        for k in range(SEATS):
            seat = (gate + k) % SEATS
            if self.history[seat].dead_hand:
                continue
            hand = ChanHand(tuple(self.counts[seat]), tuple(self.exposed[seat]), card)
            claims = self.rs.legal_claims(hand, self.role(seat, source, gate, to_act), self.options, source,
                                          self.history[seat])
            choice = self.choose(claims)
            if choice is not None:
                answers.append((-choice.priority, k, seat, choice))
                event: dict[str, Any] = {"seat": seat, "type": "capture" if choice.kind in ("chan", "ca")
                                         else choice.kind}
                if event["type"] == "capture":
                    event.update(meld=choice.kind, cards=choice.pair.codes())
                self.events.append(event)
        if not answers:
            self.passed(card, source, gate, to_act)
            drawer = (gate + 1) % SEATS if source == "stock" else to_act
            return self.draw(drawer)
        _, _, seat, claim = min(answers, key=lambda a: (a[0], a[1]))
        if claim.kind == "win":
            by_chiu = claim.by_chiu
            hand = ChanHand(tuple(self.counts[seat]), tuple(self.exposed[seat]), card)
            self.finish(seat, hand, {"own_gate": source == "stock" and seat == gate, "by_chiu": by_chiu,
                                     "chiu_on_dealt_triple": by_chiu and self.dealt[seat][card] == 3})
            return None
        if source == "stock" and seat != gate:
            self.passed(card, "discard", gate, gate)  # the drawer passed the card the next player takes (rule 3)
        if claim.kind == "chiu":
            self.counts[seat][card] -= 3
            self.exposed[seat].append(claim.pair)
            resume = to_act if to_act != seat else (seat + 1) % SEATS
            return self.discard(seat, resume)
        mate = card if claim.kind == "chan" else next(c for c in claim.pair.cards if c != card)
        self.counts[seat][mate] -= 1
        self.exposed[seat].append(claim.pair)
        if claim.kind == "ca":
            h = self.history[seat]
            self.history[seat] = replace(h, captured_ca=True, played_into_ca=h.played_into_ca | {mate})
        return self.discard(seat, (seat + 1) % SEATS)

    def choose(self, claims: list) -> Any:
        """A player's answer: wins always; a Chíu or capture only when a legal discard follows."""
        wins = [c for c in claims if c.kind == "win"]
        if wins:
            return wins[0]
        usable = [c for c in claims if c.discards]
        if not usable:
            return None
        if self.policy == "greedy":
            return usable[0]
        return self.rng.choice(usable) if self.rng.random() < 0.6 else None

    def passed(self, card: int, source: str, gate: int, to_act: int) -> None:
        """Rule 3, as the replay infers it: an available identical capture not taken is passed up."""
        seats = [gate, (gate + 1) % SEATS] if source == "stock" else [to_act]
        for seat in seats:
            h = self.history[seat]
            if not h.dead_hand and self.counts[seat][card] and capture_rule_broken(
                    self.counts[seat], card, card, h) is None:
                self.history[seat] = replace(h, passed_identical=h.passed_identical | {card})

    def discard(self, seat: int, to_act: int) -> tuple[int, str, int, int] | None:
        """The seat discards a legal card (greedy: an unpaired one if it can)."""
        options = legal_discards(self.counts[seat], self.history[seat])
        if not options:
            raise RuntimeError("no legal discard")  # choose() never takes a claim without one
        if self.policy == "greedy":
            loose = set(pair_up(self.counts[seat]).unpaired)
            options = [c for c in options if c in loose] or options
        card = self.rng.choice(options)
        self.counts[seat][card] -= 1
        h = self.history[seat]
        self.history[seat] = replace(h, discarded=h.discarded | {card})
        self.events.append({"seat": seat, "type": "discard", "card": code(card)})
        return card, "discard", seat, to_act

    def draw(self, seat: int) -> tuple[int, str, int, int] | None:
        """The seat turns up the next stock card at its own gate."""
        if self.drawn >= len(self.stock):
            return None
        card = CODES.index(self.stock[self.drawn])
        self.drawn += 1
        self.events.append({"seat": seat, "type": "draw", "card": code(card)})
        return card, "stock", seat, seat

    def finish(self, seat: int, hand: ChanHand, context: dict[str, bool]) -> None:
        """Settle the win and record the result."""
        final = hand.all_counts()
        context["dealt_quad"] = any(n == 4 for n in self.dealt[seat])
        context["dealt_pair_became_quad"] = any(n == 2 and final[f] == 4 for f, n in enumerate(self.dealt[seat]))
        result = settle(hand, {k: v for k, v in context.items() if v}, self.options, SEATS, seat)
        self.result = {"type": "win", "winner": seat, "points": result.points, "deltas": list(result.deltas)}


def simulate(ruleset_id: str = CARDAVIA_CHAN.id, seed: int = 0, seats: int = SEATS, policy: str = "greedy",
             options: dict | None = None) -> dict:
    """One simulated Chắn round's log."""
    return SimulatedChanRound(ruleset_id, seed, policy, options).play()
