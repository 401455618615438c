"""Shaped deals (`service/search/shaping.py`): the other seats' hands improved towards a win by the turns played,
never holding a card the player could know elsewhere, and the same deal for the same seed."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import replace

import pytest

from service.search.deal import deal_rng, sample_deal
from service.search.families import deal_for, search_family, table_of
from service.search.montecarlo import search
from service.search.shaping import steps_for, turns_played
from tests.support.search import RULESETS, position_of, sample_position


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_shaped_deal_holds_the_unseen_cards_in_the_hands_and_stock_sizes_of_the_position(ruleset: str) -> None:
    position = position_of(sample_position(ruleset)[0])
    table = table_of(position)
    assert steps_for(position) > 0  # mid-round: there is something to shape
    for i in range(20):
        deal = deal_for(table, deal_rng(5, i))
        assert deal.hands[position.seat] == ()
        assert [len(h) for h in deal.hands] == list(position.concealed_sizes[:position.seat]) + [0] + list(
            position.concealed_sizes[position.seat + 1:])
        assert len(deal.stock) == position.stock_size
        dealt = Counter(c for h in deal.hands for c in h) + Counter(deal.stock)
        assert not dealt - Counter(position.unseen)  # only unseen cards, each no more often than unseen


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_other_seat_ends_no_further_from_a_win_than_dealt_and_nearer_on_average(ruleset: str) -> None:
    """Each swap is kept only when the seat's structural distance does not grow, so a shaped hand is never further
    from a win than the uniform hand it started from (the same random source deals that one first)."""
    position = position_of(sample_position(ruleset)[0])
    table = table_of(position)
    distance = search_family(position.ruleset).seat_distance(table)
    before, after = [], []
    for i in range(40):
        start = sample_deal(position, deal_rng(9, i))
        shaped = deal_for(table, deal_rng(9, i))
        for seat, hand in enumerate(shaped.hands):
            if hand:
                was, now = distance(seat, start.hands[seat]), distance(seat, hand)
                assert now <= was
                before.append(was)
                after.append(now)
    assert statistics.fmean(after) < statistics.fmean(before) - 0.3


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_same_seed_deals_the_same_shaped_deal_and_uniform_dealing_is_the_plain_one(ruleset: str) -> None:
    position = position_of(sample_position(ruleset)[0])
    table = table_of(position)
    assert deal_for(table, deal_rng(3, 7)) == deal_for(table, deal_rng(3, 7))
    assert deal_for(table, deal_rng(3, 7)) != deal_for(table, deal_rng(3, 8))
    assert deal_for(table, deal_rng(3, 7), "uniform") == sample_deal(position, deal_rng(3, 7))
    assert deal_for(table, deal_rng(3, 7)) != sample_deal(position, deal_rng(3, 7))


def test_turns_played_count_the_public_cards_met_per_seat() -> None:
    """Every card seen outside a meld and the claimed card of every exposed meld, over the seats."""
    position = position_of(sample_position("bga-taiwan")[0])
    melds = len(position.exposed) + sum(len(m) for m in position.opponents)
    assert turns_played(position) == (len(position.visible) + melds) / position.seats
    assert steps_for(position) == round(position.ruleset.shaping_swaps * turns_played(position))
    assert steps_for(position, 0.0) == 0
    fresh = replace(position, visible=(), exposed=(), opponents=tuple(() for _ in position.opponents))
    assert steps_for(fresh) == 0  # nobody has played: the deal is the uniform one
    assert deal_for(table_of(fresh), deal_rng(1, 0)) == sample_deal(fresh, deal_rng(1, 0))


def test_a_search_says_how_it_dealt_and_uniform_dealing_gives_other_figures() -> None:
    position = position_of(sample_position("cardavia-chan")[0])
    shaped = search(position, None, samples=60, time_budget=60, seed=2, min_samples=10**9)
    uniform = search(position, None, samples=60, time_budget=60, seed=2, min_samples=10**9, dealing="uniform")
    assert shaped.to_json()["dealing"] == "shaped" and uniform.to_json()["dealing"] == "uniform"
    assert [c.expected_settlement.mean for c in shaped.candidates] != [
        c.expected_settlement.mean for c in uniform.candidates]
    with pytest.raises(ValueError, match="dealing"):
        search(position, None, samples=10, time_budget=60, seed=2, dealing="by hand")
