"""Round settlement and match totals (docs/rules.md#fc-settlement, docs/rules.md#fl-settlement, docs/rules.md#fc-match).

bga-taiwan: h = exposed melds (exposed values) + best split of hand + winning card (concealed values) + lucky
bonus; h >= 10: each opponent pays (h - 10) + 1; h < 10: the caller pays each opponent 10 + 1 = 11.
Each case shows its arithmetic; deltas are listed by seat.
"""

from __future__ import annotations

import pytest

from service.rules.errors import ImpossibleCount, NotAWin
from service.rules.fourcolor.settle import match_totals
from service.rules.registry import get_ruleset

BGA, FLOWERS = "bga-taiwan", "cardavia-flowers"


def settle(ruleset_id, hand, exposed=(), public=None, lucky=None, options=None, seats=4, winner=0):
    """Parse (with the lucky card counted as a copy) and settle a hand."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(options)
    extra = {"lucky_card": lucky} if lucky is not None else None
    parsed = rs.parse(o, hand, list(exposed), public, extra)
    return rs.settle(parsed, o, seats, winner, lucky_card=lucky)


def ex(kind, *cards):
    """An exposed meld."""
    return {"kind": kind, "cards": list(cards)}


QUAD_COMMAND = ["rC", "rC", "rC", "yG", "yA", "yE"]  # + rC: concealed quad 8 + command 2 = 10
THREE_TRIPLES = ["rC", "rC", "rC", "yC", "yC", "yC", "gC", "gC"]  # + gC: 3 + 3 + 3 = 9
FIFTEEN = ["gP"] * 4 + ["rS", "yS", "gS", "wS", "rG", "rA"]  # + rE: quad 8 + soldiers4 5 + command 2 = 15
FOUR_TRIPLES = ["rC", "rC"] + ["yC"] * 3 + ["gC"] * 3 + ["wC"] * 3  # + rC: 4 concealed triples
# exposed field 1 + exposed quad 6; hand + rC = rC rC rH rH rP rP: field + field 2 (three pairs 0)
LUCKY_EXPOSED = [ex("field", "rC", "rH", "rP"), ex("quad", "wE", "wE", "wE", "wE")]
LUCKY_HAND = ["rC", "rH", "rH", "rP", "rP"]
# 21 cards: exposed quad 6; command 2 + field 1 + triple yC 3 + soldiers4 5 + general 1 + triple gH 3 = 15
FULL_HAND = ["rG", "rA", "rE", "rC", "rH", "rP", "yC", "yC", "yC", "rS", "yS", "gS", "wS", "yG", "gH", "gH"]

# (hand, exposed, winning card, lucky card, options, seats, winner, h, lucky bonus, deltas)
BGA_CASES = [
    # h = 8 + 2 = 10 >= 10: each pays (10 - 10) + 1 = 1; winner 1 * 3 = +3
    pytest.param(QUAD_COMMAND, [], "rC", None, None, 4, 0, 10, 0, (3, -1, -1, -1),
                 id="h_at_threshold_each_opponent_pays_1"),
    # h = 9 < 10: the caller pays each opponent 11; winner -11 * 3 = -33
    pytest.param(THREE_TRIPLES, [], "gC", None, None, 4, 2, 9, 0, (11, 11, -33, 11),
                 id="h_below_threshold_caller_pays_each_opponent_11"),
    # h = 15: each pays (15 - 10) + 1 = 6; 3 seats: winner +12
    pytest.param(FIFTEEN, [], "rE", None, None, 3, 1, 15, 0, (-6, 12, -6), id="three_seats_each_pays_excess_plus_1"),
    # h = 15, 4 seats: winner +18
    pytest.param(FIFTEEN, [], "rE", None, None, 4, 3, 15, 0, (-6, -6, -6, 18), id="four_seats_each_pays_6"),
    # wC quad 8 + soldiers3 3 + general gG 1 = 12: (12 - 10) + 1 = 3; 2 seats
    pytest.param(["wC"] * 4 + ["rS", "yS", "gS"], [], "gG", None, None, 2, 1, 12, 0, (-3, 3),
                 id="two_seats_one_opponent_pays_3"),
    # h = triple 3 < 10, 2 seats: the caller pays his one opponent 11
    pytest.param(["rC", "rC"], [], "rC", None, None, 2, 0, 3, 0, (-11, 11), id="two_seats_caller_pays_11"),
    # 3 seats, h = 9: the caller pays each of 2 opponents 11
    pytest.param(THREE_TRIPLES, [], "gC", None, None, 3, 0, 9, 0, (-22, 11, 11), id="three_seats_caller_pays_22"),
    # flat: h = 15 >= 10: each pays 10 + 1 = 11, not (15 - 10) + 1 = 6
    pytest.param(FIFTEEN, [], "rE", None, {"win_payment": "flat"}, 4, 0, 15, 0, (33, -11, -11, -11),
                 id="flat_each_opponent_pays_11"),
    # flat: h = 9 < 10: the caller still pays each opponent 11
    pytest.param(THREE_TRIPLES, [], "gC", None, {"win_payment": "flat"}, 4, 0, 9, 0, (-33, 11, 11, 11),
                 id="flat_below_threshold_caller_pays_11"),
    # exposed triple yC 1 + exposed quad wE 6 + concealed triple rC 3 = 10: each pays 1
    pytest.param(["rC", "rC"], [ex("triple", "yC", "yC", "yC"), ex("quad", "wE", "wE", "wE", "wE")], "rC",
                 None, None, 4, 0, 10, 0, (3, -1, -1, -1), id="exposed_melds_score_exposed_values"),
    # exposed general_quad 8 + concealed triple 3 = 11: each pays 2
    pytest.param(["rC", "rC"], [ex("general_quad", "gG", "gG", "gG", "gG")], "rC", None, None, 4, 0, 11, 0,
                 (6, -2, -2, -2), id="exposed_general_quad_scores_8"),
    # 1 + 6 + 2 = 9; lucky rC: 1 in hand + 1 exposed + 1 winning card = +3; h = 12: each pays 3
    pytest.param(LUCKY_HAND, LUCKY_EXPOSED, "rC", "rC", None, 4, 0, 12, 3, (9, -3, -3, -3),
                 id="lucky_card_counted_over_hand_exposed_and_winning_card"),
    # same hand, no stock left for a lucky card: h = 9 < 10, the caller pays each 11
    pytest.param(LUCKY_HAND, LUCKY_EXPOSED, "rC", None, None, 4, 0, 9, 0, (-33, 11, 11, 11),
                 id="no_lucky_card_no_bonus"),
    # lucky gA held nowhere: +0, h = 9
    pytest.param(LUCKY_HAND, LUCKY_EXPOSED, "rC", "gA", None, 4, 0, 9, 0, (-33, 11, 11, 11),
                 id="lucky_card_not_held_no_bonus"),
    # lucky rH: 2 in hand + 1 exposed + 0 winning = +3; h = 12
    pytest.param(LUCKY_HAND, LUCKY_EXPOSED, "rC", "rH", None, 4, 0, 12, 3, (9, -3, -3, -3),
                 id="lucky_card_in_hand_and_exposed"),
    # 10 + lucky yA (1 in hand) = 11: each pays 2
    pytest.param(QUAD_COMMAND, [], "rC", "yA", None, 4, 0, 11, 1, (6, -2, -2, -2), id="lucky_card_once_in_hand"),
    # 4 concealed triples = 12: each pays 3
    pytest.param(FOUR_TRIPLES, [], "rC", None, None, 4, 0, 12, 0, (9, -3, -3, -3),
                 id="winning_meld_counts_concealed_by_default"),
    # option off: winning triple exposed 1 + 3 + 3 + 3 = 10: each pays 1
    pytest.param(FOUR_TRIPLES, [], "rC", None, {"winning_meld_concealed": False}, 4, 0, 10, 0, (3, -1, -1, -1),
                 id="winning_meld_scores_exposed_value_when_option_off"),
    # option off: winning quad exposed 6 + command 2 = 8 < 10 (pair + pair + command = 2 is worse)
    pytest.param(QUAD_COMMAND, [], "rC", None, {"winning_meld_concealed": False}, 4, 0, 8, 0, (-33, 11, 11, 11),
                 id="winning_quad_scores_6_when_option_off"),
    # threshold 5, stake 2: h = 9 >= 5: each pays (9 - 5) + 2 = 6
    pytest.param(THREE_TRIPLES, [], "gC", None, {"threshold": 5, "stake": 2}, 4, 0, 9, 0, (18, -6, -6, -6),
                 id="threshold_and_stake_options_excess"),
    # threshold 5, stake 2: h = 3 < 5: the caller pays each 5 + 2 = 7
    pytest.param(["rC", "rC"], [], "rC", None, {"threshold": 5, "stake": 2}, 3, 0, 3, 0, (-14, 7, 7),
                 id="threshold_and_stake_options_caller_pays"),
    # 21 cards: 6 + 15 = 21; lucky yC: 3 in hand = +3; h = 24: each pays (24 - 10) + 1 = 15
    pytest.param(FULL_HAND, [ex("quad", "wE", "wE", "wE", "wE")], "gH", "yC", None, 4, 0, 24, 3,
                 (45, -15, -15, -15), id="full_21_card_hand_with_lucky_card"),
    # only Generals left: settled as hu; exposed quad 6 + triple 1 + soldiers4 5 + 3 generals 3 = 15: each pays 6
    pytest.param(["rG", "yG", "gG"], [ex("quad", "wE", "wE", "wE", "wE"), ex("triple", "yC", "yC", "yC"),
                                      ex("soldiers4", "rS", "yS", "gS", "wS")], None, None, None, 4, 3, 15, 0,
                 (-6, -6, -6, 18), id="hand_of_only_generals_settles_as_hu"),
]


# Option lucky_match (docs/rules.md#fc-lucky-match): "identical" (default) counts cards of the lucky card's colour and
# character; "character" every card of its character in any colour, at most 4 x 4 - 1 = 15.
# rS triple 3 + quads yS gS wS (the winning wS completes one, concealed) 8 + 8 + 8 = 27.
ALL_SOLDIERS = ["rS"] * 3 + ["yS"] * 4 + ["gS"] * 4 + ["wS"] * 3
CHARACTER = {"lucky_match": "character"}
# (hand, exposed, winning card, lucky card, options, h, lucky bonus, deltas)
LUCKY_MATCH = [
    # meld points 9 (LUCKY_HAND); lucky yH identical: none held, +0, h = 9 < 10: the caller pays each 11
    pytest.param(LUCKY_HAND, LUCKY_EXPOSED, "rC", "yH", None, 9, 0, (-33, 11, 11, 11),
                 id="identical_by_default_other_colour_does_not_count"),
    pytest.param(LUCKY_HAND, LUCKY_EXPOSED, "rC", "yH", {"lucky_match": "identical"}, 9, 0, (-33, 11, 11, 11),
                 id="identical_named_explicitly"),
    # character: Horses rH rH in hand + rH exposed + 0 winning = +3; h = 12: each pays (12 - 10) + 1 = 3
    pytest.param(LUCKY_HAND, LUCKY_EXPOSED, "rC", "yH", CHARACTER, 12, 3, (9, -3, -3, -3),
                 id="character_counts_every_colour_in_hand_and_exposed"),
    # character: Elephants wE x 4 in the exposed quad = +4; h = 13: each pays 4
    pytest.param(LUCKY_HAND, LUCKY_EXPOSED, "rC", "gE", CHARACTER, 13, 4, (12, -4, -4, -4),
                 id="character_counts_a_whole_exposed_quad"),
    # character: Chariots rC 1 in hand + rC 1 exposed + the winning rC = +3, as identical would: h = 12
    pytest.param(LUCKY_HAND, LUCKY_EXPOSED, "rC", "rC", CHARACTER, 12, 3, (9, -3, -3, -3),
                 id="character_counts_the_winning_card"),
    # identical rS: 3 held, +3, h = 30: each pays (30 - 10) + 1 = 21
    pytest.param(ALL_SOLDIERS, [], "wS", "rS", None, 30, 3, (63, -21, -21, -21),
                 id="identical_at_most_three"),
    # character: all 15 other Soldiers (rS x 3, yS gS wS x 4, winning wS included) = +15; h = 42: each pays 33
    pytest.param(ALL_SOLDIERS, [], "wS", "rS", CHARACTER, 42, 15, (99, -33, -33, -33),
                 id="character_at_most_fifteen"),
]


@pytest.mark.parametrize(("hand", "exposed", "public", "lucky", "options", "h", "bonus", "deltas"), LUCKY_MATCH)
def test_lucky_match_option(hand, exposed, public, lucky, options, h, bonus, deltas):
    """docs/rules.md#fc-lucky-match: the identical card by default; option lucky_match "character"."""
    result = settle(BGA, hand, exposed, public, lucky, options)
    assert (result.points, result.lucky_bonus, result.deltas) == (h, bonus, deltas)
    line = next(line for line in result.breakdown if line.step == "lucky_card")
    assert line.points == bonus and ("of its character" if options == CHARACTER else "identical") in line.text


@pytest.mark.parametrize(
    ("hand", "exposed", "public", "lucky", "options", "seats", "winner", "h", "bonus", "deltas"), BGA_CASES
)
def test_bga_settlement(hand, exposed, public, lucky, options, seats, winner, h, bonus, deltas):
    """bga-taiwan: hu points, lucky bonus and who pays whom."""
    result = settle(BGA, hand, exposed, public, lucky, options, seats, winner)
    assert (result.points, result.lucky_bonus, result.deltas) == (h, bonus, deltas)
    assert sum(result.deltas) == 0
    steps = {line.step: line.points for line in result.breakdown}
    assert (steps["total"], steps["lucky_card"]) == (h, bonus)


FLOWERS_HAND = ["F1", "rC", "rC", "rC", "rC", "rG", "rA", "rE", "rS", "yS", "gS", "wS"]
FLOWERS_EXPOSED = [ex("triple", "yC", "yC", "yC")]

# (hand, exposed, winning card, options, winner, total, deltas)
FLOWERS_CASES = [
    # exposed triple 1 + flower 3 + quad 2 + command 1 + soldiers4 2 + general yG 1 = 10; nobody pays
    pytest.param(FLOWERS_HAND, FLOWERS_EXPOSED, "yG", None, 0, 10, (0, 0, 0, 0),
                 id="flowers_total_of_all_melds_no_payments"),
    # each loser pays the total 10: winner +30
    pytest.param(FLOWERS_HAND, FLOWERS_EXPOSED, "yG", {"payment": "each_loser_pays"}, 2, 10, (-10, -10, 30, -10),
                 id="flowers_each_loser_pays_total"),
    # mixed groups 0: 1 + 3 + 2 + 0 + 0 + 1 = 7; each loser pays 7
    pytest.param(FLOWERS_HAND, FLOWERS_EXPOSED, "yG", {"payment": "each_loser_pays", "mixed_group_points": "zero"},
                 0, 7, (21, -7, -7, -7), id="flowers_mixed_groups_zero_option"),
    # exposed quad 2 + triple completed by the winning card 1 (no exposed / concealed difference) = 3
    pytest.param(["rH", "rH"], [ex("quad", "rC", "rC", "rC", "rC")], "rH", {"payment": "each_loser_pays"}, 3, 3,
                 (-3, -3, -3, 9), id="flowers_exposed_and_winning_melds_score_table_value"),
    # four Generals are four singles: 4
    pytest.param(["rG", "rG", "rG"], [], "rG", {"payment": "each_loser_pays"}, 1, 4, (-4, 12, -4, -4),
                 id="flowers_four_generals_score_4"),
]


@pytest.mark.parametrize(("hand", "exposed", "public", "options", "winner", "total", "deltas"), FLOWERS_CASES)
def test_flowers_settlement(hand, exposed, public, options, winner, total, deltas):
    """cardavia-flowers: the winner's meld total; payments only under each_loser_pays."""
    result = settle(FLOWERS, hand, exposed, public, None, options, 4, winner)
    assert (result.points, result.deltas, result.lucky_bonus) == (total, deltas, 0)
    assert sum(result.deltas) == 0


@pytest.mark.parametrize(
    ("ruleset_id", "hand", "public"),
    [
        pytest.param(BGA, ["rC", "yC"], None, id="bga_two_colour_pair_is_not_a_win"),
        pytest.param(BGA, ["rS"], "rS", id="bga_soldier_pair_is_not_a_win"),
        pytest.param(BGA, ["rC", "rC", "wH"], "rC", id="bga_leftover_card_is_not_a_win"),
        pytest.param(FLOWERS, ["rG", "rA"], "yE", id="flowers_two_colour_command_is_not_a_win"),
    ],
)
def test_settling_a_non_winning_hand_raises(ruleset_id, hand, public):
    """Settlement of a hand that does not split into melds raises NotAWin."""
    with pytest.raises(NotAWin) as err:
        settle(ruleset_id, hand, public=public)
    assert err.value.code == "not_a_win"


def test_lucky_card_cannot_be_a_fifth_copy_when_settling():
    """The winner holds at most 3 copies of the lucky card: a hand holding all 4 cannot have it turned up."""
    rs = get_ruleset(BGA)
    o = rs.resolve_options(None)
    hand = rs.parse(o, ["rC", "rC", "rC"], public_card="rC")
    with pytest.raises(ImpossibleCount) as err:
        rs.settle(hand, o, 4, 0, lucky_card="rC")
    assert (err.value.code, err.value.field) == ("impossible_card_count", "lucky_card")


# (seats, rounds, running totals): every player starts with 20.
MATCHES = [
    pytest.param(4, [], [], id="no_rounds_no_totals"),
    # 20 + 3 = 23, 20 - 1 = 19; 23 - 33 = -10, 19 + 11 = 30; -10 + 9 = -1, 30 - 3 = 27
    pytest.param(4, [[3, -1, -1, -1], [-33, 11, 11, 11], [9, -3, -3, -3]],
                 [[23, 19, 19, 19], [-10, 30, 30, 30], [-1, 27, 27, 27]], id="four_seats_three_round_match"),
    # 20 - 11 = 9, 20 + 11 = 31; 9 + 3 = 12, 31 - 3 = 28
    pytest.param(2, [[-11, 11], [3, -3]], [[9, 31], [12, 28]], id="two_seats_running_totals"),
    # 20 - 6 = 14, 20 + 12 = 32, 20 - 6 = 14
    pytest.param(3, [[-6, 12, -6]], [[14, 32, 14]], id="three_seats_start_at_20"),
]


@pytest.mark.parametrize(("seats", "rounds", "totals"), MATCHES)
def test_match_totals(seats, rounds, totals):
    """Running totals start from 20 points each and add every round's deltas."""
    assert match_totals(rounds, seats) == totals
    assert all(sum(row) == 20 * seats for row in totals)
