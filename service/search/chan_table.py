"""The shared table of Chắn playouts: what every playout of one position shares.

`ChanTable` holds the seat orders of a position, each seat's planner (`player.py`: the searching player's and one
per other seat, each with its own view) and the seats' side of the playouts: their answers to each card (wins,
Chíu and captures through the engine's `legal_claims`, memoised on the hand) and the identical captures they let
go (rule 3), with `with_capture`, the history a Cạ capture leaves (rules 4 and 6). The playouts themselves (turns,
hands, the scores) are `chan.py`'s.
"""

from __future__ import annotations

from typing import Any

from ..rules.chan.captures import PRIORITY, History, capture_rule_broken, meld_claims
from ..rules.chan.cards import N_FACES
from ..rules.chan.hand import ChanHand
from .player import Answer, Hold, Planner, with_meld
from .position import Position

STOCK, DISCARD = "stock", "discard"
SEATS = 4


def with_capture(history: History, answer: Answer) -> History:
    """Rules 4 and 6: a Cạ capture marks the hand card played into it and that he captured a Cạ."""
    if answer.kind != "ca":
        return history
    return History(history.discarded, history.passed_identical, history.played_into_ca | set(answer.used), True,
                   history.dead_hand)


class ChanTable:
    """What every playout of one position shares: seat orders and every seat's memoised plans."""

    policies = {"player": "greedy-exact-analysis", "opponents": "greedy-exact-analysis"}

    def __init__(self, position: Position, planners: list[Planner]) -> None:
        self.position, self.planners, self.options = position, planners, position.options
        self.seat = position.seat
        self.planner = planner = planners[position.seat]
        self.orders = [tuple((s + k) % SEATS for k in range(SEATS)) for s in range(SEATS)]
        self.seated: tuple[Any, list] = (None, [])  # the last deal and its seats' hands at rest (`chan.Round`)
        counts = [0] * N_FACES
        for card in position.hand:
            counts[card] += 1
        self.start = planner.plan(tuple(counts), tuple(position.exposed), position.history or History())

    def answer(self, hold: Hold, x: int, source: str, role: str, seat: int) -> Answer | None:
        """The claim of `seat` holding `hold` on card `x` (memoised on the hand)."""
        key = (x, source, role)
        if key not in hold.answers:
            hold.answers[key] = self._answer(hold, x, source, role, seat)
        return hold.answers[key]

    def _answer(self, hold: Hold, x: int, source: str, role: str, seat: int) -> Answer | None:
        """Every win; else the Chíu or capture whose best discard leaves the best hand, when it lowers the
        distance. Legality is the engine's `legal_claims` (rules 1-7): a win is read from his waits, the rest are
        its `meld_claims`."""
        if role == "discarder" and source == DISCARD:
            return None
        chiu = hold.counts[x] == 3
        if x in hold.waits and (source == STOCK or chiu):
            return Answer(PRIORITY["win"] if source == STOCK else PRIORITY["chiu"], "win")
        if x not in hold.improving:
            return None
        history = hold.history
        assert history is not None  # a Chắn hand keeps its history
        options: list[tuple[Answer, tuple[int, ...], tuple[Any, ...], History | None]] = []
        for claim in meld_claims(ChanHand(hold.counts, hold.exposed, x), role, source, history):
            if not claim.discards:
                continue
            pair = claim.pair
            assert pair is not None  # a capture or a Chíu names its pair
            used = (x,) * 3 if claim.kind == "chiu" else (next(c for c in pair.cards if c != x)
                                                          if claim.kind == "ca" else x,)
            rest = list(hold.counts)
            for c in used:
                rest[c] -= 1
            answer = Answer(claim.priority, claim.kind, claim.pair, used)
            exposed = with_meld(hold.exposed, claim.pair)
            options.append((answer, tuple(rest), exposed, with_capture(history, answer)))
        return self.planners[seat].choose(options, hold.distance, False, lambda plan: plan.key)

    def passed(self, hold: Hold, x: int) -> Hold:
        """Rule 3 as the replay infers it: a seat let an identical capture of `x` go (memoised)."""
        key = ("passed", x)
        if key not in hold.answers:
            history = hold.history
            assert history is not None  # a Chắn hand keeps its history
            if hold.counts[x] and capture_rule_broken(hold.counts, x, x, history) is None:
                history = History(history.discarded, history.passed_identical | {x}, history.played_into_ca,
                                  history.captured_ca, history.dead_hand)
                hold.answers[key] = Hold(hold.counts, hold.exposed, hold.distance, hold.waits, hold.improving,
                                         history)
            else:
                hold.answers[key] = hold
        return hold.answers[key]

