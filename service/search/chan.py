"""Fast playouts of Chắn (cardavia-chan), from the player's discard to the end of the round.

Turn order (docs/rules.md#chan-turn, as `service/replay/chan.py` replays it): the card on offer lies at a
gate; every seat answers it at once: a win on a turned-up stock card, then a Chíu, then a capture by the seat
whose turn it is (the next player on a discard; the drawer, then the next player, on a stock card), ties in seat
order from the gate. A capture or Chíu exposes the pair and the taker discards; after an out-of-turn Chíu that
discard goes back to the interrupted gate. When nobody takes the card, the seat to act turns up a stock card at
his own gate. A win is only on a turned-up stock card, or completed at once by a Chíu. Capture rules 1-7 hold for
every seat: each keeps his history (discards, identical captures passed up, Cạ) as the replay infers it.
Stock exhausted: a draw, nobody scores.

Opponent policy ("opponents-greedy-chan"): he wins whenever it is legal; he claims a Chíu when he holds three
(and a legal discard follows); on his turn he captures with an identical card (a Chắn) when the capture rules
allow it, never a Cạ; he discards a random legal card in no pair of his hand, else one not in an identical pair,
else any legal card. His win test is cheap: with the forced pairing (docs/rules.md#chan-pairs) one card more can only
complete a hand with exactly one unpaired card, and only with a card of that card's value (recomputed when his
hand changes). The position does not say what each other seat did before, so their histories start clean; nor
where play resumes after the player's discard, so it goes to the next seat (after his out-of-turn Chíu it would go
back to the interrupted gate).

Settlement is the engine's (`rules/chan/scoring.py`): Ù chì on one's own gate, a Chíu-completed win (Chíu ù on
a triple held at the start), and the bonuses of the initial deal (Thiên khai, Bòn) read from the cards each seat
holds when the playout starts (exact for quads and triples, which concealed hands never lose).
"""

from __future__ import annotations

import random

from ..rules.chan.captures import PRIORITY, History
from ..rules.chan.cards import CHI_CHI, N_FACES, code
from ..rules.chan.discards import history_key, legal_faces
from ..rules.chan.hand import ChanHand, evaluate_win
from ..rules.chan.pairs import Pair, unpaired
from ..rules.chan.scoring import settle
from .chan_table import DISCARD, SEATS, STOCK, ChanTable, with_capture
from .deal import Deal, Outcome
from .player import Answer, Turns

#: Per face, the other suits of its value (Chi chi: none), which rule 6 forbids once it is discarded.
OTHER_SUITS = tuple(frozenset() if f == CHI_CHI else frozenset(range(f - f % 3, f - f % 3 + 3)) - {f}
                    for f in range(N_FACES))


#: The opponents' answers, built once (immutable): a win on a stock card or by a Chíu, a Chíu and an identical
#: capture of each face.
WIN_ON_STOCK, WIN_BY_CHIU = Answer(PRIORITY["win"], "win"), Answer(PRIORITY["chiu"], "win")
CHIU = tuple(Answer(PRIORITY["chiu"], "chiu", Pair("chiu", (x,) * 4, False), (x,) * 3) for x in range(N_FACES))
CAPTURE = tuple(Answer(PRIORITY["capture"], "chan", Pair("chan", (x, x), False), (x,)) for x in range(N_FACES))


def role_of(seat: int, source: str, gate: int, to_act: int) -> str:
    """drawer / next / other on a stock card; discarder / next (the seat to act) / other on a discard."""
    if source == STOCK:
        return "drawer" if seat == gate else "next" if seat == (gate + 1) % SEATS else "other"
    return "discarder" if seat == gate else "next" if seat == to_act else "other"


class Seat:
    """An opponent in a playout: cards, exposed pairs, history, the deal facts, and his possible winning cards."""

    __slots__ = ("counts", "exposed", "history", "forbidden", "dealt", "wins")

    def __init__(self, cards: tuple[int, ...], exposed: tuple[Pair, ...], history: History | None,
                 dealt: tuple[int, ...] | None) -> None:
        self.counts = [0] * N_FACES
        for card in cards:
            self.counts[card] += 1
        self.exposed = list(exposed)
        self.remember(history or History(), None if history else frozenset())  # a clean history forbids none
        self.dealt = tuple(self.counts) if dealt is None else dealt
        self.changed(unpaired(self.counts))

    def copy(self) -> Seat:
        """The same seat, with cards and exposed pairs of its own to change."""
        other = Seat.__new__(Seat)
        other.counts, other.exposed = list(self.counts), list(self.exposed)
        other.history, other.forbidden, other.dealt, other.wins = self.history, self.forbidden, self.dealt, self.wins
        return other

    def remember(self, history: History, forbidden: frozenset[int] | None = None) -> None:
        """His history changed: the faces it forbids him to discard (rules 3, 6), `forbidden` when the caller
        knows them."""
        self.history = history
        self.forbidden = history_key(history)[0] if forbidden is None else forbidden

    def may_capture(self, x: int) -> bool:
        """`capture_rule_broken(counts, x, x, history) is None`: he holds x, did not discard it or play it into a
        Cạ (rule 4), and a legal discard follows (rule 7)."""
        counts, history = self.counts, self.history
        if not counts[x] or x in history.discarded or x in history.played_into_ca:
            return False
        counts[x] -= 1
        forbidden = self.forbidden
        for f, n in enumerate(counts):
            if n & 1 and f not in forbidden:
                counts[x] += 1
                return True
        counts[x] += 1
        return False

    def changed(self, loose: tuple[int, ...]) -> None:
        """The hand changed; `loose` are its unpaired cards. One card more wins only a hand with exactly one
        unpaired card, and only with a card of its value."""
        if len(loose) != 1:
            self.wins: tuple[int, ...] = ()
        elif loose[0] == CHI_CHI:
            self.wins = (CHI_CHI,)
        else:
            base = loose[0] // 3 * 3
            self.wins = (base, base + 1, base + 2)


class Round(Turns):
    """One playout: the table's state from the player's discard to the end of the round."""

    def __init__(self, table: ChanTable, deal: Deal, rng: random.Random, log: list[dict] | None) -> None:
        self.table, self.rng, self.log, self.show = table, rng, log, code
        position, me = table.position, table.seat
        histories = deal.histories or (None,) * SEATS
        dealt = deal.dealt or (None,) * SEATS
        if table.seated[0] is not deal:  # the seats as dealt, built once per deal for every candidate
            table.seated = deal, [None if s == me else Seat(deal.hands[s], position.opponents[s], histories[s],
                                                            dealt[s]) for s in range(SEATS)]
        self.others = [seat and seat.copy() for seat in table.seated[1]]
        self.dealt = dealt[me] or table.start.counts
        self.stock, self.drawn = deal.stock, 0

    def play(self, candidate: int) -> Outcome:
        """Discard `candidate`, then offer cards until a win or the end of the stock."""
        me = self.table.seat
        self.hold = self.table.start.holds[candidate]
        self.record(me, "discard", candidate)
        public = (candidate, DISCARD, me, (me + 1) % SEATS)
        while True:
            card, source, gate, to_act = public
            claim = self.offer(*public)
            if claim is None:
                self.passed(card, [gate, (gate + 1) % SEATS] if source == STOCK else [to_act])
                if self.drawn >= len(self.stock):
                    return Outcome(False, 0)  # docs/rules.md#chan-stock-exhausted: "Stock exhausted: all 0"
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
            public = (self.take(seat, answer, card), DISCARD, seat, resume)

    def offer(self, x: int, source: str, gate: int, to_act: int) -> tuple[int, Answer] | None:
        """Every seat answers the card; the best claim, ties to the first in seat order from the gate."""
        table, me = self.table, self.table.seat
        best: tuple[int, Answer] | None = None
        top = 0
        for s in table.orders[gate]:
            if s == me:
                hold = self.hold
                if x not in hold.waits and x not in hold.improving:
                    continue  # what `ChanTable.answer` says without its memo: no win, no claim worth taking
                answer = table.answer(hold, x, source, role_of(s, source, gate, to_act))
            elif s == gate and source == DISCARD:
                continue  # the discarder
            else:
                seat = self.others[s]
                if not seat.counts[x] and x not in seat.wins:
                    continue
                answer = self.opponent_answer(seat, x, source, role_of(s, source, gate, to_act))
            if answer is not None and answer.priority > top:
                best, top = (s, answer), answer.priority
        return best

    def opponent_answer(self, seat: Seat, x: int, source: str, role: str) -> Answer | None:
        """A legal win, else a Chíu on three, else (on his turn) a legal identical capture."""
        held = seat.counts[x]
        if (source == STOCK or held == 3) and x in seat.wins and evaluate_win(
                ChanHand(tuple(seat.counts), tuple(seat.exposed), x)).hu:
            return WIN_ON_STOCK if source == STOCK else WIN_BY_CHIU
        if held == 3:
            seat.counts[x] -= 3
            legal = legal_faces(seat.counts, seat.forbidden)
            seat.counts[x] += 3
            if legal:
                return CHIU[x]
        if held and role in ("drawer", "next") and seat.may_capture(x):
            return CAPTURE[x]
        return None

    def take(self, s: int, answer: Answer, x: int) -> int:
        """Seat `s` exposes the pair of `answer` and discards; the discard."""
        if answer.kind == "chiu":
            self.record(s, "chiu")
        elif self.log is not None:
            self.record(s, "capture", meld=answer.kind, cards=[code(c) for c in answer.meld.cards])
        if s == self.table.seat:
            assert answer.plan is not None  # the player's claims carry the plan of the hand they leave
            return self.follow(s, self.table.planner.resolve(answer.plan))
        seat = self.others[s]
        for c in answer.used:
            seat.counts[c] -= 1
        seat.exposed.append(answer.meld)
        if answer.kind == "ca":  # the opponents' policy never takes one; with_capture would change his history
            seat.remember(with_capture(seat.history, answer))
        legal = legal_faces(seat.counts, seat.forbidden)
        loose = unpaired(seat.counts)
        single = [c for c in legal if c in loose]
        # A random legal card in no pair, else one not in an identical pair, else any legal card.
        card = self.rng.choice(single or [c for c in legal if seat.counts[c] == 1] or legal)
        seat.counts[card] -= 1
        h = seat.history
        # `forbidden_faces` of the new history: rule 6 adds the discard's other suits once he captured a Cạ
        seat.remember(History(h.discarded | {card}, h.passed_identical, h.played_into_ca, h.captured_ca, h.dead_hand),
                      seat.forbidden | OTHER_SUITS[card] if h.captured_ca else seat.forbidden)
        # An unpaired card leaves the others' pairing as it was (its value's other odd cards were a Cạ).
        seat.changed(tuple(c for c in loose if c != card) if single else unpaired(seat.counts))
        self.record(s, "discard", card)
        return card

    def passed(self, x: int, seats: list[int]) -> None:
        """Rule 3: seats that could capture `x` identically and let it go may not discard or Cạ that face."""
        me = self.table.seat
        for s in seats:
            if s == me:
                if self.hold.counts[x]:  # without x he let no identical capture go
                    self.hold = self.table.passed(self.hold, x)
                continue
            seat = self.others[s]
            if seat.may_capture(x):
                h = seat.history
                seat.remember(History(h.discarded, h.passed_identical | {x}, h.played_into_ca, h.captured_ca,
                                      h.dead_hand), seat.forbidden | {x})  # rule 3 forbids x from now on

    def win(self, s: int, x: int, own_gate: bool, by_chiu: bool) -> Outcome:
        """Seat `s` wins on card `x`: the engine's score with the context of the win."""
        me = self.table.seat
        if s == me:
            counts, exposed, dealt = self.hold.counts, self.hold.exposed, self.dealt
        else:
            seat = self.others[s]
            counts, exposed, dealt = tuple(seat.counts), tuple(seat.exposed), seat.dealt
        hand = ChanHand(tuple(counts), tuple(exposed), x)
        final = hand.all_counts()
        context = {"own_gate": own_gate, "by_chiu": by_chiu, "chiu_on_dealt_triple": by_chiu and dealt[x] == 3,
                   "dealt_quad": 4 in dealt,
                   "dealt_pair_became_quad": any(n == 2 and final[f] == 4 for f, n in enumerate(dealt))}
        settled = settle(hand, {k: v for k, v in context.items() if v}, self.table.options, SEATS, s)
        return Outcome(s == me, settled.deltas[me], settled.points if s == me else 0)


def playout(table: ChanTable, candidate: int, deal: Deal, rng: random.Random,
            log: list[dict] | None = None) -> Outcome:
    """Play the rest of the round from the player's discard of `candidate` on `deal`; `log` collects the events."""
    return Round(table, deal, rng, log).play(candidate)
