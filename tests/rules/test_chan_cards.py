"""Card, hand, option and seat validation of Chắn (docs/rules.md#chan-cards, docs/rules.md#chan-pairs,
docs/rules.md#chan-deal).

Values 2-9 in suits m, s, c plus Chi chi CC, 4 copies each: 100 cards. A player holds at most 20 cards over
hand, exposed pairs and the public card (the dealer's 20, or 19 + the public card). Red: 8m 9m 8s 9s CC.
"""

from __future__ import annotations

import pytest

from service.rules.chan.captures import parse_history
from service.rules.chan.cards import CODE_INDEX, COPIES, RED, code
from service.rules.errors import DomainError
from service.rules.registry import get_ruleset

CHAN = "cardavia-chan"
SUITED = [f"{v}{s}" for v in range(2, 10) for s in "msc"]
RED_CODES = ("8m", "9m", "8s", "9s", "CC")  # docs/rules.md#chan-cards
# 20 distinct-enough cards within the deck: one of every suited face 2-7 (18) + 8c 9c
TWENTY = SUITED[:18] + ["8c", "9c"]
TWENTY_ONE = TWENTY + ["2m"]


def parse(hand=(), exposed=(), public=None, options=None):
    """Validate a Chắn hand request."""
    rs = get_ruleset(CHAN)
    return rs.parse(rs.resolve_options(options), list(hand), list(exposed), public)


def ex(kind, *cards):
    """An exposed pair."""
    return {"kind": kind, "cards": list(cards)}


def test_deck_has_100_cards():
    """docs/rules.md#chan-cards: values 2-9 in m, s, c plus Chi chi, 4 copies each: 25 faces x 4 = 100 cards."""
    codes = get_ruleset(CHAN).describe()["cards"]
    assert len(codes) == len(set(codes)) == 25
    assert set(codes) == set(SUITED) | {"CC"}
    assert len(codes) * COPIES == 100
    assert all(code(CODE_INDEX[c]) == c for c in codes)


@pytest.mark.parametrize(
    ("card", "red"),
    [pytest.param(c, c in RED_CODES, id=f"{c}_is_{'red' if c in RED_CODES else 'black'}") for c in [*SUITED, "CC"]],
)
def test_red_cards(card, red):
    """docs/rules.md#chan-cards: red cards are 8m 9m 8s 9s CC; all others are black."""
    assert (CODE_INDEX[card] in RED) is red


# (request, error code, field)
INVALID_HANDS = [
    pytest.param({"hand": ["1m"]}, "unknown_card", "hand.0", id="no_value_1"),
    pytest.param({"hand": ["2m", "10s"]}, "unknown_card", "hand.1", id="no_value_10"),
    pytest.param({"hand": ["cc"]}, "unknown_card", "hand.0", id="chi_chi_code_is_upper_case"),
    pytest.param({"hand": ["2M"]}, "unknown_card", "hand.0", id="suit_letters_are_lower_case"),
    pytest.param({"hand": ["2x"]}, "unknown_card", "hand.0", id="unknown_suit"),
    pytest.param({"hand": ["rG"]}, "unknown_card", "hand.0", id="four_color_card_rG_is_not_chan"),
    pytest.param({"hand": [""]}, "unknown_card", "hand.0", id="empty_code"),
    pytest.param({"hand": [5]}, "unknown_card", "hand.0", id="code_must_be_a_string"),
    pytest.param({"hand": ["2m"], "public": "1c"}, "unknown_card", "public_card", id="unknown_public_card"),
    pytest.param({"exposed": [ex("chan", "5s", "5x")]}, "unknown_card", "exposed.0.cards.1",
                 id="unknown_card_in_exposed_pair"),
    # a fifth copy, counted over hand, exposed pairs and public card, in that order
    pytest.param({"hand": ["5s"] * 5}, "impossible_card_count", "hand.4", id="fifth_copy_in_hand"),
    pytest.param({"hand": ["5s"] * 4, "public": "5s"}, "impossible_card_count", "public_card",
                 id="fifth_copy_is_the_public_card"),
    pytest.param({"hand": ["5s"] * 3, "exposed": [ex("chan", "5s", "5s")]}, "impossible_card_count",
                 "exposed.0.cards", id="fifth_copy_in_exposed_pair"),
    pytest.param({"hand": ["5s", "5s"], "exposed": [ex("chan", "5s", "5s")], "public": "5s"},
                 "impossible_card_count", "public_card", id="fifth_copy_counted_over_exposed_pairs"),
    pytest.param({"hand": ["CC"], "exposed": [ex("chan", "CC", "CC"), ex("chan", "CC", "CC")]},
                 "impossible_card_count", "exposed.1.cards", id="fifth_chi_chi_across_two_exposed_pairs"),
    pytest.param({"exposed": [ex("chiu", "7c", "7c", "7c", "7c")], "public": "7c"}, "impossible_card_count",
                 "public_card", id="public_card_after_exposed_chiu"),
    pytest.param({"hand": ["9m"] * 3, "exposed": [ex("ca", "9m", "9s"), ex("ca", "9m", "9c")]},
                 "impossible_card_count", "exposed.1.cards", id="fifth_copy_through_two_exposed_ca"),
    # more than 20 cards over hand, exposed pairs and public card
    pytest.param({"hand": TWENTY_ONE}, "too_many_cards", "hand", id="twenty_one_cards_in_hand"),
    pytest.param({"hand": TWENTY, "public": "9c"}, "too_many_cards", "hand", id="twenty_cards_plus_public_card"),
    pytest.param({"hand": TWENTY[:19], "exposed": [ex("chan", "CC", "CC")]}, "too_many_cards", "hand",
                 id="nineteen_cards_plus_exposed_chan"),
    pytest.param({"hand": TWENTY[:16], "exposed": [ex("chiu", "CC", "CC", "CC", "CC")], "public": "9m"},
                 "too_many_cards", "hand", id="sixteen_cards_plus_exposed_chiu_plus_public_card"),
    # exposed pairs must be pairs of their kind
    pytest.param({"exposed": [ex("ca", "CC", "9m")]}, "invalid_meld", "exposed.0.cards",
                 id="chi_chi_forms_no_ca"),
    pytest.param({"exposed": [ex("ca", "CC", "CC")]}, "invalid_meld", "exposed.0.cards",
                 id="two_chi_chi_are_a_chan_not_a_ca"),
    pytest.param({"exposed": [ex("ca", "5m", "5m")]}, "invalid_meld", "exposed.0.cards",
                 id="identical_cards_are_a_chan_not_a_ca"),
    pytest.param({"exposed": [ex("ca", "5m", "6m")]}, "invalid_meld", "exposed.0.cards",
                 id="ca_needs_the_same_value"),
    pytest.param({"exposed": [ex("chan", "5m", "5s")]}, "invalid_meld", "exposed.0.cards",
                 id="chan_needs_identical_cards"),
    pytest.param({"exposed": [ex("chan", "5m", "5m", "5m")]}, "invalid_meld", "exposed.0.cards",
                 id="three_identical_are_no_pair"),
    pytest.param({"exposed": [ex("chiu", "5m", "5m", "5m")]}, "invalid_meld", "exposed.0.cards",
                 id="chiu_needs_four_identical"),
    pytest.param({"exposed": [ex("chiu", "5m", "5m", "5s", "5s")]}, "invalid_meld", "exposed.0.cards",
                 id="two_chan_are_not_a_chiu"),
    pytest.param({"exposed": [ex("chan", "5m", "5m"), ex("ca", "7c")]}, "invalid_meld", "exposed.1.cards",
                 id="second_exposed_pair_incomplete"),
    pytest.param({"exposed": [ex("pair", "5m", "5m")]}, "invalid_meld", "exposed.0.kind", id="unknown_pair_kind"),
    pytest.param({"exposed": [{"kind": "chan"}]}, "invalid_meld", "exposed.0.cards", id="exposed_pair_without_cards"),
    pytest.param({"exposed": [ex("chan")]}, "invalid_meld", "exposed.0.cards", id="exposed_pair_empty"),
]


@pytest.mark.parametrize(("request_", "code_", "field"), INVALID_HANDS)
def test_invalid_hand(request_, code_, field):
    """Invalid requests raise a DomainError with a stable code naming the offending field."""
    with pytest.raises(DomainError) as err:
        parse(**request_)
    assert (err.value.code, err.value.field) == (code_, field)


# (request, card count)
VALID_HANDS = [
    pytest.param({"hand": TWENTY}, 20, id="dealer_holds_20"),
    pytest.param({"hand": TWENTY[:19], "public": "9c"}, 20, id="nineteen_cards_plus_public_card"),
    pytest.param({"hand": TWENTY[:18], "exposed": [ex("ca", "9m", "9s")]}, 20, id="eighteen_cards_plus_exposed_ca"),
    pytest.param({"hand": TWENTY[:14], "exposed": [ex("chiu", "CC", "CC", "CC", "CC"), ex("chan", "9m", "9m")]},
                 20, id="exposed_chiu_holds_four_cards"),
    pytest.param({"hand": ["5s"] * 3, "public": "5s"}, 4, id="four_copies_allowed"),
    pytest.param({"hand": ["5s"], "exposed": [ex("chan", "5s", "5s")], "public": "5s"}, 4,
                 id="four_copies_over_hand_exposed_and_public"),
    pytest.param({"exposed": [ex("chan", "CC", "CC")]}, 2, id="chi_chi_chan_is_a_pair"),
    pytest.param({"exposed": [ex("ca", "9s", "9m")]}, 2, id="exposed_ca_in_any_order"),
    pytest.param({}, 0, id="empty_hand_is_valid"),
]


@pytest.mark.parametrize(("request_", "count"), VALID_HANDS)
def test_valid_hand(request_, count):
    """Hands within the deck and the 20-card limit parse."""
    assert parse(**request_).card_count() == count


# (history, field)
INVALID_HISTORIES = [
    pytest.param({"discarded": ["1m"]}, "history.discarded.0", id="unknown_discarded_face"),
    pytest.param({"passed_identical": ["5m", "cc"]}, "history.passed_identical.1", id="unknown_passed_face"),
    pytest.param({"played_into_ca": ["rG"]}, "history.played_into_ca.0", id="unknown_played_into_ca_face"),
]


@pytest.mark.parametrize(("history", "field"), INVALID_HISTORIES)
def test_invalid_history(history, field):
    """The faces of a capture history are Chắn card codes."""
    with pytest.raises(DomainError) as err:
        parse_history(history)
    assert (err.value.code, err.value.field) == ("unknown_card", field)


# (options given, code, field)
INVALID_OPTIONS = [
    pytest.param({"tom_set": "3m-3s-7s"}, "invalid_option", "options.tom_set", id="tom_set_is_one_of_two"),
    pytest.param({"tom_set": 1}, "invalid_option", "options.tom_set", id="tom_set_must_be_string"),
    pytest.param({"tom": "3m-3s-7c"}, "unknown_option", "options.tom", id="misspelt_option"),
    pytest.param({"threshold": 10}, "unknown_option", "options.threshold", id="four_color_option_not_in_chan"),
]


@pytest.mark.parametrize(("given", "code_", "field"), INVALID_OPTIONS)
def test_invalid_option(given, code_, field):
    """Unknown options and values outside the choices are refused, naming the option."""
    with pytest.raises(DomainError) as err:
        get_ruleset(CHAN).resolve_options(given)
    assert (err.value.code, err.value.field) == (code_, field)


@pytest.mark.parametrize(
    ("given", "tom_set"),
    [
        pytest.param(None, "3m-3c-7c", id="tom_set_defaults_to_the_seed_reading"),
        pytest.param({"tom_set": "3m-3s-7c"}, "3m-3s-7c", id="tom_set_traditional_option"),
    ],
)
def test_tom_set_option(given, tom_set):
    """docs/rules.md#chan-tom: Tôm is 3m 3c 7c as the seed reads; option: the traditional 3m 3s 7c."""
    assert get_ruleset(CHAN).resolve_options(given)["tom_set"] == tom_set
