"""A small closed-loop HTTP load client for loopback benchmarks (keep-alive connections, N processes).

Usage: python bench/load.py URL_BASE --path /healthz [--body-file F] [--seconds 10] [--connections 4]
Prints requests/s, the error count and latency percentiles. Requests are bounded by --seconds; loopback only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import statistics
import time
import urllib.parse


def _worker(base: str, path: str, bodies: list[bytes], seconds: float, out: mp.Queue, first: int = 0,
            step: int = 1, forwarded: bool = False) -> None:
    """Send requests on one keep-alive connection until the time is up: bodies first, first + step, ... (so that
    the connections send different bodies: a job submission sent twice is answered from its idempotency key)."""
    url = urllib.parse.urlparse(base)
    if url.hostname not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("loopback only")
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    lat, errors, i = [], 0, first
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        body = bodies[i % len(bodies)] if bodies else None
        i += step
        start = time.perf_counter()
        try:
            # With `forwarded`, each request comes from another client address (X-Forwarded-For, for a server that
            # trusts one proxy): per-client limits and sets stay as small as one client's.
            headers = {"X-Forwarded-For": f"10.{first}.{i // 256 % 256}.{i % 256}"} if forwarded else {}
            if body is None:
                conn.request("GET", path, headers=headers)
            else:
                conn.request("POST", path, body=body, headers={"Content-Type": "application/json", **headers})
            response = conn.getresponse()
            response.read()
            if not 200 <= response.status < 300:
                errors += 1
        except (OSError, http.client.HTTPException):
            errors += 1
            conn.close()
            conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
        lat.append(time.perf_counter() - start)
    out.put((lat, errors))


def latencies(base: str, path: str, bodies: list[bytes], seconds: float, connections: int,
              forwarded: bool = False) -> tuple[list[float], int]:
    """Drive the server with `connections` processes; every request's seconds (sorted) and the error count."""
    out: mp.Queue = mp.Queue()
    procs = [mp.Process(target=_worker, args=(base, path, bodies, seconds, out, k, connections, forwarded))
             for k in range(connections)]
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    return sorted(x for r in results for x in r[0]), sum(r[1] for r in results)


def run(base: str, path: str, bodies: list[bytes], seconds: float, connections: int, forwarded: bool = False) -> dict:
    """Drive the server with `connections` processes; return the figures."""
    lat, errors = latencies(base, path, bodies, seconds, connections, forwarded)
    return {
        "path": path, "requests": len(lat), "errors": errors,
        "rps": len(lat) / seconds,
        "p50_ms": statistics.median(lat) * 1000 if lat else None,
        "p99_ms": lat[int(len(lat) * 0.99)] * 1000 if lat else None,
    }


def main() -> None:
    """CLI."""
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--path", default="/healthz")
    parser.add_argument("--body-file", help="JSON list of request bodies to cycle through (POST)")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--forwarded-for", action="store_true",
                        help="send each request as from another client address (X-Forwarded-For)")
    args = parser.parse_args()
    bodies = []
    if args.body_file:
        with open(args.body_file, encoding="utf-8") as f:
            bodies = [json.dumps(b).encode() for b in json.load(f)]
    print(json.dumps(run(args.base, args.path, bodies, args.seconds, args.connections, args.forwarded_for)))


if __name__ == "__main__":
    main()
