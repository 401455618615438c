"""Pairs and the win test of Chắn (docs/rules.md#chan-pairs).

Chắn = two identical cards; Cạ = same value, different suits; Chíu = four identical = two Chắn; Chi chi pairs
only with Chi chi (docs/rules.md#chan-chi-chi). A win: all 20 cards (hand + exposed pairs + winning card) form 10 pairs
with at least 6 Chắn; an identical pair is never split to form a Cạ, a triple may give one card to a Cạ while its pair
stays; won on Chi chi, exactly 6 Chắn and 4 Cạ. Each case counts its pairs in a comment. """

from __future__ import annotations

import pytest

from service.rules.chan.cards import code
from service.rules.registry import get_ruleset

CHAN = "cardavia-chan"
REASONS = {"card_count", "unpaired_cards", "too_few_chan", "chi_chi_rule"}

# 20 cards, 6 Chắn + 4 Cạ, as text; the winning card is taken out of the hand by `deal`.
SIX_FOUR = "2m 2m 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m  2s 2c 4m 4c 5m 5s 9s 9c"
TEN_CHAN = "2m 2m 2s 2s 4c 4c 5m 5m 6s 6s 7m 7m 4m 4m 5s 5s 6c 6c 8m 8m"
FIVE_FIVE = "2m 2m 4s 4s 5c 5c 6m 6m 7s 7s  8m 8s 2s 2c 4m 4c 5m 5s 9s 9c"
# Chíu 6m (two Chắn) + Chắn 2m 4s 5c 7s + Cạ 2s-2c 4m-4c 5m-5s 9s-9c
CHIU_SIX = "6m 6m 6m 6m 2m 2m 4s 4s 5c 5c 7s 7s  2s 2c 4m 4c 5m 5s 9s 9c"


def deal(text, win=None):
    """The hand of a 20-card text with one copy of `win` taken out (it becomes the public card)."""
    cards = text.split()
    if win is not None:
        cards.remove(win)
    return cards


def ex(kind, *cards):
    """An exposed pair."""
    return {"kind": kind, "cards": list(cards)}


def hu(hand, public=None, exposed=()):
    """Parse and run the win test."""
    rs = get_ruleset(CHAN)
    o = rs.resolve_options(None)
    return rs.hu(rs.parse(o, hand, list(exposed), public), o)


def shown(pairs):
    """Pairs as sorted (kind, codes, concealed) rows."""
    return sorted((p.kind, tuple(code(c) for c in p.cards), p.concealed) for p in pairs)


# (hand, public card, exposed pairs, hu, Chắn, Cạ, reason codes, unpaired cards)
WIN_CASES = [
    # 6 Chắn (2m 4s 5c 6m 7s 8m) + 4 Cạ, 9c completes Cạ 9s-9c: 10 pairs, 6 >= 6
    pytest.param(deal(SIX_FOUR, "9c"), "9c", [], True, 6, 4, set(), [], id="six_chan_four_ca_win"),
    # the same 20 cards, 7s completes Chắn 7s-7s
    pytest.param(deal(SIX_FOUR, "7s"), "7s", [], True, 6, 4, set(), [], id="winning_card_completes_a_chan"),
    # 10 Chắn
    pytest.param(deal(TEN_CHAN, "8m"), "8m", [], True, 10, 0, set(), [], id="ten_chan_win"),
    # 7 Chắn (2m 4s 5c 6m 7s 8m 9s) + 3 Cạ (2s-2c 4m-4c 5m-5s)
    pytest.param(deal("2m 2m 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 9s 9s 2s 2c 4m 4c 5m 5s", "5s"), "5s", [], True, 7, 3,
                 set(), [], id="seven_chan_three_ca_win"),
    # 5 Chắn + 5 Cạ: 10 pairs but 5 < 6
    pytest.param(deal(FIVE_FIVE, "9c"), "9c", [], False, 5, 5, {"too_few_chan"}, [],
                 id="five_chan_five_ca_too_few_chan"),
    # Chíu 6m = 2 Chắn + 4 Chắn = 6 (as one Chắn it would be 5)
    pytest.param(deal(CHIU_SIX, "9c"), "9c", [], True, 6, 4, set(), [], id="chiu_counts_as_two_chan"),
    # the winning 6m makes the fourth: Chíu 2 + 4 = 6 Chắn
    pytest.param(deal(CHIU_SIX, "6m"), "6m", [], True, 6, 4, set(), [], id="winning_card_completes_a_chiu"),
    # exposed Chíu 6m (2) + concealed 2m 4s 5c 7s (4) = 6 Chắn
    pytest.param(deal(CHIU_SIX, "9c")[4:], "9c", [ex("chiu", "6m", "6m", "6m", "6m")], True, 6, 4, set(), [],
                 id="exposed_chiu_counts_as_two_chan"),
    # exposed Chắn 2m + Cạ 4m-4c count with the concealed pairs: 16 concealed + 4 exposed = 20
    pytest.param(deal("4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 2s 2c 5m 5s 9s 9c", "9c"), "9c",
                 [ex("chan", "2m", "2m"), ex("ca", "4m", "4c")], True, 6, 4, set(), [],
                 id="exposed_pairs_count_toward_the_win"),
    # the dealer's initial 20 cards: no public card
    pytest.param(deal(SIX_FOUR), None, [], True, 6, 4, set(), [], id="dealer_twenty_cards_win_without_public_card"),
    # 3m 3m 3m 3s: Chắn 3m-3m + Cạ 3m-3s; + Chắn 4s 5c 6m 7s 8m + Cạ 2s-2c 4m-4c 9s-9c = 6 + 4
    pytest.param(deal("3m 3m 3m 3s 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 2s 2c 4m 4c 9s 9c", "9c"), "9c", [], True, 6, 4,
                 set(), [], id="triple_gives_one_card_to_a_ca"),
    # 3m 3m 3s: Chắn 3m-3m, 3s pairs with nothing (the pair is not split); 7c is alone beside Chắn 7s
    pytest.param(deal("3m 3m 3s 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 7c 2s 2c 4m 4c 9s 9c", "9c"), "9c", [], False, 6, 3,
                 {"unpaired_cards"}, ["3s", "7c"], id="identical_pair_never_split_3m_3m_3s"),
    # 3m 3m 3s 3c: Chắn 3m-3m + Cạ 3s-3c (another odd 3 meets 3s)
    pytest.param(deal("3m 3m 3s 3c 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 2s 2c 4m 4c 9s 9c", "9c"), "9c", [], True, 6, 4,
                 set(), [], id="identical_pair_kept_odd_threes_form_ca"),
    # Chi chi pairs only with Chi chi: 3 CC = Chắn + a lone CC; 9m pairs with nothing either
    pytest.param(deal("CC CC CC 9m 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 2s 2c 4m 4c 5m 5s", "9m"), "9m", [], False, 6, 3,
                 {"unpaired_cards"}, ["9m", "CC"], id="chi_chi_forms_no_ca"),
    # won on Chi chi: Chắn CC 4s 5c 6m 7s 8m (6) + Cạ 2s-2c 4m-4c 5m-5s 9s-9c (4)
    pytest.param(deal("CC CC 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 2s 2c 4m 4c 5m 5s 9s 9c", "CC"), "CC", [], True, 6, 4,
                 set(), [], id="chi_chi_win_six_chan_four_ca"),
    # won on Chi chi completing a Chíu: Chíu CC (2) + 4 Chắn = 6, + 4 Cạ
    pytest.param(deal("CC CC CC CC 4s 4s 5c 5c 7s 7s 6m 6m 2s 2c 4m 4c 5m 5s 9s 9c", "CC"), "CC", [], True, 6, 4,
                 set(), [], id="chi_chi_win_through_chiu"),
    # won on Chi chi with 7 Chắn (CC 2m 4s 5c 6m 7s 8m) + 3 Cạ: not exactly 6 and 4
    pytest.param(deal("CC CC 2m 2m 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 2s 2c 4m 4c 5m 5s", "CC"), "CC", [], False, 7, 3,
                 {"chi_chi_rule"}, [], id="chi_chi_winning_card_with_seven_chan"),
    # 10 Chắn won on Chi chi: not exactly 6 and 4
    pytest.param(deal(TEN_CHAN.replace("8m 8m", "CC CC"), "CC"), "CC", [], False, 10, 0, {"chi_chi_rule"}, [],
                 id="chi_chi_winning_card_with_ten_chan"),
    # won on Chi chi with 5 Chắn + 5 Cạ: too few Chắn and not exactly 6 and 4
    pytest.param(deal("CC CC 4s 4s 5c 5c 6m 6m 7s 7s 8m 8s 2s 2c 4m 4c 5m 5s 9s 9c", "CC"), "CC", [], False, 5, 5,
                 {"too_few_chan", "chi_chi_rule"}, [], id="chi_chi_winning_card_with_five_chan"),
    # splitting Chắn 3m-3m into Cạ 3m-3s + 3m-3c would give exactly 6 + 4; it is never split: 7 Chắn + 3 Cạ
    pytest.param(deal("CC CC 3m 3m 4s 4s 5c 5c 6m 6m 7s 7s 3s 3c 2s 2c 4m 4c 8m 8m", "CC"), "CC", [], False, 7, 3,
                 {"chi_chi_rule"}, [], id="identical_pair_not_split_to_meet_chi_chi_rule"),
    # the Chi chi rule binds only a Chi chi winning card: the same 7 + 3 cards won on 5s
    pytest.param(deal("CC CC 2m 2m 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 2s 2c 4m 4c 5m 5s", "5s"), "5s", [], True, 7, 3,
                 set(), [], id="chi_chi_rule_only_for_a_chi_chi_winning_card"),
    # 3c pairs with nothing: 9s and 3c are left over
    pytest.param(deal(SIX_FOUR, "9c"), "3c", [], False, 6, 3, {"unpaired_cards"}, ["3c", "9s"],
                 id="winning_card_pairs_with_nothing"),
    # 9m also completes a Cạ with 9s (any other suit of the value)
    pytest.param(deal(SIX_FOUR, "9c"), "9m", [], True, 6, 4, set(), [], id="ca_with_either_other_suit"),
    # 18 cards all paired (6 Chắn + 3 Cạ), no public card: not 20
    pytest.param(deal(SIX_FOUR)[:18], None, [], False, 6, 3, {"card_count"}, [], id="eighteen_cards_wrong_count"),
    # 17 + public = 18 cards
    pytest.param(deal(SIX_FOUR, "5s")[:17], "5s", [], False, 6, 3, {"card_count"}, [],
                 id="seventeen_plus_public_wrong_count"),
    # 19 cards: Cạ 9s-9c missing its 9c
    pytest.param(deal(SIX_FOUR, "9c"), None, [], False, 6, 3, {"card_count", "unpaired_cards"}, ["9s"],
                 id="nineteen_cards_one_unpaired"),
    # 5 Chắn, 10 cards
    pytest.param(deal(TEN_CHAN)[:10], None, [], False, 5, 0, {"card_count", "too_few_chan"}, [],
                 id="ten_cards_five_chan"),
    # 3 cards, nothing pairs: every reason but the Chi chi rule (checked only on 10 complete pairs)
    pytest.param(["2m", "3s"], "CC", [], False, 0, 0, {"card_count", "unpaired_cards", "too_few_chan"},
                 ["2m", "3s", "CC"], id="several_reasons_at_once"),
    pytest.param([], None, [], False, 0, 0, {"card_count", "too_few_chan"}, [], id="empty_hand"),
]


@pytest.mark.parametrize(("hand", "public", "exposed", "won", "chan", "ca", "reasons", "unpaired"), WIN_CASES)
def test_win(hand, public, exposed, won, chan, ca, reasons, unpaired):
    """The win test: pair counts, and every reason (stable codes) it fails."""
    result = hu(hand, public, exposed)
    assert (result.hu, result.chan, result.ca) == (won, chan, ca)
    assert {r for r, _ in result.reasons} == reasons
    assert sorted(code(c) for c in result.unpaired) == unpaired
    assert result.card_count == len(hand) + (public is not None) + sum(len(p["cards"]) for p in exposed)


@pytest.mark.parametrize("reason", sorted(REASONS))
def test_every_reason_code_is_shown(reason):
    """Each of the four reason codes appears in the case table."""
    assert any(reason in case.values[6] for case in WIN_CASES)


# (hand, public card, exposed pairs, pairs as (kind, codes, concealed), unpaired)
PAIRING_CASES = [
    pytest.param(["3m", "3m"], "3s", [], [("chan", ("3m", "3m"), True)], ["3s"],
                 id="identical_pair_never_split_for_ca"),
    pytest.param(["3m", "3m", "3c"], "3s", [], [("ca", ("3s", "3c"), True), ("chan", ("3m", "3m"), True)], [],
                 id="odd_cards_of_a_value_form_ca"),
    pytest.param(["3m", "3m", "3m"], "3s", [], [("ca", ("3m", "3s"), True), ("chan", ("3m", "3m"), True)], [],
                 id="triple_gives_one_card_to_ca"),
    pytest.param(["3m", "3m", "3m"], "3m", [], [("chiu", ("3m",) * 4, True)], [], id="four_identical_are_a_chiu"),
    pytest.param(["3m", "3m", "3s"], "3s", [], [("chan", ("3m", "3m"), True), ("chan", ("3s", "3s"), True)], [],
                 id="two_chan_not_two_ca"),
    pytest.param(["5s", "5c", "5m"], "5m", [], [("ca", ("5s", "5c"), True), ("chan", ("5m", "5m"), True)], [],
                 id="chan_of_a_face_before_ca"),
    pytest.param(["CC", "CC", "CC"], "9m", [], [("chan", ("CC", "CC"), True)], ["9m", "CC"],
                 id="chi_chi_pairs_only_with_chi_chi"),
    pytest.param(["5m"], "5s", [ex("ca", "5s", "5m")], [("ca", ("5m", "5s"), False), ("ca", ("5m", "5s"), True)], [],
                 id="exposed_pairs_are_kept_as_exposed"),
]


@pytest.mark.parametrize(("hand", "public", "exposed", "pairs", "unpaired"), PAIRING_CASES)
def test_forced_pairing(hand, public, exposed, pairs, unpaired):
    """The pairing is forced: count // 2 Chắn per face (four: a Chíu), odd cards into Cạ by value."""
    result = hu(hand, public, exposed)
    assert shown(result.pairs) == sorted(pairs)
    assert sorted(code(c) for c in result.unpaired) == sorted(unpaired)


# (concealed cards, pairs they can form as (kind, codes))
MELD_CASES = [
    pytest.param(["5m", "5m"], {("chan", ("5m", "5m"))}, id="two_identical_form_chan"),
    pytest.param(["5m", "5s"], {("ca", ("5m", "5s"))}, id="same_value_other_suit_forms_ca"),
    pytest.param(["5m", "6m"], set(), id="different_values_form_nothing"),
    pytest.param(["5m", "5m", "5s"], {("chan", ("5m", "5m"))}, id="no_ca_that_splits_a_chan"),
    pytest.param(["5m", "5m", "5m", "5s"], {("chan", ("5m", "5m")), ("ca", ("5m", "5s"))},
                 id="triple_may_give_one_card_to_ca"),
    pytest.param(["5m"] * 4, {("chan", ("5m", "5m")), ("chiu", ("5m",) * 4)}, id="four_identical_form_chiu"),
    pytest.param(["5m", "5s", "5c"], {("ca", ("5m", "5s")), ("ca", ("5m", "5c")), ("ca", ("5s", "5c"))},
                 id="three_suits_offer_three_ca"),
    pytest.param(["CC", "9m", "8s"], set(), id="chi_chi_forms_no_ca_with_red_cards"),
    pytest.param(["CC", "CC"], {("chan", ("CC", "CC"))}, id="chi_chi_pairs_with_chi_chi"),
]


@pytest.mark.parametrize(("hand", "melds"), MELD_CASES)
def test_legal_melds(hand, melds):
    """legal_melds lists every pair the concealed cards can form under docs/rules.md#chan-pairs."""
    rs = get_ruleset(CHAN)
    o = rs.resolve_options(None)
    found = rs.legal_melds(rs.parse(o, hand), o)
    assert {(p.kind, tuple(code(c) for c in p.cards)) for p in found} == melds
