"""Fast playouts of Chắn (cardavia-chan), from the player's discard to the end of the round.

Turn order (docs/rules.md#chan-turn, as `service/replay/chan.py` replays it): the card on offer lies at a
gate; every seat answers it at once: a win on a turned-up stock card, then a Chíu, then a capture by the seat
whose turn it is (the next player on a discard; the drawer, then the next player, on a stock card), ties in seat
order from the gate. A capture or Chíu exposes the pair and the taker discards; after an out-of-turn Chíu that
discard goes back to the interrupted gate. When nobody takes the card, the seat to act turns up a stock card at
his own gate. A win is only on a turned-up stock card, or completed at once by a Chíu. Capture rules 1-7 hold for
every seat: each keeps his history (discards, identical captures passed up, Cạ) as the replay infers it.
Stock exhausted: a draw, nobody scores.

Every seat plays `player.py`'s policy (his answers: `chan_table.py`), each with his own planner and view: he wins
whenever it is legal; he claims a Chíu or a capture (Cạ too) only when, after his best discard, his distance to a
win goes down; he discards the top option of the exact analysis. A seat answers only the cards that win his hand
at rest or improve it (its waits and improving cards). The position does not say what each other seat did before,
so their histories start clean; nor where play resumes after the player's discard, so it goes to the next seat
(after his out-of-turn Chíu it would go back to the interrupted gate).

Settlement is the engine's (`rules/chan/scoring.py`): Ù chì on one's own gate, a Chíu-completed win (Chíu ù on
a triple held at the start), and the bonuses of the initial deal (Thiên khai, Bòn) read from the cards each seat
holds when the playout starts (exact for quads and triples, which concealed hands never lose).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..rules.chan.captures import History
from ..rules.chan.cards import N_FACES, code
from ..rules.chan.distance import distance as structural_distance
from ..rules.chan.hand import ChanHand
from ..rules.chan.scoring import settle
from .chan_table import DISCARD, SEATS, STOCK, ChanTable
from .deal import Deal, Outcome
from .player import Answer, Hold, Turns
from .shaping import Distance


def role_of(seat: int, source: str, gate: int, to_act: int) -> str:
    """drawer / next / other on a stock card; discarder / next (the seat to act) / other on a discard."""
    if source == STOCK:
        return "drawer" if seat == gate else "next" if seat == (gate + 1) % SEATS else "other"
    return "discarder" if seat == gate else "next" if seat == to_act else "other"


def counted(cards: Sequence[int]) -> tuple[int, ...]:
    """The count of each face among `cards`."""
    counts = [0] * N_FACES
    for card in cards:
        counts[card] += 1
    return tuple(counts)


class Round(Turns):
    """One playout: the table's state from the player's discard to the end of the round."""

    def __init__(self, table: ChanTable, deal: Deal, rng: random.Random, log: list[dict] | None,
                 expired: Callable[[], bool] | None = None) -> None:
        self.table, self.rng, self.log, self.show, self.expired = table, rng, log, code, expired
        position, me = table.position, table.seat
        if table.seated[0] is not deal:  # the seats as dealt, planned once per deal for every candidate
            histories = deal.histories or (None,) * SEATS
            given = deal.dealt or (None,) * SEATS
            rests = {s: table.planners[s].rest(counted(deal.hands[s]), tuple(position.opponents[s]),
                                               histories[s] or History()) for s in range(SEATS) if s != me}
            dealt = [given[s] or (table.start.counts if s == me else rests[s].counts) for s in range(SEATS)]
            table.seated = deal, [rests, dealt]
        self.rests: dict[int, Hold] = table.seated[1][0]
        self.dealt: list[tuple[int, ...]] = table.seated[1][1]
        self.stock, self.drawn = deal.stock, 0

    def play(self, candidate: int) -> Outcome:
        """Discard `candidate`, then offer cards until a win or the end of the stock."""
        me = self.table.seat
        self.holds = [self.table.start.holds[candidate] if s == me else self.rests[s] for s in range(SEATS)]
        self.record(me, "discard", candidate)
        public = (candidate, DISCARD, me, (me + 1) % SEATS)
        while True:
            card, source, gate, to_act = public
            claim = self.offer(*public)
            if claim is None:
                self.passed(card, [gate, (gate + 1) % SEATS] if source == STOCK else [to_act])
                if self.drawn >= len(self.stock):
                    return Outcome(False, 0)  # docs/rules.md#chan-stock-exhausted: "Stock exhausted: all 0"
                self.tick()
                drawer = (gate + 1) % SEATS if source == STOCK else to_act
                public = (self.stock[self.drawn], STOCK, drawer, drawer)
                self.drawn += 1
                self.record(drawer, "draw", public[0])
                continue
            seat, answer = claim
            if answer.kind == "win":
                self.record(seat, "win")
                return self.win(seat, card, source == STOCK and seat == gate, source != STOCK)
            if source == STOCK and seat != gate:
                self.passed(card, [gate])  # "the next player may then capture that passed card" (rule 3)
            resume = to_act if answer.kind == "chiu" and to_act != seat else (seat + 1) % SEATS
            public = (self.take(seat, answer), DISCARD, seat, resume)

    def offer(self, x: int, source: str, gate: int, to_act: int) -> tuple[int, Answer] | None:
        """Every seat answers the card; the best claim, ties to the first in seat order from the gate."""
        table, holds = self.table, self.holds
        best: tuple[int, Answer] | None = None
        top = 0
        for s in table.orders[gate]:
            if s == gate and source == DISCARD:
                continue  # the discarder
            hold = holds[s]
            if x not in hold.waits and x not in hold.improving:
                continue  # what `ChanTable.answer` says without its memo: no win, no claim worth taking
            answer = table.answer(hold, x, source, role_of(s, source, gate, to_act), s)
            if answer is not None and answer.priority > top:
                best, top = (s, answer), answer.priority
        return best

    def take(self, s: int, answer: Answer) -> int:
        """Seat `s` exposes the pair of `answer` and discards; the discard."""
        if answer.kind == "chiu":
            self.record(s, "chiu")
        elif self.log is not None:
            self.record(s, "capture", meld=answer.kind, cards=[code(c) for c in answer.meld.cards])
        assert answer.plan is not None  # the claims carry the plan of the hand they leave
        return self.follow(s, self.table.planners[s].resolve(answer.plan))

    def passed(self, x: int, seats: list[int]) -> None:
        """Rule 3: seats that could capture `x` identically and let it go may not discard or Cạ that face."""
        for s in seats:
            hold = self.holds[s]
            if hold.counts[x]:  # without x he let no identical capture go
                self.holds[s] = self.table.passed(hold, x)

    def win(self, s: int, x: int, own_gate: bool, by_chiu: bool) -> Outcome:
        """Seat `s` wins on card `x`: the engine's score with the context of the win."""
        me = self.table.seat
        hold, dealt = self.holds[s], self.dealt[s]
        hand = ChanHand(hold.counts, tuple(hold.exposed), x)
        final = hand.all_counts()
        context = {"own_gate": own_gate, "by_chiu": by_chiu, "chiu_on_dealt_triple": by_chiu and dealt[x] == 3,
                   "dealt_quad": 4 in dealt,
                   "dealt_pair_became_quad": any(n == 2 and final[f] == 4 for f, n in enumerate(dealt))}
        settled = settle(hand, {k: v for k, v in context.items() if v}, self.table.options, SEATS, s)
        return Outcome(s == me, settled.deltas[me], settled.points if s == me else 0)


def seat_distance(table: ChanTable) -> Distance:
    """A seat's structural distance to a win (`rules/chan/distance.py`: the fewest concealed cards to replace so
    that one more card wins, the 6 Chắn included) holding these concealed cards beside its exposed pairs: what
    `shaping.py` improves the other seats' dealt hands by."""
    opponents = table.position.opponents

    def distance(seat: int, cards: Sequence[int]) -> int:
        return structural_distance(counted(cards), opponents[seat])

    return distance


def playout(table: ChanTable, candidate: int, deal: Deal, rng: random.Random,
            log: list[dict] | None = None, expired: Callable[[], bool] | None = None) -> Outcome:
    """Play the rest of the round from the player's discard of `candidate` on `deal`; `log` collects the events.
    Raises `OutOfTime` at the first turn after `expired()` says the search's time is spent."""
    return Round(table, deal, rng, log, expired).play(candidate)
