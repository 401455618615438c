"""POST /v1/audits, GET /v1/schemas/game-log and `python -m service audit` as a client uses them."""

from __future__ import annotations

import json

import pytest

from service.__main__ import main
from service.replay.families import simulate


@pytest.mark.parametrize("log", [
    pytest.param(simulate("bga-taiwan", 11, 3, "greedy"), id="bga_taiwan_3_seats"),
    pytest.param(simulate("cardavia-flowers", 12, 4, "random"), id="cardavia_flowers"),
    pytest.param(simulate("cardavia-chan", 13, 4, "greedy"), id="cardavia_chan"),
])
def test_simulated_log_audits_clean(client, log):
    """A legal round: no violation, and the recomputed outcome matches what the log recorded."""
    body = client.post("/v1/audits", json=log).get_json()
    assert body["valid"] is True and body["violations"] == []
    assert body["recorded_result_matches"] is True
    assert body["outcome"]["type"] == log["result"]["type"]
    assert body["events"] == len(log["events"]) and body["ruleset"] == log["ruleset"]


def test_violation_names_event_code_and_rule(client):
    """The dealer's opening discard turned into a card he does not hold: flagged at event 0."""
    log = simulate("bga-taiwan", 11, 3, "greedy")
    held = set(log["hands"][log["dealer"]])
    log["events"][0]["card"] = next(c for c in ("rA", "yA", "gA", "wA", "rH", "yH") if c not in held)
    body = client.post("/v1/audits", json=log).get_json()
    first = body["violations"][0]
    assert body["valid"] is False and (first["event"], first["code"]) == (0, "not_in_hand")
    assert first["rule"].startswith("docs/rules.md#")


def test_altered_result_is_reported(client):
    """A recorded payout that the rules do not give."""
    log = simulate("cardavia-chan", 13, 4, "greedy")
    deltas = log["result"]["deltas"]
    log["result"]["deltas"] = [deltas[0] + 1, deltas[1] - 1, *deltas[2:]]
    body = client.post("/v1/audits", json=log).get_json()
    assert body["recorded_result_matches"] is False
    assert [v["code"] for v in body["violations"]] == ["result_mismatch"]


@pytest.mark.parametrize(("change", "field"), [
    pytest.param({"hands": [["rA"] * 21, ["yA"] * 20]}, "hands.0.4", id="fifth_copy_in_the_deal"),
    pytest.param({"hands": [["rA"] * 20, ["yA"] * 20]}, "hands.0", id="dealer_dealt_20_not_21"),
    pytest.param({"events": [{"seat": 0, "type": "capture"}]}, "events.0.type", id="chan_event_in_bga_log"),
    pytest.param({"events": [{"seat": 0, "type": "discard"}] * 2001}, "events", id="too_many_events"),
])
def test_malformed_log_is_refused_naming_the_field(client, change, field):
    """A log whose frame cannot be replayed gets a 422 problem naming the field."""
    dealt = ["rA", "yA", "gA", "wA", "rC"] * 4 + ["yC"], ["rH", "yH", "gH", "wH", "rP"] * 4
    log = {"ruleset": "bga-taiwan", "seats": 2, "dealer": 0, "hands": list(dealt), "events": []}
    response = client.post("/v1/audits", json={**log, **change})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert field in response.get_json()["errors"], response.get_json()


def test_game_log_json_schema(client):
    """The published schema is a self-contained JSON Schema of the log."""
    schema = client.get("/v1/schemas/game-log").get_json()
    assert schema["$schema"].endswith("2020-12/schema")
    assert {"ruleset", "seats", "hands", "events"} <= set(schema["required"])
    assert set(schema["$defs"]) >= {"LogEvent", "LogResult"}
    assert "$ref" not in json.dumps(schema).replace('"$ref": "#/$defs/', "")


def test_cli_audits_files(tmp_path, capsys):
    """One JSON line per file; exit 0 when all are valid, 1 with a violation, 2 for an unreadable file."""
    good, bad, broken = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "broken.json"
    log = simulate("cardavia-flowers", 3, 4, "greedy")
    good.write_text(json.dumps(log), encoding="utf-8")
    log["result"] = {"type": "hu", "winner": 0, "points": 999}
    bad.write_text(json.dumps(log), encoding="utf-8")
    broken.write_text("{", encoding="utf-8")
    assert main(["audit", str(good)]) == 0
    assert main(["audit", str(good), str(bad)]) == 1
    assert main(["audit", str(broken)]) == 2
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line.get("valid") for line in lines] == [True, True, False, None]
    assert lines[-1]["error"]["code"] == "unreadable"
