"""POST /v1/simulations: seeded legal rounds as game logs."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(("ruleset", "seats"), [("bga-taiwan", 3), ("cardavia-flowers", 4), ("cardavia-chan", 4)])
def test_simulated_rounds_are_legal_logs_of_the_table_asked_for(client, ruleset, seats):
    """Each round audits clean with the result it records (the simulators play legal moves only)."""
    body = client.post("/v1/simulations", json={"ruleset": ruleset, "seats": seats, "seed": 4, "rounds": 3,
                                                "policy": "random"}).get_json()
    assert (body["ruleset"], body["seats"], body["seed"], body["policy"]) == (ruleset, seats, 4, "random")
    assert len(body["logs"]) == 3
    for log in body["logs"]:
        assert log["ruleset"] == ruleset and log["seats"] == seats
        audit = client.post("/v1/audits", json=log).get_json()
        assert audit["valid"] and audit["recorded_result_matches"], audit["violations"]


def test_same_seed_same_logs_and_round_i_is_seed_plus_i(client):
    """Round i is played from seed + i, so two requests overlapping in seeds share those rounds."""
    first = client.post("/v1/simulations", json={"ruleset": "bga-taiwan", "seats": 3, "seed": 10, "rounds": 2})
    again = client.post("/v1/simulations", json={"ruleset": "bga-taiwan", "seats": 3, "seed": 11, "rounds": 1})
    assert first.get_json()["logs"][1] == again.get_json()["logs"][0]
    assert first.get_json()["logs"][0] != first.get_json()["logs"][1]


def test_options_reach_the_logs(client):
    body = client.post("/v1/simulations", json={"ruleset": "bga-taiwan", "seats": 2, "options": {"threshold": 4}})
    assert body.get_json()["logs"][0]["options"]["threshold"] == 4


@pytest.mark.parametrize(("request_body", "code", "field"), [
    # docs/rules.md#fl-deal: cardavia-flowers is played by four
    ({"ruleset": "cardavia-flowers", "seats": 3}, "invalid_seat", "seats"),
    ({"ruleset": "bga-taiwan", "options": {"nope": 1}}, "unknown_option", "options.nope"),
    ({"ruleset": "bga-taiwan", "rounds": 21}, "invalid_request", "rounds"),
    ({"ruleset": "bga-taiwan", "policy": "clever"}, "invalid_request", "policy"),
    ({"ruleset": "no-such-game"}, "unknown_ruleset", "ruleset"),
])
def test_bad_requests_name_the_field(client, request_body, code, field):
    answer = client.post("/v1/simulations", json=request_body)
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["code"] == code and field in body["errors"], body
