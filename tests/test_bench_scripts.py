"""The in-process benchmarks of bench/ still run against today's engine (a refactor that breaks one fails here,
not in the hands of whoever next measures): each runs on a tiny workload and prints its figures as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("script, args", [
    ("discards.py", ["--positions", "3"]),
    ("claims.py", ["--positions", "3"]),
    ("review.py", ["--rounds", "1"]),
    ("audit.py", ["--rounds", "2"]),
    ("arena.py", ["--deals", "1"]),
    ("drills.py", ["--drills", "1"]),
    ("calibration.py", ["--ruleset", "cardavia-chan", "--decisions", "40"]),
])
def test_bench_runs_and_prints_json(script, args):
    done = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args, "--json"], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(("{", "[")))  # a table may come first
    assert json.loads("\n".join(lines[start:]))
