"""Claim advice for Four Color Cards (docs/rules.md#fc-claims, docs/rules.md#fl-claims): pass, every legal claim
with the discard that follows it, and hu, ranked by `claim_rank_key`.

Rule cases work the outcome from the rules; the property test checks on random hands that every option stands
for a claim of the engine's `legal_claims`, that its follow-up discard is a legal discard of the hand after the
claim, and that passing keeps the distance of the hand as it stands (`distance.distance`).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.advice.analyse import analyse_claims
from service.advice.fourcolor_claims import after_claim
from service.advice.ranking import claim_rank_key
from service.replay.decisions import Pricing
from service.rules.errors import DomainError
from service.rules.fourcolor.cards import code
from service.rules.fourcolor.distance import distance
from service.rules.registry import get_ruleset
from tests.support.deals import offered

BGA, FLOWERS = "bga-taiwan", "cardavia-flowers"
# Commands rGAE yGAE, fields gCHP wCHP, soldiers3 yS gS wS, the pair rC rC, yC yH and the lone wA: 20 cards.
# Alone it needs two cards (yP and a partner for wA); replacing wA with yP leaves 20 cards in melds: distance 1.
PAIR_C = "rG rA rE yG yA yE gC gH gP wC wH wP rC rC yS gS wS yC yH wA"
# As PAIR_C with the triple rC rC rC and no wA: waiting on yP. With yP: commands 2 + 2, fields 1 + 1 + 1, the
# concealed triple 3, soldiers3 3 = 13 points; bga 4 seats: each opponent pays (13 - 10) + 1 = 4, the winner +12.
WAITING = "rG rA rE yG yA yE gC gH gP wC wH wP rC rC rC yS gS wS yC yH"
# Nine pairs (rC rH rP twice read as two fields, 1 each) and gC gH: waiting on gP for 2 + 1 = 3 points, under
# the threshold: the caller pays each of 3 opponents 10 + 1, -33.
LOW = "rA rA rE rE rC rC rH rH rP rP yA yA yE yE yC yC yH yH gC gH"


def advise(ruleset_id, hand, public, role, visible="", seats=4, exposed=(), options=None):
    """Parse a resting hand (codes separated by spaces) with its public card and rank the claims."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(options)
    parsed = rs.parse(o, hand.split(), list(exposed), public)
    return analyse_claims(rs, parsed, o, role, visible.split(), seats)


def shown(analysis):
    """(kind, meld codes, rank) of each option, best first."""
    return [(o.kind, " ".join(code(c) for c in o.cards), o.rank) for o in analysis.options]


def test_claim_that_completes_a_wait_is_taken():
    """PAIR_C is one replacement from waiting; the triple rC on another player's discard (anyone but the
    discarder may claim it) exposes rC rC rC, and discarding wA leaves yC yH waiting on yP: distance 0 beats 1."""
    found = advise(BGA, PAIR_C, "rC", "other")
    assert shown(found) == [("triple", "rC rC rC", 1), ("pass", "", 2)]
    triple, passing = found.options
    assert code(triple.follow.card) == "wA" and triple.distance == 0
    assert [code(w.card) for w in triple.waits] == ["yP"]
    assert passing.distance == 1 and passing.follow is None and not found.forced


def test_pair_that_breaks_a_good_shape_is_passed():
    """WAITING waits on yP. The next player may pair gH (chi-type) but the pair takes gH out of the field gC gH gP:
    after any discard the hand is at least one card from waiting (discarding gC, replacing gP with yP waits
    again: 1). The field gC gH gP on the public gH, then discarding the old gH, leaves the same wait on yP for the
    same 13 points (a field is 1 exposed or concealed): a tie, and pass wins ties."""
    found = advise(BGA, WAITING, "gH", "next")
    kinds = {kind: rank for kind, _, rank in shown(found)}
    assert found.options[0].kind == "pass" and found.options[0].distance == 0
    pair = next(o for o in found.options if o.kind == "pair")
    field = next(o for o in found.options if o.kind == "field")
    assert pair.distance == 1 and kinds["pair"] > kinds["field"] == 2
    assert field.distance == 0 and field.expected_gain == found.options[0].expected_gain


def test_hu_that_gains_comes_first():
    """WAITING + yP is hu for 13 points: +12 over 4 seats, ahead of passing (which keeps the wait)."""
    found = advise(BGA, WAITING, "yP", "other")
    hu = found.options[0]
    assert (hu.kind, hu.gain, hu.expected_gain, hu.distance, hu.cards) == ("hu", 12, 12.0, -1, ())
    assert [o.kind for o in found.options] == ["hu", "pass"]


def test_bga_hu_under_threshold_ranks_below_pass():
    """LOW + gP is hu for 3 points, under the threshold 10: the caller pays each opponent 11 (-33), so passing
    (and waiting on) comes first (docs/rules.md#fc-settlement)."""
    found = advise(BGA, LOW, "gP", "other")
    assert [o.kind for o in found.options] == ["pass", "hu"]
    assert found.options[1].gain == -33 and found.options[1].rank == 2


def test_flowers_every_win_counts():
    """cardavia-flowers pays nobody by default: the hu's gain is its points, so it comes first. LOW + gP: two
    fields rCHP 1 + 1 (mixed groups by size) and gCHP 1 = 3."""
    found = advise(FLOWERS, LOW, "gP", "other")
    assert found.options[0].kind == "hu" and found.options[0].gain == 3


def test_drawn_general_must_be_taken():
    """The drawer of a General must take it (docs/rules.md#fc-must-take): WAITING holds no wA or wE, so the only
    take is the single General wG; no pass."""
    found = advise(BGA, WAITING, "wG", "drawer")
    assert found.forced and shown(found) == [("general", "wG", 1)]
    assert found.options[0].forced and found.options[0].follow is not None


def test_drawn_flower_must_be_taken():
    """cardavia-flowers: a drawn flower must be melded too (docs/rules.md#fl-must-take)."""
    found = advise(FLOWERS, WAITING, "F2", "drawer")
    assert found.forced and shown(found) == [("flower", "F2", 1)]


# PAIR_C with wE for yH: the next seat can meld a turned-up wG into the command wG wA wE (and then discard yC,
# leaving 17 cards in melds: waiting) or take it alone as a `general`; both are chi-type claims (priority 1).
COMMAND_WAITS = "rG rA rE yG yA yE gC gH gP wC wH wP rC rC yS gS wS yC wE wA"
# Three white Generals: with a fourth they are a general_quad, a quad claim (priority 2).
THREE_WG = "rG rA rE yG yA yE gC gH gP wC wH wP rC rC rC yS gS wG wG wG"


def test_a_next_seats_claim_on_a_turned_up_general_is_never_advised_nor_charged():
    """A General is never discarded, so a public wG was turned up; its drawer must take it, can always take it
    alone as a `general` (chi-type), and a tie in priority goes to the drawer (docs/rules.md#fc-must-take,
    #fc-priority). The next seat's command and general claims (chi-type too) therefore never take the card: the
    round goes on as if it passed. Pass is the advice, and each claim is worth exactly what passing is worth, so a
    review charges nothing whichever the seat answered."""
    found = advise(BGA, COMMAND_WAITS, "wG", "next")
    assert [o.kind for o in found.options] == ["pass", "command", "general"]
    passing, *claims = found.options
    assert passing.rank == 1 and not passing.preempted and passing.value is not None
    pricing = Pricing.of(get_ruleset(BGA), get_ruleset(BGA).resolve_options(None), 4)
    for claim in claims:
        assert claim.preempted and claim.rank > 1 and claim.value == passing.value
        assert (claim.distance, claim.waits, claim.follow) == (passing.distance, passing.waits, None)
        assert "drawer" in claim.reason
        assert pricing.price(passing, claim, found.unseen_total)["expected_loss"] == 0


def test_a_claim_above_the_drawers_take_still_contests_a_turned_up_general():
    """Four identical Generals are a general_quad, claimed with quad priority (2) above the drawer's chi-type take
    (1, docs/rules.md#fc-priority): that claim can take the card, so it is advised on its merits."""
    found = advise(BGA, THREE_WG, "wG", "next")
    quad = next(o for o in found.options if o.kind == "general_quad")
    assert not quad.preempted and quad.follow is not None


@pytest.mark.parametrize(("must_take", "preempted"), [(True, True), (False, False)])
def test_flowers_next_seats_mixed_meld_on_a_drawn_general_follows_the_must_take_option(must_take, preempted):
    """cardavia-flowers: the drawer's own meld (priority 2) outranks the next player's mixed meld (1,
    docs/rules.md#fl-priority). Where the drawer must meld a drawn General (docs/rules.md#fl-must-take, the default)
    the next seat's command never takes it; where he may pass it, the command is a real chance."""
    found = advise(FLOWERS, COMMAND_WAITS, "wG", "next", options={"must_take_drawn_general": must_take})
    command = next(o for o in found.options if o.kind == "command")
    assert command.preempted is preempted
    if preempted:
        assert found.options[0].kind == "pass" and command.value == found.options[0].value
    else:
        assert command.follow is not None


def test_discarder_may_only_pass():
    """Nobody claims his own discard (docs/rules.md#fc-claims): the discarder's only option is to pass."""
    assert [o.kind for o in advise(BGA, PAIR_C, "rC", "discarder").options] == ["pass"]


@pytest.mark.parametrize(("hand", "public", "field"), [
    ("rA rA rA rA", "rC", "hand"),
    (WAITING, None, "hand"),
])
def test_a_claim_decision_needs_the_resting_hand_and_the_public_card(hand, public, field):
    """20 cards over hand and exposed melds plus the public card; anything else is refused naming the hand."""
    rs = get_ruleset(BGA)
    o = rs.resolve_options(None)
    with pytest.raises(DomainError) as raised:
        analyse_claims(rs, rs.parse(o, hand.split(), [], public), o, "other", [], 4)
    assert raised.value.field == field


def test_public_card_counts_as_seen():
    """The public card is gone from the stock whoever takes it: with yP public, three more visible copies make
    the four of the deck (docs/rules.md#fc-cards), and a fourth visible one is impossible and named."""
    assert advise(BGA, WAITING, "yP", "other", visible="yP yP yP").options[0].kind == "hu"
    with pytest.raises(DomainError) as raised:
        advise(BGA, WAITING, "yP", "other", visible="yP yP yP yP")
    assert raised.value.field == "visible.3" and raised.value.code == "impossible_card_count"


# --- property ---------------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([BGA, FLOWERS]), st.sampled_from(["drawer", "next", "other",
                                                                                "discarder"]),
       st.integers(0, 3))
def test_every_option_is_a_legal_claim_with_a_legal_follow_up(seed, ruleset_id, role, copies):
    """Random resting hands holding 0-3 copies of the public card: each non-pass option is one of the engine's
    legal claims, each claim is offered, its follow-up discard is a card of the hand after the claim that may be
    discarded, pass is offered unless the take is forced, passing keeps the hand's own distance, and the options
    come in `claim_rank_key` order."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(None)
    public, hand, seen = offered(random.Random(seed), rs.deck(), 20, copies)
    parsed = rs.parse(o, [rs.card_code(c) for c in hand], [], rs.card_code(public))
    found = analyse_claims(rs, parsed, o, role, [rs.card_code(c) for c in seen], 4)
    legal, forced = rs.legal_claims(parsed, role, o)
    taken = [x for x in found.options if x.kind != "pass"]
    passing_distance = next((x.distance for x in found.options if x.kind == "pass"), None)
    assert sorted(map(repr, (x.claim for x in taken))) == sorted(map(repr, legal))
    assert found.forced == forced and any(x.kind == "pass" for x in found.options) == (not forced)
    for option in taken:
        if option.claim.meld is None:
            assert option.follow is None and option.distance == -1
            continue
        # A General or flower is only ever public as a turned-up card, which its drawer must take: another seat's
        # chi-type (flowers: mixed) claim, no higher than the drawer's own take, never gets it (fc-priority).
        turned_up = code(public)[1:] == "G" or code(public).startswith("F")
        assert option.preempted == (turned_up and role != "drawer" and option.claim.priority_class in ("chi",
                                                                                                      "next_mixed"))
        if option.preempted:
            assert option.follow is None and option.distance == passing_distance
            continue
        after = after_claim(parsed, option.claim)
        assert option.follow is not None and option.follow.card in rs.discardable(after.concealed.cards())
    for option in found.options:
        if option.kind == "pass":
            assert option.distance == distance(parsed.concealed, rs.meld_rules(o), parsed.exposed)
    keys = [claim_rank_key(x) for x in found.options]
    assert keys == sorted(keys) and [x.rank for x in found.options][0] == 1


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([BGA, FLOWERS]))
def test_passing_keeps_the_figures_of_the_hand_as_it_stands(seed, ruleset_id):
    """Brute force on the resting hand R (20 cards) a pass leaves: its waits are the cards c with R + c hu
    (within the copies left), and, when it is not waiting, its improving cards are the unseen y for which some
    card z that may be discarded (never a General or a flower) leaves R + y - z one replacement closer."""
    rs = get_ruleset(ruleset_id)
    o = rs.resolve_options(None)
    rules = rs.meld_rules(o)
    rng = random.Random(seed)
    deck = rs.deck()
    rng.shuffle(deck)
    public, hand = deck[0], deck[1:21]
    parsed = rs.parse(o, [rs.card_code(c) for c in hand], [], rs.card_code(public))
    passing = next(x for x in analyse_claims(rs, parsed, o, "other", [], 4).options if x.kind == "pass")
    tally = parsed.concealed
    unseen = Counter(deck[21:])
    if passing.distance == 0:
        winning = [c for c in sorted(set(rs.deck())) if tally.count(c) < deck.count(c)
                   and rs.hu(type(parsed)(tally, (), c), o).hu]
        assert [w.card for w in passing.waits] == winning
        return
    improving = []
    for y in sorted(unseen):
        grown = tally.copy()
        grown.add(y)
        for z in rs.discardable(grown.cards()):
            grown.remove(z)
            closer = distance(grown, rules) == passing.distance - 1
            grown.add(z)
            if closer:
                improving.append((y, unseen[y]))
                break
    assert list(passing.improving) == improving
