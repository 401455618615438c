"""The rule-set object is the one seam of a variant: no module outside a family's own package
(service/rules/<family>/) compares, branches on or names a rule-set id. A new variant is then a change in one
place: its family's rulesets.py."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from service.rules.registry import all_rulesets

ROOT = Path(__file__).resolve().parents[1]
FAMILY_PACKAGES = ("service/rules/fourcolor", "service/rules/chan")
#: Modules that hold only request examples for the OpenAPI document, never a decision.
EXEMPT = {"service/api/examples.py": "request examples of the OpenAPI document"}


def scanned() -> list[Path]:
    """Every source file of the service and the workers outside the families' own packages, but the exempt ones."""
    files = sorted(ROOT.joinpath("service").rglob("*.py")) + sorted(ROOT.joinpath("workers").rglob("*.py"))
    return [f for f in files if not str(f.relative_to(ROOT)).startswith(FAMILY_PACKAGES)
            and str(f.relative_to(ROOT)) not in EXEMPT]


def id_literals(path: Path, ids: set[str]) -> list[str]:
    """`line: id` for every string constant (not a docstring) equal to a rule-set id."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    return [f"{node.lineno}: {node.value}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in ids and id(node) not in docstrings]


def test_the_scan_sees_the_registered_ids_and_the_exempt_modules():
    """The scan is live: it knows the three rule-sets, and an exempt module does hold ids."""
    ids = {r.id for r in all_rulesets()}
    assert {"bga-taiwan", "cardavia-flowers", "cardavia-chan"} <= ids
    assert all(id_literals(ROOT / path, ids) for path in EXEMPT)


@pytest.mark.parametrize("path", scanned(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_outside_its_family_names_a_ruleset_id(path: Path):
    """Behaviour that differs between variants is asked of the rule-set object, never decided on its id."""
    assert id_literals(path, {r.id for r in all_rulesets()}) == []
