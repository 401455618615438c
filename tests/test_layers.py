"""The layers of the service import one way (docs/architecture.md#layers-and-the-import-direction): every module
imports only its own layer and those `LAYERS` lists under it, so the engine knows nothing of the shells, the job
layer nothing of HTTP (no Flask: the API passes in what it knows of a request and maps the job layer's refusals to
problems), the HTTP layer nothing of the jobs, and nothing of the service what runs it. Static: every import of every
module counts, lazy ones inside functions too; and importing the whole job layer loads no web stack."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.imports import ROOT, import_statements, is_under, module_name, package_files, statements

ENGINE = ("service.rules", "service.advice", "service.replay", "service.search")
SHARED = ("service.config", "service.redaction", "service.i18n", "service.redisconf")
#: The layers, bottom first: each one and what it may import besides itself. A layer names only layers above it in
#: this table (the order is the table's), so no import goes round; a module-sized entry allows that module alone.
LAYERS: dict[str, tuple[str, ...]] = {
    # the engine: pure functions and frozen data, each layer on the ones before it
    "service.rules": (),
    "service.advice": ("service.rules",),
    "service.replay": ("service.rules", "service.advice"),
    "service.search": ("service.rules", "service.advice", "service.replay"),
    # shared by the shells: every setting, the secrets kept out of what is said, the languages of the answers,
    # where Redis is
    "service.config": (),
    "service.redaction": ("service.config",),
    "service.i18n": ("service.rules",),
    "service.redisconf": ("service.config", "service.redaction"),
    # the two platforms of the shells, side by side: neither imports the other
    "service.jobs": (*ENGINE, "service.config", "service.redisconf"),
    # the stored games, over the job layer (a replay's analysis, a replica's acknowledgement); no Flask either
    "service.shares": ("service.config", "service.redisconf", "service.jobs"),
    "service.http": (*ENGINE, *SHARED),
    # what runs the service: supervision, the embedded Redis, gunicorn's process tuning
    "service.runtime": (*ENGINE, *SHARED, "service.jobs", "service.http"),
    # what the service serves, over the engine: the arena (its bots die with it), the pages, the API, the app
    "service.arena": (*ENGINE, "service.runtime.lifetime"),
    "service.ui": ("service.i18n",),
    "service.api": (*ENGINE, *SHARED, "service.jobs", "service.shares", "service.http", "service.arena"),
    # the embed views and the oEmbed provider: pages for other sites, over the API (the keyless answers they show
    # are the API's own) and the stored games
    **{f"service.ui.{name}": (*ENGINE, *SHARED, "service.http", "service.jobs", "service.shares", "service.ui",
                              "service.api") for name in ("embed", "embed_views", "embed_replay", "oembed")},
    "service.app": (*SHARED, "service.http", "service.jobs", "service.shares", "service.ui", "service.api"),
    # the command line and the catalogs' upkeep (`python -m service ...`)
    "service.catalogs": ("service.i18n",),
    "service.__main__": (*ENGINE, *SHARED, "service.jobs", "service.shares", "service.http", "service.runtime",
                         "service.arena", "service.ui", "service.api", "service.app", "service.catalogs"),
    # the job functions and their worker, beside the service: they import it, it never imports them
    "workers": (*ENGINE, "service.config", "service.redaction", "service.redisconf", "service.jobs",
                "service.runtime.lifetime"),
}
#: Imports against the order, each inside a function and each for its reason; no other may join them.
AGAINST_THE_ORDER = {
    ("service.config", "service.http.auth"): "LONGCARDS_API_KEYS is checked with the parser of the keys",
    ("service.config", "service.http.cors"): "LONGCARDS_CORS_ORIGINS is checked with the parser of the origins",
}
#: Third-party packages a layer must not import: the job layer knows nothing of the web.
WEB_STACK = ("flask", "flask_babel", "flask_limiter", "flask_smorest", "werkzeug", "marshmallow", "webargs",
             "apispec", "gunicorn")
STACKS = {"service.jobs": WEB_STACK, "service.shares": WEB_STACK}
#: What the import check reads as the project's (anything else is a third-party or standard module).
PROJECT = ("service", "workers", "tests")


def layer_of(name: str) -> str | None:
    """The layer a module belongs to: the longest entry of LAYERS it is in (None: in no layer)."""
    return max((layer for layer in LAYERS if is_under(name, (layer,))), key=len, default=None)


def targets(module: str, names: tuple[str, ...]) -> list[str]:
    """What one import statement reaches: `module` itself, or each `module.name` taken from it (a submodule, or a
    name of `module`: either way inside it)."""
    return [f"{module}.{name}" for name in names if name != "*"] or [module]


def violations(module: str, found: list[tuple[int, str, tuple[str, ...]]]) -> list[str]:
    """Each import of `module` (its import statements, `found`) that goes against LAYERS or STACKS."""
    own = layer_of(module)
    if own is None and module != "service":  # the package's root holds its docstring and version only
        return [f"{module} is in no layer of LAYERS: give its package a place in the order"]
    allowed = (own, *LAYERS[own]) if own else ()
    wrong = []
    for line, imported, names in found:
        for target in targets(imported, names):
            if own and is_under(target, STACKS.get(own, ())):
                wrong.append(f"line {line}: {target} (no {target.split('.')[0]} in {own})")
            elif target.split(".")[0] not in PROJECT or target == "service" or is_under(target, allowed):
                continue
            elif not any(is_under(target, (upward,)) for (layer, upward) in AGAINST_THE_ORDER if layer == own):
                wrong.append(f"line {line}: {target} ({own or module} may import "
                             f"{', '.join(LAYERS.get(own or '', ())) or 'nothing of the project'})")
    return wrong


def modules() -> list[Path]:
    """Every module of the service and the workers."""
    return package_files("service") + package_files("workers")


def test_the_table_is_an_order_and_every_layer_has_modules():
    """Each layer names only layers before it (so the imports can never go round), and each has code."""
    seen: list[str] = []
    for layer, below in LAYERS.items():
        assert all(is_under(entry, tuple(seen)) for entry in below), f"{layer} names a layer after it: {below}"
        seen.append(layer)
    found = {layer_of(module_name(path)) for path in modules()}
    assert set(LAYERS) <= found, f"layers without a module: {sorted(set(LAYERS) - found)}"
    assert all(layer_of(upward) not in LAYERS[layer] for layer, upward in AGAINST_THE_ORDER)


@pytest.mark.parametrize("path", modules(), ids=module_name)
def test_module_imports_only_its_own_layer_and_those_under_it(path: Path):
    """Static check: every import anywhere in the file, inside functions too."""
    wrong = violations(module_name(path), import_statements(path))
    assert not wrong, f"{module_name(path)} imports against the layers: {wrong}"


@pytest.mark.parametrize(("module", "source", "refused"), [
    ("service.jobs.example", "from ..http import errors\n", True),
    ("service.jobs.example", "from service.http import errors\n", True),
    ("service.jobs.example", "def lazy():\n    from ..api.jobs.access import redis\n", True),
    ("service.jobs.example", "from flask import request\n", True),
    ("service.jobs.example", "import service.runtime.serve\n", True),
    ("service.http.example", "from ..jobs.submit import load\n", True),
    ("service.http.example", "from ..runtime import fairness\n", True),
    ("service.rules.example", "from ..replay import log\n", True),
    ("service.rules.example", "def lazy():\n    from ..advice.ranking import SHIPPED\n", True),
    ("service.advice.example", "from ..search import exact\n", True),
    ("service.search.example", "from ..jobs import queues\n", True),
    ("service.arena.example", "from ..runtime.serve import serve\n", True),
    ("service.config", "from .jobs import queues\n", True),
    ("service.newpackage.example", "import json\n", True),
    ("workers.example", "from service.api.jobs import access\n", True),
    ("workers.example", "from tests.support.redis import with_db\n", True),
    ("service.jobs.example", "from ..redisconf import RedisSettings\nfrom .queues import QUEUES\n", False),
    ("service.http.example", "from .. import i18n\nfrom ..rules.text import text\nimport flask\n", False),
    ("service.arena.example", "from ..runtime.lifetime import exec_hook\n", False),
    ("service.search.example", "from ..advice.ranking import rank_key\n", False),
    ("service.config", "def parse():\n    from .http.auth import parse_keys\n", False),
    ("workers.example", "from service.runtime.lifetime import forks_die_with_parent\n", False),
])
def test_the_check_refuses_an_import_against_the_order_and_only_that(module: str, source: str, refused: bool):
    """The check fails on what it is there to catch (not only passes on the tree as it is), and lets the rest by."""
    found = violations(module, statements(source, module.rpartition(".")[0]))
    assert bool(found) == refused, found or source


IMPORT_JOBS = """
import importlib, json, sys
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
print(json.dumps(sorted(sys.modules)))
"""


def test_importing_the_whole_job_layer_loads_no_web_stack_and_no_other_shell():
    """Every module of service/jobs in a fresh interpreter: no Flask (not even through a shared module), nothing
    of the HTTP layer, the API, the app or the runtime."""
    names = [module_name(path) for path in package_files("service.jobs")]
    run = subprocess.run([sys.executable, "-c", IMPORT_JOBS, json.dumps(names)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    loaded = json.loads(run.stdout.splitlines()[-1])
    assert set(names) <= set(loaded)
    leaked = [m for m in loaded if is_under(m, WEB_STACK)
              or is_under(m, ("service.http", "service.api", "service.app", "service.runtime", "service.i18n"))]
    assert not leaked, f"importing the job layer loaded {leaked}"
