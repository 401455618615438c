"""Card, hand, option and seat validation of Four Color Cards (docs/rules.md#fc-cards, docs/rules.md#fc-deal).

The deck holds 4 copies of each of the 28 chess cards (112) and, in cardavia-flowers, one each of F1..F5
(117); a player holds at most 21 cards (the dealer's 21, or 20 + the public card).
"""

from __future__ import annotations

import pytest

from service.rules.errors import DomainError, UnknownRuleset
from service.rules.registry import get_ruleset

BGA, FLOWERS = "bga-taiwan", "cardavia-flowers"
# 22 cards, no more than 4 copies of any: every chess card of red, yellow and green (21) + wG
TWENTY_TWO = [c + k for c in "ryg" for k in "GAECHPS"] + ["wG"]


def parse(ruleset_id, hand=(), exposed=(), public=None, extra=None, options=None):
    """Validate a hand request."""
    rs = get_ruleset(ruleset_id)
    return rs.parse(rs.resolve_options(options), list(hand), list(exposed), public, extra)


def ex(kind, *cards):
    """An exposed meld."""
    return {"kind": kind, "cards": list(cards)}


@pytest.mark.parametrize(
    ("ruleset_id", "cards"),
    [
        pytest.param(BGA, 28, id="bga_deck_has_28_cards_of_4_copies"),
        pytest.param(FLOWERS, 33, id="flowers_deck_adds_five_flowers"),
    ],
)
def test_deck(ruleset_id, cards):
    """bga-taiwan: 7 characters x 4 colours; flowers adds F1..F5."""
    codes = get_ruleset(ruleset_id).describe()["cards"]
    assert len(codes) == len(set(codes)) == cards
    assert {c for c in codes if not c.startswith("F")} == {c + k for c in "rygw" for k in "GAECHPS"}


@pytest.mark.parametrize(
    "ruleset_id",
    [
        pytest.param("bga", id="unknown_id"),
        pytest.param("BGA-TAIWAN", id="ids_are_case_sensitive"),
        pytest.param("cardavia-chan ", id="no_trailing_space"),
        pytest.param(None, id="missing_id"),
    ],
)
def test_unknown_ruleset(ruleset_id):
    """An unknown rule-set id is refused, naming the ruleset field."""
    with pytest.raises(UnknownRuleset) as err:
        get_ruleset(ruleset_id)
    assert (err.value.code, err.value.field) == ("unknown_ruleset", "ruleset")


# (rule-set, request, error code, field)
INVALID_HANDS = [
    pytest.param(BGA, {"hand": ["rX"]}, "unknown_card", "hand.0", id="unknown_character_rX"),
    pytest.param(BGA, {"hand": ["rC", "RG"]}, "unknown_card", "hand.1", id="codes_are_case_sensitive_RG"),
    pytest.param(BGA, {"hand": ["F1"]}, "unknown_card", "hand.0", id="flower_F1_not_in_bga"),
    pytest.param(BGA, {"hand": ["bG"]}, "unknown_card", "hand.0", id="unknown_colour_bG"),
    pytest.param(BGA, {"hand": ["rGG"]}, "unknown_card", "hand.0", id="code_is_two_characters"),
    pytest.param(BGA, {"hand": [""]}, "unknown_card", "hand.0", id="empty_code"),
    pytest.param(BGA, {"hand": [7]}, "unknown_card", "hand.0", id="code_must_be_a_string"),
    pytest.param(BGA, {"hand": ["rC"], "public": "wZ"}, "unknown_card", "public_card", id="unknown_public_card"),
    pytest.param(BGA, {"exposed": [ex("triple", "rC", "rX", "rC")]}, "unknown_card", "exposed.0.cards.1",
                 id="unknown_card_in_exposed_meld"),
    pytest.param(BGA, {"extra": {"lucky_card": "yZ"}}, "unknown_card", "lucky_card", id="unknown_lucky_card"),
    pytest.param(BGA, {"extra": {"lucky_card": "F2"}}, "unknown_card", "lucky_card", id="flower_lucky_card_in_bga"),
    pytest.param(FLOWERS, {"hand": ["F6"]}, "unknown_card", "hand.0", id="flowers_stop_at_F5"),
    pytest.param(FLOWERS, {"hand": ["f1"]}, "unknown_card", "hand.0", id="flower_codes_are_case_sensitive"),
    # a fifth copy, counted over hand, exposed melds, public card and lucky card, in that order
    pytest.param(BGA, {"hand": ["rC"] * 5}, "impossible_card_count", "hand.4", id="fifth_copy_in_hand"),
    pytest.param(BGA, {"hand": ["rC"] * 4, "public": "rC"}, "impossible_card_count", "public_card",
                 id="fifth_copy_is_the_public_card"),
    pytest.param(BGA, {"hand": ["rC"], "exposed": [ex("triple", "rC", "rC", "rC")], "public": "rC"},
                 "impossible_card_count", "public_card", id="fifth_copy_counted_over_exposed_melds"),
    pytest.param(BGA, {"hand": ["rC", "rC"], "exposed": [ex("triple", "rC", "rC", "rC")]},
                 "impossible_card_count", "exposed.0.cards", id="fifth_copy_in_exposed_meld"),
    pytest.param(BGA, {"exposed": [ex("triple", "yC", "yC", "yC"), ex("pair", "yC", "yC")]},
                 "impossible_card_count", "exposed.1.cards", id="fifth_copy_across_two_exposed_melds"),
    pytest.param(BGA, {"hand": ["rC"] * 4, "extra": {"lucky_card": "rC"}}, "impossible_card_count", "lucky_card",
                 id="fifth_copy_is_the_lucky_card"),
    pytest.param(BGA, {"hand": ["wG"] * 3, "exposed": [ex("general", "wG")], "public": "wG"},
                 "impossible_card_count", "public_card", id="fifth_general"),
    pytest.param(FLOWERS, {"hand": ["rC"] * 5}, "impossible_card_count", "hand.4", id="flowers_fifth_chess_copy"),
    pytest.param(FLOWERS, {"hand": ["F1", "F1"]}, "impossible_card_count", "hand.1", id="second_copy_of_a_flower"),
    pytest.param(FLOWERS, {"hand": ["F3"], "public": "F3"}, "impossible_card_count", "public_card",
                 id="flower_public_card_already_in_hand"),
    pytest.param(FLOWERS, {"hand": ["F2"], "exposed": [ex("flower", "F2")]}, "impossible_card_count",
                 "exposed.0.cards", id="flower_in_hand_and_exposed"),
    # more than 21 cards over hand, exposed melds and public card
    pytest.param(BGA, {"hand": TWENTY_TWO}, "too_many_cards", "hand", id="twenty_two_cards_in_hand"),
    pytest.param(BGA, {"hand": TWENTY_TWO[:21], "public": "wA"}, "too_many_cards", "hand",
                 id="twenty_one_cards_plus_public_card"),
    pytest.param(BGA, {"hand": TWENTY_TWO[:18], "exposed": [ex("quad", "wC", "wC", "wC", "wC")]},
                 "too_many_cards", "hand", id="eighteen_cards_plus_exposed_quad"),
    pytest.param(FLOWERS, {"hand": TWENTY_TWO[:20] + ["F1"], "public": "F2"}, "too_many_cards", "hand",
                 id="flowers_twenty_two_cards_with_flowers"),
    # exposed melds must be melds of the rule-set
    pytest.param(BGA, {"exposed": [ex("triple", "rG", "rG", "rG")]}, "invalid_meld", "exposed.0.cards",
                 id="exposed_three_generals_not_a_triple"),
    pytest.param(BGA, {"exposed": [ex("pair", "rS", "rS")]}, "invalid_meld", "exposed.0.cards",
                 id="exposed_soldier_pair_not_in_bga"),
    pytest.param(BGA, {"exposed": [ex("quad", "rC", "rC", "rC")]}, "invalid_meld", "exposed.0.cards",
                 id="exposed_kind_must_match_cards"),
    pytest.param(BGA, {"exposed": [ex("command", "rG", "rA", "yE")]}, "invalid_meld", "exposed.0.cards",
                 id="exposed_command_of_two_colours"),
    pytest.param(BGA, {"exposed": [ex("triple", "rC", "rC", "rC"), ex("field", "rC", "rH")]}, "invalid_meld",
                 "exposed.1.cards", id="second_exposed_meld_incomplete"),
    pytest.param(BGA, {"exposed": [ex("flower", "rG")]}, "invalid_meld", "exposed.0.kind",
                 id="no_flower_melds_in_bga"),
    pytest.param(FLOWERS, {"exposed": [ex("general_quad", "rG", "rG", "rG", "rG")]}, "invalid_meld",
                 "exposed.0.kind", id="no_general_quad_in_flowers"),
    pytest.param(BGA, {"exposed": [ex("chow", "rC", "rH", "rP")]}, "invalid_meld", "exposed.0.kind",
                 id="unknown_meld_kind"),
    pytest.param(BGA, {"exposed": [{"kind": "triple"}]}, "invalid_meld", "exposed.0.cards",
                 id="exposed_meld_without_cards"),
    pytest.param(BGA, {"exposed": [ex("triple")]}, "invalid_meld", "exposed.0.cards", id="exposed_meld_empty"),
]


@pytest.mark.parametrize(("ruleset_id", "request_", "code", "field"), INVALID_HANDS)
def test_invalid_hand(ruleset_id, request_, code, field):
    """Invalid requests raise a DomainError with a stable code naming the offending field."""
    with pytest.raises(DomainError) as err:
        parse(ruleset_id, **request_)
    assert (err.value.code, err.value.field) == (code, field)


# (rule-set, request, card count)
VALID_HANDS = [
    pytest.param(BGA, {"hand": TWENTY_TWO[:21]}, 21, id="dealer_holds_21"),
    pytest.param(BGA, {"hand": TWENTY_TWO[:20], "public": "wA"}, 21, id="twenty_cards_plus_public_card"),
    pytest.param(BGA, {"hand": TWENTY_TWO[:17], "exposed": [ex("quad", "wC", "wC", "wC", "wC")]}, 21,
                 id="seventeen_cards_plus_exposed_quad"),
    # the lucky card is the stock's, not the player's: it counts copies but not cards
    pytest.param(BGA, {"hand": TWENTY_TWO[:20], "public": "wA", "extra": {"lucky_card": "wH"}}, 21,
                 id="lucky_card_not_counted_in_21"),
    pytest.param(BGA, {"hand": ["rC"] * 3, "public": "rC"}, 4, id="four_copies_allowed"),
    pytest.param(BGA, {"hand": ["rC"] * 2, "exposed": [ex("pair", "rC", "rC")]}, 4,
                 id="four_copies_over_hand_and_exposed"),
    pytest.param(BGA, {"hand": ["rC"] * 3, "extra": {"lucky_card": "rC"}}, 3, id="lucky_card_may_be_fourth_copy"),
    pytest.param(FLOWERS, {"hand": ["F1", "F2", "F3", "F4"], "public": "F5"}, 5, id="five_distinct_flowers"),
    pytest.param(FLOWERS, {"hand": TWENTY_TWO[:19] + ["F1"], "public": "F2"}, 21, id="flowers_20_plus_public"),
    pytest.param(BGA, {}, 0, id="empty_hand_is_valid"),
]


@pytest.mark.parametrize(("ruleset_id", "request_", "count"), VALID_HANDS)
def test_valid_hand(ruleset_id, request_, count):
    """Hands within the deck and the 21-card limit parse."""
    assert parse(ruleset_id, **request_).card_count() == count


# (rule-set, options given, code, field)
INVALID_OPTIONS = [
    pytest.param(BGA, {"threshhold": 10}, "unknown_option", "options.threshhold", id="misspelt_option"),
    pytest.param(BGA, {"payment": "none"}, "unknown_option", "options.payment", id="flowers_option_not_in_bga"),
    pytest.param(FLOWERS, {"threshold": 10}, "unknown_option", "options.threshold", id="bga_option_not_in_flowers"),
    pytest.param(FLOWERS, {"win_payment": "flat"}, "unknown_option", "options.win_payment",
                 id="win_payment_not_in_flowers"),
    pytest.param(BGA, {"threshold": "10"}, "invalid_option", "options.threshold", id="threshold_must_be_integer"),
    pytest.param(BGA, {"threshold": 10.0}, "invalid_option", "options.threshold", id="threshold_not_a_float"),
    pytest.param(BGA, {"threshold": True}, "invalid_option", "options.threshold", id="threshold_not_a_boolean"),
    pytest.param(BGA, {"threshold": -1}, "invalid_option", "options.threshold", id="threshold_not_negative"),
    pytest.param(BGA, {"stake": None}, "invalid_option", "options.stake", id="stake_must_be_integer"),
    pytest.param(BGA, {"win_payment": "double"}, "invalid_option", "options.win_payment",
                 id="win_payment_excess_or_flat"),
    pytest.param(BGA, {"win_payment": 1}, "invalid_option", "options.win_payment", id="win_payment_must_be_string"),
    pytest.param(BGA, {"winning_meld_concealed": "false"}, "invalid_option", "options.winning_meld_concealed",
                 id="winning_meld_concealed_must_be_boolean"),
    pytest.param(BGA, {"same_colour_soldier_sets": 1}, "invalid_option", "options.same_colour_soldier_sets",
                 id="same_colour_soldier_sets_must_be_boolean"),
    pytest.param(FLOWERS, {"payment": "all"}, "invalid_option", "options.payment",
                 id="payment_none_or_each_loser_pays"),
    pytest.param(FLOWERS, {"mixed_group_points": 0}, "invalid_option", "options.mixed_group_points",
                 id="mixed_group_points_must_be_string"),
]


@pytest.mark.parametrize(("ruleset_id", "given", "code", "field"), INVALID_OPTIONS)
def test_invalid_option(ruleset_id, given, code, field):
    """Unknown options and values of the wrong type or outside the choices are refused, naming the option."""
    with pytest.raises(DomainError) as err:
        get_ruleset(ruleset_id).resolve_options(given)
    assert (err.value.code, err.value.field) == (code, field)


@pytest.mark.parametrize(
    ("ruleset_id", "defaults"),
    [
        pytest.param(BGA, {"threshold": 10, "stake": 1, "win_payment": "excess", "winning_meld_concealed": True,
                           "same_colour_soldier_sets": True}, id="bga_defaults_as_written"),
        pytest.param(FLOWERS, {"mixed_group_points": "by_size", "payment": "none"}, id="flowers_defaults_as_written"),
    ],
)
def test_option_defaults(ruleset_id, defaults):
    """Every option defaults as docs/rules.md#decisions writes it."""
    resolved = get_ruleset(ruleset_id).resolve_options(None)
    assert {k: resolved[k] for k in defaults} == defaults


# (rule-set, seats, winner, field)
INVALID_SEATS = [
    pytest.param(BGA, 1, 0, "seats", id="bga_needs_two_players"),
    pytest.param(BGA, 5, 0, "seats", id="bga_at_most_four_players"),
    pytest.param(FLOWERS, 3, 0, "seats", id="flowers_needs_four_players"),
    pytest.param(FLOWERS, 5, 0, "seats", id="flowers_exactly_four_players"),
    pytest.param(BGA, 4, 4, "winner", id="winner_is_a_seat_index"),
    pytest.param(BGA, 2, 2, "winner", id="winner_within_two_seats"),
    pytest.param(BGA, 3, -1, "winner", id="winner_not_negative"),
    pytest.param(FLOWERS, 4, 4, "winner", id="flowers_winner_is_a_seat_index"),
]


@pytest.mark.parametrize(("ruleset_id", "seats", "winner", "field"), INVALID_SEATS)
def test_invalid_seats(ruleset_id, seats, winner, field):
    """bga-taiwan is played by 2-4, flowers by exactly 4; the winner is one of the seats."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(None)
    hand = rs.parse(o, ["rC", "rC"], public_card="rC")
    with pytest.raises(DomainError) as err:
        rs.settle(hand, o, seats, winner)
    assert (err.value.code, err.value.field) == ("invalid_seat", field)


@pytest.mark.parametrize(
    ("ruleset_id", "seats"),
    [
        pytest.param(BGA, 2, id="bga_two_players"),
        pytest.param(BGA, 3, id="bga_three_players"),
        pytest.param(BGA, 4, id="bga_four_players"),
        pytest.param(FLOWERS, 4, id="flowers_four_players"),
    ],
)
def test_valid_seats(ruleset_id, seats):
    """Every allowed table size settles, the last seat may win."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(None)
    result = rs.settle(rs.parse(o, ["rC", "rC"], public_card="rC"), o, seats, seats - 1)
    assert len(result.deltas) == seats
