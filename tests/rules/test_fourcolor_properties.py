"""Property tests of the Four Color Cards engine (STYLE.md "Tests"): a best decomposition covers the hand
exactly with legal melds; the table evaluator agrees with the recursive oracle `reference.search`; settlement
deltas sum to zero and follow the threshold rule (docs/rules.md#fc-settlement)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from functools import cache
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.fourcolor import samples
from service.rules.fourcolor.cards import COPIES, FLOWER_BASE, N_FLOWERS, N_KINDS, SOLDIER, Tally, character_of, code
from service.rules.fourcolor.evaluate import Evaluator, evaluator_for
from service.rules.fourcolor.melds import MeldRules, classify
from service.rules.registry import get_ruleset
from tests.testbed import fourcolor_oracle as reference

MAX_CARDS = 21  # 20 dealt + the public card, or the dealer's 21 (docs/rules.md#fc-turn)

PROFILES = {
    "bga-default": ("bga-taiwan", {}),
    "bga-no-same-colour-soldier-sets": ("bga-taiwan", {"same_colour_soldier_sets": False}),
    "bga-general-triple": ("bga-taiwan", {"general_triple": True}),
    "bga-general-triple-no-soldier-sets": (
        "bga-taiwan", {"general_triple": True, "same_colour_soldier_sets": False}),
    "flowers-default": ("cardavia-flowers", {}),
    "flowers-mixed-groups-zero": ("cardavia-flowers", {"mixed_group_points": "zero"}),
}


@cache
def rules_of(profile: str) -> MeldRules:
    """The meld profile of a named rule-set + options pair."""
    ruleset_id, options = PROFILES[profile]
    ruleset = get_ruleset(ruleset_id)
    return ruleset.meld_rules(ruleset.resolve_options(options))


def evaluator(profile: str) -> Evaluator:
    """The cached table evaluator of a named profile."""
    return evaluator_for(rules_of(profile))


def deck(rules: MeldRules) -> list[int]:
    """Copies of every card index in the rule-set's deck (docs/rules.md#fc-cards)."""
    return [COPIES] * N_KINDS + ([1] * N_FLOWERS if rules.flowers else [])


@cache
def legal_shapes(rules: MeldRules) -> tuple[tuple[int, ...], ...]:
    """Every meld (as sorted card indices) that exists under `rules`, by classify."""
    shapes = [(c,) * n for c in range(N_KINDS) for n in (1, 2, 3, 4)]
    shapes += [tuple(col * 7 + k for k in group) for col in range(4) for group in ((0, 1, 2), (3, 4, 5))]
    soldiers = tuple(col * 7 + SOLDIER for col in range(4))
    shapes += [*combinations(soldiers, 3), soldiers]
    shapes += [(FLOWER_BASE + i,) for i in range(N_FLOWERS)]
    return tuple(s for s in shapes if classify(s, rules) is not None)


# --- hand strategies -------------------------------------------------------------------------------------


def from_samples(make: Callable[..., list[int]], rules: MeldRules, min_size: int) -> st.SearchStrategy[list[int]]:
    """A hand from one of the `samples` generators, driven by a Hypothesis-seeded random.Random."""
    return st.builds(make, st.randoms(use_true_random=True), st.just(rules), st.integers(min_size, MAX_CARDS))


@st.composite
def meld_lists(draw: st.DrawFn, rules: MeldRules, max_cards: int = MAX_CARDS) -> list[tuple[int, ...]]:
    """Legal melds drawn one by one; a meld that would exceed the deck or `max_cards` is skipped."""
    picked = draw(st.lists(st.sampled_from(legal_shapes(rules)), max_size=MAX_CARDS))
    left, melds, size = deck(rules), [], 0
    for shape in picked:
        if size + len(shape) > max_cards or any(left[c] < shape.count(c) for c in shape):
            continue
        for c in shape:
            left[c] -= 1
        melds.append(shape)
        size += len(shape)
    return melds


@st.composite
def swapped_one(draw: st.DrawFn, rules: MeldRules) -> list[int]:
    """A winning hand drawn from melds with one card replaced by a card still in the deck (a near miss)."""
    cards = [c for meld in draw(meld_lists(rules)) for c in meld]
    if not cards:
        return cards
    left = deck(rules)
    for c in cards:
        left[c] -= 1
    cards[draw(st.integers(0, len(cards) - 1))] = draw(st.sampled_from([c for c, n in enumerate(left) if n]))
    return cards


@st.composite
def card_hands(draw: st.DrawFn, rules: MeldRules) -> list[int]:
    """Cards drawn directly from a small pool of card kinds (many copies, many splits); deck limits kept."""
    kinds = st.integers(0, len(deck(rules)) - 1)
    pool = draw(st.lists(kinds, min_size=1, max_size=10, unique=True))
    left, hand = deck(rules), []
    for c in draw(st.lists(st.sampled_from(pool), max_size=MAX_CARDS)):
        if left[c]:
            left[c] -= 1
            hand.append(c)
    return hand


def winning_hands(rules: MeldRules) -> st.SearchStrategy[list[int]]:
    """Hands built from random melds."""
    melded = meld_lists(rules).map(lambda melds: [c for meld in melds for c in meld])
    return st.one_of(from_samples(samples.winning_hand, rules, 0), melded)


def near_misses(rules: MeldRules) -> st.SearchStrategy[list[int]]:
    """Winning hands with one card replaced."""
    return st.one_of(from_samples(samples.near_miss, rules, 1), swapped_one(rules))


def random_hands(rules: MeldRules) -> st.SearchStrategy[list[int]]:
    """Small random hands of any size 0..21."""
    return st.one_of(from_samples(samples.random_hand, rules, 0), card_hands(rules))


HAND_KINDS = {"winning": winning_hands, "near_miss": near_misses, "random": random_hands}


def any_hand(rules: MeldRules) -> st.SearchStrategy[list[int]]:
    """A hand of any of the kinds above."""
    return st.one_of(*(make(rules) for make in HAND_KINDS.values()))


# --- decomposition and oracle properties --------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
@pytest.mark.slow  # over 2 s on 2 cores
def test_best_decomposition_covers_the_hand_with_legal_melds(profile: str, data: st.DataObject) -> None:
    """docs/rules.md#fc-decomposition: one card belongs to one meld only; the best split's points are its concealed
    meld values."""
    rules, ev = rules_of(profile), evaluator(profile)
    cards = data.draw(any_hand(rules), label="hand")
    tally = Tally.of(cards)
    best = ev.best_decomposition(tally)
    if best is None:
        assert ev.best_points(tally) == -1
        assert ev.count(tally) == 0
        return
    assert Counter(c for meld in best.melds for c in meld.cards) == Counter(cards)
    for meld in best.melds:
        assert meld.concealed
        assert classify(meld.cards, rules) == meld.kind, [code(c) for c in meld.cards]
    assert best.points == sum(rules.value(meld.kind, True) for meld in best.melds)
    assert best.points == ev.best_points(tally)
    assert ev.count(tally) >= 1


@pytest.mark.parametrize("hand_kind", HAND_KINDS)
@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
@pytest.mark.slow  # over 2 s on 2 cores
def test_tables_agree_with_reference_search(profile: str, hand_kind: str, data: st.DataObject) -> None:
    """The table evaluator and the plain recursive search give the same best points and number of splits."""
    rules, ev = rules_of(profile), evaluator(profile)
    cards = data.draw(HAND_KINDS[hand_kind](rules), label="hand")
    tally = Tally.of(cards)
    assert (ev.best_points(tally), ev.count(tally)) == reference.search(tally, rules)


# --- settlement --------------------------------------------------------------------------------------------


def option_values(ruleset: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Any subset of the rule-set's declared options, each with a legal value (small integers)."""
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for option in ruleset.options:
        if option.choices is not None:
            fields[option.name] = st.sampled_from(option.choices)
        elif option.type == "boolean":
            fields[option.name] = st.booleans()
        else:
            fields[option.name] = st.integers(option.minimum or 0, min(option.maximum or 40, 40))
    return st.fixed_dictionaries({}, optional=fields)


@st.composite
def won_rounds(draw: st.DrawFn, ruleset_id: str) -> dict[str, Any]:
    """A winning hand split into exposed melds, concealed cards and a winning card, with seats and options."""
    ruleset = get_ruleset(ruleset_id)
    options = ruleset.resolve_options(draw(option_values(ruleset), label="options"))
    rules = ruleset.meld_rules(options)
    melds = draw(meld_lists(rules), label="melds")
    exposed_flags = draw(st.lists(st.booleans(), min_size=len(melds), max_size=len(melds)))
    exposed = [m for m, flag in zip(melds, exposed_flags) if flag]
    concealed = [c for m, flag in zip(melds, exposed_flags) if not flag for c in m]
    public = None
    if concealed and draw(st.booleans()):
        public = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    seats = draw(st.integers(ruleset.min_seats, ruleset.max_seats))
    lucky = None
    if not rules.flowers:
        held = Counter(c for m in melds for c in m)
        lucky = draw(st.none() | st.sampled_from([c for c in range(N_KINDS) if held[c] < COPIES]))
    return {
        "ruleset": ruleset, "options": options, "rules": rules, "exposed": exposed, "concealed": concealed,
        "public": public, "seats": seats, "winner": draw(st.integers(0, seats - 1)), "lucky": lucky,
    }


def lucky_matches(cards: list[int], lucky: int | None, match: str) -> int:
    """The lucky-card bonus by its definition (docs/rules.md#fc-lucky-match): cards identical to the lucky card, or
    of its character in any colour."""
    if lucky is None:
        return 0
    if match == "character":
        return sum(character_of(c) == character_of(lucky) for c in cards)
    return cards.count(lucky)


def check_bga_payments(deltas: tuple[int, ...], h: int, winner: int, options: Mapping[str, Any]) -> None:
    """docs/rules.md#fc-threshold: h >= T: each opponent pays (h - T) + stake (flat: T + stake); h < T: caller pays T +
    stake."""
    threshold, stake = options["threshold"], options["stake"]
    if h >= threshold:
        pay = threshold + stake if options["win_payment"] == "flat" else h - threshold + stake
    else:
        pay = -(threshold + stake)
    assert (deltas[winner] >= 0) == (h >= threshold)
    assert deltas[winner] == pay * (len(deltas) - 1)
    assert all(d == -pay for seat, d in enumerate(deltas) if seat != winner)


@pytest.mark.parametrize("ruleset_id", ["bga-taiwan", "cardavia-flowers"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
@pytest.mark.slow  # over 2 s on 2 cores
def test_settlement_deltas_sum_to_zero(ruleset_id: str, data: st.DataObject) -> None:
    """Deltas sum to zero and the winner's sign follows the threshold (bga) or the payment option (flowers)."""
    r = data.draw(won_rounds(ruleset_id), label="round")
    ruleset, options, rules = r["ruleset"], r["options"], r["rules"]
    lucky = None if r["lucky"] is None else code(r["lucky"])
    public = None if r["public"] is None else code(r["public"])
    exposed = [{"kind": classify(m, rules), "cards": [code(c) for c in m]} for m in r["exposed"]]
    hand = ruleset.parse(options, [code(c) for c in r["concealed"]], exposed, public, {"lucky_card": lucky})
    result = ruleset.settle(hand, options, r["seats"], r["winner"], lucky)

    assert len(result.deltas) == r["seats"]
    assert sum(result.deltas) == 0
    all_cards = [c for m in r["exposed"] for c in m] + r["concealed"] + ([] if public is None else [r["public"]])
    assert Counter(c for meld in result.melds for c in meld.cards) == Counter(all_cards)
    exposed_points = sum(rules.value(classify(m, rules), False) for m in r["exposed"])
    concealed_points = evaluator_for(rules).best_points(hand.with_public())
    if rules.flowers:
        assert result.points == exposed_points + concealed_points
        if options["payment"] == "none":
            assert result.deltas == (0,) * r["seats"]
        else:
            assert result.deltas[r["winner"]] == result.points * (r["seats"] - 1) >= 0
        return
    assert result.lucky_bonus == lucky_matches(all_cards, r["lucky"], options["lucky_match"])
    if options["winning_meld_concealed"] or public is None:
        assert result.points == exposed_points + concealed_points + result.lucky_bonus
    check_bga_payments(result.deltas, result.points, r["winner"], options)
