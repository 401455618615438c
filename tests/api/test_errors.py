"""Bad input gets problem+json naming the field, never a 500 (docs/api.md, "Errors")."""

from __future__ import annotations

import pytest

PROBLEM_KEYS = {"type", "title", "status", "detail", "code"}


def _problem(response, status, code):
    """Assert a problem+json answer with this status and code; return its body."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert PROBLEM_KEYS <= set(body) and body["status"] == status and body["code"] == code
    return body


@pytest.mark.parametrize(("body", "code", "field"), [
    pytest.param({"ruleset": "bga-taiwan", "hand": ["rX"]}, "unknown_card", "hand.0", id="unknown_card_code"),
    pytest.param({"ruleset": "bga-taiwan", "hand": ["rg"]}, "unknown_card", "hand.0", id="codes_are_case_sensitive"),
    pytest.param({"ruleset": "bga-taiwan", "hand": ["F1"]}, "unknown_card", "hand.0", id="flower_not_in_bga"),
    pytest.param({"ruleset": "mahjong", "hand": []}, "unknown_ruleset", "ruleset", id="unknown_ruleset"),
    pytest.param({"ruleset": "bga-taiwan", "hand": [], "options": {"nope": 1}}, "unknown_option", "options.nope",
                 id="unknown_option"),
    pytest.param({"ruleset": "bga-taiwan", "hand": [], "options": {"threshold": "10"}}, "invalid_option",
                 "options.threshold", id="option_of_wrong_type"),
    pytest.param({"ruleset": "bga-taiwan", "hand": [], "options": {"win_payment": "double"}}, "invalid_option",
                 "options.win_payment", id="option_outside_choices"),
    pytest.param({"ruleset": "bga-taiwan", "hand": ["yC"] * 4, "public_card": "yC"}, "impossible_card_count",
                 "public_card", id="fifth_copy_counts_public_card"),
    pytest.param({"ruleset": "bga-taiwan", "hand": ["yC"] * 2, "exposed": [{"kind": "triple",
                 "cards": ["yC"] * 3}]}, "impossible_card_count", "exposed.0.cards", id="fifth_copy_counts_exposed"),
    pytest.param({"ruleset": "cardavia-flowers", "hand": ["F2", "F2"]}, "impossible_card_count", "hand.1",
                 id="second_copy_of_a_flower"),
    pytest.param({"ruleset": "bga-taiwan", "hand": ["rA"] * 4 + ["yA"] * 4 + ["gA"] * 4 + ["wA"] * 4 + ["rC"] * 4
                  + ["yC", "yC"]}, "too_many_cards", "hand", id="more_than_21_cards"),
    pytest.param({"ruleset": "bga-taiwan", "hand": [], "exposed": [{"kind": "triple", "cards": ["rG"] * 3}]},
                 "invalid_meld", "exposed.0.cards", id="three_generals_are_not_a_triple"),
    pytest.param({"ruleset": "bga-taiwan", "hand": [], "exposed": [{"kind": "flower", "cards": ["rG"]}]},
                 "invalid_meld", "exposed.0.kind", id="meld_kind_not_in_ruleset"),
])
def test_invalid_hand_is_rejected_naming_the_field(client, body, code, field):
    """Each invalid request names the field at fault in `errors`."""
    problem = _problem(client.post("/v1/hu", json=body), 422, code)
    assert field in problem["errors"], problem


def test_schema_errors_list_every_field(client):
    """Wrong types: 422 invalid_request with one entry per field."""
    problem = _problem(client.post("/v1/hu", json={"hand": "rG", "exposed": [{"kind": 3}]}), 422, "invalid_request")
    assert {"ruleset", "hand", "exposed.0.kind", "exposed.0.cards"} <= set(problem["errors"])


def test_malformed_json_is_400(client):
    """A body that is not JSON."""
    _problem(client.post("/v1/hu", data="{not json", content_type="application/json"), 400, "malformed_json")


#: Bodies that are not UTF-8, which JSON exchanged between systems must be (RFC 8259, section 8.1); a UTF-8 byte
#: order mark is refused too (the RFC lets a parser ignore one; orjson refuses it).
NOT_UTF8 = [
    pytest.param(b'{"ruleset": "bga-taiwan", "hand": ["\xff"]}', id="a byte no UTF-8 text has"),
    pytest.param('{"ruleset": "bga-taiwan", "hand": ["rG"]}'.encode("utf-16"), id="UTF-16 with its BOM"),
    pytest.param('{"ruleset": "bga-taiwan", "hand": ["rG"]}'.encode("utf-16-le"), id="UTF-16 without a BOM"),
    pytest.param('{"ruleset": "bga-taiwan", "hand": ["rG"], "note": "é"}'.encode("latin-1"), id="Latin-1"),
    pytest.param(b'{"ruleset": "bga-taiwan", "hand": ["\xed\xa0\x80"]}', id="an encoded surrogate"),
    pytest.param(b'{"ruleset": "bga-taiwan", "hand": ["\xc0\xaf"]}', id="an overlong encoding"),
    pytest.param(b'\xef\xbb\xbf{"ruleset": "bga-taiwan", "hand": ["rG"]}', id="a UTF-8 BOM"),
]


@pytest.mark.parametrize("body", NOT_UTF8)
def test_a_body_that_is_not_utf8_is_malformed_json_everywhere(app, body):
    """Every operation with a JSON body answers 400 malformed_json, as for any body that is not JSON, never 422
    for fields it could not read."""
    client = app.test_client()
    paths = sorted(rule.rule for rule in app.url_map.iter_rules() if "POST" in (rule.methods or ()))
    assert "/v1/hu" in paths and len(paths) >= 10
    for path in paths:
        problem = _problem(client.post(path, data=body, content_type="application/json"), 400, "malformed_json")
        assert problem["type"] == "/problems/malformed_json" and problem["errors"] == {"body": ["Invalid JSON body."]}


def test_oversized_body_is_413(app):
    """Bodies over MAX_CONTENT_LENGTH."""
    app.config["MAX_CONTENT_LENGTH"] = 1000
    response = app.test_client().post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": ["rA"] * 400})
    _problem(response, 413, "payload_too_large")


def test_unknown_path_and_method(client):
    """404 and 405 are problems too; 405 lists the allowed methods."""
    _problem(client.get("/v1/nothing"), 404, "not_found")
    response = client.get("/v1/hu")
    _problem(response, 405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]


def test_settling_a_hand_that_does_not_win(client):
    """A settlement needs a hu."""
    problem = _problem(client.post("/v1/settlements", json={
        "ruleset": "bga-taiwan", "seats": 4, "winner": 0, "hand": ["rA", "yA"]}), 422, "not_a_win")
    assert "hand" in problem["errors"]


@pytest.mark.parametrize(("body", "field"), [
    pytest.param({"seats": 5, "winner": 0}, "seats", id="bga_at_most_4_seats"),
    pytest.param({"seats": 3, "winner": 3}, "winner", id="winner_is_a_seat"),
])
def test_settlement_seats(client, body, field):
    """Seat counts and winner indices are checked."""
    response = client.post("/v1/settlements", json={"ruleset": "bga-taiwan", "hand": ["rG"], **body})
    assert response.status_code == 422 and field in response.get_json()["errors"]


def test_flowers_needs_four_seats(client):
    """docs/rules.md#fl-deal: the flowers variant is played by 4."""
    problem = _problem(client.post("/v1/settlements", json={
        "ruleset": "cardavia-flowers", "seats": 3, "winner": 0, "hand": ["F1"]}), 422, "invalid_seat")
    assert "seats" in problem["errors"]


def test_unexpected_errors_are_problems(app, monkeypatch):
    """A bug still answers problem+json 500, never an HTML page."""
    from service.rules.fourcolor import rulesets

    def boom(*_args, **_kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr(rulesets.FourColorRuleSet, "hu", boom)
    _problem(app.test_client().post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": []}), 500, "internal_error")
