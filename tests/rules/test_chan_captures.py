"""Captures, Chíu, wins and discards on a public card (docs/rules.md#chan-turn, docs/rules.md#chan-captures).

Roles: `drawer` turned the card up from the stock, `next` sits after the discarder or drawer, `discarder`
discarded it, `other` is anyone else. Priorities: a win on a turned-up stock card 3, Chíu 2, captures 1.
Each claim is (kind, exposed pair, priority class, priority, discards allowed after it, by_chiu).
"""

from __future__ import annotations

import random

import pytest

from service.rules.chan.captures import (
    PRIORITY,
    ROLES,
    SOURCES,
    History,
    capture_rule_broken,
    discard_rule_broken,
    legal_claims,
    legal_discards,
    meld_claims,
    parse_history,
)
from service.rules.chan.cards import CODE_INDEX, N_FACES, code
from service.rules.chan.hand import ChanHand
from service.rules.errors import DomainError
from service.rules.registry import get_ruleset
from tests.support.chan_claims import (
    CHIU_WAITING,
    WAITING,
    WIN_CASES,
    ca,
    chan,
    chiu,
)

CHAN = "cardavia-chan"

def claims(hand, public, role, source="discard", history=None):
    """The legal claims as comparable rows, highest priority first."""
    rs = get_ruleset(CHAN)
    o = rs.resolve_options(None)
    found = rs.legal_claims(rs.parse(o, hand, [], public), role, o, source, parse_history(history))
    assert [c.priority for c in found] == sorted((c.priority for c in found), reverse=True)
    return sorted((c.kind, tuple(code(x) for x in c.pair.cards) if c.pair else None, c.priority_class, c.priority,
                   tuple(sorted(code(x) for x in c.discards)), c.by_chiu) for c in found)


# (hand, public card, role, source, history, expected claims)
CAPTURE_CASES = [
    # rule 1: an identical card in hand makes the capture a Chắn (no Cạ 5m-5s); after it 5s or 7c may go
    pytest.param(["5m", "5s", "7c"], "5m", "next", "discard", None, [chan("5m", ["5s", "7c"])],
                 id="rule1_identical_in_hand_forces_chan"),
    pytest.param(["5s", "7c", "9m"], "5m", "next", "discard", None, [ca("5m", "5s", ["7c", "9m"])],
                 id="rule1_no_identical_card_ca_allowed"),
    # a pair in hand may give one card to a Chắn capture: rule 2 forbids breaking it only to discard or form Cạ
    pytest.param(["5m", "5m", "7c"], "5m", "next", "discard", None, [chan("5m", ["5m", "7c"])],
                 id="rule1_chan_capture_with_a_card_of_a_hand_pair"),
    # rule 2: 5s-5s would be split to form Cạ 5m-5s
    pytest.param(["5s", "5s", "7c", "9m"], "5m", "next", "discard", None, [],
                 id="rule2_no_ca_that_breaks_an_identical_pair"),
    # rule 2: a triple gives one card, Chắn 5s-5s stays; 5s-5s may not then be discarded
    pytest.param(["5s", "5s", "5s", "7c", "9m"], "5m", "next", "discard", None, [ca("5m", "5s", ["7c", "9m"])],
                 id="rule2_triple_may_give_one_card_to_a_ca"),
    # rule 3: 5m passed up as an identical capture: not captured into a Cạ ...
    pytest.param(["5s", "7c", "9m"], "5m", "next", "discard", {"passed_identical": ["5m"]}, [],
                 id="rule3_passed_face_not_captured_into_ca"),
    # ... nor a hand 5s whose identical capture was passed up given to a Cạ
    pytest.param(["5s", "7c", "9m"], "5m", "next", "discard", {"passed_identical": ["5s"]}, [],
                 id="rule3_passed_face_not_used_in_ca"),
    # rule 3 forbids discarding and Cạ only: the Chắn capture stays (docs/rules.md#chan-capture-3)
    pytest.param(["5m", "7c", "9m"], "5m", "next", "discard", {"passed_identical": ["5m"]},
                 [chan("5m", ["7c", "9m"])], id="rule3_chan_capture_of_passed_face_allowed"),
    # rule 3 then rule 7: after Chắn 5m only 7c is left, and it may not be discarded
    pytest.param(["5m", "7c"], "5m", "next", "discard", {"passed_identical": ["7c"]}, [],
                 id="rule7_no_capture_when_rule3_forbids_the_only_discard"),
    # rule 4: a face he discarded earlier is not captured, as Chắn or as Cạ
    pytest.param(["5m", "7c", "9m"], "5m", "next", "discard", {"discarded": ["5m"]}, [],
                 id="rule4_discarded_face_not_captured_as_chan"),
    pytest.param(["5s", "7c", "9m"], "5m", "next", "discard", {"discarded": ["5m"]}, [],
                 id="rule4_discarded_face_not_captured_as_ca"),
    pytest.param(["5s", "7c", "9m"], "5m", "next", "discard", {"played_into_ca": ["5m"]}, [],
                 id="rule4_face_played_into_ca_not_captured"),
    pytest.param(["5m", "7c", "9m"], "5m", "next", "discard", {"played_into_ca": ["5m"]}, [],
                 id="rule4_face_played_into_ca_not_captured_as_chan"),
    pytest.param(["5s", "7c", "9m"], "5m", "next", "discard", {"discarded": ["6m"], "played_into_ca": ["5c"]},
                 [ca("5m", "5s", ["7c", "9m"])], id="rule4_other_faces_do_not_block"),
    # rule 5: the hand holds Cạ 5s-5c already
    pytest.param(["5s", "5c", "7c", "9m"], "5m", "next", "discard", None, [],
                 id="rule5_no_ca_when_hand_holds_ca_at_value"),
    # rule 5: triple 5s gives its odd card to Cạ 5s-5c, so the hand holds a Cạ at 5
    pytest.param(["5s", "5s", "5s", "5c", "7c", "9m"], "5m", "next", "discard", None, [],
                 id="rule5_ca_from_a_triple_counts"),
    # rule 5: Cạ 2m-2c + Chắn 9c-9c + 5s: 5s is the only unpaired card
    pytest.param(["5s", "2m", "2c", "9c", "9c"], "5m", "next", "discard", None, [],
                 id="rule5_no_ca_when_one_unpaired_card_remains"),
    pytest.param(["5s", "8c", "2m", "2c", "9c", "9c"], "5m", "next", "discard", None,
                 [ca("5m", "5s", ["2m", "2c", "8c"])], id="rule5_ca_with_two_unpaired_cards"),
    # rule 5 limits Cạ only: the Chắn capture stays
    pytest.param(["5m", "2m", "2c", "9c", "9c"], "5m", "next", "discard", None, [chan("5m", ["2m", "2c"])],
                 id="rule5_chan_capture_with_one_unpaired_card"),
    # rule 6: he discarded 7m and 7s (both suits of a Cạ): no Cạ capture, a Chắn still
    pytest.param(["5s", "8c", "9c"], "5m", "next", "discard", {"discarded": ["7m", "7s"]}, [],
                 id="rule6_discarded_both_suits_of_a_ca_no_ca_capture"),
    pytest.param(["5m", "8c"], "5m", "next", "discard", {"discarded": ["7m", "7s"]}, [chan("5m", ["8c"])],
                 id="rule6_discarded_ca_still_allows_chan"),
    pytest.param(["5s", "8c", "9c"], "5m", "next", "discard", {"discarded": ["7m", "6s"]},
                 [ca("5m", "5s", ["8c", "9c"])], id="rule6_two_values_discarded_is_no_ca"),
    # rule 6: once he captures Cạ 5m-5s, 8c would complete his discarded 8s into a Cạ: only 9c may go
    pytest.param(["5s", "8c", "9c"], "5m", "next", "discard", {"discarded": ["8s"]}, [ca("5m", "5s", ["9c"])],
                 id="rule6_after_ca_capture_no_discard_completing_a_ca"),
    # a Chắn capture is no Cạ capture: 8c may still go
    pytest.param(["5m", "8c", "9c"], "5m", "next", "discard", {"discarded": ["8s"]}, [chan("5m", ["8c", "9c"])],
                 id="rule6_chan_capture_leaves_discards_free"),
    # rule 6 then rule 7: after Cạ 5m-5s only 9s is left and 9m was discarded
    pytest.param(["5s", "9s"], "5m", "next", "discard", {"discarded": ["9m"]}, [],
                 id="rule7_no_ca_when_rule6_forbids_the_only_discard"),
    # rule 7: after Chắn 5m only the pair 2m-2m is left, which may not be broken
    pytest.param(["5m", "2m", "2m"], "5m", "next", "discard", None, [],
                 id="rule7_capture_must_leave_a_legal_discard"),
    pytest.param(["5m", "2m", "2m", "4c"], "5m", "next", "discard", None, [chan("5m", ["4c"])],
                 id="rule7_capture_leaving_a_single_card"),
    pytest.param(["5s", "7c"], "5m", "next", "discard", {"passed_identical": ["7c"]}, [],
                 id="rule7_ca_must_leave_a_legal_discard"),
    # Chi chi forms no Cạ: a lone CC in hand cannot take 9m, nor a 9 take a CC
    pytest.param(["CC", "7c", "8c"], "9m", "next", "discard", None, [], id="chi_chi_captures_no_ca"),
    pytest.param(["9m", "7c", "8c"], "CC", "next", "discard", None, [], id="chi_chi_is_captured_only_as_chan"),
    pytest.param(["CC", "7c", "8c"], "CC", "next", "discard", None, [chan("CC", ["7c", "8c"])],
                 id="chi_chi_chan_capture"),
    # only the drawer (his stock card) and the next player capture
    pytest.param(["5m", "4c"], "5m", "next", "discard", None, [chan("5m", ["4c"])], id="next_captures_a_discard"),
    pytest.param(["5m", "4c"], "5m", "drawer", "stock", None, [chan("5m", ["4c"])],
                 id="drawer_captures_his_stock_card"),
    pytest.param(["5m", "4c"], "5m", "next", "stock", None, [chan("5m", ["4c"])],
                 id="next_captures_a_passed_stock_card"),
    pytest.param(["5m", "4c"], "5m", "other", "discard", None, [], id="other_seat_does_not_capture"),
    pytest.param(["5m", "4c"], "5m", "other", "stock", None, [], id="other_seat_does_not_capture_stock_card"),
    pytest.param(["5m", "4c"], "5m", "discarder", "discard", None, [], id="discarder_claims_nothing_on_his_discard"),
    # Chíu: three identical in hand take the fourth public card, out of turn, from any seat but the discarder
    pytest.param(["5m", "5m", "5m", "4c"], "5m", "other", "discard", None, [chiu("5m", ["4c"])],
                 id="chiu_three_identical_other_seat_on_a_discard"),
    pytest.param(["5m", "5m", "5m", "4c"], "5m", "other", "stock", None, [chiu("5m", ["4c"])],
                 id="chiu_on_a_stock_card"),
    pytest.param(["5m", "5m", "5m", "4c"], "5m", "next", "discard", None,
                 [chan("5m", ["4c"]), chiu("5m", ["4c"])], id="chiu_or_chan_for_the_next_player"),
    pytest.param(["5m", "5m", "5m", "4c"], "5m", "drawer", "stock", None,
                 [chan("5m", ["4c"]), chiu("5m", ["4c"])], id="chiu_or_chan_for_the_drawer"),
    pytest.param(["5m", "5m", "5m", "4c"], "5m", "discarder", "discard", None, [], id="no_chiu_for_the_discarder"),
    # a turned-up stock card is nobody's discard: the seat that discarded before the draw may Chíu it, not capture it
    pytest.param(["5m", "5m", "5m", "4c"], "5m", "discarder", "stock", None, [chiu("5m", ["4c"])],
                 id="chiu_by_the_discarder_seat_on_a_stock_card"),
    pytest.param(["5m", "4c"], "5m", "discarder", "stock", None, [], id="discarder_seat_does_not_capture_stock_card"),
    pytest.param(["5m", "5m", "4c"], "5m", "other", "discard", None, [], id="no_chiu_with_two_identical"),
    pytest.param(["5m", "5m", "5m", "4c"], "5s", "other", "discard", None, [], id="no_chiu_on_another_face"),
    # a dead hand only draws: no capture, no Chíu, no win
    pytest.param(["5m", "5m", "5m", "4c"], "5m", "next", "discard", {"dead_hand": True}, [],
                 id="dead_hand_claims_nothing"),
    pytest.param(WAITING, "9c", "drawer", "stock", {"dead_hand": True}, [], id="dead_hand_cannot_win"),
]


@pytest.mark.parametrize(("hand", "public", "role", "source", "history", "expected"), CAPTURE_CASES)
def test_captures(hand, public, role, source, history, expected):
    """Legal captures and Chíu under capture rules 1-7, with the discards each allows."""
    assert claims(hand, public, role, source, history) == sorted(expected)


# (hand, public card, hand card it pairs with, history, the rule the capture breaks: None = legal)
RULE_CASES = [
    pytest.param(["5m", "5s", "7c"], "5m", "5m", None, None, id="rule1_chan_with_the_identical_card"),
    pytest.param(["5m", "5s", "7c"], "5m", "5s", None, 1, id="rule1_identical_in_hand_forces_chan"),
    pytest.param(["5s", "5s", "7c", "9m"], "5m", "5s", None, 2, id="rule2_ca_would_break_an_identical_pair"),
    pytest.param(["5s", "5s", "5s", "7c", "9m"], "5m", "5s", None, None, id="rule2_triple_gives_one_card"),
    pytest.param(["5s", "7c", "9m"], "5m", "5s", {"passed_identical": ["5m"]}, 3, id="rule3_passed_face_into_ca"),
    pytest.param(["5s", "7c", "9m"], "5m", "5s", {"passed_identical": ["5s"]}, 3, id="rule3_passed_face_used_in_ca"),
    pytest.param(["5m", "7c", "9m"], "5m", "5m", {"discarded": ["5m"]}, 4, id="rule4_discarded_face"),
    pytest.param(["5s", "7c", "9m"], "5m", "5s", {"played_into_ca": ["5m"]}, 4, id="rule4_face_played_into_ca"),
    pytest.param(["5s", "5c", "7c", "9m"], "5m", "5s", None, 5, id="rule5_no_ca_when_hand_holds_ca_at_value"),
    pytest.param(["5s", "2m", "2c", "9c", "9c"], "5m", "5s", None, 5, id="rule5_no_ca_with_one_unpaired_card"),
    pytest.param(["5s", "8c", "9c"], "5m", "5s", {"discarded": ["7m", "7s"]}, 6,
                 id="rule6_discarded_both_suits_of_a_ca"),
    pytest.param(["5m", "2m", "2m"], "5m", "5m", None, 7, id="rule7_capture_must_leave_a_legal_discard"),
    pytest.param(["5s", "9s"], "5m", "5s", {"discarded": ["9m"]}, 7, id="rule7_after_rule6_no_discard_left"),
    pytest.param(["5s", "7c", "9m"], "5m", "5s", None, None, id="legal_ca"),
]


@pytest.mark.parametrize(("hand", "public", "mate", "history", "rule"), RULE_CASES)
def test_rule_broken(hand, public, mate, history, rule):
    """capture_rule_broken names the capture rule (1-7) a pairing breaks, as the replay audit reports it."""
    rs = get_ruleset(CHAN)
    parsed = rs.parse(rs.resolve_options(None), hand)
    broken = capture_rule_broken(parsed.counts, CODE_INDEX[public], CODE_INDEX[mate], parse_history(history))
    assert broken == (None if rule is None else f"chan_capture_rule_{rule}")




@pytest.mark.parametrize(("hand", "public", "role", "source", "expected"), WIN_CASES)
def test_wins(hand, public, role, source, expected):
    """A win only on a turned-up stock card (any player), or completed by a Chíu on a discard."""
    assert claims(hand, public, role, source) == sorted(expected)


def test_priorities():
    """docs/rules.md#chan-priority: a win on a turned-up stock card, then Chíu, then normal captures."""
    assert PRIORITY["win"] > PRIORITY["chiu"] > PRIORITY["capture"]
    assert (PRIORITY["win"], PRIORITY["chiu"], PRIORITY["capture"]) == (3, 2, 1)


def test_claims_highest_priority_first():
    """legal_claims lists the win first, then the Chíu, then the capture."""
    rs = get_ruleset(CHAN)
    o = rs.resolve_options(None)
    found = rs.legal_claims(rs.parse(o, CHIU_WAITING, public_card="6m"), "drawer", o, "stock")
    assert [(c.kind, c.priority) for c in found] == [("win", 3), ("chiu", 2), ("chan", 1)]


# (hand, history, faces that may be discarded)
DISCARD_CASES = [
    pytest.param(["2m", "2m", "4c", "9s"], None, {"4c", "9s"}, id="rule2_pair_not_broken_to_discard"),
    pytest.param(["2m", "2m", "2m", "4c"], None, {"2m", "4c"}, id="rule2_triple_may_lose_one_card"),
    pytest.param(["2m"] * 4 + ["4c"], None, {"4c"}, id="rule2_four_identical_kept"),
    pytest.param(["4m", "4c", "2m", "2m"], None, {"4m", "4c"}, id="rule2_a_concealed_ca_is_no_identical_pair"),
    pytest.param(["5m", "7c", "9m"], {"passed_identical": ["5m"]}, {"7c", "9m"},
                 id="rule3_passed_identical_face_not_discarded"),
    pytest.param(["9s", "8c", "2m"], {"captured_ca": True, "discarded": ["9m"]}, {"8c", "2m"},
                 id="rule6_after_ca_capture_no_second_card_of_a_ca"),
    pytest.param(["9s", "8c", "2m"], {"discarded": ["9m"]}, {"9s", "8c", "2m"},
                 id="rule6_free_before_any_ca_capture"),
    pytest.param(["9m", "8c"], {"captured_ca": True, "discarded": ["9m"]}, {"9m", "8c"},
                 id="rule6_same_face_again_is_no_ca"),
    pytest.param(["CC", "8c"], {"captured_ca": True, "discarded": ["9m"]}, {"CC", "8c"},
                 id="rule6_chi_chi_makes_no_ca"),
    pytest.param(["2m", "2m"], None, set(), id="no_legal_discard"),
]


@pytest.mark.parametrize(("hand", "history", "faces"), DISCARD_CASES)
def test_legal_discards(hand, history, faces):
    """Faces the player may discard now (rules 2, 3, 6)."""
    rs = get_ruleset(CHAN)
    parsed = rs.parse(rs.resolve_options(None), hand)
    assert {code(c) for c in rs.legal_discards(parsed, parse_history(history))} == faces


# (hand, public card, role, source, code, field)
BAD_CLAIMS = [
    pytest.param(["5m"], "5m", "dealer", "discard", "invalid_seat", "seat_role", id="unknown_seat_role"),
    pytest.param(["5m"], "5m", "next", "table", "invalid_source", "card_source", id="unknown_card_source"),
    pytest.param(["5m"], None, "next", "discard", "missing_public_card", "public_card", id="claims_need_a_public_card"),
]


@pytest.mark.parametrize(("hand", "public", "role", "source", "code_", "field"), BAD_CLAIMS)
def test_bad_claim_requests(hand, public, role, source, code_, field):
    """A claim request names a known seat role, a card source and a public card."""
    rs = get_ruleset(CHAN)
    o = rs.resolve_options(None)
    with pytest.raises(DomainError) as err:
        rs.legal_claims(rs.parse(o, hand, [], public), role, o, source)
    assert (err.value.code, err.value.field) == (code_, field)


def random_hand_and_history(rng: random.Random, size: int) -> tuple[list[int], History]:
    """`size` cards of the deck and a history of a few discarded, passed-up and played faces, often a Cạ captured."""
    counts = [0] * N_FACES
    for card in rng.sample([f for f in range(N_FACES) for _ in range(4)], size):
        counts[card] += 1
    faces = range(N_FACES)
    history = History(frozenset(rng.sample(faces, rng.randint(0, 5))), frozenset(rng.sample(faces, rng.randint(0, 2))),
                      frozenset(rng.sample(faces, rng.randint(0, 1))), rng.random() < 0.5)
    return counts, history


def test_legal_discards_are_the_faces_no_rule_refuses():
    """`legal_discards` reads the memoised forbidden faces of the history; on random hands and histories it must
    be exactly the faces `discard_rule_broken` allows one by one (rules 2, 3, 6)."""
    rng = random.Random(41)
    for _ in range(400):
        counts, history = random_hand_and_history(rng, rng.choice((5, 12, 20)))
        expected = [f for f in range(N_FACES) if discard_rule_broken(counts, f, history) is None]
        assert legal_discards(counts, history) == expected


def test_meld_claims_are_the_legal_claims_but_the_win():
    """`meld_claims` (what a player who knows he does not win asks) is `legal_claims` without its win claim, in
    the same order, for every role and source, on random 19-card hands, public cards and histories."""
    rng = random.Random(43)
    seen = set()
    for _ in range(300):
        counts, history = random_hand_and_history(rng, 19)
        card = rng.choice([f for f in range(N_FACES) if counts[f] < 4])
        hand = ChanHand(tuple(counts), (), card)
        for role in ROLES:
            for source in SOURCES:
                claims = legal_claims(hand, role, source, history)
                assert meld_claims(hand, role, source, history) == [c for c in claims if c.kind != "win"]
                seen.update(c.kind for c in claims)
    assert {"chan", "ca", "chiu"} <= seen  # the hands reached every kind of exposing claim
