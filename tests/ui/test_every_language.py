"""Every page in every language, driven to the states a player sees: the lab with a hand, its answers and its rule
options, and with a hand to discard from searched deeper; the replay viewer stepped through an analysed simulated
round of each family; a drill of each family after an answer; the rules; the lab refusing a hand. In each of the
six languages on a phone (375 px) the page says its language, shows no developer's word (`code_shaped`) and no card
code in prose but as the hint after the card's name, shows (when translated) no word the English page
shows too (outside codes, inputs and parts marked as another language) unless the language's own texts use that
word, nothing is wider than the screen or cut off inside its box, and axe-core finds no serious or critical
violation. One browser serves the whole matrix; the catalogs' completeness is checked without one
(tests/test_catalogs.py). A screenshot of each state is kept in `.artifacts/screenshots/`."""

from __future__ import annotations

import functools
import http
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from axe_playwright_python.sync_playwright import Axe
from babel.messages.pofile import read_po
from playwright.sync_api import expect

from service import i18n
from service.api.examples import AUDIT_LOG
from service.rules.registry import RULESETS
from service.ui import rules_doc
from tests.support.browser import ARTIFACTS, open_page

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

RULESET_IDS = [ruleset.id for ruleset in RULESETS]
HTTP_PHRASES = "|".join(re.escape(status.phrase) for status in http.HTTPStatus)
LANGUAGES = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]  # the translated ones
PHONE = (375, 740)

#: Between the visible text and the labels in what PLAYER_TEXT answers.
LABELS = "\u241e\u241e"
#: The text a player reads: the page's visible text, then (after LABELS) its tooltips, labels and placeholders;
#: without codes (`<code>`, `<kbd>`, `translate="no"`), what the player typed (inputs) and parts marked as another
#: language.
PLAYER_TEXT = """(roots) => {
  const lang = document.documentElement.lang;
  const parts = (roots || ["body"]).map((r) => document.querySelector(r));
  const codes = "code, kbd, samp, [translate=no], script, style, textarea";
  const foreign = (e) => { const marked = e.closest("[lang]"); return marked !== null && marked.lang !== lang; };
  const hide = parts.flatMap((p) => [...p.querySelectorAll(`${codes}, [lang]`)])
    .filter((e) => !e.matches("[lang]") || e.lang !== lang);
  const before = hide.map((e) => e.style.display);
  hide.forEach((e) => { e.style.display = "none"; });
  const text = [...parts.map((p) => p.innerText), "{labels}"];
  hide.forEach((e, i) => { e.style.display = before[i]; });
  // an element's own tooltip and label are for people, even on a code (a code's placeholder is an example code)
  for (const e of parts.flatMap((p) => [...p.querySelectorAll("[title], [aria-label], [placeholder], [alt]")])) {
    const around = e.parentElement;
    if (!around || around.closest(codes) || foreign(e) || !e.getClientRects().length && !e.closest("svg")) continue;
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      if (e.getAttribute(name) && !(name === "placeholder" && e.closest(codes))) text.push(e.getAttribute(name));
    }
  }
  return text.join("\\n");
}""".replace("{labels}", LABELS)

#: Elements wider than the screen (outside a box that scrolls sideways on purpose, a wide table's), elements
#: whose content is wider than their box and cut off (overflow hidden or clip; not an input's own text, not text
#: hidden for screen readers only (a 1 px box), not an ellipsis), and a stacked table's cell whose column heading
#: (common.js `stacked`) is taller than the cell, running into the next row.
CUT = """() => {
  const found = [];
  const width = window.innerWidth;
  const scrolls = (e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX);
  const inScroller = (e) => {
    for (let a = e.parentElement; a; a = a.parentElement) if (scrolls(a)) return true;
    return false;
  };
  for (const e of document.body.querySelectorAll("*")) {
    if (!e.getClientRects().length || e.matches("input, textarea, select, .visually-hidden, .visually-hidden *")) {
      continue;
    }
    const style = getComputedStyle(e);
    const box = e.getBoundingClientRect();
    const name = [e.tagName.toLowerCase(), e.id ? `#${e.id}` : "", ...[...e.classList].map((c) => `.${c}`)].join("");
    if (box.right > width + 1 && style.position !== "fixed" && !inScroller(e)) {
      found.push(`${name} ends at ${Math.round(box.right)}`);
    }
    if (["hidden", "clip"].includes(style.overflowX) && e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1
        && style.textOverflow !== "ellipsis") found.push(`${name} cuts ${e.scrollWidth - e.clientWidth} px`);
    if (e.matches("table.stack td[data-label]")) {
      const label = parseFloat(getComputedStyle(e, "::before").height);
      if (label > box.height + 1) found.push(`${name} "${e.dataset.label}": ${label} px in a ${box.height} px cell`);
    }
  }
  return found.slice(0, 10);
}"""

#: What a player reads on the page, codes included: its visible text but the cards' faces (pictures, each labelled
#: with the card's name) and the example of what a field for codes takes (`code.syntax`); a closed `<details>`, a
#: tooltip, a label is where a code may stay for the curious.
SHOWN_TEXT = """(roots) => {
  const parts = (roots || ["body"]).map((r) => document.querySelector(r));
  const hide = parts.flatMap((p) => [...p.querySelectorAll("svg, script, style, code.syntax")]);
  const before = hide.map((e) => e.style.display);
  hide.forEach((e) => { e.style.display = "none"; });
  const text = parts.map((p) => p.innerText).join("\\n");
  hide.forEach((e, i) => { e.style.display = before[i]; });
  return text;
}"""
#: A card code, or a run of them (spaced, or written together as a Chắn hand).
ONE_CARD = r"(?:[rygw][GAECHPS]|[2-9][msc]|CC|F[1-5])"
CARD_RUN = re.compile(rf"(?<![\w-]){ONE_CARD}(?: ?{ONE_CARD})*(?![\w-])")


def codes_outside_names(text: str) -> list[str]:
    """The card codes `text` shows in prose other than as the hint after a card's name ("red General (rG)"): a table
    cell holding only codes (a column of them beside the names) is no prose."""
    found = []
    for line in text.splitlines():
        for cell in line.split("\t"):
            if CARD_RUN.fullmatch(cell.strip()):
                continue
            for match in CARD_RUN.finditer(cell):
                hinted = cell[match.start() - 1:match.start()] in "(（" and cell[match.end():match.end() + 1] in ")）"
                if not hinted:
                    found.append(cell.strip()[:120])
    return found


def code_shaped(text: str) -> list[Seen]:
    """The developer's words in `text`: identifiers (`snake_case`), seat chips counted from 0 (`S0`), rule-set ids,
    document paths and anchors, API paths, and HTTP's status words. A player reads names, never codes."""
    ids = "|".join(re.escape(ruleset) for ruleset in sorted(RULESET_IDS, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w-])(?:[a-z0-9]+(?:_[a-z0-9]+)+|S\d|{ids})(?![\w-])|\S*\.md\b\S*|\S*docs/\S*"
                         r"|/v1/\S*|(?<!\w)(?:GET|POST|PUT|DELETE) /\S*|\S*problem\+json\S*|\bHTTP\b"
                         rf"|\b\d{{3}} (?:{HTTP_PHRASES})")
    return sorted({match.group(0) for match in pattern.finditer(text)})


WORD = re.compile(r"[^\W\d_]{2,}")
#: Card codes (docs/rules.md#fc-cards, #chan-cards), which labels name beside the card's words: codes, not words.
CARD_CODE = re.compile(r"(?<!\w)(?:[rygw][GAECHPS]|[2-9][msc]|CC|F[1-5])(?!\w)")


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(CARD_CODE.sub(" ", text))}


#: Words a language's players write as they are, though the English page shows them too: Chắn's cards, pairs and
#: sets, which every language of the pages names in Vietnamese (docs/rules.md#chan-cards), as the Nho script they
#: are printed in, "API", "Monte Carlo" and the names of the sites whose rules a rule-set follows (BGA, Cardavia);
#: in Italian, the table calls of the Italian rule text ("hu", "pong", "gan") and the loanwords "browser" and
#: "file".
LOANWORDS = {"*": {"chắn", "cạ", "chíu", "tôm", "lèo", "chi", "nhị", "tam", "tứ", "ngũ", "lục", "thất", "bát", "cửu",
                   "vạn", "sách", "văn", "nho", "api", "monte", "carlo", "bga", "cardavia"},
             "it": {"hu", "pong", "gan", "browser", "file"}}


def placeholders_out(text: str) -> str:
    """The text without what is no word of a language: placeholders, code, addresses, tags and anchors."""
    return re.sub(r"\{\w+\}|%\(\w+\)s|`[^`]*`|<[^>]*>|\S*docs/\S+|\S*/v1/\S+|#[\w-]+", " ", text or "")


@functools.cache
def own_words(lang: str) -> frozenset[str]:
    """The words the language's own texts use: its catalogs' translations, less the words a translation only copies
    from its English (a term left untranslated is no word of the language), its rules document outside code, and
    its loanwords. A word English shares with them (Italian "in", Portuguese "a") is theirs too."""
    found: set[str] = set(LOANWORDS["*"] | LOANWORDS.get(lang, set()))
    for domain in i18n.DOMAINS:
        with open(i18n.TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as source:
            for message in read_po(source):
                english = words(placeholders_out(" ".join(message.id) if isinstance(message.id, tuple)
                                                 else message.id))
                for text in (message.string if isinstance(message.string, tuple) else (message.string,)):
                    found |= words(placeholders_out(text)) - english
    found |= words(placeholders_out(rules_doc.source(i18n.tag(lang)).read_text(encoding="utf-8")))
    return frozenset(found)


@dataclass(frozen=True)
class Seen:
    """One state as a player reads it: the words (PLAYER_TEXT) and everything shown, codes too (SHOWN_TEXT)."""

    player: str
    shown: str


def read(page, roots: list[str] | None = None) -> Seen:
    return Seen(page.evaluate(PLAYER_TEXT, roots), page.evaluate(SHOWN_TEXT, roots))


def context_of(text: str, found: str, around: int = 60) -> str:
    at = text.find(found)
    return text[max(at - around, 0):at + len(found) + around]


def ready(page, selector: str) -> None:
    expect(page.locator(selector).first).to_be_attached()
    page.wait_for_load_state("networkidle")


# ------------------------------------------------------------------------------------------------------ the states
# Each drives a fresh page to one state (or a walk through several) and returns the player's text at each.

def lab(query: str, answered: str = "#claims-panel .body") -> Callable:
    """The lab with a hand, once `answered` shows (the claims panel's answer; a refusal's problem), its rule options
    open."""
    def drive(page, server: str) -> list[Seen]:
        page.goto(f"{server}/ui?{query}")
        ready(page, "#palette button.card")
        expect(page.locator(answered)).not_to_be_empty()
        page.locator("#options-box").evaluate("box => { box.open = true; }")
        page.wait_for_load_state("networkidle")
        return [read(page)]
    return drive


def lab_search(query: str) -> Callable:
    """The lab with a hand to discard from: its discards ranked, then a short deeper search run to its end."""
    def drive(page, server: str) -> list[Seen]:
        page.goto(f"{server}/ui?{query}")
        ready(page, "#palette button.card")
        expect(page.locator("#discards-panel table")).to_be_attached()
        page.fill("#samples", "200")
        page.fill("#budget", "2")
        page.click("#search")
        expect(page.locator("#search-panel table.search-table")).to_be_attached(timeout=60_000)
        page.wait_for_load_state("networkidle")
        return [read(page)]
    return drive


def viewer(ruleset: str, seats: int, seed: int) -> Callable:
    def drive(page, server: str) -> list[Seen]:
        page.goto(f"{server}/ui/replay")
        ready(page, "#sim-ruleset option")
        page.select_option("#sim-ruleset", ruleset)
        page.fill("#sim-seats", str(seats))
        page.fill("#sim-seed", str(seed))
        page.fill("#sim-rounds", "2")
        page.click("#simulate")
        expect(page.locator("#events li").nth(1)).to_be_attached()
        page.click("#analyse")
        expect(page.locator("#analysis svg").first).to_be_attached(timeout=60_000)
        texts = [read(page)]
        events = page.locator("#events li").count() - 1
        page.locator("#events").focus()
        for _ in range(events):
            page.keyboard.press("ArrowRight")
            texts.append(read(page, ["#now", "#table"]))  # what a step changes
        return texts
    return drive


def drill(query: str) -> Callable:
    def drive(page, server: str) -> list[Seen]:
        page.goto(f"{server}/ui/drill?{query}")
        ready(page, "button.choice")
        texts = [read(page)]
        page.locator("button.choice").nth(1).click()
        expect(page.locator("#verdict")).not_to_have_text("")
        texts.append(read(page))
        return texts
    return drive


def rules(page, server: str) -> list[Seen]:
    page.goto(f"{server}/docs/rules")
    ready(page, ".toc a")
    return [read(page)]


STATES: dict[str, Callable] = {
    # docs/rules.md#fc-melds: a six-point hand with the public card it claims; then a Chắn hand offered 9c
    "lab-fourcolor": lab("ruleset=bga-taiwan&seats=3&seat=0&hand=rG,rA,rE,yC,yC&exposed=triple:wS.wS.wS&public=yC"),
    # docs/rules.md#chan-win-stock: 9c completes the pairs, but a discarded 9c is no win for the next seat
    "lab-chan": lab("ruleset=cardavia-chan&seats=4&seat=1&from=0&source=discard&public=9c"
                    "&hand=2m,2m,3s,3s,4c,4c,6m,6m,7s,7s,2s,2c,4m,4s,5m,5s,6s,6c,9c"),
    # five copies of the yellow Chariot: a deck holds four (docs/rules.md#fc-cards)
    "lab-problem": lab("ruleset=bga-taiwan&seats=3&seat=0&hand=yC,yC,yC,yC,yC", "#hu-panel .problem"),
    # the dealer's 21 cards of the API's example log (service/api/examples.py): a discard to choose
    "lab-search": lab_search("ruleset=bga-taiwan&seats=3&seat=1&hand=" + ",".join(AUDIT_LOG["hands"][1])),
    "viewer-fourcolor": viewer("bga-taiwan", 3, 3),
    "viewer-chan": viewer("cardavia-chan", 4, 5),
    "drill-fourcolor": drill("ruleset=bga-taiwan&difficulty=medium&seed=4&n=0"),
    "drill-chan": drill("ruleset=cardavia-chan&difficulty=hard&kind=claim&seed=2&n=0"),
    "rules": rules,
}


#: The states whose request the service refuses on purpose.
REFUSED = {"lab-problem"}

#: The words each state shows in English, kept by the English case (or met on demand when another language's case
#: runs first), so each English state is driven once.
ENGLISH: dict[str, set[str]] = {}


def english_words(browser, server: str, state: str) -> set[str]:
    if state not in ENGLISH:
        context, page, _ = open_page(browser, *PHONE)
        try:
            page.context.add_cookies([{"name": "longcards_lang", "value": "en", "url": server}])
            ENGLISH[state] = words("\n".join(seen.player for seen in STATES[state](page, server)))
        finally:
            context.close()
    return ENGLISH[state]


@pytest.mark.parametrize("lang", [i18n.DEFAULT, *LANGUAGES])
@pytest.mark.parametrize("state", list(STATES))
def test_each_state_in_each_language(browser, server, state, lang):
    context, page, console = open_page(browser, *PHONE)
    try:
        page.context.add_cookies([{"name": "longcards_lang", "value": i18n.tag(lang), "url": server}])
        if state in REFUSED:
            console.expect(r"status of 422")  # the browser logs the refusal the state provokes
        seen = STATES[state](page, server)
        texts = [one.player for one in seen]
        page_texts = [one.shown for one in seen]
        expect(page.locator("html")).to_have_attribute("lang", i18n.tag(lang))

        codes = {text: code_shaped(text) for text in page_texts}
        assert not any(codes.values()), f"developer's words on {state} in {lang}: " + "; ".join(
            f"{found} in {context_of(text, found[0])!r}" for text, found in codes.items() if found)[:1500]
        prose = [line for text in page_texts for line in codes_outside_names(text)]
        assert prose == [], f"card codes in prose, not named, on {state} in {lang}: {prose[:5]}"
        shown = words("\n".join(texts))
        if lang == i18n.DEFAULT:
            ENGLISH[state] = shown  # the reference of the other languages
        else:
            english_left = sorted((shown & english_words(browser, server, state)) - own_words(lang))
            assert english_left == [], f"English words on {state} in {lang}: {english_left}"

        assert page.evaluate(CUT) == [], "something is wider than the screen or cut off"
        results = Axe().run(page)
        grave = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]
                 if v["impact"] in ("serious", "critical")]
        assert grave == [], grave
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"lang-{state}-{lang}-375.png"), full_page=True)
        assert console.unexpected() == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", [i18n.DEFAULT, "vi", "zh_Hant", "uk"])
@pytest.mark.parametrize("state", list(STATES))
def test_each_state_on_a_desktop(browser, server, state, lang):
    """Every state at 1280 px in English, Vietnamese, Chinese and Ukrainian (the longest words): no developer's
    word, no card code in prose but as a name's hint, nothing wider than the screen or cut off (a wide screen lays
    out other boxes: the lab's answers beside the cards, their "why" column wrapping inside its panel)."""
    context, page, console = open_page(browser, 1280, 900)
    try:
        page.context.add_cookies([{"name": "longcards_lang", "value": i18n.tag(lang), "url": server}])
        if state in REFUSED:
            console.expect(r"status of 422")
        shown = [one.shown for one in STATES[state](page, server)]
        assert [found for text in shown for found in code_shaped(text)] == [], f"developer's words on {state}"
        assert [line for text in shown for line in codes_outside_names(text)] == [], f"card codes in prose on {state}"
        assert page.evaluate(CUT) == [], "something is wider than the screen or cut off"
        if lang != i18n.DEFAULT:
            page.screenshot(path=str(ARTIFACTS / f"lang-{state}-{lang}-1280.png"), full_page=True)
        assert console.unexpected() == []
    finally:
        context.close()
