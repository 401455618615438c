"""POST /v1/hu with `seat_role` or `card_source` asks the question the rules ask: may this seat win on this card? The
answer follows the rule-set's legal claims for every role and source of the rules tests
(tests/support/chan_claims.py), in both families: a hand whose cards win is still no win where the rules give this
seat none (reason `win_not_open`, citing the rule); without the two fields the answer is the cards' alone, as before."""

from __future__ import annotations

import pytest

from tests.support.chan_claims import WIN_CASES

BGA_HAND = ["rG", "rA", "rE", "yC", "yC"]
BGA_EXPOSED = [{"kind": "triple", "cards": ["wS", "wS", "wS"]}]
# The Chắn hand of the hand lab's report: 5 Chắn, 4 Cạ and 9c waiting for its pair
NINE_C = "2m 2m 3s 3s 4c 4c 6m 6m 7s 7s 2s 2c 4m 4s 5m 5s 6s 6c 9c".split()


def hu(client, **body):
    answer = client.post("/v1/hu", json=body)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


@pytest.mark.parametrize(("hand", "public", "role", "source", "expected"), WIN_CASES)
def test_chan_hu_wins_exactly_where_the_rules_offer_a_win(client, hand, public, role, source, expected):
    """Each case of the rules tests' wins (docs/rules.md#chan-win-stock): hu is true exactly when a win is among the
    seat's legal claims on that card from that source."""
    answer = hu(client, ruleset="cardavia-chan", hand=hand, public_card=public, seat_role=role, card_source=source)
    wins = any(claim[0] == "win" for claim in expected)
    assert answer["hu"] is wins
    if not wins and hu(client, ruleset="cardavia-chan", hand=hand, public_card=public)["hu"]:
        assert [r["code"] for r in answer["reasons"]] == ["win_not_open"]
        assert "docs/rules.md#chan-win-stock" in answer["reasons"][0]["message"]
        assert answer["points"] is None and answer["melds"] is None


def test_the_lab_hand_wins_on_a_stock_card_and_not_on_a_discard(client):
    """The hand lab's report: 9c completes the pairs, but a discarded 9c is no win for the next seat (nor, with no
    role given, for any seat); turned up from the stock it wins for the drawer and for any other seat. Without role
    or source the answer is the cards' own."""
    base = {"ruleset": "cardavia-chan", "hand": NINE_C, "public_card": "9c"}
    assert hu(client, **base)["hu"] is True
    for asked in ({"seat_role": "next", "card_source": "discard"}, {"card_source": "discard"},
                  {"seat_role": "other"}):
        answer = hu(client, **base, **asked)
        assert (answer["hu"], [r["code"] for r in answer["reasons"]]) == (False, ["win_not_open"]), asked
    for role in ("drawer", "other", "next", "discarder"):
        answer = hu(client, **base, seat_role=role, card_source="stock")
        assert answer["hu"] is True and answer["points"] == hu(client, **base)["points"]


@pytest.mark.parametrize(("role", "wins"), [("drawer", True), ("next", True), ("other", True), ("discarder", False)])
def test_four_color_hu_is_open_to_every_seat_but_the_discarder(client, role, wins):
    """docs/rules.md#fc-claims: hu on a public card for anyone but the seat that discarded it."""
    answer = hu(client, ruleset="bga-taiwan", hand=BGA_HAND, exposed=BGA_EXPOSED, public_card="yC", seat_role=role)
    assert answer["hu"] is wins
    if not wins:
        assert [r["code"] for r in answer["reasons"]] == ["win_not_open"]
        assert "docs/rules.md#fc-claims" in answer["reasons"][0]["message"]


def test_the_claim_fields_are_checked_by_name(client):
    for field, value in (("seat_role", "boss"), ("card_source", "table")):
        answer = client.post("/v1/hu", json={"ruleset": "bga-taiwan", "hand": BGA_HAND, "public_card": "yC",
                                             field: value})
        assert answer.status_code == 422
        assert field in answer.get_json()["errors"]


def test_a_reason_reads_in_the_readers_language(client):
    answer = client.post("/v1/hu", json={"ruleset": "cardavia-chan", "hand": NINE_C, "public_card": "9c",
                                         "card_source": "discard"}, headers={"Accept-Language": "vi"}).get_json()
    assert answer["reasons"][0]["message"].startswith("chỉ được ù bằng lá lật từ nọc")


@pytest.mark.parametrize("ruleset", ["bga-taiwan", "cardavia-chan"])
@pytest.mark.parametrize(("asked", "named"), [({"seat_role": "next"}, "seat_role"),
                                              ({"card_source": "stock"}, "card_source"),
                                              ({"seat_role": "drawer", "card_source": "stock"}, "seat_role")])
def test_the_claim_question_without_a_public_card_is_refused_by_name(client, ruleset, asked, named):
    """The question asks about a public card: without one it is 422 `missing_public_card` naming the field given,
    as on /v1/melds, not an answer about the cards alone that the caller would read as the answer to it."""
    answer = client.post("/v1/hu", json={"ruleset": ruleset, "hand": BGA_HAND if ruleset == "bga-taiwan" else
                                         NINE_C, **asked})
    problem = answer.get_json()
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert problem["code"] == "missing_public_card" and list(problem["errors"]) == ["public_card"]
    assert problem["detail"].startswith(f"{named} asks whether this seat may win on a public card")
    assert client.post("/v1/hu", json={"ruleset": ruleset, "hand": NINE_C if ruleset == "cardavia-chan" else
                                       BGA_HAND, "seat_role": None, "card_source": None}).status_code == 200


@pytest.mark.parametrize(("path", "language", "said"), [
    ("/v1/hu", "vi", "seat_role hỏi nhà này có thắng được bằng một lá ngửa không"),
    ("/v1/melds", "zh-Hant", "seat_role 問的是對公開牌的要牌"),
])
def test_the_refusal_without_a_public_card_reads_in_the_readers_language(client, path, language, said):
    """The field's name stays the code a request sends; the rest is the reader's language."""
    answer = client.post(path, json={"ruleset": "bga-taiwan", "hand": BGA_HAND, "seat_role": "next"},
                         headers={"Accept-Language": language})
    assert answer.status_code == 422 and answer.get_json()["detail"].startswith(said)
