"""The exact analysis as the search runs it: the top of the ranking (`top.py`) is the first option of
`analyse_discards` on every kind of hand, and the adapter analyses hands as the rule-sets do."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from service.advice.analyse import analyse_discards
from service.advice.ranking import SHIPPED, rank_key
from service.rules.analysis import paying_of
from service.rules.fourcolor import samples
from service.rules.fourcolor.cards import Tally, code
from service.rules.fourcolor.discards import unseen_counts
from service.rules.fourcolor.hand import FourColorHand
from service.rules.registry import get_ruleset
from service.search.families import search_family
from service.search.player import Planner
from service.search.top import TopRanker
from tests.support.search import BGA, FLOWERS, RULESETS, played_table, position_of, sample_position

PROFILES = [(BGA, {}), (BGA, {"winning_meld_concealed": False, "win_payment": "flat"}), (FLOWERS, {}),
            (FLOWERS, {"payment": "each_loser_pays", "mixed_group_points": "zero"})]


def random_positions(ruleset_id: str, given: dict, salt: str) -> tuple[TopRanker, Iterator[tuple]]:
    """The profile's top ranker, and 90 seeded hands (near misses, random and winning hands in turn) each with a
    random part of the other cards seen: (hand, unseen counts, the full exact analysis)."""
    ruleset = get_ruleset(ruleset_id)
    options = ruleset.resolve_options(given)
    rules = ruleset.meld_rules(options)
    rng = random.Random(f"{salt}{ruleset_id}{sorted(given)}")

    def positions() -> Iterator[tuple]:
        for i in range(90):
            cards = (samples.near_miss, samples.random_hand, samples.winning_hand)[i % 3](rng, rules, 21)
            rest = ruleset.deck()
            for c in cards:
                rest.remove(c)
            seen = rng.sample(rest, rng.randrange(30))
            hand = FourColorHand(Tally.of(cards), (), None)
            full = analyse_discards(ruleset, hand, options, [code(c) for c in seen], 4)
            yield hand, unseen_counts(hand, seen, rules.flowers), full

    return TopRanker(rules, options, 4, rules.flowers), positions()


@pytest.mark.parametrize(("ruleset_id", "given"), PROFILES, ids=[f"{r}-{sorted(g)}" for r, g in PROFILES])
def test_the_top_of_random_hands_is_the_first_option(ruleset_id: str, given: dict) -> None:
    ranker, positions = random_positions(ruleset_id, given, "")
    for hand, unseen, full in positions:
        top = ranker.top(hand.concealed, (), unseen)
        if not full.options:
            assert top.card is None
            continue
        first = full.options[0]
        assert (top.card, top.distance, top.key) == (first.card, first.distance, rank_key(first))
        assert top.waits == {w.card: w.gain for w in first.waits}
        assert top.improving == frozenset(c for c, _ in first.improving)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_top_of_hands_met_in_play_is_the_first_option(ruleset_id: str) -> None:
    """Hands the player reaches in playouts, with the melds he exposed on the way (Chắn: and his history)."""
    position = position_of(sample_position(ruleset_id)[0])
    table = played_table(position, 1, 2)
    planner: Planner = table.planner
    met = list(planner.tops.items())[:40]
    assert any(exposed != position.exposed for (_, exposed, _), _ in met)
    for (counts, exposed, history), plan in met:
        full = planner._plan(counts, exposed, history)
        assert (plan.discard, plan.key) == (full.discard, full.key)
        if plan.discard is not None:
            if position.family == "chan":
                assert planner.reach(counts, exposed, history) == full.key[0]  # Chắn distances are exact
            mine, theirs = plan.holds[plan.discard], full.holds[full.discard]
            assert (mine.distance, mine.waits, mine.improving, mine.history) == (
                theirs.distance, theirs.waits, theirs.improving, theirs.history)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_search_analyses_hands_as_the_rule_set_does(ruleset_id: str) -> None:
    """The adapter passes unseen copies to the engine functions; the rule-set parses the visible codes."""
    payload = sample_position(ruleset_id)[0]
    position = position_of(payload)
    ruleset, options = position.ruleset, position.options
    seen = [position.code(c) for c in position.seen()]
    hand = ruleset.parse(options, payload["hand"], payload["exposed"])
    history = position.history if position.family == "chan" else None
    expected = ruleset.analyse_discards(hand, options, seen, position.seats, history, SHIPPED)  # the values left out
    exact = search_family(position.ruleset).exact
    counts = [0] * len(exact(position).outside)
    for card in position.hand:
        counts[card] += 1
    assert exact(position).analyse(tuple(counts), position.exposed, position.history) == expected


@pytest.mark.parametrize(("ruleset_id", "given"), PROFILES, ids=[f"{r}-{sorted(g)}" for r, g in PROFILES])
def test_the_quick_top_of_random_hands_leaves_the_least_distance(ruleset_id: str, given: dict) -> None:
    """The other seats' play: the quick top leaves the least distance of any legal discard (in bga-taiwan: of those
    at the least paying distance); waiting, it is the first option by the exact order with the rich win left out
    (bga-taiwan: the quick form does not count it); further, it is the tied discard with the fewest unseen copies
    (then card order), with that discard's own improving cards."""
    ranker, positions = random_positions(ruleset_id, given, "quick")
    far = 0
    for hand, unseen, full in positions:
        quick = ranker.top(hand.concealed, (), unseen, quick=True)
        if not full.options:
            assert quick.card is None
            continue
        least = min((paying_of(o), o.distance) for o in full.options)
        tied = [o for o in full.options if (paying_of(o), o.distance) == least]
        assert quick.distance == least[1]
        assert quick.key[0] == least[0]
        least = least[1]
        if least == 0:
            first = min(full.options, key=lambda o: (without_rich(o), o.card))
            assert (quick.card, quick.key) == (first.card, without_rich(first))
            continue
        far += 1
        assert quick.card == min((o.card for o in tied), key=lambda c: (unseen[c], c))
        mine = next(o for o in full.options if o.card == quick.card)
        assert quick.improving == frozenset(c for c, _ in mine.improving)
    assert far > 20


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_hand_at_rest_is_planned_as_the_hand_a_discard_leaves(ruleset_id: str) -> None:
    """The other seats' dealt hands (between turns): `Exact.rest` gives the distance, waits and improving cards
    the exact analysis gives the hand a discard leaves, as that seat sees the cards."""
    position = position_of(sample_position(ruleset_id)[0])
    family = search_family(position.ruleset)
    table = played_table(position, 2, 2)
    seat = (position.seat + 1) % position.seats
    exact = family.exact(position, seat)
    plans = [(key, plan) for key, plan in table.planners[seat].tops.items() if plan.discard is not None][:25]
    assert len(plans) == 25
    for (counts, exposed, history), plan in plans:
        full = exact.analyse(counts, exposed, history)
        option = next(o for o in full.options if o.card == plan.discard)
        held = plan.holds[plan.discard]
        found = exact.rest(held.counts, exposed, held.history)
        assert found.distance == option.distance
        assert found.waits == {w.card: w.gain for w in option.waits}
        assert found.improving == frozenset(c for c, _ in option.improving)


def without_rich(option) -> tuple[float, ...]:
    """The exact order of a discard with its second term, the distance to a rich win, left out (set to 0)."""
    key = rank_key(option)
    return (key[0], 0, *key[2:])
