"""Claim decisions in the replay review (`service/replay/decisions.py`): each seat's answer to a public card on
which it had a legal claim or win (its claim, its win or its pass) rated against `analyse_claims` on the position
it saw, with the advised option and the answer's rank worked out by hand, and the expected loss priced in the
value model's points (tests/api/test_review_pricing.py checks the values against /v1/claims)."""

from __future__ import annotations

import random

import pytest

from service.replay.decisions import ReviewSettings
from service.replay.reviewers import review
from service.rules.fourcolor.cards import CHESS_CODES
from service.search.review import deep_rating
from tests.support.chan_logs import deal
from tests.support.logs import simulated_logs
from tests.support.review import priced_as_documented

EXACT = ReviewSettings("exact")
BGA = "bga-taiwan"
# Commands rGAE yGAE, fields gCHP wCHP, soldiers3 yS gS wS, the pair rC rC, yC yH and the lone wA: one replacement
# from waiting. The triple rC leaves yC yH waiting on yP after discarding wA: commands 2 + 2, fields 1 + 1 + 1,
# exposed triple 1, soldiers3 3 = 11 points, each of three opponents pays (11 - 10) + 1: gain 6.
PAIR_C = "rG rA rE yG yA yE gC gH gP wC wH wP rC rC yS gS wS yC yH wA".split()
# Nine pairs (rC rH rP twice as two fields) and gC gH: waiting on gP for 3 points, under the threshold: the
# caller pays each of three opponents 10 + 1 = -33.
LOW = "rA rA rE rE rC rC rH rH rP rP yA yA yE yE yC yC yH yH gC gH".split()


def bga_log(seat2: list[str], opening: str, events: list[dict]) -> dict:
    """A 4-seat bga-taiwan round: seat 2 holds `seat2`; the dealer (seat 0) holds `opening` and 20 shuffled
    cards, opens by discarding it; then `events`."""
    deck = list(CHESS_CODES) * 4
    for card in [*seat2, opening]:
        deck.remove(card)
    random.Random(3).shuffle(deck)
    hands = [[opening, *deck[:20]], deck[20:40], seat2, deck[40:60]]
    return {"ruleset": BGA, "seats": 4, "dealer": 0, "hands": hands, "stock": deck[60:],
            "events": [{"seat": 0, "type": "discard", "card": opening}, *events]}


def claim_decision(seats: list[dict], seat: int, event: int) -> dict:
    """The seat's rated answer to the card put on offer by `event`."""
    [found] = [d for d in seats[seat]["claim_decisions"] if d["event"] == event]
    return found


def test_passing_up_a_triple_that_completes_a_wait_is_a_costly_disagreement():
    """Seat 2 (other: seat 1 is next) lets the dealer's rC go. The triple then wA waits on yP: 4 unseen of the 91
    cards seat 2 has not seen (112 - his 20 - the public rC), each worth 6 (a one-card expected gain of 4 x 6 /
    91), where passing stays one replacement away (none): the loss is the triple's value minus passing's."""
    found, seats = review(bga_log(PAIR_C, "rC", [{"seat": 1, "type": "draw"}]), EXACT)
    assert found.valid, found.violations
    decision = claim_decision(seats, 2, 0)
    assert (decision["answer"], decision["best"], decision["best_cards"]) == ("pass", "triple", ["rC"] * 3)
    assert decision["role"] == "other" and not decision["agreed"] and decision["rank"] == 2
    gains = {r["kind"]: r["expected_gain"] for r in decision["ranking"]}
    assert (gains["triple"], gains["pass"]) == (pytest.approx(24 / 91, abs=1e-4), 0)
    assert decision["loss_unit"] == "points" and decision["expected_loss"] > 0
    assert decision["expected_loss"] == round(decision["best_value"] - decision["value"], 4)
    summary = seats[2]["review"]
    assert summary["claims"]["decisions"] == 1 and summary["claims"]["agreement_rate"] == 0
    assert summary["claims"]["mean_loss"] == decision["expected_loss"]
    assert summary["claims"]["costliest"] == [{"event": 0, "card": "rC", "answer": "pass", "best": "triple",
                                               "expected_loss": decision["expected_loss"], "loss_unit": "points"}]
    assert summary["overall"]["decisions"] == summary["decisions"] + 1
    assert summary["overall"]["expected_loss"] == pytest.approx(
        summary["expected_loss"] + decision["expected_loss"], abs=1e-3)


def test_taking_the_triple_agrees():
    """The same card claimed into the triple, then wA discarded: the advice, no loss; the discard is rated too."""
    log = bga_log(PAIR_C, "rC", [{"seat": 2, "type": "claim", "meld": "triple", "cards": ["rC", "rC", "rC"]},
                                 {"seat": 2, "type": "discard", "card": "wA"}])
    found, seats = review(log, EXACT)
    assert found.valid, found.violations
    decision = claim_decision(seats, 2, 0)
    assert (decision["answer"], decision["cards"], decision["agreed"], decision["expected_loss"]) == (
        "triple", ["rC"] * 3, True, 0)
    assert [d["card"] for d in seats[2]["decisions"]] == ["wA"] and seats[2]["decisions"][0]["agreed"]


def test_hu_under_the_threshold_is_a_disagreement():
    """Seat 2 calls hu on gP for 3 points: it pays 33 (docs/rules.md#fc-settlement), where passing keeps the
    wait. A win is worth its settlement, -33: the loss is passing's value + 33."""
    found, seats = review(bga_log(LOW, "gP", [{"seat": 2, "type": "hu"}]), EXACT)
    assert found.valid and found.outcome["deltas"][2] == -33
    decision = claim_decision(seats, 2, 0)
    assert (decision["answer"], decision["best"], decision["rank"]) == ("hu", "pass", 2)
    assert decision["value"] == -33 and decision["loss_unit"] == "points"
    assert decision["expected_loss"] == round(decision["best_value"] + 33, 4) > 0


def test_only_seats_with_a_legal_claim_are_rated():
    """Nobody claims the dealer's rC: the seats rated on it are exactly those listed as having passed up a claim
    or win on it (the engine's legal claims for their role), seat 2 among them, never the discarder (nobody
    claims his own discard, docs/rules.md#fc-claims)."""
    _, seats = review(bga_log(PAIR_C, "rC", [{"seat": 1, "type": "draw"}]), EXACT)
    rated = {s["seat"] for s in seats for d in s["claim_decisions"] if d["event"] == 0}
    passed = {s["seat"] for s in seats for p in s["review"]["passes"] if p["event"] == 0}
    assert rated == passed and 2 in rated and 0 not in rated


def test_review_off_rates_no_claims():
    """mode none: no claim decisions either."""
    _, seats = review(bga_log(PAIR_C, "rC", [{"seat": 1, "type": "draw"}]), ReviewSettings("none"))
    assert all(s["claim_decisions"] is None and s["review"] is None for s in seats)


# 5 Chắn (2m 3s 4c 6m 7s), 4 Cạ (2s-2c 4m-4s 5m-5s 6s-6c) and 9c, no red card: waiting on 9c.
NINE_C = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 2s 2c 4m 4s 5m 5s 6s 6c 9c"
# 5 Chắn, 3 Cạ and the lone 6s 9c 8m: the Cạ 6s-6c then discarding 8m waits on 9c.
THREE_LONE = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 2s 2c 4m 4s 5m 5s 6s 9c 8m"


def test_chan_win_passed_up_at_his_own_gate():
    """Seat 1 turns up 9c at his own gate and lets it go. The win: Bạch định 7 + Bạch thủ dịch 1 + Ù chì dịch 1
    = 9 from each of three losers, 27, its value. Passing keeps the wait on 9c: 2 unseen copies of the 79 cards
    he has not seen (100 - his 19 - the public 9c - the discarded 8m), each worth 3 x 8 on another gate's stock
    card: a one-card expected gain of 48 / 79. Expected loss 27 minus passing's value."""
    log = deal({0: "8m", 1: NINE_C}, stock="9c")
    log["events"] = [{"seat": 0, "type": "discard", "card": "8m"}, {"seat": 1, "type": "draw"},
                     {"seat": 2, "type": "draw"}]
    found, seats = review(log, EXACT)
    assert found.valid, found.violations
    decision = claim_decision(seats, 1, 1)
    assert (decision["answer"], decision["best"], decision["role"]) == ("pass", "win", "drawer")
    assert decision["ranking"][0]["gain"] == 27 and decision["best_value"] == 27
    passing = next(r for r in decision["ranking"] if r["kind"] == "pass")
    assert passing["expected_gain"] == pytest.approx(48 / 79, abs=1e-4) and passing["value"] == decision["value"]
    assert decision["expected_loss"] == round(27 - decision["value"], 4) > 0


def test_chan_capture_that_completes_a_wait_agrees():
    """Seat 1 (next) captures the dealer's 6c with 6s as a Cạ and discards 8m, waiting on 9c: the advice."""
    log = deal({0: "6c", 1: THREE_LONE})
    log["events"] = [{"seat": 0, "type": "discard", "card": "6c"},
                     {"seat": 1, "type": "capture", "meld": "ca", "cards": ["6s", "6c"]},
                     {"seat": 1, "type": "discard", "card": "8m"}]
    found, seats = review(log, EXACT)
    assert found.valid, found.violations
    decision = claim_decision(seats, 1, 0)
    assert (decision["answer"], decision["cards"], decision["agreed"], decision["expected_loss"]) == (
        "ca", ["6s", "6c"], True, 0)


@pytest.mark.parametrize("log", simulated_logs()[::3], ids=lambda log: f"{log['ruleset']}-{log['seats']}")
def test_claim_decisions_of_legal_logs_are_consistent(log):
    """In legal simulated rounds: every claim and win a seat made on a public card is rated; ranks within the
    options, agreement is rank 1, losses never negative, the advice is ranked 1, and the per-seat claim figures
    and `overall` add up."""
    found, seats = review(log, EXACT)
    assert found.valid
    for seat in seats:
        answers = seat["claim_decisions"]
        made = [e for e in log["events"] if e["seat"] == seat["seat"]
                and e["type"] in ("claim", "hu", "capture", "chiu", "win")]
        assert len([d for d in answers if d["answer"] != "pass"]) == len(made)
        for d in answers:
            assert 1 <= d["rank"] <= d["options"]
            priced_as_documented(d)
            assert d["ranking"][0]["kind"] == d["best"] and d["ranking"][0]["rank"] == 1
            assert any(r["kind"] == d["answer"] and r["rank"] == d["rank"] for r in d["ranking"])
        summary = seat["review"]
        assert summary["claims"]["decisions"] == len(answers)
        assert summary["claims"]["agreed"] == sum(d["agreed"] for d in answers)
        assert summary["overall"]["decisions"] == summary["decisions"] + len(answers)
        assert summary["overall"]["expected_loss"] == pytest.approx(
            summary["expected_loss"] + summary["claims"]["expected_loss"], abs=1e-3)
        for figures in (summary["claims"], summary["overall"]):
            count = figures["decisions"]
            assert figures["mean_loss"] == (round(figures["expected_loss"] / count, 4) if count else 0)


def test_deep_mode_rates_claims_exactly():
    """Deep mode searches discards only: the claim decision is the exact one, to the digit."""
    log = bga_log(PAIR_C, "rC", [{"seat": 1, "type": "draw"}])
    deep = ReviewSettings("deep", samples=20, time_budget=5.0, seed=2, rater=deep_rating)
    _, exact = review(log, EXACT)
    _, searched = review(log, deep)
    assert searched[0]["decisions"][0]["deep"] is not None
    assert [s["claim_decisions"] for s in searched] == [s["claim_decisions"] for s in exact]
