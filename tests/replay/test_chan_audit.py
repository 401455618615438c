"""The Chắn audit on simulated logs (STYLE.md "Tests": a simulated log always audits clean; a mutated log never
does).

Every simulated round must replay without a violation and reproduce its recorded result. Each mutation changes
or inserts one event of a simulated log, found by scanning the logs with `walk` (which reads the rules from
docs/rules.md#chan itself, not from the engine), and must be flagged first at exactly that event with the code of the
rule it breaks (service/replay/violations.py). Positions simulation does not reach are in
test_chan_rule_cases.py.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.replay.audit import audit
from tests.support.chan_logs import FACES, POLICIES, Moment, broken_rules, same_value, simulated, walk, wins
from tests.support.fourcolor_logs import mutated

SEEDS = 150
PER_MUTATION = 8  # mutated logs checked per mutation, each from a different simulated log
Found = Iterator[tuple[dict, int]]


def pool() -> Iterator[tuple[str, int, dict]]:
    """Every simulated log, the two policies interleaved."""
    for seed in range(SEEDS):
        for policy in POLICIES:
            yield policy, seed, simulated(policy, SEEDS)[seed]


# -- simulated logs audit clean --------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
def test_simulated_logs_audit_clean(policy):
    """docs/rules.md#chan-turn: every simulated round is legal and its recorded result is the replay's."""
    for seed, log in enumerate(simulated(policy, SEEDS)):
        result = audit(log)
        assert result.violations == (), (seed, result.violations[:3])
        assert result.valid and result.recorded_result_matches, seed
        assert result.events == len(log["events"])
        assert result.outcome["type"] == log["result"]["type"] in ("win", "draw"), seed
        assert sum(result.outcome["deltas"]) == 0, seed


def test_outcome_mix_is_not_degenerate():
    """The simulated rounds end both ways (a win, an exhausted stock) and use Chíu and Cạ captures."""
    seen: Counter = Counter()
    for _, _, log in pool():
        events = log["events"]
        seen[log["result"]["type"]] += 1
        seen["chiu"] += any(e["type"] == "chiu" for e in events)
        seen["ca"] += any(e["type"] == "capture" and e["meld"] == "ca" for e in events)
        last = events[-2:] if log["result"]["type"] == "win" else []
        seen["own_gate_win"] += [e["type"] for e in last] == ["draw", "win"] and last[0]["seat"] == last[1]["seat"]
    total = 2 * SEEDS
    assert seen["win"] >= total // 4 and seen["draw"] >= total // 20, seen
    assert seen["chiu"] >= total // 20 and seen["ca"] >= total // 2 and seen["own_gate_win"] >= 1, seen


# -- single-event mutations -------------------------------------------------------------------------------------
def on_offer(log: dict) -> Iterator[Moment]:
    """Moments at which a public card is on offer (a claim inserted there is a claim on it)."""
    return (m for m in walk(log) if m.public is not None)


def discard_instead(log: dict, pick: Callable) -> Found:
    """Each discard replaced by the face `pick(seat state)` names, when it names one."""
    for m in walk(log):
        if m.event["type"] == "discard":
            face = pick(m.seats[m.event["seat"]])
            if face is not None:
                yield mutated(log, m.index, {**m.event, "card": face}), m.index


def not_in_hand(log: dict) -> Found:
    """A discard of a face the seat does not hold."""
    return discard_instead(log, lambda seat: next(f for f in FACES if not seat.hand[f]))


def breaks_pair(log: dict) -> Found:
    """Rule 2: a discard from an identical pair (two or four held), breaking no other rule."""
    return discard_instead(log, lambda seat: next(
        (f for f in FACES if seat.hand[f] in (2, 4) and f not in seat.passed
         and not (seat.captured_ca and any(same_value(f, d) for d in seat.discarded))), None))


def passed_face(log: dict) -> Found:
    """Rule 3: a discard (of an odd, otherwise legal face) whose identical capture the seat passed up."""
    return discard_instead(log, lambda seat: next(
        (f for f in sorted(seat.passed) if seat.hand[f] % 2
         and not (seat.captured_ca and any(same_value(f, d) for d in seat.discarded))), None))


def second_ca_card(log: dict) -> Found:
    """Rule 6: after a Cạ capture, discarding the second card of a Cạ (otherwise legal)."""
    return discard_instead(log, lambda seat: next(
        (f for f in FACES if seat.captured_ca and seat.hand[f] % 2 and f not in seat.passed
         and any(same_value(f, d) for d in seat.discarded)), None))


def draw_out_of_order(log: dict) -> Found:
    """The next stock card turned up by another seat than the one whose turn it is."""
    for m in walk(log):
        if m.event["type"] == "draw":
            yield mutated(log, m.index, {**m.event, "seat": (m.event["seat"] + 2) % 4}), m.index


def draw_mismatch(log: dict) -> Found:
    """A draw showing a card other than the next stock card."""
    for m in walk(log):
        if m.event["type"] == "draw":
            other = next(f for f in FACES if f != log["stock"][m.drawn])
            yield mutated(log, m.index, {**m.event, "card": other}), m.index


def claim_by(log: dict, kind: str, fits: Callable[[Moment, int], dict | None]) -> Found:
    """A claim of `kind` inserted on the card on offer, by the first seat for which `fits` gives its fields."""
    for m in on_offer(log):
        for seat in range(4):
            fields = fits(m, seat)
            if fields is not None:
                yield mutated(log, m.index, insert={"seat": seat, "type": kind, **fields}), m.index
                break


def win_on_discard(log: dict) -> Found:
    """A win on an ordinary discard whose card does complete the seat's hand (not a Chíu)."""
    def fits(m: Moment, seat: int) -> dict | None:
        card, source, gate = m.public
        ok = source == "discard" and seat != gate and m.seats[seat].hand[card] != 3 and wins(m.seats[seat], card)
        return {} if ok else None

    return claim_by(log, "win", fits)


def false_hu(log: dict) -> Found:
    """A win on a turned-up stock card that does not complete the seat's hand."""
    def fits(m: Moment, seat: int) -> dict | None:
        return {} if m.public[1] == "stock" and not wins(m.seats[seat], m.public[0]) else None

    return claim_by(log, "win", fits)


def false_chiu(log: dict) -> Found:
    """A Chíu by a seat holding only one or two of the card."""
    def fits(m: Moment, seat: int) -> dict | None:
        card, _, gate = m.public
        return {"cards": [card] * 4} if seat != gate and m.seats[seat].hand[card] in (1, 2) else None

    return claim_by(log, "chiu", fits)


def ineligible_claim(log: dict) -> Found:
    """A capture, legal but for the turn, by a seat that is neither the gate owner nor the next player."""
    def fits(m: Moment, seat: int) -> dict | None:
        card, _, gate = m.public
        if seat == gate or seat in m.capturers() or broken_rules(m.seats[seat], card, card):
            return None
        return {"meld": "chan", "cards": [card, card]} if m.seats[seat].hand[card] else None

    return claim_by(log, "capture", fits)


def capture_breaking(rule: int, kind: str = "", check: Callable[[Moment, int], bool] = lambda m, s: True
                     ) -> Callable[[dict], Found]:
    """A capture by a seat whose turn it is that breaks capture rule `rule` and no other (`kind`: chan/ca only)."""
    def fits(m: Moment, seat: int) -> dict | None:
        card, held = m.public[0], m.seats[seat].hand
        if seat not in m.capturers() or not check(m, seat):
            return None
        for mate in (f for f in FACES if held[f] and (f == card or same_value(f, card))):
            meld = "chan" if mate == card else "ca"
            if kind in ("", meld) and broken_rules(m.seats[seat], card, mate) == {rule}:
                return {"meld": meld, "cards": [card, mate]}
        return None

    return lambda log: claim_by(log, "capture", fits)


def discarded_before(m: Moment, seat: int) -> bool:
    """Rule 4 through a discard (not a card played into a Cạ)."""
    return m.public[0] in m.seats[seat].discarded


def played_into_ca(m: Moment, seat: int) -> bool:
    """Rule 4 through a card played from hand into a Cạ."""
    return m.public[0] in m.seats[seat].into_ca - m.seats[seat].discarded


MUTATIONS = [
    pytest.param(not_in_hand, "not_in_hand", id="discard_not_in_hand"),
    pytest.param(breaks_pair, "chan_capture_rule_2", id="rule2_discard_breaks_identical_pair"),
    pytest.param(passed_face, "chan_capture_rule_3", id="rule3_discard_of_passed_up_face"),
    pytest.param(second_ca_card, "chan_capture_rule_6", id="rule6_discard_second_card_of_ca_after_ca_capture"),
    pytest.param(draw_out_of_order, "draw_out_of_order", id="draw_out_of_turn"),
    pytest.param(draw_mismatch, "draw_mismatch", id="draw_not_in_stock_order"),
    pytest.param(win_on_discard, "win_on_discard", id="win_on_ordinary_discard"),
    pytest.param(false_hu, "false_hu", id="false_win"),
    pytest.param(false_chiu, "false_chiu", id="false_chiu"),
    pytest.param(ineligible_claim, "ineligible_claim", id="capture_by_other_seat"),
    pytest.param(capture_breaking(1), "chan_capture_rule_1", id="rule1_ca_while_holding_identical"),
    pytest.param(capture_breaking(2), "chan_capture_rule_2", id="rule2_ca_breaks_identical_pair"),
    pytest.param(capture_breaking(3), "chan_capture_rule_3", id="rule3_ca_with_passed_up_face"),
    pytest.param(capture_breaking(4, check=discarded_before), "chan_capture_rule_4", id="rule4_face_discarded"),
    pytest.param(capture_breaking(4, check=played_into_ca), "chan_capture_rule_4", id="rule4_face_played_into_ca"),
    pytest.param(capture_breaking(5), "chan_capture_rule_5", id="rule5_ca_at_value_held_or_one_unpaired"),
    pytest.param(capture_breaking(6), "chan_capture_rule_6", id="rule6_ca_after_discarding_both_suits"),
    pytest.param(capture_breaking(7, "chan"), "chan_capture_rule_7", id="rule7_chan_leaves_no_legal_discard"),
    pytest.param(capture_breaking(7, "ca"), "chan_capture_rule_7", id="rule7_ca_leaves_no_legal_discard"),
]


@pytest.mark.parametrize(("find", "code"), MUTATIONS)
@pytest.mark.slow  # over 2 s on 2 cores
def test_mutation_is_flagged_at_the_mutated_event(find, code):
    """One changed or inserted event: the first violation is at that event, with the rule it breaks."""
    checked = 0
    for policy, seed, log in pool():
        for bad, index in find(log):
            result = audit(bad)
            assert not result.valid, (policy, seed, index)
            first = result.violations[0]
            assert (first.event, first.seat, first.code) == (index, bad["events"][index]["seat"], code), \
                (policy, seed, index, result.violations[:3])
            checked += 1
            break
        if checked == PER_MUTATION:
            return
    pytest.fail(f"only {checked} simulated logs offer this mutation")


def test_altered_result_is_reported():
    """docs/rules.md#logs-result: a recorded result the rules do not give is flagged, the moves stay legal."""
    for policy, seed, log in pool():
        if log["result"]["type"] != "win":
            continue
        for key, value in (("points", log["result"]["points"] + 1), ("winner", (log["result"]["winner"] + 1) % 4),
                           ("deltas", [0, 0, 0, 0])):
            bad = copy.deepcopy(log)
            bad["result"][key] = value
            result = audit(bad)
            assert result.recorded_result_matches is False, (policy, seed, key)
            assert [(v.event, v.code) for v in result.violations] == [(None, "result_mismatch")]
            assert result.outcome["winner"] == log["result"]["winner"]
        return


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(POLICIES), st.integers(0, SEEDS - 1), st.integers(0, 10_000), st.sampled_from(FACES))
def test_any_discard_of_an_absent_face_or_any_misplaced_draw_is_flagged_there(policy, seed, pick, face):
    """Property: a discard turned into a face the seat lacks, or a draw moved to another seat, never audits
    clean, and the first violation is at that event."""
    log = simulated(policy, SEEDS)[seed]
    moments = [m for m in walk(log) if m.event["type"] in ("discard", "draw")]
    m = moments[pick % len(moments)]
    if m.event["type"] == "draw":
        bad, code = mutated(log, m.index, {**m.event, "seat": (m.event["seat"] + 1 + pick % 3) % 4}), \
            "draw_out_of_order"
    else:
        held = m.seats[m.event["seat"]].hand
        absent = face if not held[face] else next(f for f in FACES if not held[f])
        bad, code = mutated(log, m.index, {**m.event, "card": absent}), "not_in_hand"
    first = audit(bad).violations[0]
    assert (first.event, first.code) == (m.index, code)
