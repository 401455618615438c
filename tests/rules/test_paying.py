"""The paying distance of bga-taiwan (docs/advice.md#paying-distance-bga-taiwan): the fewest cards to replace
for a win that pays.

A win under the threshold costs the winner (docs/rules.md#fc-settlement: h < 10, the caller pays each opponent 11),
so a complete hand that scores too little is no win worth waiting on. The rule cases show their arithmetic; the
property test checks the tables against brute force: the slow oracle's best split (`tests/testbed`) for a
complete hand, and every one-card replacement for distance 1.
"""

from __future__ import annotations

import random

import pytest

from service.advice.analyse import analyse_discards
from service.rules.analysis import paying_of
from service.rules.fourcolor.cards import CODE_INDEX, N_KINDS, Tally, code
from service.rules.fourcolor.distance import complete_distance, distance, group_keys, limits_of
from service.rules.fourcolor.evaluate import evaluator_for
from service.rules.fourcolor.melds import Meld
from service.rules.fourcolor.paying import (
    CAP,
    fits,
    group_table,
    join,
    join_reach,
    paying_distance,
    paying_distances,
    paying_improving,
    reach_of,
    reaches,
)
from service.rules.registry import get_ruleset
from tests.testbed import fourcolor_oracle as reference

RS = get_ruleset("bga-taiwan")
OPTIONS = RS.resolve_options({})
RULES = RS.meld_rules(OPTIONS)
THRESHOLD = OPTIONS["threshold"]


def tally(hand: str) -> Tally:
    return Tally.of(CODE_INDEX[c] for c in hand.split())


def meld(kind: str, cards: str) -> Meld:
    return Meld(kind, tuple(sorted(CODE_INDEX[c] for c in cards.split())), concealed=False)


# Ten pairs and a General: every card in a meld, but h = 10 x 0 + 1 = 1 < 10.
PAIRS = "rA rA rE rE rC rC rH rH rP rP yA yA yE yE yC yC yH yH yP yP rG"
# Three triples (3 x 3 concealed), a General (1), six pairs: h = 10, a win that pays.
TRIPLES = "rA rA rA yE yE yE gC gC gC rG rH rH rP rP yH yH yP yP gH gH wP wP"


def test_a_complete_hand_under_the_threshold_is_no_paying_win():
    hand = tally(PAIRS)
    assert complete_distance(hand, RULES) == 0  # it splits into melds
    assert paying_distance(hand, RULES, (), THRESHOLD, 0) > 0  # but scores 1


def test_a_complete_hand_at_the_threshold_pays():
    hand = tally(TRIPLES.replace(" wP wP", ""))  # 21 cards: 9 + 1 + 0 = 10
    assert paying_distance(hand, RULES, (), THRESHOLD, 0) == 0


def test_exposed_melds_count_at_their_exposed_value():
    """The same three triples exposed score 1 each (docs/rules.md#fc-melds): 3 + 1 = 4 < 10."""
    exposed = (meld("triple", "rA rA rA"), meld("triple", "yE yE yE"), meld("triple", "gC gC gC"))
    rest = tally("rG rH rH rP rP yH yH yP yP gH gH")
    assert complete_distance(rest, RULES, exposed) == 0
    assert paying_distance(rest, RULES, exposed, THRESHOLD, 0) > 0
    # a lower threshold (an option of the rule-set) is met by the same hand
    assert paying_distance(rest, RULES, exposed, 4, 0) == 0


def test_one_replacement_makes_a_concealed_quad():
    """Two concealed triples (3 + 3), a General (1) and seven pairs: complete, h = 7 < 10. Replacing the General
    by a fourth rA makes a concealed quad (8) beside the yE triple (3): h = 11. Paying distance 1, structural 0."""
    hand = tally("rA rA rA yE yE yE rG gC gC rH rH rP rP yH yH yP yP gH gH wP wP")
    assert complete_distance(hand, RULES) == 0
    assert paying_distance(hand, RULES, (), THRESHOLD, 0) == 1
    assert _brute_one(hand)


def _complete_points(counts: Tally) -> int:
    """Best concealed points of a complete hand by the slow oracle (-1: not complete)."""
    return reference.search(counts, RULES)[0]


def _brute_one(hand: Tally) -> bool:
    """Some one-card replacement makes the 21-card hand complete with at least the threshold (engine evaluator,
    itself held to the oracle in test_fourcolor_properties)."""
    evaluator = evaluator_for(RULES)
    for out in range(N_KINDS):
        if not hand.counts[out]:
            continue
        for into in range(N_KINDS):
            if into == out or hand.counts[into] - (into == out) >= 4:
                continue
            other = hand.copy()
            other.remove(out)
            other.add(into)
            best = evaluator.evaluate(other)[0]
            if best is not None and best.points >= THRESHOLD:
                return True
    return False


def _random_hand(rng: random.Random) -> Tally:
    """21 cards built from melds, then 0-2 cards replaced at random: complete, near and far hands."""
    melds = []
    for c in range(4):
        b = c * 7
        melds += [[b], [b, b + 1, b + 2], [b + 3, b + 4, b + 5], [b + 6] * 3]
        melds += [[b + k] * n for k in range(1, 6) for n in (2, 3, 4)]
    melds += [[c * 7 + 6 for c in colours] for colours in ([0, 1, 2], [0, 1, 3], [1, 2, 3], [0, 2, 3], [0, 1, 2, 3])]
    while True:
        counts = [0] * N_KINDS
        n = 0
        for _ in range(200):
            m = rng.choice(melds)
            if n + len(m) <= 21 and all(counts[c] + m.count(c) <= 4 for c in set(m)):
                for c in m:
                    counts[c] += 1
                n += len(m)
            if n == 21:
                break
        if n == 21:
            break
    cards = [c for c in range(N_KINDS) for _ in range(counts[c])]
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        i, new = rng.randrange(21), rng.randrange(N_KINDS)
        if cards.count(new) < 4:
            cards[i] = new
    return Tally.of(cards)


def test_paying_distance_against_brute_force():
    """0 exactly when the oracle's best split scores the threshold; 1 exactly when one replacement makes a paying
    complete hand; never below the structural distance."""
    rng = random.Random(20261202)
    zeros = ones = 0
    for _ in range(160):
        hand = _random_hand(rng)
        found = paying_distance(hand, RULES, (), THRESHOLD, 0)
        assert found >= complete_distance(hand, RULES)
        pays = _complete_points(hand) >= THRESHOLD
        assert (found == 0) == pays, [code(c) for c in hand.cards()]
        zeros += pays
        if found >= 1:
            assert (found == 1) == _brute_one(hand), [code(c) for c in hand.cards()]
            ones += found == 1
    assert zeros > 30 and ones > 10  # both cases are met often enough to mean something


def test_after_a_discard_is_the_waiting_target():
    """After discard x the paying distance is that of the 20 cards left, waiting for one more card: 0 exactly
    when some card completes a win that pays."""
    rng = random.Random(7)
    checked = 0
    evaluator = evaluator_for(RULES)
    for _ in range(40):
        hand = _random_hand(rng)
        legal = [c for c in range(N_KINDS) if hand.counts[c] and c % 7]
        found = paying_distances(hand, RULES, (), legal, THRESHOLD)
        for x in legal[:4]:
            rest = hand.copy()
            rest.remove(x)
            wins = one_card_wins(rest, THRESHOLD, evaluator)
            assert (found[x] == 0) == wins
            assert found[x] >= distance(rest, RULES)
            checked += 1
    assert checked > 100


def one_card_wins(rest: Tally, points: int, evaluator) -> bool:
    """Whether some card added to the 20 cards `rest` completes a hand whose best split scores `points` or more."""
    for y in range(N_KINDS):
        if rest.counts[y] < 4:
            won = rest.copy()
            won.add(y)
            best = evaluator.evaluate(won)[0]
            if best is not None and best.points >= points:
                return True
    return False


def test_far_hands_stop_at_the_cap():
    hand = tally("rA yA gA wA rE yE gE wE rC yC gC wC rH yH gH wH rP yP gP wP rS")
    assert paying_distance(hand, RULES, (), THRESHOLD, 0) <= CAP + 1


@pytest.mark.slow  # over 2 s on 2 cores
def test_the_advice_ranks_a_paying_wait_before_a_wait_that_costs():
    """A discard that leaves the hand waiting only on wins under the threshold (each a loss of 11 per opponent)
    ranks below one that leaves the hand nearer a win that pays, whatever its structural distance; its reason says
    how far the paying win is."""
    rng = random.Random(11)
    seen = 0
    for _ in range(600):
        hand = _random_hand(rng)
        cards = " ".join(code(c) for c in hand.cards())
        analysis = analyse_discards(RS, RS.parse(OPTIONS, cards.split()), OPTIONS, [], 4)
        costly = [o for o in analysis.options if o.distance == 0 and o.waits
                  and max(w.points for w in o.waits) < THRESHOLD]
        if not costly:
            continue
        assert all(w.gain == -(THRESHOLD + 1) * 3 for o in costly for w in o.waits)  # h < 10: pays 3 x 11
        assert all(o.paying is not None and o.paying >= 1 for o in costly)
        assert all("from a win that pays" in o.reason for o in costly)
        better = [o for o in analysis.options if paying_of(o) < min(paying_of(c) for c in costly)]
        if better:
            assert max(o.rank for o in better) < min(o.rank for o in costly)
            seen += 1
    assert seen >= 5


def test_paying_improving_cards_against_their_definition():
    """A card y improves the hand R a discard leaves (paying distance k >= 1) when R + y has a discard leaving
    paying distance k - 1: checked against every discard of every R + y."""
    rng = random.Random(99)
    checked = 0
    unseen = [4] * N_KINDS
    for _ in range(30):
        hand = _random_hand(rng)
        legal = [c for c in range(N_KINDS) if hand.counts[c] and c % 7]
        found = paying_distances(hand, RULES, (), legal, THRESHOLD)
        for x in legal[:3]:
            now = found[x]
            if not 1 <= now <= CAP:
                continue
            rest = hand.copy()
            rest.remove(x)
            room = [y for y in range(N_KINDS) if rest.counts[y] < 4]
            counted = paying_improving(hand, RULES, (), [x], THRESHOLD, unseen, now)[x]
            improving = 0
            for y in room:
                more = rest.copy()
                more.add(y)
                discards = [z for z in range(N_KINDS) if more.counts[z] and z % 7]
                if min(paying_distances(more, RULES, (), discards, THRESHOLD).values()) == now - 1:
                    improving += 4
            assert counted == improving, [code(c) for c in hand.cards()]
            checked += 1
    assert checked > 30


def test_reach_tables_answer_as_the_join_they_stand_for():
    """`reaches(join_reach(a, b), c)` (the lowering cards' query, without building the join's table) answers as
    `fits` on the joined table: a target scoring the points needed within `top` replacements, slack 0."""
    rng = random.Random(7)
    asked = found = 0
    for _ in range(40):
        hand = _random_hand(rng)
        keys = group_keys(hand, limits_of((), RULES.flowers), False)
        tables = [group_table(g, k, RULES, THRESHOLD) for g, k in enumerate(keys)]
        for top in range(1, 5):
            for need in (0, 4, THRESHOLD):
                for a, b, c in ((0, 1, 2), (2, 3, 4), (4, 0, 3), (1, 1, 1)):
                    joined = join(tables[a], tables[b], need, top)
                    expected = fits(joined, tables[c], need, 0) <= top
                    assert reaches(join_reach(tables[a], tables[b], need, top), tables[c], need, top) == expected
                    assert reaches(reach_of(joined, need, top), tables[c], need, top) == expected
                    asked, found = asked + 1, found + expected
    assert 0 < found < asked  # both answers occur


def test_a_rich_win_is_one_of_five_points_over_the_threshold():
    """A discard's `rich` (counted for the discards at the least paying distance) is its paying distance counted
    with the threshold raised by five: 0 exactly when some card completes a win of at least 15 points (the
    oracle's best split), and never below the paying distance."""
    rng = random.Random(20261204)
    evaluator = evaluator_for(RULES)
    zeros = checked = 0
    for _ in range(60):
        hand = _random_hand(rng)
        cards = [code(c) for c in hand.cards()]
        analysis = analyse_discards(RS, RS.parse(OPTIONS, cards), OPTIONS, [], 4)
        least = min(paying_of(o) for o in analysis.options)
        assert all((o.rich is None) == (paying_of(o) > least) for o in analysis.options)
        for option in [o for o in analysis.options if o.rich is not None][:4]:
            rest = hand.copy()
            rest.remove(option.card)
            rich_win = one_card_wins(rest, THRESHOLD + 5, evaluator)
            assert option.rich >= paying_of(option)
            assert (option.rich == 0) == rich_win, cards
            zeros += rich_win
            checked += 1
    assert checked > 150 and zeros > 10


def test_the_advice_ranks_a_nearer_rich_win_before_more_lowering_cards():
    """Between discards that leave the same paying distance, the one nearer a win of 15 points ranks first, even
    with fewer unseen cards that lower the paying distance: every opponent pays each point over the threshold."""
    rng = random.Random(5)
    seen = 0
    for _ in range(400):
        hand = _random_hand(rng)
        cards = [code(c) for c in hand.cards()]
        options = analyse_discards(RS, RS.parse(OPTIONS, cards), OPTIONS, [], 4).options
        for a in options:
            for b in options:
                if paying_of(a) == paying_of(b) and (a.rich or 0) < (b.rich or 0):
                    assert a.rank < b.rank, cards
                    seen += (a.paying_improving or 0) < (b.paying_improving or 0)
    assert seen >= 5  # the rich win decided against the lowering cards often enough to mean something


def test_a_flat_payment_counts_no_rich_win():
    """Under `win_payment` flat every paying win pays the same, so no discard counts a rich win."""
    options = RS.resolve_options({"win_payment": "flat"})
    hand = tally("rG rA rE yC yH yP gS gS gS wC wH wP rC rC yA yA gE gE wH wH wS")
    analysis = analyse_discards(RS, RS.parse(options, [code(c) for c in hand.cards()]), options, [], 4)
    assert analysis.options and all(o.rich is None for o in analysis.options)
    excess = analyse_discards(RS, RS.parse(OPTIONS, [code(c) for c in hand.cards()]), OPTIONS, [], 4).options
    assert excess[0].rich is not None
