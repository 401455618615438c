"""The replay review prices a decision in the rule-set's own unit: the advised option's value minus the value of
the option played, each exactly as the public POST /v1/discards and POST /v1/claims answer it for the position the
player saw (the request built here from the log, never from the reviewer); the one-card expected gain where no
value model applies (docs/advice.md, "Decision review")."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from service.advice.value import load_model
from service.replay.decisions import ReviewSettings
from service.replay.reviewers import review
from service.replay.summary import engine_version, log_entry, player_totals, seat_names
from service.rules.fourcolor.cards import CHESS_CODES
from service.rules.registry import ENGINE_VERSION
from tests.support.chan_logs import CHAN, deal
from tests.support.fourcolor_logs import BGA, FLOWERS, simulated, walk

EXACT = ReviewSettings("exact")
# Commands rGAE yGAE, fields gCHP wCHP, soldiers3 yS gS wS, the pair rC rC, yC yH and the lone wA: one replacement
# from waiting (tests/replay/test_claim_review.py).
PAIR_C = "rG rA rE yG yA yE gC gH gP wC wH wP rC rC yS gS wS yC yH wA".split()
TRIPLE = {"seat": 2, "type": "claim", "meld": "triple", "cards": ["rC", "rC", "rC"]}
# What seat 2 has seen when it turns up rC: the dealer's gA and seat 1's wE, both let go.
SEEN = ["gA", "wE"]


def turned_up_rc(seats: int, *events: dict[str, Any]) -> dict[str, Any]:
    """A bga-taiwan round: the dealer opens with gA, seat 1 turns up wE, seat 2 (holding PAIR_C) turns up rC
    (nobody claims the first two); then `events`."""
    deck = list(CHESS_CODES) * 4
    for card in [*PAIR_C, *SEEN, "rC"]:
        deck.remove(card)
    random.Random(3).shuffle(deck)
    others = [deck[i * 20:(i + 1) * 20] for i in range(seats - 1)]
    hands = [["gA", *others[0]], others[1], PAIR_C, *others[2:]]
    return {"ruleset": BGA, "seats": seats, "dealer": 0, "hands": hands,
            "stock": ["wE", "rC", *deck[20 * (seats - 1):]],
            "events": [{"seat": 0, "type": "discard", "card": "gA"}, {"seat": 1, "type": "draw"},
                       {"seat": 2, "type": "draw"}, *events]}


def after_triple() -> list[str]:
    """Seat 2's concealed cards once the triple rC is exposed (about to discard): PAIR_C without its rC pair."""
    hand = list(PAIR_C)
    hand.remove("rC")
    hand.remove("rC")
    return hand


def discards_answer(client, seats: int, hand: list[str], exposed: list[dict], visible: list[str],
                    ruleset: str = BGA, seat: int = 2) -> dict[str, Any]:
    answer = client.post("/v1/discards", json={"ruleset": ruleset, "seats": seats, "seat": seat, "hand": hand,
                                               "exposed": exposed, "visible": visible})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def option(answer: dict[str, Any], card: str) -> dict[str, Any]:
    return next(d for d in answer["discards"] if d["card"] == card)


def reviewed(log: dict[str, Any], seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The seat's statistics and its only discard decision."""
    found, seats = review(log, EXACT)
    assert found.valid, found.violations
    [decision] = seats[seat]["decisions"]
    return seats[seat], decision


def test_a_discard_one_replacement_further_costs_the_value_difference(client):
    """After the triple, discarding yC leaves yH and wA loose: one replacement from waiting, where wA (the
    advice) leaves yC yH waiting on yP. The loss is wA's value minus yC's as /v1/discards gives them for seat 2's
    position (18 cards, the exposed triple, gA and wE seen: 112 - 21 - 2 = 89 unseen), in points, above 0."""
    stats, decision = reviewed(turned_up_rc(4, TRIPLE, {"seat": 2, "type": "discard", "card": "yC"}), 2)
    answer = discards_answer(client, 4, after_triple(), [{"kind": "triple", "cards": ["rC"] * 3}], SEEN)
    assert answer["unseen_total"] == 89 and answer["best"] == ["wA"]
    advised, played = answer["discards"][0], option(answer, "yC")
    assert (advised["distance"], played["distance"]) == (0, 1)
    assert (decision["card"], decision["distance"], decision["best_distance"]) == ("yC", 1, 0)
    assert (decision["value"], decision["best_value"]) == (played["value"], advised["value"])
    assert decision["expected_loss"] == round(advised["value"] - played["value"], 4) > 0
    assert decision["loss_unit"] == "points" and not decision["agreed"]
    review_ = stats["review"]
    assert review_["expected_loss"] == review_["mean_loss"] == decision["expected_loss"]
    assert review_["loss_unit"] == review_["claims"]["loss_unit"] == review_["overall"]["loss_unit"] == "points"


def test_the_advised_discard_agrees_and_costs_nothing(client):
    """Discarding wA after the triple is the advice: agreed, loss 0, its value the endpoint's."""
    _, decision = reviewed(turned_up_rc(4, TRIPLE, {"seat": 2, "type": "discard", "card": "wA"}), 2)
    answer = discards_answer(client, 4, after_triple(), [{"kind": "triple", "cards": ["rC"] * 3}], SEEN)
    assert decision["agreed"] and decision["expected_loss"] == 0
    assert decision["value"] == decision["best_value"] == option(answer, "wA")["value"]


def test_a_claim_passed_up_costs_the_value_difference(client):
    """Seat 2 lets its own rC go (seat 3 turns up the next card): the advice takes the triple (then wA waits on
    yP), passing stays one replacement away. The loss is the triple's value minus passing's, as /v1/claims gives
    them for the position (seat 2 the drawer of a stock card, gA and wE seen)."""
    found, seats = review(turned_up_rc(4, {"seat": 3, "type": "draw"}), EXACT)
    assert found.valid, found.violations
    [decision] = [d for d in seats[2]["claim_decisions"] if d["event"] == 2]
    answer = client.post("/v1/claims", json={"ruleset": BGA, "seats": 4, "seat": 2, "from_seat": 2,
                                             "card_source": "stock", "public_card": "rC", "hand": PAIR_C,
                                             "visible": SEEN}).get_json()
    assert answer["advice"] == "triple" and answer["seat_role"] == "drawer"
    passing = next(c for c in answer["choices"] if c["kind"] == "pass")
    advised = answer["choices"][0]
    assert (decision["answer"], decision["best"], decision["agreed"]) == ("pass", "triple", False)
    assert (decision["value"], decision["best_value"]) == (passing["value"], advised["value"])
    assert decision["expected_loss"] == round(advised["value"] - passing["value"], 4) > 0
    assert decision["loss_unit"] == "points"
    claims = seats[2]["review"]["claims"]
    assert claims["costliest"][0]["expected_loss"] == decision["expected_loss"]


def test_three_seats_fall_back_to_the_expected_gain(client):
    """No value model speaks of three seats: no values, the loss is the one-card expected gains' difference, in
    `expected_gain`. wA waits on yP, 4 unseen of 89, each worth (11 - 10 + 1) from each of two opponents = 4:
    16 / 89; yC waits on nothing."""
    stats, decision = reviewed(turned_up_rc(3, TRIPLE, {"seat": 2, "type": "discard", "card": "yC"}), 2)
    answer = discards_answer(client, 3, after_triple(), [{"kind": "triple", "cards": ["rC"] * 3}], SEEN)
    assert option(answer, "wA")["value"] is None
    assert (decision["value"], decision["best_value"], decision["loss_unit"]) == (None, None, "expected_gain")
    assert decision["expected_loss"] == pytest.approx(16 / 89, abs=1e-4)
    assert decision["expected_loss"] == round(
        option(answer, "wA")["expected_gain"] - option(answer, "yC")["expected_gain"], 4)
    assert stats["review"]["loss_unit"] == stats["review"]["overall"]["loss_unit"] == "expected_gain"


# Chắn (tests/replay/test_claim_review.py): 5 Chắn, 3 Cạ and the lone 6s 9c 8m; 5 Chắn, 4 Cạ and 9c.
THREE_LONE = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 2s 2c 4m 4s 5m 5s 6s 9c 8m"
NINE_C = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 2s 2c 4m 4s 5m 5s 6s 6c 9c"


def test_chan_discard_breaking_a_ca_costs_the_value_difference(client):
    """Seat 1 captures the dealer's 6c with 6s as a Cạ, then discards 5m: the Cạ 5m-5s broken, 5s and 9c lone, one
    replacement from waiting, where 8m (the advice) waits on 9c. Priced by /v1/discards on his position (18 cards,
    the Cạ exposed, nothing else seen, his history: 6s played into a Cạ, a Cạ captured), in points."""
    log = deal({0: "6c", 1: THREE_LONE})
    log["events"] = [{"seat": 0, "type": "discard", "card": "6c"},
                     {"seat": 1, "type": "capture", "meld": "ca", "cards": ["6s", "6c"]},
                     {"seat": 1, "type": "discard", "card": "5m"}]
    _, decision = reviewed(log, 1)
    hand = THREE_LONE.split()
    hand.remove("6s")
    answer = client.post("/v1/discards", json={
        "ruleset": CHAN, "seats": 4, "seat": 1, "hand": hand, "exposed": [{"kind": "ca", "cards": ["6s", "6c"]}],
        "visible": [], "history": {"played_into_ca": ["6s"], "captured_ca": True}}).get_json()
    advised, played = answer["discards"][0], option(answer, "5m")
    assert (advised["card"], advised["distance"], played["distance"]) == ("8m", 0, 1)
    assert (decision["distance"], decision["best_distance"]) == (1, 0)
    assert (decision["value"], decision["best_value"]) == (played["value"], advised["value"])
    assert decision["expected_loss"] == round(advised["value"] - played["value"], 4) > 0
    assert decision["loss_unit"] == "points"


def test_chan_win_passed_up_costs_the_win_minus_passing(client):
    """Seat 1 lets 9c go at his own gate: the win is worth its settlement (27), passing what /v1/claims values
    it at for the position (8m seen)."""
    log = deal({0: "8m", 1: NINE_C}, stock="9c")
    log["events"] = [{"seat": 0, "type": "discard", "card": "8m"}, {"seat": 1, "type": "draw"},
                     {"seat": 2, "type": "draw"}]
    found, seats = review(log, EXACT)
    assert found.valid, found.violations
    [decision] = [d for d in seats[1]["claim_decisions"] if d["event"] == 1]
    answer = client.post("/v1/claims", json={"ruleset": CHAN, "seats": 4, "seat": 1, "from_seat": 1,
                                             "card_source": "stock", "public_card": "9c", "hand": NINE_C.split(),
                                             "visible": ["8m"]}).get_json()
    win, passing = answer["choices"][0], next(c for c in answer["choices"] if c["kind"] == "pass")
    assert (win["kind"], win["value"], decision["best_value"]) == ("win", 27, 27)
    assert decision["value"] == passing["value"]
    assert decision["expected_loss"] == round(27 - passing["value"], 4) > 0


def test_summary_mean_loss_is_the_total_over_the_decisions():
    """Two games of one player (seat 2 in both): his mean loss is his total over his decisions, and so per seat."""
    logs = [turned_up_rc(4, TRIPLE, {"seat": 2, "type": "discard", "card": "yC"}),
            turned_up_rc(4, {"seat": 3, "type": "draw"})]
    entries = []
    for i, log in enumerate(logs):
        found, seats = review(log, EXACT)
        entries.append(log_entry(i, found, seats, seat_names([["a", "b", "ann", "c"]] * 2, i, 4)))
    ann = player_totals(entries)["ann"]
    assert ann["decisions"] == 1 and ann["claims"]["decisions"] == 2 and ann["overall"]["decisions"] == 3
    for figures in (ann, ann["claims"], ann["overall"]):
        assert figures["expected_loss"] > 0 and figures["loss_unit"] == "points"
        assert figures["mean_loss"] == round(figures["expected_loss"] / figures["decisions"], 4)
    assert ann["overall"]["expected_loss"] == pytest.approx(ann["expected_loss"] + ann["claims"]["expected_loss"])


def fourcolor_positions(log: dict[str, Any]) -> list[tuple[int, int, list[str], list[dict], list[str]]]:
    """Every discard of a legal Four Color Cards log as (event, seat, concealed cards, exposed melds, visible
    cards), followed from the log alone: a public card is seen by all until a claim takes it into a meld, whose
    other cards are then seen by everyone but the claimant (docs/rules.md#fc-turn)."""
    shown: list[str] = []
    exposed: list[list[dict]] = [[] for _ in log["hands"]]
    out = []
    for moment in walk(log):
        event = moment.event
        if event["type"] == "discard":
            seat = event["seat"]
            taken = [c for _, c in moment.claims if c["seat"] == seat and c["type"] == "claim"]
            if taken:
                exposed[seat].append({"kind": taken[0]["meld"], "cards": list(taken[0]["cards"])})
                shown.remove(moment.public[0])
            visible = shown + [c for s, melds in enumerate(exposed) if s != seat for m in melds for c in m["cards"]]
            hand = sorted(Counter(moment.hands[seat]).elements())
            out.append((moment.index, seat, hand, [dict(m) for m in exposed[seat]], visible))
            shown.append(event["card"])
        elif event["type"] == "draw":
            shown.append(event.get("card") or log["stock"][moment.drawn])
    return out


@pytest.mark.parametrize(("ruleset", "seed"), [(BGA, 0), (BGA, 1), (FLOWERS, 0), (FLOWERS, 1)])
def test_every_discard_of_a_round_is_priced_as_the_endpoint_values_it(client, ruleset, seed):
    """Each discard of a simulated four-seat round: the played and the advised discard's values are those of
    /v1/discards on the position the player saw (followed from the log here), the loss their difference."""
    log = simulated(ruleset, 4, "greedy", seed + 1)[seed]
    found, seats = review(log, EXACT)
    assert found.valid
    decisions = {d["event"]: d for s in seats for d in s["decisions"]}
    positions = fourcolor_positions(log)
    assert sorted(decisions) == [p[0] for p in positions] and positions
    unit = "wins" if ruleset == FLOWERS else "points"
    for event, seat, hand, exposed, visible in positions:
        decision = decisions[event]
        answer = discards_answer(client, 4, hand, exposed, visible, ruleset, seat)
        played, advised = option(answer, decision["card"]), answer["discards"][0]
        assert (decision["value"], decision["best_value"]) == (played["value"], advised["value"])
        assert decision["loss_unit"] == unit
        if not decision["agreed"]:
            assert decision["expected_loss"] == round(max(0.0, advised["value"] - played["value"]), 4)


def test_review_answers_name_the_value_models_that_priced_them():
    """The engine version of a review names the review's pricing and each value model used: a four-seat
    bga-taiwan log is priced by its model, a three-seat one by none, a batch without review by none."""
    four, three = turned_up_rc(4, {"seat": 3, "type": "draw"}), turned_up_rc(3, {"seat": 0, "type": "draw"})
    model = load_model(BGA).version
    assert engine_version([four, three], "exact") == f"{ENGINE_VERSION}+review-3+{model}"
    assert engine_version([three], "exact") == engine_version([four], "none") == f"{ENGINE_VERSION}+review-3"
    flowers = simulated(FLOWERS, 4, "greedy", 1)[0]
    assert engine_version([flowers, four], "deep").split("+")[2:] == sorted([model, load_model(FLOWERS).version])
