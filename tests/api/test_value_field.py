"""The learned `value` of every option of POST /v1/discards and POST /v1/claims: the shipped model's value of the
hand the option leaves, rounded to 4 decimals; a win's value is its settlement."""

from __future__ import annotations

from service.advice.analyse import analyse_discards
from service.advice.loss import losses
from service.advice.value import load_model
from service.rules.registry import get_ruleset

# The hands of tests/api/test_discards.py and test_claims.py (worked out there by hand).
BGA_HAND = ["rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS", "yS", "gS", "wE", "wE",
            "gH", "gH", "yA", "wC"]
CHAN_HAND = ["2m", "2m", "3s", "3s", "4c", "4c", "5m", "5m", "6s", "6s", "7c", "7c", "2s", "2c", "3m", "3c", "4m",
             "4s", "5s", "9m"]
PAIR_C = ["rG", "rA", "rE", "yG", "yA", "yE", "gC", "gH", "gP", "wC", "wH", "wP", "rC", "rC", "yS", "gS", "wS",
          "yC", "yH", "wA"]
NINE_C = ["2m", "2m", "3s", "3s", "4c", "4c", "6m", "6m", "7s", "7s", "2s", "2c", "4m", "4s", "5m", "5s", "6s", "6c",
          "9c"]


def test_every_discard_carries_the_models_value(client):
    """The first option's value is the model's base value of its hand; every other option's is that minus its loss
    against the first (recomputed here from the model's parts); the values never rise along the ranking and
    differ between options that leave different hands."""
    body = client.post("/v1/discards", json={"ruleset": "bga-taiwan", "hand": BGA_HAND, "visible": ["yA", "yA"],
                                             "seats": 4, "seat": 2}).get_json()
    model = load_model("bga-taiwan")
    ruleset = get_ruleset("bga-taiwan")
    options = ruleset.resolve_options({})
    hand = ruleset.parse(options, BGA_HAND, [], None)
    analysis = analyse_discards(ruleset, hand, options, ["yA", "yA"], seats=4)
    total, ranked = analysis.unseen_total, analysis.options
    base = [model.base(o, total) for o in ranked]
    lost = losses(model.loss, ranked, base, total)
    expected = {ruleset.card_code(o.card): round(base[0] - loss, 4) for o, loss in zip(ranked, lost)}
    assert {d["card"]: d["value"] for d in body["discards"]} == expected
    assert len(set(expected.values())) > 1
    shown = [d["value"] for d in body["discards"]]
    assert shown == sorted(shown, reverse=True)
    assert all(d["value"] == shown[0] for d in body["discards"] if d["rank"] == 1)
    waiting = next(d for d in body["discards"] if d["card"] == "yA")
    assert waiting["distance"] == 0 and isinstance(waiting["value"], float)


def test_chan_discards_carry_a_value(client):
    body = client.post("/v1/discards", json={"ruleset": "cardavia-chan", "hand": CHAN_HAND, "seats": 4,
                                             "seat": 0}).get_json()
    assert all(isinstance(d["value"], float) for d in body["discards"])


def test_claims_and_their_follow_up_carry_a_value(client):
    """The triple's value is its follow-up discard's (the same hand at rest, the same unseen cards)."""
    body = client.post("/v1/claims", json={"ruleset": "bga-taiwan", "hand": PAIR_C, "public_card": "rC",
                                           "card_source": "discard", "from_seat": 0, "seat": 2,
                                           "seats": 4}).get_json()
    triple, passing = body["choices"]
    assert triple["value"] == triple["follow"]["value"]
    assert isinstance(passing["value"], float) and passing["value"] != triple["value"]


def test_a_win_is_worth_its_settlement(client):
    body = client.post("/v1/claims", json={"ruleset": "cardavia-chan", "hand": NINE_C, "public_card": "9c",
                                           "card_source": "stock", "from_seat": 1, "seat": 1,
                                           "seats": 4}).get_json()
    win = next(c for c in body["choices"] if c["kind"] == "win")
    assert win["value"] == float(win["gain"])


def test_no_value_where_the_model_was_not_trained(client):
    """The model speaks of 4 seats under the default options: another threshold, a payment where nobody paid, or
    three seats change the unit or the play, so those answers carry `value` null (the ranking is unchanged)."""
    base = {"ruleset": "bga-taiwan", "hand": BGA_HAND, "visible": ["yA", "yA"], "seats": 4, "seat": 2}
    for changed in ({"options": {"threshold": 20}}, {"seats": 3}):
        body = client.post("/v1/discards", json={**base, **changed}).get_json()
        assert body["discards"] and all(d["value"] is None for d in body["discards"])
    flowers = {"ruleset": "cardavia-flowers", "hand": BGA_HAND[:20], "public_card": "rC", "card_source": "discard",
               "from_seat": 0, "seat": 2, "seats": 4}
    paid = client.post("/v1/claims", json={**flowers, "options": {"payment": "each_loser_pays"}}).get_json()
    assert paid["choices"] and all(c["value"] is None for c in paid["choices"])
    unpaid = client.post("/v1/claims", json=flowers).get_json()
    assert all(isinstance(c["value"], float) for c in unpaid["choices"])


def test_every_answer_names_the_model_version(client, tmp_path, monkeypatch):
    """The engine version of a rule-set's answers carries, after a `+`, the versions of the base, of the loss and of
    the claim loss written in that rule-set's model file (read here from the file itself); GET /v1/rulesets names it
    per rule-set; a rule-set with no model file answers the plain engine version."""
    import json

    from service.advice import value
    from service.rules import registry

    for ruleset, body in (("bga-taiwan", {"hand": BGA_HAND}), ("cardavia-chan", {"hand": CHAN_HAND})):
        shipped = json.loads((value.MODELS / f"{ruleset}.json").read_text(encoding="utf-8"))
        parts = (shipped["version"], shipped["loss"]["version"], shipped["claim_loss"]["version"])
        wanted = f"{registry.ENGINE_VERSION}+{'/'.join(parts)}"
        answer = client.post("/v1/discards", json={"ruleset": ruleset, "seats": 4, "seat": 0, **body}).get_json()
        assert answer["engine_version"] == wanted
        assert client.get(f"/v1/rulesets/{ruleset}").get_json()["engine_version"] == wanted
        listed = {r["id"]: r for r in client.get("/v1/rulesets").get_json()["rulesets"]}
        assert listed[ruleset]["engine_version"] == wanted
    monkeypatch.setattr(value, "MODELS", tmp_path)  # no model shipped: the plain version
    answer = client.post("/v1/discards", json={"ruleset": "bga-taiwan", "hand": BGA_HAND, "seats": 4, "seat": 0})
    assert answer.get_json()["engine_version"] == registry.ENGINE_VERSION
