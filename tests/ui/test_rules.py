"""The rules page in a real browser: a rule cited by the replay viewer is a link that lands on that rule, the cited
path `/docs/rules.md#...` lands there too, the contents work from the keyboard, and at 375 and 1280 px the page
fits its width (wide tables scroll inside their own box) and axe-core finds no serious or critical violation.
Screenshots go to /tmp/rules-shots/ as well, to be looked at."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.request import urlopen

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from service.replay.families import simulate
from service.replay.violations import rule_of
from service.ui import rule_titles

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

SHOTS = Path("/tmp/rules-shots")
#: How far below the window's top a rule reached by its anchor may start (the page's scroll-margin is 12 px).
LANDING = 40


def shot(page, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def assert_landed_on(page, anchor: str) -> None:
    """The page shows the rule `anchor` names at the top of the window, marked as the target."""
    # following a link is asynchronous: wait for the navigation to reach the anchor before reading the page
    expect(page).to_have_url(re.compile(rf"/docs/rules#{re.escape(anchor)}$"))
    target = page.locator(f"#{anchor}")
    expect(target).to_be_in_viewport()
    page.wait_for_function("(id) => document.querySelector(':target')?.id === id", arg=anchor)
    top = target.evaluate("(element) => element.getBoundingClientRect().top")
    assert 0 <= top <= LANDING, top
    assert page.evaluate("window.scrollY") > 0  # it scrolled to get there


def opening_not_in_hand() -> dict:
    """A simulated Four Color round whose opening discard is a card the dealer was never dealt: `not_in_hand` at
    event 0 (a player discards only cards from his hand, docs/rules.md#fc-turn)."""
    log = simulate("bga-taiwan", 5, 3, "greedy")
    opening = log["events"][0]
    assert opening["type"] == "discard" and opening["seat"] == log["dealer"]
    dealt = log["hands"][opening["seat"]]
    opening["card"] = next(c for c in ("rA", "yA", "gA", "wA", "rE", "yE", "gE", "wE") if c not in dealt)
    return log


def test_a_violations_rule_in_the_viewer_is_a_link_to_that_rule(page, server):
    log = opening_not_in_hand()
    page.goto(f"{server}/ui/replay")
    expect(page.locator("#sim-ruleset option").first).to_be_attached()
    page.fill("#paste", json.dumps(log))
    page.click("#load-paste")
    rule = rule_of("not_in_hand")
    citation = re.match(r"docs/rules\.md#[\w-]+", rule).group(0)
    anchor = citation.split("#")[1]
    link = page.locator("#audit .violations a.rule-link").first
    # named by its rule's title on the rules page, never by its path; the violation's code kept for clients
    expect(link).to_have_text(rule_titles.titles("en")[anchor])
    expect(link).not_to_contain_text("docs/")
    expect(link).to_have_attribute("href", f"/docs/rules#{anchor}")
    expect(page.locator("#audit .violations [data-code=not_in_hand]").first).to_be_visible()
    expect(page.locator("#audit .violations")).not_to_contain_text("not_in_hand")

    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#audit").screenshot(path=str(SHOTS / "viewer-audit.png"))
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    errors: list[str] = []
    rules.on("console", lambda message: message.type == "error" and errors.append(message.text))
    rules.wait_for_load_state("load")
    assert_landed_on(rules, anchor)
    expect(rules.locator(f"#{anchor}")).to_contain_text(re.compile(r"\w"))
    shot(rules, "landed-from-the-viewer")
    assert errors == []


def test_each_option_in_the_lab_links_to_its_rule(page, server):
    page.goto(f"{server}/ui?ruleset=bga-taiwan")
    link = page.get_by_role("link", name="rule of threshold")
    expect(link).to_have_attribute("href", "/docs/rules#fc-threshold")  # the option's rule: docs/rules.md#fc-threshold
    expect(page.locator("#options a.rule-link")).to_have_count(
        len(next(r for r in json.loads(urlopen(f"{server}/v1/rulesets").read())["rulesets"]
                 if r["id"] == "bga-taiwan")["options"]))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#options").screenshot(path=str(SHOTS / "lab-options.png"))
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state("load")
    assert_landed_on(rules, "fc-threshold")
    expect(rules.locator("#fc-threshold")).to_contain_text("Threshold and stake.")


def test_the_cited_path_lands_on_the_rule(page, server):
    page.goto(f"{server}/docs/rules.md#chan-capture-3")
    assert_landed_on(page, "chan-capture-3")
    expect(page.locator("#chan-capture-3")).to_contain_text("Rule 3.")
    expect(page.locator("#chan-capture-3")).to_have_css("background-color", "rgb(255, 244, 196)")  # marked


def test_the_contents_work_from_the_keyboard(page, server):
    page.goto(f"{server}/docs/rules")
    page.keyboard.press("Tab")
    expect(page.locator("a.skip")).to_be_focused()
    entry = page.locator(".toc a", has_text="2.5 Capture rules")
    entry.focus()
    page.keyboard.press("Enter")
    assert_landed_on(page, "chan-captures")
    expect(page.locator("#chan-captures")).to_have_text("2.5 Capture rules")
    # a table's box scrolls from the keyboard too: it takes the focus
    box = page.locator(".table-scroll").first
    box.focus()
    expect(box).to_be_focused()


@pytest.mark.parametrize(("size", "lang"), [("phone", "en"), ("page", "en"), ("phone", "vi"), ("phone", "zh-Hant")])
def test_the_page_fits_its_width_and_passes_axe(request, server, size, lang):
    page = request.getfixturevalue(size)
    page.goto(f"{server}/docs/rules?lang={lang}")
    expect(page.locator("article.rules-doc")).to_have_attribute("lang", lang)  # the rules in the reader's language
    expect(page.locator(".toc a").first).to_be_visible()
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing pushes the page sideways
    boxes = page.locator(".table-scroll")
    assert boxes.count() >= 4
    sizes = boxes.evaluate_all(
        "(all) => all.map((b) => [b.getBoundingClientRect().right, b.scrollWidth, b.clientWidth])")
    assert all(right <= width for right, _, _ in sizes), sizes
    if width < 500:  # on a phone the wide tables scroll inside their box
        assert any(scroll > client for _, scroll, client in sizes), sizes
    shot(page, f"rules-{lang}-{width}", full_page=False)
    page.goto(f"{server}/docs/rules?lang={lang}#fc-melds")  # a wide table
    shot(page, f"rules-{lang}-{width}-table")
    results = Axe().run(page)
    grave = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]
             if v["impact"] in ("serious", "critical")]
    assert grave == [], grave
