"""Does GET /healthz stay answered while slow clients hold connections open (a slowloris attack)?

Starts gunicorn as `python -m service serve` runs it (deploy/gunicorn.conf.py, overridable by its environment
variables) on a free loopback port, or targets --url. Opens N connections that send a request header one byte a
second and never finish it (a connection the server closes is opened again), and meanwhile probes /healthz every
--interval seconds on a fresh connection, each probe in its own thread with a 5 s timeout. Prints the share of
probes answered 200 within 1 s, and p50 / p99 probe latency (a failed probe counts as its timeout).

Usage: python bench/slowloris.py [--connections 50] [--seconds 30] [--interval 0.5] [--url http://127.0.0.1:PORT]
                                 [--json]
Bounded in connections and time; loopback only.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOOPBACK = ("127.0.0.1", "localhost", "::1")
PROBE_TIMEOUT = 5.0
WITHIN = 1.0
#: A request header that never ends: sent one byte a second, then a header line of filler, forever.
SLOW_HEADER = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def gunicorn() -> Iterator[str]:
    """gunicorn with deploy/gunicorn.conf.py on a free loopback port, as serve starts it; its base URL."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="slowloris-") as metrics:
        env = {**os.environ, "BIND": f"127.0.0.1:{port}", "PROMETHEUS_MULTIPROC_DIR": metrics}
        server = subprocess.Popen(
            [str(Path(sys.executable).with_name("gunicorn")), "--config", str(ROOT / "deploy" / "gunicorn.conf.py"),
             "service.app:create_app()"], env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while probe(base) is None:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"gunicorn did not start (exit {server.poll()})")
                time.sleep(0.2)
            yield base
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def probe(base: str) -> float | None:
    """Seconds until GET /healthz answered 200 on a fresh connection, or None (error, other status, timeout)."""
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=PROBE_TIMEOUT)
    start = time.perf_counter()
    try:
        conn.request("GET", "/healthz")
        response = conn.getresponse()
        response.read()
        return time.perf_counter() - start if response.status == 200 else None
    except (OSError, http.client.HTTPException):
        return None
    finally:
        conn.close()


class SlowClients:
    """N connections sending a never-ending header one byte a second, reopened when the server drops them."""

    def __init__(self, base: str, count: int) -> None:
        url = urllib.parse.urlsplit(base)
        self.address = (url.hostname, url.port)
        self.socks: list[tuple[socket.socket | None, int]] = [(None, 0)] * count
        self.reopened = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def byte(self, index: int) -> bytes:
        """The index-th byte of the endless header."""
        return SLOW_HEADER[index:index + 1] if index < len(SLOW_HEADER) else b"a"

    def tick(self) -> None:
        """Send every connection its next byte; open the ones that are not (or no longer) connected."""
        for i, (sock, sent) in enumerate(self.socks):
            try:
                if sock is None:
                    sock = socket.create_connection(self.address, timeout=2)
                    sent = 0
                sock.sendall(self.byte(sent))
                self.socks[i] = (sock, sent + 1)
            except OSError:
                if sock is not None:
                    sock.close()
                    self.reopened += 1
                self.socks[i] = (None, 0)

    def run(self) -> None:
        """One byte a second on every connection until stopped."""
        while not self.stopped.is_set():
            self.tick()
            self.stopped.wait(1.0)

    def __enter__(self) -> SlowClients:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join(timeout=10)
        for sock, _ in self.socks:
            if sock is not None:
                sock.close()


def attack(base: str, connections: int, seconds: float, interval: float) -> dict:
    """Probe /healthz every `interval` s for `seconds` while `connections` slow clients hold on."""
    with SlowClients(base, connections) as slow, ThreadPoolExecutor(max_workers=32) as pool:
        time.sleep(2.0)  # let every slow connection be accepted and start its header
        futures = []
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            futures.append(pool.submit(probe, base))
            time.sleep(interval)
        results = [f.result() for f in futures]
        reopened = slow.reopened
    latencies = sorted(PROBE_TIMEOUT if r is None else r for r in results)
    within = sum(1 for r in results if r is not None and r <= WITHIN)
    return {"connections": connections, "seconds": seconds, "probes": len(results), "within_1s": within,
            "share_within_1s": within / len(results), "failed": sum(1 for r in results if r is None),
            "p50_ms": statistics.median(latencies) * 1000,
            "p99_ms": latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1000,
            "slow_reopened": reopened}


def main() -> None:
    """Parse arguments, start gunicorn unless --url is given, run the attack and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--url", help="target this server instead of starting gunicorn")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if not 1 <= args.connections <= 500 or not 0 < args.seconds <= 600:
        raise SystemExit("--connections 1-500 and --seconds up to 600")
    if args.url and urllib.parse.urlsplit(args.url).hostname not in LOOPBACK:
        raise SystemExit("loopback only")
    with contextlib.nullcontext(args.url) if args.url else gunicorn() as base:
        figures = attack(base, args.connections, args.seconds, args.interval)
    worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "default")
    figures["target"] = args.url or f"gunicorn, {worker_class} worker class"
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{args.connections} slow connections (one header byte a second) for {args.seconds:.0f} s, "
          f"/healthz probed every {args.interval} s ({figures['target']}):")
    print(f"  {figures['within_1s']}/{figures['probes']} probes answered within 1 s "
          f"({figures['share_within_1s']:.1%}), {figures['failed']} failed (no answer in {PROBE_TIMEOUT:.0f} s)")
    print(f"  probe latency p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms; "
          f"slow connections dropped by the server and reopened: {figures['slow_reopened']}")


if __name__ == "__main__":
    main()
