"""The documents stay true: docs/api.md lists every violation code exactly as the audit reports them, every rule
the code and the answers cite is explained in docs/rules.md, and every relative link of the README and docs/
lands on a file and, with a fragment, on a heading or anchor of it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from service.replay.violations import CODES, table

API_DOC = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")


def test_api_doc_has_the_violation_code_table():
    """Regenerate with service.replay.violations.table() when a code changes."""
    assert table() in API_DOC
    assert all(f"`{code}`" in API_DOC for code in CODES)


# --- docs/rules.md: every rule the code and the answers cite is there ------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
ANCHOR = re.compile(r'<a id="([a-z0-9-]+)"></a>')
REFERENCE = re.compile(r"docs/rules\.md#([A-Za-z0-9_-]+)")
#: Rule texts the project does not ship; nothing may send a reader to them (spelt in two parts so that this file
#: does not name them itself).
FOREIGN = ("RULES" + ".md", "CONTRACT" + ".md")
SCANNED = ("service", "workers", "tests", "bench", "deploy", "scripts", "docs")


def anchors() -> set[str]:
    """The explicit anchors of docs/rules.md (each defined once)."""
    found = ANCHOR.findall(RULES_DOC.read_text(encoding="utf-8"))
    assert len(found) == len(set(found)), sorted(a for a in found if found.count(a) > 1)
    return set(found)


#: Files that are not text (the pages' font, images): nothing in them can cite a rule.
BINARY = {".woff2", ".png", ".mo"}  # .mo: compiled gettext catalogs (their .po sources are read)


def project_texts() -> dict[str, str]:
    """The code, tests, scripts, deployment files, README and spec, by path."""
    paths = [ROOT / "README.md", ROOT / "openapi.yaml", ROOT / "pyproject.toml"]
    for top in SCANNED:
        paths += [p for p in (ROOT / top).rglob("*") if p.is_file() and "__pycache__" not in p.parts
                  and p.suffix not in BINARY]
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in paths}


def answers(client) -> dict[str, str]:
    """Every rule citation an answer can carry: the violation table and the rule-sets answer."""
    rulesets = client.get("/v1/rulesets")
    assert rulesets.status_code == 200
    return {"violations": json.dumps(CODES, ensure_ascii=False), "rulesets": rulesets.get_data(as_text=True)}


def test_rules_doc_defines_the_anchors_it_links_to():
    """In-page links of docs/rules.md (`](#x)`) land on its own anchors."""
    text = RULES_DOC.read_text(encoding="utf-8")
    missing = set(re.findall(r"\]\(#([A-Za-z0-9_-]+)\)", text)) - anchors()
    assert not missing, missing


def test_every_docs_rules_reference_names_an_existing_anchor(client):
    """Code comments, docstrings, tests, README, the spec and the answers point only at anchors that exist."""
    known, broken = anchors(), []
    for where, text in {**project_texts(), **answers(client)}.items():
        broken += [f"{where}: #{name}" for name in REFERENCE.findall(text) if name not in known]
    assert not broken, broken


def test_answers_cite_docs_rules_for_every_rule(client):
    """Each violation code, each rule option and each rule-set cites an anchor of docs/rules.md."""
    assert all(REFERENCE.match(rule) for rule, _ in CODES.values())
    for ruleset in client.get("/v1/rulesets").get_json()["rulesets"]:
        assert REFERENCE.match(ruleset["source"]), ruleset["id"]
        for option in ruleset["options"]:
            assert REFERENCE.match(option["rule"]), (ruleset["id"], option["name"])
            assert option["name"] in RULES_DOC.read_text(encoding="utf-8"), option["name"]


def test_nothing_points_at_rule_texts_outside_the_project(client):
    """The project explains its rules itself: no code, document or answer names an outside rule text."""
    for where, text in {**project_texts(), **answers(client)}.items():
        for name in FOREIGN:
            assert name not in text, f"{where} mentions {name}"


# --- links: the README and docs/ send the reader only where something is ----------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def targets(path: Path) -> set[str]:
    """The fragments a link may name in this Markdown file: its headings' slugs and its explicit anchors."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    headings = [slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)]
    # GitHub numbers a repeated heading's anchor: x, x-1, x-2 ...
    numbered = {f"{h}-{i}" for h in set(headings) for i in range(1, headings.count(h))}
    return set(headings) | numbered | set(ANCHOR.findall(text))


def documents() -> list[Path]:
    """The README and every document under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_readme_links_every_document_of_docs():
    """No document is out of the newcomer's reach."""
    linked = set(LINK.findall((ROOT / "README.md").read_text(encoding="utf-8")))
    missing = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if f"docs/{p.name}" not in linked]
    assert not missing, missing


def test_every_relative_link_resolves_to_a_file_and_a_heading():
    """Each `[text](path#fragment)` of the README and docs/*.md names a file that exists and, with a fragment,
    one of its headings or anchors."""
    broken, checked = [], 0
    for doc in documents():
        for link in LINK.findall(FENCE.sub("", doc.read_text(encoding="utf-8"))):
            if re.match(r"[a-z]+:", link):  # http:, https:, mailto: leave the repository
                continue
            checked += 1
            name, _, fragment = link.partition("#")
            target = (doc.parent / name).resolve() if name else doc
            if not target.exists():
                broken.append(f"{doc.name}: {link} (no such file)")
            elif fragment and (target.suffix != ".md" or fragment not in targets(target)):
                broken.append(f"{doc.name}: {link} (no such heading)")
    assert checked > 20 and not broken, broken
