"""The replay viewer as a reviewer shares it: the view in a link (a simulation's parameters or the log itself in the
fragment, the round, the event, the analysis mode), a link's analysis offered but never run without a click, a
deflate bomb in a link refused unread, the event numbers agreeing with the selected row, field errors whose field
name holds a quote, the time of a step through a 2,000-event log, and an axe-core audit."""

from __future__ import annotations

import base64
import copy
import json
import statistics
import zlib
from pathlib import Path

import pytest
from playwright.sync_api import expect

from bench.replay_steps import EVENTS, load_long_log, long_log, time_steps
from service.replay.families import simulate
from tests.support.browser import open_page
from tests.support.pages import RULESET, open_viewer, planted, simulate_in_viewer

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

SHOTS = Path("/tmp/replay-shots")
#: The most a step's handler may take, as a median over many steps (it takes a few ms on an idle machine; the
#: margin is for a loaded CI machine).
STEP_BUDGET_MS = 50


def the_view(page) -> dict:
    """What the viewer shows: round, position, the selected row, the mode, the table's text."""
    expect(page.locator("#viewer")).to_be_visible()
    selected = page.locator("#events li[aria-selected=true]")
    expect(selected).to_have_count(1)
    return {"round": page.locator("#round").input_value(), "position": page.locator("#position").text_content(),
            "row": selected.get_attribute("id"), "mode": page.locator("#review-mode").input_value(),
            "now": page.locator("#now").inner_text(), "table": page.locator("#table").inner_text()}


def shared_link(page) -> str:
    """Click "Copy link"; the link the page copied (the clipboard when granted, the link field in any case)."""
    page.click("#copy-link")
    expect(page.locator("#share-note")).to_contain_text("copied")
    link = page.locator("#share-link").input_value()
    assert link == page.url
    return link


def opened(browser, link: str, width: int = 1280):
    """A fresh page (its own context: nothing shared but the link) showing `link`."""
    context, page, console = open_page(browser, width)
    page.goto(link)
    return context, page, console


def test_a_simulation_link_reopens_the_same_view(page, server, browser):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_viewer(page, server)
    simulate_in_viewer(page, seed=5, rounds=2)
    expect(page.locator("#round option")).to_have_count(2)
    page.select_option("#round", "1")
    page.select_option("#review-mode", "deep")
    history = page.evaluate("history.length")
    page.locator("#events").focus()
    for key in ["j", "j", "ArrowRight", "ArrowRight", "ArrowDown", "k", "ArrowRight"]:  # six forward, one back
        page.keyboard.press(key)
    expect(page.locator("#position")).to_contain_text("event 5 /")
    page.wait_for_function("() => location.hash.includes('event=5')")
    # each step replaced the URL rather than adding to the history: Back leaves the viewer
    assert page.evaluate("history.length") == history
    link = shared_link(page)
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert "ruleset=bga-taiwan" in link and "seed=5" in link and "round=2" in link and "mode=deep" in link
    shown = the_view(page)
    assert shown["row"] == "event-4" and shown["round"] == "1" and shown["mode"] == "deep"

    context, other, console = opened(browser, link)
    try:
        expect(other.locator("#position")).to_have_text(shown["position"])
        assert the_view(other) == shown
        assert other.locator("#sim-seed").input_value() == "5"
        assert console.unexpected() == []
    finally:
        context.close()


def test_a_link_to_an_analysed_round_offers_the_analysis(page, server, browser):
    open_viewer(page, server)
    simulate_in_viewer(page, seed=7, rounds=1)
    expect(page.locator("#position")).to_contain_text("the deal")
    page.click("#analyse")
    expect(page.locator("#analysis-status")).to_contain_text("finished", timeout=90_000)
    first = page.locator("#events .tag.rank").first.locator("xpath=..")
    first.click()  # the first reviewed discard: the table shows its advice
    expect(page.locator("#now .advice.discard")).to_be_visible()
    link = shared_link(page)
    assert "analysed=1" in link and "mode=exact" in link
    shown = the_view(page)
    annotations = page.locator("#events .tag.rank").count()

    context, other, console = opened(browser, link)
    try:
        # the same round and event, the analysis offered but not run (a job spends the visitor's quota)
        expect(other.locator("#analysis-offer")).to_contain_text("click Analyse")
        expect(other.locator("#position")).to_have_text(shown["position"])
        expect(other.locator("#events .tag.rank")).to_have_count(0)
        other.click("#analyse")
        expect(other.locator("#analysis-status")).to_contain_text("finished", timeout=90_000)
        expect(other.locator("#events .tag.rank")).to_have_count(annotations)
        expect(other.locator("#analysis-offer")).to_be_hidden()
        assert the_view(other) == shown
        assert console.unexpected() == []
    finally:
        context.close()


def test_a_pasted_log_travels_in_the_link(page, server, browser):
    log = simulate(RULESET, 3, 3, "greedy")
    open_viewer(page, server)
    page.fill("#paste", json.dumps(log))
    page.click("#load-paste")
    page.click("#last")
    page.click("#back")
    expect(page.locator("#position")).to_have_text(f"event {len(log['events']) - 1} / {len(log['events'])}")
    link = shared_link(page)
    assert "#log=" in link and "ruleset=" not in link
    shown = the_view(page)

    context, other, console = opened(browser, link)
    try:
        expect(other.locator("#position")).to_have_text(shown["position"])
        assert the_view(other) == shown
        assert json.loads(other.locator("#paste").input_value()) == log  # the log itself came through the link
        # a cut link is reported next to the paste box, not thrown
        other.goto(link[:-40])
        expect(other.locator(".field-error[data-field=paste]")).to_contain_text("cannot be read")
        assert console.unexpected() == []
    finally:
        context.close()


def packed_size(document: object) -> int:
    """The characters a document takes in a link: raw DEFLATE (as the browser's deflate-raw), then base64url."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = json.dumps(document, separators=(",", ":")).encode()
    return len(base64.urlsafe_b64encode(deflate.compress(data) + deflate.flush()).rstrip(b"="))


def test_a_log_too_large_for_a_link_says_so(page, server):
    logs = [simulate(RULESET, seed, 4, "greedy") for seed in range(1, 41)]
    assert packed_size(logs) > 1.5 * 8 * 1024  # well over the 8 KB a link holds, whatever the deflate level
    open_viewer(page, server)
    page.fill("#paste", json.dumps(logs))
    page.click("#load-paste")
    expect(page.locator("#round option")).to_have_count(len(logs), timeout=60_000)
    expect(page.locator("#share-note")).to_contain_text("too large")
    expect(page.locator("#copy-link")).to_be_disabled()
    expect(page.locator("#share-link")).to_be_hidden()
    assert "log=" not in page.url


def test_a_link_reads_only_what_it_can_use(page, server):
    open_viewer(page, server)
    read = page.evaluate("""async () => {
      const { readLink, writeLink } = await import('/ui/static/replay-link.js');
      const simulation = { ruleset: 'bga-taiwan', seats: '3', seed: '5', policy: 'greedy', rounds: '2' };
      const view = { source: { simulation }, round: 1, position: 4, mode: 'deep', analysed: true };
      return { back: readLink(writeLink(view)), view,
        junk: readLink('#event=-3&round=x&mode=fast&analysed=yes'), empty: readLink('') };
    }""")
    assert read["back"] == read["view"]
    # numbers it cannot use fall back to the deal and the first round; an unknown mode is left alone
    assert read["junk"] == {"source": None, "round": 0, "position": -1, "mode": None, "analysed": False}
    assert read["empty"] == read["junk"]


def test_the_event_number_is_the_selected_rows_number(page, server):
    log, index, _ = planted()
    open_viewer(page, server)
    page.fill("#paste", json.dumps(log))
    page.click("#load-paste")
    expect(page.locator("#position")).to_contain_text("the deal")
    page.locator("#events").focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#position")).to_have_text(f"event 5 / {len(log['events'])}")
    expect(page.locator("#events li[aria-selected=true] .num")).to_have_text("5.")
    # the audit's button names the event as the list numbers it, and goes to that row
    page.locator("#audit .violations button").click()
    expect(page.locator("#position")).to_have_text(f"event {index + 1} / {len(log['events'])}")
    expect(page.locator("#audit .violations button")).to_have_text(f"event {index + 1}")
    expect(page.locator("#events li[aria-selected=true] .num")).to_have_text(f"{index + 1}.")
    expect(page.locator("#events li[aria-selected=true]")).to_have_class("violation")


def test_a_field_name_with_a_quote_is_reported(page, server):
    log = copy.deepcopy(simulate(RULESET, 3, 3, "greedy"))
    log["events"][3]['fo"o'] = 1
    open_viewer(page, server)
    page.console.expect(r"status of 422")
    page.fill("#paste", json.dumps(log))
    page.click("#load-paste")
    # no slot is named after the field: the problem goes to the log's slot (the page checks for uncaught errors)
    # the move counted from 1 as the page counts them, the unknown field by its name
    expect(page.locator(".field-error[data-field=log]")).to_contain_text('Moves, move 4 “fo"o”: is not a field')
    expect(page.locator("#viewer")).to_be_hidden()


def test_a_step_through_a_2000_event_log_is_fast(page, server):
    log = long_log()
    load_long_log(page, server, log)
    expect(page.locator("#events li")).to_have_count(EVENTS + 1)
    # deflated, even 2,000 events fit in a link
    expect(page.locator("#copy-link")).to_be_enabled()
    assert "#log=" in page.url
    page.evaluate("document.querySelector('#events li').dataset.first = 'kept'")
    times = time_steps(page, 40)
    handler = times["handler"]
    assert len(handler) == 40
    print(f"\nstep handler: median {statistics.median(handler):.1f} ms, max {max(handler):.1f} ms; "
          f"to the next frame: median {statistics.median(times['frame']):.1f} ms, max {max(times['frame']):.1f} ms")
    assert statistics.median(handler) < STEP_BUDGET_MS
    # the list was drawn once: a step moves the selection, it does not rebuild the rows
    assert page.locator("#events li").first.get_attribute("data-first") == "kept"
    expect(page.locator("#events li[aria-selected=true]")).to_have_count(1)
    expect(page.locator("#event-39")).to_have_attribute("aria-selected", "true")
    page.keyboard.press("End")
    expect(page.locator(f"#event-{EVENTS - 1}")).to_have_attribute("aria-selected", "true")
    # the list scrolled to the selected row: it lies inside the list's box
    page.wait_for_function("""() => {
      const row = document.querySelector('#event-1999').getBoundingClientRect();
      const list = document.querySelector('#events').getBoundingClientRect();
      return row.height > 0 && row.top >= list.top - 1 && row.bottom <= list.bottom + 1;
    }""")


def grave_violations(axe, page) -> list:
    """axe-core's serious and critical violations on the page: rule, impact and the first elements."""
    found = axe.run(page).response["violations"]
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in found
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("width", [375, 1280])
def test_the_viewer_passes_axe(browser, server, width):
    from axe_playwright_python.sync_playwright import Axe

    log, index, _ = planted()
    context, page, console = open_page(browser, width, 740 if width < 400 else 900)
    try:
        open_viewer(page, server)
        page.fill("#paste", json.dumps(log))
        page.click("#load-paste")
        expect(page.locator("#position")).to_contain_text("the deal")
        page.locator("#events").focus()
        for _ in range(index + 1):
            page.keyboard.press("ArrowRight")
        expect(page.locator("#now .violation-box")).to_be_visible()
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"replay-{width}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert grave_violations(Axe(), page) == []
        # with the analysis: its table, legends and plots
        page.goto("about:blank")  # a new fragment alone would not load the page again
        page.goto(f"{server}/ui/replay#ruleset={RULESET}&seats=3&seed=7&policy=greedy&rounds=2&event=9&analysed=1")
        expect(page.locator("#analysis-offer")).to_be_visible()  # the link's analysis offered for a click
        assert grave_violations(Axe(), page) == []
        page.click("#analyse")
        expect(page.locator("#analysis-status")).to_contain_text("finished", timeout=90_000)
        page.screenshot(path=str(SHOTS / f"replay-analysed-{width}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert grave_violations(Axe(), page) == []
        assert console.unexpected() == []
    finally:
        context.close()


def bomb(size: int) -> str:
    """A link's `log=` value that inflates to `size` bytes of one repeated character (a zip bomb): raw DEFLATE,
    base64url, as replay-link.js packs a log."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = deflate.compress(b"a" * size) + deflate.flush()
    return base64.urlsafe_b64encode(packed).rstrip(b"=").decode()


@pytest.mark.parametrize("size, fits", [(40 * 2**20, False), (6 * 2**20, True)], ids=["40-MB-link", "6-MB-in-8-KB"])
def test_a_zip_bomb_link_is_refused_unread(page, server, size, fits):
    packed = bomb(size)
    # the first is 53 KB of link, refused by its length; the second fits the 8 KB a link holds: only its unpacked
    # size can stop it
    assert (len(packed) <= 8 * 1024) == fits
    page.goto(f"{server}/ui/replay#log={packed}&round=1&event=3")
    message = page.locator(".field-error[data-field=paste]")
    expect(message).to_contain_text("too large", timeout=10_000)
    expect(message).to_be_visible()
    # the page still draws frames, holds nothing of the log and shows no viewer
    page.set_default_timeout(2_000)
    assert page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
    assert page.locator("#paste").input_value() == ""
    expect(page.locator("#viewer")).to_be_hidden()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"replay-bomb-{size >> 20}.png"))


def test_a_link_to_a_deep_analysis_spends_nothing_until_clicked(page, server):
    job_posts = []
    page.on("request", lambda r: r.method == "POST" and ("/v1/replays" in r.url or "/v1/jobs" in r.url)
            and job_posts.append(r))
    open_viewer(page, server)
    page.evaluate("localStorage.setItem('longcards.apiKey', 'visitor-key')")  # a remembered key
    page.goto("about:blank")
    page.goto(f"{server}/ui/replay#ruleset={RULESET}&seats=3&seed=7&policy=greedy&rounds=1&event=4"
              "&mode=deep&analysed=1")
    expect(page.locator("#position")).to_contain_text("event 4 /")
    expect(page.locator("#review-mode")).to_have_value("deep")
    page.wait_for_load_state("networkidle")  # the audits are answered, nothing else is asked for
    assert job_posts == []
    # the link's analysis is offered, not run
    expect(page.locator("#analysis-offer")).to_be_visible()
    expect(page.locator("#analysis-offer")).to_contain_text("Analyse")
    expect(page.locator("#analysis-status")).to_have_text("")
    assert "analysed=1" in page.url  # the link still offers it when passed on
    with page.expect_request(lambda r: r.method == "POST" and "/v1/replays" in r.url) as submitted:
        page.click("#analyse")
    request = submitted.value
    assert request.post_data_json["review"] == {"mode": "deep"}
    assert request.headers["authorization"] == "Bearer visitor-key"
    assert len(job_posts) == 1
    expect(page.locator("#analysis-offer")).to_be_hidden()
    # a deep job would hold the shared worker for a while: stop it
    job = request.response().headers["location"]
    page.request.delete(f"{server}{job}", headers={"Authorization": "Bearer visitor-key"})
