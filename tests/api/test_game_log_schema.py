"""GET /v1/schemas/game-log is a valid JSON Schema (2020-12) that accepts real logs and rejects broken ones."""

from __future__ import annotations

import copy

import pytest
from jsonschema import Draft202012Validator

from service.api.examples import AUDIT_LOG
from service.replay.families import simulate

TABLES = [("bga-taiwan", 2, "greedy"), ("bga-taiwan", 4, "random"), ("cardavia-flowers", 4, "greedy"),
          ("cardavia-flowers", 4, "random"), ("cardavia-chan", 4, "greedy"), ("cardavia-chan", 3, "random")]


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    """A validator of the served schema, checked against the 2020-12 metaschema first."""
    from service.app import create_app

    response = create_app({"TESTING": True}).test_client().get("/v1/schemas/game-log")
    assert response.status_code == 200
    schema = response.get_json()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    return Draft202012Validator(schema)


@pytest.mark.parametrize(("ruleset_id", "seats", "policy"), TABLES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_simulated_logs_are_valid(validator, ruleset_id, seats, policy, seed):
    """Every rule-set's simulated rounds, stock, options and recorded result included."""
    log = simulate(ruleset_id, seed, seats, policy)
    assert log["events"] and log["stock"] is not None
    assert list(validator.iter_errors(log)) == []


def test_the_documented_example_is_valid(validator):
    """The example in the OpenAPI document (no stock, no options) is a log too."""
    assert list(validator.iter_errors(AUDIT_LOG)) == []


def broken(change) -> dict:
    """The example log with one change."""
    log = copy.deepcopy(AUDIT_LOG)
    change(log)
    return log


@pytest.mark.parametrize(("log", "where"), [
    pytest.param(broken(lambda log: log.pop("events")), "", id="no_events"),
    pytest.param(broken(lambda log: log["hands"][0].__setitem__(3, "xQ")), "hands/0/3", id="unknown_card"),
    pytest.param(broken(lambda log: log["events"][0].__setitem__("seat", 5)), "events/0/seat", id="seat_5"),
    pytest.param(broken(lambda log: log["events"][2].__setitem__("type", "steal")), "events/2/type",
                 id="unknown_event_type"),
    pytest.param(broken(lambda log: log.__setitem__("result", {"type": "lost"})), "result", id="bad_result_type"),
    pytest.param(broken(lambda log: log["result"].__setitem__("winner", "two")), "result", id="winner_not_a_seat"),
    pytest.param(broken(lambda log: log.__setitem__("players", ["An"])), "", id="unknown_field"),
])
def test_broken_logs_are_rejected(validator, log, where):
    """Each break is found, at the place it was made."""
    errors = list(validator.iter_errors(log))
    assert errors, "accepted a broken log"
    assert any("/".join(str(p) for p in error.absolute_path).startswith(where) for error in errors), errors
