"""POST /v1/discards through the HTTP API: the exact ranking on hands whose waits and points are worked out
from docs/rules.md by hand, and the errors naming the field at fault."""

from __future__ import annotations

import pytest

# bga-taiwan, 21 cards: command rG rA rE (2), field yC yH yP (1), concealed triples gC and wA (3 + 3), soldiers3
# rS yS gS (3), pairs wE and gH (0), and two loose cards yA and wC. Discarding one loose card leaves the other
# waiting for its pair: 2 + 1 + 3 + 3 + 3 = 12 points (docs/rules.md#fc-melds); 12 >= 10 so each of the three
# opponents pays (12 - 10) + 1 = 3: gain 9.
BGA_HAND = ["rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS", "yS", "gS", "wE", "wE",
            "gH", "gH", "yA", "wC"]
# cardavia-chan, 20 cards: Chắn 2m 3s 4c 5m 6s 7c, Cạ 2s-2c 3m-3c 4m-4s, loose 5s and 9m.
CHAN_HAND = ["2m", "2m", "3s", "3s", "4c", "4c", "5m", "5m", "6s", "6s", "7c", "7c", "2s", "2c", "3m", "3c", "4m",
             "4s", "5s", "9m"]


def discards(client, **body):
    """POST /v1/discards."""
    return client.post("/v1/discards", json=body)


def by_card(body: dict) -> dict[str, dict]:
    """The discard options by card."""
    return {d["card"]: d for d in body["discards"]}


def test_bga_loose_card_discard_waits_on_the_other_and_wins_12(client):
    """Each loose card's discard waits on the other's pair; two visible yA leave 1 unseen yA against 3 wC,
    so discarding yA (waiting on wC) ranks first; a General is never offered (docs/rules.md#fc-generals-discard)."""
    response = discards(client, ruleset="bga-taiwan", hand=BGA_HAND, visible=["yA", "yA"], seats=4, seat=2)
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["ruleset"] == "bga-taiwan" and body["engine_version"] and body["options"]["threshold"] == 10
    options = by_card(body)
    assert "rG" not in options
    assert set(options) == {"rA", "rE", "yC", "yH", "yP", "gC", "wA", "rS", "yS", "gS", "wE", "gH", "yA", "wC"}
    assert body["best"] == ["yA"] and options["yA"]["rank"] == 1 and options["wC"]["rank"] == 2
    assert body["unseen_total"] == 112 - 21 - 2
    assert options["yA"]["distance"] == 0 and options["wC"]["distance"] == 0
    assert options["yA"]["waits"] == [{"card": "wC", "unseen": 3, "claims": ["discard", "stock"],
                                       "from_seats": [0, 1, 3], "points": 12, "gain": 9}]
    assert [(w["card"], w["unseen"], w["points"]) for w in options["wC"]["waits"]] == [("yA", 1, 12)]
    assert options["yA"]["expected_gain"] == pytest.approx(3 * 9 / 89, abs=1e-4)
    assert all(o["distance"] >= 1 for card, o in options.items() if card not in ("yA", "wC"))
    assert body["distance"] == 1  # the 21 cards as they stand: one loose card to replace
    # unseen copies of each discarded card: 4 in the deck, minus his own, minus the visible ones
    assert options["yA"]["unseen"] == 4 - 1 - 2 and options["wC"]["unseen"] == 3 and options["gC"]["unseen"] == 1


def test_bga_wait_under_the_threshold_has_a_negative_gain(client):
    """threshold 13: h = 12 < 13, so the caller pays each opponent 13 + 1 (docs/rules.md#fc-threshold): gain -42, and
    the one-card expected gain counts only wins worth calling (0)."""
    body = discards(client, ruleset="bga-taiwan", options={"threshold": 13}, hand=BGA_HAND).get_json()
    wait = by_card(body)["yA"]["waits"][0]
    assert (wait["card"], wait["points"], wait["gain"]) == ("wC", 12, -42)
    assert by_card(body)["yA"]["expected_gain"] == 0


# Fields rCHP yCHP gCHP wCHP (1 each) and Advisor pairs (0): discarding rE waits on any General (h = 4 + 1 = 5)
# and on a third Advisor (concealed triple 3: h = 7).
FIELDS_AND_PAIRS = ["rC", "rH", "rP", "yC", "yH", "yP", "gC", "gH", "gP", "wC", "wH", "wP", "rA", "rA", "yA", "yA",
                    "gA", "gA", "wA", "wA", "rE"]
STOCK_ONLY = [
    # seat 2 of 4, default threshold: h = 5 and 7 are under 10, the caller pays each opponent 10 + 1: gain -33
    pytest.param("bga-taiwan", {}, "rG", {"card": "rG", "unseen": 4, "claims": ["stock"], "from_seats": [],
                                          "points": 5, "gain": -33}, id="bga_general_wait_is_stock_only"),
    pytest.param("bga-taiwan", {}, "rA", {"card": "rA", "unseen": 2, "claims": ["discard", "stock"],
                                          "from_seats": [0, 1, 3], "points": 7, "gain": -33},
                 id="bga_advisor_wait_comes_from_any_discard_or_the_stock"),
    # flowers, no payments (gain = points): a flower scores 3, h = 4 + 3 = 7
    pytest.param("cardavia-flowers", {}, "F3", {"card": "F3", "unseen": 1, "claims": ["stock"], "from_seats": [],
                                                "points": 7, "gain": 7}, id="flowers_flower_wait_is_stock_only"),
    pytest.param("cardavia-flowers", {}, "wG", {"card": "wG", "unseen": 4, "claims": ["stock"], "from_seats": [],
                                                "points": 5, "gain": 5}, id="flowers_general_wait_is_stock_only"),
]


@pytest.mark.parametrize(("ruleset", "options", "card", "expected"), STOCK_ONLY)
def test_waits_on_cards_never_discarded_list_no_discarding_seats(client, ruleset, options, card, expected):
    """Generals (seed 000 "non possono essere mai scartati") and flowers (seed 003) are never discarded: a wait on
    one is won on a turned-up stock card only, from nobody's discard."""
    body = discards(client, ruleset=ruleset, options=options, seats=4, seat=2, hand=FIELDS_AND_PAIRS)
    assert body.status_code == 200, body.get_json()
    waits = {w["card"]: w for w in by_card(body.get_json())["rE"]["waits"]}
    assert waits[card] == expected


def test_bga_paying_distance_counts_only_wins_that_pay(client):
    """At threshold 10 the wait of 12 points pays: paying distance 0, as the distance. At threshold 13 the same wait
    costs (12 < 13), so the hand it leaves is no longer waiting on a win that pays (docs/advice.md#paying-distance-
    bga-taiwan): paying distance 1 or more, said in the reason; the discards at the least paying distance count
    the cards that lower it."""
    paying = by_card(discards(client, ruleset="bga-taiwan", hand=BGA_HAND).get_json())
    assert paying["yA"]["paying_distance"] == 0 == paying["yA"]["distance"]
    assert paying["yA"]["paying_improving"] is None
    body = discards(client, ruleset="bga-taiwan", options={"threshold": 13}, hand=BGA_HAND).get_json()
    costly = by_card(body)["yA"]
    assert costly["distance"] == 0 and costly["paying_distance"] >= 1
    assert "from a win that pays" in costly["reason"]
    first = body["discards"][0]
    assert first["paying_distance"] == min(d["paying_distance"] for d in body["discards"])
    least = [d for d in body["discards"] if d["paying_distance"] == first["paying_distance"]]
    assert all(isinstance(d["paying_improving"], int) for d in least)
    assert first["paying_improving"] == max(d["paying_improving"] for d in least)


def test_chan_has_no_paying_distance(client):
    """Every Chắn win pays (docs/rules.md#chan-scoring): no paying distance, the distance ranks."""
    body = discards(client, ruleset="cardavia-chan", hand=CHAN_HAND).get_json()
    assert all(d["paying_distance"] is None and d["paying_improving"] is None for d in body["discards"])


def test_chan_bach_dinh_wait_outranks_more_unseen_waits(client):
    """Discarding 5s waits on 9m/9s/9c (11 unseen), scoring Tôm 4 (3m 3c 7c, docs/rules.md#chan-tom default);
    discarding 9m waits on 5m/5s/5c (9 unseen) with no red card left: Bạch định 7 + Tôm dịch 1 = 8, so 9m ranks first;
    discards that break an identical pair are never offered (rule 2)."""
    response = discards(client, ruleset="cardavia-chan", hand=CHAN_HAND)
    body = response.get_json()
    assert response.status_code == 200, body
    options = by_card(body)
    assert set(options) == {"2s", "2c", "3m", "3c", "4m", "4s", "5s", "9m"}
    assert body["best"] == ["9m"]
    nine = {w["card"]: (w["unseen"], w["points"], w["gain"], w["claims"]) for w in options["9m"]["waits"]}
    assert nine == {"5m": (2, 8, 24, ["stock"]), "5s": (3, 8, 24, ["stock"]), "5c": (4, 8, 24, ["stock"])}
    five = {w["card"]: (w["unseen"], w["points"]) for w in options["5s"]["waits"]}
    assert five == {"9m": (3, 4), "9s": (4, 4), "9c": (4, 4)}
    assert options["2s"]["distance"] >= 1


def test_chan_passed_identical_face_is_never_offered(client):
    """Rule 3: a player who passed up an identical capture of 9m may not discard 9m."""
    body = discards(client, ruleset="cardavia-chan", hand=CHAN_HAND,
                    history={"passed_identical": ["9m"]}).get_json()
    assert "9m" not in by_card(body) and body["best"] == ["5s"]


@pytest.mark.parametrize(("body", "field", "code"), [
    pytest.param({"ruleset": "bga-taiwan", "hand": BGA_HAND[:20]}, "hand", "wrong_card_count", id="20_cards"),
    pytest.param({"ruleset": "bga-taiwan", "hand": BGA_HAND, "visible": ["gC", "gC"]}, "visible.1",
                 "impossible_card_count", id="fifth_copy_in_visible"),
    pytest.param({"ruleset": "bga-taiwan", "hand": BGA_HAND, "visible": ["xx"]}, "visible.0", "unknown_card",
                 id="unknown_visible_card"),
    pytest.param({"ruleset": "bga-taiwan", "hand": BGA_HAND, "seats": 3, "seat": 3}, "seat", "invalid_seat",
                 id="seat_outside_table"),
    pytest.param({"ruleset": "cardavia-chan", "hand": CHAN_HAND[:19]}, "hand", "wrong_card_count",
                 id="chan_19_cards"),
    pytest.param({"ruleset": "cardavia-chan", "hand": CHAN_HAND, "seats": 3}, "seats", "invalid_seat",
                 id="chan_three_seats"),
])
def test_bad_input_is_a_problem_naming_the_field(client, body, field, code):
    """Every refusal is problem+json with a stable code and the field at fault, never a 500."""
    response = discards(client, **body)
    problem = response.get_json()
    assert response.status_code == 422, problem
    assert response.mimetype == "application/problem+json"
    assert problem["code"] == code and field in problem["errors"], problem
