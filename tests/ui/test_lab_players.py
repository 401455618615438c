"""The hand lab as a first-time player meets it: card faces of the player's own table (kept across visits, the
code always written on the card), no verdict for an empty hand, no search result about another hand, a search
that calls a discard best only when its interval is clear of the next, advice in view beside the cards, a phone
layout with the answers right after the hand and nothing wider than the screen, Chắn's own words, undo, and an
axe-core audit with no serious or critical violation, light and dark, at phone and desktop width."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from service.api.examples import AUDIT_LOG
from tests.support.browser import serious
from tests.support.pages import click_card, open_lab

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

#: docs/rules.md#fc-melds: exposed triple wS (1) + concealed command rG rA rE (2) + triple yC completed by the public
#: card (3) = 6 points, under the threshold of 10, so the caller pays each opponent 11 (#fc-threshold).
SIX_POINTS = "?ruleset=bga-taiwan&seats=3&seat=0&hand=rG,rA,rE,yC,yC&exposed=triple:wS.wS.wS&public=yC"
DEALER = "?ruleset=bga-taiwan&seats=3&seat=1&hand=" + ",".join(AUDIT_LOG["hands"][1])  # 21 cards: a discard


def hand_codes(page) -> list[str]:
    return page.locator("#hand button.card").evaluate_all("cards => cards.map(c => c.dataset.code)")


# ---------------------------------------------------------------------------------------------------- first screen

def test_an_empty_hand_shows_no_verdict_and_no_settlement(page, server):
    # An empty hand wins nothing and pays nobody: no "✓ hu: 0 points", no "seat 0 -33", but what to do.
    asked = []
    page.on("request", lambda request: request.method == "POST" and asked.append(request.url))
    open_lab(page, server, "?ruleset=bga-taiwan")
    hu = page.locator("#hu-panel")
    expect(hu).to_contain_text("Build a hand")
    expect(hu.locator(".verdict")).to_have_count(0)
    expect(hu).not_to_contain_text("points")
    expect(page.locator(".panels")).not_to_contain_text("seat 0")
    assert not [url for url in asked if url.endswith(("/v1/hu", "/v1/settlements"))], asked
    # one card in (an Advisor alone is no meld, docs/rules.md#fc-melds), and out again: the neutral state comes
    # back, not the verdict of an empty hand
    click_card(page, "hand", "rA")
    expect(hu.locator(".verdict")).to_contain_text("no hu")
    page.click("#hand button.card[data-code='rA']")
    expect(hu).to_contain_text("Build a hand")
    expect(hu.locator(".verdict")).to_have_count(0)


def test_a_changed_hand_drops_the_last_search(page, server):
    open_lab(page, server, DEALER)
    page.fill("#samples", "200")
    page.fill("#budget", "2")
    page.click("#search")
    expect(page.locator("#search-status")).to_have_text("finished", timeout=60_000)
    table = page.locator("#search-panel table.search-table")
    expect(table).to_have_count(1)
    # a card out: the search answered the hand before, so it goes at once
    page.locator("#hand button.card").first.click()
    expect(table).to_have_count(0)
    expect(page.locator("#search-status")).to_have_text("")
    # nor does it come back for an invalid hand
    page.console.expect(r"status of 422")
    page.fill("#hand-codes", "rG zz")
    page.press("#hand-codes", "Enter")
    expect(page.locator(".field-error[data-field=hand]")).to_contain_text("Hand, card 2")
    expect(table).to_have_count(0)


def fake_search(page, candidates, objective="expected_settlement"):
    """Answer the lab's search with a finished job holding `candidates` (best first, as the service ranks them)."""
    result = {"best": candidates[0]["card"], "candidates": candidates, "deals": 400, "playouts": 1600,
              "stopped": "samples", "objective": objective}
    page.route("**/v1/searches", lambda route: route.fulfill(status=202, json={"id": "lab-fake"},
                                                             headers={"Location": "/v1/jobs/lab-fake"}))
    page.route("**/v1/jobs/lab-fake", lambda route: route.fulfill(json={
        "id": "lab-fake", "status": "finished", "progress": {"deals_done": 400, "deals_total": 400},
        "result": result}))


def candidate(card, mean, low, high, versus=None):
    stat = {"mean": mean, "low": low, "high": high}
    return {"card": card, "exact_rank": 1, "win_probability": {"mean": 0.3, "low": 0.25, "high": 0.35},
            "expected_settlement": stat, "pay_probability": {"mean": 0.2, "low": 0.15, "high": 0.25},
            "playouts": 400, "eliminated_after": None, "mean_winning_points": 12.0, "versus_first": versus}


@pytest.mark.parametrize("clear", [False, True], ids=["overlapping", "separate"])
def test_the_search_calls_a_discard_best_only_when_its_interval_is_clear_of_the_next(page, server, clear):
    # The leader's interval [0.5, 2.5] overlaps the runner-up's [0.1, 1.2]: no discard is clearly best. With the
    # runner-up at [-2.0, 0.2] the leader's interval lies above it: that one is called best. `versus_first` (each
    # candidate's objective minus the first's, paired deal by deal) shows in its own column.
    runner = candidate("wA", -0.9, -2.0, 0.2, {"mean": -2.4, "low": -3.6, "high": -1.2}) if clear \
        else candidate("wA", 0.65, 0.1, 1.2, {"mean": -0.85, "low": -1.9, "high": 0.2})
    fake_search(page, [candidate("rS", 1.5, 0.5, 2.5), runner])
    open_lab(page, server, DEALER)
    page.click("#search")
    expect(page.locator("#search-status")).to_have_text("finished")
    panel = page.locator("#search-panel")
    rows = panel.locator("table.search-table tbody tr")
    expect(rows).to_have_count(2)
    expect(panel.locator("th")).to_contain_text(["versus the first (95%)"])
    versus = rows.nth(1).locator("td.versus")
    if clear:
        expect(panel.locator(".search-verdict")).to_have_text(re.compile(r"^Best: red Soldier \(rS\)"))
        expect(panel.locator("tr.best")).to_have_count(1)
        expect(versus).to_have_text("-2.40 [-3.60, -1.20]")
    else:
        expect(panel.locator(".search-verdict")).to_contain_text("No clear best: red Soldier (rS) leads")
        expect(panel.locator(".search-verdict")).not_to_contain_text("Best:")
        expect(panel.locator("tr.best")).to_have_count(0)
        expect(versus).to_have_text("-0.85 [-1.90, 0.20]")
    expect(rows.first.locator("td.versus")).to_contain_text("the first")


# ------------------------------------------------------------------------------------------------------- layout

def test_advice_is_in_view_beside_the_cards_at_1280x900(page, server):
    open_lab(page, server, "?ruleset=bga-taiwan&seats=3&seat=0")
    for code in ("rG", "rA", "rE", "yC", "yC"):
        click_card(page, "hand", code)
    # the concealed command rG rA rE (2) and the pair yC yC (0) are all melds: a hu of 2 (docs/rules.md#fc-melds)
    expect(page.locator("#hu-panel .verdict")).to_contain_text("✓ hu: 2 points")
    assert page.evaluate("window.scrollY") == 0
    # whole, in the first screen: Playwright waits out a panel still settling (a re-render) before it gives up
    expect(page.locator("#hu-panel .verdict").first).to_be_in_viewport(ratio=1)
    # a hand on its turn: the best discard's row is in view too, without scrolling
    open_lab(page, server, DEALER)
    expect(page.locator("#discards-panel tr.best").first).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    expect(page.locator("#discards-panel tr.best").first).to_be_in_viewport(ratio=1)
    assert page.evaluate("window.scrollY") == 0


def test_on_a_phone_the_answers_follow_the_hand_and_nothing_overflows(phone, server):
    open_lab(phone, server, SIX_POINTS)
    hu = phone.locator("#hu-panel")
    expect(hu.locator(".verdict")).to_contain_text("hu: 6 points")
    expect(hu.locator(".deltas")).to_contain_text("seat 1 -22")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    # the answers come right after the hand, not three screens below the deck
    hand = phone.locator("#hand").bounding_box()
    answers = hu.bounding_box()
    assert 0 <= answers["y"] - (hand["y"] + hand["height"]) < 160, (hand, answers)
    assert answers["y"] < 1.5 * 740, answers
    # the settlement line wraps inside its panel
    deltas = hu.locator(".deltas").bounding_box()
    assert deltas["x"] + deltas["width"] <= answers["x"] + answers["width"], (deltas, answers)


# -------------------------------------------------------------------------------------------------------- Chắn

def test_chan_panels_speak_chan(page, server):
    # docs/rules.md#chan-pairs, #chan-win: Chắn is played with pairs (Chắn, Cạ, Chíu) and its win is Ù
    open_lab(page, server, "?ruleset=cardavia-chan&hand=2m,2m,3s,3c")
    expect(page.locator("#hu-title")).to_have_text("Ù (win)")
    expect(page.locator("#melds-title")).to_contain_text("Pairs")
    expect(page.locator(".panels")).not_to_contain_text("Legal melds")
    expect(page.locator("#hu-panel .verdict")).to_contain_text("no Ù")
    expect(page.locator("#hu-panel .verdict")).not_to_contain_text("hu")
    kinds = page.locator("#melds-panel .kind").all_inner_texts()
    assert sorted(kinds) == sorted(["Chắn", "Cạ"]), kinds
    example = page.locator("#exposed-example")
    expect(example).to_contain_text("chan: 2m 2m")
    expect(example).not_to_contain_text("triple")
    expect(page.locator("#meld-kind option")).to_have_text(["Chắn", "Cạ", "Chíu"])
    # back to Four Color, its own words return
    page.select_option("#ruleset", "bga-taiwan")
    expect(page.locator("#hu-title")).to_have_text("Hu")
    expect(example).to_contain_text("triple: wS wS wS")


def test_the_hu_panel_asks_what_the_rules_ask_of_a_public_card(page, server):
    # docs/rules.md#chan-win-stock: 9c completes the pairs, but a discarded 9c is no win for the next seat; the hu
    # panel says so with the rule, as the claims panel offers no Ù; turned up from the stock, it wins
    hand = "2m,2m,3s,3s,4c,4c,6m,6m,7s,7s,2s,2c,4m,4s,5m,5s,6s,6c,9c"
    open_lab(page, server, f"?ruleset=cardavia-chan&seats=4&seat=1&from=0&source=discard&hand={hand}&public=9c")
    verdict = page.locator("#hu-panel .verdict")
    expect(verdict).to_contain_text("no Ù")
    # the reason in words, its code kept for clients only; the rule a link named by its title
    expect(page.locator("#hu-panel li[data-code=win_not_open]")).to_contain_text("turned up from the stock")
    expect(page.locator("#hu-panel")).not_to_contain_text("win_not_open")
    link = page.locator("#hu-panel a.rule-link")
    expect(link).to_have_attribute("href", "/docs/rules#chan-win-stock")
    expect(link).to_have_text("Chíu, priority and wins")
    expect(page.locator("#hu-panel")).not_to_contain_text("Settlement")
    expect(page.locator("#claims-panel")).not_to_contain_text("Ù")
    page.select_option("#source", "stock")
    expect(verdict).to_contain_text("✓ Ù")
    # Four Color Cards: no hu on one's own discard (docs/rules.md#fc-claims), a hu for the next seat
    open_lab(page, server, SIX_POINTS + "&from=0&source=discard")
    expect(verdict).to_contain_text("no hu")
    page.locator("#from-seat").fill("2")
    page.locator("#from-seat").dispatch_event("change")
    expect(verdict).to_contain_text("✓ hu: 6 points")


# ---------------------------------------------------------------------------------------------------------- undo

def test_undo_restores_the_previous_hand(page, server):
    open_lab(page, server, "?ruleset=bga-taiwan")
    expect(page.locator("#undo")).to_be_disabled()
    for code in ("rG", "rA", "rE"):
        click_card(page, "hand", code)
    assert hand_codes(page) == ["rG", "rA", "rE"]
    page.click("#undo")
    expect(page.locator("#hand button.card")).to_have_count(2)
    assert hand_codes(page) == ["rG", "rA"]
    # Ctrl+Z from the keyboard (the focus on a card of the deck)
    page.focus("#palette button.card[data-code='wS']")
    page.keyboard.press("Control+z")
    expect(page.locator("#hand button.card")).to_have_count(1)
    assert "hand=rG" in page.url and "rA" not in page.url, page.url
    # redo, then the browser's Back steps through the edits and stays on the lab
    page.keyboard.press("Control+y")
    expect(page.locator("#hand button.card")).to_have_count(2)
    page.go_back()
    expect(page.locator("#hand button.card")).to_have_count(1)
    page.go_back()
    expect(page.locator("#hand button.card")).to_have_count(0)
    assert page.url.split("?")[0].endswith("/ui"), page.url
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator("#hu-panel")).to_contain_text("Build a hand")
    # the undo button is reached and pressed with the keyboard too
    click_card(page, "hand", "gS")
    expect(page.locator("#redo")).to_be_disabled()  # a new edit: nothing to redo, so Shift+Tab skips it
    page.focus("input[name=target]:checked")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "undo"
    page.keyboard.press("Enter")
    expect(page.locator("#hand button.card")).to_have_count(0)


# --------------------------------------------------------------------------------------------------------- faces

def test_the_card_faces_persist_and_keep_the_code_visible(page, server):
    open_lab(page, server, "?ruleset=bga-taiwan&hand=rG,yS,gG,wP")
    # the traditional face: red and yellow print the red pieces, green and white the black ones (docs/rules.md#fc-cards)
    expect(page.locator("#faces")).to_have_value("traditional")
    for code, piece in (("rG", "帥"), ("yS", "兵"), ("gG", "將"), ("wP", "包")):
        face = page.locator(f"#hand .card[data-code='{code}'] svg")
        expect(face.locator("text.glyph")).to_have_text(piece)
        expect(face.locator("text.code")).to_have_text(code)
        expect(face.locator("text.code")).to_be_visible()
    page.select_option("#faces", "code")
    expect(page.locator("#hand .card[data-code='rG'] svg.face-code")).to_have_count(1)
    page.reload()
    expect(page.locator("#faces")).to_have_value("code")
    face = page.locator("#hand .card[data-code='rG'] svg")
    expect(face).to_have_class(re.compile("face-code"))
    expect(face.locator("text.glyph")).to_have_count(0)
    expect(face.locator("text.code")).to_have_text("rG")
    expect(face.locator("text.code")).to_be_visible()
    # Chắn keeps its own choice: the Nho characters, rank above and suit below (docs/rules.md#chan-cards)
    open_lab(page, server, "?ruleset=cardavia-chan&hand=8m,3s,7c")
    expect(page.locator("#faces")).to_have_value("nho")
    eight = page.locator("#hand .card[data-code='8m'] svg text.glyph")
    expect(eight).to_have_text(["八", "萬"])
    expect(page.locator("#hand .card[data-code='3s'] svg text.glyph")).to_have_text(["三", "索"])
    expect(page.locator("#hand .card[data-code='7c'] svg text.glyph")).to_have_text(["七", "文"])
    expect(page.locator("#hand .card[data-code='8m'] svg text.code")).to_be_visible()
    assert eight.first.get_attribute("fill") == "#b3261e"  # 8m is a red card
    # and the Four Color choice is still there
    open_lab(page, server, "?ruleset=bga-taiwan&hand=rG")
    expect(page.locator("#faces")).to_have_value("code")


# ---------------------------------------------------------------------------------------------- accessibility

@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
def test_the_lab_has_no_serious_accessibility_violation(browser, server, request, width, scheme):
    from tests.support.browser import checked_page

    pages = checked_page(browser, request, width, 740 if width == 375 else 900)
    page = next(pages)
    try:
        page.emulate_media(color_scheme=scheme)
        open_lab(page, server, SIX_POINTS)
        expect(page.locator("#hu-panel .verdict")).to_contain_text("hu: 6 points")
        expect(page.locator("#claims-panel .body")).not_to_be_empty()
        assert serious(page) == []
        open_lab(page, server, "?ruleset=cardavia-chan&hand=2m,2m,3s,3c,CC")
        expect(page.locator("#hu-panel .verdict")).to_contain_text("no Ù")
        assert serious(page) == []
    finally:
        next(pages, None)


def test_every_control_is_reached_by_tab_with_a_visible_focus(page, server):
    # Tab from the top of the page: the faces, the options, the deck's cards, the hand's cards and the codes, the
    # search and the rest of the table are each reached, and each shows where the focus is (an outline).
    open_lab(page, server, "?ruleset=bga-taiwan&seats=3&hand=rG,rA,rE,yC,yC")
    expect(page.locator("#hu-panel .verdict")).to_be_visible()
    reached, unmarked = [], []
    for _ in range(120):
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
          return {id: e.id || e.dataset.code || e.tagName,
                  outline: s.outlineStyle !== 'none' && s.outlineWidth !== '0px'}; }""")
        reached.append(focused["id"])
        if not focused["outline"]:
            unmarked.append(focused["id"])
        if focused["id"] == "copy-link":
            break
    controls = ("faces", "ruleset", "rG", "wS", "hand-codes", "search", "exposed-codes", "public-code", "copy-link")
    for control in controls:
        assert control in reached, (control, reached)
    assert unmarked == [], unmarked
