"""The Four Color Cards audit on simulated logs (STYLE.md "Tests": a simulated log always audits clean; a
mutated log never does).

Every simulated round must replay without a violation and reproduce its recorded result. Each mutation
changes, inserts or appends one event of a simulated log, found by scanning the logs with `walk`, and must be
flagged first at exactly that event with the code of the rule it breaks (service/replay/violations.py).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.replay.audit import audit
from service.rules.fourcolor.cards import CHESS_CODES
from tests.support.fourcolor_logs import (
    BGA,
    FLOWERS,
    POLICIES,
    TABLES,
    Moment,
    is_flower,
    is_general,
    mutated,
    role,
    simulated,
    walk,
)

SEEDS = 60
TABLE_IDS = [f"{r}-{s}" for r, s in TABLES]


# -- simulated logs audit clean --------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("ruleset_id", "seats"), TABLES, ids=TABLE_IDS)
@pytest.mark.slow  # over 2 s on 2 cores
def test_simulated_logs_audit_clean(ruleset_id, seats, policy):
    """docs/rules.md#fc-turn: every simulated round is legal and its recorded result is the replay's."""
    for seed, log in enumerate(simulated(ruleset_id, seats, policy, SEEDS)):
        result = audit(log)
        assert result.violations == (), (seed, result.violations[:3])
        assert result.valid and result.recorded_result_matches, seed
        assert result.events == len(log["events"])
        assert result.outcome["type"] == log["result"]["type"] in ("hu", "draw"), seed
        if log["result"]["type"] == "hu":
            assert sum(result.outcome["deltas"]) == 0, seed


@pytest.mark.parametrize("ruleset_id", [BGA, FLOWERS])
def test_outcome_mix_is_not_degenerate(ruleset_id):
    """The simulated rounds end every way the rules allow: hu on a claim, forced end, stock exhausted."""
    endings: Counter = Counter()
    for table_ruleset, seats in TABLES:
        if table_ruleset != ruleset_id:
            continue
        for policy in POLICIES:
            for log in simulated(ruleset_id, seats, policy, SEEDS):
                last = log["events"][-1]["type"]
                kind = log["result"]["type"]
                endings["hu" if kind == "hu" and last == "hu" else "forced_end" if kind == "hu" else kind] += 1
    total = sum(endings.values())
    assert endings["hu"] >= total // 10 and endings["draw"] >= total // 20, endings
    if ruleset_id == BGA:
        assert endings["forced_end"] >= 1, endings


# -- single-event mutations -----------------------------------------------------------------------------------
Found = Iterator[tuple[dict, int]]


def after_public_card(log: dict) -> Iterator[Moment]:
    """Moments just after a discard or a draw put a public card on offer (no claims made on it yet)."""
    events = log["events"]
    for m in walk(log):
        if m.index > 0 and events[m.index - 1]["type"] in ("discard", "draw"):
            yield m


def pairable(card: str, ruleset_id: str) -> bool:
    """Two copies make a `pair` (docs/rules.md#fc-melds: never Generals; Soldiers only in flowers)."""
    return not (is_general(card) or is_flower(card) or (card[1] == "S" and ruleset_id == BGA))


def general_discard(log: dict) -> Found:
    """A seat holding a General discards it instead of the card it discarded."""
    for m in walk(log):
        e = m.event
        if e["type"] == "discard" and not is_general(e["card"]):
            held = [c for c, n in m.hands[e["seat"]].items() if n and is_general(c)]
            if held:
                yield mutated(log, m.index, {**e, "card": held[0]}), m.index


def flower_discard(log: dict) -> Found:
    """A seat holding a flower discards it (cardavia-flowers)."""
    for m in walk(log):
        e = m.event
        if e["type"] == "discard":
            held = [c for c, n in m.hands[e["seat"]].items() if n and is_flower(c)]
            if held:
                yield mutated(log, m.index, {**e, "card": held[0]}), m.index


def not_in_hand(log: dict) -> Found:
    """A discard of a chess card (not a General) the seat does not hold."""
    for m in walk(log):
        e = m.event
        if e["type"] == "discard":
            absent = [c for c in CHESS_CODES if not is_general(c) and m.hands[e["seat"]][c] == 0]
            yield mutated(log, m.index, {**e, "card": absent[0]}), m.index


def draw_out_of_order(log: dict) -> Found:
    """The next stock card turned up by a seat other than the next in seat order."""
    for m in walk(log):
        if m.event["type"] == "draw":
            seat = (m.event["seat"] + 1) % log["seats"]
            yield mutated(log, m.index, {**m.event, "seat": seat}), m.index


def draw_mismatch(log: dict) -> Found:
    """A draw showing a card other than the next stock card."""
    for m in walk(log):
        if m.event["type"] == "draw":
            other = next(c for c in CHESS_CODES if c != log["stock"][m.drawn] and not is_general(c))
            yield mutated(log, m.index, {**m.event, "card": other}), m.index


def false_hu(log: dict) -> Found:
    """A hu on a discard by the next seat, who did not claim hu: the simulated players always claim an
    available hu, so his hand plus the card does not split into melds."""
    for m in after_public_card(log):
        card, source, origin = m.public
        seat = (origin + 1) % log["seats"]
        hus = [e for e in log["events"][m.index:] if e["type"] == "hu" and e["seat"] == seat]
        if source == "discard" and not hus:
            yield mutated(log, m.index, insert={"seat": seat, "type": "hu"}), m.index


def pair_claim(log: dict, wanted: str) -> Found:
    """A `pair` claim, with a copy from hand, by a seat of role `wanted` on the public card."""
    for m in after_public_card(log):
        card = m.public[0]
        for seat in range(log["seats"]):
            if role(seat, m.public, log["seats"]) == wanted and m.hands[seat][card] and pairable(card, log["ruleset"]):
                claim = {"seat": seat, "type": "claim", "meld": "pair", "cards": [card, card]}
                yield mutated(log, m.index, insert=claim), m.index


def ineligible_claim(log: dict) -> Found:
    """A chi-type claim (pair) by a seat that is neither the drawer nor the next player."""
    return pair_claim(log, "other")


def own_discard_claim(log: dict) -> Found:
    """A pair claim on one's own discard."""
    return pair_claim(log, "discarder")


def misnamed_meld(log: dict) -> Found:
    """A claim naming a meld its cards do not form (a pair called a triple, anything else called a pair)."""
    for m in walk(log):
        e = m.event
        if e["type"] == "claim":
            yield mutated(log, m.index, {**e, "meld": "triple" if e["meld"] == "pair" else "pair"}), m.index


def meld_with_a_foreign_card(log: dict) -> Found:
    """A claim whose cards, one changed, form no meld: the new card differs from the public card in colour and
    character and is neither a General nor a Soldier, so no meld of docs/rules.md#fc-melds holds both."""
    for m in walk(log):
        e = m.event
        if e["type"] == "claim" and len(e["cards"]) > 1:
            public = m.public[0]
            cards = list(e["cards"])
            at = max(i for i, c in enumerate(cards) if c != public or cards.count(public) > 1)
            cards[at] = next(c for c in CHESS_CODES if c[0] != public[0] and c[1] not in ("G", "S", public[1]))
            yield mutated(log, m.index, {**e, "cards": cards}), m.index


def unnamed(event: dict) -> dict:
    """A claim event with its meld name left out (the log format makes `meld` optional)."""
    return {k: v for k, v in event.items() if k != "meld"}


def unnamed_meld(log: dict) -> Found:
    """A claim of a real meld that names no meld: the claimed cards must form the named meld."""
    for m in walk(log):
        if m.event["type"] == "claim":
            yield mutated(log, m.index, unnamed(m.event)), m.index


def unnamed_foreign_cards(log: dict) -> Found:
    """A claim naming no meld whose cards form none (one card changed as in `meld_with_a_foreign_card`)."""
    for changed, index in meld_with_a_foreign_card(log):
        changed["events"][index] = unnamed(changed["events"][index])
        yield changed, index


def lower_priority_claim(log: dict) -> Found:
    """After simultaneous claims, the discard comes from a seat whose legal claim lost."""
    for m in walk(log):
        e = m.event
        losers = {c["seat"] for _, c in m.claims} - {e["seat"]}
        if e["type"] == "discard" and losers:
            loser = min(losers)
            card = next(c for c, n in m.hands[loser].items() if n and not is_general(c) and not is_flower(c))
            yield mutated(log, m.index, {**e, "seat": loser, "card": card}), m.index


def general_not_taken(log: dict) -> Found:
    """A turned-up General left to lie: the drawer's claim is replaced by the next player's draw."""
    events = log["events"]
    for m in after_public_card(log):
        card, source, drawer = m.public
        claims = [e for e in events[m.index:m.index + 2] if e["type"] in ("claim", "hu")]
        if source == "draw" and is_general(card) and len(claims) == 1 and m.drawn < len(log["stock"]):
            draw = {"seat": (drawer + 1) % log["seats"], "type": "draw", "card": log["stock"][m.drawn]}
            yield mutated(log, m.index, draw), m.index


def general_taken_by_the_next_seat(log: dict) -> Found:
    """bga-taiwan: the drawer's claim on his General replaced by the next player's `general` meld, a chi-type
    claim no higher than the drawer's own take."""
    events = log["events"]
    for m in after_public_card(log):
        card, source, drawer = m.public
        claims = [e for e in events[m.index:m.index + 2] if e["type"] in ("claim", "hu")]
        if source == "draw" and is_general(card) and len(claims) == 1:
            take = {"seat": (drawer + 1) % log["seats"], "type": "claim", "meld": "general", "cards": [card]}
            yield mutated(log, m.index, take), m.index


def event_after_end(log: dict) -> Found:
    """An event after the round ended with a hu (declared or forced)."""
    if log["result"]["type"] == "hu":
        n = len(log["events"])
        yield mutated(log, n, insert={"seat": 0, "type": "draw"}), n


#: case -> (violation code expected at the mutated event, scan)
MUTATIONS: dict[str, tuple[str, Callable[[dict], Found]]] = {
    "general_discarded": ("general_discard", general_discard),
    "flower_discarded": ("flower_discard", flower_discard),
    "discard_not_in_hand": ("not_in_hand", not_in_hand),
    "draw_by_the_wrong_seat": ("draw_out_of_order", draw_out_of_order),
    "draw_not_the_next_stock_card": ("draw_mismatch", draw_mismatch),
    "hu_on_a_hand_that_does_not_win": ("false_hu", false_hu),
    "pair_claimed_by_another_seat": ("ineligible_claim", ineligible_claim),
    "claim_on_own_discard": ("own_discard_claim", own_discard_claim),
    "meld_misnamed": ("invalid_meld", misnamed_meld),
    "meld_with_a_foreign_card": ("invalid_meld", meld_with_a_foreign_card),
    "claim_naming_no_meld": ("invalid_meld", unnamed_meld),
    "claim_naming_no_meld_of_cards_forming_none": ("invalid_meld", unnamed_foreign_cards),
    "discard_by_the_losing_claimant": ("lower_priority_claim", lower_priority_claim),
    "drawn_general_left": ("general_not_taken", general_not_taken),
    "drawn_general_taken_by_the_next_seat": ("general_not_taken", general_taken_by_the_next_seat),
    "event_after_the_end": ("event_after_end", event_after_end),
}
PER_TABLE = 15  # mutated logs checked per mutation and table, each from a different simulated log


def cases() -> list[object]:
    """(mutation, rule-set, seats) for every table the mutation applies to."""
    out = []
    for name in MUTATIONS:
        for ruleset_id, seats in TABLES:
            if name == "flower_discarded" and ruleset_id != FLOWERS:
                continue  # bga-taiwan has no flowers
            if name == "pair_claimed_by_another_seat" and seats < 3:
                continue  # two seats: the other player is always the next one
            if name == "drawn_general_taken_by_the_next_seat" and ruleset_id == FLOWERS:
                continue  # flowers: the next player may not claim a lone General at all (ineligible_claim)
            out.append(pytest.param(name, ruleset_id, seats, id=f"{name}-{ruleset_id}-{seats}"))
    return out


@pytest.mark.parametrize(("name", "ruleset_id", "seats"), cases())
def test_mutation_is_flagged_at_the_mutated_event(name, ruleset_id, seats):
    """docs/rules.md#fourcolor: each broken rule is reported first at the event that breaks it, with its code."""
    code, scan = MUTATIONS[name]
    checked = 0
    greedy, random = (simulated(ruleset_id, seats, policy, SEEDS) for policy in POLICIES)
    for log in (log for pair in zip(greedy, random) for log in pair):  # both kinds of player in turn
        found = next(scan(log), None)
        if found is None:
            continue
        bad, index = found
        result = audit(bad)
        assert not result.valid
        assert (result.violations[0].event, result.violations[0].code) == (index, code), result.violations[:3]
        assert result.violations[0].seat == bad["events"][index]["seat"]
        checked += 1
        if checked == PER_TABLE:
            break
    assert checked >= 1, f"no simulated {ruleset_id} log offers the mutation {name}"


@pytest.mark.parametrize(("ruleset_id", "seats"), TABLES, ids=TABLE_IDS)
def test_altered_result_is_a_mismatch(ruleset_id, seats):
    """docs/rules.md#logs-result: `result` is what the source recorded; the audit compares it."""
    for log in simulated(ruleset_id, seats, "greedy", 10):
        bad = copy.deepcopy(log)
        if log["result"]["type"] == "hu":
            bad["result"]["points"] += 1
        else:
            bad["result"] = {"type": "hu", "winner": 0}
        result = audit(bad)
        assert result.recorded_result_matches is False and not result.valid
        assert [(v.event, v.seat, v.code) for v in result.violations] == [(None, None, "result_mismatch")]


# -- property: a discard of a card the seat does not hold ---------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_discard_of_a_card_not_held_is_flagged(data):
    """docs/rules.md#fc-turn: the claimant (or dealer) discards one card from hand; any card he does not hold is
    flagged."""
    ruleset_id, seats = data.draw(st.sampled_from(TABLES))
    log = data.draw(st.sampled_from(simulated(ruleset_id, seats, data.draw(st.sampled_from(POLICIES)), 20)))
    discards = [m for m in walk(log) if m.event["type"] == "discard"]
    m = data.draw(st.sampled_from(discards))
    hand = m.hands[m.event["seat"]]
    card = data.draw(st.sampled_from([c for c in CHESS_CODES if not is_general(c) and hand[c] == 0]))
    result = audit(mutated(log, m.index, {**m.event, "card": card}))
    assert (result.violations[0].event, result.violations[0].code) == (m.index, "not_in_hand")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_draw_of_another_card_is_flagged(data):
    """docs/rules.md#logs-draw: a draw's card must be the next stock card."""
    ruleset_id, seats = data.draw(st.sampled_from(TABLES))
    log = data.draw(st.sampled_from(simulated(ruleset_id, seats, data.draw(st.sampled_from(POLICIES)), 20)))
    m = data.draw(st.sampled_from([m for m in walk(log) if m.event["type"] == "draw"]))
    card = data.draw(st.sampled_from([c for c in CHESS_CODES if c != log["stock"][m.drawn]]))
    result = audit(mutated(log, m.index, {**m.event, "card": card}))
    assert (result.violations[0].event, result.violations[0].code) == (m.index, "draw_mismatch")
