"""The efficiency floor: discards to the least distance (then the most unseen improving cards); wins whenever it
may without paying for it; claims only to a strictly smaller distance than passing, and takes what the rules force."""

from __future__ import annotations

import pytest

from service.advice.analyse import analyse_claims
from service.arena.duplicate import Arena, play_with
from service.arena.efficiency import Efficiency
from service.arena.seat import after_claim, analyse, hand_of, seen_codes, win_gain

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")


def least_after(view, card, claim) -> int:
    """The least distance a discard after the claim leaves (a claim with no discard after it ends the round)."""
    options = analyse(view, *after_claim(view, card, claim)).options
    return min((o.distance for o in options), default=-1)


class Checked(Efficiency):
    """The policy, with every answer checked against the analyses asked independently."""

    def __init__(self, log: list) -> None:
        super().__init__()
        self.log = log

    def discard(self, view):
        planned = self.follow.planned
        following = planned is not None and planned[1] == view.hand
        card = super().discard(view)
        options = analyse(view).options
        chosen = next(o for o in options if o.card == card)
        least = min(o.distance for o in options)
        assert chosen.distance == least
        if not following:  # a follow-up discard is one the claim's choice already checked for distance
            assert chosen.improving_unseen == max(o.improving_unseen for o in options if o.distance == least)
        self.log.append("discard")
        return card

    def claim(self, view, card, source, role, legal, forced):
        answer = super().claim(view, card, source, role, legal, forced)
        wins = [c for c in legal if c.kind in ("hu", "win")]
        if wins and (forced or win_gain(view, card) > 0):
            assert answer is not None and answer.kind in ("hu", "win")
            self.log.append("win")
            return answer
        assert answer is None or answer.kind not in ("hu", "win")  # a win that costs the seat is never called
        if wins:
            self.log.append("costly win declined")
        legal = [c for c in legal if c.kind not in ("hu", "win")]
        if not legal:
            assert answer is None
            return answer
        least = min(least_after(view, card, c) for c in legal)
        if forced:  # the drawer must take it: no pass is offered
            assert answer is not None and least_after(view, card, answer) == least
            self.log.append("forced")
            return answer
        passing = next(o.distance for o in analyse_claims(
            view.ruleset, hand_of(view, public=card), view.options, role, seen_codes(view), view.seats, source=source,
            history=view.history).options if o.kind == "pass")
        if answer is None:
            assert least >= passing
            self.log.append("pass")
        else:
            assert least_after(view, card, answer) == least < passing
            self.log.append("claim")
        return answer


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.slow  # over 2 s on 2 cores
def test_efficiency_races_to_the_least_distance(ruleset):
    log: list = []
    for index in range(4):
        play_with(Arena(ruleset, ("efficiency",) * 4, seed=11), index, [Checked(log) for _ in range(4)])
    assert {"discard", "pass", "claim"} <= set(log)
