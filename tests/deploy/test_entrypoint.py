"""The image's entry point script (deploy/docker-entrypoint.sh), run for real with a stand-in gunicorn: it clears
stale metrics files, creates the metrics directory, and runs any other command untouched."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.support.deploy import ENTRYPOINT


def run_entrypoint(tmp_path: Path, argv: list[str], multiproc_dir: Path | None) -> subprocess.CompletedProcess:
    """Run docker-entrypoint.sh with a stand-in `gunicorn` first on PATH that prints its metrics directory."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "gunicorn"
    fake.write_text('#!/bin/sh\necho "dir=$PROMETHEUS_MULTIPROC_DIR"\nls "$PROMETHEUS_MULTIPROC_DIR"\n')
    fake.chmod(0o755)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}
    if multiproc_dir is not None:
        env["PROMETHEUS_MULTIPROC_DIR"] = str(multiproc_dir)
    return subprocess.run(["sh", str(ENTRYPOINT), *argv], env=env, capture_output=True, text=True, timeout=30,
                          check=False)


def test_entrypoint_clears_stale_metrics_files_before_gunicorn_and_no_other_file(tmp_path):
    """Only the files prometheus_client names as its own are removed: the directory may hold an operator's."""
    metrics = tmp_path / "metrics"
    metrics.mkdir()
    stale = ["counter_123.db", "histogram_7.db", "summary_8.db", "gauge_livesum_9.db", "gauge_all_10.db"]
    others = ["notes.txt", "notes.db", "counter.db", "counter_12a.db", "my_counter_1.db"]  # not prometheus_client's
    for name in stale + others:
        (metrics / name).write_bytes(b"x")
    result = run_entrypoint(tmp_path, ["gunicorn", "--config", "x"], metrics)
    assert result.returncode == 0, result.stderr
    assert f"dir={metrics}" in result.stdout
    assert sorted(path.name for path in metrics.iterdir()) == sorted(others)
    assert "warning" not in result.stderr


def test_entrypoint_creates_the_metrics_dir_for_gunicorn(tmp_path):
    metrics = tmp_path / "not-yet" / "metrics"
    result = run_entrypoint(tmp_path, ["gunicorn"], metrics)
    assert result.returncode == 0, result.stderr
    assert metrics.is_dir()


def test_entrypoint_leaves_other_commands_alone(tmp_path):
    metrics = tmp_path / "metrics"
    metrics.mkdir()
    (metrics / "counter_1.db").write_bytes(b"")
    result = run_entrypoint(tmp_path, ["sh", "-c", 'echo "ran $0 $1"', "a", "b"], metrics)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ran a b"
    assert (metrics / "counter_1.db").exists()
    failing = run_entrypoint(tmp_path, ["sh", "-c", "exit 7"], None)
    assert failing.returncode == 7, "the entry point must pass on the command's exit status"
