"""The rule-set object is the one seam of a variant: no module outside a family's own package
(service/rules/<family>/) compares, branches on or names a rule-set id. A new variant is then a change in one
place: its family's rulesets.py.

And a game family is chosen once per layer: outside service/rules/ and the layers' adapter modules (`ADAPTERS`),
no module of the service or the workers branches on a rule-set's `family` or keys a dict by family name."""

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


# --- a game family is chosen once per layer -----------------------------------------------------------------

#: The one module per layer that picks a game family's parts by the rule-set's `family`.
ADAPTERS = {
    "service/advice/analyse.py": "advice: the answers to a public card",
    "service/replay/families.py": "replay: state machine, reviewer, dealing, round driver, test-bed players",
    "service/search/families.py": "search: playout table, playout, the player's exact analysis",
    "service/api/hands/answers.py": "API: the hand answers of /v1/melds and /v1/hu",
    "service/arena/seat.py": "arena: a seat's hand, distance and what a claim leaves",
}
FAMILY_NAMES = {"fourcolor", "chan"}


def family_choices(path: Path) -> list[str]:
    """`line: what` for every place that chooses by game family: a comparison with a `.family` attribute among its
    operands (`==`, `!=`, `in`, `is` or any other operator), a `match` on a `.family` attribute, a dict literal with
    a family name as a string key (`{"chan": ...}`), and `dict(fourcolor=..., chan=...)`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def is_family(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "family"

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(is_family(n) for n in (node.left, *node.comparators)):
            found.append(f"{node.lineno}: compares .family")
        elif isinstance(node, ast.Match) and is_family(node.subject):
            found.append(f"{node.lineno}: matches .family")
        elif isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value in FAMILY_NAMES
                                                for k in node.keys):
            found.append(f"{node.lineno}: dict keyed by family")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict"
              and any(k.arg in FAMILY_NAMES for k in node.keywords)):
            found.append(f"{node.lineno}: dict() keyed by family")
    return found


def layered() -> list[Path]:
    """Every source file of the service and the workers outside service/rules/ and the adapter modules."""
    files = sorted(ROOT.joinpath("service").rglob("*.py")) + sorted(ROOT.joinpath("workers").rglob("*.py"))
    return [f for f in files if not str(f.relative_to(ROOT)).startswith("service/rules/")
            and str(f.relative_to(ROOT)) not in ADAPTERS]


def test_the_family_scan_sees_every_adapter_choose():
    """The scan is live: every adapter module holds its layer's one family-keyed choice, and the scan finds it."""
    assert all(family_choices(ROOT / path) for path in ADAPTERS)
    assert (ROOT / "service/rules").is_dir() and all((ROOT / path).is_file() for path in ADAPTERS)


def test_the_family_scan_catches_each_kind_of_choice(tmp_path: Path):
    """Each forbidden form is caught; a plain `.family` read (e.g. a rule-set's description) is not."""
    source = tmp_path / "module.py"
    source.write_text("a = rs.family == 'chan'\nb = 'chan' != rs.family\nc = rs.family in ('chan',)\n"
                      "d = {'fourcolor': 1}\ne = dict(chan=2)\nmatch rs.family:\n    case _:\n        pass\n"
                      "f = {'family': rs.family}\n", encoding="utf-8")
    assert sorted(int(hit.split(":")[0]) for hit in family_choices(source)) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("path", layered(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_outside_the_adapters_chooses_a_family(path: Path):
    """Behaviour that differs between game families is asked of the layer's adapter (`ADAPTERS`), never decided
    on the rule-set's `family` in place."""
    assert family_choices(path) == []
