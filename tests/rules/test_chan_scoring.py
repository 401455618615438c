"""Chắn scoring and payment (docs/rules.md#chan-scoring).

Ù xuông (no bonus) = 2. Otherwise the main value of the highest bonus + the dịch of every other bonus (equal
mains: the higher dịch is main); with Thập thành, the main values of every bonus added instead. Several Tôm or
Lèo sets each count, no card serving twice. Each of the three losers pays the score; the winner gets 3x.

bonus (main/dịch): Ù chì 3/1, Thiên ù 3/1, Tôm 4/1, Bạch thủ 4/1, Lèo 5/2, Thiên khai 5/2, Chíu ù 5/2, Bòn 5/2,
Bạch định 7/4, Tám đỏ 8/5, Kính tứ chi 12/9, Thập thành 12/9. Red cards: 8m 9m 8s 9s CC.
Each case shows its arithmetic; every hand is 20 cards with the winning card taken out of the hand.
"""

from __future__ import annotations

import pytest

from service.rules.errors import DomainError, NotAWin
from service.rules.registry import get_ruleset

CHAN = "cardavia-chan"
SEED, TRADITIONAL = {"tom_set": "3m-3c-7c"}, {"tom_set": "3m-3s-7c"}

# Chắn 2m 4s 5c 6m 7s 8m + Cạ 2s-2c 4m-4c 5m-5s 9s-9c; red 8m 8m 9s = 3; no Tôm, no Lèo
PLAIN = "2m 2m 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m  2s 2c 4m 4c 5m 5s 9s 9c"
# 7 Chắn (+ 9s-9s) + 3 Cạ; red 4
SEVEN = "2m 2m 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 9s 9s  2s 2c 4m 4c 5m 5s"
# Chắn 2m 4s 5c 6m 7c 8m + Cạ 3m-3c 2s-2c 4m-4c 9s-9c: one seed Tôm (3m 3c 7c), no traditional one (no 3s)
TOM = "2m 2m 4s 4s 5c 5c 6m 6m 7c 7c 8m 8m  3m 3c 2s 2c 4m 4c 9s 9c"
# the same with Cạ 3m-3s: one traditional Tôm (3m 3s 7c), no seed one (no 3c)
TOM_TRADITIONAL = TOM.replace("3c", "3s")
# Chắn 3m 3c 7c 4s 5c 6m + Cạ 2s-2c 4m-4c 8m-8c 9s-9c: two seed Tôm sets
TWO_TOM = "3m 3m 3c 3c 7c 7c 4s 4s 5c 5c 6m 6m  2s 2c 4m 4c 8m 8c 9s 9c"
# 3m 3m, 3c, 7c 7c: one seed Tôm (3c serves once); 3m 3m, 3s, 7c 7c: one traditional Tôm
ONE_TOM_SPARE = "3m 3m 7c 7c 4s 4s 5c 5c 6m 6m 8m 8m  3c 3s 2s 2c 4m 4c 9s 9c"
# Chắn 2m 4s 5c 6m 7s CC + Cạ 8s-8c 9m-9c 4m-4c 2s-2c: one Lèo (CC CC but one 8s, one 9m); red 4
LEO = "2m 2m 4s 4s 5c 5c 6m 6m 7s 7s CC CC  8s 8c 9m 9c 4m 4c 2s 2c"
# Chắn 8s 9m CC 2m 4s 5c + Cạ 2s-2c 4m-4c 6m-6c 7s-7c: two Lèo; red 6
TWO_LEO = "8s 8s 9m 9m CC CC 2m 2m 4s 4s 5c 5c  2s 2c 4m 4c 6m 6c 7s 7c"
# Chắn 2m 4s 5c 6m 7c CC + Cạ 3m-3c 8s-8c 9m-9c 2s-2c: one Lèo and one seed Tôm; red 4
LEO_TOM = "2m 2m 4s 4s 5c 5c 6m 6m 7c 7c CC CC  3m 3c 8s 8c 9m 9c 2s 2c"
# Chíu 6m (2 Chắn) + Chắn 2m 4s 5c 7s + Cạ 2s-2c 4m-4c 5m-5s 9s-9c = 6 Chắn; red 1 (9s)
CHIU_SIX = "6m 6m 6m 6m 2m 2m 4s 4s 5c 5c 7s 7s  2s 2c 4m 4c 5m 5s 9s 9c"
# Chíu 6m + Chắn 2m 4s 5c 7s 8m = 7 Chắn + Cạ 2s-2c 4m-4c 9s-9c; red 3
CHIU_SEVEN = "6m 6m 6m 6m 2m 2m 4s 4s 5c 5c 7s 7s 8m 8m  2s 2c 4m 4c 9s 9c"
# Chíu CC + Chắn 2m 4s 5c 7s + Cạ 8s-8c 9m-9c 2s-2c 4m-4c: one Lèo; red CC x4 + 8s + 9m = 6
CHIU_LEO = "CC CC CC CC 2m 2m 4s 4s 5c 5c 7s 7s  8s 8c 9m 9c 2s 2c 4m 4c"
# no red card: Chắn 2m 3s 4c 5m 6s 7m + Cạ 2s-2c 4m-4s 5s-5c 6m-6c
BLACK = "2m 2m 3s 3s 4c 4c 5m 5m 6s 6s 7m 7m  2s 2c 4m 4s 5s 5c 6m 6c"
# eight red (8m 8s 9m 9s, two each), no CC so no Lèo: Chắn 8m 8s 9m 9s 2m 4s + Cạ 2s-2c 4m-4c 5m-5s 6m-6c
EIGHT_RED = "8m 8m 8s 8s 9m 9m 9s 9s 2m 2m 4s 4s  2s 2c 4m 4c 5m 5s 6m 6c"
# eight red with two Lèo: Chắn CC 8s 9m 2m 4s 5c + Cạ 8m-8c 9s-9c 2s-2c 4m-4c; red 2 + 2 + 2 + 1 + 1 = 8
EIGHT_RED_TWO_LEO = "CC CC 8s 8s 9m 9m 2m 2m 4s 4s 5c 5c  8m 8c 9s 9c 2s 2c 4m 4c"
# four Chi chi (Chíu, 2 Chắn), every other card black: Chắn 2m 4s 5c 6m + Cạ 2s-2c 4m-4c 5m-5s 7s-7c
KINH = "CC CC CC CC 2m 2m 4s 4s 5c 5c 6m 6m  2s 2c 4m 4c 5m 5s 7s 7c"
# ten Chắn; red 8m 8m = 2
TEN = "2m 2m 2s 2s 4c 4c 5m 5m 6s 6s 7m 7m 4m 4m 5s 5s 6c 6c 8m 8m"
# ten Chắn, no red card
TEN_BLACK = "2m 2m 2s 2s 3s 3s 4c 4c 5m 5m 6s 6s 7m 7m 4m 4m 5s 5s 6c 6c"
# ten Chắn: Chíu CC + 8 black Chắn
TEN_KINH = "CC CC CC CC 2m 2m 2s 2s 4c 4c 5m 5m 6s 6s 7m 7m 4m 4m 5s 5s"
# ten Chắn with two seed Tôm (3m 3c 7c twice); red 2
TEN_TWO_TOM = "3m 3m 3c 3c 7c 7c 2m 2m 2s 2s 4c 4c 5m 5m 6s 6s 7m 7m 8m 8m"
# ten Chắn with two Lèo and eight red (8s 9m CC 8m, two each)
TEN_TWO_LEO = "8s 8s 9m 9m CC CC 8m 8m 2m 2m 2s 2s 4c 4c 5m 5m 6s 6s 7m 7m"

OWN_GATE, HEAVENLY = {"own_gate": True}, {"heavenly": True}
CHIU_U = {"by_chiu": True, "chiu_on_dealt_triple": True}


def deal(text, win=None):
    """The hand of a 20-card text with one copy of `win` taken out (it becomes the public card)."""
    cards = text.split()
    if win is not None:
        cards.remove(win)
    return cards


def settle(text, win, context=None, options=None, winner=0, seats=4, exposed=()):
    """Parse and settle a win."""
    rs = get_ruleset(CHAN)
    o = rs.resolve_options(options)
    hand = deal(text, win)
    for pair in exposed:
        for card in pair["cards"]:
            hand.remove(card)
    return rs.settle(rs.parse(o, hand, list(exposed), win), o, seats=seats, winner=winner, context=context)


# (20 cards, winning card or None for the dealer's 20, context, options, score, bonuses)
BONUS_CASES = [
    # --- each bonus alone ---
    # no bonus: Ù xuông = 2
    pytest.param(PLAIN, "9c", None, None, 2, [], id="u_xuong_no_bonus_scores_2"),
    # Ù chì main 3
    pytest.param(PLAIN, "9c", OWN_GATE, None, 3, ["u_chi"], id="u_chi_win_at_own_gate"),
    # Thiên ù main 3 (no winning card, so no Bạch thủ despite exactly 6 Chắn)
    pytest.param(PLAIN, None, HEAVENLY, None, 3, ["thien_u"], id="thien_u_dealer_initial_twenty"),
    # Tôm main 4: 3m 3c 7c
    pytest.param(TOM, "9c", None, None, 4, ["tom"], id="tom_seed_set"),
    pytest.param(TOM, "9c", None, TRADITIONAL, 2, [], id="tom_seed_set_is_not_traditional"),
    pytest.param(TOM_TRADITIONAL, "9c", None, TRADITIONAL, 4, ["tom"], id="tom_traditional_option"),
    pytest.param(TOM_TRADITIONAL, "9c", None, SEED, 2, [], id="tom_traditional_set_is_not_the_seed_set"),
    # 3m 3m 3c 7c 7c: one set, 3c cannot serve twice: 4
    pytest.param(ONE_TOM_SPARE, "9c", None, SEED, 4, ["tom"], id="tom_card_not_reused_seed_set"),
    pytest.param(ONE_TOM_SPARE, "9c", None, TRADITIONAL, 4, ["tom"], id="tom_card_not_reused_traditional_set"),
    # Bạch thủ main 4: 7s completes Chắn 7s-7s, exactly 6 Chắn, no Cạ at 7
    pytest.param(PLAIN, "7s", None, None, 4, ["bach_thu"], id="bach_thu_winning_card_forms_chan"),
    # 5c completes Chắn 5c-5c but Cạ 5m-5s sits at 5: no Bạch thủ, 2
    pytest.param(PLAIN, "5c", None, None, 2, [], id="bach_thu_needs_no_ca_at_winning_value"),
    # 7s completes a Chắn but there are 7 Chắn: 2
    pytest.param(SEVEN, "7s", None, None, 2, [], id="bach_thu_needs_exactly_six_chan"),
    # a Cạ winning card is no Bạch thủ: 2 (PLAIN won on 9c above)
    # Lèo main 5: 8s 9m CC (CC CC, but one 8s and one 9m: one set)
    pytest.param(LEO, "2c", None, None, 5, ["leo"], id="leo_one_set"),
    # Thiên khai main 5
    pytest.param(CHIU_SIX, "9c", {"dealt_quad": True}, None, 5, ["thien_khai"], id="thien_khai_dealt_four_identical"),
    # Chíu ù main 5: the winning 6m completes a dealt triple by Chíu (7 Chắn, so no Bạch thủ)
    pytest.param(CHIU_SEVEN, "6m", CHIU_U, None, 5, ["chiu_u"], id="chiu_u_win_by_chiu_on_dealt_triple"),
    # by Chíu alone is no bonus: 2
    pytest.param(CHIU_SEVEN, "6m", {"by_chiu": True}, None, 2, [], id="by_chiu_alone_is_no_bonus"),
    # Bòn main 5
    pytest.param(CHIU_SIX, "9c", {"dealt_pair_became_quad": True}, None, 5, ["bon"], id="bon_dealt_pair_became_four"),
    # Bạch định main 7: no red card
    pytest.param(BLACK, "6c", None, None, 7, ["bach_dinh"], id="bach_dinh_no_red_card"),
    # Tám đỏ main 8: exactly 8 red
    pytest.param(EIGHT_RED, "6c", None, None, 8, ["tam_do"], id="tam_do_exactly_eight_red"),
    # Kính tứ chi main 12: four CC, all else black
    pytest.param(KINH, "7c", None, None, 12, ["kinh_tu_chi"], id="kinh_tu_chi_four_chi_chi_rest_black"),
    # four CC but a red 9s: red 5, no Kính tứ chi: 2
    pytest.param(KINH.replace("7s 7c", "9s 9c"), "9c", None, None, 2, [], id="kinh_tu_chi_needs_every_other_black"),
    # Thập thành main 12: ten Chắn
    pytest.param(TEN, "8m", None, None, 12, ["thap_thanh"], id="thap_thanh_ten_chan"),
    # --- combinations: highest main + dịch of the others ---
    # the seed's example: Tôm main 4 + Ù chì dịch 1 = 5
    pytest.param(TOM, "9c", OWN_GATE, None, 5, ["u_chi", "tom"], id="seed_example_u_chi_and_one_tom_is_5"),
    # two Tôm: 4 + 1 = 5
    pytest.param(TWO_TOM, "9c", None, None, 5, ["tom", "tom"], id="two_tom_sets_each_count"),
    pytest.param(TWO_TOM, "9c", None, TRADITIONAL, 2, [], id="two_seed_tom_sets_no_traditional_one"),
    # two Lèo: 5 + 2 = 7
    pytest.param(TWO_LEO, "7c", None, None, 7, ["leo", "leo"], id="two_leo_sets_each_count"),
    # Bạch thủ main 4 + Ù chì dịch 1 = 5
    pytest.param(PLAIN, "7s", OWN_GATE, None, 5, ["u_chi", "bach_thu"], id="u_chi_and_bach_thu"),
    # equal mains (Tôm 4/1, Bạch thủ 4/1): 4 + 1 = 5; 5c makes Chắn 5c-5c with no Cạ at 5
    pytest.param(TOM, "5c", None, None, 5, ["tom", "bach_thu"], id="equal_mains_tom_and_bach_thu"),
    # 4 + 1 + 1 = 6
    pytest.param(TOM, "5c", OWN_GATE, None, 6, ["u_chi", "tom", "bach_thu"], id="tom_bach_thu_and_u_chi"),
    # Lèo main 5 + Tôm dịch 1 + Ù chì dịch 1 = 7
    pytest.param(LEO_TOM, "2c", OWN_GATE, None, 7, ["u_chi", "tom", "leo"], id="leo_tom_and_u_chi"),
    # equal mains (Lèo 5/2, Thiên khai 5/2): 5 + 2 = 7
    pytest.param(CHIU_LEO, "4c", {"dealt_quad": True}, None, 7, ["thien_khai", "leo"],
                 id="equal_mains_leo_and_thien_khai"),
    # Bòn main 5 + Ù chì dịch 1 = 6
    pytest.param(CHIU_SIX, "9c", {"own_gate": True, "dealt_pair_became_quad": True}, None, 6, ["u_chi", "bon"],
                 id="bon_and_u_chi"),
    # the winning 6m makes Chíu 6m (two Chắn): exactly 6 Chắn, no Cạ at 6, so Bạch thủ too: 5 + 1 = 6
    pytest.param(CHIU_SIX, "6m", CHIU_U, None, 6, ["chiu_u", "bach_thu"], id="chiu_u_and_bach_thu"),
    # Bạch định main 7 + Thiên ù dịch 1 = 8
    pytest.param(BLACK, None, HEAVENLY, None, 8, ["thien_u", "bach_dinh"], id="thien_u_and_bach_dinh"),
    # Tám đỏ main 8 + Lèo dịch 2 + Lèo dịch 2 = 12
    pytest.param(EIGHT_RED_TWO_LEO, "4c", None, None, 12, ["leo", "leo", "tam_do"], id="tam_do_and_two_leo"),
    # Kính tứ chi main 12 + Thiên khai dịch 2 = 14; + Ù chì dịch 1 = 15
    pytest.param(KINH, "7c", {"dealt_quad": True}, None, 14, ["thien_khai", "kinh_tu_chi"],
                 id="kinh_tu_chi_and_thien_khai"),
    pytest.param(KINH, "7c", {"dealt_quad": True, "own_gate": True}, None, 15, ["u_chi", "thien_khai", "kinh_tu_chi"],
                 id="kinh_tu_chi_thien_khai_and_u_chi"),
    # --- Thập thành: the main values added ---
    # 12 + Ù chì 3 = 15
    pytest.param(TEN, "8m", OWN_GATE, None, 15, ["u_chi", "thap_thanh"], id="thap_thanh_adds_u_chi_main"),
    # 12 + Thiên ù 3 = 15
    pytest.param(TEN, None, HEAVENLY, None, 15, ["thien_u", "thap_thanh"], id="thap_thanh_adds_thien_u_main"),
    # 12 + Bạch định 7 + Ù chì 3 = 22
    pytest.param(TEN_BLACK, "6c", OWN_GATE, None, 22, ["u_chi", "bach_dinh", "thap_thanh"],
                 id="thap_thanh_adds_bach_dinh_and_u_chi_mains"),
    # 12 + Kính tứ chi 12 = 24; + Thiên khai 5 = 29
    pytest.param(TEN_KINH, "7m", None, None, 24, ["kinh_tu_chi", "thap_thanh"], id="thap_thanh_and_kinh_tu_chi"),
    pytest.param(TEN_KINH, "7m", {"dealt_quad": True}, None, 29, ["thien_khai", "kinh_tu_chi", "thap_thanh"],
                 id="thap_thanh_kinh_tu_chi_and_thien_khai"),
    # 12 + Tôm 4 + Tôm 4 = 20; traditional set (no 3s): 12
    pytest.param(TEN_TWO_TOM, "8m", None, None, 20, ["tom", "tom", "thap_thanh"], id="thap_thanh_adds_each_tom_main"),
    pytest.param(TEN_TWO_TOM, "8m", None, TRADITIONAL, 12, ["thap_thanh"], id="thap_thanh_traditional_no_tom"),
    # 12 + Lèo 5 + Lèo 5 + Tám đỏ 8 = 30
    pytest.param(TEN_TWO_LEO, "7m", None, None, 30, ["leo", "leo", "tam_do", "thap_thanh"],
                 id="thap_thanh_two_leo_and_tam_do"),
]


@pytest.mark.parametrize(("cards", "win", "context", "options", "points", "bonuses"), BONUS_CASES)
def test_bonuses(cards, win, context, options, points, bonuses):
    """Score = highest main + dịch of the others (Thập thành: every main); Ù xuông = 2."""
    result = settle(cards, win, context, options)
    assert result.points == points
    assert sorted(result.bonuses) == sorted(bonuses)
    assert result.deltas == (3 * points, -points, -points, -points)


def ex(kind, *cards):
    """An exposed pair."""
    return {"kind": kind, "cards": list(cards)}


# (20 cards, winning card, exposed pairs, score, bonuses)
EXPOSED_CASES = [
    # Tôm counted over exposed Cạ 3m-3c + 7c 7c in hand: 4
    pytest.param(TOM, "9c", [ex("ca", "3m", "3c")], 4, ["tom"], id="tom_counts_exposed_cards"),
    # Lèo over exposed Chắn CC + exposed Cạ 8s-8c, 9m in hand: 5
    pytest.param(LEO, "2c", [ex("chan", "CC", "CC"), ex("ca", "8s", "8c")], 5, ["leo"], id="leo_counts_exposed_cards"),
    # exposed Chíu 6m: 6 Chắn (2 + 4), Thiên khai is a context flag, none given: the 9c Cạ win is Ù xuông 2
    pytest.param(CHIU_SIX, "9c", [ex("chiu", "6m", "6m", "6m", "6m")], 2, [], id="exposed_chiu_alone_is_no_bonus"),
    # ten Chắn, two exposed: 12
    pytest.param(TEN, "8m", [ex("chan", "2m", "2m"), ex("chan", "4c", "4c")], 12, ["thap_thanh"],
                 id="thap_thanh_with_exposed_chan"),
    # eight red over exposed Chắn 8m and 9s: 8
    pytest.param(EIGHT_RED, "6c", [ex("chan", "8m", "8m"), ex("chan", "9s", "9s")], 8, ["tam_do"],
                 id="tam_do_counts_exposed_red_cards"),
    # Bạch thủ: 7s forms a Chắn; exposed Chắn 2m + 5 concealed = exactly 6 Chắn: 4
    pytest.param(PLAIN, "7s", [ex("chan", "2m", "2m"), ex("ca", "4m", "4c")], 4, ["bach_thu"],
                 id="bach_thu_counts_exposed_chan"),
    # an exposed Cạ 5m-5s sits at the winning value 5: no Bạch thủ, 2
    pytest.param(PLAIN, "5c", [ex("ca", "5m", "5s")], 2, [], id="bach_thu_refused_by_exposed_ca_at_winning_value"),
]


@pytest.mark.parametrize(("cards", "win", "exposed", "points", "bonuses"), EXPOSED_CASES)
def test_bonuses_count_exposed_pairs(cards, win, exposed, points, bonuses):
    """Bonuses read every one of the 20 cards: hand, exposed pairs and the winning card."""
    result = settle(cards, win, exposed=exposed)
    assert (result.points, sorted(result.bonuses)) == (points, sorted(bonuses))


def test_breakdown_names_main_and_dich():
    """Lèo counts its main 5; Tôm and Ù chì their dịch 1 each: total 7."""
    result = settle(LEO_TOM, "2c", OWN_GATE)
    lines = {line.step: line.points for line in result.breakdown if line.step in ("leo", "tom", "u_chi", "total")}
    assert lines == {"leo": 5, "tom": 1, "u_chi": 1, "total": 7}


def test_thap_thanh_breakdown_adds_mains():
    """Thập thành: 12 + Ù chì main 3 (not its dịch 1) = 15."""
    result = settle(TEN, "8m", OWN_GATE)
    lines = {line.step: line.points for line in result.breakdown if line.step in ("u_chi", "thap_thanh", "total")}
    assert lines == {"u_chi": 3, "thap_thanh": 12, "total": 15}


def test_u_xuong_breakdown():
    """A win with no bonus scores Ù xuông 2."""
    result = settle(PLAIN, "9c")
    assert [(line.step, line.points) for line in result.breakdown][:2] == [("u_xuong", 2), ("total", 2)]


# (20 cards, winning card, context, winner, deltas by seat)
PAYMENT_CASES = [
    # 2: each loser pays 2, the winner gets 3 x 2 = 6
    pytest.param(PLAIN, "9c", None, 0, (6, -2, -2, -2), id="u_xuong_each_loser_pays_2"),
    pytest.param(PLAIN, "9c", None, 3, (-2, -2, -2, 6), id="winner_in_last_seat"),
    # the seed's example, 5: each pays 5, the winner gets 15
    pytest.param(TOM, "9c", OWN_GATE, 1, (-5, 15, -5, -5), id="each_of_three_losers_pays_the_score"),
    # Thập thành + Kính tứ chi 24: each pays 24, the winner gets 72
    pytest.param(TEN_KINH, "7m", None, 2, (-24, -24, 72, -24), id="large_score_paid_by_each_loser"),
]


@pytest.mark.parametrize(("cards", "win", "context", "winner", "deltas"), PAYMENT_CASES)
def test_payment(cards, win, context, winner, deltas):
    """Each of the three losers pays the score; the winner receives three times it; deltas sum to zero."""
    result = settle(cards, win, context, winner=winner)
    assert result.deltas == deltas
    assert sum(result.deltas) == 0


# (20 cards, winning card, context, seats, winner, error code, field)
BAD_SETTLEMENTS = [
    # 5 Chắn + 5 Cạ is no win
    pytest.param("2m 2m 4s 4s 5c 5c 6m 6m 7s 7s 8m 8s 2s 2c 4m 4c 5m 5s 9s 9c", "9c", None, 4, 0, "not_a_win", "hand",
                 id="settling_a_non_win_is_refused"),
    # 3c in place of 9c: 9s and 3c pair with nothing
    pytest.param(PLAIN.replace("9c", "3c"), "3c", None, 4, 0, "not_a_win", "hand",
                 id="settling_unpaired_cards_is_refused"),
    pytest.param(PLAIN, "9c", None, 3, 0, "invalid_seat", "seats", id="chan_needs_four_seats_not_three"),
    pytest.param(PLAIN, "9c", None, 5, 0, "invalid_seat", "seats", id="chan_needs_four_seats_not_five"),
    pytest.param(PLAIN, "9c", None, 4, 4, "invalid_seat", "winner", id="winner_is_a_seat_index"),
    pytest.param(PLAIN, "9c", None, 4, -1, "invalid_seat", "winner", id="winner_not_negative"),
    pytest.param(PLAIN, "9c", {"tom": True}, 4, 0, "unknown_context", "context.tom", id="unknown_context_flag"),
    pytest.param(PLAIN, "9c", {"own_gate": 1}, 4, 0, "unknown_context", "context.own_gate",
                 id="context_flags_are_booleans"),
    pytest.param(PLAIN, "9c", HEAVENLY, 4, 0, "inconsistent_context", "context.heavenly",
                 id="thien_u_has_no_winning_card"),
    pytest.param(PLAIN, None, {"heavenly": True, "own_gate": True}, 4, 0, "inconsistent_context", "context.own_gate",
                 id="thien_u_is_not_a_stock_win"),
    pytest.param(CHIU_SEVEN, "6m", {"chiu_on_dealt_triple": True}, 4, 0, "inconsistent_context",
                 "context.chiu_on_dealt_triple", id="chiu_u_is_a_win_by_chiu"),
    # the flags' conditions must show in the cards (docs/rules.md#chan-scoring table)
    pytest.param(PLAIN, None, OWN_GATE, 4, 0, "inconsistent_context", "context.own_gate",
                 id="u_chi_needs_the_turned_up_card"),
    pytest.param(PLAIN, "9c", {"by_chiu": True}, 4, 0, "inconsistent_context", "context.by_chiu",
                 id="by_chiu_needs_a_triple_of_the_winning_card"),
    pytest.param(CHIU_SEVEN, "9c", CHIU_U, 4, 0, "inconsistent_context", "context.by_chiu",
                 id="chiu_u_winning_card_must_be_the_fourth"),
    pytest.param(PLAIN, "9c", {"dealt_quad": True}, 4, 0, "inconsistent_context", "context.dealt_quad",
                 id="thien_khai_needs_four_identical_cards"),
    pytest.param(PLAIN, "9c", {"dealt_pair_became_quad": True}, 4, 0, "inconsistent_context",
                 "context.dealt_pair_became_quad", id="bon_needs_four_identical_cards"),
]


@pytest.mark.parametrize(("cards", "win", "context", "seats", "winner", "code_", "field"), BAD_SETTLEMENTS)
def test_bad_settlements(cards, win, context, seats, winner, code_, field):
    """Settling a non-win raises NotAWin; Chắn is played by exactly 4; context flags are known booleans."""
    with pytest.raises(DomainError) as err:
        settle(cards, win, context, seats=seats, winner=winner)
    assert (err.value.code, err.value.field) == (code_, field)


def test_non_win_raises_not_a_win():
    """The refusal is the NotAWin domain error."""
    with pytest.raises(NotAWin):
        settle(PLAIN.replace("9c", "3c"), "3c")
