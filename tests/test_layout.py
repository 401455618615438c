"""The test tree's layout: helpers live in tests/support (and the test bed's oracles in tests/testbed); a test
module or a conftest.py imports from there, never from a conftest.py or from another test module (pytest loads
those itself, and a test module imported twice runs its import-time work twice and hides where a helper belongs)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
SUPPORT = TESTS / "support"
#: Where modules that are neither tests nor conftest.py files may live.
HELPER_HOMES = (SUPPORT, TESTS / "testbed")


def module_name(path: Path) -> str:
    """The dotted name of a module under tests/ (`tests.workers.test_jobs`)."""
    parts = path.relative_to(TESTS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, package: str) -> list[str]:
    """Every module `source` (a module of `package`) imports, relative imports resolved, and for each
    `from module import name` both the module and `module.name` (which may be a submodule)."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names += [module] + [f"{module}.{alias.name}" for alias in node.names]
    return names


def imported_by(path: Path) -> list[str]:
    """Every module a file of the tree imports."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    return imported(path.read_text(encoding="utf-8"), package)


def is_test_or_conftest(name: str) -> bool:
    """Whether a dotted name is a test module or a conftest.py of the tree (or a name in one); nothing in
    tests/support is (`tests.support.redis.test_redis_url` is a helper)."""
    leaf = name.rsplit(".", 1)[-1]
    return (name.startswith("tests.") and not name.startswith("tests.support.")
            and (leaf == "conftest" or leaf.startswith("test_")))


@pytest.mark.slow  # over 2 s on 2 cores
def test_no_module_imports_a_conftest_or_a_test_module():
    """Test modules, conftest.py files and the support modules take their helpers from tests/support only."""
    wrong = {f"{path.relative_to(TESTS.parent)}: {name}"
             for path in sorted(TESTS.rglob("*.py")) for name in imported_by(path) if is_test_or_conftest(name)}
    assert not wrong, "import these from tests/support instead:\n" + "\n".join(sorted(wrong))


def test_helper_modules_live_in_tests_support():
    """Outside tests/support and tests/testbed there are only test modules, conftest.py files and package markers."""
    stray = [str(path.relative_to(TESTS.parent)) for path in sorted(TESTS.rglob("*.py"))
             if not any(home in path.parents for home in HELPER_HOMES)
             and path.name not in ("conftest.py", "__init__.py")
             and not path.name.startswith("test_")]
    assert stray == [], f"move these helpers to tests/support: {stray}"


def test_the_import_check_resolves_relative_and_package_imports():
    """`from .conftest import ...`, `from .. import test_x` and `from tests.replay import test_review` are seen."""
    source = "from .conftest import batch\nfrom .. import test_x\nfrom tests.replay import test_review\nimport os\n"
    found = [name for name in imported(source, "tests.workers") if is_test_or_conftest(name)]
    assert found == ["tests.workers.conftest", "tests.test_x", "tests.replay.test_review"]
    helpers = ("tests.support.jobs", "tests.support.redis.test_redis_url", "service.app")
    assert not any(map(is_test_or_conftest, helpers))
    assert module_name(SUPPORT / "__init__.py") == "tests.support"


def test_every_test_has_a_time_limit(request):
    """pytest-timeout is on: 60 s by default, and every test marked slow carries a limit of its own. The
    configuration prints the slowest tests at the end of every run (the command line may ask for more or fewer:
    `./scripts/test --durations=5` passes it on)."""
    assert request.config.pluginmanager.has_plugin("timeout") and request.config.getini("timeout") == "60"
    assert "--durations=25" in request.config.getini("addopts")
    for item in request.session.items:
        if item.get_closest_marker("slow"):
            limit = item.get_closest_marker("timeout")
            assert limit is not None and limit.args[0] >= 60, item.nodeid
