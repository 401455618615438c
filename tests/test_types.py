"""The rule-set seam is checked by the type checker: a family object whose method takes the protocol's parameters
in another order is refused where it is listed as a `RuleSet`, and the real family, copied unchanged, is not.

The copy is the Chắn family module itself (service/rules/chan/rulesets.py) with absolute imports and one
signature broken, as the review found it before: `settle(..., context, lucky_card)` against the protocol's
`settle(..., lucky_card, context)`. That mypy passes on the whole tree is a step of scripts/test.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FAMILY = ROOT / "service" / "rules" / "chan" / "rulesets.py"
SETTLE_ORDER = "lucky_card: object = None, context: Mapping[str, Any] | None = None"
SWAPPED_ORDER = "context: Mapping[str, Any] | None = None, lucky_card: object = None"
LISTED = "\n\nLISTED: tuple[RuleSet, ...] = (ChanRuleSet(),)\n"


def family_copy(swap: bool) -> str:
    """The Chắn rule-set module, importable from outside the package, listed as a RuleSet; `swap`: with the
    settlement's `lucky_card` and `context` swapped."""
    text = FAMILY.read_text(encoding="utf-8")
    assert text.count(SETTLE_ORDER) == 1, "the family's settle signature moved: update this test"
    text = text.replace("from ..", "from service.rules.").replace("from .", "from service.rules.chan.")
    if swap:
        text = text.replace(SETTLE_ORDER, SWAPPED_ORDER)
    return text + LISTED


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for the module's runs (the second run reuses the engine's analysis)."""
    return tmp_path_factory.mktemp("mypy-cache")


def mypy(path: Path, cache_dir: Path) -> subprocess.CompletedProcess[str]:
    """Run mypy with the project's configuration on one file."""
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(cache_dir),
         "--no-error-summary", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )


def test_the_family_copied_unchanged_passes(tmp_path: Path, cache_dir: Path) -> None:
    """The control: the copy itself satisfies the protocol, so a failure below is the swap's."""
    module = tmp_path / "chan_copy.py"
    module.write_text(family_copy(swap=False), encoding="utf-8")
    run = mypy(module, cache_dir)
    assert run.returncode == 0, run.stdout + run.stderr


def test_swapped_settlement_parameters_are_refused(tmp_path: Path, cache_dir: Path) -> None:
    """Listing the broken family as a RuleSet fails the check, naming the family and its `settle`."""
    module = tmp_path / "chan_swapped.py"
    module.write_text(family_copy(swap=True), encoding="utf-8")
    run = mypy(module, cache_dir)
    assert run.returncode == 1, run.stdout + run.stderr
    errors = [line for line in run.stdout.splitlines() if ": error: " in line]
    assert errors and all(line.startswith(str(module)) for line in errors), run.stdout
    assert any('"tuple[ChanRuleSet]"' in line and '"tuple[RuleSet, ...]"' in line for line in errors), run.stdout
    assert "def settle(" in run.stdout, run.stdout  # the conflict shown is the settlement's signature
