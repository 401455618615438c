"""The anchors docs/rules.md defines and every citation of them (`docs/rules.md#` and the anchor) in the project and
in the API's answers: what tests/test_docs.py checks against the document, and the rules page's tests against the
page."""

from __future__ import annotations

import json
import re
from pathlib import Path

from service.replay.violations import CODES

ROOT = Path(__file__).resolve().parents[2]
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
BINARY = {".woff2", ".png", ".mo", ".gz"}  # .mo: compiled gettext catalogs (their .po sources are read); .gz: kept data


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
