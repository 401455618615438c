"""The drills in a real browser: a position dealt by GET /v1/drills, answered with the keyboard, graded with the
values its own request answers, counted in statistics that survive a reload; a link deals the same drill; axe-core
finds no serious or critical violation at phone and desktop widths."""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.browser import open_page

#: Chắn's claims as the page names them: the pairs by their Vietnamese names in every language, the win as Ù.
CHAN_WORDS = {"chan": "Chắn", "ca": "Cạ", "chiu": "Chíu", "win": "Ù"}

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

SHOTS = Path("/tmp/drill-shots")


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
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


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
    loss = round(best["value"] - mine["value"], 4)  # the values fall along the ranking: never below 0
    assert loss >= 0
    right = loss <= 1e-9
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("Right" if right else f"loses {loss:.3f}")
    expect(page.locator("#next")).to_be_focused()  # Enter now goes on
    rows = page.locator("#ranking tbody tr")
    expect(rows).to_have_count(len(options))
    expect(rows.first).to_contain_text(best["reason"])
    expect(page.locator("#ranking tr.mine")).to_contain_text("your answer")
    expect(page.locator("#stat-accuracy")).to_have_text(f"{int(right)} of 1 ({100 * int(right)}%)")
    expect(page.locator("#stat-streak")).to_have_text(f"{int(right)} (best {int(right)})")
    expect(page.locator("#stat-loss")).to_have_text(f"{0 if right else loss:.3f}")
    shot(page, "answered-1280")

    # a reload shows the same drill answered, and does not count it twice
    page.reload()
    expect(page.locator("#verdict")).to_contain_text("Right" if right else "Not the best")
    expect(page.locator("#stat-accuracy")).to_contain_text("of 1 (")
    expect(page.locator("#history tbody tr")).to_have_count(1)

    # N deals the next drill of the set: a new URL, the choices open again
    page.locator("body").press("n")
    expect(page).to_have_url(re.compile(r"[?&]n=1(&|$)"))
    expect(page.locator("#verdict")).to_have_text("")
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
    expect(page.locator("#question")).to_contain_text(f"offers {drill['position']['public_card']}")
    choices = page.locator("#choices button.choice")
    expect(choices).to_have_count(len(options))
    for i, option in enumerate(options):
        expect(choices.nth(i)).to_contain_text(f"{i + 1}{CHAN_WORDS.get(option['kind'], option['kind'])}")
    page.locator("body").press("2")
    second, best = options[1], options[0]
    loss = max(0.0, best["value"] - second["value"])
    expect(page.locator("#verdict")).to_contain_text("Right" if loss <= 1e-9 else f"loses {loss:.3f}")
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
        shot(page, f"question-{width}")
        found = []
        for moment in ("question", "answered"):
            if moment == "answered":
                page.locator("button.choice").first.click()
                expect(page.locator("#verdict")).not_to_have_text("")
                # the verdict is in view when it appears, the keyboard on "Next drill"
                box, height = page.locator("#verdict").bounding_box(), page.viewport_size["height"]
                assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, (box, height)
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
