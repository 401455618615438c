"""Claims on a public card (docs/rules.md#fc-claims and docs/rules.md#fl-claims).

A claim is written (kind, priority class, priority, points, cards of the exposed meld). Hands that should not
win carry a lone `wH`, which no meld with the public card can use, so only the meld claims are on offer.
"""

from __future__ import annotations

import pytest

from service.rules.errors import InvalidSeat
from service.rules.registry import get_ruleset

BGA, FLOWERS = "bga-taiwan", "cardavia-flowers"


def claims_of(ruleset_id, hand, public, role, options=None):
    """The legal claims, normalised and sorted, and the must_take flag."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(options)
    claims, forced = rs.legal_claims(rs.parse(o, hand, public_card=public), role, o)
    return sorted(
        (c.kind, c.priority_class, c.priority, c.points, tuple(sorted(c.meld.codes())) if c.meld else ())
        for c in claims
    ), forced


# bga-taiwan priorities: hu > quad/triple > chi-type.
def hu(points):
    """A bga hu claim scoring `points` (exposed + concealed values, no lucky card)."""
    return ("hu", "hu", 3, points, ())


def pong(kind, points, *cards):
    """A bga quad / triple (gan / pong) claim, at the meld's exposed value."""
    return (kind, "quad_triple", 2, points, tuple(sorted(cards)))


def chi(kind, points, *cards):
    """A bga chi-type claim, at the meld's exposed value."""
    return (kind, "chi", 1, points, tuple(sorted(cards)))


BGA_CASES = [
    # rC rC + rC = concealed triple 3; triple exposed 1; pair (chi) 0 only for drawer and next
    pytest.param(["rC", "rC"], "rC", "other", [hu(3), pong("triple", 1, "rC", "rC", "rC")], False,
                 id="hu_and_triple_open_to_other_player"),
    pytest.param(["rC", "rC"], "rC", "next", [hu(3), pong("triple", 1, "rC", "rC", "rC"),
                                              chi("pair", 0, "rC", "rC")], False,
                 id="hu_triple_and_pair_open_to_next_player"),
    pytest.param(["rC", "rC"], "rC", "drawer", [hu(3), pong("triple", 1, "rC", "rC", "rC"),
                                                chi("pair", 0, "rC", "rC")], False,
                 id="hu_triple_and_pair_open_to_drawer"),
    pytest.param(["rC", "rC"], "rC", "discarder", [], False, id="discarder_claims_nothing_on_own_discard"),
    # hu through a chi-type meld is open to any non-discarder: command 2
    pytest.param(["rA", "rE"], "rG", "other", [hu(2)], False, id="hu_by_command_open_to_other_player"),
    pytest.param(["rC", "wH"], "rC", "drawer", [chi("pair", 0, "rC", "rC")], False, id="pair_chi_for_drawer"),
    pytest.param(["rC", "wH"], "rC", "next", [chi("pair", 0, "rC", "rC")], False, id="pair_chi_for_next"),
    pytest.param(["rC", "wH"], "rC", "other", [], False, id="pair_chi_refused_to_other"),
    # a turned-up General: general 1 or command 2, and the drawer must take it
    pytest.param(["rA", "rE", "wH"], "rG", "drawer",
                 [chi("general", 1, "rG"), chi("command", 2, "rG", "rA", "rE")], True,
                 id="drawer_must_take_general_as_general_or_command"),
    pytest.param(["rA", "rE", "wH"], "rG", "next",
                 [chi("general", 1, "rG"), chi("command", 2, "rG", "rA", "rE")], False,
                 id="command_and_general_chi_for_next_not_forced"),
    pytest.param(["rA", "rE", "wH"], "rG", "other", [], False, id="command_chi_refused_to_other"),
    pytest.param(["wH"], "rG", "drawer", [chi("general", 1, "rG")], True, id="drawer_must_take_lone_general"),
    pytest.param(["wH"], "rG", "next", [chi("general", 1, "rG")], False, id="general_chi_for_next"),
    pytest.param(["wH"], "rG", "other", [], False, id="general_chi_refused_to_other"),
    pytest.param(["rH", "rP", "wH"], "rC", "next", [chi("field", 1, "rC", "rH", "rP")], False,
                 id="field_chi_for_next"),
    pytest.param(["rH", "rP", "wH"], "rC", "drawer", [chi("field", 1, "rC", "rH", "rP")], False,
                 id="field_chi_for_drawer_not_forced"),
    pytest.param(["rH", "rP", "wH"], "rC", "other", [], False, id="field_chi_refused_to_other"),
    pytest.param(["yS", "gS", "wH"], "rS", "next", [chi("soldiers3", 3, "rS", "yS", "gS")], False,
                 id="soldiers3_chi_for_next"),
    # rS with yS gS wS: three soldiers3 (3 each) and one soldiers4 (5)
    pytest.param(["yS", "gS", "wS", "wH"], "rS", "drawer",
                 [chi("soldiers3", 3, "rS", "yS", "gS"), chi("soldiers3", 3, "rS", "yS", "wS"),
                  chi("soldiers3", 3, "rS", "gS", "wS"), chi("soldiers4", 5, "rS", "yS", "gS", "wS")], False,
                 id="soldiers3_and_soldiers4_chi_for_drawer"),
    pytest.param(["yS", "gS", "wS", "wH"], "rS", "other", [], False, id="soldiers_chi_refused_to_other"),
    # triple exposed 1, quad exposed 6; the pair is chi-type
    pytest.param(["rC", "rC", "rC", "wH"], "rC", "other",
                 [pong("triple", 1, "rC", "rC", "rC"), pong("quad", 6, "rC", "rC", "rC", "rC")], False,
                 id="triple_and_quad_open_to_other_player"),
    pytest.param(["rC", "rC", "rC", "wH"], "rC", "next",
                 [pong("triple", 1, "rC", "rC", "rC"), pong("quad", 6, "rC", "rC", "rC", "rC"),
                  chi("pair", 0, "rC", "rC")], False,
                 id="triple_quad_and_pair_open_to_next_player"),
    pytest.param(["rC", "rC", "rC", "wH"], "rC", "discarder", [], False, id="triple_and_quad_refused_to_discarder"),
    pytest.param(["rS", "rS", "wH"], "rS", "other", [pong("triple", 1, "rS", "rS", "rS")], False,
                 id="same_colour_soldier_triple_is_a_pong_in_bga"),
    pytest.param(["rS", "wH"], "rS", "drawer", [], False, id="soldier_pair_never_claimed_in_bga"),
    pytest.param(["rG", "wH"], "rG", "drawer", [chi("general", 1, "rG")], True, id="general_pair_never_claimed"),
    pytest.param(["rG", "rG", "wH"], "rG", "other", [], False, id="general_triple_never_claimed"),
    # four identical Generals: a general_quad (gan, exposed 8) is one way the drawer may take his General
    pytest.param(["rG", "rG", "rG", "wH"], "rG", "drawer",
                 [chi("general", 1, "rG"), pong("general_quad", 8, "rG", "rG", "rG", "rG")], True,
                 id="drawer_may_take_general_in_general_quad"),
    pytest.param(["rC", "wH"], "rC", "drawer", [chi("pair", 0, "rC", "rC")], False,
                 id="drawer_need_not_take_a_non_general"),
]


@pytest.mark.parametrize(("hand", "public", "role", "expected", "forced"), BGA_CASES)
def test_bga_claims(hand, public, role, expected, forced):
    """bga-taiwan: hu for any non-discarder, quad/triple for anyone but the discarder, chi for drawer and next."""
    assert claims_of(BGA, hand, public, role) == (sorted(expected), forced)


@pytest.mark.parametrize(
    ("options", "points"),
    [
        pytest.param(None, 3, id="hu_claim_scores_winning_triple_concealed_3"),
        pytest.param({"winning_meld_concealed": False}, 1, id="hu_claim_scores_winning_triple_exposed_1_when_open"),
    ],
)
def test_bga_hu_claim_points_follow_winning_meld_option(options, points):
    """rC rC + rC: the hu claim scores the winning triple concealed (3) or, with the option off, exposed (1)."""
    expected = [hu(points), pong("triple", 1, "rC", "rC", "rC")]
    assert claims_of(BGA, ["rC", "rC"], "rC", "other", options) == (sorted(expected), False)


# cardavia-flowers priorities: drawer's hu 5 > other hu 4 > quad/triple 3 > drawer's meld 2 > next's mixed 1.
def fhu(points, drawer=False):
    """A flowers winning claim."""
    return ("hu", "drawer_hu", 5, points, ()) if drawer else ("hu", "hu", 4, points, ())


def fpong(kind, points, *cards):
    """A flowers identical triple / quad claim."""
    return (kind, "quad_triple", 3, points, tuple(sorted(cards)))


def own(kind, points, *cards):
    """The drawer's own (non-winning) meld with the card he turned up."""
    return (kind, "drawer_meld", 2, points, tuple(sorted(cards)))


def mixed(kind, points, *cards):
    """The next player's mixed meld."""
    return (kind, "next_mixed", 1, points, tuple(sorted(cards)))


FLOWERS_CASES = [
    pytest.param(["rC", "wH"], "rC", "drawer", [], False, id="drawer_may_not_pair_the_new_card"),
    pytest.param(["rC", "wH"], "rC", "next", [], False, id="next_may_not_pair"),
    pytest.param(["rC", "wH"], "rC", "other", [], False, id="other_may_not_pair"),
    # the drawer's identical triple is ranked as a triple (3), scoring 1
    pytest.param(["rC", "rC", "wH"], "rC", "drawer", [fpong("triple", 1, "rC", "rC", "rC")], False,
                 id="drawer_triple_ranks_as_quad_triple"),
    pytest.param(["rC", "rC", "rC", "wH"], "rC", "other",
                 [fpong("triple", 1, "rC", "rC", "rC"), fpong("quad", 2, "rC", "rC", "rC", "rC")], False,
                 id="other_may_claim_triple_and_quad"),
    pytest.param(["rC", "rC", "rC", "wH"], "rC", "next",
                 [fpong("triple", 1, "rC", "rC", "rC"), fpong("quad", 2, "rC", "rC", "rC", "rC")], False,
                 id="next_may_claim_triple_and_quad_not_pair"),
    pytest.param(["rC", "rC", "rC", "wH"], "rC", "discarder", [], False, id="discarder_claims_nothing"),
    pytest.param(["rA", "rE", "wH"], "rG", "drawer",
                 [own("general", 1, "rG"), own("command", 1, "rG", "rA", "rE")], True,
                 id="drawer_melds_general_or_command_and_must_take"),
    pytest.param(["rA", "rE", "wH"], "rG", "next", [mixed("command", 1, "rG", "rA", "rE")], False,
                 id="next_may_claim_command_not_single_general"),
    pytest.param(["rA", "rE", "wH"], "rG", "other", [], False, id="other_may_not_claim_mixed_meld"),
    pytest.param(["rH", "rP", "wH"], "rC", "drawer", [own("field", 1, "rC", "rH", "rP")], False,
                 id="drawer_own_field_meld"),
    pytest.param(["rH", "rP", "wH"], "rC", "next", [mixed("field", 1, "rC", "rH", "rP")], False,
                 id="next_may_claim_field"),
    pytest.param(["rH", "rP", "wH"], "rC", "other", [], False, id="other_may_not_claim_field"),
    # soldiers3 score 1, soldiers4 2 (by size)
    pytest.param(["yS", "gS", "wS", "wH"], "rS", "next",
                 [mixed("soldiers3", 1, "rS", "yS", "gS"), mixed("soldiers3", 1, "rS", "yS", "wS"),
                  mixed("soldiers3", 1, "rS", "gS", "wS"), mixed("soldiers4", 2, "rS", "yS", "gS", "wS")], False,
                 id="next_may_claim_soldiers3_and_soldiers4"),
    pytest.param(["yS", "gS", "wS", "wH"], "rS", "other", [], False, id="other_may_not_claim_soldier_groups"),
    pytest.param(["wH"], "F2", "drawer", [own("flower", 3, "F2")], True, id="drawer_must_take_turned_up_flower"),
    pytest.param(["wH"], "F2", "next", [], False, id="next_may_not_claim_flower"),
    pytest.param(["wH"], "rG", "drawer", [own("general", 1, "rG")], True, id="drawer_must_take_turned_up_general"),
    pytest.param(["wH"], "rG", "next", [], False, id="next_may_not_claim_single_general"),
    pytest.param(["rG", "rG", "rG", "wH"], "rG", "other", [], False, id="no_general_quad_in_flowers"),
    # winning claims are unrestricted: a Soldier pair (0) wins for the drawer, ranked drawer_hu
    pytest.param(["rS"], "rS", "drawer", [fhu(0, drawer=True)], False, id="drawer_wins_with_pair_ranked_drawer_hu"),
    pytest.param(["rS"], "rS", "other", [fhu(0)], False, id="other_wins_with_pair_ranked_hu"),
    pytest.param(["rC"], "rC", "next", [fhu(0)], False, id="next_wins_with_pair"),
    pytest.param(["rA", "rE"], "rG", "other", [fhu(1)], False, id="other_wins_with_mixed_meld"),
    # rC rC + rC: triple 1 either as a win or as a non-winning triple
    pytest.param(["rC", "rC"], "rC", "drawer", [fhu(1, drawer=True), fpong("triple", 1, "rC", "rC", "rC")], False,
                 id="drawer_hu_outranks_triple"),
    pytest.param(["rC", "rC"], "rC", "discarder", [], False, id="discarder_may_not_win_on_own_discard"),
]


@pytest.mark.parametrize(("hand", "public", "role", "expected", "forced"), FLOWERS_CASES)
def test_flowers_claims(hand, public, role, expected, forced):
    """cardavia-flowers: restrictions on non-winning claims; winning claims unrestricted."""
    assert claims_of(FLOWERS, hand, public, role) == (sorted(expected), forced)


def test_flowers_must_take_option_off():
    """With must_take_drawn_general off, the drawer of a General may still meld it but is not forced to."""
    options = {"must_take_drawn_general": False}
    assert claims_of(FLOWERS, ["wH"], "rG", "drawer", options) == ([own("general", 1, "rG")], False)


@pytest.mark.parametrize(
    ("ruleset_id", "ranks"),
    [
        pytest.param(BGA, {"hu": 3, "quad_triple": 2, "chi": 1}, id="bga_hu_over_quad_triple_over_chi"),
        pytest.param(FLOWERS, {"drawer_hu": 5, "hu": 4, "quad_triple": 3, "drawer_meld": 2, "next_mixed": 1},
                     id="flowers_drawer_win_over_wins_over_triples_over_drawer_meld_over_next_mixed"),
    ],
)
def test_claim_priorities(ruleset_id, ranks):
    """The published claim priorities follow the order of docs/rules.md#fc-priority and docs/rules.md#fl-priority."""
    described = get_ruleset(ruleset_id).describe()["claim_priorities"]
    assert {p["class"]: p["rank"] for p in described} == ranks


@pytest.mark.parametrize(
    ("ruleset_id", "hand", "public", "role"),
    [
        pytest.param(BGA, ["rC", "rC", "rC", "wH"], "rC", "next", id="bga_claims_listed_by_priority"),
        pytest.param(FLOWERS, ["rC", "rC"], "rC", "drawer", id="flowers_claims_listed_by_priority"),
    ],
)
def test_claims_listed_highest_priority_first(ruleset_id, hand, public, role):
    """Claims come highest priority first."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(None)
    claims, _ = rs.legal_claims(rs.parse(o, hand, public_card=public), role, o)
    priorities = [c.priority for c in claims]
    assert priorities == sorted(priorities, reverse=True)
    assert len(set(priorities)) > 1


@pytest.mark.parametrize("ruleset_id", [BGA, FLOWERS])
def test_unknown_seat_role(ruleset_id):
    """A seat role other than drawer / next / other / discarder is refused, naming seat_role."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(None)
    with pytest.raises(InvalidSeat) as err:
        rs.legal_claims(rs.parse(o, ["rC"], public_card="rC"), "dealer", o)
    assert (err.value.code, err.value.field) == ("invalid_seat", "seat_role")
