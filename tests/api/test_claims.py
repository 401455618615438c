"""POST /v1/claims through the HTTP API: the advice on hands whose options are worked out from docs/rules.md by
hand, the seat's role from `seat`, `from_seat` and `card_source`, and the errors naming the field at fault."""

from __future__ import annotations

import pytest

# bga-taiwan, 20 cards between turns: commands rGAE yGAE, fields gCHP wCHP, soldiers3 yS gS wS, the pair rC rC,
# yC yH and the lone wA. One replacement from waiting (wA for yP).
PAIR_C = ["rG", "rA", "rE", "yG", "yA", "yE", "gC", "gH", "gP", "wC", "wH", "wP", "rC", "rC", "yS", "gS", "wS",
          "yC", "yH", "wA"]
# cardavia-chan, 19 cards: 5 Chắn (2m 3s 4c 6m 7s), 4 Cạ (2s-2c 4m-4s 5m-5s 6s-6c) and 9c: waiting on 9c.
NINE_C = ["2m", "2m", "3s", "3s", "4c", "4c", "6m", "6m", "7s", "7s", "2s", "2c", "4m", "4s", "5m", "5s", "6s", "6c",
          "9c"]


def claims(client, **body):
    """POST /v1/claims."""
    return client.post("/v1/claims", json=body)


def test_bga_triple_that_completes_a_wait(client):
    """Seat 2 of 4 facing seat 0's discard rC is `other`: the triple rC (anyone but the discarder) exposes it,
    discarding wA then waits on yP. The win: commands 2 + 2, fields 1 + 1 + 1, the exposed triple 1, soldiers3 3
    = 11 >= 10, so each of three opponents pays (11 - 10) + 1: gain 6; 4 yP unseen. Passing stays 1 away."""
    response = claims(client, ruleset="bga-taiwan", hand=PAIR_C, public_card="rC", card_source="discard",
                      from_seat=0, seat=2, seats=4)
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["seat_role"] == "other" and body["advice"] == "triple" and not body["forced"]
    assert body["ruleset"] == "bga-taiwan" and body["options"]["threshold"] == 10
    triple, passing = body["choices"]
    assert (triple["kind"], triple["cards"], triple["rank"], triple["priority"]) == ("triple", ["rC"] * 3, 1, 2)
    assert triple["follow"]["card"] == "wA" and triple["distance"] == 0 and triple["gain"] is None
    assert triple["waits"] == [{"card": "yP", "unseen": 4, "claims": ["discard", "stock"], "from_seats": [0, 1, 3],
                                "points": 11, "gain": 6}]
    assert triple["follow"]["waits"] == triple["waits"]
    wA = PAIR_C.count("wA")
    assert triple["follow"]["unseen"] == 4 - wA  # copies of wA he has not seen: the deck's 4 minus his own
    assert (passing["kind"], passing["cards"], passing["rank"], passing["distance"], passing["follow"]) == (
        "pass", [], 2, 1, None)


@pytest.mark.parametrize(("seat", "from_seat", "source", "role"), [
    (3, 2, "discard", "next"),  # the seat after the discarder
    (2, 2, "stock", "drawer"),  # he turned the card up himself
    (0, 2, "discard", "other"),
    (2, 2, "discard", "discarder"),
])
def test_seat_role_follows_the_card(client, seat, from_seat, source, role):
    """The role is that of docs/rules.md#fc-claims: the seat the card came from is its drawer or discarder, the
    seat after it next, the rest other."""
    body = claims(client, ruleset="bga-taiwan", hand=PAIR_C, public_card="rC", card_source=source,
                  from_seat=from_seat, seat=seat).get_json()
    assert body["seat_role"] == role, body


def test_own_discard_leaves_only_pass(client):
    """Nobody claims his own discard (docs/rules.md#fc-claims: "any player except the one who discarded it")."""
    body = claims(client, ruleset="bga-taiwan", hand=PAIR_C, public_card="rC", from_seat=1, seat=1).get_json()
    assert [c["kind"] for c in body["choices"]] == ["pass"] and body["advice"] == "pass"


def test_bga_drawn_general_is_forced(client):
    """The drawer of wG must take it (docs/rules.md#fc-must-take); PAIR_C holds wA but no wE, so no command wG wA
    wE: the single General is the only option, no pass."""
    body = claims(client, ruleset="bga-taiwan", hand=PAIR_C, public_card="wG", card_source="stock", from_seat=1,
                  seat=1).get_json()
    assert body["forced"] and [(c["kind"], c["cards"], c["forced"]) for c in body["choices"]] == [
        ("general", ["wG"], True)]


def test_bga_next_seat_never_takes_a_turned_up_general_from_its_drawer(client):
    """Seat 2 is next after seat 1, who turned up wG. Holding wA and wE it may legally claim the command wG wA wE
    or the single General, both chi-type; but the drawer must take wG, can always take it alone and wins the tie
    (docs/rules.md#fc-must-take, #fc-priority). So the advice is pass and both claims are marked as coming to a
    pass, with its value."""
    hand = [*PAIR_C[:-2], "wE", "wA"]
    body = claims(client, ruleset="bga-taiwan", hand=hand, public_card="wG", card_source="stock", from_seat=1,
                  seat=2, seats=4).get_json()
    assert body["seat_role"] == "next" and body["advice"] == "pass" and not body["forced"], body
    passing, *rest = body["choices"]
    assert [(c["kind"], c["preempted"], c["follow"]) for c in rest] == [("command", True, None),
                                                                       ("general", True, None)]
    assert all(c["value"] == passing["value"] and c["distance"] == passing["distance"] for c in rest)
    assert not passing["preempted"]


@pytest.mark.parametrize(("seat", "gain"), [
    # own gate: Bạch định (no red card) 7 + Bạch thủ dịch 1 + Ù chì dịch 1 = 9, from each of three losers
    (1, 27),
    # the next seat: no Ù chì, 7 + 1 = 8
    (2, 24),
])
def test_chan_win_on_a_stock_card(client, seat, gain):
    """NINE_C + 9c from the stock: 6 Chắn (9c 9c) and 4 Cạ win (docs/rules.md#chan-win-stock)."""
    body = claims(client, ruleset="cardavia-chan", hand=NINE_C, public_card="9c", card_source="stock", from_seat=1,
                  seat=seat, history={"discarded": ["8m"]}).get_json()
    win = body["choices"][0]
    assert body["advice"] == "win" and (win["gain"], win["distance"], win["expected_gain"]) == (gain, -1, gain)


def test_chan_history_bars_a_capture(client):
    """Rule 4: a face he discarded earlier cannot be captured: on a discarded 9c, no Chắn capture is offered."""
    free = claims(client, ruleset="cardavia-chan", hand=NINE_C, public_card="9c", from_seat=1, seat=2).get_json()
    barred = claims(client, ruleset="cardavia-chan", hand=NINE_C, public_card="9c", from_seat=1, seat=2,
                    history={"discarded": ["9c"]}).get_json()
    assert {c["kind"] for c in free["choices"]} == {"pass", "chan"}
    assert [c["kind"] for c in barred["choices"]] == ["pass"]


@pytest.mark.parametrize(("body", "field", "code"), [
    pytest.param({"ruleset": "bga-taiwan", "hand": PAIR_C[:19]}, "hand", "wrong_card_count", id="19_cards"),
    pytest.param({"ruleset": "cardavia-chan", "hand": NINE_C[:18], "public_card": "9c"}, "hand", "wrong_card_count",
                 id="chan_18_cards"),
    pytest.param({"ruleset": "bga-taiwan", "hand": PAIR_C, "seats": 3, "seat": 3}, "seat", "invalid_seat",
                 id="seat_outside_table"),
    pytest.param({"ruleset": "bga-taiwan", "hand": PAIR_C, "seats": 3, "from_seat": 3}, "from_seat", "invalid_seat",
                 id="from_seat_outside_table"),
    pytest.param({"ruleset": "cardavia-chan", "hand": NINE_C, "public_card": "9c", "seats": 3}, "seats",
                 "invalid_seat", id="chan_three_seats"),
    pytest.param({"ruleset": "bga-taiwan", "hand": PAIR_C[:18] + ["rC", "rC"], "public_card": "rC"}, "public_card",
                 "impossible_card_count", id="fifth_copy_public"),
    pytest.param({"ruleset": "bga-taiwan", "hand": PAIR_C, "visible": ["rC", "rC"]}, "visible.1",
                 "impossible_card_count", id="public_card_counts_as_seen"),
    pytest.param({"ruleset": "bga-taiwan", "hand": PAIR_C, "public_card": None}, "public_card", "invalid_request",
                 id="no_public_card"),
    pytest.param({"ruleset": "bga-taiwan", "hand": PAIR_C, "card_source": "deck"}, "card_source", "invalid_request",
                 id="unknown_source"),
    pytest.param({"ruleset": "bga-taiwan", "hand": PAIR_C, "public_card": "F1"}, "public_card", "unknown_card",
                 id="flower_in_bga"),
])
def test_bad_input_is_a_problem_naming_the_field(client, body, field, code):
    """Every refusal is problem+json with a stable code and the field at fault, never a 500. Defaults: public rC
    discarded by seat 1, seat 0 of 4."""
    request = {"public_card": "rC", "from_seat": 1, "seat": 0, **body}
    response = claims(client, **request)
    problem = response.get_json()
    assert response.status_code == 422, problem
    assert response.mimetype == "application/problem+json"
    assert problem["code"] == code and field in problem["errors"], problem
