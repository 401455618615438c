"""The pages and the API docs in a real browser under the security headers they are served with: each works with
no Content-Security-Policy violation (any one fails every browser test, tests/support/browser.py), an inline
script injected into a page does not run, and another site cannot frame a page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import CSP_VIOLATION
from tests.support.processes import wait_for

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

#: Each page and what shows that it works: its scripts ran and its calls to the API were answered.
PAGES = {
    "/ui": "#palette button.card",
    "/ui/replay": "#sim-ruleset option",
    "/ui/drill": "button.choice",
    "/docs/": ".opblock",
}


def served_headers(page, server: str, path: str) -> dict[str, str]:
    """The page's answer headers, as the browser got them, once the page has shown its content."""
    response = page.goto(f"{server}{path}")
    expect(page.locator(PAGES[path]).first).to_be_attached()
    return response.all_headers()


@pytest.mark.parametrize("path", list(PAGES))
def test_each_page_works_under_its_policy(page, server, path):
    headers = served_headers(page, server, path)
    policy = headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
    assert directives["default-src"] == "'none'" and directives["connect-src"] == "'self'"
    assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    if path == "/docs/":  # the spec was fetched and drawn; "Try it out" calls the API
        expect(page.locator(".opblock-summary-path").get_by_text("/v1/hu", exact=True)).to_have_count(1)
        operation = page.locator(".opblock").filter(has=page.get_by_text("/healthz", exact=True))
        operation.locator(".opblock-summary").first.click()
        operation.get_by_role("button", name="Try it out").click()
        operation.get_by_role("button", name="Execute").click()
        expect(operation.locator(".live-responses-table tr.response .response-col_status")).to_have_text("200")
    assert page.console.csp_violations() == []


def test_an_injected_inline_script_does_not_run(page, server):
    """What an injection into a page could add, a script element with inline code, is refused by the policy; the
    violation reaches the console (the check every browser test makes is not blind)."""
    page.console.expect_csp(r"script-src")
    served_headers(page, server, "/ui")
    with page.expect_console_message(lambda message: CSP_VIOLATION in message.text):
        page.evaluate("""() => { const s = document.createElement("script");
                                 s.textContent = "window.injected = true"; document.body.append(s); }""")
    assert page.evaluate("() => window.injected") is None
    assert any("script-src" in e for e in page.console.csp_violations())


def test_another_site_cannot_frame_a_page(page, server):
    """A page of another origin framing the hand lab gets Chromium's error page in the frame, never the lab
    (frame-ancestors 'none', X-Frame-Options: DENY)."""
    page.route("http://other.example/", lambda route: route.fulfill(
        content_type="text/html", body=f'<!doctype html><iframe src="{server}/ui" width="800" height="600"></iframe>'))
    page.goto("http://other.example/")
    expect(page.locator("iframe")).to_be_attached()
    wait_for(lambda: len(page.frames) == 2 and page.frames[1].url.startswith("chrome-error://"), 20,
             "the frame to be refused", 0.1)
    assert page.frames[1].locator("#palette").count() == 0
