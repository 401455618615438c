"""Legal Chắn rounds played from a deal, one `Player` per seat, written as game logs (docs/rules.md#logs).

`ChanRound` is the driver: it deals, offers every card to every seat that is not a dead hand through the
rule-set's `legal_claims` (capture rules 1-7, wins only on a stock card or by a Chíu, priorities), resolves the
claims, asks the taker for a discard among the rule-set's `legal_discards` (rules 2, 3, 6), keeps every seat's
history (discards, identical captures passed up, Cạ) exactly as the replay infers it, and settles a win with its
context. A Chíu or capture after which the taker would have no legal discard is not offered (rule 7 bars such a
capture; such a Chíu would leave him unable to discard). The dealer's dealt win is declared without asking him.

`SIMULATED` is how the audit's test bed (`families.simulate`) plays here: `greedy` Chíus and captures when it can
and discards an unpaired card; `random` takes what it may six times in ten and draws a discard among the legal
faces.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..rules.chan.captures import History, capture_rule_broken
from ..rules.chan.cards import CODES, code, tally
from ..rules.chan.hand import ChanHand, evaluate_win
from ..rules.chan.pairs import Pair, pair_up
from ..rules.chan.rulesets import ChanRuleSet, chan_ruleset
from ..rules.chan.scoring import settle
from ..rules.protocol import RuleSet
from .decisions import SeatView
from .players import Dealt, Player, SimulatedStyle, Table, checked_claim, checked_discard, shuffled_deal

SEATS = 4


def deal(ruleset: RuleSet, rng: random.Random, seats: int = SEATS) -> Dealt:
    """A shuffled deal (docs/rules.md#chan-deal: the dealer 20 cards, the others 19): dealer, hands and stock."""
    return shuffled_deal(list(CODES) * 4, ruleset, rng, SEATS)


class ChanRound(Table):
    """One round of a deal, every decision asked of the seat's player."""

    def __init__(self, ruleset: RuleSet, options: Mapping[str, Any] | None, dealt: Dealt,
                 players: Sequence[Player]) -> None:
        self.rs: ChanRuleSet = chan_ruleset(ruleset)
        self.options = ruleset.resolve_options(options)
        self.seats, self.players = SEATS, list(players)
        self.dealer, self.deal, self.stock = dealt.dealer, [list(h) for h in dealt.hands], list(dealt.stock)
        self.counts = [tally(CODES.index(c) for c in h) for h in self.deal]
        self.dealt = [list(c) for c in self.counts]
        self.exposed: list[list[Pair]] = [[] for _ in range(SEATS)]
        self.history = [History() for _ in range(SEATS)]
        self.events: list[dict] = []
        self.drawn = 0
        self.result: dict | None = None
        self.init_table()

    def concealed(self, seat: int) -> list[int]:
        return [face for face, n in enumerate(self.counts[seat]) for _ in range(n)]

    def history_of(self, seat: int) -> History:
        return self.history[seat]

    def play(self) -> dict:
        """Play the round to a win or an exhausted stock; the log."""
        dealer = self.dealer
        hand = ChanHand(tuple(self.counts[dealer]), (), None)
        if evaluate_win(hand).hu:
            self.events.append({"seat": dealer, "type": "win"})
            self.finish(dealer, hand, {"heavenly": True})
            return self.log()
        if self.rs.legal_discards(hand, History()):
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
            role = self.role(seat, source, gate, to_act)
            legal = self.offered(seat, card, source, role)
            if not legal:
                continue
            choice = checked_claim(self.players[seat], self.view(seat, card), card, source, role, legal, False)
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
        return self.take(seat, claim, card, source, gate, to_act)

    def offered(self, seat: int, card: int, source: str, role: str) -> list[Any]:
        """The claims the seat in `role` is offered on public `card`: its legal claims that win or leave it a discard
        (rule 7); none for a dead hand."""
        if self.history[seat].dead_hand:
            return []
        hand = ChanHand(tuple(self.counts[seat]), tuple(self.exposed[seat]), card)
        claims = self.rs.legal_claims(hand, role, self.options, source, self.history[seat])
        return [c for c in claims if c.kind == "win" or c.discards]

    def take(self, seat: int, claim: Any, card: int, source: str, gate: int, to_act: int
             ) -> tuple[int, str, int, int] | None:
        """The seat exposes the pair of its Chíu or capture and discards."""
        if source == "stock" and seat != gate:
            self.passed(card, "discard", gate, gate)  # the drawer passed the card the next player takes (rule 3)
        self.shown.remove(card)  # it now lies in the taker's pair
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

    def passed(self, card: int, source: str, gate: int, to_act: int) -> None:
        """Rule 3, as the replay infers it: an available identical capture not taken is passed up."""
        seats = [gate, (gate + 1) % SEATS] if source == "stock" else [to_act]
        for seat in seats:
            h = self.history[seat]
            if not h.dead_hand and self.counts[seat][card] and capture_rule_broken(
                    self.counts[seat], card, card, h) is None:
                self.history[seat] = replace(h, passed_identical=h.passed_identical | {card})

    def discard(self, seat: int, to_act: int) -> tuple[int, str, int, int] | None:
        """The seat discards a legal card (rules 2, 3, 6)."""
        legal = self.rs.legal_discards(ChanHand(tuple(self.counts[seat]), (), None), self.history[seat])
        if not legal:
            raise RuntimeError("no legal discard")  # a claim is offered only with one to follow
        card = checked_discard(self.players[seat], self.view(seat), legal)
        self.counts[seat][card] -= 1
        h = self.history[seat]
        self.history[seat] = replace(h, discarded=h.discarded | {card})
        self.shown.append(card)
        self.events.append({"seat": seat, "type": "discard", "card": code(card)})
        return card, "discard", seat, to_act

    def draw(self, seat: int) -> tuple[int, str, int, int] | None:
        """The seat turns up the next stock card at its own gate."""
        if self.drawn >= len(self.stock):
            return None
        card = CODES.index(self.stock[self.drawn])
        self.drawn += 1
        self.shown.append(card)
        self.events.append({"seat": seat, "type": "draw", "card": code(card)})
        return card, "stock", seat, seat

    def finish(self, seat: int, hand: ChanHand, context: dict[str, bool]) -> None:
        """Settle the win and record the result."""
        final = hand.all_counts()
        context["dealt_quad"] = any(n == 4 for n in self.dealt[seat])
        context["dealt_pair_became_quad"] = any(n == 2 and final[f] == 4 for f, n in enumerate(self.dealt[seat]))
        result = settle(hand, {k: v for k, v in context.items() if v}, self.options, SEATS, seat)
        self.result = {"type": "win", "winner": seat, "points": result.points, "deltas": list(result.deltas)}


def discards(view: SeatView) -> list[int]:
    """The faces the seat may discard (rules 2, 3, 6), each once."""
    return chan_ruleset(view.ruleset).legal_discards(ChanHand(tuple(tally(view.hand)), (), None), view.history)


def loose(view: SeatView) -> set[int]:
    """The seat's unpaired cards."""
    return set(pair_up(tally(view.hand)).unpaired)


#: The test bed's players at a Chắn table (`players.SimulatedPlayer`).
SIMULATED = SimulatedStyle("win", 0.6, discards, loose)
