"""The ranking order of discards (`analysis.rank_key`) and of answers to a public card (`claim_rank_key`), case by
case: fewer replacements, then more expected gain, more unseen improving cards, more waiting copies, then (between
discards that leave equally good hands) the discarded card with fewer unseen copies, then card order."""

from __future__ import annotations

import pytest

from service.advice.ranking import hand_key, rank_key, ranked
from service.rules.analysis import ClaimOption, DiscardOption, Wait


def option(card: int, distance: int, gain: float = 0.0, improving: int = 0, waiting: int = 0,
           card_unseen: int = 0) -> DiscardOption:
    waits = (Wait(99, waiting, ("discard",), 10, 10),) if waiting else ()
    return DiscardOption(card, distance, waits, (), improving, gain, card_unseen=card_unseen)


@pytest.mark.parametrize("better, worse", [
    pytest.param(option(5, 1, card_unseen=3), option(1, 2, gain=9.0, improving=30, waiting=4),
                 id="fewer_replacements_first"),
    pytest.param(option(5, 0, gain=0.5, card_unseen=3), option(1, 0, gain=0.2, waiting=9),
                 id="then_more_expected_gain"),
    pytest.param(option(5, 2, improving=12, card_unseen=3), option(1, 2, improving=8, waiting=9),
                 id="then_more_improving"),
    pytest.param(option(5, 0, waiting=3, card_unseen=3), option(1, 0, waiting=2), id="then_more_waiting_copies"),
    # equally good hands left: the card two of whose copies are already seen is the one fewer players can use
    pytest.param(option(5, 2, improving=8, card_unseen=1), option(1, 2, improving=8, card_unseen=3),
                 id="then_fewer_unseen_copies_of_the_card"),
    pytest.param(option(1, 2, card_unseen=2), option(5, 2, card_unseen=2), id="then_the_lower_card"),
])
def test_discard_ranking_case_table(better, worse):
    assert [o.card for o in ranked([worse, better], lambda o: "")] == [better.card, worse.card]
    assert rank_key(better) <= rank_key(worse)


def test_equal_keys_share_a_rank_and_unseen_copies_split_them():
    first, second, third = option(4, 1, improving=6, card_unseen=0), option(2, 1, improving=6, card_unseen=2), \
        option(3, 1, improving=6, card_unseen=2)
    assert [(o.card, o.rank) for o in ranked([third, second, first], lambda o: "")] == [(4, 1), (2, 2), (3, 2)]


def claim(kind: str, distance: int, improving: int = 0, follow_unseen: int = 0) -> ClaimOption:
    follow = option(7, distance, improving=improving, card_unseen=follow_unseen) if kind != "pass" else None
    return ClaimOption(kind, (), None, follow, distance, (), (), improving, 0.0)


def test_a_claim_is_judged_on_the_hand_it_leaves_not_on_its_follow_up_card():
    """Pass and a claim that leaves an equally good hand: pass first, whatever the follow-up card's copies."""
    from service.advice.ranking import claim_rank_key

    passing, taking = claim("pass", 1, improving=5), claim("triple", 1, improving=5, follow_unseen=0)
    assert hand_key(passing) == hand_key(taking)
    assert claim_rank_key(passing) < claim_rank_key(taking)
    assert claim_rank_key(claim("triple", 0)) < claim_rank_key(passing)
