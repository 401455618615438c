"""The embed views framed by another site, as a club's forum or a trainer's page frames them: a host page served
from another origin (another port of 127.0.0.1) frames each view by a plain iframe and by the served script
(`/embed/longcards.js`). Each view renders in the language the host asked for, the iframe grows to the view's
content, a drill's verdict reaches the host page, and a site not in LONGCARDS_EMBED_ORIGINS is refused by the
browser itself (the session's serve lists exactly one host origin: tests/support/serving.py)."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest

from service import i18n
from service.api.examples import AUDIT_LOG
from tests.support.ports import free_port

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

HAND = "ruleset=bga-taiwan&seats=4&seat=0&hand=rG,rA,rE,yC,yC,wS,wS,wS,gH,gH,gH,yP,yP,yP,rS,yS,gS,wA,wA,wE,wE"
DRILL = "ruleset=cardavia-chan&difficulty=easy&seed=7&kind=discard"
#: Each view: (path after the service's base for an iframe, the script's data attribute and value, what shows
#: that it has drawn its content).
VIEWS: dict[str, Callable[[str], tuple[str, tuple[str, str], str]]] = {
    "replay": lambda share: (f"/embed/replay/{share}", ("data-longcards-share", share), "#events li"),
    "hand": lambda share: (f"/embed/hand?{HAND}", ("data-longcards-hand", HAND), "#hu-panel .card, #hu-panel p"),
    "drill": lambda share: (f"/embed/drill?{DRILL}", ("data-longcards-drill", DRILL), "#choices button, #hand button"),
}
#: The host page's own script: it sizes a plain iframe from the view's resize messages, checking where they come
#: from, as docs/api.md#embedding tells a site to; and it keeps every message and verdict for the test to read.
LISTENER = """<script>
window.__messages = []; window.__verdicts = [];
window.addEventListener("message", (event) => {
  if (event.origin !== SERVICE || !event.data || event.data.source !== "longcards") return;
  window.__messages.push(event.data);
  const frame = [...document.querySelectorAll("iframe")].find((f) => f.contentWindow === event.source);
  if (frame && frame.id === "plain" && event.data.type === "longcards:resize") {
    frame.style.height = event.data.height + "px";
  }
});
document.addEventListener("longcards:verdict", (event) => window.__verdicts.push(event.detail));
</script>"""


class Host:
    """A site of another origin: pages by path, set by the test, served from a thread."""

    def __init__(self, port: int) -> None:
        pages: dict[str, bytes] = {}
        self.pages = pages

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                body = pages.get(urlsplit(self.path).path)
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(body or b"not here")

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def page(self, path: str, service: str, body: str) -> str:
        """Serve a page at `path` that knows the service's origin; its URL."""
        head = '<!doctype html><html><head><meta charset="utf-8"><title>A club</title><link rel="icon" href="data:,">' \
               f'<script>const SERVICE = {json.dumps(service)};</script>{LISTENER}</head>'
        self.pages[path] = f"{head}<body><h1>Our club's forum</h1>{body}</body></html>".encode()
        return self.origin + path


@pytest.fixture(scope="module")
def listed(session_serve) -> Iterator[Host]:
    """The one host origin the session's serve lets frame its embed views."""
    host = Host(int(session_serve.embed_host.rsplit(":", 1)[1]))
    yield host
    host.server.shutdown()
    host.server.server_close()


@pytest.fixture(scope="module")
def unlisted() -> Iterator[Host]:
    """A host origin no setting names."""
    host = Host(free_port())
    yield host
    host.server.shutdown()
    host.server.server_close()


@pytest.fixture(scope="module")
def share(server) -> str:
    """A stored game of the session's serve."""
    call = urllib.request.Request(f"{server}/v1/shares", data=json.dumps({"logs": [AUDIT_LOG]}).encode(),
                                  headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(call, timeout=30) as answer:
        return json.loads(answer.read())["id"]


def frame_of(page, path_part: str):
    """The frame whose URL holds `path_part`, once it has one."""
    page.wait_for_function("p => [...document.querySelectorAll('iframe')].some((f) => f.src.includes(p))",
                           arg=path_part)
    for _ in range(200):
        found = [f for f in page.frames if path_part in f.url]
        if found:
            return found[0]
        page.wait_for_timeout(50)
    raise AssertionError(f"no frame of {path_part}")


def fits(page, frame, selector: str) -> None:
    """The iframe `selector` grew to its view's content: taller than an iframe's default 150 px, within 2 px of
    the view's own height."""
    page.wait_for_function(f"() => document.querySelector({json.dumps(selector)}).getBoundingClientRect().height > 200")
    page.wait_for_timeout(300)  # the last resize of the view's drawing
    outer = page.evaluate(f"document.querySelector({json.dumps(selector)}).getBoundingClientRect().height")
    inner = frame.evaluate("Math.ceil(document.body.getBoundingClientRect().height)")
    assert abs(outer - inner) <= 2 + inner * 0.01, (outer, inner)


def speaks(frame, tag: str) -> None:
    """The view is in the language `tag`: its document says so and its footer reads as the catalog has it."""
    assert frame.evaluate("document.documentElement.lang") == tag
    said = i18n.catalog(i18n.supported(tag) or tag).gettext("Open in Long Cards")
    assert said != "Open in Long Cards"
    assert frame.locator("footer.embed-foot a").inner_text().strip() == said


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("view,tag", [("replay", "vi"), ("hand", "zh-Hant"), ("drill", "uk")])
def test_a_listed_site_frames_each_view_by_iframe_and_by_script_in_its_readers_language(
        browser, request, server, listed, share, view, tag, width):
    from tests.support.browser import ARTIFACTS, checked_page

    path, (attribute, value), drawn = VIEWS[view](share)
    sep = "&" if "?" in path else "?"
    body = (f'<iframe id="plain" src="{server}{path}{sep}lang={tag}" width="100%" title="{view}"></iframe>'
            f'<div id="scripted" {attribute}="{value}" data-lang="{tag}"></div>'
            f'<script src="{server}/embed/longcards.js" async></script>')
    url = listed.page(f"/{view}-{tag}-{width}", server, body)
    for page in checked_page(browser, request, width, 740):
        page.goto(url)
        plain = frame_of(page, f"{path.split('?')[0]}{sep}lang={tag}" if "?" not in path else f"lang={tag}")
        plain.locator(drawn).first.wait_for(state="attached")
        speaks(plain, tag)
        fits(page, plain, "#plain")
        scripted = page.locator("#scripted iframe")
        scripted.wait_for(state="attached")
        inner = next(f for f in page.frames if f is not plain and f.url.startswith(server))
        inner.locator(drawn).first.wait_for(state="attached")
        speaks(inner, tag)
        fits(page, inner, "#scripted iframe")
        assert page.evaluate("window.__messages.every((m) => m.type !== 'longcards:verdict')")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for how, frame_selector in (("iframe", "#plain"), ("script", "#scripted iframe")):
            page.locator(frame_selector).scroll_into_view_if_needed()
            page.locator(frame_selector).screenshot(path=str(ARTIFACTS / f"embed-{view}-{tag}-{width}-{how}.png"))


def test_a_drill_posts_its_verdict_to_the_host_page(browser, request, server, listed):
    from tests.support.browser import checked_page

    body = (f'<div id="scripted" data-longcards-drill="{DRILL}" data-lang="pt"></div>'
            f'<script src="{server}/embed/longcards.js" async></script>')
    url = listed.page("/drill-verdict", server, body)
    for page in checked_page(browser, request, 1280, 900):
        page.goto(url)
        frame = frame_of(page, "/embed/drill")
        frame.locator("#choices button, #hand button").first.wait_for(state="attached")
        frame.locator("#choices button, #hand button").first.click()
        page.wait_for_function("window.__verdicts.length === 1")
        verdict = page.evaluate("window.__verdicts[0]")
        assert verdict["type"] == "longcards:verdict" and verdict["source"] == "longcards"
        assert {"ruleset", "seed", "answer", "best", "correct", "loss"} <= verdict.keys()
        assert verdict["ruleset"] == "cardavia-chan" and verdict["seed"] == 7
        assert isinstance(verdict["correct"], bool) and verdict["loss"] >= 0
        assert verdict["correct"] == (verdict["loss"] == 0)


@pytest.mark.parametrize("view", ["replay", "hand", "drill"])
def test_a_site_not_listed_is_refused_by_the_browser(browser, request, server, unlisted, share, view):
    from tests.support.browser import checked_page

    path, (attribute, value), drawn = VIEWS[view](share)
    body = (f'<iframe id="plain" src="{server}{path}" title="{view}"></iframe>'
            f'<div id="scripted" {attribute}="{value}"></div>'
            f'<script src="{server}/embed/longcards.js" async></script>')
    url = unlisted.page(f"/{view}", server, body)
    for page in checked_page(browser, request, 1280, 900):
        page.console.expect_csp("frame-ancestors")
        page.goto(url)
        page.locator("#scripted iframe").wait_for(state="attached")
        page.wait_for_timeout(1500)
        for frame in page.frames[1:]:
            assert frame.url.startswith("chrome-error://") or frame.locator(drawn).count() == 0, frame.url
        assert page.evaluate("window.__messages") == []  # nothing posted, no height: the views never ran
        assert any("frame-ancestors" in e for e in page.console.errors), page.console.errors
