"""The stored game's views in a real browser: the embed view (`/embed/replay/{id}`) stepping through a stored game
with its audit and the annotations of a stored analysis, opened at `?round=&event=`, in a theme and a language the
host page asks for, a gone game said in the reader's language, no stored API key ever sent; and the replay viewer
storing a game ("Store this game": its permanent link and embed codes) and opening it at its link."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from service.i18n import catalog
from service.replay.families import simulate
from tests.support.browser import open_page
from tests.support.pages import RULESET, card_name, open_viewer, planted, simulate_in_viewer

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

#: A share id of the right form that names no stored game.
UNKNOWN = "A" * 24
#: Where the pages keep a visitor's API key (common.js), and a key kept there.
KEY = "longcards.apiKey"
KEPT = "kept-key-0123456789abcdef"


def call(server: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict | None]:
    """A request to the session's server (no key: the test serve has none): its status and JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        raw = answer.read()
        return answer.status, json.loads(raw) if raw else None


def store(server: str, logs: list[dict], **extra) -> dict:
    """Store a game (POST /v1/shares): its summary."""
    status, summary = call(server, "POST", "/v1/shares", {"logs": logs, **extra})
    assert status == 201 and summary
    return summary


def analysed(server: str, logs: list[dict]) -> str:
    """The id of a finished exact replay analysis of `logs`."""
    status, job = call(server, "POST", "/v1/replays", {"logs": logs, "review": {"mode": "exact"}})
    assert status == 202 and job
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        _, job = call(server, "GET", f"/v1/jobs/{job['id']}")
        assert job and job["status"] not in ("failed", "canceled"), job
        if job["status"] == "finished":
            return job["id"]
        time.sleep(0.5)
    raise AssertionError("the analysis did not finish")


def open_embed(page, server: str, share_id: str, query: str = "") -> None:
    """The embed view of a stored game, once its round's audit is shown."""
    page.goto(f"{server}/embed/replay/{share_id}{query}")
    expect(page.locator("#audit .match, #audit .mismatch").first).to_be_visible()


def test_the_embed_view_steps_through_a_stored_game_from_the_place_asked(page, server):
    logs = [simulate(RULESET, seed, 3, "greedy") for seed in (5, 6)]
    share = store(server, logs, title="Two rounds at one table")
    open_embed(page, server, share["id"], "?round=2&event=3")
    # the second round at its third event, as the viewer's links number them
    expect(page.locator("#round")).to_have_value("1")
    expect(page.locator("#position")).to_have_text(f"event 3 / {len(logs[1]['events'])}")
    expect(page.locator("#event-2")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#events li")).to_have_count(len(logs[1]["events"]) + 1)  # the deal, then each event
    expect(page.locator("#game-title")).to_have_text("Two rounds at one table")
    expect(page.locator("#audit")).to_contain_text("✓ every move is legal")
    expect(page.locator("#viewer")).to_have_attribute("aria-busy", "false")  # the round is drawn whole
    expect(page.locator("#table .seat")).to_have_count(3)
    # no loader, no key, no job, no link to copy: a visitor of the host page only looks
    for absent in ("#file", "#paste", "#simulate", "#api-key", "#analyse", "#review-mode", "#share-link", "#store"):
        expect(page.locator(absent)).to_have_count(0)
    # the keys and the buttons step; the footer opens the full viewer at the place shown
    page.locator("#events").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#position")).to_have_text(f"event 4 / {len(logs[1]['events'])}")
    link = page.locator(".embed-foot a")
    expect(link).to_have_attribute("href", f"/ui/replay/{share['id']}#round=2&event=4")
    expect(link).to_have_attribute("target", "_blank")
    page.click("#first")
    expect(page.locator("#position")).to_contain_text("the deal")
    expect(link).to_have_attribute("href", f"/ui/replay/{share['id']}#round=2")
    page.click("#last")
    expect(page.locator("#forward")).to_be_disabled()
    # another round: its own events and audit, read when it is chosen
    page.select_option("#round", "0")
    expect(page.locator("#events li")).to_have_count(len(logs[0]["events"]) + 1)
    expect(page.locator("#position")).to_contain_text("the deal")
    expect(page.locator("#round option").nth(0)).to_contain_text("1: Four Color Cards")


def test_the_embed_view_shows_a_violation_at_its_event(page, server):
    log, index, card = planted()
    share = store(server, [log])
    open_embed(page, server, share["id"], f"?event={index + 1}")
    seat = log["events"][index]["seat"]
    expect(page.locator("#audit .mismatch")).to_have_text("✗ 1 violation")
    expect(page.locator(f"#event-{index}")).to_have_class("violation")
    box = page.locator("#now .violation-box")
    expect(box).to_have_attribute("data-code", "not_in_hand")
    expect(box).to_contain_text(f"{card_name(card)} is not in seat {seat + 1}'s hand")  # seats counted from 1
    expect(page.locator("#round-label")).to_be_hidden()  # one round: nothing to choose


def test_a_stored_analysis_annotates_the_embed_view(page, server):
    logs = [simulate(RULESET, 5, 3, "greedy")]
    share = store(server, logs, job=analysed(server, logs))
    open_embed(page, server, share["id"])
    # every discard of the round rated in the list, as the full viewer shows it after "Analyse"
    discards = [i for i, e in enumerate(logs[0]["events"]) if e["type"] == "discard"]
    expect(page.locator("#events .tag.rank")).to_have_count(len(discards))
    page.locator(f"#event-{discards[0]}").click()
    advice = page.locator("#now .advice.discard")
    expect(advice).to_contain_text(f"Seat {logs[0]['events'][discards[0]]['seat'] + 1} discarded")
    expect(advice).to_contain_text("expected loss")
    # the review per seat and the plots, folded until asked for
    expect(page.locator("#analysis .review")).to_be_hidden()
    page.click("#analysis-box summary")
    expect(page.locator("#analysis .review tbody tr")).to_have_count(3)
    answers = page.locator("#events .tag.claim").count()
    expect(page.locator("#analysis svg.plot rect.bar")).to_have_count(len(discards) + answers)
    page.locator(f"#analysis svg.plot rect.bar[data-event='{discards[1]}']").first.click()
    expect(page.locator("#position")).to_have_text(f"event {discards[1] + 1} / {len(logs[0]['events'])}")


def test_a_gone_game_is_said_in_the_readers_language(page, server):
    words = catalog("vi", "pages").gettext
    page.console.expect(r"status of 4(04|10)")
    answer = page.goto(f"{server}/embed/replay/{UNKNOWN}?lang=vi")
    assert answer is not None and answer.status == 404
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    said = words("No game is stored at this link: it may be cut short, or the game's time on the service is over.")
    assert said and not said.startswith("No game")
    expect(page.locator("#problem [data-code=share_not_found] strong")).to_have_text(said)
    expect(page.locator("#problem-title")).to_have_text(catalog("vi").gettext("This stored game cannot be shown"))
    # a game its owner deleted: 410, and said so
    share = store(server, [simulate(RULESET, 3, 3, "greedy")])
    assert call(server, "DELETE", f"/v1/shares/{share['id']}")[0] == 204
    answer = page.goto(f"{server}/embed/replay/{share['id']}?lang=vi")
    assert answer is not None and answer.status == 410
    expect(page.locator("#problem [data-code=share_deleted] strong")).to_have_text(
        words("This stored game was deleted by whoever stored it."))
    expect(page.locator("#viewer")).to_have_count(0)


def test_the_embed_view_sends_no_stored_key(page, server):
    share = store(server, [simulate(RULESET, 5, 3, "greedy")] * 2)
    # a key this browser keeps for the service's own pages, in both stores
    page.context.add_init_script(f"try {{ sessionStorage.setItem({KEY!r}, {KEPT!r});"
                                 f" localStorage.setItem({KEY!r}, {KEPT!r}); }} catch {{}}")
    sent: list[dict[str, str]] = []
    page.on("request", lambda request: "/v1/" in request.url and sent.append(request.headers))
    open_embed(page, server, share["id"])
    page.select_option("#round", "1")
    expect(page.locator("#audit .match").first).to_be_visible()
    stored = page.evaluate(f"[sessionStorage.getItem({KEY!r}), localStorage.getItem({KEY!r})]")
    assert stored == [KEPT, KEPT]  # the key was there to be read
    assert len(sent) >= 2  # each round's audit was read from the service
    assert all("authorization" not in headers and "x-api-key" not in headers for headers in sent), sent


@pytest.mark.parametrize(("theme", "system", "paper"), [("dark", "light", "rgb(20, 24, 29)"),
                                                         ("light", "dark", "rgb(247, 248, 250)")])
def test_the_host_pages_theme_wins_over_the_systems(page, server, theme, system, paper):
    share = store(server, [simulate(RULESET, 5, 3, "greedy")])
    page.emulate_media(color_scheme=system)
    open_embed(page, server, share["id"], f"?theme={theme}&event=4")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") in (paper, "rgba(0, 0, 0, 0)")
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == paper
    assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == theme


def test_the_embed_view_fits_a_phone(phone, server):
    share = store(server, [simulate(RULESET, 5, 3, "greedy")])
    open_embed(phone, server, share["id"], "?event=6")
    expect(phone.locator("#event-5")).to_have_attribute("aria-selected", "true")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    # the event list keeps its own height: the frame grows with the page, so a height in vh would grow with it
    assert phone.evaluate("document.querySelector('#events').getBoundingClientRect().height") <= 400


def test_the_viewer_stores_a_game_and_opens_it_at_its_link(page, server, browser):
    open_viewer(page, server)
    simulate_in_viewer(page, seed=5, rounds=2)
    expect(page.locator("#round option")).to_have_count(2)
    page.click("#store summary")
    page.fill("#store-title", "A game to remember")
    page.click("#store-game")
    link = page.locator("#stored-link")
    expect(link).to_have_value(re.compile(rf"^{re.escape(server)}/ui/replay/[\w-]{{24}}$"))
    share_id = link.input_value().rsplit("/", 1)[1]
    # the address is the stored game's own from now on; the codes embed it
    expect(page).to_have_url(re.compile(rf"/ui/replay/{share_id}#"))
    expect(page.locator("#embed-script")).to_have_value(
        f'<div data-longcards-share="{share_id}"></div>\n<script src="{server}/embed/longcards.js" async></script>')
    iframe = page.locator("#embed-iframe").input_value()
    assert f'src="{server}/embed/replay/{share_id}"' in iframe and 'title="A game to remember"' in iframe
    expect(page.locator("#store-form")).to_be_hidden()
    expect(page.locator("#game-title")).to_have_text("A game to remember")
    expect(page.locator("#stored-expiry")).to_contain_text("Kept until")
    # another reader opens the link: the same game, no key needed, the oEmbed address in its head
    context, other, console = open_page(browser, 1280)
    try:
        other.goto(f"{server}/ui/replay/{share_id}#round=2&event=5")
        expect(other.locator("#round")).to_have_value("1")
        expect(other.locator("#position")).to_contain_text("event 5 /")
        expect(other.locator("#audit .match, #audit .mismatch").first).to_be_visible()
        # its link and codes at hand under "Store this game", nothing more to store
        expect(other.locator("#stored-link")).to_have_value(f"{server}/ui/replay/{share_id}")
        other.click("#store summary")
        expect(other.locator("#embed-script")).to_be_visible()
        expect(other.locator("#store-form")).to_be_hidden()
        expect(other.locator("#game-title")).to_have_text("A game to remember")
        oembed = other.locator("link[rel=alternate][type='application/json+oembed']")
        page_url = quote(f"{server}/ui/replay/{share_id}", safe="")
        expect(oembed).to_have_attribute("href", f"{server}/oembed?url={page_url}")
        # another place in the same game, typed into the address: no new load
        other.evaluate("location.hash = '#round=1&event=2'")
        expect(other.locator("#round")).to_have_value("0")
        expect(other.locator("#position")).to_contain_text("event 2 /")
        assert console.unexpected() == []
    finally:
        context.close()


def test_storing_says_what_went_wrong_in_the_players_words(page, server):
    open_viewer(page, server)
    simulate_in_viewer(page, seed=5, rounds=1)
    expect(page.locator("#round option")).to_have_count(1)
    problem = {"type": "/problems/too_many_shares", "title": "Too Many Requests", "status": 429,
               "code": "too_many_shares", "detail": "this caller keeps 1000 stored games"}
    page.route("**/v1/shares", lambda route: route.fulfill(status=429, content_type="application/problem+json",
                                                            body=json.dumps(problem)))
    page.console.expect(r"status of 429")
    page.click("#store summary")
    page.click("#store-game")
    said = page.locator("#store-problem [data-code=too_many_shares]")
    expect(said.locator("strong")).to_have_text(
        "You keep as many stored games as the service allows: delete one first.")
    expect(page.locator("#stored")).to_be_hidden()
    expect(page.locator("#store-game")).to_be_enabled()


def test_a_log_too_large_for_a_link_is_offered_to_store(page, server):
    logs = [simulate(RULESET, seed, 4, "greedy") for seed in range(1, 41)]
    open_viewer(page, server)
    page.fill("#paste", json.dumps(logs))
    page.click("#load-paste")
    expect(page.locator("#round option")).to_have_count(len(logs), timeout=60_000)
    expect(page.locator("#share-note")).to_contain_text("store the game for a permanent link")
    expect(page.locator("#store")).to_have_attribute("open", "")
    page.click("#store-game")
    expect(page.locator("#stored-link")).to_have_value(re.compile(r"/ui/replay/[\w-]{24}$"))
    # a stored game needs no log in its link: its address holds only the view
    expect(page.locator("#share-link")).to_be_visible()
    assert "log=" not in page.url and "/ui/replay/" in page.url


def test_the_viewer_at_a_gone_games_link_says_so(page, server):
    page.console.expect(r"status of 404")
    page.goto(f"{server}/ui/replay/{UNKNOWN}")
    said = page.locator("#page-error [data-code=share_not_found] strong")
    expect(said).to_have_text("No game is stored at this link: it may be cut short, or the game's time on the service "
                              "is over.")
    expect(page.locator("#viewer")).to_be_hidden()
    expect(page.locator("#paste")).to_be_visible()  # another game may still be loaded
