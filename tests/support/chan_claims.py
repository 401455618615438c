"""Chắn hands and the claims the rules give on a public card (docs/rules.md#chan-captures,
docs/rules.md#chan-win-stock): the cases the rules tests (tests/rules/test_chan_captures.py) check against the engine
and the API tests (tests/api/test_hu_claim_question.py) ask of POST /v1/hu. Each claim is (kind, exposed pair,
priority class, priority, discards allowed after it, by_chiu)."""

from __future__ import annotations

import pytest

# 6 Chắn (2m 4s 5c 6m 7s 8m) + Cạ 2s-2c 4m-4c 5m-5s + 9s waiting for a 9 of another suit: 19 cards
WAITING = "2m 2m 4s 4s 5c 5c 6m 6m 7s 7s 8m 8m 2s 2c 4m 4c 5m 5s 9s".split()
# triple 6m waiting for the fourth (Chíu = 2 Chắn) + Chắn 2m 4s 5c 7s + Cạ 2s-2c 4m-4c 5m-5s 9s-9c: 19 cards
CHIU_WAITING = "6m 6m 6m 2m 2m 4s 4s 5c 5c 7s 7s 2s 2c 4m 4c 5m 5s 9s 9c".split()
CHIU_ODD = ("2s", "2c", "4m", "4c", "5m", "5s", "9s", "9c")  # the odd cards CHIU_WAITING may discard


def chan(face, discards):
    """A Chắn capture of `face`."""
    return ("chan", (face, face), "capture", 1, tuple(sorted(discards)), False)


def ca(a, b, discards):
    """A Cạ capture (pair codes in deck order)."""
    return ("ca", (a, b), "capture", 1, tuple(sorted(discards)), False)


def chiu(face, discards):
    """A Chíu on `face`."""
    return ("chiu", (face,) * 4, "chiu", 2, tuple(sorted(discards)), False)


WIN_ON_STOCK = ("win", None, "win", 3, (), False)
WIN_BY_CHIU = ("win", None, "chiu", 2, (), True)


# (hand, public card, role, source, expected claims)
WIN_CASES = [
    # 9c completes Cạ 9s-9c: 6 Chắn + 4 Cạ. The Cạ capture itself is refused (rule 5: 9s is the last unpaired card)
    pytest.param(WAITING, "9c", "drawer", "stock", [WIN_ON_STOCK], id="win_on_own_stock_card"),
    pytest.param(WAITING, "9c", "next", "stock", [WIN_ON_STOCK], id="win_on_a_passed_stock_card_next_seat"),
    pytest.param(WAITING, "9c", "other", "stock", [WIN_ON_STOCK], id="any_player_wins_on_a_stock_card"),
    # the player who discarded before the draw is one of "any player": a stock card is nobody's discard
    pytest.param(WAITING, "9c", "discarder", "stock", [WIN_ON_STOCK], id="discarder_seat_wins_on_a_stock_card"),
    # an ordinary discard cannot win
    pytest.param(WAITING, "9c", "next", "discard", [], id="no_win_on_a_discard"),
    pytest.param(WAITING, "9c", "other", "discard", [], id="no_win_on_a_discard_other_seat"),
    # a card that does not complete the hand
    pytest.param(WAITING, "3c", "other", "stock", [], id="no_win_when_the_card_pairs_with_nothing"),
    # a Chíu completes a win on a discard at once (priority of a Chíu); the Chíu itself is listed too
    pytest.param(CHIU_WAITING, "6m", "other", "discard", [WIN_BY_CHIU, chiu("6m", CHIU_ODD)],
                 id="chiu_completes_a_win_on_a_discard"),
    pytest.param(CHIU_WAITING, "6m", "next", "discard",
                 [WIN_BY_CHIU, chiu("6m", CHIU_ODD), chan("6m", CHIU_ODD)], id="chiu_win_chiu_or_chan_for_next"),
    # on a stock card the same cards win as a stock win (3) over the Chíu (2) and the Chắn capture (1)
    pytest.param(CHIU_WAITING, "6m", "drawer", "stock",
                 [WIN_ON_STOCK, chiu("6m", CHIU_ODD), chan("6m", CHIU_ODD)], id="win_chiu_capture_priorities"),
    pytest.param(CHIU_WAITING, "6m", "discarder", "discard", [], id="discarder_never_claims_his_discard"),
]
