"""The replay viewer in a real browser: logs loaded by pasting, from a file or simulated; stepping with buttons
and arrow keys; a planted violation highlighted at its event; the analysis job annotating every decision."""

from __future__ import annotations

import copy
import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from service.replay.families import simulate
from tests.support.pages import RULESET, card_name, open_viewer, planted, simulate_in_viewer

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

def test_a_planted_violation_is_highlighted_at_its_event(page, server):
    log, index, card = planted()
    open_viewer(page, server)
    page.fill("#paste", json.dumps(log))
    page.click("#load-paste")
    item = page.locator(f"#event-{index}")
    expect(item).to_have_class("violation")
    # marked in words, its code and the service's text for the curious; the seat as players count, from 1
    tag = item.locator(".tag.bad")
    expect(tag).to_have_text("⚠ against the rules")
    expect(tag).to_have_attribute("data-code", "not_in_hand")
    assert page.locator("#events li.violation").count() >= 1
    seat = log["events"][index]["seat"]
    expect(page.locator("#audit")).to_contain_text(f"{card_name(card)} is not in seat {seat + 1}'s hand")

    # step to it with the arrow keys, from the deal
    page.locator("#events").focus()
    for _ in range(index + 1):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#position")).to_have_text(f"event {index + 1} / {len(log['events'])}")
    expect(item).to_have_attribute("aria-selected", "true")
    box = page.locator("#now .violation-box")
    expect(box).to_have_attribute("data-code", "not_in_hand")
    expect(box).to_contain_text(f"{card_name(card)} is not in seat {seat + 1}'s hand")
    expect(box.locator("a.rule-link[href='/docs/rules#fc-turn']").first).to_be_visible()
    # the public card is the planted one, and the discarder's hand is unchanged (the card was never in it)
    expect(page.locator(f"#now .card[data-code='{card}']")).to_have_count(1)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#now .violation-box")).to_have_count(0)
    page.click("#forward")
    expect(page.locator("#now .violation-box")).to_have_count(1)
    page.keyboard.press("End")
    expect(page.locator("#position")).to_have_text(f"event {len(log['events'])} / {len(log['events'])}")
    expect(page.locator("#forward")).to_be_disabled()
    page.keyboard.press("Home")
    expect(page.locator("#position")).to_contain_text("the deal")
    expect(page.locator("#back")).to_be_disabled()


def test_a_log_file_with_a_wrong_result_shows_both_settlements(page, server, tmp_path):
    # The simulated round's recorded result is the replay's; changing the points makes them differ
    # (docs/rules.md#logs-result), and the viewer shows the recomputed settlement beside the recorded one.
    log = copy.deepcopy(simulate(RULESET, 3, 3, "greedy"))
    assert log["result"]["type"] == "hu", "this seed must end in a hu"
    true_points = log["result"]["points"]
    log["result"]["points"] = true_points + 5
    path = tmp_path / "round.json"
    path.write_text(json.dumps(log))
    open_viewer(page, server)
    page.set_input_files("#file", str(path))
    audit = page.locator("#audit")
    expect(audit.locator("[data-code=result_mismatch]")).to_have_text(
        "the recorded result differs from the recomputed one (below)")  # no JSON of the two results
    expect(audit).to_contain_text("✗ the recorded result differs")
    expect(audit.locator(".settle > div").nth(0)).to_contain_text(f"{true_points} points")
    expect(audit.locator(".settle > div").nth(1)).to_contain_text(f"{true_points + 5} points")
    # the last event's table: the stock count is what the stock had minus the cards turned up
    page.click("#last")
    draws = sum(1 for e in log["events"] if e["type"] == "draw")
    expect(page.locator("#stock")).to_have_text(f"Stock: {len(log['stock']) - draws} cards")


def test_an_unreadable_paste_is_reported_next_to_the_box(page, server):
    open_viewer(page, server)
    page.fill("#paste", "{not json")
    page.click("#load-paste")
    expect(page.locator(".field-error[data-field=paste]")).to_contain_text("not JSON")
    page.console.expect(r"status of 422")
    log = copy.deepcopy(simulate(RULESET, 3, 3, "greedy"))
    log["hands"][1][0] = "zz"
    page.fill("#paste", json.dumps(log))
    page.click("#load-paste")
    # hands.1.0: the deal of the API's seat 1, seat 2 as players count
    expect(page.locator(".field-error[data-field=log]")).to_contain_text("Deal, seat 2: 'zz' is not a card code")
    expect(page.locator("#viewer")).to_be_hidden()


def simulated(server: str, seed: int, rounds: int) -> list[dict]:
    """The logs the simulate button gets (the same seeded request)."""
    body = json.dumps({"ruleset": RULESET, "seats": 3, "seed": seed, "policy": "greedy", "rounds": rounds}).encode()
    request = urllib.request.Request(f"{server}/v1/simulations", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)["logs"]


def test_the_analysis_runs_and_annotates_every_decision(page, server):
    open_viewer(page, server)
    simulate_in_viewer(page, seed=5, rounds=2)
    expect(page.locator("#round option")).to_have_count(2)
    logs = simulated(server, 5, 2)
    expect(page.locator("#events li")).to_have_count(len(logs[0]["events"]) + 1)  # the deal, then each event

    page.click("#analyse")
    expect(page.locator("#analysis-status")).to_contain_text("finished", timeout=90_000)
    assert page.locator("#analysis-progress").evaluate("p => p.value") == 1
    # the review covers every discard of every seat (docs/advice.md: "Decision review"): one annotation per discard
    discards = [i for i, e in enumerate(logs[0]["events"]) if e["type"] == "discard"]
    expect(page.locator("#events .tag.rank")).to_have_count(len(discards))
    expect(page.locator(f"#event-{discards[0]} .tag.rank")).to_be_visible()
    # the review rates each seat's answer to a public card it could claim too: one bar per decision of either kind
    answers = page.locator("#events .tag.claim").count()
    expect(page.locator("#analysis svg.plot rect.bar")).to_have_count(len(discards) + answers)
    expect(page.locator("#analysis svg.plot polyline")).to_have_count(3)  # one line per player
    # a bar jumps to its decision, which shows the advice, the rank of the actual move and its expected loss
    page.locator(f"#analysis svg.plot rect.bar[data-event='{discards[0]}']").first.click()
    advice = page.locator("#now .advice.discard")
    expect(advice).to_contain_text("expected loss")
    # three seats: no value model speaks of them, so the loss is named as the one-card expected gain's
    expect(advice).to_contain_text(re.compile(r"expected loss \d+\.\d{3} in one-card expected gain"))
    expect(advice).to_contain_text(f"Seat {logs[0]['events'][discards[0]]['seat'] + 1} discarded")  # from 1
    expect(advice).to_contain_text(re.compile(r"the advised discard|rank \d+ of \d+; advice"))
    # the second round has its own annotations
    page.select_option("#round", "1")
    second = sum(1 for e in logs[1]["events"] if e["type"] == "discard")
    expect(page.locator("#events .tag.rank")).to_have_count(second)


def test_the_viewer_fits_a_phone(phone, server):
    log, index, _ = planted()
    open_viewer(phone, server)
    phone.fill("#paste", json.dumps(log))
    phone.click("#load-paste")
    expect(phone.locator(f"#event-{index}")).to_have_class("violation")
    phone.locator(f"#event-{index}").click()
    expect(phone.locator("#now .violation-box")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375


def post_json(url: str, body: dict) -> dict:
    """POST a JSON body to the session's server; its JSON answer."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


@pytest.mark.parametrize("ruleset", ["bga-taiwan", "cardavia-flowers", "cardavia-chan"])
def test_the_pages_say_where_a_card_came_from_as_the_audit_does(page, server, ruleset):
    """Every `source` an audit's tables send for a public card, read by the pages' one function (words.js
    `turnedUp`, behind the viewer's Table panel and every page's role words), says what the log's own event says:
    a card a seat turned up from the stock after a `draw` event (Four Color Cards) or a Chắn stock card, a discard
    after a `discard` event; the seat named is the event's. A Four Color Cards draw was once read as a discard."""
    log = post_json(f"{server}/v1/simulations", {"ruleset": ruleset, "seed": 3, "rounds": 1})["logs"][0]
    audit = post_json(f"{server}/v1/audits?tables=true", log)
    expected = []  # (source, turned up?, seat) of each table's public card, from the event that put it there
    for table in audit["tables"]:
        offer, event = table["public"], log["events"][table["event"]] if table["event"] >= 0 else None
        if offer is None or event is None or event["type"] not in ("draw", "discard"):
            continue
        expected.append((offer["source"], event["type"] == "draw", event["seat"], offer["seat"]))
    kinds = {turned for _, turned, _, _ in expected}
    assert kinds == {True, False}, expected  # the round shows both: a test of both words
    open_viewer(page, server)
    words = page.evaluate("""async (sources) => {
        const words = await import("/ui/static/words.js");
        return sources.map((s) => [words.turnedUp(s), words.fromSeat(7, s)]);  // the API's seat 7: "seat 8"
    }""", [source for source, _, _, _ in expected])
    for (source, turned, event_seat, offer_seat), (read, said) in zip(expected, words):
        assert read is turned, (source, turned)
        assert said == ("turned up by seat 8" if turned else "discarded by seat 8"), (source, said)
        if ruleset != "cardavia-chan":  # a Chắn card lies at a gate, which may be another seat's
            assert offer_seat == event_seat
