"""The search position: what the player knows at his discard, validated; every error names its field."""

from __future__ import annotations

from typing import Any

import pytest

from service.replay.log import parse_log
from service.replay.reviewers import reviewer_for
from service.rules.errors import DomainError
from service.search.deal import deal_rng, sample_deal
from service.search.position import position_of as position_from_values
from tests.support.search import CHAN, RULESETS, position_of, sample_position, simulated
from tests.testbed.replayed import discards, position_request

HAND = "rG rA rE yC yH yP gS wS yS rC rC rH rP yA yA gE gE wH wH wP rS".split()
BASE: dict[str, Any] = {
    "ruleset": "bga-taiwan", "hand": HAND, "exposed": [], "visible": ["rA", "yC", "wA"], "seats": 4, "seat": 0,
    "opponents": [{"seat": 1, "exposed": [{"kind": "triple", "cards": ["gH", "gH", "gH"]}]},
                  {"seat": 3, "exposed": []}],
    "stock_remaining": None,
}
CHAN_HAND = "2m 2m 3s 3s 4c 4c 5m 5m 6s 6s 7c 8m 8s 9c 9c CC CC 2s 3m 4m".split()
CHAN_BASE: dict[str, Any] = {"ruleset": CHAN, "hand": CHAN_HAND, "exposed": [], "visible": ["5c"], "seats": 4,
                             "seat": 2, "opponents": [], "history": {"discarded": ["7m"]}}
#: 32 cards within the deck beside HAND: one more than 4 seats leave unseen outside the other hands (112 - 21 - 60).
SPARE = ["rE", "rE", "rE", "rC", "rC", "rH", "rH", "rH", "rP", "rP", "rP", "rS", "rS", "rS",
         "yC", "yC", "yC", "yH", "yH", "yH", "yP", "yP", "yP", "yS", "yS", "yS", "gS", "gS", "gS", "gA", "gA", "gA"]


def changed(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A copy of `base` with some keys replaced."""
    return {**base, **changes}


def opponent(seat: int, *melds: tuple[str, list[str]]) -> dict[str, Any]:
    """An opponents entry."""
    return {"seat": seat, "exposed": [{"kind": k, "cards": c} for k, c in melds]}


ERRORS = [
    ("hand_not_a_list", changed(BASE, hand="rG"), "hand"),
    ("unknown_card_in_hand", changed(BASE, hand=HAND[:3] + ["xX"] + HAND[4:]), "hand.3"),
    ("flower_in_bga_hand", changed(BASE, hand=["F1"] + HAND[1:]), "hand.0"),
    ("hand_of_20_cannot_discard", changed(BASE, hand=HAND[:20]), "hand"),
    ("exposed_meld_wrong_kind",
     changed(BASE, hand=HAND[:18], exposed=[{"kind": "triple", "cards": ["wC", "wC", "wH"]}]), "exposed.0.cards"),
    ("visible_not_a_list", changed(BASE, visible="rA"), "visible"),
    ("unknown_visible_card", changed(BASE, visible=["rA", "yC", "Z"]), "visible.2"),
    ("fifth_copy_in_visible", changed(BASE, visible=["yA", "yA", "yA"]), "visible.2"),
    ("seats_out_of_range", changed(BASE, seats=5), "seats"),
    ("seats_not_an_integer", changed(BASE, seats="4"), "seats"),
    ("seat_out_of_range", changed(BASE, seat=4), "seat"),
    ("opponents_not_a_list", changed(BASE, opponents={"seat": 1}), "opponents"),
    ("opponent_not_an_object", changed(BASE, opponents=[1]), "opponents.0"),
    ("opponent_is_the_player", changed(BASE, opponents=[opponent(0)]), "opponents.0.seat"),
    ("opponent_seat_twice", changed(BASE, opponents=[opponent(1), opponent(1)]), "opponents.1.seat"),
    ("opponent_seat_out_of_range", changed(BASE, opponents=[opponent(7)]), "opponents.0.seat"),
    ("opponent_seat_missing", changed(BASE, opponents=[{"exposed": []}]), "opponents.0.seat"),
    ("opponent_meld_unknown_kind", changed(BASE, opponents=[opponent(2), opponent(1, ("chow", ["gH", "gH"]))]),
     "opponents.1.exposed.0.kind"),
    ("opponent_meld_unknown_card", changed(BASE, opponents=[opponent(2), opponent(1, ("triple", ["gH", "?", "gH"]))]),
     "opponents.1.exposed.0.cards.1"),
    ("opponent_meld_not_its_kind", changed(BASE, opponents=[opponent(2), opponent(1, ("triple", ["gH", "gC", "gH"]))]),
     "opponents.1.exposed.0.cards"),
    ("opponent_meld_not_an_object", changed(BASE, opponents=[opponent(1), {"seat": 2, "exposed": ["gH"]}]),
     "opponents.1.exposed.0"),
    ("fifth_copy_in_opponent_meld", changed(BASE, opponents=[opponent(2, ("quad", ["wH"] * 4))]),
     "opponents.0.exposed.0.cards"),
    ("opponent_with_all_cards_exposed", changed(BASE, opponents=[opponent(
        1, *[("quad", [c] * 4) for c in ("rC", "rH", "rP", "yE", "yG")][:4], ("triple", ["gC"] * 3),
        ("pair", ["gP", "gP"]))]), "opponents.0.exposed"),
    ("stock_remaining_too_large", changed(BASE, stock_remaining=40), "stock_remaining"),
    ("stock_remaining_negative", changed(BASE, stock_remaining=-1), "stock_remaining"),
    ("stock_remaining_a_boolean", changed(BASE, stock_remaining=True), "stock_remaining"),
    ("hands_cannot_be_filled", changed(BASE, visible=SPARE, opponents=[opponent(2)]), "visible"),
    ("history_in_four_color", changed(BASE, history={"discarded": ["rA"]}), "history"),
    ("chan_hand_of_21", changed(CHAN_BASE, hand=CHAN_HAND + ["7s"]), "hand"),
    ("chan_history_not_an_object", changed(CHAN_BASE, history=["7m"]), "history"),
    ("chan_history_unknown_card", changed(CHAN_BASE, history={"discarded": ["1m"]}), "history.discarded.0"),
    ("chan_history_not_a_list", changed(CHAN_BASE, history={"passed_identical": "7m"}), "history.passed_identical"),
    ("chan_fifth_copy_over_hand_and_visible", changed(CHAN_BASE, visible=["2m", "2m", "2m"]), "visible.2"),
    ("chan_opponent_pair_not_a_pair", changed(CHAN_BASE, opponents=[opponent(0, ("ca", ["7m", "8s"]))]),
     "opponents.0.exposed.0.cards"),
    ("chan_seats_are_four", changed(CHAN_BASE, seats=3), "seats"),
]


@pytest.mark.parametrize(("payload", "field"), [case[1:] for case in ERRORS], ids=[case[0] for case in ERRORS])
def test_every_error_names_its_field(payload: dict[str, Any], field: str) -> None:
    with pytest.raises(DomainError) as caught:
        position_of(payload)
    assert caught.value.field == field, caught.value.message


def test_a_valid_position_counts_the_unseen_cards() -> None:
    position = position_of(BASE)
    known = 21 + 3 + 3  # hand, visible, seat 1's triple
    assert len(position.unseen) == 112 - known
    assert position.concealed_sizes == (21, 17, 20, 20)  # 20 between turns minus exposed; the player 21
    assert position.stock_size == 112 - known - 57
    assert position.opponents[1][0].kind == "triple" and position.opponents[2] == ()


def test_stock_remaining_leaves_the_rest_out_of_play() -> None:
    position = position_of(changed(BASE, stock_remaining=10))
    deal = sample_deal(position, deal_rng(0, 0))
    assert len(deal.stock) == 10
    assert [len(h) for h in deal.hands] == [0, 17, 20, 20]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_deal_uses_unseen_cards_only_and_is_the_same_for_a_seed(ruleset_id: str) -> None:
    payload, _ = sample_position(ruleset_id)
    position = position_of(payload)
    deal = sample_deal(position, deal_rng(11, 4))
    dealt = sorted(c for hand in deal.hands for c in hand) + sorted(deal.stock)
    assert sorted(dealt) == sorted(position.unseen)  # stock_remaining None: every unseen card is in play
    assert deal == sample_deal(position, deal_rng(11, 4))
    assert deal != sample_deal(position, deal_rng(11, 5))


def test_candidate_cards_parse_with_the_field_named() -> None:
    position = position_of(BASE)
    assert position.code(position.card("yA")) == "yA"
    with pytest.raises(DomainError) as caught:
        position.card("F1", "candidates.2")
    assert caught.value.field == "candidates.2"


def replayed_view(ruleset_id: str, seed: int, which: int) -> tuple[Any, Any]:
    """The seat view (what he saw, the stock left) of the seat making a simulated round's `which`-th discard, and
    the reviewer that replayed the round up to it."""
    log = simulated(ruleset_id, seed)
    k = discards(log)[which]
    replay = reviewer_for(parse_log({**log, "events": log["events"][:k], "result": None}))
    replay.run()
    return replay.seat_view(log["events"][k]["seat"], replay.shown, replay.stock_left()), replay


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("which", [0, 5, 12])
def test_a_position_from_engine_values_is_the_one_its_request_parses_to(ruleset_id: str, which: int) -> None:
    """The deep review builds the position from the replay's values: the same position as writing them as a
    request and parsing it."""
    view, replay = replayed_view(ruleset_id, 4, which)
    direct = position_from_values(view.ruleset, view.options, view.hand, view.exposed, view.visible, view.seats,
                                  view.seat, view.opponents, view.stock_remaining, view.history)
    assert direct == position_of({"ruleset": ruleset_id, **position_request(view, replay.show)})
    assert len(direct.hand) + sum(len(m.cards) for m in direct.exposed) in (20, 21)


def test_a_position_from_engine_values_with_an_impossible_count_is_refused() -> None:
    """A seat view holding a card too many (an illegal log's) raises, as its request would."""
    view, _ = replayed_view("bga-taiwan", 4, 3)
    with pytest.raises(DomainError) as found:
        position_from_values(view.ruleset, view.options, view.hand + view.hand[:1], view.exposed, view.visible,
                             view.seats, view.seat, view.opponents, view.stock_remaining, view.history)
    assert found.value.code == "wrong_card_count"
