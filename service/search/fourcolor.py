"""Fast playouts of Four Color Cards (bga-taiwan, cardavia-flowers), from the player's discard to the end of the round.

Turn order (docs/rules.md#fc-turn and docs/rules.md#fl-deal, as `service/replay/fourcolor.py` replays
it): every seat answers each public card at once and the best claim takes it (bga-taiwan: hu > quad/triple >
chi-type; flowers: the drawer's win, other wins, triples/quads, the drawer's meld, the next player's mixed meld),
ties in seat order from the drawer (drawn card) or the seat after the discarder; the claimant exposes the meld
and discards; when nobody claims, the next seat turns up the next stock card. A General (flowers: or flower) turned
up must be taken by the drawer unless a higher claim takes it. Flowers: a drawn card nobody takes becomes the
drawer's discard, whose claims are a subset of the drawn card's, so one resolution serves both. A seat that must
discard but holds only Generals (and flowers) ends the round as his hu. Stock exhausted: a draw, nobody scores.

Opponent policy ("opponents-greedy-melds"): he wins whenever it is legal and pays him (bga-taiwan: hu points at
least the threshold, the mirror of the player's rule; flowers without payments: every win); he claims a triple
or quad when he holds the pair (a quad with three); a General (flower) he must take becomes a single `general`
(`flower`) meld; he makes no other claim; he discards a random card that is in no meld of his hand, otherwise a
random legal card (never a General or a flower). His win test runs only on the public cards that may complete
his hand (`shapes.py`), once per card and hand.

The player's policy is `player.py`'s (his claims: `fourcolor_table.py`). Settlement is the engine's
(`rules/fourcolor/settle.py`): bga-taiwan with the lucky card = the next stock card, flowers with its payment option.
"""

from __future__ import annotations

import random
from typing import Any

from ..rules.fourcolor.cards import N_KINDS, code
from ..rules.fourcolor.melds import Meld
from .deal import Deal, Outcome
from .fourcolor_table import DISCARD, DRAW, FourColorTable
from .player import Answer, Plan, Turns
from .shapes import DISCARDABLE


class Seat:
    """An opponent in a playout: his cards, his exposed melds, and the cards that may complete his hand."""

    __slots__ = ("counts", "exposed", "loose", "wins", "tested")

    def __init__(self, table: FourColorTable, cards: tuple[int, ...], exposed: tuple[Meld, ...]) -> None:
        self.counts = [0] * (N_KINDS + 5)
        for card in cards:
            self.counts[card] += 1
        self.exposed = list(exposed)
        self.changed(table, table.shapes.loose(self.counts))

    def changed(self, table: FourColorTable, loose: list[int]) -> None:
        """The hand changed: its cards in no meld, and the win filter they give."""
        self.loose = loose
        self.wins = table.shapes.wins_with(self.counts, loose)
        self.tested: dict[int, int] = {}


class Round(Turns):
    """One playout: the table's state from the player's discard to the end of the round."""

    def __init__(self, table: FourColorTable, deal: Deal, rng: random.Random, log: list[dict] | None) -> None:
        self.table, self.rng, self.log, self.show = table, rng, log, code
        position = table.position
        self.others = [None if s == table.seat else Seat(table, deal.hands[s], position.opponents[s])
                      for s in range(table.seats)]
        self.stock, self.drawn = deal.stock, 0

    def play(self, candidate: int) -> Outcome:
        """Discard `candidate`, then offer public cards until a hu or the end of the stock."""
        table, me, stock, offer = self.table, self.table.seat, self.stock, self.offer
        self.hold = table.start.holds[candidate]
        self.record(me, "discard", candidate)
        x, source, origin = candidate, DISCARD, me
        while True:
            claim = offer(x, source, origin)
            if claim is None:
                if self.drawn >= len(stock):
                    return Outcome(False, 0)  # docs/rules.md#fc-stock-exhausted: a draw
                x, source, origin = stock[self.drawn], DRAW, (origin + 1) % table.seats
                self.drawn += 1
                if self.log is not None:
                    self.record(origin, "draw", x)
                continue
            seat, answer = claim
            if answer.kind == "hu":
                self.record(seat, "hu")
                return self.hu(seat, x)
            taken = self.take(seat, answer, x)
            if isinstance(taken, Outcome):
                return taken
            x, source, origin = taken, DISCARD, seat

    def offer(self, x: int, source: str, origin: int) -> tuple[int, Answer] | None:
        """Every seat answers the public card; the best claim, ties to the first in seat order."""
        table, me, others = self.table, self.table.seat, self.others
        forced = table.forced[x]
        best: tuple[int, Answer] | None = None
        top = 0
        for s, role in table.turns[source][origin]:
            if s == me:
                answers = self.hold.answers
                key = (x, role)
                answer = answers[key] if key in answers else table.answer(self.hold, x, role)
            else:
                seat = others[s]
                assert seat is not None  # only the player's own seat is None
                wins = seat.wins
                if wins is not None and x not in wins:
                    # no win can use `x`: only a triple/quad on his pair or a forced take
                    held = seat.counts[x]
                    if held < 2 and forced is None:
                        continue
                    answer = table.identical[x][held]
                    if answer is None and role == "drawer":
                        answer = forced
                else:
                    answer = self.opponent_answer(seat, x, role)
            if answer is not None and answer.priority > top:
                best, top = (s, answer), answer.priority
        return best

    def opponent_answer(self, seat: Seat, x: int, role: str) -> Answer | None:
        """The opponent's claim: a win that pays him, else a triple/quad on his pair, else a forced take."""
        table = self.table
        if seat.wins is None or x in seat.wins:
            points = seat.tested.get(x)
            if points is None:
                points = seat.tested[x] = table.hu_points(seat.counts, seat.exposed, x)
            if points >= 0 and table.pays(points):
                return Answer(table.hu_rank[role], "hu")
        found = table.identical[x][seat.counts[x]]
        if found is None and role == "drawer":
            found = table.forced[x]
        return found

    def take(self, s: int, answer: Answer, x: int) -> int | Outcome:
        """Seat `s` exposes the meld of `answer` and discards; the discard, or the outcome of a forced hu."""
        table = self.table
        if self.log is not None:
            self.record(s, "claim", meld=answer.kind, cards=[code(c) for c in answer.meld.cards])
        if s == table.seat:
            plan = answer.plan
            assert isinstance(plan, Plan)  # Four Color plans are made as the claim is chosen (`Planner.choose`)
            if plan.discard is None:
                return self.settle(s, plan.counts, plan.exposed, None)
            return self.follow(s, plan)
        seat = self.others[s]
        assert seat is not None  # only the player's own seat is None
        counts = seat.counts
        for c in answer.used:
            counts[c] -= 1
        seat.exposed.append(answer.meld)
        loose = table.shapes.loose(counts)
        choices = loose or [c for c in DISCARDABLE if counts[c]]
        if not choices:
            # docs/rules.md#fc-generals-end: "A player who must discard but holds only Generals (or nothing) ends the
            # round".
            return self.settle(s, counts, tuple(seat.exposed), None)
        card = self.rng.choice(choices)  # in no meld of his hand if he can: then no meld loses a card
        counts[card] -= 1
        seat.changed(table, [k for k in loose if counts[k]] if loose else table.shapes.loose(counts))
        if self.log is not None:
            self.record(s, "discard", card)
        return card

    def hu(self, s: int, x: int) -> Outcome:
        """Seat `s` wins on public card `x`."""
        if s == self.table.seat:
            return self.settle(s, self.hold.counts, self.hold.exposed, x)
        seat = self.others[s]
        assert seat is not None  # only the player's own seat is None
        return self.settle(s, seat.counts, tuple(seat.exposed), x)

    def settle(self, s: int, counts: Any, exposed: tuple[Meld, ...], x: int | None) -> Outcome:
        """The player's outcome of seat `s`'s hu (bga-taiwan: the lucky card is the next stock card)."""
        me = self.table.seat
        lucky = self.stock[self.drawn] if self.drawn < len(self.stock) else None
        settled = self.table.settle(counts, exposed, x, s, lucky)
        return Outcome(s == me, settled.deltas[me], settled.points if s == me else 0)


def playout(table: FourColorTable, candidate: int, deal: Deal, rng: random.Random,
            log: list[dict] | None = None) -> Outcome:
    """Play the rest of the round from the player's discard of `candidate` on `deal`; `log` collects the events."""
    return Round(table, deal, rng, log).play(candidate)
