"""The pages on a phone (375 px) as a player sees them: plots with readable labels and seats counted from 1, tables
and count badges that cover nothing, the ranked discards a few at a time, the header's checkbox beside its words,
choices shown whole; and share links that carry the state, never the sharer's language."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from service.api.examples import AUDIT_LOG
from tests.support.pages import open_lab, open_viewer, simulate_in_viewer

pytestmark = pytest.mark.slow  # a real browser against `python -m service serve`

DEALER = "?ruleset=bga-taiwan&seats=3&seat=1&hand=" + ",".join(AUDIT_LOG["hands"][1])  # 21 cards: a discard


def in_language(page, server: str, lang: str) -> None:
    """The reader chose `lang` in the language switch before (its cookie)."""
    page.context.add_cookies([{"name": "longcards_lang", "value": lang, "url": server}])


def analysed(page, server: str, seed: int = 5, rounds: int = 1) -> None:
    open_viewer(page, server)
    simulate_in_viewer(page, seed=seed, rounds=rounds)
    expect(page.locator("#events li").nth(1)).to_be_attached()
    page.click("#analyse")
    expect(page.locator("#analysis svg.plot rect.bar").first).to_be_attached(timeout=90_000)


# the size a text is drawn at on the screen: its font size times the drawing's scale
DRAWN_SIZES = """svg => [...svg.querySelectorAll('text')].map(t =>
  parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"""


def test_a_plots_labels_are_readable_on_a_phone(phone, server):
    analysed(phone, server)
    plots = phone.locator("#analysis svg.plot")
    expect(plots).to_have_count(2)
    for k in range(2):
        plot = plots.nth(k)
        plot.scroll_into_view_if_needed()
        sizes = plot.evaluate(DRAWN_SIZES)
        assert sizes and min(sizes) >= 11, sizes
        box = plot.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375


@pytest.mark.parametrize("size", ["page", "phone"])
def test_bars_and_their_legend_count_seats_from_1(request, server, size):
    page = request.getfixturevalue(size)
    analysed(page, server, seed=5, rounds=1)
    analysis = page.locator("#analysis")
    text = analysis.inner_text()
    assert not re.search(r"(?<!\w)S\d(?!\w)", text), text
    legend = analysis.locator(".legend").last
    expect(legend).to_contain_text("seat 1 (bars marked ①)")
    expect(legend).to_contain_text("seat 3 (bars marked ③)")
    titles = analysis.locator("svg.plot rect.bar title").all_text_contents()
    seats = {int(found) for title in titles for found in re.findall(r"seat (\d+)", title)}
    assert seats and seats <= {1, 2, 3}, titles
    marks = analysis.locator("svg.plot .seat-mark text").all_text_contents()
    assert set(marks) <= {"1", "2", "3"}, marks
    if size == "page":  # a wide screen leaves room for the marks; a phone tells the bars apart by colour
        assert marks, "no seat marks on the bars"


def test_the_search_table_is_whole_on_a_phone(phone, server):
    open_lab(phone, server, DEALER)
    phone.fill("#samples", "200")
    phone.fill("#budget", "2")
    phone.click("#search")
    table = phone.locator("#search-panel table.search-table")
    expect(table).to_be_attached(timeout=60_000)
    box = phone.locator("#search-panel .scroll")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth + 1"), "the search table scrolls out of sight"
    right = box.evaluate("b => b.getBoundingClientRect().right")
    cells = table.locator("tbody td").evaluate_all("cells => cells.map(c => c.getBoundingClientRect().right)")
    assert cells and max(cells) <= right + 1, (max(cells), right)
    # each value is named by its column's heading
    expect(table.locator("tbody tr").first.locator("td").nth(2)).to_have_attribute("data-label", re.compile("win"))


# the deck's count badges, each with the cards its box overlaps (its own card aside)
COVERED = """() => { const cards = [...document.querySelectorAll('#palette .card')]; const found = [];
  for (const card of cards) { const badge = card.querySelector('.badge'); if (!badge || !badge.textContent) continue;
    const b = badge.getBoundingClientRect();
    for (const other of cards) { if (other === card) continue; const o = other.getBoundingClientRect();
      if (b.left < o.right - 0.5 && b.right > o.left + 0.5 && b.top < o.bottom - 0.5 && b.bottom > o.top + 0.5)
        found.push(`${card.dataset.code} covers ${other.dataset.code}`); } }
  return found; }"""


@pytest.mark.parametrize("size", ["page", "phone"])
def test_a_decks_count_badges_cover_no_other_card(request, server, size):
    page = request.getfixturevalue(size)
    open_lab(page, server, DEALER)
    expect(page.locator("#palette .card .badge").filter(has_text="×").first).to_be_visible()
    assert page.evaluate(COVERED) == []


@pytest.mark.parametrize("size", ["page", "phone"])
def test_the_ranked_discards_show_the_first_five_and_the_rest_on_demand(request, server, size):
    page = request.getfixturevalue(size)
    open_lab(page, server, DEALER)
    rows = page.locator("#discards-panel table.ranked tbody tr")
    expect(rows.first).to_be_visible()
    total = rows.count()
    assert total > 5
    expect(rows.locator("visible=true")).to_have_count(5)
    expect(rows.first.locator("td").first).to_have_text("1")
    more = page.locator("#discards-panel button.show-all")
    expect(more).to_have_text(f"Show all {total}")
    expect(more).to_have_attribute("aria-expanded", "false")
    short = page.evaluate("document.documentElement.scrollHeight")
    more.click()
    expect(rows.locator("visible=true")).to_have_count(total)
    expect(more).to_have_text("Show the first 5")
    assert page.evaluate("document.documentElement.scrollHeight") > short
    more.click()
    expect(rows.locator("visible=true")).to_have_count(5)
    if size == "phone":
        assert short < 4500, short  # the lab with its answers, not a list of every discard


def test_the_show_all_button_speaks_the_readers_language(phone, server):
    in_language(phone, server, "vi")
    open_lab(phone, server, DEALER)
    more = phone.locator("#discards-panel button.show-all")
    expect(more).to_have_text(re.compile(r"^Xem cả \d+ lá$"))


# the checkbox and the first line of its words: [checkbox box, first line box]
CHECK_AND_WORDS = """label => { const box = label.querySelector('input').getBoundingClientRect();
  const range = document.createRange(); range.selectNodeContents(label.querySelector('span'));
  const line = range.getClientRects()[0]; return [[box.left, box.top, box.right, box.bottom],
  [line.left, line.top, line.right, line.bottom]]; }"""


@pytest.mark.parametrize("lang", ["uk", "vi", "zh-Hant", "en"])
def test_the_remember_checkbox_stays_on_the_line_of_its_words(phone, server, lang):
    in_language(phone, server, lang)
    phone.goto(f"{server}/ui/replay")
    phone.locator("header details.key summary").click()
    label = phone.locator("#remember-key").locator("xpath=..")
    expect(label).to_be_visible()
    (left, top, right, bottom), (line_left, line_top, line_right, line_bottom) = label.evaluate(CHECK_AND_WORDS)
    assert right <= line_left, "the checkbox is not before its words"
    assert top < line_bottom and bottom > line_top, "the checkbox is not on the first line of its words"
    assert line_right <= 375


# each shown select: [id, chosen text, its width in the select's font, the select's inner width and height, line]
SELECTS = """() => [...document.querySelectorAll('select')].filter(s => s.offsetParent && s.selectedIndex >= 0)
  .map(s => { const style = getComputedStyle(s); const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = style.font; const text = s.options[s.selectedIndex].text;
    return [s.id, text, ctx.measureText(text).width, s.clientWidth, s.clientHeight, parseFloat(style.fontSize)]; })"""


def shown_whole(page) -> list:
    """The selects whose chosen option is cut: wider than the select, and not wrapped onto as many lines."""
    cut = []
    for ident, text, width, inner, height, font in page.evaluate(SELECTS):
        room = inner - 26  # the padding and the arrow
        lines = -(-int(width) // int(room))
        if lines > 1 and height < lines * font * 1.1:
            cut.append((ident, text, round(width), inner, height))
    return cut


@pytest.mark.parametrize("lang", ["uk", "vi", "zh-Hant", "en"])
def test_a_select_shows_its_chosen_option_whole_on_a_phone(phone, server, lang):
    in_language(phone, server, lang)
    open_lab(phone, server, DEALER)
    phone.locator("#options-box").evaluate("box => { box.open = true; }")
    assert shown_whole(phone) == []
    open_viewer(phone, server)
    assert shown_whole(phone) == []
    phone.goto(f"{server}/ui/drill")
    expect(phone.locator("#ruleset option").first).to_be_attached()
    assert shown_whole(phone) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375


# -- share links -----------------------------------------------------------------------------------------------

def copied_link(page) -> str:
    """Click the page's "copy link" and answer what it put on the clipboard."""
    page.evaluate("navigator.clipboard.writeText = async (text) => { window.copiedLink = text; }")
    page.click("#copy-link")
    page.wait_for_function("window.copiedLink !== undefined")
    return page.evaluate("window.copiedLink")


def test_share_links_carry_the_state_and_never_the_language(page, server):
    # the sharer reads the pages in Vietnamese, having come by an address with `?lang=`
    in_language(page, server, "vi")
    open_lab(page, server, DEALER + "&lang=vi")
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    link = copied_link(page)
    assert "lang=" not in link and "hand=" in link, link

    page.goto(f"{server}/ui/drill?lang=vi")
    expect(page.locator("button.choice").first).to_be_visible(timeout=30_000)
    link = copied_link(page)
    assert "lang=" not in link and "/ui/drill?" in link and "seed=" in link, link

    page.goto(f"{server}/ui/replay?lang=vi")
    simulate_in_viewer(page, seed=3, rounds=1)
    expect(page.locator("#events li").nth(1)).to_be_attached()
    link = page.locator("#share-link").input_value()
    assert "lang=" not in link and "#ruleset=" in link, link


def test_a_shared_link_with_a_language_leaves_the_readers_choice(page, server):
    in_language(page, server, "uk")  # the reader chose Ukrainian
    page.goto(f"{server}/ui/replay?lang=vi#ruleset=bga-taiwan&seats=3&seed=3&policy=greedy&rounds=1")
    expect(page.locator("html")).to_have_attribute("lang", "vi")  # the link's page, in the link's language
    expect(page.locator("#events li").nth(1)).to_be_attached()
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies.get("longcards_lang") == "uk", cookies
    page.goto(f"{server}/ui")  # the next page: the reader's own language
    expect(page.locator("html")).to_have_attribute("lang", "uk")


def test_a_shared_link_with_a_language_sets_none_for_a_new_reader(page, server):
    page.goto(f"{server}/ui?lang=zh-Hant")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    assert "longcards_lang" not in {c["name"] for c in page.context.cookies()}
    page.goto(f"{server}/ui/replay")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_a_choice_in_the_language_menu_is_remembered_and_leaves_the_address(page, server):
    page.goto(f"{server}/ui{DEALER}")
    page.locator("header details.lang summary").click()
    with page.expect_navigation():
        page.locator("header .lang-list a[data-lang='vi']").click()
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    expect(page).not_to_have_url(re.compile(r"lang="))  # the address is the lab's, as a link shares it
    assert "hand=" in page.url
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies.get("longcards_lang") == "vi", cookies
    page.goto(f"{server}/ui/drill")
    expect(page.locator("html")).to_have_attribute("lang", "vi")
