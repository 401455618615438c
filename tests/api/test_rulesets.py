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
