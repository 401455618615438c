"""The system's Chromium (never a downloaded browser) for the page tests, and pages that collect their console
errors, uncaught exceptions and Content-Security-Policy violations. A CSP violation fails the test whatever it
expects: the pages must run under their policy as served."""

from __future__ import annotations

import os
import re
import shutil

import pytest

from tests.support.processes import ROOT

ARTIFACTS = ROOT / ".artifacts" / "screenshots"
#: Every page reports each Content-Security-Policy violation on its console as an error starting with this (Chromium
#: logs its own "Refused to ..." line too; this one names the directive and what was blocked).
CSP_VIOLATION = "CSP violation"
REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (event) => console.error(
  `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || "inline"} in ${event.documentURI}`));"""
CSP_ERROR = re.compile(rf"{CSP_VIOLATION}|Content Security Policy")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str:
    """The system's Chromium; fails the test run loudly when there is none."""
    for candidate in (os.environ.get("LONGCARDS_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.fail("the browser tests need Chromium: `apt-get install -y chromium` (scripts/test does it when it can), "
                "or set LONGCARDS_CHROMIUM to its path", pytrace=False)


class Console:
    """What a page said on its console: errors and uncaught exceptions, minus those a test expects."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.expected: list[re.Pattern] = []
        self.expected_csp: list[re.Pattern] = []

    def expect(self, pattern: str) -> None:
        """Allow console errors matching `pattern` (an API error answer the test provokes on purpose); never a CSP
        violation: use `expect_csp` for one a test provokes."""
        self.expected.append(re.compile(pattern))

    def expect_csp(self, pattern: str) -> None:
        """Allow the CSP violations matching `pattern` (one a test provokes on purpose)."""
        self.expected_csp.append(re.compile(pattern))

    def csp_violations(self) -> list[str]:
        """The console's CSP errors."""
        return [e for e in self.errors if CSP_ERROR.search(e)]

    def allowed(self, error: str) -> bool:
        """A CSP violation only when `expect_csp` named it; any other error when `expect` did."""
        if CSP_ERROR.search(error):
            return any(p.search(error) for p in self.expected_csp)
        return any(p.search(error) for p in self.expected)

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not self.allowed(e)]


def open_page(browser, width: int, height: int = 900):
    """A fresh page of the given size whose console errors are collected."""
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    context.set_default_timeout(20_000)
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.new_page()
    console = Console()
    page.on("console", lambda message: message.type == "error" and console.errors.append(message.text))
    page.on("pageerror", lambda error: console.errors.append(f"uncaught: {error}"))
    return context, page, console


def checked_page(browser, request, width: int, height: int = 900):
    """A page of the given size for one test; screenshot to ARTIFACTS and console check at the end."""
    context, page, console = open_page(browser, width, height)
    page.console = console
    try:
        yield page
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
        assert console.unexpected() == [], f"console errors: {console.unexpected()}"
    finally:
        context.close()


def serious(page, ran: frozenset[str] = frozenset({"color-contrast", "label", "button-name", "aria-allowed-attr"})
            ) -> list[str]:
    """The serious and critical findings of axe-core on the page as it is; the audit must have run the rules `ran`
    (a page without a field has no `label` to check)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    checked = {rule["id"] for rule in results.response["passes"] + results.response["violations"]}
    assert ran <= checked, checked  # the audit ran
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:5]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
