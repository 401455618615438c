"""The advice policy plays what the API answers: the first claim option of `analyse_claims` and then its follow-up
discard; otherwise the first option of `analyse_discards`."""

from __future__ import annotations

import pytest

from service.advice.analyse import analyse_claims
from service.arena.advice import Advice
from service.arena.duplicate import Arena, play_with
from service.arena.seat import after_claim, analyse, hand_of, seen_codes

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")


class Checked(Advice):
    """The advice, with every answer compared to the analyses asked independently."""

    def __init__(self, log: list) -> None:
        super().__init__()
        self.log, self.expected_follow = log, None

    def claim(self, view, card, source, role, legal, forced):
        top = analyse_claims(view.ruleset, hand_of(view, public=card), view.options, role, seen_codes(view),
                             view.seats, source=source, history=view.history).options[0]
        answer = super().claim(view, card, source, role, legal, forced)
        if top.claim is None:
            assert answer is None
        elif answer is not None:
            assert answer == top.claim
            if top.follow is not None:
                self.expected_follow = (top.follow.card, tuple(sorted(after_claim(view, card, answer)[0])))
        self.log.append(("claim", top.kind))
        return answer

    def discard(self, view):
        card = super().discard(view)
        first = analyse(view).options[0].card
        expected, self.expected_follow = self.expected_follow, None
        # after the seat's own taken claim (its hand is the one the claim leaves): the follow-up discard the claim
        # advice named; else the discard advice
        if expected is not None and expected[1] == view.hand:
            assert card == expected[0]
            self.log.append(("follow", card))
        else:
            assert card == first
            self.log.append(("discard", card))
        return card


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.slow  # over 2 s on 2 cores
def test_advice_answers_as_the_analyses(ruleset):
    log: list = []
    for index in range(4):
        play_with(Arena(ruleset, ("advice",) * 4, seed=9), index, [Checked(log) for _ in range(4)])
    kinds = {entry[1] for entry in log if entry[0] == "claim"}
    assert "pass" in kinds and len(kinds) > 1  # both passes and claims were advised and played
    # every discard but a dealer's first follows the seat's own claim (cardavia-flowers: the dealer draws first)
    assert "follow" in {entry[0] for entry in log}
