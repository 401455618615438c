"""The spec's job results are true: real finished jobs (searches and replays of both families, exact and deep
reviews, a paged result, a log with violations) validate against the committed openapi.yaml's Job component,
its `result` one of SearchResult and ReplayResult."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from service.api.examples import CREATE_REPLAY, CREATE_SEARCH
from service.app import create_app
from service.replay.families import simulate
from service.rules.registry import ENGINE_VERSION
from tests.support.jobs import run_worker

SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text(encoding="utf-8"))
CHAN_LOG = simulate("cardavia-chan", 3)
FOUR_COLOR_LOG = simulate("cardavia-flowers", 5, 4, "greedy")
#: A dealer's deal is a position he must discard from.
CHAN_SEARCH = {"ruleset": "cardavia-chan", "seats": 4, "seat": CHAN_LOG["dealer"], "samples": 30,
               "time_budget": 2.0, "seed": 1, "hand": CHAN_LOG["hands"][CHAN_LOG["dealer"]]}
DEEP = {"mode": "deep", "samples": 8, "time_budget": 0.05, "seed": 0}


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: `nullable` as a null alternative, component refs as definitions."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: json_schema(value) for key, value in node.items() if key not in ("nullable", "x-enum-varnames")}
    if "$ref" in out:
        out["$ref"] = out["$ref"].replace("#/components/schemas/", "#/definitions/")
    if node.get("nullable"):
        out = {"anyOf": [out, {"type": "null"}]}
    return out


def validator(component: str) -> jsonschema.Draft7Validator:
    """A strict validator of one schema component of the spec."""
    definitions = json_schema(SPEC["components"]["schemas"])
    return jsonschema.Draft7Validator({"$ref": f"#/definitions/{component}", "definitions": definitions})


JOB = validator("Job")


@pytest.fixture
def jobs_client(redis_db, redis_url):
    """A client of an app whose jobs go to the test Redis."""
    return create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()


def finished(jobs_client, redis_db, path: str, body: dict[str, Any], query: str = "") -> dict[str, Any]:
    """Submit a job, run it with a burst worker, and answer GET /v1/jobs/{id} once it has finished."""
    created = jobs_client.post(path, json=body)
    assert created.status_code == 202, created.get_json()
    assert run_worker(redis_db)
    answer = jobs_client.get(created.headers["Location"] + query).get_json()
    assert answer["status"] == "finished", answer["error"]
    return answer


@pytest.mark.parametrize("body", [CREATE_SEARCH, CHAN_SEARCH], ids=["bga-taiwan", "cardavia-chan"])
@pytest.mark.slow  # over 2 s on 2 cores
def test_finished_search_is_a_search_result(jobs_client, redis_db, body):
    """A finished search answers a SearchResult (and only that: not a ReplayResult too)."""
    answer = finished(jobs_client, redis_db, "/v1/searches", body)
    JOB.validate(answer)
    assert validator("SearchResult").is_valid(answer["result"])
    assert not validator("ReplayResult").is_valid(answer["result"])
    assert answer["kind"] == "search" and answer["result"]["candidates"]


@pytest.mark.parametrize("body", [
    CREATE_REPLAY,
    {"logs": [CHAN_LOG, FOUR_COLOR_LOG], "review": DEEP},
    {"logs": [FOUR_COLOR_LOG, {**CHAN_LOG, "events": CHAN_LOG["events"][:5] + CHAN_LOG["events"][7:]}],
     "review": {"mode": "exact"}},
    {"logs": [CHAN_LOG], "review": {"mode": "none"}},
], ids=["example", "deep", "violations", "no-review"])
@pytest.mark.slow  # over 2 s on 2 cores
def test_finished_replay_is_a_replay_result(jobs_client, redis_db, body):
    """A finished replay answers a ReplayResult, whole or paged, whatever the review mode."""
    answer = finished(jobs_client, redis_db, "/v1/replays", body)
    JOB.validate(answer)
    assert validator("ReplayResult").is_valid(answer["result"])
    assert not validator("SearchResult").is_valid(answer["result"])
    assert answer["kind"] == "replay"
    paged = jobs_client.get(f"/v1/jobs/{answer['id']}?logs_offset=1&logs_limit=1").get_json()
    JOB.validate(paged)
    assert paged["result"]["logs_page"] == {"offset": 1, "limit": 1, "total": len(body["logs"])}


@pytest.mark.slow  # over 2 s on 2 cores
def test_replay_results_cover_the_reviews(jobs_client, redis_db):
    """The deep replay above really carries what the schema documents: deep ratings, claim decisions, passes,
    losses in the rule-sets' units (Chắn points, the flowers' wins), each player's mean loss, and the engine version
    naming the two value models that priced them."""
    answer = finished(jobs_client, redis_db, "/v1/replays", {"logs": [CHAN_LOG, FOUR_COLOR_LOG], "review": DEEP})
    seats = [seat for log in answer["result"]["logs"] for seat in log["seats"]]
    assert any(d["deep"] for seat in seats for d in seat["decisions"])
    assert any(seat["claim_decisions"] for seat in seats)
    assert all(seat["review"] is not None for seat in seats)
    units = [{d["loss_unit"] for seat in log["seats"] for d in seat["decisions"] + seat["claim_decisions"]}
             for log in answer["result"]["logs"]]
    assert units == [{"points"}, {"wins"}]
    players = answer["result"]["summary"]["players"]
    assert all(p["loss_unit"] == "mixed" for p in players.values())  # each player sat in both games
    assert all(p["mean_loss"] == round(p["expected_loss"] / p["decisions"], 4) for p in players.values())
    versions = answer["result"]["engine_version"].split("+")
    assert versions[:2] == [ENGINE_VERSION, "review-3"]
    assert sorted(v.split("/")[1] for v in versions[2:]) == ["cardavia-chan", "cardavia-flowers"]
