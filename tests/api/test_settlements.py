"""POST /v1/settlements and POST /v1/matches through the HTTP API."""

from __future__ import annotations

import pytest

# Four concealed Advisor quads: 4 x 8 = 32 points (docs/rules.md#fc-melds: quad concealed 8).
QUADS = ["rA"] * 4 + ["yA"] * 4 + ["gA"] * 4 + ["wA"] * 4


def test_settlement_breakdown_and_deltas(client):
    """16 Advisors in 4 concealed quads (32) + general rG (1) + field wC wH completed by wP (1): h = 34.

    No lucky card. h >= 10: each of 3 opponents pays (34 - 10) + 1 = 25; the winner receives 75.
    """
    body = client.post("/v1/settlements", json={
        "ruleset": "bga-taiwan", "seats": 4, "winner": 1,
        "hand": QUADS + ["rG", "wC", "wH"], "public_card": "wP",
    }).get_json()
    assert body["points"] == 34 and body["lucky_bonus"] == 0
    assert body["deltas"] == [-25, 75, -25, -25]
    steps = [line["step"] for line in body["breakdown"]]
    assert steps.count("concealed_meld") == 6 and steps.count("payment") == 3
    assert {"step": "total", "points": 34} == {k: v for k, v in body["breakdown"][steps.index("total")].items()
                                               if k != "text"}


def test_lucky_card_bonus_and_three_seats(client):
    """Same hand, lucky card wH: the winner holds 1 wH -> +1; h = 35; 3 seats: 2 x 26 = 52."""
    body = client.post("/v1/settlements", json={
        "ruleset": "bga-taiwan", "seats": 3, "winner": 0,
        "hand": QUADS + ["rG", "wC", "wH"], "public_card": "wP", "lucky_card": "wH",
    }).get_json()
    assert body["points"] == 35 and body["lucky_bonus"] == 1
    assert body["deltas"] == [52, -26, -26]


# Same hand (h = 34 before the lucky card), lucky card rC, 4 seats. docs/rules.md#fc-lucky-match: identical cards by
# default (no rC held: +0, each pays (34 - 10) + 1 = 25); option lucky_match "character": every Chariot counts,
# the hand's wC: +1, h = 35, each pays 26.
LUCKY_MATCH = [
    pytest.param({}, 34, 0, [75, -25, -25, -25], id="identical_by_default"),
    pytest.param({"lucky_match": "identical"}, 34, 0, [75, -25, -25, -25], id="identical"),
    pytest.param({"lucky_match": "character"}, 35, 1, [78, -26, -26, -26], id="character_any_colour"),
]


@pytest.mark.parametrize(("options", "points", "bonus", "deltas"), LUCKY_MATCH)
def test_lucky_match_option_in_the_settlement(client, options, points, bonus, deltas):
    """The settlement counts the lucky card as the option `lucky_match` says and echoes the option."""
    body = client.post("/v1/settlements", json={
        "ruleset": "bga-taiwan", "seats": 4, "winner": 0, "options": options,
        "hand": QUADS + ["rG", "wC", "wH"], "public_card": "wP", "lucky_card": "rC",
    }).get_json()
    assert (body["points"], body["lucky_bonus"], body["deltas"]) == (points, bonus, deltas)
    assert body["options"]["lucky_match"] == options.get("lucky_match", "identical")


@pytest.mark.parametrize(("ruleset", "value", "code"), [
    pytest.param("bga-taiwan", "colour", "invalid_option", id="value_outside_choices"),
    pytest.param("bga-taiwan", True, "invalid_option", id="value_of_wrong_type"),
    pytest.param("cardavia-flowers", "character", "unknown_option", id="flowers_has_no_lucky_card"),
])
def test_lucky_match_bad_value_is_refused_naming_the_field(client, ruleset, value, code):
    """Unknown values (and the option outside bga-taiwan, which alone has a lucky card) are refused."""
    response = client.post("/v1/settlements", json={
        "ruleset": ruleset, "seats": 4, "winner": 0, "hand": ["rC", "rC"], "public_card": "rC",
        "options": {"lucky_match": value}})
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == code
    assert "options.lucky_match" in body["errors"]


def test_flowers_settlement_pays_nothing_by_default(client):
    """cardavia-flowers: flower 3 + general 1 = 4, no payments, a decision; option each_loser_pays: 3 x 4."""
    request = {"ruleset": "cardavia-flowers", "seats": 4, "winner": 2, "hand": ["F1"], "public_card": "rG"}
    body = client.post("/v1/settlements", json=request).get_json()
    assert body["points"] == 4 and body["deltas"] == [0, 0, 0, 0]
    paid = client.post("/v1/settlements", json={**request, "options": {"payment": "each_loser_pays"}}).get_json()
    assert paid["deltas"] == [-4, -4, 12, -4]


def test_lucky_card_only_in_bga(client):
    """The lucky card is a bga-taiwan rule."""
    response = client.post("/v1/settlements", json={
        "ruleset": "cardavia-flowers", "seats": 4, "winner": 0, "hand": ["F1"], "lucky_card": "rG"})
    assert response.status_code == 422 and "lucky_card" in response.get_json()["errors"]


def test_match_running_totals_from_20(client):
    """docs/rules.md#fc-match: every player starts with 20 points; totals after each round; highest total leads."""
    body = client.post("/v1/matches", json={"ruleset": "bga-taiwan", "seats": 3,
                                            "rounds": [[6, -3, -3], [-22, 11, 11]]}).get_json()
    assert body["totals"] == [[26, 17, 17], [4, 28, 28]]
    assert body["final"] == [4, 28, 28] and body["leaders"] == [1, 2]
    assert body["rounds_played"] == 2 and body["standard_rounds"] == 3


def test_match_rejects_rounds_that_do_not_balance(client):
    """Deltas of a round sum to zero."""
    response = client.post("/v1/matches", json={"ruleset": "bga-taiwan", "seats": 2, "rounds": [[1, 1]]})
    assert response.status_code == 422 and "rounds.0" in response.get_json()["errors"]
