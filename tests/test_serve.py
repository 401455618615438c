"""`python -m service serve` for real: a worker child killed is started again while the API keeps answering;
the embedded Redis keeps its data and socket under the run directory (or the socket in a short temporary
directory when that path is too long, said on stdout), with gunicorn's control socket beside it."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from redis import Redis
from rq import Worker

from tests.support.ports import free_port
from tests.support.processes import ROOT, wait_for
from tests.support.redis import RedisServer

pytestmark = pytest.mark.slow  # each test starts `python -m service serve` and waits for its workers

STARTUP = 90  # gunicorn and each worker build the evaluation tables first, on 2 shared cores



@contextlib.contextmanager
def serving(log: Path, run_dir: Path, workers: int, **env: str) -> Iterator[tuple[subprocess.Popen, str]]:
    """A `python -m service serve` with one gunicorn process on a free loopback port; SIGTERMed afterwards, and
    it must then stop with every child."""
    base = f"http://127.0.0.1:{free_port()}"
    environ = {**{k: v for k, v in os.environ.items() if k != "REDIS_URL"}, "BIND": base.removeprefix("http://"),
               "WEB_CONCURRENCY": "1", "LONGCARDS_WORKERS": str(workers), "LONGCARDS_DATA_DIR": str(run_dir), **env}
    environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "service", "serve"], cwd=ROOT, env=environ, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    children: list[psutil.Process] = []
    try:
        wait_for(lambda: status(base, "/healthz") == 200, STARTUP, f"the API ({log.read_text()[-2000:]})", 0.2)
        yield process, base
        children = psutil.Process(process.pid).children(recursive=True)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=40) == 0, log.read_text()[-3000:]
        gone, alive = psutil.wait_procs(children, timeout=10)
        assert not alive, f"left running: {alive}"
    finally:
        if process.poll() is None:
            for child in psutil.Process(process.pid).children(recursive=True):
                with contextlib.suppress(psutil.NoSuchProcess):
                    child.kill()
            process.kill()
            process.wait()


def status(base: str, path: str) -> int | None:
    """The HTTP status of a GET, or None when nothing answers."""
    try:
        with urllib.request.urlopen(base + path, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        error.close()
        return error.code
    except OSError:
        return None


def worker_children(serve: subprocess.Popen) -> list[psutil.Process]:
    """serve's running `python -m workers` children."""
    found = []
    for process in psutil.Process(serve.pid).children():
        with contextlib.suppress(psutil.ZombieProcess, psutil.NoSuchProcess):
            if process.cmdline()[1:3] == ["-m", "workers"]:
                found.append(process)
    return found


def test_serve_restarts_a_killed_worker_and_the_api_keeps_answering(tmp_path):
    server = RedisServer(tmp_path / "redis")
    server.start()
    connection = Redis.from_url(server.url)
    log = tmp_path / "serve.log"
    try:
        with serving(log, tmp_path / "run", 2, REDIS_URL=server.url) as (serve, base):
            wait_for(lambda: Worker.count(connection=connection) == 2, STARTUP, "two workers")
            first = worker_children(serve)
            victim = first[0]
            for process in [*victim.children(recursive=True), victim]:
                process.kill()
            killed = time.monotonic()
            assert status(base, "/healthz") == 200 and status(base, "/readyz") == 200  # the other worker is alive
            [new] = wait_for(lambda: [p for p in worker_children(serve) if p not in first], 30, "a new worker")
            started = time.monotonic() - killed
            wait_for(lambda: new.pid in {w.pid for w in Worker.all(connection=connection)}, STARTUP,
                     "the new worker to register")
            print(f"\nworker restarted {started:.1f} s after the kill, registered {time.monotonic() - killed:.1f} s")
            assert len(worker_children(serve)) == 2 and serve.poll() is None
            assert status(base, "/healthz") == 200 and status(base, "/readyz") == 200
            assert re.search(rf"worker-\d \(pid {victim.pid}\) exited with -9 .*restarting in 1 s", log.read_text())
    finally:
        connection.close()
        server.stop()


def test_serve_keeps_the_embedded_redis_and_the_control_socket_under_the_run_dir(tmp_path):
    run_dir = tmp_path / "run"
    with serving(tmp_path / "serve.log", run_dir, 0) as (serve, base):
        assert status(base, "/healthz") == 200
        redis = Redis.from_url(f"unix://{run_dir / 'redis' / 'redis.sock'}")
        redis.set("kept", "yes")
        redis.close()
        assert (run_dir / "gunicorn.ctl").is_socket()
    assert list((run_dir / "redis").glob("appendonly*"))  # the append-only file (a directory from Redis 7)
    with serving(tmp_path / "again.log", run_dir, 0):
        redis = Redis.from_url(f"unix://{run_dir / 'redis' / 'redis.sock'}")
        assert redis.get("kept") == b"yes"
        redis.close()


def test_serve_moves_a_socket_whose_path_is_too_long_and_says_so(tmp_path):
    run_dir = tmp_path / ("deep-" * 20)
    log = tmp_path / "serve.log"
    with serving(log, run_dir, 0):
        said = log.read_text()
        url = re.search(r"embedded Redis at (unix://\S+),", said).group(1)
        assert "is too long for a unix socket" in said and str(run_dir) not in url
        redis = Redis.from_url(url)
        assert redis.ping() and redis.config_get("dir")["dir"] == str(run_dir / "redis")
        redis.close()


def test_serve_says_where_the_pages_and_the_docs_are_once_ready(tmp_path):
    log = tmp_path / "serve.log"
    with serving(log, tmp_path / "run", 0) as (serve, base):
        wait_for(lambda: "OpenAPI spec" in log.read_text(), 30, "the ready report")
        said = log.read_text()
        for line in (f"serve: hand lab:      {base}/ui\n", f"serve: replay viewer: {base}/ui/replay\n",
                     f"serve: API docs:      {base}/docs\n", f"serve: OpenAPI spec:  {base}/openapi.json\n"):
            assert line in said, said[-2000:]
        assert said.count("serve: ready\n") == 1
        for page in ("/ui", "/ui/replay", "/docs", "/openapi.json"):
            assert status(base, page) == 200, page
