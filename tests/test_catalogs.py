"""The gettext catalogs against the code: every message the code holds now (Babel's extraction, both domains) is
translated in every language, none is stale (gone from the code, obsolete, fuzzy), every translation keeps its
message's placeholders, and every compiled `.mo` is the compile of its `.po`. `python -m service i18n update`,
then translating, then `python -m service i18n compile` makes this pass again (docs/ui.md#languages)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message

from service import catalogs
from service.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def templates() -> dict[str, Catalog]:
    """The messages the code holds now, per domain."""
    return {domain: catalogs.extract(domain) for domain in catalogs.DOMAINS}


def test_every_language_but_the_source_has_catalogs():
    assert catalogs.languages() == ["vi", "zh_Hant", "it", "pt", "uk"]
    assert set(LANGUAGES) == {"en", *catalogs.languages()}
    for lang in catalogs.languages():
        for domain in catalogs.DOMAINS:
            po = catalogs.po_path(lang, domain)
            assert po.exists() and po.with_suffix(".mo").exists()


def test_the_catalogs_hold_every_message_and_no_stale_one():
    """The whole check `python -m service i18n check` runs: missing, untranslated, stale, fuzzy, placeholders, .mo."""
    assert catalogs.problems() == []


@pytest.mark.parametrize("domain", catalogs.DOMAINS)
def test_extraction_finds_the_texts_of_both_domains(templates, domain):
    """Known messages of each source kind are extracted: the engine's, the API's, the templates', the scripts'."""
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in templates[domain] if m.id}
    expected = {"messages": {"unable to win", "is required", "Hand lab", "When:", "{n} replacement from waiting",
                             "No resource at this path."},
                "pages": {"Network error", "for developers"}}[domain]
    assert expected <= ids


@pytest.mark.slow  # over 2 s on 2 cores
def test_every_marked_call_in_the_python_code_is_extracted(templates):
    """Babel's tokenizer can lose its way (a variable named like a marker, subscripted): every `_()`, `N_()`,
    `text()`, `ntext()` call with a literal message, found by the Python parser, is in the extraction."""
    found = set()
    for path in (ROOT / "service").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in catalogs.KEYWORDS["messages"] and node.args and \
                    isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in templates["messages"] if m.id}
    assert found and found <= extracted, sorted(found - extracted)


#: A `t("...")` or `tn("...", ...)` call of the pages' scripts with a literal message (double-quoted, as they are
#: written); comments are dropped first.
JS_CALL = re.compile(r'(?<![\w.])tn?\(\s*"((?:[^"\\]|\\.)*)"')
JS_COMMENT = re.compile(r"^\s*//[^\n]*$|/\*.*?\*/", re.M | re.S)


def test_every_marked_call_in_the_page_scripts_is_extracted(templates):
    """Babel's JavaScript tokenizer stopped finding `t()` after a template literal: every literal `t("...")` and
    `tn("...")` of the scripts, found by a pattern over the source, is in the extraction."""
    found = set()
    for path in (ROOT / "service" / "ui" / "static").glob("*.js"):
        source = JS_COMMENT.sub("", path.read_text(encoding="utf-8"))
        found |= {json.loads(f'"{literal}"') for literal in JS_CALL.findall(source)}
    extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in templates["pages"] if m.id}
    assert len(found) > 200 and found <= extracted, sorted(found - extracted)


def _catalog(*messages: Message) -> Catalog:
    catalog = Catalog(locale="vi", domain="messages", fuzzy=False)
    for message in messages:
        catalog[message.id] = message
    return catalog


def test_the_check_reports_a_missing_a_stale_a_fuzzy_and_a_broken_message(tmp_path, monkeypatch):
    """The check fails on each fault it is there to catch (not only on the real catalogs as they are)."""
    monkeypatch.setattr(catalogs, "TRANSLATIONS", tmp_path)
    monkeypatch.setattr(catalogs, "languages", lambda: ["vi"])
    template = Catalog(domain="messages")
    for text in ("kept {n}", "missing", "fuzzy", "broken {card}"):
        template.add(text)
    monkeypatch.setattr(catalogs, "extract", lambda domain: template)
    po = catalogs.po_path("vi", "messages")
    catalogs.write(_catalog(Message("kept {n}", "giữ {n}"), Message("gone", "đã bỏ"),
                            Message("fuzzy", "mờ", flags=["fuzzy"]), Message("broken {card}", "hỏng {cards}")), po)
    po.with_suffix(".mo").write_bytes(catalogs.compiled(po, "vi", "messages"))
    found = catalogs.problems(["messages"])
    assert "vi/messages: missing 'missing'" in found
    assert "vi/messages: stale 'gone'" in found
    assert "vi/messages: fuzzy 'fuzzy'" in found
    assert any(line.startswith("vi/messages: placeholders of 'broken {card}'") for line in found)
    assert not any("kept" in line for line in found)
    po.with_suffix(".mo").write_bytes(b"")
    assert "vi/messages: messages.mo is not compiled from messages.po" in catalogs.problems(["messages"])


@pytest.mark.parametrize(("message", "expected"), [
    ("waiting on {cards}: {n} copies", {"cards", "n"}),
    ("%(num)s cards", {"num"}),
    ("no placeholder", set()),
])
def test_placeholders(message, expected):
    assert catalogs.placeholders(message) == expected
