"""How long `./scripts/serve` takes to stop, and what it leaves behind.

Starts `./scripts/serve` in a session of its own (`setsid`: its process group is its pid) with the embedded Redis
(REDIS_URL unset) in a fresh data directory, on a free loopback port, with its default workers; waits until the API
answers, the RQ workers are registered and their scheduler holds its locks, and `--settle` seconds more; then stops
it the two ways a user does: Ctrl-C in a terminal (`int-group`: SIGINT to the whole process group,
`kill -INT -- -PGID`) or SIGTERM to serve alone (`term`: `kill -TERM PID`). Prints the seconds until every process
of the tree taken just before the signal is gone (serve, gunicorn and its workers, the RQ workers, their scheduler
and work horse, Redis), when each part ended, and any process still running 60 s after the signal (then killed).

`--busy` first submits a deep search of about 40 s (POST /v1/searches) and waits until a worker runs it; after the
stop the job's state is read back from the embedded Redis's data (`queued`: back on its queue, `finished`; `started`
means it was left to be found abandoned).

Usage: .venv/bin/python bench/stops.py [--runs 2] [--mode int-group|term|both] [--busy] [--settle 5] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psutil
from redis import Redis
from redis.exceptions import RedisError
from rq import Worker

from service.jobs.queues import QUEUES, connect, fetch
from service.runtime.localredis import RedisServer

ROOT = Path(__file__).resolve().parents[1]
READY = 180.0  # seconds: gunicorn and every worker build the evaluation tables first, on shared cores
GONE = 60.0  # seconds after the signal before what is left is reported and killed
WORKERS = 2
#: The dealer's opening discard of tests/support/jobs.py, searched for 40 s (far more samples than it gets through).
HAND = ["rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS", "yS", "gS", "wE", "wE",
        "gH", "gH", "yA", "wC"]
SEARCH = {"ruleset": "bga-taiwan", "hand": HAND, "seats": 4, "seat": 0, "samples": 200_000, "time_budget": 40,
          "seed": 3}


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(url: str, body: dict[str, Any] | None = None) -> tuple[int | None, dict[str, Any]]:
    """Status and JSON of a GET (or a POST of `body`), never through a proxy; (None, {}) when nothing answers."""
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    data = None if body is None else json.dumps(body).encode()
    call = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with direct.open(call, timeout=5) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        error.close()
        return error.code, {}
    except (OSError, ValueError):
        return None, {}


def wait_for(check: Any, timeout: float, what: str) -> Any:
    """Poll `check` until it returns something true; SystemExit after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(RedisError):
            value = check()
            if value:
                return value
        time.sleep(0.1)
    raise SystemExit(f"gave up after {timeout:.0f} s waiting for {what}")


def schedulers_ready(redis: Redis) -> bool:
    """Every queue's scheduler lock is held and its scheduler process registered."""
    return all(redis.exists(f"rq:scheduler-lock:{name}") for name in QUEUES) and bool(redis.keys("rq:scheduler:*"))


def labelled(serve: psutil.Process, redis: Redis) -> dict[psutil.Process, str]:
    """serve's process tree, each process named by its part."""
    scheduler_pids = {int(redis.hget(key, "pid") or 0) for key in redis.keys("rq:scheduler:*")}
    names = {serve: "serve"}
    for process in serve.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            parent = names.get(process.parent(), "")
            command = " ".join(process.cmdline())
            if "redis-server" in command:
                names[process] = "redis"
            elif parent == "serve" and "-m workers" in command:
                names[process] = "rq worker"
            elif parent == "serve" and "gunicorn" in command:
                names[process] = "gunicorn"
            elif parent == "gunicorn":
                names[process] = "gunicorn worker"
            elif parent == "rq worker":
                names[process] = "rq scheduler" if process.pid in scheduler_pids else "rq work horse"
            else:
                names[process] = f"other ({command[:60]})"
    return names


def running(process: psutil.Process) -> bool:
    """Still there and not a zombie (a zombie has ended; its parent has yet to reap it)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def job_state(data_dir: Path, job_id: str) -> str:
    """The job's state in the embedded Redis's saved data (the server started again on it for a moment)."""
    server = RedisServer(data_dir, persist=True)
    server.start()
    redis = connect(server.url)
    try:
        status = fetch(job_id, redis).get_status()
        return str(getattr(status, "value", status))
    finally:
        redis.close()
        server.stop()


def one_stop(mode: str, busy: bool, settle: float, log: Path) -> dict[str, Any]:
    """Start serve, stop it by `mode` `settle` seconds after it is ready (and the job runs); seconds until its
    whole tree is gone, when each part ended, and what was left."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="stops-") as run:
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}
        env.update(BIND=f"127.0.0.1:{port}", LONGCARDS_DATA_DIR=run, LONGCARDS_WORKERS=str(WORKERS))
        with log.open("ab") as out:
            serve = subprocess.Popen([str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env, stdout=out,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        redis = Redis.from_url(f"unix://{run}/redis/redis.sock?db=0", socket_timeout=5)
        job_id = None
        try:
            wait_for(lambda: request(f"{base}/healthz")[0] == 200, READY, "the API")
            wait_for(lambda: Worker.count(connection=redis) == WORKERS, READY, "the workers")
            wait_for(lambda: schedulers_ready(redis), READY, "the scheduler")
            if busy:
                status, job = request(f"{base}/v1/searches", SEARCH)
                assert status == 202, status
                job_id = job["id"]
                wait_for(lambda: fetch(job_id, redis).get_status() == "started", READY, "the job to start")
                time.sleep(1)
            tree = labelled(psutil.Process(serve.pid), redis)
            time.sleep(settle)
            started = time.monotonic()
            if mode == "int-group":
                os.killpg(serve.pid, signal.SIGINT)
            else:
                serve.send_signal(signal.SIGTERM)
            ended: dict[str, float] = {}  # each part: seconds until its last process ended
            while time.monotonic() - started < GONE:
                serve.poll()
                alive = {p for p in tree if running(p)}
                for part in set(tree.values()) - {tree[p] for p in alive}:
                    ended.setdefault(part, round(time.monotonic() - started, 2))
                if not alive:
                    break
                time.sleep(0.02)
            seconds = time.monotonic() - started
            left = [f"{tree[p]} (pid {p.pid}, parent {p.ppid()})" for p in tree if running(p)]
        finally:
            redis.close()
            for process in psutil.Process().children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    process.kill()
            if serve.poll() is None:
                serve.kill()
            serve.wait()
        kept = {"processes": len(tree), "ended": dict(sorted(ended.items(), key=lambda item: item[1]))}
        result = {"mode": mode, "busy": busy, "seconds": round(seconds, 2), "left": left, "exit": serve.returncode,
                  **kept}
        for process in psutil.process_iter():  # orphans of the tree that outlived the kill above (reparented)
            if process in tree and running(process):
                with contextlib.suppress(psutil.Error):
                    process.kill()
        if job_id is not None:
            result["job"] = job_state(Path(run) / "redis", job_id)
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--mode", choices=("int-group", "term", "both"), default="both")
    parser.add_argument("--busy", action="store_true", help="a job runs when the signal comes")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds between ready and the signal")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    modes = ("int-group", "term") if args.mode == "both" else (args.mode,)
    log = Path(tempfile.gettempdir()) / "stops-serve.log"
    results = []
    for _ in range(args.runs):
        for mode in modes:
            result = one_stop(mode, args.busy, args.settle, log)
            results.append(result)
            if not args.json:
                left = "; ".join(result["left"]) or "nothing"
                job = f", job {result['job']}" if "job" in result else ""
                print(f"{mode:9} {'busy' if args.busy else 'idle'}: {result['seconds']:6.2f} s for "
                      f"{result['processes']} processes, exit {result['exit']}{job}; left running: {left}",
                      flush=True)
                print("          ended: " + ", ".join(f"{part} {at:.2f}" for part, at in result["ended"].items()))
    if args.json:
        print(json.dumps(results, indent=1))
    print(f"(serve's output: {log})", file=sys.stderr)


if __name__ == "__main__":
    main()
