"""POST /v1/audits?tables=true: the table after every event, as the replay viewer shows it."""

from __future__ import annotations

from collections import Counter

import pytest

from service.replay.families import simulate

LOGS = [
    pytest.param(simulate("bga-taiwan", 11, 3, "greedy"), id="bga_taiwan"),
    pytest.param(simulate("cardavia-flowers", 12, 4, "random"), id="cardavia_flowers"),
    pytest.param(simulate("cardavia-chan", 13, 4, "greedy"), id="cardavia_chan"),
]


@pytest.mark.parametrize("log", LOGS)
def test_one_table_per_event_and_every_card_accounted_for(client, log):
    """A legal round has a table after each event; the stock shrinks by one per draw (the cards turned up), and
    no card is made or lost: what the seats hold plus every card that left a hand is the deal."""
    body = client.post("/v1/audits?tables=true", json=log).get_json()
    tables = body["tables"]
    assert [t["event"] for t in tables] == list(range(len(log["events"])))
    draws = 0
    for event, table in zip(log["events"], tables, strict=True):
        draws += event["type"] == "draw"
        assert table["stock"] == len(log["stock"]) - draws
        assert len(table["hands"]) == len(table["exposed"]) == log["seats"]
    dealt = Counter(c for hand in log["hands"] for c in hand)
    held = Counter(c for hand in tables[0]["hands"] for c in hand)
    first = log["events"][0]
    if first["type"] == "discard":  # the opening discard left the dealer's hand and lies on the table
        assert tables[0]["public"]["card"] == first["card"] and held + Counter([first["card"]]) == dealt
    else:
        assert held == dealt


def test_a_discard_leaves_the_hand_and_becomes_the_public_card(client):
    """docs/rules.md#fc-deal, #fc-turn: the bga-taiwan dealer opens with a discard; the card goes from his 21
    dealt cards to the table, offered to all, and the others' hands are as dealt."""
    log = simulate("bga-taiwan", 11, 3, "greedy")
    tables = client.post("/v1/audits?tables=true", json=log).get_json()["tables"]
    opening = log["events"][0]
    seat, card = opening["seat"], opening["card"]
    assert opening["type"] == "discard" and seat == log["dealer"]
    assert Counter(log["hands"][seat]) - Counter(tables[0]["hands"][seat]) == Counter([card])
    assert tables[0]["public"] == {"card": card, "source": "discard", "seat": seat, "claims": 0}
    assert tables[0]["to_discard"] is None
    for other in set(range(3)) - {seat}:
        assert sorted(tables[0]["hands"][other]) == sorted(log["hands"][other])


def test_a_claim_waits_for_the_next_event_then_its_meld_is_exposed(client):
    """docs/rules.md#fc-priority: claims listed one after another on a card are resolved together, when the next
    event of another kind comes; the winner then shows his meld and discards."""
    log = simulate("bga-taiwan", 11, 3, "greedy")
    tables = client.post("/v1/audits?tables=true", json=log).get_json()["tables"]
    events = log["events"]
    i = next(i for i, e in enumerate(events) if e["type"] == "claim" and events[i + 1]["type"] == "discard")
    claim = log["events"][i]
    assert tables[i]["public"]["claims"] == 1 and tables[i]["exposed"] == tables[i - 1]["exposed"]
    melds = tables[i + 1]["exposed"][claim["seat"]]
    assert melds[-1] == {"kind": claim["meld"], "cards": sorted(claim["cards"], key=melds[-1]["cards"].index)}


def test_tables_stop_at_a_violation_that_stops_the_replay(client):
    """An event out of turn stops the replay (docs/rules.md#fc-turn): no table after it."""
    log = simulate("bga-taiwan", 11, 3, "greedy")
    i = next(i for i, e in enumerate(log["events"]) if i > 2 and e["type"] == "discard")
    log["events"][i]["seat"] = (log["events"][i]["seat"] + 1) % 3
    body = client.post("/v1/audits?tables=true", json=log).get_json()
    stops = [v["event"] for v in body["violations"] if v["code"] in ("out_of_turn", "lower_priority_claim")]
    assert stops and len(body["tables"]) == stops[0] + 1


def test_without_the_flag_no_tables(client):
    log = simulate("cardavia-chan", 13, 4, "greedy")
    assert "tables" not in client.post("/v1/audits", json=log).get_json()
    assert "tables" not in client.post("/v1/audits?tables=false", json=log).get_json()
    bad = client.post("/v1/audits?tables=maybe", json=log)
    assert bad.status_code == 422 and "tables" in bad.get_json()["errors"]
