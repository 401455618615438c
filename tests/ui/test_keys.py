"""The pages when the service asks for API keys: they open without one, say that a key is needed, and work once
the key is entered (it goes out as `Authorization: Bearer`). The key is kept for the tab (session storage) and in
the browser for good (local storage, which every script of the site can read) only when "remember" is ticked."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from service.http.auth import entry
from tests.support.browser import CSP_ERROR
from tests.support.ports import free_port
from tests.support.processes import ROOT, wait_for
from tests.support.redis import flushed_redis, test_redis_url
from tests.support.web import answers

pytestmark = pytest.mark.slow  # a real browser against a gunicorn of its own

KEY = "ui-browser-key-0123456789abcdef"


@pytest.fixture(scope="module")
def keyed_server(tmp_path_factory) -> Iterator[str]:
    """gunicorn serving the app with one API key on a free loopback port (no jobs needed here)."""
    url = test_redis_url(11)
    bind = f"127.0.0.1:{free_port()}"
    log = tmp_path_factory.mktemp("keyed") / "gunicorn.log"
    environ = {**os.environ, "REDIS_URL": url, "LONGCARDS_API_KEYS": entry("ui", KEY)}
    with flushed_redis(url), log.open("wb") as out:
        command = [sys.executable, "-m", "gunicorn", "-w", "1", "-b", bind, "service.app:create_app()"]
        process = subprocess.Popen(command, cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_for(lambda: answers(f"http://{bind}/healthz") or process.poll() is not None, 60, "gunicorn", 0.2)
            assert process.poll() is None, log.read_text()[-2000:]
            yield f"http://{bind}"
        finally:
            process.terminate()
            process.wait(timeout=30)


def test_the_lab_asks_for_a_key_and_works_with_it(page, keyed_server):
    page.console.expect(r"status of 401")  # the browser logs the answer without a key
    page.goto(f"{keyed_server}/ui?ruleset=bga-taiwan&hand=rG,rA,rE")
    expect(page.locator("#page-error")).to_contain_text("missing_api_key")
    expect(page.locator("#api-key")).to_be_focused()
    page.fill("#api-key", KEY)
    page.press("#api-key", "Tab")
    expect(page.locator("#page-error")).to_be_hidden()
    expect(page.locator("#melds-panel")).to_contain_text("command")
    # the key is kept in this tab: the replay viewer uses it at once
    page.goto(f"{keyed_server}/ui/replay")
    expect(page.locator("#sim-ruleset option")).not_to_have_count(0)
    expect(page.locator("#page-error")).to_be_hidden()


STORED = "() => [sessionStorage.getItem('longcards.apiKey'), localStorage.getItem('longcards.apiKey')]"


def enter_key(page, server: str, remember: bool) -> None:
    """Open the lab without a key, enter it (ticking "remember" first, if asked), and see the lab work."""
    page.goto(f"{server}/ui?ruleset=bga-taiwan&hand=rG,rA,rE")
    expect(page.locator("#page-error")).to_contain_text("missing_api_key")
    if remember:
        page.check("#remember-key")
    page.fill("#api-key", KEY)
    page.press("#api-key", "Tab")
    expect(page.locator("#melds-panel")).to_contain_text("command")


def another_tab(page, server: str):
    """The lab in a new tab of the same browser, its console errors collected. Without a key its calls get 401
    (the rule-sets may come from the browser's cache, so the lab's panels say so, not always the page's top)."""
    tab = page.context.new_page()
    errors: list[str] = []
    tab.on("console", lambda message: message.type == "error" and errors.append(message.text))
    tab.goto(f"{server}/ui?ruleset=bga-taiwan&hand=rG,rA,rE")
    return tab, errors


def test_a_key_is_kept_for_the_tab_only_unless_remembered(page, keyed_server):
    page.console.expect(r"status of 401")
    enter_key(page, keyed_server, remember=False)
    assert page.evaluate(STORED) == [KEY, None]  # never in local storage
    assert not page.is_checked("#remember-key")
    page.reload()  # the same tab keeps it
    expect(page.locator("#melds-panel")).to_contain_text("command")
    expect(page.locator("#api-key")).to_have_value(KEY)
    tab, errors = another_tab(page, keyed_server)
    expect(tab.locator("#main")).to_contain_text("missing_api_key")
    expect(tab.locator("#api-key")).to_have_value("")
    assert tab.evaluate(STORED) == [None, None]
    assert errors and all("status of 401" in e and not CSP_ERROR.search(e) for e in errors), errors
    tab.close()


def test_a_remembered_key_is_kept_in_the_browser_until_unticked(page, keyed_server):
    page.console.expect(r"status of 401")
    enter_key(page, keyed_server, remember=True)
    assert page.evaluate(STORED) == [KEY, KEY]
    tab, errors = another_tab(page, keyed_server)  # a new tab finds it and works at once
    expect(tab.locator("#melds-panel")).to_contain_text("command")
    expect(tab.locator("#api-key")).to_have_value(KEY)
    assert tab.is_checked("#remember-key") and errors == []
    tab.close()
    page.uncheck("#remember-key")  # forgotten at once, still kept for this tab
    assert page.evaluate(STORED) == [KEY, None]
    tab, errors = another_tab(page, keyed_server)
    expect(tab.locator("#main")).to_contain_text("missing_api_key")
    expect(tab.locator("#api-key")).to_have_value("")
    tab.close()
