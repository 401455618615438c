"""deploy/Dockerfile read as the image it builds: its instructions, the final stage's CMD, ENTRYPOINT, COPY and
ENV, and what a Kubernetes container of that image runs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.support.deploy import DOCKERFILE, WORKER_ARGV


def dockerfile_instructions(path: Path = DOCKERFILE) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined and comments dropped."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        pending += line
        keyword, _, rest = pending.strip().partition(" ")
        instructions.append((keyword.upper(), rest.strip()))
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    return instructions


def final_stage() -> list[tuple[str, str]]:
    """The instructions of the last stage (the image that runs)."""
    instructions = dockerfile_instructions()
    starts = [i for i, (keyword, _) in enumerate(instructions) if keyword == "FROM"]
    assert starts, "the Dockerfile has no FROM"
    return instructions[starts[-1]:]


def exec_form(keyword: str) -> list[str]:
    """The final stage's CMD or ENTRYPOINT, which must be in exec (JSON array) form so signals reach the process."""
    values = [rest for kw, rest in final_stage() if kw == keyword]
    assert values, f"the image has no {keyword}"
    argv = json.loads(values[-1])
    assert isinstance(argv, list) and all(isinstance(a, str) for a in argv), f"{keyword} is not an exec-form array"
    return argv


def copies() -> list[tuple[list[str], str, list[str]]]:
    """The final stage's COPY instructions: (flags, destination, sources)."""
    found = []
    for keyword, rest in final_stage():
        if keyword == "COPY":
            words = rest.split()
            flags = [w for w in words if w.startswith("--")]
            paths = [w for w in words if not w.startswith("--")]
            found.append((flags, paths[-1], paths[:-1]))
    return found


def copied_to(source: str) -> str:
    """Where the final stage puts a file of the build context."""
    for flags, destination, sources in copies():
        if source in sources and not any(f.startswith("--from") for f in flags):
            if destination.endswith("/"):
                return destination + Path(source).name
            assert len(sources) == 1, f"COPY of several files to {destination} must end in /"
            return destination
    raise AssertionError(f"the image does not COPY {source}")


def image_env() -> dict[str, str]:
    """ENV of the final stage (KEY=VALUE form, values unquoted)."""
    env: dict[str, str] = {}
    for keyword, rest in final_stage():
        if keyword == "ENV":
            for match in re.finditer(r'([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)', rest):
                env[match.group(1)] = match.group(2).strip('"')
    return env


def effective_argv(cont: dict[str, Any]) -> list[str]:
    """What a Kubernetes container runs: `command` replaces ENTRYPOINT (and drops CMD), `args` replaces CMD."""
    if "command" in cont:
        return list(cont["command"]) + list(cont.get("args", []))
    return exec_form("ENTRYPOINT") + list(cont.get("args", exec_form("CMD")))


def runs_workers(argv: list[str]) -> bool:
    """True when the argv runs `python -m workers` (directly, or through the entry point)."""
    return any(argv[i:i + 3] == WORKER_ARGV for i in range(len(argv)))
