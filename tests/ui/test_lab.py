"""The hand lab in a real browser: build hands by clicking SVG cards, read hu with its points, the claims on a
public card, the ranked discards and a deep search; errors next to their field; the lab kept in the URL."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from service.api.examples import AUDIT_LOG
from tests.support.pages import click_card, open_lab

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`


def test_a_hand_built_by_clicking_cards_shows_hu_and_its_points_line_by_line(page, server):
    # The README's first hand (docs/rules.md#fc-melds, #fc-concealed): exposed triple wS wS wS scores 1, the concealed
    # command rG rA rE 2, and the triple yC yC yC completed by the public card counts concealed, 3: 6 points.
    # Six is under the threshold of 10, so the caller pays each of the two opponents 10 + 1 (#fc-threshold).
    open_lab(page, server)
    page.select_option("#ruleset", "bga-taiwan")
    page.fill("#seats", "3")
    page.press("#seats", "Tab")
    for code in ("rG", "rA", "rE", "yC", "yC"):
        click_card(page, "hand", code)
    click_card(page, "meld", "wS", 3)
    page.select_option("#meld-kind", "triple")
    page.click("#add-meld")
    click_card(page, "public", "yC")

    hu = page.locator("#hu-panel")
    expect(hu.locator(".verdict")).to_contain_text("hu: 6 points")
    rows = hu.locator("table.breakdown tr")
    # the cards named, a card held three times counted once; seats counted from 1, as players count
    expect(rows.filter(has_text="exposed triple 3 × white Soldier (wS)")).to_contain_text("1")
    expect(rows.filter(has_text="concealed command red General (rG), red Advisor (rA), red Elephant (rE)")
           ).to_contain_text("2")
    expect(rows.filter(has_text="concealed triple 3 × yellow Chariot (yC)")).to_contain_text("3")
    expect(hu).to_contain_text("seat 1 pays seat 2: 11")
    expect(hu).to_contain_text("seat 1 -22")
    # the deck shows what is left: five yC would be impossible, four are used
    expect(page.locator("#palette button.card[data-code='yC'] .badge")).to_have_text("×1")

    # the lab is in the URL: the same link opens the same hand
    url = page.url
    assert "hand=rG%2CrA%2CrE%2CyC%2CyC" in url and "public=yC" in url, url
    page.goto(url)
    expect(page.locator("#hu-panel .verdict")).to_contain_text("hu: 6 points")
    expect(page.locator("#hand button.card")).to_have_count(5)
    expect(page.locator("#exposed .meld")).to_have_count(1)


def test_picking_a_public_card_shows_the_claim_advice(page, server):
    # Seat 2 of the audit example between turns (20 cards), holding gE gE, and seat 1 discards gE: seat 2 is
    # next, so it may take the card into a triple (quad/triple class) or a pair (chi-type), or pass
    # (docs/rules.md#fc-claims); the advice ranks all three, and each claim names the discard to follow it.
    hand = AUDIT_LOG["hands"][2]
    assert hand.count("gE") == 2 and len(hand) == 20
    open_lab(page, server, "?ruleset=bga-taiwan&seats=3&seat=2&from=1&hand=" + ",".join(hand))
    click_card(page, "public", "gE")
    expect(page.locator("#role")).to_contain_text("are next")
    claims = page.locator("#claims-panel")
    expect(claims.locator(".verdict")).to_contain_text("Advice:")
    rows = claims.locator("table.claim-advice tbody tr")
    expect(rows).to_have_count(3)
    kinds = sorted(rows.evaluate_all("rows => rows.map(r => r.dataset.kind)"))
    assert kinds == ["pair", "pass", "triple"], kinds
    assert rows.first.locator("td").first.inner_text() == "1"
    for kind in ("pair", "triple"):
        expect(claims.locator(f"tr[data-kind={kind}] td").nth(2).locator(".card")).to_have_count(1)
    # the discarder himself may claim nothing: passing is all that is left (docs/rules.md#fc-claims)
    page.fill("#from-seat", "3")  # seat 3 as players count: the API's seat 2, this seat
    page.press("#from-seat", "Tab")
    expect(page.locator("#role")).to_contain_text("are discarder")
    expect(rows).to_have_count(1)
    expect(claims.locator("tr[data-kind=pass]")).to_have_count(1)


def test_a_partial_hand_lists_the_legal_claims(page, server):
    # Six cards are no decision between turns, so the lab lists the legal claims instead: the next seat after
    # the discarder, holding yC yC, may take a discarded yC into a triple (priority 2) or a pair (chi-type,
    # priority 1); see docs/rules.md#fc-claims.
    open_lab(page, server, "?ruleset=bga-taiwan&seats=3&seat=1&from=0&hand=rG,rA,rE,yC,yC,gH")
    click_card(page, "public", "yC")
    claims = page.locator("#claims-panel")
    expect(claims).to_contain_text("20 cards with the exposed melds (this one has 6)")
    expect(claims.locator("li[data-kind=triple]")).to_contain_text("priority 2")
    expect(claims.locator("li[data-kind=pair]")).to_contain_text("priority 1")


@pytest.mark.parametrize(("seat", "captures"), [(1, 1), (2, 0)], ids=["next_seat_captures", "other_seat_cannot"])
def test_a_partial_chan_hand_lists_the_captures_of_its_seat(page, server, seat, captures):
    # docs/rules.md#chan-turn: captures are made only by the player whose turn it is, so seat 0's discarded 3s
    # can be captured into a Chắn by seat 1 (next, holding 3s), never by seat 2.
    open_lab(page, server, f"?ruleset=cardavia-chan&seats=4&seat={seat}&from=0&source=discard&hand=2m,3s,4c")
    click_card(page, "public", "3s")
    claims = page.locator("#claims-panel")
    expect(claims).to_contain_text("this one has 3")
    expect(claims.locator("li[data-kind=chan]")).to_have_count(captures)


def test_every_discard_is_ranked_and_a_deeper_search_runs_as_a_job(page, server):
    # The dealer's 21 cards of the audit example: a discard decision, so every discardable card is ranked
    # (21 cards, no General among the duplicates: one row per distinct non-General card).
    hand = AUDIT_LOG["hands"][1]
    open_lab(page, server, "?ruleset=bga-taiwan&seats=3&seat=1&hand=" + ",".join(hand))
    distinct = {c for c in hand if c[1] != "G"}
    rows = page.locator("#discards-panel table.ranked tbody tr")
    expect(rows).to_have_count(len(distinct))
    expect(rows.first.locator("td").first).to_have_text("1")

    page.fill("#samples", "200")
    page.fill("#budget", "2")
    page.click("#search")
    expect(page.locator("#search-status")).to_have_text("finished", timeout=60_000)
    assert page.locator("#search-progress").evaluate("p => p.value") == 1
    table = page.locator("#search-panel table.search-table tbody tr")
    expect(table).to_have_count(4)  # the four best discards of the exact ranking, by default
    first = table.first.locator("td").nth(2).inner_text()
    assert re.fullmatch(r"\d+\.\d% \[\d+\.\d%, \d+\.\d%\]", first), first
    # the search settings are in the link too
    assert "samples=200" in page.url and "budget=2" in page.url, page.url
    page.goto(page.url)
    expect(page.locator("#samples")).to_have_value("200")


def test_an_api_error_is_shown_next_to_its_field(page, server):
    open_lab(page, server, "?ruleset=bga-taiwan&hand=rG,rA")
    page.console.expect(r"status of 422")  # the browser logs the 422 answers this test provokes
    page.fill("#hand-codes", "rG rA zz")
    page.press("#hand-codes", "Enter")
    error = page.locator(".field-error[data-field=hand]")
    expect(error).to_contain_text("Hand, card 3")
    expect(error).to_contain_text("not a card code")
    expect(page.locator("#hand-codes")).to_have_attribute("aria-invalid", "")
    # the problem in the player's words; its code only under "Details", for developers
    problem = page.locator("#melds-panel .problem")
    expect(problem).to_have_attribute("data-code", "unknown_card")
    expect(problem.locator("strong")).to_have_text("A card here is not in this game's deck.")
    expect(problem.locator("details")).not_to_have_attribute("open", "")
    # the code's description for a client, in the page's language (a ?lang= there is remembered by nothing)
    expect(problem.locator("details a")).to_have_attribute("href", "/problems/unknown_card?lang=en")
    # an option out of range is named next to the option
    page.fill("#opt-threshold", "-5")
    page.press("#opt-threshold", "Tab")
    expect(page.locator(".field-error[data-field='options.threshold']")).to_contain_text("Rule options:")


def test_chan_cards_show_value_suit_and_their_names(page, server):
    open_lab(page, server, "?ruleset=cardavia-chan&hand=8m,8m,3s,CC")
    red = page.locator("#hand .card[data-code='8m'] svg").first
    expect(red).to_have_attribute("aria-label", re.compile("Bát vạn"))
    assert page.locator("#hand .card[data-code='8m'] svg text").first.evaluate("t => t.getAttribute('fill')") \
        == "#b3261e"  # 8m is red (docs/rules.md: the red cards are 8m, 9m, 8s, 9s and CC)
    assert page.locator("#hand .card[data-code='3s'] svg text").first.evaluate("t => t.getAttribute('fill')") \
        != "#b3261e"
    # the Nho face by default: the rank and suit characters as printed (3s: 三 索); the simple face names the suit
    expect(page.locator("#hand .card[data-code='3s'] svg text.glyph")).to_have_text(["三", "索"])
    page.select_option("#faces", "simple")
    expect(page.locator("#hand .card[data-code='3s'] svg")).to_contain_text("Sách")
    chi_chi = page.locator("#hand .card[data-code='CC'] svg")
    expect(chi_chi).to_have_attribute("aria-label", re.compile("Chi chi"))
    assert chi_chi.locator("text").first.evaluate("t => t.getAttribute('fill')") == "#b3261e"  # CC is red too
    # the deck is the 25 faces of Chắn, four copies each (docs/rules.md#chan-cards)
    expect(page.locator("#palette button.card")).to_have_count(25)


def test_the_lab_fits_a_phone(phone, server):
    hand = AUDIT_LOG["hands"][1]
    open_lab(phone, server, "?ruleset=bga-taiwan&seats=3&seat=1&hand=" + ",".join(hand))
    expect(phone.locator("#discards-panel table.ranked tbody tr").first).to_be_visible()
    expect(phone.locator("#hu-panel .verdict")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375


def test_the_deck_works_from_the_keyboard(page, server):
    open_lab(page, server, "?ruleset=bga-taiwan")
    page.focus("#palette button.card[data-code='rG']")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # the focus stays on the card: a second copy
    expect(page.locator("#hand button.card[data-code='rG']")).to_have_count(2)
    expect(page.locator("#palette button.card[data-code='rG'] .badge")).to_have_text("×2")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(page.locator("#hand button.card[data-code='rA']")).to_have_count(1)
    # cards of the hand are taken out with the keyboard too, the focus moving to the card that took the place
    page.focus("#hand button.card >> nth=0")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(page.locator("#hand button.card")).to_have_count(1)
    expect(page.locator("#hand-codes")).to_have_value("rA")


def test_the_lab_counts_hands_and_the_deck_by_the_rulesets_answer(page, server):
    # The page knows no hand size and no copy count of its own: with bga-taiwan's answer saying 5 cards between
    # turns, 6 on a turn and two copies of rG, the lab counts by these. The service keeps the real sizes
    # (docs/rules.md#fc-deal: 20 and 21) and refuses the made-up hands, which shows the page asked it.
    def altered(route):
        response = route.fetch()
        body = response.json()
        for ruleset in body["rulesets"]:
            if ruleset["id"] == "bga-taiwan":
                ruleset["hand_size"] = {"resting": 5, "turn": 6}
                ruleset["copies"]["rG"] = 2
        route.fulfill(response=response, json=body)

    page.route("**/v1/rulesets", altered)
    asked = []
    page.on("request", lambda request: request.method == "POST" and asked.append(request.url.rsplit("/", 1)[-1]))
    page.console.expect(r"status of 422")  # the made-up hands, refused by the service
    open_lab(page, server, "?ruleset=bga-taiwan&seats=4&seat=0&from=3&hand=rA,rE,yC,yC,gH,gP")
    expect(page.locator("#palette button.card[data-code='rG'] .badge")).to_have_text("×2")
    expect(page.locator("#palette button.card[data-code='rA'] .badge")).to_have_text("×3")
    expect(page.locator("#hand-count")).to_contain_text("a discard is decided with 6")
    expect(page.locator("#discards-panel")).to_contain_text("wrong_card_count")  # six cards: the discards asked
    assert "discards" in asked and "claims" not in asked
    # five cards and a public card: a claim decision between turns, so the advice is asked for, not the discards
    page.click("#hand button.card[data-code='gP']")
    click_card(page, "public", "yC")
    expect(page.locator("#claims-panel")).to_contain_text("wrong_card_count")
    assert "claims" in asked
    expect(page.locator("#discards-panel")).to_contain_text("decided with 6 cards in hand and exposed melds; "
                                                            "this hand has 5")
