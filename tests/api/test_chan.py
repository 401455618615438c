"""cardavia-chan through the HTTP API: pairs, claims with discards, win reasons, settlement with dịch."""

from __future__ import annotations

import pytest

# Six Chắn (2m 3s 4c 5m 6s 7c) + Cạ 2s-2c, 8m-8s, 9m-9c + 3m waiting for 3c (Cạ): 19 cards.
WAITING = ["2m", "2m", "3s", "3s", "4c", "4c", "5m", "5m", "6s", "6s", "7c", "7c",
           "8m", "8s", "9m", "9c", "2s", "2c", "3m"]


def test_chan_ruleset_is_listed_with_bonuses(client):
    """GET /v1/rulesets lists cardavia-chan with its pair kinds, bonuses (main/dịch) and the Tôm option."""
    body = client.get("/v1/rulesets/cardavia-chan").get_json()
    assert body["family"] == "chan" and len(body["cards"]) == 25
    assert {b["name"]: (b["main"], b["dich"]) for b in body["bonuses"]}["leo"] == (5, 2)
    assert body["options"][0]["name"] == "tom_set" and body["options"][0]["default"] == "3m-3c-7c"


def test_win_answer_lists_pairs_and_counts(client):
    """3c completes Cạ 3m-3c: 6 Chắn + 4 Cạ = 10 pairs, a win; the seed's Tôm 3m 3c 7c is held -> 4 points."""
    body = client.post("/v1/hu", json={"ruleset": "cardavia-chan", "hand": WAITING, "public_card": "3c"}).get_json()
    assert body["hu"] is True and (body["chan_count"], body["ca_count"]) == (6, 4)
    assert body["points"] == 4 and body["reasons"] == [] and body["unpaired"] == []
    assert {"kind": "ca", "cards": ["3m", "3c"], "points": 0, "concealed": True} in body["melds"]


def test_non_win_says_why(client):
    """3s would make a third 3s (pair + odd card) with 3m left: both unpaired; too few cards is not the reason."""
    body = client.post("/v1/hu", json={"ruleset": "cardavia-chan", "hand": WAITING, "public_card": "5s"}).get_json()
    assert body["hu"] is False and body["points"] is None and body["melds"] is None
    assert [r["code"] for r in body["reasons"]] == ["unpaired_cards"]
    assert sorted(body["unpaired"]) == ["3m", "5s"]


def test_claims_carry_discards_and_priorities(client):
    """Three 2m in hand: Chíu (2) and a Chắn capture (1) on a discarded 2m; after either, 3s or 4c may go."""
    body = client.post("/v1/melds", json={"ruleset": "cardavia-chan", "hand": ["2m", "2m", "2m", "3s", "4c"],
                                          "public_card": "2m", "seat_role": "next"}).get_json()
    assert [(c["kind"], c["priority"]) for c in body["claims"]] == [("chiu", 2), ("chan", 1)]
    assert all(c["discards"] == ["3s", "4c"] for c in body["claims"])
    assert body["card_source"] == "discard"


# Triple 6m + Chắn 2m 4s 5c 7s + Cạ 2s-2c 4m-4c 5m-5s 9s-9c (19 cards): the fourth 6m makes a Chíu (two Chắn),
# 6 Chắn + 4 Cạ = 10 pairs, a win. Seed 002 / docs/rules.md#chan-priority: a win on a turned-up stock card
# first (3), then Chíu (2), then captures (1); on a discard only a Chíu may complete a win, so that win ranks 2.
CHIU_WAITING = ["6m", "6m", "6m", "2m", "2m", "4s", "4s", "5c", "5c", "7s", "7s", "2s", "2c", "4m", "4c", "5m",
                "5s", "9s", "9c"]
WIN_PRIORITIES = [
    pytest.param("discard", "next", [("win", "chiu", 2, True), ("chiu", "chiu", 2, None),
                                     ("chan", "capture", 1, None)], id="chiu_win_on_a_discard_ranks_2"),
    pytest.param("discard", "other", [("win", "chiu", 2, True), ("chiu", "chiu", 2, None)],
                 id="chiu_win_on_a_discard_ranks_2_for_any_seat"),
    pytest.param("stock", "drawer", [("win", "win", 3, False), ("chiu", "chiu", 2, None),
                                     ("chan", "capture", 1, None)], id="win_on_a_stock_card_ranks_3"),
]


@pytest.mark.parametrize(("source", "role", "expected"), WIN_PRIORITIES)
def test_win_priority_depends_on_where_the_card_came_from(client, source, role, expected):
    """Priorities: a win on a turned-up stock card 3, Chíu 2, capture 1; a Chíu-completed win on a discard 2."""
    body = client.post("/v1/melds", json={"ruleset": "cardavia-chan", "hand": CHIU_WAITING, "public_card": "6m",
                                          "seat_role": role, "card_source": source}).get_json()
    assert [(c["kind"], c["priority_class"], c["priority"], c["by_chiu"]) for c in body["claims"]] == expected


def test_win_only_on_a_stock_card(client):
    """docs/rules.md#chan-win-stock: an ordinary discard cannot win; the same card turned up from the stock can."""
    request = {"ruleset": "cardavia-chan", "hand": WAITING, "public_card": "3c", "seat_role": "other"}
    on_discard = client.post("/v1/melds", json={**request, "card_source": "discard"}).get_json()
    on_stock = client.post("/v1/melds", json={**request, "card_source": "stock"}).get_json()
    assert on_discard["claims"] == []
    assert [c["kind"] for c in on_stock["claims"]] == ["win"]


def test_history_rule4_blocks_a_discarded_face(client):
    """Rule 4: a face the player discarded earlier cannot be captured by him."""
    request = {"ruleset": "cardavia-chan", "hand": ["5m", "7s", "8c"], "public_card": "5m", "seat_role": "next"}
    assert [c["kind"] for c in client.post("/v1/melds", json=request).get_json()["claims"]] == ["chan"]
    blocked = client.post("/v1/melds", json={**request, "history": {"discarded": ["5m"]}}).get_json()
    assert blocked["claims"] == []


def test_legal_discards_without_public_card(client):
    """Rule 2: the dealer may not break his pairs; single 4c and 9s may go."""
    body = client.post("/v1/melds", json={"ruleset": "cardavia-chan", "hand": ["2m", "2m", "4c", "9s"]}).get_json()
    assert body["legal_discards"] == ["4c", "9s"]


def test_settlement_with_dich(client):
    """Ù chì (3/1) + Tôm (4/1): Tôm main 4 + Ù chì dịch 1 = 5; each loser pays 5, the winner gets 15."""
    body = client.post("/v1/settlements", json={
        "ruleset": "cardavia-chan", "seats": 4, "winner": 2, "hand": WAITING, "public_card": "3c",
        "context": {"own_gate": True}}).get_json()
    assert body["points"] == 5 and body["deltas"] == [-5, -5, 15, -5]
    assert body["bonuses"] == ["u_chi", "tom"]


def test_chan_errors(client):
    """Chắn codes only; context only for Chắn; four seats."""
    bad = client.post("/v1/hu", json={"ruleset": "cardavia-chan", "hand": ["rG"]})
    assert bad.status_code == 422 and bad.get_json()["errors"] == {"hand.0": [bad.get_json()["detail"]]}
    ctx = client.post("/v1/settlements", json={"ruleset": "bga-taiwan", "seats": 4, "winner": 0, "hand": ["rG"],
                                               "context": {"own_gate": True}})
    assert ctx.status_code == 422 and "context" in ctx.get_json()["errors"]
    seats = client.post("/v1/settlements", json={"ruleset": "cardavia-chan", "seats": 3, "winner": 0,
                                                 "hand": WAITING, "public_card": "3c"})
    assert seats.status_code == 422 and "seats" in seats.get_json()["errors"]


def test_discards_keep_the_tom_set(client):
    """docs/rules.md#chan-bonuses: a full Tôm set adds to any win's score. Of the discards 1 replacement from
    waiting, 3m alone breaks the Tôm set 3m 3c 7c: its `sets_kept` (Tôm 3c 7c, Lèo 8s 9m: 4) is the least and it
    ranks last of them; in Four Color Cards the field is null."""
    hand = "2m 3m 3s 3s 3c 3c 4m 4m 5m 5c 6s 6c 6c 7s 7s 7c 7c 8s 9m 9s".split()
    body = client.post("/v1/discards", json={"ruleset": "cardavia-chan", "hand": hand}).get_json()
    near = [(d["card"], d["sets_kept"]) for d in body["discards"] if d["distance"] == 1]
    assert near == [("6s", 7), ("2m", 7), ("8s", 6), ("3m", 4)]
    assert body["best"] == ["6s"]
    fc = client.post("/v1/discards", json={
        "ruleset": "bga-taiwan", "hand": ["rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS",
                                          "yS", "gS", "wE", "wE", "gH", "gH", "yA", "wC"]}).get_json()
    assert {d["sets_kept"] for d in fc["discards"]} == {None}
