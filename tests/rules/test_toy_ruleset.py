"""A fourth rule-set is a change in one place: a toy Four Color Cards variant with other meld points, another
threshold and stake, registered from this test alone, is listed, evaluated, settled and ranked by the API
without any edit outside service/rules."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from service.rules.fourcolor.claims import bga_claims, bga_class
from service.rules.fourcolor.melds import MeldRules
from service.rules.fourcolor.rulesets import BGA_OPTIONS, BGA_TAIWAN, FourColorRuleSet
from service.rules.fourcolor.settle import bga_payments, bga_win_pays, settle_bga
from service.rules.registry import all_rulesets, get_ruleset, registered

TOY_ID = "toy-four-color"
#: Every meld scores 1 exposed, 2 concealed, pairs 0: a concealed quad is 2 (bga-taiwan: 8).
TOY_MELDS = MeldRules(tuple((kind, 0, 0) if kind == "pair" else (kind, 1, 2) for kind, _, _ in
                            BGA_TAIWAN.meld_rules(BGA_TAIWAN.resolve_options(None)).points),
                      general_quad=True, general_triple=False, soldier_pairs=False, soldier_sets=True, flowers=False)
TOY_DEFAULTS = {"threshold": 12, "stake": 2}
TOY = FourColorRuleSet(
    id=TOY_ID, title="A toy Four Color Cards variant", source="tests/rules/test_toy_ruleset.py",
    options=tuple(replace(o, default=TOY_DEFAULTS.get(o.name, o.default)) for o in BGA_OPTIONS),
    min_seats=2, max_seats=4, priorities={"hu": 3, "quad_triple": 2, "chi": 1}, melds_of=lambda o: TOY_MELDS,
    claims_of=bga_claims, class_of=bga_class, settlement=settle_bga, win_pays=bga_win_pays, payments=bga_payments,
    lucky_card=True,
)
# Four concealed Advisor quads, a General and the field wC wH wP completed by the public card.
QUADS = ["rA"] * 4 + ["yA"] * 4 + ["gA"] * 4 + ["wA"] * 4
WIN = {"hand": QUADS + ["rG", "wC", "wH"], "public_card": "wP"}
DISCARD_HAND = ["rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS", "yS", "gS", "wE", "wE",
                "gH", "gH", "yA", "wC"]


@pytest.fixture
def toy() -> Iterator[FourColorRuleSet]:
    """The toy variant, registered for one test."""
    with registered(TOY) as ruleset:
        yield ruleset


def test_registered_for_the_test_only(toy):
    """It joins the registry while the test runs, and leaves it after."""
    assert get_ruleset(TOY_ID) is toy
    with registered(replace(TOY, id="toy-two")):
        assert {r.id for r in all_rulesets()} >= {TOY_ID, "toy-two"}
    assert "toy-two" not in {r.id for r in all_rulesets()}


def test_rulesets_lists_it_with_its_points_and_options(client, toy):
    """/v1/rulesets describes the toy: its meld table and its option defaults."""
    listed = {r["id"]: r for r in client.get("/v1/rulesets").get_json()["rulesets"]}
    assert set(listed) >= {"bga-taiwan", "cardavia-flowers", "cardavia-chan", TOY_ID}
    melds = {m["kind"]: (m["exposed"], m["concealed"]) for m in listed[TOY_ID]["melds"]}
    assert melds["quad"] == (1, 2) and melds["pair"] == (0, 0)
    defaults = {o["name"]: o["default"] for o in listed[TOY_ID]["options"]}
    assert defaults["threshold"] == 12 and defaults["stake"] == 2


@pytest.mark.slow  # over 2 s on 2 cores
def test_hu_counts_its_own_points(client, toy):
    """4 concealed quads (4 x 2) + General (2) + field (2) = 12 under the toy; 34 under bga-taiwan."""
    toy_answer = client.post("/v1/hu", json={"ruleset": TOY_ID, **WIN}).get_json()
    bga_answer = client.post("/v1/hu", json={"ruleset": "bga-taiwan", **WIN}).get_json()
    assert toy_answer["ruleset"] == TOY_ID and toy_answer["hu"] is True
    assert (toy_answer["points"], bga_answer["points"]) == (12, 34)


@pytest.mark.parametrize(("options", "points", "deltas"), [
    pytest.param({}, 12, [-2, 6, -2, -2], id="toy_threshold_12_stake_2_each_pays_0_plus_2"),
    pytest.param({"threshold": 13}, 12, [15, -45, 15, 15], id="toy_under_threshold_caller_pays_each_13_plus_2"),
])
def test_settlement_uses_its_points_and_payment(client, toy, options, points, deltas):
    """The toy's h and its threshold and stake decide who pays what."""
    body = client.post("/v1/settlements", json={"ruleset": TOY_ID, "options": options, "seats": 4, "winner": 1,
                                                **WIN}).get_json()
    assert body["points"] == points and body["deltas"] == deltas


def test_discards_ranks_it(client, toy):
    """/v1/discards ranks a toy hand; every wait's points are its hu points under the toy's table."""
    body = client.post("/v1/discards", json={"ruleset": TOY_ID, "hand": DISCARD_HAND, "seats": 4,
                                             "seat": 0}).get_json()
    assert body["ruleset"] == TOY_ID and body["best"] and len(body["discards"]) > 1
    assert {d["rank"] for d in body["discards"]} >= {1}
    assert all(d["value"] is None for d in body["discards"])  # a variant shipped without a value model has none
    waits = [(d["card"], w) for d in body["discards"] for w in d["waits"]]
    assert waits, "the hand has a discard that leaves it waiting"
    for card, wait in waits[:3]:
        hand = list(DISCARD_HAND)
        hand.remove(card)
        hu = client.post("/v1/hu", json={"ruleset": TOY_ID, "hand": hand, "public_card": wait["card"],
                                         "options": {"winning_meld_concealed": False}}).get_json()
        assert hu["hu"] is True and hu["points"] == wait["points"]
