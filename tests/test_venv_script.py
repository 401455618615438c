"""scripts/_venv.sh, which scripts/serve and scripts/test source, installs once and remembers it: a command whose
extras are installed runs no pip (serve after test needs no network), a changed pyproject.toml installs again, and
a failed install is not remembered. Run on a copy of the script beside a stand-in pyproject.toml, with a stand-in
interpreter that records each pip command it is given and installs nothing (no network, nothing real touched)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The stand-in interpreter: `-c` runs the real one (the version check), `-m venv DIR` makes DIR/bin/python a copy
#: of itself, `-m pip ...` is written to $PIP_LOG and fails when $PIP_FAILS is set.
FAKE_PYTHON = """#!/bin/sh
case "$1" in
  -c) exec {real} "$@" ;;
  -m) if [ "$2" = venv ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; exit 0; fi
      if [ "$2" = pip ]; then echo "$*" >> "$PIP_LOG"; [ -z "${{PIP_FAILS:-}}" ]; exit $?; fi ;;
esac
exit 3
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A stand-in checkout: scripts/_venv.sh copied, a pyproject.toml, and the stand-in interpreter."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "_venv.sh", tmp_path / "scripts" / "_venv.sh")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    python = tmp_path / "python"
    python.write_text(FAKE_PYTHON.format(real=sys.executable), encoding="utf-8")
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    return tmp_path


def source(project: Path, extras: str, **env: str) -> list[str]:
    """Source the script as scripts/serve ("") or scripts/test ("[test]") do: the pip commands it ran."""
    log = project / "pip.log"
    log.write_text("", encoding="utf-8")
    environ = {**os.environ, "VENV": str(project / ".venv"), "PYTHON": str(project / "python"),
               "PIP_LOG": str(log), **env}
    done = subprocess.run(["bash", "-c", '. "$0/scripts/_venv.sh" "$1"', str(project), extras], env=environ,
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == (1 if env.get("PIP_FAILS") else 0), done.stderr
    return [line.split(" ", 1)[1] for line in log.read_text(encoding="utf-8").splitlines()]


def test_serve_after_test_runs_no_pip(project):
    """test installs the service with its test tools; serve, then test again, find it all there."""
    assert source(project, "[test]") == ["pip install --quiet --upgrade pip",
                                         f"pip install --quiet -e {project}[test]"]
    assert source(project, "") == []
    assert source(project, "[test]") == []


def test_an_extra_not_yet_installed_is_installed_alone_and_then_remembered(project):
    """serve first installs the service alone; test adds its tools; serve and test then install nothing more."""
    assert source(project, "")[-1] == f"pip install --quiet -e {project}"
    assert source(project, "[test]")[-1] == f"pip install --quiet -e {project}[test]"
    assert source(project, "[learn]")[-1] == f"pip install --quiet -e {project}[learn]"
    assert source(project, "") == source(project, "[test]") == source(project, "[learn,test]") == []


def test_a_changed_pyproject_installs_again(project):
    """Another pyproject.toml: its dependencies may have changed, so each command installs what it needs again."""
    source(project, "[test]")
    with (project / "pyproject.toml").open("a", encoding="utf-8") as pyproject:
        pyproject.write("dependencies = ['flask']\n")
    assert source(project, "")[-1] == f"pip install --quiet -e {project}"
    assert source(project, "[test]")[-1] == f"pip install --quiet -e {project}[test]"
    assert source(project, "") == []


def test_a_failed_install_is_not_remembered(project):
    """pip failing (no network, say) stops the command, and the next one tries again."""
    assert source(project, "[test]", PIP_FAILS="1") == ["pip install --quiet --upgrade pip"]
    assert source(project, "[test]")[-1] == f"pip install --quiet -e {project}[test]"
    assert source(project, "[test]") == []


def test_a_new_interpreter_installs_again(project):
    """A .venv without its interpreter is made anew, and what the old one had counts for nothing."""
    source(project, "[test]")
    (project / ".venv" / "bin" / "python").unlink()
    assert source(project, "")[-1] == f"pip install --quiet -e {project}"
