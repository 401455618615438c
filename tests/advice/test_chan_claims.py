"""Claim advice for Chắn (docs/rules.md#chan-turn, docs/rules.md#chan-captures, docs/rules.md#chan-chiu): pass, every
legal capture and Chíu with the discard that follows it, and a win, ranked by `claim_rank_key`.

Rule cases work the outcome from the rules; the property test checks on random hands and histories that every
option stands for a claim of the engine's `legal_claims`, that its follow-up discard is legal after the claim
(rules 2, 3, 6 under the history the claim leaves), and that passing keeps the hand's own distance.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.advice.analyse import analyse_claims
from service.advice.chan_claims import after_claim, history_after
from service.advice.ranking import claim_rank_key
from service.rules.chan.captures import History, legal_discards, parse_history
from service.rules.chan.cards import N_FACES, code
from service.rules.chan.distance import UNREACHABLE, distance
from service.rules.chan.hand import ChanHand, evaluate_win
from service.rules.errors import DomainError
from service.rules.registry import get_ruleset
from tests.support.deals import offered

RS = get_ruleset("cardavia-chan")
OPTIONS = RS.resolve_options(None)
# 5 Chắn (2m 3s 4c 6m 7s), 3 Cạ (2s-2c 4m-4s 5m-5s) and three lone cards 6s 9c 8m: 19 cards. One more card
# pairs at most one of the three, so it is one replacement from waiting.
THREE_LONE = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 2s 2c 4m 4s 5m 5s 6s 9c 8m"
# 5 Chắn, 4 Cạ (6s-6c too) and 9c: waiting on 9c (6 Chắn, 4 Cạ). No red card (8m 9m 8s 9s CC are red).
NINE_C = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 2s 2c 4m 4s 5m 5s 6s 6c 9c"
# 4 Chắn, 7s three times, 3 Cạ, 6s and 8m: 19 cards.
TRIPLE_7S = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 7s 2s 2c 4m 4s 5m 5s 6s 8m"


def advise(hand, public, role, source="discard", visible=(), history=None):
    """Parse a resting hand (codes separated by spaces) with its public card and rank the claims."""
    parsed = RS.parse(OPTIONS, hand.split(), [], public)
    return analyse_claims(RS, parsed, OPTIONS, role, list(visible), 4, source, parse_history(history))


def shown(analysis):
    """(kind, pair codes, rank) of each option, best first."""
    return [(o.kind, " ".join(code(c) for c in o.cards), o.rank) for o in analysis.options]


def test_capture_that_completes_a_wait_is_taken():
    """The next player may capture the discarded 6c as a Cạ with 6s (no 6c in hand, rule 1; three lone cards, rule
    5 allows it). Then discarding 8m leaves 9c waiting (6 Chắn with 9c, 4 Cạ) or discarding 9c leaves 8m: distance
    0, against 1 for passing."""
    found = advise(THREE_LONE, "6c", "next")
    assert shown(found) == [("ca", "6s 6c", 1), ("pass", "", 2)]
    capture, passing = found.options
    assert capture.distance == 0 and code(capture.follow.card) in ("8m", "9c") and passing.distance == 1


def test_capture_of_an_earlier_discard_is_not_offered():
    """Rule 4: a face he discarded earlier cannot be captured by him: passing is all that is left."""
    found = advise(THREE_LONE, "6c", "next", history={"discarded": ["6c"]})
    assert shown(found) == [("pass", "", 1)]


def test_identical_card_in_hand_forces_a_chan():
    """Rule 1: holding 6c, the capture of 6c must be the Chắn 6c 6c, never the Cạ 6s 6c."""
    found = advise(NINE_C.replace("9c", "8m"), "6c", "next")
    assert {o.kind for o in found.options} == {"pass", "chan"}


def test_only_the_player_whose_turn_it_is_captures():
    """Captures are made by the player whose turn it is (docs/rules.md#chan-turn): another seat only passes."""
    assert shown(advise(THREE_LONE, "6c", "other")) == [("pass", "", 1)]


def test_chiu_that_completes_a_wait_is_taken():
    """Any player holding three 7s may claim the fourth (Chíu, docs/rules.md#chan-chiu), out of turn too. Exposed
    as two Chắn, with 2m 3s 4c 6m that is 6 Chắn and 3 Cạ; discarding 8m (or 6s) leaves the other waiting: 0.
    Passing keeps three lone cards (7s 6s 8m): 1."""
    found = advise(TRIPLE_7S, "7s", "other")
    assert shown(found)[0] == ("chiu", "7s 7s 7s 7s", 1)
    chiu = found.options[0]
    assert chiu.distance == 0 and code(chiu.follow.card) in ("6s", "8m") and chiu.follow.card in chiu.claim.discards


@pytest.mark.parametrize(("role", "gain"), [
    # Bạch định (no red card) 7 main + Bạch thủ (6 Chắn, 9c pairs as a Chắn) dịch 1 + Ù chì dịch 1 = 9; x 3
    ("drawer", 27),
    # another gate's stock card: no Ù chì, 7 + 1 = 8; x 3
    ("next", 24),
])
def test_win_on_a_stock_card(role, gain):
    """NINE_C wins on 9c turned up from the stock, by any player (docs/rules.md#chan-win-stock)."""
    found = advise(NINE_C, "9c", role, "stock")
    assert found.options[0].kind == "win" and found.options[0].gain == gain and found.options[0].distance == -1


def test_no_win_on_a_discard():
    """An ordinary discard never wins (docs/rules.md#chan-win-stock): on a discarded 9c the next player is offered
    the Chắn capture, no win."""
    found = advise(NINE_C, "9c", "next", "discard")
    assert {o.kind for o in found.options} == {"pass", "chan"}


def test_dead_hand_only_passes():
    """A dead hand can neither capture nor win (docs/rules.md#chan-dead-hand)."""
    found = advise(NINE_C, "9c", "drawer", "stock", history={"dead_hand": True})
    assert shown(found) == [("pass", "", 1)] and found.options[0].distance == UNREACHABLE


def test_a_claim_decision_needs_the_resting_hand():
    """19 cards over hand and exposed pairs plus the public card."""
    with pytest.raises(DomainError) as raised:
        advise(NINE_C.removesuffix(" 9c"), "9c", "next")
    assert raised.value.field == "hand" and raised.value.code == "wrong_card_count"


# --- property ---------------------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["drawer", "next", "other", "discarder"]),
       st.sampled_from(["discard", "stock"]), st.integers(0, 3), st.booleans())
def test_every_option_is_a_legal_claim_with_a_legal_follow_up(seed, role, source, copies, captured_ca):
    """Random resting hands holding 0-3 copies of the public card and a random history: each non-pass option is a
    legal claim, each legal claim is offered, its follow-up discard is legal after it, passing keeps the hand's
    distance, and the options come in `claim_rank_key` order."""
    rng = random.Random(seed)
    public, hand, seen = offered(rng, RS.deck(), 19, copies)
    history = History(frozenset(rng.sample(range(N_FACES), 2)), frozenset(rng.sample(range(N_FACES), 1)),
                      frozenset(), captured_ca)
    parsed = RS.parse(OPTIONS, [code(c) for c in hand], [], code(public))
    found = analyse_claims(RS, parsed, OPTIONS, role, [code(c) for c in seen], 4, source, history)
    legal = RS.legal_claims(parsed, role, OPTIONS, source, history)
    taken = [x for x in found.options if x.kind != "pass"]
    assert sorted(map(repr, (x.claim for x in taken))) == sorted(map(repr, legal))
    assert [x.kind for x in found.options].count("pass") == 1 and not found.forced
    for option in taken:
        if option.claim.pair is None:
            assert option.follow is None and option.distance == -1
            continue
        after = after_claim(parsed, option.claim)
        allowed = legal_discards(after.counts, history_after(option.claim, parsed, history))
        if option.follow is not None:
            assert option.follow.card in allowed and option.follow.card in option.claim.discards
        else:
            assert not allowed
    passing = next(x for x in found.options if x.kind == "pass")
    assert passing.distance == distance(parsed.counts)
    keys = [claim_rank_key(x) for x in found.options]
    assert keys == sorted(keys)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["next", "other"]))
def test_passing_keeps_the_figures_of_the_hand_as_it_stands(seed, role):
    """Brute force on the resting hand R (19 cards) a pass leaves: its waits are the faces c with R + c winning,
    and, when it is not waiting, its improving cards are the unseen y after which a legal discard z (rules 2, 3,
    6 under the history the pass leaves: an identical capture passed up bars that face, rule 3) leaves R + y - z
    one replacement closer."""
    rng = random.Random(seed)
    deck = RS.deck()
    rng.shuffle(deck)
    public, hand = deck[0], deck[1:20]
    parsed = RS.parse(OPTIONS, [code(c) for c in hand], [], code(public))
    claims = RS.legal_claims(parsed, role, OPTIONS, "discard", History())
    passing = next(x for x in analyse_claims(RS, parsed, OPTIONS, role, [], 4).options if x.kind == "pass")
    after = history_after(None, parsed, History()) if any(c.kind == "chan" for c in claims) else History()
    counts = list(parsed.counts)
    if passing.distance == 0:
        winning = [c for c in range(N_FACES) if counts[c] < 4
                   and evaluate_win(ChanHand(tuple(counts), (), c)).hu]
        assert [w.card for w in passing.waits] == winning
        return
    unseen = [4 - counts[c] - (c == public) for c in range(N_FACES)]
    improving = []
    for y in range(N_FACES):
        if not unseen[y]:
            continue
        counts[y] += 1
        for z in legal_discards(counts, after):
            counts[z] -= 1
            closer = distance(counts) == passing.distance - 1
            counts[z] += 1
            if closer:
                improving.append((y, unseen[y]))
                break
        counts[y] -= 1
    assert list(passing.improving) == improving
