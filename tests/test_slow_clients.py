"""The API as `python -m service serve` runs it (gunicorn with deploy/gunicorn.conf.py) keeps answering /healthz
while 50 slow clients each send a request header one byte a second (slowloris), and cuts those clients off.

Runs bench/slowloris.py for real against a gunicorn it starts on a free loopback port: 8 s of attack, /healthz
probed every 0.5 s on fresh connections.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # 8 s of attack on a real gunicorn, after its start

ROOT = Path(__file__).resolve().parents[1]


def test_healthz_answers_within_1s_during_50_slow_connections():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "slowloris.py"), "--connections", "50",
                          "--seconds", "8", "--interval", "0.5", "--json"],
                         capture_output=True, text=True, timeout=180, check=False, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    figures = json.loads(run.stdout)
    assert figures["probes"] >= 12, figures
    assert figures["share_within_1s"] >= 0.99, figures
    # The request-header deadline (keepalive, 5 s) cuts every slow client off at least once in 8 s.
    assert figures["slow_reopened"] >= figures["connections"], figures
