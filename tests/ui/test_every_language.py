"""Every page in every language, on a phone (375 px) and a desktop (1280 px): the page says its language, its
texts come from that language's catalogs (no English text of a translated message is left on screen), nothing
pushes it sideways, and axe-core finds no serious or critical accessibility violation. A screenshot of each is
kept in `.artifacts/screenshots/`."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from babel.messages.pofile import read_po
from playwright.sync_api import expect

from service import i18n
from tests.support.browser import ARTIFACTS

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

#: The pages and what shows that each has drawn itself.
PAGES = {
    "/ui": "#palette button.card",
    "/ui/replay": "#sim-ruleset option",
    "/ui/drill": "main button",
    "/docs/rules": ".toc a",
}
LANGUAGES = list(i18n.LANGUAGES)
#: A translated message whose English text is this short may also be a word of a card or a code on screen.
SHORTEST = 12


def translated(lang: str) -> set[str]:
    """English texts of the messages `lang` translates differently (both domains), long enough to be unmistakable,
    and without placeholders (which the page fills); none for English, the messages' own language."""
    texts: set[str] = set()
    if lang == i18n.DEFAULT:
        return texts
    for domain in i18n.DOMAINS:
        with open(i18n.TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as source:
            for message in read_po(source):
                if (isinstance(message.id, str) and message.id and isinstance(message.string, str)
                        and message.string and message.id not in message.string and len(message.id) >= SHORTEST
                        and not re.search(r"[{%]", message.id)):
                    texts.add(message.id)
    return texts


#: The page's visible text in its own language: parts marked as another language (the rules document, which is
#: in English) are hidden while the text is read.
OWN_TEXT = """() => {
  const others = [...document.body.querySelectorAll("[lang]")].filter((e) => e.lang !== document.documentElement.lang
                                                                        && !e.hidden);
  others.forEach((e) => { e.hidden = true; });
  const text = document.body.innerText;
  others.forEach((e) => { e.hidden = false; });
  return text;
}"""


def visible_lines(page) -> set[str]:
    """The page's visible text in its own language, line by line (a message shown whole is a line, or part of
    one)."""
    return {line.strip() for line in page.evaluate(OWN_TEXT).splitlines() if line.strip()}


@pytest.mark.parametrize("size", ["phone", "page"])
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", list(PAGES))
def test_the_page_in_each_language(request, server, path, lang, size):
    page = request.getfixturevalue(size)
    page.goto(f"{server}{path}?lang={i18n.tag(lang)}")
    expect(page.locator(PAGES[path]).first).to_be_attached()
    page.wait_for_load_state("networkidle")
    expect(page.locator("html")).to_have_attribute("lang", i18n.tag(lang))

    # the texts are the language's: no English text of a message it translates is on screen
    lines = visible_lines(page)
    left = sorted(text for text in translated(lang) if any(text in line for line in lines))
    assert left == [], f"English left on {path} in {lang}: {left[:10]}"

    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page is wider than the screen"

    results = Axe().run(page)
    grave = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]
             if v["impact"] in ("serious", "critical")]
    assert grave == [], grave
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lang-{path.strip('/').replace('/', '-')}-{lang}-{width}.png"))
