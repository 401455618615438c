"""The engine (service/rules, service/advice, service/replay, service/search, and the arena on top of them) imports
neither the web stack nor the queue stack (STYLE.md "Shape of this project": "a test enforces it"), statically and
in a fresh interpreter. Nothing in service/ imports the workers (jobs are enqueued by name; the workers import the
service) nor the test-only tests/testbed. The order of the layers themselves (the rules reach neither the replay nor the
search, ...) is tests/test_layers.py's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.imports import ROOT, imported_names, is_under, module_name, package_files

ENGINE_PACKAGES = ("service.rules", "service.advice", "service.replay", "service.search", "service.arena",
                   "tests.testbed")
FORBIDDEN = ("flask", "flask_smorest", "marshmallow", "webargs", "apispec", "werkzeug", "redis", "rq")
#: Project modules that carry the web or queue stack: the engine must not reach them either.
FORBIDDEN_PROJECT = ("service.app", "service.api", "service.http", "service.jobs.submit", "workers")


def engine_files() -> list[Path]:
    """Every .py file of the engine packages that exist."""
    files: list[Path] = []
    for package in ENGINE_PACKAGES:
        folder = ROOT.joinpath(*package.split("."))
        if folder.is_dir():
            files += sorted(folder.rglob("*.py"))
    return files


def test_engine_has_modules() -> None:
    """The check below is not vacuous: the rules engine is there."""
    assert any(module_name(p).startswith("service.rules.") for p in engine_files())


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: module_name(p))
def test_engine_module_imports_no_web_or_queue_stack(path: Path) -> None:
    """Static check, so imports inside functions (lazy imports) count too."""
    bad = [f"line {line}: {name}" for line, name in imported_names(path)
           if is_under(name, FORBIDDEN) or is_under(name, FORBIDDEN_PROJECT)]
    assert not bad, f"{module_name(path)} imports {bad}"


IMPORT_ALL = """
import importlib, json, sys
names = json.loads(sys.argv[1])
for name in names:
    importlib.import_module(name)
from service.rules.registry import all_rulesets
all_rulesets()  # the registry imports every family's rule-sets
print(json.dumps({"loaded": sorted(m for m in sys.modules if m.startswith(("service.", "tests.testbed"))),
                  "modules": sorted(sys.modules)}))
"""


def test_importing_the_whole_engine_loads_no_web_or_queue_stack() -> None:
    """Import every engine module in a fresh interpreter and look at sys.modules."""
    names = [module_name(p) for p in engine_files()]
    run = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, json.dumps(names)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert set(names) <= set(report["loaded"])
    leaked = sorted({m.split(".")[0] for m in report["modules"] if is_under(m, FORBIDDEN)}
                    | {m for m in report["modules"] if is_under(m, FORBIDDEN_PROJECT)})
    assert not leaked, f"importing the engine loaded {leaked}"


def test_service_modules_never_import_the_workers() -> None:
    """Every import in every module of service/, lazy ones too: the API enqueues job functions by their
    dotted name, so `workers` is never imported from the service side."""
    files = package_files("service")
    assert len(files) > 50 and ROOT / "service" / "jobs" / "queues.py" in files
    bad = [f"{module_name(path)} line {line}: {name}" for path in files for line, name in imported_names(path)
           if is_under(name, ("workers",))]
    assert not bad, bad


IMPORT_SERVICE = """
import importlib, json, sys
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
from service.app import create_app
create_app({"TESTING": True})
print(json.dumps(sorted(m for m in sys.modules if m == "workers" or m.startswith(("workers.", "tests.")))))
"""


def test_importing_the_whole_service_loads_no_worker_module() -> None:
    """Import every module of service/ and build the app in a fresh interpreter: no `workers` module is loaded."""
    names = [module_name(p) for p in package_files("service") if p.name != "__main__.py"]
    run = subprocess.run([sys.executable, "-c", IMPORT_SERVICE, json.dumps(names)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.splitlines()[-1]) == []
