"""Turn state machine of Chắn (docs/rules.md#chan-turn, docs/rules.md#chan-captures).

The dealer discards first (or wins with his initial 20 cards: Thiên ù). On his turn a player considers the
previous player's discard (capture it, or pass and turn up a stock card at his own gate); a stock card he
turns up may be captured by him, then by the next player. Claims on one public card (win on a stock card,
Chíu, captures) listed one after another are simultaneous: a win beats a Chíu beats a capture, ties in seat
order from the gate where the card lies. After a capture or a Chíu the taker discards once; an out-of-turn
Chíu sends that discard back to the interrupted gate. Passing up an available identical capture is inferred
when the card moves on untaken (rule 3). Each player's history (discards, passes, Cạ) feeds rules 3-6.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..rules.chan.captures import (
    NO_PAIR,
    PRIORITY,
    History,
    capture_rule_broken,
    discard_rule_broken,
    legal_discards,
    rule_number,
)
from ..rules.chan.cards import code, tally
from ..rules.chan.hand import ChanHand, evaluate_win
from ..rules.chan.pairs import Pair
from ..rules.errors import DomainError
from ..rules.text import stored, text
from .base import Stop, TurnReplay
from .log import Event, GameLog


@dataclass
class Public:
    """The card on offer: card, source (discard / stock), the gate it lies at, and the claims listed on it."""

    card: int
    source: str
    gate: int
    claims: list[Event] = field(default_factory=list)


class ChanReplay(TurnReplay):
    """Replays one Chắn round."""

    def __init__(self, log: GameLog) -> None:
        super().__init__(log)
        self.counts = [tally(h) for h in log.hands]
        self.dealt = [tally(h) for h in log.hands]
        self.exposed: list[list[Pair]] = [[] for _ in range(self.seats)]
        self.history = [History() for _ in range(self.seats)]
        self.public: Public | None = None
        self.to_discard = log.dealer
        self.resume: int | None = None  # the interrupted gate an out-of-turn Chíu's discard goes back to
        self.to_act: int | None = None  # who considers the public card / draws next
        self.opening = True
        dealer_hand = ChanHand(tuple(self.counts[log.dealer]), (), None)
        if not evaluate_win(dealer_hand).hu and not legal_discards(self.counts[log.dealer], History()):
            # "A dealer with neither a legal opening discard nor a heavenly win has a dead hand."
            self.history[log.dealer] = replace(self.history[log.dealer], dead_hand=True)
            self.to_discard, self.to_act = None, log.dealer

    def table(self) -> dict[str, Any]:
        """What a referee sees now: every seat's concealed cards and captured pairs, the card on offer."""
        public = None if self.public is None else {
            "card": code(self.public.card), "source": self.public.source, "seat": self.public.gate,
            "claims": len(self.public.claims)}
        return {"hands": [[code(face) for face, n in enumerate(counts) for _ in range(n)] for counts in self.counts],
                "exposed": [[{"kind": p.kind, "cards": [code(c) for c in p.cards]} for p in pairs]
                            for pairs in self.exposed],
                "public": public, "to_discard": self.to_discard}

    def run(self) -> None:
        """Replay every event, then decide the outcome."""
        try:
            for event in self.log.events:
                self.step(event)
            if self.public is not None and self.public.claims:
                self.resolve()
        except Stop:
            return
        if self.outcome is None:
            exhausted = self.log.stock is not None and self.drawn >= len(self.log.stock)
            over = exhausted and self.to_discard is None and self.public is not None
            self.outcome = {"type": "draw", "winner": None, "points": 0, "deltas": [0] * self.seats} if over \
                else {"type": "incomplete"}

    def step(self, event: Event) -> None:
        """One event."""
        if self.outcome is not None:
            self.flag(event, "event_after_end", text("the round is over"))
        if event.type in ("capture", "chiu", "win") and self.public is not None and self.to_discard is None:
            self.public.claims.append(event)
            return
        if self.public is not None and self.public.claims:
            self.resolve()
            if self.outcome is not None:
                self.flag(event, "event_after_end", text("the round ended with the win on the previous card"))
        if event.type == "win":
            self.heavenly(event)
        elif event.type in ("capture", "chiu"):
            self.flag(event, "claim_without_public_card", text("there is no public card to take"))
        elif event.type == "discard":
            self.discard(event)
        elif event.type == "draw":
            self.draw(event)
        else:
            self.pass_(event)

    # -- turn events ---------------------------------------------------------------------------------------
    def heavenly(self, event: Event) -> None:
        """Thiên ù: the dealer's initial 20 cards win before his first discard."""
        if not (self.opening and event.seat == self.log.dealer and self.to_discard == event.seat):
            self.flag(event, "out_of_turn", text("a win without a public card is only the dealer's opening Thiên ù"))
        hand = ChanHand(tuple(self.counts[event.seat]), (), None)
        if not evaluate_win(hand).hu:
            self.flag(event, "false_hu", text("the dealer's initial cards do not win"))
        self.finish(event.seat, hand, {"heavenly": True})

    def discard(self, event: Event) -> None:
        """A discard by the seat that must discard."""
        card = self.discarded_card(event, text("the card on offer awaits a capture or a draw"))
        broken = discard_rule_broken(self.counts[event.seat], card, self.history[event.seat])
        if broken is not None:
            rule = rule_number(broken)
            self.flag(event, broken,
                      text("seat {seat} may not discard {card} (rule {rule})", seat=event.seat, card=code(card),
                           rule=rule)
                      if rule else text("{card} is not in seat {seat}'s hand", card=code(card), seat=event.seat))
        if self.counts[event.seat][card]:
            self.discarding(event, card)
            self.counts[event.seat][card] -= 1
        history = self.history[event.seat]
        self.history[event.seat] = replace(history, discarded=history.discarded | {card})
        self.opening = False
        self.public = Public(card, "discard", event.seat)
        self.to_discard, self.losers = None, set()
        self.to_act = self.resume if self.resume is not None else (event.seat + 1) % self.seats
        self.resume = None

    def draw(self, event: Event) -> None:
        """A stock card turned up at the drawer's own gate: the card on offer moved on untaken."""
        if self.to_discard is not None:
            self.flag(event, "out_of_turn", text("seat {seat} must discard before anyone draws", seat=self.to_discard))
        expected = self.to_act
        if self.public is not None and self.public.source == "stock" and expected == self.public.gate:
            expected = (self.public.gate + 1) % self.seats  # the gate owner passed; the next player passed too
        if event.seat != expected:
            self.flag(event, "draw_out_of_order",
                      text("seat {due} turns up the next card, not seat {seat}", due=expected,
                           seat=event.seat))
        if self.public is not None:
            self.offered(self.public, [])
            self.passed(self.public)
        card = self.stock_card(event, code)
        self.opening = False
        self.public = Public(card, "stock", event.seat)
        self.to_act = event.seat

    def pass_(self, event: Event) -> None:
        """An explicit pass on the card on offer (the gate owner on his stock card, or the next player)."""
        if self.public is None or self.to_discard is not None:
            self.flag(event, "out_of_turn", text("there is nothing to pass on"))

    def passed(self, public: Public, seats: list[int | None] | None = None) -> None:
        """Rule 3: players who could capture the untaken card identically and did not, passed it up."""
        if seats is None:
            seats = [public.gate, (public.gate + 1) % self.seats] if public.source == "stock" else [self.to_act]
        for seat in seats:
            if seat is None or self.history[seat].dead_hand:
                continue
            if self.counts[seat][public.card] and capture_rule_broken(
                    self.counts[seat], public.card, public.card, self.history[seat]) is None:
                history = self.history[seat]
                self.history[seat] = replace(history, passed_identical=history.passed_identical | {public.card})

    # -- claims --------------------------------------------------------------------------------------------
    def offered(self, public: Public, claims: list[Event]) -> None:
        """Hook: the card was offered and these claims were made (review subclasses)."""

    def role(self, seat: int, public: Public) -> str:
        """drawer / next / other / discarder on this card."""
        if public.source == "stock":
            return "drawer" if seat == public.gate else "next" if seat == (public.gate + 1) % self.seats else "other"
        if seat == public.gate:
            return "discarder"
        return "next" if seat == self.to_act else "other"

    def resolve(self) -> None:
        """Resolve the simultaneous claims on the card: win > Chíu > capture, ties from the gate."""
        public = self.public
        assert public is not None
        self.offered(public, public.claims)
        legal = []
        for claim in public.claims:
            rank = self.legal_claim(claim, public)
            if rank is not None:
                legal.append((-rank, (claim.seat - public.gate) % self.seats, claim))
        public.claims = []
        if not legal:
            return
        legal.sort(key=lambda item: (item[0], item[1]))
        winner = legal[0][2]
        self.losers = {item[2].seat for item in legal[1:]}
        seat, card = winner.seat, public.card
        if winner.type == "win":
            by_chiu = self.counts[seat][card] == 3
            hand = ChanHand(tuple(self.counts[seat]), tuple(self.exposed[seat]), card)
            self.finish(seat, hand, {"own_gate": public.source == "stock" and seat == public.gate,
                                     "by_chiu": by_chiu and public.source != "stock",
                                     "chiu_on_dealt_triple": by_chiu and public.source != "stock"
                                     and self.dealt[seat][card] == 3})
            return
        if public.source == "stock" and seat != public.gate:
            # docs/rules.md#chan-turn: the next player may then capture the card the drawer passed (rule 3).
            self.passed(public, [public.gate])
        history = self.history[seat]
        if winner.type == "chiu":
            self.counts[seat][card] -= 3
            self.exposed[seat].append(Pair("chiu", (card,) * 4, False))
            interrupted = self.to_act
            self.resume = interrupted if interrupted is not None and interrupted != seat else None
        else:
            assert winner.meld is not None and winner.cards is not None  # legal_claim checked the capture
            mate = next(c for c in winner.cards if c != card) if winner.meld == "ca" else card
            self.counts[seat][mate] -= 1
            self.exposed[seat].append(Pair(winner.meld, tuple(sorted((card, mate))), False))
            if winner.meld == "ca":
                self.history[seat] = replace(history, captured_ca=True,
                                             played_into_ca=history.played_into_ca | {mate})
        self.public, self.to_discard = None, seat

    def legal_claim(self, claim: Event, public: Public) -> int | None:
        """The priority of a logged claim if it is legal, else None after flagging why."""
        seat, card = claim.seat, public.card
        counts, history = self.counts[seat], self.history[seat]
        if history.dead_hand:
            self.flag(claim, "dead_hand_move", text("seat {seat} has a dead hand: he only draws", seat=seat))
            return None
        role = self.role(seat, public)
        if claim.type == "win":
            hand = ChanHand(tuple(counts), tuple(self.exposed[seat]), card)
            if not evaluate_win(hand).hu:
                self.flag(claim, "false_hu",
                          text("seat {seat}'s cards with {card} do not win", seat=seat, card=code(card)))
                return None
            if public.source != "stock" and counts[card] != 3:
                self.flag(claim, "win_on_discard", text("only a turned-up stock card can be won on (or a Chíu)"))
                return None
            return PRIORITY["win"] if public.source == "stock" else PRIORITY["chiu"]
        if claim.type == "chiu":
            if counts[card] != 3 or role == "discarder":
                self.flag(claim, "false_chiu",
                          text("seat {seat} does not hold three {card}", seat=seat, card=code(card)))
                return None
            return PRIORITY["chiu"]
        if role not in ("drawer", "next"):
            self.flag(claim, "ineligible_claim",
                      text("seat {seat} ({role}) may not capture {card} now", seat=seat, role=role,
                           card=code(card)))
            return None
        cards = sorted(claim.cards or ())
        if len(cards) != 2 or card not in cards or claim.meld not in ("chan", "ca"):
            self.flag(claim, "invalid_meld", text("a capture pairs {card} with one hand card", card=code(card)))
            return None
        cards.remove(card)
        broken = capture_rule_broken(counts, card, cards[0], history)
        kind = "chan" if cards[0] == card else "ca"
        if broken is None and kind != claim.meld:
            broken = NO_PAIR
        if broken is not None:
            rule = rule_number(broken)
            self.flag(claim, broken,
                      text("seat {seat} may not capture {card} with {other} (capture rule {rule})", seat=seat,
                           card=code(card), other=code(cards[0]), rule=rule)
                      if rule else text("seat {seat} may not capture {card} with {other}", seat=seat, card=code(card),
                                        other=code(cards[0])))
            return None
        return PRIORITY["capture"]

    # -- the end -------------------------------------------------------------------------------------------
    def finish(self, seat: int, hand: ChanHand, context: dict[str, bool]) -> None:
        """Settle the win with the context the replay knows (gate, Chíu, facts of the deal)."""
        final = hand.all_counts()
        dealt = self.dealt[seat]
        context["dealt_quad"] = any(n == 4 for n in dealt)
        context["dealt_pair_became_quad"] = any(n == 2 and final[f] == 4 for f, n in enumerate(dealt))
        self.outcome = {"type": "win", "winner": seat, "points": None, "deltas": None, "breakdown": []}
        if not evaluate_win(hand).hu:
            return
        from ..rules.chan.scoring import settle

        try:
            result = settle(hand, {k: v for k, v in context.items() if v}, self.options, self.seats, seat)
        except DomainError:
            # Only an illegal log gets here (say a dealt quad broken against rule 2, then a win): its violations
            # say what went wrong, and there is no score to give; an audit reports, it does not fail.
            return
        self.outcome = {
            "type": "win", "winner": seat, "points": result.points, "deltas": list(result.deltas),
            "breakdown": [{"step": li.step, **stored("text", li.text), "points": li.points} for li in result.breakdown],
        }
