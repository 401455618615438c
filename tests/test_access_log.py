"""gunicorn's access log (deploy/gunicorn.conf.py) names each answer's X-Request-ID: a real gunicorn on a loopback
port, requests with and without an id, and the log lines read back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.ports import free_port

ROOT = Path(__file__).resolve().parents[1]


def get(url: str, headers: dict[str, str]) -> str:
    """GET; the answer's X-Request-ID."""
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
        return response.headers["X-Request-ID"]


@pytest.mark.slow  # over 2 s on 2 cores
def test_access_log_names_the_request_id(tmp_path):
    """The client's id and, without one, the id the API made both reach the access log line of the request."""
    port, log = free_port(), tmp_path / "access.log"
    env = {**os.environ, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1", "GUNICORN_ACCESSLOG": str(log),
           "LONGCARDS_METRICS": "false"}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py",
                               "service.app:create_app()"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                get(base + "/healthz", {})
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("gunicorn did not start")
                time.sleep(0.2)
        assert get(base + "/v1/rulesets", {"X-Request-ID": "site-7:req-1"}) == "site-7:req-1"
        made = get(base + "/v1/rulesets/bga-taiwan", {})
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    lines = log.read_text(encoding="utf-8").splitlines()
    assert any("GET /v1/rulesets HTTP" in line and "rid=site-7:req-1 " in line for line in lines), lines
    assert any("GET /v1/rulesets/bga-taiwan HTTP" in line and f"rid={made} " in line for line in lines), lines
