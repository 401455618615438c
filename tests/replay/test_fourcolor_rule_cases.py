"""Named rule cases of the Four Color Cards replay, on small hand-built logs (docs/rules.md#fc-turn and
"Settlement"). Expected points are worked out by hand from the meld table (bga-taiwan concealed values).

A log names the cards that matter; `table` deals the rest of the deck to the other places (Generals first,
so the stock holds none unless a case puts one there) and lays the stock out as head + rest + tail.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from service.replay.audit import audit
from service.rules.fourcolor.cards import ALL_CODES, CHESS_CODES, FLOWER_CODES
from tests.support.fourcolor_logs import is_flower, is_general

BGA, FLOWERS = "bga-taiwan", "cardavia-flowers"
DECK = Counter({c: 4 for c in CHESS_CODES})

#: 21 cards, all melds. Concealed: general_quad wG 6 + commands r/y/g 2+2+2 + triple rC 3 + field g 1 + pair
#: yH 0 = 16 points.
WIN21 = "wG wG wG wG rG rA rE yG yA yE gG gA gE rC rC rC gC gH gP yH yH".split()
#: Another 20 cards waiting on rA (pair rA rA): generals rG rG rG yG 4 + soldiers4 5 + triples wA, wE 3+3 +
#: field w 1 + pairs 0 = 16 points. With WIN21 less rA it stays within the deck's four copies of each card.
WAIT_RA = "rA rG rG rG yG rS yS gS wS wA wA wA wE wE wE wC wH wP yP yP".split()


def without(cards: list[str], *gone: str) -> list[str]:
    """`cards` less one copy of each of `gone`."""
    out = list(cards)
    for card in gone:
        out.remove(card)
    return out


def table(hands: dict[int, list[str]], events: list[dict], *, seats: int = 2, dealer: int = 0, head: tuple = (),
          tail: tuple = (), options: dict | None = None, ruleset: str = BGA) -> dict:
    """A log with the given (partial) hands filled up from the rest of the deck, and the stock head + rest + tail."""
    deck = DECK + Counter(FLOWER_CODES) if ruleset == FLOWERS else DECK
    rest = deck - Counter(c for h in hands.values() for c in h) - Counter(head) - Counter(tail)
    spare = sorted(rest.elements(), key=lambda c: (not is_general(c), ALL_CODES.index(c)))
    dealt = []
    for seat in range(seats):
        hand = list(hands.get(seat, ()))
        need = (20 if ruleset == FLOWERS or seat != dealer else 21) - len(hand)  # docs/rules.md#fc-deal: bga dealer 21
        dealt.append(hand + spare[:need])
        spare = spare[need:]
    return {"ruleset": ruleset, "options": options or {}, "seats": seats, "dealer": dealer, "hands": dealt,
            "stock": [*head, *spare, *tail], "events": events}


def discard(seat: int, card: str) -> dict:
    """A discard event."""
    return {"seat": seat, "type": "discard", "card": card}


def draw(seat: int) -> dict:
    """A draw event (the card is the next stock card)."""
    return {"seat": seat, "type": "draw"}


def claim(seat: int, meld: str, *cards: str) -> dict:
    """A claim event."""
    return {"seat": seat, "type": "claim", "meld": meld, "cards": list(cards)}


def hu(seat: int) -> dict:
    """A hu event."""
    return {"seat": seat, "type": "hu"}


def first(log: dict) -> tuple | None:
    """(event, code) of the first violation, or None for a legal log."""
    v = audit(log).violations
    return (v[0].event, v[0].code) if v else None


def outcome(log: dict) -> tuple:
    """(type, winner, points, deltas) of a legal log's outcome."""
    result = audit(log)
    assert result.violations == (), result.violations
    o = result.outcome
    return o["type"], o.get("winner"), o.get("points"), o.get("deltas")


# -- the dealer's heavenly hu ------------------------------------------------------------------------------------
# (dealer, lucky card, h, deltas): WIN21 is 16 points; + lucky (docs/rules.md#fc-lucky); opponent pays h - 10 + 1.
HEAVENLY = {
    "lucky_card_not_held": (0, "wA", 16, [7, -7]),
    "lucky_card_two_in_hand": (0, "yH", 18, [9, -9]),
    "lucky_card_three_in_hand": (0, "rC", 19, [10, -10]),
    "dealer_is_seat_1": (1, "wA", 16, [-7, 7]),
}


@pytest.mark.parametrize(("dealer", "lucky", "points", "deltas"), HEAVENLY.values(), ids=HEAVENLY.keys())
def test_dealer_heavenly_hu_before_his_first_discard(dealer, lucky, points, deltas):
    """docs/rules.md#fc-dealer-hu: the dealer's initial 21 cards may already be all melds: hu before his first
    discard."""
    log = table({dealer: WIN21}, [hu(dealer)], dealer=dealer, head=(lucky,))
    assert outcome(log) == ("hu", dealer, points, deltas)


HEAVENLY_ILLEGAL = {
    "hand_not_all_melds": ({0: [*without(WIN21, "gP"), "wS"]}, [hu(0)], "false_hu"),
    "not_the_dealer": ({0: WIN21}, [hu(1)], "out_of_turn"),
}


@pytest.mark.parametrize(("hands", "events", "code"), HEAVENLY_ILLEGAL.values(), ids=HEAVENLY_ILLEGAL.keys())
def test_hu_without_a_public_card_is_only_the_dealers_opening(hands, events, code):
    """docs/rules.md#logs-claims: hu takes the public card, or nothing for the dealer before his first discard."""
    assert first(table(hands, events, head=("wA",))) == (len(events) - 1, code)


# -- settlement of a claimed hu: the lucky card and the payment rule ----------------------------------------------
# seat 1 waits on rC (WIN21 less one rC); the dealer discards rC; the lucky card is the next stock card.
# (lucky card, options, h, deltas)
CLAIMED_HU = {
    "lucky_card_not_held": ("wA", {}, 16, [-7, 7]),
    "lucky_card_two_in_hand": ("yH", {}, 18, [-9, 9]),
    "lucky_card_counts_the_winning_card": ("rC", {}, 19, [-10, 10]),  # 2 in hand + the winning rC
    "winning_meld_at_exposed_value": ("wA", {"winning_meld_concealed": False}, 14, [-5, 5]),  # triple 1, not 3
    "below_threshold_caller_pays": ("wA", {"threshold": 20}, 16, [21, -21]),  # pays 20 + 1 to each opponent
    # option lucky_match "character" (docs/rules.md#fc-lucky-match): every colour of the lucky card's character
    "lucky_character_advisors": ("wA", {"lucky_match": "character"}, 19, [-10, 10]),  # rA yA gA: +3
    "lucky_character_horses": ("yH", {"lucky_match": "character"}, 19, [-10, 10]),  # yH yH gH: +3
    "lucky_character_chariots": ("rC", {"lucky_match": "character"}, 20, [-11, 11]),  # rC rC gC + winning rC: +4
}


@pytest.mark.parametrize(("lucky", "options", "points", "deltas"), CLAIMED_HU.values(), ids=CLAIMED_HU.keys())
def test_claimed_hu_settlement(lucky, options, points, deltas):
    """docs/rules.md#fc-settlement: h = exposed + concealed (winning meld concealed, a decision) + lucky card."""
    log = table({0: ["rC"], 1: without(WIN21, "rC")}, [discard(0, "rC"), hu(1)], head=(lucky,), options=options)
    assert outcome(log) == ("hu", 1, points, deltas)


# -- stock exhaustion ---------------------------------------------------------------------------------------------
def exhausted(end: list[dict], drop: int = 0) -> dict:
    """2 seats, nobody claims: the dealer discards, then seats 1, 0, 1, ... turn up all 71 stock cards (the last
    is rC, which seat 1 waits on); `drop` draws fewer, then `end`. All 16 Generals are dealt, none is drawn."""
    log = table({1: without(WIN21, "rC")}, [], tail=("rC",))
    assert len(log["stock"]) == 71 and not any(is_general(c) for c in log["stock"])
    opening = next(c for c in log["hands"][0] if not is_general(c))
    log["events"] = [discard(0, opening)] + [draw((1 + k) % 2) for k in range(71 - drop)] + end
    return log


def test_stock_exhausted_without_hu_is_a_draw():
    """docs/rules.md#fc-stock-exhausted: stock exhausted with no hu: the round is a draw, nobody scores."""
    log = exhausted([])
    log["result"] = {"type": "draw"}
    result = audit(log)
    assert result.valid and result.recorded_result_matches
    assert (result.outcome["type"], result.outcome["deltas"]) == ("draw", [0, 0])


def test_stock_not_yet_exhausted_is_incomplete():
    """One stock card left and nobody to turn it up: the log stops mid-round."""
    assert audit(exhausted([], drop=1)).outcome == {"type": "incomplete"}


def test_hu_on_the_last_stock_card_has_no_lucky_card():
    """docs/rules.md#fc-lucky: no stock left: no bonus. The drawer's hu on his own card: h = 16."""
    log = exhausted([hu(1)])
    assert outcome(log) == ("hu", 1, 16, [-7, 7])
    lucky = [line for line in audit(log).outcome["breakdown"] if line["step"] == "lucky_card"]
    assert [line["points"] for line in lucky] == [0]


def test_draw_after_the_stock_is_exhausted():
    """docs/rules.md#fc-lucky: nothing is left to turn up."""
    log = exhausted([draw(0)])
    assert first(log) == (72, "stock_exhausted")


# -- the forced end ------------------------------------------------------------------------------------------------
def forced_end(lucky: str, after: tuple = ()) -> dict:
    """Seat 1 holds all 16 Generals + yC rC rC wS: he pairs the dealer's yC, discards wS, then takes the rC the
    dealer turns up as a triple and holds only Generals."""
    seat_1 = [f"{c}G" for c in "rygw" for _ in range(4)] + ["yC", "rC", "rC", "wS"]
    events = [discard(0, "yC"), claim(1, "pair", "yC", "yC"), discard(1, "wS"), draw(0),
              claim(1, "triple", "rC", "rC", "rC"), *after]
    return table({0: ["yC"], 1: seat_1}, events, head=("rC", lucky))


# exposed pair 0 + exposed triple 1 + four concealed general_quads 4 x 6 = 25, + lucky; opponent pays h - 10 + 1
@pytest.mark.parametrize(("lucky", "points", "deltas"), [
    pytest.param("wA", 25, [-16, 16], id="lucky_card_not_held"),
    pytest.param("rC", 28, [-19, 19], id="lucky_card_three_in_the_exposed_triple"),
])
def test_claimant_left_with_only_generals_ends_the_round_as_his_hu(lucky, points, deltas):
    """docs/rules.md#fc-generals-end: a player who must discard but holds only Generals ends the round: settled as his
    hu."""
    assert outcome(forced_end(lucky)) == ("hu", 1, points, deltas)


def test_no_event_after_the_forced_end():
    """docs/rules.md#fc-generals-end: the forced end ends the round; seat 1 cannot go on to discard."""
    assert first(forced_end("wA", (discard(1, "rG"),))) == (5, "event_after_end")


# -- priority and seat order ----------------------------------------------------------------------------------------
# 4 seats: the dealer discards rA; seat 1 (next) can pair it, seat 2 can pong it, seat 3 wins with it
# (command rG rA rE: WIN21 less rA, 16 points; lucky wA not held: each opponent pays 7).
PRIORITY_HANDS = {0: ["rA"], 1: ["rA"], 2: ["rA", "rA"], 3: without(WIN21, "rA")}
PAIR, PONG, HU = claim(1, "pair", "rA", "rA"), claim(2, "triple", "rA", "rA", "rA"), hu(3)


def priority_log(claims: list[dict]) -> dict:
    """The dealer's rA and the given simultaneous claims."""
    return table(PRIORITY_HANDS, [discard(0, "rA"), *claims], seats=4, head=("wA",))


@pytest.mark.parametrize("claims", list(permutations([PAIR, PONG, HU])), ids=lambda c: "-".join(
    e.get("meld", "hu") for e in c))
def test_hu_beats_triple_beats_chi_in_any_log_order(claims):
    """docs/rules.md#fc-priority: priority hu > quad/triple > chi-type; the order claims appear in the log does not
    matter."""
    assert outcome(priority_log(list(claims))) == ("hu", 3, 16, [-7, -7, -7, 21])


@pytest.mark.parametrize("claims", [[PAIR, PONG], [PONG, PAIR]], ids=["pair_first", "triple_first"])
def test_triple_beats_chi(claims):
    """docs/rules.md#fc-priority: the pong takes the card; the next player's pair loses and he may not discard."""
    log = priority_log(claims)
    spare = next(c for c in log["hands"][2] if c != "rA" and not is_general(c))
    log["events"].append(discard(2, spare))
    assert first(log) is None
    log["events"][-1] = discard(1, next(c for c in log["hands"][1] if c != "rA" and not is_general(c)))
    assert first(log) == (3, "lower_priority_claim")


@pytest.mark.parametrize("order", ["seat_1_first", "seat_3_first"])
def test_hu_tie_on_a_discard_goes_to_the_first_seat_after_the_discarder(order):
    """docs/rules.md#fc-priority: ties by seat order starting at the player after the discarder: dealer 2 discards rA,
    seats 1 and 3 both win with it, seat 3 comes first (3, 0, 1)."""
    claims = [hu(1), hu(3)] if order == "seat_1_first" else [hu(3), hu(1)]
    log = table({1: WAIT_RA, 2: ["rA"], 3: without(WIN21, "rA")}, [discard(2, "rA"), *claims], seats=4, dealer=2,
                head=("rH",))
    assert outcome(log) == ("hu", 3, 16, [-7, -7, -7, 21])


def test_hu_tie_on_a_drawn_card_goes_to_the_drawer():
    """docs/rules.md#fc-priority: ties by seat order starting at the drawer: seat 1 turns up rA, seats 0 and 1 both win
    with it, the drawer comes first (1, 2, 3, 0). WAIT_RA + rA: 16 points, lucky rH not held."""
    hands = {0: [*without(WIN21, "rA"), "rP"], 1: WAIT_RA}
    log = table(hands, [discard(0, "rP"), draw(1), hu(0), hu(1)], seats=4, head=("rA", "rH"))
    assert outcome(log) == ("hu", 1, 16, [-7, 21, -7, -7])


def drawn_chi_tie(discarder: int) -> dict:
    """2 seats: seat 1 turns up yP; both seats claim a pair with it; then `discarder` discards."""
    log = table({0: ["yP", "rP"], 1: ["yP"]}, [], head=("yP",))
    spare = next(c for c in log["hands"][discarder] if c not in ("yP", "rP") and not is_general(c))
    log["events"] = [discard(0, "rP"), draw(1), claim(0, "pair", "yP", "yP"), claim(1, "pair", "yP", "yP"),
                     discard(discarder, spare)]
    return log


def test_chi_tie_on_a_drawn_card_goes_to_the_drawer():
    """docs/rules.md#fc-priority: the drawer and the next player both pair the drawn yP: the drawer takes it."""
    assert first(drawn_chi_tie(1)) is None
    assert first(drawn_chi_tie(0)) == (4, "lower_priority_claim")


def test_triple_beats_the_drawers_chi_on_a_drawn_card():
    """docs/rules.md#fc-priority: priority before seat order: seat 3's pong beats the drawer's pair."""
    log = table({0: ["rP"], 1: ["yP"], 3: ["yP", "yP"]}, [], seats=4, head=("yP",))
    spare = next(c for c in log["hands"][3] if c != "yP" and not is_general(c))
    log["events"] = [discard(0, "rP"), draw(1), claim(1, "pair", "yP", "yP"), claim(3, "triple", "yP", "yP", "yP"),
                     discard(3, spare)]
    assert first(log) is None


# -- a drawn General --------------------------------------------------------------------------------------------
def drawn_general(claims: list[dict]) -> dict:
    """2 seats: seat 1 turns up rG; the given claims; the winner (the last claimant) discards."""
    log = table({0: ["rP"]}, [], head=("rG",))
    taker = claims[-1]["seat"]
    spare = next(c for c in log["hands"][taker] if c != "rP" and not is_general(c))
    log["events"] = [discard(0, "rP"), draw(1), *claims, discard(taker, spare)]
    return log


def test_drawn_general_taken_by_the_drawer():
    """docs/rules.md#fc-must-take: the drawer takes the General he turned up as a general meld."""
    assert first(drawn_general([claim(1, "general", "rG")])) is None


def test_drawn_general_must_not_go_to_an_equal_claim_of_the_next_player():
    """docs/rules.md#fc-must-take: the drawer must take it unless someone claims it with a higher priority; the next
    player's general meld is chi-type like the drawer's, so it cannot take the card."""
    assert first(drawn_general([claim(0, "general", "rG")])) == (2, "general_not_taken")


def test_drawn_general_goes_to_a_higher_claim():
    """docs/rules.md#fc-must-take: "... unless someone claims it with a higher priority": seat 0 wins with the gG seat
    1 turns up (WIN21 less gG, 16 points; lucky wA not held), though the drawer did not claim it."""
    log = table({0: [*without(WIN21, "gG"), "rP"]}, [discard(0, "rP"), draw(1), hu(0)], head=("gG", "wA"))
    assert outcome(log) == ("hu", 0, 16, [7, -7])


# -- flowers: the dealer turns up the first card ------------------------------------------------------------------
FLOWERS_OPENING = {
    "dealer_turns_up_the_first_card": ([draw(2)], None),
    "then_the_next_seat_draws": ([draw(2), draw(3)], None),
    "no_opening_discard": ([discard(2, "rA")], (0, "out_of_turn")),
    "not_the_dealer": ([draw(3)], (0, "draw_out_of_order")),
    "no_heavenly_hu": ([hu(2)], (0, "out_of_turn")),
}


@pytest.mark.parametrize(("events", "expected"), FLOWERS_OPENING.values(), ids=FLOWERS_OPENING.keys())
def test_flowers_dealer_turns_up_the_first_card(events, expected):
    """docs/rules.md#fl-deal: a random dealer turns up the first stock card (no opening discard)."""
    log = table({2: ["rA"]}, events, seats=4, dealer=2, ruleset=FLOWERS, head=("yC", "gC"))
    assert first(log) == expected


def test_bga_opening_draw():
    """docs/rules.md#fc-deal: in bga-taiwan the dealer starts by discarding."""
    assert first(table({}, [draw(1)])) == (0, "opening_not_discard")


def flowers_drawn_general(claims: list[dict]) -> dict:
    """flowers, 4 seats: the dealer (seat 0) turns up rG; seat 1 (next) holds rA rE for a command."""
    log = table({1: ["rA", "rE"]}, [], seats=4, ruleset=FLOWERS, head=("rG",))
    taker = claims[-1]["seat"]
    used = ("rA", "rE") if taker == 1 else ()
    spare = next(c for c in log["hands"][taker] if c not in used and not is_general(c) and not is_flower(c))
    log["events"] = [draw(0), *claims, discard(taker, spare)]
    return log


def test_flowers_drawn_general_goes_to_the_drawers_meld_before_the_next_players_command():
    """docs/rules.md#fl-priority: the drawer's own meld outranks the next player's mixed meld, and a General can never
    be discarded, so the drawer must meld it."""
    command = claim(1, "command", "rG", "rA", "rE")
    assert first(flowers_drawn_general([command, claim(0, "general", "rG")])) is None
    assert first(flowers_drawn_general([command])) == (1, "general_not_taken")
