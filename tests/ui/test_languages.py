"""The language switch in the pages' header: six languages by their own names; the choice goes into the page
(`<html lang>`, the header's texts, the scripts' catalog), is kept (a cookie the server reads, and this browser's
storage) across reloads and pages, and the page asks the API for answers in it (`Accept-Language`)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

NAMES = ["English", "Tiếng Việt", "繁體中文", "Italiano", "Português", "Українська"]


def test_the_lab_switches_to_vietnamese_and_keeps_it(page, server):
    page.goto(f"{server}/ui")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    switch = page.locator("header details.lang")
    switch.locator("summary").click()
    expect(switch.locator(".lang-list a")).to_have_text(NAMES)
    with page.expect_navigation():
        switch.get_by_role("link", name="Tiếng Việt").click()
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    expect(page.locator("header nav a[aria-current=page]")).to_have_text("Phòng thử bài")
    expect(page.locator("header details.key summary")).to_have_text("Khóa API")
    assert page.evaluate("localStorage.getItem('longcards.lang')") == "vi"
    # a reload, even of the address without `?lang=`, opens in Vietnamese; the page's API calls ask for it
    page.goto(f"{server}/ui")
    with page.expect_request(lambda r: "/v1/" in r.url) as call:
        page.reload()
    assert call.value.headers.get("accept-language") == "vi"
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    expect(page.locator("header details.lang summary")).to_contain_text("Tiếng Việt")
    # and so does the next page
    page.get_by_role("link", name="Xem lại ván").click()
    expect(page).to_have_url(re.compile(r"/ui/replay$"))  # the click's navigation has happened
    expect(page.locator("html")).to_have_attribute("lang", "vi")


def test_the_switch_works_from_the_keyboard_and_keeps_the_address(page, server):
    """Tab to the switch, open it, pick a language: the page's own query survives the change."""
    page.goto(f"{server}/ui/replay?lang=en#state")
    summary = page.locator("header details.lang summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator("header details.lang")).to_have_attribute("open", "")
    link = page.locator("header .lang-list a[data-lang='zh-Hant']")
    expect(link).to_have_attribute("href", "/ui/replay?lang=zh-Hant#state")
    link.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    expect(page.locator("header nav a[aria-current=page]")).to_have_text("牌局重播")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
