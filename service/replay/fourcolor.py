"""Turn state machine of Four Color Cards (docs/rules.md#fc-turn and docs/rules.md#fl-deal).

The replay walks the events, keeps every seat's concealed cards and exposed melds, the public card and the
stock, and reports each illegal move as a Violation. Claims on one public card are collected until the next
other event, then resolved by priority (hu > quad/triple > chi-type; flowers: drawer's win, other wins,
triples/quads, drawer's meld, next player's mixed meld), ties by seat order from the drawer (drawn card) or the
player after the discarder. A flowers drawn card nobody takes becomes the drawer's discard and is offered
again; its legal claims are a subset of the first offer's, so both offers resolve as one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..rules.fourcolor.cards import GENERAL, Tally, character_of, code, is_flower
from ..rules.fourcolor.claims import Claim
from ..rules.fourcolor.hand import FourColorHand
from ..rules.fourcolor.melds import Meld, classify
from ..rules.fourcolor.rulesets import fourcolor_ruleset
from ..rules.text import stored, text
from .base import Stop, TurnReplay
from .log import Event, GameLog

#: Chess cards that may be discarded: every character but the General (flowers never).
DISCARDABLE = tuple(c for c in range(28) if c % 7 != GENERAL)


@dataclass
class Public:
    """The card on offer: the card, where it came from (discard or draw) and the seat it came from."""

    card: int
    source: str
    seat: int
    claims: list[Event] = field(default_factory=list)


class FourColorReplay(TurnReplay):
    """Replays one Four Color Cards round."""

    def __init__(self, log: GameLog) -> None:
        super().__init__(log)
        self.ruleset = fourcolor_ruleset(log.ruleset)
        self.rules = self.ruleset.meld_rules(self.options)
        self.flowers = self.ruleset.has_flowers
        self.hands = [Tally.of(h) for h in log.hands]
        self.exposed: list[list[Meld]] = [[] for _ in range(self.seats)]
        self.public: Public | None = None
        # docs/rules.md#fc-deal: a dealer dealt the extra card starts by discarding; else he draws first.
        opens = self.ruleset.dealer_extra_card
        self.to_discard = log.dealer if opens else None
        self.next_drawer: int | None = None if opens else log.dealer

    # -- helpers -------------------------------------------------------------------------------------------
    def hand_of(self, seat: int, public: int | None) -> FourColorHand:
        """A seat's cards as the engine's hand."""
        return FourColorHand(self.hands[seat], tuple(self.exposed[seat]), public)

    def table(self) -> dict[str, Any]:
        """What a referee sees now: every seat's concealed cards and exposed melds, the card on offer."""
        public = None if self.public is None else {
            "card": code(self.public.card), "source": self.public.source, "seat": self.public.seat,
            "claims": len(self.public.claims)}
        return {"hands": [[code(c) for c in hand.cards()] for hand in self.hands],
                "exposed": [[{"kind": m.kind, "cards": m.codes()} for m in melds] for melds in self.exposed],
                "public": public, "to_discard": self.to_discard}

    def run(self) -> None:
        """Replay every event, then decide the outcome."""
        try:
            for event in self.log.events:
                self.step(event)
            if self.public is not None and self.public.claims:
                self.resolve(None)
        except Stop:
            return
        if self.outcome is None:
            exhausted = self.log.stock is not None and self.drawn >= len(self.log.stock)
            waiting = self.public is not None and self.to_discard is None
            self.outcome = ({"type": "draw", "winner": None, "points": 0, "deltas": [0] * self.seats}
                            if exhausted and waiting else {"type": "incomplete"})

    def step(self, event: Event) -> None:
        """One event."""
        if self.outcome is not None:
            self.flag(event, "event_after_end", text("the round is over"))
        if event.type in ("claim", "hu") and self.public is not None and self.to_discard is None:
            self.public.claims.append(event)
            return
        if self.public is not None and self.public.claims:
            self.resolve(event)
            if self.outcome is not None:
                self.flag(event, "event_after_end", text("the round ended with the hu on the previous card"))
        if event.type == "hu":
            self.hu_without_card(event)
        elif event.type == "claim":
            self.flag(event, "claim_without_public_card", text("there is no public card to claim"))
        elif event.type == "discard":
            self.discard(event)
        else:
            self.draw(event)

    # -- events --------------------------------------------------------------------------------------------
    def hu_without_card(self, event: Event) -> None:
        """The dealer's heavenly hu on his initial 21 cards (bga), before his first discard."""
        if event.seat != self.to_discard or self.public is not None:
            self.flag(event, "out_of_turn",
                      text("hu without a public card is only the dealer's, before his first discard"))
        hand = self.hand_of(event.seat, None)
        if not self.ruleset.hu(hand, self.options).hu:
            self.flag(event, "false_hu", text("the hand does not split entirely into melds"))
        self.finish_hu(event.seat, hand)

    def discard(self, event: Event) -> None:
        """A discard by the seat whose turn it is (the dealer's opening or after a claim)."""
        card = self.discarded_card(event, text("the public card awaits claims or a draw"))
        hand = self.hands[event.seat]
        if hand.count(card):
            self.discarding(event, card)
        if hand.count(card) == 0:
            self.flag(event, "not_in_hand",
                      text("{card} is not in seat {seat}'s hand", card=code(card), seat=event.seat))
        else:
            hand.remove(card)
        if is_flower(card):
            self.flag(event, "flower_discard", text("flowers can never be discarded"))
        elif character_of(card) == GENERAL:
            self.flag(event, "general_discard", text("Generals can never be discarded"))
        self.public, self.to_discard, self.losers = Public(card, "discard", event.seat), None, set()
        self.next_drawer = (event.seat + 1) % self.seats

    def draw(self, event: Event) -> None:
        """The next stock card turned up by the seat whose turn it is."""
        if self.to_discard is not None:
            if self.ruleset.dealer_extra_card and self.public is None and not any(self.exposed):
                # docs/rules.md#fc-deal: "The dealer starts by discarding" (bga-taiwan; the flowers dealer draws).
                self.flag(event, "opening_not_discard", text("the dealer starts by discarding (or declares hu)"))
            self.flag(event, "out_of_turn", text("seat {seat} must discard before anyone draws", seat=self.to_discard))
        if self.public is not None:
            self.offered(self.public, [])
            if self.public.source == "draw":
                self.check_taken(event, self.public)
        if event.seat != self.next_drawer:
            self.flag(event, "draw_out_of_order",
                      text("seat {due} turns up the next card, not {seat}", due=self.next_drawer,
                           seat=event.seat))
        card = self.stock_card(event, code)
        self.public = Public(card, "draw", event.seat)
        self.next_drawer = (event.seat + 1) % self.seats

    def check_taken(self, event: Event, public: Public) -> None:
        """A turned-up General (flowers: or flower) left unclaimed breaks the must-take rule."""
        if self.must_take(public.card):
            self.flag(event, "general_not_taken",
                      text("seat {seat} turned up {card} and had to take it", seat=public.seat,
                           card=code(public.card)))

    def must_take(self, card: int) -> bool:
        """docs/rules.md#fc-must-take: a player who turns up a General must take it; flowers: a General or a flower
        (option, docs/rules.md#fl-must-take)."""
        if self.flowers:
            return (is_flower(card) or character_of(card) == GENERAL) and self.ruleset.must_take_on(self.options)
        return character_of(card) == GENERAL

    def check_drawer_took(self, public: Public, winner: Event, claim: Any) -> None:
        """A must-take card won by another seat's claim: only a higher priority than the drawer's own take
        may take it (docs/rules.md#fc-must-take: "unless someone claims it with a higher priority")."""
        if public.source != "draw" or winner.seat == public.seat or not self.must_take(public.card):
            return
        taking = self.ruleset.claim_class("flower" if is_flower(public.card) else "general", "drawer")
        if taking is not None and claim.priority <= taking[1]:
            self.flag(winner, "general_not_taken",
                      text("seat {seat} turned up {card} and had to take it; seat {winner}'s {kind} is no higher claim",
                           seat=public.seat, card=code(public.card), winner=winner.seat,
                           kind=claim.kind))

    # -- claims --------------------------------------------------------------------------------------------
    def offered(self, public: Public, claims: list[Event]) -> None:
        """Hook: the public card was offered to every seat and these claims were made (review subclasses)."""

    def role(self, seat: int, public: Public) -> str:
        """drawer / next / other / discarder for a seat on this public card."""
        if seat == public.seat:
            return "drawer" if public.source == "draw" else "discarder"
        return "next" if seat == (public.seat + 1) % self.seats else "other"

    def resolve(self, after: Event | None) -> None:
        """Resolve the simultaneous claims on the public card by priority and seat order."""
        public = self.public
        assert public is not None
        legal: list[tuple[int, int, Event, Any]] = []
        start = public.seat if public.source == "draw" else (public.seat + 1) % self.seats
        self.offered(public, public.claims)
        for claim in public.claims:
            found = self.legal_claim(claim, public)
            if found is not None:
                legal.append((-found.priority, (claim.seat - start) % self.seats, claim, found))
        public.claims = []
        if not legal:
            return
        legal.sort(key=lambda item: (item[0], item[1]))
        _, _, winner, claim = legal[0]
        self.losers = {item[2].seat for item in legal[1:]}
        self.check_drawer_took(public, winner, claim)
        if claim.kind == "hu":
            self.finish_hu(winner.seat, self.hand_of(winner.seat, public.card))
            return
        used = list(claim.meld.cards)
        used.remove(public.card)
        for card in used:
            self.hands[winner.seat].remove(card)
        self.exposed[winner.seat].append(claim.meld)
        self.public, self.to_discard = None, winner.seat
        counts = self.hands[winner.seat].counts
        if not any(counts[c] for c in DISCARDABLE):
            # "A player who must discard but holds only Generals (or nothing) ends the round: his hu."
            self.finish_hu(winner.seat, self.hand_of(winner.seat, None))

    def legal_claim(self, claim: Event, public: Public) -> Any:
        """The engine's matching legal claim, or None after flagging why the logged claim is not legal."""
        role = self.role(claim.seat, public)
        if claim.type == "hu" and role == "discarder":
            self.flag(claim, "own_discard_claim", text("seat {seat} cannot take back his own discard", seat=claim.seat))
            return None
        if claim.type == "hu":
            legal = [] if role == "discarder" else self.ruleset.legal_claims(
                self.hand_of(claim.seat, public.card), role, self.options)[0]
            hu = [c for c in legal if c.kind == "hu"]
            if not hu:
                self.flag(claim, "false_hu", text("seat {seat}'s hand plus {card} does not split entirely into melds",
                                                  seat=claim.seat, card=code(public.card)))
            return hu[0] if hu else None
        cards = tuple(sorted(claim.cards or ()))
        meld = claim.meld
        if meld is None or classify(cards, self.rules) != meld or public.card not in cards:
            # docs/rules.md#logs-claims: the claimed cards form the meld the claim names; a claim naming none fails
            # here too, whatever its cards form.
            named = text("a {meld}", meld=meld) if meld else text("a named meld")
            self.flag(claim, "invalid_meld", text("{cards} with the public card {card} is not {named}",
                                                  cards=" ".join(code(c) for c in cards), card=code(public.card),
                                                  named=named))
            return None
        needed = list(cards)
        needed.remove(public.card)
        if any(needed.count(c) > self.hands[claim.seat].count(c) for c in set(needed)):
            self.flag(claim, "not_in_hand",
                      text("seat {seat} does not hold the cards of this {meld}", seat=claim.seat, meld=meld))
            return None
        allowed = self.ruleset.claim_class(meld, role)
        if allowed is None:
            code_ = "own_discard_claim" if role == "discarder" else "ineligible_claim"
            self.flag(claim, code_, text("seat {seat} ({role}) may not claim a {meld} on {card}", seat=claim.seat,
                                           role=role, meld=meld, card=code(public.card)))
            return None
        return Claim(meld, Meld(meld, cards, concealed=False), allowed[0], allowed[1], 0)

    # -- the end -------------------------------------------------------------------------------------------
    def finish_hu(self, seat: int, hand: FourColorHand) -> None:
        """Settle the round as `seat`'s hu (bga: lucky card = the next stock card, if any)."""
        stock = self.log.stock
        lucky = None
        if self.ruleset.lucky_card and stock is not None and self.drawn < len(stock):
            lucky = code(stock[self.drawn])
        if not self.ruleset.hu(hand, self.options).hu:
            self.outcome = {"type": "hu", "winner": seat, "points": None, "deltas": None, "breakdown": []}
            return
        result = self.ruleset.settle(hand, self.options, self.seats, seat, lucky)
        self.outcome = {
            "type": "hu", "winner": seat, "points": result.points, "deltas": list(result.deltas),
            "breakdown": [{"step": li.step, **stored("text", li.text), "points": li.points} for li in result.breakdown],
        }
