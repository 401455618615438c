"""Named rule cases of the Chắn replay on small hand-written logs, for positions simulation does not reach
reliably (docs/rules.md#chan-turn and docs/rules.md#chan-scoring). Expected points are worked out by hand from the
bonus table.

A log names the cards that matter; `deal` fills each hand with single cards of values the seat was not given
and lays out the stock as the named head + the rest of the deck.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import service.replay.chan as chan_replay
from service.replay.audit import audit
from tests.support.chan_logs import FACES, Seat, deal, legal_discards

#: Six Chắn (2m 2s 4m 4s 5m 6m) + Cạ 5s-5c 6s-6c 8m-8s: 18 cards, no Tôm, no Lèo, two red cards.
BASE = "2m 2m 2s 2s 4m 4m 4s 4s 5m 5m 6m 6m 5s 5c 6s 6c 8m 8s"
#: The dealer's 20 cards that win: BASE + Cạ 7m-7s. Thiên ù alone: 3.
HEAVEN = BASE + " 7m 7s"
#: BASE with a Tôm (3m 3c 7c) for 6s-6c, + 7m: Cạ 3m-3c, 7c-7m. Thiên ù dịch 1 + Tôm main 4 = 5.
HEAVEN_TOM = "2m 2m 2s 2s 4m 4m 4s 4s 5m 5m 6m 6m 5s 5c 8m 8s 3m 3c 7c 7m"
#: 19 cards waiting for a 7 of another suit (7s: Cạ 7m-7s, so no Bạch thủ).
WAIT_7M = BASE + " 7m"
#: 19 cards waiting for 7s in a Cạ 7c-7s.
WAIT_7C = BASE + " 7c"
#: Another 19 waiting for 7s (Cạ 7m-7s): Chắn 3s 9s 2c 4c 5s 6s + Cạ 3m-3c 9m-9c 8c-8m; four red, no Lèo.
WAIT_7M_B = "3s 3s 9s 9s 2c 2c 4c 4c 5s 5s 6s 6s 3m 3c 9m 9c 8c 8m 7m"
#: A triple 7s held since the deal + Chắn 2m 2s 4m 4s + Cạ 5s-5c 6s-6c 8m-8s 9m-9c: wins by Chíu on a 7s.
TRIPLE_7S = "7s 7s 7s 2m 2m 2s 2s 4m 4m 4s 4s 5s 5c 6s 6c 8m 8s 9m 9c"


def discard(seat: int, card: str) -> dict:
    """A discard event."""
    return {"seat": seat, "type": "discard", "card": card}


def draw(seat: int) -> dict:
    """A stock card turned up at the seat's own gate (the card is the next stock card)."""
    return {"seat": seat, "type": "draw"}


def capture(seat: int, card: str, mate: str) -> dict:
    """A capture of the public `card` with hand card `mate`."""
    return {"seat": seat, "type": "capture", "meld": "chan" if card == mate else "ca", "cards": [card, mate]}


def chiu(seat: int, card: str) -> dict:
    """A Chíu on the public card."""
    return {"seat": seat, "type": "chiu", "cards": [card] * 4}


def win(seat: int) -> dict:
    """A win on the public card (none: the dealer's Thiên ù)."""
    return {"seat": seat, "type": "win"}


def violations(log: dict) -> list[tuple[int | None, str]]:
    """(event, code) of every violation."""
    return [(v.event, v.code) for v in audit(log).violations]


def bonuses(outcome: dict) -> set[str]:
    """The bonus steps of a settlement breakdown."""
    return {line["step"] for line in outcome["breakdown"]} - {"total", "payment_rule", "payment"}


# -- Thiên ù --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("hand", "dealer", "points", "found"), [
    pytest.param(HEAVEN, 0, 3, {"thien_u"}, id="thien_u_alone_main_3"),
    pytest.param(HEAVEN, 2, 3, {"thien_u"}, id="thien_u_dealer_seat_2"),
    pytest.param(HEAVEN_TOM, 1, 5, {"thien_u", "tom"}, id="thien_u_dich_1_plus_tom_main_4"),
])
def test_thien_u_is_a_win_with_no_card(hand, dealer, points, found):
    """docs/rules.md#chan-heavenly: "Dealer's initial 20 cards that win: Thiên ù" (3 / 1); each loser pays the score."""
    result = audit({**deal({dealer: hand}, dealer=dealer), "events": [win(dealer)]})
    assert result.valid and result.outcome["winner"] == dealer and result.outcome["points"] == points
    assert bonuses(result.outcome) == found
    assert result.outcome["deltas"] == [3 * points if s == dealer else -points for s in range(4)]


@pytest.mark.parametrize(("hands", "events", "expected"), [
    pytest.param({0: HEAVEN.replace("7s", "9c")}, [win(0)], [(0, "false_hu")], id="dealer_cards_do_not_win"),
    pytest.param({0: HEAVEN}, [win(1)], [(0, "out_of_turn")],
                 id="no_card_win_by_a_non_dealer"),
])
def test_thien_u_needs_the_dealer_and_a_winning_deal(hands, events, expected):
    """A win with no card is only the dealer's, and only on cards that win."""
    assert violations({**deal(hands), "events": events}) == expected


# -- the dead hand ----------------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(FACES), min_size=10, max_size=10).filter(
    lambda faces: max(Counter(faces).values()) <= 2))
def test_a_dealer_without_a_legal_opening_discard_always_has_thien_u(faces):
    """docs/rules.md#chan-capture-2 rule 2 lets only an odd face go, so no legal opening discard means ten Chắn: a
    heavenly win. A dead hand therefore never arises from a real deal; the dealer declares Thiên ù (with Thập thành)."""
    hand = " ".join(f for f in faces for _ in range(2))
    assert legal_discards(Seat(Counter(hand.split()))) == []
    result = audit({**deal({0: hand}), "events": [win(0)]})
    assert result.valid and {"thien_u", "thap_thanh"} <= bonuses(result.outcome)


#: 20 cards that do not win (7m, 9c unpaired); declared dead below by the patch.
DEAD = HEAVEN.replace("7s", "9c")
DEAD_CASES = [
    pytest.param([draw(0), draw(1), draw(2), draw(3), draw(0)], [], id="dead_dealer_only_draws"),
    pytest.param([discard(0, "9c")], [(0, "out_of_turn")], id="dead_dealer_cannot_open_with_a_discard"),
    pytest.param([draw(0), capture(0, "9c", "9c"), draw(1)], [(1, "dead_hand_move")],
                 id="dead_dealer_captures_his_stock_card"),
    pytest.param([draw(0), win(0), draw(1)], [(1, "dead_hand_move")], id="dead_dealer_claims_a_win"),
    pytest.param([draw(0), draw(1), draw(2), capture(3, "3s", "3s"), discard(3, "7m"), capture(0, "7m", "7m"),
                  draw(0)], [(5, "dead_hand_move")], id="dead_dealer_captures_a_discard_then_draws"),
]


@pytest.mark.parametrize(("events", "expected"), DEAD_CASES)
def test_dead_hand_only_draws(monkeypatch, events, expected):
    """docs/rules.md#chan-dead-hand: "A dealer with neither a legal opening discard nor a heavenly win has a dead hand:
    he only draws and can neither capture nor win." No real deal is dead (see above), so the opening check is patched to
    find no legal discard for a dealer whose cards do not win."""
    monkeypatch.setattr(chan_replay, "legal_discards", lambda counts, history: [])
    log = deal({0: DEAD, 3: "3s 7m"}, stock="9c 9s 3s")
    assert violations({**log, "events": events}) == expected


# -- an out-of-turn Chíu ----------------------------------------------------------------------------------------
#: Dealer 0 discards 7s; seat 2 (out of turn: seat 1 is to act) Chíus it and discards 9c.
CHIU_HANDS = {0: "7s", 1: "9c 2m", 2: "7s 7s 7s 9c", 3: "9c"}
CHIU_OPENING = [discard(0, "7s"), chiu(2, "7s"), discard(2, "9c")]
#: Seat 1 turns up 7s; seat 3 Chíus it and discards 9c.
STOCK_CHIU = [discard(0, "2c"), draw(1), chiu(3, "7s"), discard(3, "9c")]


@pytest.mark.parametrize(("hands", "stock", "events", "expected"), [
    pytest.param(CHIU_HANDS, "", CHIU_OPENING + [capture(1, "9c", "9c"), discard(1, "2m"), draw(2)], [],
                 id="interrupted_seat_captures_the_replacement_discard"),
    pytest.param(CHIU_HANDS, "", CHIU_OPENING + [draw(1)], [], id="interrupted_seat_draws"),
    pytest.param(CHIU_HANDS, "", CHIU_OPENING + [draw(3)], [(3, "draw_out_of_order")],
                 id="chiu_players_next_seat_draws_out_of_order"),
    pytest.param(CHIU_HANDS, "", CHIU_OPENING + [capture(3, "9c", "9c"), draw(1)], [(3, "ineligible_claim")],
                 id="chiu_players_next_seat_cannot_capture"),
    pytest.param({0: "2c", 3: "7s 7s 7s 9c"}, "7s", STOCK_CHIU + [draw(1)], [],
                 id="stock_card_chiu_goes_back_to_the_gate_owner"),
    pytest.param({0: "2c", 3: "7s 7s 7s 9c"}, "7s", STOCK_CHIU + [draw(0)], [(4, "draw_out_of_order")],
                 id="stock_card_chiu_then_chiu_players_next_seat_draws"),
])
def test_out_of_turn_chiu_discard_goes_back_to_the_interrupted_gate(hands, stock, events, expected):
    """docs/rules.md#chan-chiu: "An out-of-turn Chíu sends that replacement discard back to the interrupted gate, whose
    player resumes capture or draw; play does not jump to the claimant's next seat." """
    assert violations({**deal(hands, stock), "events": events}) == expected


# -- resolution order -------------------------------------------------------------------------------------------
#: Seat 1 turns up 7s: he may capture it with 7m (Cạ), seat 3 holds three 7s, seat 2 wins with it.
CONTEST = {0: "9s", 1: "7m 2c", 2: WAIT_7C, 3: "7s 7s 7s 9c"}
CONTEST_OPENING = [discard(0, "9s"), draw(1)]


@pytest.mark.parametrize(("hands", "events", "winner", "expected"), [
    pytest.param(CONTEST, CONTEST_OPENING + [capture(1, "7s", "7m"), chiu(3, "7s"), win(2)], 2, [],
                 id="win_beats_chiu_beats_capture"),
    pytest.param(CONTEST, CONTEST_OPENING + [capture(1, "7s", "7m"), chiu(3, "7s"), discard(3, "9c"), draw(1)],
                 None, [], id="chiu_beats_capture_and_play_returns_to_the_gate"),
    pytest.param(CONTEST, CONTEST_OPENING + [chiu(3, "7s"), capture(1, "7s", "7m"), discard(1, "2c")], None,
                 [(4, "lower_priority_claim")], id="capture_that_lost_to_chiu_cannot_discard"),
    pytest.param({0: WAIT_7M_B + " CC", 3: WAIT_7C}, [discard(0, "CC"), draw(1), win(0), win(3)], 3, [],
                 id="equal_wins_in_seat_order_from_the_gate_not_from_seat_0"),
    pytest.param({0: "9s", 1: "7m 2c", 2: "7c 2s"}, CONTEST_OPENING + [capture(2, "7s", "7c"),
                                                                     capture(1, "7s", "7m"), discard(1, "2c")],
                 None, [], id="equal_captures_gate_owner_first"),
    pytest.param({0: "9s", 1: "7m 2c", 2: "7c 2s"}, CONTEST_OPENING + [capture(2, "7s", "7c"),
                                                                     capture(1, "7s", "7m"), discard(2, "2s")],
                 None, [(4, "lower_priority_claim")], id="next_players_capture_loses_to_gate_owner"),
])
def test_resolution_order_win_chiu_capture_then_seats_from_the_gate(hands, events, winner, expected):
    """docs/rules.md#chan-priority: "a win on a turned-up stock card, then Chíu, then normal captures; equal claims
    follow seat order starting at the gate where the card lies" (the claims' order in the log does not matter)."""
    result = audit({**deal(hands, "7s"), "events": events})
    assert [(v.event, v.code) for v in result.violations] == expected
    assert result.outcome.get("winner") == winner


def test_win_by_chiu_on_a_discard_beats_the_next_players_capture():
    """docs/rules.md#chan-chiu-win-rank: "a Chíu may complete a win at once"; Chíu ù (main 5) on a triple held since
    the deal, and Bạch thủ (dịch 1: six Chắn, the winning card in a Chíu, no Cạ at 7)."""
    log = deal({0: "7s", 1: "7m 2c", 3: TRIPLE_7S})
    result = audit({**log, "events": [discard(0, "7s"), capture(1, "7s", "7m"), win(3)]})
    assert result.valid and result.outcome["winner"] == 3 and result.outcome["points"] == 6
    assert bonuses(result.outcome) == {"chiu_u", "bach_thu"}


# -- Ù chì ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("hand", "card", "stock", "points", "found"), [
    pytest.param(WAIT_7M, "7s", "7s", 3, {"u_chi"}, id="u_chi_own_gate_main_3"),
    pytest.param(WAIT_7M, "7s", "9s 7s", 2, {"u_xuong"}, id="same_win_at_the_next_gate_u_xuong_2"),
    pytest.param(HEAVEN_TOM.replace("7c ", ""), "7c", "7c", 5, {"u_chi", "tom"}, id="u_chi_dich_1_plus_tom_main_4"),
    pytest.param(HEAVEN_TOM.replace("7c ", ""), "7c", "9s 7c", 4, {"tom"}, id="tom_alone_at_the_next_gate"),
])
def test_u_chi_on_the_card_turned_up_at_ones_own_gate(hand, card, stock, points, found):
    """docs/rules.md#chan-bonuses: Ù chì (3 / 1) is a win on the stock card turned up at one's own gate; the example "Ù
    chì + one Tôm = 4 + 1 = 5"."""
    draws = [draw(1)] if stock == card else [draw(1), draw(2)]
    result = audit({**deal({0: "2c", 1: hand}, stock), "events": [discard(0, "2c"), *draws, win(1)]})
    assert result.valid and result.outcome["winner"] == 1 and result.outcome["points"] == points
    assert bonuses(result.outcome) == found
    assert result.outcome["deltas"] == [-points, 3 * points, -points, -points]


# -- rule 3 on a stock card the next player takes ---------------------------------------------------------------
#: Seat 1 holds one 5c and turns up 5c (an identical capture he passes up); seat 2 takes it in a Cạ with 5m.
#: Seat 3 then turns up 2c, seat 0 turns up 9m, and seat 1 captures it as the next player and discards.
PASSED = {0: "2m", 1: "5c 9m 3s", 2: "5m 2s"}
PASSED_EVENTS = [discard(0, "2m"), draw(1), capture(2, "5c", "5m"), discard(2, "2s"), draw(3), draw(0),
                 capture(1, "9m", "9m")]


@pytest.mark.parametrize(("last", "expected"), [
    pytest.param(discard(1, "3s"), [], id="another_face_may_go"),
    pytest.param(discard(1, "5c"), [(7, "chan_capture_rule_3")], id="passed_up_face_may_not_go"),
])
def test_drawer_passes_the_card_the_next_player_takes(last, expected):
    """docs/rules.md#chan-turn: "The next player may then capture that passed card"; rule 3: passing up an available
    identical capture forbids that player from later discarding that face."""
    assert violations({**deal(PASSED, "5c 2c 9m"), "events": [*PASSED_EVENTS, last]}) == expected


# -- an illegal log still audits --------------------------------------------------------------------------------
def test_win_after_breaking_a_dealt_quad_is_reported_not_refused():
    """Replay goes on after a rule-2 discard from a dealt quad; the later win is the outcome (its score, if the
    settlement refuses the facts of such a deal, left out) and the audit answers instead of failing."""
    log = deal({0: "9c", 1: "2m 2m 2m 2m 9c 2s 4m 4m 4s 4s 5m 5m 6m 6m 5s 5c 6s 6c 7m"}, "7s")
    events = [discard(0, "9c"), capture(1, "9c", "9c"), discard(1, "2m"), draw(2), win(1)]
    result = audit({**log, "events": events})
    assert [(v.event, v.code) for v in result.violations] == [(2, "chan_capture_rule_2")]
    assert result.outcome["winner"] == 1
