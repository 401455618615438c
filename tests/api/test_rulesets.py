"""GET /v1/rulesets: every decision of docs/rules.md#decisions is a named option or a named, documented fixed
decision."""

from __future__ import annotations

import pytest

# docs/rules.md#fc-payment-per-opponent and #fc-generals-end: the decisions that are no option of their own.
# (rule-set, decision, option that refines it or None for a fixed decision)
DECISIONS = [
    pytest.param("bga-taiwan", "payment_per_opponent", "win_payment", id="payment_per_opponent_refined_by_win_payment"),
    pytest.param("bga-taiwan", "all_generals_end", None, id="all_generals_end_is_fixed"),
]


@pytest.mark.parametrize(("ruleset", "name", "option"), DECISIONS)
def test_decisions_are_listed_with_their_rule(client, ruleset, name, option):
    """Each decision names the docs/rules.md decision it takes and, if one refines it, an option the rule-set has."""
    body = client.get(f"/v1/rulesets/{ruleset}").get_json()
    decisions = {d["name"]: d for d in body["decisions"]}
    found = decisions[name]
    assert found["option"] == option and "docs/rules.md#" in found["rule"] and found["doc"]
    if option is not None:
        assert option in {o["name"] for o in body["options"]}


# docs/rules.md#fc-lucky-match: default the identical card; option lucky_match "character". Only bga-taiwan has a
# lucky card (the flowers settlement is the meld total alone).
LUCKY_MATCH = [
    pytest.param("bga-taiwan", {"name": "lucky_match", "type": "string", "default": "identical",
                                "choices": ["identical", "character"]}, id="bga_taiwan_lucky_match"),
    pytest.param("cardavia-flowers", None, id="flowers_has_no_lucky_card"),
]


@pytest.mark.parametrize(("ruleset", "expected"), LUCKY_MATCH)
def test_lucky_match_option_is_documented(client, ruleset, expected):
    """The option carries its default, its choices and the decision it implements."""
    options = {o["name"]: o for o in client.get(f"/v1/rulesets/{ruleset}").get_json()["options"]}
    if expected is None:
        assert "lucky_match" not in options
        return
    found = options["lucky_match"]
    assert {k: found[k] for k in expected} == expected
    assert "docs/rules.md#fc-lucky-match" in found["rule"] and "character" in found["doc"]


# docs/rules.md#fc-deal: 20 cards each between turns, the dealer 21 (he discards first); #fl-deal: 20 each in the
# flowers variant too. #fc-cards: four copies of each of the 28 chess cards (112), cardavia-flowers adds one copy of
# each flower F1..F5 (117). docs/rules.md#chan-deal: 19 cards between turns, the dealer 20; #chan-cards: four copies
# of each of the 25 faces, CC included (100).
CHESS = [colour + character for colour in "rygw" for character in "GAECHPS"]
FLOWERS = ["F1", "F2", "F3", "F4", "F5"]
CHAN = [f"{value}{suit}" for value in range(2, 10) for suit in "msc"] + ["CC"]
HAND_SIZES = [
    pytest.param("bga-taiwan", 20, 21, dict.fromkeys(CHESS, 4), 112, id="bga_taiwan"),
    pytest.param("cardavia-flowers", 20, 21, {**dict.fromkeys(CHESS, 4), **dict.fromkeys(FLOWERS, 1)}, 117,
                 id="cardavia_flowers"),
    pytest.param("cardavia-chan", 19, 20, dict.fromkeys(CHAN, 4), 100, id="cardavia_chan"),
]


@pytest.mark.parametrize(("ruleset", "resting", "turn", "copies", "deck"), HAND_SIZES)
def test_each_ruleset_gives_its_hand_sizes_and_the_copies_of_each_card(client, ruleset, resting, turn, copies, deck):
    """The pages count a hand and the deck by these; the list and the single rule-set answer say the same."""
    one = client.get(f"/v1/rulesets/{ruleset}").get_json()
    listed = {r["id"]: r for r in client.get("/v1/rulesets").get_json()["rulesets"]}[ruleset]
    for body in (one, listed):
        assert body["hand_size"] == {"resting": resting, "turn": turn}
        assert body["copies"] == copies and list(body["copies"]) == body["cards"]
        assert sum(body["copies"].values()) == deck


def test_hand_size_and_copies_are_documented(client):
    """The spec explains both fields and shows an example of each."""
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    ruleset = schemas["Ruleset"]["properties"]
    assert "example" in ruleset["copies"] and ruleset["copies"]["description"]
    assert {"hand_size", "copies"} <= set(schemas["Ruleset"]["required"])
    sizes = schemas["HandSize"]["properties"]
    assert all(sizes[name]["description"] and "example" in sizes[name] for name in ("resting", "turn"))
