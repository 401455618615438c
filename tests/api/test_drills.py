"""GET /v1/drills: positions dealt from seeded rounds the advice plays, of the difficulty asked, reproducible, and
graded by the very request they carry."""

from __future__ import annotations

import pytest

import service.arena.drills as drills

RULESETS = ("bga-taiwan", "cardavia-flowers", "cardavia-chan")
#: The distances each difficulty promises (the smallest `distance` among the options the engine ranks).
BANDS = {"easy": range(0, 1), "medium": range(1, 2), "hard": range(2, 99)}


def drill(client, **args):
    """The drill's answer (200 asserted)."""
    answer = client.get("/v1/drills", query_string=args)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()


def options_of(client, found: dict) -> list[dict]:
    """The ranked options the drill's own request answers."""
    answer = client.post(found["request"]["path"], json=found["request"]["body"])
    assert answer.status_code == 200, answer.get_data(as_text=True)
    body = answer.get_json()
    return body["discards"] if found["kind"] == "discard" else body["choices"]


def test_the_same_arguments_deal_the_same_drill_and_the_index_moves_on(client):
    args = {"ruleset": "bga-taiwan", "difficulty": "medium", "seed": 11}
    first = drill(client, index=0, **args)
    assert drill(client, index=0, **args) == first
    others = [drill(client, index=i, **args)["position"] for i in (1, 2, 3)]
    assert any(position != first["position"] for position in others)
    assert drill(client, index=0, **{**args, "seed": 12})["position"] != first["position"]


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("difficulty", list(BANDS))
def test_each_difficulty_deals_positions_of_its_distance_as_the_engine_ranks_them(client, ruleset, difficulty):
    """The carried request answers 200; its options' smallest distance is the drill's and lies in the band; no
    option is a win; there is a wrong answer (an option worth less than the advised one)."""
    sizes = {r["id"]: r["hand_size"]["resting"] for r in client.get("/v1/rulesets").get_json()["rulesets"]}
    for index in range(3):
        found = drill(client, ruleset=ruleset, difficulty=difficulty, seed=5, index=index)
        assert (found["ruleset"], found["difficulty"], found["index"]) == (ruleset, difficulty, index)
        options = options_of(client, found)
        assert min(o["distance"] for o in options) == found["distance"]
        assert found["distance"] in BANDS[difficulty]
        assert len(options) >= 2 and min(o["value"] for o in options) < options[0]["value"]
        position, body = found["position"], found["request"]["body"]
        cards = len(position["hand"]) + sum(len(m["cards"]) for m in position["exposed"])
        assert position["hand"] == body["hand"] and position["seat"] == body["seat"]
        if found["kind"] == "discard":
            assert found["request"]["path"] == "/v1/discards" and cards == sizes[ruleset] + 1
            assert position["public_card"] is None
        else:
            assert found["request"]["path"] == "/v1/claims" and cards == sizes[ruleset]
            assert not {o["kind"] for o in options} & {"hu", "win"}
            assert position["public_card"] == body["public_card"] and position["from_seat"] == body["from_seat"]
            seen = position["hand"] + position["discards_seen"] + [position["public_card"]]
            assert seen.count(position["public_card"]) <= 4  # the card on offer is not counted twice


@pytest.mark.parametrize("kind", ["discard", "claim"])
def test_kind_asks_for_discards_or_answers_to_a_public_card(client, kind):
    paths = {drill(client, ruleset="cardavia-chan", difficulty="hard", seed=2, index=i, kind=kind)["request"]["path"]
             for i in range(3)}
    assert paths == {"/v1/discards" if kind == "discard" else "/v1/claims"}


def test_what_the_seat_saw_is_in_the_request(client):
    """The visible cards of the request are the unclaimed public cards and the other seats' melds."""
    found = drill(client, ruleset="bga-taiwan", difficulty="easy", seed=1, index=0)
    position = found["position"]
    melds = [c for seat in position["opponents"] for m in seat for c in m["cards"]]
    assert sorted(found["request"]["body"]["visible"]) == sorted(position["discards_seen"] + melds)
    assert position["opponents"][position["seat"]] == []


def test_an_unchanged_drill_is_not_sent_again(client):
    first = client.get("/v1/drills?ruleset=cardavia-chan&seed=3")
    again = client.get("/v1/drills?ruleset=cardavia-chan&seed=3", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize(("query", "field"), [
    ("difficulty=easy", "ruleset"), ("ruleset=nope", "ruleset"), ("ruleset=bga-taiwan&difficulty=expert", "difficulty"),
    ("ruleset=bga-taiwan&seed=-1", "seed"), ("ruleset=bga-taiwan&seed=x", "seed"),
    ("ruleset=bga-taiwan&index=1.5", "index"), ("ruleset=bga-taiwan&index=100001", "index"),
    ("ruleset=bga-taiwan&kind=pong", "kind"),
])
def test_bad_arguments_are_problems_naming_the_field(client, query, field):
    answer = client.get(f"/v1/drills?{query}")
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert list(answer.get_json()["errors"]) == [field]


def test_a_drill_whose_rounds_hold_no_such_position_is_a_problem(client, monkeypatch):
    monkeypatch.setattr(drills, "MAX_ROUNDS", 0)
    answer = client.get("/v1/drills?ruleset=bga-taiwan&difficulty=hard")
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    body = answer.get_json()
    assert body["code"] == "no_drill_position" and "difficulty" in body["errors"]


@pytest.mark.parametrize(("ruleset", "unit"), [("bga-taiwan", "points"), ("cardavia-flowers", "wins"),
                                               ("cardavia-chan", "points")])
def test_a_drill_names_the_unit_of_its_values_and_losses(client, ruleset, unit):
    """The pages say a loss in words: points, or (cardavia-flowers, where nobody pays) the chance to win."""
    found = drill(client, ruleset=ruleset, difficulty="easy", seed=1, index=0)
    assert found["loss_unit"] == unit
    assert all(o["value"] is not None for o in options_of(client, found))
