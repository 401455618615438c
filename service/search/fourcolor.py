"""Fast playouts of Four Color Cards (bga-taiwan, cardavia-flowers), from the player's discard to the end of the round.

Turn order (docs/rules.md#fc-turn and docs/rules.md#fl-deal, as `service/replay/fourcolor.py` replays
it): every seat answers each public card at once and the best claim takes it (bga-taiwan: hu > quad/triple >
chi-type; flowers: the drawer's win, other wins, triples/quads, the drawer's meld, the next player's mixed meld),
ties in seat order from the drawer (drawn card) or the seat after the discarder; the claimant exposes the meld
and discards; when nobody claims, the next seat turns up the next stock card. A General (flowers: or flower) turned
up must be taken by the drawer unless a higher claim takes it. Flowers: a drawn card nobody takes becomes the
drawer's discard, whose claims are a subset of the drawn card's, so one resolution serves both. A seat that must
discard but holds only Generals (and flowers) ends the round as his hu. Stock exhausted: a draw, nobody scores.

Every seat plays `player.py`'s policy (his claims: `fourcolor_table.py`), each with his own planner and view: he
wins whenever it pays him (bga-taiwan: never a hu under the threshold; flowers without payments: every win); he
claims a meld only when, after his best discard, his distance to a win goes down, and a General (flower) he must
take goes into the meld that leaves the best hand; he discards the top option of the exact analysis. A seat
answers only the public cards that win his hand at rest or improve it (its waits and improving cards).

Settlement is the engine's (`rules/fourcolor/settle.py`): bga-taiwan with the lucky card = the next stock card,
flowers with its payment option.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..rules.fourcolor.cards import N_KINDS, code
from ..rules.fourcolor.distance import distance as structural_distance
from ..rules.fourcolor.melds import Meld
from .deal import Deal, Outcome
from .exact import tally
from .fourcolor_table import DISCARD, DRAW, FourColorTable
from .player import Answer, Hold, Turns
from .shaping import Distance


def counted(cards: Sequence[int]) -> tuple[int, ...]:
    """The count of each card among `cards` (28 chess cards, then the 5 flowers)."""
    counts = [0] * (N_KINDS + 5)
    for card in cards:
        counts[card] += 1
    return tuple(counts)


def resting(table: FourColorTable, seat: int, cards: tuple[int, ...], exposed: tuple[Meld, ...]) -> Hold:
    """The other seat's dealt hand at rest, as his planner sees it (memoised)."""
    return table.planners[seat].rest(counted(cards), exposed)


class Round(Turns):
    """One playout: the table's state from the player's discard to the end of the round."""

    def __init__(self, table: FourColorTable, deal: Deal, rng: random.Random, log: list[dict] | None,
                 expired: Callable[[], bool] | None = None) -> None:
        self.table, self.rng, self.log, self.show, self.expired = table, rng, log, code, expired
        self.deal, self.stock, self.drawn = deal, deal.stock, 0

    def play(self, candidate: int) -> Outcome:
        """Discard `candidate`, then offer public cards until a hu or the end of the stock."""
        table, me, stock, offer = self.table, self.table.seat, self.stock, self.offer
        opponents = table.position.opponents
        self.holds = [table.start.holds[candidate] if s == me else
                      resting(table, s, self.deal.hands[s], tuple(opponents[s])) for s in range(table.seats)]
        self.record(me, "discard", candidate)
        x, source, origin = candidate, DISCARD, me
        while True:
            claim = offer(x, source, origin)
            if claim is None:
                if self.drawn >= len(stock):
                    return Outcome(False, 0)  # docs/rules.md#fc-stock-exhausted: a draw
                self.tick()
                x, source, origin = stock[self.drawn], DRAW, (origin + 1) % table.seats
                self.drawn += 1
                if self.log is not None:
                    self.record(origin, "draw", x)
                continue
            seat, answer = claim
            if answer.kind == "hu":
                self.record(seat, "hu")
                return self.hu(seat, x)
            taken = self.take(seat, answer)
            if isinstance(taken, Outcome):
                return taken
            x, source, origin = taken, DISCARD, seat

    def offer(self, x: int, source: str, origin: int) -> tuple[int, Answer] | None:
        """Every seat answers the public card; the best claim, ties to the first in seat order."""
        table, holds = self.table, self.holds
        forced = table.forced[x]
        best: tuple[int, Answer] | None = None
        top = 0
        for s, role in table.turns[source][origin]:
            hold = holds[s]
            if x not in hold.waits and x not in hold.improving and not (forced and role == "drawer"):
                continue  # what `FourColorTable.answer` says without its memo: no win, no claim worth taking
            answers = hold.answers
            key = (x, role)
            answer = answers[key] if key in answers else table.answer(hold, x, role, s)
            if answer is not None and answer.priority > top:
                best, top = (s, answer), answer.priority
        return best

    def take(self, s: int, answer: Answer) -> int | Outcome:
        """Seat `s` exposes the meld of `answer` and discards; the discard, or the outcome of a forced hu."""
        if self.log is not None:
            self.record(s, "claim", meld=answer.kind, cards=[code(c) for c in answer.meld.cards])
        assert answer.plan is not None  # Four Color plans are made as the claim is chosen (`Planner.choose`)
        plan = self.table.planners[s].resolve(answer.plan)
        if plan.discard is None:
            # docs/rules.md#fc-generals-end: "A player who must discard but holds only Generals (or nothing) ends the
            # round".
            return self.settle(s, plan.counts, plan.exposed, None)
        return self.follow(s, plan)

    def hu(self, s: int, x: int) -> Outcome:
        """Seat `s` wins on public card `x`."""
        hold = self.holds[s]
        return self.settle(s, hold.counts, hold.exposed, x)

    def settle(self, s: int, counts: Any, exposed: tuple[Meld, ...], x: int | None) -> Outcome:
        """The player's outcome of seat `s`'s hu (bga-taiwan: the lucky card is the next stock card)."""
        me = self.table.seat
        lucky = self.stock[self.drawn] if self.drawn < len(self.stock) else None
        settled = self.table.settle(counts, exposed, x, s, lucky)
        return Outcome(s == me, settled.deltas[me], settled.points if s == me else 0)


def seat_distance(table: FourColorTable) -> Distance:
    """A seat's structural distance to a win (`rules/fourcolor/distance.py`: the fewest concealed cards to replace
    so that one more card completes the hand) holding these concealed cards beside its exposed melds: what
    `shaping.py` improves the other seats' dealt hands by."""
    rules, opponents = table.rules, table.position.opponents

    def distance(seat: int, cards: Sequence[int]) -> int:
        return structural_distance(tally(counted(cards)), rules, opponents[seat])

    return distance


def playout(table: FourColorTable, candidate: int, deal: Deal, rng: random.Random,
            log: list[dict] | None = None, expired: Callable[[], bool] | None = None) -> Outcome:
    """Play the rest of the round from the player's discard of `candidate` on `deal`; `log` collects the events.
    Raises `OutOfTime` at the first turn after `expired()` says the search's time is spent."""
    return Round(table, deal, rng, log, expired).play(candidate)
