"""The hand and drill embed views in a real browser: a hand of the lab with its hu, points and ranked discards in the
reader's language (Ukrainian, Chinese), the claim advice on a public card, an invalid hand answered by a page (422)
that names the field in Vietnamese; a drill answered and graded with the drill page's verdict, the verdict posted to
the page that frames it; neither view asks the API anything from the browser; the lab offers the code that embeds
its hand; axe-core finds no serious or critical violation, light and dark, at phone and desktop width."""

from __future__ import annotations

import json
import re
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import expect

from service import i18n
from service.api.examples import AUDIT_LOG
from tests.support.browser import serious
from tests.support.pages import open_lab

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

#: A dealt hand on its turn (21 cards) that wins: 14 points, settled; every discard ranked too.
WINNING = "ruleset=bga-taiwan&seats=4&seat=0&hand=rG,rA,rE,yC,yC,wS,wS,wS,gH,gH,gH,yP,yP,yP,rS,yS,gS,wA,wA,wE,wE"
#: The dealer's 21 cards of the audit example: a discard to decide, one row per distinct non-General card.
DEALER = AUDIT_LOG["hands"][1]
#: Seat 2 of the audit example between turns (20 cards) holding gE gE, seat 1 discarding gE: next, so it may take it
#: into a triple or a pair, or pass (docs/rules.md#fc-claims).
CLAIM = "ruleset=bga-taiwan&seats=3&seat=2&from=1&public=gE&hand=" + ",".join(AUDIT_LOG["hands"][2])
#: The rules axe-core must have run on a view (which has buttons and links, and no field to label).
AUDITED = frozenset({"color-contrast", "button-name", "link-name", "aria-allowed-attr"})
DRILL = {"ruleset": "bga-taiwan", "difficulty": "medium", "seed": 4, "index": 0, "kind": "discard"}


def call(server: str, path: str, body: dict | None = None) -> dict:
    """The API's JSON answer (GET, or POST of `body`)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def said(lang: str, message: str, domain: str = "pages") -> str:
    """`message` as the catalog of `lang` (a tag: `zh-Hant`) says it."""
    translated = i18n.catalog(i18n.supported(lang) or lang, domain).gettext(message)
    assert translated != message, f"{message!r} is not translated in {lang}"
    return translated


def asks_no_api(page) -> list[str]:
    """The API requests the page makes (an embed view makes none: its answers are in the page)."""
    asked: list[str] = []
    page.on("request", lambda r: "/v1/" in r.url and asked.append(r.url))
    return asked


@pytest.mark.parametrize("lang", ["uk", "zh-Hant"])
def test_a_hand_shows_its_hu_points_and_ranked_discards_in_the_readers_language(page, server, lang):
    asked = asks_no_api(page)
    page.goto(f"{server}/embed/hand?{WINNING}&lang={lang}")
    assert page.evaluate("document.documentElement.lang") == lang
    hu = page.locator("#hu-panel")
    expect(hu.locator(".verdict")).to_have_class(re.compile(r"\byes\b"))
    expect(hu.locator("table.breakdown caption")).to_have_text(said(lang, "Points, line by line"))
    expect(hu.locator(".deltas .delta")).to_have_count(4)  # the settlement: seats counted from 1
    expect(page.locator("#discards-title")).to_have_text(said(lang, "Discards ranked", "messages"))
    rows = page.locator("#discards-panel table.ranked tbody tr")
    expect(rows.first.locator("td").first).to_have_text("1")
    expect(page.locator("#hand .card")).to_have_count(21)
    opened = f"/ui?{WINNING.replace(',', '%2C')}&lang={lang}"  # the lab, in the language read here
    expect(page.locator("footer.embed-foot a")).to_have_attribute("href", opened)
    assert asked == []

    page.goto(f"{server}/embed/hand?ruleset=bga-taiwan&seats=3&seat=1&hand={','.join(DEALER)}&lang={lang}")
    distinct = {c for c in DEALER if c[1] != "G"}
    expect(page.locator("#discards-panel table.ranked tbody tr")).to_have_count(len(distinct))
    expect(page.locator("#hu-panel .verdict")).to_have_class(re.compile(r"\bno\b"))


def test_a_public_card_shows_the_claim_advice(page, server):
    page.goto(f"{server}/embed/hand?{CLAIM}")
    expect(page.locator("#public-zone .card[data-code=gE]")).to_be_visible()
    expect(page.locator("#public-from")).to_have_text("discarded by seat 2 · you are next")  # seats from 1
    claims = page.locator("#claims-panel")
    expect(claims.locator(".verdict")).to_contain_text("Advice:")
    rows = claims.locator("table.claim-advice tbody tr")
    expect(rows).to_have_count(3)
    assert sorted(rows.evaluate_all("rows => rows.map(r => r.dataset.kind)")) == ["pair", "pass", "triple"]
    expect(page.locator("#discards-panel")).to_have_count(0)  # 20 cards: no discard to decide

    # a hand that is not between turns lists the legal claims, as the lab does
    page.goto(f"{server}/embed/hand?ruleset=bga-taiwan&seats=3&seat=1&from=0&hand=rG,rA,rE,yC,yC,gH&public=yC")
    expect(page.locator("#claims-panel li[data-kind=triple]")).to_contain_text("priority 2")


def test_an_invalid_hand_is_a_422_page_naming_the_field_in_vietnamese(page, server):
    page.console.expect(r"status of 422")  # the browser logs the page's own status
    answer = page.goto(f"{server}/embed/hand?ruleset=bga-taiwan&hand=rG,rA,zz&lang=vi")
    assert answer is not None and answer.status == 422
    expect(page.locator("#problem-title")).to_have_text(said("vi", "This hand cannot be shown", "messages"))
    expect(page.locator("#problem .problem strong")).to_have_text(said("vi", "A card here is not in this game's deck."))
    card_three = said("vi", "{field}, card {k}").format(field=said("vi", "Hand"), k=3)
    expect(page.locator("#problem li[data-field='hand.2']")).to_contain_text(f"{card_three}: ")
    expect(page.locator("#problem details")).not_to_have_attribute("open", "")  # the code is for developers

    answer = page.goto(f"{server}/embed/hand?ruleset=bga-taiwan&seat=x&hand=rG&lang=vi")
    assert answer is not None and answer.status == 422
    expect(page.locator("#problem li[data-field=seat]")).to_contain_text(said("vi", "My seat"))


@pytest.fixture
def club(session_serve, tmp_path) -> Iterator[tuple[str, Path]]:
    """A site that may frame the views (the one origin the session's serve lists): its address and the folder of
    its pages."""
    port = int(session_serve.embed_host.rsplit(":", 1)[1])
    (tmp_path / "favicon.ico").write_bytes(b"")  # asked for by the browser
    files = partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    site = ThreadingHTTPServer(("127.0.0.1", port), files)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    yield session_serve.embed_host, tmp_path
    site.shutdown()
    site.server_close()


def test_a_drill_is_answered_graded_and_its_verdict_posted_to_the_framing_page(page, server, club):
    drill = call(server, f"/v1/drills?{urllib.parse.urlencode(DRILL)}")
    options = call(server, drill["request"]["path"], drill["request"]["body"])["discards"]
    worst = options[-1]
    host, pages = club
    src = f"{server}/embed/drill?{urllib.parse.urlencode(DRILL)}"
    listen = (f"window.__verdicts = []; addEventListener('message', (e) => {{ if (e.origin === {json.dumps(server)} "
              "&& e.data.type === 'longcards:verdict') window.__verdicts.push(e.data); });")
    (pages / "club.html").write_text(
        f"<!doctype html><html><head><title>A club</title><script>{listen}</script></head><body>"
        f"<iframe id=view src={json.dumps(src)} width=900 height=800 title=drill></iframe></body></html>")
    asked = asks_no_api(page)
    page.goto(f"{host}/club.html")
    view = page.frame_locator("#view")
    expect(view.locator("#question")).to_have_text("Which card do you discard?")
    expect(view.locator("#result")).to_be_hidden()  # nothing of the result before the answer
    view.locator(f"#hand button.choice[data-code='{worst['card']}']").first.click()

    loss = options[0]["value"] - worst["value"]
    right = loss <= 1e-9
    expect(view.locator("#verdict")).to_contain_text("Right" if right else "you lose")
    expect(view.locator("#ranking tbody tr")).to_have_count(len(options))
    expect(view.locator("#ranking tr.mine")).to_contain_text("your answer")
    page.wait_for_function("window.__verdicts.length > 0")
    [posted] = page.evaluate("window.__verdicts")
    assert posted["source"] == "longcards"
    assert {k: posted[k] for k in ("ruleset", "seed", "index", "difficulty", "answer", "best", "correct")} == {
        "ruleset": "bga-taiwan", "seed": 4, "index": 0, "difficulty": "medium", "answer": worst["card"],
        "best": options[0]["card"], "correct": right}
    assert posted["loss"] == pytest.approx(max(0.0, loss))
    assert asked == []  # the drill and its ranking were in the page


def test_a_drill_of_public_cards_is_answered_with_a_digit_and_its_link_opens_the_drill_page(page, server):
    page.goto(f"{server}/embed/drill?ruleset=cardavia-chan&difficulty=hard&kind=claim&seed=2&n=0&theme=dark")
    assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"
    choices = page.locator("#choices button.choice")
    expect(choices.first).to_be_visible()
    page.locator("body").press("1")
    expect(page.locator("#verdict")).to_contain_text("Right")  # the first listed is the advice
    expect(choices.first).to_have_class(re.compile(r"\bpicked\b"))
    expect(page.locator("footer.embed-foot a")).to_have_attribute(
        "href", "/ui/drill?ruleset=cardavia-chan&difficulty=hard&kind=claim&seed=2&n=0")


def test_the_lab_gives_the_code_that_embeds_its_hand(page, server):
    open_lab(page, server, "?ruleset=bga-taiwan&seats=3&seat=0&hand=rG,rA,rE,yC,yC&exposed=triple:wS.wS.wS&public=yC")
    expect(page.locator("#hu-panel .verdict")).to_contain_text("hu: 6 points")
    page.click("#embed-box summary")
    url = page.input_value("#embed-url")
    assert url.startswith(f"{server}/embed/hand?ruleset=bga-taiwan&seats=3&seat=0&"), url
    assert "samples=" not in url and "lang=" not in url
    assert page.input_value("#embed-iframe").startswith(f'<iframe src="{url.replace("&", "&amp;")}"')
    query = url.split("?", 1)[1]
    assert page.input_value("#embed-script") == (f'<div data-longcards-hand="{query.replace("&", "&amp;")}"></div>\n'
                                                 f'<script src="{server}/embed/longcards.js" async></script>')
    page.goto(url)
    expect(page.locator("#hu-panel .verdict")).to_contain_text("hu: 6 points")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", ["phone", "page"])
def test_the_views_have_no_serious_accessibility_violation(request, server, screen, scheme):
    page = request.getfixturevalue(screen)  # 375 or 1280 px wide
    page.goto(f"{server}/embed/hand?{WINNING}&theme={scheme}")
    expect(page.locator("#discards-panel tbody tr").first).to_be_visible()
    assert serious(page, AUDITED) == []
    page.goto(f"{server}/embed/drill?{urllib.parse.urlencode(DRILL)}&theme={scheme}")
    page.locator("#hand button.choice").first.click()
    expect(page.locator("#verdict")).not_to_be_empty()
    assert serious(page, AUDITED) == []
