"""The rules in every language of the pages: each language has its rules document (docs/rules.<tag>.md), written for
its players, holding every anchor of the English at the same place, the same headings, tables and codes, so that
every rule link of the pages and the API (`docs/rules.md#fc-claims`) lands on the same rule in every language; the
rules page (`/docs/rules`) shows the reader's."""

from __future__ import annotations

import re

import pytest

from service import i18n
from service.ui import rules_doc
from tests.support.rules_citations import RULES_DOC, anchors

ENGLISH = RULES_DOC.read_text(encoding="utf-8")
LANGUAGES = [code for code in i18n.LANGUAGES if code != "en"]


def document(language: str) -> str:
    return RULES_DOC.with_name(f"rules.{i18n.tag(language)}.md").read_text(encoding="utf-8")


def explicit_anchors(text: str) -> list[str]:
    return re.findall(r'<a id="([A-Za-z0-9_-]+)"></a>', text)


#: A developer block (service/ui/rules_doc.py): what the service names things and how a client sends them.
DEV_BLOCK = re.compile(r'^<details class="dev"><summary>([^<>]+)</summary>\n.*?^</details>$', re.M | re.S)
#: A code only a developer needs: an identifier (`snake_case`), a rule-set id, an API or document path, an HTTP
#: method or status.
DEVELOPERS_CODE = re.compile(
    r"`[^`]*(?:[a-z0-9]_[a-z0-9]|bga-taiwan|cardavia-|/v1/|\.md|GET |POST |\b[45]\d\d\b)[^`]*`")


def skeleton(text: str) -> list[str]:
    """The anchors and the developer blocks, in order: each block between the same two rules as in the English."""
    return [found.group(1) or "developers" for found in
            re.finditer(r'<a id="([A-Za-z0-9_-]+)"></a>|^<details class="dev">', text, re.M)]


def headings(text: str) -> list[tuple[int, str]]:
    """Each heading's level and its number (`1.2`, `2.6`; '' for an unnumbered one)."""
    return [(len(level), re.match(r"[\d.]*", title).group(0).rstrip("."))
            for level, title in re.findall(r"^(#{1,6}) (.*)$", text, re.M)]


def table_shapes(text: str) -> list[int]:
    """The number of cells of every table line, in order."""
    return [line.count("|") for line in text.splitlines() if line.startswith("|")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_its_rules_document_beside_the_page(language):
    found = rules_doc.source(language)
    assert found.name == f"rules.{i18n.tag(language)}.md" and found.exists()
    assert found.read_text(encoding="utf-8") == document(language)
    assert rules_doc.language_of(language) == language


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_translation_keeps_every_anchor_heading_table_and_code_of_the_english(language):
    text = document(language)
    assert explicit_anchors(text) == explicit_anchors(ENGLISH)  # every rule, in the same order
    assert skeleton(text) == skeleton(ENGLISH)  # the developer blocks at the same places
    assert headings(text) == headings(ENGLISH)  # the same sections, numbered alike
    assert table_shapes(text) == table_shapes(ENGLISH)  # the same tables, row for row
    missing = set(re.findall(r"`[^`]+`", ENGLISH)) - set(re.findall(r"`[^`]+`", text))
    assert not missing, sorted(missing)[:10]  # card codes, ids and option names stay codes
    links = set(re.findall(r"\]\(#([A-Za-z0-9_-]+)\)", text))  # in-page links land on a rule of this document
    assert links and links <= set(explicit_anchors(text)) == anchors(), links - set(explicit_anchors(text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_page_speaks_the_readers_language_with_every_anchor(client, language):
    answer = client.get(f"/docs/rules?lang={i18n.tag(language)}")
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    tag = i18n.tag(language)
    assert f'<article class="rules-doc box" lang="{tag}">' in html
    first = re.search(r"^## (.+)$", document(language), re.M).group(1).replace("`", "")
    english = re.search(r"^## (.+)$", ENGLISH, re.M).group(1).replace("`", "")
    assert first in html and (first == english or english not in html)
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    assert set(explicit_anchors(ENGLISH)) <= ids  # `/docs/rules#fc-claims` lands on the rule in every language


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_a_players_text_names_things_and_leaves_the_codes_to_the_developer_blocks(language):
    text = ENGLISH if language == "en" else document(language)
    outside = DEV_BLOCK.sub("", text)
    assert "<details" not in outside and "</details>" not in outside  # every block is whole
    assert DEVELOPERS_CODE.findall(outside) == []  # card codes may stay, beside the card's name
    summaries = set(DEV_BLOCK.findall(text))
    assert len(summaries) == 1, summaries  # one name for the blocks, in the document's language
    assert (summaries == {"For developers"}) == (language == "en")
