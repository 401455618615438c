"""The drills in a real browser: a position dealt by GET /v1/drills, answered with the keyboard, graded with the
values its own request answers in the drill's unit, counted in statistics that survive a reload; a link deals the
same drill; nothing of the result shows before the answer; answers tied with the advice are the advice in the
verdict and the history alike; seats are counted from 1, cards and rule-sets named as players name them; axe-core
finds no serious or critical violation at phone and desktop widths, and the page fits a phone in Vietnamese and
Chinese."""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from decimal import ROUND_HALF_UP, Decimal

import pytest
from playwright.sync_api import expect

from tests.support.browser import ARTIFACTS, open_page

#: Chắn's claims as the page names them: the pairs by their Vietnamese names in every language, the win as Ù.
CHAN_WORDS = {"chan": "Chắn", "ca": "Cạ", "chiu": "Chíu", "win": "Ù"}
#: Four Color Cards' cards in English words (cards.js `cardName`): colour, then piece.
COLOURS = {"r": "red", "y": "yellow", "g": "green", "w": "white"}
PIECES = {"G": "General", "A": "Advisor", "E": "Elephant", "C": "Chariot", "H": "Horse", "P": "Cannon", "S": "Soldier"}
#: Chắn's cards by their Vietnamese names (docs/rules.md#chan-cards); the red ones are said to be red.
CHAN_VALUES = {"2": "Nhị", "3": "Tam", "4": "Tứ", "5": "Ngũ", "6": "Lục", "7": "Thất", "8": "Bát", "9": "Cửu"}
CHAN_SUITS = {"m": "vạn", "s": "sách", "c": "văn"}
CHAN_RED = {"8m", "9m", "8s", "9s", "CC"}

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

SHOTS = ARTIFACTS


def call(server: str, path: str, body: dict | None = None) -> dict:
    """The API's JSON answer (GET, or POST of `body`)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def dealt(server: str, ruleset: str, difficulty: str, seed: int, n: int, kind: str) -> tuple[dict, list[dict]]:
    """The drill the page should show and its ranked options, asked of the API directly."""
    query = urllib.parse.urlencode({"ruleset": ruleset, "difficulty": difficulty, "seed": seed, "index": n,
                                    "kind": kind})
    drill = call(server, f"/v1/drills?{query}")
    ranked = call(server, drill["request"]["path"], drill["request"]["body"])
    return drill, ranked["discards"] if drill["kind"] == "discard" else ranked["choices"]


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"drill-{name}.png"), full_page=True)


def card_name(code: str) -> str:
    """A card as the English page names it, its code as a hint (cards.js `cardName`)."""
    if code == "CC":
        return "Chi chi (CC), red"
    if code[0] in CHAN_VALUES:
        name = f"{CHAN_VALUES[code[0]]} {CHAN_SUITS[code[1]]} ({code})"
        return f"{name}, red" if code in CHAN_RED else name
    return f"{COLOURS[code[0]]} {PIECES[code[1]]} ({code})"


def number(x: float, digits: int) -> str:
    """`x` as the English page writes it with `digits` decimals (Intl rounds the exact value half away from 0)."""
    return f"{Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP):,}"


def amount(x: float, unit: str) -> str:
    """A loss as the English page says it: points with 2 decimals; the chance to win as a percentage."""
    return f"{number(x, 2)} points" if unit == "points" else f"{number(100 * x, 1)}% win chance"


def worth(option: dict) -> float:
    return option["value"]


def question(drill: dict) -> str:
    """The question the English page asks of a drill: seats counted from 1, the card by its name; the card the player
    turned up himself is his own."""
    position = drill["position"]
    if drill["kind"] == "discard":
        return "Which card do you discard?"
    card = card_name(position["public_card"])
    if position["card_source"] == "stock" and position["from_seat"] == position["seat"]:
        return f"You turned up {card} from the stock: do you take it, and how?"
    if position["card_source"] == "stock":
        return f"Seat {position['from_seat'] + 1} turned up {card} from the stock: do you claim it, and how?"
    return f"Seat {position['from_seat'] + 1} discarded {card}: do you claim it, and how?"


def nothing_of_the_result(page) -> None:
    """Before an answer: no verdict, no ranking, no Next button."""
    for part in ("#result", "#verdict", "#ranking", "#next"):
        expect(page.locator(part)).to_be_hidden()
    expect(page.locator("#verdict")).to_have_text("")


def open_drill(page, server: str, query: str) -> None:
    page.goto(f"{server}/ui/drill?{query}")
    expect(page.locator("button.choice").first).to_be_visible()


def test_a_discard_answered_by_keyboard_is_graded_and_counted_and_the_counts_survive_a_reload(page, server):
    drill, options = dealt(server, "bga-taiwan", "medium", 4, 0, "discard")
    open_drill(page, server, "ruleset=bga-taiwan&difficulty=medium&kind=discard&seed=4&n=0")
    legal = page.locator("#hand button.choice")
    # the hand shown is the drill's, and every legal discard is a choice
    expect(page.locator("#hand .card")).to_have_count(len(drill["position"]["hand"]))
    assert sorted(set(legal.evaluate_all("els => els.map(e => e.dataset.code)"))) == sorted(o["card"] for o in options)

    # keyboard: the first choice, two steps right, Enter
    legal.first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    picked = page.evaluate("document.activeElement.dataset.code")
    page.keyboard.press("Enter")

    best, mine = options[0], next(o for o in options if o["card"] == picked)
    loss = worth(best) - worth(mine)  # the values fall along the ranking: never below 0
    assert loss >= 0
    right = loss <= 1e-9
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("Right" if right else f"you lose {amount(loss, 'points')} against the advice")
    expect(page.locator("#next")).to_be_focused()  # Enter now goes on
    rows = page.locator("#ranking tbody tr")
    expect(rows).to_have_count(len(options))
    expect(rows.first).to_contain_text(best["reason"])
    expect(page.locator("#ranking tr.mine")).to_contain_text("your answer")
    expect(page.locator("#stat-accuracy")).to_have_text(f"{int(right)} of 1 ({100 * int(right)}%)")
    expect(page.locator("#stat-streak")).to_have_text(f"{int(right)} (best {int(right)})")
    expect(page.locator("#stat-loss")).to_have_text(amount(0 if right else loss, "points"))
    shot(page, "answered-1280")

    # a reload shows the same drill answered, and does not count it twice
    page.reload()
    expect(page.locator("#verdict")).to_contain_text("Right" if right else "Not the best")
    expect(page.locator("#stat-accuracy")).to_contain_text("of 1 (")
    expect(page.locator("#history tbody tr")).to_have_count(1)

    # N deals the next drill of the set: a new URL, the choices open again
    page.locator("body").press("n")
    expect(page).to_have_url(re.compile(r"[?&]n=1(&|$)"))
    nothing_of_the_result(page)
    expect(page.locator("#hand button.choice:not([disabled])").first).to_be_focused()
    following, _ = dealt(server, "bga-taiwan", "medium", 4, 1, "discard")
    expect(page.locator("#hand .card")).to_have_count(len(following["position"]["hand"]))

    # Back returns to the drill answered before, its grading shown again
    page.go_back()
    expect(page).to_have_url(re.compile(r"[?&]n=0(&|$)"))
    expect(page.locator("#verdict")).to_contain_text("Right" if right else "Not the best")
    expect(page.locator("#history tbody tr")).to_have_count(1)


def test_a_public_card_is_answered_with_a_digit_key(page, server):
    drill, options = dealt(server, "cardavia-chan", "hard", 2, 0, "claim")
    open_drill(page, server, "ruleset=cardavia-chan&difficulty=hard&kind=claim&seed=2&n=0")
    expect(page.locator("#question")).to_have_text(question(drill))
    choices = page.locator("#choices button.choice")
    expect(choices).to_have_count(len(options))
    for i, option in enumerate(options):
        expect(choices.nth(i)).to_contain_text(f"{i + 1}{CHAN_WORDS.get(option['kind'], option['kind'])}")
    page.locator("body").press("2")
    second, best = options[1], options[0]
    loss = max(0.0, worth(best) - worth(second))
    expect(page.locator("#verdict")).to_contain_text("Right" if loss <= 1e-9 else f"you lose {amount(loss, 'points')}")
    second_words = CHAN_WORDS.get(second["kind"], second["kind"])
    expect(page.locator("#ranking tr.mine")).to_contain_text(second_words)
    expect(choices.nth(1)).to_contain_text(second_words)  # still drawn after the ranking shows the options
    expect(choices.nth(1)).to_have_class(re.compile(r"\bpicked\b"))
    expect(page.locator("#stat-accuracy")).to_contain_text("of 1")


def test_the_same_link_deals_the_same_position_in_a_fresh_browser(browser, page, server):
    query = "ruleset=cardavia-flowers&difficulty=easy&seed=77&n=3"
    open_drill(page, server, query)
    first = page.locator("#drill").inner_text()
    context, again, _ = open_page(browser, 1280)
    try:
        open_drill(again, server, query)
        assert again.locator("#drill").inner_text() == first
        drill, _ = dealt(server, "cardavia-flowers", "easy", 77, 3, "any")
        codes = again.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.code)")
        assert codes == drill["position"]["hand"]
    finally:
        context.close()


@pytest.mark.parametrize("width", [375, 1280])
def test_axe_finds_no_serious_violation_before_and_after_an_answer(browser, server, width):
    from axe_playwright_python.sync_playwright import Axe

    context, page, console = open_page(browser, width, 740 if width < 400 else 900)
    try:
        open_drill(page, server, "ruleset=bga-taiwan&difficulty=easy&seed=9&n=0")
        nothing_of_the_result(page)
        shot(page, f"question-{width}")
        found = []
        for moment in ("question", "answered"):
            if moment == "answered":
                page.locator("button.choice").first.click()
                expect(page.locator("#verdict")).not_to_have_text("")
                # the verdict is in view when it appears, the keyboard on "Next drill"; Chromium scrolls by whole
                # pixels, so a box of fractional height may end up to a pixel past the bottom, which no eye sees
                box, height = page.locator("#verdict").bounding_box(), page.viewport_size["height"]
                assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height + 1, (box, height)
                expect(page.locator("#next")).to_be_focused()
                shot(page, f"answered-{width}")
            result = Axe().run(page)
            found += [f"{moment}: {v['id']} ({v['impact']}): {v['help']}" for v in result.response["violations"]
                      if v["impact"] in ("serious", "critical")]
        assert found == []
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
        assert console.unexpected() == []
    finally:
        context.close()


@pytest.mark.parametrize(("ruleset", "difficulty", "seed", "n", "unit"), [
    ("bga-taiwan", "medium", 1, 0, "points"),  # pass against a field: points lost
    ("cardavia-flowers", "medium", 2, 0, "wins"),  # nobody pays: the chance to win lost
])
def test_a_loss_is_said_in_the_drills_unit(page, server, ruleset, difficulty, seed, n, unit):
    drill, options = dealt(server, ruleset, difficulty, seed, n, "any")
    assert drill["loss_unit"] == unit
    open_drill(page, server, f"ruleset={ruleset}&difficulty={difficulty}&seed={seed}&n={n}")
    worst = len(options) - 1
    loss = worth(options[0]) - worth(options[worst])
    assert loss > 1e-9
    page.locator("button.choice").nth(worst).click()
    said = amount(loss, unit)
    expect(page.locator("#verdict")).to_contain_text(f"you lose {said} against the advice")
    expect(page.locator("#ranking caption .unit")).to_have_text(
        f"Values and losses: {'points' if unit == 'points' else 'win chance'}")
    best_row, worst_row = page.locator("#ranking tbody tr").first, page.locator("#ranking tbody tr").last
    expect(best_row.locator("td").nth(2)).to_have_text(
        number(worth(options[0]), 2) if unit == "points" else f"{number(100 * worth(options[0]), 1)}%")
    expect(worst_row.locator("td").nth(3)).to_have_text(said.split(" ")[0])
    expect(page.locator("#stat-loss")).to_have_text(said)
    expect(page.locator("#history tbody tr").first.locator("td").last).to_have_text(said)


def test_nothing_of_the_result_shows_before_the_answer(phone, server):
    open_drill(phone, server, "ruleset=cardavia-chan&difficulty=hard&kind=claim&seed=2&n=0")
    nothing_of_the_result(phone)
    expect(phone.locator("#verdict-said")).to_have_text("")  # nothing said to a screen reader either
    phone.locator("#choices button.choice").first.click()
    for part in ("#result", "#verdict", "#ranking", "#next"):
        expect(phone.locator(part)).to_be_visible()
    expect(phone.locator("#verdict-said")).to_have_text(phone.locator("#verdict").inner_text())
    phone.locator("#next").click()
    expect(phone).to_have_url(re.compile(r"[?&]n=1(&|$)"))
    nothing_of_the_result(phone)


def test_an_answer_tied_with_the_advice_is_the_advice_in_the_verdict_and_the_history(page, server):
    # ten discards worth as much as the first, five of them ranked below it by the ranking's tie-breaks
    drill, options = dealt(server, "cardavia-chan", "hard", 1, 2, "any")
    best = options[0]
    tied = [o for o in options if worth(best) - worth(o) <= 1e-9]
    mine = next(o for o in tied if o["rank"] > 1)
    assert len(tied) > 2 and mine["card"] != best["card"]
    open_drill(page, server, "ruleset=cardavia-chan&difficulty=hard&seed=1&n=2")
    page.locator(f"#hand button.choice[data-code='{mine['card']}']").first.click()
    name = card_name(mine["card"])
    expect(page.locator("#verdict")).to_have_text(
        f"✓ Right: {name} is the advice, one of {len(tied)} equally good answers.")
    cells = page.locator("#history tbody tr").first.locator("td")
    expect(cells.nth(1)).to_have_text(f"✓ {name}")
    expect(cells.nth(2)).to_have_text(f"{name}, one of {len(tied)} equally good answers")  # not the first's name
    expect(cells.nth(3)).to_have_text("0.00 points")
    expect(page.locator("#stat-accuracy")).to_have_text("1 of 1 (100%)")
    # a reload says it alike
    page.reload()
    expect(page.locator("#verdict")).to_have_text(
        f"✓ Right: {name} is the advice, one of {len(tied)} equally good answers.")


def test_a_wrong_answer_names_the_advice_alike_in_the_verdict_and_the_history(page, server):
    drill, options = dealt(server, "cardavia-chan", "hard", 1, 2, "any")
    tied = [o for o in options if worth(options[0]) - worth(o) <= 1e-9]
    wrong = options[len(tied)]
    open_drill(page, server, "ruleset=cardavia-chan&difficulty=hard&seed=1&n=2")
    page.locator(f"#hand button.choice[data-code='{wrong['card']}']").first.click()
    advice = f"{card_name(options[0]['card'])}, one of {len(tied)} equally good answers"
    expect(page.locator("#verdict")).to_contain_text(f"against the advice, {advice}.")
    expect(page.locator("#history tbody tr").first.locator("td").nth(2)).to_have_text(advice)


def test_a_card_the_player_turned_up_himself_is_his_own(page, server):
    drill, _ = dealt(server, "bga-taiwan", "medium", 1, 0, "any")
    position = drill["position"]
    assert drill["kind"] == "claim" and position["card_source"] == "stock" and position["from_seat"] == position["seat"]
    open_drill(page, server, "ruleset=bga-taiwan&difficulty=medium&seed=1&n=0")
    expect(page.locator("#question")).to_have_text(
        f"You turned up {card_name(position['public_card'])} from the stock: do you take it, and how?")
    expect(page.locator("#context")).to_contain_text(f"You are seat {position['seat'] + 1}")
    expect(page.locator("#context")).not_to_contain_text("drawer")  # the question says it


@pytest.mark.parametrize(("ruleset", "difficulty", "seed", "n"), [
    ("bga-taiwan", "easy", 1, 0),  # seat 1 (the API's) turned the card up for seat 2
    ("bga-taiwan", "easy", 3, 1),  # seat 3 (the API's) discarded it, seat 0 may claim it
    ("cardavia-chan", "hard", 2, 0),
])
def test_seats_count_from_1_and_cards_and_rulesets_have_their_names(page, server, ruleset, difficulty, seed, n):
    kind = "claim" if ruleset == "cardavia-chan" else "any"
    drill, options = dealt(server, ruleset, difficulty, seed, n, kind)
    position = drill["position"]
    assert drill["kind"] == "claim" and position["from_seat"] != position["seat"]
    open_drill(page, server, f"ruleset={ruleset}&difficulty={difficulty}&kind={kind}&seed={seed}&n={n}")
    expect(page.locator("#question")).to_have_text(question(drill))
    expect(page.locator("#context")).to_contain_text(f"You are seat {position['seat'] + 1}")
    seated = [seat + 1 for seat, melds in enumerate(position["opponents"]) if melds and seat != position["seat"]]
    expect(page.locator("#opponents h4")).to_have_text([f"Seat {seat}" for seat in seated])
    page.locator("#choices button.choice").last.click()
    expect(page.locator("#verdict")).not_to_have_text("")
    names = {"bga-taiwan": "Four Color Cards, Taiwanese rules (BGA)", "cardavia-chan": "Chắn (Cardavia)"}
    drill_cell = page.locator("#history tbody tr").first.locator("td").first
    expect(drill_cell).to_have_text(f"{names[ruleset]} · {difficulty}")
    # no rule-set id, no seat counted from 0, no card code outside a card's name on the page
    shown = page.locator("body").inner_text()
    assert ruleset not in shown
    assert "Seat 0" not in shown and "seat 0" not in shown
    prose = re.sub(r"\((?:[rygw][GAECHPS]|[2-9][msc]|CC|F[1-5])\)", "", page.locator("#question").inner_text()
                   + page.locator("#verdict").inner_text() + page.locator("#history").inner_text())
    assert not re.search(r"(?<![\w-])(?:[rygw][GAECHPS]|[2-9][msc]|CC|F[1-5])(?![\w-])", prose), prose


@pytest.mark.parametrize("lang", ["vi", "zh-Hant"])
def test_the_drill_fits_a_phone_in_vietnamese_and_chinese(browser, server, lang):
    """At 375 px: a claim on another seat's card and a discard with tied answers, answered; nothing wider than the
    screen, nothing cut inside its box; the screenshots are kept to look at."""
    context, page, console = open_page(browser, 375, 740)
    try:
        page.context.add_cookies([{"name": "longcards_lang", "value": lang, "url": server}])
        for name, query in (("claim", "ruleset=bga-taiwan&difficulty=easy&seed=1&n=0"),
                            ("tie", "ruleset=cardavia-chan&difficulty=hard&seed=1&n=2")):
            open_drill(page, server, query)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            shot(page, f"{name}-{lang}-375-question")
            page.locator("button.choice").nth(1).click()
            expect(page.locator("#verdict")).to_be_visible()
            page.wait_for_load_state("networkidle")
            assert page.evaluate("document.documentElement.scrollWidth") <= 375
            cut = page.evaluate("""() => [...document.querySelectorAll('#drill *, #result *, #stats *')]
              .filter((e) => e.getClientRects().length && !e.closest('.scroll, .visually-hidden')
                && e.getBoundingClientRect().right > window.innerWidth + 1)
              .map((e) => e.tagName + '#' + e.id + '.' + e.className)""")
            assert cut == [], cut
            shot(page, f"{name}-{lang}-375-answered")
        assert console.unexpected() == []
    finally:
        context.close()
