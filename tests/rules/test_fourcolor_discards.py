"""Exact discard analysis of Four Color Cards (docs/rules.md#fourcolor): distance, waits, gains, improving cards,
ranking.

Rule cases show their arithmetic; the property tests check the engine against brute force: the waits against
`reference.search` on every card of the deck, the distance against every complete hand of the target size (all
multisets of melds that `classify` accepts) and against a search over every one-card replacement, the improving
cards against their definition, and the fast tables against the exact ones.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations_with_replacement

import pytest

from service.advice.analyse import analyse_discards
from service.rules.errors import DomainError
from service.rules.fourcolor import group_tables
from service.rules.fourcolor.cards import CODE_INDEX, COPIES, FLOWER_BASE, N_FLOWERS, N_KINDS, Tally, code
from service.rules.fourcolor.discard_distances import DiscardDistances
from service.rules.fourcolor.distance import ALL_GENERALS, Groups, complete_distance, distance, limits_of
from service.rules.fourcolor.melds import Meld, MeldRules, classify
from service.rules.fourcolor.takeable import take_share
from service.rules.registry import get_ruleset
from tests.testbed import fourcolor_oracle as reference

BGA, FLOWERS = "bga-taiwan", "cardavia-flowers"
PROFILES = {
    "bga-default": (BGA, {}),
    "bga-no-same-colour-soldier-sets": (BGA, {"same_colour_soldier_sets": False}),
    "bga-general-triple": (BGA, {"general_triple": True}),
    "flowers-default": (FLOWERS, {}),
}


def analyse(ruleset_id, hand, exposed=(), visible="", seats=4, options=None):
    """Parse a hand (codes separated by spaces) and analyse its discards."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(options)
    return analyse_discards(rs, rs.parse(o, hand.split(), list(exposed)), o, visible.split(), seats)


def option(analysis, card):
    """The option that discards `card`."""
    return next(o for o in analysis.options if code(o.card) == card)


def waits(opt):
    """(card, unseen, points, gain) of each wait."""
    return [(code(w.card), w.unseen, w.points, w.gain) for w in opt.waits]


@cache
def rules_of(profile: str) -> MeldRules:
    """The meld profile of a named rule-set + options pair."""
    ruleset_id, options = PROFILES[profile]
    rs = get_ruleset(ruleset_id)
    return rs.meld_rules(rs.resolve_options(options))


# --- rule cases -------------------------------------------------------------------------------------------

# Commands rGAE yGAE 2 + 2, fields gCHP wCHP 1 + 1, triple rC 3, soldiers3 yS gS wS 3 = 12; yC yH wait on yP
# (field +1 = 13); wA is the odd card. bga: 13 >= 10, each opponent pays (13 - 10) + 1 = 4.
ONE_WAIT = "rG rA rE yG yA yE gC gH gP wC wH wP rC rC rC yS gS wS yC yH wA"
# Nine pairs (rC rH rP twice are better read as two fields, 2), gA gE wait on gG (command 2): 4 < 10.
LOW_WAIT = "rA rA rE rE rC rC rH rH rP rP yA yA yE yE yC yC yH yH gA gE wC"
# Commands 4, fields 2, triples rC yH 3 + 3 = 12; yS gS wait on rS or wS (soldiers3 3): 15, each pays 6.
SOLDIER_WAIT = "rG rA rE yG yA yE gC gH gP wC wH wP rC rC rC yH yH yH yS gS rP"
# The exposed triple rA leaves one rA: the hand's rA cannot be paired (a fifth copy), nor form a command.
FIFTH_COPY = "rA yC yH yP gC gH gP wC wH wP yS gS wS wE wE wE wE gA"
# Command rGAE, field yCHP, triple gA, soldiers3 gS yS wS, pair wA: 14 cards in melds; rC rH lack rP and gC gP
# lack gH; yE, wH, wE are alone. Complete distance (21 cards): keeping rC rH gC gP (2 missing) and dropping the
# three lone cards fits (18 kept + 2 missing + 1 General = 21); keeping 19 needs a fifth of the seven loose
# cards, which brings a third missing card: 19 + 3 > 21. So 3. Without yE: keep 18, drop wH wE, 2 missing:
# 18 + 2 + 1 General = 21 fits; keeping 19 of 20 needs 3 missing, 22 > 21. So 2.
BY_HAND = "rG rA rE yC yH yP gA gA gA gS yS wS wA wA rC rH gC gP yE wH wE"


@pytest.mark.parametrize(("ruleset_id", "hand", "options", "seats", "discard", "expected"), [
    pytest.param(BGA, ONE_WAIT, None, 4, "wA", [("yP", 4, 13, 12)], id="single_wait_excess_payment_four_seats"),
    pytest.param(BGA, ONE_WAIT, None, 2, "wA", [("yP", 4, 13, 4)], id="single_wait_two_seats_one_payer"),
    pytest.param(BGA, ONE_WAIT, {"win_payment": "flat"}, 4, "wA", [("yP", 4, 13, 33)],
                 id="flat_payment_each_opponent_pays_threshold_plus_stake"),
    pytest.param(BGA, LOW_WAIT, None, 4, "wC", [("gG", 4, 4, -33)], id="below_threshold_the_caller_pays_each_11"),
    pytest.param(BGA, SOLDIER_WAIT, None, 4, "rP", [("rS", 4, 15, 18), ("wS", 4, 15, 18)],
                 id="soldiers3_wait_on_either_missing_colour"),
    # flowers: commands 1 + 1, fields 1 + 1 + 1, triple 1, soldiers3 1 = 7
    pytest.param(FLOWERS, ONE_WAIT, None, 4, "wA", [("yP", 4, 7, 7)], id="flowers_no_payment_gain_is_the_points"),
    pytest.param(FLOWERS, ONE_WAIT, {"payment": "each_loser_pays"}, 4, "wA", [("yP", 4, 7, 21)],
                 id="flowers_each_loser_pays_the_total"),
])
def test_waits_points_and_gain(ruleset_id, hand, options, seats, discard, expected):
    """docs/rules.md#fc-settlement: the gain is the winner's delta with no lucky card."""
    analysis = analyse(ruleset_id, hand, seats=seats, options=options)
    chosen = option(analysis, discard)
    assert chosen.distance == 0
    assert waits(chosen) == expected
    # docs/rules.md#fc-generals-discard: the gG wait comes from the stock alone, the others either way
    assert all(w.claims == (("stock",) if code(w.card)[1] == "G" else ("discard", "stock")) for w in chosen.waits)
    assert chosen.improving == tuple((CODE_INDEX[c], n) for c, n, _, _ in expected)
    total = sum(n * max(g, 0) for _, n, _, g in expected)
    assert chosen.expected_gain == pytest.approx(total / analysis.unseen_total)


# Fields rCHP yCHP gCHP wCHP (concealed 1 each = 4) and Advisor pairs rA yA gA wA (0): discarding rE leaves 20
# cards that any General (a general meld, 1: h = 5) or a third Advisor (a concealed triple, 3: h = 7) completes;
# in cardavia-flowers a flower too (3: 7 points), and an Advisor triple scores 1 there (5).
FIELDS_AND_PAIRS = "rC rH rP yC yH yP gC gH gP wC wH wP rA rA yA yA gA gA wA wA rE"
ANY = ("discard", "stock")
STOCK = ("stock",)
STOCK_ONLY_WAITS = [
    # threshold 0, stake 1, 4 seats: a General h = 5 pays (5 - 0) + 1 = 6 from each of 3 opponents = 18; an
    # Advisor h = 7 pays 8 each = 24. Unseen: 112 - 21 = 91; 4 copies of each General, 2 of each Advisor. The next
    # stock card is each unseen card with chance 1/91, so expected gain = (4 x 4 x 18 + 4 x 2 x 24) / 91 = 480/91.
    pytest.param(BGA, {"threshold": 0}, [("rG", 4, 5, 18, STOCK), ("rA", 2, 7, 24, ANY), ("yG", 4, 5, 18, STOCK),
                                         ("yA", 2, 7, 24, ANY), ("gG", 4, 5, 18, STOCK), ("gA", 2, 7, 24, ANY),
                                         ("wG", 4, 5, 18, STOCK), ("wA", 2, 7, 24, ANY)], 480 / 91,
                 id="general_wait_comes_only_from_the_stock_bga"),
    # default threshold 10: h = 5 or 7 < 10, the caller pays each opponent 10 + 1: -33 per wait; no wait is worth
    # calling, so the expected gain is 0 whichever route a card comes by.
    pytest.param(BGA, {}, [("rG", 4, 5, -33, STOCK), ("rA", 2, 7, -33, ANY), ("yG", 4, 5, -33, STOCK),
                           ("yA", 2, 7, -33, ANY), ("gG", 4, 5, -33, STOCK), ("gA", 2, 7, -33, ANY),
                           ("wG", 4, 5, -33, STOCK), ("wA", 2, 7, -33, ANY)], 0.0,
                 id="general_wait_under_the_threshold_is_stock_only_and_worth_nothing"),
    # flowers (seed 003 "Generais e flores não podem ser descartados"), no payments: gain = points. Unseen: 117 - 21
    # = 96; expected gain = (4 Generals x 4 x 5 + 4 Advisors x 2 x 5 + 5 flowers x 1 x 7) / 96 = 155/96.
    pytest.param(FLOWERS, {}, [("rG", 4, 5, 5, STOCK), ("rA", 2, 5, 5, ANY), ("yG", 4, 5, 5, STOCK),
                               ("yA", 2, 5, 5, ANY), ("gG", 4, 5, 5, STOCK), ("gA", 2, 5, 5, ANY),
                               ("wG", 4, 5, 5, STOCK), ("wA", 2, 5, 5, ANY), ("F1", 1, 7, 7, STOCK),
                               ("F2", 1, 7, 7, STOCK), ("F3", 1, 7, 7, STOCK), ("F4", 1, 7, 7, STOCK),
                               ("F5", 1, 7, 7, STOCK)], 155 / 96,
                 id="general_and_flower_waits_come_only_from_the_stock_flowers"),
]


@pytest.mark.parametrize(("ruleset_id", "options", "expected", "expected_gain"), STOCK_ONLY_WAITS)
def test_waits_on_cards_never_discarded_are_stock_only(ruleset_id, options, expected, expected_gain):
    """docs/rules.md#fc-generals-discard, #fl-discard: Generals (flowers: and flowers) are never
    discarded, so such a wait is won on a stock card only;
    the expected gain is that of the next stock card, where every unseen card is equally likely."""
    chosen = option(analyse(ruleset_id, FIELDS_AND_PAIRS, options=options), "rE")
    assert [(code(w.card), w.unseen, w.points, w.gain, w.claims) for w in chosen.waits] == expected
    assert chosen.expected_gain == pytest.approx(expected_gain)


def test_reach_of_a_waiting_hand_counts_wins_not_points_where_nobody_pays():
    """cardavia-flowers without payments ranks on the win rate (docs/rules.md#fl-payment), so a waiting hand's reach
    counts its waiting copies, a copy any public card may bring (an Advisor: discard or stock) 2.4 times one only
    the stock may bring (a General, a flower); its points do not enter. Under payments, and in bga-taiwan, the
    expected gain ranks waits and the reach is 0."""
    chosen = option(analyse(FLOWERS, FIELDS_AND_PAIRS), "rE")
    assert chosen.reach == pytest.approx(4 * 4 * 1.0 + 4 * 2 * 2.4 + 5 * 1 * 1.0)  # Generals, Advisors, flowers
    paid = option(analyse(FLOWERS, FIELDS_AND_PAIRS, options={"payment": "each_loser_pays"}), "rE")
    assert paid.reach == 0.0
    assert option(analyse(BGA, FIELDS_AND_PAIRS), "rE").reach == 0.0


# yE or rP: either leaves 2 replacements from waiting (a field rC rH rP, a triple gE x3, pairs yP and wS, the
# singles to replace). Discarding rP keeps 20 unseen improving cards, yE 19; but a public card only ever goes into
# an exposed meld, and in cardavia-flowers nobody may claim a pair (docs/rules.md#fl-claims: the drawer may not
# pair his new card, the others claim only triples and quads, the next player also mixed melds).
CLAIMABLE = "rG rC rH rP rP yE yC yP yP gA gE gE gE gC wG wA wE wC wH wS wS"


def test_flowers_ranks_far_hands_by_the_improving_cards_that_can_be_claimed():
    """Discard yE: rP (2 unseen) makes a triple with the kept pair, claimable by any seat but the discarder
    (weight 1: every role); gG (4) a command with gA gE and wP (4) a field with wC wH, mixed melds only the drawer
    and the next player may claim (1/4 + 1/4 of the public cards); yC, gA, gC only pair a single: weight 0. Reach
    2 + 4/2 + 4/2 = 6. Discard rP: its improving yE pairs a single, so only gG and wP count: reach 4. The advice
    keeps the pair rP; bga-taiwan, where the reach is 0, ranks far hands on the unseen count alone."""
    analysis = analyse(FLOWERS, CLAIMABLE)
    keep, split = option(analysis, "yE"), option(analysis, "rP")
    assert (keep.distance, keep.improving_unseen, split.distance, split.improving_unseen) == (2, 19, 2, 20)
    assert [(code(c), n) for c, n in keep.improving] == [("rP", 2), ("yC", 3), ("gG", 4), ("gA", 3), ("gC", 3),
                                                          ("wP", 4)]
    assert (keep.reach, split.reach) == (pytest.approx(6.0), pytest.approx(4.0))
    assert code(analysis.options[0].card) == "yE"
    assert keep.reason == "2 replacements from waiting; 19 unseen cards improve it, 6.00 counted by who may claim them"
    bga = analyse(BGA, CLAIMABLE)
    assert {o.reach for o in bga.options} == {0.0}
    least = [o for o in bga.options if o.distance == bga.options[0].distance]
    assert bga.options[0].improving_unseen == max(o.improving_unseen for o in least)


@pytest.mark.parametrize(("ruleset_id", "rest", "card", "share"), [
    pytest.param(FLOWERS, "yC yP yP", "yC", 0.0, id="flowers_a_pair_is_never_claimed"),
    pytest.param(FLOWERS, "rP rP", "rP", 1.0, id="flowers_a_triple_by_any_seat"),
    pytest.param(FLOWERS, "wC wH", "wP", 0.5, id="flowers_a_field_by_drawer_and_next"),
    pytest.param(FLOWERS, "rA", "gG", 0.25, id="flowers_a_lone_general_by_the_drawer"),
    pytest.param(FLOWERS, "rA", "F2", 0.25, id="flowers_a_flower_by_the_drawer"),
    pytest.param(BGA, "yC yP yP", "yC", 0.5, id="bga_a_pair_is_chi_type_drawer_and_next"),
    pytest.param(BGA, "rS gA", "rS", 0.0, id="bga_no_soldier_pair"),
    pytest.param(BGA, "rS gS", "yS", 0.5, id="bga_three_soldiers_chi_type"),
    pytest.param(BGA, "gE gE gE", "gE", 1.0, id="bga_a_quad_by_any_seat"),
])
def test_take_share_follows_the_claim_rules(ruleset_id, rest, card, share):
    """docs/rules.md#fc-claims, #fl-claims: the share of public cards (drawer 1/4, next 1/4, other 1/2) on which
    the seat may claim a meld of `card` with the cards it holds."""
    rs = get_ruleset(ruleset_id)
    rules = rs.meld_rules(rs.resolve_options(None))
    held = Tally.of([CODE_INDEX[c] for c in rest.split()])
    assert take_share(held, CODE_INDEX[card], rules, rs.has_flowers) == share


def test_unseen_total_is_the_deck_minus_the_hand_and_visible_cards():
    """112 cards - 21 in hand - 3 visible = 88; a wait with every copy seen stays a wait worth nothing."""
    analysis = analyse(BGA, ONE_WAIT, visible="yP yP yP yP")
    chosen = option(analysis, "wA")
    assert analysis.unseen_total == 112 - 21 - 4
    assert waits(chosen) == [("yP", 0, 13, 12)]
    assert (chosen.improving, chosen.improving_unseen, chosen.expected_gain) == ((), 0, 0.0)


def test_winning_meld_at_exposed_value():
    """Option winning_meld_concealed false: the triple completed by the winning yC scores 1, not 3."""
    hand = "rG rA rE yG yA yE gC gH gP wC wH wP rC rC rC yS gS wS yC yC wA"
    concealed = dict((c, p) for c, _, p, _ in waits(option(analyse(BGA, hand), "wA")))
    opened = dict((c, p) for c, _, p, _ in waits(option(analyse(BGA, hand, options={
        "winning_meld_concealed": False}), "wA")))
    assert (concealed["yC"], opened["yC"]) == (15, 13)


def test_generals_are_never_offered():
    """docs/rules.md#fc-generals-discard: Generals can never be discarded."""
    analysis = analyse(BGA, ONE_WAIT)
    offered = {code(o.card) for o in analysis.options}
    assert offered == set(ONE_WAIT.split()) - {"rG", "yG"}


def test_flowers_are_never_offered_and_complete_a_complete_hand():
    """Flowers variant: Generals and flowers are never discarded; a flower is a meld by itself, so a complete
    20-card hand waits on every free flower, every free General and the cards that grow a triple to a quad."""
    hand = "rG rA rE yG yA yE gC gH gP rC rC rC F1 F2 yC yH yP wA wA wA wS"
    analysis = analyse(FLOWERS, hand)
    assert {code(o.card) for o in analysis.options} == set(hand.split()) - {"rG", "yG", "F1", "F2"}
    assert [c for c, *_ in waits(option(analysis, "wS"))] == ["rG", "rC", "yG", "gG", "wG", "wA", "F3", "F4", "F5"]


def test_a_fifth_copy_is_no_wait():
    """An exposed triple rA leaves one rA: the hand's rA waits on nothing, so discarding gA leaves distance 1,
    and discarding rA leaves a wait on the second gA."""
    analysis = analyse(BGA, FIFTH_COPY, [{"kind": "triple", "cards": ["rA"] * 3}])
    assert (option(analysis, "gA").distance, option(analysis, "gA").waits) == (1, ())
    assert [c for c, *_ in waits(option(analysis, "rA"))] == ["gA"]
    assert analysis.options[0].card == CODE_INDEX["rA"]


def test_distance_counted_by_hand():
    """BY_HAND above: the hand as it stands is 3 replacements from complete; without yE, 2 from waiting."""
    analysis = analyse(BGA, BY_HAND)
    assert analysis.distance_now == 3
    assert option(analysis, "yE").distance == 2
    assert option(analysis, "yE").reason.startswith("2 replacements from waiting; ")


def test_reason_and_rank_of_a_wait():
    """The waiting discard ranks first and says what it waits on."""
    best = analyse(BGA, ONE_WAIT).options[0]
    assert (code(best.card), best.rank) == ("wA", 1)
    assert best.reason == "waiting on yP: 4 unseen copies, best win 13 points"


def test_dealt_winning_hand_and_only_generals():
    """The dealer's 21 may already be all melds (distance_now 0); a hand of only Generals has no discard."""
    assert analyse(BGA, ONE_WAIT.replace("wA", "yP")).distance_now == 0
    exposed = [{"kind": "triple", "cards": [c] * 3} for c in ("rA", "yA", "gA")]
    only = analyse(BGA, "rG rG rG rG yG yG yG yG gG gG gG gG", exposed)
    assert (only.options, only.distance_now) == ((), 0)


@pytest.mark.parametrize(("hand", "public", "visible", "seats", "code_", "field"), [
    pytest.param(ONE_WAIT.rsplit(" ", 1)[0], None, "", 4, "wrong_card_count", "hand", id="twenty_cards"),
    pytest.param(ONE_WAIT.rsplit(" ", 1)[0], "wA", "", 4, "wrong_card_count", "hand", id="public_card_given"),
    pytest.param(ONE_WAIT, None, "yP yP yP yP yP", 4, "impossible_card_count", "visible.4", id="fifth_visible_copy"),
    pytest.param(ONE_WAIT, None, "rS rX", 4, "unknown_card", "visible.1", id="bad_visible_code"),
    pytest.param(ONE_WAIT, None, "F1", 4, "unknown_card", "visible.0", id="flower_outside_the_flowers_variant"),
    pytest.param(ONE_WAIT, None, "rA rA rA rA", 4, "impossible_card_count", "visible.3", id="hand_copies_count"),
    pytest.param(ONE_WAIT, None, "", 5, "invalid_seat", "seats", id="five_seats"),
])
def test_refused_requests(hand, public, visible, seats, code_, field):
    """A discard decision is made with 21 cards and no public card; visible cards obey the deck's copies."""
    rs = get_ruleset(BGA)
    o = rs.resolve_options(None)
    with pytest.raises(DomainError) as err:
        analyse_discards(rs, rs.parse(o, hand.split(), public_card=public), o, visible.split(), seats)
    assert (err.value.code, err.value.field) == (code_, field)


# --- brute force -------------------------------------------------------------------------------------------


@cache
def all_melds(profile: str) -> tuple[tuple[int, ...], ...]:
    """Every multiset of one to four cards that `classify` accepts: the melds, found by trying them all."""
    rules = rules_of(profile)
    cards = range(N_KINDS + (N_FLOWERS if rules.flowers else 0))
    return tuple(m for n in range(1, 5) for m in combinations_with_replacement(cards, n) if classify(m, rules))


def deck_of(rules: MeldRules) -> list[int]:
    """Copies of each card in the rule-set's deck."""
    return [COPIES] * N_KINDS + [int(rules.flowers)] * N_FLOWERS


@cache
def complete_hands(profile: str, size: int) -> tuple[tuple[int, ...], ...]:
    """Every hand of `size` cards (as copy counts) that splits into melds: all multisets of melds."""
    melds, limits = all_melds(profile), deck_of(rules_of(profile))
    counts, found = [0] * len(limits), set()

    def extend(start: int, left: int) -> None:
        if not left:
            found.add(tuple(counts))
        for i in range(start, len(melds)):
            if len(melds[i]) <= left:
                for c in melds[i]:
                    counts[c] += 1
                if all(counts[c] <= limits[c] for c in melds[i]):
                    extend(i, left - len(melds[i]))
                for c in melds[i]:
                    counts[c] -= 1

    extend(0, size)
    return tuple(found)


def oracle_distance(profile: str, cards: list[int], exposed: list[Meld], slack: int) -> int:
    """n - the most cards of the hand in any complete hand of n + slack cards within the copies left."""
    limits = limits_of(exposed, rules_of(profile).flowers)
    held = Tally.of(cards)
    kinds = sorted(set(cards))
    capped = [c for c in range(len(limits)) if limits[c] < deck_of(rules_of(profile))[c]]
    best = max(sum(min(held.count(c), target[c]) for c in kinds)
               for target in complete_hands(profile, len(cards) + slack)
               if all(target[c] <= limits[c] for c in capped))
    return len(cards) - best


def wins(rules: MeldRules, cards: list[int], limits: tuple[int, ...]) -> bool:
    """The cards are within the copies left and split into melds (the recursive oracle)."""
    return all(cards.count(c) <= limits[c] for c in set(cards)) and reference.search(Tally.of(cards), rules)[0] >= 0


def replaced_distance(rules: MeldRules, cards: list[int], exposed: list[Meld]) -> int:
    """0, 1 or 'at least 2' (2) by trying every card to come and every one-card replacement."""
    limits = limits_of(exposed, rules.flowers)
    every = range(N_KINDS + (N_FLOWERS if rules.flowers else 0))
    if any(wins(rules, cards + [c], limits) for c in every):
        return 0
    for out in set(cards):
        rest = list(cards)
        rest.remove(out)
        if any(wins(rules, rest + [a, b], limits) for a, b in combinations_with_replacement(every, 2)):
            return 1
    return 2


def melded(rng: random.Random, melds: tuple[tuple[int, ...], ...], left: list[int], size: int) -> list[int]:
    """Random melds that fit in the copies `left` and make exactly `size` cards (tries again when stuck)."""
    while True:
        spare, cards = list(left), []
        for _ in range(300):
            meld = rng.choice(melds)
            if len(cards) + len(meld) <= size and all(spare[c] >= meld.count(c) for c in meld):
                for c in meld:
                    spare[c] -= 1
                cards += meld
            if len(cards) == size:
                return cards


def deal(rng: random.Random, profile: str, exposed_cards: int, size: int, kind: str,
         total: bool = False) -> tuple[list[int], list[Meld]]:
    """Random exposed melds of about `exposed_cards` cards, then `size` concealed cards (with `total`: as many
    as make `size` with the exposed ones) from the rest of the deck: random, complete (`winning`) or complete
    with one card swapped (`near`)."""
    rules, melds = rules_of(profile), all_melds(profile)
    left, exposed = deck_of(rules), []
    while sum(len(m.cards) for m in exposed) < exposed_cards - 1:
        meld = rng.choice(melds)
        if len(meld) > 1 and all(left[c] >= meld.count(c) for c in meld):
            exposed.append(Meld(classify(meld, rules), meld, concealed=False))
            for c in meld:
                left[c] -= 1
    size -= sum(len(m.cards) for m in exposed) if total else 0
    pool = [c for c, n in enumerate(left) for _ in range(n)]
    if kind == "random":
        return rng.sample(pool, size), exposed
    cards = melded(rng, melds, left, size)
    if kind == "near":
        cards[rng.randrange(size)] = rng.choice([c for c in pool if cards.count(c) < left[c]])
    return cards, exposed


@pytest.mark.parametrize("profile", PROFILES)
def test_distance_against_every_complete_hand(profile):
    """distance and complete_distance equal the brute-force maximum overlap with every complete hand of the
    target size, on small concealed hands beside exposed melds (their copies used up)."""
    rng, rules = random.Random(f"overlap {profile}"), rules_of(profile)
    for i in range(18):
        size = 2 + i % 3 + (not rules.flowers)  # flowers: 2-4 cards (35k complete hands of 6 cards, 134k of 7)
        cards, exposed = deal(rng, profile, rng.choice((0, 6, 12)), size, ("random", "near", "winning")[i % 3])
        held = Tally.of(cards)
        assert distance(held, rules, exposed) == oracle_distance(profile, cards, exposed, 1), [code(c) for c in cards]
        assert complete_distance(held, rules, exposed) == oracle_distance(profile, cards, exposed, 0)


def general_heavy(rng: random.Random) -> tuple[list[int], list[Meld]]:
    """bga-taiwan: three or four exposed general_quads, the other Generals in hand and a few more cards (mostly
    melds): all 16 Generals are in play, so no General can pad a target."""
    colours = rng.sample(range(4), rng.choice((3, 4)))
    exposed = [Meld("general_quad", (c * 7,) * 4, concealed=False) for c in colours]
    left = list(limits_of(exposed, False))
    cards = [c * 7 for c in range(4) if c not in colours for _ in range(4)]
    for c in cards:
        left[c] -= 1
    size = rng.randint(2, 5)
    if rng.random() < 0.7:
        return cards + melded(rng, all_melds("bga-default"), left, size), exposed
    return cards + rng.sample([c for c in range(N_KINDS) for _ in range(left[c])], size), exposed


def relaxed_distance(rules: MeldRules, cards: list[int], exposed: list[Meld]) -> int:
    """The fast tables' answer taken as it is, without the exact fallback."""
    groups = Groups(rules, limits_of(exposed, rules.flowers))
    return groups.distance([groups.table(g, k) for g, k in enumerate(groups.keys(Tally.of(cards)))], 1)


@pytest.mark.parametrize("source", ["random", "general_heavy"])
def test_distance_against_one_card_replacements(source):
    """Up to distance 1, distance equals the search over every card to come and every one-card replacement; the
    General-heavy hands are where a target cannot take one more General (all 16 in play) and the exact tables
    decide."""
    rng, rules = random.Random(f"replace {source}"), rules_of("bga-default")
    relaxed_wrong = 0
    for i in range(16):
        if source == "random":
            cards, exposed = deal(rng, "bga-default", 12, 7 + i % 3, ("random", "near")[i % 2])
        else:
            cards, exposed = general_heavy(rng)
        got = distance(Tally.of(cards), rules, exposed)
        assert min(got, 2) == replaced_distance(rules, cards, exposed), ([code(c) for c in cards], exposed)
        relaxed_wrong += relaxed_distance(rules, cards, exposed) != got
    assert (relaxed_wrong > 0) == (source == "general_heavy")  # the fallback was needed, and only there


def test_all_sixteen_generals_in_play():
    """rG x4 + rC x4 beside three exposed general_quads is complete, but one more card could complete it only as
    a General, and all 16 are in play: distance 1 (an rC for a yC, waiting on yC), complete distance 0."""
    rules = rules_of("bga-default")
    exposed = [Meld("general_quad", (c * 7,) * 4, concealed=False) for c in (1, 2, 3)]
    held = Tally.of([0] * 4 + [3] * 4)
    assert (distance(held, rules, exposed), complete_distance(held, rules, exposed)) == (1, 0)


def check_analysis(profile: str, cards: list[int], exposed: list[Meld]) -> None:
    """The analysis of a hand agrees with reference.search (waits) and with the definitions (distances)."""
    rules = rules_of(profile)
    rs = get_ruleset(PROFILES[profile][0])
    options = rs.resolve_options(PROFILES[profile][1])
    hand = rs.parse(options, [code(c) for c in cards], [{"kind": m.kind, "cards": m.codes()} for m in exposed])
    analysis = analyse_discards(rs, hand, options, [], 4)
    limits = limits_of(exposed, rules.flowers)
    assert analysis.distance_now == complete_distance(hand.concealed, rules, exposed)
    assert (analysis.distance_now == 0) == wins(rules, cards, limits)
    every = range(N_KINDS + (N_FLOWERS if rules.flowers else 0))
    assert {o.card for o in analysis.options} == {c for c in cards if c < FLOWER_BASE and c % 7}
    for chosen in analysis.options:
        rest = list(cards)
        rest.remove(chosen.card)
        assert chosen.distance == distance(Tally.of(rest), rules, exposed)
        assert [w.card for w in chosen.waits] == [c for c in every if wins(rules, rest + [c], limits)]
        assert (chosen.distance == 0) == bool(chosen.waits)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.slow  # over 2 s on 2 cores
def test_analysis_waits_against_reference(profile):
    """Every card of the deck tried as the next public card with the recursive oracle gives the waits; the
    distance is 0 exactly when there is a wait; the distance now is 0 exactly when the hand is all melds."""
    rng = random.Random(f"waits {profile}")
    for i in range(6):
        check_analysis(profile, *deal(rng, profile, (0, 9)[i % 2], 21, ("near", "winning", "random")[i % 3], True))


def improving_by_definition(rules: MeldRules, cards: list[int], x: int, exposed: list[Meld], d: int) -> list[int]:
    """Cards y with unseen copies (none visible: not in the hand before discarding x, nor exposed) after which
    some legal discard z leaves the hand without x at distance d - 1."""
    limits = limits_of(exposed, rules.flowers)
    rest = list(cards)
    rest.remove(x)
    found = []
    for y in range(N_KINDS + (N_FLOWERS if rules.flowers else 0)):
        taken = rest + [y]
        if cards.count(y) >= limits[y]:
            continue
        for z in set(taken):
            if z < FLOWER_BASE and z % 7:
                left = list(taken)
                left.remove(z)
                if distance(Tally.of(left), rules, exposed) == d - 1:
                    found.append(y)
                    break
    return found


def general_heavy_deal(rng: random.Random) -> tuple[list[int], list[Meld]]:
    """A 21-card bga-taiwan hand beside two or three exposed general_quads, rich in the other Generals."""
    colours = rng.sample(range(4), rng.randint(2, 3))
    exposed = [Meld("general_quad", (c * 7,) * 4, concealed=False) for c in colours]
    left = list(limits_of(exposed, False))
    generals = [c * 7 for c in range(4) if c not in colours]
    cards = [c for c in generals for _ in range(rng.randint(2, 4))]
    pool = [c for c in range(N_KINDS) if c % 7 for _ in range(left[c])]
    return cards + rng.sample(pool, 21 - 4 * len(colours) - len(cards)), exposed


@pytest.mark.parametrize("profile", [*PROFILES, "general-heavy"])
@pytest.mark.slow  # over 2 s on 2 cores
def test_improving_cards_against_definition(profile):
    """An improving card of a discard at distance d >= 1 is one after which some legal discard leaves d - 1;
    at distance 0 the improving cards are the waits with unseen copies."""
    rng = random.Random(f"improving {profile}")
    for i in range(3):
        if profile == "general-heavy":
            profile_, (cards, exposed) = "bga-default", general_heavy_deal(rng)
        else:
            profile_, (cards, exposed) = profile, deal(rng, profile, 9, 21, ("random", "near")[i % 2], True)
        rules, rs = rules_of(profile_), get_ruleset(PROFILES[profile_][0])
        options = rs.resolve_options(PROFILES[profile_][1])
        hand = rs.parse(options, [code(c) for c in cards], [{"kind": m.kind, "cards": m.codes()} for m in exposed])
        for chosen in analyse_discards(rs, hand, options, [], 4).options:
            if chosen.distance:
                want = improving_by_definition(rules, cards, chosen.card, exposed, chosen.distance)
            else:
                want = [w.card for w in chosen.waits if w.unseen]
            assert [y for y, _ in chosen.improving] == want, (code(chosen.card), [code(c) for c in cards])


@pytest.mark.parametrize("profile", PROFILES)
def test_fast_tables_agree_with_exact_ones(profile):
    """Where the padding argument of distance.py holds (few Generals in play), the fast relaxed tables give the
    same distances, waits and improving cards as the exact tables, which count every target size exactly."""
    rng, rules = random.Random(f"exact {profile}"), rules_of(profile)
    for i in range(4):
        cards, exposed = deal(rng, profile, (0, 6)[i % 2], 21, ("random", "near")[i % 2], True)
        tally, limits = Tally.of(cards), limits_of(exposed, rules.flowers)
        legal = sorted({c for c in cards if c < FLOWER_BASE and c % 7})
        every = [c for c in range(len(limits)) if tally.count(c) < limits[c]]
        fast, exact = (DiscardDistances(tally, rules, limits, legal, flag) for flag in (False, True))
        assert not fast.groups.unsafe(sum(tally.counts[c * 7] for c in range(4)), 21, max(fast.after.values()))
        assert not DiscardDistances.of(tally, rules, exposed, legal).groups.exact
        assert (fast.now, fast.after) == (exact.now, exact.after)
        assert [fast.waits(x) for x in legal] == [exact.waits(x) for x in legal]
        assert fast.improving(every) == exact.improving(every)


def test_exact_tables_are_sets_of_target_sizes():
    """A lone rA: drop it (U = 1) and add nothing, a General, a pair... (M = 0, 1, 2...); keep it (U = 0) and
    add one rA (pair), two (triple), three (quad), or a command's rG + rE, plus any padding."""
    groups = Groups(rules_of("bga-default"), limits_of((), False), exact=True)
    key = groups.keys(Tally.of([CODE_INDEX["rA"]]))[0]
    kept, dropped = groups.table(0, key)
    assert kept & 0b1111 == 0b1110 and dropped & 0b1111 == 0b1111


def every_general_beside(flowers: int) -> list[Meld]:
    """cardavia-flowers: all 16 Generals exposed as single `general` melds, and `flowers` exposed flowers."""
    return ([Meld("general", (c * 7,), concealed=False) for c in range(4) for _ in range(COPIES)]
            + [Meld("flower", (FLOWER_BASE + i,), concealed=False) for i in range(flowers)])


@pytest.mark.parametrize("flowers", [0, 1, 2])
def test_flowers_all_generals_in_play_pad_with_a_flower(flowers):
    """cardavia-flowers: Generals are single melds and never a quad, and a flower is a meld by itself, so a target
    one card short is padded with a General or a flower; with all 16 Generals in play a flower is always left (16
    Generals and 5 flowers are 21 cards, more than the 20 in play), so the fast tables stay exact without the
    exact ones: checked against every complete hand."""
    rng, rules, profile = random.Random(f"flowers generals {flowers}"), rules_of("flowers-default"), "flowers-default"
    exposed = every_general_beside(flowers)
    left = list(limits_of(exposed, True))
    pool = [c for c, n in enumerate(left) for _ in range(n)]
    for i in range(9):
        size = 2 + i % (3 - flowers)  # 16 Generals + flowers + size + 1 <= 21 cards in play
        cards = rng.sample(pool, size) if i % 2 else melded(rng, all_melds(profile), left, size)
        held, groups = Tally.of(cards), Groups(rules, limits_of(exposed, True))
        for slack, measure in ((1, distance), (0, complete_distance)):
            found = groups.distance([groups.table(g, k) for g, k in enumerate(groups.keys(held))], slack)
            assert not groups.unsafe(0, size + len(exposed) + slack, found + slack - 1)
            assert found == measure(held, rules, exposed) == oracle_distance(profile, cards, exposed, slack), cards


def flowers_general_heavy(rng: random.Random) -> list[int]:
    """A 21-card cardavia-flowers hand holding 12 to 16 Generals, flowers and a few chess cards."""
    generals = rng.sample([c * 7 for c in range(4) for _ in range(COPIES)], rng.randint(12, 16))
    flowers = rng.sample(range(FLOWER_BASE, FLOWER_BASE + N_FLOWERS), rng.randint(0, 21 - len(generals) - 1))
    others = [c for c in range(N_KINDS) if c % 7 for _ in range(COPIES)]
    return generals + flowers + rng.sample(others, 21 - len(generals) - len(flowers))


def test_exact_tables_only_where_needed():
    """The exact fallback runs only where padding can fail: never in cardavia-flowers, even with every General in
    hand (each is a single meld there, and a flower is left to pad), and in bga-taiwan only when all 16 Generals
    may be in play; where it does not run, the fast tables give the exact tables' distances, waits and improving
    cards, and the analysis agrees with the brute force."""
    rng = random.Random("exact only where needed")
    for profile, make in (("flowers-default", lambda: (flowers_general_heavy(rng), [])),
                          ("bga-default", lambda: general_heavy_deal(rng))):
        rules, chosen = rules_of(profile), []
        for _ in range(6):
            cards, exposed = make()
            tally, limits = Tally.of(cards), limits_of(exposed, rules.flowers)
            legal = sorted({c for c in cards if c < FLOWER_BASE and c % 7})
            every = [c for c in range(len(limits)) if tally.count(c) < limits[c]]
            plan = DiscardDistances.of(tally, rules, exposed, legal)
            exact = DiscardDistances(tally, rules, limits, legal, True)
            generals = sum(tally.counts[c * 7] for c in range(4)) + ALL_GENERALS - sum(limits[c * 7] for c in range(4))
            assert plan.groups.exact == (not rules.flowers and generals + max(exact.after.values()) >= ALL_GENERALS)
            assert (plan.now, plan.after) == (exact.now, exact.after)
            assert [plan.waits(x) for x in legal] == [exact.waits(x) for x in legal]
            assert plan.improving(every) == exact.improving(every)
            chosen.append(plan.groups.exact)
        if rules.flowers:
            check_analysis(profile, cards, exposed)
        assert any(chosen) == (not rules.flowers)


@pytest.mark.parametrize("same", [(0, 3, 4), (0, 2, 3, 4), (0,)])
@pytest.mark.slow  # over 2 s on 2 cores
def test_interchangeable_cards_share_tables(same):
    """Permuting the Soldier colours (each held count with its limit), a colour's A and E, or its C, H and P leaves
    a group's tables and its tables without one legal discard unchanged, fast and exact: the memo keeps one table
    per canonical key."""
    rng = random.Random(f"canonical {same}")
    for exact in (False, True):
        alg = group_tables.Exact if exact else group_tables.Fast
        for _ in range(40):
            for group in (0, group_tables.SOLDIER_GROUP):
                size = 6 if group == 0 else 4
                lim = [rng.choice((COPIES, COPIES, 3, 2, 1, 0)) for _ in range(size)]
                held = [rng.randint(0, cap) for cap in lim]
                order = list(range(size))
                if group == 0:  # G stays first; A/E and C/H/P are shuffled among themselves
                    order = [0, *rng.sample((1, 2), 2), *rng.sample((3, 4, 5), 3)]
                else:
                    rng.shuffle(order)
                key = tuple(held + lim)
                moved = tuple([held[i] for i in order] + [lim[i] for i in order])
                canon = group_tables.canonical(group, key)
                assert canon == group_tables.canonical(group, moved)
                built = group_tables._build_table(alg, group, key, same)
                assert built == group_tables._build_table(alg, group, moved, same)
                assert built == group_tables._build_table(alg, group, canon, same)
                fresh = group_tables.Memo(alg, same)
                assert fresh.without_one(group, key) == group_tables.Memo(alg, same).without_one(group, moved)


def flat(value: object) -> bool:
    """A tuple of ints."""
    return type(value) is tuple and all(type(x) is int for x in value)


def test_memo_holds_tuples_of_ints_and_is_bounded(monkeypatch):
    """The memoised keys and tables are tuples of ints (the two-state tables a pair of them), which the garbage
    collector stops tracking, so full collections do not walk the memo; a full memo starts again and gives the
    same answers."""
    before = analyse(FLOWERS, ONE_WAIT)
    for memo in group_tables._MEMOS.values():
        assert memo.tables and all(flat(k) and flat(v) for k, v in memo.tables.items())
        assert all(flat(k) and flat(v) for k, v in memo.reduced.items())
        assert all(flat(k) and type(v) is tuple and all(map(flat, v)) for k, v in memo.fitted.items())
    monkeypatch.setattr(group_tables, "MEMO_LIMIT", 8)
    for memo in group_tables._MEMOS.values():
        for found in (memo.tables, memo.reduced, memo.fitted):
            found.clear()
    assert analyse(FLOWERS, ONE_WAIT) == before
    assert all(len(found) <= 8 for memo in group_tables._MEMOS.values()
               for found in (memo.tables, memo.reduced, memo.fitted))
