"""POST /v1/melds, POST /v1/hu, GET /v1/rulesets and /healthz through the HTTP API."""

from __future__ import annotations

import pytest

BGA_DEFAULTS = {"threshold": 10, "stake": 1, "win_payment": "excess", "winning_meld_concealed": True,
                "same_colour_soldier_sets": True, "lucky_match": "identical", "general_triple": False}


def test_healthz(client):
    """Liveness needs nothing but the process."""
    body = client.get("/healthz").get_json()
    assert body["status"] == "ok" and body["engine_version"]


def test_rulesets_lists_options_with_defaults(client):
    """Each rule-set shows its cards, meld table and every option with its default."""
    body = client.get("/v1/rulesets").get_json()
    by_id = {r["id"]: r for r in body["rulesets"]}
    assert {"bga-taiwan", "cardavia-flowers"} <= set(by_id)
    bga = by_id["bga-taiwan"]
    assert {o["name"]: o["default"] for o in bga["options"]} == BGA_DEFAULTS
    assert len(bga["cards"]) == 28 and "F1" not in bga["cards"]
    assert len(by_id["cardavia-flowers"]["cards"]) == 33
    # docs/rules.md#fc-melds: quad 6 exposed / 8 concealed; general_quad 8 / 6.
    melds = {m["kind"]: (m["exposed"], m["concealed"]) for m in bga["melds"]}
    assert melds["quad"] == (6, 8) and melds["general_quad"] == (8, 6)
    one = client.get("/v1/rulesets/cardavia-flowers").get_json()
    assert one["id"] == "cardavia-flowers" and one["seats"] == {"min": 4, "max": 4}
    missing = client.get("/v1/rulesets/nope")
    assert missing.status_code == 404 and missing.get_json()["code"] == "unknown_ruleset"


def test_hu_echoes_ruleset_options_and_version(client):
    """Every answer echoes the rule-set, the full resolved options and the engine version."""
    body = client.post("/v1/hu", json={"ruleset": "bga-taiwan", "options": {"threshold": 12},
                                       "hand": ["rG"]}).get_json()
    assert body["ruleset"] == "bga-taiwan"
    assert body["options"] == {**BGA_DEFAULTS, "threshold": 12}
    assert body["engine_version"]


def test_hu_win_with_exposed_meld(client):
    """Exposed triple 1 (exposed value) + concealed command 2 + concealed triple completed by the card 3 = 6."""
    body = client.post("/v1/hu", json={
        "ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE", "yC", "yC"],
        "exposed": [{"kind": "triple", "cards": ["wS", "wS", "wS"]}], "public_card": "yC",
    }).get_json()
    assert body["hu"] is True and body["points"] == 6
    assert body["exposed_points"] == 1 and body["concealed_points"] == 5
    assert {"kind": "triple", "cards": ["wS", "wS", "wS"], "points": 1, "concealed": False} in body["melds"]
    assert {"kind": "command", "cards": ["rG", "rA", "rE"], "points": 2, "concealed": True} in body["melds"]
    assert body["card_count"] == 9 and body["decompositions"] == 1 and body["reasons"] == []


def test_hu_false_has_null_points_and_melds(client):
    """CONTRACT: points and melds are null when hu is false."""
    body = client.post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": ["rA", "yA"]}).get_json()
    assert body["hu"] is False and body["points"] is None and body["melds"] is None
    assert [r["code"] for r in body["reasons"]] == ["incomplete_melds"]


def test_melds_lists_every_meld_of_the_hand(client):
    """rG rA rE rA: the General alone, the command, the Advisor pair."""
    body = client.post("/v1/melds", json={"ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE", "rA"]}).get_json()
    kinds = sorted((m["kind"], tuple(m["cards"])) for m in body["melds"])
    assert kinds == [("command", ("rG", "rA", "rE")), ("general", ("rG",)), ("pair", ("rA", "rA"))]
    assert body["claims"] is None and body["must_take"] is None


@pytest.mark.parametrize(("role", "expected"), [
    pytest.param("next", {"triple", "pair"}, id="next_may_pong_and_chi"),
    pytest.param("other", {"triple"}, id="other_may_only_pong"),
    pytest.param("discarder", set(), id="discarder_claims_nothing"),
])
def test_claims_depend_on_seat_role(client, role, expected):
    """docs/rules.md#fc-claims: quad/triple for anyone but the discarder; chi-type only for drawer and next."""
    body = client.post("/v1/melds", json={"ruleset": "bga-taiwan", "hand": ["yC", "yC", "rH"],
                                          "public_card": "yC", "seat_role": role}).get_json()
    assert {c["kind"] for c in body["claims"]} == expected
    assert body["seat_role"] == role


def test_drawn_general_must_be_taken(client):
    """docs/rules.md#fc-must-take: a player who turns up a General must take it (as a general or in a command)."""
    body = client.post("/v1/melds", json={"ruleset": "bga-taiwan", "hand": ["rA", "rE", "yH"],
                                          "public_card": "rG", "seat_role": "drawer"}).get_json()
    assert body["must_take"] is True
    assert {c["kind"] for c in body["claims"]} == {"general", "command"}
    assert {c["priority_class"] for c in body["claims"]} == {"chi"}


def test_hu_claim_carries_its_decomposition(client):
    """rA rE + public rG completes a command: hu (priority 3) with that single meld, 2 points."""
    body = client.post("/v1/melds", json={"ruleset": "bga-taiwan", "hand": ["rA", "rE"],
                                          "public_card": "rG", "seat_role": "other"}).get_json()
    hu = body["claims"][0]
    assert (hu["kind"], hu["priority"], hu["points"], hu["cards"]) == ("hu", 3, 2, None)
    assert [m["kind"] for m in hu["melds"]] == ["command"]
    assert [c["kind"] for c in body["claims"]] == ["hu"]  # `other` may not chi
