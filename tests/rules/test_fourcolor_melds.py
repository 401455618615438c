"""Meld table and best decomposition of Four Color Cards (docs/rules.md#fc-melds).

Every expected value is read off the meld table of docs/rules.md#fc-melds and added up by hand in the case comment.
"""

from __future__ import annotations

import pytest

from service.rules.errors import InvalidMeld
from service.rules.registry import get_ruleset

BGA, FLOWERS = "bga-taiwan", "cardavia-flowers"
ZERO = {"mixed_group_points": "zero"}


def hu_of(ruleset_id, hand=(), exposed=(), public=None, options=None):
    """Hu result of a hand under a rule-set and options."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(options)
    return rs.hu(rs.parse(o, list(hand), list(exposed), public), o)


def kinds(melds):
    """Sorted meld kinds."""
    return sorted(m.kind for m in melds)


# (rule-set, options, kind, cards, exposed points, concealed points): one row per line of the meld table.
MELD_TABLE = [
    pytest.param(BGA, None, "general", ["rG"], 1, 1, id="bga_general_scores_1"),
    pytest.param(BGA, None, "pair", ["rC", "rC"], 0, 0, id="bga_pair_scores_0"),
    pytest.param(BGA, None, "triple", ["yH", "yH", "yH"], 1, 3, id="bga_triple_exposed_1_concealed_3"),
    pytest.param(BGA, None, "quad", ["gP"] * 4, 6, 8, id="bga_quad_exposed_6_concealed_8"),
    pytest.param(BGA, None, "general_quad", ["wG"] * 4, 8, 6, id="bga_general_quad_exposed_8_concealed_6"),
    pytest.param(BGA, None, "command", ["rG", "rA", "rE"], 2, 2, id="bga_command_scores_2"),
    pytest.param(BGA, None, "field", ["yC", "yH", "yP"], 1, 1, id="bga_field_scores_1"),
    pytest.param(BGA, None, "soldiers3", ["rS", "yS", "gS"], 3, 3, id="bga_soldiers3_scores_3"),
    pytest.param(BGA, None, "soldiers4", ["rS", "yS", "gS", "wS"], 5, 5, id="bga_soldiers4_scores_5"),
    pytest.param(BGA, None, "triple", ["rS", "rS", "rS"], 1, 3, id="bga_same_colour_soldier_triple_allowed"),
    pytest.param(BGA, None, "quad", ["gS"] * 4, 6, 8, id="bga_same_colour_soldier_quad_allowed"),
    pytest.param(FLOWERS, None, "general", ["yG"], 1, 1, id="flowers_general_scores_1"),
    pytest.param(FLOWERS, None, "flower", ["F3"], 3, 3, id="flowers_flower_scores_3"),
    pytest.param(FLOWERS, None, "pair", ["wA", "wA"], 0, 0, id="flowers_pair_scores_0"),
    pytest.param(FLOWERS, None, "pair", ["rS", "rS"], 0, 0, id="flowers_soldier_pair_allowed"),
    pytest.param(FLOWERS, None, "triple", ["gE"] * 3, 1, 1, id="flowers_triple_scores_1"),
    pytest.param(FLOWERS, None, "triple", ["yS"] * 3, 1, 1, id="flowers_soldier_triple_scores_1"),
    pytest.param(FLOWERS, None, "quad", ["rC"] * 4, 2, 2, id="flowers_quad_scores_2"),
    pytest.param(FLOWERS, None, "command", ["gG", "gA", "gE"], 1, 1, id="flowers_command_by_size_scores_1"),
    pytest.param(FLOWERS, None, "field", ["wC", "wH", "wP"], 1, 1, id="flowers_field_by_size_scores_1"),
    pytest.param(FLOWERS, None, "soldiers3", ["yS", "gS", "wS"], 1, 1, id="flowers_soldiers3_by_size_scores_1"),
    pytest.param(FLOWERS, None, "soldiers4", ["rS", "yS", "gS", "wS"], 2, 2,
                 id="flowers_soldiers4_by_size_scores_2"),
    pytest.param(FLOWERS, ZERO, "command", ["gG", "gA", "gE"], 0, 0, id="flowers_zero_option_command_scores_0"),
    pytest.param(FLOWERS, ZERO, "field", ["wC", "wH", "wP"], 0, 0, id="flowers_zero_option_field_scores_0"),
    pytest.param(FLOWERS, ZERO, "soldiers3", ["rS", "gS", "wS"], 0, 0, id="flowers_zero_option_soldiers3_scores_0"),
    pytest.param(FLOWERS, ZERO, "soldiers4", ["rS", "yS", "gS", "wS"], 0, 0,
                 id="flowers_zero_option_soldiers4_scores_0"),
    pytest.param(FLOWERS, ZERO, "general", ["yG"], 1, 1, id="flowers_zero_option_general_still_1"),
    pytest.param(FLOWERS, ZERO, "flower", ["F5"], 3, 3, id="flowers_zero_option_flower_still_3"),
]


@pytest.mark.parametrize(("ruleset_id", "options", "kind", "cards", "exposed_pts", "concealed_pts"), MELD_TABLE)
def test_meld_is_a_legal_meld(ruleset_id, options, kind, cards, exposed_pts, concealed_pts):
    """The cards of each meld-table row are offered as that meld by legal_melds."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(options)
    found = {(m.kind, tuple(sorted(m.codes()))) for m in rs.legal_melds(rs.parse(o, cards), o)}
    assert (kind, tuple(sorted(cards))) in found


@pytest.mark.parametrize(("ruleset_id", "options", "kind", "cards", "exposed_pts", "concealed_pts"), MELD_TABLE)
def test_meld_concealed_points(ruleset_id, options, kind, cards, exposed_pts, concealed_pts):
    """A hand of exactly the meld's cards is hu with the meld's concealed value."""
    result = hu_of(ruleset_id, hand=cards, options=options)
    assert result.hu
    assert [m.kind for m in result.melds] == [kind]
    assert result.melds[0].concealed
    assert (result.points, result.concealed_points, result.exposed_points) == (concealed_pts, concealed_pts, 0)


@pytest.mark.parametrize(("ruleset_id", "options", "kind", "cards", "exposed_pts", "concealed_pts"), MELD_TABLE)
def test_meld_exposed_points(ruleset_id, options, kind, cards, exposed_pts, concealed_pts):
    """The same meld exposed (empty hand: all melds) scores its exposed value."""
    result = hu_of(ruleset_id, exposed=[{"kind": kind, "cards": cards}], options=options)
    assert result.hu
    assert [(m.kind, m.concealed) for m in result.melds] == [(kind, False)]
    assert (result.points, result.exposed_points, result.concealed_points) == (exposed_pts, exposed_pts, 0)


# (rule-set, cards, kind claimed): forms the table refuses.
REFUSED = [
    pytest.param(BGA, ["rG", "rG"], "pair", id="bga_general_pair_refused"),
    pytest.param(FLOWERS, ["rG", "rG"], "pair", id="flowers_general_pair_refused"),
    pytest.param(BGA, ["rS", "rS"], "pair", id="bga_soldier_pair_refused"),
    pytest.param(BGA, ["yG"] * 3, "triple", id="bga_three_generals_not_a_triple"),
    pytest.param(FLOWERS, ["yG"] * 3, "triple", id="flowers_three_generals_not_a_triple"),
    pytest.param(BGA, ["gG"] * 4, "quad", id="bga_four_generals_are_general_quad_not_quad"),
    pytest.param(FLOWERS, ["gG"] * 4, "quad", id="flowers_four_generals_not_a_quad"),
    pytest.param(BGA, ["rG", "rA", "yE"], "command", id="bga_command_must_be_one_colour"),
    pytest.param(FLOWERS, ["wG", "wA", "gE"], "command", id="flowers_command_must_be_one_colour"),
    pytest.param(BGA, ["rC", "rH", "yP"], "field", id="bga_field_must_be_one_colour"),
    pytest.param(FLOWERS, ["gC", "wH", "gP"], "field", id="flowers_field_must_be_one_colour"),
    pytest.param(BGA, ["rS", "rS", "yS"], "soldiers3", id="bga_soldiers3_needs_three_colours"),
    pytest.param(FLOWERS, ["rS", "rS", "yS"], "soldiers3", id="flowers_soldiers3_needs_three_colours"),
    pytest.param(BGA, ["rS", "yS", "gS", "gS"], "soldiers4", id="bga_soldiers4_needs_four_colours"),
    pytest.param(FLOWERS, ["rS", "yS", "gS", "gS"], "soldiers4", id="flowers_soldiers4_needs_four_colours"),
    pytest.param(BGA, ["rS", "yS"], "pair", id="bga_two_soldiers_of_two_colours_no_meld"),
    pytest.param(BGA, ["rC", "yC"], "pair", id="bga_pair_never_mixes_colours"),
    pytest.param(FLOWERS, ["rC", "rC", "yC"], "triple", id="flowers_triple_never_mixes_colours"),
    pytest.param(BGA, ["rC"], "general", id="bga_single_chariot_is_no_meld"),
    pytest.param(BGA, ["rG", "rA"], "command", id="bga_command_needs_elephant"),
    pytest.param(FLOWERS, ["F1", "F2"], "flower", id="flowers_flower_meld_is_one_flower"),
]


@pytest.mark.parametrize(("ruleset_id", "cards", "kind"), REFUSED)
def test_refused_form_is_not_a_legal_meld(ruleset_id, cards, kind):
    """legal_melds never offers these cards as the refused kind."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(None)
    found = {(m.kind, tuple(sorted(m.codes()))) for m in rs.legal_melds(rs.parse(o, cards), o)}
    assert (kind, tuple(sorted(cards))) not in found


@pytest.mark.parametrize(("ruleset_id", "cards", "kind"), REFUSED)
def test_refused_form_cannot_be_exposed(ruleset_id, cards, kind):
    """An exposed meld of the refused form is rejected as invalid_meld, naming its cards."""
    rs = get_ruleset(ruleset_id)
    with pytest.raises(InvalidMeld) as err:
        rs.parse(rs.resolve_options(None), [], [{"kind": kind, "cards": cards}])
    assert (err.value.code, err.value.field) == ("invalid_meld", "exposed.0.cards")


# (rule-set, cards, hu?, best points, best kinds): what the refused forms split into instead, if anything.
REFUSED_HU = [
    # two Generals: never a pair, but each is a `general` meld: 1 + 1 = 2
    pytest.param(BGA, ["rG", "rG"], True, 2, ["general"] * 2, id="bga_general_pair_is_two_generals"),
    pytest.param(FLOWERS, ["rG", "rG"], True, 2, ["general"] * 2, id="flowers_general_pair_is_two_generals"),
    # three identical Generals are three `general` melds: 1 + 1 + 1 = 3
    pytest.param(BGA, ["yG"] * 3, True, 3, ["general"] * 3, id="bga_three_generals_are_three_general_melds"),
    pytest.param(FLOWERS, ["yG"] * 3, True, 3, ["general"] * 3, id="flowers_three_generals_are_three_general_melds"),
    # flowers has no general_quad: 4 singles = 4
    pytest.param(FLOWERS, ["gG"] * 4, True, 4, ["general"] * 4, id="flowers_four_generals_are_four_singles"),
    pytest.param(BGA, ["rS", "rS"], False, None, None, id="bga_soldier_pair_does_not_win"),
    pytest.param(FLOWERS, ["rS", "rS"], True, 0, ["pair"], id="flowers_soldier_pair_wins"),
    pytest.param(BGA, ["rG", "rA", "yE"], False, None, None, id="bga_two_colour_command_does_not_win"),
    pytest.param(BGA, ["rC", "rH", "yP"], False, None, None, id="bga_two_colour_field_does_not_win"),
    pytest.param(BGA, ["rS", "rS", "yS"], False, None, None, id="bga_soldiers_repeating_a_colour_do_not_win"),
    pytest.param(FLOWERS, ["rS", "yS", "gS", "gS"], False, None, None,
                 id="flowers_soldiers_repeating_a_colour_do_not_win"),
    pytest.param(BGA, ["rC", "yC"], False, None, None, id="bga_two_colour_pair_does_not_win"),
    pytest.param(BGA, ["rC"], False, None, None, id="bga_single_chariot_does_not_win"),
]


@pytest.mark.parametrize(("ruleset_id", "cards", "wins", "points", "best_kinds"), REFUSED_HU)
def test_refused_form_hu(ruleset_id, cards, wins, points, best_kinds):
    """Refused forms either split into other melds or leave the hand short of hu."""
    result = hu_of(ruleset_id, hand=cards)
    assert result.hu is wins
    assert result.points == points
    if wins:
        assert kinds(result.melds) == sorted(best_kinds)
    else:
        assert (result.melds, result.decompositions) == (None, 0)


# (rule-set, options, cards, best points, best kinds or None when tied, number of decompositions).
DECOMPOSITIONS = [
    # quad 8 | pair + pair 0 + 0: 2 ways, best 8
    pytest.param(BGA, None, ["rC"] * 4, 8, ["quad"], 2, id="bga_quad_concealed_8_beats_two_pairs"),
    # quad 2 | pair + pair 0: 2 ways, best 2
    pytest.param(FLOWERS, None, ["rC"] * 4, 2, ["quad"], 2, id="flowers_quad_2_beats_two_pairs"),
    # general_quad 6 | 4 x general 1 = 4: 2 ways, best 6
    pytest.param(BGA, None, ["wG"] * 4, 6, ["general_quad"], 2, id="bga_general_quad_concealed_6_beats_four_singles"),
    # flowers: only 4 x general = 4, 1 way
    pytest.param(FLOWERS, None, ["wG"] * 4, 4, ["general"] * 4, 1, id="flowers_four_generals_one_way"),
    # command + command = 2 + 2 = 4 | general + general + pair rA + pair rE = 1 + 1 + 0 + 0 = 2: 2 ways, best 4
    pytest.param(BGA, None, ["rG", "rG", "rA", "rA", "rE", "rE"], 4, ["command"] * 2, 2,
                 id="bga_two_commands_beat_generals_and_pairs"),
    # general + triple rA + triple rE = 1 + 3 + 3 = 7 | command + pair rA + pair rE = 2: 2 ways, best 7
    pytest.param(BGA, None, ["rG", "rA", "rA", "rA", "rE", "rE", "rE"], 7, ["general", "triple", "triple"], 2,
                 id="bga_general_and_triples_beat_command_and_pairs"),
    # flowers same hand: general + triples = 1 + 1 + 1 = 3 | command + pairs = 1: 2 ways, best 3
    pytest.param(FLOWERS, None, ["rG", "rA", "rA", "rA", "rE", "rE", "rE"], 3, ["general", "triple", "triple"], 2,
                 id="flowers_general_and_triples_beat_command_and_pairs"),
    # field + field = 1 + 1 = 2 | three pairs = 0: 2 ways, best 2
    pytest.param(BGA, None, ["rC", "rC", "rH", "rH", "rP", "rP"], 2, ["field"] * 2, 2,
                 id="bga_two_fields_beat_three_pairs"),
    # zero option: field + field = 0 = three pairs: 2 ways tied at 0
    pytest.param(FLOWERS, ZERO, ["rC", "rC", "rH", "rH", "rP", "rP"], 0, None, 2,
                 id="flowers_zero_option_fields_tie_pairs"),
    # y, g, w Soldiers must join one cross-colour group: {y,g,w} + rS quad = 3 + 8 = 11
    # | {r,y,g,w} + rS triple = 5 + 3 = 8 (no Soldier pairs in bga): 2 ways, best 11
    pytest.param(BGA, None, ["rS"] * 4 + ["yS", "gS", "wS"], 11, ["quad", "soldiers3"], 2,
                 id="bga_soldier_quad_and_soldiers3_beat_triple_and_soldiers4"),
    # flowers: {y,g,w} + quad 1 + 2 = 3 | {y,g,w} + pair + pair 1 | {r,y,g,w} + triple 2 + 1 = 3: 3 ways, best 3
    pytest.param(FLOWERS, None, ["rS"] * 4 + ["yS", "gS", "wS"], 3, None, 3,
                 id="flowers_soldier_splits_three_ways"),
    # two of each colour, bga: only soldiers4 + soldiers4 = 5 + 5 = 10 (3 + 3 leaves 2 Soldiers, no pairs): 1 way
    pytest.param(BGA, None, ["rS", "rS", "yS", "yS", "gS", "gS", "wS", "wS"], 10, ["soldiers4"] * 2, 1,
                 id="bga_eight_soldiers_two_soldiers4_one_way"),
    # flowers: soldiers4 x 2 = 4 | four pairs = 0 | two soldiers3 missing the same colour m + pair of m = 2
    # (m = r, y, g or w: 4 ways); 1 + 1 + 4 = 6 ways, best 4
    pytest.param(FLOWERS, None, ["rS", "rS", "yS", "yS", "gS", "gS", "wS", "wS"], 4, ["soldiers4"] * 2, 6,
                 id="flowers_eight_soldiers_six_ways"),
    # three Soldiers of one colour + the other three colours: triple 3 + soldiers3 3 = 6, the only split
    pytest.param(BGA, None, ["rS"] * 3 + ["yS", "gS", "wS"], 6, ["soldiers3", "triple"], 1,
                 id="bga_soldier_triple_and_soldiers3_one_way"),
    # three Generals never a triple: one split (3 singles), 3 points
    pytest.param(BGA, None, ["rG"] * 3, 3, ["general"] * 3, 1, id="bga_three_generals_one_way"),
    # an empty hand is all melds: one (empty) split, 0 points
    pytest.param(BGA, None, [], 0, [], 1, id="bga_empty_hand_one_empty_split"),
]


@pytest.mark.parametrize(("ruleset_id", "options", "cards", "points", "best_kinds", "ways"), DECOMPOSITIONS)
def test_best_decomposition(ruleset_id, options, cards, points, best_kinds, ways):
    """The best-scoring split decides the points; every split is counted once (as a multiset of melds)."""
    result = hu_of(ruleset_id, hand=cards, options=options)
    assert result.hu
    assert (result.points, result.decompositions) == (points, ways)
    rs = get_ruleset(ruleset_id)
    rules = rs.meld_rules(rs.resolve_options(options))
    assert sum(m.points(rules) for m in result.melds) == points
    if best_kinds is not None:
        assert kinds(result.melds) == sorted(best_kinds)


def test_full_hand_best_decomposition():
    """A 21-card hand: the unique split scores exposed quad 6 + command 2 + field 1 + triple 3 + soldiers4 5
    + general 1 + triple 3 = 21, and its melds cover the 21 cards exactly."""
    hand = ["rG", "rA", "rE", "rC", "rH", "rP", "yC", "yC", "yC", "rS", "yS", "gS", "wS", "yG", "gH", "gH"]
    result = hu_of(BGA, hand=hand, exposed=[{"kind": "quad", "cards": ["wE"] * 4}], public="gH")
    assert result.hu
    assert (result.points, result.exposed_points, result.concealed_points) == (21, 6, 15)
    assert (result.decompositions, result.card_count) == (1, 21)
    assert kinds(result.melds) == sorted(
        ["quad", "command", "field", "triple", "soldiers4", "general", "triple"])
    assert sorted(c for m in result.melds for c in m.codes()) == sorted(hand + ["gH"] + ["wE"] * 4)


# (options, cards, hu?, points): the bga-taiwan meld options.
MELD_OPTIONS = [
    # same_colour_soldier_sets off: three red Soldiers form no meld
    pytest.param({"same_colour_soldier_sets": False}, ["rS"] * 3, False, None,
                 id="bga_option_same_colour_soldier_sets_off_refuses_triple"),
    # general_triple on: three Generals may be a triple (3) or three singles (1 + 1 + 1 = 3)
    pytest.param({"general_triple": True}, ["rG"] * 3, True, 3, id="bga_option_general_triple_scores_3"),
]


@pytest.mark.parametrize(("options", "cards", "wins", "points"), MELD_OPTIONS)
def test_meld_options(options, cards, wins, points):
    """The meld options change which identical groups are melds."""
    result = hu_of(BGA, hand=cards, options=options)
    assert (result.hu, result.points) == (wins, points)
